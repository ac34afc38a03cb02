"""OpenVINO IR ``.xml`` → plain dataclasses, with source lines; ``.bin`` reads that are lazy and bounds-checked.

The parser is hardened (no entities, no DTD, no network) and streams the document: only layers, edges
and comments reach Python, each ``<layer>`` is freed as soon as it is read, and the model keeps the
few attributes and dims the checks need, sharing what repeats (strings, ``<data>`` dicts, dims tuples;
none is ever changed) and deriving the ``<dim>`` lines of the usual one-per-line layout. Memory follows
the number of layers, not the size of the document.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ...rules import structure as S
from ...core.findings import Finding, LayerRef

DEFAULT_MAX_XML_SIZE = 1 << 30
INT64_MAX = (1 << 63) - 1
_DIRECTIVE = re.compile(r"irreshape\s*:")


@dataclass(slots=True)
class Port:
    id: str
    dims: tuple[int, ...] | None  # None when a <dim> could not be read
    rel: int  # the port's line, counted from its layer's (a small number: no int object of its own)
    lines: tuple[int, ...] | None = None  # the <dim> lines; None when they are the lines right after ``line``
    layer: "Layer | None" = field(default=None, compare=False, repr=False)  # the layer the port belongs to
    # an input port's producer, the output port of another layer, set by IRModel.link: the first edge into
    # the port counts
    source: "Port | None" = field(default=None, compare=False, repr=False)

    def __reduce__(self):  # a port travels (to --jobs' parent process) without its link into the graph
        return Port, (self.id, self.dims, self.rel, self.lines, self.layer)

    @property
    def line(self) -> int:
        return self.rel + (self.layer.line if self.layer is not None else 0)

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


@dataclass(slots=True)
class Layer:
    id: str
    name: str
    type: str
    kind: str  # the type lower-cased: OpenVINO matches layer types case-insensitively
    version: str
    line: int
    data: dict[str, str]
    inputs: tuple[Port, ...]  # tuples, not lists: a model holds a great many of them
    outputs: tuple[Port, ...]

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
            if p.id == port_id:
                return p
        return None

    def output(self, port_id: str) -> Port | None:
        for p in self.outputs:
            if p.id == port_id:
                return p
        return None


@dataclass(slots=True)
class Edge:
    from_layer: str
    from_port: str
    to_layer: str
    to_port: str
    line: int

    def __str__(self) -> str:
        return f"{self.from_layer}:{self.from_port} -> {self.to_layer}:{self.to_port}"


class Edges(Sequence[Edge]):
    """A model's edges in file order, held as columns (a model may have hundreds of thousands): the four
    ends of every edge in one flat list, the lines in an array. An :class:`Edge` is made when asked for."""

    __slots__ = ("_ends", "_lines")

    def __init__(self, edges: Iterable[Edge] = ()) -> None:
        self._ends: list[str] = []
        self._lines = array("q")
        for e in edges:
            self.add(e.from_layer, e.from_port, e.to_layer, e.to_port, e.line)

    def add(self, from_layer: str, from_port: str, to_layer: str, to_port: str, line: int) -> None:
        self._ends += (from_layer, from_port, to_layer, to_port)
        self._lines.append(line)

    def append(self, edge: Edge) -> None:
        self.add(edge.from_layer, edge.from_port, edge.to_layer, edge.to_port, edge.line)

    def __len__(self) -> int:
        return len(self._lines)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        line = self._lines[i]  # IndexError, negative indexes: as a list's
        k = 4 * (i % len(self._lines))
        return Edge(*self._ends[k:k + 4], line)

    def ends(self) -> Iterator[tuple[str, str, str, str]]:
        """(from layer, from port, to layer, to port) of each edge, without making Edge objects."""
        it = iter(self._ends)
        return zip(it, it, it, it)

    def __iter__(self) -> Iterator[Edge]:
        it = iter(self._ends)
        for (a, b, c, d), line in zip(zip(it, it, it, it), self._lines):
            yield Edge(a, b, c, d, line)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __repr__(self) -> str:
        return f"Edges({list(self)!r})"


@dataclass(slots=True)
class Links:
    """What :meth:`IRModel.link` found in the edges."""

    # edges that name no layer (edge, "layer", the missing id) or no port (edge, "output" or "input", the
    # layer lacking it), in file order
    dangling: list[tuple[Edge, str, "str | Layer"]] = field(default_factory=list)
    broken: set[tuple[str, str]] = field(default_factory=set)  # input ports whose first edge is dangling
    ordered: bool = True  # every edge between two layers runs forward in the file


@dataclass(slots=True)
class IRModel:
    path: str
    version: int | None
    name: str
    layers: dict[str, Layer]
    edges: Sequence[Edge]  # Edges, as the readers give them, or any sequence of Edge
    duplicates: list[Layer] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)  # every `irreshape:` comment
    findings: list[Finding] = field(default_factory=list)
    _links: Links | None = None
    # layer kind -> the edges out of each layer of that kind, in file order (made for a kind when asked)
    _from: dict[str | None, dict[str, list[Edge]]] = field(default_factory=dict)

    @property
    def bin_path(self) -> str:
        return os.path.splitext(self.path)[0] + ".bin"

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
                for p in src.outputs:
                    if p.id == fp:
                        out = p
                        break
                else:
                    dangling.append((edges[i], "output", src))
            ports = [p for p in dst.inputs if p.id == tp]
            if not ports:
                if out is not None:
                    dangling.append((edges[i], "input", dst))
                continue
            if ports[0].source is not None or (broken and (dst.id, tp) in broken):
                continue  # an earlier edge feeds this port
            if out is None:
                broken.add((dst.id, tp))
            else:
                for p in ports:
                    p.source = out
        links.ordered = ordered
        return links

    def release(self, keep: Iterable[Layer] = ()) -> None:
        """Undo the links into the graph, so that the model, once dropped, is freed at once by reference
        counting rather than by a pass of the cycle collector over its hundreds of thousands of objects:
        every input port forgets its source (:meth:`link`), and every port of a layer not in ``keep``
        forgets its layer. The layers in ``keep`` (a result's) still know their ports' lines; the model
        itself is not to be used after this."""
        kept = {id(layer) for layer in keep}
        for layer in (*self.layers.values(), *self.duplicates):
            for p in layer.inputs:
                p.source = None
            if id(layer) not in kept:
                for p in (*layer.inputs, *layer.outputs):
                    p.layer = None
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

    def consumers(self, layer_id: str, port_id: str) -> list[tuple[Layer, Port]]:
        """The (layer, input port) pairs that edges from output ``port_id`` of ``layer_id`` lead to, in file
        order. The edges out of layers of one kind are indexed on the first question about that kind."""
        layers = self.layers
        layer = layers.get(layer_id)
        kind = layer.kind if layer is not None else None
        index = self._from.get(kind)
        if index is None:
            index = self._from[kind] = {}
            edges = self.edges
            ids = {lid for lid, la in layers.items() if la.kind == kind}
            for i, (fl, *_) in enumerate(_ends(edges)):
                if fl in ids if kind is not None else fl not in layers:
                    index.setdefault(fl, []).append(edges[i])
        out = []
        for e in index.get(layer_id, ()):
            if e.from_port != port_id:
                continue
            dst = layers.get(e.to_layer)
            port = dst.input(e.to_port) if dst else None
            if dst and port:
                out.append((dst, port))
        return out


def _ends(edges: Sequence[Edge]) -> Iterable[tuple[str, str, str, str]]:
    """The four ends of each edge, from the columns where the edges are :class:`Edges`."""
    if isinstance(edges, Edges):
        return edges.ends()
    return ((e.from_layer, e.from_port, e.to_layer, e.to_port) for e in edges)


class NotIR(Exception):
    """The XML is well-formed but its root is not ``<net>``: not ours, skipped without a word."""


class NotRegularFile(OSError):
    """A FIFO, a device or a directory where a file was expected: never read (it could block forever)."""


def open_regular(path: str):
    """Open ``path`` read-only as a binary file, refusing anything but a regular file.

    The open itself cannot block (``O_NONBLOCK``: a FIFO is refused, not waited on).
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


_HEAD = 1 << 16  # how much of the prolog is looked at before the parser sees anything
_PROLOG_SKIP = re.compile(rb"\s+|<\?.*?\?>|<!--.*?-->", re.DOTALL)
_DOCTYPE_TOKEN = re.compile(rb"\"[^\"]*\"|'[^']*'|<!--.*?-->|[^\"'<>\[\]]+|[<>\[\]]", re.DOTALL)
_ROOT = re.compile(rb"<([A-Za-z_][\w.:-]*)")
_UTF16 = {b"\xff\xfe": "utf-16", b"\xfe\xff": "utf-16", b"<\x00": "utf-16-le", b"\x00<": "utf-16-be"}


def _prolog(head: bytes) -> tuple[bytes | None, bool]:
    """(the root element's name when the first bytes show it, whether a DOCTYPE precedes it)."""
    utf16 = _UTF16.get(head[:2])
    if utf16:
        head = head[:len(head) & ~1].decode(utf16, "replace").encode("utf-8")
    pos = 3 if head.startswith(b"\xef\xbb\xbf") else 0
    doctype = False
    while True:
        m = _PROLOG_SKIP.match(head, pos)
        if m:
            pos = m.end()
        elif head.startswith(b"<!DOCTYPE", pos):
            doctype = True
            pos = _doctype_end(head, pos + 9)
            if pos < 0:
                return None, True
        else:
            m = _ROOT.match(head, pos)
            return (m.group(1) if m else None), doctype


def _doctype_end(head: bytes, pos: int) -> int:
    """The index just past a DOCTYPE's closing ``>`` (quotes, comments and ``[...]`` skipped); -1 if not in ``head``."""
    depth = 0
    while True:
        m = _DOCTYPE_TOKEN.match(head, pos)
        if m is None:
            return -1
        pos, tok = m.end(), m.group()
        if tok == b"[":
            depth += 1
        elif tok == b"]":
            depth -= 1
        elif tok == b">" and depth <= 0:
            return pos


def sniff_is_ir(path: str) -> bool:
    """Cheap test used when walking directories: could the root element be ``<net>``?

    Anything that cannot be told (unreadable, not a regular file, a long prolog) counts as an IR,
    so that the real parse reports it.
    """
    try:
        with open_regular(path) as f:
            head = f.read(_HEAD)
    except OSError:
        return True
    root, _ = _prolog(head)
    return root is None or root == b"net"


class _Capped:
    """A read-only stream for the parser: no ``name`` (lxml would resolve relative to it, and chokes on
    undecodable paths), and an error past ``limit`` bytes (a file that grows while it is read)."""

    def __init__(self, f, limit: int) -> None:
        self._f, self._left = f, limit

    def read(self, n: int = -1) -> bytes:
        data = self._f.read(n if n >= 0 else self._left + 1)
        self._left -= len(data)
        if self._left < 0:
            raise _TooLarge()
        return data


class _TooLarge(Exception):
    pass


def _parser_kwargs() -> dict:
    return {"resolve_entities": False, "no_network": True, "load_dtd": False, "dtd_validation": False,
            "huge_tree": False, "remove_blank_text": False}


_INT = re.compile(r"-?[0-9]+")


def display_path(path: str) -> str:
    """A path as text any output encoding can carry: bytes that are not UTF-8 become ``\\xNN``."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def clip(value: object, limit: int = 60) -> str:
    """``str(value)`` cut to ``limit`` characters: hostile names and values can be megabytes long."""
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "..."


def line_of(el) -> int:
    """The 1-based line of an element's start tag.

    libxml2 keeps line numbers in 16 bits; past line 65534 lxml's ``sourceline`` reports the line
    where the element's first text (or, for an empty element, its tail) ends, one line too far
    for the usual newline-and-indent. Count those newlines back out.
    """
    line = el.sourceline or 0
    if line >= 65535 and isinstance(el.tag, str):
        text = el.text if el.text is not None else el.tail
        if text:
            line -= text.count("\n")
    return line


def _bad_dim(text: str | None, line: int, port_el, layer: Layer, findings: list[Finding]) -> int | None:
    """The value of a ``<dim>`` whose text is not a known good one; a finding and None when it is bad."""
    text = (text or "").strip()
    v = int(text) if _INT.fullmatch(text) and len(text) <= 40 else None
    if v is not None and -1 <= v <= INT64_MAX:
        return v
    why = ("is beyond int64" if v is not None and v > INT64_MAX else
           "is below -1" if v is not None else "is not an integer")
    findings.append(Finding(S.BAD_DIM, f"layer {clip(layer.name)!r} port {clip(port_el.get('id', ''))!r}: "
                            f"<dim>{clip(text)}</dim> {why}", line, layer.ref))
    return None


_NO_DATA: dict[str, str] = {}  # the attributes of every layer without <data>: shared, never changed


class _Reader:
    """Builds :class:`Layer` objects from ``<layer>`` elements, sharing what repeats between them: equal
    strings (ids, types, attribute names and values), ``<data>`` dicts and dims tuples (none of them is
    ever changed), and the values of ``<dim>`` texts already read."""

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings
        self.share = {}.setdefault  # share(s, s): the first equal string (or tuple) seen
        self.kinds: dict[str, tuple[str, str]] = {}  # type attribute -> (its shared string, lower-cased)
        self.data: dict[tuple, dict[str, str]] = {}  # the items of a <data> element -> its dict
        self.dims: dict[str, int] = {}  # raw text of a good <dim> -> its value
        self.base = 0  # added to every line: the line before a <layer> read on its own

    def layer(self, el) -> Layer:
        get, share = el.get, self.share
        typ = get("type", "")
        known = self.kinds.get(typ)
        if known is None:
            typ = share(typ, typ)
            known = self.kinds[typ] = (typ, typ.lower())
        line = line_of(el) + self.base
        lid, version = get("id", ""), get("version", "")
        layer = Layer(share(lid, lid), get("name", ""), known[0], known[1], share(version, version), line, _NO_DATA,
                      (), ())
        data = inputs = outputs = None
        for child in el:  # the first <data>, <input> and <output>, as find() would
            tag = child.tag
            if tag == "data":
                data = child if data is None else data
            elif tag == "input":
                inputs = child if inputs is None else inputs
            elif tag == "output":
                outputs = child if outputs is None else outputs
        if data is not None:
            items = tuple(data.items())
            layer.data = self.data.get(items)  # type: ignore[assignment]
            if layer.data is None:
                layer.data = self.data[items] = {share(k, k): share(v, v) for k, v in items}
        if inputs is not None:
            layer.inputs = self._ports(inputs, layer)
        if outputs is not None:
            layer.outputs = self._ports(outputs, layer)
        return layer

    def _ports(self, section, layer: Layer) -> tuple[Port, ...]:
        """The ``<port>``s of ``section``."""
        known, share, base = self.dims, self.share, self.base
        target: list[Port] = []
        for p in section:
            if p.tag != "port":
                continue
            port_line = line_of(p) + base
            dims: list[int] = []
            lines: list[int] | None = None  # made only once a <dim> is off "one per line after the port"
            n = port_line
            ok = True
            for d in p:
                if d.tag != "dim":
                    continue
                text = d.text
                line = d.sourceline or 0  # line_of(d), inlined
                if line >= 65535:
                    t = text if text is not None else d.tail
                    if t:
                        line -= t.count("\n")
                line += base
                n += 1
                if line != n and lines is None:
                    lines = list(range(port_line + 1, n))
                if lines is not None:
                    lines.append(line)
                v = known.get(text)  # type: ignore[arg-type]
                if v is None:
                    v = _bad_dim(text, line, p, layer, self.findings)
                    if v is None:
                        ok = False
                        continue
                    if len(known) < 4096:
                        known[text] = v  # type: ignore[index]
                dims.append(v)
            if lines is None and not ok:
                lines = list(range(port_line + 1, n + 1))
            pid = p.get("id", "")
            shape = share(t := tuple(dims), t) if ok else None
            target.append(Port(share(pid, pid), shape, port_line - layer.line,
                               None if lines is None else tuple(lines), layer))
        return tuple(target)


def parse(path: str, max_size: int = DEFAULT_MAX_XML_SIZE) -> IRModel:
    """Read an IR ``.xml``. Problems become findings on the returned model; raises :class:`NotIR`
    when the file is well-formed XML of another kind.

    Nothing but ``path`` is opened: a DOCTYPE is reported before the parser sees it (libxml2 would
    expand internal entities even in attributes), and the parser neither resolves entities nor loads
    a DTD nor touches the network.
    """
    model = IRModel(path=path, version=None, name="", layers={}, edges=Edges())
    findings = model.findings
    try:
        with open_regular(path) as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_size:
                findings.append(Finding(S.FILE_TOO_LARGE, f"{size} bytes is over the limit of {max_size} "
                                        "(raise it with --max-xml-size)"))
                return model
            root, doctype = _prolog(f.read(_HEAD))
            if root is not None and root != b"net":
                raise NotIR(root.decode("ascii"))
            if doctype:
                findings.append(_doctype_finding())
                return model
            f.seek(0)
            from .scan import read

            if read(model, f, max_size):
                return model
            f.seek(0)
            _read(model, f, max_size)
    except OSError as e:
        findings.append(Finding(S.UNREADABLE, f"cannot read: {e.strerror or e}"))
    except _TooLarge:
        findings.append(Finding(S.FILE_TOO_LARGE, f"the file grew past the limit of {max_size} bytes "
                                "while it was read (raise it with --max-xml-size)"))
    return model


def _doctype_finding() -> Finding:
    return Finding(S.XML_ENTITIES, "the document declares a DOCTYPE; an IR needs none, and irreshape never "
                   "expands its entities or loads its DTD: the file was not read further", 1)


_TAGS = ("layer", "edge", "layers", "net")


def _read(model: IRModel, f, max_size: int) -> None:
    from lxml import etree

    findings = model.findings
    reader = _Reader(findings)
    checked_root = seen_layers = False
    top = None  # the element at depth 1 whose children were last found to be main-graph layers or edges
    it = etree.iterparse(_Capped(f, max_size), events=("end", "comment"), tag=(*_TAGS, etree.Comment),
                         **_parser_kwargs())
    try:
        for event, el in it:
            if not checked_root:
                checked_root = True
                if not _check_root(model, el.getroottree()):
                    return
            if event == "comment":
                if _DIRECTIVE.search(el.text or ""):
                    model.comments.append((line_of(el), el.text or ""))
                continue
            tag = el.tag
            if tag == "net":
                continue
            # only the main graph: a TensorIterator's or Loop's <body> is a graph of its own, ids and all
            parent = el.getparent()
            if tag == "layers":
                seen_layers = seen_layers or parent.getparent() is None
                continue
            if parent is not top:
                grand = parent.getparent()
                if grand is not None and grand.getparent() is None:
                    top = parent
            if parent is top:
                if tag == "layer":
                    layer = reader.layer(el)
                    if layer.id in model.layers:
                        model.duplicates.append(layer)
                    else:
                        model.layers[layer.id] = layer
                else:
                    get, share = el.get, reader.share
                    a, b, c, d = get("from-layer", ""), get("from-port", ""), get("to-layer", ""), get("to-port", "")
                    line = line_of(el)
                    if line >= 65535 and model.edges:  # an empty element: libxml2 has no line past 65534,
                        prev = el.getprevious()  # but the edge before it has, and its tail counts the newlines
                        if prev is not None and prev.tag == "edge" and prev.tail is not None:
                            line = model.edges[-1].line + prev.tail.count("\n")
                    model.edges.append(Edge(share(a, a), share(b, b), share(c, c), share(d, d), line))
            # drop the element read and the siblings before it, so that the tree never grows
            el.clear(keep_tail=tag == "edge")  # the next edge's line may need this one's tail
            while el.getprevious() is not None:
                del parent[0]
    except etree.XMLSyntaxError as e:
        if not checked_root and not _root_before_error(model, f, max_size):
            return
        line, col = e.position if e.position else (0, 0)
        msg = re.sub(r"(, use XML_PARSE_HUGE option)?, line \d+, column \d+.*$", "", e.msg or str(e))
        findings.append(Finding(S.XML_SYNTAX, f"malformed XML: {msg}", line or 1, col=col or 1))
        return
    if not checked_root and it.root is not None:  # a root none of whose elements is a layer or an edge
        checked_root = True
        if not _check_root(model, it.root.getroottree()):
            return
    if not checked_root:
        findings.append(Finding(S.XML_SYNTAX, "malformed XML: no root element", 1))
    elif not seen_layers:
        findings.append(Finding(S.NOT_IR, "the document has no <layers> element", 1))


def _root_before_error(model: IRModel, f, max_size: int) -> bool:
    """Check the root as soon as any element has ended, as for a file without errors: the parse above
    sees only layers, edges and comments, and a syntax error may come before the first of them.
    Reads the file again up to that point. False: stop reading (as :func:`_check_root`)."""
    from lxml import etree

    f.seek(0)
    try:
        for _event, el in etree.iterparse(_Capped(f, max_size), events=("end", "comment"), **_parser_kwargs()):
            return _check_root(model, el.getroottree())
    except etree.XMLSyntaxError:
        pass
    return True


def _check_root(model: IRModel, tree) -> bool:
    """Raise NotIR for foreign XML; report a DTD or an unsupported version. False: stop reading."""
    root = tree.getroot()
    if root.tag != "net":
        raise NotIR(str(root.tag))
    doc = tree.docinfo
    if doc.internalDTD is not None or doc.externalDTD is not None or doc.system_url or doc.public_id:
        model.findings.append(_doctype_finding())  # a prolog the first bytes did not show (UTF-16, long)
        return False
    model.name = root.get("name", "")
    v = root.get("version")
    model.version = int(v) if v is not None and _INT.fullmatch(v) and len(v) < 10 else None
    if model.version not in (10, 11):
        model.findings.append(Finding(S.NOT_IR, f"IR version {v!r} is not supported by OpenVINO "
                                      "(10 and 11 are)", root.sourceline))
    return True
