"""A differential fuzz against ``openvino.Core().read_model``: single semantic edits of real IR pairs, the way a
hand edit or a buggy script makes them, each judged by OpenVINO and by irreshape.

* :data:`KINDS` - the mutation kinds; :func:`mutate` makes one mutation of a kind from a :class:`Source`.
* :func:`openvino_verdict` - OpenVINO's judgement of an IR pair: refused (its message), or accepted with every
  top-level layer's inferred dims and element types.
* :func:`judge` - irreshape's findings on the pair against that verdict: refused files must get an error; an
  accepted file must get no error on a layer whose declared dims and precisions equal OpenVINO's, no layer of
  status ``invalid`` and no finding saying read_model refuses it.
* :func:`static_source` - a static copy of a dynamic source (its Parameters at small values, through
  ``Model.reshape``): the volume checks OpenVINO skips need static dims.

Used by ``scripts/fuzz.py`` (thousands of mutations, rates per kind) and by
``tests/checks/test_fuzz_differential.py`` (a seeded subset).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from lxml import etree

ROOT = Path(__file__).resolve().parents[2]
# ../shared/wild-ir from the repository's root (or from a worktree's, one folder further down)
WILD = next((d / "shared" / "wild-ir" for d in ROOT.parents if (d / "shared" / "wild-ir").is_dir()),
            ROOT.parent / "shared" / "wild-ir")
MODELS = ROOT / "tests" / "data" / "models"
TODAY = ROOT / "tests" / "data" / "today"  # IR written by today's exporters (scripts/export_today.py)

KINDS = ("attribute", "version", "edge", "parameter_shape", "element_type", "const_value", "precision", "dim",
         "const_shape", "pattern_volume")
# the rules that go beyond OpenVINO on purpose (the README's "Three checks go beyond OpenVINO"): an error of
# theirs on an accepted file is not a false error
BEYOND = {"IR104", "IR111"}

ELEMENT_TYPES = ("f32", "f16", "bf16", "f64", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8", "boolean",
                 "u1", "u2", "u3", "u4", "u6", "i4", "nf4", "f4e2m1", "f8e4m3", "f8e5m2", "f8e8m0", "string",
                 "bogus", "F32", "")
PRECISIONS = ("FP32", "FP16", "BF16", "FP64", "I64", "I32", "I8", "U8", "U1", "BOOL", "U64")
GARBAGE = ("bogus", "", "1.5", "-1", "0", "1", "99999", "-9223372036854775809", "9223372036854775808", "1,2",
           "true", "false", "nan", "-", "2,", ",")
VERSIONS = tuple(f"opset{i}" for i in range(1, 17)) + ("opset0", "opset99", "extension", "", "opsetX", "v1")
_INT_TYPES = {"i8": "<i1", "i16": "<i2", "i32": "<i4", "i64": "<i8", "u8": "<u1", "u16": "<u2", "u32": "<u4",
              "u64": "<u8"}


@dataclass
class Source:
    """A real IR pair, read once."""

    path: Path
    xml: bytes
    bin: bytes

    @classmethod
    def load(cls, path: Path) -> "Source":
        return cls(path, path.read_bytes(), path.with_suffix(".bin").read_bytes())

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def group(self) -> str:
        """"today" for IR written by today's exporters, "classic" for the rest."""
        return "today" if self.path.parent == TODAY else "classic"


def sources(wild: bool = True, models: bool = True, today: bool = True) -> list[Path]:
    """The real IR pairs to mutate: ../shared/wild-ir, tests/data/models and tests/data/today (each with its
    .bin; the tokenizer files of today's, which read_model reads only with openvino_tokenizers, are refused
    unmutated where it is not installed, and the callers skip them)."""
    out: list[Path] = []
    for folder, use in ((WILD, wild), (MODELS, models), (TODAY, today)):
        if use and folder.is_dir():
            out += sorted(p for p in folder.glob("*.xml") if p.with_suffix(".bin").exists())
    return out


