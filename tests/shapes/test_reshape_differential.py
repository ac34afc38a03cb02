"""Differential test: our Reshape-1 engine against openvino 2026.4.1's own shape inference.

Seeded generators build input shapes (static, with zeros, `?`, intervals, dynamic rank) and
patterns (-1, 0, values < -1, values taken from the input so many cases are valid), for both
special_zero values and several pattern element types. Each case is built in memory with
openvino's opset API; our result must equal OpenVINO's output partial shape, or both must reject
with the same message.
"""

import random

import pytest

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")
np = pytest.importorskip("numpy")

from irreshape.core.dims import format_shape, parse_shape  # noqa: E402
from irreshape.shapes.reshape import ReshapeError, pattern_from_values, reshape_v1  # noqa: E402

CASES_PER_CHUNK = 500
CHUNKS = 8  # 4,000 cases per run
DTYPES = {"i64": np.int64, "i32": np.int32, "i16": np.int16, "i8": np.int8,
          "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64}


def gen_dim(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.55:
        return str(rng.choice([1, 1, 2, 3, 4, 5, 6, 8, 12, 0] if rng.random() < 0.9 else [0, 7, 16, 64]))
    if r < 0.75:
        return "?"
    lo = rng.choice([0, 1, 2, 3])
    hi = rng.choice(["", str(lo + rng.choice([0, 1, 2, 5, 9]))])
    return f"{lo if lo or not hi else ''}..{hi}"


def gen_shape(rng: random.Random) -> str:
    if rng.random() < 0.06:
        return "..."
    return ",".join(gen_dim(rng) for _ in range(rng.randint(0, 5)))


def gen_pattern(rng: random.Random, shape: str) -> list[int]:
    dims = [d for d in shape.split(",") if d and d != "..."]
    n = rng.randint(0, 5)
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.2:
            out.append(-1)
        elif r < 0.4:
            out.append(0)
        elif r < 0.45:
            out.append(rng.choice([-2, -3]))
        elif r < 0.75 and dims:
            d = rng.choice(dims)
            out.append(int(d) if d.isdigit() else rng.choice([1, 2, 3]))
        else:
            out.append(rng.choice([1, 2, 3, 4, 6, 8, 12, 24]))
    return out


def openvino_result(shape: str, values: list[int], et: str, sz: bool) -> str:
    p = ops.parameter(ov.PartialShape(shape if shape != "..." else "..."), ov.Type.f32)
    c = ops.constant(np.array(values, dtype=DTYPES[et]))
    try:
        return str(ops.reshape(p, c, sz).get_output_partial_shape(0))
    except Exception as e:  # OpenVINO raises RuntimeError-like errors with the check text last
        return "error: " + str(e).strip().splitlines()[-1]


def our_result(shape: str, values: list[int], et: str, sz: bool) -> str:
    try:
        return format_shape(reshape_v1(parse_shape(shape), pattern_from_values(values, et), sz))
    except ReshapeError as e:
        return "error: " + e.message


def cases(seed: int):
    rng = random.Random(seed)
    for _ in range(CASES_PER_CHUNK):
        shape = gen_shape(rng)
        pattern = gen_pattern(rng, shape)
        et = rng.choice(["i64", "i64", "i64", "i32", "u64", "i8", "u8", "i16", "u16", "u32"])
        if et.startswith("u"):
            if any(v < -1 for v in pattern):
                et = "i64"
            else:  # -1 only survives in u64 (as 2^64-1); elsewhere it becomes a large value
                bits = int(et[1:])
                pattern = [v if v >= 0 else (1 << bits) - 1 for v in pattern]
        yield shape, pattern, et, rng.random() < 0.5


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_matches_openvino(chunk):
    mismatches = []
    n = 0
    for shape, values, et, sz in cases(1000 + chunk):
        n += 1
        theirs = openvino_result(shape, values, et, sz)
        ours = our_result(shape, values, et, sz)
        if theirs != ours:
            mismatches.append((shape, values, et, sz, ours, theirs))
    assert n == CASES_PER_CHUNK
    assert mismatches == []
