"""Every layer against the whole graph as OpenVINO infers it: declared output dims, rejected layers, edges."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.dims import Agreement, Shape, format_shape
from ..core.findings import Finding
from ..core.results import LayerResult, PortResult, Status
from ..core.text import fmt_list
from ..frontends.openvino.model import IRModel, Layer, Port
from ..rules.layers import (DYNAMIC_DECLARED, EDGE_MISMATCH, NOT_INFERRED, OUTPUT_MISMATCH, RANK_MISMATCH, REJECTED,
                            UNPROVEN)
from .graph import Graph, describe
from .reshape import FAMILY, disagreement

_READ = ("inferred", "declared")
_WORST = (Status.INVALID, Status.MISMATCH, Status.UNVERIFIED, Status.TRUSTED)  # a layer's status: its worst port's  # origins whose shape is OpenVINO's: compared with what the XML declares
# which declared dims each rule reports, and how its message ends
_ANSWERS = ((frozenset({Agreement.CONTRADICTS}), OUTPUT_MISMATCH, "differs"),
            (frozenset({Agreement.UNPROVEN}), UNPROVEN, "is dynamic, not the static value declared"),
            (frozenset({Agreement.LOOSE}), DYNAMIC_DECLARED, "is static"))


def check_layers(model: IRModel, graph: Graph) -> tuple[list[LayerResult], list[Finding]]:
    """The verdicts and findings of every layer but the Reshape family's (their own rules judge them), from
    ``graph``, a whole-graph reading (``trust_declared=False``)."""
    results: list[LayerResult] = []
    findings: list[Finding] = []
    trusted: dict[str, Layer] = {}
    verdicts: dict[tuple[int, int], tuple] = {}
    for layer in model.layers.values():
        if layer.kind in FAMILY:
            continue
        res = LayerResult(layer, Status.OK, None, outputs=[])
        statuses = set()
        for port in layer.outputs:
            shape, origin = graph.shape(port), graph.origin.get(id(port), "")
            known = origin in _READ
            res.outputs.append(PortResult(port.id, None if port.dims is None else list(port.dims), shape, known))  # type: ignore[union-attr]
            if origin == "trusted":
                trusted.setdefault(layer.type, layer)
                statuses.add(Status.TRUSTED)
            elif known:
                found = _compare(layer, port, shape, verdicts)
                findings += found
                statuses.add(Status.MISMATCH if found else Status.OK)
            elif origin == "undecided":
                statuses.add(Status.UNVERIFIED)
            elif Status.INVALID not in statuses:
                statuses.add(Status.INVALID)
                findings.append(Finding(REJECTED, f"{describe(layer)}: OpenVINO rejects it: {origin}", layer.line,
                                        layer.ref))
        if Status.INVALID not in statuses:
            findings += _edges(layer, graph)
        res.status = next((s for s in _WORST if s in statuses), Status.OK)
        if res.outputs:
            first = res.outputs[0]
            res.declared, res.expected, res.expected_known = first.declared, first.expected, first.expected_known
        results.append(res)
    for layer in trusted.values():
        findings.append(Finding(NOT_INFERRED, f"{layer.type} (first: {layer.name!r}, id {layer.id}): no shape "
                                "inference for this op type in irreshape; its layers' declared dims are trusted",
                                layer.line, layer.ref))
    return results, findings


def _compare(layer: Layer, port: Port, shape: Shape, verdicts: dict) -> list[Finding]:
    """The finding on an output port whose declared dims are not OpenVINO's, if any. ``verdicts`` memoises
    (rule, bad dims) by the identities of the declared dims tuple and the inferred shape, both shared."""
    declared = port.dims
    if declared is None or shape is None:
        return []
    key = (id(declared), id(shape))
    verdict = verdicts.get(key)
    if verdict is None:
        verdict = verdicts[key] = _verdict(declared, shape)
    rule, what = verdict
    if rule is None:
        return []
    where = (f"{describe(layer)}: output port {port.id} declares {fmt_list(declared)}, "
             f"OpenVINO infers {format_shape(shape)}")
    return [Finding(rule, f"{where}{what}", port.line, layer.ref)]


def _verdict(declared: tuple[int, ...], shape: list) -> tuple:
    """(rule, how the message ends) for a port's declared dims against the inferred ones; (None, "") when they
    agree."""
    if len(declared) != len(shape):
        return RANK_MISMATCH, f" (rank {len(declared)}, not {len(shape)})"
    answer = disagreement(declared, shape, _ANSWERS)
    if answer is None:
        return None, ""
    rule, what, bad = answer
    return rule, f": dim {', '.join(map(str, bad))} {what}"


def _edges(layer: Layer, graph: Graph) -> Iterator[Finding]:
    """Each input port holds what its producer's output carries (as inferred), or repeats the producer's
    declared dims (a lying producer has its own finding). Edges into a Reshape's data input and out of a
    Reshape are judged by the Reshape rules (IR106, IR107)."""
    for port in layer.inputs:
        src = port.source
        if src is None or port.dims is None or src.dims is None or src.layer.kind in FAMILY:  # type: ignore[union-attr]
            continue
        if graph.origin.get(id(src)) not in _READ or tuple(port.dims) == tuple(src.dims):
            continue
        shape = graph.shape(src)
        carried = None if shape is None else tuple(d.to_ir() for d in shape)
        if carried is None or tuple(port.dims) == carried:
            continue
        producer = src.layer
        yield Finding(EDGE_MISMATCH, f"{describe(layer)}: input port {port.id} declares {fmt_list(port.dims)}, but "
                      f"{producer.type} {producer.name!r} (id {producer.id}) port {src.id} carries "
                      f"{format_shape(shape)} (and declares {fmt_list(src.dims)})", port.line, layer.ref)
