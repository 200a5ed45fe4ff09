//! What a framework adapter's standing measures: its `about.yaml` (package, version, registry,
//! language, API path, choices, reproduction template) and the `timing.json` that
//! `run-frameworks.sh` writes beside a published standing, read for [`crate::report::readme`].
//!
//! `about.yaml`'s contract is `schemas/about.schema.json` (docs/protocol.md, "The framework
//! adapter contract"); a file the schema refuses is an error naming the place in it, as for an
//! expected-failures file. The reproduction template is filled by [`fill`]: each placeholder
//! becomes one double-quoted, ASCII-only string literal ([`string_literal`]) that Python and
//! JavaScript read as the same string.

use crate::corpus::yaml::Document;
use crate::json::Value;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The schema of an `about.yaml`, `schemas/about.schema.json`.
pub const ABOUT_SCHEMA: &str = include_str!("../../schemas/about.schema.json");

/// The file name of an adapter's description.
pub const ABOUT_FILE: &str = "about.yaml";

/// The file a publishing run writes the time to a standing into.
pub const TIMING_FILE: &str = "timing.json";

/// A framework adapter's `about.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct About {
    /// The package measured, as its registry spells it.
    pub package: String,
    /// Its exact pinned version.
    pub version: String,
    /// `pypi` or `npm`.
    pub registry: String,
    /// The language of the reproduction template: `python`, `javascript` or `typescript`.
    pub language: String,
    /// The API path measured, one line.
    pub api: String,
    /// Each choice of the adapter that shapes the numbers, one sentence each.
    pub choices: Vec<String>,
    /// The reproduction template's file name, relative to the adapter folder.
    pub repro: String,
}

/// An adapter description that cannot be used, with its file and the place in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", path.display(), place.as_deref().unwrap_or(""))]
pub struct AboutError {
    /// The file.
    pub path: PathBuf,
    /// `:line:column`, when known.
    pub place: Option<String>,
    /// What is wrong.
    pub message: String,
}

fn validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let schema: Value = crate::json::from_str(ABOUT_SCHEMA).expect("bundled schema is JSON");
        jsonschema::validator_for(&crate::json::to_serde(&schema)).expect("bundled schema compiles")
    })
}

impl About {
    /// Reads `adapter_dir/about.yaml` and checks that the template it names exists there.
    pub fn load(adapter_dir: &Path) -> Result<About, AboutError> {
        let path = adapter_dir.join(ABOUT_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| AboutError {
            path: path.clone(),
            place: None,
            message: format!("cannot read: {e}"),
        })?;
        let about = About::parse(&path, &text)?;
        if !adapter_dir.join(&about.repro).is_file() {
            return Err(AboutError {
                path,
                place: None,
                message: format!("repro names {:?}, which is not a file of {}", about.repro, adapter_dir.display()),
            });
        }
        Ok(about)
    }

    /// Parses `text`, read from `path`: YAML that `schemas/about.schema.json` accepts.
    pub fn parse(path: &Path, text: &str) -> Result<About, AboutError> {
        let error = |place: Option<String>, message: String| AboutError { path: path.to_path_buf(), place, message };
        let at = |p: crate::corpus::yaml::Position| Some(format!(":{}:{}", p.line, p.column));
        let document = Document::parse(text).map_err(|p| error(at(p.position), p.message))?;
        let instance = crate::json::to_serde(&document.value);
        if let Some(problem) = validator().iter_errors(&instance).next() {
            let pointer = problem.instance_path().as_str().to_string();
            let place = if pointer.is_empty() { String::new() } else { format!("at {pointer}: ") };
            return Err(error(at(document.position(&pointer)), format!("{place}{problem}")));
        }
        serde_json::from_value(document.value.clone()).map_err(|e| error(None, e.to_string()))
    }
}

/// The time to a standing: the wall time of whole runs, each at a number of parallel jobs.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Timing {
    /// One entry per run, in the order measured.
    pub runs: Vec<TimedRun>,
}

/// One timed run.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TimedRun {
    /// `--jobs` of the run.
    pub jobs: u32,
    /// Its wall time, in seconds.
    pub seconds: f64,
}

impl Timing {
    /// Reads `report_dir/timing.json`: `None` when there is none.
    pub fn load(report_dir: &Path) -> Result<Option<Timing>, AboutError> {
        let path = report_dir.join(TIMING_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(AboutError { path, place: None, message: format!("cannot read: {e}") }),
        };
        serde_json::from_str(&text).map(Some).map_err(|e| AboutError {
            path,
            place: None,
            message: format!("not a timing.json: {e}"),
        })
    }
}

