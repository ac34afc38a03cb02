"""Shape functions of the pooling family: sliding windows and spatial rearrangement.

Ops: MaxPool (opset1; opset8 and opset14 with the indices output), AvgPool (opset1, opset14, opset16),
AdaptiveAvgPool, AdaptiveMaxPool, Interpolate (opset1, opset4, opset11), Pad (opset1, opset12),
SpaceToBatch, BatchToSpace, DepthToSpace, SpaceToDepth, ShuffleChannels, ROIPooling, ROIAlign (opset3,
opset9), PSROIPooling, ReorgYolo, RegionYolo.

Each follows the OpenVINO 2026.4.1 shape-inference unit named in its docstring
(``src/core/shape_inference/include/<unit>.hpp``) and the checks of the op's ``validate_and_infer_types``
that look at shapes, attributes or input values. Element types are not part of a :class:`Node`, so the
element-type checks are made only where the type is known (a constant input).

The interval arithmetic is ``ov::Dimension``'s, bounds included (:mod:`irreshape.shapes.dimops`):
``Dimension / n`` divides the bounds in doubles (an unbounded upper bound becomes a large finite one),
``Dimension - Dimension`` clips at 0, and ``ov::util::dim::{padded, floor_div, ceil_div}`` are
OpenVINO's; ``ov::util::dim::scale``, which only Interpolate uses, is below.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...core import etypes as E
from ...core.dims import INF, Dim, Shape, format_shape
from ..dimops import (add, ceil_div, compatible, div, floor_div, length, merge_checked, merge_into, normalize_axis,
                      padded, padded_length, sub)
from ..node import Node, ShapeError, Undecided, shape_infer, size_dim, type_infer, value_eval
from ..typerule import (INTEGRAL, REAL, STRICT, attr_type, check_integral, data_type_with, in_type, known_type_one_of,
                        merged_type, merged_types, type_one_of)
from .. import values as V
from ..values import INT_RANGES, wrap

_SIZE = 1 << 64  # size_t arithmetic wraps modulo 2**64


# -- ov::util::dim::scale ----------------------------------------------------------------------------
def _scaled(d: Dim, scale: float) -> Dim:
    """``ov::util::dim::scale``: each bound times ``scale + 1e-6`` in float32, truncated."""
    import numpy as np  # float32 arithmetic as C++ does it; only where such an op is
    s = np.float32(scale)
    if s == np.float32(1.0):
        return d
    s = np.float32(s + np.float32(1e-6))

    def one(v: int) -> int:
        p = np.float32(np.float32(v) * s)
        if not -2.0**63 <= p < 2.0**63:
            raise Undecided(f"a scaled dim of {p} does not fit int64 (the cast is undefined)")
        return int(p)
    hi = -1 if d.hi == INF else one(d.hi)
    return Dim.of(hi) if d.is_static else Dim(one(d.lo), hi)


def _checked_div(d: Dim, divisor: int) -> Dim:
    """``d / divisor`` (``Dimension::operator/``), then ``check_divided_result``: an empty quotient rejects
    the node."""
    result = div(d, divisor)
    if result.is_empty:
        raise ShapeError(f"Dimension value: [ {d.lo}, {length(d.hi)}] must be a multiple of divisor: {divisor}")
    return result


# -- attributes and input values --------------------------------------------------------------------
def _sizes(node: Node, name: str) -> list[int]:
    """A ``Shape``/``Strides`` attribute (size_t elements: the schema reads a negative one wrapped around; each
    shape function decides on the values past int64 that OpenVINO uses as int64)."""
    return [v % _SIZE for v in (node.a[name] if name in node.a else node.ints(name))]


def _size(node: Node, name: str, default: int | None = None) -> int:
    """A ``size_t`` attribute (the schema reads a negative one wrapped around)."""
    return node.int(name, default) % _SIZE


def _enum(node: Node, name: str, default: str, allowed: Sequence[str]) -> str:
    """An enum attribute; one OpenVINO does not know fails the IR reader (the schema), not shape inference."""
    value = node.a[name] if name in node.a else node.lower(name, default)
    if value not in allowed:
        raise Undecided(f"attribute {name}={node.attr(name)!r} is not one OpenVINO knows")
    return value


def _integral_input(node: Node, i: int, message: str) -> None:
    """An integer-typed input, checked where its element type is known (a constant)."""
    value = node.value(i)
    if value is not None and value.et not in INT_RANGES:
        raise ShapeError(message)


def _rank_one(shape: Shape, message: str) -> None:
    if shape is not None and len(shape) != 1:
        raise ShapeError(message)


# -- MaxPool, AvgPool -----------------------------------------------------------------------------------
def _same_padding(d: Dim, kernel: int, dilation: int, stride: int) -> tuple[int, int]:
    """``ov::util::dim::padding``: the SAME pads (total split low half first) of a static dim, else 0, 0."""
    if not d.is_static:
        return 0, 0
    dilated = dilation * (kernel - 1) + 1 if kernel >= 1 else -1
    tmp = (d.lo + stride - 1) // stride
    total = max(0, (tmp - 1) * stride + dilated - d.lo)
    return total // 2, total - total // 2


def pool_dim(d: Dim, kernel: int, stride: int, dilation: int, pad_begin: int, pad_end: int,
              rounding: str, exclude_pad: bool, axis: int) -> Dim:
    """``pooling::append_spatial_shape`` for one spatial dim with explicit pads (size_t attributes, so a value
    written negative is past int64)."""
    dilated = (dilation * (kernel - 1) + 1) % _SIZE if kernel >= 1 else _SIZE - 1  # size_t inf_bound
    pads = wrap(pad_begin + pad_end, "i64")  # made a Dimension: -1 is dynamic, a sum past int64 infinite
    if d.is_static and (pads == -1 or d.lo + pads >= INT_RANGES["i64"][1]):
        raise ShapeError("Cannot get length of dynamic dimension")
    if pads < 0:
        raise Undecided(f"pads of {pad_begin} and {pad_end}")
    dim = add(d, Dim.of(pads))
    if d.is_static:
        if dilated == 0:
            raise ShapeError(f"Kernel after dilation has dimension less than 1 (dim: 0) at axis {axis}.")
        if dilated > dim.lo:
            raise ShapeError(f"Kernel after dilation has size (dim: {dilated}) larger than the data shape "
                             f"after padding (dim: {dim}) at axis {axis}.")
        if exclude_pad and not (dilated > pad_begin and dilated > pad_end):
            raise ShapeError(f"Kernel after dilation is sometimes entirely in the padding area for axis {axis} "
                             f"(dilated kernel dimension: {dilated}, padding below dimension: {pad_begin}, "
                             f"padding above dimension: {pad_end}) and this is not allowed.")
    if (dilated >= 1 << 63 and kernel >= 1) or stride >= 1 << 63:
        if stride == _SIZE - 1 and dilated < 1 << 63 and d.is_static:  # written -1: one window (measured, each
            return Dim.of(1)                                               # rounding); other strides vary
        raise Undecided(f"a dilated kernel of {dilated} and a stride of {stride}")
    dim = (floor_div if rounding == "floor" else ceil_div)(sub(dim, Dim.of(wrap(dilated, "i64"))), stride)
    if rounding != "ceil_torch":
        return add(dim, Dim.of(1))

    def starts_in_data(n: int, data_len: int) -> int:
        # the last window may not start in the end padding (size_t comparison, as OpenVINO's)
        if not (n * stride) % _SIZE > (data_len + pad_begin - 1) % _SIZE and n != -1:
            return n + 1
        return n
    lo = starts_in_data(dim.lo, d.lo)
    if d.is_static:
        return Dim.of(lo)
    return Dim(lo, starts_in_data(length(dim.hi), d.hi) if d.hi != INF else -1)


def _pool(node: Node, dilations: list[int], exclude_pad: bool, torch_ceil: bool) -> Shape:
    """``pooling::out_shape_infer`` after ``validate::padding``, ``validate::attributes`` and
    ``apply_padding`` (max_pool_shape_inference.hpp, avg_pool_shape_inference.hpp,
    pooling_shape_inference_util.hpp)."""
    data = node.input(0)
    kernel = _sizes(node, "kernel")
    strides = _sizes(node, "strides")
    n = len(kernel)
    pads_begin = _sizes(node, "pads_begin") or [0] * n
    pads_end = _sizes(node, "pads_end") or [0] * n
    dilations = dilations or [1] * n
    auto_pad = _enum(node, "auto_pad", "explicit", ("explicit", "same_lower", "same_upper", "valid"))
    rounding = _enum(node, "rounding_type", "floor", ("floor", "ceil", "ceil_torch"))

    for name, pads in (("pads_begin", pads_begin), ("pads_end", pads_end)):
        if len(pads) != n:
            raise ShapeError(f"Expected {name} size to be equal to input size - 2. Got: {len(pads)}")
    if data is not None and len(data) not in (3, 4, 5):
        raise ShapeError(f"Expected a 3D, 4D or 5D tensor for the input. Got: {format_shape(data)}")
    if len(strides) != n:
        raise ShapeError(f"Expected strides size to be equal to input size - 2. Got: {len(strides)}")
    if len(dilations) != n:
        raise ShapeError(f"Expected dilations size to be equal to kernel size. Got: {len(dilations)}")
    if data is not None and n != len(data) - 2:
        raise ShapeError(f"Expected kernel size to be equal to input size - 2. Got: {n}")
    if 0 in strides:
        raise ShapeError(f"Strides has zero dimension(s). {strides}")
    if 0 in dilations:
        raise ShapeError(f"Kernel dilations has zero dimension(s). {dilations}")
    if rounding == "ceil_torch" and not torch_ceil:
        raise ShapeError("Rounding CEIL_TORCH is not supported.")

    if data is None:
        return [Dim.dynamic()] * (n + 2)
    if data[0].is_static and data[0].lo == 0:
        raise ShapeError("Batch size is zero.")
    if data[1].is_static and data[1].lo == 0:
        raise ShapeError("Channel count is zero.")
    same = auto_pad in ("same_upper", "same_lower")
    out = list(data[:2])
    for i, d in enumerate(data[2:]):
        if same and not d.is_static:
            out.append(Dim.dynamic())  # no pads fit both bounds of an interval
            continue
        pb, pe = pads_begin[i], pads_end[i]
        if same:
            if max(kernel[i], dilations[i], strides[i]) >= 1 << 63:
                raise Undecided("SAME pads of a size_t attribute past int64")
            low, high = _same_padding(d, kernel[i], dilations[i], strides[i])
            pb, pe = (low, high) if auto_pad == "same_upper" else (high, low)
        elif auto_pad == "valid":
            pb = pe = 0
        out.append(pool_dim(d, kernel[i], strides[i], dilations[i], pb, pe, rounding, exclude_pad, i))
    return out


@shape_infer("MaxPool", versions=(1,))
def _max_pool_v1(node: Node) -> list[Shape]:
    """MaxPool-1 (max_pool_shape_inference.hpp, ``v1::shape_infer``): no dilations, no ceil_torch."""
    return [_pool(node, [], exclude_pad=False, torch_ceil=False)]


@shape_infer("MaxPool", versions=(8, 14))
def _max_pool_v8(node: Node) -> list[Shape]:
    """MaxPool-8/14 (``max_pool_shape_infer_util``): dilations, the indices output of the same shape, an
    ``axis`` normalised first (v14 alone takes ceil_torch)."""
    if node.input(0) is not None:
        normalize_axis(node.int("axis"), len(node.input(0)))
    out = _pool(node, _sizes(node, "dilations"), exclude_pad=False, torch_ceil=node.version == 14)
    return [out, list(out)]


@shape_infer("AvgPool", versions=(1, 14, 16))
def _avg_pool(node: Node) -> list[Shape]:
    """AvgPool-1/14/16 (avg_pool_shape_inference.hpp): exclude-pad rejects a window wholly in the pads;
    v14 and v16 take ceil_torch, v16 dilations."""
    dilations = _sizes(node, "dilations") if node.version == 16 else []
    return [_pool(node, dilations, exclude_pad=node.flag("exclude-pad"), torch_ceil=node.version != 1)]


# -- AdaptiveAvgPool, AdaptiveMaxPool -------------------------------------------------------------------
def _adaptive(node: Node) -> Shape:
    """``pooling::out_shape_infer`` of the adaptive pools (pooling_shape_inference_util.hpp): batch and
    channels, then the spatial dims the second input holds."""
    data, spatial = node.input(0), node.input(1)
    if data is not None and len(data) not in (3, 4, 5):
        raise ShapeError(f"Expected a 3D, 4D or 5D tensor for the input. Got: {format_shape(data)}")
    if data is None:
        return None
    n = len(data) - 2
    if spatial is not None:
        if not spatial:
            raise ShapeError("Accessing out-of-range dimension")
        if not spatial[0].contains(n):
            raise ShapeError("Output shape for spatial dimension not compatible with data shape.")
    dims = node.as_shape(1)
    if dims is None:
        return list(data[:2]) + [Dim.dynamic()] * n
    if len(dims) != n:
        raise ShapeError("Number of spatial dimensions is not compatible with input data rank")
    return list(data[:2]) + dims


@shape_infer("AdaptiveAvgPool")
def _adaptive_avg_pool(node: Node) -> list[Shape]:
    """AdaptiveAvgPool-8 (adaptive_avg_pool_shape_inference.hpp)."""
    return [_adaptive(node)]


@shape_infer("AdaptiveMaxPool")
def _adaptive_max_pool(node: Node) -> list[Shape]:
    """AdaptiveMaxPool-8 (adaptive_max_pool_shape_inference.hpp): the indices output has the same shape."""
    if node.lower("index_element_type") not in ("i32", "i64"):
        raise ShapeError("Index element type must be i32 or i64")
    out = _adaptive(node)
    return [out, None if out is None else list(out)]


@type_infer("MaxPool", versions=(8, 14))
@type_infer("AdaptiveMaxPool")
def _max_pool_types(node: Node) -> list[str | None]:
    return [in_type(node, 0), attr_type(node, "index_element_type", "i64")]


# -- Interpolate ----------------------------------------------------------------------------------------
@shape_infer("Interpolate", versions=(0,))
def _interpolate_v0(node: Node) -> list[Shape]:
    """Interpolate-0 (interpolate_shape_inference.hpp, ``v0::shape_infer``): the ``axes`` attribute (a set:
    sorted, each once) takes the target shape's values in order; the pads play no part."""
    _integral_input(node, 1, "output shape must be an integral number.")
    data = node.input(0)
    if data is None:
        return [None]
    axes = sorted(set(node.ints("axes")))
    if any(not 0 <= a < len(data) for a in axes):
        raise ShapeError(f"All axes values should less than input rank: {len(data)}")
    target = node.as_shape(1)
    out = list(data)
    if target is not None and len(target) < len(axes):
        raise Undecided("a target shape shorter than the axes (OpenVINO reads past its end)")
    for j, a in enumerate(axes):
        out[a] = target[j] if target is not None else Dim.dynamic()
    return [out]