@dataclass
class Mutation:
    kind: str
    source: str
    what: str  # the edit, for a report: "Gather 'g' batch_dims: '0' -> 'abc'"
    layer_type: str
    xml: bytes
    bin: bytes


def _top_layers(root) -> list:
    layers = root.find("layers")
    return [] if layers is None else list(layers.iterfind("layer"))


def _serialize(root) -> bytes:
    # lxml writes "/>"; OpenVINO's serializer " />": keep the layout a hand edit would keep
    return re.sub(rb'"/>', b'" />', etree.tostring(root, xml_declaration=True, encoding="UTF-8"))


def _data(layer):
    return layer.find("data")


def _new_value(rng: random.Random, old: str) -> str:
    """A value a hand edit or a buggy script writes in place of ``old``."""
    if rng.random() < 0.4:
        return rng.choice(GARBAGE)
    parts = old.split(",")
    i = rng.randrange(len(parts))
    p = parts[i].strip()
    if re.fullmatch(r"-?\d+", p):
        v = int(p)
        parts[i] = str(rng.choice([v + 1, v - 1, -v, 0, -1, v * 7 + 3, 2 ** 31, -2 ** 63 - 1]))
    elif re.fullmatch(r"-?[\d.]+(e-?\d+)?", p):
        parts[i] = rng.choice(["-1", "0", "1e40", "nan", "inf", "abc"])
    elif p.lower() in ("true", "false"):
        parts[i] = rng.choice([{"true": "false", "false": "true"}[p.lower()], "yes", "2", "TRUE"])
    else:
        parts[i] = rng.choice(["bogus", p.upper(), p[:-1], "none", ""])
    return ",".join(parts)


def _shape_attribute(layers: list, type_: str, rng: random.Random):
    """A layer of ``type_`` with a <data>, picked at random: (layer, its <data>, its `shape`, the dims' texts)."""
    cands = [lay for lay in layers if lay.get("type") == type_ and _data(lay) is not None]
    if not cands:
        return None
    lay = rng.choice(cands)
    old = _data(lay).get("shape", "")
    return lay, _data(lay), old, [t for t in old.split(",") if t.strip()]


