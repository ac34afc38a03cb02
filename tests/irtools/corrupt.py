"""Single-fault corruptions of an OpenVINO IR pair held in memory as ``(xml_bytes, bin_bytes)``.

Pure functions: inputs are never modified, results are new ``bytes``. The XML is edited as text, touching only
the bytes that carry the fault (a ``<dim>`` value, an attribute, an edge's ``from-layer``), so every other byte
and every line number stays the same. When a dim count changes, the extra ``<dim>`` is appended on the line of
the last existing ``<dim>``, and a removed ``<dim>`` leaves its (now blank) line behind; a cloned Const layer is
written on the line of the original's ``</layer>``. Only top-level layers are addressed (not the bodies of
Loop/TensorIterator).

``layer_id`` / ``port_id`` are the XML ``id`` attributes (``int`` or ``str``).

Functions:

* :func:`corrupt_declared_dim`     - one ``<dim>`` of an output port (default: the layer's first output port).
* :func:`corrupt_rank`             - append (``"add"``) or drop (``"remove"``) the last ``<dim>`` of an output port.
* :func:`corrupt_shape_const`      - new values for the Const feeding a Reshape's port 1 (new blob appended to the
  .bin; a Const layer shared with other consumers is cloned first). Returns ``(xml, bin)``.
* :func:`flip_special_zero`        - ``true`` <-> ``false`` (spelling/case preserved; missing -> ``"true"``).
* :func:`corrupt_input_port_dims`  - replace all dims of an input port.
* :func:`corrupt_with_consumers`   - one output ``<dim>``, and the consumers' input ports repeating it.
* :func:`set_port_dims`            - the general form (any port).
* :func:`iter_single_faults`       - every fault above for every Reshape layer.
* :func:`reshape_layer_ids`, :func:`port_dims`, :func:`pattern_const_values` - small inspection helpers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

__all__ = [
    "corrupt_declared_dim",
    "corrupt_rank",
    "corrupt_shape_const",
    "flip_special_zero",
    "corrupt_input_port_dims",
    "corrupt_with_consumers",
    "set_port_dims",
    "iter_single_faults",
    "reshape_layer_ids",
    "port_dims",
    "pattern_const_values",
]

_NP = {
    "i8": "<i1", "i16": "<i2", "i32": "<i4", "i64": "<i8",
    "u8": "<u1", "u16": "<u2", "u32": "<u4", "u64": "<u8",
    "I8": "<i1", "I16": "<i2", "I32": "<i4", "I64": "<i8",
    "U8": "<u1", "U16": "<u2", "U32": "<u4", "U64": "<u8",
}

_TAG = re.compile(rb"<(/?)(layers|layer|body|edges|edge)\b([^>]*?)(/?)>")
_ATTR = re.compile(rb'([\w:.-]+)\s*=\s*"([^"]*)"')
_DIM = re.compile(rb"<dim>([^<]*)</dim>")


# --------------------------------------------------------------------------------------------------
# scanning
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Layer:
    id: str
    name: str
    type: str
    start: int       # offset of "<layer"
    tag_end: int     # offset just after the opening tag's ">"
    end: int         # offset just after "</layer>" (or after "/>" for an empty layer)
    own_end: int     # end of the layer's own content (start of <body> if any, else the "</layer>" offset)


@dataclass(frozen=True)
class _Edge:
    from_layer: str
    from_port: str
    to_layer: str
    to_port: str
    start: int
    end: int


@dataclass(frozen=True)
class _Port:
    id: str
    start: int         # "<port"
    tag_end: int       # after the opening tag
    end: int           # after "</port>" or "/>"
    self_closing: bool
    dims: tuple[tuple[int, int, bytes], ...]   # (start, end, text) of each "<dim>..</dim>"


def _b(xml: bytes | str) -> bytes:
    return xml.encode("utf-8") if isinstance(xml, str) else bytes(xml)


def _attrs(raw: bytes) -> dict[str, str]:
    return {k.decode(): v.decode() for k, v in _ATTR.findall(raw)}


@functools.lru_cache(maxsize=16)
def _scan(xml: bytes) -> tuple[dict[str, _Layer], list[_Edge]]:
    """Top-level layers (by id) and edges of an IR document."""
    layers: dict[str, _Layer] = {}
    edges: list[_Edge] = []
    depth = 0            # nesting of <layers>/<edges> containers (1 = top level)
    body = 0             # nesting of <body>
    cur: list = []       # open top-level layer: [attrs, start, tag_end, body_start]
    layer_depth = 0
    for m in _TAG.finditer(xml):
        closing, tag, raw, selfc = m.group(1), m.group(2), m.group(3), m.group(4)
        if tag == b"body":
            if selfc:
                continue
            if closing:
                body -= 1
            else:
                if body == 0 and cur and cur[3] is None:
                    cur[3] = m.start()
                body += 1
            continue
        if body:
            continue
        if tag in (b"layers", b"edges"):
            if not selfc:
                depth += -1 if closing else 1
            continue
        if tag == b"layer" and depth == 1:
            if closing:
                layer_depth -= 1
                if layer_depth == 0 and cur:
                    a, start, tag_end, body_start = cur
                    layers[a["id"]] = _Layer(a["id"], a.get("name", ""), a.get("type", ""), start, tag_end,
                                             m.end(), body_start if body_start is not None else m.start())
                    cur = []
            elif selfc:
                a = _attrs(raw)
                layers[a["id"]] = _Layer(a["id"], a.get("name", ""), a.get("type", ""), m.start(), m.end(),
                                         m.end(), m.end())
            else:
                layer_depth += 1
                cur = [_attrs(raw), m.start(), m.end(), None]
        elif tag == b"edge" and depth == 1 and layer_depth == 0 and not closing:
            a = _attrs(raw)
            edges.append(_Edge(a["from-layer"], a["from-port"], a["to-layer"], a["to-port"], m.start(), m.end()))
    return layers, edges


def _layer(xml: bytes, layer_id) -> _Layer:
    layers, _ = _scan(xml)
    try:
        return layers[str(layer_id)]
    except KeyError:
        raise KeyError(f"no top-level layer with id {layer_id!r}") from None


def _ports(xml: bytes, layer: _Layer, section: str) -> list[_Port]:
    """Ports of a layer's <input> or <output> section, in document order."""
    m = re.compile(rb"<%s>(.*?)</%s>" % (section.encode(), section.encode()), re.S).search(
        xml, layer.tag_end, layer.own_end)
    if not m:
        return []
    ports = []
    pos, stop = m.start(1), m.end(1)
    port_re = re.compile(rb"<port\b([^>]*?)(/?)>")
    while True:
        pm = port_re.search(xml, pos, stop)
        if not pm:
            break
        pid = _attrs(pm.group(1))["id"]
        if pm.group(2):
            ports.append(_Port(pid, pm.start(), pm.end(), pm.end(), True, ()))
            pos = pm.end()
            continue
        close = xml.index(b"</port>", pm.end(), stop + 1)
        dims = tuple((d.start(), d.end(), d.group(1)) for d in _DIM.finditer(xml, pm.end(), close))
        ports.append(_Port(pid, pm.start(), pm.end(), close + len(b"</port>"), False, dims))
        pos = close
    return ports


