"""The compile-stage probes: small models, each holding one feature of :mod:`irreshape.checks.plugin`, written by
openvino 2026.4.1's own API (so that 2026.4.1 reads each of them), for scripts/make_plugins.py to compile with
every release's wheel and for the tests to check irreshape's compile-stage findings against the labels it wrote.

Each :class:`Case` names the feature (``key``) its model is a probe of: irreshape's detectors must find that key
in it (the script drops a case where they do not, and says so). Families:

* ``op``: every op version's small valid models (:mod:`.typesweep`), their weights constants (their first
  inference on zeros says nothing of the op: zeros stand for its shapes and counts);
* ``param``: a model input of each element type, into a Result and into a Convert to f32 (compiled, not run);
* ``rank``: each op version whose output rank OpenVINO cannot tell once a constant input (a shape, axes,
  repeats) is a run-time input of unknown length, and a Parameter of dynamic rank;
* ``attr``: each list attribute of each op version's first ``op`` probe written empty (where 2026.4.1 reads it
  so); a failure its ``op`` probe has too is not the attribute's;
* ``sdpa``: ScaledDotProductAttention-13 with an attention mask of each type, static and dynamic, with a sink;
* ``decompress``: a Const of each element type converted to f32 (and through f16) before a MatMul, as weight
  compression writes it.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ETYPES = ("f32", "f16", "bf16", "f64", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8", "boolean", "u1", "u2",
          "u3", "u4", "u6", "i4", "nf4", "f8e4m3", "f8e5m2", "f8e8m0", "f4e2m1", "string")
PACKED = ("u1", "u2", "u3", "u4", "u6", "i4", "nf4", "f4e2m1")


@dataclass
class Case:
    name: str  # a file name (no suffix), unique among the cases
    key: tuple  # the feature it is a probe of
    xml: str
    weights: bytes
    # whether a failure of its first inference on zeros says something of the feature (not where zeros stand for
    # shapes, axes or counts the op needs, nor for a packed type numpy cannot hold)
    infer: bool = True
    base: str = ""  # the probe it is an edit of: a failure that one has too is not the edit's doing


def _save(model) -> tuple[str, bytes]:
    import openvino as ov

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.xml")
        ov.save_model(model, path, compress_to_fp16=False)
        return Path(path).read_text(), Path(path).with_suffix(".bin").read_bytes()


def _slug(*parts) -> str:
    return "_".join(re.sub(r"[^A-Za-z0-9.]+", "-", str(p)) for p in parts)


_NUMPY = {"f32": "float32", "f16": "float16", "bf16": "float32", "f64": "float64", "boolean": "bool"}


def op_inputs(inputs: list, fill: str) -> list:
    """An op's inputs as real models hold them: past the first, a floating-point input (weights, biases, scales)
    is a Constant (ones); an integer one (shapes, axes, indices, counts) a Constant too, its values ``fill``
    ("zeros", "ones", "range": 0, 1, 2...; the caller tries each till OpenVINO takes one)."""
    out = []
    for j, (kind, a, t) in enumerate(inputs):
        if j and kind == "p" and t in ("f32", "f16", "f64"):
            out.append(("c", np.ones(a, dtype=_NUMPY[t]), _NUMPY[t]))
        elif j and kind == "p" and t in ("i32", "i64", "u64", "u32"):
            n = int(np.prod(a)) if a else 1
            values = {"zeros": np.zeros(n), "ones": np.ones(n), "range": np.arange(n)}[fill]
            dtype = {"i64": "int64", "i32": "int32", "u64": "uint64", "u32": "uint32"}[t]
            out.append(("c", values.reshape(a).astype(dtype), dtype))
        else:
            out.append((kind, a, t))
    return out


# what real exporters write for the recurrent ops' activations (the op factory leaves them empty)
_ACTIVATIONS = {"LSTM": ["sigmoid", "tanh", "tanh"], "GRU": ["sigmoid", "tanh"], "RNN": ["tanh"]}


def op_attrs(t: str, attrs: dict) -> dict:
    for prefix, acts in _ACTIVATIONS.items():
        if t.startswith(prefix) and "activations" not in attrs:
            return {**attrs, "activations": acts, "activations_alpha": [], "activations_beta": []}
    return attrs


def op_cases() -> Iterator[Case]:
    """Each op version's small valid models (:mod:`.typesweep`; control flow and variables as its builders make
    them), their weights constants, where OpenVINO tells their outputs' ranks."""
    import openvino as ov
    from openvino import opset1

    from . import typesweep

    for t, v in typesweep.units():
        specs = typesweep.cases_of(t, v)
        if (t, v) in typesweep.BUILDERS or not specs:
            try:
                built = [(x, w) for x, w, _ in typesweep.models(t, v)]
            except Exception:  # noqa: BLE001  an op version the sweep has no valid model of
                continue
        else:
            built = []
            for inputs, attrs in specs:
                # the first form OpenVINO takes: constants whose values give static, non-empty outputs, else any
                # constants, else the inputs as the sweep has them; an output of dynamic rank is the "rank" family's
                node, best = None, None
                for fill in ("ones", "range", "zeros", None):
                    try:
                        ins = op_inputs(inputs, fill) if fill else inputs
                        made = typesweep.build(t, v, ins, op_attrs(t, attrs))
                    except Exception:  # noqa: BLE001  values OpenVINO does not take: the next ones
                        continue
                    shapes = [o.get_partial_shape() for o in made[0].outputs()]
                    if any(ps.rank.is_dynamic for ps in shapes):
                        continue
                    if all(ps.is_static and 0 not in ps.to_shape() for ps in shapes):
                        best = made  # static, no empty output (as real models have them)
                        break
                    best = best or made
                if best is None:
                    continue
                node, params = best
                try:
                    built.append(_save(ov.Model([opset1.result(o) for o in node.outputs()], params, "m")))
                except Exception:  # noqa: BLE001
                    continue
        for k, (xml, weights) in enumerate(built):
            n = _inputs_of(xml, t)
            if n is None:
                continue
            yield Case(_slug("op", t, v, k), ("op", t, v, n), xml, weights, infer=False)


