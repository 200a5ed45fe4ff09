//! Reading a file whose place someone else may fill: a published standing and the files beside
//! it, a submitted adapter's `about.yaml` and reproduction template, an expected-failures file, a
//! case file, the manifest a recording upstream is given.
//!
//! Such a file is read whole only up to a cap, only when it is a regular file, and never through
//! a symbolic link: [`read_text`] and [`read_bytes`] refuse a link at the path (a submitted
//! `repro.py` that links to `/proc/self/environ` would otherwise publish the builder's
//! environment), refuse a FIFO, a device, a socket or a folder (a FIFO would hang the reader,
//! `/dev/zero` would take all memory) and refuse a file longer than the cap without reading past
//! it. The path is checked without following a link, then opened with `O_NOFOLLOW` (a link put
//! there in between fails the open) and `O_NONBLOCK` (a FIFO put there in between does not block
//! the open), and what was opened is checked again (`fstat`) before a byte is read. Each refusal
//! is an [`std::io::Error`] that says what the file is, the cap when it is the cap, and what to
//! do; the caller names the file. A missing file stays [`std::io::ErrorKind::NotFound`], so a
//! caller may still treat an optional file's absence as no file.

use rustix::fs::{Mode, OFlags};
use std::fs::{File, Metadata};
use std::io::{Error, ErrorKind, Read};
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// Whether something is at `path` itself: a file, a folder, a link (not followed) or anything
/// else. Where a caller would ask `path.is_file()` before reading, this lets [`read_text`] say
/// why a link or a FIFO there is refused instead of passing over it in silence.
pub fn exists(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

/// Reads `path` whole as UTF-8, at most `max` bytes, never through a link, and only a regular
/// file (see the module's documentation).
pub fn read_text(path: &Path, max: u64) -> std::io::Result<String> {
    String::from_utf8(read_bytes(path, max)?).map_err(|e| Error::new(ErrorKind::InvalidData, e))
}

/// Opens `path` for reading, never through a link, and only a regular file (see the module's
/// documentation), for a reader that reads it in parts (a record that grows while it is read).
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    regular(&path.symlink_metadata()?)?;
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
    let file = match rustix::fs::open(path, flags, Mode::empty()) {
        Ok(fd) => File::from(fd),
        // The path became a link after it was looked at.
        Err(rustix::io::Errno::LOOP) => return Err(link()),
        Err(e) => return Err(e.into()),
    };
    regular(&file.metadata()?)?;
    Ok(file)
}

/// Reads `path` whole, at most `max` bytes, never through a link, and only a regular file.
pub fn read_bytes(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("the file is longer than {max} bytes, the most read here: give a shorter file"),
        ));
    }
    Ok(bytes)
}

/// `Ok` for a regular file; for anything else, the error that says what it is.
fn regular(metadata: &Metadata) -> std::io::Result<()> {
    let kind = metadata.file_type();
    let what = if kind.is_file() {
        return Ok(());
    } else if kind.is_symlink() {
        return Err(link());
    } else if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a FIFO (a named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    };
    Err(Error::new(ErrorKind::InvalidInput, format!("this is {what}, not a regular file: give a regular file")))
}

fn link() -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        "this is a symbolic link, and no file here is read through one (it could point anywhere): \
         put the file itself in its place",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_within_the_cap_is_read_and_one_past_it_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "12345").unwrap();
        assert_eq!(read_text(&path, 5).unwrap(), "12345");
        let error = read_text(&path, 4).unwrap_err().to_string();
        assert!(error.contains("longer than 4 bytes"), "{error}");
    }

    #[test]
    fn a_link_a_folder_and_a_device_are_refused_and_a_missing_file_is_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("secret");
        std::fs::write(&target, "secret").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(read_text(&link, 100).unwrap_err().to_string().contains("symbolic link"));
        assert!(exists(&link));
        assert!(read_text(dir.path(), 100).unwrap_err().to_string().contains("a folder"));
        let error = read_text(Path::new("/dev/zero"), 100).unwrap_err().to_string();
        assert!(error.contains("character device"), "{error}");
        let missing = read_text(&dir.path().join("none"), 100).unwrap_err();
        assert_eq!(missing.kind(), ErrorKind::NotFound);
        assert!(!exists(&dir.path().join("none")));
    }
}
