"""Reshape-family layers: recompute the output dims and compare them with what the XML declares."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from ..core.dims import Dim, Shape, format_shape, is_static_shape, volume
from ..shapes.reshape import Bound, ReshapeError, reshape_v1
from ..shapes.onednn import onednn_reshape
from ..core.findings import ERROR, INFO, WARNING, Finding, rule
from . import structure as S

if TYPE_CHECKING:
    from ..checks.graph import Graph
    from ..frontends.openvino.model import Layer, Port

OUTPUT_MISMATCH = rule("IR101", "reshape-output-mismatch", ERROR, """
    A Reshape's declared output dims differ from the dims recomputed from its input and pattern.

    OpenVINO ignores declared dims when it reads an IR and re-infers them, so such a file loads
    without a word, while every tool that reads the XML (viewers, partitioners, code generators)
    is misled. A static declared dim must equal the recomputed static dim; where the recomputed dim
    is dynamic (`?` or an interval such as `1..8`) the declared dim must be -1, as OpenVINO writes
    it: a static value there claims a length no export could know. Fix: re-export the model, or run
    `irreshape check --fix`.
    """)
RANK_MISMATCH = rule("IR102", "reshape-rank-mismatch", ERROR, """
    A Reshape declares a different number of output dims than its pattern produces.
    """)
INVALID_PATTERN = rule("IR103", "reshape-invalid-pattern", ERROR, """
    OpenVINO rejects the Reshape: the pattern cannot be applied to the input.

    Covers two `-1`s, values below -1, a special zero past the input rank, a `-1` that does not
    divide evenly, a literal 0 with a `-1`, a static volume mismatch, a pattern that is not a 1-D
    integer tensor. The message quotes OpenVINO's own error text. For StaticReshape and
    DynamicReshape, oneDNN's rules apply: with special_zero=false a shape may not hold both 0
    and -1.
    """)
VOLUME_MISMATCH = rule("IR104", "reshape-volume-mismatch", ERROR, """
    Input and output are fully static and hold different numbers of elements.

    The Reshape spec requires equal volumes, but OpenVINO skips the check whenever the pattern has a
    `-1` or a special zero: `[2,3,4]` reshaped by `[0,5]` (special_zero=true) loads as `[2,5]` and
    only fails at run time on the CPU plugin. irreshape reports it.
    """)
DYNAMIC_DECLARED = rule("IR105", "reshape-declared-dynamic", WARNING, """
    A dim is declared `-1` (dynamic) but its recomputed value is static.

    Harmless to OpenVINO, but tools that read the XML lose information; `--fix` writes the value.
    """)
INPUT_MISMATCH = rule("IR106", "reshape-input-mismatch", ERROR, """
    The dims on a Reshape's input port differ from the output port of the layer that feeds it.
    """)
CONSUMER_MISMATCH = rule("IR107", "reshape-consumer-mismatch", ERROR, """
    A layer consuming the Reshape's output declares input dims that differ from the Reshape's output.
    """)
PATTERN_PORT = rule("IR108", "reshape-pattern-port-mismatch", ERROR, """
    The Reshape's shape input port is not 1-D with as many elements as the shape tensor holds.
    """)
UNVERIFIED = rule("IR109", "reshape-unverified", INFO, """
    The Reshape's shape could not be evaluated, so its output dims were not verified.

    The message names what stopped the evaluation (an op type irreshape does not evaluate, a
    Parameter, a missing weight). The output rank is still checked against the pattern's length.
    """)
SPECIAL_ZERO = rule("IR110", "reshape-special-zero-spelling", WARNING, """
    `special_zero` is missing or not one of `true`, `false`, `1`, `0` (any case).

    OpenVINO silently reads anything else, and a missing attribute, as `false`.
    """)

LITERAL_ZERO = rule("IR111", "reshape-literal-zero", ERROR, """
    With special_zero=false a 0 in the pattern is a literal 0, so the output is empty, while the input
    is not known to be empty.

    The classic special_zero mistake (a 0 meant to copy an input dim): OpenVINO accepts it for a
    dynamic input, where no volume check runs, and the model fails or computes nothing at run
    time. Where the input has a static 0 the empty output is intended and nothing is reported.
    """)

RULES = (OUTPUT_MISMATCH, RANK_MISMATCH, INVALID_PATTERN, VOLUME_MISMATCH, DYNAMIC_DECLARED,
         INPUT_MISMATCH, CONSUMER_MISMATCH, PATTERN_PORT, UNVERIFIED, SPECIAL_ZERO, LITERAL_ZERO)

# element types OpenVINO refuses for a pattern: "PartialShape pattern must be an integral number."
NOT_INTEGRAL = frozenset({"f16", "f32", "f64", "bf16", "boolean", "nf4", "f8e4m3", "f8e5m2", "f4e2m1", "f8e8m0"})

KINDS = {"reshape": "Reshape", "staticreshape": "StaticReshape", "dynamicreshape": "DynamicReshape"}

OK, MISMATCH, INVALID, UNVERIFIED_STATUS = "ok", "mismatch", "invalid", "unverified"


@dataclass(slots=True)
class LayerResult:
    """The verdict on one Reshape-family layer, and how it was reached (for `explain`)."""

    layer: "Layer"
    status: str
    declared: Optional[list[int]]
    expected: Shape = None
    expected_known: bool = False
    input_shape: Shape = None
    pattern: Optional[list[Bound]] = None
    pattern_origin: str = ""
    special_zero: bool = False
    steps: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        from ..core.dims import shape_to_json

        return {
            "id": self.layer.id, "name": self.layer.name, "type": self.layer.type, "line": self.layer.line,
            "status": self.status, "declared": self.declared,
            "expected": shape_to_json(self.expected) if self.expected_known else None,
        }


def parse_bool(text: Optional[str]) -> tuple[bool, bool]:
    """(value, well-spelled) the way OpenVINO reads a bool attribute."""
    if text is None:
        return False, False
    t = text.strip().lower()
    if t in ("true", "1"):
        return True, True
    if t in ("false", "0"):
        return False, True
    return False, False


def _fmt(dims) -> str:
    return "[" + ",".join(str(d) for d in dims) + "]"


def check_layer(layer: "Layer", graph: "Graph") -> tuple[LayerResult, list[Finding]]:
    """Recompute one Reshape-family layer; return its verdict and its findings."""
    findings: list[Finding] = []
    ref = layer.ref
    kind = layer.kind
    out_port = layer.outputs[0] if layer.outputs else None
    declared = list(out_port.dims) if out_port is not None and out_port.dims is not None else None
    res = LayerResult(layer, OK, declared)

    who = f"{kind_name(layer)} {layer.name!r} (id {layer.id})"

    def find(r, msg, line=None):
        findings.append(Finding(r, msg, line or layer.line, ref))

    sz, well_spelled = parse_bool(layer.data.get("special_zero"))
    res.special_zero = sz
    if not well_spelled:
        raw = layer.data.get("special_zero")
        find(SPECIAL_ZERO, f"{who}: special_zero is "
             + ("missing" if raw is None else f"{raw!r}") + "; OpenVINO reads it as false")

    data_port = _input(layer, 0)
    if data_port is None or out_port is None or (kind != "staticreshape" and _input(layer, 1) is None):
        what = "data input" if data_port is None else ("output" if out_port is None else "shape input")
        find(S.MISSING_PORT, f"{who} has no {what} port")
        res.status = INVALID
        return res, findings

    candidates = _input_candidates(layer, data_port, graph)
    in_shape = res.input_shape = candidates[0]
    findings.extend(_check_input_edge(layer, data_port, graph, candidates))

    # -- the pattern ---------------------------------------------------------------------------
    bounds: Optional[list[Bound]] = None
    pattern_len: Optional[int] = None
    if kind == "staticreshape":
        try:
            vals = [int(t) for t in layer.data.get("shape", "").replace(" ", "").split(",") if t != ""]
            bounds = [Bound.value(v) for v in vals]
            res.pattern_origin = f"the `shape` attribute of {layer.name!r}"
        except ValueError:
            find(INVALID_PATTERN, f"StaticReshape {layer.name!r}: shape {layer.data.get('shape')!r} "
                 "is not a comma-separated list of integers")
            res.status = INVALID
            return res, findings
    else:
        from ..checks.graph import Unknown
        from ..frontends.openvino.weights import element_type

        shape_port = _input(layer, 1)
        assert shape_port is not None
        src = shape_port.producer
        if src is not None and src[0].type == "Const":
            et = element_type(src[0].data.get("element_type") or "")
            if et in NOT_INTEGRAL:
                find(INVALID_PATTERN, f"{who}: the pattern Const "
                     f"{src[0].name!r} is {et}: PartialShape pattern must be an integral number.")
                res.status = INVALID
                return res, findings
        value = graph.input_value(layer, shape_port)
        if isinstance(value, Unknown):
            if value.finding is not None:
                findings.append(value.finding)
            if src is not None and src[1].dims is not None and len(src[1].dims) == 1 and src[1].dims[0] >= 0:
                pattern_len = src[1].dims[0]
            elif shape_port.dims is not None and len(shape_port.dims) == 1 and shape_port.dims[0] >= 0:
                pattern_len = shape_port.dims[0]
            if value.finding is not None and value.finding.rule is INVALID_PATTERN:
                res.status = INVALID  # the shape subgraph itself fails in OpenVINO (e.g. a division by zero)
                return res, findings
            res.status = UNVERIFIED_STATUS
            reason = value.reason if value.finding is None else (
                f"its shape cannot be read ({value.finding.code} on line {value.finding.line})")
            find(UNVERIFIED, f"{who} not verified: {reason}")
        else:
            if len(value.shape) != 1:
                find(INVALID_PATTERN, f"{who}: the pattern has shape "
                     f"{list(value.shape)}: Pattern shape must have rank 1")
                res.status = INVALID
                return res, findings
            bounds = value.bounds
            res.pattern_origin = value.origin
        if bounds is not None or pattern_len is not None:
            n = len(bounds) if bounds is not None else pattern_len
            if shape_port.dims is not None and tuple(shape_port.dims) != (n,):
                find(PATTERN_PORT, f"{who}: shape input port "
                     f"{shape_port.id} declares {_fmt(shape_port.dims)}, the shape tensor has {n} elements")

    res.pattern = bounds
    if bounds is None:
        if pattern_len is not None and declared is not None and len(declared) != pattern_len:
            find(RANK_MISMATCH, f"{who}: declares rank {len(declared)} "
                 f"{_fmt(declared)}, the shape input has {pattern_len} elements")
            res.status = MISMATCH
        findings.extend(_check_consumers(layer, out_port, declared, graph))
        return res, findings

    # -- recompute --------------------------------------------------------------------------
    # With a lying Reshape upstream, take the reading of its output that explains this layer: the
    # blame stays with the layer that lies.
    engine = reshape_v1 if kind == "reshape" else onednn_reshape
    outcomes = [(shape, graph.reshaped(engine, shape, bounds, sz)) for shape in candidates]
    in_shape, expected = next((o for o in outcomes if declared is not None and not isinstance(o[1], ReshapeError)
                               and _agrees_all(declared, o[1])), outcomes[0])
    res.input_shape = in_shape
    if isinstance(expected, ReshapeError):
        e = expected
        find(INVALID_PATTERN, f"{who}: input {format_shape(in_shape)}, "
             f"pattern {_fmt(b.lo if b.lo == b.hi else '?' for b in bounds)}, special_zero={str(sz).lower()}: "
             f"{e.message}")
        res.status = INVALID
        findings.extend(_check_consumers(layer, out_port, declared, graph))
        return res, findings
    res.expected = expected
    res.expected_known = True

    zeros = [i for i, b in enumerate(bounds) if b.lo == b.hi == 0]
    if not sz and zeros and in_shape is not None and not any(d == 0 for d in in_shape):
        find(LITERAL_ZERO, f"{who}: special_zero=false makes the 0 at "
             f"index {', '.join(map(str, zeros))} a literal 0, so the output {format_shape(expected)} is empty while "
             f"the input {format_shape(in_shape)} is not known to be (special_zero=true copies input dims)")
        res.status = INVALID

    if is_static_shape(in_shape) and is_static_shape(expected):
        vin = volume(d.lo for d in in_shape)  # type: ignore[union-attr]
        vout = volume(d.lo for d in expected)
        if vin != vout:
            find(VOLUME_MISMATCH, f"{who}: input {format_shape(in_shape)} "
                 f"has {vin} elements, output {format_shape(expected)} has {vout}; OpenVINO accepts this "
                 "pattern only because it skips the volume check")
            res.status = INVALID

    # -- compare ---------------------------------------------------------------------------
    if declared is not None:
        status = _compare(layer, declared, expected, find)
        if res.status == OK:
            res.status = status
    findings.extend(_check_consumers(layer, out_port, declared, graph, expected))
    return res, findings


def kind_name(layer: "Layer") -> str:
    return KINDS.get(layer.kind, layer.type)


def _input(layer: "Layer", index: int) -> Optional["Port"]:
    return layer.inputs[index] if len(layer.inputs) > index else None


def _input_candidates(layer: "Layer", port: "Port", graph: "Graph") -> list[Shape]:
    """The input shape, and where a checked Reshape feeds it with dims other than it declares, that
    Reshape's declared dims as a second reading."""
    first = graph.input_shape(layer, port)
    src = port.producer
    if src is None or src[1].dims is None or graph.computed(src[1]) is None:
        return [first]
    declared = [Dim.of(v) for v in src[1].dims]
    if first is not None and [d.to_ir() for d in first] == [d.to_ir() for d in declared]:
        return [first]
    return [first, declared]


