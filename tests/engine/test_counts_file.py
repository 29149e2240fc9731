"""The counts file: any piece round-trips, files add up in first-appearance order, bad rows are
named by file and line, counts are 64-bit and exact, SentencePiece reads the file as it is."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_engine.corpus import WordCounts, count_words
from bpe_engine.corpus.counts_file import (
    MAX_COUNT,
    CountsHeader,
    escape_piece,
    read_counts,
    read_header,
    unescape_piece,
    write_counts,
)
from bpe_engine.errors import CorpusError
from bpe_engine.pretokenizers import GPT2, NONE
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining
from tests.oracles import require


@given(st.binary(max_size=40))
def test_any_byte_string_round_trips_and_never_breaks_a_row(raw: bytes) -> None:
    column = escape_piece(raw)
    assert not any(c in column for c in "\t\n\r\x00\x1b")
    assert unescape_piece(column.encode("utf-8")) == raw


def test_escapes_are_readable() -> None:
    assert escape_piece(" the".encode()) == " the"
    assert escape_piece("한".encode()[:2]) == "\\xed\\x95"  # a cut character: its bytes
    assert escape_piece(b"a\\b\tc\nd\re\x1bf\x7f") == "a\\\\b\\tc\\nd\\re\\x1bf\\x7f"
    with pytest.raises(ValueError, match="starts no escape"):
        unescape_piece(b"bad\\q")


@pytest.mark.parametrize("byte_level", [True, False])
def test_write_then_read_gives_the_same_table_in_the_same_order(tmp_path, byte_level) -> None:
    docs = [b"hi \xff\xfe caf\xc3\xa9 tab\there\n\n  ", b"hi again"] if byte_level else ["hi caf\u00e9\ttab\\ 한국어 hi"]
    counts = count_words(docs, GPT2, byte_level=byte_level, workers=1)
    header = CountsHeader(level="byte" if byte_level else "char", documents=counts.documents, unique=True)
    path = tmp_path / "c.tsv"
    assert write_counts(path, counts, header) == len(counts)
    again, read = read_counts([path])
    assert list(again.counts.items()) == list(counts.counts.items())
    assert again.byte_level == byte_level and read.settings() == header.settings()
    assert read_header(path) == header


def _file(path, rows: str, header: CountsHeader | None = CountsHeader(level="char")) -> str:
    path.write_bytes((header.row() if header else b"") + rows.encode())
    return str(path)


def test_files_add_up_in_first_appearance_order(tmp_path) -> None:
    a = _file(tmp_path / "a.tsv", "x\t2\ny\t1\n")
    b = _file(tmp_path / "b.tsv", "z\t5\nx\t3\n", header=None)  # no header: taken to match
    counts, header = read_counts([a, b])
    assert list(counts.counts.items()) == [("x", 5), ("y", 1), ("z", 5)]
    assert header.level == "char" and counts.total_words == 11


def test_files_counted_differently_do_not_add_up(tmp_path) -> None:
    a = _file(tmp_path / "a.tsv", "x\t2\n")
    b = _file(tmp_path / "b.tsv", "x\t2\n", header=CountsHeader(level="byte"))
    with pytest.raises(CorpusError, match=r"b\.tsv was counted with pre-tokenizer gpt2, byte-level.*a\.tsv with .*char-level"):
        read_counts([a, b])


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("x\t1\ny\n", r"line 3: expected piece<TAB>count"),
        ("x\t1\ny\t-4\n", r"line 3: expected piece<TAB>count"),
        ("x\t1\ny\t0\n", r"line 3: count 0 is outside 1 to 2\*\*63 - 1"),
        (f"x\t{MAX_COUNT + 1}\n", r"line 2: count 9223372036854775808 is outside"),
        ("bad\\q\t1\n", r"line 2: a backslash that starts no escape"),
        ("\\xff\t1\n", r"line 2: .*can't decode byte 0xff"),
    ],
)
def test_bad_rows_are_named_by_file_and_line(tmp_path, rows, message) -> None:
    path = _file(tmp_path / "bad.tsv", rows)
    with pytest.raises(CorpusError, match=r"bad\.tsv, " + message):
        read_counts([path])


def test_min_count_applies_to_totals(tmp_path) -> None:
    path = _file(tmp_path / "dup.tsv", "x\t1\ny\t5\nx\t1\n", header=None)  # a concatenation: x twice
    counts, _ = read_counts([path], default=CountsHeader(level="char"), min_count=2)
    assert dict(counts.counts) == {"x": 2, "y": 5}
    unique = _file(tmp_path / "u.tsv", "x\t1\ny\t5\n", header=CountsHeader(level="char", unique=True))
    assert dict(read_counts([unique], min_count=2)[0].counts) == {"y": 5}  # filtered while reading


def test_counts_are_64_bit_and_exact_where_hf_wraps(tmp_path) -> None:
    """Pair counts above 2**32, reached through word counts in a counts file, stay exact here.

    Hugging Face's ``BpeTrainer::count_pairs`` (tokenizers/src/models/bpe/trainer.rs) keeps pair
    counts in a ``HashMap<Pair, i32>`` and adds ``count as i32``: a word seen 3,000,000,000 times
    adds -1,294,967,296, and a pair whose count is not positive never enters the queue. HF offers
    no way to feed word counts from Python, and reaching 2**31 occurrences through text would take
    gigabytes, so the wrap is documented here rather than run.
    """
    path = _file(tmp_path / "big.tsv", f"ab\t3000000000\nabab\t1000000000\nc\t{MAX_COUNT}\n")
    counts, _ = read_counts([path])
    assert counts.counts["c"] == MAX_COUNT and counts.total_words == 4_000_000_000 + MAX_COUNT
    steps = list(BpeTraining(counts, BpeTrainerConfig(vocab_size=4, byte_level=False, pre_tokenizer=NONE)).steps())
    assert (steps[0].left, steps[0].right, steps[0].count) == ("a", "b", 5_000_000_000)  # 3e9 + 2 * 1e9 > 2**32
    out = tmp_path / "again.tsv"
    write_counts(out, counts, CountsHeader(level="char"))
    assert read_counts([out])[0].counts == counts.counts
    with pytest.raises(CorpusError, match="does not fit in 64 bits"):
        write_counts(out, WordCounts({"a": MAX_COUNT + 1}, byte_level=False), None)


def test_sentencepiece_trains_on_our_counts_file_as_it_is(tmp_path, alice_text) -> None:
    spm = require("sentencepiece")
    counts = count_words([alice_text[:60_000]], GPT2, byte_level=False, workers=1)
    path = tmp_path / "alice.tsv"
    write_counts(path, counts, CountsHeader(level="char", unique=True))
    prefix = tmp_path / "spm"
    spm.SentencePieceTrainer.train(
        input=str(path), input_format="tsv", model_prefix=str(prefix), vocab_size=300, model_type="bpe", minloglevel=2
    )
    model = spm.SentencePieceProcessor(model_file=f"{prefix}.model")
    assert model.get_piece_size() == 300
    assert "▁the" in {model.id_to_piece(i) for i in range(300)}
