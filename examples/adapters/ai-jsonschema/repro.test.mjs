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

const mail = { type: 'object', properties: { to: { type: 'string' }, ids: { type: 'array' } }, required: ['to'] };

test('nothing is validated: a call missing a required name, with JSON text for an array, runs the tool', () => {
    const out = repro('send_mail', mail, { subject: 'Disk &amp; full', ids: '[1, 2]' });
    assert.match(out, /the tool received: \{"subject":"Disk &amp; full","ids":"\[1, 2\]"\}/);
});

test('arguments that are not an object run the tool', () => {
    assert.match(repro('send_mail', mail, [1]), /the tool received: \[1\]/);
});

test('a __proto__ key makes the JSON parser refuse the call', () => {
    const out = repro('send_mail', mail, JSON.parse('{"to":"x","meta":{"__proto__":{"a":1}}}'));
    assert.match(out, /the caller got: Invalid input for tool send_mail: JSON parsing failed: .*\n.*forbidden prototype property/);
    assert.doesNotMatch(out, /the tool received/);
});

test("a string with ', `, ${, \\ and characters beyond ASCII reaches the tool exactly", () => {
    const args = { note: "it's `x` ${y} \\ é 😀 \u2028 \ud800" };
    const out = repro('note_it', { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] }, args);
    const line = out.split('\n').find((l) => l.startsWith('the tool received: '));
    assert.ok(line, out);
    assert.deepEqual(JSON.parse(line.slice('the tool received: '.length)), args);
});
