// What this adapter's README claims of the framework, checked by filling the reproduction template
// (repro.mjs) the way the README generator does and running it: `node --test` in this folder,
// after npm ci.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
let filled = 0;

/** Runs repro.mjs with each placeholder replaced by one JSON string literal; its stdout. */
function repro(tool, schema, args) {
    const literal = (text) => JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const text = readFileSync(join(here, 'repro.mjs'), 'utf8')
        .replaceAll('__TOOL__', literal(tool))
        .replaceAll('__SCHEMA__', literal(JSON.stringify(schema)))
        .replaceAll('__ARGUMENTS__', literal(JSON.stringify(args)));
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
