"""``bpe-explorer extend``: learns merges on a corpus, keeps every base id, prints the checks, loads back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bpe_cli.main import main
from bpe_engine.registry import load_tokenizer


@pytest.fixture
def korean(tmp_path: Path, korean_text: str) -> Path:
    path = tmp_path / "ko.txt"
    path.write_text(korean_text[:20_000], encoding="utf-8")
    return path


def test_extend_cl100k_prints_the_checks_and_loads_back(tmp_path: Path, korean: Path, capsys, korean_text: str) -> None:
    out = tmp_path / "ext"
    assert main(["extend", "cl100k_base", str(korean), "--add", "300", "-o", str(out), "--force", "대한민국", "--force", "kubectl apply"]) == 0
    printed = capsys.readouterr().out
    assert "extended 'cl100k_base' into 'ext': 300 new merges" in printed
    assert "new ids: " in printed and "(100,277-" in printed
    assert "ids removed: 0" in printed
    assert re.search(r"words that changed most: ' [^']+' \d+->1 \(x\d+\)", printed)
    assert "unreachable tokens: 0 (0 of them new)" in printed
    assert "diff cl100k_base ext: the base's merges come first, unchanged" in printed
    assert "forced: '대한민국' is one token now" in printed or "forced: '대한민국' was one token already" in printed
    assert "cannot force 'kubectl apply': the cl100k pre-tokenizer cuts it into 2 pieces" in printed
    before, after = (int(n.replace(",", "")) for n in printed.split("corpus tokens: ")[1].split(" (")[0].split(" -> "))
    assert after < before
    tok = load_tokenizer(out)  # what -t DIR loads everywhere
    base = load_tokenizer("cl100k_base")
    assert len(tok.encode(korean_text)) < len(base.encode(korean_text))
    assert tok.decode(tok.encode(korean_text)) == korean_text
    assert len(tok.encode("대한민국")) == 1
    assert json.loads((out / "surgery.json").read_text(encoding="utf-8"))["new_ids"]["first"] == 100_277
    assert main(["encode", "-t", str(out), "대한민국 헌법"]) == 0


def test_extend_from_counts_equals_extend_from_files(tmp_path: Path, korean: Path, capsys) -> None:
    counts = tmp_path / "ko.counts"
    assert main(["count", str(korean), "--pre-tokenizer", "gpt2", "-o", str(counts)]) == 0
    assert main(["extend", "gpt2", str(korean), "--add", "80", "-o", str(tmp_path / "a")]) == 0
    assert main(["extend", "gpt2", str(counts), "--from-counts", "--add", "80", "-o", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    assert load_tokenizer(tmp_path / "a").mergeable_ranks == load_tokenizer(tmp_path / "b").mergeable_ranks
    assert main(["extend", "cl100k_base", str(counts), "--from-counts", "--add", "5", "-o", str(tmp_path / "c")]) == 2
    assert "was counted with --pre-tokenizer gpt2" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bert-base-uncased", "--add", "5"], "'bert-base-uncased' is a WordPiece tokenizer, not a BPE"),
        (["gpt2", "--add", "999999"], "ids stop below 1,000,000; add at most 949,743"),
        (["gpt2", "--add", "5", "--force", "ab" * 9], "is 18 bytes, but no token may reach --max-token-length 16"),
        (["gpt2", "--add", "0"], "--add: must be 1 or more"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, korean: Path, capsys, args: list[str], message: str) -> None:
    base, *rest = args
    code = main(["extend", base, str(korean), *rest, "-o", str(tmp_path / "o")]) if rest[1] != "0" else None
    if code is None:
        with pytest.raises(SystemExit) as exit_:
            main(["extend", base, str(korean), *rest, "-o", str(tmp_path / "o")])
        code = exit_.value.code
    err = capsys.readouterr().err
    assert code == 2 and message in err
    assert "Traceback" not in err and not (tmp_path / "o").exists()


def test_an_output_directory_with_other_files_is_refused(tmp_path: Path, korean: Path, capsys) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["extend", "gpt2", str(korean), "--add", "5", "-o", str(out)]) == 2
    assert "holds files a save would delete (notes.txt)" in capsys.readouterr().err
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_prune_prints_the_checks_and_writes_the_id_map(tmp_path: Path, korean: Path, capsys) -> None:
    out = tmp_path / "small"
    assert main(["prune", "gpt2", "--to", "2000", "--corpus", str(korean), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "pruned 'gpt2' into 'small': 48,257 tokens removed, 2,000 ids left, renumbered 0-1,999 in their order" in printed
    assert "ids removed: 48,257" in printed and "unreachable tokens: 0 in 'gpt2' -> 0 (0 of them new)" in printed
    assert "corpus tokens: " in printed
    tok = load_tokenizer(out)
    assert tok.vocab_size == 2000 and tok.special_tokens == {"<|endoftext|>": 1999}
    record = json.loads((out / "surgery.json").read_text(encoding="utf-8"))
    assert record["id_map"]["50256"] == 1999 and len(record["removed_ids"]) == 48_257
    assert main(["prune", "gpt2", "--to", "100", "-o", str(tmp_path / "x")]) == 2
    assert "--to 100 is below what 'gpt2' cannot lose: 257 ids" in capsys.readouterr().err


def test_add_tokens_says_which_ids_they_took(tmp_path: Path, capsys) -> None:
    out = tmp_path / "tools"
    assert main(["add-tokens", "cl100k_base", "<|tool_call|>", "hello", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "'<|tool_call|>' -> id 100,277" in printed and "'hello' is one token already (id 15,339): not added" in printed
    assert "new ids: 1 (100,277-100,277)" in printed
    assert load_tokenizer(out).encode("a <|tool_call|>", special_mode="special")[-1] == 100_277
