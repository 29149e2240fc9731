"""The app's one tokenizer source: the pickers list what the catalogue and the engine declare, and
both panes draw from it by one rule.

Inspect's quick list was a table of its own (eight names, r50k_base missing); it is now the
catalogue's installed tokenizers between "ours" and the engine's baselines.
"""

from __future__ import annotations

from bpe_engine.catalog import list_models
from bpe_engine.catalog.listing import INSTALLED
from bpe_engine.compare.candidates import BASELINES, OURS
from tui.models import sources
from tui.state import ExplorerState
from tui.state_pane import model_moved


def test_the_quick_choices_are_the_catalogues_installed_tokenizers_and_the_baselines() -> None:
    specs = [spec for _, spec in sources.CHOICES]
    assert specs[0] == OURS
    assert specs[1:-2] == [name for name, *_ in INSTALLED]
    assert set(specs[-2:]) == {c.spec for c in BASELINES} - {OURS}
    installed = {m.name for m in list_models(hf_roots=[]) if m.origin == "installed"}
    assert installed == set(specs[1:-2])  # what `bpe-explorer models` lists as installed


def test_a_label_names_the_tokenizer_and_a_path_stays_as_given() -> None:
    assert sources.label_of(OURS) == "trained model at step k"
    assert sources.label_of("cl100k_base") == "cl100k_base"
    assert sources.label_of("/tmp/my.tiktoken") == "/tmp/my.tiktoken"


def test_one_rule_says_when_the_model_or_the_step_moved() -> None:
    base = ExplorerState(corpus="a b")
    assert not model_moved(base, ExplorerState(corpus="a b"))
    assert model_moved(base, ExplorerState(corpus="a b", step=1))
    assert model_moved(base, ExplorerState(corpus="a b", training=True))
    assert not model_moved(base, ExplorerState(corpus="other text"))  # the corpus alone is no new model
