"""Small SentencePiece models trained once per test session, one per configuration to cover.

Import the fixture into a test module (``from sentencepiece_builds import sp_builds``); pytest puts
``tests/`` on ``sys.path``. Each model is trained with ``sentencepiece.SentencePieceTrainer`` on a
slice of the English and Korean test corpora (fast at vocabulary 1,000), written to a session temp
dir; some settings the trainer does not expose (``escape_whitespaces``) are set by editing the
trained model's protobuf, which ``sentencepiece`` then loads as any model.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.oracles import require

spm = require("sentencepiece")

DATA = Path(__file__).parent / "data"

_COMMON = dict(vocab_size=1000, hard_vocab_limit=False, minloglevel=2, num_threads=1, character_coverage=1.0)
_UNIGRAM = dict(seed_sentencepiece_size=8000, num_sub_iterations=1)  # training speed only

CONFIGS: dict[str, dict] = {
    "bpe-default": dict(model_type="bpe"),
    "bpe-bytes-digits-identity": dict(
        model_type="bpe", byte_fallback=True, split_digits=True, normalization_rule_name="identity",
        remove_extra_whitespaces=False, character_coverage=0.98,
    ),
    "bpe-nfkc-nodummy": dict(model_type="bpe", normalization_rule_name="nfkc", add_dummy_prefix=False),
    "bpe-suffix-nmt-cf": dict(model_type="bpe", treat_whitespace_as_suffix=True, normalization_rule_name="nmt_nfkc_cf"),
    "bpe-user-symbols": dict(
        model_type="bpe", normalization_rule_name="nfkc_cf", user_defined_symbols=["Alice", "대한민국", "<sep>", "e\u0301"],
        control_symbols=["<ctl>"], byte_fallback=True, character_coverage=0.995,
    ),
    "bpe-ws-pieces": dict(
        model_type="bpe", remove_extra_whitespaces=False, allow_whitespace_only_pieces=True, split_by_whitespace=False,
    ),
    "bpe-no-escape": dict(model_type="bpe", normalization_rule_name="identity", remove_extra_whitespaces=False),
    "uni-default": dict(model_type="unigram"),
    "uni-bytes-digits-identity": dict(
        model_type="unigram", byte_fallback=True, split_digits=True, normalization_rule_name="identity",
        remove_extra_whitespaces=False, character_coverage=0.98,
    ),
    "uni-nfkc-nodummy-keepws": dict(
        model_type="unigram", normalization_rule_name="nfkc", add_dummy_prefix=False, remove_extra_whitespaces=False,
    ),
    "uni-suffix-nmt-cf": dict(model_type="unigram", treat_whitespace_as_suffix=True, normalization_rule_name="nmt_nfkc_cf"),
    "uni-user-symbols": dict(
        model_type="unigram", normalization_rule_name="nfkc_cf", user_defined_symbols=["Alice", "대한민국", "<sep>", "e\u0301"],
        control_symbols=["<ctl>"], character_coverage=0.995,
    ),
    "uni-ws-pieces": dict(
        model_type="unigram", remove_extra_whitespaces=False, allow_whitespace_only_pieces=True, split_by_whitespace=False,
    ),
    "uni-bytes-nfkc-cf": dict(model_type="unigram", byte_fallback=True, normalization_rule_name="nfkc_cf", character_coverage=0.98),
    "uni-custom-rules": dict(model_type="unigram", normalization_rule_tsv="RULES", denormalization_rule_tsv="DERULES"),
}
"""Name -> trainer options: BPE and Unigram x byte fallback x split digits x every built-in
normalization rule x dummy prefix x extra-whitespace removal x whitespace as suffix x user-defined
and control symbols x whitespace-only pieces x unescaped spaces x custom (de)normalization rules."""

NO_ESCAPE = {"bpe-no-escape"}

# Custom rules: a TSV of source code points -> target code points (SentencePiece's format).
_RULES = "41\t61\n42\t62\n3131\t1100\nFF01\t21\n2460\t31 29\n"  # A->a, B->b, ㄱ->ᄀ, ！->!, ①->1)
_DERULES = "61\t41\n"  # a->A on decode


@dataclass(frozen=True)
class Built:
    name: str
    path: Path

    def processor(self):
        return spm.SentencePieceProcessor(model_file=str(self.path))


def corpus_slice() -> str:
    en = (DATA / "alice29.txt").read_text(encoding="utf-8")
    ko = (DATA / "constitution.txt").read_text(encoding="utf-8")
    return en[:60000] + "\n" + ko[:25000] + "\nfull-width ＡＢＣ１２３ ① ㈜ ﬁ e\u0301 Å\n"


_BUILT: dict[str, Built] = {}


@pytest.fixture(scope="session")
def sp_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    """Every model in :data:`CONFIGS`, trained on first use. Each test module that imports this
    fixture gets its own fixture object, so the models are cached here, once per session."""
    if not _BUILT:
        _BUILT.update(_train_all(tmp_path_factory.mktemp("spm")))
    return _BUILT


def _train_all(root: Path) -> dict[str, Built]:
    corpus = root / "corpus.txt"
    corpus.write_text(corpus_slice(), encoding="utf-8")
    (root / "rules.tsv").write_text(_RULES, encoding="utf-8")
    (root / "derules.tsv").write_text(_DERULES, encoding="utf-8")
    built: dict[str, Built] = {}
    for name, options in CONFIGS.items():
        opts = dict(_COMMON, **(_UNIGRAM if options["model_type"] == "unigram" else {}), **options)
        if opts.get("normalization_rule_tsv") == "RULES":
            opts["normalization_rule_tsv"] = str(root / "rules.tsv")
            opts["denormalization_rule_tsv"] = str(root / "derules.tsv")
        buffer = io.BytesIO()
        spm.SentencePieceTrainer.train(input=str(corpus), model_writer=buffer, **opts)
        data = buffer.getvalue()
        if name in NO_ESCAPE:
            data = _without_escape(data)
        path = root / f"{name}.model"
        path.write_bytes(data)
        built[name] = Built(name, path)
    return built


def _without_escape(data: bytes) -> bytes:
    from sentencepiece import sentencepiece_model_pb2 as pb

    proto = pb.ModelProto()
    proto.ParseFromString(data)
    proto.normalizer_spec.escape_whitespaces = False
    return proto.SerializeToString()
