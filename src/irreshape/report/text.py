"""Human reports: `concise` (one line per finding), `pylint` (pylint's parseable line), `grouped` (findings
under their file) and `full` (each finding with its XML, via rich)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from ..core.dims import Agreement, Dim, agreement
from ..core.results import FileResult
from ..core.text import display_path
from ..rules import EDGES
from . import Context, summary

if TYPE_CHECKING:
    from ..core.findings import Finding
    from ..core.results import LayerResult
    from ..frontends.openvino.model import Port

_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _tally(results: list[FileResult], ctx: Context) -> str:
    s = summary(results)
    parts = [_plural(s["errors"], "error"), _plural(s["warnings"], "warning")]
    if s["infos"]:
        parts.append(f"{s['infos']} info")
    every = any(lr.outputs is not None for r in results for lr in r.layers)  # --layers all
    text = (f"Checked {_plural(s['layers'], 'layer' if every else 'reshape layer')} in {_plural(s['files'], 'file')}: "
            + ", ".join(parts) + ".")
    if ctx.baselined:
        text += f" {_plural(ctx.baselined, 'finding')} in the baseline not shown."
    return text


def _path(r: FileResult) -> str:
    return display_path(r.path)


def concise(results: list[FileResult], out: TextIO, ctx: Context) -> None:
    for r in results:
        for f in r.findings:
            out.write(f"{_path(r)}:{f.line or 1}:{f.col}: {f.code} {f.message}\n")
    if not ctx.quiet:
        out.write(_tally(results, ctx) + "\n")


def pylint(results: list[FileResult], out: TextIO, ctx: Context) -> None:
    """``PATH:LINE: [CODE] message``, as pylint's parseable format (and ruff's ``pylint``) write it."""
    for r in results:
        for f in r.findings:
            out.write(f"{_path(r)}:{f.line or 1}: [{f.code}] {f.message}\n")


def grouped(results: list[FileResult], out: TextIO, ctx: Context) -> None:
    """Each file with findings, then its findings indented (``LINE:COL CODE message``, the positions
    aligned), a blank line after each file, and the tally."""
    for r in results:
        if not r.findings:
            continue
        out.write(f"{_path(r)}:\n")
        lines = [str(f.line or 1) for f in r.findings]
        cols = [str(f.col) for f in r.findings]
        lw, cw = max(map(len, lines)), max(map(len, cols))
        for f, line, col in zip(r.findings, lines, cols):
            out.write(f"  {line:>{lw}}:{col:<{cw}} {f.code} {f.message}\n")
        out.write("\n")
    if not ctx.quiet:
        out.write(_tally(results, ctx) + "\n")


# -- full ------------------------------------------------------------------------------------------
def full(results: list[FileResult], out: TextIO, ctx: Context) -> None:
    from rich.console import Console

    console = Console(file=out, force_terminal=ctx.color, no_color=not ctx.color, highlight=False,
                      soft_wrap=True, emoji=False, width=100)
    for r in results:
        by_id = {lr.layer.id: lr for lr in r.layers}
        edges = {lr.layer.id: lr for lr in (*r.layers, *r.flagged) if lr.edges}
        plans = []
        for f in r.findings:
            edge = _edge(f, edges)
            plans.append((f, edge, _plan(f, by_id, edge)))
        source = _read_lines(r.path, {n for _, _, (shown, _) in plans for n in shown})
        for f, edge, (shown, marked) in plans:
            for renderable in _finding(r, f, shown, marked, source, by_id, ctx, edge):
                console.print(renderable)
            console.print()
    if not ctx.quiet:
        console.print(_tally(results, ctx))


def _finding(r: FileResult, f: "Finding", shown: list[int], marked: set[int], source: dict[int, str],
             by_id: dict, ctx: Context, edge: "tuple[Port, tuple[int, ...]] | None" = None):
    from rich.text import Text

    head = Text()
    head.append(f"{f.severity}[{f.code}]", style=_STYLE[f.severity])
    head.append(f": {f.message}", style="bold")
    yield head
    yield Text(f"  --> {_path(r)}:{f.line or 1}:{f.col}", style="blue")
    lines = [n for n in shown if n in source]
    if lines:
        yield from _snippet(lines, marked, source, ctx)
    lr = by_id.get(f.layer.id) if f.layer is not None and f.rule.fixable else None
    if f.rule in EDGES:  # an input port's dims, beside the ones it should declare
        if edge is not None:
            yield Text("   |", style="blue")
            yield _side_by_side(list(edge[0].dims or ()), [Dim.of(v) if v >= 0 else Dim.dynamic() for v in edge[1]],
                                ctx)
    elif f.code == "IR307" and f.layer is not None:  # a precision, not dims (the layer may be only in `flagged`)
        typed = lr or next((v for v in r.flagged if v.layer.id == f.layer.id), None)
        for out in (typed.outputs or []) if typed is not None else []:
            if out.retyped:
                yield Text("   |", style="blue")
                yield Text(f"   = port {out.port} precision: declared {out.declared_type}, expected {out.expected_type}")
    elif lr is not None and lr.expected_known and lr.declared is not None:
        yield Text("   |", style="blue")
        yield _side_by_side(list(lr.declared), list(lr.expected or []), ctx)


def _edge(f: "Finding", edges: dict[str, "LayerResult"]) -> "tuple[Port, tuple[int, ...]] | None":
    """The input port an edge finding (IR106, IR107, IR306) is on and the dims it should declare, where the
    layer's verdict holds them."""
    lr = edges.get(f.layer.id) if f.layer is not None and f.rule in EDGES else None
    for pid, target in lr.edges if lr is not None else ():
        port = lr.layer.input(pid)
        if port is not None and port.line == f.line:
            return port, target
    return None


