"""Screens for choosing tokenizers: the searchable picker and the fetch of missing built-ins."""

from __future__ import annotations

from .fetch_screen import FetchOutcome, FetchScreen
from .picker import Picked, TokenizerPicker

__all__ = ["FetchOutcome", "FetchScreen", "Picked", "TokenizerPicker"]
