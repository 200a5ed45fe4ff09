//! The digest of the case files that ran, pinned in every report so that two standings can be
//! told apart by their corpus as well as by their suite version.
//!
//! The files are the rule catalog (every rule file, `<RULE>/rule.yaml`) and every file that holds
//! at least one case of the run, each named by its path relative to the corpus root (with `/`
//! separators). Each file's SHA-256 is taken over its bytes; the corpus digest is the SHA-256 of
//! the listing `sha256sum` prints for those files in byte order of their paths (one
//! `<hex>  <path>\n` line per file). So, from the corpus root,
//! `sha256sum PLAT-162/a.yaml PLAT-162/rule.yaml RT-TOOL-8/b.yaml RT-TOOL-8/rule.yaml | sha256sum`
//! (the paths sorted) gives the same hex digits.

use crate::corpus::{Corpus, is_rule_file};
use crate::judge::outcome::Outcome;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// The digest of the case files a run read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusDigest {
    /// `sha256:` and the hex SHA-256 of the files' `sha256sum` listing.
    pub digest: String,
    /// Every file that ran, in byte order of its path.
    pub files: Vec<FileDigest>,
}

/// One file's digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    /// The path relative to the corpus root, with `/` separators.
    pub path: String,
    /// The hex SHA-256 of the file's bytes.
    pub sha256: String,
}

impl CorpusDigest {
    /// The digest of the rule files and of every file of `corpus` holding a case among `outcomes`.
    pub fn of_run(corpus: &Corpus, outcomes: &[Outcome]) -> CorpusDigest {
        let ran: BTreeSet<&str> = outcomes.iter().map(|o| o.id.as_str()).collect();
        let files_of_cases: BTreeSet<&Path> =
            corpus.cases.iter().filter(|c| ran.contains(c.id.as_str())).map(|c| c.location.file.as_path()).collect();
        let files =
            corpus.files.iter().filter(|(path, _)| is_rule_file(path) || files_of_cases.contains(path.as_path()));
        CorpusDigest::of_files(files.map(|(path, text)| (slashed(path), text.as_bytes())))
    }

    /// The digest of (path, contents) pairs, in any order.
    pub fn of_files<'a>(files: impl IntoIterator<Item = (String, &'a [u8])>) -> CorpusDigest {
        let mut files: Vec<FileDigest> =
            files.into_iter().map(|(path, bytes)| FileDigest { path, sha256: hex(&Sha256::digest(bytes)) }).collect();
        files.sort_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
        files.dedup();
        let mut listing = String::new();
        for file in &files {
            let _ = writeln!(listing, "{}  {}", file.sha256, file.path);
        }
        CorpusDigest { digest: format!("sha256:{}", hex(&Sha256::digest(listing.as_bytes()))), files }
    }
}

fn slashed(path: &Path) -> String {
    path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_that_of_the_sha256sum_listing() {
        let digest = CorpusDigest::of_files([("b.yaml".to_string(), &b"b\n"[..]), ("a.yaml".to_string(), &b""[..])]);
        assert_eq!(digest.files[0].path, "a.yaml");
        assert_eq!(digest.files[0].sha256, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        let listing = format!("{}  a.yaml\n{}  b.yaml\n", digest.files[0].sha256, digest.files[1].sha256);
        assert_eq!(digest.digest, format!("sha256:{}", hex(&Sha256::digest(listing.as_bytes()))));
    }

    #[test]
    fn only_the_rule_files_and_the_files_of_cases_that_ran_count() {
        let corpus = Corpus::embedded().expect("the corpus loads");
        let none = CorpusDigest::of_run(&corpus, &[]);
        let rule_files: Vec<String> = corpus.catalog.rules.iter().map(|r| format!("{}/rule.yaml", r.id)).collect();
        let mut listed: Vec<String> = none.files.iter().map(|f| f.path.clone()).collect();
        listed.sort();
        let mut expected = rule_files.clone();
        expected.sort();
        assert_eq!(listed, expected);
        let case = &corpus.cases[0];
        let one = CorpusDigest::of_run(&corpus, &[Outcome::new(case, crate::Status::Pass)]);
        assert_eq!(one.files.len(), rule_files.len() + 1);
        assert!(one.files.iter().any(|f| Path::new(&f.path) == case.location.file));
        assert_ne!(none.digest, one.digest);
    }
}
