"""A ``--scheduler`` address is checked with a bounded handshake before Dask's client uses it:
garbage, silence, a closed connection and refusal are each one line, within the connect timeout,
against local fake servers -- and a real scheduler's greeting passes."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from bpe_engine.corpus.dask_engine import count_files_on_dask  # noqa: E402
from bpe_engine.corpus.dask_handshake import check_scheduler  # noqa: E402
from bpe_engine.errors import ConfigError  # noqa: E402
from bpe_engine.pretokenizers import GPT2  # noqa: E402

TIMEOUT = 0.5
# What a dask.distributed scheduler writes first (2026.8): length, frame count, frame length, msgpack map.
_MAP = b"\x83\xabcompression\xc0\xa6python\x93\x03\x0b\x07\xafpickle-protocol\x05"
GREETING = struct.pack("<QQQ", 16 + len(_MAP), 1, len(_MAP)) + _MAP


@contextmanager
def fake_server(behave: Callable[[socket.socket], None]) -> Iterator[str]:
    """A one-connection TCP server on localhost that does ``behave`` with what connects."""
    server = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def serve() -> None:
        try:
            conn, _ = server.accept()
        except OSError:
            return
        with conn:
            behave(conn)
            done.wait(10)  # hold the connection until the test has its answer

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        done.set()
        server.close()
        thread.join(10)


def test_a_scheduler_greeting_passes() -> None:
    with fake_server(lambda conn: conn.sendall(GREETING)) as address:
        check_scheduler(address, TIMEOUT)


def test_garbage_is_one_line_naming_what_answered() -> None:
    with fake_server(lambda conn: conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")) as address:
        with pytest.raises(ConfigError, match=r"answered with something that is not Dask \(b'HTTP/1.1 400 Bad Request"):
            check_scheduler(address, TIMEOUT)


def test_a_length_of_exbibytes_is_refused_before_anything_is_allocated() -> None:
    with fake_server(lambda conn: conn.sendall(b"\xff" * 8 + b"x" * 8)) as address:
        with pytest.raises(ConfigError, match="not Dask"):
            check_scheduler(address, TIMEOUT)


def test_a_frame_of_the_right_size_without_dask_inside_is_garbage() -> None:
    body = struct.pack("<QQ", 1, 20) + b"y" * 20
    with fake_server(lambda conn: conn.sendall(struct.pack("<Q", len(body)) + body)) as address:
        with pytest.raises(ConfigError, match="not Dask"):
            check_scheduler(address, TIMEOUT)


def test_silence_is_one_line_after_the_connect_timeout() -> None:
    with fake_server(lambda conn: None) as address:
        with pytest.raises(ConfigError, match=r"accepted the connection but said nothing within the 0.5 s connect timeout"):
            check_scheduler(address, TIMEOUT)


def test_a_connection_closed_at_once_is_one_line() -> None:
    with fake_server(lambda conn: conn.shutdown(socket.SHUT_RDWR)) as address:
        with pytest.raises(ConfigError, match="closed the connection without a word"):
            check_scheduler(address, TIMEOUT)


def test_refusal_is_one_line() -> None:
    free = socket.create_server(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()  # nothing listens there now
    with pytest.raises(ConfigError, match=r"nothing listens at 'tcp://127.0.0.1:\d+' \(connection refused\)"):
        check_scheduler(f"tcp://127.0.0.1:{port}", TIMEOUT)


def test_count_on_dask_checks_the_scheduler_first(tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower lowest\n" * 10)
    with fake_server(lambda conn: conn.sendall(b"\xde\xad\xbe\xef" * 4 + b"garbage")) as address:
        with pytest.raises(ConfigError, match="not Dask") as caught:
            count_files_on_dask([corpus], GPT2, byte_level=True, scheduler=address, connect_timeout=TIMEOUT)
    assert "\n" not in str(caught.value)


def test_the_cli_says_one_line_for_a_port_that_answers_garbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import dask.config

    from bpe_cli.main import main

    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower lowest\n" * 10)
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        with fake_server(lambda conn: conn.sendall(b"\xff" * 8 + b"SSH-2.0-OpenSSH_9.6\r\n")) as address:
            code = main(["count", str(corpus), "--engine", "dask", "--scheduler", address, "-o", str(tmp_path / "o.tsv")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "answered with something that is not Dask (b'\\xff\\xff" in err and "SSH-2.0" in err
    assert not (tmp_path / "o.tsv").exists()
