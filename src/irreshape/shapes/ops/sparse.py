"""Shape functions of the ops that gather or scatter by index lists: embedding bags and segments (what
``nn.EmbeddingBag`` exports to), segment reductions, sparse rows and the slice scatter.

Ops: EmbeddingBagOffsetsSum, EmbeddingBagPackedSum, EmbeddingSegmentsSum (opset3), EmbeddingBagOffsets and
EmbeddingBagPacked (opset15), SliceScatter (opset15), SegmentMax and SparseFillEmptyRows (opset16).

Each follows the OpenVINO 2026.4.1 shape-inference unit named in its docstring
(``src/core/shape_inference/include/<unit>.hpp``), with OpenVINO's messages where it rejects the layer.
"""

from __future__ import annotations

from ...core import etypes as E
from ...core.dims import Dim, Shape, format_shape
from ..dimops import add, merge_into, rank_is, shapes_compatible
from ..node import Node, ShapeError, Undecided, shape_infer, type_infer
from ..typerule import IS_INDEX, INTEGRAL, STRICT, check_types, data_type_with, equal_types, in_type, merged_type
from .movement import slice_axes, slice_dim


def _table(node: Node, first: Dim) -> Shape:
    """``embedding::out_shape_infer``: the table's shape with its first dim ``first``."""
    table = node.input(0)
    if table is None:
        return None
    if not table:
        raise ShapeError("EMB_TABLE can't be a scalar.")
    return [first] + list(table[1:])


def _sum_only(node: Node, with_weights: int) -> None:
    """``EmbeddingBag*Base::validate_and_infer_types`` (v15): per-sample weights only with the ``sum`` reduction."""
    if len(node.inputs) == with_weights and node.lower("reduction", "sum") != "sum":
        raise ShapeError("Per sample weights can only be used in Reduction::SUM mode.")



def _per_sample_weights(node: Node, port: int, indices: Shape | None) -> None:
    """The per-sample weights (input ``port``, the last, where given): 1-D, of the indices' shape."""
    if len(node.inputs) == port + 1:
        weights = node.input(port)
        if not rank_is(weights, 1):
            raise ShapeError("PER_SAMPLE_WEIGHTS must be 1D.")
        if not shapes_compatible(indices, weights):
            raise ShapeError("INDICES and PER_SAMPLE_WEIGHTS shape must be same.")

@shape_infer("EmbeddingBagOffsetsSum", versions=(3,))
@shape_infer("EmbeddingBagOffsets", versions=(15,))
def _bag_offsets(node: Node) -> list[Shape]:
    """``embeddingbag_offsets_shape_inference.hpp``: 1-D indices and offsets, a scalar default index, 1-D per-sample
    weights shaped as the indices; the table's shape with one row per offset."""
    indices, offsets = node.input(1), node.input(2)
    if not rank_is(indices, 1):
        raise ShapeError("INDICES must be 1D.")
    if not rank_is(offsets, 1):
        raise ShapeError("OFFSETS must be 1D.")
    if len(node.inputs) >= 4 and not rank_is(node.input(3), 0):
        raise ShapeError("DEFAULT_INDEX must be a scalar.")
    _per_sample_weights(node, 4, indices)
    _sum_only(node, 5)
    return [_table(node, Dim.dynamic() if offsets is None else offsets[0])]


@shape_infer("EmbeddingBagPackedSum", versions=(3,))
@shape_infer("EmbeddingBagPacked", versions=(15,))
def _bag_packed(node: Node) -> list[Shape]:
    """``embeddingbag_packed_shape_inference.hpp``: 2-D indices [bags, per bag], per-sample weights of the same
    shape (merged with them); the table's shape with one row per bag."""
    indices = node.input(1)
    if not rank_is(indices, 2):
        raise ShapeError("INDICES must be 2D.")
    if len(node.inputs) == 3:
        weights = node.input(2)
        if not rank_is(weights, 2):
            raise ShapeError("PER_SAMPLE_WEIGHTS must be 2D.")
        ok, indices = merge_into(indices, weights)
        if not ok:
            raise ShapeError("INDICES and PER_SAMPLE_WEIGHTS shape must be same.")
    _sum_only(node, 3)
    return [_table(node, Dim.dynamic() if indices is None else indices[0])]


