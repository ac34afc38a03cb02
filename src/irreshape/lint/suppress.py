"""Inline suppressions: XML comments that silence findings.

``<!-- irreshape: ignore[IR101, reshape-rank-mismatch] reason -->`` inside a ``<layer>`` element, or
just before it (after the previous layer), silences those codes for that layer; without brackets
it silences every code. ``<!-- irreshape: file-ignore[IR105] -->`` anywhere silences the codes in
the whole file. Codes may be prefixes (``IR1``) or rule names. Findings that belong to no layer
can only be silenced by ``file-ignore``.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Optional

from ..core.records import Record
from .select import ALL_CODES, SelectorError, codes_of

if TYPE_CHECKING:
    from ..frontends.openvino.model import IRModel, Layer
    from ..core.findings import Finding

_DIRECTIVE = re.compile(r"irreshape\s*:\s*(file-ignore|ignore)\b\s*(?:\[([^\]]*)\])?", re.I)


class Suppressions(Record):
    """The codes a file's ``irreshape:`` comments suppress: in the whole file, and by layer id."""

    __slots__ = FIELDS = ("file_codes", "by_layer")
    file_codes: frozenset[str]
    by_layer: dict[str, frozenset[str]]

    def __init__(self, file_codes: frozenset[str] = frozenset(), by_layer: dict[str, frozenset[str]] | None = None):
        self.file_codes = file_codes
        self.by_layer = {} if by_layer is None else by_layer

    def suppresses(self, finding: "Finding") -> bool:
        if finding.code in self.file_codes:
            return True
        return finding.layer is not None and finding.code in self.by_layer.get(finding.layer.id, ())


def parse_directive(text: str) -> Optional[tuple[str, frozenset[str]]]:
    """``("ignore" | "file-ignore", codes)`` for a suppression comment, None for anything else."""
    m = _DIRECTIVE.search(text)
    if m is None:
        return None
    if m.group(2) is None:
        return m.group(1).lower(), frozenset(ALL_CODES)
    codes: set[str] = set()
    for selector in re.split(r"[,\s]+", m.group(2).strip()):
        try:
            codes |= codes_of([selector]) if selector else set()
        except SelectorError:
            continue  # an unknown code suppresses nothing
    return m.group(1).lower(), frozenset(codes)


def from_model(model: "IRModel") -> Suppressions:
    """The suppressions written in ``model``'s comments."""
    out = Suppressions()
    if not model.comments:
        return out
    layers = sorted(model.every_layer(), key=lambda la: la.line)  # the bodies' layers too
    starts = [la.line for la in layers]
    by_layer: dict[str, set[str]] = {}
    for line, text in model.comments:
        parsed = parse_directive(text)
        if parsed is None:
            continue
        verb, codes = parsed
        if verb == "file-ignore":
            out.file_codes |= codes
            continue
        owner = _owner(model.path, layers, starts, line)
        if owner is not None:
            by_layer.setdefault(owner.id, set()).update(codes)
    out.by_layer = {k: frozenset(v) for k, v in by_layer.items()}
    return out


def _owner(path: str, layers: list["Layer"], starts: list[int], line: int) -> Optional["Layer"]:
    """The layer a comment on ``line`` belongs to: the one it is inside, else the next one (in a body of the
    layer before it, the body's next layer)."""
    i = bisect.bisect_right(starts, line)  # layers[i - 1] starts at or before the comment
    prev = layers[i - 1] if i > 0 else None
    if prev is not None and line > prev.end_line and any(b.line <= line for b in prev.bodies):
        return layers[i] if i < len(layers) else None
    if prev is not None and (line <= prev.end_line or not _closed_between(path, prev.end_line, line)):
        return prev
    return layers[i] if i < len(layers) else None


def _closed_between(path: str, first: int, last: int) -> bool:
    """Is there a ``</layer>`` on lines ``first`` .. ``last`` of the file?"""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, text in enumerate(f, 1):
                if n > last:
                    break
                if n >= first and "</layer>" in text:
                    return True
    except OSError:
        pass
    return False
