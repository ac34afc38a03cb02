"""Element types as openvino 2026.4.1 knows them (``src/core/src/type/element_type.cpp``): every name, its bit
width and classes, and the IR's two spellings of one: an ``element_type`` attribute (``f32``, as
``AttributeAdapter<element::Type>`` reads it: the enum names, any case) and a port's ``precision``
(``FP32``, as the serializer writes it; ``type_from_string`` reads the names and their aliases).

A type is its canonical name, one shared string (``"f32"``); ``"dynamic"`` is OpenVINO's undefined type, which
merges with any other. None stands for a type irreshape does not know (no guess).
"""

from __future__ import annotations

from typing import NamedTuple


class ElementType(NamedTuple):
    """One row of OpenVINO's ``types_info``."""

    bits: int  # bit width (string: 8 * sizeof(std::string), as OpenVINO says; dynamic: 0)
    real: bool  # is_real: the floating-point types
    signed: bool  # is_signed (boolean is signed in OpenVINO's table)
    quantized: bool
    precision: str  # the serializer's spelling of a port's precision


DYNAMIC = "dynamic"
BOOLEAN = "boolean"
# name -> row, in OpenVINO's order (dynamic first)
TYPES: dict[str, ElementType] = {
    "dynamic": ElementType(0, False, False, False, "UNSPECIFIED"),
    "boolean": ElementType(8, False, True, False, "BOOL"),
    "bf16": ElementType(16, True, True, False, "BF16"),
    "f16": ElementType(16, True, True, False, "FP16"),
    "f32": ElementType(32, True, True, False, "FP32"),
    "f64": ElementType(64, True, True, False, "FP64"),
    "i4": ElementType(4, False, True, True, "I4"),
    "i8": ElementType(8, False, True, True, "I8"),
    "i16": ElementType(16, False, True, False, "I16"),
    "i32": ElementType(32, False, True, True, "I32"),
    "i64": ElementType(64, False, True, False, "I64"),
    "u1": ElementType(1, False, False, False, "BIN"),
    "u2": ElementType(2, False, False, False, "U2"),
    "u3": ElementType(3, False, False, False, "U3"),
    "u4": ElementType(4, False, False, False, "U4"),
    "u6": ElementType(6, False, False, False, "U6"),
    "u8": ElementType(8, False, False, True, "U8"),
    "u16": ElementType(16, False, False, False, "U16"),
    "u32": ElementType(32, False, False, False, "U32"),
    "u64": ElementType(64, False, False, False, "U64"),
    "nf4": ElementType(4, False, False, True, "NF4"),
    "f8e4m3": ElementType(8, True, True, True, "F8E4M3"),
    "f8e5m2": ElementType(8, True, True, True, "F8E5M2"),
    "string": ElementType(256, False, False, False, "STRING"),
    "f4e2m1": ElementType(4, True, True, True, "F4E2M1"),
    "f8e8m0": ElementType(8, True, True, True, "F8E8M0"),
}
# ``element_type`` attribute text, lower-cased -> type (EnumNames<element::Type_t>: "undefined" is dynamic)
_ENUM = {**{name: name for name in TYPES}, "undefined": DYNAMIC}
# ``precision`` text -> type (type_from_string: the name or an alias, case as written)
_ALIASES = {"dynamic": ("UNSPECIFIED", "undefined"), "u1": ("U1", "bin", "BIN")}
_PRECISION: dict[str, str] = {}
for _name, _row in TYPES.items():
    _PRECISION[_name] = _name
    for _alias in _ALIASES.get(_name, (_row.precision,)):
        _PRECISION[_alias] = _name


# The types whose values shape inference reads otherwise than element by element, each with the type
# ``get_raw_data_as`` (an op reading an input's values) reads its buffer as: i4, u4 and nf4 a signed byte per element
# (not a nibble), bf16 its float; None where it refuses the type ("Element not supported"). Measured on 2026.4.1.
RAW_READ: dict[str, str | None] = {"i4": "i8", "u4": "i8", "nf4": "i8", "bf16": "f32", "u1": None, "u2": None,
                                   "u3": None, "u6": None, "f8e4m3": None, "f8e5m2": None, "f8e8m0": None,
                                   "f4e2m1": None}


class ElementTypeError(ValueError):
    """A name OpenVINO does not know; the message is OpenVINO's."""


def element_type(text: str) -> str:
    """An ``element_type`` attribute's type, as OpenVINO reads it (``F32`` and ``undefined`` are accepted,
    ``FP32`` is not). Raises :class:`ElementTypeError` with OpenVINO's message for a name it does not know."""
    t = _ENUM.get(text.lower())
    if t is None:
        raise ElementTypeError(f'"{text}" is not a member of enum element::Type_t')
    return t


# A port's ``precision`` as a type (``FP32`` → ``f32``; the names themselves too); None where it is absent or no
# type's spelling (OpenVINO ignores a port's precision altogether). The dict's own ``get`` (None is no key), so
# the loops over every port of a model pay no call of their own.
from_precision = _PRECISION.get


def precision(t: str) -> str:
    """How OpenVINO's serializer writes type ``t`` as a port's precision (``f32`` → ``FP32``)."""
    return TYPES[t].precision


def byte_size(t: str, count: int) -> int:
    """The bytes ``count`` elements of ``t`` take in a ``.bin``, packed as OpenVINO packs them (sub-byte types
    several to a byte); 0 for string and dynamic, whose size is not a product of the count."""
    if t in ("string", "dynamic"):
        return 0
    return (count * TYPES[t].bits + 7) // 8


def is_real(t: str) -> bool:
    return TYPES[t].real


def is_integral_number(t: str) -> bool:
    """Integral and not boolean (``is_integral_number``): indices, axes, shapes; dynamic counts, as in OpenVINO."""
    return not TYPES[t].real and t != BOOLEAN


def is_signed(t: str) -> bool:
    return TYPES[t].signed


def legacy(t: str, input: bool) -> str:
    """The type ``read_model`` gives an IR v10 model's input (``input``) or output in place of ``t``
    (``to_legacy_type`` in ``model_reader.cpp``: f16 inputs read as f32, no other; outputs i32 from i64, u64, u32
    and i32, f32 from any other; measured on 2026.4.1 for every type, and only for IR v10)."""
    if input:
        return "f32" if t == "f16" else t
    if t in ("i64", "u64", "i32", "u32"):
        return "i32"
    return "f32"


def merge(a: str | None, b: str | None) -> str | None | bool:
    """``element::Type::merge``: the type two types merge to (dynamic gives way; None, unknown, stays unknown),
    or False where they do not merge."""
    if a is None or b is None:
        return None
    if a == DYNAMIC:
        return b
    if b == DYNAMIC or a == b:
        return a
    return False
