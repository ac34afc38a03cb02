"""The element-by-element reading of an IR ``.xml`` through lxml: any layout, comments and sub-graphs included.

The parser is hardened (no entities, no DTD, no network) and streams the document: only layers, edges
and comments reach Python, and each ``<layer>`` is freed as soon as it is read. Memory follows the number
of layers, not the size of the document. :mod:`.scan` reads the serializer's own layout faster and falls
back to this reader, whose :class:`Reader` it shares for the layers it cannot take apart itself.
"""

from __future__ import annotations

import re

from ...core.dims import INT64_MAX
from ...core.findings import Problem
from ...core.records import Record
from ...core.text import clip
from .bodies import BodyReader
from .model import Edge, IRModel, Layer, Port

SUPPORTED_VERSIONS = (10, 11)  # the IR versions OpenVINO reads
DIRECTIVE = re.compile(r"irreshape\s*:")  # an `irreshape:` comment (inline suppressions)


class NotIR(Exception):
    """The XML is well-formed but its root is not ``<net>``: not ours, skipped without a word."""


class Capped:
    """A read-only stream for the parser: no ``name`` (lxml would resolve relative to it, and chokes on
    undecodable paths), and an error past ``limit`` bytes (a file that grows while it is read)."""

    def __init__(self, f, limit: int) -> None:
        self._f, self._left = f, limit

    def read(self, n: int = -1) -> bytes:
        data = self._f.read(n if n >= 0 else self._left + 1)
        self._left -= len(data)
        if self._left < 0:
            raise TooLarge()
        return data


class TooLarge(Exception):
    pass


def parser_options() -> dict:
    return {"resolve_entities": False, "no_network": True, "load_dtd": False, "dtd_validation": False,
            "huge_tree": False, "remove_blank_text": False}


INT_TEXT = re.compile(r"-?[0-9]+")


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


def dim_value(text: str) -> int | str:
    """The value of a ``<dim>``'s text (-1 to INT64_MAX), or, for a bad one, what is wrong with it."""
    t = text.strip()
    v = int(t) if INT_TEXT.fullmatch(t) and len(t) <= 40 else None
    if v is not None and -1 <= v <= INT64_MAX:
        return v
    return "is beyond int64" if v is not None and v > INT64_MAX else "is below -1" if v is not None else "is not an integer"


def bad_dim(text: str | None, line: int, port_el, layer: Layer, problems: list[Problem]) -> int | None:
    """The value of a ``<dim>`` whose text is not a known good one; a problem and None when it is bad."""
    text = (text or "").strip()
    why = dim_value(text)
    if isinstance(why, int):
        return why
    problems.append(Problem("invalid-dim", f"layer {clip(layer.name)!r} port {clip(port_el.get('id', ''))!r}: "
                            f"<dim>{clip(text)}</dim> {why}", line, layer.ref))
    return None


NO_DATA: dict[str, str] = {}  # the attributes of every layer without <data>: shared, never changed


# the <rt_info> attributes OpenVINO's inference depends on: a Convert marked `decompression` (what
# save_model(compress_to_fp16) writes after an f16 Const) stops its bound evaluation (measured on 2026.4.1)
RT_INFO = frozenset({"decompression"})


