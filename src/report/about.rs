//! What a framework adapter's standing measures: its `about.yaml` (package, version, registry,
//! language, API path, choices, reproduction template) and the `timing.json` that
//! `run-frameworks.sh` writes beside a published standing, read for [`crate::report::readme`].
//!
//! `about.yaml`'s contract is `schemas/about.schema.json` (docs/protocol.md, "The framework
//! adapter contract"); a file the schema refuses is an error naming the place in it, as for an
//! expected-failures file. The reproduction template is filled by [`fill`]: `__TOOL__` becomes
//! the tool's name, `__SCHEMA__` and `__ARGUMENTS__` the exact JSON text of the schema and of the
//! arguments, in printable ASCII without `'`, `` ` `` or `$` ([`json_text`]).

use crate::corpus::yaml::{Document, MAX_SOURCE_BYTES};
use crate::json::Value;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The schema of an `about.yaml`, `schemas/about.schema.json`.
pub const ABOUT_SCHEMA: &str = include_str!("../../schemas/about.schema.json");

/// The file name of an adapter's description.
pub const ABOUT_FILE: &str = "about.yaml";

/// The largest reproduction template read, in bytes.
pub const MAX_TEMPLATE_BYTES: u64 = 256 * 1024;

/// The file a publishing run writes the time to a standing into.
pub const TIMING_FILE: &str = "timing.json";

/// A framework adapter's `about.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct About {
    /// The package measured, as its registry spells it.
    pub package: String,
    /// Its exact pinned version.
    pub version: String,
    /// `pypi`, `npm` or `crates`.
    pub registry: String,
    /// The language of the reproduction template: `python`, `javascript`, `typescript` or `rust`.
    pub language: String,
    /// Which of the package's paths the row measures, in a few words (shown in the table).
    pub path: String,
    /// The package's newest major release and why the row is pinned behind it, when it is.
    #[serde(default)]
    pub pinned_behind: Option<String>,
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
    /// Reads `adapter_dir/about.yaml` and checks that the template it names exists there. Neither
    /// the folder nor the file may be a symbolic link.
    pub fn load(adapter_dir: &Path) -> Result<About, AboutError> {
        let path = adapter_dir.join(ABOUT_FILE);
        if adapter_dir.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(AboutError {
                path: adapter_dir.to_path_buf(),
                place: None,
                message: "this adapter folder is a symbolic link, and nothing is read through one: put the \
                          folder itself here"
                    .into(),
            });
        }
        let text = crate::json::file::read_text(&path, MAX_SOURCE_BYTES).map_err(|e| AboutError {
            path: path.clone(),
            place: None,
            message: format!("cannot read: {e}"),
        })?;
        let about = About::parse(&path, &text)?;
        if !crate::json::file::exists(&adapter_dir.join(&about.repro)) {
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
        let text = match crate::json::file::read_text(&path, MAX_SOURCE_BYTES) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(AboutError { path, place: None, message: format!("cannot read: {e}") }),
        };
        crate::json::from_str(&text).map(Some).map_err(|e| AboutError {
            path,
            place: None,
            message: format!("not a timing.json: {e}"),
        })
    }
}

/// The compact JSON text of `value` (number literals and key order as held), written in
/// printable ASCII with no `'`, `` ` `` or `$`: each of those, and every character outside
/// U+0020..U+007E, as a `\uXXXX` escape (UTF-16 code units; a lone-surrogate stand-in as the
/// surrogate it stands for). Such characters only ever occur inside JSON strings, so the text is
/// still JSON, of the same value, and it can sit unchanged inside a Python raw string
/// (`r'''…'''`), a JavaScript `String.raw` template, or a JavaScript expression.
pub fn json_text(value: &Value) -> String {
    let compact = serde_json::to_string(value).unwrap_or_default();
    let mut out = String::with_capacity(compact.len());
    for c in compact.chars() {
        match c {
            '\'' | '`' | '$' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
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
    out
}

/// The template with `__TOOL__` replaced by the tool's name, verbatim, and `__SCHEMA__` and
/// `__ARGUMENTS__` by the [`json_text`] of the schema and of the arguments.
pub fn fill(template: &str, tool: &str, schema: &Value, arguments: &Value) -> String {
    template
        .replace("__TOOL__", tool)
        .replace("__SCHEMA__", &json_text(schema))
        .replace("__ARGUMENTS__", &json_text(arguments))
}

/// The adapter folder of a report folder in the repository's layout: `reports/<name>` is
/// measured by `examples/adapters/<name>`. Returns the folder and its path from the root.
pub fn adapter_of(report_dir: &Path) -> (PathBuf, String) {
    let name = report_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let root = report_dir.parent().and_then(Path::parent).unwrap_or(Path::new("."));
    let link = format!("examples/adapters/{name}");
    (root.join(&link), link)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about(text: &str) -> Result<About, AboutError> {
        About::parse(Path::new("about.yaml"), text)
    }

    const GOOD: &str = "package: mcp\nversion: 2.3.0\nregistry: pypi\nlanguage: python\npath: function signature\n\
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
            ("language: python", "language: cobol", "/language"),
            ("path: function signature", "path: ''", "/path"),
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
    fn json_text_is_ascii_json_of_the_same_value() {
        let value: Value = crate::json::from_str(
            r#"{"a\"b\\c\n":"\u001bé\u202e😀`</x> it's $1","n":12345678901234567890.10,"__proto__":[true,null]}"#,
        )
        .unwrap();
        let text = json_text(&value);
        assert!(text.chars().all(|c| (' '..='~').contains(&c) && !"'`$".contains(c)), "{text}");
        assert_eq!(
            text,
            r#"{"a\"b\\c\n":"\u001b\u00e9\u202e\ud83d\ude00\u0060</x> it\u0027s \u00241","n":12345678901234567890.10,"__proto__":[true,null]}"#
        );
        let back: Value = crate::json::from_str(&text).unwrap();
        assert_eq!(back, value);
        let stand_in = crate::json::surrogate::stand_in(0xD800).unwrap();
        assert_eq!(json_text(&Value::String(stand_in.to_string())), r#""\ud800""#);
    }

    #[test]
    fn fill_writes_the_name_verbatim_and_exact_json_text() {
        let schema: Value = crate::json::from_str(r#"{"type":"object","properties":{"n":{"type":"number"}}}"#).unwrap();
        let arguments: Value = crate::json::from_str(r#"{"n":1.50}"#).unwrap();
        let template = "t = \"__TOOL__\"\ns = r'''__SCHEMA__'''\na = __ARGUMENTS__ # __TOOL__";
        assert_eq!(
            fill(template, "set_label", &schema, &arguments),
            "t = \"set_label\"\ns = r'''{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\"}}}'''\n\
             a = {\"n\":1.50} # set_label"
        );
    }
}
