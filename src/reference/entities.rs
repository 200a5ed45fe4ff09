//! RT-TOOL-8.4 and 8.5 on one string: HTML character references decoded to a fixpoint.
//!
//! Each pass is htmlize's WHATWG decoder for text content (the whole named-reference table,
//! legacy names without a semicolon, decimal and hex references with the numeric replacement
//! rules). Passes repeat until the text stops changing, so a doubly escaped value resolves fully;
//! the rule lets an implementation bound the passes, and this one stops after [`MAX_PASSES`].
//! Text with no reference in it comes back unchanged (and unallocated).

use std::borrow::Cow;

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
    let mut current: Cow<'_, str> = Cow::Borrowed(text);
    for _ in 0..MAX_PASSES {
        if !current.contains('&') {
            break;
        }
        let next = decode_once(current.as_ref());
        if matches!(next, Cow::Borrowed(_)) {
            // The decoder found nothing to decode.
            break;
        }
        let next = next.into_owned();
        if next == current.as_ref() {
            break;
        }
        current = Cow::Owned(next);
    }
    current
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
