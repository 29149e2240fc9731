"""PickyBPE against ``pickybpe-bauwenst`` 1.3.1: the same merges, splits and restores in the same
order, and the same final vocabulary (tests/picky_reference.py says what the tests change in it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bpe_engine.training.picky import PickyConfig, PickyTraining
from tests.oracles import require
from tests.picky_reference import Fixed, Ordered, events_of_ours, run_fixed_unasserted, run_reference

pickybpe = require("pickybpe.vocabularisation")


def ours(text: str, vocab_size: int, tau: float = 0.9) -> PickyTraining:
    training = PickyTraining([text], PickyConfig(vocab_size=vocab_size, tau=tau), workers=1)
    list(training.steps())
    return training


@pytest.mark.parametrize("vocab_size", [1000, 3000])
def test_same_events_as_the_mended_reference_on_alice(alice_text: str, tmp_path: Path, vocab_size: int) -> None:
    expected, vocab = run_fixed_unasserted(alice_text, vocab_size, tmp_path)
    training = ours(alice_text, vocab_size)
    got = events_of_ours(training.events)
    assert got == expected
    assert training.final_vocab() == vocab and len(vocab) == vocab_size
    kinds = {e.kind for e in training.events}
    assert kinds == {"merge", "split", "restore"}  # all three happen on this corpus


def test_same_events_as_the_mended_reference_on_korean(korean_text: str, tmp_path: Path) -> None:
    expected, vocab = run_fixed_unasserted(korean_text, 1500, tmp_path)
    training = ours(korean_text, 1500)
    assert events_of_ours(training.events) == expected and training.final_vocab() == vocab
    assert any(e.kind == "split" for e in training.events)


words = st.text(alphabet="abcab ", min_size=1, max_size=9)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(words, min_size=1, max_size=12),
    extra=st.integers(min_value=1, max_value=25),  # at 0 1.3.1 still merges once (its loop tests the size after)
    tau=st.sampled_from([0.5, 0.75, 0.9, 1.0]),
)
def test_same_events_as_the_mended_reference_on_small_corpora(tmp_path: Path, lines: list[str], extra: int, tau: float) -> None:
    text = "\n".join(lines)
    assume(text.split())
    size = PickyTraining([text], PickyConfig(vocab_size=1), workers=1).initial_size + extra
    expected, vocab, error = run_reference(Fixed, text, size, tmp_path, tau)
    assume(error is None)  # its asserts compare drifting counts; the -O runs above cover those
    training = ours(text, size, tau)
    assert events_of_ours(training.events) == expected
    assert training.final_vocab() == vocab


def test_the_reference_stops_where_its_removal_rewrote_no_word(alice_text: str, tmp_path: Path) -> None:
    # Unmended 1.3.1: Token.remove() zeroes the frequency and word set before they are read, so "▁y"
    # stays in its words after its removal, and the first merge of one of its pairs asserts.
    events, vocab, error = run_reference(pickybpe.PickyBPETrainer, alice_text, 1000, tmp_path)
    assert error is not None and "was already absent in the vocabulary" in error and "▁y" in error
    training = ours(alice_text, 1000)
    assert len(training.final_vocab()) == 1000
    removed = next(e for e in training.events if e.kind == "split" and e.token == "▁y")
    assert removed.left > 0 and removed.words_changed > 0  # ours rewrote the words it still stood in


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(counts=st.dictionaries(st.text(alphabet="abcdeé", min_size=2, max_size=7), st.integers(1, 400), min_size=5, max_size=30))
def test_the_unpatched_reference_agrees_before_a_tie_or_its_removal_bug(tmp_path: Path, counts: dict[str, int]) -> None:
    # 1.3.1 as it is: its heap order decides ties and set order the order of two splits, and its
    # removal leaves the occurrences a token still had in the words. Up to the first event where any
    # of those could matter, its events are ours.
    text = "\n".join(" ".join([word] * n) for word, n in counts.items())
    training = ours(text, 80)
    got = events_of_ours(training.events)
    cut = len(got)
    for k, e in enumerate(training.events):
        if e.kind != "split" and e.why.is_tie:
            cut = k
            break
        if e.kind == "split" and (e.left > 0 or training.events[k - 1].kind == "split"):
            cut = k + (e.left > 0)  # the removal itself is still the same; what follows may not be
            break
    assume(cut >= 3)
    expected, _, _ = run_reference(pickybpe.PickyBPETrainer, text, 80, tmp_path)
    assert expected[:cut] == got[:cut]
    if cut == len(got):
        assert expected == got


def test_the_reference_given_only_our_order_agrees_until_its_removal_bug_bites(alice_text: str, tmp_path: Path) -> None:
    # 1.3.1 unmended, with the total order alone: the same events up to the first removal of a token
    # that still occurs on its own (ours rewrites those words, 1.3.1 leaves them), then it drifts off
    training = ours(alice_text, 1000)
    got = events_of_ours(training.events)
    bite = next(e.rank for e in training.events if e.kind == "split" and e.left > 0)
    expected, _, error = run_reference(Ordered, alice_text, 1000, tmp_path)
    first_difference = next(i for i, (a, b) in enumerate(zip(expected, got)) if a != b)
    assert first_difference > bite  # here: the first such removal is event 56, they part at 376
    assert error is not None and "was already absent" in error


def test_encodes_every_word_as_the_reference_segmenter(alice_text: str, tmp_path: Path) -> None:
    # 1.3.1's PickyBPESegmenter on its own model file: the earliest applicable event, again and again
    from pickybpe.segmentation import PickyBPESegmenter

    model = tmp_path / "model.json"
    run_fixed_unasserted(alice_text, 2000, tmp_path, dump=model)
    segmenter = PickyBPESegmenter.from_pretrained(model)
    tokenizer = ours(alice_text, 2000).tokenizer()
    words = sorted(set(alice_text.split())) + ["unseen", "Alicexyz", "ééé", "Kentucky", "#@!"]
    for word in words:
        if any(ch not in segmenter.str2token for ch in word):
            continue  # its from_pretrained gives the segmenter no [UNK]: an unknown character is a KeyError there
        expected = [t.str for t in segmenter._encode_word_by_events("▁" + word)]
        got = [tokenizer.token_str(i) for i in tokenizer.encode(word)]
        assert got == expected, word
    assert [tokenizer.token_str(i) for i in tokenizer.encode("a\x1ab")] == ["▁a", "[UNK]", "b"]  # dropped by the coverage
    line = "Alice was beginning to get very tired"
    ids = tokenizer.encode(line)
    assert tokenizer.decode(ids) == line
    # 1.3.1's file numbers its tokens with one gap per character the coverage dropped (its str2token is
    # a defaultdict that gains an [UNK] entry for each, and id2int enumerates them all); closed up, they are ours
    compact = {v: i for i, v in enumerate(sorted(set(segmenter.id2int.values())))}
    assert len(compact) == tokenizer.vocab_size == 2000
    expected_ids = [compact[segmenter.id2int[str(t.id)]] for w in line.split() for t in segmenter._encode_word_by_events("▁" + w)]
    assert expected_ids == ids


def test_saves_files_hf_loads_with_our_ids(alice_text: str, tmp_path: Path) -> None:
    import json

    from bpe_engine.training.picky.files import read_picky_json, write_files
    from bpe_engine.training.picky.model import PickyTokenizer

    tokenizers = require("tokenizers")
    training = ours(alice_text[:120_000], 2000)
    write_files(training.model_state("alice-picky"), tmp_path)
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    tokenizer = training.tokenizer()
    assert hf.get_vocab() == tokenizer.vocab and hf.get_vocab_size() == 2000
    held = alice_text[120_000:]
    back = PickyTokenizer(read_picky_json(json.loads((tmp_path / "picky.json").read_text(encoding="utf-8"))))
    assert back.encode(held) == tokenizer.encode(held)  # our file: exact
    words = set(held.split())
    same = sum(tokenizer.encode(w) == hf.encode(w).ids for w in words)
    assert same > 0.9 * len(words)  # HF's BPE cannot split: most words, not all (files.py says why)
