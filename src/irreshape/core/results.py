"""What a check gives: one :class:`FileResult` per file, holding a :class:`LayerResult` per layer checked and
the findings. The checks fill them; lint, fixers, explain and every reporter read them."""

from __future__ import annotations

from enum import StrEnum
from collections.abc import Callable
from typing import Any, Optional

from .dims import Bound, Shape, shape_to_json
from .findings import Finding
from .records import Frozen, Record

DEFAULT_MAX_SIZE = 1 << 30  # the largest input file read, unless --max-xml-size says otherwise


class Status(StrEnum):
    """A layer's verdict."""

    OK = "ok"  # the declared dims are the recomputed ones
    MISMATCH = "mismatch"  # they differ
    INVALID = "invalid"  # OpenVINO (read_model, or oneDNN) rejects the layer; a layer it reads that breaks the spec
    # (IR104, IR111) keeps the status of its dims, its error says the rest
    UNVERIFIED = "unverified"  # the expected dims could not be computed
    TRUSTED = "trusted"  # no shape inference for the op: its declared dims are taken as they are


class PortResult(Record):
    """One output port of a layer: what it declares and what OpenVINO infers for it (None: unknown).
    ``declared_type``: the port's `precision` as written (None: absent); ``expected_type``: the precision
    OpenVINO's serializer would write (None: unknown)."""

    # retyped: the declared precision is a lie (an IR307; ``--fix`` rewrites it to ``expected_type``): decided by
    # the graph (``Graph.precision_lies``), not by the spellings (``f32`` is ``FP32``; an IR v10 model's output may
    # declare the type read_model converts it to)
    __slots__ = FIELDS = ("port", "declared", "expected", "expected_known", "declared_type", "expected_type",
                          "retyped")

    def __init__(self, port: str, declared: Optional[list[int]], expected: Shape, expected_known: bool,
                 declared_type: Optional[str] = None, expected_type: Optional[str] = None,
                 retyped: bool = False) -> None:
        self.port, self.declared, self.expected, self.expected_known = port, declared, expected, expected_known
        self.declared_type, self.expected_type, self.retyped = declared_type, expected_type, retyped

    def to_json(self) -> dict:
        return {"port": self.port, "declared": self.declared,
                "expected": shape_to_json(self.expected) if self.expected_known else None,
                "declared_type": self.declared_type, "expected_type": self.expected_type}


class Scenario(Frozen):
    """Input shapes to check a model at instead of its Parameters' own, as OpenVINO's ``Model.reshape`` takes
    them: (input name, or None for a model's only input; dims in OpenVINO's notation, ``[8,?,1..64]``)."""

    __slots__ = FIELDS = ("name", "shapes")
    name: str
    shapes: tuple[tuple[Optional[str], str], ...]

    def __init__(self, name: str, shapes: tuple[tuple[Optional[str], str], ...]) -> None:
        self._fill(name, shapes)

    def __str__(self) -> str:
        return ", ".join(text if name is None else f"{name}={text}" for name, text in self.shapes)


class Options(Record):
    """How to check a file. ``debug``: let an internal error raise (with its traceback) instead of reporting
    IR900. ``layers``: the layers a report lists: "reshape", the Reshape family; "all", every layer (each is
    checked either way). ``scenarios``: input-shape scenarios, each checked in the same run; with
    ``scenarios_only`` nothing else (the declared dims are the exported model's, not the scenario's:
    declared-versus-expected rules are off). ``analyses``: the analyses to run (``core.findings.GRAPH``...:
    those the selected rules need); None: every one. ``targets``: runtime targets, older releases whose refusals
    of the file are reported too (IR6xx), each as (the target as the user wrote it, "2023.3"; the release it
    means, "2023.3.0"). ``reading``: also take what ``irreshape diff`` compares of the file from the check's reading
    of it (its interface, op census, weights: ``checks.reading``) into the result's ``reading``."""

    __slots__ = FIELDS = ("max_xml_size", "debug", "layers", "scenarios", "scenarios_only", "analyses", "targets",
                          "reading")

    def __init__(self, max_xml_size: int = DEFAULT_MAX_SIZE, debug: bool = False, layers: str = "reshape",
                 scenarios: tuple[Scenario, ...] = (), scenarios_only: bool = False,
                 analyses: Optional[frozenset[str]] = None, targets: tuple[tuple[str, str], ...] = (),
                 reading: bool = False) -> None:
        self.max_xml_size, self.debug, self.layers = max_xml_size, debug, layers
        self.scenarios, self.scenarios_only, self.analyses = scenarios, scenarios_only, analyses
        self.targets, self.reading = targets, reading

    def runs(self, analysis: str) -> bool:
        """Whether the check runs ``analysis`` (a selected rule needs it)."""
        return self.analyses is None or analysis in self.analyses


