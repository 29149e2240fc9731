"""Tokenizers the user already has in a Hugging Face hub cache, found without any network.

The hub cache (``huggingface_hub``'s layout) holds one ``models--ORG--NAME`` directory per
repository, with ``refs/main`` naming a commit and ``snapshots/<commit>/`` holding the files
(usually symlinks into ``blobs/``). We look in every cache directory this machine may use, in
``huggingface_hub``'s own order of precedence: ``$HF_HUB_CACHE``, ``$HUGGINGFACE_HUB_CACHE``
(its older name), ``$HF_HOME/hub``, ``$XDG_CACHE_HOME/huggingface/hub``,
``~/.cache/huggingface/hub`` -- the first holding a repository wins.

For each repository we take the snapshot ``refs/main`` points to, else the most recently modified
one, among those holding a tokenizer file; the file is ``tokenizer.json`` (what ``transformers``
loads), else a SentencePiece ``tokenizer.model``, else Mistral's ``tekken.json``. Broken links
(half-finished downloads) are skipped. Such a tokenizer is named ``hf:ORG/NAME``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import regex

from ..display import visible_text
from ..errors import BpeEngineError, TokenizerFileError
from ..text_files import read_input

HF_PREFIX = "hf:"
# (file name in a snapshot, registry kind), in order of preference
TOKENIZER_FILES: tuple[tuple[str, str], ...] = (
    ("tokenizer.json", "tokenizer.json"),
    ("tokenizer.model", "sentencepiece"),
    ("tekken.json", "tekken"),
)
_REPO_ID = regex.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(?:/[A-Za-z0-9][A-Za-z0-9._-]*)?")


@dataclass(frozen=True)
class HfCachedTokenizer:
    """One tokenizer file found in a hub cache."""

    repo_id: str
    kind: str
    path: Path
    revision: str
    cache_dir: Path

    @property
    def spec(self) -> str:
        """The name to pass as ``--tokenizer``: ``hf:ORG/NAME``."""
        return HF_PREFIX + self.repo_id


def hub_cache_dirs() -> list[Path]:
    """The hub cache directories to search, existing ones only, without repeats, in precedence order."""
    env = os.environ
    candidates = [env.get("HF_HUB_CACHE"), env.get("HUGGINGFACE_HUB_CACHE")]
    if env.get("HF_HOME"):
        candidates.append(str(Path(env["HF_HOME"]) / "hub"))
    if env.get("XDG_CACHE_HOME"):
        candidates.append(str(Path(env["XDG_CACHE_HOME"]) / "huggingface" / "hub"))
    candidates.append(str(Path.home() / ".cache" / "huggingface" / "hub"))
    out: list[Path] = []
    for text in candidates:
        if not text:
            continue
        path = Path(text).expanduser()
        if path.is_dir() and path.resolve() not in {p.resolve() for p in out}:
            out.append(path)
    return out


def discover_hf_tokenizers(roots: list[Path] | None = None) -> list[HfCachedTokenizer]:
    """Every repository with a tokenizer file in the hub caches, sorted by name."""
    found: dict[str, HfCachedTokenizer] = {}
    for root in hub_cache_dirs() if roots is None else roots:
        try:
            entries = sorted(root.iterdir())
        except OSError:
            continue
        for repo_dir in entries:
            repo_id = _repo_id(repo_dir.name)
            if repo_id is None or repo_id in found:
                continue
            hit = _tokenizer_in(repo_dir, repo_id, root)
            if hit is not None:
                found[repo_id] = hit
    return sorted(found.values(), key=lambda t: t.repo_id.lower())


def find_hf_tokenizer(spec: str, roots: list[Path] | None = None) -> HfCachedTokenizer:
    """The cached tokenizer ``hf:ORG/NAME`` names; a clear error says where we looked otherwise."""
    repo_id = spec[len(HF_PREFIX) :] if spec.startswith(HF_PREFIX) else spec
    if not _REPO_ID.fullmatch(repo_id) or "--" in repo_id or ".." in repo_id:
        raise BpeEngineError(f"{visible_text(spec)!r} is not a Hugging Face name; expected hf:ORG/NAME, e.g. hf:gpt2")
    searched = hub_cache_dirs() if roots is None else roots
    for root in searched:
        repo_dir = root / _folder_name(repo_id)
        if repo_dir.is_dir():
            hit = _tokenizer_in(repo_dir, repo_id, root)
            if hit is not None:
                return hit
            raise BpeEngineError(
                f"{spec}: {repo_dir} holds no snapshot with {' / '.join(n for n, _ in TOKENIZER_FILES)}; "
                f"download one, e.g. `huggingface-cli download {repo_id} tokenizer.json`"
            )
    where = f"searched {', '.join(map(str, searched))}" if searched else "no hub cache directory exists: HF_HUB_CACHE, HF_HOME, ~/.cache/huggingface/hub"
    raise BpeEngineError(
        f"{spec} is not in the Hugging Face cache ({where}); bpe-explorer never downloads from "
        f"the hub: get it with `huggingface-cli download {repo_id} tokenizer.json`, or pass a file path; "
        "`bpe-explorer models` lists what is there"
    )


def _repo_id(folder: str) -> str | None:
    """``models--ORG--NAME`` -> ``ORG/NAME`` (datasets and spaces are not tokenizers)."""
    if not folder.startswith("models--"):
        return None
    repo_id = folder[len("models--") :].replace("--", "/")
    return repo_id if _REPO_ID.fullmatch(repo_id) else None


def _folder_name(repo_id: str) -> str:
    return "models--" + repo_id.replace("/", "--")


def _tokenizer_in(repo_dir: Path, repo_id: str, root: Path) -> HfCachedTokenizer | None:
    snapshots = repo_dir / "snapshots"
    try:
        candidates = [p for p in snapshots.iterdir() if p.is_dir()]
    except OSError:
        return None
    main = _main_revision(repo_dir)
    candidates.sort(key=lambda p: (p.name != main, -_mtime(p)))
    for snapshot in candidates:
        for filename, kind in TOKENIZER_FILES:
            path = snapshot / filename
            if path.is_file():  # follows the blob symlink: a dangling one is skipped
                return HfCachedTokenizer(repo_id, kind, path, snapshot.name, root)
    return None


def _main_revision(repo_dir: Path) -> str | None:
    try:
        ref = repo_dir / "refs" / "main"  # a commit hash: refused past a few bytes, or if not a file
        return read_input(ref, fail=lambda reason: TokenizerFileError(ref, reason), max_bytes=4096).decode("utf-8").strip() or None
    except (OSError, UnicodeDecodeError, TokenizerFileError):
        return None


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


__all__ = [
    "HF_PREFIX",
    "HfCachedTokenizer",
    "TOKENIZER_FILES",
    "discover_hf_tokenizers",
    "find_hf_tokenizer",
    "hub_cache_dirs",
]
