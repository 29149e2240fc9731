"""The metrics: Shannon and Rényi efficiency equal to tokenization-scorer's, fertility and continued
words, exact slicing, the language premium, and vocabulary overlap."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import math
from collections import Counter
from typing import Any

import pytest
import tqdm

from bpe_engine.catalog.openai import load_reference
from bpe_engine.compare.stats import row_stats
from bpe_engine.metrics import (
    detailed_slices,
    id_slices,
    language_premium,
    measure_files,
    measure_text,
    renyi_efficiency,
    shannon_efficiency,
    vocabulary_overlap,
)
from bpe_engine.registry import load_tokenizer
from tests.oracles import require

tokenization_scorer = require("tokenization_scorer")

# tokenization-scorer 1.1.8's own test texts (tokenization_scorer/test.py) and the values it asserts.
TEXT1 = "pick @@ed pick @@l @@ed pick @@les"
TEXT2 = "pick @@e @@d pick @@l @@e @@d pick @@l @@e @@s"
PACKAGE_VALUES = {
    (TEXT1, "renyi"): 0.8265064834225245,
    (TEXT2, "renyi"): 0.9204840242168808,
    (TEXT1, "shannon_efficiency"): 0.9211854965885544,
    (TEXT2, "shannon_efficiency"): 0.9609557933859342,
}


def scorer(text: str, metric: str, **kwargs: float) -> float:
    """``tokenization_scorer.score``, without the monitor thread its progress bars (tqdm) would leave
    running: a live thread makes later tests' corpus counting refuse to fork (``can_fork``)."""
    tqdm.tqdm.monitor_interval = 0
    with contextlib.redirect_stderr(io.StringIO()):  # its progress bars and "Vocabulary size" lines
        return float(tokenization_scorer.score(text, metric=metric, **kwargs))


@pytest.mark.parametrize("module", ["metrics.efficiency", "metrics.text_metrics", "metrics.overlap", "compare.stats"])
def test_module_doctests(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(f"bpe_engine.{module}"), verbose=False)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("text", [TEXT1, TEXT2])
def test_equal_to_tokenization_scorer_on_its_own_texts(text: str) -> None:
    counts = Counter(text.split()).values()
    assert math.isclose(renyi_efficiency(counts, 2.5) or 0, PACKAGE_VALUES[(text, "renyi")], rel_tol=1e-12)
    assert math.isclose(shannon_efficiency(counts) or 0, PACKAGE_VALUES[(text, "shannon_efficiency")], rel_tol=1e-12)
    for alpha in (2.5, 3.0, 0.5, 10.0):
        assert math.isclose(renyi_efficiency(counts, alpha) or 0, scorer(text, "renyi", power=alpha), rel_tol=1e-12)
    # α = 1 is Shannon's, as the package means it to be (its own α = 1 path re-reads a spent generator and gives 0)
    assert renyi_efficiency(counts, 1.0) == shannon_efficiency(counts)


@pytest.mark.parametrize("name", ["gpt2", "o200k_base", "bert-base-uncased"])
@pytest.mark.parametrize("corpus", ["alice_text", "korean_text"])
def test_equal_to_tokenization_scorer_on_real_files(name: str, corpus: str, request: pytest.FixtureRequest) -> None:
    text = request.getfixturevalue(corpus)
    tok = load_tokenizer(name)
    measured = measure_text(tok, text).as_dict(alpha=2.5, ordinary=frozenset())
    ids = [i for _, chunk in id_slices(tok, text) for i in chunk]
    spelled = " ".join(f"t{i}" for i in ids)  # one whitespace-free word per token, as the package reads tokens
    assert measured["tokens"] == len(ids) and measured["observed_types"] == len(set(ids))
    assert math.isclose(measured["shannon_efficiency"], scorer(spelled, "shannon_efficiency"), rel_tol=1e-12)
    assert math.isclose(measured["renyi_efficiency"], scorer(spelled, "renyi", power=2.5), rel_tol=1e-12)


def test_fertility_is_compares_tokens_per_word(alice_text: str, korean_text: str) -> None:
    tok = load_reference("o200k_base")
    for text in (alice_text[:30000], korean_text[:10000]):
        measured = measure_text(tok, text)
        stats = row_stats(tok.encode_detailed(text))
        assert (measured.tokens, measured.words, measured.characters, measured.bytes) == (stats.tokens, stats.words, stats.chars, stats.bytes)


def test_continued_words() -> None:
    tok = load_reference("gpt2")
    text = "the cat sat\ntokenization unbelievable, 한국어"
    # the, cat, sat one token each; "tokenization" token|ization, "unbelievable," unbelievable|',', 한국어 8 byte tokens
    measured = measure_text(tok, text)
    assert measured.words == 6 and measured.continued_words == 3


def test_slices_are_the_whole_encoding(alice_text: str) -> None:
    tok = load_tokenizer("gpt2")
    whole = tok.encode(alice_text[:20000])
    sliced = [i for _, chunk in id_slices(tok, alice_text[:20000], slice_chars=1000) for i in chunk]
    assert sliced == whole and len(list(detailed_slices(tok, alice_text[:20000], slice_chars=1000))) > 10


def test_language_premium_of_parallel_texts() -> None:
    tok = load_reference("gpt2")
    parallel = [("en", "The constitution protects the freedom of speech."), ("ko", "헌법은 언론의 자유를 보장한다.")]
    each, total = measure_files(tok, parallel)
    premium = language_premium(each)
    assert premium[0].premium == 1.0 and premium[1].premium == each[1].tokens / each[0].tokens > 2
    assert total.tokens == each[0].tokens + each[1].tokens


def test_overlap_by_bytes_and_by_corpus(builtin_model_path: Any, korean_text: str) -> None:
    builtin_model_path("llama3")
    cl100k, llama3 = load_reference("cl100k_base"), load_tokenizer("llama3")
    plain = vocabulary_overlap(cl100k, llama3)
    assert (plain.a_size, plain.b_size, plain.shared) == (100_256, 128_000, 100_256)  # Llama 3 extends cl100k
    weighted = vocabulary_overlap(cl100k, llama3, [korean_text])
    assert weighted.a_in_b == 1.0 and weighted.b_in_a is not None and weighted.b_in_a < 1.0
    assert weighted.weighted_jaccard is not None and 0 < weighted.weighted_jaccard < 1
    assert weighted.b_only_frequent and all(data not in cl100k.mergeable_ranks for data, _ in weighted.b_only_frequent)
    same = vocabulary_overlap(cl100k, load_reference("cl100k_base"), [korean_text])
    assert same.jaccard == same.weighted_jaccard == 1.0
