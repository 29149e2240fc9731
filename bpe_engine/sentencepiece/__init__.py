"""SentencePiece ``.model`` files in pure Python, id for id equal to the ``sentencepiece`` package.

* :func:`load_model` -- a ``.model`` file as a :class:`~bpe_engine.types.Tokenizer`
  (:class:`.SentencePieceTokenizer`), BPE or Unigram;
* :class:`.UnigramModel` -- Viterbi and n-best over scored pieces (also used for Hugging Face's
  ``Unigram``); :class:`.PrecompiledCharsmap` -- the normalization rules a model carries.

The ``.model`` protobuf is parsed by the ``protobuf`` runtime (:mod:`.model_proto`).
"""

from __future__ import annotations

from pathlib import Path

from .model_proto import ModelFile, PieceType, parse_model_bytes, read_model_file
from .normalizer import PrecompiledCharsmap
from .tokenizer import SentencePieceTokenizer
from .unigram import UnigramModel


def load_model(
    path: str | Path, *, name: str | None = None, add_bos: bool = False, add_eos: bool = False
) -> SentencePieceTokenizer:
    """Load a SentencePiece model file; malformed files raise
    :class:`~bpe_engine.errors.TokenizerFileError` with one line saying what is wrong."""
    from ..errors import BpeEngineError, TokenizerFileError

    p = Path(path)
    model = read_model_file(p)
    try:
        default = p.name[: -len(".model")] if p.name.endswith(".model") else p.name
        return SentencePieceTokenizer(model, name=name or default, add_bos=add_bos, add_eos=add_eos)
    except TokenizerFileError:
        raise
    except BpeEngineError as exc:
        raise TokenizerFileError(p, str(exc)) from None


__all__ = [
    "ModelFile",
    "PieceType",
    "PrecompiledCharsmap",
    "SentencePieceTokenizer",
    "UnigramModel",
    "load_model",
    "parse_model_bytes",
    "read_model_file",
]
