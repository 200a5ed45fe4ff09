//! The generators: a tool schema, the arguments a model sends it, and what is asked of the target
//! (normalize, invoke on some transports, describe), drawn by proptest from a seed.
//!
//! What proptest draws and shrinks is plain data ([`Raw`]: lists of parameters, each a
//! declaration, whether it is required and sent, and how its value goes wrong); [`Raw::build`]
//! turns it into JSON deterministically. Shrinking the data (dropping a parameter, a piece of a
//! string, a variant for an earlier one) so always gives a coherent schema and argument set.
//!
//! The space is the two rules': objects with properties, `required`, `enum` and `const`, nested
//! arrays and objects, `anyOf` and `oneOf` (at the root as required-field sets, on a parameter as
//! type alternatives), type lists and local `$ref`s, numbers with exact literals, explicit
//! `additionalProperties`, defaults and annotations; values that are valid, or wrong the way models
//! get them wrong: missing and unknown names, wrong types, arrays and objects sent as JSON text
//! (valid, invalid, of the wrong shape), nested and doubled HTML references, numbers at the
//! edges, odd Unicode, and roots that are not objects.

use crate::case::tool::Transport;
use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};

/// Parameter names: short, some the ticket's (`step_id` is a suffix of `existing_step_id`), some
/// that plain JavaScript objects inherit, one that holds a character reference.
pub const NAMES: [&str; 14] = [
    "a",
    "ids",
    "title",
    "meta",
    "step_id",
    "existing_step_id",
    "reason",
    "count",
    "constructor",
    "toString",
    "__proto__",
    "k&amp;",
    "filter",
    "mode",
];

/// Plain text pieces.
const WORDS: [&str; 9] = ["x", "Ember", " ", "Oak", "a b", "10", "true", "AT&T", "null"];

/// Character references, as a model escapes text: plain, doubled, numeric, legacy forms without a
/// semicolon, names HTML 4 lacks (one of them two code points), and text that only looks like one.
/// [`Piece::Entity`] draws the rest of the WHATWG table.
const REFERENCES: [&str; 26] = [
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&#39;",
    "&#x27;",
    "&eacute;",
    "&nbsp;",
    "&amp;amp;",
    "&amp;lt;",
    "&#38;lt;",
    "&amp;#39;",
    "&amp;amp;amp;",
    "&amp",
    "&copy2023",
    "&#39",
    "&#0;",
    "&#x80;",
    "&unknown;",
    "&Amp;",
    "&;",
    "&",
    "&apos;",
    "&check;",
    "&NotEqualTilde;",
    "&amp;apos;",
];

/// Text a runtime may be tempted to normalize: accents precomposed and combining, no-break and
/// zero-width spaces, CJK, an astral character, a byte order mark, a control.
const ODD: [&str; 9] = ["é", "e\u{301}", "\u{a0}", "\u{200b}", "日本", "😀", "\u{feff}", "\u{7}", "Ω"];

/// Numbers at the edges, as JSON text: big integers, long decimals, whole floats, exponents (big
/// ones too), negative zero.
const NUMBERS: [&str; 13] = [
    "0",
    "-1",
    "7",
    "2.5",
    "1.0",
    "1e2",
    "-0",
    "9007199254740993",
    "123456789012345678901234567890",
    "0.1000000000000000055511151231257827",
    "1E+2",
    "1e400",
    "-2.5e-400",
];

/// Whole texts a model sends for a parameter: JSON scalars, JSON text of a string, small
/// containers.
const LITERALS: [&str; 9] = ["null", "1", "true", "\"[1]\"", "[1]", "{\"a\":1}", "[]", "{}", ""];

/// One piece of a generated string.
#[derive(Debug, Clone)]
pub enum Piece {
    /// A word of `WORDS`.
    Word(usize),
    /// A reference of `REFERENCES`.
    Reference(usize),
    /// Odd Unicode of `ODD`.
    Odd(usize),
    /// A semicolon-terminated name of the whole WHATWG table, by its index there.
    Entity(usize),
}