def _interpolate(node: Node, size_port: int, scale_port: int, axes_port: int) -> Shape:
    """Interpolate-4/11 (``v4::shape_infer``, ``v11::shape_infer``): the data dims padded, then on each axis
    the size, or the dim scaled (``dim::scale``); without axes values every dim is ``?``."""
    data = node.input(0)
    if data is None:
        return None
    rank = len(data)
    pads_begin, pads_end = ((node.ints(name) + [0] * rank)[:rank] for name in ("pads_begin", "pads_end"))
    if any(p >= 1 << 63 for p in pads_begin + pads_end):  # size_t past int64: OpenVINO's dims not measured
        raise Undecided("a pad past int64")
    if node.has_input(axes_port):
        axes = node.const(axes_port)
        if axes is None:
            return [Dim.dynamic()] * rank
        if any(not 0 <= a < rank for a in axes):
            raise ShapeError(f"All axes values should less than input rank: {rank}")
    else:
        axes = list(range(rank))
    out = [padded(d, b + e) for d, b, e in zip(data, pads_begin, pads_end)]
    what = _enum(node, "shape_calculation_mode", "sizes", ("sizes", "scales"))
    values = node.const_floats(scale_port) if what == "scales" else node.as_shape(size_port)
    if values is not None and len(values) < len(axes):
        raise ShapeError(f"The number of elements in the '{what}' input does not match the number of axes "
                         f"{len(axes)}")
    for j, a in enumerate(axes):
        if values is None:
            out[a] = Dim.dynamic()
        else:
            out[a] = _scaled(out[a], values[j]) if what == "scales" else values[j]  # type: ignore[arg-type]
    return out


