"""``--fix`` and ``--diff``: write the recomputed dims back into the ``.xml``, touching nothing else.

For every Reshape-family layer whose verdict is ``mismatch`` and whose expected dims are known, the
``<dim>`` lines of its output port, and of every consumer's input port on that edge, are rewritten
to what OpenVINO's serializer would write (the length, or ``-1`` for a dynamic dim). The edit works
on the raw bytes, line by line, at the lines the parser recorded: the declaration, attributes,
comments, whitespace and line endings stay byte-identical. A rank change adds or removes ``<dim>``
lines, copied from the port's last ``<dim>`` line so they keep its indentation and line ending.

Every targeted line is checked to hold the ``<dim>`` the parser read before it is edited; a layer
whose lines do not match (file edited since, several dims on one line, a port without dims) is left
alone and the reason is reported. The write is atomic and keeps the file mode; the ``.bin`` is
never opened.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional, Union

from ..core.findings import LayerRef
from ..rules.reshape import MISMATCH

if TYPE_CHECKING:
    from ..checks.driver import FileResult
    from ..frontends.openvino.model import IRModel, Port
    from ..rules.reshape import LayerResult

# One `<dim>` alone on its line; group 1 is the value, the rest of the line is kept as it is.
_DIM_LINE = re.compile(rb"^[ \t]*<dim>[ \t]*(-?[0-9]+)[ \t]*</dim>[ \t]*(?:\r\n|\r|\n)?\Z")

Skip = Union[Callable[[str], bool], Collection[str]]


@dataclass(slots=True)
class Refusal:
    """A mismatched layer that was left alone, and why."""

    layer: LayerRef
    reason: str


@dataclass(slots=True)
class FixOutcome:
    """What ``--fix`` did (or, with ``write=False``, would do) to one file."""

    path: str
    new_bytes: bytes  # the fixed document; the original bytes when nothing changes
    changed: bool = False  # new_bytes differ from the file
    written: bool = False  # ...and they were written to it
    diff_text: str = ""  # unified diff of the change, "" when none
    fixed: list[LayerRef] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    error: Optional[str] = None  # the file could not be read or written; it is unchanged


class _Refused(Exception):
    pass


@dataclass(slots=True)
class _PortEdit:
    where: str  # "output port 2 of 'name'", for messages
    dim_lines: tuple[int, ...]  # 1-based
    old: tuple[int, ...]
    new: tuple[int, ...]


def fix_file(result: "FileResult", write: bool, skip: Skip = ()) -> FixOutcome:
    """Fix the mismatched layers of one checked file.

    ``write=False`` only computes the new bytes and the diff (``--diff``); ``write=True`` also
    replaces the file atomically when it changes (``--fix``). Layers whose id is in ``skip`` (or for
    which ``skip(id)`` is true: suppressed findings) are not fixed. Never raises on bad input or a
    failed write: ``error`` says what went wrong and the file is then untouched.
    """
    path = result.path
    try:
        with open(path, "rb") as f:
            original = f.read()
    except OSError as e:
        return FixOutcome(path, b"", error=f"cannot read: {e.strerror or e}")
    outcome = FixOutcome(path, original)
    lines = original.splitlines(keepends=True)
    if path.lower().endswith(".json"):  # a oneDNN Graph document: rewrite the output `shape` lists
        import difflib

        from .onednn import fix_bytes

        new = fix_bytes(original, result.layers, _skipper(skip))
        if new == original:
            return outcome
        outcome.fixed = [r.layer.ref for r in result.layers if r.status == MISMATCH and not _skipper(skip)(r.layer.id)]
        outcome.diff_text = "".join(difflib.unified_diff(
            original.decode("utf-8", "replace").splitlines(keepends=True),
            new.decode("utf-8", "replace").splitlines(keepends=True), path, path))
    else:
        model = result.model
        if model is None:  # results that crossed a process boundary (--jobs) travel without it
            from ..frontends.openvino.model import NotIR, parse

            try:
                model = parse(path)
            except NotIR:
                return FixOutcome(path, original, error="no longer an IR file")
        changes = _changes(lines, _plan(result, model, _skipper(skip), lines, outcome))
        if not changes:
            return outcome
        new = _apply(lines, changes)
        outcome.diff_text = unified_diff(path, lines, changes)
    outcome.new_bytes = new
    outcome.changed = True
    if write:
        try:
            write_atomic(path, outcome.new_bytes)
            outcome.written = True
        except OSError as e:
            outcome.error = f"cannot write: {e.strerror or e}"
    return outcome


def _skipper(skip: Skip) -> Callable[[str], bool]:
    return skip if callable(skip) else skip.__contains__


def _plan(result: "FileResult", model: "IRModel", skip: Callable[[str], bool], lines: list[bytes],
          outcome: FixOutcome) -> list[_PortEdit]:
    """The port edits for every fixable layer; refusals go to ``outcome.refused``."""
    duplicated = {d.id for d in model.duplicates}
    claimed: dict[int, tuple[int, ...]] = {}  # first dim line -> new dims, across layers
    edits: list[_PortEdit] = []
    for res in result.layers:
        layer = res.layer
        if res.status != MISMATCH or skip(layer.id):
            continue
        try:
            if layer.id in duplicated:
                raise _Refused(f"layer id {layer.id} is used by more than one layer")
            layer_edits = _layer_edits(res, model, lines)
            for e in layer_edits:
                if claimed.get(e.dim_lines[0], e.new) != e.new:
                    raise _Refused(f"{e.where} is also rewritten, differently, for another layer")
        except _Refused as r:
            outcome.refused.append(Refusal(layer.ref, str(r)))
            continue
        for e in layer_edits:
            if e.dim_lines[0] not in claimed:
                claimed[e.dim_lines[0]] = e.new
                edits.append(e)
        if layer_edits:
            outcome.fixed.append(layer.ref)
    return edits


def _layer_edits(res: "LayerResult", model: "IRModel", lines: list[bytes]) -> list[_PortEdit]:
    layer = res.layer
    if not res.expected_known:
        raise _Refused("the expected dims are not known")
    if res.expected is None:
        raise _Refused("the expected rank is dynamic")
    if not res.expected:
        raise _Refused("the expected shape is a scalar: the <port> tag itself would have to change")
    target = tuple(d.to_ir() for d in res.expected)
    out = layer.outputs[0]
    ports = [(f"output port {out.id} of {layer.name!r}", out)]
    ports += [(f"input port {p.id} of consumer {c.name!r} (id {c.id})", p)
              for c, p in model.consumers(layer.id, out.id)]
    return [_port_edit(where, port, target, lines) for where, port in ports if port.dims != target]


def _port_edit(where: str, port: "Port", target: tuple[int, ...], lines: list[bytes]) -> _PortEdit:
    """Check that the recorded lines hold exactly the dims the parser read, one per line."""
    if port.dims is None:
        raise _Refused(f"{where} has a <dim> that is not an integer")
    if not port.dim_lines:
        raise _Refused(f"{where} has no <dim> lines (scalar or dynamic rank): "
                       "the <port> tag itself would have to change")
    if len(set(port.dim_lines)) != len(port.dim_lines) or len(port.dim_lines) != len(port.dims):
        raise _Refused(f"{where} does not have one <dim> per line")
    for n, value in zip(port.dim_lines, port.dims):
        m = _DIM_LINE.match(lines[n - 1]) if 0 < n <= len(lines) else None
        if m is None or int(m.group(1)) != value:
            raise _Refused(f"line {n} does not hold just <dim>{value}</dim> ({where}); "
                           "was the file changed since it was checked?")
    return _PortEdit(where, port.dim_lines, port.dims, target)


@dataclass(slots=True)
class _Change:
    """``lines[start:end]`` (0-based) become ``new``; ``start == end`` is an insertion."""

    start: int
    end: int
    new: list[bytes]


def _changes(lines: list[bytes], edits: list[_PortEdit]) -> list[_Change]:
    """The line changes, in file order, adjacent ones merged. Added dims copy the port's last ``<dim>`` line."""
    changes: list[_Change] = []
    for e in edits:
        idx = [n - 1 for n in e.dim_lines]
        for i, old, new in zip(idx, e.old, e.new):
            if old != new:
                changes.append(_Change(i, i + 1, [_with_value(lines[i], new)]))
        extra = [_with_value(lines[idx[-1]], v) for v in e.new[len(idx):]]
        if extra:
            changes.append(_Change(idx[-1] + 1, idx[-1] + 1, extra))
        changes.extend(_Change(i, i + 1, []) for i in idx[len(e.new):])
    changes.sort(key=lambda c: (c.start, c.end))
    merged: list[_Change] = []
    for c in changes:
        if merged and merged[-1].end == c.start:
            merged[-1].end, merged[-1].new = c.end, merged[-1].new + c.new
        else:
            merged.append(c)
    return merged