/// What a leaf of a declaration is.
#[derive(Debug, Clone)]
pub enum Leaf {
    /// `type: string`, with a minLength when given.
    String(Option<u8>),
    /// `type: integer`.
    Integer,
    /// `type: number`.
    Number,
    /// `type: boolean`.
    Boolean,
    /// No type at all.
    Untyped,
    /// `enum` of strings (with `type: string` when the flag is set).
    Enum(bool),
    /// `const` of a string.
    Const,
}

/// A parameter's declaration.
#[derive(Debug, Clone)]
pub enum Decl {
    /// A leaf type.
    Leaf(Leaf),
    /// `type: array`, with `items` when given.
    Array(Option<Leaf>),
    /// `type: object`, with properties and an explicit additionalProperties (0: absent, 1: true,
    /// 2: false).
    Object(Vec<(usize, Leaf)>, u8),
    /// A type list (indices into [`TYPE_NAMES`]).
    TypeList(Vec<usize>),
    /// `anyOf` of typed branches, or `oneOf` when the flag is set.
    Union(Vec<usize>, bool),
    /// A local `$ref` to `$defs/<name>` holding a declaration of this type.
    Ref(usize),
    /// A leaf type or null (`type: [<leaf>, "null"]`), as Optional parameters are declared.
    Nullable(Leaf),
    /// An object holding an array of objects whose property `t` is the leaf
    /// (`{rows: [{t: <leaf>}]}`): a value three levels below the parameter.
    Deep(Leaf),
}

/// Type names a type list or a union draws from.
pub const TYPE_NAMES: [&str; 7] = ["array", "object", "string", "null", "integer", "number", "boolean"];

/// How a sent value is made, given the declaration.
#[derive(Debug, Clone)]
pub enum Sent {
    /// A value the declaration accepts.
    Valid(u8),
    /// A string made of pieces.
    Text(Vec<Piece>),
    /// JSON text: its items (strings of pieces, or numbers), whether it has the other shape than
    /// the one declared (a list for an object, a map otherwise), and how it is broken (0: not at
    /// all).
    JsonText(Vec<Item>, bool, u8),
    /// A value of another type (indexes a list of wrong values).
    WrongType(u8),
    /// A number at an edge (`NUMBERS`).
    Number(usize),
    /// A whole text of `LITERALS`.
    Literal(usize),
    /// null.
    Null,
    /// A string of pieces three levels down, where [`Decl::Deep`] puts its leaf.
    Deep(Vec<Piece>),
}

/// An item of generated JSON text, or of a generated array or object.
#[derive(Debug, Clone)]
pub enum Item {
    /// A string.
    Text(Vec<Piece>),
    /// A number of `NUMBERS`.
    Number(usize),
    /// JSON text nested as a string.
    Nested(bool),
}

/// One generated parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// Index into [`NAMES`].
    pub name: usize,
    /// Its declaration.
    pub decl: Decl,
    /// Whether the root requires it.
    pub required: bool,
    /// Its value, when the call sends it.
    pub sent: Option<Sent>,
    /// A `default` for it, an annotation, and a keyword outside the rule's classes (0: none).
    pub extras: (bool, bool, u8),
    /// How its schema is spelled, saying the same thing (0: as built; 1: a type as a list of
    /// one; 2: wrapped in a one-branch `anyOf`; 3: moved under `$defs` and referenced; 4: an
    /// empty schema as `true`).
    pub spelling: u8,
}

/// What is asked of the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// RT-TOOL-8: normalize the arguments.
    Normalize,
    /// Register the tool and call it on some transports.
    Invoke,
    /// A call, like [`Kind::Invoke`] (the two are built alike; the second name only weighs calls
    /// more): either counts toward RT-TOOL-8 (clause 8.1, what normalization handed the executor)
    /// when normalization changes its arguments, and toward PLAT-162 otherwise.
    Pipeline,
    /// PLAT-162: register the tool and read its published schema from every view.
    Describe,
}

