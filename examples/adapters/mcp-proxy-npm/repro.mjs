// One tool-conformance case against mcp-proxy 6.7.19 (npm, punkpeye), as the harness runs it: an
// MCP server on stdio that lists the tool with its JSON Schema as registered and validates nothing,
// not even that the arguments are an object (a bare JSON-RPC responder, as the harness's own
// upstream), started by mcp-proxy (`mcp-proxy --port PORT -- CMD`) and served over Streamable HTTP
// on 127.0.0.1, and the MCP client package's Client calling tools/call through it. The server says
// what the tool received on its stderr, which mcp-proxy passes on. From this folder, with its pins
// installed (npm ci): node repro.mjs
import { spawn } from 'node:child_process';
import net from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const name = '__TOOL__';
const schema = JSON.parse(String.raw`__SCHEMA__`);
const args = JSON.parse(String.raw`__ARGUMENTS__`);

// The stdio server: each line a JSON-RPC message, each request answered whatever its params hold.
const server = `
const readline = require('node:readline');
const [name, schema] = [process.env.REPRO_TOOL, JSON.parse(process.env.REPRO_SCHEMA)];
readline.createInterface({ input: process.stdin }).on('line', (line) => {
    const message = JSON.parse(line);
    if (message.id === undefined) return;
    let result = {};
    if (message.method === 'initialize') {
        result = { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} },
                   serverInfo: { name: 'upstream', version: '1.0.0' } };
    } else if (message.method === 'tools/list') {
        result = { tools: [{ name, inputSchema: schema }] };
    } else if (message.method === 'tools/call') {
        process.stderr.write('the tool received: ' + JSON.stringify(message.params.arguments) + '\\n');
        result = { content: [{ type: 'text', text: 'ok' }] };
    }
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');
});
`;

// A loopback port free a moment ago, for mcp-proxy to listen on.
const port = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
    });
});
const proxy = spawn('node_modules/.bin/mcp-proxy',
    ['--host', '127.0.0.1', '--port', String(port), '--', process.execPath, '-e', server],
    { env: { ...process.env, REPRO_TOOL: name, REPRO_SCHEMA: JSON.stringify(schema) }, stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
proxy.stderr.on('data', (chunk) => {
    stderr += chunk;
    const lines = stderr.split('\n');
    stderr = lines.pop();
    for (const line of lines) if (line.startsWith('the tool received:')) console.log(line);
});

const url = new URL(`http://127.0.0.1:${port}/mcp`);
let client;
for (let attempt = 0; ; attempt++) {
    client = new Client({ name: 'repro-client', version: '1.0.0' });
    try {
        await client.connect(new StreamableHTTPClientTransport(url));
        break;
    } catch (error) {
        if (attempt >= 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
}
try {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) console.log('the caller got:', result.content.map((c) => c.text).join(' '));
} catch (error) {
    console.log('the caller got:', error.message);
}
await client.close();
await new Promise((resolve) => setTimeout(resolve, 200));
proxy.kill();
