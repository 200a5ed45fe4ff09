//! The words the suite's enums are written as, in one table per enum that both directions read:
//! [`words!`] gives an enum `as_str` (the word a value is written as) and `named` (the value a
//! word names), so a word is never spelled in two places.

/// Defines `as_str` and `named` of `$enum` from one table of `Variant => "word"`.
macro_rules! words {
    ($enum:ident { $($variant:ident => $word:literal),+ $(,)? }) => {
        impl $enum {
            /// The word the value is written as (in case files, reports and on the wire).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($enum::$variant => $word),+
                }
            }

            /// The value `word` names, or `None` when it names none.
            pub fn named(word: &str) -> Option<$enum> {
                match word {
                    $($word => Some($enum::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

pub(crate) use words;
