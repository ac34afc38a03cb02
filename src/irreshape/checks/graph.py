"""Tensor shapes and integer tensor values in one IR graph, memoised per file.

``Graph.shape`` gives the dims of an output port: a Parameter's ``shape`` attribute (it keeps
intervals), the result the checker computed for a Reshape-family layer, else the declared
``<dim>``s, whose dynamic (``-1``) dims are re-inferred through common ops (elementwise, MatMul,
Transpose, (Group)Convolution(BackpropData), pooling, Concat, Gather, Pad, Slice, Reduce*, Broadcast,
Interpolate, ScaledDotProductAttention, Split, (Un)Squeeze; shape functions in :mod:`irreshape.engine.shapes`) the
way OpenVINO re-infers them on reading. Declared static dims always win. Dims carry no symbols: OpenVINO's ``read_model`` attaches none (measured on
openvino 2026.4.1: no dim and no value of a read IR has a symbol), so a ``ShapeOf`` of the tensor
being reshaped does not cancel against it, exactly as in OpenVINO.

``Graph.value`` gives the value bounds of the integer tensor that feeds a Reshape's shape input,
evaluating its subgraph (ShapeOf, Gather, Concat, arithmetic, ...) the way OpenVINO's bound
propagation does (:mod:`irreshape.engine.values`). Evaluation is iterative (no recursion), bounded
in depth, memoised per output port, and detects cycles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core.dims import INF, Dim, Shape, parse_shape
from ..shapes import common as S
from ..shapes import values as V
from ..shapes.reshape import Bound, ReshapeError, pattern_from_values
from ..frontends.openvino.model import _NO_DATA, IRModel, Layer, Port
from ..core.findings import Finding
from ..rules.reshape import INVALID_PATTERN
from ..frontends.openvino.weights import ConstError, Weights, read_int_const

MAX_DEPTH = 256  # layers on one path of a shape subgraph


@dataclass(slots=True)
class Unknown:
    """Why a value could not be evaluated; ``finding`` when that reason is itself a problem."""

    reason: str
    layer: Layer | None = None
    finding: Finding | None = None


@dataclass(slots=True)
class Value:
    """A 1-D integer tensor: one bound per element, and where it came from (for `explain`)."""

    bounds: list[Bound]
    element_type: str
    shape: tuple[int, ...]
    origin: str


Evaluated = Value | Unknown


@dataclass(slots=True)
class _NoBounds:
    """OpenVINO's bound evaluation fails at ``layer``: a Reshape fed from here gets every dim ``?``."""

    reason: str
    layer: Layer


_Result = V.Tensor | _NoBounds | Unknown


_UNSET = object()
_DIMS: dict[int, Dim] = {}  # Dim.of(n) for the values seen: a Dim is never changed once made


def _declared(dims: tuple[int, ...]) -> list[Dim]:
    """``[Dim.of(n) for n in dims]``, sharing the Dim objects."""
    out = []
    for n in dims:
        d = _DIMS.get(n)
        if d is None:
            d = Dim.of(n)
            if len(_DIMS) < 4096:
                _DIMS[n] = d
        out.append(d)
    return out


def _describe(layer: Layer) -> str:
    return f"{layer.type} {layer.name!r} (id {layer.id})"


