//! Loading the corpus: the rule files and every case file, validated and resolved into [`Case`]s.
//!
//! Files are read in sorted path order, from a directory (walkdir) or from the copy embedded in
//! the binary at build time; both go through the same code. A folder `<RULE>/` of the corpus root
//! holds its rule's file, `rule.yaml` (validated against `schemas/rule.schema.json`), and its case
//! files; the rule files make the catalog, in the order they give. Each file is parsed once
//! (`Document`) and validated against its JSON Schema (the contract), then read into typed values
//! and checked for what a schema cannot say: a rule file's id is its folder's name and its order
//! is its own; case ids must be unique, clauses must exist in the catalog and belong to the file's
//! rule, levels must be among the rule's, a normalize case needs a schema, an invoke or describe
//! case needs its tool among the registered tools. Each bad file gives one error naming its file,
//! line and column; all bad files are reported together.

pub mod rules;
pub mod specs;
pub(crate) mod yaml;

use crate::case::checks::{self, CheckKind};
use crate::case::file::{Behaviour, CaseFile};
use crate::case::tool::{Tool, Transport, View};
use crate::case::{Case, Check, Expect, InvokeExpectation, Level, Location};
use crate::corpus::rules::{Catalog, Clause, RULE_FILE, Rejections, Rule};
use crate::corpus::yaml::{Document, Position};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
}

/// The case file schema, `schemas/case.schema.json`.
pub const CASE_SCHEMA: &str = include_str!("../../schemas/case.schema.json");
/// The rule file schema, `schemas/rule.schema.json`.
pub const RULE_SCHEMA: &str = include_str!("../../schemas/rule.schema.json");

/// Whether `path`, relative to the corpus root, is where a rule file goes: `<RULE>/rule.yaml`.
pub fn is_rule_file(path: &Path) -> bool {
    let parts: Vec<&std::ffi::OsStr> = path.iter().collect();
    matches!(parts.as_slice(), [_, file] if *file == RULE_FILE)
}

/// A loaded corpus: the catalog and every case, in file order.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The rules and clauses.
    pub catalog: Catalog,
    /// Every case, sorted by file and then in file order.
    pub cases: Vec<Case>,
    /// The files read, relative to the corpus root, with their contents.
    pub files: Vec<(PathBuf, String)>,
}

/// Something wrong with one corpus file, with the place it was found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}:{}:{}: {kind}", path.display(), position.line, position.column)]
pub struct CorpusError {
    /// The file, relative to the corpus root (or the root itself when it cannot be read).
    pub path: PathBuf,
    /// Where in the file.
    pub position: Position,
    /// What is wrong.
    pub kind: CorpusErrorKind,
}

