//! `toolcall._toolcall`: the Python face of `toolcall-core`.
//!
//! Every function here hands its input to the core's front door, the same
//! one the `toolcall` command goes through: options are the core's
//! [`CoreOptions`] (read from the keyword arguments, their defaults the
//! core's), resolved by the core; documents are read by [`toolcall_core::read`]
//! and [`Reader`]; records are the core's types, serialised by the core.
//! Nothing here resolves a name, holds a default or builds a record. The
//! pure-Python package `toolcall` (python/toolcall/__init__.py) wraps this
//! module with the documented signatures.
//!
//! Work on a large input runs with the GIL released (`Python::detach`), so
//! other Python threads run while a document is parsed or repaired.

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::Value;
use std::sync::Mutex;
use toolcall_core::validate::registry::{Registry, ToolsLoadError, ToolsOptions};
use toolcall_core::validate::{Policy, Verdict as CoreVerdict};
use toolcall_core::{At, Options as CoreOptions, Reader, Resolved};
use toolcall_core::{ErrorRecord as CoreError, ToolCall};
use toolcall_core::{Event as CoreEvent, FormatChoice, Sink, StreamRecorder};
use toolcall_core::{Prose, RepairOptions};

create_exception!(
    _toolcall,
    ToolcallError,
    PyValueError,
    "Base class of toolcall's errors (a ValueError)."
);
create_exception!(
    _toolcall,
    RepairError,
    ToolcallError,
    "JSON that could not be repaired (hopeless, or past a limit)."
);
create_exception!(
    _toolcall,
    ToolsError,
    ToolcallError,
    "A tools definition that could not be read."
);
create_exception!(
    _toolcall,
    OptionError,
    ToolcallError,
    "An unknown format, model, input kind or option value."
);

/// Inputs at least this large are worked on with the GIL released: below
/// it, releasing and taking it back again costs more than it frees.
const DETACH_BYTES: usize = 16 << 10;

/// Runs `f` with the GIL released when `len` is large. A signal that
/// arrived meanwhile (Ctrl-C) is handled when the GIL is taken back: its
/// handler's exception (`KeyboardInterrupt`) is raised instead of the
/// result, as a pure-Python loop would have raised it.
fn maybe_detach<T: Send, F: Send + FnOnce() -> T>(py: Python<'_>, len: usize, f: F) -> PyResult<T> {
    if len >= DETACH_BYTES {
        let out = py.detach(f);
        py.check_signals()?;
        Ok(out)
    } else {
        Ok(f())
    }
}

/// Text or bytes, as Python hands them (str is read as UTF-8).
enum Input {
    /// `bytes`, `bytearray` …
    Bytes(PyBackedBytes),
    /// `str`.
    Str(StrUtf8),
}

/// The UTF-8 text of a `str`, borrowed from the object where CPython keeps
/// it rather than copied.
///
/// `PyUnicode_AsUTF8AndSize` gives a compact ASCII `str`'s own bytes (no
/// copy at all), and for any other `str` a UTF-8 copy that CPython makes
/// once and keeps with the object, so a `str` read twice is encoded once.
/// The function is in the stable ABI from 3.10 only, so PyO3 offers it no
/// further back than an `abi3-py310` build; yet every CPython 3 since 3.3
/// exports it with this signature, and the wheel is for CPython 3.9 on.
/// The dynamic loader finds it there on Linux and macOS. On Windows an
/// abi3 module links against `python3.dll`, which exports it only from
/// 3.10: there the text is copied as PyO3 does for 3.9
/// (`PyUnicode_AsUTF8String`).
#[cfg(not(windows))]
struct StrUtf8 {
    /// Keeps the bytes alive.
    _owner: Py<PyString>,
    ptr: *const u8,
    len: usize,
}

#[cfg(not(windows))]
mod cpython {
    use pyo3::ffi::{PyObject, Py_ssize_t};
    use std::os::raw::c_char;

    extern "C" {
        /// The UTF-8 form of a `str` and its length; NULL with an
        /// exception set when it has a lone surrogate.
        pub fn PyUnicode_AsUTF8AndSize(
            unicode: *mut PyObject,
            size: *mut Py_ssize_t,
        ) -> *const c_char;
    }
}

#[cfg(not(windows))]
impl StrUtf8 {
    fn new(s: &Bound<'_, PyString>) -> PyResult<StrUtf8> {
        let mut size: pyo3::ffi::Py_ssize_t = 0;
        // SAFETY: `s` is a live `str` and the GIL is held; the returned
        // buffer belongs to the object and lives as long as it does, which
        // `_owner` ensures; it is never written to again.
        let ptr = unsafe { cpython::PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
        if ptr.is_null() {
            return Err(PyErr::fetch(s.py()));
        }
        Ok(StrUtf8 {
            _owner: s.clone().unbind(),
            ptr: ptr.cast(),
            len: usize::try_from(size).unwrap_or(0),
        })
    }

    fn as_bytes(&self) -> &[u8] {
        // SAFETY: see `new`: `len` bytes at `ptr`, alive and unchanged as
        // long as `_owner` is, which outlives `&self`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The same bytes as text, without checking them again.
    fn as_str(&self) -> &str {
        // SAFETY: `PyUnicode_AsUTF8AndSize` returns either a compact ASCII
        // `str`'s own bytes (ASCII is UTF-8) or the UTF-8 form CPython's
        // strict encoder wrote; a `str` it cannot encode (a lone
        // surrogate) makes it fail, and `new` then returns the error. So
        // the bytes are valid UTF-8, and a second check (~4% of a valid
        // document's `repair_json`) would find nothing.
        unsafe { std::str::from_utf8_unchecked(self.as_bytes()) }
    }
}

/// The UTF-8 text of a `str`, copied (see the other platforms' version).
#[cfg(windows)]
struct StrUtf8(pyo3::pybacked::PyBackedStr);

#[cfg(windows)]
impl StrUtf8 {
    fn new(s: &Bound<'_, PyString>) -> PyResult<StrUtf8> {
        Ok(StrUtf8(s.extract()?))
    }

    fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Input {
    type Error = PyErr;

    // str is looked at first and by type, so the common case never builds
    // (and throws away) a failed extraction's error
    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Input> {
        if let Ok(s) = ob.cast::<PyString>() {
            Ok(Input::Str(StrUtf8::new(&s)?))
        } else if let Ok(b) = ob.extract::<PyBackedBytes>() {
            Ok(Input::Bytes(b))
        } else {
            // PyO3's own message names only the bytes types ("not an
            // instance of 'bytes | bytearray'"); say all that is taken
            let ty = ob
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "an object".to_string());
            Err(PyTypeError::new_err(format!(
                "expected str, bytes or bytearray, got {ty}"
            )))
        }
    }
}

impl Input {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Bytes(b) => b,
            Input::Str(s) => s.as_bytes(),
        }
    }

