"""The sparse family of the shape registry (embedding bags and segments, SegmentMax, SparseFillEmptyRows,
SliceScatter) against openvino 2026.4.1.

Cases are seeded random draws of consistent input shapes with dims swapped for ``?``, intervals that hold the right
value or miss it, wrong static values and dynamic ranks, and of the value inputs (segment counts, segment ids, dense
shapes, indices, slice bounds and axes) as constants or run-time inputs; ops are built with ``NodeFactory``.
"""

from __future__ import annotations

import random

import numpy as np
import openvino as ov

from ovshapes import assert_cases, shape_of
from test_ops_signal import assert_refused_on_values, port_case

I64, I32, F32 = ov.Type.i64, ov.Type.i32, ov.Type.f32


def _p(rng, dims, et=F32, perturb=0.35):
    return ("param", shape_of(rng, dims, p_perturb=perturb), et)


def test_embedding_bags():
    rng = random.Random(11)
    cases = []
    for _ in range(150):
        table = [rng.choice([10, 20]), rng.choice([3, 4])] + ([2] if rng.random() < 0.2 else [])
        n, bags = rng.choice([5, 6]), rng.choice([2, 3])
        kind = rng.choice(["offsets", "packed", "segments"])
        if kind == "offsets":
            name, opset = rng.choice([("EmbeddingBagOffsetsSum", "opset3"), ("EmbeddingBagOffsets", "opset15")])
            ports = [_p(rng, table), _p(rng, [n], I64), _p(rng, [bags], I64)]
            if rng.random() < 0.6:
                ports.append(_p(rng, [], I64))
                if rng.random() < 0.5:
                    ports.append(_p(rng, [n]))
        elif kind == "packed":
            name, opset = rng.choice([("EmbeddingBagPackedSum", "opset3"), ("EmbeddingBagPacked", "opset15")])
            ports = [_p(rng, table), _p(rng, [bags, n], I64)]
            if rng.random() < 0.5:
                ports.append(_p(rng, [bags, n]))
        else:
            name, opset = "EmbeddingSegmentsSum", "opset3"
            count = ("const", np.int64(rng.choice([3, 7])), np.int64) if rng.random() < 0.6 else _p(rng, [], I64)
            ports = [_p(rng, table), _p(rng, [n], I64), _p(rng, [n], I64), count]
            if rng.random() < 0.6:
                ports.append(_p(rng, [], I64))
                if rng.random() < 0.5:
                    ports.append(_p(rng, [n]))
        # mean with per-sample weights is refused whatever the shapes: see below
        weighted = len(ports) == (5 if kind == "offsets" else 3)
        attrs = {"reduction": rng.choice(["sum"] if weighted else ["sum", "mean"])} if opset == "opset15" else {}
        cases.append(port_case(opset, name, ports, attrs))
    assert_cases(cases, min_cases=150)


def test_embedding_bags_weigh_samples_only_in_sum():
    offsets = [("param", "...", F32), ("param", "...", I64), ("param", "...", I64), ("param", "...", I64),
               ("param", "...", F32)]
    assert assert_refused_on_values("opset15", "EmbeddingBagOffsets", offsets, {"reduction": "mean"})
    assert assert_refused_on_values("opset15", "EmbeddingBagPacked", offsets[:3], {"reduction": "mean"})


def test_segment_max():
    rng = random.Random(12)
    cases = []
    for _ in range(120):
        n = rng.choice([4, 6])
        data = _p(rng, [n] + [rng.choice([2, 3])] * rng.choice([0, 1, 2]))
        if rng.random() < 0.6:
            ids = sorted(rng.choice([0, 1, 1, 2, 4]) for _ in range(n))
            if rng.random() < 0.1:
                ids = ids[::-1] if len(set(ids)) > 1 else ids
            ids_port = ("const", ids if rng.random() < 0.9 else ids[:-1], np.int64)
        else:
            ids_port = _p(rng, [n], I64)
        ports = [data, ids_port]
        if rng.random() < 0.5:
            ports.append(("const", np.int64(rng.choice([3, 8])), np.int64) if rng.random() < 0.6
                         else _p(rng, [], I64))
        case = port_case("opset16", "SegmentMax", ports, {"fill_mode": rng.choice(["zero", "lowest"])})
        if ids_port[0] == "const" and ids_port[1] != sorted(ids_port[1]):
            continue  # refused on its constant alone: openvino cannot build it for the harness
        cases.append(case)
    assert_cases(cases, min_cases=100)