/// What can be wrong with a corpus file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CorpusErrorKind {
    /// The file or folder cannot be read.
    #[error("cannot read: {0}")]
    Read(String),
    /// The file is not valid YAML, or not JSON-compatible YAML.
    #[error("{0}")]
    Yaml(String),
    /// The file does not match its JSON Schema.
    #[error("{message} (at {pointer}; see {schema})")]
    Schema {
        /// JSON pointer of the offending value.
        pointer: String,
        /// What the schema says is wrong.
        message: String,
        /// Which schema.
        schema: &'static str,
    },
    /// The file is not where case files go.
    #[error("case files live at cases/<RULE>/<topic>.yaml, beside their rule's cases/<RULE>/rule.yaml: {0}")]
    Placement(String),
    /// A case file whose name cannot be a case id's topic.
    #[error(
        "{0:?} cannot name a topic: a case id is <RULE>/<topic>/<name>, and a topic (the file's name without \
         .yaml) has no whitespace or control characters, so that every id can be written back in an \
         expected-failures file; rename the file"
    )]
    TopicName(String),
    /// An added file at a path the corpus it is added to already has.
    #[error("{} is already in the corpus: an added file may not replace one (give it another name)", .0.display())]
    AlreadyThere(PathBuf),
    /// Two cases have the same id.
    #[error("duplicate case id {id}; first defined at {first}")]
    DuplicateId {
        /// The id.
        id: String,
        /// Where the first one is.
        first: Location,
    },
    /// A clause id that the catalog does not have, or that belongs to another rule.
    #[error("clause {clause} is not a clause of {rule} in its rule.yaml")]
    UnknownClause {
        /// The clause id cited.
        clause: String,
        /// The file's rule.
        rule: String,
    },
    /// A `needs` entry that names no rule of the catalog, or the case's own rule.
    #[error("needs names {need}, which is not another rule of the catalog than the file's own ({rule})")]
    UnknownNeed {
        /// The rule id named.
        need: String,
        /// The file's rule.
        rule: String,
    },
    /// A case whose level its rule's file does not list.
    #[error("level {level} is not among the levels of {rule} ({allowed}) in its rule.yaml")]
    Level {
        /// The case's level.
        level: Level,
        /// The file's rule.
        rule: String,
        /// The rule's levels, comma-separated.
        allowed: String,
    },
    /// A rule file that contradicts itself or another rule file.
    #[error("{0}")]
    Rule(String),
    /// A case that cannot check anything as written.
    #[error("nothing to check: {0}")]
    NothingToCheck(String),
    /// A schema in a case that is not a valid JSON Schema, or an expectation that contradicts it.
    #[error("{0}")]
    BadSchema(String),
    /// A check of a required case that shows no behaviour of its rule.
    #[error("{0}")]
    NoBehaviour(String),
    /// The corpus has no rule file.
    #[error("no rule file: each rule's folder <RULE>/ holds its rule.yaml beside its case files")]
    NoCatalog,
}

/// Every error found while loading, one per bad file at most, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct CorpusErrors(pub Vec<CorpusError>);

impl fmt::Display for CorpusErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(f, "the corpus has {n} bad file{}", if n == 1 { "" } else { "s" })?;
        for error in &self.0 {
            write!(f, "\n  {error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CorpusErrors {}

/// Every `.yaml`/`.yml` file under `root`, in file-name order, with its path relative to `root`.
pub fn read_dir(root: &Path) -> Result<Vec<(PathBuf, String)>, CorpusErrors> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                let path = error.path().unwrap_or(root).to_path_buf();
                errors.push(error_at(path, Position::default(), CorpusErrorKind::Read(error.to_string())));
                continue;
            }
        };
        let path = entry.path();
        if !entry.file_type().is_file() || !matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
            continue;
        }
        let relative = path.strip_prefix(root).unwrap_or(path).to_path_buf();
        match crate::json::file::read_text(path, crate::corpus::yaml::MAX_SOURCE_BYTES) {
            Ok(text) => files.push((relative, text)),
            Err(error) => {
                errors.push(error_at(relative, Position::default(), CorpusErrorKind::Read(error.to_string())))
            }
        }
    }
    if errors.is_empty() { Ok(files) } else { Err(CorpusErrors(errors)) }
}

struct Schemas {
    case: jsonschema::Validator,
    rule: jsonschema::Validator,
}

fn schemas() -> &'static Schemas {
    static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let compile = |text: &str| {
            let schema: Value = crate::json::from_str(text).expect("bundled schema is JSON");
            jsonschema::validator_for(&crate::json::to_serde(&schema)).expect("bundled schema compiles")
        };
        Schemas { case: compile(CASE_SCHEMA), rule: compile(RULE_SCHEMA) }
    })
}

impl Corpus {
    /// The corpus embedded in the binary when it was built.
    ///
    /// ```
    /// let corpus = tool_conformance::Corpus::embedded().expect("the built-in corpus loads");
    /// assert!(corpus.cases.iter().any(|c| c.id == "RT-TOOL-8/examples/doubly-escaped-title"));
    /// ```
    pub fn embedded() -> Result<Corpus, CorpusErrors> {
        let files = embedded::FILES.iter().map(|(path, text)| (PathBuf::from(path), text.to_string())).collect();
        Corpus::from_files(files)
    }