    /// A `str`'s text, known to be UTF-8 without a check; `None` for
    /// `bytes`, which only a check can tell.
    fn known_text(&self) -> Option<&str> {
        match self {
            Input::Bytes(_) => None,
            Input::Str(s) => Some(s.as_str()),
        }
    }
}

/// The engine settings of the Python functions: the core's `Options`
/// (the flags of `toolcall parse` under their option names), resolved by
/// the core.
#[derive(Clone, Debug)]
#[pyclass(frozen, module = "toolcall._toolcall")]
pub struct Options {
    resolved: Resolved,
}

#[pymethods]
impl Options {
    /// Builds the settings from keyword arguments (a `None` is the
    /// default); raises `OptionError` on an unknown option, format, model,
    /// finish reason or input kind, or a bound out of range.
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
        let given = options_object(options)?;
        let options = CoreOptions::from_value(given).map_err(option_error)?;
        let resolved = options.resolve().map_err(option_error)?;
        Ok(Options { resolved })
    }

    /// The format looked for: `auto` or a format id.
    #[getter]
    fn format(&self) -> &'static str {
        match self.resolved.config.format {
            FormatChoice::Auto => "auto",
            FormatChoice::Only(f) => f.as_str(),
        }
    }

    /// The generation prompt the engine starts after, if any.
    #[getter]
    fn generation_prompt(&self) -> Option<String> {
        self.resolved
            .config
            .generation_prompt
            .as_deref()
            .map(|p| String::from_utf8_lossy(p).into_owned())
    }
}

/// An `OptionError` whose message is escaped by the core's
/// `escape_terminal`, the escaping of the command's stderr: an option name
/// or value echoed in it (`unknown field`, `unknown model`) can neither
/// drive a terminal nor forge a line when the message is printed.
fn option_error(message: impl std::fmt::Display) -> PyErr {
    OptionError::new_err(toolcall_core::escape_terminal(&message.to_string()).into_owned())
}

/// Keyword arguments as the JSON object the core's `Options` or
/// `ToolsOptions` are read from (a `None` left out: the default). A value
/// that is no JSON value raises `OptionError` naming the option (`max_tools_size:
/// 1000000000000000000000…: out of range`).
fn options_object(options: Option<&Bound<'_, PyDict>>) -> PyResult<Value> {
    let mut given = serde_json::Map::new();
    if let Some(d) = options {
        for (k, v) in d.iter() {
            if v.is_none() {
                continue;
            }
            let name = k.extract::<String>()?;
            let value = py_to_value(&v).map_err(|e| {
                if e.is_instance_of::<OptionError>(v.py()) {
                    option_error(format!("{name}: {}", e.value(v.py())))
                } else {
                    e
                }
            })?;
            given.insert(name, value);
        }
    }
    Ok(Value::Object(given))
}

/// Deepest option value [`py_to_value`] reads: as deep as `serde_json`
/// reads JSON text. Deeper (or a container holding itself) is an
/// `OptionError`, not a stack overflow.
const MAX_OPTION_DEPTH: usize = 128;

/// A Python value as JSON (`dict` with `str` keys, `list`, `tuple`, `str`,
/// `int`, `float`, `bool`, `None`), at most [`MAX_OPTION_DEPTH`] levels.
fn py_to_value(v: &Bound<'_, PyAny>) -> PyResult<Value> {
    py_to_value_at(v, 0)
}

/// [`py_to_value`] at nesting `depth`.
fn py_to_value_at(v: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if v.is_none() {
        Ok(Value::Null)
    } else if let Ok(b) = v.cast::<pyo3::types::PyBool>() {
        Ok(Value::Bool(b.is_true()))
    } else if let Ok(i) = v.extract::<i64>() {
        Ok(i.into())
    } else if let Ok(u) = v.extract::<u64>() {
        Ok(u.into())
    } else if let Ok(f) = v.cast::<pyo3::types::PyFloat>() {
        // JSON has no NaN or infinity (serde_json would make it null)
        serde_json::Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| OptionError::new_err(format!("{}: not a finite number", f.value())))
    } else if v.cast::<pyo3::types::PyInt>().is_ok() {
        // past i64 and u64 (10**100): the digits, cut short (`str` of a
        // huge int may itself raise, past Python's digit limit)
        let digits = v.str().map_or_else(
            |_| "an integer past Python's digit limit".to_string(),
            |s| s.to_string(),
        );
        let shown: String = digits.chars().take(40).collect();
        let cut = if shown.len() < digits.len() {
            "…"
        } else {
            ""
        };
        Err(OptionError::new_err(format!(
            "{shown}{cut}: out of range (an integer between {} and {})",
            i64::MIN,
            u64::MAX
        )))
    } else if let Ok(s) = v.cast::<PyString>() {
        Ok(Value::String(s.to_cow()?.into_owned()))
    } else if depth >= MAX_OPTION_DEPTH {
        Err(OptionError::new_err(format!(
            "an option value is nested deeper than {MAX_OPTION_DEPTH} levels \
             (or contains itself)"
        )))
    } else if let Ok(d) = v.cast::<PyDict>() {
        let mut m = serde_json::Map::new();
        for (k, x) in d.iter() {
            m.insert(k.extract::<String>()?, py_to_value_at(&x, depth + 1)?);
        }
        Ok(Value::Object(m))
    } else if let Ok(items) = v.try_iter() {
        Ok(Value::Array(
            items
                .map(|x| py_to_value_at(&x?, depth + 1))
                .collect::<PyResult<Vec<_>>>()?,
        ))
    } else {
        Err(OptionError::new_err(format!(
            "{} is not a JSON value",
            v.get_type().name()?
        )))
    }
}

