"""Tekken (tekken_240911.json, the fetched built-in): ids equal tiktoken's built from the same ranks.

The oracle follows mistral_common 1.13.1's ``Tekkenizer`` as read from its source: tiktoken over
the first ``default_vocab_size - default_num_special_tokens`` byte ranks with the file's pattern and
*no* special tokens, every id shifted by ``default_num_special_tokens``. Ours runs the pure-Python
encoder (``backend="python"``), so the two implementations are independent.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.errors import TokenizerFileError
from bpe_engine.formats.tekken import LEGACY_SPECIAL_TOKENS, TEKKEN_PATTERN, load_tekken
from bpe_engine.registry import load_tokenizer
from tests.engine.test_encode_parity import FRAGMENTS

SPECIAL_TEXT = ["<s>", "</s>", "<unk>", "[INST]", "[/INST]", "[TOOL_CALLS]", "<SPECIAL_42>", "<SPECIAL_999>", "[IMG]"]
# Any text, unassigned code points included: the `regex` module's Unicode tables are pinned to
# tiktoken's (tests/test_unicode_tables.py), so the pure-Python pre-tokenizer splits as tiktoken does.
ANY_TEXT = st.text(max_size=12)
texts = st.lists(st.one_of(st.sampled_from(FRAGMENTS + SPECIAL_TEXT), ANY_TEXT), max_size=12).map("".join)


class Oracle:
    """tiktoken built the way mistral_common's Tekkenizer builds it."""

    def __init__(self, path: Path) -> None:
        data = json.loads(path.read_text(encoding="utf-8"))
        config = data["config"]
        self.offset = config["default_num_special_tokens"]
        kept = data["vocab"][: config["default_vocab_size"] - self.offset]
        ranks = {base64.b64decode(entry["token_bytes"]): entry["rank"] for entry in kept}
        self.pattern = config["pattern"]
        self.encoding = tiktoken.Encoding("tekken-oracle", pat_str=self.pattern, mergeable_ranks=ranks, special_tokens={})

    def encode(self, text: str) -> list[int]:
        return [t + self.offset for t in self.encoding.encode(text)]


@pytest.fixture(scope="module")
def tekken_path(builtin_model_path) -> Path:  # type: ignore[no-untyped-def]
    return builtin_model_path("tekken")


@pytest.fixture(scope="module")
def tekken(tekken_path: Path) -> BpeTokenizer:
    return load_tekken(tekken_path, name="tekken")


@pytest.fixture(scope="module")
def oracle(tekken_path: Path) -> Oracle:
    return Oracle(tekken_path)


def test_shape_read_from_the_file_and_mistral_common(tekken: BpeTokenizer, oracle: Oracle) -> None:
    assert oracle.pattern == TEKKEN_PATTERN
    assert tekken.vocab_size == 131_072
    specials = tekken.special_tokens
    assert len(specials) == 1000 and sorted(specials.values()) == list(range(1000))
    assert [specials[t] for t in LEGACY_SPECIAL_TOKENS] == list(range(20))
    assert specials["<s>"] == 1 and specials["[INST]"] == 3 and specials["<SPECIAL_20>"] == 20
    assert tekken.token_bytes(1000) == b"\x00" and tekken.token_bytes(1000 + 255) == b"\xff"
    assert tekken.token_str(999) == "<SPECIAL_999>"
    assert tekken.pre_tokenizer.name == "tekken"
    assert tekken.tiktoken_status()[1] == ""  # the bridge accepts Tekken's regex


@pytest.mark.parametrize("corpus", ["alice_text", "korean_text"])
def test_corpora_ids_equal_tiktoken(corpus: str, tekken: BpeTokenizer, oracle: Oracle, request: pytest.FixtureRequest) -> None:
    text = request.getfixturevalue(corpus)
    ids = tekken.with_backend("python").encode(text, special_mode="text")
    assert ids == oracle.encode(text)
    assert tekken.decode(ids) == text
    assert tekken.encode(text, special_mode="text") == ids  # the tiktoken fast path agrees too


@settings(max_examples=100)
@given(text=texts)
def test_hypothesis_ids_equal_tiktoken(tekken: BpeTokenizer, oracle: Oracle, text: str) -> None:
    python = tekken.with_backend("python")
    ids = python.encode(text, special_mode="text")  # mistral_common's encode: special text is text
    assert ids == oracle.encode(text)
    assert tekken.encode(text, special_mode="text") == ids
    assert python.decode(ids) == oracle.encoding.decode([i - oracle.offset for i in ids])
    expected = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    assert python.decode(ids) == expected


def test_special_mode_maps_special_text_to_its_id(tekken: BpeTokenizer) -> None:
    ids = tekken.with_backend("python").encode("<s>[INST] hi[/INST]<SPECIAL_999>", special_mode="special")
    assert ids[:2] == [1, 3] and ids[-2:] == [4, 999]
    assert tekken.decode(ids) == "<s>[INST] hi[/INST]<SPECIAL_999>"  # mistral_common's KEEP policy


def test_registry_loads_by_name(tekken: BpeTokenizer) -> None:
    by_name = load_tokenizer("tekken")
    assert by_name.name == "tekken"
    assert by_name.encode("한국어 <s>", special_mode="special") == tekken.encode("한국어 <s>", special_mode="special")


