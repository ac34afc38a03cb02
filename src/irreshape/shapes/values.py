"""Integer tensors with per-element bounds, and the ops of shape subgraphs, the way OpenVINO bounds them.

Pure functions (no XML). A :class:`Tensor` holds, for every element, the lower and the upper value
OpenVINO's ``evaluate_lower`` / ``evaluate_upper`` produce, stored as the raw integers of the element
type (an i64 ``?`` dim is ``(0, INT64_MAX)``, a u64 -1 is ``2**64-1``). The two bounds are computed
separately and with the element type's wrap-around arithmetic, as OpenVINO does (2026.4.1):

* ``ShapeOf``: min and max dim lengths (an unbounded dim gives INT64_MAX; i32 output clamps to INT32_MAX).
* ``Add``/``Subtract``/``Multiply``/``Maximum``/``Minimum`` (``interval_bound_evaluator``): the op on the
  four lower/upper combinations, min and max of them; where any input bound is its type's maximum
  the result is ``(0, max)``.
* ``Divide``: its own rule (lower = lo/hi, upper = hi/lo for a positive divisor, ...).
* ``Gather``/``Concat``/``(Un)Squeeze``/``Slice``/``StridedSlice``/``Broadcast``/``Reshape``/``Split``/
  ``VariadicSplit``: the op on each bound separately, provided the index-like inputs are constants.
* ``Convert``: each bound converted, a type maximum staying the maximum for types wider than 16 bits.
* ``ReduceProd``: the product of each bound; a maximum among the upper bounds stays maximum.
* ``Power`` (integer or f32) follows ``interval_bound_evaluator`` like ``Multiply``.
* f32 tensors (a dim converted to f32, divided and converted back) follow the same rules with float
  arithmetic; a float-to-integer ``Convert`` truncates toward 0.
* ``Equal``: true below where all four bounds are equal, true above where the intervals meet.
* ``Abs`` (``abs::evaluate_bound``): the op on each bound, the smaller result the lower bound.
* ``Select`` (the condition exact), ``Clamp``, ``Tile``, ``Pad``, ``ReduceMax``/``ReduceMin`` and the
  ``Scatter*Update`` ops (index-like inputs exact): the op on each bound separately.
* Any other op with a reference evaluation (``Floor``, ``Ceiling``, ``Negative``, ``Sqrt``, ``Sign``, the
  comparisons and logical ops, ``ReduceSum``/``ReduceMean``, ``Range``) follows ``Node::evaluate_lower``'s
  default: it is evaluated only when every input's bounds are exact (``has_and_set_bound``), else no bounds.
* With constant inputs, OpenVINO keeps the lower result as both bounds (the caller applies this).

When OpenVINO's evaluation fails, it fails for the whole subgraph, and a Reshape then gets no pattern
at all (every output dim ``?``): :class:`NoBounds`. Where OpenVINO throws instead (an integer division
by an exact 0), it cannot build or read the model: :class:`Rejected`. Where irreshape cannot tell what
OpenVINO does: :class:`Unsupported`.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Callable, Sequence
from ..core import etypes
from ..core.records import Frozen

MAX_ELEMENTS = 1 << 16  # a shape tensor longer than this is not a shape: irreshape does not build it

INT_RANGES: dict[str, tuple[int, int]] = {
    "i8": (-(1 << 7), (1 << 7) - 1), "i16": (-(1 << 15), (1 << 15) - 1),
    "i32": (-(1 << 31), (1 << 31) - 1), "i64": (-(1 << 63), (1 << 63) - 1),
    "u8": (0, (1 << 8) - 1), "u16": (0, (1 << 16) - 1), "u32": (0, (1 << 32) - 1), "u64": (0, (1 << 64) - 1),
    "boolean": (0, 1),  # what comparisons give (a Select's condition)
}
# float tensors (``Convert`` to f32 and back, as exporters write ``x / 2`` and ``x ** 0.5`` on a dim): the
# largest finite value, and the `struct` code that rounds a Python float to the type
FLOAT_TYPES: dict[str, tuple[float, str]] = {"f16": (65504.0, "e"), "f32": (3.4028234663852886e38, "f"),
                                             "f64": (1.7976931348623157e308, "d")}


class NoBounds(Exception):
    """OpenVINO's bound evaluation fails here, so the whole subgraph has no value for it."""


class Unsupported(Exception):
    """irreshape cannot tell what OpenVINO computes here."""


class Rejected(Exception):
    """OpenVINO throws while it evaluates the bounds, so it refuses to build (or read) the graph."""


def wrap(v: float, et: str) -> float:
    """``v`` as the C++ type ``et`` holds it (two's complement wrap-around; a float rounded, inf saturated)."""
    if et in FLOAT_TYPES:
        top, code = FLOAT_TYPES[et]
        if abs(v) > top:
            return math.copysign(top, v)
        return struct.unpack(code, struct.pack(code, v))[0]
    lo, hi = INT_RANGES[et]
    span = hi - lo + 1
    return (v - lo) % span + lo


_TINY = {"f16": 2.0 ** -14, "f32": 2.0 ** -126, "f64": 2.0 ** -1022}  # each float type's least positive normal


def type_max(et: str) -> float:
    return FLOAT_TYPES[et][0] if et in FLOAT_TYPES else INT_RANGES[et][1]


def type_min(et: str) -> float:
    return -FLOAT_TYPES[et][0] if et in FLOAT_TYPES else INT_RANGES[et][0]


def numel(shape: Sequence[int]) -> int:
    return math.prod(shape)


class Tensor(Frozen):
    """An integer tensor: element type, shape and, per element (row-major), its lower and upper value. ``raw``:
    a Const of a type of :data:`RAW_TYPES` only: what shape inference's ``get_raw_data_as`` reads of its buffer
    (i4/u4/nf4 a signed byte per element, bf16 its float), None where irreshape cannot tell; ``lo``/``hi`` are then
    the values the element iterator unpacks (a Convert's input), empty where irreshape does not unpack them."""

    __slots__ = FIELDS = ("et", "shape", "lo", "hi", "raw")
    et: str
    shape: tuple[int, ...]
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    raw: tuple | None

    def __init__(self, et: str, shape: tuple[int, ...], lo: tuple[int, ...], hi: tuple[int, ...],
                 raw: tuple | None = None) -> None:
        self._fill(et, shape, lo, hi, raw)

    @property
    def is_const(self) -> bool:
        """``has_and_set_bound``: OpenVINO holds one tensor for both bounds."""
        return self.lo == self.hi

    def with_bounds(self, lo: Sequence[int], hi: Sequence[int], shape: Sequence[int] | None = None,
                    et: str | None = None) -> Tensor:
        return Tensor(et or self.et, tuple(self.shape if shape is None else shape), tuple(lo), tuple(hi))


