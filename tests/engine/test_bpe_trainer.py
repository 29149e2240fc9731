"""The incremental BPE trainer: goldens, id rules, notes and edge cases (the words core: test_words.py)."""

from __future__ import annotations

import random

import pytest

from bpe_engine.bpe.byte_table import BYTE_ALPHABET
from bpe_engine.corpus import Document, WordCounts
from bpe_engine.errors import ConfigError, CorpusError
from bpe_engine.pretokenizers import END_OF_WORD, GPT2, NONE, WHITESPACE
from bpe_engine.training.bpe import BpeTrainerConfig, BpeTraining, train
from bpe_engine.training.naive_bpe import train_naive


def chars(vocab_size: int, **kw) -> BpeTrainerConfig:
    return BpeTrainerConfig(vocab_size=vocab_size, byte_level=False, pre_tokenizer=kw.pop("pre_tokenizer", NONE), **kw)


def pairs(training_or_steps) -> list[tuple[str, str]]:
    return [(s.left, s.right) for s in training_or_steps]


# -- goldens ------------------------------------------------------------------------------------
def test_minbpe_golden_first_seen() -> None:
    # minbpe's test: "aaabdaaabac", 3 merges -> aa, aaa, aaab (encodes to [258, 100, 258, 97, 99])
    wc = WordCounts({"aaabdaaabac": 1}, byte_level=False)
    training = BpeTraining(wc, chars(4 + 3, tie_break="first-seen"))  # alphabet a b c d
    assert pairs(training.steps()) == [("a", "a"), ("aa", "a"), ("aaa", "b")]
    assert training.vocab == {"a": 0, "b": 1, "c": 2, "d": 3, "aa": 4, "aaa": 5, "aaab": 6}


LOW_WIDEST = {"low": 5, "lower": 2, "widest": 3, "newest": 6}
"""The example of Stanford CS336's BPE assignment (2025), whose reference breaks ties with ``max()``."""


@pytest.mark.parametrize(
    ("rule", "merges"),
    [
        # the handout's own list: (s, t) beats (e, s) at 9, (o, w) beats (l, o) at 7, ...
        ("greatest", "s t|e st|o w|l ow|w est|n e|ne west|w i|wi d|wid est|low e|lowe r"),
        ("hf", "e s|es t|l o|lo w|e w|n ew|new est|d est|i dest|w idest|e r|low er"),
        ("lexicographic", "e s|es t|l o|lo w|e w|ew est|n ewest|d est|i dest|w idest|e r|low er"),
        ("first-seen", "e s|es t|l o|lo w|n e|ne w|new est|w i|wi d|wid est|low e|lowe r"),
    ],
)
def test_every_tie_break_rule_golden(rule: str, merges: str) -> None:
    wc = WordCounts(LOW_WIDEST, byte_level=False)
    config = chars(10 + 12, tie_break=rule)  # alphabet d e i l n o r s t w, 12 merges
    expected = [tuple(m.split(" ")) for m in merges.split("|")]
    assert pairs(BpeTraining(wc, config).steps()) == expected
    assert pairs(train_naive(wc, config)) == expected


def test_greatest_compares_whole_byte_strings_and_ranks_a_prefix_first() -> None:
    # after "ab", (ab, c) and (a, z) tie at 1: by bytes b"ab" > b"a", so greatest takes (ab, c)
    # although "z" > "c"; lexicographic takes (a, z)
    wc = WordCounts({"ab": 5, "abc": 1, "az": 1}, byte_level=False)
    for rule, second in (("greatest", ("ab", "c")), ("lexicographic", ("a", "z"))):
        config = chars(4 + 2, tie_break=rule)
        assert pairs(BpeTraining(wc, config).steps()) == [("a", "b"), second] == pairs(train_naive(wc, config))


def test_hf_roses_golden_with_min_frequency() -> None:
    # HF tokenizers' trainer.rs test_train: min_frequency 2 -> re, are, is
    counts = {"roses": 1, "are": 2, "red": 1, "voilets": 1, "blue": 1, "BERT": 1, "is": 2, "big": 1, "and": 1,
              "so": 1, "GPT-2": 1}
    training = BpeTraining(WordCounts(counts, byte_level=False), chars(30000, min_frequency=2))
    steps = list(training.steps())
    assert [(s.left_id, s.right_id, s.new_id) for s in steps] == [(17, 11, 22), (8, 22, 23), (13, 18, 24)]
    expected = "- 2 B E G P R T a b d e g i l n o r s t u v re are is".split()
    assert training.vocab == {tok: i for i, tok in enumerate(expected)}
    assert any("below the minimum frequency 2" in note for note in training.notes)


