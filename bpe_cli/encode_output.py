"""What ``encode`` writes, block by block: each output mode as a sink that takes one block's text
and writes its part before the next block is read (:mod:`bpe_engine.streaming.encode_stream` cuts them).

- :class:`IdsSink` (``--ids``): the ids, space separated, one line; :class:`CountSink` (``--count``).
- :class:`JsonSink` (``--json``): one object, ``{"tokenizer", "tokens", "ids", "notes"}``. The
  tokens stream as they are made; the ids, which a reader wants as a list of their own, are kept
  in a spool file until the tokens are written (a few bytes per token, on disk past 1 MB), so
  ``ids`` comes after ``tokens`` -- JSON readers do not care about the order of members.
- :class:`JsonlSink` (``--jsonl``): one such object per input line, with its ``line`` number.
- :class:`ReadableSink` (no flag): the coloured tokens, then the ids, then the counts.

Each token's JSON object is made once per distinct token (:class:`TokenJson`) and laid out as
text: ``json.dumps`` of 2.5 million dicts was most of the 38 s ``encode --json`` took on 10 MB.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any

from bpe_engine.display import counted
from bpe_engine.memo import Memo
from bpe_engine.streaming.encode_stream import encode_ids
from bpe_engine.types import UNKNOWN_ID, Encoding, SpecialMode

from .output import (
    LINE_PIECE,
    UNKNOWN_MARK,
    RawJson,
    json_text,
    label_for,
    print_json_stream,
    print_token_line,
    say,
    stdout_console,
    token_json_fields,
)

SPOOL_IN_MEMORY = 1 << 20
"""Bytes of spooled ids kept in memory before the spool moves to a temporary file."""
_TAILS = {
    (special, unknown): f'], "special": {json_text(special)}, "unknown": {json_text(unknown)}}}'
    for special in (False, True)
    for unknown in (False, True)
}


class TokenJson:
    """The ``--json`` objects of a block's tokens as JSON text: each distinct token's fields
    (``id``, ``token``, ``text``, ``bytes``) are laid out once; only its ``byte_span`` differs.
    Exactly the text :func:`~bpe_cli.output.json_text` gives for each token's dict.

    The common case -- every token spelled as ``token_str`` spells its id, none unknown -- is
    checked for a whole piece at once and laid out with C-level lookups; any other piece goes
    token by token."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self._by_token: dict[tuple[int, str], str] = {}
        self._by_id: Memo[int, str] = Memo(self._head_of_id)
        self._spelled: Memo[int, str] = Memo(tokenizer.token_str)

    def items(self, encoding: Encoding, offset: int) -> Iterator[RawJson]:
        """The block's token objects, comma separated, :data:`~bpe_cli.output.LINE_PIECE` tokens
        at a time (a whole block's text at once took ~100 MB more); spans moved by ``offset``."""
        raw = encoding.text.encode("utf-8", "surrogatepass") if any(encoding.unknown) else b""
        for first in range(0, len(encoding.ids), LINE_PIECE):
            end = first + LINE_PIECE
            ids, tokens, spans = encoding.ids[first:end], encoding.tokens[first:end], encoding.byte_spans[first:end]
            special, unknown = encoding.special[first:end], encoding.unknown[first:end]
            tails = list(map(_TAILS.__getitem__, zip(special, unknown)))
            if not any(unknown) and list(map(self._spelled.__getitem__, ids)) == list(tokens):
                heads = list(map(self._by_id.__getitem__, ids))
            else:
                heads = [self._head(tid, token, raw[s:e] if unk and tid == UNKNOWN_ID else None, unk)
                         for tid, token, unk, (s, e) in zip(ids, tokens, unknown, spans)]  # fmt: skip
            yield RawJson(", ".join([f"{h}{s + offset}, {e + offset}{t}" for h, (s, e), t in zip(heads, spans, tails)]))

    def _head(self, tid: int, token: str, data: bytes | None, unknown: bool) -> str:
        if unknown:
            return self._lay_out(tid, token, data)
        key = (tid, token)
        head = self._by_token.get(key)
        if head is None:
            head = self._by_token[key] = self._lay_out(tid, token, None)
        return head

    def _head_of_id(self, tid: int) -> str:
        return self._lay_out(tid, self._spelled[tid], None)

    def _lay_out(self, tid: int, token: str, data: bytes | None) -> str:
        fields = token_json_fields(self.tokenizer.token_bytes(tid) if data is None else data)
        return (
            f'{{"id": {"null" if tid == UNKNOWN_ID else tid}, "token": {json_text(token)}, '
            f'"text": {json_text(fields["text"])}, "bytes": "{fields["bytes"]}", "byte_span": ['
        )



class IdSpool:
    """Ids kept aside in bounded memory, to be written after something else: one line of text per
    :data:`~bpe_cli.output.LINE_PIECE` ids (a piece to print, or an array's items to stream)."""

    def __init__(self, separator: str, unknown: str) -> None:
        self.separator, self.unknown = separator, unknown
        self._file: IO[str] = tempfile.SpooledTemporaryFile(SPOOL_IN_MEMORY, mode="w+", encoding="ascii", newline="\n")

    def add(self, ids: list[int] | tuple[int, ...]) -> None:
        unknown = self.unknown
        for start in range(0, len(ids), LINE_PIECE):
            piece = ids[start : start + LINE_PIECE]
            text = self.separator.join(map(str, piece) if UNKNOWN_ID not in piece else (unknown if i == UNKNOWN_ID else str(i) for i in piece))
            self._file.write(text + "\n")

    def pieces(self) -> Iterator[str]:
        """The ids' lines in order, each read once; the spool is closed afterwards."""
        self._file.seek(0)
        with self._file:
            for line in self._file:
                yield line[:-1]


