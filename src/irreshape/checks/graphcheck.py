"""One graph checked, a model's or a body's: its structure, then every layer in order (the Reshape family by its
own rules) in OpenVINO's reading with a blame reading beside it, then the dynamic dims a layer pins."""

from __future__ import annotations

from itertools import chain

from ..core.dims import Dim, Shape
from ..core.findings import ERROR, GRAPH
from ..core.results import FileResult, LayerResult, Options, PortResult, Status
from ..frontends.openvino.model import IRModel, Layer, Port
from ..rules.layers import REJECTED
from ..rules.reshape import INVALID_PATTERN
from . import failed
from .graph import Graph, order
from .layers import LayerChecks, check_precisions, declared_status, expected_type
from .pinned import pinned_dims
from .reshape import breaks_spec, checker, same_verdict, verdict_key
from .structure import check_graph, graph_cycles
from .variables import check_variables

_LIES = (Status.MISMATCH, Status.INVALID)
_UNSET = object()


class Readings:
    """OpenVINO's reading of the graph (``graph``: every layer inferred from the Parameters, the Reshape family's
    outputs as their checks recompute them) and the blame reading beside it (``second``): the layers blamed so
    far keep their declared dims, every other layer OpenVINO's dims where it agrees with them, else what its op
    makes of the second reading of its inputs. A layer that disagrees with OpenVINO but agrees with the blame
    reading (through its data or a ShapeOf of it) repeats what a layer upstream declares: it is spared, for that
    layer's finding is the root cause; its verdict (``expected``, what ``--fix`` writes) stays OpenVINO's.
    ``record`` is called for every layer, producers first."""

    def __init__(self, graph: Graph, alternative: bool = True) -> None:
        self.graph, self.alternative = graph, alternative
        self.alt: Graph | None = None
        self.roots: dict[str, tuple[str, ...]] = {}  # layer id -> the nearest blamed layers upstream of it (or it)
        self.spared: dict[str, int] = {}  # a blamed layer's id -> how many layers it spares
        self.refusing: dict[str, Layer] = {}  # a blamed layer's id -> the first spared layer read_model refuses
        # the Reshape family's verdicts so far (check_graph_layers' list): their outputs as recomputed, for the blame
        # reading when it is made
        self.family: list[LayerResult] = []
        self.erred: set[str] = set()  # the ids of the layers with an error so far

    def second(self) -> Graph | None:
        """The blame reading, made when first asked for (a layer fails OpenVINO's reading): until then it is
        OpenVINO's, the Reshape family's outputs as their checks recomputed them."""
        if self.alt is None and self.alternative:
            self.alt = self.graph.fork()
            for verdict in self.family:  # as _record set them in OpenVINO's reading
                if verdict.layer.outputs and verdict.expected_known:
                    self.alt.set_shape(verdict.layer.outputs[0], verdict.expected)
        return self.alt

    def found(self, findings: list) -> None:
        """A layer's findings: the layers with an error are those whose lie can excuse a refusal downstream."""
        for f in findings:
            if f.severity == ERROR and f.layer is not None:
                self.erred.add(f.layer.id)

    def excuses(self, layer: Layer) -> bool:
        """Whether a layer blamed upstream of ``layer`` has an error: only then may the blame reading spare
        OpenVINO's refusal of ``layer`` (one root cause, one finding); a lie that is only a warning (``-1`` declared
        for a static dim) cannot, or a file read_model refuses would have no error."""
        erred = self.erred
        return any(root in erred for root in self.causes(layer))

    def causes(self, layer: Layer) -> tuple[str, ...]:
        """The blamed layers upstream of ``layer``: one of their findings covers it when it is spared."""
        roots = self.roots
        if not roots:
            return ()
        found: dict[str, None] = {}
        for port in layer.inputs:
            src = port.source
            if src is not None:
                found.update(dict.fromkeys(roots.get(src.layer.id, ())))  # type: ignore[union-attr]
        return tuple(found)

    def record(self, layer: Layer, lying: list[Port], spared: dict[int, Shape] | None,
               refused: bool = False) -> tuple[str, ...]:
        """``layer`` judged: blamed for its ``lying`` output ports (they keep their declared dims in the blame
        reading), or ``spared`` (its outputs' shapes in the blame reading, by id(port); ``refused``: OpenVINO's
        reading rejects it, so the blamed layers' findings say read_model refuses the file there), or neither
        (OpenVINO's reading holds). Returns the blamed layers behind a spared one."""
        if not lying and not self.roots and self.alt is None:  # nothing blamed yet, no blame reading to keep up
            return ()
        causes: tuple[str, ...] = ()
        if lying:  # its declared dims stand for whatever lies upstream of it
            self.roots[layer.id] = (layer.id,)
        elif self.roots and (causes := self.causes(layer)):
            self.roots[layer.id] = causes
            if spared is not None:
                for root in causes:
                    self.spared[root] = self.spared.get(root, 0) + 1
                    if refused:
                        self.refusing.setdefault(root, layer)
        alt = self.alt
        if alt is not None:
            for port in layer.outputs:
                if any(p is port for p in lying):
                    if port.dims is not None:
                        alt.set_shape(port, [Dim.of(d) for d in port.dims])
                elif spared is not None:
                    if id(port) in spared:
                        alt.set_shape(port, spared[id(port)])
                else:
                    alt.set_shape(port, self.graph.shape(port))
        return causes if spared is not None else ()


