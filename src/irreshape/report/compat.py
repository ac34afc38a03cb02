"""``irreshape compat``'s reports: one row per file, one column per release, then each file's line ("needs
OpenVINO 2024.3 or newer: ...") and, per run of releases refusing it for one reason, that reason in the release's
words. ``full`` is a rich table (a terminal), ``concise`` the same as plain text, ``json`` the document."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

from ..checks.compat import FileCompat, Refused
from ..checks.targets import short
from ..core.text import display_path
from . import write_json

FORMATS = ("full", "concise", "json")
OK, NOT_JUDGED = "ok", "-"


def cell(file: FileCompat, release: str) -> str:
    """A cell as text: "ok", the code of the first refusal, or "-" where the release was not judged."""
    reads = file.reads(release)
    if reads is None:
        return NOT_JUDGED
    return OK if reads else file.reported(release).code  # type: ignore[union-attr]


def runs(file: FileCompat, columns: tuple[str, ...]) -> Iterator[tuple[str, str, Refused]]:
    """(first release, last release, the refusal) for each run of consecutive columns reporting one refusal."""
    if not file.judged:
        return
    start = last = None
    for release in columns:
        got = file.reported(release)
        if start is not None and (got is None or got.key != file.reported(start).key):  # type: ignore[union-attr]
            yield start, last, file.reported(start)  # type: ignore[misc]
            start = None
        if got is not None and start is None:
            start = release
        last = release
    if start is not None:
        yield start, last, file.reported(start)  # type: ignore[misc]


def _span(a: str, b: str) -> str:
    return short(a) if a == b else f"{short(a)}-{short(b)}"


def details(file: FileCompat, columns: tuple[str, ...]) -> list[str]:
    """The file's line, then one line per run of columns refusing it for one reason."""
    lines = [f"{display_path(file.path)}: {file.summary}"]
    for a, b, r in runs(file, columns):
        lines.append(f"  {_span(a, b)}: {r.code} {r.label}: {r.message}")
    return lines


def concise(files: list[FileCompat], columns: tuple[str, ...], out: TextIO) -> None:
    paths = [display_path(f.path) for f in files]
    widths = [max(len(short(c)), 5) for c in columns]
    first = max([len("file"), *map(len, paths)])
    out.write("  ".join(["file".ljust(first), *(short(c).ljust(w) for c, w in zip(columns, widths))]).rstrip() + "\n")
    for f, p in zip(files, paths):
        out.write("  ".join([p.ljust(first), *(cell(f, c).ljust(w) for c, w in zip(columns, widths))]).rstrip()
                  + "\n")
    for f in files:
        out.write("\n" + "\n".join(details(f, columns)) + "\n")


def full(files: list[FileCompat], columns: tuple[str, ...], out: TextIO, color: bool) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    wide = max([4, *(len(display_path(f.path)) for f in files)]) + 10 * len(columns) + 4
    console = Console(file=out, force_terminal=color, no_color=not color, highlight=False, emoji=False,
                      width=None if out.isatty() else max(100, wide))
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("file", overflow="fold")
    for c in columns:
        table.add_column(short(c), justify="center", no_wrap=True)
    style = {OK: "green", NOT_JUDGED: "dim"}
    for f in files:
        table.add_row(display_path(f.path), *(Text(cell(f, c), style=style.get(cell(f, c), "red")) for c in columns))
    console.print(table)
    for f in files:
        console.print()
        head, *rest = details(f, columns)
        console.print(Text(head, style="bold"), soft_wrap=True)
        for line in rest:
            console.print(Text(line), soft_wrap=True)


def json_report(files: list[FileCompat], columns: tuple[str, ...], out: TextIO) -> None:
    write_json({"version": 1, "releases": list(columns), "files": [f.to_json(columns) for f in files]}, out)
