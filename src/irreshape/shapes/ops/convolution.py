"""The convolution family: MatMul, Convolution, GroupConvolution, BinaryConvolution, DeformableConvolution
(v1, in opset1 to opset7, and v8 from opset8), ConvolutionBackpropData, GroupConvolutionBackpropData and
Einsum, as openvino 2026.4.1 infers their output shapes. Each op but DeformableConvolution has one version,
registered for every opset that holds it.

Each shape function follows its OpenVINO shape-inference unit (``src/core/shape_inference/include/``) and
the ``validate_and_infer_types`` of the op (``src/core/src/op/``), including their checks, in their order,
on dims that are intervals. The window arithmetic is ``ov::Dimension``'s (``Interval`` sums, differences
and products saturating at INT64_MAX, ``Dimension::operator/`` in doubles) and ``ov::util::dim``'s
(``dilated``, ``padded``, ``ceil_div``, ``floor_div``), all from :mod:`irreshape.shapes.dimops`. It differs
from the plain arithmetic on bounds in ways that show in the output: a pad sum of -1 converts to a dynamic
``Dimension``, any other negative pad sum to 0; ``Dimension(4..) / 2`` is ``2..4611686018427387904``, not
``2..``; a dim divided by 0 is 0 (the x86 conversion of an infinite double); a sum or product past
INT64_MAX in both bounds is an empty interval, which later checks treat as compatible with nothing.

What OpenVINO reads out of bounds (a filter of lower rank than the spatial count it takes from the
attributes) is undefined behaviour there, and ``Undecided`` here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core import etypes as E
from ...core.dims import Dim, Shape, format_shape
from ..dimops import (add, at, broadcast_merge, broadcast_merge_into, ceil_div, compatible, dilated, div, floor_div,
                      merge_checked, padded, rank_is, sub)
from ..node import Node, ShapeError, Undecided, shape_infer, type_infer
from ..typerule import (IS_INDEX, NUMERIC, check_integral, check_types, data_type_with, in_type, merged_type, merged_types,
                        same_type)
from ..values import INT_RANGES, wrap


# -- attributes and the spatial count -----------------------------------------------------------------
_PAD_TYPES = ("explicit", "same_lower", "same_upper", "valid")


class _Attrs:
    """The attributes of ``ConvolutionBase`` (and ``ConvolutionBackPropBase``) as the IR gives them."""

    def __init__(self, node: Node, backprop: bool = False) -> None:
        self.strides = [v % (1 << 64) for v in node.ints("strides")]  # Strides: size_t
        self.dilations = [v % (1 << 64) for v in node.ints("dilations")]
        self.pads_begin = node.ints("pads_begin")
        self.pads_end = node.ints("pads_end")
        self.output_padding = node.ints("output_padding") if backprop else []
        self.backprop = backprop
        text = node.attr("auto_pad")
        self.auto_pad = "explicit" if text is None else text.lower()
        if self.auto_pad not in _PAD_TYPES:
            raise ShapeError(f'"{text}" is not a member of enum ov::op::PadType')

    @property
    def same(self) -> bool:
        return self.auto_pad in ("same_lower", "same_upper")

    def from_attrs(self) -> int | None:
        """``convolution::num_spatial_from_attr``."""
        for v in (self.strides, self.dilations, self.pads_begin, self.pads_end):
            if v:
                return len(v)
        return None

    def resize(self, n: int) -> None:
        """``resize_attributes`` then ``resize_empty_padding``: empty lists become ``n`` ones (zeros for pads)."""
        self.strides = self.strides or [1] * n
        self.dilations = self.dilations or [1] * n
        self.output_padding = self.output_padding or [0] * n
        self.pads_begin = self.pads_begin or [0] * n
        self.pads_end = self.pads_end or [0] * n

    def validate(self, n: int) -> None:
        """``convolution::validate::common_attributes``."""
        if len(self.strides) != n:
            raise ShapeError("Strides should be defined for all and only spatial dimensions.")
        if len(self.dilations) != n:
            raise ShapeError("Dilations should be defined for all and only spatial dimensions.")
        if len(self.pads_begin) != n or len(self.pads_end) != n:
            raise ShapeError("Pads begin and end should be defined for all and only spatial dimensions.")
        if 0 in self.strides:
            raise ShapeError(f"Strides has zero dimension(s). {self.strides}")
        if 0 in self.dilations:
            raise ShapeError(f"Filter dilations has zero dimension(s). {self.dilations}")
        if self.backprop and len(self.output_padding) != n:
            raise ShapeError("Output padding should be defined for all and only spatial dimensions.")
        if any(v >= 1 << 63 for v in self.dilations + (self.strides if self.backprop else [])):
            # size_t written negative (the schema wraps it), then used both as size_t and as int64
            raise Undecided("negative strides or dilations")

    def padding(self) -> list[int]:
        """Per axis, the int64 sum of the pads the output dims are computed with (``apply_padding``: the
        attributes' where explicit, none where valid; the output dims never use same pads)."""
        if self.auto_pad == "explicit":
            return [wrap(b + e, "i64") for b, e in zip(self.pads_begin, self.pads_end)]
        return [0] * len(self.strides)


def _spatial_from_shapes(data: Shape, filters: Shape, filter_non_spatial: int) -> int | None:
    """``util::num_spatial_from_shapes`` (None: ``num_spatial_undefined``). The count is a size_t there:
    a rank one short wraps to the "undefined" value, a rank shorter still to a huge count that no attribute
    list matches, as no list matches the negative count here."""
    if data is not None:
        n = len(data) - 2
    elif filters is not None:
        n = len(filters) - filter_non_spatial
    else:
        return None
    return None if n == -1 else n


def _last(shape: Shape, n: int, what: str) -> list[Dim]:
    """The ``n`` spatial dims at the end of ``shape`` (``cend() - n``), all ``?`` for a dynamic rank."""
    if shape is None:
        return [Dim.dynamic()] * n
    if len(shape) < n:
        raise Undecided(f"OpenVINO reads the {what} dims before the start of a rank-{len(shape)} shape")
    return shape[len(shape) - n:]


def _forward_spatial(a: _Attrs, data: Shape, filters: Shape, n: int) -> list[Dim]:
    """``convolution::append_spatial_shape`` of a forward convolution (``convolution_shape_inference_util``)."""
    data_dims = _last(data, n, "data")
    huge = [s >= 1 << 63 for s in a.strides]  # a size_t stride written negative
    if a.same:
        if any(huge):
            raise Undecided("SAME pads of a stride past int64")
        return [ceil_div(d, s) for d, s in zip(data_dims, a.strides)]
    filter_dims = _last(filters, n, "filter")
    padding = a.padding()
    out = []
    for i in range(n):
        dim = add(data_dims[i], Dim.of(padding[i]))
        kernel = dilated(filter_dims[i], a.dilations[i])
        if dim.is_static and kernel.is_static and kernel.lo > dim.lo:
            raise ShapeError(f"Kernel after dilation has size (dim: {kernel.lo}) larger than the data shape "
                             f"after padding (dim: {dim}) at axis {i}.")
        if huge[i]:  # written -1: one window where the dims are static (measured), else not known
            if not (dim.is_static and kernel.is_static and a.strides[i] == (1 << 64) - 1):
                raise Undecided(f"a stride of {a.strides[i]}")
            out.append(Dim.of(1))
            continue
        out.append(add(floor_div(sub(dim, kernel), a.strides[i]), Dim.of(1)))
    return out


def _backprop_spatial(a: _Attrs, data: Shape, filters: Shape, n: int) -> list[Dim]:
    """``convolution::append_spatial_shape`` of a back-propagation convolution
    (``convolution_backprop_shape_inference_util``): ``(in - 1) * stride + dilated kernel`` padded by
    ``output_padding - pads``."""
    data_dims, filter_dims = _last(data, n, "data"), _last(filters, n, "filter")
    padding = a.padding()
    out = []
    for i in range(n):
        dim = add(sub(data_dims[i], Dim.of(1)) * Dim.of(a.strides[i]), dilated(filter_dims[i], a.dilations[i]))
        out.append(padded(dim, wrap(a.output_padding[i] - padding[i], "i64")))
    return out


def _check_data_rank(data: Shape, ranks: Sequence[int]) -> None:
    """``convolution::validate::data_shape``."""
    if data is not None and len(data) not in ranks:
        if tuple(ranks) == (4,):
            raise ShapeError(f"Expected 4D for the input. Got: {format_shape(data)}")
        raise ShapeError(f"Expected a 3D, 4D or 5D tensor for the input. Got: {format_shape(data)}")


def _rank_mismatch(data: Shape, filters: Shape, prefix: str = "Data batch") -> ShapeError:
    return ShapeError(f"{prefix} and filters rank do not match (data batch shape: {format_shape(data)}, "
                      f"filters shape: {format_shape(filters)}).")


def _check_filter_shape(data: Shape, filters: Shape, in_channels: int) -> None:
    """``convolution::validate::filter_shape``: equal ranks, the data channels compatible with the filters'
    input channels (``filters[in_channels]``)."""
    if data is not None and filters is not None:
        if len(data) != len(filters):
            raise _rank_mismatch(data, filters)
        if not compatible(at(data, 1), at(filters, in_channels)):
            raise ShapeError(f"Data batch channel count ({at(data, 1)}) does not match filter input channel "
                             f"count ({at(filters, in_channels)}).")


def _dim_or_dynamic(shape: Shape, i: int) -> Dim:
    """``shape[i]``, ``?`` for a dynamic rank."""
    return at(shape, i) if shape is not None else Dim.dynamic()


def _setup(node: Node, filter_non_spatial: int, backprop: bool = False) -> tuple[_Attrs, Shape, int | None]:
    """What each convolution's ``shape_infer`` does first (the input count is the op unit's): the attributes, the
    spatial shape the ``output_shape`` input gives a back-propagation one (``[]`` for the others) and the number of
    spatial dims (None: unknown), the attributes resized to it."""
    a = _Attrs(node, backprop)
    if backprop:
        out_spatial = _output_shape_input(node)
        n = _backprop_spatial_count(node, a, out_spatial, filter_non_spatial)
    else:
        out_spatial = []
        n = _spatial_from_shapes(node.input(0), node.input(1), filter_non_spatial)
        n = a.from_attrs() if n is None else n
    if n is not None:
        a.resize(n)
    return a, out_spatial, n


# -- the four convolutions' shape_infer ------------------------------------------------------------------
def _convolution(node: Node, data_ranks: Sequence[int] = (3, 4, 5), backprop: bool = False,
                 grouped: bool = False) -> list[Shape]:
    """``v1::shape_infer`` of Convolution and BinaryConvolution (``convolution_shape_inference.hpp``),
    GroupConvolution (``group_convolution_shape_inference.hpp``), ConvolutionBackpropData and
    GroupConvolutionBackpropData (``*convolution_backprop_shape_inference.hpp``), which differ in where the
    filters keep their channels (``[C_out, C_in, ...]`` forward, ``[C_in, C_out, ...]`` backward, a groups dim
    first where grouped), in the checks on the filters (made before the data rank's; the grouped ones' after)
    and in the spatial dims (computed forward or backward; the ``output_shape`` input's where given)."""
    a, out_spatial, n = _setup(node, 3 if grouped else 2, backprop)
    if n is None:
        return [None]
    data, filters = node.input(0), node.input(1)
    in_channels, out_channels = (0, 1) if backprop else (1, 0)
    if grouped:
        _check_data_rank(data, data_ranks)
        _check_group_ranks(data, filters, "Data" if backprop else "Data batch")
    else:
        _check_filter_shape(data, filters, in_channels)
        _check_data_rank(data, data_ranks)
    a.validate(n)
    batch = _dim_or_dynamic(data, 0)
    if grouped:  # the filters' channels are one further on, after the groups
        head = [batch, _groups(data, filters, in_channels + 1, out_channels + 1)]
    else:
        head = [batch, _dim_or_dynamic(filters, out_channels)]
    if backprop:
        return _backprop_output(a, node, out_spatial, n, head)
    return [head + _forward_spatial(a, data, filters, n)]


@shape_infer("Convolution")
def _convolution_v1(node: Node) -> list[Shape]:
    return _convolution(node)


@shape_infer("BinaryConvolution")
def _binary_convolution(node: Node) -> list[Shape]:
    """As Convolution, for 4-D data only (``binary_convolution_shape_inference.hpp``)."""
    mode = node.attr("mode")
    if mode is not None and mode.lower() != "xnor-popcount":
        raise ShapeError(f'"{mode}" is not a member of enum op::v1::BinaryConvolution::BinaryConvolutionMode')
    return _convolution(node, (4,))


def _groups(data: Shape, filters: Shape, in_channels: int, out_channels: int) -> Dim:
    """The output channels of a grouped convolution: the groups ``filters[0]`` merged with the data channels
    over the filters' input channels, times the filters' output channels (``group_convolution_*``)."""
    if filters is None:
        return Dim.dynamic()
    groups = at(filters, 0)
    if data is not None and at(filters, in_channels).is_static:
        groups = merge_checked(groups, div(at(data, 1), at(filters, in_channels).lo), "Input channels dimension "
                               "of data batch is incompatible with filter groups or input channels.")
    return groups * at(filters, out_channels)


def _check_group_ranks(data: Shape, filters: Shape, prefix: str) -> None:
    """``data_rank.compatible(filters_rank - 1)``."""
    if data is not None and filters is not None and len(data) != len(filters) - 1:
        raise _rank_mismatch(data, filters, prefix)


@shape_infer("GroupConvolution")
def _group_convolution(node: Node) -> list[Shape]:
    """``v1::shape_infer(GroupConvolution)``."""
    return _convolution(node, grouped=True)


# -- ConvolutionBackpropData, GroupConvolutionBackpropData ---------------------------------------------
def _output_shape_input(node: Node) -> Shape:
    """The spatial shape the ``output_shape`` input gives: its value read as a shape, else as many ``?``
    as its static length, else a dynamic rank (None); ``[]`` without that input. The op's
    ``get_output_shape`` reads a constant through ``evaluate_as_partial_shape`` first, which rejects a
    negative value."""
    if not node.has_input(2):
        return []
    t = node.value(2)
    if t is not None and (t.et not in INT_RANGES or t.et == "boolean"):
        raise ShapeError(f"Element type for output shape should be of integer type (output_shape element "
                         f"type: {t.et}).")
    if min(node.const(2) or [0]) < 0:
        raise ShapeError("Value for partial shape evaluation can't be lower than zero.")
    dims = node.as_shape(2)
    spatial = node.input(2)
    if spatial is not None and len(spatial) != 1:
        raise ShapeError("Input delivering output shape must have rank 1.")
    if dims is not None:
        return dims
    if spatial is not None and spatial[0].is_static:
        return [Dim.dynamic()] * spatial[0].lo
    return None


def _backprop_spatial_count(node: Node, a: _Attrs, out_spatial: Shape, filter_non_spatial: int) -> int | None:
    """``convolution::calculate_num_spatial`` of a back-propagation convolution; checks that the
    ``output_shape`` input has that many elements. Without a value for that input, the op's
    ``get_output_shape`` first sizes a shape by the data's (else the filters') rank less 2, which throws
    for a rank below 2."""
    data, filters = node.input(0), node.input(1)
    if not node.has_input(2) or node.value(2) is None:
        rank = len(data) if data is not None else (len(filters) if filters is not None else 2)
        if rank < 2:
            raise ShapeError("vector::_M_default_append")
    n = _spatial_from_shapes(data, filters, filter_non_spatial)
    if n is None and out_spatial:
        n = len(out_spatial)
    n = a.from_attrs() if n is None else n
    if n is not None and node.has_input(2) and out_spatial is not None and len(out_spatial) != n:
        raise ShapeError("Output shape should be defined for all and only spatial dimensions.")
    return n


def _backprop_output(a: _Attrs, node: Node, out_spatial: Shape, n: int, head: list[Dim]) -> list[Shape]:
    """The spatial dims of a back-propagation convolution: the ``output_shape`` input's, else computed.
    With ``output_shape`` and an auto pad, ``convolution::apply_auto_pad`` reads that input's element
    ``i`` for every static data and filter dim, and throws when its rank is dynamic."""
    data, filters = node.input(0), node.input(1)
    if not node.has_input(2):
        return [head + _backprop_spatial(a, data, filters, n)]
    if a.same and data is not None and filters is not None and out_spatial is None:
        if any(d.is_static and f.is_static for d, f in zip(data[2:], filters[len(filters) - n:])):
            raise ShapeError("Accessing out-of-range dimension")
    return [head + (out_spatial or [])]


@shape_infer("ConvolutionBackpropData")
def _convolution_backprop(node: Node) -> list[Shape]:
    """``v1::shape_infer(ConvolutionBackpropData)``."""
    return _convolution(node, backprop=True)


@shape_infer("GroupConvolutionBackpropData")
def _group_convolution_backprop(node: Node) -> list[Shape]:
    """``v1::shape_infer(GroupConvolutionBackpropData)``."""
    return _convolution(node, backprop=True, grouped=True)


@type_infer("Convolution", "GroupConvolution", "ConvolutionBackpropData", "GroupConvolutionBackpropData")
def _convolution_types(node: Node) -> list[str | None]:
    if node.type.lower().endswith("backpropdata"):
        check_integral(node, 2, "Element type for output shape should be of integer type (output_shape element type: "
                                "{}).")
    return [merged_type(node, 0, 1, "Element types for data batch and filters do not match (data batch element type: "
                                    "{}, filters element type: {}).")]


# -- DeformableConvolution -----------------------------------------------------------------------------
def _check_divisible(d: Dim, group: int, name: str, what: str) -> None:
    """``ov::util::dim::is_divisible``: ``d / group`` is not empty."""
    if div(d, group).is_empty:
        raise ShapeError(f"{name} channels dimension ({d}) must be evenly divisible by the '{what}': {group}")


def _deformable(node: Node) -> list[Shape]:
    """``util::shape_infer(DeformableConvolutionBase)`` (``deformable_convolution_shape_inference.hpp``)."""
    data, offsets, filters = node.input(0), node.input(1), node.input(2)
    a = _Attrs(node)
    group, deformable_group = node.int("group"), node.int("deformable_group")
    n = _spatial_from_shapes(data, filters, 2)
    if n is None and offsets is not None:
        n = 2
    if n is None:
        return [None]
    a.resize(n)
    for shape, name in zip(node.inputs, ("Input", "Offsets", "Filters", "Mask")):
        if shape is not None and len(shape) != 4:
            raise ShapeError(f"{name} must be of rank 4. Got: {len(shape)}")
    for value, name in ((group, "group"), (deformable_group, "deformable group")):
        if value <= 0:
            raise ShapeError(f"Attribute '{name}' must be any value starting from 1. Got: {value}")
    a.validate(n)
    batch = Dim.dynamic()
    if data is not None:
        _check_divisible(data[1], group, "Input", "group")
        batch = data[0]
    if offsets is not None:
        if filters is not None:
            channels = filters[2] * filters[3] * Dim.of(2) * Dim.of(deformable_group)
            if not compatible(offsets[1], channels):
                raise ShapeError("The channels dimension of offsets input is not compatible with filters and "
                                 "'deformable group' attribute.")
        _check_divisible(offsets[1], deformable_group, "Offsets", "deformable group")
        batch = merge_checked(offsets[0], batch, f"Data batch and offsets batch dimension must be same value. Got: "
                              f"{batch} and {offsets[0]}")
    channels = Dim.dynamic()
    if filters is not None:
        _check_divisible(filters[0], group, "Filters", "group")
        if data is not None and not compatible(data[1], filters[1] * Dim.of(group)):
            raise ShapeError(f"Data batch channel count ({data[1]}) does not match filter input channel count "
                             f"({filters[1] * Dim.of(group)})")
        channels = filters[0]
    out = [batch, channels] + _forward_spatial(a, data, filters, n)
    if offsets is not None and not all(compatible(o, d) for o, d in zip(out[2:], offsets[2:])):
        raise ShapeError("Spatial dimensions of offsets and output must be compatible.")
    return [out]


@shape_infer("DeformableConvolution", versions=(1,))
def _deformable_v1(node: Node) -> list[Shape]:
    """``v1::shape_infer(DeformableConvolution)``: data, offsets, filters."""
    return _deformable(node)


@shape_infer("DeformableConvolution")
def _deformable_v8(node: Node) -> list[Shape]:
    """``v8::shape_infer(DeformableConvolution)``: the optional mask is checked first against the filters
    and the data batch, and after inference against the output's spatial dims."""
    mask, data, filters = node.input(3) if node.has_input(3) else None, node.input(0), node.input(2)
    deformable_group = node.int("deformable_group")
    if mask is not None:
        if filters is not None:
            channels = at(filters, 2) * at(filters, 3) * Dim.of(deformable_group)
            if not compatible(at(mask, 1), channels):
                raise ShapeError("The channels dimension of mask input is not compatible with filters and "
                                 "'deformable group' attribute.")
        _check_divisible(at(mask, 1), deformable_group, "Mask", "deformable group")
        if data is not None and not compatible(at(mask, 0), at(data, 0)):
            raise ShapeError(f"Data batch and mask batch dimension must be same value. Got: {mask[0]} and "
                             f"{data[0]}")
    out = _deformable(node)
    if mask is not None and out[0] is not None and \
            not all(compatible(o, d) for o, d in zip(out[0][2:], mask[2:])):
        raise ShapeError("Spatial dimensions of mask and output must be compatible.")
    return out


@type_infer("DeformableConvolution")
def _deformable_convolution_types(node: Node) -> list[str | None]:
    check_types(node, (3, NUMERIC, "Element type of Mask input must be numeric. Got: {}"))
    return merged_types(node, (0, 1, 2), "Element types of inputs do not match. Got: data batch ({}), offsets ({}) and "
                                         "filters ({})")


type_infer("BinaryConvolution")(data_type_with((0, NUMERIC, "Data batch element type must be numeric. Got: {}")))


# -- MatMul -----------------------------------------------------------------------------------------------
def matmul_operands(a: list[Dim], b: list[Dim], transpose_a: bool, transpose_b: bool) -> tuple[list[Dim], list[Dim]]:
    """MatMul's operands as it multiplies them (OpenVINO's and oneDNN's alike): the last two dims swapped
    where transposed, a 1-D A made a row ``[1, n]`` and a 1-D B a column ``[n, 1]``."""
    a2, b2 = list(a), list(b)
    if transpose_a and len(a2) > 1:
        a2[-2], a2[-1] = a2[-1], a2[-2]
    if transpose_b and len(b2) > 1:
        b2[-2], b2[-1] = b2[-1], b2[-2]
    if len(a2) == 1:
        a2.insert(0, Dim.of(1))
    if len(b2) == 1:
        b2.append(Dim.of(1))
    return a2, b2


@shape_infer("MatMul")
def _matmul(node: Node) -> list[Shape]:
    """``v0::shape_infer(MatMul)`` (``matmul_shape_inference.hpp``): the last two dims swapped where
    transposed, a 1-D operand made a row (A) or a column (B) and that axis dropped again, the inner dims
    checked only where both are static, the batch dims broadcast (``?`` where dynamic dims clash)."""
    a, b = node.input(0), node.input(1)
    if a is None or b is None:
        return [None]
    if not a or not b:
        raise ShapeError("Scalars are not supported as MatMul inputs.")
    a2, b2 = matmul_operands(a, b, node.flag("transpose_a"), node.flag("transpose_b"))
    col, row = a2[-1], b2[-2]
    if col.is_static and row.is_static and not compatible(col, row):
        raise ShapeError(f"Incompatible MatMul matrix dimension. First input dimension={col} at "
                         f"COL_INDEX_DIM={len(a2) - 1} doesn't match the second input dimension={row} at "
                         f"ROW_INDEX_DIM={len(b2) - 2}")
    rank = max(len(a2), len(b2))
    a2 = [Dim.of(1)] * (rank - len(a2)) + a2
    b2 = [Dim.of(1)] * (rank - len(b2)) + b2
    out = []
    for i, (x, y) in enumerate(zip(a2[:-2], b2[:-2])):
        merged = broadcast_merge(x, y)
        if merged is None and x.is_static and y.is_static:
            raise ShapeError(f"Incompatible MatMul batch dimension. Can't merge first input dimension={x} with "
                             f"second input dimension={y} at index={i}")
        out.append(Dim.dynamic() if merged is None else merged)
    if len(a) > 1:
        out.append(a2[-2])
    if len(b) > 1:
        out.append(b2[-1])
    return [out]


@type_infer("MatMul")
def _matmul_types(node: Node) -> list[str | None]:
    return [same_type(node)]


# -- GroupedMatMul ---------------------------------------------------------------------------------------
@shape_infer("GroupedMatMul", versions=(17,))
def _grouped_matmul(node: Node) -> list[Shape]:
    """``v17::shape_infer(GroupedMatMul)`` (``grouped_matmul_shape_inference.hpp``, as 2026.4.1 holds it: two
    cases, measured): 3-D ``[G, M, K]`` by 3-D ``[G, N, K]`` gives ``[G, M, N]`` (any offsets ignored); 2-D
    ``[T, K]`` by 3-D ``[G, N, K]`` with 1-D offsets gives ``[T, N]``; G and K merged."""
    a, b = node.input(0), node.input(1)
    if a is None or b is None:
        return [None]
    if len(a) == 3 and len(b) == 3:
        groups = merge_checked(a[0], b[0], f"GroupedMatMul 3Dx3D: batch dimension mismatch mat_a: {a[0]}, "
                                           f"mat_b: {b[0]}")
        merge_checked(a[2], b[2], f"GroupedMatMul 3Dx3D: inner dimension mismatch mat_a: {a[2]}, mat_b: {b[2]}")
        return [[groups, a[1], b[1]]]
    if len(a) == 2 and len(b) == 3:
        if len(node.inputs) != 3:
            raise ShapeError("GroupedMatMul 2Dx3D case requires offsets input.")
        if not rank_is(node.input(2), 1):
            raise ShapeError("GroupedMatMul offsets must be 1D tensor.")
        merge_checked(a[1], b[2], f"GroupedMatMul 2Dx3D: inner dimension mismatch mat_a: {a[1]}, mat_b: {b[2]}")
        return [[a[0], b[1]]]
    raise ShapeError(f"GroupedMatMul unsupported combination: mat_a {len(a)}D x mat_b {len(b)}D. Supported: 2Dx3D, "
                     "3Dx3D.")


@type_infer("GroupedMatMul", versions=(17,))
def _grouped_matmul_types(node: Node) -> list[str | None]:
    """``v17::GroupedMatMul::validate_and_infer_types``: mat_a and mat_b of one type (the output's), the offsets
    (a third input) i32, i64 or dynamic."""
    out = merged_type(node, 0, 1, "Arguments do not have the same element type (mat_a element type: {}, mat_b "
                                  "element type: {}).")
    check_types(node, (2, IS_INDEX, "Offsets element type must be i32 or i64. Got: {}"))
    return [out]


# -- Einsum -----------------------------------------------------------------------------------------------
_ELLIPSIS = "..."
_BAD_SUBSCRIPT = ("{} subscript of Einsum equation must consist of either only alphabetic letters or "
                  "alphabetic letters with one ellipsis.")


def _einsum_labels(subscript: str, which: str) -> list[str]:
    """``is_subscript_correct`` then ``Einsum::extract_labels``: ASCII letters and at most one ``...``."""
    labels: list[str] = []
    i = 0
    while i < len(subscript):
        if _ELLIPSIS not in labels and subscript.startswith(_ELLIPSIS, i):
            labels.append(_ELLIPSIS)
            i += 3
        elif subscript[i].isascii() and subscript[i].isalpha():
            labels.append(subscript[i])
            i += 1
        else:
            raise ShapeError(_BAD_SUBSCRIPT.format(which))
    return labels


def _einsum_equation(equation: str) -> tuple[list[list[str]], list[str]]:
    """``Einsum::parse_equation``: the labels of each input subscript and of the output subscript. Without
    ``->`` the output is every label that no other input has, sorted, after ``...`` if an input has one."""
    inputs_text, arrow, output_text = equation.partition("->")
    subscripts = inputs_text.split(",")  # "" is one empty subscript (a scalar), "a," two
    inputs = [_einsum_labels(s, "Input") for s in subscripts]
    if arrow:
        return inputs, _einsum_labels(output_text, "Output")
    implicit = sorted(label for k, labels in enumerate(inputs) for label in labels if label != _ELLIPSIS
                      and not any(label in s for j, s in enumerate(subscripts) if j != k))
    return inputs, ([_ELLIPSIS] if any(_ELLIPSIS in labels for labels in inputs) else []) + implicit


def _broadcast_label(dims: dict[str, list[Dim]], label: str, part: list[Dim], message: str) -> None:
    """``label``'s dims so far broadcast with ``part`` (``broadcast_merge_into``, numpy), or ``part`` for a
    label not seen yet; ShapeError(``message``) where they clash."""
    ok, merged = (True, part) if label not in dims else broadcast_merge_into(dims[label], part)
    if not ok:
        raise ShapeError(message)
    dims[label] = merged  # type: ignore[assignment]


@shape_infer("Einsum")
def _einsum(node: Node) -> list[Shape]:
    """``v7::shape_infer(Einsum)`` (``einsum_shape_inference.hpp``): a label's dims merged within an
    input and broadcast across inputs, the ``...`` dims broadcast numpy-style; an input of dynamic rank
    with ``...`` makes the output's rank dynamic when the output has ``...`` too."""
    inputs, output = _einsum_equation(node.attr("equation", "") or "")
    if len(inputs) != len(node.inputs):
        raise ShapeError("Equation must contain a number of subscripts equal to a number of Einsum inputs.")
    dims: dict[str, list[Dim]] = {}
    for labels, shape in zip(inputs, node.inputs):
        has_ellipsis = _ELLIPSIS in labels
        if shape is None:
            if has_ellipsis and _ELLIPSIS in output:
                return [None]
            for label in labels:
                dims.setdefault(label, [Dim.dynamic()])
            continue
        if not (len(shape) >= len(labels) - 1 if has_ellipsis else len(shape) == len(labels)):
            raise ShapeError("Input rank must be greater or equal to a number of labels in the corresponding "
                             "input subscript.")
        own: dict[str, Dim] = {}
        pos = 0
        for label in labels:
            if label == _ELLIPSIS:
                width = len(shape) - len(labels) + 1
                _broadcast_label(dims, label, list(shape[pos:pos + width]),
                                 "Input dimensions labeled with ellipsis for Einsum must be broadcastable.")
                pos += width
                continue
            if label in own:
                own[label] = merge_checked(own[label], shape[pos], "Different input dimensions indicated by the "
                                           "repeated labels within single input node for Einsum must be compatible.")
            else:
                own[label] = shape[pos]
            pos += 1
        for label, d in own.items():
            _broadcast_label(dims, label, [d], "Different input dimensions indicated by the same labels for Einsum "
                             "must be broadcastable.")
    out: list[Dim] = []
    for label in output:
        if label not in dims:
            if label == _ELLIPSIS:
                continue
            raise ShapeError("Label in output subscript of Einsum equation must enter at least one input "
                             "subscript.")
        out.extend(dims[label])
    return [out]


@type_infer("Einsum")
def _einsum_types(node: Node) -> list[str | None]:
    known = {t for t in node.types if t is not None and t != E.DYNAMIC}
    if len(known) > 1:
        raise ShapeError("Inputs to Einsum operation must have the same type.")
    return [in_type(node, 0)]
