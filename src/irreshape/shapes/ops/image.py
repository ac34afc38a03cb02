"""Shape functions of image and signal ops: sampling, patches, colour conversions, Fourier transforms and the
generators (Eye) and lookups (SearchSorted) that stand beside them.

Ops: GridSample (opset9), Col2Im (opset15), ExtractImagePatches (opset3), NV12toRGB and NV12toBGR, I420toRGB and
I420toBGR (opset8), DFT and IDFT (opset7), Eye (opset9), SearchSorted (opset15).

Each follows the OpenVINO 2026.4.1 shape-inference unit named in its docstring
(``src/core/shape_inference/include/<unit>.hpp``), with OpenVINO's messages where it rejects the layer.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core import etypes as E
from ...core.dims import INF, Dim, Shape, format_shape
from ..dimops import ceil_div, div, merge_checked, merge_into, sub, trunc_div
from ..node import Node, ShapeError, Undecided, shape_infer, type_infer
from ..typerule import (INDEX_TYPES, IS_INDEX, REAL, STRICT, attr_type, check_types, data_type_with, in_type,
                        merged_types, type_one_of)
from ..values import wrap
from .signal import fft_validation

_SIZE = 1 << 64  # size_t arithmetic wraps modulo 2**64


def _fully_static(shape: Shape) -> bool:
    return shape is not None and all(d.is_static for d in shape)


@shape_infer("GridSample", versions=(9,))
def _grid_sample(node: Node) -> list[Shape]:
    """``grid_sample_shape_inference.hpp``: 4-D data and grid, the grid's last dim 2; the output
    [batch, channels, grid H, grid W], the batch merged from both inputs."""
    data, grid = node.input(0), node.input(1)
    if data is not None and len(data) != 4:
        raise ShapeError("The supported shape of the input data tensor is 4D.")
    if grid is not None and len(grid) != 4:
        raise ShapeError("The supported shape of the grid tensor is 4D.")
    out = [Dim.dynamic() for _ in range(4)]
    if grid is not None:
        if not grid[3].compatible(Dim.of(2)):
            raise ShapeError("The last dimension of grid tensor's shape has to be equal to 2.")
        out[0], out[2], out[3] = grid[0], grid[1], grid[2]
        if data is not None:
            out[0] = merge_checked(grid[0], data[0], "The batch dimension in the input data tensor's shape doesn't "
                                                     "match the batch dimension in the grid tensor's shape.")
            out[1] = data[1]
    elif data is not None:
        out[0], out[1] = data[0], data[1]
    return [out]


def _two(node: Node, name: str) -> list[int]:
    values = node.ints(name)
    if len(values) < 2:  # an attribute missing is empty
        raise ShapeError(f"Col2Im reads 2 {name} of the {len(values)} given: read_model reads past their end "
                         "(undefined behaviour), where it crashes or refuses the layer")
    return values


type_infer("GridSample", versions=(9,))(data_type_with(
    (1, REAL, "The element type of the grid input tensor must be a floating point type.")))


@type_infer("Col2Im", versions=(15,))
def _col2im_types(node: Node) -> list[str | None]:
    message = ("The element types of the output_size and kernel_size tensors must match and be of i32 or i64 type. "
               "Got: {} and {}")
    sizes = (in_type(node, 1), in_type(node, 2))
    if None not in sizes and (sizes[0] != sizes[1] or sizes[0] not in INDEX_TYPES):
        raise ShapeError(message.format(*sizes))
    return [in_type(node, 0)]


@shape_infer("Col2Im", versions=(15,))
def _col2im(node: Node) -> list[Shape]:
    """``col2im_shape_inference.hpp``: data [N, C*kH*kW, L] or [C*kH*kW, L], output_size and kernel_size of shape
    [2]; the output [N, C, H, W] with C from the kernel's values and H, W the output size's, L checked against the
    number of blocks the attributes give (in size_t arithmetic, as OpenVINO computes it)."""
    data, size_shape, kernel_shape = node.input(0), node.input(1), node.input(2)
    if data is not None and len(data) not in (2, 3):
        raise ShapeError(f"input data must be an unbatched 2D or a batched 3D input. Got: {format_shape(data)}")
    two = [Dim.of(2)]
    if size_shape is not None and (size_shape != two or not _fully_static(size_shape)):
        raise ShapeError(f"output_size must be a 1D input of shape [2]. Got: {format_shape(size_shape)}")
    if kernel_shape is not None and (kernel_shape != two or not _fully_static(kernel_shape)):
        raise ShapeError("kernel_size must be a 1D input of shape [2].")
    if data is None:
        return [None]
    batched = len(data) == 3
    out = [Dim.dynamic() for _ in range(4 if batched else 3)]
    idx = 0
    if batched:
        out[0] = data[0]
        idx = 1
    channels = data[1 if batched else 0]
    kernel = node.const(2)
    if kernel is not None and channels.is_static:
        divisor = wrap(kernel[0] * kernel[1], "i64")
        if divisor == 0:
            raise Undecided("Col2Im with a kernel of no elements divides by zero")
        quotient = trunc_div(channels.lo, divisor)
        out[idx] = Dim.of(quotient)
        if channels.lo - quotient * divisor:
            raise ShapeError("First non-batch dimension is not evenly divisible by Product(kernel_shape). Got: "
                             f"{channels.lo}")
    size = node.as_shape(1)
    if size is not None:
        out[idx + 1], out[idx + 2] = size[0], size[1]
        blocks = data[2 if batched else 1]
        if blocks.is_static and _fully_static(size) and kernel is not None:
            pads_begin, pads_end = _two(node, "pads_begin"), _two(node, "pads_end")
            strides, dilations = _two(node, "strides"), _two(node, "dilations")
            expected = 1
            for d in range(2):
                if strides[d] % _SIZE == 0:
                    raise Undecided("Col2Im with a stride of 0 divides by zero")
                span = (size[d].lo + pads_begin[d] + pads_end[d] - dilations[d] * (kernel[d] - 1) - 1) % _SIZE
                expected = wrap(expected * wrap(span // (strides[d] % _SIZE) + 1, "i64"), "i64")
            if blocks.lo != expected:
                raise ShapeError(f"For given inputs and parameters the total number of data blocks must be equal to "
                                 f"{expected}. Got: {blocks.lo}")
    return [out]


@shape_infer("ExtractImagePatches", versions=(3,))
def _extract_image_patches(node: Node) -> list[Shape]:
    """``extract_image_patches_shape_inference.hpp``: a 4-D input, two sizes, strides and rates (size_t; strides
    and rates not 0), a valid or same padding; the output [N, C*sizes, rows, cols], each spatial dim
    ``ceil_div(d - rate*(size-1), stride)`` (valid) or ``ceil_div(d, stride)`` (same), in ``Dimension``
    arithmetic."""
    data = node.input(0)
    if data is not None and len(data) != 4:
        raise ShapeError("input tensor must be 4D tensor.")
    sizes, strides, rates = ([v % _SIZE for v in node.ints(name)] for name in ("sizes", "strides", "rates"))
    if len(sizes) != 2:
        raise ShapeError("Attribute sizes should be in [size_rows, size_cols] format.")
    if len(strides) != 2:
        raise ShapeError("Attribute strides should be in [stride_rows, stride_cols] format.")
    if 0 in strides:
        raise ShapeError("Attribute strides should be strictly greater than zeros in values.")
    if len(rates) != 2:
        raise ShapeError("Attribute rates should be in [rate_rows, rate_cols] format.")
    if 0 in rates:
        raise ShapeError("Attribute rates should be strictly greater than zeros in values.")
    pad = node.lower("auto_pad")
    if pad not in ("valid", "same_lower", "same_upper"):
        raise ShapeError("Attribute padding should be in either valid or same_lower or same_upper.")
    if data is None:
        return [[Dim.dynamic() for _ in range(4)]]
    if any(v > INF for v in (*sizes, *strides, *rates, sizes[0] * sizes[1])) or (0 in sizes and pad == "valid"):
        raise Undecided("ExtractImagePatches with attributes beyond int64 (a negative size_t)")
    out = [data[0], data[1] * Dim.of(sizes[0] * sizes[1])]
    for d, size, stride, rate in zip(data[2:], sizes, strides, rates):
        if pad == "valid":
            reach = rate * (size - 1)
            if reach > INF:
                raise Undecided("ExtractImagePatches with a patch reach beyond int64")
            d = sub(d, Dim.of(reach))
        out.append(ceil_div(d, stride))
    return [out]


# -- colour conversions -------------------------------------------------------------------------------
def _colour(node: Node, y_rank: str, y_channels: str, single: str,
            planes: Callable[[Node], tuple[Shape, bool, str]]) -> Shape:
    """Both colour units: Y [N, H, W, 1]; one plane [N, H*3/2, W, 1] (``single`` where H*2/3 is empty), else the
    chroma planes (``planes``: their shape [N, H/2, W/2, C], whether they agree among themselves, and the message
    where they do not or do not merge with Y); the output [N, H, W, 3], H and W even (``dim::is_divisible``)."""
    y = node.input(0)
    if y is not None and len(y) != 4:
        raise ShapeError(y_rank)
    if y is not None and not y[3].compatible(Dim.of(1)):
        raise ShapeError(y_channels)
    out = [Dim.dynamic() for _ in range(4)] if y is None else list(y)
    if len(node.inputs) == 1:
        out[1] = div(out[1] * Dim.of(2), 3)
        if out[1].is_empty:
            raise ShapeError(single)
    else:
        uv, consistent, message = planes(node)
        if uv is not None:
            out[3] = uv[3]
            uv = [uv[0], uv[1] * Dim.of(2), uv[2] * Dim.of(2), uv[3]]
        ok, merged = merge_into(out, uv)
        if not (consistent and ok):
            raise ShapeError(message)
        out = list(merged)  # type: ignore[arg-type]
    out[3] = Dim.of(3)
    if div(out[1], 2).is_empty:
        raise ShapeError("Image height must be even")
    if div(out[2], 2).is_empty:
        raise ShapeError("Image width must be even")
    return out


def _uv_plane(node: Node) -> tuple[Shape, bool, str]:
    uv = node.input(1)
    if uv is not None and (len(uv) != 4 or not uv[3].compatible(Dim.of(2))):
        raise ShapeError("UV input number of channels should be equal to 2")
    return uv, True, "Y shape is inconsistent with UV"


def _u_v_planes(node: Node) -> tuple[Shape, bool, str]:
    consistent, uv = merge_into(node.input(1), node.input(2))
    if not consistent:
        uv = node.input(1)
    if uv is not None and (len(uv) != 4 or not uv[3].compatible(Dim.of(1))):
        raise ShapeError("U, V inputs number of channels should be equal to 1")
    return uv, consistent, "Y shape is inconsistent with U and V"


@shape_infer("NV12toRGB", "NV12toBGR", versions=(8,))
def _nv12(node: Node) -> list[Shape]:
    """``nv12_shape_inference.hpp``: Y and UV [N, H/2, W/2, 2]."""
    return [_colour(node, "Y(UV) input shall have 4 dimensions (N, H, W,C)",
                    "YUV input number of channels should be equal to 1", "Image height shall be divisible by 3",
                    _uv_plane)]


@shape_infer("I420toRGB", "I420toBGR", versions=(8,))
def _i420(node: Node) -> list[Shape]:
    """``i420_shape_inference.hpp``: Y, U and V [N, H/2, W/2, 1] (U and V merged)."""
    return [_colour(node, "Y input shall have 4 dimensions (N, H, W, C)",
                    "Y input number of channels should be equal to 1", "I420 image height shall be divisible by 3",
                    _u_v_planes)]


@shape_infer("RGBtoNV12", "BGRtoNV12", versions=(17,))
def _to_nv12(node: Node) -> list[Shape]:
    """``convert_color_to_nv12_shape_inference.hpp``: one [N, H, W, 3] image, H and W even (``dim::is_divisible``);
    one plane [N, H * 3 / 2, W, 1] (``single_plane``), else Y [N, H, W, 1] and UV [N, H / 2, W / 2, 2]."""
    rgb, single = node.input(0), node.flag("single_plane")
    if rgb is not None and len(rgb) != 4:
        raise ShapeError("RGB/BGR input shall have 4 dimensions (N, H, W, C)")
    if rgb is None:
        y = [Dim.dynamic() for _ in range(3)] + [Dim.of(1)]
        return [y] if single else [y, y[:3] + [Dim.of(2)]]
    if not rgb[3].compatible(Dim.of(3)):
        raise ShapeError("RGB/BGR input number of channels should be equal to 3")
    if div(rgb[1], 2).is_empty:
        raise ShapeError("Image height must be even")
    if div(rgb[2], 2).is_empty:
        raise ShapeError("Image width must be even")
    if single:
        height = div(rgb[1] * Dim.of(3), 2)
        if height.is_empty:
            raise ShapeError("Image height computation failed")
        return [[rgb[0], height, rgb[2], Dim.of(1)]]
    return [[rgb[0], rgb[1], rgb[2], Dim.of(1)], [rgb[0], div(rgb[1], 2), div(rgb[2], 2), Dim.of(2)]]


@type_infer("RGBtoNV12", "BGRtoNV12", versions=(17,))
def _to_nv12_types(node: Node) -> list[str | None]:
    """``ConvertColorToNV12Base::validate_and_infer_types``: a u8, bf16, f16, f32 or f64 image (measured: the f8 and
    f4 types are refused, unlike NV12toRGB's); every plane of its type."""
    t = in_type(node, 0)
    if t is not None and t not in ("u8", E.DYNAMIC, "bf16", "f16", "f32", "f64"):
        raise ShapeError(f"Input type shall have u8 or floating-point precision, got {t}")
    return [t] * node.n_outputs


# -- Fourier transforms --------------------------------------------------------------------------------
@type_infer("NV12toRGB", "NV12toBGR", "I420toRGB", "I420toBGR", versions=(8,))
def _yuv_types(node: Node) -> list[str | None]:
    """``convert_color_nv12_base.cpp``, ``convert_color_i420_base.cpp``: the planes of one type, u8 or real."""
    n = len(node.types)
    if n > 1:
        planes = "Y, UV" if node.type.lower().startswith("nv12") else "Y, U, V"
        t = merged_types(node, tuple(range(n)), f"{planes} inputs shall have compatible types, got " + "{}" * n)[0]
    else:
        t = in_type(node, 0)
    if t is not None and t != E.DYNAMIC and t != "u8" and not E.is_real(t):
        raise ShapeError(f"Input type shall have u8 or floating-point precision, got {t}")
    return [t]


@shape_infer("DFT", "IDFT", versions=(7,))
def _dft(node: Node) -> list[Shape]:
    """``fft_base_shape_inference.hpp`` with ``fft_common_validation.hpp`` (complex input): data of rank >= 2
    with a last dim of 2, 1-D axes (fewer than the rank; constant ones within rank - 1, unique), a 1-D
    signal_size as long as the axes; the output the data shape, the axes' dims from the signal size's bounds
    (-1 keeps the dim; unknown axes make every dim but the last dynamic)."""
    data = node.input(0)
    signal = len(node.inputs) == 3
    axes = fft_validation(node, complex_input=True)
    if not signal or data is None:
        return [data]
    out = list(data)
    if axes is None:
        return [[Dim.dynamic() for _ in data[:-1]] + [data[-1]]]
    bounds = node.bounds(2)
    if bounds is None:
        for a in axes:
            out[a] = Dim.dynamic()
        return [out]
    if len(bounds) < len(axes):
        raise Undecided("DFT with fewer signal sizes than axes reads past them")
    for a, (lo, hi) in zip(axes, bounds):
        if (lo, hi) != (-1, -1):
            out[a] = Dim(lo, hi)
    return [out]


# -- generators and lookups ----------------------------------------------------------------------------
_EYE_NAMES = ("'num_rows'", "'num_columns'", "'diagonal_index'", "'batch_shape'")


@shape_infer("Eye", versions=(9,))
def _eye(node: Node) -> list[Shape]:
    """``eye_shape_inference.hpp``: num_rows, num_columns and diagonal_index scalars or 1-D of one element, a 1-D
    batch_shape; the output the batch shape's values (a dynamic rank where its length is unknown), then the rows
    and columns (non-negative)."""
    for i in range(3):
        s = node.input(i)
        if _fully_static(s):
            if len(s) > 1:  # type: ignore[arg-type]
                raise ShapeError(f"{_EYE_NAMES[i]} value must be a scalar or 1D tensor.")
            if len(s) == 1 and s[0].lo != 1:  # type: ignore[index]
                raise ShapeError(f"{_EYE_NAMES[i]} value input should have 1 element.")
    out: list[Dim] = []
    if len(node.inputs) == 4:
        batch = node.input(3)
        if batch is not None and len(batch) != 1:
            raise ShapeError(f"{_EYE_NAMES[3]} input must be a 1D tensor.")
        if not _fully_static(batch):
            return [None]
        values = node.as_shape(3)
        if values is not None:
            if batch[0].lo != len(values):  # type: ignore[index]
                raise ShapeError("Check 'static_cast<int64_t>(batch_shape[0].get_length()) == "
                                 "static_cast<int64_t>(batch_as_shape->rank().get_length())' failed")
            out = list(values)
        else:
            out = [Dim.dynamic() for _ in range(batch[0].lo)]  # type: ignore[index]
    for i in range(2):
        const = node.const(i)
        if const is not None:
            for v in const:
                if v < 0:
                    raise ShapeError(f"Value {v} not in range [0:9223372036854775807]")
        dims = node.as_shape(i)
        if dims is None:
            out.append(Dim.dynamic())
            continue
        if len(dims) != 1:
            raise ShapeError(f"{_EYE_NAMES[i]} value must be a scalar or 1D tensor. Got: {len(dims)}")
        out.append(dims[0])
    return [out]


@type_infer("Eye")
def _eye_types(node: Node) -> list[str | None]:
    check_types(node, *((i, IS_INDEX, f"Type of the '{name}' should be int32 or int64. Got: {{}}", STRICT)
                        for i, name in enumerate(("num_rows", "num_columns", "diagonal_index", "batch_shape"))))
    return [attr_type(node, "output_type", E.DYNAMIC)]


@shape_infer("SearchSorted", versions=(15,))
def _search_sorted(node: Node) -> list[Shape]:
    """``search_sorted_shape_inference.hpp``: a 1-D (or dynamic-rank) sorted sequence gives the values' shape;
    otherwise the sequence is no scalar, the values of its rank with every dim but the last merged with it (the
    sequence's shape with its last dim dynamic where the values' rank is unknown)."""
    seq, values = node.input(0), node.input(1)
    if seq is None or len(seq) == 1:
        return [values]
    if not seq:
        raise ShapeError("The sorted sequence input cannot be a scalar.")
    if values is None:
        return [list(seq[:-1]) + [Dim.dynamic()]]
    if len(seq) != len(values):
        raise ShapeError("If the shape of sorted sequence is not 1D, the ranks of the inputs have to be compatible.")
    out = list(values)
    for i in range(len(seq) - 1):
        out[i] = merge_checked(values[i], seq[i], "All dimensions but the last one have to be compatible.")
    return [out]


@type_infer("SearchSorted")
def _search_sorted_types(node: Node) -> list[str | None]:
    merged_types(node, (0, 1), "Sorted sequence and values must have the same element type.")
    return [type_one_of(attr_type(node, "output_type", "i64"), INDEX_TYPES, "The output type must be i32 or i64.")]
