// One tool-conformance case against the MCP TypeScript server (@modelcontextprotocol/server v2),
// as the adapter runs it: McpServer.registerTool with the raw schema wrapped by fromJsonSchema,
// called with tools/call from a Client over the package's InMemoryTransport pair. From the
// adapter folder, with its pins installed (npm ci): node repro.mjs
import { McpServer, InMemoryTransport, fromJsonSchema } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { callOverPair, handlerReceived } from 'tool-conformance-adapter/reproduction';

const name = '__TOOL__';
const server = new McpServer({ name: 'repro', version: '1.0.0' }, { capabilities: { tools: {} } });
server.registerTool(name, { inputSchema: fromJsonSchema(JSON.parse(String.raw`__SCHEMA__`)) }, handlerReceived);
const args = JSON.parse(String.raw`__ARGUMENTS__`);
await callOverPair(server, new Client({ name: 'repro', version: '1.0.0' }), InMemoryTransport.createLinkedPair(), name, args);