/// A tools definition loaded once: its schemas compiled, with the policy
/// calls are judged under.
#[pyclass(frozen, module = "toolcall._toolcall")]
pub struct Tools {
    registry: Registry,
    policy: Policy,
}

#[pymethods]
impl Tools {
    /// Loads tools from JSON (or JSON5) text in any shape `--tools` reads.
    /// The keyword arguments are the core's `ToolsOptions` (the tools
    /// flags of the command line under their option names: `strict`,
    /// `unknown_risk`, `auto_approve`, `max_tools_size`,
    /// `max_schema_depth`, `max_schema_checks`, `max_json5_depth`); a
    /// `None` is the default. Raises `OptionError` on an unknown option or
    /// a value out of range, `ToolsError` on the definition (past a limit
    /// with the command's message).
    #[new]
    #[pyo3(signature = (text, **options))]
    fn new(text: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Tools> {
        let given = options_object(options)?;
        let options = ToolsOptions::from_value(given).map_err(option_error)?;
        let (registry, policy) = options.load(text).map_err(|e| match e {
            ToolsLoadError::Option(m) => option_error(m),
            e => ToolsError::new_err(e.to_string()),
        })?;
        Ok(Tools { registry, policy })
    }

    /// The tool names, in the file's order.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.registry
            .tools()
            .iter()
            .map(|t| t.name.clone())
            .collect()
    }

    /// Warnings found while loading (duplicate names …).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.registry.warnings.clone()
    }

    fn __len__(&self) -> usize {
        self.registry.len()
    }
}

impl Tools {
    /// The settings with the declared tool names, which let a damaged
    /// call naming a declared tool be recovered (as `--tools` does on the
    /// command line).
    fn engine(&self, r: &Resolved) -> Resolved {
        let names = self.registry.tools().iter().map(|t| t.name.clone());
        r.clone().with_tool_names(names)
    }

    /// Judges a call as `parse --tools` does (the core's
    /// `Registry::judge`).
    fn judge(&self, call: &mut ToolCall) -> CoreVerdict {
        self.registry.judge(call, &self.policy).0
    }
}

/// One change a repair made: its kind (`trailing_comma` …) and the byte
/// offset where it applies.
#[pyclass(frozen, get_all, module = "toolcall._toolcall")]
pub struct Repair {
    /// What was done, as the `repairs` field of a record names it.
    kind: &'static str,
    /// Byte offset in the repaired input.
    offset: usize,
}

#[pymethods]
impl Repair {
    fn __repr__(&self) -> String {
        format!("Repair(kind={:?}, offset={})", self.kind, self.offset)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Repair>()
            .is_ok_and(|o| o.get().kind == self.kind && o.get().offset == self.offset)
    }

    fn __hash__(&self) -> u64 {
        (self.offset as u64) ^ (self.kind.len() as u64).rotate_left(40)
    }
}

fn repairs_list(py: Python<'_>, repairs: &[toolcall_core::Repair]) -> PyResult<Py<PyList>> {
    let items = repairs.iter().map(|r| Repair {
        kind: r.kind.name(),
        offset: r.offset,
    });
    let mut out = Vec::with_capacity(repairs.len());
    for r in items {
        out.push(Py::new(py, r)?);
    }
    Ok(PyList::new(py, out)?.unbind())
}

/// A tool call the engine found.
///
/// The core's record, kept as it is: the arguments, their JSON text, the
/// repairs and the validation fields stay Rust values until first read,
/// then the Python object is kept (a second read gives the same object):
/// a document's calls are many, and a caller often reads only some of
/// each.
#[pyclass(frozen, module = "toolcall._toolcall")]
pub struct Call {
    /// The record.
    call: ToolCall,
    /// `arguments`, once read.
    args_py: PyOnceLock<Py<PyAny>>,
    /// `arguments_json`, once read.
    args_json: PyOnceLock<Py<PyString>>,
    /// `repairs`, once read.
    repairs_py: PyOnceLock<Py<PyList>>,
    /// `validation`, once read.
    validation_py: PyOnceLock<Option<Py<PyAny>>>,
}

#[pymethods]
impl Call {
    /// The function name.
    #[getter]
    fn name(&self) -> &str {
        &self.call.name
    }

    /// The provider's id, or a deterministic one derived from the call.
    #[getter]
    fn id(&self) -> &str {
        &self.call.id
    }

    /// The format id the call was written in.
    #[getter]
    fn format(&self) -> &'static str {
        self.call.format
    }

    /// The document the call came from.
    #[getter]
    fn doc(&self) -> &str {
        &self.call.doc
    }

    /// `(start, end)` byte offsets of the call's markup in the document.
    #[getter]
    fn span(&self) -> (u64, u64) {
        (self.call.span[0], self.call.span[1])
    }

    /// The call's markup exactly as written.
    #[getter]
    fn raw(&self) -> &str {
        &self.call.raw
    }

    /// The call's position among the document's calls, from 0.
    #[getter]
    fn index(&self) -> usize {
        self.call.index
    }

    /// Drafted inside reasoning (reported with `reasoning_calls=True`).
    #[getter]
    fn in_reasoning(&self) -> bool {
        self.call.in_reasoning
    }

    /// In a transcript: the 0-based turn the call lies in; else None.
    #[getter]
    fn turn(&self) -> Option<u32> {
        self.call.turn.map(|t| t.index)
    }

    /// In a transcript: the turn's role (`assistant`, …); else None.
    #[getter]
    fn role(&self) -> Option<&'static str> {
        self.call.turn.map(|t| t.role)
    }

    /// In a conversation (`input="messages"`): the JSON Pointer of the
    /// call in the document (`/messages/3/tool_calls/0`); else None.
    #[getter]
    fn pointer(&self) -> Option<&str> {
        match self.call.extra.get("pointer") {
            Some(Value::String(p)) => Some(p),
            _ => None,
        }
    }

    /// The arguments, as Python objects (a dict).
    #[getter]
    fn arguments(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let v = self.args_py.get_or_try_init(py, || {
            Ok::<_, PyErr>(value_to_py(py, self.call.arguments.as_value())?.unbind())
        })?;
        Ok(v.clone_ref(py))
    }

    /// The arguments as compact JSON text.
    #[getter]
    fn arguments_json(&self, py: Python<'_>) -> Py<PyString> {
        self.args_json
            .get_or_init(py, || match self.call.arguments.compact_text() {
                Some(text) => PyString::new(py, text).unbind(),
                None => {
                    let mut compact = Vec::new();
                    self.call.arguments.write_json(&mut compact);
                    PyString::new(py, &String::from_utf8_lossy(&compact)).unbind()
                }
            })
            .clone_ref(py)
    }

    /// The repairs that made the arguments parse.
    #[getter]
    fn repairs(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let list = self
            .repairs_py
            .get_or_try_init(py, || repairs_list(py, &self.call.repairs))?;
        Ok(list.clone_ref(py))
    }

    /// The fields past the call itself, as its record carries them: with
    /// `tools=` the validation (`tool_name`, `risk`, `requires_approval`,
    /// `summary`, `valid`, `errors`), in a conversation `turn`, `role`
    /// and `pointer`; else None.
    #[getter]
    fn validation(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let v = self.validation_py.get_or_try_init(py, || {
            if self.call.extra.is_empty() {
                return Ok::<_, PyErr>(None);
            }
            // one dict, built from the map without cloning it into a value
            let d = PyDict::new(py);
            for (k, x) in &self.call.extra {
                d.set_item(k, value_to_py(py, x)?)?;
            }
            Ok(Some(d.into_any().unbind()))
        })?;
        Ok(v.as_ref().map(|x| x.clone_ref(py)))
    }

    /// The `tool_call` record `toolcall parse` writes for this call, as a
    /// dict (the core serialises it: one schema).
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        record_to_py(py, &self.call)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Call(name={:?}, arguments={}, id={:?}, format={:?}, span={:?})",
            self.call.name,
            self.arguments_json(py),
            self.call.id,
            self.call.format,
            self.span()
        )
    }
}

