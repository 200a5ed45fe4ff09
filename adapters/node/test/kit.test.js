// The kit's protocol handling: a session, the JSON with exact numbers, and real stdio and HTTP.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Failure, Rejected, Session, Unsupported, checkedTools, parse, stringify } from '../index.js';

const implementation = { name: 'kit-test', version: '0.0.1', language: 'javascript', rules: ['RT-TOOL-8'], transports: ['direct'] };
const runtime = () => {
    const tools = new Map();
    return {
        register: async (list) => list.forEach((t) => tools.set(t.name, t)),
        describe: (tool) => tools.get(tool).input_schema,
        invoke(transport, tool, args, handler) {
            if (tool === 'boom') throw new RangeError('out of range');
            if (tool === 'skip') throw new Unsupported('no such thing');
            if (tool === 'refuse') return { message: 'refused' };
            if (!tools.has(tool)) throw new Failure(`no tool named ${tool}`);
            handler(args);
            args.late = 'mutated after the call';
            return null;
        },
        normalize(schema, args) {
            if (args === 'no') throw new Rejected({ message: 'not accepted' });
            return args;
        },
    };
};

const ask = async (session, text) => (await session.handleText(text))[0];

test('start answers the implementation', async () => {
    const session = new Session({ implementation, runtime });
    assert.equal(await ask(session, '{"cmd":"start","seq":0,"protocol":1}'),
        '{"seq":0,"protocol":1,"implementation":{"name":"kit-test","version":"0.0.1","language":"javascript"},"rules":["RT-TOOL-8"],"transports":["direct"]}');
});

test('start answers the declared get_api_spec pointer', async () => {
    const pointing = { ...implementation, rules: ['PLAT-162'], transports: ['http'], get_api_spec: '/v1/spec' };
    const session = new Session({ implementation: pointing, runtime });
    assert.equal(await ask(session, '{"cmd":"start","seq":0,"protocol":1}'),
        '{"seq":0,"protocol":1,"implementation":{"name":"kit-test","version":"0.0.1","language":"javascript"},"rules":["PLAT-162"],"transports":["http"],"get_api_spec":"/v1/spec"}');
});

test('numbers a runtime passes through go back with their literals', async () => {
    const session = new Session({ implementation, runtime });
    const answer = await ask(session, '{"cmd":"normalize","seq":5,"input_schema":{},"arguments":{"z":12345678901234567890123,"a":1.0,"m":-0,"s":"\\ud800x","e":1e400,"__proto__":2}}');
    assert.equal(answer, '{"seq":5,"arguments":{"z":12345678901234567890123,"a":1.0,"m":-0,"s":"\\ud800x","e":1e400,"__proto__":2}}');
});

test('a validator reads the numbers a runtime gets as the JSON values they are; they go back exact', async () => {
    const seen = [];
    const session = new Session({ implementation, runtime: () => ({ ...runtime(), normalize: (schema, args) => (seen.push(args), args) }) });
    const text = '[-3,1.0,1e2,9007199254740993,12345678901234567890123,2.5,0.1000000000000000000000001,1e400]';
    const answer = await ask(session, `{"cmd":"normalize","seq":7,"input_schema":{},"arguments":${text}}`);
    assert.deepEqual(seen[0].map(Number.isInteger), [true, true, true, true, true, false, false, false]);
    assert.equal(answer, `{"seq":7,"arguments":${text}}`);
    // Two numbers of one request that round to one double: the first one's digits are written for both.
    const shared = await ask(session, '{"cmd":"normalize","seq":2,"input_schema":{},"arguments":[9007199254740992,9007199254740993]}');
    assert.equal(shared, '{"seq":2,"arguments":[9007199254740992,9007199254740992]}');
});

test('the kit\'s own numbers are not rewritten with request literals', async () => {
    const session = new Session({ implementation, runtime });
    await ask(session, '{"cmd":"register","seq":0,"tools":[{"name":"t","input_schema":{}}]}');
    assert.equal(await ask(session, '{"cmd":"invoke","seq":3,"tool":"t","transport":"direct","arguments":{"n":1.0}}'),
        '{"seq":3,"outcome":"executed","handler_calls":1,"received":{"n":1.0}}');
});

