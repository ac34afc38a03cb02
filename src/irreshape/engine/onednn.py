"""oneDNN Graph StaticReshape-1 / DynamicReshape-1 shape inference.

Same arithmetic as OpenVINO's Reshape-1, with oneDNN's stricter rules (seeds 002/004 and
``infer_static_reshape_output_shape``): with special_zero=false a shape holding both 0 and -1 is
invalid, a -1 with a zero-size output product is invalid, and the volume is always checked.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..dims import Shape, format_shape, is_static_shape, volume
from .reshape import Bound, ReshapeError, reshape_v1


def onednn_reshape(input_shape: Shape, bounds: Sequence[Bound], special_zero: bool) -> Shape:
    values = [b.lo if b.lo == b.hi else None for b in bounds]
    for i, v in enumerate(values):
        if v is not None and v < -1:
            raise ReshapeError("invalid-value", f"shape[{i}] = {v}: values must be no less than -1")
    if values.count(-1) > 1:
        raise ReshapeError("two-minus-one", "More than one dimension has size of -1")
    if not special_zero and 0 in values and -1 in values:
        raise ReshapeError("zero-with-minus-one",
                           "with special_zero=false the shape must not contain both 0 and -1")
    out = reshape_v1(input_shape, bounds, special_zero)
    if is_static_shape(input_shape) and is_static_shape(out):
        vin = volume(d.lo for d in input_shape)  # type: ignore[union-attr]
        vout = volume(d.lo for d in out)
        if vin != vout:
            raise ReshapeError("volume", f"output shape {format_shape(out)} ({vout} elements) is incompatible "
                               f"with input shape {format_shape(input_shape)} ({vin} elements)")
    return out
