"""What a model holds that OpenVINO's CPU plugin may refuse once ``read_model`` has read it: the features of the
compile-stage table (:mod:`irreshape.shapes.plugins`, measured with each release's own wheel by
scripts/make_plugins.py).

Each detector below finds one kind of feature in the whole-graph reading (element types and shapes as OpenVINO
infers them), the bodies of TensorIterators, Loops and Ifs included; a feature is a key of the table, and the
table says which releases' CPU plugin refuses it (at ``compile_model``, by a crash, or at the first inference) and
in what words. A detector knows nothing of releases: :func:`irreshape.shapes.compiles.refusals` applies the table.

Features (each measured on small models that hold it and on real files; see scripts/make_plugins.py):

* ``("op", type, version)``: an op version, whatever its configuration (Identity-16 has no CPU implementation on
  2025.0 to 2025.3);
* ``("param", etype)``: a model input (a Parameter of the main graph) of that element type;
* ``("rank", type)``: a layer of that type that makes a tensor of dynamic rank from inputs of static rank (or a
  Parameter of dynamic rank), where something uses it;
* ``("attr-empty", type, version, attribute)``: a list attribute written empty (``dilations=""``, as openvino's
  own Python builder writes AvgPool-16's);
* ``("sdpa-mask", etype, "static" | "dynamic", "stateful" | "stateless")``: ScaledDotProductAttention's attention
  mask of that element type, its inputs (query, keys, values, mask) all of static shape or not, in a model with
  variables (ReadValue, Assign: wherever they are) or without;
* ``("sdpa-sink", "stateful" | "stateless", "static" | "dynamic")``: ScaledDotProductAttention with the
  attention-sink input (6 inputs), likewise; not where the mask is boolean (the mask's refusal comes first on every
  release that refuses both: measured);
* ``("decompress", etype)``: a Const of that element type converted (Convert) to a floating-point type, as weight
  compression writes it;
* ``("rnn-weights", type, version)``: an RNN cell or sequence whose W, R or B input is no constant;
* ``("bool-out", type)``: IsFinite, IsInf or IsNaN whose boolean output no Result takes (but a lone logical op);
  ``("bool-in", type)``: a layer of that type on such an output that a Result takes too;
* ``("if-rank", "runtime" | "same-value" | "unknown"[, type])``: an If making tensors of dynamic rank, by the kind
  of its condition (a value compared with itself is folded from 2026.0; the op type the dynamic rank then reaches
  where 2026.0 refuses it);
* ``("back-edge", type, "static-change" | "rank-change" | "dynamic-rank" | "growing")``: a Loop's or
  TensorIterator's back edge that changes its value's shape (static inputs: where the first inference is measured);
* ``("ti-cell", type, version, outputs)``: a TensorIterator over one RNN cell, as a CPU plugin turns into a
  sequence, by its outputs ("concat+last", "last", "concat-unused+last"...; static inputs);
* ``("concat-fq-convert", etype)``: a Concat's FakeQuantize whose one user is a Convert to that type.
* ``("decompress-matmul", etype)``: such a Const decompressed by a scale (Convert, a zero point subtracted or not,
  Multiply), reshaped or converted, into a MatMul (either input);
* ``("decompress-gather", etype, form)``: such a Const, decompressed alike, the table an embedding Gather looks up;
  ``form`` the decompression's float type, ``zp`` where a zero point is subtracted, ``groups`` where it is reshaped
  ("f16,zp");
* ``("codebook-matmul", etype)``: a Gather of a 1-D Const codebook by Const indices (of that element type at the
  Gather), scaled, reshaped or converted into a MatMul: NNCF's codebook compression (cb4);
* ``("sdpa-mha", inputs, use, "static" | "dynamic")``: ScaledDotProductAttention without a sink outside a KV cache
  (the CPU plugin makes it a MatMul-Softmax-MatMul subgraph), ``inputs`` "kv-input", "k-input", "v-input" where
  its keys, values or both are model inputs as they are (a stateless seq2seq decoder's cross-attention past), else
  "computed"; ``use`` "matmul" where a MatMul is computed from its output, else "output"; ``("mha", inputs, use,
  "static" | "dynamic")``: the same attention written out (MatMul, Softmax, MatMul: T5's export), on the Softmax;
* ``("sdpa-state-init", "static" | "dynamic")``: a seq2seq decoder's cross-attention as optimum-intel's stateful
  export writes it: ScaledDotProductAttention whose keys or values are a variable (ReadValue) initialised by a
  MatMul of constant weights, of the encoder states kept in another variable, that path its own, the attention
  mask shaped by the encoder states (a ShapeOf of their variable), and a MatMul of constant weights after the
  attention; the model's inputs all of static shape or not (the static model compiles where the dynamic one does
  not: measured on a committed export reshaped).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..shapes.versions import resolve

if TYPE_CHECKING:
    from ..frontends.openvino.model import IRModel, Layer
    from .graph import Graph

_LISTS = frozenset({"ints", "sizes", "u64s", "i32s", "reals", "strs"})


@dataclass(frozen=True, slots=True)
class Instance:
    """One feature of the compile-stage table found on one layer: ``key`` the table's, ``what`` it in words
    ("Identity-16", "a model input of type i4"), ``name`` the layer's name as a release's words give it."""

    layer: "Layer"
    key: tuple
    what: str

    @property
    def name(self) -> str:
        return self.layer.name


def instances(model: "IRModel", graph: "Graph", every: bool = False) -> list[Instance]:
    """The features of ``model`` (its reading ``graph``) that some release refuses (``every``: all of them, as
    scripts/make_plugins.py asks of its probes), bodies included, in file order. Only the detectors of the kinds
    of features the table holds run (on the op types it holds them for)."""
    from ..shapes.compiles import refused_keys

    want = _EVERY if every else _wanted(refused_keys())
    keys = None if every else refused_keys()
    stateful = want.kind(*_SDPA_KINDS) and _stateful(model)
    out = [i for i in _features(model, graph, stateful, want) if keys is None or i.key in keys]
    out.sort(key=lambda i: i.layer.line)
    seen: set = set()  # one instance of a feature a layer holds (two checks into one LogicalOr)
    return [i for i in out if not ((id(i.layer), i.key) in seen or seen.add((id(i.layer), i.key)))]


class _Want:
    """Which detectors run: the kinds of features (a key's first item) and, for the kinds keyed by the op type of
    the layer they are on, the (kind, op type) pairs."""

    __slots__ = ("kinds", "pairs")

    def __init__(self, keys) -> None:
        self.kinds = frozenset(k[0] for k in keys)
        self.pairs = frozenset(k[:2] for k in keys)

    def kind(self, *kinds: str) -> bool:
        return any(k in self.kinds for k in kinds)

    def pair(self, kind: str, op: str) -> bool:
        return (kind, op) in self.pairs


class _All(_Want):
    def __init__(self) -> None:
        pass

    def kind(self, *kinds: str) -> bool:
        return True

    def pair(self, kind: str, op: str) -> bool:
        return True


_EVERY = _All()


@lru_cache(maxsize=4)
def _wanted(keys: frozenset) -> _Want:
    return _Want(keys)


def every_feature(model: "IRModel", every: bool = True) -> list[Instance]:
    """Every feature of a parsed model, whatever the table holds (what scripts/make_plugins.py asks of its probes;
    ``every`` false: those of the table, as a check finds them): the whole graph read as a check reads it."""
    from .graph import Graph

    graph = Graph(model)
    try:
        for layer in model.layers.values():
            for port in layer.outputs:
                graph.shape(port)  # the bodies' readings are made as their layers are inferred
        return instances(model, graph, every=every)
    finally:
        graph.weights.close()


def _stateful(model: "IRModel") -> bool:
    return any(layer.kind in ("readvalue", "assign") or layer.type in ("ReadValue", "Assign")
               for layer in model.layers.values())


@lru_cache(maxsize=4096)
def _resolved(type: str, version: str) -> tuple[str, int] | None:
    found = resolve(type, version)
    return None if found is None or isinstance(found, str) else found


_SDPA_KINDS = ("sdpa-mask", "sdpa-sink")
_UNPACKED = frozenset({"f32", "f16", "bf16", "f64", "i64", "i32"})  # weights no decompression starts from
# the features of today's exports by the op type of the layer their detector starts from (:func:`_today`)
_TODAY_FROM = {"Constant": ("decompress-matmul", "decompress-gather"), "Gather": ("codebook-matmul",),
               "ScaledDotProductAttention": ("sdpa-mha", "sdpa-state-init"), "Softmax": ("mha",)}


def _features(model: "IRModel", graph: "Graph", stateful: bool, want: _Want) -> Iterator[Instance]:
    from .bodies import readings
    from .graph import READ

    params, sdpa, decompress = want.kind("param"), want.kind(*_SDPA_KINDS), want.kind("decompress")
    today = frozenset(op for op, kinds in _TODAY_FROM.items() if want.kind(*kinds))
    for layer in model.layers.values():
        found = _resolved(layer.type, layer.version)
        if found is None:
            continue
        op, v = found
        if want.pair("op", op):
            yield Instance(layer, ("op", op, v, len(layer.inputs)), f"{op}-{v}")
        if op == "Parameter" and not graph.nested and layer.outputs and params:
            t = graph.etype(layer.outputs[0])
            if t is not None:
                yield Instance(layer, ("param", t), f"a model input of type {t}")
        if want.pair("rank", op):
            yield from _rank(layer, graph, op, READ)
        if layer.data and want.pair("attr-empty", op):
            yield from _empty(layer, op, v, f"{op}-{v}")
        if op in _RECURRENT_AND_CONTROL:
            yield from _recurrent_and_control(layer, graph, op, v, want)
        if op == "Constant":
            if layer.outputs and (layer.data.get("element_type") or "") not in _UNPACKED:  # packed weights
                if decompress:
                    yield from _decompress(layer, graph)
                if op in today:
                    yield from _today(layer, graph, op)
        elif op in today:
            yield from _today(layer, graph, op)
        if op == "ScaledDotProductAttention" and sdpa:
            yield from _sdpa(layer, graph, stateful)
        if layer.bodies:
            for body, inner in readings(layer, graph):
                yield from _features(body.model, inner, stateful, want)


def _used(graph: "Graph", layer: "Layer", port) -> bool:
    return bool(graph.model.consumers(layer.id, port.id))


def _rank(layer: "Layer", graph: "Graph", op: str, read: tuple) -> Iterator[Instance]:
    """The layer makes a tensor of dynamic rank that something uses, from inputs of static rank (a Parameter:
    declared so); the rank is OpenVINO's (not taken from the XML)."""
    if op == "If" or (op == "Parameter" and graph.nested):
        return  # an If's dynamic rank is _if_rank's (its condition decides), a body's Parameter's its outer input's
    for port in layer.outputs:
        if graph.shape(port) is not None or graph.origin(port) not in read or not _used(graph, layer, port):
            continue
        if all(p.source is None or graph.shape(p.source) is not None for p in layer.inputs):
            yield Instance(layer, ("rank", op), f"{op} '{layer.name}' making a tensor of dynamic rank")
        return


def _empty(layer: "Layer", op: str, v: int, what: str) -> Iterator[Instance]:
    """A list attribute written empty."""
    if not layer.data:
        return
    from ..shapes.opsets import DEFAULTS
    from ..shapes.schema import schema_of

    empty = [k for k, text in layer.data.items() if not text.strip()]
    if not empty:
        return
    kinds = {a.name: a.kind for a in schema_of(op, v, DEFAULTS.get((op, v))).attrs}
    for name in empty:
        if kinds.get(name) in _LISTS:
            yield Instance(layer, ("attr-empty", op, v, name), f"{what} with an empty {name} attribute")


def _sdpa(layer: "Layer", graph: "Graph", stateful: bool) -> Iterator[Instance]:
    """The mask's element type and the sink, with the shapes (static or not; "cache-static" a KV cache read by a
    query of static shape) and the model's variables: a boolean mask or a sink with a dynamic dim fails 2023.3 in a
    model without variables and 2023.3 to 2024.6 in one with them, wherever the variables are (measured:
    tests/irtools/plugincases.py sdpa_state_cases)."""
    ins = layer.inputs
    state = "stateful" if stateful else "stateless"
    shape = _static_ports(graph, ins[:4])
    if shape == "dynamic" and len(ins) > 1 and _in_cache(_behind(_source(layer, 1))) \
            and _static_ports(graph, ins[:1]) == "static":
        shape = "cache-static"  # a KV cache read by a query of static shape
    t = None
    if len(ins) > 3 and ins[3].source is not None:
        t = graph.etype(ins[3].source)
        yield Instance(layer, ("sdpa-mask", t, shape, state),
                       f"ScaledDotProductAttention-13 with an attention mask of type {t}"
                       + (" in a stateful model" if stateful and t == "boolean" else ""))
    if len(ins) > 5 and t != "boolean":
        yield Instance(layer, ("sdpa-sink", state, shape), "ScaledDotProductAttention-13 with an attention sink"
                       + (" in a stateful model" if stateful else ""))


def _decompress(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """A Const converted to a floating-point type: the weights of a compressed model."""
    t = (layer.data.get("element_type") or "").strip().lower()
    if not t or t in _UNPACKED:
        return
    for user, _ in _users(graph, layer):
        if user.type == "Convert" and user.outputs and (graph.etype(user.outputs[0]) or "").startswith(("f", "bf")):
            yield Instance(layer, ("decompress", t), f"{t} weights converted to floating point")
            return


# -- recurrent nets, IsFinite/IsInf/IsNaN, If: what the TensorFlow, Keras, TFLite, Paddle, JAX and torch conversions
# hold (the "rnn", "checks" and "if" probe families of tests/irtools/plugincases.py)

_WEIGHTED = {  # an RNN op version -> the indices of its W, R and B inputs
    ("LSTMCell", 0): (3, 4, 5), ("LSTMCell", 4): (3, 4, 5), ("GRUCell", 3): (2, 3, 4), ("RNNCell", 0): (2, 3, 4),
    ("LSTMSequence", 0): (4, 5, 6), ("LSTMSequence", 5): (4, 5, 6), ("GRUSequence", 5): (3, 4, 5),
    ("RNNSequence", 5): (3, 4, 5),
}
_CHECKS = frozenset({"IsFinite", "IsInf", "IsNaN"})
_RECURRENT_AND_CONTROL = frozenset({op for op, _ in _WEIGHTED} | _CHECKS | {"If", "Loop", "TensorIterator",
                                                                              "FakeQuantize"})
_FUSES = frozenset({"LogicalNot", "LogicalAnd", "LogicalOr", "LogicalXor"})  # a boolean eltwise a check may fuse into
# the users of a check's output measured ("check" probes) where no Result takes it: each fails so
_CHECK_USERS = _FUSES | {"Select", "ReduceLogicalAnd", "ReduceLogicalOr", "Convert", "Transpose", "Reshape"}
_COMPARISONS = frozenset({"Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual"})
_PASSING = {"LogicalNot": None, "LogicalAnd": None, "LogicalOr": None, "LogicalXor": None, "ReduceLogicalAnd": 1,
            "ReduceLogicalOr": 1, "Convert": 1, "Squeeze": 1, "Unsqueeze": 1, "Reshape": 1}  # inputs a value passes
# the op types a tensor of dynamic rank from an If reaches that 2026.0's CPU plugin compiles once the If is folded
# (measured, each fed by an If folded so: the "if" probes); Softmax and Einsum it refuses there
_FOLDED_IF_TAKES = frozenset({
    "Result", "Relu", "Sigmoid", "Tanh", "Exp", "Sqrt", "Abs", "Erf", "Add", "Multiply", "Subtract", "Divide", "Power",
    "Maximum", "Clamp", "Convert", "LogSoftmax", "MatMul", "ReduceMean", "ReduceSum", "ReduceMax", "MVN", "Reshape",
    "Transpose", "Concat", "Gather", "ShapeOf", "Squeeze", "Unsqueeze", "StridedSlice", "Slice", "Split", "Pad",
    "NormalizeL2", "Select", "Greater", "Broadcast", "Tile", "TopK", "CumSum", "Sqrt"})
_FOLDED_IF_REFUSES = frozenset({"Softmax", "Einsum"})


def _op_of(layer: "Layer") -> str:
    """The layer's op type as OpenVINO names it ("Softmax" for an IR's "SoftMax")."""
    found = _resolved(layer.type, layer.version)
    return found[0] if found is not None else layer.type


def _recurrent_and_control(layer: "Layer", graph: "Graph", op: str, v: int, want: "_Want") -> Iterator[Instance]:
    if (op, v) in _WEIGHTED:
        if want.pair("rnn-weights", op):
            yield from _rnn_weights(layer, op, v)
    elif op in _CHECKS:
        if want.kind("bool-out", "bool-in"):
            yield from _check_outputs(layer, graph, op)
    elif op == "If":
        if want.kind("if-rank"):
            yield from _if_rank(layer, graph)
    elif op == "FakeQuantize":
        if want.kind("concat-fq-convert"):
            yield from _concat_quantized_out(layer, graph)
    else:
        if want.pair("back-edge", op):
            yield from _back_edges(layer, graph, op)
        if op == "TensorIterator" and want.kind("ti-cell"):  # keyed by its cell's op type
            yield from _ti_cell(layer, graph)


_TI_CELLS = frozenset({("LSTMCell", 4), ("GRUCell", 3), ("RNNCell", 0)})
_TI_AROUND = frozenset({"Squeeze", "Unsqueeze", "Reshape"})


def _ti_cell(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """A TensorIterator of the main graph of a model whose inputs are all static, its body one LSTMCell-4,
    GRUCell-3 or RNNCell-0 on constant weights between a Squeeze (Reshape) of the sliced input and an Unsqueeze
    (Reshape) of its output: the form a CPU plugin turns into a sequence op. 2023.0 to 2023.2 compile it and their
    first inference fails, but for some sets of outputs ("Dims and format are inconsistent", "Cannot find blob with
    name"): the key holds the TensorIterator's outputs, each "last" (an iteration's value) or "concat" (the values
    concatenated), "-unused" where nothing takes it."""
    if graph.nested or not _static_inputs(graph) or len(layer.bodies) != 1:
        return
    inner = [la for la in layer.bodies[0].model.layers.values()
             if la.kind not in ("parameter", "result") and not _constant(la)]
    cells = [la for la in inner if (_resolved(la.type, la.version) or ("", 0)) in _TI_CELLS]
    if len(cells) != 1 or any(la is not cells[0] and _op_of(la) not in _TI_AROUND for la in inner):
        return
    cell = cells[0]
    op, v = _resolved(cell.type, cell.version)  # type: ignore[misc]
    if any(i < len(cell.inputs) and (cell.inputs[i].source is None or cell.inputs[i].source.layer is None
                                     or not _constant(cell.inputs[i].source.layer)) for i in _WEIGHTED[(op, v)]):
        return
    outs = []
    for pm in layer.bodies[0].outputs:
        port = next((q for q in layer.outputs if q.id == pm.attrs.get("external_port_id")), None)
        if port is not None:
            outs.append(("concat" if "axis" in pm.attrs else "last") + ("" if _used(graph, layer, port) else "-unused"))
    yield Instance(layer, ("ti-cell", op, v, "+".join(sorted(outs))),
                   f"TensorIterator over {op}-{v} '{cell.name}' (as a CPU plugin makes a sequence of it)")


def _constant(layer: "Layer") -> bool:
    """A Const, or a Convert of one (f16 weights decompressed: folded, a constant to a CPU plugin)."""
    if layer.kind == "convert":
        src = _source(layer, 0)
        return src is not None and src.kind == "const"
    return layer.kind == "const"


def _static_inputs(graph: "Graph") -> bool:
    """Every model input's shape static (OpenVINO's first inference on zeros measured only so)."""
    return all(_static(graph.shape(la.outputs[0])) for la in graph.model.layers.values()
               if la.kind == "parameter" and la.outputs)


def _back_edges(layer: "Layer", graph: "Graph", op: str) -> Iterator[Instance]:
    """A Loop or TensorIterator of the main graph of a model whose inputs are all static, one of whose back edges
    carries a value of another shape than its initial (static) one: "static-change" where the body's value is
    static, of the same rank (a TensorFlow TensorArray: a buffer [T,1,1] broadcast to [T,B,H]; the first inference
    fails: "object is not initialized", a Loop's on 2023.0 and 2023.1, a TensorIterator's on every release),
    "rank-change" where it is static of another rank, "dynamic-rank" where it has a dynamic rank, "growing" where
    its dims are dynamic (a buffer concatenated to). Only where OpenVINO's inference runs: static inputs."""
    from .bodies import readings

    if graph.nested or not _static_inputs(graph):
        return
    for body, inner in readings(layer, graph):
        into = {e.to_layer: e.from_layer for e in body.back_edges}
        for pm in body.inputs:
            result = body.model.layers.get(into.get(pm.layer, ""))
            ext = pm.attrs.get("external_port_id")
            outer = next((q for q in layer.inputs if q.id == ext), None)
            param = body.model.layers.get(pm.layer)
            if result is None or not result.inputs or result.inputs[0].source is None or outer is None \
                    or outer.source is None or param is None:
                continue
            before, after = graph.shape(outer.source), inner.shape(result.inputs[0].source)
            if not _static(before) or _same_dims(before, after):
                continue
            if after is None or not param.outputs or inner.shape(param.outputs[0]) is None:
                how, said = "dynamic-rank", "makes its rank dynamic"
            elif _static(after) and len(after) != len(before):
                how, said = "rank-change", "gives it another rank than its initial one"
            elif _static(after):
                how, said = "static-change", "gives it another static shape than its initial one"
            else:
                how, said = "growing", "gives it a shape that changes each iteration"
            yield Instance(layer, ("back-edge", op, how), f"{op} whose back edge into '{param.name}' {said}")
            return


def _static(shape) -> bool:
    return shape is not None and all(d.is_static for d in shape)


def _same_dims(a, b) -> bool:
    return a is not None and b is not None and len(a) == len(b) and all(
        (x.lo, x.hi) == (y.lo, y.hi) for x, y in zip(a, b))


def _rnn_weights(layer: "Layer", op: str, v: int) -> Iterator[Instance]:
    """An RNN cell or sequence whose W, R or B input is no Const (a Const converted, as f16 weights are, counts as
    one): 2023.0's CPU plugin says "Node expects constants as W, R, B inputs"."""
    for i in _WEIGHTED[(op, v)]:
        src = layer.inputs[i].source if i < len(layer.inputs) else None
        if src is not None and src.layer is not None and not _constant(src.layer):
            yield Instance(layer, ("rnn-weights", op, v),
                           f"{op}-{v} whose {'WRB'[i - _WEIGHTED[(op, v)][0]]} input is no constant")
            return


def _check_outputs(layer: "Layer", graph: "Graph", op: str) -> Iterator[Instance]:
    """The boolean output of IsFinite, IsInf or IsNaN (2023.0's CPU plugin keeps it boolean; its Eltwise nodes
    take no BOOL): with no Result among its users, the check itself is refused ("bool-out": unless its one user is
    a logical op it fuses into, not claimed); with a Result among them, each other user is a feature ("bool-in",
    by its type: a Select or a logical op is refused, a Convert or a reduction takes it). Main graph only."""
    if graph.nested or not layer.outputs:
        return
    users = _users(graph, layer)
    if not users:
        return
    if not any(u.kind == "result" for u, _ in users):
        if len(users) == 1 and _op_of(users[0][0]) in _FUSES or not all(_op_of(u) in _CHECK_USERS for u, _ in users):
            return  # a lone logical op it may fuse into; a user of a kind not measured
        yield Instance(layer, ("bool-out", op), f"{op}-10 whose boolean output no Result takes")
        return
    for user, _ in users:
        if user.kind != "result":
            yield Instance(user, ("bool-in", _op_of(user)),
                           f"{_op_of(user)} on the boolean output of {op}-10 '{layer.name}'")


def _concat_quantized_out(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """A FakeQuantize on a Concat whose one user is a Convert (to the destination type in the key), as TFLite's
    int8 models end: the process dies in 2023.0's and 2023.1's compile_model where the type is i8, u8 or i32."""
    src = _source(layer, 0)
    if src is None or _op_of(src) != "Concat":
        return
    users = _users(graph, layer)
    if len(users) != 1 or _op_of(users[0][0]) != "Convert":
        return
    to = (users[0][0].data.get("destination_type") or "").strip().lower()
    if to:
        yield Instance(layer, ("concat-fq-convert", to),
                       f"FakeQuantize of a Concat converted to {to}")


def _if_rank(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """An If that makes tensors of dynamic rank (OpenVINO's reading; inputs of static rank) that something uses.
    Every release's CPU plugin refuses it up to 2025.4.1; from 2026.0 it folds an If whose condition compares a value
    with itself (the same output, or the same dim of the same tensor: "same-value"), and then compiles the model
    unless the dynamic rank reaches an op it refuses so (Softmax, Einsum: the op is in the key). The condition's kind:
    "runtime" (a model input, or a comparison with a constant or of floating-point values: never folded),
    "same-value", or "unknown" (anything else: claimed only where every If refuses)."""
    from .graph import READ

    dyn = [p for p in layer.outputs
           if graph.shape(p) is None and graph.origin(p) in READ and _used(graph, layer, p)]
    if not dyn or any(p.source is not None and graph.shape(p.source) is None for p in layer.inputs):
        return
    kind = _condition(graph, layer.inputs[0].source if layer.inputs else None, 0) or "unknown"
    key: tuple = ("if-rank", kind)
    if kind == "same-value":
        reached = _reached(graph, dyn)
        refused = sorted(reached & _FOLDED_IF_REFUSES)
        if refused:
            key = ("if-rank", kind, refused[0])
        elif not reached <= _FOLDED_IF_TAKES:
            key = ("if-rank", "unknown")
    said = {"runtime": " (its condition known only at run time)", "same-value": " (its condition compares a value "
            "with itself)", "unknown": ""}[kind]
    yield Instance(layer, key, f"If-8 with outputs of dynamic rank{said}")


def _condition(graph: "Graph", port, depth: int) -> str | None:
    """"runtime", "same-value" or None (irreshape cannot tell) for the value of an If's condition."""
    if port is None or port.layer is None or depth > 8:
        return None
    src = port.layer
    if src.kind == "parameter":
        return None if graph.nested else "runtime"
    t = _op_of(src)
    if t in _COMPARISONS and len(src.inputs) == 2:
        a, b = src.inputs[0].source, src.inputs[1].source
        if a is None or b is None:
            return None
        ta = graph.etype(a) or ""
        if _same_value(graph, a, b) and ta.startswith(("i", "u")):
            return "same-value"
        if ta.startswith(("f", "bf")):
            return "runtime"
        for one, other in ((a, b), (b, a)):
            if one.layer is not None and one.layer.kind == "const" and _from_input(graph, other):
                return "runtime"
        return None
    if t in _PASSING:
        n = _PASSING[t]
        ins = src.inputs if n is None else src.inputs[:n]
        kinds = [_condition(graph, p.source, depth + 1) for p in ins]
        return "runtime" if kinds and all(k == "runtime" for k in kinds) else None
    return None


def _same_value(graph: "Graph", a, b) -> bool:
    """The same output, or a Gather of the same index from a ShapeOf of the same tensor on both sides."""
    if a is b:
        return True
    ga, gb = a.layer, b.layer
    if ga is None or gb is None or _op_of(ga) != "Gather" or _op_of(gb) != "Gather":
        return False
    sa, sb = (g.inputs[0].source if g.inputs else None for g in (ga, gb))
    if sa is None or sb is None or sa.layer is None or sb.layer is None:
        return False
    if _op_of(sa.layer) != "ShapeOf" or _op_of(sb.layer) != "ShapeOf":
        return False
    ta, tb = (s.layer.inputs[0].source if s.layer.inputs else None for s in (sa, sb))
    if ta is None or ta is not tb:
        return False
    from ..shapes import values as V

    got = [graph.input_tensor(g, i) for g in (ga, gb) for i in (1, 2)]
    if not all(isinstance(t, V.Tensor) and t.is_const for t in got):
        return False
    return got[0].lo == got[2].lo and got[1].lo == got[3].lo  # type: ignore[union-attr]


def _from_input(graph: "Graph", port) -> bool:
    """The value depends on a model input (a Parameter of the main graph among its sources)."""
    if graph.nested:
        return False
    seen: set[int] = set()
    todo = [port]
    while todo and len(seen) < 2000:
        p = todo.pop()
        la = p.layer
        if la is None or id(la) in seen:
            continue
        seen.add(id(la))
        if la.kind == "parameter":
            return True
        todo.extend(q.source for q in la.inputs if q.source is not None)
    return False


def _reached(graph: "Graph", ports: list) -> set[str]:
    """The op types the tensors of dynamic rank from ``ports`` reach (through every op that keeps it dynamic)."""
    reached: set[str] = set()
    seen: set[int] = set()
    todo = list(ports)
    while todo and len(seen) < 10000:
        port = todo.pop()
        for user, _ in graph.model.consumers(port.layer.id, port.id):
            reached.add(_op_of(user))
            if id(user) in seen:
                continue
            seen.add(id(user))
            todo.extend(o for o in user.outputs if graph.shape(o) is None)
    return reached
# -- today's transformer and LLM exports (optimum-intel, NNCF) ----------------------------------------------------

_NOT_COMPRESSED = _UNPACKED | {"boolean", "string"}


def _today(layer: "Layer", graph: "Graph", op: str) -> Iterator[Instance]:
    """The features of compressed weights and of attention over variables: only on the layer types they start
    from (a Const of a compressed type, a Gather, a ScaledDotProductAttention)."""
    if op == "Constant":
        if layer.outputs and (layer.data.get("element_type") or "").strip().lower() not in _NOT_COMPRESSED:
            yield from _dequantized(layer, graph)
    elif op == "Gather":
        yield from _codebook(layer, graph)
    elif op == "ScaledDotProductAttention":
        yield from _state_init(layer, graph)
        yield from _mha(layer, graph)
    elif op == "Softmax":
        yield from _mha_written(layer, graph)


def _users(graph: "Graph", layer: "Layer", k: int = 0) -> list:
    """(layer, input port) of each consumer of output ``k``."""
    return graph.model.consumers(layer.id, layer.outputs[k].id) if len(layer.outputs) > k else []


def _source(layer: "Layer", k: int) -> "Layer | None":
    """The layer feeding input ``k``."""
    if len(layer.inputs) <= k or layer.inputs[k].source is None:
        return None
    return layer.inputs[k].source.layer


def _dequantized(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """A Const converted to a float type, a zero point subtracted (it the Subtract's first input) or not, then a
    Multiply (by the scale), then Reshape and Convert only, into a MatMul (either input: u4, i4 fail 2023.3 to
    2024.1, nf4 to 2024.3, on this machine's bf16, "cpu_convert can't convert from: u4 precision to: bf16"; without
    the Multiply every release takes it) or as the table of a Gather (measured: decompress_matmul_cases,
    decompress_gather_cases)."""
    t = (layer.data.get("element_type") or "").strip().lower()
    found: set[tuple] = set()
    for conv, _ in _users(graph, layer):
        via = graph.etype(conv.outputs[0]) if conv.type == "Convert" and conv.outputs else None
        if via not in ("f16", "f32", "bf16"):
            continue
        for node, port in _users(graph, conv):
            zp = node.type == "Subtract" and port.id == node.inputs[0].id
            for mul, _ in _users(graph, node) if zp else [(node, port)]:
                if mul.type == "Multiply":
                    found |= _dequantized_uses(graph, mul, t, via, zp)
    for key in sorted(found):
        what = (f"{t} weights decompressed by a scale into a MatMul" if key[0] == "decompress-matmul" else
                f"{t} embedding table decompressed ({key[2]}) into a Gather")
        yield Instance(layer, key, what)


def _dequantized_uses(graph: "Graph", mul: "Layer", t: str, via: str, zp: bool) -> set[tuple]:
    found = set()
    todo = [(mul, False)]
    for _ in range(4):  # Multiply, Reshape, Convert: a few steps at most
        nxt = []
        for node, grouped in todo:
            for user, port in _users(graph, node):
                if user.type == "MatMul":
                    found.add(("decompress-matmul", t))
                elif user.type == "Gather" and port.id == user.inputs[0].id:
                    found.add(("decompress-gather", t, ",".join([via] + ["zp"] * zp + ["groups"] * grouped)))
                elif user.type in ("Reshape", "Convert"):
                    nxt.append((user, grouped or user.type == "Reshape"))
        todo = nxt
    return found


def _through_converts(layer: "Layer | None") -> "Layer | None":
    while layer is not None and layer.type == "Convert":
        layer = _source(layer, 0)
    return layer


def _codebook(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """A Gather of a 1-D Const (converted or not) by Const indices (converted or not) that reaches a MatMul through
    Multiply, Reshape and Convert: with indices of u4, u8 or i8 at the Gather the process dies in compile_model on
    2025.2 to 2026.2.1 (measured: codebook_cases; i32 and u16 indices, an Add instead of the MatMul, run-time
    indices: every release takes it)."""
    book, ids = _through_converts(_source(layer, 0)), _through_converts(_source(layer, 1))
    if book is None or ids is None or book.type != "Const" or ids.type != "Const" or not layer.outputs:
        return
    shape = graph.shape(layer.inputs[0].source)
    if shape is None or len(shape) != 1:
        return
    t = graph.etype(layer.inputs[1].source)
    todo = [layer]
    for _ in range(4):
        nxt = []
        for node in todo:
            for user, _ in _users(graph, node):
                if user.type == "MatMul":
                    yield Instance(layer, ("codebook-matmul", t),
                                   f"a codebook Gather with {t} indices into a MatMul (codebook weight compression)")
                    return
                if user.type in ("Multiply", "Reshape", "Convert"):
                    nxt.append(user)
        todo = nxt


_WEIGHT_OPS = frozenset({"Const", "Convert", "Subtract", "Multiply", "Reshape", "Transpose"})


def _from_consts(layer: "Layer | None", graph: "Graph") -> bool:
    """The layer computes from Consts only (weights, decompressed or not)."""
    todo, seen = [layer], 0
    while todo:
        node = todo.pop()
        seen += 1
        if node is None or node.type not in _WEIGHT_OPS or seen > 16:
            return False
        todo += [_source(node, k) for k in range(len(node.inputs))]
    return True


def _state_init(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """ScaledDotProductAttention with keys or values that are a variable whose initial value a MatMul of constant
    weights computes from the encoder states' variable (through Reshape, Transpose, Convert, each used by nothing
    else: the CPU plugin moves that path into the variable's initialisation), its mask shaped from that variable's
    ShapeOf, and a MatMul of constant weights after it (through Transpose, Reshape, Convert, Add, MVN): 2025.0 and
    2025.1 fail, "Graph emitter is not implemented yet!" (bart, marian, t5 decoders; measured:
    cross_attention_cases, each near miss of :func:`irtools.plugincases.near_misses` compiles)."""
    ins = layer.inputs
    if len(ins) < 4 or ins[3].source is None:
        return
    for k in (1, 2):
        rv = _source(layer, k)
        if rv is None or rv.type != "ReadValue":
            continue
        node = _source(rv, 0)
        while node is not None and node.type in ("Transpose", "Reshape", "Convert") and len(_users(graph, node)) == 1:
            node = _source(node, 0)
        if node is None or node.type != "MatMul" or len(_users(graph, node)) != 1:
            continue
        states = _source(node, 0)
        if states is None or states.type != "ReadValue" or not _from_consts(_source(node, 1), graph):
            continue
        if _shaped_by(graph, ins[3].source.layer, states) and _into_matmul(graph, layer):
            yield Instance(layer, ("sdpa-state-init", "static" if _static_inputs(graph) else "dynamic"),
                           "ScaledDotProductAttention-13 over a variable initialised by a MatMul of another variable "
                           "(a seq2seq decoder's cross-attention cache)")
            return


def _shaped_by(graph: "Graph", start: "Layer", states: "Layer") -> bool:
    """A ShapeOf of ``states`` is among the layers ``start`` is computed from (a bounded search)."""
    todo, seen = [start], set()
    while todo and len(seen) < 256:
        node = todo.pop()
        if node is None or node.id in seen or node.type in ("Parameter", "ReadValue", "Const"):
            continue
        seen.add(node.id)
        if node.type == "ShapeOf" and _source(node, 0) is states:
            return True
        todo += [_source(node, k) for k in range(len(node.inputs))]
    return False


def _into_matmul(graph: "Graph", layer: "Layer") -> bool:
    """The layer's output reaches, through Transpose, Reshape, Convert, Add and MVN, the first input of a MatMul
    of constant weights."""
    todo = [layer]
    for _ in range(6):
        nxt = []
        for node in todo:
            for user, port in _users(graph, node):
                if user.type == "MatMul" and port.id == user.inputs[0].id and _from_consts(_source(user, 1), graph):
                    return True
                if user.type in ("Transpose", "Reshape", "Convert", "Add", "MVN"):
                    nxt.append(user)
        todo = nxt
    return False


_GROUPED = frozenset({"Unsqueeze", "Broadcast", "Reshape", "Convert"})  # keys broadcast to the query's heads


def _behind(layer: "Layer | None") -> "Layer | None":
    """The layer keys come from, past the broadcast of grouped keys to the query's heads and Converts."""
    while layer is not None and layer.type in _GROUPED:
        layer = _source(layer, 0)
    return layer


def _in_cache(layer: "Layer | None") -> bool:
    """A KV cache: a Concat of a variable read (gathered by the beams or not) and the new keys."""
    if layer is None or layer.type != "Concat":
        return False
    for k in range(len(layer.inputs)):
        src = _source(layer, k)
        if src is not None and src.type == "Gather":
            src = _source(src, 0)
        if src is not None and src.type == "ReadValue":
            return True
    return False


def _attention_form(graph: "Graph", keys: "Layer | None", values: "Layer | None", out: "Layer") -> tuple[str, str]:
    """(which of the keys and values are model inputs as they are: "kv-input", "k-input", "v-input" or
    "computed"; "matmul" where a MatMul is computed from the attention's output ``out``, else "output")."""
    k = keys is not None and keys.type == "Parameter"
    v = values is not None and values.type == "Parameter"
    inputs = "kv-input" if k and v else "k-input" if k else "v-input" if v else "computed"
    return inputs, "matmul" if _used_by_matmul(graph, out) else "output"


def _form_words(inputs: str, use: str) -> str:
    words = {"kv-input": "whose keys and values are model inputs", "k-input": "whose keys are a model input",
             "v-input": "whose values are a model input", "computed": ""}[inputs]
    if use == "output":
        words += (" and " if words else "") + "whose output no MatMul uses"
    return words


def _static_ports(graph: "Graph", ports) -> str:
    """"static" where every port's source has a static shape, else "dynamic"."""
    return "static" if all(p.source is not None and _static(graph.shape(p.source)) for p in ports) else "dynamic"


def _mha(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """ScaledDotProductAttention outside a KV cache (the CPU plugin makes it a MatMul-Softmax-MatMul subgraph):
    ``("sdpa-mha", inputs, use, "static" | "dynamic")``: :func:`_attention_form` (the keys and values
    as they reach it: grouped keys broadcast to the query's heads are not model inputs as they are), the query,
    keys and values of static shape or not. Measured (sdpa_mha_cases) on this bf16 machine: 2025.3 to 2025.4.1
    refuse values that are a model input, keys that are one on dynamic shapes, an output no MatMul uses ("BrgemmCopyB
    expression is not found", "Supported precisions set is not available for Constant operation."): a stateless
    seq2seq decoder with past, its cross-attention's keys and values inputs. Not with a sink (then only 2025.3
    refuses them, and the sink's own feature holds the attention: unclaimed)."""
    ins = layer.inputs
    if len(ins) < 3 or len(ins) > 5 or any(_in_cache(_behind(_source(layer, k))) for k in (1, 2)):
        return  # with a sink: ("sdpa-sink", ...) alone (its crash on 2023.3 is one root cause)
    inputs, use = _attention_form(graph, _source(layer, 1), _source(layer, 2), layer)
    yield Instance(layer, ("sdpa-mha", inputs, use, _static_ports(graph, ins[:3])),
                   f"ScaledDotProductAttention-13 {_form_words(inputs, use)}".strip())


def _mha_written(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """The same attention written out (T5's export): a MatMul of the query and the keys, Multiply, Divide, Add (the
    scale, the mask) or not, the Softmax, a MatMul of it (first input) and the values: ``("mha", inputs, use,
    "static" | "dynamic")`` on the Softmax (measured: 2025.3 to 2025.4.1 refuse values that are a model input and
    an output no MatMul uses; keys that are one are taken)."""
    scores = _source(layer, 0)
    while scores is not None and scores.type in ("Add", "Multiply", "Divide", "Convert"):
        scores = _source(scores, 0)
    if scores is None or scores.type != "MatMul":
        return
    out = next((u for u, p in _users(graph, layer) if u.type == "MatMul" and p.id == u.inputs[0].id), None)
    if out is None:
        return
    keys, values = _source(scores, 1), _source(out, 1)
    if _in_cache(_behind(keys)) or _in_cache(_behind(values)):
        return
    inputs, use = _attention_form(graph, keys, values, out)
    yield Instance(layer, ("mha", inputs, use, _static_ports(graph, (*scores.inputs[:2], out.inputs[1]))),
                   f"an attention (MatMul, Softmax, MatMul) {_form_words(inputs, use)}".strip())


def _used_by_matmul(graph: "Graph", layer: "Layer") -> bool:
    """A MatMul among the layers computed from the layer's output (through any layers; a search of 64 layers that
    ends without having seen them all counts as yes: irreshape claims nothing it did not look at)."""
    todo, seen = [layer], {layer.id}
    while todo:
        node = todo.pop()
        for user, _ in _users(graph, node):
            if user.type == "MatMul" or len(seen) >= 64:
                return True
            if user.id not in seen:
                seen.add(user.id)
                todo.append(user)
    return False


_RESHAPES = frozenset({"Reshape", "Squeeze", "Unsqueeze"})  # their dynamic rank is IR401's


def plugin_findings(found: list[Instance]) -> list:
    """IR405-IR407: what openvino 2026.4.1's own CPU plugin refuses of the features ``found``, on the layer each
    is on (a dynamic rank a Reshape, Squeeze or Unsqueeze makes is IR401's)."""
    from ..core.findings import Finding
    from ..core.text import one_line
    from ..rules.runtime import COMPILE_CRASH, COMPILE_REFUSED, INFER_FAILED
    from ..shapes.compiles import newest

    out = []
    for r in newest(found):
        if r.key[0] == "rank" and r.key[1] in _RESHAPES:
            continue
        layer = r.layer
        if r.stage == "crash":
            rule, message = COMPILE_CRASH, f"{r.what}: the process dies in compile_model on CPU"
        elif r.stage == "infer":
            rule, message = INFER_FAILED, f"{r.what}: the first inference on CPU fails: {one_line(r.message)}"
        else:
            rule, message = COMPILE_REFUSED, f"{r.what}: compile_model on CPU fails: {one_line(r.message)}"
        out.append(Finding(rule, message, layer.line, layer.ref, extra={"stage": r.finding_stage}))
    return out
