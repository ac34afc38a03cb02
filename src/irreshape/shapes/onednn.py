"""oneDNN Graph StaticReshape-1 / DynamicReshape-1 shape inference, and the shape functions of the
ops that commonly feed a reshape in a oneDNN Graph (to fill in shapes a graph dump leaves unknown).

The reshape uses the same arithmetic as OpenVINO's Reshape-1, with oneDNN's stricter rules (seeds
002/004 and ``infer_static_reshape_output_shape``): with special_zero=false a shape holding both 0
and -1 is invalid, a -1 next to a zero-size output product is invalid, and the volume is always
checked. Pure functions on dims: no JSON here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core.dims import Dim, Shape, format_shape, is_static_shape, volume
from .dimops import broadcast_merge_into, compatible
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
    if -1 in values:
        others = [d for i, d in enumerate(out) if values[i] != -1]  # type: ignore[arg-type]
        if any(d == 0 for d in others):
            raise ReshapeError("zero-with-minus-one",
                               "cannot infer -1: the other output dimensions hold zero elements")
    if is_static_shape(input_shape) and is_static_shape(out):
        vin = volume(d.lo for d in input_shape)  # type: ignore[union-attr]
        vout = volume(d.lo for d in out)  # type: ignore[union-attr]
        if vin != vout:
            raise ReshapeError("volume", f"output shape {format_shape(out)} ({vout} elements) is incompatible "
                               f"with input shape {format_shape(input_shape)} ({vin} elements)")
    return out


def literal_output(input_shape: Shape, values: Sequence[int], special_zero: bool) -> Shape:
    """The output a shape without -1 spells out by itself (special zeros copy input dims); None otherwise."""
    if -1 in values:
        return None
    out = []
    for i, v in enumerate(values):
        if special_zero and v == 0:
            if input_shape is None or i >= len(input_shape):
                return None
            out.append(input_shape[i])
        else:
            out.append(Dim.of(v))
    return out


# -- shape functions of the ops around reshapes -------------------------------------------------

#: Output 0 has the shape of input 0 (unary elementwise, casts, (de)quantization, normalisation).
SAME_AS_INPUT = frozenset(k.lower() for k in (
    "Abs", "BiasAdd", "BatchNormInference", "Clamp", "Dequantize", "DynamicDequantize", "DynamicQuantize",
    "Elu", "Exp", "GELU", "GroupNorm", "HardSigmoid", "HardSwish", "LayerNorm", "LeakyReLU", "Log",
    "LogSoftmax", "Mish", "PReLU", "Quantize", "Reciprocal", "ReLU", "Reorder", "Round", "RMSNorm",
    "Sigmoid", "SoftMax", "SoftPlus", "Sqrt", "Square", "Tanh", "TypeCast", "Wildcard",
))
#: Output 0 is the numpy broadcast of every input.
BROADCAST = frozenset(k.lower() for k in (
    "Add", "Divide", "Maximum", "Minimum", "Multiply", "Pow", "Select", "SquaredDifference", "Subtract",
))
REDUCE = frozenset(k.lower() for k in (
    "ReduceL1", "ReduceL2", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum",
))


def flag(value: object) -> bool | None:
    """A oneDNN bool attribute (written 0/1, or true/false); None when it is neither."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return None


def _int_list(value: object) -> list[int] | None:
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value
    return None


def merge(*shapes: Shape) -> Shape:
    """The first shape of known rank, its unknown dims filled from later shapes of the same rank."""
    out: Shape = None
    for s in shapes:
        if s is None:
            continue
        if out is None:
            out = list(s)
        elif len(s) == len(out):
            out = [a if a.is_static else b for a, b in zip(out, s)]
    return out


def consensus(shapes: Sequence[Shape]) -> Shape:
    """The shape most of ``shapes`` agree on (the earliest on a tie), completed by :func:`merge`."""
    groups: dict[tuple, list] = {}
    for s in shapes:
        if s is not None:
            groups.setdefault(tuple((d.lo, d.hi) for d in s), [s, 0])[1] += 1
    if not groups:
        return None
    return merge(max(groups.values(), key=lambda g: g[1])[0], *shapes)


