"""Reshape-family layers of an IR: recompute the output dims and compare them with what the XML declares."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Optional

from ..core.dims import Agreement, Bound, Dim, Shape, differing, disagreements, format_shape, is_static_shape, volume
from ..core.findings import Finding, Rule
from ..core.results import LayerResult, Status
from ..core.text import fmt_list, parse_bool
from ..frontends.openvino.weights import element_type
from ..rules import structure as S
from ..rules.layers import UNPROVEN
from ..rules.weights import WHOLE_FILE
from ..rules.reshape import (CONSUMER_MISMATCH, DYNAMIC_DECLARED, INPUT_MISMATCH, INVALID_PATTERN, LITERAL_ZERO,
                             OUTPUT_MISMATCH, PATTERN_PORT, RANK_MISMATCH, SPECIAL_ZERO, UNVERIFIED, VOLUME_MISMATCH)
from ..shapes.onednn import onednn_reshape
from ..shapes.reshape import ReshapeError, reshape_v1
from ..shapes.values import RAW_REFUSED
from .graph import READ
from .runtime import cpu_findings
from .values import Unknown

if TYPE_CHECKING:
    from ..frontends.openvino.model import Layer, Port
    from .graph import Graph

# element types OpenVINO refuses for a pattern: "PartialShape pattern must be an integral number."
NOT_INTEGRAL = frozenset({"f16", "f32", "f64", "bf16", "boolean", "f8e4m3", "f8e5m2", "f4e2m1", "f8e8m0"})  # nf4 reads

KINDS = {"reshape": "Reshape", "staticreshape": "StaticReshape", "dynamicreshape": "DynamicReshape"}
VIEWS = {"squeeze": "Squeeze", "unsqueeze": "Unsqueeze"}  # reshapes too: views that only change dims
FAMILY = {**KINDS, **VIEWS}
_SHAPE_INPUT = ("reshape", "dynamicreshape")  # the kinds whose pattern is an input (Squeeze's axes may be absent)

_WRONG = frozenset({Agreement.UNPROVEN, Agreement.CONTRADICTS})  # a declared dim IR101 reports
# which declared dims each rule reports, and how its message ends
_ANSWERS = ((frozenset({Agreement.CONTRADICTS}), OUTPUT_MISMATCH, " (dim {})"),
            (frozenset({Agreement.UNPROVEN}), UNPROVEN, ": dim {} is dynamic, not the static value declared"),
            (frozenset({Agreement.LOOSE}), DYNAMIC_DECLARED, ": dim {} is static"))


def kind_name(layer: "Layer") -> str:
    return FAMILY.get(layer.kind, layer.type)


def describe(layer: "Layer") -> str:
    return f"{kind_name(layer)} {layer.name!r} (id {layer.id})"


class _Done(Exception):
    """The layer's verdict is reached before its output is recomputed."""


class _Check:
    """One Reshape-family layer being checked: its verdict and findings as they are reached."""

    def __init__(self, layer: "Layer", graph: "Graph") -> None:
        self.layer, self.graph = layer, graph
        self.out = layer.outputs[0] if layer.outputs else None
        declared = list(self.out.dims) if self.out is not None and self.out.dims is not None else None
        self.res = LayerResult(layer, Status.OK, declared)
        self.findings: list[Finding] = []
        self.who = describe(layer)

    def find(self, rule: Rule, message: str, line: int | None = None) -> None:
        self.findings.append(Finding(rule, f"{self.who}: {message}", line or self.layer.line, self.layer.ref))

    def stop(self, status: Status, consumers: bool = False) -> _Done:
        self.res.status = status
        if consumers:
            self.findings.extend(_check_consumers(self.layer, self.out, self.res.declared, self.graph))
        return _Done()


def checker(layer: "Layer"):
    """The check of a Reshape-family layer (None for any other layer)."""
    return check_layer if layer.kind in KINDS else check_view if layer.kind in VIEWS else None


