"""A Const read as a value exactly as openvino 2026.4.1 reads it, for every element type (issue 22).

Each case builds a tiny model with openvino's opset API, saves it, retypes one Const in the XML (its
``element_type`` only: the .bin bytes and ``size`` stay) the way a hand edit does, and judges the file with
``read_model``. Where OpenVINO accepts it, the model is saved again by OpenVINO (its declared dims and precisions
then OpenVINO's own) and irreshape must report no error on it: the consumer's output dims are the values irreshape
read, so packing (u1 first element in the top bit; u2/u4/i4 in the lowest bits; u3/u6 split in blocks of three
bytes) and ``get_raw_data_as`` (i4/u4/nf4 a signed byte each) are checked value by value. Where it refuses the
file, irreshape must report an error ("Element not supported", an invalid order, a division by zero), never IR900.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset13 as o  # noqa: E402

import irreshape  # noqa: E402


def _const(values, dtype, name):
    c = o.constant(np.array(values, dtype=dtype))
    c.set_friendly_name(name)
    return c


def _retype(tmp_path, model, name, et, shape=None) -> str:
    """``model`` saved, Const ``name`` retyped to ``et`` (and its `shape` attribute to ``shape``)."""
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    xml = path.read_text()
    pattern = r'(name="%s" type="Const" version="opset1">\s*<data element_type=")\w+(" shape=")([^"]*)' % name
    assert re.search(pattern, xml), name
    xml = re.sub(pattern, lambda m: m.group(1) + et + m.group(2) + (m.group(3) if shape is None else shape), xml)
    path.write_text(xml)
    return str(path)


def _judge(tmp_path, path: str) -> tuple[str | None, list[str]]:
    """(OpenVINO's refusal or None, irreshape's error codes); an accepted file is judged as OpenVINO saves it again."""
    core = ov.Core()
    try:
        model = core.read_model(path)
    except Exception as e:  # noqa: BLE001 - any refusal is a verdict
        refused = str(e).strip().splitlines()[-1]
    else:
        refused = None
        path = str(tmp_path / "again.xml")
        ov.save_model(model, path, compress_to_fp16=False)
    report = irreshape.check(path, isolated=True, jobs=1)
    codes = [f.code for file in report.files for f in file.findings if f.severity == "error"]
    return refused, codes


def _agrees(refused, codes) -> bool:
    return "IR900" not in codes and (bool(codes) if refused else not codes)


def _through_convert(raw: bytes, et: str, n: int) -> ov.Model:
    """u8 bytes ``raw`` (retyped below to ``n`` elements of ``et``) -> Convert(i64) -> Broadcast's target shape."""
    x = o.parameter([], np.float32, name="x")
    k = _const(np.frombuffer(raw, dtype=np.uint8), np.uint8, "k")
    return ov.Model([o.broadcast(x, o.convert(k, np.int64))], [x])


# (element type, elements, bytes): every packing, each value read as a dim of the Broadcast's output
UNPACKED = [("u4", 8, b"\x21\x43\x65\x07"), ("i4", 6, b"\x21\x43\x65"), ("u2", 16, b"\x21\x43\x65\x87"),
            ("u1", 32, b"\x21\x43\x65\x87"), ("u3", 8, b"\x21\x43\x65"), ("u3", 5, b"\x21\x43\x65"),
            ("u6", 4, b"\x21\x43\x65"), ("u6", 3, b"\x21\x43\x65"), ("bf16", 2, b"\x00\x40\x80\x3f"),
            ("nf4", 4, b"\x21\x43"), ("f8e4m3", 2, b"\x40\x38"), ("f4e2m1", 4, b"\x21\x43")]


@pytest.mark.parametrize("et,n,raw", UNPACKED, ids=[f"{et}x{n}" for et, n, _ in UNPACKED])
def test_convert_unpacks_as_openvino(tmp_path, et, n, raw):
    path = _retype(tmp_path, _through_convert(raw, et, n), "k", et, str(n))
    refused, codes = _judge(tmp_path, path)
    assert refused is None  # every one loads: the values (or `?` where OpenVINO has none) are its dims
    assert codes == [], (et, codes)


