// The MCP registry (Pair), driven through a small stand-in for an MCP SDK: a server that keeps
// registered handlers and a client that calls them, joined in memory. What a row's framework does
// (its own checks, its own wire decoder) is the stand-in's here; what is tested is what the kit
// does around it: recording what the handler got, reading the caller's error, listing tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Failure, RawJson, Rejected, Unsupported } from '../index.js';
import { McpRuntime, frameworkText, mcpPairs, wireProblems } from '../mcp.js';

class McpServer {
    constructor() {
        this.tools = new Map();
    }
    registerTool(name, config, handler) {
        if (this.tools.has(name)) throw new Error(`Tool ${name} is already registered`);
        const tool = { config, handler, remove: () => this.tools.delete(name) };
        this.tools.set(name, tool);
        return tool;
    }
    async connect(transport) {
        transport.server = this;
    }
    async close() {}
}

class Client {
    async connect(transport) {
        this.link = transport.peer;
    }
    async callTool({ name, arguments: args }) {
        const tool = this.link.server.tools.get(name);
        const required = tool.config.inputSchema.required ?? [];
        const missing = required.filter((field) => !(field in args));
        if (missing.length) return { isError: true, content: [{ type: 'text', text: `missing ${missing.join(', ')}` }] };
        if (args.boom) throw new Error('MCP error -32603: boom');
        return tool.handler(args);
    }
    async listTools({ cursor } = {}) {
        const names = [...this.link.server.tools.keys()];
        const at = cursor === undefined ? 0 : Number(cursor);
        const page = { tools: names.slice(at, at + 1).map((name) => ({ name, inputSchema: this.link.server.tools.get(name).config.inputSchema })) };
        if (at + 1 < names.length) page.nextCursor = String(at + 1);
        return page;
    }
    async close() {}
}

const InMemoryTransport = {
    createLinkedPair() {
        const server = {};
        return [{ peer: server }, server];
    },
};

const Pair = mcpPairs({
    McpServer,
    Client,
    InMemoryTransport,
    StreamableHTTPServerTransport: class {},
    StreamableHTTPClientTransport: class {},
    deserializeMessage: (line) => JSON.parse(line),
    prepare: (schema) => {
        if (schema.type !== 'object') throw new Unsupported('only object schemas');
        return schema;
    },
    log: () => {},
});

const SCHEMA = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

test('a call that reaches the handler reports exactly what it received, as it happens', async () => {
    const pair = new Pair();
    pair.addTool('t', 'a tool', SCHEMA);
    await pair.connect();
    const seen = [];
    const outcome = await pair.call('t', '{"n":1e2,"s":"a&amp;b"}', 'structured', (text) => seen.push(text));
    assert.deepEqual(outcome, { handlerCalls: 1, received: '{"n":100,"s":"a&amp;b"}' });
    assert.deepEqual(seen, ['{"n":100,"s":"a&amp;b"}']);
    assert.equal(pair.tools.get('t').onCall, null);
    await pair.close();
});

test("a refused call reports the caller's error text, from a result or a thrown error", async () => {
    const pair = new Pair();
    pair.addTool('t', undefined, SCHEMA);
    await pair.connect();
    assert.deepEqual(await pair.call('t', '{}'), { handlerCalls: 0, message: 'missing n' });
    assert.deepEqual(await pair.call('t', '{"n":1,"boom":true}'), { handlerCalls: 0, message: 'MCP error -32603: boom' });
    // Text the framework's wire decoder refuses is its error, with the handler never reached.
    const wire = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"n":}}}';
    assert.deepEqual(await pair.call('t', '{"n":}'), { handlerCalls: 0, message: frameworkText(catchOf(() => JSON.parse(wire))) });
});

test('tools/list is read page by page; unknown and declined tools are answered, not called', async () => {
    const pair = new Pair();
    pair.addTool('a', undefined, SCHEMA);
    pair.addTool('b', undefined, { ...SCHEMA, required: [] });
    await pair.connect();
    assert.deepEqual(await pair.listedSchema('b'), { ...SCHEMA, required: [] });
    await assert.rejects(pair.call('c', '{}'), Failure);
    assert.throws(() => pair.addTool('d', undefined, { type: 'string' }), Unsupported);
    pair.declined.set('d', new Unsupported('d: only object schemas'));
    await assert.rejects(pair.listedSchema('d'), /d: only object schemas/);
    assert.throws(() => pair.addTool('a', undefined, SCHEMA), /registerTool refused a: Tool a is already registered/);
});

class Runtime extends McpRuntime {
    constructor(declines) {
        super(Pair, () => {});
        this.declines = declines;
    }
    problems(tool, message) {
        return [{ kind: 'missing_required', field: message.slice('missing '.length), text: `${tool}: ${message}` }];
    }
}

test('the runtime registers a tool set, invokes, and normalizes through scratch tools', async () => {
    const runtime = new Runtime(false);
    await runtime.register([{ name: 't', input_schema: SCHEMA }]);
    const handled = [];
    assert.equal(await runtime.invoke('structured', 't', { n: 2 }, (value) => handled.push(value)), null);
    assert.ok(handled[0] instanceof RawJson);
    assert.deepEqual(await runtime.invoke('structured', 't', {}, () => {}), {
        message: 'missing n',
        problems: [{ kind: 'missing_required', field: 'n', text: 't: missing n' }],
        expected_fields: [],
    });
    assert.ok((await runtime.normalize(SCHEMA, { n: 3 })) instanceof RawJson);
    await assert.rejects(runtime.normalize(SCHEMA, {}), (why) => why instanceof Rejected);
    assert.equal(runtime.scratchCounter, 2);
    assert.equal(runtime.scratch.tools.size, 0);
    await assert.rejects(runtime.register([{ name: 't', input_schema: SCHEMA }, { name: 't', input_schema: SCHEMA }]), /registered twice/);
    await assert.rejects(runtime.register([{ name: 's' }]), Failure);
    await runtime.close();
    assert.throws(() => runtime.requireRegistry(), /no tools are registered/);
});

test('a tool whose schema a declining row cannot say is left out, and answered with why', async () => {
    await assert.rejects(new Runtime(false).register([{ name: 'd', input_schema: { type: 'string' } }]), Unsupported);
    const runtime = new Runtime(true);
    await runtime.register([{ name: 'd', input_schema: { type: 'string' } }, { name: 't', input_schema: SCHEMA }]);
    await assert.rejects(runtime.invoke('structured', 'd', {}, () => {}), (why) => why instanceof Unsupported && why.message === 'd: only object schemas');
    assert.equal(await runtime.invoke('structured', 't', { n: 1 }, () => {}), null);
    await runtime.close();
});

test("the wire check's issues: a wrong type of the arguments or under them, any other issue by its code", () => {
    assert.deepEqual(
        wireProblems([
            { code: 'invalid_type', path: ['params', 'arguments'], message: 'expected record' },
            { code: 'invalid_type', path: ['params', 'arguments', 'a', 0], message: 'expected string' },
            { code: 'custom', path: ['params', 'name'], message: 'bad name' },
            {},
        ]),
        [
            { kind: 'wrong_type', path: 'params.arguments', text: 'expected record' },
            { kind: 'wrong_type', field: 'a', path: 'params.arguments.a.0', text: 'expected string' },
            { kind: 'custom', path: 'params.name', text: 'bad name' },
            { kind: 'unrecognized', path: '', text: '' },
        ],
    );
});

function catchOf(run) {
    try {
        run();
    } catch (why) {
        return why;
    }
    throw new Error('expected a throw');
}
