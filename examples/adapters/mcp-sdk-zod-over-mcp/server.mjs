#!/usr/bin/env node
// An MCP server on the MCP TypeScript SDK v1 (@modelcontextprotocol/sdk), as its authors write one,
// for `tool-conformance run --mcp-server`: the harness is its MCP client over stdio.
//
// Every tool of the run's manifest (TOOL_CONFORMANCE_MANIFEST) is registered with
// McpServer.registerTool(name, { inputSchema: <zod raw shape> }, handler), the raw shape written
// from the tool's JSON Schema by the Node kit's zod-shape (the mapping the mcp-sdk-zod row registers
// with). The handler appends what it received to the record (TOOL_CONFORMANCE_RECORD) and returns
// "ok". Then the server is connected to the SDK's StdioServerTransport. Nothing here validates,
// repairs or rewrites arguments: the SDK reads each line, checks the call against the zod shape
// and calls the handler, or answers the error it makes.
//
//     TOOL_CONFORMANCE_MANIFEST=manifest.json TOOL_CONFORMANCE_RECORD=record.jsonl node server.mjs
//
// A tool registerTool refuses is left out of tools/list, and the record says so before the server
// serves (the kit's recordRefusal, with the SDK's error): the harness declines that tool's cases
// with it. A tool whose schema the kit's zod-shape cannot write is left out too, said only on
// stderr: that is this fixture's limit, not the SDK's, so the harness reports its cases as errors
// naming the tool.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { installedVersion } from 'tool-conformance-adapter';
import { ManifestError, loadManifest, recordCall, recordRefusal } from 'tool-conformance-adapter/manifest';
import { toRawShape, useZod } from 'tool-conformance-adapter/zod-shape';
import { z } from 'zod';

useZod(z);

const PACKAGE = '@modelcontextprotocol/sdk';
const log = (...args) => console.error('[mcp-sdk-zod-over-mcp]', ...args);

let tools;
try {
    ({ tools } = loadManifest());
} catch (why) {
    if (!(why instanceof ManifestError)) throw why;
    log(why.message);
    process.exit(2);
}

const server = new McpServer(
    { name: PACKAGE, version: installedVersion(import.meta.resolve, PACKAGE, `${PACKAGE}/server/mcp.js`) },
    { capabilities: { tools: {} } },
);
for (const tool of tools) {
    let inputSchema;
    try {
        inputSchema = toRawShape(tool.input_schema);
    } catch (why) {
        log(`tool ${tool.name} is not registered: a zod raw shape cannot say its schema: ${why?.message ?? why}`);
        continue;
    }
    const config = { inputSchema };
    if (tool.description !== undefined) config.description = tool.description;
    try {
        server.registerTool(tool.name, config, async (args) => {
            recordCall(tool.name, args);
            return { content: [{ type: 'text', text: 'ok' }] };
        });
    } catch (why) {
        const refusal = `McpServer.registerTool refused the tool: ${why?.name ?? 'Error'}: ${why?.message ?? why}`;
        log(`tool ${tool.name} is not registered: ${refusal}`);
        recordRefusal(tool.name, refusal);
    }
}
log(`zod ${installedVersion(import.meta.resolve, 'zod')}, ${tools.length} tools in the manifest`);
await server.connect(new StdioServerTransport());