@shape_infer("EmbeddingSegmentsSum", versions=(3,))
def _segments_sum(node: Node) -> list[Shape]:
    """``embedding_segments_sum_shape_inference.hpp``: 1-D indices and segment ids of one shape, scalar segment
    count and default index, 1-D per-sample weights shaped as the indices; the table's shape with the segment
    count's value (its bounds) as first dim."""
    indices, ids = node.input(1), node.input(2)
    if not rank_is(indices, 1):
        raise ShapeError("INDICES must be 1D.")
    if not rank_is(ids, 1):
        raise ShapeError("SEGMENT_IDS must be 1D.")
    if not shapes_compatible(indices, ids):
        raise ShapeError("INDICES and SEGMENT_IDS shape must be same")
    if not shapes_compatible(node.input(3), []):
        raise ShapeError("NUM_SEGMENTS must be a scalar.")
    if len(node.inputs) >= 5 and not shapes_compatible(node.input(4), []):
        raise ShapeError("DEFAULT_INDEX must be a scalar.")
    _per_sample_weights(node, 5, indices)
    table = node.input(0)
    if table is None:
        return [None]
    if not table:
        raise ShapeError("EMB_TABLE can't be a scalar.")
    count = node.as_shape(3)
    if count is not None and not count:
        raise Undecided("a segment count of no value reads past it")
    return [[count[0] if count is not None else Dim.dynamic()] + list(table[1:])]


# -- their types: ``embeddingbag_offsets_base.cpp``, ``embeddingbag_packed_base.cpp``, ``embedding_segments_sum.cpp``
def _index_inputs(node: Node, names: tuple[str, ...]) -> None:
    """Each index input (1, 2, ...: those present) i32 or i64, the dynamic type refused."""
    check_types(node, *((i + 1, IS_INDEX, f"{name} type must be i32 or i64", STRICT) for i, name in enumerate(names)
                        if i + 1 < len(node.types)))


def _same_index(node: Node, i: int, j: int, message: str) -> None:
    if max(i, j) < len(node.types):
        equal_types(node, (i, j), message)


def _table_type(node: Node, weights: int) -> list[str | None]:
    """The table's type, once the per-sample weights (input ``weights``, where present) are of it."""
    if weights < len(node.types):
        merged_type(node, weights, 0, "Per sample weight element type ({}) must match embedding table element type "
                                      "({})")
    return [in_type(node, 0)]


@type_infer("EmbeddingBagOffsetsSum", versions=(3,))
@type_infer("EmbeddingBagOffsets", versions=(15,))
def _embedding_offsets_types(node: Node) -> list[str | None]:
    _index_inputs(node, ("INDICES", "OFFSETS", "DEFAULT_INDEX"))
    _same_index(node, 2, 1, "Offsets element type ({}) must match indices element type ({})")
    _same_index(node, 3, 1, "Default_index element type ({}) must match indices element type ({})")
    return _table_type(node, 4)


@type_infer("EmbeddingBagPackedSum", versions=(3,))
@type_infer("EmbeddingBagPacked", versions=(15,))
def _embedding_packed_types(node: Node) -> list[str | None]:
    _index_inputs(node, ("INDICES",))
    return _table_type(node, 2)


@type_infer("EmbeddingSegmentsSum", versions=(3,))
def _embedding_segments_types(node: Node) -> list[str | None]:
    _index_inputs(node, ("INDICES", "SEGMENT_IDS", "NUM_SEGMENTS", "DEFAULT_INDEX"))
    _same_index(node, 2, 1, "Segment_ids element type ({}) must match indices element type ({})")
    _same_index(node, 3, 2, "Num_segments element type ({}) must match Segment_ids element type ({})")
    _same_index(node, 4, 1, "Default_index element type ({}) must match indices element type ({})")
    return _table_type(node, 5)


