"""TensorIterator, Loop and If models built with openvino's opset API, each with Reshape-family layers in its
bodies, and what OpenVINO infers in every body after ``read_model``.

* :data:`MODELS` - name -> a function building the ``openvino.Model``;
* :func:`write` - save one as an IR pair (``save_model``, no FP16 compression);
* :func:`body_shapes` - ``{path id: [str(partial shape) of each output]}`` of every body layer of an IR as
  ``read_model`` infers it (bodies by ``get_function()``, ``get_then_body()``, ``get_else_body()``), the
  body layers matched by name within their body, the path ids built as irreshape builds them.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
import openvino as ov
import openvino.opset15 as o

from irreshape.frontends.openvino import parse

F32, I64 = np.float32, np.int64


def _c(values, dtype=I64):
    return o.constant(np.array(values, dtype))


def _model(results, params, name):
    return ov.Model([r if isinstance(r, ov.Node) and r.get_type_name() == "Result" else o.result(r) for r in results],
                    params, name)


def ti_rnn() -> ov.Model:
    """Sliced (axis 1), merged (a back edge) and invariant inputs; the last state and a concatenated output."""
    x, h, w = o.parameter([2, 6, 4], F32, name="X"), o.parameter([2, 8], F32, name="H"), o.parameter([4, 8], F32, name="W")
    bx, bh, bw = o.parameter([2, 1, 4], F32, name="bx"), o.parameter([2, 8], F32, name="bh"), o.parameter([4, 8], F32, name="bw")
    sq = o.squeeze(bx, _c([1]), name="b_squeeze")
    hn = o.add(o.matmul(sq, bw, False, False), bh, name="b_add")
    flat = o.reshape(hn, _c([0, 2, -1]), True, name="b_reshape")  # [2,2,4]
    back = o.reshape(flat, o.shape_of(bh), False, name="b_reshape_back")  # [2,8] from a ShapeOf
    un = o.unsqueeze(back, _c([1]), name="b_unsqueeze")
    r_h, r_y = o.result(back, name="b_h"), o.result(un, name="b_y")
    ti = o.tensor_iterator()
    ti.set_body(ov.Model([r_h, r_y], [bx, bh, bw], "body"))
    ti.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(bh, h.output(0), r_h.output(0))
    ti.set_invariant_input(bw, w.output(0))
    last = ti.get_iter_value(r_h.output(0), -1)
    seq = ti.get_concatenated_slices(r_y.output(0), 0, 1, 1, -1, 1)
    return _model([o.reshape(seq, _c([-1, 8]), False, name="after"), last], [x, h, w], "ti_rnn")


def ti_reverse() -> ov.Model:
    """A reverse slicing (start -1, end 0, stride -2) in parts of 2, a dynamic batch, a concatenated output on a
    negative axis."""
    x = o.parameter([-1, 8, 3], F32, name="X")
    bx = o.parameter([-1, 2, 3], F32, name="bx")
    r = o.reshape(bx, _c([0, -1]), True, name="b_flat")  # [?,6]
    u = o.unsqueeze(r, _c([-2]), name="b_unsq")  # [?,1,6]
    res = o.result(u, name="b_out")
    ti = o.tensor_iterator()
    ti.set_body(ov.Model([res], [bx], "body"))
    ti.set_sliced_input(bx, x.output(0), -1, -2, 2, 0, 1)
    out = ti.get_concatenated_slices(res.output(0), 0, 1, 1, -1, -2)
    return _model([out], [x], "ti_reverse")


def ti_invariant_only() -> ov.Model:
    """No sliced input: the iteration count comes from the concatenated output's start and end."""
    a = o.parameter([3, 4], F32, name="A")
    ba = o.parameter([3, 4], F32, name="ba")
    r = o.reshape(ba, _c([1, 12]), False, name="b_row")
    res = o.result(r, name="b_out")
    ti = o.tensor_iterator()
    ti.set_body(ov.Model([res], [ba], "body"))
    ti.set_invariant_input(ba, a.output(0))
    out = ti.get_concatenated_slices(res.output(0), 0, 1, 1, 5, 0)
    return _model([out], [a], "ti_invariant_only")


