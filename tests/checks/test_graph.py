"""Graph evaluation of shape subgraphs: OpenVINO's bound rules, failures, memoisation, deep and cyclic graphs."""

from __future__ import annotations

import pytest

from irreshape.checks import check_file

from irreshape.checks.openvino import check_model
from irreshape.core.dims import format_shape, parse_shape
from irreshape.shapes import dimops, registry
from irreshape.shapes import values as V
from irreshape.checks.graph import Graph
from irreshape.checks.values import Unknown, Value
from irreshape.frontends.openvino import parse

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")
np = pytest.importorskip("numpy")

I64_MAX = (1 << 63) - 1


def c(values, dtype=None):
    return ops.constant(np.array(values, dtype=dtype or np.int64))


def save(tmp_path, outputs, params, name="m"):
    path = tmp_path / f"{name}.xml"
    ov.save_model(ov.Model(outputs, params, name), str(path), compress_to_fp16=False)
    return str(path)


def verdicts(path):
    result = check_file(path)
    return {lr.layer.name: lr for lr in result.layers}, result.findings


def expected(lr) -> str:
    return format_shape(lr.expected) if lr.expected_known else "unknown"


# -- engine: OpenVINO's bound rules (each measured on openvino 2026.4.1) ---------------------------------
def t(lo, hi, et="i64"):
    return V.Tensor(et, (len(lo),), tuple(lo), tuple(hi))


def test_shape_of_bounds_and_i32_clamp():
    dims = [(0, I64_MAX), (2, I64_MAX), (3, 10), (4, 4)]
    assert V.shape_of(dims, "i64") == t([0, 2, 3, 4], [I64_MAX, I64_MAX, 10, 4])
    assert V.shape_of(dims, "i32").hi == (2**31 - 1, 2**31 - 1, 10, 4)
    with pytest.raises(V.NoBounds):
        V.shape_of(None, "i64")


def test_arithmetic_masks_unbounded_inputs_to_question_mark():
    s = t([0, 2, 3, 4], [I64_MAX, I64_MAX, 10, 4])
    one = V.const("i64", (1,), [1])
    assert V.arithmetic("add", s, one) == t([0, 0, 4, 5], [I64_MAX, I64_MAX, 11, 5])
    assert V.arithmetic("minimum", s, V.const("i64", (1,), [3])) == t([0, 0, 3, 3], [I64_MAX, I64_MAX, 3, 3])
    with pytest.raises(V.NoBounds):  # OpenVINO's Multiply has no u8 kernel
        V.arithmetic("multiply", t([1], [2], "u8"), V.const("u8", (1,), [2]))
    with pytest.raises(V.Unsupported):  # its i16 bounds read uninitialised memory
        V.arithmetic("add", t([1], [2], "i16"), V.const("i16", (1,), [2]))


@pytest.mark.parametrize("a,b,pythondiv,want", [
    ((3, 10), (2, 2), True, (1, 5)),
    ((3, 10), (-2, -2), True, (-5, -2)),      # negative divisor: hi/lo .. lo/hi, floored
    ((3, 10), (-2, -2), False, (-5, -1)),     # truncated
    ((12, 12), (0, 5), True, (2, I64_MAX)),   # a divisor range starting at 0: no upper bound
    ((12, 12), (-1, 5), True, (-(1 << 63), I64_MAX)),
    ((0, I64_MAX), (2, 2), True, (0, I64_MAX)),
])
def test_divide_bounds(a, b, pythondiv, want):
    out = V.divide(t([a[0]], [a[1]]), t([b[0]], [b[1]]), pythondiv)
    assert (out.lo[0], out.hi[0]) == want


def test_divide_by_exact_zero_is_rejected_like_openvino():
    with pytest.raises(V.Rejected):
        V.divide(t([4], [4]), t([0], [0]), True)


def test_convert_keeps_the_maximum_for_wide_types_only():
    s = t([0, 300], [I64_MAX, 300])
    assert V.convert(s, "i32").hi == (2**31 - 1, 300)
    assert V.convert(s, "u8").hi == (255, 44)  # wraps, as C++ does
    assert V.convert(t([-1], [-1]), "u64").lo == (2**64 - 1,)


def test_reduce_prod_upper_bound_saturates():
    s = t([2, 0, 3], [8, I64_MAX, 3])
    out = V.reduce_prod(s, V.const("i64", (), [0]), True)
    assert (out.lo, out.hi, out.shape) == ((0,), (I64_MAX,), (1,))
    assert V.reduce_prod(t([2, 3], [8, 3]), V.const("i64", (1,), [0]), False).hi == (24,)


