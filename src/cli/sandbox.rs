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
//! * with `"network": false`, no TCP bind or connect (Landlock ABI 4), no
//!   socket but `AF_UNIX` ones and no abstract Unix socket made outside
//!   (the seccomp filter of [`apply_seccomp`], Landlock ABI 6);
//! * no file metadata change unless `"metadata": true` (the filter);
//! * device ioctls only under `write` (ABI 5), no signal out (ABI 6).
//!
//! Files need Landlock ABI 3 (Linux 6.2), the network rule ABI 4 (Linux
//! 6.7); ABI 5 and 6 are used where the kernel has them.

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
/// by exec (`no_new_privs` is set, and the bounding set is emptied when
/// this process may: as root). Its user
/// stays root: files root owns stay root's to change where the sandbox
/// lets it write. Without capabilities to begin with, nothing changes.
#[cfg(target_os = "linux")]
pub fn drop_capabilities() -> Result<(), String> {
    use rustix::thread::{self, CapabilitySet, CapabilitySets};
    // the bounding set first: dropping from it needs CAP_SETPCAP, which
    // goes with the rest below. Without it (an ordinary user) the set
    // stays, and gives nothing: no_new_privs (set with the Landlock
    // rules) keeps exec from gaining a capability from a file or set-user-ID
    let can_drop_bounding = thread::capabilities(None)
        .map(|c| c.effective.contains(CapabilitySet::SETPCAP))
        .unwrap_or(false);
    for bit in (0..64u32).filter(|_| can_drop_bounding) {
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

/// Installs the sandbox's seccomp filter on this process (and what it
/// will exec; a filter cannot be removed). Landlock sees paths and TCP
/// ports; the filter covers what it cannot see, returning `EPERM`:
///
/// * always: `io_uring` (its requests open, connect and change files
///   without the system calls below), `ioctl` `TIOCSTI` and `TIOCLINUX`
///   (typing into a terminal);
/// * with `"network": false`: `socket` of any family but `AF_UNIX` (so no
///   TCP, MPTCP, UDP, raw, packet or netlink socket: TCP Fast Open and
///   `listen` without `bind` need one);
/// * unless `"metadata": true`: `chmod`, `chown`, `utime` and the
///   extended attribute calls, in all their forms, on any file (a filter
///   cannot see paths, and Landlock does not cover metadata).
///
/// Another architecture's system calls (x86's 32-bit ones on x86-64) end
/// the process. `Err` on a kernel or architecture without seccomp.
#[cfg(target_os = "linux")]
pub fn apply_seccomp(sb: &Sandbox) -> Result<(), String> {
    seccomp::apply(sb)
}

/// Without seccomp, nothing to apply.
#[cfg(not(target_os = "linux"))]
pub fn apply_seccomp(_: &Sandbox) -> Result<(), String> {
    Err("seccomp exists on Linux only".into())
}

/// Whether this kernel and architecture can install the filter of
/// [`apply_seccomp`]: `Err` says what is missing.
#[cfg(target_os = "linux")]
pub fn seccomp_support() -> Result<(), String> {
    seccomp::support()
}

/// Without seccomp, nothing can be installed.
#[cfg(not(target_os = "linux"))]
pub fn seccomp_support() -> Result<(), String> {
    Err("seccomp exists on Linux only".into())
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
        Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetError, RulesetStatus,
        Scope, ABI,
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
        // where the kernel has them, without requiring them: device
        // ioctls (ABI 5) only under `write`, no signal to a process
        // outside the sandbox (ABI 6), and with "network": false no
        // abstract Unix socket created outside it (ABI 6)
        r = r
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(AccessFs::IoctlDev)?
            .scope(Scope::Signal)?;
        if !sb.network {
            r = r.scope(Scope::AbstractUnixSocket)?;
        }
        Ok(r.set_compatibility(level))
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
            access & AccessFs::from_file(ABI::V5)
        };
        // IoctlDev is best effort (the ruleset's other rights were
        // required when it was created)
        rs.add_rule(PathBeneath::new(fd, access).set_compatibility(CompatLevel::BestEffort))
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
            rs = add(rs, p, AccessFs::from_all(FS) | AccessFs::IoctlDev, true)?;
        }
        rs = add(
            rs,
            Path::new("/dev/null"),
            AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate,
            false,
        )?;
        let status = rs.restrict_self().map_err(|e| e.to_string())?;
        // partly: a kernel without the best-effort extras above
        if !best_effort && status.ruleset == RulesetStatus::NotEnforced {
            return Err(format!("only {:?}", status.ruleset));
        }
        Ok(())
    }
}

#[cfg(target_os = "linux")]
mod seccomp {
    use super::Sandbox;
    use seccompiler::{
        SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
        SeccompRule, TargetArch,
    };
    use std::collections::BTreeMap;

