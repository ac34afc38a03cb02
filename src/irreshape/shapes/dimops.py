"""The interval arithmetic of ``ov::Dimension``, ``ov::PartialShape`` and ``ov::util::dim``, exactly as
openvino 2026.4.1 computes it: the one home of it for the op families of :mod:`irreshape.shapes.ops`.

A :class:`~irreshape.core.dims.Dim` is an ``ov::Interval`` ``[lo, hi]`` (``hi == INF``: no upper bound).
OpenVINO's *empty* interval is ``[INF, INF]``: it is compatible with nothing, merges with nothing and has
the length bounds ``-1`` (``get_min_length``/``get_max_length``). Where OpenVINO's function returns
``false`` (``merge``, ``broadcast_merge``), the function here returns None; where it throws, it raises
:class:`~irreshape.shapes.registry.ShapeError` with OpenVINO's message.

Two of :class:`Dim`'s own methods are not OpenVINO's everywhere, and the op families use these instead:

* ``Dim.compatible`` is true for an empty interval against an unbounded one; :func:`compatible` is not;
* ``Dim.div`` keeps an unbounded upper bound unbounded and makes a division by 0 empty; OpenVINO's
  ``Dimension::operator/`` (:func:`div`) divides the bounds in doubles, so ``4.. / 4`` is
  ``1..2305843009213693952``, and a division by 0 is 0. The Reshape engine (:mod:`irreshape.shapes.reshape`)
  keeps ``Dim.div``: it divides only static dims, by a divisor that is 0 only where it rejects the layer, so
  the two agree there.

Symbols are passed through where OpenVINO returns an operand as it is (``d + 0``, ``d - 0``, a
``broadcast_merge`` with a 1, ...) and are not merged otherwise: dims read from an IR carry none.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.dims import INF, INT64_MIN, Dim, Shape
from .node import ShapeError
from .values import wrap


# -- bounds and integers ------------------------------------------------------------------------------
def length(bound: int) -> int:
    """``Dimension::get_min_length`` / ``get_max_length`` of one bound: -1 for the unbounded INT64_MAX
    (``ov::util::dim::inf_bound``)."""
    return -1 if bound == INF else bound


def empty() -> Dim:
    """``Interval(Interval::s_max)``: the empty interval an operator on an empty operand gives."""
    return Dim(INF, INF)


def trunc_div(x: int, y: int) -> int:
    """C++ integer division of ``x`` by ``y`` (the quotient truncated toward 0)."""
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def _clip_add(a: int, b: int) -> int:
    """``Interval``'s ``clip_add``: a sum saturating at INF."""
    return INF if INF in (a, b) or a + b > INF else a + b


def _clip_minus(a: int, b: int) -> int:
    """``Interval``'s ``clip_minus``: a difference clipped at 0, INF less anything staying INF."""
    return 0 if a <= b else (INF if a == INF else a - b)


# -- ov::Dimension ------------------------------------------------------------------------------------
def add(a: Dim, b: Dim) -> Dim:
    """``Dimension::operator+``: an operand that is 0 gives the other as it is; else ``Interval::operator+``
    (the bounds added, saturating at INF; empty where either operand is)."""
    if b == 0:
        return a
    if a == 0:
        return b
    if a.is_empty or b.is_empty:
        return empty()
    return Dim(_clip_add(a.lo, b.lo), _clip_add(a.hi, b.hi))


def sub(a: Dim, b: Dim) -> Dim:
    """``Dimension::operator-``: ``a - 0`` is ``a``; else ``Interval::operator-``: ``a``'s lower bound less
    ``b``'s upper and ``a``'s upper less ``b``'s lower, each clipped at 0 (empty where either operand is)."""
    if b == 0:
        return a
    if a.is_empty or b.is_empty:
        return empty()
    return Dim(_clip_minus(a.lo, b.hi), _clip_minus(a.hi, b.lo))


