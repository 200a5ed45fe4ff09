// One tool-conformance case against @langchain/core 1.4.0, as the langchain-core-js adapter runs
// it: a tool made with tool(func, { schema }) from the JSON Schema, called as an agent calls it: a
// model's raw tool call (arguments as JSON text) read by defaultToolCallParser, then
// tool.invoke(toolCall). From the adapter folder, with its pins installed (npm ci): node repro.mjs
import { tool } from '@langchain/core/tools';
import { defaultToolCallParser } from '@langchain/core/messages';

const name = '__TOOL__';
const myTool = tool(
    async (input) => {
        console.log('the tool received:', JSON.stringify(input));
        return 'ok';
    },
    { name, description: '', schema: JSON.parse(String.raw`__SCHEMA__`) },
);
// The model's raw tool call carries the arguments as JSON text: this text, exactly.
const raw = { id: 'call-1', type: 'function', function: { name, arguments: String.raw`__ARGUMENTS__` } };
const [toolCalls, invalid] = defaultToolCallParser([raw]);
if (invalid.length > 0) {
    console.log('the caller got:', invalid[0].error);
} else {
    try {
        await myTool.invoke({ ...toolCalls[0], type: 'tool_call' });
    } catch (error) {
        console.log('the caller got:', error.message);
    }
}
