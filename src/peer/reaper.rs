//! What a run leaves behind when it is interrupted: the process groups of the implementations it
//! started (its own `mcp-upstream` among them) and its run folders, each registered while it
//! exists. [`on_interrupt`] makes SIGINT and SIGTERM end the run through them: a thread of its
//! own waits for either signal, kills every registered process group, removes every registered
//! folder, and exits with 128 plus the signal's number (130 for SIGINT, 143 for SIGTERM), as a
//! shell reports a process a signal ended.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The process groups started and not ended yet.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// The run folders made and not removed yet.
static FOLDERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Registers the process group `group` (a child that leads its own).
pub(crate) fn started(group: i32) {
    if let Ok(mut groups) = GROUPS.lock() {
        groups.push(group);
    }
}

/// Forgets the process group `group`, ended.
pub(crate) fn ended(group: i32) {
    if let Ok(mut groups) = GROUPS.lock() {
        groups.retain(|g| *g != group);
    }
}

/// Registers a run folder.
pub(crate) fn made(folder: &Path) {
    if let Ok(mut folders) = FOLDERS.lock() {
        folders.push(folder.to_path_buf());
    }
}

/// Forgets a run folder, removed.
pub(crate) fn removed(folder: &Path) {
    if let Ok(mut folders) = FOLDERS.lock() {
        folders.retain(|f| f != folder);
    }
}

/// Kills every registered process group and removes every registered folder.
fn clean_up() {
    let groups = GROUPS.lock().map(|g| g.clone()).unwrap_or_default();
    for group in groups {
        if let Some(pid) = rustix::process::Pid::from_raw(group) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
    let folders = FOLDERS.lock().map(|f| f.clone()).unwrap_or_default();
    for folder in folders {
        let _ = std::fs::remove_dir_all(folder);
    }
}

/// Makes SIGINT and SIGTERM end the process through [`clean_up`], exiting 130 or 143. Call it
/// first thing in `main`, before any other thread starts: the signals are blocked in the calling
/// thread, and so in every thread started after it (a process started gets them unblocked, as
/// std starts every process), and taken by a thread of their own.
pub fn on_interrupt() {
    // SAFETY: the sigset is initialized by sigemptyset before use; pthread_sigmask and sigwait
    // are given valid pointers.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        let waiter = std::thread::Builder::new().name("signals".into()).spawn(move || {
            let mut signal = 0;
            while libc::sigwait(&set, &mut signal) != 0 {}
            clean_up();
            std::process::exit(128 + signal);
        });
        if waiter.is_err() {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}
