"""Element types: each op's type rule, as its ``validate_and_infer_types`` in openvino 2026.4.1 gives its
outputs' types and rejects its inputs' (``src/core/src/op/*.cpp``); the messages are OpenVINO's own.

An op registered here gets the types its rule returns; an op with a shape function and no rule here gives its
input 0's type to every output (the graph does that without a call). Inputs of unknown type (None) are never
blamed: a rule checks only what it knows, and an output it cannot tell is None.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core import etypes as E
from ..node import Node, ShapeError, Undecided, type_infer
from .state import read_value_type

_INDEX = ("i32", "i64")


def _t(node: Node, i: int) -> str | None:
    return node.types[i] if i < len(node.types) else None


def _merged(node: Node, a: int, b: int, message: str) -> str | None:
    """``element::Type::merge`` of inputs ``a`` and ``b``; ``message`` (formatted with both) where they do not."""
    ta, tb = _t(node, a), _t(node, b)
    m = E.merge(ta, tb)
    if m is False:
        raise ShapeError(message.format(ta, tb))
    return m  # type: ignore[return-value]


def _same(node: Node) -> str | None:
    """``validate_and_infer_elementwise_args``: inputs 0 and 1 of one type."""
    return _merged(node, 0, 1, "Arguments do not have the same element type (arg0 element type: {}, arg1 element "
                               "type: {}).")


def _integral(node: Node, i: int, message: str) -> None:
    """Input ``i`` must be an integral number (dynamic passes); ``message`` formatted with its type."""
    t = _t(node, i)
    if t is not None and not E.is_integral_number(t):
        raise ShapeError(message.format(t))


def _attr_type(node: Node, name: str, default: str) -> str:
    """An element type attribute (``output_type``, ``destination_type``), as OpenVINO parses it."""
    text = node.attr(name)
    try:
        return E.element_type(text) if text is not None else default
    except E.ElementTypeError as e:
        raise ShapeError(str(e)) from None


def _one_of(t: str, allowed: tuple[str, ...], message: str) -> str:
    if t not in allowed:
        raise ShapeError(message.format(t))
    return t


# -- element-wise -------------------------------------------------------------------------------------------
@type_infer("Add", "Subtract", "Multiply", "Divide", "Power", "Maximum", "Minimum", "SquaredDifference", "Mod",
            "FloorMod")
def _arithmetic(node: Node) -> list[str | None]:
    t = _same(node)
    if t == E.BOOLEAN:
        raise ShapeError("This operation does not support inputs with element type: boolean")
    return [t]


@type_infer("Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual")
def _comparison(node: Node) -> list[str | None]:
    _same(node)
    return [E.BOOLEAN]


@type_infer("LogicalAnd", "LogicalOr", "LogicalXor", "Xor")
def _logical(node: Node) -> list[str | None]:
    t = _same(node)
    if t is not None and t not in (E.BOOLEAN, E.DYNAMIC):
        raise ShapeError(f"Operands for logical operators must have boolean element type but have element type {t}.")
    return [E.BOOLEAN]


@type_infer("BitwiseAnd", "BitwiseOr", "BitwiseXor")
def _bitwise(node: Node) -> list[str | None]:
    t = _same(node)
    if t is not None and E.is_real(t):
        raise ShapeError("The element type of the input tensor must be integer or boolean.")
    return [t]


@type_infer("BitwiseLeftShift", "BitwiseRightShift")
def _shift(node: Node) -> list[str | None]:
    t = _same(node)
    if t is not None and not E.is_integral_number(t):
        raise ShapeError("The element type of the input tensor must be integer number.")
    return [t]


@type_infer("BitwiseNot")
def _bitwise_not(node: Node) -> list[str | None]:
    t = _t(node, 0)
    if t is not None and E.is_real(t):
        raise ShapeError("The element type of the input tensor must be integer or boolean.")
    return [t]


@type_infer("Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceiling", "Cos", "Cosh", "Erf", "Exp",
            "Floor", "Log", "Negative", "Relu", "Sigmoid", "Sign", "Sin", "Sinh", "Sqrt", "Tan", "Tanh", "HSwish",
            "HSigmoid")
def _unary_arithmetic(node: Node) -> list[str | None]:
    t = _t(node, 0)
    if t == E.BOOLEAN:
        raise ShapeError("This operation does not support input with element type: boolean")
    return [t]


def _real_only(message: str):
    def rule(node: Node) -> list[str | None]:
        t = _t(node, 0)
        if t is not None and t != E.DYNAMIC and not E.is_real(t):
            raise ShapeError(message.format(t))
        return [t]
    return rule


type_infer("SoftSign")(_real_only("Input element type must be float, instead got: {}"))
type_infer("SoftPlus")(_real_only("Input element type must be float. Got: {}"))
type_infer("Mish")(_real_only("Element must be of floating point type, Got: {}"))


@type_infer("IsNaN", "IsInf", "IsFinite")
def _is_class(node: Node) -> list[str | None]:
    t = _t(node, 0)
    if t is not None and t != E.DYNAMIC and not E.is_real(t):
        raise ShapeError("The element type of the input tensor must be a floating point number."
                         if node.type.lower() != "isfinite" else
                         f"The element type of the input tensor must be a floating point number or dynamic (got {t}).")
    return [E.BOOLEAN]


@type_infer("Select")
def _select(node: Node) -> list[str | None]:
    c = _t(node, 0)
    if c is not None and c not in (E.BOOLEAN, E.DYNAMIC):
        raise ShapeError(f"Argument 0 must have boolean element type (element type: {c}).")
    return [_merged(node, 1, 2, "Argument 1 and 2 element types must match.")]


@type_infer("Convert")
def _convert(node: Node) -> list[str | None]:
    return [_attr_type(node, "destination_type", E.DYNAMIC)]


@type_infer("ConvertLike")
def _convert_like(node: Node) -> list[str | None]:
    return [_t(node, 1)]


_PROMOTABLE = frozenset(("dynamic", "boolean", "f16", "f32", "f64", "i4", "i8", "i16", "i32", "i64", "u1", "u4", "u8",
                         "u16", "u32", "u64", "f8e4m3", "f8e5m2", "bf16"))


@type_infer("ConvertPromoteTypes")
def _convert_promote_types(node: Node) -> list[str | None]:
    """``evaluate_common_type`` of ConvertPromoteTypes-14 (``src/core/src/op/convert_promote_types.cpp``): both
    outputs take the common type of the two inputs. Where PyTorch's scalar rule could apply (it reads whether an
    input is a static scalar, which a type rule does not see), irreshape cannot tell."""
    a, b = _t(node, 0), _t(node, 1)
    if a is None or b is None:
        return [None, None]
    if a not in _PROMOTABLE or b not in _PROMOTABLE:
        raise ShapeError("Check 'is_type_supported(input_0_type) && is_type_supported(input_1_type)' failed")
    unsafe = node.flag("promote_unsafe")
    common = _promoted(a, b, unsafe, node.flag("pytorch_scalar_promotion"),
                       lambda: _attr_type(node, "u64_integer_promotion_target", "f32"))
    return [common, common]


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


# -- linear algebra and convolutions -----------------------------------------------------------------------
@type_infer("MatMul")
def _matmul(node: Node) -> list[str | None]:
    return [_same(node)]


@type_infer("Convolution", "GroupConvolution", "ConvolutionBackpropData", "GroupConvolutionBackpropData")
def _convolution(node: Node) -> list[str | None]:
    return [_merged(node, 0, 1, "Element types for data batch and filters do not match (data batch element type: "
                                "{}, filters element type: {}).")]


@type_infer("Einsum")
def _einsum(node: Node) -> list[str | None]:
    known = {t for t in node.types if t is not None and t != E.DYNAMIC}
    if len(known) > 1:
        raise ShapeError("Inputs to Einsum operation must have the same type.")
    return [_t(node, 0)]


# -- data movement ---------------------------------------------------------------------------------------
@type_infer("Concat")
def _concat(node: Node) -> list[str | None]:
    out: str | None | bool = E.DYNAMIC
    for t in node.types:
        out = E.merge(out, t) if out is not None else None  # type: ignore[arg-type]
        if out is False:
            raise ShapeError("Argument element types are inconsistent.")
    return [out if node.types else None]  # type: ignore[list-item]


_INTEGRAL = E.is_integral_number
_NOT_REAL = lambda t: not E.is_real(t)  # noqa: E731  is_integral: boolean passes
_IS_INDEX = lambda t: t in _INDEX  # noqa: E731


def _data_with(*checks: tuple) -> Callable[[Node], list[str | None]]:
    """The rule of an op that gives input 0's type to every output once each (input, test, message) holds of
    its input's known type (dynamic passes); the message is formatted with the type."""
    def rule(node: Node) -> list[str | None]:
        for i, ok, message in checks:
            t = _t(node, i)
            if t is not None and t != E.DYNAMIC and not ok(t):
                raise ShapeError(message.format(t))
        return [_t(node, 0)] * node.n_outputs
    return rule


