"""How the expected dims of one layer of an IR are derived (a Reshape-family layer's step by step).

The verdict comes from the checker (:mod:`irreshape.checks.openvino`); this module only retells
it step by step: the input dims and where they came from, the shape values and where they came
from, what each pattern element does, how ``-1`` was solved, and the findings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..checks.reshape import KINDS, kind_name
from ..core import etypes
from ..core.dims import INF, Bound, Dim, Shape, format_shape, is_static_shape, volume
from ..core.results import FileResult, LayerResult
from ..core.text import fmt_list
from . import ExplainError

if TYPE_CHECKING:
    from ..frontends.openvino.model import Layer


def find_layer(result: FileResult, wanted: str) -> LayerResult:
    """The checked layer whose id is ``wanted``, else whose name is ``wanted``."""
    matches = [lr for lr in result.layers if lr.layer.id == wanted] or \
              [lr for lr in result.layers if lr.layer.name == wanted]
    if len(matches) == 1:
        return matches[0]
    if matches:
        ids = ", ".join(lr.layer.id for lr in matches)
        raise ExplainError(f"{len(matches)} layers are named {wanted!r} (ids {ids}): give the id")
    known = ", ".join(f"{lr.layer.name!r} (id {lr.layer.id})" for lr in result.layers[:10]) or "none"
    raise ExplainError(f"no layer with id or name {wanted!r} (layers: {known})")


def explain_layer(result: FileResult, wanted: str) -> list[str]:
    """The explanation of layer ``wanted`` of a checked IR, as lines of text."""
    if result.model is None or not result.model.layers:
        problems = "; ".join(f"{f.code} {f.message}" for f in result.findings) or "no layers"
        raise ExplainError(f"{result.path} cannot be read as an IR: {problems}")
    lr = find_layer(result, wanted)
    return list(_lines(result, lr) if lr.layer.kind in KINDS else _layer_lines(result, lr))


def _layer_lines(result: FileResult, lr: LayerResult):
    """Any layer but the Reshape family's: its inputs as they arrive, its attributes, and each output port's
    declared and inferred dims."""
    layer = lr.layer
    yield f"{layer.type} {layer.name!r} (id {layer.id}, {layer.version}), line {layer.line} of {result.path}"
    yield ""
    for port in layer.inputs:
        src = port.producer
        came = "no edge feeds it" if src is None else f"from {src[0].type} {src[0].name!r} (id {src[0].id}) port {src[1].id}"
        yield f"input port {port.id}: declares {_declared_text(port.dims)}, {came}"
    if layer.data:
        yield "attributes: " + ", ".join(f"{k}={v}" for k, v in layer.data.items())
    yield ""
    for out in lr.outputs or []:
        expected = format_shape(out.expected) if out.expected_known else "unknown"
        yield f"output port {out.port}: declared {_declared_text(out.declared)}, OpenVINO infers {expected}"
        yield f"  precision: {_types_text(out)}"
    yield from _verdict(result, lr)


def _types_text(out) -> str:
    """An output port's declared precision and the one OpenVINO's type is written as."""
    declared = "none" if out.declared_type is None else repr(out.declared_type)
    expected = "unknown" if out.expected_type is None else repr(out.expected_type)
    said = f"declared {declared}, OpenVINO infers {expected}"
    if out.retyped:
        return said + " (differs)"
    if None not in (out.declared_type, out.expected_type) and \
            etypes.from_precision(out.declared_type) != etypes.from_precision(out.expected_type):
        return said + f" (read_model converts this IR v10 input or output to {out.declared_type}: no lie)"
    return said


def _lines(result: FileResult, lr: LayerResult):
    layer = lr.layer
    model = result.model
    assert model is not None
    yield f"{kind_name(layer)} {layer.name!r} (id {layer.id}), line {layer.line} of {result.path}"
    yield ""
    yield f"input dims (port 0): {format_shape(lr.input_shape)}"
    yield f"  from {_input_origin(layer, result)}"
    if lr.pattern is not None:
        yield f"shape values: {_pattern_text(lr.pattern)}"
        yield f"  from {lr.pattern_origin}"
    else:
        reason = next((f.message for f in result.findings if f.code == "IR109" and _about(f, layer)), "")
        yield "shape values: unknown" + (f" ({reason.split(': ', 1)[-1]})" if reason else "")
    yield f"special_zero: {str(lr.special_zero).lower()}" + (
        "" if layer.kind != "reshape" or "special_zero" in layer.data else " (attribute missing: read as false)")
    if lr.pattern is not None:
        yield ""
        yield "derivation:"
        yield from ("  " + s for s in derive(lr.input_shape, lr.pattern, lr.special_zero, lr.expected))
    yield ""
    yield f"declared: {_declared_text(lr.declared)}"
    yield f"expected: {format_shape(lr.expected) if lr.expected_known else 'unknown'}"
    for out in lr.outputs or []:
        yield f"precision: {_types_text(out)}"
    yield from _verdict(result, lr)


def _verdict(result: FileResult, lr: LayerResult):
    """The layer's status and its findings."""
    yield f"verdict:  {lr.status}"
    findings = [f for f in result.findings if _about(f, lr.layer)]
    yield ""
    causes = ", ".join(f"id {c}" for c in lr.causes)
    yield "findings:" if findings else (f"findings: none of its own: it repeats the declared dims of {causes} upstream, "
                                        "whose findings cover it" if causes else "findings: none")
    for f in findings:
        yield f"  {f.code} {f.severity} (line {f.line}): {f.message}"


