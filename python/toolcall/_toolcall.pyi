"""Types of the Rust extension behind ``toolcall``."""

from typing import Any, List, Optional, Tuple, Union

from typing_extensions import Literal, TypeAlias

__version__: str

class ToolcallError(ValueError): ...

class RepairError(ToolcallError):
    code: str
    offset: int
    line: int
    column: int

class ToolsError(ToolcallError): ...
class OptionError(ToolcallError): ...

class Options:
    def __init__(self, **options: Any) -> None: ...
    @property
    def format(self) -> str: ...
    @property
    def generation_prompt(self) -> Optional[str]: ...

class Tools:
    # None: the core's default (strict, "medium", "safe", 16 MiB, 256,
    # 100000, 128; docs/limits.md)
    def __init__(
        self,
        text: str,
        *,
        strict: Optional[bool] = None,
        unknown_risk: Optional[str] = None,
        auto_approve: Optional[str] = None,
        max_tools_size: Optional[int] = None,
        max_schema_depth: Optional[int] = None,
        max_schema_checks: Optional[int] = None,
        max_json5_depth: Optional[int] = None,
    ) -> None: ...
    @property
    def names(self) -> List[str]: ...
    @property
    def warnings(self) -> List[str]: ...
    def __len__(self) -> int: ...

class Repair:
    kind: str
    offset: int

class Call:
    doc: str
    name: str
    arguments: dict[str, Any]
    id: str
    format: str
    span: Tuple[int, int]
    repairs: List[Repair]
    raw: str
    index: int
    in_reasoning: bool
    turn: Optional[int]
    role: Optional[str]
    pointer: Optional[str]
    validation: Optional[dict[str, Any]]
    arguments_json: str
    def record(self) -> dict[str, Any]: ...

class ErrorRecord:
    doc: str
    code: str
    message: str
    span: Tuple[int, int]
    raw: str
    offset: int
    line: int
    column: int
    hint: Optional[str]
    turn: Optional[int]
    role: Optional[str]
    def record(self) -> dict[str, Any]: ...

class Document:
    calls: List[Call]
    text: str
    reasoning: str
    errors: List[ErrorRecord]
    text_before: str
    text_after: str
    segments: List[Tuple[str, Tuple[int, int]]]
    finish_reason: Optional[str]
    def records(self) -> List[dict[str, Any]]: ...

# One runtime class, `Event`; to a type checker one class per `type`, so
# that `if ev.type == "tool_call": ev.call.name` needs no check for None.

class TextEvent:
    type: Literal["text"]
    span: Tuple[int, int]
    text: str
    def record(self) -> dict[str, Any]: ...

class ReasoningEvent:
    type: Literal["reasoning"]
    span: Tuple[int, int]
    text: str
    def record(self) -> dict[str, Any]: ...

class MarkupEvent:
    type: Literal["markup"]
    span: Tuple[int, int]
    text: str
    def record(self) -> dict[str, Any]: ...

class ToolCallStartEvent:
    type: Literal["tool_call_start"]
    index: int
    id: str
    name: str
    def record(self) -> dict[str, Any]: ...

class ToolCallEvent:
    type: Literal["tool_call"]
    span: Tuple[int, int]
    index: int
    id: str
    name: str
    call: Call
    def record(self) -> dict[str, Any]: ...

class ErrorEvent:
    type: Literal["error"]
    span: Tuple[int, int]
    error: ErrorRecord
    def record(self) -> dict[str, Any]: ...

class DoneEvent:
    type: Literal["done"]
    calls: int
    bytes: int
    finish_reason: Optional[str]
    def record(self) -> dict[str, Any]: ...

Event: TypeAlias = Union[
    TextEvent,
    ReasoningEvent,
    MarkupEvent,
    ToolCallStartEvent,
    ToolCallEvent,
    ErrorEvent,
    DoneEvent,
]

class StreamParser:
    def __init__(self, options: Options, tools: Optional[Tools] = None, starts: bool = True) -> None: ...
    def feed(self, chunk: Union[str, bytes]) -> List[Event]: ...
    def close(self) -> List[Event]: ...
    @property
    def held(self) -> int: ...
    @property
    def closed(self) -> bool: ...

class Verdict:
    name: str
    valid: bool
    errors: List[dict[str, str]]
    warnings: List[dict[str, str]]
    known: bool
    tool_name: str
    risk: str
    requires_approval: bool
    summary: str
    def __bool__(self) -> bool: ...

def parse(text: Union[str, bytes], options: Options, tools: Optional[Tools] = None) -> Document: ...
def validate(calls: List[Tuple[str, str]], tools: Tools) -> List[Verdict]: ...
def render_tools(family: str, tools: Tools) -> str: ...
def render_result(family: str, results: List[str], max_tokens: int = 0) -> Tuple[str, str, str]: ...
def split(text: Union[str, bytes], options: Options, tools: Optional[Tools] = None) -> dict[str, Any]: ...
def formats() -> List[dict[str, Any]]: ...
def models() -> List[dict[str, Any]]: ...
def default_options() -> dict[str, Any]: ...
def check_transcript(text: Union[str, bytes], options: Options, allow: List[str] = ...) -> List[dict[str, Any]]: ...
def convert_openai(
    text: Union[str, bytes], options: Options, messages_at: Optional[str] = ...
) -> Tuple[List[str], List[Tuple[str, int, str]]]: ...
def repair(
    text: Union[str, bytes],
    *,
    max_depth: int = 64,
    timeout_ms: int = 100,
    max_size: Optional[int] = None,
    text_as_string: bool = False,
) -> Tuple[str, List[Repair]]: ...
def repair_text(text: Union[str, bytes]) -> Optional[str]: ...
def loads_json(text: str) -> Any: ...
