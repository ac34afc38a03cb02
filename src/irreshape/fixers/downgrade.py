"""``--fix --target R``: each layer a target release refuses, rewritten into an older form that release reads,
where that form computes exactly what the layer computes.

ONE table of rewrites, :data:`REWRITES`, in the manner of ONNX's version-converter adapters: an entry per
(op type, op version) that a release may refuse, each naming the older form and the condition on the layer (its
attributes, its inputs' types, its Const inputs' values) under which that form computes the same; an entry whose
form is only close (a decomposition) is ``safe=False`` and applied only with ``--unsafe-fixes``. Before any entry,
the same op version named by an older opset the targets read (``MaxPool`` of ``opset16`` is MaxPool-14 of
``opset14``) is a relabelling, which changes nothing the layer computes.

What a release refuses is one decision, :func:`irreshape.shapes.targets.refusals`: the layers it names are the ones
rewritten, a refusal of another kind (an element type the release lacks) stays an error with the reason, and the
file rewritten is judged again: a layer still refused by a target is not written as fixed (its rewrite is dropped).

The edit is the fixers' one line-change model: a rewritten layer changes its ``<layer>`` line (``type``,
``version``) and its ``<data>`` line (the attributes the older form lacks, or a value it takes instead); a layer
removed (Identity) takes its lines and its input edge away and its consumers' edges are rewritten to its producer;
a decomposed layer's lines become its parts' (written in the file's own layout), the last part keeping its id and
output ports, and the new constants' bytes are appended to the ``.bin`` (never otherwise touched).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Optional, Union

from ..core import etypes
from ..core.dims import Dim
from ..core.results import FileResult
from ..frontends.openvino.model import IRModel, Layer
from ..shapes.opsets import OPSETS
from ..shapes.versions import opset_number, resolve
from . import Change, Plan, Refusal, apply

Attrs = dict[str, Optional[str]]  # <data> attribute -> its new value (None: removed)


@dataclass(slots=True)
class NewLayer:
    """A layer a decomposition adds: ports as (id, precision, dims; dims None: a scalar)."""

    key: str  # how the expansion's edges name it
    type: str
    opset: int
    data: dict[str, str]
    inputs: list[tuple[str, str, Optional[tuple[int, ...]]]]
    outputs: list[tuple[str, str, Optional[tuple[int, ...]]]]
    const: Optional[bytes] = None  # a Const's bytes, appended to the .bin (offset and size filled in)


@dataclass(slots=True)
class Expansion:
    """A layer replaced by ``layers`` (producers first). The last one takes the layer's id and keeps its output
    ports' lines (their ids, precisions, dims and tensor names), so the edges out of it stay as they are; each edge
    into the layer goes to ``rewire[its port id]`` (a key of ``layers``) at the same port id."""

    layers: list[NewLayer]
    edges: list[tuple[str, str, str, str]]  # (from key, from port, to key, to port)
    rewire: dict[str, str]
    # (input port id of the layer, key, port): a new edge from what feeds that input to a new layer as well
    fanout: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One entry of the table: layers of ``op``-``version`` that pass ``when`` become ``to``-``to_version``."""

    op: str  # the op type as OpenVINO names it
    version: int  # its op version (the opsets' numbering: Squeeze of opset1 is Squeeze-0)
    to: str  # the older form's op type ("" : the layer is removed, its consumers take its input)
    to_version: int
    # the layer's <data> changes under which the older form computes exactly the same (a decomposition: its
    # Expansion), or why it does not
    when: Callable[[Layer, "Context"], "Attrs | Expansion | str"]
    safe: bool = True  # False: close, not identical (--unsafe-fixes), within ``tolerance``
    tolerance: tuple[float, float] = (0.0, 0.0)  # (rtol, atol) of numpy.allclose: the outputs' against the layer's
    note: str = ""
    decomposed: bool = False  # ``when`` gives an Expansion: the layer becomes a subgraph of older ops (``to``)

    @property
    def name(self) -> str:
        if self.decomposed:
            return f"{self.op}-{self.version} -> {self.to}"
        return f"{self.op}-{self.version} -> " + (f"{self.to}-{self.to_version}" if self.to else "removed")

    @property
    def opset(self) -> Optional[int]:
        """The oldest opset holding the older form: the ``version`` the rewritten layer names."""
        return oldest_opset(self.to, self.to_version) if self.to and not self.decomposed else None


def oldest_opset(op: str, version: int) -> Optional[int]:
    """The first opset whose ``op`` is op version ``version`` (where OpenVINO's serializer names it)."""
    return next((n for n in sorted(OPSETS) if OPSETS[n].get(op) == version), None)


@dataclass(slots=True)
class Context:
    """What the conditions may read beyond a layer's own attributes: its graph and the ``.bin``'s Consts."""

    model: IRModel
    _graphs: dict = field(default_factory=dict)  # id(graph) -> its checks.graph.Graph reading, when asked

    def __post_init__(self) -> None:
        for m in _graphs(self.model):  # every input port's producer, the bodies' too
            m.link()

    def _graph(self, layer: Layer):
        """irreshape's reading (shapes, types, values) of the graph holding ``layer``, made once per graph."""
        from ..checks.graph import Graph

        scope = self.model.scope(layer.id) or self.model
        graph = self._graphs.get(id(scope))
        if graph is None:
            graph = self._graphs[id(scope)] = Graph(scope)
        return graph

    def lowest(self, layer: Layer, port: str) -> Optional[list[int]]:
        """The lower bound of each element of the integer tensor feeding input ``port`` of ``layer``, as
        irreshape's reading evaluates it (OpenVINO's bound evaluation); None where it cannot."""
        from ..checks.values import Value

        graph = self._graph(layer)
        p = layer.input(port)
        src = p.source if p is not None else None
        if src is None:
            return None
        try:
            v = graph.value(src)
        except Exception:  # noqa: BLE001  (irreshape's own failure: no bound, no rewrite)
            return None
        return [b.lo for b in v.bounds] if isinstance(v, Value) else None

    def input_types(self, layer: Layer) -> list[Optional[str]]:
        """Each input's element type as OpenVINO infers it (irreshape's reading; a declared precision is not taken
        at its word); None where no edge feeds it or it cannot be told."""
        graph = self._graph(layer)
        out = []
        for p in layer.inputs:
            src = p.source
            try:
                known = src is not None and graph.etype_known(src)
                out.append(graph.etype(src) if known else None)
            except Exception:  # noqa: BLE001  (irreshape's own failure: the type is not known, no rewrite)
                out.append(None)
        return out

    def close(self) -> None:
        for graph in self._graphs.values():
            graph.weights.close()


