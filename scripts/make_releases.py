"""Regenerate ``src/irreshape/shapes/releases.py``: what each openvino release's ``read_model`` reads, measured with
each release's own wheel (scripts/ovreleases.py: one venv per release, made when missing).

Small IR files are written, one per case, and every release reads them all (one python process per release, two
releases at a time); each case is judged against 2026.4.1's verdict on the same file:

* ``op``: a layer of type T with ``version="opsetN"``, for every op type of every opset of 2026.4.1 (on two f32
  Parameters: what happens after the reader found the op is not the opset's doing): the release knows no opsetN
  ("Cannot create T layer NAME id:ID from unsupported opset: opsetN") or its opsetN lacks T ("Opset opsetN doesn't
  contain the operation with type: T");
* ``etype``: a Parameter and a Const of each element type (``element_type``, its port's precision to match) and
  an f32 Parameter whose port's precision names the type;
* ``value``: every op version's attribute whose value is an enum member or an element type, with each member
  (``rounding_type="ceil_torch"``): the release's IR reader cannot parse it ("... is not a member of enum ...");
* ``check``: the other reader checks measured: two layers of one name, the file whose document ends within the
  first 512 bytes.

The table keeps, per thing, the first release from which every later release reads it (absent: every release
does), and each refusal's words per release, with the layer's name, id, type and opset as placeholders.

    python scripts/make_releases.py [--cache FILE] [--releases 2023.0.0,2024.0.0]
"""

from __future__ import annotations

import argparse
import json
import pprint
import re
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

from irreshape.core.etypes import precision  # noqa: E402
from irreshape.shapes.opsets import DEFAULTS, OPSETS  # noqa: E402
from irreshape.shapes.schema import ELEMENT_TYPES, schema_of  # noqa: E402
from irtools.attrprobe import PARSE_ERROR, model_xml  # noqa: E402
from ovreleases import RELEASES, read_all, words  # noqa: E402

OUT = ROOT / "src" / "irreshape" / "shapes" / "releases.py"
NAME, ID = "probe_layer", "2"  # the probed layer's name and id (model_xml puts it after its two Parameters)
_PAD = " " * 600  # the document must not end within the first 512 bytes (measured: older releases refuse it)


def _net(layers: str, edges: str) -> str:
    return (f'<?xml version="1.0"?><net name="m" version="11"><layers>{_PAD}{layers}</layers><edges>{edges}'
            f'</edges></net>')


def _param(lid: str, name: str, etype: str, prec: str) -> str:
    return (f'<layer id="{lid}" name="{name}" type="Parameter" version="opset1"><data shape="2" '
            f'element_type="{etype}"/><output><port id="0" precision="{prec}"><dim>2</dim></port></output></layer>')


def _result(lid: str, name: str, prec: str = "FP32") -> str:
    return (f'<layer id="{lid}" name="{name}" type="Result" version="opset1"><input><port id="0" '
            f'precision="{prec}"><dim>2</dim></port></input></layer>')


def _edge(a: str, b: str) -> str:
    return f'<edge from-layer="{a}" from-port="0" to-layer="{b}" to-port="0"/>'


