// What this adapter's README claims of the framework, checked by filling the reproduction template
// (repro.mjs) the way the README generator does and running it: `node --test` in this folder,
// after npm ci.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { fillTemplate } from 'tool-conformance-adapter';

const here = dirname(fileURLToPath(import.meta.url));
let filled = 0;

/**
 * Runs repro.mjs filled as src/report/about.rs fills it (the kit's `fillTemplate`: every __TOOL__
 * replaced by the name as it is, then every __SCHEMA__ and __ARGUMENTS__ by the JSON text); its stdout.
 */
function repro(tool, schema, args) {
    const text = fillTemplate(readFileSync(join(here, 'repro.mjs'), 'utf8'), { tool, schema, arguments: args });
    // Beside repro.mjs, so that its imports resolve as they do there.
    const file = join(here, `.repro-${process.pid}-${++filled}.mjs`);
    try {
        writeFileSync(file, text);
        return execFileSync(process.execPath, [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } finally {
        rmSync(file, { force: true });
    }
}

const mail = { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' } }, required: ['to', 'subject'] };

test('unknown names are stripped and references reach the handler as sent', () => {
    const out = repro('send_mail', mail, { to: 'ops@example.org', subject: 'Disk &amp; full', cc: 'x' });
    assert.match(out, /the tool received: \{"to":"ops@example.org","subject":"Disk &amp; full"\}/);
});

test('JSON text for an array is refused as a string', () => {
    const out = repro('tag', { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } }, { ids: '[1, 2]' });
    assert.match(out, /the caller got: MCP error -32602: Input validation error: Invalid arguments for tool tag: Invalid input: expected array, received string at ids/);
});

test('an absent optional constructor is read from Object.prototype', () => {
    const schema = { type: 'object', properties: { constructor: { type: 'string' }, a: { type: 'integer' } } };
    const out = repro('patch', schema, { a: 1 });
    assert.match(out, /expected string, received function at constructor/);
});

test("a string with ', `, ${, \\ and characters beyond ASCII reaches the handler exactly", () => {
    const args = { note: "it's `x` ${y} \\ é 😀 \u2028 \ud800" };
    const out = repro('note_it', { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] }, args);
    const line = out.split('\n').find((l) => l.startsWith('the tool received: '));
    assert.ok(line, out);
    assert.deepEqual(JSON.parse(line.slice('the tool received: '.length)), args);
});

test('a __proto__ argument is neither checked nor passed on', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' }, ['__proto__']: { type: 'string' } } };
    const out = repro('patch', schema, JSON.parse('{"a":1,"__proto__":{"b":2}}'));
    assert.match(out, /^the tool received: \{"a":1\}$/m);
});