type_infer("Gather")(_data_with((1, _INTEGRAL, "Indices element type must be of an integral number type."),
                                (2, _INTEGRAL, "Axis element type must be of an integral number type.")))
type_infer("GatherND")(_data_with((1, _INTEGRAL, "The indices type is expected to be an integer type. Got: {}")))
type_infer("GatherElements")(_data_with((1, _IS_INDEX, "indices must be of int32 or int64 type. But instead got: {}")))
type_infer("StridedSlice")(_data_with((1, _INTEGRAL, "Begin mask must be an integral number, but is: {}"),
                                      (2, _INTEGRAL, "End mask must be an integral number, but is: {}")))
type_infer("Slice")(_data_with(*((i, _INTEGRAL, f"Slice `{name}` input type must be integer.")
                                 for i, name in ((1, "start"), (2, "stop"), (3, "step"), (4, "axes")))))
type_infer("Transpose")(_data_with((1, _INTEGRAL, "Input order must have an integral number element type.")))
type_infer("Tile")(_data_with((1, _NOT_REAL, "Tile repeats must have any integer element type, but has {}")))
type_infer("Broadcast")(_data_with((1, _INTEGRAL, "Broadcast shape must be an integral number, but is: {}"),
                                   (2, _INTEGRAL, "Broadcast axes must be integral numbers, but are: {}")))
