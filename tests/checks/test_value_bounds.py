"""Value bounds as OpenVINO's evaluate_lower/evaluate_upper give them (issue 23): ops with bound evaluators of
their own (Abs, Select, Equal, Clamp, Tile, Pad, ReduceMax/Min, Scatter*Update), the default evaluation on exact
inputs (Negative, Sqrt, Sign, ReduceSum/Mean, logical ops), f16 arithmetic, the `decompression` <rt_info> of a
Convert, and no finding resting on dims taken from an op without inference. Every output port of each model built
with openvino's opset API is compared with read_model's, and a correct model has no error or warning."""

from __future__ import annotations

import re
import shutil

import numpy as np
import openvino as ov
import openvino.opset15 as o
import pytest

import irreshape
from irtools.agreement import ports


def run_check(path: str, layers: str = "reshape"):
    return irreshape.check(path, jobs=1, isolated=True, **({"layers": layers} if layers != "reshape" else {}))


def c(v, t=None):
    a = np.array(v)
    return o.constant(a.astype(t if t is not None else (bool if a.dtype == bool else np.int64)))


def _shape_ops(s):
    """Each op under test on a ShapeOf value ``s`` of 3 elements, as a non-negative 1-D i64 tensor."""
    f = o.convert(s, "f32")
    return {
        "abs": o.abs(s), "negative": o.negative(o.negative(s)), "sqrt": o.sqrt(s), "sign": o.sign(s),
        "select": o.select(c([True, False, True]), s, c([5, 6, 7])),
        "select_on_equal": o.select(o.equal(s, c([3, 6, 8])), c([1, 1, 1]), s),
        "reduce_max": o.reduce_max(s, c([0]), True), "reduce_min": o.reduce_min(s, c([0]), True),
        "reduce_sum": o.reduce_sum(s, c([0]), True), "reduce_mean": o.reduce_mean(s, c([0]), True),
        "clamp": o.clamp(s, 1, 7), "tile": o.tile(s, c([2])), "pad": o.pad(s, c([1]), c([1]), "constant", c(5)),
        "scatter": o.scatter_update(s, c([1]), c([4]), c(0)), "scatter_nd": o.scatter_nd_update(s, c([[1]]), c([4])),
        "scatter_elements": o.scatter_elements_update(s, c([1]), c([4]), c(0)),
        "f16": o.convert(o.multiply(o.convert(s, "f16"), c([2, 1, 1], np.float16)), "i64"),
        "f32_floor": o.convert(o.floor(o.divide(f, c([2, 2, 2], np.float32))), "i64"),
        "logical": o.select(o.logical_and(o.greater(s, c([0, 0, 0])), c([True, True, False])), s, c([1, 1, 1])),
    }


SHAPES = {"interval": [ov.Dimension(2, 9), 6, -1], "static": [3, 6, 8], "dynamic": [-1, 12, 48]}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_value_bounds_as_read_model(tmp_path, shape):
    x = o.parameter(SHAPES[shape], np.float32, name="x")
    outs = [o.broadcast(c(1.0, np.float32), op) for op in _shape_ops(o.shape_of(x)).values()]
    path = str(tmp_path / "m.xml")
    ov.save_model(ov.Model([o.result(b) for b in outs], [x]), path)
    rows = [r for r in ports(path) if not r.folded]
    assert [r for r in rows if not r.equal] == []
    broadcasts = [r for r in rows if r.type == "Broadcast"]
    assert len(broadcasts) == len(outs)
    if shape != "dynamic":  # every op is bounded here (with a `?` dim some fail in OpenVINO too: NoBounds)
        assert all(r.origin == "inferred" for r in broadcasts), [r for r in broadcasts if r.origin != "inferred"]
    assert run_check(path).exit_code == 0


def test_decompression_rt_info_stops_the_bounds_and_its_absence_does_not(tmp_path):
    x = o.parameter([-1, 6, 8], np.float32, name="x")
    m = o.multiply(o.convert(o.shape_of(x), "f32"), c([1, 1, 1], np.float32))
    r = o.reshape(x, o.convert(m, "i64"), False, name="r")
    path = tmp_path / "decompressed.xml"
    ov.save_model(ov.Model([o.result(r)], [x]), str(path), compress_to_fp16=True)
    text = path.read_text()
    genuine = re.sub(r"\s*<rt_info>\s*<attribute name=\"decompression\" version=\"0\" />\s*</rt_info>", "", text)
    assert genuine != text
    plain = tmp_path / "genuine.xml"
    plain.write_text(genuine.replace("<dim>-1</dim>\n\t\t\t\t\t<dim>-1</dim>\n\t\t\t\t\t<dim>-1</dim>",
                                     "<dim>-1</dim>\n\t\t\t\t\t<dim>6</dim>\n\t\t\t\t\t<dim>8</dim>"))
    shutil.copy(tmp_path / "decompressed.bin", tmp_path / "genuine.bin")
    for p in (path, plain):
        rows = {row.layer: row for row in ports(str(p))}
        assert rows["r"].origin == "inferred" and rows["r"].equal, rows["r"]
    assert {row.layer: row.got for row in ports(str(plain))}["r"] == "[?,6,8]"
    assert run_check(str(path)).exit_code == 0


