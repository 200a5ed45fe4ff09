//! Waiting for an answer without paying for a sleep: before a channel blocks on its pipe or
//! socket, it polls it without waiting for a short while ([`SPIN`]).
//!
//! A process that sleeps in `poll(2)` or `read(2)` and is woken by the implementation's answer
//! pays for the wake-up: on a virtual machine whose idle CPUs halt, tens of microseconds, more
//! than the rest of a request costs (docs/performance.md). Most answers of a fast implementation
//! arrive within the spin, so the harness never sleeps for them; a slow implementation costs at
//! most [`SPIN`] of busy CPU per request before the channel sleeps as before. This is the same
//! trade that adaptive mutexes and network busy-polling make.

use rustix::event::{PollFd, PollFlags, Timespec};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

/// How long a channel polls for its answer before it sleeps.
pub const SPIN: Duration = Duration::from_micros(100);

/// Polls `fd` for input without sleeping until it is readable (`Ok(true)`), or until [`SPIN`]
/// has passed or `deadline` comes (`Ok(false)`: the caller then sleeps on it as usual).
pub fn spin_until_readable(fd: impl AsFd, deadline: Instant) -> std::io::Result<bool> {
    let until = (Instant::now() + SPIN).min(deadline);
    let now = Timespec { tv_sec: 0, tv_nsec: 0 };
    loop {
        match rustix::event::poll(&mut [PollFd::new(&fd, PollFlags::IN)], Some(&now)) {
            Ok(0) | Err(rustix::io::Errno::INTR) => {}
            Ok(_) => return Ok(true),
            Err(e) => return Err(e.into()),
        }
        if Instant::now() >= until {
            return Ok(false);
        }
        std::hint::spin_loop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::net::UnixStream;

    #[test]
    fn readable_at_once_or_not_within_the_spin() {
        let (mut writer, reader) = UnixStream::pair().unwrap();
        let started = Instant::now();
        assert!(!spin_until_readable(&reader, Instant::now() + Duration::from_secs(5)).unwrap());
        assert!(started.elapsed() >= SPIN, "it spins the whole window");
        assert!(started.elapsed() < Duration::from_secs(4), "and stops there, not at the deadline");
        writer.write_all(b"x").unwrap();
        assert!(spin_until_readable(&reader, Instant::now() + Duration::from_secs(5)).unwrap());
        // A deadline before the end of the spin ends it.
        let (_writer, reader) = UnixStream::pair().unwrap();
        assert!(!spin_until_readable(&reader, Instant::now()).unwrap());
    }
}