type_infer("Reshape")(_data_with((1, _INTEGRAL, "PartialShape pattern must be an integral number.")))
type_infer("LRN")(_data_with((1, _INTEGRAL, "Axes input must be integral numbers, but are: {}).")))
type_infer("SpaceToBatch")(_data_with(*((i, _INTEGRAL, f"{name} must be an integral number but got ({{}}).")
                                        for i, name in ((1, "block_shape"), (2, "pads_begin"), (3, "pads_end")))))
_NUMERIC = lambda t: t not in (E.BOOLEAN, "string")  # noqa: E731
type_infer("Clamp")(_data_with((0, _NUMERIC, "Input element type must be numeric. Got: {}")))
type_infer("ReverseSequence")(_data_with((1, _NUMERIC, "Sequence lengths element type must be numeric type. Got: {}")))
type_infer("Split")(_data_with((1, _INTEGRAL, "Element type of 'axis' input must be integer. Got: {}")))
type_infer("Roll")(_data_with((1, _IS_INDEX, "Shift must have int32 or int64 element type."),
                              (2, _IS_INDEX, "Axes must have int32 or int64 element type.")))
type_infer("CumSum")(_data_with((1, _IS_INDEX, "axis element type must be either int64_t or int32_t but got ({}).")))


@type_infer("Pad")
def _pad(node: Node) -> list[str | None]:
    _integral(node, 1, "pads_begin must be an integral number, but is: {}).")
    _integral(node, 2, "pads_end must be an integral number, but is: {}).")
    if len(node.types) > 3:
        _merged(node, 0, 3, "Argument element types do not match (input arg element type: {}, arg_pad element "
                            "type: {}).")
    return [_t(node, 0)]


