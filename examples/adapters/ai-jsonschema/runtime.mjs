// The Vercel AI SDK adapter (protocol v1) shared by the rows ai-jsonschema and
// ai-jsonschema-validated: each tool is made with tool({ description, inputSchema:
// jsonSchema(schema<, { validate }>), execute }) and called the way a model's tool call reaches it:
// generateText() with a mock language model (MockLanguageModelV3 from ai/test) whose one response
// is a tool-call part holding the arguments as JSON text, so the SDK's own tool-call parsing (JSON
// parsing and, when given, the schema's validate) and tool execution run. What a row's schema.mjs
// gives jsonSchema() is the only difference between the rows. The protocol half is the Node
// adapter kit's.
//
// This file imports no package (only node: built-ins): each row's adapter.mjs imports ai, ai/test,
// the kit and its schema.mjs from its own folder, so from its own node_modules and pins, and hands
// them to serveAiSdk. A row therefore runs only what its own npm ci installed, and this file can
// serve a row other than the one whose folder it sits in.

const PACKAGE = 'ai';
// structured: a model's tool call through generateText. No direct (the SDK has no call path of
// its own besides a tool call from a model: tool.execute is the author's own function) and no
// http (the SDK serves no tool endpoint).
const TRANSPORTS = ['structured'];
/** The name of the scratch tool normalize registers. */
const SCRATCH_TOOL = 'repro';

const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

const messageOf = (error) => (error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error));

/**
 * Serves protocol v1 for one row (the kit's `serve`, on stdio or --http), with the SDK's modules,
 * the kit and the row's schema.mjs as the row's adapter.mjs imported them.
 *
 * @param {object} row
 * @param {string} row.adapter the row's name, for the log
 * @param {object} row.ai generateText, tool and jsonSchema from ai, MockLanguageModelV3 from ai/test
 * @param {object} row.kit the module tool-conformance-adapter
 * @param {object} row.schema the row's schema.mjs: schemaOptions(schema), the options given to
 *     jsonSchema() (throwing the kit's Unsupported for a schema the row cannot use),
 *     problemsFrom(error) and VALIDATOR, a phrase for the log
 * @param {(specifier: string) => string} row.resolve the row's import.meta.resolve, to read the
 *     installed version of ai
 */
