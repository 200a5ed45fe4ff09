// One registry of MCP tools as a tool-conformance adapter drives it: the tools registered on an
// McpServer, reached by a Client through an InMemoryTransport pair (structured), and, once asked
// for, on a second McpServer with the same tools and the same recording handlers, reached by a
// Client over Streamable HTTP on 127.0.0.1 (http). It works with the MCP TypeScript SDK v1
// (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/server and /client) alike: this file
// imports no MCP package; a row hands it the classes it imported from its own node_modules.
// Nothing here validates, repairs or rewrites arguments: what the handler receives, and the
// error text the caller gets, are the framework's.

import { randomUUID } from 'node:crypto';
import http from 'node:http';

import { Failure, RawJson, Rejected, Unsupported, argumentsText, checkedTools, snapshot } from './index.js';

/** The message of what the framework threw, as the caller would read it. */
export const frameworkText = (why) => (why instanceof Error ? why.message : String(why));

/**
 * The registry class for one framework.
 *
 * @param {object} framework
 * @param {Function} framework.McpServer the server class (new McpServer(info, options))
 * @param {Function} framework.Client the client class
 * @param {object} framework.InMemoryTransport with createLinkedPair()
 * @param {Function} framework.StreamableHTTPServerTransport the server side of Streamable HTTP
 *     (with handleRequest(req, res))
 * @param {Function} framework.StreamableHTTPClientTransport the client side of Streamable HTTP
 * @param {(line: string) => object} framework.deserializeMessage the framework's wire decoder
 * @param {(schema: unknown) => unknown} [framework.prepare] turns a tool's input_schema into what
 *     is kept for it, once, when the tool is added (may throw Unsupported); the schema itself by default
 * @param {(kept: unknown) => unknown} [framework.inputSchema] turns what is kept into the
 *     inputSchema registerTool is given, on every server the tool is registered on (may throw
 *     Unsupported); what is kept by default
 * @param {string} [framework.who] how the framework is named in a failure ("the framework")
 * @param {(...args: unknown[]) => void} framework.log the adapter's log on stderr
 * @returns {Function} the class Pair
 */
