"""The metrics where the app shows them: Compare's Stats rows and the Rényi efficiency per merge step
of the Curve are the figures of ``bpe_engine.metrics`` (one implementation) and of
``tokenization-scorer`` itself, on real texts."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from bpe_engine.compare import compare, compression_curve, efficiency_curve
from bpe_engine.compare.segments import SegmentCache
from bpe_engine.explore.stepper import Stepper
from bpe_engine.metrics import DEFAULT_ALPHA, measure_text, renyi_efficiency
from bpe_engine.pretokenizers import GPT2
from bpe_engine.registry import load_tokenizer
from bpe_engine.training.bpe import BpeTrainerConfig, train
from tests.engine.test_metrics import scorer


def metrics_of(tok: object, text: str) -> dict[str, object]:
    """What ``bpe-explorer metrics`` says of ``text``."""
    return measure_text(tok, text).as_dict(alpha=DEFAULT_ALPHA, ordinary=frozenset())  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["gpt2", "o200k_base"])
@pytest.mark.parametrize("corpus", ["alice_text", "korean_text"])
def test_stats_efficiencies_are_the_metrics_and_the_packages(name: str, corpus: str, request: pytest.FixtureRequest) -> None:
    text = request.getfixturevalue(corpus)[:20000]
    tok = load_tokenizer(name)
    stats = compare(text, [tok], special_mode="text").rows[0].stats
    assert stats is not None
    measured = metrics_of(tok, text)
    # the same counts through the same functions: equal, not merely close
    assert (stats.renyi_efficiency, stats.shannon_efficiency) == (measured["renyi_efficiency"], measured["shannon_efficiency"])
    assert stats.observed_types == measured["observed_types"] and stats.alpha == DEFAULT_ALPHA
    ids = tok.encode(text, special_mode="text")
    spelled = " ".join(f"t{i}" for i in ids)  # one whitespace-free word per token, as the package reads tokens
    assert stats.renyi_efficiency is not None and stats.shannon_efficiency is not None
    assert math.isclose(stats.renyi_efficiency, scorer(spelled, "renyi", power=2.5), rel_tol=1e-12)
    assert math.isclose(stats.shannon_efficiency, scorer(spelled, "shannon_efficiency"), rel_tol=1e-12)
    assert stats.as_dict()["renyi_efficiency"] == stats.renyi_efficiency


def test_a_row_stitched_from_cached_lines_has_the_whole_texts_figures(alice_text: str) -> None:
    """Typing re-encodes only the edited line; the efficiencies are of the row's final ids, so a
    stitched row gives what encoding the whole text gives."""
    tok = load_tokenizer("gpt2")
    text = alice_text[:8000]
    cache = SegmentCache()
    compare(text, [tok], special_mode="text", cache=cache)
    edited = text[:4000] + "Korean: 한국어 텍스트" + text[4000:]
    stitched = compare(edited, [tok], special_mode="text", cache=cache).rows[0].stats
    whole = compare(edited, [tok], special_mode="text").rows[0].stats
    measured = metrics_of(tok, edited)
    assert stitched is not None and whole is not None
    assert stitched.renyi_efficiency == whole.renyi_efficiency == measured["renyi_efficiency"]
    assert stitched.shannon_efficiency == whole.shannon_efficiency == measured["shannon_efficiency"]


def test_post_processor_tokens_are_not_the_texts() -> None:
    """BERT's [CLS] and [SEP] stand for no text: one rule for compare, metrics and languages -- the
    row's ``tokens`` are the text's own, as ``metrics`` counts them, with the added ones beside
    (``added_tokens``); the efficiencies leave them out too; a special token spelled in the text is kept."""
    tok = load_tokenizer("bert-base-uncased")
    text = "The constitution protects the freedom of speech. [SEP] The end of the text."
    row = compare(text, [tok], special_mode="text").rows[0].stats
    own = len(tok.encode(text, special_mode="text", add_special_tokens=False))
    assert row is not None and (row.tokens, row.added_tokens) == (own, 2) == (metrics_of(tok, text)["tokens"], 2)
    assert row.renyi_efficiency == metrics_of(tok, text)["renyi_efficiency"]
    special = compare(text, [tok], special_mode="special").rows[0].stats
    assert special is not None and special.observed_types == row.observed_types - 3 + 1  # "[", "sep", "]" -> one [SEP]


def test_too_few_types_have_no_efficiency() -> None:
    from bpe_engine.compare.baselines import CharacterTokenizer

    stats = compare("aaaa", [CharacterTokenizer()]).rows[0].stats
    assert stats is not None and stats.renyi_efficiency is None and stats.shannon_efficiency is None


@pytest.fixture(scope="module")
def trained(alice_text: str) -> tuple[str, object, Stepper]:
    corpus = alice_text[:30000]
    result = train([corpus], BpeTrainerConfig(vocab_size=256 + 300))
    stepper = Stepper.from_text(corpus, GPT2, byte_level=True, merges=list(result.steps))
    return corpus, result, stepper


def test_renyi_per_merge_step_is_the_metrics_of_the_model_at_k(trained: tuple[str, object, Stepper]) -> None:
    """The curve follows the type counts through the training log (no re-encoding); at every k it
    checks against, it equals ``metrics`` of the model with the first k merges on the corpus."""
    corpus, result, stepper = trained
    steps = list(result.steps)  # type: ignore[attr-defined]
    initial = stepper.initial_type_counts()
    assert sum(initial.values()) == stepper.initial_token_count
    points = efficiency_curve(steps, initial)
    assert [p.merges for p in points] == list(range(len(steps) + 1))
    for k in (0, 1, 2, 37, 150, 300):
        model = result.tokenizer.with_merge_prefix(k)  # type: ignore[attr-defined]
        measured = metrics_of(model, corpus)
        assert (points[k].types, points[k].renyi_efficiency) == (measured["observed_types"], measured["renyi_efficiency"]), k
        assert points[k].alpha == DEFAULT_ALPHA
    ids = result.tokenizer.encode(corpus)  # type: ignore[attr-defined]
    spelled = " ".join(f"t{i}" for i in ids)
    assert math.isclose(points[-1].renyi_efficiency or 0, scorer(spelled, "renyi", power=2.5), rel_tol=1e-12)


def test_the_efficiency_curve_is_thinned_to_the_compression_curves_points(trained: tuple[str, object, Stepper]) -> None:
    corpus, result, stepper = trained
    steps = list(result.steps)  # type: ignore[attr-defined]
    tokens = compression_curve(steps, initial_tokens=stepper.initial_token_count, corpus_chars=len(corpus), max_points=50)
    renyi = efficiency_curve(steps, stepper.initial_type_counts(), max_points=50, alpha=3.0)
    assert [p.merges for p in renyi] == [p.merges for p in tokens] and renyi[-1].merges == len(steps)
    full = efficiency_curve(steps, stepper.initial_type_counts(), alpha=3.0)
    assert all(p == full[p.merges] for p in renyi)


def test_the_curve_follows_a_pair_of_one_token_twice() -> None:
    """``a a`` -> ``aa`` takes two ``a`` per fusion: "aaaa" (×3) is 12 a, then 6 aa."""
    from bpe_engine.training.steps import MergeStep

    points = efficiency_curve([MergeStep(0, "a", "a", "aa", 0, 0, 1, 6, 1, 6)], {"a": 12, "b": 4})
    assert [p.types for p in points] == [2, 2]
    assert points[1].renyi_efficiency == renyi_efficiency(Counter({"aa": 6, "b": 4}).values())
