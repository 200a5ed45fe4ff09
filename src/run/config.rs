//! What a run is asked to do, as a validated value: the corpus to load, the cases to select and
//! where to write reports. The binary's command line parses into this; the library never sees
//! command-line syntax.

use crate::case::Case;
use crate::corpus::Corpus;
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::path::PathBuf;

/// Where the corpus comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorpusSource {
    /// The corpus embedded in the binary at build time.
    Embedded,
    /// A corpus directory (a working copy, or an extension).
    Directory(PathBuf),
    /// A corpus (the embedded one, or a directory) with the case files of more directories added
    /// ([`Corpus::with_added`]).
    Added {
        /// The corpus added to.
        base: Box<CorpusSource>,
        /// The directories whose files are added, in order.
        added: Vec<PathBuf>,
    },
}

impl CorpusSource {
    /// Loads the corpus.
    pub fn load(&self) -> Result<Corpus, crate::corpus::CorpusErrors> {
        match self {
            CorpusSource::Embedded => Corpus::embedded(),
            CorpusSource::Directory(dir) => Corpus::from_dir(dir),
            CorpusSource::Added { base, added } => {
                added.iter().try_fold(base.load()?, |corpus, dir| corpus.with_added(dir))
            }
        }
    }
}

/// Which cases to run: a case is selected when it matches every filter given, and no `--skip`.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    rules: Vec<String>,
    clauses: Vec<String>,
    patterns: Vec<String>,
    globs: Option<GlobSet>,
    skip_patterns: Vec<String>,
    skips: Option<GlobSet>,
}

/// A selection that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SelectionError {
    /// A `--case` or `--skip` pattern is not a valid glob.
    #[error("{pattern}: {reason}")]
    BadPattern {
        /// The pattern.
        pattern: String,
        /// Why it is invalid.
        reason: String,
    },
    /// A `--rule` the catalog does not have.
    #[error("--rule {0}: no such rule in the corpus (known: {1})")]
    UnknownRule(String, String),
    /// A `--clause` the catalog does not have.
    #[error("--clause {0}: no such clause in the corpus")]
    UnknownClause(String),
    /// A `--case` or `--skip` pattern that matches no case id of the corpus (a typo would
    /// otherwise select nothing, or skip nothing, and pass).
    #[error("{option} {pattern}: matches no case in the corpus{hint}; `tool-conformance list` lists them")]
    NoMatch {
        /// `--case` or `--skip`.
        option: &'static str,
        /// The pattern.
        pattern: String,
        /// " (did you mean A, B?)", or nothing when no id is near.
        hint: String,
    },
}

/// Compiles glob `patterns` (`*` also matches `/`) into one set, or `None` when there are none.
fn glob_set(option: &'static str, patterns: &[String]) -> Result<Option<GlobSet>, SelectionError> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let glob = Glob::new(pattern).map_err(|e| SelectionError::BadPattern {
            pattern: format!("{option} {pattern}"),
            reason: e.kind().to_string(),
        })?;
        builder.add(glob);
    }
    builder.build().map(Some).map_err(|e| SelectionError::BadPattern {
        pattern: format!("{option} {}", patterns.join(" ")),
        reason: e.to_string(),
    })
}

