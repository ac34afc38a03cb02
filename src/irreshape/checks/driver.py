"""Check one file: parse → recompute every Reshape-family layer → findings. No output here."""

from __future__ import annotations

import gc
import os
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..core.dims import Shape
from ..frontends.openvino.model import DEFAULT_MAX_XML_SIZE, IRModel, NotIR, Port, parse
from ..rules import reshape as R
from ..rules import structure as S
from ..rules import weights as W
from ..core.findings import Finding
from ..rules.reshape import LayerResult


@dataclass(slots=True)
class Options:
    max_xml_size: int = DEFAULT_MAX_XML_SIZE
    debug: bool = False  # let an internal error raise (with its traceback) instead of reporting IR900


@dataclass(slots=True)
class FileResult:
    path: str
    layers: list[LayerResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    model: IRModel | None = None
    internal_error: bool = False  # irreshape itself failed on this file (an IR900 finding): exit 2

    def sort(self) -> None:
        self.findings.sort(key=lambda f: (f.line or 0, f.code, f.message))


def _kahn(model: IRModel) -> tuple[list[str], list[str]]:
    """(layer ids in topological order, the rest: layers on a cycle or fed by one, in file order)."""
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
    seen = set(order)
    return order, [lid for lid in model.layers if lid not in seen]


def topological_order(model: IRModel) -> list[str]:
    """Layer ids, producers before consumers; layers on a cycle (or fed by one) come last in file order."""
    order, rest = _kahn(model)
    return order + rest


_UNREAD = (S.XML_SYNTAX, S.UNREADABLE, S.FILE_TOO_LARGE, S.XML_ENTITIES)
_BIN_PROBLEMS = (W.MISSING, W.LFS_POINTER, W.UNREADABLE, W.EMPTY)


def check_model(model: IRModel, options: Options | None = None) -> FileResult:
    """Check a parsed model. A layer whose check fails internally gets an IR900 finding; the others go on."""
    from .graph import Graph

    result = FileResult(model.path, model=model)
    result.findings.extend(model.findings)
    if any(f.rule in _UNREAD for f in model.findings):
        return result  # what was read before the problem is not the model OpenVINO would load
    result.findings.extend(S.check(model))
    # the file order when every edge runs forward (as OpenVINO writes IRs); else a topological sort
    order, cyclic = (list(model.layers), []) if model.link().ordered else _kahn(model)
    graph = Graph(model)
    # A second reading of the graph in which the Reshapes that lie keep their declared dims: a layer
    # downstream of a liar (through its data or a ShapeOf of it) that agrees with this reading is not
    # blamed, since the lie may be in the liar's pattern as well as in its declared dims.
    honest: list[tuple[Port, Shape]] = []
    alt: Graph | None = None
    liars = 0
    try:
        for lid in order + cyclic:
            layer = model.layers[lid]
            if layer.kind not in R.KINDS:
                continue
            try:
                verdict, findings = R.check_layer(layer, graph)
                if liars and verdict.status in (R.MISMATCH, R.INVALID):
                    if alt is None:
                        alt = Graph(model, graph.weights)
                        for key in honest:
                            alt.set_shape(*key)
                    second, second_findings = R.check_layer(layer, alt)
                    if second.status == R.OK:
                        verdict, findings = second, second_findings
            except Exception as e:
                if options is not None and options.debug:
                    raise
                result.findings.append(_internal_error(model.path, e, layer))
                result.internal_error = True
                continue
            if verdict.expected_known and layer.outputs:
                out = (layer.outputs[0], verdict.expected)
                graph.set_shape(*out)
                if verdict.status == R.OK:
                    honest.append(out)
                    if alt is not None:
                        alt.set_shape(*out)
            liars += verdict.status in (R.MISMATCH, R.INVALID)
            result.layers.append(verdict)
            result.findings.extend(findings)
    finally:
        graph.weights.close()
    if cyclic:
        reported = {f.layer.id for f in result.findings if f.rule is S.CYCLE and f.layer is not None}
        reshapes = [model.layers[lid] for lid in cyclic
                    if model.layers[lid].kind in R.KINDS and model.layers[lid].kind != "staticreshape"]
        result.findings.extend(S.shape_cycles(model, set(cyclic), [r for r in reshapes if r.id not in reported]))
    seen: set = set()  # a .bin that cannot be used is one problem, however many Consts need it;
    # a broken Const shared by several Reshapes is one finding too
    result.findings = [f for f in result.findings
                       if not ((key := f.rule if f.rule in _BIN_PROBLEMS else (f.rule, f.line, f.message)) in seen
                               or seen.add(key))]
    result.layers.sort(key=lambda r: (r.layer.line, r.layer.id))
    result.sort()
    return result


def _internal_error(path: str, exc: Exception, layer=None) -> Finding:
    from .. import __version__
    from ..frontends.openvino.model import clip, display_path

    where = f"layer {clip(layer.name)!r} (id {clip(layer.id)}) of " if layer is not None else ""
    return Finding(S.INTERNAL_ERROR, f"internal error while checking {where}{display_path(path)!r}: {type(exc).__name__}: "
                   f"{clip(exc, 200)}. This is a bug in irreshape {__version__}: please report it with the "
                   "file (run with --debug for the traceback)", layer.line if layer is not None else None,
                   layer.ref if layer is not None else None)


def check_file(path: str, options: Options | None = None) -> FileResult | None:
    """Check one IR ``.xml`` or oneDNN Graph ``.json`` file. None when the file is XML or JSON of another
    kind (skipped without a word).

    Never raises for a bad file, nor for a bug: an unexpected exception becomes an IR900 finding and
    ``internal_error`` (unless ``options.debug``).
    """
    options = options or Options()
    try:
        with no_cycle_collection():
            if path.lower().endswith(".json"):
                from ..frontends.onednn import check_json

                return check_json(path, options)
            return check_model(parse(path, options.max_xml_size), options)
    except NotIR:
        return None
    except Exception as e:
        if options.debug:
            raise
        return FileResult(path, findings=[_internal_error(path, e)], internal_error=True)


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off for the block. A parse makes a million objects and no cycle, and the
    collector would walk them all again and again; keep it off until the model is dropped, for whatever
    was made with it off still waits in the youngest generation to be walked."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def iter_paths(paths: list[str]) -> list[str]:
    """Expand directories into the IR ``.xml`` files and oneDNN Graph ``.json`` files below them
    (sorted); files named explicitly are kept as given."""
    from ..frontends.openvino.model import sniff_is_ir
    from ..frontends.onednn import is_onednn_json

    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in files:
                    full = os.path.join(root, name)
                    low = name.lower()
                    if (low.endswith(".xml") and sniff_is_ir(full)) or (low.endswith(".json") and is_onednn_json(full)):
                        found.append(full)
            out.extend(sorted(found))
        else:
            out.append(p)
    seen: set[str] = set()
    return [p for p in out if not (p in seen or seen.add(p))]