def check_graph_layers(model: IRModel, graph: Graph, options: Options | None, result: FileResult,
                       pinned: bool = False) -> None:
    """Check ``model``'s layers in ``graph``, OpenVINO's reading, into ``result``, producers first: the
    structure; the Reshape family by its own rules, every other layer against the reading (the verdicts of those
    that fail kept for --fix, but in a scenario); a layer that agrees with the blame reading is spared
    (:class:`Readings`; a scenario has none); then the dynamic dims a layer pins (``pinned``). A layer whose
    check fails internally gets an IR900 finding; the others go on."""
    result.findings.extend(check_graph(model))
    graph.infer_types()
    start = len(result.findings)
    ordered, cyclic = order(model)
    every = options is not None and options.layers == "all"
    readings = Readings(graph, alternative=not graph.scenario)
    others = LayerChecks(graph, every)
    judged_all = every or options is None or options.runs(GRAPH)  # every other layer, against OpenVINO's reading
    family: list[LayerResult] = []
    readings.family = family
    kept: list[LayerResult] = []
    passed: dict[tuple, LayerResult] = {} if not every else None  # verdict_key -> an ok verdict, no findings
    checkers: dict = {}  # layer kind -> its check (``checker`` goes by the kind alone)
    layers = model.layers
    for lid in chain(ordered, cyclic):
        layer = layers[lid]
        check = checkers.get(layer.kind, _UNSET)
        if check is _UNSET:
            check = checkers[layer.kind] = checker(layer)
        try:
            if check is None:
                if not judged_all:
                    continue
                judged = others.check(layer, graph, readings.second, lambda: readings.excuses(layer))
                if judged is None:
                    continue
                verdict, findings, lying, spared = judged
                causes = readings.record(layer, lying, {} if spared else None,
                                         verdict is not None and verdict.status is Status.INVALID)
                if verdict is not None:
                    verdict.causes = causes
                    kept.append(verdict)
                if findings:
                    readings.found(findings)
                    result.findings.extend(findings)
                continue
            refusal = others.refusal(layer)
            if refusal is not None:  # OpenVINO rejects its input types: that is its one finding
                verdict, _ = check(layer, graph)
                verdict.status, verdict.edges = Status.INVALID, ()
                _record(graph, readings, layer, verdict, None)
                family.append(verdict)
                result.findings.append(refusal)
                continue
            key = verdict_key(layer, graph) if passed is not None else None
            known = passed.get(key) if key is not None else None  # type: ignore[union-attr]
            if known is not None:  # the same Reshape of a repeated block: the same verdict
                verdict = same_verdict(known, layer)
                _record(graph, readings, layer, verdict, None)
                family.append(verdict)
                continue
            verdict, findings = check(layer, graph)
            if key is not None and verdict.status is Status.OK and not findings and verdict.expected is not None:
                passed[key] = verdict  # type: ignore[index]
            second = None
            # OpenVINO's refusal of the layer (IR103) stays its error unless a lie upstream is an error; a volume the
            # spec forbids (IR104, IR111: read_model reads the layer) may repeat a lie upstream as well
            alt = readings.second() if (verdict.status in _LIES or breaks_spec(findings)) and (not any(
                f.rule is INVALID_PATTERN for f in findings) or readings.excuses(layer)) else None
            if alt is not None:
                second, second_findings = check(layer, alt)
                if second.status is Status.OK and not breaks_spec(second_findings):
                    findings, verdict.edges = second_findings, ()  # (its input edge repeats a lie upstream)
                else:
                    second = None
        except Exception as e:
            failed(result, options, e, layer)
            continue
        _record(graph, readings, layer, verdict, second)
        family.append(verdict)
        readings.found(findings)
        result.findings.extend(findings)
    retyped = {id(p) for p in graph.retyped} if not graph.scenario else set()
    for verdict in family:  # the Reshape family's single output
        port = verdict.layer.outputs[0] if verdict.layer.outputs else None
        outputs = [] if port is None else [PortResult(port.id, verdict.declared, verdict.expected,
                                                      verdict.expected_known, port.precision,
                                                      expected_type(graph, port), id(port) in retyped)]
        if every or (port is not None and id(port) in retyped):  # a lying precision shown, and for --fix
            verdict.outputs = outputs
        verdict.status = declared_status(verdict.status, outputs, verdict.edges)
    result.layers += family
    _count_spared(result.findings[start:], readings.spared, readings.refusing)
    if pinned:
        result.findings += pinned_dims(model, graph, family)
    if every:
        result.layers += kept
    elif not graph.scenario:
        result.flagged += kept
    result.findings += others.infos() + graph.findings
    for layer, exc in graph.crashed.values():  # a shape function's bug: an IR900 on its layer alone
        failed(result, options, exc, layer)
    if judged_all:
        if not graph.scenario:
            _blame(result, check_variables(model, graph))
        result.findings += check_precisions(graph)
    if cyclic:
        result.findings.extend(graph_cycles(model, cyclic))


