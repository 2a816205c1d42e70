//! Which command runs a tool (docs/agent.md#bindings): `--bind NAME=CMD`
//! first, then the tools file's `x-toolcall.exec`, then `--tool-dir DIR`
//! (the executable `DIR/NAME`). Call data never becomes part of a command
//! line: the arguments reach the command on stdin and in the environment.

use crate::tool::Tool;
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why a binding could not be read: a `--bind` flag, or a tool's
/// `x-toolcall` fields in the tools file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindingError {
    /// A sandbox pattern Landlock cannot express (the pattern).
    Pattern(String),
    /// A field of a tool's `x-toolcall` has the wrong shape: the tool, the
    /// field's path under `x-toolcall` (`exec`, `sandbox.read`) and what it
    /// must be.
    Field {
        /// The tool's name.
        tool: String,
        /// The field's path under `x-toolcall`.
        field: String,
        /// What the field must be.
        want: &'static str,
    },
    /// An unknown key in a tool's `x-toolcall.sandbox`.
    UnknownKey {
        /// The tool's name.
        tool: String,
        /// The key.
        key: String,
    },
    /// A pattern in a tool's `x-toolcall.sandbox.read` or `.write` that
    /// Landlock cannot express.
    SandboxPattern {
        /// The tool's name.
        tool: String,
        /// `read` or `write`.
        field: String,
        /// The pattern.
        pattern: String,
    },
    /// A `--bind` value that is not `NAME=COMMAND`.
    Bind(String),
}

impl fmt::Display for BindingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BindingError::Pattern(pattern) => write!(
                f,
                "'{pattern}': Landlock allows whole folders and single paths only: \
                 write DIR/** or an exact path (no other *, ?, [ or {{ pattern, no ~)"
            ),
            BindingError::Field { tool, field, want } => {
                write!(f, "tool '{tool}': x-toolcall.{field} must be {want}")
            }
            BindingError::UnknownKey { tool, key } => write!(
                f,
                "tool '{tool}': x-toolcall.sandbox: unknown key '{key}' (read, write, network, metadata)"
            ),
            BindingError::SandboxPattern {
                tool,
                field,
                pattern,
            } => write!(
                f,
                "tool '{tool}': x-toolcall.sandbox.{field}: {}",
                BindingError::Pattern(pattern.clone())
            ),
            BindingError::Bind(s) => write!(f, "--bind '{s}': expected NAME=COMMAND"),
        }
    }
}

impl std::error::Error for BindingError {}

/// How a tool's command is started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Run directly, no shell: program and its arguments.
    Argv(Vec<String>),
    /// Run with `sh -c`: a command line the user wrote (never call data).
    Shell(String),
}

impl Command {
    /// The command as one line, for messages and dry runs.
    pub fn display(&self) -> String {
        match self {
            Command::Argv(v) => v.join(" "),
            Command::Shell(s) => format!("sh -c {s}"),
        }
    }
}

/// What the tools file's `x-toolcall` says about running a tool.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunMeta {
    /// `exec`: the command. Its program (`argv[0]` of an array, the first
    /// word of a string) is taken from the tools file's folder when it is a
    /// relative path with a `/` (see [`shell_program`]).
    pub exec: Option<Command>,
    /// `timeout_s`: this tool's own timeout.
    pub timeout: Option<Duration>,
    /// `category`: a free word (`terminal`, `network`, `files` …) that
    /// `--disable-category` refers to.
    pub category: Option<String>,
    /// `sandbox`: what the kernel lets the tool touch (Landlock).
    pub sandbox: Option<Sandbox>,
    /// `env`: variables the tool gets beyond the base set
    /// ([`BASE_ENV`]): a name passes toolcall's own value on, `NAME=value`
    /// sets one.
    pub env: Vec<EnvEntry>,
}

/// One entry of `x-toolcall.env`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvEntry {
    /// Pass this variable on from toolcall's environment (when set).
    Pass(String),
    /// Set this variable to this value.
    Set(String, String),
}

/// The variables every tool gets from toolcall's environment (when set):
/// `PATH`, `HOME`, `LANG`, `TERM`, `TMPDIR`, `USER`, `TZ`, every `LC_*`
/// and every `TOOLCALL_*`. Anything else needs `x-toolcall.env` (or
/// `--inherit-env`).
pub const BASE_ENV: &[&str] = &["PATH", "HOME", "LANG", "TERM", "TMPDIR", "USER", "TZ"];

/// True for a variable of the base set ([`BASE_ENV`], `LC_*`,
/// `TOOLCALL_*`).
pub fn in_base_env(name: &str) -> bool {
    BASE_ENV.contains(&name) || name.starts_with("LC_") || name.starts_with("TOOLCALL_")
}

/// True for a usable variable name: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_env_name(name: &str) -> bool {
    let mut b = name.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// A tool's `x-toolcall.sandbox`, with its patterns turned into the
