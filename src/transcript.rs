//! The wire log: every request sent to an implementation reached over the protocol, with what came
//! back and how long it took, kept per case.
//!
//! A [`WireLog`] is shared between a [`crate::remote::Remote`], which records each exchange, and
//! whoever runs the cases ([`crate::jobs`]), which marks where a case begins and takes its
//! exchanges when it ends: for `--transcript` (every exchange, with timing) and for the reports of
//! a failing case (the exchange that led to it, without timing so reports stay deterministic, and
//! bounded in size).

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
    /// The last exchanges of the current case.
    case: Vec<Exchange>,
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

    /// Records one exchange.
    pub fn record(&self, exchange: Exchange) {
        self.with(|state| {
            if let Some(full) = &mut state.full {
                full.push(exchange.clone());
            }
            if state.case.len() == KEPT_FOR_REPORTS {
                state.case.remove(0);
            }
            state.case.push(exchange);
        });
    }

    /// Marks the start of a case: the exchanges kept for reports start afresh.
    pub fn begin_case(&self) {
        self.with(|state| state.case.clear());
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

/// The exchanges as `--transcript` prints them: each request and response with its round-trip
/// time.
pub fn render(title: &str, exchanges: &[Exchange]) -> String {
    let mut out = format!("--- {title}\n");
    if exchanges.is_empty() {
        out.push_str("  (nothing exchanged)\n");
    }
    for exchange in exchanges {
        let millis = exchange.elapsed.as_secs_f64() * 1000.0;
        out.push_str(&format!("> {}\n", truncate(&exchange.sent, TRANSCRIPT_MESSAGE_CHARS)));
        match &exchange.received {
            Received::Response(text) => {
                out.push_str(&format!("< {}  [{millis:.2} ms]\n", truncate(text, TRANSCRIPT_MESSAGE_CHARS)))
            }
            Received::Nothing(why) => out.push_str(&format!("! {why}  [{millis:.2} ms]\n")),
        }
    }
    out
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
            log.record(exchange(n));
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
    fn renders_with_and_without_timing() {
        assert_eq!(report_lines(&[exchange(1)]), vec!["> {\"seq\":1}", "< {\"seq\":1}"]);
        assert_eq!(render("case", &[exchange(1)]), "--- case\n> {\"seq\":1}\n< {\"seq\":1}  [1.50 ms]\n");
        assert_eq!(truncate("abcdef", 3), "abc… (6 bytes in all)");
        assert_eq!(truncate("abc", 3), "abc");
    }
}
