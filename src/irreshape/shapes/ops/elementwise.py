"""Elementwise ops: the output keeps the data input's shape, or the broadcast of the input shapes.

Shape functions, as openvino 2026.4.1 infers them:

* unary ops, the input shape passed through: Abs, Acos, Acosh, Asin, Asinh, Atan, Atanh, BitwiseNot,
  Ceiling, Convert, Cos, Cosh, Elu, Erf, Exp, Floor, Gelu (v0, v7), HSigmoid, HSwish, IsFinite, IsInf,
  IsNaN, Log, LogicalNot, Mish, Negative, ReLU, Round, Sigmoid, Sign, Sin, Sinh, SoftPlus, SoftSign,
  Sqrt, Tan, Tanh, ErfInv, Identity; and with their checks Clamp, GRN, SoftMax (v1, v8), LogSoftmax, Inverse;
* BatchNormInference (v0, v5): the data shape with its channels merged with gamma, beta, mean and variance;
* ops passing their data input (port 0) through while they check the others: ConvertLike, CumSum,
  PReLU, Selu, GroupNormalization, Swish, HardSigmoid, MVN (v0, v6), NormalizeL2, LRN, Roll, FakeQuantize;
* ops broadcasting their inputs under ``auto_broadcast`` (numpy, none, pdpd): Select and the binary
  elementwise ops Add, Subtract, Multiply, Divide, Power, Maximum, Minimum, SquaredDifference, FloorMod,
  Mod, Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual, LogicalAnd, LogicalOr, LogicalXor,
  BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseLeftShift, BitwiseRightShift, Xor (v0).

Value evaluators (the bounds of shape subgraphs, from :mod:`irreshape.shapes.values`): Add, Subtract,
Multiply, Maximum, Minimum, Power, FloorMod, Divide, Mod, Floor, Ceiling, Convert.

Type rules (:func:`~irreshape.shapes.node.type_infer`, beside each op's shape function): the element-type checks of each op's
``validate_and_infer_types`` (a boolean Add, an integer SoftSign, inputs that do not merge) and its outputs'
types (comparisons and logical ops boolean, Convert's ``destination_type``, ConvertPromoteTypes' promotion).
"""

from __future__ import annotations

from collections.abc import Callable

from ...core import etypes as E
from ...core.dims import Dim, Shape, format_shape
from .. import values as V
from ..dimops import (broadcast_merge, broadcast_merge_into, merge_checked, merge_into, normalize_axis,
                      shapes_compatible)
from ..node import Node, ShapeError, Undecided, passthrough, shape_infer, type_infer, value_eval
from ..typerule import (INTEGRAL, IS_INDEX, NUMERIC, REAL, STRICT, attr_type, check_types, data_type_with, equal_types,
                        in_type, merge_rule, merged_type, merged_types, same_type)

_INCONSISTENT = "Argument shapes are inconsistent."

# Older IRs may name a newer opset for an op that did not change in it; OpenVINO's reader then takes the
# op's version in that opset (SoftMax in opset3 is Softmax-1, MVN in opset5 is MVN-0).


# -- broadcasting (PartialShape::merge_into / broadcast_merge_into) ------------------------------------
def _auto_broadcast(node: Node) -> tuple[str, int]:
    """The ``AutoBroadcastSpec`` of the layer: its type (``explicit`` is ``none``; numpy without the
    attribute) and, for pdpd, its axis (``auto_broadcast.auto_broadcast_axis``, 0 without it)."""
    text = node.attr("auto_broadcast")
    kind = "numpy" if text is None else text.lower()
    kind = "none" if kind == "explicit" else kind
    if kind not in ("none", "numpy", "pdpd"):
        raise ShapeError(f'"{text}" is not a member of enum ov::op::AutoBroadcastType')
    return kind, node.int("auto_broadcast.auto_broadcast_axis", 0) if kind == "pdpd" else 0


