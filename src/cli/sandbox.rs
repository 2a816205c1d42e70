//! A tool's `x-toolcall.sandbox`, enforced by the kernel with Landlock
//! (docs/agent.md#the-sandbox). The rules are applied by toolcall's
//! internal step (`__run-tool`, see [`super::child`]) to itself, just
//! before it execs the tool: they then hold for the tool and everything it
//! starts, and cannot be lifted.
//!
//! What a sandbox allows:
//!
//! * reading and executing: everywhere when `read` is absent; else the
//!   listed paths, the [`SYSTEM_READ`] folders a program needs to start,
//!   and the folder of the tool's own program;
//! * writing (creating, truncating, renaming, removing): only the `write`
//!   paths (which are readable too) and `/dev/null`;
//! * with `"network": false`, no TCP bind or connect (Landlock ABI 4).
//!
//! Files need Landlock ABI 3 (Linux 6.2), the network rule ABI 4 (Linux
//! 6.7).

use crate::agent::binding::Sandbox;
use std::path::Path;

/// What a sandbox with a `read` list may read and execute besides it: the
/// folders a dynamically linked program and a shell need to start (their
/// libraries, the loader's cache, locales, `/etc` for names and time zones)
/// and the harmless device files. Missing ones are skipped.
pub const SYSTEM_READ: &[&str] = &[
    "/bin",
    "/sbin",
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/etc",
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// Whether this kernel can enforce `sb` in full: `Err` says what it lacks.
#[cfg(target_os = "linux")]
pub fn support(sb: &Sandbox) -> Result<(), String> {
    imp::ruleset(sb, landlock::CompatLevel::HardRequirement)
        .and_then(|r| r.create())
        .map(|_| ())
        .map_err(|e| imp::lacking(sb, &e))
}

/// Without Landlock, nothing can be enforced.
#[cfg(not(target_os = "linux"))]
pub fn support(_: &Sandbox) -> Result<(), String> {
    Err("Landlock exists on Linux only".into())
}

/// Restricts this process (and what it will exec) to `sb`. `program` is
/// the tool's program (its folder stays readable). With `best_effort`
/// what the kernel cannot enforce is dropped; else it is an error.
#[cfg(target_os = "linux")]
pub fn apply(sb: &Sandbox, program: Option<&Path>, best_effort: bool) -> Result<(), String> {
    imp::apply(sb, program, best_effort)
}

/// Without Landlock, nothing to apply: an error unless best effort.
#[cfg(not(target_os = "linux"))]
pub fn apply(_: &Sandbox, _: Option<&Path>, best_effort: bool) -> Result<(), String> {
    if best_effort {
        Ok(())
    } else {
        Err("Landlock exists on Linux only".into())
    }
}

/// The folder of a tool's program, absolute: a relative path is taken
/// from the current folder, a bare name from `$PATH` (as exec looks it
/// up). `None` when it cannot be found.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub fn program_folder(program: &Path) -> Option<std::path::PathBuf> {
    let found = if program.components().count() > 1 {
        std::path::absolute(program).ok()?
    } else {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|d| d.join(program))
            .find(|p| p.is_file())
            .and_then(|p| std::path::absolute(p).ok())?
    };
    found.parent().map(Path::to_path_buf)
}

