"""A consumer of the toolcall package as a user writes one: type-checked
with `mypy --strict` (with the OpenAI SDK installed) in `.ci/run`, and run
by `python/tests/test_api.py`.

It hands the parsed reply to the OpenAI SDK's message list and reads
stream events narrowed by their `type`, with no casts.
"""

from __future__ import annotations

from typing import List

from openai.types.chat import ChatCompletionMessageParam

import toolcall

REPLY = (
    "Let me check.\n"
    '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
)


def history(reply: str) -> List[ChatCompletionMessageParam]:
    """The conversation so far, the model's reply parsed into the message
    the next request sends back."""
    doc = toolcall.parse(reply, model="qwen3")
    messages: List[ChatCompletionMessageParam] = [
        {"role": "user", "content": "Weather in Paris?"},
        toolcall.to_openai(doc),
    ]
    for call in doc.calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "sunny"})
    return messages


def names_as_they_stream(reply: str) -> List[str]:
    """The called tools' names, read from stream events."""
    names: List[str] = []
    parser = toolcall.StreamParser(format="hermes", input="text")
    for chunk in (reply[:20], reply[20:]):
        for event in parser.feed(chunk):
            if event.type == "tool_call":
                names.append(event.call.name)
            elif event.type == "text":
                assert event.span[1] >= event.span[0]
    for event in parser.close():
        if event.type == "done":
            assert event.calls == len(names)
    return names


if __name__ == "__main__":
    print(len(history(REPLY)), names_as_they_stream(REPLY))
