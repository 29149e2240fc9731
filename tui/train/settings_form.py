"""The trainer settings form: compact fields, each with its validation message right under it.

The form never raises: :meth:`SettingsForm.request_for` returns a :class:`TrainRequest` or
``None`` after showing what is wrong next to the offending field (vocab size below the alphabet,
a bad regex, a non-number). Every change posts :class:`SettingsForm.Changed` so the app can
offer to retrain.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static

from bpe_engine.errors import ConfigError
from bpe_engine.pretokenizers import (
    CL100K,
    END_OF_WORD,
    GPT2,
    NONE,
    O200K,
    WHITESPACE,
    PreTokenizer,
    custom,
    with_end_of_word,
)
from bpe_engine.training.bpe.config import DEFAULT_MAX_TOKEN_LENGTH
from bpe_engine.training.runner import TrainingRequest

from ..widgets.safe_text import SafeInput

PRE_TOKENIZERS: dict[str, PreTokenizer] = {
    "gpt2": GPT2,
    "cl100k": CL100K,
    "o200k": O200K,
    "whitespace": WHITESPACE,
    "end-of-word": END_OF_WORD,
    "none": NONE,
}
PRE_TOKENIZER_CHOICES = [
    ("gpt2 regex", "gpt2"),
    ("cl100k regex", "cl100k"),
    ("o200k regex", "o200k"),
    ("whitespace ▁", "whitespace"),
    ("end-of-word </w>", "end-of-word"),
    ("none (whole text)", "none"),
    ("custom regex…", "regex"),
]
END_OF_WORD_CHOICES = [("attached", "attached"), ("separate", "separate")]
"""How ``</w>`` marks a word's end (the CLI's ``--end-of-word``): HF's suffix, or Sennrich's symbol."""
BYTE_ALPHABET = 256


def wordpiece_available() -> bool:
    """WordPiece joins the model selector once its engine package is importable."""
    try:
        import bpe_engine.training.wordpiece.trainer  # noqa: F401
    except ImportError:
        return False
    return True


class FieldMessage(Static):
    """What is wrong with one field, on its own line under the field's pair (hidden while empty)."""

    def __init__(self, field_label: str, field_id: str) -> None:
        super().__init__("", id=f"{field_id}-error", classes="field-error", markup=False)
        self.field_label = field_label  # names the field: the line sits under two fields
        self.shown = ""

    def show(self, message: str) -> None:
        """Show ``message`` ("" hides the line); the same message again changes nothing."""
        if message == self.shown:
            return  # unchanged: no re-layout per keystroke (a big corpus editor re-wraps on each)
        self.shown = message
        self.update(Text(f"{self.field_label}: {message}", style="bold red") if message else "")
        self.set_class(bool(message), "-visible")


def _field(label: str, widget: Widget, field_id: str) -> tuple[Label, Widget, FieldMessage]:
    """A field's label, input and message, with no container of their own: the Train tab is drawn
    whole on each switch to it, and each container is one more layer to draw (a Vertical and a
    Horizontal per field were a fifth of the tab's widgets)."""
    return Label(label, classes="field-label"), widget, FieldMessage(label, field_id)


def _row(left: tuple[Label, Widget, FieldMessage], right: tuple[Label, Widget, FieldMessage]) -> ComposeResult:
    """Two fields side by side on one line, then their messages (hidden while empty)."""
    right[0].add_class("-right")
    yield Horizontal(left[0], left[1], right[0], right[1], classes="field-row")
    yield from (left[2], right[2])


