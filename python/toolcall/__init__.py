"""Find, repair and validate the tool calls language models write.

The same engine as the ``toolcall`` command (a Rust extension,
``toolcall._toolcall``), with Python types::

    import toolcall
    doc = toolcall.parse('<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>')
    doc.calls[0].name, doc.calls[0].arguments      # ('f', {'x': 1})
    toolcall.repair_json("{'a': 1,}")              # '{"a": 1}'

Every function hands its input to the engine; nothing here parses on its
own. Large inputs are parsed with the GIL released, so threads run side by
side.
"""

from __future__ import annotations

import json as _json
import os as _os
from typing import TYPE_CHECKING, Any, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _toolcall
from ._toolcall import (
    Call,
    Document,
    ErrorRecord,
    Event,
    OptionError,
    Repair,
    RepairError,
    ToolcallError,
    Tools,
    ToolsError,
    Verdict,
)
from ._types import AssistantMessage, Options

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._toolcall import (
        DoneEvent,
        ErrorEvent,
        MarkupEvent,
        ReasoningEvent,
        TextEvent,
        ToolCallEvent,
        ToolCallStartEvent,
    )
else:
    # one runtime class; the type checker sees one class per `type`
    DoneEvent = ErrorEvent = MarkupEvent = ReasoningEvent = Event
    TextEvent = ToolCallEvent = ToolCallStartEvent = Event

__version__: str = _toolcall.__version__

__all__ = [
    "AssistantMessage",
    "Call",
    "DoneEvent",
    "ErrorEvent",
    "MarkupEvent",
    "Options",
    "ReasoningEvent",
    "TextEvent",
    "ToolCallEvent",
    "ToolCallStartEvent",
    "Document",
    "ErrorRecord",
    "Event",
    "OptionError",
    "Repair",
    "RepairError",
    "StreamParser",
    "ToolcallError",
    "Tools",
    "ToolsError",
    "Verdict",
    "Converted",
    "check_transcript",
    "convert",
    "formats",
    "loads",
    "models",
    "parse",
    "render_result",
    "render_tools",
    "repair",
    "repair_json",
    "split",
    "to_openai",
    "validate",
]

ToolsLike = Union[Tools, str, bytes, "_os.PathLike[str]", Sequence[Any], Mapping[str, Any]]
"""A tools definition: a loaded :class:`Tools`, JSON text, a path to a JSON
(or JSON5) file, or the parsed value (an OpenAI ``tools`` list, an MCP
``tools/list`` result, a ``{name: schema}`` map ...)."""


def _tools(tools: Optional[ToolsLike], strict: bool = True) -> Optional[Tools]:
    if tools is None or isinstance(tools, Tools):
        return tools
    if isinstance(tools, _os.PathLike):
        with open(tools, encoding="utf-8") as f:
            return Tools(f.read(), strict=strict)
    if isinstance(tools, bytes):
        return Tools(tools.decode("utf-8"), strict=strict)
    if isinstance(tools, str):
        return Tools(tools, strict=strict)
    return Tools(_json.dumps(tools), strict=strict)


def parse(
    text: Union[str, bytes],
    *,
    tools: Optional[ToolsLike] = None,
    **options: Unpack[Options],
) -> Document:
    """Parse a whole model output: its calls, prose, reasoning and errors.

    The options are ``toolcall parse``'s flags under their option names,
    their defaults the engine's (see :class:`Options`): ``format``
    (``"auto"``, a format id or a model name), ``model`` (a served model
    name: its format and default generation prompt), ``generation_prompt``
    (the text the chat template appended after the last message),
    ``finish_reason`` (``"length"``: a call still open at the end is a
    truncation error), ``input`` (``"auto"``, ``"text"``, a server's stream
    ``"ollama"``/``"openai"``/``"llama-server"``/``"terminal"``, or
    ``"messages"`` for conversations: every shape ``toolcall validate``
    reads, from the core's one table; each call then has its ``pointer``,
    ``turn`` and ``role``) and the rest. ``tools``: calls get a ``validation`` dict. An unknown option or
    name raises :class:`OptionError`.
    """
    return _toolcall.parse(text, _toolcall.Options(**options), _tools(tools))


