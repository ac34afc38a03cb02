"""Attributes as OpenVINO's IR reader reads them: one :class:`Schema` per op version, parsed once per <data>.

An op's ``visit_attributes`` names each attribute with a C++ type; the IR reader
(``xml_deserialize_util.cpp``, openvino 2026.4.1) parses the ``<data>`` text by that type:

* an integer (``int64_t``, and every narrower one): leading whitespace skipped, then the longest prefix
  ``-?digits`` (no ``+``; ``"1.5"`` and ``"2x"`` read as 1 and 2); nothing to read, or a value beyond int64:
  ``Cannot parse 'TEXT' to number``;
* a real (``double``, ``float``): the longest prefix of a decimal number (``+`` allowed), or ``inf``/``nan``;
  a value beyond double (``1e400``) is refused as above;
* a bool: ``true``/``1``/``false``/``0`` in any case; anything else leaves the default (``m_pythondiv="yes"``
  keeps true);
* an integer member narrower or unsigned is read as an ``int64_t`` and cast: a ``size_t``/``uint64_t`` reads -1 as
  2**64 - 1 (and a shape function then sees what OpenVINO sees: ``block_size="-1"`` is a block of 2**64 - 1), an
  ``int`` keeps the low 32 bits (``"4294967297"`` is 1);
* a list: fields split at commas, one trailing comma ignored, an empty field refused (``Cannot get vector of
  parameters! "TEXT" is incorrect``), each field read as its number type (``Cannot parse 'FIELD' in
  "TEXT"``): ``std::vector<int64_t>`` as an integer above, ``std::vector<int>`` within int32,
  ``std::vector<size_t>`` as digits alone (``"-1"`` and ``"+1"`` refused) below 2**64, ``std::vector<float>`` as a
  real within float (``"1e39"`` refused); an ``ov::Shape``/``Strides``/``AxisSet`` is read as a list of int64 and
  cast, so a negative field wraps around;
* an enum: its member names in any case, else ``"TEXT" is not a member of enum NAME``; an element type is an
  enum (``element::Type_t``) whose members are the type names;
* a missing attribute keeps the op's default.

The defaults and the attribute names of every op version are generated from openvino itself
(:mod:`.opsets`); the kinds that a default cannot tell (an enum's members, a list's number type) are
:data:`ENUMS` (and :data:`OP_ENUMS`, :data:`VERSION_ENUMS`), :data:`FLOAT_LISTS` and the C++ integer types of
:data:`UNSIGNED`, :data:`INT32`, :data:`SIZE_LISTS`, :data:`U64_LISTS` and :data:`I32_LISTS` below (from the op
headers openvino ships, ``include/openvino/op``).
"""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping
from typing import Any

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1

ELEMENT_TYPES = ("undefined", "dynamic", "boolean", "bf16", "f16", "f32", "f64", "i4", "i8", "i16", "i32", "i64",
                 "u1", "u2", "u3", "u4", "u6", "u8", "u16", "u32", "u64", "nf4", "f8e4m3", "f8e5m2", "string",
                 "f4e2m1", "f8e8m0")

