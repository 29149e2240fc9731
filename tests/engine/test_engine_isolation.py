"""The engine is UI-free: importing all of it must not load textual or rich."""

from __future__ import annotations

import subprocess
import sys


def test_engine_never_imports_textual_or_rich() -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        "import bpe_engine\n"
        "for m in pkgutil.walk_packages(bpe_engine.__path__, 'bpe_engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"bpe_engine imported UI modules: {out.stdout}"
