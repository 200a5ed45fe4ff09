//! The manifest: every tool a run's selected cases register, plus one tool per distinct
//! `normalize` input schema, published all at once under names that never change during the run.
//!
//! Tools never change during a run, so no `notifications/tools/list_changed` and no session per
//! tool set: many gateways list their upstream tools once, at start, and ignore list_changed, and
//! one listing keeps one implementation process per run.
//!
//! Names:
//! - a case tool keeps its name; when two tools of the run share a name with different definitions
//!   (name, description and schema, compared as exact JSON text), the later ones are published as
//!   `<name>_2`, `<name>_3`, … in the order the run first registers them;
//! - the tool of a normalize schema is `normalize_1`, `normalize_2`, … in the order the run first
//!   sends that schema (schemas compared as exact JSON text);
//! - a name already taken moves on to the next free number, so every published name is unique.
//!
//! The file (UTF-8 JSON; numbers and key order exactly as the cases write them; contract:
//! `schemas/manifest.schema.json`):
//!
//! ```json
//! {"manifest": 1, "fingerprint": "sha256:…",
//!  "tools": [{"name": "update_step", "description": "…", "input_schema": {…}}, …]}
//! ```
//!
//! The fingerprint ([`Manifest::fingerprint`]) is the SHA-256 of the tools' exact JSON text: two
//! manifests publish the same names for the same tools exactly when their fingerprints agree. The
//! recording upstream writes it as its first record line, and a run whose own manifest has
//! another refuses to start: its `normalize_N` would name other schemas.

use crate::case::tool::Tool;
use crate::case::{Case, Check};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The version of the manifest format, its `manifest` field.
pub const MANIFEST_VERSION: u64 = 1;

/// The largest manifest file read, in bytes (the whole corpus's is well under a megabyte).
pub const MAX_MANIFEST_BYTES: u64 = 64 * 1024 * 1024;

/// What MCP asks of a tool's input schema, as the reasons for leaving out a tool
/// [`Manifest::outside_mcp`] finds say it.
pub const MCP_TOOL_SHAPE: &str =
    "MCP's schema of a tool asks for an inputSchema with \"type\": \"object\" whose properties are objects";

/// The description of a normalize tool.
const NORMALIZE_DESCRIPTION: &str =
    "Receives the arguments of RT-TOOL-8 normalize checks for this input schema; its handler records them.";

/// The tools of a run, each under its published name.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// The published tools, in the order the run first meets them.
    tools: Vec<Tool>,
    /// A case tool's exact JSON text → its index in `tools`.
    by_tool: HashMap<String, usize>,
    /// A normalize schema's exact JSON text → its index in `tools`.
    by_schema: HashMap<String, usize>,
}

/// The manifest as written: the file's fields.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    manifest: u64,
    /// Written always; read when present, and then it must be the tools' own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fingerprint: Option<String>,
    tools: Vec<Tool>,
}

/// A manifest file that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("{}: {kind}", path.display())]
pub struct ManifestError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub kind: ManifestErrorKind,
}

