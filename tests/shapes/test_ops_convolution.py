"""The convolution family's shape functions against openvino 2026.4.1: MatMul, Convolution,
GroupConvolution, BinaryConvolution, DeformableConvolution (v1, v8), ConvolutionBackpropData,
GroupConvolutionBackpropData and Einsum.

Each op gets hand-picked edge cases (pads that OpenVINO's Dimension arithmetic treats unusually, kernels
larger than the input, interval channels, dynamic ranks) and a seeded random sweep of attributes crossed
with static, ``?``, interval and dynamic-rank inputs, valid and invalid alike.
"""

from __future__ import annotations

import random
import re

import numpy as np
import openvino as ov
import pytest
from openvino import opset1, opset8
from openvino import opset15 as o

from irreshape.core.dims import format_shape, parse_shape
from irreshape.shapes import registry
from irreshape.shapes.values import Tensor
from irreshape.shapes.values import const as const_tensor
from ovshapes import Case, assert_cases, run_cases, to_shape

I64 = ov.Type.i64
F32 = ov.Type.f32
AUTO_PADS = ("explicit", "same_upper", "same_lower", "valid")
PADS = (-2, -1, 0, 0, 0, 1, 2, 3)


def rdim(rng: random.Random, lo: int = 1, hi: int = 12) -> str:
    """A random dim: mostly static, else ``?`` or an interval (``a..b``, ``..b``, ``a..``)."""
    r = rng.random()
    if r < 0.55:
        return str(rng.randint(lo, hi))
    if r < 0.65:
        return "?"
    a = rng.randint(lo, hi)
    b = rng.randint(a, a + 8)
    return rng.choice([f"{a}..{b}", f"..{b}", f"{a}.."])


def channel(rng: random.Random, c: int) -> str:
    """Mostly ``c``; else a compatible interval, ``?``, or a clash."""
    return rng.choice([str(c)] * 6 + ["?", f"{max(1, c - 1)}..{c + 2}", str(c + 1), f"{c + 1}.."])


def shape(dims: list[str]) -> str:
    return ",".join(dims)


def spatial_attrs(rng: random.Random, n: int) -> dict:
    return dict(strides=[rng.randint(1, 3) for _ in range(n)], dilations=[rng.choice([1, 1, 2, 3]) for _ in range(n)],
                pads_begin=[rng.choice(PADS) for _ in range(n)], pads_end=[rng.choice(PADS) for _ in range(n)],
                auto_pad=rng.choice(AUTO_PADS))


def maybe_dynamic_rank(rng: random.Random, text: str, p: float = 0.08) -> str:
    return "..." if rng.random() < p else text


def P(text: str, et: ov.Type = F32):
    return o.parameter(ov.PartialShape.dynamic() if text == "..." else ov.PartialShape(f"[{text}]"), et)


def assert_rejected_everywhere(build, kind: str, version: str, attrs: dict, shapes: list[str],
                               values: list | None = None) -> None:
    """For attributes OpenVINO refuses whatever the inputs (so the harness cannot rebuild the op on dynamic
    ranks): openvino throws on ``shapes``, and irreshape raises ShapeError on the IR attributes ``attrs``
    (and the input ``values``, where given)."""
    with pytest.raises(Exception):
        build([P(s) for s in shapes])
    fn = registry.shape_fn(kind, version)
    node = registry.Node(kind, version, attrs, [parse_shape(s) for s in shapes], values=values)
    with pytest.raises(registry.ShapeError):
        fn(node)


def raw(shapes: list) -> list:
    """Shapes as text with their raw bounds, as the harness compares them."""
    return [format_shape(s) + ("" if s is None else str([(d.lo, d.hi) for d in s])) for s in shapes]


def assert_raw_attributes(build, kind: str, version: str, attrs: dict, shapes: list[str],
                          values: list | None = None) -> None:
    """An IR from another writer may hold attributes OpenVINO's own never shows (empty lists, which OpenVINO
    fills in as it validates the op; pads an auto pad overrides, which it writes back): openvino's output
    from the attributes given to ``build`` against irreshape's from the same attributes as the IR strings
    ``attrs`` (and the input ``values``, where given)."""
    op = build([P(s) for s in shapes])
    node = registry.Node(kind, version, attrs, [to_shape(x.get_partial_shape()) for x in op.inputs()], values=values)
    got = registry.shape_fn(kind, version)(node)
    assert raw(got) == raw([to_shape(x.get_partial_shape()) for x in op.outputs()]), (kind, attrs, shapes)


def read_rewritten(tmp_path, build, shapes: list[str], attr: str, value: str) -> list:
    """openvino's output shapes for the op ``build`` makes once its IR attribute ``attr`` is rewritten to
    ``value`` and the IR read back (raises where openvino refuses that IR)."""
    params = [P(s) for s in shapes]
    op = build(params)
    op.set_friendly_name("target")
    xml = tmp_path / "case.xml"
    ov.save_model(ov.Model([o.result(x) for x in op.outputs()], params, "case"), str(xml))
    xml.write_text(re.sub(rf'\b{attr}="[^"]*"', f'{attr}="{value}"', xml.read_text()))
    target = next(n for n in ov.Core().read_model(str(xml)).get_ops() if n.get_friendly_name() == "target")
    return [to_shape(x.get_partial_shape()) for x in target.outputs()]


def test_every_op_is_registered():
    for kind, version in [("MatMul", "opset1"), ("Convolution", "opset1"), ("GroupConvolution", "opset1"),
                          ("BinaryConvolution", "opset1"), ("DeformableConvolution", "opset1"),
                          ("DeformableConvolution", "opset8"), ("ConvolutionBackpropData", "opset1"),
                          ("GroupConvolutionBackpropData", "opset1"), ("Einsum", "opset7"), ("matmul", "opset13")]:
        assert registry.shape_fn(kind, version) is not None, (kind, version)
    # DeformableConvolution-1 is the one opset1 to opset7 hold; opset8 and later hold DeformableConvolution-8
    assert registry.shape_fn("DeformableConvolution", "opset7") is registry.shape_fn("DeformableConvolution", "opset1")
    assert registry.shape_fn("DeformableConvolution", "opset15") is registry.shape_fn("DeformableConvolution", "opset8")
    assert registry.shape_fn("DeformableConvolution", "opset8") is not registry.shape_fn("DeformableConvolution",
                                                                                        "opset1")


