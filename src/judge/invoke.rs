//! An invoke case judged: what each claimed transport answered, against what the case expects;
//! for a rejection under the one-error contract, also the first call repeated and with its keys
//! reversed; and the checks beyond the text ([`READING_CHECKS`]), reported apart.

use crate::case::checks::CheckKind;
use crate::case::tool::Transport;
use crate::case::{Expect, InvokeExpectation, Problem, Rejections, derived_expected_fields};
use crate::json::compare::{order, same};
use crate::judge::outcome::{CheckResult, Failure, Observation, ReadingCheck, Status};
use crate::peer::Invocation;
use serde_json::{Map, Value, json};

/// The checks the runner makes beyond what the rule text forces, by name, with what each holds an
/// implementation to. Each is a reading of `docs/interpretations.md` ("Checks beyond the text"),
/// reported apart and never deciding a case's status.
pub const READING_CHECKS: [(&str, &str); 6] = [
    ("message-names-fields", "the error's message mentions every problem's field and every expected field"),
    ("message-points-to-get-api-spec", "the error's message mentions get_api_spec, on every transport"),
    (
        "expected-fields-exact",
        "expected_fields is exactly every declared root property plus the names the root and its anyOf/oneOf \
         branches require (or the case's own list)",
    ),
    ("same-error-whatever-key-order", "the same arguments with their keys in reverse order give the identical error"),
    ("same-error-on-every-transport", "every claimed transport gives the identical error"),
    (
        NON_OBJECT_ROOT,
        "a root that is not an object gets the one error of the rule's problem classes: the case's problems (one \
         wrong_type with no field), the expected fields listed, on HTTP the pointer, the same error again",
    ),
];

/// The reading check of a required case whose arguments are not an object: what its rejection's
/// error holds beyond the rejection itself ([`crate::case::checks::rejection_only`]).
pub(crate) const NON_OBJECT_ROOT: &str = "non-object-root-gets-the-one-error";

/// What the invokes of a case came to against `expect`, for the tool of `schema`, with the checks
/// beyond the text when its own passed, and each required check it made. `calls` holds one call
/// per claimed transport, in the case's order; `rechecks`, for a rejection the session asked again
/// ([`wants_rechecks`]), the first call repeated and with its keys reversed. The case's status is
/// its first failing check (in [`CheckKind::ALL`] order), else a skip when some check could not be
/// seen, else a pass. With `rejection_only` (a required case whose arguments are not an object,
/// [`crate::case::checks::rejection_only`]) the status is the handler check's alone, and the
/// other checks of the rejection are the reading check `non-object-root-gets-the-one-error`.
pub(crate) fn judge(
    schema: &Value,
    expect: &Expect<InvokeExpectation>,
    rejections: Rejections,
    calls: &[(Transport, Invocation)],
    rechecks: Option<&(Invocation, Invocation)>,
    pointer: &str,
    rejection_only: bool,
) -> (Status, Vec<ReadingCheck>, Vec<(CheckKind, CheckResult)>) {
    let Some((_, first)) = calls.first() else {
        return (
            Status::NotApplicable { reason: "no transport of the case is claimed".into() },
            Vec::new(),
            Vec::new(),
        );
    };
    let calls = Calls { calls, rechecks, schema, contract: ErrorContract::of(rejections), pointer };
    match expect {
        Expect::One(expected) => {
            let (checks, beyond): (Vec<_>, Vec<_>) = calls
                .judge(expected)
                .into_iter()
                .partition(|(kind, _)| !rejection_only || *kind == CheckKind::HandlerNotRun);
            let made = checks
                .iter()
                .map(|(kind, result)| {
                    let result = match result {
                        Ok(Judged::InFull) => CheckResult::Pass,
                        Ok(Judged::NotObservable) => CheckResult::NotObservable,
                        Err(_) => CheckResult::Fail,
                    };
                    (*kind, result)
                })
                .collect();
            let mut failures = checks.into_iter().filter_map(|(_, result)| result.err());
            if let Some(failure) = failures.next() {
                return (Status::Fail(*failure), Vec::new(), made);
            }
            if made.iter().any(|(_, result)| *result == CheckResult::NotObservable) {
                return (Status::Skip { reason: NOT_OBSERVABLE.into() }, Vec::new(), made);
            }
            if !rejection_only {
                return (Status::Pass, calls.readings(expected), made);
            }
            // The rest of the rejection, held apart: a reading when all of it could be seen.
            let seen_in_full = beyond.iter().all(|(_, result)| !matches!(result, Ok(Judged::NotObservable)));
            let failure = beyond.into_iter().find_map(|(_, result)| result.err());
            let readings = match failure {
                Some(failure) => vec![ReadingCheck { check: NON_OBJECT_ROOT.into(), failure: Some(*failure) }],
                None if seen_in_full => {
                    let mut readings = calls.readings(expected);
                    readings.push(ReadingCheck { check: NON_OBJECT_ROOT.into(), failure: None });
                    readings
                }
                None => Vec::new(),
            };
            (Status::Pass, readings, made)
        }
        Expect::Behaviours(behaviours) => (
            Status::Observed(Observation {
                behaviour: behaviours
                    .iter()
                    .find(|(_, e)| calls.judge(e).iter().all(|(_, result)| matches!(result, Ok(Judged::InFull))))
                    .map(|(name, _)| name.clone()),
                actual: view(first),
            }),
            Vec::new(),
            Vec::new(),
        ),
    }
}