@shape_infer("SegmentMax", versions=(16,))
def _segment_max(node: Node) -> list[Shape]:
    """``segment_max_shape_inference.hpp``: data of rank >= 1, 1-D sorted segment ids as many as the data's rows,
    an optional scalar segment count; the data's shape with the constant segment count as first dim, else the
    largest constant segment id + 1 where there is no segment count, else ``?``."""
    data, ids_shape = node.input(0), node.input(1)
    if data is not None and not data:
        raise ShapeError("The data input cannot be a scalar.")
    if not rank_is(ids_shape, 1):
        raise ShapeError(f"segment_ids must be a 1D input. Got: {format_shape(ids_shape)}")
    ids = node.const(1)
    if ids_shape is not None and data is not None and not data[0].compatible(ids_shape[0]):
        raise ShapeError("The number of elements in segment_ids must match the first dimension of data.")
    if ids is not None and ids != sorted(ids):
        raise ShapeError("segment_ids must be sorted.")
    if data is None:
        return [None]
    first = Dim.dynamic()
    if len(node.inputs) == 3:
        count_shape = node.input(2)
        if not rank_is(count_shape, 0):
            raise ShapeError(f"num_segments must be a scalar input. Got: {format_shape(count_shape)}")
        count = node.const(2)
        if count is not None:
            if not count:
                raise Undecided("a segment count of no value reads past it")
            first = Dim.of(count[0])
    elif ids_shape is not None and ids is not None:
        if not ids:
            raise Undecided("no segment ids: OpenVINO reads the largest of none")
        first = Dim.of(max(ids) + 1)
    return [[first] + list(data[1:])]


type_infer("SegmentMax", versions=(16,))(data_type_with(
    (1, IS_INDEX, "The element type of the segment_ids input be i32 or i64. Got: {}"),
    (2, IS_INDEX, "The element type of the num_segments input be i32 or i64. Got: {}")))


@shape_infer("SparseFillEmptyRows", versions=(16,))
def _sparse_fill_empty_rows(node: Node) -> list[Shape]:
    """``sparse_fill_empty_rows_shape_inference.hpp``: 1-D values, a dense shape of 2 elements, indices [values, 2],
    a scalar default value; the outputs [n, 2], [n] and [rows], with the rows from the dense shape's value and n
    the values plus the rows no constant index names (each index checked against the dense shape)."""
    values, dense, indices, default = node.input(0), node.input(1), node.input(2), node.input(3)
    if not rank_is(values, 1):
        raise ShapeError(f"The values input must be a 1D tensor.{format_shape(values)}")
    if dense is not None and not (len(dense) == 1 and dense[0].contains(2)):
        raise ShapeError("The dense_shape input must be 1D and have exactly 2 elements, meaning only 2D sparse "
                         "tensors are supported.")
    if indices is not None:
        # (a dynamic rank's values[0] is compatible with anything here)
        if not (len(indices) == 2 and indices[1].contains(2) and
                (dense is None or values is None or indices[0].compatible(values[0]))):
            raise ShapeError("The indices input must be a 2D tensor with the first dimension matching the size of "
                             f"values and the second dimension having 2 elements.{format_shape(indices)}")
    if not rank_is(default, 0):
        raise ShapeError(f"The default_value input must be a scalar.{format_shape(default)}")
    n_indices, n_values, rows = Dim.dynamic(), Dim.dynamic(), Dim.dynamic()
    dense_value = node.as_shape(1)
    if dense_value is not None:
        if len(dense_value) < 2 or not all(d.is_static for d in dense_value[:2]):
            raise Undecided("OpenVINO takes the length of a dense shape it does not know")
        n_rows, n_cols = dense_value[0].lo, dense_value[1].lo
        rows = Dim.of(n_rows)
        flat = node.const(2)
        if flat is not None:
            if values is None:  # values[0] of a dynamic rank
                raise ShapeError("Accessing out-of-range dimension")
            if indices is None:
                raise Undecided("constant indices of a dynamic rank")
            seen = set()
            for row, col in zip(flat[0::2], flat[1::2]):
                if not 0 <= row < n_rows:
                    raise ShapeError(f"Sparse tensor index out of bounds: row {row} is outside the valid range "
                                     f"[0, {n_rows - 1}]")
                if not 0 <= col < n_cols:
                    raise ShapeError(f"Sparse tensor index out of bounds: column {col} is outside the valid range "
                                     f"[0, {n_cols - 1}]")
                seen.add(row)
            empty = Dim.of(n_rows - len(seen))
            n_indices, n_values = add(indices[0], empty), add(values[0], empty)
    return [[n_indices, Dim.of(2)], [n_values], [rows]]