# -- the conditions ---------------------------------------------------------------------------------------
def _ints(text: Optional[str]) -> Optional[list[int]]:
    if text is None:
        return None
    try:
        return [int(v) for v in text.replace(" ", "").split(",") if v != ""]
    except ValueError:
        return None


def _flag(layer: Layer, attr: str) -> bool:
    return layer.data.get(attr, "false").strip().lower() in ("true", "1")


def _pool_out(size: int, kernel: int, stride: int, dilation: int, pb: int, pe: int, mode: str) -> Optional[int]:
    """A pooling window count along one axis with explicit pads, as the pooling shape function computes it (None:
    OpenVINO refuses the window, whatever the rounding)."""
    from ..shapes.node import ShapeError, Undecided
    from ..shapes.ops.pooling import pool_dim

    try:
        return pool_dim(Dim.of(size), kernel, stride, dilation, pb, pe, mode, False, 0).lo
    except (ShapeError, Undecided):
        return None


def _rounding(layer: Layer, modes: tuple[str, ...]) -> "Attrs | str":
    """``rounding_type`` for the older pooling op: kept unless it is ``ceil_torch``; then the first of ``modes``
    that gives every spatial axis of this layer's (static) input the same windows, if one does."""
    mode = layer.data.get("rounding_type", "floor").strip().lower()
    if mode != "ceil_torch":
        return {}
    auto = layer.data.get("auto_pad", "explicit").strip().lower()
    dims = layer.inputs[0].dims if layer.inputs else None
    kernel, strides = _ints(layer.data.get("kernel")), _ints(layer.data.get("strides"))
    pb, pe = _ints(layer.data.get("pads_begin")), _ints(layer.data.get("pads_end"))
    dil = _ints(layer.data.get("dilations")) or [1] * len(kernel or ())
    if auto not in ("explicit", "") or dims is None or not kernel or strides is None or pb is None or pe is None:
        return "rounding_type is ceil_torch and the windows cannot be counted (auto_pad, or attributes missing)"
    spatial = dims[len(dims) - len(kernel):]
    if len(spatial) != len(kernel) or any(d < 0 for d in spatial) or not (
            len(strides) == len(pb) == len(pe) == len(dil) == len(kernel)):
        return "rounding_type is ceil_torch and the input's spatial dims are not static"
    want = [_pool_out(*a, "ceil_torch") for a in zip(spatial, kernel, strides, dil, pb, pe)]
    for m in modes:
        if [_pool_out(*a, m) for a in zip(spatial, kernel, strides, dil, pb, pe)] == want:
            return {"rounding_type": m}
    return "rounding_type is ceil_torch and no other rounding gives this input the same windows"


def _maxpool(layer: Layer, ctx: Context) -> "Attrs | str":
    return _rounding(layer, ("floor", "ceil"))


def _avgpool(layer: Layer, ctx: Context) -> "Attrs | str":
    dil = _ints(layer.data.get("dilations"))
    if dil is not None and any(d != 1 for d in dil):
        return "its dilations are not all 1 (AvgPool-1 has none)"
    found = _rounding(layer, ("floor",))  # a ceil window may count the overhang: only floor's windows are the same
    return found if isinstance(found, str) else {**found, "dilations": None}


def _no_flag(attr: str) -> Callable[[Layer, Context], "Attrs | str"]:
    def when(layer: Layer, ctx: Context) -> "Attrs | str":
        return f"{attr} is true" if _flag(layer, attr) else {attr: None}
    return when


def _value(attr: str, default: str, *drop: str) -> Callable[[Layer, Context], "Attrs | str"]:
    """The attribute ``attr`` must be ``default`` (or absent); it and ``drop`` are removed."""
    def when(layer: Layer, ctx: Context) -> "Attrs | str":
        v = layer.data.get(attr, default).strip().lower()
        return f"{attr} is {v}" if v != default else {attr: None, **{d: None for d in drop}}
    return when


def _pad(layer: Layer, ctx: Context) -> "Attrs | str":
    for port, what in (("1", "pads_begin"), ("2", "pads_end")):
        lowest = ctx.lowest(layer, port)
        if lowest is None:
            return f"its {what} cannot be evaluated (nor bounded)"
        if any(v < 0 for v in lowest):
            return f"its {what} may be negative (Pad-1 cannot crop)"
    return {}


def _boolean(layer: Layer, ctx: Context) -> "Attrs | str":
    types = ctx.input_types(layer)
    if not types or any(t != "boolean" for t in types):
        return "its inputs are not boolean"
    return {}


def _identity(layer: Layer, ctx: Context) -> "Attrs | str":
    if len(layer.inputs) != 1 or len(layer.outputs) != 1 or layer.inputs[0].source is None:
        return "it has not one input fed by a layer and one output"
    return {}


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Numpy broadcasting of two IR shapes (-1: dynamic)."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    return tuple(y if x == 1 else x if y == 1 else (y if x == -1 else x) for x, y in zip(a, b))


_PACK = {"f32": "<f", "f16": "<e"}
_SDPA_TOLERANCE = (1e-5, 1e-6)


