"""The bodies of a TensorIterator, Loop or If as their op's shape function sees them.

The shape functions of :mod:`irreshape.shapes.ops.control` hold OpenVINO's semantics (which Parameter takes
which dims, how the Results make the outer outputs) and ask each body, a :class:`Subgraph`, to infer itself:
a :class:`~.graph.Graph` of the body whose Parameters take the shapes given (the others their declared
ones), with the outer graph's weights. The outer graph keeps the Subgraphs of each layer's last
inference (``Graph.bodies``): :mod:`.bodies` checks the body layers in them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.dims import Shape
from ..shapes.registry import Undecided
from ..shapes.values import Tensor

if TYPE_CHECKING:
    from ..frontends.openvino.model import Body, Layer
    from .graph import Graph

# every origin of a port but OpenVINO's message where it rejects the layer (Graph.origin)
_READ = frozenset(("inferred", "declared", "trusted", "undecided", "taken"))
MAX_NESTING = 16  # bodies within bodies: deeper, irreshape does not infer them


def subgraphs(graph: "Graph", layer: "Layer") -> list["Subgraph"]:
    """The bodies of ``layer``, fresh, for one inference of its op in ``graph`` (recorded there)."""
    views = graph.bodies[id(layer)] = [Subgraph(graph, body) for body in layer.bodies]
    return views


class Subgraph:
    """One body of a control-flow layer, inferred on request (what a control-flow shape function needs)."""

    def __init__(self, outer: "Graph", body: "Body") -> None:
        self.outer, self.body = outer, body
        self.name = body.name
        self.inputs, self.outputs, self.back_edges = body.inputs, body.outputs, body.back_edges
        self.layers = body.model.layers
        self.kinds = frozenset(la.kind for la in self.layers.values())
        self.shapes: dict[str, Shape] | None = None  # the Parameters' shapes of the last run; None: as declared
        # how many bodies this one is nested in, itself included (an If's branch adds "then/" or "else/")
        self.depth = sum(step not in ("then", "else") for step in body.prefix.split("/")[:-1])
        self._graph: "Graph | None" = None

    @property
    def graph(self) -> "Graph":
        """The body's reading: from the shapes of the last :meth:`run`, or, before any, as declared. A body read
        with the same Parameter shapes before (a Loop's in a Loop whose back edges settle over several rounds)
        is that reading again: the readings of nested bodies, memoised by content in the outermost graph's
        ``runs``, stay few however deep the nesting."""
        if self._graph is None:
            if self.depth > MAX_NESTING:
                raise Undecided(f"bodies nested more than {MAX_NESTING} deep")
            shapes = self.shapes or {}
            key = (id(self.body), self.shapes is None,
                   *sorted((k, None if v is None else tuple((d.lo, d.hi) for d in v)) for k, v in shapes.items()))
            runs = self.outer.runs
            graph = runs.get(key)
            if graph is None:
                graph = runs[key] = type(self.outer)(self.body.model, self.outer.weights, inputs=self.shapes,
                                                     scenario=self.outer.scenario)  # a scenario's body is one too
                graph.runs, graph.nested = runs, True
            self._graph = graph
        return self._graph

    def run(self, shapes: dict[str, Shape]) -> None:
        """Infer the body anew, the Parameters named in ``shapes`` taking those shapes."""
        self.shapes = dict(shapes)
        self._graph = None

    def rejects(self) -> bool:
        """Whether OpenVINO rejects a layer of the body as last run: its ``validate_nodes_and_infer_types`` then
        throws, and the control-flow op's inference ends there (a Loop's back edges are not reconciled)."""
        graph = self.graph
        for layer in self.layers.values():
            for port in layer.outputs:
                graph.shape(port)
                if graph.origin(port) not in _READ:
                    return True
        return False

    def result_type(self, layer_id: str, params: dict[str, str]) -> str | None:
        """The element type arriving at a body Result, its Parameters of ``params`` (by id) taking those types
        (``set_element_type``) and the others their own; None where irreshape cannot tell."""
        graph = self.graph
        if graph.param_types != params or graph._types is None:
            graph.param_types = dict(params)
            graph.infer_types()
        src = self._result_input(layer_id)[1].source
        if src is None or not graph.etype_known(src):
            return None
        return graph.etype(src)

    def kind(self, layer_id: str) -> str | None:
        layer = self.layers.get(layer_id)
        return None if layer is None else layer.kind

    def _result_input(self, layer_id: str):
        layer = self.layers.get(layer_id)
        if layer is None or not layer.inputs:
            raise Undecided(f"body layer {layer_id!r} has no input")
        return layer, layer.inputs[0]

    def result(self, layer_id: str) -> Shape:
        """The shape arriving at a body Result."""
        return self.graph.input_shape(self._result_input(layer_id)[1])

    def parameter(self, layer_id: str) -> Shape:
        """A body Parameter's shape in the last inference."""
        layer = self.layers.get(layer_id)
        if layer is None or not layer.outputs:
            raise Undecided(f"body layer {layer_id!r} has no output")
        return self.graph.shape(layer.outputs[0])

    def constant(self, layer_id: str) -> list[int] | None:
        """The values arriving at a body Result when OpenVINO knows them exactly; None when it does not."""
        t = self.graph.input_tensor(self._result_input(layer_id)[0], 0)
        if isinstance(t, Undecided) or t is Undecided:
            raise Undecided(str(t))
        if not isinstance(t, Tensor) or not t.is_const:
            return None
        return [int(v) for v in t.lo]

    def feeder(self, layer_id: str) -> str | None:
        """The id of the body Parameter feeding a Result directly, if one does."""
        src = self._result_input(layer_id)[1].source
        return src.layer.id if src is not None and src.layer.kind == "parameter" else None  # type: ignore[union-attr]
