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
        yield Case(_slug("rank", "If", use), ("rank", "If"), *_save(ov.Model([o.result(y)], [x, c], "m")))


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


def cases() -> list[Case]:
    """Every case, in a stable order."""
    ops = list(op_cases())
    out: list[Case] = list(ops)
    for family in (param_cases(), rank_cases(), attr_cases(ops), sdpa_cases(), decompress_cases()):
        out.extend(family)
    seen: set[str] = set()
    for c in out:
        assert c.name not in seen, c.name
        seen.add(c.name)
    return out
