"""Runtime targets: what an older openvino release's ``read_model`` refuses in a file that 2026.4.1 reads, from the
table of what changed release by release (:mod:`.releases`, measured with each release's own wheel by
scripts/make_releases.py).

* :func:`known` — the releases irreshape knows, oldest first;
* :func:`canonical` — a target as the user writes it (``"2023.3"``: the minor's .0 release) → the release;
* :func:`refusals` — every reason one release's ``read_model`` refuses a parsed file (the frontends'
  :class:`~irreshape.frontends.openvino.model.IRModel`), in file order, each on the layer it names and in the
  release's own words. The layers of a TensorIterator's, Loop's or If's bodies are read as the main graph's are.

Only what the release reads differently from 2026.4.1 is reported here: a layer 2026.4.1 itself refuses (an opset
no release knows, an op type no opset holds) is the main check's, not a target's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter

from .releases import (CHECKS, ETYPE_SINCE, ETYPE_WORDS, OP_SINCE, OPSET_SINCE, PRECISION_SINCE, RELEASES,
                       VALUE_SINCE, VALUE_WORDS, WORDINGS, WORDS)
from .versions import opset_number, resolve

_INDEX = {r: i for i, r in enumerate(RELEASES)}
_LAST = len(RELEASES) - 1


@dataclass(frozen=True, slots=True)
class Refusal:
    """One reason a release's ``read_model`` refuses a file."""

    layer: "object | None"  # the frontends' Layer the release names (None: the file as a whole)
    kind: str  # "opset" | "op" | "etype" | "precision" | "value" | "name" | "file"
    message: str  # the release's own words
    what: str  # what is refused: "MaxPool-14", "f8e4m3", "MaxPool-14 rounding_type=ceil_torch"
    since: str | None  # the first release that reads it; None: no release does


def known() -> tuple[str, ...]:
    """Every release irreshape knows, oldest first."""
    return RELEASES


def canonical(text: str) -> str | None:
    """The release a target names: ``"2023.3"`` → ``"2023.3.0"``, ``"2024.6.0"`` → itself; None for one
    irreshape does not know."""
    text = text.strip()
    if text in _INDEX:
        return text
    if text.count(".") == 1 and f"{text}.0" in _INDEX:
        return f"{text}.0"
    return None


def _at(entries: "tuple[tuple[int, object], ...]", i: int) -> object:
    """The value of ranged entries ((first release index, value), ...) at release ``i``."""
    out = None
    for first, value in entries:
        if first > i:
            break
        out = value
    return out


def _words(kind: str, i: int) -> str:
    """The release's words for ``kind`` ('opset', 'op'): its own, else the nearest release's that were measured."""
    entries = WORDS.get(kind, ())
    found = _at(entries, i)
    if found is None:  # no refusal of that kind was seen on release i: the nearest earlier words, else later
        earlier = [v for first, v in entries if first <= i and v is not None]
        later = [v for first, v in entries if first > i and v is not None]
        found = earlier[-1] if earlier else later[0] if later else ""
    return str(found)


def _since(i: int) -> str | None:
    return RELEASES[i] if i <= _LAST else None


def _written_id(layer) -> str:
    return layer.id.rsplit("/", 1)[-1]


def refusals(model, release: str) -> list[Refusal]:
    """Every reason ``release``'s ``read_model`` refuses ``model`` (an IRModel) that 2026.4.1 reads, in file
    order. ``release`` is one of :func:`known` (:func:`canonical` first). A layer no Result or Assign depends on
    is listed by the reader (its name, its ports' precisions) but never made: only its listing can be refused.
    For several releases of one model, :class:`Survey` walks the model once."""
    return Survey(model).refusals(release)


