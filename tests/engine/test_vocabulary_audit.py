"""The vocabulary audit: Land & Bartolo's categories, the Magikarp GPT-2 figures, o200k_base's
unreachable tokens and why, Qwen 2.5's NFC casualties, and what a corpus uses."""

from __future__ import annotations

import doctest
import importlib
import threading
from typing import Any

import pytest

from bpe_engine.audit import CATEGORIES, PARTITION, AuditCancelled, audit_vocabulary, corpus_use, explain_unreachable
from bpe_engine.bpe.model import BpeTokenizer
from bpe_engine.catalog.openai import load_reference
from bpe_engine.metrics.encoded import plain_ids
from bpe_engine.metrics.vocabulary import vocabulary_ids
from bpe_engine.pretokenizers import WHITESPACE, custom
from bpe_engine.registry import load_tokenizer

# o200k_base's tokens its own encoder never gives from their text (all cut by its regex).
O200K_UNREACHABLE = (3413, 3914, 24091, 48235, 63100, 65447, 99494, 125141, 147008, 175653, 182292, 193819)


@pytest.mark.parametrize("module", ["metrics.vocabulary", "metrics.encoded"])
def test_module_doctests(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(f"bpe_engine.{module}"), verbose=False)
    assert tried > 0 and failures == 0


def test_gpt2_figures_of_the_magikarp_report() -> None:
    tok = load_reference("gpt2")
    audit = audit_vocabulary(tok)
    counts = audit.counts
    assert list(counts) == list(CATEGORIES)
    assert (counts["single_byte"], counts["special"], counts["utf8_fragment"]) == (256, 1, 216)
    assert counts["unreachable_single"] == counts["unreachable_multi"] == 0
    assert sum(counts[c] for c in PARTITION) == audit.vocab_size == 50257
    seen = [i for c in PARTITION for i in audit.ids[c]]
    assert sorted(seen) == list(range(50257))  # a partition: each id once
    assert set(audit.ids["utf8_fragment"]) <= set(audit.ids["undecodable"])
    assert audit.ids["special"] == (50256,)
    assert 4210 in audit.ids["ok"]  # '�' spelled by its own bytes is text like any other, not undecodable
    assert audit.category_of(31373) == "ok" and audit.category_of(128) == "undecodable"


def test_o200k_tokens_its_encoder_never_gives_and_why() -> None:
    tok = load_reference("o200k_base")
    audit = audit_vocabulary(tok)
    assert audit.ids["unreachable_multi"] == O200K_UNREACHABLE and audit.ids["unreachable_single"] == ()
    assert audit.vocab_size == 200_000 and audit.ids["special"] == (199999, 200018)
    newline = explain_unreachable(tok, 3914, audit.encodes_to[3914])
    assert newline.text == "\n//" and newline.stage == "pre-tokenizer" and newline.pieces == ("\n", "//")
    assert newline.context is None  # no probe makes it: a newline is always a piece of its own before //
    apostrophe = explain_unreachable(tok, 3413, audit.encodes_to[3413])
    assert apostrophe.text == " I'" and apostrophe.pieces == (" I", "'") and "cuts its text into ' I' + \"'\"" in apostrophe.reason
    inside = explain_unreachable(tok, 193819, audit.encodes_to[193819])
    assert inside.text == "亚洲AV" and inside.pieces == ("亚洲", "AV")
    assert inside.context is not None and 193819 in tok.encode(inside.context)  # made inside a longer piece
    for token_id in O200K_UNREACHABLE:
        assert tok.encode(tok.decode([token_id])) == list(audit.encodes_to[token_id]) != [token_id]


