"""Shape functions of the real Fourier transforms and the short-time ones: what ``torch.fft.rfft``/``irfft`` and
``torch.stft``/``istft`` export to.

Ops: RDFT and IRDFT (opset9), STFT (opset15), ISTFT (opset16); and the validation every FFT op shares
(``fft_common_validation.hpp``), which DFT and IDFT (:mod:`.image`) use as well.

Each follows the OpenVINO 2026.4.1 shape-inference unit named in its docstring
(``src/core/shape_inference/include/<unit>.hpp``), with OpenVINO's messages where it rejects the layer.
"""

from __future__ import annotations

from ...core.dims import Dim, Shape
from ..dimops import add, floor_div, length, normalize_axis, sub
from ..node import Node, ShapeError, Undecided, shape_infer, type_infer
from ..typerule import IS_INDEX, REAL, check_types, data_type_with, merged_type


def _static(shape: Shape) -> bool:
    return shape is not None and all(d.is_static for d in shape)


def fft_validation(node: Node, complex_input: bool) -> list[int] | None:
    """``fft_common_validation::shape_validation``: the data's rank (>= 2 with a last dim of 2 for a complex
    input, >= 1 for a real one) against the number of axes, the axes 1-D and unique once normalised (within the
    rank, less the last dim for a complex input), the signal size 1-D and as long as the axes. The axes, normalised,
    where they are constant; else None."""
    data, axes_shape = node.input(0), node.input(1)
    axes = node.const(1)
    if data is not None:
        rank = len(data)
        least = 2 if complex_input else 1
        if rank < least:
            raise ShapeError(f"The input rank must be greater or equal to {least}")
        if complex_input and not data[-1].compatible(Dim.of(2)):
            raise ShapeError("The last dimension of input data must be 2.")
        if _static(axes_shape):
            if not axes_shape:
                raise ShapeError("Accessing out-of-range dimension")
            if complex_input and rank < axes_shape[0].lo + 1:  # type: ignore[index]
                raise ShapeError("The input rank must be greater than number of axes.")
            if not complex_input and rank < axes_shape[0].lo:  # type: ignore[index]
                raise ShapeError("The input rank must be greater than or equal to the number of axes. ")
        if axes is not None and axes_shape is not None:
            axes = [normalize_axis(a, rank - 1 if complex_input else rank) for a in axes]
            if len(set(axes)) != len(axes):
                raise ShapeError("Each axis must be unique.")
    if axes_shape is not None and len(axes_shape) != 1:
        raise ShapeError("Axes input must be 1D tensor.")
    if len(node.inputs) == 3:
        size_shape = node.input(2)
        if size_shape is not None and len(size_shape) != 1:
            raise ShapeError("Signal size input must be 1D tensor.")
        if _static(axes_shape) and _static(size_shape) and axes_shape[0] != size_shape[0]:  # type: ignore[index]
            raise ShapeError("Sizes of inputs 'axes' and 'signal_size' must be equal.")
    return axes if axes_shape is not None else None


def _sized(node: Node, out: list[Dim], axes: list[int]) -> list[int] | None:
    """The signal sizes set on ``out``'s axes where they are constant (``get_input_const_data_as``; -1 keeps a dim),
    and returned; else ``out``'s last axis made dynamic and None."""
    sizes = node.const(2) if node.input(2) is not None else None
    if sizes is None:
        out[axes[-1]] = Dim.dynamic()
        return None
    if len(sizes) < len(axes):
        raise Undecided("a signal size shorter than the axes reads past it")
    for a, s in zip(axes, sizes):
        if s != -1:
            out[a] = Dim.of(s)
    return sizes


def _half(d: Dim) -> Dim:
    """``get_rdft_output_dimension``: each length bound ``b`` as ``b / 2 + 1`` where it is positive."""
    def one(b: int) -> int:
        return b if b <= 0 else b // 2 + 1
    return Dim(one(length(d.lo)), one(length(d.hi)))