class LayerResult(Record):
    """The verdict on one layer, and how it was reached (for `explain`). ``layer`` is the frontend's layer
    (an IR ``Layer``, a oneDNN ``Op``): it has ``id``, ``name``, ``type``, ``line`` and ``ref``. ``outputs``:
    every output port, in XML order (reported with --layers all). ``causes``: a layer whose declared dims are
    not OpenVINO's but repeat what a layer upstream declares has no finding of its own: the ids of the layers
    blamed upstream of it, whose findings cover it (--fix fixes it with them). ``edges``: the input ports whose
    declared dims are neither what their producer carries nor what it declares (IR306), as (port id, the dims in
    the IR's notation that OpenVINO's reading carries there), for --fix."""

    __slots__ = FIELDS = ("layer", "status", "declared", "expected", "expected_known", "input_shape", "pattern",
                          "pattern_origin", "special_zero", "steps", "outputs", "causes", "edges")
    layer: Any
    status: Status
    declared: Optional[list[int]]
    expected: Shape
    expected_known: bool
    input_shape: Shape
    pattern: Optional[list[Bound]]
    pattern_origin: str
    special_zero: bool
    steps: list[str]
    outputs: Optional[list[PortResult]]
    causes: tuple[str, ...]
    edges: tuple[tuple[str, tuple[int, ...]], ...]

    def __init__(self, layer: Any, status: Status, declared: Optional[list[int]], expected: Shape = None,
                 expected_known: bool = False, input_shape: Shape = None, pattern: Optional[list[Bound]] = None,
                 pattern_origin: str = "", special_zero: bool = False, steps: Optional[list[str]] = None,
                 outputs: Optional[list[PortResult]] = None, causes: tuple[str, ...] = (),
                 edges: tuple[tuple[str, tuple[int, ...]], ...] = ()) -> None:
        self.layer, self.status, self.declared, self.expected = layer, status, declared, expected
        self.expected_known, self.input_shape, self.pattern = expected_known, input_shape, pattern
        self.pattern_origin, self.special_zero = pattern_origin, special_zero
        self.steps = [] if steps is None else steps
        self.outputs, self.causes, self.edges = outputs, causes, edges

    def skipped(self, skip: Callable[[str], bool]) -> bool:
        """Whether ``--fix`` leaves this layer alone when it leaves the layers ``skip`` says alone (their findings
        are suppressed): a layer spared for a root cause upstream is fixed with any of its causes."""
        return skip(self.layer.id) and all(map(skip, self.causes))

    @property
    def fixable(self) -> bool:
        """``--fix`` rewrites this layer's declared dims: a mismatch whose expected dims (rank included) are
        known. Never an invalid or unverified layer."""
        return self.status is Status.MISMATCH and self.expected_known and self.expected is not None

    def to_json(self) -> dict:
        layer = self.layer
        out = {
            "id": layer.id, "name": layer.name, "type": layer.type, "line": layer.line,
            "status": self.status.value, "declared": self.declared,
            "expected": shape_to_json(self.expected) if self.expected_known else None,
        }
        if self.outputs is not None:
            out["outputs"] = [p.to_json() for p in self.outputs]
        return out


class FileResult(Record):
    """What a check of one file gives. ``layers``: what the report lists (Options.layers); ``flagged``: the
    verdicts on the other layers that did not pass, for --fix (the Reshape family's are in ``layers``);
    ``model``: the model read (a frontend's), None once it crossed a process boundary; ``internal_error``:
    irreshape itself failed on this file (an IR900 finding), exit 2; ``usage_error``: the run asked for something
    this file cannot give (a scenario's input it lacks), exit 2; ``reading``: what ``irreshape diff`` compares
    (``checks.reading.Reading``), where Options.reading asked for it and the file was read; ``features``: what
    the file holds that some release's CPU plugin refuses (``checks.plugin.Instance``), where the CPU plugin's
    rules or a runtime target asked for them."""

    __slots__ = FIELDS = ("path", "layers", "flagged", "findings", "model", "internal_error", "usage_error",
                          "reading", "features")
    path: str
    layers: list[LayerResult]
    flagged: list[LayerResult]
    findings: list[Finding]
    model: Any
    internal_error: bool
    usage_error: str
    reading: Any

    def __init__(self, path: str, layers: Optional[list[LayerResult]] = None,
                 flagged: Optional[list[LayerResult]] = None, findings: Optional[list[Finding]] = None,
                 model: Any = None, internal_error: bool = False, usage_error: str = "", reading: Any = None,
                 features: Optional[list] = None) -> None:
        self.path, self.reading = path, reading
        self.features = [] if features is None else features
        self.layers = [] if layers is None else layers
        self.flagged = [] if flagged is None else flagged
        self.findings = [] if findings is None else findings
        self.model, self.internal_error, self.usage_error = model, internal_error, usage_error

    def sort(self) -> None:
        self.findings.sort(key=lambda f: (f.line or 0, f.code, f.message))