def ti_grow() -> ov.Model:
    """A back edge whose Result grows each iteration: a TensorIterator, unlike a Loop, does not reconcile it
    (its body keeps the outer dims)."""
    x, h = o.parameter([3, 4, 2], F32, name="X"), o.parameter([2, 1], F32, name="H")
    bx, bh = o.parameter([1, 4, 2], F32, name="bx"), o.parameter([2, 1], F32, name="bh")
    cc = o.concat([bh, o.reshape(bx, _c([2, 4]), False, name="b_reshape")], 1, name="b_concat")  # [2,5]
    r_h = o.result(cc, name="b_rh")
    ti = o.tensor_iterator()
    ti.set_body(ov.Model([r_h], [bx, bh], "body"))
    ti.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 0)
    ti.set_merged_input(bh, h.output(0), r_h.output(0))
    return _model([ti.get_iter_value(r_h.output(0), -1)], [x, h], "ti_grow")


def _loop(trip, cond, body_params, body_results, special, inputs, outputs):
    lp = o.loop(trip, cond)
    lp.set_function(ov.Model(body_results, body_params, "body"))
    lp.set_special_body_ports(special)
    for kind, *args in inputs:
        getattr(lp, f"set_{kind}_input")(*args)
    return lp, [getattr(lp, kind)(*args) for kind, *args in outputs]


def loop_trip() -> ov.Model:
    """A constant trip count with a condition always true: a sliced input, a back edge, the current iteration,
    a concatenated output multiplied by the trip count."""
    x, h = o.parameter([5, 3, 4], F32, name="X"), o.parameter([3, 4], F32, name="H")
    it, bx, bh = o.parameter([1], I64, name="it"), o.parameter([1, 3, 4], F32, name="bx"), o.parameter([3, 4], F32, name="bh")
    sq = o.squeeze(bx, _c([0]), name="b_squeeze")
    hn = o.add(sq, bh, name="b_add")
    r = o.reshape(hn, o.concat([_c([1]), o.shape_of(hn)], 0), False, name="b_reshape")  # [1,3,4]
    cond = o.constant(np.array(True), name="b_cond")
    r_c, r_h, r_y = o.result(cond, name="b_rc"), o.result(hn, name="b_rh"), o.result(r, name="b_ry")
    lp, (last, seq) = _loop(_c(5), o.constant(np.array(True)), [it, bx, bh], [r_c, r_h, r_y], [0, 0],
                            [("sliced", bx, x.output(0), 0, 1, 1, -1, 0), ("merged", bh, h.output(0), r_h.output(0))],
                            [("get_iter_value", r_h.output(0), -1), ("get_concatenated_slices", r_y.output(0), 0, 1, 1, -1, 0)])
    return _model([last, seq], [x, h], "loop_trip")


def loop_grow() -> ov.Model:
    """A back edge whose Result grows each iteration (a Concat): OpenVINO makes the Parameter's dim dynamic
    and infers the body again; the trip count is a run-time input."""
    h, t = o.parameter([2, 1], F32, name="H"), o.parameter([], I64, name="T")
    bh = o.parameter([2, 1], F32, name="bh")
    cc = o.concat([bh, o.constant(np.ones((2, 1), F32))], 1, name="b_concat")
    r = o.reshape(cc, _c([2, -1]), False, name="b_reshape")
    u = o.unsqueeze(r, _c([0]), name="b_unsq")
    r_c, r_h, r_u = o.result(o.constant(np.array(True)), name="b_rc"), o.result(r, name="b_rh"), o.result(u, name="b_ru")
    lp, (last, seq) = _loop(t, o.constant(np.array(True)), [bh], [r_c, r_h, r_u], [-1, 0],
                            [("merged", bh, h.output(0), r_h.output(0))],
                            [("get_iter_value", r_h.output(0), -1), ("get_concatenated_slices", r_u.output(0), 0, 1, 1, -1, 0)])
    return _model([last, seq], [h, t], "loop_grow")


def loop_cond() -> ov.Model:
    """The condition computed in the body (not a constant): the iteration count is unknown; an invariant input."""
    a = o.parameter([4, 6], F32, name="A")
    ba = o.parameter([4, 6], F32, name="ba")
    r = o.reshape(ba, _c([2, 12]), False, name="b_reshape")
    s = o.reduce_sum(r, _c([0, 1]), False, name="b_sum")
    c = o.less(s, o.constant(np.array(10, F32)), name="b_less")
    un = o.unsqueeze(r, _c([0]), name="b_unsq")
    r_c, r_u = o.result(c, name="b_rc"), o.result(un, name="b_ru")
    lp, (seq,) = _loop(_c(8), o.constant(np.array(True)), [ba], [r_c, r_u], [-1, 0],
                       [("invariant", ba, a.output(0))], [("get_concatenated_slices", r_u.output(0), 0, 1, 1, -1, 0)])
    return _model([seq], [a], "loop_cond")