/// A record the core serialises, as Python objects.
fn record_to_py<'py, T: serde::Serialize>(py: Python<'py>, rec: &T) -> PyResult<Bound<'py, PyAny>> {
    let v = serde_json::to_value(rec).map_err(|e| ToolcallError::new_err(e.to_string()))?;
    value_to_py(py, &v)
}

/// The Python object of a call: nothing is converted yet (see [`Call`]).
fn call_to_py(call: ToolCall) -> Call {
    Call {
        call,
        args_py: PyOnceLock::new(),
        args_json: PyOnceLock::new(),
        repairs_py: PyOnceLock::new(),
        validation_py: PyOnceLock::new(),
    }
}

/// A candidate call that could not be recovered (an `error` record).
#[pyclass(frozen, module = "toolcall._toolcall")]
pub struct ErrorRecord {
    error: CoreError,
}

#[pymethods]
impl ErrorRecord {
    /// A `TLP-00N` code.
    #[getter]
    fn code(&self) -> &'static str {
        self.error.code
    }

    /// What went wrong.
    #[getter]
    fn message(&self) -> &str {
        &self.error.message
    }

    /// The document it came from.
    #[getter]
    fn doc(&self) -> &str {
        &self.error.doc
    }

    /// `(start, end)` byte offsets of the candidate.
    #[getter]
    fn span(&self) -> (u64, u64) {
        (self.error.span[0], self.error.span[1])
    }

    /// The candidate's bytes (lossy UTF-8).
    #[getter]
    fn raw(&self) -> &str {
        &self.error.raw
    }

    /// Byte offset of the fault.
    #[getter]
    fn offset(&self) -> u64 {
        self.error.offset
    }

    /// 1-based line of the fault.
    #[getter]
    fn line(&self) -> u64 {
        self.error.line
    }

    /// 1-based byte column of the fault.
    #[getter]
    fn column(&self) -> u64 {
        self.error.column
    }

    /// What probably caused it, when recognisable.
    #[getter]
    fn hint(&self) -> Option<&str> {
        self.error.hint.as_deref()
    }

    /// In a transcript: the 0-based turn the candidate lies in; else None.
    #[getter]
    fn turn(&self) -> Option<u32> {
        self.error.turn.map(|t| t.index)
    }

    /// In a transcript: the turn's role; else None.
    #[getter]
    fn role(&self) -> Option<&'static str> {
        self.error.turn.map(|t| t.role)
    }

    /// The `error` record `toolcall parse` writes, as a dict.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        record_to_py(py, &self.error)
    }

    fn __repr__(&self) -> String {
        format!(
            "ErrorRecord(code={:?}, message={:?}, span={:?})",
            self.error.code,
            self.error.message,
            self.span()
        )
    }
}

fn error_to_py(error: CoreError) -> ErrorRecord {
    ErrorRecord { error }
}

/// A whole document: its calls, prose, reasoning and errors.
///
/// The prose, reasoning and tiling stay Rust values until read: most
/// callers want the calls, and building a string of a large document's
/// text (or a tuple per segment) for nothing would cost more than finding
/// the calls.
#[pyclass(frozen, module = "toolcall._toolcall")]
pub struct Document {
    calls: Py<PyList>,
    errors: Py<PyList>,
    /// The records' order (see `toolcall_core::Document::order`).
    order: Vec<At>,
    text: Vec<u8>,
    reasoning: Vec<u8>,
    /// Length of `text` before the first call (None: no call).
    text_before_len: Option<usize>,
    /// Where in `text` the text after the last call starts.
    text_after_from: usize,
    segments: Vec<toolcall_core::Segment>,
    finish_reason: Option<String>,
}

/// A Python `str` of bytes that are UTF-8 but for a broken character,
/// which becomes U+FFFD (as records write it).
fn lossy_str<'py>(py: Python<'py>, bytes: &[u8]) -> Bound<'py, PyString> {
    PyString::new(py, &String::from_utf8_lossy(bytes))
}

#[pymethods]
impl Document {
    /// The calls, in order.
    #[getter]
    fn calls(&self, py: Python<'_>) -> Py<PyList> {
        self.calls.clone_ref(py)
    }

    /// Candidates that could not be recovered.
    #[getter]
    fn errors(&self, py: Python<'_>) -> Py<PyList> {
        self.errors.clone_ref(py)
    }

