"""The detection family of the shape registry (detection heads, recurrent cells and sequences, attention,
random ops) against openvino 2026.4.1.

Cases are generated from seeded random draws: the consistent input shapes of each op (batch, boxes,
classes, hidden sizes...) with dims swapped for ``?``, intervals that hold the right value or miss it,
wrong static values and dynamic ranks, crossed with every attribute that matters to the shape (and some
OpenVINO rejects). Ops are built with ``NodeFactory``, the path the IR reader takes (default
constructor, inputs, attributes, ``validate_and_infer_types``), so attribute values the Python wrappers
refuse (a zero density, a negative ``max_detections_per_image``) are reachable too. The opset resolution
(an IR's version naming the opset, not the op's own version) is checked by reading IRs back with
openvino after rewriting the version.
"""

from __future__ import annotations

import os
import random
import re
import tempfile

import numpy as np
import openvino as ov
import pytest
from openvino import opset1, opset8

from irreshape.core.dims import Dim, parse_shape
from irreshape.shapes import registry
from irreshape.shapes.values import Tensor
from irreshape.shapes.values import const as const_tensor
from ovshapes import Case, assert_cases, mk, pshape, shape_of, shapes_for, to_shape
from ovshapes import _our_layer as our_layer
from ovshapes import _values as input_values

I64, I32, F32 = ov.Type.i64, ov.Type.i32, ov.Type.f32
def const(values, dtype=np.int64):
    return opset1.constant(np.array(values, dtype=dtype))


# -- registration and opsets -------------------------------------------------------------------------
FAMILY = {
    "PriorBox": ("opset1", "opset8"), "PriorBoxClustered": ("opset1",), "DetectionOutput": ("opset1", "opset8"),
    "Proposal": ("opset1", "opset4"), "NonMaxSuppression": ("opset1", "opset3", "opset4", "opset5", "opset9"),
    "ExperimentalDetectronDetectionOutput": ("opset6",),
    "ExperimentalDetectronGenerateProposalsSingleImage": ("opset6",),
    "ExperimentalDetectronPriorGridGenerator": ("opset6",),
    "ExperimentalDetectronROIFeatureExtractor": ("opset6",),
    "ExperimentalDetectronTopKROIs": ("opset6",), "CTCGreedyDecoder": ("opset1",),
    "CTCGreedyDecoderSeqLen": ("opset6",), "CTCLoss": ("opset4",), "LSTMCell": ("opset1", "opset4"),
    "GRUCell": ("opset3",), "RNNCell": ("opset1",), "LSTMSequence": ("opset5",), "GRUSequence": ("opset5",),
    "RNNSequence": ("opset5",), "ScaledDotProductAttention": ("opset13",), "Multinomial": ("opset13",),
    "RandomUniform": ("opset8",),
}


def test_every_op_of_the_family_is_registered():
    for kind, versions in FAMILY.items():
        for version in versions:
            assert registry.shape_fn(kind, version) is not None, (kind, version)
            assert registry.shape_fn(kind.upper(), version) is registry.shape_fn(kind, version)
    # each version its own rule where the rules differ
    nms = {registry.op("NonMaxSuppression", f"opset{k}").shape_fn for k in (1, 3, 4, 5, 9)}
    assert len(nms) == 3  # one unit per op version, three shape rules
    assert registry.shape_fn("LSTMCell", "opset1") is not registry.shape_fn("LSTMCell", "opset4")


def _model_of(node) -> ov.Model:
    params, seen, stack = [], set(), [node]
    while stack:
        n = stack.pop()
        if id(n) not in seen:
            seen.add(id(n))
            if n.get_type_name() == "Parameter":
                params.append(n)
            stack.extend(i.get_source_output().get_node() for i in n.inputs())
    return ov.Model([opset1.result(o) for o in node.outputs()], params, "case")


def _reread(node, version: str, drop: str = ""):
    """The op saved as IR, its ``version`` rewritten (and its attribute ``drop`` left out), read back by
    openvino: its output shapes, or the reader's error."""
    with tempfile.TemporaryDirectory() as folder:
        xml = os.path.join(folder, "m.xml")
        ov.save_model(_model_of(node), xml, compress_to_fp16=False)
        kind = node.get_type_name()
        text = re.sub(f'type="{kind}" version="opset\\d+"', f'type="{kind}" version="{version}"',
                      open(xml).read())
        if drop:
            text = re.sub(f' {drop}="[^"]*"', "", text)
        with open(xml, "w") as f:
            f.write(text)
        try:
            model = ov.Core().read_model(xml)
        except RuntimeError as e:
            return str(e)
    op = next(op for op in model.get_ops() if op.get_type_name() == kind)
    return [to_shape(o.get_partial_shape()) for o in op.outputs()]


def _ours(node, version: str, drop: str = ""):
    """irreshape's shapes for ``node`` read as an IR of the given ``version`` (without the attribute
    ``drop``), or its ShapeError."""
    inputs = [to_shape(i.get_partial_shape()) for i in node.inputs()]
    attrs = {k: v for k, v in _ir_attrs(node).items() if k != drop}
    n = registry.Node(node.get_type_name(), version, attrs, inputs, len(node.outputs()), input_values(node))
    try:
        return registry.shape_fn(node.get_type_name(), version)(n)
    except registry.ShapeError as e:
        return f"ShapeError: {e}"


def _ir_attrs(node) -> dict:
    """The attributes of ``node`` as the serializer writes them and irreshape reads them back."""
    with tempfile.TemporaryDirectory() as folder:
        return dict(our_layer(node, folder).data)


def registry_const(node):
    """A Constant as the harness hands it to a shape function."""
    data = np.asarray(node.get_data())
    flat = [float(x) if data.dtype.kind == "f" else int(x) for x in data.reshape(-1).tolist()]
    return const_tensor(node.get_output_element_type(0).get_type_name(), tuple(data.shape), flat)


def P(shape: str, et=F32):
    return opset1.parameter(pshape(shape), et)


