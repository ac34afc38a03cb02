"""Prove the downgrade table (irreshape.fixers.downgrade.REWRITES) on every release: writes
``tests/data/targets/downgrades.json``, the labels tests/fixers/test_downgrade_labels.py checks against the table.

1. Each case of tests/irtools/downgrades.py whose entry applies is saved by the installed openvino (2026.4.1),
   rewritten by its table entry, and both files run on 2026.4.1's CPU on the case's inputs: identical outputs.
2. Each release (a venv each, scripts/ovreleases.py: $IRRESHAPE_VENVS/<release>, made when missing) reads,
   compiles for CPU and runs the original and the rewritten file: what it says (the first line of its refusal).
3. The real IR files of ../shared/wild-ir that a target refuses (the YOLO exports: MaxPool-14) are fixed by
   ``irreshape check --fix --target R`` (R = 2023.3 by default) in a copy; 2026.4.1 runs original and fixed on the
   same seeded inputs (identical outputs?), R reads and runs the fixed one, and irreshape's own target check of the
   fixed file reports nothing for R.

4. The fixtures of today's exporters a target refuses (2023.0 and 2023.3 by default), fixed with and without
   --unsafe-fixes: what is left refused; where nothing is, 2026.4.1's outputs on seeded inputs against the
   original's, and whether the target runs the fixed file.

Usage: python scripts/prove_downgrades.py [--releases 2023.0.0,2024.0.0] [--wild-target 2023.3] [--no-wild]
       [--no-corpus] [--corpus-targets 2023.0,2023.3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "scripts")]

import numpy as np  # noqa: E402
import openvino as ov  # noqa: E402

import ovreleases  # noqa: E402
from irtools import downgrades as D  # noqa: E402

OUT = ROOT / "tests" / "data" / "targets" / "downgrades.json"
WILD = ROOT.parent / "shared" / "wild-ir"

# run by a release's python: argv = [json list of [xml, npz or ""]]; prints one json line per file
_RUNNER = r"""
import json, sys
import numpy as np
try:
    from openvino import Core
except ImportError:
    from openvino.runtime import Core
core = Core()
for xml, npz in json.load(open(sys.argv[1])):
    try:
        m = core.read_model(xml)
    except Exception as e:
        print(json.dumps({"xml": xml, "read": False, "ran": False, "error": str(e)}), flush=True)
        continue
    try:
        c = core.compile_model(m, "CPU")
        req = c.create_infer_request()
        if npz:
            z = np.load(npz)
            feeds = [z["arr_%d" % i] for i in range(len(z.files))]
        else:
            rng = np.random.default_rng(0)
            feeds = [rng.standard_normal([d.get_length() for d in p.get_partial_shape()]).astype(np.float32)
                     for p in c.inputs]
        req.infer(feeds)
        outs = [req.get_output_tensor(i).data for i in range(len(c.outputs))]
        np.savez(xml + ".out.npz", *outs)
        print(json.dumps({"xml": xml, "read": True, "ran": True, "error": None}), flush=True)
    except Exception as e:
        print(json.dumps({"xml": xml, "read": True, "ran": False, "error": str(e)}), flush=True)
"""


def first_words(message: str | None) -> str | None:
    w = ovreleases.words(message)
    return w.splitlines()[0][:300] if w else None


def run_release(release: str, pairs: list[tuple[str, str]]) -> dict[str, dict]:
    """Each file read, compiled for CPU and run by ``release``: {xml: {read, ran, error}}."""
    py = ovreleases.venv(release)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(pairs, f)
    try:
        done = subprocess.run([str(py), "-c", _RUNNER, f.name], capture_output=True, text=True, timeout=1800)
    finally:
        os.unlink(f.name)
    got = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            got[r["xml"]] = {"read": r["read"], "ran": r["ran"], "error": first_words(r["error"])}
    for xml, _ in pairs:  # a crash: what it did not report
        got.setdefault(xml, {"read": False, "ran": False, "error": f"crashed: {done.stderr.strip()[-200:]}"})
    return got


def verdict(r: dict) -> str:
    """A release's verdict on a file: "runs", "reads; does not run: <its words>", or "refused: <its words>"."""
    if r["ran"]:
        return "runs"
    return f"reads; does not run: {r['error']}" if r["read"] else f"refused: {r['error']}"


