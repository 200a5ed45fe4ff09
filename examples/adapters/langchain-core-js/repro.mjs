// @langchain/core 1.4.0 (npm install @langchain/core@1.4.0): a tool made from a JSON Schema with
// tool(), called as an agent calls it: a model's raw tool call read by defaultToolCallParser, then
// tool.invoke(toolCall).
import { tool } from '@langchain/core/tools';
import { defaultToolCallParser } from '@langchain/core/messages';

const name = __TOOL__;
const myTool = tool(
    async (input) => {
        console.log('tool received:', JSON.stringify(input));
        return 'ok';
    },
    { name, description: 'A tool.', schema: __SCHEMA__ },
);
const raw = { id: 'call-1', type: 'function', function: { name, arguments: JSON.stringify(__ARGUMENTS__) } };
const [[toolCall]] = defaultToolCallParser([raw]);
try {
    const message = await myTool.invoke({ ...toolCall, type: 'tool_call' });
    console.log('result:', message.content);
} catch (error) {
    console.log(`error: ${error.name}: ${error.message}`);
}
