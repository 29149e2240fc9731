"""Inspector data for SentencePiece: BPE merge trees from piece scores (through the same
``merge_tree_for`` the inspector and the CLI call), byte pieces as their bytes, and Unigram's
best segmentation against its n-best alternatives."""

from __future__ import annotations

import pytest

from bpe_engine.bpe.merge_tree import merge_tree_for
from bpe_engine.core.merge_node import MergeNode, render_tree
from bpe_engine.sentencepiece import PieceType, load_model
from bpe_engine.sentencepiece.explain import unigram_choice_at, word_around
from tests.oracles import require
from tests.sentencepiece_builds import sp_builds  # noqa: F401 - the fixture

spm = require("sentencepiece")


def _check_tree(node: MergeNode) -> None:
    if node.kind == "merge":
        left, right = node.children
        assert left.token + right.token == node.token and left.data + right.data == node.data
        for child in node.children:
            assert child.rank is None or child.rank < node.rank  # trained models merge in score order
            _check_tree(child)


@pytest.mark.parametrize("name", ["bpe-default", "bpe-user-symbols", "bpe-suffix-nmt-cf"])
def test_every_bpe_piece_has_a_tree_built_in_score_order(sp_builds, name):  # noqa: F811
    tok = load_model(sp_builds[name].path)
    kinds = {}
    for tid in range(tok.vocab_size):
        node = merge_tree_for(tok, tid)
        assert node is not None and node.token == tok.token_str(tid)
        _check_tree(node)
        kinds[node.kind] = kinds.get(node.kind, 0) + 1
        piece_type = tok.piece_type(tid)
        if piece_type is PieceType.NORMAL and len(node.token) > 1:
            # The tree is what encoding the piece's own text does: its leaves are the symbols it starts from.
            assert node.kind == "merge" and "".join(leaf.token for leaf in node.leaves()) == node.token
    assert kinds["merge"] > 300 and kinds["base"] > 50 and kinds["special"] >= 3


def test_byte_pieces_are_the_bytes_they_stand_for(sp_builds):  # noqa: F811
    tok = load_model(sp_builds["bpe-bytes-digits-identity"].path)
    encoding = tok.encode_detailed("☃")  # no piece for the snowman: three byte pieces
    nodes = [merge_tree_for(tok, i) for i in encoding.ids if tok.piece_type(i) is PieceType.BYTE]
    assert [n.data for n in nodes] == [bytes([b]) for b in "☃".encode()] and all(n.kind == "base" for n in nodes)
    assert [tok.token_bytes(i) for i in encoding.ids[-3:]] == [bytes([b]) for b in "☃".encode()]
    assert encoding.byte_spans[-3:] == ((0, 1), (1, 2), (2, 3))  # one byte each (the dummy "▁" is empty at 0)
    control = merge_tree_for(tok, tok.bos_id)
    assert control is not None and control.kind == "special"


def test_render_tree_draws_a_sentencepiece_tree(sp_builds):  # noqa: F811
    tok = load_model(sp_builds["bpe-default"].path)
    tid = max(range(tok.vocab_size), key=lambda i: len(tok.token_str(i)) * (tok.piece_type(i) is PieceType.NORMAL))
    lines = render_tree(merge_tree_for(tok, tid))
    assert lines[0][1].token == tok.token_str(tid) and len(lines) >= 3


@pytest.mark.parametrize("name", ["uni-default", "uni-bytes-digits-identity"])
def test_unigram_choice_is_viterbi_against_its_alternatives(sp_builds, name, alice_text):  # noqa: F811
    tok = load_model(sp_builds[name].path)
    ref = spm.SentencePieceProcessor(model_file=str(sp_builds[name].path))
    normal = next(i for i in range(tok.vocab_size) if tok.piece_type(i) is PieceType.NORMAL)
    assert merge_tree_for(tok, normal) is None  # no merges build a Unigram piece
    for word in alice_text[3000:6000].split() + ["☃☃", "한국어"]:
        choice = tok.unigram_choice(word, 4)
        assert list(choice.best.ids) == tok.encode(word) == ref.encode(word)
        expected = ref.nbest_encode_as_immutable_proto(word, nbest_size=5)
        assert [s.score for s in (choice.best, *choice.alternatives)] == [n.score for n in expected.nbests]
        assert choice.margin is None or choice.margin >= 0
        assert choice.best.score == pytest.approx(sum(p.score for p in choice.best.pieces), abs=1e-3)
        assert "".join(p.piece for p in choice.best.pieces) == choice.normalized


def test_unigram_choice_for_a_token_of_an_encoding(sp_builds):  # noqa: F811
    tok = load_model(sp_builds["uni-default"].path)
    encoding = tok.encode_detailed("the Queen said nothing")
    index = encoding.tokens.index("en")  # the last piece of "Queen"
    first, end = word_around(encoding, index)
    assert "".join(encoding.tokens[first:end]) == "▁Queen"
    choice = unigram_choice_at(tok, encoding, index, 3)
    assert choice.text.strip() == "Queen" and list(choice.best.ids) == list(encoding.ids[first:end])
    assert choice.normalized == "▁Queen" and choice.alternatives
    assert load_model(sp_builds["bpe-default"].path).unigram_choice("x") is None