    /// The corpus in a directory (its root holds one folder per rule, each with its rule.yaml).
    ///
    /// ```no_run
    /// // A working copy of cases/, or an extension laid out the same way.
    /// let corpus = tool_conformance::Corpus::from_dir(std::path::Path::new("cases"))?;
    /// # Ok::<(), tool_conformance::CorpusErrors>(())
    /// ```
    pub fn from_dir(root: &Path) -> Result<Corpus, CorpusErrors> {
        Corpus::from_files(read_dir(root)?)
    }

    /// This corpus with the files of `dir` added, laid out as in a corpus (`<RULE>/<topic>.yaml`,
    /// and a `<RULE>/rule.yaml` for a new rule): new case files for the rules already here, or
    /// new rules with their cases. A file at a path this corpus already has is refused, so an
    /// addition never silently replaces a case file.
    ///
    /// ```no_run
    /// let corpus = tool_conformance::Corpus::embedded()?.with_added(std::path::Path::new("my-cases"))?;
    /// # Ok::<(), tool_conformance::CorpusErrors>(())
    /// ```
    pub fn with_added(self, dir: &Path) -> Result<Corpus, CorpusErrors> {
        let added = read_dir(dir)?;
        let errors: Vec<CorpusError> = added
            .iter()
            .filter(|(path, _)| self.files.iter().any(|(have, _)| have == path))
            .map(|(path, _)| error_at(dir.join(path), Position::default(), CorpusErrorKind::AlreadyThere(path.clone())))
            .collect();
        if !errors.is_empty() {
            return Err(CorpusErrors(errors));
        }
        let mut files = self.files;
        files.extend(added);
        Corpus::from_files(files)
    }

    /// A corpus from (path relative to the root, contents) pairs, in the order given: every
    /// `<RULE>/rule.yaml` is a rule of the catalog, every other file a case file.
    pub fn from_files(files: Vec<(PathBuf, String)>) -> Result<Corpus, CorpusErrors> {
        let mut errors = Vec::new();
        let mut rules: Vec<(Rule, &Path, Document)> = Vec::new();
        for (path, text) in files.iter().filter(|(path, _)| is_rule_file(path)) {
            match load_rule(path, text, &rules) {
                Ok((rule, document)) => rules.push((rule, path, document)),
                Err(error) => errors.push(error),
            }
        }
        if rules.is_empty() && errors.is_empty() {
            errors.push(error_at(PathBuf::from("."), Position::default(), CorpusErrorKind::NoCatalog));
        }
        if !errors.is_empty() {
            return Err(CorpusErrors(errors));
        }
        let mut rules: Vec<Rule> = rules.into_iter().map(|(rule, _, _)| rule).collect();
        rules.sort_by_key(|rule| rule.order);
        let catalog = Catalog { rules };
        let mut cases = Vec::new();
        let mut seen: HashMap<String, Location> = HashMap::new();
        for (path, text) in files.iter().filter(|(path, _)| !is_rule_file(path)) {
            match load_case_file(&catalog, path, text, &mut seen) {
                Ok(mut loaded) => cases.append(&mut loaded),
                Err(error) => errors.push(error),
            }
        }
        if errors.is_empty() { Ok(Corpus { catalog, cases, files }) } else { Err(CorpusErrors(errors)) }
    }

    /// Per clause, in catalog order: how many cases of each level cite it.
    pub fn coverage(&self) -> Vec<ClauseCoverage> {
        let mut out = Vec::new();
        for rule in &self.catalog.rules {
            for clause in &rule.clauses {
                let mut levels = BTreeMap::new();
                for case in self.cases.iter().filter(|c| c.clauses.contains(&clause.id)) {
                    *levels.entry(case.level).or_insert(0) += 1;
                }
                out.push(ClauseCoverage { rule: rule.id.clone(), clause: clause.id.clone(), levels });
            }
        }
        out
    }
}