export function mcpPairs({
    McpServer,
    Client,
    InMemoryTransport,
    StreamableHTTPServerTransport,
    StreamableHTTPClientTransport,
    deserializeMessage,
    prepare = (schema) => schema,
    inputSchema = (kept) => kept,
    who = 'the framework',
    log,
}) {
    let pairCounter = 0;

    const newServer = (id) => new McpServer({ name: `tool-conformance-${id}`, version: '1.0.0' }, { capabilities: { tools: {} } });

    /** The loopback HTTP listener, started on the first http invoke; each registry has its own path. */
    let httpListener = null;
    const httpRoutes = new Map(); // path -> the server side of Streamable HTTP

    async function loopback() {
        if (!httpListener) {
            const server = http.createServer((req, res) => {
                const transport = httpRoutes.get(new URL(req.url, 'http://127.0.0.1').pathname);
                if (!transport) {
                    res.writeHead(404, { 'content-type': 'text/plain' }).end('no MCP endpoint here');
                    return;
                }
                transport.handleRequest(req, res).catch((why) => {
                    log('the HTTP transport failed:', why?.stack ?? why);
                    if (!res.headersSent) res.writeHead(500);
                    res.end();
                });
            });
            server.keepAliveTimeout = 60_000;
            await new Promise((resolve, reject) => {
                server.once('error', reject);
                server.listen(0, '127.0.0.1', resolve);
            });
            server.unref();
            httpListener = server;
            log(`MCP Streamable HTTP on http://127.0.0.1:${server.address().port}/`);
        }
        return `http://127.0.0.1:${httpListener.address().port}`;
    }

    return class Pair {
        constructor() {
            this.id = ++pairCounter;
            this.server = newServer(this.id);
            this.client = new Client({ name: 'tool-conformance-harness', version: '1.0.0' });
            this.tools = new Map(); // name -> { name, description, schema, registered, calls, onCall }
            this.declined = new Map(); // name -> the Unsupported a tool's schema was declined with
            this.http = null; // { server, client, path }
        }

        /** Registers one tool the way a server author would: registerTool(name, { inputSchema }, handler). */
        addTool(name, description, schema) {
            const record = { name, description, schema: prepare(schema), calls: [], onCall: null, registered: undefined };
            record.registered = this.registerOn(this.server, record);
            this.tools.set(name, record);
            return record;
        }

        registerOn(server, record) {
            const config = { inputSchema: inputSchema(record.schema) };
            if (record.description !== undefined) config.description = record.description;
            try {
                return server.registerTool(record.name, config, async (args) => {
                    // Record exactly what reached the handler, as JSON, at the moment it ran.
                    const text = snapshot(args);
                    record.calls.push(text);
                    record.onCall?.(text);
                    return { content: [{ type: 'text', text: 'ok' }] };
                });
            } catch (why) {
                throw new Unsupported(`registerTool refused ${record.name}: ${why?.message ?? why}`);
            }
        }

        async connect() {
            const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
            await this.server.connect(serverTransport);
            await this.client.connect(clientTransport);
        }

        async httpClient() {
            if (!this.http) {
                const base = await loopback();
                const server = newServer(this.id);
                for (const record of this.tools.values()) this.registerOn(server, record);
                const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
                await server.connect(transport);
                const path = `/mcp/${this.id}`;
                httpRoutes.set(path, transport);
                const client = new Client({ name: 'tool-conformance-harness', version: '1.0.0' });
                try {
                    await client.connect(new StreamableHTTPClientTransport(new URL(base + path)));
                } catch (why) {
                    httpRoutes.delete(path);
                    await server.close().catch(() => {});
                    throw why;
                }
                this.http = { server, client, path };
            }
            return this.http.client;
        }

        async close() {
            const parts = [this.client, this.server];
            if (this.http) parts.unshift(this.http.client, this.http.server);
            for (const part of parts) {
                try {
                    await part.close();
                } catch (why) {
                    log('closing:', why?.message ?? why);
                }
            }
            if (this.http) httpRoutes.delete(this.http.path);
        }

        record(name) {
            if (this.declined.has(name)) throw this.declined.get(name);
            const record = this.tools.get(name);
            if (!record) throw new Failure(`no tool named ${JSON.stringify(name)} is registered`);
            return record;
        }

        /**
         * One tools/call request on a transport (structured: the in-memory pair; http: Streamable
         * HTTP on loopback). `argumentsText` is JSON text that JSON.parse reads into the values the
         * harness sent (the kit's argumentsText); it goes through the framework's own wire decoder
         * (deserializeMessage, what its stdio transport does to every line) inside a tools/call
         * message, so any change to numbers is the framework's, not the adapter's. `onCall`, when
         * given, is handed the JSON text of each call the handler gets, as it happens.
         * Returns {handlerCalls, received?, message?}.
         */
        async call(name, argumentsText, transport = 'structured', onCall = null) {
            const record = this.record(name);
            const client = transport === 'http' ? await this.httpClient() : this.client;
            record.calls = [];
            record.onCall = onCall;
            try {
                const wire = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argumentsText}}}`;
                let message;
                try {
                    message = deserializeMessage(wire);
                } catch (why) {
                    return { handlerCalls: 0, message: frameworkText(why) };
                }
                let result;
                try {
                    result = await client.callTool({ name, arguments: message.params.arguments });
                } catch (why) {
                    // A JSON-RPC error (or a client-side refusal) is the error the caller got.
                    const calls = record.calls.length;
                    return calls > 0 ? { handlerCalls: calls, received: record.calls.at(-1) } : { handlerCalls: 0, message: frameworkText(why) };
                }
                const calls = record.calls.length;
                if (calls > 0) return { handlerCalls: calls, received: record.calls.at(-1) };
                const texts = (result?.content ?? []).filter((c) => c?.type === 'text').map((c) => c.text);
                return { handlerCalls: 0, message: texts.length ? texts.join('\n') : JSON.stringify(result) };
            } finally {
                record.onCall = null;
            }
        }

        /** The inputSchema a client gets for a tool from tools/list. */
        async listedSchema(name) {
            this.record(name);
            let cursor;
            do {
                let page;
                try {
                    page = await this.client.listTools(cursor === undefined ? {} : { cursor });
                } catch (why) {
                    throw new Failure(`${who}'s tools/list failed: ${frameworkText(why)}`);
                }
                const tool = page.tools.find((t) => t.name === name);
                if (tool) return tool.inputSchema;
                cursor = page.nextCursor;
            } while (cursor);
            throw new Failure(`tools/list does not list ${JSON.stringify(name)}`);
        }
    };
}

