"""The fast reading of an IR ``.xml``: regular expressions over the layout OpenVINO's serializer writes.

Reading element by element through lxml costs Python work per element (a 26 MB XML has 1.2 million
tags). This reader lets libxml2 check that the document is well-formed (a parse that builds nothing),
then takes the layers, ports, dims and edges out of the bytes with a handful of compiled patterns, and
the ``<dim>`` lines from newline counts. It is exact, not heuristic:

* It reads only documents in which every ``<`` opens a tag: no comment, CDATA section, DOCTYPE or
  processing instruction past the XML declaration, no ``\\r`` line ends, no ``<body>`` (the sub-graphs
  of TensorIterator and Loop). Well-formed XML of that kind is tokenised by its ``<`` alone, so a
  pattern that matches a tag cannot match inside a value or a text.
* ``<net>`` must hold ``<layers>`` and then ``<edges>``, and no ``<layer>``/``<edge>`` may stand
  anywhere else (counted over the whole document).
* A ``<layer>`` whose content is not ``<data/>``, ``<input>``, ``<output>`` (ports of ``<dim>``s, an
  optional ``<rt_info>``) and an optional ``<rt_info>``, or whose tags span lines, or that holds a dim
  that is not a plain integer, is read by lxml on its own (the ``<layer>`` element alone), with the
  reader of :mod:`irreshape.ir`: the same objects and findings as a reading of the whole document.

Anything else returns False and the caller reads the document element by element (comments, for
inline suppressions, take that path). The two readings give equal models: tests compare them on every
fixture, exported model and hostile file.
"""

from __future__ import annotations

import re

from .ir import INT64_MAX, Edge, IRModel, Layer, Port, _parser_kwargs, _Reader, _NO_DATA, _INT
from .rules import structure as S
from .rules.base import Finding

_A = rb"(?:\s+[^\s=/<>]+\s*=\s*(?:\"[^\"<]*\"|'[^'<]*'))*\s*"  # a tag's attributes (exact XML syntax)
_RT_INFO = rb"<rt_info>[^<]*(?:<(?!/rt_info>)[^<]*)*</rt_info>\s*"
_PORT_BODY = rb"(?:\s*<dim>[^<]*</dim>)*\s*(?:" + _RT_INFO + rb")?"
_PORT = rb"<port" + _A + rb"(?:/>|>" + _PORT_BODY + rb"</port>)"
_SECTION = re.compile(rb"(?:\s*" + _PORT + rb")*\s*")
# A layer's skeleton; the content of <input> and <output> is checked against _SECTION when first seen.
# Attributes as [^>]*: a quoted ">" cuts the tag short, and the rest of it then fails the pattern.
_LAYER = re.compile(
    rb"\s*<layer([^>]*)>\s*(?:<data([^>]*)/>\s*)?(?:<input>([^<]*(?:<(?!/input>)[^<]*)*)</input>\s*)?"
    rb"(?:<output>([^<]*(?:<(?!/output>)[^<]*)*)</output>\s*)?(?:" + _RT_INFO + rb")?</layer>")
_PORTS = re.compile(rb"<port(" + _A + rb")(?:/>|>(" + _PORT_BODY + rb")</port>)")
_NAMES = re.compile(rb' names="[^"\n]*"')  # port names: no part of the model, and unique to each port
_DIM = re.compile(rb"<dim>([^<]*)</dim>")
# the usual layout of a port's content: one <dim> per line, the first on the line after the port
_DIMS_PER_LINE = re.compile(rb"(?:[ \t]*\n[ \t]*<dim>[^<\n]*</dim>)*")
_LAYER_ATTRS = re.compile(rb' id="([^"&\t\n]*)" name="([^"&\t\n]*)" type="([^"&\t\n]*)" version="([^"&\t\n]*)" ?')
_CONST_DATA = re.compile(rb' element_type="([^"&\t\n]*)" shape="([^"&\t\n]*)" offset="([0-9]*)" size="([0-9]*)" ?')
_PORT_ATTRS = re.compile(rb' id="([^"&\t\n]*)"(?: precision="([^"&\t\n]*)")? ?')
_ATTR = re.compile(rb"([^\s=]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_EDGE = re.compile(rb'\n[ \t]*<edge from-layer="([^"&\t\n]*)" from-port="([^"&\t\n]*)" to-layer="([^"&\t\n]*)" '
                   rb'to-port="([^"&\t\n]*)" ?/>')
_ANY_EDGE = re.compile(rb"<edge(" + _A + rb")/?>")
_EDGES = re.compile(rb"\s*<edges\s*(/?)>")
_PROLOG = re.compile(rb"(?:\xef\xbb\xbf)?(?:<\?xml(" + _A + rb")\?>)?\s*<net(" + _A + rb")>\s*<layers>")
_ENTITY = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}

# a section's ports: (id, precision, dims, line after the section's first, dim lines after the port's
# or None for one per line); and the last line of the section with a port or a dim, after the first
_Section = tuple[tuple[tuple[str, "str | None", "tuple[int, ...]", int, "tuple[int, ...] | None"], ...], int]


_SHARED_DATA = 1 << 16  # distinct <data> elements whose dicts are shared


class _Whole(Exception):
    """Not the layout this reader knows: the document is read element by element."""


def _entity(m: re.Match) -> str:
    ref = m.group(1)
    if ref[0] != "#":
        return _NAMED[ref]
    return chr(int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:]))


