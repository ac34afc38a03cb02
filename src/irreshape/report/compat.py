"""``irreshape compat``'s reports. By default one line per file: its answer across the releases shown as runs of
releases ("2023.0-2023.3 IR601 · 2024.0+ ok"), a code where a release's reader (IR60x) or CPU plugin (IR61x)
refuses the file; then per file its summary ("needs OpenVINO 2024.3 or newer to compile on CPU: ...") and, per run
of releases refusing it for one reason, that reason in the release's words. The matrix (one column per release)
on request (``--matrix``, or ``--release`` choosing the columns). The runs fit the width (the terminal's, else 100
columns): a long path puts them on the next line. ``full`` is the same through rich, every line wrapped to the
width (colour on a terminal); ``concise`` plain text, a file's summary and reasons each one line (for grep);
``json`` the document."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TextIO

from ..checks.compat import FileCompat, Refused
from ..checks.targets import short
from ..core.text import display_path, one_line
from . import write_json

FORMATS = ("full", "concise", "json")
OK, NOT_JUDGED = "ok", "-"
WIDTH = 100  # the width of a report that is not on a terminal
_SEP = " · "


def width(out: TextIO) -> int:
    """The width to fit: the terminal's (``COLUMNS`` where set), else :data:`WIDTH`."""
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 20:
        return int(env)
    if out.isatty():
        try:
            return os.get_terminal_size(out.fileno()).columns
        except OSError:
            pass
    return WIDTH


def cell(file: FileCompat, release: str) -> str:
    """A cell as text: "ok", the code of the refusal the release reports, or "-" where it was not judged."""
    runs = file.runs(release)
    if runs is None:
        return NOT_JUDGED
    return OK if runs else file.reported(release).code  # type: ignore[union-attr]


def spans(file: FileCompat, columns: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(first release, last release, cell) for each run of consecutive columns with one cell."""
    out: list[tuple[str, str, str]] = []
    for release in columns:
        c = cell(file, release)
        if out and out[-1][2] == c:
            out[-1] = (out[-1][0], release, c)
        else:
            out.append((release, release, c))
    return out


def answer(file: FileCompat, columns: tuple[str, ...]) -> list[str]:
    """The file's answer as runs: ["2023.0-2023.3 IR601", "2024.0+ ok"] (the last run open-ended where it reaches
    the newest column)."""
    if not file.judged:
        return ["not judged"]
    out = []
    for a, b, c in spans(file, columns):
        if b == columns[-1] and a != b:
            out.append(f"{short(a)}+ {c}")
        else:
            out.append(f"{_span(a, b)} {c}")
    return out


def refusal_runs(file: FileCompat, columns: tuple[str, ...]) -> Iterator[tuple[str, str, Refused]]:
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
    """The file's summary, then one line per run of columns refusing it for one reason (its stage, its words)."""
    lines = [f"{display_path(file.path)}: {file.summary}"]
    for a, b, r in refusal_runs(file, columns):
        stage = "" if r.stage == "read" else " (compile_model)" if r.stage == "compile" else " (first inference)"
        words = one_line(r.message)
        if r.kind == "crash":
            words = "the process dies in compile_model"
            stage = ""
        lines.append(f"  {_span(a, b)}: {r.code} {r.label}{stage}: {words}")
    return lines


def rows(files: list[FileCompat], columns: tuple[str, ...], size: int) -> list[tuple[str, list[str]]]:
    """Each file's path and its answer laid out in ``size`` columns: [(path line, [lines of runs])]: the runs beside
    the path where they fit, else on lines of their own under it."""
    paths = [display_path(f.path) for f in files]
    answers = [answer(f, columns) for f in files]
    # the path column: as wide as the longest path whose answer fits beside it
    first = max((len(p) for p, a in zip(paths, answers) if len(p) + 2 + len(_SEP.join(a)) <= size), default=0)
    out = []
    for p, runs in zip(paths, answers):
        text = _SEP.join(runs)
        if len(p) <= first and first + 2 + len(text) <= size:
            out.append((p.ljust(first), [text]))
            continue
        lines, current = [], "  "
        for k, run in enumerate(runs):
            piece = run if k == 0 else _SEP + run
            if len(current) + len(piece) > size and current.strip():
                lines.append(current)
                current = "  " + run
            else:
                current += piece
        lines.append(current)
        out.append((p, lines))
    return out


