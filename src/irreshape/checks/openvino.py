"""Check one OpenVINO IR: parse → the whole graph inferred and every layer checked (:mod:`.graphcheck`), the
bodies too (:mod:`.bodies`) → findings; and the same at input-shape scenarios; then what each runtime target
(an older release) refuses (:mod:`.targets`)."""

from __future__ import annotations

from ..core.dims import Shape
from ..core.findings import PLUGIN, PROBES, SCENARIOS, TARGETS, Finding
from ..core.results import FileResult, Options, Status
from ..frontends.openvino import NotIR, parse
from ..frontends.openvino.model import IRModel
from ..frontends.openvino.reader import SUPPORTED_VERSIONS
from ..rules import finding
from ..rules import structure as S
from ..rules import weights as W
from .bodies import check_bodies
from .graph import Graph
from .graphcheck import check_graph_layers
from .scenarios import ScenarioError, own_findings, parameter_shapes, scenario_findings

_UNREAD = frozenset(r.name for r in (S.XML_SYNTAX, S.UNREADABLE, S.FILE_TOO_LARGE, S.XML_ENTITIES))


def check_path(path: str, options: Options | None = None) -> FileResult | None:
    """Check the IR at ``path``; None when it is XML of another kind."""
    try:
        model = parse(path, (options or Options()).max_xml_size)
    except NotIR:
        return None
    if options is None or not options.scenarios or not (options.scenarios_only or options.runs(SCENARIOS)):
        result = check_model(model, options)
    else:
        result = check_scenarios(model, options)
    if options is not None and options.targets and options.runs(TARGETS) and readable(model):
        from . import failed
        from .targets import target_findings  # only a run with --target needs the release table

        try:
            result.findings += target_findings(model, options.targets, result.features)
        except Exception as e:  # the ordinary check's findings stand; the failure is an IR900 beside them
            failed(result, options, e)
        result.sort()
    return result


def readable(model: IRModel) -> bool:
    """Whether irreshape read the model as OpenVINO would: the XML parsed whole, of an IR version it reads."""
    return not any(p.rule in _UNREAD for p in model.problems) and (model.version is None
                                                                   or model.version in SUPPORTED_VERSIONS)


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


def check_model(model: IRModel, options: Options | None = None, inputs: dict[str, Shape] | None = None) -> FileResult:
    """Check a parsed model. A layer whose check fails internally gets an IR900 finding; the others go on.

    ``inputs`` (Parameter layer id -> shape) checks the model at a scenario's shapes instead of its own: the
    verdicts are on what OpenVINO infers there (a declared dim that differs is no mismatch), and the findings
    those of every rule (the declared-versus-expected ones come out too: the caller keeps what it wants)."""
    result = FileResult(model.path, model=model)
    result.findings.extend(finding(p) for p in model.problems)
    if not readable(model):  # what was read before the problem is not the model OpenVINO would load; IR002
        return result  # alone: element types and attributes of a format OpenVINO does not read are noise
    graph = Graph(model, inputs=inputs, scenario=inputs is not None)
    runs = (lambda analysis: True) if options is None else options.runs  # only what a selected rule needs
    graph.plugin = runs(PLUGIN)
    try:
        check_graph_layers(model, graph, options, result, pinned=inputs is None and runs(PROBES))
        check_bodies(model, graph, options, result)  # the bodies of TensorIterators, Loops and Ifs
        if inputs is None and (runs(PLUGIN) or runs(TARGETS)):
            _features(model, graph, options, result)
    finally:
        graph.weights.close()
    if inputs is None and options is not None and options.reading:
        _take_reading(result, graph, options)
    if inputs is not None:
        for verdict in result.layers:
            if verdict.status is Status.MISMATCH:
                verdict.status = Status.OK
    result.findings = _once(result.findings)
    result.layers.sort(key=lambda r: (r.layer.line, r.layer.id))
    result.sort()
    return result


def _features(model: IRModel, graph: Graph, options: Options | None, result: FileResult) -> None:
    """What the model holds that some release's CPU plugin refuses (:mod:`.plugin`), for the compile-stage rules
    (IR405-IR406 of the reference release; IR61x of the targets); a failure is an IR900 beside the findings."""
    from . import failed
    from .plugin import instances, plugin_findings

    try:
        result.features = instances(model, graph)
        if graph.plugin:
            result.findings += plugin_findings(result.features)
    except Exception as e:
        failed(result, options, e)


def _take_reading(result: FileResult, graph: Graph, options: Options) -> None:
    """What ``irreshape diff`` compares, from this check's reading (:mod:`.reading`); a failure is an IR900."""
    from . import failed
    from .reading import take

    try:
        result.reading = take(graph.model, graph)
    except Exception as e:
        failed(result, options, e)


def _once(findings: list[Finding]) -> list[Finding]:
    """Each finding once: a broken Const shared by several Reshapes is one finding; a .bin that cannot be used is
    one problem, however many layers need it (each Reshape-family layer it stops repeats it instead of an IR109 of
    its own), its message counting those layers."""
    seen: dict[object, Finding] = {}
    stopped: dict[object, int] = {}
    for f in findings:
        key = f.rule if f.rule in W.WHOLE_FILE else (f.rule, f.line, f.message)
        if key in seen:
            stopped[key] = stopped.get(key, 1) + 1
        else:
            seen[key] = f
            if f.rule in W.WHOLE_FILE:
                stopped[key] = 1
    for key, n in stopped.items():
        f = seen[key]
        f.message += f" ({n} Reshape-family layer{'s' if n != 1 else ''} not verified without it)"
    return list(seen.values())
