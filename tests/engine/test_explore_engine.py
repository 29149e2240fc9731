"""Engine data behind the explorer's Compare/Inspect features:
graphemes beside code points, a row against a baseline row, one token's span across every row,
the pointer's column -> character map, the plain coloured text view, and "why this token" for
BPE, SentencePiece BPE (byte fallback), Unigram (n-best) and HF pipelines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bpe_engine.catalog.openai import load_reference
from bpe_engine.compare import compare, text_view
from bpe_engine.compare.baselines import CharacterTokenizer, WhitespaceWordTokenizer
from bpe_engine.compare.layout import all_cuts, block, block_columns, cell_width, wrap_axis
from bpe_engine.compare.spans import covering, step, token_at
from bpe_engine.compare.stats import relative_cost
from bpe_engine.compare.text_view import ids_text
from bpe_engine.inspect.why import N_BEST, explain
from bpe_engine.registry import load_tokenizer

FAMILY = "👩\u200d👩\u200d👧"


def test_graphemes_are_counted_beside_code_points() -> None:
    text = f"한국 {FAMILY} e\u0301\r\n"
    result = compare(text, [CharacterTokenizer(), load_reference("gpt2")])
    chars, gpt2 = (row.stats for row in result.rows)
    assert chars is not None and gpt2 is not None
    assert chars.chars == len(text) == 13
    # 한 국 ␣ family ␣ é \r\n: the family is 1 grapheme of 5 code points, e + accent 1 of 2, CRLF 1 of 2
    assert chars.graphemes == gpt2.graphemes == 7
    assert gpt2.graphemes_per_token == pytest.approx(7 / gpt2.tokens)
    assert gpt2.as_dict()["graphemes"] == 7
    only_family = compare(FAMILY, [CharacterTokenizer()]).rows[0].stats
    assert only_family is not None and (only_family.chars, only_family.graphemes) == (5, 1)


def test_relative_cost_against_a_baseline_row() -> None:
    result = compare("대한민국은 민주공화국이다.", [load_reference("gpt2"), load_reference("o200k_base")])
    gpt2, o200k = (row.stats for row in result.rows)
    cost = relative_cost(gpt2, o200k)
    assert cost is not None and gpt2 is not None and o200k is not None
    assert cost.tokens == gpt2.tokens and cost.baseline_tokens == o200k.tokens
    assert cost.ratio == pytest.approx(gpt2.tokens / o200k.tokens) and cost.ratio > 1.5  # the Korean premium
    assert cost.label() == f"×{gpt2.tokens / o200k.tokens:.2f} (+{gpt2.tokens - o200k.tokens})"
    assert relative_cost(gpt2, None) is None
    assert relative_cost(o200k, o200k).label() == "×1.00 (+0)"  # type: ignore[union-attr]


def test_one_tokens_span_across_every_row() -> None:
    text = "ab 한국"
    result = compare(text, [CharacterTokenizer(), WhitespaceWordTokenizer(), load_reference("gpt2")])
    word = token_at(result, 1, 4)  # the word 한국 in the words row
    assert word is not None and word.chars == (3, 5) and word.form == "한국"
    cov = covering(result, word.chars)
    assert cov[0].tokens == (3, 4)  # two characters
    assert cov[1].tokens == (1,)
    gpt2_tokens = cov[2].tokens
    assert gpt2_tokens is not None and len(gpt2_tokens) >= 3  # 한 and 국 are split into bytes in gpt2
    enc = result.rows[2].encoding
    assert enc is not None and cov[2].ids == tuple(enc.ids[t] for t in gpt2_tokens)
    # a character split between tokens belongs to its first token; the next token starts inside it
    first = token_at(result, 2, 3)
    assert first is not None and first.chars[0] <= 3 < first.chars[1]
    nxt = step(result, 2, first.token, 1)
    assert nxt is not None and nxt.token > first.token
    assert step(result, 2, 0, -1).token == 0  # type: ignore[union-attr]  # clamped at the start
    assert token_at(result, 1, 2) is None  # the space: no word token covers it
    assert token_at(result, 9, 0) is None and token_at(result, 0, 99) is None


def test_block_columns_map_every_cell_of_every_row_to_its_character() -> None:
    text = f"a 한{FAMILY}\u202eb"
    result = compare(text, [CharacterTokenizer(), load_reference("gpt2")])
    cuts = all_cuts(result)
    for start, end in wrap_axis(result.text, cuts, 14):
        cols = block_columns(result.text, start, end, cuts)
        blk = block(result, start, end, cuts)
        for segs in blk.rows:
            assert segs is not None
            assert sum(cell_width(t) for t, _ in segs) == len(cols)
        assert {c for c in cols if c >= 0} == set(range(start, end))
        assert cols[0] == -1 or cols[0] == start


def test_plain_text_view_modes_and_hostile_text() -> None:
    text = "hi 한\x1b[2J\u202e\n!"
    result = compare(text, [load_reference("gpt2")])
    row = result.rows[0]
    enc = row.encoding
    assert enc is not None and row.alignment is not None
    lines = text_view.text_view(enc, row.alignment, "text", 40)
    shown = ["".join(p.text for p in line) for line in lines]
    assert shown == ["hi 한␛[2J<RLO>↵", "!"]  # the newline ends the line; escape and bidi are visible
    assert not any("\x1b" in s or "\u202e" in s for s in shown)
    han = next(p for line in lines for p in line if p.text == "한")
    assert han.style == "split" and han.chars == (3, 4)  # gpt2 splits 한 into bytes
    ids = text_view.text_view(enc, row.alignment, "ids", 200)
    tokens = [p for p in ids[0] if p.token >= 0]
    assert [int(p.text) for p in tokens] == list(enc.ids)
    assert {p.style for p in tokens} <= {"tok0", "tok1"}
    hexed = text_view.text_view(enc, row.alignment, "bytes", 200)
    joined = " ".join(p.text for p in hexed[0] if p.token >= 0)
    assert joined == text.encode().hex(" ").upper()
    assert ids_text(enc) == "[" + ", ".join(map(str, enc.ids)) + "]"
    narrow = text_view.text_view(enc, row.alignment, "bytes", 10)
    assert all(sum(p.cells for p in line) <= 10 for line in narrow) and len(narrow) > 3


# -- why this token ---------------------------------------------------------------------------------
Loader = Callable[[str], Path]


def _load(builtin_model_path: Loader, name: str):  # noqa: ANN202
    builtin_model_path(name)  # fails with the fetch command when the built-in is absent
    return load_tokenizer(name)


def test_why_unigram_gives_the_best_segmentation_and_its_rivals(builtin_model_path: Loader) -> None:
    tok = _load(builtin_model_path, "sp-unigram-en")
    enc = tok.encode_detailed("Hello tokenization", special_mode="text")
    w = explain(tok, enc, 0)
    assert w.tree is None and w.unigram is not None
    best = w.unigram.best
    assert tuple(p.piece for p in best.pieces) == enc.tokens[:3]  # the word holding token 0: ▁He ll o
    assert best.score == pytest.approx(sum(p.score for p in best.pieces))
    alts = w.unigram.alternatives
    assert 1 <= len(alts) <= N_BEST
    assert all(a.score <= best.score for a in alts) and list(alts) == sorted(alts, key=lambda a: -a.score)
    assert w.unigram.margin == pytest.approx(best.score - alts[0].score) and w.unigram.margin > 0


def test_why_sentencepiece_bpe_tree_and_byte_fallback(builtin_model_path: Loader) -> None:
    tok = _load(builtin_model_path, "mistral-v1")
    enc = tok.encode_detailed("Hello 𝄞", special_mode="text")
    hello = explain(tok, enc, 0)
    assert hello.tree is not None and hello.tree.kind == "merge" and hello.tree.data == b" Hello"
    assert b"".join(leaf.data for leaf in hello.tree.leaves()) == b" Hello"
    byte = explain(tok, enc, enc.tokens.index("<0xF0>"))
    assert byte.tree is not None and byte.tree.kind == "base" and byte.tree.data == b"\xf0"


def test_why_hf_pipeline_shows_its_stages(builtin_model_path: Loader) -> None:
    tok = _load(builtin_model_path, "claude-legacy")
    text = "Héllo ﬁ\u202e"
    enc = tok.encode_detailed(text, special_mode="text")
    fi = next(i for i, t in enumerate(enc.tokens) if t.endswith("fi"))
    w = explain(tok, enc, fi)
    assert w.tree is not None  # a BPE pipeline: the merge tree too
    names = [s.name for s in w.stages]
    assert names == ["normalized", "pre-tokenized"]
    normalized = "".join(p.text for p in w.stages[0].parts)
    assert "fi" in normalized and "ﬁ" not in normalized and "<RLO>" in normalized  # NFKC, shown safely
    held = [p.text for p in w.stages[1].parts if p.holds]
    assert held == ["␣fi"]
    assert explain(load_reference("gpt2"), load_reference("gpt2").encode_detailed("a"), 0).stages == ()


def test_why_wordpiece_and_baselines_say_why_there_is_no_tree() -> None:
    chars = CharacterTokenizer()
    w = explain(chars, chars.encode_detailed("ab"), 0)
    assert w.tree is None and w.unigram is None and "baseline" in w.note
    assert explain(chars, chars.encode_detailed("ab"), 5).note == "no token selected"


def test_sentencepiece_bpe_why_names_the_piece_score(builtin_model_path) -> None:  # noqa: ANN001
    from bpe_engine.sentencepiece import load_model

    tok = load_model(builtin_model_path("mistral-v1"))
    enc = tok.encode_detailed("Hello", special_mode="text")
    w = explain(tok, enc, 0)
    assert w.tree is not None and w.tree.children and f"this piece: {tok.model.scores[enc.ids[0]]:g}" in w.note
    gpt2 = load_reference("gpt2")
    assert explain(gpt2, gpt2.encode_detailed("Hello"), 0).note == ""  # a real merge list needs no story