def _plan(f: "Finding", by_id: dict[str, "LayerResult"],
          edge: "tuple[Port, tuple[int, ...]] | None") -> tuple[list[int], set[int]]:
    """(the XML lines to show for a finding, the lines to mark): the layer's first lines, and each
    marked line with one line of context; for an edge finding (``edge``, see _edge), its port's dims."""
    if not f.line:
        return [], set()
    start, end = f.extra.get("span", (f.line, f.line))
    marked = {f.line}
    lr = by_id.get(f.layer.id) if f.layer is not None else None
    if edge is not None:  # the input port's dims that differ from what it should declare
        port, target = edge
        marked |= {n for i, n in enumerate(port.dim_lines)
                   if len(port.dims or ()) != len(target) or port.dims[i] != target[i]}  # type: ignore[index]
    elif lr is not None and f.rule.fixable:
        marked |= _bad_dim_lines(lr)
    wanted = {start, start + 1} | {n + d for n in marked for d in (-1, 0, 1)}
    if edge is not None:
        wanted |= set(edge[0].dim_lines)
    if lr is not None:  # a finding on one of the layer's ports: show all of the port's dims
        wanted |= {n for p in lr.layer.inputs + lr.layer.outputs if p.line == f.line for n in p.dim_lines}
    last = max(end, *wanted)
    return sorted(n for n in wanted if start <= n <= last), marked


def _bad_dim_lines(lr: "LayerResult") -> set[int]:
    """The `<dim>` lines of the output port that disagree with the expected dims."""
    if not lr.layer.outputs or lr.declared is None:
        return set()
    lines = lr.layer.outputs[0].dim_lines
    if not lr.expected_known or lr.expected is None or len(lr.expected) != len(lr.declared):
        return set(lines)
    return {lines[i] for i, (d, e) in enumerate(zip(lr.declared, lr.expected))
            if i < len(lines) and agreement(d, e) is not Agreement.AGREES}


def _read_lines(path: str, wanted: set[int]) -> dict[int, str]:
    """The wanted lines of a file (1-based), read in one pass that stops after the last of them."""
    if not wanted:
        return {}
    last = max(wanted)
    out: dict[int, str] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, text in enumerate(f, 1):
                if n in wanted:
                    out[n] = text.rstrip("\r\n").expandtabs(4)[:200]
                if n >= last:
                    break
    except OSError:
        return {}
    return out


def _snippet(lines: list[int], marked: set[int], source: dict[int, str], ctx: Context):
    from rich.syntax import Syntax
    from rich.text import Text

    indent = min(len(source[n]) - len(source[n].lstrip()) for n in lines)
    width = len(str(lines[-1]))
    syntax = Syntax("", "xml", theme="ansi_dark") if ctx.color else None
    yield Text(" " * width + " |", style="blue")
    prev = None
    for n in lines:
        if prev is not None and n > prev + 1:
            yield Text(" " * width + " :", style="blue")
        code = source[n][indent:]
        row = Text()
        row.append(f"{n:>{width}} ", style="blue")
        row.append(">" if n in marked else "|", style="bold red" if n in marked else "blue")
        row.append(" ")
        if syntax is not None:
            highlighted = syntax.highlight(code)
            highlighted.rstrip()
            if n in marked:
                highlighted.stylize("bold")
            row.append_text(highlighted)
        else:
            row.append(code)
        yield row
        prev = n


def _side_by_side(declared: list[int], expected: list[Dim], ctx: Context):
    """A port's declared dims beside the expected ones, those that differ marked."""
    from rich.text import Text

    rows = max(len(declared), len(expected))
    cells = [(str(i), _cell(declared, i), _cell(expected, i)) for i in range(rows)]
    w = [max(len(h), *(len(c[k]) for c in cells)) for k, h in enumerate(("dim", "declared", "expected"))]
    text = Text()
    text.append("   = ", style="blue")
    text.append(f"{'dim':>{w[0]}}  {'declared':>{w[1]}}  {'expected':>{w[2]}}\n", style="bold")
    for i, (k, d, e) in enumerate(cells):
        bad = i >= len(declared) or i >= len(expected) or agreement(declared[i], expected[i]) is not Agreement.AGREES
        text.append(f"     {k:>{w[0]}}  {d:>{w[1]}}  {e:>{w[2]}}", style="red" if bad else "")
        text.append("  <- differs" if bad else "", style="bold red")
        if i < rows - 1:
            text.append("\n")
    return text


def _cell(dims: list, i: int) -> str:
    return str(dims[i]) if i < len(dims) else "-"
