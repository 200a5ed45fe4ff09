// One tool-conformance case against ai 6.0.333 (the Vercel AI SDK) with ajv 8.20.0, as the
// ai-jsonschema-validated adapter runs it: a tool made with jsonSchema(schema, { validate }) and an
// Ajv validate, called the way a model's tool call reaches it: generateText() with the SDK's mock
// model, whose tool-call part carries the arguments as JSON text. From the adapter folder, with
// its pins installed (npm ci): node repro.mjs
import { generateText, tool, jsonSchema } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import Ajv from 'ajv';
import { callerGot, modelCalling, toolReceived } from 'tool-conformance-adapter/reproduction';

const toolName = '__TOOL__';
const schema = JSON.parse(String.raw`__SCHEMA__`);
const ajv = new Ajv({ allErrors: true, strict: false });
const check = ajv.compile(schema);
const validate = (value) => (check(value) ? { success: true, value } : { success: false, error: new Error(ajv.errorsText(check.errors)) });
const tools = { [toolName]: tool({ inputSchema: jsonSchema(schema, { validate }), execute: toolReceived }) };
// The model's tool call carries the arguments as JSON text: this text, exactly.
const model = modelCalling(MockLanguageModelV3, toolName, String.raw`__ARGUMENTS__`);
callerGot((await generateText({ model, tools, prompt: 'Call the tool.' })).content);