class Graph:
    def __init__(self, model: IRModel, weights: Weights | None = None) -> None:
        self.model = model
        self.weights = weights if weights is not None else Weights(model.bin_path)
        model.link()  # every input port knows its source
        # memos per output port, keyed by the port's identity (the model keeps every port alive)
        self._shapes: dict[int, Shape] = {}
        self._computed: dict[int, Shape] = {}
        self._results: dict[int, _Result] = {}
        self._values: dict[int, Evaluated] = {}
        # Memos by content, not by port: the layers of a deep model repeat the same few shapes and constants.
        # Equal shapes are one list (so a shape's id stands for its dims), a dims tuple or <data> dict shared
        # by the parser stands for its content, and the objects keyed by id are kept alive beside the result.
        self._interned: dict[tuple, list[Dim]] = {}
        # id(port.dims) -> (dims, shape, static)
        self._declared: dict[int, tuple[tuple[int, ...], Shape, bool]] = {}
        self._consts: dict[int, tuple[dict, V.Tensor]] = {}  # id(Const data) -> (data, tensor)
        self._inferred: dict[tuple, Shape] = {}  # see _infer_key; the shape _infer gives, before merging
        self._merged: dict[tuple[int, int], Shape] = {}  # (id(declared), id(inferred)) -> merged
        self._bounds: dict[int, tuple[V.Tensor, list[Bound]]] = {}  # id(tensor) -> (tensor, its bounds)
        self._reshaped: dict[tuple, "Shape | ReshapeError"] = {}  # see reshaped

    # -- shapes ----------------------------------------------------------------------------------
    def set_shape(self, port: Port, shape: Shape) -> None:
        """Record the shape the checker computed for an output port; it replaces the declared dims."""
        self._shapes[id(port)] = self._computed[id(port)] = self._intern(shape)

    def _intern(self, shape: Shape) -> Shape:
        """The one list holding these dims (shapes are never changed once made)."""
        if shape is None:
            return None
        return self._interned.setdefault(tuple([(d.lo, d.hi, d.sym) for d in shape]), shape)

    def reshaped(self, engine: Callable[[Shape, list[Bound], bool], Shape], shape: Shape, bounds: list[Bound],
                 special_zero: bool) -> "Shape | ReshapeError":
        """``engine(shape, bounds, special_zero)``, or the ReshapeError it raises, memoised by content: the
        Reshapes of a deep model's repeated blocks take the same inputs."""
        key = (engine, None if shape is None else id(self._intern(shape)), tuple(bounds), special_zero)
        out = self._reshaped.get(key, _UNSET)
        if out is _UNSET:
            try:
                out = engine(shape, bounds, special_zero)
            except ReshapeError as e:
                out = e
            self._reshaped[key] = out
        return out  # type: ignore[return-value]

    def computed(self, port: Port) -> Shape:
        return self._computed.get(id(port))

    def shape(self, layer: Layer, port: Port) -> Shape:
        """The dims of an output port: declared, with dynamic dims re-inferred where irreshape can."""
        try:
            return self._shapes[id(port)]
        except KeyError:
            self._walk(self._shapes, port, self._shape_sources, self._infer_shape,
                       lambda lay, out, why: self._declared_shape(lay, out))
            return self._shapes[id(port)]

    def _shape_sources(self, layer: Layer) -> list[Port | None]:
        """The output ports whose shapes the re-inference of ``layer``'s outputs needs: none when every
        output is declared static (declared static dims win) or the op is not one irreshape infers."""
        n = _SHAPE_OPS.get(layer.kind)
        if n is None:
            return []
        for p in layer.outputs:
            if p.dims is None or not self._declared_entry(p.dims)[2]:
                return [p.source for p in layer.inputs[:n]]
        return []

    def _infer_shape(self, layer: Layer, port: Port, sources: list[Port | None]) -> Shape:
        if not sources or port.dims is None or (layer.kind == "parameter" and "shape" in layer.data):
            return self._declared_shape(layer, port)
        _, declared, static = self._declared_entry(port.dims)
        if static:
            return declared
        shapes = self._shapes
        ins: list[Shape] = []
        for src in sources:
            if src is None:
                return declared
            ins.append(shapes[id(src)])
        kind = layer.kind
        if kind in _UNARY:
            inferred = ins[0]
        else:
            key = self._infer_key(layer, port, ins)
            inferred = self._inferred.get(key, _UNSET) if key is not None else _UNSET
            if inferred is _UNSET:
                try:
                    inferred = self._intern(_infer(self, layer, port, ins))
                except (V.NoBounds, V.Unsupported, IndexError, ValueError, KeyError):
                    inferred = None
                if key is not None:
                    self._inferred[key] = inferred
        if inferred is None:
            return declared
        merged = self._merged.get((id(declared), id(inferred)))
        if merged is None:  # the declared static dims, the inferred ones elsewhere
            merged = declared if len(inferred) != len(declared) else self._intern(
                [d if d.is_static else i for d, i in zip(declared, inferred)])
            self._merged[(id(declared), id(inferred))] = merged
        return merged

    @staticmethod
    def _infer_key(layer: Layer, port: Port, ins: list[Shape]) -> tuple | None:
        """What ``_infer`` reads, as a key: the op, its attributes, the input ports' dims, the (interned)
        shapes of its data inputs and the Consts on its other inputs. None (no memo) when another input
        comes from anything but a Const (its value would have to be part of the key)."""
        kind = layer.kind
        if kind in _BINARY or kind == "select":  # the shapes and auto_broadcast alone
            return (kind, id(layer.data), *map(id, ins))
        key = [kind, layer.version, id(layer.data), port.id, *map(id, ins)]
        for i, p in enumerate(layer.inputs):
            key.append(id(p.dims))
            if i >= len(ins):
                src = p.source
                if src is not None:
                    if src.layer.kind != "const":  # type: ignore[union-attr]
                        return None
                    key.append(id(src.layer.data))  # type: ignore[union-attr]
                else:
                    key.append(None)
        return tuple(key)

    def _declared_entry(self, dims: tuple[int, ...]) -> tuple[tuple[int, ...], Shape, bool]:
        """(dims, the shape they declare, whether it is static), made once for a dims tuple the parser shares."""
        known = self._declared.get(id(dims))
        if known is None:
            known = self._declared[id(dims)] = (dims, self._intern(_declared(dims)), -1 not in dims)
        return known

    def _declared_shape(self, layer: Layer, port: Port) -> Shape:
        if layer.kind == "parameter" and "shape" in layer.data:
            try:
                return self._intern(parse_shape(layer.data["shape"]))
            except ValueError:
                pass
        dims = port.dims
        if dims is None:
            return None
        if not dims and layer.kind == "parameter":
            return self._intern([])  # no `shape` attribute and no dims: a scalar
        return self._declared_entry(dims)[1]

    def input_shape(self, layer: Layer, port: Port) -> Shape:
        """The shape arriving at an input port: the producer's, or this port's own dims without an edge."""
        src = port.source
        if src is not None:
            return self.shape(src.layer, src)  # type: ignore[arg-type]
        if port.dims is None:
            return None
        return _declared(port.dims)

    # -- values ----------------------------------------------------------------------------------
    def input_value(self, layer: Layer, port: Port) -> Evaluated:
        src = port.source
        if src is None:
            return Unknown(f"input port {port.id} of {layer.name!r} has no incoming edge")
        return self.value(src.layer, src)  # type: ignore[arg-type]

    def value(self, layer: Layer, port: Port) -> Evaluated:
        """The value bounds of an output port, as a Reshape pattern would read them."""
        v = self._values.get(id(port))
        if v is None:
            v = self._values[id(port)] = self._to_value(layer, port, self._result(layer, port))
        return v

    def _to_value(self, layer: Layer, port: Port, r: _Result) -> Evaluated:
        if isinstance(r, Unknown):
            return r
        if isinstance(r, _NoBounds):
            # OpenVINO then gives the Reshape no pattern at all: every output dim is `?`.
            if port.dims is None or len(port.dims) != 1 or port.dims[0] < 0:
                return Unknown(f"{r.reason}, and the length of the shape tensor is not declared", r.layer)
            return Value([Bound(0, INF)] * port.dims[0], "i64", tuple(port.dims),
                         f"{_describe(layer)}: OpenVINO cannot bound it ({r.reason}), so every element is ?")
        if r.et not in V.INT_RANGES:
            return Unknown(f"{_describe(layer)} gives {r.et}, not an integer tensor", layer)
        bounds = self._pattern_bounds(r)
        if layer.kind == "const":
            d = layer.data
            origin = f"{_describe(layer)}: {r.et} at offset {d.get('offset')}, {d.get('size')} bytes"
        else:
            origin = f"{_describe(layer)}, evaluated from its shape subgraph"
        return Value(bounds, r.et, r.shape, origin)

    def _pattern_bounds(self, t: V.Tensor) -> list[Bound]:
        """Each element's bounds of an integer tensor as ``get_input_bounds`` gives them (the integer limits
        remapped), made once per tensor: a Const's tensor is shared by the Consts of equal <data>."""
        known = self._bounds.get(id(t))
        if known is None:
            lo = pattern_from_values(t.lo, t.et)
            hi = pattern_from_values(t.hi, t.et)
            known = self._bounds[id(t)] = (t, [Bound(a.lo, b.hi) for a, b in zip(lo, hi)])
        return known[1]

    def _result(self, layer: Layer, port: Port) -> _Result:
        r = self._results.get(id(port))
        if r is None:
            if layer.kind == "const":  # the common case (axes, orders, pads): no walk needed
                r = self._results[id(port)] = self._const(layer)
                return r
            self._walk(self._results, port, self._sources, self._evaluate,
                       lambda lay, out, why: Unknown(why, lay))
            r = self._results[id(port)]
        return r

    @staticmethod
    def _walk(memo: dict[int, object], root: Port, sources: Callable[[Layer], list[Port | None]],
              compute: Callable[[Layer, Port, list[Port | None]], object],
              fail: Callable[[Layer, Port, str], object]) -> None:
        """Fill ``memo`` (keyed by ``id(port)``) for the output port ``root`` and every output port it
        depends on, depth first, without recursion: a port gets ``compute(layer, port, sources(layer))``
        once every source port (an output port, or None for an input without an edge) is in the memo.

        A cycle or a path deeper than MAX_DEPTH gives the port ``fail(layer, port, reason)``.
        """
        stack = [(root, sources(root.layer), 0)]  # (port, its layer's sources, how many are done)
        on_path = {id(root)}
        while stack:
            out, srcs, done = stack[-1]
            if id(out) in memo:  # filled by a walk nested in a computation
                stack.pop()
                on_path.discard(id(out))
                continue
            # sources found in the memo stay there: the scan goes on where it stopped
            n = len(srcs)
            while done < n and (srcs[done] is None or id(srcs[done]) in memo):
                done += 1
            if done == n:
                memo[id(out)] = compute(out.layer, out, srcs)
                stack.pop()
                on_path.discard(id(out))
                continue
            pending = srcs[done]
            stack[-1] = (out, srcs, done)
            if id(pending) in on_path:
                memo[id(out)] = fail(out.layer, out, f"the shape subgraph has a cycle through {_describe(pending.layer)}")
            elif len(stack) >= MAX_DEPTH:
                memo[id(out)] = fail(out.layer, out,
                                     f"the shape subgraph is deeper than {MAX_DEPTH} layers at {_describe(out.layer)}")
            else:
                stack.append((pending, sources(pending.layer), 0))
                on_path.add(id(pending))

    def _sources(self, layer: Layer) -> list[Port | None]:
        """The output ports whose values ``layer`` needs (a ShapeOf needs only its input's shape)."""
        if layer.kind in ("shapeof", "const", "parameter"):
            return []
        return [p.source for p in layer.inputs]

    def _evaluate(self, layer: Layer, port: Port, sources: list[Port | None]) -> _Result:
        kind = layer.kind
        if kind == "const":
            return self._const(layer)
        if kind == "parameter":
            return Unknown(f"the shape comes from Parameter {layer.name!r} (id {layer.id}), a run-time input", layer)
        op = _OPS.get(kind)
        if op is None:
            return Unknown(f"the shape subgraph contains {_describe(layer)}, which irreshape does not evaluate", layer)
        if len(layer.outputs) != 1 and kind not in _MULTI:
            return Unknown(f"{_describe(layer)} has {len(layer.outputs)} outputs", layer)
        inputs: list[V.Tensor] = []
        for p, src in zip(layer.inputs, sources):
            if src is None:
                return Unknown(f"input port {p.id} of {_describe(layer)} has no incoming edge", layer)
            r = self._results[id(src)]
            if not isinstance(r, V.Tensor):
                return r  # OpenVINO stops at the first failure, in the order of the inputs
            inputs.append(r)
        try:
            out = op(self, layer, inputs)
            if isinstance(out, list):  # one tensor per output port
                if len(out) != len(layer.outputs):
                    raise ValueError(f"{len(out)} results for {len(layer.outputs)} output ports")
                out = out[next(i for i, p in enumerate(layer.outputs) if p.id == port.id)]
            if inputs and all(t.is_const for t in inputs):
                # `evaluate_both_bounds`: with constant inputs, the lower result serves as both bounds
                out = out.with_bounds(out.lo, out.lo)
            return out
        except V.NoBounds as e:
            return _NoBounds(f"{_describe(layer)}: {e}", layer)
        except V.Unsupported as e:
            return Unknown(f"{_describe(layer)} in the shape subgraph: {e}", layer)
        except V.Rejected as e:
            msg = f"{_describe(layer)} in the shape subgraph: OpenVINO fails evaluating it ({e}) and cannot read the model"
            return Unknown(msg, layer, Finding(INVALID_PATTERN, msg, layer.line, layer.ref))
        except (IndexError, ValueError) as e:
            return Unknown(f"{_describe(layer)} in the shape subgraph has unexpected inputs or attributes ({e})",
                           layer)

    def _const(self, layer: Layer) -> _Result:
        known = self._consts.get(id(layer.data))
        if known is not None:  # a Const with the same <data> (type, shape, offset, size) in the same .bin
            return known[1]
        r = self._read_const(layer)
        if isinstance(r, V.Tensor) and layer.data is not _NO_DATA:
            self._consts[id(layer.data)] = (layer.data, r)
        return r

    def _read_const(self, layer: Layer) -> _Result:
        try:
            et, shape, values = read_int_const(layer, self.weights)
            if et in V.FLOAT_TYPES:
                if V.numel(shape) > V.MAX_ELEMENTS:
                    return Unknown(f"Const {layer.name!r} holds {V.numel(shape)} {et} values, too many for a shape",
                                   layer)
                values = self._floats(layer, et, shape)
        except ConstError as e:
            return Unknown(e.finding.message, layer, e.finding)
        if et not in V.INT_RANGES and et not in V.FLOAT_TYPES:
            return Unknown(f"Const {layer.name!r} holds {et}, not an integer or float type", layer)
        return V.const(et, shape, values)

    def _floats(self, layer: Layer, et: str, shape: tuple[int, ...]) -> list[float]:
        """The values of a float Const (offset and size already checked by ``read_int_const``)."""
        import struct

        count = V.numel(shape)
        code = V.FLOAT_TYPES[et][1]
        width = struct.calcsize(code)
        raw = self.weights.read(layer, int(layer.data["offset"]), int(layer.data["size"]), count * width)
        return list(struct.unpack(f"<{count}{code}", raw))

    def _shape_of(self, layer: Layer, _: list[V.Tensor]) -> V.Tensor:
        if not layer.inputs:
            raise V.Unsupported("no input port")
        shape = self.input_shape(layer, layer.inputs[0])
        et = "i64" if layer.version.lower() in ("opset1", "") else _et(layer.data.get("output_type", "i64"))
        return V.shape_of(None if shape is None else [(d.lo, d.hi) for d in shape], et)


