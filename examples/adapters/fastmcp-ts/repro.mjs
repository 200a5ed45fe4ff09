// One tool-conformance case against FastMCP for TypeScript 4.20.16 (npm fastmcp) with zod 4.6.7 over
// MCP, as the harness runs it: server.mjs beside this file (server.addTool with the zod parameters
// schema.mjs writes from the schema, the server started on stdio) started with a one-tool
// manifest, and the MCP TypeScript SDK's Client (the SDK FastMCP is built on) calling tools/call
// over StdioClientTransport. What execute received is read from the record server.mjs keeps. From
// this folder, with its pins installed (npm ci): node repro.mjs
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const name = '__TOOL__';
const schema = JSON.parse(String.raw`__SCHEMA__`);
const args = JSON.parse(String.raw`__ARGUMENTS__`);

const folder = mkdtempSync(join(tmpdir(), 'repro-'));
const manifest = join(folder, 'manifest.json');
const record = join(folder, 'record.jsonl');
writeFileSync(manifest, JSON.stringify({ manifest: 1, tools: [{ name, input_schema: schema }] }));
const client = new Client({ name: 'repro-client', version: '1.0.0' });
await client.connect(new StdioClientTransport({
    command: process.execPath,
    args: ['server.mjs'],
    env: { PATH: process.env.PATH, TOOL_CONFORMANCE_MANIFEST: manifest, TOOL_CONFORMANCE_RECORD: record },
}));
let refused = null;
try {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) refused = result.content.map((c) => c.text).join('\n');
} catch (error) {
    refused = error.message;
}
await client.close();
const ran = existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
for (const line of ran) console.log('the tool received:', JSON.stringify(line.arguments ?? line));
if (!ran.length && refused !== null) console.log('the caller got:', refused.replaceAll('\n', ' '));
rmSync(folder, { recursive: true, force: true });
