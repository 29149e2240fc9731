"""Counting on a Dask cluster: the same counting function, scheduled by ``dask.distributed``.

The corpus is cut into the same blocks as on one machine (:mod:`.blocks`: byte ranges whose
workers find their own bounds), a ``dask.bag`` holds them, every block is counted by
:func:`.counting.count_unit` -- the function the local path runs -- and the parts are reduced
like ``Bag.frequencies`` does, except that the reduction is the ordered merge
(:func:`.counting.merge_parts`). That merge is associative and Dask reduces consecutive
partitions in order, so the table is the local path's exactly, first-appearance order included.

Workers read the files themselves: give paths every worker can open (a shared file system) or
URLs ``fsspec`` understands (``s3://bucket/corpus/*.txt`` with ``s3fs`` installed on the
workers). Without ``scheduler`` a ``LocalCluster`` of ``workers`` processes is started for the
run; with it, the run goes to that ``dask.distributed`` scheduler.

Needs the ``[dask]`` extra (``pip install 'bpe-explorer[dask]'``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from ..display import visible_text
from ..errors import BpeEngineError, ConfigError, CorpusError
from ..pretokenizers import PreTokenizer
from .blocks import BLOCK_BYTES, FileBlock, file_blocks
from .counting import CountJob, Part, WordCounts, count_unit, merge_parts
from .dask_handshake import check_scheduler
from .documents import DecodeErrors
from .tally import source_of

PARTITION_BYTES = 64 << 20
"""Bytes of corpus per Dask partition: 64 blocks, counted one after the other and merged as they
come, so a worker holds one block and one partial table at a time."""


def count_files_on_dask(
    paths: Sequence[str | Path],
    pre_tokenizer: PreTokenizer,
    special_tokens: Iterable[str] = (),
    *,
    byte_level: bool,
    lines: bool = False,
    errors: DecodeErrors = "strict",
    scheduler: str | None = None,
    workers: int = 2,
    client: Any = None,
    block_bytes: int = BLOCK_BYTES,
    partition_bytes: int = PARTITION_BYTES,
    connect_timeout: float | None = None,
) -> WordCounts:
    """Count the words of files on a Dask cluster; the same table as ``count_files``.

    ``client``: an existing ``distributed.Client`` to run on (then ``scheduler`` and ``workers``
    are not used). ``workers`` (1 or more) is the size of the local cluster started without a
    ``scheduler``; the caller caps it (a thousand processes on two cores spent minutes on 3 KB). A
    scheduler that cannot be reached or a cluster lost while counting is one :class:`CorpusError`
    line; Dask's own log lines and tracebacks (58 lines for a scheduler killed mid-count) are held
    back, and nothing is returned to write. A ``scheduler`` is first checked to greet as Dask
    does within ``connect_timeout`` seconds (default: Dask's ``distributed.comm.timeouts.connect``):
    :func:`.dask_handshake.check_scheduler`.
    """
    try:
        import dask.bag as db
        from distributed import Client, LocalCluster
    except ImportError:
        raise ConfigError("--engine dask needs Dask: pip install 'bpe-explorer[dask]'") from None
    if workers < 1:
        raise ConfigError(f"--workers must be 1 or more (got {workers})")
    job = CountJob(pre_tokenizer, tuple(special_tokens), byte_level, errors, lines)
    blocks = list(_blocks(paths, job, block_bytes))
    per_partition = max(1, partition_bytes // block_bytes)
    bag = db.from_sequence(blocks, partition_size=per_partition)
    total = bag.map(count_unit, job).reduction(merge_parts, merge_parts, split_every=8)
    where = "a local cluster" if client is None and scheduler is None else f"the Dask scheduler {_shown(scheduler, client)}"
    with _quiet_dask(), ExitStack() as stack:
        try:
            if client is None:
                if scheduler is None:
                    cluster = stack.enter_context(
                        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0")
                    )
                    client = stack.enter_context(Client(cluster))
                else:
                    check_scheduler(scheduler, _connect_timeout() if connect_timeout is None else connect_timeout)
                    client = stack.enter_context(Client(scheduler, timeout=_connect_timeout() if connect_timeout is None else connect_timeout))
        except ConfigError:
            raise  # the handshake's own line: what answered, what was expected
        except (ValueError, TypeError, OSError) as exc:
            raise ConfigError(f"cannot use {where}: {_first_line(exc)}") from None
        try:
            part: Part = client.compute(total).result()
        except BpeEngineError:
            raise  # the corpus's own error, raised on a worker (a bad byte, a stretch too long)
        except Exception as exc:  # noqa: BLE001 - however the cluster was lost, one line says so
            raise CorpusError(f"lost {where} while counting ({_first_line(exc)}); nothing was written") from None
    return WordCounts(part.counts, byte_level, documents=part.documents, total_words=sum(part.counts.values()))


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """Hold back Dask's log records while it runs for us (the error we raise says what happened):
    ``distributed`` gives its loggers levels of their own, so each is raised, then put back."""
    names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
    loggers = [logging.getLogger(n) for n in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def _connect_timeout() -> float:
    """Dask's own connect timeout, in seconds (``distributed.comm.timeouts.connect``, 30 s unless set)."""
    import dask.config
    from dask.utils import parse_timedelta

    return float(parse_timedelta(dask.config.get("distributed.comm.timeouts.connect", "30s"), default="seconds"))


def _shown(scheduler: str | None, client: Any) -> str:
    address = scheduler if scheduler is not None else getattr(getattr(client, "scheduler", None), "address", "?")
    return repr(visible_text(str(address)))


def _first_line(exc: BaseException) -> str:
    """An exception in a few words: its first line (a cancelled task's reason alone), its type
    when it has no message."""
    text = str(exc).strip().splitlines()
    if not text:
        return type(exc).__name__
    line = text[0].partition("cancelled for reason: ")[2].rstrip(".") or text[0]
    return visible_text(line)[:200]


def _blocks(paths: Sequence[str | Path], job: CountJob, block_bytes: int) -> Iterator[FileBlock]:
    """The blocks of every file, named by absolute path or URL (workers may run elsewhere)."""
    rule = job.rule
    for path in paths:
        name = str(path)
        if name == "-":
            raise ConfigError("--engine dask reads files its workers can open; standard input stays local (--engine local)")
        where = name if "://" in name else os.path.abspath(name)
        source = source_of(where)
        if source.size is None:
            if source.stream is not None:
                source.stream.close()
            raise ConfigError(f"--engine dask reads files its workers can open; {name} is a pipe or device: count it with --engine local")
        yield from file_blocks(name, where, source.size, rule, block_bytes)
