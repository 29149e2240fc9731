"""The engine gives style keys, never colours: no rich style string or colour in ``bpe_engine``.

How a key looks is the front ends' (``bpe_styles``, read by the app and the CLI). This reads
every source file of the package like a grep: a hex colour anywhere, and any string literal (not
a docstring) made only of rich style words -- attributes, colour names, ``on``, hex or ``rgb()``
colours -- alone or inside ``[...]`` markup. Prose that names a colour (the legend's "red:
character split") is not a style string and passes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rich.color import ANSI_COLOR_NAMES

import bpe_engine

PACKAGE = Path(bpe_engine.__file__).parent
HEX_COLOUR = re.compile(r"(?<![\w#&])#[0-9a-fA-F]{6}\b")
ATTRIBUTES = frozenset(
    "bold dim italic underline underline2 blink blink2 reverse conceal strike frame encircle overline".split()
)
STYLE_WORDS = ATTRIBUTES | frozenset(ANSI_COLOR_NAMES)
MARKUP = re.compile(r"\[/?([^\[\]]+)\]")


def is_style(text: str) -> bool:
    """Only rich style words (``not``/``on`` need one beside them): "bold", "black on #89b4fa"."""
    words = text.split()
    colour = r"#[0-9a-fA-F]{6}|(?:rgb|color)\(.*\)"
    styled = [w for w in words if w in STYLE_WORDS or re.fullmatch(colour, w)]
    return bool(styled) and all(w in ("not", "on") or w in styled for w in words)


def string_literals(tree: ast.AST) -> list[ast.Constant]:
    """Every ``str`` constant but docstrings (f-strings' literal parts included)."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def colours_in(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    found = [f"{path.name}: hex colour {m.group()!r}" for m in HEX_COLOUR.finditer(source)]
    for node in string_literals(ast.parse(source)):
        text = node.value
        if is_style(text) or any(is_style(m.group(1)) for m in MARKUP.finditer(text)):
            found.append(f"{path.name}:{node.lineno}: rich style {text!r}")
    return found


def test_the_check_sees_what_it_is_for() -> None:
    for style in ("bold", "black on #89b4fa", "bold white on #8839ef underline", "dim", "red", "[bold red]x[/]"):
        assert is_style(style) or any(is_style(m.group(1)) for m in MARKUP.finditer(style)), style
    for text in ("red: character split between tokens", "s", "i", " s on ", "on", "[a-z]+", "tok0", "cut!"):
        assert not is_style(text) and not any(is_style(m.group(1)) for m in MARKUP.finditer(text)), text


def test_bpe_engine_holds_no_colours() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 50  # the whole package, not an empty glob
    found = [line for path in files for line in colours_in(path)]
    assert found == [], "the engine emits style keys; colours belong in bpe_styles:\n" + "\n".join(found)
