// loadManifest reads the run's tools exactly and refuses what is not a manifest, naming the file;
// recordCall appends one compact line per call, written before it returns, that JSON.parse reads
// back as the value the handler received; recordRefusal appends the line that says why the
// framework refused a tool.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import * as kit from '../index.js';
import { ManifestError, loadManifest, recordCall, recordLine, recordRefusal, refusalLine } from '../manifest.js';

const MANIFEST_TEXT =
    '{"manifest": 1, "tools": [' +
    '{"name": "update_step", "description": "Steps \\u00e9", "input_schema": ' +
    '{"type": "object", "properties": {"z": {"type": "integer", "maximum": 12345678901234567890123}, ' +
    '"a": {"type": "number", "multipleOf": 0.10}}, "required": ["z"]}},' +
    '{"name": "normalize_1", "input_schema": {}}]}';

function folder(t) {
    const dir = mkdtempSync(join(tmpdir(), 'manifest-test-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
}

const MANIFEST_MODULE = fileURLToPath(new URL('../manifest.js', import.meta.url));

test('the tools in order, key order kept, each number with its literal', (t) => {
    const path = join(folder(t), 'm.json');
    writeFileSync(path, MANIFEST_TEXT);
    const { tools, literals } = loadManifest(path);
    assert.deepEqual(tools.map((tool) => tool.name), ['update_step', 'normalize_1']);
    assert.equal(tools[0].description, 'Steps é');
    assert.deepEqual(Object.keys(tools[0].input_schema.properties), ['z', 'a']);
    assert.equal(literals.get(tools[0].input_schema.properties.z.maximum), '12345678901234567890123');
    assert.equal(literals.get(tools[0].input_schema.properties.a.multipleOf), '0.10');
    assert.equal(Object.hasOwn(tools[1], 'description'), false);
});

test('the kit exports the same functions, and the environment names the file', (t) => {
    assert.equal(kit.loadManifest, loadManifest);
    assert.equal(kit.recordCall, recordCall);
    const path = join(folder(t), 'm.json');
    writeFileSync(path, MANIFEST_TEXT);
    const code = `import { loadManifest } from ${JSON.stringify(MANIFEST_MODULE)}; console.log(loadManifest().tools.length);`;
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
        env: { ...process.env, TOOL_CONFORMANCE_MANIFEST: path },
        encoding: 'utf8',
    });
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.stdout, '2\n');
});

test('what is not a manifest is refused, naming the file', (t) => {
    const dir = folder(t);
    const write = (name, text) => {
        const path = join(dir, name);
        writeFileSync(path, text);
        return path;
    };
    const bad = {
        missing: join(dir, 'absent.json'),
        'not UTF-8': write('u.json', Buffer.from([0x7b, 0xff, 0x7d])),
        'not JSON': write('a.json', '{"manifest": 1, "tools": [}'),
        'no version': write('b.json', '{"tools": []}'),
        'version 2': write('c.json', '{"manifest": 2, "tools": []}'),
        'tools not a list': write('d.json', '{"manifest": 1, "tools": {}}'),
        'no name': write('e.json', '{"manifest": 1, "tools": [{"input_schema": {}}]}'),
        'no schema': write('f.json', '{"manifest": 1, "tools": [{"name": "x"}]}'),
        twice: write('g.json', '{"manifest": 1, "tools": [{"name": "x", "input_schema": {}}, {"name": "x", "input_schema": {}}]}'),
        NaN: write('h.json', '{"manifest": 1, "tools": [{"name": "x", "input_schema": {"maximum": NaN}}]}'),
    };
    for (const [what, path] of Object.entries(bad)) {
        assert.throws(() => loadManifest(path), (why) => why instanceof ManifestError && why.message.includes(path), what);
    }
    const saved = process.env.TOOL_CONFORMANCE_MANIFEST;
    delete process.env.TOOL_CONFORMANCE_MANIFEST;
    try {
        assert.throws(() => loadManifest(), /TOOL_CONFORMANCE_MANIFEST is not set/);
    } finally {
        if (saved !== undefined) process.env.TOOL_CONFORMANCE_MANIFEST = saved;
    }
});

