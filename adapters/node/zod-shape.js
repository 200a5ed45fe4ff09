// The JSON Schema -> zod raw shape mapping an MCP TypeScript SDK row writes its tools with: what a
// server author writes by hand for `server.registerTool(name, { inputSchema: { field: z.string(),
// ... } }, cb)`. It is the rows' choice, listed in their about.yaml and README.md; what a raw shape
// cannot say is written the nearest way an author can (toRawShape says how).
//
// The kit depends on nothing, so a row hands the mapping its own zod (from its own node_modules and
// pins) before using it:
//
//     import { z } from 'zod';
//     import { useZod, toRawShape } from 'tool-conformance-adapter/zod-shape';
//     useZod(z);

/** The zod the row installed, handed over by `useZod`. */
let z;

/** Hands the mapping the row's zod (the module `zod` exports `z`); call it once, before the rest. */
export function useZod(zod) {
    z = zod;
}

/** Thrown for a schema this mapping cannot say; the adapter answers `unsupported` with it. */
export class CannotSay extends Error {}

// Keywords that only annotate: no check is made from them (format included: JSON Schema 2020-12
// treats it as an annotation, and a hand-written shape says z.string() for it).
const ANNOTATIONS = new Set([
    'title', 'description', 'default', 'examples', '$schema', '$id', '$comment', 'format',
    'readOnly', 'writeOnly', 'deprecated', 'contentMediaType', 'contentEncoding',
]);
/** An annotation, or an extension keyword (x-...), which JSON Schema ignores too. */
const isAnnotation = (key) => ANNOTATIONS.has(key) || key.startsWith('x-');
const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];
/** shape[name] = value as an own property, even for "__proto__" (plain assignment would set the prototype). */
function setOwn(shape, name, value) {
    Object.defineProperty(shape, name, { value, enumerable: true, writable: true, configurable: true });
}
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The raw shape for a tool's input schema, as a server author writes it. A raw shape becomes
 * `z.object(shape)`, a set of named fields, so what it cannot say is written the nearest way an
 * author can: a root open to other names is the shape of its declared names (z.object strips the
 * others); a root `anyOf`/`oneOf` of alternatives is the shape of every alternative's names, each
 * required only where every alternative requires it; other root keywords are left out; a name the
 * root requires but does not declare is `z.unknown()`; a property this mapping cannot say in zod is
 * `z.unknown()`. Only a root that is no object schema is refused (CannotSay).
 */
export function toRawShape(schema) {
    if (schema === true) schema = {};
    if (!isObject(schema)) throw new CannotSay(`the input schema is ${JSON.stringify(schema)}, not an object schema; a raw shape is a set of named fields`);
    if (schema.type !== undefined && schema.type !== 'object') throw new CannotSay(`the root has type ${JSON.stringify(schema.type)}; a raw shape is always an object`);
    const mapper = new Mapper(schema);
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const properties = { ...(isObject(schema.properties) ? schema.properties : {}) };
    for (const key of ['anyOf', 'oneOf']) {
        const branches = Array.isArray(schema[key]) ? schema[key].map((b) => (isObject(b) ? b : {})) : [];
        if (!branches.length) continue;
        for (const branch of branches) {
            for (const [name, sub] of Object.entries(isObject(branch.properties) ? branch.properties : {})) {
                if (!Object.hasOwn(properties, name)) setOwn(properties, name, sub);
            }
        }
        const lists = branches.map((b) => new Set(Array.isArray(b.required) ? b.required : []));
        for (const name of lists[0]) if (lists.every((l) => l.has(name))) required.add(name);
    }
    for (const name of required) if (!Object.hasOwn(properties, name)) setOwn(properties, name, true);
    const shape = {};
    for (const [name, sub] of Object.entries(properties)) {
        let field;
        try {
            field = mapper.map(sub, `/properties/${name}`);
        } catch (why) {
            if (!(why instanceof CannotSay)) throw why;
            field = z.unknown(); // what an author writes for a value zod is not told the shape of
        }
        setOwn(shape, name, required.has(name) ? field : field.optional());
    }
    return shape;
}

