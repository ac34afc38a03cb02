"""The bodies of TensorIterator, Loop and If layers, checked with the same rules as the main graph.

A body is read as OpenVINO reads it: its Parameters take the shapes the outer layer derives from its own
inputs (the port map: sliced, invariant, merged; the other Parameters keep their declared shapes), so the
reading of a body is the one the outer layer's shape function ran last in the outer reading
(:class:`~.subgraphs.Subgraph`, kept in ``Graph.bodies``): for a Loop, after its back edges settled; for an
If whose condition is a constant, the other branch as declared, as OpenVINO leaves it. In that reading the
body's structure, its Reshape family and every other layer are checked as in the main graph
(:func:`~.graphcheck.check_graph_layers`), and its control-flow layers' bodies in turn. Verdicts and findings name
the body layers by their path ids (``"7/3"``, ``"7/then/3"``).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.results import FileResult, Options
from ..frontends.openvino.model import Body, IRModel
from ..shapes.registry import Undecided
from . import failed
from .graph import Graph
from .graphcheck import check_graph_layers


def check_bodies(model: IRModel, graph: Graph, options: Options | None, result: FileResult) -> None:
    """Check the bodies of every control-flow layer of ``model`` in ``graph`` (its whole-graph reading), and
    theirs: the verdicts go to ``result.layers`` (or ``result.flagged``, as ``options.layers`` says), the
    findings to ``result.findings``."""
    for layer in model.layers.values():
        for body, inner in readings(layer, graph):
            try:
                check_graph_layers(body.model, inner, options, result)
            except Exception as e:
                failed(result, options, e, layer)
                continue
            check_bodies(body.model, inner, options, result)


def readings(layer, graph: Graph) -> Iterator[tuple[Body, Graph]]:
    """Each body of a control-flow ``layer`` and its reading in ``graph`` (the one its outer layer's inference ran
    last; else its Parameters as declared); a body nested too deep to be inferred is left out."""
    if not layer.bodies:
        return
    views = {id(v.body): v for v in graph.bodies.get(id(layer), ())}
    for body in layer.bodies:
        try:
            view = views.get(id(body))
            inner = view.graph if view is not None else _declared(body, graph)
        except Undecided:
            continue  # nested too deep: not inferred, not checked
        yield body, inner


def _declared(body: Body, outer: Graph) -> Graph:
    """The reading of a body its outer layer's inference never ran: its Parameters as declared."""
    graph = Graph(body.model, outer.weights, scenario=outer.scenario)
    graph.nested = True
    return graph