def _branch(param_shape, ops: Callable, name: str):
    p = o.parameter(param_shape, F32, name=f"{name}_p")
    return p, o.result(ops(p), name=f"{name}_r")


def if_both() -> ov.Model:
    """A run-time condition: both branches inferred, each output the union of the branches' (an interval where
    their dims differ)."""
    x, c = o.parameter([2, 3, 4], F32, name="X"), o.parameter([], np.bool_, name="C")
    tp, tr = _branch([2, 3, 4], lambda p: o.reshape(p, _c([6, -1]), False, name="t_reshape"), "t")
    ep, er = _branch([2, 3, 4], lambda p: o.squeeze(o.reshape(p, _c([1, 8, 3]), False, name="e_reshape"), _c([0]),
                                                    name="e_squeeze"), "e")
    node = o.if_op(c)
    node.set_then_body(ov.Model([tr], [tp], "then"))
    node.set_else_body(ov.Model([er], [ep], "else"))
    node.set_input(x.output(0), tp, ep)
    out = node.set_output(tr, er)
    return _model([out], [x, c], "if_both")


def if_const() -> ov.Model:
    """A constant condition: only the chosen branch takes the outer dims; the other keeps its declared ones."""
    x = o.parameter([2, 3, 4], F32, name="X")
    tp, tr = _branch([2, 3, 4], lambda p: o.unsqueeze(o.reshape(p, _c([0, -1]), True, name="t_reshape"), _c([2]),
                                                      name="t_unsq"), "t")
    ep, er = _branch([-1, 3, 4], lambda p: o.unsqueeze(o.reshape(p, _c([0, 12]), True, name="e_reshape"), _c([2]),
                                                       name="e_unsq"), "e")
    node = o.if_op(o.constant(np.array(True)))
    node.set_then_body(ov.Model([tr], [tp], "then"))
    node.set_else_body(ov.Model([er], [ep], "else"))
    node.set_input(x.output(0), tp, ep)
    out = node.set_output(tr, er)
    return _model([out], [x], "if_const")


def if_const_false() -> ov.Model:
    """A constant false condition: the else branch is inferred from the outer dims, the then branch as declared."""
    x = o.parameter([2, 3, 4], F32, name="X")
    tp, tr = _branch([-1, 3, 4], lambda p: o.reshape(p, _c([0, -1]), True, name="t_reshape"), "t")
    ep, er = _branch([2, 3, 4], lambda p: o.squeeze(o.reshape(p, _c([1, 2, 12]), False, name="e_reshape"), _c([0]),
                                                    name="e_squeeze"), "e")
    node = o.if_op(o.constant(np.array([False])))
    node.set_then_body(ov.Model([tr], [tp], "then"))
    node.set_else_body(ov.Model([er], [ep], "else"))
    node.set_input(x.output(0), tp, ep)
    return _model([node.set_output(tr, er)], [x], "if_const_false")


def loop_if() -> ov.Model:
    """Nested: a Loop whose body holds an If (its condition computed from the current iteration), each branch
    with a Reshape."""
    x = o.parameter([4, 2, 6], F32, name="X")
    it, bx = o.parameter([], I64, name="it"), o.parameter([1, 2, 6], F32, name="bx")
    even = o.equal(o.floor_mod(it, _c(2)), _c(0), name="b_even")
    tp, tr = _branch([1, 2, 6], lambda p: o.reshape(p, _c([1, 3, 4]), False, name="t_reshape"), "t")
    ep, er = _branch([1, 2, 6], lambda p: o.unsqueeze(o.reshape(p, _c([12]), False, name="e_flat"), _c([0]),
                                                      name="e_unsq"), "e")
    node = o.if_op(even.output(0))
    node.set_then_body(ov.Model([tr], [tp], "then"))
    node.set_else_body(ov.Model([er], [ep], "else"))
    node.set_input(bx.output(0), tp, ep)
    inner = node.set_output(tr, er)
    r = o.reshape(inner, _c([1, -1]), False, name="b_reshape")
    r_c, r_y = o.result(o.constant(np.array(True)), name="b_rc"), o.result(r, name="b_ry")
    lp, (seq,) = _loop(_c(4), o.constant(np.array(True)), [it, bx], [r_c, r_y], [0, 0],
                       [("sliced", bx, x.output(0), 0, 1, 1, -1, 0)],
                       [("get_concatenated_slices", r_y.output(0), 0, 1, 1, -1, 0)])
    return _model([seq], [x], "loop_if")