class StreamParser:
    """The engine fed chunk by chunk, as ``toolcall stream`` reads a live
    output: each :meth:`feed` returns the events its chunk decided, and
    :meth:`close` the rest and a final ``done`` event. The calls, text and
    reasoning are the same as :func:`parse` gives for the whole input,
    however it is cut into chunks (bytes may split a UTF-8 character)."""

    def __init__(
        self,
        *,
        tools: Optional[ToolsLike] = None,
        starts: bool = True,
        **options: Unpack[Options],
    ) -> None:
        self._parser = _toolcall.StreamParser(_toolcall.Options(**options), _tools(tools), starts)

    def feed(self, chunk: Union[str, bytes]) -> List[Event]:
        """Feed the next chunk; return the events it decided."""
        return self._parser.feed(chunk)

    def close(self) -> List[Event]:
        """End the input; return the last events and a ``done`` event."""
        return self._parser.close()

    @property
    def held(self) -> int:
        """Bytes held back, undecided (a possible marker's start)."""
        return self._parser.held

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._parser.closed

    def __enter__(self) -> "StreamParser":
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.closed:
            self.close()


def split(
    text: Union[str, bytes],
    *,
    tools: Optional[ToolsLike] = None,
    **options: Unpack[Options],
) -> dict[str, Any]:
    """Separate text, reasoning and calls losslessly: the ``split`` record
    of ``toolcall split`` as a dict (``doc``, ``text_before``,
    ``text_after``, ``text``, ``reasoning``, ``tool_calls``, ``errors``,
    ``segments``), written by the engine. Takes :func:`parse`'s options."""
    out: dict[str, Any] = _toolcall.split(text, _toolcall.Options(**options), _tools(tools))
    return out


def check_transcript(
    text: Union[str, bytes],
    *,
    allow: Sequence[str] = (),
    **options: Unpack[Options],
) -> List[dict[str, Any]]:
    """The conversation checks of a raw transcript (model text with turn
    headers), as ``toolcall validate`` runs them: ``TLP-009`` (a call no
    tool turn answers before the next assistant turn) and ``TLP-010`` (a
    tool turn that answers no call). One dict per finding (``code``,
    ``message``, ``doc``, ``span``, ``turn``, ``role``); codes in ``allow``
    are off. Takes :func:`parse`'s options."""
    return _toolcall.check_transcript(text, _toolcall.Options(**options), list(allow))


class Converted:
    """Conversations converted by :func:`convert`: ``rows`` (one dict per
    conversation, in input order), ``errors`` (what could not be read:
    ``{"code", "line", "message"}``), and :meth:`jsonl`, the bytes
    ``toolcall validate --convert openai`` writes."""

    __slots__ = ("_lines", "rows", "errors")

    def __init__(self, lines: List[str], problems: List[Tuple[str, int, str]]) -> None:
        self._lines = lines
        self.rows: List[dict[str, Any]] = [_json.loads(l) for l in lines]
        self.errors: List[dict[str, Any]] = [
            {"code": c, "line": n, "message": m} for c, n, m in problems
        ]

    def jsonl(self) -> str:
        """The rows as JSONL text, one line each (what the CLI writes)."""
        return "".join(l + "\n" for l in self._lines)

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        return f"Converted(rows={len(self.rows)}, errors={len(self.errors)})"


def convert(
    data: Union[str, bytes],
    to: str = "openai",
    *,
    messages_at: Optional[str] = None,
    **options: Unpack[Options],
) -> Converted:
    """Every conversation of ``data`` (a JSON document, a JSONL of
    conversations or a session log, in any shape ``toolcall validate``
    reads) as one OpenAI chat row, ``{"messages": [...], "tools": [...]}``:
    calls as ``tool_calls`` with ids (``call_<conversation>_<n>`` when
    missing), results as ``tool`` messages linked to them, arguments
    encoded twice decoded, calls written as text lifted out of it, split
    messages merged, tools declared in a system prompt as the row's
    ``tools``. The same rows as ``toolcall validate --convert openai``
    (one core function); documents, lines or elements that cannot be read
    are in ``errors``. ``to`` is ``"openai"``, the one target."""
    if to != "openai":
        raise OptionError(f"unknown conversion target {to!r} (known: openai)")
    lines, problems = _toolcall.convert_openai(data, _toolcall.Options(**options), messages_at)
    return Converted(lines, problems)


