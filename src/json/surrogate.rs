//! Lone surrogates in an implementation's answers.
//!
//! `"\ud800"` is valid JSON by RFC 8259's grammar, and JavaScript's `JSON.stringify` and Python's
//! `json.dumps` both emit it for a string holding an unpaired surrogate, but a Rust `String`
//! cannot hold one. So that such an answer is judged on its merits rather than refused, the
//! decoder maps each lone surrogate U+D800..U+DFFF to one stand-in code point of Supplementary
//! Private Use Area-A, [`BASE`] + (surrogate - 0xD800), that is U+F0000..U+F07FF; every reporter
//! shows a stand-in as the surrogate it stands for (`\u{D800}`), never as itself. A stand-in
//! equals no expectation but one written with it on purpose: the behaviour
//! `decoded-keeping-surrogate` of `RT-TOOL-8/json-decoding/lone-surrogate-escape` (docs/protocol.md).

/// The stand-in of U+D800.
pub const BASE: u32 = 0xF0000;

/// The stand-in for a lone surrogate `unit` (0xD800..=0xDFFF), or `None` for any other unit.
pub fn stand_in(unit: u16) -> Option<char> {
    (0xD800..=0xDFFF).contains(&unit).then(|| char::from_u32(BASE + u32::from(unit - 0xD800))).flatten()
}

/// The lone surrogate that `c` stands in for, or `None` when `c` is an ordinary character.
pub fn stood_for(c: char) -> Option<u16> {
    let code = u32::from(c);
    (BASE..BASE + 0x800).contains(&code).then(|| 0xD800 + (code - BASE) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_surrogate_has_its_own_stand_in_and_back() {
        for unit in 0xD800..=0xDFFFu16 {
            let c = stand_in(unit).expect("a stand-in");
            assert_eq!(stood_for(c), Some(unit));
        }
        assert_eq!(stand_in(0xD7FF), None);
        assert_eq!(stand_in(0xE000), None);
        assert_eq!(stood_for('a'), None);
        assert_eq!(stood_for('\u{F0800}'), None);
        assert_eq!(stood_for('\u{10FFFF}'), None);
    }
}