def test_sparse_fill_empty_rows():
    rng = random.Random(13)
    cases = []
    for _ in range(120):
        n, rows, cols = rng.choice([3, 5]), rng.choice([4, 6]), rng.choice([3, 5])
        values = _p(rng, [n])
        dense = ("const", [rows, cols], np.int64) if rng.random() < 0.6 else _p(rng, [2], I64)
        if rng.random() < 0.6 and dense[0] == "const":
            # constant indices of another count than the values' refuse the op even on values of a dynamic rank
            values = ("param", shape_of(rng, [n], p_dynamic_rank=0, compatible=True), F32)
            idx = [[rng.randrange(rows), rng.randrange(cols)] for _ in range(n)]
            indices = ("const", idx, np.int64)
        else:
            indices = _p(rng, [n, 2], I64)
        ports = [values, dense, indices, _p(rng, [])]
        cases.append(port_case("opset16", "SparseFillEmptyRows", ports))
    assert_cases(cases, min_cases=120)
    dyn = [("param", "...", F32), ("const", [4, 3], np.int64), ("const", [[0, 1], [2, 2]], np.int64),
           ("param", "...", F32)]
    assert assert_refused_on_values("opset16", "SparseFillEmptyRows", dyn)  # it reads values[0] of a dynamic rank
    for row, col in ((4, 0), (-1, 0), (0, 3), (1, -2)):
        bad = dyn[:2] + [("const", [[0, 1], [row, col]], np.int64)] + dyn[3:]
        bad[0] = ("param", "2", F32)
        assert "out of bounds" in assert_refused_on_values("opset16", "SparseFillEmptyRows", bad)


def test_slice_scatter():
    rng = random.Random(14)
    cases = []
    for _ in range(150):
        dims = [rng.choice([4, 6, 9]) for _ in range(rng.choice([1, 2, 3]))]
        k = rng.randint(1, len(dims))
        axes = rng.sample(range(len(dims)), k)
        start = [rng.choice([0, 1, -2, 2]) for _ in axes]
        stop = [rng.choice([3, -1, 100, 5]) for _ in axes]
        step = [rng.choice([1, 2, -1, 3]) for _ in axes]
        upd = list(dims)
        for a, b, e, s in zip(axes, start, stop, step):
            upd[a] = len(range(*slice(b, e, s).indices(dims[a])))
        ports = [_p(rng, dims, perturb=0.3), _p(rng, upd, perturb=0.3)]
        for values in (start, stop, step):
            ports.append(("const", values, np.int64) if rng.random() < 0.8 else _p(rng, [k], I64, 0.2))
        if rng.random() < 0.6:
            ports.append(("const", [a - len(dims) if rng.random() < 0.3 else a for a in axes], np.int64)
                         if rng.random() < 0.8 else _p(rng, [k], I64, 0.2))
        cases.append(port_case("opset15", "SliceScatter", ports))
    assert_cases(cases, min_cases=150)


def test_sparse_fill_empty_rows_types():
    """Output indices of the indices' type, output values of the values', the indicator boolean."""
    from openvino import opset1

    from irreshape.shapes import registry
    from ovshapes import mk
    for vt, it in ((ov.Type.f16, I32), (I64, I64), (F32, I64)):
        node = mk("opset16", "SparseFillEmptyRows", [opset1.parameter([3], vt), opset1.parameter([2], it),
                                                      opset1.parameter([3, 2], it), opset1.parameter([], vt)])
        names = [vt.get_type_name(), it.get_type_name(), it.get_type_name(), vt.get_type_name()]
        ours = registry.type_fn("SparseFillEmptyRows", "opset16")(
            registry.Node("SparseFillEmptyRows", "opset16", {}, [None] * 4, 3, types=names))
        assert ours == [o.get_element_type().get_type_name() for o in node.outputs()]


def test_types():
    """The type rules of the sparse family against ``validate_and_infer_types``."""
    from ovshapes import type_sweep
    rng = random.Random(62)
    offsets = [("10,3", "f32"), ("5", "i64"), ("2", "i64"), ("", "i64"), ("5", "f32")]
    packed = [("10,3", "f32"), ("2,5", "i64"), ("2,5", "f32")]
    ops = [("opset3", "EmbeddingBagOffsetsSum", offsets), ("opset15", "EmbeddingBagOffsets", offsets[:4]),
           ("opset3", "EmbeddingBagPackedSum", packed), ("opset15", "EmbeddingBagPacked", packed[:2]),
           ("opset3", "EmbeddingSegmentsSum", [("10,3", "f32"), ("5", "i64"), ("5", "i64"), ("", "i64"), ("", "i64"),
                                               ("5", "f32")]),
           ("opset16", "SegmentMax", [("4,3", "f32"), ("4", "i64"), ("", "i64")]),
           ("opset15", "SliceScatter", [("6,6", "f32"), ("2,6", "f32"), ("1", "i64"), ("1", "i64"), ("1", "i64"),
                                        ("1", "i64")]),
           ("opset16", "SparseFillEmptyRows", [("3", "f32"), ("2", "i64"), ("3,2", "i64"), ("", "f32")])]
    assert sum(type_sweep(rng, opset, kind, ports, 50) for opset, kind, ports in ops) == 400
