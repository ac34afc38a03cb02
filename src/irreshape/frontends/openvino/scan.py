"""The fast reading of an IR ``.xml``: regular expressions over the layout OpenVINO's serializer writes.

Reading element by element through lxml costs Python work per element (a 26 MB XML has 1.2 million
tags). This reader lets libxml2 check that the document is well-formed (a parse that builds nothing),
then takes the layers, ports, dims and edges out of the bytes with a handful of compiled patterns, and
the ``<dim>`` lines from newline counts. It is exact, not heuristic:

* It reads only documents in which every ``<`` opens a tag: no comment, CDATA section, DOCTYPE or
  processing instruction past the XML declaration, and no ``\\r`` line ends. Well-formed XML of that
  kind is tokenised by its ``<`` alone, so a pattern that matches a tag cannot match inside a value or
  a text.
* ``<net>`` must hold ``<layers>`` and then ``<edges>``, and no ``<layer>``/``<edge>`` may stand
  anywhere else, nor a second ``<layers>``/``<edges>`` (counted past ``</layers>``; before it, looked for
  where a layer the scan takes can hold other elements, its ``<rt_info>`` and its ports', and in a layer lxml
  reads): the sub-graph of a TensorIterator or Loop (a ``<body>`` with layers and edges of its own) is read
  element by element.
* A ``<layer>`` whose content is not ``<data/>``, ``<input>``, ``<output>`` (ports of ``<dim>``s, an
  optional ``<rt_info>``) and an optional ``<rt_info>``, or whose tags span lines, or that holds a dim
  that is not a plain integer, is read by lxml on its own (the ``<layer>`` element alone), with the
  reader of :mod:`.reader`: the same objects and problems as a reading of the whole document.

Well-formedness: a document the scan takes must be one libxml2 takes. A small one is fed to libxml2 chunk by
chunk. A large one in the serializer's own layout proves it as it is scanned (:class:`_Checker`): ASCII without
control characters, ``&`` or ``]]>``; every tag matched by an exact pattern (fixed element and attribute names,
values without ``<``; a ``<data>``'s attributes checked as XML has them, no name twice); no run of bytes near
libxml2's limits on names, values and text; and what follows ``</edges>`` parsed by libxml2 as ``<net>``'s
content. The first thing off that layout starts libxml2 on the whole file, in a thread of its own, as before;
its verdict then decides.

Anything else returns False and the caller reads the document element by element (comments, for
inline suppressions, take that path). The two readings give equal models: tests compare them on every
fixture, exported model and hostile file.
"""

from __future__ import annotations

import os
import re
from itertools import chain, repeat

from .bodies import BODY_TAGS
from .model import Edges, IRModel, Layer, Port
from .reader import NO_DATA, Reader, dim_value, parser_options, read_net
from ...core.findings import Problem

_A = rb"(?:\s+[^\s=/<>]+\s*=\s*(?:\"[^\"<]*\"|'[^'<]*'))*\s*"  # a tag's attributes (exact XML syntax)
# an element's content up to its end tag, possessive: giving any of it back leaves a "<" (or a byte before one) that
# cannot start the end tag (what a backtracking pattern would retry, and save its groups for, at each "<")
_CONTENT = rb"[^<]*+(?:<(?!/%s>)[^<]*+)*+"
_RT_INFO = rb"<rt_info>" + _CONTENT % b"rt_info" + rb"</rt_info>\s*"
_PORT_BODY = rb"(?:\s*<dim>[^<]*</dim>)*\s*(?:" + _RT_INFO + rb")?"
_PORT = rb"<port" + _A + rb"(?:/>|>" + _PORT_BODY + rb"</port>)"
_SECTION = re.compile(rb"(?:\s*" + _PORT + rb")*\s*")
# A layer's skeleton; the content of <input> and <output> is checked against _SECTION when first seen.
# The serializer's attributes (id, name, type, version: groups 1-4, values without "<", ">", "&", tab or newline),
# else any attributes (group 5) as [^>]*: a quoted ">" cuts the tag short, and the rest of it then fails the
# pattern. Then <data>'s attributes (6), <input>'s and <output>'s content (7, 8), an <rt_info> (9).
_VALUE = rb'"([^"&<>\t\n]*)"'
_LAYER = re.compile(
    rb"\s*<layer(?: id=" + _VALUE + rb" name=" + _VALUE + rb" type=" + _VALUE + rb" version=" + _VALUE
    + rb" ?|(\s[^>]*))>\s*(?:<data((?:\s[^>]*)?)/>\s*)?(?:<input>(" + _CONTENT % b"input" + rb")</input>\s*)?"
    rb"(?:<output>(" + _CONTENT % b"output" + rb")</output>\s*)?(" + _RT_INFO + rb")?</layer>")
