"""`bpe-explorer compare`'s aligned view writes exactly what it wrote when each line was a rich
``Text`` (the slow way: 21 s on a 36 KB text), colour and plain, failed rows and hostile text
included."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text

from bpe_cli.cmd_compare import AlignedView
from bpe_cli.output import safe_text
from bpe_engine.catalog.openai import load_reference
from bpe_engine.compare import Comparison, compare, layout
from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
from bpe_engine.display import visible_text
from bpe_styles import SEGMENT_STYLES
from tests.fakes import TokenizerDouble

TEXTS = (
    "ab c",
    "hi 👩‍👩‍👧 naïve\n\ncafé 한국어\tx\x1b[31m red <|endoftext|> e\u0301\u202e evil\n",
    "대한민국은 민주공화국이다. " * 30 + "The tokenizer doesn't see words. " * 40,
)


class Broken(TokenizerDouble):
    """A row that fails: the view shows its place with a note."""

    name = "broken[red]"

    def encode_detailed(self, text: str, *, special_mode: str = "text") -> None:
        raise ValueError("no")


def as_text_lines(result: Comparison, width: int, label_width: int) -> list[Text]:
    """The oracle: each line a rich Text, the row's name bold and every segment appended styled."""
    lines: list[Text] = []
    for block in layout(result, width):
        marker = Text(" " * label_width)
        for seg, style in block.marker:
            marker.append(seg, style=SEGMENT_STYLES[style])
        lines.append(marker)
        for row, segs in zip(result.rows, block.rows, strict=True):
            line = safe_text(visible_text(row.name).ljust(label_width)[:label_width], "bold")
            if segs is None:
                line.append("(failed: see the error above)", style="red")
            else:
                for seg, style in segs:
                    line.append(seg, style=SEGMENT_STYLES[style])
            lines.append(line)
        lines.append(Text(""))
    return lines


def console(colour: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    system = "truecolor" if colour else None
    return Console(file=out, width=100, force_terminal=colour, color_system=system, highlight=False, soft_wrap=True), out


@pytest.mark.parametrize("colour", [True, False])
@pytest.mark.parametrize("text", TEXTS, ids=["short", "hostile", "long"])
def test_aligned_view_writes_the_same_bytes_as_rich_text_lines(text: str, colour: bool) -> None:
    rows = [CharacterTokenizer(), WhitespaceWordTokenizer(), load_reference("gpt2"), Broken()]
    result = compare(text, rows, special_mode="text")
    assert result.rows[-1].error is not None
    label_width = max(len(r.name) for r in result.rows) + 1
    slow, slow_out = console(colour)
    for line in as_text_lines(result, 60, label_width):
        slow.print(line, overflow="ignore", crop=False, no_wrap=True)
    fast, fast_out = console(colour)
    fast.print(AlignedView(result, 60, label_width), overflow="ignore", crop=False, no_wrap=True)
    assert fast_out.getvalue() == slow_out.getvalue()
    assert "\x1b[31m red" not in fast_out.getvalue()  # the text's own escape is shown, never sent

