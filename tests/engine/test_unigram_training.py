"""The Unigram trainer against sentencepiece 0.2.1 (num_threads=1), its reference, and its outputs."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_engine.errors import ConfigError, CorpusError
from bpe_engine.training.unigram import EmStep, PruneStep, SeedStep, UnigramHistory, UnigramTraining
from bpe_engine.training.unigram.config import UnigramTrainerConfig as C
from bpe_engine.training.unigram.digamma import digamma, digamma_array
from bpe_engine.training.unigram.em import fold_f32
from bpe_engine.training.unigram.pieces import is_valid_piece
from bpe_engine.training.unigram.reference import train_reference
from bpe_engine.training.unigram.seeds import seed_candidates
from bpe_engine.training.unigram.sentences import load_corpus
from tests.oracles import require

spm = require("sentencepiece")
DATA = Path(__file__).parents[1] / "data"
ALICE = (DATA / "alice29.txt").read_text(encoding="utf-8").splitlines()[:400]
KOREAN = (DATA / "constitution.txt").read_text(encoding="utf-8").splitlines()


def sp_train(lines: list[str], **opts) -> bytes:
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=out, num_threads=1, minloglevel=2, **opts)
    return out.getvalue()


def assert_same_model(lines: list[str], **opts) -> UnigramTraining:
    theirs = spm.SentencePieceProcessor(model_proto=sp_train(lines, **opts))
    ours = UnigramTraining(lines, C(**opts))
    ours.run()
    want = [(theirs.id_to_piece(i), theirs.get_score(i)) for i in range(theirs.get_piece_size())]
    assert [p for p, _s in ours.pieces] == [p for p, _s in want]
    assert np.allclose([s for _p, s in ours.pieces], [s for _p, s in want], atol=1e-4, rtol=0)
    tok = ours.tokenizer()
    for line in lines:
        assert tok.encode(line) == theirs.encode(line), line
    return ours


@pytest.mark.parametrize(
    "opts",
    [
        dict(vocab_size=300),
        dict(vocab_size=300, split_digits=True, remove_extra_whitespaces=False, add_dummy_prefix=False),
        dict(vocab_size=300, treat_whitespace_as_suffix=True, character_coverage=0.99),
        dict(vocab_size=300, split_by_whitespace=False, allow_whitespace_only_pieces=True, remove_extra_whitespaces=False),
        dict(vocab_size=300, normalization_rule_name="identity", split_by_number=False, num_sub_iterations=1),
        dict(vocab_size=600, byte_fallback=True, user_defined_symbols=["Alice"], control_symbols=["<ctl>"], hard_vocab_limit=False),
    ],
    ids=["default", "digits-keepws-nodummy", "suffix-coverage", "no-ws-split", "identity-numbers", "bytes-symbols"],
)
def test_same_model_as_sentencepiece_on_alice(opts):
    assert_same_model(ALICE, **opts)


def test_same_model_as_sentencepiece_on_korean():
    assert_same_model(KOREAN, vocab_size=800)


words = st.text(alphabet="ab가나1 \t", min_size=1, max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(words, min_size=1, max_size=6).map(" ".join), min_size=5, max_size=40))
def test_same_model_as_sentencepiece_on_made_corpora(lines):
    lines = [line for line in lines if line.strip()] * 3
    try:
        theirs = sp_train(lines, vocab_size=40, hard_vocab_limit=False)
    except RuntimeError:
        return  # sentencepiece refuses the corpus (e.g. too few pieces); nothing to compare
    sp = spm.SentencePieceProcessor(model_proto=theirs)
    ours = UnigramTraining(lines, C(vocab_size=40, hard_vocab_limit=False))
    ours.run()
    assert [p for p, _s in ours.pieces] == [sp.id_to_piece(i) for i in range(sp.get_piece_size())]
    tok = ours.tokenizer()
    assert [tok.encode(line) for line in lines] == [sp.encode(line) for line in lines]


def test_fast_equals_reference():
    cfg = C(vocab_size=500)
    corpus = load_corpus((s.encode() for s in KOREAN), cfg, keep_sentences=True)
    ours = UnigramTraining(KOREAN, cfg)
    ours.run()
    assert [p for p in ours.pieces if p[0] not in ("<unk>", "<s>", "</s>")] == train_reference(corpus, cfg)


def test_digamma_vector_equals_scalar():
    xs = np.array([0.5, 0.75, 1.0, 6.99, 7.0, 12.5, 1e6])
    assert digamma_array(xs).tolist() == [digamma(x) for x in xs]
    assert digamma(2.0) - digamma(1.0) == pytest.approx(1.0, abs=1e-9)  # psi(x+1) = psi(x) + 1/x


@pytest.mark.parametrize("text", ["▁abab▁abc▁ab", "▁aaaa▁aaa▁aa", "▁한국▁한국어▁국어"])
def test_seeds_equal_brute_force(text):
    cfg = C()
    sentences = [text, text[:-2]]
    units = [s for s in sentences]
    got_text, starts, lengths, scores = seed_candidates(units, ["\0"] * len(units), [1] * len(units), cfg)
    got = {got_text[s : s + n]: int(c) for s, n, c in zip(starts, lengths, scores)}
    joined = "\0".join(sentences) + "\0"
    want = {}
    for i in range(len(joined)):
        for n in range(2, 17):
            s = joined[i : i + n]
            if len(s) < n or "\0" in s or not is_valid_piece(s, cfg):
                continue
            follows = {joined[k + n] for k in range(len(joined) - n) if joined[k : k + n] == s}
            occ = sum(1 for k in range(len(joined) - n + 1) if joined[k : k + n] == s)
            if len(follows) >= 2:
                want[s] = occ * n
    assert got == want


def test_fold_adds_each_pieces_values_in_order_rounding_to_float_each_time():
    rng = np.random.default_rng(7)
    ids = (rng.zipf(1.3, 20_000) % 300).astype(np.int64)  # a few ids with thousands of values: waves and tail
    values = rng.random(20_000) * 10.0 ** rng.integers(-8, 3, 20_000)
    want = np.zeros(300, np.float32)
    for i, v in zip(ids.tolist(), values.tolist()):
        want[i] = np.float32(float(want[i]) + v)
    assert fold_f32(ids, values, 300).tobytes() == want.tobytes()


def test_saved_directory_loads_through_the_registry_with_the_model_files_ids(tmp_path):
    from bpe_engine.formats import load_saved, load_unigram_dir
    from bpe_engine.registry import load_tokenizer

    t = UnigramTraining(ALICE, C(vocab_size=300))
    t.run()
    t.save(tmp_path / "out", "alice")
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "out" / "alice.model"))
    loaded = load_tokenizer(tmp_path / "out")
    assert loaded.name == "alice" and load_unigram_dir(tmp_path / "out").vocab_size == 300
    assert [loaded.encode(line) for line in ALICE] == [sp.encode(line) for line in ALICE]
    with pytest.raises(Exception, match="load_unigram_dir"):
        load_saved(tmp_path / "out")


def test_a_corpus_too_large_for_the_memory_limit_stops_while_reading_with_one_line(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("\n".join(ALICE * 20), encoding="utf-8")
    t = UnigramTraining(config=C(vocab_size=300), files=[path], memory_limit=200_000)
    with pytest.raises(CorpusError) as caught:
        next(iter(t.steps()))
    message = str(caught.value)
    assert "\n" not in message and "will not fit" in message and "--input-sentence-size" in message


def test_model_file_loads_in_sentencepiece_and_tokenizer_json_in_hf(tmp_path):
    tokenizers = require("tokenizers")
    t = UnigramTraining(ALICE, C(vocab_size=300))
    t.run()
    written = t.save(tmp_path / "out", "alice")
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "out" / "alice.model"))
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "out" / "tokenizer.json"))
    ours = t.tokenizer()
    for line in ALICE[:200]:
        assert sp.encode(line) == ours.encode(line)
        if line.strip():
            assert hf.encode(line).ids == sp.encode(line), line
    assert {p.name for p in written} == {"alice.model", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "bpe-explorer.json"}


def test_steps_and_history_replay_the_training():
    t = UnigramTraining(ALICE, C(vocab_size=300))
    steps = [pickle.loads(pickle.dumps(s)) for s in t.steps()]
    assert isinstance(steps[0], SeedStep) and steps[0].top(3)
    assert any(isinstance(s, PruneStep) for s in steps) and any(isinstance(s, EmStep) for s in steps)
    history = UnigramHistory(steps)
    assert history.model_at(len(steps) - 1) == t.pieces
    last_em = max(i for i, s in enumerate(steps) if isinstance(s, EmStep))
    final_normal = {p for p, _s in t.pieces[3:]}
    assert final_normal - {p for p, _s in history.model_at(last_em)} <= set(steps[-1].restored)
    prune = next(s for s in steps if isinstance(s, PruneStep))
    removed = history.model_at(prune.index - 1)[int(prune.removed[np.argmax(prune.losses)])][0]
    story = history.story(removed)
    assert story.removed_at == prune.index and story.loss == pytest.approx(float(prune.losses.max()))
    assert story.scores and story.final_id is None
    assert history.unigram_model(last_em).encode_piece("▁Alice")


def test_options_are_checked_by_name():
    with pytest.raises(ConfigError, match="character_coverage"):
        C(character_coverage=0.5).validate()
    with pytest.raises(ConfigError, match="normalization_rule_name"):
        C(normalization_rule_name="nfkc_cf").validate()
    with pytest.raises(ConfigError, match="use_all_vocab"):
        C(use_all_vocab=True).validate()
    with pytest.raises(ConfigError, match="vocab_size"):
        UnigramTraining(ALICE, C(vocab_size=20)).run()


def test_too_long_lines_are_skipped_unread(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(b"x" * 5000 + b"\n" + "\n".join(ALICE).encode())
    t = UnigramTraining(config=C(vocab_size=300), files=[path])
    t.run()
    assert any("longer than max_sentence_length" in n for n in t.notes)


def test_cli_trains_and_fails_in_one_line(tmp_path, capsys):
    from bpe_cli.main import main

    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(ALICE), encoding="utf-8")
    assert main(["train", str(corpus), "--model", "unigram", "--vocab-size", "300", "-o", str(tmp_path / "o")]) == 0
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "o" / "o.model"))
    assert sp.get_piece_size() == 300
    out = capsys.readouterr().out
    assert "300 pieces after" in out and "EM steps" in out and "merges" not in out
    code = main(["train", str(corpus), "--model", "unigram", "--vocab-size", "300", "--character-coverage", "0.5", "-o", str(tmp_path / "p")])
    err = capsys.readouterr().err
    assert code == 2 and "--character-coverage" in err
    code = main(["train", str(corpus), "--model", "unigram", "--vocab-size", "300", "--memory-limit", "100K", "-o", str(tmp_path / "q")])
    err = capsys.readouterr().err.strip()
    errors = [line for line in err.splitlines() if "error" in line]
    assert code != 0 and len(errors) == 1 and "will not fit" in errors[0] and "--memory-limit" in errors[0]
