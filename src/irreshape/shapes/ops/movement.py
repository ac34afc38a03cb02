"""Data movement and indexing: the shape functions of Concat, Split, VariadicSplit, Transpose, Gather (1, 7, 8),
GatherND (5, 8), GatherElements, GatherTree, ScatterUpdate, ScatterNDUpdate (3, 15), ScatterElementsUpdate
(3, 12), Tile, Broadcast (1, 3), Slice, StridedSlice, Reverse, ReverseSequence, OneHot, ShapeOf (0, 3),
Range (0, 4), TopK (1, 3, 11), NonZero, Bucketize and Unique, as openvino 2026.4.1 infers them; and the value
evaluators of the ones that appear in shape subgraphs (ShapeOf, Gather, Concat, Transpose, Slice,
StridedSlice, Broadcast, Split, VariadicSplit, Range), which wrap :mod:`irreshape.shapes.values`.

Each shape function follows one unit of ``src/core/shape_inference/include`` (named in its docstring),
plus the checks of the op's ``validate_and_infer_types`` that reject a node. Where an op's behaviour
changed between versions, the function reads the version as the opset number OpenVINO's IR reader
resolves it with (``opsetN`` holds the newest version of the op up to N).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ...core import etypes as E
from ...core.dims import INF, INT64_MAX, INT64_MIN, Dim, Shape
from .. import values as V
from ..dimops import (add, at, broadcast_merge, broadcast_merge_into, compatible, length, meet, merge_checked,
                      merge_into, normalize_axis, one_element, rank_is, shapes_compatible, trunc_div)
from ..node import Node, ShapeError, Undecided, shape_infer, type_infer, value_eval
from ..typerule import (INDEX_TYPES, INTEGRAL, IS_INDEX, NOT_REAL, NUMERIC, STRICT, attr_type, check_integral,
                        check_types, data_type_with, in_type, merge_rule, merged_type, merged_types, type_one_of)


# -- ov::PartialShape and the inputs -----------------------------------------------------------------
def _dyn(rank: int | None) -> Shape:
    """``PartialShape::dynamic(rank)``."""
    return None if rank is None else [Dim.dynamic() for _ in range(rank)]


def _opset(node: Node) -> int:
    """The op version the layer is read as (Gather in opset8: 8)."""
    if node.version is None:
        raise Undecided(f"version {node.opset_name!r} is not an opset OpenVINO's IR reader knows")
    return node.version


def _shape_input(node: Node, i: int, read: Callable[[int], Dim]) -> Shape:
    """``get_input_const_data_as_shape`` where the op reads a constant's values its own way: each made a dim
    by ``read`` (OpenVINO's own ``Dimension(v)`` is :meth:`Node.as_shape`'s); the element bounds of a
    computed value as :meth:`Node.as_shape` reads them; None where OpenVINO has no value."""
    if node.shape_const(i):
        return [read(v) for v in node.const(i) or ()]
    return node.as_shape(i)


def _scalar_axis(node: Node, i: int) -> int | None:
    values = node.const(i)
    return None if values is None else values[0]


# -- Concat, Split, VariadicSplit ----------------------------------------------------------------------
@shape_infer("Concat")
def _concat(node: Node) -> list[Shape]:
    """``concat_shape_inference.hpp``: the lengths on the axis summed, every other dim merged."""
    axis = node.a["axis"]
    out: Shape = None
    total = Dim.of(0)
    norm = 0
    last: Shape = None
    for s in node.inputs:
        if s is None:
            total = add(total, Dim.dynamic())
            continue
        norm = normalize_axis(axis, len(s))
        total = add(total, at(s, norm))
        if s is last:  # the same shape again (a wide Concat's inputs share theirs): merging it changes nothing
            continue
        last = s
        copy = list(s)
        copy[norm] = Dim.dynamic()
        ok, out = merge_into(out, copy)
        if not ok:
            raise ShapeError("Argument shapes are inconsistent; they must have the same rank, and must have "
                             f"equal dimension everywhere except on the concatenation axis (axis {norm}).")
    if out is not None:
        out[norm] = total
    return [out]


@type_infer("Concat")
def _concat_types(node: Node) -> list[str | None]:
    out: str | None | bool = E.DYNAMIC
    for t in node.types:
        out = E.merge(out, t) if out is not None else None  # type: ignore[arg-type]
        if out is False:
            raise ShapeError("Argument element types are inconsistent.")
    return [out if node.types else None]  # type: ignore[list-item]


def _split_axis(node: Node, data: Shape) -> int | None:
    """The axis of Split and VariadicSplit: one constant value, normalised against the data rank; None where
    the value or the data rank is unknown."""
    axes = node.const(1)
    if data is None or axes is None:
        return None
    if len(axes) != 1:
        raise ShapeError(f"a scalar axis value is expected. Got: {len(axes)} axes")
    return normalize_axis(axes[0], len(data))


@shape_infer("Split")
def _split(node: Node) -> list[Shape]:
    """``split_shape_inference.hpp``: ``num_splits`` equal parts; an interval divided with float32
    arithmetic, as OpenVINO does."""
    parts = node.int("num_splits")
    if parts <= 0:
        raise ShapeError("Attribute 'num_splits' must be greater than zero")
    data = node.input(0)
    if not rank_is(node.input(1), 0):
        raise ShapeError(f"'axis' input must be a scalar. Got: {node.input(1)}")
    axis = _split_axis(node, data)
    if axis is None:
        if parts >= 1 << 31:
            raise Undecided(f"num_splits={parts}")
        return [_dyn(None if data is None else len(data))] * parts
    d = data[axis]  # type: ignore[index]
    if d.is_static:
        if d.lo % parts:
            raise ShapeError(f"Dimension of data input shape along 'axis': {d.lo} must be evenly divisible by "
                             f"'num_splits' attribute value: {parts}")
        each = Dim.of(d.lo // parts)
    else:
        if d.hi < parts:
            raise ShapeError("The interval maximum of the dimension for data input shape along 'axis' must be "
                             f"greater or equal to 'num_splits' attribute. Got: {d} and {parts}")
        each = Dim(_f32_share(d.lo, parts), d.hi if d.hi == INF else _f32_share(d.hi, parts))
    if parts >= 1 << 31:  # a size_t written negative: as many outputs
        raise Undecided(f"num_splits={parts}")
    out = list(data)
    out[axis] = each
    return [out] * parts


type_infer("Split")(data_type_with((1, INTEGRAL, "Element type of 'axis' input must be integer. Got: {}")))


def _f32_share(v: int, parts: int) -> int:
    """``static_cast<int64_t>(v * (1.0f / parts))``: the quotient and the product rounded to float32. Split's
    own division of an interval's bounds, on purpose not ``Dimension::operator/`` (:func:`dimops.div`, in
    doubles, rounding the lower bound up): the two differ on large and on indivisible bounds."""
    return int(V.wrap(V.wrap(float(v), "f32") * V.wrap(1.0 / parts, "f32"), "f32"))


@shape_infer("VariadicSplit")
def _variadic_split(node: Node) -> list[Shape]:
    """``variadic_split_shape_inference.hpp``: one output per ``split_lengths`` element (one may be -1)."""
    axis_shape, lengths_shape, data = node.input(1), node.input(2), node.input(0)
    if not one_element(axis_shape):
        raise ShapeError(f"Axis should be a scalar or of shape [1]. Got {axis_shape} instead.")
    if lengths_shape is None or not all(d.is_static for d in lengths_shape):
        # OpenVINO then makes a node without outputs, which cannot be the layer the IR describes
        raise Undecided("the number of VariadicSplit outputs is unknown")
    if len(lengths_shape) != 1:
        raise ShapeError(f"Split lengths should be a 1-D tensor. Got {len(lengths_shape)} instead.")
    count = lengths_shape[0].lo
    axis = _split_axis(node, data)
    if axis is None:
        return [_dyn(None if data is None else len(data))] * count
    lengths = node.const(2)
    if lengths is None:
        out = list(data)
        out[axis] = Dim.dynamic()
        return [out] * count
    total, minus_one = 0, -1
    for i, n in enumerate(lengths):
        if n < -1:
            raise ShapeError(f"Invalid value {n} in split lengths input. Should be >= -1.")
        if n == -1:
            if minus_one != -1:
                raise ShapeError(f"Cannot infer split with multiple -1 values at {minus_one} and {i}")
            minus_one = i
        else:
            total += n
    d = data[axis]
    if minus_one >= 0 and d.is_static:
        lengths[minus_one] = d.lo - total
        total += lengths[minus_one]
    if d.is_static and total != d.lo:
        raise ShapeError(f"Total length of splits: {total} must match the length of the chosen axis: {d}")
    outs = []
    for n in lengths[:count]:
        out = list(data)
        out[axis] = Dim.of(n)
        outs.append(out)
    return outs


# -- Transpose -----------------------------------------------------------------------------------------
@shape_infer("Transpose")
def _transpose(node: Node) -> list[Shape]:
    """``transpose_shape_inference.hpp``: the dims permuted by a constant order (empty: reversed)."""
    data, order_shape = node.input(0), node.input(1)
    if order_shape is not None:
        if len(order_shape) != 1:
            raise ShapeError("Input order must be a vector.")
        rank = Dim.dynamic() if data is None else Dim.of(len(data))
        if not (compatible(order_shape[0], rank) or order_shape[0] == 0):
            raise ShapeError("Input order must have shape [n], where n is the rank of arg.")
    order = node.const(1)
    if order is None:
        return [_dyn(None if data is None else len(data))]
    if data is None:
        return [_dyn(len(order))]
    rank = len(data)
    if not order:
        order = list(range(rank - 1, -1, -1))
    elif len(set(order)) != len(order) or not all(0 <= a < rank for a in order):
        raise ShapeError(f"Permutation {order} is not valid for input shape {data}")
    return [[data[a] for a in order]]


type_infer("Transpose")(data_type_with((1, INTEGRAL, "Input order must have an integral number element type.")))


# -- Gather family -------------------------------------------------------------------------------------
@shape_infer("Gather")
def _gather(node: Node) -> list[Shape]:
    """``gather_shape_inference.hpp`` (``GatherBase``): ``data[:axis] + indices[batch_dims:] +
    data[axis+1:]``, the batch dims intersected; Gather-1 has no ``batch_dims``."""
    data, indices, axis_shape = node.input(0), node.input(1), node.input(2)
    batch_dims = node.a.get("batch_dims", 0)  # Gather-1 has none
    if axis_shape is not None and all(d.is_static for d in axis_shape):
        if not (len(axis_shape) == 0 or (len(axis_shape) == 1 and axis_shape[0] == 1)):
            raise ShapeError("Axis input must be scalar or have 1 element. "
                             f"But instead got axis_shape = {axis_shape}")
    if batch_dims < 0 and indices is not None:
        batch_dims += len(indices)
    axis = _scalar_axis(node, 2)
    if axis is not None:
        if data is not None:
            axis = normalize_axis(axis, len(data))
        if not (batch_dims <= axis or batch_dims < 0 or axis < 0):
            raise ShapeError("After normalization batch_dims must be <= axis. "
                             f"But instead got: batch_dims = {batch_dims}, axis = {axis}")
    if indices is not None and batch_dims >= 0 and batch_dims > len(indices):
        raise ShapeError("The batch_dims must be <= indices_rank. But instead got: "
                         f"batch_dims = {batch_dims}, indices_rank = {len(indices)}")
    if data is None or indices is None:
        return [None]
    if not data and axis is not None:
        raise ShapeError("Accessing out-of-range dimension")  # the data dim at the axis of a scalar
    rank = len(data) + len(indices) - 1 - batch_dims
    if rank < 0:
        raise ShapeError("vector::_M_default_append")  # PartialShape::resize of a negative rank
    if rank > V.MAX_ELEMENTS:  # a batch_dims far below -rank: PartialShape::resize, then indices[batch_dims]
        if rank > (1 << 63) // 32:  # past vector<Dimension>::max_size (32-byte dims)
            raise ShapeError("vector::_M_default_append")
        if axis is not None and batch_dims < -len(indices):
            raise ShapeError(f"Accessing out-of-range dimension (std::bad_alloc first where a shape of rank {rank} "
                             "does not fit in memory)")
        raise Undecided(f"batch_dims={batch_dims} makes a rank of {rank}")
    out = [Dim.dynamic()] * rank
    i = 0
    for i in range(max(batch_dims, 0)):
        if not compatible(data[i], indices[i]):
            raise ShapeError(f"Shapes {data} and {indices} are not consistent. data and indices must have "
                             "equal or intersecting sizes until batch_dims")
        out[i] = meet(data[i], indices[i])
    i = max(batch_dims, 0)
    if axis is not None:
        # OpenVINO's loops as written: a negative batch_dims (indices of a lower rank than it) reads the dims with
        # PartialShape's negative indexing, which refuses an index below -rank as Python's lists do
        try:
            for i in range(i, axis):
                out[i] = data[i]
            i = max(i, axis)
            for i in range(i, axis + len(indices) - batch_dims):
                out[i] = indices[batch_dims - axis + i]
            i = max(i, axis + len(indices) - batch_dims)
            for i in range(i, rank):
                out[i] = data[batch_dims + 1 - len(indices) + i]
        except IndexError:
            raise ShapeError("Accessing out-of-range dimension") from None
    return [out]


type_infer("Gather")(data_type_with((1, INTEGRAL, "Indices element type must be of an integral number type."),
                                    (2, INTEGRAL, "Axis element type must be of an integral number type.")))
type_infer("Gather", versions=(1,))(data_type_with())  # Gather-1 checks no type (measured: f32 indices load)


@shape_infer("GatherND")
def _gather_nd(node: Node) -> list[Shape]:
    """``gather_nd_shape_inference.hpp``: batch dims merged, then ``indices[batch_dims:-1]`` and the data
    dims past the indexed ones; GatherND-5 folds the batch dims into one."""
    data, indices = node.input(0), node.input(1)
    batch_dims = node.int("batch_dims")
    for s, what in ((data, "data"), (indices, "indices")):
        if s is not None:
            if not s:
                raise ShapeError(f"{what.capitalize()} rank must be at least 1.")
            if len(s) <= batch_dims:
                raise ShapeError(f"Number of batch dimensions must not exceed a rank of {what}.")
    if data is None or indices is None or not indices[-1].is_static:
        return [None]
    tuple_length = indices[-1].lo
    if tuple_length + batch_dims > len(data):
        raise ShapeError("Length of a tuple with indices must not exceed a rank of data tensor excluding "
                         "batch dimensions.")
    out = [merge_checked(d, i, "Batch dimensions of data and indices must be the same.")
           for d, i in zip(data[:batch_dims], indices[:batch_dims])]
    out += list(indices[batch_dims:-1]) + list(data[batch_dims + tuple_length:])
    if _opset(node) < 8 and batch_dims > 1:
        folded = out[0]
        for d in out[1:batch_dims]:
            folded = folded * d
        out = [folded] + out[batch_dims:]
    return [out]


type_infer("GatherND")(data_type_with((1, INTEGRAL, "The indices type is expected to be an integer type. Got: {}")))


@shape_infer("GatherElements")
def _gather_elements(node: Node) -> list[Shape]:
    """``gather_elements_shape_inference.hpp``: the indices' shape, merged with the data's off the axis."""
    data, indices = node.input(0), node.input(1)
    if indices is not None and len(indices) < 1:
        raise ShapeError("indices rank must be >= 1.")
    if data is None:
        return [None if indices is None else list(indices)]
    if len(data) < 1:
        raise ShapeError("data rank must be >= 1.")
    axis = normalize_axis(node.int("axis"), len(data))
    out = list(data)
    if indices is None:
        out[axis] = Dim.dynamic()
        return [out]
    if len(data) != len(indices):
        raise ShapeError(f"data and indices rank must be equal. But instead got: {len(data)} and {len(indices)}")
    out[axis] = indices[axis]
    ok, out = merge_into(out, indices)
    if not ok:
        raise ShapeError(f"Shapes {data} and {indices} are not consistent, `data` and `indices` must have equal "
                         "or intersecting dimensions, except for the dimension at axis index.")
    return [out]


type_infer("GatherElements")(data_type_with((1, IS_INDEX,
                                             "indices must be of int32 or int64 type. But instead got: {}", STRICT)))


@shape_infer("GatherTree")
def _gather_tree(node: Node) -> list[Shape]:
    """``gather_tree_shape_inference.hpp``: step_ids merged with parent_idx (rank 3), the batch dim with
    max_seq_len's length."""
    ok, out = merge_into(node.input(0), node.input(1))
    if not ok or not rank_is(out, 3):
        raise ShapeError("step_ids and parent_idx inputs must have the same shape with rank 3. "
                         f"Got: {node.input(0)} and {node.input(1)}, respectively")
    max_len = node.input(2)
    if not rank_is(max_len, 1):
        raise ShapeError(f"max_seq_len input must have rank 1. Got: {max_len}")
    if out is not None and max_len is not None:
        out[1] = merge_checked(out[1], max_len[0], "Number of elements of max_seq_len input must match BATCH_SIZE "
                               f"dimension of step_ids/parent_idx inputs. Got: {out[1]} and {max_len[0]}, respectively")
    if not rank_is(node.input(3), 0):
        raise ShapeError(f"end_token input must be scalar. Got: {node.input(3)}")
    return [out]