def outputs_of(xml: str) -> list[np.ndarray]:
    with np.load(xml + ".out.npz") as z:
        return [z[f"arr_{i}"] for i in range(len(z.files))]


def cases(folder: str) -> dict[str, dict]:
    """Each case whose entry applies, saved and rewritten; 2026.4.1's verdict on the pair."""
    from irreshape.fixers.downgrade import REWRITES

    out = {}
    for name, (key, _, exact) in sorted(D.CASES.items()):
        if not exact:
            continue
        src = D.save(name, folder)
        dst = os.path.join(folder, f"{name}.fixed.xml")
        done = D.rewrite(src, key, dst)
        feeds = D.inputs(src)
        entry = REWRITES[key][0]
        before, after = D.run(src, feeds), D.run(dst, feeds)
        rtol, atol = entry.tolerance
        out[name] = {"entry": entry.name, "safe": entry.safe, "src": src, "dst": dst, "fixed": len(done.plan.fixed),
                     "same_on_2026.4.1": D.same_outputs(before, after),
                     "close_on_2026.4.1": len(before) == len(after) and all(
                         a.shape == b.shape and np.allclose(a, b, rtol=rtol, atol=atol) for a, b in zip(before, after))}
    return out


def renamed(folder: str) -> dict:
    """Two layers of one name: fixed with --fix --target for the first release that refuses that (a rename)."""
    from irreshape import lint
    from irreshape.frontends.openvino import parse
    from irreshape.lint.config import Settings
    from irreshape.rules import ALL
    from irreshape.shapes import targets

    model, feeds = D.duplicate_names()
    src = os.path.join(folder, "duplicate_names.xml")
    ov.save_model(model, src, compress_to_fp16=False)
    np.savez(src[:-4] + ".npz", *feeds)
    release = next(r for r in targets.known() if any(x.kind == "name" for x in targets.refusals(parse(src), r)))
    dst = os.path.join(folder, "duplicate_names.fixed.xml")
    D.copy_pair(src, dst)
    outcome = lint.run([dst], Settings(enabled=frozenset(r.code for r in ALL), fix="fix",
                                       targets=((release, release),)))
    return {"target": release, "src": src, "dst": dst, "fixed": sum(len(f.fixed) for f in outcome.fixes),
            "left": [r.what for r in targets.refusals(parse(dst), release)],
            "same_on_2026.4.1": D.same_outputs(D.run(src, feeds), D.run(dst, feeds))}


def wild(folder: str, target: str) -> dict[str, dict]:
    """The wild IR files irreshape's target check refuses for ``target``, fixed with --fix --target, and judged."""
    from irreshape import lint
    from irreshape.frontends.openvino import parse
    from irreshape.lint.config import Settings
    from irreshape.rules import ALL
    from irreshape.shapes import targets

    release = targets.canonical(target)
    out = {}
    manifest = json.loads((WILD / "manifest.json").read_text())
    for entry in manifest:
        xml = WILD / entry["file"]
        if not xml.exists() or not entry.get("bin_complete"):
            continue
        refused = targets.refusals(parse(str(xml)), release)
        if not refused:
            continue
        dst = os.path.join(folder, entry["file"])
        shutil.copyfile(xml, dst)
        shutil.copyfile(xml.with_suffix(".bin"), dst[:-4] + ".bin")
        settings = Settings(enabled=frozenset(r.code for r in ALL), fix="fix", targets=((target, release),))
        outcome = lint.run([dst], settings)
        fixes = [f for f in outcome.fixes if f.path == dst]
        left = targets.refusals(parse(dst), release)
        row = {"refused": [r.what for r in refused], "fixed_layers": sum(len(f.fixed) for f in fixes),
               "left": [r.what for r in left]}
        if not left:
            try:
                feeds = feeds_for(str(xml))
                np.savez(dst[:-4] + ".npz", *feeds)
                row["same_on_2026.4.1"] = D.same_outputs(D.run(str(xml), feeds), D.run(dst, feeds))
                row["dst"] = dst
            except Exception as e:  # noqa: BLE001  (an extension's ops, inputs this script cannot make)
                row["not_run"] = first_words(str(e))
        out[entry["file"]] = row
    return out


