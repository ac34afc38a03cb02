"""The compile-stage features of recurrent nets, IsFinite/IsInf/IsNaN, If, Loop and TensorIterator back edges and
quantized Concats (:mod:`irreshape.checks.plugin`): irreshape finds each probe's feature in it (the probe families
of tests/irtools/plugincases.py, built with openvino's API), none of them in near misses, and in the real
conversions of tests/data/compile (scripts/make_compile_fixtures.py), tests/data/frontends and the Model
Optimizer's TensorIterator LSTMs of ../shared/wild-ir the features measured there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from irtools import plugincases

openvino = pytest.importorskip("openvino")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
WILD = ROOT.parent / "shared" / "wild-ir"
MINE = ("rnn-weights", "bool-out", "bool-in", "if-rank", "back-edge", "ti-cell", "concat-fq-convert")
FAMILIES = ("rnn_cases", "check_cases", "if_cases", "back_edge_cases", "quantized_cases")


def features(path: Path) -> list[tuple[tuple, str]]:
    """(key, layer name) of every feature irreshape finds in the file, whatever the table holds."""
    from irreshape.checks.plugin import every_feature
    from irreshape.frontends.openvino import parse

    return [(i.key, i.name) for i in every_feature(parse(str(path)))]


def mine(path: Path) -> list[tuple[tuple, str]]:
    return [(k, n) for k, n in features(path) if k[0] in MINE]


def _write(tmp_path: Path, name: str, xml: str, weights: bytes) -> Path:
    path = tmp_path / f"{name}.xml"
    path.write_text(xml)
    path.with_suffix(".bin").write_bytes(weights)
    return path


@pytest.mark.parametrize("family", FAMILIES)
def test_each_probe_holds_the_feature_it_is_a_probe_of_and_no_other_of_these(family, tmp_path):
    cases = list(getattr(plugincases, family)())
    assert cases
    for case in cases:
        found = features(_write(tmp_path, case.name, case.xml, case.weights))
        keys = [k for k, _ in found]
        assert case.key in keys, (case.name, case.key, keys)
        others = {k for k in keys if k[0] in MINE and k != case.key}
        assert not others, (case.name, others)


def test_the_op_probes_of_rnn_ops_hold_constant_weights(tmp_path):
    """An RNN op version's probes (the op family's and the rnn family's) hold no "rnn-weights" feature: 2023.0
    refuses a cell on non-constant weights in words of its own."""
    rnn = [c for c in [*plugincases.op_cases(), *plugincases.rnn_cases()]
           if c.key[0] == "op" and (c.key[1], c.key[2]) in plugincases.RNN_OPS]
    assert {(c.key[1], c.key[2]) for c in rnn} == set(plugincases.RNN_OPS)
    for case in rnn:
        keys = [k for k, _ in features(_write(tmp_path, case.name, case.xml, case.weights))]
        assert not [k for k in keys if k[0] == "rnn-weights"], case.name


def _save(tmp_path: Path, name: str, model) -> Path:
    path = tmp_path / f"{name}.xml"
    openvino.save_model(model, str(path), compress_to_fp16=False)
    return path


def _near_misses():
    """Models that hold none of these features, each a near miss of one."""
    import openvino as ov
    from openvino import opset1, opset4, opset8 as o, opset10

    f32 = ov.Type.f32
    i64 = lambda v: o.constant(np.array(v, np.int64))  # noqa: E731

    def check(users):
        x = opset1.parameter([2, 3], f32, name="x")
        b = opset10.is_finite(x)
        return ov.Model([opset1.result(u(b)) for u in users], [x], "m")

    yield "check_into_result", check([lambda b: b])
    yield "check_into_one_logical_not", check([lambda b: opset1.logical_not(b)])

    def if_model(cond_fn, shape=(2, 3)):
        x = o.parameter(list(shape), f32, name="x")
        tx, ex = o.parameter(list(shape), f32), o.parameter(list(shape), f32)
        node = o.if_op(cond_fn(x).output(0))
        node.set_then_body(ov.Model([o.result(o.unsqueeze(tx, i64([0])))], [tx], "then"))
        node.set_else_body(ov.Model([o.result(o.relu(ex))], [ex], "else"))
        node.set_input(x.output(0), tx, ex)
        out = node.set_output(node.get_then_body().get_results()[0], node.get_else_body().get_results()[0])
        return ov.Model([o.result(o.relu(out))], [x], "m")

    yield "if_on_a_constant", if_model(lambda x: o.constant(np.array(True)))
    yield "if_on_a_static_dim", if_model(lambda x: o.equal(o.gather(o.shape_of(x), i64(1), i64(0)), i64(3)))

    def loop(init, step, shape):
        x = o.parameter(shape, f32, name="x")
        state, bx = o.parameter(init, f32, name="state"), o.parameter(shape, f32, name="bx")
        res = o.result(step(state, bx))
        node = o.loop(i64(3), o.constant(np.array(True)))
        node.set_function(ov.Model([o.result(o.constant(np.array(True))), res],
                                   [o.parameter([1], ov.Type.i64, name="it"), state, bx], "body"))
        node.set_special_body_ports([0, 0])
        node.set_merged_input(state, o.constant(np.zeros(init, np.float32)).output(0), res.output(0))
        node.set_invariant_input(bx, x.output(0))
        return ov.Model([o.result(node.get_iter_value(res.output(0), -1))], [x], "m")

    yield "loop_back_edge_keeps_its_shape", loop([2, 3], lambda s, x: o.add(s, x), [2, 3])
    yield "loop_back_edge_grows_on_a_dynamic_input", loop([1, 3], lambda s, x: o.concat(
        [s, o.reduce_sum(x, i64([0]), True)], 0), [-1, 3])

    # a TensorIterator over an RNNCell with an op after it: no plugin turns it into a sequence
    xs = o.parameter([2, 3, 5], f32, name="X")
    bx, bh = o.parameter([2, 1, 5], f32, name="bx"), o.parameter([2, 4], f32, name="bh")
    rng = np.random.default_rng(0)
    cell = opset4.rnn_cell(o.squeeze(bx, i64([1])), bh, *(o.constant(rng.standard_normal(s).astype(np.float32))
                                                         for s in ([4, 5], [4, 4], [4])), 4, ["tanh"], [], [], 0.0)
    rh = o.result(o.relu(cell))
    ti = o.tensor_iterator()
    ti.set_body(ov.Model([rh], [bx, bh], "body"))
    ti.set_sliced_input(bx, xs.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(bh, o.constant(np.zeros((2, 4), np.float32)).output(0), rh.output(0))
    yield "ti_cell_and_relu", ov.Model([o.result(ti.get_iter_value(rh.output(0), -1))], [xs], "m")

    def fq(t):
        c = lambda v: opset1.constant(np.full([1, 1, 1, 1], v, np.float32))  # noqa: E731
        return opset1.fake_quantize(t, c(-1.0), c(1.0), c(-1.0), c(1.0), 256)

    x = opset1.parameter([1, 3, 8, 8], f32, name="x")
    q = fq(opset1.concat([x, opset1.relu(x)], 1))
    yield "concat_fq_two_users", ov.Model([opset1.result(opset1.convert(q, "i8")), opset1.result(q)], [x], "m")
    x = opset1.parameter([1, 3, 8, 8], f32, name="x")
    yield "add_fq_convert", ov.Model([opset1.result(opset1.convert(fq(opset1.add(x, opset1.relu(x))), "i8"))],
                                     [x], "m")


def test_near_misses_hold_none_of_these_features(tmp_path):
    for name, model in _near_misses():
        assert mine(_save(tmp_path, name, model)) == [], name


@pytest.mark.parametrize(("name", "expected"), [
    ("compile/keras_simplernn_static", [(("back-edge", "Loop", "static-change"), "functional_1/simple_rnn_1/while")]),
    ("compile/tf_is_finite", [(("bool-out", "IsFinite"), "IsFinite")]),
    ("compile/tf2onnx_is_finite", [(("bool-in", "LogicalOr"), "IsFinite__14")]),
    ("compile/torch_if_same_length", [(("if-rank", "same-value"), "prim::If/If")]),
    ("compile/torch_if_run_time", [(("if-rank", "runtime"), "prim::If/If")]),
    ("frontends/tf_frozen_ops", [(("bool-out", "IsFinite"), "Transpose_12947")]),
    ("frontends/torch_export_lstm", []),
    ("frontends/keras_inmemory_lstm", []),
    ("frontends/tflite_cnn_int8", []),
])
def test_real_conversions_hold_the_features_measured_on_them(name, expected):
    assert mine(DATA / f"{name}.xml") == expected


@pytest.mark.skipif(not WILD.is_dir(), reason="../shared/wild-ir is absent")
def test_model_optimizer_tensor_iterator_lstms_hold_lstmcell_0_on_constant_weights():
    files = sorted(WILD.glob("davidebagheri__eye_blink_detector__*lstm*.xml"))
    assert len(files) == 5
    for path in files:
        found = features(path)
        assert any(k == ("op", "LSTMCell", 0, 6) for k, _ in found), path.name
        assert [k for k, _ in found if k[0] in MINE] == [], path.name