def _inputs_of(xml: str, t: str) -> int | None:
    """The number of input ports of the (first) layer of type ``t`` in the main graph."""
    m = re.search(rf'<layer id="\d+" name="[^"]*" type="{t}" version="[^"]*">(.*?)</layer>', xml, re.S)
    if m is None:
        return None
    body = m.group(1)
    cut = body.find("<output>")
    return len(re.findall(r"<port ", body[:cut] if cut >= 0 else body))


def param_cases() -> Iterator[Case]:
    import openvino as ov
    from openvino import opset1

    for t in ETYPES:
        ty = getattr(ov.Type, t)
        x = opset1.parameter([2, 4], ty, name="x")
        yield Case(_slug("param", t, "result"), ("param", t), *_save(ov.Model([opset1.result(x)], [x], "m")),
                   infer=False)
        if t != "string":
            x = opset1.parameter([2, 4], ty, name="x")
            y = opset1.convert(x, "f32")
            yield Case(_slug("param", t, "convert"), ("param", t), *_save(ov.Model([opset1.result(y)], [x], "m")),
                       infer=False)


def rank_cases() -> Iterator[Case]:
    """Each op version of :mod:`.typesweep` whose 1-D input (a shape, axes), made a run-time input of unknown length, leaves
    OpenVINO its output rank unknown; a Parameter of dynamic rank into a Relu and into a Result."""
    import openvino as ov
    from openvino import opset1

    from . import typesweep

    x = opset1.parameter(ov.PartialShape.dynamic(), ov.Type.f32, name="x")
    yield Case("rank_Parameter_result", ("rank", "Parameter"), *_save(ov.Model([opset1.result(x)], [x], "m")))
    x = opset1.parameter(ov.PartialShape.dynamic(), ov.Type.f32, name="x")
    yield Case("rank_Parameter_relu", ("rank", "Parameter"),
               *_save(ov.Model([opset1.result(opset1.relu(x))], [x], "m")))
    for t, v in typesweep.units():
        for k, (inputs, attrs) in enumerate(typesweep.cases_of(t, v)):
            for j, (kind, values, dtype) in enumerate(inputs):
                if j == 0 or (len(values) != 1 if kind == "p" else np.ndim(values) != 1):
                    continue  # a shape, axes, repeats...: a 1-D input beside the data
                changed = list(inputs)
                changed[j] = ("p", [-1], dtype)
                try:
                    node, params = typesweep.build(t, v, changed, attrs)
                except Exception:  # noqa: BLE001  OpenVINO refuses the op so
                    continue
                if not any(o.get_partial_shape().rank.is_dynamic for o in node.outputs()):
                    continue
                results = [opset1.result(opset1.relu(o) if o.get_element_type().is_real() else o)
                           for o in node.outputs()]
                try:
                    made = _save(ov.Model(results, params, "m"))
                except Exception:  # noqa: BLE001
                    continue
                yield Case(_slug("rank", t, v, k, f"in{j}"), ("rank", t), *made)
    yield from _if_rank()


def _if_rank() -> Iterator[Case]:
    """An If whose branches give different ranks (a run-time condition), used by a Relu and by a Result."""
    import openvino as ov
    from openvino import opset8 as o

    for use in ("relu", "result"):
        x = o.parameter([2, 3], ov.Type.f32, name="x")
        c = o.parameter([], ov.Type.boolean, name="c")
        tx, ex = o.parameter([2, 3], ov.Type.f32), o.parameter([2, 3], ov.Type.f32)
        then = ov.Model([o.result(o.unsqueeze(tx, o.constant([0], np.int64)))], [tx], "then")
        other = ov.Model([o.result(o.relu(ex))], [ex], "else")
        n = o.if_op(c.output(0))
        n.set_then_body(then)
        n.set_else_body(other)
        n.set_input(x.output(0), tx, ex)
        out = n.set_output(then.get_results()[0], other.get_results()[0])
        y = o.relu(out) if use == "relu" else out
        yield Case(_slug("rank", "If", use), ("if-rank", "runtime"), *_save(ov.Model([o.result(y)], [x, c], "m")))


