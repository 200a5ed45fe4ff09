// One tool-conformance case against ai 6.0.333 (the Vercel AI SDK) with zod 4.6.7, as the ai-zod
// adapter runs it: a tool whose inputSchema is a zod schema, written from the JSON Schema by the
// adapter's own zodInputSchema (schema.mjs), called the way a model's tool call reaches it:
// generateText() with the SDK's mock model, whose tool-call part carries the arguments as JSON
// text. From the adapter folder, with its pins installed (npm ci): node repro.mjs
import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { zodInputSchema } from './schema.mjs';

const toolName = '__TOOL__';
// The model's tool call carries the arguments as JSON text: this text, exactly.
const argumentsText = String.raw`__ARGUMENTS__`;
const tools = {
    [toolName]: tool({
        inputSchema: zodInputSchema(JSON.parse(String.raw`__SCHEMA__`)),
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
const { content } = await generateText({ model, tools, prompt: 'Call the tool.', maxRetries: 0 });
for (const part of content) {
    if (part.type === 'tool-call' && part.invalid) console.log('the caller got:', part.error?.message ?? part.error);
    if (part.type === 'tool-error') console.log('the caller got:', part.error?.message ?? part.error);
}
