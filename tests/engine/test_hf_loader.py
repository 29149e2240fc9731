"""The tokenizer.json validation layer: every malformed file is one line naming file and JSON path;
every unsupported component is named; nothing hangs; random JSON never ends in a traceback."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers

from bpe_cli.main import main
from bpe_engine import pretokenizers
from bpe_engine.errors import BpeEngineError, ConfigError, TokenizerFileError
from bpe_engine.hf import hf_tokenizer_from_dict, load_tokenizer_json
from bpe_engine.registry import load_tokenizer
from tests.fuzz_loaders import check_load, mutated_json


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    tok = Tokenizer(models.BPE({"a": 0, "b": 1, "ab": 2, "[UNK]": 3}, [("a", "b")], unk_token="[UNK]"))
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Split(Regex(r"\w+|\W"), "isolated")
    tok.add_special_tokens(["<s>"])
    return json.loads(tok.to_str())


def _load(data: Any) -> Any:
    return hf_tokenizer_from_dict("bad/tokenizer.json", data, name="bad")


CASES = [
    (lambda d: d["pre_tokenizer"]["pattern"].__setitem__("Regex", 5), "pre_tokenizer.pattern.Regex: expected a string, got the number 5"),
    (lambda d: d.__setitem__("pre_tokenizer", "gpt2"), "pre_tokenizer: expected an object, got the string 'gpt2'"),
    (lambda d: d["pre_tokenizer"].__setitem__("pattern", 5), "pre_tokenizer.pattern: expected an object, got the number 5"),
    (lambda d: d["model"].__setitem__("continuing_subword_prefix", 5), "model.continuing_subword_prefix: expected a string, got the number 5"),
    (lambda d: d["model"].update(type="WordPiece", max_input_chars_per_word="a", continuing_subword_prefix="##"), "model.max_input_chars_per_word: expected an integer, got the string 'a'"),
    (lambda d: d["added_tokens"][0].__setitem__("id", -5), "added_tokens[0].id: the number -5 is negative"),
    (lambda d: d["added_tokens"][0].__setitem__("id", 10**12), "added_tokens[0].id: the number 1000000000000 is above the largest id allowed"),
    (lambda d: d["added_tokens"].append({**d["added_tokens"][0], "content": "<t>"}), "added_tokens[1].id: id 4 is already listed for '<s>'"),
    (lambda d: d["model"]["vocab"].__setitem__("b", 0), "model.vocab.b: id 0 is already used by 'a'"),
    (lambda d: d["model"]["vocab"].__setitem__("b", 10**12), "model.vocab.b: the number 1000000000000 is above the largest id allowed"),
    (lambda d: d["model"]["merges"].append(["a", "zz"]), "model.merges[1]: 'zz' is not in model.vocab"),
    (lambda d: d["model"]["merges"].append(7), "model.merges[1]: expected \"LEFT RIGHT\""),
    (lambda d: d["pre_tokenizer"].__setitem__("behavior", "Sideways"), "pre_tokenizer.behavior: unknown split behaviour 'Sideways'"),
    (lambda d: d["pre_tokenizer"]["pattern"].__setitem__("Regex", "(unclosed"), "pre_tokenizer.pattern.Regex: invalid regex '(unclosed'"),
    (lambda d: d.__setitem__("normalizer", {"type": "Wobble"}), "normalizer 'Wobble' is not supported"),
    (lambda d: d.__setitem__("pre_tokenizer", {"type": "UnicodeScripts"}), "pre-tokenizer 'UnicodeScripts' is not supported"),
    (lambda d: d.__setitem__("decoder", {"type": "Fancy"}), "decoder 'Fancy' is not supported"),
    (lambda d: d.__setitem__("post_processor", {"type": "Pair"}), "post-processor 'Pair' is not supported"),
    (lambda d: d["model"].__setitem__("type", "Sentence"), "model type 'Sentence' is not supported"),
    (lambda d: d.__setitem__("model", []), "model: expected an object, got a list"),
    (lambda d: d.__setitem__("normalizer", {"normalizers": []}), 'normalizer: has no "type"'),
]


@pytest.mark.parametrize(("mutate", "message"), CASES, ids=[m for _, m in CASES])
def test_malformed_files_name_file_and_json_path(base: dict[str, Any], mutate: Any, message: str, tmp_path: Path, capsys) -> None:
    data = copy.deepcopy(base)
    mutate(data)
    with pytest.raises(TokenizerFileError) as info:
        _load(data)
    assert str(info.value).startswith("bad/tokenizer.json: ")
    assert message in str(info.value)
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["encode", "-t", str(path), "ab"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_catastrophic_split_regex_is_stopped(base: dict[str, Any], monkeypatch) -> None:
    data = copy.deepcopy(base)
    data["pre_tokenizer"]["pattern"]["Regex"] = "(a|a)+$"
    tok = _load(data)
    monkeypatch.setattr(pretokenizers, "REGEX_BUDGET_SECONDS", 0.2)
    with pytest.raises(ConfigError, match=r"\(a\|a\)\+\$.*catastrophic"):
        tok.encode("a" * 40 + "b")
    with pytest.raises(ConfigError, match="catastrophic"):
        tok.encode_detailed("a" * 40 + "b")


def test_tokenizer_json_dispatch_through_the_registry(base: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "tok" / "tokenizer.json"
    path.parent.mkdir()
    path.write_text(json.dumps(base), encoding="utf-8")
    for spec in (path, path.parent):
        tok = load_tokenizer(spec)
        assert tok.name == "tok"
        assert tok.encode("ab ba <s>", special_mode="special") == Tokenizer.from_str(json.dumps(base)).encode("ab ba <s>").ids
    assert load_tokenizer_json(path).notes == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2**40) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
KEYS = ["normalizer", "pre_tokenizer", "model", "decoder", "post_processor", "added_tokens", "truncation", "padding"]


@settings(max_examples=150)
@given(st.sampled_from(KEYS), st.sampled_from(["", "type", "pattern", "vocab", "merges", "normalizers", "pretokenizers"]), JSON)
def test_random_json_in_any_stage_is_a_clean_error_or_a_tokenizer(base: dict[str, Any], key: str, field: str, value: Any) -> None:
    data = copy.deepcopy(base)
    if field and isinstance(data.get(key), dict):
        data[key][field] = value
    else:
        data[key] = value
    try:
        tok = _load(data)
    except BpeEngineError as exc:
        assert "\n" not in str(exc)
        return
    try:
        tok.encode("ab a <s> b", special_mode="special")
        tok.encode_detailed("ab a b")
        tok.decode([0, 1, 2, 3, 4])
    except BpeEngineError:
        pass


def _valid_documents() -> list[Any]:
    """Small tokenizer.json files of the main shapes, for the shared fuzz harness to mutate."""
    from tokenizers import decoders, processors

    bpe = Tokenizer(models.BPE({"a": 0, "b": 1, "ab": 2, "<unk>": 3, "\u2581": 4, "<0x41>": 5}, [("a", "b")], unk_token="<unk>", byte_fallback=True))
    bpe.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace(" ", "\u2581")])
    bpe.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first")
    bpe.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 6)])
    bpe.decoder = decoders.Sequence([decoders.Metaspace(), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)])
    bpe.add_special_tokens(["<s>"])
    wp = Tokenizer(models.WordPiece({"[UNK]": 0, "a": 1, "##b": 2, "[CLS]": 3, "[SEP]": 4}, unk_token="[UNK]"))
    wp.normalizer = normalizers.BertNormalizer()
    wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    wp.post_processor = processors.BertProcessing(("[SEP]", 4), ("[CLS]", 3))
    wp.decoder = decoders.WordPiece()
    wl = Tokenizer(models.WordLevel({"a": 0, "[UNK]": 1}, unk_token="[UNK]"))
    wl.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.Digits(individual_digits=True)])
    return [json.loads(t.to_str()) for t in (bpe, wp, wl)]


VALID_DOCUMENTS = _valid_documents()


@settings(max_examples=60)
@given(st.integers(0, len(VALID_DOCUMENTS) - 1).flatmap(lambda i: mutated_json(VALID_DOCUMENTS[i])))
def test_fuzzed_tokenizer_json_through_the_shared_harness(doc: str) -> None:
    """Mutated tokenizer.json files give a clean error or a working tokenizer, in budget."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="fuzz-hf-")) / "tokenizer.json"
    path.write_text(doc, encoding="utf-8")
    check_load(lambda: load_tokenizer(path))
