"""Streamed encoding: a text read in blocks cut where the tokenizer allows gives exactly the ids
(and details) of the whole text, for every kind of tokenizer, at every block boundary; reading
stays bounded where no cut is possible; each byte is encoded once."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_cli.main import main
from bpe_engine.compare.resolve import resolve_tokenizer
from bpe_engine.corpus.blocks import CutRule
from bpe_engine.corpus.table_size import UncutTooLarge
from bpe_engine.errors import ConfigError
from bpe_engine.streaming.encode_stream import ENCODE_BYTES_PER_BYTE, encode_cut_rule, encode_ids, text_blocks

DATA = Path(__file__).resolve().parents[1] / "data"
BUILT_INS = (
    "gpt2", "cl100k_base", "o200k_base", "bert-base-uncased", "tekken", "whisper", "mistral-v1", "sp-unigram-en",
    "claude-legacy", "characters", "words",
)  # fmt: skip
HAZARDS = [
    *"ab1 .,\n\t'sé한\u3000\xa0\u0301", "  ", "\r\n", "\n\n", " \n", "'ll", "ﬁ", "x\u200by", "Ab9",
    "<|endoftext|>", "<s>", "[CLS]", "end of text", "<|en|>",
]  # fmt: skip
texts = st.lists(st.sampled_from(HAZARDS), max_size=60).map("".join)


@pytest.fixture(scope="module")
def tokenizers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every kind: the built-ins, and trained directories (byte-level with a special holding
    spaces, character-level end-of-word with unknown pieces, SentencePiece-style whitespace)."""
    root = tmp_path_factory.mktemp("stream")
    corpus = root / "corpus.txt"
    corpus.write_text((DATA / "alice29.txt").read_text(encoding="utf-8")[:30_000], encoding="utf-8")
    trained = {
        "trained-byte": ["--special", "end of text", "--special", "<|endoftext|>"],
        "trained-eow": ["--pre-tokenizer", "end-of-word"],
        "trained-ws": ["--char-level", "--pre-tokenizer", "whitespace"],
    }
    found = {name: resolve_tokenizer(name) for name in BUILT_INS}
    for name, options in trained.items():
        assert main(["train", str(corpus), "--vocab-size", "400", *options, "-o", str(root / name)]) == 0
        found[name] = resolve_tokenizer(str(root / name))
    return found


def streamed(tokenizer: Any, text: str, block_bytes: int, mode: str = "text") -> tuple[list[int], list[Any]]:
    """Ids and per-token details (token, byte span, special, unknown) of every block, laid end to end."""
    rule = encode_cut_rule(tokenizer)
    ids: list[int] = []
    details: list[Any] = []
    for block in text_blocks("t", io.BytesIO(text.encode("utf-8")), rule, block_bytes):
        ids += encode_ids(tokenizer, block.text, mode)[0]
        enc = tokenizer.encode_detailed(block.text, special_mode=mode)
        details += [
            (t, (s + block.offset, e + block.offset), sp, unk)
            for t, (s, e), sp, unk in zip(enc.tokens, enc.byte_spans, enc.special, enc.unknown, strict=True)
        ]
    return ids, details


def whole(tokenizer: Any, text: str, mode: str = "text") -> tuple[list[int], list[Any]]:
    enc = tokenizer.encode_detailed(text, special_mode=mode)
    return encode_ids(tokenizer, text, mode)[0], list(zip(enc.tokens, enc.byte_spans, enc.special, enc.unknown, strict=True))


@settings(max_examples=60)
@given(texts, st.integers(1, 12), st.sampled_from(["text", "special"]))
def test_blocks_encode_to_the_ids_and_details_of_the_whole_text(tokenizers: dict[str, Any], text: str, block_bytes: int, mode: str) -> None:
    for name, tokenizer in tokenizers.items():
        assert streamed(tokenizer, text, block_bytes, mode) == whole(tokenizer, text, mode), name


def test_the_cut_points_each_tokenizer_declares(tokenizers: dict[str, Any]) -> None:
    """Space cuts for the pre-tokenizers that declare them with no normaliser before; line starts
    for BERT too, once it is not wrapping the whole text in the [CLS] ... [SEP] it adds by default;
    none for SentencePiece, tokenizer.json pipelines and the ▁ style."""
    kinds = {name: (rule.spaces, rule.line_starts) for name, rule in ((n, encode_cut_rule(t)) for n, t in tokenizers.items())}
    assert kinds["cl100k_base"] == kinds["gpt2"] == kinds["whisper"] == kinds["tekken"] == kinds["trained-eow"] == (True, True)
    bert_bare = encode_cut_rule(tokenizers["bert-base-uncased"], add_special_tokens=False)
    assert (bert_bare.spaces, bert_bare.line_starts) == kinds["characters"] == (False, True)
    assert kinds["bert-base-uncased"] == (False, False)  # "[CLS] a [SEP]" + "[CLS] b [SEP]" is not "[CLS] a b [SEP]"
    assert kinds["mistral-v1"] == kinds["sp-unigram-en"] == kinds["claude-legacy"] == kinds["trained-ws"] == (False, False)
    assert encode_cut_rule(tokenizers["trained-byte"]).specials == (b"end of text",)  # only specials a cut could split