def _name_args(item: Any) -> Tuple[str, str]:
    if isinstance(item, Call):
        return item.name, item.arguments_json
    if isinstance(item, Mapping):
        fn = item.get("function", item)
        name = fn.get("name", "")
        args = fn.get("arguments", fn.get("parameters", {}))
        if args is None:
            args = {}
        return str(name), args if isinstance(args, str) else _json.dumps(args)
    raise TypeError(f"cannot validate {type(item).__name__}: give Call objects or dicts")


def validate(
    doc_or_calls: Union[Document, Call, Iterable[Union[Call, Mapping[str, Any]]]],
    tools: ToolsLike,
    *,
    strict: bool = True,
    unknown_risk: str = "medium",
    auto_approve: str = "safe",
) -> List[Verdict]:
    """Judge calls against tool schemas, as ``toolcall validate`` does.

    ``doc_or_calls`` is a :class:`Document`, a :class:`Call`, or calls as
    dicts (``{"name", "arguments"}`` or OpenAI's ``{"function": {...}}``,
    arguments as a dict or JSON text). One :class:`Verdict` per call.
    ``strict``, ``unknown_risk`` and ``auto_approve`` apply when ``tools``
    is not already a :class:`Tools`."""
    if isinstance(doc_or_calls, Document):
        items: Iterable[Any] = doc_or_calls.calls
    elif isinstance(doc_or_calls, (Call, Mapping)):
        items = [doc_or_calls]
    else:
        items = doc_or_calls
    if not isinstance(tools, Tools):
        if isinstance(tools, _os.PathLike):
            with open(tools, encoding="utf-8") as f:
                text = f.read()
        elif isinstance(tools, bytes):
            text = tools.decode("utf-8")
        elif isinstance(tools, str):
            text = tools
        else:
            text = _json.dumps(tools)
        tools = Tools(text, strict=strict, unknown_risk=unknown_risk, auto_approve=auto_approve)
    return _toolcall.validate([_name_args(c) for c in items], tools)


def render_tools(family: str, tools: ToolsLike) -> str:
    """The tools block a family's chat template writes (``toolcall render
    tools``): ``family`` is a format id or model name."""
    loaded = _tools(tools, strict=False)
    assert loaded is not None
    return _toolcall.render_tools(family, loaded)


def render_result(
    family: str,
    results: Union[Mapping[str, Any], Sequence[Mapping[str, Any]]],
    *,
    max_tokens: int = 0,
    body_only: bool = False,
) -> str:
    """The message carrying tool results back to the model (``toolcall
    render result``). Each result is ``{"id", "name", "content"}`` or
    ``{"id", "name", "error"}``; content over ``max_tokens`` (about four
    bytes a token, 0: no limit) is cut. ``body_only``: without the role
    tokens around it."""
    if isinstance(results, Mapping):
        results = [results]
    pre, body, post = _toolcall.render_result(
        family, [_json.dumps(r) for r in results], max_tokens
    )
    return body if body_only else pre + body + post


def formats() -> List[dict[str, Any]]:
    """The formats the engine reads: the records of ``toolcall formats
    --json`` (``type``, ``id``, ``families``, ``markers``, ``body``)."""
    return _toolcall.formats()


def models() -> List[dict[str, Any]]:
    """The known models: the records of ``toolcall formats --models
    --json`` (``type``, ``name``, ``format``, ``generation_prompt``)."""
    return _toolcall.models()