def attr_cases(ops: list[Case]) -> Iterator[Case]:
    """Each list attribute of each op version's first probe (``ops``) written empty, where 2026.4.1's read_model
    takes the file (asked in a forked child: an empty attribute may crash the reader)."""
    from irreshape.shapes.opsets import DEFAULTS
    from irreshape.shapes.schema import schema_of

    from .attrprobe import forked

    todo = []
    seen: set[tuple] = set()
    for base in ops:
        _, t, v, _ = base.key
        if (t, v) in seen:
            continue
        seen.add((t, v))
        for a in schema_of(t, v, DEFAULTS.get((t, v))).attrs:
            if a.kind not in ("ints", "sizes", "u64s", "i32s", "reals", "strs"):
                continue
            edited, n = re.subn(rf'(<layer id="\d+" name="[^"]*" type="{t}" version="[^"]*">\s*<data [^>]*?\b'
                                rf'{re.escape(a.name)}=")[^"]*(")', r"\g<1>\g<2>", base.xml, count=1)
            if n:
                todo.append(Case(_slug("attr", t, v, a.name), ("attr-empty", t, v, a.name), edited, base.weights,
                                 base=base.name))

    def reads(case: Case) -> bool:
        from .oracle import read_model_bytes
        try:
            read_model_bytes(case.xml, case.weights)
        except Exception:  # noqa: BLE001
            return False
        return True

    for case, ok in zip(todo, forked(todo, reads, crashed=lambda status: False)):
        if ok:
            yield case


def _heads(x, weight_seed: int, heads: int, size: int, dtype):
    """A projection of hidden states ``x`` [B, L, heads * size] into [B, heads, L, size], as exporters write
    attention (MatMul, Reshape with special zeros, Transpose)."""
    import openvino as ov
    from openvino import opset13 as o

    w = np.random.default_rng(weight_seed).standard_normal((heads * size, heads * size)).astype(dtype)
    y = o.matmul(x, o.constant(w), False, True)
    y = o.reshape(y, o.constant(np.array([0, 0, heads, size], np.int64)), True)
    return o.transpose(y, o.constant(np.array([0, 2, 1, 3], np.int64))), ov


def sdpa_cases() -> Iterator[Case]:
    """ScaledDotProductAttention-13 as exporters write it (queries, keys and values projected from hidden states),
    with an attention mask of each type, on static and on dynamic shapes; with an attention sink (6 inputs)."""
    import openvino as ov
    from openvino import opset13 as o
    from openvino.utils.node_factory import NodeFactory

    heads, size = 4, 8
    for mask in ("f32", "boolean", "f16", None):
        for static in (True, False):
            b, n = (1, 4) if static else (-1, -1)
            t = np.float16 if mask == "f16" else np.float32
            x = o.parameter([b, n, heads * size], ov.Type.f16 if mask == "f16" else ov.Type.f32, name="hidden")
            q, k, v = (_heads(x, seed, heads, size, t)[0] for seed in (1, 2, 3))
            params = [x]
            if mask is None:
                node = o.scaled_dot_product_attention(q, k, v, causal=True)
            else:
                m = o.parameter([b, 1, n, n], getattr(ov.Type, mask), name="mask")
                params.append(m)
                node = o.scaled_dot_product_attention(q, k, v, m, causal=False)
            key = ("sdpa-mask", mask, "static" if static else "dynamic") if mask else ("op", "ScaledDotProductAttention",
                                                                                        13, 3)
            yield Case(_slug("sdpa", "mask", mask or "none", "static" if static else "dynamic"), key,
                       *_save(ov.Model([o.result(node)], params, "m")))
    for static in (True, False):
        b, n = (1, 4) if static else (-1, -1)
        x = o.parameter([b, n, heads * size], ov.Type.f32, name="hidden")
        q, k, v = (_heads(x, seed, heads, size, np.float32)[0] for seed in (1, 2, 3))
        m = o.parameter([b, 1, n, n], ov.Type.f32, name="mask")
        args = [q.output(0), k.output(0), v.output(0), m.output(0), o.constant(np.float32(0.125)).output(0),
                o.constant(np.zeros((1, heads, 1, 1), np.float32)).output(0)]
        node = NodeFactory("opset13").create("ScaledDotProductAttention", args, {"causal": False})
        yield Case(_slug("sdpa", "sink", "static" if static else "dynamic"), ("sdpa-sink", "stateless"),
                   *_save(ov.Model([o.result(node)], [x, m], "m")))


def decompress_cases() -> Iterator[Case]:
    """A Const of each element type (its values 1) converted to f32, directly and through f16, as a MatMul's
    weights; the int4 groups of NNCF (a zero point subtracted, a scale multiplied, reshaped)."""
    import openvino as ov
    from openvino import opset1, opset8

    for t in ETYPES:
        if t in ("f32", "f16", "bf16", "f64", "i64", "i32", "boolean", "string"):
            continue
        for via in ("f32", "f16"):
            x = opset1.parameter([2, 8], ov.Type.f32, name="x")
            w = opset8.constant(np.ones((4, 8), np.float32), dtype=getattr(ov.Type, t))
            d = opset1.convert(w, via)
            if via == "f16":
                d = opset1.convert(d, "f32")
            y = opset1.matmul(x, d, False, True)
            yield Case(_slug("decompress", t, via), ("decompress", t), *_save(ov.Model([opset1.result(y)], [x], "m")))
    for t in ("u4", "i4", "u8", "i8", "nf4"):
        x = opset1.parameter([-1, 16], ov.Type.f32, name="x")
        w = opset8.constant(np.ones((4, 2, 8), np.float32), dtype=getattr(ov.Type, t))
        d = opset1.convert(w, "f16")
        if t in ("u4", "u8"):
            zp = opset1.convert(opset8.constant(np.ones((4, 2, 1), np.float32), dtype=getattr(ov.Type, t)), "f16")
            d = opset1.subtract(d, zp)
        d = opset1.multiply(d, opset8.constant(np.full((4, 2, 1), 0.5, np.float16)))
        d = opset1.convert(opset1.reshape(d, opset8.constant(np.array([4, 16], np.int64)), False), "f32")
        y = opset1.matmul(x, d, False, True)
        yield Case(_slug("decompress", t, "groups"), ("decompress", t), *_save(ov.Model([opset1.result(y)], [x], "m")))