def test_hf_max_token_length_golden() -> None:
    # HF tokenizers' trainer.rs bpe_test_max_token_length_direct_assert (max_token_length 2)
    words = ["sin", "Sin", "Lon", "Ano", "짧은한", "긴한글", "短字符", "长字符", "短い文", "長い文", "so", "GP"]
    training = BpeTraining(WordCounts({w: 2 for w in words}, byte_level=False), chars(30000, max_token_length=2))
    list(training.steps())
    expected = {"短": 12, "n": 6, "i": 5, "s": 8, "字符": 23, "長": 14, "긴": 17, "い文": 22, "L": 2, "in": 21, "o": 7,
                "은한": 29, "S": 4, "P": 3, "so": 27, "符": 13, "文": 11, "字": 10, "짧": 19, "GP": 25, "글": 16, "G": 1,
                "An": 24, "长": 15, "A": 0, "Lo": 26, "긴한": 28, "い": 9, "한": 20, "은": 18}
    assert training.vocab == expected


# -- ids, steps, notes --------------------------------------------------------------------------
def test_ids_specials_then_alphabet_then_merges() -> None:
    cfg = BpeTrainerConfig(vocab_size=260, special_tokens=("<|endoftext|>", "<pad>"))
    training = BpeTraining(["hello hello"], cfg, workers=1)
    vocab = training.vocab
    assert vocab["<|endoftext|>"] == 0 and vocab["<pad>"] == 1
    assert [vocab[ch] for ch in BYTE_ALPHABET] == list(range(2, 258))
    assert vocab["!"] == 2 and vocab["Ġ"] == 2 + 220  # GPT-2 rank order of single bytes, shifted by 2
    steps = list(training.steps())
    assert [s.new_id for s in steps] == [258, 259] and len(training.vocab) == 260


def test_initial_alphabet_seen_and_char_level_alphabet_sorted() -> None:
    seen = BpeTraining(["ba"], BpeTrainerConfig(vocab_size=1, initial_alphabet="seen"), workers=1)
    assert seen.alphabet == ("a", "b")
    char = BpeTraining(["한 b a"], chars(1, pre_tokenizer=GPT2), workers=1)
    assert char.alphabet == (" ", "a", "b", "한")


def test_limit_alphabet_keeps_the_most_frequent_and_skips_the_rest() -> None:
    wc = WordCounts({"aab": 3, "abz": 1, "y": 1}, byte_level=False)
    training = BpeTraining(wc, chars(10, limit_alphabet=2))
    assert training.alphabet == ("a", "b")  # z and y (count 1 each) dropped
    assert pairs(training.steps()) == [("a", "b"), ("a", "ab")]  # "abz" is trained as "ab"
    assert any("limit_alphabet 2" in n for n in training.notes)


def test_end_of_word_suffix_is_glued_to_the_last_character() -> None:
    wc = WordCounts({"low": 5, "lower": 2, "newest": 6, "widest": 3}, byte_level=False)
    training = BpeTraining(wc, chars(100, pre_tokenizer=END_OF_WORD))
    vocab = training.vocab
    assert "w</w>" in vocab and "t</w>" in vocab and "r</w>" in vocab
    assert max(vocab[c] for c in training.alphabet) < vocab["r</w>"] < vocab["t</w>"] < vocab["w</w>"]
    merged = [s.new for s in training.steps()]
    assert "est</w>" in merged and "low</w>" in merged
    assert all(not tok.endswith("</w>") or tok.count("</w>") == 1 for tok in training.vocab)


def test_sentencepiece_marker_is_just_a_character() -> None:
    training = BpeTraining(["the cat the hat"], chars(40, pre_tokenizer=WHITESPACE), workers=1)
    assert "▁" in training.alphabet
    assert "▁the" in [s.new for s in training.steps()]


def test_id_is_reused_when_a_merge_yields_a_known_string() -> None:
    # A special token spelled like a merge result: HF reuses its id and the vocabulary stays put.
    wc = WordCounts({"abab": 3, "cd": 1}, byte_level=False)
    for tb in ("hf", "lexicographic", "greatest", "first-seen"):
        training = BpeTraining(wc, chars(7, special_tokens=("ab",), tie_break=tb))
        steps = list(training.steps())
        assert [(s.new, s.new_id) for s in steps] == [("ab", 0), ("abab", 5), ("cd", 6)]
        assert len(training.vocab) == 7
        assert steps == train_naive(wc, chars(7, special_tokens=("ab",), tie_break=tb))


def test_steps_can_stop_and_resume_and_count_occurrences() -> None:
    training = BpeTraining(WordCounts({"aaa": 2, "aab": 1}, byte_level=False), chars(5))
    it = training.steps()
    first = next(it)
    assert (first.new, first.count, first.words_changed, first.occurrences) == ("aa", 5, 2, 3)
    assert training.merges == [("a", "a")] and training.target_merges == 3  # 5 - alphabet {a, b}
    rest = list(training.steps())
    assert [(s.rank, s.new, s.count) for s in rest] == [(1, "aaa", 2), (2, "aab", 1)] and training.finished


def test_notes_for_empty_corpus_and_small_vocab() -> None:
    empty = BpeTraining([], BpeTrainerConfig(vocab_size=1000), workers=1)
    assert list(empty.steps()) == [] and len(empty.vocab) == 256
    assert "empty corpus: the vocabulary is the alphabet only" in empty.notes
    small = BpeTraining(["hello"], BpeTrainerConfig(vocab_size=100, special_tokens=("<a>", "<b>")), workers=1)
    assert list(small.steps()) == []
    assert "vocab_size 100 is below alphabet + specials (258): the vocabulary has 258 tokens" in small.notes


