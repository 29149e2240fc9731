"""WordPiece ``vocab.txt``: one token per line, the line number (from 0) is the id.

The format has no room for settings, so loading takes them as arguments (BERT's defaults).
Hugging Face silently lets a later duplicate win and accepts blank lines; a vocabulary with either
is almost always a damaged file, so here each is a :class:`~bpe_engine.errors.TokenizerFileError`
naming the line. The packaged ``bert-base-uncased`` vocabulary is checked against its pinned
sha256 on every load, so a corrupted installation fails loudly instead of mis-tokenizing.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from ..atomic import atomic_write_text
from ..core.json_files import read_file_bytes
from ..errors import ConfigError, ReferenceDataMissing, TokenizerFileError
from .bert_normalizer import BertNormalizer
from .model import WordPieceTokenizer

BERT_BASE_UNCASED = "bert-base-uncased"
BERT_VOCAB_FILE = "bert-base-uncased-vocab.txt"
BERT_VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"


def parse_vocab_txt(path: str | Path, data: bytes, *, unk_token: str = "[UNK]") -> list[str]:
    """Tokens in id order from the bytes of a ``vocab.txt`` (``path`` is for messages only)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise TokenizerFileError(path, f"not valid UTF-8 (byte offset {exc.start}); vocab.txt must be UTF-8", line=line) from None
    tokens: list[str] = []
    first_line: dict[str, int] = {}
    lines = text.split("\n")
    for number, raw in enumerate(lines, start=1):
        token = raw.rstrip()  # as HF: trailing whitespace (and \r) is not part of the token
        if not token:
            if number == len(lines) and raw == "":
                break  # the newline after the last token
            raise TokenizerFileError(path, "blank line; every line must hold one token (delete the line)", line=number)
        if token in first_line:
            raise TokenizerFileError(
                path, f"duplicate token {token!r} (first on line {first_line[token]}); each token may appear once", line=number
            )
        first_line[token] = number
        tokens.append(token)
    if not tokens:
        raise TokenizerFileError(path, "empty vocabulary; a vocab.txt lists one token per line")
    if unk_token not in first_line:
        raise TokenizerFileError(path, f"the unknown token {unk_token!r} is missing; WordPiece needs it (add a line {unk_token})")
    return tokens


def load_vocab_txt(
    path: str | Path,
    *,
    name: str | None = None,
    lowercase: bool = True,
    strip_accents: bool | None = None,
    unk_token: str = "[UNK]",
    max_input_chars_per_word: int = 100,
) -> WordPieceTokenizer:
    """A BERT-style tokenizer from a ``vocab.txt`` (``lowercase=False`` for cased vocabularies)."""
    data = read_file_bytes(path, expected="a vocab.txt file")
    tokens = parse_vocab_txt(path, data, unk_token=unk_token)
    p = Path(path)
    return WordPieceTokenizer(
        tokens,
        name=name or (p.parent.name if p.name == "vocab.txt" and p.parent.name else p.stem),
        unk_token=unk_token,
        max_input_chars_per_word=max_input_chars_per_word,
        normalizer=BertNormalizer(lowercase=lowercase, strip_accents=strip_accents),
    )


def vocab_txt_problem(tokenizer: WordPieceTokenizer) -> str | None:
    """Why ``vocab.txt`` cannot hold ``tokenizer``'s vocabulary (one token a line, ids 0..n-1 in
    order), or None when it can."""
    by_id = {i: t for t, i in tokenizer.vocab.items()}
    if set(by_id) != set(range(len(by_id))):
        missing = min(set(range(len(by_id))) - set(by_id))
        return f"vocab.txt needs ids 0..{len(by_id) - 1} without gaps, and id {missing} is unused"
    bad = [t for t in by_id.values() if t != t.strip() or "\n" in t or "\r" in t]
    if bad:
        return f"token {bad[0]!r} has surrounding whitespace or a line break, which vocab.txt cannot hold"
    return None


def vocab_txt_text(tokenizer: WordPieceTokenizer) -> str:
    """The ``vocab.txt`` text of ``tokenizer``: ids must run 0..n-1 without gaps."""
    problem = vocab_txt_problem(tokenizer)
    if problem is not None:
        raise ConfigError(f"{problem}; save as tokenizer.json")
    by_id = {i: t for t, i in tokenizer.vocab.items()}
    return "".join(by_id[i] + "\n" for i in range(len(by_id)))


def save_vocab_txt(tokenizer: WordPieceTokenizer, path: str | Path) -> None:
    """Write ``tokenizer``'s vocabulary as ``vocab.txt`` (atomically)."""
    atomic_write_text(path, vocab_txt_text(tokenizer))


def bert_base_uncased() -> WordPieceTokenizer:
    """Google's ``bert-base-uncased`` (30,522 tokens), ids identical to HF's BertWordPieceTokenizer.

    The vocabulary ships inside the package; its sha256 is checked on first load.
    """
    return _bert_base_uncased()


def bert_vocab_present() -> bool:
    """Whether the packaged ``bert-base-uncased`` vocabulary is there (``bpe-explorer models``
    lists it as present or missing; its checksum is checked when it is loaded)."""
    return _bert_vocab_resource().is_file()


def _bert_vocab_resource() -> Traversable:
    return resources.files("bpe_engine").joinpath("data", BERT_VOCAB_FILE)


@lru_cache(maxsize=1)
def _bert_base_uncased() -> WordPieceTokenizer:
    resource = _bert_vocab_resource()
    try:
        data = resource.read_bytes()
    except OSError:
        raise ReferenceDataMissing(
            f"the packaged {BERT_VOCAB_FILE} is missing; reinstall bpe-explorer (pip install --force-reinstall bpe-explorer)"
        ) from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != BERT_VOCAB_SHA256:
        raise ReferenceDataMissing(
            f"the packaged {BERT_VOCAB_FILE} fails its checksum (sha256 {actual[:12]}..., pinned "
            f"{BERT_VOCAB_SHA256[:12]}...); reinstall bpe-explorer"
        )
    tokens = parse_vocab_txt(str(resource), data)
    return WordPieceTokenizer(tokens, name=BERT_BASE_UNCASED, normalizer=BertNormalizer(lowercase=True))