def _blame(result: FileResult, findings: list) -> None:
    """Findings on layers the whole file judges (an Assign and its variable): the verdict of each layer read_model
    refuses invalid."""
    result.findings += findings
    blamed = {f.layer.id for f in findings if f.layer is not None and f.rule is REJECTED}
    for verdict in (*result.layers, *result.flagged):
        if verdict.layer.id in blamed:  # read_model refuses it (IR303); an IR310 loads and fails at compile_model
            verdict.status = Status.INVALID


def _record(graph: Graph, readings: Readings, layer: Layer, verdict: LayerResult, second: LayerResult | None) -> None:
    """A Reshape-family layer checked: its output in OpenVINO's reading is what its check recomputed; blamed
    when it lies but for ``second``, its verdict in the blame reading that spares it."""
    out = layer.outputs[0] if layer.outputs else None
    if out is not None and verdict.expected_known:
        graph.set_shape(out, verdict.expected)  # and the blame reading's, once made, from readings.family
    lying = [out] if out is not None and second is None and verdict.status in _LIES else []
    # read_model refuses the file there only where OpenVINO's reading rejects the layer (invalid), not where it
    # breaks the spec (IR104, IR111: it loads)
    spared = None if second is None else ({id(out): second.expected} if second.expected_known else {})
    verdict.causes = readings.record(layer, lying, spared, spared is not None and verdict.status is Status.INVALID)


def _count_spared(findings: list, spared: dict[str, int], refusing: dict[str, Layer]) -> None:
    """The first finding on each layer that spares others says how many, and the first of them ``read_model``
    refuses on the dims OpenVINO infers (the file does not load)."""
    for f in findings:
        n = spared.pop(f.layer.id, 0) if f.layer is not None and spared else 0
        if n:
            f.message += f" ({n} layer{'s' if n != 1 else ''} downstream repeat{'' if n != 1 else 's'} its declared dims"
            refused = refusing.get(f.layer.id)
            f.message += (f"; on OpenVINO's dims read_model refuses {refused.type} '{refused.name}' (id {refused.id}))"
                          if refused is not None else ")")