def check_layer(layer: "Layer", graph: "Graph") -> tuple[LayerResult, list[Finding]]:
    """Recompute one Reshape-family layer; return its verdict and its findings."""
    c = _Check(layer, graph)
    try:
        _special_zero(c)
        data_port = _ports(c)
        c.res.input_shape = graph.input_shape(data_port)
        _check_input_edge(c, data_port, c.res.input_shape)
        bounds = _static_pattern(c) if layer.kind == "staticreshape" else _pattern(c)
        _recompute(c, bounds)
    except _Done:
        pass
    _on_taken(c)
    c.findings.extend(cpu_findings(layer, graph, c.res, c.who))
    return c.res, c.findings


# what the spec forbids and read_model accepts: an error on the layer, which leaves its status what its dims make it
# (``invalid`` is OpenVINO's refusal alone)
SPEC = (VOLUME_MISMATCH, LITERAL_ZERO)


def breaks_spec(findings: list[Finding]) -> bool:
    """Whether ``findings`` hold an error of :data:`SPEC`: the layer loads and fails at run time."""
    return any(f.rule in SPEC for f in findings)


# what OpenVINO infers or rejects, claimed from the dims arriving at the layer
_CLAIMS = frozenset(r.code for r in (OUTPUT_MISMATCH, RANK_MISMATCH, INVALID_PATTERN, DYNAMIC_DECLARED, INPUT_MISMATCH,
                                     CONSUMER_MISMATCH, LITERAL_ZERO, UNPROVEN))


def _on_taken(c: _Check) -> None:
    """A layer whose inputs rest on dims taken from the XML (an op irreshape does not infer, or cannot tell):
    nothing it found says what OpenVINO infers or rejects, so a mismatch or a rejection leaves it unverified. In
    a scenario (where the taken dims are the exported model's) its expected dims and volumes are not known either."""
    scenario = c.graph.scenario
    if (not scenario and c.res.status not in (Status.MISMATCH, Status.INVALID) and not breaks_spec(c.findings)) or \
            not any(c.graph.rests_on_taken(p) for p in c.layer.inputs):
        return
    if scenario:
        c.res.expected_known = False
    c.findings = [f for f in c.findings if f.rule.code not in _CLAIMS and not (scenario and f.rule is VOLUME_MISMATCH)]
    c.res.status, c.res.edges = Status.UNVERIFIED, ()
    c.findings.append(Finding(UNVERIFIED, f"{c.who} not verified: its inputs rest on declared dims irreshape takes "
                              "from the XML (a layer it does not infer)", c.layer.line, c.layer.ref))


def verdict_key(layer: "Layer", graph: "Graph") -> tuple | None:
    """What :func:`check_layer` reads of a Reshape and its neighbourhood, as a key: two Reshapes with equal keys
    get the same verdict and findings but for their names (a deep model repeats its blocks). The identities
    are of objects the parser and the graph share by content (<data>, dims tuples, interned shapes). None
    where the pattern cannot be evaluated (the verdict then names the layer that stopped it)."""
    if layer.kind != "reshape" or len(layer.inputs) != 2 or len(layer.outputs) != 1:
        return None
    data, shape = layer.inputs
    value = graph.input_value(layer, shape)
    if isinstance(value, Unknown):
        return None
    src, pattern_src = data.source, shape.source
    return (layer.version, id(layer.data), id(graph.input_shape(data)), id(data.dims), id(shape.dims),
            None if src is None else (id(src.dims), src.layer.kind),  # type: ignore[union-attr]
            None if pattern_src is None else (id(pattern_src.dims), pattern_src.layer.kind,  # type: ignore[union-attr]
                                              pattern_src.layer.data.get("element_type")),  # type: ignore[union-attr]
            value.element_type, value.shape, tuple([(b.lo, b.hi, b.sym) for b in value.bounds]),
            id(layer.outputs[0].dims), graph.rests_on_taken(data) or graph.rests_on_taken(shape),
            tuple([(c.kind, id(p.dims)) for c, p in graph.model.consumers(layer.id, layer.outputs[0].id, FAMILY)]))


