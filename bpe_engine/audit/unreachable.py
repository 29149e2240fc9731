"""Why the encoder never gives a token from its own text, and whether it gives it inside longer text.

For an unreachable token (see :mod:`bpe_engine.audit.vocabulary`) the stages are replayed on its
text, in the order the tokenizer runs them, and the first that parts it from the token is named:

1. the **normalizer** rewrites the text (Qwen 2.5's ``ế`` spelled e + U+0302 + U+0301: NFC composes
   it, so the decomposed token is never looked up);
2. the **pre-tokenizer** cuts it into several pieces (o200k_base's ``"\\n//"``: a newline is always a
   piece of its own before ``//``; Qwen 2.5's ``ที่``: its regex leaves Thai vowel marks out of
   letter runs);
3. the text is one piece, but the **merges** build other tokens from it (a merge list whose order
   never reaches this token);
4. for a model whose pre-tokenizer cannot be asked (SentencePiece: the dummy ``▁`` prefix, byte
   fallback), only what the **encoder** gives is said.

Then a few short neighbours of the text are tried (``亚洲AV`` + ``x``): a token unreachable from its
own text may still be made inside a longer piece; the first such text found is shown.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..display import visible_text
from ..errors import BpeEngineError
from ..types import UNKNOWN_ID, ReplaysMerges, Tokenizer

if TYPE_CHECKING:
    from ..hf.pipeline import HfTokenizer

PREFIXES = ("", " ", "a", "x", "1")
SUFFIXES = ("", "s", "x", "a", "e", "m", "1", " ", ".", "\n")


@dataclass(frozen=True)
class Unreachable:
    """One unreachable token: its text, what that text encodes to, the stage that parts them
    (``normalizer`` / ``pre-tokenizer`` / ``same-bytes`` / ``merges`` / ``encoder``) said in a sentence, the
    pre-tokenizer's pieces when it has one we can ask, and a longer text that does produce it."""

    id: int
    text: str
    encodes_to: tuple[int, ...]
    stage: str
    reason: str
    pieces: tuple[str, ...] = ()
    context: str | None = None


def explain_unreachable(tokenizer: Tokenizer, token_id: int, encodes_to: tuple[int, ...]) -> Unreachable:
    """Why ``token_id`` is not what its own text encodes to (``encodes_to``)."""
    text = tokenizer.decode([token_id])
    got = " + ".join(shown(tokenizer, i) for i in encodes_to)
    form = tokenizer.capabilities.normalizer
    seen = unicodedata.normalize(form, text) if form is not None else text
    pieces = _pieces(tokenizer, seen)
    if seen != text:
        stage, reason = "normalizer", f"{form} rewrites {_spelled(text)} as {_spelled(seen)} before encoding, so its own spelling is never looked up"
    elif len(pieces) > 1:
        cut = " + ".join(repr(visible_text(p)) for p in pieces)
        stage, reason = "pre-tokenizer", f"the pre-tokenizer cuts its text into {cut}: the encoder never sees it whole"
    elif len(encodes_to) == 1 and encodes_to[0] >= 0 and tokenizer.token_bytes(encodes_to[0]) == tokenizer.token_bytes(token_id):
        stage, reason = "same-bytes", f"id {encodes_to[0]} spells the same bytes and the encoder gives that one"
    elif pieces == (seen,):
        stage, reason = "merges", f"its text is one piece, but the merges build {got} from it"
    else:  # a model whose pre-tokenizer we cannot ask (SentencePiece: dummy prefix, byte fallback)
        stage, reason = "encoder", f"encoding its text alone gives {got}"
    return Unreachable(token_id, text, encodes_to, stage, reason, pieces, _context(tokenizer, token_id, text))


def _pieces(tokenizer: Tokenizer, text: str) -> tuple[str, ...]:
    """The pre-tokenizer's pieces of ``text``, for tokenizers that expose their pre-tokenizer."""
    caps = tokenizer.capabilities
    try:
        if caps.replays_merges:
            pre = cast(ReplaysMerges, tokenizer).pre_tokenizer
            if pre.pattern is not None and pre.space_marker is None and pre.end_of_word_suffix is None:
                return tuple(pre.split(text))
        if caps.traces_stages:
            from ..hf.explore import trace  # pieces with character spans in the text as given

            # traces_stages: a Hugging Face pipeline
            return tuple(text[s:e] for _, s, e in trace(cast("HfTokenizer", tokenizer), text).pieces)
    except BpeEngineError:
        return ()
    return ()


def _context(tokenizer: Tokenizer, token_id: int, text: str) -> str | None:
    """A short text around ``text`` whose encoding holds ``token_id``, if one of the probes is."""
    from ..metrics.encoded import plain_ids

    for prefix in PREFIXES:
        for suffix in SUFFIXES:
            if not prefix and not suffix:
                continue
            probe = prefix + text + suffix
            if token_id in plain_ids(tokenizer, probe):
                return probe
    return None


def shown(tokenizer: Tokenizer, token_id: int) -> str:
    """A token for a sentence: its decoded text, visible and quoted; its spelling in the model's
    alphabet when it decodes to nothing alone (SentencePiece's ``▁``)."""
    if token_id == UNKNOWN_ID:
        return "?"  # an unknown piece, as ``encode`` shows it
    text = tokenizer.decode([token_id])
    return repr(visible_text(text if text else tokenizer.token_str(token_id)))


def _spelled(text: str) -> str:
    """``'ế' (U+0065 U+0302 U+0301)``: the text with its code points, which is the whole point."""
    points = " ".join(f"U+{ord(c):04X}" for c in text)
    return f"{visible_text(text)!r} ({points})"


__all__ = ["PREFIXES", "SUFFIXES", "Unreachable", "explain_unreachable", "shown"]
