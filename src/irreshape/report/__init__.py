"""Reporters, one per output format, chosen by name.

A reporter is a function ``(results, out, ctx) -> None`` writing to the text stream ``out``.
``REPORTERS`` maps each ``--output-format`` name to the module attribute that implements it,
imported only when used (so `rich` is loaded only by the `full` format).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable, TextIO

from ..check import FileResult

REPORTERS: dict[str, str] = {
    "full": "irreshape.report.text:full",
    "concise": "irreshape.report.text:concise",
    "json": "irreshape.report.machine:json_report",
    "json-lines": "irreshape.report.machine:json_lines",
    "github": "irreshape.report.github:github",
    "sarif": "irreshape.report.sarif:sarif",
}


@dataclass(slots=True)
class Context:
    color: bool = False
    quiet: bool = False  # findings only: no summary
    root: str = "."  # the repository root, for repository-relative paths (github, sarif)
    baselined: int = 0  # findings left out because the baseline holds them


Reporter = Callable[[list[FileResult], TextIO, Context], None]


def get(name: str) -> Reporter:
    module, _, attr = REPORTERS[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def summary(results: list[FileResult]) -> dict[str, int]:
    counts = {"files": len(results), "layers": 0, "errors": 0, "warnings": 0, "infos": 0}
    for r in results:
        counts["layers"] += len(r.layers)
        for f in r.findings:
            counts[{"error": "errors", "warning": "warnings", "info": "infos"}[f.severity]] += 1
    return counts


def write_json(value: object, out: TextIO, ensure_ascii: bool = False) -> None:
    """``value`` as indented JSON and a newline. ``json.dump`` writes token by token, a system call each
    where the stream is unbuffered (``PYTHONUNBUFFERED``, common in CI): the tokens are passed on in
    pieces of 64 KiB, so that neither the calls nor a copy of the whole document add up."""
    import json

    pieces = _Pieces(out)
    json.dump(value, pieces, indent=2, ensure_ascii=ensure_ascii)
    pieces.write("\n")
    pieces.flush()


class _Pieces:
    SIZE = 1 << 16

    def __init__(self, out: TextIO) -> None:
        self.out, self.parts, self.size = out, [], 0

    def write(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= self.SIZE:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            self.out.write("".join(self.parts))
            self.parts, self.size = [], 0