def _consumer(kind: str, values, dtype) -> ov.Model:
    """A Const ``c`` read as a value by ``kind``."""
    x = o.parameter([2, 10, 1], np.float32, name="x")
    c = _const(values, dtype, "c")
    if kind == "transpose":
        out = o.transpose(x, c)
    elif kind == "unsqueeze":
        out = o.unsqueeze(x, c)
    elif kind == "reshape":
        out = o.reshape(x, c, True)
    else:  # a Gather axis in a shape subgraph, then a Reshape pattern
        dims = o.gather(o.shape_of(x), _const([0, 1], np.int64, "i"), c)
        out = o.reshape(x, o.concat([dims, _const([-1], np.int64, "m")], 0), False)
    return ov.Model([out], [x])


# (consumer, the Const's values and type, the types it is retyped to)
RETYPED = [("transpose", [1, 0, 2], np.int64, ["u4", "i4", "nf4", "u1", "u3", "u6", "boolean", "bf16", "f8e8m0"]),
           ("transpose", [0, 2, 1], np.int32, ["u4", "i4", "u2", "i16", "u8"]),
           ("unsqueeze", 1, np.int64, ["f8e4m3", "f4e2m1", "boolean", "bf16", "f16", "u4", "i4", "u2"]),
           ("reshape", [0, 5, 4], np.int64, ["u4", "nf4", "i8", "u1"]),
           ("gather_axis", 0, np.int64, ["f8e5m2", "u6", "i4", "bf16", "f64"])]
CASES = [(kind, values, dtype, et) for kind, values, dtype, ets in RETYPED for et in ets]


@pytest.mark.parametrize("kind,values,dtype,et", CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_consumer_reads_a_retyped_const_as_openvino(tmp_path, kind, values, dtype, et):
    path = _retype(tmp_path, _consumer(kind, values, dtype), "c", et)
    refused, codes = _judge(tmp_path, path)
    assert _agrees(refused, codes), (refused, codes)


def _division(op: str, dtype, dynamic: bool) -> ov.Model:
    """dim 1 of x (6) divided by the Const ``d`` (4, zeroed below) in a VariadicSplit's split lengths."""
    x = o.parameter([-1 if dynamic else 2, 6], np.float32, name="x")
    dim = o.gather(o.shape_of(x), _const([1], np.int64, "i"), _const(0, np.int64, "a"))
    if dtype != np.int64:
        dim = o.convert(dim, dtype)
    d = _const([4], dtype, "d")
    r = {"divide": o.divide, "mod": o.mod, "floor_mod": o.floor_mod}[op](dim, d)
    if dtype != np.int64:
        r = o.convert(r, np.int64)
    lengths = o.concat([_const([-1], np.int64, "m"), r], 0)
    return ov.Model(o.variadic_split(x, _const(1, np.int64, "ax"), lengths).outputs(), [x])


@pytest.mark.parametrize("op,dtype,dynamic", [("divide", np.int64, False), ("divide", np.int32, True),
                                              ("mod", np.int64, False)])
def test_division_by_zero_in_a_shape_subgraph(tmp_path, op, dtype, dynamic):
    path = tmp_path / "m.xml"
    ov.save_model(_division(op, dtype, dynamic), str(path), compress_to_fp16=False)
    m = re.search(r'name="d" type="Const" version="opset1">\s*<data element_type="\w+" shape="1" offset="(\d+)" '
                  r'size="(\d+)"', path.read_text())
    off, size = int(m.group(1)), int(m.group(2))
    bin_path = path.with_suffix(".bin")
    data = bytearray(bin_path.read_bytes())
    data[off:off + size] = bytes(size)
    bin_path.write_bytes(bytes(data))
    refused, codes = _judge(tmp_path, str(path))
    assert _agrees(refused, codes), (refused, codes)