/// The data proptest draws: everything a generated case is made from.
#[derive(Debug, Clone)]
pub struct Raw {
    /// What is asked.
    pub kind: Kind,
    /// Which transports an invoke uses (a bit per transport of [`Transport::ALL`]; shrinks toward
    /// direct alone).
    pub transports: u8,
    /// The parameters.
    pub params: Vec<Param>,
    /// Names sent that the schema does not declare, with their values.
    pub unknown: Vec<(usize, Sent)>,
    /// The root's additionalProperties: 0 absent, 1 true, 2 false, 3 a schema `{type: integer}`.
    pub additional: u8,
    /// Root required-field sets (indices into the parameters), as `anyOf`, or `oneOf` with the
    /// flag.
    pub alternatives: Option<(Vec<Vec<usize>>, bool)>,
    /// A name the root requires without declaring it.
    pub undeclared_required: Option<usize>,
    /// The root as sent: 0 the object; then an array, a string, a number, true, null, and the
    /// object as JSON text.
    pub root: u8,
    /// Whether the call is made valid: every value sent is one its declaration accepts, and no
    /// unknown name is sent.
    pub valid: bool,
}

/// A generated schema and call.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// What is asked.
    pub kind: Kind,
    /// The tool's input schema.
    pub schema: Value,
    /// The arguments as sent.
    pub arguments: Value,
    /// The transports of an invoke.
    pub transports: Vec<Transport>,
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        3 => (0..WORDS.len()).prop_map(Piece::Word),
        4 => (0..REFERENCES.len()).prop_map(Piece::Reference),
        2 => (0..ODD.len()).prop_map(Piece::Odd),
        1 => (0..htmlize::ENTITIES.len()).prop_map(Piece::Entity),
    ]
}

fn pieces() -> impl Strategy<Value = Vec<Piece>> {
    vec(piece(), 0..4)
}

fn leaf() -> impl Strategy<Value = Leaf> {
    prop_oneof![
        3 => proptest::option::weighted(0.45, 1u8..4).prop_map(Leaf::String),
        2 => Just(Leaf::Integer),
        1 => Just(Leaf::Number),
        1 => Just(Leaf::Boolean),
        1 => Just(Leaf::Untyped),
        1 => any::<bool>().prop_map(Leaf::Enum),
        1 => Just(Leaf::Const),
    ]
}

fn decl() -> impl Strategy<Value = Decl> {
    prop_oneof![
        4 => leaf().prop_map(Decl::Leaf),
        3 => proptest::option::of(leaf()).prop_map(Decl::Array),
        2 => (vec((0..NAMES.len(), leaf()), 0..3), 0u8..3).prop_map(|(p, a)| Decl::Object(p, a)),
        1 => vec(0..TYPE_NAMES.len(), 1..3).prop_map(Decl::TypeList),
        1 => (vec(0..TYPE_NAMES.len(), 1..3), any::<bool>()).prop_map(|(t, one)| Decl::Union(t, one)),
        1 => (0..TYPE_NAMES.len()).prop_map(Decl::Ref),
        2 => leaf().prop_map(Decl::Nullable),
        1 => leaf().prop_map(Decl::Deep),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        4 => pieces().prop_map(Item::Text),
        2 => (0..NUMBERS.len()).prop_map(Item::Number),
        1 => any::<bool>().prop_map(Item::Nested),
    ]
}