# -- MatMul ---------------------------------------------------------------------------------------------
def matmul(ta: bool, tb: bool):
    return lambda p: o.matmul(p[0], p[1], ta, tb)


def test_matmul():
    fixed = [
        ("2,3", "3,4"), ("3", "3"), ("3", "3,4"), ("2,3", "3"), ("5,2,3", "3,4"), ("3", "7,3,4"),
        ("2,1,2,3", "4,3,5"), ("2,3", "4,3"), ("", "3"), ("3", ""), ("...", "3,4"), ("2,3", "..."),
        ("2..5,3", "?,4"), ("2,3..6", "5..9,4"), ("2,3..4", "5..9,4"), ("2,..4", "5,4"), ("3,2,3", "4,3,4"),
        ("2..3,2,3", "5..6,3,4"), ("1..3,2,3", "4..6,3,4"), ("?,2,3", "4,3,4"), ("0,2,3", "1,3,4"),
        ("1..,2,3", "..4,3,4"), ("1,1,2,3", "1,3,4"), ("2,3,3", "3"), ("7", "7,1"), ("1,7", "7"),
        ("1", "1"), ("4", "5"), ("?", "?"), ("2..3", "4..6"), ("5..3,2,3", "4,3,4"), ("2,5..3", "3,4"),
    ]
    cases = [Case(matmul(ta, tb), [a, b], label=f"{a} x {b} t={ta},{tb}")
             for a, b in fixed for ta in (False, True) for tb in (False, True)]
    rng = random.Random(11)
    for _ in range(60):
        inner = rng.randint(1, 6)
        batch = [rdim(rng, 1, 4) for _ in range(rng.randint(0, 3))]
        a = batch[rng.randint(0, len(batch)):] + [rdim(rng, 1, 6), channel(rng, inner)]
        b = batch[rng.randint(0, len(batch)):] + [channel(rng, inner), rdim(rng, 1, 6)]
        ta, tb = rng.random() < 0.5, rng.random() < 0.5
        if ta:
            a[-2:] = a[-1], a[-2]
        if tb:
            b[-2:] = b[-1], b[-2]
        if rng.random() < 0.15:
            a = a[-1:]
        if rng.random() < 0.15:
            b = b[-2:-1] if not tb else b[-1:]
        cases.append(Case(matmul(ta, tb), [maybe_dynamic_rank(rng, shape(a)), maybe_dynamic_rank(rng, shape(b))]))
    assert_cases(cases, min_cases=150)


# -- Convolution, BinaryConvolution, GroupConvolution -----------------------------------------------------
def conv(**k):
    return lambda p: o.convolution(p[0], p[1], k["strides"], k["pads_begin"], k["pads_end"], k["dilations"],
                                   k["auto_pad"])


def binary_conv(**k):
    return lambda p: o.binary_convolution(p[0], p[1], k["strides"], k["pads_begin"], k["pads_end"], k["dilations"],
                                          "xnor-popcount", 0.0, k["auto_pad"])


def group_conv(**k):
    return lambda p: o.group_convolution(p[0], p[1], k["strides"], k["pads_begin"], k["pads_end"], k["dilations"],
                                         k["auto_pad"])


def attrs(n: int, s=1, pb=0, pe=0, d=1, auto_pad="explicit") -> dict:
    return dict(strides=[s] * n, pads_begin=[pb] * n, pads_end=[pe] * n, dilations=[d] * n, auto_pad=auto_pad)


