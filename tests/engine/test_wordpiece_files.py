"""WordPiece files: vocab.txt and tokenizer.json round trips, HF loads what we save, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpe_engine.errors import ReferenceDataMissing, TokenizerFileError
from bpe_engine.formats.wordpiece_json import load_hf_json, save_hf_json, save_wordpiece_dir
from bpe_engine.pretokenizers import GPT2, WHITESPACE
from bpe_engine.training.wordpiece import WordPieceTrainerConfig, train_wordpiece
from bpe_engine.wordpiece import bert_base_uncased, load_vocab_txt, save_vocab_txt, vocab_files
from tests.oracles import require

tokenizers = require("tokenizers")
SAMPLE = "Alice was beginning to get very tired of sitting by her sister on the bank. 대한민국은 민주공화국이다. Café [CLS] x"


@pytest.fixture(scope="module")
def trained(alice_text: str, korean_text: str):
    return train_wordpiece([alice_text[:15000], korean_text[:3000]], WordPieceTrainerConfig(vocab_size=500))


def test_vocab_txt_round_trip(tmp_path: Path, trained) -> None:
    path = tmp_path / "out" / "vocab.txt"
    save_vocab_txt(trained, path)
    loaded = load_vocab_txt(path)
    assert loaded.vocab == trained.vocab and loaded.name == "out"
    assert loaded.encode(SAMPLE, special_mode="special") == trained.encode(SAMPLE, special_mode="special")
    hf = tokenizers.BertWordPieceTokenizer(str(path), lowercase=True)
    assert hf.encode(SAMPLE).ids == trained.encode(SAMPLE, special_mode="special", add_special_tokens=True)


def test_bert_vocab_txt_loads_like_the_builtin() -> None:
    path = Path(vocab_files.__file__).parent.parent / "data" / vocab_files.BERT_VOCAB_FILE
    assert load_vocab_txt(path).vocab == bert_base_uncased().vocab


def test_saved_tokenizer_json_loads_in_hf_with_our_ids(tmp_path: Path, trained) -> None:
    path = tmp_path / "tokenizer.json"
    save_hf_json(trained, path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    for add in (False, True):
        assert hf.encode(SAMPLE, add_special_tokens=add).ids == trained.encode(
            SAMPLE, special_mode="special", add_special_tokens=add
        )
    again = load_hf_json(path)
    assert again.vocab == trained.vocab and again.special_tokens == trained.special_tokens
    assert again.encode(SAMPLE, special_mode="special") == trained.encode(SAMPLE, special_mode="special")


def test_hf_written_bert_tokenizer_json_loads(tmp_path: Path) -> None:
    path = tmp_path / "bert" / "tokenizer.json"
    path.parent.mkdir()
    vocab = Path(vocab_files.__file__).parent.parent / "data" / vocab_files.BERT_VOCAB_FILE
    tokenizers.BertWordPieceTokenizer(str(vocab), lowercase=True).save(str(path))
    ours = load_hf_json(path)
    assert ours.name == "bert"
    assert ours.encode(SAMPLE, special_mode="special", add_special_tokens=True) == bert_base_uncased().encode(
        SAMPLE, special_mode="special", add_special_tokens=True
    )


def test_regex_pre_tokenizer_survives_tokenizer_json(tmp_path: Path) -> None:
    tok = train_wordpiece(["the cat sat on the mat " * 5], WordPieceTrainerConfig(vocab_size=60, pre_tokenizer=GPT2, min_frequency=1))
    path = tmp_path / "tokenizer.json"
    save_hf_json(tok, path)
    assert load_hf_json(path).encode("the mat") == tok.encode("the mat")
    marker = train_wordpiece(["a b"], WordPieceTrainerConfig(vocab_size=20, pre_tokenizer=WHITESPACE))
    with pytest.raises(Exception, match="vocab.txt"):
        save_hf_json(marker, tmp_path / "m.json")


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        (b"[PAD]\n[UNK]\nthe\nthe\n", 4, "duplicate token 'the' \\(first on line 3\\)"),
        (b"[PAD]\nthe\n", None, "'\\[UNK\\]' is missing"),
        (b"[PAD]\n[UNK]\n\nthe\n", 3, "blank line"),
        (b"[PAD]\n[UNK]\nth\xffe\n", 3, "not valid UTF-8"),
        (b"", None, "empty vocabulary"),
    ],
)
def test_malformed_vocab_txt(tmp_path: Path, content: bytes, line: int | None, message: str) -> None:
    path = tmp_path / "vocab.txt"
    path.write_bytes(content)
    with pytest.raises(TokenizerFileError, match=message) as info:
        load_vocab_txt(path)
    assert info.value.line == line and info.value.path == str(path)


def test_crlf_vocab_txt_loads(tmp_path: Path) -> None:
    path = tmp_path / "vocab.txt"
    path.write_bytes(b"[PAD]\r\n[UNK]\r\nhe\r\n##llo\r\n")
    assert load_vocab_txt(path).encode("hello") == [2, 3]


def test_missing_file_and_bad_json(tmp_path: Path) -> None:
    with pytest.raises(TokenizerFileError, match="not found"):
        load_vocab_txt(tmp_path / "nope.txt")
    bad = tmp_path / "tokenizer.json"
    bad.write_text('{"model": {"type": "BPE", "vocab": {}, "merges": []}}')
    with pytest.raises(TokenizerFileError, match="not WordPiece"):
        load_hf_json(bad)
    bad.write_text('{"model": {"type": "WordPiece", "vocab": {"a": 0}}}')
    with pytest.raises(TokenizerFileError, match="unk_token"):
        load_hf_json(bad)


def test_builtin_checksum_is_enforced(monkeypatch: pytest.MonkeyPatch) -> None:
    vocab_files._bert_base_uncased.cache_clear()
    monkeypatch.setattr(vocab_files, "BERT_VOCAB_SHA256", "0" * 64)
    try:
        with pytest.raises(ReferenceDataMissing, match="checksum"):
            bert_base_uncased()
    finally:
        monkeypatch.undo()
        vocab_files._bert_base_uncased.cache_clear()
    assert bert_base_uncased().vocab_size == 30522


def test_save_directory_reloads_through_the_registry(tmp_path: Path, trained) -> None:
    from bpe_engine.registry import load_tokenizer

    written = save_wordpiece_dir(trained, tmp_path / "wp")
    assert [p.name for p in written] == ["vocab.txt", "tokenizer.json"]
    again = load_tokenizer(tmp_path / "wp")
    assert again.encode(SAMPLE, special_mode="special") == trained.encode(SAMPLE, special_mode="special")
    assert again.encode(SAMPLE, special_mode="special", add_special_tokens=False) == trained.encode(SAMPLE, special_mode="special", add_special_tokens=False)
    assert load_tokenizer("bert-base-uncased").encode("unaffable") == [101, 14477, 20961, 3468, 102]
    marker = train_wordpiece(["a b"], WordPieceTrainerConfig(vocab_size=20, pre_tokenizer=WHITESPACE))
    assert [p.name for p in save_wordpiece_dir(marker, tmp_path / "m")] == ["vocab.txt"]


def test_models_lists_the_packaged_bert_vocabulary_as_present_or_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``bpe-explorer models`` reads the packaged file itself (the catalog asks no registry)."""
    from bpe_engine.catalog import list_models

    def bert_state() -> str:
        return next(r.state for r in list_models(hf_roots=[]) if r.name == "bert-base-uncased")

    assert bert_state() == "present"
    monkeypatch.setattr(vocab_files, "_bert_vocab_resource", lambda: tmp_path / "gone.txt")
    assert bert_state() == "missing"