def _opset_probes():
    seq = [P("2,5,3"), P("2,1,4"), P("2,1,4"), P("2", I32), P("1,16,3"), P("1,16,4"), P("1,16")]
    return {
        "LSTMSequence": lambda: mk("opset5", "LSTMSequence", seq, {"hidden_size": 4, "direction": "forward"}),
        "RNNCell": lambda: mk("opset1", "RNNCell", [P("2,3"), P("2,4"), P("4,3"), P("4,4"), P("4")],
                              {"hidden_size": 4}),
        "GRUCell": lambda: mk("opset3", "GRUCell", [P("2,3"), P("2,4"), P("12,3"), P("12,4"), P("12")],
                              {"hidden_size": 4}),
        "LSTMCell": lambda: mk("opset4", "LSTMCell", [P("2,3"), P("?,4"), P("2,?"), P("16,3"), P("16,4"),
                                                      P("16")], {"hidden_size": 4}),
        "NonMaxSuppression": lambda: mk("opset1", "NonMaxSuppression", [P("2,10,4"), P("2,3,10"), const(4)]),
        "DetectionOutput": lambda: mk("opset1", "DetectionOutput", [P("1,8"), P("1,4"), P("1,2,8")],
                                      {"keep_top_k": [-1], "normalized": True, "num_classes": 2}),
        "ScaledDotProductAttention": lambda: mk("opset13", "ScaledDotProductAttention",
                                                [P("2,4,8"), P("2,5,8"), P("2,5,6")]),
        "CTCLoss": lambda: mk("opset4", "CTCLoss", [P("2,10,5"), P("2", I32), P("2,10", I32), P("2", I32)]),
    }


@pytest.mark.parametrize("kind, versions", [
    ("LSTMSequence", ["opset1", "opset4", "opset5", "opset11"]),  # no LSTMSequence-0 in OpenVINO 2026
    ("RNNCell", ["opset1", "opset2", "opset3"]),  # opset2 lacks RNNCell
    ("GRUCell", ["opset2", "opset3", "opset9"]),
    ("LSTMCell", ["opset3", "opset4", "opset15"]),
    ("NonMaxSuppression", ["opset1", "opset2", "opset3", "opset4", "opset5", "opset7", "opset9", "opset16"]),
    ("DetectionOutput", ["opset1", "opset7", "opset8"]),
    ("ScaledDotProductAttention", ["opset12", "opset13", "opset15"]),
    ("CTCLoss", ["opset3", "opset4", "opset13"]),
])
def test_the_version_names_the_opset_the_reader_resolves(kind, versions):
    """An IR's ``version`` is the opset the reader looks the type up in: openvino resolves it to the
    newest version of the op that opset holds, or rejects the IR where it holds none."""
    node = _opset_probes()[kind]()
    for version in versions:
        expected, got = _reread(node, version), _ours(node, version)
        if isinstance(expected, str):
            assert isinstance(got, str) and got.startswith("ShapeError"), (kind, version, expected, got)
            assert "doesn't contain the operation" in expected
        else:
            assert got == expected, (kind, version, expected, got)


def test_attributes_the_ir_leaves_out():
    """An attribute missing from the IR keeps the default of OpenVINO's attributes: no ``num_classes`` is
    0 (DetectionOutput-0 rejects it), no ``hidden_size`` is 0 (an LSTMCell takes it where the inputs
    leave the hidden size dynamic), no ``top_k`` is -1, no ``direction`` is forward."""
    sequence = [P("2,5,3"), P("2,?,4"), P("2", I32), P("?,4,3"), P("?,4,4"), P("?,4")]
    probes = [
        (mk("opset5", "RNNSequence", sequence, {"hidden_size": 4, "direction": "bidirectional"}), "direction"),
        (mk("opset5", "GRUSequence", sequence[:3] + [P("?,12,3"), P("?,12,4"), P("?,12")],
            {"hidden_size": 4, "direction": "reverse"}), "direction"),
        (mk("opset1", "DetectionOutput", [P("1,8"), P("1,4"), P("1,2,8")],
            {"keep_top_k": [5], "normalized": True, "num_classes": 2}), "num_classes"),
        (mk("opset8", "DetectionOutput", [P("1,8"), P("1,4"), P("1,2,8")],
            {"keep_top_k": [-1], "top_k": 3, "normalized": True}), "top_k"),
        (mk("opset4", "LSTMCell", [P("2,3"), P("2,?"), P("2,?"), P("?,3"), P("?,?"), P("?")],
            {"hidden_size": 4}), "hidden_size"),
        (mk("opset1", "LSTMCell", [P("2,3"), P("2,?"), P("2,?"), P("?,3"), P("?,?"), P("16"), P("?")],
            {"hidden_size": 4}), "hidden_size"),
    ]
    for node, attribute in probes:
        version = f"opset{_version(node)[-1]}"
        expected, got = _reread(node, version, attribute), _ours(node, version, attribute)
        if isinstance(expected, str):
            assert isinstance(got, str) and got.startswith("ShapeError"), (node, expected, got)
        else:
            assert got == expected, (node, expected, got)


# -- PriorBox, PriorBoxClustered ---------------------------------------------------------------------
# ratios the IR keeps exactly: the serializer writes a float list with 6 significant digits (0.6666667
# would come back as 0.666667, so the harness's in-memory op and the IR would count differently); the
# rounding to 6 decimals merges 0.333333 with the flip of 3 and 0.0333333 with 0.0333334
RATIOS = [1.0, 2.0, 0.5, 3.0, 0.333333, 1.5, 0.0333333, 0.0333334, 0.666667, 4.0]
DENSITIES = [1.0, 2.0, 2.5, 0.5, 0.0, 3.0, -1.0, -2.5, 3.9e9]  # 3.9e9 squared wraps around int64


def _prior_box_attrs(rng: random.Random, version: str) -> dict:
    attrs = {
        "min_size": [float(rng.choice([2, 4, 8, 16])) for _ in range(rng.choice([0, 1, 1, 2, 3]))],
        "max_size": [float(rng.choice([5, 10, 20])) for _ in range(rng.choice([0, 0, 1, 2]))],
        "aspect_ratio": [rng.choice(RATIOS) for _ in range(rng.choice([0, 1, 2, 3]))],
        "flip": rng.random() < 0.5, "clip": rng.random() < 0.5, "offset": 0.5, "step": 0.0,
        "scale_all_sizes": rng.random() < 0.6,
        "density": [rng.choice(DENSITIES) for _ in range(rng.choice([0, 0, 1, 2]))],
        "fixed_ratio": [rng.choice(RATIOS) for _ in range(rng.choice([0, 0, 1, 2]))],
        "fixed_size": [float(rng.choice([4, 8])) for _ in range(rng.choice([0, 0, 1, 2]))],
        "variance": [0.1, 0.1, 0.2, 0.2],
    }
    if version == "opset8":
        attrs["min_max_aspect_ratios_order"] = rng.random() < 0.5
    return attrs


