#!/usr/bin/env node
// A tool-conformance adapter (protocol v1) for the MCP TypeScript SDK v1, @modelcontextprotocol/sdk,
// on the path most server authors write: McpServer.registerTool(name, { inputSchema: <zod raw
// shape> }, handler), the raw shape built from the tool's JSON Schema by the Node kit's zod-shape
// (the mapping is this adapter's choice, see README.md), called with tools/call through the SDK's
// InMemoryTransport pair (structured) and its Streamable HTTP transport on 127.0.0.1 (http).
// Nothing here validates, repairs or rewrites arguments: what the handler receives, and the error
// text the caller gets, are the SDK's (zod's). The protocol half is the Node adapter kit's.
//
// The adapter itself is runtime.mjs, shared with the row mcp-sdk-fromjsonschema; this file hands
// it the modules this folder installed and its schema.mjs.
//
//     node adapter.mjs                      # protocol v1 on stdin and stdout; logs on stderr
//     node adapter.mjs --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import * as kit from 'tool-conformance-adapter';
import * as mcp from 'tool-conformance-adapter/mcp';

import * as schema from './schema.mjs';
import { serveMcpSdk } from './runtime.mjs';

serveMcpSdk({
    adapter: 'mcp-sdk-zod',
    sdk: { McpServer, StreamableHTTPServerTransport, Client, StreamableHTTPClientTransport, InMemoryTransport, deserializeMessage },
    kit,
    mcp,
    schema,
    resolve: import.meta.resolve,
});
