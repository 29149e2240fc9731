"""``merges`` prints a merge list of any length page by page.

It built one rich ``Table`` of every merge before printing a line: ``merges gpt2`` took 66 s and
309 MB, ``merges cl100k_base`` 144 s and 577 MB (measured by hand, load ~5); page by page they
take 5 s / 57 MB and 10 s / 80 MB. The test checks the streaming itself, not a time: output must
have reached stdout before the merge list has been read to its end.
"""

from __future__ import annotations

import io
import sys
from types import SimpleNamespace

import pytest

from bpe_cli import cmd_merges
from bpe_cli.main import main
from bpe_cli.paged_table import PAGE_ROWS
from bpe_engine.types import Capabilities

N = PAGE_ROWS * 3


class WatchedMerges(list):
    """The merge list, checking stdout as it is read: a page must be out before the last rows."""

    def __init__(self, items: list[tuple[str, str]], out: io.StringIO) -> None:
        super().__init__(items)
        self.out = out
        self.written_before_end = False

    def __iter__(self):  # noqa: ANN204
        for i, item in enumerate(super().__iter__()):
            if i == N - 1:
                self.written_before_end = self.out.tell() > 0
            yield item


def test_merges_are_printed_before_the_list_is_read_to_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    pairs = [(f"a{i}", f"b{i}") for i in range(N)]
    merges = WatchedMerges(pairs, out)
    fake = SimpleNamespace(
        name="big", merges=merges, vocab={l + r: 256 + i for i, (l, r) in enumerate(pairs)},
        capabilities=Capabilities(family="bpe", replays_merges=True),
    )
    monkeypatch.setattr(cmd_merges, "open_tokenizer", lambda spec: fake)
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["merges", "big"]) == 0
    assert merges.written_before_end, "the whole table was built before its first line was printed"
    lines = out.getvalue().splitlines()
    rows = [line for line in lines if "│" in line and line.split("│")[0].strip() != "#"]
    assert len(rows) == N and rows[0].split("│")[1].strip() == "a0" and rows[-1].split("│")[3].strip() == f"a{N - 1}b{N - 1}"
    assert lines[-1] == f"{N:,} merges (big)"
