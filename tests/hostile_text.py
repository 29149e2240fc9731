"""Hostile strings and the check that none of them reaches a terminal raw (shared test helper).

Any test that renders user text -- CLI lines, errors, the app's panes in a pseudo-terminal -- can
import this module (``from hostile_text import HOSTILE, FILE_NAMES, assert_inert``; pytest puts
``tests/`` on ``sys.path`` through its conftest). The set covers what a downloaded file or a paste
can carry: ESC/OSC/CSI sequences that retitle, clear or recolour the terminal, the 8-bit C1
controls (U+009B is CSI on its own), bidi overrides that reorder what follows, zero-width
characters that hide a difference, and Rich/Textual markup including a live ``[@click=...]``
action.

``assert_inert(output)`` fails when ``output`` holds any raw control, C1, bidi or zero-width
character (newlines and tabs are allowed, and with ``allow_sgr=True`` well-formed colour codes
``ESC[...m`` that the renderer itself emits). ``assert_literal_markup(output, name)`` checks that
markup in a name was printed, not interpreted.
"""

from __future__ import annotations

import re
import unicodedata

HOSTILE: dict[str, str] = {
    "osc-title": "\x1b]0;PWNED-TITLE\x07",
    "osc-title-st": "\x1b]2;PWNED\x1b\\",
    "csi-clear": "\x1b[2J\x1b[H",
    "csi-colour": "\x1b[31mred\x1b[0m",
    "c1-csi": "\x9b31mC1red",
    "c1-osc": "\x9d0;C1TITLE\x9c",
    "bell-backspace-cr": "a\x07b\x08c\rd",
    "del": "x\x7fy",
    "bidi-rlo": "abc\u202eevil.txt",
    "bidi-isolates": "\u2066x\u2069\u2067y\u2069",
    "lrm-rlm-alm": "\u200ea\u200fb\u061c",
    "zero-width": "a\u200bb\u200cc\u200dd\u2060e\ufefff",
    "line-separators": "p\u2028q\u2029r",
    "markup": "[bold red]F[/bold red]",
    "markup-click": "[@click=app.quit]click me[/]",
    "markup-link": "[link=https://example.com]x[/link]",
}
"""Name -> hostile string (text; markup closing tags hold ``/``, so file names use :data:`FILE_NAMES`)."""

FILE_NAMES: dict[str, str] = {name: text.replace("/", "") for name, text in HOSTILE.items()}
"""The hostile strings as file or directory names (``/`` dropped; markup tags stay markup)."""

_SGR = re.compile(r"\x1b\[[0-9;]*m")
_BIDI_AND_INVISIBLE = frozenset(
    "\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)


def raw_hazards(output: str, *, allow_sgr: bool = False) -> list[tuple[int, str]]:
    """``(position, character)`` of every character that must not reach a terminal raw."""
    if allow_sgr:
        output = _SGR.sub("", output)
    out = []
    for pos, ch in enumerate(output):
        code = ord(ch)
        if ch in "\n\t":
            continue
        if code < 0x20 or code == 0x7F or 0x80 <= code <= 0x9F or ch in _BIDI_AND_INVISIBLE:
            out.append((pos, ch))
        elif unicodedata.category(ch) in ("Cf", "Cs", "Zl", "Zp"):
            out.append((pos, ch))
    return out


def assert_inert(output: str, *, allow_sgr: bool = False, where: str = "output") -> None:
    """Fail naming the first raw control/bidi/zero-width character in ``output`` and its context."""
    hazards = raw_hazards(output, allow_sgr=allow_sgr)
    if hazards:
        pos, ch = hazards[0]
        context = output[max(0, pos - 30) : pos + 30]
        raise AssertionError(
            f"{where}: raw U+{ord(ch):04X} at {pos} ({len(hazards)} hazardous characters in all); context {context!r}"
        )


def assert_literal_markup(output: str, text: str) -> None:
    """When ``text`` holds markup (``[bold red]``), it must appear literally in ``output``."""
    for tag in re.findall(r"\[[^\[\]]*\]", text):
        assert tag in output, f"markup {tag!r} was interpreted instead of shown; output {output[:300]!r}"


__all__ = ["FILE_NAMES", "HOSTILE", "assert_inert", "assert_literal_markup", "raw_hazards"]
