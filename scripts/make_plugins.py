"""Regenerate ``src/irreshape/shapes/plugins.py``: what each openvino release's CPU plugin refuses in files its
``read_model`` reads, measured with each release's own wheel (scripts/ovreleases.py: one venv per release, made
when missing).

1. The probes of tests/irtools/plugincases.py are written by the installed openvino (2026.4.1), each a small
   model holding one feature of irreshape's detectors (:mod:`irreshape.checks.plugin`); irreshape reads each and
   must find that feature in it (a case where it does not is dropped, and said).
2. Every release reads each probe, compiles it for CPU and, where its inputs are static, runs it once on zeros,
   each file in a process of its own (:func:`ovreleases.compile_all`).
3. Per feature and release: refused where every probe of the feature that the release reads fails (at compile, by
   a crash, at the first inference), with the release's words (the first probe's, its layer's name made
   ``{name}``); taken where every one passes; a feature whose probes disagree on a release is said and left
   out (irreshape then says nothing of it: never a guess).
4. The table keeps, per feature, the runs of releases and their verdicts; ``tests/data/targets/plugins.json`` the
   probes' verdicts per release (the tests rebuild the probes with openvino and check irreshape against them);
   and every probe is judged again with the table written: what irreshape says of each (probe, release) against
   what the release did.

    python scripts/make_plugins.py [--releases 2023.0.0,...] [--work DIR] [-k SUBSTRING]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pprint
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "scripts")]

from ovreleases import RELEASES, compile_all, words  # noqa: E402

OUT = ROOT / "src" / "irreshape" / "shapes" / "plugins.py"
LABELS = ROOT / "tests" / "data" / "targets" / "plugins.json"
CACHE = Path(os.environ.get("IRRESHAPE_PLUGINS_CACHE", "/work/scratch/plugins-cache"))  # by content, per release
TIMEOUTS = {"read": 120, "compile": 300, "infer": 10}


def features(path: str) -> tuple[dict[tuple, str], set[str]]:
    """irreshape's features of a file ({key: the name of the first layer holding it}) and its layers' names."""
    from irreshape.checks.openvino import check_path
    from irreshape.core.findings import GRAPH, PLUGIN
    from irreshape.core.results import Options

    res = check_path(path, Options(analyses=frozenset({GRAPH, PLUGIN})))
    found: dict[tuple, str] = {}
    names: set[str] = set()
    if res is not None:
        for inst in res.features:
            found.setdefault(inst.key, inst.name)
        model = res.model
        if model is not None:
            names = {la.name for la in model.layers.values()}
    return found, names


def outcome(verdict: dict) -> tuple[str | None, str | None]:
    """(stage, message) of one release's verdict on a file: ("read", ...) where it does not read it, (None, None)
    where it reads, compiles and runs it."""
    if verdict["read"] is not None:
        return "read", verdict["read"]
    c = verdict["compile"]
    if c is not None:
        return ("crash", None) if c == "crash" else ("timeout", None) if c == "timeout" else ("compile", c)
    i = verdict["infer"]
    if i not in (None, "skipped"):
        return ("crash", None) if i == "crash" else ("timeout", None) if i == "timeout" else ("infer", i)
    return None, None


def template(message: str | None, name: str, names: set[str]) -> str:
    """The release's words with the layer's name made ``{name}``; the lines that name other layers of the probe (its
    node's description) left out; braces doubled for str.format."""
    if not message:
        return ""
    others = sorted((n for n in names if n != name and len(n) > 2), key=len, reverse=True)
    kept = []
    for line in (words(message) or "").splitlines():
        if line.startswith("While validating node") or line.strip() in ("Details:",):
            continue
        if any(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w.])", line) for n in others):
            continue
        line = line.replace("{", "{{").replace("}", "}}")
        line = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w.])", "{name}", line)
        kept.append(line)
    return "\n".join(kept).strip()


def digest(path: Path) -> str:
    h = hashlib.sha1(path.read_bytes())
    h.update(path.with_suffix(".bin").read_bytes())
    return h.hexdigest()


def measure(release: str, paths: list[Path]) -> list[dict]:
    """Each file's verdict on ``release``, from the cache where the file's content was judged before."""
    CACHE.mkdir(parents=True, exist_ok=True)
    f = CACHE / f"{release}.json"
    cache = json.loads(f.read_text()) if f.exists() else {}
    keys = [digest(p) for p in paths]
    todo = [(p, k) for p, k in zip(paths, keys) if k not in cache]
    if todo:
        got = compile_all(release, [str(p) for p, _ in todo], timeout=TIMEOUTS)
        for (_, k), v in zip(todo, got):
            cache[k] = v
        f.write_text(json.dumps(cache))
    return [cache[k] for k in keys]


