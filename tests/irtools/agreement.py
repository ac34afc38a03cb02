"""Whole-graph inference against openvino's ``read_model``: every output port of every layer, by op type.

    python tests/irtools/agreement.py FILE_OR_DIR...    # a table per op type, then the disagreements
"""

from __future__ import annotations

import collections
import sys
from dataclasses import dataclass
from pathlib import Path

import openvino as ov

from irreshape.checks.graph import Graph
from irreshape.core.dims import format_shape
from irreshape.frontends.openvino import parse


@dataclass(frozen=True)
class Port:
    file: str
    layer: str
    type: str
    version: str
    origin: str  # inferred, declared, taken, trusted, undecided, or OpenVINO's error
    got: str
    want: str

    @property
    def folded(self) -> bool:
        """read_model folded the layer away (a shape subgraph of constants): nothing to compare."""
        return self.want == "missing"

    @property
    def inferred(self) -> bool:
        return self.origin in ("inferred", "declared", "taken")

    @property
    def equal(self) -> bool:
        return self.got == self.want


def ports(path: str, core: ov.Core | None = None, labels: dict[str, list[list[str]]] | None = None) -> list[Port]:
    """One row per output port of the main graph's layers (OpenVINO's friendly names are the layer names).
    ``labels``: read_model's partial shapes by friendly name, as labels.json records them (files whose ops only
    an extension reads: tests/data/today), instead of a read_model here."""
    if labels is not None:
        theirs = _from_labels(labels)
    else:
        theirs = _theirs((core or ov.Core()).read_model(path).get_ordered_ops())
    model = parse(path)
    graph = Graph(model)
    rows = _rows(path, model, graph, theirs, "")
    graph.weights.close()
    return rows


def _theirs(ops) -> dict[str, list[list[str]]]:
    out: dict[str, list[list[str]]] = collections.defaultdict(list)
    for op in ops:
        out[op.get_friendly_name()].append([str(o.get_partial_shape()) for o in op.outputs()])
    return out


def _from_labels(layers: dict[str, list]) -> dict[str, list[list[str]]]:
    return {name: [[port[0] for port in op] for op in ops] for name, ops in layers.items()}


def _rows(path: str, model, graph: Graph, theirs: dict[str, list[list[str]]], prefix: str) -> list[Port]:
    """One row per output port of ``model``'s layers, matched with ``theirs`` by friendly name and occurrence."""
    seen: collections.Counter = collections.Counter()
    rows = []
    for layer in model.layers.values():
        k = seen[layer.name]
        seen[layer.name] += 1
        want = theirs.get(layer.name, [])
        outs = want[k] if k < len(want) else []
        for i, port in enumerate(layer.outputs):
            got = format_shape(graph.shape(port))  # (the origin is known once the shape is)
            rows.append(Port(Path(path).name, prefix + layer.name, layer.type, layer.version, graph.origin(port),
                             got, outs[i] if i < len(outs) else "missing"))
    return rows