/// How many cases of each level cite one clause.
#[derive(Debug, Clone, PartialEq)]
pub struct ClauseCoverage {
    /// The rule id.
    pub rule: String,
    /// The clause id.
    pub clause: String,
    /// Cases per level.
    pub levels: BTreeMap<Level, usize>,
}

impl ClauseCoverage {
    /// Cases of one level.
    pub fn count(&self, level: Level) -> usize {
        self.levels.get(&level).copied().unwrap_or(0)
    }
}

fn error_at(path: PathBuf, position: Position, kind: CorpusErrorKind) -> CorpusError {
    CorpusError { path, position, kind }
}

fn parse(
    path: &Path,
    text: &str,
    schema: &jsonschema::Validator,
    schema_name: &'static str,
) -> Result<Document, CorpusError> {
    let document = Document::parse(text)
        .map_err(|p| error_at(path.to_path_buf(), p.position, CorpusErrorKind::Yaml(p.message)))?;
    if let Some((pointer, message)) = best_schema_error(schema, &document.value) {
        let position = document.position(&pointer);
        return Err(error_at(
            path.to_path_buf(),
            position,
            CorpusErrorKind::Schema {
                pointer: if pointer.is_empty() { "/".into() } else { pointer },
                message,
                schema: schema_name,
            },
        ));
    }
    Ok(document)
}

/// Reads the node at `pointer` as a `T`; a node serde refuses is an error at that node.
fn read<T: DeserializeOwned>(path: &Path, document: &Document, pointer: &str) -> Result<T, CorpusError> {
    let node = document.value.pointer(pointer).cloned().unwrap_or(Value::Null);
    serde_json::from_value(node).map_err(|error| {
        error_at(path.to_path_buf(), document.position(pointer), CorpusErrorKind::Yaml(error.to_string()))
    })
}

/// A node of a document, by pointer, and a reader that says whether serde takes it.
type Part = (String, fn(&Path, &Document, &str) -> Result<(), CorpusError>);

/// Reads the whole document as a `T`. When serde refuses it, the error is placed at the first
/// of `parts` (pointers of nodes and the reader of each) that serde refuses too, so that it names
/// the entry at fault rather than the file.
fn read_narrowed<T: DeserializeOwned>(path: &Path, document: &Document, parts: &[Part]) -> Result<T, CorpusError> {
    read(path, document, "").map_err(|whole| {
        parts.iter().find_map(|(pointer, reader)| reader(path, document, pointer).err()).unwrap_or(whole)
    })
}

fn reader<T: DeserializeOwned>(path: &Path, document: &Document, pointer: &str) -> Result<(), CorpusError> {
    read::<T>(path, document, pointer).map(|_| ())
}

/// The pointers of the items of the array at `pointer`.
fn items(document: &Document, pointer: &str) -> Vec<String> {
    let n = document.value.pointer(pointer).and_then(Value::as_array).map_or(0, Vec::len);
    (0..n).map(|i| format!("{pointer}/{i}")).collect()
}

