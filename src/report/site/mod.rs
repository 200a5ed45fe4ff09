//! The standings site (`tool-conformance site DIR --out OUT`): every standing published in `DIR`
//! as static pages that anyone can browse from a file or any static host, with no server and no
//! script. An index sets the implementations side by side per rule and clause (verdict, counts,
//! package, version, API path) and lists every case; a page per implementation renders its
//! README (the Markdown of [`crate::report::readme`], raw HTML in it dropped, links taken out);
//! a page per case, at `case/<RULE>/<topic>/<name>.html`, gives the rule sentences behind its
//! clauses, what is sent, what the text forces, and every implementation's answer, grouped by
//! answer. One small style sheet is shared by every page.
//!
//! It reads what the table and the READMEs read: each `DIR/<name>/standing.json` (in the order
//! of [`crate::report::table::load_all`]), its `timing.json`, and the `about.yaml` of the folder
//! itself (a submission) or else of `examples/adapters/<name>` beside `DIR` (the repository's
//! own adapters). A standing whose corpus digest is not the digest of this suite's corpus is
//! never compared side by side: the index lists it apart, marked, and the case pages leave it
//! out and say so.
//!
//! Every string from a standing, an about.yaml or a case is escaped for its context
//! (`page.rs`); the pages carry a Content Security Policy that forbids scripts, a second wall
//! behind the escaping. The same inputs give the same bytes.

mod page;
mod pages;

use crate::corpus::{Corpus, is_rule_file};
use crate::report::about::{ABOUT_FILE, About};
use crate::report::readme;
use crate::report::table::Published;
use crate::standing::digest::CorpusDigest;
use crate::standing::file::{CaseEntry, StandingFile};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// What `site` builds: the folder of published standings it reads, and the folder it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteConfig {
    /// The folder of published standings (`reports`): every `<name>/standing.json` in it.
    pub standings: PathBuf,
    /// The folder the site is written to, created when missing.
    pub out: PathBuf,
}

/// A site that cannot be built: a standing or an about.yaml that cannot be read, or a file that
/// cannot be written.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct SiteError {
    /// The file or folder.
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

/// One published standing, with all a page shows of it.
struct Entry {
    /// Its folder's name.
    folder: String,
    published: Published,
    file: StandingFile,
    about: Option<About>,
    /// Its README, as Markdown.
    readme: String,
    /// Whether it ran this suite's corpus.
    same_corpus: bool,
    /// Case id to its index in `file.cases`.
    by_id: HashMap<String, usize>,
}

impl Entry {
    fn case(&self, id: &str) -> Option<&CaseEntry> {
        self.by_id.get(id).map(|&i| &self.file.cases[i])
    }
}

/// Builds the site of `config.standings` into `config.out`, and says what it wrote (the pages,
/// and each standing that ran another corpus and so is shown apart).
pub fn build(config: &SiteConfig) -> Result<String, SiteError> {
    let corpus = Corpus::embedded().map_err(|e| SiteError { path: "corpus".into(), message: e.to_string() })?;
    let suite_digest = whole_digest(&corpus).digest;
    let entries = load(&config.standings, &corpus, &suite_digest)?;
    let files = pages::all(&corpus, &suite_digest, &entries);
    for (path, text) in &files {
        let target = config.out.join(path);
        let write = || -> std::io::Result<()> {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&target, text)
        };
        write().map_err(|e| SiteError { path: target.clone(), message: format!("cannot write: {e}") })?;
    }
    let mut said = format!(
        "wrote {} files ({} standings, {} cases) to {}",
        files.len(),
        entries.len(),
        corpus.cases.len(),
        config.out.display()
    );
    for entry in entries.iter().filter(|e| !e.same_corpus) {
        said.push_str(&format!(
            "\n{}: ran the corpus {}, not this suite's {}: listed apart, not compared side by side",
            entry.folder, entry.published.corpus_digest, suite_digest
        ));
    }
    Ok(said)
}

/// The digest a whole run of `corpus` pins: its rule files and every file holding a case.
pub(crate) fn whole_digest(corpus: &Corpus) -> CorpusDigest {
    let with_cases: BTreeSet<&Path> = corpus.cases.iter().map(|c| c.location.file.as_path()).collect();
    let files = corpus.files.iter().filter(|(path, _)| is_rule_file(path) || with_cases.contains(path.as_path()));
    CorpusDigest::of_files(files.map(|(path, text)| {
        let slashed = path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        (slashed, text.as_bytes())
    }))
}

fn load(dir: &Path, corpus: &Corpus, suite_digest: &str) -> Result<Vec<Entry>, SiteError> {
    let published = crate::report::table::load_all(dir)
        .map_err(|e| SiteError { path: e.path.clone(), message: e.message.clone() })?;
    let mut entries = Vec::with_capacity(published.len());
    for published in published {
        let folder = dir.join(&published.folder);
        // A submission carries its about.yaml; the repository's own rows have theirs in their
        // adapter's folder.
        let (adapter_dir, link) = if folder.join(ABOUT_FILE).is_file() {
            (folder.clone(), published.folder.clone())
        } else {
            readme::adapter_of(&folder)
        };
        let inputs = readme::Inputs::load(&folder, &adapter_dir, &link)
            .map_err(|e| SiteError { path: folder.clone(), message: format!("cannot read this standing: {e}") })?;
        let markdown = readme::render(&inputs, corpus);
        let by_id = inputs.standing.cases.iter().enumerate().map(|(i, c)| (c.id.clone(), i)).collect();
        entries.push(Entry {
            folder: published.folder.clone(),
            same_corpus: published.corpus_digest == suite_digest,
            about: inputs.adapter.map(|a| a.about),
            file: inputs.standing,
            readme: markdown,
            published,
            by_id,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_digest_is_the_digest_a_whole_run_pins() {
        let corpus = Corpus::embedded().unwrap();
        let ran = crate::run::run(&corpus, &crate::run::config::Selection::all(), &mut crate::Reference::new());
        assert_eq!(whole_digest(&corpus), CorpusDigest::of_run(&corpus, &ran.outcomes));
    }
}
