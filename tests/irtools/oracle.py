"""OpenVINO as the reference implementation ("oracle") for Reshape output shapes.

Everything here goes through ``openvino`` (2026.4.x), which CI has. Nothing needs torch.

* :func:`reshape_outputs` - ``{Reshape IR name: str(inferred output PartialShape)}`` for an IR file, as
  ``openvino.Core().read_model`` recomputes it (declared ``<dim>`` values are ignored by OpenVINO).
* :func:`outputs_by_type` - the same for any set of op types (case-insensitive).
* :func:`reshape_outputs_by_id` - the same keyed by the IR layer ``id`` (string), via the IR names.
* :func:`read_model_bytes` / :func:`reshape_outputs_from_bytes` - for in-memory (corrupted) IR pairs.
* :func:`ov_infer_reshape` - one Reshape built in memory, for differential tests against the linter's own
  shape arithmetic. Cheap: no Model, no save, only three nodes per call.
* :func:`pattern_sources` - what feeds port 1 of each Reshape (``"Const"`` or the producer's op type).

Shape strings are ``str(openvino.PartialShape)``: ``[?,12]``, ``[1..8,2,3]``, ``[...]`` (dynamic rank),
``[]`` (scalar).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable

import numpy as np
import openvino as ov
from openvino import opset13 as _ops

__all__ = [
    "core",
    "read_model",
    "read_model_bytes",
    "outputs_by_type",
    "reshape_outputs",
    "reshape_outputs_by_id",
    "reshape_outputs_from_bytes",
    "ir_name_to_id",
    "pattern_sources",
    "ov_infer_reshape",
    "is_error",
    "error_last_line",
]


@functools.lru_cache(maxsize=1)
def core() -> ov.Core:
    """One shared ``openvino.Core`` (creating a Core is relatively slow)."""
    return ov.Core()


def read_model(xml_path: str | os.PathLike) -> ov.Model:
    """``Core().read_model(xml_path)``; the ``.bin`` next to it is found by OpenVINO."""
    return core().read_model(os.fspath(xml_path))


def read_model_bytes(xml: bytes | str, bin: bytes | None = None) -> ov.Model:
    """Read an IR pair held in memory (e.g. the output of :mod:`tests.irtools.corrupt`).

    ``bin=None`` or ``b""`` reads the XML without weights (OpenVINO then fails on the first Const with
    ``Empty weights data in bin file or bin file cannot be found!``).
    """
    if isinstance(xml, bytes):
        xml = xml.decode("utf-8")
    if bin:
        weights = ov.Tensor(np.frombuffer(bin, dtype=np.uint8).copy())
    else:
        weights = ov.Tensor(ov.Type.u8, ov.Shape([0]))
    return core().read_model(model=xml, weights=weights)


def _outputs_of_model(model: ov.Model, types: Iterable[str]) -> dict[str, str]:
    wanted = {t.lower() for t in types}
    out: dict[str, str] = {}
    for node in model.get_ordered_ops():
        if node.get_type_name().lower() in wanted:
            shapes = [str(node.get_output_partial_shape(i)) for i in range(node.get_output_size())]
            out[node.get_friendly_name()] = shapes[0] if len(shapes) == 1 else ";".join(shapes)
    return out


def outputs_by_type(xml_path: str | os.PathLike, types: Iterable[str] = ("Reshape",)) -> dict[str, str]:
    """``{friendly name (= IR layer name): inferred output partial shape string}`` for every node whose
    OpenVINO type name matches one of ``types`` case-insensitively (``"reshape"`` == ``"Reshape"``).

    Nodes with several outputs get their shapes joined with ``;``. Only layers reachable from a Result/Assign
    exist after ``read_model``; dangling layers in the XML are absent from the result.
    Raises whatever ``read_model`` raises (e.g. a shape-inference error for an invalid pattern).
    """
    return _outputs_of_model(read_model(xml_path), types)


def reshape_outputs(xml_path: str | os.PathLike) -> dict[str, str]:
    """``{Reshape IR name: str(output PartialShape)}``, e.g. ``{"r1": "[?,12]", "r2": "[1..8,2,3]"}``."""
    return outputs_by_type(xml_path, ("Reshape",))


def reshape_outputs_from_bytes(xml: bytes | str, bin: bytes | None = None,
                               types: Iterable[str] = ("Reshape",)) -> dict[str, str]:
    """:func:`outputs_by_type` for an IR pair held in memory."""
    return _outputs_of_model(read_model_bytes(xml, bin), types)


def _xml_bytes(xml: bytes | str | os.PathLike) -> bytes:
    """XML content from bytes, an XML string (starting with ``<``), or a path."""
    if isinstance(xml, (bytes, bytearray)):
        return bytes(xml)
    if isinstance(xml, str) and xml.lstrip().startswith("<"):
        return xml.encode("utf-8")
    with open(xml, "rb") as f:
        return f.read()


_LAYER_TAG = re.compile(rb"<layer\b([^>]*)>")
_ATTR = re.compile(rb'([\w:-]+)="([^"]*)"')


def ir_name_to_id(xml: bytes | str | os.PathLike) -> dict[str, str]:
    """``{IR layer name: IR layer id}`` for the top-level layers of an IR (path or XML bytes/str).

    Layer names are unique in IR written by OpenVINO; if a name repeats, the first layer wins.
    Layers inside Loop/TensorIterator bodies are skipped.
    """
    data = _xml_bytes(xml)
    result: dict[str, str] = {}
    depth = 0
    for m in re.finditer(rb"<(/?)(layers|body)\b[^>]*?(/?)>|" + _LAYER_TAG.pattern, data):
        if m.group(2):
            if m.group(3):
                continue
            depth += -1 if m.group(1) else 1
            continue
        if depth != 1:
            continue
        attrs = dict(_ATTR.findall(m.group(4)))
        name = attrs.get(b"name", b"").decode()
        lid = attrs.get(b"id", b"").decode()
        result.setdefault(name, lid)
    return result


def reshape_outputs_by_id(xml_path: str | os.PathLike) -> dict[str, str]:
    """Like :func:`reshape_outputs` but keyed by IR layer ``id`` (a string, as in the XML)."""
    by_name = reshape_outputs(xml_path)
    ids = ir_name_to_id(xml_path)
    return {ids.get(name, name): shape for name, shape in by_name.items()}


def pattern_sources(xml_path: str | os.PathLike) -> dict[str, str]:
    """``{Reshape IR name: producer of port 1}``, the producer given as ``"Const"`` (an OpenVINO Constant,
    shown with its values, e.g. ``"Const[0,-1]"``) or its op type name (``"Concat"``, ``"ShapeOf"``...)."""
    result: dict[str, str] = {}
    for node in read_model(xml_path).get_ordered_ops():
        if node.get_type_name().lower() != "reshape":
            continue
        src = node.input(1).get_source_output().get_node()
        if src.get_type_name() == "Constant":
            vals = ",".join(str(v) for v in np.asarray(src.get_data()).reshape(-1).tolist())
            result[node.get_friendly_name()] = f"Const[{vals}]"
        else:
            result[node.get_friendly_name()] = src.get_type_name()
    return result


# --------------------------------------------------------------------------------------------------
# One-op differential oracle
# --------------------------------------------------------------------------------------------------

_NP_DTYPES = {
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "boolean": np.bool_,
}


@functools.lru_cache(maxsize=4096)
def _partial_shape(s: str) -> ov.PartialShape:
    return ov.PartialShape(s)


def _ov_type(name: str) -> ov.Type:
    key = {"bool": "boolean"}.get(name.lower(), name.lower())
    t = getattr(ov.Type, key, None)
    if not isinstance(t, ov.Type):
        raise ValueError(f"unknown element type {name!r}")
    return t


def error_last_line(exc: BaseException) -> str:
    """Last non-empty line of an OpenVINO exception message (the human-readable reason)."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return lines[-1] if lines else type(exc).__name__