def repair(
    s: Union[str, bytes],
    *,
    max_depth: int = 64,
    timeout_ms: int = 100,
    max_size: Optional[int] = None,
    text_as_string: bool = False,
) -> Tuple[str, List[Repair]]:
    """Repair one JSON document (``toolcall repair``, the same core
    function): returns the repaired text (valid input byte for byte) and
    what was changed. Raises :class:`RepairError` (a ``ValueError``, with
    ``code``, ``offset``, ``line``, ``column``) when nothing can be made of
    it. A sentence of prose with no JSON in it (three words or more) is
    hopeless (``TLP-003``) as the command finds it, unless
    ``text_as_string`` (the command's ``--text-as-string``) reads it as one
    string."""
    return _toolcall.repair(
        s, max_depth=max_depth, timeout_ms=timeout_ms, max_size=max_size, text_as_string=text_as_string
    )


def _log(s: str, repairs: List[Repair]) -> List[dict]:
    out = []
    for r in repairs:
        lo = max(0, r.offset - 10)
        out.append({"text": r.kind, "context": s[lo : r.offset + 10] if isinstance(s, str) else ""})
    return out


def repair_json(
    json_str: str = "",
    return_objects: bool = False,
    skip_json_loads: bool = False,
    logging: bool = False,
    json_fd: Any = None,
    chunk_length: int = 0,
    stream_stable: bool = False,
    strict: bool = False,
    schema: Any = None,
    **json_dumps_args: Any,
) -> Any:
    """A drop-in for ``json_repair.repair_json``: ``from toolcall import
    repair_json``.

    Returns the repaired JSON as a string, or with ``return_objects=True``
    the value; with ``logging=True`` a ``(value, log)`` pair whose log
    entries are ``{"text": repair kind, "context": input around it}``. A
    hopeless input gives ``""`` as json_repair's does. Text with no JSON
    in it differs on purpose: ``repair_json("not json at all")`` is
    ``'"not json at all"'`` (the words read as one string, as unquoted
    words are read inside objects), where json_repair gives ``""`` and
    ``toolcall repair`` fails with TLP-003 unless ``--text-as-string``,
    which gives this same string. The string is the
    repaired text itself (valid input comes back unchanged); pass any
    ``json.dumps`` argument (``ensure_ascii``, ``indent`` ...) to have it
    written by ``json.dumps`` instead. ``skip_json_loads``,
    ``chunk_length`` and ``stream_stable`` are accepted and change nothing
    (valid input is always detected first, in one pass); ``strict=True``
    raises :class:`RepairError` when anything needed repairing;
    ``json_fd`` is read whole. ``schema`` is not supported.
    """
    if not (return_objects or logging or strict or json_dumps_args or json_fd is not None) and schema is None:
        out = _toolcall.repair_text(json_str)
        return "" if out is None else out
    if schema is not None:
        raise NotImplementedError("toolcall.repair_json: schema-guided repair is not supported")
    if json_fd is not None:
        json_str = json_fd.read()
    try:
        text, repairs = _toolcall.repair(json_str, max_depth=10_000, timeout_ms=0, text_as_string=True)
    except RepairError:
        if strict:
            raise
        text, repairs = "", []
    if strict and repairs:
        raise RepairError(f"strict: the input needed repair ({repairs[0].kind} at {repairs[0].offset})")
    if logging:
        value = _toolcall.loads_json(text) if text else ""
        return value, _log(json_str, repairs)
    if return_objects:
        return _toolcall.loads_json(text) if text else ""
    if json_dumps_args and text:
        return _json.dumps(_toolcall.loads_json(text), **json_dumps_args)
    return text


def loads(json_str: str, **kwargs: Any) -> Any:
    """``json.loads`` that repairs first: ``repair_json(s,
    return_objects=True)``."""
    return repair_json(json_str, return_objects=True, **kwargs)


def to_openai(doc: Document) -> AssistantMessage:
    """The assistant message an OpenAI-compatible server returns for this
    output: ``role``, ``content`` (the prose, None when blank),
    ``reasoning_content`` (None when there is none) and ``tool_calls`` with
    the arguments as JSON text. It type-checks as the OpenAI SDK's
    ``ChatCompletionMessageParam``."""
    return {
        "role": "assistant",
        "content": doc.text if doc.text.strip() else None,
        "reasoning_content": doc.reasoning if doc.reasoning else None,
        "tool_calls": [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments_json},
            }
            for c in doc.calls
        ],
    }
