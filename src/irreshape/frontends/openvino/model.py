"""An OpenVINO IR graph as plain data: layers with their ports and source lines, and the edges; a
TensorIterator's, Loop's or If's sub-graphs as :class:`Body` objects on its layer, each a graph of its own
whose layers have path ids (``"7/3"``), apart from the main graph's ``layers``.

Readers (:mod:`.reader`, :mod:`.scan`) build it; :meth:`IRModel.link` resolves the edges once. What the
model holds is kept small: it shares what repeats (strings, ``<data>`` dicts, dims tuples; none is ever
changed) and derives the ``<dim>`` lines of the usual one-per-line layout.
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from ...core.findings import LayerRef, Problem
from ...core.records import Record

class Port(Record):
    """``dims``: None when a <dim> could not be read. ``head``: (the port's line counted from its layer's, its
    ``precision`` as written or None, its ``id``, the lines of its <dim>s or None when they are the lines right
    after the port's): one tuple shared by the ports alike (readers share it), so that a port is four slots (a
    model holds a great many) and pays nothing for what repeats. ``layer``: the layer the port belongs to;
    ``source``: an input port's producer, the output port of another layer, set by IRModel.link (the first edge
    into the port counts). Neither is compared nor shown."""

    __slots__ = ("dims", "head", "layer", "source")
    FIELDS = ("dims", "head")
    dims: tuple[int, ...] | None
    head: tuple[int, str | None, str, tuple[int, ...] | None]
    layer: "Layer | None"
    source: "Port | None"

    def __init__(self, dims: tuple[int, ...] | None, head: tuple[int, str | None, str, tuple[int, ...] | None],
                 layer: "Layer | None" = None, source: "Port | None" = None) -> None:
        self.dims, self.head, self.layer, self.source = dims, head, layer, source

    # hashed by identity (equality stays by content): a reading's memos key a port by the port itself, with no
    # int made per port as id() would
    __hash__ = object.__hash__

    def __reduce__(self):  # a port travels (to --jobs' parent process) without its link into the graph
        return Port, (self.dims, self.head, self.layer)

    @property
    def id(self) -> str:
        return self.head[2]

    @property
    def lines(self) -> tuple[int, ...] | None:
        """The lines of the port's ``<dim>``s where they are not one per line right after the port's; else None."""
        return self.head[3]

    @property
    def rel(self) -> int:
        """The port's line, counted from its layer's."""
        return self.head[0]

    @property
    def precision(self) -> str | None:
        """The port's ``precision`` attribute as written (None: absent)."""
        return self.head[1]

    @property
    def line(self) -> int:
        return self.head[0] + (self.layer.line if self.layer is not None else 0)

    @property
    def producer(self) -> "tuple[Layer, Port] | None":
        """(layer, output port) feeding this input port, as :meth:`IRModel.producer` gives it."""
        src = self.source
        return None if src is None else (src.layer, src)  # type: ignore[return-value]

    @property
    def dim_lines(self) -> tuple[int, ...]:
        """The line of each ``<dim>``, in order."""
        if self.lines is not None:
            return self.lines
        line = self.line
        return tuple(range(line + 1, line + 1 + len(self.dims or ())))