@type_infer("ScatterUpdate")
def _scatter_update(node: Node) -> list[str | None]:
    _integral(node, 1, "Indices element type must be of an integral number type.")
    _merged(node, 0, 2, "Element types for input data and updates do not match (data element type: {}, updates "
                        "element type: {}).")
    return [_t(node, 0)]


@type_infer("ScatterElementsUpdate")
def _scatter_elements(node: Node) -> list[str | None]:
    t = _t(node, 1)
    if t is not None and E.is_real(t):  # is_integral: boolean passes
        raise ShapeError(f"Indices element type must be integral_number, but is: {t}")
    _merged(node, 0, 2, "Data type and updates type are required to be the same. Got: {} and: {}")
    return [_t(node, 0)]


@type_infer("ScatterNDUpdate")
def _scatter_nd(node: Node) -> list[str | None]:
    t = _t(node, 1)
    if t is not None and t not in (*_INDEX, E.DYNAMIC):
        raise ShapeError("Indices element type must be i64 or i32")
    _merged(node, 0, 2, "Updates element type must be the same as inputs")
    return [_t(node, 0)]


@type_infer("OneHot")
def _one_hot(node: Node) -> list[str | None]:
    t = _t(node, 0)
    if t is not None and E.is_real(t):  # is_integral: boolean passes
        raise ShapeError("Indices must be integral element type.")
    return [_merged(node, 2, 3, "on_value element type must be compatible with off_value element type.")]


@type_infer("ShapeOf", versions=(0,))
def _shape_of_1(node: Node) -> list[str | None]:
    return ["i64"]


@type_infer("ShapeOf")
def _shape_of(node: Node) -> list[str | None]:
    return [_one_of(_attr_type(node, "output_type", "i64"), _INDEX, "Output type must be i32 or i64")]


@type_infer("NonZero")
def _non_zero(node: Node) -> list[str | None]:
    return [_one_of(_attr_type(node, "output_type", "i64"), _INDEX, "Output type must be i32 or i64")]


@type_infer("Eye")
def _eye(node: Node) -> list[str | None]:
    return [_attr_type(node, "output_type", E.DYNAMIC)]


@type_infer("SearchSorted")
def _search_sorted(node: Node) -> list[str | None]:
    _all_merge(node, (0, 1), "Sorted sequence and values must have the same element type.")
    return [_one_of(_attr_type(node, "output_type", "i64"), _INDEX, "The output type must be i32 or i64.")]


@type_infer("BatchNormInference", versions=(0,))
def _batch_norm_0(node: Node) -> list[str | None]:
    """v0: the data is input 2; every input of one type."""
    return [_all_merge(node, (2, 0, 1, 3, 4), "Input element types do not match.")[0]]


@type_infer("BatchNormInference", versions=(5,))
def _batch_norm_5(node: Node) -> list[str | None]:
    return [_all_merge(node, (0, 1, 2, 3, 4), "Input element types do not match.")[0]]


@type_infer("Range", versions=(0,))
def _range_0(node: Node) -> list[str | None]:
    return _all_merge(node, (0, 1, 2), "Element types for start, stop, and step do not match.")


@type_infer("Range")
def _range(node: Node) -> list[str | None]:
    for i, name in enumerate(("start", "stop", "step")):
        t = _t(node, i)
        if t == E.BOOLEAN or t == "string":
            raise ShapeError(f"'{name}' input scalar should be a numeric type. Got: {t}")
    t = _attr_type(node, "output_type", E.DYNAMIC)
    if t == E.BOOLEAN or t == "string":
        raise ShapeError(f"output tensor type should be a numeric type. Got: {t}")
    return [t]


