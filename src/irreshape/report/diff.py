"""``irreshape diff``'s reports: ``concise`` (plain lines), ``full`` (rich, a terminal), ``json`` (the document),
``markdown`` (a pull-request comment, ``$GITHUB_STEP_SUMMARY``: tables GitHub renders) and ``github`` (workflow
commands: an annotation on the new file per new finding and per changed input or output)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

from ..core.findings import Finding
from ..core.text import clip
from ..lint.diff import Change, DiffOutcome, FileDiff, Side, op_type, weights
from . import repo_path, write_json
from .github import escape_data, escape_property

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
SHOWN = 50  # findings listed per file and kind in the markdown (a pull-request comment holds 65,536 characters)
BREAKING = "breaking"


# -- words shared by every format --------------------------------------------------------------------------------
def port_text(port) -> str:
    """A port's shape and type: ``[?,3,640,640] f32``."""
    return f"{port.shape_text} {port.type or '?'}" if port is not None else "-"


def change_text(c: Change) -> str:
    """``input 'images': [?,3,640,640] f32 -> [1,3,640,640] f32 (changed, breaking)``."""
    was = f", was {c.old.name!r}" if c.change == "renamed" else ""
    if c.change == "added":
        what = port_text(c.new)
    elif c.change == "removed":
        what = port_text(c.old)
    else:
        what = f"{port_text(c.old)} -> {port_text(c.new)}"
    return f"{c.kind} {clip(c.name, 120)!r}: {what} ({c.change}{was}{', ' + BREAKING if c.breaking else ''})"


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


def ops_text(ops: list[dict]) -> list[str]:
    """The census's changes, an op type a line: ``MaxPool-8 -> MaxPool-14 (3)`` where one version gave way to
    another one for one, else ``+96 FakeQuantize-0``, ``-3 Convert-0``."""
    by_type: dict[str, list[dict]] = {}
    for row in ops:
        by_type.setdefault(op_type(row["op"]), []).append(row)
    out = []
    for rows in by_type.values():
        gone = [r for r in rows if r["new"] < r["old"]]
        came = [r for r in rows if r["new"] > r["old"]]
        if len(gone) == 1 and len(came) == 1 and gone[0]["old"] - gone[0]["new"] == came[0]["new"] - came[0]["old"]:
            out.append(f"{gone[0]['op']} -> {came[0]['op']} ({came[0]['new'] - came[0]['old']})")
            continue
        out.extend(f"{'+' if r['new'] > r['old'] else '-'}{abs(r['new'] - r['old'])} {r['op']}" for r in rows)
    return out


def weights_text(side: Side) -> str:
    """A side's Consts by element type: ``f16 6.2 MB (120), i64 1.1 KB (30)``."""
    if side.reading is None:
        return "-"
    rows = weights(side.reading.layers)
    parts = []
    for etype, row in rows.items():
        groups = f", groups of {'/'.join(map(str, row['group_sizes']))}" if row.get("group_sizes") else ""
        parts.append(f"{etype} {_size(row['bytes'])} ({row['consts']}{groups})")
    return ", ".join(parts) or "none"


def contents_lines(f: FileDiff) -> list[str]:
    ly = f.layers
    out = []
    ops = ops_text(f.ops)
    if ops:
        out.append("ops: " + ", ".join(ops))
    a, b = weights_text(f.old), weights_text(f.new)
    if a != b or ly.consts["changed"]:
        out.append(f"weights: {a} -> {b}")
    c = ly.consts
    if any(c[k] for k in ("changed", "added", "removed")):
        out.append(f"consts: {c['changed']} changed, {c['same']} same, {c['added']} added, {c['removed']} removed"
                   + (f", {c['unknown']} not readable" if c["unknown"] else ""))
    if ly.added or ly.removed or ly.renamed:
        out.append(f"layers: {ly.old} -> {ly.new}: {len(ly.added)} added, {len(ly.removed)} removed, "
                   f"{len(ly.renamed)} renamed")
    return out


def oldest_text(f: FileDiff) -> str:
    return (f"oldest release: {f.old.oldest or '-'} -> {f.new.oldest or '-'}"
            + (f" ({BREAKING})" if f.oldest_raised else ""))


def finding_text(f: Finding, side: Side) -> str:
    where = f"{side.shown}:{f.line}" if f.line else f"{side.shown}"
    return f"{where}: {f.code} {f.message}"