def every_port(path: str, entry: dict | None = None, core: ov.Core | None = None) -> list[Port]:
    """:func:`ports` of the main graph and of every If, Loop and TensorIterator body, each body's layers as the
    reading of its control-flow layer ran it. ``entry``: the file's labels.json entry (``layers``, and ``bodies``
    keyed by the path of friendly names, ``loop/body``, as scripts/export_frontends.py writes it); without it,
    read_model here."""
    from irtools.bodies import _ov_bodies
    model = parse(path)
    graph = Graph(model)
    rows: list[Port] = []
    if entry is not None:
        labelled = entry.get("bodies", {})

        def body_of(key: str, _op) -> dict | None:
            layers = labelled.get(key)
            return None if layers is None else _from_labels(layers)
        main = _from_labels(entry["layers"])
        ops: dict = {}
    else:
        read = (core or ov.Core()).read_model(path)
        ops = {"": {op.get_friendly_name(): op for op in read.get_ordered_ops()}}
        main = _theirs(read.get_ordered_ops())

        def body_of(key: str, op) -> dict | None:
            if op is None:
                return None
            inner = dict(_ov_bodies(op)).get(key.rsplit("/", 1)[1])
            if inner is None:
                return None
            ops[key + "/"] = {o.get_friendly_name(): o for o in inner.get_ordered_ops()}
            return _theirs(inner.get_ordered_ops())

    def walk(model, graph: Graph, theirs: dict, prefix: str) -> None:
        rows.extend(_rows(path, model, graph, theirs, prefix))
        for layer in model.layers.values():
            if not layer.bodies:
                continue
            views = {id(v.body): v for v in graph.bodies.get(id(layer), ())}
            for body in layer.bodies:
                key = f"{prefix}{layer.name}/{body.name}"
                inner = body_of(key, ops.get(prefix, {}).get(layer.name))
                view = views.get(id(body))
                if inner is not None and view is not None:
                    walk(body.model, view.graph, inner, key + "/")
                elif inner is not None:  # a body its layer's reading never ran: every port unverified
                    rows.extend(Port(Path(path).name, key + "/" + lay.name, lay.type, lay.version, "not run", "",
                                     str(want[0][i]) if (want := inner.get(lay.name)) and i < len(want[0]) else
                                     "missing")
                                for lay in body.model.layers.values() for i, _ in enumerate(lay.outputs))
    walk(model, graph, main, "")
    graph.weights.close()
    return rows


def figures(rows: list[Port]) -> tuple[int, int, int]:
    """(ports equal to read_model's, unverified, differing) among those read_model keeps."""
    kept = [r for r in rows if not r.folded]
    equal = sum(r.inferred and r.equal for r in kept)
    differing = sum(r.inferred and not r.equal for r in kept)
    return equal, len(kept) - equal - differing, differing


def loadable(paths: list[str]) -> list[str]:
    core = ov.Core()
    out = []
    for p in paths:
        try:
            core.read_model(p)
        except Exception:
            continue
        out.append(p)
    return out


def table(rows: list[Port]) -> str:
    """Per op type: output ports OpenVINO keeps (not folded), how many irreshape inferred (not trusted or
    undecided), and how many of those equal read_model's."""
    by: dict[str, list[Port]] = collections.defaultdict(list)
    for r in rows:
        if not r.folded:
            by[r.type].append(r)
    lines = [f"{'op type':<40} {'ports':>6} {'inferred':>9} {'equal':>7}"]
    for t, rs in [*sorted(by.items(), key=lambda kv: -len(kv[1])), ("all", [r for rs in by.values() for r in rs])]:
        inferred = [r for r in rs if r.inferred]
        lines.append(f"{t:<40} {len(rs):>6} {len(inferred):>9} {sum(r.equal for r in inferred):>7}")
    folded = sum(r.folded for r in rows)
    lines.append(f"({folded} ports of layers read_model folds into constants are not compared)")
    return "\n".join(lines)


def labelled(path: str) -> dict | None:
    """The labels.json entry of ``path`` (its folder's), if any."""
    import json
    labels = Path(path).parent / "labels.json"
    if not labels.exists():
        return None
    return json.loads(labels.read_text()).get(Path(path).name, {}).get("layers")


if __name__ == "__main__":
    files = [str(f) for a in sys.argv[1:] for f in (sorted(Path(a).glob("*.xml")) if Path(a).is_dir() else [Path(a)])]
    rows = [r for f in files for r in ports(f, labels=labelled(f))] if all(labelled(f) for f in files) \
        else [r for f in loadable(files) for r in ports(f)]
    print(table(rows))
    for r in rows:
        if not r.equal and not r.folded:
            print(f"{r.file}: {r.type}-{r.version} {r.layer!r} [{r.origin}] irreshape {r.got}, openvino {r.want}")