@shape_infer("Interpolate", versions=(4,))
def _interpolate_v4(node: Node) -> list[Shape]:
    """Interpolate-4: sizes (port 1), scales (port 2), optional axes (port 3); four modes only."""
    if node.lower("mode") not in ("nearest", "linear", "linear_onnx", "cubic"):
        raise ShapeError(f"Unsupported interpolation mode used with version 4 of the Interpolate op: "
                         f"{node.attr('mode')}")
    scales_mode = node.lower("shape_calculation_mode") == "scales"
    for port in (2 if scales_mode else 1, 3):
        if port < 3 or node.has_input(3):
            _rank_one(node.input(port), f"Input [{port}] is not rank 1")
    return [_interpolate(node, 1, 2, 3)]


@shape_infer("Interpolate", versions=(11,))
def _interpolate_v11(node: Node) -> list[Shape]:
    """Interpolate-11: scales or sizes (port 1), optional axes (port 2)."""
    for port in range(1, len(node.inputs)):
        _rank_one(node.input(port), f"Input [{port}] is not rank 1")
    return [_interpolate(node, 1, 1, 2)]


_INTERPOLATED = ("f32", "f16", "i8", "bf16", "u8", "i64", "i32", "f64", E.DYNAMIC)
_SIZES = ("i32", "i64", "u32", "u64")  # the dynamic type refused (measured)
_SCALES = ("f32", "f16", "bf16")
_SIZES_MESSAGE = "Sizes element type must be i32, i64, u32 or u64"
_SCALES_MESSAGE = "Scales element type must be f32, f16 or bf16"
_AXES_MESSAGE = "Axes element type must be i32, i64, u32 or u64"


