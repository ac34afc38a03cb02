"""What the evaluation of a tensor's values gives a check: the value bounds, or why there are none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.dims import Bound
from ..core.findings import Finding

if TYPE_CHECKING:
    from ..frontends.openvino.model import Layer


@dataclass(slots=True)
class Unknown:
    """Why a value could not be evaluated; ``finding`` when that reason is itself a problem."""

    reason: str
    layer: "Layer | None" = None
    finding: Finding | None = None
    refusal: str | None = None  # OpenVINO's message where it throws evaluating the value (its consumer is refused)


@dataclass(slots=True)
class Value:
    """A 1-D integer tensor: one bound per element, and where it came from (for `explain`)."""

    bounds: list[Bound]
    element_type: str
    shape: tuple[int, ...]
    origin: str


Evaluated = Value | Unknown


@dataclass(slots=True)
class NoBounds:
    """OpenVINO's bound evaluation fails at ``layer``: a Reshape fed from here gets every dim ``?``."""

    reason: str
    layer: "Layer"