def _last(axes: list[int]) -> int:
    if not axes:
        raise Undecided("an FFT of no axes reads its last axis past them")
    return axes[-1]


@shape_infer("RDFT", versions=(9,))
def _rdft(node: Node) -> list[Shape]:
    """``rdft_shape_inference.hpp``: the data's shape and a last dim of 2; the last axis halved (``n / 2 + 1``) after
    the constant signal sizes (-1 keeps a dim); unknown axes make every dim but the new last one dynamic, an unknown
    signal size the last axis."""
    axes = fft_validation(node, complex_input=False)
    data = node.input(0)
    if data is None:
        return [None]
    out = list(data) + [Dim.of(2)]
    if axes is None:
        return [[Dim.dynamic() for _ in data] + [Dim.of(2)]]
    last = _last(axes)
    if len(node.inputs) == 2:
        out[last] = _half(data[last])
        return [out]
    if _sized(node, out, axes) is not None:
        out[last] = _half(out[last])
    return [out]


def _irdft_last(d: Dim) -> Dim:
    return Dim.of(2) * sub(d, Dim.of(1))


@shape_infer("IRDFT", versions=(9,))
def _irdft(node: Node) -> list[Shape]:
    """``irdft_shape_inference.hpp``: the data's shape less its last dim (2); the constant signal sizes on their
    axes (-1 keeps a dim), the last axis ``2 * (n - 1)`` where its size is -1 or there is none; unknown axes make
    every dim dynamic, an unknown signal size the last axis."""
    axes = fft_validation(node, complex_input=True)
    data = node.input(0)
    if data is None:
        return [None]
    out = list(data[:-1])
    if axes is None:
        return [[Dim.dynamic() for _ in out]]
    last = _last(axes)
    if len(node.inputs) == 2:
        out[last] = _irdft_last(data[last])
        return [out]
    sizes = _sized(node, out, axes)
    if sizes is not None and sizes[len(axes) - 1] == -1:
        out[last] = _irdft_last(data[last])
    return [out]


def _scalar_value(node: Node, i: int) -> int | None:
    v = node.const(i)
    if v is not None and not v:
        raise Undecided(f"input {i} holds no value")
    return None if v is None else v[0]


def _stft_inputs(node: Node) -> None:
    window, size, step = node.input(1), node.input(2), node.input(3)
    if window is not None and len(window) != 1:
        raise ShapeError("The shape of window must be 1D [window_size].")
    if size is not None and len(size) != 0:
        raise ShapeError("The shape of frame_size must be a scalar.")
    if step is not None and len(step) != 0:
        raise ShapeError("The shape of frame_step must be a scalar.")


def _window_fits(window: Shape, frame_size: int) -> bool:
    return not _static(window) or 0 < window[0].lo <= frame_size  # type: ignore[index]


