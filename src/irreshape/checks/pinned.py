"""Dynamic Parameter dims that one layer pins: the model loads, then fails when the dim takes another value.

A Reshape whose pattern is a constant (traced at one batch or sequence length) on an input with a dynamic
dim that no special zero copies, or a Squeeze of a dynamic dim, is a suspect. Each dynamic Parameter dim is
then set to a few values, one at a time, the graph re-inferred at each as ``Model.reshape`` would, and the
suspect judged there: OpenVINO rejects it, the spec's volume rule breaks, or (a Squeeze) the rank changes.
The values that hold say how the dim is pinned: to one value, or to the multiples of one. A dim that no
value changes is not the suspect's; a suspect that no single dim moves is left alone. Nothing is
re-inferred for a model without suspects.
"""

from __future__ import annotations

from collections.abc import Callable
from math import gcd, prod

from ..core.dims import Dim, Shape, format_shape, is_static_shape
from ..core.findings import Finding
from ..core.results import LayerResult, Status
from ..frontends.openvino.model import IRModel, Layer
from ..rules.reshape import INVALID_PATTERN, VOLUME_MISMATCH
from ..rules.scenarios import PINNED
from .graph import Graph, describe
from .values import Value

PROBES = (1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 64, 128)
_FAILS = (INVALID_PATTERN, VOLUME_MISMATCH)

Check = Callable[[Layer, Graph], tuple[LayerResult, list[Finding]]]


def pinned_dims(model: IRModel, graph: Graph, verdicts: list[LayerResult], check_of: Callable[[Layer], Check]
                ) -> list[Finding]:
    """IR503 for each suspect of ``verdicts`` (the Reshape family's, in ``graph``) that holds at only some
    values of one dynamic Parameter dim (the others left as they are: dims tied across inputs, a sequence
    length shared by ``input_ids`` and ``attention_mask``, stay compatible); ``check_of`` gives a layer's
    checker."""
    suspects = [v for v in verdicts if _suspect(v, graph)]
    if not suspects:
        return []
    found: list[Finding] = []
    for param, axis, dim in _dynamic_dims(model, graph):
        values = sorted({v for v in (*PROBES, *_solutions(suspects)) if dim.contains(v)})
        if len(values) < 2:
            continue
        shape = graph.shape(param.outputs[0])
        holds: dict[str, dict[int, str]] = {v.layer.id: {} for v in suspects}  # layer id -> {value: why not}
        for value in values:
            probe = Graph(model, graph.weights, {param.id: [*shape[:axis], Dim.of(value), *shape[axis + 1:]]})  # type: ignore[index]
            for v in suspects:
                holds[v.layer.id][value] = _why_not(v, *check_of(v.layer)(v.layer, probe))
        for v in suspects:
            verdict = _pin(holds[v.layer.id])
            if verdict is None:
                continue
            bad, why = next((k, w) for k, w in holds[v.layer.id].items() if w)
            found.append(Finding(PINNED, f"{describe(v.layer)} pins dim {axis} of Parameter {param.name!r} "
                                 f"{format_shape(shape)}: it holds {verdict}; at "
                                 f"{bad}: {why}", v.layer.line, v.layer.ref))
        suspects = [v for v in suspects if _pin(holds[v.layer.id]) is None]  # one finding a layer
        if not suspects:
            break
    return found


def _suspect(v: LayerResult, graph: Graph) -> bool:
    """A Reshape with a constant pattern whose element count ties a dynamic input dim (no -1 to absorb it, or a
    -1 that needs it divisible by a number), or a Squeeze whose axes name a dynamic dim."""
    shape, layer = v.input_shape, v.layer
    if shape is None or is_static_shape(shape) or v.status is Status.INVALID:
        return False
    if layer.kind == "squeeze":
        return _squeezes_dynamic(layer, shape, graph)
    if layer.kind != "reshape" or not v.pattern or any(b.lo != b.hi for b in v.pattern):
        return False
    pattern = [b.lo for b in v.pattern]
    copied = {i for i, p in enumerate(pattern) if v.special_zero and p == 0 and i < len(shape)}
    if all(d.is_static for i, d in enumerate(shape) if i not in copied):
        return False  # every dynamic dim is copied as it is
    if -1 not in pattern:
        return True
    have = prod(d.lo for i, d in enumerate(shape) if i not in copied and d.is_static)
    need = prod(p for i, p in enumerate(pattern) if p != -1 and i not in copied)
    return need > 0 and need // gcd(need, have) > 1


def _squeezes_dynamic(layer: Layer, shape: list[Dim], graph: Graph) -> bool:
    if len(layer.inputs) < 2:  # no axes: every dim that may be 1 goes
        return any(not d.is_static and d.contains(1) for d in shape)
    axes = graph.input_value(layer, layer.inputs[1])
    bounds = axes.bounds if isinstance(axes, Value) else None
    if not bounds or any(b.lo != b.hi for b in bounds):
        return False
    rank = len(shape)
    return any(-rank <= b.lo < rank and not shape[b.lo % rank].is_static for b in bounds)


def _dynamic_dims(model: IRModel, graph: Graph):
    for layer in model.layers.values():
        if layer.kind != "parameter" or not layer.outputs:
            continue
        shape = graph.shape(layer.outputs[0])
        for axis, dim in enumerate(shape or ()):
            if not dim.is_static:
                yield layer, axis, dim


def _solutions(suspects: list[LayerResult]) -> set[int]:
    """Values worth trying beyond PROBES: a constant pattern without -1 or zeros needs an input of exactly its
    element count, which one dynamic input dim reaches at one value."""
    out = set()
    for v in suspects:
        if v.layer.kind != "reshape" or not v.pattern or any(b.lo in (-1, 0) for b in v.pattern):
            continue
        static = [d.lo for d in v.input_shape if d.is_static]  # type: ignore[union-attr]
        if len(static) == len(v.input_shape) - 1:  # type: ignore[arg-type]
            need, have = prod(b.lo for b in v.pattern), prod(static)
            if have and need % have == 0:
                out.add(need // have)
    return out


def _why_not(v: LayerResult, res: LayerResult, findings: list[Finding]) -> str:
    """Why the suspect ``v`` does not hold in a probe, where its check gave ``res`` and ``findings`` ("" where it
    holds): OpenVINO rejects it, its volume changes, or (a Squeeze) its rank does."""
    bad = next((f for f in findings if f.rule in _FAILS), None)
    if bad is not None:
        return bad.message.split(": ", 1)[-1]
    if v.layer.kind == "squeeze" and res.expected_known and v.expected_known:
        a, b = res.expected, v.expected
        if (a is None) != (b is None) or (a is not None and b is not None and len(a) != len(b)):
            return f"the output is {format_shape(a)}, of another rank than {format_shape(b)}"
    return ""


def _pin(holds: dict[int, str]) -> str | None:
    """How the values that hold are pinned: "only at 1", "only at multiples of 8"; None where every value
    tried holds (or none: then no single dim is to blame)."""
    good = [k for k, why in holds.items() if not why]
    if len(good) == len(holds) or not good:
        return None
    if len(good) == 1:
        return f"only at {good[0]} (of {_tried(holds)})"
    step = 0
    for k in good:
        step = gcd(step, k)
    if step > 1 and all((k % step == 0) == (not why) for k, why in holds.items()):
        return f"only at multiples of {step} (of {_tried(holds)})"
    return f"only at {', '.join(map(str, good))} (of {_tried(holds)})"


def _tried(holds: dict[int, str]) -> str:
    return "the values tried: " + ", ".join(map(str, holds))