# -- per-op adapters: IR attributes → engine.values ---------------------------------------------------
def _et(text: str) -> str:
    from ..frontends.openvino.weights import element_type

    return element_type(text) or text


def _flag(layer: Layer, name: str, default: bool) -> bool:
    t = layer.data.get(name)
    return default if t is None else t.strip().lower() in ("true", "1")


def _mask(layer: Layer, name: str) -> list[int]:
    t = layer.data.get(name, "").strip()
    return [int(v) for v in t.split(",")] if t else []


def _gather(g: Graph, layer: Layer, x: list[V.Tensor]) -> V.Tensor:
    return V.gather(x[0], x[1], x[2], int(layer.data.get("batch_dims", "0")))


def _squeeze(g: Graph, layer: Layer, x: list[V.Tensor]) -> V.Tensor:
    return V.squeeze(x[0], x[1] if len(x) > 1 else None)


def _strided_slice(g: Graph, layer: Layer, x: list[V.Tensor]) -> V.Tensor:
    return V.strided_slice(x[0], x[1], x[2], x[3] if len(x) > 3 else None,
                           *(_mask(layer, m) for m in ("begin_mask", "end_mask", "new_axis_mask",
                                                       "shrink_axis_mask", "ellipsis_mask")))


def _broadcast(g: Graph, layer: Layer, x: list[V.Tensor]) -> V.Tensor:
    return V.broadcast(x[0], x[1], layer.data.get("mode", "numpy"), x[2] if len(x) > 2 else None)


