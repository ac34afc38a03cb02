"""Check one OpenVINO IR: parse → the graph's structure → recompute every Reshape-family layer → findings."""

from __future__ import annotations

from ..core.dims import Dim, Shape
from ..core.order import topological
from ..core.results import FileResult, LayerResult, Options, PortResult, Status
from ..frontends.openvino import NotIR, parse
from ..frontends.openvino.model import IRModel, Layer, Port
from ..frontends.openvino.reader import SUPPORTED_VERSIONS
from ..rules import finding
from ..rules import structure as S
from ..rules import weights as W
from . import internal_error
from .bodies import check_bodies
from .graph import Graph
from .layers import check_layers
from .pinned import pinned_dims
from .reshape import KINDS, VIEWS, check_layer, check_view
from .scenarios import ScenarioError, own_findings, parameter_shapes, scenario_findings
from .structure import check_graph, shape_cycles

_UNREAD = frozenset(r.name for r in (S.XML_SYNTAX, S.UNREADABLE, S.FILE_TOO_LARGE, S.XML_ENTITIES))
_BIN_PROBLEMS = (W.MISSING, W.LFS_POINTER, W.UNREADABLE, W.EMPTY)
_LIES = (Status.MISMATCH, Status.INVALID)


def check_path(path: str, options: Options | None = None) -> FileResult | None:
    """Check the IR at ``path``; None when it is XML of another kind."""
    try:
        model = parse(path, (options or Options()).max_xml_size)
    except NotIR:
        return None
    if options is None or not options.scenarios:
        return check_model(model, options)
    return check_scenarios(model, options)


def check_scenarios(model: IRModel, options: Options) -> FileResult:
    """The ordinary check (unless ``options.scenarios_only``) and a check at each scenario's shapes, in one
    result; the verdicts are the ordinary check's, or the first scenario's alone. A scenario that does not fit
    the model is the result's ``usage_error``."""
    result = None if options.scenarios_only else check_model(model, options)
    for scenario in options.scenarios:
        try:
            inputs = parameter_shapes(model, scenario)
        except ScenarioError as e:
            result = result or FileResult(model.path, model=model)
            result.usage_error = str(e)
            return result
        under = check_model(model, options, inputs)
        found = scenario_findings(under.findings, scenario)
        if result is None:
            result, result.findings = under, own_findings(under.findings) + found
        else:
            result.findings += found
            result.internal_error |= under.internal_error
    assert result is not None
    result.sort()
    return result


def order(model: IRModel) -> tuple[list[str], list[str]]:
    """(layer ids producers first, the ids of layers on a cycle or fed by one): the file order when every
    edge runs forward (as OpenVINO writes IRs), else a topological sort."""
    if model.link().ordered:
        return list(model.layers), []
    return topological(list(model.layers), ((e.from_layer, e.to_layer) for e in model.edges))


class _Readings:
    """The whole-graph reading, the Reshape family's recomputed outputs in it, and a second reading in which
    the Reshapes that lie keep their declared dims: a layer downstream of a liar (through its data or a ShapeOf
    of it) that agrees with the second reading is not blamed, since the lie may be in the liar's pattern as
    well as in its declared dims."""

    def __init__(self, model: IRModel, graph: Graph, alternative: bool = True) -> None:
        self.model, self.graph, self.alternative = model, graph, alternative
        self.honest: list[tuple[Port, Shape]] = []
        self.lies: list[tuple[Port, Shape]] = []
        self.alt: Graph | None = None

    def second(self) -> Graph | None:
        """The second reading, made when first asked for; None while no layer lies."""
        if self.alt is None and self.lies and self.alternative:
            self.alt = Graph(self.model, self.graph.weights)
            for key in self.honest + self.lies:
                self.alt.set_shape(*key)
        return self.alt

    def record(self, layer: Layer, verdict: LayerResult) -> None:
        alt = self.alt
        if verdict.expected_known and layer.outputs:
            out = (layer.outputs[0], verdict.expected)
            self.graph.set_shape(*out)
            if verdict.status is Status.OK:
                self.honest.append(out)
                if alt is not None:
                    alt.set_shape(*out)
        if verdict.status in _LIES and layer.outputs and layer.outputs[0].dims is not None:
            lie = (layer.outputs[0], [Dim.of(d) for d in layer.outputs[0].dims])
            self.lies.append(lie)
            if alt is not None:
                alt.set_shape(*lie)