type_infer("GatherTree")(merge_rule((0, 1, 2, 3), "Inputs must have the same element type. Got: step_ids ({}), "
                                                  "parent_idx_et ({}), max_seq_len ({}), end_token ({})"))


# -- Scatter family ------------------------------------------------------------------------------------
@shape_infer("ScatterUpdate")
def _scatter_update(node: Node) -> list[Shape]:
    """``ScatterBase::validate_and_infer_types``: the data shape, once the updates fit
    ``data[:axis] + indices + data[axis+1:]``."""
    data, indices, updates, axis_shape = (node.input(i) for i in range(4))
    if not one_element(axis_shape):
        raise ShapeError(f"Axis input shape is required to be scalar or 1D tensor. Got: {axis_shape}")
    if data is not None and indices is not None and updates is not None \
            and len(updates) != len(indices) + len(data) - 1:
        raise ShapeError("Updates rank is expected to be rank(indices) + rank(data) - 1. Got: rank(data) = "
                         f"{len(data)}, rank(indices) = {len(indices)}, rank(updates) = {len(updates)}")
    if data is None:
        return [None]
    axis = _scalar_axis(node, 3)
    if axis is not None:
        axis = normalize_axis(axis, len(data))
        if indices is not None and updates is not None:
            expected = list(data[:axis]) + list(indices) + list(data[axis + 1:])
            if not all(compatible(u, e) for u, e in zip(updates, expected)):
                raise ShapeError("Updates shape must have appropriate dimensions equal to indices and data "
                                 f"dimensions. Updates shape:{updates}, data shape: {data}, indices_shape: "
                                 f"{indices}, axis: {axis}.")
    return [list(data)]