def _interpolate_data(node: Node) -> str | None:
    t = in_type(node, 0)
    if t is not None:
        type_one_of(t, _INTERPOLATED, "Input element type must be f32, f16, i8, bf16, u8, i64, i32, f64")
    return t


@type_infer("Interpolate", versions=(0,))
def _interpolate_0_types(node: Node) -> list[str | None]:
    check_integral(node, 1, "output shape must be an integral number.")
    return [in_type(node, 0)]


@type_infer("Interpolate", versions=(4,))
def _interpolate_4_types(node: Node) -> list[str | None]:
    t = _interpolate_data(node)
    known_type_one_of(node, 1, _SIZES, _SIZES_MESSAGE)
    known_type_one_of(node, 2, _SCALES, _SCALES_MESSAGE)
    known_type_one_of(node, 3, _SIZES, _AXES_MESSAGE)
    return [t]


@type_infer("Interpolate", versions=(11,))
def _interpolate_11_types(node: Node) -> list[str | None]:
    t = _interpolate_data(node)
    if node.lower("shape_calculation_mode", "") == "scales":
        known_type_one_of(node, 1, _SCALES, _SCALES_MESSAGE)
    else:
        known_type_one_of(node, 1, _SIZES, _SIZES_MESSAGE)
    known_type_one_of(node, 2, _SIZES, _AXES_MESSAGE)
    return [t]


# -- Pad ------------------------------------------------------------------------------------------------
@shape_infer("Pad", versions=(1, 12))
def _pad(node: Node) -> list[Shape]:
    """Pad-1/12 (pad_shape_inference.hpp): each dim moved by the bounds of its pads (negative pads crop;
    :func:`_pad_bounds`); without bounds for both pads, a dim ``?`` per data dim."""
    mode = _enum(node, "pad_mode", "constant", ("constant", "edge", "reflect", "symmetric"))
    for port, name in ((1, "pads_begin"), (2, "pads_end")):
        _integral_input(node, port, f"{name} must be an integral number")
    if mode == "constant" and node.has_input(3) and node.rank(3) not in (None, 0):
        raise ShapeError("Argument for padding value is not a scalar.")
    begin_shape, end_shape = node.input(1), node.input(2)
    _rank_one(begin_shape, "Argument for pads_begin is not 1D.")
    _rank_one(end_shape, "Argument for pads_end is not 1D.")
    data = node.input(0)
    begin, end = node.bounds(1), node.bounds(2)
    if data is None:
        return [None]
    if begin is None or end is None:
        for name, shape in (("pads_begin", begin_shape), ("pads_end", end_shape)):
            if shape is not None and shape[0].is_static and shape[0].lo > len(data):
                raise ShapeError(f"Number of elements of {name} must be >= 0 and <= arg rank")
        return [[Dim.dynamic()] * len(data)]
    try:
        return [_pad_bounds(data, begin, end, mode)]  # lengths, the modes' limits, the bounds moved
    except ValueError as e:
        raise ShapeError(str(e)) from None


