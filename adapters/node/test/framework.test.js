// snapshot and installedVersion, the pieces framework adapters share around the protocol.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { argumentsText, installedVersion, parse, snapshot } from '../index.js';

test("snapshot writes JSON.stringify's text with -0 kept", () => {
    const value = { a: -0, b: [undefined, () => 1, -0, 1.5], c: undefined, d: () => 1, e: Symbol('s'), f: 'é\u2028', g: new Date(0), h: null };
    assert.equal(snapshot(value), '{"a":-0,"b":[null,null,-0,1.5],"f":"é\u2028","g":"1970-01-01T00:00:00.000Z","h":null}');
    assert.equal(snapshot(undefined), 'null');
    assert.equal(snapshot(NaN), 'null');
    assert.equal(snapshot('\ud800'), '"\\ud800"');
    // Taken when called: a later change to the value is not in the text.
    const args = { n: 1 };
    const text = snapshot(args);
    args.n = 2;
    assert.equal(text, '{"n":1}');
});

test('installedVersion reads the package.json named so above the entry point', () => {
    const root = mkdtempSync(join(tmpdir(), 'kit-version-'));
    try {
        const pkg = join(root, 'node_modules', '@scope', 'pkg');
        mkdirSync(join(pkg, 'dist', 'esm'), { recursive: true });
        writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@scope/pkg', version: '1.2.3' }));
        writeFileSync(join(pkg, 'dist', 'esm', 'package.json'), JSON.stringify({ type: 'module' })); // not named: passed over
        writeFileSync(join(pkg, 'dist', 'esm', 'index.js'), '');
        const resolve = (specifier) => {
            assert.equal(specifier, '@scope/pkg/server');
            return pathToFileURL(join(pkg, 'dist', 'esm', 'index.js')).href;
        };
        assert.equal(installedVersion(resolve, '@scope/pkg', '@scope/pkg/server'), '1.2.3');
        assert.equal(installedVersion(() => pathToFileURL(join(pkg, 'dist', 'esm', 'index.js')).href, 'other'), 'unknown');
    } finally {
        rmSync(root, { recursive: true, force: true });
    }
});

test('argumentsText is JSON that JSON.parse reads into the same values, 1e400 included', () => {
    const { value } = parse('{"b":[1e400,-1e400,-0,12345678901234567890123],"a":"x"}');
    const text = argumentsText(value);
    assert.equal(text, '{"b":[1e400,-1e400,-0,1.2345678901234568e+22],"a":"x"}');
    assert.deepEqual(JSON.parse(text), value);
    assert.ok(Object.is(JSON.parse(text).b[2], -0));
});