def runs(values: list) -> tuple:
    """(first release index, value) for each change along the releases."""
    out = []
    for i, v in enumerate(values):
        if not out or out[-1][1] != v:
            out.append((i, v))
    return tuple(out)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--releases", default=",".join(RELEASES))
    ap.add_argument("--work", default="/tmp/irreshape-plugins")
    ap.add_argument("-k", default="", help="only the cases whose name holds this")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    releases = args.releases.split(",")
    from irtools.plugincases import cases

    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    made = [c for c in cases() if args.k in c.name]
    print(f"{len(made)} probes written in {time.time() - t0:.0f} s", flush=True)
    probes = []  # (case, path, name of its layer holding the key, names of its layers)
    for c in made:
        path = work / f"{c.name}.xml"
        path.write_text(c.xml)
        path.with_suffix(".bin").write_bytes(c.weights)
        found, names = features(str(path))
        if c.key not in found:
            print(f"  dropped {c.name}: irreshape does not find {c.key} in it ({sorted(found)[:6]})")
            continue
        probes.append((c, path, found[c.key], names))
    verdicts: dict[str, list[dict]] = {}
    for release in releases:
        t = time.time()
        verdicts[release] = measure(release, [p for _, p, _, _ in probes])
        print(f"{release}: {len(probes)} probes in {time.time() - t:.0f} s", flush=True)

    by_key: dict[tuple, list[int]] = {}
    for k, (c, _, _, _) in enumerate(probes):
        by_key.setdefault(c.key, []).append(k)
    table: dict[tuple, tuple] = {}
    mixed = []
    for key, members in sorted(by_key.items(), key=lambda kv: repr(kv[0])):
        per_release = []
        for release in releases:
            got = [(outcome(verdicts[release][k]), k) for k in members]
            read = [(o, k) for o, k in got if o[0] != "read"]
            if not read or all(o[0] is None for o, _ in read):
                per_release.append((None, None))
                continue
            failing = [(o, k) for o, k in read if o[0] is not None]
            stages = {o[0] for o, _ in failing}
            if len(failing) != len(read) or len(stages) != 1 or "timeout" in stages:
                mixed.append((key, release, [(probes[k][0].name, o[0]) for o, k in got]))
                per_release.append((None, None))
                continue
            (stage, message), k = failing[0]
            _, _, name, names = probes[k]
            per_release.append((stage, template(message, name, names)))
        if any(s is not None for s, _ in per_release):
            index = [RELEASES.index(r) for r in releases]
            full = [(None, None)] * len(RELEASES)
            for i, v in zip(index, per_release):
                full[i] = v
            table[key] = tuple((i, s, w) for i, (s, w) in runs(full))
    for key, release, got in mixed:
        print(f"  mixed: {key} on {release}: {got}")

    if args.no_write or args.k:
        for key, value in table.items():
            print(key, value)
    else:
        write_table(table, len(probes))
        write_labels(probes, verdicts, releases)
    return 0


def write_table(table: dict, n: int) -> None:
    head = f'''"""Generated by scripts/make_plugins.py from each openvino release's own CPU plugin: do not edit.

{n} probes compiled by each release (tests/irtools/plugincases.py). REFUSED: a feature (the key of a detector of
irreshape.checks.plugin) -> ((first release index, stage, words), ...), each entry holding from that release on
(up to the next): stage None (the CPU plugin takes it), "compile" (compile_model fails, in those words, with
{{name}} the layer's name), "crash" (the process dies in compile_model) or "infer" (the first inference fails).
An index is one into irreshape.shapes.releases.RELEASES; NEWEST that of the newest release (the reference).
"""

NEWEST = {len(RELEASES) - 1}

REFUSED = '''
    OUT.write_text(head + pprint.pformat(table, width=120, sort_dicts=True) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(table)} features")


def write_labels(probes: list, verdicts: dict, releases: list[str]) -> None:
    cases = {}
    for k, (c, _, _, _) in enumerate(probes):
        stages = [outcome(verdicts[r][k])[0] if r in verdicts else None for r in RELEASES]
        cases[c.name] = [[i, s] for i, s in runs(stages)]
    LABELS.write_text(json.dumps({"releases": list(RELEASES), "cases": cases}, indent=0, sort_keys=True) + "\n")
    print(f"wrote {LABELS.relative_to(ROOT)}: {len(cases)} probes")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