@type_infer("Pad")
def _pad_types(node: Node) -> list[str | None]:
    check_integral(node, 1, "pads_begin must be an integral number, but is: {}).")
    check_integral(node, 2, "pads_end must be an integral number, but is: {}).")
    mode = node.lower("pad_mode", "constant")
    if mode == "constant" and len(node.types) > 3:  # arg_pad is read in the constant mode only (measured)
        return [merged_type(node, 0, 3, "Argument element types do not match (input arg element type: {}, arg_pad "
                                        "element type: {}).")]
    if mode != "constant" and in_type(node, 0) == "string":
        raise ShapeError("Only CONSTANT pad mode is supported for element::string")
    return [in_type(node, 0)]


@value_eval("Pad", versions=(1, 12))
def _pad_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.pad(x[0], x[1], x[2], x[3] if len(x) > 3 else None, node.lower("pad_mode"))


def _inf_pad(bounds: tuple[int, int]) -> bool:
    """``pad::is_inf_padding``: a pad from 0 with no upper bound."""
    return bounds[0] == 0 and bounds[1] in (-1, INF)


def _pad_bounds(data: list[Dim], begin: Sequence[tuple[int, int]], end: Sequence[tuple[int, int]],
                mode: str = "constant") -> list[Dim]:
    """Pad-1/Pad-12 ``shape_infer`` from the bounds (lower, upper) of each ``pads_begin``/``pads_end``
    element: a dim's bounds move by the pads' bounds (``ov::util::dim::padded``: a bound below 0 becomes
    "none"; an unbounded pad from 0 leaves the upper bound open); a dim with zero pads stays as it is.
    ValueError where OpenVINO rejects the layer (a pads length other than the rank; a mode the static dim is
    too short for)."""
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
        hi = -1 if _inf_pad(b) or _inf_pad(e) else padded_length(length(d.hi), high)
        out.append(Dim(padded_length(d.lo, low), hi))
    return out


# -- SpaceToBatch, BatchToSpace -------------------------------------------------------------------------
def _batch_space_inputs(node: Node, what: str, rank_message: str) -> tuple[Shape, Shape]:
    """SpaceToBatch's and BatchToSpace's first checks: the block, begin and end inputs merged
    (``PartialShape::merge_into``), of rank 1; then the data, of rank 2 at least (``rank_message``, formatted
    with the rank). The merged shape and the data shape."""
    block, begin, end = node.input(1), node.input(2), node.input(3)
    ok, merged = merge_into(begin, end)
    if ok:
        ok, merged = merge_into(merged, block)
    if not ok:
        raise ShapeError(f"block_shape, {what}_begin and {what}_end inputs must have the same shape. Got: "
                         f"{format_shape(block)}, {format_shape(begin)} and {format_shape(end)}")
    if merged is not None and len(merged) != 1:
        raise ShapeError(f"block_shape and {what} inputs must have rank 1. Got: {len(merged)}")
    data = node.input(0)
    if data is not None and len(data) < 2:
        raise ShapeError(rank_message.format(len(data)))
    return merged, data


@shape_infer("SpaceToBatch")
def _space_to_batch(node: Node) -> list[Shape]:
    """SpaceToBatch-2 (space_to_batch_shape_inference.hpp): the batch times the blocks' product, each spatial
    dim plus ``Dimension(pad_begin)`` plus ``Dimension(pad_end)`` divided by its block."""
    _, data = _batch_space_inputs(node, "pads", "The data tensor with rank lower than 2 is not supported (data "
                                  "rank: {})")
    if data is None:
        return [None]
    blocks = node.const(1)
    out = [data[0] * Dim.of(wrap(math.prod(blocks), "i64")) if blocks is not None else Dim.dynamic()]
    begin, end = node.const(2), node.const(3)
    if blocks is None or begin is None or end is None:
        return [out + [Dim.dynamic()] * (len(data) - 1)]
    if len(blocks) < len(data):
        raise Undecided("block_shape and pads shorter than the data rank (OpenVINO reads past their end)")
    for i in range(1, len(data)):
        if blocks[i] <= 0:
            raise ShapeError("block_shape values must be greater than 0")
        padded_dim = add(add(data[i], Dim.of(begin[i])), Dim.of(end[i]))  # a pad of -1 is a ``?``
        if padded_dim.hi == INF:
            out.append(ceil_div(padded_dim, blocks[i]))
        else:
            out.append(_checked_div(padded_dim, blocks[i]))
    return [out]


type_infer("SpaceToBatch")(data_type_with(*((i, INTEGRAL, f"{name} must be an integral number but got ({{}}).")
                                            for i, name in ((1, "block_shape"), (2, "pads_begin"), (3, "pads_end")))))


