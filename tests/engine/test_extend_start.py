"""Where an extension starts: the base's own encoding of each word equals replaying its merges in
order over the words (the semantics), so extending cl100k never walks 100,000 merges in Python."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_engine.corpus import count_words
from bpe_engine.explore.stepper import Stepper
from bpe_engine.pretokenizers import END_OF_WORD, GPT2, WHITESPACE
from bpe_engine.registry import load_tokenizer
from bpe_engine.surgery import bpe_base
from bpe_engine.training.bpe import BpeTrainerConfig, train


def replayed(base, wc) -> list[tuple[int, ...]]:
    """Every word after the base's merges applied one by one, in rank order (the slow way)."""
    words = list(wc.counts)
    pre = base.pre_tokenizer
    suffix = pre.end_of_word_suffix
    initial = [tuple(w) if not suffix else (*w[:-1], w[-1] + suffix) for w in words]
    stepper = Stepper(initial, [wc.counts[w] for w in words], [(a, b, a + b) for a, b in base.merges], byte_level=base.byte_level)
    assert stepper.seek(len(base.merges))
    return [tuple(base.vocab[s] for s in stepper.word_symbols(i)) for i in range(len(words))]


def assert_start_is_replay(base, wc) -> None:
    encode = base.word_encoder()
    assert [encode(w) for w in wc.counts] == replayed(base, wc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    docs=st.lists(st.text(alphabet="aab c\né한", max_size=16), min_size=1, max_size=6),
    pre=st.sampled_from([GPT2, WHITESPACE, END_OF_WORD]),
    extra=st.integers(min_value=1, max_value=40),
    byte_level=st.booleans(),
)
def test_merge_list_base_start_is_its_replay(docs, pre, extra, byte_level) -> None:
    byte_level = byte_level and pre.end_of_word_suffix is None
    wc = count_words(docs, pre, byte_level=byte_level, workers=1)
    alphabet = 256 if byte_level else len(set("".join(docs))) * 2 + 1
    trained = train(wc, BpeTrainerConfig(vocab_size=alphabet + extra, byte_level=byte_level, pre_tokenizer=pre), workers=1)
    if len({s.new for s in trained.steps}) < len(trained.steps):
        return  # a token made twice: the base's encoder is then what it encodes, not a replay
    # the words the base is extended on need not be those it was trained on
    more = count_words([*docs, "ca éa 한a"], pre, byte_level=byte_level, workers=1)
    base = bpe_base(trained.tokenizer)
    encode = base.word_encoder()
    spellable = [w for w in more.counts if encode(w) is not None]
    assert_start_is_replay(base, type(more)({w: more.counts[w] for w in spellable}, byte_level))


def test_cl100k_start_is_its_replay(alice_text: str, korean_text: str) -> None:
    base = bpe_base(load_tokenizer("cl100k_base"))
    wc = count_words([alice_text[:15_000], korean_text[:15_000]], base.pre_tokenizer, byte_level=True, workers=1)
    assert len(wc) > 2_000
    assert_start_is_replay(base, wc)
