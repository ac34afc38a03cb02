"""Models with op versions newer than 2023.0, one or more per entry of the downgrade table
(:data:`irreshape.fixers.downgrade.REWRITES`), built with openvino 2026.4.1's opset API; and the rewrite of a
saved file by one entry, and the comparison of two files' outputs on one release.

``CASES``: name -> (the (op type, op version) of the table entry, a builder, whether the entry's condition holds
for the model). A builder returns the model and its inputs (seeded). Used by tests/fixers/test_downgrade.py (the
2026.4.1 equivalence) and scripts/prove_downgrades.py (each old release reads and runs the rewritten file).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

import numpy as np
import openvino as ov
import openvino.opset11 as o11
import openvino.opset12 as o12
import openvino.opset13 as o13
import openvino.opset14 as o14
import openvino.opset15 as o15
import openvino.opset16 as o16

Built = tuple[ov.Model, list[np.ndarray]]


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def _f32(shape, seed=0) -> np.ndarray:
    return _rng(seed).standard_normal(shape).astype(np.float32)


def _model(outputs, params, name) -> ov.Model:
    return ov.Model([o.output(0) if hasattr(o, "output") else o for o in outputs], params, name)


def maxpool(rounding: str, size: int = 9, kernel: int = 3, stride: int = 2, pads=(0, 0)) -> Callable[[], Built]:
    def build() -> Built:
        x = o16.parameter([1, 3, size, size], np.float32, name="x")
        mp = o14.max_pool(x, [stride] * 2, [1, 1], [pads[0]] * 2, [pads[1]] * 2, [kernel] * 2, rounding_type=rounding)
        return ov.Model([mp.output(0), mp.output(1)], [x], "maxpool14"), [_f32([1, 3, size, size])]
    return build


def avgpool(version: int, rounding: str, exclude_pad: bool, size: int = 9, dilation: int = 1,
            pads=(1, 1)) -> Callable[[], Built]:
    def build() -> Built:
        x = o16.parameter([1, 2, size, size], np.float32, name="x")
        args = ([2, 2], [pads[0]] * 2, [pads[1]] * 2, [3, 3], exclude_pad, rounding)
        p = o14.avg_pool(x, *args) if version == 14 else o16.avg_pool(x, *args, dilations=[dilation] * 2)
        return _model([p], [x], f"avgpool{version}"), [_f32([1, 2, size, size])]
    return build


def squeeze(skip: bool) -> Callable[[], Built]:
    def build() -> Built:
        x = o16.parameter([2, 1, 3, 1], np.float32, name="x")
        s = o15.squeeze(x, o16.constant(np.array([1, 3], np.int64)), allow_axis_skip=skip)
        return _model([s], [x], "squeeze15"), [_f32([2, 1, 3, 1])]
    return build


def scatter_nd(reduction: str) -> Callable[[], Built]:
    def build() -> Built:
        x = o16.parameter([4, 3], np.float32, name="x")
        u = o16.parameter([2, 3], np.float32, name="u")
        s = o15.scatter_nd_update(x, o16.constant(np.array([[2], [0]], np.int64)), u, reduction=reduction)
        return _model([s], [x, u], "scatternd15"), [_f32([4, 3]), _f32([2, 3], 1)]
    return build


def scatter_elements(reduction: str) -> Callable[[], Built]:
    def build() -> Built:
        x = o16.parameter([3, 4], np.float32, name="x")
        u = o16.parameter([2, 4], np.float32, name="u")
        idx = o16.constant(np.array([[2, 0, 1, 2], [0, 1, 2, 0]], np.int32))
        s = o12.scatter_elements_update(x, idx, u, o16.constant(np.int64(0)), reduction=reduction)
        return _model([s], [x, u], "scatterelements12"), [_f32([3, 4]), _f32([2, 4], 1)]
    return build


def topk(stable: bool) -> Callable[[], Built]:
    def build() -> Built:
        x = o16.parameter([3, 8], np.float32, name="x")
        t = o11.topk(x, o16.constant(np.int64(4)), 1, "max", "value", "i32", stable=stable)
        ties = _rng().integers(0, 3, (3, 8)).astype(np.float32)  # ties: an order the sort may choose
        return ov.Model([t.output(0), t.output(1)], [x], "topk11"), [ties]
    return build


def pad(begin, end, mode: str = "constant") -> Callable[[], Built]:
    def build() -> Built:
        x = o16.parameter([2, 5, 4], np.float32, name="x")
        p = o12.pad(x, o16.constant(np.array(begin, np.int64)), o16.constant(np.array(end, np.int64)), mode,
                    o16.constant(np.float32(1.5)) if mode == "constant" else None)
        return _model([p], [x], "pad12"), [_f32([2, 5, 4])]
    return build


def pad_computed() -> Built:
    """Pads that are no Const: a Concat of Consts and a dim of the input's shape (non-negative, as bounded)."""
    x = o16.parameter([2, 5, 4], np.float32, name="x")
    dim = o16.gather(o16.shape_of(x), o16.constant(np.array([2], np.int64)), o16.constant(np.int64(0)))
    begin = o16.concat([o16.constant(np.array([0, 1], np.int64)), dim], 0)
    end = o16.concat([dim, o16.constant(np.array([0, 2], np.int64))], 0)
    p = o12.pad(x, begin, end, "constant", o16.constant(np.float32(-2.0)))
    return _model([p], [x], "pad12_computed"), [_f32([2, 5, 4])]


