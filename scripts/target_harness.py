"""The runtime targets' differential harness: irreshape's ``refusals(model, R)`` against release R's own
``read_model`` (scripts/ovreleases.py: one venv per release), over many files:

* the fixtures: every IR under tests/data (models, today, unseen, dynamic, lint, onednn, targets/generated);
* ../shared/wild-ir beside the clone (skipped where absent);
* generated cases (written by openvino 2026.4.1's own API, tests/irtools/typesweep's small valid models): every op
  version that 2023.0.0 does not read, as its first opset and as every later opset holding it; a Parameter and a
  Const of every element type; every attribute value some release does not read, edited into a model 2026.4.1
  reads; two layers of one name. ``--write-generated`` keeps them under tests/data/targets/generated.

Only files that 2026.4.1 reads are judged. Per release: the files, how many it refuses, how many of those
irreshape refuses too and how many it refuses where the release reads (the agreement), and of the refusals
whose words name a layer (``layer NAME id:ID``, ``NAME name is not unique``), how many name the layer irreshape
gives first (:func:`irreshape.shapes.targets.first`); the words irreshape gives against the release's.

``--labels`` writes tests/data/targets/labels.json: for each fixture file in the repository, each release's
verdict (null: it reads the file; else the layer it names, by id where the words give it, and its words), as runs of
releases.

    python scripts/target_harness.py [--releases 2023.0.0,...] [--labels] [--write-generated] [-v]
"""

from __future__ import annotations

import argparse
import json
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
from irreshape.frontends.openvino import parse  # noqa: E402
from irreshape.shapes import targets  # noqa: E402
from irreshape.shapes.opsets import OPSETS  # noqa: E402
from irreshape.shapes.releases import DYNAMIC_INPUT_SINCE, OP_SINCE, OPSET_SINCE, VALUE_SINCE  # noqa: E402
from ovreleases import RELEASES, digest, read_all, words  # noqa: E402

DATA = ROOT / "tests" / "data"
GENERATED = DATA / "targets" / "generated"
LABELS = DATA / "targets" / "labels.json"
WILD = ROOT.parent / "shared" / "wild-ir"
CACHE = Path(tempfile.gettempdir()) / "irreshape-harness-cache.json"  # the releases' verdicts by file content
_NAMED = re.compile(r"layer (\S+) id:(\S+) from")
_UNIQUE = re.compile(r"(\S+) name is not unique")


def _nopath(words: str) -> str:
    """The words without the file's path (a tiny file's refusal names it; the cache may hold another copy's)."""
    return re.sub(r"(Unable to read the model: )\S+", r"\1<path>", words)


def _same_words(ours: str, theirs: str) -> bool:
    """irreshape's words are the release's (but the file's path), or their last line where the release describes
    the node before it (a validation's words)."""
    ours, theirs = _nopath(ours), _nopath(theirs)
    return ours == theirs or ("\n" in theirs and theirs.endswith("\n" + ours))


def fixtures() -> list[Path]:
    out = []
    for p in sorted(DATA.rglob("*.xml")):
        try:
            head = p.read_bytes()[:4096]
        except OSError:
            continue
        if b"<net" in head:
            out.append(p)
    return out


def _first_opset(t: str, v: int) -> int:
    return min(n for n, table in OPSETS.items() if table.get(t) == v)


def _not_in_2023_0(t: str, v: int) -> bool:
    n = _first_opset(t, v)
    return OPSET_SINCE.get(n, 0) > 0 or OP_SINCE.get((n, t), 0) > 0


