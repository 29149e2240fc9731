"""Whole tokenizer.json pipelines against Hugging Face: BERT, RoBERTa/GPT-2, Llama-style, added tokens,
post-processors, decoders, truncation and padding, and the special-token modes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

from bpe_engine.errors import SpecialTokenError
from bpe_engine.hf import HfTokenizer, load_tokenizer_json
from tests.hf_oracle import TRICKY, assert_parity, ours, texts


def _train(tok: Tokenizer, trainer, alice: str, korean: str) -> Tokenizer:  # type: ignore[no-untyped-def]
    tok.train_from_iterator([alice[:20000], korean[:6000]], trainer)
    return tok


@pytest.fixture(scope="module")
def pipelines(alice_text: str, korean_text: str) -> dict[str, Tokenizer]:
    bert = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    bert.normalizer = normalizers.BertNormalizer()
    bert.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    _train(bert, trainers.WordPieceTrainer(vocab_size=600, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]), alice_text, korean_text)
    bert.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", bert.token_to_id("[CLS]")), ("[SEP]", bert.token_to_id("[SEP]"))]
    )
    bert.decoder = decoders.WordPiece()

    roberta = Tokenizer(models.BPE())
    roberta.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    _train(roberta, trainers.BpeTrainer(vocab_size=700, special_tokens=["<s>", "<pad>", "</s>", "<unk>"],
                                        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()), alice_text, korean_text)
    roberta.add_special_tokens([AddedToken("<mask>", lstrip=True, special=True, normalized=False)])
    roberta.post_processor = processors.RobertaProcessing(("</s>", roberta.token_to_id("</s>")), ("<s>", roberta.token_to_id("<s>")))
    roberta.decoder = decoders.ByteLevel()

    gpt2 = Tokenizer(models.BPE())
    gpt2.normalizer = normalizers.NFKC()
    gpt2.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    _train(gpt2, trainers.BpeTrainer(vocab_size=700, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
           alice_text, korean_text)
    gpt2.post_processor = processors.ByteLevel(trim_offsets=True)
    gpt2.decoder = decoders.ByteLevel()

    llama = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True))
    llama.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first", split=False)
    _train(llama, trainers.BpeTrainer(vocab_size=800, limit_alphabet=80,
                                      special_tokens=["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]),
           alice_text, korean_text)
    llama.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", llama.token_to_id("<s>"))])
    llama.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)])

    llama_old = Tokenizer(models.BPE.from_file if False else models.BPE(unk_token="<unk>", byte_fallback=True))
    llama_old.normalizer = normalizers.Sequence([normalizers.Prepend("\u2581"), normalizers.Replace(" ", "\u2581")])
    _train(llama_old, trainers.BpeTrainer(vocab_size=800, limit_alphabet=80,
                                          special_tokens=["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]),
           alice_text, korean_text)
    llama_old.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)])

    added = Tokenizer(models.BPE())
    added.normalizer = normalizers.Lowercase()
    added.pre_tokenizer = pre_tokenizers.Whitespace()
    _train(added, trainers.BpeTrainer(vocab_size=500, special_tokens=["[UNK]"]), alice_text, korean_text)
    added.add_tokens([
        AddedToken("Alice", single_word=True),  # normalized: matched in lowercased text as "alice"
        AddedToken("  queen", lstrip=True, rstrip=True),
        AddedToken("rabbit", normalized=False, rstrip=True),
        AddedToken("hat", normalized=False, single_word=True, special=True),
    ])
    added.add_special_tokens([AddedToken("<SEP>", lstrip=True, rstrip=True)])
    added.decoder = decoders.Metaspace()
    return {"bert": bert, "roberta": roberta, "gpt2": gpt2, "llama": llama, "llama_old": llama_old, "added": added}


NAMES = ["bert", "roberta", "gpt2", "llama", "llama_old", "added"]
EXTRA = ["Alice and the Queen", "alice's rabbit hat, MadHatter hat.", "a<SEP>b <SEP> c", "the <mask> sat", " Alice  queen  rabbit "]


@pytest.mark.parametrize("name", NAMES)
def test_pipeline_equals_hf(name: str, pipelines: dict[str, Tokenizer], alice_text: str, korean_text: str) -> None:
    hf = pipelines[name]
    tok = ours(hf, name)
    assert tok.encode(alice_text[:60000], special_mode="special") == hf.encode(alice_text[:60000]).ids
    assert tok.encode(korean_text, special_mode="special") == hf.encode(korean_text).ids
    for text in [*TRICKY, *EXTRA, alice_text[9000:10000], korean_text[3000:3400]]:
        assert_parity(hf, tok, text)
        assert_parity(hf, tok, text, add_special_tokens=False)


@settings(max_examples=40)
@given(texts)
def test_pipelines_on_any_text(pipelines: dict[str, Tokenizer], text: str) -> None:
    for name in NAMES:
        assert_parity(pipelines[name], _OURS.setdefault(name, ours(pipelines[name], name)), text)


_OURS: dict[str, HfTokenizer] = {}


def test_special_modes(pipelines: dict[str, Tokenizer]) -> None:
    hf = pipelines["added"]
    tok = ours(hf)
    text = "a hat <SEP> rabbit"
    assert tok.encode(text, special_mode="special") == hf.encode(text).ids
    hf.encode_special_tokens = True
    try:
        assert tok.encode(text, special_mode="text") == hf.encode(text).ids  # specials as text, "rabbit" still added
    finally:
        hf.encode_special_tokens = False
    with pytest.raises(SpecialTokenError, match="mode is .refuse."):
        tok.encode(text, special_mode="refuse")
    assert tok.encode("a rabbit", special_mode="refuse") == hf.encode("a rabbit").ids


def test_truncation_and_padding_as_hf(pipelines: dict[str, Tokenizer]) -> None:
    hf = Tokenizer.from_str(pipelines["bert"].to_str())
    tok = ours(hf)
    hf.enable_truncation(max_length=7)
    hf.enable_padding(pad_id=0, pad_token="[PAD]", length=9)
    tok = ours(hf)
    assert tok.notes and any("truncates" in n for n in tok.notes)
    for text in ["short", "a much longer sentence that will be cut somewhere", ""]:
        assert_parity(hf, tok, text)
    hf.enable_truncation(max_length=5, direction="left")
    hf.enable_padding(pad_id=0, pad_token="[PAD]", pad_to_multiple_of=4, direction="left")
    tok = ours(hf)
    for text in ["short", "a much longer sentence that will be cut somewhere"]:
        assert_parity(hf, tok, text)


def test_decoders_chain_as_hf(pipelines: dict[str, Tokenizer]) -> None:
    ids = list(range(0, 400, 3))
    for name, chain in {
        "ctc": decoders.CTC(pad_token="<unk>", word_delimiter_token="e"),
        "bpe": decoders.BPEDecoder(suffix="e"),
        "strip": decoders.Strip("\u2581", 2, 0),  # a stop > 0 makes HF panic on a token of only "▁"
        "fuse": decoders.Fuse(),
        "metaspace_never": decoders.Metaspace(prepend_scheme="never"),
        "replace_regex": decoders.Replace(Regex("[a-z]+"), "*"),
    }.items():
        hf = Tokenizer.from_str(pipelines["llama"].to_str())
        hf.decoder = chain
        assert ours(hf).decode(ids) == hf.decode(ids), name


def test_loader_keeps_plain_bpe_files_on_the_bpe_engine(tmp_path, pipelines: dict[str, Tokenizer]) -> None:
    """A plain byte-level file loads as BpeTokenizer (merge explorer, tiktoken path); others as the pipeline."""
    from bpe_engine.bpe.model import BpeTokenizer

    plain = Tokenizer.from_str(pipelines["gpt2"].to_str())
    plain.normalizer = None
    path = tmp_path / "plain.json"
    plain.save(str(path))
    loaded = load_tokenizer_json(path)
    assert isinstance(loaded, BpeTokenizer)
    assert loaded.encode("Hello <|endoftext|> world", special_mode="special") == plain.encode("Hello <|endoftext|> world").ids
    pipelines["llama"].save(str(tmp_path / "llama.json"))
    assert isinstance(load_tokenizer_json(tmp_path / "llama.json"), HfTokenizer)


def test_the_explorer_steps_through_a_pipelines_merges(pipelines: dict[str, Tokenizer], alice_text: str) -> None:
    """The stepper reads an HF pipeline's pieces and replays its merges to the model's own ids."""
    from bpe_engine.explore.stepper import Stepper

    for name in ("gpt2", "llama"):
        tok = ours(pipelines[name], name)
        text = alice_text[2000:6000]
        merges = [(a, b, a + b) for a, b in tok.merges]
        stepper = Stepper.from_text(text, tok.pre_tokenizer, byte_level=tok.byte_level, merges=merges)
        while stepper.step < len(merges):
            stepper.forward()
        assert stepper.token_count == len(tok.encode(text, add_special_tokens=False)), name
        assert tok.with_merge_prefix(0).encode("the", add_special_tokens=False) != tok.encode("the", add_special_tokens=False)


def test_trace_shows_each_stage(pipelines: dict[str, Tokenizer]) -> None:
    """Inspect's view: the normalised text, the pre-tokenized pieces, the tokens, each with its origin."""
    from bpe_engine.hf.explore import trace

    tok = ours(pipelines["gpt2"], "gpt2")
    stages = trace(tok, "ﬁne <|endoftext|>day")
    assert [n[0] for n in stages.normalized] == ["fine ", "<|endoftext|>", "day"]
    assert [p[0] for p in stages.pieces] == ["fine", "Ġ", "day"]
    assert stages.pieces[0][1:] == (0, 3)  # 'fine' stands for the original 'ﬁne': characters 0..2
    assert [r.id for r in stages.tokens] == pipelines["gpt2"].encode("ﬁne <|endoftext|>day").ids


