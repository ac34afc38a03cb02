"""The Reshape family on OpenVINO's CPU plugin (IR4xx, :mod:`irreshape.rules.runtime`): what `read_model` accepts
and the CPU plugin of openvino 2026.4.1 fails to compile or to run. A finding goes on the Reshape, Squeeze or
Unsqueeze itself, even where the plugin's message names a downstream node it fused the layer with."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.dims import Shape, format_shape, is_static_shape, volume
from ..core.findings import Finding, Rule
from ..core.results import LayerResult, Status
from ..core.text import fmt_list
from ..rules.runtime import AXIS_SKIP, DYNAMIC_AXIS, DYNAMIC_RANK, VOLUME_MISMATCH
from ..shapes import registry
from ..shapes.dimops import normalize_axes
from ..shapes.registry import parse_flag
from .values import Unknown

if TYPE_CHECKING:
    from ..frontends.openvino.model import Layer
    from .graph import Graph

MAX_WALK = 64  # layers followed downstream to tell whether the plugin takes a layer out of its graph
_UNKNOWN = object()  # irreshape cannot tell the output the plugin sees


def cpu_findings(layer: "Layer", graph: "Graph", res: LayerResult, who: str) -> list[Finding]:
    """IR401–IR404 for one Reshape, Squeeze or Unsqueeze, once checked (``res``: its verdict; ``who``: how the
    messages name it). Nothing where OpenVINO rejects the layer, or where a dynamic rank reaches it: the plugin
    then names the layer that made that rank."""
    in_shape = res.input_shape
    if not graph.plugin or layer.kind not in ("reshape", "squeeze", "unsqueeze") or res.status is Status.INVALID \
            or in_shape is None:
        return []
    out = _plugin_output(layer, graph, res)

    def find(rule: Rule, message: str) -> list[Finding]:
        return [Finding(rule, f"{who}: {message}", layer.line, layer.ref)]

    if out is None:
        if not _rank_made_here(layer, graph):
            return []
        return find(DYNAMIC_RANK, f"input {format_shape(in_shape)}, output of dynamic rank: the CPU plugin fails at "
                    f"compile_model (\"CPU plug-in doesn't support {layer.type} operation with dynamic rank\")")
    if out is _UNKNOWN:
        return []
    if _skips_axes(layer):
        if is_static_shape(in_shape):
            return []
        return find(AXIS_SKIP, f"allow_axis_skip=true on input {format_shape(in_shape)}: the CPU plugin fails at "
                    "compile_model (\"[cpu]reshape: Squeeze is not implemented\"), naming no layer")
    if layer.kind == "squeeze":
        dims = squeezed_dynamic(layer, graph, in_shape)
        if dims and not _taken_out(layer, graph, out):  # type: ignore[arg-type]
            return find(DYNAMIC_AXIS, f"input {format_shape(in_shape)}: axis {', '.join(map(str, dims))} is dynamic "
                        f"and removed as if it were 1 (output {format_shape(out)}); on the CPU plugin any other "
                        "value fails at inference (\"Can not clone with new dims\") or is silently reshaped")
    elif layer.kind == "reshape":
        why = _volume_mismatch(in_shape, res)
        if why:
            pattern = fmt_list(b.lo for b in res.pattern)  # type: ignore[union-attr]
            return find(VOLUME_MISMATCH, f"input {format_shape(in_shape)}, pattern {pattern}, special_zero="
                        f"{str(res.special_zero).lower()}: {why} (\"[cpu]reshape: the shape of input data ... "
                        "conflicts with the reshape pattern\")")
    return []


def _squeeze15(layer: "Layer") -> bool:
    unit = registry.op(layer.type, layer.version) if layer.kind == "squeeze" else None
    return unit is not None and (unit.version or 0) >= 15


def _skips_axes(layer: "Layer") -> bool:
    """A Squeeze-15 with axes and allow_axis_skip: the one the plugin keeps (it makes the others Squeeze-0)."""
    return _squeeze15(layer) and len(layer.inputs) > 1 and parse_flag(layer.data.get("allow_axis_skip"))


def _plugin_output(layer: "Layer", graph: "Graph", res: LayerResult) -> "Shape | object":
    """The layer's output as the CPU plugin sees it (None: a dynamic rank; _UNKNOWN where irreshape cannot tell):
    as `read_model` infers it, a Squeeze-15 without allow_axis_skip as the Squeeze-0 the plugin makes of it. A
    Reshape's rank is its pattern's length."""
    if layer.kind == "reshape":
        pattern = graph.input_shape(layer.inputs[1]) if len(layer.inputs) > 1 else None
        if pattern is None or (len(pattern) == 1 and pattern[0].is_dynamic):
            return None
        return res.expected if res.expected_known else _UNKNOWN
    if not res.expected_known:
        return _UNKNOWN
    out = res.expected
    if out is None and _squeeze15(layer) and not _skips_axes(layer):
        ins = [res.input_shape, *[graph.input_shape(p) for p in layer.inputs[1:]]]
        out = graph.infer_output(layer, layer.outputs[0], ins, version="opset1")
    return out if out is None or isinstance(out, list) else _UNKNOWN


def _rank_made_here(layer: "Layer", graph: "Graph") -> bool:
    """Whether no tensor upstream of the layer has a dynamic rank (a pattern that is the ShapeOf of one): the
    plugin, compiling producers first, would name that tensor's producer."""
    todo, seen = [p.source for p in layer.inputs], set()
    while todo:
        port = todo.pop()
        if port is None or id(port) in seen:
            continue
        seen.add(id(port))
        if graph.shape(port) is None:
            return False
        todo.extend(p.source for p in port.layer.inputs)  # type: ignore[union-attr]
    return True