def checker(layer: Layer):
    """The check of a Reshape-family layer (None for any other layer)."""
    return check_layer if layer.kind in KINDS else check_view if layer.kind in VIEWS else None


def check_model(model: IRModel, options: Options | None = None, inputs: dict[str, Shape] | None = None) -> FileResult:
    """Check a parsed model. A layer whose check fails internally gets an IR900 finding; the others go on.

    ``inputs`` (Parameter layer id -> shape) checks the model at a scenario's shapes instead of its own: the
    verdicts are on what OpenVINO infers there (a declared dim that differs is no mismatch), and the findings
    those of every rule (the declared-versus-expected ones come out too: the caller keeps what it wants)."""
    result = FileResult(model.path, model=model)
    result.findings.extend(finding(p) for p in model.problems)
    if any(p.rule in _UNREAD for p in model.problems):
        return result  # what was read before the problem is not the model OpenVINO would load
    if model.version is not None and model.version not in SUPPORTED_VERSIONS:
        return result  # IR002 alone: element types and attributes of a format OpenVINO does not read are noise
    result.findings.extend(check_graph(model))
    ordered, cyclic = order(model)
    every = options is not None and options.layers == "all"
    graph = Graph(model, inputs=inputs)
    readings = _Readings(model, graph, alternative=inputs is None)
    try:
        for lid in ordered + cyclic:
            layer = model.layers[lid]
            check = checker(layer)
            if check is None:
                continue
            try:
                verdict, findings = check(layer, graph)
                alt = readings.second() if verdict.status in _LIES else None
                if alt is not None:
                    second, second_findings = check(layer, alt)
                    if second.status is Status.OK:
                        verdict, findings = second, second_findings
            except Exception as e:
                if options is not None and options.debug:
                    raise
                result.findings.append(internal_error(model.path, e, layer))
                result.internal_error = True
                continue
            readings.record(layer, verdict)
            result.layers.append(verdict)
            result.findings.extend(findings)
        if every:
            for verdict in result.layers:  # the Reshape family's single output
                port = verdict.layer.outputs[0] if verdict.layer.outputs else None
                verdict.outputs = [] if port is None else [PortResult(port.id, verdict.declared, verdict.expected,
                                                                      verdict.expected_known)]
        if inputs is None:
            result.findings += pinned_dims(model, graph, result.layers, checker)
        others, found = check_layers(model, graph, every, readings.second)
        if every:
            result.layers += others
        elif inputs is None:
            result.flagged = others
        result.findings += found
        check_bodies(model, graph, options, result)  # the bodies of TensorIterators, Loops and Ifs
        if inputs is not None:
            for verdict in result.layers:
                if verdict.status is Status.MISMATCH:
                    verdict.status = Status.OK
    finally:
        graph.weights.close()
    if cyclic:
        reported = {f.layer.id for f in result.findings if f.rule is S.CYCLE and f.layer is not None}
        reshapes = [model.layers[lid] for lid in cyclic
                    if model.layers[lid].kind in KINDS and model.layers[lid].kind != "staticreshape"]
        result.findings.extend(shape_cycles(set(cyclic), [r for r in reshapes if r.id not in reported]))
    seen: set = set()  # a .bin that cannot be used is one problem, however many Consts need it;
    # a broken Const shared by several Reshapes is one finding too
    result.findings = [f for f in result.findings
                       if not ((key := f.rule if f.rule in _BIN_PROBLEMS else (f.rule, f.line, f.message)) in seen
                               or seen.add(key))]
    result.layers.sort(key=lambda r: (r.layer.line, r.layer.id))
    result.sort()
    return result
