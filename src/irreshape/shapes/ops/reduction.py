"""Reductions and the reshape family (op family ``reduction``), as openvino 2026.4.1 infers them.

Shape functions:

* ``ReduceMean``, ``ReduceSum``, ``ReduceMax``, ``ReduceMin``, ``ReduceProd``, ``ReduceLogicalAnd``,
  ``ReduceLogicalOr`` (opset1), ``ReduceL1``, ``ReduceL2`` (opset4): ``reduce_shape_inference.hpp``;
* ``Reshape`` (opset1): ``reshape_shape_inference.hpp``, through :func:`irreshape.shapes.reshape.reshape_v1`;
* ``Squeeze`` (opset1 and opset15, with ``allow_axis_skip``): ``squeeze_shape_inference.hpp``;
* ``Unsqueeze`` (opset1): ``unsqueeze_shape_inference.hpp``.

Value evaluators (the value bounds of these ops in shape subgraphs, by :mod:`irreshape.shapes.values`),
any version: ``Unsqueeze``, ``Squeeze``, ``Reshape``, ``ReduceProd`` and ``ReduceSum``.

OpenVINO's element-type checks (numeric or boolean data, integer axes and pattern) are each op's type rule,
beside its shape function.
"""

from __future__ import annotations

import math

from ...core import etypes as E
from ...core.dims import Bound, Dim, Shape, format_shape, is_static_shape
from .. import values as V
from ..dimops import normalize_axes
from ..node import Node, ShapeError, Undecided, shape_infer, type_infer, value_eval
from ..typerule import INTEGRAL, check_integral, data_type_with, in_type
from ..reshape import ReshapeError, reshape_v1

_ONE = Dim.of(1)


def _single_element(shape: Shape) -> bool:
    """A static shape of one element (``[]``, ``[1]``, ``[1,1]``...): one axis, unique by definition."""
    return is_static_shape(shape) and math.prod(d.lo for d in shape) == 1  # type: ignore[union-attr]


def _check_axes_rank(node: Node) -> None:
    """``check_unsqueeze_axes_rank`` and Squeeze's own check: the axes are a scalar or 1-D."""
    axes = node.input(1)
    if axes is not None and len(axes) > 1:
        raise ShapeError(f"Second input (axes) should not be of rank higher than 1. Got: {len(axes)}")


# -- reductions ----------------------------------------------------------------------------------------
@shape_infer("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceLogicalAnd",
             "ReduceLogicalOr", versions=(1,))
@shape_infer("ReduceL1", "ReduceL2", versions=(4,))
def _reduce(node: Node) -> list[Shape]:
    """``reduce_shape_infer`` (``reduce_shape_inference.hpp``): constant axes (normalised; repeated ones
    count once) become 1 with ``keep_dims``, else are dropped. Unknown axes: a rank of dynamic dims with
    ``keep_dims``; without, one less for a single axis, a dynamic rank for more."""
    data, axes_shape = node.input(0), node.input(1)
    if axes_shape is not None and len(axes_shape) > 1:
        raise ShapeError(f"Axes input must be a scalar or 1D input. Got: {format_shape(axes_shape)}")
    keep_dims = node.flag("keep_dims")
    values = node.const(1)
    if data is not None and values is not None:
        axes = set(normalize_axes(values, len(data)))
        if not keep_dims:
            return [[d for i, d in enumerate(data) if i not in axes]]
        if axes and not data:  # `result[axis] = 1` on a scalar
            raise ShapeError("Accessing out-of-range dimension")
        return [[_ONE if i in axes else d for i, d in enumerate(data)]]
    if data is None:
        return [None]
    if keep_dims:
        return [[Dim.dynamic()] * len(data)]
    if _single_element(axes_shape):
        return [[Dim.dynamic()] * max(len(data) - 1, 0)]  # `data_rank - 1`, an interval clipped at 0
    return [None]


@type_infer("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2")
def _reduce_types(node: Node) -> list[str | None]:
    check_integral(node, 1, "Element type of axes input must be integer. Got: {}")
    t = in_type(node, 0)
    if t == E.BOOLEAN:
        raise ShapeError(f"Element type of data input must be numeric. Got: {t}")
    return [t]


@type_infer("ReduceLogicalAnd", "ReduceLogicalOr")
def _reduce_logical_types(node: Node) -> list[str | None]:
    check_integral(node, 1, "Element type of axes input must be integer. Got: {}")
    t = in_type(node, 0)
    if t is not None and t not in (E.BOOLEAN, E.DYNAMIC):
        raise ShapeError("Element type of data input must be boolean.")
    return [t]


@value_eval("ReduceProd")
def _reduce_prod_value(node: Node, tensors: list[V.Tensor]) -> V.Tensor:
    return V.reduce_prod(tensors[0], tensors[1], node.flag("keep_dims"))


@value_eval("ReduceSum", "ReduceMean")
def _reduce_sum_value(node: Node, tensors: list[V.Tensor]) -> V.Tensor:
    return V.constant_only(node.type.lower(), tensors, {"keep_dims": node.flag("keep_dims")})