def test_gather_slice_and_strided_slice():
    s = t([1, 2, 3, 4], [1, 20, 30, 4])
    assert V.gather(s, V.const("i64", (2,), [-1, 1]), V.const("i64", (), [0])) == t([4, 2], [4, 20])
    assert V.slice_(s, *(V.const("i64", (1,), [v]) for v in (-1, -6, -2))) == t([4, 2], [4, 20])
    ss = V.strided_slice(s, *(V.const("i64", (1,), [v]) for v in (1, 0, 1)), [0], [1])
    assert ss == t([2, 3, 4], [20, 30, 4])
    with pytest.raises(V.NoBounds):  # non-constant indices: OpenVINO gives up
        V.gather(s, t([0], [1]), V.const("i64", (), [0]))


@pytest.mark.parametrize("a,b,want", [  # Dimension::broadcast_merge, measured
    ("1", "..8", "..8"), ("?", "3", "3"), ("?", "2..8", "2..8"), ("1..8", "?", "?"), ("2..8", "4..", "4..8"),
    ("..8", "1..", "?"), ("4..", "3", None), ("1..8", "1..", "1.."),
])
def test_broadcast_dim(a, b, want):
    got = dimops.broadcast_merge(parse_shape(a)[0], parse_shape(b)[0])
    assert (str(got) if got is not None else None) == want


def test_conv_shape_intervals():
    attrs = {"strides": "4,4", "dilations": "1,1", "pads_begin": "0,0", "pads_end": "0,0"}
    node = registry.Node("Convolution", "opset1", attrs, [parse_shape("1..8,3,5..20,..30"), parse_shape("16,3,4,4")])
    out, = registry.shape_fn("Convolution", "opset1")(node)
    assert format_shape(out) == "[1..8,16,1..5,1..7]"


# -- Graph on saved IR -----------------------------------------------------------------------------
def test_same_tensor_shape_of_does_not_cancel_as_in_openvino(tmp_path):
    """The issue's example: without symbols (read_model attaches none) OpenVINO says [?,?], not [?,768]."""
    x = ops.parameter(ov.PartialShape("?,12,64"), np.float32, name="x")
    pattern = ops.concat([ops.gather(ops.shape_of(x), c([0]), c(0)), c([-1])], 0)
    r = ops.reshape(x, pattern, False, name="r")
    assert str(r.get_output_partial_shape(0)) == "[?,?]"
    path = save(tmp_path, [r], [x])
    assert str(ov.Core().read_model(path).get_result().get_output_partial_shape(0)) == "[?,?]"
    layers, findings = verdicts(path)
    assert (layers["r"].status, expected(layers["r"])) == ("ok", "[?,?]")
    assert not [f for f in findings if f.severity == "error"]


def test_intervals_flow_through_products_and_division(tmp_path):
    x = ops.parameter(ov.PartialShape("1..8,16..64,6,200..400"), np.float32, name="x")
    s = ops.shape_of(x)
    half = ops.divide(ops.gather(s, c([1]), c(0)), c([2]))
    pattern = ops.concat([ops.gather(s, c([1]), c(0)), half, c([-1])], 0)
    r = ops.reshape(x, pattern, True, name="r")
    layers, _ = verdicts(save(tmp_path, [r], [x]))
    assert expected(layers["r"]) == str(r.get_output_partial_shape(0)) == "[16..64,8..32,10..9600]"


def test_floor_of_an_interval_gives_openvino_no_pattern(tmp_path):
    x = ops.parameter(ov.PartialShape("?,3..9"), np.float32, name="x")
    pattern = ops.concat([c([2]), ops.floor(ops.gather(ops.shape_of(x), c([1]), c(0)))], 0)
    r = ops.reshape(x, pattern, False, name="r")
    layers, _ = verdicts(save(tmp_path, [r], [x]))
    assert expected(layers["r"]) == str(r.get_output_partial_shape(0)) == "[?,?]"
    assert "OpenVINO cannot bound" in layers["r"].pattern_origin


def _split_equal(x):
    a, b, c_, d = ops.split(ops.shape_of(x), c(0), 4).outputs()
    return ops.concat([d, c_, a, c([-1])], 0)


def _split_i32_negative_axis(x):
    parts = ops.split(ops.shape_of(x, "i32"), c(-1), 2).outputs()
    return ops.concat([parts[1], parts[0]], 0)