def div(d: Dim, divisor: int) -> Dim:
    """``Dimension::operator/(value_type)``: the lower bound's quotient rounded up and the upper's rounded down,
    both in doubles and converted to int64 as x86 does, so an unbounded upper bound divides like 2**63
    (``4.. / 4`` is ``1..2305843009213693952``) and a divisor of 0 (an infinite or NaN quotient, which
    converts to INT64_MIN) gives 0; ``?`` stays ``?``. A negative divisor throws. Not ``Dim.div``, which
    the Reshape engine uses (see the module docstring)."""
    if divisor < 0:
        raise ShapeError("divisor must be greater than 0")
    if divisor == 1:
        return d
    if d.lo == 0 and d.hi == INF:
        return Dim.dynamic()
    if divisor == 0:
        return Dim(INT64_MIN, INT64_MIN)

    def to_int64(q: float) -> int:
        return int(q) if math.isfinite(q) and -2.0**63 <= q < 2.0**63 else INT64_MIN
    return Dim(to_int64(math.ceil(float(d.lo) / divisor)), to_int64(math.floor(float(d.hi) / divisor)))


def meet(a: Dim, b: Dim) -> Dim:
    """``Dimension::operator&``: the intersection of the intervals (empty where they are disjoint)."""
    return Dim(max(a.lo, b.lo), min(a.hi, b.hi))


