"""The structure of an IR graph: duplicate ids, edges that point nowhere, unconnected inputs, cycles."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.findings import Finding
from ..core.order import cycles
from ..frontends.openvino.model import IRModel
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


def graph_cycles(model: IRModel, cyclic: list[str]) -> Iterator[Finding]:
    """IR024 once per cycle among ``cyclic`` (the layers on a cycle or fed by one): OpenVINO cannot order such a
    graph and refuses the file ("Attempt to access node ... that not in graph"). The finding goes on the layer
    whose input closes the cycle: the first one, in file order, fed by a layer of the cycle that does not come
    before it in the file (an edge the way OpenVINO never writes one); the layers fed by the cycle are not blamed."""
    layers = model.layers
    edges = [(e.from_layer, e.to_layer) for e in model.edges]
    pos = {lid: i for i, lid in enumerate(layers)}
    for comp in cycles(cyclic, edges):
        members = set(comp)
        layer, port, src = next(((layers[lid], p, p.producer[0]) for lid in comp for p in layers[lid].inputs
                                 if p.producer is not None and p.producer[0].id in members
                                 and pos[p.producer[0].id] >= pos[lid]), (layers[comp[0]], None, None))
        where = "" if port is None else (f": input port {port.id} comes from {src.type} {src.name!r} (id {src.id}), "
                                         "which depends on this layer's output")
        yield Finding(CYCLE, f"{layer.type} {layer.name!r} (id {layer.id}){where}: the graph has a cycle through "
                      f"{len(comp)} layer{'s' if len(comp) > 1 else ''}; OpenVINO cannot order it and refuses the "
                      "file (\"Attempt to access node ... that not in graph\")",
                      layer.line if port is None else port.line, layer.ref)
