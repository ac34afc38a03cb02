"""IR307 precision-mismatch: a lying precision is found on its layer, once; real files get it only where the
declared precision is not OpenVINO's type; --fix rewrites the attribute alone."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from irreshape.checks import check_file
from irreshape.core.etypes import from_precision
from irreshape.fixers import fix_file
from irreshape.frontends.openvino import parse
from irtools.typeoracle import own_types

ROOT = Path(__file__).resolve().parents[2]
MODELS = sorted((ROOT / "tests" / "data" / "models").glob("*.xml"))
WILD = sorted((ROOT.parent / "shared" / "wild-ir").glob("*.xml"))


def _findings(path: Path, code: str = "IR307"):
    result = check_file(str(path))
    return result, [f for f in result.findings if f.code == code]


def _lie(src: Path, dst: Path, rng: random.Random) -> tuple[str, str]:
    """Copy ``src`` to ``dst`` with one taken output port's precision changed, its consumers' input ports to match:
    (the layer's id, the new precision)."""
    model = parse(str(src))
    model.link()
    candidates = [(layer, port) for layer in model.layers.values() if layer.kind not in ("const",)
                  for port in layer.outputs if port.precision is not None and model.consumers(layer.id, port.id)]
    layer, port = rng.choice(candidates)
    new = "I8" if from_precision(port.precision) != "i8" else "FP16"
    lines = src.read_bytes().splitlines(keepends=True)
    targets = [port.line] + [p.line for _, p in model.consumers(layer.id, port.id)]
    for n in targets:
        lines[n - 1] = re.sub(rb' precision="[^"]*"', b' precision="' + new.encode() + b'"', lines[n - 1], count=1)
    dst.write_bytes(b"".join(lines))
    shutil.copyfile(src.with_suffix(".bin"), dst.with_suffix(".bin"))
    return layer.id, new


@pytest.mark.parametrize("seed", range(6))
def test_one_lying_port_one_finding_on_its_layer(tmp_path, seed):
    rng = random.Random(seed)
    src = rng.choice(MODELS)
    _, before = _findings(src)
    dst = tmp_path / src.name
    lid, new = _lie(src, dst, rng)
    result, after = _findings(dst)
    added = [f for f in after if (f.layer.id, f.message) not in {(b.layer.id, b.message) for b in before}]
    assert [f.layer.id for f in added] == [lid]
    assert {f.code for f in result.findings if f.severity == "error"} == set()
    # --fix rewrites the attribute back, and only it
    fixed = fix_file(result, write=True, skip=lambda i: False)
    assert fixed.written and not fixed.error
    assert not [f for f in _findings(dst)[1] if f.layer.id == lid]
    changed = [(a, b) for a, b in zip(src.read_bytes().splitlines(), dst.read_bytes().splitlines()) if a != b]
    assert all(re.sub(rb' precision="[^"]*"', b"", a) == re.sub(rb' precision="[^"]*"', b"", b) for a, b in changed)


def _openvino_types(path: Path):
    """(each output port's own type in read_model's model, looking through the Converts it adds to an IR v10
    model's inputs and outputs; {port: the type read_model hands the user there, where it converts one})."""
    ov = pytest.importorskip("openvino")
    try:
        ovm = ov.Core().read_model(str(path))
    except RuntimeError:
        pytest.skip("read_model refuses this file")
    model = parse(str(path))
    model.link()
    by_name = {layer.name: layer for layer in model.layers.values()}
    converted = {}
    for node in ovm.get_parameters():
        layer = by_name.get(node.get_friendly_name())
        if layer is not None and layer.outputs:
            converted.setdefault((layer.id, layer.outputs[0].id), set()).add(node.get_element_type().get_type_name())
    for node in ovm.get_results():
        layer = by_name.get(node.get_friendly_name())
        src = layer.inputs[0].source if layer is not None and layer.inputs else None
        if src is not None:
            converted.setdefault((src.layer.id, src.id), set()).add(node.get_element_type().get_type_name())
    return own_types(str(path), ovm), converted


@pytest.mark.parametrize("path", WILD + MODELS, ids=lambda p: p.name)
def test_real_files_warn_where_a_layer_declares_other_than_it_computes(path):
    """IR307 on an output port exactly where its precision is neither the layer's own type in read_model's
    model nor (an IR v10 model's input or output) the type read_model hands the user there: the IR v10
    conversion of inputs and outputs is no lie, nor is the precision of an output nothing takes (Model
    Optimizer's FP32 MaxPool indices)."""
    types, converted = _openvino_types(path)
    model = parse(str(path))
    _, found = _findings(path)
    flagged = set()
    for f in found:
        m = re.search(r"output port (\S+) declares precision", f.message)
        if m is not None and (f.layer.id, m.group(1)) in types:  # (a layer read_model drops cannot be told)
            flagged.add((f.layer.id, m.group(1)))
    lies = {(layer.id, port.id) for layer in model.layers.values() for port in layer.outputs
            if port.precision is not None and (layer.id, port.id) in types and model.consumers(layer.id, port.id)
            and from_precision(port.precision) not in {types[(layer.id, port.id)],
                                                       *converted.get((layer.id, port.id), ())}}
    assert flagged == lies


def test_an_output_nothing_takes_is_not_judged_one_taken_is(tmp_path):
    """MaxPool-8's indices declared FP32 (as Model Optimizer and POT wrote them): no IR307 where no edge leaves
    the port, IR307 where a layer takes it."""
    ov = pytest.importorskip("openvino")
    from openvino import opset8

    for taken in (False, True):
        x = opset8.parameter([1, 2, 4, 4], ov.Type.f32, name="x")
        pool = opset8.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2], name="pool")
        outs = [opset8.result(pool.output(0))] + ([opset8.result(opset8.convert(pool.output(1), "f32"))]
                                                  if taken else [])
        path = tmp_path / f"pool_{taken}.xml"
        ov.save_model(ov.Model(outs, [x]), str(path))
        text = path.read_text()
        head = text.index('<layer id="1" name="pool"')
        port = text.index('<port id="2" precision="I64"', head)
        path.write_text(text[:port] + text[port:].replace('precision="I64"', 'precision="FP32"', 1))
        found = [(f.layer.name, f.message) for f in _findings(path)[1]]
        assert [name for name, _ in found] == (["pool"] if taken else []), found