@type_infer("ScatterUpdate")
def _scatter_update_types(node: Node) -> list[str | None]:
    check_integral(node, 1, "Indices element type must be of an integral number type.")
    check_integral(node, 3, "Axis element type must be of an integral number type.")
    merged_type(node, 0, 2, "Element types for input data and updates do not match (data element type: {}, updates "
                            "element type: {}).")
    return [in_type(node, 0)]  # the data's own type, even where it is dynamic and the updates' is not


@shape_infer("ScatterNDUpdate")
def _scatter_nd_update(node: Node) -> list[Shape]:
    """``scatter_nd_base_shape_inference.hpp``: the data shape, once the updates fit
    ``indices[:-1] + data[indices[-1]:]``."""
    data, indices, updates = node.input(0), node.input(1), node.input(2)
    if indices == [] or data == []:
        raise ShapeError("Indices rank and inputs_rank are expected to be at least 1")
    if data is not None and indices is not None and indices[-1].is_static:
        k = indices[-1].lo
        if k > len(data):
            raise ShapeError("Last dimension of indices can be at most the rank of inputs")
        if updates is not None:
            expected_rank = len(data) + len(indices) - 1 - k
            if len(updates) != expected_rank and expected_rank != 0:
                raise ShapeError("Rank of updates must be rank of inputs + rank of indices - last dimension of "
                                 "indices - 1")
            pairs = zip(list(indices[:-1]) + list(data[k:]), updates)
            if not all(compatible(e, u) for e, u in pairs):
                raise ShapeError("updates_shape[0:indices_rank-1] shape must be indices_shape[:-1]")
    return [None if data is None else list(data)]


@type_infer("ScatterNDUpdate")
def _scatter_nd_types(node: Node) -> list[str | None]:
    t = in_type(node, 1)
    if t is not None and t not in (*INDEX_TYPES, E.DYNAMIC):
        raise ShapeError("Indices element type must be i64 or i32")
    return [merged_type(node, 0, 2, "Updates element type must be the same as inputs")]


@shape_infer("ScatterElementsUpdate")
def _scatter_elements_update(node: Node) -> list[Shape]:
    """``scatter_elements_update_shape_inference.hpp``: the data shape; indices and updates alike, the
    axis within the data rank."""
    data, indices, updates, axis_shape = (node.input(i) for i in range(4))
    if not rank_is(axis_shape, 0, 1):
        raise ShapeError(f"Axis input shape are required to be scalar or 1D tensor. Got: {axis_shape}")
    if data is not None and indices is not None and len(data) != len(indices):
        raise ShapeError(f"Indices rank and data rank are required to be equal. Got: {len(indices)} and: "
                         f"{len(data)}")
    if not shapes_compatible(indices, updates):
        raise ShapeError(f"Indices and updates input shapes are required to be equal. Got: {indices} and: "
                         f"{updates}")
    if data is not None:
        axis = _scalar_axis(node, 3)
        if axis is not None:
            normalize_axis(axis, len(data))
    return [None if data is None else list(data)]


