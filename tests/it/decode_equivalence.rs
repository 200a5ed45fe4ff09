//! The reference's decoding to a fixpoint ([`entities::decode`], which after the first pass
//! revisits only what a pass changed) gives exactly the text of the plain loop it replaced:
//! [`entities::decode_once`] over the whole string, pass after pass, until nothing changes or
//! [`entities::MAX_PASSES`] passes have run. Checked on every input of html5lib's tokenizer data,
//! on every string of the corpus (each line of each case file and every string in a case's
//! arguments and schemas), and on generated nestings and mixtures of references.

use std::borrow::Cow;
use std::path::Path;
use tool_conformance::Value;
use tool_conformance::case::Check;
use tool_conformance::reference::entities::{self, MAX_PASSES, decode_once};
use crate::util::root;

/// The former decoder: whole passes of `decode_once` until a fixpoint or `MAX_PASSES`.
fn by_whole_passes(text: &str) -> Cow<'_, str> {
    let mut current: Cow<'_, str> = Cow::Borrowed(text);
    for _ in 0..MAX_PASSES {
        if !current.contains('&') {
            break;
        }
        let next = decode_once(current.as_ref());
        if matches!(next, Cow::Borrowed(_)) {
            break;
        }
        let next = next.into_owned();
        if next == current.as_ref() {
            break;
        }
        current = Cow::Owned(next);
    }
    current
}

/// The inputs that differ, each with both results (at most ten named).
fn differences<'a>(inputs: impl IntoIterator<Item = &'a str>) -> (usize, Vec<String>) {
    let mut count = 0;
    let mut named = Vec::new();
    for input in inputs {
        count += 1;
        let (new, old) = (entities::decode(input), by_whole_passes(input));
        let differs = new != old || matches!(new, Cow::Borrowed(_)) != matches!(old, Cow::Borrowed(_));
        if differs && named.len() < 10 {
            named.push(format!("{input:?}: {new:?} (borrowed {}) vs {old:?}", matches!(new, Cow::Borrowed(_))));
        }
    }
    (count, named)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{} is missing or unreadable: {e}", path.display()))
}

fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
        Value::Object(map) => map.iter().for_each(|(key, item)| {
            out.push(key.clone());
            strings(item, out)
        }),
        _ => {}
    }
}

fn same_as_whole_passes_on_the_html5lib_inputs() {
    let dir = root().join("tests/data/html5lib-tokenizer");
    let mut inputs = Vec::new();
    for file in ["namedEntities.test", "numericEntities.test", "entities.test"] {
        let data: Value = tool_conformance::json::from_str(&read(&dir.join(file))).expect("html5lib data is JSON");
        for test in data["tests"].as_array().expect("a tests array") {
            inputs.push(test["input"].as_str().expect("an input").to_string());
        }
    }
    // Each input also nested once more, so that later passes have something to do.
    let nested: Vec<String> = inputs.iter().map(|input| input.replace('&', "&amp;")).collect();
    let (count, named) = differences(inputs.iter().chain(&nested).map(String::as_str));
    assert!(count > 8000, "expected the full html5lib entity tests, found {count} inputs");
    assert!(named.is_empty(), "{named:#?}");
}

fn same_as_whole_passes_on_every_string_of_the_corpus() {
    let mut inputs = Vec::new();
    for entry in walkdir::WalkDir::new(root().join("cases")) {
        let entry = entry.expect("the cases folder is readable");
        if entry.file_type().is_file() {
            inputs.extend(read(entry.path()).lines().map(String::from));
        }
    }
    let corpus = tool_conformance::Corpus::embedded().expect("the corpus loads");
    for case in &corpus.cases {
        match &case.check {
            Check::Normalize { input_schema, arguments, .. } => {
                strings(input_schema, &mut inputs);
                strings(arguments, &mut inputs);
            }
            Check::Invoke { arguments, tools, .. } => {
                strings(arguments, &mut inputs);
                tools.iter().for_each(|tool| strings(&tool.input_schema, &mut inputs));
            }
            Check::Describe { .. } => {}
        }
    }
    let with_reference = inputs.iter().filter(|text| text.contains('&')).count();
    assert!(with_reference > 100, "expected corpus strings with references, found {with_reference}");
    let (_, named) = differences(inputs.iter().map(String::as_str));
    assert!(named.is_empty(), "{named:#?}");
}

/// A small deterministic generator (xorshift), so that every run checks the same texts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

fn same_as_whole_passes_on_generated_nestings() {
    let mut inputs = Vec::new();
    // Nestings of every depth around the bound, of several references.
    for reference in ["&amp;", "&lt;", "&#39;", "&#x26;", "&not", "&amp", "&nGt;", "&notin;"] {
        for depth in 0..(MAX_PASSES + 4) {
            let mut text = reference.to_string();
            for _ in 0..depth {
                text = text.replacen('&', "&amp;", 1);
            }
            inputs.push(format!("a {text} b {text}{text};"));
            inputs.push(text.replace('&', "&#38;"));
        }
    }
    // Random mixtures of pieces that complete, split and build references across passes.
    let pieces = [
        "&",
        "amp",
        "amp;",
        "&amp;",
        "&#38;",
        "&#x26;",
        "#",
        "#3",
        "8;",
        "x26;",
        ";",
        "lt;",
        "&lt",
        "&am",
        "&#112;",
        "&#59;",
        "&semi;",
        "&nGt;",
        "&nLt;",
        "not",
        "in;",
        "&notin",
        "a",
        "é",
        " ",
        "&#",
        "x",
        "0",
        "&#0;",
        "&#128;",
        "&#99999999999;",
        "&NotEqualTilde;",
        "&CounterClockwiseContourIntegral;",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..20_000 {
        let len = 1 + rng.next() % 24;
        let text: String = (0..len).map(|_| rng.pick(&pieces)).collect();
        inputs.push(text);
    }
    let (count, named) = differences(inputs.iter().map(String::as_str));
    assert!(count > 20_000);
    assert!(named.is_empty(), "{named:#?}");
}

tests![
    same_as_whole_passes_on_the_html5lib_inputs,
    same_as_whole_passes_on_every_string_of_the_corpus,
    same_as_whole_passes_on_generated_nestings,
];
