#!/usr/bin/env python3
"""Build tiny hand-made OpenVINO IR examples in examples/ir/ (needs only openvino + numpy).

    python scripts/make_examples.py            # (re)writes examples/ir/*.xml, *.bin and README.md

``ok_*``  models are built with the ``openvino.opset13`` API and saved with ``openvino.save_model``; their
declared dims are exactly what OpenVINO infers.
``bad_*`` models are byte-level copies of an ``ok_*`` model with exactly one fault, made by editing the
saved XML text (a single ``<dim>`` line or attribute) or the .bin bytes, so all line numbers are kept,
except ``bad_volume_special_zero`` which is built with the API (OpenVINO accepts it: its volume check is
skipped when special_zero=true and the pattern has a 0).

All node names are set explicitly, so the output is byte-identical on every run.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import openvino as ov
from openvino import opset13 as ops

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "examples" / "ir"


# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------

def _named(node: ov.Node, name: str) -> ov.Node:
    node.set_friendly_name(name)
    for out in node.outputs():
        out.get_tensor().set_names({name} if node.get_output_size() == 1 else set())
    return node


def _param(name: str, shape: str) -> ov.Node:
    return _named(ops.parameter(ov.PartialShape(shape), ov.Type.f32, name=name), name)


def _const(name: str, values, dtype=np.int64) -> ov.Node:
    node = ops.constant(np.array(values, dtype=dtype))
    node.set_friendly_name(name)
    return node


def _reshape(name: str, data, pattern, special_zero: bool) -> ov.Node:
    return _named(ops.reshape(data, pattern, special_zero), name)


def _model(name: str, outputs: list[ov.Node], params: list[ov.Node]) -> ov.Model:
    results = []
    for i, node in enumerate(outputs):
        res = ops.result(node)
        res.set_friendly_name(f"out{i}" if len(outputs) > 1 else "out")
        results.append(res)
    return ov.Model(results, params, name)


def _save(model: ov.Model, stem: str) -> Path:
    xml = OUT_DIR / f"{stem}.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    return xml


def _layer_span(text: str, layer_name: str) -> tuple[int, int]:
    m = re.search(r'<layer id="\d+" name="%s" [^>]*>' % re.escape(layer_name), text)
    if not m:
        raise KeyError(layer_name)
    end = text.index("</layer>", m.end())
    return m.start(), end


def _edit_layer(text: str, layer_name: str, pattern: str, repl: str, count: int = 1) -> str:
    """Regex-substitute inside one layer's text only; fails loudly if nothing matched."""
    start, end = _layer_span(text, layer_name)
    body, n = re.subn(pattern, repl, text[start:end], count=count, flags=re.S)
    if n != count:
        raise ValueError(f"{pattern!r} matched {n} times in layer {layer_name!r}")
    return text[:start] + body + text[end:]


def _const_data(text: str, const_name: str) -> tuple[str, int, int]:
    start, end = _layer_span(text, const_name)
    m = re.search(r'element_type="(\w+)" shape="[^"]*" offset="(\d+)" size="(\d+)"', text[start:end])
    assert m, const_name
    return m.group(1), int(m.group(2)), int(m.group(3))


def _copy(src: str, dst: str, xml_edit=None, bin_edit=None) -> None:
    text = (OUT_DIR / f"{src}.xml").read_text()
    data = (OUT_DIR / f"{src}.bin").read_bytes()
    text = text.replace(f'<net name="{src}"', f'<net name="{dst}"', 1)
    if xml_edit:
        text = xml_edit(text)
    if bin_edit:
        data = bin_edit(text, data)
    (OUT_DIR / f"{dst}.xml").write_text(text)
    (OUT_DIR / f"{dst}.bin").write_bytes(data)


# --------------------------------------------------------------------------------------------------
# correct models
# --------------------------------------------------------------------------------------------------

def ok_flatten_static():
    x = _param("x", "2,3,4,4")
    r = _reshape("flatten", x, _const("flatten/shape", [2, -1]), False)          # -> [2,48]
    return _model("ok_flatten_static", [r], [x])


