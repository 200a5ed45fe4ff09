//! Text from an implementation or a case, made visible and inert before a reporter writes it.
//!
//! An answer can hold anything a JSON string can: controls that rewrite a terminal (ESC, BEL,
//! CR), characters XML 1.0 forbids (C0 controls, U+FFFE, U+FFFF), bidi controls that reorder
//! what a reader sees, zero-width characters, and the stand-ins [`crate::json::surrogate`] decodes
//! lone surrogates to. Each of these, a [hidden](is_hidden) character, is shown escaped as
//! `\u{1B}`, a stand-in as the surrogate it stands for (`\u{D800}`), so nothing is dropped
//! silently and nothing acts on the medium. The reporters escape their own markup (HTML, XML,
//! Markdown) on top of this.

use crate::json::surrogate::stood_for;

/// `c` written as `\u{…}` in upper-case hex; a lone-surrogate stand-in as the surrogate it
/// stands for.
pub fn escape_char(c: char) -> String {
    let code = stood_for(c).map(u32::from).unwrap_or(u32::from(c));
    format!("\\u{{{code:X}}}")
}

/// Whether `c` is shown escaped: controls (C0, DEL, C1), bidi controls, zero-width and other
/// invisible format characters, noncharacters (U+FFFE, U+FFFF and the like), and stand-ins.
pub fn is_hidden(c: char) -> bool {
    c.is_control() || is_invisible_format(c) || is_noncharacter(c) || stood_for(c).is_some()
}

/// Bidi controls, zero-width characters and other format characters that show nothing.
fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{AD}'
            | '\u{34F}'
            | '\u{61C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// Unicode's noncharacters: U+FDD0..U+FDEF, and the last two code points of every plane.
fn is_noncharacter(c: char) -> bool {
    let code = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE
}

/// `text` on one line: every hidden character escaped, newlines included.
pub fn one_line(text: &str) -> String {
    escape_where(text, is_hidden)
}

/// `text` that may span lines: every hidden character escaped except the newline (U+000A).
/// A CR is escaped too, so no line can be overwritten from its start.
pub fn multi_line(text: &str) -> String {
    escape_where(text, |c| c != '\n' && is_hidden(c))
}

/// Whether XML 1.0 forbids `c` in a document: C0 controls other than tab, LF and CR, and
/// U+FFFE and U+FFFF (a `char` is never a surrogate).
pub fn is_forbidden_in_xml(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}')
}

/// `text` with each character for which `escape` holds written as [`escape_char`] does.
pub fn escape_where(text: &str, escape: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if escape(c) {
            out.push_str(&escape_char(c));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::surrogate::stand_in;

    #[test]
    fn escape_char_writes_hex_and_surrogates_for_stand_ins() {
        assert_eq!(escape_char('\u{1b}'), "\\u{1B}");
        assert_eq!(escape_char('\u{FFFF}'), "\\u{FFFF}");
        assert_eq!(escape_char(stand_in(0xD800).unwrap()), "\\u{D800}");
        assert_eq!(escape_char(stand_in(0xDFFF).unwrap()), "\\u{DFFF}");
    }

    #[test]
    fn hidden_characters_are_the_controls_and_invisibles() {
        for c in ['\0', '\u{7}', '\t', '\r', '\n', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}', '\u{61c}', '\u{200b}']
            .into_iter()
            .chain(['\u{200c}', '\u{200d}', '\u{200e}', '\u{200f}', '\u{2060}', '\u{feff}', '\u{fffe}', '\u{ffff}'])
            .chain('\u{202a}'..='\u{202e}')
            .chain('\u{2066}'..='\u{2069}')
            .chain(stand_in(0xDABC))
        {
            assert!(is_hidden(c), "{c:?} is not hidden");
        }
        for c in ['a', ' ', 'é', '\u{a0}', '日', '\u{1F600}', '\u{F0800}', '\u{FFFD}'] {
            assert!(!is_hidden(c), "{c:?} is hidden");
        }
    }

    #[test]
    fn one_line_escapes_newlines_and_multi_line_keeps_them() {
        let text = "a\nb\r\u{1b}[2J\u{7}\u{202e}c";
        assert_eq!(one_line(text), "a\\u{A}b\\u{D}\\u{1B}[2J\\u{7}\\u{202E}c");
        assert_eq!(multi_line(text), "a\nb\\u{D}\\u{1B}[2J\\u{7}\\u{202E}c");
    }

    #[test]
    fn every_character_xml_forbids_is_hidden() {
        let forbidden: Vec<char> =
            (0..=0x10FFFF).filter_map(char::from_u32).filter(|&c| is_forbidden_in_xml(c)).collect();
        assert_eq!(forbidden.len(), 29 + 2);
        assert!(forbidden.iter().all(|&c| is_hidden(c)));
        assert!(!is_forbidden_in_xml('\t') && !is_forbidden_in_xml('\n') && !is_forbidden_in_xml('\r'));
        assert!(!multi_line(&forbidden.iter().collect::<String>()).chars().any(is_forbidden_in_xml));
    }

    #[test]
    fn escape_where_escapes_only_what_it_is_told() {
        assert_eq!(escape_where("a b", |c| c == ' '), "a\\u{20}b");
    }
}