def tally(outcome: DiffOutcome) -> str:
    s = outcome.summary()
    return (f"Compared {s['files']} file{'s' * (s['files'] != 1)}: {s['changed']} changed, {s['added']} added, "
            f"{s['removed']} removed; {s['interface']} with interface changes, {s['oldest']} with another oldest "
            f"release, {s['breaking']} breaking; {s['new_findings']} new finding{'s' * (s['new_findings'] != 1)}, "
            f"{s['fixed_findings']} fixed.")


def _heading(f: FileDiff) -> str:
    what = f.changed(("interface", "oldest", "findings", "contents"))
    return f"{f.path}: {f.status}" + (f" ({', '.join(what)})" if what and f.status == "changed" else "")


def _lines(f: FileDiff) -> Iterator[str]:
    """A file's changes as plain lines (concise and full)."""
    for c in (*f.inputs, *f.outputs):
        yield change_text(c)
    if f.oldest_changed:
        yield oldest_text(f)
    for finding in f.new_findings:
        yield "new finding: " + finding_text(finding, f.new)
    for finding in f.fixed_findings:
        yield "fixed finding: " + finding_text(finding, f.old)
    yield from contents_lines(f)
    for side in (f.old, f.new):
        if side.note:
            yield "note: " + side.note


# -- formats -----------------------------------------------------------------------------------------------------
def concise(outcome: DiffOutcome, out: TextIO, color: bool = False) -> None:
    for f in outcome.files:
        out.write(_heading(f) + "\n")
        for line in _lines(f):
            out.write(f"  {line}\n")
    out.write(tally(outcome) + "\n")


def full(outcome: DiffOutcome, out: TextIO, color: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=out, force_terminal=color, no_color=not color, highlight=False, emoji=False,
                      width=None if out.isatty() else 120)
    for f in outcome.files:
        console.print(Text(_heading(f), style="bold"), soft_wrap=True)
        changes = (*f.inputs, *f.outputs)
        if changes:
            table = Table(show_edge=False, pad_edge=False, header_style="bold")
            for column in ("", "name", "old", "new", "change"):
                table.add_column(column, overflow="fold")
            for c in changes:
                change = c.change + (f" (was {clip(c.old.name, 80)!r})" if c.change == "renamed" else "")
                table.add_row(c.kind, clip(c.name, 80), port_text(c.old), port_text(c.new),
                              Text(change + (f", {BREAKING}" if c.breaking else ""),
                                   style="red" if c.breaking else "yellow"))
            console.print(table)
        if f.oldest_changed:
            console.print(Text(oldest_text(f), style="red" if f.oldest_raised else ""), soft_wrap=True)
        for finding in f.new_findings:
            console.print(Text("+ " + finding_text(finding, f.new), style="red"), soft_wrap=True)
        for finding in f.fixed_findings:
            console.print(Text("- " + finding_text(finding, f.old), style="green"), soft_wrap=True)
        for line in contents_lines(f) + [f"note: {s.note}" for s in (f.old, f.new) if s.note]:
            console.print(Text(line, style="dim"), soft_wrap=True)
        console.print()
    console.print(Text(tally(outcome)), soft_wrap=True)


def json_report(outcome: DiffOutcome, out: TextIO, color: bool = False) -> None:
    write_json(outcome.to_json(), out)


def github(outcome: DiffOutcome, out: TextIO, color: bool = False) -> None:
    """An annotation per new finding at its line of the new file, per changed input or output at its layer's
    line (a warning where it breaks an application, else a notice), and for a changed oldest release."""
    for f in outcome.files:
        new = f.new
        target = f"file={escape_property(repo_path(new.path, outcome.root))}," if new.present and new.path else ""
        for finding in f.new_findings:
            props = (f"{target}line={finding.line or 1},col={finding.col},"
                     f"title={escape_property(f'irreshape diff ({finding.code})')}")
            out.write(f"::{_COMMAND[finding.severity]} {props}::{escape_data(finding.message)}\n")
        for c in (*f.inputs, *f.outputs):
            line = c.new.line if c.new is not None and c.new.line else 1
            title = escape_property(f"irreshape diff ({c.kind} {c.change})")
            out.write(f"::{'warning' if c.breaking else 'notice'} {target}line={line},title={title}::"
                      f"{escape_data(change_text(c))}\n")
        if f.oldest_changed:
            title = escape_property("irreshape diff (oldest release)")
            why = f.new.compat.summary if f.new.compat is not None else ""
            out.write(f"::{'warning' if f.oldest_raised else 'notice'} {target}line=1,title={title}::"
                      f"{escape_data(oldest_text(f) + (': ' + why if why else ''))}\n")


