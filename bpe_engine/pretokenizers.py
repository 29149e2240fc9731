"""Pre-tokenizers: how text is cut into the pieces ("words") that merges never cross.

Each pre-tokenizer is a small named, frozen object with one job: ``split(text)`` returns the pieces
in order, ``pieces(text)`` also gives each piece's character span in the original text (for the
inspector). Special tokens are cut out *before* pre-tokenization by :func:`split_specials`, so no
merge ever crosses them.

The three OpenAI patterns are copied from tiktoken's ``tiktoken_ext/openai_public.py`` (0.14):
they differ from minbpe's older "GPT-4" pattern in how trailing whitespace is chunked.

>>> GPT2.split("Hello world  !")
['Hello', ' world', ' ', ' !']
>>> WHITESPACE.split("hello  world\\n다")
['▁hello', '▁', '▁world', '▁다']
>>> END_OF_WORD.split("low, lower")
['low,', 'lower']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import Any, TypedDict

import regex

from .choices import END_OF_WORD_STYLES, EndOfWord, values
from .errors import ConfigError
from .literals import literals_of
from .regex_limits import check_regex

# --- patterns (verbatim from tiktoken_ext/openai_public.py) -------------------------------------
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
# Hugging Face's ByteLevel pre-tokenizer uses the original GPT-2 release pattern; tiktoken's r50k
# pattern is its faster equivalent. Kept for parity tests against HF.
HF_GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

SPACE_MARKER = "\u2581"  # '▁', SentencePiece's visible space
END_OF_WORD_SUFFIX = "</w>"


@lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> regex.Pattern[str]:
    """Compile a user or built-in pattern; a bad one is a :class:`ConfigError` naming the problem."""
    return check_regex(pattern, regex.compile, "pre-tokenizer regex", field="pattern")


# --- user regexes run with a time budget ---------------------------------------------------------
REGEX_BUDGET_SECONDS = 1.0
"""What any call of a user regex may take, plus :data:`REGEX_BUDGET_PER_MILLION` per million characters."""
REGEX_BUDGET_PER_MILLION = 2.0
"""Seconds per million characters: a sane pattern runs at 1-10 MB/s, so only backtracking hits it."""


def regex_budget(length: int) -> float:
    """Seconds a user regex may spend on ``length`` characters (1 s + 2 s per million characters).

    >>> regex_budget(2_000), regex_budget(10_000_000)
    (1.004, 21.0)
    """
    return REGEX_BUDGET_SECONDS + REGEX_BUDGET_PER_MILLION * length / 1_000_000


_ITERATORS = {"finditer": "finditer", "splititer": "splititer"}


def run_regex(
    pattern: str | regex.Pattern[str], text: str, method: str = "findall", *args: Any, budget: float | None = None
) -> Any:
    """Run ``pattern.<method>(text, *args)`` within a time budget; the one way to run a user's regex.

    A pattern from a user or a file may backtrack catastrophically (``(a|a)+$`` takes hours on
    2,000 characters): the ``regex`` module's ``timeout=`` stops it, and the caller gets a
    :class:`ConfigError` naming the pattern and the budget instead of a hang. ``budget`` defaults
    to :func:`regex_budget` of the text's length. Iterator methods (``finditer``, ``splititer``)
    are run to the end here and return a list, so the budget covers the whole scan.

    Built-in patterns do not come here: they are known to run in linear time, and ``timeout=``
    roughly doubles the cost of a scan.

    >>> run_regex(r"\\w+", "two words")
    ['two', 'words']
    >>> run_regex(r"(a|a)+$", "a" * 2_000 + "b", budget=0.05)
    Traceback (most recent call last):
    ...
    bpe_engine.errors.ConfigError: regex '(a|a)+$' took longer than its time budget of 0.05 s on 2,001 characters: it backtracks catastrophically; rewrite it without nested or overlapping repetition such as (a|a)+
    """
    compiled = compile_pattern(pattern) if isinstance(pattern, str) else pattern
    limit = regex_budget(len(text)) if budget is None else budget
    try:
        result = getattr(compiled, method)(text, *args, timeout=limit)
        return list(result) if method in _ITERATORS else result
    except TimeoutError:
        raise ConfigError(
            f"regex {compiled.pattern!r} took longer than its time budget of {limit:g} s on {len(text):,} characters: "
            "it backtracks catastrophically; rewrite it without nested or overlapping repetition such as (a|a)+"
        ) from None


@dataclass(frozen=True)
class PreTokenizer:
    """A named rule that cuts text into pieces; it *declares* how it behaves, so no caller has to
    switch on its name.

    ``pattern``: pieces are the regex matches.
    ``keeps_unmatched``: text between matches is a piece of its own too (user regexes: nothing is
    ever dropped); built-in patterns either match everything or, like ``end-of-word``'s ``\\S+``,
    mean to drop the gaps (the whitespace between ``</w>`` words is no word).
    ``space_marker`` (prefix marker): SentencePiece style -- every whitespace character
    SentencePiece's default normalisation treats as a space (:data:`SENTENCEPIECE_SPACES`: space,
    tab, newline, ...) becomes ``▁``, one ``▁`` is prepended, and a word starts at every ``▁``.
    One character for one keeps every span exact; runs of whitespace are not collapsed (as
    SentencePiece's ``remove_extra_whitespaces`` does) but a lone ``▁`` holds no pair, so the
    merges are the same. Decoding turns every ``▁`` back into a space: a newline comes back as a
    space, as with SentencePiece.
    ``end_of_word_suffix`` (suffix marker): Sennrich et al. style -- pieces are whitespace-separated
    words and the trainer/encoder mark each word's end with ``</w>``. Whitespace itself is not
    kept, so decoding joins words with one space (documented loss).
    ``end_of_word``: how ``</w>`` marks the end -- ``attached`` to the last character (``l o w</w>``:
    subword-nmt, HF's ``end_of_word_suffix``) or ``separate``, a symbol of its own that pairs like
    any other (``l o w </w>``: the listing in Sennrich et al. 2016). See :func:`mark_word_end`.
    ``safe_to_cut``: no piece crosses a plain space that follows a letter or digit, so a reader
    may cut a long text there and pre-tokenize the parts on their own (``corpus._cut``): the pieces
    are those of the whole text.
    ``trusted``: a built-in pattern known to run in linear time; any other pattern runs through
    :func:`run_regex`, with a time budget.
    ``line_safe``: no piece crosses a line start -- a newline after a non-space and before a
    non-space (the newline ends a piece that cannot take letters, digits or punctuation after it,
    and no whitespace run continues across it) -- so a text can be encoded line by line
    (:mod:`bpe_engine.compare.segments`).
    ``tiktoken_compatible``: tiktoken's regex engine splits text exactly as ``regex`` does with
    this pattern, so a byte-level model may encode through tiktoken
    (:mod:`bpe_engine.bpe.tiktoken_bridge`). A ``</w>`` variant never is.
    """

    name: str
    pattern: str | None = None
    space_marker: str | None = None
    end_of_word_suffix: str | None = None
    end_of_word: EndOfWord = "attached"
    keeps_unmatched: bool = True
    safe_to_cut: bool = False
    trusted: bool = False
    line_safe: bool = False
    tiktoken_compatible: bool = False
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.pattern is not None:
            compile_pattern(self.pattern)
        if self.end_of_word not in values(END_OF_WORD_STYLES):
            raise ConfigError(f"end_of_word must be one of {', '.join(values(END_OF_WORD_STYLES))}, got {self.end_of_word!r}")

    # -- public API ------------------------------------------------------------------------------
    def split(self, text: str) -> list[str]:
        """The pieces of ``text`` (markers applied), in order: what a trainer counts and an
        encoder encodes."""
        if self.space_marker is not None or (self.pattern is not None and self.keeps_unmatched):
            return [piece for piece, _, _ in self.split_with_spans(text)]
        return self.splitter()(text)

    def splitter(self) -> Callable[[str], list[str]]:
        """The fastest callable equal to :meth:`split`: for a trusted pattern whose pieces are
        its matches, the compiled pattern's ``findall`` itself (one C call per text, which counts
        when every line of a corpus is a document)."""
        if self.space_marker is not None or self.keeps_unmatched:
            if self.pattern is None and self.space_marker is None:
                return _whole
            return self.split
        assert self.pattern is not None
        if self.trusted:
            return compile_pattern(self.pattern).findall
        return partial(run_regex, self.pattern)

    def split_with_spans(self, text: str) -> list[tuple[str, int, int]]:
        """Exactly the pieces of :meth:`split`, each with its ``[start, end)`` span in ``text``."""
        if self.space_marker is not None or self.pattern is None or self.keeps_unmatched:
            return self.pieces(text)
        return [(m.group(), m.start(), m.end()) for m in self._finditer(text)]

    def pieces(self, text: str) -> list[tuple[str, int, int]]:
        """Every piece with its ``[start, end)`` character span in ``text``, the text between
        matches included even where :meth:`split` drops it (the inspector shows all of the text).

        For the ``▁`` style the prepended marker covers no original character, so the first
        piece's span starts at 0 but is one character shorter than the piece.
        """
        if self.space_marker is not None:
            return self._marker_pieces(text)
        if self.pattern is None:
            return [(text, 0, len(text))] if text else []
        out: list[tuple[str, int, int]] = []
        pos = 0
        for m in self._finditer(text):
            s, e = m.span()
            if s > pos:
                out.append((text[pos:s], pos, s))
            if e > s:
                out.append((m.group(), s, e))
            pos = e
        if pos < len(text):
            out.append((text[pos:], pos, len(text)))
        return out

    def decode_text(self, text: str) -> str:
        """Undo the markers in decoded text: ``▁`` back to spaces (dropping the prepended one),
        ``</w>`` to a word separator."""
        if self.space_marker is not None:
            text = text.replace(self.space_marker, " ")
            return text[1:] if text.startswith(" ") else text
        if self.end_of_word_suffix is not None:
            return text.replace(self.end_of_word_suffix, " ").rstrip(" ")
        return text

    # -- private ---------------------------------------------------------------------------------
    def _finditer(self, text: str) -> Iterable[regex.Match[str]]:
        assert self.pattern is not None
        if self.trusted:
            return compile_pattern(self.pattern).finditer(text)
        return run_regex(self.pattern, text, "finditer")

    def _marker_pieces(self, text: str) -> list[tuple[str, int, int]]:
        marker = self.space_marker
        assert marker is not None
        if not text:
            return []
        marked = marker + text.translate(_WHITESPACE_TO_MARKER)
        out: list[tuple[str, int, int]] = []
        for m in _MARKER_SPLIT.finditer(marked):
            s, e = m.span()
            # marked[i] corresponds to text[i - 1]; the prepended marker (i = 0) to nothing.
            out.append((m.group(), max(s - 1, 0), e - 1))
        return out


def _whole(text: str) -> list[str]:
    """``none``: the whole text is one piece."""
    return [text] if text else []


SENTENCEPIECE_SPACES = (
    "\t\n\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u200b\u200c\u200e\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\ufffd"
)
"""The characters SentencePiece's default normalisation (``nmt_nfkc``) turns into a space, so into
a word boundary -- those of sentencepiece 0.2.1, the project's oracle (a test checks it; 0.2.3 adds
U+061C). Tab, newline, CR, form feed, NBSP, the Unicode spaces, line/paragraph separators, and a few
invisible marks (zero-width space and non-joiner, LRM/RLM, BOM, U+FFFD). Not among them: the
controls ``nmt_nfkc`` deletes (``\x0b``, ``\x1c``-``\x1f``: no boundary there either) and U+0085."""

_WHITESPACE_TO_MARKER = {ord(ch): SPACE_MARKER for ch in SENTENCEPIECE_SPACES}
_MARKER_SPLIT = regex.compile(f"{SPACE_MARKER}[^{SPACE_MARKER}]*|[^{SPACE_MARKER}]+")


class PreTokenizerFlags(TypedDict, total=False):
    """The yes/no declarations of a :class:`PreTokenizer`, for a family of them to share as ``**flags``."""

    keeps_unmatched: bool
    safe_to_cut: bool
    trusted: bool
    line_safe: bool
    tiktoken_compatible: bool


_BUILT_IN: PreTokenizerFlags = {"keeps_unmatched": False, "trusted": True, "safe_to_cut": True, "line_safe": True}
TIKTOKEN_STYLE: PreTokenizerFlags = {**_BUILT_IN, "tiktoken_compatible": True}
"""The declarations of every tiktoken-style regex (OpenAI's, Llama's, Qwen's, Tekken's): every
character matched, linear, no piece across a line start or the space after a word."""
GPT2 = PreTokenizer("gpt2", GPT2_PATTERN, **TIKTOKEN_STYLE, description="GPT-2 / r50k / p50k regex (tiktoken)")
CL100K = PreTokenizer("cl100k", CL100K_PATTERN, **TIKTOKEN_STYLE, description="cl100k_base regex (GPT-3.5/4)")
O200K = PreTokenizer("o200k", O200K_PATTERN, **TIKTOKEN_STYLE, description="o200k_base regex (GPT-4o)")
HF_GPT2 = PreTokenizer("hf-gpt2", HF_GPT2_PATTERN, **TIKTOKEN_STYLE, description="original GPT-2 regex (HF ByteLevel)")
WHITESPACE = PreTokenizer(
    "whitespace", space_marker=SPACE_MARKER, description="SentencePiece style: spaces, tabs, newlines become ▁"
)
END_OF_WORD = PreTokenizer(
    "end-of-word", r"\S+", end_of_word_suffix=END_OF_WORD_SUFFIX, **_BUILT_IN,
    description="whitespace words, </w> at each word end",
)
END_OF_WORD_SEPARATE = PreTokenizer(
    "end-of-word-separate", r"\S+", end_of_word_suffix=END_OF_WORD_SUFFIX, end_of_word="separate", **_BUILT_IN,
    description="whitespace words, </w> a symbol of its own after each word",
)
NONE = PreTokenizer("none", tiktoken_compatible=True, description="no splitting: each document is one piece")

BUILTIN: dict[str, PreTokenizer] = {
    p.name: p for p in (GPT2, CL100K, O200K, HF_GPT2, WHITESPACE, END_OF_WORD, END_OF_WORD_SEPARATE, NONE)
}


def mark_word_end(symbols: list[str], suffix: str | None, style: str = "attached") -> list[str]:
    """A word's starting symbols with its end marked by ``suffix`` the ``style`` way, in place.

    >>> mark_word_end(list("low"), "</w>"), mark_word_end(list("low"), "</w>", "separate")
    (['l', 'o', 'w</w>'], ['l', 'o', 'w', '</w>'])
    """
    if suffix and symbols:
        if style == "separate":
            symbols.append(suffix)
        else:
            symbols[-1] += suffix
    return symbols


def with_end_of_word(pre: PreTokenizer, style: EndOfWord) -> PreTokenizer:
    """``pre`` with its ``</w>`` placed the ``style`` way (the built-in variant when there is one).

    >>> with_end_of_word(END_OF_WORD, "separate").name
    'end-of-word-separate'
    """
    if style not in values(END_OF_WORD_STYLES):
        raise ConfigError(f"end of word must be one of {', '.join(values(END_OF_WORD_STYLES))}, got {style!r}")
    if pre.end_of_word_suffix is None:
        raise ConfigError(
            f"the end-of-word convention ({style}) needs a pre-tokenizer that marks word ends with </w>: "
            f"use the end-of-word pre-tokenizer, not {pre.name!r}"
        )
    if pre.end_of_word == style:
        return pre
    for builtin in (END_OF_WORD, END_OF_WORD_SEPARATE):
        if builtin.end_of_word == style and replace(builtin, end_of_word=pre.end_of_word, name=pre.name) == pre:
            return builtin
    return replace(pre, end_of_word=style, tiktoken_compatible=False)


def custom(pattern: str) -> PreTokenizer:
    """A user regex: matches become pieces, unmatched text is kept as pieces too, and every scan
    runs within a time budget (:func:`run_regex`)."""
    return PreTokenizer("regex", pattern, description=f"custom regex {pattern!r}")


def get_pretokenizer(name: str, pattern: str | None = None) -> PreTokenizer:
    """Look a pre-tokenizer up by name (``regex`` needs ``pattern``)."""
    if name == "regex":
        if not pattern:
            raise ConfigError("pre-tokenizer 'regex' needs a pattern (pass --pattern REGEX)", field="pattern")
        return custom(pattern)
    try:
        return BUILTIN[name]
    except KeyError:
        names = ", ".join([*BUILTIN, "regex"])
        raise ConfigError(f"unknown pre-tokenizer {name!r}; choose one of: {names}") from None


def split_specials(text: str, specials: Iterable[str]) -> list[tuple[str, bool]]:
    """Cut ``text`` at special-token occurrences: ``[(segment, is_special), ...]``.

    Leftmost-longest, one automaton over the specials (:mod:`bpe_engine.literals`): longer specials
    win where two overlap at the same position. Empty segments are dropped.

    >>> split_specials("a<|endoftext|>b", ["<|endoftext|>"])
    [('a', False), ('<|endoftext|>', True), ('b', False)]
    """
    if not isinstance(specials, (tuple, frozenset)):
        specials = tuple(specials)
    return literals_of(specials).split(text)