def merge(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::merge``: the intersection; None where it is empty (so an empty dim merges with nothing)."""
    d = meet(a, b)
    return None if d.is_empty else d


def merge_checked(a: Dim, b: Dim, message: str) -> Dim:
    """``NODE_VALIDATION_CHECK(op, Dimension::merge(dst, a, b), message)``: :func:`merge`, or
    ShapeError(``message``) where it fails."""
    d = merge(a, b)
    if d is None:
        raise ShapeError(message)
    return d


def compatible(a: Dim, b: Dim) -> bool:
    """``Dimension::compatible``: the intervals intersect (an empty one is compatible with nothing)."""
    return merge(a, b) is not None


def broadcast_merge(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::broadcast_merge``: where both may be 1, the interval spanning both; where one may be 1,
    the other as it is; else :func:`merge`. None where they do not broadcast."""
    a_one, b_one = a.contains(1), b.contains(1)
    if a_one and b_one:
        return Dim(min(a.lo, b.lo), max(a.hi, b.hi))
    if a_one:
        return b
    if b_one:
        return a
    return merge(a, b)


# -- ov::util::dim ------------------------------------------------------------------------------------
def padded_length(v: int, pad: int) -> int:
    """``ov::util::dim::padded`` of one length (-1: ``inf_bound``): ``v + pad`` in int64, or -1 where ``v``
    is unbounded or the sum is negative."""
    total = wrap(v + pad, "i64")
    return -1 if v == -1 or total < 0 else total


def padded(d: Dim, pad: int) -> Dim:
    """``ov::util::dim::padded`` of a dimension: each length bound moved by ``pad`` (:func:`padded_length`;
    ``d`` itself for a pad of 0). Not ``d + Dimension(pad)``, which makes a pad of -1 a ``?``."""
    if pad == 0:
        return d
    return Dim(padded_length(length(d.lo), pad), padded_length(length(d.hi), pad))


def dilated(d: Dim, dilation: int) -> Dim:
    """``ov::util::dim::dilated`` of a dimension: ``(d - 1) * dilation + 1`` in ``Dimension`` arithmetic."""
    return add(sub(d, Dim.of(1)) * Dim.of(dilation), Dim.of(1))


def ceil_div(d: Dim, divisor: int) -> Dim:
    """``ov::util::dim::ceil_div`` of a dimension: each length bound by ``ov::util::ceil_div`` (``x == 0 ? 0 :
    1 + (x - 1) / y`` in C++ integers); an unbounded upper bound stays unbounded. Not :func:`div`, which
    rounds the lower bound up and the upper one down."""
    def one(x: int) -> int:
        return 0 if x == 0 else 1 + trunc_div(x - 1, divisor)
    if d.is_static:
        return Dim.of(one(d.lo))
    if d.hi == INF:
        return Dim(one(length(d.lo)), -1)
    return Dim(one(d.lo), one(d.hi))


def floor_div(d: Dim, divisor: int) -> Dim:
    """``ov::util::dim::floor_div`` of a dimension: each length bound divided in C++ integers; an unbounded
    upper bound stays unbounded."""
    if d.is_static:
        return Dim.of(trunc_div(d.lo, divisor))
    if d.hi == INF:
        return Dim(trunc_div(length(d.lo), divisor), -1)
    return Dim(trunc_div(d.lo, divisor), trunc_div(d.hi, divisor))


# -- ov::PartialShape ---------------------------------------------------------------------------------
def at(shape: Sequence[Dim], i: int) -> Dim:
    """``PartialShape::operator[]``: a negative index counts from the end; past the rank it throws."""
    if not -len(shape) <= i < len(shape):
        raise ShapeError("Accessing out-of-range dimension")
    return shape[i]


def rank_is(shape: Shape, *ranks: int) -> bool:
    """``shape.rank().compatible(r)`` for any of ``ranks``: a dynamic rank is compatible with every rank."""
    return shape is None or len(shape) in ranks


def shapes_compatible(a: Shape, b: Shape) -> bool:
    """``PartialShape::compatible``: a dynamic rank is compatible with any shape; else equal ranks and
    :func:`compatible` dims."""
    return a is None or b is None or (len(a) == len(b) and all(compatible(x, y) for x, y in zip(a, b)))


def one_element(shape: Shape) -> bool:
    """``shape.compatible({}) || shape.compatible({1})``: a scalar or a 1-D tensor of one element, as far as
    is known."""
    return shape is None or len(shape) == 0 or (len(shape) == 1 and shape[0].contains(1))


def merge_into(dst: Shape, src: Shape) -> tuple[bool, Shape]:
    """``PartialShape::merge_into(dst, src)``: (success, the merged shape). A dynamic rank takes the other
    shape; different ranks fail and leave ``dst``; else each dim :func:`merge`-d, a dim that fails keeping
    ``dst``'s."""
    if dst is None:
        return True, None if src is None else list(src)
    if src is None:
        return True, list(dst)
    if len(dst) != len(src):
        return False, list(dst)
    merged = [merge(x, y) for x, y in zip(dst, src)]
    return None not in merged, [x if m is None else m for m, x in zip(merged, dst)]


def broadcast_merge_into(dst: Shape, src: Shape) -> tuple[bool, Shape]:
    """``PartialShape::broadcast_merge_into(dst, src, NUMPY)``: (success, the merged shape). A dynamic rank
    makes the result's rank dynamic; else the shorter shape is padded with 1s on the left and each pair of
    dims :func:`broadcast_merge`-d, a pair that fails giving ``?``."""
    if dst is None or src is None:
        return True, None
    rank = max(len(dst), len(src))
    ones = [Dim.of(1)] * rank
    merged = [broadcast_merge(x, y) for x, y in zip(ones[len(dst):] + list(dst), ones[len(src):] + list(src))]
    return None not in merged, [Dim.dynamic() if m is None else m for m in merged]


# -- axes ---------------------------------------------------------------------------------------------
def normalize_axis(axis: int, rank: int) -> int:
    """``ov::util::try_normalize_axis`` (and ``validate_axis``): ``axis`` within ``[-r, r - 1]`` for
    ``r = max(rank, 1)`` (a scalar takes the axes ``-1`` and ``0``, as OpenVINO's message says), made
    non-negative by adding ``r`` (a scalar's -1 becomes 0: on a scalar only the check shows, as no dim is
    read there)."""
    r = max(rank, 1)
    if not -r <= axis < r:
        raise ShapeError(f"Axis {axis} out of the tensor rank range [{-r}, {r - 1}].")
    return axis + r if axis < 0 else axis


def normalize_axes(axes: Sequence[int], rank: int) -> list[int]:
    """``ov::util::normalize_axes``: :func:`normalize_axis` of each axis, in order (repeats kept)."""
    return [normalize_axis(a, rank) for a in axes]
