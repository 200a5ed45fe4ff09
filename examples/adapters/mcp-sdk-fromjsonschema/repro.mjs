// @modelcontextprotocol/sdk 1.32.2 with zod 4.6.7 (npm install @modelcontextprotocol/sdk@1.32.2 zod@4.6.7),
// a tool whose inputSchema is z.fromJSONSchema(schema), called with tools/call over the SDK's
// in-memory transport.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';

const server = new McpServer({ name: 'repro', version: '1.0.0' });
server.registerTool(__TOOL__, { inputSchema: z.fromJSONSchema(__SCHEMA__) }, async (args) => {
    console.log('handler received:', JSON.stringify(args));
    return { content: [{ type: 'text', text: 'ok' }] };
});
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'repro-client', version: '1.0.0' });
await client.connect(clientSide);
try {
    const result = await client.callTool({ name: __TOOL__, arguments: __ARGUMENTS__ });
    console.log('result:', JSON.stringify(result));
} catch (error) {
    console.log('error:', error.message);
}
await client.close();