export function serveAiSdk({ adapter, ai, kit, schema: { schemaOptions, problemsFrom, VALIDATOR }, resolve: resolveImport }) {
    const { generateText, tool, jsonSchema, MockLanguageModelV3 } = ai;
    const { serve, Unsupported, Failure, Rejected, RawJson, snapshot, installedVersion, argumentsText, checkedTools } = kit;
    const log = (...args) => console.error(`[${adapter} adapter]`, ...args);

    /**
     * A mock model whose one response is `content` (a tool call, or text); it keeps the tool
     * definitions the SDK handed it, which are what a real provider would be sent.
     */
    function mockModel(content) {
        const seen = { tools: undefined };
        const model = new MockLanguageModelV3({
            doGenerate: async (options) => {
                seen.tools = options.tools;
                return {
                    content,
                    finishReason: { unified: content.some((c) => c.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined },
                    usage: USAGE,
                    warnings: [],
                };
            },
        });
        return { model, seen };
    }

    /** A set of tools made the way an app author makes them, each with a recording execute. */
    class Registry {
        constructor() {
            this.tools = {}; // name -> ai tool
            this.records = new Map(); // name -> { calls }
        }

        add(name, description, schema) {
            const record = { calls: [], onCall: null };
            const definition = {
                inputSchema: jsonSchema(schema, schemaOptions(schema)),
                execute: async (input) => {
                    const text = snapshot(input);
                    record.calls.push(text);
                    record.onCall?.(text);
                    return 'ok';
                },
            };
            if (description !== undefined) definition.description = description;
            let made;
            try {
                made = tool(definition);
            } catch (why) {
                throw new Unsupported(`tool() refused ${name}: ${why?.message ?? why}`);
            }
            Object.defineProperty(this.tools, name, { value: made, enumerable: true, writable: true, configurable: true });
            this.records.set(name, record);
        }

        record(name) {
            const record = this.records.get(name);
            if (!record) throw new Failure(`no tool named ${JSON.stringify(name)} is registered`);
            return record;
        }

        /**
         * One model turn whose response is a tool call of `name` with `argumentsText` as its input
         * (the JSON text a provider sends), run by generateText. Returns {handlerCalls, received?,
         * error?}: the error is the one the SDK reports for the call (a tool-call part marked
         * invalid, a tool-error part, or what generateText threw).
         */
        async call(name, argumentsText, onCall = null) {
            const record = this.record(name);
            record.calls = [];
            record.onCall = onCall;
            const { model } = mockModel([{ type: 'tool-call', toolCallId: 'call-1', toolName: name, input: argumentsText }]);
            let result;
            try {
                result = await generateText({ model, tools: this.tools, prompt: 'Call the tool.', maxRetries: 0 });
            } catch (why) {
                if (record.calls.length > 0) return { handlerCalls: record.calls.length, received: record.calls.at(-1) };
                return { handlerCalls: 0, error: why };
            } finally {
                record.onCall = null;
            }
            if (record.calls.length > 0) return { handlerCalls: record.calls.length, received: record.calls.at(-1) };
            const content = result.content ?? [];
            const invalid = content.find((p) => p.type === 'tool-call' && p.invalid);
            if (invalid?.error) return { handlerCalls: 0, error: invalid.error };
            const failed = content.find((p) => p.type === 'tool-error');
            if (failed) return { handlerCalls: 0, error: failed.error };
            return { handlerCalls: 0, error: new Error(`the tool did not run and no error was reported: ${JSON.stringify(content).slice(0, 300)}`) };
        }

        /** The inputSchema the SDK hands a provider for the tool (what a model is shown). */
        async providerSchema(name) {
            this.record(name);
            const { model, seen } = mockModel([{ type: 'text', text: 'done' }]);
            await generateText({ model, tools: this.tools, prompt: 'Describe the tools.', maxRetries: 0 });
            const definition = (seen.tools ?? []).find((t) => t.name === name);
            if (!definition) throw new Failure(`the SDK did not hand ${JSON.stringify(name)} to the model`);
            return definition.inputSchema;
        }
    }

    class Runtime {
        constructor() {
            this.registry = null;
        }

        register(tools) {
            const registry = new Registry();
            for (const t of checkedTools(tools, (name) => registry.records.has(name))) registry.add(t.name, t.description, t.input_schema);
            this.registry = registry;
        }

        // Both views answer the tool definition's inputSchema as the SDK hands it to the model
        // provider: the SDK has no discovery tool, and this is the only schema it publishes.
        async describe(name, view) {
            if (view !== 'get_api_spec' && view !== 'direct') throw new Unsupported(`no view ${JSON.stringify(view)}`);
            return new RawJson(snapshot(await this.requireRegistry().providerSchema(name)));
        }

        async invoke(transport, name, args, handler) {
            const outcome = await this.requireRegistry().call(name, argumentsText(args), (text) => handler(new RawJson(text)));
            if (outcome.handlerCalls > 0) return null;
            return { message: messageOf(outcome.error), problems: problemsFrom(outcome.error), expected_fields: [] };
        }

        async normalize(schema, args) {
            const registry = new Registry();
            // One fixed name (the one a reproduction of a normalize case uses), so that no message
            // depends on how many normalize calls came before.
            const name = SCRATCH_TOOL;
            registry.add(name, undefined, schema);
            const outcome = await registry.call(name, argumentsText(args));
            if (outcome.handlerCalls > 0) return new RawJson(outcome.received);
            throw new Rejected({ message: messageOf(outcome.error) });
        }

        requireRegistry() {
            if (!this.registry) throw new Failure('no tools are registered');
            return this.registry;
        }
    }

    serve({
        implementation: {
            name: PACKAGE,
            version: installedVersion(resolveImport, PACKAGE),
            language: 'typescript',
            homepage: 'https://github.com/vercel/ai',
            rules: ['RT-TOOL-8', 'PLAT-162'],
            transports: TRANSPORTS,
        },
        runtime: () => new Runtime(),
    });
    log(`jsonSchema() ${VALIDATOR}`);
}