def generated() -> list[tuple[str, str, bytes]]:
    """(file name, XML, .bin) of each generated case."""
    from irtools import typesweep
    from make_releases import cases as probe_cases
    out: list[tuple[str, str, bytes]] = []
    versions = sorted({(t, v) for table in OPSETS.values() for t, v in table.items()})
    base: dict[tuple[str, int], tuple[str, bytes]] = {}
    for t, v in versions:
        try:
            made = typesweep.models(t, v)
        except Exception:  # noqa: BLE001  an op version typesweep has no valid case for
            made = []
        if made:
            base[(t, v)] = made[0][:2]
    for (t, v), (xml, weights) in sorted(base.items()):
        if not _not_in_2023_0(t, v):
            continue
        first = _first_opset(t, v)
        out.append((f"op_{t}-{v}", xml, weights))
        for n in sorted(OPSETS):  # the same op version named in each later opset holding it
            if n > first and OPSETS[n].get(t) == v:
                out.append((f"op_{t}-{v}_opset{n}", xml.replace(f'version="opset{first}"', f'version="opset{n}"'),
                            weights))
    for key, xml, weights in probe_cases():
        # an element type as the attribute alone, and with its ports' precision to match (as the serializer writes
        # it); "undefined" is left out: older releases refuse it at a Result downstream, not modelled
        if key[0] == "etype" and key[1] in ("param", "const") and key[2] != "undefined":
            out.append((f"etype_{key[1]}_{key[2]}", xml, weights or b""))
            p = precision("dynamic" if key[2] == "undefined" else key[2])
            out.append((f"etype_{key[1]}_{key[2]}_{p}", xml.replace('precision="FP32"', f'precision="{p}"'),
                        weights or b""))
    for (t, v, attr, value) in sorted(VALUE_SINCE):
        if (t, v) not in base:
            continue
        xml, weights = base[(t, v)]
        edited, n = re.subn(rf'(<data [^>]*\b{attr}=")[^"]*(")', rf"\g<1>{value}\g<2>", xml, count=1)
        if n:
            out.append((f"value_{t}-{v}_{attr}_{value}", edited, weights))
    out += _edits(base)
    for key, xml, weights in probe_cases():  # the probe's other reader checks: duplicate names, a dead layer, ...
        if key[0] == "check":
            out.append((f"check_{'_'.join(map(str, key[1:]))}", xml, weights or b""))
        if key[0] == "dynin" and (key[1], key[2], key[4]) in DYNAMIC_INPUT_SINCE:
            out.append((f"dynamic_{key[1]}-{key[2]}_{key[3]}_in{key[4]}", xml, weights or b""))
    # two layers of one name: every op of a model named as its first Parameter
    for t, v in (("MaxPool", 14), ("Relu", 0), ("Add", 1), ("Col2Im", 15)):
        if (t, v) in base:
            xml, weights = base[(t, v)]
            names = re.findall(r'<layer id="\d+" name="([^"]+)" type="Parameter"', xml)
            if names:
                dup = re.sub(rf'(<layer id="\d+" name=")[^"]+(" type="{t}")', rf"\g<1>{names[0]}\g<2>", xml, flags=re.I)
                out.append((f"name_{t}-{v}", dup, weights))
    return out


def retyped(n: int, seed: int = 30) -> list[tuple[str, str, bytes]]:
    """A seeded sample of ``n`` of tests/irtools/typesweep's files: a Parameter of an op version's small valid model
    given another element type (what an older release's validation may take differently)."""
    import random

    from irtools import typesweep
    todo = []
    for t, v in typesweep.units():
        try:
            built = typesweep.models(t, v)
        except Exception:  # noqa: BLE001
            continue
        for k, (xml, weights, params) in enumerate(built):
            for p in params:
                for to in typesweep.RETYPES:
                    todo.append((f"retyped_{t}-{v}_{k}_{p}_{to}", xml, weights, p, to))
    rng = random.Random(seed)
    return [(name, typesweep.retype(xml, p, to), weights)
            for name, xml, weights, p, to in rng.sample(todo, min(n, len(todo)))]


def _sub(xml: str, pattern: str, repl: str) -> str | None:
    edited, n = re.subn(pattern, repl, xml, count=1, flags=re.S)
    return edited if n else None