def if_ti() -> ov.Model:
    """Nested: an If whose then-branch holds a TensorIterator (sliced, concatenated) with a Reshape in its body,
    and whose else-branch holds a Loop."""
    x, c = o.parameter([3, 4, 5], F32, name="X"), o.parameter([1], np.bool_, name="C")
    tp = o.parameter([3, 4, 5], F32, name="t_p")
    bx = o.parameter([3, 1, 5], F32, name="tb_x")
    r = o.reshape(bx, _c([3, 5, 1]), False, name="tb_reshape")
    res = o.result(r, name="tb_out")
    ti = o.tensor_iterator()
    ti.set_body(ov.Model([res], [bx], "body"))
    ti.set_sliced_input(bx, tp.output(0), 0, 1, 1, -1, 1)
    tr = o.result(ti.get_concatenated_slices(res.output(0), 0, 1, 1, -1, 2), name="t_r")
    ep = o.parameter([3, 4, 5], F32, name="e_p")
    lx = o.parameter([3, 4, 5], F32, name="eb_x")
    lr = o.reshape(lx, _c([0, 0, 5]), True, name="eb_reshape")
    u = o.unsqueeze(o.squeeze(o.reshape(lr, _c([3, 1, 20]), False, name="eb_reshape2"), _c([1]), name="eb_squeeze"),
                    _c([2]), name="eb_unsq")  # [3,20,1]
    l_c, l_u = o.result(o.constant(np.array(True)), name="eb_rc"), o.result(u, name="eb_ru")
    lp, (last,) = _loop(_c(2), o.constant(np.array(True)), [lx], [l_c, l_u], [-1, 0],
                        [("invariant", lx, ep.output(0))], [("get_iter_value", l_u.output(0), -1)])
    er = o.result(last, name="e_r")
    node = o.if_op(c)
    node.set_then_body(ov.Model([tr], [tp], "then"))
    node.set_else_body(ov.Model([er], [ep], "else"))
    node.set_input(x.output(0), tp, ep)
    out = node.set_output(tr, er)
    return _model([out], [x, c], "if_ti")


def ti_dynamic_axis() -> ov.Model:
    """The sliced axis is dynamic: the iteration count, and the concatenated dim, are unknown."""
    x = o.parameter([2, -1, 3], F32, name="X")
    bx = o.parameter([2, 1, 3], F32, name="bx")
    r = o.reshape(bx, _c([1, 2, 3]), False, name="b_reshape")
    res = o.result(r, name="b_out")
    ti = o.tensor_iterator()
    ti.set_body(ov.Model([res], [bx], "body"))
    ti.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 1)
    return _model([ti.get_concatenated_slices(res.output(0), 0, 1, 1, -1, 0)], [x], "ti_dynamic_axis")


def _simple_loop(trip, cond, h_shape, name, body_cond=None, cond_input=None):
    """A Loop with a merged input (``h_shape``), a Reshape and an Unsqueeze in its body, the last value and a
    concatenated output; ``body_cond``: a function of the body's extra Parameter giving the condition."""
    h = o.parameter(h_shape, F32, name="H")
    bh = o.parameter(h_shape, F32, name="bh")
    r = o.reshape(bh, _c([0, -1]), True, name="b_reshape")
    u = o.unsqueeze(r, _c([0]), name="b_unsq")
    params, inputs = [bh], [("merged", bh, h.output(0), None)]
    if body_cond is not None:
        bc = o.parameter([], np.bool_, name="b_cond_in")
        params.append(bc)
        inputs.append(("invariant", bc, cond_input.output(0)))
        cond_node = body_cond(bc)
    else:
        cond_node = o.constant(np.array(True), name="b_cond")
    r_c, r_h, r_u = o.result(cond_node, name="b_rc"), o.result(r, name="b_rh"), o.result(u, name="b_ru")
    inputs[0] = ("merged", bh, h.output(0), r_h.output(0))
    lp, (last, seq) = _loop(trip, cond, params, [r_c, r_h, r_u], [-1, 0], inputs,
                            [("get_iter_value", r_h.output(0), -1), ("get_concatenated_slices", r_u.output(0), 0, 1, 1, -1, 0)])
    return _model([last, seq], [h], name)