def same_verdict(known: LayerResult, layer: "Layer") -> LayerResult:
    """The verdict of ``known`` (an ``ok`` one, without findings) for ``layer``, whose key is equal."""
    dims = layer.outputs[0].dims
    # equal keys hold the same dims tuple (the parser shares them): the declared dims are ``known``'s, one list
    declared = known.declared if known.layer.outputs[0].dims is dims else None if dims is None else list(dims)
    return LayerResult(layer, known.status, declared, known.expected, known.expected_known,
                       known.input_shape, known.pattern, known.pattern_origin, known.special_zero)


def _special_zero(c: _Check) -> None:
    raw = c.layer.data.get("special_zero")
    c.res.special_zero, well_spelled = parse_bool(raw)
    if not well_spelled:
        c.find(SPECIAL_ZERO, "special_zero is " + ("missing" if raw is None else f"{raw!r}")
               + "; OpenVINO reads it as false")


def _ports(c: _Check) -> "Port":
    """The data input port; IR022 and the verdict `invalid` without it, the shape input or the output."""
    layer = c.layer
    data_port = _input(layer, 0)
    if data_port is None or c.out is None or (layer.kind in _SHAPE_INPUT and _input(layer, 1) is None):
        what = "data input" if data_port is None else ("output" if c.out is None else "shape input")
        c.findings.append(Finding(S.MISSING_PORT, f"{c.who} has no {what} port", layer.line, layer.ref))
        raise c.stop(Status.INVALID)
    return data_port


def _static_pattern(c: _Check) -> list[Bound]:
    """StaticReshape (oneDNN's, as an IR layer): the pattern is its `shape` attribute."""
    layer = c.layer
    try:
        vals = [int(t) for t in layer.data.get("shape", "").replace(" ", "").split(",") if t != ""]
    except ValueError:
        c.findings.append(Finding(INVALID_PATTERN, f"StaticReshape {layer.name!r}: shape {layer.data.get('shape')!r} "
                                  "is not a comma-separated list of integers", layer.line, layer.ref))
        raise c.stop(Status.INVALID) from None
    c.res.pattern_origin = f"the `shape` attribute of {layer.name!r}"
    return [Bound.value(v) for v in vals]


def _pattern(c: _Check) -> list[Bound]:
    """The pattern's bounds, evaluated from the shape input. When they cannot be had, the rank is still
    checked against the pattern's length, and the verdict is reached here."""
    layer, graph, res = c.layer, c.graph, c.res
    shape_port = layer.inputs[1]
    src = shape_port.producer
    if src is not None and src[0].kind == "const":
        et = element_type(src[0].data.get("element_type") or "")
        if et in NOT_INTEGRAL:
            c.find(INVALID_PATTERN, f"the pattern Const {src[0].name!r} is {et}: PartialShape pattern must be an "
                   "integral number.")
            raise c.stop(Status.INVALID)
        if et in RAW_REFUSED:  # values shape inference cannot read
            c.find(INVALID_PATTERN, f"the pattern Const {src[0].name!r} is {et}: Element not supported")
            raise c.stop(Status.INVALID)
    given = graph.input_shape(shape_port)  # its rank is checked whether or not its values can be had
    if given is not None and len(given) != 1 and shape_port.source is not None \
            and graph.origin(shape_port.source) in READ:
        c.find(INVALID_PATTERN, f"the pattern has shape {format_shape(given)}: Pattern shape must have rank 1")
        raise c.stop(Status.INVALID)
    value = graph.input_value(layer, shape_port)
    if isinstance(value, Unknown):
        _unverified(c, value, shape_port)
    if len(value.shape) != 1:
        c.find(INVALID_PATTERN, f"the pattern has shape {list(value.shape)}: Pattern shape must have rank 1")
        raise c.stop(Status.INVALID)
    res.pattern_origin = value.origin
    _check_pattern_port(c, shape_port, len(value.bounds))
    return value.bounds


