"""Surgery on real tokenizers: extend a base BPE with merges learnt on a corpus, prune it, force
strings into single tokens, add tokens -- every base id kept, every result loadable by the base's
own library (:mod:`.base`, :mod:`.extend`; its function ``extend`` is imported from there, as the
package attribute of that name is the module).

Names are imported on first use, as the trainer packages' are: looking the extend trainer up
(:mod:`.trainer.spec`, through :mod:`bpe_engine.training.registry`) imports only its declaration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..training.lazy_exports import lazy_getattr

_EXPORTS = {
    "BpeBase": "base",
    "bpe_base": "base",
    "ExtendConfig": "extend",
    "Extension": "extend",
    "extended_tokenizer": "extend",
}
__all__ = sorted(_EXPORTS)
__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())

if TYPE_CHECKING:  # pragma: no cover
    from .base import BpeBase, bpe_base
    from .extend import ExtendConfig, Extension, extended_tokenizer