def _broadcast(dst: Shape, src: Shape, kind: str, axis: int, message: str) -> Shape:
    """``src`` merged into ``dst`` under an auto_broadcast ``kind``: ``merge_into`` for none,
    ``PartialShape::broadcast_merge_into`` for numpy (right-aligned, both ways) and pdpd (``src`` onto
    ``dst`` from ``axis``, -1 aligning it right; a static ``src`` dim may not exceed a static ``dst`` one).
    ShapeError(``message``) where OpenVINO's merge fails."""
    if kind == "none":
        ok, out = merge_into(dst, src)
    elif dst is None or src is None:
        return None
    elif kind == "numpy":
        ok, out = broadcast_merge_into(dst, src)
    else:
        start = len(dst) - len(src) if axis == -1 else axis
        if len(src) > len(dst) or axis < -1 or start + len(src) > len(dst):
            raise ShapeError(message)
        window = dst[start:start + len(src)]
        if any(a.is_static and b.is_static and b.lo > a.lo for a, b in zip(window, src)):
            raise ShapeError(message)
        merged = [broadcast_merge(a, b) for a, b in zip(window, src)]
        ok, out = None not in merged, dst[:start] + merged + dst[start + len(src):]  # type: ignore[operator]
    if not ok:
        raise ShapeError(message)
    return out


@shape_infer("Add", "Subtract", "Multiply", "Divide", "Power", "Maximum", "Minimum", "SquaredDifference",
             "FloorMod", "Mod", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
             "LogicalAnd", "LogicalOr", "LogicalXor", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
             "BitwiseLeftShift", "BitwiseRightShift", "Xor")
def _binary(node: Node) -> list[Shape]:
    """``eltwise_shape_infer`` (``eltwise_shape_inference.hpp``): input 1 merged into input 0."""
    kind, axis = _auto_broadcast(node)
    return [_broadcast(node.input(0), node.input(1), kind, axis, _INCONSISTENT)]


@type_infer("Add", "Subtract", "Multiply", "Divide", "Power", "Maximum", "Minimum", "SquaredDifference", "Mod",
            "FloorMod")
def _arithmetic_types(node: Node) -> list[str | None]:
    t = same_type(node)
    if t == E.BOOLEAN or t == "string":
        raise ShapeError(f"This operation does not support inputs with element type: {t}")
    return [t]


@type_infer("Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual")
def _comparison_types(node: Node) -> list[str | None]:
    same_type(node)
    return [E.BOOLEAN]


@type_infer("LogicalAnd", "LogicalOr", "LogicalXor", "Xor")
def _logical_types(node: Node) -> list[str | None]:
    t = same_type(node)
    if t is not None and t not in (E.BOOLEAN, E.DYNAMIC):
        raise ShapeError(f"Operands for logical operators must have boolean element type but have element type {t}.")
    return [E.BOOLEAN]


@type_infer("BitwiseAnd", "BitwiseOr", "BitwiseXor")
def _bitwise_types(node: Node) -> list[str | None]:
    t = same_type(node)
    if t is not None and E.is_real(t):
        raise ShapeError("The element type of the input tensor must be integer or boolean.")
    return [t]


@type_infer("BitwiseLeftShift", "BitwiseRightShift")
def _shift_types(node: Node) -> list[str | None]:
    t = same_type(node)
    if t is not None and not E.is_integral_number(t):
        raise ShapeError("The element type of the input tensor must be integer number.")
    return [t]


@shape_infer("Select")
def _select(node: Node) -> list[Shape]:
    """``v1::shape_infer`` of Select (``select_shape_inference.hpp``): pdpd broadcasts 'else', then
    'cond', onto 'then'; numpy and none merge 'then', then 'cond', into 'else'."""
    kind, axis = _auto_broadcast(node)
    cond, then, other = node.input(0), node.input(1), node.input(2)
    if kind == "pdpd":
        out = _broadcast(then, other, kind, axis, "'Else' tensor shape is not broadcastable.")
        return [_broadcast(out, cond, kind, axis, "'Cond' tensor shape is not broadcastable.")]
    return [_broadcast(_broadcast(other, then, kind, axis, _INCONSISTENT), cond, kind, axis, _INCONSISTENT)]


@type_infer("Select")
def _select_types(node: Node) -> list[str | None]:
    c = in_type(node, 0)
    if c is not None and c not in (E.BOOLEAN, E.DYNAMIC):
        raise ShapeError(f"Argument 0 must have boolean element type (element type: {c}).")
    return [merged_type(node, 1, 2, "Argument 1 and 2 element types must match.")]


@shape_infer("FakeQuantize")
def _fake_quantize(node: Node) -> list[Shape]:
    """``FakeQuantize::validate_and_infer_types``: the four limits merged in turn into the data shape
    under auto_broadcast (each checked against the merge so far), the output the data shape itself."""
    kind, axis = _auto_broadcast(node)
    merged = node.input(0)
    for i in range(1, 5):
        merged = _broadcast(merged, node.input(i), kind, axis, _INCONSISTENT)
    return [node.input(0)]


