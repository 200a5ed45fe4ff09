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