/// The case ids nearest to `pattern` (its literal text, by edit distance, or containing its last
/// literal part), at most three, as a " (did you mean …?)" hint.
pub fn did_you_mean<'a>(pattern: &str, ids: impl Iterator<Item = &'a str>) -> String {
    let literal: String = pattern.chars().filter(|c| !matches!(c, '*' | '?' | '[' | ']' | '{' | '}')).collect();
    let tail = pattern.rsplit(['/', '*', '?']).find(|part| part.len() >= 3).unwrap_or("");
    let mut near: Vec<(usize, &str)> = ids
        .filter_map(|id| {
            let distance = edit_distance(&literal, id);
            let close = distance <= literal.chars().count().max(4) / 4 || (!tail.is_empty() && id.contains(tail));
            close.then_some((distance, id))
        })
        .collect();
    near.sort();
    let near: Vec<&str> = near.into_iter().take(3).map(|(_, id)| id).collect();
    if near.is_empty() { String::new() } else { format!(" (did you mean {}?)", near.join(", ")) }
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

impl Selection {
    /// Every case.
    pub fn all() -> Selection {
        Selection::default()
    }

    /// Cases of any of `rules` (all when empty), citing any of `clauses` (all when empty), whose id
    /// matches any of the glob `patterns` (all when empty; `*` also matches `/`).
    pub fn new(rules: Vec<String>, clauses: Vec<String>, patterns: Vec<String>) -> Result<Selection, SelectionError> {
        let globs = glob_set("--case", &patterns)?;
        Ok(Selection { rules, clauses, patterns, globs, ..Selection::default() })
    }

    /// The same selection without the cases whose id matches any of the glob `patterns`
    /// (`--skip`, repeatable; `*` also matches `/`).
    pub fn skipping(self, patterns: Vec<String>) -> Result<Selection, SelectionError> {
        let skips = glob_set("--skip", &patterns)?;
        Ok(Selection { skip_patterns: patterns, skips, ..self })
    }

    /// Checks that every rule and clause named exists in `corpus`, and that every `--case` and
    /// `--skip` pattern matches some case id of it.
    pub fn check_against(&self, corpus: &Corpus) -> Result<(), SelectionError> {
        for (option, patterns, set) in
            [("--case", &self.patterns, &self.globs), ("--skip", &self.skip_patterns, &self.skips)]
        {
            let Some(set) = set else { continue };
            let mut matched = vec![false; patterns.len()];
            for case in &corpus.cases {
                for i in set.matches(&case.id) {
                    matched[i] = true;
                }
            }
            if let Some(i) = matched.iter().position(|m| !m) {
                let ids = corpus.cases.iter().map(|c| c.id.as_str());
                return Err(SelectionError::NoMatch {
                    option,
                    pattern: patterns[i].clone(),
                    hint: did_you_mean(&patterns[i], ids),
                });
            }
        }
        for rule in &self.rules {
            if corpus.catalog.rule(rule).is_none() {
                let known: Vec<&str> = corpus.catalog.rules.iter().map(|r| r.id.as_str()).collect();
                return Err(SelectionError::UnknownRule(rule.clone(), known.join(", ")));
            }
        }
        for clause in &self.clauses {
            if corpus.catalog.clause(clause).is_none() {
                return Err(SelectionError::UnknownClause(clause.clone()));
            }
        }
        Ok(())
    }

    /// Whether `case` is selected.
    pub fn matches(&self, case: &Case) -> bool {
        (self.rules.is_empty() || self.rules.contains(&case.rule))
            && (self.clauses.is_empty() || case.clauses.iter().any(|c| self.clauses.contains(c)))
            && self.globs.as_ref().is_none_or(|g| g.is_match(&case.id))
            && !self.skips.as_ref().is_some_and(|g| g.is_match(&case.id))
    }

    /// The `--case` patterns, as given.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }
}

/// A validated run request.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The corpus to load.
    pub corpus: CorpusSource,
    /// The cases to run.
    pub selection: Selection,
    /// Where to write standing.json and standing.md, if anywhere.
    pub report_dir: Option<PathBuf>,
    /// The implementation to test.
    pub target: TargetSpec,
    /// How many instances of it run at once (over HTTP, one per URL; see
    /// [`TargetSpec::instances`]).
    pub jobs: usize,
    /// Timeouts, restarts and caps for an implementation reached over the protocol.
    pub limits: Limits,
    /// Check every message against `schemas/protocol.schema.json` (`--validate-protocol`).
    pub validate_protocol: bool,
    /// Keep every exchange, to print them (`--transcript`).
    pub transcript: bool,
    /// What an MCP route is told beyond the route: headers, tool names, the upstream's address,
    /// the wait for a gateway still starting.
    pub mcp: McpOptions,
    /// What the reports call the implementation, whatever it calls itself (`--name`, `--version`).
    pub identity: Identity,
    /// Over MCP, what the implementation's HTTP errors contain to point callers back to
    /// get_api_spec, in place of the tool's name (`--get-api-spec`); a protocol-v1
    /// implementation says it in its start answer instead.
    pub spec_pointer: Option<String>,
}