@type_infer("TopK")
def _topk(node: Node) -> list[str | None]:
    _integral(node, 1, "K input has to be an integer type, which does match the provided one:{}")
    index = _one_of(_attr_type(node, "index_element_type", "i32"), _INDEX,
                    "Index element type attribute should be either 'i32' or 'i64'. Got: {}")
    return [_t(node, 0), index]


@type_infer("Bucketize")
def _bucketize(node: Node) -> list[str | None]:
    for i, name in ((0, "Data"), (1, "Buckets")):
        if _t(node, i) == E.BOOLEAN:
            raise ShapeError(f"{name} input type must be numeric. Got: boolean")
    return [_attr_type(node, "output_type", "i64")]


@type_infer("Unique")
def _unique(node: Node) -> list[str | None]:
    index = _attr_type(node, "index_element_type", "i64")
    return [_t(node, 0), index, index, _attr_type(node, "count_element_type", "i64")]


# -- reductions and normalisations -----------------------------------------------------------------------
@type_infer("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2")
def _reduce(node: Node) -> list[str | None]:
    _integral(node, 1, "Element type of axes input must be integer. Got: {}")
    t = _t(node, 0)
    if t == E.BOOLEAN:
        raise ShapeError(f"Element type of data input must be numeric. Got: {t}")
    return [t]


@type_infer("ReduceLogicalAnd", "ReduceLogicalOr")
def _reduce_logical(node: Node) -> list[str | None]:
    _integral(node, 1, "Element type of axes input must be integer. Got: {}")
    t = _t(node, 0)
    if t is not None and t not in (E.BOOLEAN, E.DYNAMIC):
        raise ShapeError("Element type of data input must be boolean.")
    return [t]


# -- pooling, detection, sequences -------------------------------------------------------------------------
@type_infer("MaxPool", versions=(8, 14))
@type_infer("AdaptiveMaxPool")
def _max_pool(node: Node) -> list[str | None]:
    return [_t(node, 0), _attr_type(node, "index_element_type", "i64")]


def _all_merge(node: Node, ports: tuple[int, ...], message: str, out: int = 1) -> list[str | None]:
    """The inputs ``ports`` (those present) merged, ``out`` outputs of their type; ``message`` (formatted with
    the inputs' types, in order) where two do not merge. Unknown inputs are never blamed."""
    merged: str | None | bool = E.DYNAMIC
    known = True
    for i in ports:
        t = _t(node, i)
        if t is None:
            known = False
            continue
        merged = E.merge(merged, t)  # type: ignore[arg-type]
        if merged is False:
            raise ShapeError(message.format(*(_t(node, j) for j in ports)))
    return [merged if known else None] * out  # type: ignore[list-item]


def _merge_rule(ports: tuple[int, ...], message: str, out: int = 1) -> Callable[[Node], list[str | None]]:
    return lambda node: _all_merge(node, ports, message, out)


_CELL = "Element types for X, initial_hidden_state, W, R and B inputs do not match."
type_infer("RNNCell")(_merge_rule((0, 1, 2, 3, 4), _CELL))
type_infer("GRUCell")(_merge_rule((0, 1, 3, 4), _CELL))  # OpenVINO's GRUCell leaves W out of the merge
type_infer("LSTMCell", versions=(4,))(_merge_rule(
    (0, 1, 2, 3, 4, 5), "Element types for X, initial_hidden_state, initial_cell_state, W, R and B do not match.", 2))
type_infer("GRUSequence", "RNNSequence")(_merge_rule((0, 1, 3, 4, 5), _CELL, 2))  # sequence_lengths: any type
type_infer("LSTMSequence", versions=(5,))(_merge_rule(
    (0, 1, 2, 4, 5, 6), "Element types for X, initial_hidden_state, initial_cell_state, W, R and B inputs do not "
                        "match.", 3))