EXAMPLES = ROOT / "examples" / "ir"


def _edited(tmp_path: Path, name: str, old: str, new: str, count: int = 1) -> Path:
    src = EXAMPLES / name
    dst = tmp_path / name
    text = src.read_text()
    assert text.count(old) >= count
    dst.write_text(text.replace(old, new, count))
    shutil.copyfile(src.with_suffix(".bin"), dst.with_suffix(".bin"))
    return dst


def _lint_fix(path: Path, *args: str):
    from lintkit import irreshape

    return irreshape("check", "--fix", "--output-format", "concise", *args, str(path))


def test_fix_leaves_a_suppressed_precision_alone(tmp_path):
    """IR101 and IR307 on one layer: --fix with IR307 ignored rewrites the dims, not the precision."""
    xml = _edited(tmp_path, "bad_wrong_dim.xml", '<port id="2" precision="FP32" names="flatten">',
                  '<port id="2" precision="FP16" names="flatten">')
    assert {f.code for f in check_file(str(xml)).findings} >= {"IR101", "IR307"}
    _lint_fix(xml, "--ignore", "IR307")
    text = xml.read_text()
    assert "<dim>47</dim>" not in text and 'precision="FP16" names="flatten"' in text
    _lint_fix(xml)
    assert 'precision="FP16"' not in xml.read_text()


def test_fix_rewrites_an_input_port_only_precision(tmp_path):
    """An input port declaring neither its producer's precision nor its type: IR307 on the consumer, fixed."""
    xml = _edited(tmp_path, "ok_flatten_static.xml", '<port id="1" precision="I64">', '<port id="1" precision="I32">')
    found = [f for f in check_file(str(xml)).findings if f.code == "IR307"]
    assert len(found) == 1 and "input port 1" in found[0].message
    _lint_fix(xml, "--ignore", "IR307")
    assert 'precision="I32"' in xml.read_text()
    _lint_fix(xml)
    assert 'precision="I32"' not in xml.read_text()
    assert not [f for f in check_file(str(xml)).findings if f.code == "IR307"]