def _range(g: Graph, layer: Layer, x: list[V.Tensor]) -> V.Tensor:
    return V.constant_only("range", x, {"output_type": _et(layer.data["output_type"])
                                        if "output_type" in layer.data else None})


def _convert(g: Graph, layer: Layer, x: list[V.Tensor]) -> V.Tensor:
    src = layer.inputs[0].source
    if x[0].et == "f16" and src is not None and src.layer.kind == "const":  # type: ignore[union-attr]
        # save_model(compress_to_fp16) writes f32 constants as an f16 Const and a Convert marked
        # `decompression` (rt_info), and OpenVINO's bound evaluation stops at such a Convert (measured).
        # irreshape does not read rt_info, and a plain Convert of an f16 Const is rare: it takes it for one.
        raise V.NoBounds("a Convert of an f16 Const, the decompression Convert of a compressed model")
    return V.convert(x[0], _et(layer.data.get("destination_type", "")))


def _split(g: Graph, layer: Layer, x: list[V.Tensor]) -> list[V.Tensor]:
    if layer.kind == "split":
        return V.split(x[0], x[1], int(layer.data.get("num_splits", "")))
    return V.split(x[0], x[1], x[2])


def _arith(kind: str) -> Callable[[Graph, Layer, list[V.Tensor]], V.Tensor]:
    def op(g: Graph, layer: Layer, x: list[V.Tensor]) -> V.Tensor:
        return V.arithmetic(kind, x[0], x[1])
    return op