/// Drops every capability of this process (bounding, ambient,
/// inheritable, permitted, effective) so that a sandboxed tool started as
/// root (containers, CI) keeps none: no raw sockets, no `chown`, no
/// reading another process's memory or environment, nothing gained back
/// by exec (the bounding set is empty and `no_new_privs` is set). Its user
/// stays root: files root owns stay root's to change where the sandbox
/// lets it write. Without capabilities to begin with, nothing changes.
#[cfg(target_os = "linux")]
pub fn drop_capabilities() -> Result<(), String> {
    use rustix::thread::{self, CapabilitySet, CapabilitySets};
    // the bounding set first: dropping from it needs CAP_SETPCAP, which
    // goes with the rest below
    for bit in 0..64u32 {
        let cap = CapabilitySet::from_bits_retain(1u64 << bit);
        if thread::capability_is_in_bounding_set(cap).unwrap_or(false) {
            thread::remove_capability_from_bounding_set(cap)
                .map_err(|e| format!("bounding set, capability {bit}: {e}"))?;
        }
    }
    // ambient capabilities exist from Linux 4.3: EINVAL before
    match thread::clear_ambient_capability_set() {
        Ok(()) | Err(rustix::io::Errno::INVAL) => {}
        Err(e) => return Err(format!("ambient set: {e}")),
    }
    let none = CapabilitySets {
        effective: CapabilitySet::empty(),
        permitted: CapabilitySet::empty(),
        inheritable: CapabilitySet::empty(),
    };
    thread::set_capabilities(None, none).map_err(|e| format!("capabilities: {e}"))
}

/// Capabilities are Linux's: nothing to drop elsewhere.
#[cfg(not(target_os = "linux"))]
pub fn drop_capabilities() -> Result<(), String> {
    Ok(())
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{program_folder, Sandbox, SYSTEM_READ};
    use landlock::{
        Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd,
        Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetError, RulesetStatus, ABI,
    };
    use std::path::Path;

    /// The file rights handled: ABI 3 (truncation included).
    const FS: ABI = ABI::V3;

    /// The ruleset `sb` needs, before any rule.
    pub(super) fn ruleset(sb: &Sandbox, level: CompatLevel) -> Result<Ruleset, RulesetError> {
        let mut r = Ruleset::default()
            .set_compatibility(level)
            .handle_access(AccessFs::from_all(FS))?;
        if !sb.network {
            r = r.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?;
        }
        Ok(r)
    }

    /// What the kernel lacks, in words.
    pub(super) fn lacking(sb: &Sandbox, e: &RulesetError) -> String {
        let need = if sb.network {
            "Landlock ABI 3 (Linux 6.2)"
        } else {
            "Landlock ABI 4 (Linux 6.7, for \"network\": false)"
        };
        format!("the kernel does not offer {need}: {e}")
    }

    fn add(
        rs: RulesetCreated,
        path: &Path,
        access: BitFlags<AccessFs>,
        must_exist: bool,
    ) -> Result<RulesetCreated, String> {
        let is_dir = match std::fs::metadata(path) {
            Ok(m) => m.is_dir(),
            Err(_) if !must_exist => return Ok(rs),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let fd = match PathFd::new(path) {
            Ok(fd) => fd,
            Err(_) if !must_exist => return Ok(rs),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let access = if is_dir {
            access
        } else {
            access & AccessFs::from_file(FS)
        };
        rs.add_rule(PathBeneath::new(fd, access))
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    pub(super) fn apply(
        sb: &Sandbox,
        program: Option<&Path>,
        best_effort: bool,
    ) -> Result<(), String> {
        let level = if best_effort {
            CompatLevel::BestEffort
        } else {
            CompatLevel::HardRequirement
        };
        let mut rs = ruleset(sb, level)
            .and_then(|r| r.create())
            .map_err(|e| lacking(sb, &e))?;
        let read = AccessFs::from_read(FS);
        match &sb.read {
            None => rs = add(rs, Path::new("/"), read, true)?,
            Some(list) => {
                for p in list {
                    rs = add(rs, p, read, true)?;
                }
                for p in SYSTEM_READ {
                    rs = add(rs, Path::new(p), read, false)?;
                }
                if let Some(dir) = program.and_then(program_folder) {
                    rs = add(rs, &dir, read, false)?;
                }
            }
        }
        for p in &sb.write {
            rs = add(rs, p, AccessFs::from_all(FS), true)?;
        }
        rs = add(
            rs,
            Path::new("/dev/null"),
            AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate,
            false,
        )?;
        let status = rs.restrict_self().map_err(|e| e.to_string())?;
        if !best_effort && status.ruleset != RulesetStatus::FullyEnforced {
            return Err(format!("only {:?}", status.ruleset));
        }
        Ok(())
    }
}