def test_convolution_edges():
    a2 = attrs(2)
    cases = [
        Case(conv(**a2), ["1,3,10,10", "4,3,3,3"]),
        # a pad sum of -1 is Dimension(-1), a dynamic dim; any other negative sum is Dimension(0)
        Case(conv(**attrs(2, pb=-1)), ["1,3,10,10", "4,3,3,3"]),
        Case(conv(**attrs(2, pb=-2)), ["1,3,10,10", "4,3,3,3"]),
        Case(conv(**attrs(2, pb=-3, pe=1)), ["1,3,10,10", "4,3,3,3"]),
        Case(conv(**attrs(2, pb=-1)), ["1,3,2,2", "4,3,3,3"]),
        # kernel larger than the (padded) input: rejected where static, clipped at 0 where an interval
        Case(conv(**a2), ["1,3,2,10", "4,3,3,3"]),
        Case(conv(**attrs(2, pb=1)), ["1,3,2,10", "4,3,3,3"]),
        Case(conv(**a2), ["1,3,1..2,..2", "4,3,3,3"]),
        Case(conv(**attrs(2, d=4)), ["1,3,8,9", "4,3,3,3"]),
        Case(conv(**attrs(2, auto_pad="same_upper")), ["1,3,2,10", "4,3,3,3"]),
        Case(conv(**attrs(2, auto_pad="valid", pb=5)), ["1,3,2,10", "4,3,3,3"]),
        Case(conv(**attrs(2, s=2, auto_pad="same_lower")), ["1,3,2..9,..7", "4,3,3,3"]),
        Case(conv(**attrs(2, s=3)), ["?,3,?,3..", "4,3,?,2..4"]),
        Case(conv(**attrs(2)), ["1,3,10,10", "4,3,0,3"]),
        # channels
        Case(conv(**a2), ["1,3,10,10", "4,2,3,3"]),
        Case(conv(**a2), ["1,2..5,10,10", "4,6..,3,3"]),
        Case(conv(**a2), ["1,2..5,10,10", "4,5..,3,3"]),
        # ranks
        Case(conv(**attrs(1)), ["1,3,10", "4,3,3"]),
        Case(conv(**attrs(3)), ["1,3,5,6,7", "4,3,1,2,3"]),
        Case(conv(**attrs(2)), ["1,3,5,6,7", "4,3,1,2,3"]),
        Case(conv(**attrs(2)), ["1,3,5,6", "4,3,1,2,3"]),
        Case(conv(**attrs(1)), ["3", "3"]),
        Case(conv(**attrs(1)), ["", ""]),
        Case(conv(**attrs(1)), ["3,4", "3,4"]),
        Case(conv(**attrs(4)), ["1,3,2,2,2,2", "4,3,1,1,1,1"]),
        Case(conv(**a2), ["...", "4,3,3,3"]),
        Case(conv(**a2), ["1,3,10,10", "..."]),
        Case(conv(**a2), ["...", "..."]),
        Case(conv(**attrs(3)), ["...", "..."]),
        Case(conv(**attrs(2, auto_pad="same_upper")), ["...", "..."]),
        Case(conv(**attrs(0)), ["...", "..."]),  # no attribute gives the spatial count: a dynamic rank
        Case(conv(**attrs(0)), ["...", "4,3"]),  # filters of rank 2: no spatial dims at all
        Case(conv(**attrs(1)), ["...", "4,3,5"]),
        Case(conv(**attrs(0)), ["...", "4,3,5"]),  # empty strides etc. resized to the spatial count
        Case(conv(**attrs(0)), ["1,3,5,5", "4,3,2,2"]),
        Case(conv(**attrs(2)), ["...", ""]),
        Case(conv(**attrs(0)), ["3", "3"]),  # a rank-1 data's count wraps to "undefined": nothing validated
        Case(conv(**attrs(0)), ["3", "..."]),
        Case(group_conv(**attrs(0)), ["3", "3,3"]),
        Case(conv(**attrs(2)), ["", "..."]),
        # GroupConvolution takes its spatial count from the attributes for a rank-2 filter and reads those two
        # dims as the kernel
        Case(group_conv(**attrs(2)), ["...", "2,3"]),
        Case(group_conv(**attrs(2, auto_pad="same_upper")), ["...", "2,3"]),
        Case(group_conv(**attrs(2)), ["...", "2"]),
        # groups: Dimension(4..) / 2 is 2..4611686018427387904, and a division by a 0 dim gives 0
        Case(group_conv(**a2), ["1,4..,5,5", "?,1,2,3,3"]),
        Case(group_conv(**a2), ["1,4..,5,5", "?,3,2,3,3"]),
        Case(group_conv(**a2), ["1,4..,5,5", "?,3,0,3,3"]),
        Case(group_conv(**a2), ["1,4,5,5", "?,3,0,3,3"]),
        Case(group_conv(**a2), ["1,0,5,5", "?,3,0,3,3"]),
        Case(group_conv(**a2), ["1,?,5,5", "2,3,2,3,3"]),
        Case(group_conv(**a2), ["1,5,5,5", "2,3,2,3,3"]),
        Case(group_conv(**a2), ["1,3..9,5,5", "2..4,3,2,3,3"]),
        Case(group_conv(**a2), ["1,3..9,5,5", "5..,3,2,3,3"]),
        Case(group_conv(**a2), ["1,4,5,5,5", "2,3,2,3,3"]),
        Case(group_conv(**a2), ["1,4,5,5", "2,3,2,3,3,3"]),
        Case(group_conv(**a2), ["1,4,5,5", "..."]),
        # groups times output channels saturating both bounds: an empty interval
        Case(group_conv(**a2), ["1,?,5,5", "1099511627776..,1099511627776..,1,3,3"]),
        Case(group_conv(**a2), ["...", "2,3,2,3,3"]),
        Case(group_conv(**attrs(1)), ["1,4,5", "1,3,4,2"]),
        # an empty dim ("5..3", as a saturated product leaves one upstream): ceil_div of it is 1.. at stride 3
        Case(conv(**attrs(2, s=3, auto_pad="same_upper")), ["1,3,5..3,7", "4,3,3,3"]),
        Case(conv(**attrs(2, s=2, auto_pad="same_lower")), ["1,3,5..3,7", "4,3,3,3"]),
        Case(conv(**attrs(2, s=3)), ["1,3,5..3,7", "4,3,3,3"]),
        Case(conv(**attrs(2, auto_pad="valid")), ["1,3,7,7", "4,3,5..3,3"]),
        Case(conv(**a2), ["1,5..3,7,7", "4,3,3,3"]),
        Case(group_conv(**a2), ["1,5..3,5,5", "?,3,2,3,3"]),
        Case(group_conv(**a2), ["1,4,5,5", "5..3,3,2,3,3"]),
        Case(binary_conv(**a2), ["1,3,10,10", "4,3,3,3"]),
        Case(binary_conv(**attrs(1)), ["1,3,10", "4,3,3"]),
        Case(binary_conv(**attrs(3)), ["1,3,5,5,5", "4,3,3,3,3"]),
        Case(binary_conv(**attrs(2, auto_pad="same_upper")), ["1,3,1..9,?", "..."]),
    ]
    assert_cases(cases)


def random_conv_case(rng: random.Random, kind: str) -> Case:
    n = 2 if kind == "binary" else rng.randint(1, 3)
    k = spatial_attrs(rng, n)
    c = rng.randint(1, 4)
    if kind == "group":
        groups = rng.randint(1, 3)
        data = [rdim(rng, 1, 3), channel(rng, groups * c)] + [rdim(rng, 1, 12) for _ in range(n)]
        filters = [channel(rng, groups), rdim(rng, 1, 4), channel(rng, c)] + [rdim(rng, 1, 5) for _ in range(n)]
        build = group_conv(**k)
    else:
        data = [rdim(rng, 1, 3), channel(rng, c)] + [rdim(rng, 1, 12) for _ in range(n)]
        filters = [rdim(rng, 1, 6), channel(rng, c)] + [rdim(rng, 1, 5) for _ in range(n)]
        build = binary_conv(**k) if kind == "binary" else conv(**k)
    return Case(build, [maybe_dynamic_rank(rng, shape(data)), maybe_dynamic_rank(rng, shape(filters))],
                label=f"{kind} {data} {filters} {k}")


@pytest.mark.parametrize("kind,seed,count", [("conv", 1, 130), ("group", 2, 90), ("binary", 3, 30)])
def test_convolution_random(kind, seed, count):
    rng = random.Random(seed)
    assert_cases([random_conv_case(rng, kind) for _ in range(count)], min_cases=count)


