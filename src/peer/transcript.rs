//! The wire log: every request sent to an implementation reached over the protocol, with what came
//! back and how long it took, kept per case.
//!
//! A [`WireLog`] is shared between a [`crate::peer::remote::Remote`], which records each exchange, and
//! whoever runs the cases ([`crate::run::jobs`]), which marks where a case begins and takes its
//! exchanges when it ends: for `--transcript` (every exchange, with timing) and for the reports of
//! a failing case (the exchange that led to it, without timing so reports stay deterministic, and
//! bounded in size).
//!
//! What is kept for reports is the same whichever instance ran the case and whatever it ran
//! before: the remote records it with each `seq` numbered from the case's first request
//! ([`renumbered`]), leaves out the restart that a break in an earlier case left to this one, and
//! shows a case that uses tools an earlier case registered on the same instance with that
//! registration first ([`WireLog::carry_registration`]), as if it had registered them itself.
//! The transcript (`--transcript`) keeps every exchange as it went over the wire.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How many exchanges of the current case are kept for error reasons and reports (the last ones).
pub const KEPT_FOR_REPORTS: usize = 12;
/// How much of one message a report shows.
pub const REPORT_MESSAGE_CHARS: usize = 400;
/// How much of one message `--transcript` prints.
pub const TRANSCRIPT_MESSAGE_CHARS: usize = 64 * 1024;

/// One request and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    /// The request as sent (JSON text, truncated to [`TRANSCRIPT_MESSAGE_CHARS`]).
    pub sent: String,
    /// The response text, or what happened instead.
    pub received: Received,
    /// From sending the request to having the response (or giving up).
    pub elapsed: Duration,
}

/// What came back for a request.
#[derive(Debug, Clone, PartialEq)]
pub enum Received {
    /// A response (its text, lossily decoded and truncated).
    Response(String),
    /// No usable response: why.
    Nothing(String),
}

/// A log shared by a remote target and its runner (cheap to clone).
#[derive(Debug, Clone, Default)]
pub struct WireLog {
    inner: Arc<Mutex<LogState>>,
}

#[derive(Debug, Default)]
struct LogState {
    /// Every exchange since the last [`WireLog::take`] (only when recording a transcript).
    full: Option<Vec<Exchange>>,
    /// The last exchanges of the current case, numbered from the case's start.
    case: Vec<Exchange>,
    /// How many cases have begun.
    cases: u64,
    /// The registration in effect, numbered as the first exchange of a case.
    registration: Option<Exchange>,
}

impl WireLog {
    /// A log that keeps only the last exchanges of the current case.
    pub fn new() -> WireLog {
        WireLog::default()
    }

    /// A log that also keeps every exchange, for `--transcript`.
    pub fn recording() -> WireLog {
        let log = WireLog::default();
        log.with(|state| state.full = Some(Vec::new()));
        log
    }

    fn with<R>(&self, f: impl FnOnce(&mut LogState) -> R) -> R {
        match self.inner.lock() {
            Ok(mut state) => f(&mut state),
            Err(poisoned) => f(&mut poisoned.into_inner()),
        }
    }

    /// Records one exchange: `wire` as it went (for the transcript, made only when one is
    /// recorded) and, unless `None`, `case` as the case's reports show it.
    pub fn record(&self, wire: impl FnOnce() -> Exchange, case: Option<Exchange>) {
        self.with(|state| {
            if let Some(full) = &mut state.full {
                full.push(wire());
            }
            if let Some(case) = case {
                push_bounded(&mut state.case, case);
            }
        });
    }

    /// Marks the start of a case: the exchanges kept for reports start afresh.
    pub fn begin_case(&self) {
        self.with(|state| {
            state.case.clear();
            state.cases += 1;
        });
    }

    /// How many cases have begun: a remote that sees it change knows a new case began.
    pub fn cases_begun(&self) -> u64 {
        self.with(|state| state.cases)
    }

    /// Sets the registration in effect (the register exchange, numbered as a case's first), or
    /// clears it.
    pub fn set_registration(&self, registration: Option<Exchange>) {
        self.with(|state| state.registration = registration);
    }

    /// Puts the registration in effect first among the current case's exchanges, for a case
    /// that uses tools an earlier case registered; `false` (and nothing done) when there is none
    /// or the case has exchanges already.
    pub fn carry_registration(&self) -> bool {
        self.with(|state| match (&state.registration, state.case.is_empty()) {
            (Some(registration), true) => {
                state.case.push(registration.clone());
                true
            }
            _ => false,
        })
    }

    /// The last exchanges of the current case.
    pub fn current_case(&self) -> Vec<Exchange> {
        self.with(|state| state.case.clone())
    }

    /// Every exchange recorded since the last call (empty unless [`WireLog::recording`]).
    pub fn take(&self) -> Vec<Exchange> {
        self.with(|state| state.full.as_mut().map(std::mem::take).unwrap_or_default())
    }
}

fn push_bounded(case: &mut Vec<Exchange>, exchange: Exchange) {
    if case.len() == KEPT_FOR_REPORTS {
        case.remove(0);
    }
    case.push(exchange);
}

/// `text` (a protocol message, or what came back for one) with the integer value of its
/// top-level `seq` member made relative: `seq - base`, which is negative for a seq before
/// `base`. Any other text is returned as it is: what has no top-level integer `seq`, or is not
/// enough of a JSON object to find one.
pub fn renumbered(text: &str, base: u64) -> Cow<'_, str> {
    let Some(span) = top_level_member(text, "seq") else {
        return Cow::Borrowed(text);
    };
    let raw = &text[span.clone()];
    let start = span.start + (raw.len() - raw.trim_start().len());
    let end = span.end - (raw.len() - raw.trim_end().len());
    let Ok(seq) = text[start..end].parse::<u64>() else {
        return Cow::Borrowed(text);
    };
    let relative = i128::from(seq) - i128::from(base);
    Cow::Owned(format!("{}{relative}{}", &text[..start], &text[end..]))
}

