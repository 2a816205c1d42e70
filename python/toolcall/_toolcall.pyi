"""Types of the Rust extension behind ``toolcall``."""

from typing import Any, List, Optional, Tuple, Union

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
    def __init__(
        self,
        *,
        format: str = "auto",
        model: Optional[str] = None,
        generation_prompt: Optional[str] = None,
        finish_reason: Optional[str] = None,
        input: str = "text",
        json_blocks: bool = True,
        inline_json: bool = False,
        repair: bool = True,
        reasoning_calls: bool = False,
        think_open: bool = False,
        think_window: int = 0,
        max_block: int = 1048576,
        repair_max_size: int = 1048576,
        max_buffer: int = 1048576,
        doc: str = "-",
    ) -> None: ...
    @property
    def format(self) -> str: ...
    @property
    def generation_prompt(self) -> Optional[str]: ...

class Tools:
    def __init__(
        self,
        text: str,
        *,
        strict: bool = True,
        unknown_risk: str = "medium",
        auto_approve: str = "safe",
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

class ErrorRecord:
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

class Document:
    calls: List[Call]
    text: str
    reasoning: str
    errors: List[ErrorRecord]
    text_before: str
    text_after: str
    segments: List[Tuple[str, Tuple[int, int]]]
    finish_reason: Optional[str]

class Event:
    type: str
    span: Optional[Tuple[int, int]]
    text: Optional[str]
    index: Optional[int]
    id: Optional[str]
    name: Optional[str]
    call: Optional[Call]
    error: Optional[ErrorRecord]
    calls: Optional[int]
    bytes: Optional[int]
    finish_reason: Optional[str]

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
def formats() -> List[dict[str, Any]]: ...
def repair(
    text: Union[str, bytes],
    *,
    max_depth: int = 64,
    timeout_ms: int = 100,
    max_size: Optional[int] = None,
) -> Tuple[str, List[Repair]]: ...
def repair_text(text: Union[str, bytes]) -> Optional[str]: ...
def loads_json(text: str) -> Any: ...