fn sent() -> impl Strategy<Value = Sent> {
    prop_oneof![
        3 => any::<u8>().prop_map(Sent::Valid),
        3 => pieces().prop_map(Sent::Text),
        3 => (vec(item(), 0..3), proptest::bool::weighted(0.2), prop_oneof![6 => Just(0u8), 2 => Just(6u8), 3 => 1u8..8, 3 => 8u8..13]).prop_map(|(i, m, b)| Sent::JsonText(i, m, b)),
        2 => any::<u8>().prop_map(Sent::WrongType),
        1 => (0..NUMBERS.len()).prop_map(Sent::Number),
        3 => (0..LITERALS.len()).prop_map(Sent::Literal),
        1 => Just(Sent::Null),
        1 => pieces().prop_map(Sent::Deep),
    ]
}

fn param() -> impl Strategy<Value = Param> {
    (
        prop_oneof![4 => 0..NAMES.len(), 1 => Just(5usize)],
        decl(),
        proptest::bool::weighted(0.4),
        proptest::option::weighted(0.75, sent()),
        (proptest::bool::weighted(0.2), proptest::bool::weighted(0.15), prop_oneof![8 => Just(0u8), 1 => 1u8..4]),
        prop_oneof![6 => Just(0u8), 1 => 1u8..5],
    )
        .prop_map(|(name, decl, required, sent, extras, spelling)| Param {
            name,
            decl,
            required,
            sent,
            extras,
            spelling,
        })
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        4 => Just(Kind::Normalize),
        4 => Just(Kind::Invoke),
        2 => Just(Kind::Pipeline),
        1 => Just(Kind::Describe),
    ]
}

/// The strategy of generated cases.
pub fn raw() -> impl Strategy<Value = Raw> {
    (
        kind(),
        prop_oneof![1 => 1u8..8, 2 => Just(7u8)],
        vec(param(), 0..5),
        vec((prop_oneof![2 => 0..NAMES.len(), 1 => Just(4usize)], sent()), 0..2),
        prop_oneof![3 => Just(0u8), 1 => 1u8..4],
        proptest::option::weighted(0.2, (vec(vec(0usize..5, 0..3), 1..3), proptest::bool::weighted(0.25))),
        proptest::option::weighted(0.08, 0..NAMES.len()),
        prop_oneof![12 => Just(0u8), 1 => 1u8..7],
        proptest::bool::weighted(0.25),
    )
        .prop_map(
            |(kind, transports, params, unknown, additional, alternatives, undeclared_required, root, valid)| Raw {
                kind,
                transports,
                params,
                unknown,
                additional,
                alternatives,
                undeclared_required,
                root,
                valid,
            },
        )
}

fn text(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Word(i) => WORDS[*i],
            Piece::Reference(i) => REFERENCES[*i],
            Piece::Odd(i) => ODD[*i],
            Piece::Entity(i) => entity(*i),
        })
        .collect()
}

/// The `i`-th semicolon-terminated name of the WHATWG table (the one before it, for a legacy name
/// without its semicolon).
fn entity(i: usize) -> &'static str {
    let named = |j: usize| {
        htmlize::ENTITIES.entries().nth(j).and_then(|(k, _)| std::str::from_utf8(k).ok()).filter(|k| k.ends_with(';'))
    };
    (0..=i).rev().find_map(named).unwrap_or("&amp;")
}

fn number(index: usize) -> Value {
    crate::json::from_str(NUMBERS[index]).unwrap_or(Value::Null)
}

fn leaf_schema(leaf: &Leaf) -> Value {
    match leaf {
        Leaf::String(None) => json!({"type": "string"}),
        Leaf::String(Some(min)) => json!({"type": "string", "minLength": min}),
        Leaf::Integer => json!({"type": "integer"}),
        Leaf::Number => json!({"type": "number"}),
        Leaf::Boolean => json!({"type": "boolean"}),
        Leaf::Untyped => json!({}),
        Leaf::Enum(false) => json!({"enum": ["add", "drop", "a&amp;b"]}),
        Leaf::Enum(true) => json!({"type": "string", "enum": ["add", "drop", "a&amp;b"]}),
        Leaf::Const => json!({"const": "fixed"}),
    }
}

