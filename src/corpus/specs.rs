//! The rule texts built into the suite (`specs/<RULE>.txt`) and the map of clause ids onto them
//! (`specs/clauses.json`): the sentences behind a clause, as `tool-conformance show` and the
//! standings site quote them.

/// The clause map, and the rule texts it points into, as built into the binary.
const CLAUSES: &str = include_str!("../../specs/clauses.json");
const TEXTS: &[(&str, &str)] = &[
    ("RT-TOOL-8.txt", include_str!("../../specs/RT-TOOL-8.txt")),
    ("PLAT-162.txt", include_str!("../../specs/PLAT-162.txt")),
];

/// The sentences of the rule texts that carry `clause`, each with the file it is from.
pub fn clause_sentences(clause: &str) -> Option<(String, Vec<String>)> {
    let map: crate::json::Value = crate::json::from_str(CLAUSES).ok()?;
    let entry = map["clauses"].as_array()?.iter().find(|e| e["clause"].as_str() == Some(clause))?;
    let file = entry["text"].as_str()?;
    let (_, text) = TEXTS.iter().find(|(name, _)| *name == file)?;
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
