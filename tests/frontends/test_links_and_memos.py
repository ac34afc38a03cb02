"""The graph as the check holds it: edges resolved once into each input port's source, memos keyed by
content (Const values, declared and re-inferred shapes), edges kept as columns, one write per report."""

from __future__ import annotations

import gc
import os
import io
import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irreshape.checks import check_file

from irreshape.checks.openvino import check_model
from irreshape.core.dims import format_shape
from irreshape.frontends.openvino import parse
from irreshape.frontends.openvino.model import Edge, Edges
from irreshape.report import write_json

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")
np = pytest.importorskip("numpy")


def _c(values):
    return ops.constant(np.array(values, dtype=np.int64))


def _save(tmp_path: Path, outputs, params, name: str = "m") -> Path:
    path = tmp_path / f"{name}.xml"
    ov.save_model(ov.Model(outputs, params, name), str(path), compress_to_fp16=False)
    return path


def _openvino_shapes(path: Path) -> dict[str, str]:
    """Every Reshape's output shape as OpenVINO's read_model infers it, by layer name."""
    model = ov.Core().read_model(str(path))
    return {op.get_friendly_name(): str(op.get_output_partial_shape(0)).replace(" ", "")
            for op in model.get_ops() if op.get_type_name() == "Reshape"}


def _ours(path: Path) -> dict[str, str]:
    result = check_file(str(path))
    assert result is not None and not any(f.severity == "error" for f in result.findings)
    return {lr.layer.name: format_shape(lr.expected).replace(" ", "") for lr in result.layers
            if lr.layer.kind == "reshape"}


def test_ops_alike_but_for_their_constants_are_not_confused(tmp_path):
    """Transposes, Slices and Unsqueezes whose type, attributes, input shape and declared output dims are
    all the same, and whose constant inputs differ: each output is re-inferred on its own (an interval
    lands on another axis), and each Reshape after it gets what OpenVINO gives it."""
    x = ops.parameter(ov.PartialShape([ov.Dimension(1, 8), ov.Dimension(2, 6), 4]), np.float32, name="x")
    outs = []
    for k, order in enumerate(([1, 0, 2], [0, 1, 2], [1, 0, 2])):  # the third repeats the first
        t = ops.transpose(x, _c(order))
        outs.append(ops.reshape(t, _c([0, -1]), True, name=f"transpose{k}"))
    for k, (start, stop) in enumerate(((0, 1), (1, 3), (0, 1))):
        s = ops.slice(x, _c([start]), _c([stop]), _c([1]), _c([1]))
        outs.append(ops.reshape(s, _c([-1, 4]), False, name=f"slice{k}"))
    for k, axis in enumerate((0, 1, 3)):
        u = ops.unsqueeze(x, _c([axis]))
        outs.append(ops.reshape(u, _c([0, -1]), True, name=f"unsqueeze{k}"))
    path = _save(tmp_path, outs, [x])
    want = _openvino_shapes(path)
    for a, b in (("transpose0", "transpose1"), ("slice0", "slice1"), ("unsqueeze0", "unsqueeze1")):
        assert want[a] != want[b]  # the cases really differ
    assert want["transpose0"] == want["transpose2"] and len(want) == 9
    assert _ours(path) == want


def test_reshapes_alike_but_for_special_zero_or_validity_are_not_confused(tmp_path):
    """Reshapes of one input by one pattern Const: the recomputation is shared by content, and must keep
    special_zero apart, and an invalid layer's error apart from its valid twins."""
    x = ops.parameter([2, 3, 4], np.float32, name="x")
    pattern = _c([0, -1])
    outs = [ops.reshape(x, pattern, sz, name=f"r{k}") for k, sz in enumerate((True, True, True))]
    outs.append(ops.reshape(x, _c([2, 0, -1]), True, name="zero"))
    path = _save(tmp_path, outs, [x])
    assert _ours(path) == _openvino_shapes(path) == {"r0": "[2,12]", "r1": "[2,12]", "r2": "[2,12]",
                                                     "zero": "[2,3,4]"}
    text = path.read_text()
    # r1 copies nothing with special_zero false: its 0 is a literal 0, and -1 cannot be solved (IR103)
    layer = re.search(r'<layer id="\d+" name="r1" type="Reshape" version="opset1">\s*<data special_zero="true"', text)
    assert layer is not None
    path.write_text(text.replace(layer.group(), layer.group().replace('"true"', '"false"')))
    result = check_file(str(path))
    verdicts = {lr.layer.name: (lr.status, format_shape(lr.expected) if lr.expected_known else None)
                for lr in result.layers}
    assert verdicts == {"r0": ("ok", "[2,12]"), "r1": ("invalid", None), "r2": ("ok", "[2,12]"),
                        "zero": ("ok", "[2,3,4]")}
    assert [f.code for f in result.findings if f.layer and f.layer.name == "r1"] == ["IR103"]


