"""The structure of an IR graph: duplicate ids, edges that point nowhere, shape inputs fed by a cycle."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..core.findings import Finding
from ..frontends.openvino.model import IRModel, Layer
from ..rules.structure import CYCLE, DANGLING_EDGE, DUPLICATE_ID, UNCONNECTED


def check_graph(model: IRModel) -> Iterator[Finding]:
    """Graph-level checks: duplicate ids, edges that point nowhere, input ports no edge feeds."""
    for layer in model.duplicates:
        yield Finding(DUPLICATE_ID, f"layer id {layer.id!r} ({layer.name!r}) is used by an earlier layer too",
                      layer.line, layer.ref)
    for e, problem, subject in model.link().dangling:
        if isinstance(subject, str):
            yield Finding(DANGLING_EDGE, f"edge {e} names layer {subject!r}, which does not exist", e.line)
        else:
            port = e.from_port if problem == "output" else e.to_port
            yield Finding(DANGLING_EDGE, f"edge {e}: layer {subject.name!r} has no {problem} port {port!r}",
                          e.line, subject.ref)
    broken = model.link().broken  # input ports whose edge is dangling: IR021 already
    for layer in model.layers.values():
        for port in layer.inputs:
            if port.source is None and (layer.id, port.id) not in broken:
                yield Finding(UNCONNECTED, f"{layer.type} {layer.name!r} (id {layer.id}): input port {port.id} has no "
                              "incoming edge; OpenVINO refuses the model (\"Argument has 0 outputs\")", port.line,
                              layer.ref)


def shape_cycles(cyclic: set[str], reshapes: Iterable[Layer]) -> Iterator[Finding]:
    """IR024 for each of ``reshapes`` whose shape input (port index 1) comes from a layer in ``cyclic``
    (the layers on a cycle or fed by one): its pattern can never be computed."""
    for layer in reshapes:
        if len(layer.inputs) < 2:
            continue
        src = layer.inputs[1].producer
        if src is not None and src[0].id in cyclic:
            yield Finding(CYCLE, f"{layer.type} {layer.name!r} (id {layer.id}): its shape input comes from "
                          f"{src[0].type} {src[0].name!r} (id {src[0].id}), which is on a cycle or fed by one",
                          layer.line, layer.ref)

