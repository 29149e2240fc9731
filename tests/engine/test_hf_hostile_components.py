"""A small tokenizer.json may ask for unbounded work: normalizers that grow the text without bound
and components nested hundreds deep. Each is one line naming the file and the JSON path.

Seen before: a Sequence of 40 ``Replace`` "a" -> "aa" took 53 s and 2.95 GB for 24 characters; a
350-deep Sequence normalizer was a RecursionError of 2,977 lines (in the app, Load file did nothing);
a 490-deep Sequence pre-tokenizer said "invalid regex".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bpe_engine.errors import BpeEngineError, ConfigError, TokenizerFileError
from bpe_engine.hf import hf_tokenizer_from_dict, load_tokenizer_json
from bpe_engine.hf.normalizers import GROWTH_FACTOR, GROWTH_SLACK
from bpe_engine.hf.schema import MAX_NESTING

TEXT = "a" * 24


def tokenizer(**stages: Any) -> dict[str, Any]:
    """A character-level BPE over a few letters, with the stages given."""
    vocab = {c: i for i, c in enumerate("ab▁ ")} | {"[UNK]": 4}
    return {"version": "1.0", "model": {"type": "BPE", "vocab": vocab, "merges": [], "unk_token": "[UNK]"}, **stages}


def replace(pattern: str, content: str, *, regex: bool = False) -> dict[str, Any]:
    return {"type": "Replace", "pattern": {"Regex" if regex else "String": pattern}, "content": content}


def nested(kind: str, key: str, depth: int, leaf: dict[str, Any]) -> str:
    """JSON of ``leaf`` inside ``depth`` components (written as text: ``json.dumps`` recurses)."""
    return f'{{"type": "{kind}", "{key}": [' * depth + json.dumps(leaf) + "]}" * depth


def tokenizer_text(stage: str, component: str) -> str:
    return json.dumps(tokenizer(**{stage: None}))[:-1].replace(f'"{stage}": null', f'"{stage}": {component}') + "}"


@pytest.mark.parametrize(
    ("normalizer", "where"),
    [
        ({"type": "Sequence", "normalizers": [replace("a", "aa")] * 40}, r"normalizer\.normalizers\[\d+\]"),
        ({"type": "Sequence", "normalizers": [replace("a", "aa", regex=True)] * 40}, r"normalizer\.normalizers\[\d+\]"),
        (replace("a", "b" * 10_000_000), r"normalizer makes 240,000,000 characters of 24"),
        ({"type": "Prepend", "prepend": "▁" * 5_000_000}, r"normalizer makes 5,000,024 characters of 24"),
        ({"type": "Sequence", "normalizers": [{"type": "ByteLevel"}] * 40}, r"normalizer\.normalizers\[\d+\]"),
    ],
)
def test_a_normalizer_that_grows_the_text_without_bound_is_stopped(normalizer: dict[str, Any], where: str) -> None:
    tok = hf_tokenizer_from_dict("hostile/tokenizer.json", tokenizer(normalizer=normalizer), name="hostile")
    text = TEXT if normalizer.get("normalizers", [{}])[0].get("type") != "ByteLevel" else "é" * 24  # each stage doubles é
    for encode in (tok.encode, tok.encode_detailed):
        with pytest.raises(ConfigError, match=rf"hostile/tokenizer\.json: {where}.*grows the text without bound") as stop:
            encode(text)
        assert "\n" not in str(stop.value) and len(str(stop.value)) < 400


def test_the_growth_budget_leaves_real_normalizers_alone() -> None:
    """NFKD's widest character (18 of one), ByteLevel of 4-byte characters, a prepended ▁."""
    normalizer = {"type": "Sequence", "normalizers": [{"type": "NFKD"}, {"type": "Prepend", "prepend": "▁"}, replace(" ", "▁")]}
    tok = hf_tokenizer_from_dict("fine/tokenizer.json", tokenizer(normalizer=normalizer), name="fine")
    text = "\ufdfa 👋" * 5_000
    assert len(tok.encode(text)) > 18 * 5_000
    assert GROWTH_FACTOR * len(text) + GROWTH_SLACK > 18 * len(text)


@pytest.mark.parametrize(
    ("stage", "kind", "key", "leaf"),
    [
        ("normalizer", "Sequence", "normalizers", {"type": "NFC"}),
        ("pre_tokenizer", "Sequence", "pretokenizers", {"type": "Whitespace"}),
        ("decoder", "Sequence", "decoders", {"type": "Fuse"}),
        ("post_processor", "Sequence", "processors", {"type": "ByteLevel"}),
    ],
)
@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 350])  # 490 (the report's) runs as a command: tests/cli
def test_components_nested_too_deep_are_one_line_naming_the_path(
    tmp_path: Path, stage: str, kind: str, key: str, leaf: dict[str, Any], depth: int
) -> None:
    path = tmp_path / "tokenizer.json"
    path.write_text(tokenizer_text(stage, nested(kind, key, depth, leaf)), encoding="utf-8")
    with pytest.raises(TokenizerFileError, match=rf"tokenizer\.json: {stage}\.{key}\[0\]….*nested {MAX_NESTING + 1} deep; bpe-explorer reads at most {MAX_NESTING}") as refused:
        load_tokenizer_json(path)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 400


def test_components_nested_as_deep_as_allowed_still_load(tmp_path: Path) -> None:
    path = tmp_path / "tokenizer.json"
    path.write_text(tokenizer_text("normalizer", nested("Sequence", "normalizers", MAX_NESTING, {"type": "NFC"})), encoding="utf-8")
    try:
        assert load_tokenizer_json(path).encode("ab") == [0, 1]
    except BpeEngineError as exc:  # pragma: no cover - the assertion says what went wrong
        pytest.fail(str(exc))


@pytest.mark.parametrize("depth", [250, 5_000])
def test_a_regex_nested_too_deep_is_one_line(depth: int) -> None:
    """250 nested groups in --pattern were a RecursionError traceback (5,000 here, at any stack)."""
    from bpe_engine.pretokenizers import get_pretokenizer
    from bpe_engine.regex_limits import MAX_GROUP_DEPTH

    pattern = "(" * depth + "a" + ")" * depth
    with pytest.raises(ConfigError, match=rf"nests groups {depth} deep; at most {MAX_GROUP_DEPTH}") as refused:
        get_pretokenizer("regex", pattern)
    assert len(str(refused.value)) < 200
    split = {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}
    with pytest.raises(TokenizerFileError, match=rf"pre_tokenizer\.pattern\.Regex: regex .* nests groups {depth} deep"):
        hf_tokenizer_from_dict("deep/tokenizer.json", tokenizer(pre_tokenizer=split), name="deep")
