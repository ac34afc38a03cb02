"""MulticlassNms-8/9, MatrixNms-8, NMSRotated-13, GenerateProposals-9, ROIAlignRotated-15 and DeformablePSROIPooling-1
against openvino 2026.4.1: shapes (the NMS outputs' counts are intervals) and element types.

Cases are seeded random draws of consistent input shapes with dims swapped for ``?``, intervals that hold the right
value or miss it, wrong static values and dynamic ranks, crossed with the attributes (``nms_top_k``, ``keep_top_k``
in and out of range); ops are built with ``NodeFactory`` as the IR reader builds them.
"""

from __future__ import annotations

import random

import numpy as np
import openvino as ov

from ovshapes import assert_cases, shape_of, types_agree
from test_ops_signal import port_case

F32, I32 = ov.Type.f32, ov.Type.i32
FLOATS = ("f32", "f16", "bf16", "i32", "i64", "dynamic")


def _p(rng, dims, et=F32, perturb=0.35):
    return ("param", shape_of(rng, dims, p_perturb=perturb), et)


def _nms_attrs(rng):
    # (below -1 either is refused whatever the shapes: test_nms_attribute_refusals)
    return {"nms_top_k": rng.choice([-1, -1, 3, 50]), "keep_top_k": rng.choice([-1, -1, 5, 100]),
            "background_class": rng.choice([-1, 0, 2]), "output_type": rng.choice(["i32", "i64"])}


def test_multiclass_nms():
    rng = random.Random(41)
    cases = []
    for _ in range(200):
        batches, classes, boxes = rng.choice([1, 2]), rng.choice([3, 4]), rng.choice([7, 20])
        opset = rng.choice(["opset8", "opset9"])
        if opset == "opset9" and rng.random() < 0.4:  # boxes [classes, boxes, 4], scores [classes, boxes], roisnum
            ports = [_p(rng, [classes, boxes, 4]), _p(rng, [classes, boxes]), _p(rng, [batches], I32)]
        else:
            ports = [_p(rng, [batches, boxes, 4]), _p(rng, [batches, classes, boxes])]
        attrs = _nms_attrs(rng)
        attrs["nms_eta"] = rng.choice([1.0, 0.5])
        cases.append(port_case(opset, "MulticlassNms", ports, attrs))
    assert_cases(cases, min_cases=150)


def test_matrix_nms():
    rng = random.Random(42)
    cases = []
    for _ in range(160):
        batches, classes, boxes = rng.choice([1, 2]), rng.choice([3, 4]), rng.choice([7, 20])
        ports = [_p(rng, [batches, boxes, 4]), _p(rng, [batches, classes, boxes])]
        attrs = _nms_attrs(rng)
        cases.append(port_case("opset8", "MatrixNms", ports, attrs))
    # boxes of a dynamic rank: the attributes are not checked
    cases += [port_case("opset8", "MatrixNms", [("param", "...", F32), _p(rng, [1, 3, 7])], {name: -2})
              for name in ("nms_top_k", "keep_top_k", "background_class")]
    assert_cases(cases, min_cases=160)


def test_nms_attribute_refusals():
    from test_ops_signal import assert_refused_on_values
    dyn = [("param", "...", F32), ("param", "...", F32)]
    static = [("param", "2,7,4", F32), ("param", "2,3,7", F32)]
    for kind, opset in (("MatrixNms", "opset8"), ("MulticlassNms", "opset8"), ("MulticlassNms", "opset9")):
        for ports in (dyn, static) if kind == "MulticlassNms" else (static,):  # MatrixNms: only on boxes of a rank
            for attrs in ({"nms_top_k": -2}, {"keep_top_k": -5}, {"background_class": -2}):
                assert assert_refused_on_values(opset, kind, ports, attrs)
    for ports in (dyn, static):
        assert assert_refused_on_values("opset9", "MulticlassNms", ports, {"nms_eta": 1.5})



def test_nms_types():
    rng = random.Random(43)
    for _ in range(60):
        tb, ts, tr = rng.choice(FLOATS), rng.choice(FLOATS), rng.choice(FLOATS)
        attrs = {"output_type": rng.choice(["i32", "i64", "f32"])}
        assert types_agree("opset8", "MatrixNms", ["1,7,4", "1,3,7"], [tb, ts], attrs)
        assert types_agree("opset9", "MulticlassNms", ["1,7,4", "1,3,7"], [tb, ts], attrs)
        assert types_agree("opset9", "MulticlassNms", ["3,7,4", "3,7", "2"], [tb, ts, tr], attrs)


def test_nms_rotated():
    rng = random.Random(44)
    cases = []
    for _ in range(120):
        batches, classes, boxes = rng.choice([1, 2]), rng.choice([3, 4]), rng.choice([7, 20])
        ports = [_p(rng, [batches, boxes, 5]), _p(rng, [batches, classes, boxes])]
        ports.append(("const", np.int64(rng.choice([3, 50, 0])), np.int64) if rng.random() < 0.7
                     else _p(rng, [], ov.Type.i64, 0.2))
        ports += [("const", np.float32(0.5), np.float32), _p(rng, [], F32, 0.2)]
        cases.append(port_case("opset13", "NMSRotated", ports,
                               {"output_type": rng.choice(["i32", "i64"]), "clockwise": rng.random() < 0.5}))
    assert_cases(cases, min_cases=120)
    from test_ops_signal import assert_refused_on_values
    four = [("param", "1,7,5", F32), ("param", "1,3,7", F32), ("param", "", ov.Type.i64), ("param", "", F32)]
    assert assert_refused_on_values("opset13", "NMSRotated", four)  # five inputs, checked after the shapes
    four[1] = ("param", "1,3", F32)
    assert "scores" in assert_refused_on_values("opset13", "NMSRotated", four)