# -- unary ops and ops passing their data input through -----------------------------------------------
@shape_infer("Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "BitwiseNot", "Ceiling", "Convert",
             "Cos", "Cosh", "Elu", "Erf", "Exp", "Floor", "Gelu", "HSigmoid", "HSwish", "IsFinite", "IsInf",
             "IsNaN", "Log", "LogicalNot", "Mish", "Negative", "ReLU", "Round", "Sigmoid", "Sign", "Sin",
             "Sinh", "SoftPlus", "SoftSign", "Sqrt", "Tan", "Tanh", "ConvertLike", "CumSum", "PReLU", "Selu", "ErfInv",
             "Identity")
@shape_infer("MVN", versions=(0,))
@passthrough
def _same(node: Node) -> list[Shape]:
    """``copy_shape_infer`` / ``validate_and_infer_types`` of the op: input 0's shape, unchecked (PReLU
    does not check its slope, CumSum its axis, Selu its alpha and lambda, MVN-0 its attributes; Identity-16's
    ``identity_shape_inference.hpp``); the input count is the op unit's (MVN-0 takes one)."""
    return [node.input(0)]


@type_infer("BitwiseNot")
def _bitwise_not_types(node: Node) -> list[str | None]:
    t = in_type(node, 0)
    if t is not None and E.is_real(t):
        raise ShapeError("The element type of the input tensor must be integer or boolean.")
    return [t]


@type_infer("Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceiling", "Cos", "Cosh", "Erf", "Exp",
            "Floor", "Log", "Negative", "Relu", "Sigmoid", "Sign", "Sin", "Sinh", "Sqrt", "Tan", "Tanh", "HSwish",
            "HSigmoid")
def _unary_arithmetic_types(node: Node) -> list[str | None]:
    t = in_type(node, 0)
    if t == E.BOOLEAN or t == "string":
        raise ShapeError(f"This operation does not support input with element type: {t}")
    return [t]


def _real_only(message: str) -> Callable[[Node], list[str | None]]:
    """The rule of a one-input op on real types (the dynamic type passes): its input's type."""
    return data_type_with((0, REAL, message))


type_infer("SoftSign")(_real_only("Input element type must be float, instead got: {}"))
type_infer("SoftPlus")(_real_only("Input element type must be float. Got: {}"))
type_infer("Mish")(_real_only("Element must be of floating point type, Got: {}"))
type_infer("Gelu")(_real_only("Argument element type must be f16, bf16, f32, f64 or dynamic (got {})."))
type_infer("ErfInv")(_real_only("Input element type must be floating-point, instead got: {}"))
type_infer("Inverse")(_real_only("Expected floating point type as element type for the 'data' input."))
type_infer("Selu")(merge_rule((0, 1, 2), "Input element types do not match : {} and {} and {}"))


@type_infer("Swish")
def _swish_types(node: Node) -> list[str | None]:
    check_types(node, (0, REAL, "Swish input tensor must be floating point type({})."))
    if len(node.types) > 1:
        equal_types(node, (0, 1), "Swish inputs must have the same type but they are: {} and {}")
    return [in_type(node, 0)]


@type_infer("HardSigmoid")
def _hard_sigmoid_types(node: Node) -> list[str | None]:
    equal_types(node, (0, 1), "The element types of both alpha and beta inputs must match the data input type.")
    equal_types(node, (0, 2), "The element types of both alpha and beta inputs must match the data input type.")
    return [in_type(node, 0)]


@type_infer("IsNaN", "IsInf", "IsFinite")
def _is_class_types(node: Node) -> list[str | None]:
    t = in_type(node, 0)
    if t is not None and t != E.DYNAMIC and not E.is_real(t):
        raise ShapeError("The element type of the input tensor must be a floating point number."
                         if node.type.lower() != "isfinite" else
                         f"The element type of the input tensor must be a floating point number or dynamic (got {t}).")
    return [E.BOOLEAN]


@type_infer("Convert")
def _convert_types(node: Node) -> list[str | None]:
    return [attr_type(node, "destination_type", E.DYNAMIC)]


@type_infer("ConvertLike")
def _convert_like_types(node: Node) -> list[str | None]:
    return [in_type(node, 1)]


