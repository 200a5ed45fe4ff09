#!/usr/bin/env node
// An MCP server on FastMCP for TypeScript (npm fastmcp), as its users write one, for
// `tool-conformance run --mcp-server`: the harness is its MCP client over stdio.
//
// Every tool of the run's manifest (TOOL_CONFORMANCE_MANIFEST) is added with
// server.addTool({ name, description, parameters, execute }), its parameters the zod schema a
// server author writes for the tool's JSON Schema (schema.mjs). execute appends what it received
// to the record (TOOL_CONFORMANCE_RECORD) and returns "ok". Then the server is started on stdio
// (server.start({ transportType: 'stdio' })). Nothing here validates, repairs or rewrites
// arguments: FastMCP validates each call with the parameters' Standard Schema validate and calls
// execute with its value, or answers the error it makes.
//
//     TOOL_CONFORMANCE_MANIFEST=manifest.json TOOL_CONFORMANCE_RECORD=record.jsonl node server.mjs
//
// A tool that cannot be served is left out, and the record says so before the server serves (the
// kit's recordRefusal, quoting the error): a schema zod refuses to write (schema.mjs), parameters
// FastMCP's tools/list cannot turn into the JSON Schema it publishes (it converts every tool's
// parameters with xsschema's toJsonSchema when tools/list is first asked, and one that throws fails
// the whole listing, so it is converted here the same way first), or a tool addTool refuses. The
// harness declines that tool's cases with those words.

import { FastMCP } from 'fastmcp';
import { installedVersion } from 'tool-conformance-adapter';
import { ManifestError, loadManifest, recordCall, recordRefusal } from 'tool-conformance-adapter/manifest';
import { toJsonSchema } from 'xsschema';
import { Refused, zodParameters } from './schema.mjs';

const log = (...args) => console.error('[fastmcp-ts]', ...args);

let tools;
try {
    ({ tools } = loadManifest());
} catch (why) {
    if (!(why instanceof ManifestError)) throw why;
    log(why.message);
    process.exit(2);
}

const server = new FastMCP({ name: 'fastmcp', version: installedVersion(import.meta.resolve, 'fastmcp') });
for (const tool of tools) {
    let parameters;
    try {
        parameters = zodParameters(tool.input_schema);
    } catch (why) {
        if (!(why instanceof Refused)) throw why;
        log(`tool ${tool.name} is not added: ${why.message}`);
        recordRefusal(tool.name, why.message);
        continue;
    }
    try {
        await toJsonSchema(parameters);
    } catch (why) {
        const refusal = `FastMCP's tools/list (xsschema toJsonSchema) refused the parameters: ${why?.name ?? 'Error'}: ${why?.message ?? why}`;
        log(`tool ${tool.name} is not added: ${refusal}`);
        recordRefusal(tool.name, refusal);
        continue;
    }
    try {
        server.addTool({
            name: tool.name,
            description: tool.description,
            parameters,
            execute: async (args) => recordCall(tool.name, args),
        });
    } catch (why) {
        const refusal = `FastMCP.addTool refused the tool: ${why?.name ?? 'Error'}: ${why?.message ?? why}`;
        log(`tool ${tool.name} is not added: ${refusal}`);
        recordRefusal(tool.name, refusal);
    }
}
log(`zod ${installedVersion(import.meta.resolve, 'zod')}, ${tools.length} tools in the manifest`);
await server.start({ transportType: 'stdio' });
