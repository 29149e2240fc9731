"""A conversation as the user gives it: OpenAI-style ``messages`` JSON, checked and bounded.

Accepted: a JSON list of messages, or an object with a ``messages`` list (a chat-completions
request body). A message is ``{"role": ..., "content": ...}``: the role one of :data:`ROLES`, the
content a string, or a list of ``{"type": "text", "text": ...}`` parts (joined, as one text).
What a chat format cannot count honestly is refused with the message and the field named:
images and other non-text parts, an assistant's ``tool_calls``, a ``name`` (each model spells it
differently, or not at all).

Bounded: the file is at most :data:`MAX_CHAT_BYTES` (read through the one text-file reader, so
a binary or non-UTF-8 file gets its usual message), at most :data:`MAX_MESSAGES` messages, and
nesting too deep for a JSON reader is an error, not a crash.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..errors import ConfigError, TokenizerFileError

Role = Literal["system", "developer", "user", "assistant", "tool"]
ROLES: tuple[Role, ...] = ("system", "developer", "user", "assistant", "tool")
"""OpenAI's roles (``developer`` is what its newer models call ``system``)."""
MAX_CHAT_BYTES = 16 << 20
"""A conversation file larger than this is refused before it is read (16 MiB of JSON)."""
MAX_MESSAGES = 100_000


class ChatError(ConfigError):
    """A conversation that cannot be counted as given; the message names the message and field."""


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a conversation: its role and its text."""

    role: Role
    content: str


def read_messages(path: str | Path) -> tuple[Message, ...]:
    """The conversation in the JSON file at ``path`` (see the module docstring)."""
    from ..core.json_files import parse_json
    from ..core.text_files import read_text_file

    source = Path(path)
    try:
        size = source.stat().st_size
    except OSError as exc:
        raise ChatError(f"cannot read {source}: {exc.strerror or exc}") from None
    if size > MAX_CHAT_BYTES:
        raise ChatError(f"{source} is {size:,} bytes; a conversation file may be at most {MAX_CHAT_BYTES:,} bytes")
    text = read_text_file(source)
    try:
        data = parse_json(source, text, unique_keys=False)
    except TokenizerFileError as exc:
        raise ChatError(str(exc)) from None
    return parse_messages(data, str(source))


def parse_messages(data: Any, source: str = "the conversation") -> tuple[Message, ...]:
    """Messages from parsed JSON: a list of messages, or an object holding one under ``messages``."""
    if isinstance(data, dict) and "messages" in data:
        data = data["messages"]
    if not isinstance(data, list):
        raise ChatError(f"{source}: expected a JSON list of messages (or an object with a \"messages\" list)")
    if not data:
        raise ChatError(f"{source}: the conversation has no messages")
    if len(data) > MAX_MESSAGES:
        raise ChatError(f"{source}: {len(data):,} messages; at most {MAX_MESSAGES:,} are counted")
    return tuple(_message(item, f"{source}: message {number}") for number, item in enumerate(data, 1))


def _message(item: Any, where: str) -> Message:
    if not isinstance(item, dict):
        raise ChatError(f"{where} is not an object with \"role\" and \"content\"")
    role = item.get("role")
    if role not in ROLES:
        raise ChatError(f"{where}: role {role!r} is not one of {', '.join(ROLES)}")
    for field in ("tool_calls", "function_call", "name"):
        if item.get(field):
            raise ChatError(
                f"{where}: \"{field}\" is not counted (each model's format spells it its own way); "
                "remove it to count the text of the conversation"
            )
    return Message(role, _content(item.get("content"), where))


def _content(content: Any, where: str) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(_text_part(part, f"{where}, content part {n}") for n, part in enumerate(content, 1))
    raise ChatError(f"{where}: \"content\" must be a string or a list of text parts")


def _text_part(part: Any, where: str) -> str:
    if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
        return str(part["text"])
    kind = part.get("type") if isinstance(part, dict) else type(part).__name__
    raise ChatError(f"{where} is {kind!r}; only text parts ({{\"type\": \"text\", \"text\": ...}}) are counted")


def conversation_of_text(text: str) -> tuple[Message, ...]:
    """What a text box holds: messages JSON when it starts with ``[`` or ``{``, else one user message
    (so typing plain text shows what each model reads for it)."""
    if text.lstrip()[:1] not in ("[", "{"):
        return (Message("user", text),)
    import json

    if len(text) > MAX_CHAT_BYTES:
        raise ChatError(f"the conversation is {len(text):,} characters; at most {MAX_CHAT_BYTES:,} are read")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ChatError(f"the conversation is not valid JSON yet: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise ChatError("the conversation is nested too deep for a JSON reader") from None
    return parse_messages(data)


def messages_of(pairs: Sequence[tuple[str, str]]) -> tuple[Message, ...]:
    """Messages from ``(role, content)`` pairs (the app's editor, tests); roles checked."""
    return parse_messages([{"role": r, "content": c} for r, c in pairs], "the conversation")


__all__ = ["MAX_CHAT_BYTES", "MAX_MESSAGES", "ROLES", "ChatError", "Message", "Role", "conversation_of_text", "messages_of", "parse_messages", "read_messages"]