def test_no_pair_left_is_noted() -> None:
    training = BpeTraining(WordCounts({"ab": 1}, byte_level=False), chars(50))
    assert len(list(training.steps())) == 1
    assert any(n.startswith("no pair left after 1 merges") for n in training.notes)


def test_config_errors_say_what_to_fix() -> None:
    with pytest.raises(ConfigError, match="tie-break"):
        BpeTrainerConfig(vocab_size=10, tie_break="random")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="limit_alphabet"):
        BpeTrainerConfig(vocab_size=10, limit_alphabet=5)
    with pytest.raises(ConfigError, match="vocabulary size must be between 1 and 1,000,000") as refused:
        BpeTrainerConfig(vocab_size=-1)
    assert refused.value.field == "vocab_size"
    with pytest.raises(ConfigError, match="minimum frequency") as refused:
        BpeTrainerConfig(vocab_size=10, min_frequency=-1)
    assert refused.value.field == "min_frequency"
    with pytest.raises(ConfigError, match="byte_level"):
        BpeTraining(WordCounts({"a": 1}, byte_level=False), BpeTrainerConfig(vocab_size=10))


# -- edge cases ---------------------------------------------------------------------------------
def test_pair_counts_beyond_2_31() -> None:
    wc = WordCounts({"ab": 3_000_000_000, "abc": 3_000_000_000, "c": 1}, byte_level=False)
    steps = list(BpeTraining(wc, chars(10)).steps())
    assert [(s.new, s.count, s.occurrences) for s in steps] == [("ab", 6_000_000_000, 6_000_000_000),
                                                                  ("abc", 3_000_000_000, 3_000_000_000)]
    assert steps == train_naive(wc, chars(10))


def test_one_enormous_word() -> None:
    rng = random.Random(7)
    word = "".join(rng.choice("abcd") for _ in range(200_000))
    training = BpeTraining(WordCounts({word: 1}, byte_level=False), chars(4 + 40))
    steps = list(training.steps())
    assert len(steps) == 40
    assert all(a.count >= b.count for a, b in zip(steps, steps[1:]))  # the best count never grows
    # re-encoding the word by the merges undoes exactly the fused occurrences
    assert len(word) - len(training.tokenizer().encode(word)) == sum(s.occurrences for s in steps)
    small = WordCounts({word[:20_000]: 1}, byte_level=False)
    assert list(BpeTraining(small, chars(4 + 40)).steps()) == train_naive(small, chars(4 + 40))
    periodic = WordCounts({"ab" * 100_000: 1}, byte_level=False)
    news = [s.new for s in BpeTraining(periodic, chars(2 + 10)).steps()]
    assert news[:3] == ["ab", "abab", "abababab"]


def test_invalid_utf8_byte_level_trains_on_the_bytes() -> None:
    doc = Document("bad.bin", b"\xff\xfe\xff\xfe ok \xff\xfe")
    result = train([doc], BpeTrainerConfig(vocab_size=257), workers=1)
    assert result.steps[0].new == "ÿþ"  # bytes FF FE in the GPT-2 alphabet


def test_invalid_utf8_char_level_names_the_offset() -> None:
    with pytest.raises(CorpusError, match=r"bad\.txt, byte offset 3"):
        BpeTraining([Document("bad.txt", b"abc\xffdef")], chars(10), workers=1)


# -- tokenizer ----------------------------------------------------------------------------------
def test_tokenizer_from_the_merges_so_far(alice_text: str) -> None:
    training = BpeTraining([alice_text[:20_000]], BpeTrainerConfig(vocab_size=400), workers=1)
    it = training.steps()
    for _ in range(50):
        next(it)
    early = training.tokenizer()
    list(it)
    full = training.tokenizer()
    text = "Alice was beginning to get very tired, 한국어 ✓"
    assert full.decode(full.encode(text)) == text
    assert len(full.encode(text)) < len(early.encode(text)) < len(text.encode())
    assert full.vocab_size == 400


def test_char_level_tokenizer_with_unk_token() -> None:
    # The unk_token option: the trained tokenizer carries it and marks unseen symbols.
    result = train(["low lower lowest"], chars(30, pre_tokenizer=GPT2, unk_token="<unk>"), workers=1)
    tok = result.tokenizer
    assert tok.unk_token == "<unk>" and result.tokenizer.vocab["<unk>"] == 0  # a special: first ids
    assert tok.decode(tok.encode("lowest low")) == "lowest low"
    assert [tok.token_str(i) for i in tok.encode("lowz", special_mode="text")] == ["low", "<unk>"]
    config = chars(30, special_tokens=("<s>", "<unk>"), unk_token="<unk>")
    assert config.special_tokens == ("<s>", "<unk>")  # already a special: kept where it is
    assert chars(30, special_tokens=("<s>",), unk_token="<unk>").special_tokens == ("<s>", "<unk>")
    with pytest.raises(ConfigError, match="character-level"):
        BpeTrainerConfig(vocab_size=300, unk_token="<unk>")
