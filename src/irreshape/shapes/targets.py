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

The reader is followed as measured (scripts/target_harness.py agrees with every release on every file tried): it
lists a graph's layers in file order (an output port's precision it cannot parse, a name already listed where the
release checks it), then makes the nodes a Result or Assign depends on, in the order of a walk up from them (an
opset it does not know, an op its opset lacks, an attribute value or element type it cannot parse); a body is read
as its layer is made; the first refusal stops it (:func:`first`). A file whose document ends within its first 512
bytes is taken for no format by the releases that judge the format from those bytes.

An input of the dynamic element type where an older release's validation wants it typed (DFT/IDFT-7,
RDFT/IRDFT-9, ROIAlign-3/9 on 2023.0.x, Mish-4 to 2024.0, SegmentMax-16's indices on 2025.1) is refused as measured
on each op version's small model (an ``etype`` refusal whose words are the last line of the release's).

What irreshape does not tell: ``element_type="undefined"`` (older releases refuse it where a Result receives it,
"has undefined element type", measured on a Parameter feeding a Result only); other validation or shape inference
of an older release beyond its IR reader (none seen: 3,000 files of the type sweep, a Parameter retyped, agree on
every release); extension layers (openvino_tokenizers' and others', which each release reads only with its own
extension).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .releases import (CHECKS, DYNAMIC_INPUT_SINCE, DYNAMIC_WORDS, ETYPE_SINCE, ETYPE_WORDS, OP_SINCE, OPSET_SINCE,
                       PRECISION_SINCE, RELEASES, VALUE_SINCE, VALUE_WORDS, WORDINGS, WORDS)
from .versions import opset_number, resolve, translated

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


def refusals(model, release: str) -> list[Refusal]:
    """Every reason ``release``'s ``read_model`` refuses ``model`` (an IRModel) that 2026.4.1 reads, in file
    order. ``release`` is one of :func:`known` (:func:`canonical` first). A layer no Result or Assign depends on
    is listed by the reader (its name, its ports' precisions) but never made: only its listing can be refused."""
    return refusals_by_release(model, (release,))[release]


def refusals_by_release(model, releases: Iterable[str]) -> dict[str, list[Refusal]]:
    """:func:`refusals` for each of ``releases``, the file scanned once for them all."""
    found: "dict[str, list[Refusal]]" = {}
    scan: "_Scan | None" = None
    for release in releases:
        i = _INDEX[release]
        if i == _LAST:
            found[release] = []
            continue
        if scan is None:
            scan = _Scan(model)
        found[release] = scan.at(i)
    return found


