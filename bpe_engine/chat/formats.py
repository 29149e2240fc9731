"""Chat formats: how a model's own code turns a conversation into the prompt it reads.

A format renders messages into :class:`Segment` s -- a control token (``<|eot_id|>``) or a run of
text -- and each text segment is encoded *on its own*, exactly as the model's code encodes it
(Llama's ``ChatFormat`` calls ``tokenizer.encode`` once for the role, once for ``"\\n\\n"``, once per
content; encoding the joined string could merge across those seams and give other ids). Text is
always encoded as text: a message that spells ``<|eot_id|>`` cannot end its own turn (what Llama's
``encode(..., disallowed_special=())`` does too).

Each format says where it comes from (:attr:`ChatFormat.source`) and whether it is **exact** --
copied from code that ships with the model and tested against that code, token for token -- or a
**documented convention** (how the vendor documents the prompt, with no code of theirs to run):

- ``llama3`` (exact): ``llama_models/llama3/chat_format.py`` of ``llama-models`` 0.3.0,
  ``ChatFormat.encode_dialog_prompt``: ``<|begin_of_text|>``, then per message
  ``<|start_header_id|>ROLE<|end_header_id|>`` ``\\n\\n`` CONTENT ``<|eot_id|>``, then the
  assistant's header for the reply; the ``tool`` role is spelled ``ipython``.
- ``llama4`` (exact): ``llama_models/llama4/chat_format.py``, the same shape with
  ``<|header_start|>`` / ``<|header_end|>`` / ``<|eot|>``; a ``tool`` message ends with ``<|eom|>``.
- ``chatml`` (documented convention): ChatML as Qwen documents it (qwen.readthedocs.io, "Key
  Concepts"): ``<|im_start|>ROLE\\nCONTENT<|im_end|>\\n`` per message, then ``<|im_start|>assistant\\n``.
  Qwen's Jinja templates add more in places (Qwen 2.5 a default system message when there is
  none, Qwen 3 thinking markers): those are not reproduced.

Which tokenizer uses which format is declared by the catalogue (``BuiltinModel.chat_format``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .messages import ChatError, Message, Role


@dataclass(frozen=True, slots=True)
class Segment:
    """A control token (``special``: ``text`` is its spelling) or text encoded on its own."""

    text: str
    special: bool = False


def _special(name: str) -> Segment:
    return Segment(name, True)


@dataclass(frozen=True)
class ChatFormat:
    """One model family's prompt format: its name, what it is taken from, whether that is code we
    test against (``exact``) or a documented convention, the roles it knows, and its renderer."""

    name: str
    title: str
    source: str
    exact: bool
    roles: frozenset[Role]
    render: Callable[[Sequence[Message]], tuple[Segment, ...]]

    def segments(self, messages: Sequence[Message]) -> tuple[Segment, ...]:
        """The prompt for ``messages`` with the reply's opening, as segments; a role this format
        has no spelling for is a :class:`ChatError` naming the message."""
        for number, message in enumerate(messages, 1):
            if message.role not in self.roles:
                known = ", ".join(sorted(self.roles))
                raise ChatError(f"message {number}: {self.title} has no {message.role!r} role (it knows {known})")
        return self.render(messages)

    @property
    def kind(self) -> str:
        """How far to trust it, in words: the one phrase every view uses."""
        return "exact" if self.exact else "documented convention"


def _llama(header_start: str, header_end: str, end_of_turn: Callable[[Message], str]) -> Callable[[Sequence[Message]], tuple[Segment, ...]]:
    """Llama's ``encode_dialog_prompt``: BOS, each message as header + content + end, the reply's header."""

    def header(role: str) -> list[Segment]:
        return [_special(header_start), Segment("ipython" if role == "tool" else role), _special(header_end), Segment("\n\n")]

    def render(messages: Sequence[Message]) -> tuple[Segment, ...]:
        out = [_special("<|begin_of_text|>")]
        for message in messages:
            out += [*header(message.role), Segment(message.content), _special(end_of_turn(message))]
        out += header("assistant")
        return tuple(out)

    return render


def _chatml(messages: Sequence[Message]) -> tuple[Segment, ...]:
    out: list[Segment] = []
    for message in messages:
        out += [_special("<|im_start|>"), Segment(f"{message.role}\n{message.content}"), _special("<|im_end|>"), Segment("\n")]
    return (*out, _special("<|im_start|>"), Segment("assistant\n"))


_LLAMA_ROLES: frozenset[Role] = frozenset(("system", "user", "assistant", "tool"))

FORMATS: dict[str, ChatFormat] = {
    f.name: f
    for f in (
        ChatFormat(
            "llama3", "Llama 3", "llama-models 0.3.0, llama_models/llama3/chat_format.py (ChatFormat.encode_dialog_prompt)",
            True, _LLAMA_ROLES, _llama("<|start_header_id|>", "<|end_header_id|>", lambda m: "<|eot_id|>"),
        ),
        ChatFormat(
            "llama4", "Llama 4", "llama-models 0.3.0, llama_models/llama4/chat_format.py (ChatFormat.encode_dialog_prompt)",
            True, _LLAMA_ROLES, _llama("<|header_start|>", "<|header_end|>", lambda m: "<|eom|>" if m.role == "tool" else "<|eot|>"),
        ),
        ChatFormat(
            "chatml", "ChatML (Qwen)", "Qwen's documentation (qwen.readthedocs.io, Key Concepts: the chat template)",
            False, frozenset(("system", "user", "assistant")), _chatml,
        ),
    )
}


def chat_format(name: str) -> ChatFormat:
    """The format called ``name``; an unknown one names those there are."""
    found = FORMATS.get(name)
    if found is None:
        raise ChatError(f"unknown chat format {name!r}; known: {', '.join(FORMATS)}")
    return found


__all__ = ["FORMATS", "ChatFormat", "Segment", "chat_format"]