def test_no_finding_rests_on_the_dims_of_an_op_without_inference(tmp_path):
    """A custom op declaring [?,4,?,9] (its input's [?,4,?,8]) feeding a Concat with a [?,4,?,8] input: OpenVINO's
    verdict depends on what the op really infers, so the Concat is unverified, not rejected (IR303)."""
    x = o.parameter([-1, 4, -1, 8], np.float32, name="x")
    y = o.parameter([-1, 4, -1, 8], np.float32, name="y")
    r = o.relu(x)
    r.set_friendly_name("custom")
    cat = o.concat([r, y], 2)
    cat.set_friendly_name("cat")
    path = tmp_path / "taken.xml"
    ov.save_model(ov.Model([o.result(cat)], [x, y]), str(path))
    text = path.read_text().replace('name="custom" type="ReLU" version="opset1"',
                                    'name="custom" type="MyCustomOp" version="extension"')
    i = text.index('name="custom"')
    j, k = text.index("<output>", i), text.index("</output>", i)
    path.write_text(text[:j] + text[j:k].replace("<dim>8</dim>", "<dim>9</dim>") + text[k:])
    report = run_check(str(path), layers="all")
    codes = [f.code for f in report.files[0].findings]
    assert "IR303" not in codes and "IR309" in codes
    status = {lr.layer.name: lr.status.value for lr in report.files[0].layers}
    assert status["cat"] == "unverified"


def _default_ops(s):
    """Ops without a bound evaluator of their own (``Node::evaluate_lower``'s default: evaluated on exact inputs
    only), each on a ShapeOf value ``s`` of 3 elements, as a non-negative 1-D i64 tensor of 3 elements; some of
    them OpenVINO does not evaluate on integers at all (CumSum, bitwise ops, SquaredDifference: no bounds)."""
    f = o.convert(s, "f32")
    s32 = o.convert(s, "i32")
    positive = o.greater(s, c([0, 0, 0]))
    return {
        "relu_i64": o.relu(o.subtract(s, c([1, 1, 1]))), "relu_f32": o.convert(o.relu(f), "i64"),
        "relu_i32": o.convert(o.relu(s32), "i64"),
        **{name: o.convert(getattr(o, name)(f), "i64") for name in ("exp", "log", "sigmoid", "tanh", "erf", "sin",
                                                                     "cos")},
        "round_even": o.convert(o.round(f, "half_to_even"), "i64"),
        "round_away": o.convert(o.round(f, "half_away_from_zero"), "i64"),
        "bitwise_and": o.bitwise_and(s, c([5, 5, 5])), "bitwise_or": o.convert(o.bitwise_or(s32, s32), "i64"),
        "bitwise_xor": o.bitwise_xor(s, c([5, 5, 5])), "squared_difference": o.squared_difference(s, c([1, 1, 1])),
        "cumsum": o.cumsum(s, c(0)), "cumsum_f32": o.convert(o.cumsum(f, c(0)), "i64"),
        "cumsum_f32_exclusive_reverse": o.convert(o.cumsum(f, c(0), True, True), "i64"),
        "reduce_l1": o.concat([o.reduce_l1(s, c([0]), True), o.gather(s, c([0, 1]), c(0))], 0),
        "reduce_logical": o.select(o.concat([o.reduce_logical_and(positive, c([0]), True),
                                             o.reduce_logical_or(positive, c([0]), True), c([True])], 0), s, c([2] * 3)),
    }


def _no_bounds_ops(s):
    """Ops OpenVINO bounds only on exact inputs, which irreshape does not evaluate: on a ShapeOf with a `?` element
    OpenVINO has no bounds (every dim `?`), and so has irreshape."""
    f = o.convert(s, "f32")
    return {
        "matmul": o.convert(o.squeeze(o.matmul(o.unsqueeze(f, c(0)), c(np.eye(3), np.float32), False, False), c([0])),
                             "i64"),
        "softmax": o.convert(o.softmax(f, 0), "i64"),
        "roll": o.roll(s, c([1]), c([0])), "gather_elements": o.gather_elements(s, c([2, 1, 0]), 0),
        "topk": o.topk(s, c(3), 0, "max", "none").output(0), "swish": o.convert(o.swish(f), "i64"),
    }


@pytest.mark.parametrize("which, shape", [(w, s) for w in ("evaluated", "no_bounds") for s in sorted(SHAPES)
                                          if (w, s) != ("no_bounds", "static")])  # those are not evaluated
