"""Every layer against the whole graph as OpenVINO infers it: declared output dims, rejected layers, edges."""

from __future__ import annotations

from collections.abc import Callable

from ..core.dims import Agreement, Shape, format_shape
from ..core.findings import Finding
from ..core.results import LayerResult, PortResult, Status
from ..core.text import fmt_list
from ..core import etypes
from ..frontends.openvino.model import Layer, Port
from ..rules.layers import (DYNAMIC_DECLARED, EDGE_MISMATCH, INCONSISTENT, NOT_INFERRED, OUTPUT_MISMATCH,
                            PRECISION_MISMATCH, RANK_MISMATCH, REJECTED, UNPROVEN)
from ..shapes.versions import resolve
from .graph import READ, Graph, describe
from .reshape import FAMILY, KINDS, consumer_lies, disagreement

_RANK = {s: i for i, s in enumerate((Status.OK, Status.TRUSTED, Status.UNVERIFIED, Status.MISMATCH, Status.INVALID))}
_PASSED = (Status.OK, Status.TRUSTED)
_ONEDNN = frozenset(KINDS) - {"reshape"}  # StaticReshape, DynamicReshape
_BLAMED = (Status.MISMATCH, Status.INVALID)
# a layer checked: its verdict (None where it need not be kept), findings, the ports it is blamed for, spared
Judged = tuple[LayerResult | None, list[Finding], list[Port], bool]
# which declared dims each rule reports, and how its message ends
_ANSWERS = ((frozenset({Agreement.CONTRADICTS}), OUTPUT_MISMATCH, "differs"),
            (frozenset({Agreement.UNPROVEN}), UNPROVEN, "is dynamic, not the static value declared"),
            (frozenset({Agreement.LOOSE}), DYNAMIC_DECLARED, "is static"))


class LayerChecks:
    """The verdicts and findings of every layer but the Reshape family's (their own rules judge them), one layer
    at a time in the graph's order (:func:`~.graphcheck.check_graph_layers`). Without ``every``, only the
    verdicts of the layers that are not ``ok`` or ``trusted`` (what ``--fix`` and the report need): a deep model
    has tens of thousands of layers."""

    def __init__(self, graph: Graph, every: bool = True) -> None:
        self.every = every
        # OpenVINO's refusals of input types, and the layers with a lying precision (for --fix): types do not change
        # with a scenario's shapes, so a scenario has neither
        self.rejected = graph.type_errors if not graph.scenario else {}
        # (type, version) -> the IR reader's refusal of the pair, for the pairs it refuses (None: none is); nor do
        # versions change with a scenario
        self.versions: dict[tuple[str, str], str] | None = None
        if not graph.scenario:
            # oneDNN's StaticReshape and DynamicReshape as IR layers: read by oneDNN's rules, in no opset
            pairs = {(layer.type, layer.version) for layer in graph.model.layers.values()
                     if layer.kind not in _ONEDNN}
            self.versions = {p: why for p in pairs if isinstance(why := resolve(*p), str)} or None
        self.retyped = {id(p.layer) for p in graph.retyped} if not graph.scenario else set()
        self.trusted: dict[str, Layer] = {}
        self.verdicts: dict[tuple[int, int], tuple] = {}
        self.consts: set[tuple] = set()  # Consts of one <data>, dims tuple and version found ok: the same verdict

    def check(self, layer: Layer, graph: Graph, second: Callable[[], Graph | None],
              excused: Callable[[], bool] = lambda: True) -> Judged | None:
        """One layer in ``graph``, OpenVINO's reading: its verdict (None where it need not be kept), its findings,
        and the output ports it is blamed for. A layer that fails there and passes in the ``second`` reading
        (where the layers blamed before keep their declared dims) is spared: its findings are that reading's, its
        verdict OpenVINO's; one that OpenVINO rejects only where ``excused()`` (a layer blamed upstream of it has
        an error). None for a Const like one found ok."""
        # a Const (half of a deep model's layers) like one found ok (one <data>, dims and version: one refusal of
        # its version too): the same verdict, but for its own precision and type errors
        same = None
        if layer.kind == "const" and not self.every and len(layer.outputs) == 1:
            same = (id(layer.data), id(layer.outputs[0].dims), layer.version)
            if same in self.consts and id(layer) not in self.rejected and id(layer) not in self.retyped:
                return None
        status, found, lying, edges = _judge(layer, graph, self.verdicts, self.trusted)
        spared = False
        # a layer that fails may repeat a lie upstream (the blame reading spares it); OpenVINO's refusal of it
        # (invalid) only where that lie is an error (``excused``): a -1 declared for a static dim, a warning, excuses
        # no refusal
        if (status is Status.MISMATCH or (status is Status.INVALID and excused())) and (alt := second()) is not None:
            status2, found2, _, _ = _judge(layer, alt, self.verdicts, {})
            if status2 not in _BLAMED:  # (its input edges, judged against the lying dims upstream, are not fixed)
                found, lying, spared, edges = found2, [], True, []
        refusal = self.refusal(layer)
        if refusal is not None and status is not Status.INVALID:
            status = Status.INVALID
            found, spared, edges = [refusal], False, []
        if same is not None and status is Status.OK:
            self.consts.add(same)
        verdict = _verdict_on(layer, status, graph, edges) \
            if self.every or status not in _PASSED or id(layer) in self.retyped or edges else None
        return verdict, found, lying, spared

    def refusal(self, layer: Layer) -> Finding | None:
        """OpenVINO's refusal of the layer's type and version (a Parameter's, a Result's and a Reshape's too, which
        no shape function reads) or of its input element types (IR303), None where it takes them."""
        why = self.rejected.get(id(layer))
        if why is None and self.versions is not None:
            why = self.versions.get((layer.type, layer.version))
        return None if why is None else Finding(REJECTED, f"{describe(layer)}: OpenVINO rejects it: {why}",
                                                layer.line, layer.ref)

    def infos(self) -> list[Finding]:
        """IR309 once per op type without shape inference, on its first layer in the file."""
        return [Finding(NOT_INFERRED, f"{layer.type} (first: {layer.name!r}, id {layer.id}): no shape "
                        "inference for this op type in irreshape; its layers' declared dims are trusted",
                        layer.line, layer.ref) for layer in self.trusted.values()]