@type_infer("SparseFillEmptyRows", versions=(16,))
def _sparse_fill_empty_rows_types(node: Node) -> list[str | None]:
    """The dense shape and the indices of one type (dynamic gives way), i32 or i64; the output indices of the
    indices' type, the values of the values', the indicator boolean."""
    merged = merged_type(node, 1, 2, "The element types of the dense_shape and indices inputs must match. Got: {} "
                                     "and {}")
    if merged not in (None, E.DYNAMIC, "i32", "i64"):
        raise ShapeError(f"The element type of the indices and dense_shape inputs must be i32 or i64. Got: {merged}")
    return [in_type(node, 2), in_type(node, 0), E.BOOLEAN]


_SCATTER_INPUTS = ("start", "stop", "step", "axes")
type_infer("SliceScatter", versions=(15,))(data_type_with(
    *((i, INTEGRAL, f"SliceScatter `{name}` input type must be integer.") for i, name in enumerate(_SCATTER_INPUTS, 2))))


@shape_infer("SliceScatter", versions=(15,))
def _slice_scatter(node: Node) -> list[Shape]:
    """``slice_scatter_shape_inference.hpp``: data and updates of one rank (not a scalar), 1-D start, stop, step
    (and axes) no longer than that rank; the updates checked against the slice Slice would take; the output the
    data's shape."""
    if len(node.inputs) not in (5, 6):
        raise ShapeError(f"SliceScatter has to have 5 or 6 inputs. Got: {len(node.inputs)}")
    data, updates = node.input(0), node.input(1)
    out = data
    if out is None and updates is not None:
        out = [Dim.dynamic() for _ in updates]
    elif out is not None and updates is not None and len(out) != len(updates):
        raise ShapeError("SliceScatter `data` and `updates` need to have compatible rank.")
    if out is not None and not out:
        raise ShapeError("SliceScatter `data` and `updates` input can't be a scalar.")
    for i in range(2, len(node.inputs)):
        s = node.input(i)
        if not rank_is(s, 1):
            raise ShapeError(f"SliceScatter `{_SCATTER_INPUTS[i - 2]}` input must be a 1D tensor. Got rank: {len(s)}")
        if out is not None and s is not None and s[0].lo > len(out):
            raise ShapeError(f"SliceScatter `{_SCATTER_INPUTS[i - 2]}` input dim size can't be bigger than `data` or "
                             "`updates` rank.")
    start_s, stop_s, step_s = node.input(2), node.input(3), node.input(4)
    if not (shapes_compatible(start_s, stop_s) and shapes_compatible(start_s, step_s) and
            shapes_compatible(stop_s, step_s)):
        raise ShapeError("SliceScatter `start`, `stop`, `step` inputs must have compatible shapes.")
    start, stop, steps = node.bounds(2), node.bounds(3), node.const(4)
    if step_s is not None and step_s[0].is_static and steps is not None:
        if len(steps) < step_s[0].lo:
            raise Undecided("fewer step values than their shape says")
        if 0 in steps[:step_s[0].lo]:
            raise ShapeError("SliceScatter step values must be non-zero.")
    axes_map = slice_axes(node, 5, start_s, start, None if data is None else len(data), "SliceScatter")
    if out is None:
        return [None]
    if axes_map and (max(axes_map) >= len(out) or (None not in (start, stop, steps) and max(axes_map.values()) >= min(
            len(start), len(stop), len(steps)))):  # type: ignore[arg-type]
        raise Undecided("the start, stop and step values do not fit the axes they slice")
    expected = []
    for k, d in enumerate(out):
        if axes_map is not None and k not in axes_map:
            expected.append(d)
        elif axes_map is not None and None not in (start, stop, steps):
            i = axes_map[k]
            if steps[i] == 0:  # type: ignore[index]
                raise ShapeError("Step must be non-zero")
            expected.append(slice_dim(d, start[i], stop[i], steps[i]))  # type: ignore[index]
        else:
            expected.append(Dim(0, d.hi))
    if not shapes_compatible(updates, expected):
        raise ShapeError(f"SliceScatter updates of shape {format_shape(updates)} are not compatible with expected "
                         f"slice shape {format_shape(expected)}")
    return [out]