# attribute name -> (C++ enum name, members); an attribute of that name with a string default is that enum. The
# members are those ``read_model`` accepts, measured (tests/shapes/test_enums_differential.py): every name of a
# pool of all the identifiers in libopenvino, every enum's members in three cases, "" and a bogus one.
_AUTOB = ("ov::op::AutoBroadcastType", ("none", "explicit", "numpy", "pdpd"))
_REDUCTION = ("none", "sum", "prod", "min", "max")
ENUMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "auto_broadcast": _AUTOB,
    "auto_pad": ("ov::op::PadType", ("explicit", "same_lower", "same_upper", "valid")),
    "rounding_type": ("ov::op::RoundingType", ("floor", "ceil", "ceil_torch")),
    "eps_mode": ("op::MVNEpsMode", ("inside_sqrt", "outside_sqrt")),
    "approximation_mode": ("op::GeluApproximationMode", ("tanh", "erf")),
    "pad_mode": ("ov::op::PadMode", ("constant", "edge", "reflect", "symmetric")),
    "direction": ("ov::op::RecurrentSequenceDirection", ("forward", "reverse", "bidirectional")),
    "sort": ("ov::op::TopKSortType", ("none", "index", "value")),
    "coordinate_transformation_mode": ("op::util::InterpolateBase::CoordinateTransformMode",
                                       ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn",
                                        "align_corners")),
    "nearest_mode": ("op::util::InterpolateBase::NearestMode",
                     ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")),
    "shape_calculation_mode": ("op::util::InterpolateBase::ShapeCalcMode", ("sizes", "scales")),
    "weights_format": ("op::LSTMWeightsFormat", ("fico", "icof", "ifco", "ifoc", "iofc")),
    "decay_function": ("op::v8::MatrixNms::DecayFunction", ("gaussian", "linear")),
    "negative_indices_mode": ("op::v16::OneHot::NegativeIndicesMode", ("ignore_negative", "normalize")),
    "padding_mode": ("op::v9::GridSample::PaddingMode", ("zeros", "border", "reflection")),
    "aligned_mode": ("op::v9::ROIAlign::AlignedMode", ("asymmetric", "half_pixel_for_nn", "half_pixel")),
    "alignment": ("ov::op::PhiloxAlignment", ("tensorflow", "pytorch", "mock")),
    "fill_mode": ("ov::op::FillMode", ("zero", "lowest")),
}
# (op type, attribute) -> enum, where the name alone does not tell
OP_ENUMS: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {
    ("NormalizeL2", "eps_mode"): ("ov::op::EpsMode", ("add", "max")),
    ("Broadcast", "mode"): ("ov::op::BroadcastType", ("none", "explicit", "numpy", "bidirectional", "pdpd")),
    ("TopK", "mode"): ("ov::op::TopKMode", ("min", "max")),
    ("Round", "mode"): ("op::v5::Round::RoundMode", ("half_to_even", "half_away_from_zero")),
    ("DepthToSpace", "mode"): ("op::DepthToSpace::DepthToSpaceMode", ("blocks_first", "depth_first")),
    ("SpaceToDepth", "mode"): ("op::v0::SpaceToDepth::SpaceToDepthMode", ("blocks_first", "depth_first")),
    ("Interpolate", "mode"): ("op::util::InterpolateBase::InterpolateMode",
                              ("nearest", "linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow")),
    ("Reverse", "mode"): ("op::v1::Reverse::Mode", ("index", "mask")),
    ("BinaryConvolution", "mode"): ("op::v1::BinaryConvolution::BinaryConvolutionMode", ("xnor-popcount",)),
    ("GridSample", "mode"): ("op::v9::GridSample::InterpolationMode", ("bilinear", "bicubic", "nearest")),
    ("EmbeddingBagOffsets", "reduction"): ("op::util::EmbeddingBagOffsetsBase::Reduction", ("sum", "mean")),
    ("EmbeddingBagPacked", "reduction"): ("op::util::EmbeddingBagPackedBase::Reduction", ("sum", "mean")),
    ("ScatterElementsUpdate", "reduction"): ("op::v12::ScatterElementsUpdate::Reduction", _REDUCTION + ("mean",)),
    ("ScatterNDUpdate", "reduction"): ("op::v15::ScatterNDUpdate::Reduction", _REDUCTION + ("sub",)),
    ("MatrixNms", "sort_result_type"): ("op::v8::MatrixNms::SortResultType", ("classid", "score", "none")),
    ("MulticlassNms", "sort_result_type"): ("op::util::MulticlassNmsBase::SortResultType", ("classid", "score", "none")),
}
# (op type, op version, attribute) -> enum, where the op version tells
VERSION_ENUMS: dict[tuple[str, int, str], tuple[str, tuple[str, ...]]] = {
    ("Broadcast", 1, "mode"): _AUTOB,
    ("ROIAlign", 3, "mode"): ("op::v3::ROIAlign::PoolingMode", ("avg", "max")),
    ("ROIAlign", 9, "mode"): ("op::v9::ROIAlign::PoolingMode", ("avg", "max")),
    **{("NonMaxSuppression", v, "box_encoding"): (f"op::v{n}::NonMaxSuppression::BoxEncodingType", ("corner", "center"))
       for v, n in ((1, 1), (3, 3), (4, 3), (5, 5), (9, 9))},
}
# attributes whose value is an element type
ELEMENT_TYPE_ATTRS = frozenset({
    "classes_index_type", "convert_type", "count_element_type", "destination_type", "element_type",
    "index_element_type", "output_type", "roi_num_type", "sequence_length_type", "u64_integer_promotion_target",
    "variable_type"})
