// One tool-conformance case against @modelcontextprotocol/sdk 1.32.2 with zod 4.6.7, as the
// mcp-sdk-zod adapter runs it: McpServer.registerTool with a zod raw shape written from the JSON
// Schema by the Node kit's toRawShape (zod-shape, handed this folder's zod), called with
// tools/call from a Client over the SDK's InMemoryTransport pair. From the adapter folder, with its
// pins installed (npm ci): node repro.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { callOverPair, handlerReceived } from 'tool-conformance-adapter/reproduction';
import { toRawShape, useZod } from 'tool-conformance-adapter/zod-shape';
import { z } from 'zod';

useZod(z);

const server = new McpServer({ name: 'repro', version: '1.0.0' });
const inputSchema = toRawShape(JSON.parse(String.raw`__SCHEMA__`));
server.registerTool('__TOOL__', { inputSchema }, handlerReceived);
const client = new Client({ name: 'repro-client', version: '1.0.0' });
const args = JSON.parse(String.raw`__ARGUMENTS__`);
await callOverPair(server, client, InMemoryTransport.createLinkedPair(), '__TOOL__', args);
