#!/usr/bin/env node
// A tool-conformance adapter (protocol v1) for the Vercel AI SDK, `ai` 6, on its documented tool
// path: tool({ description, inputSchema: <a zod schema>, execute }), the zod written from the
// tool's JSON Schema by schema.mjs, and called the way a model's tool call reaches it:
// generateText() with a mock language model (MockLanguageModelV3 from ai/test) whose one response
// is a tool-call part holding the arguments as JSON text, so the SDK's own tool-call parsing, its
// zod validation (which strips unknown keys) and tool execution run.
// The protocol half is the Node adapter kit's.
//
// The adapter itself is ../ai-jsonschema/runtime.mjs, shared with the rows ai-jsonschema and
// ai-jsonschema-validated; it imports no package, so it runs what this file hands it: the modules
// this folder installed (its own node_modules) and its schema.mjs. It makes each inputSchema with
// `ai.jsonSchema(schema, schemaOptions(schema))`: this row hands it, in jsonSchema's place, the
// function that writes the zod schema (schema.mjs, zodInputSchema), so the tool's inputSchema is a
// zod schema and never a jsonSchema().
//
//     node adapter.mjs                      # protocol v1 on stdin and stdout; logs on stderr
//     node adapter.mjs --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL

import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import * as kit from 'tool-conformance-adapter';

import * as schema from './schema.mjs';
import { serveAiSdk } from '../ai-jsonschema/runtime.mjs';

serveAiSdk({
    adapter: 'ai-zod',
    ai: { generateText, tool, jsonSchema: (json) => schema.zodInputSchema(json), MockLanguageModelV3 },
    kit,
    schema,
    resolve: import.meta.resolve,
});
