"""The runner's one view of every trainer: the registered trainer a request asks for, over its corpus.

:class:`~bpe_engine.training.protocol.Training` is what :mod:`.session` drives -- and what
``bpe-explorer train`` drives through the same loop (:func:`.session.drive`). Which trainer, and how
it reads the corpus, is its registration's to say (:mod:`bpe_engine.training.registry`): there is
no list of models here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..protocol import Training, TrainingCorpus
from .request import TrainingRequest

if TYPE_CHECKING:
    from ...corpus.cut import CorpusWords


def make_training(request: TrainingRequest, words: CorpusWords | None = None) -> Training:
    """The trainer ``request`` asks for, over ``words`` (its corpus cut by the config's front end;
    None for a trainer that reads the text's lines itself)."""
    return request.trainer.hook("training")(request.config, TrainingCorpus(text=request.text, words=words))


__all__ = ["Training", "make_training"]