class SettingsForm(Vertical):
    """Model, byte/character level, pre-tokenizer (+ custom regex), vocab size, min frequency, tie-break,
    and the CLI's other training options: ``</w>`` convention, max token length, unk token."""

    class Changed(Message):
        """Some setting changed (valid or not)."""

    def __init__(self, *, vocab_size: int = 1000, id: str | None = None) -> None:
        super().__init__(id=id)
        self._vocab_size = vocab_size
        self.distinct_chars: int | None = None  # the corpus's alphabet, from the corpus facts (None: not counted yet)

    def compose(self) -> ComposeResult:
        models = [("BPE", "bpe")] + ([("WordPiece", "wordpiece")] if wordpiece_available() else [])
        model = _field("model", Select(models, value="bpe", allow_blank=False, compact=True, id="model"), "model")
        level = _field(
            "level",
            Select(
                [("byte-level", "byte"), ("character", "char")], value="byte", allow_blank=False, compact=True, id="level"
            ),
            "level",
        )
        pretok = _field(
            "pre-tok", Select(PRE_TOKENIZER_CHOICES, value="gpt2", allow_blank=False, compact=True, id="pretok"), "pretok"
        )
        regex = _field("regex", SafeInput(placeholder="custom pattern", compact=True, id="regex", disabled=True), "regex")
        vocab = _field("vocab", SafeInput(str(self._vocab_size), type="integer", compact=True, id="vocab"), "vocab")
        minfreq = _field("min freq", SafeInput("0", type="integer", compact=True, id="minfreq"), "minfreq")
        tiebreak = _field(
            "tie-break",
            Select(
                [("HF (count, pair)", "hf"), ("lexicographic", "lexicographic"), ("first seen", "first-seen")],
                value="hf",
                allow_blank=False,
                compact=True,
                id="tiebreak",
            ),
            "tiebreak",
        )
        eow = _field(
            "</w>",
            Select(
                END_OF_WORD_CHOICES, value="attached", allow_blank=False, compact=True, id="eow", disabled=True,
                tooltip="end-of-word pre-tokenizer: </w> attached (l o w</w>, HF) or separate (l o w </w>)",
            ),
            "eow",
        )
        maxlen = _field(
            "max len",
            SafeInput(str(DEFAULT_MAX_TOKEN_LENGTH), type="integer", compact=True, id="maxlen",
                      tooltip="no merge makes a token this long or longer (bytes for byte-level); 0 = no limit"),
            "maxlen",
        )
        unk = _field(
            "unk",
            SafeInput(placeholder="none", compact=True, id="unk",
                      tooltip="a special token for characters the alphabet lacks (character-level)"),
            "unk",
        )
        for left, right in ((model, level), (pretok, regex), (vocab, minfreq), (tiebreak, eow), (maxlen, unk)):
            yield from _row(left, right)

    # -- reading ---------------------------------------------------------------------------------
    def pre_tokenizer(self) -> PreTokenizer | None:
        """The chosen pre-tokenizer, or None when the custom regex is invalid/empty."""
        name = self.query_one("#pretok", Select).value
        if name == "regex":
            pattern = self.query_one("#regex", Input).value
            if not pattern:
                return None
            try:
                return custom(pattern)
            except ConfigError:
                return None
        pre = PRE_TOKENIZERS[str(name)]
        if pre.end_of_word_suffix is not None:
            pre = with_end_of_word(pre, str(self.query_one("#eow", Select).value))  # type: ignore[arg-type]
        return pre

    def byte_level(self) -> bool:
        return self.query_one("#level", Select).value == "byte" and self.query_one("#model", Select).value == "bpe"

    def is_bpe(self) -> bool:
        return self.query_one("#model", Select).value == "bpe"

    def unk_token(self) -> str | None:
        """The unknown-piece token (None: empty field; WordPiece then keeps its own ``[UNK]``)."""
        return self.query_one("#unk", Input).value.strip() or None

    def max_token_length(self) -> int | None:
        """The longest token a merge may make, minus one (None: no limit, the field's 0)."""
        return int(self.query_one("#maxlen", Input).value) or None

    def set_alphabet(self, distinct_chars: int) -> None:
        """The corpus's distinct characters (the character-level alphabet), from its facts."""
        if distinct_chars != self.distinct_chars:
            self.distinct_chars = distinct_chars
            self.validate_all()

    def validate_all(self, *, show: bool = True) -> bool:
        """Show a message next to every invalid field; True when all are valid."""
        errors: dict[str, str] = {"regex": "", "vocab": "", "minfreq": "", "maxlen": "", "unk": ""}
        name = self.query_one("#pretok", Select).value
        if name == "regex":
            pattern = self.query_one("#regex", Input).value
            if not pattern:
                errors["regex"] = "type a regex (each match becomes a word)"
            else:
                try:
                    custom(pattern)
                except ConfigError as exc:
                    errors["regex"] = str(exc).split(": ", 1)[-1]
        vocab_raw = self.query_one("#vocab", Input).value.strip()
        alphabet = BYTE_ALPHABET if self.byte_level() else self.distinct_chars
        if not vocab_raw.lstrip("-").isdigit():
            errors["vocab"] = "a whole number, e.g. 1000"
        elif int(vocab_raw) <= 0:
            errors["vocab"] = "a positive number, e.g. 1000"
        elif alphabet is not None and int(vocab_raw) <= alphabet:
            what = "256 bytes" if self.byte_level() else f"{alphabet:,} distinct characters in the corpus"
            errors["vocab"] = f"must be above the alphabet ({what})"
        elif int(vocab_raw) > 1_000_000:
            errors["vocab"] = "at most 1,000,000"
        freq_raw = self.query_one("#minfreq", Input).value.strip()
        if not freq_raw.isdigit():
            errors["minfreq"] = "a whole number ≥ 0"
        maxlen_raw = self.query_one("#maxlen", Input).value.strip()
        if self.is_bpe() and not maxlen_raw.isdigit():
            errors["maxlen"] = f"a whole number ≥ 0 (0 = no limit; default {DEFAULT_MAX_TOKEN_LENGTH})"
        if self.unk_token() is not None and self.byte_level():
            errors["unk"] = "character-level only: byte-level spells every byte (pick level: character)"
        if show:
            for field_id, message in errors.items():
                self.show_error(field_id, message)
        return not any(errors.values())

    def show_error(self, field_id: str, message: str) -> None:
        """Put ``message`` under the field (empty clears it); used for trainer ConfigErrors too."""
        self.query_one(f"#{field_id}-error", FieldMessage).show(message)

    def request_for(self, text: str, *, quiet: bool = False) -> TrainingRequest | None:
        """The run these settings describe for ``text``; None (with messages shown unless
        ``quiet``) when invalid."""
        if not self.validate_all(show=not quiet):
            return None
        pre = self.pre_tokenizer()
        assert pre is not None  # validate_all checked the regex
        return TrainingRequest(
            text=text,
            model=str(self.query_one("#model", Select).value),  # type: ignore[arg-type]
            byte_level=self.byte_level(),
            pre_tokenizer=pre,
            vocab_size=int(self.query_one("#vocab", Input).value),
            min_frequency=int(self.query_one("#minfreq", Input).value),
            tie_break=str(self.query_one("#tiebreak", Select).value),  # type: ignore[arg-type]
            max_token_length=self.max_token_length() if self.is_bpe() else None,
            unk_token=self.unk_token(),
        )

    # -- events ----------------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._enable_dependent_fields()
        self.validate_all()
        self.post_message(self.Changed())

    def _enable_dependent_fields(self) -> None:
        """Fields that only mean something for some choices are disabled for the others."""
        pretok = self.query_one("#pretok", Select).value
        bpe = self.is_bpe()
        self.query_one("#regex", Input).disabled = pretok != "regex"
        self.query_one("#level", Select).disabled = not bpe
        self.query_one("#eow", Select).disabled = not (bpe and pretok == "end-of-word")
        self.query_one("#maxlen", Input).disabled = not bpe

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.validate_all()
        self.post_message(self.Changed())