def _sdpa(layer: Layer, ctx: Context) -> "Expansion | str":
    """ScaledDotProductAttention-13 as its specification writes it: MatMul(Q, K^T) * scale (+ mask, or Select on a
    boolean mask), Softmax over the last axis, MatMul with V. Not causal; no sink input."""
    import struct

    if _flag(layer, "causal"):
        return "it is causal (the mask would be made from the sequence lengths)"
    if not 3 <= len(layer.inputs) <= 5 or len(layer.outputs) != 1:
        return f"it has {len(layer.inputs)} inputs (a sink input, or too few)"
    types = ctx.input_types(layer)
    t = types[0]
    if t not in _PACK or types[1] != t or types[2] != t:
        return f"its query, key and value are not all f32 or all f16 ({', '.join(map(str, types[:3]))})"
    prec = etypes.precision(t)
    q, k, v = (p.dims for p in layer.inputs[:3])
    if q is None or k is None or v is None or min(len(q), len(k), len(v)) < 3:
        return "its query, key or value dims are not known, or of a rank under 3"
    scores = _broadcast(q[:-2], k[:-2]) + (q[-2], k[-2])
    new = [NewLayer("qk", "MatMul", 1, {"transpose_a": "false", "transpose_b": "true"},
                    [("0", prec, q), ("1", prec, k)], [("2", prec, scores)])]
    edges = [("qk", "2", "scaled", "0")]
    rewire = {"0": "qk", "1": "qk", "2": "out"}
    if len(layer.inputs) == 5:
        scale = layer.inputs[4].dims
        rewire["4"] = "scaled"
    else:
        if q[-1] <= 0:
            return "it has no scale input and its head size is not static"
        scale = None
        new.append(NewLayer("scale_value", "Const", 1, {"element_type": t, "shape": ""}, [], [("0", prec, None)],
                            const=struct.pack(_PACK[t], 1.0 / float(q[-1]) ** 0.5)))
        edges.append(("scale_value", "0", "scaled", "4"))
    new.append(NewLayer("scaled", "Multiply", 1, {"auto_broadcast": "numpy"},
                        [("0", prec, scores), ("4", prec, scale or None)], [("5", prec, scores)]))
    last = "scaled"
    if len(layer.inputs) >= 4:
        mask = layer.inputs[3].dims
        if mask is None:
            return "its mask's dims are not known"
        masked = _broadcast(scores, mask)
        rewire["3"] = "masked"
        if types[3] == "boolean":
            new.append(NewLayer("minus_inf", "Const", 1, {"element_type": t, "shape": ""}, [], [("0", prec, None)],
                                const=struct.pack(_PACK[t], float("-inf"))))
            new.append(NewLayer("masked", "Select", 1, {"auto_broadcast": "numpy"},
                                [("3", "BOOL", mask), ("0", prec, scores), ("1", prec, None)], [("4", prec, masked)]))
            edges += [("scaled", "5", "masked", "0"), ("minus_inf", "0", "masked", "1")]
        elif types[3] == t:
            new.append(NewLayer("masked", "Add", 1, {"auto_broadcast": "numpy"},
                                [("0", prec, scores), ("3", prec, mask)], [("4", prec, masked)]))
            edges.append(("scaled", "5", "masked", "0"))
        else:
            return f"its mask is {types[3]}, neither boolean nor its query's type"
        scores, last = masked, "masked"
    new.append(NewLayer("softmax", "Softmax", 8, {"axis": "-1"}, [("0", prec, scores)], [("1", prec, scores)]))
    edges.append((last, "5" if last == "scaled" else "4", "softmax", "0"))
    new.append(NewLayer("out", "MatMul", 1, {"transpose_a": "false", "transpose_b": "false"},
                        [("0", prec, scores), ("2", prec, v)], []))
    edges.append(("softmax", "1", "out", "0"))
    return Expansion(new, edges, rewire)


def _i64(values: list[int]) -> bytes:
    import struct

    return struct.pack(f"<{len(values)}q", *values)


def _const_i64(key: str, values: list[int]) -> NewLayer:
    return NewLayer(key, "Const", 1, {"element_type": "i64", "shape": str(len(values))}, [],
                    [("0", "I64", (len(values),))], const=_i64(values))


_GN_TOLERANCE = (1e-4, 1e-5)


def _group_norm(layer: Layer, ctx: Context) -> "Expansion | str":
    """GroupNormalization-12 as its specification writes it: the input reshaped to [N, groups, -1], MVN-6 over the
    last axis (epsilon inside the square root), reshaped back (ShapeOf-3 of the input), times the scale and plus
    the bias, each unsqueezed to [C, 1, ...]."""
    types = ctx.input_types(layer)
    t = types[0] if types else None
    if len(layer.inputs) != 3 or len(layer.outputs) != 1 or t not in _PACK or any(x != t for x in types):
        return "its data, scale and bias are not all f32 or all f16"
    prec = etypes.precision(t)
    x, scale = layer.inputs[0].dims, layer.inputs[1].dims
    try:
        groups, eps = int(layer.data["num_groups"]), layer.data["epsilon"]
        float(eps)
    except (KeyError, ValueError):
        return "its num_groups or epsilon cannot be read"
    if x is None or len(x) < 2 or scale is None or groups <= 0:
        return "its data's rank is not known"
    rank = len(x)
    rest = -1
    if all(d >= 0 for d in x[1:]) and x[1] % groups == 0:
        rest = x[1] // groups
        for d in x[2:]:
            rest *= d
    grouped = (x[0], groups, rest)
    c = scale[0] if scale else -1
    ones = (c,) + (1,) * (rank - 2)
    new = [_const_i64("groups_shape", [0, groups, -1]),
           NewLayer("grouped", "Reshape", 1, {"special_zero": "true"}, [("0", prec, x), ("1", "I64", (3,))],
                    [("2", prec, grouped)]),
           _const_i64("axes", [2]),
           NewLayer("normalized", "MVN", 6, {"eps": eps, "normalize_variance": "true", "eps_mode": "inside_sqrt"},
                    [("0", prec, grouped), ("1", "I64", (1,))], [("2", prec, grouped)]),
           NewLayer("shape", "ShapeOf", 3, {"output_type": "i64"}, [("0", prec, x)], [("1", "I64", (rank,))]),
           NewLayer("restored", "Reshape", 1, {"special_zero": "false"}, [("0", prec, grouped), ("1", "I64", (rank,))],
                    [("2", prec, x)])]
    edges = [("groups_shape", "0", "grouped", "1"), ("grouped", "2", "normalized", "0"),
             ("axes", "0", "normalized", "1"), ("normalized", "2", "restored", "0"), ("shape", "1", "restored", "1"),
             ("restored", "2", "scaled", "0")]
    rewire = {"0": "grouped"}
    if rank > 2:
        new += [_const_i64("channel_axes", list(range(1, rank - 1))),
                NewLayer("scale_shaped", "Unsqueeze", 1, {}, [("1", prec, scale), ("5", "I64", (rank - 2,))],
                         [("6", prec, ones)]),
                NewLayer("bias_shaped", "Unsqueeze", 1, {}, [("2", prec, scale), ("5", "I64", (rank - 2,))],
                         [("6", prec, ones)])]
        edges += [("channel_axes", "0", "scale_shaped", "5"), ("channel_axes", "0", "bias_shaped", "5"),
                  ("scale_shaped", "6", "scaled", "1"), ("bias_shaped", "6", "out", "1")]
        rewire.update({"1": "scale_shaped", "2": "bias_shaped"})
        new.append(NewLayer("scaled", "Multiply", 1, {"auto_broadcast": "numpy"}, [("0", prec, x), ("1", prec, ones)],
                            [("2", prec, x)]))
        new.append(NewLayer("out", "Add", 1, {"auto_broadcast": "numpy"}, [("0", prec, x), ("1", prec, ones)], []))
    else:  # [N, C]: the scale and bias broadcast as they are
        rewire.update({"1": "scaled", "2": "out"})
        new.append(NewLayer("scaled", "Multiply", 1, {"auto_broadcast": "numpy"}, [("0", prec, x), ("1", prec, scale)],
                            [("3", prec, x)]))
        new.append(NewLayer("out", "Add", 1, {"auto_broadcast": "numpy"}, [("0", prec, x), ("2", prec, scale)], []))
    edges.append(("scaled", "2" if rank > 2 else "3", "out", "0"))
    return Expansion(new, edges, rewire, fanout=[("0", "shape", "0")])


