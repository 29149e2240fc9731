"""Where the app gets its tokenizers: the one source Inspect and Compare load from (:mod:`.sources`),
the searchable picker and the fetch of missing built-ins."""

from __future__ import annotations

from .fetch_screen import FetchOutcome, FetchScreen
from .picker import Picked, TokenizerPicker

__all__ = ["FetchOutcome", "FetchScreen", "Picked", "TokenizerPicker"]
