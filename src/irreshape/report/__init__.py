"""Reporters, one per output format, chosen by name.

A reporter is a function ``(results, out, ctx) -> None`` writing to the text stream ``out``.
The table of formats (:data:`irreshape.core.formats.OUTPUTS`) maps each ``--output-format`` name to the
module attribute that implements it, imported only when used (so `rich` is loaded only by the `full` format).
"""

from __future__ import annotations

import importlib
from typing import Callable, TextIO

from ..core.formats import OUTPUTS
from ..core.records import Record
from ..core.results import FileResult
from ..core.text import display_path
from ..lint.config import relative_path

class Context(Record):
    """How to report: ``quiet``, findings only (no summary); ``root``, the repository root, for
    repository-relative paths (github, sarif); ``baselined``, the findings left out because the baseline holds
    them."""

    __slots__ = FIELDS = ("color", "quiet", "root", "baselined")

    def __init__(self, color: bool = False, quiet: bool = False, root: str = ".", baselined: int = 0) -> None:
        self.color, self.quiet, self.root, self.baselined = color, quiet, root, baselined


Reporter = Callable[[list[FileResult], TextIO, Context], None]


def get(name: str, table: dict[str, str] = OUTPUTS) -> Reporter:
    """The reporter of an output format of ``table`` (check's, or ``irreshape diff``'s: DIFF_OUTPUTS)."""
    module, _, attr = table[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def repo_path(path: str, root: str) -> str:
    """A file's path as CI services want it: relative to the repository root (absolute outside it), as text."""
    return display_path(relative_path(path, root))


def summary(results: list[FileResult]) -> dict[str, int]:
    counts = {"files": len(results), "layers": 0, "errors": 0, "warnings": 0, "infos": 0}
    for r in results:
        counts["layers"] += len(r.layers)
        for f in r.findings:
            counts[{"error": "errors", "warning": "warnings", "info": "infos"}[f.severity]] += 1
    return counts


def write_json(value: object, out: TextIO, ensure_ascii: bool = False) -> None:
    """``value`` as JSON indented by two spaces and a newline: the bytes of ``json.dump(value, out,
    indent=2, ensure_ascii=ensure_ascii)``. The standard library writes indented JSON token by token in
    Python (its C encoder is for compact output only), a system call each where the stream is unbuffered
    (``PYTHONUNBUFFERED``, common in CI); this writer joins each container's lines at once, with the C
    string escaper, and passes the text on in pieces of about 64 KiB: neither the calls nor a copy of the
    whole document add up."""
    from json.encoder import encode_basestring, encode_basestring_ascii

    _JsonWriter(out, encode_basestring_ascii if ensure_ascii else encode_basestring).write(value)


class _JsonWriter:
    SIZE = 1 << 16
    STREAMED = 3  # containers this deep or less (the document, its lists of files, layers, findings) are
    # written out item by item; deeper ones (a layer, a finding) are made as one string

    def __init__(self, out: TextIO, quote: Callable[[str], str]) -> None:
        self.out, self.quote = out, quote
        self.parts: list[str] = []
        self.size = 0

    def write(self, value: object) -> None:
        self._emit(value, "\n")
        self._put("\n")
        self.out.write("".join(self.parts))

    def _put(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= self.SIZE:
            self.out.write("".join(self.parts))
            self.parts, self.size = [], 0

    def _emit(self, v: object, nl: str) -> None:
        """Write ``v``, which stands on a line broken and indented by ``nl``."""
        if len(nl) > 1 + 2 * self.STREAMED or not v or not isinstance(v, (dict, list, tuple)):
            self._put(self._value(v, nl))
            return
        inner = nl + "  "
        sep = ""
        if isinstance(v, dict):
            self._put("{")
            for k, x in v.items():
                self._put(f"{sep}{inner}{self.quote(_key(k))}: ")
                self._emit(x, inner)
                sep = ","
            self._put(nl + "}")
        else:
            self._put("[")
            for x in v:
                self._put(sep + inner)
                self._emit(x, inner)
                sep = ","
            self._put(nl + "]")

    def _value(self, v: object, nl: str) -> str:
        """``v`` as JSON text, standing on a line broken and indented by ``nl``. Strings and ints, most of
        a report, are written in place rather than by a call each."""
        t = type(v)
        if t is str:
            return self.quote(v)  # type: ignore[arg-type]
        if t is int:
            return int.__repr__(v)  # type: ignore[arg-type]
        inner = nl + "  "
        q = self.quote
        if t is dict:
            if not v:
                return "{}"
            items = [f"{q(k) if type(k) is str else q(_key(k))}: "
                     f"{q(x) if type(x) is str else int.__repr__(x) if type(x) is int else self._value(x, inner)}"
                     for k, x in v.items()]  # type: ignore[union-attr]
            return "{" + inner + ("," + inner).join(items) + nl + "}"
        if t is list or t is tuple:
            if not v:
                return "[]"
            items = [q(x) if type(x) is str else int.__repr__(x) if type(x) is int else self._value(x, inner)
                     for x in v]  # type: ignore[union-attr]
            return "[" + inner + ("," + inner).join(items) + nl + "]"
        if v is None or isinstance(v, (bool, int, float)):
            return _scalar(v)
        if isinstance(v, str):
            return self.quote(v)
        if isinstance(v, dict):
            return self._value(dict(v), nl)
        if isinstance(v, (list, tuple)):
            return self._value(list(v), nl)
        raise TypeError(f"Object of type {type(v).__name__} is not JSON serializable")


def _scalar(v: object) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return int.__repr__(v)
    import json

    return json.dumps(v)  # a float, with NaN and Infinity as json spells them


def _key(k: object) -> str:
    if isinstance(k, str):
        return k
    if k is None or isinstance(k, (bool, int, float)):
        return _scalar(k)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")