/**
 * The zod schema for a whole JSON Schema, any root (an object schema becomes z.object,
 * z.strictObject, z.looseObject or a catchall as a nested object does; a root anyOf a z.union),
 * for a framework that takes a zod schema rather than a raw shape.
 */
export function toZodSchema(schema) {
    return new Mapper(schema).map(schema, '');
}

class Mapper {
    constructor(root) {
        this.root = root;
        this.refs = new Map(); // ref -> zod schema (z.lazy while it is being built)
    }

    map(schema, at) {
        if (schema === true) return z.unknown();
        if (schema === false) return z.never();
        if (!isObject(schema)) throw new CannotSay(`${at} is ${JSON.stringify(schema)}, not a schema`);
        if (schema.$ref !== undefined) {
            const others = Object.keys(schema).filter((k) => k !== '$ref' && !isAnnotation(k));
            if (others.length) throw new CannotSay(`${at} has $ref beside ${others.join(', ')}`);
            return this.ref(schema.$ref, at);
        }
        for (const key of Object.keys(schema)) {
            if (!KNOWN.has(key) && !isAnnotation(key)) throw new CannotSay(`${at} has the keyword ${key}, which this mapping does not say in zod`);
        }
        let out = this.core(schema, at);
        if (typeof schema.description === 'string') out = out.describe(schema.description);
        return out;
    }

