//! RT-TOOL-8.4 and 8.5 on one string: HTML character references decoded to a fixpoint.
//!
//! One decoding pass is htmlize's WHATWG decoder for text content (the whole named-reference
//! table, legacy names without a semicolon, decimal and hex references with the numeric
//! replacement rules). Passes repeat until the text stops changing, so a doubly escaped value
//! resolves fully; the rule lets an implementation bound the passes, and this one stops after
//! [`MAX_PASSES`]. Text with no reference in it comes back unchanged (and unallocated).
//!
//! [`decode`] gives exactly the text of those repeated passes without redoing them over the whole
//! string. Whether a pass decodes a reference at an `&` depends only on the bytes from that `&` to
//! the end of its name or digits (and the one byte after), none of which is another `&`; so a pass
//! can only change what the previous pass wrote or what an `&` just before it reads. Each later
//! pass looks only at those `&`s, and applies its replacements in place, moving only the text to
//! the left of the last one. `tests/it/decode_equivalence.rs` checks the result against repeated
//! [`decode_once`] on the html5lib data, every string of the corpus and generated nestings.

use std::borrow::Cow;

use htmlize::{BARE_ENTITY_MAX_LENGTH, ENTITIES, ENTITY_MAX_LENGTH, ENTITY_MIN_LENGTH};

/// The most decoding passes run on one string.
pub const MAX_PASSES: usize = 32;

/// One decoding pass: every character reference in `text` decoded once, by the WHATWG rules for
/// text content.
pub fn decode_once(text: &str) -> Cow<'_, str> {
    htmlize::unescape(text)
}

/// Decodes character references in `text`, pass after pass, until nothing changes or
/// [`MAX_PASSES`] passes have run.
pub fn decode(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let first: Vec<usize> = text.match_indices('&').map(|(at, _)| at).collect();
    let found = references(bytes, &first);
    if found.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut text = Text { bytes: bytes.to_vec(), start: 0 };
    let mut changed = text.apply(&found);
    for _ in 1..MAX_PASSES {
        let candidates = text.candidates(&changed);
        let found = references(&text.bytes, &candidates);
        if found.is_empty() {
            break;
        }
        changed = text.apply(&found);
    }
    Cow::Owned(text.into_string())
}

/// A reference one pass decodes: where its `&` is, how many bytes it spans, what it becomes.
struct Found {
    at: usize,
    len: usize,
    expansion: Cow<'static, [u8]>,
}

/// The references a pass decodes at the given `&` positions (ascending) of `bytes`.
fn references(bytes: &[u8], ampersands: &[usize]) -> Vec<Found> {
    ampersands
        .iter()
        .filter_map(|&at| reference_at(&bytes[at..]).map(|(len, expansion)| Found { at, len, expansion }))
        .collect()
}

/// The reference at the start of `s` (which starts with `&`), as htmlize's text-content decoder
/// matches it: its length and its expansion.
fn reference_at(s: &[u8]) -> Option<(usize, Cow<'static, [u8]>)> {
    if s.get(1) == Some(&b'#') {
        return numeric_reference_at(s);
    }
    let mut end = 1;
    for _ in 1..ENTITY_MAX_LENGTH {
        match s.get(end) {
            Some(c) if c.is_ascii_alphanumeric() => end += 1,
            _ => break,
        }
    }
    let has_semicolon = s.get(end) == Some(&b';');
    if has_semicolon {
        end += 1;
    }
    let candidate = &s[..end];
    if candidate.len() < ENTITY_MIN_LENGTH {
        return None;
    }
    if has_semicolon {
        if let Some(expansion) = ENTITIES.get(candidate) {
            return Some((candidate.len(), Cow::Borrowed(*expansion)));
        }
    }
    (ENTITY_MIN_LENGTH..=candidate.len().min(BARE_ENTITY_MAX_LENGTH))
        .find_map(|len| ENTITIES.get(&candidate[..len]).map(|expansion| (len, Cow::Borrowed(*expansion))))
}

/// A numeric reference at the start of `s` (`&#` digits or `&#x` hex digits, then an optional
/// `;`). Its extent is found here; its expansion (the numeric replacement rules) is htmlize's own
/// decoding of exactly those bytes.
fn numeric_reference_at(s: &[u8]) -> Option<(usize, Cow<'static, [u8]>)> {
    let (digits_from, hex) = match s.get(2) {
        None => return None,
        Some(b'x' | b'X') => (3, true),
        Some(_) => (2, false),
    };
    let is_digit = |c: &u8| if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() };
    let mut end = digits_from + s[digits_from..].iter().take_while(|c| is_digit(c)).count();
    if end == digits_from {
        return None;
    }
    if s.get(end) == Some(&b';') {
        end += 1;
    }
    // The bytes are ASCII, so this is valid UTF-8.
    let reference = std::str::from_utf8(&s[..end]).ok()?;
    match htmlize::unescape(reference) {
        Cow::Owned(expansion) => Some((end, Cow::Owned(expansion.into_bytes()))),
        Cow::Borrowed(_) => None,
    }
}