class Survey:
    """One walk of a model for every release: the layers whose listing or making any release may refuse (a
    refusal by a release is one by the oldest too: what a release refuses is newer than it, so newer than the
    oldest; duplicate names are found once). :meth:`refusals` then judges only those, per release."""

    def __init__(self, model) -> None:
        self.model = model
        self._listed: list[tuple[object, object, bool]] = []  # (graph, layer, its name listed before) to judge
        self._made: list[object] = []  # the layers made whose making some release may refuse
        self._rank: dict[tuple[str, int], int] | None = None  # for first(): the order of the reader's events
        self._place: dict[int, int] | None = None  # each layer's place in file order (made when one is refused)
        self._scan(model, {})

    def _scan(self, graph, may: dict[tuple, bool]) -> None:
        """The reader's events of ``graph`` (as :func:`_events` gives them), keeping the layers to judge: those
        listed with a name listed before or a precision the oldest release does not read, and those made that
        the oldest refuses (``may``: (type, version, id of the shared ``<data>``) -> whether it does)."""
        layers = sorted((*graph.layers.values(), *graph.duplicates), key=_LINE)
        seen: set[str] = set()
        listed, new = self._listed, _NEW_PRECISIONS
        for layer in layers:
            twice = layer.name in seen
            seen.add(layer.name)
            if twice or any((p.precision or "").strip() in new for p in layer.outputs):
                listed.append((graph, layer, twice))
        bodies = False
        for layer in layers:
            key = (layer.type, layer.version, id(layer.data))
            hit = may.get(key)
            if hit is None:
                hit = may[key] = bool(_layer_refusals(layer, 0))
            bodies = bodies or hit or bool(layer.bodies)
        if not bodies:
            return  # no layer to make is refused by any release, and no body to read: the walk is not needed
        for layer in _made(graph, layers):
            if may[(layer.type, layer.version, id(layer.data))]:
                self._made.append(layer)
            for body in layer.bodies:
                self._scan(body.model, may)

    def refusals(self, release: str) -> list[Refusal]:
        """:func:`refusals` of the model for ``release``."""
        i = _INDEX[release]
        if i == _LAST:
            return []
        out: list[tuple[int, int, Refusal]] = []
        whole = _file_refusal(self.model, i)
        if whole is not None:
            out.append((-1, 0, whole))
        if self._place is None:
            self._place = self._places()
        place = self._place
        for graph, layer, twice in self._listed:
            found = _listed(graph, layer, i, {layer.name} if twice else set())
            out.extend((place[id(layer)], k, r) for k, r in enumerate(found))
        for layer in self._made:
            out.extend((place[id(layer)], k, r) for k, r in enumerate(_layer_refusals(layer, i), 10))
        out.sort(key=lambda x: (x[0], x[1]))
        return [r for _, _, r in out]

    def _places(self) -> dict[int, int]:
        """id of each layer to judge -> its place in file order: its line, or where layers to judge share a line
        (a file of one line), its index among all the layers (the bodies' too) sorted by line."""
        judged = {id(la): la for _, la, _ in self._listed} | {id(la): la for la in self._made}
        lines = {la.line for la in judged.values()}
        if len(lines) == len(judged):
            return {k: la.line for k, la in judged.items()}
        return {id(la): k for k, la in enumerate(sorted(self.model.every_layer(), key=_LINE))}

    def first(self, found: "list[Refusal]") -> "Refusal | None":
        """:func:`first` of the model, the reader's order of events walked once for every release."""
        if not found:
            return None
        if self._rank is None:
            self._rank = _ranks(self.model)
        return _earliest(self._rank, found)


def _file_refusal(model, i: int) -> "Refusal | None":
    """A document that ends within the file's first 512 bytes: the releases that judge a file's format by its
    first 512 bytes take it for none they read."""
    entries = CHECKS.get("small")
    words = _at(entries, i) if entries else None
    if words is None:
        return None
    try:
        with open(model.path, "rb") as f:
            head = f.read(513)
    except OSError:
        return None
    end = head.rfind(b"</net>")
    if end < 0 or end + len(b"</net>") > 512:
        return None
    later = [first for first, w in entries if first > i and w is None]
    return Refusal(None, "file", str(words).format(path=model.path), "a document within 512 bytes",
                   _since(later[0]) if later else None)


def _listed(graph, layer, i: int, seen: set[str]) -> list[Refusal]:
    """What the reader refuses as it lists a layer: an output port's precision, a name already listed."""
    out: list[Refusal] = []
    for port in layer.outputs:
        p = (port.precision or "").strip()
        t = _PRECISION_OF.get(p)
        at = PRECISION_SINCE.get(t) if t is not None else None
        if at is not None and at > i:
            words = _at(ETYPE_WORDS.get(f"precision:{t}", ()), i) or ""
            out.append(Refusal(layer, "precision", str(words), f"precision {p}", _since(at)))
            break
    if layer.name in seen:
        entries = CHECKS.get(f"name:{_name_kind(layer)}")
        words = _at(entries, i) if entries else None
        if words is not None:
            later = [first for first, w in entries if first > i and w is None]
            out.append(Refusal(layer, "name", str(words).format(name=layer.name), layer.name,
                               _since(later[0]) if later else None))
    seen.add(layer.name)
    return out