    core(schema, at) {
        if (schema.enum !== undefined) return this.enumOf(schema.enum, at);
        if (schema.const !== undefined) return this.enumOf([schema.const], at);
        const unions = ['anyOf', 'oneOf'].filter((k) => schema[k] !== undefined);
        if (unions.length) {
            if (unions.length > 1 || schema.type !== undefined || schema.properties !== undefined) {
                throw new CannotSay(`${at} mixes ${unions.join(' and ')} with other checks`);
            }
            const key = unions[0];
            const branches = schema[key];
            if (!Array.isArray(branches) || branches.length === 0) throw new CannotSay(`${at}/${key} is not a list of schemas`);
            const mapped = branches.map((b, i) => this.map(b, `${at}/${key}/${i}`));
            if (mapped.length === 1) return mapped[0];
            // anyOf: z.union (the first branch that parses wins); oneOf: z.xor (exactly one).
            return key === 'anyOf' ? z.union(mapped) : z.xor(mapped);
        }
        const type = schema.type;
        if (type === undefined) {
            const typed = ['properties', 'items', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems', 'additionalProperties', 'required'];
            const found = typed.filter((k) => schema[k] !== undefined);
            if (found.length) throw new CannotSay(`${at} has ${found.join(', ')} but no type`);
            return z.unknown();
        }
        if (Array.isArray(type)) {
            if (type.length === 0) throw new CannotSay(`${at} has an empty type list`);
            // [T, "null"] is T.nullable(); any other list a z.union of its types.
            const others = type.filter((t) => t !== 'null');
            const mapped = others.map((t) => this.typed(t, schema, at));
            const one = mapped.length === 1 ? mapped[0] : mapped.length === 0 ? z.null() : z.union(mapped);
            return others.length < type.length && others.length > 0 ? one.nullable() : one;
        }
        return this.typed(type, schema, at);
    }

    typed(type, schema, at) {
        if (!TYPES.includes(type)) throw new CannotSay(`${at} has type ${JSON.stringify(type)}`);
        switch (type) {
            case 'string': {
                let s = z.string();
                if (schema.minLength !== undefined) s = s.min(schema.minLength);
                if (schema.maxLength !== undefined) s = s.max(schema.maxLength);
                if (schema.pattern !== undefined) s = s.regex(new RegExp(schema.pattern, 'u'));
                return s;
            }
            case 'number':
            case 'integer': {
                let n = type === 'integer' ? z.int() : z.number();
                if (schema.minimum !== undefined) n = n.gte(schema.minimum);
                if (schema.maximum !== undefined) n = n.lte(schema.maximum);
                if (typeof schema.exclusiveMinimum === 'number') n = n.gt(schema.exclusiveMinimum);
                if (typeof schema.exclusiveMaximum === 'number') n = n.lt(schema.exclusiveMaximum);
                if (schema.multipleOf !== undefined) n = n.multipleOf(schema.multipleOf);
                return n;
            }
            case 'boolean':
                return z.boolean();
            case 'null':
                return z.null();
            case 'array': {
                let a = z.array(schema.items === undefined ? z.unknown() : this.map(schema.items, `${at}/items`));
                if (schema.minItems !== undefined) a = a.min(schema.minItems);
                if (schema.maxItems !== undefined) a = a.max(schema.maxItems);
                return a;
            }
            case 'object':
                return this.object(schema, at);
        }
        throw new CannotSay(`${at} has type ${type}`);
    }

    object(schema, at) {
        const properties = isObject(schema.properties) ? schema.properties : {};
        const required = new Set(Array.isArray(schema.required) ? schema.required : []);
        for (const name of required) {
            if (!Object.hasOwn(properties, name)) throw new CannotSay(`${at} requires ${JSON.stringify(name)}, which it does not declare`);
        }
        const shape = {};
        for (const [name, sub] of Object.entries(properties)) {
            const field = this.map(sub, `${at}/properties/${name}`);
            setOwn(shape, name, required.has(name) ? field : field.optional());
        }
        const extra = schema.additionalProperties;
        // Absent: z.object, what a hand-written nested shape is (unknown keys stripped).
        if (extra === undefined) return z.object(shape);
        if (extra === false) return z.strictObject(shape);
        if (extra === true) return z.looseObject(shape);
        const value = this.map(extra, `${at}/additionalProperties`);
        if (Object.keys(shape).length === 0) return z.record(z.string(), value);
        return z.object(shape).catchall(value);
    }

    resolve(ref, at) {
        if (typeof ref !== 'string' || !ref.startsWith('#/')) throw new CannotSay(`${at} has $ref ${JSON.stringify(ref)}; only local references are mapped`);
        let target = this.root;
        for (const raw of ref.slice(2).split('/')) {
            const seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
            if (!isObject(target) || !Object.hasOwn(target, seg)) throw new CannotSay(`${at} has $ref ${ref}, which does not resolve`);
            target = target[seg];
        }
        return target;
    }

    enumOf(values, at) {
        if (!Array.isArray(values) || values.length === 0) throw new CannotSay(`${at} has an enum that is not a non-empty list`);
        for (const v of values) {
            if (v !== null && typeof v === 'object') throw new CannotSay(`${at} has an enum or const holding ${JSON.stringify(v)}; z.literal takes only primitives`);
        }
        // z.enum for strings; z.literal([...]) (zod 4's multi-value literal) for anything else.
        if (values.every((v) => typeof v === 'string')) return z.enum(values);
        return z.literal(values.length === 1 ? values[0] : values);
    }

    ref(ref, at) {
        if (typeof ref !== 'string' || !ref.startsWith('#/')) throw new CannotSay(`${at} has $ref ${JSON.stringify(ref)}; only local references are mapped`);
        if (this.refs.has(ref)) return this.refs.get(ref);
        const target = this.resolve(ref, at);
        if (target === this.root) throw new CannotSay(`${at} refers to the root, which a raw shape cannot nest`);
        // A chain of references that comes back to itself without a schema in between declares
        // nothing zod can parse (z.lazy would recurse for ever).
        const seen = new Set([ref]);
        for (let hop = target; isObject(hop) && typeof hop.$ref === 'string'; ) {
            if (seen.has(hop.$ref)) throw new CannotSay(`${at} has $ref ${ref}, a cycle of references with no schema in it`);
            seen.add(hop.$ref);
            hop = this.resolve(hop.$ref, at);
        }
        let built = null;
        const lazy = z.lazy(() => built);
        this.refs.set(ref, lazy);
        built = this.map(target, ref.slice(1));
        this.refs.set(ref, built);
        return built;
    }
}

const KNOWN = new Set([
    ...ANNOTATIONS, 'type', 'enum', 'const', 'anyOf', 'oneOf', 'properties', 'required', 'additionalProperties',
    'items', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
    'multipleOf', 'minItems', 'maxItems', '$defs', 'definitions',
]);