def _prior_box_size(rng: random.Random):
    """The output-size input: a constant (sometimes with negative elements, or saturating the product) or
    a run-time input of some shape. With it the shape string of its port: a constant's own shape, where
    the harness, matching shape strings to ports in order, reads it when openvino rejects the case."""
    if rng.random() < 0.7:
        values = [rng.choice([1, 2, 3, 5, 19]), rng.choice([1, 2, 4, 10])]
        if rng.random() < 0.1:
            values = rng.choice([[-1, 3], [3, -2], [0, 4], [-5, -1], [1 << 40, 1 << 40]])
        dtype = np.int32 if rng.random() < 0.5 and max(values) < (1 << 31) else np.int64
        return (lambda p: const(values, dtype)), "2"
    return (lambda p: p[0]), rng.choice(["2", "?", "1..3", "3", "...", "2,1", ""])


def _prior_box_cases(rng: random.Random) -> list[Case]:
    cases = []
    for k in range(110):
        version = rng.choice(["opset1", "opset8"])
        if k % 4 == 3:
            widths = [float(rng.choice([1, 2, 3])) for _ in range(rng.choice([0, 1, 2, 3, 5]))]
            attrs = {"width": widths, "height": widths, "clip": True, "offset": 0.5, "step": 0.0,
                     "variance": [0.1]}
            version, kind = "opset1", "PriorBoxClustered"
        else:
            attrs, kind = _prior_box_attrs(rng, version), "PriorBox"
        size, size_shape = _prior_box_size(rng)
        shapes = [size_shape, rng.choice(["2", "2", "?", "...", "4", "2,2", ""])]
        cases.append(Case(lambda p, v=version, k=kind, a=attrs, size=size: mk(v, k, [size(p), p[1]], a),
                          shapes, [I64, I64], f"{kind}-{version} {attrs}"))
    return cases


def test_prior_box():
    assert_cases(_prior_box_cases(random.Random(1)), min_cases=110)


def test_prior_box_counts_the_priors_as_openvino():
    """Spot checks of ``number_of_priors`` on a [2, 2] grid: each aspect ratio with its flip once, 1
    always; min sizes times ratios plus max sizes; fixed sizes instead; density squares less one."""
    cases = [
        {"min_size": [2.0], "aspect_ratio": [2.0, 0.5], "flip": True},  # 0.5 is 2.0 flipped: 3 ratios
        {"min_size": [2.0, 4.0], "max_size": [8.0], "aspect_ratio": [3.0]},
        {"min_size": [2.0], "scale_all_sizes": False, "aspect_ratio": [2.0], "flip": True},
        {"fixed_size": [4.0, 8.0], "aspect_ratio": [2.0], "density": [2.0], "fixed_ratio": [1.0, 2.0]},
        {"min_size": [2.0], "aspect_ratio": [0.0333333, 0.0333334]},  # the same ratio to six decimals
        {"min_size": [2.0], "aspect_ratio": [3.0, 0.333333], "flip": True},  # 1/3 is 0.333333 to six decimals
    ]
    for attrs in cases:
        node = mk("opset8", "PriorBox", [const([2, 2]), const([8, 8])], dict(attrs, offset=0.5))
        n = registry.Node("PriorBox", "opset8", _ir_attrs(node), [[Dim.of(2)], [Dim.of(2)]], 1,
                          [registry_const(const([2, 2])), None])
        assert registry.shape_fn("PriorBox", "opset8")(n) == [to_shape(node.get_output_partial_shape(0))]


# -- DetectionOutput -----------------------------------------------------------------------------------
def _detection_output_cases(rng: random.Random) -> list[Case]:
    cases = []
    for _ in range(90):
        version = rng.choice(["opset1", "opset8"])
        batch, priors, classes = rng.choice([1, 2]), rng.choice([2, 3, 4]), rng.choice([2, 3])
        share, normalized = rng.random() < 0.6, rng.random() < 0.5
        variance = rng.random() < 0.3
        loc = 1 if share else classes
        box = 4 if normalized else 5
        attrs = {"keep_top_k": rng.choice([[-1], [-1], [5], [0], [3, 2]]), "top_k": rng.choice([-1, -1, 4, 0]),
                 "share_location": share, "normalized": normalized, "variance_encoded_in_target": variance,
                 "nms_threshold": 0.5, "code_type": rng.choice(["caffe.PriorBoxParameter.CORNER"] * 4 +
                                                                ["caffe.PriorBoxParameter.CENTER_SIZE"])}
        if version == "opset1":
            attrs["num_classes"] = rng.choice([classes] * 6 + [classes + 1, 1])
        dims = [[batch, priors * loc * 4], [batch, priors * classes],
                [rng.choice([1, batch]), 1 if variance else 2, priors * box]]
        if rng.random() < 0.4:
            dims += [[batch, priors * 2], [batch, priors * loc * 4]]
        shapes = shapes_for(rng, dims, p_perturb=0.2)
        cases.append(Case(lambda p, v=version, a=attrs: mk(v, "DetectionOutput", p, a), shapes,
                          label=f"DetectionOutput-{version} {attrs}"))
    # the additional inputs alone tell the prior boxes; their shapes against the others
    for version in ("opset1", "opset8"):
        attrs = {"keep_top_k": [-1], "top_k": -1, "normalized": True, "share_location": False}
        if version == "opset1":
            attrs["num_classes"] = 2
        for shapes in (["2,?", "2,?", "1,2,?", "2,6", "2,?"], ["2,?", "2,?", "1,2,?", "2,7", "2,?"],
                       ["2,24", "2,6", "1,2,12", "2,6", "2,25"], ["2,24", "2,6", "1,2,12", "2,6", "3,24"],
                       ["2,24", "2,6", "1,2,12", "2,6", "2,24,1"], ["?,?", "...", "...", "?,8", "..."]):
            cases.append(Case(lambda p, v=version, a=attrs: mk(v, "DetectionOutput", p, a), shapes,
                              label=f"DetectionOutput-{version} {attrs}"))
    return cases