# -- markdown ----------------------------------------------------------------------------------------------------
def _code(text: object, limit: int = 120) -> str:
    """``text`` as a code span that holds in a table cell: clipped, on one line, its pipes escaped, fenced by
    more backticks than it holds."""
    t = clip(text, limit).replace("\r", " ").replace("\n", " ").replace("|", "\\|")
    run = longest = 0
    for ch in t:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if t.startswith("`") or t.endswith("`") or longest else ""
    return f"{fence}{pad}{t}{pad}{fence}"


def _md(text: str) -> str:
    """Plain text for markdown: what GitHub would read as markup, a table's pipe or HTML escaped; ``->`` an arrow."""
    out = []
    for ch in text.replace("\r", " ").replace("\n", " ").replace(" -> ", " → "):
        out.append("\\" + ch if ch in "\\`*_[]<>|#~" else ch)
    return "".join(out)


def _cell_port(port) -> str:
    return f"{_code(port.shape_text)} {port.type or '?'}" if port is not None else "-"


def _summary_row(f: FileDiff) -> str:
    n = len(f.inputs) + len(f.outputs)
    breaking = sum(1 for c in (*f.inputs, *f.outputs) if c.breaking)
    interface = f"{n} change{'s' * (n != 1)}" + (f" ({breaking} {BREAKING})" if breaking else "") if n else "-"
    oldest = (f"{f.old.oldest or '-'} → {f.new.oldest or '-'}" + (f" ({BREAKING})" if f.oldest_raised else "")
              if f.oldest_changed else (f.new.oldest or f.old.oldest or "-"))
    findings = f"+{len(f.new_findings)} / −{len(f.fixed_findings)}" if f.new_findings or f.fixed_findings else "-"
    contents = _md("; ".join(ops_text(f.ops)[:3])) or ("changed" if f.contents_changed else "-")
    return f"| {_code(f.path)} | {f.status} | {interface} | {oldest} | {findings} | {contents} |"


def markdown(outcome: DiffOutcome, out: TextIO, color: bool = False) -> None:
    w = out.write
    w("## irreshape diff\n\n")
    w(f"{_code(outcome.old)} → {_code(outcome.new)}: {_md(tally(outcome))}\n\n")
    if not outcome.files:
        return
    w("| file | status | interface | oldest release | findings (new / fixed) | ops |\n")
    w("|---|---|---|---|---|---|\n")
    for f in outcome.files:
        w(_summary_row(f) + "\n")
    for f in outcome.files:
        if f.status == "unchanged":
            continue
        w(f"\n### {_code(f.path)} ({f.status})\n\n")
        changes = (*f.inputs, *f.outputs)
        if changes:
            w("| | name | old | new | change |\n|---|---|---|---|---|\n")
            for c in changes:
                change = c.change + (f" (was {_code(c.old.name)})" if c.change == "renamed" else "")
                w(f"| {c.kind} | {_code(c.name)} | {_cell_port(c.old)} | {_cell_port(c.new)} | "
                  f"{change}{' **' + BREAKING + '**' if c.breaking else ''} |\n")
            w("\n")
        if f.oldest_changed:
            why = f.new.compat.summary if f.new.compat is not None else ""
            w(f"**Oldest release**: {f.old.oldest or '-'} → {f.new.oldest or '-'}"
              f"{' (**' + BREAKING + '**)' if f.oldest_raised else ''}" + (f": {_md(why)}" if why else "") + "\n\n")
        for title, items, side in (("New findings", f.new_findings, f.new), ("Fixed findings", f.fixed_findings,
                                                                              f.old)):
            if not items:
                continue
            w(f"**{title}** ({len(items)})\n\n")
            for finding in items[:SHOWN]:
                where = f" line {finding.line}" if finding.line else ""
                layer = f" {_code(finding.layer.name)}" if finding.layer is not None else ""
                w(f"- {_code(finding.code)}{where}{layer}: {_md(clip(finding.message, 300))}\n")
            if len(items) > SHOWN:
                w(f"- … and {len(items) - SHOWN} more\n")
            w("\n")
        lines = contents_lines(f) + [f"note: {side.note}" for side in (f.old, f.new) if side.note]
        if lines:
            w("<details><summary>Contents</summary>\n\n")
            for line in lines:
                w(f"- {_md(line)}\n")
            w("\n</details>\n")