/// Why a case whose rejection carries no structured problems is skipped: what MCP shows of it
/// passed, and the rest cannot be seen.
pub const NOT_OBSERVABLE: &str = "not observable over MCP: the error carries no structured problems, so what \
     it names cannot be judged (what MCP shows of it passed); an implementation that carries the protocol-v1 error \
     object by the structured-error convention of docs/protocol.md (as the structuredContent of the isError result, \
     or as the data of the JSON-RPC error; through an HTTP bridge, as the body of its refusal) is judged in full";

/// How far the required checks of a case could see, when none failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Judged {
    /// Every check was made.
    InFull,
    /// Some rejection carried no structured problems ([`Invocation::RejectedUnstructured`]):
    /// what it shows passed, and the problem checks could not be made.
    NotObservable,
}

/// Whether a case of a rule with `rejections` whose calls came back as `calls` is judged on the
/// first call repeated and with its keys reversed too: a rejection under the one-error contract.
pub(crate) fn wants_rechecks(rejections: Rejections, calls: &[(Transport, Invocation)]) -> bool {
    ErrorContract::of(rejections) == ErrorContract::OneError
        && calls.iter().any(|(_, i)| matches!(i, Invocation::Rejected { .. }))
}

/// What the invokes of one case returned.
struct Calls<'a> {
    /// One call per claimed transport of the case, in the case's order.
    calls: &'a [(Transport, Invocation)],
    /// For a rejection: the first call repeated, and with its keys reversed.
    rechecks: Option<&'a (Invocation, Invocation)>,
    /// The tool's registered schema.
    schema: &'a Value,
    /// What a rejection is held to.
    contract: ErrorContract,
    /// What an HTTP error contains to point back to get_api_spec (`Implementation::spec_pointer`).
    pointer: &'a str,
}

/// What the runner checks of a rejection beyond what the case names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ErrorContract {
    /// A case of a rule with `rejections: one-error` (PLAT-162): the error is the one error
    /// its one-error clause asks for. It has a message, problems and expected fields; the message
    /// mentions get_api_spec, every problem's field and every expected field; the same call
    /// repeated, with its keys reversed, and on every transport gives the identical error.
    OneError,
    /// A case of a rule with `rejections: problems` (RT-TOOL-8 says nothing of errors): the call
    /// is rejected before the handler with exactly the problems the case names, which show what
    /// validation saw.
    Problems,
}

impl ErrorContract {
    fn of(rejections: Rejections) -> ErrorContract {
        match rejections {
            Rejections::OneError => ErrorContract::OneError,
            Rejections::Problems => ErrorContract::Problems,
        }
    }
}