# -- recurrent nets, IsFinite/IsInf/IsNaN, If: the features of the TensorFlow, Keras, TFLite, Paddle, JAX and torch
# conversions (irreshape.checks.plugin: "rnn-weights", "bool-out", "bool-in", "if-rank")

RNN_OPS = {("LSTMCell", 0): 4, ("LSTMCell", 4): 4, ("GRUCell", 3): 3, ("RNNCell", 0): 1, ("LSTMSequence", 5): 4,
           ("GRUSequence", 5): 3, ("RNNSequence", 5): 1}  # op version -> gates
_B, _I, _H, _T = 2, 5, 4, 3


def _rnn(op: str, v: int, x, h, c, weights: str = "const"):
    """The op on ``x``, ``h`` (``c``: an LSTM's cell state), its W, R and B Consts of random values (``weights``:
    "const"; "f16": Consts of f16 converted to f32; "W", "R" or "B": that one a Parameter, returned beside)."""
    import openvino as ov
    from openvino import opset1, opset3, opset4, opset5

    gates, seq = RNN_OPS[(op, v)], op.endswith("Sequence")
    rng = np.random.default_rng(0)
    lead = [1] if seq else []
    shapes = {"W": lead + [gates * _H, _I], "R": lead + [gates * _H, _H], "B": lead + [gates * _H]}
    params = []

    def tensor(name):
        if weights == name:
            p = opset1.parameter(shapes[name], ov.Type.f32, name=name)
            params.append(p)
            return p
        a = rng.standard_normal(shapes[name]).astype(np.float32)
        return opset1.convert(opset1.constant(a.astype(np.float16)), "f32") if weights == "f16" else opset1.constant(a)

    W, R, B = tensor("W"), tensor("R"), tensor("B")
    if seq:
        lengths = opset1.constant(np.full([_B], _T, np.int64))
        build = {"LSTMSequence": lambda: opset5.lstm_sequence(x, h, c, lengths, W, R, B, _H, "forward"),
                 "GRUSequence": lambda: opset5.gru_sequence(x, h, lengths, W, R, B, _H, "forward"),
                 "RNNSequence": lambda: opset5.rnn_sequence(x, h, lengths, W, R, B, _H, "forward")}[op]
    else:
        build = {("LSTMCell", 0): lambda: opset1.lstm_cell(x, h, c, W, R, B, _H),
                 ("LSTMCell", 4): lambda: opset4.lstm_cell(x, h, c, W, R, B, _H),
                 ("GRUCell", 3): lambda: opset3.gru_cell(x, h, W, R, B, _H),
                 ("RNNCell", 0): lambda: opset4.rnn_cell(x, h, W, R, B, _H, ["tanh"], [], [], 0.0)}[(op, v)]
    return build(), params


def _rnn_model(op: str, v: int, where: str, weights: str = "const", outs: str = "both"):
    """A model of the op: in the main graph ("main"), or a cell in the body of a TensorIterator ("ti", the sequence
    sliced on axis 1, as the Model Optimizer writes it) or of a Loop ("loop"), its state carried by back edges, the
    last state and the outputs concatenated its outputs (``outs``: "both", "last" or "seq" alone, "last-of-both" or
    "seq-of-both": both made, one used)."""
    import openvino as ov
    from openvino import opset1, opset5

    f32, lstm = ov.Type.f32, op.startswith("LSTM")
    if where == "main":
        seq = op.endswith("Sequence")
        x = opset1.parameter([_B, _T, _I] if seq else [_B, _I], f32, name="x")
        h = opset1.parameter([_B, 1, _H] if seq else [_B, _H], f32, name="h")
        c = opset1.parameter([_B, 1, _H] if seq else [_B, _H], f32, name="c") if lstm else None
        node, extra = _rnn(op, v, x, h, c, weights)
        return ov.Model([opset1.result(node.output(0))], [x, h] + ([c] if lstm else []) + extra, "m")
    X = opset1.parameter([_B, _T, _I], f32, name="X")
    bx, bh = opset1.parameter([_B, 1, _I], f32, name="bx"), opset1.parameter([_B, _H], f32, name="bh")
    bc = opset1.parameter([_B, _H], f32, name="bc") if lstm else None
    node, _ = _rnn(op, v, opset1.squeeze(bx, opset1.constant(np.array([1], np.int64))), bh, bc, weights)
    rh = opset1.result(node.output(0))
    ry = opset1.result(opset1.unsqueeze(node.output(0), opset1.constant(np.array([1], np.int64))))
    rc = opset1.result(node.output(1)) if lstm else None
    params, results = [bx, bh] + ([bc] if lstm else []), [rh, ry] + ([rc] if lstm else [])
    if where == "ti":
        loop = opset1.tensor_iterator()
        loop.set_body(ov.Model(results, params, "body"))
    else:
        loop = opset5.loop(opset1.constant(np.int64(_T)), opset1.constant(np.array(True)))
        loop.set_function(ov.Model([opset1.result(opset1.constant(np.array(True)))] + results,
                                   [opset1.parameter([1], ov.Type.i64, name="it")] + params, "body"))
        loop.set_special_body_ports([0, 0])
    loop.set_sliced_input(bx, X.output(0), 0, 1, 1, -1, 1)
    zeros = np.zeros((_B, _H), np.float32)
    loop.set_merged_input(bh, opset1.constant(zeros).output(0), rh.output(0))
    if lstm:
        loop.set_merged_input(bc, opset1.constant(zeros).output(0), rc.output(0))
    last = [loop.get_iter_value(rh.output(0), -1)] if outs != "seq" else []
    seq = [loop.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 1)] if outs != "last" else []
    kept = {"both": last + seq, "last": last, "seq": seq, "last-of-both": last, "seq-of-both": seq}[outs]
    return ov.Model([opset1.result(t) for t in kept], [X], "m")