RAW_TYPES = etypes.RAW_READ  # the Const types besides INT_RANGES and FLOAT_TYPES whose values irreshape reads
# the types ``get_raw_data_as`` refuses, of every tensor (a Const's, or one folded from a subgraph): "Element not
# supported", measured on Transpose, Reshape, Unsqueeze and Range (a string Const, where its bytes are no packed strings,
# is refused even before); where irreshape has no value for such a Const, its consumer is refused
RAW_REFUSED = frozenset({t for t, r in RAW_TYPES.items() if r is None} | {"boolean", "string"})


def raw_const(et: str, shape: Sequence[int], values: Sequence[float] | None, raw: Sequence[float] | None) -> Tensor:
    """A Const of a type of :data:`RAW_TYPES`: ``values`` as the element iterator unpacks them (None: not known) and
    ``raw`` as ``get_raw_data_as`` reads the buffer (None: not known)."""
    vals = () if values is None else tuple(values)
    return Tensor(et, tuple(shape), vals, vals, None if raw is None else tuple(raw))


def raw_read(t: Tensor) -> Tensor | None:
    """``get_raw_data_as`` on ``t``: ``t`` itself for the types it reads element by element, for a Const of
    :data:`RAW_TYPES` the bytes it reads instead, as the type it reads them as; None where irreshape cannot tell what
    it reads. Raises :class:`Rejected` where OpenVINO refuses the type."""
    if t.et in RAW_REFUSED:
        raise Rejected("Element not supported")
    as_type = RAW_TYPES.get(t.et, "")
    if as_type == "":
        return t
    if t.raw is None:
        return None
    return Tensor(as_type, t.shape, t.raw, t.raw)


def const(et: str, shape: Sequence[int], values: Sequence[float]) -> Tensor:
    if et not in INT_RANGES and et not in FLOAT_TYPES:
        raise Unsupported(f"element type {et} (irreshape evaluates integer and f16/f32/f64 tensors only)")
    vals = tuple(wrap(v, et) for v in values)
    return Tensor(et, tuple(shape), vals, vals)


def _need_const(*tensors: Tensor) -> None:
    if not all(t.is_const for t in tensors):
        raise NoBounds("an input that must be constant is not")


def _ints(t: Tensor, what: str) -> list[int]:
    _need_const(t)
    if t.et not in INT_RANGES:
        raise Unsupported(f"{what} of type {t.et}")
    if len(t.shape) > 1:
        raise Unsupported(f"{what} of rank {len(t.shape)}")
    return [wrap(v, "i64") for v in t.lo]  # read as int64 like OpenVINO's get_tensor_data_as<int64_t>


def _axis(a: int, rank: int, what: str = "axis") -> int:
    if not -rank <= a < max(rank, 1) and not (rank == 0 and a in (0, -1)):
        raise Unsupported(f"{what} {a} out of range for rank {rank}")
    return a + rank if a < 0 else a


def _split(shape: Sequence[int], axis: int) -> tuple[int, int, int]:
    return numel(shape[:axis]), shape[axis], numel(shape[axis + 1:])


# -- producers -------------------------------------------------------------------------------------
def shape_of(dims: Sequence[tuple[int, int]] | None, et: str) -> Tensor:
    """``ShapeOf`` of a tensor with these ``(min, max)`` dim lengths (max ``INT64_MAX``: unbounded)."""
    if dims is None:
        raise NoBounds("ShapeOf of a dynamic-rank tensor")
    if et not in ("i32", "i64"):
        raise Unsupported(f"ShapeOf output_type {et}")
    lo = [d[0] for d in dims]
    hi = [d[1] for d in dims]
    if et == "i32":
        cap = type_max("i32")
        lo = [0 if v >= cap else v for v in lo]
        hi = [min(cap, v) for v in hi]
    return Tensor(et, (len(dims),), tuple(lo), tuple(hi))


# -- data movement ---------------------------------------------------------------------------------
def _each_bound(t: Tensor, fn: Callable[[tuple[int, ...]], tuple[list[int], Sequence[int]]]) -> Tensor:
    lo, shape = fn(t.lo)
    hi, _ = fn(t.hi)
    return t.with_bounds(lo, hi, shape)


def gather(data: Tensor, indices: Tensor, axis: Tensor, batch_dims: int = 0, negative_ok: bool = True) -> Tensor:
    if batch_dims != 0:
        raise Unsupported(f"Gather with batch_dims={batch_dims}")
    _check_type("gather", data.et)
    _need_const(indices, axis)
    if indices.et not in INT_RANGES:  # OpenVINO refuses such a Gather (its type rule) before it evaluates anything
        raise Unsupported(f"Gather indices of type {indices.et}")
    if not data.shape:
        raise Unsupported("Gather of a scalar")  # OpenVINO's shape inference rejects it first
    ax = _axis(_ints(axis, "axis")[0], len(data.shape))
    outer, n, inner = _split(data.shape, ax)
    idx: list[int | None] = []
    for i in indices.lo:
        i = wrap(i, "i64")
        if i < 0 and negative_ok:
            i += n
        idx.append(i if 0 <= i < n else None)  # OpenVINO's reference reads an index out of range as zeros
    shape = data.shape[:ax] + indices.shape + data.shape[ax + 1:]

    def take(flat: tuple[int, ...]) -> tuple[list[int], Sequence[int]]:
        out = []
        for o in range(outer):
            for i in idx:
                if i is None:
                    out.extend([0] * inner)
                    continue
                base = (o * n + i) * inner
                out.extend(flat[base:base + inner])
        return out, shape
    return _each_bound(data, take)


def concat(items: Sequence[Tensor], axis: int) -> Tensor:
    first = items[0]
    rank = len(first.shape)
    ax = _axis(axis, rank)
    if any(len(t.shape) != rank or t.shape[:ax] + t.shape[ax + 1:] != first.shape[:ax] + first.shape[ax + 1:]
           for t in items):
        raise Unsupported("Concat of tensors with incompatible shapes")
    outer = numel(first.shape[:ax])
    shape = first.shape[:ax] + (sum(t.shape[ax] for t in items),) + first.shape[ax + 1:]

    def join(which: str) -> list[int]:
        out: list[int] = []
        for o in range(outer):
            for t in items:
                chunk = numel(t.shape[ax:])
                out.extend(getattr(t, which)[o * chunk:(o + 1) * chunk])
        return out
    et = first.et
    return Tensor(et, shape, tuple(join("lo")), tuple(join("hi")))


