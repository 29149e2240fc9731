"""Training options: unk_token, a default max_token_length, lone surrogates,
and their CLI switches (--unk-token, --max-token-length, --end-of-word)."""

from __future__ import annotations

import pytest

from bpe_cli.main import main
from bpe_engine.errors import CorpusError
from bpe_engine.pretokenizers import GPT2, NONE
from bpe_engine.registry import load_tokenizer
from bpe_engine.training.bpe import DEFAULT_MAX_TOKEN_LENGTH, BpeTrainerConfig, train
from bpe_engine.training.wordpiece import WordPieceTrainerConfig, train_wordpiece


def test_one_repeated_character_trains_no_token_longer_than_the_default() -> None:
    # A file of one repeated character used to train a token as long as the file.
    result = train(["a" * 200_000], BpeTrainerConfig(vocab_size=300, pre_tokenizer=GPT2), workers=1)
    longest = max(len(s.new) for s in result.steps)
    assert longest == 8  # a a -> aa -> aaaa -> a*8; a*8 + a*8 would reach 16 (HF: the limit is excluded)
    assert len(result.tokenizer.encode("a" * 1_000)) == 1_000 // 8
    unlimited = train(["a" * 4_096], BpeTrainerConfig(vocab_size=300, pre_tokenizer=GPT2, max_token_length=None), workers=1)
    assert max(len(s.new) for s in unlimited.steps) == 4_096  # None lifts it


@pytest.mark.parametrize("corpus", [["a\ud800b ab"], ["x\udc80"]])
def test_character_level_training_refuses_lone_surrogates_up_front(corpus: list[str]) -> None:
    # It used to train, then tokenizer() raised UnicodeEncodeError.
    with pytest.raises(CorpusError, match=r"lone surrogate U\+D[8C]"):
        train(corpus, BpeTrainerConfig(vocab_size=50, byte_level=False, pre_tokenizer=NONE), workers=1)
    with pytest.raises(CorpusError, match="lone surrogate"):
        train_wordpiece(corpus, WordPieceTrainerConfig(vocab_size=50, min_frequency=0, pre_tokenizer=GPT2))
    byte_level = train([corpus[0].encode("utf-8", "surrogatepass")], BpeTrainerConfig(vocab_size=260), workers=1)
    assert byte_level.steps  # byte-level trains on such bytes


def run_cli(*args: str) -> int:
    return main(["train", *args])


def test_cli_unk_token_max_token_length_and_end_of_word(tmp_path, capsys) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text("low low low lower " + "a" * 300, encoding="utf-8")
    out = tmp_path / "unk"
    assert run_cli(str(corpus), "--vocab-size", "40", "-o", str(out), "--unk-token", "<unk>", "--pre-tokenizer", "gpt2") == 0
    tok = load_tokenizer(str(out))
    assert tok.unk_token == "<unk>"  # 8.7: the trained (and saved) tokenizer carries it
    assert [tok.token_str(i) for i in tok.encode("lowz")][-1] == "<unk>"
    assert max(len(tok.token_str(i)) for i in tok.encode("a" * 300)) < DEFAULT_MAX_TOKEN_LENGTH

    out = tmp_path / "long"
    assert run_cli(str(corpus), "--vocab-size", "300", "-o", str(out), "--max-token-length", "0") == 0
    assert max(len(t) for t in load_tokenizer(str(out)).vocab) > 100  # 0 = no limit

    out = tmp_path / "separate"
    low = tmp_path / "low.txt"
    low.write_text("low low low lower\n", encoding="utf-8")
    assert run_cli(str(low), "--vocab-size", "14", "-o", str(out), "--end-of-word", "separate") == 0
    assert "tokenizer.json not written" in capsys.readouterr().out
    tok = load_tokenizer(str(out))
    assert tok.merges[:3] == [("l", "o"), ("lo", "w"), ("low", "</w>")]
    assert tok.decode(tok.encode("low lower")) == "low lower"

    assert run_cli(str(corpus), "--vocab-size", "40", "-o", str(tmp_path / "x"), "--model", "wordpiece",
                   "--max-token-length", "8") == 2
    assert "--max-token-length applies to --model bpe" in capsys.readouterr().err
    assert "--max-token-length N" in _help(capsys) and "default 16" in _help(capsys)


def _help(capsys) -> str:
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    return " ".join(capsys.readouterr().out.split())
