//! The reference's single decoding pass checked against independent data: html5lib's tokenizer
//! tests for character references, kept in this repository under tests/data/html5lib-tokenizer/
//! (MIT licensed; see the LICENSE and README there). Every test whose output is only Character
//! tokens, outside any special tokenizer state, says how one pass over text content must decode
//! its input. A missing data file fails the test and names the file.

use serde_json::Value;
use std::path::{Path, PathBuf};
use tool_conformance::reference::entities::decode_once;

/// The three data files, in the order they are read.
const FILES: [&str; 3] = ["namedEntities.test", "numericEntities.test", "entities.test"];

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/html5lib-tokenizer")
}

/// The text of one data file; a missing or unreadable file fails the test, naming it.
fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("the html5lib data file {} is missing or unreadable: {e}", path.display()))
}

/// (file, description, input, expected) for every text-content test.
fn text_content_tests(dir: &Path) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for file in FILES {
        let path = dir.join(file);
        let data: Value = tool_conformance::json::from_str(&read(&path))
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        let tests = data["tests"].as_array().unwrap_or_else(|| panic!("{} has no tests array", path.display()));
        assert!(!tests.is_empty(), "{} holds no tests", path.display());
        for test in tests {
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

fn one_pass_decodes_text_content_as_html5lib_says() {
    let tests = text_content_tests(&data_dir());
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

fn the_data_is_the_html5lib_files_with_their_licence() {
    let dir = data_dir();
    let licence = read(&dir.join("LICENSE"));
    assert!(licence.contains("Permission is hereby granted, free of charge"), "LICENSE is not the MIT licence");
    let readme = read(&dir.join("README.md"));
    for file in FILES {
        assert!(readme.contains(file), "README.md does not name {file}");
    }
    let tests = text_content_tests(&dir);
    for file in FILES {
        let count = tests.iter().filter(|(f, ..)| f == file).count();
        assert!(count > 0, "{file} yields no text-content tests");
    }
    // The suite's docs (docs/interpretations.md) cite this count.
    assert_eq!(tests.len(), 4617, "the html5lib files yield a different number of text-content tests");
}

tests![
    one_pass_decodes_text_content_as_html5lib_says,
    the_data_is_the_html5lib_files_with_their_licence,
];