def test_detection_output():
    assert_cases(_detection_output_cases(random.Random(2)), min_cases=90)


# -- Proposal ------------------------------------------------------------------------------------------
def _proposal_cases(rng: random.Random) -> list[Case]:
    cases = []
    for _ in range(40):
        version = rng.choice(["opset1", "opset4"])
        batch, anchors, h, w = rng.choice([1, 2]), rng.choice([3, 6]), rng.choice([4, 7]), rng.choice([4, 5])
        attrs = {"base_size": 16, "pre_nms_topn": 100, "post_nms_topn": rng.choice([1, 7, 300]),
                 "nms_thresh": 0.7, "feat_stride": 16, "min_size": 16, "ratio": [0.5, 1.0], "scale": [8.0],
                 "framework": rng.choice(["", "tensorflow"])}
        shapes = shapes_for(rng, [[batch, anchors, h, w], [batch, 2 * anchors, h, w],
                                  [rng.choice([3, 4, 4, 4, 3, 5, 2])]])
        cases.append(Case(lambda p, v=version, a=attrs: mk(v, "Proposal", p, a), shapes,
                          label=f"Proposal-{version} {attrs}"))
    return cases


def test_proposal():
    assert_cases(_proposal_cases(random.Random(3)), min_cases=40)


# -- NonMaxSuppression ---------------------------------------------------------------------------------
def _nms_cases(rng: random.Random) -> list[Case]:
    cases = []
    for _ in range(90):
        version = rng.choice(["opset1", "opset3", "opset4", "opset5", "opset9"])
        batch, boxes, classes = rng.choice([1, 2]), rng.choice([1, 10, 100]), rng.choice([1, 3, 80])
        shapes = shapes_for(rng, [[batch, boxes, 4], [batch, classes, boxes]])
        count = rng.choice([2, 3, 4, 5, 5, 6] if version in ("opset5", "opset9") else [2, 3, 4, 5, 5])
        extra = []
        for i in range(2, count):
            if i == 2 and rng.random() < 0.3:  # max_output_boxes_per_class of unknown value
                shapes.append(rng.choice(["", "", "1", "?", "2", "..."]))
                extra.append(None)
                continue
            value = rng.choice([0, 1, 5, 20, 200, -1, -3]) if i == 2 else 0.5
            dtype = np.int64 if i == 2 else np.float32
            one_d = version in ("opset5", "opset9") and rng.random() < 0.3  # NMS-1..4 take scalars only
            extra.append(const([value] if one_d else value, dtype))

        def build(p, v=version, extra=extra):
            p = list(p)
            ins = p[:2] + [e if e is not None else p[2] for e in extra]
            return mk(v, "NonMaxSuppression", ins, {"box_encoding": "corner", "sort_result_descending": True})
        types = [F32, F32] + ([I64] if len(shapes) > 2 else [])
        cases.append(Case(build, shapes, types, f"NMS-{version} {count} inputs"))
    for version in ("opset1", "opset3", "opset4", "opset5", "opset9"):  # boxes of 5 coordinates
        for scores in ("...", "1,2,10"):
            cases.append(Case(lambda p, v=version: mk(v, "NonMaxSuppression", p + [const(3)]),
                              ["1,10,5", scores], label=f"NMS-{version} boxes 1,10,5"))
    return cases


def test_non_max_suppression():
    assert_cases(_nms_cases(random.Random(4)), min_cases=90)


