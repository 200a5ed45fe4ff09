// One tool-conformance case against @modelcontextprotocol/sdk 1.32.2 with zod 4.6.7, as the
// mcp-sdk-fromjsonschema adapter runs it: McpServer.registerTool with z.fromJSONSchema(schema) as
// the inputSchema, called with tools/call from a Client over the SDK's InMemoryTransport pair.
// From the adapter folder, with its pins installed (npm ci): node repro.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';

const name = '__TOOL__';
const schema = JSON.parse(String.raw`__SCHEMA__`);
const args = JSON.parse(String.raw`__ARGUMENTS__`);

const server = new McpServer({ name: 'repro', version: '1.0.0' });
server.registerTool(name, { inputSchema: z.fromJSONSchema(schema) }, async (received) => {
    console.log('the tool received:', JSON.stringify(received));
    return { content: [{ type: 'text', text: 'ok' }] };
});
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'repro-client', version: '1.0.0' });
await client.connect(clientSide);
try {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) console.log('the caller got:', result.content.map((c) => c.text).join('\n'));
} catch (error) {
    console.log('the caller got:', error.message);
}
await client.close();
await server.close();