impl Calls<'_> {
    /// The case's required checks, each with its first failure or how far it could see, in
    /// [`CheckKind::ALL`] order.
    fn judge(&self, expected: &InvokeExpectation) -> Vec<(CheckKind, Checked)> {
        match expected {
            InvokeExpectation::Executed { received } => {
                let want = json!({ "outcome": "executed", "handler_calls": 1, "received": received });
                let ran = self.calls.iter().find_map(|(transport, invocation)| {
                    let got = view(invocation);
                    (!same(&want, &got)).then(|| fail::<()>(format!("invoke on {transport}"), want.clone(), got))
                });
                vec![(CheckKind::RanAsSent, ran.map_or(Ok(Judged::InFull), |f| f.map(|()| Judged::InFull)))]
            }
            InvokeExpectation::Rejected { problems, problems_at_least, expected_fields } => {
                let bounds = FieldBounds::of(self.schema, expected_fields.as_deref());
                let one_error = self.contract == ErrorContract::OneError;
                let mut handler: Checked = Ok(Judged::InFull);
                let mut named: Checked = Ok(Judged::InFull);
                let mut fields: Checked = Ok(Judged::InFull);
                let mut points: Option<Checked> = None;
                for (transport, invocation) in self.calls {
                    let is_http = *transport == Transport::Http;
                    let pointed = match invocation {
                        Invocation::Rejected { handler_calls: 0, error } => {
                            keep_first(&mut named, || {
                                check_problems(*transport, error, problems, *problems_at_least, self.contract)
                            });
                            keep_first(&mut fields, || check_fields(*transport, error, &bounds));
                            points_to_spec(*transport, error, self.pointer)
                        }
                        Invocation::RejectedUnstructured { handler_calls: 0, message } => {
                            keep_first(&mut named, || Ok(Judged::NotObservable));
                            keep_first(&mut fields, || Ok(Judged::NotObservable));
                            if message.contains(self.pointer) {
                                Ok(Judged::InFull)
                            } else {
                                fail(
                                    format!("the error on {transport} points to {}", self.pointer),
                                    json!({ "mentions": self.pointer }),
                                    json!({ "message": message }),
                                )
                            }
                        }
                        _ => {
                            let failure = ran_instead(*transport, invocation);
                            keep_first(&mut handler, || Err(failure.clone()));
                            keep_first(&mut named, || Err(failure.clone()));
                            keep_first(&mut fields, || Err(failure.clone()));
                            Err(failure)
                        }
                    };
                    if is_http {
                        let slot = points.get_or_insert(Ok(Judged::InFull));
                        keep_first(slot, || pointed);
                    }
                }
                let mut checks = vec![(CheckKind::HandlerNotRun, handler), (CheckKind::ProblemsNamed, named)];
                if one_error {
                    checks.push((CheckKind::FieldsListed, fields));
                    if let Some(points) = points {
                        checks.push((CheckKind::PointsToSchema, points));
                    }
                    checks.push((CheckKind::SameError, self.same_error(&bounds)));
                }
                checks
            }
        }
    }

    /// Check [`CheckKind::SameError`]: the first call repeated gives the identical error, and with
    /// its keys reversed it is rejected before the handler with the same problems, and expected
    /// fields within what the text forces. Not observable when the session did not ask again
    /// because no call was rejected with structured problems.
    fn same_error(&self, bounds: &FieldBounds) -> Checked {
        let (first_transport, first) = &self.calls[0];
        let Some((repeated, permuted)) = &self.rechecks else {
            return match first {
                Invocation::RejectedUnstructured { handler_calls: 0, .. } => Ok(Judged::NotObservable),
                _ => Err(ran_instead(*first_transport, first)),
            };
        };
        let (first_error, got) = (view(first), view(repeated));
        if !same(&first_error, &got) {
            return fail(format!("the same call repeated on {first_transport}"), first_error, got);
        }
        let reversed = |mut failure: Box<Failure>| {
            failure.check = format!("{}, with the keys in reverse order", failure.check);
            failure
        };
        match (first, permuted) {
            (
                Invocation::Rejected { handler_calls: 0, error },
                Invocation::Rejected { handler_calls: 0, error: again },
            ) => {
                let with_alternatives = error
                    .get("problems")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .any(|p| p.get("alternatives").is_some());
                let problems_of = |e: &Value| {
                    canonical_problems(
                        e.get("problems").and_then(Value::as_array).into_iter().flatten().cloned(),
                        with_alternatives,
                    )
                };
                let (want, got) = (problems_of(error), problems_of(again));
                if !same(&want, &got) {
                    return Err(reversed(Box::new(Failure::new(
                        format!("problems named on {first_transport}"),
                        want,
                        got,
                    ))));
                }
                check_fields(*first_transport, again, bounds).map_err(reversed)
            }
            (
                Invocation::RejectedUnstructured { handler_calls: 0, .. },
                Invocation::RejectedUnstructured { handler_calls: 0, .. },
            ) => Ok(Judged::InFull),
            (
                Invocation::Rejected { handler_calls: 0, .. }
                | Invocation::RejectedUnstructured { handler_calls: 0, .. },
                _,
            ) => Err(reversed(ran_instead(*first_transport, permuted))),
            _ => Err(ran_instead(*first_transport, first)),
        }
    }

    /// The checks beyond the text, for a case whose required checks passed: none unless the
    /// calls were rejected under the one-error contract.
    fn readings(&self, expected: &InvokeExpectation) -> Vec<ReadingCheck> {
        let InvokeExpectation::Rejected { problems, expected_fields, .. } = expected else {
            return Vec::new();
        };
        if self.contract != ErrorContract::OneError {
            return Vec::new();
        }
        let fields = expected_fields.clone().unwrap_or_else(|| derived_expected_fields(self.schema));
        let reading = |check: &str, failure: Option<Box<Failure>>| ReadingCheck {
            check: check.to_string(),
            failure: failure.map(|f| *f),
        };
        let first_failure = |each: &ErrorCheck| {
            self.calls.iter().find_map(|(transport, invocation)| each(*transport, &view(invocation)).err())
        };
        let mut checks = vec![
            reading("message-names-fields", first_failure(&|t, e| message_names(t, &e["error"], problems, &fields))),
            reading(
                "message-points-to-get-api-spec",
                first_failure(&|t, e| message_points(t, &e["error"], self.pointer)),
            ),
            reading("expected-fields-exact", first_failure(&|t, e| exact_fields(t, &e["error"], &fields))),
        ];
        let (first_transport, first) = &self.calls[0];
        let first_error = view(first);
        if let Some((_, permuted)) = &self.rechecks {
            let got = view(permuted);
            let failure = (!same(&first_error, &got)).then(|| {
                Box::new(Failure::new(
                    format!("the same call with its keys in reverse order on {first_transport}"),
                    first_error.clone(),
                    got,
                ))
            });
            checks.push(reading("same-error-whatever-key-order", failure));
        }
        if self.calls.len() > 1 {
            let failure = self.calls[1..].iter().find_map(|(transport, invocation)| {
                let got = view(invocation);
                (!same(&first_error, &got)).then(|| {
                    Box::new(Failure::new(
                        format!("error on {transport}, against {first_transport}"),
                        first_error.clone(),
                        got,
                    ))
                })
            });
            checks.push(reading("same-error-on-every-transport", failure));
        }
        checks
    }
}