def _judge(layer: Layer, graph: Graph, verdicts: dict,
           trusted: dict[str, Layer]) -> tuple[Status, list[Finding], list[Port], list]:
    """A layer's status (its worst output port's), findings, the output ports whose declared dims lie and the input
    ports whose dims lie (see _edges), in one reading of the graph."""
    status = Status.OK
    findings: list[Finding] = []
    lying: list[Port] = []
    for port in layer.outputs:
        shape, origin = graph.shape(port), graph.origin(port)
        if origin in READ:
            found = _compare(layer, port, shape, verdicts)
            if found:
                findings.append(found)
                lying.append(port)
                status = _worse(status, Status.MISMATCH)
        elif origin == "taken":  # inferred from dims taken from the XML: agreeing with them proves nothing more
            if _compare(layer, port, shape, verdicts):
                status = _worse(status, Status.UNVERIFIED)
                findings += _inconsistent(layer, port, graph, verdicts)
        elif origin == "trusted":
            if layer.type not in trusted or layer.line < trusted[layer.type].line:
                trusted[layer.type] = layer
            status = _worse(status, Status.TRUSTED)
        elif origin == "undecided":
            status = _worse(status, Status.UNVERIFIED)
            if any(graph.rests_on_taken(p) for p in layer.inputs):  # it may reject the taken dims
                findings += _inconsistent(layer, port, graph, verdicts)
        elif status is not Status.INVALID:
            status = Status.INVALID
            findings.append(Finding(REJECTED, f"{describe(layer)}: OpenVINO rejects it: {origin}", layer.line,
                                    layer.ref))
    edges: list = []
    if status is Status.INVALID:
        lying = list(layer.outputs)
    elif layer.inputs:
        edges = _edges(layer, graph)
        findings += [f for f, _ in edges if f is not None]
    return status, findings, lying, [e for _, e in edges]


def _inconsistent(layer: Layer, port: Port, graph: Graph, verdicts: dict) -> list[Finding]:
    """IR308 on a port whose shape rests on dims taken from the XML, where the op on its inputs' declared dims
    contradicts (or rejects) the port's declared dims: the file's declared dims contradict each other, whatever
    OpenVINO infers behind them. Where the port agrees with its inputs' declared dims, the contradiction is
    upstream (its own finding): nothing. Not in a scenario (the declared dims are the exported model's)."""
    if graph.scenario:
        return []
    local = graph.from_declared(port)
    if local is None:
        return []
    if isinstance(local, str):
        what = f"from its inputs' declared dims the op rejects it ({local})"
    else:
        found = _compare(layer, port, local, verdicts)
        if found is None or found.rule not in (OUTPUT_MISMATCH, RANK_MISMATCH):
            return []
        what = (f"output port {port.id} declares {fmt_list(port.dims or ())}, but its inputs' declared dims give "
                f"{format_shape(local)}")
    roots = graph.taken_roots(layer)
    named = ", ".join(f"{describe(r.layer)} port {r.id} ({_WHY.get(graph.origin(r), graph.origin(r))})"  # type: ignore
                      for r in roots[:3]) + (f" and {len(roots) - 3} more" if len(roots) > 3 else "")
    return [Finding(INCONSISTENT, f"{describe(layer)}: {what}; the declared dims contradict each other here, and "
                    f"those behind it are not verified: {named or 'its inputs'}; one of them, or this layer, lies",
                    port.line, layer.ref)]


_WHY = {"trusted": "no shape inference in irreshape", "undecided": "irreshape cannot tell what OpenVINO infers"}


def _worse(a: Status, b: Status) -> Status:
    """A layer's status is its worst port's."""
    return a if _RANK[a] >= _RANK[b] else b


