"""Length-prefixed pickle frames over a pipe: how the parent and the training child talk.

Each frame is an 8-byte big-endian length and a pickle. Both ends are processes of this package
(the child is started with the parent's own interpreter), so pickle is safe here: no frame ever
comes from a file or a user.
"""

from __future__ import annotations

import os
import pickle
import struct
from typing import IO, Any

_HEADER = struct.Struct(">Q")


def write_frame(stream: IO[bytes], obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)))
    stream.write(data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> Any:
    """The next object; EOFError when the other end closed (or died) between frames."""
    header = _read_exactly(stream.fileno(), _HEADER.size)
    return pickle.loads(_read_exactly(stream.fileno(), _HEADER.unpack(header)[0]))


def _read_exactly(fd: int, size: int) -> bytes:
    parts: list[bytes] = []
    left = size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise EOFError("the other end closed the pipe")
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)