    /// All prose, with calls, reasoning and markup removed.
    #[getter]
    fn text<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        lossy_str(py, &self.text)
    }

    /// The content of all reasoning spans.
    #[getter]
    fn reasoning<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        lossy_str(py, &self.reasoning)
    }

    /// Text before the first call (all text when there is none).
    #[getter]
    fn text_before<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        let end = self.text_before_len.unwrap_or(self.text.len());
        lossy_str(py, &self.text[..end.min(self.text.len())])
    }

    /// Text after the last call (empty when there is no call).
    #[getter]
    fn text_after<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        match self.text_before_len {
            Some(_) => lossy_str(py, &self.text[self.text_after_from.min(self.text.len())..]),
            None => PyString::new(py, ""),
        }
    }

    /// The exact tiling: `(kind, (start, end))`, kinds `text`,
    /// `reasoning`, `tool_call`, `markup`.
    #[getter]
    fn segments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        use toolcall_core::SegmentKind;
        let mut out = Vec::with_capacity(self.segments.len());
        for s in &self.segments {
            let kind = match s.kind {
                SegmentKind::Text => "text",
                SegmentKind::Reasoning => "reasoning",
                SegmentKind::ToolCall => "tool_call",
                SegmentKind::Markup => "markup",
            };
            out.push((kind, (s.span[0], s.span[1])).into_pyobject(py)?);
        }
        PyList::new(py, out)
    }

    /// With a wire input: the finish reason the server reported.
    #[getter]
    fn finish_reason(&self) -> Option<String> {
        self.finish_reason.clone()
    }

    /// The records `toolcall parse` writes for this input, in its order
    /// (each error before the call after it): `tool_call` and `error`
    /// dicts, serialised by the core.
    fn records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let (calls, errors) = (self.calls.bind(py), self.errors.bind(py));
        let out = PyList::empty(py);
        for at in &self.order {
            let rec = match *at {
                At::Call(k) => calls.get_item(k)?.cast::<Call>()?.get().record(py)?,
                At::Error(k) => errors
                    .get_item(k)?
                    .cast::<ErrorRecord>()?
                    .get()
                    .record(py)?,
            };
            out.append(rec)?;
        }
        Ok(out)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Document(calls={}, errors={}, text={} bytes, reasoning={} bytes)",
            self.calls.bind(py).len(),
            self.errors.bind(py).len(),
            self.text.len(),
            self.reasoning.len()
        )
    }
}

fn document_to_py(py: Python<'_>, doc: toolcall_core::Document) -> PyResult<Document> {
    let order = doc.order();
    let found = doc.found;
    let mut calls = Vec::with_capacity(found.calls.len());
    for c in found.calls {
        calls.push(Py::new(py, call_to_py(c))?);
    }
    let mut errors = Vec::with_capacity(found.errors.len());
    for e in found.errors {
        errors.push(Py::new(py, error_to_py(e))?);
    }
    Ok(Document {
        calls: PyList::new(py, calls)?.unbind(),
        errors: PyList::new(py, errors)?.unbind(),
        order,
        text: found.text,
        reasoning: found.reasoning,
        text_before_len: found.text_before_len,
        text_after_from: found.text_after_from,
        segments: found.segments,
        finish_reason: doc.summary.finish_reason,
    })
}

/// Reads a whole input with the core's `read` (the command's `parse` and
/// `split`), the calls judged against `tools` when given.
fn read_judged(
    py: Python<'_>,
    text: &Input,
    options: &Options,
    tools: Option<&Tools>,
) -> PyResult<toolcall_core::Document> {
    let bytes = text.bytes();
    maybe_detach(py, bytes.len(), || {
        let mut doc = match tools {
            Some(t) => toolcall_core::read(bytes, &t.engine(&options.resolved)),
            None => toolcall_core::read(bytes, &options.resolved),
        };
        if let Some(t) = tools {
            for call in &mut doc.found.calls {
                let v = t.judge(call);
                v.write_into(&mut call.extra);
            }
        }
        doc
    })
}

/// Parses a whole document: the engine fed once.
#[pyfunction]
#[pyo3(signature = (text, options, tools=None))]
fn parse(
    py: Python<'_>,
    text: Input,
    options: &Options,
    tools: Option<&Tools>,
) -> PyResult<Document> {
    let doc = read_judged(py, &text, options, tools)?;
    document_to_py(py, doc)
}

/// The `split` record of `toolcall split` (serialised by the core).
#[pyfunction]
#[pyo3(signature = (text, options, tools=None))]
fn split<'py>(
    py: Python<'py>,
    text: Input,
    options: &Options,
    tools: Option<&Tools>,
) -> PyResult<Bound<'py, PyAny>> {
    let doc = read_judged(py, &text, options, tools)?;
    record_to_py(py, &doc.into_split())
}

/// One record of a feed, as the core's [`StreamRecorder`] wrote it (the
/// bytes `toolcall stream` writes), with the call or error it was written
/// from, kept for the event's `call` and `error` objects.
struct Recorded {
    json: Vec<u8>,
    call: Option<Box<ToolCall>>,
    error: Option<CoreError>,
}

/// Collects a feed's records to hand to Python after the engine returns:
/// each event goes through the core's [`StreamRecorder`] (calls judged
/// against the tools there, as the command and the Node package do).
struct Buffer<'a> {
    records: Vec<Recorded>,
    starts: bool,
    tools: Option<&'a Tools>,
    recorder: &'a mut StreamRecorder,
}

impl Sink for Buffer<'_> {
    fn wants_starts(&self) -> bool {
        self.starts
    }

    fn event(&mut self, ev: CoreEvent<'_>) {
        let error = match &ev {
            CoreEvent::Error(e) => Some(e.clone()),
            _ => None,
        };
        let mut call = None;
        let mut json = Vec::new();
        let tools = self.tools;
        let judge = |c: &mut ToolCall| {
            if let Some(t) = tools {
                let v = t.judge(c);
                v.write_into(&mut c.extra);
            }
            call = Some(Box::new(c.clone()));
        };
        if self.recorder.record(ev, judge, &mut json) {
            self.records.push(Recorded { json, call, error });
        }
    }
}