def ok_flatten_dynbatch():
    x = _param("x", "?,3,4,4")
    r = _reshape("flatten", x, _const("flatten/shape", [0, -1]), True)           # -> [?,48]
    return _model("ok_flatten_dynbatch", [r], [x])


def ok_shapeof_heads():
    # head split with a computed pattern: Concat(Gather(ShapeOf(x), [0,1]), [4,8]) -> [?,?,4,8],
    # then merge back with Const [0,0,-1] special_zero -> [?,?,32]
    x = _param("x", "?,?,32")
    shp = ops.shape_of(x, output_type="i64")
    shp.set_friendly_name("heads/shape_of")
    bt = ops.gather(shp, _const("heads/idx", [0, 1]), _const("heads/axis", 0))
    bt.set_friendly_name("heads/batch_time")
    pat = ops.concat([bt, _const("heads/hd", [4, 8])], 0)
    pat.set_friendly_name("heads/pattern")
    split = _reshape("heads/split", x, pat, False)
    tr = ops.transpose(split, _const("heads/perm", [0, 2, 1, 3]))
    tr.set_friendly_name("heads/transpose")
    back = ops.transpose(tr, _const("heads/perm_back", [0, 2, 1, 3]))
    back.set_friendly_name("heads/transpose_back")
    merge = _reshape("heads/merge", back, _const("heads/merge_shape", [0, 0, -1]), True)
    return _model("ok_shapeof_heads", [merge], [x])


def ok_interval_batch():
    x = _param("x", "1..8,6,4")
    r = _reshape("regroup", x, _const("regroup/shape", [0, -1, 2]), True)        # -> [1..8,12,2]
    return _model("ok_interval_batch", [r], [x])


def ok_shared_pattern():
    # one Const layer feeding two Reshapes, plus a second Const whose bytes are deduplicated in the .bin
    x = _param("x", "?,3,4")
    y = _param("y", "?,2,6")
    z = _param("z", "5,2,2")
    shared = _const("shared/shape", [0, -1])
    rx = _reshape("rx", x, shared, True)                                           # -> [?,12]
    ry = _reshape("ry", y, shared, True)                                           # -> [?,12]
    rz = _reshape("rz", z, _const("rz/shape", [0, -1]), True)                      # -> [5,4], same bytes
    return _model("ok_shared_pattern", [rx, ry, rz], [x, y, z])


def bad_volume_special_zero():
    # spec violation that OpenVINO accepts: [2,3,4] (24 elements) -> [0,5] special_zero -> [2,5] (10 elements)
    x = _param("x", "2,3,4")
    r = _reshape("rs", x, _const("rs/shape", [0, 5]), True)
    return _model("bad_volume_special_zero", [r], [x])


@dataclass
class Example:
    name: str
    loads: bool           # does openvino.Core().read_model accept it?
    what: str


EXAMPLES: list[Example] = []