def bitwise(op: str, dtype=np.bool_) -> Callable[[], Built]:
    def build() -> Built:
        a = o16.parameter([2, 5], dtype, name="a")
        if op == "not":
            n = o13.bitwise_not(a)
            return _model([n], [a], "bitwise_not"), [_rng().integers(0, 2, (2, 5)).astype(dtype)]
        b = o16.parameter([5], dtype, name="b")  # broadcast
        n = getattr(o13, f"bitwise_{op}")(a, b)
        return _model([n], [a, b], f"bitwise_{op}"), [_rng().integers(0, 2, (2, 5)).astype(dtype),
                                                       _rng(1).integers(0, 2, (5,)).astype(dtype)]
    return build


def embedding_offsets(reduction: str) -> Callable[[], Built]:
    def build() -> Built:
        t = o16.parameter([6, 3], np.float32, name="table")
        w = o16.parameter([5], np.float32, name="w") if reduction == "sum" else None  # weights: sum only
        e = o15.embedding_bag_offsets(t, o16.constant(np.array([0, 2, 3, 5, 1], np.int32)),
                                      o16.constant(np.array([0, 2, 2], np.int32)),
                                      o16.constant(np.int32(4)), w, reduction=reduction)
        if w is None:
            return _model([e], [t], "embedding_bag_offsets15"), [_f32([6, 3])]
        return _model([e], [t, w], "embedding_bag_offsets15"), [_f32([6, 3]), _f32([5], 1)]
    return build


def embedding_packed(reduction: str) -> Callable[[], Built]:
    def build() -> Built:
        t = o16.parameter([6, 3], np.float32, name="table")
        w = o16.parameter([3, 2], np.float32, name="w") if reduction == "sum" else None  # weights: sum only
        e = o15.embedding_bag_packed(t, o16.constant(np.array([[0, 2], [3, 5], [1, 1]], np.int32)), w,
                                     reduction=reduction)
        if w is None:
            return _model([e], [t], "embedding_bag_packed15"), [_f32([6, 3])]
        return _model([e], [t, w], "embedding_bag_packed15"), [_f32([6, 3]), _f32([3, 2], 1)]
    return build


def one_hot(mode: str) -> Callable[[], Built]:
    def build() -> Built:
        i = o16.parameter([6], np.int64, name="i")
        h = o16.one_hot(i, o16.constant(np.int64(4)), o16.constant(np.float32(2.0)), o16.constant(np.float32(-1.0)),
                        -1, negative_indices_mode=mode)
        return _model([h], [i], "one_hot16"), [np.array([0, 3, -1, 2, -4, 5], np.int64)]
    return build