FLOAT_LISTS = frozenset({"anchors", "aspect_ratio", "density", "fixed_ratio", "fixed_size", "max_size", "min_size",
                         "variance", "activations_alpha", "activations_beta", "deltas_weights", "width", "height",
                         "scale", "ratio"})
# std::vector<std::string> attributes whose default (an empty list: GRUSequence, LSTMSequence, RNNSequence) cannot tell
STR_LISTS = frozenset({"activations"})
# The C++ integer type of an attribute where it is not int64_t, by op type (or (op type, op version)) -> names.
_CONV = frozenset({"strides", "dilations"})
_POOL = frozenset({"pads_begin", "pads_end", "kernel", "strides", "dilations"})
_RNN = frozenset({"hidden_size"})
# size_t / uint64_t scalars: a negative value wraps around
UNSIGNED: dict[Any, frozenset[str]] = {
    "DepthToSpace": frozenset({"block_size"}), "SpaceToDepth": frozenset({"block_size"}),
    "DetectionOutput": frozenset({"input_height", "input_width"}),
    "ExperimentalDetectronDetectionOutput": frozenset({"max_detections_per_image"}),
    "ExperimentalDetectronTopKROIs": frozenset({"max_rois"}),
    "FakeQuantize": frozenset({"levels"}),
    **dict.fromkeys(("GRUCell", "GRUSequence", "LSTMCell", "LSTMSequence", "RNNCell", "RNNSequence"), _RNN),
    "GatherND": frozenset({"batch_dims"}),
    "LRN": frozenset({"size"}),
    "Multinomial": frozenset({"global_seed", "op_seed"}), "RandomUniform": frozenset({"global_seed", "op_seed"}),
    "PSROIPooling": frozenset({"output_dim", "group_size"}),
    "Proposal": frozenset({"base_size", "pre_nms_topn", "post_nms_topn", "feat_stride", "min_size"}),
    "RegionYolo": frozenset({"coords", "classes", "num"}),
    "ROIPooling": frozenset({"pooled_h", "pooled_w"}),  # written into its Shape
    ("Softmax", 1): frozenset({"axis"}),
    "Split": frozenset({"num_splits"}),
}
# int scalars: the low 32 bits
INT32: dict[Any, frozenset[str]] = {
    "DetectionOutput": frozenset({"background_label_id", "top_k", "num_classes"}),
    "MatrixNms": frozenset({"nms_top_k", "keep_top_k", "background_class"}),
    "MulticlassNms": frozenset({"nms_top_k", "keep_top_k", "background_class"}),
    "PSROIPooling": frozenset({"spatial_bins_x", "spatial_bins_y"}),
    **dict.fromkeys(("ROIAlign", "ROIAlignRotated"), frozenset({"pooled_h", "pooled_w", "sampling_ratio"})),
    "RegionYolo": frozenset({"axis", "end_axis"}),
}
# ov::Shape / Strides / AxisSet: a negative field wraps around
SIZE_LISTS: dict[Any, frozenset[str]] = {
    "MaxPool": _POOL, "AvgPool": _POOL,
    **dict.fromkeys(("Convolution", "GroupConvolution", "ConvolutionBackpropData", "GroupConvolutionBackpropData",
                     "BinaryConvolution", "DeformableConvolution"), _CONV),
    "Col2Im": _POOL - {"kernel"},
    "ExtractImagePatches": frozenset({"sizes", "strides", "rates"}),
    "ReorgYolo": frozenset({"stride"}),
    "ROIPooling": frozenset({"output_size", "output_roi"}),
    ("MVN", 0): frozenset({"reduction_axes"}),
    ("Interpolate", 0): frozenset({"axes"}),
}
# std::vector<size_t>: each field digits alone, below 2**64
U64_LISTS: dict[Any, frozenset[str]] = {"Interpolate": frozenset({"pads_begin", "pads_end"})}
# std::vector<int>: each field within int32
I32_LISTS: dict[Any, frozenset[str]] = {"DetectionOutput": frozenset({"keep_top_k"})}
# attributes of op versions a default-constructed node cannot tell (it cannot be visited)
EXTRA: dict[tuple[str, int], dict[str, Any]] = {
    ("ReadValue", 3): {"variable_id": ""},
    ("ReadValue", 6): {"variable_id": "", "variable_type": "dynamic", "variable_shape": ""},
    ("Assign", 3): {"variable_id": ""},
    ("Assign", 6): {"variable_id": ""},
}