type_infer("CumSum")(data_type_with((1, IS_INDEX, "axis element type must be either int64_t or int32_t but got ({}).",
                                     STRICT)))


@shape_infer("ConvertPromoteTypes")
def _convert_promote_types(node: Node) -> list[Shape]:
    """``ConvertPromoteTypes::validate_and_infer_types`` (opset14): each output keeps its input's shape, unchecked
    (only the element types meet: see its type rule)."""
    return [node.input(0), node.input(1)]


_PROMOTABLE = frozenset(("dynamic", "boolean", "f16", "f32", "f64", "i4", "i8", "i16", "i32", "i64", "u1", "u4", "u8",
                         "u16", "u32", "u64", "f8e4m3", "f8e5m2", "bf16"))


@type_infer("ConvertPromoteTypes")
def _common_types(node: Node) -> list[str | None]:
    """``evaluate_common_type`` of ConvertPromoteTypes-14 (``src/core/src/op/convert_promote_types.cpp``): both
    outputs take the common type of the two inputs. Where PyTorch's scalar rule could apply (it reads whether an
    input is a static scalar, which a type rule does not see), irreshape cannot tell."""
    a, b = in_type(node, 0), in_type(node, 1)
    if a is None or b is None:
        return [None, None]
    if a not in _PROMOTABLE or b not in _PROMOTABLE:
        raise ShapeError("Check 'is_type_supported(input_0_type) && is_type_supported(input_1_type)' failed")
    unsafe = node.flag("promote_unsafe")
    common = _promoted(a, b, unsafe, node.flag("pytorch_scalar_promotion"),
                       lambda: attr_type(node, "u64_integer_promotion_target", "f32"))
    return [common, common]


@shape_infer("GroupNormalization")
def _group_normalization(node: Node) -> list[Shape]:
    """``group_normalization_shape_inference.hpp``: ``num_groups`` positive (0 where the IR has none), 1-D
    scale and bias matching the channels, which the groups divide."""
    groups = node.int("num_groups")
    if groups <= 0:
        raise ShapeError("The number of groups needs to be a positive integer value")
    data, scale, bias = node.input(0), node.input(1), node.input(2)
    if scale is not None and len(scale) != 1:
        raise ShapeError("The scale input is required to be 1D")
    if bias is not None and len(bias) != 1:
        raise ShapeError("The bias input is required to be 1D")
    if data is not None:
        if len(data) < 2:
            raise ShapeError("The input tensor is required to be at least 2D")
        channels = data[1]
        for what, s in (("scale", scale), ("bias", bias)):
            if s is not None and not channels.compatible(s[0]):
                raise ShapeError(f"The {what} input shape needs to match the channel dimension in the data input")
        if channels.is_static and groups > channels.lo:
            raise ShapeError("The number of groups must not exceed the number of channels in the input tensor")
        if channels.is_static and channels.lo % groups:
            raise ShapeError("The number of channels is required to be evenly divisible by the number of groups")
    if not shapes_compatible(scale, bias):
        raise ShapeError("The shapes of both scale and bias inputs need to match")
    return [data]


@shape_infer("BatchNormInference", versions=(0, 5))
def _batch_norm(node: Node) -> list[Shape]:
    """``batch_norm_shape_inference.hpp``: gamma, beta, mean and variance (v0: inputs 0, 1, 3, 4 around the data at
    2; v5: inputs 1-4 after the data at 0) merged into one 1-D shape whose length merges into the data's channels
    (dim 1, at least 1); the output the data shape with those channels."""
    epsilon = node.float("epsilon")
    if not epsilon >= 0:  # NaN too
        raise ShapeError(f"Attribute 'epsilon' must be non negative value. Got: {epsilon:g}")
    data_port, channel_ports = (2, (0, 1, 3, 4)) if node.version == 0 else (0, (1, 2, 3, 4))
    data = node.input(data_port)
    channel = Dim.dynamic()
    if data is not None:
        if len(data) < 2:
            raise ShapeError("Input argument must have rank of at least 2 (input argument shape: "
                             f"{format_shape(data)}).")
        channel = data[1]
    merged = node.input(channel_ports[0])
    for i in channel_ports[1:]:
        ok, merged = merge_into(merged, node.input(i))
        if not ok:
            raise ShapeError("Shapes for gamma/beta/mean/variance do not match.")
    if merged is not None and len(merged) != 1:
        raise ShapeError(f"Shape for gamma/beta/mean/variance ({format_shape(merged)}) does not have rank 1.")
    if merged is not None:
        channel = merge_checked(channel, merged[0], f"Input channel dimension ({channel}) does not match shape for "
                                                    f"gamma/beta/mean/variance ({format_shape(merged)}).")
    if channel.is_static and channel.lo < 1:
        raise ShapeError("Channel count must be at least 1.")
    return [None if data is None else [data[0], channel, *data[2:]]]