def broadcast(shapes: Sequence[Shape]) -> Shape:
    """The numpy broadcast of every input (``broadcast_merge_into`` in turn); None where a rank is dynamic or
    two dims clash."""
    if any(s is None for s in shapes):
        return None
    out = shapes[0]
    for s in shapes[1:]:
        ok, out = broadcast_merge_into(out, s)
        if not ok:
            return None
    return list(out)  # type: ignore[arg-type]


def matmul(a: Shape, b: Shape, transpose_a: bool, transpose_b: bool) -> Shape:
    """oneDNN's MatMul: the operands as :func:`~irreshape.shapes.ops.convolution.matmul_operands` makes
    them, the batch dims broadcast and the axis of a 1-D operand dropped again; None where a rank is dynamic,
    an operand is a scalar, the batch dims clash or the inner dims are incompatible (intervals included:
    OpenVINO's MatMul checks static inner dims only and makes clashing dynamic batch dims ``?``)."""
    if a is None or b is None or not a or not b:
        return None
    from .ops.convolution import matmul_operands  # a family the registry imports when it meets one of its ops

    a2, b2 = matmul_operands(a, b, transpose_a, transpose_b)
    ok, batch = broadcast_merge_into(a2[:-2], b2[:-2])
    if not ok or not compatible(a2[-1], b2[-2]):
        return None
    return batch + ([a2[-2]] if len(a) > 1 else []) + ([b2[-1]] if len(b) > 1 else [])  # type: ignore[operator]


def transpose(shape: Shape, order: object) -> Shape:
    perm = _int_list(order)
    if shape is None or perm is None or len(perm) != len(shape):
        return None
    perm = [p + len(shape) if p < 0 else p for p in perm]
    if sorted(perm) != list(range(len(shape))):
        return None
    return [shape[p] for p in perm]


def reduce(shape: Shape, axes: object, keep_dims: bool) -> Shape:
    ax = _int_list(axes)
    if shape is None or ax is None:
        return None
    n = len(shape)
    norm = {a + n if a < 0 else a for a in ax}
    if any(not 0 <= a < n for a in norm):
        return None
    if keep_dims:
        return [Dim.of(1) if i in norm else d for i, d in enumerate(shape)]
    return [d for i, d in enumerate(shape) if i not in norm]


def concat(shapes: Sequence[Shape], axis: object) -> Shape:
    if not shapes or any(s is None for s in shapes) or not isinstance(axis, int):
        return None
    n = len(shapes[0])  # type: ignore[arg-type]
    if n == 0 or any(len(s) != n for s in shapes) or not -n <= axis < n:  # type: ignore[arg-type]
        return None
    axis %= n
    out = list(shapes[0])  # type: ignore[arg-type]
    parts = [s[axis] for s in shapes]  # type: ignore[index]
    out[axis] = Dim.of(sum(d.lo for d in parts)) if all(d.is_static for d in parts) else Dim.dynamic()
    return out


def infer_output(kind: str, attrs: Mapping[str, object], inputs: Sequence[Shape]) -> Shape:
    """Output 0 of a oneDNN Graph op from its input shapes, or None where irreshape cannot tell."""
    k = kind.lower()
    if not inputs:
        return None
    if k in SAME_AS_INPUT:
        return inputs[0]
    if k in BROADCAST:
        return broadcast(inputs)
    if k == "matmul" and len(inputs) >= 2:
        return matmul(inputs[0], inputs[1], bool(flag(attrs.get("transpose_a"))), bool(flag(attrs.get("transpose_b"))))
    if k == "statictranspose":
        return transpose(inputs[0], attrs.get("order"))
    if k == "staticreshape":
        values = _int_list(attrs.get("shape"))
        special_zero = flag(attrs.get("special_zero"))
        if values is None or special_zero is None:
            return None
        try:
            return onednn_reshape(inputs[0], [Bound.value(v) for v in values], special_zero)
        except ReshapeError:
            return None
    if k == "dynamicreshape" and len(inputs) >= 2:
        n = inputs[1]
        return [Dim.dynamic() for _ in range(n[0].lo)] if n is not None and len(n) == 1 and n[0].is_static else None
    if k in REDUCE:
        return reduce(inputs[0], attrs.get("axes"), bool(flag(attrs.get("keep_dims"))))
    if k == "concat":
        return concat(inputs, attrs.get("axis"))
    return None
