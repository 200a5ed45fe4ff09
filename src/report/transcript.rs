//! `run --transcript`'s text: each exchange of a part of a run (an instance's start, a case, a
//! stop), the request as sent and what came back, with timing.

use crate::peer::transcript::{Exchange, Received, TRANSCRIPT_MESSAGE_CHARS, truncate};

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
    use std::time::Duration;

    #[test]
    fn each_exchange_with_its_timing() {
        let exchange = Exchange {
            sent: r#"{"seq":1}"#.into(),
            received: Received::Response(r#"{"seq":1}"#.into()),
            elapsed: Duration::from_micros(1500),
        };
        assert_eq!(render("case", &[exchange]), "--- case\n> {\"seq\":1}\n< {\"seq\":1}  [1.50 ms]\n");
        assert_eq!(render("stop", &[]), "--- stop\n  (nothing exchanged)\n");
    }
}