def _text(raw: bytes) -> str:
    """An attribute value as XML gives it: white space normalised, references replaced."""
    s = raw.decode()
    if "&" in s or "\t" in s or "\n" in s:
        s = _ENTITY.sub(_entity, s.replace("\t", " ").replace("\n", " "))
    return s


def _attrs(raw: bytes) -> dict[str, str]:
    return {k.decode(): _text(v1 or v2) for k, v1, v2 in _ATTR.findall(raw)}


def read(model: IRModel, data: bytes) -> bool:
    """Fill ``model`` from the bytes of a whole document. False, with ``model`` untouched, when the
    document is not one this reader takes (malformed included): read it element by element then."""
    if b"<!" in data or b"\r" in data or b"<body" in data:
        return False
    m = _PROLOG.match(data)
    if m is None or data.find(b"<?", m.end()) >= 0:
        return False
    decl = _attrs(m.group(1) or b"")
    if decl.get("encoding", "utf-8").lower() not in ("utf-8", "utf8"):
        return False
    checked: list[bool] = []
    if len(data) < _THREAD_FROM:
        checked.append(_well_formed(data))
        if not checked[0]:
            return False
        thread = None
    else:  # libxml2 lets go of the GIL: its check runs beside the scan, on another core if there is one
        import threading

        thread = threading.Thread(target=lambda: checked.append(_well_formed(data)), daemon=True)
        thread.start()
    try:
        layers, duplicates, edges, findings = _Scanner(data, m.end()).run()
    except Exception:  # _Whole; or a malformed document (checked beside the scan) that tripped the scan
        return False
    finally:
        if thread is not None:
            thread.join()
    if not checked or not checked[0]:
        return False
    root = _attrs(m.group(2))
    model.name = root.get("name", "")
    v = root.get("version")
    model.version = int(v) if v is not None and _INT.fullmatch(v) and len(v) < 10 else None
    if model.version not in (10, 11):
        line = data.count(b"\n", 0, data.index(b"<net")) + 1
        model.findings.append(Finding(S.NOT_IR, f"IR version {v!r} is not supported by OpenVINO "
                                      "(10 and 11 are)", line))
    model.layers, model.duplicates, model.edges = layers, duplicates, edges
    model.findings.extend(findings)
    return True


class _Null:
    """A parser target without callbacks: libxml2 checks the document and builds nothing."""

    def close(self) -> None:
        return None


_THREAD_FROM = 1 << 20  # bytes of XML from which the well-formedness check gets a thread of its own


def _well_formed(data: bytes) -> bool:
    from lxml import etree

    try:
        etree.fromstring(data, etree.XMLParser(target=_Null(), **_parser_kwargs()))
    except Exception:  # XMLSyntaxError, or anything else: the element-by-element reading will say
        return False
    return True