def is_error(result: str) -> bool:
    """True if an :func:`ov_infer_reshape` result is an error message rather than a shape (shapes start with ``[``)."""
    return not result.startswith("[")


def _pattern_constant(values: list[int], dtype: str, shape: list[int] | None) -> ov.Node:
    shp = [len(values)] if shape is None else list(shape)
    np_dtype = _NP_DTYPES.get(dtype.lower())
    if np_dtype is not None:
        if np.issubdtype(np_dtype, np.unsignedinteger):
            # -1 -> 2**64-1 etc.: the same bytes OpenVINO would read from a .bin
            arr = np.array([int(v) % (1 << (8 * np.dtype(np_dtype).itemsize)) for v in values], dtype=np_dtype)
        else:
            arr = np.array(values, dtype=np_dtype)
        return ov.op.Constant(arr.reshape(shp))
    # i4/u4/u1/... : let OpenVINO pack the values
    return ov.op.Constant(_ov_type(dtype), ov.Shape(shp), [int(v) for v in values])


def ov_infer_reshape(input_partial_shape_str: str, pattern_values: list[int], pattern_dtype: str = "i64",
                     special_zero: bool = False, *, pattern_shape: list[int] | None = None) -> str:
    """Build ``Parameter(f32, input shape) -> Reshape(Const pattern)`` in memory and return OpenVINO's
    inferred output shape as ``str(PartialShape)`` (``"[2,12]"``, ``"[?,5]"``, ``"[1..5,8]"``, ``"[...]"``),
    or, if construction fails, the last line of the error message (e.g.
    ``"Non-'-1' output dimensions do not evenly divide the input dimensions"``). Use :func:`is_error`.

    ``input_partial_shape_str`` uses OpenVINO's PartialShape syntax: ``"?,3,4"``, ``"[1..8,?,32]"``,
    ``"..."`` (dynamic rank), ``""`` (scalar). ``pattern_dtype`` is an OpenVINO type name (``i64``, ``i32``,
    ``u8``, ``u64``, ``i4``, ``f32``, ``boolean``...); negative values for unsigned types wrap
    (``-1`` as ``u64`` is ``2**64-1``). ``pattern_shape`` overrides the 1-D pattern shape (e.g. ``[]`` for a
    scalar pattern, ``[2, 1]`` for a 2-D one). Takes ~tens of microseconds per call.
    """
    try:
        param = ov.op.Parameter(ov.Type.f32, _partial_shape(input_partial_shape_str))
        const = _pattern_constant(pattern_values, pattern_dtype, pattern_shape)
        node = _ops.reshape(param, const, bool(special_zero))
        return str(node.get_output_partial_shape(0))
    except Exception as exc:  # noqa: BLE001 - any OpenVINO error is a result here
        return error_last_line(exc)