def _unverified(c: _Check, value: Unknown, shape_port: "Port") -> None:
    """The pattern cannot be evaluated: the layer is unverified (invalid where OpenVINO itself fails on
    the shape subgraph); its declared rank is still checked against the pattern's declared length."""
    if value.finding is not None:
        c.findings.append(value.finding)
        if value.finding.rule is INVALID_PATTERN:
            raise c.stop(Status.INVALID)  # the shape subgraph itself fails in OpenVINO (a division by zero)
    src = shape_port.producer
    pattern_len = None
    if src is not None and src[1].dims is not None and len(src[1].dims) == 1 and src[1].dims[0] >= 0:
        pattern_len = src[1].dims[0]
    elif shape_port.dims is not None and len(shape_port.dims) == 1 and shape_port.dims[0] >= 0:
        pattern_len = shape_port.dims[0]
    c.res.status = Status.UNVERIFIED
    _not_verified(c, value)
    if pattern_len is not None:
        _check_pattern_port(c, shape_port, pattern_len)
        declared = c.res.declared
        if declared is not None and len(declared) != pattern_len:
            c.find(RANK_MISMATCH, f"declares rank {len(declared)} {fmt_list(declared)}, the shape input has "
                   f"{pattern_len} elements")
            c.res.status = Status.MISMATCH
    raise c.stop(c.res.status, consumers=True)


def _not_verified(c: _Check, value: Unknown) -> None:
    """IR109, naming why; none where no Const can be read (the .bin is missing, an LFS pointer...): the file's one
    finding on the .bin, which the layer repeats to be counted (:func:`~.openvino.check_model` keeps it once)."""
    if value.finding is not None and value.finding.rule in WHOLE_FILE:
        return
    reason = value.reason if value.finding is None else (
        f"its shape cannot be read ({value.finding.code} on line {value.finding.line})")
    c.findings.append(Finding(UNVERIFIED, f"{c.who} not verified: {reason}", c.layer.line, c.layer.ref))


def _check_pattern_port(c: _Check, shape_port: "Port", n: int) -> None:
    """IR108 where the shape input port is not ``[n]``, unless it repeats what its producer declares (a lying
    producer has its own finding)."""
    src = shape_port.source
    if src is not None and src.dims is not None and shape_port.dims == src.dims:
        return
    if shape_port.dims is not None and tuple(shape_port.dims) != (n,):
        c.find(PATTERN_PORT, f"shape input port {shape_port.id} declares {fmt_list(shape_port.dims)}, "
               f"the shape tensor has {n} elements")


def _recompute(c: _Check, bounds: list[Bound]) -> None:
    """The output dims from the input and the pattern in the graph's reading, the checks OpenVINO skips, and the
    comparison with the declared dims."""
    layer, graph, res = c.layer, c.graph, c.res
    res.pattern = bounds
    declared, sz, in_shape = res.declared, res.special_zero, res.input_shape
    engine = reshape_v1 if layer.kind == "reshape" else onednn_reshape
    expected = graph.reshaped(engine, in_shape, bounds, sz)
    if isinstance(expected, ReshapeError):
        c.find(INVALID_PATTERN, f"input {format_shape(in_shape)}, pattern "
               f"{fmt_list(b.lo if b.lo == b.hi else '?' for b in bounds)}, special_zero={str(sz).lower()}: "
               f"{expected.message}")
        raise c.stop(Status.INVALID, consumers=True)
    res.expected, res.expected_known = expected, True
    _spec_checks(c, in_shape, bounds, expected)
    if declared is not None:
        status = _compare(c, declared, expected)
        if res.status is Status.OK:
            res.status = status
    c.findings.extend(_check_consumers(layer, c.out, declared, graph, expected))