# -- ExperimentalDetectron* ----------------------------------------------------------------------------
def _experimental_detectron_cases(rng: random.Random) -> list[Case]:
    cases = []
    for _ in range(15):
        rois, classes = rng.choice([100, 1000]), rng.choice([2, 81])
        attrs = {"score_threshold": 0.05, "nms_threshold": 0.5, "max_delta_log_wh": 4.1,
                 "num_classes": rng.choice([classes] * 4 + [classes + 1]), "post_nms_count": 200,
                 "max_detections_per_image": rng.choice([100, 0, -1, 7]), "class_agnostic_box_regression": False,
                 "deltas_weights": [10.0, 10.0, 5.0, 5.0]}
        shapes = shapes_for(rng, [[rois, 4], [rois, classes * 4], [rois, classes], [1, 3]])
        cases.append(Case(lambda p, a=attrs: mk("opset6", "ExperimentalDetectronDetectionOutput", p, a), shapes,
                          label=f"EDDetectionOutput {attrs}"))
    edge = [  # batches and channels that disagree across the inputs
        ("ExperimentalDetectronPriorGridGenerator", ["3,4", "1,256,5,6", "2,3,100,200"], {"flatten": False}),
        ("ExperimentalDetectronPriorGridGenerator", ["3,4", "2..4,256,5,6", "1..2,3,10,20"], {"flatten": False}),
        ("ExperimentalDetectronROIFeatureExtractor", ["100,4", "2,256,8,8"], {"output_size": 7}),
        ("ExperimentalDetectronROIFeatureExtractor", ["100,4", "0..2,256,8,8", "1,?,4,4"], {"output_size": 7}),
        ("ExperimentalDetectronROIFeatureExtractor", ["100,4", "1,256,8,8", "1,128,4,4"], {"output_size": 7}),
        ("ExperimentalDetectronTopKROIs", ["100,4", "99"], {"max_rois": 10}),
        ("ExperimentalDetectronTopKROIs", ["100,4", "101..200"], {"max_rois": 10}),
        ("ExperimentalDetectronTopKROIs", ["100,4", "1,100"], {"max_rois": 10}),
    ]
    for kind, shapes, attrs in edge:
        cases.append(Case(lambda p, k=kind, a=attrs: mk("opset6", k, p, a), shapes, label=f"{kind} {shapes}"))
    for im_info in ("1,4", "2,3", "3", "?,?", "1,3,1", "..."):  # the image info against [1, 3]
        attrs = {"num_classes": 2, "max_detections_per_image": 10, "deltas_weights": [1.0] * 4}
        cases.append(Case(lambda p, a=attrs: mk("opset6", "ExperimentalDetectronDetectionOutput", p, a),
                          ["10,4", "10,8", "10,2", im_info], label=f"EDDetectionOutput im_info {im_info}"))
    for _ in range(15):
        anchors, h, w = rng.choice([3, 6]), rng.choice([4, 7]), rng.choice([2, 5])
        attrs = {"min_size": 0.0, "nms_threshold": 0.7, "post_nms_count": rng.choice([1000, 1, -1]),
                 "pre_nms_count": 1000}
        shapes = shapes_for(rng, [[3], [h * w * anchors, 4], [anchors * 4, h, w], [anchors, h, w]])
        cases.append(Case(lambda p, a=attrs: mk("opset6", "ExperimentalDetectronGenerateProposalsSingleImage", p,
                                                a), shapes, label=f"EDGenerateProposals {attrs}"))
    for _ in range(20):
        attrs = {"flatten": rng.random() < 0.5, "h": 0, "w": 0, "stride_x": 4.0, "stride_y": 4.0}
        shapes = shapes_for(rng, [[3, 4], [1, 256, rng.choice([5, 7]), 6], [1, 3, 100, 200]])
        cases.append(Case(lambda p, a=attrs: mk("opset6", "ExperimentalDetectronPriorGridGenerator", p, a),
                          shapes, label=f"EDPriorGridGenerator {attrs}"))
    for _ in range(20):
        attrs = {"output_size": rng.choice([7, 14]), "sampling_ratio": 2, "pyramid_scales": [4, 8, 16, 32],
                 "aligned": False}
        levels = rng.choice([1, 2, 4])
        pyramid = [[1, 256, 8 >> k, 8 >> k] for k in range(levels)]
        shapes = shapes_for(rng, [[rng.choice([100, 1000]), 4]] + pyramid, p_perturb=0.2)
        cases.append(Case(lambda p, a=attrs: mk("opset6", "ExperimentalDetectronROIFeatureExtractor", p, a),
                          shapes, label=f"EDROIFeatureExtractor {attrs}"))
    for _ in range(12):
        rois = rng.choice([100, 1000])
        attrs = {"max_rois": rng.choice([30, 1000, 0, -1])}
        shapes = shapes_for(rng, [[rois, 4], [rois]])
        cases.append(Case(lambda p, a=attrs: mk("opset6", "ExperimentalDetectronTopKROIs", p, a), shapes,
                          label=f"EDTopKROIs {attrs}"))
    return cases


def test_experimental_detectron():
    assert_cases(_experimental_detectron_cases(random.Random(5)), min_cases=80)


# -- CTC -----------------------------------------------------------------------------------------------
def _ctc_cases(rng: random.Random) -> list[Case]:
    cases = []
    for _ in range(20):
        time, batch = rng.choice([10, 20]), rng.choice([1, 2])
        shapes = shapes_for(rng, [[time, batch, 5], [time, batch]])
        cases.append(Case(lambda p: mk("opset1", "CTCGreedyDecoder", p, {"ctc_merge_repeated": True}), shapes,
                          label="CTCGreedyDecoder"))
    for _ in range(20):
        time, batch = rng.choice([10, 20]), rng.choice([1, 2])
        shapes = shapes_for(rng, [[batch, time, 5], [batch]])
        types = [F32, I32]
        if rng.random() < 0.5:
            shapes.append(rng.choice(["", "1", "2", "?", "1,1", "..."]))
            types.append(I32)
        attrs = {"merge_repeated": True, "classes_index_type": "i32", "sequence_length_type": "i32"}
        cases.append(Case(lambda p, a=attrs: mk("opset6", "CTCGreedyDecoderSeqLen", p, a), shapes, types,
                          "CTCGreedyDecoderSeqLen"))
    for _ in range(25):
        time, batch = rng.choice([10, 20]), rng.choice([1, 2])
        shapes = shapes_for(rng, [[batch, time, 5], [batch], [batch, time], [batch]])
        if rng.random() < 0.4:
            shapes.append(rng.choice(["", "", "1", "..."]))
        cases.append(Case(lambda p: mk("opset4", "CTCLoss", p), shapes, [F32] + [I32] * (len(shapes) - 1),
                          "CTCLoss"))
    for labels in ("2,11", "2,8..9", "2,..10", "?,?", "3,10"):  # the labels' time against the logits'
        cases.append(Case(lambda p: mk("opset4", "CTCLoss", p), ["2,10,5", "2", labels, "..."],
                          [F32, I32, I32, I32], f"CTCLoss labels {labels}"))
    return cases


def test_ctc():
    assert_cases(_ctc_cases(random.Random(6)), min_cases=65)


# -- recurrent cells and sequences ---------------------------------------------------------------------
CELLS = {"LSTMCell": (4, 2), "GRUCell": (3, 1), "RNNCell": (1, 1)}


def _cell_cases(rng: random.Random) -> list[Case]:
    cases = []
    for _ in range(90):
        kind = rng.choice(list(CELLS))
        gates, states = CELLS[kind]
        version = {"LSTMCell": rng.choice(["opset1", "opset4"]), "GRUCell": "opset3", "RNNCell": "opset1"}[kind]
        batch, inp, hidden = rng.choice([1, 2]), rng.choice([3, 5]), rng.choice([4, 8])
        lbr = kind == "GRUCell" and rng.random() < 0.4
        attrs = {"hidden_size": rng.choice([hidden] * 5 + [hidden + 1, 16])}
        if kind == "GRUCell":
            attrs["linear_before_reset"] = lbr
        dims = [[batch, inp]] + [[batch, hidden]] * states + \
            [[gates * hidden, inp], [gates * hidden, hidden], [(gates + lbr) * hidden]]
        peepholes = []
        if version == "opset1" and kind == "LSTMCell":  # B and P of LSTMCell-0 default when missing
            dims = dims[:rng.choice([5, 6, 6, 6])]
            if len(dims) == 6 and rng.random() < 0.7:
                # a constant P: OpenVINO reads its first dim whatever the rank, so a P of dynamic rank
                # (the harness's fallback build) is rejected; of 3 * hidden_size (the attribute) it holds
                peepholes = [const(np.zeros(3 * attrs["hidden_size"]), np.float32)]
        shapes = shapes_for(rng, dims, p_perturb=0.25)
        if rng.random() < 0.25:  # no input tells the hidden size: LSTMCell takes its attribute
            unknown = ["?", "2..", "..9", "3..6"]
            shapes[1:1 + states] = [f"{batch},{rng.choice(unknown)}" for _ in range(states)]
            shapes[1 + states:3 + states] = [f"{rng.choice(unknown)},{inp}",
                                             f"{rng.choice(unknown)},{rng.choice(unknown)}"]
        cases.append(Case(lambda p, k=kind, v=version, a=attrs, e=peepholes: mk(v, k, list(p) + e, a), shapes,
                          label=f"{kind}-{version} {attrs} P={bool(peepholes)}"))
    return cases


