"""The memory watch reads every limit the process runs under -- RLIMIT_AS, RLIMIT_DATA, a
cgroup's memory.max (v2) or memory.limit_in_bytes (v1) -- not only the machine's free memory.
Limits are set with ``resource.setrlimit`` in a child; cgroups are fake trees."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bpe_engine.memory_budget import memory_limits, note_input, out_of_memory_line
from tests.limited_cli import ROOT, limits

PROBE = "import json; from bpe_engine.memory_budget import memory_limits as m; print(json.dumps([[x.name, x.total, x.used] for x in m()]))"


def _limits_in_child(address_space: int | None = None, data: int | None = None) -> dict[str, tuple[int, int]]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, check=True, cwd=ROOT, preexec_fn=limits(address_space, data)
    ).stdout
    return {name: (total, used) for name, total, used in json.loads(out)}


def test_rlimit_as_and_rlimit_data_are_read_with_what_the_process_uses() -> None:
    found = _limits_in_child(address_space=1_500_000_000, data=1_200_000_000)
    assert found["RLIMIT_AS"][0] == 1_500_000_000 and 0 < found["RLIMIT_AS"][1] < 1_500_000_000
    assert found["RLIMIT_DATA"][0] == 1_200_000_000 and found["RLIMIT_DATA"][1] > 0
    assert "free memory" in found


def test_the_tightest_limit_comes_first() -> None:
    first = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROBE], capture_output=True, check=True, cwd=ROOT, preexec_fn=limits(600_000_000)
        ).stdout
    )[0]
    assert first[0] == "RLIMIT_AS"


def _proc(tmp_path: Path, cgroup_line: str) -> Path:
    proc = tmp_path / "proc"
    (proc / "self").mkdir(parents=True)
    (proc / "self" / "cgroup").write_text(cgroup_line + "\n")
    (proc / "self" / "status").write_text("VmSize:\t  1000 kB\nVmData:\t  500 kB\n")
    (proc / "meminfo").write_text("MemTotal: 100000000 kB\nMemAvailable:   50000000 kB\n")
    return proc


def test_cgroup_v2_limits_of_the_group_and_its_parents(tmp_path: Path) -> None:
    root = tmp_path / "cgroup"
    leaf = root / "user.slice" / "job"
    leaf.mkdir(parents=True)
    (leaf / "memory.max").write_text("max\n")  # no limit here ...
    (leaf / "memory.current").write_text("100\n")
    (root / "user.slice" / "memory.max").write_text("4000000000\n")  # ... but its parent has one
    (root / "user.slice" / "memory.current").write_text("1000000000\n")
    found = memory_limits(_proc(tmp_path, "0::/user.slice/job"), root)
    assert found[0].name == "cgroup memory.max" and found[0].room == 3_000_000_000
    assert [x.name for x in found] == ["cgroup memory.max", "free memory"]


def test_cgroup_v1_limit_and_a_container_whose_mount_is_its_own_group(tmp_path: Path) -> None:
    root = tmp_path / "cgroup"
    (root / "memory").mkdir(parents=True)
    # in a container /proc/self/cgroup names the host's path; the mount is the group itself
    (root / "memory" / "memory.limit_in_bytes").write_text("2000000000\n")
    (root / "memory" / "memory.usage_in_bytes").write_text("500000000\n")
    proc = _proc(tmp_path, "4:memory:/docker/abc123")
    found = memory_limits(proc, root)
    assert found[0].name == "cgroup memory.limit_in_bytes" and found[0].room == 1_500_000_000
    (root / "memory" / "memory.limit_in_bytes").write_text("9223372036854771712\n")  # v1's "no limit"
    assert [x.name for x in memory_limits(proc, root)] == ["free memory"]


def test_the_out_of_memory_line_names_the_input_read_last_and_its_way_out() -> None:
    note_input("big.json", 3 * 2**30, "use a smaller tokenizer file")
    line = out_of_memory_line()
    assert line.startswith("out of memory while working on big.json (3.0 GiB): the process reached its limit (")
    assert line.endswith("; use a smaller tokenizer file") and "\n" not in line
