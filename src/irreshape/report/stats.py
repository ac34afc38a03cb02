"""``--statistics``: how many findings each rule produced, instead of the findings."""

from __future__ import annotations

from collections import Counter
from typing import TextIO

from ..core.results import FileResult
from ..rules import BY_CODE
from . import write_json


def statistics(results: list[FileResult], out: TextIO, as_json: bool = False) -> None:
    counts = Counter(f.code for r in results for f in r.findings)
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if as_json:
        write_json([{"code": c, "name": BY_CODE[c].name, "count": n} for c, n in rows], out, ensure_ascii=True)
        return
    width = len(str(rows[0][1])) if rows else 1
    for code, n in rows:
        out.write(f"{n:>{width}}\t{code}\t{BY_CODE[code].name}\n")