@pytest.mark.parametrize("kind", ["Convolution", "GroupConvolution", "BinaryConvolution"])
def test_convolution_bad_attributes(kind, tmp_path):
    build = {"Convolution": o.convolution, "GroupConvolution": o.group_convolution}.get(kind)
    filters = "4,3,3,3" if kind != "GroupConvolution" else "1,4,3,3,3"
    for strides, pb, pe, dil in [([0, 1], [0, 0], [0, 0], [1, 1]), ([1, 1], [0, 0], [0, 0], [1, 0]),
                                 ([1], [0, 0], [0, 0], [1, 1]), ([1, 1], [0], [0, 0], [1, 1]),
                                 ([1, 1], [0, 0], [0, 0], [1, 1, 1])]:
        ir = {"strides": ",".join(map(str, strides)), "pads_begin": ",".join(map(str, pb)),
              "pads_end": ",".join(map(str, pe)), "dilations": ",".join(map(str, dil)), "auto_pad": "explicit"}
        if kind == "BinaryConvolution":
            def make(p, s=strides, b=pb, e=pe, d=dil):
                return o.binary_convolution(p[0], p[1], s, b, e, d, "xnor-popcount", 0.0)
        else:
            def make(p, s=strides, b=pb, e=pe, d=dil):
                return build(p[0], p[1], s, b, e, d)
        assert_rejected_everywhere(make, kind, "opset1", ir, ["1,3,10,10", filters])
        assert_rejected_everywhere(make, kind, "opset1", ir, ["...", "..."])
    # an auto_pad name OpenVINO's enum does not have (it has no "notset"), or a mode BinaryConvolution lacks:
    # openvino refuses to read the IR
    valid = (binary_conv if kind == "BinaryConvolution" else conv if kind == "Convolution" else group_conv)(**attrs(2))
    bad = [("auto_pad", "notset"), ("auto_pad", ""), ("auto_pad", "auto")]
    for attr, value in bad + ([("mode", "xor")] if kind == "BinaryConvolution" else []):
        with pytest.raises(Exception):
            read_rewritten(tmp_path, valid, ["1,3,9,9", filters], attr, value)
        node = registry.Node(kind, "opset1", {"strides": "1,1", attr: value},
                             [parse_shape("1,3,9,9"), parse_shape(filters)])
        with pytest.raises(registry.ShapeError):
            registry.shape_fn(kind, "opset1")(node)


def test_negative_strides(tmp_path):
    # OpenVINO reads "-1" into a size_t stride (2**64 - 1): one window on static dims; a negative dilation, or
    # a negative stride on dynamic dims or backwards, makes dims irreshape does not emulate
    ir = {"strides": "-1,1", "dilations": "1,1", "pads_begin": "0,0", "pads_end": "0,0", "auto_pad": "explicit"}
    assert raw(read_rewritten(tmp_path, conv(**attrs(2)), ["1,3,10,10", "4,3,3,3"], "strides", "-1, 1")) == \
        raw([parse_shape("1,4,1,8")])
    for kind in ("Convolution", "BinaryConvolution"):
        node = registry.Node(kind, "opset1", ir, [parse_shape("1,3,10,10"), parse_shape("4,3,3,3")])
        assert raw(registry.shape_fn(kind, "opset1")(node)) == raw([parse_shape("1,4,1,8")])
        for edit, shapes in (({"dilations": "1,-1"}, ("1,3,10,10", "4,3,3,3")), ({}, ("1,3,?,10", "4,3,3,3"))):
            node = registry.Node(kind, "opset1", {**ir, **edit}, [parse_shape(s) for s in shapes])
            with pytest.raises(registry.Undecided):
                registry.shape_fn(kind, "opset1")(node)


def test_convolution_filter_read_before_its_start_is_undecided():
    # With the data's rank dynamic and fewer filter dims than the spatial count the attributes give,
    # OpenVINO reads the kernel dims from before the start of the filter shape (undefined behaviour);
    # irreshape does not reproduce memory it has not got. Same padding never reads the kernel: decided.
    cases = [Case(conv(**attrs(2)), ["...", "7"]), Case(group_conv(**attrs(3)), ["...", "2,3"])]
    outcomes = run_cases(cases)
    assert all(not isinstance(x.expected, str) for x in outcomes), [str(x) for x in outcomes]
    assert all(isinstance(x.got, str) and x.got.startswith("Undecided") for x in outcomes), [str(x) for x in outcomes]
    assert_cases([Case(conv(**attrs(2, auto_pad="same_lower")), ["...", "7"])])


def test_raw_attribute_lists():
    empty = {"strides": "", "dilations": "", "pads_begin": "", "pads_end": "", "auto_pad": "explicit"}
    strided = {**empty, "strides": "2,3"}
    for kind, make, filters in [("Convolution", o.convolution, "4,3,3,3"), ("GroupConvolution", o.group_convolution,
                                                                             "1,4,3,3,3")]:
        for shapes in (["1,3,10,9", filters], ["...", filters], ["1,3,10,9", "..."], ["...", "..."]):
            assert_raw_attributes(lambda p, m=make: m(p[0], p[1], [], [], [], []), kind, "opset1", empty, shapes)
            assert_raw_attributes(lambda p, m=make: m(p[0], p[1], [2, 3], [], [], []), kind, "opset1", strided,
                                  shapes)
    out = [4, 5, 6]
    values = [None, None, const_tensor("i64", (3,), out)]
    bp = {**empty, "output_padding": ""}
    for kind, make in [("ConvolutionBackpropData", o.convolution_backprop_data),
                       ("GroupConvolutionBackpropData", o.group_convolution_backprop_data)]:
        # the spatial count from the output_shape input's length, when neither rank nor attribute has one
        def with_output_shape(p, m=make):
            return m(p[0], p[1], [], o.constant(np.array(out)), [], [], [], "explicit", [])
        assert_raw_attributes(with_output_shape, kind, "opset1", bp, ["...", "...", "3"], values)
        filters = "3,4,3,3" if kind == "ConvolutionBackpropData" else "1,3,4,3,3"
        assert_raw_attributes(lambda p, m=make: m(p[0], p[1], [], None, [], [], [], "explicit", []),
                              kind, "opset1", bp, ["1,3,5,6", filters])
        assert_raw_attributes(lambda p, m=make: m(p[0], p[1], [], None, [], [], [], "explicit", []),
                              kind, "opset1", bp, ["...", "..."])
    # pads an auto pad overrides (OpenVINO writes its own back, so its IR never shows these)
    for auto_pad in ("same_upper", "same_lower", "valid"):
        ir = {"strides": "2,2", "dilations": "1,1", "pads_begin": "3,1", "pads_end": "2,4", "auto_pad": auto_pad}

        def forward(p, auto_pad=auto_pad):
            return o.convolution(p[0], p[1], [2, 2], [3, 1], [2, 4], [1, 1], auto_pad)

        def backward(p, auto_pad=auto_pad):
            return o.convolution_backprop_data(p[0], p[1], [2, 2], None, [3, 1], [2, 4], [1, 1], auto_pad, [0, 0])
        assert_raw_attributes(forward, "Convolution", "opset1", ir, ["1,3,10,9", "4,3,3,3"])
        assert_raw_attributes(backward, "ConvolutionBackpropData", "opset1", {**ir, "output_padding": "0,0"},
                              ["1,3,10,9", "3,4,3,3"])
    # read_model takes a missing group as the default-constructed node's 0, and refuses it: the IR names both
    grouped = {**empty, "group": "1", "deformable_group": "1"}
    for version, make in (("opset1", opset1.deformable_convolution), ("opset8", opset8.deformable_convolution)):
        assert_raw_attributes(lambda p, m=make: m(p[0], p[1], p[2], [], [], [], []), "DeformableConvolution", version,
                              grouped, ["1,4,10,10", "1,18,8,8", "4,4,3,3"])
        assert_raw_attributes(lambda p, m=make: m(p[0], p[1], p[2], [], [], [], []), "DeformableConvolution", version,
                              grouped, ["...", "1,18,8,8", "..."])


