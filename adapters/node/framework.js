// Pieces every framework adapter needs around the protocol: the arguments as JSON text for a
// framework's wire decoder, the JSON text of what a tool received, taken at the moment of the call,
// and the version of the framework installed beside the adapter
// (what `start` answers).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Literals, stringify } from './json.js';

/** The doubles a literal beyond the double range (1e400) parses to, and a literal for each. */
const BEYOND_DOUBLES = new Literals();
BEYOND_DOUBLES.add(Infinity, '1e400');
BEYOND_DOUBLES.add(-Infinity, '-1e400');

/**
 * The JSON text of arguments as the kit hands them over, for a framework's wire decoder (a tool
 * call as a model or a client sends it): key order as sent, each number the double its literal
 * parsed to, -0 as `-0`, and Infinity (from a literal such as 1e400) as `1e400`, which
 * JSON.parse reads back as Infinity. So JSON.parse reads this text into the same values as the
 * text the harness sent.
 */
export function argumentsText(args) {
    return stringify(args, BEYOND_DOUBLES);
}

/**
 * JSON text of a value as it is now (what a tool received, when it ran; a schema a framework
 * publishes): JSON.stringify's text, but -0 kept as `-0`. As JSON.stringify does, an `undefined`,
 * function or symbol member of an object is left out and one in an array written `null`, a
 * top-level `undefined` is `null`, and a value with `toJSON` is written as that gives it.
 */
export function snapshot(value) {
    if (value === undefined) return 'null';
    if (typeof value === 'number') return Object.is(value, -0) ? '-0' : JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : snapshot(v))).join(',')}]`;
    if (typeof value === 'object' && value !== null && typeof value.toJSON !== 'function') {
        const parts = [];
        for (const key of Object.keys(value)) {
            const v = value[key];
            if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
            parts.push(`${JSON.stringify(key)}:${snapshot(v)}`);
        }
        return `{${parts.join(',')}}`;
    }
    return JSON.stringify(value);
}

/**
 * The version of an installed package, read from its package.json: `resolve` is the adapter's own
 * `import.meta.resolve` (so the package is the one installed beside the adapter, not beside the
 * kit), `entry` a specifier the package exports (its exports map need not expose
 * ./package.json); the folders above the entry point are searched, up to 8, for the package.json
 * named `name`. `'unknown'` when there is none.
 */
export function installedVersion(resolve, name, entry = name) {
    let dir = dirname(fileURLToPath(resolve(entry)));
    for (let i = 0; i < 8; i++) {
        try {
            const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
            if (meta.name === name) return meta.version;
        } catch {
            /* not here */
        }
        dir = dirname(dir);
    }
    return 'unknown';
}
