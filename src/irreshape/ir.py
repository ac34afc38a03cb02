"""OpenVINO IR ``.xml`` → plain dataclasses, with source lines; ``.bin`` reads that are lazy and bounds-checked.

The parser is hardened (no entities, no DTD, no network) and streams the document: it keeps the
few attributes and dims the checks need and frees each ``<layer>`` as soon as it is read, so memory
follows the number of layers, not the size of the document.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Optional

from .rules.base import Finding, LayerRef
from .rules import structure as S

DEFAULT_MAX_XML_SIZE = 1 << 30
INT64_MAX = (1 << 63) - 1
_DIRECTIVE = re.compile(r"irreshape\s*:")


@dataclass(slots=True)
class Port:
    id: str
    dims: Optional[tuple[int, ...]]  # None when a <dim> could not be read
    line: int
    precision: Optional[str] = None
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

    def input(self, port_id: str) -> Optional[Port]:
        for p in self.inputs:
            if p.id == port_id:
                return p
        return None

    def output(self, port_id: str) -> Optional[Port]:
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
    version: Optional[int]
    name: str
    layers: dict[str, Layer]
    edges: list[Edge]
    duplicates: list[Layer] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)  # every `irreshape:` comment
    findings: list[Finding] = field(default_factory=list)
    _producers: Optional[dict[tuple[str, str], tuple[str, str]]] = None
    _consumers: Optional[dict[tuple[str, str], list[tuple[str, str]]]] = None

    @property
    def bin_path(self) -> str:
        return os.path.splitext(self.path)[0] + ".bin"

    def producer(self, layer_id: str, port_id: str) -> Optional[tuple[Layer, Port]]:
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


def sniff_is_ir(path: str) -> bool:
    """Cheap test used when walking directories: does the first element look like ``<net``?"""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return True  # let the real parse report it
    text = re.sub(rb"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>", b"", head, flags=re.S).lstrip(b"\xef\xbb\xbf \t\r\n")
    m = re.match(rb"<([A-Za-z_][\w.:-]*)", text)
    return m is None or m.group(1) == b"net"


def _parser_kwargs() -> dict:
    return dict(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                huge_tree=False, remove_blank_text=False)


def _dims(port_el, layer: Layer, findings: list[Finding]) -> tuple[Optional[tuple[int, ...]], tuple[int, ...]]:
    dims: list[int] = []
    lines: list[int] = []
    ok = True
    for d in port_el.iterchildren("dim"):
        text = (d.text or "").strip()
        lines.append(d.sourceline or 0)
        try:
            v = int(text)
        except ValueError:
            v = None
        if v is None or v < -1 or v > INT64_MAX:
            ok = False
            findings.append(Finding(S.BAD_DIM, f"layer {layer.name!r} port {port_el.get('id')!r}: "
                                    f"<dim>{text[:40]}</dim> is not an integer >= -1 within int64",
                                    d.sourceline, layer.ref))
            continue
        dims.append(v)
    return (tuple(dims) if ok else None), tuple(lines)


def _read_layer(el, findings: list[Finding]) -> Layer:
    data_el = el.find("data")
    layer = Layer(
        id=el.get("id", ""), name=el.get("name", ""), type=el.get("type", ""), version=el.get("version", ""),
        line=el.sourceline or 0, data=dict(data_el.attrib) if data_el is not None else {},
        inputs=[], outputs=[],
    )
    last = el.sourceline or 0
    for section, target in (("input", layer.inputs), ("output", layer.outputs)):
        sec = el.find(section)
        if sec is None:
            continue
        for p in sec.iterchildren("port"):
            dims, lines = _dims(p, layer, findings)
            target.append(Port(p.get("id", ""), dims, p.sourceline or 0, p.get("precision"), lines))
            last = max(last, p.sourceline or 0, *lines)
    layer.end_line = last
    return layer


def parse(path: str, max_size: int = DEFAULT_MAX_XML_SIZE) -> IRModel:
    """Read an IR ``.xml``. Problems become findings on the returned model; raises :class:`NotIR`
    when the file is well-formed XML of another kind."""
    from lxml import etree

    model = IRModel(path=path, version=None, name="", layers={}, edges=[])
    findings = model.findings
    try:
        size = os.path.getsize(path)
    except OSError as e:
        findings.append(Finding(S.UNREADABLE, f"cannot read: {e.strerror or e}"))
        return model
    if size > max_size:
        findings.append(Finding(S.FILE_TOO_LARGE, f"{size} bytes is over the limit of {max_size} "
                                "(raise it with --max-xml-size)"))
        return model
    checked_root = False
    try:
        with open(path, "rb") as f:
            it = etree.iterparse(f, events=("end", "comment"), **_parser_kwargs())
            for event, el in it:
                if not checked_root:
                    checked_root = True
                    if not _check_root(model, it.root):
                        return model
                if event == "comment":
                    if _DIRECTIVE.search(el.text or ""):
                        model.comments.append((el.sourceline or 0, el.text or ""))
                    continue
                tag = el.tag
                if tag == "layer":
                    layer = _read_layer(el, findings)
                    if layer.id in model.layers:
                        model.duplicates.append(layer)
                    else:
                        model.layers[layer.id] = layer
                    _free(el)
                elif tag == "edge":
                    model.edges.append(Edge(el.get("from-layer", ""), el.get("from-port", ""),
                                            el.get("to-layer", ""), el.get("to-port", ""), el.sourceline or 0))
                    _free(el)
    except etree.XMLSyntaxError as e:
        line, col = e.position if e.position else (None, None)
        findings.append(Finding(S.XML_SYNTAX, f"malformed XML: {e.msg}", line, col=col or 1))
        return model
    except OSError as e:
        findings.append(Finding(S.UNREADABLE, f"cannot read: {e.strerror or e}"))
        return model
    if not checked_root:
        findings.append(Finding(S.XML_SYNTAX, "malformed XML: no root element", 1))
    return model


def _check_root(model: IRModel, root) -> bool:
    """Raise NotIR for foreign XML; report a DTD or an unsupported version. False: stop reading."""
    if root is None or not isinstance(root.tag, str):
        return True
    if root.tag != "net":
        raise NotIR(root.tag)
    doc = root.getroottree().docinfo
    if doc.internalDTD is not None or doc.externalDTD is not None or doc.system_url:
        model.findings.append(Finding(S.XML_ENTITIES, "the document declares a DOCTYPE; entities and DTDs "
                                      "are never expanded or loaded", 1))
        return False
    model.name = root.get("name", "")
    v = root.get("version")
    try:
        model.version = int(v) if v is not None else None
    except ValueError:
        model.version = None
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
