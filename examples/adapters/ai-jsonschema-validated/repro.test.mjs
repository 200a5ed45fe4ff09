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

/**
 * The JSON text src/report/about.rs (`json_text`) puts in place of __SCHEMA__ and __ARGUMENTS__:
 * compact JSON in printable ASCII, every other UTF-16 code unit and every ', ` and $ written as a
 * \uXXXX escape (lower-case hex, as serde_json and JSON.stringify write the escapes they make).
 */
function jsonText(value) {
    return JSON.stringify(value).replace(/[^\x20-\x7e]|['`$]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Runs repro.mjs filled as src/report/about.rs (`fill`) fills it: every __TOOL__ replaced by the
 * name as it is, then every __SCHEMA__ and __ARGUMENTS__ by the JSON text; its stdout.
 */
function repro(tool, schema, args) {
    const text = readFileSync(join(here, 'repro.mjs'), 'utf8')
        .replaceAll('__TOOL__', () => tool)
        .replaceAll('__SCHEMA__', () => jsonText(schema))
        .replaceAll('__ARGUMENTS__', () => jsonText(args));
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

test('the placeholders are filled with the JSON text src/report/about.rs writes', () => {
    // The value and the text of about.rs's own test (json_text_is_ascii_json_of_the_same_value),
    // but for its number, which a JavaScript value cannot hold.
    const value = JSON.parse(String.raw`{"a\"b\\c\n":"\u001bé\u202e😀\u0060</x> it's $1","__proto__":[true,null]}`);
    assert.equal(jsonText(value), String.raw`{"a\"b\\c\n":"\u001b\u00e9\u202e\ud83d\ude00\u0060</x> it\u0027s \u00241","__proto__":[true,null]}`);
    assert.equal(jsonText('\ud800'), String.raw`"\ud800"`);
});

test("a string with ', `, ${, \\ and characters beyond ASCII reaches the tool exactly", () => {
    const args = { note: "it's `x` ${y} \\ é 😀 \u2028 \ud800" };
    const out = repro('note_it', { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] }, args);
    const line = out.split('\n').find((l) => l.startsWith('the tool received: '));
    assert.ok(line, out);
    assert.deepEqual(JSON.parse(line.slice('the tool received: '.length)), args);
});
