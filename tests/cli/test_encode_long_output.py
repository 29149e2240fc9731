"""``encode`` of a long text prints its token and id lines in pieces.

One rich ``Text`` of every token was built and rendered at once: ``encode -t gpt2`` of 5 MB
(1,250,000 tokens) took 31 s and peaked at 1.6 GB, most of it in that one Text (measured by hand).
Printed piece by piece the output is the same characters; the test checks the pieces (no single
write holds the whole line), not a time or a memory figure.
"""

from __future__ import annotations

import io
import sys

import pytest

from bpe_cli.main import main
from bpe_cli.output import LINE_PIECE, token_line

N = LINE_PIECE * 5


class RecordingStdout(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def write(self, text: str) -> int:
        self.sizes.append(len(text))
        return super().write(text)


def test_a_long_token_line_is_printed_in_pieces_with_the_same_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    out = RecordingStdout()
    monkeypatch.setattr(sys, "stdout", out)
    text = "ab\u202e\x1b" * (N // 4)
    assert main(["encode", "-t", "characters", text]) == 0
    tokens, ids, summary = out.getvalue().splitlines()
    labels = ["a", "b", "<RLO>", "␛"] * (N // 4)
    assert tokens == token_line(labels, color=False).plain  # what one Text of every token printed
    assert ids == " ".join(["97", "98", "8238", "27"] * (N // 4))
    assert summary.startswith(f"{N:,} tokens")
    assert max(out.sizes) < len(ids) // 3, "a whole line was rendered and written at once"