_POOL_NOTE = "rounding_type not ceil_torch, or ceil_torch where {} gives the static input the same windows"

#: (op type, op version) -> the rewrites to an older form, in order of preference
REWRITES: dict[tuple[str, int], tuple[Rewrite, ...]] = {}
for _r in (
    Rewrite("MaxPool", 14, "MaxPool", 8, _maxpool, note=_POOL_NOTE.format("floor or ceil")),
    Rewrite("AvgPool", 14, "AvgPool", 1, _avgpool, note=_POOL_NOTE.format("floor")),
    Rewrite("AvgPool", 16, "AvgPool", 1, _avgpool, note="dilations all 1; " + _POOL_NOTE.format("floor")),
    Rewrite("Squeeze", 15, "Squeeze", 0, _no_flag("allow_axis_skip"), note="allow_axis_skip false"),
    Rewrite("ScatterNDUpdate", 15, "ScatterNDUpdate", 3, _value("reduction", "none"), note="reduction none"),
    Rewrite("ScatterElementsUpdate", 12, "ScatterElementsUpdate", 3, _value("reduction", "none", "use_init_val"),
            note="reduction none (use_init_val then plays no part)"),
    Rewrite("TopK", 11, "TopK", 3, _no_flag("stable"), note="stable false"),
    Rewrite("Pad", 12, "Pad", 1, _pad, note="pads_begin and pads_end never negative (their values, or bounds, as irreshape evaluates them)"),
    Rewrite("BitwiseAnd", 13, "LogicalAnd", 1, _boolean, note="boolean inputs"),
    Rewrite("BitwiseOr", 13, "LogicalOr", 1, _boolean, note="boolean inputs"),
    Rewrite("BitwiseXor", 13, "LogicalXor", 1, _boolean, note="boolean inputs"),
    Rewrite("BitwiseNot", 13, "LogicalNot", 1, _boolean, note="a boolean input"),
    Rewrite("EmbeddingBagOffsets", 15, "EmbeddingBagOffsetsSum", 3, _value("reduction", "sum"),
            note="reduction sum"),
    Rewrite("EmbeddingBagPacked", 15, "EmbeddingBagPackedSum", 3, _value("reduction", "sum"), note="reduction sum"),
    Rewrite("OneHot", 16, "OneHot", 1, _value("negative_indices_mode", "ignore_negative"),
            note="negative_indices_mode ignore_negative"),
    Rewrite("ScaledDotProductAttention", 13, "MatMul, Multiply, Add or Select, Softmax-8, MatMul", 0, _sdpa,
            safe=False, tolerance=_SDPA_TOLERANCE, decomposed=True,
            note="not causal, no sink input; f32 or f16"),
    Rewrite("GroupNormalization", 12, "Reshape, MVN-6, ShapeOf-3, Reshape, Unsqueeze, Multiply, Add", 0, _group_norm,
            safe=False, tolerance=_GN_TOLERANCE, decomposed=True, note="f32 or f16"),
    Rewrite("Identity", 16, "", 0, _identity, note="its consumers take its input; its tensor names join its input's"),
):
    REWRITES[(_r.op, _r.version)] = REWRITES.get((_r.op, _r.version), ()) + (_r,)


# -- what a release's CPU plugin refuses, where an exact form exists -------------------------------------------
def _dilations_of_ones(layer: Layer, ctx: Context) -> "Attrs | str":
    """An empty ``dilations`` (as openvino's Python builder writes AvgPool-16's): the op reads it as no dilation,
    one per spatial axis, and so does the CPU plugin once they are written."""
    kernel = _ints(layer.data.get("kernel"))
    if not kernel:
        return "its kernel cannot be read"
    return {"dilations": ", ".join("1" for _ in kernel)}


# a compile-stage feature (the key of irreshape.checks.plugin, matched on its first items) -> the rewrite that
# computes exactly what the layer computes and that the release's CPU plugin compiles (proved with each release's
# wheel by scripts/prove_compile_rewrites.py)
COMPILE_REWRITES: dict[tuple, Rewrite] = {
    ("attr-empty", "AvgPool", 16, "dilations"): Rewrite(
        "AvgPool", 16, "AvgPool", 16, _dilations_of_ones, note="an empty dilations attribute written as ones"),
    ("op", "Identity", 16): next(r for r in REWRITES[("Identity", 16)] if not r.to),
}


def compile_rewrite(key: tuple) -> Optional[Rewrite]:
    """The exact rewrite of a compile-stage feature, if one is known."""
    return COMPILE_REWRITES.get(key) or COMPILE_REWRITES.get(key[:3])


# -- choosing a form ----------------------------------------------------------------------------------------
@dataclass(slots=True)
class Choice:
    """How one layer is rewritten: the table entry (None: relabelled), its type and opset, its <data> changes."""

    rewrite: Optional[Rewrite]
    type: str
    opset: Optional[int]
    attrs: Attrs = field(default_factory=dict)
    expansion: Optional[Expansion] = None
    rename: Optional[str] = None  # the layer's new name (a release that wants names unique)


Reads = Callable[[str, int], bool]  # (op type, opset number) -> does every target read it