def test_backprop_output_shape_bounds():
    # an output_shape input with value bounds (ShapeOf a dynamic shape): evaluate_as_partial_shape reads an
    # i32 upper bound of INT32_MAX as unbounded, as it does INT64_MAX
    ir = {"strides": "1,1", "dilations": "1,1", "pads_begin": "0,0", "pads_end": "0,0", "auto_pad": "explicit",
          "output_padding": "0,0"}
    for et, top in ((ov.Type.i32, (1 << 31) - 1), (ov.Type.i64, (1 << 63) - 1)):
        for kind, make, filters in [("ConvolutionBackpropData", o.convolution_backprop_data, "3,4,3,3"),
                                    ("GroupConvolutionBackpropData", o.group_convolution_backprop_data, "1,3,4,3,3")]:
            def build(p, m=make, et=et):
                return m(p[0], p[1], [1, 1], o.shape_of(p[2], et))
            bounds = Tensor(et.get_type_name(), (2,), (0, 2), (top, 5))
            assert_raw_attributes(build, kind, "opset1", ir, ["1,3,10,10", filters, "?,2..5"], [None, None, bounds])


# -- ConvolutionBackpropData, GroupConvolutionBackpropData -----------------------------------------------
def o_backprop(output_shape=None, output_padding=None, **k):
    def build(p):
        out = p[2] if output_shape == "param" else (None if output_shape is None else
                                                    o.constant(np.array(output_shape, dtype=np.int64)))
        return o.convolution_backprop_data(p[0], p[1], k["strides"], out, k["pads_begin"], k["pads_end"],
                                           k["dilations"], k["auto_pad"], output_padding)
    return build


def o_group_backprop(output_shape=None, output_padding=None, **k):
    def build(p):
        out = p[2] if output_shape == "param" else (None if output_shape is None else
                                                    o.constant(np.array(output_shape, dtype=np.int64)))
        return o.group_convolution_backprop_data(p[0], p[1], k["strides"], out, k["pads_begin"], k["pads_end"],
                                                 k["dilations"], k["auto_pad"], output_padding)
    return build


def test_backprop_edges():
    a2 = attrs(2)
    cases = [
        Case(o_backprop(**a2), ["1,3,10,10", "3,4,3,3"]),
        Case(o_backprop(**attrs(2, s=2, pb=1, pe=2, d=2), output_padding=[1, 0]), ["1,3,5,6", "3,4,3,3"]),
        Case(o_backprop(**attrs(2, pb=5, pe=5)), ["1,3,2,2", "3,4,3,3"]),  # padded below 0: no bound
        Case(o_backprop(**attrs(2, pb=-1)), ["1,3,2,2", "3,4,3,3"]),
        Case(o_backprop(strides=[2, 2], pads_begin=[0, 5], pads_end=[0, 4], dilations=[1, 1], auto_pad="explicit",
                        output_padding=[1, 0]), ["1,3,?,2..5", "3,4,3,3"]),
        Case(o_backprop(**attrs(2, auto_pad="same_upper", pb=3)), ["1,3,4,4", "3,4,3,3"]),
        Case(o_backprop(**attrs(2, auto_pad="valid", pb=3)), ["1,3,4,4", "3,4,3,3"]),
        Case(o_backprop(**attrs(2, s=3)), ["1,3,0,1..", "3,4,?,..3"]),
        Case(o_backprop(**attrs(2, s=3, pb=1)), ["1,3,5..3,4", "3,4,3,5..3"]),
        Case(o_backprop(strides=[4, 1], pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1], auto_pad="explicit"),
             ["1,3,4611686018427387904..,5", "3,4,3,3"]),  # a saturated (empty) interval reads as ?
        Case(o_backprop(**a2), ["1,3,10,10", "4,4,3,3"]),
        Case(o_backprop(**a2), ["1,3,10,10", "3,4,3"]),
        Case(o_backprop(**a2), ["1,3,10", "3,4,3"]),
        Case(o_backprop(**a2), ["...", "3,4,3,3"]),
        Case(o_backprop(**a2), ["...", "..."]),
        # data of rank 1, or filters of rank 1 or 0 behind data of dynamic rank: the op's get_output_shape
        # sizes a shape by that rank less 2 and throws; with a constant output_shape it never does
        Case(o_backprop(**attrs(0)), ["3", "..."]),
        Case(o_backprop(**a2), ["...", "3"]),
        Case(o_backprop(**a2), ["...", ""]),
        Case(o_backprop(**attrs(1), output_shape=[4]), ["...", "3"]),
        Case(o_backprop(**attrs(0)), ["...", "3,4"]),
        Case(o_group_backprop(**attrs(3)), ["...", "2,3"]),
        Case(o_group_backprop(**attrs(0)), ["...", "2,3,4"]),
        Case(o_backprop(**attrs(0)), ["...", "..."]),
        # the output_shape input: a constant, a parameter of static, dynamic or unknown length
        Case(o_backprop(**a2, output_shape=[5, 7]), ["1,3,10,10", "3,4,3,3"]),
        Case(o_backprop(**a2, output_shape=[5, 0]), ["1,3,10,10", "3,4,3,3"]),
        Case(o_backprop(**attrs(3), output_shape=[4, 5, 6]), ["...", "..."]),
        Case(o_backprop(**attrs(0), output_shape=[4, 5, 6]), ["...", "..."]),
        Case(o_backprop(**attrs(0), output_shape=[]), ["...", "..."]),
        Case(o_backprop(**attrs(2, auto_pad="same_upper"), output_shape=[30, 7]), ["1,3,10,10", "3,4,3,3"]),
        Case(o_backprop(**attrs(2, auto_pad="same_lower"), output_shape=[1, 1]), ["1,3,?,10", "3,4,3,3"]),
        Case(o_backprop(**a2, output_shape="param"), ["1,3,10,10", "3,4,3,3", "2"], [F32, F32, I64]),
        Case(o_backprop(**a2, output_shape="param"), ["1,3,10,10", "3,4,3,3", "3"], [F32, F32, I64]),
        # an output_shape input of unknown length: no spatial dims at all
        Case(o_backprop(**a2, output_shape="param"), ["1,3,10,10", "3,4,3,3", "?"], [F32, F32, I64]),
        Case(o_backprop(**a2, output_shape="param"), ["1,3,10,10", "3,4,3,3", "..."], [F32, F32, I64]),
        Case(o_backprop(**a2, output_shape="param"), ["1,3,10,10", "3,4,3,3", "2,1"], [F32, F32, I64]),
        Case(o_backprop(**a2, output_shape="param"), ["1,3,10,10", "3,4,3,3", ""], [F32, F32, I64]),
        # ... and with an auto pad, OpenVINO indexes that input of dynamic rank and throws
        Case(o_backprop(**attrs(2, auto_pad="same_upper"), output_shape="param"),
             ["1,3,10,10", "3,4,3,3", "..."], [F32, F32, I64]),
        Case(o_backprop(**attrs(2, auto_pad="same_upper"), output_shape="param"),
             ["1,3,?,?", "3,4,3,3", "..."], [F32, F32, I64]),
        Case(o_backprop(**attrs(2, auto_pad="same_upper"), output_shape="param"),
             ["...", "3,4,3,3", "..."], [F32, F32, I64]),
        Case(o_backprop(**attrs(3), output_shape="param"), ["...", "...", "3"], [F32, F32, I64]),
        Case(o_backprop(**attrs(0), output_shape="param"), ["...", "...", "3"], [F32, F32, I64]),
        Case(o_backprop(**attrs(0), output_shape="param"), ["...", "...", "?"], [F32, F32, I64]),
        # groups
        Case(o_group_backprop(**a2), ["1,4,10,10", "2,2,3,3,3"]),
        Case(o_group_backprop(**a2), ["1,5,10,10", "2,2,3,3,3"]),
        Case(o_group_backprop(**a2), ["1,4..,10,10", "?,1,3,3,3"]),
        Case(o_group_backprop(**a2), ["1,4,10,10", "?,0,3,3,3"]),
        Case(o_group_backprop(**a2), ["1,4,10,10", "2,2,3,3"]),
        Case(o_group_backprop(**a2), ["...", "2,2,3,3,3"]),
        Case(o_group_backprop(**a2), ["1,4,10,10", "..."]),
        Case(o_group_backprop(**attrs(2, s=2), output_padding=[1, 1]), ["1,4,?,3..5", "2,2,3,3,?"]),
        Case(o_group_backprop(**a2, output_shape=[20, 21]), ["1,4,10,10", "2,2,3,3,3"]),
        Case(o_group_backprop(**attrs(2, auto_pad="same_lower"), output_shape="param"),
             ["1,4,10,10", "2,2,3,3,3", "..."], [F32, F32, I64]),
        Case(o_group_backprop(**a2, output_shape="param"), ["1,4,10,10", "2,2,3,3,3", "?"], [F32, F32, I64]),
    ]
    assert_cases(cases)