class Reader:
    """Builds :class:`Layer` objects from ``<layer>`` elements, sharing what repeats between them: equal
    strings (ids, types, attribute names and values), ``<data>`` dicts and dims tuples (none of them is
    ever changed), and the values of ``<dim>`` texts already read."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        self.share = {}.setdefault  # share(s, s): the first equal string (or tuple) seen
        self.kinds: dict[str, tuple[str, str]] = {}  # type attribute -> (its shared string, lower-cased)
        self.data: dict[tuple, dict[str, str]] = {}  # the items of a <data> element -> its dict
        self.dims: dict[str, int] = {}  # raw text of a good <dim> -> its value
        self.base = 0  # added to every line: the line before a <layer> read on its own
        self.rt_info: dict[str, frozenset[str]] = {}  # layer (path) id -> the RT_INFO names its <rt_info> holds

    def line(self, el) -> int:
        """The line of an element read on its own or in the whole document."""
        return line_of(el) + self.base

    def kind(self, typ: str) -> tuple[str, str]:
        """(the shared string of a layer type, its kind: lower-cased, as OpenVINO matches types)."""
        known = self.kinds.get(typ)
        if known is None:
            typ = self.share(typ, typ)
            known = self.kinds[typ] = (typ, typ.lower())
        return known

    def layer(self, el, prefix: str = "") -> Layer:
        """The layer of a ``<layer>`` element; ``prefix`` goes before its id (a body's layer: its path id)."""
        get, share = el.get, self.share
        known = self.kind(get("type", ""))
        line = line_of(el) + self.base
        lid, version = prefix + get("id", ""), get("version", "")
        layer = Layer(share(lid, lid), get("name", ""), known[0], known[1], share(version, version), line, NO_DATA,
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
            elif tag == "rt_info":
                names = RT_INFO.intersection(a.get("name") for a in child if a.tag == "attribute")
                if names:
                    self.rt_info[layer.id] = frozenset(names)
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
                    v = bad_dim(text, line, p, layer, self.problems)
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
            head = (port_line - layer.line, p.get("precision"), share(pid, pid), None if lines is None else tuple(lines))
            target.append(Port(shape, share(head, head), layer))
        return tuple(target)


def doctype_problem() -> Problem:
    return Problem("xml-entity-declaration", "the document declares a DOCTYPE; an IR needs none, and irreshape never "
                   "expands its entities or loads its DTD: the file was not read further", 1)


_TAGS = ("layer", "edge", "layers", "net")


def read_elements(model: IRModel, f, max_size: int) -> None:
    from lxml import etree

    problems = model.problems
    reader = Reader(problems)
    model.rt_info = reader.rt_info
    bodies = BodyReader(model, reader)
    checked_root = seen_layers = False
    top = None  # the element at depth 1 whose children were last found to be main-graph layers or edges
    it = etree.iterparse(Capped(f, max_size), events=("end", "comment"), tag=(*_TAGS, etree.Comment),
                         **parser_options())
    try:
        for event, el in it:
            if not checked_root:
                checked_root = True
                if not _check_root(model, el.getroottree()):
                    return
            if event == "comment":
                if DIRECTIVE.search(el.text or ""):
                    model.comments.append((line_of(el), el.text or ""))
                continue
            tag = el.tag
            if tag == "net":
                continue
            # the main graph here: a TensorIterator's or Loop's <body>, an If's <then_body> and <else_body>, are
            # graphs of their own, ids and all, which the BodyReader gathers and hands to their layer
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
                    bodies.attach(layer, el)
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
            else:
                bodies.take(el, tag, parent)
            # drop the element read and the siblings before it, so that the tree never grows
            el.clear(keep_tail=tag == "edge")  # the next edge's line may need this one's tail
            while el.getprevious() is not None:
                del parent[0]
    except etree.XMLSyntaxError as e:
        if not checked_root and not _root_before_error(model, f, max_size):
            return
        line, col = e.position if e.position else (0, 0)
        msg = re.sub(r"(, use XML_PARSE_HUGE option)?, line \d+, column \d+.*$", "", e.msg or str(e))
        problems.append(Problem("xml-syntax-error", f"malformed XML: {msg}", line or 1, col=col or 1))
        return
    if not checked_root and it.root is not None:  # a root none of whose elements is a layer or an edge
        checked_root = True
        if not _check_root(model, it.root.getroottree()):
            return
    if not checked_root:
        problems.append(Problem("xml-syntax-error", "malformed XML: no root element", 1))
    elif not seen_layers:
        problems.append(Problem("unsupported-ir", "the document has no <layers> element", 1))


def _root_before_error(model: IRModel, f, max_size: int) -> bool:
    """Check the root as soon as any element has ended, as for a file without errors: the parse above
    sees only layers, edges and comments, and a syntax error may come before the first of them.
    Reads the file again up to that point. False: stop reading (as :func:`_check_root`)."""
    from lxml import etree

    f.seek(0)
    try:
        for _event, el in etree.iterparse(Capped(f, max_size), events=("end", "comment"), **parser_options()):
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
        model.problems.append(doctype_problem())  # a prolog the first bytes did not show (UTF-16, long)
        return False
    read_net(model, root.get, root.sourceline)
    return True


def read_net(model: IRModel, get, line: int) -> None:
    """The ``<net>`` element's name and IR version (``get``: its attribute getter); a problem for a version
    OpenVINO does not read."""
    model.name = get("name", "")
    v = get("version")
    model.version = int(v) if v is not None and INT_TEXT.fullmatch(v) and len(v) < 10 else None
    if model.version not in SUPPORTED_VERSIONS:
        model.problems.append(Problem("unsupported-ir", f"IR version {v!r} is not supported by OpenVINO "
                                      "(10 and 11 are)", line))


_LAYER_TAG = re.compile(rb'<layer\b[^>]*?\bid="([^"]*)"')
_OWN_NAMES = re.compile(rb'\soutput_names="([^"]*)"')
_OUTPUT_SECTION = re.compile(rb"<output\s*>(.*?)</output\s*>", re.S)
_PORT_TAG = re.compile(rb"<port\b([^>]*)>")
_ATTR = re.compile(rb'\s([A-Za-z_:][-A-Za-z0-9_.:]*)\s*=\s*"([^"]*)"')
_ENTITY = re.compile(r"&(#[0-9]+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _unescape(text: str) -> str:
    """An attribute value with its XML character references and entities resolved (a name may hold ``&``)."""
    def one(m: re.Match) -> str:
        ref = m.group(1)
        if ref[0] != "#":
            return _NAMED[ref]
        code = int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:])
        return chr(code) if 0 < code < 0x110000 else m.group(0)

    return _ENTITY.sub(one, text) if "&" in text else text


def split_names(raw: bytes) -> tuple[str, ...]:
    """A ``names`` attribute as OpenVINO reads it: comma-separated, ``\\,`` an escaped comma, blanks dropped."""
    parts = re.split(r"(?<!\\),", _unescape(raw.decode("utf-8", "replace")))
    return tuple(n.strip().replace("\\,", ",") for n in parts if n.strip())


class PortNames(Record):
    """The tensor names a layer's text gives, which the model does not keep: ``ports``, each output port's id ->
    its ``names`` (a port without the attribute has no entry), in file order; ``output_names``: a Result's own
    ``output_names`` attribute (None: absent), which OpenVINO reads in place of its producer's port names."""

    __slots__ = FIELDS = ("ports", "output_names")
    ports: dict[str, tuple[str, ...]]
    output_names: tuple[str, ...] | None

    def __init__(self, ports: dict[str, tuple[str, ...]], output_names: tuple[str, ...] | None = None) -> None:
        self.ports, self.output_names = ports, output_names


def _names_in(text: bytes) -> PortNames:
    """The names in one layer's text (from its start tag to its first ``</layer>``)."""
    own = _OWN_NAMES.search(text, 0, text.find(b">") + 1)
    ports: dict[str, tuple[str, ...]] = {}
    section = _OUTPUT_SECTION.search(text)
    if section is not None:
        for tag in _PORT_TAG.finditer(section.group(1)):
            attrs = dict(_ATTR.findall(tag.group(1)))
            if b"names" in attrs:
                pid = _unescape(attrs.get(b"id", b"").decode("utf-8", "replace"))
                ports.setdefault(pid, split_names(attrs[b"names"]))
    return PortNames(ports, split_names(own.group(1)) if own is not None else None)


def port_names(path: str, layers: list[Layer]) -> dict[str, PortNames]:
    """Layer id -> the tensor names its text gives (:class:`PortNames`), read again from the file for these
    layers (a model's inputs and outputs, and what feeds its outputs): the model keeps no port names. A layer is
    found by its id at its line (a body's layer of the same id is another); one whose text cannot be read has
    none."""
    import mmap

    from ..files import open_regular

    out = {layer.id: PortNames({}) for layer in layers}
    wanted = {(layer.id.encode("utf-8", "surrogateescape"), layer.line): layer.id for layer in layers
              if layer.line > 0}
    if not wanted:
        return out
    last = max(line for _, line in wanted)
    ids = {lid for lid, _ in wanted}
    tags = _LAYER_TAG if len(ids) > 64 else re.compile(  # a few: only their tags are matched at all
        rb'<layer\b[^>]*?\bid="(' + b"|".join(re.escape(i) for i in sorted(ids)) + rb')"')
    try:
        with open_regular(path) as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as text:
            line, at = 1, 0  # the line at offset ``at``
            for m in tags.finditer(text):
                line += text[at:m.start()].count(b"\n")
                at = m.start()
                if line > last:
                    break
                lid = wanted.get((m.group(1), line))
                if lid is not None:
                    end = text.find(b"</layer>", at)
                    out[lid] = _names_in(text[at:end if end >= 0 else len(text)])
    except (OSError, ValueError):  # ValueError: an empty file cannot be mapped
        return out
    return out


def tensor_names(path: str, layers: list[Layer]) -> dict[str, list[str]]:
    """Layer id -> the tensor names of its first output port that has any (its ``names`` attribute,
    comma-separated, ``\\,`` an escaped comma), read again from the file for these few layers (Parameters, for
    ``Model.reshape``'s names): the model keeps no port names. A layer whose names cannot be read has none."""
    return {lid: list(next(iter(found.ports.values()), ())) for lid, found in port_names(path, layers).items()}
