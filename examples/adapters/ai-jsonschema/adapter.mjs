#!/usr/bin/env node
// A tool-conformance adapter (protocol v1) for the Vercel AI SDK, `ai` 6: each tool is made with
// tool({ description, inputSchema: jsonSchema(schema<, { validate }>), execute }) and called the
// way a model's tool call reaches it: generateText() with a mock language model (MockLanguageModelV3
// from ai/test) whose one response is a tool-call part holding the arguments as JSON text, so the
// SDK's own tool-call parsing (JSON parsing and, when given, the schema's validate) and tool
// execution run. This row's schema.mjs gives jsonSchema() nothing: as it ships.
// The protocol half is the Node adapter kit's.
//
// The adapter itself is runtime.mjs, shared with the row ai-jsonschema-validated; this file hands
// it the modules this folder installed and its schema.mjs.
//
//     node adapter.mjs                      # protocol v1 on stdin and stdout; logs on stderr
//     node adapter.mjs --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL

import { generateText, tool, jsonSchema } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import * as kit from 'tool-conformance-adapter';

import * as schema from './schema.mjs';
import { serveAiSdk } from './runtime.mjs';

serveAiSdk({
    adapter: 'ai-jsonschema',
    ai: { generateText, tool, jsonSchema, MockLanguageModelV3 },
    kit,
    schema,
    resolve: import.meta.resolve,
});
