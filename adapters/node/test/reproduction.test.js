// The reproduction helpers: a template filled as the page fills it and run beside itself, and the
// outcome line read back, with the exact-string call every row's tests send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import {
    EXACT,
    MAIL,
    callOverPair,
    callerGot,
    handlerReceived,
    modelCalling,
    received,
    reproducer,
    toolReceived,
} from '../reproduction.js';

/** What `run` printed with console.log, a line each (arguments joined by a space, as Node does). */
async function printed(run) {
    const lines = [];
    const log = console.log;
    console.log = (...parts) => lines.push(parts.join(' '));
    try {
        await run();
    } finally {
        console.log = log;
    }
    return lines;
}

test('a filled template runs beside itself and its received line reads back exactly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-repro-'));
    try {
        writeFileSync(join(dir, 'repro.mjs'), [
            "const tool = '__TOOL__';",
            'const schema = JSON.parse(String.raw`__SCHEMA__`);',
            'const args = JSON.parse(String.raw`__ARGUMENTS__`);',
            "if (schema.required.every((n) => n in args)) console.log('the tool received: ' + JSON.stringify(args));",
            "else console.log('the caller got: ' + tool + ' misses a name');",
        ].join('\n'));
        const repro = reproducer(pathToFileURL(join(dir, 'test.mjs')).href);
        assert.deepEqual(received(repro(EXACT.tool, EXACT.schema, EXACT.arguments)), EXACT.arguments);
        const refused = repro(EXACT.tool, EXACT.schema, {});
        assert.equal(received(refused), undefined);
        assert.match(refused, /^the caller got: note_it misses a name$/m);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});

test("a template's tool and handler print what they received, as JSON", async () => {
    let returned;
    assert.deepEqual(await printed(async () => { returned = await toolReceived({ a: '\u00e9', b: [1] }); }), ['the tool received: {"a":"\u00e9","b":[1]}']);
    assert.equal(returned, 'ok');
    assert.deepEqual(await printed(async () => { returned = await handlerReceived({}); }), ['the tool received: {}']);
    assert.deepEqual(returned, { content: [{ type: 'text', text: 'ok' }] });
});

test("the mock model answers with one call of the tool, the arguments' text exactly", async () => {
    class Mock {
        constructor(options) {
            this.options = options;
        }
    }
    const model = modelCalling(Mock, 't', '{"a": "&amp;" }');
    const answer = await model.options.doGenerate();
    assert.deepEqual(answer.content, [{ type: 'tool-call', toolCallId: 'call-1', toolName: 't', input: '{"a": "&amp;" }' }]);
    assert.equal(answer.finishReason.unified, 'tool-calls');
});

test('the caller prints tool errors, and invalid calls only when asked', async () => {
    const content = [
        { type: 'text', text: 'x' },
        { type: 'tool-call', invalid: true, error: new Error('bad input') },
        { type: 'tool-error', error: new Error('it threw') },
        { type: 'tool-error', error: 'a string' },
    ];
    assert.deepEqual(await printed(() => callerGot(content)), ['the caller got: it threw', 'the caller got: a string']);
    assert.deepEqual(await printed(() => callerGot(content, { invalid: true })), [
        'the caller got: bad input',
        'the caller got: it threw',
        'the caller got: a string',
    ]);
});

test('a call over a linked pair prints the error the caller got, and closes both ends', async () => {
    const events = [];
    const end = (who) => ({ connect: async (side) => events.push(`${who} ${side}`), close: async () => events.push(`${who} closed`) });
    const answering = (answer) => ({ ...end('client'), callTool: async (call) => (events.push(JSON.stringify(call)), answer()) });
    const pair = ['client side', 'server side'];
    const isError = async () => ({ isError: true, content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] });
    assert.deepEqual(await printed(() => callOverPair(end('server'), answering(isError), pair, 't', { a: 1 })), ['the caller got: one\ntwo']);
    assert.deepEqual(events, ['server server side', 'client client side', '{"name":"t","arguments":{"a":1}}', 'client closed', 'server closed']);
    const thrown = async () => { throw new Error('MCP error -32602: bad'); };
    assert.deepEqual(await printed(() => callOverPair(end('server'), answering(thrown), pair, 't', {})), ['the caller got: MCP error -32602: bad']);
    assert.deepEqual(await printed(() => callOverPair(end('server'), answering(async () => ({ content: [] })), pair, 't', {})), []);
});

test('the mail call is open: it holds a name the schema does not declare', () => {
    const declared = Object.keys(MAIL.schema.properties);
    assert.ok(Object.keys(MAIL.open).some((name) => !declared.includes(name)));
    assert.ok(MAIL.schema.required.every((name) => name in MAIL.open));
});
