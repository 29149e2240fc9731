"""BERT's front end as the app cuts its corpus: the same words the command line counts, with spans.

The app trains WordPiece on words it cut itself (to step through the merges and draw them); the
CLI counts ``count_bert_words``. Equal words in equal order make equal vocabularies.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_engine.corpus.cut import CorpusWords
from bpe_engine.training.runner import Finished, TrainingRequest, run_training
from bpe_engine.training.wordpiece import WordPieceTrainerConfig, count_bert_words, train_wordpiece
from bpe_engine.wordpiece.bert_normalizer import BertNormalizer
from bpe_engine.wordpiece.front_end import BertFrontEnd

TEXTS = st.text(st.sampled_from("aB é\u0301한국 ,.!?\t\n\u3000中文Ａ\u00adx"), max_size=60)


@settings(max_examples=200, deadline=None)
@given(text=TEXTS, lowercase=st.booleans(), strip=st.sampled_from([None, True, False]))
def test_the_words_are_those_the_command_line_counts(text: str, lowercase: bool, strip: bool | None) -> None:
    normalizer = BertNormalizer(lowercase=lowercase, strip_accents=strip)
    words = CorpusWords.from_text(text, BertFrontEnd(normalizer))
    assert dict(zip(words.texts, words.counts)) == count_bert_words([text], normalizer)


def test_spans_point_at_the_original_characters() -> None:
    text = "Ünïcode, CAFÉ!"
    assert [(w, text[s:e]) for w, s, e in BertFrontEnd().split_with_spans(text)] == [
        ("unicode", "Ünïcode"), (",", ","), ("cafe", "CAFÉ"), ("!", "!"),
    ]


def test_the_app_and_the_command_line_train_the_same_vocabulary(alice_text: str, korean_text: str) -> None:
    text = alice_text[:40_000] + korean_text[:8_000]
    config = WordPieceTrainerConfig(vocab_size=900)
    events = list(run_training(TrainingRequest(text, config), backend="thread"))
    assert isinstance(events[-1], Finished), events[-1]
    assert events[-1].tokenizer.vocab == train_wordpiece([text], config).vocab