@type_infer("BatchNormInference", versions=(0,))
def _batch_norm_0_types(node: Node) -> list[str | None]:
    """v0: the data is input 2; every input of one type."""
    return [merged_types(node, (2, 0, 1, 3, 4), "Input element types do not match.")[0]]


@type_infer("BatchNormInference", versions=(5,))
def _batch_norm_5_types(node: Node) -> list[str | None]:
    return [merged_types(node, (0, 1, 2, 3, 4), "Input element types do not match.")[0]]


@shape_infer("Inverse")
def _inverse(node: Node) -> list[Shape]:
    """``inverse_shape_inference.hpp`` (v14): at least 2-D, the last two dims equal where both are static."""
    data = node.input(0)
    if data is not None:
        if len(data) < 2:
            raise ShapeError("Input must be at least a 2D matrix.")
        rows, cols = data[-2], data[-1]
        if rows.is_static and cols.is_static and rows.lo != cols.lo:
            raise ShapeError("Input must contain square matrices of the same shape.")
    return [data]


@shape_infer("Clamp")
def _clamp(node: Node) -> list[Shape]:
    """``Clamp::validate_and_infer_types``: ``min <= max`` (false for a NaN)."""
    lo, hi = node.float("min"), node.float("max")
    if not lo <= hi:
        raise ShapeError(f"Attribute 'min' must be less or equal than 'max'. Got: {lo:g} and {hi:g}")
    return [node.input(0)]


type_infer("Clamp")(data_type_with((0, NUMERIC, "Input element type must be numeric. Got: {}")))


@shape_infer("GRN")
def _grn(node: Node) -> list[Shape]:
    """``GRN::validate_and_infer_types``: a data rank of 2, 3 or 4 where it is known."""
    data = node.input(0)
    if data is not None and not 2 <= len(data) <= 4:
        raise ShapeError(f"Input tensor rank must be 2, 3 or 4 dimensional (actual input shape: {format_shape(data)}).")
    return [data]


@shape_infer("Swish")
def _swish(node: Node) -> list[Shape]:
    """``v4::Swish::validate_and_infer_types``: a beta input (optional) of rank 0 where its rank is known."""
    beta = node.rank(1) if node.has_input(1) else None
    if beta not in (None, 0):
        raise ShapeError(f"Swish input with beta must be scalar but it has rank: {beta}")
    return [node.input(0)]


@shape_infer("HardSigmoid")
def _hard_sigmoid(node: Node) -> list[Shape]:
    """``v0::HardSigmoid::validate_and_infer_types``: alpha and beta scalars where their shapes are static."""
    for i, name in ((1, "alpha"), (2, "beta")):
        s = node.input(i)
        if s and all(d.is_static for d in s):
            raise ShapeError(f"A scalar is expected for the '{name}' input. Got: {format_shape(s)}")
    return [node.input(0)]


@shape_infer("SoftMax", versions=(1,))
def _softmax_1(node: Node) -> list[Shape]:
    """``v1::Softmax::validate_and_infer_types``: the axis (a size_t: a negative one wraps to a huge
    number) below the rank, where the rank is known; 0 on a scalar (measured)."""
    data = node.input(0)
    axis = node.int("axis") % (1 << 64)
    if data is not None and axis >= max(len(data), 1):
        raise ShapeError(f"Reduction axis ({axis}) is out of bounds (argument shape: {format_shape(data)}).")
    return [data]


@shape_infer("SoftMax", "LogSoftmax")
def _softmax_8(node: Node) -> list[Shape]:
    """``v8::Softmax`` and ``v5::LogSoftmax`` ``validate_and_infer_types``: the axis within the rank
    (``validate_axis``), where the rank is known."""
    data = node.input(0)
    if data is not None:
        normalize_axis(node.int("axis"), len(data))
    return [data]


