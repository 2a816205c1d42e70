"""Types for type checkers: the options :func:`toolcall.parse` takes and
the assistant message :func:`toolcall.to_openai` returns.

At run time both are plain ``dict``; a type checker sees the
``TypedDict`` classes below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Iterable, Optional, Union

    from typing_extensions import Literal, Required, TypedDict

    class Options(TypedDict, total=False):
        """The engine's options (the core's ``Options``; every one is
        optional, its default the engine's)."""

        format: str
        model: Optional[str]
        generation_prompt: Optional[str]
        finish_reason: Optional[Literal["stop", "length"]]
        input: str
        json_blocks: bool
        inline_json: bool
        repair: bool
        repair_max_size: int
        repair_timeout_ms: int
        reasoning_calls: bool
        think_open: bool
        think_window: int
        max_block: int
        max_buffer: int
        max_errors_per_block: int
        doc: str

    # The OpenAI API's assistant message, key for key and type for type,
    # so that it is assignable to the OpenAI SDK's
    # `ChatCompletionMessageParam` (a TypedDict is compatible only when
    # every key has the same type); `.ci/run` checks that with mypy.

    class Function(TypedDict, total=False):
        """A function call's name and arguments (JSON text)."""

        arguments: Required[str]
        name: Required[str]

    class FunctionToolCall(TypedDict, total=False):
        """A tool call of type ``function``."""

        id: Required[str]
        function: Required[Function]
        type: Required[Literal["function"]]

    class Custom(TypedDict, total=False):
        """A custom tool's name and input."""

        input: Required[str]
        name: Required[str]

    class CustomToolCall(TypedDict, total=False):
        """A tool call of type ``custom``."""

        id: Required[str]
        custom: Required[Custom]
        type: Required[Literal["custom"]]

    class PromptCacheBreakpoint(TypedDict, total=False):
        """Where a prompt cache may break."""

        mode: Required[Literal["explicit"]]
        ttl: Literal["30m", "12h"]

    class TextPart(TypedDict, total=False):
        """A text content part."""

        text: Required[str]
        type: Required[Literal["text"]]
        prompt_cache_breakpoint: PromptCacheBreakpoint

    class RefusalPart(TypedDict, total=False):
        """A refusal content part."""

        refusal: Required[str]
        type: Required[Literal["refusal"]]

    class Audio(TypedDict, total=False):
        """A previous audio response."""

        id: Required[str]

    class FunctionCall(TypedDict, total=False):
        """The deprecated single function call."""

        arguments: Required[str]
        name: Required[str]

    class AssistantMessage(TypedDict, total=False):
        """The assistant message an OpenAI-compatible server returns, with
        the reasoning servers add as ``reasoning_content``."""

        role: Required[Literal["assistant"]]
        audio: Optional[Audio]
        content: Union[str, Iterable[Union[TextPart, RefusalPart]], None]
        function_call: Optional[FunctionCall]
        name: str
        refusal: Optional[str]
        tool_calls: Iterable[Union[FunctionToolCall, CustomToolCall]]
        reasoning_content: Optional[str]

else:
    Options = dict
    AssistantMessage = dict
