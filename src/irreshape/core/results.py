"""What a check gives: one :class:`FileResult` per file, holding a :class:`LayerResult` per layer checked and
the findings. The checks fill them; lint, fixers, explain and every reporter read them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from collections.abc import Callable
from typing import Any, Optional

from .dims import Bound, Shape, shape_to_json
from .findings import Finding

DEFAULT_MAX_SIZE = 1 << 30  # the largest input file read, unless --max-xml-size says otherwise


class Status(StrEnum):
    """A layer's verdict."""

    OK = "ok"  # the declared dims are the recomputed ones
    MISMATCH = "mismatch"  # they differ
    INVALID = "invalid"  # OpenVINO (or oneDNN) rejects the layer, or it breaks the spec
    UNVERIFIED = "unverified"  # the expected dims could not be computed
    TRUSTED = "trusted"  # no shape inference for the op: its declared dims are taken as they are


@dataclass(slots=True)
class PortResult:
    """One output port of a layer: what it declares and what OpenVINO infers for it (None: unknown)."""

    port: str
    declared: Optional[list[int]]
    expected: Shape
    expected_known: bool
    declared_type: Optional[str] = None  # the port's `precision` as written (None: absent)
    expected_type: Optional[str] = None  # the precision OpenVINO's serializer would write (None: unknown)

    @property
    def retyped(self) -> bool:
        """The declared precision is not the expected one (``--fix`` rewrites it)."""
        return self.expected_type is not None and self.declared_type is not None \
            and self.declared_type != self.expected_type

    def to_json(self) -> dict:
        return {"port": self.port, "declared": self.declared,
                "expected": shape_to_json(self.expected) if self.expected_known else None,
                "declared_type": self.declared_type, "expected_type": self.expected_type}


@dataclass(frozen=True, slots=True)
class Scenario:
    """Input shapes to check a model at instead of its Parameters' own, as OpenVINO's ``Model.reshape`` takes
    them: (input name, or None for a model's only input; dims in OpenVINO's notation, ``[8,?,1..64]``)."""

    name: str
    shapes: tuple[tuple[Optional[str], str], ...]

    def __str__(self) -> str:
        return ", ".join(text if name is None else f"{name}={text}" for name, text in self.shapes)


@dataclass(slots=True)
class Options:
    max_xml_size: int = DEFAULT_MAX_SIZE
    debug: bool = False  # let an internal error raise (with its traceback) instead of reporting IR900
    # the layers a report lists: "reshape", the Reshape family; "all", every layer (each is checked either way)
    layers: str = "reshape"
    # input-shape scenarios, each checked in the same run; with ``scenarios_only`` nothing else (the declared
    # dims are the exported model's, not the scenario's: declared-versus-expected rules are off)
    scenarios: tuple[Scenario, ...] = ()
    scenarios_only: bool = False
    # the analyses to run (``core.findings.GRAPH``...: those the selected rules need); None: every one
    analyses: Optional[frozenset[str]] = None
    # runtime targets: older releases whose refusals of the file are reported too (IR6xx), each as
    # (the target as the user wrote it, "2023.3"; the release it means, "2023.3.0")
    targets: tuple[tuple[str, str], ...] = ()

    def runs(self, analysis: str) -> bool:
        """Whether the check runs ``analysis`` (a selected rule needs it)."""
        return self.analyses is None or analysis in self.analyses


@dataclass(slots=True)
class LayerResult:
    """The verdict on one layer, and how it was reached (for `explain`). ``layer`` is the frontend's layer
    (an IR ``Layer``, a oneDNN ``Op``): it has ``id``, ``name``, ``type``, ``line`` and ``ref``."""

    layer: Any
    status: Status
    declared: Optional[list[int]]
    expected: Shape = None
    expected_known: bool = False
    input_shape: Shape = None
    pattern: Optional[list[Bound]] = None
    pattern_origin: str = ""
    special_zero: bool = False
    steps: list[str] = field(default_factory=list)
    outputs: Optional[list[PortResult]] = None  # every output port, in XML order (reported with --layers all)
    # a layer whose declared dims are not OpenVINO's but repeat what a layer upstream declares has no finding of
    # its own: the ids of the layers blamed upstream of it, whose findings cover it (--fix fixes it with them)
    causes: tuple[str, ...] = ()

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


@dataclass(slots=True)
class FileResult:
    path: str
    layers: list[LayerResult] = field(default_factory=list)  # what the report lists (Options.layers)
    # the verdicts on the other layers that did not pass, for --fix (the Reshape family's are in ``layers``)
    flagged: list[LayerResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    model: Any = None  # the model read (a frontend's); None once it crossed a process boundary
    internal_error: bool = False  # irreshape itself failed on this file (an IR900 finding): exit 2
    usage_error: str = ""  # the run asked for something this file cannot give (a scenario's input it lacks): exit 2

    def sort(self) -> None:
        self.findings.sort(key=lambda f: (f.line or 0, f.code, f.message))
