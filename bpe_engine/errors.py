"""One small error hierarchy for the engine.

Every error a user can cause is a :class:`BpeEngineError`, and its message says how to fix the
input (the way tiktoken names the option to pass). The CLI prints ``str(error)`` on one line and
exits with status 2; the app shows it in a notification. Bugs stay ordinary exceptions.
"""

from __future__ import annotations

from pathlib import Path


class BpeEngineError(Exception):
    """Base class of every error caused by user input or missing data."""


class ConfigError(BpeEngineError, ValueError):
    """A training or encoding setting is invalid (bad regex, vocab size too small, ...).

    ``field`` names the setting at fault as its config spells it (``vocab_size``), when one does:
    the app shows the message beside that field, the CLI beside its option."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class CorpusError(BpeEngineError, ValueError):
    """The corpus cannot be used as asked (e.g. invalid UTF-8 for a character-level trainer)."""


class UnknownSymbolError(CorpusError):
    """A symbol (character or byte) the vocabulary cannot spell and no unknown token stands in for.

    Only ``encode`` raises it (there is no id to return); ``encode_detailed`` shows the symbol as
    an unknown piece instead. ``symbol`` is the symbol in the model's alphabet."""

    def __init__(self, message: str, *, symbol: str) -> None:
        super().__init__(message)
        self.symbol = symbol


class SpecialTokenError(BpeEngineError, ValueError):
    """Text contains a special token's text and the special-token mode is ``refuse``.

    ``token`` is that text, so each interface can name its own option (the CLI's
    ``--special-mode``, the app's selector) instead of Python arguments."""

    def __init__(self, message: str, *, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class ReferenceDataMissing(BpeEngineError, LookupError):
    """Packaged reference data (rank files, vocabularies) is absent or fails its checksum."""


class TokenizerFileError(BpeEngineError, ValueError):
    """A tokenizer file is malformed. Carries the path and, where known, the 1-based line."""

    def __init__(self, path: str | Path, message: str, *, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        where = f"{self.path}, line {line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")