def identity(feeds_result: bool) -> Callable[[], Built]:
    def build() -> Built:
        x = o16.parameter([2, 3], np.float32, name="x")
        r = o16.relu(x)
        i = o16.identity(r)
        out = [i] if feeds_result else [o16.multiply(i, o16.constant(np.float32(2.0))), r]
        return _model(out, [x], "identity16"), [_f32([2, 3])]
    return build


def sdpa(mask: str, scale: bool, causal: bool = False, kv_heads: int = 4) -> Callable[[], Built]:
    """ScaledDotProductAttention-13: a boolean or float mask or none, a scale input or none."""
    def build() -> Built:
        q = o16.parameter([2, 4, 5, 8], np.float32, name="q")
        k = o16.parameter([2, kv_heads, 6, 8], np.float32, name="k")
        v = o16.parameter([2, kv_heads, 6, 8], np.float32, name="v")
        params, feeds = [q, k, v], [_f32([2, 4, 5, 8]), _f32([2, kv_heads, 6, 8], 1), _f32([2, kv_heads, 6, 8], 2)]
        args = [q, k, v]
        if mask:
            m = o16.parameter([1, 1, 5, 6], np.bool_ if mask == "bool" else np.float32, name="mask")
            params.append(m)
            args.append(m)
            feeds.append(_rng(3).integers(0, 2, (1, 1, 5, 6)).astype(bool) | (np.arange(6) == 0) if mask == "bool"
                         else _f32([1, 1, 5, 6], 3))
        if scale:
            args.append(o16.constant(np.float32(0.3)))
        a = o13.scaled_dot_product_attention(*args, causal=causal)
        return _model([a], params, "sdpa13"), feeds
    return build


def group_norm(shape: list[int], groups: int) -> Callable[[], Built]:
    def build() -> Built:
        x = o16.parameter([-1, *shape[1:]], np.float32, name="x")
        s = o16.parameter([shape[1]], np.float32, name="scale")
        b = o16.parameter([shape[1]], np.float32, name="bias")
        g = o12.group_normalization(x, s, b, groups, 1e-5)
        return _model([o16.relu(g)], [x, s, b], "group_norm12"), [_f32(shape) * 3 + 1, _f32([shape[1]], 1),
                                                                  _f32([shape[1]], 2)]
    return build


def sdpa_twice() -> Built:
    """Two ScaledDotProductAttention-13 in one file: their decompositions take layer ids of their own."""
    q = o16.parameter([1, 2, 4, 8], np.float32, name="q")
    a = o13.scaled_dot_product_attention(q, q, q)
    b = o13.scaled_dot_product_attention(a, q, a, o16.constant(np.zeros([1, 1, 4, 4], np.float32)),
                                         o16.constant(np.float32(0.5)))
    return _model([b], [q], "sdpa13_twice"), [_f32([1, 2, 4, 8])]


def in_loop() -> Built:
    """A Loop whose body holds an Identity-16 feeding a Squeeze-15 (the body's edges and ids are its own)."""
    x = o16.parameter([3, 1, 4], np.float32, name="x")
    bx = o16.parameter([3, 1, 4], np.float32, name="bx")
    i = o16.identity(o16.relu(bx))
    sq = o15.squeeze(i, o16.constant(np.array([1], np.int64)))
    add = o16.add(sq, o16.constant(np.float32(1.0)))
    r_c, r_y = o16.result(o16.constant(np.array(True))), o16.result(add)
    r_x = o16.result(o16.unsqueeze(add, o16.constant(np.array([1], np.int64))))
    lp = o16.loop(o16.constant(np.int64(3)), o16.constant(np.array(True)))
    lp.set_function(ov.Model([r_c, r_x, r_y], [bx], "body"))
    lp.set_special_body_ports([-1, 0])
    lp.set_merged_input(bx, x.output(0), r_x.output(0))
    out = lp.get_iter_value(r_y.output(0), -1)
    return ov.Model([out], [x], "loop"), [_f32([3, 1, 4])]


