"""The Unigram trainer on en_10mb (the benchmark corpus: 10 MB, 238K lines of English) against
``sentencepiece`` 0.2.1 with one thread: the same pieces in the same order, scores within 1e-4 and
the same ids on every line. Marked ``long`` (about a minute); skipped where the shared corpora are
not beside the repository (``BPE_EXPLORER_EN_10MB`` names another copy)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from bpe_engine.training.unigram import UnigramTrainerConfig, UnigramTraining
from tests.oracles import require

spm = require("sentencepiece")
EN_10MB = Path(os.environ.get("BPE_EXPLORER_EN_10MB", Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "bench" / "en_10mb.txt"))


@pytest.mark.long
def test_en_10mb_trains_sentencepieces_one_thread_model(tmp_path):
    if not EN_10MB.is_file():
        pytest.skip(f"{EN_10MB} is not here")
    spm.SentencePieceTrainer.train(
        input=str(EN_10MB), model_prefix=str(tmp_path / "sp"), vocab_size=8000, num_threads=1, minloglevel=2
    )
    theirs = spm.SentencePieceProcessor(model_file=str(tmp_path / "sp.model"))
    training = UnigramTraining(config=UnigramTrainerConfig(vocab_size=8000), files=[EN_10MB])
    training.run()
    ours = spm.SentencePieceProcessor(model_proto=training.model_bytes())
    want = [(theirs.id_to_piece(i), theirs.get_score(i)) for i in range(theirs.get_piece_size())]
    assert [p for p, _s in training.pieces] == [p for p, _s in want]
    assert np.allclose([s for _p, s in training.pieces], [s for _p, s in want], atol=1e-4, rtol=0)
    lines = EN_10MB.read_text(encoding="utf-8", errors="replace").split("\n")
    assert ours.encode(lines) == theirs.encode(lines)
