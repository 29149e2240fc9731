"""The app as a user feels it, in a real pseudo-terminal: key -> screen latency, first paint,
esc -> training stopped, and training time in the app against the CLI.

Everything runs through the same pty harness as ``tests/pty`` (the installed ``bpe-explorer``
beside this interpreter, screen read with pyte). Each figure is printed next to a peer measured
in the same run: a minimal Textual app for latencies and first paint (so the ratio says what
bpe-explorer adds to Textual itself), the CLI's ``train`` for training time.

    python benchmarks/bench_pty.py [CORPUS] [--vocab 4000] [--rounds 15]

CORPUS defaults to the first 5 MB of ``../shared/corpora/bench/en_10mb.txt`` (or a mixed corpus
built from ``tests/data`` when that is absent). Goals: key -> screen <= 50 ms median
idle and <= 100 ms while training, first paint <= 1 s, esc stops training <= 0.5 s, training in
the app <= 1.3x the CLI.

A key's latency runs until the app's output that shows its effect has *arrived* at the terminal:
the harness's VT emulator (pyte, pure Python) needs 50-90 ms to draw the ~60 KB of a tab switch
at 120x40, which a real terminal draws in well under a millisecond, so timing to pyte's drawing
measured pyte more than the app. That figure is printed beside each row ("drawn by pyte").

Training is timed from ctrl+t to "done:" (three runs, median), the CLI from its start to its exit
(three runs, median). The app cuts the corpus into words when it is opened, for its facts line,
and ctrl+t trains on that cut; the time from opening to the facts line is printed beside it, so
nothing the app does before ctrl+t is hidden.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the pty harness imports itself as tests.pty.*
sys.path.insert(0, str(ROOT / "benchmarks"))

from tests.pty.app_screen import set_vocab, step_shown  # noqa: E402
from tests.pty.pty_terminal import Terminal, app_command  # noqa: E402

MINIMAL_APP = '''
from textual.app import App
from textual.binding import Binding
from textual.widgets import Static, TabbedContent, TabPane, TextArea, Footer

class Minimal(App):
    BINDINGS = [
        Binding("n", "bump", "Next"),
        Binding("f2", "tab('a')", "A", priority=True),
        Binding("f4", "tab('b')", "B", priority=True),
    ]
    def compose(self):
        with TabbedContent(id="tabs"):
            with TabPane("Alpha", id="a"):
                yield Static("count 0", id="count")
            with TabPane("Beta", id="b"):
                yield Static("beta pane", id="chars")
                yield TextArea(TEXT, id="text")
        yield Footer()
    def on_mount(self):
        self.n = 0
        self.query_one("#count").focus()
    def action_bump(self):
        self.n += 1
        self.query_one("#count", Static).update(f"count {self.n}")
    def action_tab(self, t):
        self.screen.set_focus(None)
        self.query_one("#tabs", TabbedContent).active = t
        if t == "b":
            self.query_one("#text").focus()
    def on_text_area_changed(self, event):
        self.query_one("#chars", Static).update(f"{len(event.text_area.text):,} characters")

Minimal().run()
'''


TRAIN_RUNS = 3  # training is timed this many times in the app and in the CLI: the median of each


class Latency(NamedTuple):
    """Seconds from a key until the app's output that shows its effect *arrived* at the terminal
    (the figure: what a user's terminal shows then), and until pyte had drawn it (the harness's
    own VT emulator, pure Python: 50-90 ms for a tab switch's ~60 KB; printed beside)."""

    arrived: float
    drawn: float


def timed(term: Terminal, action: Callable[[], None], until: Callable[[str], object], timeout: float = 90) -> Latency:
    """How long from ``action`` (a key press) until the screen satisfies ``until``."""
    watch = term.watch(until)
    start = time.perf_counter()
    action()
    watch.wait(timeout)
    return Latency(max(watch.arrived - start, 0.0), watch.drawn - start)


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


def row(name: str, ours: list[Latency] | list[float], peer: list[Latency] | list[float]) -> None:
    m, p = stats([x.arrived if isinstance(x, Latency) else x for x in ours])
    pm, pp = stats([x.arrived if isinstance(x, Latency) else x for x in peer])
    drawn = [x.drawn for x in ours if isinstance(x, Latency)]
    also = f"   (drawn by pyte: median {statistics.median(drawn) * 1000:6.1f} ms)" if drawn else ""
    print(f"{name:<34} median {m * 1000:7.1f} ms  p95 {p * 1000:7.1f} ms   peer {pm * 1000:6.1f} / {pp * 1000:6.1f} ms"
          f"   ratio {m / pm:5.2f}x{also}")


def step_of(screen: str) -> int | None:
    shown = step_shown(screen)
    return shown[0] if shown else None


def chars_of(screen: str) -> int | None:
    """The length of the Compare text (its stats line says "N code points"; the peer "N characters")."""
    m = re.search(r"([\d,]+) (?:characters|code points)", screen)
    return int(m.group(1).replace(",", "")) if m else None


def default_corpus(work: Path) -> Path:
    shared = ROOT.parent.parent / "shared" / "corpora" / "bench" / "en_10mb.txt"
    for candidate in (shared, Path("/work/shared/corpora/bench/en_10mb.txt")):
        if candidate.exists():
            out = work / "en_5mb.txt"
            with candidate.open("rb") as f:
                out.write_bytes(f.read(5_000_000))
            return out
    from conftest import build_corpus  # tests/pty/conftest.py

    return build_corpus(work / "mixed_5mb.txt", 5_000_000, seed=5)


def start(argv: list[str], work: Path, size: tuple[int, int] = (120, 40)) -> Terminal:
    (work / "home").mkdir(exist_ok=True)
    return Terminal(argv, cols=size[0], rows=size[1], cwd=work, home=work / "home")


def measure_peer(work: Path, rounds: int, text: str) -> dict[str, list[Any]]:
    script = work / "minimal_app.py"
    script.write_text(f"TEXT = {text!r}\n" + MINIMAL_APP)
    out: dict[str, list[Any]] = {"paint": [], "n": [], "tab": [], "key": []}
    for _ in range(3):
        t0 = time.perf_counter()
        term = start([sys.executable, str(script)], work)
        term.wait_for("count 0", 30)
        out["paint"].append(time.perf_counter() - t0)
        term.close()
    term = start([sys.executable, str(script)], work)
    term.wait_for("count 0", 30)
    for i in range(rounds):
        out["n"].append(timed(term, lambda: term.press("n", pause=0), lambda s, i=i: f"count {i + 1}" in s))
    for i in range(rounds):
        key, want = ("f4", "beta pane") if i % 2 == 0 else ("f2", "count ")
        out["tab"].append(timed(term, lambda key=key: term.press(key, pause=0), lambda s, want=want: want in s))
        time.sleep(0.05)
    term.press("f4")
    term.wait_for("beta pane")
    time.sleep(0.3)
    term.send("x")
    term.wait_for(lambda s: chars_of(s) is not None)
    base = chars_of(term.screen_text()) or 0
    for i in range(rounds):
        out["key"].append(timed(term, lambda: term.send("x"), lambda s, i=i: chars_of(s) == base + i + 1))
    term.close()
    return out


def measure_app(work: Path, corpus: Path, rounds: int, vocab: int, text: str) -> dict[str, object]:
    app = app_command()
    out: dict[str, object] = {}
    paints = []
    for _ in range(3):
        t0 = time.perf_counter()
        term = start([*app, str(corpus)], work)
        term.wait_for("ready", 60)
        paints.append(time.perf_counter() - t0)
        term.close()
    out["paint"] = paints

    t0 = time.perf_counter()
    term = start([*app, str(corpus)], work)
    term.wait_for("unique", 120)  # the facts line: the corpus is cut, and ctrl+t reuses that cut
    out["cut"] = time.perf_counter() - t0
    set_vocab(term, vocab)
    out["train"] = []
    for _ in range(TRAIN_RUNS):
        t0 = time.perf_counter()
        term.press("ctrl+t", pause=0)
        term.wait_for(lambda s: "done:" not in s, 60)
        term.wait_for(lambda s: "done:" in s, 3600)
        out["train"].append(time.perf_counter() - t0)
    term.press("f2", "g")
    term.wait_for(lambda s: step_of(s) == 0)
    out["n_idle"] = [timed(term, lambda: term.press("n", pause=0), lambda s, i=i: step_of(s) == i + 1) for i in range(rounds)]
    # far jumps, each way three times: G walks every merge from step 0, g goes back in one move
    at_end = lambda s: (shown := step_shown(s)) is not None and shown[0] == shown[1]  # noqa: E731
    out["G"], out["g"] = [], []
    for _ in range(3):
        out["G"].append(timed(term, lambda: term.press("G", pause=0), at_end))
        time.sleep(0.2)
        out["g"].append(timed(term, lambda: term.press("g", pause=0), lambda s: step_of(s) == 0))
        time.sleep(0.2)
    # the first f3 mounts the Inspect pane (lazily, on first use): timed on its own
    out["first_f3"] = [timed(term, lambda: term.press("f3", pause=0), lambda s: "tokens," in s and "Corpus selection" in s)]
    term.press("f2")
    term.wait_for(lambda s: step_of(s) is not None and "merge" in s)
    time.sleep(0.3)
    out["tab_idle"] = tab_round(term, rounds)
    out["key_idle"] = compare_keys(term, rounds, text)
    out["tab4_idle"] = compare_tab_round(term, rounds)

    # while training: a big vocabulary keeps the run going during the measurements
    term.press("f2")
    set_vocab(term, 100_000)
    term.press("ctrl+t")
    term.wait_for(lambda s: re.search(r"training: [\d,]+ / ", s) and step_of(s) is not None, 600)
    term.press("f2")
    time.sleep(0.3)
    first = step_of(term.screen_text()) or 0
    out["n_busy"] = [timed(term, lambda: term.press("n", pause=0), lambda s, i=i: step_of(s) == first + i + 1) for i in range(rounds)]
    out["tab_busy"] = tab_round(term, rounds)
    out["key_busy"] = compare_keys(term, rounds, text)
    out["tab4_busy"] = compare_tab_round(term, rounds)
    term.press("f2")
    term.press("ctrl+t")  # a fresh run, so esc surely lands while it trains
    # its own "counting words" first: the screen may still show the previous run's "training:"
    term.wait_for("counting words", 60)
    term.wait_for(lambda s: re.search(r"training: [\d,]+ / ", s), 600)
    time.sleep(1.0)
    t0 = time.perf_counter()
    term.press("esc", pause=0)
    term.wait_for("cancelled after", 30)
    while len(term.group_processes()) > 1:
        time.sleep(0.005)
    out["esc"] = time.perf_counter() - t0
    term.press("ctrl+q")
    term.wait_exit(10)
    term.close()
    return out


def tab_round(term: Terminal, rounds: int) -> list[Latency]:
    out = []
    for i in range(rounds):
        if i % 2 == 0:
            out.append(timed(term, lambda: term.press("f3", pause=0), lambda s: "tokens," in s and "Corpus selection" in s))
        else:
            out.append(timed(term, lambda: term.press("f2", pause=0), lambda s: step_of(s) is not None and "merge" in s))
        time.sleep(0.05)
    return out


def compare_tab_round(term: Terminal, rounds: int) -> list[Latency]:
    """f4 / f2 between Compare (mounted by then, holding the 5 KB text) and Train."""
    out = []
    for i in range(rounds):
        if i % 2 == 0:
            out.append(timed(term, lambda: term.press("f2", pause=0), lambda s: step_of(s) is not None and "merge" in s))
        else:
            out.append(timed(term, lambda: term.press("f4", pause=0), lambda s: chars_of(s) is not None and "add a row" in s))
        time.sleep(0.05)
    return out


def compare_keys(term: Terminal, rounds: int, text: str) -> list[Latency]:
    term.press("f4")
    term.wait_for(lambda s: chars_of(s) is not None, 60)
    base = chars_of(term.screen_text()) or 0
    if base < len(text) // 2:  # first visit: paste the 5 KB text once (the pane may still be mounting)
        time.sleep(0.5)
        term.paste(text)
        term.wait_for(lambda s: (chars_of(s) or 0) >= base + len(text), 60)
        base = chars_of(term.screen_text()) or 0
    time.sleep(0.3)
    return [timed(term, lambda: term.send("x"), lambda s, i=i: chars_of(s) == base + i + 1) for i in range(rounds)]


def cli_train(corpus: Path, vocab: int, work: Path) -> list[float]:
    """``bpe-explorer train`` on the same corpus and vocabulary, :data:`TRAIN_RUNS` times."""
    times = []
    for _ in range(TRAIN_RUNS):
        t0 = time.perf_counter()
        subprocess.run(
            [*app_command(), "train", str(corpus), "--vocab-size", str(vocab), "-o", str(work / "cli-tok")],
            check=True, capture_output=True, env={**os.environ, "NO_COLOR": "1"},
        )
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("--vocab", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    # The harness reads the pty on one thread and draws with pyte on another: with Python's 5 ms
    # switch interval the reader got the GIL only that often and a 40 KB frame trickled in over
    # ~40 ms, 4 KB at a time, while the app's writes waited on the full pty. A terminal reads at once.
    sys.setswitchinterval(0.0005)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        corpus = Path(args.corpus) if args.corpus else default_corpus(work)
        text = (ROOT / "tests" / "data" / "alice29.txt").read_text(encoding="utf-8")[:5000]
        print(f"corpus {corpus.name}: {corpus.stat().st_size:,} bytes; vocab {args.vocab}; load average {os.getloadavg()}")
        peer = measure_peer(work, args.rounds, text)
        ours = measure_app(work, corpus, args.rounds, args.vocab, text)
        cli = cli_train(corpus, args.vocab, work)
        print(f"load average after: {os.getloadavg()}")
        row("first paint (to 'ready')", ours["paint"], peer["paint"])  # type: ignore[arg-type]
        row("n -> step shown, idle", ours["n_idle"], peer["n"])  # type: ignore[arg-type]
        row("n -> step shown, training", ours["n_busy"], peer["n"])  # type: ignore[arg-type]
        row("first f3 (mounts Inspect), idle", ours["first_f3"], peer["tab"])  # type: ignore[arg-type]
        row("tab switch, idle", ours["tab_idle"], peer["tab"])  # type: ignore[arg-type]
        row("tab switch, training", ours["tab_busy"], peer["tab"])  # type: ignore[arg-type]
        row("Compare key (5 KB text), idle", ours["key_idle"], peer["key"])  # type: ignore[arg-type]
        row("Compare key (5 KB text), training", ours["key_busy"], peer["key"])  # type: ignore[arg-type]
        row("tab switch f2/f4 (Compare), idle", ours["tab4_idle"], peer["tab"])  # type: ignore[arg-type]
        row("tab switch f2/f4 (Compare), train.", ours["tab4_busy"], peer["tab"])  # type: ignore[arg-type]
        for key, what in (("G", "last"), ("g", "first")):
            jumps = [lat.arrived * 1000 for lat in ours[key]]  # type: ignore[attr-defined]
            print(f"{key + ' -> jump to the ' + what + ' merge':<34} median {statistics.median(jumps):7.1f} ms  ({' '.join(f'{j:.0f}' for j in jumps)})")
        print(f"{'esc -> training stopped':<34} {ours['esc'] * 1000:7.1f} ms (child gone)")
        app_train = statistics.median(ours["train"])  # type: ignore[arg-type]
        cli_median = statistics.median(cli)
        print(f"{'open -> corpus cut (facts line)':<34} {ours['cut']:6.1f} s (ctrl+t reuses this cut)")
        print(
            f"{'train in the app vs CLI (median)':<34} app {app_train:6.2f} s   CLI {cli_median:6.2f} s   "
            f"ratio {app_train / cli_median:5.2f}x   (app {_runs(ours['train'])}; CLI {_runs(cli)})"  # type: ignore[arg-type]
        )


def _runs(times: list[float]) -> str:
    return " ".join(f"{t:.2f}" for t in times)


if __name__ == "__main__":
    main()
