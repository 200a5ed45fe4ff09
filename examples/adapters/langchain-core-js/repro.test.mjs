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

test('the error names nothing', () => {
    const out = repro(MAIL.tool, MAIL.schema, { to: 1 });
    assert.equal(out.trim(), 'the caller got: Received tool input did not match expected schema');
});

test('a cycle of $refs overflows the stack', () => {
    const schema = { type: 'object', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, properties: { looped: { $ref: '#/$defs/a' } } };
    assert.match(repro('loop', schema, { looped: '[1, 2]' }), /the caller got: Maximum call stack size exceeded/);
});

test("a string with ', `, ${, \\ and characters beyond ASCII reaches the tool exactly", () => {
    assert.deepEqual(received(repro(EXACT.tool, EXACT.schema, EXACT.arguments)), EXACT.arguments);
});