class AttributeError_(ValueError):
    """OpenVINO's IR reader cannot read an attribute; the message is its own."""


_INT = re.compile(r"\s*(-?\d+)")
_REAL = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_SPECIAL = re.compile(r"\s*([+-]?(?:inf|nan))(?![a-z])", re.IGNORECASE)


def parse_int(text: str) -> int | None:
    """An integer as the IR reader reads one; None where it refuses the text."""
    m = _INT.match(text)
    if m is None:
        return None
    v = int(m.group(1))
    return v if I64_MIN <= v <= I64_MAX else None


def parse_real(text: str) -> float | None:
    m = _REAL.match(text)
    if m is None:
        m = _SPECIAL.match(text)
        return None if m is None else float(m.group(1))
    v = float(m.group(1))
    return None if v in (float("inf"), float("-inf")) else v


_U64 = 1 << 64
_INFS = (float("inf"), float("-inf"))
_UINT = re.compile(r"\s*(\d+)")


def _read_u64(text: str) -> int | None:
    m = _UINT.match(text)
    return None if m is None or int(m.group(1)) >= _U64 else int(m.group(1))


def _read_i32(text: str) -> int | None:
    v = parse_int(text)
    return v if v is not None and -(1 << 31) <= v < 1 << 31 else None


def _read_f32(text: str) -> float | None:
    v = parse_real(text)
    if v is None:
        return None
    try:
        f = struct.unpack("f", struct.pack("f", v))[0]
    except OverflowError:
        return None
    return None if f in _INFS and v not in _INFS else f  # beyond float once rounded


def parse_bool(text: str, default: bool) -> bool:
    low = text.lower()
    return True if low in ("true", "1") else False if low in ("false", "0") else default


def _fields(text: str) -> list[str]:
    if text == "":
        return []
    parts = text.split(",")
    if parts[-1] == "":
        parts.pop()
    if "" in parts:
        raise AttributeError_(f'Cannot get vector of parameters! "{text}" is incorrect')
    return parts


def parse_list(text: str, read, unsigned: bool = False) -> list:
    out = []
    for f in _fields(text):
        v = read(f)
        if v is None:
            raise AttributeError_(f"Cannot parse '{f}' in \"{text}\"")
        out.append(v + _U64 if unsigned and v < 0 else v)
    return out


_LIST_READERS = {"u64s": _read_u64, "i32s": _read_i32, "reals": _read_f32}


class Attr:
    """One attribute: its name, kind (``int``, ``size``, ``i32``, ``real``, ``bool``, ``str``, ``ints``, ``sizes``,
    ``u64s``, ``i32s``, ``reals``, ``strs``, ``etype``, ``enum``), default and, for an enum, its C++ name and
    members."""

    __slots__ = ("name", "kind", "default", "enum", "members")

    def __init__(self, name: str, kind: str, default: Any, enum: str = "", members: tuple[str, ...] = ()) -> None:
        self.name, self.kind, self.default, self.enum, self.members = name, kind, default, enum, members

    def __repr__(self) -> str:
        return f"Attr({self.name!r}, {self.kind!r}, {self.default!r})"

    def parse(self, text: str) -> Any:
        kind = self.kind
        if kind == "int":
            v = parse_int(text)
        elif kind == "size":
            v = parse_int(text)
            v = v % _U64 if v is not None else v
        elif kind == "i32":
            v = parse_int(text)
            v = (v + (1 << 31)) % (1 << 32) - (1 << 31) if v is not None else v
        elif kind == "real":
            v = parse_real(text)
        elif kind == "bool":
            return parse_bool(text, self.default)
        elif kind in ("ints", "sizes"):
            return parse_list(text, parse_int, kind == "sizes")
        elif kind in _LIST_READERS:
            return parse_list(text, _LIST_READERS[kind])
        elif kind == "strs":
            return [f.strip() for f in text.split(",") if f.strip()]
        elif kind in ("enum", "etype"):
            low = text.lower()
            if low not in self.members:
                raise AttributeError_(f'"{text}" is not a member of enum {self.enum}')
            return low
        else:
            return text
        if v is None:
            raise AttributeError_(f"Cannot parse '{text}' to number")
        return v


