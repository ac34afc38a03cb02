"""GroupedMatMul-17 (what MoE exporters write) against openvino 2026.4.1: shapes and element types.

Cases are seeded random draws of the two cases OpenVINO's unit holds (3-D by 3-D, 2-D by 3-D with offsets) and of
ranks it refuses, with dims swapped for ``?``, intervals that hold the right value or miss it, wrong values and
dynamic ranks; ops are built with ``NodeFactory`` as the IR reader builds them.
"""

from __future__ import annotations

import random

import openvino as ov
from ovshapes import assert_cases, shape_of, types_agree
from test_ops_signal import port_case

F32 = ov.Type.f32


def test_grouped_matmul_shapes():
    rng = random.Random(31)
    cases = []
    for _ in range(150):
        g, m, n, k, t = rng.choice([2, 4]), rng.choice([3, 5]), rng.choice([6, 7]), rng.choice([8, 16]), 10
        roll = rng.random()
        if roll < 0.45:
            a, b = [g, m, k], [g, n, k]
        elif roll < 0.9:
            a, b = [t, k], [g, n, k]
        else:
            a, b = rng.choice([([t, k], [n, k]), ([k], [g, n, k]), ([2, g, m, k], [g, n, k])])
        ports = [("param", shape_of(rng, a, p_perturb=0.35), F32), ("param", shape_of(rng, b, p_perturb=0.35), F32)]
        if (len(a) == 2 and rng.random() < 0.9) or rng.random() < 0.15:
            ports.append(("param", rng.choice([str(g), "?", "...", "", f"{g},1"]), ov.Type.i32))
        cases.append(port_case("opset17", "GroupedMatMul", ports))
    assert_cases(cases, min_cases=150)


TYPES = ("f32", "f16", "bf16", "i32", "i64", "u8", "boolean", "dynamic")


def test_grouped_matmul_types():
    """Pairs of data types and an offsets type, as ``validate_and_infer_types`` judges them."""
    rng = random.Random(32)
    cases = [(rng.choice(TYPES), rng.choice(TYPES), rng.choice(TYPES)) for _ in range(60)]
    cases += [(t, t, rng.choice(TYPES)) for t in TYPES]
    assert all(types_agree("opset17", "GroupedMatMul", ["10,8", "4,6,8", "4"], c) for c in cases)
    assert all(types_agree("opset17", "GroupedMatMul", ["4,10,8", "4,6,8"], c[:2]) for c in cases)