/// What the rule text forces of a rejection's `expected_fields`, whatever reading of "expected
/// fields" an implementation takes: every root property the schema both declares and requires
/// is listed (`least`), and nothing is listed that the schema does not expect under any reading
/// (`most`: the declared properties, the names the root requires, and the names its anyOf/oneOf
/// branches require, with the case's own list).
pub(crate) struct FieldBounds {
    pub(crate) least: Vec<String>,
    pub(crate) most: Vec<String>,
}

impl FieldBounds {
    pub(crate) fn of(schema: &Value, listed: Option<&[String]>) -> FieldBounds {
        let declared = schema.get("properties").and_then(Value::as_object);
        let required = schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
        let mut least: Vec<String> =
            required.filter(|name| declared.is_some_and(|d| d.contains_key(*name))).map(String::from).collect();
        least.sort();
        least.dedup();
        let mut most = derived_expected_fields(schema);
        most.extend(listed.into_iter().flatten().cloned());
        most.sort();
        most.dedup();
        FieldBounds { least, most }
    }
}

/// One check of one transport's error (the invocation as JSON).
type ErrorCheck<'a> = dyn Fn(Transport, &Value) -> Result<(), Box<Failure>> + 'a;

/// How one check came out: how far it could see, or its first failure.
type Checked = Result<Judged, Box<Failure>>;

/// Keeps the first failure of a check: `slot` is replaced by `next()` unless it already failed,
/// and a check already not observable stays so unless `next()` fails.
fn keep_first(slot: &mut Checked, next: impl FnOnce() -> Checked) {
    if slot.is_err() {
        return;
    }
    let was = slot.as_ref().ok().copied();
    *slot = match (was, next()) {
        (_, Err(failure)) => Err(failure),
        (Some(Judged::NotObservable), Ok(_)) => Ok(Judged::NotObservable),
        (_, ok) => ok,
    };
}

/// The failure of a call that was expected to be rejected before its handler, and was not.
fn ran_instead(transport: Transport, invocation: &Invocation) -> Box<Failure> {
    let got = view(invocation);
    let want = json!({ "outcome": "rejected", "handler_calls": 0 });
    let outcome = match invocation {
        Invocation::RejectedUnstructured { .. } => json!("rejected"),
        _ => got["outcome"].clone(),
    };
    let got = json!({ "outcome": outcome, "handler_calls": got["handler_calls"], "received": got.get("received") });
    Box::new(Failure::new(format!("invoke on {transport}"), want, strip_nulls(got)))
}

/// Check [`CheckKind::ProblemsNamed`] of one rejected call: under the one-error contract the error
/// has a message and problems (otherwise problems), and they are exactly the expected ones (or, with
/// `at_least`, include them).
fn check_problems(
    transport: Transport,
    error: &Value,
    problems: &[Problem],
    at_least: bool,
    contract: ErrorContract,
) -> Checked {
    let message = error.get("message").and_then(Value::as_str);
    let actual_problems = error.get("problems").and_then(Value::as_array);
    let shape = match contract {
        ErrorContract::OneError if message.is_none() || actual_problems.is_none() => {
            Some(json!({ "message": "a string", "problems": "an array of {kind, field?}" }))
        }
        ErrorContract::Problems if actual_problems.is_none() => Some(json!({"problems": "an array of {kind, field?}"})),
        _ => None,
    };
    if let Some(shape) = shape {
        return fail(format!("shape of the error on {transport}"), shape, error.clone());
    }
    let with_alternatives = problems.iter().any(|p| p.alternatives.is_some());
    let want =
        canonical_problems(problems.iter().map(|p| serde_json::to_value(p).unwrap_or(Value::Null)), with_alternatives);
    let got = canonical_problems(actual_problems.into_iter().flatten().cloned(), with_alternatives);
    if at_least {
        let named = |p: &Value| got.as_array().is_some_and(|got| got.iter().any(|g| same(p, g)));
        if want.as_array().is_some_and(|want| want.iter().all(named)) {
            return Ok(Judged::InFull);
        }
        return fail(format!("problems named on {transport} (at least these)"), want, got);
    }
    if !same(&want, &got) {
        return fail(format!("problems named on {transport}"), want, got);
    }
    Ok(Judged::InFull)
}

