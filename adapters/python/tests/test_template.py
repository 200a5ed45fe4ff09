"""fill_template and json_text write what src/report/about.rs writes, byte for byte: the expected
texts are those of about.rs's own unit tests (json_text_is_ascii_json_of_the_same_value and
fill_writes_the_name_verbatim_and_exact_json_text)."""

import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tool_conformance_adapter import fill_template, json_text, loads  # noqa: E402

# about.rs json_text_is_ascii_json_of_the_same_value: its input and the text it expects.
ABOUT_RS_VALUE = r"""{"a\"b\\c\n":"\u001bé\u202e😀`</x> it's $1","n":12345678901234567890.10,"__proto__":[true,null]}"""
ABOUT_RS_TEXT = r"""{"a\"b\\c\n":"\u001b\u00e9\u202e\ud83d\ude00\u0060</x> it\u0027s \u00241","n":12345678901234567890.10,"__proto__":[true,null]}"""


class JsonText(unittest.TestCase):
    def test_the_text_of_about_rs(self):
        value = loads(ABOUT_RS_VALUE)
        text = json_text(value)
        self.assertEqual(text, ABOUT_RS_TEXT)
        self.assertTrue(all(" " <= c <= "~" and c not in "'`$" for c in text), text)
        self.assertEqual(loads(text), value)

    def test_a_lone_surrogate_is_its_own_escape(self):
        self.assertEqual(json_text("\ud800"), r'"\ud800"')

    def test_plain_values_and_every_escape(self):
        # Plain ints and floats as json.dumps writes them; DEL and control characters escaped.
        self.assertEqual(json_text({"n": 1, "x": 1.5, "b": [True, False, None]}), '{"n":1,"x":1.5,"b":[true,false,null]}')
        self.assertEqual(json_text("\x7f\x01\t$'`"), r'"\u007f\u0001\t\u0024\u0027\u0060"')
        value = {"é\u202e": "it's $1 `&amp;` \U0001f600"}
        self.assertEqual(json.loads(json_text(value)), value)


class FillTemplate(unittest.TestCase):
    def test_the_fill_of_about_rs(self):
        # about.rs fill_writes_the_name_verbatim_and_exact_json_text.
        schema = loads('{"type":"object","properties":{"n":{"type":"number"}}}')
        arguments = loads('{"n":1.50}')
        template = "t = \"__TOOL__\"\ns = r'''__SCHEMA__'''\na = __ARGUMENTS__ # __TOOL__"
        self.assertEqual(
            fill_template(template, tool="set_label", schema=schema, arguments=arguments),
            "t = \"set_label\"\ns = r'''{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\"}}}'''\n"
            "a = {\"n\":1.50} # set_label",
        )

    def test_the_filled_text_evaluates_to_the_same_values(self):
        args = {"note": "it's `x` ${y} \\ é 😀 \u2028 '''"}
        filled = fill_template("r'''__ARGUMENTS__'''", tool="t", schema={}, arguments=args)
        self.assertEqual(json.loads(eval(filled)), args)  # noqa: S307 - the template is ours


if __name__ == "__main__":
    unittest.main()