@shape_infer("MVN")
def _mvn_6(node: Node) -> list[Shape]:
    """``v6::MVN::validate_and_infer_types``: a static axes shape is 1-D, with no more elements than the
    data rank (the axes' values are not checked)."""
    data, axes = node.input(0), node.input(1)
    if axes is not None and all(d.is_static for d in axes):
        if len(axes) != 1:
            raise ShapeError(f"Expected 1D tensor for the 'axes' input. Got: {format_shape(axes)}")
        if data is not None and len(data) < axes[0].lo:
            raise ShapeError("Expected rank for the 'data' input to be higher than axes shape. "
                             f"Got: {format_shape(data)}")
    return [data]


@shape_infer("NormalizeL2")
def _normalize_l2(node: Node) -> list[Shape]:
    """``v0::NormalizeL2::validate_and_infer_types``: axes of rank 0 or 1; with a known data rank, the
    axes' values (where OpenVINO folds them to a constant) within it (``try_get_normalized_axis_set``)
    and, normalised, below it, which no axis of a scalar is."""
    data, axes_rank = node.input(0), node.rank(1)
    if axes_rank is None:
        return [data]
    if axes_rank > 1:
        raise ShapeError(f"Input axes must be scalar or have rank equal to 1 (axes rank: {axes_rank}).")
    axes = node.const(1) if data is not None else None
    if axes:
        for a in axes:
            normalize_axis(a, len(data))  # type: ignore[arg-type]
        if not data:
            raise ShapeError("Reduction axis (0) is out of bounds (argument shape: [])")
    return [data]


@shape_infer("LRN")
def _lrn(node: Node) -> list[Shape]:
    """``v0::LRN::validate_and_infer_types``: a static axes shape is 1-D with at most rank elements; with a
    known data rank, each axis (axis 1 where the axes are not constant) below the rank, compared as int64
    (so a negative axis passes)."""
    data, axes_shape = node.input(0), node.input(1)
    if axes_shape is not None and all(d.is_static for d in axes_shape):
        if len(axes_shape) != 1:
            raise ShapeError(f"Input axes must have rank equals 1 (axes_rank: {len(axes_shape)}).")
        if data is not None and axes_shape[0].lo > len(data):
            raise ShapeError("Number of elements of axes must be >= 0 and <= argument rank "
                             f"(axes_shape[0]: {axes_shape[0].lo}).")
    if data is not None:
        axes = node.const(1)
        for a in [1] if axes is None else axes:
            if a >= len(data):
                raise ShapeError(f"Reduction axis ({a}) is out of bounds (argument shape: {format_shape(data)})")
    return [data]


def _promoted(a: str, b: str, unsafe: bool, scalar_rule: bool, u64_target: Callable[[], str]) -> str:
    if E.DYNAMIC in (a, b):
        return E.DYNAMIC
    if a == b:
        return a
    if E.BOOLEAN in (a, b):
        return b if a == E.BOOLEAN else a
    bits = {t: E.TYPES[t].bits for t in (a, b)}
    if E.is_real(a) != E.is_real(b):  # floating and integer: the floating one
        real, integer = (a, b) if E.is_real(a) else (b, a)
        if not unsafe and bits[real] < 2 * bits[integer]:
            raise ShapeError("Integer input cannot be safely promoted to floating-point.")
        return real
    if scalar_rule:
        raise Undecided("ConvertPromoteTypes' PyTorch scalar rule reads whether an input is a static scalar")
    if E.is_signed(a) != E.is_signed(b):  # a signed integer wide enough for the unsigned one
        uint, sint = (bits[b], bits[a]) if E.is_signed(a) else (bits[a], bits[b])
        if uint <= 32 and (unsafe or uint * 2 <= sint):
            return {4: "i4", 8: "i8", 16: "i16", 32: "i32", 64: "i64"}[max(uint * 2, sint)]
        if not unsafe:
            raise ShapeError("Unsigned integer input cannot be safely promoted into any supported signed integer.")
        return u64_target()
    if bits[a] != bits[b]:
        return a if bits[a] >= bits[b] else b
    if unsafe and {a, b} <= {"f8e4m3", "f8e5m2"}:
        return "f16"
    if unsafe and {a, b} <= {"bf16", "f16"}:
        return "f32"
    raise ShapeError("Unsupported input element types for ConvertPromoteTypes with given attributes.")


type_infer("LRN")(data_type_with((1, INTEGRAL, "Axes input must be integral numbers, but are: {}).")))