@shape_infer("BatchToSpace")
def _batch_to_space(node: Node) -> list[Shape]:
    """BatchToSpace-2 (batch_to_space_shape_inference.hpp): the batch divided by the blocks' product, each
    spatial dim times its block less its crops (an unknown block: ``1..``)."""
    merged, data = _batch_space_inputs(node, "crops", "data input must have rank greater or equal than 2. Got: {}")
    if data is None:
        return [None]
    if merged is not None and merged[0].is_static and merged[0].lo != len(data):
        raise ShapeError(f"block_shape and crop inputs must have same number of elements as data input rank. "
                         f"Got: {merged[0]} and {len(data)}")
    blocks = node.const(1)
    if blocks is not None:
        if any(b < 1 for b in blocks):
            raise ShapeError("Elements of block_shape input must be greater or equal to one.")
        divisor = wrap(math.prod(blocks), "i64")
        out = [_checked_div(data[0], divisor)]
    else:
        out = [Dim.dynamic()]
    begin, end = node.const(2), node.const(3)
    if begin is None or end is None:
        return [out + [Dim.dynamic()] * (len(data) - 1)]
    if any(c < 0 for c in begin + end):
        raise ShapeError("Elements of crops_begin and crops_end inputs must be greater or equal to zero.")
    for i in range(1, len(data)):
        d = data[i] * (Dim.of(blocks[i]) if blocks is not None else Dim(1, -1))
        crop = wrap(begin[i] + end[i], "i64")
        if blocks is not None and d.is_static and crop > d.lo:
            raise ShapeError("crops_begin[i] + crops_end[i] must be less or equal to block_shape[i] * "
                             "input_shape[i]")
        out.append(sub(d, Dim.of(crop)))
    return [out]


@type_infer("BatchToSpace")
def _batch_to_space_types(node: Node) -> list[str | None]:
    merged_types(node, (1, 2, 3), "block_shape, crops_begin and crops_end inputs must have same element type. Got: "
                                  "{}, {} and {}")
    return [in_type(node, 0)]


# -- DepthToSpace, SpaceToDepth, ShuffleChannels --------------------------------------------------------
def _block_power(block: int, exponent: int) -> int:
    """``static_cast<int64_t>(std::pow(block_size, n))``: the power in doubles (the same libm), and a double past
    int64 cast as x86-64 casts it (to INT64_MIN)."""
    power = float(block) ** exponent
    return int(power) if -2.0 ** 63 <= power < 2.0 ** 63 else INT_RANGES["i64"][0]


@shape_infer("DepthToSpace", "SpaceToDepth")
def _depth_space(node: Node) -> list[Shape]:
    """DepthToSpace-1 and SpaceToDepth-1 (depth_to_space_shape_inference.hpp,
    space_to_depth_shape_inference.hpp), in either mode: a data rank of 3 at least; DepthToSpace divides the
    channels by block**spatial rank and multiplies each spatial dim by the block, SpaceToDepth the reverse."""
    _enum(node, "mode", "blocks_first", ("blocks_first", "depth_first"))
    data = node.input(0)
    if data is None:
        return [None]
    if len(data) < 3:
        raise ShapeError(f"The input tensor with rank lower than 3 is not supported (input rank: {len(data)})")
    block = _size(node, "block_size", 1)
    volume = _block_power(block, len(data) - 2)  # 0 for a block of 0 alone
    if node.type.lower() == "depthtospace":
        if volume == 0:
            raise ShapeError("DepthToSpace: The divisor must not be 0")
        if volume < 0:  # Dimension::operator/
            raise ShapeError("divisor must be greater than 0")
        channels = _checked_div(data[1], volume)
        if block >= 1 << 53:
            raise Undecided(f"spatial dims times a block of {block}")
        return [[data[0], channels] + [d * Dim.of(block) for d in data[2:]]]
    if block == 0:
        raise ShapeError(f"The block size must be greater than 0 {block}")
    if block >= 1 << 63:  # the channels times the volume first, then each spatial dim divided by int64(block)
        raise ShapeError("divisor must be greater than 0")
    spatial = [_checked_div(d, block) for d in data[2:]]
    if not 0 <= volume < 1 << 53:
        raise Undecided(f"the channels times a block volume of {volume}")
    return [[data[0], data[1] * Dim.of(volume)] + spatial]


@shape_infer("ShuffleChannels")
def _shuffle_channels(node: Node) -> list[Shape]:
    """ShuffleChannels-1 (shuffle_channels_shape_inference.hpp): the shape unchanged; a static channel dim
    must split into ``group`` equal parts."""
    group = node.int("group")
    if group < 1:
        raise ShapeError("The 'group' parameter must be greater or equal to 1.")
    data = node.input(0)
    if data is None:
        return [None]
    if not data:
        raise ShapeError("The input tensor's shape is expected to be at least 1D.")
    axis = normalize_axis(node.int("axis"), len(data))
    channels = data[axis]
    if channels.is_static and channels.lo % group:
        raise ShapeError("The channel dimension size has to be a multiple of the groups parameter value.")
    out = list(data)
    out[axis] = Dim(channels.lo, channels.hi)  # OpenVINO drops the symbol
    return [out]


# -- ROIPooling, PSROIPooling, ROIAlign -----------------------------------------------------------------
def _check_rois(rois: Shape, columns: int) -> Dim:
    """``roi_pooling::validate::rois_input_shape``: the number of ROIs (``?`` for a dynamic rank)."""
    if rois is None:
        return Dim.dynamic()
    if len(rois) != 2:
        raise ShapeError(f"Expected a 2D tensor for the ROIs input with box coordinates. Got: "
                         f"{format_shape(rois)}")
    if not rois[1].contains(columns):
        raise ShapeError(f"The second dimension of ROIs input should contain batch id and box coordinates. "
                         f"This dimension is expected to be equal to {columns}. Got: {rois[1]}")
    return rois[0]


def _check_scale(node: Node) -> None:
    """``roi_pooling::validate::scale_attr``: a positive normal float."""
    import numpy as np  # float32 arithmetic as C++ does it; only where such an op is
    with np.errstate(over="ignore"):  # a double past float is inf, as static_cast<float> makes it
        scale = np.float32(node.float("spatial_scale"))
    if not (np.isfinite(scale) and scale >= np.finfo(np.float32).tiny):
        raise ShapeError(f"The spatial scale attribute should be a positive floating point number. Got: {scale}")


