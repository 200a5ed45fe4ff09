//! The rule texts built into the suite (`specs/<RULE>.txt`) and the map of clause ids onto them
//! (`specs/clauses.json`): the sentences behind a clause, as `tool-conformance show` and the
//! standings site quote them.

/// The clause map, as built into the binary.
const CLAUSES: &str = include_str!("../../specs/clauses.json");

/// The rule texts, every `specs/*.txt` as built into the binary (by `build.rs`, as the corpus is).
mod texts {
    include!(concat!(env!("OUT_DIR"), "/specs.rs"));
}

/// The clause map, parsed once.
fn clause_map() -> Option<&'static crate::json::Value> {
    static MAP: std::sync::OnceLock<Option<crate::json::Value>> = std::sync::OnceLock::new();
    MAP.get_or_init(|| crate::json::from_str(CLAUSES).ok()).as_ref()
}

/// The sentences of the rule texts that carry `clause`, each with the file it is from.
pub fn clause_sentences(clause: &str) -> Option<(String, Vec<String>)> {
    let map = clause_map()?;
    let entry = map["clauses"].as_array()?.iter().find(|e| e["clause"].as_str() == Some(clause))?;
    let file = entry["text"].as_str()?;
    let (_, text) = texts::FILES.iter().find(|(name, _)| *name == file)?;
    let sentences = entry["passages"]
        .as_array()?
        .iter()
        .filter_map(|p| p.as_str())
        .filter_map(|passage| sentence_around(text, passage))
        .collect::<Vec<_>>();
    (!sentences.is_empty()).then(|| (format!("specs/{file}"), sentences))
}

/// The sentence of `text` that holds `passage`: from the sentence end before it (or the start of
/// its line) to the sentence end after it (or the end of its line).
fn sentence_around(text: &str, passage: &str) -> Option<String> {
    let at = text.find(passage)?;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let start = text[line_start..at].rfind(". ").map_or(line_start, |i| line_start + i + 2);
    let after = at + passage.len();
    let line_end = text[after..].find('\n').map_or(text.len(), |i| after + i);
    let end = if passage.ends_with('.') {
        after
    } else {
        text[after..line_end].find(". ").map_or(line_end, |i| after + i + 1)
    };
    Some(text[start..end].trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_text_in_specs_is_built_in_as_it_is_on_disk() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
        let mut on_disk: Vec<(String, String)> = std::fs::read_dir(&dir)
            .expect("read specs/")
            .map(|entry| entry.expect("an entry of specs/").path())
            .filter(|path| path.extension().is_some_and(|e| e == "txt"))
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&path).expect("read a rule text"))
            })
            .collect();
        on_disk.sort();
        let built_in: Vec<(String, String)> =
            texts::FILES.iter().map(|(name, text)| (name.to_string(), text.to_string())).collect();
        assert!(!built_in.is_empty());
        assert_eq!(built_in, on_disk);
    }

    #[test]
    fn every_text_the_clause_map_names_is_built_in() {
        let map = clause_map().expect("specs/clauses.json parses");
        let clauses = map["clauses"].as_array().expect("a clauses array");
        assert!(!clauses.is_empty());
        for entry in clauses {
            let file = entry["text"].as_str().expect("a text");
            assert!(texts::FILES.iter().any(|(name, _)| *name == file), "{file} is not built in");
        }
    }
}
