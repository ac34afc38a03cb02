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
* ``("sdpa-mask", etype, "static" | "dynamic")``: ScaledDotProductAttention's attention mask of that element type,
  its inputs of static or dynamic shape;
* ``("sdpa-sink", "stateful" | "stateless")``: ScaledDotProductAttention with the attention-sink input (6 inputs),
  in a model with variables (ReadValue) or without;
* ``("decompress", etype)``: a Const of that element type converted (Convert) to a floating-point type, as weight
  compression writes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
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
    scripts/make_plugins.py asks of its probes), bodies included, in file order."""
    from ..shapes.compiles import refused_keys

    found = _features(model, graph, stateful=_stateful(model))
    keys = None if every else refused_keys()
    out = [i for i in found if keys is None or i.key in keys]
    out.sort(key=lambda i: i.layer.line)
    return out


def every_feature(model: "IRModel") -> list[Instance]:
    """Every feature of a parsed model, whatever the table holds (what scripts/make_plugins.py asks of its probes):
    the whole graph read as a check reads it."""
    from .graph import Graph

    graph = Graph(model)
    try:
        for layer in model.layers.values():
            for port in layer.outputs:
                graph.shape(port)  # the bodies' readings are made as their layers are inferred
        return instances(model, graph, every=True)
    finally:
        graph.weights.close()


def _stateful(model: "IRModel") -> bool:
    return any(layer.kind in ("readvalue", "assign") or layer.type in ("ReadValue", "Assign")
               for layer in model.layers.values())


def _features(model: "IRModel", graph: "Graph", stateful: bool) -> Iterator[Instance]:
    from .bodies import readings
    from .graph import READ

    for layer in model.layers.values():
        found = resolve(layer.type, layer.version)
        if found is None or isinstance(found, str):
            continue
        op, v = found
        what = f"{op}-{v}"
        yield Instance(layer, ("op", op, v, len(layer.inputs)), what)
        if op == "Parameter" and not graph.nested and layer.outputs:
            t = graph.etype(layer.outputs[0])
            if t is not None:
                yield Instance(layer, ("param", t), f"a model input of type {t}")
        yield from _rank(layer, graph, op, READ)
        yield from _empty(layer, op, v, what)
        if op == "ScaledDotProductAttention":
            yield from _sdpa(layer, graph, stateful)
        elif op == "Constant" and layer.outputs:
            yield from _decompress(layer, graph)
        for body, inner in readings(layer, graph):
            yield from _features(body.model, inner, stateful)


def _used(graph: "Graph", layer: "Layer", port) -> bool:
    return bool(graph.model.consumers(layer.id, port.id))


def _rank(layer: "Layer", graph: "Graph", op: str, read: tuple) -> Iterator[Instance]:
    """The layer makes a tensor of dynamic rank that something uses, from inputs of static rank (a Parameter:
    declared so); the rank is OpenVINO's (not taken from the XML)."""
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
    ins = layer.inputs
    if len(ins) > 3 and ins[3].source is not None:
        t = graph.etype(ins[3].source)
        shapes = [graph.shape(p.source) if p.source is not None else None for p in ins[:4]]
        static = all(s is not None and all(d.is_static for d in s) for s in shapes)
        yield Instance(layer, ("sdpa-mask", t, "static" if static else "dynamic"),
                       f"ScaledDotProductAttention-13 with an attention mask of type {t}")
    if len(ins) > 5:
        yield Instance(layer, ("sdpa-sink", "stateful" if stateful else "stateless"),
                       "ScaledDotProductAttention-13 with an attention sink"
                       + (" in a stateful model" if stateful else ""))


def _decompress(layer: "Layer", graph: "Graph") -> Iterator[Instance]:
    """A Const converted to a floating-point type: the weights of a compressed model."""
    port = layer.outputs[0]
    t = (layer.data.get("element_type") or "").strip().lower()
    if not t or t in ("f32", "f16", "bf16", "f64", "i64", "i32"):
        return
    for user, _ in graph.model.consumers(layer.id, port.id):
        if user.type == "Convert" and user.outputs and (graph.etype(user.outputs[0]) or "").startswith(("f", "bf")):
            yield Instance(layer, ("decompress", t), f"{t} weights converted to floating point")
            return


_RESHAPES = frozenset({"Reshape", "Squeeze", "Unsqueeze"})  # their dynamic rank is IR401's


def plugin_findings(found: list[Instance]) -> list:
    """IR405-IR407: what openvino 2026.4.1's own CPU plugin refuses of the features ``found``, on the layer each
    is on (a dynamic rank a Reshape, Squeeze or Unsqueeze makes is IR401's)."""
    from ..core.findings import Finding
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
            rule, message = INFER_FAILED, f"{r.what}: the first inference on CPU fails: {_line(r.message)}"
        else:
            rule, message = COMPILE_REFUSED, f"{r.what}: compile_model on CPU fails: {_line(r.message)}"
        out.append(Finding(rule, message, layer.line, layer.ref,
                           extra={"stage": "infer" if r.stage == "infer" else "compile"}))
    return out


def _line(words: str) -> str:
    """The release's words on one line."""
    return " ".join(x.strip() for x in words.splitlines() if x.strip())
