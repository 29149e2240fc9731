"""BPE merges of a big corpus computed in a child process, streamed back to the training worker.

Why: the merge loop is pure Python. In a thread it shares the GIL with the UI loop, and on a
2-core machine the two hand the GIL back and forth: frames waited 200-350 ms while 1 MB trained.
In a child process the loop has its own interpreter; the worker thread only sleeps in
``Connection.poll`` (which releases the GIL) and unpickles a batch of merges every ~0.1 s.

The worker still builds the :class:`~bpe_engine.stepper.Stepper` and the word counts (the app
needs the stepper anyway, and its pass over the corpus can be cancelled); the child receives the
word counts and the trainer config, runs ``BpeTraining(...).steps()`` and sends:

* ``("started", target_merges, notes)`` once the pairs are counted;
* ``("batch", steps)`` about every ``batch_seconds`` (``MergeStep`` pickles: frozen, slotted);
* ``("finished", vocab, merges)`` -- the parent rebuilds the tokenizer exactly as
  :meth:`BpeTraining.tokenizer` does (:func:`tokenizer_from_state`);
* ``("failed", message)`` on any error, worded as the in-thread path words it.

The parent posts the app's usual messages, so the app and the protocol do not change. The
start method is ``spawn``: the app process runs threads, and forking it could copy a held lock.
This module imports only ``bpe_engine`` at the top, so the child does not load Textual.
"""

from __future__ import annotations

import gc
import multiprocessing
import time
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from bpe_engine.bpe_trainer import BpeTrainerConfig, BpeTraining
from bpe_engine.corpus import WordCounts
from bpe_engine.errors import BpeEngineError
from bpe_engine.types import MergeStep

if TYPE_CHECKING:  # pragma: no cover
    from textual.message import Message

    from bpe_engine.bpe_model import BpeTokenizer
    from bpe_engine.stepper import Stepper

START_METHOD = "spawn"
POLL_SECONDS = 0.05  # how long the worker sleeps in poll() before it looks at is_cancelled again
JOIN_SECONDS = 1.0  # how long a finished or terminated child may take to exit before it is killed


def tokenizer_from_state(
    config: BpeTrainerConfig, vocab: Mapping[str, int], merges: Sequence[tuple[str, str]]
) -> BpeTokenizer:
    """The tokenizer :meth:`BpeTraining.tokenizer` builds from the same vocab and merge list.

    A pair merged twice (possible after an id reuse) keeps its last rank, as HF's model does;
    the test suite checks this against the in-thread tokenizer merge for merge.
    """
    from bpe_engine.bpe_model import BpeTokenizer

    last: dict[tuple[str, str], int] = {}
    for rank, pair in enumerate(merges):
        last[pair] = rank
    kept = [pair for rank, pair in enumerate(merges) if last[pair] == rank]
    specials = {t: vocab[t] for t in config.special_tokens}
    unk = "<unk>" if not config.byte_level and "<unk>" in specials else None
    return BpeTokenizer(
        name=f"bpe-{len(vocab)}",
        vocab=dict(vocab),
        merges=kept,
        pre_tokenizer=config.pre_tokenizer,
        byte_level=config.byte_level,
        special_tokens=specials or None,
        unk_token=unk,
    )


def child_main(conn: Connection, counts: WordCounts, config: BpeTrainerConfig, batch_seconds: float) -> None:
    """The child's whole life: train, stream the merges, send the final state, exit.

    The collector stays off: the process is short-lived and its containers live to the end, so
    full collections would only walk them again and again. A closed pipe (the parent died or gave
    up) ends the child at its next send.
    """
    gc.disable()
    try:
        training = BpeTraining(counts, config)
        conn.send(("started", int(training.target_merges), tuple(training.notes)))
        batch: list[MergeStep] = []
        last_send = time.monotonic()
        for step in training.steps():
            batch.append(step)
            now = time.monotonic()
            if now - last_send >= batch_seconds:
                conn.send(("batch", tuple(batch)))
                batch = []
                last_send = now
        conn.send(("batch", tuple(batch)))
        conn.send(("finished", training.vocab, list(training.merges)))
    except (BrokenPipeError, EOFError, OSError):
        return  # nobody is listening any more
    except BpeEngineError as exc:
        _send_quietly(conn, ("failed", str(exc)))
    except Exception as exc:  # a bug: reported like the in-thread path reports it
        _send_quietly(conn, ("failed", f"internal error ({type(exc).__name__}): {exc}"))
    finally:
        conn.close()


def _send_quietly(conn: Connection, message: tuple[Any, ...]) -> None:
    try:
        conn.send(message)
    except OSError:
        pass


def _stop(process: multiprocessing.process.BaseProcess, *, ended: bool) -> None:
    """Make sure the child is gone and reaped (no zombie), however the run ended.

    A child that sent its last message (``ended``) is exiting on its own and gets a moment;
    a cancelled one is terminated at once, so quitting the app mid-run stays quick.
    """
    if ended:
        process.join(JOIN_SECONDS)
    if process.is_alive():
        process.terminate()
        process.join(JOIN_SECONDS)
    if process.is_alive():
        process.kill()
        process.join()
    process.close()


def stream_child_training(
    counts: WordCounts,
    config: BpeTrainerConfig,
    stepper: Stepper,
    run_id: int,
    post: Callable[[Message], object],
    is_cancelled: Callable[[], bool],
    *,
    start: float,
    batch_seconds: float = 0.1,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Run the merges in a child process and post Started, Batch..., Finished or Failed.

    Called by :func:`tui.training.run_training` after it built ``stepper`` and ``counts``;
    ``start`` is that run's start time, so the rate and the seconds cover the whole run as on
    the in-thread path. Returns silently when cancelled (the child is terminated first).
    """
    from .messages import TrainingBatch, TrainingFailed, TrainingFinished, TrainingStarted

    ctx = multiprocessing.get_context(START_METHOD)
    reader, writer = ctx.Pipe(duplex=False)
    process = ctx.Process(
        target=child_main, args=(writer, counts, config, batch_seconds), name="bpe-merges", daemon=True
    )
    try:
        process.start()
    except Exception:
        reader.close()
        writer.close()
        raise
    writer.close()  # the child holds the only writer: its exit shows up here as EOF
    target = 0
    done = 0
    ended = False
    try:
        while True:
            if is_cancelled():
                return
            if not reader.poll(POLL_SECONDS):
                continue
            try:
                message = reader.recv()
            except EOFError:
                ended = True
                process.join(JOIN_SECONDS)
                post(
                    TrainingFailed(
                        run_id,
                        f"the training process stopped unexpectedly (exit code {process.exitcode}) after "
                        f"{done} merges; train again, or use a smaller corpus if memory is short",
                    )
                )
                return
            if is_cancelled():
                return
            kind = message[0]
            ended = kind in ("finished", "failed")
            if kind == "started":
                target = message[1]
                post(TrainingStarted(run_id, stepper, target, message[2]))
            elif kind == "batch":
                steps = message[1]
                done += len(steps)
                now = clock()
                post(TrainingBatch(run_id, steps, done, target, done / max(now - start, 1e-9)))
            elif kind == "finished":
                tokenizer = tokenizer_from_state(config, message[1], message[2])
                post(TrainingFinished(run_id, tokenizer, done, clock() - start))
                return
            else:  # "failed"
                post(TrainingFailed(run_id, message[1]))
                return
    finally:
        reader.close()
        _stop(process, ended=ended)
