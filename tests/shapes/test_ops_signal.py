"""The signal family of the shape registry (RDFT, IRDFT, STFT, ISTFT) against openvino 2026.4.1.

Cases are seeded random draws: data shapes of several ranks with dims swapped for ``?`` and intervals, axes,
signal sizes, frame sizes and steps as constants (in range, negative, repeated, out of range) or as run-time
inputs, crossed with the attributes; ops are built with ``NodeFactory`` as the IR reader builds them.
"""

from __future__ import annotations

import random

import numpy as np
import openvino as ov
import pytest
from openvino import opset1

from irreshape.core.dims import Dim
from irreshape.shapes import registry
from irreshape.shapes.values import const as const_tensor
from ovshapes import Case, assert_cases, mk, pshape, shape_of, to_shape

I64, I32, F32 = ov.Type.i64, ov.Type.i32, ov.Type.f32


def port_case(opset: str, kind: str, ports, attrs=None, label: str = "") -> Case:
    """A case whose every input port is ``("param", shape, type)`` or ``("const", values, dtype)``; each port has a
    shape string (a constant's own), so the harness lines the shapes up with the ports where openvino refuses."""
    shapes = [p[1] if p[0] == "param" else ",".join(map(str, np.asarray(p[1]).shape)) for p in ports]
    types = [p[2] if p[0] == "param" else I64 for p in ports]

    def build(params):
        inputs = [params[i] if p[0] == "param" else opset1.constant(np.asarray(p[1], dtype=p[2]))
                  for i, p in enumerate(ports)]
        return mk(opset, kind, inputs, attrs or {})
    return Case(build, shapes, types, label or f"{kind} {ports} {attrs}")


def _axes(rng: random.Random, rank: int, complex_input: bool):
    usable = max(rank - 1 if complex_input else rank, 1)
    n = rng.choice([1, 1, 2, 3]) if usable > 1 else 1
    axes = rng.sample(range(usable), min(n, usable))
    axes = [a - usable if rng.random() < 0.3 else a for a in axes]
    roll = rng.random()
    if roll < 0.05:
        axes = axes + axes[:1]  # repeated
    elif roll < 0.1:
        axes = axes[:-1] + [usable + rng.choice([0, 1])]  # out of range
    elif roll < 0.13:
        axes = list(range(usable + 1))  # too many
    return axes


def _fft_cases(rng: random.Random, kind: str, n: int) -> list[Case]:
    complex_input = kind == "IRDFT"
    cases = []
    for _ in range(n):
        rank = rng.choice([1, 2, 3, 4]) + (1 if complex_input else 0)
        dims = [rng.choice([1, 2, 5, 8, 9, 16]) for _ in range(rank)]
        if complex_input:
            dims[-1] = 2 if rng.random() < 0.93 else 3
        elif rng.random() < 0.03:
            dims = []
        data = ("param", shape_of(rng, dims, p_perturb=0.35), F32)
        axes = _axes(rng, rank, complex_input)
        roll = rng.random()
        if roll < 0.75:
            axes_port = ("const", axes, np.int64 if rng.random() < 0.7 else np.int32)
        else:
            axes_port = ("param", rng.choice([str(len(axes)), "?", "...", "1..3", "", "2,1"]), I64)
        ports = [data, axes_port]
        if rng.random() < 0.6:
            sizes = [rng.choice([-1, -1, 1, 4, 7, 10, 16]) for _ in axes]
            if axes_port[0] == "param" and rng.random() < 0.2:
                sizes = sizes + [3]  # one too many (against constant axes openvino cannot even build the op)
            if rng.random() < 0.75:
                ports.append(("const", sizes, np.int64))
            else:
                ports.append(("param", rng.choice([str(len(sizes)), "?", "..."]), I64))
        cases.append(port_case("opset9", kind, ports))
    return cases


def test_rdft():
    assert_cases(_fft_cases(random.Random(7), "RDFT", 140), min_cases=140)


def test_irdft():
    assert_cases(_fft_cases(random.Random(8), "IRDFT", 140), min_cases=140)


def assert_refused_on_values(opset: str, kind: str, ports, attrs=None) -> str:
    """A case whose constants make openvino refuse the op (the harness cannot build it even on inputs of dynamic
    rank): irreshape refuses it too, on the same inputs, with openvino's message."""
    params = [opset1.parameter(pshape(p[1]), p[2]) if p[0] == "param" else None for p in ports]
    with pytest.raises(RuntimeError) as refused:
        port_case(opset, kind, ports, attrs).build(params)
    expected = str(refused.value).strip().splitlines()[-1]
    arrays = [np.asarray(p[1]) if p[0] == "const" else None for p in ports]
    shapes = [to_shape(pshape(p[1])) if a is None else [Dim.of(n) for n in a.shape] for p, a in zip(ports, arrays)]
    values = [None if a is None else const_tensor("i64", a.shape, a.reshape(-1).tolist()) for a in arrays]
    node = registry.Node(kind, opset, {k: str(v).lower() for k, v in (attrs or {}).items()}, shapes, 1, values)
    with pytest.raises(registry.ShapeError) as ours:
        registry.shape_fn(kind, opset)(node)
    assert str(ours.value) == expected
    return expected