class Schema:
    """The attributes one op version reads, and their parsing, memoised per <data> dict (the parser shares the
    dicts of equal <data>, so a deep model's attributes are parsed once per distinct <data>)."""

    __slots__ = ("attrs", "_parsed")

    def __init__(self, attrs: tuple[Attr, ...]) -> None:
        self.attrs = attrs
        self._parsed: dict[int, tuple[Mapping[str, str], "dict[str, Any] | AttributeError_"]] = {}

    def __repr__(self) -> str:
        return f"Schema({list(self.attrs)!r})"

    def parse(self, data: Mapping[str, str]) -> dict[str, Any]:
        """The typed values of ``data`` (the default for an absent attribute); raises :class:`AttributeError_`
        with OpenVINO's message where the IR reader refuses one."""
        known = self._parsed.get(id(data))
        if known is None:
            known = self._parsed[id(data)] = (data, self._parse(data))
        out = known[1]
        if isinstance(out, AttributeError_):
            raise out
        return out

    def _parse(self, data: Mapping[str, str]) -> "dict[str, Any] | AttributeError_":
        out: dict[str, Any] = {}
        try:
            for a in self.attrs:
                text = data.get(a.name)
                out[a.name] = a.default if text is None else a.parse(text)
        except AttributeError_ as e:
            return e
        return out


EMPTY = Schema(())


def _typed(table: Mapping[Any, frozenset[str]], op: str, version: int, name: str) -> bool:
    return name in table.get(op, ()) or name in table.get((op, version), ())


def _kind(op: str, version: int, name: str, default: Any) -> Attr:
    if isinstance(default, bool):
        return Attr(name, "bool", default)
    if isinstance(default, int):
        kind = ("size" if _typed(UNSIGNED, op, version, name) else "i32" if _typed(INT32, op, version, name)
                else "int")
        return Attr(name, kind, default)
    if isinstance(default, float):
        return Attr(name, "real", default)
    if isinstance(default, list):
        if (default and isinstance(default[0], str)) or name in STR_LISTS:
            return Attr(name, "strs", default)
        for table, kind in ((SIZE_LISTS, "sizes"), (U64_LISTS, "u64s"), (I32_LISTS, "i32s")):
            if _typed(table, op, version, name):
                return Attr(name, kind, default)
        if name in FLOAT_LISTS or (default and isinstance(default[0], float)):
            return Attr(name, "reals", default)
        return Attr(name, "ints", default)
    if name in ELEMENT_TYPE_ATTRS:
        return Attr(name, "etype", default.lower(), "element::Type_t", ELEMENT_TYPES)
    enum = VERSION_ENUMS.get((op, version, name)) or OP_ENUMS.get((op, name)) or ENUMS.get(name)
    if enum is not None and default.lower() in enum[1]:
        return Attr(name, "enum", default.lower(), *enum)
    return Attr(name, "str", default)


def schema_of(op: str, version: int, defaults: Mapping[str, Any] | None) -> Schema:
    """The schema of op version ``op``-``version`` from its defaults (see :mod:`.opsets`)."""
    items = {**(defaults or {}), **EXTRA.get((op, version), {})}
    return Schema(tuple(_kind(op, version, name, d) for name, d in items.items())) if items else EMPTY