type_infer("GatherTree")(_merge_rule((0, 1, 2, 3), "Inputs must have the same element type. Got: step_ids ({}), "
                                                   "parent_idx_et ({}), max_seq_len ({}), end_token ({})"))
type_infer("DeformableConvolution")(_merge_rule((0, 1, 2), "Element types of inputs do not match. Got: data batch "
                                                           "({}), offsets ({}) and filters ({})"))


@type_infer("BatchToSpace")
def _batch_to_space(node: Node) -> list[str | None]:
    _all_merge(node, (1, 2, 3), "block_shape, crops_begin and crops_end inputs must have same element type. Got: "
                                "{}, {} and {}")
    return [_t(node, 0)]


_INTERPOLATED = ("f32", "f16", "i8", "bf16", "u8", "i64", "i32", "f64", E.DYNAMIC)
_SIZES = ("i32", "i64", "u32", "u64", E.DYNAMIC)
_SCALES = ("f32", "f16", "bf16", E.DYNAMIC)


def _interpolate_data(node: Node) -> str | None:
    t = _t(node, 0)
    if t is not None:
        _one_of(t, _INTERPOLATED, "Input element type must be f32, f16, i8, bf16, u8, i64, i32, f64")
    return t


def _known_one_of(node: Node, i: int, allowed: tuple[str, ...], message: str) -> None:
    t = _t(node, i)
    if t is not None and i < len(node.types):
        _one_of(t, allowed, message)


_SIZES_MESSAGE = "Sizes element type must be i32, i64, u32 or u64"
_SCALES_MESSAGE = "Scales element type must be f32, f16 or bf16"
_AXES_MESSAGE = "Axes element type must be i32, i64, u32 or u64"


@type_infer("Interpolate", versions=(0,))
def _interpolate_0(node: Node) -> list[str | None]:
    _integral(node, 1, "output shape must be an integral number.")
    return [_t(node, 0)]


@type_infer("Interpolate", versions=(4,))
def _interpolate_4(node: Node) -> list[str | None]:
    t = _interpolate_data(node)
    _known_one_of(node, 1, _SIZES, _SIZES_MESSAGE)
    _known_one_of(node, 2, _SCALES, _SCALES_MESSAGE)
    _known_one_of(node, 3, _SIZES, _AXES_MESSAGE)
    return [t]


@type_infer("Interpolate", versions=(11,))
def _interpolate_11(node: Node) -> list[str | None]:
    t = _interpolate_data(node)
    if node.lower("shape_calculation_mode", "") == "scales":
        _known_one_of(node, 1, _SCALES, _SCALES_MESSAGE)
    else:
        _known_one_of(node, 1, _SIZES, _SIZES_MESSAGE)
    _known_one_of(node, 2, _SIZES, _AXES_MESSAGE)
    return [t]


_NMS_REAL = ("bf16", "f16", "f32", E.DYNAMIC)


def _nms_inputs(node: Node) -> None:
    """NMS-5 and -9: boxes, scores and the thresholds are bf16, f16 or f32."""
    for i, name in ((0, "boxes"), (1, "scores"), (3, "iou_threshold"), (4, "score_threshold_ps"),
                    (5, "soft_nms_sigma")):
        _known_one_of(node, i, _NMS_REAL, f"Expected bf16, fp16 or fp32 as element type for the '{name}' input.")


@type_infer("PriorBox", "PriorBoxClustered")
def _prior_box(node: Node) -> list[str | None]:
    _integral(node, 0, "output size input must be an integral number, but is: {}")
    _integral(node, 1, "image input must be an integral number, but is: {}")
    return ["f32"]


