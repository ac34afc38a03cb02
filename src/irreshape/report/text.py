"""Human reports: `concise` (one line per finding) and `full` (rich, grouped by file)."""

from __future__ import annotations

from typing import TextIO

from ..check import FileResult
from . import Context, summary


def _tally(results: list[FileResult]) -> str:
    s = summary(results)
    parts = [f"{s['errors']} error{'s' * (s['errors'] != 1)}", f"{s['warnings']} warning{'s' * (s['warnings'] != 1)}"]
    if s["infos"]:
        parts.append(f"{s['infos']} info")
    return (f"Checked {s['layers']} reshape layer{'s' * (s['layers'] != 1)} in {s['files']} "
            f"file{'s' * (s['files'] != 1)}: " + ", ".join(parts) + ".")


def concise(results: list[FileResult], out: TextIO, ctx: Context) -> None:
    for r in results:
        for f in r.findings:
            out.write(f"{r.path}:{f.line or 1}:{f.col}: {f.code} [{f.severity}] {f.message}\n")
    if not ctx.quiet:
        out.write(_tally(results) + "\n")


_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def full(results: list[FileResult], out: TextIO, ctx: Context) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console(file=out, force_terminal=ctx.color, no_color=not ctx.color, highlight=False,
                      soft_wrap=True)
    for r in results:
        for f in r.findings:
            console.print(f"[bold]{escape(r.path)}[/]:{f.line or 1}:{f.col}: "
                          f"[{_STYLE[f.severity]}]{f.code}[/] {escape(f.message)}")
    if not ctx.quiet:
        console.print(_tally(results))