/// Loads one rule file, checked against the rules loaded before it.
fn load_rule(path: &Path, text: &str, before: &[(Rule, &Path, Document)]) -> Result<(Rule, Document), CorpusError> {
    let document = parse(path, text, &schemas().rule, "schemas/rule.schema.json")?;
    let mut parts: Vec<Part> = Vec::new();
    parts.extend(items(&document, "/clauses").into_iter().map(|p| (p, reader::<Clause> as fn(&_, &_, &_) -> _)));
    parts.extend(items(&document, "/levels").into_iter().map(|p| (p, reader::<Level> as fn(&_, &_, &_) -> _)));
    parts.push(("/rejections".into(), reader::<Rejections>));
    parts.push(("/order".into(), reader::<u64>));
    let rule: Rule = read_narrowed(path, &document, &parts)?;
    let here = |pointer: &str, message: String| {
        error_at(path.to_path_buf(), document.position(pointer), CorpusErrorKind::Rule(message))
    };
    let folder = path.iter().next().and_then(|f| f.to_str()).unwrap_or_default();
    if rule.id != folder {
        return Err(here("/id", format!("the rule id {} is not its folder's name, {folder}", rule.id)));
    }
    if let Some((other, other_path, _)) = before.iter().find(|(other, _, _)| other.order == rule.order) {
        return Err(here(
            "/order",
            format!(
                "order {} is also that of {} ({}); each rule has its own",
                rule.order,
                other.id,
                other_path.display()
            ),
        ));
    }
    let mut ids = HashMap::new();
    for (c, clause) in rule.clauses.iter().enumerate() {
        let pointer = format!("/clauses/{c}/id");
        if !clause.id.starts_with(&format!("{}.", rule.id)) {
            return Err(here(&pointer, format!("clause {} does not start with its rule id {}.", clause.id, rule.id)));
        }
        if ids.insert(clause.id.clone(), ()).is_some() {
            return Err(here(&pointer, format!("clause {} is listed twice", clause.id)));
        }
    }
    let mut selectors = HashMap::new();
    for (b, behaviour) in rule.behaviours.iter().enumerate() {
        if let Some((other, other_path, _)) =
            before.iter().find(|(other, _, _)| other.behaviours.iter().any(|o| o.id == behaviour.id))
        {
            return Err(here(
                &format!("/behaviours/{b}/id"),
                format!(
                    "behaviour {} is also one of {} ({}); ids are unique",
                    behaviour.id,
                    other.id,
                    other_path.display()
                ),
            ));
        }
        if rule.behaviours[..b].iter().any(|o| o.id == behaviour.id) {
            return Err(here(&format!("/behaviours/{b}/id"), format!("behaviour {} is listed twice", behaviour.id)));
        }
        for (s, selector) in behaviour.shown_by.iter().enumerate() {
            let pointer = format!("/behaviours/{b}/shown_by/{s}");
            if let Some(clause) = &selector.clause {
                if !ids.contains_key(clause) {
                    return Err(here(&pointer, format!("clause {clause} is not a clause of {}", rule.id)));
                }
            }
            let key = (selector.check, selector.clause.clone());
            if let Some(first) = selectors.insert(key, behaviour.id.clone()) {
                return Err(here(
                    &pointer,
                    format!(
                        "the check {}{} already shows {first}: a check shows one behaviour",
                        selector.check,
                        selector.clause.as_deref().map(|c| format!(" of a case citing {c}")).unwrap_or_default()
                    ),
                ));
            }
        }
    }
    Ok((rule, document))
}