_Op = Callable[[Graph, Layer, list[V.Tensor]], "V.Tensor | list[V.Tensor]"]
_MULTI = frozenset({"split", "variadicsplit"})  # ops with several output ports: they give one tensor each
_OPS: dict[str, _Op] = {
    "shapeof": Graph._shape_of,
    "gather": _gather,
    "concat": lambda g, layer, x: V.concat(x, int(layer.data.get("axis", "0"))),
    "unsqueeze": lambda g, layer, x: V.unsqueeze(x[0], x[1]),
    "squeeze": _squeeze,
    "convert": _convert,
    "add": _arith("add"),
    "subtract": _arith("subtract"),
    "multiply": _arith("multiply"),
    "maximum": _arith("maximum"),
    "minimum": _arith("minimum"),
    "divide": lambda g, layer, x: V.divide(x[0], x[1], _flag(layer, "m_pythondiv", True)),
    "floor": lambda g, layer, x: V.constant_only("floor", x),
    "ceiling": lambda g, layer, x: V.constant_only("ceiling", x),
    "power": _arith("power"),
    "floormod": _arith("floormod"),
    "mod": lambda g, layer, x: V.mod(x[0], x[1]),
    "transpose": lambda g, layer, x: V.transpose(x[0], x[1]),
    "reduceprod": lambda g, layer, x: V.reduce_prod(x[0], x[1], _flag(layer, "keep_dims", False)),
    "reducesum": lambda g, layer, x: V.constant_only("reducesum", x, {"keep_dims": _flag(layer, "keep_dims", False)}),
    "slice": lambda g, layer, x: V.slice_(*x[:4], x[4] if len(x) > 4 else None),
    "stridedslice": _strided_slice,
    "range": _range,
    "broadcast": _broadcast,
    "reshape": lambda g, layer, x: V.reshape(x[0], x[1], _flag(layer, "special_zero", False)),
    "split": _split,
    "variadicsplit": _split,
}