def duplicate_names() -> Built:
    """Two layers of one name (Relus named "act"): 2023.3 and 2024.0 refuse the file ("name is not unique")."""
    x = o16.parameter([2, 3], np.float32, name="x")
    a = o16.relu(x)
    b = o16.relu(o16.multiply(a, o16.constant(np.float32(-1.0))))
    a.set_friendly_name("act")
    b.set_friendly_name("act")
    return _model([b], [x], "duplicate_names"), [_f32([2, 3])]


#: name -> ((op type, op version) of the table entry, builder, does the entry's condition hold)
CASES: dict[str, tuple[tuple[str, int], Callable[[], Built], bool]] = {
    "maxpool14_floor": (("MaxPool", 14), maxpool("floor", pads=(1, 1)), True),
    "maxpool14_ceil": (("MaxPool", 14), maxpool("ceil", size=10), True),
    "maxpool14_ceil_torch_as_floor": (("MaxPool", 14), maxpool("ceil_torch", size=9), True),
    "maxpool14_ceil_torch_as_ceil": (("MaxPool", 14), maxpool("ceil_torch", size=10, pads=(0, 1)), True),
    "maxpool14_ceil_torch_other": (("MaxPool", 14), maxpool("ceil_torch", size=6, kernel=3, stride=2, pads=(0, 3)),
                                   False),
    "avgpool14_floor": (("AvgPool", 14), avgpool(14, "floor", False), True),
    "avgpool14_ceil_exclude": (("AvgPool", 14), avgpool(14, "ceil", True, size=10), True),
    "avgpool14_ceil_torch_as_floor": (("AvgPool", 14), avgpool(14, "ceil_torch", False, size=9), True),
    "avgpool14_ceil_torch_other": (("AvgPool", 14), avgpool(14, "ceil_torch", False, size=10), False),
    "avgpool16": (("AvgPool", 16), avgpool(16, "floor", True), True),
    "avgpool16_dilated": (("AvgPool", 16), avgpool(16, "floor", True, dilation=2), False),
    "squeeze15": (("Squeeze", 15), squeeze(False), True),
    "squeeze15_skip": (("Squeeze", 15), squeeze(True), False),
    "scatternd15": (("ScatterNDUpdate", 15), scatter_nd("none"), True),
    "scatternd15_sum": (("ScatterNDUpdate", 15), scatter_nd("sum"), False),
    "scatterelements12": (("ScatterElementsUpdate", 12), scatter_elements("none"), True),
    "scatterelements12_max": (("ScatterElementsUpdate", 12), scatter_elements("max"), False),
    "topk11": (("TopK", 11), topk(False), True),
    "topk11_stable": (("TopK", 11), topk(True), False),
    "pad12": (("Pad", 12), pad([0, 1, 2], [1, 0, 3]), True),
    "pad12_reflect": (("Pad", 12), pad([0, 1, 1], [0, 2, 0], "reflect"), True),
    "pad12_computed": (("Pad", 12), pad_computed, True),
    "pad12_negative": (("Pad", 12), pad([0, -1, 2], [1, 0, 0]), False),
    "bitwise_and_bool": (("BitwiseAnd", 13), bitwise("and"), True),
    "bitwise_or_bool": (("BitwiseOr", 13), bitwise("or"), True),
    "bitwise_xor_bool": (("BitwiseXor", 13), bitwise("xor"), True),
    "bitwise_not_bool": (("BitwiseNot", 13), bitwise("not"), True),
    "bitwise_and_i32": (("BitwiseAnd", 13), bitwise("and", np.int32), False),
    "embedding_offsets15": (("EmbeddingBagOffsets", 15), embedding_offsets("sum"), True),
    "embedding_offsets15_mean": (("EmbeddingBagOffsets", 15), embedding_offsets("mean"), False),
    "embedding_packed15": (("EmbeddingBagPacked", 15), embedding_packed("sum"), True),
    "embedding_packed15_mean": (("EmbeddingBagPacked", 15), embedding_packed("mean"), False),
    "one_hot16": (("OneHot", 16), one_hot("ignore_negative"), True),
    "one_hot16_normalize": (("OneHot", 16), one_hot("normalize"), False),
    "identity16_result": (("Identity", 16), identity(True), True),
    "identity16_inner": (("Identity", 16), identity(False), True),
    "sdpa13_bool_mask_scale": (("ScaledDotProductAttention", 13), sdpa("bool", True), True),
    "sdpa13_float_mask_scale": (("ScaledDotProductAttention", 13), sdpa("float", True), True),
    "sdpa13_plain": (("ScaledDotProductAttention", 13), sdpa("", False), True),
    "sdpa13_kv_heads_broadcast": (("ScaledDotProductAttention", 13), sdpa("bool", False, kv_heads=1), True),
    "sdpa13_twice": (("ScaledDotProductAttention", 13), sdpa_twice, True),
    "sdpa13_causal": (("ScaledDotProductAttention", 13), sdpa("", True, causal=True), False),
    "group_norm12": (("GroupNormalization", 12), group_norm([2, 8, 5, 3], 4), True),
    "group_norm12_1d": (("GroupNormalization", 12), group_norm([2, 16, 7], 16), True),
    "identity16_in_loop": (("Identity", 16), in_loop, True),
    "squeeze15_in_loop": (("Squeeze", 15), in_loop, True),
}


