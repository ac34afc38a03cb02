"""Shape functions of data ops, on dims (intervals), the way OpenVINO's shape inference computes them.

Shared by the IR graph (``evaluate.py``, re-inferring the dims an IR declares ``-1``, where OpenVINO
infers intervals on reading) and the oneDNN Graph checker (``engine/onednn.py``), whose static and
unknown dims are a special case. Each function returns None where it cannot tell the shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.dims import INF, Dim, Shape
from .values import wrap


def broadcast_dim(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::broadcast_merge``; None when the dims cannot broadcast."""
    if a.lo == b.lo and a.hi == b.hi:
        return a
    a_one, b_one = a.contains(1), b.contains(1)
    if a_one and b_one:
        return Dim(min(a.lo, b.lo), max(a.hi, b.hi))
    if a_one:
        return b
    if b_one:
        return a
    lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
    return Dim(lo, hi) if lo <= hi else None


def numpy_broadcast(shapes: Sequence[Shape]) -> Shape:
    """Numpy broadcast of several shapes, None where a rank is dynamic or the dims clash."""
    if any(s is None for s in shapes):
        return None
    first = shapes[0]
    if all(s == first for s in shapes):  # Dim equality is interval equality
        return list(first)  # type: ignore[arg-type]
    n = max(len(s) for s in shapes)  # type: ignore[arg-type]
    out: list[Dim] = [Dim.of(1)] * n
    for s in shapes:
        padded = [Dim.of(1)] * (n - len(s)) + list(s)  # type: ignore[arg-type]
        for i, d in enumerate(padded):
            merged = broadcast_dim(out[i], d)
            if merged is None:
                return None
            out[i] = merged
    return out


def matmul_shape(a: Shape, b: Shape, transpose_a: bool, transpose_b: bool) -> Shape:
    if a is None or b is None or not a or not b:
        return None
    a, b = list(a), list(b)
    if transpose_a and len(a) > 1:
        a[-2], a[-1] = a[-1], a[-2]
    if transpose_b and len(b) > 1:
        b[-2], b[-1] = b[-1], b[-2]
    vec_a, vec_b = len(a) == 1, len(b) == 1
    if vec_a:
        a = [Dim.of(1)] + a
    if vec_b:
        b = b + [Dim.of(1)]
    batch = numpy_broadcast([a[:-2], b[:-2]])
    if batch is None or not a[-1].compatible(b[-2]):
        return None
    return batch + ([] if vec_a else [a[-2]]) + ([] if vec_b else [b[-1]])


# -- interval arithmetic of ov::Dimension, and the shape functions of data ops -------------------------
def dim_add(a: Dim, n: int) -> Dim:
    """``Dimension + n`` (``n`` may be negative): both bounds shifted, clipped at 0, INF stays INF."""
    return Dim(max(0, a.lo + n), a.hi if a.hi == INF else max(0, a.hi + n))


def dim_sum(a: Dim, b: Dim) -> Dim:
    """``Dimension + Dimension``."""
    return Dim(a.lo + b.lo, INF if INF in (a.hi, b.hi) else a.hi + b.hi)


