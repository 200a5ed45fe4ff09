// fillTemplate and jsonText write what src/report/about.rs writes, byte for byte: the expected
// texts are those of about.rs's own unit tests (json_text_is_ascii_json_of_the_same_value and
// fill_writes_the_name_verbatim_and_exact_json_text).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fillTemplate, jsonText, parse } from '../index.js';

test('jsonText writes the text of about.rs, numbers with their literals', () => {
    const { value, literals } = parse(String.raw`{"a\"b\\c\n":"\u001bé\u202e😀` + '`' + String.raw`</x> it's $1","n":12345678901234567890.10,"__proto__":[true,null]}`);
    const text = jsonText(value, literals);
    assert.equal(text, String.raw`{"a\"b\\c\n":"\u001b\u00e9\u202e\ud83d\ude00\u0060</x> it\u0027s \u00241","n":12345678901234567890.10,"__proto__":[true,null]}`);
    assert.ok(/^[\x20-\x7e]*$/.test(text) && !/['`$]/.test(text), text);
    assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
    // Without the literals a number is written as JavaScript writes it.
    assert.match(jsonText(value), /"n":12345678901234567000,/);
});

test('jsonText: a lone surrogate is its own escape; DEL and control characters are escaped', () => {
    assert.equal(jsonText('\ud800'), String.raw`"\ud800"`);
    assert.equal(jsonText('\x7f\x01\t'), String.raw`"\u007f\u0001\t"`);
    assert.throws(() => jsonText({ a: undefined }), TypeError);
});

test('fillTemplate fills as about.rs fills', () => {
    const { value: schema } = parse('{"type":"object","properties":{"n":{"type":"number"}}}');
    const { value: args, literals } = parse('{"n":1.50}');
    const template = "t = \"__TOOL__\"\ns = r'''__SCHEMA__'''\na = __ARGUMENTS__ # __TOOL__";
    assert.equal(
        fillTemplate(template, { tool: 'set_label', schema, arguments: args, literals }),
        't = "set_label"\ns = r\'\'\'{"type":"object","properties":{"n":{"type":"number"}}}\'\'\'\na = {"n":1.50} # set_label',
    );
});

test('the filled text is a raw template of the same value, and $ in a name is not a replacement pattern', () => {
    const args = { note: "it's `x` ${y} \\ é 😀 \u2028 \ud800" };
    const filled = fillTemplate('JSON.parse(String.raw`__ARGUMENTS__`) // $&__TOOL__', { tool: 'a$&b', schema: {}, arguments: args });
    assert.ok(filled.endsWith('// $&a$&b'), filled);
    assert.deepEqual(eval(filled.split(' //')[0]), args);
});