def test_a_repeated_block_gets_the_same_answers_as_openvino(tmp_path):
    """Many equal blocks (what the memos are for): every Reshape in every block as OpenVINO infers it."""
    x = ops.parameter(ov.PartialShape([ov.Dimension(1, 4), -1, 16]), np.float32, name="x")
    h = x
    for k in range(12):
        heads = ops.reshape(h, _c([0, 0, 4, 4]), True, name=f"heads{k}")
        t = ops.transpose(heads, _c([0, 2, 1, 3]))
        back = ops.transpose(t, _c([0, 2, 1, 3]))
        h = ops.add(ops.reshape(back, ops.shape_of(h), False, name=f"merge{k}"), h)
    path = _save(tmp_path, [h], [x])
    want = _openvino_shapes(path)
    assert len(want) == 24 and _ours(path) == want


def _pair(tmp_path: Path) -> Path:
    x = ops.parameter([2, 3, 4], np.float32, name="x")
    r = ops.reshape(ops.relu(x), _c([6, 4]), False, name="flatten")
    return _save(tmp_path, [ops.relu(r)], [x])


def _edit(path: Path, old: str, new: str) -> Path:
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    return path


def _edge_into(text: str, layer_id: str, port: str) -> str:
    m = re.search(rf'<edge from-layer="[^"]*" from-port="[^"]*" to-layer="{layer_id}" to-port="{port}" ?/>', text)
    assert m is not None
    return m.group()


def _ids(path: Path) -> dict[str, str]:
    return {el: i for i, el in re.findall(r'<layer id="(\d+)" name="([^"]+)"', path.read_text())}


def test_the_first_edge_into_a_port_decides_even_when_it_dangles(tmp_path):
    path = _pair(tmp_path)
    ids = _ids(path)
    edge = _edge_into(path.read_text(), ids["flatten"], "0")
    _edit(path, edge, edge.replace(re.search(r'from-layer="\d+"', edge).group(), 'from-layer="999"') + "\n" + edge)
    model = parse(str(path))
    flatten = model.layers[ids["flatten"]]
    links = model.link()
    assert flatten.inputs[0].source is None and model.producer(flatten.id, flatten.inputs[0].id) is None
    assert [(problem, subject) for _, problem, subject in links.dangling] == [("layer", "999")]
    result = check_file(str(path))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if 'from-layer="999"' in text)
    assert [(f.code, f.line) for f in result.findings if f.code == "IR021"] == [("IR021", line)]


def test_the_first_of_two_good_edges_into_a_port_decides(tmp_path):
    path = _pair(tmp_path)
    ids = _ids(path)
    edge = _edge_into(path.read_text(), ids["flatten"], "0")
    other = re.sub(r'from-layer="\d+" from-port="\d+"', f'from-layer="{ids["x"]}" from-port="0"', edge)
    _edit(path, edge, other + "\n" + edge)
    model = parse(str(path))
    flatten = model.layers[ids["flatten"]]
    assert flatten.inputs[0].source is None  # until the edges are resolved
    model.link()
    assert flatten.inputs[0].source.layer.name == "x"
    assert model.producer(flatten.id, flatten.inputs[0].id) == (model.layers[ids["x"]], flatten.inputs[0].source)


@pytest.mark.parametrize("end,message", [
    ("from-port", "has no output port '7'"),
    ("to-port", "has no input port '7'"),
])
def test_an_edge_naming_a_missing_port_says_which_end(tmp_path, end, message):
    path = _pair(tmp_path)
    ids = _ids(path)
    edge = _edge_into(path.read_text(), ids["flatten"], "0")
    _edit(path, edge, re.sub(rf'{end}="\d+"', f'{end}="7"', edge))
    findings = [f for f in check_file(str(path)).findings if f.code == "IR021"]
    assert len(findings) == 1 and message in findings[0].message
    owner = findings[0].layer.name
    assert owner == ("flatten" if end == "to-port" else parse(str(path)).layers[
        re.search(r'from-layer="(\d+)"', edge).group(1)].name)


