"""oneDNN Graph JSON documents: the shared graphs, corruptions of them, oneDNN's rules, and `--fix`.

The expected shapes come from the data README's table (written independently of irreshape), and the
five inputs that the files leave unknown from the README's own propagation.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from irreshape.core.dims import Dim, format_shape, parse_shape
from irreshape.shapes.onednn import infer_output, onednn_reshape
from irreshape.shapes.reshape import Bound, ReshapeError, reshape_v1
from irreshape.checks.onednn import check_path as check_json
from irreshape.frontends.onednn import JSONError, is_onednn_json, parse_json
from irreshape.fixers.onednn import fix_text
from irreshape.report.machine import file_json

DATA = Path(__file__).resolve().parents[1] / "data" / "onednn"
FILES = sorted(p.name for p in DATA.glob("*.json"))
GQA_BAD = "complex_fusion__mha-f32-softmax__GQA-fp16-softmax-f32.json"
UNKNOWN = -(1 << 63)

# README §"Check against the reshape rule": inputs of the ops whose input is `?` in the file.
INFERRED_INPUTS = {
    ("repo-root__gemma_4d.json", "6"): [16, 128, 1, 128],
    ("repo-root__gemma_5d.json", "1"): [16, 128, 128],
    ("repo-root__gemma_5d.json", "6"): [1, 16, 128, 1, 128],
    ("repo-root__gemma_v2_sdpa1.json", "9"): [1, 8, 31, 2, 31],
    ("repo-root__gemma_v2_sdpa2.json", "9"): [1, 8, 31, 2, 1],
}
_ROW = re.compile(r"^\| `([^`]+\.json)` \|.*\| (\d+) \| (.*) \|$")
_OP = re.compile(r"#(\d+) (\w+): in \[([^\]]*)\], shape=\[([^\]]*)\], special_zero=(\w+) → out \[([^\]]*)\]")


def _dims(text: str) -> list[int] | None:
    return None if text == "?" else [int(v) for v in text.split(",")]


def readme_table() -> dict[str, dict[str, dict]]:
    """file → op id → {dtype, input, shape, special_zero, output}, from the data README."""
    table: dict[str, dict[str, dict]] = {}
    for line in (DATA / "README.md").read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            ops = {o[0]: {"dtype": o[1], "input": _dims(o[2]), "shape": _dims(o[3]), "special_zero": o[4] == "true",
                          "output": _dims(o[5])} for o in _OP.findall(m.group(3))}
            assert len(ops) == int(m.group(2))
            table[m.group(1)] = ops
    return table


TABLE = readme_table()
OPS = [(f, op_id) for f in sorted(TABLE) for op_id in TABLE[f]]


def true_input(f: str, op_id: str) -> list[int]:
    return INFERRED_INPUTS.get((f, op_id)) or TABLE[f][op_id]["input"]


def true_output(f: str, op_id: str) -> list[int]:
    return TABLE[f][op_id]["output"] or TABLE[f][op_id]["shape"]  # no -1 and no 0 where the output is `?`


def test_readme_table_covers_the_data():
    assert sorted(TABLE) == FILES
    assert len(OPS) == 54
    assert all(true_output(f, i) is not None for f, i in OPS)


# -- the shared graphs ------------------------------------------------------------------------

@pytest.mark.parametrize("name", FILES)
def test_shared_graph_checks_clean(name):
    r = check_json(str(DATA / name))
    assert r is not None
    assert sorted(layer.layer.id for layer in r.layers) == sorted(TABLE[name])
    for layer in r.layers:
        assert layer.status == "ok", (layer.layer.id, layer.steps)
        assert layer.to_json()["expected"] == true_output(name, layer.layer.id)
        assert layer.input_shape is not None
        assert [d.lo for d in layer.input_shape] == true_input(name, layer.layer.id)
    if name != GQA_BAD:
        assert r.findings == []
    else:  # tensor id 18: TypeCast 103 makes it [32,2,8,384,384], StaticReshape 21 reads [32,2,384,64]
        assert [(f.code, f.severity, f.layer.id) for f in r.findings] == [("IR201", "error", "21")]
        assert "[32,2,384,64]" in r.findings[0].message and "[32,2,8,384,384]" in r.findings[0].message


@pytest.mark.parametrize("name", FILES)
def test_layers_follow_the_json_contract(name):
    text = (DATA / name).read_text().splitlines()
    doc = file_json(check_json(str(DATA / name)))
    kinds = {str(op["id"]): op["kind"] for op in json.loads((DATA / name).read_text())["graph"]}
    for layer in doc["layers"]:
        assert isinstance(layer["id"], str) and layer["type"] == kinds[layer["id"]] == "StaticReshape"
        assert text[layer["line"] - 1].strip() == "{"  # the line where the op starts
        assert text[layer["line"]].strip() == f'"id": {layer["id"]},'
    for f in doc["findings"]:
        assert f["layer"]["type"] == "StaticReshape"


# -- corruptions ---------------------------------------------------------------------------------

def _op(doc: dict, op_id: str) -> dict:
    return next(op for op in doc["graph"] if str(op["id"]) == op_id)


def _producer(doc: dict, tid: int) -> dict | None:
    return next((op for op in doc["graph"] for t in op["outputs"] if t["id"] == tid), None)


def _consumer_copy(doc: dict, tid: int) -> dict | None:
    return next((t for op in doc["graph"] for t in op["inputs"] if t["id"] == tid), None)


def _check(tmp_path, name: str, edit):
    doc = json.loads((DATA / name).read_text())
    edit(doc)
    path = tmp_path / name
    path.write_text(json.dumps(doc, indent=2))
    return check_json(str(path))


def _only_on(r, op_id: str, name: str) -> dict:
    """Assert no other op has an error or a warning (GQA_BAD's op 21 keeps its own); return op_id's layer.

    Another op may become `unverified` (info) when the corrupted op was what its input is inferred from.
    """
    allowed = {op_id} | ({"21"} if name == GQA_BAD else set())
    assert {f.layer.id for f in r.findings if f.severity != "info"} <= allowed, [f.message for f in r.findings]
    assert all(layer.status in ("ok", "unverified") for layer in r.layers if layer.layer.id not in allowed)
    return next(layer.to_json() for layer in r.layers if layer.layer.id == op_id)


def _codes(r, op_id: str) -> set[str]:
    """The error codes on ``op_id``, less the one GQA_BAD's op 21 has anyway."""
    codes = [f.code for f in r.findings if f.layer.id == op_id and f.severity == "error"]
    if r.path.endswith(GQA_BAD) and op_id == "21":
        codes.remove("IR201")
    return set(codes)


@pytest.mark.parametrize("name,op_id", OPS)
def test_corrupt_output_shape(tmp_path, name, op_id):
    want = true_output(name, op_id)
    wrong = [want[0] + 1] + want[1:]
    r = _check(tmp_path, name, lambda d: _op(d, op_id)["outputs"][0].update(shape=wrong))
    layer = _only_on(r, op_id, name)
    assert _codes(r, op_id) == {"IR101"}
    assert (layer["status"], layer["declared"], layer["expected"]) == ("mismatch", wrong, want)
    r = _check(tmp_path, name, lambda d: _op(d, op_id)["outputs"][0].update(shape=want + [1]))
    layer = _only_on(r, op_id, name)
    assert _codes(r, op_id) == {"IR102"} and layer["expected"] == want


@pytest.mark.parametrize("name,op_id", OPS)
def test_corrupt_shape_attr(tmp_path, name, op_id):
    attr = TABLE[name][op_id]["shape"]
    r = _check(tmp_path, name, lambda d: _op(d, op_id)["attrs"]["shape"].update(value=attr + [3]))
    layer = _only_on(r, op_id, name)
    assert layer["status"] == "invalid"
    if -1 in attr:  # [-1, 3]: 3 does not divide the element count
        assert _codes(r, op_id) == {"IR103"} and layer["expected"] is None
    else:  # the volume differs; the output the attribute spells out is still the expected one
        assert _codes(r, op_id) == {"IR104"} and layer["expected"] == attr + [3]
    i, j = next(((i, j) for i in range(len(attr)) for j in range(i + 1, len(attr)) if attr[i] != attr[j]),
                (None, None))
    if i is None or TABLE[name][op_id]["output"] is None:
        return  # no two different values, or an output the file leaves unknown: nothing to contradict
    swapped = list(attr)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    r = _check(tmp_path, name, lambda d: _op(d, op_id)["attrs"]["shape"].update(value=swapped))
    layer = _only_on(r, op_id, name)
    assert _codes(r, op_id) == {"IR101"} and layer["status"] == "mismatch" and layer["expected"] == swapped


@pytest.mark.parametrize("name,op_id", OPS)
def test_corrupt_special_zero(tmp_path, name, op_id):
    attr, src = TABLE[name][op_id]["shape"], true_input(name, op_id)

    def zero_first(d):
        _op(d, op_id)["attrs"]["shape"]["value"] = [0] + attr[1:]
        _op(d, op_id)["attrs"]["special_zero"]["value"] = 1

    r = _check(tmp_path, name, zero_first)
    layer = _only_on(r, op_id, name)
    if src[0] == attr[0]:  # the special zero copies the very same dim: still correct
        assert r.findings == [] or name == GQA_BAD
        assert layer["status"] == "ok" and layer["expected"] == true_output(name, op_id)
    else:  # a volume error (or, next to a -1, no way to solve it)
        assert _codes(r, op_id) == {"IR103" if -1 in attr[1:] else "IR104"} and layer["status"] == "invalid"

    r = _check(tmp_path, name, lambda d: _op(d, op_id)["attrs"]["shape"].update(value=[0, -1]))
    _only_on(r, op_id, name)
    assert _codes(r, op_id) == {"IR103"}
    assert any("both 0 and -1" in f.message for f in r.findings)

    r = _check(tmp_path, name, lambda d: _op(d, op_id)["attrs"]["special_zero"].update(value="yes"))
    _only_on(r, op_id, name)
    assert _codes(r, op_id) == {"IR025"}


@pytest.mark.parametrize("name,op_id", OPS)
def test_corrupt_input_shape(tmp_path, name, op_id):
    src = true_input(name, op_id)
    wrong = [src[0] + 1] + src[1:]
    r = _check(tmp_path, name, lambda d: _op(d, op_id)["inputs"][0].update(shape=wrong))
    layer = _only_on(r, op_id, name)
    tid = json.loads((DATA / name).read_text())
    has_producer = _producer(tid, _op(tid, op_id)["inputs"][0]["id"]) is not None
    if (name, op_id) == (GQA_BAD, "21"):  # its producer's copy was wrong already: no input explains the op
        assert _codes(r, op_id) == {"IR104"} and layer["status"] == "invalid"
    elif has_producer:  # the producer's copy and the op's output agree: only the copy here is wrong
        assert _codes(r, op_id) == {"IR201"}
        assert layer["status"] == "ok" and layer["expected"] == true_output(name, op_id)
    else:  # a graph input: the only evidence is the element count
        assert _codes(r, op_id) == {"IR103" if -1 in TABLE[name][op_id]["shape"] else "IR104"}
        assert layer["status"] == "invalid"


@pytest.mark.parametrize("name,op_id", OPS)
def test_corrupt_producer_and_consumer_copies(tmp_path, name, op_id):
    doc = json.loads((DATA / name).read_text())
    op = _op(doc, op_id)
    in_id, out_id = op["inputs"][0]["id"], op["outputs"][0]["id"]
    producer = _producer(doc, in_id)
    if producer is not None and producer["kind"] != "StaticReshape" and (name, op_id) != (GQA_BAD, "21"):
        src = true_input(name, op_id)

        def edit(d):
            t = next(t for t in _producer(d, in_id)["outputs"] if t["id"] == in_id)
            t["shape"] = [src[0] * 2] + src[1:]

        r = _check(tmp_path, name, edit)
        layer = _only_on(r, op_id, name)
        assert _codes(r, op_id) == {"IR201"} and layer["expected"] == true_output(name, op_id)
        r = _check(tmp_path, name, lambda d: next(t for t in _producer(d, in_id)["outputs"]
                                                   if t["id"] == in_id).update(dtype="s32"))
        assert _codes(r, op_id) == {"IR201"}
    if _consumer_copy(doc, out_id) is not None:
        out = true_output(name, op_id)
        r = _check(tmp_path, name, lambda d: _consumer_copy(d, out_id).update(shape=out[:-1] + [out[-1] + 1]))
        layer = _only_on(r, op_id, name)
        assert _codes(r, op_id) == {"IR201"}
        assert layer["status"] == "ok" and layer["expected"] == out
    r = _check(tmp_path, name, lambda d: _op(d, op_id)["outputs"][0].update(dtype="s8"))
    assert "IR203" in _codes(r, op_id)


def test_unknown_input_is_unverified_not_an_error(tmp_path):
    # cut the chain that lets gemma_5d's reshape 1 be inferred: its MatMul now has an unknown input
    def edit(d):
        _op(d, "0")["inputs"][0]["shape"] = [UNKNOWN]

    r = _check(tmp_path, "repo-root__gemma_5d.json", edit)
    layers = {layer.layer.id: layer.to_json() for layer in r.layers}
    assert layers["1"]["status"] == "unverified" and layers["1"]["expected"] == [1, 16, 128, 128, 1]
    assert [(f.code, f.severity) for f in r.findings if f.layer.id == "1"] == [("IR202", "info")]
    assert not [f for f in r.findings if f.severity == "error"]


def test_dynamic_reshape_rank_and_volume(tmp_path):
    def doc(out_shape, n):
        t = lambda i, s, dt="f32": {"id": i, "dtype": dt, "shape": s, "stride": [UNKNOWN],
                                    "layout_type": "strided", "property_type": "undef"}
        return {"version": "3.0.0", "graph": [{"id": 7, "name": "dr", "kind": "DynamicReshape",
                                               "attrs": {"special_zero": {"type": "bool", "value": 0}},
                                               "inputs": [t(0, [2, 3, 4]), t(1, [n], "s32")],
                                               "outputs": [t(2, out_shape)]}]}

    def run(out_shape, n):
        p = tmp_path / "dyn.json"
        p.write_text(json.dumps(doc(out_shape, n)))
        r = check_json(str(p))
        return r.layers[0].status, sorted(f.code for f in r.findings)

    assert run([6, 4], 2) == ("unverified", ["IR109"])
    assert run([6, 4], 3) == ("mismatch", ["IR102", "IR109"])
    assert run([6, 5], 2) == ("invalid", ["IR104", "IR109"])
    assert run([UNKNOWN], 2) == ("unverified", ["IR109"])


# -- oneDNN's rules next to OpenVINO's -----------------------------------------------------------

def _run(engine, shape: str, pattern: list[int], sz: bool) -> str:
    try:
        return format_shape(engine(parse_shape(shape), [Bound.value(v) for v in pattern], sz))
    except ReshapeError as e:
        return f"error {e.kind}"


@pytest.mark.parametrize("shape,pattern,sz,openvino,onednn", [
    # 0 and -1 together with special_zero=false: oneDNN always refuses, OpenVINO only without a zero input
    ("2,3,4", [0, -1], False, "error zero-with-minus-one", "error zero-with-minus-one"),
    ("2,0,4", [0, -1], False, "[0,1]", "error zero-with-minus-one"),
    ("2,0,4", [5, 0, -1], False, "[5,0,1]", "error zero-with-minus-one"),
    ("0,4", [0, -1], True, "[0,4]", "error zero-with-minus-one"),  # -1 next to a zero-size product
    ("2,0,4", [0, 0, -1], True, "[2,0,4]", "error zero-with-minus-one"),
    ("2,0,4", [0, -1], True, "[2,0]", "[2,0]"),
    ("2,0,4", [-1], False, "[0]", "[0]"),
    # the volume is always checked: OpenVINO skips it when the pattern has a special zero
    ("2,3,4", [0, 5], True, "[2,5]", "error volume"),
    ("2,3,4", [0, 0, 7], True, "[2,3,7]", "error volume"),
    ("2,3", [0, 6], False, "error volume", "error volume"),
    ("2,3,4", [0, 0, 4], True, "[2,3,4]", "[2,3,4]"),
    # where they agree
    ("3,4,5", [0, -1], True, "[3,20]", "[3,20]"),
    ("1,1,2,2", [-1], False, "[4]", "[4]"),
    ("65536,1024", [128, 512, 16, 64], False, "[128,512,16,64]", "[128,512,16,64]"),
    ("2,3", [-2, 3], False, "error invalid-value", "error invalid-value"),
    ("2,3", [-1, -1], False, "error two-minus-one", "error two-minus-one"),
    ("2,3", [0, 0, 0], True, "error zero-out-of-range", "error zero-out-of-range"),
    ("?,3,4", [-1, 12], False, "[?,12]", "[?,12]"),
])
def test_onednn_rules_next_to_openvino(shape, pattern, sz, openvino, onednn):
    assert _run(reshape_v1, shape, pattern, sz) == openvino
    assert _run(onednn_reshape, shape, pattern, sz) == onednn


def test_json_static_reshape_uses_onednn_rules(tmp_path):
    def t(i, s):
        return {"id": i, "dtype": "f32", "shape": s, "stride": [UNKNOWN], "layout_type": "strided",
                "property_type": "undef"}

    graph = {"graph": [{"id": 1, "name": "r", "kind": "StaticReshape",
                        "attrs": {"shape": {"type": "s64[]", "value": [0, 5]},
                                  "special_zero": {"type": "bool", "value": 1}},
                        "inputs": [t(0, [2, 3, 4])], "outputs": [t(2, [2, 5])]}]}
    p = tmp_path / "sz.json"
    p.write_text(json.dumps(graph))
    r = check_json(str(p))  # OpenVINO's Reshape-1 accepts this as [2,5]
    assert r.layers[0].status == "invalid" and [f.code for f in r.findings] == ["IR104"]


@pytest.mark.parametrize("kind,attrs,inputs,expected", [
    ("MatMul", {}, ["16,128,256", "16,256,128"], "[16,128,128]"),
    ("MatMul", {"transpose_b": 1}, ["32,2,8,384,64", "32,2,1,384,64"], "[32,2,8,384,384]"),
    ("MatMul", {"transpose_a": 1}, ["4,3", "4,5"], "[3,5]"),
    ("MatMul", {}, ["3,1,2,4", "5,4,6"], "[3,5,2,6]"),
    ("MatMul", {}, ["4", "2,4,6"], "[2,6]"),
    ("MatMul", {}, ["2,3,4", "4"], "[2,3]"),
    ("MatMul", {}, ["2,3", "5,6"], "None"),
    ("Add", {}, ["16,128,1,128", "16,1,128,128"], "[16,128,128,128]"),
    ("Multiply", {}, ["8,31,62", "1"], "[8,31,62]"),
    ("Select", {}, ["1,4", "3,1", "4"], "[3,4]"),
    ("Subtract", {}, ["2,3", "4,3"], "None"),
    ("StaticTranspose", {"order": [0, 3, 2, 1]}, ["16,128,128,1"], "[16,1,128,128]"),
    ("StaticTranspose", {"order": [0, -1, 1]}, ["2,3,4"], "[2,4,3]"),
    ("StaticReshape", {"shape": [-1], "special_zero": 0}, ["1,1,2,2"], "[4]"),
    ("SoftMax", {"axis": -1}, ["?,5"], "[?,5]"),
    ("TypeCast", {}, ["2,3"], "[2,3]"),
    ("Dequantize", {}, ["7,7,3,8"], "[7,7,3,8]"),
    ("ReduceSum", {"axes": [-1], "keep_dims": 1}, ["4,512,16"], "[4,512,1]"),
    ("ReduceSum", {"axes": [1]}, ["4,512,16"], "[4,16]"),
    ("Concat", {"axis": 1}, ["2,3", "2,5"], "[2,8]"),
    ("Convolution", {}, ["1,3,8,8", "4,3,3,3"], "None"),
])
def test_shape_inference_of_producers(kind, attrs, inputs, expected):
    got = infer_output(kind, attrs, [parse_shape(s) for s in inputs])
    assert (format_shape(got) if got is not None else "None") == expected


# -- what is and is not a oneDNN document ---------------------------------------------------

@pytest.mark.parametrize("text", [
    '{"a": 1}', "[1, 2]", '{"graph": [{"x": 1}]}', '{"graph": {}}', "not json", "\x00\x01binary", "",
])
def test_other_json_is_skipped(tmp_path, text):
    p = tmp_path / "other.json"
    p.write_text(text)
    assert check_json(str(p)) is None


@pytest.mark.parametrize("text,line", ids=["truncated", "trailing-comma", "deep", "long-number"], argvalues=[
    ('{"version": "3.0",\n "graph": [\n  {"id": 0, "kind": "StaticReshape",', 3),  # truncated
    ('{"graph": [\n{"id": 0, "kind": "ReLU",}]}', 2),                              # trailing comma
    ('{"graph": [' + "[" * 5000 + "]" * 5000 + "]}", 1),                              # nested too deeply
    ('{"graph": [{"id": ' + "9" * 5000 + ', "kind": "ReLU"}]}', 1),                   # absurd number
])
def test_broken_onednn_json_is_reported_not_raised(tmp_path, text, line):
    p = tmp_path / "broken.json"
    p.write_text(text)
    assert is_onednn_json(str(p))
    r = check_json(str(p))
    assert [(f.code, f.line) for f in r.findings] == [("IR200", line)] and r.layers == []


def test_malformed_ops_and_tensors_are_findings(tmp_path):
    doc = json.loads((DATA / "op__f32__static_reshape.json").read_text())
    doc["graph"].append(7)
    doc["graph"][0]["outputs"][0]["shape"] = ["a"]
    doc["graph"][0]["attrs"]["shape"]["value"] = "128,512"
    p = tmp_path / "m.json"
    p.write_text(json.dumps(doc, indent=1))
    r = check_json(str(p))
    assert sorted(f.code for f in r.findings) == ["IR023", "IR103", "IR200"]


def test_sniff(tmp_path):
    assert all(is_onednn_json(str(DATA / n)) for n in FILES)
    p = tmp_path / "package.json"
    p.write_text('{"name": "x", "dependencies": {}}')
    assert not is_onednn_json(str(p))


def test_reader_positions_and_values():
    text = '{"a": [1, -9223372036854775808, 2.5e3],\n "b": {"c": "x\\"y", "e": [ 4 ]}, "d": [true, null]}'
    doc = parse_json(text, {"a": [None], "b": {}})
    assert doc == json.loads(text)
    assert text[doc["a"].pos:doc["a"].end] == "[1, -9223372036854775808, 2.5e3]"
    assert [text[s:e] for s, e in doc["a"].spans] == ["1", "-9223372036854775808", "2.5e3"]
    assert doc["b"].pos == text.index('{"c"') and text[slice(*doc["b"].spans["e"])] == "[ 4 ]"
    assert type(doc["d"]) is list  # not walked: decoded by the stdlib in one go
    for bad in ('{"a": 01}', '{"a": NaN}', '{"a": 1,}', '[1 2]', '{"a": 1} x', '{"a": [1,]}'):
        with pytest.raises(JSONError):
            parse_json(bad, {"a": [None]})


# -- --fix -------------------------------------------------------------------------------------

def _fix(path: Path) -> str:
    text = path.read_text()
    return fix_text(text, check_json(str(path)).layers)


def _shape_span(text: str, line: int, which: str = "outputs") -> tuple[int, int]:
    """Offsets of the first `shape` list under `which` of the op starting on ``line``."""
    start = sum(len(s) for s in text.splitlines(keepends=True)[:line - 1])
    k = text.index('"shape"', text.index(f'"{which}"', start))
    return text.index("[", k), text.index("]", k) + 1


def _line(name: str, op_id: str) -> int:
    return next(layer.layer.line for layer in check_json(str(DATA / name)).layers if layer.layer.id == op_id)


@pytest.mark.parametrize("name,op_id", [(f, i) for f, i in OPS if TABLE[f][i]["output"] is not None])
def test_fix_restores_the_original_bytes(tmp_path, name, op_id):
    original = (DATA / name).read_text()
    a, b = _shape_span(original, _line(name, op_id))
    body = original[a:b]
    items = [(m.start(), m.end()) for m in re.finditer(r"-?\d+", body)]
    values = [body[s:e] for s, e in items]
    head, tail = body[:items[0][0]], body[items[-1][1]:]
    sep = body[items[0][1]:items[1][0]] if len(items) > 1 else ", "
    for new in (values[:-1] or ["5", "7"], [str(int(values[0]) + 1)] + values[1:]):  # rank change, wrong dim
        corrupted = original[:a] + head + sep.join(new) + tail + original[b:]
        path = tmp_path / name
        path.write_text(corrupted)
        assert any(layer.status == "mismatch" for layer in check_json(str(path)).layers)
        fixed = _fix(path)
        assert fixed == original  # only the shape list changed back, byte for byte
        path.write_text(fixed)
        r = check_json(str(path))
        assert all(layer.status == "ok" for layer in r.layers)
        assert _fix(path) == fixed  # idempotent


def test_fix_rewrites_consumer_copies_repeating_the_lie_and_keeps_crlf(tmp_path):
    original = (DATA / "pattern__f32__matmul_reshape_relu_fusion.json").read_text().replace("\n", "\r\n")
    a, b = _shape_span(original, _line("pattern__f32__matmul_reshape_relu_fusion.json", "100"))
    c, d = _shape_span(original, original.count("\n", 0, original.index('"ReLU"')) + 1, "inputs")
    assert re.findall(r"\d+", original[c:d]) == ["2", "4"]
    corrupted = original[:a] + "[8]" + original[b:c] + "[8]" + original[d:]
    path = tmp_path / "relu.json"
    path.write_bytes(corrupted.encode())
    r = check_json(str(path))
    assert [(layer.status, layer.to_json()["expected"]) for layer in r.layers] == [("mismatch", [2, 4])]
    fixed = fix_text(corrupted, r.layers)
    assert "\n" not in fixed.replace("\r\n", "")
    path.write_bytes(fixed.encode())
    r = check_json(str(path))
    assert r.findings == [] and [layer.status for layer in r.layers] == ["ok"]


def test_fix_never_touches_invalid_or_unknown(tmp_path):
    original = (DATA / "repo-root__gemma_4d.json").read_text()
    doc = json.loads(original)
    _op(doc, "1")["attrs"]["shape"]["value"] = [16, 128, 128, 2]  # invalid: volume
    path = tmp_path / "g.json"
    text = json.dumps(doc, indent=2)
    path.write_text(text)
    r = check_json(str(path))
    assert {layer.layer.id: layer.status for layer in r.layers} == {"1": "invalid", "6": "ok"}
    assert fix_text(text, r.layers) == text


def test_unknown_dims_parse_as_dynamic():
    from irreshape.frontends.onednn import tensor_shape

    assert tensor_shape([UNKNOWN]) == (None, [UNKNOWN])
    assert tensor_shape([-1]) == (None, [-1])
    shape, _ = tensor_shape([2, UNKNOWN, -1])
    assert shape == [Dim.of(2), Dim.dynamic(), Dim.dynamic()]
    assert tensor_shape([2, -3]) == (None, None)


def test_fix_keeps_a_bom_and_skips_suppressed_ops(tmp_path):
    from irreshape.fixers import fix_file

    original = (DATA / "op__f32__static_reshape.json").read_bytes()
    at = original.rindex(b"            16, \n")  # in the output tensor's shape (the attr comes first)
    corrupted = b"\xef\xbb\xbf" + original[:at] + original[at:].replace(b"16", b"17", 1)
    path = tmp_path / "bom.json"
    path.write_bytes(corrupted)
    r = check_json(str(path))
    assert [(f.code, f.line) for f in r.findings] == [("IR101", 12)]  # the op starts on line 12, BOM or not
    assert fix_file(r, write=False).new_bytes == b"\xef\xbb\xbf" + original
    assert fix_file(r, write=False, skip=lambda op_id: op_id == "0").new_bytes == corrupted


def test_explain_retells_the_inference():
    from irreshape.explain import ExplainError
    from irreshape.explain.onednn import explain_layer as explain

    r = check_json(str(DATA / "repo-root__gemma_v2_sdpa1.json"))
    lines = explain(r, "reshape_2")
    assert lines[0] == "StaticReshape 'reshape_2' (id 9), line 510: status ok"
    assert "input: [1,8,31,2,31] (inferred from the inputs of StaticTranspose 'transpose_2' (id 8))" in lines[1]
    assert lines[-1] == "  expected output: [8,31,62]"
    with pytest.raises(ExplainError, match="no reshape op 'nope'"):
        explain(r, "nope")