def loop_shape_trip() -> ov.Model:
    """The trip count computed from a shape (a ShapeOf gathered, squeezed): a constant OpenVINO folds, so the
    concatenated dim is known."""
    x = o.parameter([5, 3, 4], F32, name="X")
    trip = o.squeeze(o.gather(o.shape_of(x), _c([0]), _c(0)), _c([0]), name="trip")
    bx = o.parameter([1, 3, 4], F32, name="bx")
    r = o.reshape(bx, _c([1, 12]), False, name="b_reshape")
    r_c, r_y = o.result(o.constant(np.array(True)), name="b_rc"), o.result(r, name="b_ry")
    lp, (seq,) = _loop(trip, o.constant(np.array(True)), [bx], [r_c, r_y], [-1, 0],
                       [("sliced", bx, x.output(0), 0, 1, 1, -1, 0)],
                       [("get_concatenated_slices", r_y.output(0), 0, 1, 1, -1, 0)])
    return _model([seq], [x], "loop_shape_trip")


def loop_zero() -> ov.Model:
    """The condition input is a constant false: no iteration, the outputs are empty."""
    return _simple_loop(_c(3), o.constant(np.array(False)), [2, 3], "loop_zero")


def loop_unknown_trip() -> ov.Model:
    """A trip count of -1 (run until the condition is false): the concatenated dim is unknown."""
    return _simple_loop(_c(-1), o.constant(np.array(True)), [2, 3], "loop_unknown_trip")


def loop_empty_state() -> ov.Model:
    """A loop-carried input whose initial value has a 0 dim (an empty cache): the body sees it dynamic."""
    return _simple_loop(_c(2), o.constant(np.array(True)), [2, 0], "loop_empty_state")


def loop_fed_condition() -> ov.Model:
    """The body's condition is a body Parameter fed by a constant true: the trip count holds."""
    return _simple_loop(_c(6), o.constant(np.array(True)), [2, 3], "loop_fed_condition",
                        body_cond=lambda p: p, cond_input=o.constant(np.array(True)))


def if_ranks() -> ov.Model:
    """Branches of different ranks: a scalar and a one-element 1-D tensor make [1]; [2,3] and [6] a dynamic rank."""
    x, c = o.parameter([2, 3], F32, name="X"), o.parameter([], np.bool_, name="C")
    tp = o.parameter([2, 3], F32, name="t_p")
    t1 = o.result(o.reshape(o.reduce_sum(tp, _c([0, 1]), True), _c([]), False, name="t_scalar"), name="t_r1")
    t2 = o.result(o.reshape(tp, _c([6]), False, name="t_flat"), name="t_r2")
    ep = o.parameter([2, 3], F32, name="e_p")
    e1 = o.result(o.reshape(o.reduce_sum(ep, _c([0, 1]), True), _c([1]), False, name="e_one"), name="e_r1")
    e2 = o.result(o.squeeze(o.unsqueeze(ep, _c([0]), name="e_unsq"), _c([0]), name="e_squeeze"), name="e_r2")
    node = o.if_op(c)
    node.set_then_body(ov.Model([t1, t2], [tp], "then"))
    node.set_else_body(ov.Model([e1, e2], [ep], "else"))
    node.set_input(x.output(0), tp, ep)
    return _model([node.set_output(t1, e1), node.set_output(t2, e2)], [x, c], "if_ranks")


def loop_interval() -> ov.Model:
    """A loop-carried input of [2,1..4] whose Result is [2,2..8]: not within the Parameter's dims (though
    compatible with them), so openvino 2026.4.1 makes the Parameter's dim dynamic."""
    h, t = o.parameter([2, ov.Dimension(1, 4)], F32, name="H"), o.parameter([], I64, name="T")
    bh = o.parameter([2, ov.Dimension(1, 4)], F32, name="bh")
    cc = o.concat([bh, bh], 1, name="b_concat")
    r = o.reshape(cc, _c([0, -1]), True, name="b_reshape")
    r_c, r_h = o.result(o.constant(np.array(True)), name="b_rc"), o.result(r, name="b_rh")
    lp, (last,) = _loop(t, o.constant(np.array(True)), [bh], [r_c, r_h], [-1, 0],
                        [("merged", bh, h.output(0), r_h.output(0))], [("get_iter_value", r_h.output(0), -1)])
    return _model([last], [h, t], "loop_interval")