@type_infer("ScatterElementsUpdate")
def _scatter_elements_types(node: Node) -> list[str | None]:
    check_types(node, (1, NOT_REAL, "Indices element type must be integral_number, but is: {}"),  # boolean passes
                (3, NOT_REAL, "Axis element type must be integral_number, but is: {}"))
    return [merged_type(node, 0, 2, "Data type and updates type are required to be the same. Got: {} and: {}")]


# -- Tile, Broadcast -----------------------------------------------------------------------------------
@shape_infer("Tile")
def _tile(node: Node) -> list[Shape]:
    """``tile_shape_inference.hpp``: the shorter of data and repeats padded with 1s, dims multiplied;
    a negative constant repeat counts as 0."""
    data, repeats_shape = node.input(0), node.input(1)
    if not rank_is(repeats_shape, 1):
        raise ShapeError("Tile repeats must be of rank 1")
    repeats = _shape_input(node, 1, lambda v: Dim.of(max(0, v)))
    if data is not None and repeats is not None:
        rank = max(len(data), len(repeats))
        repeats = [Dim.of(1)] * (rank - len(repeats)) + repeats
        lead = rank - len(data)
        return [repeats[:lead] + [d * r for d, r in zip(data, repeats[lead:])]]
    if data is not None and repeats_shape is not None and repeats_shape[0].is_static:
        return [_dyn(max(len(data), repeats_shape[0].lo))]
    return [None]


type_infer("Tile")(data_type_with((1, NOT_REAL, "Tile repeats must have any integer element type, but has {}")))


_BROADCAST_MODES = {"numpy": "numpy", "none": "explicit", "explicit": "explicit", "pdpd": "pdpd",
                    "bidirectional": "bidirectional"}


@shape_infer("Broadcast")
def _broadcast(node: Node) -> list[Shape]:
    """``broadcast_shape_inference.hpp`` (``broadcast_base_shape_infer``): the target shape, checked
    against the data (numpy, explicit with axes_mapping, pdpd) or broadcast with it (bidirectional).

    OpenVINO also reads a target that is a Concat it cannot bound, input by input (a Constant input's first value,
    any other input ``?``): the graph gives that reading as the value of input 1 (``checks.graph``)."""
    v3 = _opset(node) >= 3
    mode = _BROADCAST_MODES.get(node.lower("mode"))
    if mode is None or (mode == "bidirectional" and not v3):
        raise Undecided(f"Broadcast mode {node.attr('mode')!r}")
    n_inputs = len(node.inputs)
    if v3 and mode == "explicit" and n_inputs != 3:
        raise ShapeError("axes_mapping input should be provided if explicit mode is used")
    if v3 and mode != "explicit" and n_inputs != 2:
        raise ShapeError("axes_mapping input should not be provided for mode other than explicit")
    if not v3 and mode == "explicit" and n_inputs < 3:
        mode = "numpy"
    data, target_shape = node.input(0), node.input(1)
    if not rank_is(target_shape, 1):
        raise ShapeError(f"Broadcast shape rank must be 1, but has {len(target_shape)}")  # type: ignore[arg-type]
    if mode == "explicit" and not rank_is(node.input(2), 1):
        raise ShapeError(f"Broadcast axes rank must be 1, but has {len(node.input(2))}")  # type: ignore[arg-type]
    target = node.as_shape(1)
    target_rank = target_shape[0].lo if target_shape is not None and target_shape[0].is_static else None
    if mode == "bidirectional":
        if target is not None:
            return [_bidirectional(data, target)]
        if data is None or target_rank is None:
            return [None]
        ok, out = broadcast_merge_into(_dyn(target_rank), data)
        if not ok:
            raise ShapeError("Broadcast shape inference failed, output shape calculation with "
                             "'broadcast_merge_into' was unsuccessful.")
        return [out]
    if target is None:
        out = _dyn(target_rank)
    elif mode == "pdpd":
        out = _pdpd(node, data, target)
    else:
        out = target
        if mode == "numpy":
            _check_numpy(data, target)
    if mode == "explicit":
        _check_explicit(node, data, target)
    return [out]


type_infer("Broadcast")(data_type_with((1, INTEGRAL, "Broadcast shape must be an integral number, but is: {}"),
                                       (2, INTEGRAL, "Broadcast axes must be integral numbers, but are: {}")))


def _check_numpy(data: Shape, target: list[Dim]) -> None:
    if data is None:
        return
    if len(target) < len(data):
        raise ShapeError(f"Broadcast target_shape has smaller rank {len(target)} than arg shape {len(data)}")
    for a, t in zip(data, target[len(target) - len(data):]):
        if not (a.is_dynamic or t.is_dynamic or a.contains(1) or compatible(a, t)):
            raise ShapeError(f"Input shape dimension equal {a} cannot be broadcasted (numpy mode) to {t}. "
                             f"Allowed input dimension value would be 1{'' if t == 1 else f' or {t}'}")


def _check_explicit(node: Node, data: Shape, target: Shape) -> None:
    axes_shape = node.input(2)
    if data is None or node.input(1) is None or axes_shape is None or not all(d.is_static for d in axes_shape):
        return
    count = at(axes_shape, 0).lo
    rank = 1 if not data and count > 0 else len(data)
    if count != rank:
        raise ShapeError(f"Broadcast axes_mapping shape {axes_shape} doesn't match rank of input tensor {rank}")
    mapping = node.const(2)
    if target is None or mapping is None:
        return
    mapping = [m % (1 << 64) for m in mapping]  # read as size_t
    if mapping != sorted(mapping):
        raise ShapeError(f"Broadcast doesn't permit transposes. axes_mapping {mapping} not in sorted order")
    if not data and mapping and not at(target, mapping[0]).contains(1):
        raise ShapeError(f"Broadcast target[axes_mapping[0]]. Expected 1. Got {target[mapping[0]]}")
    for i, m in enumerate(mapping):
        if m >= len(target):
            raise ShapeError(f"Broadcast axes_mapping[{i}]: {m} exceeds target rank {len(target)}")
        if data:
            a = at(data, i)
            if not (compatible(target[m], a) or a.contains(1)):
                raise ShapeError(f"Broadcast target[axes_mapping[{i}]] Expected {a}. Got {target[m]}")


def _pdpd(node: Node, data: Shape, target: list[Dim]) -> Shape:
    if data is None:
        return _dyn(len(target))
    axis = node.int("mode.mode.axis", node.int("axis", 0))
    start = len(target) - len(data) if axis == -1 else axis
    if start < 0:
        raise ShapeError("Broadcast start_axis must be greater than 0")
    out = list(target)
    for i in range(start, len(target)):
        a = at(data, i - start)
        if a == 1:
            continue
        if target[i] == 1:
            out[i] = a
        else:
            out[i] = merge_checked(a, target[i], f"Broadcast incorrect target shape. Expecting either 1 or {a} . Got "
                                                 f"{target[i]}")
    return out