def _variadic_split(x):
    a, b, c_ = ops.variadic_split(ops.shape_of(x), c(0), c([1, -1, 2])).outputs()
    return ops.concat([c_, ops.multiply(a, c([2])), b], 0)


def _variadic_split_of_gathered(x):  # falcon: Split of a Gather, the parts multiplied back
    dims = ops.gather(ops.shape_of(x), c([0, 1, 2]), c(0))
    a, b = ops.variadic_split(dims, c(0), c([2, 1])).outputs()
    return ops.concat([ops.reduce_prod(a, c([0]), True), b, c([-1])], 0)


@pytest.mark.parametrize("shape,build", [
    ("2..5,?,6,8", _split_equal),
    ("?,4..9,3,2", _split_i32_negative_axis),
    ("1..4,3,5..7,10", _variadic_split),
    ("2..3,?,4,6", _variadic_split_of_gathered),
])
def test_split_outputs_are_evaluated_per_port_like_openvino(tmp_path, shape, build):
    x = ops.parameter(ov.PartialShape(shape), np.float32, name="x")
    r = ops.reshape(x, build(x), False, name="r")
    path = save(tmp_path, [r], [x])
    theirs = str(ov.Core().read_model(path).get_result().get_output_partial_shape(0))
    assert theirs == str(r.get_output_partial_shape(0)) and any(ch.isdigit() for ch in theirs)
    layers, findings = verdicts(path)
    assert (layers["r"].status, expected(layers["r"])) == ("ok", theirs)
    assert not [f for f in findings if f.severity in ("error", "warning")]


def test_split_engine_lengths_and_failures():
    s = t([2, 0, 6, 8], [5, I64_MAX, 6, 8])
    parts = V.split(s, V.const("i64", (), [0]), V.const("i64", (3,), [1, -1, 1]))
    assert parts == [t([2], [5]), t([0, 6], [I64_MAX, 6]), t([8], [8])]
    with pytest.raises(V.Unsupported):
        V.split(s, V.const("i64", (), [0]), 3)
    with pytest.raises(V.NoBounds):  # OpenVINO needs the axis (and lengths) bounded exactly
        V.split(s, t([0], [1]), 2)


def _f32(g):
    return ops.convert(g, "f32")


def _back(v):
    return ops.convert(v, "i64")


def _f(value):
    return c(value, np.float32)


FLOAT_CHAINS = {  # a dim through f32 arithmetic and back, as exporters write `x / 2`, `x ** 0.5`, `ceil(x / 2)`
    "roundtrip": lambda g: _back(_f32(g)),
    "divide": lambda g: _back(ops.divide(_f32(g), _f(2.0))),
    "multiply": lambda g: _back(ops.multiply(_f32(g), _f(2.0))),
    "power_half": lambda g: _back(ops.power(_f32(g), _f(0.5))),
    "power_int": lambda g: ops.power(g, c(2)),
    "ceiling": lambda g: _back(ops.ceiling(ops.divide(_f32(g), _f(2.0)))),
    "floor": lambda g: _back(ops.floor(ops.divide(_f32(g), _f(2.0)))),
    "via_f16_i32": lambda g: _back(ops.convert(ops.convert(g, "f16"), "i32")),
}


@pytest.mark.parametrize("dim", ["7", "3..100", "1..", "?"])
@pytest.mark.parametrize("chain", list(FLOAT_CHAINS))
@pytest.mark.parametrize("compress", [False, True])
def test_float_shape_arithmetic_like_openvino(tmp_path, dim, chain, compress):
    """Interval arithmetic on f32 like on integers, truncation back to i64, Floor/Ceiling only on constants,
    and no bounds at all through the decompression Convert of a compressed f32 constant."""
    x = ops.parameter(ov.PartialShape(f"?,{dim},64"), np.float32, name="x")
    v = ops.unsqueeze(FLOAT_CHAINS[chain](ops.gather(ops.shape_of(x), c(1), c(0))), c(0))
    pattern = ops.concat([ops.gather(ops.shape_of(x), c([0]), c(0)), v, v, c([64])], 0)
    r = ops.reshape(x, pattern, False, name="r")
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([r], [x]), str(path), compress_to_fp16=compress)
    theirs = str(ov.Core().read_model(str(path)).get_result().get_output_partial_shape(0))
    layers, findings = verdicts(str(path))
    assert (layers["r"].status, expected(layers["r"])) == ("ok", theirs)
    # the view [b, v, v, 64] of [b, d, 64] holds only where v * v = d: an IR503 (issue 29: a dim taken twice, or
    # constants of another count) is fair only where OpenVINO refuses the model at a static shape
    assert not [f for f in findings if f.severity in ("error", "warning") and f.code != "IR503"]
    if any(f.code == "IR503" for f in findings):
        def holds(n):
            model = ov.Core().read_model(str(path))
            try:
                model.reshape({"x": ov.PartialShape([2, n, 64])})
            except Exception:  # noqa: BLE001 - OpenVINO's refusal is the verdict
                return False
            return True
        assert not all(holds(n) for n in ([7] if dim == "7" else [3, 5, 9]))