def loop_in_loop() -> ov.Model:
    """Nested Loops, each with a back edge that grows: the inner one settles within each round of the outer."""
    h, t = o.parameter([2, 1], F32, name="H"), o.parameter([], I64, name="T")
    ih = o.parameter([2, 2], F32, name="ib_h")
    ir = o.reshape(o.concat([ih, ih], 1, name="ib_concat"), _c([2, -1]), False, name="ib_reshape")
    i_c, i_h = o.result(o.constant(np.array(True)), name="ib_rc"), o.result(ir, name="ib_rh")
    bh, bt = o.parameter([2, 1], F32, name="b_h"), o.parameter([], I64, name="b_t")
    cc = o.concat([bh, bh], 1, name="b_concat")
    inner, (last,) = _loop(bt, o.constant(np.array(True)), [ih], [i_c, i_h], [-1, 0],
                           [("merged", ih, cc.output(0), i_h.output(0))], [("get_iter_value", i_h.output(0), -1)])
    u = o.unsqueeze(last, _c([0]), name="b_unsq")
    r_c, r_h, r_u = o.result(o.constant(np.array(True)), name="b_rc"), o.result(last, name="b_rh"), o.result(u, name="b_ru")
    lp, (out, seq) = _loop(t, o.constant(np.array(True)), [bh, bt], [r_c, r_h, r_u], [-1, 0],
                           [("merged", bh, h.output(0), r_h.output(0)), ("invariant", bt, t.output(0))],
                           [("get_iter_value", r_h.output(0), -1), ("get_concatenated_slices", r_u.output(0), 0, 1, 1, -1, 0)])
    return _model([out, seq], [h, t], "loop_in_loop")


MODELS: dict[str, Callable[[], ov.Model]] = {f.__name__: f for f in (
    ti_rnn, ti_reverse, ti_invariant_only, ti_dynamic_axis, ti_grow,
    loop_trip, loop_shape_trip, loop_grow, loop_cond, loop_zero, loop_unknown_trip, loop_empty_state, loop_fed_condition,
    loop_interval, loop_in_loop, if_both, if_const, if_const_false, if_ranks, loop_if, if_ti)}


def _port(pid: int, dims: list[int] | None, precision: str = "FP32") -> str:
    if dims is None:
        return f'<port id="{pid}" precision="{precision}" />'
    return f'<port id="{pid}" precision="{precision}">' + "".join(f"<dim>{d}</dim>" for d in dims) + "</port>"


def _edges(edges: list[tuple[int, int, int, int]]) -> str:
    return "".join(f'<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}" />\n' for a, b, c, d in edges)


def _nested_loop(lid: int, depth: int) -> str:
    """A Loop (inputs 0 trip, 1 condition, 2 state, 3 condition again, 4 trip again; output 5 the state)
    whose body concatenates the state with itself (a back edge that grows) and, above depth 0, passes it
    through another such Loop."""
    layers = [
        f'<layer id="0" name="h{depth}" type="Parameter" version="opset1"><data shape="2,1" element_type="f32" />'
        f'<output>{_port(0, [2, -1])}</output></layer>',
        f'<layer id="1" name="c{depth}" type="Parameter" version="opset1"><data shape="" element_type="boolean" />'
        f'<output>{_port(0, None, "BOOL")}</output></layer>',
        f'<layer id="2" name="t{depth}" type="Parameter" version="opset1"><data shape="" element_type="i64" />'
        f'<output>{_port(0, None, "I64")}</output></layer>',
        f'<layer id="3" name="cat{depth}" type="Concat" version="opset1"><data axis="1" />'
        f'<input>{_port(0, [2, -1])}{_port(1, [2, -1])}</input><output>{_port(2, [2, -1])}</output></layer>',
    ]
    edges, state = [(0, 0, 3, 0), (0, 0, 3, 1)], (3, 2)
    if depth > 0:
        layers.append(_nested_loop(4, depth - 1))
        edges += [(2, 0, 4, 0), (1, 0, 4, 1), (3, 2, 4, 2), (1, 0, 4, 3), (2, 0, 4, 4)]
        state = (4, 5)
    layers += [f'<layer id="5" name="rh{depth}" type="Result" version="opset1"><input>{_port(0, [2, -1])}</input></layer>',
               f'<layer id="6" name="rc{depth}" type="Result" version="opset1"><input>{_port(0, None, "BOOL")}</input>'
               '</layer>']
    edges += [(*state, 5, 0), (1, 0, 6, 0)]
    return (f'<layer id="{lid}" name="loop{depth}" type="Loop" version="opset5"><port_map>'
            '<input external_port_id="2" internal_layer_id="0" /><input external_port_id="3" internal_layer_id="1" />'
            '<input external_port_id="4" internal_layer_id="2" /><output external_port_id="5" internal_layer_id="5" />'
            '<output external_port_id="-1" internal_layer_id="6" purpose="execution_condition" /></port_map>'
            '<back_edges><edge from-layer="5" to-layer="0" /></back_edges><input>'
            f'{_port(0, None, "I64")}{_port(1, None, "BOOL")}{_port(2, [2, -1])}{_port(3, None, "BOOL")}'
            f'{_port(4, None, "I64")}</input><output>{_port(5, [2, -1])}</output>\n<body><layers>\n'
            + "\n".join(layers) + "\n</layers><edges>\n" + _edges(edges) + "</edges></body></layer>")