/// The name and version a report gives the implementation instead of its own answer (one that is
/// missing, borrowed from what it forwards to, or random from run to run). The report keeps what it
/// answered beside them ([`Implementation::answered`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Identity {
    /// Its name (`--name`).
    pub name: Option<String>,
    /// Its version (`--version`).
    pub version: Option<String>,
}

impl Identity {
    /// `implementation` named as this identity says; unchanged when it says nothing. What the
    /// implementation answered is kept in [`Implementation::answered`] when it differs.
    pub fn apply(&self, mut implementation: Implementation) -> Implementation {
        if self.name.is_none() && self.version.is_none() {
            return implementation;
        }
        let answered = Answered { name: implementation.name.clone(), version: implementation.version.clone() };
        if let Some(name) = &self.name {
            implementation.name = name.clone();
        }
        if let Some(version) = &self.version {
            implementation.version = version.clone();
        }
        if answered.name != implementation.name || answered.version != implementation.version {
            implementation.answered.get_or_insert(answered);
        }
        implementation
    }
}

impl Default for RunConfig {
    /// The whole built-in corpus against the built-in reference, in one instance, writing no report.
    fn default() -> RunConfig {
        RunConfig {
            corpus: CorpusSource::Embedded,
            selection: Selection::all(),
            report_dir: None,
            target: TargetSpec::Reference,
            jobs: 1,
            limits: Limits::default(),
            validate_protocol: false,
            transcript: false,
            mcp: McpOptions::default(),
            identity: Identity::default(),
            spec_pointer: None,
        }
    }
}