def test_registry_loads_tekken_files_by_name_and_in_directories(tmp_path: Path) -> None:
    path = _tekken_file(tmp_path)
    assert load_tokenizer(path).encode("ab", special_mode="text") == [25 + 256]
    (tmp_path / "repo").mkdir()
    path.rename(tmp_path / "repo" / "tekken.json")
    assert load_tokenizer(tmp_path / "repo").encode("ab", special_mode="text") == [25 + 256]


# -- malformed files: one clear error each ------------------------------------------------------------
def _tekken_file(tmp_path: Path, **changes: object) -> Path:
    vocab = [{"rank": i, "token_bytes": base64.b64encode(bytes([i])).decode(), "token_str": None} for i in range(256)]
    vocab.append({"rank": 256, "token_bytes": base64.b64encode(b"ab").decode(), "token_str": "ab"})
    data: dict[str, object] = {
        "config": {"pattern": TEKKEN_PATTERN, "default_vocab_size": 257 + 25, "default_num_special_tokens": 25, "version": "v3"},
        "vocab": vocab,
    }
    data.update(changes)
    path = tmp_path / "tekken_small.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_small_file_with_declared_specials(tmp_path: Path) -> None:
    specials = [{"rank": 0, "token_str": "<unk>", "is_control": True}, {"rank": 1, "token_str": "<s>", "is_control": True}]
    config = {"pattern": TEKKEN_PATTERN, "default_vocab_size": 257 + 3, "default_num_special_tokens": 3, "version": "v13"}
    tok = load_tekken(_tekken_file(tmp_path, special_tokens=specials, config=config))
    assert tok.special_tokens == {"<unk>": 0, "<s>": 1, "<SPECIAL_2>": 2}
    assert tok.encode("ab", special_mode="text") == [3 + 256]
    assert tok.vocab_size == 260


def test_small_legacy_file_gets_mistral_commons_twenty_specials_then_fillers(tmp_path: Path) -> None:
    tok = load_tekken(_tekken_file(tmp_path))
    assert [tok.special_tokens[t] for t in LEGACY_SPECIAL_TOKENS] == list(range(20))
    assert tok.special_tokens["<SPECIAL_24>"] == 24 and len(tok.special_tokens) == 25


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"config": {"pattern": TEKKEN_PATTERN}}, "config.default_vocab_size is missing"),
        ({"vocab": "nope"}, "not a Tekken file"),
        ({"config": {"pattern": TEKKEN_PATTERN, "default_vocab_size": 999, "default_num_special_tokens": 25}}, "needs 974 byte ranks"),
        ({"config": {"pattern": TEKKEN_PATTERN, "default_vocab_size": 282, "default_num_special_tokens": 25, "version": "v13"}},
         "has no 'special_tokens' list"),
        ({"config": {"pattern": TEKKEN_PATTERN, "default_vocab_size": 260, "default_num_special_tokens": 3, "version": "v3"}},
         "rank below 3"),
        ({"special_tokens": [{"rank": 0, "token_str": "<s>"}, {"rank": 1, "token_str": "<s>"}]}, "listed twice"),
        ({"config": {"pattern": "(", "default_vocab_size": 282, "default_num_special_tokens": 25, "version": "v3"}}, "invalid pre-tokenizer regex"),
    ],
)  # fmt: skip
def test_malformed_files_are_refused_clearly(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    with pytest.raises(Exception, match=message) as info:
        load_tekken(_tekken_file(tmp_path, **changes))
    assert "\n" not in str(info.value)


def test_bad_vocab_entries(tmp_path: Path) -> None:
    path = _tekken_file(tmp_path)
    data = json.loads(path.read_text())
    data["vocab"][5]["rank"] = 7
    path.write_text(json.dumps(data))
    with pytest.raises(TokenizerFileError, match="vocab entry 5 has rank 7"):
        load_tekken(path)
    data["vocab"][5]["rank"] = 5
    data["vocab"][5]["token_bytes"] = base64.b64encode(b"x").decode()
    path.write_text(json.dumps(data))
    with pytest.raises(TokenizerFileError, match="vocab entry 5 must be the single byte 0x05"):
        load_tekken(path)


@pytest.mark.parametrize(
    ("token_bytes", "message"),
    [
        ("!!!", r"vocab entry 256: vocab entries need 'rank' and base64 'token_bytes' \(Only base64 data is allowed\)"),
        ("YW Jj", r"vocab entry 256: .*base64"),
        ("", r"vocab entry 256 has empty token_bytes"),
    ],
)
def test_token_bytes_that_are_not_base64_are_refused_not_read_as_empty(tmp_path: Path, token_bytes: str, message: str) -> None:
    """The lenient decoder dropped what was not base64: "!!!" became an empty token."""
    path = _tekken_file(tmp_path)
    data = json.loads(path.read_text())
    data["vocab"][256]["token_bytes"] = token_bytes
    path.write_text(json.dumps(data))
    with pytest.raises(TokenizerFileError, match=message) as info:
        load_tekken(path)
    assert "\n" not in str(info.value)