# -- shape inference of data tensors (to recover the intervals OpenVINO writes as -1) -----------------
_UNARY = ("convert", "mvn", "gelu", "relu", "sigmoid", "tanh", "swish", "hswish", "hsigmoid", "mish", "elu",
          "erf", "exp", "log", "sqrt", "abs", "negative", "floor", "ceiling", "clamp", "softmax", "logsoftmax",
          "softplus", "sin", "cos", "normalizel2", "groupnormalization", "cumsum", "roll")
_BINARY = ("add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "squareddifference", "floormod",
           "mod", "equal", "notequal", "less", "lessequal", "greater", "greaterequal", "logicaland", "logicalor",
           "logicalxor")
_REDUCE = ("reducemean", "reducesum", "reducemax", "reducemin", "reduceprod", "reducel1", "reducel2")
_ALL = 1 << 16
# op type -> how many leading inputs' shapes it needs
_SHAPE_OPS: dict[str, int] = {**{k: 1 for k in _UNARY}, **{k: 2 for k in _BINARY}, "select": 3,
                              "transpose": 1, "matmul": 2, "convolution": 1, "groupconvolution": 1,
                              "convolutionbackpropdata": 1, "groupconvolutionbackpropdata": 1, "maxpool": 1,
                              "avgpool": 1, "split": 1, "variadicsplit": 1, "concat": _ALL, "gather": 2, "pad": 1,
                              "scaleddotproductattention": 4, "interpolate": 1, "broadcast": 1, "slice": 1,
                              "unsqueeze": 1, "squeeze": 1,
                              **{k: 1 for k in _REDUCE}}