def _agrees_all(declared: list[int], expected: Shape) -> bool:
    return expected is not None and len(declared) == len(expected) and all(
        agrees(d, e) and not (d == -1 and e.is_static) for d, e in zip(declared, expected))


def agrees(declared: int, expected: Dim) -> bool:
    """Can a declared ``<dim>`` stand for the recomputed dim?

    ``-1`` stands for anything. A static value must be the recomputed static value: OpenVINO's
    serializer writes ``-1`` for every dim it cannot prove static (``?`` and intervals alike), so a
    static value where the dim is dynamic claims what no export could know.
    """
    return declared == -1 or (expected.is_static and expected.lo == declared)


def _compare(layer: "Layer", declared: list[int], expected: list[Dim], find) -> str:
    name = f"{kind_name(layer)} {layer.name!r} (id {layer.id})"
    exp = format_shape(expected)
    if len(declared) != len(expected):
        find(RANK_MISMATCH, f"{name}: declares {_fmt(declared)} (rank {len(declared)}), "
             f"expected {exp} (rank {len(expected)})")
        return MISMATCH
    bad = [i for i, (d, e) in enumerate(zip(declared, expected)) if not agrees(d, e)]
    if bad:
        find(OUTPUT_MISMATCH, f"{name}: declares {_fmt(declared)}, expected {exp} "
             f"(dim {', '.join(str(i) for i in bad)})")
        return MISMATCH
    loose = [i for i, (d, e) in enumerate(zip(declared, expected)) if d == -1 and e.is_static]
    if loose:
        find(DYNAMIC_DECLARED, f"{name}: declares {_fmt(declared)}, expected {exp}: "
             f"dim {', '.join(str(i) for i in loose)} is static")
        return MISMATCH
    return OK