@type_infer("DetectionOutput")
def _detection_output(node: Node) -> list[str | None]:
    box, cls, proposals = _t(node, 0), _t(node, 1), _t(node, 2)
    if box is not None and cls is not None and E.merge(box, cls) is False:
        raise ShapeError(f"Class predictions' data type must be the same as box logits type ({box}). Got {cls}")
    if proposals is not None and proposals != E.DYNAMIC and not E.is_real(proposals):
        raise ShapeError(f"Proposals' data type must be floating point. Got {proposals}")
    return [box]


@type_infer("Proposal")
def _proposal(node: Node) -> list[str | None]:
    for i, name in ((0, "class_probs"), (1, "bbox_deltas"), (2, "image_shape")):
        t = _t(node, i)
        if t is not None and t != E.DYNAMIC and not E.is_real(t):
            raise ShapeError(f"Proposal layer input {name} should have floating point type ({t}).")
    return [_t(node, 0)] * node.n_outputs


@type_infer("ROIPooling")
def _roi_pooling(node: Node) -> list[str | None]:
    return [_merged(node, 0, 1, "Type of feature maps (inputs) and ROIs is expected to be the same. Got: {} and: {}")]


@type_infer("ROIAlign")
def _roi_align(node: Node) -> list[str | None]:
    data, rois = _t(node, 0), _t(node, 1)
    if data is not None and rois is not None:
        m = E.merge(data, rois)
        if m is False or (m != E.DYNAMIC and not E.is_real(m)):  # type: ignore[arg-type]
            raise ShapeError("The data type for input and ROIs is expected to be a same floating point type. Got: "
                             f"{data} and: {rois}")
    _integral(node, 2, "The data type for batch indices is expected to be an integer. Got: {}")
    return [data]




@type_infer("NonMaxSuppression", versions=(1,))
def _nms_1(node: Node) -> list[str | None]:
    return ["i64"]


@type_infer("NonMaxSuppression", versions=(3, 4))
def _nms_3(node: Node) -> list[str | None]:
    return [_attr_type(node, "output_type", "i64")]


@type_infer("NonMaxSuppression")
def _nms(node: Node) -> list[str | None]:
    _nms_inputs(node)
    ot = _attr_type(node, "output_type", "i64")
    return [ot, "f32", ot][:node.n_outputs]


@type_infer("CTCGreedyDecoderSeqLen")
def _ctc_seq_len(node: Node) -> list[str | None]:
    return [_attr_type(node, "classes_index_type", "i32"), _attr_type(node, "sequence_length_type", "i32")]


@type_infer("ExperimentalDetectronDetectionOutput")
def _ed_detection_output(node: Node) -> list[str | None]:
    t = _t(node, 0)
    return [t, "i32", t]


@type_infer("Multinomial")
def _multinomial(node: Node) -> list[str | None]:
    return [_attr_type(node, "convert_type", E.DYNAMIC)]


@type_infer("RandomUniform")
def _random_uniform(node: Node) -> list[str | None]:
    """``RandomUniform::validate_and_infer_types``: min and max of ``output_type`` (dynamic where the IR has
    none, which refuses every known type)."""
    t = _attr_type(node, "output_type", E.DYNAMIC)
    lo, hi = _t(node, 1), _t(node, 2)
    if lo is not None and hi is not None:
        if lo != hi:
            raise ShapeError("'min_val' should have the same type as 'max_val'.")
        if lo != t:
            raise ShapeError("'min_val' and 'max_val' should have the same type as 'out_type' attribute.")
    return [t]


@type_infer("ReadValue")
def _read_value(node: Node) -> list[str | None]:
    return [read_value_type(node, _attr_type(node, "variable_type", E.DYNAMIC), _t(node, 0))]


