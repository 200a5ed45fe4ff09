// One tool-conformance case against ai 6.0.333 (the Vercel AI SDK), as the ai-jsonschema adapter
// runs it: a tool made with jsonSchema(schema) and no validate, as it ships, called the way a
// model's tool call reaches it: generateText() with the SDK's mock model, whose tool-call part
// carries the arguments as JSON text. From the adapter folder, with its pins installed (npm ci):
// node repro.mjs
import { generateText, tool, jsonSchema } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { callerGot, modelCalling, toolReceived } from 'tool-conformance-adapter/reproduction';

const toolName = '__TOOL__';
const inputSchema = jsonSchema(JSON.parse(String.raw`__SCHEMA__`));
// The model's tool call carries the arguments as JSON text: this text, exactly.
const model = modelCalling(MockLanguageModelV3, toolName, String.raw`__ARGUMENTS__`);
const { content } = await generateText({ model, tools: { [toolName]: tool({ inputSchema, execute: toolReceived }) }, prompt: 'Call the tool.' });
callerGot(content);
