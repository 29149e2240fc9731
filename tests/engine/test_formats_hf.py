"""Hugging Face tokenizer.json: what we write, HF loads with the same pieces and ids."""

from __future__ import annotations

import json

import pytest

from tests.oracles import require

tokenizers = require("tokenizers")
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers  # noqa: E402

from bpe_engine.errors import TokenizerFileError  # noqa: E402
from bpe_engine.formats.hf_json import hf_json_text, read_hf_json  # noqa: E402
from bpe_engine.formats.hf_stages import to_onig_pattern  # noqa: E402
from bpe_engine.formats.spec import BpeSpec  # noqa: E402
from bpe_engine.pretokenizers import CL100K, END_OF_WORD, GPT2, HF_GPT2, O200K, WHITESPACE, custom  # noqa: E402


@pytest.mark.parametrize("pre", [GPT2, CL100K, O200K], ids=lambda p: p.name)
def test_hf_split_cuts_our_pieces(pre, alice_text, korean_text):
    """The regex we write makes HF's Oniguruma cut exactly the pieces our regex cuts."""
    split = pre_tokenizers.Split(Regex(to_onig_pattern(pre.pattern)), behavior="isolated")
    for text in (alice_text, korean_text, "x 12345678 \r\n\n  y\t \n", "I'M HERE'S 2024년에 ...  "):
        assert [p for p, _ in split.pre_tokenize_str(text)] == pre.split(text)


