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

use crate::corpus::Corpus;
use crate::report::about::{ABOUT_FILE, About};
use crate::report::readme;
use crate::report::table::Published;
use crate::standing::digest::CorpusDigest;
use crate::standing::file::{CaseEntry, StandingFile};
use std::collections::HashMap;
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
    let suite_digest = CorpusDigest::of_whole(&corpus).digest;
    let entries = load(&config.standings, &corpus, &suite_digest)?;
    let files = pages::all(&corpus, &suite_digest, &entries);
    write_all(&config.out, &files)?;
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

/// Writes each file of the site under `out`, never through a symbolic link: `out` and every
/// folder met below it must be a folder itself (a link there is refused, not followed), and each
/// file is written to a new name and renamed into place, so a link at its path is replaced, never
/// written through.
fn write_all(out: &Path, files: &[(String, String)]) -> Result<(), SiteError> {
    let error = |path: &Path, message: String| SiteError { path: path.to_path_buf(), message };
    let refused = |path: &Path, what: &str| {
        error(path, format!("{what}, and the site is written through none: remove it, or choose another --out"))
    };
    match out.symlink_metadata() {
        Ok(m) if m.file_type().is_symlink() => return Err(refused(out, "--out is a symbolic link")),
        Ok(m) if !m.is_dir() => return Err(error(out, "--out is not a folder".into())),
        Ok(_) => {}
        Err(_) => std::fs::create_dir_all(out).map_err(|e| error(out, format!("cannot make this folder: {e}")))?,
    }
    let mut made = std::collections::HashSet::new();
    for (path, text) in files {
        let target = out.join(path);
        let mut folder = out.to_path_buf();
        for part in Path::new(path).parent().into_iter().flat_map(Path::components) {
            folder.push(part);
            if !made.insert(folder.clone()) {
                continue;
            }
            match folder.symlink_metadata() {
                Ok(m) if m.is_dir() => {}
                Ok(m) if m.file_type().is_symlink() => return Err(refused(&folder, "this is a symbolic link")),
                Ok(_) => return Err(error(&folder, "this is not a folder".into())),
                Err(_) => {
                    std::fs::create_dir(&folder).map_err(|e| error(&folder, format!("cannot make this folder: {e}")))?
                }
            }
        }
        crate::report::write_atomically(&target, text).map_err(|e| error(&target, format!("cannot write: {e}")))?;
    }
    Ok(())
}

fn load(dir: &Path, corpus: &Corpus, suite_digest: &str) -> Result<Vec<Entry>, SiteError> {
    let published = crate::report::table::load_all(dir)
        .map_err(|e| SiteError { path: e.path.clone(), message: e.message.clone() })?;
    let mut entries = Vec::with_capacity(published.len());
    for published in published {
        let folder = dir.join(&published.folder);
        // A submission carries its about.yaml; the repository's own rows have theirs in their
        // adapter's folder.
        let (adapter_dir, link) = if crate::json::file::exists(&folder.join(ABOUT_FILE)) {
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
        assert_eq!(CorpusDigest::of_whole(&corpus), CorpusDigest::of_run(&corpus, &ran.outcomes));
    }
}
