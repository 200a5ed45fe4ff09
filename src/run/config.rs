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

/// Which cases to run: a case is selected when it matches every filter given.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    rules: Vec<String>,
    clauses: Vec<String>,
    patterns: Vec<String>,
    globs: Option<GlobSet>,
}

/// A selection that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SelectionError {
    /// A `--case` pattern is not a valid glob.
    #[error("--case {pattern}: {reason}")]
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
}

impl Selection {
    /// Every case.
    pub fn all() -> Selection {
        Selection::default()
    }

    /// Cases of any of `rules` (all when empty), citing any of `clauses` (all when empty), whose id
    /// matches any of the glob `patterns` (all when empty; `*` also matches `/`).
    pub fn new(rules: Vec<String>, clauses: Vec<String>, patterns: Vec<String>) -> Result<Selection, SelectionError> {
        let globs = if patterns.is_empty() {
            None
        } else {
            let mut builder = GlobSetBuilder::new();
            for pattern in &patterns {
                let glob = Glob::new(pattern).map_err(|e| SelectionError::BadPattern {
                    pattern: pattern.clone(),
                    reason: e.kind().to_string(),
                })?;
                builder.add(glob);
            }
            Some(
                builder
                    .build()
                    .map_err(|e| SelectionError::BadPattern { pattern: patterns.join(" "), reason: e.to_string() })?,
            )
        };
        Ok(Selection { rules, clauses, patterns, globs })
    }

    /// Checks that every rule and clause named exists in `corpus`.
    pub fn check_against(&self, corpus: &Corpus) -> Result<(), SelectionError> {
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
        }
    }
}

pub use crate::peer::spec::{CommandLine, ConfigError, HttpUrl, Limits, TargetSpec, parse_duration};

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
    }
}