/// `text` as one double-quoted string literal in JSON's string syntax, ASCII-only: `"` and `\`
/// escaped, the common controls as `\n`, `\t`, … and every other character outside printable
/// ASCII as `\uXXXX` (UTF-16 code units; a lone-surrogate stand-in as the surrogate it stands
/// for). Python and JavaScript read it as the same string.
pub fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            _ => match crate::json::surrogate::stood_for(c) {
                Some(unit) => out.push_str(&format!("\\u{unit:04x}")),
                None => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
            },
        }
    }
    out.push('"');
    out
}

/// The compact JSON text of `value`: number literals and key order as held.
pub fn json_text(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The template with `__TOOL__`, `__SCHEMA__` and `__ARGUMENTS__` replaced, each by the
/// [`string_literal`] of the tool's name and of the compact JSON text of the schema and of the
/// arguments.
pub fn fill(template: &str, tool: &str, schema: &Value, arguments: &Value) -> String {
    template
        .replace("__TOOL__", &string_literal(tool))
        .replace("__SCHEMA__", &string_literal(&json_text(schema)))
        .replace("__ARGUMENTS__", &string_literal(&json_text(arguments)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about(text: &str) -> Result<About, AboutError> {
        About::parse(Path::new("about.yaml"), text)
    }

    const GOOD: &str = "package: mcp\nversion: 2.3.0\nregistry: pypi\nlanguage: python\n\
        api: \"`MCPServer.add_tool`\"\nchoices:\n  - An enum is a Literal.\nrepro: repro.py\n";

    #[test]
    fn a_good_file_reads_and_every_key_is_checked() {
        let read = about(GOOD).unwrap();
        assert_eq!(read.package, "mcp");
        assert_eq!(read.choices, ["An enum is a Literal."]);
        for (from, to, says) in [
            ("registry: pypi", "registry: PyPI", "/registry"),
            ("  - An enum is a Literal.", "  - An enum is a Literal", "/choices/0"),
            ("repro: repro.py", "repro: ../repro.py", "/repro"),
            ("repro: repro.py\n", "repro: repro.py\nextra: 1\n", "extra"),
            ("api: \"`MCPServer.add_tool`\"", "api: \"two\\nlines\"", "/api"),
            ("language: python", "language: rust", "/language"),
        ] {
            let text = GOOD.replace(from, to);
            let error = about(&text).unwrap_err().to_string();
            assert!(error.contains(says), "{to}: {error}");
        }
        let error = about(&GOOD.replace("version: 2.3.0\n", "")).unwrap_err().to_string();
        assert!(error.contains("version"), "{error}");
    }

    #[test]
    fn a_template_that_does_not_exist_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(ABOUT_FILE), GOOD).unwrap();
        assert!(About::load(dir.path()).unwrap_err().to_string().contains("not a file"));
        std::fs::write(dir.path().join("repro.py"), "print(__SCHEMA__)\n").unwrap();
        assert_eq!(About::load(dir.path()).unwrap().repro, "repro.py");
    }

    #[test]
    fn literals_are_ascii_json_strings_that_read_back_exactly() {
        let text = "a\"b\\c\n\u{1b}é\u{202e}😀`</x>";
        let literal = string_literal(text);
        assert!(literal.chars().all(|c| (' '..='~').contains(&c)), "{literal}");
        assert_eq!(literal, "\"a\\\"b\\\\c\\n\\u001bé\\u202e\\ud83d\\ude00`</x>\"".replace('é', "\\u00e9"));
        let back: String = crate::json::from_str(&literal).unwrap();
        assert_eq!(back, text);
        let stand_in = crate::json::surrogate::stand_in(0xD800).unwrap();
        assert_eq!(string_literal(&stand_in.to_string()), "\"\\ud800\"");
    }

    #[test]
    fn fill_writes_exact_json_text_as_literals() {
        let schema: Value = crate::json::from_str(r#"{"type":"object","properties":{"n":{"type":"number"}}}"#).unwrap();
        let arguments: Value = crate::json::from_str(r#"{"n":12345678901234567890.10,"__proto__":true}"#).unwrap();
        let filled = fill("t = __TOOL__\ns = __SCHEMA__\na = __ARGUMENTS__ # __TOOL__", "a.b", &schema, &arguments);
        assert_eq!(
            filled,
            "t = \"a.b\"\ns = \"{\\\"type\\\":\\\"object\\\",\\\"properties\\\":{\\\"n\\\":{\\\"type\\\":\\\"number\\\"}}}\"\n\
             a = \"{\\\"n\\\":12345678901234567890.10,\\\"__proto__\\\":true}\" # \"a.b\""
        );
    }
}
