"""The text layout of the comparison: rows aligned column for column, wrapped safely."""

from __future__ import annotations

from bpe_engine.compare import cell_text, cell_width, compare, layout, wrap_axis
from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
from tests.engine.test_inspect_fixtures import hand_tokenizer
from tests.fakes import TokenizerDouble


def _lines(block) -> list[str]:  # type: ignore[no-untyped-def]
    return ["".join(t for t, _ in segs) for segs in (block.marker, *block.rows) if segs is not None]


def test_rows_line_up_column_for_column_on_korean() -> None:
    c = compare("한국 a", [CharacterTokenizer(), WhitespaceWordTokenizer(), hand_tokenizer()])
    (b,) = layout(c, width=80)
    marker, chars, words, hand = _lines(b)
    assert chars == "│한│국│␣│a│"
    assert words == "│한 국│␣│a│"
    assert hand == "│한 국│␣│a│"  # 한국 is cut only inside characters: no boundary between them
    assert len({cell_width(x) for x in (marker, chars, words, hand)}) == 1
    hand_styles = [style for _, style in b.rows[2]]
    assert "split" in hand_styles  # both characters are divided between tokens
    assert marker.strip() == "▼"  # only offset 1 is disputed (characters cut, the others do not)


def test_controls_and_bidi_never_reach_the_layout_raw() -> None:
    text = "a\x1b[2J\u202eb\u200d\x9b\n"
    c = compare(text, [CharacterTokenizer()])
    out = "".join(t for b in layout(c, 80) for segs in (b.marker, *b.rows) if segs for t, _ in segs)
    assert not any(ch in out for ch in "\x1b\u202e\u200d\x9b\n")
    assert "␛" in out and "<RLO>" in out and "<ZWJ>" in out and "↵" in out


def test_wrapping_keeps_lines_within_width_and_breaks_after_newlines() -> None:
    text = "x" * 100 + "\n" + "한" * 30
    cuts = frozenset(range(len(text) + 1))
    lines = wrap_axis(text, cuts, 40)
    assert lines[0][0] == 0 and lines[-1][1] == len(text)
    assert all(a < b for a, b in lines) and all(b == c for (_, b), (c, _) in zip(lines, lines[1:]))
    assert any(end == 101 for _, end in lines)  # a line ends right after the newline
    for start, end in lines:
        used = sum(cell_width(cell_text(ch)) + 1 for ch in text[start:end]) + 1
        assert used <= 40


def test_empty_text_and_failed_rows() -> None:
    class Broken(TokenizerDouble):
        name = "broken"

        def encode_detailed(self, text: str, *, special_mode: str = "refuse") -> None:
            raise ValueError("nope")

    c = compare("", [CharacterTokenizer(), Broken()])  # type: ignore[list-item]
    (b,) = layout(c, 80)
    assert b.rows[1] is None and b.start == b.end == 0


def test_one_huge_line_is_wrapped_and_max_lines_limits_work() -> None:
    c = compare("word " * 2000, [CharacterTokenizer(), WhitespaceWordTokenizer()])
    blocks = layout(c, 100, max_lines=5)
    assert len(blocks) == 5 and blocks[0].start == 0 and blocks[1].start == blocks[0].end


def test_cell_text_and_width() -> None:
    assert cell_text(" ") == "␣" and cell_text("\u0301") == "◌\u0301" and cell_text("\t") == "⇥"
    assert cell_width("한") == 2 and cell_width("a") == 1 and cell_width("◌\u0301") == 1