/// One event of a stream, as `toolcall stream` writes it: `type` is one
/// of `text`, `reasoning`, `markup`, `tool_call_start`, `tool_call`,
/// `error`, `done`; the other fields are set as the type needs, read from
/// the record the core wrote (`record()` gives all of it).
#[pyclass(frozen, module = "toolcall._toolcall")]
pub struct Event {
    /// The event's type.
    #[pyo3(get)]
    r#type: String,
    /// `(start, end)` byte offsets (text, reasoning, markup, tool_call,
    /// error).
    #[pyo3(get)]
    span: Option<(u64, u64)>,
    /// The prose, the reasoning content, or the markup's bytes.
    #[pyo3(get)]
    text: Option<String>,
    /// The call's index (tool_call_start, tool_call).
    #[pyo3(get)]
    index: Option<u64>,
    /// The call's id (tool_call_start, tool_call).
    #[pyo3(get)]
    id: Option<String>,
    /// The call's name (tool_call_start, tool_call).
    #[pyo3(get)]
    name: Option<String>,
    /// The call (tool_call).
    #[pyo3(get)]
    call: Option<Py<Call>>,
    /// The error (error).
    #[pyo3(get)]
    error: Option<Py<ErrorRecord>>,
    /// Calls found in the whole stream (done).
    #[pyo3(get)]
    calls: Option<u64>,
    /// Bytes read (done).
    #[pyo3(get)]
    bytes: Option<u64>,
    /// Why the server said the output ended (done, wire inputs).
    #[pyo3(get)]
    finish_reason: Option<String>,
    /// The record's JSON text, as `toolcall stream` writes it.
    json: String,
}

#[pymethods]
impl Event {
    /// The record as a dict: the line `toolcall stream` writes for this
    /// event, field for field.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Value =
            serde_json::from_str(&self.json).map_err(|e| ToolcallError::new_err(e.to_string()))?;
        value_to_py(py, &v)
    }

    fn __repr__(&self) -> String {
        let mut s = format!("Event(type={:?}", self.r#type);
        if let Some(span) = self.span {
            s.push_str(&format!(", span={span:?}"));
        }
        if let Some(t) = &self.text {
            s.push_str(&format!(", text={t:?}"));
        }
        if let Some(n) = &self.name {
            s.push_str(&format!(", name={n:?}"));
        }
        if let Some(n) = self.calls {
            s.push_str(&format!(", calls={n}"));
        }
        s.push(')');
        s
    }
}

/// An event's attributes, read from the record the core wrote.
fn event_of(py: Python<'_>, rec: Recorded) -> PyResult<Event> {
    let json = String::from_utf8(rec.json).map_err(|e| ToolcallError::new_err(e.to_string()))?;
    let v: Value =
        serde_json::from_str(&json).map_err(|e| ToolcallError::new_err(e.to_string()))?;
    let str_of = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    let u64_of = |k: &str| v.get(k).and_then(Value::as_u64);
    let kind = str_of("type").unwrap_or_default();
    let span = v
        .get("span")
        .and_then(|s| Some((s.get(0)?.as_u64()?, s.get(1)?.as_u64()?)));
    // a markup record keeps its bytes in `raw`, as the command writes it
    let text = str_of(if kind == "markup" { "raw" } else { "text" });
    let call = match rec.call {
        Some(c) => Some(Py::new(py, call_to_py(*c))?),
        None => None,
    };
    let error = match rec.error {
        Some(e) => Some(Py::new(py, error_to_py(e))?),
        None => None,
    };
    let is_call = matches!(kind.as_str(), "tool_call" | "tool_call_start");
    Ok(Event {
        span,
        text: if kind == "error" { None } else { text },
        index: if is_call { u64_of("index") } else { None },
        id: if is_call { str_of("id") } else { None },
        name: if is_call { str_of("name") } else { None },
        call,
        error,
        calls: if kind == "done" {
            u64_of("calls")
        } else {
            None
        },
        bytes: if kind == "done" {
            u64_of("bytes")
        } else {
            None
        },
        finish_reason: if kind == "done" {
            str_of("finish_reason")
        } else {
            None
        },
        r#type: kind,
        json,
    })
}

fn events_to_py(py: Python<'_>, records: Vec<Recorded>) -> PyResult<Py<PyList>> {
    let mut out = Vec::with_capacity(records.len());
    for rec in records {
        out.push(Py::new(py, event_of(py, rec)?)?);
    }
    Ok(PyList::new(py, out)?.unbind())
}

/// A stream's reader and the recorder that writes its records.
struct Streaming {
    reader: Reader,
    recorder: StreamRecorder,
}

/// The engine fed chunk by chunk (`toolcall stream`). One feed runs at a
/// time: a second thread's feed waits for the first.
#[pyclass(frozen, module = "toolcall._toolcall")]
pub struct StreamParser {
    engine: Mutex<Option<Streaming>>,
    tools: Option<Py<Tools>>,
    starts: bool,
}

#[pymethods]
impl StreamParser {
    /// A parser in the state `options` describe.
    #[new]
    #[pyo3(signature = (options, tools=None, starts=true))]
    fn new(options: &Options, tools: Option<Py<Tools>>, starts: bool) -> StreamParser {
        // read as it arrives: the stream's think window unless one was given
        let resolved = options.resolved.clone().streaming();
        let resolved = match &tools {
            Some(t) => t.get().engine(&resolved),
            None => resolved,
        };
        StreamParser {
            engine: Mutex::new(Some(Streaming {
                reader: Reader::new(&resolved),
                recorder: StreamRecorder::new(),
            })),
            tools,
            starts,
        }
    }

    /// Feeds a chunk; returns the events it decided.
    fn feed(&self, py: Python<'_>, chunk: Input) -> PyResult<Py<PyList>> {
        let bytes = chunk.bytes();
        let tools = self.tools.as_ref().map(|t| t.get());
        let starts = self.starts;
        let fed = maybe_detach(py, bytes.len(), || {
            let mut guard = self.engine.lock().unwrap_or_else(|p| p.into_inner());
            let s = guard.as_mut()?;
            let mut buf = Buffer {
                records: Vec::new(),
                starts,
                tools,
                recorder: &mut s.recorder,
            };
            s.reader.feed(bytes, &mut buf);
            Some(buf.records)
        })?;
        let Some(records) = fed else {
            return Err(ToolcallError::new_err("feed() after close()"));
        };
        events_to_py(py, records)
    }

