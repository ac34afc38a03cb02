"""Shape functions of data ops, on dims: OpenVINO's numpy broadcasting and MatMul.

Shared by the IR graph (``evaluate.py``, re-inferring dynamic dims along the data path) and the
oneDNN Graph checker (``engine/onednn.py``), whose static and unknown dims are a special case.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..dims import Dim, Shape


def broadcast_dim(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::broadcast_merge``; None when the dims cannot broadcast."""
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
