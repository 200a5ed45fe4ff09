// An MCP server under test, reached over MCP itself (`tool-conformance run --mcp-server CMD`): the
// tool manifest it registers its tools from, and the record of what each tool's handler received
// (docs/protocol.md, "MCP").
//
// The harness writes the run's tools to a file (UTF-8 JSON, schemas/manifest.schema.json) and
// names it in TOOL_CONFORMANCE_MANIFEST:
//
//     {"manifest": 1, "tools": [{"name": "update_step", "description": "...", "input_schema": {...}}]}
//
// `loadManifest()` reads it with the kit's strict `parse` and returns the tools (and the literal of
// every number, for a server that needs the digits). A server registers every tool as its users
// register one, with a handler that calls `recordCall(name, args)` with what it received and
// returns "ok":
//
//     import { loadManifest, recordCall } from 'tool-conformance-adapter/manifest';
//     for (const tool of loadManifest().tools) {
//         server.registerTool(tool.name, { inputSchema: shapeOf(tool.input_schema) }, (args) => {
//             recordCall(tool.name, args);
//             return { content: [{ type: 'text', text: 'ok' }] };
//         });
//     }
//
// `recordCall` appends one line to the file named by TOOL_CONFORMANCE_RECORD, written before it
// returns: `{"tool": NAME, "arguments": VALUE}`, the compact text of the kit's `jsonText` (each
// number as the runtime holds it, the double written as JavaScript writes it; key order kept). A
// value JSON cannot carry (NaN, undefined, a function) is recorded as `{"tool": NAME, "not_json":
// TEXT}`, TEXT what the handler received as `util.inspect` renders it, saying so and why it is not
// JSON: the handler ran on a value other than any a case expects, and the harness fails the case.
//
// A tool the server's framework refuses to register is left out of `tools/list`, and
// `recordRefusal(name, why)` says so in the record, before the server serves: `{"tool": NAME,
// "refused": WHY}`, WHY quoting the framework's error in the form `<call> refused <what>: <its
// error>`. The harness then declines that tool's cases with WHY, as a protocol-v1 adapter declines
// with `unsupported`.

import { appendFileSync, readFileSync } from 'node:fs';
import { inspect } from 'node:util';

import { parse } from './json.js';
import { jsonText } from './template.js';

export const MANIFEST_ENV = 'TOOL_CONFORMANCE_MANIFEST';
export const RECORD_ENV = 'TOOL_CONFORMANCE_RECORD';
export const MANIFEST_VERSION = 1;

/** The manifest is missing, unreadable, or not a tool manifest; the message names the file. */
export class ManifestError extends Error {}

function pathFrom(given, variable) {
    const path = given ?? process.env[variable];
    if (!path) throw new ManifestError(`${variable} is not set: start this server with \`tool-conformance run --mcp-server\``);
    return path;
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The tools of the manifest at `path` (by default the file TOOL_CONFORMANCE_MANIFEST names), in
 * its order, and the literals its numbers were written with: `{ tools, literals }`, each tool
 * `{ name, description?, input_schema }`.
 */
export function loadManifest(path) {
    path = pathFrom(path, MANIFEST_ENV);
    let text;
    try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path));
    } catch (why) {
        throw new ManifestError(`${path}: cannot be read as UTF-8: ${why?.message ?? why}`);
    }
    let parsed;
    try {
        parsed = parse(text);
    } catch (why) {
        throw new ManifestError(`${path}: not JSON: ${why.message}`);
    }
    const { value: document, literals } = parsed;
    if (!isObject(document) || document.manifest !== MANIFEST_VERSION) {
        throw new ManifestError(`${path}: not a tool manifest of version ${MANIFEST_VERSION} (no "manifest": ${MANIFEST_VERSION})`);
    }
    if (!Array.isArray(document.tools)) throw new ManifestError(`${path}: "tools" is not a list`);
    const names = new Set();
    document.tools.forEach((tool, index) => {
        const where = `${path}: tools[${index}]`;
        if (!isObject(tool)) throw new ManifestError(`${where} is not an object`);
        if (typeof tool.name !== 'string' || tool.name === '') throw new ManifestError(`${where} has no name`);
        if (names.has(tool.name)) throw new ManifestError(`${where}: the name ${JSON.stringify(tool.name)} is published twice`);
        names.add(tool.name);
        if (!Object.hasOwn(tool, 'input_schema')) throw new ManifestError(`${where} (${tool.name}) has no input_schema`);
        if (Object.hasOwn(tool, 'description') && typeof tool.description !== 'string') {
            throw new ManifestError(`${where} (${tool.name}): description is not a string`);
        }
    });
    return { tools: document.tools, literals };
}

/** The line `recordCall` appends for a call of `tool` that received `args`, with its `\n`. */
export function recordLine(tool, args) {
    try {
        return `{"tool":${jsonText(tool)},"arguments":${jsonText(args)}}\n`;
    } catch (why) {
        const text = `${inspect(args, { depth: null, breakLength: Infinity })} (util.inspect; not JSON: ${why?.name ?? 'Error'}: ${why?.message ?? why})`;
        return `{"tool":${jsonText(tool)},"not_json":${jsonText(text)}}\n`;
    }
}

/** The line `recordRefusal` appends for a tool the framework refused to register, with its `\n`. */
export function refusalLine(tool, why) {
    return `{"tool":${jsonText(tool)},"refused":${jsonText(String(why))}}\n`;
}

/**
 * Says in the record (by default the file TOOL_CONFORMANCE_RECORD names) that the framework refused
 * to register `tool`, and why (`<call> refused <what>: <its error>`): one line, written before it
 * returns. The server leaves the tool out of its listing.
 */
export function recordRefusal(tool, why, path) {
    appendFileSync(pathFrom(path, RECORD_ENV), refusalLine(tool, why), 'utf8');
}

/**
 * Appends what the handler of `tool` received to the record (by default the file
 * TOOL_CONFORMANCE_RECORD names): one line, written before it returns. Returns "ok".
 */
export function recordCall(tool, args, path) {
    const line = recordLine(tool, args);
    appendFileSync(pathFrom(path, RECORD_ENV), line, 'utf8');
    return 'ok';
}