def cases() -> list[tuple[tuple, str, bytes | None]]:
    """(key, XML, .bin or None) of every case."""
    out: list[tuple[tuple, str, bytes | None]] = []
    for n, table in OPSETS.items():
        for t in table:
            out.append((("op", n, t), model_xml(t, table[t], {}, opset=n, name=NAME), None))
    n = max(OPSETS) + 1  # an opset no release knows: the words of the refusal
    out.append((("op", n, "Relu"), model_xml("Relu", 0, {}, opset=n, name=NAME), None))
    for t in ELEMENT_TYPES:
        p = precision("dynamic" if t == "undefined" else t)
        # the element_type attribute alone (the port's precision FP32), the precision alone
        out.append((("etype", "param", t, "FP32"), _net(_param(ID, NAME, t, "FP32") + _result("3", "r"),
                                                        _edge(ID, "3")), None))
        out.append((("etype", "precision", t),
                    _net(_param(ID, NAME, "f32", p) + _result("3", "r", p), _edge(ID, "3")), None))
        const = (f'<layer id="{ID}" name="{NAME}" type="Const" version="opset1"><data element_type="{t}" shape="2" '
                 f'offset="0" size="16"/><output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>')
        out.append((("etype", "const", t, "FP32"), _net(const + _result("3", "r"), _edge(ID, "3")), bytes(64)))
    for (op, v), defaults in sorted(DEFAULTS.items()):
        for a in schema_of(op, v, defaults).attrs:
            if a.kind in ("enum", "etype") and not (op in ("Parameter", "Constant") and a.name == "element_type"):
                for value in a.members:
                    out.append((("value", op, v, a.name, value), model_xml(op, v, {a.name: value}, name=NAME), None))
    # each input of each op version's small valid model (tests/irtools/typesweep) given the dynamic element type:
    # what an older release's validation refuses there
    from irtools import typesweep
    for t, v in typesweep.units():
        try:
            built = typesweep.models(t, v)
        except Exception:  # noqa: BLE001  an op version the sweep has no valid model of
            continue
        for k, (xml, weights, params) in enumerate(built):
            for p in params:
                m = re.fullmatch(r"in(\d+)", p)
                if m:
                    out.append((("dynin", t, v, k, int(m.group(1))), typesweep.retype(xml, p, "dynamic"), weights))
    # two layers of one name (Parameters; Results; an op), the name of a Parameter and a Result
    two = _param("0", "dup", "f32", "FP32") + _param("1", "dup", "f32", "FP32")
    out.append((("check", "name", "Parameter"), _net(two + _result("2", "r0") + _result("3", "r1"),
                                                      _edge("0", "2") + _edge("1", "3")), None))
    out.append((("check", "name", "Result"), _net(_param("0", "a", "f32", "FP32") + _param("1", "b", "f32", "FP32")
                                                   + _result("2", "dup") + _result("3", "dup"),
                                                   _edge("0", "2") + _edge("1", "3")), None))
    relus = "".join(f'<layer id="{i}" name="dup" type="Relu" version="opset1"><input><port id="0" precision="FP32">'
                    f'<dim>2</dim></port></input><output><port id="1" precision="FP32"><dim>2</dim></port></output>'
                    f'</layer>' for i in ("1", "2"))
    out.append((("check", "name", "Relu"), _net(_param("0", "a", "f32", "FP32") + relus + _result("3", "r0")
                                                 + _result("4", "r1"),
                                                 '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>'
                                                 '<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>'
                                                 '<edge from-layer="1" from-port="1" to-layer="3" to-port="0"/>'
                                                 '<edge from-layer="2" from-port="1" to-layer="4" to-port="0"/>'), None))
    out.append((("check", "name", "Parameter-Result"), _net(_param("0", "dup", "f32", "FP32") + _result("1", "dup"),
                                                            _edge("0", "1")), None))
    # a layer no Result depends on, in an opset no release knows
    dead = ('<layer id="2" name="dead" type="Relu" version="opset99"><input><port id="0" precision="FP32"><dim>2</dim>'
            '</port></input><output><port id="1" precision="FP32"><dim>2</dim></port></output></layer>')
    out.append((("check", "dead"), _net(_param("0", "a", "f32", "FP32") + _result("1", "r") + dead,
                                        _edge("0", "1") + _edge("0", "2")), None))
    small = _net(_param("0", "a", "f32", "FP32") + _result("1", "r"), _edge("0", "1")).replace(_PAD, "")
    out.append((("check", "small"), small, None))
    return out


def probe(keys: list[tuple], files: list[str], releases: list[str], cache: Path | None) -> dict[str, dict]:
    """release -> {repr(key): message or None}; what the cache holds is not measured again."""
    known: dict[str, dict] = json.loads(cache.read_text()) if cache and cache.exists() else {}

    def one(release: str) -> None:
        have = known.setdefault(release, {})
        todo = [i for i, k in enumerate(keys) if repr(k) not in have]
        if not todo:
            return
        t0 = time.time()
        got = read_all(release, [files[i] for i in todo])
        for i, g in zip(todo, got):
            have[repr(keys[i])] = g["e"]
        print(f"{release}: {len(todo)} cases in {time.time() - t0:.0f} s", file=sys.stderr)

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(one, releases))
    if cache:
        cache.write_text(json.dumps(known))
    return known


_OPSET_WORDS = re.compile(r"from unsupported opset")
_OP_WORDS = re.compile(r"doesn't contain the operation")


def since(refused: list[bool]) -> int | None:
    """The first release index from which no later release refuses; None where none refuses (absent key)."""
    last = max((i for i, r in enumerate(refused) if r), default=None)
    return None if last is None else last + 1


def template(text: str, subs: list[tuple[str, str]]) -> str:
    """``text`` with each value of ``subs`` (whole words) replaced by its placeholder, braces escaped."""
    text = text.replace("{", "{{").replace("}", "}}")
    for value, hole in subs:
        text = re.sub(rf"(?<![\w.]){re.escape(value)}(?![\w])", hole, text)
    return text


def ranges(per_release: list) -> tuple:
    """((first release index, value), ...): one entry where the value changes (None: no refusal)."""
    out: list = []
    for i, v in enumerate(per_release):
        if not out or out[-1][1] != v:
            out.append((i, v))
    return tuple(out)


def _path(words: str) -> str:
    """The file's path in the words as {path}."""
    return re.sub(r"(Unable to read the model: )\S+", r"\1{path}", words)