class _Scan:
    """What of a file some release may refuse, found once: each candidate (file place, order within the layer,
    kind, layer, the first release index that reads it, how its words are made), and the layers made."""

    __slots__ = ("model", "listed", "made", "_reached")

    def __init__(self, model) -> None:
        self.model = model
        # (place, order within the layer, kind, layer, the first release index reading it (a precision; a name's
        # releases are CHECKS' ranges), the key of its words, what)
        self.listed: list[tuple] = []
        self.made: list[tuple] = []  # (place, layer, [(kind, first index reading it, words(i), what)])
        self._reached: "set[int] | None" = None
        place = 0
        for graph in _graphs(model):
            seen: set[str] = set()
            for layer in _in_file_order(graph):
                place += 1
                self._list(place, layer, seen)
                self._make(place, layer, graph)

    def _list(self, place: int, layer, seen: set[str]) -> None:
        for port in layer.outputs:
            p = port.head[1]
            t = _PRECISION_OF.get(p.strip()) if p else None
            at = PRECISION_SINCE.get(t) if t is not None else None
            if at is not None:
                self.listed.append(((layer.line, place), 0, "precision", layer, at, f"precision:{t}", f"precision {p}"))
                break
        name = layer.name
        if name in seen:
            kind = f"name:{_name_kind(layer)}"
            if kind in CHECKS:
                self.listed.append(((layer.line, place), 1, "name", layer, None, kind, name))
        seen.add(name)

    def _make(self, place: int, layer, graph) -> None:
        info = _op_info(layer.type, layer.version)
        if info is None:
            return
        op, v, opset_at, op_at, valued = info
        what = f"{op}-{v}"
        found: list[tuple] = []
        if opset_at:
            found.append(("opset", opset_at, what))
        if op_at > opset_at:
            found.append(("op", op_at, what))
        if valued:
            for attr, text in layer.data.items():
                key = (op, v, attr, text.strip().lower())
                at = VALUE_SINCE.get(key)
                if at is not None:
                    found.append(("value", at, (key, attr, text, what)))
        if (op, v) in _DYNAMIC_OPS:
            graph.link()  # the inputs' producers (once per graph): what element type feeds each
            for j, port in enumerate(layer.inputs):
                at = DYNAMIC_INPUT_SINCE.get((op, v, j))
                if at is not None and _declared_dynamic(port):
                    found.append(("dynamic", at, (op, v, j)))
        if op in ("Parameter", "Constant"):
            text = layer.data.get("element_type", "")
            t = text.strip().lower()
            at = ETYPE_SINCE.get(t)
            if at is not None:
                found.append(("etype", at, ("param" if op == "Parameter" else "const", t, text)))
        if found:
            self.made.append(((layer.line, place), layer, found))

    def reached(self) -> set[int]:
        """id() of every layer the reader makes (bodies' too)."""
        if self._reached is None:
            self._reached = {id(layer) for phase, _, layer in _events(self.model) if phase == "make"}
        return self._reached

    def at(self, i: int) -> list[Refusal]:
        out: list[tuple[int, int, Refusal]] = []
        whole = _file_refusal(self.model, i)
        if whole is not None:
            out.append(((-1, 0), 0, whole))
        for place, k, kind, layer, at, key, what in self.listed:
            if kind == "precision":
                if at > i:
                    words = _at(ETYPE_WORDS.get(key, ()), i) or ""
                    out.append((place, k, Refusal(layer, kind, str(words), what, _since(at))))
            else:
                entries = CHECKS[key]
                words = _at(entries, i)
                if words is not None:
                    later = [first for first, w in entries if first > i and w is None]
                    out.append((place, k, Refusal(layer, kind, str(words).format(name=layer.name), what,
                                                  _since(later[0]) if later else None)))
        pending = [(place, layer, found) for place, layer, found in self.made if any(at > i for _, at, _ in found)]
        if pending:
            reached = self.reached()
            for place, layer, found in pending:
                if id(layer) in reached:
                    for k, r in enumerate(_made_refusals(layer, found, i), 10):
                        out.append((place, k, r))
        out.sort(key=lambda x: (x[0], x[1]))
        return [r for _, _, r in out]


def _made_refusals(layer, found: list[tuple], i: int) -> list[Refusal]:
    """What release ``i`` refuses as it makes the layer: its opset, else the op in it, else attribute values."""
    fields = {"name": layer.name, "id": layer.id.rsplit("/", 1)[-1], "type": layer.type, "version": layer.version}
    op_at = max((at for kind, at, _ in found if kind in ("opset", "op")), default=0)
    for kind, at, what in found:
        if kind == "opset" and at > i:  # the reader stops at the layer: nothing else of it is read
            return [Refusal(layer, "opset", _words("opset", i).format(**fields), what, _since(op_at))]
    for kind, at, what in found:
        if kind == "op" and at > i:
            return [Refusal(layer, "op", _words("op", i).format(**{**fields, "type": translated(layer.type)}), what,
                            _since(at))]
    out = []
    for kind, at, detail in found:
        if at <= i:
            continue
        if kind == "value":
            key, attr, text, what = detail
            words = _at(WORDINGS[VALUE_WORDS[key]], i) or ""
            out.append(Refusal(layer, "value", str(words).format(value=text, VALUE=text.upper()),
                               f"{what} {attr}={text}", _since(at)))
        elif kind == "dynamic":
            op, v, j = detail
            words = _at(DYNAMIC_WORDS[detail], i) or ""
            out.append(Refusal(layer, "etype", str(words), f"{op}-{v} input {j} of the dynamic element type",
                               _since(at)))
        elif kind == "etype":
            place, t, text = detail
            words = str(_at(ETYPE_WORDS.get(f"{place}:{t}", ()), i) or "").replace(f'"{t}"', f'"{text}"')
            out.append(Refusal(layer, "etype", words, t, _since(at)))
    return out


_DYNAMIC_OPS = frozenset((op, v) for op, v, _ in DYNAMIC_INPUT_SINCE)
_DYNAMIC = frozenset({"UNSPECIFIED", "DYNAMIC", "dynamic", "undefined", "UNDEFINED"})


