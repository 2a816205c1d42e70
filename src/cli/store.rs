//! The files of approval state (`--permissions`, `--session-file`): read
//! and written here, at the command-line edge; the core keeps only the
//! data types and the matching (`agent::approval`).
//!
//! As ssh does with its configuration, a state file is refused when it is
//! not a regular file, is a symbolic link, is owned by another user (root
//! excepted) or is writable by group or others: whoever can write it
//! decides what runs without asking. Files are written through a
//! temporary file created exclusively in the same folder (`tempfile`),
//! then renamed into place, under an advisory lock (`flock`) on the file,
//! and merged under that lock: the file is read again and this run's
//! answers are added, so runs saving at the same time keep each other's.

use anyhow::{bail, Context};
use serde::{de::DeserializeOwned, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;

/// Most bytes of a state file read: 4 MiB. These files hold a few lists of
/// names and patterns; a larger one is refused with a message.
pub const MAX_STATE_BYTES: u64 = 4 << 20;

/// How many times [`update`] starts over when another run replaced the
/// file between opening and locking it.
const LOCK_TRIES: usize = 20;

/// Opening flags: never follow a symbolic link at the path, never block on
/// a FIFO (it is refused once opened).
fn open_options(write: bool) -> OpenOptions {
    let mut o = OpenOptions::new();
    o.read(true);
    if write {
        o.write(true).create(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        o.custom_flags(flags.bits() as i32).mode(0o600);
    }
    o
}

/// Opens `path` for `flag`; `Ok(None)` when it does not exist and `write`
/// is false.
fn open(path: &Path, flag: &str, write: bool) -> anyhow::Result<Option<File>> {
    match open_options(write).open(path) {
        Ok(f) => {
            check(&f, path, flag)?;
            Ok(Some(f))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !write => Ok(None),
        Err(_) if is_symlink(path) => {
            bail!(
                "{flag} {}: is a symbolic link; refused (give the file itself)",
                path.display()
            )
        }
        Err(e) => Err(e).with_context(|| format!("{flag} {}", path.display())),
    }
}

/// Opens a file only its owner (or root) could have written, for reading,
/// with the checks of a state file; `Ok(None)` when it does not exist.
/// `flag` names it in messages.
pub fn open_private(path: &Path, flag: &str) -> anyhow::Result<Option<File>> {
    open(path, flag, false)
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Refuses a file that is not regular, is owned by another user (root
/// excepted) or is writable by group or others.
fn check(f: &File, path: &Path, flag: &str) -> anyhow::Result<()> {
    let meta = f
        .metadata()
        .with_context(|| format!("{flag} {}", path.display()))?;
    if !meta.is_file() {
        bail!("{flag} {}: not a regular file; refused", path.display());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = rustix::process::geteuid().as_raw();
        if meta.uid() != me && meta.uid() != 0 {
            bail!(
                "{flag} {}: owned by uid {}, not by you (uid {me}); refused, as ssh refuses \
                 such files: whoever writes it decides what runs without asking",
                path.display(),
                meta.uid()
            );
        }
        if meta.mode() & 0o022 != 0 {
            bail!(
                "{flag} {}: writable by group or others (mode {:03o}); refused, as ssh \
                 refuses such files (chmod go-w {})",
                path.display(),
                meta.mode() & 0o777,
                path.display()
            );
        }
    }
    Ok(())
}

/// Reads the open file whole (at most [`MAX_STATE_BYTES`]) as `T`; an
/// empty file is `T::default()`.
fn read<T: DeserializeOwned + Default>(f: &mut File, path: &Path, flag: &str) -> anyhow::Result<T> {
    let mut bytes = Vec::new();
    f.take(MAX_STATE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{flag} {}", path.display()))?;
    if bytes.len() as u64 > MAX_STATE_BYTES {
        bail!(
            "{flag} {}: larger than {MAX_STATE_BYTES} bytes; not read",
            path.display()
        );
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(&bytes).with_context(|| format!("{flag} {}", path.display()))
}

/// Reads a state file; a missing or empty file is `T::default()`. `flag`
/// names it in messages.
pub fn load<T: DeserializeOwned + Default>(path: &Path, flag: &str) -> anyhow::Result<T> {
    match open(path, flag, false)? {
        Some(mut f) => read(&mut f, path, flag),
        None => Ok(T::default()),
    }
}

/// Changes a state file under its lock: reads it again (a missing or
/// empty file is `T::default()`), lets `change` edit that, writes the
/// result through an exclusive temporary file renamed into place, and
/// returns it.
pub fn update<T: DeserializeOwned + Default + Serialize>(
    path: &Path,
    flag: &str,
    change: impl FnOnce(&mut T),
) -> anyhow::Result<T> {
    let what = || format!("{flag} {}", path.display());
    for _ in 0..LOCK_TRIES {
        let Some(mut f) = open(path, flag, true)? else {
            bail!("{}: cannot be created", what());
        };
        f.lock().with_context(|| format!("{}: locking", what()))?;
        if !same_file(&f, path) {
            // renamed over by another run while we waited: lock the new one
            continue;
        }
        let mut value: T = read(&mut f, path, flag)?;
        change(&mut value);
        let text = serde_json::to_string_pretty(&value).with_context(what)?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut tmp = tempfile::NamedTempFile::new_in(dir).with_context(what)?;
        tmp.write_all(text.as_bytes())
            .and_then(|()| tmp.write_all(b"\n"))
            .and_then(|()| tmp.as_file().sync_all())
            .with_context(what)?;
        tmp.persist(path).map_err(|e| e.error).with_context(what)?;
        // the lock goes with `f`, after the new file is in place
        drop(f);
        return Ok(value);
    }
    bail!("{}: kept changing while waiting for its lock", what())
}

/// True when the open file is still the one at `path`.
fn same_file(f: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (f.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (f, path);
        true
    }
}
