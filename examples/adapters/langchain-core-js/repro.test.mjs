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

test('the root is open: an unknown name runs the tool, references as sent', () => {
    const out = repro('send_mail', mail, { to: 'ops@example.org', subject: 'Disk &amp; full', cc: 'x' });
    assert.match(out, /the tool received: \{"to":"ops@example.org","subject":"Disk &amp; full","cc":"x"\}/);
});

test('the error names nothing', () => {
    const out = repro('send_mail', mail, { to: 1 });
    assert.equal(out.trim(), 'the caller got: Received tool input did not match expected schema');
});

test('a cycle of $refs overflows the stack', () => {
    const schema = { type: 'object', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, properties: { looped: { $ref: '#/$defs/a' } } };
    assert.match(repro('loop', schema, { looped: '[1, 2]' }), /the caller got: Maximum call stack size exceeded/);
});