def analyse(keys: list[tuple], got: dict[str, dict]) -> dict:
    rel = [r for r in RELEASES if r in got]
    base = got[RELEASES[-1]]
    msg = {r: {k: words(got[r][repr(k)]) for k in keys} for r in rel}
    # the release's refusal of each case: its words where they are not 2026.4.1's
    def refused(r: str, k: tuple) -> str | None:
        w = msg[r][k]
        return w if w is not None and w != words(base[repr(k)]) else None

    opset_since: dict[int, int] = {}
    op_since: dict[tuple[int, str], int] = {}
    templates: dict[str, list[str | None]] = {"opset": [None] * len(rel), "op": [None] * len(rel)}
    odd: list[str] = []
    for n in sorted({k[1] for k in keys if k[0] == "op"}):
        ks = [k for k in keys if k[0] == "op" and k[1] == n]
        no_opset = [all(_OPSET_WORDS.search(msg[r][k] or "") for k in ks) for r in rel]
        s = since(no_opset)
        if n not in OPSETS:
            continue
        if s is not None:
            opset_since[n] = s
        for k in ks:
            t = k[2]
            lacks = [bool(_OP_WORDS.search(msg[r][k] or "")) for r in rel]
            s2 = since(lacks)
            if s2 is not None and s2 > (s or 0):
                op_since[(n, t)] = s2
            for i, r in enumerate(rel):
                w = msg[r][k] or ""
                if _OPSET_WORDS.search(w) or _OP_WORDS.search(w):
                    kind = "opset" if _OPSET_WORDS.search(w) else "op"
                    tpl = template(w, [(NAME, "{name}"), (ID, "{id}"), (f"opset{n}", "{version}"), (t, "{type}")])
                    if templates[kind][i] not in (None, tpl):
                        odd.append(f"{r} {k}: {tpl!r} vs {templates[kind][i]!r}")
                    templates[kind][i] = tpl
    # element types
    etype_since: dict[str, int] = {}
    etype_words: dict[str, tuple] = {}
    precision_since: dict[str, int] = {}
    for place in ("param", "const", "precision"):
        for t in ELEMENT_TYPES:
            k = ("etype", place, t) if place == "precision" else ("etype", place, t, "FP32")
            if t == "undefined":  # refused by a Result downstream ("has undefined element type"), not by the reader
                continue
            per = [refused(r, k) for r in rel]
            s = since([p is not None for p in per])
            if s is None:
                continue
            if place == "precision":
                precision_since[t] = s
                etype_words[f"precision:{t}"] = ranges(per[:s] + [None] * (len(rel) - s))
                continue
            etype_since[t] = max(etype_since.get(t, 0), s)
            etype_words[f"{place}:{t}"] = ranges(per[:s] + [None] * (len(rel) - s))
    # attribute values
    value_since: dict[tuple, int] = {}
    value_words: dict[tuple, int] = {}
    wordings: dict[tuple, int] = {}  # the words of a value's refusals (by release), {value} the value: an index
    for k in keys:
        if k[0] != "value":
            continue
        per = []
        for r in rel:
            w = msg[r][k]
            bad = w is not None and PARSE_ERROR.search(w) and not (_OPSET_WORDS.search(w) or _OP_WORDS.search(w))
            per.append(w if bad and w != words(base[repr(k)]) else None)
        s = since([p is not None for p in per])
        if s is not None:
            value = k[4]
            value_since[k[1:]] = s
            shapes = ranges([None if p is None else template(p, [(value.upper(), "{VALUE}")]).replace(
                f'"{value}"', '"{value}"') for p in per])
            value_words[k[1:]] = wordings.setdefault(shapes, len(wordings))
    # an input of the dynamic element type that an older release's validation refuses (where it knows the op)
    dynamic_input: dict[tuple, int] = {}
    dynamic_words: dict[tuple, tuple] = {}
    for k in keys:
        if k[0] != "dynin" or base[repr(k)] is not None:
            continue
        per = []
        for r in rel:
            w = msg[r][k]
            bad = w is not None and not (_OPSET_WORDS.search(w) or _OP_WORDS.search(w))
            per.append(w.splitlines()[-1] if bad else None)
        s = since([p is not None for p in per])
        key = (k[1], k[2], k[4])
        if s is not None and s > dynamic_input.get(key, 0):
            dynamic_input[key] = s
            dynamic_words[key] = ranges(per)
    checks: dict[str, tuple] = {}
    for k in keys:
        if k[0] == "check":
            per = [refused(r, k) for r in rel]
            if any(per):
                checks[":".join(map(str, k[1:]))] = ranges([_path(template(p, [("dup", "{name}")])) if p else None
                                                             for p in per])
    return {"releases": rel, "opset_since": opset_since, "op_since": op_since,
            "templates": {kind: ranges(v) for kind, v in templates.items()}, "etype_since": etype_since,
            "precision_since": precision_since, "etype_words": etype_words, "value_since": value_since,
            "value_words": value_words, "wordings": tuple(wordings), "dynamic_input": dynamic_input,
            "dynamic_words": dynamic_words, "checks": checks, "odd": odd}


