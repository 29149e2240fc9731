"""Temperature sampling of a multilingual corpus: shares as XLM-R defines them, the drawn corpus
matching its plan, deterministic for a seed, and a lower premium for the small language."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpe_engine.metrics.languages.language_mix import MixPlan, mix_documents, plan_mix
from bpe_engine.errors import ConfigError
from bpe_engine.metrics.languages import LanguageMeter, find
from bpe_engine.metrics.languages.udhr import udhr_for
from bpe_engine.training.bpe import BpeTrainerConfig, train

DATA = Path(__file__).parents[1] / "data"


@pytest.fixture(scope="module")
def mix_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """English (Alice, 150 KB) and a tenth as much Korean (the constitution's first 5,000 characters)."""
    root = tmp_path_factory.mktemp("mix")
    (root / "eng_Latn.txt").write_text((DATA / "alice29.txt").read_text(encoding="utf-8"), encoding="utf-8")
    (root / "kor_Hang.txt").write_text((DATA / "constitution.txt").read_text(encoding="utf-8")[:5000], encoding="utf-8")
    return root


def test_shares_are_size_to_the_alpha() -> None:
    plan = MixPlan.of([("a", 8000), ("b", 1000), ("c", 1000)], alpha=0.5)
    weights = [8000**0.5, 1000**0.5, 1000**0.5]
    assert [s.sampled for s in plan.shares] == pytest.approx([w / sum(weights) for w in weights])
    assert [s.natural for s in plan.shares] == pytest.approx([0.8, 0.1, 0.1])
    assert [s.sampled for s in MixPlan.of([("a", 8000), ("b", 2000)], alpha=1.0).shares] == pytest.approx([0.8, 0.2])
    assert sum(s.budget for s in plan.shares) <= plan.total == 10000 and plan.shares[1].repeats > 1 > plan.shares[0].repeats
    for bad in (0.0, -1.0, 1.5):
        with pytest.raises(ConfigError, match="--mix-alpha"):
            MixPlan.of([("a", 1)], alpha=bad)


def test_the_drawn_corpus_follows_the_plan_and_the_seed(mix_dir: Path) -> None:
    plan, lines = plan_mix(mix_dir, alpha=0.3)
    assert [s.code for s in plan.shares] == ["eng_Latn", "kor_Hang"]
    kor = plan.shares[1]
    assert kor.natural < 0.1 and kor.sampled > 0.25 and kor.repeats > 2  # the small language lifted, its text repeated
    mixed = mix_documents(plan, lines, seed=7)
    longest = max(len(line.encode()) + 1 for ls in lines.values() for line in ls)
    for share in plan.shares:
        assert share.budget <= mixed.drawn[share.code] < share.budget + longest
        assert mixed.shares[share.code] == pytest.approx(share.sampled, abs=0.01)
    assert mix_documents(plan, lines, seed=7) == mixed
    assert mix_documents(plan, lines, seed=8).documents != mixed.documents
    assert set(lines["kor_Hang"]) <= set(mixed.documents)  # every Korean line (repeated); English sampled


def test_a_lower_alpha_lowers_the_small_languages_premium(mix_dir: Path) -> None:
    premiums = {}
    for alpha in (1.0, 0.3):
        plan, lines = plan_mix(mix_dir, alpha=alpha)
        docs = list(mix_documents(plan, lines, seed=0).documents)
        tok = train(docs, BpeTrainerConfig(vocab_size=256 + 800)).tokenizer
        korean = udhr_for("kor_Hang")
        assert korean is not None and korean.code == "kor"
        premiums[alpha] = LanguageMeter(tok, find("eng")[0]).measure(korean).premium
    assert premiums[0.3] < premiums[1.0]  # type: ignore[operator]