test('one compact line per call, in order, that JSON.parse reads back', (t) => {
    const path = join(folder(t), 'record.jsonl');
    const received = { z: 1.2345678901234568e22, a: 0.1, s: "it's $1 é \ud800", n: [true, null], '-0': -0 };
    assert.equal(recordCall('update_step', received, path), 'ok');
    assert.equal(recordCall('update_step', { from: { x: 1.5 } }, path), 'ok');
    const text = readFileSync(path, 'utf8');
    assert.ok(text.endsWith('\n'));
    const lines = text.split('\n').slice(0, -1);
    assert.equal(lines.length, 2);
    assert.equal(
        lines[0],
        String.raw`{"tool":"update_step","arguments":{"z":1.2345678901234568e+22,"a":0.1,"s":"it\u0027s \u00241 \u00e9 \ud800","n":[true,null],"-0":-0}}`,
    );
    assert.deepEqual(JSON.parse(lines[0]), { tool: 'update_step', arguments: received });
    assert.equal(lines[1], '{"tool":"update_step","arguments":{"from":{"x":1.5}}}');
});

test('a value JSON cannot carry is a line that says so', (t) => {
    const path = join(folder(t), 'record.jsonl');
    recordCall('t', { x: NaN }, path);
    recordCall('t', { x: undefined }, path);
    recordCall('t', { x: () => 1 }, path);
    const lines = readFileSync(path, 'utf8').split('\n').slice(0, -1).map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((line) => Object.keys(line).sort()), [['not_json', 'tool'], ['not_json', 'tool'], ['not_json', 'tool']]);
    assert.match(lines[0].not_json, /^\{ x: NaN \} \(util\.inspect; not JSON: /);
    assert.match(lines[1].not_json, /undefined/);
    assert.match(lines[2].not_json, /function/);
    assert.equal(recordLine('t', { a: 1 }), '{"tool":"t","arguments":{"a":1}}\n');
});

test('a refusal is one line beside the calls, that JSON.parse reads back', (t) => {
    const path = join(folder(t), 'record.jsonl');
    const why = 'McpServer.registerTool refused the schema: Error: "\u001b[31m" é\nnext';
    assert.equal(recordRefusal('normalize_7', why, path), undefined);
    recordCall('t', { a: 1 }, path);
    const lines = readFileSync(path, 'utf8').split('\n');
    assert.equal(lines.at(-1), '', 'every line ends with \\n');
    assert.equal(
        lines[0],
        String.raw`{"tool":"normalize_7","refused":"McpServer.registerTool refused the schema: Error: \"\u001b[31m\" \u00e9\nnext"}`,
    );
    assert.deepEqual(JSON.parse(lines[0]), { tool: 'normalize_7', refused: why });
    assert.equal(lines[1], '{"tool":"t","arguments":{"a":1}}');
    assert.equal(refusalLine('t', new TypeError('no')), '{"tool":"t","refused":"TypeError: no"}\n');
    assert.equal(kit.recordRefusal, recordRefusal);
});

test('an unset record is an error, and nothing is written', (t) => {
    const dir = folder(t);
    const saved = process.env.TOOL_CONFORMANCE_RECORD;
    delete process.env.TOOL_CONFORMANCE_RECORD;
    try {
        assert.throws(() => recordCall('t', {}), /TOOL_CONFORMANCE_RECORD is not set/);
        assert.throws(() => recordRefusal('t', 'why'), /TOOL_CONFORMANCE_RECORD is not set/);
    } finally {
        if (saved !== undefined) process.env.TOOL_CONFORMANCE_RECORD = saved;
    }
    assert.equal(existsSync(join(dir, 'record.jsonl')), false);
});