def test_float_engine_rules():
    s = V.convert(t([3, 0], [100, I64_MAX]), "f32")
    assert s == V.Tensor("f32", (2,), (3.0, 0.0), (100.0, V.type_max("f32")))
    half = V.divide(s, V.const("f32", (1,), [2.0]), True)
    assert half.lo == (1.5, 0.0) and half.hi == (50.0, V.type_max("f32"))
    assert V.convert(half, "i64") == t([1, 0], [50, I64_MAX])  # truncated; the maximum stays the maximum
    assert V.convert(V.const("f32", (1,), [-1.5]), "i64").lo == (-1,)
    with pytest.raises(V.NoBounds):  # Ceiling has no bound rule: only constants
        V.constant_only("ceiling", [half])
    assert V.constant_only("ceiling", [V.const("f32", (1,), [3.5])]).lo == (4.0,)
    # a divisor range from 0: the upper bound is the type's maximum, as in integers (divide::evaluate_bound)
    assert V.divide(s, t([0.0], [1.0], "f32"), True) == V.Tensor("f32", (2,), (3.0, 0.0), (V.type_max("f32"),) * 2)
    with pytest.raises(V.Unsupported):  # an exact 0: an infinity, converted as C++ leaves undefined
        V.divide(s, t([0.0], [0.0], "f32"), True)


def test_unsupported_op_leaves_the_layer_unverified_naming_it(tmp_path):
    """A SoftPlus on exact values: OpenVINO evaluates it (the pattern [2,4]), irreshape does not."""
    x = ops.parameter(ov.PartialShape("2,4"), np.float32, name="x")
    pattern = ops.convert(ops.softplus(ops.convert(ops.shape_of(x), "f32"), name="odd_softplus"), "i64")
    r = ops.reshape(x, pattern, False, name="r")
    layers, findings = verdicts(save(tmp_path, [r], [x]))
    assert layers["r"].status == "unverified"
    info = [f for f in findings if f.code == "IR109"]
    assert len(info) == 1 and "SoftPlus 'odd_softplus'" in info[0].message


def test_an_op_without_bounds_of_its_own_on_inexact_values_gives_none(tmp_path):
    """CumSum has no bound evaluator: on a ShapeOf with a `?` OpenVINO has no bounds, so the Reshape is [?,?]."""
    x = ops.parameter(ov.PartialShape("?,4"), np.float32, name="x")
    r = ops.reshape(x, ops.cumsum(ops.shape_of(x), c(0), name="odd_cumsum"), False, name="r")
    layers, findings = verdicts(save(tmp_path, [r], [x]))
    assert layers["r"].status == "ok" and [f.code for f in findings] == []
    assert str(layers["r"].expected) in ("[?,?]", "[Dim(?), Dim(?)]")


def test_division_by_zero_is_an_error_like_openvino(tmp_path):
    x = ops.parameter(ov.PartialShape("?,4"), np.float32, name="x")
    pattern = ops.divide(ops.shape_of(x), c([0]), name="div0")
    with pytest.raises(Exception, match="division by zero"):
        ops.reshape(x, pattern, False)
    path = save(tmp_path, [ops.result(pattern)], [x])
    graph = Graph(parse(path))
    layer = next(la for la in graph.model.layers.values() if la.name == "div0")
    value = graph.value(layer.outputs[0])
    assert isinstance(value, Unknown) and value.finding is not None and value.finding.code == "IR103"


