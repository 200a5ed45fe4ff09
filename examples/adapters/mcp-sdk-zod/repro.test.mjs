// What this adapter's README claims of the framework, checked by filling the reproduction template
// (repro.mjs) the way the README generator does and running it: `node --test` in this folder,
// after npm ci.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { EXACT, MAIL, received, reproducer } from 'tool-conformance-adapter/reproduction';

// repro.mjs filled as the page fills it, run beside itself; what it printed.
const repro = reproducer(import.meta.url);

test('unknown names are stripped and references reach the handler as sent', () => {
    const { cc, ...declared } = MAIL.open;
    assert.equal(JSON.stringify(received(repro(MAIL.tool, MAIL.schema, MAIL.open))), JSON.stringify(declared));
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

test("a string with ', `, ${, \\ and characters beyond ASCII reaches the handler exactly", () => {
    assert.deepEqual(received(repro(EXACT.tool, EXACT.schema, EXACT.arguments)), EXACT.arguments);
});

test('a __proto__ argument is neither checked nor passed on', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' }, ['__proto__']: { type: 'string' } } };
    const out = repro('patch', schema, JSON.parse('{"a":1,"__proto__":{"b":2}}'));
    assert.match(out, /^the tool received: \{"a":1\}$/m);
});
