"""tokenizer.json component objects -> the stage objects of this package, one builder per stage kind.

Each builder reads its node through :class:`.schema.Node` (so a wrong type is one clear line) and
refuses, by name, any component type it does not implement -- a missing stage must never turn into
wrong ids. Field defaults are HF's.
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from ..wordpiece.bert_normalizer import BertNormalizer
from . import decoders as dec
from . import normalizers as norm
from . import post_processors as post
from . import pre_tokenizers as pre
from .schema import Node
from .splitting import BEHAVIORS, compile_onig
from .unicode_forms import FORMS

NORMALIZERS = ("NFC", "NFD", "NFKC", "NFKD", "Lowercase", "Strip", "StripAccents", "Replace", "Prepend",
               "BertNormalizer", "Nmt", "ByteLevel", "Precompiled", "Sequence")
PRE_TOKENIZERS = ("ByteLevel", "Split", "Metaspace", "Whitespace", "WhitespaceSplit", "Punctuation", "Digits",
                  "BertPreTokenizer", "CharDelimiterSplit", "FixedLength", "Sequence")
DECODERS = ("ByteLevel", "Metaspace", "WordPiece", "BPEDecoder", "ByteFallback", "Fuse", "Strip", "Replace", "CTC", "Sequence")
POST_PROCESSORS = ("TemplateProcessing", "BertProcessing", "RobertaProcessing", "ByteLevel", "Sequence")
_SCHEMES = ("always", "first", "never")
_KEEPS_START = {"NFC", "NFD", "NFKC", "NFKD", "Lowercase", "Prepend", "ByteLevel"}


def _refuse(node: Node, stage: str, kind: str, supported: tuple[str, ...]) -> Any:
    node.fail(f"{stage} {kind!r} is not supported by bpe-explorer (it would give other ids than Hugging Face); "
              f"supported: {', '.join(supported)}")


def _pattern(node: Node) -> tuple[str, bool]:
    """A ``{"String": ...}`` or ``{"Regex": ...}`` pattern: (text, is_regex), regex compiled to check it."""
    node.expect_object()
    for key, is_regex in (("String", False), ("Regex", True)):
        if not node.child(key).missing:
            text = node.str(key)
            if is_regex:
                try:
                    compile_onig(text)
                except ConfigError as exc:
                    node.child(key).fail(str(exc))
            return text, is_regex
    node.fail('expected {"String": ...} or {"Regex": ...}')


def normalizer(node: Node) -> Any:
    kind = node.type_name()
    if kind in FORMS:
        return norm.UnicodeForm(kind)
    if kind == "Lowercase":
        return norm.lowercase()
    if kind == "StripAccents":
        return norm.strip_accents()
    if kind == "Nmt":
        return norm.nmt()
    if kind == "ByteLevel":
        return norm.ByteLevelNormalizer()
    if kind == "Strip":
        return norm.Strip(node.bool("strip_left", True), node.bool("strip_right", True))
    if kind == "Prepend":
        return norm.Prepend(node.str("prepend"), where=node.where)
    if kind == "Replace":
        text, is_regex = _pattern(node.child("pattern"))
        return norm.Replace(text, is_regex, node.str("content"), where=node.where)
    if kind == "BertNormalizer":
        return norm.Bert(BertNormalizer(
            clean_text=node.bool("clean_text", True),
            handle_chinese_chars=node.bool("handle_chinese_chars", True),
            strip_accents=node.bool("strip_accents", None, nullable=True),
            lowercase=node.bool("lowercase", True),
        ))
    if kind == "Precompiled":
        from .precompiled import precompiled_normalizer

        return precompiled_normalizer(node)
    if kind == "Sequence":
        return norm.SequenceNormalizer([normalizer(n) for n in node.nested("normalizers")], where=node.where)
    return _refuse(node, "normalizer", kind, NORMALIZERS)


def normalizer_keeps_start(node: Node) -> bool:
    """True when the normaliser never moves where the text starts (see :mod:`.pipeline`)."""
    kind = node.type_name()
    if kind == "Sequence":
        return all(normalizer_keeps_start(n) for n in node.nested("normalizers"))
    if kind == "Replace":
        pattern = node.child("pattern")
        return isinstance(pattern.value, dict) and isinstance(pattern.value.get("String"), str) and len(pattern.value["String"]) == 1
    return kind in _KEEPS_START


def _behavior(node: Node, key: str, default: str | None = None) -> str:
    value = node.str(key) if default is None else node.str(key, default)
    if value not in BEHAVIORS:
        node.child(key).fail(f"unknown split behaviour {value!r}; expected one of {', '.join(BEHAVIORS)}")
    return value


def _scheme(node: Node) -> str:
    if node.bool("add_prefix_space", None, nullable=True) is False:
        return "never"
    scheme = node.str("prepend_scheme", "always")
    if scheme not in _SCHEMES:
        node.child("prepend_scheme").fail(f"unknown prepend_scheme {scheme!r}; expected always, first or never")
    return scheme


def pre_tokenizer(node: Node) -> Any:
    kind = node.type_name()
    if kind == "ByteLevel":
        return pre.ByteLevel(node.bool("add_prefix_space", True), node.bool("use_regex", True), node.bool("trim_offsets", True))
    if kind == "Split":
        text, is_regex = _pattern(node.child("pattern"))
        return pre.Split(text, is_regex, _behavior(node, "behavior"), node.bool("invert", False))
    if kind == "Metaspace":
        return pre.Metaspace(node.char("replacement", "\u2581"), _scheme(node), node.bool("split", True))
    if kind == "Whitespace":
        return pre.Whitespace()
    if kind == "WhitespaceSplit":
        return pre.whitespace_split()
    if kind == "Punctuation":
        return pre.punctuation(_behavior(node, "behavior", "Isolated"))
    if kind == "Digits":
        return pre.digits(node.bool("individual_digits", False))
    if kind == "BertPreTokenizer":
        return pre.BertPre()
    if kind == "CharDelimiterSplit":
        return pre.char_delimiter(node.char("delimiter"))
    if kind == "FixedLength":
        return pre.FixedLength(node.int("length", 5, minimum=1))
    if kind == "Sequence":
        return pre.SequencePre([pre_tokenizer(n) for n in node.nested("pretokenizers")])
    return _refuse(node, "pre-tokenizer", kind, PRE_TOKENIZERS)


def decoder(node: Node) -> Any:
    kind = node.type_name()
    if kind == "ByteLevel":
        return dec.ByteLevelDecoder()
    if kind == "Metaspace":
        return dec.MetaspaceDecoder(node.char("replacement", "\u2581"), _scheme(node))
    if kind == "WordPiece":
        return dec.WordPieceDecoder(node.str("prefix", "##"), node.bool("cleanup", True))
    if kind == "BPEDecoder":
        return dec.BpeSuffixDecoder(node.str("suffix", "</w>"))
    if kind == "ByteFallback":
        return dec.ByteFallbackDecoder()
    if kind == "Fuse":
        return dec.FuseDecoder()
    if kind == "Strip":
        return dec.StripDecoder(node.char("content", " "), node.int("start", 0), node.int("stop", 0))
    if kind == "Replace":
        text, is_regex = _pattern(node.child("pattern"))
        return dec.ReplaceDecoder(norm.Replace(text, is_regex, node.str("content"), where=node.where))
    if kind == "CTC":
        return dec.CtcDecoder(node.str("pad_token", "<pad>"), node.str("word_delimiter_token", "|"), node.bool("cleanup", True))
    if kind == "Sequence":
        return dec.SequenceDecoder([decoder(n) for n in node.nested("decoders")])
    return _refuse(node, "decoder", kind, DECODERS)


def _token_pair(node: Node, key: str) -> tuple[str, int]:
    pair = node.child(key).as_list()
    if len(pair) != 2:
        node.child(key).fail("expected [token, id]")
    return pair[0].as_str(), pair[1].as_token_id()


def post_processor(node: Node) -> Any:
    kind = node.type_name()
    if kind == "ByteLevel":
        return post.ByteLevelProcessor(node.bool("trim_offsets", True), node.bool("add_prefix_space", True))
    if kind == "BertProcessing":
        return post.WrapProcessor(_token_pair(node, "cls"), _token_pair(node, "sep"))
    if kind == "RobertaProcessing":
        return post.WrapProcessor(
            _token_pair(node, "cls"), _token_pair(node, "sep"), node.bool("trim_offsets", True), node.bool("add_prefix_space", True)
        )
    if kind == "TemplateProcessing":
        return _template(node)
    if kind == "Sequence":
        return post.SequenceProcessor([post_processor(n) for n in node.nested("processors")])
    return _refuse(node, "post-processor", kind, POST_PROCESSORS)


def _template(node: Node) -> post.TemplateProcessor:
    specials: dict[str, tuple[tuple[str, int], ...]] = {}
    table = node.child("special_tokens")
    if not table.missing and table.value is not None:
        for name, entry in table.entries():
            ids = [n.as_token_id() for n in entry.items("ids")]
            tokens = [n.as_str() for n in entry.items("tokens")]
            if len(ids) != len(tokens):
                entry.fail(f"has {len(ids)} ids but {len(tokens)} tokens")
            specials[name] = tuple(zip(tokens, ids))
    pieces: list[tuple[tuple[str, int], ...] | None] = []
    for piece in node.items("single"):
        piece.expect_object()
        if not piece.child("Sequence").missing:
            seq = piece.child("Sequence").expect_object().str("id")
            if seq != "A":
                piece.fail(f"the single-sequence template refers to sequence {seq!r}; only A exists")
            pieces.append(None)
        elif not piece.child("SpecialToken").missing:
            name = piece.child("SpecialToken").expect_object().str("id")
            if name not in specials:
                piece.fail(f"special token {name!r} is not in special_tokens")
            pieces.append(specials[name])
        else:
            piece.fail('expected {"Sequence": ...} or {"SpecialToken": ...}')
    return post.TemplateProcessor(pieces)