def dim_merge(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::merge``: the intersection, None when empty."""
    lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
    return Dim(lo, hi) if lo <= hi else None


def concat_shape(shapes: Sequence[Shape], axis: int) -> Shape:
    """``Concat``: lengths summed on ``axis``, the other dims merged."""
    ranked = [s for s in shapes if s is not None]
    if not ranked or len({len(s) for s in ranked}) != 1:
        return None
    rank = len(ranked[0])
    if not -rank <= axis < rank:
        return None
    axis %= rank
    out = list(ranked[0])
    for s in ranked[1:]:
        for i, d in enumerate(s):
            merged = dim_sum(out[i], d) if i == axis else dim_merge(out[i], d)
            if merged is None:
                return None
            out[i] = merged
    if len(ranked) != len(shapes):  # an input of dynamic rank: its length on the axis is unknown
        out[axis] = Dim(out[axis].lo, INF)
    return out


def gather_shape(data: Shape, indices: Shape, axis: int, batch_dims: int) -> Shape:
    """``Gather``: ``data[:axis] + indices[batch_dims:] + data[axis+1:]``."""
    if data is None or indices is None:
        return None
    if axis < 0:
        axis += len(data)
    if batch_dims < 0:
        batch_dims += len(indices)
    if not 0 <= batch_dims <= axis < len(data) or batch_dims > len(indices):
        return None
    return list(data[:axis]) + list(indices[batch_dims:]) + list(data[axis + 1:])


def pad_shape(data: Shape, pads_begin: Sequence[int], pads_end: Sequence[int]) -> Shape:
    if data is None or not len(data) == len(pads_begin) == len(pads_end):
        return None
    return [dim_add(d, b + e) for d, b, e in zip(data, pads_begin, pads_end)]


def _padded(dim: int, pad: int) -> int:
    """``ov::util::dim::padded``: ``dim + pad``, or -1 ("no bound") for an unbounded or negative result."""
    v = wrap(dim + pad, "i64")  # a C++ int64 sum
    return -1 if dim == -1 or v < 0 else v


def _inf_pad(bounds: tuple[int, int]) -> bool:
    """``pad::is_inf_padding``: a pad from 0 with no upper bound."""
    return bounds[0] == 0 and bounds[1] in (-1, INF)


def pad_op_shape(data: Shape, begin: Sequence[tuple[int, int]], end: Sequence[tuple[int, int]],
                 mode: str = "constant") -> Shape:
    """Pad-1/Pad-12 ``shape_infer`` from the bounds (lower, upper) of each ``pads_begin``/``pads_end``
    element: a dim's bounds move by the pads' bounds (a bound below 0 becomes "none"; an unbounded pad
    from 0 leaves the upper bound open); a dim with zero pads stays as it is. ValueError where OpenVINO
    rejects the layer (a pads length other than the rank; a mode the static dim is too short for)."""
    if data is None:
        return None
    if not len(begin) == len(end) == len(data):
        raise ValueError(f"pads of {len(begin)} and {len(end)} elements for rank {len(data)}")
    out: list[Dim] = []
    for d, b, e in zip(data, begin, end):
        if d.is_static:
            if (b[0] > 0 or e[0] > 0) and ((mode == "edge" and d.lo < 1) or (mode == "reflect" and d.lo < 2)):
                raise ValueError(f"{mode} padding of a dim of {d.lo}")
            if (mode == "reflect" and not (b[0] < d.lo and e[0] < d.lo)) or \
                    (mode == "symmetric" and not (b[0] <= d.lo and e[0] <= d.lo)):
                raise ValueError(f"{mode} padding by {b[0]}, {e[0]} of a dim of {d.lo}")
        low, high = wrap(b[0] + e[0], "i64"), wrap(b[1] + e[1], "i64")
        if low == 0 and high == 0:
            out.append(d)
            continue
        hi = -1 if _inf_pad(b) or _inf_pad(e) else _padded(-1 if d.hi == INF else d.hi, high)
        out.append(Dim(_padded(d.lo, low), hi))
    return out


def _window(d: Dim, span: int, stride: int, pads: int, ceil: bool) -> Dim | None:
    """One output dim of a sliding window: ``(in + pads - span) / stride + 1``, floor or ceil, per bound."""
    def one(v: int) -> int:
        v = max(0, v + pads - span)
        return (-(-v // stride) if ceil else v // stride) + 1
    if stride <= 0 or (d.hi != INF and d.hi + pads < span):
        return None
    return Dim(one(d.lo), INF if d.hi == INF else one(d.hi))


def window_shape(data: Shape, head: Sequence[Dim], kernel: Sequence[int], strides: Sequence[int],
                 pads_begin: Sequence[int], pads_end: Sequence[int], dilations: Sequence[int],
                 ceil: bool = False) -> Shape:
    """Convolution or pooling with explicit pads: ``head`` (batch, channels) then the spatial dims."""
    n = len(kernel)
    if data is None or len(data) != n + 2 or not len(strides) == len(pads_begin) == len(pads_end) == len(dilations) == n:
        return None
    out = list(head)
    for d, k, s, pb, pe, dil in zip(data[2:], kernel, strides, pads_begin, pads_end, dilations):
        w = _window(d, (k - 1) * dil + 1, s, pb + pe, ceil)
        if w is None:
            return None
        out.append(w)
    return out


def deconv_shape(data: Shape, head: Sequence[Dim], kernel: Sequence[int], strides: Sequence[int],
                 pads_begin: Sequence[int], pads_end: Sequence[int], dilations: Sequence[int],
                 output_padding: Sequence[int]) -> Shape:
    """``ConvolutionBackpropData`` without ``output_shape``: ``(in - 1) * stride + dilated kernel - pads + output_padding``."""
    n = len(kernel)
    output_padding = list(output_padding) or [0] * n
    if data is None or len(data) != n + 2 or not len(strides) == len(pads_begin) == len(pads_end) \
            == len(dilations) == len(output_padding) == n:
        return None
    out = list(head)
    for d, k, s, pb, pe, dil, op in zip(data[2:], kernel, strides, pads_begin, pads_end, dilations, output_padding):
        grown = dim_add(dim_add(d, -1) * Dim.of(s), (k - 1) * dil + 1 + op)
        out.append(dim_add(grown, -(pb + pe)))
    return out


def transpose_shape(shape: Shape, order: Sequence[int]) -> Shape:
    if shape is None:
        return None
    order = list(order) or list(range(len(shape) - 1, -1, -1))
    if sorted(order) != list(range(len(shape))):
        return None
    return [shape[i] for i in order]


def reduce_shape(data: Shape, axes: Sequence[int], keep_dims: bool) -> Shape:
    """``Reduce*``: the reduced axes become 1, or are dropped without ``keep_dims``."""
    if data is None or any(not -len(data) <= a < len(data) for a in axes):
        return None
    red = {a % len(data) for a in axes}
    return [Dim.of(1) if i in red else d for i, d in enumerate(data) if keep_dims or i not in red]


def unsqueeze_shape(data: Shape, axes: Sequence[int]) -> Shape:
    """``Unsqueeze``: a 1 inserted at each axis of the output rank (repeated axes count once)."""
    if data is None:
        return None
    rank = len(data) + len(set(axes))
    if any(not -rank <= a < rank for a in axes):
        return None
    where = {a % rank for a in axes}
    if len(where) != len(set(axes)):
        return None
    rest = iter(data)
    return [Dim.of(1) if i in where else next(rest) for i in range(rank)]


def squeeze_shape(data: Shape, axes: Sequence[int] | None) -> Shape:
    """``Squeeze``: the given axes dropped (each must be able to be 1); without axes the static 1s,
    None when a dynamic dim might be 1 (OpenVINO then cannot tell the rank)."""
    if data is None:
        return None
    if axes is None:
        if any(not d.is_static and d.contains(1) for d in data):
            return None
        return [d for d in data if not (d.is_static and d.lo == 1)]
    if any(not -len(data) <= a < len(data) for a in axes):
        return None
    drop = {a % len(data) for a in axes}
    if any(not data[a].contains(1) for a in drop):
        return None
    return [d for i, d in enumerate(data) if i not in drop]


def slice_shape(data: Shape, start: Sequence[int], stop: Sequence[int], step: Sequence[int],
                axes: Sequence[int]) -> Shape:
    """``Slice-8`` with constant start/stop/step (positive) and axes: each bound of a dim sliced on its own."""
    if data is None or not len(start) == len(stop) == len(step) == len(axes) or any(s <= 0 for s in step):
        return None
    out = list(data)
    for b, e, s, a in zip(start, stop, step, axes):
        if not -len(data) <= a < len(data):
            return None
        d = out[a % len(data)]
        out[a % len(data)] = Dim(_sliced(d.lo, b, e, s), _sliced(d.hi, b, e, s))
    return out


def _sliced(n: int, start: int, stop: int, step: int) -> int:
    """The length of ``range(n)[start:stop:step]``; from an unbounded ``n``, unbounded where it grows with ``n``."""
    k = len(range(*slice(start, stop, step).indices(n)))
    return INF if k > INF // 2 else k


def sdpa_shape(query: Shape, key: Shape, value: Shape, mask: Shape) -> Shape:
    """``ScaledDotProductAttention``: batch dims broadcast over Q, K, V and the mask, the target length
    of Q broadcast with the mask's, the last dim of V."""
    if query is None or key is None or value is None or min(len(query), len(key), len(value)) < 2:
        return None
    mask = mask if mask is not None and len(mask) >= 2 else None
    batch = numpy_broadcast([query[:-2], key[:-2], value[:-2]] + ([mask[:-2]] if mask is not None else []))
    length = query[-2] if mask is None else broadcast_dim(query[-2], mask[-2])
    if batch is None or length is None:
        return None
    return batch + [length, value[-1]]