/// folders and files Landlock is given (docs/agent.md#the-sandbox).
///
/// A pattern is `DIR/**` (DIR and everything below it) or an exact path
/// (that file, or that folder and everything below it: Landlock rules are
/// hierarchies). Relative patterns are taken from the tools file's folder.
/// Anything else with a glob character is refused: Landlock cannot allow
/// `*.txt` or `a*/b`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sandbox {
    /// Where the tool may read and execute; `None` (key absent) is
    /// everywhere.
    pub read: Option<Vec<PathBuf>>,
    /// Where the tool may also write, create, rename and remove; nowhere
    /// else (but `/dev/null`).
    pub write: Vec<PathBuf>,
    /// `false`: no network socket at all (only Unix ones), and no TCP
    /// bind or connect.
    pub network: bool,
    /// `true`: the tool may change file metadata (mode, owner, times,
    /// extended attributes). `false` (the default): those calls fail,
    /// wherever the file is, since the kernel's filter cannot see paths.
    #[serde(default)]
    pub metadata: bool,
}

/// Turns one sandbox pattern into the path Landlock is given (see
/// [`Sandbox`]); `base` is the tools file's folder.
pub fn sandbox_path(pattern: &str, base: &Path) -> Result<PathBuf, BindingError> {
    let dir = if pattern == "**" {
        "."
    } else if pattern == "/**" {
        "/"
    } else {
        pattern.strip_suffix("/**").unwrap_or(pattern)
    };
    if dir.is_empty() || dir.contains(['*', '?', '[', ']', '{', '}']) || dir.starts_with('~') {
        return Err(BindingError::Pattern(pattern.to_string()));
    }
    let p = Path::new(dir);
    Ok(if p.is_relative() {
        base.join(p)
    } else {
        p.to_path_buf()
    })
}

fn sandbox_meta(tool: &Tool, v: &Value, base: &Path) -> Result<Sandbox, BindingError> {
    let bad = |field: &str, want: &'static str| BindingError::Field {
        tool: tool.name.clone(),
        field: format!("sandbox{field}"),
        want,
    };
    let Value::Object(m) = v else {
        return Err(bad(
            "",
            "an object: {\"read\": [...], \"write\": [...], \"network\": false}",
        ));
    };
    if let Some(k) = m
        .keys()
        .find(|k| !matches!(k.as_str(), "read" | "write" | "network" | "metadata"))
    {
        return Err(BindingError::UnknownKey {
            tool: tool.name.clone(),
            key: k.clone(),
        });
    }
    let list = |key: &str| -> Result<Option<Vec<PathBuf>>, BindingError> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|it| {
                    let s = it
                        .as_str()
                        .ok_or_else(|| bad(&format!(".{key}"), "an array of paths"))?;
                    sandbox_path(s, base).map_err(|_| BindingError::SandboxPattern {
                        tool: tool.name.clone(),
                        field: key.to_string(),
                        pattern: s.to_string(),
                    })
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => Err(bad(&format!(".{key}"), "an array of paths")),
        }
    };
    let network = match m.get("network") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(bad(".network", "true or false")),
    };
    let metadata = match m.get("metadata") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(bad(".metadata", "true or false")),
    };
    Ok(Sandbox {
        read: list("read")?,
        write: list("write")?.unwrap_or_default(),
        network,
        metadata,
    })
}

/// Reads `exec`, `timeout_s`, `category` and `sandbox` from a tool's
/// `x-toolcall`.
/// `base` is the tools file's folder.
pub fn run_meta(tool: &Tool, base: &Path) -> Result<RunMeta, BindingError> {
    let ext = &tool.extension;
    let bad = |k: &str, want: &'static str| BindingError::Field {
        tool: tool.name.clone(),
        field: k.to_string(),
        want,
    };
    let exec = match ext.get("exec") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.trim().is_empty() => {
            Some(Command::Shell(shell_program(s, base)))
        }
        Some(Value::Array(items)) if !items.is_empty() => {
            let mut argv = Vec::with_capacity(items.len());
            for it in items {
                argv.push(
                    it.as_str()
                        .ok_or_else(|| bad("exec", "an array of strings or a string"))?
                        .to_string(),
                );
            }
            if argv[0].contains('/') && Path::new(&argv[0]).is_relative() {
                argv[0] = base.join(&argv[0]).to_string_lossy().into_owned();
            }
            Some(Command::Argv(argv))
        }
        Some(_) => return Err(bad("exec", "a non-empty array of strings or a string")),
    };
    let timeout = match ext.get("timeout_s") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let secs = v
                .as_f64()
                .filter(|s| *s > 0.0 && s.is_finite() && *s <= 86_400.0)
                .ok_or_else(|| bad("timeout_s", "a number of seconds above 0"))?;
            Some(Duration::from_secs_f64(secs))
        }
    };
    let category = match ext.get("category") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(bad("category", "a string")),
    };
    let env = match ext.get("env") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => {
            let want = "an array of variable names or NAME=value strings";
            let mut out = Vec::with_capacity(items.len());
            for it in items {
                let e = it.as_str().ok_or_else(|| bad("env", want))?;
                out.push(match e.split_once('=') {
                    Some((n, v)) if is_env_name(n) => EnvEntry::Set(n.to_string(), v.to_string()),
                    None if is_env_name(e) => EnvEntry::Pass(e.to_string()),
                    _ => return Err(bad("env", want)),
                });
            }
            out
        }
        Some(_) => {
            return Err(bad(
                "env",
                "an array of variable names or NAME=value strings",
            ))
        }
    };
    let sandbox = match ext.get("sandbox") {
        None | Some(Value::Null) => None,
        Some(v) => Some(sandbox_meta(tool, v, base)?),
    };
    Ok(RunMeta {
        exec,
        timeout,
        category,
        env,
        sandbox,
    })
}

