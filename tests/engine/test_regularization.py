"""Subword regularization: BPE-dropout as Hugging Face draws it, Unigram sampling as SentencePiece
draws it -- checked in distribution (chi-square tests with fixed seeds), and at the extremes exactly."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from bpe_engine.explore.regularization import bpe_dropout, unigram_sampling
from bpe_engine.formats import save_spec, spec_from_tokenizer
from bpe_engine.training.bpe import BpeTrainerConfig, train

tokenizers = pytest.importorskip("tokenizers")
spm = pytest.importorskip("sentencepiece")

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
