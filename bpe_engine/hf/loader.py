"""Load any Hugging Face ``tokenizer.json``: one validation layer, then the pipeline.

:func:`load_tokenizer_json` is the registry's entry point for tokenizer.json files. It parses the
file (invalid JSON names the line), validates and builds every stage through
:mod:`.schema`/:mod:`.components` (a wrong type or value names the JSON path, an unsupported
component names itself), and returns

* a :class:`~bpe_engine.bpe.model.BpeTokenizer` when the file is a plain BPE pipeline that
  :mod:`bpe_engine.formats.hf_json` expresses exactly -- what bpe-explorer itself saves, and GPT-2
  style files -- so those keep the merge explorer, the tiktoken fast path and their ids;
* an :class:`.HfTokenizer` for everything else.

Validation follows HF where HF refuses (unknown merge tokens, a merge whose right part lacks the
continuing-subword prefix) and refuses a little more where HF would silently misbehave (two tokens
with one id, an added token id that collides with another token).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.json_files import load_json
from ..token_ids import MAX_TOKEN_ID, id_problem
from . import components
from .added_tokens import AddedToken, AddedVocabulary, assign_ids
from .bpe import HfBpeModel
from .models import HfUnigramModel, WordLevelModel, WordPieceModel
from .pipeline import HfTokenizer, Pipeline
from .post_processors import Padding, TokenRecord, Truncation
from .pre_tokenizers import ByteLevel, Metaspace
from .schema import Node

MODELS = ("BPE", "WordPiece", "WordLevel", "Unigram")


def load_tokenizer_json(path: str | Path, *, name: str | None = None) -> Any:
    """The tokenizer a ``tokenizer.json`` describes (see the module docstring)."""
    data = load_json(path)
    tokenizer = hf_tokenizer_from_dict(path, data, name=name or default_name(path))
    from ..formats.hf_json import plain_bpe_spec

    spec = plain_bpe_spec(path, data, name=tokenizer.name, hf=tokenizer)
    return spec.build() if spec is not None else tokenizer


def default_name(path: str | Path) -> str:
    p = Path(path)
    return p.parent.name if p.name == "tokenizer.json" and p.parent.name else p.stem


def hf_tokenizer_from_dict(path: str | Path, data: Any, *, name: str) -> HfTokenizer:
    """Validate a parsed tokenizer.json and build its :class:`.HfTokenizer`."""
    root = Node(path, "", data).expect_object()
    version = root.child("version")
    if not version.missing and version.value not in ("1.0", None):
        version.fail(f"unknown tokenizer.json version {version.value!r}; Hugging Face reads version 1.0")
    notes: list[str] = []
    model_node = root.obj("model")
    if model_node is None:
        root.fail('not a Hugging Face tokenizer.json (no "model" object)')
    model = _model(model_node, notes)
    norm_node = root.obj("normalizer")
    normalizer = components.normalizer(norm_node) if norm_node is not None else None
    pre_node = root.obj("pre_tokenizer")
    pre_tokenizer = components.pre_tokenizer(pre_node) if pre_node is not None else None
    post_node = root.obj("post_processor")
    decoder_node = root.obj("decoder")
    entries = _added_entries(root)
    tokens, id_notes = assign_ids(entries, model.vocab)
    notes += id_notes
    _check_added_ids(root.child("added_tokens"), tokens, model)
    added = AddedVocabulary(tokens, normalizer.normalize_str if normalizer is not None else None)
    pipeline = Pipeline(
        model=model,
        normalizer=normalizer,
        pre_tokenizer=pre_tokenizer,
        post_processor=components.post_processor(post_node) if post_node is not None else None,
        decoder=components.decoder(decoder_node) if decoder_node is not None else None,
        added=added,
        truncation=_truncation(root.obj("truncation"), notes),
        padding=_padding(root.obj("padding"), notes),
    )
    _settle(pipeline, norm_node)
    pipeline.extra_tokens = _extra_tokens(pipeline)
    return HfTokenizer(name, pipeline, notes)


def _extra_tokens(p: Pipeline) -> dict[int, str]:
    """Tokens a post-processor or the padding add whose ids neither the model nor the added
    vocabulary has (HF allows it; they still need a name when shown)."""
    found: dict[int, str] = {}
    records = [TokenRecord(0, "", (0, 0), (0, 0))]
    if p.post_processor is not None:
        for rec in p.post_processor.process(list(records), True):
            if rec.special:
                found[rec.id] = rec.token
    if p.padding is not None:
        found[p.padding.pad_id] = p.padding.pad_token
    return {i: t for i, t in found.items() if i not in p.model.id_to_token and i not in p.added.by_id}


def _settle(p: Pipeline, norm_node: Node | None) -> None:
    """Flags the encoder derives from the stages (see :class:`.Pipeline`)."""
    tok_stages = HfTokenizer("", p)._stages
    byte_level = any(isinstance(s, ByteLevel) for s in tok_stages) or _has_byte_level_normalizer(norm_node)
    p.byte_level = byte_level and isinstance(p.model, HfBpeModel)
    metaspace = next((s for s in tok_stages if isinstance(s, Metaspace)), None)
    p.metaspace = metaspace.replacement if metaspace is not None else _marker_replacement(norm_node)
    first = [i for i, s in enumerate(tok_stages) if isinstance(s, Metaspace) and s.prepend_scheme == "first"]
    keeps_start = norm_node is None or components.normalizer_keeps_start(norm_node)
    p.fast_path = not first or (first == [0] and keeps_start)
    p.fold_bytes = bool(tok_stages) and isinstance(tok_stages[-1], ByteLevel) and p.model.raw_bytes_ok


def _has_byte_level_normalizer(node: Node | None) -> bool:
    if node is None:
        return False
    kind = node.type_name()
    if kind == "Sequence":
        return any(_has_byte_level_normalizer(n) for n in node.items("normalizers"))
    return kind == "ByteLevel"


def _marker_replacement(node: Node | None) -> str | None:
    """The space marker of a ``Replace(" ", "▁")`` normaliser (Llama-style files), if any."""
    if node is None:
        return None
    kind = node.type_name()
    if kind == "Sequence":
        return next((m for m in map(_marker_replacement, node.items("normalizers")) if m), None)
    if kind == "Replace" and node.child("pattern").value == {"String": " "}:
        content = node.str("content")
        return content if len(content) == 1 else None
    return None


# -- model -----------------------------------------------------------------------------------------
def _model(node: Node, notes: list[str]) -> Any:
    kind = node.str("type", None, nullable=True) or _infer_model_type(node)
    if kind == "BPE":
        return _bpe(node, notes)
    if kind == "WordPiece":
        vocab = _vocab(node.child("vocab"))
        unk = node.str("unk_token", "[UNK]")
        if unk not in vocab:
            node.child("unk_token").fail(f"{unk!r} is not in model.vocab; WordPiece needs its unknown token")
        return WordPieceModel(
            vocab, unk_token=unk, prefix=node.str("continuing_subword_prefix", "##"),
            max_input_chars_per_word=node.int("max_input_chars_per_word", 100),
        )
    if kind == "WordLevel":
        return WordLevelModel(_vocab(node.child("vocab")), unk_token=node.str("unk_token", "<unk>"))
    if kind == "Unigram":
        return _unigram(node)
    return node.child("type").fail(f"model type {kind!r} is not supported; supported: {', '.join(MODELS)}")


def _infer_model_type(node: Node) -> str:
    """Old files omit ``type``; HF tries each model in turn."""
    if not node.child("merges").missing:
        return "BPE"
    if isinstance(node.child("vocab").value, list):
        return "Unigram"
    if not node.child("continuing_subword_prefix").missing or not node.child("max_input_chars_per_word").missing:
        return "WordPiece"
    return "WordLevel"


def _vocab(node: Node) -> dict[str, int]:
    """token -> id, ids validated (integers in range, each used once).

    A well-formed vocabulary is checked in a few C-level passes (65k entries in milliseconds);
    only a bad one is walked entry by entry to name the first offender.
    """
    raw = node.expect_object().value
    ids = raw.values()
    if ids and set(map(type, ids)) == {int} and min(ids) >= 0 and max(ids) <= MAX_TOKEN_ID and len(set(ids)) == len(raw):
        return dict(raw)
    vocab: dict[str, int] = {}
    owner: dict[int, str] = {}
    for token, entry in node.entries():
        token_id = entry.as_token_id()
        if token_id in owner:
            entry.fail(f"id {token_id} is already used by {owner[token_id]!r}; every token needs its own id")
        owner[token_id] = token
        vocab[token] = token_id
    return vocab


def _bpe(node: Node, notes: list[str]) -> HfBpeModel:
    vocab = _vocab(node.child("vocab"))
    prefix = node.str("continuing_subword_prefix", None, nullable=True)
    dropout = node.number("dropout", None, nullable=True)
    if dropout:
        notes.append(f"model.dropout {dropout:g} is ignored: ids are those of Hugging Face with dropout off (deterministic)")
    options = dict(
        unk_token=node.str("unk_token", None, nullable=True),
        continuing_subword_prefix=prefix,
        end_of_word_suffix=node.str("end_of_word_suffix", None, nullable=True),
        fuse_unk=node.bool("fuse_unk", False, nullable=True) or False,
        byte_fallback=node.bool("byte_fallback", False, nullable=True) or False,
        ignore_merges=node.bool("ignore_merges", False, nullable=True) or False,
    )
    pairs = _merge_pairs(node.child("merges").value, prefix or "")
    if pairs is not None:
        try:  # the model's own table building is the check of a well-formed list (all C-level)
            return HfBpeModel(vocab, pairs, **options)
        except (KeyError, TypeError):
            pass
    return HfBpeModel(vocab, _merges_checked(node.child("merges"), vocab, prefix or ""), **options)


def _merge_pairs(value: Any, prefix: str) -> list[Any] | None:
    """The merges as pairs if the list is uniformly well shaped, else None (then checked one by one)."""
    if isinstance(value, list) and value and set(map(type, value)) == {str}:
        pairs = [m.split(" ") for m in value if not m.startswith("#version")]
    elif isinstance(value, list) and set(map(type, value)) <= {list}:
        pairs = value
    else:
        return None
    if not {len(p) for p in pairs} <= {2} or (prefix and not all(isinstance(b, str) and b.startswith(prefix) for _, b in pairs)):
        return None
    return pairs


def _merges_checked(node: Node, vocab: dict[str, int], prefix: str) -> list[tuple[str, str]]:
    """The merges, each checked, so the first bad one is named with its JSON path."""
    out: list[tuple[str, str]] = []
    for item in node.as_list():
        value = item.value
        if isinstance(value, str):
            if value.startswith("#version"):
                continue
            parts = value.split(" ")
        elif isinstance(value, list) and all(isinstance(p, str) for p in value):
            parts = value
        else:
            item.fail(f'expected "LEFT RIGHT" or ["LEFT", "RIGHT"], got {value!r:.60}')
        if len(parts) != 2:
            item.fail(f"{value!r:.60} does not hold exactly two tokens")
        left, right = parts
        if prefix and not right.startswith(prefix):
            item.fail(f"right part {right!r} lacks the continuing_subword_prefix {prefix!r}")
        for token in (left, right, left + right[len(prefix):]):
            if token not in vocab:
                item.fail(f"{token!r} is not in model.vocab; vocab and merges must come from the same tokenizer")
        out.append((left, right))
    return out


def _unigram(node: Node) -> HfUnigramModel:
    pieces: list[tuple[str, float]] = []
    for entry in node.items("vocab"):
        pair = entry.as_list()
        if len(pair) != 2:
            entry.fail("expected [piece, score]")
        pieces.append((pair[0].as_str(), Node(entry.file, pair[1].path, {"s": pair[1].value}).number("s")))
    unk_id = node.int("unk_id", None, nullable=True, maximum=max(len(pieces) - 1, 0))
    try:
        return HfUnigramModel(pieces, unk_id=unk_id, byte_fallback=node.bool("byte_fallback", False))
    except ImportError:
        node.fail("model 'Unigram' needs the SentencePiece engine (bpe_engine.sentencepiece), which this installation does not have yet")


# -- added tokens, truncation, padding -------------------------------------------------------------
def _added_entries(root: Node) -> list[AddedToken]:
    """The listed added tokens; two different tokens listed with one id are refused. Each entry
    is checked on its raw value in one pass (a file of a million loads in seconds); one that is
    not the usual shape is read field by field, so the first field at fault is the one named."""
    listed_node = root.child("added_tokens")
    if listed_node.missing or listed_node.value is None:
        return []
    raw = listed_node.value
    if not isinstance(raw, list):
        listed_node.as_list()  # names what it is instead
    entries: list[AddedToken] = []
    listed: dict[int, str] = {}
    for index, value in enumerate(raw):
        entry = _usual_entry(value)
        if entry is None:
            entry = _added_entry(listed_node.child(index))
        if listed.setdefault(entry.id, entry.content) != entry.content:
            listed_node.child(index).child("id").fail(
                f"id {entry.id} is already listed for {listed[entry.id]!r}; every added token needs its own id"
            )
        entries.append(entry)
    return entries


def _usual_entry(raw: Any) -> AddedToken | None:
    """The entry when every field present has its type (None: let :func:`_added_entry` say which not)."""
    if not isinstance(raw, dict):
        return None
    special = raw.get("special", False)
    content, token_id = raw.get("content"), raw.get("id")
    single_word, lstrip, rstrip = raw.get("single_word", False), raw.get("lstrip", False), raw.get("rstrip", False)
    normalized = raw.get("normalized", not special if type(special) is bool else None)
    if (
        type(content) is not str
        or type(token_id) is not int
        or id_problem(token_id) is not None
        or type(special) is not bool
        or type(single_word) is not bool
        or type(lstrip) is not bool
        or type(rstrip) is not bool
        or type(normalized) is not bool
    ):
        return None
    return AddedToken(content, token_id, special, single_word, lstrip, rstrip, normalized)


def _added_entry(node: Node) -> AddedToken:
    special = node.bool("special", False)
    return AddedToken(
        content=node.str("content"),
        id=node.token_id("id"),
        special=special,
        single_word=node.bool("single_word", False),
        lstrip=node.bool("lstrip", False),
        rstrip=node.bool("rstrip", False),
        normalized=node.bool("normalized", not special),
    )


def _check_added_ids(node: Node, tokens: list[AddedToken], model: Any) -> None:
    for token in tokens:
        other = model.id_to_token.get(token.id)
        if other is not None and other != token.content:
            node.fail(
                f"added token {token.content!r} gets id {token.id}, which the model already gives to {other!r} "
                "(the model vocabulary has gaps); Hugging Face would make that id ambiguous"
            )


def _truncation(node: Node | None, notes: list[str]) -> Truncation | None:
    if node is None:
        return None
    direction = node.str("direction", "Right")
    max_length = node.int("max_length")
    notes.append(f"the file truncates every encoding to {max_length} tokens, as Hugging Face's encode does")
    return Truncation(max_length, left=direction == "Left")


def _padding(node: Node | None, notes: list[str]) -> Padding | None:
    if node is None:
        return None
    strategy = node.child("strategy").value
    fixed = None
    if isinstance(strategy, dict) and "Fixed" in strategy:
        fixed = Node(node.file, node.path + ".strategy", strategy).int("Fixed")
    notes.append("the file pads every encoding (pad tokens are part of the ids), as Hugging Face's encode does")
    return Padding(
        pad_id=node.token_id("pad_id", 0),
        pad_token=node.str("pad_token", "[PAD]"),
        fixed=fixed,
        multiple_of=node.int("pad_to_multiple_of", None, nullable=True, minimum=1),
        left=node.str("direction", "Right") == "Left",
    )
