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

test('the root is open: an unknown name runs the tool, references as sent', () => {
    const out = repro('send_mail', mail, { to: 'ops@example.org', subject: 'Disk &amp; full', cc: 'x' });
    assert.match(out, /the tool received: \{"to":"ops@example.org","subject":"Disk &amp; full","cc":"x"\}/);
});

test("the error is Ajv's errorsText after the SDK's prefix", () => {
    const out = repro('send_mail', mail, { to: 1 });
    assert.match(out, /the caller got: Invalid input for tool send_mail: Type validation failed: Value: \{"to":1\}\.\nError message: data must have required property 'subject', data\/to must be string/);
});

test('a failed root anyOf reads as each branch name required', () => {
    const schema = { type: 'object', properties: { user: { type: 'string' }, group: { type: 'string' } }, anyOf: [{ required: ['user'] }, { required: ['group'] }] };
    const out = repro('share', schema, {});
    assert.match(out, /data must have required property 'user', data must have required property 'group', data must match a schema in anyOf/);
});

test('an absent optional constructor is read from Object.prototype', () => {
    const out = repro('patch', { type: 'object', properties: { constructor: { type: 'string' }, a: { type: 'integer' } } }, { a: 1 });
    assert.match(out, /data\/constructor must be string/);
});

test("a string with ', `, ${, \\ and characters beyond ASCII reaches the tool exactly", () => {
    const args = { note: "it's `x` ${y} \\ é 😀 \u2028 \ud800" };
    const out = repro('note_it', { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] }, args);
    const line = out.split('\n').find((l) => l.startsWith('the tool received: '));
    assert.ok(line, out);
    assert.deepEqual(JSON.parse(line.slice('the tool received: '.length)), args);
});