def _check_feat(feat: Shape) -> None:
    if feat is not None and len(feat) != 4:
        raise ShapeError(f"Expected a 4D tensor for the feature maps input. Got: {format_shape(feat)}")


def _roi_size(node: Node) -> tuple[list[int], bool]:
    """ROIPooling's pooled size as the IR reader sets it: ``output_size``, then ``output_roi``, then
    ``pooled_h`` and ``pooled_w`` written into its elements (size_t all); and whether one was written past its
    end (undefined behaviour: the size keeps its length, or read_model crashes)."""
    name = "output_roi" if node.attr("output_roi") is not None else "output_size"
    size = [v % _SIZE for v in node.ints(name)]
    past = False
    for i, pooled in enumerate(("pooled_h", "pooled_w")):
        if node.attr(pooled) is not None:
            if i < len(size):
                size[i] = _size(node, pooled)
            else:
                past = True
    return size, past


@shape_infer("ROIPooling")
def _roi_pooling(node: Node) -> list[Shape]:
    """ROIPooling-2 (roi_pooling_shape_inference.hpp): ``[ROIs, channels, pooled_h, pooled_w]``."""
    feat = node.input(0)
    _check_feat(feat)
    rois = _check_rois(node.input(1), 5)
    size, past = _roi_size(node)
    if len(size) != 2:
        raise ShapeError(f"The dimension of pooled size is expected to be equal to 2. Got: {len(size)}"
                         + (" (read_model writes pooled_h and pooled_w past its end first: undefined behaviour, "
                            "where it crashes)" if past else ""))
    if 0 in size:
        raise ShapeError(f"Pooled size attributes pooled_h and pooled_w should should be positive integers. "
                         f"Got: {size[0]} and: {size[1]}respectively")
    _check_scale(node)
    method = node.attr("method", "max")
    if method not in ("max", "bilinear"):
        raise ShapeError(f"Pooling method attribute should be either 'max' or 'bilinear'. Got: {method}")
    return [[rois, feat[1] if feat is not None else Dim.dynamic()] + [size_dim(s) for s in size]]


@type_infer("ROIPooling")
def _roi_pooling_types(node: Node) -> list[str | None]:
    data, rois = in_type(node, 0), in_type(node, 1)
    if data is not None and rois is not None and not (E.is_real(data) and E.is_real(rois)):  # dynamic refused
        raise ShapeError(f"The data type for input and ROIs is expected to be a floating point type. Got: {data} and: "
                         f"{rois}")
    return [merged_type(node, 0, 1, "Type of feature maps (inputs) and ROIs is expected to be the same. Got: {} "
                                    "and: {}")]


type_infer("PSROIPooling")(data_type_with((0, REAL, "Feature maps' data type must be floating point. Got {}", STRICT),
                                          (1, REAL, "Coords' data type must be floating point. Got {}", STRICT)))


@shape_infer("PSROIPooling")
def _psroi_pooling(node: Node) -> list[Shape]:
    """PSROIPooling-1 (psroi_pooling_shape_inference.hpp): ``[ROIs, output_dim, group_size, group_size]``;
    the channels must hold output_dim times the group area (average) or the bins (bilinear)."""
    mode = node.a.get("mode", node.attr("mode", "average"))  # "" where the IR has none
    if mode not in ("average", "bilinear"):
        raise ShapeError(f"Expected 'average' or 'bilinear' mode. Got {mode}")
    group = _size(node, "group_size", 1)
    if group == 0:
        raise ShapeError("group_size has to be greater than 0")
    bins = node.int("spatial_bins_x"), node.int("spatial_bins_y")
    if mode == "bilinear":
        for axis, b in zip("xy", bins):
            if b <= 0:
                raise ShapeError(f"spatial_bins_{axis} has to be greater than 0")
    _check_scale(node)
    feat = node.input(0)
    _check_feat(feat)
    output_dim = _size(node, "output_dim")
    if feat is not None:
        area = group * group if mode == "average" else bins[0] * bins[1]
        if not compatible(feat[1], Dim.of(wrap(area * output_dim % _SIZE, "i64"))):
            raise ShapeError("Number of input's channels must be a multiply of output_dim * "
                             + ("group_size * group_size" if mode == "average" else "spatial_bins_x * spatial_bins_y"))
    rois = _check_rois(node.input(1), 5)
    return [[rois, size_dim(output_dim), size_dim(group), size_dim(group)]]


@shape_infer("ROIAlign", versions=(3, 9))
def _roi_align(node: Node, box: int = 4) -> list[Shape]:
    """ROIAlign-3/9 (roi_align_shape_utils.hpp): ``[ROIs merged with the batch indices, channels, pooled_h,
    pooled_w]``; each ROI of ``box`` values."""
    data, rois, indices = node.input(0), node.input(1), node.input(2)
    if data is not None and len(data) != 4:
        raise ShapeError(f"Expected a 4D tensor for the input data. Got: {format_shape(data)}")
    if rois is not None and len(rois) != 2:
        raise ShapeError(f"Expected a 2D tensor for the ROIs input. Got: {format_shape(rois)}")
    if indices is not None and len(indices) != 1:
        raise ShapeError(f"Expected a 1D tensor for the batch indices input. Got: {format_shape(indices)}")
    count = Dim.dynamic()
    if rois is not None:
        if not rois[1].contains(box):
            raise ShapeError(f"The second dimension of ROIs input should contain box coordinates. op dimension "
                             f"is expected to be equal to {box}. Got: {rois[1]}")
        count = rois[0]
    if indices is not None:
        count = merge_checked(count, indices[0], "The first dimension of ROIs input must be equal to the first "
                              f"dimension of the batch indices input. Got: {count} and: {indices[0]}")
    channels = data[1] if data is not None else Dim.dynamic()
    return [[count, channels, Dim.of(node.int("pooled_h")), Dim.of(node.int("pooled_w"))]]


