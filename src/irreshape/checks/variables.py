"""The variables of a stateful model across one graph: every Assign's variable declared, as the IR reader
requires, and the shape each Assign writes one its variable can hold (see :mod:`irreshape.shapes.ops.state`
for what openvino 2026.4.1 measures on each layer alone)."""

from __future__ import annotations

from ..core.dims import format_shape
from ..core.findings import Finding
from ..frontends.openvino.model import IRModel, Layer
from ..rules.layers import REJECTED
from ..rules.state import ASSIGN_MISMATCH
from ..shapes.dimops import shapes_compatible
from ..shapes.node import ShapeError, opset_number
from ..shapes.ops.state import variable_shape
from .graph import READ, Graph, describe


def _v3(layer: Layer) -> bool:
    n = opset_number(layer.version)
    return n is not None and n < 6


def check_variables(model: IRModel, graph: Graph) -> list[Finding]:
    """IR303 on an Assign whose variable no ReadValue declares (read_model fails: ``map::at``), on an Assign-3
    without a ReadValue-3 of its variable upstream or whose static shape differs from it; IR310 on an Assign-6
    whose input its variable cannot hold (read_model accepts it, compile_model does not)."""
    readers: dict[str, list[Layer]] = {}
    assigns: list[Layer] = []
    for layer in model.layers.values():
        if layer.kind == "readvalue":
            readers.setdefault(layer.data.get("variable_id", ""), []).append(layer)
        elif layer.kind == "assign":
            assigns.append(layer)
    findings: list[Finding] = []
    made = _made(model) if assigns else set()
    for assign in assigns:
        vid = assign.data.get("variable_id", "")
        if _v3(assign):
            found = _assign_3(assign, vid, readers.get(vid, []), graph)
        elif vid not in readers:
            found = f"no ReadValue declares its variable {vid!r} (the IR reader fails: map::at)"
        elif not any(r.id in made for r in readers[vid]):
            found = (f"the ReadValue of its variable {vid!r} ({describe(readers[vid][0])}) feeds no Result or Assign, "
                     "so the IR reader does not make it (map::at)")
        else:
            found = None
            mismatch = _assign_6(assign, vid, readers[vid], graph)
            if mismatch:
                findings.append(Finding(ASSIGN_MISMATCH, mismatch, assign.line, assign.ref))
        if found:
            findings.append(Finding(REJECTED, f"{describe(assign)}: OpenVINO rejects it: {found}", assign.line,
                                    assign.ref))
    return findings


def _input(assign: Layer, graph: Graph):
    """The shape arriving at the Assign, where irreshape knows it as OpenVINO infers it; else False."""
    src = assign.inputs[0].source if assign.inputs else None
    if src is None:
        return False
    shape = graph.shape(src)
    return shape if graph.origin(src) in READ else False


def _assign_6(assign: Layer, vid: str, readers: list[Layer], graph: Graph) -> str | None:
    shape = _input(assign, graph)
    if shape is False:
        return None
    reader = next((r for r in readers if not _v3(r)), None)
    if reader is None:
        return None
    try:
        declared = variable_shape(reader.data)
    except ShapeError:  # an unreadable variable_shape: the ReadValue's own finding
        return None
    if declared is None or shapes_compatible(shape, declared):
        return None
    return (f"{describe(assign)} writes {format_shape(shape)} into variable {vid!r}, whose shape "
            f"{format_shape(declared)} ({describe(reader)}) cannot hold it: read_model reads it, compile_model "
            "rejects it (The shape specified in the Variable is not compatible with the shape of the input)")


def _assign_3(assign: Layer, vid: str, readers: list[Layer], graph: Graph) -> str | None:
    upstream = _upstream(assign)
    reader = next((r for r in readers if _v3(r) and r.id in upstream), None)
    if reader is None:
        return f"Can't find variable with id = {vid}"
    shape = _input(assign, graph)
    src = reader.outputs[0] if reader.outputs else None
    held = graph.shape(src) if src is not None else None
    if shape is False or held is None or shape is None or graph.origin(src) not in READ:
        return None
    if all(d.is_static for d in shape) and all(d.is_static for d in held) and \
            [d.lo for d in shape] != [d.lo for d in held]:
        return "Variables output shapes are inconsistent."
    return None


def _made(model: IRModel) -> set[str]:
    """The ids of the layers the IR reader makes: those a Result or an Assign depends on, itself included (it walks
    the graph from the layers of those types, as written, and makes nothing else but the Parameters)."""
    ends = [layer for layer in model.layers.values() if layer.type in ("Result", "Assign")]
    return {layer.id for layer in ends} | _upstream(*ends)


def _upstream(*layers: Layer) -> set[str]:
    """The ids of the layers ``layers`` depend on."""
    seen: set[str] = set()
    todo = [p.source.layer for layer in layers for p in layer.inputs if p.source is not None]
    while todo:
        lay = todo.pop()
        if lay.id in seen:
            continue
        seen.add(lay.id)
        todo.extend(p.source.layer for p in lay.inputs if p.source is not None)
    return seen
