"""The bodies of TensorIterator, Loop and If layers, checked with the same rules as the main graph.

A body is read as OpenVINO reads it: its Parameters take the shapes the outer layer derives from its own
inputs (the port map: sliced, invariant, merged; the other Parameters keep their declared shapes), so the
reading of a body is the one the outer layer's shape function ran last in the outer reading
(:class:`~.subgraphs.Subgraph`, kept in ``Graph.bodies``): for a Loop, after its back edges settled; for an
If whose condition is a constant, the other branch as declared, as OpenVINO leaves it. In that reading the
body's structure, its Reshape family and every other layer are checked as in the main graph
(:func:`~.openvino.check_model`), and its control-flow layers' bodies in turn. Verdicts and findings name
the body layers by their path ids (``"7/3"``, ``"7/then/3"``).
"""

from __future__ import annotations

from ..core.dims import Dim, Shape
from ..core.order import topological
from ..core.results import FileResult, LayerResult, Options, PortResult, Status
from ..frontends.openvino.model import Body, IRModel, Layer, Port
from ..rules.structure import CYCLE
from ..shapes.registry import Undecided
from . import internal_error
from .graph import Graph
from .layers import check_layers
from .reshape import KINDS, VIEWS, check_layer, check_view
from .structure import check_graph, shape_cycles

_LIES = (Status.MISMATCH, Status.INVALID)


def check_bodies(model: IRModel, graph: Graph, options: Options | None, result: FileResult) -> None:
    """Check the bodies of every control-flow layer of ``model`` in ``graph`` (its whole-graph reading), and
    theirs: the verdicts go to ``result.layers`` (or ``result.flagged``, as ``options.layers`` says), the
    findings to ``result.findings``."""
    for layer in model.layers.values():
        if not layer.bodies:
            continue
        views = {id(v.body): v for v in graph.bodies.get(id(layer), ())}
        for body in layer.bodies:
            try:
                view = views.get(id(body))
                inner = view.graph if view is not None else _declared(body, graph)
            except Undecided:
                continue  # nested too deep: not inferred, not checked
            try:
                _check_body(body, inner, options, result)
            except Exception as e:
                if options is not None and options.debug:
                    raise
                result.findings.append(internal_error(model.path, e, layer))
                result.internal_error = True
                continue
            check_bodies(body.model, inner, options, result)


def _declared(body: Body, outer: Graph) -> Graph:
    """The reading of a body its outer layer's inference never ran: its Parameters as declared."""
    graph = Graph(body.model, outer.weights)
    graph.scenario = outer.scenario
    return graph


class _Second:
    """The second reading of a body (as ``check_model``'s): the Reshapes that lie keep their declared dims."""

    def __init__(self, model: IRModel, graph: Graph) -> None:
        self.model, self.graph = model, graph
        self.honest: list[tuple[Port, Shape]] = []
        self.lies: list[tuple[Port, Shape]] = []
        self.alt: Graph | None = None

    def __call__(self) -> Graph | None:
        if self.alt is None and self.lies and not self.graph.scenario:  # a scenario has no second reading
            self.alt = Graph(self.model, self.graph.weights, inputs=self.graph.inputs)
            self.alt.scenario = False
            for key in self.honest + self.lies:
                self.alt.set_shape(*key)
        return self.alt

    def record(self, layer: Layer, verdict: LayerResult) -> None:
        if verdict.expected_known and layer.outputs:
            out = (layer.outputs[0], verdict.expected)
            self.graph.set_shape(*out)
            if verdict.status is Status.OK:
                self.honest.append(out)
                if self.alt is not None:
                    self.alt.set_shape(*out)
        if verdict.status in _LIES and layer.outputs and layer.outputs[0].dims is not None:
            lie = (layer.outputs[0], [Dim.of(d) for d in layer.outputs[0].dims])
            self.lies.append(lie)
            if self.alt is not None:
                self.alt.set_shape(*lie)


def _check_body(body: Body, graph: Graph, options: Options | None, result: FileResult) -> None:
    """The structure, the Reshape family and every other layer of one body, as ``check_model`` checks the main
    graph's (at a scenario's shapes, ``graph.scenario``, as it checks them there: no second reading, no
    verdicts kept for --fix)."""
    model = body.model
    every = options is not None and options.layers == "all"
    result.findings.extend(check_graph(model))
    if model.link().ordered:
        ordered, cyclic = list(model.layers), []
    else:
        ordered, cyclic = topological(list(model.layers), ((e.from_layer, e.to_layer) for e in model.edges))
    second = _Second(model, graph)
    family: list[LayerResult] = []
    for lid in ordered + cyclic:
        layer = model.layers[lid]
        check = check_layer if layer.kind in KINDS else check_view if layer.kind in VIEWS else None
        if check is None:
            continue
        verdict, findings = check(layer, graph)
        alt = second() if verdict.status in _LIES else None
        if alt is not None:
            again, again_findings = check(layer, alt)
            if again.status is Status.OK:
                verdict, findings = again, again_findings
        second.record(layer, verdict)
        family.append(verdict)
        result.findings.extend(findings)
    if every:
        for verdict in family:
            port = verdict.layer.outputs[0] if verdict.layer.outputs else None
            verdict.outputs = [] if port is None else [PortResult(port.id, verdict.declared, verdict.expected,
                                                                  verdict.expected_known)]
    result.layers += family
    others, found = check_layers(model, graph, every, second)
    if every:
        result.layers += others
    elif not graph.scenario:
        result.flagged += others
    result.findings += found
    if cyclic:
        reported = {f.layer.id for f in result.findings if f.rule is CYCLE and f.layer is not None}
        reshapes = [model.layers[lid] for lid in cyclic
                    if model.layers[lid].kind in KINDS and model.layers[lid].kind != "staticreshape"]
        result.findings.extend(shape_cycles(set(cyclic), [r for r in reshapes if r.id not in reported]))

