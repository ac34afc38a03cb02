"""OpenVINO IR ``.xml`` → plain dataclasses, with source lines; ``.bin`` reads that are lazy and bounds-checked.

The parser is hardened (no entities, no DTD, no network) and streams the document: it keeps the
few attributes and dims the checks need and frees each ``<layer>`` as soon as it is read, so memory
follows the number of layers, not the size of the document.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, field

from .rules import structure as S
from .rules.base import Finding, LayerRef

DEFAULT_MAX_XML_SIZE = 1 << 30
INT64_MAX = (1 << 63) - 1
_DIRECTIVE = re.compile(r"irreshape\s*:")


@dataclass(slots=True)
class Port:
    id: str
    dims: tuple[int, ...] | None  # None when a <dim> could not be read
    line: int
    precision: str | None = None
    dim_lines: tuple[int, ...] = ()


@dataclass(slots=True)
class Layer:
    id: str
    name: str
    type: str
    version: str
    line: int
    data: dict[str, str]
    inputs: list[Port]
    outputs: list[Port]
    end_line: int = 0

    @property
    def ref(self) -> LayerRef:
        return LayerRef(self.id, self.name, self.type)

    @property
    def kind(self) -> str:
        """The type, lower-cased: OpenVINO matches layer types case-insensitively."""
        return self.type.lower()

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


@dataclass(frozen=True, slots=True)
class Edge:
    from_layer: str
    from_port: str
    to_layer: str
    to_port: str
    line: int

    def __str__(self) -> str:
        return f"{self.from_layer}:{self.from_port} -> {self.to_layer}:{self.to_port}"


@dataclass(slots=True)
class IRModel:
    path: str
    version: int | None
    name: str
    layers: dict[str, Layer]
    edges: list[Edge]
    duplicates: list[Layer] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)  # every `irreshape:` comment
    findings: list[Finding] = field(default_factory=list)
    _producers: dict[tuple[str, str], tuple[str, str]] | None = None
    _consumers: dict[tuple[str, str], list[tuple[str, str]]] | None = None

    @property
    def bin_path(self) -> str:
        return os.path.splitext(self.path)[0] + ".bin"

    def producer(self, layer_id: str, port_id: str) -> tuple[Layer, Port] | None:
        """The (layer, output port) feeding input ``port_id`` of ``layer_id``, if the edge and both ends exist."""
        if self._producers is None:
            self._index()
        src = self._producers.get((layer_id, port_id))  # type: ignore[union-attr]
        if src is None:
            return None
        layer = self.layers.get(src[0])
        port = layer.output(src[1]) if layer else None
        return (layer, port) if layer and port else None

    def consumers(self, layer_id: str, port_id: str) -> list[tuple[Layer, Port]]:
        if self._consumers is None:
            self._index()
        out = []
        for lid, pid in self._consumers.get((layer_id, port_id), ()):  # type: ignore[union-attr]
            layer = self.layers.get(lid)
            port = layer.input(pid) if layer else None
            if layer and port:
                out.append((layer, port))
        return out

    def _index(self) -> None:
        self._producers, self._consumers = {}, {}
        for e in self.edges:
            self._producers.setdefault((e.to_layer, e.to_port), (e.from_layer, e.from_port))
            self._consumers.setdefault((e.from_layer, e.from_port), []).append((e.to_layer, e.to_port))


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


def _dims(port_el, layer: Layer, findings: list[Finding]) -> tuple[tuple[int, ...] | None, tuple[int, ...]]:
    dims: list[int] = []
    lines: list[int] = []
    ok = True
    for d in port_el.iterchildren("dim"):
        text = (d.text or "").strip()
        lines.append(line_of(d))
        v = int(text) if _INT.fullmatch(text) and len(text) <= 40 else None
        if v is None or v < -1 or v > INT64_MAX:
            ok = False
            why = ("is beyond int64" if v is not None and v > INT64_MAX else
                   "is below -1" if v is not None else "is not an integer")
            findings.append(Finding(S.BAD_DIM, f"layer {clip(layer.name)!r} port {clip(port_el.get('id', ''))!r}: "
                                    f"<dim>{clip(text)}</dim> {why}", line_of(d), layer.ref))
            continue
        dims.append(v)
    return (tuple(dims) if ok else None), tuple(lines)


def _read_layer(el, findings: list[Finding]) -> Layer:
    data_el = el.find("data")
    layer = Layer(
        id=el.get("id", ""), name=el.get("name", ""), type=el.get("type", ""), version=el.get("version", ""),
        line=line_of(el), data=dict(data_el.attrib) if data_el is not None else {},
        inputs=[], outputs=[],
    )
    last = line_of(el)
    for section, target in (("input", layer.inputs), ("output", layer.outputs)):
        sec = el.find(section)
        if sec is None:
            continue
        for p in sec.iterchildren("port"):
            dims, lines = _dims(p, layer, findings)
            port_line = line_of(p)
            target.append(Port(p.get("id", ""), dims, port_line, p.get("precision"), lines))
            last = max(last, port_line, *lines)
    layer.end_line = last
    return layer


def parse(path: str, max_size: int = DEFAULT_MAX_XML_SIZE) -> IRModel:
    """Read an IR ``.xml``. Problems become findings on the returned model; raises :class:`NotIR`
    when the file is well-formed XML of another kind.

    Nothing but ``path`` is opened: a DOCTYPE is reported before the parser sees it (libxml2 would
    expand internal entities even in attributes), and the parser neither resolves entities nor loads
    a DTD nor touches the network.
    """
    model = IRModel(path=path, version=None, name="", layers={}, edges=[])
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
            _read(model, _Capped(f, max_size))
    except OSError as e:
        findings.append(Finding(S.UNREADABLE, f"cannot read: {e.strerror or e}"))
    except _TooLarge:
        findings.append(Finding(S.FILE_TOO_LARGE, f"the file grew past the limit of {max_size} bytes "
                                "while it was read (raise it with --max-xml-size)"))
    return model


def _doctype_finding() -> Finding:
    return Finding(S.XML_ENTITIES, "the document declares a DOCTYPE; an IR needs none, and irreshape never "
                   "expands its entities or loads its DTD: the file was not read further", 1)


def _read(model: IRModel, stream: _Capped) -> None:
    from lxml import etree

    findings = model.findings
    checked_root = seen_layers = False
    try:
        it = etree.iterparse(stream, events=("end", "comment"), **_parser_kwargs())
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
            if tag not in ("layer", "edge", "layers"):
                continue
            # only the main graph: a TensorIterator's or Loop's <body> is a graph of its own, ids and all
            parent = el.getparent()
            if tag == "layers":
                seen_layers = seen_layers or parent.getparent() is None
                continue
            if parent.getparent() is not None and parent.getparent().getparent() is None:
                if tag == "layer":
                    layer = _read_layer(el, findings)
                    if layer.id in model.layers:
                        model.duplicates.append(layer)
                    else:
                        model.layers[layer.id] = layer
                else:
                    model.edges.append(Edge(el.get("from-layer", ""), el.get("from-port", ""),
                                            el.get("to-layer", ""), el.get("to-port", ""), line_of(el)))
            _free(el)
    except etree.XMLSyntaxError as e:
        line, col = e.position if e.position else (0, 0)
        msg = re.sub(r"(, use XML_PARSE_HUGE option)?, line \d+, column \d+.*$", "", e.msg or str(e))
        findings.append(Finding(S.XML_SYNTAX, f"malformed XML: {msg}", line or 1, col=col or 1))
        return
    if not checked_root:
        findings.append(Finding(S.XML_SYNTAX, "malformed XML: no root element", 1))
    elif not seen_layers:
        findings.append(Finding(S.NOT_IR, "the document has no <layers> element", 1))


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
def _free(el) -> None:
    """Drop a read element and the siblings before it, so the tree never grows."""
    el.clear(keep_tail=False)
    parent = el.getparent()
    if parent is not None:
        while el.getprevious() is not None:
            del parent[0]