fn load_case_file(
    catalog: &Catalog,
    path: &Path,
    text: &str,
    seen: &mut HashMap<String, Location>,
) -> Result<Vec<Case>, CorpusError> {
    let here = |position: Position, kind: CorpusErrorKind| error_at(path.to_path_buf(), position, kind);
    let parts: Vec<&str> = path.iter().filter_map(|p| p.to_str()).collect();
    let (rule, topic) = match parts.as_slice() {
        [rule, file] if catalog.rule(rule).is_some() && file.ends_with(".yaml") => {
            (catalog.rule(rule).expect("checked"), file.trim_end_matches(".yaml").to_string())
        }
        _ => return Err(here(Position { line: 1, column: 1 }, CorpusErrorKind::Placement(path.display().to_string()))),
    };
    if topic.is_empty() || topic.chars().any(|c| c.is_whitespace() || crate::json::inert::is_hidden(c)) {
        return Err(here(Position { line: 1, column: 1 }, CorpusErrorKind::TopicName(topic)));
    }
    let document = parse(path, text, &schemas().case, "schemas/case.schema.json")?;
    let parsed: CaseFile = read_narrowed(path, &document, &case_file_parts(&document))?;
    let rule_id = rule.id.clone();
    let mut cases = Vec::new();
    for (g, group) in parsed.groups.into_iter().enumerate() {
        let group_at = |suffix: &str| document.position(&format!("/groups/{g}{suffix}"));
        if let Some(schema) = &group.input_schema {
            lint_schema(schema).map_err(|why| here(group_at("/input_schema"), CorpusErrorKind::BadSchema(why)))?;
        }
        for (t, tool) in group.tools.iter().flatten().enumerate() {
            lint_schema(&tool.input_schema)
                .map_err(|why| here(group_at(&format!("/tools/{t}/input_schema")), CorpusErrorKind::BadSchema(why)))?;
        }
        for (c, raw) in group.cases.into_iter().enumerate() {
            let pointer = format!("/groups/{g}/cases/{c}");
            let at = |suffix: &str| document.position(&format!("{pointer}{suffix}"));
            let position = at("");
            let location = Location { file: path.to_path_buf(), line: position.line, column: position.column };
            let id = format!("{rule_id}/{topic}/{}", raw.name);
            if let Some(first) = seen.get(&id) {
                return Err(here(at("/name"), CorpusErrorKind::DuplicateId { id, first: first.clone() }));
            }
            if !rule.levels.contains(&raw.level) {
                let allowed: Vec<&str> = rule.levels.iter().map(|l| l.as_str()).collect();
                return Err(here(
                    at("/level"),
                    CorpusErrorKind::Level { level: raw.level, rule: rule_id.clone(), allowed: allowed.join(", ") },
                ));
            }
            for (i, clause) in raw.clauses.iter().enumerate() {
                if !matches!(catalog.clause(clause), Some((r, _)) if r.id == rule_id) {
                    return Err(here(
                        at(&format!("/clauses/{i}")),
                        CorpusErrorKind::UnknownClause { clause: clause.clone(), rule: rule_id.clone() },
                    ));
                }
            }
            for (i, needed) in raw.needs.iter().enumerate() {
                if catalog.rule(needed).is_none() || *needed == rule_id {
                    return Err(here(
                        at(&format!("/needs/{i}")),
                        CorpusErrorKind::UnknownNeed { need: needed.clone(), rule: rule_id.clone() },
                    ));
                }
            }
            let nothing = |suffix: &str, why: String| here(at(suffix), CorpusErrorKind::NothingToCheck(why));
            if let Some(schema) = raw.normalize.as_ref().and_then(|n| n.input_schema.as_ref()) {
                lint_schema(schema)
                    .map_err(|why| here(at("/normalize/input_schema"), CorpusErrorKind::BadSchema(why)))?;
            }
            for (kind, tools) in [
                ("invoke", raw.invoke.as_ref().and_then(|i| i.tools.as_ref())),
                ("describe", raw.describe.as_ref().and_then(|d| d.tools.as_ref())),
            ] {
                for (t, tool) in tools.into_iter().flatten().enumerate() {
                    lint_schema(&tool.input_schema).map_err(|why| {
                        here(at(&format!("/{kind}/tools/{t}/input_schema")), CorpusErrorKind::BadSchema(why))
                    })?;
                }
            }
            let check = if let Some(n) = raw.normalize {
                let input_schema = n.input_schema.or_else(|| group.input_schema.clone()).ok_or_else(|| {
                    nothing("/normalize", "a normalize case needs an input_schema, its own or its group's".into())
                })?;
                Check::Normalize { input_schema, arguments: n.arguments, expect: expectation(n.expected, n.behaviours) }
            } else if let Some(i) = raw.invoke {
                let tools = tools_for(i.tools, &group.tools, &i.tool).map_err(|why| nothing("/invoke", why))?;
                let transports = i.transports.unwrap_or_else(|| Transport::ALL.to_vec());
                Check::Invoke {
                    tools,
                    tool: i.tool,
                    arguments: i.arguments,
                    transports,
                    expect: expectation(i.expected, i.behaviours),
                }
            } else if let Some(d) = raw.describe {
                let tools = tools_for(d.tools, &group.tools, &d.tool).map_err(|why| nothing("/describe", why))?;
                Check::Describe { tools, tool: d.tool, views: d.views.unwrap_or_else(|| View::ALL.to_vec()) }
            } else {
                return Err(nothing("", "give one of normalize, invoke or describe".into()));
            };
            if raw.level != Level::Informational {
                lint_received(&check, raw.level)
                    .map_err(|why| here(at("/invoke/expected/received"), CorpusErrorKind::BadSchema(why)))?;
            }
            let shows = shown_behaviours(rule, &check, raw.level, &raw.clauses)
                .map_err(|why| here(at("/clauses"), CorpusErrorKind::NoBehaviour(why)))?;
            seen.insert(id.clone(), location.clone());
            cases.push(Case {
                id,
                rule: rule_id.clone(),
                clauses: raw.clauses,
                level: raw.level,
                summary: raw.summary,
                note: raw.note,
                needs: raw.needs,
                check,
                rejections: rule.rejections,
                location,
                shows,
            });
        }
    }
    Ok(cases)
}

