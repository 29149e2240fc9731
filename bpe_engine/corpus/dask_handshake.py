"""Checking that a ``--scheduler`` address is a Dask scheduler before Dask's client talks to it.

Dask's client trusts what answers: pointed at a port where something else listens, it read that
program's first bytes as a frame length and failed in numpy with "Unable to allocate 2.89 EiB"
(a traceback); a port that accepts and stays silent held it for its whole connect timeout, and
retried. A Dask scheduler speaks first: on every connection its comm writes a handshake frame (an
8-byte little-endian length, the frame count and lengths, then a small msgpack map naming
``compression``, ``python`` and ``pickle-protocol``: about 60 bytes). :func:`check_scheduler`
opens a plain TCP connection, reads at most :data:`GREETING_BYTES` of that greeting within the
connect timeout, and closes it: refusal, silence, a closed connection and garbage each become one
:class:`~bpe_engine.errors.ConfigError` line saying what answered and what was expected.

Only ``tcp://`` (Dask's default, also for a bare ``host:port``) is checked this way; ``tls://``,
``ws://`` and the rest wrap the same frames in a protocol of their own, and are left to Dask.
"""

from __future__ import annotations

import socket
import struct
import time

from ..display import visible_text
from ..errors import ConfigError

GREETING_BYTES = 1 << 16
"""The most a greeting may take: a scheduler's is ~60 bytes; anything longer is not one."""
GREETING_KEY = b"pickle-protocol"
"""A key of every Dask handshake map (msgpack keeps it as these bytes)."""
DEFAULT_PORT = 8786
_WAY = "give --scheduler the address a Dask scheduler prints at start (tcp://HOST:8786), or leave it out for a local cluster"


def check_scheduler(address: str, timeout: float) -> None:
    """Return when a Dask scheduler greets us at ``address`` within ``timeout`` seconds; raise
    :class:`ConfigError` (one line) otherwise. Non-TCP addresses are not checked."""
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme != "tcp":
        return
    host, port = parse_host_port(location, default_port=DEFAULT_PORT)
    shown = repr(visible_text(address))
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise ConfigError(f"nothing listens at {shown} (connection refused); {_WAY}") from None
    except TimeoutError:
        raise ConfigError(f"no answer from {shown} within the {timeout:g} s connect timeout; {_WAY}") from None
    except OSError as exc:
        raise ConfigError(f"cannot reach {shown}: {exc.strerror or exc}; {_WAY}") from None
    with sock:
        head = _read(sock, 8, deadline, shown, timeout)
        total = struct.unpack("<Q", head)[0] if len(head) == 8 else 0
        if len(head) < 8 or not 16 <= total <= GREETING_BYTES:
            raise _not_dask(shown, head + _more(sock))
        body = _read(sock, total, deadline, shown, timeout)
        if len(body) < total or not _frames_add_up(body) or GREETING_KEY not in body:
            raise _not_dask(shown, head + body)


def _read(sock: socket.socket, size: int, deadline: float, shown: str, timeout: float) -> bytes:
    """Up to ``size`` bytes before ``deadline`` (fewer when the peer closes)."""
    data = b""
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(size - len(data))
        except TimeoutError:
            break
        except OSError as exc:
            raise ConfigError(f"{shown} broke the connection ({exc.strerror or exc}); {_WAY}") from None
        if not chunk:
            if not data:
                raise ConfigError(f"{shown} closed the connection without a word: not a Dask scheduler, which greets first; {_WAY}")
            break
        data += chunk
    if not data:
        raise ConfigError(
            f"{shown} accepted the connection but said nothing within the {timeout:g} s connect timeout; "
            f"a Dask scheduler greets first: is a Dask scheduler listening there? {_WAY}"
        )
    return data


def _more(sock: socket.socket) -> bytes:
    """A few more bytes of what answered, if they are there already: for the message."""
    sock.settimeout(0.05)
    try:
        return sock.recv(40)
    except OSError:
        return b""


def _frames_add_up(body: bytes) -> bool:
    """Whether ``body`` is Dask's frame layout: a count, that many lengths, frames of those lengths."""
    if len(body) < 8:
        return False
    count = struct.unpack_from("<Q", body)[0]
    if not 1 <= count <= 64 or len(body) < 8 * (count + 1):
        return False
    lengths = struct.unpack_from(f"<{count}Q", body, 8)
    return 8 * (count + 1) + sum(lengths) == len(body)


def _not_dask(shown: str, data: bytes) -> ConfigError:
    preview = visible_text(repr(data[:48]))
    return ConfigError(f"{shown} answered with something that is not Dask ({preview}); expected a Dask scheduler's greeting; {_WAY}")
