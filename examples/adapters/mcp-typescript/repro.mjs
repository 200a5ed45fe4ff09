// One tool-conformance case against the MCP TypeScript server (@modelcontextprotocol/server v2),
// as the adapter runs it: McpServer.registerTool with the raw schema wrapped by fromJsonSchema,
// called with tools/call from a Client over the package's InMemoryTransport pair. From the
// adapter folder, with its pins installed (npm ci): node repro.mjs
import { McpServer, InMemoryTransport, fromJsonSchema } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';

const name = '__TOOL__';
const schema = JSON.parse(String.raw`__SCHEMA__`);
const args = JSON.parse(String.raw`__ARGUMENTS__`);

const server = new McpServer({ name: 'repro', version: '1.0.0' }, { capabilities: { tools: {} } });
server.registerTool(name, { inputSchema: fromJsonSchema(schema) }, async (received) => {
    console.log('the tool received:', JSON.stringify(received));
    return { content: [{ type: 'text', text: 'ok' }] };
});
const client = new Client({ name: 'repro', version: '1.0.0' });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
await client.connect(clientSide);
try {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) console.log('the caller got:', result.content.map((c) => c.text).join('\n'));
} catch (error) {
    console.log('the caller got:', error.message);
}
await client.close();
await server.close();