def rnn_cases() -> Iterator[Case]:
    """Each RNN cell and sequence version with constant weights (f32, and f16 converted) in the main graph, a cell
    in a Loop's body too, LSTMCell-0 in a TensorIterator's as the Model Optimizer writes it: the op version's probes
    (and of its activations_alpha/beta written empty, as openvino writes them); with W, R or B a Parameter: the
    "rnn-weights" probes; LSTMCell-4, GRUCell-3 and RNNCell-0 alone in a TensorIterator's body (one output used, or
    two): the "ti-cell" probes."""
    for (op, v) in RNN_OPS:
        wheres = ["main"] if op.endswith("Sequence") else ["main", "loop"] + (["ti"] if (op, v) == ("LSTMCell", 0)
                                                                               else [])
        for where in wheres:
            for weights in ("const", "f16"):
                if weights == "f16" and where != "main":
                    continue
                xml, data = _save(_rnn_model(op, v, where, weights))
                n = _inputs_of(xml, op)
                name = _slug("rnn", op, v, where, weights)
                yield Case(name, ("op", op, v, n), xml, data)
                if weights == "const":  # the same model: a failure of its op probe is not the attribute's
                    for attr in ("activations_alpha", "activations_beta"):
                        yield Case(_slug("rnn", op, v, where, attr), ("attr-empty", op, v, attr), xml, data, base=name)
        for name in ("W", "R", "B"):
            yield Case(_slug("rnn", op, v, "param", name), ("rnn-weights", op, v),
                       *_save(_rnn_model(op, v, "main", name)))
        if (op, v) in (("LSTMCell", 4), ("GRUCell", 3), ("RNNCell", 0)):  # the TensorIterator a plugin makes a sequence
            for outs, weights, key in (("both", "const", "concat+last"), ("both", "f16", "concat+last"),
                                       ("last", "const", "last"), ("seq", "const", "concat"), ("seq", "f16", "concat"),
                                       ("last-of-both", "const", "concat-unused+last"),
                                       ("seq-of-both", "const", "concat+last-unused")):
                yield Case(_slug("rnn", op, v, "ti", outs, weights), ("ti-cell", op, v, key),
                           *_save(_rnn_model(op, v, "ti", weights, outs)))


_CHECK_USES = {  # a user of a check's boolean output, as built on it (b) and the check's input (x)
    "Select": lambda o, b, x: o.select(b, x, o.constant(np.float32(0))),
    "LogicalNot": lambda o, b, x: o.logical_not(b),
    "LogicalAnd": lambda o, b, x: o.logical_and(b, o.greater(x, o.constant(np.float32(0)))),
    "LogicalOr": lambda o, b, x: o.logical_or(b, o.greater(x, o.constant(np.float32(0)))),
    "ReduceLogicalAnd": lambda o, b, x: o.reduce_logical_and(b, o.constant(np.array([1], np.int64)), False),
    "ReduceLogicalOr": lambda o, b, x: o.reduce_logical_or(b, o.constant(np.array([1], np.int64)), False),
    "Convert": lambda o, b, x: o.convert(b, "f32"),
    "Transpose": lambda o, b, x: o.transpose(b, o.constant(np.array([1, 0], np.int64))),
    "Reshape": lambda o, b, x: o.reshape(b, o.constant(np.array([-1], np.int64)), False),
}