def random_backprop_case(rng: random.Random, group: bool) -> Case:
    n = rng.randint(1, 3)
    k = spatial_attrs(rng, n)
    output_padding = [rng.choice([0, 0, 1, 2]) for _ in range(n)]
    c = rng.randint(1, 4)
    groups = rng.randint(1, 3)
    data = [rdim(rng, 1, 3), channel(rng, groups * c if group else c)] + [rdim(rng, 0, 9) for _ in range(n)]
    filters = ([channel(rng, groups), channel(rng, c), rdim(rng, 1, 4)] if group else
               [channel(rng, c), rdim(rng, 1, 5)]) + [rdim(rng, 1, 5) for _ in range(n)]
    shapes = [maybe_dynamic_rank(rng, shape(data)), maybe_dynamic_rank(rng, shape(filters))]
    types = [F32, F32]
    r = rng.random()
    if r < 0.2:
        output_shape = [rng.randint(0, 30) for _ in range(n)]
    elif r < 0.35:
        output_shape = "param"
        shapes.append(rng.choice([str(n), str(n), "?", "...", str(n + 1)]))
        types.append(I64)
    else:
        output_shape = None
    make = o_group_backprop if group else o_backprop
    return Case(make(output_shape=output_shape, output_padding=output_padding, **k), shapes, types,
                label=f"{'group ' if group else ''}backprop {shapes} {k} op={output_padding} out={output_shape}")


@pytest.mark.parametrize("group,seed,count", [(False, 4, 110), (True, 5, 80)])
def test_backprop_random(group, seed, count):
    rng = random.Random(seed)
    assert_cases([random_backprop_case(rng, group) for _ in range(count)], min_cases=count)


def test_backprop_bad_attributes():
    for kind in ("ConvolutionBackpropData", "GroupConvolutionBackpropData"):
        make = o.convolution_backprop_data if kind == "ConvolutionBackpropData" else o.group_convolution_backprop_data
        for op_, strides in [([0], [1, 1]), ([0, 0, 0], [1, 1]), ([0, 0], [0, 1])]:
            ir = {"strides": ",".join(map(str, strides)), "output_padding": ",".join(map(str, op_)),
                  "pads_begin": "0,0", "pads_end": "0,0", "dilations": "1,1", "auto_pad": "explicit"}

            def build(p, s=strides, q=op_):
                return make(p[0], p[1], s, None, [0, 0], [0, 0], [1, 1], "explicit", q)
            assert_rejected_everywhere(build, kind, "opset1", ir, ["...", "..."])
        # an output_shape constant of another length than the strides: no input shape can make up for it
        ir = {"strides": "1,1", "output_padding": "0,0", "pads_begin": "0,0", "pads_end": "0,0", "dilations": "1,1",
              "auto_pad": "explicit"}
        filters = "3,4,3,3" if kind == "ConvolutionBackpropData" else "1,3,4,3,3"
        for out in ([5], [5, 7, 9], [-1, 5], [-3, 5]):  # and a negative one: "can't be lower than zero"
            def build(p, out=out):
                return make(p[0], p[1], [1, 1], o.constant(np.array(out, dtype=np.int64)))
            for shapes in (["1,3,10,10", filters], ["...", "..."]):
                values = [None, None, const_tensor("i64", (len(out),), out)]
                assert_rejected_everywhere(build, kind, "opset1", ir, shapes + ["%d" % len(out)], values)