def test_default_bound_evaluation_as_read_model(tmp_path, shape, which):
    """Every op without a bound evaluator of its own gets read_model's dims: evaluated where its inputs are exact
    (a static ShapeOf), no bounds where one is not (OpenVINO gives every dim `?`), never unverified."""
    x = o.parameter(SHAPES[shape], np.float32, name="x")
    ops = (_default_ops if which == "evaluated" else _no_bounds_ops)(o.shape_of(x))
    outs = [o.broadcast(c(1.0, np.float32), op, name=name) for name, op in ops.items()]
    path = str(tmp_path / "m.xml")
    ov.save_model(ov.Model([o.result(b) for b in outs], [x]), path)
    rows = [r for r in ports(path) if not r.folded]
    assert [r for r in rows if not r.equal] == []
    broadcasts = {r.layer: r for r in rows if r.type == "Broadcast"}
    assert set(broadcasts) == set(ops)
    assert [r for r in broadcasts.values() if r.origin != "inferred"] == []
    if shape == "static":  # evaluated, or no bounds where OpenVINO has none on integers
        assert {n for n, r in broadcasts.items() if "?" in r.got} == \
            {"bitwise_and", "bitwise_or", "bitwise_xor", "squared_difference", "cumsum"}, broadcasts
    assert run_check(path).exit_code == 0


@pytest.mark.parametrize("lie", ["producer", "producer_and_ports", "consumer", "none"])
def test_a_lie_behind_an_undecided_layer_is_a_contradiction_not_a_rejection(tmp_path, lie):
    """A Broadcast irreshape cannot tell (its target a StridedSlice with an ellipsis_mask, which it does not evaluate)
    feeding a MatMul: its declared dims are taken, so no "OpenVINO rejects" (IR303) or "OpenVINO infers" (IR301)
    rests on them. A lie in it (or in the MatMul) makes the declared dims contradict each other: IR308 on the
    MatMul, naming the undecided Broadcast; a correct file has no finding."""
    from irtools.corrupt import corrupt_declared_dim, corrupt_input_port_dims

    from irreshape.frontends.openvino import parse
    x = o.parameter([-1, 12, 48], np.float32, name="x")
    target = o.strided_slice(o.shape_of(x), c([0]), c([0]), c([1]), [0], [0], ellipsis_mask=[1])
    p = o.broadcast(c(1.0, np.float32), target, name="P")
    m = o.matmul(p, c(np.ones((48, 8)), np.float32), False, False, name="C")
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([o.result(m)], [x]), str(path))
    model = parse(str(path))
    ids = {lay.name: lay for lay in model.layers.values()}
    data = path.read_bytes()
    if lie.startswith("producer"):  # K 48 -> 49: the MatMul rejects the declared dims
        data = corrupt_declared_dim(data, ids["P"].id, 2, 49, ids["P"].outputs[0].id)
        if lie == "producer_and_ports":
            data = corrupt_input_port_dims(data, ids["C"].id, ids["C"].inputs[0].id, [-1, 12, 49])
    elif lie == "consumer":
        data = corrupt_declared_dim(data, ids["C"].id, 2, 9, ids["C"].outputs[0].id)
    bad = tmp_path / "bad.xml"
    bad.write_bytes(data)
    shutil.copy(path.with_suffix(".bin"), bad.with_suffix(".bin"))
    report = run_check(str(bad), layers="all")
    found = [(f.code, f.layer.name) for f in report.files[0].findings if f.severity != "info"]
    status = {lr.layer.name: lr.status.value for lr in report.files[0].layers}
    assert status["P"] == "unverified"
    if lie == "none":
        assert found == []
        return
    assert found == [("IR308", "C")]
    assert "'P'" in report.files[0].findings[0].message


def test_a_gather_of_float_indices_in_a_shape_subgraph_is_refused_not_evaluated(tmp_path):
    """The fuzz's IR900 (phi3_stateful): the i64 indices Const of a Gather in a Reshape's shape subgraph retyped f32.
    read_model refuses the Gather ("Indices element type must be of an integral number type."); irreshape reports
    it (IR303) and evaluates nothing from it."""
    x = o.parameter([2, 3, 4], np.float32)
    idx = c([0, 1])
    idx.set_friendly_name("idx")
    pattern = o.concat([o.gather(o.shape_of(x), idx, c(0)), c([-1])], 0)
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([o.reshape(x, pattern, False)], [x]), str(path))
    text = path.read_text()
    edited = re.sub(r'(name="idx" type="Const" version="opset1">\s*<data element_type=)"i64"', r'\1"f32"', text)
    assert edited != text
    path.write_text(edited)
    with pytest.raises(Exception, match="integral"):
        ov.Core().read_model(str(path))
    codes = {f.code for f in run_check(str(path)).files[0].findings if f.severity == "error"}
    assert "IR303" in codes and "IR900" not in codes, codes
