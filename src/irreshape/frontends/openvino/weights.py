"""The ``.bin`` beside an IR: opened lazily, read only where a Const is needed, every read bounds-checked."""

from __future__ import annotations

import os
import re
import struct

from ...core import etypes
from ...core.dims import UINT64_MAX
from ...core.findings import Problem, ProblemError
from ...core.text import clip, display_path
from ..files import open_regular
from .model import Layer

# element type → (bytes per element, struct-like signedness); only the integer types a pattern can use
INT_TYPES: dict[str, tuple[int, bool]] = {
    "i8": (1, True), "i16": (2, True), "i32": (4, True), "i64": (8, True),
    "u8": (1, False), "u16": (2, False), "u32": (4, False), "u64": (8, False),
}
# the float types whose values are read (a dim converted to f32, divided and converted back): struct codes
FLOAT_TYPES: dict[str, str] = {"f16": "e", "f32": "f", "f64": "d"}
MAX_FLOATS = 1 << 16  # a float Const with more values is no part of a shape computation: its values are not read
LFS_MAGIC = b"version https://git-lfs"
_UINT = re.compile(r"[0-9]+")


def element_type(text: str) -> str | None:
    """A Const's ``element_type`` as OpenVINO reads it (``I64`` → ``i64``); None if OpenVINO knows no such type."""
    try:
        return etypes.element_type(text)
    except etypes.ElementTypeError:
        return None


