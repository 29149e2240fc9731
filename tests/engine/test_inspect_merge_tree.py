"""'Why this token': merge trees from a merge list and recovered from a rank table."""

from __future__ import annotations

from bpe_engine.bpe.merge_tree import MergeIndex, merge_tree_for, tree_from_ranks, tree_of_merge_list
from bpe_engine.core.merge_node import MergeNode, render_tree
from bpe_engine.types import Capabilities
from tests.engine.test_inspect_fixtures import EOT, hand_ranks, hand_tokenizer
from tests.fakes import TokenizerDouble


def test_tree_from_ranks_rebuilds_hello() -> None:
    node = tree_from_ranks(b"hello", hand_ranks())
    # ranks: he < ll < hell < hello, so hello = hell + o, hell = he + ll
    assert node.kind == "merge" and [c.data for c in node.children] == [b"hell", b"o"]
    assert [c.data for c in node.children[0].children] == [b"he", b"ll"]
    assert [leaf.data for leaf in node.leaves()] == [b"h", b"e", b"l", b"l", b"o"]
    assert node.depth == 4


def test_rank_tree_uses_only_lower_ranks() -> None:
    ranks = hand_ranks()
    node = tree_from_ranks(b" wo", ranks)
    assert [c.data for c in node.children] == [b" w", b"o"]
    assert node.token == "Ġwo" and node.rank == ranks[b" wo"] - 256  # merge number


def test_token_no_merge_builds_is_an_added_leaf() -> None:
    ranks = {bytes([b]): b for b in range(256)}
    ranks[b"   "] = 256  # like p50k's runs of spaces: no two-part split exists below its rank
    node = tree_from_ranks(b"   ", ranks)
    assert node.kind == "added" and node.children == ()


def test_partial_character_token_tree_shows_bytes() -> None:
    tok = hand_tokenizer()
    enc = tok.encode_detailed("한")
    node = merge_tree_for(tok, enc.ids[0])
    assert node is not None and node.token == "íķ" and [c.data for c in node.children] == [b"\xed", b"\x95"]
    leaf = merge_tree_for(tok, enc.ids[1])
    assert leaf is not None and leaf.kind == "base"


def test_special_token_is_never_merged() -> None:
    tok = hand_tokenizer()
    (eot,) = tok.encode(EOT, special_mode="special")
    node = merge_tree_for(tok, eot, special=True)
    assert node is not None and node.kind == "special" and node.children == ()


def test_merge_index_for_character_level_merges() -> None:
    """A token's parts are derived with earlier merges only: the tree reads in training order."""
    idx = MergeIndex([("w", "</w>"), ("l", "o"), ("lo", "w</w>")])
    node = idx.tree("low</w>", base=lambda t: len(t) == 1 or t == "</w>")
    lines = [prefix + n.token for prefix, n in render_tree(node)]
    assert lines == ["low</w>", "├─ lo", "│  ├─ l", "│  └─ o", "└─ w</w>", "   ├─ w", "   └─ </w>"]
    assert idx.rank_of("lo") == 1 and idx.rank_of("zz") is None
    later = MergeIndex([("l", "o"), ("lo", "w</w>"), ("w", "</w>")])  # w</w> made after it was used
    assert [n.token for n in later.tree("low</w>").children] == ["lo", "w</w>"]
    assert later.tree("low</w>").children[1].children == ()  # a leaf at merge 2: merge 3 came later
    assert [n.token for n in later.tree("low</w>", before=1).children] == []  # before merge 2: not built yet


def test_malformed_merges_do_not_loop() -> None:
    idx = MergeIndex([("", "a"), ("a", "a")])
    node = idx.tree("aa")
    assert [c.token for c in node.children] == ["a", "a"]
    assert idx.tree("a").kind == "base"


def test_objects_without_merges_have_no_tree_and_unknown_ids_do_not_crash() -> None:
    class NoMerges(TokenizerDouble):  # a baseline: it explains no token by merges
        def token_bytes(self, token_id: int) -> bytes:
            return b"x"

        def token_str(self, token_id: int) -> str:
            return "x"

    assert merge_tree_for(NoMerges(), 0) is None
    assert merge_tree_for(hand_tokenizer(), 10**9) is None


def test_our_bpe_merges_are_read_in_the_model_alphabet() -> None:
    class Ours(TokenizerDouble):
        capabilities = Capabilities(family="bpe", byte_level=True, explains="merge-tree", replays_merges=True)
        merges = [("Ġ", "w"), ("Ġw", "o")]

        def merge_tree(self, token_id: int, *, special: bool = False) -> MergeNode:
            return tree_of_merge_list(self, self.token_str(token_id))

        def token_bytes(self, token_id: int) -> bytes:
            return b" wo"

        def token_str(self, token_id: int) -> str:
            return "Ġwo"

    node = merge_tree_for(Ours(), 258)
    assert node is not None and node.rank == 1
    assert [c.data for c in node.children] == [b" w", b"o"]
    assert [leaf.kind for leaf in node.leaves()] == ["base", "base", "base"]


def test_reference_trees_are_recovered_from_ranks_and_consistent() -> None:
    from bpe_engine.catalog.openai import load_reference

    gpt2 = load_reference("gpt2")
    ids = gpt2.encode(" tokenization")
    node = merge_tree_for(gpt2, ids[0])
    assert node is not None and node.token == "Ġtoken"

    def check(n) -> None:  # type: ignore[no-untyped-def]
        if n.kind == "merge":
            left, right = n.children
            assert left.data + right.data == n.data
            assert all(c.rank is None or c.rank < n.rank for c in n.children if c.kind == "merge")
            check(left)
            check(right)

    check(node)
    assert b"".join(leaf.data for leaf in node.leaves()) == b" token"
