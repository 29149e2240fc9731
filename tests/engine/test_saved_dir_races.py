"""A saved directory read while saves race it, and the modes a re-save keeps.

The racing case is made deterministic: the loader's own read of ``tokenizer.json`` is where two
whole saves (B, then A again) land. Before each save carried a ``save_id``, the record of the
second A equalled the first, so the reader's before/after check passed and it returned A's name
with B's merges -- the cross-process race measured by hand (2 mixes in 2,704 loads).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bpe_engine.errors import TokenizerFileError
from bpe_engine.formats import bundle, load_saved, save_spec, spec_from_tokenizer
from bpe_engine.pretokenizers import GPT2
from bpe_engine.training.bpe import BpeTrainerConfig, train

TEXT = "low lower lowest newer newest wider widest the cat sat on the mat " * 10


def spec(vocab_size: int, name: str):  # noqa: ANN201
    result = spec_from_tokenizer(train([TEXT], BpeTrainerConfig(vocab_size=vocab_size, pre_tokenizer=GPT2)).tokenizer)
    result.name = name
    return result


def test_two_saves_landing_inside_one_read_are_never_mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "tok"
    a, b = spec(270, "a"), spec(300, "b")
    save_spec(a, out)
    real = bundle.read_hf_json
    calls: list[int] = []

    def read_while_saving(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls.append(1)
        if len(calls) == 1:
            save_spec(b, out)  # the file read below is B's ...
            result = real(*args, **kwargs)
            save_spec(a, out)  # ... and the directory is A again, byte for byte, when the read ends
            return result
        return real(*args, **kwargs)

    monkeypatch.setattr(bundle, "read_hf_json", read_while_saving)
    loaded = load_saved(out)
    assert (loaded.name, loaded.merges) in (("a", a.merges), ("b", b.merges)), "A's record with B's merges"
    assert len(calls) >= 2  # the reader noticed and read again


def test_a_load_that_fails_on_files_of_two_saves_reads_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files of two saves read together fail in odd ways (9 of the failures seen in loads racing
    saves said "token '\\x1a' is not in GPT-2's byte alphabet"): the failure was raised as it was.
    Here the first read fails while a save lands: the loader sees the directory changed and reads
    again; a failure of files that did not change is still raised."""
    out = tmp_path / "tok"
    a, b = spec(270, "a"), spec(300, "b")
    save_spec(a, out)
    real = bundle.read_hf_json
    calls: list[int] = []

    def torn_read(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls.append(1)
        if len(calls) == 1:
            save_spec(b, out)
            raise TokenizerFileError(out / "tokenizer.json", "token '\\x1a' is not in GPT-2's byte alphabet")
        return real(*args, **kwargs)

    monkeypatch.setattr(bundle, "read_hf_json", torn_read)
    loaded = load_saved(out)
    assert (loaded.name, loaded.merges) == ("b", b.merges) and len(calls) == 2

    def always_fails(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise TokenizerFileError(out / "tokenizer.json", "damaged")

    monkeypatch.setattr(bundle, "read_hf_json", always_fails)
    with pytest.raises(TokenizerFileError, match="damaged"):
        load_saved(out)


@pytest.fixture
def umask_022():  # noqa: ANN201
    old = os.umask(0o022)
    yield
    os.umask(old)


def modes(folder: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in [folder, *folder.iterdir()]}


def test_a_resave_keeps_a_private_directory_private(tmp_path: Path, umask_022: None) -> None:
    """A user who made a saved tokenizer private (0700, files 0600) and saves it again must not
    find it readable by everyone: the directory and the files it already had keep their modes
    (as an existing file written through ``atomic_write_bytes`` does); new files follow the umask."""
    out = tmp_path / "tok"
    save_spec(spec(270, "a"), out)
    os.chmod(out, 0o700)
    for path in out.iterdir():
        os.chmod(path, 0o600)
    save_spec(spec(300, "a"), out)
    assert set(modes(out).values()) == {0o700, 0o600}, modes(out)


def test_a_first_save_follows_the_umask(tmp_path: Path, umask_022: None) -> None:
    out = tmp_path / "tok"
    save_spec(spec(270, "a"), out)
    got = modes(out)
    assert got.pop("tok") == 0o755 and set(got.values()) == {0o644}