def _check_input_edge(layer: "Layer", port: "Port", graph: "Graph", candidates: list[Shape]) -> Iterator[Finding]:
    """The input port must hold what its producer produces: a Parameter's `shape` attribute (its port
    dims are only decoration), a checked Reshape's recomputed (or, when that one lies, declared) dims."""
    src = port.producer
    if src is None or src[1].dims is None or port.dims is None:
        return
    src_layer, src_port = src
    readings = [tuple(d.to_ir() for d in c) for c in candidates if c is not None]
    if src_layer.kind != "parameter" and graph.computed(src_port) is None:
        readings = [tuple(src_port.dims)]
    theirs = readings[0] if readings else tuple(src_port.dims)
    if tuple(port.dims) not in readings:
        yield Finding(INPUT_MISMATCH, f"{kind_name(layer)} {layer.name!r} (id {layer.id}): input port {port.id} "
                      f"declares {_fmt(port.dims)}, but {src_layer.type} {src_layer.name!r} (id {src_layer.id}) "
                      f"port {src_port.id} produces {_fmt(theirs)}", port.line, layer.ref)


def _check_consumers(layer: "Layer", out_port: "Port", declared, graph: "Graph",
                     expected: Shape = None) -> Iterator[Finding]:
    """Each consumer's input port must agree with the Reshape's output.

    Where the output is recomputed, a consumer is judged against the recomputed dims, so a lying
    output port (already IR101/IR102) does not also blame the consumers that have it right. A
    consumer that is itself a Reshape checks its own input port (IR106): the blame goes to it alone.
    """
    for c_layer, c_port in graph.model.consumers(layer.id, out_port.id):
        if c_port.dims is None or c_layer.kind in KINDS:
            continue
        if expected is not None:
            theirs = c_port.dims
            if len(theirs) == len(expected) and all(agrees(d, e) for d, e in zip(theirs, expected)):
                continue
            reference = f"is {format_shape(expected)}"
        elif declared is None or list(c_port.dims) == declared:
            continue
        else:
            reference = f"declares {_fmt(declared)}"
        yield Finding(CONSUMER_MISMATCH, f"{kind_name(layer)} {layer.name!r} (id {layer.id}): output {reference}, "
                      f"but consumer {c_layer.type} {c_layer.name!r} (id {c_layer.id}) input port {c_port.id} "
                      f"declares {_fmt(c_port.dims)}", c_port.line, layer.ref)