def choose(layer: Layer, ctx: Context, reads: Reads, unsafe: bool = False,
           only: Optional[Rewrite] = None, relabelled: bool = True) -> "Choice | str":
    """The form ``layer`` is rewritten to, or why it has none: the same op version in an older opset the targets
    read (unless ``relabelled`` is false: an attribute value is what they refuse), else the first table entry
    whose condition holds and whose form they read (``only``: that entry)."""
    found = resolve(layer.type, layer.version)
    if not isinstance(found, tuple):
        return "irreshape cannot tell which op version it is"
    op, version = found
    if only is None and relabelled:
        n = oldest_opset(op, version)  # this very op version, named by an older opset: the version attribute alone
        if n is not None and n != opset_number(layer.version) and reads(op, n):
            return Choice(None, layer.type, n)
    entries = REWRITES.get((op, version), ())
    if not entries:
        return f"no rewrite of {op}-{version} into an older op version is known"
    why = []
    for r in entries:
        if only is not None and r is not only:
            continue
        if not r.safe and not unsafe:
            why.append(f"{r.name} is close but not identical (rtol {r.tolerance[0]:g}, atol {r.tolerance[1]:g}): "
                       "only with --unsafe-fixes")
            continue
        attrs = r.when(layer, ctx)
        if isinstance(attrs, str):
            why.append(f"{r.name} does not compute {'nearly ' if not r.safe else ''}the same: {attrs}")
            continue
        if isinstance(attrs, Expansion):
            unread = [f"{n.type} of opset{n.opset}" for n in attrs.layers if not reads(n.type, n.opset)]
            if unread:
                why.append(f"{r.name}: the target does not read {unread[0]} either")
                continue
            return Choice(r, layer.type, None, {}, attrs)
        if r.to and not reads(r.to, r.opset):  # type: ignore[arg-type]
            why.append(f"{r.name}: the target does not read {r.to} of opset{r.opset} either")
            continue
        return Choice(r, r.to or layer.type, r.opset, attrs)
    return "; ".join(why) or f"no rewrite of {op}-{version}"


# -- the edits -----------------------------------------------------------------------------------------------
class _Refused(Exception):
    pass


_ATTR = re.compile(rb'(\s)([A-Za-z_][-A-Za-z0-9_.:]*)="([^"]*)"')


def _set_attrs(line: bytes, attrs: dict[str, Optional[str]]) -> bytes:
    """``line`` with each attribute of ``attrs`` given its new value, or removed (None); absent ones are left."""
    out, pos = [], 0
    for m in _ATTR.finditer(line):
        name = m.group(2).decode()
        if name not in attrs:
            continue
        new = attrs[name]
        out.append(line[pos:m.start()])
        if new is not None:
            out.append(m.group(1) + m.group(2) + b'="' + new.encode() + b'"')
        pos = m.end()
    return b"".join(out) + line[pos:]


def _line(lines: list[bytes], n: int) -> bytes:
    return lines[n - 1] if 0 < n <= len(lines) else b""


def _retag(layer: Layer, choice: Choice, lines: list[bytes]) -> list[Change]:
    """The layer's ``<layer>`` line with its new ``type`` and ``version``; its ``<data>`` line with the changes."""
    head = _line(lines, layer.line)
    if head.count(b"<layer") != 1:
        raise _Refused(f"line {layer.line} does not hold its <layer> tag alone")
    tag: Attrs = {"type": choice.type, "version": f"opset{choice.opset}"} if choice.opset is not None else {}
    if choice.rename is not None:
        from xml.sax.saxutils import escape

        tag["name"] = escape(choice.rename, {'"': "&quot;"})
    new = _set_attrs(head, tag)
    out = [Change(layer.line - 1, layer.line, [new])] if new != head else []
    changes = {k: v for k, v in choice.attrs.items() if layer.data.get(k) != v}
    if changes and any(k in layer.data for k in changes):
        first_port = min((p.line for p in (*layer.inputs, *layer.outputs)), default=layer.line + 2)
        n = next((k for k in range(layer.line, first_port) if b"<data" in _line(lines, k)), None)
        if n is None or n == layer.line or b"/>" not in _line(lines, n):
            raise _Refused("its <data> element is not alone on one line")
        data = _line(lines, n)
        out.append(Change(n - 1, n, [_set_attrs(data, changes)]))
    return out


_CLOSE_LAYER = re.compile(rb"^[ \t]*</layer>[ \t]*(?:\r\n|\r|\n)?\Z")
_CLOSE_ANY = re.compile(rb"^[ \t]*</(?:port|input|output)>[ \t]*(?:\r\n|\r|\n)?\Z")
_EDGE = re.compile(rb"^[ \t]*<edge\b[^<>]*/>[ \t]*(?:\r\n|\r|\n)?\Z")
_NAMES = re.compile(rb'( names=")([^"]*)(")')


def _bypass(layer: Layer, scope: IRModel, lines: list[bytes]) -> list[Change]:
    """An Identity taken out: its lines and its input edge removed, its consumers' edges from its producer, its
    output's tensor names joined to its producer's output port."""
    src = layer.inputs[0].source
    out_port = layer.outputs[0]
    producer = src.layer if src is not None else None
    if producer is None:
        raise _Refused("its input is fed by no layer")
    changes = [Change(layer.line - 1, _close_line(layer, lines), [])]
    plocal = producer.id.rsplit("/", 1)[-1]  # ids in a body's edges are its own, not path ids
    for e in scope.edges:
        line = _line(lines, e.line)
        if e.to_layer == layer.id or e.from_layer == layer.id:
            if not _EDGE.match(line):
                raise _Refused(f"line {e.line} does not hold its <edge> alone")
        if e.to_layer == layer.id:
            changes.append(Change(e.line - 1, e.line, []))
        elif e.from_layer == layer.id:
            if e.from_port != out_port.id:
                raise _Refused(f"an edge leaves port {e.from_port}, which it does not have")
            new = _set_attrs(line, {"from-layer": plocal, "from-port": src.id})  # type: ignore[union-attr]
            changes.append(Change(e.line - 1, e.line, [new]))
    names = _NAMES.search(_line(lines, out_port.line))
    if names and names.group(2):
        pline = _line(lines, src.line)  # type: ignore[union-attr]
        if pline.count(b"<port") != 1:
            raise _Refused(f"line {src.line} does not hold its producer's <port> tag alone")  # type: ignore[union-attr]
        have = _NAMES.search(pline)
        if have:
            joined = have.group(2) + b"," + names.group(2) if have.group(2) else names.group(2)
            pnew = pline[:have.start(2)] + joined + pline[have.end(2):]
        else:
            pnew = re.sub(rb'( precision="[^"]*")', lambda m: m.group(1) + b' names="' + names.group(2) + b'"',
                          pline, count=1)
            if pnew == pline:
                pnew = re.sub(rb"(<port\b[^<>/]*?)(\s*/?>)", lambda m: m.group(1) + b' names="' + names.group(2)
                              + b'"' + m.group(2), pline, count=1)
        changes.append(Change(src.line - 1, src.line, [pnew]))  # type: ignore[union-attr]
    return changes


