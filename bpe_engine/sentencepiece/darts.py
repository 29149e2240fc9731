"""Read-only view of a darts-clone double-array trie, as SentencePiece stores its normalization rules.

A SentencePiece ``precompiled_charsmap`` is ``<trie size: uint32 LE><trie units><replacement
pool>``: the trie maps UTF-8 byte strings (the rule keys) to offsets into the pool of
NUL-terminated replacement strings. Each 32-bit unit packs a label (the byte that leads to it),
a has-leaf flag and an offset to its children, exactly as darts-clone's ``DoubleArrayUnit``:

* ``label  = unit & 0x800000FF`` (a value unit has the top bit set, so it never equals a byte);
* ``offset = (unit >> 10) << ((unit & 0x200) >> 6)``;
* ``has_leaf = unit & 0x100``; the leaf's value is ``units[base] & 0x7FFFFFFF``.

Traversal is bounds-checked: a malformed blob ends a match instead of reading past the array.
The trie is a DAWG (shared suffixes), so enumerating every key can cost seconds; callers walk only
the short prefixes they need (:meth:`DoubleArray.walk`).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Iterator

from ..errors import ConfigError


class DoubleArray:
    """The units of one double-array trie."""

    __slots__ = ("_children", "units")

    def __init__(self, units: array) -> None:
        self.units = units
        self._children: dict[int, list[int]] | None = None

    @classmethod
    def from_charsmap(cls, blob: bytes) -> tuple[DoubleArray, bytes]:
        """Split a precompiled charsmap into its trie and its replacement pool.

        Checks what SentencePiece's ``DecodePrecompiledCharsMap`` checks, with the same reasons.
        """
        if len(blob) <= 4:
            raise ConfigError("the normalization rule blob is broken (shorter than its 4-byte header)")
        (trie_size,) = struct.unpack_from("<I", blob, 0)
        if trie_size >= len(blob):
            raise ConfigError(f"the normalization trie claims {trie_size} bytes but the blob holds {len(blob)}")
        if trie_size < 1024 or trie_size % 1024:
            raise ConfigError(f"the normalization trie size {trie_size} is not a positive multiple of 1024")
        units = array("I")
        units.frombytes(blob[4 : 4 + trie_size])
        if units.itemsize != 4:  # pragma: no cover - every CPython platform has a 4-byte 'I'
            raise ConfigError("this platform has no 32-bit unsigned array type")
        if struct.pack("=I", 1) != struct.pack("<I", 1):  # pragma: no cover - big-endian hosts
            units.byteswap()
        pool = blob[4 + trie_size :]
        if not pool.endswith(b"\0"):
            raise ConfigError("the normalization replacement pool is not NUL-terminated")
        return cls(units), pool

    def root(self) -> int:
        """The base of the root node (children of the root are at ``root() ^ byte``)."""
        return self.units[0] >> 10 << ((self.units[0] & 0x200) >> 6)

    def step(self, base: int, byte: int) -> tuple[int, int | None] | None:
        """Follow ``byte`` from the node whose children start at ``base``.

        Returns ``(child_base, value)`` (``value`` None when no key ends here), or None when no
        key continues with ``byte``.
        """
        units = self.units
        pos = base ^ byte
        if pos >= len(units):
            return None
        unit = units[pos]
        if unit & 0x800000FF != byte:
            return None
        child = pos ^ (unit >> 10 << ((unit & 0x200) >> 6))
        if unit & 0x100:
            if child >= len(units):
                return None
            return child, units[child] & 0x7FFFFFFF
        return child, None

    def prefixes(self, data: bytes, start: int = 0) -> list[tuple[int, int]]:
        """Every key that is a prefix of ``data[start:]``: ``(byte length, value)``, shortest first
        (darts-clone's ``commonPrefixSearch``)."""
        out: list[tuple[int, int]] = []
        units = self.units
        n_units = len(units)
        node = self.root()
        for i in range(start, len(data)):
            byte = data[i]
            pos = node ^ byte
            if pos >= n_units:
                break
            unit = units[pos]
            if unit & 0x800000FF != byte:
                break
            node = pos ^ (unit >> 10 << ((unit & 0x200) >> 6))
            if unit & 0x100:
                if node >= n_units:
                    break
                out.append((i + 1 - start, units[node] & 0x7FFFFFFF))
        return out

    def walk(self, base: int, max_bytes: int) -> Iterator[tuple[bytes, int, int | None]]:
        """Every path of 1..``max_bytes`` bytes below the node at ``base``: ``(bytes, child_base,
        value)``, for shallow walks (the number of paths grows fast with depth)."""
        children = self._child_labels()
        stack: list[tuple[bytes, int]] = [(b"", base)]
        while stack:
            prefix, node = stack.pop()
            for byte in children.get(node, ()):
                found = self.step(node, byte)
                if found is None:
                    continue
                key = prefix + bytes((byte,))
                yield key, found[0], found[1]
                if len(key) < max_bytes:
                    stack.append((key, found[0]))

    def _child_labels(self) -> dict[int, list[int]]:
        """``base -> labels`` of every unit, indexed once: unit ``pos`` with label ``c`` can only
        be the child ``c`` of the node whose base is ``pos ^ c`` (darts-clone gives each node its own
        base; spare units point at unused bases, and :meth:`step` re-checks every hit)."""
        if self._children is None:
            index: dict[int, list[int]] = {}
            for pos, unit in enumerate(self.units):
                label = unit & 0x800000FF
                if 0 < label < 256:
                    index.setdefault(pos ^ label, []).append(label)
            self._children = index
        return self._children