def mutate(src: Source, kind: str, rng: random.Random) -> Mutation | None:
    """One mutation of ``kind``, or None where the source has nothing to mutate that way."""
    root = etree.fromstring(src.xml, etree.XMLParser(huge_tree=True, remove_comments=False))
    layers = _top_layers(root)
    bin_ = src.bin

    def done(what: str, layer) -> Mutation:
        return Mutation(kind, src.name, what, layer.get("type", "") if layer is not None else "", _serialize(root),
                        bin_)

    if kind == "attribute":
        cands = [(lay, k) for lay in layers if lay.get("type") not in ("Const", "Parameter")
                 for d in [_data(lay)] if d is not None for k in d.attrib]
        if not cands:
            return None
        lay, k = rng.choice(cands)
        d = _data(lay)
        old = d.get(k)
        new = _new_value(rng, old)
        if new == old:
            return None
        d.set(k, new)
        return done(f"{lay.get('type')} '{lay.get('name')}' {k}: {old!r} -> {new!r}", lay)
    if kind == "version":
        lay = rng.choice(layers)
        old = lay.get("version")
        new = rng.choice([v for v in VERSIONS if v != old])
        lay.set("version", new)
        return done(f"{lay.get('type')} '{lay.get('name')}' version: {old!r} -> {new!r}", lay)
    if kind == "edge":
        edges = root.find("edges")
        if edges is None or not len(edges):
            return None
        edge = rng.choice(list(edges))
        order = {lay.get("id"): i for i, lay in enumerate(layers)}
        to = edge.get("to-layer")
        outs = [(lay.get("id"), p.get("id"), lay.get("type")) for lay in layers if lay.get("id") != to
                for o in [lay.find("output")] if o is not None for p in o.iterfind("port")]
        before = [o for o in outs if order.get(o[0], 0) < order.get(to, 0)]
        pool = before if before and rng.random() < 0.8 else outs
        if not pool:
            return None
        lid, pid, _ = rng.choice(pool)
        old = (edge.get("from-layer"), edge.get("from-port"))
        if old == (lid, pid):
            return None
        edge.set("from-layer", lid)
        edge.set("from-port", pid)
        target = next((lay for lay in layers if lay.get("id") == to), None)
        return done(f"edge into {to}:{edge.get('to-port')}: from {old[0]}:{old[1]} -> {lid}:{pid}", target)
    if kind == "parameter_shape":
        picked = _shape_attribute(layers, "Parameter", rng)
        if picked is None:
            return None
        lay, d, old, dims = picked
        how = rng.choice(["dim", "dim", "add", "drop", "garbage"])
        if how == "dim" and dims:
            i = rng.randrange(len(dims))
            dims[i] = rng.choice(["1", "2", "3", "7", "?", "-1", "0", "1..8", str(int(dims[i]) + 1)
                                  if dims[i].strip().isdigit() else "5"])
            new = ",".join(dims)
        elif how == "add":
            new = ",".join(dims + [rng.choice(["1", "2", "?"])])
        elif how == "drop" and dims:
            new = ",".join(dims[:-1])
        else:
            new = rng.choice(["bogus", "1,,2", "-2", "1,x", "[1,2]", "..", "50000000,50000000"])
        if new == old:
            return None
        d.set("shape", new)
        return done(f"Parameter '{lay.get('name')}' shape: {old!r} -> {new!r}", lay)
    if kind == "element_type":
        cands = [lay for lay in layers if lay.get("type") in ("Parameter", "Const") and _data(lay) is not None]
        if not cands:
            return None
        lay = rng.choice(cands)
        d = _data(lay)
        old = d.get("element_type")
        new = rng.choice([t for t in ELEMENT_TYPES if t != old])
        d.set("element_type", new)
        return done(f"{lay.get('type')} '{lay.get('name')}' element_type: {old!r} -> {new!r}", lay)
    if kind == "const_value":
        cands = []
        for lay in layers:
            d = _data(lay)
            if lay.get("type") != "Const" or d is None or d.get("element_type") not in _INT_TYPES:
                continue
            try:
                shape = [int(s) for s in d.get("shape", "").split(",") if s.strip()]
                n, off, size = int(np.prod(shape)) if shape else 1, int(d.get("offset")), int(d.get("size"))
            except (TypeError, ValueError):
                continue
            dt = np.dtype(_INT_TYPES[d.get("element_type")])
            if 0 < n <= 16 and size == n * dt.itemsize and off + size <= len(bin_):
                cands.append((lay, dt, n, off))
        if not cands:
            return None
        lay, dt, n, off = rng.choice(cands)
        values = np.frombuffer(bin_, dtype=dt, count=n, offset=off).copy()
        i = rng.randrange(n)
        old = int(values[i])
        new = rng.choice([0, -1, 1, 2, old + 1, old - 1, -old, old * 2, 2 ** 31 - 1, 7])
        info = np.iinfo(dt)
        new = new % (info.max + 1) if info.min == 0 else max(info.min, min(info.max, new))
        if new == old:
            return None
        values[i] = new
        bin_ = bin_[:off] + values.tobytes() + bin_[off + values.nbytes:]
        return done(f"Const '{lay.get('name')}' value [{i}]: {old} -> {new} (of {n})", lay)
    if kind in ("precision", "dim"):
        ports = [(lay, sec, p) for lay in layers for sec in ("input", "output") for s in [lay.find(sec)]
                 if s is not None for p in s.iterfind("port")]
        if kind == "dim":
            ports = [t for t in ports if t[2].find("dim") is not None]
        if not ports:
            return None
        lay, sec, port = rng.choice(ports)
        if kind == "precision":
            old = port.get("precision")
            new = rng.choice([p for p in PRECISIONS if p != old])
            port.set("precision", new)
            return done(f"{lay.get('type')} '{lay.get('name')}' {sec} port {port.get('id')} precision: "
                        f"{old!r} -> {new!r}", lay)
        dims = list(port.iterfind("dim"))
        dim = rng.choice(dims)
        old = (dim.text or "").strip()
        new = rng.choice(["1", "0", "-1", "2", "3", "64", str(int(old) + 1) if old.lstrip("-").isdigit() else "5"])
        if new == old:
            return None
        dim.text = new
        return done(f"{lay.get('type')} '{lay.get('name')}' {sec} port {port.get('id')} dim {dims.index(dim)}: "
                    f"{old} -> {new}", lay)
    if kind == "const_shape":
        picked = _shape_attribute(layers, "Const", rng)
        if picked is None:
            return None
        lay, d, old, dims = picked
        how = rng.choice(["huge", "dim", "add", "drop"])
        if how == "huge":
            new = rng.choice(["50000000", "50000000," + old if old else "50000000", "100000,100000,100000"])
        elif how == "dim" and dims:
            i = rng.randrange(len(dims))
            dims[i] = rng.choice(["0", "1", "2", str(int(dims[i]) * 2) if dims[i].strip().isdigit() else "3"])
            new = ",".join(dims)
        elif how == "add":
            new = ",".join(dims + ["1"])
        else:
            new = ",".join(dims[:-1])
        if new == old:
            return None
        d.set("shape", new)
        return done(f"Const '{lay.get('name')}' shape: {old!r} -> {new!r}", lay)
    if kind == "pattern_volume":
        return _pattern_volume(src, root, layers, rng, done)
    raise ValueError(f"unknown mutation kind {kind!r}")