/// Where the value of the top-level member `name` of the JSON object `text` is, found without
/// parsing the rest (so it works on a truncated or malformed message up to that member).
fn top_level_member(text: &str, name: &str) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    at += 1;
    loop {
        let key_start = skip_space(bytes, at);
        let key_end = string_end(bytes, key_start)?;
        let colon = skip_space(bytes, key_end);
        if bytes.get(colon) != Some(&b':') {
            return None;
        }
        let value_start = colon + 1;
        let value_end = value_end(bytes, value_start)?;
        if text.get(key_start + 1..key_end - 1) == Some(name) {
            return Some(value_start..value_end);
        }
        at = skip_space(bytes, value_end);
        if bytes.get(at) != Some(&b',') {
            return None;
        }
        at += 1;
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The end (past the closing quote) of the JSON string starting at `at`.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut at = at + 1;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

/// The end of the JSON value starting at `at` (leading space included): past a string or a
/// closing bracket, or at the `,` or `}` after a scalar.
fn value_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 0usize;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => {
                at = string_end(bytes, at)?;
                if depth == 0 {
                    return Some(at);
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return Some(at),
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            b',' if depth == 0 => return Some(at),
            _ => {}
        }
        at += 1;
    }
    (depth == 0).then_some(at)
}

/// Text cut to at most `max` characters, saying how long it was.
pub fn truncate(text: &str, max: usize) -> String {
    if text.len() <= max {
        // No more characters than bytes: nothing to cut, and no need to count.
        return text.to_string();
    }
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}… ({} bytes in all)", &text[..at], text.len()),
    }
}

/// The exchanges as report lines: `> request` and `< response` (or `! what happened`), each
/// bounded, without timing.
pub fn report_lines(exchanges: &[Exchange]) -> Vec<String> {
    let mut lines = Vec::with_capacity(exchanges.len() * 2);
    for exchange in exchanges {
        lines.push(format!("> {}", truncate(&exchange.sent, REPORT_MESSAGE_CHARS)));
        lines.push(match &exchange.received {
            Received::Response(text) => format!("< {}", truncate(text, REPORT_MESSAGE_CHARS)),
            Received::Nothing(why) => format!("! {}", truncate(why, REPORT_MESSAGE_CHARS)),
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exchange(n: usize) -> Exchange {
        Exchange {
            sent: format!("{{\"seq\":{n}}}"),
            received: Received::Response(format!("{{\"seq\":{n}}}")),
            elapsed: Duration::from_micros(1500),
        }
    }

    #[test]
    fn keeps_the_last_exchanges_of_a_case_and_everything_when_recording() {
        let log = WireLog::recording();
        for n in 0..(KEPT_FOR_REPORTS + 3) {
            log.record(|| exchange(n), Some(exchange(n)));
        }
        let case = log.current_case();
        assert_eq!(case.len(), KEPT_FOR_REPORTS);
        assert_eq!(case[0], exchange(3));
        assert_eq!(log.take().len(), KEPT_FOR_REPORTS + 3);
        assert!(log.take().is_empty());
        log.begin_case();
        assert!(log.current_case().is_empty());
        assert!(WireLog::new().take().is_empty());
    }

    #[test]
    fn a_registration_is_carried_only_to_a_case_with_no_exchange_yet() {
        let log = WireLog::new();
        assert!(!log.carry_registration());
        log.set_registration(Some(exchange(0)));
        log.begin_case();
        assert_eq!(log.cases_begun(), 1);
        assert!(log.carry_registration());
        assert!(!log.carry_registration());
        assert_eq!(log.current_case(), vec![exchange(0)]);
        log.begin_case();
        log.record(|| exchange(7), None);
        assert!(log.current_case().is_empty(), "recorded for the transcript only");
        log.record(|| exchange(8), Some(exchange(1)));
        assert!(!log.carry_registration());
        assert_eq!(log.current_case(), vec![exchange(1)]);
    }

    #[test]
    fn only_the_top_level_seq_is_renumbered() {
        assert_eq!(
            renumbered(r#"{"cmd":"start","seq":40,"protocol":1}"#, 38),
            r#"{"cmd":"start","seq":2,"protocol":1}"#
        );
        assert_eq!(
            renumbered(r#"{ "arguments": {"seq": 41, "s": "\"seq\":41"}, "seq" : 41 }"#, 40),
            r#"{ "arguments": {"seq": 41, "s": "\"seq\":41"}, "seq" : 1 }"#
        );
        assert_eq!(renumbered(r#"{"a":[1,{"seq":3}],"seq":3}"#, 5), r#"{"a":[1,{"seq":3}],"seq":-2}"#);
        assert_eq!(
            renumbered(r#"{"seq":7,"arguments":"x… (99 bytes in all)"#, 7),
            r#"{"seq":0,"arguments":"x… (99 bytes in all)"#
        );
        for unchanged in [
            "this is not JSON",
            r#"{"seq":null}"#,
            r#"{"seq":-1}"#,
            r#"{"a":1}"#,
            r#"[{"seq":1}]"#,
            r#"{"a" 1,"seq":1}"#,
        ] {
            assert_eq!(renumbered(unchanged, 1), unchanged);
        }
    }

    #[test]
    fn report_lines_have_no_timing_and_long_messages_are_cut() {
        assert_eq!(report_lines(&[exchange(1)]), vec!["> {\"seq\":1}", "< {\"seq\":1}"]);
        assert_eq!(truncate("abcdef", 3), "abc… (6 bytes in all)");
        assert_eq!(truncate("abc", 3), "abc");
    }
}