/// A string `x-toolcall.exec` with the one rule of arrays applied: when
/// its first word is a relative path holding a `/` (`tools/note.sh
/// --quiet`), that word is taken from the tools file's folder `base`
/// (written shell-quoted); anything else, the arguments included, is left
/// as written (relative to the current directory, where tools run). A
/// first word with characters other than letters, digits, `_`, `.`, `-`,
/// `/` is left alone too (the shell reads it).
pub fn shell_program(line: &str, base: &Path) -> String {
    let rest = line.trim_start();
    let word = rest.split(char::is_whitespace).next().unwrap_or("");
    let plain = word
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/'));
    if !plain
        || !word.contains('/')
        || !Path::new(word).is_relative()
        || base.as_os_str().is_empty()
    {
        return line.to_string();
    }
    let full = base.join(word).to_string_lossy().into_owned();
    format!("'{}'{}", full.replace('\'', "'\\''"), &rest[word.len()..])
}

/// True for a name usable as a file in `--tool-dir`: `[A-Za-z0-9_.-]+`,
/// not `.` or `..`.
pub fn is_file_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// A `--bind NAME=CMD` flag: the name and the shell command.
pub fn parse_bind(s: &str) -> Result<(String, Command), BindingError> {
    match s.split_once('=') {
        Some((name, cmd)) if !name.trim().is_empty() && !cmd.trim().is_empty() => {
            Ok((name.trim().to_string(), Command::Shell(cmd.to_string())))
        }
        _ => Err(BindingError::Bind(s.to_string())),
    }
}

/// The command for tool `name`: a `--bind` first, then `x-toolcall.exec`,
/// then `DIR/NAME` under `--tool-dir` when such a file exists.
pub fn resolve(
    name: &str,
    binds: &[(String, Command)],
    meta: Option<&RunMeta>,
    tool_dir: Option<&Path>,
) -> Option<Command> {
    if let Some((_, c)) = binds.iter().find(|(n, _)| n == name) {
        return Some(c.clone());
    }
    if let Some(c) = meta.and_then(|m| m.exec.clone()) {
        return Some(c);
    }
    let dir = tool_dir?;
    if !is_file_name(name) {
        return None;
    }
    let path: PathBuf = dir.join(name);
    path.is_file()
        .then(|| Command::Argv(vec![path.to_string_lossy().into_owned()]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_commands_relative_program_is_the_tools_folders() {
        let base = Path::new("/opt/kit");
        assert_eq!(
            shell_program("bin/x.sh --q", base),
            "'/opt/kit/bin/x.sh' --q"
        );
        assert_eq!(shell_program("  ./x.sh", base), "'/opt/kit/./x.sh'");
        // a quote in the folder stays one word
        assert_eq!(
            shell_program("bin/x", Path::new("/a'b")),
            "'/a'\\''b/bin/x'"
        );
        // left as written: no `/`, absolute, shell syntax, no folder
        for line in ["python3 tools/n.py", "/bin/x", "$HOME/x", "FOO=1 bin/x"] {
            assert_eq!(shell_program(line, base), line);
        }
        assert_eq!(shell_program("bin/x", Path::new("")), "bin/x");
    }

    #[test]
    fn env_entries_are_names_or_settings() {
        assert!(is_env_name("_A1") && !is_env_name("1A") && !is_env_name("A-B"));
        assert!(in_base_env("LC_ALL") && in_base_env("TOOLCALL_X") && !in_base_env("AWS_KEY"));
    }

    #[test]
    fn sandbox_patterns_map_to_landlock_hierarchies() {
        let base = Path::new("/srv/tools");
        let ok = |p: &str| sandbox_path(p, base).expect(p);
        assert_eq!(ok("/tmp/x/**"), PathBuf::from("/tmp/x"));
        assert_eq!(ok("/tmp/x/file.txt"), PathBuf::from("/tmp/x/file.txt"));
        assert_eq!(ok("/**"), PathBuf::from("/"));
        assert_eq!(ok("out/**"), PathBuf::from("/srv/tools/out"));
        assert_eq!(ok("**"), PathBuf::from("/srv/tools/."));
        for bad in [
            "/tmp/*.txt",
            "/tmp/**/x",
            "/tmp/a?",
            "/tmp/[ab]",
            "~/x",
            "",
            "/tmp/{a,b}",
        ] {
            let e = sandbox_path(bad, base).expect_err(bad);
            assert_eq!(e, BindingError::Pattern(bad.to_string()));
            assert!(e.to_string().contains("DIR/**"), "{bad}: {e}");
        }
    }
}