def check_cases() -> Iterator[Case]:
    """IsFinite-10, IsInf-10 and IsNaN-10 (inputs static and dynamic): with no Result among the users of the
    boolean output ("bool-out": one user of each kind but a lone logical op, two users), and with a Result beside
    each kind of user ("bool-in"); the TensorFlow (IsInf, IsNaN into a LogicalOr, both also outputs) form."""
    import openvino as ov
    from openvino import opset1, opset10

    checks = {"IsFinite": opset10.is_finite, "IsNaN": opset10.is_nan, "IsInf": lambda x: opset10.is_inf(x, {})}
    alone = [("Select",), ("ReduceLogicalAnd",), ("ReduceLogicalOr",), ("Convert",), ("Transpose",), ("Reshape",),
             ("ReduceLogicalAnd", "Select"), ("LogicalNot", "Select"), ("LogicalNot", "LogicalOr")]
    for op, check in checks.items():
        for shape, tag in (([2, 3], "static"), ([-1, 3], "dynamic")):
            def model(users, result):
                x = opset1.parameter(shape, ov.Type.f32, name="x")
                b = check(x)
                outs = ([b] if result else []) + [_CHECK_USES[u](opset1, b, x) for u in users]
                return _save(ov.Model([opset1.result(t) for t in outs], [x], "m"))
            for users in alone:
                yield Case(_slug("check", op, tag, *users), ("bool-out", op), *model(users, False))
            for user in _CHECK_USES:
                yield Case(_slug("check", op, tag, "result", user), ("bool-in", user), *model((user,), True))
    for shape, tag in (([2, 3], "static"), ([-1, 3], "dynamic")):
        x = opset1.parameter(shape, ov.Type.f32, name="x")
        inf, nan = opset10.is_inf(x, {}), opset10.is_nan(x)
        finite = opset1.logical_not(opset1.logical_or(inf, nan))
        yield Case(_slug("check", "tf2onnx", tag), ("bool-in", "LogicalOr"),
                   *_save(ov.Model([opset1.result(t) for t in (finite, inf, nan)], [x], "m")))


def _if_model(cond, then, other, consumer, shape=(-1, -1, 16), inputs=()):
    """An If over ``x`` (``shape``) whose condition is ``cond(x, *inputs)``, its branches ``then`` and ``other``,
    its output into ``consumer``."""
    import openvino as ov
    from openvino import opset8 as o

    x = o.parameter(list(shape), ov.Type.f32, name="x")
    params = [x] + [o.parameter(s, t, name=n) for n, s, t in inputs]
    tx, ex = o.parameter(list(shape), ov.Type.f32), o.parameter(list(shape), ov.Type.f32)
    node = o.if_op(cond(x, *params[1:]).output(0))
    node.set_then_body(ov.Model([o.result(then(tx))], [tx], "then"))
    node.set_else_body(ov.Model([o.result(other(ex))], [ex], "else"))
    node.set_input(x.output(0), tx, ex)
    out = node.set_output(node.get_then_body().get_results()[0], node.get_else_body().get_results()[0])
    made = consumer(out)
    return _save(ov.Model([o.result(t) for t in (made if isinstance(made, list) else [made])], params, "m"))


