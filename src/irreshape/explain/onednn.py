"""How the expected dims of one StaticReshape or DynamicReshape op of a oneDNN Graph document are derived."""

from __future__ import annotations

from ..core.dims import format_shape
from ..core.results import FileResult
from . import ExplainError


def explain_layer(result: FileResult, wanted: str) -> list[str]:
    """The explanation of op ``wanted`` (by id, else by name) of a checked oneDNN Graph file."""
    lr = next((r for r in result.layers if r.layer.id == wanted), None) or next(
        (r for r in result.layers if r.layer.name == wanted), None)
    if lr is None:
        raise ExplainError(f"{result.path} has no reshape op {wanted!r}")
    op = lr.layer
    values = "?" if lr.pattern is None else "[" + ",".join(str(b.lo) for b in lr.pattern) + "]"
    lines = [f"{op.type} {op.name!r} (id {op.id}), line {op.line}: status {lr.status}",
             *(f"  {step}" for step in lr.steps),
             f"  shape {values} ({lr.pattern_origin or 'values not in the file'}), special_zero={int(lr.special_zero)}",
             f"  declared output: {'unknown' if lr.declared is None else lr.declared}",
             f"  expected output: {format_shape(lr.expected) if lr.expected_known else 'unknown'}"]
    lines += [f"  {f.code} [{f.severity}] {f.message}" for f in result.findings if f.layer and f.layer.id == op.id]
    return lines
