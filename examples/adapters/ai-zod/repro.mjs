// One tool-conformance case against ai 6.0.333 (the Vercel AI SDK) with zod 4.6.7, as the ai-zod
// adapter runs it: a tool whose inputSchema is a zod schema, written from the JSON Schema by the
// adapter's own zodInputSchema (schema.mjs), called the way a model's tool call reaches it:
// generateText() with the SDK's mock model, whose tool-call part carries the arguments as JSON
// text. From the adapter folder, with its pins installed (npm ci): node repro.mjs
import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { callerGot, modelCalling, toolReceived } from 'tool-conformance-adapter/reproduction';
import { zodInputSchema } from './schema.mjs';

const toolName = '__TOOL__';
const tools = { [toolName]: tool({ inputSchema: zodInputSchema(JSON.parse(String.raw`__SCHEMA__`)), execute: toolReceived }) };
// The model's tool call carries the arguments as JSON text: this text, exactly. A call zod
// refuses is an invalid tool call, not retried.
const model = modelCalling(MockLanguageModelV3, toolName, String.raw`__ARGUMENTS__`);
callerGot((await generateText({ model, tools, prompt: 'Call the tool.', maxRetries: 0 })).content, { invalid: true });
