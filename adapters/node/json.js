// JSON with exact numbers for protocol v1 adapters in JavaScript.
//
// `parse` reads strict RFC 8259 JSON into plain JS values (numbers as JS numbers) and, beside
// them, a table of the literal each number was written with. `stringify` writes a JS value back
// as JSON text, writing every number that equals the double of a literal in that table with the
// literal itself: so a value that passed through a runtime unchanged goes back with the digits it
// came with (`12345678901234567890123`, `1.0`, `-0`), while a number the runtime computed is
// written as JavaScript writes it. Strings keep lone surrogates (written as `\udXXX` escapes).

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const SPACE = /[ \t\n\r]*/y;

/** The key of a double in a literals table (keeps -0 apart from 0). */
const keyOf = (n) => (Object.is(n, -0) ? '-0' : String(n));

/** A table from doubles to the literals that were parsed into them (the first literal wins). */
export class Literals {
    constructor() {
        this.map = new Map();
    }
    /** Records that `literal` was parsed into `value`. */
    add(value, literal) {
        const key = keyOf(value);
        if (!this.map.has(key)) this.map.set(key, literal);
    }
    /** The literal recorded for this double, or undefined. */
    get(value) {
        return this.map.get(keyOf(value));
    }
}

/**
 * Parses JSON text strictly. Returns `{ value, literals }`. Throws SyntaxError with the offset
 * on anything that is not JSON (NaN, Infinity, trailing commas, comments, trailing text).
 */
export function parse(text, literals = new Literals()) {
    let at = 0;
    const fail = (what) => {
        throw new SyntaxError(`${what} at offset ${at}`);
    };
    const space = () => {
        SPACE.lastIndex = at;
        SPACE.exec(text);
        at = SPACE.lastIndex;
    };
    const string = () => {
        STRING.lastIndex = at;
        const match = STRING.exec(text);
        if (!match) fail('a bad string');
        at = STRING.lastIndex;
        return JSON.parse(match[0]);
    };
    const value = (depth) => {
        if (depth > 10000) fail('nesting too deep');
        space();
        const c = text[at];
        if (c === '{') {
            at++;
            const object = {};
            space();
            if (text[at] === '}') {
                at++;
                return object;
            }
            for (;;) {
                space();
                if (text[at] !== '"') fail('expected a key');
                const key = string();
                space();
                if (text[at] !== ':') fail("expected ':'");
                at++;
                // defineProperty: a key "__proto__" is data, not the prototype
                Object.defineProperty(object, key, { value: value(depth + 1), writable: true, enumerable: true, configurable: true });
                space();
                if (text[at] === ',') {
                    at++;
                    continue;
                }
                if (text[at] === '}') {
                    at++;
                    return object;
                }
                fail("expected ',' or '}'");
            }
        }
        if (c === '[') {
            at++;
            const array = [];
            space();
            if (text[at] === ']') {
                at++;
                return array;
            }
            for (;;) {
                array.push(value(depth + 1));
                space();
                if (text[at] === ',') {
                    at++;
                    continue;
                }
                if (text[at] === ']') {
                    at++;
                    return array;
                }
                fail("expected ',' or ']'");
            }
        }
        if (c === '"') return string();
        if (text.startsWith('true', at)) {
            at += 4;
            return true;
        }
        if (text.startsWith('false', at)) {
            at += 5;
            return false;
        }
        if (text.startsWith('null', at)) {
            at += 4;
            return null;
        }
        NUMBER.lastIndex = at;
        const match = NUMBER.exec(text);
        if (!match) fail('expected a JSON value');
        at = NUMBER.lastIndex;
        const number = Number(match[0]);
        literals.add(number, match[0]);
        return number;
    };
    const result = value(0);
    space();
    if (at !== text.length) fail('text after the JSON value');
    return { value: result, literals };
}

/** JSON text that `stringify` writes as it is (a value already written, such as a recording). */
export class RawJson {
    constructor(text) {
        this.text = text;
    }
}

/**
 * JSON text for a JS value: key order kept; a number equal to the double of a literal in
 * `literals` written with that literal (even Infinity, from a literal like 1e400), any other
 * finite number as JavaScript writes it. NaN, any other Infinity, undefined, functions and
 * symbols are refused with a TypeError (a value that is not JSON is an error, never silently
 * dropped). A BigInt is written with its digits.
 */
export function stringify(value, literals = new Literals()) {
    const seen = new Set();
    const write = (v) => {
        if (v === null) return 'null';
        switch (typeof v) {
            case 'boolean':
                return v ? 'true' : 'false';
            case 'string':
                return JSON.stringify(v);
            case 'bigint':
                return v.toString();
            case 'number': {
                const literal = literals.get(v);
                if (literal !== undefined) return literal; // 1e400 parsed to Infinity goes back as 1e400
                if (!Number.isFinite(v)) throw new TypeError(`${v} is not a JSON number`);
                return Object.is(v, -0) ? '-0' : JSON.stringify(v);
            }
            case 'object': {
                if (v instanceof RawJson) return v.text;
                if (seen.has(v)) throw new TypeError('a cyclic value is not JSON');
                if (typeof v.toJSON === 'function') return write(v.toJSON());
                seen.add(v);
                try {
                    if (Array.isArray(v)) return '[' + v.map(write).join(',') + ']';
                    const parts = [];
                    for (const key of Object.keys(v)) parts.push(JSON.stringify(key) + ':' + write(v[key]));
                    return '{' + parts.join(',') + '}';
                } finally {
                    seen.delete(v);
                }
            }
            default:
                throw new TypeError(`a ${typeof v} is not a JSON value`);
        }
    };
    return write(value);
}
