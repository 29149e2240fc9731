"""How much memory this process may still take, from every limit it runs under, and the one line
a ``MemoryError`` becomes.

Free memory is only one bound. A process started under ``prlimit --as`` / ``ulimit -v``
(``RLIMIT_AS``), ``ulimit -d`` (``RLIMIT_DATA``) or in a container (a cgroup's ``memory.max``, v2,
or ``memory.limit_in_bytes``, v1) fails its allocations long before the machine runs out: the
memory watch counted only ``MemAvailable`` and let ``train /dev/urandom`` under a 1.5 GB address
space run 105 s into a ``MemoryError`` traceback. :func:`available_memory` is the smallest room
left under any of them (a limit minus what the process, or its cgroup, already uses), so every
budget computed from it -- the word table's watch, the longest uncut stretch, a file's size checked
before it is read -- stops early with the ways out instead.

Whatever still runs out of memory (an estimate is an estimate) is turned into one line by
:func:`out_of_memory_line`: which input was being read when it happened (the file reader records
each one with :func:`note_input`), the limit that bound, and the options that change it.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from pathlib import Path

UNLIMITED = 1 << 62
"""Limits at or above this are no limit (cgroup v1 writes 9223372036854771712 for none)."""


@dataclass(frozen=True, slots=True)
class Limit:
    """One bound on this process's memory: what it is called, its size, and how much is used."""

    name: str
    total: int
    used: int

    @property
    def room(self) -> int:
        return max(0, self.total - self.used)


def memory_limits(proc: Path = Path("/proc"), cgroup_root: Path = Path("/sys/fs/cgroup")) -> list[Limit]:
    """Every bound this process runs under, tightest first (``proc`` and ``cgroup_root`` are the
    places to read them, for a test to stand in a fake tree)."""
    status = _status(proc / "self" / "status")
    found: list[Limit] = []
    for name, which, used_key in (("RLIMIT_AS", resource.RLIMIT_AS, "VmSize"), ("RLIMIT_DATA", resource.RLIMIT_DATA, "VmData")):
        soft = resource.getrlimit(which)[0]
        if soft != resource.RLIM_INFINITY and soft < UNLIMITED:
            found.append(Limit(name, soft, status.get(used_key, 0)))
    found.extend(_cgroup_limits(proc / "self" / "cgroup", cgroup_root))
    free = _mem_available(proc / "meminfo")
    if free is not None:
        found.append(Limit("free memory", free, 0))
    return sorted(found, key=lambda limit: limit.room)


def available_memory() -> int | None:
    """Bytes this process may still allocate: the least room under any of :func:`memory_limits`
    (None when none can be read)."""
    limits = memory_limits()
    return limits[0].room if limits else None


def binding_limit() -> str:
    """The tightest bound, as a message says it (``RLIMIT_AS 1.4 GiB, 1.1 GiB in use``)."""
    limits = memory_limits()
    if not limits:
        return "the memory available"
    tight = limits[0]
    used = f", {size_text(tight.used)} in use" if tight.used else ""
    return f"{tight.name} {size_text(tight.total)}{used}"


# -- the MemoryError line ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Input:
    """An input being read: its name as shown, its size (None: a stream) and the ways out."""

    name: str
    size: int | None
    ways: str


_inputs: list[Input] = []
_MAX_INPUTS = 16


def note_input(name: str, size: int | None, ways: str) -> None:
    """Record that ``name`` is being read, so that running out of memory names it."""
    _inputs.append(Input(name, size, ways))
    del _inputs[:-_MAX_INPUTS]


def out_of_memory_line(ways: str | None = None) -> str:
    """The one line a ``MemoryError`` becomes: the input read last (the likeliest to have grown
    past the limit), its size, the bound that was hit, and ``ways`` -- or that input's own ways."""
    last = _inputs[-1] if _inputs else None
    what = "" if last is None else f" while working on {last.name}" + ("" if last.size is None else f" ({size_text(last.size)})")
    way = ways or (last.ways if last is not None else "") or "run it on a smaller input, or with more memory"
    return f"out of memory{what}: the process reached its limit ({binding_limit()}); {way}"


def size_text(n: float) -> str:
    """Bytes in the units messages use (``1.5 GiB``)."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"  # pragma: no cover


# -- private ------------------------------------------------------------------------------------
def _status(path: Path) -> dict[str, int]:
    """``/proc/self/status``'s sizes (``VmSize``, ``VmData``) in bytes."""
    out: dict[str, int] = {}
    try:
        for line in path.read_text(encoding="ascii", errors="replace").splitlines():
            key, _, value = line.partition(":")
            parts = value.split()
            if len(parts) == 2 and parts[1] == "kB" and parts[0].isdigit():
                out[key] = int(parts[0]) * 1024
    except OSError:
        pass
    return out


def _mem_available(path: Path) -> int | None:
    try:
        for line in path.read_text(encoding="ascii", errors="replace").splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


_V2 = ("memory.max", "memory.current")
_V1 = ("memory.limit_in_bytes", "memory.usage_in_bytes")


def _cgroup_limits(cgroup_file: Path, root: Path) -> list[Limit]:
    """The memory limits of this process's cgroup and of each cgroup above it: v2
    (``0::/path``, files under ``root``) and v1 (``N:memory:/path``, under ``root/memory``)."""
    try:
        lines = cgroup_file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    found: list[Limit] = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":
            found.extend(_walk(root, parts[2], _V2, "cgroup memory.max"))
        elif "memory" in parts[1].split(","):
            found.extend(_walk(root / "memory", parts[2], _V1, "cgroup memory.limit_in_bytes"))
    return found


def _walk(mount: Path, inner: str, files: tuple[str, str], name: str) -> list[Limit]:
    """Limits from the process's cgroup directory up to the mount. Inside a container the mount
    is often the process's own cgroup already (its path in ``/proc/self/cgroup`` is the host's),
    so a path that does not exist under the mount falls back to the mount itself."""
    here = mount / inner.strip("/")
    if not here.is_dir():
        here = mount
    found: list[Limit] = []
    while True:
        limit = _read_int(here / files[0])
        if limit is not None and limit < UNLIMITED:
            found.append(Limit(name, limit, _read_int(here / files[1]) or 0))
        if here == mount or mount not in here.parents:
            return found
        here = here.parent


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