def if_cases() -> Iterator[Case]:
    """An If whose branches give different ranks (so OpenVINO's reading gives its output a dynamic rank), by the
    kind of its condition: "runtime" (a data reduction compared, a dynamic dim compared with a constant), "same-value"
    (a dim or an integer input compared with itself: the same output, two Gathers of the same dim) into each op type
    2026.0 compiles then, and into Softmax and Einsum, which it refuses; "unknown" (two dims of tensors that may or
    may not be the same, a negated comparison)."""
    import openvino as ov
    from openvino import opset1, opset8 as o

    i64 = lambda v: o.constant(np.array(v, np.int64))  # noqa: E731
    f32 = lambda v: o.constant(np.array(v, np.float32))  # noqa: E731
    dim = lambda t, k: o.gather(o.shape_of(t), i64(k), i64(0))  # noqa: E731
    unsq, flat, relu = (lambda t: o.unsqueeze(t, i64([0]))), (lambda t: o.reshape(t, i64([-1]), False)), o.relu
    same = lambda x: (lambda a: o.equal(a, a))(dim(x, 0))  # noqa: E731
    uses = {
        "Result": lambda y: y, "Relu": o.relu, "Sigmoid": o.sigmoid, "Tanh": o.tanh, "Exp": o.exp,
        "Sqrt": lambda y: o.sqrt(o.abs(y)), "Erf": o.erf, "Add": lambda y: o.add(y, f32(1)),
        "Multiply": lambda y: o.multiply(y, f32(2)), "Subtract": lambda y: o.subtract(y, f32(1)),
        "Divide": lambda y: o.divide(y, f32(2)), "Power": lambda y: o.power(y, f32(2)),
        "Maximum": lambda y: o.maximum(y, f32(0)), "Clamp": lambda y: o.clamp(y, 0, 1),
        "Convert": lambda y: o.convert(y, "f16"), "LogSoftmax": lambda y: o.log_softmax(y, -1),
        "MatMul": lambda y: o.matmul(y, o.constant(np.ones((16, 4), np.float32)), False, False),
        "ReduceMean": lambda y: o.reduce_mean(y, i64([-1]), True), "ReduceSum": lambda y: o.reduce_sum(y, i64([0]), True),
        "ReduceMax": lambda y: o.reduce_max(y, i64([-1]), True), "MVN": lambda y: o.mvn(y, i64([-1]), True, 1e-5, "inside_sqrt"),
        "Reshape": lambda y: o.reshape(y, i64([0, -1]), True), "Transpose": lambda y: o.transpose(y, i64([0, 2, 1, 3])),
        "Concat": lambda y: o.concat([y, y], 0), "Gather": lambda y: o.gather(y, i64([0]), i64(0)),
        "ShapeOf": o.shape_of, "Squeeze": lambda y: o.squeeze(y, i64([0])), "Unsqueeze": lambda y: o.unsqueeze(y, i64([0])),
        "StridedSlice": lambda y: o.strided_slice(y, i64([0]), i64([1]), i64([1]), [0], [0]),
        "Slice": lambda y: o.slice(y, i64([0]), i64([1]), i64([1]), i64([0])),
        "Split": lambda y: list(o.split(y, i64(0), 1).outputs()), "Pad": lambda y: o.pad(y, i64([0, 0, 0, 0]),
                                                                                    i64([0, 0, 0, 1]), "constant"),
        "NormalizeL2": lambda y: o.normalize_l2(y, i64([-1]), 1e-6, "add"),
        "Select": lambda y: o.select(o.greater(y, f32(0)), y, f32(0)), "Broadcast": lambda y: o.broadcast(y, o.shape_of(y)),
        "Tile": lambda y: o.tile(y, o.broadcast(i64(1), o.shape_of(o.shape_of(y)))),
        "TopK": lambda y: o.topk(y, i64(1), -1, "max", "value").output(0), "CumSum": lambda y: o.cumsum(y, i64(-1)),
    }
    runtime = {
        "sum": lambda x: o.greater(o.reduce_sum(x, i64([0, 1, 2]), False), f32(0)),
        "dim_eq_1": lambda x: o.equal(dim(x, 0), i64(1)),
        "dim_ge_0": lambda x: o.greater_equal(dim(x, 0), i64(0)),
        "float_same": lambda x: (lambda a: o.equal(a, a))(o.reduce_sum(x, i64([0, 1, 2]), False)),
    }
    for name, cond in runtime.items():
        for use in ("Result", "Add", "Reshape", "MVN", "Softmax"):
            fn = uses.get(use) or (lambda y: o.softmax(y, -1))
            yield Case(_slug("if", "runtime", name, use), ("if-rank", "runtime"), *_if_model(cond, unsq, relu, fn))
    sames = {
        "eq_output": same, "eq_two_gathers": lambda x: o.equal(dim(x, 0), dim(x, 0)),
        "ge_output": lambda x: (lambda a: o.greater_equal(a, a))(dim(x, 1)),
        "ne_output": lambda x: (lambda a: o.not_equal(a, a))(dim(x, 1)),
        "gt_output": lambda x: (lambda a: o.greater(a, a))(dim(x, 0)),
        "le_output": lambda x: (lambda a: o.less_equal(a, a))(dim(x, 0)),
    }
    for name, cond in sames.items():
        yield Case(_slug("if", "same", name), ("if-rank", "same-value"), *_if_model(cond, flat, relu, uses["Add"]))
    yield Case("if_same_int_input", ("if-rank", "same-value"),
               *_if_model(lambda x, p: o.equal(p, p), flat, relu, uses["Add"], inputs=[("p", [], ov.Type.i64)]))
    for use, fn in uses.items():
        yield Case(_slug("if", "same", "into", use), ("if-rank", "same-value"), *_if_model(same, unsq, relu, fn))
    yield Case("if_same_into_Softmax", ("if-rank", "same-value", "Softmax"),
               *_if_model(same, unsq, relu, lambda y: o.softmax(y, -1)))
    yield Case("if_same_into_Softmax1", ("if-rank", "same-value", "Softmax"),
               *_if_model(same, unsq, relu, lambda y: opset1.softmax(y, 0)))
    yield Case("if_same_into_Add_Softmax", ("if-rank", "same-value", "Softmax"),
               *_if_model(same, unsq, relu, lambda y: o.softmax(o.add(y, f32(1)), -1)))
    yield Case("if_same_into_Einsum", ("if-rank", "same-value", "Einsum"),
               *_if_model(same, unsq, relu, lambda y: o.einsum([y], "...i->...")))
    unknown = {
        "relu_dim": lambda x: o.equal(dim(x, 0), dim(o.relu(x), 0)),
        "matmul_dim": lambda x: o.equal(dim(x, 1), dim(o.matmul(x, o.constant(np.ones((16, 8), np.float32)), False,
                                                                 False), 1)),
        "other_dims": lambda x: o.equal(dim(x, 0), dim(x, 1)),
        "not_same": lambda x: o.logical_not(same(x)),
    }
    for name, cond in unknown.items():
        yield Case(_slug("if", "unknown", name), ("if-rank", "unknown"), *_if_model(cond, flat, relu, uses["Add"]))