/**
 * The problems of the issues (zod's, as JSON) an MCP server's own check of a tools/call request
 * reports, before any tool is looked up. An issue at params.arguments is about the arguments
 * themselves: invalid_type there is the root's wrong type (no field); one below it names the root
 * field it is under. Other issues keep their code as their kind.
 */
export function wireProblems(issues) {
    return issues.map((issue) => {
        const path = Array.isArray(issue?.path) ? issue.path : [];
        const underArguments = path[0] === 'params' && path[1] === 'arguments';
        const rest = underArguments ? path.slice(2) : path;
        const problem = { kind: underArguments && issue?.code === 'invalid_type' ? 'wrong_type' : String(issue?.code ?? 'unrecognized') };
        if (underArguments && rest.length > 0) problem.field = String(rest[0]);
        problem.path = path.map(String).join('.');
        problem.text = String(issue?.message ?? '');
        return problem;
    });
}

/**
 * The runtime object the kit drives (one per `start`) for a row built on mcpPairs: the registered
 * tool set in one Pair, normalize's scratch tools in another. A row extends it with what is its
 * own: `describe(tool, view)`, `problems(tool, message)` (the problems the caller's error text
 * names), and, where it differs from the defaults, `scratchName()`, `rejection(name, message)` and
 * `declines` (true: a tool whose schema the row cannot say is left out of the set, and any call or
 * describe of it is answered with its Unsupported; false: the whole register fails with it).
 */
export class McpRuntime {
    /**
     * @param {Function} Pair the class mcpPairs made for the row's framework
     * @param {(...args: unknown[]) => void} log the adapter's log on stderr
     */
    constructor(Pair, log) {
        this.Pair = Pair;
        this.log = log;
        this.registry = null; // Pair of the registered tool set
        this.scratch = null; // Pair for normalize's scratch tools
        this.scratchCounter = 0;
        this.declines = false;
    }

    async register(tools) {
        const pair = new this.Pair();
        try {
            for (const tool of checkedTools(tools, (name) => pair.tools.has(name) || pair.declined.has(name))) {
                try {
                    pair.addTool(tool.name, tool.description, tool.input_schema);
                } catch (why) {
                    if (!this.declines || !(why instanceof Unsupported)) throw why;
                    pair.declined.set(tool.name, new Unsupported(`${tool.name}: ${why.message}`));
                }
            }
            await pair.connect();
        } catch (why) {
            await pair.close();
            throw why;
        }
        const old = this.registry;
        this.registry = pair;
        if (old) await old.close();
    }

    // Received values go to the kit as JSON text (RawJson), written from the values the framework
    // gave: the kit writes a number that equals the double of a request literal with that
    // literal, which would hide the rounding the framework's own JSON decoding did.
    async invoke(transport, tool, args, handler) {
        const pair = this.requireRegistry();
        const outcome = await pair.call(tool, argumentsText(args), transport, (text) => handler(new RawJson(text)));
        if (outcome.handlerCalls > 0) return null;
        return { message: outcome.message, problems: this.problems(tool, outcome.message), expected_fields: [] };
    }

    /** The name of the next scratch tool normalize registers: normalize_1, normalize_2, ... */
    scratchName() {
        return `normalize_${++this.scratchCounter}`;
    }

    /** What normalize answers when the scratch tool's call was refused: the caller's error. */
    rejection(name, message) {
        return { message };
    }

    async normalize(schema, args) {
        const pair = await this.scratchPair();
        const name = this.scratchName();
        const record = pair.addTool(name, undefined, schema);
        let outcome;
        try {
            outcome = await pair.call(name, argumentsText(args));
        } finally {
            try {
                record.registered.remove();
            } catch (why) {
                this.log('removing a scratch tool:', why?.message ?? why);
            }
            pair.tools.delete(name);
        }
        if (outcome.handlerCalls > 0) return new RawJson(outcome.received);
        throw new Rejected(this.rejection(name, outcome.message));
    }

    async close() {
        const pairs = [this.registry, this.scratch].filter(Boolean);
        this.registry = null;
        this.scratch = null;
        for (const pair of pairs) await pair.close();
    }

    requireRegistry() {
        if (!this.registry) throw new Failure('no tools are registered');
        return this.registry;
    }

    async scratchPair() {
        if (!this.scratch) {
            const pair = new this.Pair();
            await pair.connect();
            this.scratch = pair;
        }
        return this.scratch;
    }
}
