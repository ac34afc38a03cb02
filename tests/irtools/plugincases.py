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
            shape = "static" if static else "dynamic"
            key = ("sdpa-mask", mask, shape, "stateless") if mask else ("op", "ScaledDotProductAttention", 13, 3)
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
        yield Case(_slug("sdpa", "sink", "static" if static else "dynamic"), ("sdpa-sink", "stateless", "static" if static else "dynamic"),
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

# -- today's transformer and LLM exports: attention with variables, compressed weights, codebooks ------------------

def _variable(name: str, shape: list, etype: str = "f32"):
    import openvino as ov
    from openvino.op.util import Variable, VariableInfo

    info = VariableInfo()
    info.data_shape, info.data_type, info.variable_id = ov.PartialShape(shape), getattr(ov.Type, etype), name
    return Variable(info)


def _attention(kv: str, mask: str | None, sink: bool, dynamic: str, heads: tuple[int, int] = (4, 4)):
    """A transformer's attention around ScaledDotProductAttention-13, as exporters write it: the query projected
    from the hidden states (MatMul, Reshape, Transpose), the output transposed, reshaped and projected (MatMul);
    the keys and values from ``kv``: "input" (projected from a second input, as an encoder or a cross-attention
    computes them), "cache" (a variable read, gathered by ``beam_idx``, the new keys projected and concatenated and
    assigned back, as optimum-intel's stateful decoders write it), "cache-nobeam" (the same without the Gather),
    "state" (a variable read as it is, as a stateful seq2seq decoder keeps the encoder's keys), or "elsewhere"
    (projected, and a variable elsewhere in the model); ``mask`` an input of that element type, "scalar" (a Const
    0) or None; ``sink`` a scale and an attention sink after it (6 inputs); ``dynamic``: which dims are dynamic
    ("all": batch and lengths, "batch", "mask": only the mask's key length, "q": only the query length, "none");
    ``heads``: (query, key) heads, keys broadcast to the query's heads (Unsqueeze, Broadcast, Reshape) where
    fewer."""
    import openvino as ov
    from openvino import opset1, opset6, opset8
    from openvino import opset13 as o
    from openvino.utils.node_factory import NodeFactory

    h, hkv = heads
    e, d = 8, 32
    ft = np.float16 if mask == "f16" else np.float32  # an f16 mask in an f16 attention
    b = -1 if dynamic in ("all", "batch") else 1
    q_len = -1 if dynamic in ("all", "q") else 4
    s = -1 if dynamic == "all" else 4
    ms = -1 if dynamic in ("all", "mask") else 4
    params, sinks, results = [], [], []

    def param(name, shape, t=None):
        params.append(o.parameter(shape, getattr(ov.Type, t or ("f16" if ft is np.float16 else "f32")), name=name))
        return params[-1]

    def project(x, n, val):
        w = o.constant(np.full((n * e, d), val, ft))
        y = opset1.reshape(opset1.matmul(x, w, False, True), o.constant(np.array([0, -1, n, e], np.int64)), True)
        return o.transpose(y, o.constant(np.array([0, 2, 1, 3], np.int64)))

    hidden = param("hidden_states", [b, q_len, d])
    q = project(hidden, h, 0.01)
    other = param("encoder_hidden_states", [b, s, d]) if kv in ("input", "elsewhere") else None
    beam = param("beam_idx", [b], "i32") if kv == "cache" else None

    def keys(name, val):
        if kv.startswith("cache"):
            new = project(hidden, hkv, val)
            shape = o.concat([opset8.gather(o.shape_of(hidden), o.constant([0]), o.constant(0)),
                              o.constant(np.array([hkv, 0, e], np.int64))], 0)
            var = _variable(f"past_{name}", [b, hkv, -1, e], "f16" if ft is np.float16 else "f32")
            past = opset6.read_value(o.broadcast(o.constant(ft(0)), shape), var)
            if beam is not None:
                past = opset8.gather(past, beam, o.constant(0))
            full = o.concat([past, new], 2)
            sinks.append(opset6.assign(full, var))
        elif kv == "state":
            var = _variable(f"cross_{name}", [b, hkv, s, e], "f16" if ft is np.float16 else "f32")
            full = opset6.read_value(param(f"{name}_encoder", [b, hkv, s, e]), var)
            sinks.append(opset6.assign(full, var))
        else:
            full = project(other, hkv, val)
        if hkv != h:
            full = o.broadcast(o.unsqueeze(full, o.constant([2])), o.constant(np.array([1, 1, h // hkv, 1, 1])),
                               broadcast_spec="BIDIRECTIONAL")
            full = opset1.reshape(full, o.constant(np.array([0, h, -1, e], np.int64)), True)
        return full

    k, v = keys("k", 0.02), keys("v", 0.03)
    if kv == "elsewhere":
        x = param("x", [1, 3], "f32")
        var = _variable("other", [1, 3])
        y = opset1.add(opset6.read_value(x, var), x)
        sinks.append(opset6.assign(y, var))
        results.append(o.result(y))
    args = [q.output(0), k.output(0), v.output(0)]
    if mask == "scalar":
        args.append(o.constant(ft(0)).output(0))
    elif mask is not None:
        args.append(param("mask", [b, 1, q_len, -1 if kv.startswith("cache") else ms], mask).output(0))
    elif sink:
        args.append(o.constant(ft(0)).output(0))
    if sink:
        args += [o.constant(ft(0.125)).output(0), o.constant(np.zeros((1, h, 1, 1), ft)).output(0)]
    node = NodeFactory("opset13").create("ScaledDotProductAttention", args, {"causal": False})
    y = opset1.reshape(o.transpose(node, o.constant(np.array([0, 2, 1, 3], np.int64))),
                       o.constant(np.array([0, 0, h * e], np.int64)), True)
    y = opset1.matmul(y, o.constant(np.full((d, h * e), 0.04, ft)), False, True)
    return ov.Model([o.result(y), *results], sinks, params, "m")


def _sdpa_key(kv: str, mask: str | None, sink: bool, dynamic: str) -> tuple:
    """The feature a probe of :func:`_attention` is for (that of :func:`irreshape.checks.plugin._sdpa`)."""
    state = "stateless" if kv == "input" else "stateful"
    shape = "static" if dynamic == "none" and not kv.startswith("cache") else "dynamic"
    if kv.startswith("cache") and dynamic == "none":
        shape = "cache-static"
    if mask == "boolean" or not sink:
        return ("sdpa-mask", mask if mask != "scalar" else "f32", shape, state)
    return ("sdpa-sink", state, shape)


def sdpa_state_cases() -> Iterator[Case]:
    """ScaledDotProductAttention-13 with a boolean mask or an attention sink, in models without and with variables
    (its keys read from a variable, concatenated to a KV cache, or a variable elsewhere), each dim dynamic or not,
    with grouped keys; the controls: masks of f32 and f16 and a scalar mask, static shapes."""
    kinds = ("input", "cache", "cache-nobeam", "state", "elsewhere")
    for kv in kinds:
        for mask, sink in (("boolean", False), ("f32", True), ("scalar", True), ("boolean", True), ("f32", False),
                           ("f16", False)):
            for dynamic in ("all", "batch", "mask", "q", "none"):
                if kv.startswith("cache") and dynamic in ("mask", "q"):
                    continue  # a cache's key length is dynamic: "batch" and "none" already cover it
                if mask == "scalar" and dynamic == "mask" or mask in ("f32", "f16") and not sink \
                        and dynamic not in ("all", "none"):
                    continue
                for heads in ((4, 4), (4, 2)) if dynamic in ("all", "none") else ((4, 4),):
                    try:
                        made = _save(_attention(kv, mask, sink, dynamic, heads))
                    except Exception:  # noqa: BLE001  a shape OpenVINO refuses so
                        continue
                    yield Case(_slug("sdpa", kv, mask, "sink" if sink else "", dynamic, f"{heads[0]}x{heads[1]}"),
                               _sdpa_key(kv, mask, sink, dynamic), *made)


def _mha(q: str, kv: str, out: str, sink: bool, dynamic: bool = True, heads: tuple[int, int] = (4, 4),
         explicit: bool = False):
    """ScaledDotProductAttention-13 without variables, its query and keys/values ``q``, ``kv`` "proj" (projected
    from an input: MatMul, Reshape, Transpose), "input" (model inputs as they are: a decoder's cross-attention
    past, exported stateless) or "relu" (an op on a model input); only the keys ("k-input") or the values
    ("v-input") inputs; ``out``: what uses its output: "matmul" (transposed, reshaped, projected by a MatMul of
    constant weights), "add-matmul" (a residual Add before it), "matmul-input" (a MatMul by a model input),
    "result", "flat" (transposed and reshaped, a model output), "add" (that plus a residual, a model output); a
    mask input; ``sink``: a scale and an attention sink; ``heads`` as in :func:`_attention`."""
    import openvino as ov
    from openvino import opset1
    from openvino import opset13 as o
    from openvino.utils.node_factory import NodeFactory

    h, hkv = heads
    b, q_len, s, e, d = (-1, -1, -1, 8, 32) if dynamic else (1, 4, 6, 8, 32)
    params = []

    def param(name, shape):
        params.append(o.parameter(shape, ov.Type.f32, name=name))
        return params[-1]

    def const(a):
        return o.constant(np.array(a, np.int64))

    x, y = param("x", [b, q_len, d]), param("y", [b, s, d])

    def source(name, how, n, val):
        length = q_len if name == "q" else s
        if how == "input" or how == f"{name}-input":
            t = param(name, [b, n, length, e])
        elif how == "relu":
            t = opset1.relu(param(name, [b, n, length, e]))
        else:
            w = o.constant(np.full((n * e, d), val, np.float32))
            t = o.transpose(opset1.reshape(opset1.matmul(x if name == "q" else y, w, False, True),
                                           const([0, -1, n, e]), True), const([0, 2, 1, 3]))
        if name != "q" and n != h:
            t = o.broadcast(o.unsqueeze(t, o.constant([2])), const([1, 1, h // n, 1, 1]),
                            broadcast_spec="BIDIRECTIONAL")
            t = opset1.reshape(t, const([0, h, -1, e]), True)
        return t

    args = [source("q", q, h, 0.01).output(0), source("k", kv, hkv, 0.02).output(0),
            source("v", kv, hkv, 0.03).output(0), param("mask", [b, 1, q_len, s]).output(0)]
    if sink:
        args += [o.constant(np.float32(0.125)).output(0), o.constant(np.zeros((1, h, 1, 1), np.float32)).output(0)]
    if explicit:
        scores = opset1.multiply(opset1.matmul(args[0], args[1], False, True), o.constant(np.float32(0.35)))
        a = opset1.matmul(opset1.softmax(opset1.add(scores, args[3]), 3), args[2], False, False)
    else:
        a = NodeFactory("opset13").create("ScaledDotProductAttention", args, {"causal": False})
    flat = opset1.reshape(o.transpose(a, const([0, 2, 1, 3])), const([0, 0, h * e]), True)
    w = o.constant(np.full((d, h * e), 0.05, np.float32))
    r = {"matmul": lambda: opset1.matmul(flat, w, False, True),
         "add-matmul": lambda: opset1.matmul(opset1.add(flat, x), w, False, True),
         "matmul-input": lambda: opset1.matmul(flat, param("w", [d, h * e]), False, True),
         "result": lambda: a, "flat": lambda: flat, "add": lambda: opset1.add(flat, x)}[out]()
    return ov.Model([o.result(r)], params, "m")


def sdpa_mha_cases() -> Iterator[Case]:
    """ScaledDotProductAttention-13 outside a KV cache (it becomes a MatMul-Softmax-MatMul subgraph), and that
    subgraph written out (MatMul, Multiply, Add, Softmax, MatMul): keys, values or both that are model inputs as
    they are, an output no MatMul uses (a model output, through Transpose, Reshape, Add or not), with and without
    a sink, static and dynamic; the controls: projected keys and values, an op on the inputs, grouped keys (input
    keys broadcast to the query's heads), the output projected (also through a residual Add, also by a MatMul of a
    model input), a query that is an input."""
    inputs_of = {"proj": "computed", "relu": "computed", "input": "kv-input", "k-input": "k-input",
                 "v-input": "v-input"}
    for q, kv in (("proj", "proj"), ("proj", "input"), ("proj", "k-input"), ("proj", "v-input"), ("proj", "relu"),
                  ("input", "proj")):
        for out in ("matmul", "add-matmul", "matmul-input", "result", "flat", "add"):
            for sink in (False, True):
                for dynamic, heads in ((True, (4, 4)), (False, (4, 4)), (True, (4, 2))):
                    if (dynamic, heads) != (True, (4, 4)) and (out not in ("matmul", "result") or q != "proj"):
                        continue
                    inputs = inputs_of[kv] if heads == (4, 4) else "computed"
                    use = "output" if out in ("result", "flat", "add") else "matmul"
                    key = ("sdpa-mha", inputs, use, "dynamic" if dynamic else "static")
                    if sink:  # the feature of an attention with a sink: sdpa-sink (of these, 2025.3 refuses some)
                        key = ("sdpa-sink", "stateless", "dynamic" if dynamic else "static")
                    yield Case(_slug("mha", q, kv, out, "sink" if sink else "", "dyn" if dynamic else "static",
                                     f"{heads[0]}x{heads[1]}"), key, *_save(_mha(q, kv, out, sink, dynamic, heads)))
    for kv in ("proj", "input", "k-input", "v-input"):  # written out as MatMul, Softmax, MatMul
        for out in ("matmul", "result", "add"):
            for dynamic in (True, False):
                key = ("mha", inputs_of[kv], "output" if out in ("result", "add") else "matmul",
                       "dynamic" if dynamic else "static")
                yield Case(_slug("mha", "explicit", kv, out, "dyn" if dynamic else "static"), key,
                           *_save(_mha("proj", kv, out, False, dynamic, explicit=True)))


def _dequantized(t: str, shape: tuple, scale_shape: tuple, zero_point: bool, via: str, scale: bool = True,
                 scale_first: bool = False):
    """A Const of type ``t`` (values 1) converted to ``via``, its zero point (a Const of ``t`` converted alike)
    subtracted, multiplied by a scale (of ``via``; first or second input): NNCF's decompression subgraph."""
    import openvino as ov
    from openvino import opset1, opset8

    d = opset1.convert(opset8.constant(np.ones(shape, np.float32), dtype=getattr(ov.Type, t)), via)
    if zero_point:
        zp = opset8.constant(np.ones(scale_shape, np.float32), dtype=getattr(ov.Type, t))
        d = opset1.subtract(d, opset1.convert(zp, via))
    if scale:
        s = opset8.constant(np.full(scale_shape, 0.5, np.float16 if via == "f16" else np.float32))
        d = opset1.multiply(s, d) if scale_first else opset1.multiply(d, s)
    return d


def _weights_model(t: str, use: str, layout: str, zero_point: bool, via: str, scale: bool = True,
                   dynamic: bool = True):
    """A model whose weights of type ``t`` are decompressed (:func:`_dequantized`; ``layout`` "channel": [8, 32]
    with a scale per row, "group": [8, 2, 16] with a scale per group of 16, then reshaped to [8, 32]) and used by
    ``use``: "matmul" (the second input, transposed), "matmul-first" (the first input), "matmul-plain" ([32, 8],
    not transposed), "matmul-3d" (a 3-D activation), "scale-first" (the scale the Multiply's first input),
    "gather" (an embedding table looked up by ids), "add" (added to the input), "conv" (1x1 convolution weights)."""
    import openvino as ov
    from openvino import opset1, opset8

    n, k, gs = 8, 32, 16
    batch = -1 if dynamic else 2

    def weights(shape=(n, k), scale_shape=(n, 1), scale_first=False):
        if layout == "group":
            grouped = (shape[0], shape[1] // gs, gs)
            d = _dequantized(t, grouped, (shape[0], shape[1] // gs, 1), zero_point, via, scale, scale_first)
            d = opset1.reshape(d, opset8.constant(np.array(shape, np.int64)), False)
        else:
            d = _dequantized(t, shape, scale_shape, zero_point, via, scale, scale_first)
        return opset1.convert(d, "f32") if via == "f16" else d

    if use == "conv":
        x = opset1.parameter([batch, k, 4, 4], ov.Type.f32, name="x")
        w = opset1.reshape(weights(), opset8.constant(np.array([n, k, 1, 1], np.int64)), False)
        y = opset1.convolution(x, w, [1, 1], [0, 0], [0, 0], [1, 1])
    elif use == "gather":
        x = opset1.parameter([batch], ov.Type.i64, name="ids")
        y = opset8.gather(weights(), x, opset8.constant(np.int64(0)))
    elif use == "matmul-3d":
        x = opset1.parameter([batch, batch, k], ov.Type.f32, name="x")
        y = opset1.matmul(x, weights(), False, True)
    else:
        x = opset1.parameter([batch, k], ov.Type.f32, name="x")
        if use == "matmul-first":
            y = opset1.matmul(weights(), x, False, True)
        elif use == "matmul-plain":
            y = opset1.matmul(x, weights((k, n), (1, n)) if layout != "group" else
                              opset1.transpose(weights(), opset8.constant(np.array([1, 0]))), False, False)
        elif use == "add":
            y = opset1.add(x, opset8.gather(weights(), opset8.constant(np.array([0, 1])), opset8.constant(0)))
        else:
            y = opset1.matmul(x, weights(scale_first=use == "scale-first"), False, True)
    return ov.Model([opset1.result(y)], [x], "m")


DEQUANTIZED = ("u4", "i4", "nf4", "u8", "i8", "u2", "u3", "u6", "u1", "f4e2m1", "f8e4m3", "f8e5m2")


def decompress_matmul_cases() -> Iterator[Case]:
    """Weights of each packed and 8-bit type decompressed by a scale (NNCF's Convert, a zero point subtracted or
    not, Multiply; per row or per group, then reshaped; through f16 or f32) into a MatMul, as either input, 2-D
    or 3-D; the controls: the same weights into a Convolution, an Add and an embedding Gather, and a Convert
    without a scale into a MatMul (each keeps the key of :func:`decompress_cases`)."""
    for t in DEQUANTIZED:
        fp = t.startswith("f")
        for use in ("matmul", "matmul-first", "matmul-plain", "matmul-3d", "scale-first"):
            for layout in ("channel", "group"):
                for zero_point in (False,) if fp else (False, True):
                    for via in ("f16", "f32"):
                        if use != "matmul" and (layout == "group" or via == "f32"):
                            continue
                        for dynamic in (True, False) if use == "matmul" else (True,):
                            model = _weights_model(t, use, layout, zero_point, via, dynamic=dynamic)
                            yield Case(_slug("dqmm", t, use, layout, "zp" if zero_point else "", via,
                                             "dyn" if dynamic else "static"), ("decompress-matmul", t), *_save(model))
        for use, scale in (("conv", True), ("add", True), ("gather", True), ("matmul", False)):
            for zero_point in (False,) if fp else (False, True):
                model = _weights_model(t, use, "channel", zero_point, "f16", scale=scale)
                yield Case(_slug("dqctl", t, use if scale else "noscale", "zp" if zero_point else ""),
                           ("decompress", t), *_save(model))


def decompress_gather_cases() -> Iterator[Case]:
    """An embedding table of each packed and 8-bit type decompressed per row with a zero point through f16
    (Convert f16, Subtract, Multiply, Convert f32) and looked up by a Gather, as NNCF writes an int4 embedding
    per channel; the controls: through f32, without a zero point, grouped and reshaped."""
    for t in DEQUANTIZED:
        if t.startswith("f"):
            continue
        for layout, zero_point, via in (("channel", True, "f16"), ("channel", True, "f32"), ("channel", False, "f16"),
                                        ("group", True, "f16")):
            for dynamic in (True, False):
                key = ("decompress-gather", t, ",".join([via] + ["zp"] * zero_point + ["groups"] * (layout == "group")))
                model = _weights_model(t, "gather", layout, zero_point, via, dynamic=dynamic)
                name = _slug("dqgather", t, layout, "zp" if zero_point else "", via, "dyn" if dynamic else "static")
                yield Case(name, key, *_save(model))


def _codebook_model(codebook: str = "f8e4m3", index: str = "u4", index_via: str | None = "u8", scale: bool = True,
                    reshape: bool = True, via: str = "f16", use: str = "matmul", dynamic: bool = True):
    """NNCF's codebook compression (cb4): a 1-D codebook Const (converted to ``via``) looked up by a Gather with
    Const indices of ``index`` (converted to ``index_via``), multiplied by a scale per group, reshaped, converted
    to f32, into a MatMul (``use`` "matmul") or an Add ("add")."""
    import openvino as ov
    from openvino import opset1, opset8

    n, k, gs = 16, 32, 16
    book = opset8.constant(np.linspace(-1, 1, 16).astype(np.float32), dtype=getattr(ov.Type, codebook))
    book = opset1.convert(book, via) if codebook != via else book
    ids = opset8.constant((np.arange(n * k) % 16).reshape(n, k // gs, gs).astype(np.float32),
                          dtype=getattr(ov.Type, index))
    if index_via:
        ids = opset1.convert(ids, index_via)
    d = opset8.gather(book, ids, opset8.constant(np.int64(0)))
    if scale:
        half = np.float16 if via == "f16" else np.float32
        d = opset1.multiply(d, opset8.constant(np.full((n, k // gs, 1), 0.5, half)))
    d = opset1.reshape(d, opset8.constant(np.array([n, k], np.int64)), False) if reshape else d
    d = opset1.convert(d, "f32") if via == "f16" else d
    x = opset1.parameter([-1 if dynamic else 2, k], ov.Type.f32, name="x")
    if not reshape:
        d = opset1.reshape(d, opset8.constant(np.array([n, k], np.int64)), False)
    if use == "add":
        y = opset1.add(x, opset8.gather(d, opset8.constant(np.array([0, 1])), opset8.constant(0)))
    else:
        y = opset1.matmul(x, d, False, True)
    return ov.Model([opset1.result(y)], [x], "m")


def codebook_cases() -> Iterator[Case]:
    """NNCF's codebook compression into a MatMul with indices of each type at the Gather (u4 as written and
    converted to u8 or i8, u8, i8; the controls u16, i32 and u4 converted to i32), codebooks of f8e4m3, f8e5m2,
    f16 and f32, without the scale or the Reshape, static and dynamic."""
    variants = {
        "base": {}, "static": dict(dynamic=False), "book-f16": dict(codebook="f16"),
        "book-f32": dict(codebook="f32", via="f32"), "book-f8e5m2": dict(codebook="f8e5m2"),
        "noscale": dict(scale=False), "noscale-static": dict(scale=False, dynamic=False),
        "noreshape": dict(reshape=False), "via-f32": dict(via="f32"),
        "u4": dict(index_via=None), "u4-i8": dict(index_via="i8"), "u8": dict(index="u8", index_via=None),
        "i8": dict(index="i8", index_via=None), "u16": dict(index="u16", index_via=None),
        "i32": dict(index="i32", index_via=None), "u4-i32": dict(index_via="i32"), "u8-i32": dict(index="u8",
                                                                                                  index_via="i32"),
    }
    for name, kw in variants.items():
        at = kw.get("index_via", "u8") or kw.get("index", "u4")
        yield Case(_slug("codebook", name), ("codebook-matmul", at), *_save(_codebook_model(**kw)))


def _cross_attention(*, k: str = "state", v: str = "state", mask: str = "bool", mask_from_states: bool = True,
                     after: int = 1, weights: str = "f32", scale: bool = True, states: bool = True,
                     residual: bool = False, dynamic: bool = True):
    """A seq2seq decoder's cross-attention as optimum-intel's stateful export writes it: the encoder's states
    kept in a variable (``states``; else a model input), each of the keys and values (``k``, ``v``) projected
    from them by a MatMul of constant weights (``weights`` f32, f16 converted, u8 decompressed) into the initial
    value of a variable of their own ("state"), the same variable for both ("shared"), or used as computed
    ("direct") or a model input ("input"); the mask ("bool": a boolean input broadcast and made -65504/0 by a
    Select, "f32": an f32 input broadcast, "zeros", "scalar") broadcast to a shape whose key length is the
    encoder states' (``mask_from_states``; else a shape input); ``after`` MatMuls of constant weights after the
    attention (a residual Add and an MVN before them with ``residual``)."""
    import openvino as ov
    from openvino import opset1, opset6, opset8
    from openvino import opset13 as o
    from openvino.utils.node_factory import NodeFactory

    d, h, e = 32, 4, 8
    b, s, q_len = (-1, -1, -1) if dynamic else (1, 6, 4)
    params, sinks = [], []

    def param(name, shape, t="f32"):
        params.append(o.parameter(shape, getattr(ov.Type, t), name=name))
        return params[-1]

    def const(a):
        return o.constant(np.array(a, np.int64))

    def w(val):
        a = np.full((d, d), val, np.float32)
        if weights == "f16":
            return opset1.convert(o.constant(a.astype(np.float16)), "f32")
        if weights == "u8":
            q8 = opset1.convert(opset8.constant(np.full((d, d), 3, np.float32), dtype=ov.Type.u8), "f16")
            zp = opset1.convert(opset8.constant(np.full((d, 1), 2, np.float32), dtype=ov.Type.u8), "f16")
            return opset1.convert(opset1.multiply(opset1.subtract(q8, zp), o.constant(np.full((d, 1), val,
                                                                                                 np.float16))), "f32")
        return o.constant(a)

    encoder = param("encoder_hidden_states", [b, s, d])
    if states:
        var = _variable("encoder_hidden_states", [b, s, d])
        encoder = opset6.read_value(encoder, var)
        sinks.append(opset6.assign(encoder, var))

    def heads(x):
        return o.transpose(opset1.reshape(x, const([0, -1, h, e]), True), const([0, 2, 1, 3]))

    shared = heads(opset1.matmul(encoder, w(0.01), False, True))
    made = {}

    def projected(name, how, val):
        if how == "input":
            return param(name, [b, h, s, e])
        x = shared if how == "shared" else heads(opset1.matmul(encoder, w(val), False, True))
        if how == "direct":
            return x
        made[name] = made.get(name) or _variable(f"cross_{name}", [b, h, s, e])
        rv = opset6.read_value(x, made[name])
        sinks.append(opset6.assign(rv, made[name]))
        return rv

    q = param("q", [b, h, q_len, e])
    keys, values = projected("k", k, 0.02), projected("v", v, 0.03)
    if mask_from_states:
        length = opset8.gather(o.shape_of(encoder), const([1]), const(0))
        shape = o.concat([param("batch", [1], "i64"), const([1]), param("length", [1], "i64"), length], 0)
    else:
        shape = param("mask_shape", [4], "i64")
    if mask == "bool":
        m = o.broadcast(param("mask", [b, 1, -1 if dynamic else q_len, -1 if dynamic else s], "boolean"), shape)
        m = o.select(m, o.constant(np.float32(0)), o.constant(np.float32(-65504)))
    elif mask == "f32":
        m = o.broadcast(param("mask", [b, 1, -1 if dynamic else q_len, -1 if dynamic else s]), shape)
    elif mask == "zeros":
        m = o.broadcast(o.constant(np.float32(0)), shape)
    else:
        m = o.constant(np.float32(0))
    args = [q.output(0), keys.output(0), values.output(0), m.output(0)]
    if scale:
        args.append(o.constant(np.float32(0.35)).output(0))
    y = NodeFactory("opset13").create("ScaledDotProductAttention", args, {"causal": False})
    y = opset1.reshape(o.transpose(y, const([0, 2, 1, 3])), const([0, 0, d]), True)
    if residual:
        y = o.mvn(opset1.add(y, param("residual", [b, q_len, d])), const([-1]), True, 1e-5, "inside_sqrt")
    for i in range(after):
        y = opset1.matmul(y, w(0.04 + i / 100), False, True)
    return ov.Model([o.result(y)], sinks, params, "m")


CROSS_ATTENTION = {  # name: (keyword arguments, is it a probe of the feature)
    "both": ({}, True), "k-input": (dict(k="input"), True), "k-direct": (dict(k="direct"), True),
    "v-input": (dict(v="input"), True),
    "mask-f32": (dict(mask="f32"), True), "mask-zeros": (dict(mask="zeros"), True),
    "noscale": (dict(scale=False), True),
    "weights-f16": (dict(weights="f16"), True), "weights-u8": (dict(weights="u8"), True),
    "residual": (dict(residual=True), True), "after-3": (dict(after=3), True),
    # near misses: each lacks one part of the condition
    "shared": (dict(k="shared", v="shared"), False), "after-0": (dict(after=0), False),
    "inputs": (dict(states=False), False), "mask-shape-input": (dict(mask_from_states=False), False),
    "mask-scalar": (dict(mask="scalar"), False), "direct": (dict(k="direct", v="direct"), False),
}


def cross_attention_cases() -> Iterator[Case]:
    """Probes of the cross-attention of seq2seq decoders (:func:`_cross_attention`): the variants of
    :data:`CROSS_ATTENTION` that hold the feature (the near misses are :func:`near_misses`)."""
    for name, (kw, probe) in CROSS_ATTENTION.items():
        if probe:
            yield Case(_slug("xattn", name), ("sdpa-state-init", "dynamic"), *_save(_cross_attention(**kw)))


def near_misses() -> Iterator[tuple[str, tuple, str, bytes]]:
    """(name, the feature it must NOT hold, xml, weights) of the models one part short of a feature of today's
    exports (tests check irreshape does not find it in them; scripts/make_plugins.py does not compile them)."""
    for name, (kw, probe) in CROSS_ATTENTION.items():
        if not probe:
            yield (f"xattn_{name}", ("sdpa-state-init", "dynamic"), *_save(_cross_attention(**kw)))
    for name, kw in {"use-add": dict(use="add")}.items():
        yield (f"codebook_{name}", ("codebook-matmul", "u8"), *_save(_codebook_model(**kw)))
    for t in ("u4", "nf4"):
        for use, scale in (("conv", True), ("add", True), ("gather", True), ("matmul", False)):
            yield (f"dqmm_{t}_{use}_{scale}", ("decompress-matmul", t),
                   *_save(_weights_model(t, use, "channel", True, "f16", scale=scale)))


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
                   check_cases(), if_cases(), back_edge_cases(), quantized_cases(), sdpa_state_cases(),
                   sdpa_mha_cases(), decompress_matmul_cases(), decompress_gather_cases(), codebook_cases(),
                   cross_attention_cases()):
        out.extend(family)
    seen: set[str] = set()
    for c in out:
        assert c.name not in seen, c.name
        seen.add(c.name)
    return out
