// What this adapter's README claims of the framework, checked by filling the reproduction template
// (repro.mjs) the way the README generator does and running it: `node --test` in this folder,
// after npm ci.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { EXACT, MAIL, received, reproducer } from 'tool-conformance-adapter/reproduction';

// repro.mjs filled as the page fills it, run beside itself; what it printed.
const repro = reproducer(import.meta.url);

test('the root is open: unknown names reach the handler, references as sent', () => {
    assert.equal(JSON.stringify(received(repro(MAIL.tool, MAIL.schema, MAIL.open))), JSON.stringify(MAIL.open));
});

test("a root anyOf's alternatives are not enforced, and defaults are injected", () => {
    const schema = {
        type: 'object',
        properties: { user: { type: 'string' }, group: { type: 'string' }, format: { type: 'string', default: 'pdf' } },
        anyOf: [{ required: ['user'] }, { required: ['group'] }],
    };
    const out = repro('share', schema, {});
    assert.match(out, /the tool received: \{"format":"pdf"\}/);
});

test('a number enum fails as an anonymous union', () => {
    const out = repro('size', { type: 'object', properties: { size: { enum: [1, 2, 3] } } }, { size: 4 });
    assert.match(out, /the caller got: .*Invalid arguments for tool size: Invalid input at size$/m);
});

test('a $ref into definitions cannot be converted', () => {
    const schema = { type: 'object', definitions: { mode: { enum: ['a'] } }, properties: { mode: { $ref: '#/definitions/mode' } } };
    assert.throws(() => repro('mode', schema, {}), /Reference not found: #\/definitions\/mode/);
});

test("a string with ', `, ${, \\ and characters beyond ASCII reaches the handler exactly", () => {
    assert.deepEqual(received(repro(EXACT.tool, EXACT.schema, EXACT.arguments)), EXACT.arguments);
});
