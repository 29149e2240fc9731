"""Subword regularization: BPE-dropout as Hugging Face draws it, Unigram sampling as SentencePiece
draws it -- checked in distribution (chi-square tests with fixed seeds), and at the extremes exactly."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from bpe_engine.explore.regularization import bpe_dropout, unigram_sampling
from bpe_engine.formats import save_spec, spec_from_tokenizer
from bpe_engine.training.bpe import BpeTrainerConfig, train
from tests.oracles import require

tokenizers = require("tokenizers")
spm = require("sentencepiece")

SAMPLES = 3000
Z_999 = 3.090  # the standard normal's 0.999 quantile: a false alarm once in a thousand runs of a fixed seed


def chi2_critical(dof: int) -> float:
    """The 0.999 quantile of chi-square with ``dof`` degrees of freedom (Wilson-Hilferty)."""
    k = max(dof, 1)
    return k * (1 - 2 / (9 * k) + Z_999 * math.sqrt(2 / (9 * k))) ** 3


def homogeneity(a: Counter, b: Counter) -> tuple[float, int]:
    """Chi-square statistic and degrees of freedom of two samples' counts (rare categories pooled)."""
    na, nb = sum(a.values()), sum(b.values())
    common = [k for k in set(a) | set(b) if (a[k] + b[k]) * min(na, nb) / (na + nb) >= 5]
    rest = (na - sum(a[k] for k in common), nb - sum(b[k] for k in common))
    cells = [(a[k], b[k]) for k in common] + ([rest] if sum(rest) else [])
    stat = 0.0
    for x, y in cells:
        total = x + y
        for observed, n in ((x, na), (y, nb)):
            expected = total * n / (na + nb)
            stat += (observed - expected) ** 2 / expected
    return stat, len(cells) - 1


