"""Machine-readable reports: the JSON document (the stable contract)."""

from __future__ import annotations

import json
from typing import TextIO

from ..core.results import FileResult
from ..core.text import display_path
from . import Context, summary, write_json


def file_json(r: FileResult) -> dict:
    return {
        "path": display_path(r.path),
        "layers": [layer.to_json() for layer in r.layers],
        "findings": [f.to_json() for f in r.findings],
    }


def document(results: list[FileResult]) -> dict:
    return {"version": 1, "files": [file_json(r) for r in results], "summary": summary(results)}


def json_report(results: list[FileResult], out: TextIO, ctx: Context) -> None:
    write_json(document(results), out)


def json_lines(results: list[FileResult], out: TextIO, ctx: Context) -> None:
    """One JSON object per finding: the finding of the JSON document, with its file's path first."""
    for r in results:
        for f in r.findings:
            out.write(json.dumps({"path": display_path(r.path), **f.to_json()}, ensure_ascii=False) + "\n")
