"""The fixer of IR ``.xml`` files: the recomputed dims written back into ``<dim>`` lines, nothing else touched.

For every fixable layer (a ``mismatch`` whose expected dims are known), the
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

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..core import etypes
from ..core.results import FileResult, LayerResult, PortResult, Status
from ..frontends.openvino import NotIR, parse
from ..frontends.openvino.model import IRModel, Port
from . import Change, Plan, Refusal

# One `<dim>` alone on its line; group 1 is the value, the rest of the line is kept as it is.
_DIM_LINE = re.compile(rb"^[ \t]*<dim>[ \t]*(-?[0-9]+)[ \t]*</dim>[ \t]*(?:\r\n|\r|\n)?\Z")


def model_of(result: FileResult, plan: Plan):
    """The parsed model of ``result``; None (the ``plan``'s error said) where the file is no longer an IR."""
    if result.model is not None:
        return result.model
    try:  # results that crossed a process boundary (--jobs) travel without it
        return parse(result.path)
    except NotIR:
        plan.error = "no longer an IR file"
        return None


def fix_bytes(lines: list[bytes], result: FileResult, skip: Callable[[str], bool]) -> Plan:
    """The line changes that fix the fixable layers of ``result`` (the file's ``lines``), less ``skip``."""
    plan = Plan()
    model = model_of(result, plan)
    if model is None:
        return plan
    plan.changes = _changes(lines, _plan(result, model, skip, lines, plan))
    return plan


class _Refused(Exception):
    pass


@dataclass(slots=True)
class _PortEdit:
    where: str  # "output port 2 of 'name'", for messages
    dim_lines: tuple[int, ...]  # 1-based
    old: tuple[int, ...]
    new: tuple[int, ...]
    tag_line: int = 0  # a port written without dims (`<port ... />`, or `<port ...>` `</port>`): its line(s) ...
    opened: "list[bytes] | None" = None  # ... rewritten whole as these lines: the port opened, its dims, closed
    tag_lines: int = 1  # how many lines the port without dims takes

    @property
    def key(self) -> int:
        """The first line the edit changes: two edits of one port have the same."""
        return self.dim_lines[0] if self.dim_lines else self.tag_line


def _plan(result: FileResult, model: IRModel, skip: Callable[[str], bool], lines: list[bytes],
          outcome: Plan) -> list[_PortEdit]:
    """The port edits for every fixable layer; refusals go to ``outcome.refused``."""
    claimed: dict[int, tuple[int, ...]] = {}  # first dim line -> new dims, across layers
    edits: list[_PortEdit] = []
    precision = getattr(skip, "precision", skip)  # a Skipper: the precisions' own (IR307's findings)
    for res in (*result.layers, *result.flagged):
        layer = res.layer
        if not precision(layer.id) and _retype(res, model.scope(layer.id) or model, lines, edits, claimed, outcome):
            outcome.fixed.append(layer.ref)
        if res.status is not Status.MISMATCH or res.skipped(skip):
            continue
        scope = model.scope(layer.id) or model  # the graph holding the layer: the main one or a body
        _take(res, scope, lambda: _layer_edits(res, scope, lines), claimed, edits, outcome)
    _input_precisions(result, model, precision, lines, edits, claimed, outcome)
    _input_dims(result, model, getattr(skip, "edges", skip), lines, edits, claimed, outcome)
    return edits


def _input_dims(result: FileResult, model: IRModel, skip: Callable[[str], bool], lines: list[bytes],
                edits: list[_PortEdit], claimed: dict[int, tuple[int, ...]], outcome: Plan) -> None:
    """The input ports whose dims are neither what their producer carries nor what it declares (IR306; IR106 and
    IR107 by the Reshape family's rules: the verdict's ``edges``): rewritten to what OpenVINO's reading carries
    there, the producer left as it is."""
    for res in (*result.layers, *result.flagged):
        layer = res.layer
        if res.edges and not skip(layer.id):
            _take(res, model.scope(layer.id) or model, lambda: [
                _port_edit(f"input port {pid} of {layer.name!r}", port, target, lines)
                for pid, target in res.edges if (port := layer.input(pid)) is not None and port.dims != target],
                claimed, edits, outcome)


def _take(res: LayerResult, scope: IRModel, make: Callable[[], list[_PortEdit]], claimed: dict[int, tuple[int, ...]],
          edits: list[_PortEdit], outcome: Plan) -> None:
    """The edits ``make()`` gives for a layer, taken unless one rewrites a line that another layer's edit rewrites
    otherwise or the layer's id is not unique in its graph (a refusal: none taken); the layer is fixed where any is."""
    layer = res.layer
    try:
        made = make()
        for e in made:
            if claimed.get(e.key, e.new) != e.new:
                raise _Refused(f"{e.where} is also rewritten, differently, for another layer")
        if made and any(d.id == layer.id for d in scope.duplicates):
            raise _Refused(f"layer id {layer.id} is used by more than one layer")
    except _Refused as r:
        outcome.refused.append(Refusal(layer.ref, str(r)))
        return
    for e in made:
        if e.key not in claimed:
            claimed[e.key] = e.new
            edits.append(e)
    if made and layer.ref not in outcome.fixed:
        outcome.fixed.append(layer.ref)


def _input_precisions(result: FileResult, model: IRModel, skip: Callable[[str], bool], lines: list[bytes],
                      edits: list[_PortEdit], claimed: dict[int, tuple[int, ...]], outcome: Plan) -> None:
    """The input ports (of the main graph) whose precision is neither their producer's declared one nor its type
    (an IR307 on the consumer alone): rewritten to the producer's type, as its output declares it once fixed."""
    expected = {(id(res.layer), pr.port): pr.expected_type for res in (*result.layers, *result.flagged)
                for pr in res.outputs or () if pr.retyped}
    for layer in model.layers.values():
        if skip(layer.id):
            continue
        made = []
        for port in layer.inputs:
            src = port.source
            if src is None or port.precision is None or src.precision is None or port.precision == src.precision:
                continue
            new = expected.get((id(src.layer), src.id), src.precision)
            if etypes.from_precision(port.precision) == etypes.from_precision(new):
                continue
            try:
                made.append(_precision_edit(f"input port {port.id} of {layer.name!r}", port, new.encode(), lines))
            except _Refused as r:
                outcome.refused.append(Refusal(layer.ref, str(r)))
        for e in made:
            if e.key not in claimed:
                claimed[e.key] = ()
                edits.append(e)
        if made and layer.ref not in outcome.fixed:
            outcome.fixed.append(layer.ref)


_PRECISION = re.compile(rb'( precision=")([^"]*)(")')


def _retype(res: LayerResult, model: IRModel, lines: list[bytes], edits: list[_PortEdit],
            claimed: dict[int, tuple[int, ...]], outcome: Plan) -> bool:
    """The ``precision`` edits of a layer's output ports whose declared precision is not the expected one, and
    of the consumers' input ports on those edges that repeat it: the attribute's value alone is rewritten, on
    the port's own line. A port whose line does not hold that one attribute is left alone, with the reason.
    Whether a port was retyped."""
    layer = res.layer
    done = False
    for pr in res.outputs or ():
        out = layer.output(pr.port)
        if out is None or not pr.retyped:
            continue
        new = pr.expected_type.encode()  # type: ignore[union-attr]
        ports = [(f"output port {out.id} of {layer.name!r}", out)]
        ports += [(f"input port {p.id} of consumer {c.name!r} (id {c.id})", p)
                  for c, p in model.consumers(layer.id, out.id) if p.precision == out.precision]
        try:
            made = [_precision_edit(where, port, new, lines) for where, port in ports]
        except _Refused as r:
            outcome.refused.append(Refusal(layer.ref, str(r)))
            continue
        for e in made:
            if e.key not in claimed:
                claimed[e.key] = ()
                edits.append(e)
        done = True
    return done


def _precision_edit(where: str, port: Port, new: bytes, lines: list[bytes]) -> _PortEdit:
    n = port.line
    line = lines[n - 1] if 0 < n <= len(lines) else b""
    found = _PRECISION.findall(line)
    if line.count(b"<port") != 1 or len(found) != 1 or found[0][1].decode(errors="replace") != port.precision:
        raise _Refused(f"line {n} does not hold the one <port> tag of {where} with precision {port.precision!r}")
    return _PortEdit(where, (), (), (), n, [_PRECISION.sub(lambda m: m.group(1) + new + m.group(3), line)])


def _layer_edits(res: LayerResult, model: IRModel, lines: list[bytes]) -> list[_PortEdit]:
    """The edits of every output port whose expected dims are known and declared otherwise, and of the
    consumers' input ports on those edges."""
    layer = res.layer
    if not layer.outputs:  # a Result's: only its input ports' dims may lie (see _input_dims)
        return []
    if not res.fixable:
        raise _Refused("the expected dims are not known" if not res.expected_known else "the expected rank is dynamic")
    edits = []
    for pr in res.outputs or [PortResult(layer.outputs[0].id, res.declared, res.expected, res.expected_known)]:
        out = layer.output(pr.port)
        if out is None or not pr.expected_known or pr.expected is None:
            continue
        target = tuple(d.to_ir() for d in pr.expected)
        if out.dims == target:
            continue
        if not pr.expected:
            raise _Refused("the expected shape is a scalar: the <port> tag itself would have to change")
        ports = [(f"output port {out.id} of {layer.name!r}", out)]
        ports += [(f"input port {p.id} of consumer {c.name!r} (id {c.id})", p)
                  for c, p in model.consumers(layer.id, out.id)]
        edits += [_port_edit(where, port, target, lines) for where, port in ports if port.dims != target]
    return edits


# a port without dims, alone on its line: `<port id="2" precision="FP32" names="y" />`; or opened on its line
# (`<port id="2" precision="I64">`) and closed alone on the next (`</port>`)
_EMPTY_PORT = re.compile(rb"^([ \t]*)<port\b([^<>]*?)[ \t]*(/?)>[ \t]*(\r\n|\r|\n)?\Z")
_CLOSE_PORT = re.compile(rb"^[ \t]*</port>[ \t]*(?:\r\n|\r|\n)?\Z")
_INDENT = re.compile(rb"^[ \t]*")


def _opened(where: str, port: Port, target: tuple[int, ...], lines: list[bytes]) -> tuple[list[bytes], int]:
    """The lines of a port written without dims, opened to hold ``target`` in the file's own layout (the dims
    one indentation step deeper than the port, the step its enclosing element takes; the port's line ending), and
    how many lines they replace."""
    n = port.line
    m = _EMPTY_PORT.match(lines[n - 1]) if 0 < n <= len(lines) else None
    closed = m is not None and (m.group(3) or (n < len(lines) and _CLOSE_PORT.match(lines[n])))
    if not closed:
        raise _Refused(f"{where} has no <dim> lines and its tag is not alone on line {n}")
    indent, attrs, eol = m.group(1), m.group(2), m.group(4) or b"\n"  # type: ignore[union-attr]
    outer = next((_INDENT.match(lines[k]).group() for k in range(n - 2, -1, -1)  # type: ignore[union-attr]
                  if len(_INDENT.match(lines[k]).group()) < len(indent)), b"")  # type: ignore[union-attr]
    step = indent[len(outer):] if indent.startswith(outer) and len(indent) > len(outer) else b"\t"
    dims = [indent + step + b"<dim>%d</dim>" % v + eol for v in target]
    if not m.group(3):  # type: ignore[union-attr]  # opened and closed on two lines: both kept as they are
        return [lines[n - 1], *dims, lines[n]], 2
    return [indent + b"<port" + attrs + b">" + eol, *dims, indent + b"</port>" + eol], 1


def _port_edit(where: str, port: Port, target: tuple[int, ...], lines: list[bytes]) -> _PortEdit:
    """Check that the recorded lines hold exactly the dims the parser read, one per line."""
    if port.dims is None:
        raise _Refused(f"{where} has a <dim> that is not an integer")
    if not port.dim_lines:
        return _PortEdit(where, (), (), target, port.line, *_opened(where, port, target, lines))
    if len(set(port.dim_lines)) != len(port.dim_lines) or len(port.dim_lines) != len(port.dims):
        raise _Refused(f"{where} does not have one <dim> per line")
    for n, value in zip(port.dim_lines, port.dims):
        m = _DIM_LINE.match(lines[n - 1]) if 0 < n <= len(lines) else None
        if m is None or int(m.group(1)) != value:
            raise _Refused(f"line {n} does not hold just <dim>{value}</dim> ({where}); "
                           "was the file changed since it was checked?")
    return _PortEdit(where, port.dim_lines, port.dims, target)


def _changes(lines: list[bytes], edits: list[_PortEdit]) -> list[Change]:
    """The line changes, in file order, adjacent ones merged. Added dims copy the port's last ``<dim>`` line."""
    changes: list[Change] = []
    for e in edits:
        if e.opened is not None:
            changes.append(Change(e.tag_line - 1, e.tag_line - 1 + e.tag_lines, e.opened))
            continue
        idx = [n - 1 for n in e.dim_lines]
        for i, old, new in zip(idx, e.old, e.new):
            if old != new:
                changes.append(Change(i, i + 1, [_with_value(lines[i], new)]))
        extra = [_with_value(lines[idx[-1]], v) for v in e.new[len(idx):]]
        if extra:
            changes.append(Change(idx[-1] + 1, idx[-1] + 1, extra))
        changes.extend(Change(i, i + 1, []) for i in idx[len(e.new):])
    changes.sort(key=lambda c: (c.start, c.end))
    merged: list[Change] = []
    for c in changes:
        if merged and merged[-1].end == c.start:
            merged[-1].end, merged[-1].new = c.end, merged[-1].new + c.new
        else:
            merged.append(c)
    return merged


def _with_value(line: bytes, value: int) -> bytes:
    m = _DIM_LINE.match(line)
    assert m is not None  # every line was checked by _port_edit
    return line[:m.start(1)] + str(value).encode() + line[m.end(1):]


