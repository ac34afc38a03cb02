"""RGBtoNV12 and BGRtoNV12 (opset17) against openvino 2026.4.1: shapes (single plane or Y and UV) and types.

Cases are seeded random draws of [N, H, W, 3] images with even and odd sizes, dims swapped for ``?`` and intervals,
wrong channel counts and ranks; ops are built with ``NodeFactory`` as the IR reader builds them.
"""

from __future__ import annotations

import random

import openvino as ov

from ovshapes import assert_cases, shape_of, types_agree
from test_ops_signal import port_case


def test_to_nv12():
    rng = random.Random(51)
    cases = []
    for _ in range(120):
        dims = [rng.choice([1, 2]), rng.choice([4, 6, 5, 0]), rng.choice([8, 7, 2]), rng.choice([3, 3, 3, 4])]
        ports = [("param", shape_of(rng, dims, p_perturb=0.4), rng.choice([ov.Type.u8, ov.Type.f32]))]
        cases.append(port_case("opset17", rng.choice(["RGBtoNV12", "BGRtoNV12"]), ports,
                               {"single_plane": rng.random() < 0.5}))
    assert_cases(cases, min_cases=120)


def test_to_nv12_types():
    for kind in ("RGBtoNV12", "BGRtoNV12"):
        for t in ("u8", "f32", "f16", "bf16", "i8", "i32", "u16", "boolean", "dynamic"):
            for single in (True, False):
                assert types_agree("opset17", kind, ["1,4,6,3"], [t], {"single_plane": single})