def test_post_processor_ids_outside_the_vocabulary() -> None:
    """HF lets a template add an id no vocabulary has: encode gives it, decode leaves it out."""
    hf = Tokenizer(models.WordLevel({"a": 0, "[UNK]": 1}, unk_token="[UNK]"))
    hf.post_processor = processors.TemplateProcessing(single="<x> $A", special_tokens=[("<x>", 500)])
    tok = ours(hf)
    assert tok.encode("a") == hf.encode("a").ids == [500, 0]
    assert tok.decode([500, 0]) == hf.decode([500, 0]) and tok.decode([500, 0], skip_special_tokens=False) == hf.decode([500, 0], skip_special_tokens=False)
    assert tok.token_str(500) == "<x>" and tok.token_bytes(500) == b"<x>"
    assert tok.encode_detailed("a").tokens == ("<x>", "a")


def test_explorer_pieces_fast_and_aligned_agree(pipelines: dict[str, Tokenizer], alice_text: str, korean_text: str) -> None:
    """The stepper's pieces come from substring search when nothing was rewritten; same as aligned."""
    from bpe_engine.hf.explore import PipelinePieces

    for name in NAMES:
        view = PipelinePieces(ours(pipelines[name], name))
        for text in [*TRICKY, *EXTRA, alice_text[:3000], korean_text[:800]]:
            assert view.pieces(text) == view._aligned_pieces(text), (name, text)


