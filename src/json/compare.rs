//! Semantic comparison of JSON values, the way every check in the suite compares.
//!
//! Object key order is ignored; arrays compare in order; numbers compare by exact decimal value,
//! so `1.0` equals `1`, `1e2` equals `100`, `-0` equals `0`, and `12345678901234567890123` is never
//! rounded (the suite's values, [`crate::json::Value`], keep the digits a number was
//! written with). [`first_difference`] gives the JSON pointer where two values first part.

use serde_json::{Map, Number, Value};
use std::cmp::Ordering;

/// Whether two values are equal under the suite's semantics: `first_difference(a, b).is_none()`,
/// without building the pointer (the common case, equal values, allocates nothing).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => numbers_equal(x, y),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(l, r)| same(l, r)),
        // Keys are unique, so with as many keys on each side, every key of one found in the other
        // means the same key set.
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, left)| y.get(key).is_some_and(|right| same(left, right)))
        }
        _ => false,
    }
}

/// The JSON pointer (RFC 6901) of the first place where `expected` and `actual` differ, or `None`
/// when they are equal. Object members are visited in sorted key order.
pub fn first_difference(expected: &Value, actual: &Value) -> Option<String> {
    let mut pointer = String::new();
    if walk(expected, actual, &mut pointer) { None } else { Some(pointer) }
}

fn walk(a: &Value, b: &Value, pointer: &mut String) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => numbers_equal(x, y),
        (Value::Array(x), Value::Array(y)) => {
            for (index, (left, right)) in x.iter().zip(y).enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                if !walk(left, right, pointer) {
                    return false;
                }
                pointer.truncate(len);
            }
            if x.len() != y.len() {
                pointer.push('/');
                pointer.push_str(&x.len().min(y.len()).to_string());
                return false;
            }
            true
        }
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let len = pointer.len();
                push_token(pointer, key);
                match (x.get(key), y.get(key)) {
                    (Some(left), Some(right)) => {
                        if !walk(left, right, pointer) {
                            return false;
                        }
                    }
                    _ => return false,
                }
                pointer.truncate(len);
            }
            true
        }
        _ => false,
    }
}

/// Appends `/token` to a JSON pointer, escaping `~` and `/`.
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            _ => pointer.push(c),
        }
    }
}

/// Whether two JSON numbers have the same exact value.
pub fn numbers_equal(a: &Number, b: &Number) -> bool {
    if a.as_str() == b.as_str() {
        // The same text is the same value.
        return true;
    }
    let (ta, tb) = (a.to_string(), b.to_string());
    match (Decimal::parse(&ta), Decimal::parse(&tb)) {
        (Some(x), Some(y)) => x == y,
        _ => ta == tb,
    }
}

/// A JSON number reduced to sign, significant digits and exponent: the value is
/// `(-1)^negative × digits × 10^exponent`, with no leading or trailing zeros in `digits`.
/// Zero is `digits == ""`, and is never negative.
#[derive(Debug, PartialEq, Eq)]
struct Decimal {
    negative: bool,
    digits: String,
    exponent: i128,
}

impl Decimal {
    fn parse(text: &str) -> Option<Decimal> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(at) => (&rest[..at], rest[at + 1..].parse::<i128>().ok()?),
            None => (rest, 0),
        };
        let (int, frac) = match mantissa.find('.') {
            Some(at) => (&mantissa[..at], &mantissa[at + 1..]),
            None => (mantissa, ""),
        };
        if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let all: String = format!("{int}{frac}");
        let mut exponent = exponent - frac.len() as i128;
        let trimmed = all.trim_start_matches('0');
        let digits = trimmed.trim_end_matches('0');
        exponent += (trimmed.len() - digits.len()) as i128;
        if digits.is_empty() {
            return Some(Decimal { negative: false, digits: String::new(), exponent: 0 });
        }
        Some(Decimal { negative, digits: digits.to_string(), exponent })
    }
}

/// A copy of `value` with every object's keys in sorted order, so that printing it is canonical.
pub fn canonical(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let mut sorted = Map::new();
            for (key, item) in entries {
                sorted.insert(key.clone(), canonical(item));
            }
            Value::Object(sorted)
        }
        other => other.clone(),
    }
}

/// A total order on values consistent with [`same`] for the values the suite sorts (problems,
/// field lists): compares the canonical compact text.
pub fn order(a: &Value, b: &Value) -> Ordering {
    let (mut left, mut right) = (String::new(), String::new());
    write_canonical(a, &mut left);
    write_canonical(b, &mut right);
    left.cmp(&right)
}

