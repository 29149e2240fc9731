"""The headless CLI: train / encode / decode / merges through ``bpe_cli.main.main``."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from bpe_cli.main import main
from bpe_engine.registry import load_tokenizer

DATA_ALICE = "tests/data/alice29.txt"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    (root / "a.txt").write_text("the cat sat on the mat\nthe hat sat\n" * 20, encoding="utf-8")
    (root / "b.txt").write_text("한국어 텍스트 한국어\n" * 10, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def trained_dir(corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("tok") / "tiny"
    assert main(["train", str(corpus / "a.txt"), str(corpus / "b.txt"), "--vocab-size", "300",
                 "--special", "<|endoftext|>", "--output", str(out)]) == 0
    return out


def run(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_train_writes_every_format(trained_dir):
    names = sorted(p.name for p in trained_dir.iterdir())
    assert names == [
        "bpe-explorer.json", "merges.txt", "special_tokens_map.json", "tiny.tiktoken", "tokenizer.json", "tokenizer_config.json",
        "training.jsonl", "vocab.json",
    ]
    tok = load_tokenizer(trained_dir)
    assert tok.name == "tiny" and tok.special_tokens == {"<|endoftext|>": 0}
    assert tok.decode(tok.encode("the cat 한국어")) == "the cat 한국어"


def test_train_reports_files_and_progress(corpus, tmp_path, capsys):
    code, out, err = run(capsys, "train", str(corpus / "a.txt"), "--vocab-size", "270", "-o", str(tmp_path / "t"))
    assert code == 0
    assert "trained 't'" in out and "tokenizer.json" in out
    assert "merging" in err and "merges/s" in err


def test_train_char_level_lines_and_stdin(tmp_path, capsys, monkeypatch):
    code, out, _ = run(capsys, "train", "-", "--lines", "--char-level", "--pre-tokenizer", "whitespace",
                       "--vocab-size", "40", "-o", str(tmp_path / "c"), stdin="low lower\nnewest widest\n" * 5,
                       monkeypatch=monkeypatch)
    assert code == 0
    tok = load_tokenizer(tmp_path / "c")
    assert not tok.byte_level and tok.pre_tokenizer.name == "whitespace"
    assert tok.decode(tok.encode("lower newest")) == "lower newest"


def test_train_min_frequency_and_tie_break_reach_the_trainer(corpus, tmp_path, capsys):
    code, out, _ = run(capsys, "train", str(corpus / "a.txt"), "--vocab-size", "5000", "--min-frequency", "15",
                       "--tie-break", "lexicographic", "-o", str(tmp_path / "m"))
    assert code == 0
    merges = load_tokenizer(tmp_path / "m").merges
    assert 0 < len(merges) < 5000 - 256


def test_train_custom_pattern(corpus, tmp_path, capsys):
    code, _, _ = run(capsys, "train", str(corpus / "a.txt"), "--vocab-size", "280", "--pattern", r"\S+|\s+",
                     "-o", str(tmp_path / "p"))
    assert code == 0
    assert load_tokenizer(tmp_path / "p").pre_tokenizer.pattern == r"\S+|\s+"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "missing.txt", "--vocab-size", "300", "-o", "{tmp}/x"], "cannot read corpus file missing.txt"),
        (["train", "{corpus}/a.txt", "--vocab-size", "300", "--pattern", "(", "-o", "{tmp}/x"], "invalid pre-tokenizer regex"),
        (["train", "{corpus}/a.txt", "--vocab-size", "300", "--pre-tokenizer", "cl100k", "--pattern", "x",
          "-o", "{tmp}/x"], "--pattern only goes with --pre-tokenizer regex"),
        (["train", "{corpus}/a.txt", "--vocab-size", "300", "-o", "{corpus}/a.txt"], "not a directory"),
        (["encode", "-t", "no-such-tokenizer", "hi"], "unknown tokenizer 'no-such-tokenizer'"),
        (["decode", "-t", "gpt2", "1", "x2"], "'x2' is not a token id"),
        (["decode", "-t", "gpt2", "99999"], "token id 99999 is not in tokenizer 'gpt2' (ids run 0..50256)"),
        (["merges", "{tmp}/nothing-here"], "unknown tokenizer"),
    ],
)
def test_user_errors_exit_2_with_one_line(argv, message, corpus, tmp_path, capsys):
    argv = [a.format(tmp=tmp_path, corpus=corpus) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("bpe-explorer: error: ") and err.count("\n") == 1
    assert message in err


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["train", "x.txt", "--vocab-size", "-3", "-o", "out"])
    assert exc.value.code == 2
    assert "--vocab-size: must be from 1 to 1,000,000 (got -3)" in capsys.readouterr().err


@pytest.mark.parametrize("size", ["0", str(2**63), "1_000_001"])
def test_a_vocab_size_out_of_bounds_names_the_option_and_the_real_bounds(capsys, size: str) -> None:  # noqa: ANN001
    """2**63 said "vocab_size must be between 0 and 1,000,000" (an API name; 0 is refused), and a
    Unigram run took it and did not end."""
    for model in ("bpe", "wordpiece", "unigram"):
        with pytest.raises(SystemExit) as exc:
            main(["train", "x.txt", "--model", model, "--vocab-size", size, "-o", "out"])
        assert exc.value.code == 2
        assert f"argument --vocab-size: must be from 1 to 1,000,000 (got {int(size):,})" in capsys.readouterr().err


def test_encode_json_golden_gpt2(capsys):
    code, out, _ = run(capsys, "encode", "--tokenizer", "gpt2", "--json", "hello world")
    assert code == 0
    data = json.loads(out)
    assert data["tokenizer"] == "gpt2" and data["ids"] == [31373, 995] and data["notes"] == []
    assert data["tokens"] == [
        {"id": 31373, "token": "hello", "text": "hello", "bytes": "68656c6c6f", "byte_span": [0, 5], "special": False, "unknown": False},
        {"id": 995, "token": "Ġworld", "text": " world", "bytes": "20776f726c64", "byte_span": [5, 11], "special": False, "unknown": False},
    ]


def test_encode_json_partial_bytes_are_null_text_and_exact_bytes(capsys):
    """8.12: "text" is exact or null, never a display form like <0xED><0x95>; "bytes" always exact."""
    _, out, _ = run(capsys, "encode", "-t", "gpt2", "--json", "한<0xED>")
    tokens = json.loads(out)["tokens"]
    assert [(t["text"], t["bytes"]) for t in tokens[:2]] == [(None, "ed95"), (None, "9c")]
    assert "".join(t["text"] for t in tokens[2:]) == "<0xED>"  # literal text stays literal
    assert bytes.fromhex("".join(t["bytes"] for t in tokens)) == "한<0xED>".encode()


@pytest.mark.parametrize("backend", ["python", "tiktoken", "auto"])
def test_encode_backends_agree(capsys, backend):
    _, out, _ = run(capsys, "encode", "-t", "cl100k_base", "--json", "--backend", backend, "hello world")
    assert json.loads(out)["ids"] == [15339, 1917]


def test_encode_special_modes(capsys):
    code, out, err = run(capsys, "encode", "-t", "gpt2", "hello <|endoftext|>")  # default: text, and a note
    assert code == 0 and "50256" not in out
    assert "note: the text holds '<|endoftext|>'" in err and "--special-mode special" in err
    code, _, err = run(capsys, "encode", "-t", "gpt2", "--special-mode", "refuse", "hello <|endoftext|>")
    assert code == 2 and "--special-mode special" in err and "special_mode" not in err and "allowed_special" not in err
    _, out, _ = run(capsys, "encode", "-t", "gpt2", "--json", "--special-mode", "special", "hello <|endoftext|>")
    assert json.loads(out)["ids"] == [31373, 220, 50256]
    _, out, _ = run(capsys, "encode", "-t", "gpt2", "--json", "--special-mode", "text", "<|endoftext|>")
    assert 50256 not in json.loads(out)["ids"]


def test_encode_readable_output_is_inert(capsys):
    code, out, _ = run(capsys, "encode", "-t", "gpt2", "a\x1b[31mred\u202e [bold]x")
    assert code == 0
    assert "\x1b" not in out and "\u202e" not in out
    assert "Ġ[ bold ] x" in out  # markup in user text is shown as tokens, never applied
    assert "␛" in out and "<0xE2><0x80> <0xAE>" in out
    lines = out.splitlines()
    assert lines[1].split() == [str(i) for i in load_tokenizer("gpt2").encode("a\x1b[31mred\u202e [bold]x")]
    assert "tokens" in lines[2]


def test_encode_coloured_output_keeps_user_escapes_inert(capsys, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, out, _ = run(capsys, "encode", "-t", "gpt2", "a\x1b[31mred [bold]x")
    assert code == 0 and "\x1b[" in out  # our token backgrounds
    assert "\x1b[31m" not in out
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert "\x1b" not in plain and "a␛[31mredĠ[bold]x" in plain  # shown, neither run nor applied


def test_encode_stdin_keeps_text_exactly(capsys, monkeypatch):
    _, out, _ = run(capsys, "encode", "-t", "gpt2", "--json", stdin="hello\n", monkeypatch=monkeypatch)
    assert json.loads(out)["ids"] == load_tokenizer("gpt2").encode("hello\n")


def test_encode_with_trained_directory_and_file(trained_dir, capsys):
    tok = load_tokenizer(trained_dir)
    for spec in (trained_dir, trained_dir / "tokenizer.json", trained_dir / "tiny.tiktoken"):
        _, out, _ = run(capsys, "encode", "-t", str(spec), "--json", "the cat sat")
        assert json.loads(out)["ids"] == tok.encode("the cat sat")


def test_decode_round_trip_through_json(capsys, monkeypatch):
    _, out, _ = run(capsys, "encode", "-t", "cl100k_base", "--json", "안녕 world\n")
    code, text, _ = run(capsys, "decode", "-t", "cl100k_base", "-n", "-", stdin=out, monkeypatch=monkeypatch)
    assert code == 0 and text == "안녕 world\n"  # -n: exactly the encoded text


@pytest.mark.parametrize("ids", [["31373", "995"], ["31373,995"], ["[31373,", "995]"]])
def test_decode_id_forms(capsys, ids):
    _, out, _ = run(capsys, "decode", "-t", "gpt2", *ids)
    assert out == "hello world\n"  # 8.12: a newline ends the output, as echo's


def test_decode_errors_strict(capsys):
    code, _, err = run(capsys, "decode", "-t", "gpt2", "--errors", "strict", "47991")
    assert code == 2 and "--errors replace" in err
    _, out, _ = run(capsys, "decode", "-t", "gpt2", "-n", "47991")
    assert out == "\ufffd"


def test_merges_of_trained_dir_with_counts(trained_dir, capsys):
    code, out, _ = run(capsys, "merges", str(trained_dir), "--limit", "3", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    tok = load_tokenizer(trained_dir)
    assert code == 0 and [r["rank"] for r in rows] == [0, 1, 2]
    for row, (left, right) in zip(rows, tok.merges):
        assert row["id"] == tok.vocab[left + right]
        assert isinstance(row["count"], int) and row["count"] > 0
    assert rows[0]["count"] >= rows[1]["count"] >= rows[2]["count"]
    _, table, _ = run(capsys, "merges", str(trained_dir), "--limit", "2")
    assert "count" in table and f"2 of {len(tok.merges):,} merges" in table


def test_merges_of_reference(capsys):
    _, out, _ = run(capsys, "merges", "gpt2", "--limit", "1", "--json")
    assert json.loads(out) == {
        "merge": 1, "rank": 0, "left": "Ġ", "right": "t", "new": "Ġt", "id": 256, "count": None, "why": None,
        "text": " t", "bytes": "2074",
    }
    _, table, _ = run(capsys, "merges", "gpt2", "--limit", "3")
    assert "Ġt" in table and "count" not in table


def test_encode_stdin_not_utf8(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"ab\xff"), encoding="utf-8"))
    code = main(["encode", "-t", "gpt2", "-"])
    err = capsys.readouterr().err
    assert code == 2 and "not valid UTF-8 (byte 0xff at offset 2)" in err


def test_wordpiece_through_the_same_commands(capsys):
    _, out, _ = run(capsys, "encode", "-t", "bert-base-uncased", "--json", "--backend", "python", "unaffable")
    data = json.loads(out)
    assert data["ids"] == [101, 14477, 20961, 3468, 102]  # [CLS] ... [SEP], as HF's BERT tokenizer by default
    assert [(t["token"], t["text"]) for t in data["tokens"]] == [("[CLS]", "[CLS]"), ("una", "una"), ("##ffa", "ffa"), ("##ble", "ble"), ("[SEP]", "[SEP]")]
    code, _, err = run(capsys, "encode", "-t", "bert-base-uncased", "--backend", "tiktoken", "x")
    assert code == 2 and "no tiktoken backend" in err
    _, out, _ = run(capsys, "decode", "-t", "bert-base-uncased", "7592", "2088")
    assert out == "hello world\n"


def test_train_prints_trainer_notes(tmp_path, capsys):
    (tmp_path / "tiny.txt").write_text("aaa bbb", encoding="utf-8")
    code, out, _ = run(capsys, "train", str(tmp_path / "tiny.txt"), "--vocab-size", "300", "-o", str(tmp_path / "t"))
    assert code == 0
    assert "note: no pair left after" in out and "asked 300" in out


@pytest.mark.parametrize("command", [["encode", "-t", "gpt2", "--json"], ["inspect", "-t", "gpt2", "--json"], ["compare", "-t", "gpt2", "--json"]])
def test_json_writes_text_as_it_is_and_escapes_only_what_acts_on_a_terminal(capsys, command: list[str]) -> None:  # noqa: ANN001
    """--json escaped every non-ASCII character (한 as \\ud55c); a bidi override or C1 control
    must still never reach the terminal raw."""
    text = "한국어 café \u202e\x9b31m"
    code, out, _ = run(capsys, *command, text)
    assert code == 0 and "é" in out and "\\u00e9" not in out and "\\ud55c" not in out
    assert "\u202e" not in out and "\x9b" not in out
    if command[0] != "encode":  # encode's tokens hold the RLO's bytes, never the text itself
        assert "\\u202e" in out and "\\u009b" in out
    assert json.loads(out)  # still one JSON value


def test_a_count_of_one_takes_the_singular(tmp_path, capsys) -> None:  # noqa: ANN001
    """'1 words', '1 tokens, 1 characters' before: every count line says its noun by the count."""
    one = tmp_path / "one.txt"
    one.write_text("hi", encoding="utf-8")
    _, out, _ = run(capsys, "count", str(one), "-o", str(tmp_path / "one.tsv"))
    assert "counted 1 corpus file: 1 distinct word, 1 word " in out
    _, out, _ = run(capsys, "encode", "-t", "gpt2", "a")
    assert "1 token, 1 character, 1 byte, " in out
    _, out, _ = run(capsys, "inspect", "-t", "gpt2", "a")
    assert "1 token, 1 character, 1 byte (gpt2" in out


def test_a_long_special_token_is_quoted_short(tmp_path, capsys) -> None:  # noqa: ANN001
    """A 100 KB special token was printed whole in the notes and the refusal."""
    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower lowest newer\n", encoding="utf-8")
    special = "<" + "x" * 100_000 + ">"
    model = str(tmp_path / "tok")
    assert main(["train", str(corpus), "--vocab-size", "300", "--special", special, "-o", model]) == 0
    capsys.readouterr()
    for mode in ("text", "special", "refuse"):
        _, _, err = run(capsys, "encode", "-t", model, "--special-mode", mode, f"a {special} b")
        assert "(100,002 characters)" in err and len(err) < 1_000, (mode, len(err))
