// One tool-conformance case against ai 6.0.333 (the Vercel AI SDK) with ajv 8.20.0, as the
// ai-jsonschema-validated adapter runs it: a tool made with jsonSchema(schema, { validate }) and an
// Ajv validate, called the way a model's tool call reaches it: generateText() with the SDK's mock
// model, whose tool-call part carries the arguments as JSON text. From the adapter folder, with
// its pins installed (npm ci): node repro.mjs
import { generateText, tool, jsonSchema } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import Ajv from 'ajv';

const toolName = '__TOOL__';
const schema = JSON.parse(String.raw`__SCHEMA__`);
// The model's tool call carries the arguments as JSON text: this text, exactly.
const argumentsText = String.raw`__ARGUMENTS__`;
const ajv = new Ajv({ allErrors: true, strict: false });
const check = ajv.compile(schema);
const tools = {
    [toolName]: tool({
        inputSchema: jsonSchema(schema, {
            validate: (value) => (check(value) ? { success: true, value } : { success: false, error: new Error(ajv.errorsText(check.errors)) }),
        }),
        execute: async (input) => {
            console.log('the tool received:', JSON.stringify(input));
            return 'ok';
        },
    }),
};
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const model = new MockLanguageModelV3({
    doGenerate: async () => ({
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: argumentsText }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
    }),
});
const { content } = await generateText({ model, tools, prompt: 'Call the tool.' });
for (const part of content) {
    if (part.type === 'tool-error') console.log('the caller got:', part.error?.message ?? part.error);
}