/// Check [`CheckKind::FieldsListed`] of one rejected call: the error lists its expected fields as
/// strings, every declared property the schema requires among them, and nothing the schema does
/// not expect.
fn check_fields(transport: Transport, error: &Value, bounds: &FieldBounds) -> Checked {
    let Some(actual_fields) =
        error.get("expected_fields").and_then(Value::as_array).filter(|a| a.iter().all(Value::is_string))
    else {
        return fail(
            format!("shape of the error on {transport}"),
            json!({ "expected_fields": "an array of strings" }),
            error.clone(),
        );
    };
    let listed: Vec<&str> = actual_fields.iter().filter_map(Value::as_str).collect();
    let missing: Vec<&str> = bounds.least.iter().map(String::as_str).filter(|f| !listed.contains(f)).collect();
    if !missing.is_empty() {
        return fail(
            format!("expected_fields on {transport}: the declared properties the schema requires are all listed"),
            sorted_strings(bounds.least.iter().map(String::as_str)),
            sorted_strings(listed.iter().copied()),
        );
    }
    let strays: Vec<&str> = listed.iter().copied().filter(|f| !bounds.most.iter().any(|m| m == f)).collect();
    if !strays.is_empty() {
        return fail(
            format!("expected_fields on {transport}: only names the schema expects are listed"),
            sorted_strings(bounds.most.iter().map(String::as_str)),
            sorted_strings(listed.iter().copied()),
        );
    }
    Ok(Judged::InFull)
}

/// Check [`CheckKind::PointsToSchema`] of one rejected call on HTTP: the error mentions
/// get_api_spec (the `pointer` words the implementation declared) in some key or string it holds.
fn points_to_spec(transport: Transport, error: &Value, pointer: &str) -> Checked {
    if mentions(error, pointer) {
        return Ok(Judged::InFull);
    }
    fail(
        format!("the error on {transport} points to {pointer} (in any string it holds)"),
        json!({ "mentions": pointer }),
        error.clone(),
    )
}

/// Whether some key or string anywhere in `value` contains `word`.
fn mentions(value: &Value, word: &str) -> bool {
    match value {
        Value::String(text) => text.contains(word),
        Value::Array(items) => items.iter().any(|v| mentions(v, word)),
        Value::Object(map) => map.iter().any(|(k, v)| k.contains(word) || mentions(v, word)),
        _ => false,
    }
}

/// Reading `message-points-to-get-api-spec`: the message mentions get_api_spec (the `pointer`
/// words), whatever the transport (the text asks it of HTTP callers only, and of the error, not
/// its message).
fn message_points(transport: Transport, error: &Value, pointer: &str) -> Result<(), Box<Failure>> {
    let message = error.get("message").and_then(Value::as_str).unwrap_or_default();
    if message.contains(pointer) {
        return Ok(());
    }
    fail(format!("the message on {transport} mentions {pointer}"), json!(true), json!(false))
}

/// Reading `message-names-fields`: the message mentions every problem's field and every expected
/// field.
fn message_names(
    transport: Transport,
    error: &Value,
    problems: &[Problem],
    fields: &[String],
) -> Result<(), Box<Failure>> {
    let message = error.get("message").and_then(Value::as_str).unwrap_or_default();
    let mut terms: Vec<&str> = Vec::new();
    terms.extend(problems.iter().filter_map(|p| p.field.as_deref()));
    terms.extend(fields.iter().map(String::as_str));
    terms.sort();
    terms.dedup();
    let found: Vec<&str> = terms.iter().copied().filter(|t| message.contains(t)).collect();
    if found.len() == terms.len() {
        return Ok(());
    }
    fail(format!("words the message mentions on {transport} (message: {message:?})"), json!(terms), json!(found))
}

/// Reading `expected-fields-exact`: the error lists exactly the suite's expected fields.
fn exact_fields(transport: Transport, error: &Value, fields: &[String]) -> Result<(), Box<Failure>> {
    let want = sorted_strings(fields.iter().map(String::as_str));
    let listed = error.get("expected_fields").and_then(Value::as_array).into_iter().flatten();
    let got = sorted_strings(listed.filter_map(Value::as_str));
    if same(&want, &got) { Ok(()) } else { fail(format!("expected_fields on {transport}"), want, got) }
}

