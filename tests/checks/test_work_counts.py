"""The cost of the whole-graph reading, as counts of work rather than timings (which the load of a shared machine
blurs): a layer of N outputs is indexed once, not scanned per port (a Split was N²); the pin probes never run
twice at the same values; the element types keep no entry for a port whose precision holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from irreshape.checks.graph import Graph
from irreshape.checks.openvino import check_model
from irreshape.core.results import Status
from irreshape.frontends.openvino import parse

ov = pytest.importorskip("openvino")
o = pytest.importorskip("openvino.opset15")
np = pytest.importorskip("numpy")


def _save(tmp_path: Path, results, params, name: str) -> Path:
    path = tmp_path / f"{name}.xml"
    ov.save_model(ov.Model(results, params, name), str(path), compress_to_fp16=False)
    return path


class _Counted(tuple):
    """A layer's ports that count how often they are walked through."""

    walks = 0

    def __iter__(self):
        _Counted.walks += 1
        return super().__iter__()


def _split(tmp_path: Path, n: int) -> Path:
    x = o.parameter([2, n, 8], np.float32, name="x")
    parts = o.split(x, o.constant(np.int64(1)), n).outputs()
    return _save(tmp_path, [o.result(o.concat([o.relu(p) for p in parts], 1))], [x], f"split{n}")


@pytest.mark.parametrize("n", [40, 160])
def test_a_split_of_n_outputs_is_read_in_a_few_walks_over_its_ports_whatever_n(tmp_path, n):
    model = parse(str(_split(tmp_path, n)))
    split = next(layer for layer in model.layers.values() if layer.kind == "split")
    split.outputs = _Counted(split.outputs)
    _Counted.walks = 0
    result = check_model(model)
    assert not result.findings and split.outputs[n - 1].dims == (2, 1, 8)
    graph = Graph(model)
    shapes = [graph.shape(p) for p in split.outputs]  # every output in a fresh reading
    assert [[d.lo for d in s] for s in shapes] == [[2, 1, 8]] * n  # type: ignore[union-attr]
    # the edges' links, the types, the checks and the fresh reading each go through the ports a few times; a scan
    # per port to find its position would walk them n times
    assert _Counted.walks < 16


def _pins(tmp_path: Path, n: int) -> Path:
    params, results = [], []
    for i in range(n):
        x = o.parameter([-1, 64], np.float32, name=f"x{i}")
        y = o.relu(o.multiply(x, o.constant(np.full((1, 64), 0.5, np.float32))))
        params.append(x)
        results.append(o.result(o.reshape(y, o.constant(np.array([1, 8, 8], np.int64)), False)))
    return _save(tmp_path, results, params, f"pins{n}")


@pytest.mark.parametrize("n", [2, 5])
def test_the_pin_probes_never_run_twice_at_the_same_values(tmp_path, monkeypatch, n):
    probes: list[tuple] = []
    real = Graph.probe

    def probe(self, inputs, cone):
        probes.append(tuple(sorted((pid, tuple((d.lo, d.hi) for d in shape)) for pid, shape in inputs.items())))
        return real(self, inputs, cone)

    monkeypatch.setattr(Graph, "probe", probe)
    result = check_model(parse(str(_pins(tmp_path, n))))
    assert sorted(f.code for f in result.findings) == ["IR503"] * n  # each Reshape pins its batch to 1
    assert probes and len(set(probes)) == len(probes)  # the screen's probes serve the sweep: none repeated
    # dims whose cones do not meet are probed together: as many probes for 5 inputs as for 2 (the screen at 1 and
    # at 2, then the sweep's values; 13 before the screen's probes served the sweep)
    assert len(probes) == 11


def test_the_element_types_hold_only_the_ports_whose_precision_is_not_the_inferred_type(tmp_path):
    x = o.parameter([-1, 64], np.float32, name="x")
    y = o.convert(o.relu(o.add(x, o.constant(np.ones((1, 64), np.float32)))), "f16")
    path = _save(tmp_path, [o.result(y)], [x], "types")
    text = path.read_text()
    model = parse(str(path))
    graph = Graph(model)
    assert graph.infer_types() == {}  # every precision OpenVINO's: nothing kept
    convert = next(layer for layer in model.layers.values() if layer.kind == "convert")
    assert graph.etype(convert.outputs[0]) == "f16" and graph.etype_known(convert.outputs[0])
    lying = parse(str(_edit(path, text, convert.outputs[0].line, 'precision="FP16"', 'precision="FP32"')))
    graph = Graph(lying)
    types = graph.infer_types()
    port = next(layer for layer in lying.layers.values() if layer.kind == "convert").outputs[0]
    assert list(types) == [port] and types[port] == "f16" and graph.retyped == [port]
    result = check_model(lying)
    assert [f.code for f in result.findings] == ["IR307"]
    assert all(v.status is not Status.INVALID for v in result.flagged)


def _edit(path: Path, text: str, line: int, old: str, new: str) -> Path:
    lines = text.split("\n")
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new)
    out = path.with_name("lying.xml")
    out.write_text("\n".join(lines))
    path.with_suffix(".bin").replace(out.with_suffix(".bin"))
    return out


@pytest.mark.parametrize("n", [10, 40])
def test_the_memo_of_shapes_holds_no_entry_per_const_port(tmp_path, n):
    # a chain of n Multiplies, each by a Const of its own (equal values: the serializer writes them once, and
    # their <data> is one dict); a Const's shape is its <data>'s, kept once, not once per output port
    x = o.parameter([-1, 64], np.float32, name="x")
    y = x
    for _ in range(n):
        y = o.multiply(y, o.constant(np.full((1, 64), 0.5, np.float32)))
    model = parse(str(_save(tmp_path, [o.result(y)], [x], f"consts{n}")))
    consts = [layer for layer in model.layers.values() if layer.kind == "const"]
    assert len(consts) == n and len({id(c.data) for c in consts}) == 1
    graph = Graph(model)
    assert not check_model(model).findings
    result = graph.shape(model.layers[next(lid for lid, la in model.layers.items() if la.kind == "result")]
                         .inputs[0].source)
    assert [d.lo for d in result[1:]] == [64] and not result[0].is_static  # type: ignore[index]
    assert all(graph.shape(c.outputs[0]) == [d for d in graph.shape(consts[0].outputs[0])] for c in consts)
    # the Parameter's and the n Multiplies' outputs, and one entry for the Consts' shared <data>
    assert len(graph._shapes) == n + 2