    /// Ends the input: returns the last events, then a `done` event.
    fn close(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let taken = self.engine.lock().unwrap_or_else(|p| p.into_inner()).take();
        let Some(mut s) = taken else {
            return Err(ToolcallError::new_err("close() called twice"));
        };
        let mut buf = Buffer {
            records: Vec::new(),
            starts: self.starts,
            tools: self.tools.as_ref().map(|t| t.get()),
            recorder: &mut s.recorder,
        };
        s.reader.finish(&mut buf);
        let mut records = buf.records;
        let mut json = Vec::new();
        toolcall_core::write_done(&s.reader.summary(), &mut json);
        records.push(Recorded {
            json,
            call: None,
            error: None,
        });
        events_to_py(py, records)
    }

    /// Bytes held back, undecided, so far.
    #[getter]
    fn held(&self) -> usize {
        let guard = self.engine.lock().unwrap_or_else(|p| p.into_inner());
        guard.as_ref().map_or(0, |s| s.reader.held())
    }

    /// True once `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        let guard = self.engine.lock().unwrap_or_else(|p| p.into_inner());
        guard.is_none()
    }
}

/// A call to judge: name and arguments JSON text.
type CallIn = (String, String);

/// One call's judgement.
#[pyclass(frozen, get_all, module = "toolcall._toolcall")]
pub struct Verdict {
    /// The call's name.
    name: String,
    /// No errors.
    valid: bool,
    /// The errors: dicts with `code`, `path`, `message`, `expected`,
    /// `actual`.
    errors: Py<PyAny>,
    /// Not errors, but worth telling (an unknown tool in lenient mode).
    warnings: Py<PyAny>,
    /// The tool is in the tools definition.
    known: bool,
    /// Display name.
    tool_name: String,
    /// Risk level: safe, low, medium, high or critical.
    risk: &'static str,
    /// Risk above the auto-approval level, or the tool says so.
    requires_approval: bool,
    /// One-line summary of what the call does.
    summary: String,
}

#[pymethods]
impl Verdict {
    fn __repr__(&self) -> String {
        format!(
            "Verdict(name={:?}, valid={}, risk={:?})",
            self.name, self.valid, self.risk
        )
    }

    fn __bool__(&self) -> bool {
        self.valid
    }
}

/// Validates calls (name, arguments JSON) against tools.
#[pyfunction]
fn validate(py: Python<'_>, calls: Vec<CallIn>, tools: &Tools) -> PyResult<Vec<Verdict>> {
    let mut out = Vec::with_capacity(calls.len());
    for (name, args) in calls {
        let value: Value = serde_json::from_str(&args)
            .map_err(|e| ToolcallError::new_err(format!("arguments of {name}: {e}")))?;
        let v = tools.registry.check(&name, &value, &tools.policy);
        let issues = |list: &[toolcall_core::validate::Issue]| -> PyResult<Py<PyAny>> {
            let v = Value::Array(
                list.iter()
                    .map(|i| {
                        serde_json::json!({
                            "code": i.code, "path": i.path, "message": i.message,
                            "expected": i.expected, "actual": i.actual,
                        })
                    })
                    .collect(),
            );
            Ok(value_to_py(py, &v)?.unbind())
        };
        out.push(Verdict {
            errors: issues(&v.errors)?,
            warnings: issues(&v.warnings)?,
            name,
            valid: v.valid,
            known: v.known,
            tool_name: v.tool_name,
            risk: v.risk.as_str(),
            requires_approval: v.requires_approval,
            summary: v.summary,
        });
    }
    Ok(out)
}

/// The tools block a family's chat template writes (`toolcall render tools`).
#[pyfunction]
fn render_tools(family: &str, tools: &Tools) -> PyResult<String> {
    let fam = render_family(family)?;
    Ok(toolcall_core::render_tools(fam, tools.registry.tools()))
}

/// The message carrying results back (`toolcall render result`): each
/// result a JSON object text as `render result` reads one; returns
/// `(pre, body, post)`.
#[pyfunction]
#[pyo3(signature = (family, results, max_tokens=0))]
fn render_result(
    family: &str,
    results: Vec<String>,
    max_tokens: usize,
) -> PyResult<(String, String, String)> {
    let fam = render_family(family)?;
    let mut parsed = Vec::with_capacity(results.len());
    for r in &results {
        let v: Value =
            serde_json::from_str(r).map_err(|e| ToolcallError::new_err(format!("result: {e}")))?;
        parsed.push(
            toolcall_core::ToolResult::from_value(&v)
                .map_err(|e| ToolcallError::new_err(e.to_string()))?,
        );
    }
    let m = toolcall_core::render_results(fam, &parsed, max_tokens);
    Ok((m.pre, m.body, m.post))
}

fn render_family(name: &str) -> PyResult<&'static toolcall_core::Family> {
    let id = toolcall_core::resolve_name(name).map_or(name, |n| n.format.as_str());
    toolcall_core::family(id).ok_or_else(|| {
        let ids: Vec<&str> = toolcall_core::families().iter().map(|f| f.id).collect();
        option_error(format!(
            "no rendering for '{name}' (families: {})",
            ids.join(", ")
        ))
    })
}

/// The format table (`toolcall formats --json`): one record per format,
/// serialised by the core.
#[pyfunction]
#[pyo3(name = "formats")]
fn format_table<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    let records: Vec<_> = toolcall_core::format_records().collect();
    record_to_py(py, &records)
}

/// The conversation checks of a raw transcript (`TLP-009`, `TLP-010`, as
/// `toolcall validate` runs them): one dict per finding, serialised by the
/// core; the codes in `allow` are off.
#[pyfunction]
#[pyo3(signature = (text, options, allow=Vec::new()))]
fn check_transcript<'py>(
    py: Python<'py>,
    text: Input,
    options: &Options,
    allow: Vec<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = text.bytes();
    let found = maybe_detach(py, bytes.len(), || {
        let r = &options.resolved;
        toolcall_core::validate::turns::check_transcript(bytes, &r.config, &r.wire, &allow)
    })?;
    record_to_py(py, &found)
}

/// Conversations converted to OpenAI chat rows, as `toolcall validate
/// --convert openai` writes them (`toolcall_core::validate::convert::text`):
/// each row's JSON text, one per conversation in input order, and what
/// could not be read, as `(code, line, message)`.
#[pyfunction]
#[pyo3(signature = (text, options, messages_at=None))]
fn convert_openai(
    py: Python<'_>,
    text: Input,
    options: &Options,
    messages_at: Option<String>,
) -> PyResult<ConvertedRows> {
    let bytes = text.bytes();
    let out = maybe_detach(py, bytes.len(), || {
        let r = &options.resolved;
        toolcall_core::validate::convert::text(
            bytes,
            messages_at.as_deref(),
            r.conversations(),
            r.wire.max_buffer,
            &r.config,
        )
    })?;
    let problems = out
        .problems
        .into_iter()
        .map(|(code, line, message)| (code.to_string(), line, message))
        .collect();
    Ok((out.rows, problems))
}