def _bidirectional(data: Shape, target: list[Dim]) -> Shape:
    """``broadcast_merge_into`` (numpy) of the data and the target shape; the first pair of dims that do not
    broadcast rejects the node."""
    if data is None:
        return None
    ok, out = broadcast_merge_into(data, target)
    if not ok:
        ones = [Dim.of(1)] * len(out)  # type: ignore[arg-type]
        pairs = zip(ones[len(data):] + list(data), ones[len(target):] + target)
        x, y = next((x, y) for x, y in pairs if broadcast_merge(x, y) is None)
        raise ShapeError(f"Broadcast incorrect target shape. Expecting either 1 or {x}. Got {y}")
    return out


# -- Slice, StridedSlice -------------------------------------------------------------------------------
def _sliced_value(dim: int, start: int, stop: int, step: int) -> int:
    """``slice::get_sliced_value`` (``slice_shape_inference_utils.hpp``): the length of ``[start:stop:step]``
    of a dim of length ``dim`` (-1: unbounded), -1 for an unbounded result."""
    reverse = step < 0
    norm_dim = INT64_MAX if dim == -1 else dim
    dim_is_max = norm_dim == INT64_MAX
    start_neg = start < 0
    diff_sign = start_neg != (stop < 0)
    start_max = start == INT64_MAX
    start_limit = start_max or start == INT64_MIN
    stop_max = stop == INT64_MAX
    any_max = start_max or stop_max
    if dim_is_max and (diff_sign or any_max or start_limit):
        if reverse:
            ub = -1 if (start_neg or any_max) else -1 - start
        elif start_neg and not start_limit:
            ub = -start if stop_max else stop
        else:
            ub = -1
        lb = 0
    else:
        lower_max = norm_dim - 1 if reverse else norm_dim
        upper_min = -1 if reverse else 0
        lb = min(max(start + norm_dim if start < 0 else start, 0), lower_max)
        ub = min(max(stop + norm_dim if stop < 0 else stop, upper_min), norm_dim)
    if dim_is_max and lb == 0 and ub == -1:
        return -1
    n = min(0, ub - lb) if reverse else max(0, ub - lb)
    if step == -1:
        return -n
    if n != 0 and step != 1:
        n = n + 1 if reverse else n - 1
        n = trunc_div(n, step) + 1
    return n


def slice_axes(node: Node, port: int, start_s: Shape | None, start: object, rank: int | None,
               op: str) -> dict[int, int] | None:
    """Slice's and SliceScatter's axes (input ``port``, where given): each sliced axis -> the index of its start,
    stop and step values; the first axes in order without an axes input; None where the values are not known."""
    if len(node.inputs) > port:
        if not shapes_compatible(node.input(port), start_s):
            raise ShapeError(f"{op} `axes` input must have compatible shape with `start`, `stop`, `step` inputs.")
        axes = node.const(port)
        if axes is None or rank is None:
            return None
        axes = [normalize_axis(a, rank) for a in axes]
        if len(set(axes)) != len(axes):
            raise ShapeError(f"{op} values in `axes` input must be unique.")
        return {a: i for i, a in enumerate(axes)}
    return None if start is None else {i: i for i in range(len(start))}  # type: ignore[arg-type]


def slice_dim(d: Dim, start: tuple[int, int], stop: tuple[int, int], step: int) -> Dim:
    """``slice::make_dim``: the sliced dim from the bounds of start and stop."""
    top = length(d.hi)

    def lb_within(lb: int) -> bool:
        return top == -1 or lb + top >= 0

    def ub_within(ub: int) -> bool:
        return top == -1 or ub < top

    def ends(b: tuple[int, int]) -> tuple[int, int]:
        crossing = b[0] < 0 <= b[1]
        return (0 if crossing and lb_within(b[0]) else b[0]), (-1 if crossing and ub_within(b[1]) else b[1])

    start_lb, start_ub = ends(start)
    stop_lb, stop_ub = ends(stop)
    low = length(d.lo)
    if step > 0:
        out = Dim(_sliced_value(low, start_ub, stop_lb, step), _sliced_value(top, start_lb, stop_ub, step))
    else:
        out = Dim(_sliced_value(low, start_lb, stop_ub, step), _sliced_value(top, start_ub, stop_lb, step))
    return out  # a lower bound past the upper one: OpenVINO's empty interval (written -1, printed ?)


_SLICE_INPUTS = ("start", "stop", "step", "axes")


@shape_infer("Slice")
def _slice(node: Node) -> list[Shape]:
    """``slice_shape_inference.hpp``: each sliced axis from the bounds of start and stop and a constant
    step; any axis can shrink to ``0..max`` while the axes are unknown."""
    data = node.input(0)
    if data is None:
        return [None]
    if not data:
        raise ShapeError("Slice `data` input can't be a scalar.")
    for i in range(1, len(node.inputs)):
        s = node.input(i)
        if not rank_is(s, 1):
            raise ShapeError(f"Slice `{_SLICE_INPUTS[i - 1]}` input must be a 1D tensor. Got rank: {len(s)}")
        if s is not None and s[0].lo > len(data):
            raise ShapeError(f"Slice `{_SLICE_INPUTS[i - 1]}` input dim size can't be bigger than `data` rank.")
    start_s, stop_s, step_s = node.input(1), node.input(2), node.input(3)
    if not (shapes_compatible(start_s, stop_s) and shapes_compatible(start_s, step_s) and shapes_compatible(stop_s, step_s)):
        raise ShapeError("Slice `start`, `stop`, `step` inputs must have compatible shapes.")
    start, stop, steps = node.bounds(1), node.bounds(2), node.const(3)
    axes_map = slice_axes(node, 4, start_s, start, len(data), "Slice")
    if axes_map and None not in (start, stop, steps) and \
            max(axes_map.values()) >= min(len(start), len(stop), len(steps)):  # type: ignore[arg-type]
        # values fewer than their shapes say (a Const's declared dims taken in the blame reading): no reading
        raise Undecided("the start, stop and step values are fewer than the axes they slice")
    out = []
    for k, d in enumerate(data):
        if axes_map is not None and k not in axes_map:
            out.append(d)
        elif axes_map is not None and start is not None and stop is not None and steps is not None:
            i = axes_map[k]
            if steps[i] == 0:
                raise ShapeError("Step must be non-zero")
            out.append(slice_dim(d, start[i], stop[i], steps[i]))
        else:
            out.append(Dim(0, d.hi))
    return [out]


type_infer("Slice")(data_type_with(*((i, INTEGRAL, f"Slice `{name}` input type must be integer.")
                                     for i, name in ((1, "start"), (2, "stop"), (3, "step"), (4, "axes")))))


def _mask(node: Node, name: str) -> set[int]:
    return {i for i, m in enumerate(node.ints(name)) if m == 1}


_STRIDED_INPUTS = ("Begin", "End", "Strides")


