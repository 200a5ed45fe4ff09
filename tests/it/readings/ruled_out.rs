//! Readings the rule texts rule out, each a variant of the reference that takes one of them: a
//! required case of the clause it breaks must fail each one, so that the required level, which
//! fails no allowed reading, still has the power to catch these.

use super::Variant;
use super::catalog;
use super::harness::{Defect, rebuilt, reference_decode};
use serde_json::Value;
use std::borrow::Cow;
use tool_conformance::Level;
use tool_conformance::reference::entities::{MAX_PASSES, decode_once};

/// Every ruled-out reading.
pub fn all() -> Vec<Variant> {
    let first_problem_only = catalog::all()
        .into_iter()
        .find(|entry| entry.name == "first-problem-only")
        .expect("the catalog has the first-problem-only defect");
    assert_eq!(first_problem_only.level, Level::Required, "first-problem-only is held to required cases");
    let clauses: &[&str] = &["PLAT-162.problem-classes", "PLAT-162.one-error"];
    assert!(clauses.contains(&first_problem_only.clause), "first-problem-only breaks {}", first_problem_only.clause);
    vec![
        Variant {
            name: first_problem_only.name,
            clauses,
            reading: first_problem_only.behaviour,
            defect: first_problem_only.defect,
        },
        Variant {
            name: "html4-entity-table",
            clauses: &["RT-TOOL-8.4"],
            reading: "named references from the 252 of HTML 4.01 only, instead of the WHATWG table",
            defect: Box::new(Html4EntityTable),
        },
        Variant {
            name: "null-as-absent",
            clauses: &["PLAT-162.problem-classes"],
            reading: "validation treats a root name whose value is null as absent",
            defect: Box::new(NullAsAbsent),
        },
    ]
}

// html4-entity-table

/// The named character references of HTML 4.01 (HTMLlat1, HTMLsymbol and HTMLspecial): 252.
pub const HTML4_NAMES: [&str; 252] = [
    // HTMLlat1: U+00A0 to U+00FF.
    "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy", "ordf", "laquo", "not", "shy",
    "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute", "micro", "para", "middot", "cedil", "sup1", "ordm",
    "raquo", "frac14", "frac12", "frac34", "iquest", "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig",
    "Ccedil", "Egrave", "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml", "ETH", "Ntilde", "Ograve",
    "Oacute", "Ocirc", "Otilde", "Ouml", "times", "Oslash", "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute", "THORN",
    "szlig", "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig", "ccedil", "egrave", "eacute", "ecirc",
    "euml", "igrave", "iacute", "icirc", "iuml", "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml",
    "divide", "oslash", "ugrave", "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
    // HTMLsymbol: Latin Extended-B, Greek, punctuation, letterlike, arrows, mathematical,
    // technical, geometric and miscellaneous symbols.
    "fnof", "Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa", "Lambda", "Mu", "Nu",
    "Xi", "Omicron", "Pi", "Rho", "Sigma", "Tau", "Upsilon", "Phi", "Chi", "Psi", "Omega", "alpha", "beta", "gamma",
    "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho",
    "sigmaf", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "thetasym", "upsih", "piv", "bull", "hellip",
    "prime", "Prime", "oline", "frasl", "weierp", "image", "real", "trade", "alefsym", "larr", "uarr", "rarr", "darr",
    "harr", "crarr", "lArr", "uArr", "rArr", "dArr", "hArr", "forall", "part", "exist", "empty", "nabla", "isin",
    "notin", "ni", "prod", "sum", "minus", "lowast", "radic", "prop", "infin", "ang", "and", "or", "cap", "cup", "int",
    "there4", "sim", "cong", "asymp", "ne", "equiv", "le", "ge", "sub", "sup", "nsub", "sube", "supe", "oplus",
    "otimes", "perp", "sdot", "lceil", "rceil", "lfloor", "rfloor", "lang", "rang", "loz", "spades", "clubs", "hearts",
    "diams", // HTMLspecial: markup-significant and internationalization characters.
    "quot", "amp", "lt", "gt", "OElig", "oelig", "Scaron", "scaron", "Yuml", "circ", "tilde", "ensp", "emsp", "thinsp",
    "zwnj", "zwj", "lrm", "rlm", "ndash", "mdash", "lsquo", "rsquo", "sbquo", "ldquo", "rdquo", "bdquo", "dagger",
    "Dagger", "permil", "lsaquo", "rsaquo", "euro",
];

fn is_html4(name: &str) -> bool {
    HTML4_NAMES.contains(&name)
}

/// The reference's decoder with its named-reference table cut down to HTML 4.01's. Numeric
/// references, the legacy names that need no semicolon (those of them HTML 4 has), the
/// longest-match rule and the passes to a fixpoint are the reference's; each reference is decoded
/// by the reference's own pass, so the characters are the WHATWG ones.
struct Html4EntityTable;
impl Defect for Html4EntityTable {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        rebuilt(schema, arguments, &reference_decode, &html4_decode)
    }
}

/// Passes of [`html4_pass`] until nothing changes, at most [`MAX_PASSES`], as the reference runs
/// its own.
pub fn html4_decode(text: &str) -> String {
    let mut current = text.to_string();
    for _ in 0..MAX_PASSES {
        let next = html4_pass(&current);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

/// One pass: every reference in `text` that HTML 4.01 knows decoded once.
fn html4_pass(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let (length, decoded) = html4_reference(&rest[at..]);
        out.push_str(&decoded);
        rest = &rest[at + length..];
    }
    out.push_str(rest);
    out
}

/// The reference `tail` starts with (it starts with `&`): how many bytes it takes and what they
/// decode to. A lone `&` takes one byte and stays.
fn html4_reference(tail: &str) -> (usize, Cow<'_, str>) {
    let body = &tail.as_bytes()[1..];
    let lone = (1, Cow::Borrowed("&"));
    let decoded = |length: usize| (length, Cow::Owned(decode_once(&tail[..length]).into_owned()));
    if body.first() == Some(&b'#') {
        let hex = matches!(body.get(1), Some(b'x' | b'X'));
        let start = if hex { 2 } else { 1 };
        let digit = |b: &u8| if hex { b.is_ascii_hexdigit() } else { b.is_ascii_digit() };
        let digits = body[start..].iter().take_while(|b| digit(b)).count();
        if digits == 0 {
            return lone;
        }
        let semicolon = usize::from(body.get(start + digits) == Some(&b';'));
        return decoded(1 + start + digits + semicolon);
    }
    let name_length = body.iter().take_while(|b| b.is_ascii_alphanumeric()).count();
    let name = &tail[1..1 + name_length];
    if body.get(name_length) == Some(&b';') && is_html4(name) {
        return decoded(name_length + 2);
    }
    // Without its semicolon, the longest prefix that is a legacy name HTML 4 has.
    for length in (1..=name_length).rev() {
        let prefix = &tail[..1 + length];
        if is_html4(&prefix[1..]) && decode_once(prefix) != prefix {
            return decoded(1 + length);
        }
    }
    lone
}

// null-as-absent

/// Validation sees the arguments without their null-valued root names; the handler still gets
/// them as sent.
struct NullAsAbsent;
impl Defect for NullAsAbsent {
    fn validation_view(&self, _schema: &Value, _raw: &Value, prepared: &Value) -> Value {
        match prepared {
            Value::Object(map) => {
                Value::Object(map.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), v.clone())).collect())
            }
            other => other.clone(),
        }
    }
}