@shape_infer("STFT", versions=(15,))
def _stft(node: Node) -> list[Shape]:
    """``stft_shape_inference.hpp``: signal [(batch,) length], a 1-D window, scalar frame size and step; with both
    constant, [(batch,) frames, size / 2 + 1, 2] (frames and bins swapped with ``transpose_frames``), frames
    ``(length - size) / step + 1``; else [(batch,) ?, ?, 2]."""
    signal = node.input(0)
    if signal is not None and len(signal) not in (1, 2):
        raise ShapeError("The shape of signal must be 1D [signal_size] or 2D [batch, signal_size].")
    _stft_inputs(node)
    if signal is None:
        return [None]
    size, step = _scalar_value(node, 2), _scalar_value(node, 3)
    batch = list(signal[:-1])
    if size is None or step is None:
        return [batch + [Dim.dynamic(), Dim.dynamic(), Dim.of(2)]]
    length = signal[-1]
    if not (0 < size and size <= (length.lo if length.is_static else length.hi)):
        raise ShapeError(f"Provided frame size is {size} but must be in range [1, {length}].")
    if step <= 0:
        raise ShapeError(f"Provided frame step is {step} but must be greater than zero.")
    if not _window_fits(node.input(1), size):
        raise ShapeError(f"Window input dimension must be in range [1, {size}].")
    frames = add(floor_div(sub(length, Dim.of(size)), step), Dim.of(1))
    bins = Dim.of(size // 2 + 1)
    return [batch + ([bins, frames] if node.flag("transpose_frames") else [frames, bins]) + [Dim.of(2)]]


@shape_infer("ISTFT", versions=(16,))
def _istft(node: Node) -> list[Shape]:
    """``istft_shape_inference.hpp``: data [(batch,) bins, frames, 2], a 1-D window, scalar frame size and step,
    an optional signal length (a scalar or one element); the output [(batch,) length]: the signal length's value,
    else ``(frames - 1) * step + size`` (less ``size`` rounded down to even with ``center``)."""
    data = node.input(0)
    if data is not None and len(data) not in (3, 4):
        raise ShapeError("The shape of data must be 3D or 4D.")
    _stft_inputs(node)
    size, step = _scalar_value(node, 2), _scalar_value(node, 3)
    if size is not None:
        if size <= 0:
            raise ShapeError(f"Provided frame size must be greater than zero, but got: {size}")
        if not _window_fits(node.input(1), size):
            raise ShapeError(f"Window input dimension must be in range [1, {size}].")
        if _static(data) and not data[-3].compatible(Dim.of(size // 2 + 1)):  # type: ignore[index]
            raise ShapeError("The dimension at data_shape[-3] must be equal to: (frame_size // 2 + 1) ")
    if step is not None and step <= 0:
        raise ShapeError(f"Provided frame step must be greater than zero, but got: {step}")
    if data is None:
        return [None]
    out = Dim.dynamic()
    if len(node.inputs) == 5:
        length_shape = node.input(4)
        if length_shape is not None and not (len(length_shape) == 0 or
                                             (len(length_shape) == 1 and length_shape[0].contains(1))):
            raise ShapeError("The shape of 'signal_length' input must be a scalar or single element 1D tensor.")
        given = node.as_shape(4)
        if given is not None:
            if not given:
                raise Undecided("an empty signal length reads past it")
            out = given[0]
    elif size is not None and step is not None:
        frames = data[1 if len(data) == 3 else 2]
        out = add(sub(frames, Dim.of(1)) * Dim.of(step), Dim.of(size))
        if node.flag("center"):
            out = sub(out, Dim.of(size & ~1))
    return [[out] if len(data) == 3 else [data[0], out]]



# -- their types: ``fft_base.cpp`` (DFT, IDFT, RDFT, IRDFT), ``stft.cpp``, ``istft.cpp`` -------------------------
_FFT_REAL = ("f32", "f16", "bf16")
type_infer("DFT", "IDFT", "RDFT", "IRDFT")(data_type_with(
    (0, lambda t: t in _FFT_REAL, "FFT op input element type must be f32, f16, or bf16"),
    (1, IS_INDEX, "FFT op axes element type must be i32 or i64"),
    (2, IS_INDEX, "FFT op signal_size element type must be i32 or i64")))


def _stft_types(data: str):
    """STFT's and ISTFT's rule: ``data`` and the window of one real type (the output's), the sizes i32 or i64."""
    def rule(node: Node) -> list[str | None]:
        check_types(node, (0, REAL, f"Expected floating point type of the '{data}' input."))
        out = merged_type(node, 0, 1, f"Expected floating point type of the 'window' input, matching the type of "
                                      f"`{data}` input.")
        check_types(node, (1, REAL, f"Expected floating point type of the 'window' input, matching the type of "
                                    f"`{data}` input."),
                    *((i, IS_INDEX, f"Expected i32 or i64 type of the input at port: {i}") for i in range(2, 5)))
        return [out]
    return rule


type_infer("STFT", versions=(15,))(_stft_types("signal"))
type_infer("ISTFT", versions=(16,))(_stft_types("data"))