def test_nms_rotated_types():
    rng = random.Random(45)
    pool = FLOATS + ("u8", "boolean")
    for _ in range(80):
        types = [rng.choice(pool) if rng.random() < 0.3 else t for t in ("f32", "f32", "i64", "f32", "f32")]
        attrs = {"output_type": rng.choice(["i32", "i64", "i64", "f32"])}
        assert types_agree("opset13", "NMSRotated", ["1,7,5", "1,3,7", "", "", ""], types, attrs)


def test_generate_proposals():
    rng = random.Random(46)
    cases = []
    for _ in range(150):
        n, h, w, a = rng.choice([1, 2]), rng.choice([3, 5]), rng.choice([4, 6]), rng.choice([2, 3])
        ports = [_p(rng, [n, rng.choice([3, 4, 4, 5])]), _p(rng, [h, w, a, 4]), _p(rng, [n, 4 * a, h, w]),
                 _p(rng, [n, a, h, w])]
        attrs = {"post_nms_count": rng.choice([5, 100]), "pre_nms_count": rng.choice([10, 1000]),
                 "min_size": 1.0, "nms_threshold": 0.7, "normalized": rng.random() < 0.5,
                 "roi_num_type": rng.choice(["i32", "i64"])}
        cases.append(port_case("opset9", "GenerateProposals", ports, attrs))
    assert_cases(cases, min_cases=150)
    from test_ops_signal import assert_refused_on_values
    dyn = [("param", "...", F32)] * 4
    for bad in ({"post_nms_count": 0}, {"pre_nms_count": -1, "post_nms_count": 5},
                {"post_nms_count": 5, "pre_nms_count": 5, "nms_eta": 0.5}):
        assert assert_refused_on_values("opset9", "GenerateProposals", dyn, bad)


def test_generate_proposals_types():
    rng = random.Random(47)
    pool = FLOATS + ("u8", "boolean")
    for _ in range(40):
        types = [rng.choice(pool) for _ in range(4)]
        attrs = {"post_nms_count": 5, "pre_nms_count": 5, "roi_num_type": rng.choice(["i32", "i64", "f32"])}
        assert types_agree("opset9", "GenerateProposals", ["1,3", "3,4,2,4", "1,8,3,4", "1,2,3,4"], types, attrs)


def test_roi_align_rotated():
    rng = random.Random(48)
    cases = []
    for _ in range(120):
        rois = rng.choice([3, 6])
        ports = [_p(rng, [1, 8, 10, 10]), _p(rng, [rois, 5]), _p(rng, [rois], I32)]
        attrs = {"pooled_h": rng.choice([2, 0]), "pooled_w": rng.choice([3, -1]), "sampling_ratio": 2,
                 "spatial_scale": 0.5, "clockwise_mode": rng.random() < 0.5}
        cases.append(port_case("opset15", "ROIAlignRotated", ports, attrs))
    assert_cases(cases, min_cases=120)
    pool = FLOATS + ("u8", "boolean")
    for _ in range(40):
        types = [rng.choice(pool) for _ in range(3)]
        assert types_agree("opset15", "ROIAlignRotated", ["1,8,10,10", "3,5", "3"], types,
                           {"pooled_h": 2, "pooled_w": 2, "spatial_scale": 1.0})
        assert types_agree("opset9", "ROIAlign", ["1,8,10,10", "3,4", "3"], types,  # one rule: the output the merge
                           {"pooled_h": 2, "pooled_w": 2, "spatial_scale": 1.0, "sampling_ratio": 1})


def test_deformable_psroi_pooling():
    rng = random.Random(49)
    cases = []
    for _ in range(120):
        group, out_dim, rois = rng.choice([3, 2]), rng.choice([8, 4]), rng.choice([5, 7])
        ports = [_p(rng, [1, out_dim * group * group, 8, 8]), _p(rng, [rois, 5])]
        if rng.random() < 0.5:
            ports.append(_p(rng, [rois, 2, group, group]))
        attrs = {"output_dim": out_dim, "group_size": group, "spatial_scale": 0.0625,
                 "mode": rng.choice(["bilinear_deformable", "average"]), "part_size": rng.choice([1, 3])}
        cases.append(port_case("opset1", "DeformablePSROIPooling", ports, attrs))
    assert_cases(cases, min_cases=120)
    from test_ops_signal import assert_refused_on_values
    dyn = [("param", "...", F32)] * 2
    for bad in ({"output_dim": 0, "group_size": 2}, {"output_dim": 4, "group_size": -1}):
        assert assert_refused_on_values("opset1", "DeformablePSROIPooling", dyn, bad)
