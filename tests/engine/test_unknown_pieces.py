"""Engine and CLI: a symbol the vocabulary cannot spell is an unknown piece -- marked,
with the unk id when there is one, explained -- never an error that kills a Compare row or inspect."""

from __future__ import annotations

import json

import pytest

from bpe_cli.main import main
from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.compare import compare
from bpe_engine.compare.baselines import CharacterTokenizer
from bpe_engine.core.byte_table import BYTE_TO_CHAR
from bpe_engine.errors import ConfigError, UnknownSymbolError
from bpe_engine.formats import save_tokenizer
from bpe_engine.pretokenizers import END_OF_WORD, GPT2
from bpe_engine.types import UNKNOWN_ID


def end_of_word_tokenizer(unk: str | None = None) -> BpeTokenizer:
    """어 is known inside words only: the word-final 어</w> is missing (a character-level ``</w>`` model's gap)."""
    vocab = {"a": 0, "b": 1, "어": 2, "a</w>": 3, "b</w>": 4, "ab</w>": 5}
    if unk:
        vocab[unk] = 6
    return BpeTokenizer(
        name="eow", vocab=vocab, merges=[("a", "b</w>")], pre_tokenizer=END_OF_WORD, byte_level=False, unk_token=unk
    )


def test_encode_detailed_marks_unknown_pieces_and_says_why() -> None:
    enc = end_of_word_tokenizer().encode_detailed("ab 어a 어")
    assert enc.ids == (5, 2, 3, UNKNOWN_ID)
    assert enc.unknown == (False, False, False, True)
    assert enc.tokens[-1] == "어</w>" and enc.byte_spans[-1] == (8, 11)
    assert len(enc.notes) == 1
    assert "word-final '어</w>'" in enc.notes[0] and "only inside words" in enc.notes[0] and "no id" in enc.notes[0]


def test_unk_token_gives_its_id_and_still_marks_the_piece() -> None:
    tok = end_of_word_tokenizer(unk="<unk>")
    enc = tok.encode_detailed("ab 어")
    assert enc.ids == (5, 6) and enc.unknown == (False, True)
    assert "unknown token '<unk>'" in enc.notes[0]
    assert tok.encode("ab 어") == [5, 6]


def test_encode_without_unk_raises_with_the_exact_reason() -> None:
    with pytest.raises(UnknownSymbolError, match=r"word-final '어</w>'.*unknown piece"):
        end_of_word_tokenizer().encode("어")


def test_unknown_piece_has_no_id_to_decode() -> None:
    tok = end_of_word_tokenizer()
    with pytest.raises(ConfigError, match="unknown piece"):
        tok.decode([UNKNOWN_ID])


def byte_seen_only() -> BpeTokenizer:
    vocab = {BYTE_TO_CHAR[b]: i for i, b in enumerate(b"ab ")}
    return BpeTokenizer(name="seen", vocab=vocab, merges=[], pre_tokenizer=GPT2, byte_level=True)


def test_byte_level_alphabet_of_seen_bytes_marks_missing_bytes() -> None:
    enc = byte_seen_only().encode_detailed("ab 한")
    assert enc.unknown == (False, False, False, True, True, True)
    assert enc.byte_spans[3:] == ((3, 4), (4, 5), (5, 6))
    assert any("byte 0xED" in n for n in enc.notes)


@pytest.mark.parametrize("make", [end_of_word_tokenizer, byte_seen_only])
def test_compare_row_survives_an_unseen_symbol(make) -> None:
    result = compare("ab 어 한", [make(), CharacterTokenizer()], special_mode="text")
    row = result.rows[0]
    assert row.error is None and row.encoding is not None and any(row.encoding.unknown)


def test_wordpiece_unk_is_marked() -> None:
    from bpe_engine.wordpiece import bert_base_uncased

    enc = bert_base_uncased().encode_detailed("hello \U0001F9D9", add_special_tokens=False)
    assert enc.unknown == (False, True) and enc.notes and "[UNK]" in enc.notes[0]


def test_cli_inspect_and_encode_show_unknown_pieces(tmp_path, capsys) -> None:
    save_tokenizer(end_of_word_tokenizer(), tmp_path / "eow")
    assert main(["inspect", "-t", str(tmp_path / "eow"), "ab 어"]) == 0
    out = capsys.readouterr().out
    assert "unknown piece" in out and "word-final" in out
    assert main(["inspect", "--json", "-t", str(tmp_path / "eow"), "ab 어"]) == 0
    tokens = json.loads(capsys.readouterr().out)["tokens"]
    assert tokens[-1]["unknown"] and tokens[-1]["id"] is None and tokens[-1]["text"] == "어"
    # encode shows the piece too, and says by its exit status that one piece has no id
    assert main(["encode", "--json", "-t", str(tmp_path / "eow"), "ab 어"]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["ids"] == [5, None] and data["tokens"][1]["unknown"] and "word-final" in captured.err
    assert main(["compare", "--json", "--tokenizers", f"{tmp_path / 'eow'},characters", "ab 어"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert rows[0]["error"] is None and rows[0]["tokens"][-1]["unknown"]