/// The text being decoded: `bytes[start..]`. Replacements shorten text in place by moving what
/// lies before them to the right, so a reference near the start costs little however long the
/// text after it is.
struct Text {
    bytes: Vec<u8>,
    start: usize,
}

impl Text {
    /// Applies one pass's references (ascending, not overlapping); returns the ranges their
    /// expansions now occupy, ascending.
    fn apply(&mut self, found: &[Found]) -> Vec<(usize, usize)> {
        // In place only if no expansion is longer than the text it replaces, counted from the
        // right (two references expand: `&nGt;` and `&nLt;`, five bytes into six).
        let mut shrink: usize = 0;
        let in_place = found.iter().rev().all(|f| match (shrink + f.len).checked_sub(f.expansion.len()) {
            Some(next) => {
                shrink = next;
                true
            }
            None => false,
        });
        if !in_place {
            return self.rebuild(found);
        }
        let mut changed = Vec::with_capacity(found.len());
        let mut shift = 0;
        let mut segment_end = self.bytes.len();
        for f in found.iter().rev() {
            let after = f.at + f.len;
            self.bytes.copy_within(after..segment_end, after + shift);
            shift = (shift + f.len) - f.expansion.len();
            let to = f.at + shift;
            self.bytes[to..to + f.expansion.len()].copy_from_slice(&f.expansion);
            changed.push((to, to + f.expansion.len()));
            segment_end = f.at;
        }
        self.bytes.copy_within(self.start..segment_end, self.start + shift);
        self.start += shift;
        changed.reverse();
        changed
    }

    /// Applies one pass's references by copying the text into a new buffer.
    fn rebuild(&mut self, found: &[Found]) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(self.bytes.len() - self.start + found.len());
        let mut changed = Vec::with_capacity(found.len());
        let mut from = self.start;
        for f in found {
            out.extend_from_slice(&self.bytes[from..f.at]);
            changed.push((out.len(), out.len() + f.expansion.len()));
            out.extend_from_slice(&f.expansion);
            from = f.at + f.len;
        }
        out.extend_from_slice(&self.bytes[from..]);
        self.bytes = out;
        self.start = 0;
        changed
    }

    /// The `&`s whose decoding the last pass may have changed: every `&` inside what it wrote,
    /// and the `&` (if any) whose name or digits run up to the start of it.
    fn candidates(&self, changed: &[(usize, usize)]) -> Vec<usize> {
        let mut out = Vec::new();
        let mut limit = self.start;
        for &(from, to) in changed {
            let mut at = from;
            while at > limit && (self.bytes[at - 1].is_ascii_alphanumeric() || self.bytes[at - 1] == b'#') {
                at -= 1;
            }
            if at > limit && self.bytes[at - 1] == b'&' {
                out.push(at - 1);
            }
            out.extend((from..to).filter(|&i| self.bytes[i] == b'&'));
            limit = to;
        }
        out.dedup();
        out
    }

    fn into_string(mut self) -> String {
        self.bytes.drain(..self.start);
        String::from_utf8(self.bytes).expect("decoding keeps text UTF-8")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_escaping_resolves_fully() {
        assert_eq!(decode("Ember &amp;amp; Oak"), "Ember & Oak");
        assert_eq!(decode("&amp;lt;b&amp;gt;"), "<b>");
        assert_eq!(decode("&amp;#39;"), "'");
    }

    #[test]
    fn text_without_references_is_borrowed_unchanged() {
        // Each is returned as the very text given: borrowed (no copy made) and equal to it.
        for text in ["AT&T and a & b", "plain", "&unknown; &; &#; &#x; &", ""] {
            let out = decode(text);
            assert!(matches!(out, Cow::Borrowed(_)), "{text:?} was copied");
            assert_eq!(out, text);
        }
    }

    #[test]
    fn the_whole_table_and_numeric_forms() {
        assert_eq!(decode("&nbsp;&eacute;&hellip;&rsquo;"), "\u{a0}é…’");
        assert_eq!(decode("&NotEqualTilde;"), "\u{2242}\u{338}");
        assert_eq!(decode("&#39;&#x27;&#X27;"), "'''");
        assert_eq!(decode("&#128;"), "€");
        assert_eq!(decode("&#0;"), "\u{fffd}");
    }

    #[test]
    fn passes_are_bounded() {
        let mut text = String::from("&");
        for _ in 0..(MAX_PASSES + 5) {
            text = text.replace('&', "&amp;");
        }
        let out = decode(&text);
        assert!(out.starts_with('&') && out.len() > 1, "{out}");
    }
}