/// What [`convert_openai`] returns: the rows' JSON texts and the problems.
type ConvertedRows = (Vec<String>, Vec<(String, usize, String)>);

/// The core's default options, as a dict (every option's name and
/// default, written once in the core).
#[pyfunction]
fn default_options<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    record_to_py(py, &CoreOptions::default())
}

/// The known models (`toolcall formats --models --json`): name, format and
/// generation prompt.
#[pyfunction]
fn models<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    let records: Vec<_> = toolcall_core::models().collect();
    record_to_py(py, &records)
}

/// How `text_as_string` asks a document of prose to be read.
fn prose(text_as_string: bool) -> Prose {
    if text_as_string {
        Prose::AsString
    } else {
        Prose::Refuse
    }
}

/// Repairs one JSON document as `toolcall repair` does (the core's
/// `repair_document`, the function the command and the Node package run);
/// returns the text and the repairs, or raises `RepairError`. A sentence of
/// prose is hopeless unless `text_as_string`, as without the command's
/// `--text-as-string`.
#[pyfunction]
#[pyo3(signature = (text, *, max_depth=64, timeout_ms=100, max_size=None, text_as_string=false))]
fn repair(
    py: Python<'_>,
    text: Input,
    max_depth: usize,
    timeout_ms: u64,
    max_size: Option<usize>,
    text_as_string: bool,
) -> PyResult<(String, Py<PyList>)> {
    let opts = RepairOptions {
        max_depth: max_depth.max(1),
        max_input_bytes: max_size.unwrap_or(usize::MAX),
        timeout_ms,
        ..RepairOptions::unbounded()
    };
    let bytes = text.bytes();
    let result = maybe_detach(py, bytes.len(), || {
        toolcall_core::repair_document(bytes, &opts, prose(text_as_string))
    })?;
    match result {
        Ok(r) => Ok((r.output, repairs_list(py, &r.repairs)?)),
        Err(e) => {
            let err = RepairError::new_err(e.to_string());
            let v = err.value(py);
            v.setattr("code", e.code)?;
            v.setattr("offset", e.offset)?;
            v.setattr("line", e.line)?;
            v.setattr("column", e.column)?;
            Err(err)
        }
    }
}

/// `repair_json`'s common case: the repaired text, or `None` when nothing
/// can be made of the input (no repair list is built). The core's
/// `repair_document` with json_repair's reading: no depth, size or time
/// limit, and a sentence of prose read as one string (`--text-as-string`);
/// text in UTF-8 goes through `repair_document_text`, whose fast path
/// takes a short document in one pass (the same bytes and errors as the
/// full repair). A valid `str` comes back as the very object passed in:
/// no copy of its text and no new string to build.
#[pyfunction]
fn repair_text<'py>(
    py: Python<'py>,
    text: Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    const OPTS: RepairOptions = RepairOptions::unbounded();
    let input: Input = text.extract()?;
    let bytes = input.bytes();
    let known_text = input.known_text();
    let outcome = maybe_detach(py, bytes.len(), || {
        // valid input is checked in place and not copied
        match known_text.or_else(|| std::str::from_utf8(bytes).ok()) {
            Some(s) => toolcall_core::repair_document_text(s, &OPTS, Prose::AsString),
            None => toolcall_core::repair_document(bytes, &OPTS, Prose::AsString)
                .map(|r| Some(r.output)),
        }
    })?;
    match outcome {
        Err(_) => Ok(None),
        Ok(None) if matches!(input, Input::Str(_)) => Ok(Some(text)),
        Ok(None) => Ok(Some(
            PyString::new(py, &String::from_utf8_lossy(bytes)).into_any(),
        )),
        Ok(Some(out)) => Ok(Some(PyString::new(py, &out).into_any())),
    }
}

/// Converts a JSON value to Python objects (`dict`, `list`, `str`, `int`,
/// `float`, `bool`, `None`), big integers exactly.
fn value_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                let s = n.to_string();
                if s.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
                    // an integer past 64 bits: Python's int reads it exactly
                    py.get_type::<pyo3::types::PyInt>().call1((s,))?
                } else {
                    n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
                }
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| value_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, value_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// Parses JSON text to Python objects with the engine's reader (used by
/// `repair_json(return_objects=True)`).
#[pyfunction]
fn loads_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let v: Value = maybe_detach(py, text.len(), || serde_json::from_str(text))?
        .map_err(|e| ToolcallError::new_err(e.to_string()))?;
    value_to_py(py, &v)
}

/// The module.
#[pymodule]
fn _toolcall(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ToolcallError", py.get_type::<ToolcallError>())?;
    m.add("RepairError", py.get_type::<RepairError>())?;
    m.add("ToolsError", py.get_type::<ToolsError>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    m.add_class::<Options>()?;
    m.add_class::<Tools>()?;
    m.add_class::<Repair>()?;
    m.add_class::<Call>()?;
    m.add_class::<ErrorRecord>()?;
    m.add_class::<Document>()?;
    m.add_class::<Event>()?;
    m.add_class::<StreamParser>()?;
    m.add_class::<Verdict>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(render_tools, m)?)?;
    m.add_function(wrap_pyfunction!(render_result, m)?)?;
    m.add_function(wrap_pyfunction!(format_table, m)?)?;
    m.add_function(wrap_pyfunction!(models, m)?)?;
    m.add_function(wrap_pyfunction!(default_options, m)?)?;
    m.add_function(wrap_pyfunction!(check_transcript, m)?)?;
    m.add_function(wrap_pyfunction!(convert_openai, m)?)?;
    m.add_function(wrap_pyfunction!(split, m)?)?;
    m.add_function(wrap_pyfunction!(repair, m)?)?;
    m.add_function(wrap_pyfunction!(repair_text, m)?)?;
    m.add_function(wrap_pyfunction!(loads_json, m)?)?;
    Ok(())
}