def squeezed_dynamic(layer: "Layer", graph: "Graph", in_shape: list) -> list[int]:
    """The axes a Squeeze with known axes removes whose dims are dynamic (and so may be 1, or it would keep them)."""
    if len(layer.inputs) < 2:
        return []
    axes = graph.input_value(layer, layer.inputs[1])
    if isinstance(axes, Unknown) or any(b.lo != b.hi for b in axes.bounds):
        return []
    try:
        removed = set(normalize_axes([b.lo for b in axes.bounds], len(in_shape)))
    except ValueError:
        return []
    # a scalar takes the axes 0 and -1 and has no dim to remove
    return [i for i in sorted(removed) if i < len(in_shape) and in_shape[i].is_dynamic and in_shape[i].contains(1)]


def _volume_mismatch(in_shape: list, res: LayerResult) -> str | None:
    """Why the CPU plugin fails a Reshape whose pattern has known values and no -1, on a dynamic input, at every
    non-empty input: the input dims its special zeros do not copy can make the element count of the rest of the
    pattern at no value of their dynamic dims (read_model checks no volume on a dynamic input). None where they
    make it, or may (a dynamic dim that may take the one value that fits, as real models rely on: where it is a
    Parameter's dim, IR503 says it is pinned), or where IR104 or IR111 has it (a fully static input, a literal 0)."""
    bounds = res.pattern
    if bounds is None or is_static_shape(in_shape) or any(b.lo != b.hi for b in bounds):
        return None
    values = [b.lo for b in bounds]
    if -1 in values or (0 in values and not res.special_zero):
        return None
    rest = [(i, d) for i, d in enumerate(in_shape) if i >= len(values) or values[i] != 0]
    have = volume(d.lo for _, d in rest if d.is_static)
    need = volume(v for v in values if v != 0)
    dynamic = [(i, d) for i, d in rest if not d.is_static]
    if not dynamic:
        if have == need:
            return None
        return (f"the input dims it does not copy hold {have} elements, the output's {need}, so the CPU plugin fails "
                "at inference on every non-empty input")
    if have and need % have == 0 and _reachable(need // have, [d for _, d in dynamic]):
        # the dynamic dims may take the values that fit, as real models rely on (a dim always 1 that irreshape
        # cannot prove static): IR503's probes tell whether a Parameter's dim is pinned there
        return None
    if not have:
        return None  # a static 0: every input is empty
    return (f"the input dims it does not copy, {format_shape([d for _, d in rest])}, hold {need} elements (the "
            "output's) at no value of their dynamic dims, so the CPU plugin fails at inference on every non-empty "
            "input")


def _reachable(n: int, dims: list) -> bool:
    """Whether dynamic dims (intervals) can multiply to ``n`` (each at least its lower bound, at most its upper)."""
    if len(dims) == 1:
        return dims[0].contains(n)
    lo = volume(max(d.lo, 0) for d in dims)
    return lo <= n and (lo > 0 or n >= 0)


def _taken_out(layer: "Layer", graph: "Graph", out: Shape) -> bool:
    """Whether the CPU plugin's transformations take the layer out of the graph it runs, so that no run-time check
    fails on it: a static output that only ShapeOfs read (they fold to constants), or that reaches (through
    element-wise ops on it alone and reshape-family layers with static outputs) a Reshape whose pattern is
    computed, which the plugin merges with the reshapes before it (as its ReshapeSequenceFusion does)."""
    current, shape = layer, out
    for _ in range(MAX_WALK):
        if not isinstance(shape, list) or not is_static_shape(shape) or not current.outputs:
            return False
        users = graph.model.consumers(current.id, current.outputs[0].id)
        if users and all(user.kind == "shapeof" for user, _ in users):
            return True
        if len(users) != 1 or users[0][1] is not users[0][0].inputs[0] or not users[0][0].outputs:
            return False
        user = users[0][0]
        if user.kind == "reshape" and len(user.inputs) > 1:
            src = user.inputs[1].source
            if src is None or src.layer.kind != "const":  # type: ignore[union-attr]
                return True
        ins = [shape, *[graph.input_shape(p) for p in user.inputs[1:]]]
        next_shape = graph.infer_output(user, user.outputs[0], ins)
        constants = all(p.source is not None and p.source.layer.kind == "const"  # type: ignore[union-attr]
                        for p in user.inputs[1:])
        if user.kind not in ("reshape", "squeeze", "unsqueeze") and (next_shape != shape or not constants):
            return False  # not an element-wise op on this tensor alone
        current, shape = user, next_shape  # type: ignore[assignment]
    return False