fn typed(name: &str) -> Value {
    json!({ "type": name })
}

fn decl_schema(decl: &Decl, defs: &mut Map<String, Value>) -> Value {
    match decl {
        Decl::Leaf(leaf) => leaf_schema(leaf),
        Decl::Array(None) => json!({"type": "array"}),
        Decl::Array(Some(items)) => json!({"type": "array", "items": leaf_schema(items)}),
        Decl::Object(properties, additional) => {
            let mut props = Map::new();
            for (name, leaf) in properties {
                props.insert(NAMES[*name].to_string(), leaf_schema(leaf));
            }
            let mut schema = json!({"type": "object", "properties": props});
            match additional {
                1 => schema["additionalProperties"] = Value::Bool(true),
                2 => schema["additionalProperties"] = Value::Bool(false),
                _ => {}
            }
            schema
        }
        Decl::TypeList(types) => json!({ "type": types.iter().map(|t| TYPE_NAMES[*t]).collect::<Vec<_>>() }),
        Decl::Union(types, one) => {
            let branches: Vec<Value> = types.iter().map(|t| typed(TYPE_NAMES[*t])).collect();
            json!({ (if *one { "oneOf" } else { "anyOf" }): branches })
        }
        Decl::Nullable(leaf) => {
            let mut schema = leaf_schema(leaf);
            if let Some(Value::String(t)) = schema.get("type").cloned() {
                schema["type"] = json!([t, "null"]);
            }
            schema
        }
        Decl::Ref(t) => {
            let name = format!("d{t}");
            defs.insert(name.clone(), typed(TYPE_NAMES[*t]));
            json!({ "$ref": format!("#/$defs/{name}") })
        }
        Decl::Deep(leaf) => json!({"type": "object", "properties": {"rows": {
            "type": "array", "items": {"type": "object", "properties": {"t": leaf_schema(leaf)}}
        }}}),
    }
}

/// `schema` spelled another way that says the same thing ([`Param::spelling`]); `key` names its
/// entry under `$defs`.
fn respelled(schema: Value, spelling: u8, key: &str, defs: &mut Map<String, Value>) -> Value {
    match (spelling, schema) {
        (1, Value::Object(mut map)) => {
            if let Some(Value::String(t)) = map.get("type").cloned() {
                map.insert("type".into(), json!([t]));
            }
            Value::Object(map)
        }
        (2, schema) => json!({ "anyOf": [schema] }),
        (3, schema) => {
            defs.insert(key.to_string(), schema);
            json!({ "$ref": format!("#/$defs/{key}") })
        }
        (4, Value::Object(map)) if map.is_empty() => Value::Bool(true),
        (_, schema) => schema,
    }
}

/// The types a declaration admits at its top level, as far as a generated value needs to know.
fn main_type(decl: &Decl) -> &'static str {
    match decl {
        Decl::Leaf(Leaf::String(_) | Leaf::Enum(_) | Leaf::Const) => "string",
        Decl::Leaf(Leaf::Integer) => "integer",
        Decl::Leaf(Leaf::Number) => "number",
        Decl::Leaf(Leaf::Boolean) => "boolean",
        Decl::Leaf(Leaf::Untyped) => "any",
        Decl::Array(_) => "array",
        Decl::Object(..) => "object",
        Decl::TypeList(t) | Decl::Union(t, _) => t.first().map_or("any", |t| TYPE_NAMES[*t]),
        Decl::Ref(t) => TYPE_NAMES[*t],
        Decl::Nullable(leaf) => main_type(&Decl::Leaf(leaf.clone())),
        Decl::Deep(_) => "object",
    }
}