    /// x32 system calls are x86-64's with this bit set, under the same
    /// audit architecture: each denied call is denied with it too.
    #[cfg(target_arch = "x86_64")]
    const X32: i64 = 0x4000_0000;

    /// Numbers the same on every architecture (Linux 6.6 and later) that
    /// `libc` may not name yet.
    const FCHMODAT2: i64 = 452;
    const SETXATTRAT: i64 = 463;
    const REMOVEXATTRAT: i64 = 466;

    /// The calls that change file metadata.
    fn metadata_calls() -> Vec<i64> {
        let mut v = vec![
            libc::SYS_fchmod,
            libc::SYS_fchmodat,
            FCHMODAT2,
            libc::SYS_fchown,
            libc::SYS_fchownat,
            libc::SYS_utimensat,
            libc::SYS_setxattr,
            libc::SYS_lsetxattr,
            libc::SYS_fsetxattr,
            SETXATTRAT,
            libc::SYS_removexattr,
            libc::SYS_lremovexattr,
            libc::SYS_fremovexattr,
            REMOVEXATTRAT,
        ];
        // the old path forms exist on x86-64 only (aarch64 and riscv64
        // have the *at ones)
        #[cfg(target_arch = "x86_64")]
        v.extend([
            libc::SYS_chmod,
            libc::SYS_chown,
            libc::SYS_lchown,
            libc::SYS_utime,
            libc::SYS_utimes,
            libc::SYS_futimesat,
        ]);
        v
    }

    fn arch() -> Result<TargetArch, String> {
        TargetArch::try_from(std::env::consts::ARCH)
            .map_err(|_| format!("no seccomp filter for {}", std::env::consts::ARCH))
    }

    pub(super) fn support() -> Result<(), String> {
        arch()?;
        // "Seccomp:" is there when the kernel has CONFIG_SECCOMP, and
        // filters come with it on every kernel Landlock runs on
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        if status.lines().any(|l| l.starts_with("Seccomp:")) {
            Ok(())
        } else {
            Err("the kernel has no seccomp".into())
        }
    }

    fn cond(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, String> {
        SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value).map_err(|e| e.to_string())
    }

    fn rule(conds: Vec<SeccompCondition>) -> Result<SeccompRule, String> {
        SeccompRule::new(conds).map_err(|e| e.to_string())
    }

    /// The denied calls: a call with no rule is denied whatever its
    /// arguments; with rules, when one of them matches.
    pub(super) fn rules(sb: &Sandbox) -> Result<BTreeMap<i64, Vec<SeccompRule>>, String> {
        let mut m: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
        for nr in [
            libc::SYS_io_uring_setup,
            libc::SYS_io_uring_enter,
            libc::SYS_io_uring_register,
        ] {
            m.insert(nr, Vec::new());
        }
        // the request is an unsigned int: its low 32 bits
        let tty = |req: u64| -> Result<SeccompRule, String> {
            rule(vec![cond(1, SeccompCmpOp::Eq, req)?])
        };
        m.insert(
            libc::SYS_ioctl,
            vec![
                tty(u64::from(libc::TIOCSTI as u32))?,
                tty(u64::from(libc::TIOCLINUX as u32))?,
            ],
        );
        if !sb.network {
            // the family is an int: any but AF_UNIX
            let unix = u64::from(libc::AF_UNIX.unsigned_abs());
            m.insert(
                libc::SYS_socket,
                vec![rule(vec![cond(0, SeccompCmpOp::Ne, unix)?])?],
            );
            m.insert(
                libc::SYS_socketpair,
                vec![rule(vec![cond(0, SeccompCmpOp::Ne, unix)?])?],
            );
        }
        if !sb.metadata {
            for nr in metadata_calls() {
                m.insert(nr, Vec::new());
            }
        }
        #[cfg(target_arch = "x86_64")]
        {
            let x32: Vec<(i64, Vec<SeccompRule>)> =
                m.iter().map(|(nr, r)| (nr | X32, r.clone())).collect();
            m.extend(x32);
        }
        Ok(m)
    }

    pub(super) fn apply(sb: &Sandbox) -> Result<(), String> {
        let filter = SeccompFilter::new(
            rules(sb)?,
            SeccompAction::Allow,
            SeccompAction::Errno(libc::EPERM.unsigned_abs()),
            arch()?,
        )
        .map_err(|e| e.to_string())?;
        let program: seccompiler::BpfProgram = filter
            .try_into()
            .map_err(|e: seccompiler::BackendError| e.to_string())?;
        // sets no_new_privs (already set by Landlock) and installs it
        seccompiler::apply_filter(&program).map_err(|e| e.to_string())
    }
}
