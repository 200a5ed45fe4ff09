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

const mail = { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string', minLength: 3 } }, required: ['to', 'subject'] };

test('the SDK validates with zod: unknown names are stripped and references reach the tool as sent', () => {
    const out = repro('send_mail', mail, { to: 'ops@example.org', subject: 'Disk &amp; full', cc: 'x' });
    assert.match(out, /^the tool received: \{"to":"ops@example.org","subject":"Disk &amp; full"\}$/m);
});

test('a call missing a required name is refused before the tool runs, naming it', () => {
    const out = repro('send_mail', mail, { subject: 'Disk full' });
    assert.doesNotMatch(out, /the tool received/);
    assert.match(out, /^the caller got: Invalid input for tool send_mail: Type validation failed/m);
    assert.match(out, /"to"/);
});

test('JSON text for an array is refused as a string', () => {
    const out = repro('tag', { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } }, { ids: '[1, 2]' });
    assert.match(out, /^the caller got: .*Type validation failed/m);
    assert.match(out, /"expected": "array"/);
});

test('a closed root is z.strictObject: an unknown name is refused', () => {
    const closed = { ...mail, additionalProperties: false };
    const out = repro('send_mail', closed, { to: 'a', subject: 'abc', cc: 'x' });
    assert.match(out, /unrecognized_keys/);
    assert.doesNotMatch(out, /the tool received/);
});

test('a schema the hand mapping cannot say is written by z.fromJSONSchema, which enforces allOf', () => {
    const schema = { type: 'object', properties: { n: { allOf: [{ type: 'integer', minimum: 2 }] } }, required: ['n'] };
    assert.match(repro('count', schema, { n: 5 }), /^the tool received: \{"n":5\}$/m);
    assert.match(repro('count', schema, { n: 1 }), /^the caller got: /m);
});
