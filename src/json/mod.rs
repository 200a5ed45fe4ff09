//! The suite's JSON values: exact numbers and key order, without touching a user's serde_json.
//!
//! A conformance suite must hand a handler `12345678901234567890123` with every digit and read
//! object keys in the order they were sent, which serde_json does only with its
//! `arbitrary_precision` and `preserve_order` features. Cargo unifies features, so turning them on
//! for serde_json itself would change number handling and map order in every crate of a user's
//! build that uses this one (a Rust runtime that runs the corpus from its own `cargo test`, above
//! all). So the suite's values are those of `serde_json_lenient`, a maintained fork of serde_json
//! under another name, built with those two features: [`Value`], [`Map`] and [`Number`] here.
//! Its default parser is strict RFC 8259 JSON, like serde_json's (the corpus's not-JSON cases hold
//! it to that). A user's own `serde_json` keeps its defaults; [`from_serde`] and [`to_serde`] cross
//! between the two.
//!
//! jsonschema validates serde_json values, so [`to_serde`] is also how the suite validates: a
//! number beyond what serde_json holds without `arbitrary_precision` is validated as the nearest
//! `f64` (its exact digits matter to comparisons, which use [`Value`], never to validation).

pub(crate) mod compare;
pub(crate) mod diff;
#[doc(hidden)]
pub mod file;
#[doc(hidden)]
pub mod inert;
#[doc(hidden)]
pub mod surrogate;

pub use serde_json::{Map, Number, Value};

/// Parses `text` as one RFC 8259 JSON value: no comments, no trailing commas (the fork allows
/// both unless told not to), surrounded only by JSON whitespace. Every parse of JSON text in the
/// suite goes through here or [`from_slice`].
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    let mut strict = serde_json::Deserializer::from_str(text);
    strict.set_ignore_trailing_commas(false);
    strict.set_allow_comments(false);
    let value = T::deserialize(&mut strict)?;
    strict.end()?;
    Ok(value)
}

/// [`from_str`] for bytes, which must be UTF-8.
pub fn from_slice<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    let mut strict = serde_json::Deserializer::from_slice(bytes);
    strict.set_ignore_trailing_commas(false);
    strict.set_allow_comments(false);
    let value = T::deserialize(&mut strict)?;
    strict.end()?;
    Ok(value)
}

/// `value` as a serde_json value: numbers that fit `u64` or `i64` exactly, the nearest finite
/// `f64` otherwise (a magnitude beyond `f64` becomes `f64::MAX` with its sign); keys in order.
pub fn to_serde(value: &Value) -> serde_json_std::Value {
    use serde_json_std::Value as Std;
    match value {
        Value::Null => Std::Null,
        Value::Bool(b) => Std::Bool(*b),
        Value::String(s) => Std::String(s.clone()),
        Value::Number(n) => Std::Number(number(n)),
        Value::Array(items) => Std::Array(items.iter().map(to_serde).collect()),
        Value::Object(map) => Std::Object(map.iter().map(|(k, v)| (k.clone(), to_serde(v))).collect()),
    }
}

fn number(n: &Number) -> serde_json_std::Number {
    if let Some(u) = n.as_u64() {
        return u.into();
    }
    if let Some(i) = n.as_i64() {
        return i.into();
    }
    let text = n.to_string();
    let float: f64 = text.parse().unwrap_or(0.0);
    let finite = if float.is_finite() { float } else { f64::MAX.copysign(float) };
    serde_json_std::Number::from_f64(finite).unwrap_or_else(|| 0.into())
}

/// A serde_json value as the suite's: numbers keep the digits serde_json printed for them.
pub fn from_serde(value: &serde_json_std::Value) -> Value {
    use serde_json_std::Value as Std;
    match value {
        Std::Null => Value::Null,
        Std::Bool(b) => Value::Bool(*b),
        Std::String(s) => Value::String(s.clone()),
        Std::Number(n) => from_str(&n.to_string()).unwrap_or(Value::Null),
        Std::Array(items) => Value::Array(items.iter().map(from_serde).collect()),
        Std::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), from_serde(v))).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing_is_strict_rfc_8259() {
        for not_json in [
            "[1, 2,]",
            "{\"a\": 1,}",
            "[1] // note",
            "/* c */ [1]",
            "\"a\\vb\"",
            "\"a\\x41\"",
            "\"line\nbreak\"",
            "\"tab\there\"",
            "[1] [2]",
            "NaN",
            "'a'",
        ] {
            assert!(from_str::<Value>(not_json).is_err(), "{not_json:?} parsed");
            assert!(from_slice::<Value>(not_json.as_bytes()).is_err(), "{not_json:?} parsed");
        }
        assert_eq!(from_str::<Value>(" \t\r\n[1]\n").unwrap(), serde_json::json!([1]));
    }

    #[test]
    fn exact_numbers_and_order_here_defaults_there() {
        let text = r#"{"z": 12345678901234567890123, "a": 1.50, "m": -7, "big": 1e400}"#;
        let ours: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_string(&ours).unwrap(),
            r#"{"z":12345678901234567890123,"a":1.50,"m":-7,"big":1e400}"#
        );
        let theirs = to_serde(&ours);
        assert_eq!(theirs["m"], serde_json_std::json!(-7));
        assert_eq!(theirs["z"].as_f64(), Some(1.2345678901234568e22));
        assert_eq!(theirs["big"].as_f64(), Some(f64::MAX));
        let back = from_serde(&serde_json_std::json!({"b": [1, 2.5, "x", null, true]}));
        assert_eq!(serde_json::to_string(&back).unwrap(), r#"{"b":[1,2.5,"x",null,true]}"#);
    }
}
