"""The app's memory after training, and its G, beside the CLI's ``train`` on the same run.

Before: the app held 837 MB after training 50 MB at vocabulary 60,000, where the CLI
needs far less, and G (to the last merge) took 2.16 s. This runs both as a user does, whole
processes with the same settings: the installed ``bpe-explorer`` in a pseudo-terminal (the
``tests/pty`` harness, screen read with pyte) and ``bpe-explorer train`` as a subprocess.

    python benchmarks/bench_app_memory.py [--mb 50] [--vocab 60000] [--corpus FILE]

The corpus is the first N MB of ``FILE`` repeated as needed (default: the bench corpus
``en_10mb.txt`` of the shared corpora, else a mixed corpus built from ``tests/data``).

App: opened on the corpus, the facts line awaited (the corpus is cut once, for it and for ctrl+t),
the vocabulary typed, ctrl+t, "done:" awaited; its resident memory is read from /proc after a
short settle (VmRSS, and VmHWM: the peak so far), then G is timed until the screen shows the last
step, and the memory read again. CLI: ``train FILE --vocab-size V -o DIR``; its peak resident
memory is ``ru_maxrss`` from ``wait4`` (what ``/usr/bin/time -v`` reports: the process and the
counting workers it waited for), and its wall time. No figure is a test: the ratios are printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the pty harness imports itself as tests.pty.*

from tests.pty.app_screen import set_vocab, step_shown  # noqa: E402
from tests.pty.pty_terminal import Terminal, app_command  # noqa: E402

SETTLE = 1.0  # seconds after "done:" before memory is read (the last frames, the tokenizer built)


def build_corpus(out: Path, megabytes: float, source: Path | None) -> Path:
    """``megabytes`` MB of ``source`` repeated (whole lines), or of a mixed corpus from tests/data."""
    if source is None:
        shared = Path("/work/shared/corpora/bench/en_10mb.txt")
        candidates = [ROOT.parent.parent / "shared" / "corpora" / "bench" / "en_10mb.txt", shared]
        source = next((c for c in candidates if c.exists()), None)
    data = source.read_bytes() if source is not None else _mixed()
    want = int(megabytes * 1_000_000)
    with out.open("wb") as f:
        written = 0
        while written < want:
            part = data[: want - written]
            if len(part) < len(data):  # end on a whole line, as a file would
                part = part[: part.rfind(b"\n") + 1] or part
            f.write(part)
            written += len(part)
            if not part:
                break
    return out


def _mixed() -> bytes:
    data = ROOT / "tests" / "data"
    return b"".join((data / name).read_bytes() for name in ("alice29.txt", "constitution.txt"))


def memory_of(pid: int) -> tuple[int, int]:
    """``(VmRSS, VmHWM)`` of process ``pid`` in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) // 1024
    return fields["VmRSS"], fields["VmHWM"]


def measure_app(corpus: Path, vocab: int, work: Path) -> dict[str, float]:
    (work / "home").mkdir(exist_ok=True)
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    term = Terminal([*app_command(), str(corpus)], cols=120, rows=40, cwd=work, home=work / "home")
    try:
        term.wait_for("unique", 1800)  # the facts line: the corpus is cut
        out["facts"] = time.perf_counter() - t0
        out["rss_opened"], _ = memory_of(term.pid)
        set_vocab(term, vocab)
        t0 = time.perf_counter()
        term.press("ctrl+t", pause=0)
        term.wait_for(lambda s: "done:" in s, 3600)
        out["train"] = time.perf_counter() - t0
        time.sleep(SETTLE)
        out["rss_trained"], out["hwm_trained"] = memory_of(term.pid)
        term.press("f2")
        at_end = lambda s: (shown := step_shown(s)) is not None and shown[0] == shown[1] > 0  # noqa: E731
        watch = term.watch(at_end)
        t0 = time.perf_counter()
        term.press("G", pause=0)
        watch.wait(600)
        out["G"] = max(watch.arrived - t0, 0.0)
        time.sleep(SETTLE)
        out["rss_after_G"], out["hwm_after_G"] = memory_of(term.pid)
        term.press("ctrl+q")
        term.wait_exit(30)
    finally:
        term.close()
    return out


def measure_cli(corpus: Path, vocab: int, work: Path) -> dict[str, float]:
    t0 = time.perf_counter()
    process = subprocess.Popen(
        [*app_command(), "train", str(corpus), "--vocab-size", str(vocab), "-o", str(work / "cli-tok")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"},
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - t0
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"bpe-explorer train failed (exit {process.returncode})")
    return {"peak": usage.ru_maxrss / 1024, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=50, help="corpus size in MB (default 50)")
    parser.add_argument("--vocab", type=int, default=60_000)
    parser.add_argument("--corpus", type=Path, default=None, help="text repeated up to --mb (default en_10mb.txt)")
    args = parser.parse_args()
    sys.setswitchinterval(0.0005)  # the pty reader gets the GIL at once (see bench_pty.py)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        corpus = build_corpus(work / f"corpus_{args.mb:g}mb.txt", args.mb, args.corpus)
        print(f"corpus {corpus.stat().st_size:,} bytes; vocab {args.vocab:,}; load average {os.getloadavg()}")
        cli = measure_cli(corpus, args.vocab, work)
        app = measure_app(corpus, args.vocab, work)
        print(f"load average after: {os.getloadavg()}")
    print(f"{'CLI train: peak RSS':<36} {cli['peak']:7.0f} MB   wall {cli['seconds']:6.1f} s")
    print(f"{'app: opened, corpus cut (facts)':<36} {app['rss_opened']:7.0f} MB   after {app['facts']:6.1f} s")
    print(f"{'app: after training (RSS)':<36} {app['rss_trained']:7.0f} MB   ratio to the CLI's peak "
          f"{app['rss_trained'] / cli['peak']:5.2f}x   (app peak so far {app['hwm_trained']:.0f} MB; "
          f"ctrl+t -> done {app['train']:.1f} s)")
    print(f"{'app: G to the last merge':<36} {app['G']:7.2f} s    RSS after {app['rss_after_G']:.0f} MB "
          f"(ratio {app['rss_after_G'] / cli['peak']:.2f}x)")


if __name__ == "__main__":
    main()