@pytest.fixture(scope="module")
def hf_trained(alice_text, korean_text, tmp_path_factory):
    """A byte-level BPE trained by HF itself with our GPT-2 regex, saved by HF."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(GPT2.pattern), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator([alice_text, korean_text], trainer)
    path = tmp_path_factory.mktemp("hf") / "tokenizer.json"
    tok.save(str(path))
    return tok, path


def test_read_hf_written_file(hf_trained):
    tok, path = hf_trained
    spec = read_hf_json(path)
    assert spec.byte_level and spec.pre_tokenizer is GPT2
    assert spec.special_tokens == {"<|endoftext|>": 0}
    assert "<|endoftext|>" not in spec.vocab
    assert len(spec.vocab) + 1 == tok.get_vocab_size() and len(spec.merges) == 600 - 257


def test_rewritten_file_gives_hf_the_same_ids(hf_trained, alice_text, korean_text):
    tok, path = hf_trained
    again = Tokenizer.from_str(hf_json_text(read_hf_json(path)))
    for text in (alice_text, korean_text, "hello <|endoftext|> world"):
        assert again.encode(text).ids == tok.encode(text).ids
    assert again.decode(again.encode(korean_text).ids) == korean_text


def spec_for(pre, byte_level=True):
    return BpeSpec(
        name="t", vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")], pre_tokenizer=pre, byte_level=byte_level,
        special_tokens={"<s>": 3},
    )


@pytest.mark.parametrize(
    ("pre", "byte_level"),
    [(GPT2, True), (CL100K, True), (O200K, True), (HF_GPT2, True), (custom(r"\w+"), True), (WHITESPACE, False),
     (END_OF_WORD, False), (custom(r"\d+|\D+"), False)],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_settings_round_trip(tmp_path, pre, byte_level):
    spec = spec_for(pre, byte_level)
    path = tmp_path / "tokenizer.json"
    path.write_text(hf_json_text(spec), encoding="utf-8")
    back = read_hf_json(path, name="t")
    assert back == spec
    Tokenizer.from_file(str(path))  # HF accepts every variant we write


def hf_file(tmp_path, mutate):
    data = json.loads(hf_json_text(spec_for(GPT2)))
    mutate(data)
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["model"].update(type="WordPiece"), "not a BPE model"),
        (lambda d: d.update(normalizer={"type": "NFKC"}), "normalizer 'NFKC' is not supported"),
        (lambda d: d["model"].update(merges=[["a", "c"]]), "right half 'c' is not in model.vocab"),
        (lambda d: d["model"].update(merges=["a b c"]), "does not hold exactly two tokens"),
        (lambda d: d["model"]["vocab"].update(b=0), "duplicate id 0"),
        (lambda d: d["pre_tokenizer"]["pretokenizers"][1].update(add_prefix_space=True), "add_prefix_space"),
        (lambda d: d.update(pre_tokenizer={"type": "BertPreTokenizer"}), "'BertPreTokenizer' is not supported"),
        (lambda d: d["model"]["vocab"].update({"한": 9}), "not in GPT-2's byte alphabet"),
    ],
)
def test_malformed_hf_files(tmp_path, mutate, message):
    with pytest.raises(TokenizerFileError, match=message):
        read_hf_json(hf_file(tmp_path, mutate))


def test_legacy_string_merges(tmp_path):
    path = hf_file(tmp_path, lambda d: d["model"].update(merges=["a b"]))
    assert read_hf_json(path).merges == [("a", "b")]


def test_truncated_hf_json(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(hf_json_text(spec_for(GPT2))[:200], encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="truncated") as err:
        read_hf_json(path)
    assert err.value.line is not None and err.value.line > 1


@pytest.fixture(scope="module")
def our_trained(alice_text, korean_text):
    from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining

    training = BpeTraining(
        [alice_text, korean_text], BpeTrainerConfig(vocab_size=2000, special_tokens=("<|endoftext|>",))
    )
    for _ in training.steps():
        pass
    return training.tokenizer("ours")


def test_hf_loads_our_byte_level_tokenizer_with_our_ids(our_trained, alice_text, korean_text, tmp_path):
    from bpe_engine.formats import save_tokenizer

    save_tokenizer(our_trained, tmp_path)
    hf = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    for text in (alice_text, korean_text):
        ours = our_trained.encode(text)
        assert hf.encode(text).ids == ours
        assert hf.decode(ours) == text
    assert hf.encode("x <|endoftext|> y").ids == our_trained.encode("x <|endoftext|> y", special_mode="special")


@pytest.mark.parametrize(
    ("pre", "byte_level"),
    [(CL100K, True), (O200K, True), (WHITESPACE, False), (WHITESPACE, True), (END_OF_WORD, False),
     (custom(r"\w+"), True), (custom(r"\p{N}{1,2}+|[a-z]+"), True)],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_hf_matches_other_pre_tokenizers(pre, byte_level, alice_text, korean_text, tmp_path):
    from bpe_engine.formats import save_tokenizer
    from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining

    training = BpeTraining([alice_text, korean_text], BpeTrainerConfig(vocab_size=800, pre_tokenizer=pre, byte_level=byte_level))
    for _ in training.steps():
        pass
    tok = training.tokenizer("t")
    save_tokenizer(tok, tmp_path)
    hf = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    texts = [alice_text, korean_text, " leading space", "  two  spaces of text "]
    if byte_level:  # any text; character-level models only know their corpus's symbols
        texts.append("x 1234567 \t\r\n  é🙂 ")
    for text in texts:
        assert hf.encode(text).ids == tok.encode(text)


def test_hf_gpt2_style_file(tmp_path):
    """HF's own GPT-2 tokenizer.json: ByteLevel with its regex, "" suffixes, string merges."""
    tok = Tokenizer(models.BPE(vocab={"a": 0, "b": 1, "ab": 2, "Ġ": 3}, merges=[("a", "b")]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    data = json.loads(tok.to_str())
    data["model"].update(continuing_subword_prefix="", end_of_word_suffix="", merges=["a b"])
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    spec = read_hf_json(path)
    assert spec.pre_tokenizer is HF_GPT2 and spec.byte_level and spec.merges == [("a", "b")]
    assert spec.build().encode("ab ab") == Tokenizer.from_file(str(path)).encode("ab ab").ids == [2, 3, 2]


def test_reference_rank_table_round_trips_through_tokenizer_json(alice_text, korean_text, tmp_path):
    """gpt2 saved as tokenizer.json (ignore_merges) : HF gives tiktoken's ids, and it reloads as a rank table."""
    from bpe_engine.formats import save_tokenizer
    from bpe_engine.registry import load_tokenizer

    gpt2 = load_tokenizer("gpt2")
    save_tokenizer(gpt2, tmp_path)
    assert json.loads((tmp_path / "tokenizer.json").read_text(encoding="utf-8"))["model"]["ignore_merges"] is True
    hf = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    back = load_tokenizer(tmp_path / "tokenizer.json")
    assert back.is_rank_table and back.special_tokens == {"<|endoftext|>": 50256}
    for text in (alice_text, korean_text):
        ids = gpt2.encode(text)
        assert hf.encode(text).ids == ids
        assert back.encode(text) == ids