def nested_loops(depth: int) -> str:
    """An IR (no constants: an empty ``.bin``) of ``depth + 1`` Loops nested in one another, each with a back
    edge that grows: OpenVINO makes every state [2,?], and so are the declared dims."""
    layers = [
        f'<layer id="0" name="H" type="Parameter" version="opset1"><data shape="2,1" element_type="f32" />'
        f'<output>{_port(0, [2, 1])}</output></layer>',
        f'<layer id="1" name="C" type="Parameter" version="opset1"><data shape="" element_type="boolean" />'
        f'<output>{_port(0, None, "BOOL")}</output></layer>',
        f'<layer id="2" name="T" type="Parameter" version="opset1"><data shape="" element_type="i64" />'
        f'<output>{_port(0, None, "I64")}</output></layer>',
        _nested_loop(3, depth),
        f'<layer id="4" name="out" type="Result" version="opset1"><input>{_port(0, [2, -1])}</input></layer>',
    ]
    edges = [(2, 0, 3, 0), (1, 0, 3, 1), (0, 0, 3, 2), (1, 0, 3, 3), (2, 0, 3, 4), (3, 5, 4, 0)]
    return ('<?xml version="1.0"?>\n<net name="nested" version="11">\n<layers>\n' + "\n".join(layers)
            + "\n</layers>\n<edges>\n" + _edges(edges) + "</edges>\n</net>\n")


def write(name: str, folder: str | os.PathLike) -> str:
    """Save model ``name`` as ``folder/name.xml`` (and ``.bin``); the path of the ``.xml``."""
    path = os.path.join(folder, f"{name}.xml")
    ov.save_model(MODELS[name](), path, compress_to_fp16=False)
    return path


def _ov_bodies(node) -> list[tuple[str, ov.Model]]:
    t = node.get_type_name()
    if t in ("TensorIterator", "Loop"):
        return [("body", node.get_function())]
    if t == "If":
        return [("then", node.get_then_body()), ("else", node.get_else_body())]
    return []


def body_shapes(path: str | os.PathLike, core: ov.Core | None = None) -> dict[str, list[str]]:
    """What ``read_model`` infers for every body layer of the IR at ``path``, by irreshape's path ids."""
    core = core or ov.Core()
    out: dict[str, list[str]] = {}

    def walk(ir_layers: dict, ov_model: ov.Model) -> None:
        by_name = {n.get_friendly_name(): n for n in ov_model.get_ordered_ops()}
        for layer in ir_layers.values():
            node = by_name.get(layer.name)
            if node is None or not layer.bodies:
                continue
            theirs = dict(_ov_bodies(node))
            for body in layer.bodies:
                if body.name not in theirs:
                    continue
                inner = {n.get_friendly_name(): n for n in theirs[body.name].get_ordered_ops()}
                for lid, body_layer in body.model.layers.items():
                    n = inner.get(body_layer.name)
                    if n is not None:
                        out[lid] = [str(n.get_output_partial_shape(i)) for i in range(n.get_output_size())]
                walk(body.model.layers, theirs[body.name])

    walk(parse(str(path)).layers, core.read_model(str(path)))
    return out