def _layer_refusals(layer, i: int) -> list[Refusal]:
    out: list[Refusal] = []
    found = resolve(layer.type, layer.version)
    if found is None or isinstance(found, str):
        found = None  # an extension's layer, or one 2026.4.1 refuses itself: no target's business
    n = opset_number(layer.version)
    fields = {"name": layer.name, "id": _written_id(layer), "type": layer.type, "version": layer.version}
    if found is not None:
        op, v = found
        what = f"{op}-{v}"
        opset_at = OPSET_SINCE.get(n, 0) if n is not None else 0
        op_at = OP_SINCE.get((n, op), 0) if n is not None else 0
        if opset_at > i:
            out.append(Refusal(layer, "opset", _words("opset", i).format(**fields), what,
                               _since(max(opset_at, op_at))))
            return out  # the reader stops at the layer: nothing else of it is read
        if op_at > i:
            out.append(Refusal(layer, "op", _words("op", i).format(**{**fields, "type": op}), what, _since(op_at)))
            return out
        for attr, text in layer.data.items():
            key = (op, v, attr, text.strip().lower())
            at = VALUE_SINCE.get(key)
            if at is not None and at > i:
                words = _at(WORDINGS[VALUE_WORDS[key]], i) or ""
                out.append(Refusal(layer, "value", str(words).format(value=text, VALUE=text.upper()),
                                   f"{what} {attr}={text}", _since(at)))
        if op in ("Parameter", "Constant"):
            t = layer.data.get("element_type", "").strip().lower()
            at = ETYPE_SINCE.get(t)
            if at is not None and at > i:
                place = "param" if op == "Parameter" else "const"
                words = _at(ETYPE_WORDS.get(f"{place}:{t}", ()), i) or ""
                out.append(Refusal(layer, "etype", str(words), t, _since(at)))
    return out


def _precisions() -> dict[str, str]:
    from ..core.etypes import TYPES
    return {row.precision: t for t, row in TYPES.items()}


_PRECISION_OF = _precisions()
# the port precisions some release does not read (as :func:`_listed` reads a port's precision)
_NEW_PRECISIONS = frozenset(p for p, t in _PRECISION_OF.items() if PRECISION_SINCE.get(t, 0) > 0)


def _name_kind(layer) -> str:
    return {"parameter": "Parameter", "result": "Result"}.get(layer.kind, "Relu")


_LINE = attrgetter("line")
_FIRST_PASS = ("precision", "name")  # checked as the reader lists the layers, before it makes any node


def first(model, found: "list[Refusal]") -> "Refusal | None":
    """The one of ``found`` (:func:`refusals` of ``model``) the release reports: its IR reader lists a graph's
    layers in file order (their ports' precisions, their names), then makes the nodes in the order of a depth-first
    walk from each Result and Assign, in file order, up their inputs; a body is read as its layer's node is made."""
    return _earliest(_ranks(model), found) if found else None


def _earliest(rank: dict[tuple[str, int], int], found: "list[Refusal]") -> Refusal:
    late = len(rank)
    return min(found, key=lambda r: -1 if r.layer is None else  # the file as a whole: before any layer is read
               rank.get(("list" if r.kind in _FIRST_PASS else "make", id(r.layer)), late))


def _ranks(model) -> dict[tuple[str, int], int]:
    """("list" or "make", id of a layer) -> its place in the reader's order of events."""
    rank: dict[tuple[str, int], int] = {}
    for phase, _, layer in _events(model):
        rank.setdefault((phase, id(layer)), len(rank))
    return rank


def _events(graph) -> Iterable:
    """("list", graph, layer) and ("make", graph, layer) in the order the reader does them, bodies within."""
    layers = sorted((*graph.layers.values(), *graph.duplicates), key=_LINE)
    for layer in layers:
        yield "list", graph, layer
    for layer in _made(graph, layers):
        yield "make", graph, layer
        for body in layer.bodies:
            yield from _events(body.model)


def _made(graph, layers: list) -> list:
    """The layers in the order the reader makes their nodes: a depth-first walk from each Result and Assign (file
    order) up the edges into each layer (file order), a layer after its inputs."""
    into: dict[str, list[str]] = {}
    edges = graph.edges  # the readers' columns give the ends without an Edge object each
    ends = edges.ends() if hasattr(edges, "ends") else ((e.from_layer, "", e.to_layer, "") for e in edges)
    for from_layer, _, to_layer, _ in ends:
        into.setdefault(to_layer, []).append(from_layer)
    by_id = graph.layers
    done: set[str] = set()
    order = []
    for root in (la for la in layers if la.kind in ("result", "assign")):
        if root.id in done:
            continue
        done.add(root.id)
        stack = [(root.id, iter(into.get(root.id, ())))]
        while stack:
            lid, it = stack[-1]
            for src in it:
                if src not in done and src in by_id:
                    done.add(src)
                    stack.append((src, iter(into.get(src, ()))))
                    break
            else:
                stack.pop()
                order.append(by_id[lid])
    return order