class Layer(Record):
    """``kind``: the type lower-cased (OpenVINO matches layer types case-insensitively); ``inputs``, ``outputs``:
    tuples, not lists (a model holds a great many of them); ``bodies``: the sub-graphs of a TensorIterator or Loop
    (one, "body") or an If ("then", "else"), in file order."""

    __slots__ = FIELDS = ("id", "name", "type", "kind", "version", "line", "data", "inputs", "outputs", "bodies")
    id: str
    name: str
    type: str
    kind: str
    version: str
    line: int
    data: dict[str, str]
    inputs: tuple[Port, ...]
    outputs: tuple[Port, ...]
    bodies: tuple["Body", ...]

    def __init__(self, id: str, name: str, type: str, kind: str, version: str, line: int, data: dict[str, str],
                 inputs: tuple[Port, ...], outputs: tuple[Port, ...], bodies: tuple["Body", ...] = ()) -> None:
        # one statement a slot: an assignment of more than three names builds a tuple (a model has many layers)
        self.id = id
        self.name = name
        self.type = type
        self.kind = kind
        self.version = version
        self.line = line
        self.data = data
        self.inputs = inputs
        self.outputs = outputs
        self.bodies = bodies

    @property
    def end_line(self) -> int:
        """The last line of the layer's own tag, its ports and their dims."""
        last = self.line
        for p in (*self.inputs, *self.outputs):
            last = max(last, p.line, *p.dim_lines)
        return last

    @property
    def ref(self) -> LayerRef:
        return LayerRef(self.id, self.name, self.type)

    def input(self, port_id: str) -> Port | None:
        for p in self.inputs:
            if p.head[2] == port_id:
                return p
        return None

    def output(self, port_id: str) -> Port | None:
        for p in self.outputs:
            if p.head[2] == port_id:
                return p
        return None


class Edge(Record):
    __slots__ = FIELDS = ("from_layer", "from_port", "to_layer", "to_port", "line")
    from_layer: str
    from_port: str
    to_layer: str
    to_port: str
    line: int

    def __init__(self, from_layer: str, from_port: str, to_layer: str, to_port: str, line: int) -> None:
        self.from_layer, self.from_port, self.to_layer, self.to_port, self.line = (from_layer, from_port, to_layer,
                                                                                   to_port, line)

    def __str__(self) -> str:
        return f"{self.from_layer}:{self.from_port} -> {self.to_layer}:{self.to_port}"


