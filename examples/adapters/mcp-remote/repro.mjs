// One tool-conformance case against mcp-remote 0.15.1 (stdio to a remote Streamable HTTP server), as
// the harness runs it: an upstream MCP server on Streamable HTTP on 127.0.0.1 that lists the tool with
// its JSON Schema as registered and validates nothing, not even that the arguments are an object (a
// bare JSON-RPC responder, as the harness's own upstream), mcp-remote started in front of it with its
// state folder (MCP_REMOTE_CONFIG_DIR) in this folder's node_modules/.mcp-auth rather than ~/.mcp-auth, and the
// MCP TypeScript SDK's Client calling tools/call through mcp-remote over stdio. From this folder,
// with its pins installed (npm ci): node repro.mjs
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

const name = '__TOOL__';
const schema = JSON.parse(String.raw`__SCHEMA__`);
const args = JSON.parse(String.raw`__ARGUMENTS__`);

// The upstream: each POST a JSON-RPC message answered with JSON, whatever its params hold.
const upstream = http.createServer((req, res) => {
    if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
    }
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
        const message = JSON.parse(body);
        if (message.id === undefined) {
            res.writeHead(202).end();
            return;
        }
        let result = {};
        if (message.method === 'initialize') {
            result = {
                protocolVersion: message.params.protocolVersion,
                capabilities: { tools: {} },
                serverInfo: { name: 'upstream', version: '1.0.0' },
            };
        } else if (message.method === 'tools/list') {
            result = { tools: [{ name, inputSchema: schema }] };
        } else if (message.method === 'tools/call') {
            console.log('the tool received:', JSON.stringify(message.params.arguments));
            result = { content: [{ type: 'text', text: 'ok' }] };
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${upstream.address().port}/mcp`;

const client = new Client({ name: 'repro-client', version: '1.0.0' });
await client.connect(new StdioClientTransport({
    command: 'node_modules/.bin/mcp-remote',
    args: [url],
    env: { ...getDefaultEnvironment(), MCP_REMOTE_CONFIG_DIR: 'node_modules/.mcp-auth' },
    stderr: 'ignore',
}));
try {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) console.log('the caller got:', result.content.map((c) => c.text).join(' '));
} catch (error) {
    console.log('the caller got:', error.message);
}
await client.close();
upstream.close();
upstream.closeAllConnections();