def _declared_dynamic(port) -> bool:
    """The input is fed by an output the file declares of the dynamic element type (a Parameter's or Const's
    ``element_type``, else its port's precision)."""
    src = port.source
    if src is None:
        return False
    producer = src.layer
    if producer is not None and producer.kind in ("parameter", "const"):
        return producer.data.get("element_type", "").strip().lower() in ("dynamic", "undefined")
    return (src.precision or "").strip() in _DYNAMIC


_OP_INFO: dict[tuple[str, str], "tuple[str, int, int, int, bool] | None"] = {}
_VALUED = frozenset((op, v) for op, v, _, _ in VALUE_SINCE)


def _op_info(type: str, version: str) -> "tuple[str, int, int, int, bool] | None":
    """(op type, op version, first release index knowing its opset, first whose opset holds it, whether some value
    of its attributes is not read by every release) of a layer's type and version; None where 2026.4.1 itself
    does not read it (an extension's, or a refusal of the main check's)."""
    key = (type, version)
    if key not in _OP_INFO:
        found = resolve(type, version)
        if found is None or isinstance(found, str):
            _OP_INFO[key] = None
        else:
            op, v = found
            n = opset_number(version)
            opset_at = OPSET_SINCE.get(n, 0) if n is not None else 0
            op_at = max(opset_at, OP_SINCE.get((n, op), 0)) if n is not None else 0
            _OP_INFO[key] = (op, v, opset_at, op_at, (op, v) in _VALUED)
    return _OP_INFO[key]


def _graphs(model) -> Iterable:
    """The graph and, depth first, every body's graph: each is read by a deserializer of its own."""
    yield model
    for layer in (*model.layers.values(), *model.duplicates):
        for body in layer.bodies:
            yield from _graphs(body.model)


def _in_file_order(graph) -> list:
    return sorted((*graph.layers.values(), *graph.duplicates), key=lambda la: la.line)


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


def _precisions() -> dict[str, str]:
    from ..core.etypes import TYPES
    return {row.precision: t for t, row in TYPES.items()}


_PRECISION_OF = _precisions()


def _name_kind(layer) -> str:
    return {"parameter": "Parameter", "result": "Result"}.get(layer.kind, "Relu")


_FIRST_PASS = ("precision", "name")  # checked as the reader lists the layers, before it makes any node


def first(model, found: "list[Refusal]") -> "Refusal | None":
    """The one of ``found`` (:func:`refusals` of ``model``) the release reports: its IR reader lists a graph's
    layers in file order (their ports' precisions, their names), then makes the nodes in the order of a depth-first
    walk from each Result and Assign, in file order, up their inputs; a body is read as its layer's node is made."""
    if not found:
        return None
    rank: dict[tuple[str, int], int] = {}
    for phase, _, layer in _events(model):
        rank.setdefault((phase, id(layer)), len(rank))
    late = len(rank)
    return min(found, key=lambda r: -1 if r.layer is None else  # the file as a whole: before any layer is read
               rank.get(("list" if r.kind in _FIRST_PASS else "make", id(r.layer)), late))


def _events(graph) -> Iterable:
    """("list", graph, layer) and ("make", graph, layer) in the order the reader does them, bodies within."""
    layers = _in_file_order(graph)
    for layer in layers:
        yield "list", graph, layer
    for layer in _made(graph, layers):
        yield "make", graph, layer
        for body in layer.bodies:
            yield from _events(body.model)


def _made(graph, layers: list) -> list:
    """The layers in the order the reader makes their nodes: every Parameter, used or not (file order), then a
    depth-first walk from each Result and Assign (file order) up the edges into each layer (file order), a layer
    after its inputs. (2023.3 refuses an f8e5m2 Parameter nothing uses, and names it before an f8e4m3 Const a
    Result depends on whatever their places in the file: measured; a Const nothing uses it never makes.)"""
    into: dict[str, list[str]] = {}
    edges = graph.edges
    ends = edges.ends() if hasattr(edges, "ends") else ((e.from_layer, e.from_port, e.to_layer, e.to_port)
                                                          for e in edges)
    for fl, _, tl, _ in ends:
        into.setdefault(tl, []).append(fl)
    by_id = graph.layers
    order = [la for la in layers if la.kind == "parameter"]
    done: set[str] = {la.id for la in order}
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