def _edits(base: dict[tuple[str, int], tuple[str, bytes]]) -> list[tuple[str, str, bytes]]:
    """Hand edits a script or a person makes: in a TensorIterator's, Loop's or If's body (an op named in a newer
    opset, a duplicate name, a new precision), a type in lower case, a value in upper case, an op's output or input
    port given a new precision."""
    out: list[tuple[str, str, bytes]] = []

    def add(name: str, made: "tuple[str, bytes] | None", pattern: str, repl: str) -> None:
        if made is not None:
            edited = _sub(made[0], pattern, repl)
            if edited is not None:
                out.append((name, edited, made[1]))
    body_ops = {("TensorIterator", 0): ("ReLU", "opset1"), ("Loop", 5): ("Add", "opset1"), ("If", 8): ("Add", "opset1")}
    for (t, v), (op, opset) in body_ops.items():
        made = base.get((t, v))
        for n in (12, 13, 14, 15, 16):
            add(f"body_{t}_{op}_opset{n}", made, rf'(<(?:then_)?body>.*?type="{op}" version=")opset1(")', rf"\g<1>opset{n}\g<2>")
        add(f"body_{t}_{op}_F8E4M3", made,
            rf'(<(?:then_)?body>.*?type="{op}" version="opset1">.*?<output>\s*<port id="\d+" precision=")\w+(")',
            r"\g<1>F8E4M3\g<2>")
        if made is not None:  # two body layers of one name; a body layer named as a layer of the main graph
            names = re.findall(r'<layer id="\d+" name="([^"]+)"', made[0])
            body = made[0].index("<body>") if "<body>" in made[0] else made[0].find("<then_body>")
            inner = re.findall(r'<layer id="\d+" name="([^"]+)" type="(?!Result)', made[0][body:])
            if len(inner) >= 2:
                add(f"body_{t}_duplicate", made, rf'(<layer id="\d+" name="){re.escape(inner[1])}(")',
                    rf"\g<1>{inner[0]}\g<2>")
                add(f"body_{t}_named_as_outer", made, rf'(<layer id="\d+" name="){re.escape(inner[1])}(")',
                    rf"\g<1>{names[0]}\g<2>")
    add("case_maxpool-14", base.get(("MaxPool", 14)), r'type="MaxPool" version="opset14"',
        'type="maxpool" version="opset14"')
    add("case_squeeze-15", base.get(("Squeeze", 15)), r'type="Squeeze" version="opset15"',
        'type="squeeze" version="opset15"')
    for t in ("ExperimentalDetectronTopKROIs", "ExperimentalDetectronPriorGridGenerator", "Proposal"):
        for v, made in base.items():
            if v[0] == t:
                for name in ("experimental", "extension"):
                    add(f"version_{t}-{v[1]}_{name}", made, rf'(type="{t}" version=")opset\d+(")', rf"\g<1>{name}\g<2>")
    add("case_MaxPool-14_CEIL_TORCH", base.get(("MaxPool", 14)), r'rounding_type="[^"]*"', 'rounding_type="CEIL_TORCH"')
    add("version_MaxPool-14_as_opset8", base.get(("MaxPool", 14)), r'version="opset14"', 'version="opset8"')
    for prec in ("F8E4M3", "F8E8M0", "NF4", "U2", "STRING", "F4E2M1"):
        add(f"precision_Relu_out_{prec}", base.get(("Relu", 0)),
            r'(type="ReLU" version="opset1">.*?<output>\s*<port id="\d+" precision=")\w+(")', rf"\g<1>{prec}\g<2>")
        add(f"precision_Relu_in_{prec}", base.get(("Relu", 0)),
            r'(type="ReLU" version="opset1">.*?<input>\s*<port id="\d+" precision=")\w+(")', rf"\g<1>{prec}\g<2>")
    return out


def judge(files: list[Path], releases: list[str], verbose: bool) -> dict:
    t0 = time.time()
    models = {}
    for f in files:
        try:
            models[f] = parse(str(f))
        except Exception as e:  # noqa: BLE001
            print(f"irreshape cannot parse {f}: {e}", file=sys.stderr)
    files = [f for f in files if f in models]
    verdicts: dict[str, list[dict]] = {}
    cache = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    digests = [digest(f) for f in files]

    def one(r: str) -> None:
        have = cache.setdefault(r, {})
        todo = [k for k, d in enumerate(digests) if d not in have]
        for k, got in zip(todo, read_all(r, [str(files[k]) for k in todo])):
            have[digests[k]] = got
        verdicts[r] = [have[d] for d in digests]
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(one, [RELEASES[-1], *[r for r in releases if r != RELEASES[-1]]]))
    CACHE.write_text(json.dumps(cache))
    read_by_last = [f for f, v in zip(files, verdicts[RELEASES[-1]]) if v["e"] is None]
    print(f"{len(files)} files, {len(read_by_last)} read by {RELEASES[-1]}; releases read in {time.time() - t0:.0f} s",
          file=sys.stderr)
    index = {f: k for k, f in enumerate(files)}
    report = {}
    for r in releases:
        if r == RELEASES[-1]:
            continue
        tally = dict(files=0, refused=0, agree=0, missed=0, false=0, named=0, layer_match=0, words_match=0)
        for f in read_by_last:
            got = verdicts[r][index[f]]
            theirs = words(got["e"]) if got["e"] is not None else None
            ours = targets.refusals(models[f], r)
            tally["files"] += 1
            tally["refused"] += theirs is not None
            if bool(ours) == (theirs is not None):
                tally["agree"] += 1
            elif theirs is not None:
                tally["missed"] += 1
                if verbose:
                    print(f"{r} missed {f.name}: {theirs}", file=sys.stderr)
            else:
                tally["false"] += 1
                if verbose:
                    print(f"{r} false {f.name}: {ours[0].message} ({ours[0].what})", file=sys.stderr)
            if theirs is None or not ours:
                continue
            first = targets.first(models[f], ours)
            if _same_words(first.message, theirs):
                tally["words_match"] += 1
            elif verbose:
                print(f"{r} words {f.name}: ours {first.message!r} theirs {theirs!r}", file=sys.stderr)
            m, u = _NAMED.search(theirs), _UNIQUE.search(theirs)
            if m or u:
                tally["named"] += 1
                la = first.layer
                ok = la is not None and (la.name == m.group(1) and la.id.rsplit("/", 1)[-1] == m.group(2) if m
                                         else la.name == u.group(1))
                tally["layer_match"] += ok
                if not ok and verbose:
                    print(f"{r} layer {f.name}: ours {la and (la.name, la.id)} theirs {theirs!r}", file=sys.stderr)
        report[r] = tally
    return {"files": files, "verdicts": verdicts, "report": report, "models": models}