class Weights:
    """Lazy access to one ``.bin``. The file is stat-ed on first use and read with seek/read."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._size: int | None = None
        self._problem: tuple | None = None  # (rule, message) once the file is known to be unusable
        self._checked = False
        self._file = None

    def _check(self) -> None:
        if self._checked:
            return
        self._checked = True
        name = display_path(os.path.basename(self.path))
        try:
            self._file = open_regular(self.path)
            self._size = os.fstat(self._file.fileno()).st_size
            head = self._file.read(len(LFS_MAGIC)) if self._size < 1024 else b""
        except FileNotFoundError:
            self._problem = ("weights-missing", f"{name} does not exist; Const values cannot be read")
            return
        except OSError as e:
            self._problem = ("weights-unreadable", f"{name} cannot be read: {e.strerror or e}")
            return
        if head == LFS_MAGIC:
            self._problem = ("weights-lfs-pointer", (f"{name} is a Git LFS pointer, not the weights; "
                                             "run `git lfs pull` (or check out with LFS enabled)"))
        elif self._size == 0:
            self._problem = ("weights-empty", f"{name} is empty")

    def check_bounds(self, layer: Layer, offset: int, size: int) -> None:
        """Raise IR014 where ``offset + size`` lies past the end of the file (OpenVINO: "Incorrect weights in bin
        file!"); nothing where the file cannot be used (its own problem is told where a value is read)."""
        self._check()
        end = offset + size
        if self._problem is not None or self._size is None or end <= self._size:
            return
        where = (f"offset {offset} is past the end of the {self._size}-byte .bin" if offset >= self._size else
                 f"offset {offset} + size {size} = {end} is past the end of the {self._size}-byte .bin "
                 "(is the .bin truncated, or from another export?)")
        raise ProblemError(Problem("const-out-of-bounds", f"Const {layer.name!r}: {where}", layer.line, layer.ref))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def read(self, layer: Layer, offset: int, size: int, length: int | None = None) -> bytes:
        """``length`` bytes (default ``size``) at ``offset``, once ``offset + size`` is known to lie in the file."""
        self._check()
        if self._problem is not None:
            rule, msg = self._problem
            raise ProblemError(Problem(rule, f"Const {layer.name!r}: {msg}", layer.line, layer.ref))
        assert self._size is not None and self._file is not None
        self.check_bounds(layer, offset, size)
        length = size if length is None else length
        self._file.seek(offset)
        data = self._file.read(length)
        if len(data) != length:
            raise ProblemError(Problem("const-out-of-bounds", f"Const {layer.name!r}: the .bin ended after "
                                     f"{len(data)} of {length} bytes", layer.line, layer.ref))
        return data


def const_shape(layer: Layer) -> tuple[int, ...]:
    """The Const's ``shape`` data attribute ("" is a scalar). Raises ProblemError if malformed."""
    text = layer.data.get("shape")
    if text is None:
        raise ProblemError(Problem("const-invalid-attributes", f"Const {layer.name!r} has no `shape` data attribute",
                                 layer.line, layer.ref))
    text = text.strip()
    if not text:
        return ()
    parts = [t.strip() for t in text.split(",")]
    dims = tuple(int(t) if _UINT.fullmatch(t) and len(t) <= 40 else -1 for t in parts)
    if any(d < 0 or d > UINT64_MAX for d in dims):
        raise ProblemError(Problem("const-invalid-attributes", f"Const {layer.name!r}: shape {clip(text)!r} is not a list of "
                                 "non-negative integers", layer.line, layer.ref))
    return dims


def _count(shape: tuple[int, ...]) -> int:
    """Elements in ``shape``; stops growing past uint64 (no size can match it), so huge shapes stay cheap."""
    if 0 in shape:
        return 0
    count = 1
    for n in shape:
        count *= n
        if count > UINT64_MAX:
            break
    return count


def _memory_size(et: str, count: int) -> int:
    """``ov::util::get_memory_size``, the third number of OpenVINO's message: u3 packs 8 elements in 3 bytes, u6 4
    in 3 bytes, every other type as :func:`etypes.byte_size` (its bit width each, rounded up to whole bytes)."""
    if et == "u3":
        return (count + 7) // 8 * 3
    if et == "u6":
        return (count + 3) // 4 * 3
    return etypes.byte_size(et, count)


def check_const(layer: Layer, weights: Weights, dims: "list[int] | None" = None) -> tuple[str, tuple[int, ...], int, int]:
    """A Const's element type, shape, offset and size, checked as OpenVINO's IR reader checks them before it
    makes the Constant: a known element type, a shape of non-negative integers, a ``size`` that holds the shape's
    elements (``size < (elements * bit width + 7) / 8`` is refused, with OpenVINO's message), a packed string
    tensor's header, ``offset + size`` within the ``.bin``. Raises ProblemError where OpenVINO refuses it.
    ``dims``: the shape, where the caller has read it already."""
    d = layer.data
    et_text = d.get("element_type", "")
    et = element_type(et_text)
    if et is None:
        raise ProblemError(Problem("const-invalid-attributes", f"Const {layer.name!r}: element_type {clip(et_text)!r} is not an "
                                 "OpenVINO element type", layer.line, layer.ref))
    shape = const_shape(layer) if dims is None else tuple(dims)
    try:
        offset = int(d["offset"])
        size = int(d["size"])
    except KeyError as e:
        raise ProblemError(Problem("const-invalid-attributes", f"Const {layer.name!r} is missing the mandatory "
                                 f"attribute {e.args[0]!r}", layer.line, layer.ref)) from None
    except ValueError:
        raise ProblemError(Problem("const-invalid-attributes", f"Const {layer.name!r}: offset/size are not integers",
                                 layer.line, layer.ref)) from None
    if offset < 0 or size < 0:
        raise ProblemError(Problem("const-invalid-attributes", f"Const {layer.name!r}: offset {offset} / size {size} "
                                 "must not be negative", layer.line, layer.ref))
    if offset + size > UINT64_MAX:
        raise ProblemError(Problem("const-out-of-bounds", f"Const {layer.name!r}: offset {offset} + size {size} "
                                 "overflows uint64", layer.line, layer.ref))
    count = _count(shape)
    needed = etypes.byte_size(et, count)
    if size < needed:
        raise ProblemError(Problem("const-size-mismatch", f"Const {layer.name!r}: size {size} is smaller than the "
                                 f"{needed} bytes its shape {clip(list(shape))} of {et} needs; OpenVINO refuses the "
                                 "model (\"Attribute and shape size are inconsistent for Const op!"
                                 f"{size}, {needed}, {_memory_size(et, count) if count <= UINT64_MAX else needed}\")",
                                 layer.line, layer.ref))
    weights.check_bounds(layer, offset, size)
    if et == "string":  # a packed string tensor: an i32 count, count + 1 i32 offsets, the characters
        if size < 4:
            why = "no strings count in the packed string tensor"
        else:
            strings = int.from_bytes(weights.read(layer, offset, size, 4), "little", signed=True)
            header = 4 * (strings + 2)
            why = "header exceeds provided buffer size" if header > size or strings < 0 else ""
            if not why and strings <= 1 << 16:
                ends = struct.unpack(f"<{strings}i", weights.read(layer, offset, size, header)[8:])
                why = "string offset exceeds buffer bounds" if any(e > size - header for e in ends) else ""
        if why:
            raise ProblemError(Problem("const-size-mismatch", f"Const {layer.name!r}: size {size} does not hold its "
                                     f"packed strings; OpenVINO refuses the model (\"Incorrect packed string tensor "
                                     f"format: {why}\")", layer.line, layer.ref))
    return et, shape, offset, size


# How OpenVINO's element iterator unpacks the sub-byte integer types (measured through a Convert on 2026.4.1): u1 eight
# to a byte, the first in the top bit; u2 four to a byte and u4/i4 two, the first in the lowest bits; u3 eight in three
# bytes (two bytes of 2-bit low parts and a byte of top bits, first element first: the top bits of the byte) and u6
# four in three bytes (two bytes of 4-bit low parts, a byte of 2-bit top parts, likewise first element in the top bits)
_SPLIT = {"u3": (8, 2, 1), "u6": (4, 4, 2)}  # elements per 3 bytes, bits of the low part, bits of the high part


def _bits_msb(data: bytes, i: int, width: int) -> int:
    """Element ``i`` of a stream of ``width``-bit fields, the first field in the top bits of the first byte."""
    per = 8 // width
    return (data[i // per] >> (8 - width * (i % per + 1))) & ((1 << width) - 1)


def unpack(et: str, raw: bytes, count: int) -> list[int] | None:
    """The values of ``count`` elements of a sub-byte integer type packed in ``raw`` as OpenVINO's element iterator
    (``Constant::cast_vector``, ``Convert``) reads them; None for a type irreshape does not unpack (nf4)."""
    if et == "u1":
        return [_bits_msb(raw, i, 1) for i in range(count)]
    if et in ("u2", "u4", "i4"):
        width = 2 if et == "u2" else 4
        per, mask = 8 // width, (1 << width) - 1
        out = [(raw[i // per] >> (width * (i % per))) & mask for i in range(count)]
        return [v - 16 if v > 7 else v for v in out] if et == "i4" else out
    if et in _SPLIT:
        per, low, high = _SPLIT[et]
        out = []
        for i in range(count):
            block, j = raw[3 * (i // per): 3 * (i // per) + 3], i % per
            out.append(_bits_msb(block[2:], j, high) << low | _bits_msb(block[:2], j, low))
        return out
    return None


def read_const(layer: Layer, weights: Weights) -> tuple[str, tuple[int, ...], list[float] | None, list[float] | None]:
    """Element type, shape and the values of a Const, read the way OpenVINO reads them: integers, and
    f16/f32/f64 values (up to MAX_FLOATS of them); for the types of :data:`etypes.RAW_READ`, the values the element iterator
    gives (None where irreshape does not decode them) and, last, what ``get_raw_data_as`` reads (None where it
    refuses the type, or reads past the Const's ``size``); no values for any other type or a larger float Const.

    Raises ProblemError with the problem that explains why the values cannot be had.
    """
    et, shape, offset, size = check_const(layer, weights)
    count = _count(shape)
    needed = etypes.byte_size(et, count)
    if et in FLOAT_TYPES:
        if count > MAX_FLOATS:
            return et, shape, [], None
        code = FLOAT_TYPES[et]
        raw = weights.read(layer, offset, size, count * struct.calcsize(code))
        return et, shape, list(struct.unpack(f"<{count}{code}", raw)), None
    if et not in INT_TYPES and et != "boolean" and et not in etypes.RAW_READ:
        return et, shape, [], None
    if count > 1 << 20:
        raise ProblemError(Problem("const-invalid-attributes", f"Const {layer.name!r}: {count} elements is too many for a "
                                 "shape pattern", layer.line, layer.ref))
    if et in etypes.RAW_READ:
        code = etypes.RAW_READ[et]
        if et == "bf16":  # the top half of an f32
            data = weights.read(layer, offset, size, needed)
            vals = [struct.unpack("<f", b"\0\0" + data[i:i + 2])[0] for i in range(0, 2 * count, 2)]
            return et, shape, vals, vals
        raw_values = None
        if code is not None and count <= size:  # a byte per element, within the Const's own bytes
            raw_values = list(struct.unpack(f"<{count}b", weights.read(layer, offset, size, count)))
        packed = _memory_size(et, count)  # u3/u6 in whole blocks of 3 bytes
        values = unpack(et, weights.read(layer, offset, size, packed), count) if packed <= size else None
        return et, shape, values, raw_values
    raw = weights.read(layer, offset, size, needed)
    if et == "boolean":  # a byte each, 0 or 1 (a condition Const); other bytes a Convert reads as int8: not followed
        return et, shape, (None if any(v > 1 for v in raw[:count]) else list(raw[:count])), None
    width, signed = INT_TYPES[et]
    values = [int.from_bytes(raw[i:i + width], "little", signed=signed) for i in range(0, needed, width)]
    return et, shape, values, None