@type_infer("ScaledDotProductAttention")
def _sdpa(node: Node) -> list[str | None]:
    """v13: the mask (input 3, unless causal) floating-point or boolean; every other input merges with the query."""
    causal = node.flag("causal")
    mask = _t(node, 3)
    if len(node.types) > 3 and not causal and mask is not None and not (
            mask in (E.BOOLEAN, E.DYNAMIC) or E.is_real(mask)):
        raise ShapeError("The element type of attention_mask must be either floating-point or boolean.")
    out: str | None | bool = _t(node, 0)
    for i in range(1, len(node.types)):
        t = _t(node, i)
        if i == 3 and (t == E.BOOLEAN or causal):
            continue
        if out is not None and t is not None:
            out = E.merge(out, t)
            if out is False:
                raise ShapeError("Mixed input types are not supported.")
        elif t is None:
            out = None
    if out is not None and out != E.DYNAMIC and not E.is_real(out):  # type: ignore[arg-type]
        raise ShapeError("The element type of the input tensor must be a floating-point.")
    return [out]  # type: ignore[list-item]


@type_infer("FakeConvert")
def _fake_convert(node: Node) -> list[str | None]:
    """v13: destination_type f8e4m3 or f8e5m2; data, scale and shift of one type, bf16, f16 or f32."""
    dest = _attr_type(node, "destination_type", "f8e4m3")
    if dest not in ("f8e4m3", "f8e5m2"):
        raise ShapeError(f"Bad format for f8 conversion type: {dest}")
    out = _all_merge(node, tuple(range(len(node.types))), "Mixed input types are not supported.")[0]
    if out is not None and out not in ("bf16", "f16", "f32", E.DYNAMIC):
        raise ShapeError(f"The element type of the input tensor must be a bf16, f16, f32 but got: {out}")
    return [out]


# -- strings and the openvino-tokenizers ops ---------------------------------------------------------------
# openvino_tokenizers' utils.cpp: a decomposed string tensor is (begins i32, ends i32, chars u8); a ragged one
# (ragged begins i32, ragged ends i32, begins i32, ends i32, chars u8); an op with a skip mask adds a boolean
_STRINGS = ["i32", "i32", "u8"]
_RAGGED_STRINGS = ["i32", "i32", "i32", "i32", "u8"]


@type_infer("StringTensorUnpack")
def _string_unpack(node: Node) -> list[str | None]:
    return list(_STRINGS)


@type_infer("StringTensorPack")
def _string_pack(node: Node) -> list[str | None]:
    return ["string"]


@type_infer("CaseFold", "NormalizeUnicode", "UTF8Validate", "RegexNormalization", "CharsMapNormalization")
def _string_out(node: Node) -> list[str | None]:
    """``set_string_output``, then the skip mask where the op has one."""
    return (_STRINGS + [E.BOOLEAN] * node.n_outputs)[:node.n_outputs]


@type_infer("RegexSplit", "SpecialTokensSplit", "VocabDecoder")
def _ragged_string_out(node: Node) -> list[str | None]:
    """``set_ragged_string_output``, then the skip mask where the op has one."""
    return (_RAGGED_STRINGS + [E.BOOLEAN] * node.n_outputs)[:node.n_outputs]


@type_infer("BPETokenizer", "WordpieceTokenizer")
def _token_ids(node: Node) -> list[str | None]:
    """``set_ragged_output(..., element::i32)``: ragged begins, ends and the token ids."""
    return ["i32"] * node.n_outputs


@type_infer("RaggedToDense")
def _ragged_to_dense(node: Node) -> list[str | None]:
    return [_t(node, 2), E.BOOLEAN][:node.n_outputs]


@type_infer("FuzeRagged")
def _fuze_ragged(node: Node) -> list[str | None]:
    return [_t(node, 0), _t(node, 1)][:node.n_outputs]


@type_infer("ByteFallback", "BytesToChars", "CharsToBytes", "VocabEncoder", "CombineSegments", "Truncate",
            "RaggedToRagged")
def _string_ops(node: Node) -> list[str | None]:
    """Ragged and string tensors whose type rules irreshape does not reproduce: their outputs' types are not
    claimed."""
    return [None] * node.n_outputs