def _about(finding, layer: "Layer") -> bool:
    return finding.layer is not None and finding.layer.id == layer.id


def _declared_text(declared: Optional[list[int]]) -> str:
    return "no output port" if declared is None else fmt_list(declared)


def _input_origin(layer: "Layer", result: FileResult) -> str:
    port = layer.inputs[0]
    src = port.producer
    if src is None:
        return f"the <dim>s of input port {port.id} (no edge feeds it)"
    s_layer, s_port = src
    who = f"{s_layer.type} {s_layer.name!r} (id {s_layer.id})"
    bound = _binding(result, s_layer.id) if s_layer.kind == "parameter" else None
    if bound is not None:
        return f"{who}: {bound}"
    if s_layer.kind == "parameter" and "shape" in s_layer.data:
        return f"{who}: its `shape` attribute {s_layer.data['shape']!r}"
    checked = next((lr for lr in result.layers if lr.layer.id == s_layer.id and lr.expected_known), None)
    if checked is not None:
        return f"{who} port {s_port.id}: the output irreshape recomputed for it"
    return f"{who} port {s_port.id}: the output OpenVINO infers for it"


def _binding(result: FileResult, param_id: str) -> str | None:
    """How a body's Parameter gets its dims from its outer layer's input, when the port map binds it."""
    for outer in result.model.every_layer() if result.model is not None else ():
        for body in outer.bodies:
            entry = next((e for e in body.inputs if e.layer == param_id), None)
            if entry is None or not param_id.startswith(body.prefix):
                continue
            a = entry.attrs
            port = a.get("external_port_id", "?")
            if "axis" in a:
                how = (f"sliced on axis {a['axis']} (part_size {a.get('part_size', '1')}, start {a.get('start', '0')}, "
                       f"end {a.get('end', '-1')})")
            elif any(e.to_layer == param_id for e in body.back_edges):
                how = "the initial value of a back edge, its dims as they arrive"
            else:
                how = "its dims as they arrive"
            return (f"the dims {outer.type} {outer.name!r} (id {outer.id}) gives it from its input {port}, {how}, "
                    "not its `shape` attribute")
    return None


def _bound_text(b: Bound) -> str:
    if b.lo == b.hi:
        return "?" if b.lo == INF else str(b.lo)
    return str(Dim(max(b.lo, 0), b.hi)) if b.lo >= 0 else "?"


def _pattern_text(pattern: list[Bound]) -> str:
    return "[" + ",".join(_bound_text(b) for b in pattern) + "]"


def _product(dims: list[Dim]) -> str:
    if not dims:
        return "1 (none)"
    value = Dim.of(1)
    for d in dims:
        value = value * d
    return str(value) if len(dims) == 1 else " x ".join(str(d) for d in dims) + f" = {value}"


def derive(input_shape: Shape, pattern: list[Bound], special_zero: bool, expected: Shape) -> list[str]:
    """Each pattern element's effect, and how ``-1`` was solved (Reshape-1 semantics)."""
    steps: list[str] = []
    minus_one = next((i for i, b in enumerate(pattern) if b.lo == b.hi == -1), None)
    copied: set[int] = set()
    for i, b in enumerate(pattern):
        v = _bound_text(b)
        if i == minus_one:
            steps.append(f"[{i}] -1: solved below")
        elif special_zero and b.lo == b.hi == 0:
            if input_shape is None:
                steps.append(f"[{i}] 0 with special_zero: copies input dim {i}, unknown (dynamic rank) -> ?")
            elif i < len(input_shape):
                copied.add(i)
                steps.append(f"[{i}] 0 with special_zero: copies input dim {i} -> {input_shape[i]}")
            else:
                steps.append(f"[{i}] 0 with special_zero: input dim {i} does not exist (rank {len(input_shape)})")
        elif b.lo == b.hi == 0:
            steps.append(f"[{i}] 0 without special_zero: a literal 0 -> 0")
        elif b.lo == b.hi and b.lo < -1:
            steps.append(f"[{i}] {v}: invalid (below -1)")
        elif b.lo != b.hi or b.lo == INF:
            steps.append(f"[{i}] {v}: a computed value, not known before run time -> {v}")
        else:
            steps.append(f"[{i}] {v}: taken as is -> {v}")
    if minus_one is not None:
        if input_shape is None:
            steps.append("-1 = input volume / other output dims: the input rank is dynamic")
        else:
            ins = [d for i, d in enumerate(input_shape) if i not in copied]
            outs = [Dim(max(b.lo, 0), b.hi) if b.lo != b.hi or b.lo >= 0 else Dim.dynamic()
                    for i, b in enumerate(pattern) if i != minus_one and i not in copied]
            n_copied = f", copied dims {', '.join(map(str, sorted(copied)))} left out" if copied else ""
            steps.append(f"-1 = product of the input dims{n_copied}: {_product(ins)}")
            steps.append(f"     / product of the other output dims: {_product(outs)}")
            solved = expected is not None and minus_one < len(expected)
            steps.append(f"     = {expected[minus_one] if solved else 'no valid value'}")  # type: ignore[index]
    if is_static_shape(input_shape) and is_static_shape(expected):
        n_in = volume(d.lo for d in input_shape)  # type: ignore[union-attr]
        n_out = volume(d.lo for d in expected)  # type: ignore[union-attr]
        steps.append(f"volume: input {n_in} elements, output {n_out}" + ("" if n_in == n_out else ": they differ"))
    return steps