def back_edge_cases() -> Iterator[Case]:
    """A Loop (a constant trip count; -1 and a counter's condition, as TensorFlow's while writes it) and a
    TensorIterator whose back edge carries a buffer broadcast from [T,1,1] to [T,B,H] (a TensorArray:
    "static-change"); one that gains a dim each iteration ("dynamic-rank"), one concatenated to ("growing"). Static
    inputs (the first inference runs only so)."""
    import openvino as ov
    from openvino import opset8 as o

    f32, i64 = ov.Type.f32, (lambda v: o.constant(np.array(v, np.int64)))
    t, b, h = 3, 2, 4
    for form in ("loop", "while", "ti"):
        x = o.parameter([t, b, h] if form == "ti" else [b, h], f32, name="x")
        buf = o.parameter([t, 1, 1], f32, name="buf")
        bx = o.parameter([1, b, h] if form == "ti" else [b, h], f32, name="bx")
        grown = o.result(o.add(o.broadcast(buf, i64([t, b, h])), bx if form == "ti" else o.unsqueeze(bx, i64([0]))))
        zeros = o.constant(np.zeros([t, 1, 1], np.float32)).output(0)
        if form == "ti":
            node = o.tensor_iterator()
            node.set_body(ov.Model([grown], [bx, buf], "body"))
            node.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 0)
        else:
            it, count = o.parameter([1], ov.Type.i64, name="it"), o.parameter([], ov.Type.i64, name="count")
            nxt = o.add(count, i64(1))
            more = o.result(o.less(nxt, i64(t)) if form == "while" else o.constant(np.array(True)))
            counted = o.result(nxt)
            node = o.loop(i64(-1 if form == "while" else t), o.constant(np.array(True)))
            node.set_function(ov.Model([more, grown, counted], [it, buf, bx, count], "body"))
            node.set_special_body_ports([0, 0])
            node.set_invariant_input(bx, x.output(0))
            node.set_merged_input(count, i64(0).output(0), counted.output(0))
        node.set_merged_input(buf, zeros, grown.output(0))
        op = "TensorIterator" if form == "ti" else "Loop"
        yield Case(_slug("backedge", form), ("back-edge", op, "static-change"),
                   *_save(ov.Model([o.result(node.get_iter_value(grown.output(0), -1))], [x], "m")))
    for form in ("loop", "ti"):  # a back edge that gains a dim each iteration, one that grows a dim
        for how, init, step in (
                ("dynamic-rank", [2, 3], lambda v, w: o.unsqueeze(o.reduce_sum(v, i64([-1]), True), i64([0]))),
                ("growing", [1, 3], lambda v, w: o.concat([v, o.reduce_sum(w, i64([0]), True)], 0))):
            x = o.parameter([3, 2, 3] if form == "ti" else [2, 3], f32, name="x")
            bv, bx = o.parameter(init, f32, name="state"), o.parameter([1, 2, 3] if form == "ti" else [2, 3], f32,
                                                                       name="bx")
            res = o.result(step(bv, o.squeeze(bx, i64([0])) if form == "ti" else bx))
            if form == "ti":
                node = o.tensor_iterator()
                node.set_body(ov.Model([res], [bv, bx], "body"))
                node.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 0)
            else:
                node = o.loop(i64(3), o.constant(np.array(True)))
                node.set_function(ov.Model([o.result(o.constant(np.array(True))), res],
                                           [o.parameter([1], ov.Type.i64, name="it"), bv, bx], "body"))
                node.set_special_body_ports([0, 0])
                node.set_invariant_input(bx, x.output(0))
            node.set_merged_input(bv, o.constant(np.zeros(init, np.float32)).output(0), res.output(0))
            op = "TensorIterator" if form == "ti" else "Loop"
            # a TensorIterator's body keeps its Parameters' first shapes: its value there is static
            kind = how if form != "ti" else "rank-change" if how == "dynamic-rank" else "static-change"
            yield Case(_slug("backedge", form, how), ("back-edge", op, kind),
                       *_save(ov.Model([o.result(node.get_iter_value(res.output(0), -1))], [x], "m")))


def quantized_cases() -> Iterator[Case]:
    """A Concat (of two or three inputs, quantized or not, on axis 0, 1 or 2, a static or dynamic batch) into a
    FakeQuantize whose one user is a Convert to each integer type a TFLite int8 model ends with, and to f16."""
    import openvino as ov
    from openvino import opset1 as o

    def fq(x, rank=4):
        c = lambda v: o.constant(np.full([1] * rank, v, np.float32))  # noqa: E731
        return o.fake_quantize(x, c(-1.0), c(1.0), c(-1.0), c(1.0), 256)

    forms = {
        "plain": (lambda x: o.concat([x, o.relu(x)], 1), [1, 3, 8, 8], 4),
        "quantized": (lambda x: o.concat([fq(x), fq(o.relu(x))], 1), [1, 3, 8, 8], 4),
        "three": (lambda x: o.concat([x, o.relu(x), o.abs(x)], 2), [1, 3, 8, 8], 4),
        "axis0": (lambda x: o.concat([x, o.relu(x)], 0), [2, 6], 2),
        "dynamic": (lambda x: o.concat([x, o.relu(x)], 1), [-1, 3, 8, 8], 4),
    }
    for to in ("i8", "u8", "i32", "f16"):
        for name, (concat, shape, rank) in forms.items():
            x = o.parameter(shape, ov.Type.f32, name="x")
            y = o.convert(fq(concat(x), rank), to)
            yield Case(_slug("quant", name, to), ("concat-fq-convert", to), *_save(ov.Model([o.result(y)], [x], "m")))


def cases() -> list[Case]:
    """Every case, in a stable order."""
    ops = list(op_cases())
    out: list[Case] = list(ops)
    for family in (param_cases(), rank_cases(), attr_cases(ops), sdpa_cases(), decompress_cases(), rnn_cases(),
                   check_cases(), if_cases(), back_edge_cases(), quantized_cases()):
        out.extend(family)
    seen: set[str] = set()
    for c in out:
        assert c.name not in seen, c.name
        seen.add(c.name)
    return out