def _spec_checks(c: _Check, in_shape: Shape, bounds: list[Bound], expected: list[Dim]) -> None:
    """What the spec forbids and OpenVINO lets through: a literal 0 emptying a non-empty tensor, and a
    change of volume behind a -1 or a special zero. Errors, but read_model reads the layer: its status stays
    what its dims make it."""
    zeros = [i for i, b in enumerate(bounds) if b.lo == b.hi == 0]
    if not c.res.special_zero and zeros and in_shape is not None and not any(d == 0 for d in in_shape):
        c.find(LITERAL_ZERO, f"special_zero=false makes the 0 at index {', '.join(map(str, zeros))} a literal 0, "
               f"so the output {format_shape(expected)} is empty while the input {format_shape(in_shape)} is not "
               "known to be (special_zero=true copies input dims)")
    if is_static_shape(in_shape) and is_static_shape(expected):
        vin = volume(d.lo for d in in_shape)  # type: ignore[union-attr]
        vout = volume(d.lo for d in expected)
        if vin != vout:
            c.find(VOLUME_MISMATCH, f"input {format_shape(in_shape)} has {vin} elements, output "
                   f"{format_shape(expected)} has {vout}; OpenVINO accepts this pattern only because it skips "
                   "the volume check")


def _input(layer: "Layer", index: int) -> Optional["Port"]:
    return layer.inputs[index] if len(layer.inputs) > index else None


def _compare(c: _Check, declared: list[int], expected: list[Dim]) -> Status:
    """IR102 for another rank, IR101 for a dim that can never be what is declared, IR304 for a static dim
    where OpenVINO infers a dynamic one that contains it, IR105 for a -1 that could be static."""
    if len(declared) != len(expected):
        c.find(RANK_MISMATCH, f"declares {fmt_list(declared)} (rank {len(declared)}), expected "
               f"{format_shape(expected)} (rank {len(expected)})")
        return Status.MISMATCH
    answer = disagreement(declared, expected, _ANSWERS)
    if answer is None:
        return Status.OK
    rule, what, bad = answer
    c.find(rule, f"declares {fmt_list(declared)}, expected {format_shape(expected)}"
           f"{what.format(', '.join(map(str, bad)))}")
    return Status.MISMATCH


def disagreement(declared: list[int] | tuple[int, ...], expected: list[Dim], answers) -> tuple | None:
    """(rule, message end, the dims) of the first of ``answers`` ((agreements, rule, message end), most
    serious first) that some declared dim's agreement with the expected one is in; None where they agree."""
    found = disagreements(declared, expected)
    if not found:
        return None
    for wrong, rule, what in answers:
        bad = [i for i, a in found if a in wrong]
        if bad:
            return rule, what, bad
    return None


def _check_input_edge(c: _Check, port: "Port", shape: Shape) -> None:
    """The input port must hold what its producer produces in the reading (``shape``: a Parameter's `shape`
    attribute, a checked Reshape's recomputed dims), or repeat what the producer declares (a producer that lies
    has its own finding). Where the reading is OpenVINO's, the verdict holds the dims the port should declare
    (``edges``, for ``--fix``)."""
    src_port = port.source
    if src_port is None or src_port.dims is None or port.dims is None or port.dims == src_port.dims:
        return
    src_layer = src_port.layer
    theirs = () if shape is None else tuple(d.to_ir() for d in shape)  # a dynamic rank: no <dim>
    if tuple(port.dims) != theirs:
        c.findings.append(Finding(INPUT_MISMATCH, f"{describe(c.layer)}: input port {port.id} declares "
                                  f"{fmt_list(port.dims)}, but {src_layer.type} {src_layer.name!r} (id {src_layer.id}) "
                                  f"port {src_port.id} produces {fmt_list(theirs)}", port.line, c.layer.ref))
        if shape is not None and c.graph.origin(src_port) in READ:
            c.res.edges = ((port.id, theirs),)