def _verdict_on(layer: Layer, status: Status, graph: Graph, edges: list = ()) -> LayerResult:
    """A layer's verdict with every output port's declared and expected dims and types (the first port's dims at
    the top), OpenVINO's, and its input ports' dims that lie (``edges``, see _edges)."""
    outputs = [PortResult(port.id, None if port.dims is None else list(port.dims), graph.shape(port),
                          graph.origin(port) in READ, port.precision, expected_type(graph, port),
                          not graph.scenario and graph.precision_lies(port))
               for port in layer.outputs]
    res = LayerResult(layer, declared_status(status, outputs, edges), None, outputs=outputs, edges=tuple(edges))
    if outputs:
        res.declared, res.expected, res.expected_known = outputs[0].declared, outputs[0].expected, \
            outputs[0].expected_known
    return res


def declared_status(status: Status, outputs: list[PortResult], edges: list | tuple = ()) -> Status:
    """A layer's status once its output ports' precisions and its input ports' dims are judged: one whose output
    dims are OpenVINO's but whose declared precision (an IR307) or input port's dims (an IR306) lie is
    ``mismatch``, not ``ok``; any other status already says more."""
    return Status.MISMATCH if status is Status.OK and (edges or any(pr.retyped for pr in outputs)) else status


def _compare(layer: Layer, port: Port, shape: Shape, verdicts: dict) -> Finding | None:
    """The finding on an output port whose declared dims are not OpenVINO's, if any. ``verdicts`` memoises
    (rule, bad dims) by the identities of the declared dims tuple and the inferred shape, both shared."""
    declared = port.dims
    if declared is None or shape is None:
        return None
    key = (id(declared), id(shape))
    verdict = verdicts.get(key)
    if verdict is None:
        verdict = verdicts[key] = _verdict(declared, shape)
    rule, what = verdict
    if rule is None:
        return None
    where = (f"{describe(layer)}: output port {port.id} declares {fmt_list(declared)}, "
             f"OpenVINO infers {format_shape(shape)}")
    return Finding(rule, f"{where}{what}", port.line, layer.ref)


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


def _edges(layer: Layer, graph: Graph) -> list[tuple[Finding | None, tuple[str, tuple[int, ...]]]]:
    """Each input port holds what its producer's output carries (as inferred), or repeats the producer's
    declared dims (a lying producer has its own finding): the IR306 of each that does neither, with (the port's
    id, the dims it should declare). An edge out of a Reshape-family layer is judged by the Reshape rules
    (:func:`~.reshape.consumer_lies`): its IR107 is that layer's finding, so the pair comes without one (None);
    an edge into a Reshape-family layer is its own check's (IR106)."""
    found: list[tuple[Finding | None, tuple[str, tuple[int, ...]]]] = []
    for port in layer.inputs:
        src = port.source
        # an input repeating its producer's dims (most are one tuple, the parser shares them) is no news
        if src is None or port.dims is src.dims or port.dims is None or src.dims is None or port.dims == src.dims:
            continue
        if graph.origin(src) not in READ:
            continue
        shape = graph.shape(src)
        carried = None if shape is None else tuple(d.to_ir() for d in shape)
        if carried is None or tuple(port.dims) == carried:
            continue
        producer = src.layer
        if producer.kind in FAMILY:  # type: ignore[union-attr]
            if consumer_lies(port.dims, list(src.dims), shape):
                found.append((None, (port.id, carried)))
            continue
        found.append((Finding(EDGE_MISMATCH, f"{describe(layer)}: input port {port.id} declares "
                              f"{fmt_list(port.dims)}, but {producer.type} {producer.name!r} (id {producer.id}) port "
                              f"{src.id} carries {format_shape(shape)} (and declares {fmt_list(src.dims)})",
                              port.line, layer.ref), (port.id, carried)))
    return found


def expected_type(graph: Graph, port: Port) -> str | None:
    """The precision OpenVINO's serializer would write on an output port; None where irreshape cannot tell."""
    if not graph.etype_known(port):
        return None
    t = graph.etype(port)
    return None if t is None else etypes.precision(t)


def check_precisions(graph: Graph) -> list[Finding]:
    """The ports whose ``precision`` is not the inferred element type: an output port against its layer's type,
    an input port against its producer's (one that repeats the producer's declared precision is covered by the
    producer's finding). Nothing in a scenario: types do not change with shapes."""
    if graph.scenario:
        return []
    found = []
    for port in graph.retyped:
        layer = port.layer
        if port.precision is None or layer is None:
            continue
        found.append(Finding(PRECISION_MISMATCH, f"{describe(layer)}: output port {port.id} declares precision "
                             f"{port.precision!r}, OpenVINO infers {graph.etype(port)} "
                             f"({etypes.precision(graph.etype(port))})", port.line, layer.ref))  # type: ignore[arg-type]
    for layer, port in graph.input_lies:
        src = port.source
        t = graph.etype(src)  # type: ignore[arg-type]
        producer = src.layer  # type: ignore[union-attr]
        found.append(Finding(PRECISION_MISMATCH, f"{describe(layer)}: input port {port.id} declares precision "
                             f"{port.precision!r}, but {producer.type} {producer.name!r} (id {producer.id}) port "
                             f"{src.id} carries {t} (and declares {src.precision!r})", port.line, layer.ref))
    return found