@shape_infer("StridedSlice")
def _strided_slice(node: Node) -> list[Shape]:
    """``strided_slice_shape_inference.hpp``: begin/end bounds and constant strides per axis, with the
    begin, end, new-axis, shrink-axis and ellipsis masks."""
    masks = [node.ints(m) for m in ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")]
    if any(v not in (0, 1) for m in masks for v in m):
        raise ShapeError("All masks of StridedSlice must have be 0 or 1")
    if any(len(m) not in (0, len(masks[0])) for m in masks):
        raise ShapeError("All masks of StridedSlice must have the same size")
    for i in range(1, len(node.inputs)):
        if not rank_is(node.input(i), 1):
            raise ShapeError(f"{_STRIDED_INPUTS[i - 1]} input must be 1D (has rank: {len(node.input(i))})")
    data = node.input(0)
    if data is None:
        return [None]
    begin, end = node.bounds(1), node.bounds(2)
    strides = node.const(3) if node.has_input(3) else ([1] * len(begin) if begin is not None else None)

    def count(s: Shape) -> int:
        return s[0].lo if s is not None and s[0].is_static else -1
    axes, end_axes = count(node.input(1)), count(node.input(2))
    if axes != -1 and end_axes != -1:
        if axes != end_axes:
            raise ShapeError("Begin and end need to have same number of values.")
    elif end_axes != -1:
        axes = end_axes
    stride_axes = len(strides) if strides is not None else -1
    if axes != -1 and stride_axes != -1:
        if axes != stride_axes:
            raise ShapeError("Stride needs to have same number of values as begin and end.")
    elif stride_axes != -1:
        axes = stride_axes
    if axes < 0:
        return [None]
    begin_mask, end_mask, new_axis, shrink, ellipsis = (_mask(node, m) for m in (
        "begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask"))
    if len(ellipsis) > 1:
        raise ShapeError("At most one ellipsis is allowed.")
    rank = len(data)
    if not ellipsis and rank + len(new_axis) < axes:
        raise ShapeError("Input rank plus number of new axis has to be at least the size of Lower and Upper "
                         "bounds vector.")
    out: list[Dim] = []
    k = 0  # the input dim
    for axis in range(axes):
        if axis in ellipsis:
            before = sum(1 for i in range(axis) if i not in new_axis)
            after_new = sum(1 for i in range(axis + 1, len(begin)) if i in new_axis) if begin is not None else 0
            hidden = rank - (axes - axis - after_new - 1) - before
            for _ in range(hidden):
                out.append(at(data, k))
                k += 1
        elif axis in new_axis:
            out.append(Dim.of(1))
        elif axis in shrink:
            k += 1
        elif begin is not None and end is not None and strides is not None:
            d = at(data, k)
            stride = strides[axis] if axis < len(strides) else 1
            if stride == 0:
                raise ShapeError("Stride must be non-zero")
            top = INT64_MAX if d.hi == INF else d.hi
            if stride < 0:
                default_start, default_stop = (top, top), (-1 - top, -1 - top)
            else:
                default_start, default_stop = (0, 0), (top, top)
            b = default_start if axis in begin_mask else begin[axis]
            e = default_stop if axis in end_mask else end[axis]
            out.append(slice_dim(d, b, e, stride))
            k += 1
        elif strides is not None and axis in begin_mask and axis in end_mask and axis < len(strides):
            # begin and end unknown but both masked: the whole axis, as with known values (measured on 2026.4.1)
            d = at(data, k)
            if strides[axis] == 0:
                raise ShapeError("Stride must be non-zero")
            top = INT64_MAX if d.hi == INF else d.hi
            ends = ((0, 0), (top, top)) if strides[axis] > 0 else ((top, top), (-1 - top, -1 - top))
            out.append(slice_dim(d, *ends, strides[axis]))
            k += 1
        elif strides is not None:
            # begin or end unknown (measured on 2026.4.1): at most the dim's upper bound over the stride
            top = at(data, k).hi
            stride = abs(strides[axis]) if axis < len(strides) else 1
            out.append(Dim(0, top if top == INF else -(-top // stride)))
            k += 1
        else:
            out.append(Dim(0, at(data, k).hi))
            k += 1
    out.extend(data[k:])
    return [out]


type_infer("StridedSlice")(data_type_with((1, INTEGRAL, "Begin mask must be an integral number, but is: {}"),
                                          (2, INTEGRAL, "End mask must be an integral number, but is: {}")))


# -- Reverse, ReverseSequence, OneHot --------------------------------------------------------------------
@type_infer("Reverse")
def _reverse_types(node: Node) -> list[str | None]:
    if node.lower("mode", "index") == "mask":
        check_types(node, (1, lambda t: t == E.BOOLEAN, "In 'mask' mode the second input must contain boolean values.",
                           STRICT))
    else:
        check_types(node, (1, INTEGRAL, "In 'index' mode the second input must contain integer values."))
    return [in_type(node, 0)]


@shape_infer("Reverse")
def _reverse(node: Node) -> list[Shape]:
    """``reverse_shape_inference.hpp``: the data shape; the axes within the rank (index mode) or one mask
    element per dim (mask mode)."""
    data, axes_shape = node.input(0), node.input(1)
    if not rank_is(axes_shape, 1):
        raise ShapeError(f"The reversed_axes input must be a 1D tensor (got {len(axes_shape)}).")
    mode = node.lower("mode")
    if mode == "mask":
        if data is not None and axes_shape is not None and not compatible(axes_shape[0], Dim.of(len(data))):
            raise ShapeError(f"The number of elements in the reversed_axes tensor ({axes_shape[0]}) must match the "
                             f"input data tensor rank ({len(data)}) in 'mask' mode.")
    elif mode != "index":
        raise Undecided(f"Reverse mode {mode!r}")
    elif data is not None:
        axes = node.const(1)
        if axes is not None and any(max(a, 0) >= len(data) for a in axes):
            raise ShapeError(f"Some of the provided axes ({axes}) are out of bounds (input rank: {len(data)}).")
    return [None if data is None else list(data)]


@shape_infer("ReverseSequence")
def _reverse_sequence(node: Node) -> list[Shape]:
    """``reverse_sequence_shape_inference.hpp``: the data shape, its batch dim merged with the lengths'."""
    data, lengths = node.input(0), node.input(1)
    if data is not None and len(data) < 2:
        raise ShapeError(f"Data input rank should be equal or greater than 2. Got: {data}")
    if not rank_is(lengths, 1):
        raise ShapeError(f"Sequence lengths rank must be equal to 1. Got: {lengths}")
    if data is None:
        return [None]
    out = list(data)
    if lengths is not None:
        batch = normalize_axis(node.int("batch_axis"), len(data))
        out[batch] = merge_checked(data[batch], lengths[0], f"Sequence lengths input size ({lengths[0]}) is not equal "
                                   f"to batch axis dimension of data input ({data[batch]})")
    normalize_axis(node.int("seq_axis"), len(data))
    return [out]


type_infer("ReverseSequence")(data_type_with((1, NUMERIC,
                                              "Sequence lengths element type must be numeric type. Got: {}")))


@shape_infer("OneHot")
def _one_hot(node: Node) -> list[Shape]:
    """``one_hot_shape_inference.hpp``: the indices' shape with the depth inserted at the axis."""
    for i, what in ((1, "depth"), (2, "on_value"), (3, "off_value")):
        s = node.input(i)
        if s is not None and all(d.is_static for d in s) and s:
            raise ShapeError(f"{what} input must be scalar.")
    indices = node.input(0)
    if indices is None:
        return [None]
    axis = normalize_axis(node.int("axis"), len(indices) + 1)

    def depth(v: int) -> Dim:
        if v < 0:
            raise ShapeError("OneHot depth value can't be negative.")
        return Dim.of(v)
    value = _shape_input(node, 1, depth)
    out = list(indices)
    out.insert(axis, value[0] if value is not None and len(value) == 1 else Dim.dynamic())
    return [out]


@type_infer("OneHot")
def _one_hot_types(node: Node) -> list[str | None]:
    check_types(node, (0, NOT_REAL, "Indices must be integral element type."),  # is_integral: boolean passes
                (1, NOT_REAL, "Depth must be integral element type."))
    merged_type(node, 2, 3, "on_value element type must be compatible with off_value element type.")
    return [in_type(node, 2)]  # on_value's own type, even where it is dynamic and off_value's is not


# -- ShapeOf, Range, NonZero -----------------------------------------------------------------------------
@shape_infer("ShapeOf")
def _shape_of(node: Node) -> list[Shape]:
    """``ShapeOf::validate_and_infer_types``: one element per input dim (``?`` for a dynamic rank)."""
    if _opset(node) >= 3 and node.lower("output_type", "i64") not in ("i32", "i64"):
        raise ShapeError("Output type must be i32 or i64")
    data = node.input(0)
    return [[Dim.dynamic() if data is None else Dim.of(len(data))]]


@type_infer("ShapeOf", versions=(0,))
def _shape_of_1_types(node: Node) -> list[str | None]:
    return ["i64"]


@type_infer("ShapeOf")
def _shape_of_types(node: Node) -> list[str | None]:
    return [type_one_of(attr_type(node, "output_type", "i64"), INDEX_TYPES, "Output type must be i32 or i64")]


_FLOAT_TYPES = {"f16", "f32", "f64", "bf16", "fp16", "fp32", "fp64", "f8e4m3", "f8e5m2"}


@shape_infer("Range")
def _range(node: Node) -> list[Shape]:
    """``range_shape_inference.hpp``: ``ceil((stop - start) / step)`` elements (in doubles, the inputs
    truncated for an integer output, the count cast to uint32) from constant scalars; ``[?]`` otherwise."""
    for i, what in enumerate(("start", "stop", "step")):
        if not rank_is(node.input(i), 0):
            raise ShapeError(f"'{what}' input is not a scalar")
    if _opset(node) >= 4:
        integral = node.lower("output_type", "") not in _FLOAT_TYPES
    else:
        start_t = node.value(0)
        integral = start_t is not None and start_t.et in V.INT_RANGES
    vals = []
    for i, what in enumerate(("start", "stop", "step")):
        v = node.const_floats(i)
        if v is not None:
            if len(v) != 1:
                raise ShapeError(f"'{what}' input has {len(v)} values")
            x = v[0]
            if not math.isfinite(x) or (what == "step" and x == 0):
                raise ShapeError(f"'{what}' cannot be {'zero, ' if what == 'step' else ''}nan or infinite.")
            vals.append(math.trunc(x) if integral else x)
    if len(vals) < 3:
        return [[Dim.dynamic()]]
    start, stop, step = vals
    if step == 0:  # a step in (-1, 1) truncated for an integer output: ceil(x / 0) is inf or nan, cast to 0 (measured)
        return [[Dim.of(0)]]
    span = 0.0 if (step > 0 and start >= stop) or (step < 0 and start <= stop) else stop - start
    strided = math.ceil(abs(span) / abs(step))
    # static_cast<uint32_t>(double), measured: the int64 conversion's low 32 bits, 0 past INT64_MAX
    return [[Dim.of(strided & 0xFFFFFFFF if strided < (1 << 63) else 0)]]


@type_infer("Range", versions=(0,))
def _range_0_types(node: Node) -> list[str | None]:
    return merged_types(node, (0, 1, 2), "Element types for start, stop, and step do not match.")


@type_infer("Range")
def _range_types(node: Node) -> list[str | None]:
    for i, name in enumerate(("start", "stop", "step")):
        t = in_type(node, i)
        if t == E.BOOLEAN:  # string passes (measured)
            raise ShapeError(f"'{name}' input scalar should be a numeric type. Got: {t}")
    t = attr_type(node, "output_type", E.DYNAMIC)
    if t == E.BOOLEAN:  # string passes here too (measured: read_model gives a string output)
        raise ShapeError(f"output tensor type should be a numeric type. Got: {t}")
    return [t]


@shape_infer("NonZero")
def _non_zero(node: Node) -> list[Shape]:
    """``NonZero::validate_and_infer_types``: ``[rank, 0..elements]``; exact for a constant input."""
    if node.lower("output_type") not in ("i32", "i64"):
        raise ShapeError("Output type must be i32 or i64")
    data = node.input(0)
    t = node.value(0)
    if t is not None and t.is_const:
        count = sum(1 for v in t.lo if v != 0)
        return [[Dim.of(len(t.shape) if t.shape else min(count, 1)), Dim.of(count)]]
    if data is None or not data:
        return [[Dim.dynamic(), Dim.dynamic()]]
    elements = Dim(0, 1)
    for d in data:
        elements = elements * d
    return [[Dim.of(len(data)), elements]]


@type_infer("NonZero")
def _non_zero_types(node: Node) -> list[str | None]:
    return [type_one_of(attr_type(node, "output_type", "i64"), INDEX_TYPES, "Output type must be i32 or i64")]


# -- TopK, Bucketize, Unique -----------------------------------------------------------------------------
@shape_infer("TopK")
def _topk(node: Node) -> list[Shape]:
    """``topk_shape_inference.hpp``: values and indices, the data shape with ``k`` on the axis (its bounds
    against the dim's where ``k`` is an interval, ``0..dim`` where unknown). TopK-11 checks first that a
    ``stable`` sort has a sort mode (``sort`` none where the IR has none)."""
    sort = node.lower("sort")
    if node.version == 11 and node.flag("stable") and sort not in ("value", "index"):
        raise ShapeError(f"Stable sort can only be used when TopK's sorting mode is set to 'VALUE' or 'INDEX'.{sort}")
    if node.lower("index_element_type") not in ("i32", "i64"):
        raise ShapeError("Index element type attribute should be either 'i32' or 'i64'.")
    data = node.input(0)
    if data == []:
        raise ShapeError("Input rank must be greater than 0.")
    if not rank_is(node.input(1), 0):
        raise ShapeError("The 'K' input must be a scalar.")
    if data is None:
        return [None, None]
    out = list(data)
    axis = normalize_axis(node.int("axis"), len(data))

    def k_dim(v: int) -> Dim:
        if v < 0:
            raise ShapeError(f"The value of 'K' must be greater or equal to zero. (got {v}).")
        return Dim.of(v)
    k = _shape_input(node, 1, k_dim)
    d = out[axis]
    if k is None:
        out[axis] = Dim(0, d.hi)
    elif len(k) != 1:
        raise ShapeError("Only one value (scalar) should be provided as the 'K' input to TopK "
                         f"(got {len(k)} elements).")
    elif k[0].is_static:
        out[axis] = k[0]
    else:
        in_max, k_max = length(d.hi), length(k[0].hi)
        lower = min(length(d.lo), length(k[0].lo))
        upper = -1 if in_max < 0 else min(in_max, INT64_MAX if k_max < 0 else k_max)
        out[axis] = Dim(lower, upper)
    return [out, list(out)]


@type_infer("TopK")
def _topk_types(node: Node) -> list[str | None]:
    check_integral(node, 1, "K input has to be an integer type, which does match the provided one:{}")
    index = type_one_of(attr_type(node, "index_element_type", "i32"), INDEX_TYPES,
                        "Index element type attribute should be either 'i32' or 'i64'. Got: {}")
    return [in_type(node, 0), index]


@type_infer("TopK", versions=(1,))
def _topk_1_types(node: Node) -> list[str | None]:
    check_types(node, (1, lambda t: t in ("i8", "i32", "i64"), "K input element type must be i8, i32 or i64 (got {}).",
                       STRICT))
    return _topk_types(node)


@shape_infer("Bucketize")
def _bucketize(node: Node) -> list[Shape]:
    """``bucketize_shape_inference.hpp``: the data shape (the buckets 1-D)."""
    if node.lower("output_type") not in ("i32", "i64"):
        raise ShapeError("Output type must be i32 or i64")
    if not rank_is(node.input(1), 1):
        raise ShapeError(f"Buckets input must be a 1D tensor. Got: {node.input(1)}")
    data = node.input(0)
    return [None if data is None else list(data)]


@type_infer("Bucketize")
def _bucketize_types(node: Node) -> list[str | None]:
    for i, name in ((0, "Data"), (1, "Buckets")):
        if in_type(node, i) == E.BOOLEAN:
            raise ShapeError(f"{name} input type must be numeric. Got: boolean")
    return [attr_type(node, "output_type", "i64")]


@shape_infer("Unique")
def _unique(node: Node) -> list[Shape]:
    """``Unique::validate_and_infer_types``: the unique elements (or slices along the axis), their indices,
    the reverse indices and the counts; exact for a constant input."""
    for name, what in (("index_element_type", "The element type of the outputs containing indices can only be "
                        "set to i32 or i64."),
                       ("count_element_type", "The element type of the last output can only be set to i32 or i64.")):
        if node.lower(name, "i64") not in ("i32", "i64"):
            raise ShapeError(what)
    data = node.input(0)
    has_axis = node.has_input(1)
    axis = node.const(1) if has_axis else None
    t = node.value(0)
    if t is not None and t.is_const:
        return _unique_of(t, axis[0] if axis else None)
    elements = None
    if data is not None and all(d.is_static for d in data):
        elements = math.prod(d.lo for d in data)
    some = [Dim(1, elements)] if elements else [Dim.dynamic()]
    out = [None, some, [Dim.of(elements)] if elements else [Dim.dynamic()], some]
    if has_axis:
        if axis is None:
            raise ShapeError("The 'axis' input of the Unique operator must be connected to a Constant.")
        if node.input(1) not in ([], [Dim.of(1)]):
            raise ShapeError("The 'axis' input tensor of the Unique operator must be a scalar or 1D tensor with 1 "
                             "element.")
        if data is not None:
            a = normalize_axis(axis[0], len(data))
            d = at(data, a)
            if d.is_dynamic:
                along, rev = (d if d == Dim.dynamic() else Dim(1, d.hi)), d
            elif d.lo == 0:
                along = rev = Dim.of(0)
                out[1] = out[3] = [Dim.of(0)]
            else:
                along, rev = Dim(1, d.hi), Dim.of(d.hi)
            out[0] = list(data)
            out[0][a] = along
            out[2] = [rev]
    else:
        out[0] = [Dim(1, elements)] if data is not None and all(d.is_static for d in data) else [Dim.dynamic()]
    return out


@type_infer("Unique")
def _unique_types(node: Node) -> list[str | None]:
    index = attr_type(node, "index_element_type", "i64")
    return [in_type(node, 0), index, index, attr_type(node, "count_element_type", "i64")]


def _unique_of(t: V.Tensor, axis: int | None) -> list[Shape]:
    """The shapes of Unique's outputs for a constant input: the count of distinct elements (or of distinct
    slices along ``axis``)."""
    if axis is None:
        n = len(set(t.lo))
        return [[Dim.of(n)], [Dim.of(n)], [Dim.of(len(t.lo))], [Dim.of(n)]]
    a = normalize_axis(axis, len(t.shape))
    outer, size, inner = math.prod(t.shape[:a]), t.shape[a], math.prod(t.shape[a + 1:])
    slices = {tuple(t.lo[(o * size + i) * inner + j] for o in range(outer) for j in range(inner)) for i in range(size)}
    shape = [Dim.of(n) for n in t.shape]
    shape[a] = Dim.of(len(slices))
    return [shape, [Dim.of(len(slices))], [Dim.of(size)], [Dim.of(len(slices))]]


# -- value evaluators (shape subgraphs) ------------------------------------------------------------------
def _et(text: str) -> str:
    t = text.strip().lower()
    return {"fp16": "f16", "fp32": "f32", "fp64": "f64"}.get(t, t)


@value_eval("ShapeOf")
def _shape_of_value(node: Node, tensors: list[V.Tensor]) -> V.Tensor:
    """``ShapeOf``'s bounds: the (lo, hi) of each input dim; i64 for ShapeOf-0, ``output_type`` after."""
    shape = node.input(0)
    et = "i64" if node.version == 0 or not node.opset_name else _et(node.attr("output_type", "i64") or "i64")
    return V.shape_of(None if shape is None else [(d.lo, d.hi) for d in shape], et)


@value_eval("Gather")
def _gather_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.gather(x[0], x[1], x[2], node.int("batch_dims", 0))


@value_eval("Concat")
def _concat_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.concat(x, node.a["axis"])


@value_eval("Transpose")
def _transpose_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.transpose(x[0], x[1])


@value_eval("Slice")
def _slice_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.slice_(*x[:4], x[4] if len(x) > 4 else None)


@value_eval("StridedSlice")
def _strided_slice_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.strided_slice(x[0], x[1], x[2], x[3] if len(x) > 3 else None,
                           *(node.ints(m) for m in ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask",
                                                    "ellipsis_mask")))


@value_eval("Broadcast")
def _broadcast_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.broadcast(x[0], x[1], node.attr("mode", "numpy") or "numpy", x[2] if len(x) > 2 else None)


@value_eval("Tile")
def _tile_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.tile(x[0], x[1])


@value_eval("ScatterUpdate", "ScatterElementsUpdate")
def _scatter_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    if node.lower("reduction", "none") != "none":
        raise Undecided("ScatterElementsUpdate with a reduction in a shape subgraph")
    return V.scatter(node.type.lower(), *x[:4])


@value_eval("ScatterNDUpdate")
def _scatter_nd_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    if node.lower("reduction", "none") != "none":
        raise Undecided("ScatterNDUpdate with a reduction in a shape subgraph")
    return V.scatter("scatterndupdate", *x[:3])


@value_eval("Split")
def _split_value(node: Node, x: list[V.Tensor]) -> list[V.Tensor]:
    return V.split(x[0], x[1], node.int("num_splits"))


@value_eval("VariadicSplit")
def _variadic_split_value(node: Node, x: list[V.Tensor]) -> list[V.Tensor]:
    return V.split(x[0], x[1], x[2])


@value_eval("Range")
def _range_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    et = node.attr("output_type")
    return V.constant_only("range", x, {"output_type": _et(et) if et is not None else None})
