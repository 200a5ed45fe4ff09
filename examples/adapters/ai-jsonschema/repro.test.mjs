// What this adapter's README claims of the framework, checked by filling the reproduction template
// (repro.mjs) the way the README generator does and running it: `node --test` in this folder,
// after npm ci.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { EXACT, received, reproducer } from 'tool-conformance-adapter/reproduction';

// repro.mjs filled as the page fills it, run beside itself; what it printed.
const repro = reproducer(import.meta.url);

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
    assert.deepEqual(received(repro(EXACT.tool, EXACT.schema, EXACT.arguments)), EXACT.arguments);
});