/// What is wrong with a manifest file.
#[derive(Debug, thiserror::Error)]
pub enum ManifestErrorKind {
    /// It cannot be read.
    #[error("cannot be read: {0}")]
    Io(#[from] std::io::Error),
    /// It is not a manifest.
    #[error("is not a manifest: {0}")]
    Format(String),
}

fn exact(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

impl Manifest {
    /// The manifest of a run's `cases`, in the order the run takes them (for a selection:
    /// `corpus.cases.iter().filter(|c| selection.matches(c))`).
    pub fn of<'a>(cases: impl IntoIterator<Item = &'a Case>) -> Manifest {
        let mut manifest = Manifest { tools: Vec::new(), by_tool: HashMap::new(), by_schema: HashMap::new() };
        let mut taken = Names::default();
        let mut normalizers = 0;
        for case in cases {
            match &case.check {
                Check::Invoke { tools, .. } | Check::Describe { tools, .. } => {
                    for tool in tools {
                        let key = exact(tool);
                        if manifest.by_tool.contains_key(&key) {
                            continue;
                        }
                        let name = free_name(&tool.name, 1, &mut taken);
                        manifest.by_tool.insert(key, manifest.tools.len());
                        manifest.tools.push(Tool { name, ..tool.clone() });
                    }
                }
                Check::Normalize { input_schema, .. } => {
                    let key = exact(input_schema);
                    if manifest.by_schema.contains_key(&key) {
                        continue;
                    }
                    let (name, n) = numbered_name("normalize", normalizers + 1, &mut taken);
                    normalizers = n;
                    manifest.by_schema.insert(key, manifest.tools.len());
                    manifest.tools.push(Tool {
                        name,
                        description: Some(NORMALIZE_DESCRIPTION.into()),
                        input_schema: input_schema.clone(),
                    });
                }
            }
        }
        manifest
    }

    /// Reads a manifest file (as [`Manifest::to_json`] writes it): a regular file, not a link,
    /// of at most [`MAX_MANIFEST_BYTES`].
    pub fn read(path: &Path) -> Result<Manifest, ManifestError> {
        let error = |kind| ManifestError { path: path.to_path_buf(), kind };
        let bytes =
            crate::json::file::read_bytes(path, MAX_MANIFEST_BYTES).map_err(|e| error(ManifestErrorKind::Io(e)))?;
        Manifest::from_slice(&bytes).map_err(|why| error(ManifestErrorKind::Format(why)))
    }

    /// A manifest from its JSON text; `Err` says why it is not one.
    pub fn from_slice(bytes: &[u8]) -> Result<Manifest, String> {
        let file: File = crate::json::from_slice(bytes).map_err(|e| e.to_string())?;
        if file.manifest != MANIFEST_VERSION {
            return Err(format!("manifest {} is not a version this harness reads ({MANIFEST_VERSION})", file.manifest));
        }
        let mut seen = HashSet::new();
        if let Some(twice) = file.tools.iter().find(|t| !seen.insert(t.name.as_str())) {
            return Err(format!("the tool name {:?} is published twice", twice.name));
        }
        let manifest = Manifest { tools: file.tools, by_tool: HashMap::new(), by_schema: HashMap::new() };
        if let Some(written) = file.fingerprint {
            let own = manifest.fingerprint();
            if written != own {
                return Err(format!(
                    "its fingerprint {written} is not that of its tools ({own}): the tools were changed after it was made; print it again with `tool-conformance manifest`"
                ));
            }
        }
        Ok(manifest)
    }

    /// The published tools, in order.
    /// What the manifest publishes, in one word: `sha256:` and the hex SHA-256 of its tools'
    /// exact JSON text (names, descriptions and schemas, in order). Manifests made from other
    /// case selections or corpora that publish other tools, or the same under other names, differ.
    pub fn fingerprint(&self) -> String {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(exact(&self.tools).as_bytes());
        let mut out = String::from("sha256:");
        for byte in digest {
            out.push_str(&format!("{byte:02x}"));
        }
        out
    }

    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The published tool named `name`.
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The name a case tool is published under, `None` for a tool no selected case registers
    /// (or a manifest read from a file, which knows only published names).
    pub fn name_of_tool(&self, tool: &Tool) -> Option<&str> {
        self.by_tool.get(&exact(tool)).map(|&i| self.tools[i].name.as_str())
    }

    /// The name of the tool published for a normalize `input_schema`, `None` for a schema no
    /// selected case sends.
    pub fn name_of_normalize(&self, input_schema: &Value) -> Option<&str> {
        self.by_schema.get(&exact(input_schema)).map(|&i| self.tools[i].name.as_str())
    }

    /// The published tools whose input schema MCP's own schema of a tool does not allow, each with
    /// why: MCP wants an `inputSchema` that is an object with `"type": "object"` and whose
    /// `properties` are objects. The manifest publishes them as the cases write them, but an MCP
    /// SDK's client may refuse a whole `tools/list` that holds one (the Python SDK's checks the
    /// root, the TypeScript SDK's the properties too), so a run through such a client leaves out
    /// the cases that register them.
    pub fn outside_mcp(&self) -> Vec<(&Tool, &'static str)> {
        self.tools
            .iter()
            .filter_map(|tool| {
                let why = match &tool.input_schema {
                    Value::Object(schema) if schema.get("type").and_then(Value::as_str) != Some("object") => {
                        "its root has no \"type\": \"object\""
                    }
                    Value::Object(schema) => match schema.get("properties") {
                        Some(Value::Object(properties)) if properties.values().all(Value::is_object) => return None,
                        None => return None,
                        Some(_) => "a property's schema is not an object",
                    },
                    _ => "it is not an object",
                };
                Some((tool, why))
            })
            .collect()
    }

    /// The manifest as its JSON document, exact.
    pub fn to_json(&self) -> Value {
        let file =
            File { manifest: MANIFEST_VERSION, fingerprint: Some(self.fingerprint()), tools: self.tools.clone() };
        serde_json::to_value(&file).unwrap_or_default()
    }

    /// The manifest as JSON text, pretty, with a final newline.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.to_json()).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// The names taken so far, and for each way of numbering a base how far its numbers are all
/// taken (so that many tools of one name are numbered in linear time, not each from 1 again).
#[derive(Default)]
struct Names {
    taken: HashSet<String>,
    /// (whether N = 1 is the base itself, the base) → a number all before which are taken.
    next: HashMap<(bool, String), u64>,
}

impl Names {
    #[cfg(test)]
    fn insert(&mut self, name: String) -> bool {
        self.taken.insert(name)
    }

    /// The first free name from `first` on, taken, and its number.
    fn take(&mut self, base: &str, bare_first: bool, first: u64) -> (String, u64) {
        let key = (bare_first, base.to_string());
        let known = self.next.get(&key).copied().unwrap_or(1);
        let from = first.max(1);
        let mut n = from.max(known);
        loop {
            let name = if bare_first && n == 1 { base.to_string() } else { format!("{base}_{n}") };
            if self.taken.insert(name.clone()) {
                if from <= known {
                    // Every number before `n` was taken already (before `known`) or just now
                    // found taken, so the next search starts after it.
                    self.next.insert(key, n + 1);
                }
                return (name, n);
            }
            n += 1;
        }
    }
}

/// The first free name from `first` on, taken: N = 1 is `base` itself (the name a case tool
/// keeps), N > 1 is `<base>_N`.
fn free_name(base: &str, first: u64, taken: &mut Names) -> String {
    taken.take(base, true, first).0
}

/// The first free `<base>_N` from `first` on, taken.
fn numbered_name(base: &str, first: u64, taken: &mut Names) -> (String, u64) {
    taken.take(base, false, first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::run::config::Selection;

    const SCHEMA: &str = include_str!("../../schemas/manifest.schema.json");

    fn corpus() -> Corpus {
        Corpus::embedded().expect("the embedded corpus loads")
    }

    #[test]
    fn the_whole_corpus_manifest_validates_against_its_schema_and_reads_back() {
        let corpus = corpus();
        let manifest = Manifest::of(&corpus.cases);
        let schema: Value = crate::json::from_str(SCHEMA).expect("the schema is JSON");
        let validator = jsonschema::draft202012::new(&crate::json::to_serde(&schema)).expect("the schema compiles");
        let document = manifest.to_json();
        let errors: Vec<String> = validator
            .iter_errors(&crate::json::to_serde(&document))
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "the manifest does not validate: {errors:?}");
        for bad in [
            serde_json::json!({"manifest": 2, "tools": []}),
            serde_json::json!({"manifest": 1, "tools": [{"name": "a"}]}),
            serde_json::json!({"manifest": 1, "tools": [{"name": "", "input_schema": {}}]}),
            serde_json::json!({"manifest": 1, "tools": [], "extra": true}),
        ] {
            assert!(!validator.is_valid(&crate::json::to_serde(&bad)), "the schema accepts {bad}");
        }
        let read = Manifest::from_slice(manifest.to_text().as_bytes()).expect("reads back");
        assert_eq!(read.tools(), manifest.tools());
        assert_eq!(read.to_text(), manifest.to_text());
        assert_eq!(read.fingerprint(), manifest.fingerprint());
        assert!(validator.is_valid(&crate::json::to_serde(&serde_json::json!({"manifest": 1, "tools": []}))));
    }

    #[test]
    fn the_fingerprint_tells_selections_apart_and_catches_an_edited_manifest() {
        let corpus = corpus();
        let of = |pattern: &str| {
            let selection = Selection::new(vec![], vec![], vec![pattern.into()]).expect("a pattern");
            Manifest::of(corpus.cases.iter().filter(|c| selection.matches(c)))
        };
        let (plat, rt) = (of("PLAT-162/*"), of("RT-TOOL-8/*"));
        assert_ne!(plat.fingerprint(), rt.fingerprint());
        assert_eq!(plat.fingerprint(), of("PLAT-162/*").fingerprint(), "the same selection, the same fingerprint");
        assert!(plat.fingerprint().starts_with("sha256:") && plat.fingerprint().len() == 7 + 64);
        // A manifest whose tools were changed after it was printed is refused, naming both.
        let mut document = plat.to_json();
        document["tools"][0]["name"] = serde_json::json!("renamed");
        let error = Manifest::from_slice(document.to_string().as_bytes()).unwrap_err();
        assert!(error.contains(&plat.fingerprint()) && error.contains("changed after"), "{error}");
        // One without a fingerprint (written by hand) is read, and has its tools' own.
        document.as_object_mut().unwrap().remove("fingerprint");
        assert!(Manifest::from_slice(document.to_string().as_bytes()).is_ok());
    }

    #[test]
    fn every_case_tool_and_normalize_schema_has_one_published_name() {
        let corpus = corpus();
        let manifest = Manifest::of(&corpus.cases);
        let names: HashSet<&str> = manifest.tools().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names.len(), manifest.tools().len(), "published names are unique");
        for case in &corpus.cases {
            match &case.check {
                Check::Invoke { tools, .. } | Check::Describe { tools, .. } => {
                    for tool in tools {
                        let name = manifest.name_of_tool(tool).expect("every case tool is published");
                        let published = manifest.tool(name).unwrap();
                        assert_eq!(exact(&published.input_schema), exact(&tool.input_schema), "{}", case.id);
                        assert_eq!(published.description, tool.description);
                        assert!(name == tool.name || name.starts_with(&format!("{}_", tool.name)));
                    }
                }
                Check::Normalize { input_schema, .. } => {
                    let name = manifest.name_of_normalize(input_schema).expect("every schema is published");
                    assert!(name.starts_with("normalize_"), "{name}");
                    assert_eq!(exact(&manifest.tool(name).unwrap().input_schema), exact(input_schema));
                }
            }
        }
        // The corpus registers two different set_counters: the later one is published renamed.
        assert!(manifest.tool("set_counters").is_some() && manifest.tool("set_counters_2").is_some());
        assert_eq!(
            manifest.tools().iter().filter(|t| t.name.starts_with("normalize_")).count(),
            manifest.by_schema.len()
        );
        assert!(manifest.tool("normalize_1").is_some());
    }

    #[test]
    fn the_tools_mcp_cannot_carry_are_named_with_why() {
        let manifest = Manifest::from_slice(
            br#"{"manifest":1,"tools":[
              {"name":"ok","input_schema":{"type":"object","properties":{"a":{}}}},
              {"name":"bare","input_schema":{"type":"object"}},
              {"name":"untyped","input_schema":{}},
              {"name":"boolean","input_schema":true},
              {"name":"property","input_schema":{"type":"object","properties":{"a":true}}}]}"#,
        )
        .unwrap();
        let outside: Vec<&str> = manifest.outside_mcp().iter().map(|(t, _)| t.name.as_str()).collect();
        assert_eq!(outside, ["untyped", "boolean", "property"]);
        let whole = Manifest::of(&corpus().cases);
        let names: Vec<&str> = whole.outside_mcp().iter().map(|(t, _)| t.name.as_str()).collect();
        assert!(names.contains(&"empty_schema_tool"), "{names:?}");
    }

    #[test]
    fn many_tools_of_one_name_are_numbered_in_linear_time() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut taken = Names::default();
            taken.insert("t_5".into());
            let names: Vec<String> = (0..32_000).map(|_| free_name("t", 1, &mut taken)).collect();
            let _ = done.send(names);
        });
        let names = finished.recv_timeout(std::time::Duration::from_secs(5)).expect("32,000 names within 5 s");
        assert_eq!((names[0].as_str(), names[3].as_str(), names[4].as_str()), ("t", "t_4", "t_6"));
        assert_eq!(names.iter().collect::<HashSet<_>>().len(), 32_000);
        assert_eq!(names.last().unwrap(), "t_32001");
    }

    #[test]
    fn names_follow_the_order_of_first_use_and_skip_taken_ones() {
        let mut taken = Names::default();
        assert_eq!(free_name("t", 1, &mut taken), "t");
        assert_eq!(free_name("t", 1, &mut taken), "t_2");
        assert_eq!(free_name("t", 1, &mut taken), "t_3");
        taken.insert("normalize_1".into());
        assert_eq!(numbered_name("normalize", 1, &mut taken), ("normalize_2".into(), 2));
        assert_eq!(numbered_name("normalize", 3, &mut taken), ("normalize_3".into(), 3));
    }

    #[test]
    fn a_selection_publishes_only_its_tools_and_numbers_keep_their_digits() {
        let corpus = corpus();
        let none = Selection::new(vec![], vec![], vec!["PLAT-162/*".into()]).unwrap();
        let manifest = Manifest::of(corpus.cases.iter().filter(|c| none.matches(c)));
        assert!(manifest.tools().iter().all(|t| !t.name.starts_with("normalize_")));
        let bad = Manifest::from_slice(
            br#"{"manifest":1,"tools":[{"name":"a","input_schema":{}},{"name":"a","input_schema":{}}]}"#,
        );
        assert!(bad.unwrap_err().contains("twice"));
        let text = r#"{"manifest":1,"tools":[{"name":"a","input_schema":{"z":1,"maximum":12345678901234567890123,"a":0.10}}]}"#;
        let read = Manifest::from_slice(text.as_bytes()).unwrap();
        let with_fingerprint = format!(r#""manifest":1,"fingerprint":"{}","#, read.fingerprint());
        assert_eq!(
            serde_json::to_string(&read.to_json()).unwrap(),
            text.replacen(r#""manifest":1,"#, &with_fingerprint, 1)
        );
    }
}