test('invoke outcomes, unsupported, failures and thrown exceptions', async () => {
    const session = new Session({ implementation, runtime });
    await ask(session, '{"cmd":"register","seq":0,"tools":[{"name":"t","input_schema":{}}]}');
    const cases = [
        ['refuse', 'direct', '{"seq":2,"outcome":"rejected","handler_calls":0,"error":{"message":"refused"}}'],
        ['t', 'http', '{"seq":2,"unsupported":"no transport \\"http\\""}'],
        ['nope', 'direct', '{"seq":2,"error":"no tool named nope"}'],
        ['skip', 'direct', '{"seq":2,"unsupported":"no such thing"}'],
    ];
    for (const [tool, transport, expected] of cases) {
        assert.equal(await ask(session, `{"cmd":"invoke","seq":2,"tool":"${tool}","transport":"${transport}","arguments":{}}`), expected);
    }
    const [first, ...frames] = JSON.parse(await ask(session, '{"cmd":"invoke","seq":2,"tool":"boom","transport":"direct","arguments":{}}')).error.split('\n');
    assert.equal(first, 'the adapter failed: RangeError: out of range');
    assert.equal(frames[0], 'Stack (innermost first):');
    assert.ok(frames.some((frame) => frame.includes('kit.test.js')), frames.join('\n'));
    assert.equal(await ask(session, '{"cmd":"normalize","seq":3,"input_schema":{},"arguments":"no"}'), '{"seq":3,"rejected":{"message":"not accepted"}}');
    assert.equal(await ask(session, '{"cmd":"dance","seq":4}'), '{"seq":4,"unsupported":"no command \\"dance\\""}');
    assert.equal(await ask(session, '[1]'), '{"seq":null,"error":"the request is not a JSON object"}');
    assert.match(await ask(session, '{"a":NaN}'), /^\{"seq":null,"error":"the request is not JSON/);
});

test('parse is strict and stringify refuses what is not JSON', () => {
    for (const bad of ['{"a":1,}', '01', '[1] x', "{'a':1}", '"\t"', 'NaN']) assert.throws(() => parse(bad), SyntaxError, bad);
    assert.throws(() => stringify({ a: NaN }), TypeError);
    assert.throws(() => stringify({ a: undefined }), TypeError);
    assert.equal(stringify({ x: 0.1 + 0.2 }), '{"x":0.30000000000000004}');
});

const SCRIPT = `
import { serve } from ${JSON.stringify(fileURLToPath(new URL('../index.js', import.meta.url)))};
serve({ implementation: ${JSON.stringify(implementation)}, runtime: () => { console.log('a banner'); return { normalize: (s, a) => a }; }, argv: process.argv.slice(1) });
`;

test('stdio framing: one line per response, stdout kept clean, exit after stop', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.stdin.end('{"cmd":"start","seq":0,"protocol":1}\n\n{"cmd":"normalize","seq":1,"input_schema":{},"arguments":[0.10000000000000000000001]}\r\n{"cmd":"stop","seq":2}\n{"cmd":"start","seq":3,"protocol":1}\n');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    const lines = out.split('\n').filter(Boolean);
    assert.equal(lines.length, 3, out);
    assert.equal(lines[1], '{"seq":1,"arguments":[0.10000000000000000000001]}');
    assert.equal(lines[2], '{"seq":2,"ok":true}');
    assert.match(err, /a banner/);
    assert.equal(code, 0);
});

test('HTTP: URL printed, bodies answered, bad bodies 400', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, '--', '--http', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
        let shown = '';
        const url = await new Promise((resolve) => child.stdout.on('data', (d) => { shown += d; const m = shown.match(/http:\/\/\S+/); if (m) resolve(m[0]); }));
        const post = async (body) => {
            const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
            return [response.status, await response.text()];
        };
        assert.deepEqual(await post('{"cmd":"normalize","seq":1,"input_schema":{},"arguments":{"b":1,"a":2}}'), [200, '{"seq":1,"arguments":{"b":1,"a":2}}']);
        const [status, text] = await post('{');
        assert.equal(status, 400);
        assert.match(text, /not JSON/);
    } finally {
        child.kill();
    }
});

test('a register request\'s tools are checked one by one, in order', () => {
    const seen = new Set();
    const taken = (tools) => {
        const names = [];
        for (const t of checkedTools(tools, (name) => seen.has(name))) names.push(seen.add(t.name) && t.name);
        return names;
    };
    assert.deepEqual(taken([{ name: 'a', input_schema: {} }, { name: 'b', input_schema: true, description: 'd' }]), ['a', 'b']);
    assert.throws(() => taken([{ name: 'c', input_schema: {} }, { name: 'a', input_schema: {} }]), (e) => e instanceof Unsupported && e.message === 'tool a is registered twice');
    assert.ok(seen.has('c')); // the tools before the refused one were taken, as a register loop takes them
    for (const bad of [null, [], { input_schema: {} }, { name: 1, input_schema: {} }]) {
        assert.throws(() => taken([bad]), (e) => e instanceof Failure && e.message === 'a tool needs a name');
    }
    assert.throws(() => taken([{ name: 'x' }]), (e) => e instanceof Failure && e.message === 'tool x has no input_schema');
});