def _indent(line: bytes) -> bytes:
    return line[:len(line) - len(line.lstrip(b" \t"))]


def _eol(line: bytes) -> bytes:
    return b"\r\n" if line.endswith(b"\r\n") else (b"\r" if line.endswith(b"\r") else b"\n")


def _close_line(layer: Layer, lines: list[bytes]) -> int:
    """The line of the layer's ``</layer>`` (1-based): after its ports' lines, nothing but closing tags between."""
    end = layer.end_line
    while end < len(lines) and _CLOSE_ANY.match(_line(lines, end + 1)):
        end += 1
    if not _CLOSE_LAYER.match(_line(lines, end + 1)):
        raise _Refused(f"its </layer> is not alone on line {end + 1}")
    return end + 1


def _port_lines(ports, ind: bytes, step: bytes, eol: bytes) -> list[bytes]:
    out = []
    for pid, precision, dims in ports:
        head = ind + b'<port id="%s" precision="%s"' % (pid.encode(), precision.encode())
        if not dims:
            out.append(head + b" />" + eol)
            continue
        out.append(head + b">" + eol)
        out += [ind + step + b"<dim>%d</dim>" % d + eol for d in dims]
        out.append(ind + b"</port>" + eol)
    return out


def _layer_lines(lid: str, name: str, n: NewLayer, ind: bytes, step: bytes, eol: bytes,
                 outputs: Optional[list[bytes]] = None) -> list[bytes]:
    from xml.sax.saxutils import quoteattr

    out = [ind + b'<layer id="%s" name=%s type="%s" version="opset%d">' % (
        lid.encode(), quoteattr(name).encode(), n.type.encode(), n.opset) + eol]
    if n.data:
        out.append(ind + step + b"<data " + b" ".join(b"%s=%s" % (k.encode(), quoteattr(v).encode())
                                                         for k, v in n.data.items()) + b" />" + eol)
    if n.inputs:
        out += [ind + step + b"<input>" + eol, *_port_lines(n.inputs, ind + step * 2, step, eol),
                ind + step + b"</input>" + eol]
    if outputs is not None:
        out += outputs
    elif n.outputs:
        out += [ind + step + b"<output>" + eol, *_port_lines(n.outputs, ind + step * 2, step, eol),
                ind + step + b"</output>" + eol]
    return out + [ind + b"</layer>" + eol]


def _expand(layer: Layer, x: Expansion, scope: IRModel, lines: list[bytes], offset: int,
            free: dict[int, int]) -> tuple[list[Change], bytes]:
    """The lines of a decomposition: the layer's lines become the new layers', its input edges are rewired, the
    new edges follow the last edge into it; the Consts' bytes to append to the .bin (from ``offset`` on). ``free``:
    id(graph) -> the next layer id no layer of it has (shared by the decompositions of one file)."""
    close = _close_line(layer, lines)
    head = _line(lines, layer.line)
    ind, eol = _indent(head), _eol(head)
    step = _indent(_line(lines, layer.line + 1))[len(ind):] or b"\t"
    first_out = min((p.line for p in layer.outputs), default=0)
    if not first_out or not _line(lines, first_out - 1).strip().startswith(b"<output"):
        raise _Refused("its <output> section is not laid out one tag a line")
    kept_outputs = lines[first_out - 2:close - 1]  # from <output> to </output>
    local = lambda lid: lid.rsplit("/", 1)[-1]  # noqa: E731  (ids in a body's edges are its own)
    nxt = free.get(id(scope))
    if nxt is None:
        taken = [int(local(la.id)) for la in (*scope.layers.values(), *scope.duplicates) if local(la.id).isdigit()]
        nxt = max(taken, default=0) + 1
    ids = {}
    for n in x.layers[:-1]:
        ids[n.key] = str(nxt)
        nxt += 1
    free[id(scope)] = nxt
    ids[x.layers[-1].key] = local(layer.id)
    payload = b""
    new_lines: list[bytes] = []
    for n in x.layers:
        if n.const is not None:
            n.data = {**n.data, "offset": str(offset + len(payload)), "size": str(len(n.const))}
            payload += n.const
        last = n is x.layers[-1]
        name = layer.name if last else f"{layer.name}/{n.key}"
        new_lines += _layer_lines(ids[n.key], name, n, ind, step, eol, kept_outputs if last else None)
    changes = [Change(layer.line - 1, close, new_lines)]
    last_in = None
    feeds: dict[str, tuple[str, str]] = {}
    for e in scope.edges:
        if e.to_layer != layer.id:
            continue
        feeds.setdefault(e.to_port, (local(e.from_layer), e.from_port))
        line = _line(lines, e.line)
        if not _EDGE.match(line):
            raise _Refused(f"line {e.line} does not hold its <edge> alone")
        key = x.rewire.get(e.to_port)
        if key is None:
            raise _Refused(f"its input port {e.to_port} has no place in the decomposition")
        if ids[key] != local(layer.id):
            changes.append(Change(e.line - 1, e.line, [_set_attrs(line, {"to-layer": ids[key]})]))
        last_in = e.line
    if last_in is None:
        raise _Refused("no edge leads into it")
    edge_line = _line(lines, last_in)
    e_ind, e_eol = _indent(edge_line), _eol(edge_line)
    added = [e_ind + b'<edge from-layer="%s" from-port="%s" to-layer="%s" to-port="%s" />' % (
        ids[a].encode(), ap.encode(), ids[b].encode(), bp.encode()) + e_eol for a, ap, b, bp in x.edges]
    for port, b, bp in x.fanout:
        if port not in feeds:
            raise _Refused(f"its input port {port} is fed by no edge")
        a, ap = feeds[port]
        added.append(e_ind + b'<edge from-layer="%s" from-port="%s" to-layer="%s" to-port="%s" />' % (
            a.encode(), ap.encode(), ids[b].encode(), bp.encode()) + e_eol)
    changes.append(Change(last_in, last_in, added))
    return changes, payload


