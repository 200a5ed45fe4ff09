//! The progress bar `run` draws on stderr (indicatif) while cases run: only when stderr is a
//! terminal that is not `TERM=dumb`, only outside CI (`CI` unset), and only once the run has
//! taken longer than a moment, so that quick runs, pipes and CI logs stay quiet. It is cleared
//! before the standing is printed.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a run goes before the bar appears.
const DELAY: Duration = Duration::from_millis(400);

/// A progress bar over a run's cases; hidden until [`DELAY`] has passed.
pub struct Progress {
    bar: ProgressBar,
    finished: Arc<Mutex<bool>>,
}

impl Progress {
    /// A bar over `total` cases, revealed after [`DELAY`] when stderr is an interactive terminal.
    pub fn new(total: usize) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} cases  {wide_msg}") {
            bar.set_style(style.progress_chars("=> "));
        }
        let finished = Arc::new(Mutex::new(false));
        if wanted() {
            let (bar, finished) = (bar.clone(), Arc::clone(&finished));
            std::thread::spawn(move || {
                std::thread::sleep(DELAY);
                if let Ok(done) = finished.lock()
                    && !*done
                {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(120));
                }
            });
        }
        Progress { bar, finished }
    }

    /// One case ended.
    pub fn case_done(&self, id: &str) {
        self.bar.set_message(id.to_string());
        self.bar.inc(1);
    }

    /// The run ended: the bar goes away.
    pub fn finish(&self) {
        if let Ok(mut done) = self.finished.lock() {
            *done = true;
            self.bar.finish_and_clear();
        }
    }
}

/// Whether a bar helps: stderr is a terminal that draws, and this is not CI.
fn wanted() -> bool {
    std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none()
        && !matches!(std::env::var("TERM").as_deref(), Ok("dumb"))
}
