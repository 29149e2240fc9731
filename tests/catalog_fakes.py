"""A package index on disk for the fetch tests: a wheel and an sdist built here, served to pip with
``--no-index --find-links`` (through ``PIP_*`` variables, as a user's own pip settings would be).

The sdist carries an in-tree build backend without requirements, so pip can prepare its metadata
with no network at all, exactly as it does for real sdists.
"""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from bpe_engine.catalog import BuiltinModel, Release

WHEEL_PROJECT = "bpe-explorer-fake-wheel"
SDIST_PROJECT = "bpe-explorer-fake-sdist"
WHEEL_MEMBER = "bpe_explorer_fake_wheel/data/tokenizer.model.v1"
SDIST_MEMBER = "test/test_model.model"
WHEEL_DATA = b"wheel member bytes\n" * 100
SDIST_DATA = b"sdist member bytes\n" * 50

_BACKEND = '''
import os
def get_requires_for_build_wheel(config_settings=None):
    return []
def prepare_metadata_for_build_wheel(directory, config_settings=None):
    info = os.path.join(directory, "bpe_explorer_fake_sdist-2.0.dist-info")
    os.makedirs(info)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\\nName: bpe-explorer-fake-sdist\\nVersion: 2.0\\n")
    return "bpe_explorer_fake_sdist-2.0.dist-info"
def build_wheel(*args, **kwargs):
    raise RuntimeError("not needed for pip download")
'''


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build_wheel(directory: Path, member_data: bytes = WHEEL_DATA) -> Path:
    path = directory / "bpe_explorer_fake_wheel-1.0-py3-none-any.whl"
    info = "bpe_explorer_fake_wheel-1.0.dist-info"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(WHEEL_MEMBER, member_data)
        zf.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {WHEEL_PROJECT}\nVersion: 1.0\n")
        zf.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr(f"{info}/RECORD", "")
    return path


def build_sdist(directory: Path, member_data: bytes = SDIST_DATA) -> Path:
    path = directory / "bpe_explorer_fake_sdist-2.0.tar.gz"
    top = "bpe_explorer_fake_sdist-2.0"
    files = {
        "PKG-INFO": f"Metadata-Version: 2.1\nName: {SDIST_PROJECT}\nVersion: 2.0\n".encode(),
        "pyproject.toml": b'[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n',
        "backend.py": _BACKEND.encode(),
        SDIST_MEMBER: member_data,
    }
    with tarfile.open(path, "w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


@dataclass
class FakeIndex:
    """The archives on disk and catalogue entries that point at them."""

    directory: Path
    cache: Path
    wheel: Path
    sdist: Path

    def wheel_release(self, archive_sha: str | None = None) -> Release:
        return Release(WHEEL_PROJECT, "1.0", "wheel", archive_sha or sha256(self.wheel.read_bytes()), "MIT")

    def sdist_release(self) -> Release:
        return Release(SDIST_PROJECT, "2.0", "sdist", sha256(self.sdist.read_bytes()), "Apache-2.0")

    def wheel_model(self, name: str = "fake-wheel", *, sha: str | None = None, size: int | None = None,
                    release: Release | None = None) -> BuiltinModel:  # fmt: skip
        return BuiltinModel(
            name, "fake SentencePiece model", "sentencepiece", release or self.wheel_release(), WHEEL_MEMBER,
            len(WHEEL_DATA) if size is None else size, sha or sha256(WHEEL_DATA),
        )  # fmt: skip

    def sdist_model(self, name: str = "fake-sdist") -> BuiltinModel:
        return BuiltinModel(
            name, "fake Unigram model", "sentencepiece", self.sdist_release(), SDIST_MEMBER, len(SDIST_DATA), sha256(SDIST_DATA)
        )


@pytest.fixture
def fake_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeIndex:
    """Archives in ``tmp_path/index``, pip pointed only at them, the cache in ``tmp_path/cache``."""
    from bpe_engine.catalog import cache

    index = tmp_path / "index"
    index.mkdir()
    wheel, sdist = build_wheel(index), build_sdist(index)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # the machine's pip.conf must not matter
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    monkeypatch.setenv("BPE_EXPLORER_CACHE_DIR", str(tmp_path / "cache"))
    cache.forget_verdicts()
    return FakeIndex(index, tmp_path / "cache", wheel, sdist)