fn leaf_value(leaf: &Leaf, seed: u8) -> Value {
    match leaf {
        Leaf::String(min) => {
            let base = ["step-1", "Ember &amp;amp; Oak", "abc", "日本語"][usize::from(seed % 4)];
            let mut s = base.to_string();
            while s.chars().count() < usize::from(min.unwrap_or(0)) {
                s.push('x');
            }
            Value::String(s)
        }
        Leaf::Integer => json!(i64::from(seed) - 3),
        Leaf::Number => number([3, 2, 0, 4][usize::from(seed % 4)]),
        Leaf::Boolean => Value::Bool(seed % 2 == 0),
        Leaf::Untyped => [json!("any"), json!(1), json!({"k": "v"}), Value::Null][usize::from(seed % 4)].clone(),
        Leaf::Enum(_) => json!(["add", "drop", "a&amp;b"][usize::from(seed % 3)]),
        Leaf::Const => json!("fixed"),
    }
}

fn valid_value(decl: &Decl, seed: u8) -> Value {
    match decl {
        Decl::Leaf(leaf) => leaf_value(leaf, seed),
        Decl::Nullable(leaf) if seed % 2 == 0 => {
            let typed = matches!(leaf_schema(leaf).get("type"), Some(Value::String(_)));
            if typed { Value::Null } else { leaf_value(leaf, seed) }
        }
        Decl::Nullable(leaf) => leaf_value(leaf, seed),
        Decl::Array(items) => {
            let item = items.as_ref().map_or(json!("x"), |l| leaf_value(l, seed));
            Value::Array(vec![item; usize::from(seed % 3)])
        }
        Decl::Object(properties, _) => {
            let mut map = Map::new();
            for (name, leaf) in properties.iter().take(usize::from(seed % 3)) {
                map.insert(NAMES[*name].to_string(), leaf_value(leaf, seed));
            }
            Value::Object(map)
        }
        Decl::Deep(leaf) => {
            let row = json!({ "t": leaf_value(leaf, seed) });
            json!({ "rows": vec![row; 1 + usize::from(seed % 2)] })
        }
        Decl::TypeList(types) | Decl::Union(types, _) if !types.is_empty() => {
            typed_value(TYPE_NAMES[types[usize::from(seed) % types.len()]])
        }
        other => typed_value(main_type(other)),
    }
}

fn typed_value(name: &str) -> Value {
    match name {
        "array" => json!(["x", 1]),
        "object" => json!({"k": "v"}),
        "string" => json!("s"),
        "null" => Value::Null,
        "integer" => json!(2),
        "number" => json!(2.5),
        "boolean" => json!(true),
        _ => json!("any"),
    }
}