def build() -> list[Example]:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    ex = EXAMPLES
    ex.clear()
    for fn, what in [
        (ok_flatten_static, "[2,3,4,4] + Const [2,-1] -> [2,48]"),
        (ok_flatten_dynbatch, "[?,3,4,4] + Const [0,-1] special_zero -> [?,48]"),
        (ok_shapeof_heads, "[?,?,32] + Concat(Gather(ShapeOf),[4,8]) -> [?,?,4,8]; merge Const [0,0,-1] -> [?,?,32]"),
        (ok_interval_batch, "[1..8,6,4] + Const [0,-1,2] special_zero -> [1..8,12,2] (declared -1,12,2)"),
        (ok_shared_pattern, "one Const [0,-1] layer feeds rx and ry; rz's Const shares its .bin bytes"),
        (bad_volume_special_zero, "[2,3,4] + Const [0,5] special_zero -> [2,5]: 24 vs 10 elements; "
                                  "OpenVINO accepts (volume check skipped)"),
    ]:
        _save(fn(), fn.__name__)
        ex.append(Example(fn.__name__, True, what))

    # ---- single-fault copies (text/bytes edits of the saved files) ----
    _copy("ok_flatten_dynbatch", "bad_wrong_dim",
          lambda t: _edit_layer(t, "flatten", r"(<output>.*?<dim>-1</dim>\s*<dim>)48(</dim>)", r"\g<1>47\2"))
    ex.append(Example("bad_wrong_dim", True,
                      "ok_flatten_dynbatch with layer 'flatten' declaring [-1,47] (inferred [?,48])"))

    _copy("ok_flatten_static", "bad_wrong_rank",
          lambda t: _edit_layer(t, "flatten", r"(<output>.*?\n(\s*)<dim>48</dim>)", r"\1\n\2<dim>1</dim>"))
    ex.append(Example("bad_wrong_rank", True,
                      "ok_flatten_static with layer 'flatten' declaring [2,48,1] (inferred [2,48])"))

    _copy("ok_shapeof_heads", "bad_wrong_dim_shapeof",
          lambda t: _edit_layer(t, "heads/split", r"(<output>.*?<dim>4</dim>\s*<dim>)8(</dim>)", r"\g<1>16\2"))
    ex.append(Example("bad_wrong_dim_shapeof", True,
                      "ok_shapeof_heads with 'heads/split' declaring [-1,-1,4,16] "
                      "(inferred [?,?,4,8], ShapeOf pattern)"))

    _copy("ok_interval_batch", "bad_wrong_dim_interval",
          lambda t: _edit_layer(t, "regroup", r"(<output>.*?<dim>)-1(</dim>)", r"\g<1>9\2"))
    ex.append(Example("bad_wrong_dim_interval", True,
                      "ok_interval_batch with 'regroup' declaring [9,12,2] (inferred [1..8,12,2]: 9 is outside 1..8)"))

    _copy("ok_flatten_dynbatch", "bad_special_zero_flipped",
          lambda t: _edit_layer(t, "flatten", r'special_zero="true"', 'special_zero="false"'))
    ex.append(Example("bad_special_zero_flipped", False,
                      "ok_flatten_dynbatch with special_zero=false: literal 0 with -1 -> \"Cannot infer '-1' ...\""))

    def not_divisible(text: str, data: bytes) -> bytes:
        etype, off, size = _const_data(text, "flatten/shape")
        assert (etype, size) == ("i64", 16) and struct.unpack_from("<2q", data, off) == (2, -1)
        out = bytearray(data)
        struct.pack_into("<2q", out, off, 5, -1)
        return bytes(out)

    _copy("ok_flatten_static", "bad_pattern_not_divisible", bin_edit=not_divisible)
    ex.append(Example("bad_pattern_not_divisible", False,
                      ".bin pattern [2,-1] -> [5,-1]: 96 elements not divisible by 5 (declared dims unchanged)"))

    def truncate(text: str, data: bytes) -> bytes:
        _, off, size = _const_data(text, "flatten/shape")
        assert off + size == len(data)
        return data[:-8]

    _copy("ok_flatten_static", "bad_short_bin", bin_edit=truncate)
    ex.append(Example("bad_short_bin", False, ".bin truncated by 8 bytes: the pattern Const reads past the end"))

    _write_readme(ex)
    return ex


def _write_readme(ex: list[Example]) -> None:
    lines = [
        "# Example IR files",
        "",
        "Generated by `python scripts/make_examples.py` (openvino only); do not edit by hand.",
        "`ok_*` are correct. `bad_*` have exactly one fault. \"loads\" = `openvino.Core().read_model` accepts it",
        "(OpenVINO re-infers Reshape shapes and ignores declared `<dim>`s, so wrong declared dims load silently).",
        "",
        "| file | loads in OpenVINO | what |",
        "|---|---|---|",
    ]
    lines += [f"| `{e.name}.xml` | {'yes' if e.loads else 'no'} | {e.what} |" for e in ex]
    (OUT_DIR / "README.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    for e in build():
        xml = OUT_DIR / f"{e.name}.xml"
        size = xml.stat().st_size + xml.with_suffix(".bin").stat().st_size
        print(f"{e.name:28s} {size:6d} B  loads={e.loads}")
