// What this adapter's README claims of the framework, checked by filling the reproduction template
// (repro.mjs) the way the README generator does and running it: `node --test` in this folder,
// after npm ci.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { EXACT, MAIL, received, reproducer } from 'tool-conformance-adapter/reproduction';

// repro.mjs filled as the page fills it, run beside itself; what it printed.
const repro = reproducer(import.meta.url);

test('the root is open: an unknown name runs the tool, references as sent', () => {
    assert.equal(JSON.stringify(received(repro(MAIL.tool, MAIL.schema, MAIL.open))), JSON.stringify(MAIL.open));
});

test("the error is Ajv's errorsText after the SDK's prefix", () => {
    const out = repro(MAIL.tool, MAIL.schema, { to: 1 });
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
    assert.deepEqual(received(repro(EXACT.tool, EXACT.schema, EXACT.arguments)), EXACT.arguments);
});