/// Appends `canonical(value).to_string()` to `out`, without building the canonical copy.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (index, (key, item)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_canonical(item, out);
            }
            out.push('}');
        }
        scalar => write_scalar(scalar, out),
    }
}

/// A scalar's compact JSON text.
fn write_scalar(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => write_string(text, out),
        other => out.push_str(&other.to_string()),
    }
}

/// A string as JSON, with serde_json's escaping.
fn write_string(text: &str, out: &mut String) {
    out.push_str(&serde_json::to_string(text).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn num(text: &str) -> Value {
        crate::json::from_str(text).unwrap()
    }

    #[test]
    fn numbers_compare_by_exact_value() {
        assert!(same(&num("1.0"), &num("1")));
        assert!(same(&num("1e2"), &num("100")));
        assert!(same(&num("100E-2"), &num("1")));
        assert!(same(&num("-0"), &num("0")));
        assert!(same(&num("0.000"), &num("0e10")));
        assert!(same(&num("12345678901234567890123"), &num("1.2345678901234567890123e22")));
        assert!(!same(&num("12345678901234567890123"), &num("12345678901234567890124")));
        assert!(!same(&num("12345678901234567890123"), &num("1.2345678901234568e22")));
        assert!(!same(&num("-1"), &num("1")));
        assert!(!same(&num("0.1"), &num("0.10000000000000001")));
    }

    #[test]
    fn key_order_is_ignored_and_array_order_is_not() {
        let a: Value = crate::json::from_str(r#"{"a":1,"b":[1,2]}"#).unwrap();
        let b: Value = crate::json::from_str(r#"{"b":[1,2],"a":1}"#).unwrap();
        assert!(same(&a, &b));
        assert_eq!(first_difference(&json!([1, 2]), &json!([2, 1])), Some("/0".into()));
        for (x, y) in [
            (json!({"a": 1}), json!({"b": 1})),
            (json!({"a": 1}), json!({"a": 1, "b": 2})),
            (json!([1]), json!([1, 2])),
            (json!({"a": [1, {"b": null}]}), json!({"a": [1, {"b": false}]})),
            (json!({"a": [1, {"b": null}]}), json!({"a": [1.0, {"b": null}]})),
        ] {
            assert_eq!(same(&x, &y), first_difference(&x, &y).is_none(), "{x} {y}");
            assert_eq!(same(&y, &x), first_difference(&y, &x).is_none(), "{y} {x}");
        }
    }

    #[test]
    fn first_difference_points_at_the_first_sorted_key() {
        let expected = json!({"z": 1, "a/b": {"x~": [1, 2, 3]}});
        let actual = json!({"z": 2, "a/b": {"x~": [1, 2]}});
        assert_eq!(first_difference(&expected, &actual), Some("/a~1b/x~0/2".into()));
        assert_eq!(first_difference(&json!({"a": 1}), &json!({})), Some("/a".into()));
        assert_eq!(first_difference(&json!("1"), &json!(1)), Some(String::new()));
        assert_eq!(first_difference(&json!(null), &json!(null)), None);
    }

    #[test]
    fn order_compares_the_canonical_text() {
        let values: Vec<Value> = [
            r#"{"kind":"unknown_field","field":"b"}"#,
            r#"{"field":"a","kind":"missing_required"}"#,
            r#"{"kind":"no_alternative","alternatives":[["a","c"],["b"]]}"#,
            r#"["x\"y\u0001é", 1.50, -0, 12345678901234567890123, true, null, {}, []]"#,
            r#"{"a":{"z":1,"b":[{"d":2,"c":"&"}]}}"#,
            r#""plain""#,
            "1e2",
        ]
        .iter()
        .map(|text| crate::json::from_str(text).unwrap())
        .collect();
        for a in &values {
            let mut text = String::new();
            write_canonical(a, &mut text);
            assert_eq!(text, canonical(a).to_string());
            for b in &values {
                assert_eq!(order(a, b), canonical(a).to_string().cmp(&canonical(b).to_string()), "{a} {b}");
            }
        }
    }

    #[test]
    fn canonical_sorts_keys_at_every_depth() {
        let v: Value = crate::json::from_str(r#"{"b":{"d":1,"c":2},"a":[{"f":1,"e":2}]}"#).unwrap();
        assert_eq!(canonical(&v).to_string(), r#"{"a":[{"e":2,"f":1}],"b":{"c":2,"d":1}}"#);
    }
}