def edits(layer: Layer, choice: Choice, model: IRModel, lines: list[bytes], offset: int = 0,
          free: Optional[dict[int, int]] = None) -> tuple[list[Change], bytes]:
    """The line changes of one layer's rewrite and the bytes it appends to the .bin (from ``offset``; ``free``, see
    _expand); raises _Refused with the reason the lines do not allow it."""
    if choice.expansion is not None:
        return _expand(layer, choice.expansion, model.scope(layer.id) or model, lines, offset,
                       free if free is not None else {})
    if choice.rewrite is not None and not choice.rewrite.to:
        return _bypass(layer, model.scope(layer.id) or model, lines), b""
    return _retag(layer, choice, lines), b""


# -- a file -----------------------------------------------------------------------------------------------
Judge = Callable[[IRModel], dict[str, list]]  # model -> {layer id: the reasons the targets refuse it}


@dataclass(slots=True)
class Downgrade:
    """What the targets refuse in a file and how it is rewritten: the line changes, the layers fixed, the ones
    left (with the reason); ``rewrites`` names the table entry used per layer id."""

    plan: Plan
    rewrites: dict[str, str] = field(default_factory=dict)
    append: bytes = b""  # the new Consts' bytes, to append to the .bin


def plan_layers(lines: list[bytes], model: IRModel, wanted: Iterable[tuple[Layer, "Choice | str"]],
                reserved: frozenset[int] = frozenset()) -> Downgrade:
    """The line changes for layers whose form is chosen (a str: the reason it has none, kept as a refusal).
    ``reserved``: lines (0-based) another fix rewrites; a layer's rewrite may only remove them."""
    out = Downgrade(Plan())
    taken: set[int] = set()
    changes: list[Change] = []
    size = None
    free: dict[int, int] = {}  # the next free layer id of each graph, as decompositions take them
    for layer, choice in wanted:
        if isinstance(choice, str):
            out.plan.refused.append(Refusal(layer.ref, choice))
            continue
        try:
            if choice.expansion is not None and size is None:
                try:
                    size = os.path.getsize(model.bin_path)
                except OSError:
                    raise _Refused("its new constants go to the .bin, which cannot be read") from None
            made, payload = edits(layer, choice, model, lines, (size or 0) + len(out.append), free)
            span = {i for c in made for i in range(c.start, c.end)}  # (an insertion claims no line)
            if span & taken:
                raise _Refused("its lines are also rewritten for another layer")
            kept = {i for c in made if c.new for i in range(c.start, c.end)}
            if kept & reserved:
                raise _Refused("its lines are also rewritten by the dims fix: run the fix again")
        except _Refused as r:
            out.plan.refused.append(Refusal(layer.ref, str(r)))
            continue
        taken |= span
        changes += made
        out.append += payload
        out.plan.fixed.append(layer.ref)
        out.rewrites[layer.id] = choice.rewrite.name if choice.rewrite else (
            f"{layer.type} {layer.version} -> opset{choice.opset}" if choice.opset is not None
            else f"renamed {choice.rename!r}")
    out.plan.changes = sorted(changes, key=lambda c: (c.start, c.end))
    return out


def downgrade(lines: list[bytes], model: IRModel, targets: tuple[str, ...], unsafe: bool = False,
              skip: Callable[[str], bool] = lambda lid: False, judge: Optional[Judge] = None,
              reads: Optional[Reads] = None, reserved: frozenset[int] = frozenset()) -> Downgrade:
    """Rewrite what ``targets`` refuse in the file of ``lines`` (``model`` read from it); the result is judged
    again and a layer still refused is dropped from the fix (with the reason). ``judge`` and ``reads`` default to
    the release tables (:mod:`irreshape.shapes.targets`)."""
    judge = judge or (lambda m: _refused(m, targets))
    reads = reads or _reader(targets)
    refused = judge(model)
    ctx = Context(model)
    try:
        layers = {la.id: la for la in model.every_layer()}
        wanted: list[tuple[Layer, Union[Choice, str]]] = []
        other: list[Refusal] = []
        for lid, why in refused.items():
            layer = layers.get(lid)
            if layer is None or skip(lid):
                continue
            kinds = {getattr(r, "kind", "op") for r in why}
            if kinds == {"name"}:  # the release wants unique layer names: the later one renamed
                wanted.append((layer, _rename(layer, model)))
                continue
            if kinds == {"compile"}:  # its CPU plugin refuses it: an exact form, or the reason there is none
                wanted.append((layer, _compile_choice(layer, ctx, why)))
                continue
            if kinds - {"opset", "op", "value"}:
                blockers = [r for r in why if getattr(r, "kind", "op") not in ("opset", "op", "value")]
                whats = ", ".join(dict.fromkeys(getattr(r, "what", "") or getattr(r, "kind", "") for r in blockers))
                release = getattr(blockers[0], "release", "the target")
                other.append(Refusal(layer.ref, f"{release} does not read {whats}, and no rewrite changes that "
                                                f"({_words(blockers[0])})"))
                continue
            choice = choose(layer, ctx, reads, unsafe, relabelled="value" not in kinds)
            if isinstance(choice, str):
                choice = f"{_words(why[0], what=True)}: {choice}"
            wanted.append((layer, choice))
    finally:
        ctx.close()
    out = plan_layers(lines, model, wanted, reserved)
    out.plan.refused[:0] = other
    for _ in range(len(wanted) + 1):  # judged again: a layer still refused is not fixed
        if not out.plan.changes:
            break
        still = _still_refused(lines, out.plan, model.path, judge)
        # a layer a decomposition added is refused: every decomposition goes (their new ids name no layer here)
        added = [why for lid, why in still.items() if lid and lid not in layers]
        drop = {ref.id for ref in out.plan.fixed if ref.id in still}
        if added:
            drop |= {la.id for la, c in wanted if isinstance(c, Choice) and c.expansion is not None}
        if not drop:
            break
        kept = [(la, c) for la, c in wanted if la.id not in drop]
        kept += [(la, "the rewritten layer is still refused: " + _words((still.get(la.id) or added[0])[0]))
                 for la, _ in wanted if la.id in drop]
        out = plan_layers(lines, model, kept, reserved)
        out.plan.refused[:0] = other
    return out


