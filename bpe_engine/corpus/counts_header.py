"""The header row of a counts file: what it says about how the words were counted, read strictly.

``#bpe-explorer-counts {json}<TAB>1`` (see :mod:`.counts_file`). Every field is checked for its
type and value and named when wrong: a level ``"nibble"`` trained character-level without a word,
and a header nested 100,000 deep was a RecursionError traceback.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from ..errors import CorpusError

FORMAT_VERSION = 1
HEADER_PREFIX = "#bpe-explorer-counts "


@dataclass(frozen=True)
class CountsHeader:
    """What a counts file says about how it was counted (the JSON of its header row)."""

    pre_tokenizer: str = "gpt2"
    pattern: str | None = None
    level: str = "byte"
    specials: tuple[str, ...] = ()
    lines: bool | None = None
    documents: int | None = None
    words: int | None = None
    unique: bool = False
    version: int = FORMAT_VERSION
    tool: str = ""

    @property
    def byte_level(self) -> bool:
        return self.level == "byte"

    def settings(self) -> tuple[str, str | None, str, tuple[str, ...]]:
        """What must agree for two files' counts to be added up."""
        return self.pre_tokenizer, self.pattern, self.level, self.specials

    def row(self) -> bytes:
        data = asdict(self)
        data["specials"] = list(self.specials)
        return f"{HEADER_PREFIX}{json.dumps(data, ensure_ascii=True)}\t1\n".encode("ascii")


_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {
    "pre_tokenizer": ((str,), "a pre-tokenizer name"),
    "pattern": ((str, type(None)), "a regex or null"),
    "level": ((str,), "'byte' or 'char'"),
    "specials": ((list,), "a list of strings"),
    "lines": ((bool, type(None)), "true, false or null"),
    "documents": ((int, type(None)), "a whole number or null"),
    "words": ((int, type(None)), "a whole number or null"),
    "unique": ((bool,), "true or false"),
    "version": ((int,), f"{FORMAT_VERSION}"),
    "tool": ((str,), "a string"),
}
"""The header's fields: the types each may have, and what the error says it should be."""


def parse_header(first: bytes, path: str) -> CountsHeader | None:
    if not first.startswith(HEADER_PREFIX.encode()):
        return None
    text = first.decode("utf-8", "replace").rstrip("\r\n")
    body = text[len(HEADER_PREFIX) :].rpartition("\t")[0]
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise CorpusError(f"{path}, line 1: unreadable counts header ({exc})") from None
    except RecursionError:
        raise CorpusError(f"{path}, line 1: unreadable counts header (nested too deeply: a header is one flat JSON object)") from None
    if not isinstance(data, dict):
        raise CorpusError(f"{path}, line 1: the counts header is not a JSON object")
    if data.get("version") != FORMAT_VERSION:
        raise CorpusError(f"{path}: counts format version {data.get('version')!r}; this bpe-explorer reads version {FORMAT_VERSION}")
    for key, (types, expected) in _FIELDS.items():
        value = data.get(key)
        if key in data and (not isinstance(value, types) or isinstance(value, bool) and bool not in types):
            raise CorpusError(f"{path}, line 1: counts header field {key!r} is {_shown(value)}; expected {expected}")
    problem = _header_problem(data)
    if problem:
        raise CorpusError(f"{path}, line 1: {problem}")
    data["specials"] = tuple(data.get("specials") or ())
    return CountsHeader(**{k: v for k, v in data.items() if k in _FIELDS})


def _header_problem(data: dict[str, object]) -> str | None:
    """What is wrong with the values of a header whose fields have the right types, or None."""
    from ..pretokenizers import BUILTIN

    level = data.get("level", "byte")
    if level not in ("byte", "char"):
        return f"counts header field 'level' is {_shown(level)}; expected 'byte' or 'char'"
    name = data.get("pre_tokenizer", "gpt2")
    if name != "regex" and name not in BUILTIN:
        return f"counts header field 'pre_tokenizer' is {_shown(name)}; expected one of {', '.join([*BUILTIN, 'regex'])}"
    if name == "regex" and not data.get("pattern"):
        return "counts header names the pre-tokenizer 'regex' without its 'pattern'"
    specials = data.get("specials") or []
    assert isinstance(specials, list)
    if not all(isinstance(s, str) and s for s in specials):
        return "counts header field 'specials' must hold non-empty strings"
    for key in ("documents", "words"):
        value = data.get(key)
        if isinstance(value, int) and value < 0:
            return f"counts header field {key!r} is {value}; expected a whole number of 0 or more"
    return None


def _shown(value: object) -> str:
    """A header value as the error shows it: JSON, cut short, never raw control characters."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 60 else text[:57] + "..."
