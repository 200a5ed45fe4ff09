// One tool-conformance case against supergateway 4.0.0 (stdio to Streamable HTTP), as the harness
// runs it: an upstream MCP server on Streamable HTTP on 127.0.0.1 that lists the tool with its JSON
// Schema as registered and validates nothing (the MCP TypeScript SDK's low-level Server, as the
// harness's own upstream), supergateway started in front of it, and the SDK's Client calling
// tools/call through supergateway over stdio. From this folder, with its pins installed (npm ci):
// node repro.mjs
import http from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const name = '__TOOL__';
const schema = JSON.parse(String.raw`__SCHEMA__`);
const args = JSON.parse(String.raw`__ARGUMENTS__`);

// The upstream: one stateless Streamable HTTP server per request, as the SDK's examples write it.
const upstream = http.createServer(async (req, res) => {
    const server = new Server({ name: 'upstream', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name, inputSchema: schema }] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
        console.log('the tool received:', JSON.stringify(request.params.arguments));
        return { content: [{ type: 'text', text: 'ok' }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${upstream.address().port}/mcp`;

const client = new Client({ name: 'repro-client', version: '1.0.0' });
await client.connect(new StdioClientTransport({
    command: 'node_modules/.bin/supergateway',
    args: ['--streamableHttp', url, '--logLevel', 'none'],
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