class Edges(Sequence[Edge]):
    """A model's edges in file order, held as columns (a model may have hundreds of thousands): the four
    ends of every edge in one flat list, the lines as runs of consecutive ones (the serializer writes an edge a
    line): the index of each run's first edge and its line. An :class:`Edge` is made when asked for."""

    __slots__ = ("_ends", "_starts", "_firsts")

    def __init__(self, edges: Iterable[Edge] = ()) -> None:
        self._ends: list[str] = []
        self._starts = array("q")  # the index of the first edge of each run
        self._firsts = array("q")  # its line
        for e in edges:
            self.add(e.from_layer, e.from_port, e.to_layer, e.to_port, e.line)

    def add(self, from_layer: str, from_port: str, to_layer: str, to_port: str, line: int) -> None:
        self._run(len(self._ends) // 4, line)
        self._ends += (from_layer, from_port, to_layer, to_port)

    def _run(self, i: int, line: int) -> None:
        """Edge ``i`` (the next one) is on ``line``: a new run unless that continues the last one."""
        starts, firsts = self._starts, self._firsts
        if not starts or firsts[-1] + (i - starts[-1]) != line:
            starts.append(i)
            firsts.append(line)

    def extend(self, ends: list[str], lines: Iterable[int]) -> None:
        """Add edges by their ends (four a edge, in order: from layer, from port, to layer, to port) and lines."""
        i = len(self._ends) // 4
        if isinstance(lines, range) and lines.step == 1:  # one run (the serializer's layout): its first line
            if lines:
                self._run(i, lines.start)
        else:
            for k, line in enumerate(lines, i):
                self._run(k, line)
        self._ends += ends

    def append(self, edge: Edge) -> None:
        self.add(edge.from_layer, edge.from_port, edge.to_layer, edge.to_port, edge.line)

    def __len__(self) -> int:
        return len(self._ends) // 4

    def _line(self, i: int) -> int:
        k = bisect_right(self._starts, i) - 1
        return self._firsts[k] + (i - self._starts[k])

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if not -n <= i < n:
            raise IndexError("edge index out of range")
        i %= n
        k = 4 * i
        return Edge(*self._ends[k:k + 4], self._line(i))

    def lines(self) -> Iterator[int]:
        """The line of each edge, in order."""
        starts, firsts, n = self._starts, self._firsts, len(self)
        for k, (start, first) in enumerate(zip(starts, firsts)):
            stop = starts[k + 1] if k + 1 < len(starts) else n
            yield from range(first, first + stop - start)

    def ends(self) -> Iterator[tuple[str, str, str, str]]:
        """(from layer, from port, to layer, to port) of each edge, without making Edge objects."""
        it = iter(self._ends)
        return zip(it, it, it, it)

    def __iter__(self) -> Iterator[Edge]:
        it = iter(self._ends)
        for (a, b, c, d), line in zip(zip(it, it, it, it), self.lines()):
            yield Edge(a, b, c, d, line)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __repr__(self) -> str:
        return f"Edges({list(self)!r})"


class PortMap(Record):
    """One ``<input>`` or ``<output>`` of a ``<port_map>`` (``<then_port_map>``, ``<else_port_map>``): the body
    layer it binds (``internal_layer_id``, as a path id) and the element's attributes as written."""

    __slots__ = FIELDS = ("layer", "attrs", "line")
    layer: str
    attrs: dict[str, str]
    line: int

    def __init__(self, layer: str, attrs: dict[str, str], line: int) -> None:
        self.layer, self.attrs, self.line = layer, attrs, line


class Body(Record):
    """The sub-graph of a TensorIterator or a Loop (``name`` "body") or a branch of an If ("then", "else"): a
    graph of its own, read into ``model``, whose layer ids are path ids, ``prefix`` and the id written
    (``"7/3"``, ``"7/then/3"``; nested bodies chain: ``"7/3/then/0"``), in its edges, port map and back edges
    too. ``inputs`` and ``outputs`` bind the outer layer's ports to the body's Parameters and Results;
    ``back_edges`` run from a body Result to a body Parameter; ``line``: the line of the body's element
    (``<body>``, ``<then_body>``, ``<else_body>``)."""

    __slots__ = FIELDS = ("name", "prefix", "model", "inputs", "outputs", "back_edges", "line")
    name: str
    prefix: str
    model: "IRModel"
    inputs: list[PortMap]
    outputs: list[PortMap]
    back_edges: list[Edge]
    line: int

    def __init__(self, name: str, prefix: str, model: "IRModel", inputs: list[PortMap] | None = None,
                 outputs: list[PortMap] | None = None, back_edges: list[Edge] | None = None, line: int = 0) -> None:
        self.name, self.prefix, self.model, self.line = name, prefix, model, line
        self.inputs = [] if inputs is None else inputs
        self.outputs = [] if outputs is None else outputs
        self.back_edges = [] if back_edges is None else back_edges


class Links(Record):
    """What :meth:`IRModel.link` found in the edges: ``dangling``, the edges that name no layer (edge, "layer", the
    missing id) or no port (edge, "output" or "input", the layer lacking it), in file order; ``broken``, the input
    ports whose first edge is dangling; ``ordered``: every edge between two layers runs forward in the file."""

    __slots__ = FIELDS = ("dangling", "broken", "ordered")
    dangling: list[tuple[Edge, str, "str | Layer"]]
    broken: set[tuple[str, str]]
    ordered: bool

    def __init__(self, dangling: list[tuple[Edge, str, "str | Layer"]] | None = None,
                 broken: set[tuple[str, str]] | None = None, ordered: bool = True) -> None:
        self.dangling = [] if dangling is None else dangling
        self.broken = set() if broken is None else broken
        self.ordered = ordered


class IRModel(Record):
    """One IR graph. ``edges``: Edges, as the readers give them, or any sequence of Edge; ``comments``: every
    `irreshape:` comment; ``problems``: what the reader found wrong; ``rt_info``: layer (path) id -> the <rt_info>
    attributes inference depends on (reader.RT_INFO), one dict, shared by the bodies' models, holding only the
    layers that have one. Made when asked: the links of the edges, and by layer kind, the edges out of each layer
    of that kind in file order (three ends an edge, from port, to layer, to port, in one flat list per layer, no
    Edge made)."""

    __slots__ = FIELDS = ("path", "version", "name", "layers", "edges", "duplicates", "comments", "problems",
                          "rt_info", "_links", "_from")
    path: str
    version: int | None
    name: str
    layers: dict[str, Layer]
    edges: Sequence[Edge]
    duplicates: list[Layer]
    comments: list[tuple[int, str]]
    problems: list[Problem]
    rt_info: dict[str, frozenset[str]]
    _links: Links | None
    _from: dict[str | None, dict[str, tuple[str, ...]]]

    def __init__(self, path: str, version: int | None, name: str, layers: dict[str, Layer], edges: Sequence[Edge],
                 duplicates: list[Layer] | None = None, comments: list[tuple[int, str]] | None = None,
                 problems: list[Problem] | None = None, rt_info: dict[str, frozenset[str]] | None = None) -> None:
        self.path, self.version, self.name, self.layers, self.edges = path, version, name, layers, edges
        self.duplicates = [] if duplicates is None else duplicates
        self.comments = [] if comments is None else comments
        self.problems = [] if problems is None else problems
        self.rt_info = {} if rt_info is None else rt_info
        self._links: Links | None = None
        self._from: dict[str | None, dict[str, tuple[str, ...]]] = {}

    @property
    def bin_path(self) -> str:
        return os.path.splitext(self.path)[0] + ".bin"

    def every_layer(self) -> Iterator[Layer]:
        """Every layer of the file: this graph's (its duplicates too), then, depth first, its bodies'."""
        yield from self.layers.values()
        yield from self.duplicates
        for layer in (*self.layers.values(), *self.duplicates):
            for body in layer.bodies:
                yield from body.model.every_layer()

    def scope(self, layer_id: str) -> "IRModel | None":
        """The graph holding the layer of this id: this one, or a body's (found by the path id's prefix)."""
        if layer_id in self.layers:
            return self
        for layer in self.layers.values():
            for body in layer.bodies:
                if layer_id.startswith(body.prefix):
                    found = body.model.scope(layer_id)
                    if found is not None:
                        return found
        return None

    def link(self) -> Links:
        """Resolve the edges, once: every input port's ``source`` (the first edge into a port decides, even
        a broken one), the edges that name no layer or port, and whether every edge runs forward in the
        file (OpenVINO's serializer lists producers first)."""
        if self._links is not None:
            return self._links
        layers = self.layers
        links = self._links = Links()
        dangling, broken, edges = links.dangling, links.broken, self.edges
        ordered = True
        index: dict[int, dict[str, list[Port]]] = {}  # id(ports) -> port id -> its ports, for a layer with many
        for i, (fl, fp, tl, tp) in enumerate(_ends(edges)):
            src, dst = layers.get(fl), layers.get(tl)
            out = None
            if src is None or dst is None:
                dangling.append((edges[i], "layer", fl if src is None else tl))
                if dst is None:
                    continue
            else:
                if src.line >= dst.line:
                    ordered = False
                outs = src.outputs
                for p in outs if len(outs) <= 8 else _ports(outs, fp, index):  # a scan of a few, else an index
                    if p.head[2] == fp:
                        out = p
                        break
                else:
                    dangling.append((edges[i], "output", src))
            ins = dst.inputs
            if len(ins) <= 8:  # a scan of a few (no list made: one edge, one port, as a rule), else an index
                ports: "tuple[Port, ...] | list[Port]" = ins
                for first in ins:
                    if first.head[2] == tp:
                        break
                else:
                    first = None
            else:
                ports = _ports(ins, tp, index)
                first = ports[0] if ports else None
            if first is None:
                if out is not None:
                    dangling.append((edges[i], "input", dst))
                continue
            if first.source is not None or (broken and (dst.id, tp) in broken):
                continue  # an earlier edge feeds this port
            if out is None:
                broken.add((dst.id, tp))
            else:
                for p in ports:  # every port of that id
                    if p.head[2] == tp:
                        p.source = out
        links.ordered = ordered
        return links

    def release(self, keep: Iterable[Layer] = ()) -> None:
        """Undo the links into the graph, so that the model, once dropped, is freed at once by reference
        counting rather than by a pass of the cycle collector over its hundreds of thousands of objects:
        every input port forgets its source (:meth:`link`), and every port of a layer not in ``keep``
        forgets its layer. The layers in ``keep`` (a result's) still know their ports' lines; the model
        itself is not to be used after this."""
        self._release({id(layer) for layer in keep})

    def _release(self, kept: set[int]) -> None:
        for layer in (*self.layers.values(), *self.duplicates):
            if id(layer) in kept:
                for p in layer.inputs:
                    p.source = None
            else:
                for p in layer.inputs:
                    p.source = p.layer = None
                for p in layer.outputs:
                    p.layer = None
            if layer.bodies:  # the bodies' layers the result shows stay; the bodies go
                for body in layer.bodies:
                    body.model._release(kept)
                layer.bodies = ()
        self._links = None
        self._from.clear()

    def producer(self, layer_id: str, port_id: str) -> tuple[Layer, Port] | None:
        """The (layer, output port) feeding input ``port_id`` of ``layer_id``, if the edge and both ends exist."""
        layer = self.layers.get(layer_id)
        if layer is None:
            return None
        self.link()
        port = layer.input(port_id)
        return port.producer if port is not None else None

    def consumers(self, layer_id: str, port_id: str, kinds: Iterable[str] = ()) -> list[tuple[Layer, Port]]:
        """The (layer, input port) pairs that edges from output ``port_id`` of ``layer_id`` lead to, in file
        order. The edges out of layers of one kind are indexed on the first question about that kind, with
        those of ``kinds`` (the kinds the caller will ask about: one pass over the edges for all of them)."""
        layers = self.layers
        layer = layers.get(layer_id)
        kind = layer.kind if layer is not None else None
        index = self._from.get(kind)
        if index is None:
            wanted = {kind, *kinds} - self._from.keys() if kind is not None else {None}
            indexes = {k: self._from.setdefault(k, {}) for k in wanted}
            index = indexes[kind]
            if kind is not None:
                kind_of = {lid: la.kind for lid, la in layers.items() if la.kind in wanted}
                for fl, fp, tl, tp in _ends(self.edges):
                    k = kind_of.get(fl)
                    if k is not None:
                        indexes[k].setdefault(fl, []).extend((fp, tl, tp))
            else:  # the edges out of no layer
                for fl, fp, tl, tp in _ends(self.edges):
                    if fl not in layers:
                        indexes[None].setdefault(fl, []).extend((fp, tl, tp))
            for found in indexes.values():  # tuples: a list's spare room, on thousands of layers, is not kept
                for fl, ends in found.items():
                    found[fl] = tuple(ends)  # type: ignore[assignment]
        out = []
        ends = index.get(layer_id, ())
        for i in range(0, len(ends), 3):
            if ends[i] != port_id:
                continue
            dst = layers.get(ends[i + 1])
            port = dst.input(ends[i + 2]) if dst else None
            if dst and port:
                out.append((dst, port))
        return out


def _ports(ports: tuple[Port, ...], pid: str, index: dict[int, dict[str, list[Port]]]) -> list[Port]:
    """The ports of ``ports`` (one layer's many inputs or outputs: a Concat of thousands) whose id is ``pid``, in
    order, from an index made once per layer."""
    by_id = index.get(id(ports))
    if by_id is None:
        by_id = index[id(ports)] = {}
        for p in ports:
            by_id.setdefault(p.head[2], []).append(p)
    return by_id.get(pid, [])


def _ends(edges: Sequence[Edge]) -> Iterable[tuple[str, str, str, str]]:
    """The four ends of each edge, from the columns where the edges are :class:`Edges`."""
    if isinstance(edges, Edges):
        return edges.ends()
    return ((e.from_layer, e.from_port, e.to_layer, e.to_port) for e in edges)
