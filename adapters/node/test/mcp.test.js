// The MCP registry (Pair), driven through a small stand-in for an MCP SDK: a server that keeps
// registered handlers and a client that calls them, joined in memory. What a row's framework does
// (its own checks, its own wire decoder) is the stand-in's here; what is tested is what the kit
// does around it: recording what the handler got, reading the caller's error, listing tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Failure, Unsupported } from '../index.js';
import { frameworkText, mcpPairs } from '../mcp.js';

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

function catchOf(run) {
    try {
        run();
    } catch (why) {
        return why;
    }
    throw new Error('expected a throw');
}
