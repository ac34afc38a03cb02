"""Small models built with openvino's opset API for the ports issue 37 found irreshape leaving unverified or
reading otherwise than ``read_model``: Reshape with a run-time pattern (main graph, If and Loop bodies), shape
subgraphs that divide in floating point by a range holding 0, SpaceToBatch/BatchToSpace on dynamic spatial dims,
Slice with run-time bounds inside and outside Loop/TensorIterator bodies, Broadcast targets built the way tf2onnx
writes ConstantOfShape, an If whose condition comes from data, and the layers downstream of each.

:func:`cases` gives (name, builder) pairs, a seeded random variety of each kind; a builder returns the
``openvino.Model``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import numpy as np
import openvino as ov
import openvino.opset15 as o

F32, I64, I32 = np.float32, np.int64, np.int32


def _c(v, t=I64):
    return o.constant(np.array(v, t))


def _model(results, params, name: str) -> ov.Model:
    return ov.Model([o.result(r) for r in results], params, name)


def _dim(rng: random.Random) -> ov.Dimension:
    """A static dim, an interval, a half-bounded interval or ``?``."""
    kind = rng.randrange(4)
    lo = rng.randrange(0, 4)
    if kind == 0:
        return ov.Dimension(rng.randrange(1, 9))
    if kind == 1:
        return ov.Dimension(lo, lo + rng.randrange(1, 8))
    if kind == 2:
        return ov.Dimension(lo, -1)
    return ov.Dimension()


# -- Reshape with a run-time pattern ---------------------------------------------------------------------------
def reshape_param(length: int, where: str) -> Callable[[], ov.Model]:
    """A Reshape whose pattern is a Parameter of ``length`` elements (-1: unknown), in the main graph, in both
    branches of an If or in a Loop body, with a layer downstream."""
    def build() -> ov.Model:
        x = o.parameter([2, 3, 4], F32, name="x")
        p = o.parameter([length], I64, name="p")
        if where == "main":
            r = o.reshape(x, p, True, name="reshape")
            return _model([o.relu(r, name="after"), o.shape_of(r, name="after_shape")], [x, p], "reshape_param")
        bx, bp = o.parameter([2, 3, 4], F32, name="bx"), o.parameter([length], I64, name="bp")
        r = o.reshape(bx, bp, True, name="b_reshape")
        if where == "if":
            cond = o.parameter([], np.bool_, name="c")
            then = ov.Model([o.result(o.relu(r, name="b_relu"))], [bx, bp], "then")
            ex, ep = o.parameter([2, 3, 4], F32, name="ex"), o.parameter([length], I64, name="ep")
            other = ov.Model([o.result(o.reshape(ex, ep, False, name="e_reshape"))], [ex, ep], "else")
            node = o.if_op(cond)
            node.set_then_body(then)
            node.set_else_body(other)
            node.set_input(x.output(0), bx, ex)
            node.set_input(p.output(0), bp, ep)
            out = node.set_output(then.get_results()[0], other.get_results()[0])
            return _model([out, o.shape_of(out, name="after_shape")], [x, p, cond], "reshape_if")
        s = o.reduce_sum(r, _c([0]), False, name="b_sum")
        rc, ry, rx = o.result(o.constant(np.array(True))), o.result(o.unsqueeze(s, _c([0]), name="b_uns")), o.result(bx)
        loop = o.loop(_c(3), o.constant(np.array(True)))
        loop.set_function(ov.Model([rc, ry, rx], [bx, bp], "body"))
        loop.set_special_body_ports([-1, 0])
        loop.set_merged_input(bx, x.output(0), rx.output(0))
        loop.set_invariant_input(bp, p.output(0))
        out = loop.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 0)
        return _model([out, o.shape_of(out, name="after_shape")], [x, p], "reshape_loop")
    return build


# -- float division by a range that holds 0 --------------------------------------------------------------------
def float_division(rng: random.Random) -> Callable[[], ov.Model]:
    """A pattern ``Convert(Concat(dims, k, dims) / Concat(1, dim, 1))`` in f32/f16/i64, the divisor's dim a range
    from 0 (or around 0, shifted), read by a Reshape, a Broadcast-3 (through a Floor or not) and a Broadcast-1."""
    et = rng.choice([F32, F32, np.float16, I64])
    shift = rng.choice([0, 0, 0, 1, 2])
    k = rng.randrange(1, 13)
    dims = [ov.Dimension(rng.randrange(1, 3), rng.randrange(3, 7)), ov.Dimension(0, rng.randrange(1, 6)),
            ov.Dimension(rng.randrange(1, 3), rng.randrange(3, 5))]

    def build() -> ov.Model:
        x = o.parameter(dims, F32, name="x")
        s = o.shape_of(x)

        def g(i):
            return o.gather(s, _c([i]), _c(0))
        den = o.subtract(g(1), _c([shift])) if shift else g(1)
        num = o.convert(o.concat([g(0), _c([k]), g(2)], 0), et)
        d = o.divide(num, o.convert(o.concat([_c([1]), den, _c([1])], 0), et), name="fdiv")
        pat = o.convert(d, I64, name="pattern")
        y = o.parameter([-1, -1, -1], F32, name="y")
        outs = [o.reshape(y, pat, False, name="reshape"), o.broadcast(_c(1.0, F32), pat, name="broadcast")]
        if et != I64:
            outs.append(o.broadcast(_c(1.0, F32), o.convert(o.floor(d), I64), name="broadcast_floor"))
        outs.append(ov.opset1.broadcast(_c([1.0], F32), pat, name="broadcast1"))
        outs.append(o.reduce_sum(outs[0], _c([1]), True, name="after"))
        return _model(outs, [x, y], "float_division")
    return build


# -- SpaceToBatch / BatchToSpace -------------------------------------------------------------------------------
def space_batch(rng: random.Random) -> Callable[[], ov.Model]:
    rank = rng.choice([3, 4, 4, 5])
    shape = [_dim(rng) for _ in range(rank)]
    block = [1] + [rng.randrange(1, 4) for _ in range(rank - 1)]
    pads_b = [0] + [rng.randrange(0, 3) for _ in range(rank - 1)]
    pads_e = [0] + [rng.randrange(0, 3) for _ in range(rank - 1)]
    runtime = rng.random() < 0.25

    def build() -> ov.Model:
        x = o.parameter(shape, F32, name="x")
        params = [x]
        if runtime:
            bs, pb = o.parameter([rank], I64, name="bs"), o.parameter([rank], I64, name="pb")
            params += [bs, pb]
            return _model([ov.opset2.space_to_batch(x, bs, pb, pb, name="s2b"),
                           ov.opset2.batch_to_space(x, bs, pb, pb, name="b2s")], params, "space_batch_rt")
        s = ov.opset2.space_to_batch(x, _c(block), _c(pads_b), _c(pads_e), name="s2b")
        b = ov.opset2.batch_to_space(s, _c(block), _c(pads_b), _c(pads_e), name="b2s")
        down = o.reduce_sum(b, _c([rank - 1]), False, name="after_sum")
        t = o.transpose(s, _c(list(range(rank))[::-1]), name="after_transpose")
        return _model([s, b, down, t], params, "space_batch")
    return build


# -- Slice with run-time bounds ---------------------------------------------------------------------------------
def slice_runtime(rng: random.Random) -> Callable[[], ov.Model]:
    shape = [_dim(rng) for _ in range(rng.choice([2, 3]))]
    axis = rng.randrange(len(shape))
    step = rng.choice([1, 2, -1, -2])

    def build() -> ov.Model:
        x = o.parameter(shape, F32, name="x")
        st, en = o.parameter([1], I64, name="start"), o.parameter([1], I64, name="stop")
        a = o.slice(x, st, en, _c([step]), _c([axis]), name="slice_both")
        b = o.slice(x, _c([1]), en, _c([step]), _c([axis]), name="slice_stop")
        c = o.slice(x, st, _c([3]), _c([step]), _c([axis]), name="slice_start")
        d = ov.opset8.slice(x, st, en, _c([step]), name="slice8_noaxes")
        g = o.gather(a, _c([0]), _c(axis), name="after_gather")
        cc = o.concat([a, b], axis, name="after_concat")
        return _model([a, b, c, d, g, cc], [x, st, en], "slice_runtime")
    return build


def slice_in_loop(ti: bool, rng: random.Random) -> Callable[[], ov.Model]:
    """A Slice whose bounds are the Loop's current iteration (or a TensorIterator's invariant input) in a body."""
    rows, cols = rng.randrange(4, 12), rng.randrange(2, 8)

    def build() -> ov.Model:
        if ti:
            x, n = o.parameter([3, rows, cols], F32, name="x"), o.parameter([1], I64, name="n")
            bx, bn = o.parameter([1, rows, cols], F32, name="bx"), o.parameter([1], I64, name="bn")
            s = o.slice(bx, _c([0]), bn, _c([1]), _c([1]), name="b_slice")
            s2 = o.slice(bx, bn, _c([rows]), _c([2]), _c([2]), name="b_slice2")
            r1, r2 = o.result(o.reduce_sum(s, _c([1]), True, name="b_sum")), o.result(s2)
            node = o.tensor_iterator()
            node.set_body(ov.Model([r1, r2], [bx, bn], "body"))
            node.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 0)
            node.set_invariant_input(bn, n.output(0))
            o1 = node.get_concatenated_slices(r1.output(0), 0, 1, 1, -1, 0)
            o2 = node.get_iter_value(r2.output(0), -1)
            return _model([o1, o2, o.reduce_sum(o2, _c([2]), False, name="after")], [x, n], "slice_ti")
        x = o.parameter([rows, cols], F32, name="x")
        it, bx = o.parameter([1], I64, name="it"), o.parameter([rows, cols], F32, name="bx")
        s = o.slice(bx, it, o.add(it, _c([2])), _c([1]), _c([0]), name="b_slice")
        s2 = o.slice(bx, _c([0]), it, _c([1]), _c([1]), name="b_slice2")
        rc = o.result(o.constant(np.array(True)))
        r1 = o.result(o.reduce_sum(s, _c([0]), True, name="b_sum"))
        r2 = o.result(o.reduce_sum(s2, _c([1]), False, name="b_sum2"))
        loop = o.loop(_c(rng.randrange(2, 5)), o.constant(np.array(True)))
        loop.set_function(ov.Model([rc, r1, r2], [it, bx], "body"))
        loop.set_special_body_ports([0, 0])
        loop.set_invariant_input(bx, x.output(0))
        o1 = loop.get_concatenated_slices(r1.output(0), 0, 1, 1, -1, 0)
        o2 = loop.get_iter_value(r2.output(0), -1)
        return _model([o1, o2], [x], "slice_loop")
    return build


# -- Broadcast of a ConstantOfShape-like target (tf2onnx) ---------------------------------------------------------
def constant_of_shape(rng: random.Random) -> Callable[[], ov.Model]:
    shape = [_dim(rng) for _ in range(3)]
    take = sorted(rng.sample(range(3), 2))

    def build() -> ov.Model:
        x = o.parameter(shape, F32, name="x")
        target = o.gather(o.shape_of(x), _c(take), _c(0))
        zeros = o.broadcast(_c([0.0], F32), target, name="constant_of_shape")
        ints = o.broadcast(_c(0, I64), o.concat([target, _c([3])], 0), name="constant_of_shape_i64")
        upd = o.broadcast(_c(1, I64), o.concat([_c([1]), o.gather(o.shape_of(ints), _c([1, 2]), _c(0))], 0))
        scatter = o.scatter_nd_update(ints, _c([[0]]), upd, name="after_scatter")
        ps = o.parameter([3], I64, name="target")
        runtime = o.broadcast(_c(1.0, F32), ps, name="broadcast_param")
        grouped = o.group_convolution(o.unsqueeze(zeros, _c([0, 1])), _c(np.ones((1, 1, 1, 1, 1)), F32), [1, 1],
                                      [0, 0], [0, 0], [1, 1], name="after_group_conv")
        return _model([zeros, ints, scatter, runtime, o.transpose(runtime, _c([2, 0, 1]), name="after_transpose"),
                       grouped, o.reduce_sum(zeros, _c([0]), False, name="after_sum")], [x, ps], "constant_of_shape")
    return build


# -- an If whose condition comes from data ------------------------------------------------------------------------
def if_from_data(same: bool, rng: random.Random) -> Callable[[], ov.Model]:
    """An If whose condition is computed from a run-time tensor through an op irreshape does not evaluate (a
    MatMul): both branches give the same shape (``same``) or not."""
    shape = [_dim(rng), 4]

    def build() -> ov.Model:
        x = o.parameter(shape, F32, name="x")
        cond = o.greater(o.reduce_sum(o.matmul(x, _c(np.ones((4, 4)), F32), False, False), _c([0, 1]), False),
                         _c(0.0, F32), name="cond")
        tx, ex = o.parameter(shape, F32, name="tx"), o.parameter(shape, F32, name="ex")
        then = ov.Model([o.result(o.multiply(tx, _c(2.0, F32), name="t_mul"))], [tx], "then")
        other = ov.Model([o.result(o.add(ex, _c(1.0, F32), name="e_add") if same
                                   else o.reshape(ex, _c([-1]), False, name="e_flat"))], [ex], "else")
        node = o.if_op(cond.output(0))  # (a Greater node itself makes an If without inputs)
        node.set_then_body(then)
        node.set_else_body(other)
        node.set_input(x.output(0), tx, ex)
        out = node.set_output(then.get_results()[0], other.get_results()[0])
        return _model([out, o.relu(out, name="after")], [x], "if_from_data")
    return build


def cases(seed: int = 37, n: int = 12) -> Iterator[tuple[str, Callable[[], ov.Model]]]:
    """Every kind, ``n`` seeded random variants of each random kind."""
    rng = random.Random(seed)
    for length in (3, 2, -1):
        for where in ("main", "if", "loop"):
            yield f"reshape_param_{where}_{length}", reshape_param(length, where)
    for same in (True, False):
        yield f"if_from_data_{same}", if_from_data(same, rng)
    for i in range(n):
        yield f"float_division_{i}", float_division(rng)
        yield f"space_batch_{i}", space_batch(rng)
        yield f"slice_runtime_{i}", slice_runtime(rng)
        yield f"constant_of_shape_{i}", constant_of_shape(rng)
    for i in range(n // 3):
        yield f"slice_loop_{i}", slice_in_loop(False, rng)
        yield f"slice_ti_{i}", slice_in_loop(True, rng)