def test_cells():
    assert_cases(_cell_cases(random.Random(7)), min_cases=90)


SEQUENCES = {"LSTMSequence": (4, 2), "GRUSequence": (3, 1), "RNNSequence": (1, 1)}


def _sequence_cases(rng: random.Random) -> list[Case]:
    cases = []
    for _ in range(90):
        kind = rng.choice(list(SEQUENCES))
        gates, states = SEQUENCES[kind]
        direction = rng.choice(["forward", "reverse", "bidirectional"])
        dirs = 2 if direction == "bidirectional" else 1
        batch, time, inp, hidden = rng.choice([1, 2]), rng.choice([5, 7]), rng.choice([3, 5]), rng.choice([4, 8])
        lbr = kind == "GRUSequence" and rng.random() < 0.4
        attrs = {"hidden_size": hidden, "direction": direction}
        if kind == "GRUSequence":
            attrs["linear_before_reset"] = lbr
        dims = [[batch, time, inp]] + [[batch, dirs, hidden]] * states + \
            [[batch], [dirs, gates * hidden, inp], [dirs, gates * hidden, hidden],
             [dirs, (gates + lbr) * hidden]]
        shapes = shapes_for(rng, dims, p_perturb=0.2)
        types = [F32] * (1 + states) + [I32] + [F32] * 3
        cases.append(Case(lambda p, k=kind, a=attrs: mk("opset5", k, p, a), shapes, types,
                          f"{kind} {attrs}"))
    return cases


def test_sequences():
    assert_cases(_sequence_cases(random.Random(8)), min_cases=90)