def _shared_const(path: Path):
    """The second of two Consts with equal <data> and dims in ``path`` (the check's verdict for the first serves
    the second), or None."""
    model = parse(str(path))
    seen = set()
    for layer in sorted(model.layers.values(), key=lambda lay: lay.line):
        if layer.kind == "const" and len(layer.outputs) == 1 and layer.outputs[0].precision is not None:
            key = (id(layer.data), id(layer.outputs[0].dims))  # the parser shares both between equal Consts
            if key in seen:
                return layer
            seen.add(key)
    return None


@pytest.mark.parametrize("spelling", ["BOOL", "U8"])
def test_a_lying_const_that_shares_its_data_is_found_and_fixed(tmp_path, spelling):
    """A Const like one found ok (one <data>, one dims) whose own precision lies: IR307 on it, and --fix rewrites
    its precision (the verdict shared between such Consts is not the lying one's)."""
    src, const = next((p, c) for p in MODELS if (c := _shared_const(p)) is not None)
    dst = tmp_path / src.name
    lines = src.read_bytes().splitlines(keepends=True)
    port = const.outputs[0]
    lines[port.line - 1] = re.sub(rb' precision="[^"]*"', f' precision="{spelling}"'.encode(), lines[port.line - 1])
    dst.write_bytes(b"".join(lines))
    shutil.copyfile(src.with_suffix(".bin"), dst.with_suffix(".bin"))
    result, found = _findings(dst)
    assert [f.layer.id for f in found] == [const.id]
    fixed = fix_file(result, write=True, skip=lambda i: False)
    assert fixed.written and not fixed.error
    assert dst.read_bytes() == src.read_bytes()


def _lying_ports(kinds: tuple[str, ...]):
    """(model, layer id, output port) of the first layer of each kind in ``kinds`` whose first output port
    declares FP32, across tests/data/models and tests/data/today."""
    seen = set()
    for path in MODELS + sorted((ROOT / "tests" / "data" / "today").glob("*.xml")):
        model = parse(str(path))
        for layer in model.layers.values():
            if layer.kind in kinds and layer.kind not in seen and layer.outputs \
                    and layer.outputs[0].precision == "FP32":
                seen.add(layer.kind)
                yield pytest.param(path, layer.id, layer.outputs[0], id=f"{layer.type}-{path.stem}")


@pytest.mark.parametrize("layers", ["reshape", "all"])
@pytest.mark.parametrize("path,lid,port", list(_lying_ports(("unsqueeze", "squeeze", "reshape", "add",
                                                                "multiply", "convert"))))
def test_a_layer_whose_precision_lies_is_no_ok_verdict(tmp_path, path, lid, port, layers):
    """A layer whose dims are OpenVINO's and whose output precision lies (FP32 declared BOOL) is ``mismatch``
    wherever the report lists it, its port showing both types, never ``ok``; --fix rewrites it and counts it
    fixed; the Reshape family's verdict carries its port's types in the default list too."""
    from irreshape.core.results import Options

    dst = tmp_path / path.name
    lines = path.read_bytes().splitlines(keepends=True)
    lines[port.line - 1] = lines[port.line - 1].replace(b'precision="FP32"', b'precision="BOOL"', 1)
    dst.write_bytes(b"".join(lines))
    shutil.copyfile(path.with_suffix(".bin"), dst.with_suffix(".bin"))
    result = check_file(str(dst), Options(layers=layers))
    assert [f.layer.id for f in result.findings if f.code == "IR307"] == [lid]
    verdicts = [r for r in (*result.layers, *result.flagged) if r.layer.id == lid]
    assert verdicts and all(r.status.value == "mismatch" for r in verdicts)
    shown = [r.to_json() for r in result.layers if r.layer.id == lid]
    assert all(o["declared_type"] == "BOOL" and o["expected_type"] == "FP32"
               for j in shown for o in j["outputs"] if o["port"] == port.id)
    fixed = fix_file(result, write=True, skip=lambda i: False)
    assert [ref.id for ref in fixed.fixed] == [lid] and not fixed.error
    assert dst.read_bytes() == path.read_bytes()