/// Problems reduced to what cases compare (kind, field, and alternatives when the case gives
/// them), each set sorted, the list sorted.
fn canonical_problems(problems: impl Iterator<Item = Value>, with_alternatives: bool) -> Value {
    let mut out: Vec<Value> = problems
        .map(|problem| {
            let mut kept = Map::new();
            for key in ["kind", "field"] {
                if let Some(value) = problem.get(key).filter(|v| !v.is_null()) {
                    kept.insert(key.into(), value.clone());
                }
            }
            // Only what was sent: a problem without alternatives is shown without them.
            let sent = problem.get("alternatives").and_then(Value::as_array);
            if let Some(sent) =
                sent.filter(|_| with_alternatives && problem.get("kind") == Some(&json!("no_alternative")))
            {
                let mut sets: Vec<Value> = sent.iter().map(|s| sorted_value(s.clone())).collect();
                sets.sort_by(order);
                kept.insert("alternatives".into(), Value::Array(sets));
            }
            if problem.is_object() { Value::Object(kept) } else { problem }
        })
        .collect();
    out.sort_by(order);
    Value::Array(out)
}

fn sorted_value(value: Value) -> Value {
    match value {
        Value::Array(mut items) => {
            items.sort_by(order);
            Value::Array(items)
        }
        other => other,
    }
}

fn sorted_strings<'a>(items: impl Iterator<Item = &'a str>) -> Value {
    let mut items: Vec<&str> = items.collect();
    items.sort();
    json!(items)
}

/// A failed check, boxed (a failure holds two values and is large).
fn fail<T>(check: impl Into<String>, expected: Value, actual: Value) -> Result<T, Box<Failure>> {
    Err(Box::new(Failure::new(check, expected, actual)))
}

/// An invocation as JSON, the way failures show it.
fn view(invocation: &Invocation) -> Value {
    serde_json::to_value(invocation).unwrap_or(Value::Null)
}

fn strip_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(map.into_iter().filter(|(_, v)| !v.is_null()).collect()),
        other => other,
    }
}