def unsqueeze(data: Tensor, axes: Tensor) -> Tensor:
    _need_const(axes)
    rank = len(data.shape) + len(axes.lo)
    where = sorted({_axis(a, rank) for a in _ints(axes, "axes")})
    if len(where) != len(axes.lo):
        raise Unsupported("Unsqueeze with repeated axes")
    shape = list(data.shape)
    for a in where:
        shape.insert(a, 1)
    return data.with_bounds(data.lo, data.hi, shape)


def squeeze(data: Tensor, axes: Tensor | None) -> Tensor:
    rank = len(data.shape)
    if axes is None:
        drop = {i for i, n in enumerate(data.shape) if n == 1}
    else:
        _need_const(axes)
        drop = {_axis(a, rank) for a in _ints(axes, "axes")}
        if any(data.shape[a] != 1 for a in drop):
            raise Unsupported("Squeeze of an axis that is not 1")
    shape = [n for i, n in enumerate(data.shape) if i not in drop]
    return data.with_bounds(data.lo, data.hi, shape)


def transpose(data: Tensor, order: Tensor) -> Tensor:
    """``Transpose-1`` bounds: each bound transposed, provided the order is a constant (an empty order
    reverses the axes), as ONNX's Pad does to its ``[2, rank]`` pads."""
    _need_const(order)
    rank = len(data.shape)
    perm = _ints(order, "order") or list(range(rank))[::-1]
    if sorted(perm) != list(range(rank)):
        raise Unsupported(f"Transpose order {perm} for rank {rank}")
    shape = tuple(data.shape[p] for p in perm)
    strides = [numel(data.shape[i + 1:]) for i in range(rank)]
    at = [sum(c * strides[p] for c, p in zip(coord, perm)) for coord in itertools.product(*map(range, shape))]
    return data.with_bounds([data.lo[i] for i in at], [data.hi[i] for i in at], shape)