fn item_value(item: &Item) -> Value {
    match item {
        Item::Text(pieces) => Value::String(text(pieces)),
        Item::Number(i) => number(*i),
        Item::Nested(map) => Value::String(if *map { r#"{"n":1}"#.into() } else { "[1,2]".into() }),
    }
}

/// JSON text of items: a list, or a map keyed `k0`, `k1`, … (`k&amp;1` for the second key, so
/// keys inside decoded text hold a reference), broken in one of a few ways models break it.
fn json_text(items: &[Item], map: bool, broken: u8) -> String {
    let value = if map {
        let mut m = Map::new();
        for (i, item) in items.iter().enumerate() {
            let key = if i == 1 { "k&amp;1".to_string() } else { format!("k{i}") };
            m.insert(key, item_value(item));
        }
        Value::Object(m)
    } else {
        Value::Array(items.iter().map(item_value).collect())
    };
    let text = serde_json::to_string(&value).unwrap_or_default();
    match broken {
        0 => text,
        1 => format!(" \n{text}\t"),
        2 => {
            // A trailing comma.
            let mut t = text;
            let close = t.pop().unwrap_or(']');
            format!("{t},{close}")
        }
        3 => text.replace('"', "'"),
        4 => text[..text.len().saturating_sub(1)].to_string(),
        5 => format!("{text} x"),
        6 => text.replace('"', "&quot;").replace('[', "&#91;"),
        7 => format!("\u{a0}{text}"),
        // What some parsers accept beyond RFC 8259: NaN and the infinities.
        8..=10 => {
            let token = ["NaN", "Infinity", "-Infinity"][usize::from(broken - 8)];
            let member = if map { format!("\"n\":{token}") } else { token.to_string() };
            let inner = &text[1..text.len() - 1];
            let (open, close) = (&text[..1], &text[text.len() - 1..]);
            if inner.is_empty() { format!("{open}{member}{close}") } else { format!("{open}{member},{inner}{close}") }
        }
        // A duplicate name, first spelled one way then another value.
        11 => {
            let inner = &text[1..text.len() - 1];
            let pair = "\"d\":1,\"d\":2";
            if map {
                if inner.is_empty() { format!("{{{pair}}}") } else { format!("{{{pair},{inner}}}") }
            } else if inner.is_empty() {
                format!("[{{{pair}}}]")
            } else {
                format!("[{{{pair}}},{inner}]")
            }
        }
        // A number with an exponent beyond a double's range.
        _ => {
            let inner = &text[1..text.len() - 1];
            let member = if map { "\"e\":1e400" } else { "1e400" };
            let (open, close) = (&text[..1], &text[text.len() - 1..]);
            if inner.is_empty() { format!("{open}{member}{close}") } else { format!("{open}{member},{inner}{close}") }
        }
    }
}

fn wrong_value(decl: &Decl, seed: u8) -> Value {
    let candidates = [json!("10"), json!(10), json!(true), json!(["x"]), json!({"x": 1}), json!("true"), json!(1.5)];
    let main = main_type(decl);
    let fits = |v: &Value| match (main, v) {
        ("string", Value::String(_)) => true,
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
        ("number", Value::Number(_)) => true,
        ("boolean", Value::Bool(_)) => true,
        ("array", Value::Array(_)) => true,
        ("object", Value::Object(_)) => true,
        _ => false,
    };
    let start = usize::from(seed) % candidates.len();
    (0..candidates.len())
        .map(|i| &candidates[(start + i) % candidates.len()])
        .find(|v| !fits(v))
        .cloned()
        .unwrap_or(Value::Null)
}

fn sent_value(decl: Option<&Decl>, sent: &Sent) -> Value {
    let untyped = Decl::Leaf(Leaf::Untyped);
    let decl = decl.unwrap_or(&untyped);
    match sent {
        Sent::Valid(seed) => valid_value(decl, *seed),
        Sent::Text(pieces) => Value::String(text(pieces)),
        Sent::JsonText(items, other_shape, broken) => {
            let map = (main_type(decl) == "object") != *other_shape;
            Value::String(json_text(items, map, *broken))
        }
        Sent::WrongType(seed) => wrong_value(decl, *seed),
        Sent::Number(i) => number(*i),
        Sent::Literal(i) => Value::String(LITERALS[*i].to_string()),
        Sent::Null => Value::Null,
        Sent::Deep(pieces) => json!({ "rows": [{ "t": text(pieces) }] }),
    }
}

impl Raw {
    /// The schema and the call this data stands for.
    pub fn build(&self) -> Generated {
        let mut properties = Map::new();
        let mut required: Vec<Value> = Vec::new();
        let mut arguments = Map::new();
        let mut defs = Map::new();
        let mut declared: Vec<(&str, &Param)> = Vec::new();
        for param in &self.params {
            let name = NAMES[param.name];
            if properties.contains_key(name) {
                continue;
            }
            let mut schema = decl_schema(&param.decl, &mut defs);
            if let Value::Object(map) = &mut schema {
                let (default, annotated, keyword) = param.extras;
                if default {
                    map.insert("default".into(), valid_value(&param.decl, 1));
                }
                if annotated {
                    map.insert("description".into(), json!(format!("the {name}")));
                }
                match keyword {
                    1 => map.insert("maxLength".into(), json!(8)),
                    2 => map.insert("maximum".into(), json!(100)),
                    3 => map.insert("pattern".into(), json!("^[a-z]")),
                    _ => None,
                };
            }
            let schema = respelled(schema, param.spelling, &format!("p{}", param.name), &mut defs);
            properties.insert(name.to_string(), schema);
            if param.required {
                required.push(json!(name));
            }
            match (&param.sent, self.valid) {
                (Some(Sent::Valid(seed)), true) | (Some(Sent::WrongType(seed)), true) => {
                    arguments.insert(name.to_string(), valid_value(&param.decl, *seed));
                }
                (Some(_), true) => {
                    arguments.insert(name.to_string(), valid_value(&param.decl, param.name as u8));
                }
                (Some(sent), false) => {
                    arguments.insert(name.to_string(), sent_value(Some(&param.decl), sent));
                }
                (None, _) => {}
            }
            declared.push((name, param));
        }
        for (name, sent) in self.unknown.iter().filter(|_| !self.valid) {
            let name = NAMES[*name];
            if !properties.contains_key(name) && !arguments.contains_key(name) {
                arguments.insert(name.to_string(), sent_value(None, sent));
            }
        }
        let mut schema = Map::new();
        schema.insert("type".into(), json!("object"));
        schema.insert("properties".into(), Value::Object(properties));
        if let Some(name) = self.undeclared_required {
            let name = NAMES[name];
            if !required.iter().any(|r| r == name) && !declared.iter().any(|(n, _)| *n == name) {
                required.push(json!(name));
            }
        }
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        if let Some((sets, one)) = &self.alternatives {
            let names: Vec<&str> = declared.iter().map(|(n, _)| *n).collect();
            if !names.is_empty() {
                let branches: Vec<Value> = sets
                    .iter()
                    .map(|set| {
                        let mut picked: Vec<&str> = set.iter().map(|i| names[i % names.len()]).collect();
                        picked.dedup();
                        json!({ "required": picked })
                    })
                    .collect();
                schema.insert((if *one { "oneOf" } else { "anyOf" }).into(), Value::Array(branches));
            }
        }
        match self.additional {
            1 => {
                schema.insert("additionalProperties".into(), Value::Bool(true));
            }
            2 => {
                schema.insert("additionalProperties".into(), Value::Bool(false));
            }
            3 => {
                schema.insert("additionalProperties".into(), json!({"type": "integer"}));
            }
            _ => {}
        }
        if !defs.is_empty() {
            schema.insert("$defs".into(), Value::Object(defs));
        }
        let object = Value::Object(arguments);
        let arguments = match self.root {
            0 => object,
            1 => json!([object]),
            2 => json!("x"),
            3 => json!(1),
            4 => json!(true),
            5 => Value::Null,
            _ => Value::String(serde_json::to_string(&object).unwrap_or_default()),
        };
        let transports = if self.transports == 0 {
            Transport::ALL.to_vec()
        } else {
            Transport::ALL
                .iter()
                .enumerate()
                .filter(|(i, _)| self.transports & (1 << i) != 0)
                .map(|(_, t)| *t)
                .collect()
        };
        Generated { kind: self.kind, schema: Value::Object(schema), arguments, transports }
    }
}

/// A number parsed from JSON text, for the edges above.
pub fn edge_number(index: usize) -> Option<Number> {
    match number(index) {
        Value::Number(n) => Some(n),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    #[test]
    fn the_same_seed_gives_the_same_cases() {
        let draw = |seed: u8| {
            let mut runner =
                TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]));
            (0..50).map(|_| raw().new_tree(&mut runner).unwrap().current().build()).collect::<Vec<_>>()
        };
        assert_eq!(draw(1), draw(1));
        assert_ne!(draw(1), draw(2));
    }

    #[test]
    fn every_number_edge_parses() {
        for (i, text) in NUMBERS.iter().enumerate() {
            assert!(edge_number(i).is_some(), "{text}");
        }
    }
}