def test_sequence_hidden_size_from_an_unbounded_weight_dim():
    """With the hidden size unknown, a sequence divides W's second dim by the gates (where W's first dim
    is static): an unbounded dim gets OpenVINO's finite upper bound, INT64_MAX / gates in doubles."""
    cases = []
    for kind, (gates, states) in SEQUENCES.items():
        for w in ["1,8..,3", "1,8..12,3", "1,?,3", "?,8..,3", "1,9,3"]:
            shapes = ["2,5,3"] + ["2,1,?"] * states + ["2", w, "...", "1,?"]
            types = [F32] * (1 + states) + [I32] + [F32] * 3
            cases.append(Case(lambda p, k=kind: mk("opset5", k, p, {"hidden_size": 4, "direction": "forward"}),
                              shapes, types, f"{kind} W {w}"))
    outcomes = assert_cases(cases)
    assert any(isinstance(o.expected, list) and o.expected[0][3].hi == (1 << 63) // 4 for o in outcomes)


# -- ScaledDotProductAttention -------------------------------------------------------------------------
def _sdpa_cases(rng: random.Random) -> list[Case]:
    cases = []
    for _ in range(110):
        batch = [rng.choice([1, 2]) for _ in range(rng.choice([1, 2, 2]))]
        l_len, s_len, e, ev = rng.choice([1, 4]), rng.choice([1, 5]), rng.choice([8, 1]), rng.choice([6, 8])

        def batch_of(rng=rng, batch=batch):
            return [rng.choice([b, b, 1]) for b in batch][rng.choice([0, 0, 0, 1]):]
        shapes = [shape_of(rng, batch + [l_len, e], p_perturb=0.2),
                  shape_of(rng, batch_of() + [s_len, e], p_perturb=0.2),
                  shape_of(rng, batch_of() + [s_len, ev], p_perturb=0.2)]
        count = rng.choice([3, 4, 4, 5, 6, 6, 7])
        if count >= 4:
            mask = rng.choice([[l_len, s_len], [1, s_len], [l_len, 1], batch_of() + [l_len, s_len], [s_len], [],
                               [1, 1, 1, l_len, s_len]])
            shapes.append(shape_of(rng, mask, p_perturb=0.15))
        if count >= 5:  # the scale is checked only with exactly 5 inputs
            shapes.append(rng.choice(["", "", "1", "2", "?", "1,1", "..."]))
        if count >= 6:  # the attention sink (gpt-oss), checked only with exactly 6 inputs
            heads = batch[-1]
            sink = rng.choice([[1, heads, 1, 1], [1, heads, l_len, 1], [1, 3, 1, 1], [heads, 1, 1], [1, 1, 1, e],
                               [1] * len(batch) + [1, 1], batch + [l_len, 1], [7] + batch[1:] + [1, 1]])
            shapes.append(shape_of(rng, sink, p_perturb=0.15))
        if count == 7:
            shapes.append("2")
        causal = rng.random() < 0.3
        cases.append(Case(lambda p, c=causal: mk("opset13", "ScaledDotProductAttention", p, {"causal": c}),
                          shapes, label=f"SDPA causal={causal}"))
    return cases


def test_scaled_dot_product_attention():
    outcomes = assert_cases(_sdpa_cases(random.Random(9)), min_cases=70)
    sinks = [o for o in outcomes if len(o.case.shapes) == 6]
    assert any(isinstance(o.expected, list) for o in sinks) and any(isinstance(o.expected, str) for o in sinks)


# -- Multinomial, RandomUniform ------------------------------------------------------------------------
def _random_cases(rng: random.Random) -> list[Case]:
    cases = []
    for _ in range(20):
        probs = shape_of(rng, [rng.choice([1, 4]), 10])
        attrs = {"convert_type": "i64", "with_replacement": True, "log_probs": False}
        if rng.random() < 0.6:
            value = rng.choice([3, 1, 0, [5], -1, -4])
            cases.append(Case(lambda p, v=value, a=attrs: mk("opset13", "Multinomial", [p[0], const(v)], a),
                              [probs], label=f"Multinomial {value}"))
        else:
            cases.append(Case(lambda p, a=attrs: mk("opset13", "Multinomial", p, a),
                              [probs, rng.choice(["", "1", "?", "2", "..."])], [F32, I64], "Multinomial"))
    for _ in range(20):
        attrs = {"output_type": "f32", "op_seed": 0, "global_seed": 0}
        low, high = rng.choice([(0.0, 1.0), (-2.0, 3.5)])
        bounds = [const(low, np.float32), const(high, np.float32)]
        if rng.random() < 0.5:
            value = rng.choice([[2, 3], [4], [0, 5], [-1, 2], [3, -4, 1]])
            cases.append(Case(lambda p, v=value, a=attrs, b=bounds: mk("opset8", "RandomUniform",
                                                                         [const(v)] + b, a),
                              [], label=f"RandomUniform {value}"))
        else:
            cases.append(Case(lambda p, a=attrs, b=bounds: mk("opset8", "RandomUniform", [p[0]] + b, a),
                              [rng.choice(["3", "2..4", "?", "..2", "...", "", "1,2"])], [I64], "RandomUniform"))
    return cases


def _random_uniform_bound_cases() -> list[Case]:
    """The minimum and the maximum of unknown value: scalars or one element."""
    cases = []
    for low in ("", "1", "2", "?", "1,1", "..."):
        for high in ("", "?"):
            cases.append(Case(lambda p: mk("opset8", "RandomUniform", p, {"output_type": "f32"}),
                              ["2", low, high], [I64, F32, F32], f"RandomUniform min {low} max {high}"))
    return cases


def test_random_ops():
    assert_cases(_random_cases(random.Random(10)) + _random_uniform_bound_cases(), min_cases=52)


def test_shape_strings_parse():
    """The partial-shape strings the generators write are ones irreshape itself reads."""
    rng = random.Random(11)
    for _ in range(50):
        text = shape_of(rng, [1, 2, 3])
        assert parse_shape(text) == to_shape(pshape(text)) or text == "..."


# -- layers openvino rejects whatever the input shapes --------------------------------------------------
def _version(node) -> str:
    return node.get_type_info().version_id


def _rejected(build_bad, build_twin, inputs, values=(), attrs=None):
    """openvino refuses ``build_bad()`` even on inputs of dynamic rank (so the harness cannot build it for
    its attributes); irreshape must refuse the same layer: the attributes of a ``build_twin()`` it can
    build, changed by ``attrs``, on the refused layer's ``inputs`` and constant ``values``."""
    with pytest.raises(RuntimeError):
        build_bad()
    twin = build_twin()
    data = dict(_ir_attrs(twin), **(attrs or {}))
    n = registry.Node(twin.get_type_name(), _version(twin), data, [parse_shape(s) for s in inputs],
                      len(twin.outputs()), list(values) + [None] * (len(inputs) - len(values)))
    with pytest.raises(registry.ShapeError):
        registry.shape_fn(twin.get_type_name(), _version(twin))(n)


def test_rejected_whatever_the_shapes():
    sizes = {"min_size": [2.0], "offset": 0.5}
    for version in ("opset1", "opset8"):
        for bad in ([2, 2, 2], [4]):  # an output size of other than two elements
            _rejected(lambda: mk(version, "PriorBox", [const(bad), P("...", I64)], sizes),
                      lambda: mk(version, "PriorBox", [const([2, 2]), P("...", I64)], sizes),
                      [str(len(bad)), "..."], [registry_const(const(bad))])
    clustered = {"width": [1.0, 2.0], "height": [1.0, 2.0], "offset": 0.5}
    _rejected(lambda: mk("opset1", "PriorBoxClustered", [const([3, 3, 3]), P("...", I64)], clustered),
              lambda: mk("opset1", "PriorBoxClustered", [const([3, 3]), P("...", I64)], clustered),
              ["3", "..."], [registry_const(const([3, 3, 3]))])
    _rejected(lambda: mk("opset1", "PriorBoxClustered", [P("2", I64), P("2", I64)],
                         {"width": [1.0, 2.0], "height": [1.0], "offset": 0.5}),
              lambda: mk("opset1", "PriorBoxClustered", [P("2", I64), P("2", I64)], clustered),
              ["2", "2"], attrs={"height": "1"})
    for version, extra in (("opset1", {"num_classes": 2}), ("opset8", {})):
        good = dict(extra, keep_top_k=[5], normalized=True)
        _rejected(lambda: mk(version, "DetectionOutput", [P("..."), P("..."), P("...")],
                             dict(good, code_type="caffe.PriorBoxParameter.CENTER")),
                  lambda: mk(version, "DetectionOutput", [P("..."), P("..."), P("...")], good),
                  ["...", "...", "..."], attrs={"code_type": "caffe.PriorBoxParameter.CENTER"})
    _rejected(lambda: mk("opset1", "DetectionOutput", [P("..."), P("..."), P("...")],
                         {"num_classes": 0, "keep_top_k": [5]}),
              lambda: mk("opset1", "DetectionOutput", [P("..."), P("..."), P("...")],
                         {"num_classes": 2, "keep_top_k": [5]}),
              ["...", "...", "..."], attrs={"num_classes": "0"})
    for version in ("opset1", "opset3", "opset4"):  # NMS-1..4 want a scalar max_output_boxes_per_class
        _rejected(lambda: mk(version, "NonMaxSuppression", [P("..."), P("..."), const([3])]),
                  lambda: mk(version, "NonMaxSuppression", [P("..."), P("..."), const(3)]),
                  ["...", "...", "1"], [None, None, registry_const(const([3]))])
    _rejected(lambda: mk("opset9", "NonMaxSuppression",
                         [P("..."), P("..."), const(3), const([0.5, 0.5], np.float32)]),
              lambda: mk("opset9", "NonMaxSuppression", [P("..."), P("..."), const(3), const(0.5, np.float32)]),
              ["...", "...", "", "2"], [None, None, registry_const(const(3))])
    _rejected(lambda: mk("opset13", "Multinomial", [P("..."), const([2, 2])], {"convert_type": "i64"}),
              lambda: mk("opset13", "Multinomial", [P("..."), const([2])], {"convert_type": "i64"}),
              ["...", "2"], [None, registry_const(const([2, 2]))])
    uniform = {"output_type": "f32"}
    for low, high in ((1.0, 1.0), (2.0, 1.0)):  # a constant minimum below the maximum
        _rejected(lambda: mk("opset8", "RandomUniform", [P("...", I64), const(low, np.float32),
                                                         const(high, np.float32)], uniform),
                  lambda: mk("opset8", "RandomUniform", [P("...", I64), const(0.0, np.float32),
                                                         const(1.0, np.float32)], uniform),
                  ["2", "", ""], [None, registry_const(const(low, np.float32)),
                                  registry_const(const(high, np.float32))])
    lstm = [P("2,3"), P("2,4"), P("2,4"), P("16,3"), P("16,4"), P("16")]
    for peepholes in ("...", ""):  # LSTMCell-0 reads the first dim of P, whatever its rank
        _rejected(lambda: mk("opset1", "LSTMCell", [P("...")] * 6 + [P(peepholes)], {"hidden_size": 4}),
                  lambda: mk("opset1", "LSTMCell", lstm + [P("12")], {"hidden_size": 4}),
                  ["2,3", "2,4", "2,4", "16,3", "16,4", "16", peepholes])
    # LSTMCell-4 wants its B, GRUCell and RNNCell theirs: the IR reader adds no default
    _rejected(lambda: mk("opset4", "LSTMCell", [P("...")] * 5, {"hidden_size": 4}),
              lambda: mk("opset4", "LSTMCell", lstm, {"hidden_size": 4}), ["2,3", "2,4", "2,4", "16,3", "16,4"])
    _rejected(lambda: mk("opset3", "GRUCell", [P("...")] * 4, {"hidden_size": 4}),
              lambda: mk("opset3", "GRUCell", [P("2,3"), P("2,4"), P("12,3"), P("12,4"), P("12")],
                         {"hidden_size": 4}), ["2,3", "2,4", "12,3", "12,4"])
    _rejected(lambda: mk("opset1", "RNNCell", [P("...")] * 4, {"hidden_size": 4}),
              lambda: mk("opset1", "RNNCell", [P("2,3"), P("2,4"), P("4,3"), P("4,4"), P("4")],
                         {"hidden_size": 4}), ["2,3", "2,4", "4,3", "4,4"])


# -- values from shape subgraphs, and what irreshape leaves undecided ----------------------------------
def test_sizes_from_the_bounds_of_a_shape_subgraph():
    """The output size of PriorBox, the shape of RandomUniform and the count of Multinomial come from the
    value bounds of a ShapeOf subgraph: intervals multiply as dims."""
    data = opset1.parameter(pshape("1,3,2..5,4..6"), F32)
    shape_of = opset8.shape_of(data, "i64")

    def gather(indices):
        return opset8.gather(shape_of, const(indices), const(0))
    hw = Tensor("i64", (2,), (2, 4), (5, 6))
    zero, one = const(0.0, np.float32), const(1.0, np.float32)
    checks = [
        (mk("opset8", "PriorBox", [gather([2, 3]), const([8, 8])], {"min_size": [2.0], "offset": 0.5}),
         [hw, registry_const(const([8, 8]))]),
        (mk("opset1", "PriorBoxClustered", [gather([2, 3]), const([8, 8])],
            {"width": [1.0, 2.0], "height": [1.0, 2.0], "offset": 0.5}), [hw, registry_const(const([8, 8]))]),
        (mk("opset8", "RandomUniform", [gather([2, 3]), zero, one], {"output_type": "f32"}),
         [hw, registry_const(zero), registry_const(one)]),
        (mk("opset13", "Multinomial", [P("2,5"), gather([3])], {"convert_type": "i64"}),
         [None, Tensor("i64", (1,), (4,), (6,))]),
    ]
    for node, values in checks:
        inputs = [to_shape(i.get_partial_shape()) for i in node.inputs()]
        n = registry.Node(node.get_type_name(), _version(node), _ir_attrs(node), inputs, 1, values)
        expected = to_shape(node.get_output_partial_shape(0))
        assert any(not d.is_static for d in expected)
        assert registry.shape_fn(node.get_type_name(), _version(node))(n) == [expected]


def test_undecided():
    """A PriorBox density out of the int64 range (infinite, NaN, 1e30): OpenVINO's static_cast of it is
    undefined behaviour, INT64_MIN on x86-64 and saturated on ARM, so the count of priors depends on the
    build."""
    node = mk("opset8", "PriorBox", [const([2, 2]), const([8, 8])], {"min_size": [2.0], "offset": 0.5})
    for density in ("inf", "nan", "1e30", "-1e30"):
        n = registry.Node("PriorBox", "opset8", dict(_ir_attrs(node), density=density),
                          [[Dim.of(2)], [Dim.of(2)]], 1, [registry_const(const([2, 2])), None])
        with pytest.raises(registry.Undecided):
            registry.shape_fn("PriorBox", "opset8")(n)


def test_keep_top_k_empty():
    """A DetectionOutput without keep_top_k: OpenVINO reads the first element of an empty vector, and
    read_model crashes (openvino 2026.4.1, measured by scripts/attr_fuzz.py in a forked child, so the case is
    not run against it here): a refusal of the file."""
    node = mk("opset8", "DetectionOutput", [P("1,8"), P("1,4"), P("1,2,8")],
              {"keep_top_k": [5], "normalized": True})
    for version in ("opset1", "opset8"):
        attrs = dict(_ir_attrs(node), keep_top_k="", num_classes="2")
        n = registry.Node("DetectionOutput", version, attrs, [parse_shape(s) for s in ("1,8", "1,4", "1,2,8")])
        unit = registry.op("DetectionOutput", version)
        with pytest.raises(registry.ShapeError):
            unit.infer(n)