Block = tuple[str, int]
"""One block of the input: its text and the byte offset where it starts."""


class Sink:
    """One output mode: ``write`` takes the blocks in order and writes each one's part before it
    asks for the next. ``unknown`` is set when a piece had no id; ``notes`` gathers the
    encodings' notes, each once."""

    def __init__(self, tokenizer: Any, special_mode: SpecialMode, add_special_tokens: bool = True) -> None:
        self.tokenizer, self.special_mode = tokenizer, special_mode
        self.add_special_tokens = add_special_tokens
        self.unknown = False
        self.notes: dict[str, None] = {}

    def write(self, blocks: Iterable[Block]) -> None:
        raise NotImplementedError

    def _ids(self, text: str) -> list[int]:
        ids, notes = encode_ids(self.tokenizer, text, self.special_mode, self.add_special_tokens)
        self.notes.update(dict.fromkeys(notes))
        self.unknown = self.unknown or UNKNOWN_ID in ids
        return ids

    def _detailed(self, text: str) -> Encoding:
        encoding = self.tokenizer.encode_detailed(
            text, special_mode=self.special_mode, add_special_tokens=self.add_special_tokens
        )
        self.notes.update(dict.fromkeys(encoding.notes))
        self.unknown = self.unknown or UNKNOWN_ID in encoding.ids
        return encoding


class IdsSink(Sink):
    """``--ids``: ``15339 1917 198``, written block by block; ``?`` for a piece without an id."""

    def write(self, blocks: Iterable[Block]) -> None:
        separator = ""
        for text, _ in blocks:
            ids = self._ids(text)
            if ids:
                shown = map(str, ids) if not self.unknown else (UNKNOWN_MARK if i == UNKNOWN_ID else str(i) for i in ids)
                sys.stdout.write(separator + " ".join(shown))
                separator = " "
        sys.stdout.write("\n")


class CountSink(Sink):
    """``--count``: how many tokens, and nothing else."""

    def write(self, blocks: Iterable[Block]) -> None:
        count = sum(len(self._ids(text)) for text, _ in blocks)
        sys.stdout.write(f"{count}\n")


class JsonSink(Sink):
    """``--json``: one object whose ``tokens`` array is written as the blocks are encoded."""

    def write(self, blocks: Iterable[Block]) -> None:
        token_json, spool = TokenJson(self.tokenizer), IdSpool(", ", "null")

        def tokens() -> Iterator[RawJson]:
            for text, offset in blocks:
                encoding = self._detailed(text)
                spool.add(encoding.ids)
                yield from token_json.items(encoding, offset)

        def fields() -> Iterator[tuple[str, Any]]:  # each value asked for once the one before is written
            yield "tokenizer", self.tokenizer.name
            yield "tokens", tokens()
            yield "ids", map(RawJson, spool.pieces())
            yield "notes", list(self.notes)

        print_json_stream(fields())


class JsonlSink(Sink):
    """``--jsonl``: each line (without its ``\\n``) encoded alone, one ``--json`` object per line
    with its ``line`` number first; the blocks end after a ``\\n``."""

    def write(self, blocks: Iterable[Block]) -> None:
        token_json = TokenJson(self.tokenizer)
        middle = f', "tokenizer": {json_text(self.tokenizer.name)}, "tokens": ['
        number = 0
        for text, _ in blocks:
            lines = text.split("\n")
            if text.endswith("\n"):
                lines.pop()  # a block ends after a line break, not with an empty line
            rows: list[str] = []  # written in batches: a write and a flush per line cost 1.5 s in 2 MB of short lines
            for line in lines:
                if len(rows) == LINE_PIECE:
                    sys.stdout.write("".join(rows))
                    rows.clear()
                number += 1
                enc = self._detailed(line)
                ids = ", ".join(map(str, enc.ids) if UNKNOWN_ID not in enc.ids else ("null" if i < 0 else str(i) for i in enc.ids))
                notes = json_text(list(dict.fromkeys(enc.notes)))
                rows.append(f'{{"line": {number}{middle}{", ".join(token_json.items(enc, 0))}], "ids": [{ids}], "notes": {notes}}}\n')
            sys.stdout.write("".join(rows))
            sys.stdout.flush()


class ReadableSink(Sink):
    """No flag: the tokens coloured (or space separated without colour), then the ids line, then
    the counts. Both lines are printed in pieces as the blocks come; the ids wait in a spool."""

    def write(self, blocks: Iterable[Block]) -> None:
        console = stdout_console()
        tokenizer, spool = self.tokenizer, IdSpool(" ", UNKNOWN_MARK)
        n_ids = n_unknown = n_chars = n_bytes = 0
        for text, _ in blocks:
            encoding = self._detailed(text)
            labels = [label_for(tokenizer, i, token) for i, token in zip(encoding.ids, encoding.tokens)]
            print_token_line(console, labels, encoding.special, encoding.unknown, start=n_ids, end="")
            spool.add(encoding.ids)
            n_ids += len(encoding.ids)
            n_unknown += sum(encoding.unknown)
            n_chars += len(text)
            n_bytes += len(text.encode("utf-8", "surrogatepass"))
        console.print()
        for n, piece in enumerate(spool.pieces()):
            console.print(piece if not n else " " + piece, style="cyan", markup=False, end="")
        console.print()
        ratio = f", {n_bytes / n_ids:.2f} bytes/token" if n_ids else ""
        unknown = f", {n_unknown:,} unknown" if n_unknown else ""
        counts = f"{counted(n_ids, 'token')}{unknown}, {counted(n_chars, 'character')}, {counted(n_bytes, 'byte')}"
        say(console, f"{counts}{ratio} ({tokenizer.name})", "dim")