pub use crate::peer::spec::{
    BridgePaths, CommandLine, ConfigError, Header, HttpUrl, Limits, McpOptions, TargetSpec, ToolNameTemplate,
    parse_duration,
};
use crate::peer::{Answered, Implementation};

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn command_lines_split_as_a_shell_splits_them() {
        let line = CommandLine::parse(r#"python3 "my adapter.py" --name 'a b' c\ d"#).unwrap();
        assert_eq!(line.program(), "python3");
        assert_eq!(line.args(), ["my adapter.py", "--name", "a b", "c d"]);
        assert!(CommandLine::parse("  ").is_err());
        assert!(CommandLine::parse("python3 'open").is_err());
        let line = CommandLine::parse("echo $HOME *.py").unwrap();
        assert_eq!(line.args(), ["$HOME", "*.py"]);
    }

    #[test]
    fn headers_are_checked_and_never_shown() {
        let env = |variable: &str| (variable == "TOKEN").then(|| "Bearer s3cret".to_string());
        let header = Header::parse("Authorization: env:TOKEN", env).unwrap();
        assert_eq!((header.name(), header.value()), ("Authorization", "Bearer s3cret"));
        assert_eq!(format!("{header:?}"), "Header(Authorization: [hidden])");
        assert_eq!(Header::parse("X-Key:  abc ", env).unwrap().value(), "abc");
        let error = |text: &str| Header::parse(text, env).unwrap_err().to_string();
        assert_eq!(
            error("Authorization: env:NOPE"),
            "--mcp-header Authorization: the environment variable NOPE is not set"
        );
        assert!(error("X-Key: a\rb").starts_with("--mcp-header X-Key: the value holds a line break"));
        assert!(error("X-Key: a\u{1}b").starts_with("--mcp-header X-Key: the value holds a control character"));
        assert!(error("Bad Name: v").contains("not an HTTP header name"));
        assert!(error("Accept: */*").contains("the harness sets this header itself"));
        assert!(error("no colon s3cret").starts_with("--mcp-header (no name)"));
        let newline = Header::new("X-Key", "s3cret\nX: y").unwrap_err().to_string();
        assert!(!newline.contains("s3cret"), "{newline}");
    }

    #[test]
    fn tool_name_templates_hold_name_once() {
        assert_eq!(ToolNameTemplate::parse("up_{name}").unwrap().apply("t"), "up_t");
        assert_eq!(ToolNameTemplate::parse("{name}@upstream").unwrap().apply("a{name}"), "a{name}@upstream");
        assert_eq!(ToolNameTemplate::parse("up").unwrap_err(), ConfigError::BadToolName("up".into(), 0));
        assert!(ToolNameTemplate::parse("{name}{name}").is_err());
    }

    #[test]
    fn mcp_options_go_with_their_routes() {
        use crate::peer::spec::McpRoute;
        let url = HttpUrl::parse("http://127.0.0.1:9/mcp").unwrap();
        let gateway = McpRoute::GatewayUrl { url: url.clone(), record: None };
        let by_hand = McpRoute::GatewayUrl { url, record: Some("r".into()) };
        let stdio = McpRoute::Gateway(CommandLine::parse("gw").unwrap());
        let listen =
            |address: &str| McpOptions { upstream_listen: Some(address.parse().unwrap()), ..McpOptions::default() };
        assert_eq!(listen("127.0.0.1:9100").check(&gateway), Ok(()));
        assert_eq!(listen("[::1]:9100").check(&gateway), Ok(()));
        assert_eq!(listen("10.0.0.1:9100").check(&gateway), Err(ConfigError::NotLoopback("10.0.0.1:9100".into())));
        assert!(listen("127.0.0.1:9100").check(&by_hand).is_err());
        assert!(listen("127.0.0.1:9100").check(&stdio).is_err());
        let header = McpOptions { headers: vec![Header::new("A", "b").unwrap()], ..McpOptions::default() };
        assert_eq!((header.check(&by_hand), header.check(&stdio).is_err()), (Ok(()), true));
        let wait = McpOptions { wait: Some(Duration::from_secs(1)), ..McpOptions::default() };
        assert!(wait.check(&stdio).is_err() && wait.check(&gateway).is_ok());
    }

    #[test]
    fn an_identity_names_the_implementation_and_keeps_its_answer() {
        let answered = Implementation { name: "FastMCPProxy-1ab8".into(), ..Implementation::not_started() };
        assert_eq!(Identity::default().apply(answered.clone()), answered);
        let named = Identity { name: Some("proxy".into()), version: Some("2".into()) }.apply(answered);
        assert_eq!((named.name.as_str(), named.version.as_str()), ("proxy", "2"));
        assert_eq!(named.answered, Some(Answered { name: "FastMCPProxy-1ab8".into(), version: String::new() }));
        let same = Identity { name: Some("proxy".into()), version: None }.apply(named.clone());
        assert_eq!(same.answered, named.answered, "the first answer is kept");
    }

    #[test]
    fn near_ids_are_suggested_for_a_typo() {
        let ids = ["RT-TOOL-8/examples/doubly-escaped-title", "RT-TOOL-8/examples/other", "PLAT-162/x/y"];
        let hint = did_you_mean("RT-TOOL-8/exmples/doubly-escaped-title", ids.into_iter());
        assert_eq!(hint, " (did you mean RT-TOOL-8/examples/doubly-escaped-title?)");
        assert_eq!(did_you_mean("*escaped-titel*", ids.into_iter()), "");
        assert!(did_you_mean("*doubly-escaped*", ids.into_iter()).contains("doubly-escaped-title"));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn urls_and_durations_and_jobs() {
        assert!(HttpUrl::parse("http://127.0.0.1:8080/").is_ok());
        assert!(HttpUrl::parse("https://127.0.0.1:8080/").is_err());
        assert!(HttpUrl::parse("127.0.0.1:8080").is_err());
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2.5s"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert!(parse_duration("0").is_err());
        assert!(parse_duration("soon").is_err());
        let http = TargetSpec::Http(vec![HttpUrl::parse("http://a/").unwrap(), HttpUrl::parse("http://b/").unwrap()]);
        assert_eq!(http.instances(None), Ok(2));
        assert!(http.instances(Some(3)).is_err());
        assert_eq!(TargetSpec::Reference.instances(Some(4)), Ok(4));
        assert_eq!(TargetSpec::Reference.instances(Some(0)), Err(ConfigError::NoJobs));
        let mcp = TargetSpec::Mcp(crate::peer::spec::McpRoute::Server(CommandLine::parse("server").unwrap()));
        assert_eq!((mcp.instances(None), mcp.instances(Some(1))), (Ok(1), Ok(1)));
        assert_eq!(mcp.instances(Some(2)), Err(ConfigError::McpJobs("--mcp-server")));
        assert_eq!(mcp.count(8), 1, "one server, one record");
    }
}