def feeds_for(xml: str) -> list[np.ndarray]:
    """Seeded inputs for a file's Parameters: a dynamic dim is guessed (an image 1x3x64x64, an audio signal 1x1600, a
    sequence of 8), integers in [0, 3), booleans true."""
    rng = np.random.default_rng(0)
    out = []
    for p in ov.Core().read_model(xml).inputs:
        ps, t = p.get_partial_shape(), p.get_element_type()
        rank = ps.rank.get_length() if ps.rank.is_static else 0
        guess = {0: 1, 1: 3, 2: 64, 3: 64} if rank == 4 else {0: 1, 1: 1600 if t.is_real() and rank == 2 else 8}
        shape = [d.get_length() if d.is_static else guess.get(i, 8) for i, d in enumerate(ps)]
        if t.is_real():
            out.append(rng.standard_normal(shape).astype(t.to_dtype()))
        elif t == ov.Type.boolean:
            out.append(np.ones(shape, bool))
        else:
            out.append(rng.integers(0, 3, shape).astype(t.to_dtype()))
    return out


def corpus(folder: str, target: str, unsafe: bool) -> dict[str, dict]:
    """The fixtures of today's exporters (tests/data/today, tests/data/models) that ``target`` refuses, fixed with
    --fix --target (``unsafe``: and --unsafe-fixes) in a copy: what is left refused, and, where nothing is, whether
    2026.4.1 computes the same on seeded inputs (bit for bit, or within the table's largest unsafe tolerance)."""
    from irreshape import lint
    from irreshape.fixers.downgrade import REWRITES
    from irreshape.frontends.openvino import parse
    from irreshape.lint.config import Settings
    from irreshape.rules import ALL
    from irreshape.shapes import targets

    release = targets.canonical(target)
    rtol = max(r.tolerance[0] for es in REWRITES.values() for r in es)
    atol = max(r.tolerance[1] for es in REWRITES.values() for r in es)
    out = {}
    sub = os.path.join(folder, f"corpus-{release}-{'unsafe' if unsafe else 'safe'}")
    os.makedirs(sub, exist_ok=True)
    for xml in sorted([*(ROOT / "tests" / "data" / "today").glob("*.xml"), *(ROOT / "tests" / "data" / "models").glob("*.xml")]):
        refused = targets.refusals(parse(str(xml)), release)
        if not refused:
            continue
        dst = os.path.join(sub, xml.name)
        D.copy_pair(str(xml), dst)
        settings = Settings(enabled=frozenset(r.code for r in ALL), fix="fix", targets=((target, release),),
                            unsafe_fixes=unsafe)
        outcome = lint.run([dst], settings)
        left = targets.refusals(parse(dst), release)
        row = {"refused": sorted({r.what for r in refused}), "left": sorted({r.what for r in left}),
               "fixed_layers": sum(len(f.fixed) for f in outcome.fixes if f.path == dst)}
        if not left:
            try:
                feeds = feeds_for(str(xml))
                np.savez(dst[:-4] + ".npz", *feeds)
                a, b = D.run(str(xml), feeds), D.run(dst, feeds)
                row["same_on_2026.4.1"] = D.same_outputs(a, b)
                row["close_on_2026.4.1"] = len(a) == len(b) and all(
                    x.shape == y.shape and np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True) for x, y in zip(a, b))
                row["dst"] = dst
            except Exception as e:  # noqa: BLE001  (inputs this script cannot make for the model)
                row["not_run"] = first_words(str(e))
        out[xml.name] = row
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--releases", default="", help="comma-separated releases (default: every one)")
    ap.add_argument("--wild-target", default="2023.3")
    ap.add_argument("--no-wild", action="store_true")
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--corpus-targets", default="2023.0,2023.3")
    args = ap.parse_args()
    releases = [r for r in args.releases.split(",") if r] or list(ovreleases.RELEASES)
    folder = tempfile.mkdtemp(prefix="prove-downgrades-")
    made = cases(folder)
    pairs = [(c[k], os.path.splitext(c["src"])[0] + ".npz") for c in made.values() for k in ("src", "dst")]
    dup = renamed(folder)
    pairs += [(dup[k], dup["src"][:-4] + ".npz") for k in ("src", "dst")]
    labels: dict = {"releases": releases, "cases": {}, "wild": {}, "corpus": {},
                    "renamed": {k: dup[k] for k in ("target", "fixed", "left", "same_on_2026.4.1")} | {
                        "original": {}, "rewritten": {}}}
    for name, c in made.items():
        labels["cases"][name] = {k: c[k] for k in ("entry", "safe", "fixed", "same_on_2026.4.1", "close_on_2026.4.1")}
        labels["cases"][name].update(original={}, rewritten={})
    for release in releases:
        got = run_release(release, pairs)
        for name, c in made.items():
            for side, key in (("original", "src"), ("rewritten", "dst")):
                r = got[c[key]]
                labels["cases"][name][side][release] = verdict(r)
        for side, key in (("original", "src"), ("rewritten", "dst")):
            labels["renamed"][side][release] = verdict(got[dup[key]])
        print(f"{release}: {sum(got[c['dst']]['ran'] for c in made.values())}/{len(made)} rewritten files run",
              file=sys.stderr)
    if not args.no_wild and WILD.exists():
        fixed = wild(folder, args.wild_target)
        from irreshape.shapes import targets

        release = targets.canonical(args.wild_target)
        ran = [f for f in fixed.values() if "dst" in f]
        got = run_release(release, [(f["dst"], f["dst"][:-4] + ".npz") for f in ran]) if ran else {}
        for name, f in fixed.items():
            row = {"target": release, **{k: v for k, v in f.items() if k != "dst"}}
            row["refused"] = sorted(set(f["refused"]))
            if "dst" in f:
                r = got[f["dst"]]
                row[release] = verdict(r)
            labels["wild"][name] = row
        n = sum(1 for w in labels["wild"].values() if w.get(release) == "runs" and w.get("same_on_2026.4.1"))
        print(f"wild: {len(fixed)} files refused by {release}, {sum(1 for w in fixed.values() if not w['left'])} "
              f"fully rewritten, {n} run on it after --fix --target with identical outputs on 2026.4.1",
              file=sys.stderr)
    if not args.no_corpus:
        from irreshape.shapes import targets

        for target in args.corpus_targets.split(","):
            release = targets.canonical(target)
            for unsafe in (False, True):
                rows = corpus(folder, target, unsafe)
                ran = [r for r in rows.values() if "dst" in r]
                got = run_release(release, [(r["dst"], r["dst"][:-4] + ".npz") for r in ran]) if ran else {}
                for r in rows.values():
                    if "dst" in r:
                        g = got[r.pop("dst")]
                        r[release] = verdict(g)
                labels["corpus"][f"{release}{' --unsafe-fixes' if unsafe else ''}"] = rows
                n_ok = sum(1 for r in rows.values() if r.get(release) == "runs" and r.get("close_on_2026.4.1"))
                print(f"corpus {release}{' unsafe' if unsafe else ''}: {len(rows)} refused, "
                      f"{sum(1 for r in rows.values() if not r['left'])} fully rewritten, {n_ok} run on {release} "
                      "and compute the same on 2026.4.1", file=sys.stderr)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(labels, indent=1, sort_keys=True) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    print(f"wrote {OUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
