#!/usr/bin/env node
// A tool-conformance adapter (protocol v1) for LangChain.js, @langchain/core 1: each tool is made
// with tool(func, { name, description, schema: <the JSON Schema> }) (a DynamicStructuredTool, which
// validates its input with @cfworker/json-schema), and called the ways LangChain calls a tool:
// direct, tool.invoke(args) with the arguments as a value; structured, a model's raw tool call
// (OpenAI format, arguments as JSON text) read by the framework's defaultToolCallParser into a
// ToolCall, then tool.invoke(toolCall) as an agent's tool node does. Nothing here validates,
// repairs or rewrites arguments. The protocol half is the Node adapter kit's.
//
//     node adapter.mjs                      # protocol v1 on stdin and stdout; logs on stderr
//     node adapter.mjs --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL

import { tool } from '@langchain/core/tools';
import { defaultToolCallParser } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { serve, Unsupported, Failure, Rejected, RawJson, snapshot, installedVersion, argumentsText, checkedTools } from 'tool-conformance-adapter';

const log = (...args) => console.error('[langchain-core-js adapter]', ...args);
const PACKAGE = '@langchain/core';
// No http: @langchain/core serves no tool endpoint.
const TRANSPORTS = ['direct', 'structured'];
/** The name of the scratch tool normalize registers. */
const SCRATCH_TOOL = 'repro';

/** One tool, as an app author makes it, with a recording function. */
function makeTool(name, description, schema) {
    const record = { calls: [], onCall: null };
    let made;
    try {
        made = tool(
            async (input) => {
                const text = snapshot(input);
                record.calls.push(text);
                record.onCall?.(text, input);
                return 'ok';
            },
            { name, description: description ?? '', schema },
        );
    } catch (why) {
        throw new Unsupported(`tool() refused ${name}: ${why?.message ?? why}`);
    }
    return { tool: made, record };
}

/** The error the caller got, as the protocol's error object (the message is all it says). */
function errorObject(why) {
    const message = why instanceof Error ? why.message : String(why);
    return { message, problems: [], expected_fields: [] };
}

/**
 * Calls a tool on a transport. direct: tool.invoke(args). structured: the model's raw tool call
 * (arguments as JSON text) through defaultToolCallParser, then tool.invoke(toolCall). Returns
 * {handlerCalls, received?, value?, error?}.
 */
async function call(entry, name, args, transport, onCall = null) {
    const { tool: t, record } = entry;
    record.calls = [];
    record.onCall = onCall;
    try {
        let input = args;
        if (transport === 'structured') {
            const raw = { id: 'call-1', type: 'function', function: { name, arguments: argumentsText(args) } };
            const [toolCalls, invalidToolCalls] = defaultToolCallParser([raw]);
            if (invalidToolCalls.length > 0) return { handlerCalls: 0, error: { message: String(invalidToolCalls[0].error) } };
            input = { ...toolCalls[0], type: 'tool_call' };
        }
        try {
            await t.invoke(input);
        } catch (why) {
            if (record.calls.length === 0) return { handlerCalls: 0, error: errorObject(why) };
        }
        return { handlerCalls: record.calls.length, received: record.calls.at(-1) };
    } finally {
        record.onCall = null;
    }
}

class Runtime {
    constructor() {
        this.tools = null;
    }

    register(tools) {
        const made = new Map();
        for (const t of checkedTools(tools, (name) => made.has(name))) made.set(t.name, makeTool(t.name, t.description, t.input_schema));
        this.tools = made;
    }

    entry(name) {
        if (!this.tools) throw new Failure('no tools are registered');
        const entry = this.tools.get(name);
        if (!entry) throw new Failure(`no tool named ${JSON.stringify(name)} is registered`);
        return entry;
    }

    // Both views answer the parameters LangChain hands a chat model for the tool
    // (convertToOpenAITool, what bindTools sends): the framework has no discovery tool.
    describe(name, view) {
        if (view !== 'get_api_spec' && view !== 'direct') throw new Unsupported(`no view ${JSON.stringify(view)}`);
        return new RawJson(snapshot(convertToOpenAITool(this.entry(name).tool).function.parameters));
    }

    // direct: the arguments are handed over as JS values, so the kit writes a number the tool
    // received back with the request's literal (a JS value cannot hold more than a double; the
    // framework did not round it). structured: what the tool received after the framework's own
    // JSON.parse of the tool call, as JSON text, so its rounding shows.
    async invoke(transport, name, args, handler) {
        const onCall = transport === 'direct' ? (_text, input) => handler(input) : (text) => handler(new RawJson(text));
        const outcome = await call(this.entry(name), name, args, transport, onCall);
        return outcome.handlerCalls > 0 ? null : outcome.error;
    }

    async normalize(schema, args) {
        // One fixed name (the one a reproduction of a normalize case uses), so that no message
        // depends on how many normalize calls came before.
        const name = SCRATCH_TOOL;
        const outcome = await call(makeTool(name, undefined, schema), name, args, 'structured');
        if (outcome.handlerCalls > 0) return new RawJson(outcome.received);
        throw new Rejected({ message: outcome.error.message });
    }
}

serve({
    implementation: {
        name: PACKAGE,
        version: installedVersion(import.meta.resolve, PACKAGE, `${PACKAGE}/tools`),
        language: 'typescript',
        homepage: 'https://github.com/langchain-ai/langchainjs',
        rules: ['RT-TOOL-8', 'PLAT-162'],
        transports: TRANSPORTS,
    },
    runtime: () => new Runtime(),
});
log('tools made with tool(func, { schema: <JSON Schema> })');