_OWN_ATTRS = len(b'<layer id="')  # from a layer's start to its id's value, in the serializer's layout
_PORTS = re.compile(rb"<port(" + _A + rb")(?:/>|>(" + _PORT_BODY + rb")</port>)")
# port names: no part of the model, and unique to each port: each becomes ` names=""`, so that equal sections share
# their reading (a port with two names has two: the section is then off the layout)
_NAMES = re.compile(rb' names="[^"<\n]*"')
_NO_NAMES = b' names=""'
_DIM = re.compile(rb"<dim>([^<]*)</dim>")
# the usual layout of a port's content: one <dim> per line, the first on the line after the port
_DIMS_PER_LINE = re.compile(rb"(?:[ \t]*\n[ \t]*<dim>[^<\n]*</dim>)*")
_CONST_DATA = re.compile(rb' element_type="([^"&\t\n]*)" shape="([^"&\t\n]*)" offset="([0-9]*)" size="([0-9]*)" ?')
_PORT_ATTRS = re.compile(rb' id="([^"&\t\n]*)"(?: precision="([^"&\t\n]*)")?(?: names="")? ?')
_ATTR = re.compile(rb"([^\s=]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_EDGE = re.compile(rb'\n[ \t]*<edge from-layer="([^"&\t\n]*)" from-port="([^"&\t\n]*)" to-layer="([^"&\t\n]*)" '
                   rb'to-port="([^"&\t\n]*)" ?/>')
_EDGE_TEXT = re.compile(_EDGE.pattern.decode())  # the same, over a region decoded at once: the ends come as strings
_ANY_EDGE = re.compile(rb"<edge(" + _A + rb")/?>")
_EDGES = re.compile(rb"\s*<edges\s*(/?)>")
_PROLOG = re.compile(rb"(?:\xef\xbb\xbf)?(?:<\?xml(" + _A + rb")\?>)?\s*<net(" + _A + rb")>\s*<layers>")
# the attributes of a tag as XML has them (names of ASCII letters, digits and ._-, far below libxml2's length
# limit, no namespace prefix or declaration; values without "<" or "&"), for the proof of well-formedness; and the
# XML declaration OpenVINO writes
_XML_ATTRS = re.compile(rb"(?:[ \t\n]+(?!xmlns)[A-Za-z_][A-Za-z0-9_.-]{0,999}[ \t\n]*=[ \t\n]*(?:\"[^\"<&]*\"|'[^'<&]*'))*"
                        rb"[ \t\n]*")
_XML_NAME = re.compile(rb"[ \t\n]([A-Za-z_:][A-Za-z0-9_.:-]*)[ \t\n]*=")
_XML_DECL = re.compile(rb"[ \t\n]+version[ \t\n]*=[ \t\n]*(?:\"1\.0\"|'1\.0')(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(?:\"[A-Za-z]"
                       rb"[A-Za-z0-9._-]*\"|'[A-Za-z][A-Za-z0-9._-]*'))?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*"
                       rb"(?:\"(?:yes|no)\"|'(?:yes|no)'))?[ \t\n]*")
_XML_CHARS = bytes(range(0x20, 0x7F)) + b"\t\n"  # what a document proven here is made of (CR: read element by element)
_SPAN = 1 << 20  # the longest layer, edge line or run of text proven here: far below libxml2's limits (10 MB)
_ENTITY = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}

# a section's ports: (id, dims, line after the section's first, dim lines after the port's or None for one
# per line, precision or None)
_Section = tuple[tuple[str, "tuple[int, ...]", int, "tuple[int, ...] | None", "str | None"], ...]


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


CHUNK = 1 << 18  # bytes read at a time: the scan holds about this much of the document, not all of it
EDGE_REGION = 1 << 16  # bytes of <edge> lines matched at a time
_PROLOG_MAX = 1 << 16  # an IR's <layers> starts within this many bytes
FD_PATH = "/proc/self/fd/{}"  # a path naming an open file, with a file offset of its own (Linux)


def read(model: IRModel, f, limit: int) -> bool:
    """Fill ``model`` from the regular file ``f`` (at its start) of at most ``limit`` bytes. False, with
    ``model`` untouched, when the document is not one this reader takes (malformed or too large
    included): read it element by element then."""
    scanner = Scanner(f, limit)
    try:
        head, layers, duplicates, edges, problems = scanner.run()
        well_formed = scanner.checker.result()
    except Exception:  # _Whole; or a malformed document (checked beside the scan) that tripped the scan
        return False
    if not well_formed:
        return False
    root, net_line = head
    read_net(model, root.get, net_line)
    model.layers, model.duplicates, model.edges = layers, duplicates, edges
    model.rt_info = scanner.reader.rt_info
    model.problems.extend(problems)
    return True


class _Null:
    """A parser target without callbacks: libxml2 checks the document and builds nothing."""

    def close(self) -> None:
        return None


class _Checker:
    """libxml2's verdict on the whole document's well-formedness, or the scan's proof of it.

    A document of at most a chunk is fed to libxml2 chunk by chunk, as the scan reads it. A larger one is proven
    well-formed by the scan itself while it keeps to the layout the proof covers (see the module's docstring);
    the first thing off it (:meth:`distrust`) starts libxml2 on the whole file, read through a path of its own
    (``/proc/self/fd``, with an offset of its own) in a thread of its own, without Python's lock, on another
    core if there is one. Where the system names no open file by path, libxml2 is fed every chunk. Either way
    libxml2 builds nothing.
    """

    def __init__(self, fd: int, size: int) -> None:
        self._verdict: list[bool] = []
        self._thread = None
        self._parser = None
        self._path = FD_PATH.format(fd)
        self._tail = b""  # the last bytes fed, for a "]]>" across two chunks
        self.proving = size > CHUNK and os.path.exists(self._path)
        if not self.proving:
            from lxml import etree

            self._parser = etree.XMLParser(target=_Null(), **parser_options())

    def distrust(self) -> None:
        """The document is off the layout the scan proves: libxml2 checks the whole file."""
        if self.proving:
            import threading

            self.proving = False
            self._thread = threading.Thread(target=self._check_file, args=(self._path,), daemon=True)
            self._thread.start()

    def _check_file(self, path: str) -> None:
        from lxml import etree

        try:  # a parser of this thread's own: lxml's parsers belong to one thread
            etree.parse(path, etree.XMLParser(target=_Null(), **parser_options()))
        except Exception:  # XMLSyntaxError, or anything else: the element-by-element reading will say
            self._verdict.append(False)
        else:
            self._verdict.append(True)

    def feed(self, chunk: bytes) -> None:
        if self._parser is not None:
            try:
                self._parser.feed(chunk)
            except Exception:
                raise _Whole from None
        elif self.proving:
            seam = self._tail + chunk[:2]
            # "]" alone first: a search for one byte runs at memory speed, one for "]]>" at a fraction of it
            if (not chunk.isascii() or chunk.translate(None, _XML_CHARS) or chunk.find(b"&") >= 0
                    or (chunk.find(b"]") >= 0 and chunk.find(b"]]>") >= 0) or seam.find(b"]]>") >= 0):
                self.distrust()
            self._tail = chunk[-2:]

    def prove_tail(self, tail: bytes) -> None:
        """What follows ``</edges>``: ``<net>``'s last content, its end tag and white space, checked by libxml2 (the
        model's ``<rt_info>``: a few elements)."""
        if not self.proving:
            return
        end = tail.rfind(b"</net")
        if end < 0 or not _END_NET.fullmatch(tail, end) or len(tail) > _SPAN:
            self.distrust()
            return
        from lxml import etree

        parser = etree.XMLParser(target=_Null(), **parser_options())
        try:
            parser.feed(b"<net>")
            parser.feed(tail[:end])
            parser.feed(b"</net>")
            parser.close()
        except Exception:
            self.distrust()

    def attributes(self, raw: bytes) -> None:
        """Distrust the document unless ``raw`` is a tag's attributes as XML has them (no name twice)."""
        if self.proving and (_XML_ATTRS.fullmatch(raw) is None or len(set(names := _XML_NAME.findall(raw)))
                             != len(names)):
            self.distrust()

    def result(self) -> bool:
        if self._thread is not None:
            self._thread.join()
            return self._verdict[0]
        if self._parser is None:
            return True  # proven by the scan
        try:
            self._parser.close()
        except Exception:
            return False
        return True


_END_NET = re.compile(rb"</net[ \t\n]*>[ \t\n]*")


class Scanner:
    """Reads the document a chunk at a time into a window (``data``), dropping what it has read.

    It drops only just after a ``>`` or at a line start, so that no tag it counts is ever cut in two:
    every byte is checked once, in :meth:`_drop`, for the markup this reader does not take, and past
    ``</layers>`` for the ``<layer>`` and ``<edge>`` tags that must all be the ones it read. Before it the
    window holds whole layers: a layer the scan takes holds no other element (a tag's attributes hold no
    "<" in a well-formed document) but in an ``<rt_info>``, where :meth:`_layer` and :meth:`_section` look
    for them, as :meth:`_lxml_layer` does in a layer it reads.
    """

    def __init__(self, f, limit: int) -> None:
        self.f, self.limit, self.total = f, limit, 0
        self.checker = _Checker(f.fileno(), os.fstat(f.fileno()).st_size)
        self.data = b""
        self.eof = False
        self.line, self.at = 1, 0  # the line of offset ``at`` of the window
        self.tags = [0, 0]  # the "<layer" and "<edge" in the bytes dropped past </layers> (<edges> too)
        self.problems: list[Problem] = []
        self.reader = Reader(self.problems)
        self.share = self.reader.share
        self.data_dicts: dict[bytes, dict[str, str]] = {}
        self.sections: dict[bytes, tuple[_Section, dict[int, tuple]]] = {}
        self.dims = self.reader.dims  # text of a good <dim> -> its value
        self.layers: dict[str, Layer] = {}  # the layers read so far, by id (the first of an id)
        self.ends: _Ends | None = None  # while the edges are read
        self.types: dict[bytes, tuple[str, str]] = {}  # a type attribute's bytes -> Reader.kind's answer
        self.versions: dict[bytes, str] = {}  # a version attribute's bytes -> its shared string

    # -- the window ------------------------------------------------------------------------------
    def refill(self) -> bool:
        """Read the next chunk into the window; False at the end of the file."""
        chunk = b"" if self.eof else self.f.read(CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.total += len(chunk)
        if self.total > self.limit:
            raise _Whole  # the file grew past the limit: the element-by-element reading reports it
        self.checker.feed(chunk)
        self.data = self.data + chunk if self.data else chunk
        return True

    def _find(self, token: bytes, pos: int) -> int:
        """The index of the first ``token`` at or after ``pos``, reading on as needed; -1 if there is none."""
        while True:
            i = self.data.find(token, pos)
            if i >= 0 or not self.refill():
                return i

    def _drop(self, p: int, tags: bool = True) -> None:
        """Forget the window's first ``p`` bytes, counting their lines (from ``at``) and, with ``tags``, their
        ``<layer`` and ``<edge`` tags."""
        data = self.data
        # comments, CDATA, DOCTYPE, PIs; CR. "!" and "?" are rare in an IR: looking for the byte
        # alone is a scan at memory speed, and each one found is checked for the "<" before it.
        for mark in (b"!", b"?"):
            i = data.find(mark, 0, p)
            while i >= 0:
                if i > 0 and data[i - 1] == 60:  # "<"
                    raise _Whole
                i = data.find(mark, i + 1, p)
        if data.find(b"\r", 0, p) >= 0:
            raise _Whole
        self.line += data.count(b"\n", self.at, p)
        self.at = 0
        if tags:
            # "<layers" and "<edges" count too: past </layers> the only one is the <edges> tag, so a sub-graph
            # (a <body> holds <layers> and <edges>) or any stray section makes the counts differ
            self.tags[0] += data.count(b"<layer", 0, p)
            self.tags[1] += data.count(b"<edge", 0, p)
        self.data = data[p:]

    def _head(self) -> tuple[dict[str, str], int]:
        """Read the prolog up to ``<layers>``: (the ``<net>`` attributes, the line of ``<net>``)."""
        while self.data.find(b"<layers>") < 0 and len(self.data) < _PROLOG_MAX and self.refill():
            pass
        data = self.data
        m = _PROLOG.match(data)
        if m is None or data.find(b"\r", 0, m.end()) >= 0:  # the pattern leaves no room for other markup
            raise _Whole
        if _attrs(m.group(1) or b"").get("encoding", "utf-8").lower() not in ("utf-8", "utf8"):
            raise _Whole
        if self.checker.proving:
            if m.group(1) is not None and _XML_DECL.fullmatch(m.group(1)) is None:
                self.checker.distrust()
            self.checker.attributes(m.group(2))
        net_line = data.count(b"\n", 0, data.index(b"<net")) + 1
        self.line += data.count(b"\n", 0, m.end())
        self.data = data[m.end():]
        return _attrs(m.group(2)), net_line

    def run(self):
        head = self._head()
        layers: dict[str, Layer] = {}
        self.layers = layers  # the edges take their layers' ids from it
        duplicates: list[Layer] = []
        data, pos, line, at = self.data, 0, self.line, 0  # ``line`` is the line of offset ``at``
        match = _LAYER.match
        while True:
            m = match(data, pos)  # a layer cut off by the end of the window does not match
            if m is None and not self.eof:
                end = data.find(b"</layer", pos)
                if end < 0 or end + 9 > len(data):  # not the whole of the next layer (or of </layers>) yet
                    self.line, self.at = line, at
                    self._drop(pos, tags=False)  # whole layers (see the class's docstring)
                    end = self._find(b"</layer", 0)
                    while 0 <= end and len(self.data) < end + 9 and self.refill():
                        pass
                    data, pos, line, at = self.data, 0, self.line, 0
                    continue
            if m is not None:
                start, stop = m.start(1), m.end()
                start = start - _OWN_ATTRS if start >= 0 else m.start(5) - 6
                if stop - pos > _SPAN:
                    self.checker.distrust()
                line += data.count(b"\n", at, start)
                at = start
                try:
                    layer = self._layer(m, line, start)
                except _OneLayer:
                    layer = self._lxml_layer(start, line, stop)
                pos = stop
            else:
                start = data.find(b"<", pos)
                if not data.startswith(b"<layer", start) or data[start + 6:start + 7] == b"s":
                    break
                end = data.find(b"</layer>", start)
                nxt = data.find(b"<layer", start + 6)
                if end < 0 or 0 <= nxt < end:
                    raise _Whole  # an empty <layer/>, or one inside another
                if start - pos > _SPAN:
                    self.checker.distrust()
                line += data.count(b"\n", at, start)
                at = start
                pos = end + 8
                layer = self._lxml_layer(start, line, pos)
            if layers.setdefault(layer.id, layer) is not layer:
                duplicates.append(layer)
        if not data.startswith(b"</layers>", start):
            raise _Whole
        if start - pos > _SPAN:
            self.checker.distrust()
        self.line, self.at = line, at
        self._drop(start + 9, tags=False)
        # what only the layers needed goes before the edges are read: the model is then at its largest
        self.data_dicts = self.sections = self.types = self.versions = None  # type: ignore[assignment]
        self.reader.data = self.reader.dims = self.dims = None  # type: ignore[assignment]
        edges = self._edges()
        tail = []  # the rest of the document, for the proof of its well-formedness
        kept = 0
        while self.refill() or self.data:  # the rest of the document, dropped just after a ">"
            cut = len(self.data) if self.eof else self.data.rfind(b">") + 1
            if self.checker.proving and kept <= _SPAN:
                tail.append(self.data[:cut])
                kept += cut
            self._drop(cut)
        self.checker.prove_tail(b"".join(tail))
        if self.tags != [0, len(edges) + 1]:
            raise _Whole  # a <layer> or an <edge> somewhere else
        return head, layers, duplicates, edges, self.problems

    def _layer(self, m: re.Match, line: int, start: int) -> Layer:
        lid, name, typ, version, raw, data_raw, inputs, outputs, rt_info = m.groups()
        if rt_info is not None:
            _no_graph_tags(rt_info)
            if rt_info.find(b"<attribute") >= 0:
                raise _OneLayer  # an <rt_info> the reader of a layer looks into
            self.checker.distrust()  # content the scan does not prove
        share = self.share
        if raw is None:  # the serializer's attributes; a type and a version are taken by their bytes
            known = self.types.get(typ)  # type: ignore[arg-type]
            if known is None:
                known = self.types[typ] = self.reader.kind(typ.decode())  # type: ignore[index]
            shared = self.versions.get(version)  # type: ignore[arg-type]
            if shared is None:
                shared = self.versions[version] = share(v := version.decode(), v)  # type: ignore[index]
            lid, name = lid.decode(), name.decode()
        else:
            if b"\n" in raw:
                raise _OneLayer
            self.checker.attributes(raw)
            attrs = _attrs(raw)
            lid, name, typ, version = (attrs.get(k, "") for k in ("id", "name", "type", "version"))
            known, shared = self.reader.kind(typ), share(version, version)
        # the id is not put in ``share`` (tens of thousands of them): an edge takes it from its layer (_edge_region)
        raw = data_raw
        d = NO_DATA
        if raw is not None:
            d = self.data_dicts.get(raw)
            if d is None:
                if (c := _CONST_DATA.fullmatch(raw)) is not None:
                    if self.checker.proving and raw.find(b"<") >= 0:
                        self.checker.distrust()
                    et, shape, offset, size = c.groups()
                    d = {"element_type": share(et := et.decode(), et), "shape": share(shape := shape.decode(), shape),
                         "offset": offset.decode(), "size": size.decode()}
                else:
                    self.checker.attributes(raw)
                    items = tuple(_attrs(raw).items())
                    d = self.reader.data.get(items)
                    if d is None:
                        d = self.reader.data[items] = {share(k, k): share(v, v) for k, v in items}
                # equal Consts share one dict too: the serializer writes equal constants once in the .bin
                if len(self.data_dicts) < _SHARED_DATA:
                    self.data_dicts[raw] = d
        layer = Layer(lid, name, known[0], known[1], shared, line, d, (), ())
        data, sections = self.data, self.sections
        for group, sec in ((7, inputs), (8, outputs)):
            if sec is None:
                continue
            # find, not `in`: bytes' `in` first tries its operand as an int, and pays for the TypeError's message
            key = _NAMES.sub(_NO_NAMES, sec) if sec.find(b" names=") >= 0 else sec
            known = sections.get(key)
            if known is None:
                known = self._section(key)
            ports, made_at = known
            off = data.count(b"\n", start, m.start(group))  # the section's first line, from the layer's
            made = made_at.get(off)  # the dims and heads of the ports, their section on line ``off`` of the layer
            if made is None:
                heads = tuple([share(head := (off + rel, prec, pid, None if dim_rel is None else
                                              tuple(line + off + rel + r for r in dim_rel)), head)
                               for pid, _, rel, dim_rel, prec in ports])
                made = (tuple([dims for _, dims, _, _, _ in ports]), heads)
                if all(dim_rel is None for _, _, _, dim_rel, _ in ports):  # else the dims' lines are the layer's own
                    made_at[off] = made
            dims, heads = made
            if len(dims) == 1:
                made = (Port(dims[0], heads[0], layer),)
            else:  # no Python code per port
                made = tuple(map(Port, dims, heads, repeat(layer, len(dims))))
            if group == 7:
                layer.inputs = made
            else:
                layer.outputs = made
        return layer

    def _section(self, sec: bytes) -> tuple[_Section, dict[int, tuple]]:
        """The ports of the content of an ``<input>`` or ``<output>`` (names removed), read once; beside them, the
        dims and the heads of its ports by the section's line in its layer, filled as layers are read."""
        _no_graph_tags(sec)  # in a port's <rt_info>
        if _SECTION.fullmatch(sec) is None:
            raise _OneLayer
        share = self.share
        ports = []
        rel = at = 0  # the line of offset ``at``, counted from the section's first: once, as the scan goes
        for p in _PORTS.finditer(sec):
            raw = p.group(1)
            if b"\n" in raw:
                raise _OneLayer
            a = _PORT_ATTRS.fullmatch(raw)
            if a is not None:
                pid, prec = a.group(1).decode(), a.group(2)
                prec = None if prec is None else prec.decode()
            else:
                self.checker.attributes(raw)
                attrs = _attrs(raw)
                pid, prec = attrs.get("id", ""), attrs.get("precision")
            rel += sec.count(b"\n", at, p.start())
            at = p.start()
            body = p.group(2)
            dims, dim_rel = self._body(body) if body is not None else ((), None)
            ports.append((share(pid, pid), dims, rel, dim_rel, prec))
        out = (tuple(ports), {})
        if len(self.sections) < 65536:
            self.sections[sec] = out
        return out

    def _body(self, body: bytes) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """(the dims of a port's content, their lines after the port's: None for one per line). The dims come
        before the port's ``<rt_info>``: whatever that holds is not the port's (as lxml reads it)."""
        cut = body.find(b"<rt_info")
        if cut >= 0:
            self.checker.distrust()  # content the scan does not prove
            body = body[:cut]
        known = self.dims
        dims = []
        for text in _DIM.findall(body):
            v = known.get(text)  # type: ignore[call-overload]
            if v is None:
                v = dim_value(text.decode())
                if isinstance(v, str):
                    raise _OneLayer  # a bad dim: the lxml reading reports it
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
        """One ``<layer>`` element read by lxml and :class:`.reader.Reader`, lines shifted."""
        from lxml import etree

        if self.data.count(b"<layer", start, end) != 1:
            raise _Whole  # a <layer> or <layers> in it
        _no_graph_tags(self.data, start + 6, end)
        try:
            el = etree.fromstring(self.data[start:end], etree.XMLParser(**parser_options()))
        except etree.XMLSyntaxError:
            raise _Whole from None  # not one element: a <layer> in another
        if any(child.tag in BODY_TAGS for child in el):
            raise _Whole  # a sub-graph, even an empty one, is read element by element
        self.reader.base = line - 1
        try:
            return self.reader.layer(el)
        finally:
            self.reader.base = 0

    def _edges(self) -> Edges:
        """The ``<edges>`` section, which starts the window: read a region of whole lines at a time."""
        self._find(b">", 0)
        m = _EDGES.match(self.data)
        if m is None:
            raise _Whole
        if m.end() > _SPAN:
            self.checker.distrust()
        line = self.line + self.data.count(b"\n", 0, m.end())
        if m.group(1):
            self.line, self.at = line, m.end()
            self._drop(m.end())
            return Edges()
        edges = Edges()
        pos = m.end()
        self.ends = _Ends(self.layers, self.share)
        while True:
            data = self.data
            end = data.find(b"</edges>", pos)
            cut = end if end >= 0 else data.rfind(b"\n", pos)  # up to </edges>, or to the last line start
            if cut > pos:
                # regions of EDGE_REGION bytes or so: what a region makes before its edges are kept stays small
                at = pos
                while cut - at > EDGE_REGION and (mid := data.rfind(b"\n", at, at + EDGE_REGION)) > at:
                    line = self._edge_region(at, mid, line, edges, False)
                    at = mid
                line = self._edge_region(at, cut, line, edges, end >= 0)
                self.line, self.at = line, cut
                self._drop(end + 8 if end >= 0 else cut)
                if end >= 0:
                    self.ends = None  # type: ignore[assignment]
                    return edges
                pos = 0
            elif not self.refill():
                raise _Whole  # no </edges>

    def _edge_region(self, begin: int, end: int, line: int, edges: Edges, last: bool) -> int:
        """Append the edges between ``begin`` (a line start, or just after ``<edges>``) and ``end`` (a line
        start, or ``</edges>`` when ``last``); the line of ``end``."""
        data, ends = self.data, self.ends
        found = _EDGE_TEXT.findall(data[begin:end].decode())
        newlines = data.count(b"\n", begin, end)
        # the serializer's layout: one edge a line, and nothing else but the indent before </edges>
        if (found and data.count(b"<edge", begin, end) == len(found) and newlines == len(found) + last
                and (not last or not data[data.rfind(b"\n", begin, end):end].strip(b" \t\n"))):
            # proven: one tag a line, the edge's own (no other "<"), values without "<"
            if self.checker.proving and (data.count(b"<", begin, end) != len(found) or end - begin > _SPAN):
                self.checker.distrust()
            # the four ends of every edge in order, shared, in one list: no Python code per edge
            edges.extend(list(map(ends.__getitem__, chain.from_iterable(found))),
                         range(line + 1, line + 1 + len(found)))
            return line + newlines
        self.checker.distrust()  # off the layout the scan proves
        at = begin
        for e in _ANY_EDGE.finditer(data, begin, end):
            line += data.count(b"\n", at, e.start())
            at = e.start()
            # a tag over several lines, or an <edge> with content (the element reading skips any <edge> in it)
            if b"\n" in e.group(1) or not e.group().endswith(b"/>"):
                raise _Whole
            attrs = _attrs(e.group(1))
            a, b, c, d = (attrs.get(k, "") for k in ("from-layer", "from-port", "to-layer", "to-port"))
            edges.add(ends[a], ends[b], ends[c], ends[d], line)
        return line + data.count(b"\n", at, end)


class _Ends(dict):
    """An edge end's text -> the string the edges keep: a layer's id is the layer's own string (no second copy of
    tens of thousands of ids), any other end (a port's id, a missing layer's) the shared one, entered when first met."""

    __slots__ = ("share",)

    def __init__(self, layers: dict[str, Layer], share) -> None:
        super().__init__(zip(layers, layers))
        self.share = share

    def __missing__(self, end: str) -> str:
        shared = self[end] = self.share(end, end)
        return shared


def _no_graph_tags(data: bytes, start: int = 0, end: int | None = None) -> None:
    """Refuse a ``<layer>`` or an ``<edge>`` (``<layers>``, ``<edges>``) in content the scan reads as a layer's."""
    if data.find(b"<layer", start, end) >= 0 or data.find(b"<edge", start, end) >= 0:
        raise _Whole


class _OneLayer(Exception):
    """This layer is not in the usual layout: lxml reads it on its own."""