def write(a: dict, cases_per_release: int, seconds: float) -> None:
    fmt = lambda x: pprint.pformat(x, width=118, compact=True)  # noqa: E731
    text = [
        '"""Generated by scripts/make_releases.py from each openvino release\'s own read_model: do not edit.',
        "",
        f"{cases_per_release} cases read by each release. An index is one into RELEASES; each",
        "``*_SINCE`` table holds the first release from which every later release reads the thing (an absent key:",
        "every release reads it).",
        "",
        "RELEASES: every release measured, oldest first.",
        "OPSET_SINCE: opset number -> the first release whose IR reader knows it.",
        "OP_SINCE: (opset number, op type as OpenVINO names it) -> the first release whose opset holds that type (only",
        "    where a release knows the opset and not the type in it).",
        "ETYPE_SINCE: element type (``element_type`` of a Parameter or Const) -> the first release that reads it.",
        "PRECISION_SINCE: element type -> the first release that reads it as a port's ``precision``.",
        "VALUE_SINCE: (op type, op version, attribute, value lower-cased) -> the first release whose IR reader parses",
        "    that value (only where the release knows the op version).",
        "WORDS: refusal kind ('opset', 'op') -> ((first release index, the words, with {name}, {id}, {type} and",
        "    {version} the layer's), ...): the words from that release on (up to the next entry).",
        "ETYPE_WORDS: 'param:t', 'const:t', 'precision:t' -> ((first release index, the words or None), ...) likewise.",
        "VALUE_WORDS: VALUE_SINCE's keys -> an index into WORDINGS: ((first release index, the words or None), ...)",
        "    likewise, {value} the value as written, {VALUE} upper-cased.",
        "DYNAMIC_INPUT_SINCE: (op type, op version, input index) -> the first release whose validation takes an input of",
        "    the dynamic element type there (only where it knows the op version); DYNAMIC_WORDS the last line of its",
        "    words likewise (the node's description before it is not kept).",
        "CHECKS: other reader checks -> ((first release index, the words, {name} the layer's, or None), ...):",
        "    'name:<type>' two layers of that type and one name; 'small' a document ending in the first 512 bytes.",
        '"""',
        "",
        f"RELEASES = {fmt(tuple(a['releases']))}",
        "",
        f"OPSET_SINCE = {fmt(a['opset_since'])}",
        "",
        f"OP_SINCE = {fmt(a['op_since'])}",
        "",
        f"ETYPE_SINCE = {fmt(a['etype_since'])}",
        "",
        f"PRECISION_SINCE = {fmt(a['precision_since'])}",
        "",
        f"VALUE_SINCE = {fmt(a['value_since'])}",
        "",
        f"WORDS = {fmt(a['templates'])}",
        "",
        f"ETYPE_WORDS = {fmt(a['etype_words'])}",
        "",
        f"VALUE_WORDS = {fmt(a['value_words'])}",
        "",
        f"WORDINGS = {fmt(a['wordings'])}",
        "",
        f"DYNAMIC_INPUT_SINCE = {fmt(a['dynamic_input'])}",
        "",
        f"DYNAMIC_WORDS = {fmt(a['dynamic_words'])}",
        "",
        f"CHECKS = {fmt(a['checks'])}",
        "",
    ]
    OUT.write_text("\n".join(text))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "irreshape-releases-probe.json",
                    help="the releases' verdicts kept between runs (only new cases are read)")
    ap.add_argument("--releases", default=",".join(RELEASES))
    ap.add_argument("--fresh", action="store_true", help="ignore the cache")
    args = ap.parse_args(argv)
    releases = args.releases.split(",")
    if RELEASES[-1] not in releases:
        releases.append(RELEASES[-1])
    t0 = time.time()
    made = cases()
    keys = [k for k, _, _ in made]
    with tempfile.TemporaryDirectory() as d:
        files = []
        for i, (_, xml, weights) in enumerate(made):
            path = Path(d) / f"c{i}.xml"
            path.write_text(xml)
            if weights is not None:
                path.with_suffix(".bin").write_bytes(weights)
            files.append(str(path))
        if args.fresh and args.cache.exists():
            args.cache.unlink()
        got = probe(keys, files, releases, args.cache)
    got = {r: got[r] for r in RELEASES if r in releases}
    a = analyse(keys, got)
    for line in a["odd"]:
        print("odd:", line, file=sys.stderr)
    write(a, len(keys), time.time() - t0)
    print(f"{len(keys)} cases x {len(got)} releases in {time.time() - t0:.0f} s; wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
