"""Tensor shapes and integer tensor values in one IR graph, memoised per file.

``Graph.shape`` gives the dims of an output port: a Parameter's ``shape`` attribute (it keeps
intervals), the result the checker computed for a Reshape-family layer, else the declared
``<dim>``s. Every dynamic dim carries a symbol naming its tensor and axis, so a ``ShapeOf`` of the
tensor being reshaped cancels against it.

``Graph.value`` gives the value bounds of a 1-D integer tensor that feeds a Reshape's shape input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from .dims import Dim, Shape, parse_shape
from .engine.reshape import Bound, pattern_from_values
from .ir import IRModel, Layer, Port
from .rules.base import Finding
from .weights import ConstError, Weights, read_int_const


@dataclass(slots=True)
class Unknown:
    """Why a value could not be evaluated; ``finding`` when that reason is itself a problem."""

    reason: str
    layer: Optional[Layer] = None
    finding: Optional[Finding] = None


@dataclass(slots=True)
class Value:
    """A 1-D integer tensor: one bound per element, and where it came from (for `explain`)."""

    bounds: list[Bound]
    element_type: str
    shape: tuple[int, ...]
    origin: str


Evaluated = Union[Value, Unknown]


class Graph:
    def __init__(self, model: IRModel, weights: Optional[Weights] = None) -> None:
        self.model = model
        self.weights = weights if weights is not None else Weights(model.bin_path)
        self._shapes: dict[tuple[str, str], Shape] = {}
        self._computed: dict[tuple[str, str], Shape] = {}
        self._values: dict[tuple[str, str], Evaluated] = {}

    # -- shapes ----------------------------------------------------------------------------------
    def set_shape(self, layer_id: str, port_id: str, shape: Shape) -> None:
        """Record the shape the checker computed for an output port; it replaces the declared dims."""
        key = (layer_id, port_id)
        self._shapes[key] = self._computed[key] = self._symbolise(key, shape)

    def computed(self, layer_id: str, port_id: str) -> Shape:
        return self._computed.get((layer_id, port_id))

    def shape(self, layer: Layer, port: Port) -> Shape:
        key = (layer.id, port.id)
        if key not in self._shapes:
            self._shapes[key] = self._symbolise(key, self._declared_shape(layer, port))
        return self._shapes[key]

    @staticmethod
    def _symbolise(key: tuple[str, str], shape: Shape) -> Shape:
        if shape is None:
            return None
        return [d if d.is_static or d.sym is not None else Dim(d.lo, d.hi, (key, i)) for i, d in enumerate(shape)]

    def _declared_shape(self, layer: Layer, port: Port) -> Shape:
        if layer.kind == "parameter" and "shape" in layer.data:
            try:
                return parse_shape(layer.data["shape"])
            except ValueError:
                pass
        if port.dims is None:
            return None
        if not port.dims and layer.kind == "parameter":
            return []  # no `shape` attribute and no dims: a scalar
        return [Dim.of(v) for v in port.dims]

    def input_shape(self, layer: Layer, port: Port) -> Shape:
        """The shape arriving at an input port: the producer's, or this port's own dims without an edge."""
        src = self.model.producer(layer.id, port.id)
        if src is not None:
            return self.shape(*src)
        if port.dims is None:
            return None
        return self._symbolise((layer.id, port.id), [Dim.of(v) for v in port.dims])

    # -- values ----------------------------------------------------------------------------------
    def input_value(self, layer: Layer, port: Port) -> Evaluated:
        src = self.model.producer(layer.id, port.id)
        if src is None:
            return Unknown(f"input port {port.id} of {layer.name!r} has no incoming edge")
        return self.value(*src)

    def value(self, layer: Layer, port: Port) -> Evaluated:
        key = (layer.id, port.id)
        v = self._values.get(key)
        if v is None:
            v = self._values[key] = self._evaluate(layer, port)
        return v

    def _evaluate(self, layer: Layer, port: Port) -> Evaluated:
        if layer.type == "Const":
            return self._const(layer)
        return Unknown(f"the shape comes from a {layer.type} layer, which irreshape does not evaluate", layer)

    def _const(self, layer: Layer) -> Evaluated:
        try:
            et, shape, values = read_int_const(layer, self.weights)
        except ConstError as e:
            return Unknown(e.finding.message, layer, e.finding)
        if et not in ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"):
            return Unknown(f"Const {layer.name!r} holds {et}, not an integer type", layer)
        d = layer.data
        origin = f"Const {layer.name!r} (id {layer.id}): {et} at offset {d.get('offset')}, {d.get('size')} bytes"
        return Value(pattern_from_values(values, et), et, shape, origin)
