//! Large regular input files mapped into memory instead of read.
//!
//! Reading a file copies every byte from the page cache into a buffer; on
//! the 40 MB transcript of `benches/whole-process.sh` that copy was a
//! quarter of `parse -c`. A map hands the engine the page cache's own
//! pages. The rules are ripgrep's: only a regular file named on the
//! command line or met in a directory (never stdin, a pipe, a FIFO or a
//! device), only when it is at least [`MAP_MIN`] bytes (below that,
//! measured, the map's page faults cost more than the copy), and reading is
//! the fallback whenever mapping fails.
//!
//! A mapped file that another process truncates while it is read makes
//! the next access past its new end fault (SIGBUS), which would kill the
//! process with a signal. The first map therefore installs a SIGBUS
//! handler that writes one line to stderr and exits with status 2, the
//! status of any input that could not be read; see [`map_file`].

use std::fs::File;

/// Files smaller than this are read, not mapped: 256 MiB. Measured on the
/// development VM (docs/performance.md, "Reading the file" and the fifth
/// round of issue 48), reading a file 64 KiB at a time into one buffer
/// that stays in the cache was 3–12 % less CPU time than mapping it at 10,
/// 40, 100 and 150 MB (`parse -c`, `parse`, `split --text`), and within
/// ±4 % at 200 MB: the map saves the kernel's copy but pays a page fault
/// per 64 KiB or so and leaves the engine reading memory the copy would
/// have brought into the cache. Reading holds only the 64 KiB buffer, so
/// the resident size is as small either way. `TOOLCALL_MAP_MIN=BYTES`
/// sets another threshold (the tests map small files with it).
pub const MAP_MIN: u64 = 256 << 20;

/// The threshold in force: [`MAP_MIN`] unless `TOOLCALL_MAP_MIN` holds a
/// number of bytes.
fn map_min() -> u64 {
    std::env::var("TOOLCALL_MAP_MIN")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(MAP_MIN)
}

/// What the SIGBUS handler writes before it exits with status 2.
#[cfg(unix)]
const SIGBUS_MESSAGE: &[u8] = b"toolcall: error: an input file shrank while it was read \
(another process truncated it); the records written so far are incomplete\n";

/// A mapped input file; its bytes through `Deref`.
pub struct Mapped {
    map: memmap2::Mmap,
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        &self.map
    }
}

impl std::ops::Deref for Mapped {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.map
    }
}

/// `file` mapped read-only when it is a regular file of at least
/// [`MAP_MIN`] bytes and no more than `max` (the caller reads a larger one
/// to report `--max-input` as before); `None` to read it instead.
pub fn map_regular(file: &File, max: u64) -> Option<Mapped> {
    if std::env::var_os("TOOLCALL_NO_MMAP").is_some() {
        return None;
    }
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() < map_min() || meta.len() > max {
        return None;
    }
    let map = map_file(file)?;
    // the file may have changed between the metadata and the map: a map
    // longer than the limit is dropped and the file read (and refused)
    if map.len() as u64 > max {
        return None;
    }
    // Sequential access: the kernel reads ahead further and may drop pages
    // behind; advice only, so a failure changes nothing.
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Sequential);
    test_pause();
    Some(Mapped { map })
}

/// The one function of this crate allowed `unsafe` code: the memory map
/// and the SIGBUS handler that makes a truncated file an error.
///
/// What another process writing the file can do while it is mapped:
///
/// - change bytes in place: the engine may see a mix of old and new bytes,
///   as a `read` racing the writer would. The engine treats its input as
///   untrusted bytes (no UTF-8 or length is assumed once checked, there is
///   no `unsafe` in the core), so the worst outcome is odd records, never
///   memory unsafety in the program's own logic;
/// - append: the map keeps the length it had when it was made, so the
///   appended bytes are not read (as with a `read` that reached the end
///   first);
/// - truncate: pages past the new end are gone and touching one raises
///   SIGBUS. The handler installed here writes [`SIGBUS_MESSAGE`] to stderr
///   and ends the process with `_exit(2)`: the records already written stay
///   written, the rest are missing, and the status says the input could not
///   be read. It never returns into the faulting code (which would fault
///   again) and never unwinds (no `longjmp` out of a signal handler).
///
/// What it cannot do: make this process read memory outside the map, or
/// observe a torn length — the slice's length is the map's, fixed here.
#[allow(unsafe_code)]
fn map_file(file: &File) -> Option<memmap2::Mmap> {
    #[cfg(unix)]
    {
        static HANDLER: std::sync::Once = std::sync::Once::new();
        HANDLER.call_once(|| {
            // SAFETY: the action only calls async-signal-safe functions:
            // write(2) on descriptor 2 (through rustix, no allocation, no
            // lock) and _exit(2) (signal_hook::low_level::exit). It keeps no
            // state and returns never, so the faulting access is not
            // retried. SIGBUS is not one of the signals signal-hook refuses.
            let _ = unsafe {
                signal_hook::low_level::register(signal_hook::consts::SIGBUS, || {
                    // SAFETY: descriptor 2 stays open for the whole process
                    // (nothing in toolcall closes stderr).
                    let stderr = std::os::fd::BorrowedFd::borrow_raw(2);
                    let _ = rustix::io::write(stderr, SIGBUS_MESSAGE);
                    signal_hook::low_level::exit(2);
                })
            };
        });
    }
    // SAFETY: the map is read-only and private to this process; what a
    // concurrent writer of the file can and cannot do is listed above (a
    // truncation ends the process through the SIGBUS handler, with status
    // 2, instead of crashing it).
    unsafe { memmap2::MmapOptions::new().map(file) }.ok()
}

/// A test hook: with `TOOLCALL_TEST_MAPPED_FIFO` naming a FIFO, waits after
/// each map until a writer opens that FIFO and closes it, so that a test
/// can truncate the mapped file at a known point. Costs one environment
/// lookup per mapped file otherwise.
fn test_pause() {
    if let Some(fifo) = std::env::var_os("TOOLCALL_TEST_MAPPED_FIFO") {
        if let Ok(mut f) = File::open(fifo) {
            let _ = std::io::copy(&mut f, &mut std::io::sink());
        }
    }
}