def _scalar(rng: random.Random, good: int, bad=(0, -2)):
    value = good if rng.random() < 0.85 or not bad else rng.choice(bad)
    if rng.random() < 0.8:
        return ("const", np.int64(value), np.int64)
    return ("param", rng.choice(["", "", "?", "...", "1"]), I64)


def _window(rng: random.Random, size: int):
    return ("param", rng.choice([str(size), str(size), str(max(size - 2, 1)), str(size + 1), "?", "0", "...",
                                 f"{size},1"]), F32)


def test_stft():
    rng = random.Random(9)
    cases = []
    for _ in range(110):
        size, step, length = rng.choice([4, 8, 16]), rng.choice([1, 2, 3, 5]), rng.choice([16, 33, 40, 100])
        signal = shape_of(rng, [rng.choice([1, 2]), length][rng.choice([0, 1]):], p_perturb=0.4)
        if rng.random() < 0.05:
            size = length + rng.choice([0, 1])
        ports = [("param", signal, F32), _window(rng, size), _scalar(rng, size), _scalar(rng, step)]
        cases.append(port_case("opset15", "STFT", ports, {"transpose_frames": rng.random() < 0.5}))
    assert_cases(cases, min_cases=110)


def test_istft():
    rng = random.Random(10)
    cases = []
    for _ in range(140):
        size, step, frames = rng.choice([4, 8, 16]), rng.choice([1, 2, 3, 5]), rng.choice([1, 3, 7])
        bins = size // 2 + 1 if rng.random() < 0.9 else size
        dims = [bins, frames, 2] if rng.random() < 0.5 else [rng.choice([1, 3]), bins, frames, 2]
        # a constant frame size or step below 1 is refused whatever the other inputs: see below
        ports = [("param", shape_of(rng, dims, p_perturb=0.35), F32), _window(rng, size), _scalar(rng, size, ()),
                 _scalar(rng, step, ())]
        if rng.random() < 0.4:
            if rng.random() < 0.7:
                ports.append(("const", rng.choice([np.int64(20), [20], [7], np.int64(0)]), np.int64))
            else:
                ports.append(("param", rng.choice(["", "1", "?", "2", "..."]), I64))
        cases.append(port_case("opset16", "ISTFT", ports, {"center": rng.random() < 0.5,
                                                           "normalized": rng.random() < 0.3}))
    assert_cases(cases, min_cases=140)


def test_istft_refuses_a_frame_size_or_step_below_one():
    dyn = [("param", "...", F32), ("param", "...", F32)]
    for size, step in ((0, 2), (-3, 2), (4, 0), (4, -1)):
        for center in (True, False):
            assert "greater than zero" in assert_refused_on_values(
                "opset16", "ISTFT", dyn + [("const", np.int64(size), np.int64), ("const", np.int64(step), np.int64)],
                {"center": center})


def test_one_unit_per_op_version():
    for kind, version in (("RDFT", "opset9"), ("IRDFT", "opset9"), ("STFT", "opset15"), ("ISTFT", "opset16")):
        unit = registry.op(kind, version)
        assert unit is not None and unit.shape_fn is not None, kind
    assert registry.shape_fn("STFT", "opset14") is not None  # a Refused: opset14 has no STFT
    assert registry.op("STFT", "opset14").message


def test_types():
    """The type rules of the Fourier transforms (DFT and IDFT too) and STFT, ISTFT against ``validate_and_infer_types``."""
    from ovshapes import type_sweep
    rng = random.Random(61)
    ops = [("opset7", "DFT", [("1,8,6,2", "f32"), ("1", "i64"), ("1", "i64")]),
           ("opset7", "IDFT", [("1,8,6,2", "f32"), ("1", "i64")]),
           ("opset9", "RDFT", [("1,8,6", "f32"), ("1", "i64"), ("1", "i64")]),
           ("opset9", "IRDFT", [("1,8,6,2", "f32"), ("1", "i64"), ("1", "i64")]),
           ("opset15", "STFT", [("2,40", "f32"), ("8", "f32"), ("", "i64"), ("", "i64")]),
           ("opset16", "ISTFT", [("5,7,2", "f32"), ("8", "f32"), ("", "i64"), ("", "i64"), ("", "i64")])]
    assert sum(type_sweep(rng, opset, kind, ports, 50) for opset, kind, ports in ops) == 300