@pytest.fixture(scope="module")
def trained(alice_text: str, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    tok = train([alice_text], BpeTrainerConfig(vocab_size=800)).tokenizer
    out = tmp_path_factory.mktemp("bpe") / "t"
    save_spec(spec_from_tokenizer(tok), out)
    return tok, out / "tokenizer.json"


def test_dropout_zero_is_plain_bpe_and_one_keeps_the_first_symbols(trained) -> None:  # noqa: ANN001
    tok, _ = trained
    for word in (" conversation", " Alice", " 한국"):
        (plain,) = bpe_dropout(tok, word, p=0.0, n=50)
        assert plain.pieces == tuple(tok.token_str(i) for i in tok.encode(word)) and plain.probability == 1.0
        (whole,) = bpe_dropout(tok, word, p=1.0, n=50)
        assert len(whole.pieces) == len(word.encode("utf-8"))


def test_bpe_dropout_draws_as_hugging_face_does(trained) -> None:  # noqa: ANN001
    tok, path = trained
    hf = tokenizers.Tokenizer.from_file(str(path))
    hf = tokenizers.Tokenizer.from_file(str(path))
    hf.model.dropout = 0.15
    for word in (" conversation", " remarkable"):
        ours = Counter({s.pieces: s.samples for s in bpe_dropout(tok, word, p=0.15, n=SAMPLES, seed=3)})
        theirs = Counter(tuple(hf.encode(word).tokens) for _ in range(SAMPLES))
        assert len(ours) > 3 and len(theirs) > 3, "dropout must make several segmentations"
        stat, dof = homogeneity(ours, theirs)
        assert stat < chi2_critical(dof), (word, stat, dof, ours.most_common(5), theirs.most_common(5))


def test_unigram_probabilities_are_exact_and_sum_to_one(builtin_model_path) -> None:  # noqa: ANN001
    from bpe_engine.sentencepiece import load_model

    tok = load_model(builtin_model_path("sp-unigram-en"))
    every = unigram_sampling(tok, "hello", alpha=0.3, n=0, top=1024)
    assert len(every) > 5 and math.isclose(sum(s.probability for s in every), 1.0, rel_tol=1e-9)
    assert [s.probability for s in every] == sorted((s.probability for s in every), reverse=True)


def test_unigram_samples_agree_with_sentencepieces_sampling(builtin_model_path) -> None:  # noqa: ANN001
    from bpe_engine.sentencepiece import load_model

    path = builtin_model_path("sp-unigram-en")
    tok = load_model(path)
    sp = spm.SentencePieceProcessor(model_file=str(path))
    spm.set_random_generator_seed(11)
    for word, alpha in (("conversation", 0.1), ("unbelievable", 0.5)):
        theirs = Counter(tuple(sp.encode(word, out_type=str, enable_sampling=True, alpha=alpha, nbest_size=-1)) for _ in range(SAMPLES))
        ours = unigram_sampling(tok, word, alpha=alpha, n=SAMPLES, seed=5, top=1024)
        expected = {s.pieces: s.probability * SAMPLES for s in ours}
        assert set(theirs) <= set(expected), "sentencepiece drew a segmentation we gave no probability"
        common = [k for k, e in expected.items() if e >= 5]
        stat = sum((theirs[k] - expected[k]) ** 2 / expected[k] for k in common)
        rest_e = SAMPLES - sum(expected[k] for k in common)
        rest_o = SAMPLES - sum(theirs[k] for k in common)
        if rest_e >= 5:
            stat += (rest_o - rest_e) ** 2 / rest_e
        assert stat < chi2_critical(len(common) - (rest_e < 5)), (word, stat, len(common))
        drawn = Counter({s.pieces: s.samples for s in ours})
        stat, dof = homogeneity(drawn, theirs)
        assert stat < chi2_critical(dof), "our samples and sentencepiece's come from one distribution"


def test_a_tokens_word_is_sampled_by_its_models_own_method(builtin_model_path) -> None:  # noqa: ANN001
    """Inspect's question -- what else could this word have been cut into? -- answered with the
    method the model trains with, the tokenizer's own cut marked, and nothing for models without one."""
    from bpe_engine.catalog.openai import load_reference
    from bpe_engine.explore.regularization import samples_at
    from bpe_engine.sentencepiece import load_model
    from bpe_engine.sentencepiece.explain import word_around
    from bpe_engine.wordpiece import bert_base_uncased

    gpt2 = load_reference("gpt2")
    enc = gpt2.encode_detailed("the unbelievable<|endoftext|>", special_mode="special")
    drawn = samples_at(gpt2, enc, 1, dropout=0.1, n=400, seed=1)
    assert drawn is not None and drawn.method == "BPE-dropout" and drawn.word == " unbelievable" and not drawn.exact
    assert drawn.plain == ("Ġunbelievable",) and drawn.segmentations[0].pieces == drawn.plain
    assert all(s.probability == s.samples / 400 for s in drawn.segmentations)
    assert all("".join(s.pieces) == "Ġunbelievable" for s in drawn.segmentations)
    (only,) = samples_at(gpt2, enc, 1, dropout=0.0, n=50).segmentations
    assert only.pieces == drawn.plain and only.probability == 1.0
    assert samples_at(gpt2, enc, len(enc.ids) - 1, n=10) is None, "a special token has no other cut"

    unigram = load_model(builtin_model_path("sp-unigram-en"))
    enc = unigram.encode_detailed("Hello unbelievable")
    index = next(i for i, t in enumerate(enc.tokens) if t == "able")
    drawn = samples_at(unigram, enc, index, alpha=0.2, n=300)
    first, end = word_around(enc, index)
    assert drawn is not None and drawn.exact and drawn.plain == tuple(enc.tokens[first:end])
    assert sum(s.probability for s in drawn.segmentations) <= 1.0 and drawn.segmentations[0].pieces == drawn.plain

    bert = bert_base_uncased()
    assert samples_at(bert, bert.encode_detailed("unbelievable"), 0, n=10) is None, "WordPiece trains with no regularization"


def test_explain_adds_a_unigram_pieces_story_and_the_words_samples(builtin_model_path) -> None:  # noqa: ANN001
    from bpe_engine.inspect.why import explain
    from bpe_engine.sentencepiece import load_model
    from bpe_engine.training.unigram import UnigramTrainerConfig, UnigramTraining
    from bpe_engine.training.unigram.history import UnigramHistory

    training = UnigramTraining(["ab ab abc", "abc b a"] * 20, UnigramTrainerConfig(vocab_size=8, hard_vocab_limit=False))
    history = UnigramHistory(list(training.steps()))
    tok = load_model(builtin_model_path("sp-unigram-en"))
    enc = tok.encode_detailed("abc")
    plain = explain(tok, enc, 0)
    assert plain.story is None and plain.samples is None
    why = explain(tok, enc, 0, story_of=lambda piece: history.story("▁ab"), samples=50)
    assert why.story is not None and why.story.piece == "▁ab" and why.story.scores
    assert why.samples is not None and why.samples.method == "Unigram sampling" and why.unigram == plain.unigram
