//! Walking a directory given as input, as ripgrep does.

use super::input_flags::WalkArgs;
use std::path::PathBuf;

/// Replaces each directory by the files below it (see [`WalkArgs`]); other
/// paths stay as given. What is skipped inside a directory (a FIFO, a
/// socket, a device, a binary file, an entry that cannot be read) is noted on
/// stderr unless it is only hidden or ignored.
pub fn expand_dirs(paths: &[PathBuf], walk: &WalkArgs) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" || !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let mut builder = ignore::WalkBuilder::new(p);
        builder
            .follow_links(walk.follow)
            .hidden(!walk.hidden)
            .ignore(!walk.no_ignore)
            .git_ignore(!walk.no_ignore)
            .git_global(!walk.no_ignore)
            .git_exclude(!walk.no_ignore)
            .parents(!walk.no_ignore)
            .require_git(false)
            .sort_by_file_path(|a, b| a.cmp(b));
        if !walk.globs.is_empty() {
            let mut globs = ignore::overrides::OverrideBuilder::new(p);
            for g in &walk.globs {
                globs
                    .add(g)
                    .map_err(|e| anyhow::anyhow!("invalid --glob {g:?}: {e}"))?;
            }
            let globs = globs
                .build()
                .map_err(|e| anyhow::anyhow!("invalid --glob: {e}"))?;
            builder.overrides(globs);
        }
        for entry in builder.build() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    note(&format!("skipping: {e}"));
                    continue;
                }
            };
            let Some(kind) = entry.file_type() else {
                continue; // stdin, never produced for a directory
            };
            if kind.is_dir() {
                continue;
            }
            let path = entry.into_path();
            if kind.is_symlink() {
                continue; // only reached without -L
            }
            if !kind.is_file() {
                note(&format!("skipping {}: not a regular file", path.display()));
                continue;
            }
            if !walk.binary && is_binary(&path) {
                note(&format!(
                    "skipping {}: binary file (-a reads it)",
                    path.display()
                ));
                continue;
            }
            out.push(path);
        }
    }
    Ok(out)
}

/// Writes a note about a skipped path to stderr, control characters escaped.
pub(super) fn note(msg: &str) {
    super::report(msg);
}

/// A NUL byte in the first 8 KiB, as grep and ripgrep decide.
fn is_binary(path: &std::path::Path) -> bool {
    use std::io::Read;
    let Ok(f) = std::fs::File::open(path) else {
        return false; // reported when it is read
    };
    let mut head = Vec::with_capacity(8192);
    if f.take(8192).read_to_end(&mut head).is_err() {
        return false;
    }
    memchr::memchr(0, &head).is_some()
}
