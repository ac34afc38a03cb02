"""The rule registry: every rule irreshape can report, by code and by name.

One module per family declares its rules (code, kebab-case name, default severity, and a
docstring that is the rule's documentation) and yields findings:

- :mod:`.structure` — IR0xx/IR02x, the XML file and its graph,
- :mod:`.weights`   — IR01x, the ``.bin`` and Const layers,
- :mod:`.reshape`   — IR1xx, Reshape, StaticReshape, DynamicReshape,
- :mod:`.onednn`    — IR2xx, oneDNN Graph documents,
- :mod:`.layers`    — IR3xx, every layer against the whole graph as OpenVINO infers it,
- :mod:`.state`     — IR31x, the variables of stateful models across one file,
- :mod:`.runtime`   — IR4xx, the Reshape family where OpenVINO's CPU plugin fails on a model it reads,
- :mod:`.scenarios` — IR5xx, the model at input shapes other than the exported ones,
- :mod:`.targets`   — IR6xx, what an older OpenVINO release (``--target``) refuses to read.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import layers, onednn, reshape, runtime, scenarios, state, structure, targets, weights
from ..core.findings import Finding, Problem, Rule

ALL: tuple[Rule, ...] = tuple(sorted(structure.RULES + weights.RULES + reshape.RULES + onednn.RULES + layers.RULES
                                     + state.RULES + runtime.RULES + scenarios.RULES + targets.RULES,
                                     key=lambda r: r.code))
BY_CODE: dict[str, Rule] = {r.code: r for r in ALL}
BY_NAME: dict[str, Rule] = {r.name: r for r in ALL}
# the rules whose finding is an input port's dims on an edge (--fix rewrites that port, not the layer's outputs)
EDGES: frozenset[Rule] = frozenset({layers.EDGE_MISMATCH, reshape.INPUT_MISMATCH, reshape.CONSUMER_MISMATCH})


def analyses(codes: Iterable[str]) -> frozenset[str]:
    """The analyses the rules of ``codes`` need (see ``core.findings.GRAPH``...): only those run."""
    return frozenset().union(*(BY_CODE[c].needs for c in codes if c in BY_CODE))


def get(code_or_name: str) -> Rule | None:
    """A rule by its code (any case) or its name."""
    return BY_CODE.get(code_or_name.upper()) or BY_NAME.get(code_or_name.lower())


def finding(problem: Problem) -> Finding:
    """The finding a reader's problem is: the rule it names."""
    return Finding(BY_NAME[problem.rule], problem.message, problem.line, problem.layer, problem.col)