def labels(files: list[Path], verdicts: dict[str, list[dict]]) -> dict:
    """{"releases": [...], "files": {path: [[first release index, verdict], ...]}}: a verdict (null: read; else
    {"layer": the id its words name or null, "name": the layer name they name or null, "message": its words}) from
    that release on, up to the next entry."""
    out: dict = {"releases": list(RELEASES), "files": {}}
    for k, f in enumerate(files):
        if not f.is_relative_to(DATA):
            continue
        runs: list = []
        for i, r in enumerate(RELEASES):
            e = verdicts[r][k]["e"]
            v = None
            if e is not None:
                w = _nopath(words(e))  # the file's path (a tiny file's refusal holds it)
                m, u = _NAMED.search(w), _UNIQUE.search(w)
                v = {"layer": m.group(2) if m else None, "name": m.group(1) if m else u.group(1) if u else None,
                     "message": w}
            if not runs or runs[-1][1] != v:
                runs.append([i, v])
        out["files"][f.relative_to(ROOT).as_posix()] = runs
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--releases", default=",".join(RELEASES))
    ap.add_argument("--labels", action="store_true", help=f"write {LABELS.relative_to(ROOT)}")
    ap.add_argument("--write-generated", action="store_true", help=f"keep the generated cases in {GENERATED}")
    ap.add_argument("--no-wild", action="store_true")
    ap.add_argument("--retyped", type=int, default=0, metavar="N",
                    help="N seeded files of the type sweep too (a Parameter retyped; not kept)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.time()
    releases = args.releases.split(",")
    with tempfile.TemporaryDirectory() as d:
        made = generated()
        where = GENERATED if args.write_generated else Path(d)
        where.mkdir(parents=True, exist_ok=True)
        gen_files = []
        for name, xml, weights in made:
            p = where / f"{name}.xml"
            p.write_text(xml)
            if weights:
                p.with_suffix(".bin").write_bytes(weights)
            gen_files.append(p)
        kept = [] if args.write_generated else [f for f in fixtures() if not f.is_relative_to(GENERATED)]
        files = sorted(set(kept if not args.write_generated else fixtures()) | set(gen_files))
        for name, xml, weights in retyped(args.retyped) if args.retyped else ():
            p = Path(d) / f"{name}.xml"
            p.write_text(xml)
            p.with_suffix(".bin").write_bytes(weights)
            files.append(p)
        if WILD.is_dir() and not args.no_wild:
            files += sorted(WILD.glob("*.xml"))
        print(f"{len(made)} generated cases", file=sys.stderr)
        out = judge(files, releases, args.verbose)
        if args.write_generated:  # the generated cases 2026.4.1 refuses are no target's: not kept
            last = out["verdicts"][RELEASES[-1]]
            refused = {f for f, v in zip(out["files"], last) if v["e"] is not None}
            for p in gen_files:
                if p in refused:
                    p.unlink()
                    p.with_suffix(".bin").unlink(missing_ok=True)
            keep = [k for k, f in enumerate(out["files"]) if not (f in refused and f in set(gen_files))]
            out["files"] = [out["files"][k] for k in keep]
            out["verdicts"] = {r: [v[k] for k in keep] for r, v in out["verdicts"].items()}
        if args.labels:
            LABELS.parent.mkdir(parents=True, exist_ok=True)
            LABELS.write_text(json.dumps(labels(out["files"], out["verdicts"]), sort_keys=True)
                              .replace('], "tests/', '],\n"tests/') + "\n")
    print(f"{'release':10} {'files':>6} {'refused':>8} {'agree':>6} {'missed':>6} {'false':>6} {'named':>6} "
          f"{'layer=':>6} {'words=':>6}")
    for r, t in out["report"].items():
        print(f"{r:10} {t['files']:6} {t['refused']:8} {t['agree']:6} {t['missed']:6} {t['false']:6} {t['named']:6} "
              f"{t['layer_match']:6} {t['words_match']:6}")
    print(f"{time.time() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