def test_memoised_per_file_and_shared_shape_of_evaluated_once(tmp_path):
    x = ops.parameter(ov.PartialShape("?,8,8"), np.float32, name="x")
    s = ops.shape_of(x, name="shared")
    outs = [ops.reshape(x, ops.concat([ops.gather(s, c([0]), c(0)), c([64 // k, k])], 0), False, name=f"r{k}")
            for k in (1, 2, 4, 8)]
    model = parse(save(tmp_path, outs, [x]))
    calls = []
    graph = Graph(model)
    real = graph.evaluate
    graph.evaluate = lambda layer, port, sources: calls.append(layer.name) or real(layer, port, sources)
    for la in model.layers.values():
        if la.kind == "reshape":
            v = graph.input_value(la, la.inputs[1])
            assert isinstance(v, Value) and v is graph.input_value(la, la.inputs[1])
    assert calls.count("shared") == 1
    result = check_model(model)
    assert sorted(expected(lr) for lr in result.layers) == sorted(str(o.get_output_partial_shape(0)) for o in outs)
    assert {lr.status for lr in result.layers} == {"ok"}


def test_deep_chain_is_inferred_whole_and_never_recurses(tmp_path):
    x = ops.parameter(ov.PartialShape("?,4"), np.float32, name="x")
    v = ops.shape_of(x)
    for _ in range(1024):  # far deeper than Python's recursion limit would allow per frame
        v = ops.maximum(v, c([1]))
    r = ops.reshape(x, v, False, name="r")
    layers, findings = verdicts(save(tmp_path, [r], [x]))
    assert layers["r"].status == "ok" and expected(layers["r"]) == str(r.get_output_partial_shape(0))
    assert not findings


CYCLE = """<?xml version="1.0"?>
<net name="cyc" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1"><data shape="?,4" element_type="f32"/>
      <output><port id="0" precision="FP32"><dim>-1</dim><dim>4</dim></port></output></layer>
    <layer id="1" name="a" type="Add" version="opset1"><data auto_broadcast="numpy"/>
      <input><port id="0" precision="I64"><dim>2</dim></port><port id="1" precision="I64"><dim>2</dim></port></input>
      <output><port id="2" precision="I64"><dim>2</dim></port></output></layer>
    <layer id="2" name="b" type="Maximum" version="opset1"><data auto_broadcast="numpy"/>
      <input><port id="0" precision="I64"><dim>2</dim></port><port id="1" precision="I64"><dim>2</dim></port></input>
      <output><port id="2" precision="I64"><dim>2</dim></port></output></layer>
    <layer id="3" name="r" type="Reshape" version="opset1"><data special_zero="false"/>
      <input><port id="0" precision="FP32"><dim>-1</dim><dim>4</dim></port><port id="1" precision="I64"><dim>2</dim></port></input>
      <output><port id="2" precision="FP32"><dim>-1</dim><dim>-1</dim></port></output></layer>
  </layers>
  <edges>
    <edge from-layer="2" from-port="2" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="2" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="2" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="1" to-port="1"/>
    <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="1"/>
  </edges>
</net>
"""


def test_cycle_is_reported_not_followed(tmp_path):
    path = tmp_path / "cyc.xml"
    path.write_text(CYCLE)
    layers, findings = verdicts(str(path))
    assert layers["r"].status == "unverified"
    assert any(f.code == "IR109" and "cycle" in f.message for f in findings)


@pytest.mark.parametrize("shape, order", [((2, 4), (1, 0)), ((2, 3, 4), (2, 0, 1)), ((2, 3, 4), ()), ((5,), (0,)),
                                          ((), ()), ((1, 2, 1, 3), (3, 1, 0, 2))])
def test_transpose_moves_both_bounds_as_numpy_moves_values(shape, order):
    n = int(np.prod(shape)) if shape else 1
    lo, hi = list(range(n)), [v + 100 for v in range(n)]
    t = V.transpose(V.Tensor("i64", shape, tuple(lo), tuple(hi)), V.const("i64", (len(order),), order))
    perm = order or None
    assert t.shape == np.transpose(np.array(lo).reshape(shape), perm).shape
    assert list(t.lo) == np.transpose(np.array(lo).reshape(shape), perm).ravel().tolist()
    assert list(t.hi) == np.transpose(np.array(hi).reshape(shape), perm).ravel().tolist()


def test_transpose_needs_a_constant_permutation():
    data = V.const("i64", (2, 2), [1, 2, 3, 4])
    with pytest.raises(V.NoBounds):
        V.transpose(data, V.Tensor("i64", (2,), (0, 0), (1, 1)))
    with pytest.raises(V.Unsupported):
        V.transpose(data, V.const("i64", (2,), [0, 0]))
