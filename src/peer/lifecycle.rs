//! Where an implementation the harness reaches stands between two commands (not started yet, up,
//! broken and due for a restart, or past restarting), and the restart budget `--restarts` sets:
//! one account that the protocol-v1 target ([`crate::peer::remote`]) and the MCP target
//! (`peer::mcp`) both keep, so that both count restarts, and give up, in the same words.

use crate::peer::TargetError;

/// What a target knows of its implementation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum State {
    /// `start` has not succeeded yet.
    NotStarted,
    /// Running and in step.
    Up,
    /// Broke (the reason, in one line); restarted before the next command.
    NeedsRestart(String),
    /// Can no longer be started (why).
    Dead(String),
}

/// A target's state and how many times it was restarted.
#[derive(Debug)]
pub(crate) struct Lifecycle {
    /// Where the implementation stands.
    pub state: State,
    /// Restarts made so far in the run.
    pub restarts: u32,
}

impl Lifecycle {
    /// An implementation not started yet, with no restart made.
    pub(crate) fn new() -> Lifecycle {
        Lifecycle { state: State::NotStarted, restarts: 0 }
    }

    /// Before a command: `Ok(None)` when the implementation is up; `Ok(Some(why it broke))` when
    /// a restart is due and within `limit` (counted here, so the caller restarts it now); an
    /// error when it was never started, can no longer be started, or has used up its restarts
    /// (it is then past restarting, with the reason every later command gets).
    pub(crate) fn restart_due(&mut self, limit: u32) -> Result<Option<String>, TargetError> {
        let last = match &self.state {
            State::Up => return Ok(None),
            State::NotStarted => return Err(TargetError::Broken("the implementation was not started".into())),
            State::Dead(why) => {
                return Err(TargetError::Broken(format!("the implementation can no longer be started: {why}")));
            }
            State::NeedsRestart(last) => last.clone(),
        };
        if self.restarts >= limit {
            let why = format!(
                "it broke {} times and was restarted {} times, the limit set with --restarts; the last time: {last}",
                self.restarts + 1,
                self.restarts
            );
            self.state = State::Dead(why.clone());
            return Err(TargetError::Broken(format!("the implementation can no longer be started: {why}")));
        }
        self.restarts += 1;
        Ok(Some(last))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restarts_are_counted_until_the_limit_then_every_command_is_refused() {
        let mut life = Lifecycle::new();
        assert!(life.restart_due(2).unwrap_err().to_string().contains("was not started"));
        life.state = State::Up;
        assert_eq!(life.restart_due(2), Ok(None));
        for n in 1..=2 {
            life.state = State::NeedsRestart(format!("crash {n}"));
            assert_eq!(life.restart_due(2), Ok(Some(format!("crash {n}"))));
            assert_eq!(life.restarts, n);
        }
        life.state = State::NeedsRestart("crash 3".into());
        let why = life.restart_due(2).unwrap_err().to_string();
        assert!(
            why.contains("broke 3 times and was restarted 2 times") && why.ends_with("the last time: crash 3"),
            "{why}"
        );
        assert!(matches!(life.state, State::Dead(_)));
        assert_eq!(life.restart_due(2).unwrap_err().to_string(), why, "the same reason from then on");
    }
}