/// The behaviour of `rule` each check of a required case shows (none for other levels, or for a
/// rule that lists no behaviours); `Err` naming a check that shows none.
fn shown_behaviours(
    rule: &Rule,
    check: &Check,
    level: Level,
    clauses: &[String],
) -> Result<BTreeMap<CheckKind, String>, String> {
    let mut shows = BTreeMap::new();
    if level != Level::Required || rule.behaviours.is_empty() {
        return Ok(shows);
    }
    let transports = match check {
        Check::Invoke { transports, .. } => transports.clone(),
        _ => Transport::ALL.to_vec(),
    };
    for kind in checks::planned(check, level, rule.rejections, &transports) {
        let behaviour = rule.behaviour_of(kind, clauses).ok_or_else(|| {
            format!(
                "the check {kind} of this required case shows no behaviour of {}: give it one in the \
                 shown_by of a behaviour in cases/{}/rule.yaml, or cite a clause one names",
                rule.id, rule.id
            )
        })?;
        shows.insert(kind, behaviour.id.clone());
    }
    Ok(shows)
}

/// The entries of a case file that serde reads apart when it refuses the whole file: each case's
/// check, each case, each tool, each group.
fn case_file_parts(document: &Document) -> Vec<Part> {
    use crate::case::file::{Describe, Group, Invoke, Normalize, RawCase};
    let mut parts: Vec<Part> = Vec::new();
    for group in items(document, "/groups") {
        for case in items(document, &format!("{group}/cases")) {
            for (key, read) in [
                ("normalize", reader::<Normalize> as fn(&_, &_, &_) -> _),
                ("invoke", reader::<Invoke>),
                ("describe", reader::<Describe>),
            ] {
                let pointer = format!("{case}/{key}");
                if document.value.pointer(&pointer).is_some() {
                    parts.push((pointer, read));
                }
            }
            parts.push((case, reader::<RawCase>));
        }
        for tool in items(document, &format!("{group}/tools")) {
            parts.push((tool, reader::<Tool>));
        }
        parts.push((group, reader::<Group>));
    }
    parts
}

/// A schema in a case must compile as JSON Schema (draft 2020-12), or the case is a bug.
fn lint_schema(schema: &Value) -> Result<(), String> {
    jsonschema::draft202012::new(&crate::json::to_serde(schema))
        .map(|_| ())
        .map_err(|e| format!("input_schema is not a usable JSON Schema: {e}"))
}