@shape_infer("ROIAlignRotated", versions=(15,))
def _roi_align_rotated(node: Node) -> list[Shape]:
    """ROIAlignRotated-15 (roi_align_shape_utils.hpp): ROIAlign's shape, each ROI of 5 values (its angle too)."""
    return _roi_align(node, 5)


@type_infer("ROIAlign")
@type_infer("ROIAlignRotated", versions=(15,))
def _roi_align_types(node: Node) -> list[str | None]:
    """``ROIAlignBase::validate_and_infer_types``: data and ROIs of one floating-point type (the output's, their merge),
    integer batch indices."""
    data, rois = in_type(node, 0), in_type(node, 1)
    out = E.merge(data, rois)
    if out is False or (out not in (None, E.DYNAMIC) and not E.is_real(out)):  # type: ignore[arg-type]
        raise ShapeError("The data type for input and ROIs is expected to be a same floating point type. Got: "
                         f"{data} and: {rois}")
    check_integral(node, 2, "The data type for batch indices is expected to be an integer. Got: {}")
    return [out]  # type: ignore[list-item]


@shape_infer("DeformablePSROIPooling", versions=(1,))
def _deformable_psroi_pooling(node: Node) -> list[Shape]:
    """DeformablePSROIPooling-1 (deformable_psroi_pooling_shape_inference.hpp): data of rank 4, 2-D boxes, 4-D
    offsets where given; ``[boxes, output_dim, group_size, group_size]``, both attributes positive."""
    for i, rank, which in ((0, 4, "First"), (1, 2, "Second"), (2, 4, "Third")):
        shape = node.input(i)
        if node.has_input(i) and shape is not None and len(shape) != rank:
            raise ShapeError(f"{which} input rank must be compatible with {rank} (input rank: {len(shape)})")
    output_dim, group = node.int("output_dim"), node.int("group_size")
    if output_dim <= 0:
        raise ShapeError("Value of `output_dim` attribute has to be greater than 0")
    if group <= 0:
        raise ShapeError("Value of `group_size` attribute has to be greater than 0")
    boxes = node.input(1)
    return [[boxes[0] if boxes is not None else Dim.dynamic(), Dim.of(output_dim), Dim.of(group), Dim.of(group)]]


# -- ReorgYolo, RegionYolo ------------------------------------------------------------------------------
type_infer("RegionYolo")(data_type_with((0, REAL, "Type of input is expected to be a floating point type. Got: {}",
                                         STRICT)))


@shape_infer("ReorgYolo")
def _reorg_yolo(node: Node) -> list[Shape]:
    """ReorgYolo-2 (reorg_yolo_shape_inference.hpp): ``[N, C * stride**2, H / stride, W / stride]`` with
    the first stride."""
    strides = node.ints("stride")
    if not strides:
        raise ShapeError("Stride attribute is required.")
    stride = strides[0] % _SIZE
    data = node.input(0)
    if data is None:
        return [None]
    if len(data) != 4:
        raise ShapeError("[N, C, H, W] input shape is required.")
    square = wrap(stride * stride % _SIZE, "i64")  # Dimension(stride * stride), in size_t
    if square < 0:
        raise Undecided(f"a stride of {stride} squared")
    if data[1].is_static and data[1].lo < square:
        raise ShapeError("For [N, C, H, W] input shape, C >= (stride*stride) is required.")
    if stride >= 1 << 63:  # Dimension::operator/ of int64(stride)
        raise ShapeError("divisor must be greater than 0")
    spatial = [div(d, stride) for d in data[2:]]
    if any(d.is_empty for d in spatial):
        raise ShapeError("For [N, C, H, W] input shape, H and W should be divisible by stride.")
    return [[data[0], data[1] * Dim.of(square)] + spatial]


@shape_infer("RegionYolo")
def _region_yolo(node: Node) -> list[Shape]:
    """RegionYolo-1 (region_yolo_shape_inference.hpp): with do_softmax, the dims ``axis..end_axis`` flattened
    into one; without, the channels become ``(classes + coords + 1) * len(mask)``."""
    data = node.input(0)
    if data is not None and len(data) != 4:
        raise ShapeError(f"Input must be a tensor of rank 4, but got {len(data)}")
    if data is None:
        return [None]
    if node.flag("do_softmax"):
        axis = normalize_axis(node.int("axis"), 4)
        end = normalize_axis(node.int("end_axis"), 4)
        flat = data[axis]
        for d in data[axis + 1:end + 1]:
            flat = flat * d
        return [list(data[:axis]) + [flat] + list(data[max(axis, end) + 1:])]
    channels = (node.int("classes") + node.int("coords") + 1) * len(node.ints("mask"))
    return [[data[0], size_dim(channels)] + list(data[2:])]