def _header(columns: tuple[str, ...]) -> str:
    return f"releases {short(columns[0])} ... {short(columns[-1])} ({len(columns)} shown); ok: read and compiled for CPU"


def concise(files: list[FileCompat], columns: tuple[str, ...], out: TextIO, matrix: bool = False) -> None:
    size = width(out)
    if matrix:
        _matrix_text(files, columns, out)
    else:
        out.write(_header(columns) + "\n")
        for path, lines in rows(files, columns, size):
            if len(lines) == 1 and not lines[0].startswith("  "):
                out.write(f"{path}  {lines[0]}".rstrip() + "\n")
            else:
                out.write(path + "\n" + "".join(line + "\n" for line in lines))
    for f in files:  # a file's lines whole, for grep (``full`` wraps them to the width)
        out.write("\n" + "\n".join(details(f, columns)) + "\n")


def _matrix_text(files: list[FileCompat], columns: tuple[str, ...], out: TextIO) -> None:
    paths = [display_path(f.path) for f in files]
    widths = [max(len(short(c)), 5) for c in columns]
    first = max([len("file"), *map(len, paths)])
    out.write("  ".join(["file".ljust(first), *(short(c).ljust(w) for c, w in zip(columns, widths))]).rstrip() + "\n")
    for f, p in zip(files, paths):
        out.write("  ".join([p.ljust(first), *(cell(f, c).ljust(w) for c, w in zip(columns, widths))]).rstrip()
                  + "\n")


def full(files: list[FileCompat], columns: tuple[str, ...], out: TextIO, color: bool, matrix: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    size = width(out)
    style = {OK: "green", NOT_JUDGED: "dim"}
    if matrix:
        wide = max([4, *(len(display_path(f.path)) for f in files)]) + 10 * len(columns) + 4
        console = Console(file=out, force_terminal=color, no_color=not color, highlight=False, emoji=False,
                          width=max(size, wide))
        table = Table(show_edge=False, pad_edge=False, header_style="bold")
        table.add_column("file", overflow="fold")
        for c in columns:
            table.add_column(short(c), justify="center", no_wrap=True)
        for f in files:
            table.add_row(display_path(f.path),
                          *(Text(cell(f, c), style=style.get(cell(f, c), "red")) for c in columns))
        console.print(table)
    else:
        console = Console(file=out, force_terminal=color, no_color=not color, highlight=False, emoji=False,
                          width=size)
        console.print(Text(_header(columns), style="dim"))
        for (path, lines), f in zip(rows(files, columns, size), files):
            styled = [_styled(line, style) for line in lines]
            if len(lines) == 1 and not lines[0].startswith("  "):
                console.print(Text.assemble(Text(path, style="bold"), "  ", styled[0]), overflow="fold")
            else:
                console.print(Text(path, style="bold"), overflow="fold")
                for s in styled:
                    console.print(s, overflow="fold")
    console = Console(file=out, force_terminal=color, no_color=not color, highlight=False, emoji=False, width=size)
    for f in files:
        console.print()
        head, *rest = details(f, columns)
        console.print(Text(head, style="bold"), overflow="fold")
        for line in rest:
            console.print(Text(line), overflow="fold")


def _styled(line: str, style: dict[str, str]):
    """A line of runs, each run's cell coloured (ok green, a refusal red)."""
    from rich.text import Text

    text = Text()
    for k, run in enumerate(line.split(_SEP)):
        if k:
            text.append(_SEP)
        head, _, c = run.rpartition(" ")
        text.append(head + " " if head else "")
        text.append(c, style=style.get(c, "red"))
    return text


def json_report(files: list[FileCompat], columns: tuple[str, ...], out: TextIO) -> None:
    write_json({"version": 1, "releases": list(columns), "files": [f.to_json(columns) for f in files]}, out)