@pytest.mark.parametrize("pre", ["cl100k", "whitespace", "end-of-word", "regex"])
def test_our_saved_tokenizer_json_keeps_its_ids(pre: str, tmp_path, alice_text: str, korean_text: str) -> None:
    """What bpe-explorer saves loads through the tokenizer.json loader with the trained model's ids
    (plain files on BpeTokenizer, the others through the general pipeline) -- and HF agrees."""
    from bpe_engine.formats import save_tokenizer
    from bpe_engine.pretokenizers import get_pretokenizer
    from bpe_engine.training.bpe import BpeTrainerConfig, train

    config = BpeTrainerConfig(
        vocab_size=400, byte_level=pre != "end-of-word", special_tokens=("<|end|>",),
        pre_tokenizer=get_pretokenizer(pre, r"\p{L}+|\p{N}|[^\p{L}\p{N}]+" if pre == "regex" else None),
    )
    trained = train([alice_text[:20000], korean_text[:5000]], config).tokenizer
    save_tokenizer(trained, tmp_path / "t")
    loaded = load_tokenizer_json(tmp_path / "t" / "tokenizer.json")
    hf = Tokenizer.from_file(str(tmp_path / "t" / "tokenizer.json"))
    text = alice_text[12000:18000] + korean_text[2000:3000] + " <|end|> "  # seen text: char-level models know it
    assert loaded.encode(text, special_mode="special") == trained.encode(text, special_mode="special") == hf.encode(text).ids
