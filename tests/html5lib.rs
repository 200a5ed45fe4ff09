//! The reference's single decoding pass checked against independent data: html5lib's tokenizer
//! tests for character references (../shared/data/html5lib-tokenizer). Every test whose output is
//! only Character tokens, outside any special tokenizer state, says how one pass over text
//! content must decode its input.

use serde_json::Value;
use std::path::{Path, PathBuf};
use tool_conformance::reference::entities::decode_once;

fn data_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/html5lib-tokenizer");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(std::env::var_os("CI").is_none(), "the html5lib data is missing at {}", dir.display());
    eprintln!("note: {} is absent; the html5lib check did not run", dir.display());
    None
}

/// (file, description, input, expected) for every text-content test.
fn text_content_tests(dir: &Path) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for file in ["namedEntities.test", "numericEntities.test", "entities.test"] {
        let text = std::fs::read_to_string(dir.join(file)).expect("read test file");
        let data: Value = tool_conformance::json::from_str(&text).expect("test file is JSON");
        for test in data["tests"].as_array().expect("tests array") {
            if test.get("initialStates").is_some() {
                continue;
            }
            let output = test["output"].as_array().expect("output array");
            let characters: Option<String> = output
                .iter()
                .map(|token| match token.as_array().map(Vec::as_slice) {
                    Some([kind, text]) if kind == "Character" => text.as_str().map(String::from),
                    _ => None,
                })
                .collect();
            if let Some(expected) = characters {
                let input = test["input"].as_str().expect("input").to_string();
                let description = test["description"].as_str().unwrap_or_default().to_string();
                out.push((file.to_string(), description, input, expected));
            }
        }
    }
    out
}

#[test]
fn one_pass_decodes_text_content_as_html5lib_says() {
    let Some(dir) = data_dir() else { return };
    let tests = text_content_tests(&dir);
    assert!(tests.len() > 4000, "expected the full html5lib entity tests, found {}", tests.len());
    let mismatches: Vec<String> = tests
        .iter()
        .filter(|(_, _, input, expected)| decode_once(input) != expected.as_str())
        .map(|(file, description, input, expected)| {
            format!("{file}: {description}: {input:?} gave {:?}, expected {expected:?}", decode_once(input))
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "{} of {} html5lib tests differ:\n{}",
        mismatches.len(),
        tests.len(),
        mismatches.join("\n")
    );
}