def _const_values(layer, bin_: bytes):
    """A Const's integer values, its dtype and offset (None where it is not a small integer Const the .bin holds)."""
    d = _data(layer)
    if layer.get("type") != "Const" or d is None or d.get("element_type") not in _INT_TYPES:
        return None
    try:
        shape = [int(t) for t in d.get("shape", "").split(",") if t.strip()]
        off, size = int(d.get("offset")), int(d.get("size"))
    except (TypeError, ValueError):
        return None
    dt = np.dtype(_INT_TYPES[d.get("element_type")])
    n = int(np.prod(shape)) if shape else 1
    if len(shape) != 1 or not 0 < n <= 16 or size != n * dt.itemsize or off + size > len(bin_):
        return None
    return np.frombuffer(bin_, dtype=dt, count=n, offset=off).copy(), dt, off


def _pattern_volume(src: "Source", root, layers: list, rng: random.Random, done) -> "Mutation | None":
    """A Reshape's Const pattern that holds a special zero or a -1 edited where it is neither (the zeros and the -1
    kept): OpenVINO then skips the volume check, so the volumes may disagree while read_model reads the file (an
    attention view's [0,0,4,8] made [0,0,4,16], or [0,4,0,8] whose input a lie upstream changed)."""
    ids = {lay.get("id"): lay for lay in layers}
    edges = root.find("edges")
    feeds = {} if edges is None else {(e.get("to-layer"), e.get("to-port")): e.get("from-layer") for e in edges}
    cands = []
    for lay in layers:
        if lay.get("type") != "Reshape" or _data(lay) is None:
            continue
        const = ids.get(feeds.get((lay.get("id"), "1")))
        got = None if const is None else _const_values(const, src.bin)
        if got is None:
            continue
        values = got[0]
        zero = (_data(lay).get("special_zero") or "").lower() == "true" and 0 in values
        keep = {i for i, v in enumerate(values) if v == -1 or (zero and v == 0)}
        if (zero or -1 in values) and len(keep) < len(values):
            cands.append((lay, const, *got, keep))
    if not cands:
        return None
    lay, const, values, dt, off, keep = rng.choice(cands)
    i = rng.choice([k for k in range(len(values)) if k not in keep])
    old = int(values[i])
    new = rng.choice([old * 2, old + 1, max(1, old // 2), 1, 3, 7])
    if new == old:
        return None
    values[i] = new
    bin_ = src.bin[:off] + values.tobytes() + src.bin[off + values.nbytes:]
    mutation = done(f"Reshape '{lay.get('name')}' pattern Const '{const.get('name')}' [{i}]: {old} -> {new} "
                    f"(of {[int(v) for v in values]}, special_zero={_data(lay).get('special_zero')})", lay)
    mutation.bin = bin_
    return mutation


# -- OpenVINO's verdict -------------------------------------------------------------------------------------------

@dataclass
class Verdict:
    """OpenVINO's reading of an IR pair: ``refused`` its message (None: accepted), else per top-level layer name
    its inferred (input shapes, output shapes, output element types), shapes as lists of ints (-1 dynamic) or
    None for a dynamic rank."""

    refused: str | None
    layers: dict[str, tuple[list, list, list]] = field(default_factory=dict)


def _dims(ps) -> list[int] | None:
    if ps.rank.is_dynamic:
        return None
    return [d.get_length() if d.is_static else -1 for d in ps]


def openvino_verdict(xml: bytes, bin: bytes) -> Verdict:
    import openvino as ov

    from .oracle import core, error_last_line
    try:
        weights = ov.Tensor(np.frombuffer(bin, dtype=np.uint8).copy()) if bin else ov.Tensor(ov.Type.u8, ov.Shape([0]))
        model = core().read_model(model=xml.decode("utf-8", "replace"), weights=weights)
    except Exception as e:  # noqa: BLE001 - any refusal is a verdict
        return Verdict(error_last_line(e) or type(e).__name__)
    layers = {}
    for node in model.get_ordered_ops():
        layers[node.get_friendly_name()] = (
            [_dims(node.get_input_partial_shape(i)) for i in range(node.get_input_size())],
            [_dims(node.get_output_partial_shape(i)) for i in range(node.get_output_size())],
            [node.get_output_element_type(i).get_type_name() for i in range(node.get_output_size())])
    return Verdict(None, layers)


# -- irreshape against the verdict ----------------------------------------------------------------------------------

def _precision(text: str | None) -> str:
    """A port's precision as the type it spells (OpenVINO's spellings, case as written: ``BIN`` is u1, ``bool``
    none, which read_model refuses on an output port), else the text itself (no type equals it)."""
    from irreshape.core.etypes import from_precision

    return from_precision(text or "") or (text or "")


def _port_dims(port) -> list[int] | None:
    try:
        return [int((d.text or "").strip()) for d in port.iterfind("dim")]
    except ValueError:
        return None


def declared(xml: bytes) -> dict[str, tuple[str, list, list, list]]:
    """Per top-level layer id: (name, input port dims, output port dims, output precisions), as the XML declares."""
    try:
        root = etree.fromstring(xml, etree.XMLParser(huge_tree=True))
    except etree.XMLSyntaxError:
        return {}
    out = {}
    for lay in _top_layers(root):
        ins = lay.find("input")
        outs = lay.find("output")
        in_ports = [] if ins is None else list(ins.iterfind("port"))
        out_ports = [] if outs is None else list(outs.iterfind("port"))
        out[lay.get("id")] = (lay.get("name"), [_port_dims(p) for p in in_ports], [_port_dims(p) for p in out_ports],
                              [_precision(p.get("precision")) for p in out_ports])
    return out


def agrees(decl: tuple[str, list, list, list], verdict: Verdict) -> bool | None:
    """Whether a layer's declared dims and precisions equal OpenVINO's (None: OpenVINO dropped the layer, or
    infers a dynamic rank, so it cannot be told)."""
    name, ins, outs, precisions = decl
    ov_layer = verdict.layers.get(name)
    if ov_layer is None:
        return None
    ov_ins, ov_outs, ov_types = ov_layer
    if any(s is None for s in ov_ins + ov_outs):
        return None
    precisions = [p for p in precisions if p]
    return (ins == ov_ins and outs == ov_outs
            and (not precisions or precisions == ov_types[:len(precisions)]))


@dataclass
class Judgement:
    refused: str | None
    errors: list  # (code, layer id or None, message) of the errors not in the baseline
    internal: list  # IR900 messages
    false_errors: list  # on an accepted file: (code, layer id, layer type, message) on a layer that agrees
    beyond: list  # errors of the rules that go beyond OpenVINO on purpose
    # on an accepted file: a layer of status invalid ("status invalid", layer id) or a finding that says read_model
    # refuses it (code, layer id, message)
    false_refusals: list = field(default_factory=list)

    @property
    def caught(self) -> bool:
        return bool(self.errors)


# what a finding says where read_model refuses the file
REFUSAL_CLAIMS = ("read_model refuses",)


def judge(findings, verdict: Verdict, xml: bytes, baseline: set = frozenset(), invalid=()) -> Judgement:
    """irreshape's findings on a mutated pair against OpenVINO's verdict. ``baseline``: (code, layer id) of the
    errors the unmutated source already has (not the mutation's doing); ``invalid``: the ids of the layers whose
    status is ``invalid`` (:func:`run_irreshape`'s ``statuses``)."""
    errors, internal, false_errors, beyond = [], [], [], []
    refusals = [] if verdict.refused is not None else [("status invalid", lid, "") for lid in invalid]
    decl = None
    for f in findings:
        if f.code == "IR900":
            internal.append(f.message)
            continue
        if verdict.refused is None and any(claim in f.message for claim in REFUSAL_CLAIMS):
            refusals.append((f.code, f.layer.id if f.layer else None, f.message))
        if f.severity != "error":
            continue
        lid = f.layer.id if f.layer else None
        if (f.code, lid) in baseline:
            continue
        errors.append((f.code, lid, f.message))
        if verdict.refused is not None:
            continue
        if f.code in BEYOND:
            beyond.append((f.code, lid, f.message))
            continue
        if decl is None:
            decl = declared(xml)
        if lid is None:
            false_errors.append((f.code, None, "", f.message))
        elif lid in decl and agrees(decl[lid], verdict):
            false_errors.append((f.code, lid, f.layer.type, f.message))
    return Judgement(verdict.refused, errors, internal, false_errors, beyond, refusals)


def run_irreshape(xml: bytes, bin: bytes, folder: Path, debug: bool = False, statuses: dict | None = None) -> list:
    """irreshape's findings on the pair (written to ``folder``), in process, through the API. With ``statuses`` (a
    dict), every layer is listed (``--layers all``) and ``statuses`` gets each top-level layer's status by id."""
    import irreshape

    path = folder / "m.xml"
    path.write_bytes(xml)
    path.with_suffix(".bin").write_bytes(bin)
    report = irreshape.check(str(path), isolated=True, jobs=1, debug=debug,
                             layers="all" if statuses is not None else None)
    if statuses is not None:
        statuses.update((lr.layer.id, str(lr.status)) for file in report.files for lr in file.layers)
    return [f for file in report.files for f in file.findings]


def invalid_ids(statuses: dict) -> set:
    return {lid for lid, status in statuses.items() if status == "invalid"}


def static_source(path: Path, folder: Path, value: int = 2) -> Path | None:
    """A static copy of the dynamic IR pair ``path`` in ``folder`` (needs openvino): every dynamic Parameter dim
    at ``value`` (the upper bound of an interval that excludes it), re-inferred by ``Model.reshape`` and saved;
    None where the source is static already or OpenVINO cannot make it static."""
    import openvino as ov

    from .oracle import core
    try:
        model = core().read_model(str(path))
        shapes, dynamic = {}, False
        for p in model.get_parameters():
            ps = p.get_partial_shape()
            if ps.rank.is_dynamic:
                return None
            dims = []
            for d in ps:
                if d.is_static:
                    dims.append(d.get_length())
                else:
                    dynamic = True
                    lo, hi = d.get_min_length(), d.get_max_length()
                    dims.append(value if lo <= value and (hi < 0 or value <= hi) else max(lo, 1))
            shapes[p.output(0)] = ov.PartialShape(dims)
        if not dynamic:
            return None
        model.reshape(shapes)
        out = folder / f"{path.stem}_static.xml"
        ov.save_model(model, str(out), compress_to_fp16=False)
    except Exception:  # noqa: BLE001 - a model OpenVINO cannot make static is not a source
        return None
    return out