class _Scanner:
    def __init__(self, data: bytes, pos: int) -> None:
        self.data, self.pos = data, pos
        self.findings: list[Finding] = []
        self.reader = _Reader(self.findings)
        self.share = self.reader.share
        self.kinds = self.reader.kinds
        self.data_dicts: dict[bytes, dict[str, str]] = {}
        self.sections: dict[bytes, _Section] = {}
        self.dims = self.reader.dims  # text of a good <dim> -> its value

    def run(self) -> tuple[dict[str, Layer], list[Layer], list[Edge], list[Finding]]:
        data, pos = self.data, self.pos
        layers: dict[str, Layer] = {}
        duplicates: list[Layer] = []
        line, at = 1, 0  # the line of offset ``at``
        match = _LAYER.match
        count = data.count
        while True:
            m = match(data, pos)
            if m is not None:
                start = data.index(b"<layer", pos)
                line += count(b"\n", at, start)
                at = start
                try:
                    layer = self._layer(m, line, start)
                except _OneLayer:
                    layer = self._lxml_layer(start, line, m.end())
                pos = m.end()
            else:
                start = data.find(b"<", pos)
                if not data.startswith(b"<layer", start) or data[start + 6:start + 7] == b"s":
                    break
                end = data.find(b"</layer>", start)
                nxt = data.find(b"<layer", start + 6)
                if end < 0 or 0 <= nxt < end:
                    raise _Whole  # an empty <layer/>, or one inside another
                line += count(b"\n", at, start)
                at = start
                pos = end + 8
                layer = self._lxml_layer(start, line, pos)
            if layer.id in layers:
                duplicates.append(layer)
            else:
                layers[layer.id] = layer
        if not data.startswith(b"</layers>", start):
            raise _Whole
        n_layers = len(layers) + len(duplicates)
        if count(b"<layer") - count(b"<layers") != n_layers:
            raise _Whole  # a <layer> somewhere else
        edges = self._edges(start + 9, line + count(b"\n", at, start))
        if count(b"<edge") - count(b"<edges") != len(edges):
            raise _Whole
        return layers, duplicates, edges, self.findings

    def _layer(self, m: re.Match, line: int, start: int) -> Layer:
        raw = m.group(1)
        a = _LAYER_ATTRS.fullmatch(raw)
        share = self.share
        if a is not None:
            lid, name, typ, version = a.groups()
            lid, name, typ, version = lid.decode(), name.decode(), typ.decode(), version.decode()
        else:
            if b"\n" in raw:
                raise _OneLayer
            attrs = _attrs(raw)
            lid, name, typ, version = (attrs.get(k, "") for k in ("id", "name", "type", "version"))
        known = self.kinds.get(typ)
        if known is None:
            typ = share(typ, typ)
            known = self.kinds[typ] = (typ, typ.lower())
        layer = Layer(share(lid, lid), name, known[0], known[1], share(version, version), line, _NO_DATA, [], [])
        raw = m.group(2)
        if raw is not None:
            d = self.data_dicts.get(raw)
            if d is None:
                if (c := _CONST_DATA.fullmatch(raw)) is not None:
                    et, shape, offset, size = c.groups()
                    d = {"element_type": share(et := et.decode(), et), "shape": share(shape := shape.decode(), shape),
                         "offset": offset.decode(), "size": size.decode()}
                else:
                    items = tuple(_attrs(raw).items())
                    d = self.reader.data.get(items)
                    if d is None:
                        d = self.reader.data[items] = {share(k, k): share(v, v) for k, v in items}
                # equal Consts share one dict too: the serializer writes equal constants once in the .bin
                if len(self.data_dicts) < _SHARED_DATA:
                    self.data_dicts[raw] = d
            layer.data = d
        last = line
        data, sections = self.data, self.sections
        for group in (3, 4):
            sec = m.group(group)
            if sec is None:
                continue
            key = _NAMES.sub(b"", sec) if b" names=" in sec else sec
            known_sec = sections.get(key)
            if known_sec is None:
                known_sec = self._section(key)
            ports, sec_last = known_sec
            first = line + data.count(b"\n", start, m.start(group))
            made = []
            for pid, precision, dims, rel, dim_rel in ports:
                made.append(Port(pid, dims, first + rel, precision,
                                 None if dim_rel is None else tuple(first + rel + r for r in dim_rel)))
            if group == 3:
                layer.inputs = made
            else:
                layer.outputs = made
            if sec_last >= 0 and first + sec_last > last:
                last = first + sec_last
        layer.end_line = last
        return layer

    def _section(self, sec: bytes) -> _Section:
        """The ports of the content of an ``<input>`` or ``<output>`` (names removed), read once."""
        if _SECTION.fullmatch(sec) is None:
            raise _OneLayer
        share = self.share
        ports = []
        last = -1  # no port: the section adds no line
        for p in _PORTS.finditer(sec):
            raw = p.group(1)
            if b"\n" in raw:
                raise _OneLayer
            a = _PORT_ATTRS.fullmatch(raw)
            if a is not None:
                pid, precision = a.group(1).decode(), a.group(2)
                precision = None if precision is None else precision.decode()
            else:
                d = _attrs(raw)
                pid, precision = d.get("id", ""), d.get("precision")
            rel = sec.count(b"\n", 0, p.start())
            body = p.group(2)
            dims, dim_rel = self._body(body) if body is not None else ((), None)
            last = max(last, rel + (len(dims) if dim_rel is None else max(dim_rel, default=0)))
            ports.append((share(pid, pid), None if precision is None else share(precision, precision), dims, rel,
                          dim_rel))
        out = (tuple(ports), last)
        if len(self.sections) < 65536:
            self.sections[sec] = out
        return out

    def _body(self, body: bytes) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """(the dims of a port's content, their lines after the port's: None for one per line)."""
        known = self.dims
        dims = []
        for text in _DIM.findall(body):
            v = known.get(text)  # type: ignore[call-overload]
            if v is None:
                s = text.decode()
                if not (_INT.fullmatch(s.strip()) and len(s) <= 40):
                    raise _OneLayer  # a bad dim: the lxml reading reports it
                v = int(s)
                if not -1 <= v <= INT64_MAX:
                    raise _OneLayer
                if len(known) < 4096:
                    known[text] = v  # type: ignore[index]
            dims.append(v)
        t = tuple(dims)
        rel: tuple[int, ...] | None = None
        if dims and _DIMS_PER_LINE.match(body).end() != body.rfind(b"</dim>") + 6:
            rel = tuple(body.count(b"\n", 0, d.start()) for d in _DIM.finditer(body))
            if rel == tuple(range(1, len(rel) + 1)):
                rel = None
        return self.share(t, t), rel

    def _lxml_layer(self, start: int, line: int, end: int) -> Layer:
        """One ``<layer>`` element read by lxml and :class:`irreshape.ir._Reader`, lines shifted."""
        from lxml import etree

        try:
            el = etree.fromstring(self.data[start:end], etree.XMLParser(**_parser_kwargs()))
        except etree.XMLSyntaxError:
            raise _Whole from None  # not one element: a <layer> in another
        self.reader.base = line - 1
        try:
            return self.reader.layer(el)
        finally:
            self.reader.base = 0

    def _edges(self, pos: int, line: int) -> list[Edge]:
        data, share = self.data, self.share
        m = _EDGES.match(data, pos)
        if m is None:
            raise _Whole
        line += data.count(b"\n", pos, m.end())
        if m.group(1):
            return []
        begin, end = m.end(), data.find(b"</edges>", m.end())
        if end < 0:
            raise _Whole
        found = _EDGE.findall(data, begin, end)
        tail = data[data.rfind(b"\n", begin, end):end] if found else b""
        edges: list[Edge] = []
        if (found and data.count(b"<edge", begin, end) == len(found) and not tail.strip(b" \t\n")
                and data.count(b"\n", begin, end) == len(found) + 1):
            for n, (a, b, c, d) in enumerate(found, line + 1):
                a, b, c, d = a.decode(), b.decode(), c.decode(), d.decode()
                edges.append(Edge(share(a, a), share(b, b), share(c, c), share(d, d), n))
            return edges
        at = begin
        for e in _ANY_EDGE.finditer(data, begin, end):
            line += data.count(b"\n", at, e.start())
            at = e.start()
            if b"\n" in e.group(1):
                raise _Whole
            attrs = _attrs(e.group(1))
            a, b, c, d = (attrs.get(k, "") for k in ("from-layer", "from-port", "to-layer", "to-port"))
            edges.append(Edge(share(a, a), share(b, b), share(c, c), share(d, d), line))
        return edges


class _OneLayer(Exception):
    """This layer is not in the usual layout: lxml reads it on its own."""
