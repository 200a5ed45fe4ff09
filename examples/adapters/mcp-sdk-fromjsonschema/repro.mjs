// One tool-conformance case against @modelcontextprotocol/sdk 1.32.2 with zod 4.6.7, as the
// mcp-sdk-fromjsonschema adapter runs it: McpServer.registerTool with z.fromJSONSchema(schema) as
// the inputSchema, called with tools/call from a Client over the SDK's InMemoryTransport pair.
// From the adapter folder, with its pins installed (npm ci): node repro.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { callOverPair, handlerReceived } from 'tool-conformance-adapter/reproduction';

const name = '__TOOL__';
const server = new McpServer({ name: 'repro', version: '1.0.0' });
server.registerTool(name, { inputSchema: z.fromJSONSchema(JSON.parse(String.raw`__SCHEMA__`)) }, handlerReceived);
const client = new Client({ name: 'repro-client', version: '1.0.0' });
await callOverPair(server, client, InMemoryTransport.createLinkedPair(), name, JSON.parse(String.raw`__ARGUMENTS__`));
