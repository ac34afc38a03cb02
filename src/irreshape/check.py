"""Check one file: parse → recompute every Reshape-family layer → findings. No output here."""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, field
from typing import Optional

from .ir import DEFAULT_MAX_XML_SIZE, IRModel, NotIR, parse
from .rules import reshape as R
from .rules import structure as S
from .rules.base import Finding
from .rules.reshape import LayerResult


@dataclass(slots=True)
class Options:
    max_xml_size: int = DEFAULT_MAX_XML_SIZE


@dataclass(slots=True)
class FileResult:
    path: str
    layers: list[LayerResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    model: Optional[IRModel] = None

    def sort(self) -> None:
        self.findings.sort(key=lambda f: (f.line or 0, f.code, f.message))


def topological_order(model: IRModel) -> list[str]:
    """Layer ids, producers before consumers; layers on a cycle come last in file order."""
    indeg = {lid: 0 for lid in model.layers}
    succ: dict[str, list[str]] = {}
    for e in model.edges:
        if e.from_layer in indeg and e.to_layer in indeg:
            succ.setdefault(e.from_layer, []).append(e.to_layer)
            indeg[e.to_layer] += 1
    queue = deque(lid for lid, n in indeg.items() if n == 0)
    order: list[str] = []
    while queue:
        lid = queue.popleft()
        order.append(lid)
        for nxt in succ.get(lid, ()):
            indeg[nxt] -= 1
            if indeg[nxt] == 0:
                queue.append(nxt)
    if len(order) < len(indeg):
        seen = set(order)
        order.extend(lid for lid in model.layers if lid not in seen)
    return order


def check_model(model: IRModel) -> FileResult:
    from .evaluate import Graph

    result = FileResult(model.path, model=model)
    result.findings.extend(model.findings)
    if not model.layers and any(f.rule in (S.XML_SYNTAX, S.UNREADABLE, S.FILE_TOO_LARGE, S.XML_ENTITIES)
                                for f in model.findings):
        return result
    result.findings.extend(S.check(model))
    graph = Graph(model)
    try:
        for lid in topological_order(model):
            layer = model.layers[lid]
            if layer.kind in R.KINDS:
                verdict, findings = R.check_layer(layer, graph)
                result.layers.append(verdict)
                result.findings.extend(findings)
    finally:
        graph.weights.close()
    result.layers.sort(key=lambda r: (r.layer.line, r.layer.id))
    result.sort()
    return result


def check_file(path: str, options: Options | None = None) -> Optional[FileResult]:
    """Check one IR file. None when the file is XML but not an IR (skipped without a word)."""
    options = options or Options()
    try:
        model = parse(path, options.max_xml_size)
    except NotIR:
        return None
    return check_model(model)


def iter_paths(paths: list[str]) -> list[str]:
    """Expand directories into the IR ``.xml`` files below them (sorted); files are kept as given."""
    from .ir import sniff_is_ir

    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in files:
                    if name.lower().endswith(".xml"):
                        full = os.path.join(root, name)
                        if sniff_is_ir(full):
                            found.append(full)
            out.extend(sorted(found))
        else:
            out.append(p)
    seen: set[str] = set()
    return [p for p in out if not (p in seen or seen.add(p))]