def consumer_lies(dims: tuple[int, ...], declared: list[int] | None, expected: Shape) -> bool:
    """IR107's one decision: whether a consumer's input port ``dims`` on a Reshape-family layer's output lies. A
    port that repeats the declared dims agrees (a lying output port has its own IR101/IR102); where the output is
    recomputed (``expected``; None where it is not), so does one that holds the recomputed dims, or a -1 for a
    static one as the output port may."""
    if declared is not None and list(dims) == declared:
        return False
    if expected is None:
        return declared is not None
    return dims != tuple([d.to_ir() for d in expected]) and \
        (len(dims) != len(expected) or bool(differing(dims, expected, _WRONG)))


def _check_consumers(layer: "Layer", out_port: "Port", declared, graph: "Graph",
                     expected: Shape = None) -> Iterator[Finding]:
    """Each consumer's input port must agree with the Reshape's output (:func:`consumer_lies`). A consumer that is
    itself a Reshape checks its own input port (IR106): the blame goes to it alone. The finding is the consumer's
    (the Reshape agrees with OpenVINO; the consumer's input port is what lies), as an edge's IR306 is its input
    port's layer's, and ``--fix`` rewrites that port (the consumer's verdict holds it: ``checks.layers``)."""
    for c_layer, c_port in graph.model.consumers(layer.id, out_port.id, FAMILY):
        if c_port.dims is None or c_layer.kind in FAMILY or not consumer_lies(c_port.dims, declared, expected):
            continue
        reference = f"declares {fmt_list(declared)}" if expected is None else f"is {format_shape(expected)}"
        yield Finding(CONSUMER_MISMATCH, f"{describe(layer)}: output {reference}, but consumer {c_layer.type} "
                      f"{c_layer.name!r} (id {c_layer.id}) input port {c_port.id} declares {fmt_list(c_port.dims)}",
                      c_port.line, c_layer.ref)  # on the consumer: its input port is what lies


def check_view(layer: "Layer", graph: "Graph") -> tuple[LayerResult, list[Finding]]:
    """Recompute one Squeeze or Unsqueeze with its op's shape function (axes from a Const or a shape
    subgraph); the same rules as a Reshape's: the output's dims and rank, OpenVINO's rejection (IR103 with its
    message), unverified axes (IR109), the edges in and out."""
    c = _Check(layer, graph)
    res = c.res
    try:
        data_port = _ports(c)
    except _Done:
        return res, c.findings
    in_shape = res.input_shape = graph.input_shape(data_port)
    _check_input_edge(c, data_port, in_shape)
    declared = res.declared
    expected = graph.infer_output(layer, c.out, [in_shape, *[graph.input_shape(p) for p in layer.inputs[1:]]])
    if isinstance(expected, str):  # OpenVINO rejects the layer
        c.find(INVALID_PATTERN, f"input {format_shape(in_shape)}: {expected}")
        res.status = Status.INVALID
    elif not isinstance(expected, list):  # None: a dynamic rank; or irreshape cannot tell (undecided)
        if expected is None:
            res.expected_known = True
        else:
            axes = [graph.input_value(layer, p) for p in layer.inputs[1:]]
            why = next((v for v in axes if isinstance(v, Unknown) and v.finding is not None
                        and v.finding.rule in WHOLE_FILE), Unknown("its axes cannot be evaluated"))
            if why.finding is not None:
                c.findings.append(why.finding)
            _not_verified(c, why)
            res.status = Status.UNVERIFIED
    else:
        res.expected, res.expected_known = expected, True
        if declared is not None:
            res.status = _compare(c, declared, expected)
    c.findings.extend(_check_consumers(layer, c.out, declared, graph, res.expected if res.expected_known else None))
    _on_taken(c)
    c.findings.extend(cpu_findings(layer, graph, res, c.who))
    return c.res, c.findings