@pytest.mark.parametrize(
    "name", ["cl100k_base", "gpt2", "o200k_base", "bert-base-uncased", "whisper", "tekken", "trained-eow", "characters"]
)
def test_the_test_corpora_stream_to_the_whole_texts_ids(tokenizers: dict[str, Any], name: str) -> None:
    tokenizer = tokenizers[name]
    for file in ("alice29.txt", "constitution.txt"):
        text = (DATA / file).read_text(encoding="utf-8")[:60_000]
        ids, details = streamed(tokenizer, text, 4096)
        assert (ids, details) == whole(tokenizer, text), (name, file)


def test_line_starts_cut_after_a_newline_between_two_non_spaces() -> None:
    rule = CutRule(lines=False, spaces=False, line_starts=True)
    data = "a\nb\n\nc\n d\r\ne 한\n국\n".encode()
    cuts, c = [], rule.find(data, 1)
    while c != -1:
        cuts.append(c)
        c = rule.find(data, c + 1)
    parts = [data[a:b].decode() for a, b in zip([0, *cuts], [*cuts, len(data)])]
    assert parts == ["a\n", "b\n\nc\n d\r\ne 한\n", "국\n"]


class CountingReader(io.RawIOBase):
    """``size`` bytes of one repeated byte, counting what is read (``/dev/zero`` made finite)."""

    def __init__(self, byte: bytes, size: int) -> None:
        self.byte, self.left, self.read_bytes = byte, size, 0

    def read(self, n: int = -1) -> bytes:
        n = self.left if n < 0 else min(n, self.left)
        self.left -= n
        self.read_bytes += n
        return self.byte * n


@pytest.mark.parametrize("name", ["characters", "mistral-v1"])
def test_a_stretch_with_no_cut_point_stops_reading_at_its_bound(tokenizers: dict[str, Any], name: str) -> None:
    budget = ENCODE_BYTES_PER_BYTE * 10_000  # 10,000 bytes may be held whole
    rule = encode_cut_rule(tokenizers[name], budget=budget)
    reader = CountingReader(b"a", 1 << 30)
    with pytest.raises(UncutTooLarge) as caught:
        for _ in text_blocks("standard input", reader, rule, 1024):
            pass
    assert reader.read_bytes < 16_000, "the stretch was read far past its bound"
    message = str(caught.value)
    assert message.startswith("standard input: ") and "encoded whole it needs" in message and "\n" not in message
    if name == "mistral-v1":
        assert "mistral-v1 is encoded only whole" in message


def test_bytes_that_are_not_utf8_are_named_with_their_offset_in_the_input(tokenizers: dict[str, Any]) -> None:
    rule = encode_cut_rule(tokenizers["cl100k_base"])
    with pytest.raises(ConfigError, match=r"standard input is not valid UTF-8 \(byte 0xff at offset 21\)"):
        list(text_blocks("standard input", io.BytesIO(b"one two three four fi\xff"), rule, 4))


class Recording:
    """A tokenizer that records the length of every text it is asked to encode."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.lengths = inner, []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def encode(self, text: str, **kwargs: Any) -> list[int]:
        self.lengths.append(len(text))
        return self.inner.encode(text, **kwargs)


def test_each_character_is_encoded_once(tokenizers: dict[str, Any]) -> None:
    """Linear work, counted: the blocks partition the text, none is encoded twice."""
    text = (DATA / "alice29.txt").read_text(encoding="utf-8")
    tokenizer = Recording(tokenizers["cl100k_base"])
    ids, _ = streamed(tokenizer, text, 2048)
    assert sum(tokenizer.lengths) == len(text) and len(tokenizer.lengths) > 50


def test_no_cut_falls_inside_a_special_token_longer_than_what_was_read() -> None:
    """Read a byte at a time, the bytes at hand were fewer than the special's length: the search
    ran with a negative end (counted from the end of the data) and cut inside 'end of text'."""
    from bpe_engine.corpus.blocks import stream_blocks

    rule = CutRule(lines=False, spaces=True, specials=(b"end of text",))
    assert [b.data for b in stream_blocks("t", io.BytesIO(b"end of text x"), rule, 1)] == [b"end of text", b" x"]