def test_a_merge_order_that_never_reaches_a_token() -> None:
    """abc is in the vocabulary, but a+b merges first and ab+c is no merge: "abc" encodes as ab, c."""
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    merges = [("a", "b"), ("b", "c"), ("a", "bc")]
    tok = BpeTokenizer(name="hand", vocab=vocab, merges=merges, pre_tokenizer=custom(r"\S+"), byte_level=False)
    audit = audit_vocabulary(tok)
    assert audit.ids["unreachable_multi"] == (5,) and audit.encodes_to[5] == (3, 2)
    why = explain_unreachable(tok, 5, audit.encodes_to[5])
    assert why.stage == "merges" and why.pieces == ("abc",) and "the merges build 'ab' + 'c'" in why.reason
    assert any("cannot start a text" in n for n in audit.notes)
    marked = BpeTokenizer(name="marked", vocab=vocab, merges=merges, pre_tokenizer=WHITESPACE, byte_level=False)
    audit = audit_vocabulary(marked)  # '▁' is no symbol of this vocabulary: unknown pieces, no error
    assert audit.counts["unreachable_multi"] == 6 and audit.encodes_to[0] == (-1, 0)
    assert explain_unreachable(marked, 0, audit.encodes_to[0]).stage == "encoder"  # a ▁ style is no regex to ask


def test_qwen25_tokens_nfc_rewrites(builtin_model_path: Any) -> None:
    builtin_model_path("qwen2.5")
    tok = load_tokenizer("qwen2.5")
    audit = audit_vocabulary(tok)
    assert audit.counts["unreachable_single"] == 190 and audit.counts["unreachable_multi"] == 1719
    why = explain_unreachable(tok, 132515, audit.encodes_to[132515])
    assert why.text == "e\u0302\u0301".replace("e\u0302", "\u00ea") and why.stage == "normalizer"
    assert "U+00EA U+0301" in why.reason and "U+1EBF" in why.reason
    thai = explain_unreachable(tok, 123828, audit.encodes_to[123828])
    assert thai.stage == "pre-tokenizer" and thai.pieces == ("ท", "ี่")
    stages = {explain_unreachable(tok, i, audit.encodes_to[i]).stage for i in audit.ids["unreachable_single"]}
    assert stages == {"normalizer"}  # every single-token casualty is NFC's


def test_special_and_unknown_tokens_are_special() -> None:
    tok = load_tokenizer("bert-base-uncased")
    audit = audit_vocabulary(tok)
    assert tok.unk_id in audit.ids["special"] and audit.counts["special"] == 5
    assert audit.counts["utf8_fragment"] == 0


def test_cancel_stops_the_walk() -> None:
    cancel = threading.Event()
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done >= 8192:
            cancel.set()

    with pytest.raises(AuditCancelled, match="cancelled after 12,288 of 50,257"):
        audit_vocabulary(load_reference("gpt2"), progress=progress, cancel=cancel)
    assert seen == [0, 4096, 8192]


def test_corpus_use_never_used_only_inside_and_growth() -> None:
    tok = load_reference("gpt2")
    text = "".join(f"line {n}: the fortune of the fortunate\n" for n in range(2000))
    use = corpus_use(tok, [text, "Fortune\n"])
    assert use.characters == len(text) + 8 and use.tokens == len(plain_ids(tok, text)) + len(plain_ids(tok, "Fortune\n"))
    assert use.vocabulary == 50256 and use.used == len({i for i in use.frequencies if i != 50256})
    assert len(use.never_used) == use.vocabulary - use.used and 262 not in use.never_used  # " the"
    fortune = tok.encode(" fortune")
    assert fortune == [15807] and tok.encode("ort") == [419]
    assert 419 in use.never_used and 419 in use.only_inside  # "ort" only ever inside " fortune"
    assert set(use.only_inside) <= set(use.never_used)
    assert len(use.growth) > 10 and use.growth[-1].characters == use.characters and use.growth[-1].tokens == use.tokens
    assert [g.distinct for g in use.growth] == sorted(g.distinct for g in use.growth)
    assert use.growth[-1].distinct == use.used


def test_vocabulary_ids_skip_holes() -> None:
    ids = vocabulary_ids(load_reference("cl100k_base"))
    assert len(ids) == 100_261 and 100256 not in ids and ids[-1] == 100276