def save(name: str, folder: str) -> str:
    """The case's model saved by 2026.4.1 as ``folder/name.xml``; its inputs as ``folder/name.npz``."""
    model, inputs = CASES[name][1]()
    path = os.path.join(folder, f"{name}.xml")
    ov.save_model(model, path, compress_to_fp16=False)
    np.savez(os.path.join(folder, f"{name}.npz"), *inputs)
    return path


def inputs(path: str) -> list[np.ndarray]:
    with np.load(os.path.splitext(path)[0] + ".npz") as z:
        return [z[f"arr_{i}"] for i in range(len(z.files))]


def copy_pair(src: str, dst: str) -> None:
    """``src`` (.xml, .bin, inputs) copied to ``dst``."""
    for ext in (".xml", ".bin", ".npz"):
        a = os.path.splitext(src)[0] + ext
        if os.path.exists(a):
            shutil.copyfile(a, os.path.splitext(dst)[0] + ext)


def run(path: str, feeds: list[np.ndarray], core: ov.Core | None = None) -> list[np.ndarray]:
    """The outputs of ``path`` compiled for CPU on ``feeds``, in the model's output order."""
    compiled = (core or ov.Core()).compile_model(path, "CPU")
    result = compiled(feeds)
    return [np.asarray(result[o]) for o in compiled.outputs]


def same_outputs(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    """Bit for bit (NaNs where NaNs are), shapes and types included."""
    return len(a) == len(b) and all(x.shape == y.shape and x.dtype == y.dtype and
                                    np.array_equal(x, y, equal_nan=x.dtype.kind == "f") for x, y in zip(a, b))


def rewrite(path: str, key: tuple[str, int], dst: str):
    """``path`` with its layers of op version ``key`` rewritten by the table's entry for it (whatever the targets:
    the entry itself is under test), and any other layer the table has an entry for by that one, written to ``dst``
    (the .bin and inputs copied): the Downgrade made."""
    from irreshape.fixers import apply
    from irreshape.fixers import downgrade as dg
    from irreshape.frontends.openvino import parse
    from irreshape.shapes.versions import resolve

    model = parse(path)
    with open(path, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    ctx = dg.Context(model)
    wanted = [(la, dg.choose(la, ctx, lambda op, n: True, unsafe=True, only=dg.REWRITES[found][0]))
              for la in model.every_layer() if (found := resolve(la.type, la.version)) in dg.REWRITES]
    ctx.close()
    done = dg.plan_layers(lines, model, wanted)
    copy_pair(path, dst)
    with open(dst, "wb") as f:
        f.write(apply(lines, done.plan.changes))
    if done.append:
        with open(os.path.splitext(dst)[0] + ".bin", "ab") as f:
            f.write(done.append)
    return done