@shape_infer("Roll")
def _roll(node: Node) -> list[Shape]:
    """``v7::shape_infer`` of Roll (``roll_shape_inference.hpp``): shift and axes of rank 0 or 1, a 1-D
    shift compatible with the axes' shape, and constant axes within the data rank."""
    data, shift, axes_shape = node.input(0), node.input(1), node.input(2)
    if shift is not None:
        if len(shift) > 1:
            raise ShapeError("Shift must be a scalar or 1D tensor.")
        if len(shift) == 1 and not shapes_compatible(shift, axes_shape):
            raise ShapeError("If shift is a 1D vector, axes must be a 1D tensor of the same size.")
    if axes_shape is not None and len(axes_shape) > 1:
        raise ShapeError("Axes must be a scalar or 1D tensor.")
    if data is not None:
        for a in node.const(2) or ():
            normalize_axis(a, len(data))
    return [data]


type_infer("Roll")(data_type_with((1, IS_INDEX, "Shift must have int32 or int64 element type."),
                                  (2, IS_INDEX, "Axes must have int32 or int64 element type.")))


# -- value evaluators ----------------------------------------------------------------------------------
@value_eval("Add", "Subtract", "Multiply", "Maximum", "Minimum", "Power", "FloorMod")
def _arithmetic_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    """``interval_bound_evaluator``: :func:`values.arithmetic`."""
    return V.arithmetic(node.type.lower(), x[0], x[1])


@value_eval("Divide")
def _divide_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.divide(x[0], x[1], node.flag("m_pythondiv"))


@value_eval("Mod")
def _mod_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.mod(x[0], x[1])


@value_eval("Floor", "Ceiling", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual", "Negative",
            "Sqrt", "Sign", "LogicalNot", "LogicalAnd", "LogicalOr", "LogicalXor")
def _constant_only_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    """Ops without bound evaluators of their own: OpenVINO evaluates them on exact inputs only."""
    return V.constant_only(node.type.lower(), x)


@value_eval("Relu", "Exp", "Log", "Sigmoid", "Tanh", "Erf", "Sin", "Cos", "SoftSign", "Round", "BitwiseAnd",
            "BitwiseOr", "BitwiseXor", "SquaredDifference", "CumSum", "ReduceL1", "ReduceL2", "ReduceLogicalAnd",
            "ReduceLogicalOr", "MatMul", "SoftMax", "LogSoftmax", "TopK", "NonZero", "OneHot", "GatherElements",
            "GatherND", "Reverse", "Roll", "DepthToSpace", "SpaceToDepth", "ShuffleChannels", "Bucketize", "PRelu",
            "IsFinite", "IsInf", "IsNaN", "Einsum", "Swish", "Gelu", "SoftPlus", "HSwish", "HSigmoid", "Mish", "Elu",
            "Selu", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "HardSigmoid")
def _default_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    """Ops without a bound evaluator of their own (``Node::evaluate_lower``'s default): no bounds unless every
    input is exact; on exact inputs the op's reference evaluation, for those irreshape evaluates."""
    return V.constant_only(node.type.lower(), x, {"mode": node.lower("mode", "half_to_even"),
                                                  "exclusive": node.flag("exclusive", False),
                                                  "reverse": node.flag("reverse", False),
                                                  "keep_dims": node.flag("keep_dims", False)})


@value_eval("Equal")
def _equal_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.equal(x[0], x[1])


@value_eval("Abs")
def _abs_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.abs_(x[0])


@value_eval("Select")
def _select_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    if node.lower("auto_broadcast") != "numpy":
        raise Undecided("Select with another broadcast than numpy in a shape subgraph")
    return V.select(*x)


@value_eval("Clamp")
def _clamp_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    return V.clamp(x[0], node.float("min"), node.float("max"))


_TYPE_ALIASES = {"fp16": "f16", "fp32": "f32", "fp64": "f64", "bool": "boolean"}


@value_eval("Convert")
def _convert_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    et = (node.attr("destination_type") or "").lower()
    return V.convert(x[0], _TYPE_ALIASES.get(et, et))


@value_eval("ConvertLike")
def _convert_like_value(node: Node, x: list[V.Tensor]) -> V.Tensor:
    """``ConvertLike`` has no bound evaluation in OpenVINO, even of constant inputs (measured on 2026.4.1: a Reshape
    whose pattern is ``ConvertLike(Const [2,3], Const)`` gives ``[?,?]``): what it feeds has no bounds."""
    raise V.NoBounds("OpenVINO does not evaluate ConvertLike (measured)")