def join(lines: list[bytes], result: FileResult, plan: Plan, targets: tuple[str, ...], unsafe: bool,
         skip: Callable[[str], bool]) -> None:
    """``--fix --target``: the rewrites of what ``targets`` refuse in the file of ``result``, joined to the dims
    fixer's ``plan`` (one diff, one write): a dims change inside a layer removed goes with it."""
    from .openvino import model_of

    model = model_of(result, plan)
    if model is None:
        return
    reserved = frozenset(i for c in plan.changes for i in range(c.start, max(c.end, c.start + 1)))
    done = downgrade(lines, model, targets, unsafe, skip, reserved=reserved)
    down = done.plan
    plan.append += done.append
    removed = {i for c in down.changes if not c.new for i in range(c.start, c.end)}
    plan.changes = sorted([c for c in plan.changes if not set(range(c.start, max(c.end, c.start + 1))) <= removed]
                          + down.changes, key=lambda c: (c.start, c.end))
    plan.fixed += [ref for ref in down.fixed if ref not in plan.fixed]
    plan.refused += down.refused


def _graphs(model: IRModel) -> Iterable[IRModel]:
    yield model
    for layer in (*model.layers.values(), *model.duplicates):
        for body in layer.bodies:
            yield from _graphs(body.model)


def _compile_choice(layer: Layer, ctx: Context, why: list) -> "Choice | str":
    """The exact form of a layer a target's CPU plugin refuses (:data:`COMPILE_REWRITES`), or why it has none."""
    keys = {r.refusal.key for r in why}
    rewrites = {compile_rewrite(k) for k in keys}
    first = why[0]
    said = f"{first.release}'s CPU plugin refuses {first.what} ({first.message or 'the process dies'})"
    if None in rewrites or len(rewrites) != 1:
        return f"{said}, and no exact rewrite is known"
    r = rewrites.pop()
    attrs = r.when(layer, ctx)  # type: ignore[union-attr]
    if isinstance(attrs, str):
        return f"{said}: {r.name} does not compute the same: {attrs}"  # type: ignore[union-attr]
    return Choice(r, r.to or layer.type, opset_number(layer.version) if r.to else None, attrs)


def _rename(layer: Layer, model: IRModel) -> "Choice | str":
    """A layer whose name another of its graph has: renamed ``name_<id>`` (made unique), which changes nothing it
    computes; not a Parameter or Result, whose names a program may look up."""
    if layer.kind in ("parameter", "result"):
        return "its name is also another layer's, and a Parameter or Result is not renamed (a program may use it)"
    scope = model.scope(layer.id) or model
    names = {la.name for la in (*scope.layers.values(), *scope.duplicates)}
    new, k = f"{layer.name}_{layer.id.rsplit('/', 1)[-1]}", 1
    while new in names:
        new, k = f"{layer.name}_{layer.id.rsplit('/', 1)[-1]}_{k}", k + 1
    return Choice(None, layer.type, None, rename=new)


def _words(r, what: bool = False) -> str:
    """A target's refusal as the notes give it: the release and its words (``what``: what it refuses)."""
    release = getattr(r, "release", None)
    msg = (getattr(r, "what", None) and f"does not read {r.what}") if what else None
    msg = msg or getattr(r, "message", None) or str(r)
    return f"{release} {msg}" if what and release else (f"{release}: {msg}" if release else msg)


def _still_refused(lines: list[bytes], plan: Plan, path: str, judge: Judge) -> dict[str, list]:
    """The target's refusals of the rewritten file (read from a temporary copy beside the original)."""
    from ..frontends.openvino import parse

    data = apply(lines, plan.changes)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".irreshape-", suffix=".xml", dir=folder)
    except OSError:
        fd, tmp = tempfile.mkstemp(prefix=".irreshape-", suffix=".xml")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return judge(parse(tmp))
    finally:
        os.unlink(tmp)


# -- the release tables ------------------------------------------------------------------------------------
def _refused(model: IRModel, targets: tuple[str, ...]) -> dict[str, list]:
    """{layer id: the refusals naming it} of every target, a file-level refusal under "": what its reader
    refuses, else (a file it reads) what its CPU plugin does."""
    from ..shapes import compiles
    from ..shapes import targets as known

    out: dict[str, list] = {}
    features = None
    for release in targets:
        read = known.refusals(model, release)
        for r in read:
            out.setdefault(r.layer.id if r.layer is not None else "", []).append(_Release(release, r))
        if not read:
            if features is None:
                features = _features(model)
            for c in compiles.refusals(features, release):
                out.setdefault(c.layer.id, []).append(_Release(release, c))
    return out


def _features(model: IRModel) -> list:
    """What the model holds that a CPU plugin may refuse (the check's reading of it)."""
    from ..checks.openvino import check_model
    from ..core.findings import GRAPH, TARGETS
    from ..core.results import Options

    return check_model(model, Options(analyses=frozenset({GRAPH, TARGETS}))).features


@dataclass(frozen=True, slots=True)
class _Release:
    """A target's refusal, with the release that refuses."""

    release: str
    refusal: object

    @property
    def kind(self) -> str:
        from ..shapes.compiles import CompileRefusal

        return "compile" if isinstance(self.refusal, CompileRefusal) else getattr(self.refusal, "kind", "")

    @property
    def message(self) -> str:
        return getattr(self.refusal, "message", "")

    @property
    def what(self) -> str:
        return getattr(self.refusal, "what", "")


def _reader(targets: tuple[str, ...]) -> Reads:
    """Does every target read op ``op`` from opset ``n``: the release tables' first release of each."""
    from ..shapes import releases

    index = [releases.RELEASES.index(t) for t in targets]

    def reads(op: str, n: int) -> bool:
        first = max(releases.OPSET_SINCE.get(n, 0), releases.OP_SINCE.get((n, op), 0))
        return all(i >= first for i in index)
    return reads


def describe() -> list[str]:
    """The table as the README's markdown rows: op version, older form, condition, exact or the tolerance."""
    rows = []
    for entries in REWRITES.values():
        for r in entries:
            form = r.to if r.decomposed else (f"{r.to}-{r.to_version} (`opset{r.opset}`)" if r.to else "removed")
            how = "exact" if r.safe else f"`--unsafe-fixes`: rtol {r.tolerance[0]:g}, atol {r.tolerance[1]:g}"
            rows.append(f"| {r.op}-{r.version} | {form} | {r.note} | {how} |")
    return rows

