"""What the evaluation of a tensor's values gives a check: the value bounds, or why there are none."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.dims import Bound
from ..core.findings import Finding
from ..core.records import Record

if TYPE_CHECKING:
    from ..frontends.openvino.model import Layer


class Unknown(Record):
    """Why a value could not be evaluated; ``finding`` when that reason is itself a problem; ``refusal``: OpenVINO's
    message where it throws evaluating the value (its consumer is refused)."""

    __slots__ = FIELDS = ("reason", "layer", "finding", "refusal")
    reason: str
    layer: "Layer | None"
    finding: Finding | None
    refusal: str | None

    def __init__(self, reason: str, layer: "Layer | None" = None, finding: Finding | None = None,
                 refusal: str | None = None) -> None:
        self.reason, self.layer, self.finding, self.refusal = reason, layer, finding, refusal


class Value(Record):
    """A 1-D integer tensor: one bound per element, and where it came from (for `explain`)."""

    __slots__ = FIELDS = ("bounds", "element_type", "shape", "origin")
    bounds: list[Bound]
    element_type: str
    shape: tuple[int, ...]
    origin: str

    def __init__(self, bounds: list[Bound], element_type: str, shape: tuple[int, ...], origin: str) -> None:
        self.bounds, self.element_type, self.shape, self.origin = bounds, element_type, shape, origin


Evaluated = Value | Unknown


class NoBounds(Record):
    """OpenVINO's bound evaluation fails at ``layer``: a Reshape fed from here gets every dim ``?``."""

    __slots__ = FIELDS = ("reason", "layer")
    reason: str
    layer: "Layer"

    def __init__(self, reason: str, layer: "Layer") -> None:
        self.reason, self.layer = reason, layer