def _port(xml: bytes, layer: _Layer, port_id=None, section: str = "output") -> _Port:
    ports = _ports(xml, layer, section)
    if port_id is None:
        if not ports:
            raise KeyError(f"layer {layer.id} has no {section} port")
        return ports[0]
    for p in ports:
        if p.id == str(port_id):
            return p
    raise KeyError(f"layer {layer.id} has no {section} port with id {port_id!r}")


def _splice(xml: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    out, pos = [], 0
    for start, end, new in sorted(edits):
        if start < pos:
            raise AssertionError("overlapping edits")
        out += [xml[pos:start], new]
        pos = end
    out.append(xml[pos:])
    return b"".join(out)


def _dims_edits(xml: bytes, port: _Port, dims: list[int | str]) -> list[tuple[int, int, bytes]]:
    """Edits that make ``port`` carry exactly ``dims``, keeping line numbers (see module doc)."""
    new = [b"<dim>%s</dim>" % str(d).encode() for d in dims]
    if port.self_closing:
        # <port id="2" ... />  ->  <port id="2" ...><dim>..</dim></port>   (same line)
        opened = re.sub(rb"\s*/>$", b">", xml[port.start:port.end])
        return [(port.start, port.end, opened + b"".join(new) + b"</port>")]
    if not port.dims:
        return [(port.tag_end, port.tag_end, b"".join(new))]
    k = len(port.dims)
    edits = []
    for i, (s, e, _) in enumerate(port.dims):
        if i < k - 1:
            edits.append((s, e, new[i] if i < len(new) else b""))
        else:
            edits.append((s, e, b"".join(new[k - 1:])))
    return edits


def _apply_dims(xml: bytes, port: _Port, dims: list[int | str]) -> bytes:
    return _splice(xml, _dims_edits(xml, port, dims))


def _int_dims(port: _Port) -> list[int]:
    return [int(t.strip()) for _, _, t in port.dims]


# --------------------------------------------------------------------------------------------------
# inspection helpers
# --------------------------------------------------------------------------------------------------

def reshape_layer_ids(xml: bytes | str) -> list[str]:
    """Ids of the top-level layers whose ``type`` is Reshape (case-insensitive), in document order."""
    layers, _ = _scan(_b(xml))
    return [lay.id for lay in sorted(layers.values(), key=lambda x: x.start) if lay.type.lower() == "reshape"]


def port_dims(xml: bytes | str, layer_id, port_id=None, section: str = "output") -> list[int]:
    """Declared dims of a port (default: first output port)."""
    x = _b(xml)
    return _int_dims(_port(x, _layer(x, layer_id), port_id, section))


def _pattern_source(xml: bytes, layer_id) -> tuple[_Layer, _Edge, _Layer, dict[str, _Layer], list[_Edge]]:
    layers, edges = _scan(xml)
    reshape = layers.get(str(layer_id))
    if reshape is None:
        raise KeyError(f"no top-level layer with id {layer_id!r}")
    in_ports = _ports(xml, reshape, "input")
    if len(in_ports) < 2:
        raise ValueError(f"layer {layer_id} has fewer than 2 input ports")
    pid = in_ports[1].id
    for e in edges:
        if e.to_layer == reshape.id and e.to_port == pid:
            return reshape, e, layers[e.from_layer], layers, edges
    raise ValueError(f"no edge into port {pid} of layer {layer_id}")


def _const_data(xml: bytes, const: _Layer) -> tuple[re.Match, dict[str, str]]:
    m = re.compile(rb"<data\b([^>]*?)/?>").search(xml, const.tag_end, const.own_end)
    if not m:
        raise ValueError(f"Const layer {const.id} has no <data>")
    return m, _attrs(m.group(1))


def pattern_const_values(xml: bytes | str, bin: bytes, reshape_layer_id) -> list[int] | None:
    """Values of the Const feeding port 1 of a Reshape (as OpenVINO reads them, unsigned wrap aside), or None
    if port 1 is not fed by a ``Const`` layer or its element type is not a plain integer type."""
    x = _b(xml)
    _, _, src, _, _ = _pattern_source(x, reshape_layer_id)
    if src.type != "Const":
        return None
    _, a = _const_data(x, src)
    dt = _NP.get(a.get("element_type", ""))
    if dt is None:
        return None
    shape = [int(s) for s in a.get("shape", "").replace(" ", "").split(",") if s]
    n = int(np.prod(shape)) if shape else 1
    off = int(a["offset"])
    return np.frombuffer(bin, dtype=dt, count=n, offset=off).astype(object).tolist()


# --------------------------------------------------------------------------------------------------
# corruptions
# --------------------------------------------------------------------------------------------------

def set_port_dims(xml: bytes | str, layer_id, port_id, dims: list[int], section: str | None = None) -> bytes:
    """Replace all ``<dim>``s of port ``port_id`` of a layer (input or output; found by id unless ``section``)."""
    x = _b(xml)
    lay = _layer(x, layer_id)
    sections = [section] if section else ["input", "output"]
    for sec in sections:
        try:
            port = _port(x, lay, port_id, sec)
        except KeyError:
            continue
        return _apply_dims(x, port, list(dims))
    raise KeyError(f"layer {layer_id} has no port {port_id!r}")


def corrupt_declared_dim(xml: bytes | str, layer_id, dim_index: int, new_value: int, port_id=None) -> bytes:
    """Set one declared output dim (``dim_index`` may be negative). Raises ValueError if nothing changes."""
    x = _b(xml)
    port = _port(x, _layer(x, layer_id), port_id, "output")
    if not port.dims:
        raise ValueError(f"output port {port.id} of layer {layer_id} has no <dim>")
    s, e, old = port.dims[dim_index]
    if old.strip() == str(new_value).encode():
        raise ValueError(f"dim {dim_index} of layer {layer_id} is already {new_value}")
    return _splice(x, [(s, e, b"<dim>%d</dim>" % new_value)])


def corrupt_rank(xml: bytes | str, layer_id, add_or_remove: str | int, *, value: int = 1, port_id=None) -> bytes:
    """``"add"`` (or ``+1``): append ``<dim>value</dim>`` after the last dim of the output port, on the same line.
    ``"remove"`` (or ``-1``): delete the last ``<dim>`` (its line stays, blank)."""
    x = _b(xml)
    lay = _layer(x, layer_id)
    port = _port(x, lay, port_id, "output")
    op = {"add": 1, "+1": 1, 1: 1, "remove": -1, "-1": -1, -1: -1}.get(add_or_remove)
    if op is None:
        raise ValueError(f"add_or_remove must be 'add' or 'remove', not {add_or_remove!r}")
    if op == 1:
        new = b"<dim>%d</dim>" % value
        if port.dims:
            _, e, _ = port.dims[-1]
            return _splice(x, [(e, e, new)])
        return _apply_dims(x, port, [value])
    if not port.dims:
        raise ValueError(f"output port {port.id} of layer {layer_id} has no <dim> to remove")
    s, e, _ = port.dims[-1]
    # drop the dim; if it was alone on its line, drop the indentation too but keep the (now blank) line
    line_start = x.rfind(b"\n", 0, s) + 1
    eol = x.find(b"\n", e)
    eol = len(x) if eol < 0 else eol
    if not x[line_start:s].strip() and not x[e:eol].strip():
        return _splice(x, [(line_start, eol, b"")])
    return _splice(x, [(s, e, b"")])


def corrupt_input_port_dims(xml: bytes | str, layer_id, port_id, dims: list[int]) -> bytes:
    """Replace the declared dims of input port ``port_id`` of a layer with ``dims``."""
    return set_port_dims(xml, layer_id, port_id, dims, section="input")


def corrupt_with_consumers(xml: bytes | str, layer_id, dim_index: int, new_value: int, port_id,
                           consumers: list[tuple[str, str, list[int]]]) -> bytes:
    """:func:`corrupt_declared_dim`, and the same dim of each consumer's input port (``consumers``: layer id, port
    id, the port's dims) changed to match: a lie its neighbours repeat."""
    data = corrupt_declared_dim(xml, layer_id, dim_index, new_value, port_id)
    for cid, cport, dims in consumers:
        dims = list(dims)
        dims[dim_index] = new_value
        data = corrupt_input_port_dims(data, cid, cport, dims)
    return data


def flip_special_zero(xml: bytes | str, layer_id) -> bytes:
    """Toggle ``special_zero`` of a layer (``true``/``True``/``1`` <-> ``false``/``False``/``0``).
    A missing attribute (OpenVINO default false) becomes ``special_zero="true"``; an unparsable value
    (also read as false) becomes ``"true"``."""
    x = _b(xml)
    lay = _layer(x, layer_id)
    dm = re.compile(rb"<data\b([^>]*?)(/?)>").search(x, lay.tag_end, lay.own_end)
    if dm is None:
        return _splice(x, [(lay.tag_end, lay.tag_end, b'<data special_zero="true" />')])
    am = re.compile(rb'(\bspecial_zero\s*=\s*")([^"]*)(")').search(x, dm.start(), dm.end())
    if am is None:
        pos = dm.start(1)
        return _splice(x, [(pos, pos, b' special_zero="true"')])
    old = am.group(2)
    flips = {b"true": b"false", b"false": b"true", b"1": b"0", b"0": b"1"}
    low = old.lower()
    if low in flips:
        new = flips[low]
        if old.isupper():
            new = new.upper()
        elif old[:1].isupper():
            new = new.capitalize()
    else:
        new = b"true"
    return _splice(x, [(am.start(2), am.end(2), new)])


def corrupt_shape_const(xml: bytes | str, bin: bytes, reshape_layer_id, new_values: list[int]) -> tuple[bytes, bytes]:
    """Give the Reshape's port-1 Const the values ``new_values`` (encoded in the Const's ``element_type``).

    The original .bin bytes are never touched (blobs are deduplicated: identical bytes of several Const layers
    share one offset). The new blob is appended to a copy of the .bin and the Const's ``offset``/``size`` are
    repointed. If the Const *layer* feeds other layers too, it is cloned (new id, on the same line as the
    original ``</layer>``) and only this Reshape's edge is moved to the clone. If the length changes, the
    Const's ``shape``, its output ``<dim>`` and the Reshape's port-1 ``<dim>`` are updated too, so the only
    inconsistency is the pattern value itself. Raises ValueError if port 1 is not fed by a ``Const`` layer.
    """
    x = _b(xml)
    reshape, edge, src, layers, edges = _pattern_source(x, reshape_layer_id)
    if src.type != "Const":
        raise ValueError(f"port 1 of layer {reshape_layer_id} is fed by {src.type} layer {src.id}, not a Const")
    dm, a = _const_data(x, src)
    etype = a.get("element_type", "")
    dt = _NP.get(etype)
    if dt is None:
        raise ValueError(f"Const {src.id} has element_type {etype!r}; only i8..i64/u8..u64 are supported")
    info = np.iinfo(np.dtype(dt))
    vals = [int(v) for v in new_values]
    if info.min == 0:
        vals = [v % (info.max + 1) for v in vals]      # -1 -> 2**bits - 1, as the raw bytes would be
    elif any(v < info.min or v > info.max for v in vals):
        raise ValueError(f"values {new_values} do not fit {etype}")
    blob = np.array(vals, dtype=dt).tobytes()
    new_bin = bytes(bin) + blob
    offset, size = len(bin), len(blob)

    old_shape = [int(s) for s in a.get("shape", "").replace(" ", "").split(",") if s]
    length_changed = old_shape != [len(vals)]
    shared = sum(1 for e in edges if e.from_layer == src.id) > 1

    def data_tag(tag: bytes) -> bytes:
        tag = re.sub(rb'(\boffset=")\d+(")', rb"\g<1>%d\2" % offset, tag)
        tag = re.sub(rb'(\bsize=")\d+(")', rb"\g<1>%d\2" % size, tag)
        if length_changed:
            tag = re.sub(rb'(\bshape=")[^"]*(")', rb"\g<1>%d\2" % len(vals), tag)
        return tag

    edits: list[tuple[int, int, bytes]] = []
    reshape_in1 = _ports(x, reshape, "input")[1]
    if length_changed:
        edits += _dims_edits(x, reshape_in1, [len(vals)])

    if not shared:
        edits.append((dm.start(), dm.end(), data_tag(dm.group(0))))
        if length_changed:
            edits += _dims_edits(x, _port(x, src, None, "output"), [len(vals)])
        return _splice(x, edits), new_bin

    # clone the Const layer onto the line of its own </layer>, repoint this Reshape's edge
    new_id = str(max(int(i) for i in layers) + 1)
    text = x[src.start:src.end]
    rel = lambda pos: pos - src.start  # noqa: E731
    clone_edits = [(rel(dm.start()), rel(dm.end()), data_tag(dm.group(0)))]
    if length_changed:
        out_port = _port(x, src, None, "output")
        clone_edits += [(rel(s), rel(e), n) for s, e, n in _dims_edits(x, out_port, [len(vals)])]
    text = _splice(text, clone_edits)
    text = re.sub(rb'^(<layer\b[^>]*?\bid=")[^"]*(")', rb"\g<1>%s\2" % new_id.encode(), text, count=1)
    text = re.sub(rb'^(<layer\b[^>]*?\bname=")([^"]*)(")', rb"\g<1>\2/irtools_clone_%s\3" % new_id.encode(),
                  text, count=1)
    text = re.sub(rb'\s+names="[^"]*"', b"", text)           # tensor names must stay unique
    text = re.sub(rb">\s+<", b"><", text)                    # one line
    edits.append((src.end, src.end, text))
    edge_text = x[edge.start:edge.end]
    edges_new = re.sub(rb'(\bfrom-layer=")[^"]*(")', rb"\g<1>%s\2" % new_id.encode(), edge_text, count=1)
    edits.append((edge.start, edge.end, edges_new))
    return _splice(x, edits), new_bin


# --------------------------------------------------------------------------------------------------
# all single faults
# --------------------------------------------------------------------------------------------------

def _other_value(d: int) -> int:
    return d + 1 if d >= 0 else 3


def iter_single_faults(xml: bytes | str, bin: bytes) -> Iterator[tuple[str, str, bytes, bytes]]:
    """Yield ``(description, target_layer_id, xml2, bin2)`` for single faults of every top-level Reshape layer:

    * ``declared_dim[i]``: each declared output dim changed (static ``d`` -> ``d+1``; ``-1`` -> ``3``);
    * ``rank+1`` (appends ``<dim>1</dim>``) and ``rank-1`` (drops the last dim; only if rank > 0);
    * ``special_zero flipped``: only if port 1 is an integer Const containing a 0 that does not sit over a static 0
      input dim (otherwise the flip is a no-op;
      for computed ShapeOf patterns it was a no-op in every exported model, so those are not yielded either);
    * ``input0_dim``: the first static declared dim of input port 0 changed (the first dim if none is static);
    * if port 1 is fed by an integer Const: ``pattern+[1]`` (a trailing 1 appended: usually still loads, so the
      declared output rank becomes stale) and ``pattern[k]`` (the first value > 1 incremented, if any).

    ``bin2`` is ``bin`` itself unless the fault is in the pattern. Declared-dim, rank and input-dim faults never
    change what ``read_model`` infers (OpenVINO ignores declared dims). special_zero and pattern faults may make
    ``read_model`` fail, often *downstream* of the Reshape (a Transpose/MatMul/SDPA rejecting the new shape), or
    load with a different inferred output for the target Reshape (and for layers after it).
    """
    x = _b(xml)
    for lid in reshape_layer_ids(x):
        lay = _layer(x, lid)
        tag = f"layer {lid} ({lay.name})"
        out = _port(x, lay, None, "output")
        dims = _int_dims(out)
        for i, d in enumerate(dims):
            nv = _other_value(d)
            yield (f"{tag}: declared_dim[{i}] {d} -> {nv}", lid, corrupt_declared_dim(x, lid, i, nv), bin)
        yield f"{tag}: rank+1 (dims {dims} + [1])", lid, corrupt_rank(x, lid, "add"), bin
        if dims:
            yield f"{tag}: rank-1 (dims {dims} -> {dims[:-1]})", lid, corrupt_rank(x, lid, "remove"), bin
        try:
            vals = pattern_const_values(x, bin, lid)
        except (KeyError, ValueError):
            vals = None
        in0 = _ports(x, lay, "input")
        in_dims = _int_dims(in0[0]) if in0 and in0[0].dims else []
        # a 0 over a static input 0 means the same either way: flipping special_zero there changes nothing
        if vals is not None and any(v == 0 and not (i < len(in_dims) and in_dims[i] == 0) for i, v in enumerate(vals)):
            yield f"{tag}: special_zero flipped (pattern {vals})", lid, flip_special_zero(x, lid), bin
        if in0 and in0[0].dims:
            idims = _int_dims(in0[0])
            j = next((k for k, d in enumerate(idims) if d >= 0), 0)
            new = list(idims)
            new[j] = _other_value(idims[j])
            yield (f"{tag}: input0_dim[{j}] {idims[j]} -> {new[j]}", lid,
                   corrupt_input_port_dims(x, lid, in0[0].id, new), bin)
        if vals is not None:
            x2, b2 = corrupt_shape_const(x, bin, lid, vals + [1])
            yield f"{tag}: pattern+[1] ({vals} -> {vals + [1]})", lid, x2, b2
            k = next((k for k, v in enumerate(vals) if 1 < v < 2**31 - 1), None)
            if k is not None:
                nv = list(vals)
                nv[k] += 1
                x2, b2 = corrupt_shape_const(x, bin, lid, nv)
                yield f"{tag}: pattern[{k}] {vals[k]} -> {nv[k]} ({vals} -> {nv})", lid, x2, b2