# -- DeformableConvolution --------------------------------------------------------------------------------
def deformable(version: int, with_mask: bool, group: int = 1, deformable_group: int = 1, **k):
    def build(p):
        args = (p[0], p[1], p[2], k["strides"], k["pads_begin"], k["pads_end"], k["dilations"])
        if version == 1:
            return opset1.deformable_convolution(*args, k["auto_pad"], group, deformable_group)
        return opset8.deformable_convolution(*args, p[3] if with_mask else None, k["auto_pad"], group,
                                             deformable_group)
    return build


def test_deformable_edges():
    a2 = attrs(2)
    cases = []
    for version, mask in ((1, None), (8, None), (8, "1,9,8,8")):
        extra = [mask] if mask else []
        d = lambda **k: deformable(version, mask is not None, **{**a2, **k})  # noqa: E731
        cases += [
            Case(d(), ["1,4,10,10", "1,18,8,8", "4,4,3,3"] + extra),
            Case(d(), ["1,4,10,10", "1,18,7,8", "4,4,3,3"] + extra),
            Case(d(), ["1,4,10,10", "2,18,8,8", "4,4,3,3"] + extra),
            Case(d(), ["?,4,10,10", "1..3,18,8,8", "4,4,3,3"] + extra),
            Case(d(), ["1,4,10,10", "1,16,8,8", "4,4,3,3"] + extra),
            Case(d(), ["1,4,10,10", "1,18,8,8", "4,2,3,3"] + extra),
            Case(d(group=2), ["1,4,10,10", "1,18,8,8", "4,2,3,3"] + extra),
            Case(d(group=2), ["1,5,10,10", "1,18,8,8", "4,2,3,3"] + extra),
            Case(d(group=2), ["1,4,10,10", "1,18,8,8", "3,2,3,3"] + extra),
            Case(d(group=3), ["1,4..7,10,10", "1,18,8,8", "?,2,3,3"] + extra),
            Case(d(deformable_group=3), ["1,4,10,10", "1,54,8,8", "4,4,3,3"] + extra),
            Case(d(deformable_group=4), ["1,4,10,10", "1,?,8,8", "4,4,3,3"] + extra),
            Case(d(deformable_group=4), ["1,4,10,10", "1,5..7,8,8", "4,4,3,3"] + extra),
            Case(d(), ["1,4,10,10,1", "1,18,8,8", "4,4,3,3"] + extra),
            Case(d(), ["1,4,10,10", "1,18,8", "4,4,3,3"] + extra),
            Case(d(), ["...", "...", "..."] + extra),
            Case(d(), ["...", "1,18,?,8", "..."] + extra),
            Case(d(), ["1,4,10,10", "...", "..."] + extra),
            Case(d(), ["...", "...", "4,4,3,3"] + extra),
            Case(d(auto_pad="same_upper", strides=[2, 2]), ["1,4,?,9..", "1,18,?,?", "4,4,3,3"] + extra),
            Case(d(pads_begin=[-1, 1]), ["1,4,10,10", "1,18,?,?", "4,4,3,3"] + extra),
        ]
    d8 = lambda **k: deformable(8, True, **{**a2, **k})  # noqa: E731
    cases += [
        Case(d8(), ["1,4,10,10", "1,18,8,8", "4,4,3,3", "1,8,8,8"]),
        Case(d8(), ["1,4,10,10", "1,18,8,8", "4,4,3,3", "2,9,8,8"]),
        Case(d8(), ["1,4,10,10", "1,18,8,8", "4,4,3,3", "1,9,7,8"]),
        Case(d8(), ["1,4,10,10", "1,18,8,8", "4,4,3,3", "1,9,8"]),
        Case(d8(), ["1,4,10,10", "1,18,8,8", "4,4,3,3", "..."]),
        Case(d8(), ["...", "...", "...", "1,9,8,8"]),
        Case(d8(), ["...", "...", "...", "1,9,8"]),  # no spatial count: the mask's rank is never checked
        Case(d8(deformable_group=2), ["...", "...", "...", "1,9,8,8"]),
        Case(d8(deformable_group=2), ["...", "...", "4,4,3,3", "1,?,8,8"]),
        Case(d8(), ["1,4,5..3,10", "1,18,?,8", "4,4,3,3", "1,9,?,8"]),
        Case(d8(), ["1,4,10,10", "1,18,8,8", "4,4,5..3,3", "1,9,8,8"]),
    ]
    assert_cases(cases)


def random_deformable_case(rng: random.Random) -> Case:
    version, with_mask = rng.choice([(1, False), (8, False), (8, True)])
    k = spatial_attrs(rng, 2)
    group, deformable_group = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
    c = rng.randint(1, 3)
    kh, kw = rng.randint(1, 3), rng.randint(1, 3)
    data = [rdim(rng, 1, 3), channel(rng, c * group)] + [rdim(rng, 1, 10) for _ in range(2)]
    filters = [channel(rng, group * rng.randint(1, 2)), channel(rng, c), channel(rng, kh), channel(rng, kw)]
    out = [rdim(rng, 1, 10) for _ in range(2)]
    offsets = [rdim(rng, 1, 3), channel(rng, 2 * deformable_group * kh * kw)] + out
    shapes = [maybe_dynamic_rank(rng, shape(s), 0.12) for s in (data, offsets, filters)]
    if with_mask:
        shapes.append(maybe_dynamic_rank(rng, shape([rdim(rng, 1, 3), channel(rng, deformable_group * kh * kw)]
                                                    + out), 0.12))
    return Case(deformable(version, with_mask, group, deformable_group, **k), shapes,
                label=f"v{version} {shapes} {k} g={group} dg={deformable_group}")


def test_deformable_random():
    rng = random.Random(6)
    assert_cases([random_deformable_case(rng) for _ in range(90)], min_cases=90)


def test_deformable_bad_groups():
    for version in ("opset1", "opset8"):
        make = opset1.deformable_convolution if version == "opset1" else opset8.deformable_convolution
        for group, deformable_group in ((0, 1), (1, 0), (-1, 1)):
            ir = {"strides": "1,1", "pads_begin": "0,0", "pads_end": "0,0", "dilations": "1,1",
                  "auto_pad": "explicit", "group": str(group), "deformable_group": str(deformable_group)}

            def build(p, g=group, dg=deformable_group, v=version, m=make):
                if v == "opset1":
                    return m(p[0], p[1], p[2], [1, 1], [0, 0], [0, 0], [1, 1], "explicit", g, dg)
                return m(p[0], p[1], p[2], [1, 1], [0, 0], [0, 0], [1, 1], None, "explicit", g, dg)
            assert_rejected_everywhere(build, "DeformableConvolution", version, ir, ["1,4,10,10", "...", "..."])