@value_eval("ReduceMax", "ReduceMin")
def _reduce_extreme_value(node: Node, tensors: list[V.Tensor]) -> V.Tensor:
    return V.reduce_extreme(node.type.lower(), tensors[0], tensors[1], node.flag("keep_dims"))


# -- Reshape -----------------------------------------------------------------------------------------
@shape_infer("Reshape", versions=(1,))
def _reshape(node: Node) -> list[Shape]:
    """``v1::shape_infer`` (``reshape_shape_inference.hpp``): with the pattern's bounds,
    :func:`reshape_v1`; without, as many dynamic dims as the pattern has elements (a dynamic rank where
    that length is unknown)."""
    data, pattern = node.input(0), node.input(1)
    try:
        given = node.value(1)
    except Undecided:
        given = None
    if given is not None and (given.et not in V.INT_RANGES or given.et == "boolean"):
        raise ShapeError("PartialShape pattern must be an integral number.")  # validate_and_infer_types, first
    if pattern is not None and len(pattern) != 1:
        raise ShapeError("Pattern shape must have rank 1")
    bounds = node.bounds(1)
    if bounds is not None:
        special_zero = node.flag("special_zero")
        try:
            out = reshape_v1(data, [Bound(lo, hi) for lo, hi in bounds], special_zero)
        except ReshapeError as e:
            raise ShapeError(e.message) from None
        return [out]
    if pattern is None or not pattern[0].is_static:
        return [None]
    return [[Dim.dynamic()] * pattern[0].lo]


type_infer("Reshape")(data_type_with((1, INTEGRAL, "PartialShape pattern must be an integral number.")))


@value_eval("Reshape")
def _reshape_value(node: Node, tensors: list[V.Tensor]) -> V.Tensor:
    return V.reshape(tensors[0], tensors[1], node.flag("special_zero"))


# -- Squeeze / Unsqueeze -----------------------------------------------------------------------------
def _squeeze(node: Node, v15: bool) -> Shape:
    """``v0::shape_infer`` and ``v15::shape_infer`` (``squeeze_shape_inference.hpp``). A squeezed axis
    whose dim cannot be 1 is kept; one that may be 1 is removed (Squeeze-15 with ``allow_axis_skip``: a
    dynamic one gives a dynamic rank). No axes (or none given): every 1 removed, a dynamic rank where a
    dynamic dim may be 1."""
    data = node.input(0)
    axes: set[int] | None = set()
    if node.has_input(1):
        _check_axes_rank(node)
        axes = None
        axes_shape = node.input(1)
        if data is not None and is_static_shape(axes_shape):
            values = node.const(1)
            if values is not None:
                axes = set(normalize_axes(values, len(data)))
            elif data and _single_element(axes_shape):  # one unknown axis: the rank drops by one, or not
                if not any(d.contains(1) for d in data):
                    return data
                return None if v15 else [Dim.dynamic()] * (len(data) - 1)
    if data is None or axes is None:
        return None
    if v15 and node.flag("allow_axis_skip", False) and any(
            i in axes and d.is_dynamic and d.contains(1) for i, d in enumerate(data)):
        return None
    if not axes:
        if any(d.is_dynamic and d.contains(1) for d in data):
            return None  # it cannot tell whether that dim is squeezed
        return [d for d in data if not d.contains(1)]
    return [d for i, d in enumerate(data) if i not in axes or not d.contains(1)]


@shape_infer("Squeeze", versions=(0,))
def _squeeze_v0(node: Node) -> list[Shape]:
    return [_squeeze(node, v15=False)]


@shape_infer("Squeeze", versions=(15,))
def _squeeze_v15(node: Node) -> list[Shape]:
    return [_squeeze(node, v15=True)]


@shape_infer("Unsqueeze", versions=(0,))
def _unsqueeze(node: Node) -> list[Shape]:
    """``v0::shape_infer`` (``unsqueeze_shape_inference.hpp``): the output rank counts the distinct axes
    as given; the axes are normalised against it and a 1 inserted at each distinct one (appended where
    two of them normalise to the same place past the end). Unknown axes give a dynamic rank."""
    _check_axes_rank(node)
    data, values = node.input(0), node.const(1)
    if data is None or values is None:
        return [None]
    if not values:
        raise ShapeError("'axes' input is mandatory")
    unique = list(dict.fromkeys(values))
    out = list(data)
    for a in sorted(set(normalize_axes(unique, len(data) + len(unique)))):
        if a > len(out) + 1:
            raise ShapeError(f"provided 'axes' value {a} is not valid.")
        out.insert(a, _ONE)  # past the end, `insert` appends
    return [out]


@value_eval("Unsqueeze")
def _unsqueeze_value(node: Node, tensors: list[V.Tensor]) -> V.Tensor:
    return V.unsqueeze(tensors[0], tensors[1])


@value_eval("Squeeze")
def _squeeze_value(node: Node, tensors: list[V.Tensor]) -> V.Tensor:
    return V.squeeze(tensors[0], tensors[1] if len(tensors) > 1 else None)