/// The same object with its keys in reverse order (other values as they are): the recheck of a
/// rejection asks this.
pub(crate) fn reversed(arguments: &Value) -> Value {
    match arguments {
        Value::Object(map) => Value::Object(map.iter().rev().map(|(k, v)| (k.clone(), v.clone())).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{Expect, InvokeExpectation, Problem, Rejections};

    /// A PLAT-162-like rejection case of a tool with a required `n`.
    fn rejection() -> (Value, Expect<InvokeExpectation>) {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        let problems = vec![Problem { kind: "missing_required".into(), field: Some("n".into()), alternatives: None }];
        (schema, Expect::One(InvokeExpectation::Rejected { problems, problems_at_least: false, expected_fields: None }))
    }

    fn unstructured(handler_calls: u64, message: &str) -> Invocation {
        Invocation::RejectedUnstructured { handler_calls, message: message.into() }
    }

    #[test]
    fn an_error_without_structured_problems_is_skipped_never_passed() {
        let (schema, expect) = rejection();
        let text = "n is required; see get_api_spec";
        let calls = [(Transport::Structured, unstructured(0, text)), (Transport::Http, unstructured(0, text))];
        let rechecks = (unstructured(0, text), unstructured(0, text));
        let (status, readings, _) =
            judge(&schema, &expect, Rejections::OneError, &calls, Some(&rechecks), "get_api_spec", false);
        assert!(matches!(&status, Status::Skip { reason } if reason == NOT_OBSERVABLE), "{status:?}");
        assert!(readings.is_empty(), "nothing beyond the text is judged of what cannot be seen");
        // What MCP shows is still judged: the handler ran...
        let ran = [(Transport::Structured, unstructured(1, text))];
        let (status, _, _) =
            judge(&schema, &expect, Rejections::OneError, &ran, Some(&rechecks), "get_api_spec", false);
        assert!(matches!(&status, Status::Fail(f) if f.check == "invoke on structured"), "{status:?}");
        // ...the same call repeated gave another error...
        let again = (unstructured(0, "n is missing"), unstructured(0, text));
        let (status, _, _) =
            judge(&schema, &expect, Rejections::OneError, &calls[..1], Some(&again), "get_api_spec", false);
        assert!(matches!(&status, Status::Fail(f) if f.check.starts_with("the same call repeated")), "{status:?}");
        // ...with the keys reversed, it was executed...
        let executed = Invocation::Executed { handler_calls: 1, received: json!({}) };
        let reversed_ran = (unstructured(0, text), executed.clone());
        let (status, _, _) =
            judge(&schema, &expect, Rejections::OneError, &calls[..1], Some(&reversed_ran), "get_api_spec", false);
        assert!(matches!(&status, Status::Fail(f) if f.check.ends_with("reverse order")), "{status:?}");
        // ...and on HTTP the error does not point to get_api_spec.
        let http = [(Transport::Http, unstructured(0, "n is required"))];
        let rechecks = (unstructured(0, "n is required"), unstructured(0, "n is required"));
        let (status, _, _) =
            judge(&schema, &expect, Rejections::OneError, &http, Some(&rechecks), "get_api_spec", false);
        assert!(matches!(&status, Status::Fail(f) if f.check.contains("get_api_spec")), "{status:?}");
        // A call expected to run that was rejected fails as any rejection does.
        let runs = Expect::One(InvokeExpectation::Executed { received: json!({"n": 1}) });
        let (status, _, _) = judge(&schema, &runs, Rejections::OneError, &calls[..1], None, "get_api_spec", false);
        assert!(matches!(status, Status::Fail(_)));
    }

    #[test]
    fn an_error_by_the_convention_is_judged_in_full() {
        let (schema, expect) = rejection();
        let error = json!({
            "message": "n is required; see get_api_spec",
            "problems": [{"kind": "missing_required", "field": "n"}],
            "expected_fields": ["n"]
        });
        let rejected = Invocation::Rejected { handler_calls: 0, error };
        let calls = [(Transport::Structured, rejected.clone())];
        let rechecks = (rejected.clone(), rejected);
        let (status, _, _) =
            judge(&schema, &expect, Rejections::OneError, &calls, Some(&rechecks), "get_api_spec", false);
        assert_eq!(status, Status::Pass);
        // One transport without the convention leaves the whole case not observable.
        let mixed = [calls[0].clone(), (Transport::Http, unstructured(0, "see get_api_spec"))];
        let (status, _, _) =
            judge(&schema, &expect, Rejections::OneError, &mixed, Some(&rechecks), "get_api_spec", false);
        assert!(matches!(status, Status::Skip { .. }), "{status:?}");
    }

    /// The result of each check of a judged rejection, by kind.
    fn made(
        calls: &[(Transport, Invocation)],
        rechecks: Option<&(Invocation, Invocation)>,
    ) -> Vec<(&'static str, &'static str)> {
        let (schema, expect) = rejection();
        let (_, _, made) = judge(&schema, &expect, Rejections::OneError, calls, rechecks, "get_api_spec", false);
        made.into_iter().map(|(kind, result)| (kind.as_str(), result.as_str())).collect()
    }

    #[test]
    fn every_check_is_recorded_not_only_the_first_failure() {
        // Rejected before the handler, naming another problem and pointing nowhere: the call
        // still never reached the handler.
        let error =
            json!({"message": "bad", "problems": [{"kind": "wrong_type", "field": "n"}], "expected_fields": ["n"]});
        let rejected = Invocation::Rejected { handler_calls: 0, error };
        let calls = [(Transport::Http, rejected.clone())];
        let rechecks = (rejected.clone(), rejected);
        assert_eq!(
            made(&calls, Some(&rechecks)),
            [
                ("handler-not-run", "pass"),
                ("problems-named", "fail"),
                ("fields-listed", "pass"),
                ("points-to-schema", "fail"),
                ("same-error", "pass")
            ]
        );
        // The handler ran: nothing of the error holds, for there is none.
        let ran = [(Transport::Structured, Invocation::Executed { handler_calls: 1, received: json!({}) })];
        assert_eq!(
            made(&ran, None),
            [
                ("handler-not-run", "fail"),
                ("problems-named", "fail"),
                ("fields-listed", "fail"),
                ("same-error", "fail")
            ]
        );
        // Without structured problems, only what MCP shows is judged; the rest cannot be seen.
        let text = "n is required; see get_api_spec";
        let plain = [(Transport::Http, unstructured(0, text))];
        let again = (unstructured(0, text), unstructured(0, text));
        assert_eq!(
            made(&plain, Some(&again)),
            [
                ("handler-not-run", "pass"),
                ("problems-named", "not_observable"),
                ("fields-listed", "not_observable"),
                ("points-to-schema", "pass"),
                ("same-error", "pass")
            ]
        );
        // The status is the first failing check's failure.
        let (schema, expect) = rejection();
        let (status, _, _) =
            judge(&schema, &expect, Rejections::OneError, &calls, Some(&rechecks), "get_api_spec", false);
        assert!(matches!(&status, Status::Fail(f) if f.check == "problems named on http"), "{status:?}");
    }

    #[test]
    fn a_non_object_root_is_held_to_its_rejection_and_the_rest_is_a_reading() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        let problems = vec![Problem { kind: "wrong_type".into(), field: None, alternatives: None }];
        let expect =
            Expect::One(InvokeExpectation::Rejected { problems, problems_at_least: false, expected_fields: None });
        let judged = |error: Value, only: bool| {
            let rejected = Invocation::Rejected { handler_calls: 0, error };
            let calls = [(Transport::Http, rejected.clone())];
            let rechecks = (rejected.clone(), rejected);
            judge(&schema, &expect, Rejections::OneError, &calls, Some(&rechecks), "get_api_spec", only)
        };
        // Another error: no expected fields, no pointer, a problem of its own.
        let other = json!({"message": "arguments must be an object", "problems": [{"kind": "not_an_object"}]});
        let (status, readings, made) = judged(other.clone(), true);
        assert_eq!(status, Status::Pass);
        assert_eq!(made, [(CheckKind::HandlerNotRun, CheckResult::Pass)]);
        assert_eq!(readings.len(), 1, "{readings:?}");
        assert_eq!(readings[0].check, NON_OBJECT_ROOT);
        assert!(readings[0].failure.as_ref().is_some_and(|f| f.check.starts_with("problems named")));
        // Held to all of it (an interpretation case), the same error fails.
        let (status, readings, _) = judged(other, false);
        assert!(matches!(&status, Status::Fail(f) if f.check.starts_with("problems named")), "{status:?}");
        assert!(readings.is_empty());
        // The one error passes the reading too, and the other readings are made.
        let one = json!({
            "message": "the arguments are not an object; expected n; see get_api_spec",
            "problems": [{"kind": "wrong_type"}],
            "expected_fields": ["n"]
        });
        let (status, readings, _) = judged(one, true);
        assert_eq!(status, Status::Pass);
        assert_eq!(readings.last(), Some(&ReadingCheck { check: NON_OBJECT_ROOT.into(), failure: None }));
        assert!(readings.iter().all(|r| r.failure.is_none()) && readings.len() > 1, "{readings:?}");
        // The handler ran: that still fails the case.
        let ran = [(Transport::Http, Invocation::Executed { handler_calls: 1, received: json!({}) })];
        let (status, _, made) = judge(&schema, &expect, Rejections::OneError, &ran, None, "get_api_spec", true);
        assert!(matches!(&status, Status::Fail(f) if f.check == "invoke on http"), "{status:?}");
        assert_eq!(made, [(CheckKind::HandlerNotRun, CheckResult::Fail)]);
        // An error without structured problems: the rejection passes, and what cannot be seen of
        // the rest is not judged.
        let text = "not an object; see get_api_spec";
        let plain = [(Transport::Http, unstructured(0, text))];
        let again = (unstructured(0, text), unstructured(0, text));
        let (status, readings, _) =
            judge(&schema, &expect, Rejections::OneError, &plain, Some(&again), "get_api_spec", true);
        assert_eq!(status, Status::Pass);
        assert!(readings.is_empty(), "{readings:?}");
    }

    #[test]
    fn a_protocol_answer_never_reads_as_an_unstructured_rejection() {
        let written = r#"{"outcome": "rejected_unstructured", "handler_calls": 0, "message": "no"}"#;
        assert!(crate::json::from_str::<Invocation>(written).is_err());
        let answer = crate::peer::protocol::Answer::from_json(
            crate::peer::protocol::Command::Invoke,
            &crate::json::from_str(
                r#"{"seq": 1, "outcome": "rejected_unstructured", "handler_calls": 0, "message": "no"}"#,
            )
            .unwrap(),
        );
        assert!(answer.is_err(), "{answer:?}");
    }

    #[test]
    fn reversal_reverses_root_keys_only() {
        let args: Value = crate::json::from_str(r#"{"a":1,"b":{"y":1,"x":2},"c":3}"#).unwrap();
        assert_eq!(reversed(&args).to_string(), r#"{"c":3,"b":{"y":1,"x":2},"a":1}"#);
    }

    #[test]
    fn problems_compare_as_sets_of_kind_and_field() {
        let a = canonical_problems(
            vec![
                json!({"kind": "unknown_field", "field": "b", "hint": "x"}),
                json!({"kind": "missing_required", "field": "a"}),
            ]
            .into_iter(),
            false,
        );
        let b = canonical_problems(
            vec![json!({"kind": "missing_required", "field": "a"}), json!({"kind": "unknown_field", "field": "b"})]
                .into_iter(),
            false,
        );
        assert!(same(&a, &b));
        let with = canonical_problems(
            vec![json!({"kind": "no_alternative", "alternatives": [["b"], ["a", "c"]]})].into_iter(),
            true,
        );
        assert_eq!(with, json!([{"kind": "no_alternative", "alternatives": [["a", "c"], ["b"]]}]));
        let unsent = canonical_problems(vec![json!({"kind": "no_alternative"})].into_iter(), true);
        assert_eq!(unsent, json!([{"kind": "no_alternative"}]), "alternatives shown that were never sent");
    }
}