# -- Einsum -----------------------------------------------------------------------------------------------
def einsum(equation: str):
    return lambda p: o.einsum(list(p), equation)


EINSUM_FIXED = [
    ("ab,bc->ac", ["2,3", "3,4"]), ("ab,bc", ["2,3", "3,4"]), ("ab,bc->ac", ["2,3", "5,4"]),
    ("ab,bc->ac", ["2,3", "1,4"]), ("ab,bc->ac", ["2,1..3", "2..5,4"]), ("ab,bc->ac", ["2,3..4", "5..6,4"]),
    ("ii", ["3,3"]), ("ii->i", ["3,4"]), ("ii->i", ["3..5,4..9"]), ("ii->", ["?,3"]), ("ab->a", ["2,3,4"]),
    ("ab", ["2,3,4"]), ("abc->", ["2,3"]), ("a...b,b->a", ["2,3,4,5", "5"]), ("...ab,ab->...", ["2,3,4,5", "4,5"]),
    ("a...a->a", ["2,3,3"]), ("a...a->a", ["2,3,2"]), ("ab...->...", ["2,3"]), ("ab...->...ab", ["2,3"]),
    ("ab...,...->...", ["2,3", "4"]), ("...,...->...", ["2,1..3", "5,?"]), ("...,...->...", ["2,4", "5,1"]),
    ("...,...->...", ["2,4", "3,1,1"]), ("...,...", ["2,1", "1,3"]), ("...", ["..."]), ("...->", ["..."]),
    ("...a->a", ["..."]), ("...a,a->...", ["...", "3"]), ("a...,...->...", ["2,3", "..."]),
    ("...,...->...", ["3,1", "..."]), ("a...,b...->ab", ["...", "2,3,4"]), ("ab,bc", ["...", "3,4"]),
    ("ab,bc->ac", ["...", "..."]), ("A,a->Aa", ["2", "3"]), ("a,a->a", ["2..5", "3..8"]),
    ("a,a->a", ["2..5", "6..8"]), ("a,a->a", ["1", "7"]), ("a,a->a", ["1..2", "7"]), ("a,a->a", ["0..1", "3..4"]),
    ("ab,,b", ["2,3", "", "3"]), ("", [""]), ("->", [""]), ("ab,b->", ["2,3", "3"]),
    ("a...b,c...->...bc", ["2,3,4,5", "7,4,5"]), ("...a,a...->...", ["2,3", "3,4,2"]),
    ("ab,", ["2,3", ""]), ("ab,", ["2,3", "..."]), (",", ["", ""]), ("a,->", ["1", "..."]),
    ("ba,ab->ba", ["2,3", "3,2"]), ("ba,ab->ab", ["?,3", "2..4,?"]), ("abc,cd,de->abe", ["2,3,4", "4,5", "5,6"]),
    ("a...,a...->...a", ["3,1,5", "3,4,1"]),
    ("zZ->Zz", ["2,3"]), ("...ij,...jk->...ik", ["2,?,3,4", "7,1,4,5"]), ("...ij,...jk->...ik", ["5,3,4", "4,5"]),
    ("i...,j...->ij...", ["2", "3,4"]), ("bca,cab", ["1,2,3", "2,3,1"]), ("i,i,i->i", ["1", "1..4", "3.."]),
    ("i,i->i", ["5..3", "?"]), ("ii->i", ["5..3,5..3"]), ("...,...->...", ["5..3", "1"]),
]


def test_einsum_edges():
    assert_cases([Case(einsum(eq), shapes, label=f"{eq} {shapes}") for eq, shapes in EINSUM_FIXED])


def test_einsum_bad_equations():
    for equation, shapes in [("a-b->a", ["2,3"]), ("ab->a-", ["2,3"]), ("a....b->a", ["2,3"]),
                             ("....->", ["2"]), ("a..->a", ["2"]), ("ab->...a...", ["2,3"]), ("a1->a", ["2,3"]),
                             ("a,b->c", ["2", "3"]), ("a->ah", ["..."]), ("ab,", ["2,3"]), ("ab,c", ["2,3"]),
                             ("ab", ["2,3", "3"]), ("", ["", ""]), ("a\u00e9->a", ["2,3"]), ("a\u00b5", ["2,3"])]:
        assert_rejected_everywhere(einsum(equation), "Einsum", "opset7", {"equation": equation}, shapes)


def random_einsum_case(rng: random.Random) -> Case:
    letters = "abcdefg"
    size = {x: rng.randint(1, 5) for x in letters}
    subscripts, shapes = [], []
    ellipsis_dims = [rdim(rng, 1, 4) for _ in range(rng.randint(0, 2))]
    for _ in range(rng.randint(1, 3)):
        labels = rng.sample(letters, rng.randint(0, 3))
        if labels and rng.random() < 0.15:
            labels.append(rng.choice(labels))  # a repeated label (a diagonal)
        dims = [rng.choice([str(size[x])] * 5 + ["?", f"1..{size[x] + 1}", "1", str(size[x] + 1)]) for x in labels]
        if rng.random() < 0.3:
            at = rng.randint(0, len(labels))
            labels.insert(at, "...")
            own = ellipsis_dims[rng.randint(0, len(ellipsis_dims)):]
            dims[at:at] = [rng.choice([d, d, "1"]) for d in own]
        subscripts.append("".join(labels))
        shapes.append(maybe_dynamic_rank(rng, shape(dims), 0.1))
    equation = ",".join(subscripts)
    if rng.random() < 0.7:
        used = sorted({c for s in subscripts for c in s if c.isalpha()})
        out = rng.sample(used, rng.randint(0, len(used)))
        if any("..." in s for s in subscripts) and rng.random() < 0.8:
            out.insert(rng.randint(0, len(out)), "...")
        equation += "->" + "".join(out)
    return Case(einsum(equation), shapes, label=f"{equation} {shapes}")


def test_einsum_random():
    rng = random.Random(7)
    assert_cases([random_einsum_case(rng) for _ in range(120)], min_cases=120)