def _ints_attr(layer: Layer, name: str) -> list[int]:
    text = layer.data.get(name, "").strip()
    return [int(v) for v in text.split(",")] if text else []


def _int_input(g: Graph, layer: Layer, index: int) -> V.Tensor | None:
    """The evaluated integer tensor (a scalar or 1-D) on input ``index``; None where there is none."""
    src = layer.inputs[index].source if index < len(layer.inputs) else None
    if src is None:
        return None
    t = g._result(src.layer, src)  # type: ignore[arg-type]
    return t if isinstance(t, V.Tensor) and len(t.shape) <= 1 and t.et in V.INT_RANGES else None


def _const_ints(g: Graph, layer: Layer, index: int) -> list[int] | None:
    """The values of input ``index`` when OpenVINO knows them exactly (a constant or a folded subgraph)."""
    t = _int_input(g, layer, index)
    return None if t is None or not t.is_const else [V.wrap(v, "i64") for v in t.lo]


def _int_bounds(g: Graph, layer: Layer, index: int) -> list[tuple[int, int]] | None:
    """The (lower, upper) bounds of each element of input ``index``, as ``get_input_bounds`` gives them
    (integer limits remapped as for a Reshape pattern); None where they cannot be evaluated."""
    t = _int_input(g, layer, index)
    return None if t is None else [(b.lo, b.hi) for b in g._pattern_bounds(t)]


def _shape_value(g: Graph, layer: Layer, index: int) -> Shape:
    """Input ``index`` read as a shape, as ``get_input_const_data_as_shape``: each element's bounds as a dim."""
    if index >= len(layer.inputs):
        return None
    v = g.input_value(layer, layer.inputs[index])
    if isinstance(v, Unknown) or any(b.lo < 0 for b in v.bounds):
        return None
    return [Dim(b.lo, min(INF, b.hi)) for b in v.bounds]


def _window(layer: Layer, data: Shape, head: list[Dim], kernel: list[int], ceil: bool = False) -> Shape:
    if layer.data.get("auto_pad", "explicit").lower() not in ("explicit", "notset", ""):
        return None
    n = len(kernel)
    return S.window_shape(data, head, kernel, _ints_attr(layer, "strides"), _ints_attr(layer, "pads_begin"),
                          _ints_attr(layer, "pads_end"), _ints_attr(layer, "dilations") or [1] * n, ceil)


def _weights(layer: Layer) -> tuple[int, ...] | None:
    kernel = layer.inputs[1].dims if len(layer.inputs) > 1 else None
    return None if kernel is None or any(k < 0 for k in kernel) else kernel