def test_a_file_listing_consumers_first_is_sorted_and_checked_alike(tmp_path):
    """OpenVINO writes producers first, and then the file order serves; otherwise a topological sort."""
    x = ops.parameter(ov.PartialShape([-1, 6]), np.float32, name="x")
    a = ops.reshape(x, _c([0, 2, 3]), True, name="split")
    b = ops.reshape(ops.relu(a), _c([-1, 6]), False, name="merge")
    path = _save(tmp_path, [b], [x])
    forward = parse(str(path))
    assert forward.link().ordered
    text = path.read_text()
    blocks = re.findall(r"\t\t<layer .*?</layer>\n", text, flags=re.S)
    backward = tmp_path / "backward.xml"
    backward.write_text(text.replace("".join(blocks), "".join(reversed(blocks))))
    (tmp_path / "backward.bin").write_bytes(path.with_suffix(".bin").read_bytes())
    assert not parse(str(backward)).link().ordered

    def verdicts(p):
        return {lr.layer.name: (lr.status, format_shape(lr.expected)) for lr in check_file(str(p)).layers}

    assert verdicts(backward) == verdicts(path) == {"split": ("ok", "[?,2,3]"), "merge": ("ok", "[?,6]")}


def test_edges_are_a_sequence_of_edge():
    made = [Edge("1", "0", "2", "0", 40), Edge("2", "1", "3", "0", 41), Edge("0", "0", "3", "1", 90)]
    edges = Edges(made)
    assert len(edges) == 3 and list(edges) == made and edges == made and made == edges
    assert edges[0] == made[0] and edges[-1] == made[-1] and edges[1:] == made[1:]
    assert list(edges.ends()) == [("1", "0", "2", "0"), ("2", "1", "3", "0"), ("0", "0", "3", "1")]
    with pytest.raises(IndexError):
        edges[3]
    edges.add("3", "0", "4", "0", 91)
    assert edges[3] == Edge("3", "0", "4", "0", 91) and edges != made


def test_a_layer_travels_between_processes_with_its_lines_and_without_the_graph(tmp_path):
    model = parse(str(_pair(tmp_path)))
    model.link()
    layer = next(la for la in model.layers.values() if la.name == "flatten")
    copy = pickle.loads(pickle.dumps(layer))
    assert copy == layer and copy.end_line == layer.end_line
    assert [p.line for p in copy.inputs + copy.outputs] == [p.line for p in layer.inputs + layer.outputs]
    assert all(p.layer is copy and p.source is None for p in copy.inputs + copy.outputs)
    assert layer.inputs[0].source is not None  # the original keeps its link


def test_a_released_model_is_freed_without_the_cycle_collector_and_the_kept_layers_keep_their_lines(tmp_path):
    path = _pair(tmp_path)
    gc.collect()
    gc.disable()
    try:
        model = parse(str(path))
        result = check_model(model)
        kept = [lr.layer for lr in result.layers]
        lines = [(p.line, p.dim_lines) for p in kept[0].outputs]
        count = len(gc.get_objects())
        model.release(keep=kept)
        assert all(p.source is None for la in model.layers.values() for p in la.inputs)
        assert all(p.layer is None for la in model.layers.values() if la not in kept
                   for p in la.inputs + la.outputs)
        del model, result
        assert len(gc.get_objects()) < count - 20  # gone by reference counting alone
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = {type(o).__name__ for o in gc.garbage} & {"IRModel", "Layer", "Port", "Links", "Edges"}
        assert not left  # nothing of the model was left for the cycle collector
        assert [(p.line, p.dim_lines) for p in kept[0].outputs] == lines and kept[0].end_line >= lines[0][0]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


class _Counting(io.StringIO):
    def __init__(self):
        super().__init__()
        self.sizes = []

    def write(self, s):
        self.sizes.append(len(s))
        return super().write(s)


def test_a_json_report_is_written_in_a_few_large_pieces():
    """json.dump writes token by token (a system call each on an unbuffered stream): the report goes out
    in pieces of at least 64 KiB but the last, and the same text as json.dumps gives."""
    import json

    value = {"files": [{"layers": [{"id": str(i), "dims": [i, -1, 4]} for i in range(4000)]}], "name": "ü"}
    out = _Counting()
    write_json(value, out)
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    assert out.getvalue() == text and len(text) > 4 * (1 << 16)
    assert len(out.sizes) <= len(text) // (1 << 16) + 1 and min(out.sizes[:-1]) >= 1 << 16


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text() | st.integers() | st.none() | st.booleans(), inner, max_size=4),
    max_leaves=40)


@settings(max_examples=300, deadline=None, derandomize=bool(os.environ.get("CI")))
@given(value=_JSON, ensure_ascii=st.booleans())
def test_a_json_report_has_the_bytes_json_dumps_gives(value, ensure_ascii):
    """Any value, any depth (the outer containers are written item by item, the inner ones at once)."""
    import json

    out = io.StringIO()
    write_json(value, out, ensure_ascii=ensure_ascii)
    assert out.getvalue() == json.dumps(value, indent=2, ensure_ascii=ensure_ascii) + "\n"