def _apply(lines: list[bytes], changes: list[_Change]) -> bytes:
    out, pos = [], 0
    for c in changes:
        out += lines[pos:c.start] + c.new
        pos = c.end
    return b"".join(out + lines[pos:])


def _with_value(line: bytes, value: int) -> bytes:
    m = _DIM_LINE.match(line)
    assert m is not None  # every line was checked by _port_edit
    return line[:m.start(1)] + str(value).encode() + line[m.end(1):]


def unified_diff(path: str, lines: list[bytes], changes: list[_Change], context: int = 3) -> str:
    """``diff -u`` of exactly these changes (not a guessed alignment), line endings as in the file."""
    name = os.fsencode(path)
    out = [b"--- " + name + b"\n", b"+++ " + name + b"\n"]
    groups: list[list[_Change]] = []
    for c in changes:
        if groups and c.start - groups[-1][-1].end <= 2 * context:
            groups[-1].append(c)
        else:
            groups.append([c])
    shift = 0  # lines added minus lines removed before the current hunk
    for group in groups:
        start, stop = max(0, group[0].start - context), min(len(lines), group[-1].end + context)
        body, pos = [], start
        for c in group:
            body += [b" " + line for line in lines[pos:c.start]]
            body += [b"-" + line for line in lines[c.start:c.end]] + [b"+" + line for line in c.new]
            pos = c.end
        body += [b" " + line for line in lines[pos:stop]]
        old_n = stop - start
        new_n = old_n + sum(len(c.new) - (c.end - c.start) for c in group)
        out.append(b"@@ -%s +%s @@\n" % (_range(start, old_n), _range(start + shift, new_n)))
        out += [line if line.endswith((b"\n", b"\r")) else line + b"\n\\ No newline at end of file\n"
                for line in body]
        shift += new_n - old_n
    return b"".join(out).decode("utf-8", "replace")


def _range(start: int, length: int) -> bytes:
    """A hunk range the way ``diff -u`` writes it (``start`` is 0-based)."""
    if length == 1:
        return b"%d" % (start + 1)
    return b"%d,%d" % (start + 1 if length else start, length)


def write_atomic(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data``: a temporary file in the same folder, fsync, rename.

    The file mode is kept; a symlink is followed (the target is replaced, the link stays). On any
    failure the original is untouched and the temporary file is removed.
    """
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    mode = stat.S_IMODE(os.stat(real).st_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(real)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename durable; not possible everywhere
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