def _infer(g: Graph, layer: Layer, port: Port, ins: list[Shape]) -> Shape:
    kind = layer.kind
    data = ins[0] if ins else None
    if kind in _UNARY:
        return data
    if kind in ("split", "variadicsplit"):  # the split axis keeps its declared length
        axis = _const_ints(g, layer, 1)
        if data is None or axis is None or len(axis) != 1:
            return None
        a = axis[0] + (len(data) if axis[0] < 0 else 0)
        return [Dim.dynamic() if i == a else d for i, d in enumerate(data)]
    if kind in _BINARY or kind == "select":
        if layer.data.get("auto_broadcast", "numpy").lower() != "numpy":
            return None
        return S.numpy_broadcast(ins)
    if kind == "transpose":
        order = _const_ints(g, layer, 1)
        return None if order is None else S.transpose_shape(data, order)
    if kind == "matmul":
        return S.matmul_shape(data, ins[1], _flag(layer, "transpose_a", False), _flag(layer, "transpose_b", False))
    if kind == "concat":
        return S.concat_shape(ins, int(layer.data.get("axis", "0")))
    if kind == "gather":
        axis = _const_ints(g, layer, 2)
        return None if axis is None or len(axis) != 1 else S.gather_shape(data, ins[1], axis[0],
                                                                            int(layer.data.get("batch_dims", "0")))
    if kind == "unsqueeze":
        axes = _const_ints(g, layer, 1)
        return None if axes is None else S.unsqueeze_shape(data, axes)
    if kind == "squeeze":
        axes = _const_ints(g, layer, 1) if len(layer.inputs) > 1 else None
        if (axes is None and len(layer.inputs) > 1) or _flag(layer, "allow_axis_skip", False):
            return None
        return S.squeeze_shape(data, axes)
    if kind == "pad":
        begin, end = _int_bounds(g, layer, 1), _int_bounds(g, layer, 2)
        if begin is None or end is None:
            return None  # OpenVINO: every dim dynamic, or the pads irreshape cannot evaluate: the declared dims
        return S.pad_op_shape(data, begin, end, layer.data.get("pad_mode", "constant").lower())
    if kind == "scaleddotproductattention":
        return S.sdpa_shape(data, ins[1], ins[2], ins[3] if len(ins) > 3 else None)
    if kind == "slice":
        start, stop, step = (_const_ints(g, layer, i) for i in (1, 2, 3))
        axes = _const_ints(g, layer, 4) if len(layer.inputs) > 4 else None if start is None else list(range(len(start)))
        if start is None or stop is None or step is None or axes is None:
            return None
        return S.slice_shape(data, start, stop, step, axes)
    if kind in _REDUCE:
        axes = _const_ints(g, layer, 1)
        return None if axes is None else S.reduce_shape(data, axes, _flag(layer, "keep_dims", False))
    if kind == "broadcast":
        mode = layer.data.get("mode", "numpy").lower()
        target = _shape_value(g, layer, 1) if mode in ("numpy", "bidirectional") else None
        return S.numpy_broadcast([data, target]) if mode == "bidirectional" else target
    if kind == "interpolate":
        return _interpolate(g, layer, data)
    if kind in ("maxpool", "avgpool"):
        if data is None or len(data) < 3:
            return None
        return _window(layer, data, list(data[:2]), _ints_attr(layer, "kernel"),
                       layer.data.get("rounding_type", "floor").lower() == "ceil")
    kernel = _weights(layer)
    if kernel is None or data is None or len(data) < 3:
        return None
    if kind == "convolution":
        return _window(layer, data, [data[0], Dim.of(kernel[0])], list(kernel[2:]))
    if kind == "groupconvolution":
        return _window(layer, data, [data[0], Dim.of(kernel[0] * kernel[1])], list(kernel[3:]))
    if kind in ("convolutionbackpropdata", "groupconvolutionbackpropdata"):
        if len(layer.inputs) > 2 or layer.data.get("auto_pad", "explicit").lower() not in ("explicit", "notset", ""):
            return None  # an output_shape input
        grouped = kind == "groupconvolutionbackpropdata"
        channels = kernel[0] * kernel[2] if grouped else kernel[1]
        spatial = list(kernel[3:] if grouped else kernel[2:])
        return S.deconv_shape(data, [data[0], Dim.of(channels)], spatial, _ints_attr(layer, "strides"),
                              _ints_attr(layer, "pads_begin"), _ints_attr(layer, "pads_end"),
                              _ints_attr(layer, "dilations") or [1] * len(spatial),
                              _ints_attr(layer, "output_padding"))
    return None


def _interpolate(g: Graph, layer: Layer, data: Shape) -> Shape:
    """``Interpolate-4/11`` in ``sizes`` mode: the sizes' bounds on the axes, padded data dims elsewhere."""
    v11 = layer.version.lower() == "opset11"
    if data is None or layer.version.lower() not in ("opset4", "opset11") \
            or layer.data.get("shape_calculation_mode", "").lower() != "sizes":
        return None
    sizes = _shape_value(g, layer, 1)
    axes = _const_ints(g, layer, 2 if v11 else 3) if len(layer.inputs) > (2 if v11 else 3) else list(range(len(data)))
    if sizes is None or axes is None or len(sizes) != len(axes):
        return None
    begin = _ints_attr(layer, "pads_begin") or [0] * len(data)
    end = _ints_attr(layer, "pads_end") or [0] * len(data)
    padded = S.pad_shape(data, begin, end)
    if padded is None:
        return None
    for a, d in zip(axes, sizes):
        if not -len(data) <= a < len(data):
            return None
        padded[a] = d
    return padded
