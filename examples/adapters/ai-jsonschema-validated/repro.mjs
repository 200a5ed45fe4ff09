// ai 6.0.333 with ajv 8.20.0 (npm install ai@6.0.333 ajv@8.20.0 zod@4.6.7): a tool made with
// jsonSchema() and an Ajv validate, called the way a model's tool call reaches it: generateText()
// with the SDK's mock model.
import { generateText, tool, jsonSchema } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import Ajv from 'ajv';

const toolName = __TOOL__;
const schema = __SCHEMA__;
const args = __ARGUMENTS__;
const ajv = new Ajv({ allErrors: true, strict: false });
const check = ajv.compile(schema);
const tools = {
    [toolName]: tool({
        inputSchema: jsonSchema(schema, {
            validate: (value) => (check(value) ? { success: true, value } : { success: false, error: new Error(ajv.errorsText(check.errors)) }),
        }),
        execute: async (input) => {
            console.log('tool received:', JSON.stringify(input));
            return 'ok';
        },
    }),
};
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const model = new MockLanguageModelV3({
    doGenerate: async () => ({
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(args) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
    }),
});
const { content } = await generateText({ model, tools, prompt: 'Call the tool.' });
for (const part of content) {
    if (part.type === 'tool-error' || part.invalid) console.log('error:', part.error?.message ?? part.error);
}