def split(data: Tensor, axis: Tensor, parts: int | Tensor) -> list[Tensor]:
    """``Split-1`` (``parts`` equal parts) or ``VariadicSplit-1`` (``parts`` the lengths, one may be -1):
    every output, each bound split on its own, provided the axis (and lengths) are constants."""
    _need_const(axis, *(() if isinstance(parts, int) else (parts,)))
    ax = _axis(_ints(axis, "axis")[0], len(data.shape))
    n = data.shape[ax]
    if isinstance(parts, int):
        if not 0 < parts < 1 << 31 or n % parts:  # num_splits is a size_t
            raise Unsupported(f"Split of a dim of {n} into {parts} parts")
        lengths = [n // parts] * parts
    else:
        lengths = _ints(parts, "split_lengths")
        if lengths.count(-1) == 1:
            lengths[lengths.index(-1)] = n - sum(v for v in lengths if v != -1)
        if any(v < 0 for v in lengths) or sum(lengths) != n:
            raise Unsupported(f"VariadicSplit lengths {lengths} for a dim of {n}")
    out, start = [], 0
    for k in lengths:
        plan: list[range | None] = [None] * len(data.shape)
        plan[ax] = range(start, start + k)
        out.append(_slice_axes(data, plan, data.shape[:ax] + (k,) + data.shape[ax + 1:]))
        start += k
    return out


def reshape(data: Tensor, pattern: Tensor, special_zero: bool) -> Tensor:
    _need_const(pattern)
    vals = _ints(pattern, "pattern")
    shape = [data.shape[i] if (special_zero and v == 0 and i < len(data.shape)) else v for i, v in enumerate(vals)]
    if shape.count(-1) > 1 or any(v < -1 for v in shape):
        raise Unsupported("an invalid Reshape pattern inside the shape subgraph")
    if -1 in shape:
        rest = numel(v for v in shape if v != -1)
        if rest == 0 or numel(data.shape) % rest:
            raise Unsupported("an invalid Reshape pattern inside the shape subgraph")
        shape[shape.index(-1)] = numel(data.shape) // rest
    if numel(shape) != numel(data.shape):
        raise Unsupported("a Reshape inside the shape subgraph changes the element count")
    return data.with_bounds(data.lo, data.hi, shape)


def broadcast(data: Tensor, target: Tensor, mode: str = "numpy", axes_mapping: Tensor | None = None) -> Tensor:
    _need_const(target)
    _check_type("broadcast", data.et)
    tgt = _ints(target, "target_shape")
    mode = mode.lower()
    if mode == "explicit":
        if axes_mapping is None:
            raise Unsupported("explicit Broadcast without axes_mapping")
        _need_const(axes_mapping)
        amap = _ints(axes_mapping, "axes_mapping")
        if len(amap) != len(data.shape):
            raise Unsupported("Broadcast axes_mapping does not match the data rank")
        src = [1] * len(tgt)
        for a, n in zip(amap, data.shape):
            src[a] = n
        data = data.with_bounds(data.lo, data.hi, src)
        out = tgt
    elif mode in ("numpy", "bidirectional"):
        out = _broadcast_shape(data.shape, tgt) if mode == "bidirectional" else list(tgt)
        if mode == "numpy" and _broadcast_shape(data.shape, tgt) != list(tgt):
            raise Unsupported("numpy Broadcast to a smaller shape")
    else:
        raise Unsupported(f"Broadcast mode {mode!r}")
    if numel(out) > MAX_ELEMENTS:
        raise Unsupported(f"a Broadcast to {numel(out)} elements, too many for a shape")
    index = _broadcast_index(data.shape, out)
    return data.with_bounds([data.lo[i] for i in index], [data.hi[i] for i in index], out)


def _broadcast_shape(a: Sequence[int], b: Sequence[int]) -> list[int]:
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + list(a)
    b = [1] * (n - len(b)) + list(b)
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise Unsupported(f"shapes {list(a)} and {list(b)} do not broadcast")
        out.append(y if x == 1 else x)
    return out


def _broadcast_index(shape: Sequence[int], out: Sequence[int]) -> list[int]:
    """For each element of ``out`` (row-major), the flat index in a tensor of ``shape`` broadcast to it."""
    shape = [1] * (len(out) - len(shape)) + list(shape)
    index = [0]
    for n, m in zip(shape, out):
        index = [i * n + (j if n != 1 else 0) for i in index for j in range(m)]
    return index


def _slice_axes(data: Tensor, plan: Sequence[range | None], new_shape: Sequence[int]) -> Tensor:
    """Take ``plan[a]`` (a range of indices, or None for all) on every axis ``a``."""
    index = [0]
    for a, n in enumerate(data.shape):
        r = plan[a] if plan[a] is not None else range(n)
        index = [i * n + j for i in index for j in r]
    return data.with_bounds([data.lo[i] for i in index], [data.hi[i] for i in index], new_shape)


def slice_(data: Tensor, start: Tensor, stop: Tensor, step: Tensor, axes: Tensor | None = None) -> Tensor:
    """``Slice-8`` (numpy slicing semantics)."""
    _need_const(start, stop, step, *(() if axes is None else (axes,)))
    starts, stops, steps = _ints(start, "start"), _ints(stop, "stop"), _ints(step, "step")
    rank = len(data.shape)
    ax = [_axis(a, rank) for a in _ints(axes, "axes")] if axes is not None else list(range(len(starts)))
    if not len(ax) == len(starts) == len(stops) == len(steps) or 0 in steps:
        raise Unsupported("Slice with inconsistent start/stop/step/axes")
    plan: list[range | None] = [None] * rank
    for a, b, e, s in zip(ax, starts, stops, steps):
        plan[a] = range(*slice(b, e, s).indices(data.shape[a]))
    shape = [len(plan[a]) if plan[a] is not None else n for a, n in enumerate(data.shape)]
    return _slice_axes(data, plan, shape)


def strided_slice(data: Tensor, begin: Tensor, end: Tensor, strides: Tensor | None,
                  begin_mask: Sequence[int], end_mask: Sequence[int], new_axis_mask: Sequence[int] = (),
                  shrink_axis_mask: Sequence[int] = (), ellipsis_mask: Sequence[int] = ()) -> Tensor:
    """``StridedSlice-1`` without ellipsis: begin/end masks, new and shrink axes."""
    if any(ellipsis_mask):
        raise Unsupported("StridedSlice with an ellipsis_mask")
    _need_const(begin, end, *(() if strides is None else (strides,)))
    b, e = _ints(begin, "begin"), _ints(end, "end")
    s = _ints(strides, "strides") if strides is not None else [1] * len(b)
    if not len(b) == len(e) == len(s) or 0 in s:
        raise Unsupported("StridedSlice with inconsistent begin/end/strides")

    def bit(mask: Sequence[int], i: int) -> bool:
        return i < len(mask) and mask[i] == 1

    plan: list[range | None] = [None] * len(data.shape)
    shape: list[int] = []
    axis = 0
    for i in range(len(b)):
        if bit(new_axis_mask, i):
            shape.append(1)
            continue
        if axis >= len(data.shape):
            raise Unsupported("StridedSlice with more slices than the data rank")
        n = data.shape[axis]
        if bit(shrink_axis_mask, i):
            k = b[i] + n if b[i] < 0 else b[i]
            if not 0 <= k < n:
                raise Unsupported("StridedSlice shrink index out of range")
            plan[axis] = range(k, k + 1)
        else:
            r = range(*slice(None if bit(begin_mask, i) else b[i], None if bit(end_mask, i) else e[i],
                             s[i]).indices(n))
            plan[axis] = r
            shape.append(len(r))
        axis += 1
    shape.extend(data.shape[axis:])
    return _slice_axes(data, plan, shape)


# -- arithmetic ------------------------------------------------------------------------------------
def _c_div(x: int, y: int, pythondiv: bool) -> int:
    if y == 0:
        raise Unsupported("an integer division by zero")
    q = abs(x) // abs(y)
    if (x < 0) != (y < 0):
        q = -q
        if pythondiv and q * y != x:
            q -= 1
    return q


def _power(x: float, y: float) -> float:
    if isinstance(x, int) and isinstance(y, int):
        if y < 0:
            raise Unsupported("an integer Power with a negative exponent")
        if y > 64 and abs(x) > 1:
            raise Unsupported("an integer Power that overflows")
        return x ** y
    try:
        r = math.pow(x, y)
    except (ValueError, OverflowError) as e:
        raise Unsupported(f"Power {x} ** {y} ({e})") from None
    return r


def _floor_mod(x: float, y: float) -> float:
    """``FloorMod`` on integers: the remainder takes the divisor's sign (Python's ``%``)."""
    if y == 0:
        raise Unsupported("FloorMod by zero")
    return x % y


OPS: dict[str, Callable[[float, float], float]] = {
    "add": lambda x, y: x + y,
    "subtract": lambda x, y: x - y,
    "multiply": lambda x, y: x * y,
    "maximum": max,
    "minimum": min,
    "power": _power,
    "floormod": _floor_mod,
}
# element types on which OpenVINO's `evaluate` works for each op (measured on 2026.4.1); on others the
# bound evaluation fails. On i16/u16 OpenVINO's arithmetic bounds are unreliable (uninitialised memory).
_WIDE = frozenset({"i32", "i64", "u32", "u64"})
_F32 = frozenset({"f32", "f16"})  # f16 bounds like f32 (measured); f64 arithmetic is not: left unsupported
EVAL_TYPES: dict[str, frozenset[str]] = {
    "add": _WIDE | _F32 | {"i8", "u8"},
    "subtract": _WIDE | _F32 | {"i8", "u8"},
    "multiply": _WIDE | _F32,
    "divide": _WIDE | _F32,
    "maximum": _WIDE | _F32,
    "minimum": _WIDE | _F32 | {"u8"},
    "power": _WIDE | _F32,
    "floormod": _WIDE | {"i8", "u8"},  # f32 is evaluated too, but irreshape leaves float remainders alone
    "mod": _WIDE | {"i8", "u8"},
    "reduceprod": _WIDE,
    "reducesum": _WIDE,
    "reducemax": _WIDE | {"f32", "i8", "u8"},
    "gather": _WIDE | {"i8", "u8"},
    "broadcast": _WIDE | {"i8", "u8"},
    "floor": _WIDE | _F32 | {"i8", "u8"},
    "ceiling": _WIDE | _F32 | {"i8", "u8"},
}


def _check_type(kind: str, et: str) -> None:
    if et in ("i16", "u16") and kind not in ("gather", "broadcast", "floor", "ceiling"):
        raise Unsupported(f"{kind} on {et} (OpenVINO's bounds for it are unreliable)")
    if et in FLOAT_TYPES and et not in EVAL_TYPES[kind]:
        raise Unsupported(f"{kind} on {et}")
    if et not in EVAL_TYPES[kind]:
        raise NoBounds(f"OpenVINO cannot evaluate {kind} on {et}")


def _elementwise(fn: Callable[[float, float], float], x: Sequence[float], xs: Sequence[int], y: Sequence[float],
                 ys: Sequence[int], et: str) -> tuple[list[float], list[int]]:
    out = _broadcast_shape(xs, ys)
    ix, iy = _broadcast_index(xs, out), _broadcast_index(ys, out)
    return [wrap(fn(x[i], y[j]), et) for i, j in zip(ix, iy)], out


def _check_types(kind: str, a: Tensor, b: Tensor) -> None:
    if a.et != b.et:
        raise Unsupported(f"{kind} of {a.et} and {b.et}")
    _check_type(kind, a.et)


def arithmetic(kind: str, a: Tensor, b: Tensor) -> Tensor:
    """``Add``/``Subtract``/``Multiply``/``Maximum``/``Minimum``/``Power``/``FloorMod`` through
    ``interval_bound_evaluator``: the extremes of the op on the inputs' bounds (for FloorMod not the true
    range, which OpenVINO does not look for), anything from 0 where an input is unbounded."""
    _check_types(kind, a, b)
    fn, et = OPS[kind], a.et
    if a.is_const and b.is_const:
        vals, shape = _elementwise(fn, a.lo, a.shape, b.lo, b.shape, et)
        return Tensor(et, tuple(shape), tuple(vals), tuple(vals))
    variants = [_elementwise(fn, x, a.shape, y, b.shape, et)[0] for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    shape = _broadcast_shape(a.shape, b.shape)
    top = type_max(et)

    def at_max(t: Tensor) -> list[int]:
        return [int(x == top or y == top) for x, y in zip(t.lo, t.hi)]
    dyn, _ = _elementwise(max, at_max(a), a.shape, at_max(b), b.shape, "i64")
    lo = [0 if d else min(v) for d, v in zip(dyn, zip(*variants))]
    hi = [top if d else max(v) for d, v in zip(dyn, zip(*variants))]
    return Tensor(et, tuple(shape), tuple(lo), tuple(hi))


def divide(a: Tensor, b: Tensor, pythondiv: bool) -> Tensor:
    """``Divide-1`` bounds (``divide::evaluate_bound``): ``lo/hi .. hi/lo`` for a positive divisor,
    ``hi/lo .. lo/hi`` for a negative one, anything for a divisor range around 0; an upper bound divided by a
    divisor's lower bound of 0 is the type's maximum, in floating point as in integers (``[8] / [0..4]`` is
    ``[2..max]``)."""
    _check_types("divide", a, b)
    et = a.et
    # make_tensor_of_min_value: std::numeric_limits<T>::min(), for a float its least positive normal value
    mn, mx = _TINY.get(et, type_min(et)), type_max(et)
    shape = _broadcast_shape(a.shape, b.shape)
    lo, hi = [], []
    pairs = list(zip(_broadcast_index(a.shape, shape), _broadcast_index(b.shape, shape)))
    if any(b.lo[j] == 0 and b.hi[j] <= 0 for _, j in pairs):  # the lower bound divides by the divisor's lower bound
        if et in FLOAT_TYPES:  # an infinity (or NaN) OpenVINO then converts as C++ leaves undefined
            raise Unsupported("a float division by an exact 0")
        raise Rejected("integer division by zero")
    div = (lambda x, y, _: x / y) if et in FLOAT_TYPES else _c_div  # noqa: E731
    for i, j in pairs:
        lo1, up1, lo2, up2 = a.lo[i], a.hi[i], b.lo[j], b.hi[j]
        if up1 == mx or up2 == mx:  # a dynamic input
            lo.append(0)
            hi.append(mx)
            continue
        positive = up2 > 0
        around_zero = lo2 < 0 < up2
        low = div(lo1, up2, pythondiv) if positive else div(up1, lo2, pythondiv)
        lo.append(mn if around_zero else wrap(low, et))
        x, y = (up1, lo2) if positive else (lo1, up2)
        hi.append(mx if (y == 0 or around_zero) else wrap(div(x, y, pythondiv), et))
    return Tensor(et, tuple(shape), tuple(lo), tuple(hi))


def _c_mod(x: int, y: int) -> int:
    """C++ integer ``%``: the remainder takes the dividend's sign."""
    r = abs(x) % abs(y)
    return -r if x < 0 else r


def _mod_value(v1: int, v2: int, m: int, et: str) -> tuple[int, int]:
    """``reference::func::mod_interval_value``: ``[v1, v2] % m``."""
    r0, r1 = _c_mod(v1, m), _c_mod(v2, m)
    diff = wrap(v2 - v1, et)
    if r1 < r0 or (diff != 0 and diff >= m):
        r0, r1 = 0, wrap(m - 1, et)
    return r0, r1


def _mod_interval(v1: int, v2: int, m1: int, m2: int, et: str) -> tuple[int, int]:
    """``reference::func::mod_interval``: ``[v1, v2] % [m1, m2]`` as OpenVINO estimates it."""
    r0, r1 = _mod_value(v1, v2, m1, et)
    if v2 != 0 and m1 != m2:
        s0, s1 = _mod_value(v1, v2, m2, et)
        r0, r1 = min(r0, s0), max(r1, s1)
        if wrap(v2 - v1, et) == 0 and wrap(m2 - m1, et) != 1:
            half = -(-v2 // 2) if v2 < 0 else v2 // 2  # C++ division truncates
            if m1 < half or m1 < v2 < m2:
                r0 = 0
                r1 = _c_mod(v2, half + 1) if half < m2 < v2 else wrap(m2 - 1, et)
    return r0, r1


def mod(a: Tensor, b: Tensor) -> Tensor:
    """``Mod-1`` bounds (``mod::evaluate_bound``): the remainder interval of each element's value and
    divisor intervals; anything from 0 where the value is unbounded or the divisor may be 0 or unbounded."""
    _check_types("mod", a, b)
    et = a.et
    top = type_max(et)
    shape = _broadcast_shape(a.shape, b.shape)
    lo, hi = [], []
    for i, j in zip(_broadcast_index(a.shape, shape), _broadcast_index(b.shape, shape)):
        v1, v2, m1, m2 = a.lo[i], a.hi[i], b.lo[j], b.hi[j]
        if v2 == top or 0 in (m1, m2) or m1 == top:
            lo.append(0)
            hi.append(top)
            continue
        r0, r1 = _mod_interval(v1, v2, m1, m2, et)
        lo.append(wrap(r0, et))
        hi.append(wrap(r1, et))
    return Tensor(et, tuple(shape), tuple(lo), tuple(hi))


def _wide(et: str) -> bool:
    return et in FLOAT_TYPES or INT_RANGES[et][1].bit_length() > 16


def convert(data: Tensor, et: str) -> Tensor:
    """``Convert``: each bound converted (wrapping; a float truncated toward 0); between types wider than
    16 bits, and to or from a float (measured with f16), a maximum stays a maximum."""
    if (et not in INT_RANGES and et not in FLOAT_TYPES) or et == "boolean":
        raise Unsupported(f"Convert to {et} (irreshape evaluates integer and f16/f32/f64 tensors only)")
    if data.et in RAW_TYPES:  # a Const: its values as the element iterator unpacks them
        if data.et in ("nf4", "f8e4m3", "f8e5m2", "f8e8m0", "f4e2m1"):
            raise NoBounds(f"OpenVINO does not evaluate a Convert of {data.et} (measured)")
        if len(data.lo) != numel(data.shape):
            raise Unsupported(f"Convert of {data.et} values irreshape does not unpack")
        data = Tensor("f32" if data.et == "bf16" else "i64", data.shape, data.lo, data.hi)
    keep_max = _wide(data.et) and _wide(et)
    src_max, dst_max = type_max(data.et), type_max(et)

    def conv(v: float) -> float:
        if keep_max and v == src_max:
            return dst_max
        if et in FLOAT_TYPES:
            return wrap(float(v), et)
        if isinstance(v, float):
            lo, hi = INT_RANGES[et]
            if not lo <= v <= hi:  # C++ leaves this undefined; OpenVINO's reference gives i32/i64 their minimum
                if et in ("i32", "i64"):  # (measured on 2026.4.1, from f16, f32 and f64, on x86-64)
                    return lo
                raise Unsupported(f"Convert of {v} to {et}")
            return int(v)
        return wrap(v, et)
    return data.with_bounds([conv(v) for v in data.lo], [conv(v) for v in data.hi], et=et)


def _reduce(data: Tensor, axes: Tensor, keep_dims: bool, fn: Callable[[Sequence[int]], int]) -> Tensor:
    rank = len(data.shape)
    red = sorted({_axis(a, rank) for a in _ints(axes, "axes")})
    shape = [1 if i in red else n for i, n in enumerate(data.shape)]
    groups: dict[tuple[int, ...], list[int]] = {}
    index = [()]
    for a, n in enumerate(data.shape):
        index = [k + (0 if a in red else j,) for k in index for j in range(n)]

    def run(flat: tuple[int, ...]) -> list[int]:
        groups.clear()
        for key, v in zip(index, flat):
            groups.setdefault(key, []).append(v)
        return [wrap(fn(g), data.et) for g in groups.values()] if groups else [wrap(fn([]), data.et)] * numel(shape)
    out_shape = shape if keep_dims else [n for i, n in enumerate(data.shape) if i not in red]
    return data.with_bounds(run(data.lo), run(data.hi), out_shape)


def reduce_prod(data: Tensor, axes: Tensor, keep_dims: bool) -> Tensor:
    """``ReduceProd``: the product of each bound; a type maximum among the upper bounds (and no zero)
    makes the upper bound the maximum."""
    _check_type("reduceprod", data.et)
    _need_const(axes)
    out = _reduce(data, axes, keep_dims, math.prod)
    top = type_max(data.et)
    if top in data.hi and 0 not in data.hi:
        if len(out.hi) != 1:  # OpenVINO writes the maximum into the first element only
            raise Unsupported("ReduceProd to several elements of unbounded values")
        out = out.with_bounds(out.lo, [top])
    return out


def constant_only(kind: str, inputs: Sequence[Tensor], attrs: dict | None = None) -> Tensor:
    """``Node::evaluate_lower``/``evaluate_upper``'s default (``default_bound_evaluator``): ops without bound
    evaluators of their own are evaluated only when every input's bounds are exact, else there are none."""
    _need_const(*inputs)
    attrs = attrs or {}
    if kind in ("floor", "ceiling"):
        x = inputs[0]
        _check_type(kind, x.et)
        if x.et not in FLOAT_TYPES:
            return x
        fn = math.floor if kind == "floor" else math.ceil
        return x.with_bounds([float(fn(v)) for v in x.lo], [float(fn(v)) for v in x.hi])
    if kind in ("reducesum", "reducemean"):
        _check_type("reducesum", inputs[0].et)
        n = numel(inputs[0].shape)
        out = _reduce(inputs[0], inputs[1], bool(attrs.get("keep_dims")), sum)
        if kind == "reducemean":
            count = n // max(numel(out.shape), 1) if n else 0
            if count == 0:
                raise Unsupported("ReduceMean over no elements")
            out = out.with_bounds(*([_c_div(v, count, False) for v in b] for b in (out.lo, out.hi)))
        return out
    if kind == "range":
        return range_(*inputs, et=attrs.get("output_type") or inputs[0].et)
    if kind in UNARY:
        x = inputs[0]
        if x.et not in _DEFAULT_TYPES:
            raise Unsupported(f"{kind} on {x.et}")
        vals = [wrap(UNARY[kind](v, x.et), x.et) for v in x.lo]
        return x.with_bounds(vals, vals)
    if kind in COMPARISONS or kind in LOGICAL:
        a, b = inputs
        fn = COMPARISONS.get(kind) or LOGICAL[kind]
        vals, shape = _elementwise(lambda x, y: int(fn(x, y)), a.lo, a.shape, b.lo, b.shape, "boolean")
        return Tensor("boolean", tuple(shape), tuple(vals), tuple(vals))
    if kind == "logicalnot":
        x = inputs[0]
        vals = [int(not v) for v in x.lo]
        return Tensor("boolean", x.shape, tuple(vals), tuple(vals))
    if kind in FLOAT_UNARY:
        x = inputs[0]
        if kind == "relu" and x.et in ("i32", "i64"):
            vals = [max(v, 0) for v in x.lo]
            return x.with_bounds(vals, vals)
        if x.et != "f32":
            raise Unsupported(f"{kind} on {x.et}")
        vals = [wrap(FLOAT_UNARY[kind](v), "f32") for v in x.lo]
        return x.with_bounds(vals, vals)
    if kind == "round":
        return _round(inputs[0], str(attrs.get("mode", "half_to_even")))
    if kind in ("bitwiseand", "bitwiseor", "bitwisexor", "squareddifference", "cumsum") and \
            inputs[0].et in ("i32", "i64"):
        raise NoBounds(f"OpenVINO does not evaluate {kind} on {inputs[0].et} bounds (measured)")
    if kind == "cumsum":
        return _cumsum(inputs[0], inputs[1] if len(inputs) > 1 else None, bool(attrs.get("exclusive")),
                       bool(attrs.get("reverse")))
    if kind in ("reducel1", "reducelogicaland", "reducelogicalor"):
        x = inputs[0]
        if kind == "reducel1" and x.et not in ("i32", "i64"):
            raise Unsupported(f"{kind} on {x.et}")
        if kind != "reducel1" and x.et != "boolean":
            raise Unsupported(f"{kind} on {x.et}")
        fn = {"reducel1": lambda g: sum(abs(v) for v in g), "reducelogicaland": lambda g: int(all(g)),
              "reducelogicalor": lambda g: int(any(g))}[kind]
        out = _reduce(x, inputs[1], bool(attrs.get("keep_dims")), fn)
        return out.with_bounds(out.lo, out.lo)
    if kind in NO_BOUNDS_WITHOUT_EXACT:
        raise Unsupported(f"{kind} on exact inputs (irreshape does not evaluate it)")
    raise Unsupported(kind)


def _round(x: Tensor, mode: str) -> Tensor:
    """``Round-5``: an integer tensor as it is; a float one to the nearest integer, ties to even or away from 0."""
    if x.et in ("i32", "i64"):
        return x
    if x.et != "f32":
        raise Unsupported(f"round on {x.et}")
    if mode == "half_to_even":
        fn = lambda v: float(round(v))  # noqa: E731  (Python rounds ties to even)
    elif mode == "half_away_from_zero":
        fn = lambda v: math.copysign(math.floor(abs(v) + 0.5), v)  # noqa: E731
    else:
        raise Unsupported(f"Round mode {mode!r}")
    vals = [fn(v) for v in x.lo]
    return x.with_bounds(vals, vals)


def _cumsum(x: Tensor, axis: Tensor | None, exclusive: bool, reverse: bool) -> Tensor:
    """``CumSum-3`` on exact f32 inputs along one axis (OpenVINO gives integer ones no bounds, measured)."""
    if x.et != "f32":
        raise Unsupported(f"cumsum on {x.et}")
    ax = _axis(_ints(axis, "axis")[0] if axis is not None else 0, len(x.shape))
    outer, n, inner = _split(x.shape, ax)
    out = list(x.lo)
    for o in range(outer):
        for i in range(inner):
            idx = [(o * n + k) * inner + i for k in range(n)]
            if reverse:
                idx.reverse()
            total = 0.0
            for k in idx:
                v = x.lo[k]
                if exclusive:
                    out[k] = wrap(total, x.et)
                    total = wrap(total + v, x.et)
                else:
                    total = wrap(total + v, x.et)
                    out[k] = total
    return x.with_bounds(out, out)


def _sqrt(v: float, et: str) -> float:
    if v < 0:
        raise Unsupported("Sqrt of a negative value")
    return math.sqrt(v) if et in FLOAT_TYPES else int(math.floor(math.sqrt(v) + 0.5))  # std::round


_DEFAULT_TYPES = frozenset({"i32", "i64", "f32"})  # the types irreshape evaluates the unary ops on
UNARY: dict[str, Callable[[float, str], float]] = {
    "negative": lambda v, et: -v,
    "sign": lambda v, et: (v > 0) - (v < 0),
    "sqrt": _sqrt,
}
def _sigmoid(v: float) -> float:
    return 1.0 / (1.0 + math.exp(-v)) if v >= 0 else math.exp(v) / (1.0 + math.exp(v))


def _exp(v: float) -> float:
    return math.exp(v) if v < 710 else math.inf


def _log(v: float) -> float:
    if v < 0:
        raise Unsupported("Log of a negative value")
    return math.log(v) if v > 0 else -math.inf


# float-only unary ops (f32), evaluated as OpenVINO's reference does on exact inputs
FLOAT_UNARY: dict[str, Callable[[float], float]] = {
    "relu": lambda v: max(v, 0.0), "exp": _exp, "log": _log, "sigmoid": _sigmoid, "tanh": math.tanh,
    "erf": math.erf, "sin": math.sin, "cos": math.cos,
}
# ops without a bound evaluator of their own (``Node::evaluate_lower``'s default): no bounds unless every input is
# exact, measured on openvino 2026.4.1 (tests/checks/test_value_bounds.py); irreshape evaluates only some of them
NO_BOUNDS_WITHOUT_EXACT = frozenset({
    "relu", "exp", "log", "sigmoid", "tanh", "erf", "sin", "cos", "softsign", "round", "bitwiseand", "bitwiseor",
    "bitwisexor", "squareddifference", "cumsum", "reducel1", "reducelogicaland", "reducelogicalor", "matmul",
    "softmax", "logsoftmax", "topk", "nonzero", "onehot", "gatherelements", "gathernd", "reverse", "roll",
    "depthtospace", "spacetodepth", "shufflechannels", "bucketize", "prelu", "isfinite", "isinf", "isnan",
    "einsum", "swish", "gelu", "softplus", "hswish", "hsigmoid", "mish", "elu", "selu", "tan", "asin", "acos",
    "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "hardsigmoid", "reducel2",
})


LOGICAL: dict[str, Callable[[float, float], bool]] = {
    "logicaland": lambda x, y: bool(x) and bool(y), "logicalor": lambda x, y: bool(x) or bool(y),
    "logicalxor": lambda x, y: bool(x) != bool(y),
}


COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    "equal": lambda x, y: x == y, "notequal": lambda x, y: x != y, "greater": lambda x, y: x > y,
    "greaterequal": lambda x, y: x >= y, "less": lambda x, y: x < y, "lessequal": lambda x, y: x <= y,
}


def range_(start: Tensor, stop: Tensor, step: Tensor, et: str) -> Tensor:
    """``Range-4`` on constant scalars."""
    if et not in INT_RANGES:
        raise Unsupported(f"Range output_type {et}")
    b, e, s = (_ints(t, "Range input")[0] if t.lo else 0 for t in (start, stop, step))
    if s == 0:
        raise Unsupported("Range with step 0")
    r = range(b, e, s)
    if len(r) > MAX_ELEMENTS:
        raise Unsupported(f"a Range of {len(r)} elements, too long for a shape")
    return const(et, (len(r),), list(r))


# -- ops with bound evaluators of their own, beyond the movement and arithmetic ones ------------------------
def abs_(x: Tensor) -> Tensor:
    """``Abs`` (``abs::evaluate_bound``): the absolute value of each bound; the smaller one the lower bound, the
    larger the upper (not the true range of an interval around 0: OpenVINO does not look for it)."""
    if x.et not in ("i32", "i64", "u32", "u64", "f32"):
        raise NoBounds(f"OpenVINO cannot evaluate abs on {x.et}")
    a = [wrap(abs(v), x.et) for v in x.lo]
    b = [wrap(abs(v), x.et) for v in x.hi]
    return x.with_bounds([min(p, q) for p, q in zip(a, b)], [max(p, q) for p, q in zip(a, b)])


def select(cond: Tensor, then: Tensor, other: Tensor) -> Tensor:
    """``Select-1`` (numpy broadcasting): with an exact condition, the op on each bound of the two branches."""
    _need_const(cond)
    if then.et != other.et:
        raise Unsupported(f"Select of {then.et} and {other.et}")
    if then.et in ("f16", "f64"):
        raise Unsupported(f"Select on {then.et}")
    shape = _broadcast_shape(_broadcast_shape(cond.shape, then.shape), other.shape)
    ic, it, io = (_broadcast_index(t.shape, shape) for t in (cond, then, other))

    def pick(a: tuple, b: tuple) -> list:
        return [a[i] if cond.lo[c] else b[j] for c, i, j in zip(ic, it, io)]
    return Tensor(then.et, tuple(shape), tuple(pick(then.lo, other.lo)), tuple(pick(then.hi, other.hi)))


def clamp(x: Tensor, lo: float, hi: float) -> Tensor:
    """``Clamp``: each bound clamped (an integer tensor to ``ceil(min)``..``floor(max)``)."""
    if x.et not in INT_RANGES or x.et == "boolean":
        if x.et not in FLOAT_TYPES:
            raise Unsupported(f"Clamp on {x.et}")
    else:
        lo, hi = math.ceil(lo), math.floor(hi)
        lo, hi = max(lo, type_min(x.et)), min(hi, type_max(x.et))

    def cl(vals: tuple) -> list:
        return [wrap(min(max(v, lo), hi), x.et) for v in vals]
    return x.with_bounds(cl(x.lo), cl(x.hi))


def tile(data: Tensor, repeats: Tensor) -> Tensor:
    """``Tile``: each bound tiled, the repeats exact."""
    reps = _ints(repeats, "repeats")
    if any(r < 0 for r in reps):
        raise Unsupported("Tile with a negative repeat")
    rank = max(len(reps), len(data.shape))
    shape = [1] * (rank - len(data.shape)) + list(data.shape)
    reps = [1] * (rank - len(reps)) + reps
    out = [n * r for n, r in zip(shape, reps)]
    if numel(out) > MAX_ELEMENTS:
        raise Unsupported(f"a Tile to {numel(out)} elements, too many for a shape")
    index = [0]
    for n, m in zip(shape, out):
        index = [i * n + (j % n) for i in index for j in range(m)]
    return data.with_bounds([data.lo[i] for i in index], [data.hi[i] for i in index], out)


def pad(data: Tensor, begin: Tensor, end: Tensor, value: Tensor | None, mode: str) -> Tensor:
    """``Pad`` in ``constant`` mode: each bound padded (a negative pad crops), the pads and value exact."""
    if mode != "constant":
        raise Unsupported(f"Pad mode {mode!r} in a shape subgraph")
    _need_const(*(() if value is None else (value,)))
    b, e = _ints(begin, "pads_begin"), _ints(end, "pads_end")
    if not len(b) == len(e) == len(data.shape):
        raise Unsupported("Pad with pads of another length than the data rank")
    fill = 0 if value is None else value.lo[0]
    out = [p + n + q for p, n, q in zip(b, data.shape, e)]
    if any(n < 0 for n in out) or numel(out) > MAX_ELEMENTS:
        raise Unsupported(f"a Pad to {out}")
    index = [0]
    for p, n, m in zip(b, data.shape, out):
        index = [-1 if i < 0 or not 0 <= j - p < n else i * n + j - p for i in index for j in range(m)]

    def take(vals: tuple) -> list:
        return [fill if i < 0 else vals[i] for i in index]
    return data.with_bounds(take(data.lo), take(data.hi), out)


def reduce_extreme(kind: str, data: Tensor, axes: Tensor, keep_dims: bool) -> Tensor:
    """``ReduceMax``/``ReduceMin``: each bound reduced, the axes exact."""
    _need_const(axes)
    _check_type("reducemax", data.et)
    if 0 in data.shape:
        raise Unsupported(f"{kind} of an empty tensor")
    return _reduce(data, axes, keep_dims, max if kind == "reducemax" else min)


def scatter(kind: str, data: Tensor, indices: Tensor, updates: Tensor, axis: Tensor | None = None) -> Tensor:
    """``ScatterUpdate``, ``ScatterNDUpdate``, ``ScatterElementsUpdate`` (no reduction) on a 1-D tensor: each bound
    updated, the indices (and axis) exact."""
    _need_const(indices, *(() if axis is None else (axis,)))
    if len(data.shape) != 1 or data.et != updates.et:
        raise Unsupported(f"{kind} of a tensor of rank {len(data.shape)}")
    if axis is not None and _axis(_ints(axis, "axis")[0], 1) != 0:
        raise Unsupported(f"{kind} axis")
    n = data.shape[0]
    idx = [wrap(v, "i64") for v in indices.lo]
    if kind == "scatterndupdate" and (not indices.shape or indices.shape[-1] != 1):
        raise Unsupported("ScatterNDUpdate with indices of a last dim other than 1")
    if len(idx) != numel(updates.shape):
        raise Unsupported(f"{kind} with {len(idx)} indices for {numel(updates.shape)} updates")
    idx = [i + n if i < 0 else i for i in idx]
    if any(not 0 <= i < n for i in idx):
        raise Unsupported(f"{kind} index out of range")

    def put(base: tuple, new: tuple) -> list:
        out = list(base)
        for i, v in zip(idx, new):
            out[i] = v
        return out
    return data.with_bounds(put(data.lo, updates.lo), put(data.hi, updates.hi))


def equal(a: Tensor, b: Tensor) -> Tensor:
    """``Equal-1``'s bounds: on exact inputs the op; else true below where all four bounds are equal, and true
    above where the two intervals meet (``Equal::evaluate_lower``/``evaluate_upper``). OpenVINO takes lower and
    upper results that are equal as exact only up to 10 elements (``are_equal``)."""
    if a.is_const and b.is_const:
        return constant_only("equal", [a, b])
    if a.et != b.et:
        raise Unsupported(f"Equal of {a.et} and {b.et}")
    shape = _broadcast_shape(a.shape, b.shape)
    pairs = list(zip(_broadcast_index(a.shape, shape), _broadcast_index(b.shape, shape)))
    lo = tuple(int(a.lo[i] == a.hi[i] == b.lo[j] == b.hi[j]) for i, j in pairs)
    hi = tuple(int(a.lo[i] <= b.hi[j] and b.lo[j] <= a.hi[i]) for i, j in pairs)
    if lo == hi and len(lo) > 10:
        raise Unsupported("Equal bounds of more than 10 elements")
    return Tensor("boolean", tuple(shape), lo, hi)
