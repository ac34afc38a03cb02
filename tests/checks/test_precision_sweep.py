"""Precision lies as a careless script writes them, judged against read_model (issue 29): every spelling of a
port's precision on real files (a seeded subset of ``scripts/precision_sweep.py``), the spellings read_model
reads, and what it makes of an IR v10 model's inputs and outputs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from irreshape.checks import check_file
from irreshape.core import etypes
from irtools.handmade import layer, net, param, result

ov = pytest.importorskip("openvino")

from irtools import precisionsweep  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "tests" / "data" / "models"
# small files of several exporters (a v10 one among them where ../shared/wild-ir is beside the clone)
FILES = [MODELS / n for n in ("pt_reshape_half.xml", "pt_view_last.xml", "pt_static_mha.xml", "hf_deberta_v2.xml")]
WILD_V10 = ROOT.parent / "shared" / "wild-ir" / "ET-Technologies__Computer-Pointer-Controller__head-pose-estimation-adas-0001_FP16.xml"


def _sources():
    return FILES + ([WILD_V10] if WILD_V10.exists() else [])


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.name[:40])
def test_every_precision_lie_is_found_on_its_layer(path, tmp_path):
    """One port rewritten to each spelling (of every type, and a few read_model refuses) in each mode: a lie is an
    IR307 on its layer, a spelling read_model refuses its error there, and nothing else changes."""
    source = precisionsweep.Source.read(path)
    assert source is not None
    rng = random.Random(path.name)
    verdicts = [precisionsweep.judge(e, tmp_path) for e in precisionsweep.edits(source, rng, 2, precisionsweep.BRIEF)]
    assert sum(v.lie and not v.refused for v in verdicts) > 5
    assert [f"{v.edit}: {v.why}" for v in verdicts if not v.ok] == []


def _relu(precision: str, version: int = 11) -> str:
    return net([param(0, "x", "2"), layer(1, "y", "Relu", "opset1", {}, ["2"], ["2"]).replace(
        '<port id="1" precision="FP32">', f'<port id="1" precision="{precision}">'), result(2, "2")],
        [(0, 0, 1, 0), (1, 1, 2, 0)]).replace('version="11"', f'version="{version}"')


CANDIDATES = sorted({s for t, row in etypes.TYPES.items()
                     for s in (t, t.upper(), row.precision, row.precision.lower(), t.capitalize())}
                    | {"bool", "BIN", "bin", "U1", "undefined", "UNDEFINED", "UNSPECIFIED", "FP8", "", "FP32 "})


def test_the_spellings_are_those_read_model_reads(tmp_path):
    """An output port's precision read_model does not know makes it refuse the file ("Unsupported element type"):
    irreshape's table knows exactly the spellings it reads, and reports IR303 on the others."""
    wrong = []
    for s in CANDIDATES:
        xml = tmp_path / "s.xml"
        xml.write_text(_relu(s))
        try:
            ov.Core().read_model(str(xml))
            reads = True
        except RuntimeError:
            reads = False
        codes = {f.code for f in check_file(str(xml)).findings}
        if reads != (etypes.from_precision(s) is not None) or (not reads and codes != {"IR303"}):
            wrong.append((s, reads, codes))
    assert not wrong, wrong


TYPES = [t for t in etypes.TYPES if t != "dynamic"]


def _v10(t: str, declared_in: str, declared_out: str) -> str:
    """Parameter of type ``t`` -> Convert to ``t`` -> Result: the Parameter declaring ``declared_in``, the
    Convert (feeding the Result) ``declared_out``."""
    p = etypes.precision(t)
    return net([param(0, "x", "2", t).replace('precision="FP32"', f'precision="{declared_in}"'),
                layer(1, "y", "Convert", "opset1", {"destination_type": t}, ["2"], ["2"], p).replace(
                    '<port id="1" precision="' + p + '">', f'<port id="1" precision="{declared_out}">'),
                result(2, "2").replace('precision="FP32"', f'precision="{declared_out}"')],
               [(0, 0, 1, 0), (1, 1, 2, 0)]).replace('version="11"', 'version="10"')


@pytest.mark.parametrize("t", TYPES)
def test_v10_inputs_and_outputs_declare_their_own_type_or_read_models(t, tmp_path):
    """read_model converts an IR v10 model's inputs (f16 -> f32) and outputs (to i32 or f32), and no others
    (measured here: its model's inputs and outputs against etypes.legacy); a Parameter or a layer feeding a
    Result declaring its own type or the converted one is no lie, any other type is (IR307)."""
    xml = tmp_path / "m.xml"
    xml.write_text(_v10(t, etypes.precision(t), etypes.precision(t)))
    m = ov.Core().read_model(str(xml))
    shown_in, shown_out = (m.inputs[0].get_element_type().get_type_name(),
                           m.outputs[0].get_element_type().get_type_name())
    assert (shown_in, shown_out) == (etypes.legacy(t, True), etypes.legacy(t, False))
    other = next(o for o in ("i8", "f64") if o not in (t, shown_in, shown_out))
    for din in {t, shown_in, other}:
        for dout in {t, shown_out, other}:
            xml.write_text(_v10(t, etypes.precision(din), etypes.precision(dout)))
            found = {f.layer.id for f in check_file(str(xml)).findings if f.code == "IR307"}
            assert found == {lid for lid, d in (("0", din), ("1", dout)) if d == other}, (din, dout)


def test_v11_inputs_and_outputs_are_not_converted(tmp_path):
    """The same file as IR v11: read_model converts nothing, so an f16 Parameter declaring FP32 lies."""
    xml = tmp_path / "m.xml"
    xml.write_text(_v10("f16", "FP32", "FP16").replace('version="10"', 'version="11"'))
    assert ov.Core().read_model(str(xml)).inputs[0].get_element_type().get_type_name() == "f16"
    assert [(f.code, f.layer.id) for f in check_file(str(xml)).findings] == [("IR307", "0")]


def test_explain_tells_a_converted_output_from_a_lie(tmp_path):
    """`explain` on an IR v10 output declaring what read_model converts it to: no "(differs)"; on a lie: one."""
    from irreshape.explain import explain

    xml = tmp_path / "m.xml"
    xml.write_text(_v10("f16", "FP16", "FP32"))
    assert not [s for s in explain(str(xml), "y") if "(differs)" in str(s)]
    xml.write_text(_v10("f16", "FP16", "I8"))
    assert [s for s in explain(str(xml), "y") if "(differs)" in str(s)]