/// What an executed call hands its handler has passed PLAT-162's validation, so it must be valid
/// against the tool's schema: in a required case under every reading the text allows
/// (`judge::strictest`), in an interpretation case under the suite's own reading (the root
/// closed to the expected fields unless the schema declares additionalProperties). An expectation
/// that is not is a bug in the case.
fn lint_received(check: &Check, level: Level) -> Result<(), String> {
    let Check::Invoke { tools, tool, expect: Expect::One(InvokeExpectation::Executed { received }), .. } = check else {
        return Ok(());
    };
    let Some(schema) = tools.iter().find(|t| &t.name == tool).map(|t| &t.input_schema) else {
        return Ok(());
    };
    let (error, readings) = match level {
        Level::Required => {
            (crate::judge::strictest::strictest_error(schema, received)?, "under some reading the rule text allows")
        }
        _ => (validation_error(schema, received)?, "under the suite's reading"),
    };
    match error {
        None => Ok(()),
        Some(error) => Err(format!(
            "the expected received arguments break the tool's own schema {readings} ({error}), so an implementation \
             that takes it would reject them"
        )),
    }
}

/// The first error of `arguments` against `schema` with its root closed as the suite reads
/// PLAT-162 (to the expected fields), as `what at /pointer`.
fn validation_error(schema: &Value, arguments: &Value) -> Result<Option<String>, String> {
    crate::judge::strictest::first_error(&crate::case::closed_root(schema), arguments, false)
}

fn expectation<T>(expected: Option<T>, behaviours: Option<Vec<Behaviour<T>>>) -> Expect<T> {
    match (expected, behaviours) {
        (_, Some(behaviours)) => Expect::Behaviours(behaviours.into_iter().map(|b| (b.name, b.expected)).collect()),
        (Some(expected), None) => Expect::One(expected),
        // The schema requires one of the two; an empty list of behaviours cannot match anything.
        (None, None) => Expect::Behaviours(Vec::new()),
    }
}

fn tools_for(own: Option<Vec<Tool>>, group: &Option<Vec<Tool>>, tool: &str) -> Result<Vec<Tool>, String> {
    let tools = own.or_else(|| group.clone()).ok_or("the case needs tools, its own or its group's")?;
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    names.sort();
    if let Some(pair) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("tool {} is registered twice", pair[0]));
    }
    if !names.contains(&tool) {
        return Err(format!("tool {tool} is not among the registered tools ({})", names.join(", ")));
    }
    Ok(tools)
}

/// The most useful schema error: for anyOf/oneOf failures, the branch with the fewest errors is
/// followed down; otherwise the error deepest in the instance.
fn best_schema_error(schema: &jsonschema::Validator, value: &Value) -> Option<(String, String)> {
    let instance = crate::json::to_serde(value);
    let errors: Vec<jsonschema::ValidationError<'_>> = schema.iter_errors(&instance).collect();
    pick(&errors)
}

fn pick(errors: &[jsonschema::ValidationError<'_>]) -> Option<(String, String)> {
    use jsonschema::error::ValidationErrorKind as K;
    let depth = |e: &jsonschema::ValidationError<'_>| e.instance_path().as_str().matches('/').count();
    let deepest = errors.iter().map(depth).max()?;
    let candidates = errors.iter().filter(|e| depth(e) == deepest);
    // An unexpected field names the typo, so it goes first; otherwise the first error found.
    let best = candidates
        .clone()
        .find(|e| matches!(e.kind(), K::AdditionalProperties { .. }))
        .or_else(|| candidates.clone().next())?;
    let pointer = best.instance_path().as_str().to_string();
    match best.kind() {
        K::AdditionalProperties { unexpected } => {
            let mut at = pointer;
            if let Some(name) = unexpected.first() {
                crate::json::compare::push_token(&mut at, name);
            }
            Some((at, best.to_string()))
        }
        K::AnyOf { context } | K::OneOfNotValid { context } => {
            let branch = context.iter().filter(|b| !b.is_empty()).min_by_key(|b| b.len());
            match branch.and_then(|b| pick(b)) {
                Some((inner, message)) if inner.len() >= pointer.len() => Some((inner, message)),
                _ => Some((pointer, best.to_string())),
            }
        }
        _ => Some((pointer, best.to_string())),
    }
}
