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
import json
import os
import pprint
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "scripts")]

from ovreleases import ISAS, RELEASES, compile_classes, words  # noqa: E402

from irreshape.shapes.compiles import at  # noqa: E402  (a feature's runs at a release: the table's one lookup)

OUT = ROOT / "src" / "irreshape" / "shapes" / "plugins.py"
LABELS = ROOT / "tests" / "data" / "targets" / "plugins.json"
CACHE = Path(os.environ.get("IRRESHAPE_PLUGINS_CACHE", "/work/scratch/plugins-cache"))  # by content, per release


def features(path: str) -> tuple[dict[tuple, str], set[str]]:
    """irreshape's features of a file ({key: the name of the first layer holding it}) and its layers' names."""
    from irreshape.checks.plugin import every_feature
    from irreshape.frontends.openvino import parse

    model = parse(path)
    found: dict[tuple, str] = {}
    for inst in every_feature(model):
        found.setdefault(inst.key, inst.name)
    names = {la.name for la in model.layers.values()}
    return found, names


def outcome(verdict: dict, infer: bool = True) -> tuple[str | None, str | None]:
    """(stage, message) of one release's verdict on a file: ("read", ...) where it does not read it, (None, None)
    where it reads, compiles and runs it (``infer`` false: where it compiles it, whatever its first inference on
    zeros does). A crash in compile_model is the stage "crash"; one in the first inference is "infer"."""
    if verdict["read"] is not None:
        return "read", verdict["read"]
    c = verdict["compile"]
    if c is not None:
        return ("crash", None) if c == "crash" else ("timeout", None) if c == "timeout" else ("compile", c)
    i = verdict["infer"]
    if infer and i not in (None, "skipped"):
        return ("timeout", None) if i == "timeout" else ("infer", "the process dies" if i == "crash" else i)
    return None, None


def template(message: str | None, name: str, names: set[str]) -> str:
    """The release's words with the layer's name made ``{name}``; the lines that name other layers of the probe (its
    node's description) left out; braces doubled for str.format."""
    if not message:
        return ""
    others = sorted((n for n in names if n != name and len(n) > 2), key=len, reverse=True)
    kept = []
    for line in (words(message) or "").splitlines():
        if line.startswith("While validating node") or line.strip() in ("Details:",) or ") -> (" in line:
            continue  # the node's description: the probe's names and shapes
        if any(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w.])", line) for n in others):
            continue
        line = line.replace("{", "{{").replace("}", "}}")
        line = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w.])", "{name}", line)
        kept.append(line)
    return "\n".join(kept).strip()


def measure(release: str, paths: list[Path]) -> list[dict]:
    """Each file's verdict on ``release``, from the cache where the file's content was judged before."""
    return compile_classes(release, paths, CACHE)


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
    ap.add_argument("--real", action="append", default=[],
                    help="a folder of real IR besides tests/data and ../shared/wild-ir whose verdicts can contradict a "
                         "claim (see contradicted)")
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
        probes.append((c, path, found[c.key], names, set(found)))
    verdicts: dict[str, list[dict]] = {}
    for release in releases:
        t = time.time()
        verdicts[release] = measure(release, [p for _, p, _, _, _ in probes])
        only = sum(1 for v in verdicts[release] if v.get("only"))
        print(f"{release}: {len(probes)} probes in {time.time() - t:.0f} s ({only} stop on some classes of CPU only)", flush=True)

    members: dict[tuple, list[str]] = {}
    for c, _, _, _, _ in probes:
        members.setdefault(c.key, []).append(c.name)
    real = RealIR([*args.real, str(static_variants(work / "static"))])
    table, _ = reduce(probes, verdicts, releases, {}, {})
    contradicted(table, releases, real)
    # a probe's failure that another of its features explains (a model input of a type the release refuses, the
    # op of an attribute's probe failing as the op's own probe does) says nothing of its own feature
    unclaimed: dict[tuple, str] = {}  # (probe name, release) -> why the table claims nothing of its failure there
    table, mixed = reduce(probes, verdicts, releases, table, unclaimed)
    for key, release, got in mixed:
        print(f"  mixed: {key} on {release}: {got}")
        why = "the probes disagree" if any(o is None for _, o in got) else \
            "the probes fail for their inputs' values, not for the feature"
        unclaimed.update({(name, release): why for name, _ in got})
    for key, release, name in contradicted(table, releases, real):
        print(f"  contradicted: {key} on {release}: the release reads and compiles {name}, which holds it")
        unclaimed.update({(n, release): f"real IR holding it runs there ({name})" for n in members[key]})

    if args.no_write or args.k:
        for key, value in table.items():
            print(key, value)
    else:
        write_table(table, len(probes))
        write_labels(probes, verdicts, releases, unclaimed)
    return 0


def static_variants(folder: Path) -> Path:
    """Real IR of static shapes, for the claims to be checked against: the committed dynamic exports
    (tests/data/today, dynamic, models) reshaped by openvino to batch 1 and 16 tokens (or their static image
    sizes) and saved, where the model takes it."""
    import openvino as ov

    folder.mkdir(parents=True, exist_ok=True)
    core = ov.Core()
    for sub in ("today", "dynamic", "models"):
        for xml in sorted((ROOT / "tests" / "data" / sub).glob("*.xml")):
            out = folder / f"{sub}-{xml.name}"
            if out.exists():
                continue
            try:
                m = core.read_model(str(xml))
                if all(i.get_partial_shape().is_static for i in m.inputs):
                    continue
                m.reshape({i.get_any_name(): [d.get_length() if d.is_static else (1 if k == 0 else 16)
                                              for k, d in enumerate(i.get_partial_shape())] for i in m.inputs})
                ov.save_model(m, str(out), compress_to_fp16=False)
            except Exception:  # noqa: BLE001  a model that takes no such shapes (or an extension's)
                continue
    return folder


class RealIR:
    """Real IR (tests/data, ../shared/wild-ir and ``extra`` folders: scripts/label_compiles.py's files) and the
    features irreshape finds in each, read once."""

    def __init__(self, extra: list[str]) -> None:
        from label_compiles import files

        self.files = [(label, path) for label, path in files(extra)]
        self.keys: list[set] = []
        for _, path in self.files:
            try:
                self.keys.append(set(features(str(path))[0]))
            except Exception:  # noqa: BLE001  a file irreshape cannot read: it says nothing here
                self.keys.append(set())


def contradicted(table: dict, releases: list[str], real: RealIR) -> list[tuple]:
    """Claims real IR disproves, taken out of ``table``: a release said to refuse a feature that reads and compiles
    (and runs, where it ran it) a real file holding it (verdicts from scripts/label_compiles.py's cache). A probe is
    a small model: where a real one holding the same feature passes, the probe failed for something of its own; so
    did its siblings' probes failing there in the same words (the same kind of feature)."""
    from label_compiles import measure as measure_real

    table_before = dict(table)
    holding: dict[tuple, list[int]] = {}
    for k, keys in enumerate(real.keys):
        for key in keys:
            if key in table:
                holding.setdefault(key, []).append(k)
    real = real.files  # type: ignore[assignment]
    out = []
    for release in releases:
        i = RELEASES.index(release)
        wanted = [k for key, ks in holding.items() for k in ks if at(table[key], i)[1]]
        if not wanted:
            continue
        said = dict(zip(sorted(set(wanted)), measure_real(release, [real[k][1] for k in sorted(set(wanted))])))
        for key, ks in holding.items():
            runs = list(table[key])
            stage = at(runs, i)[1]
            passed = [real[k][0] for k in ks if k in said and outcome(said[k])[0] is None]
            if stage and passed:
                out.append((key, release, passed[0]))
                full = [at(runs, j)[1:] for j in range(len(RELEASES))]
                full[i] = (None, None)
                table[key] = tuple((j, s, w) for j, (s, w) in runs_of(full))
    # a failure real files contradict for one feature is the probes' own for its siblings too: the same kind of
    # feature, refused by the same release in the same words
    wrong = {(key[0], release, at(table_before[key], RELEASES.index(release))[2]) for key, release, _ in out}
    for key, runs in list(table.items()):
        full = [at(runs, j)[1:] for j in range(len(RELEASES))]
        hit = [j for j, (s, w) in enumerate(full) if s and (key[0], RELEASES[j], w) in wrong]
        for j in hit:
            out.append((key, RELEASES[j], "(as its siblings)"))
            full[j] = (None, None)
        if hit:
            table[key] = tuple((j, s, w) for j, (s, w) in runs_of(full))
    for key in [k for k, v in table.items() if all(s is None for _, s, _ in v)]:
        del table[key]
    return out


def runs_of(values: list) -> list:
    return [(i, v) for i, v in runs(values)]


_UNIMPLEMENTED = re.compile(r"Unsupported operation of type|not implemented for op|Cannot fallback on ngraph reference")


def reduce(probes: list, verdicts: dict, releases: list[str], explained: dict,
           unclaimed: dict) -> tuple[dict, list]:
    """The table from the probes' verdicts: per feature and release, refused where every probe of the feature
    that the release reads fails one way (stage and words of the first), taken where every one passes, else mixed
    (no claim). ``explained``: a table whose refusals explain a probe's failure by another of its features (the
    probe then left out on that release, and said so in ``unclaimed``)."""
    names = {c.name: k for k, (c, _, _, _, _) in enumerate(probes)}
    by_key: dict[tuple, list[int]] = {}
    for k, (c, _, _, _, _) in enumerate(probes):
        by_key.setdefault(c.key, []).append(k)

    def stage(k: int, release: str) -> tuple:
        return outcome(verdicts[release][k], probes[k][0].infer)

    def explains(k: int, release: str, got: str) -> bool:
        c, _, _, _, keys = probes[k]
        if c.base and c.base in names and stage(names[c.base], release)[0] == got:
            unclaimed[(c.name, release)] = f"{c.base}, the op's own probe, fails there too"
            return True
        i = RELEASES.index(release)
        for other in keys - {c.key}:
            runs = explained.get(other)
            if runs and at(runs, i)[1] == got and any(
                    c.key not in probes[q][4] and stage(q, release)[0] == got for q in by_key.get(other, ())):
                # another feature explains it, shown to fail there by a probe of its own that does not hold this
                # one (two features always together would otherwise explain each other away)
                unclaimed.pop((c.name, release), None)  # irreshape reports it, for that other feature
                return True
        return False

    table: dict[tuple, tuple] = {}
    mixed = []
    for key, members in sorted(by_key.items(), key=lambda kv: repr(kv[0])):
        per_release = []
        for release in releases:
            got = [(stage(k, release), k) for k in members]
            read = [(o, k) for o, k in got if o[0] != "read" and not (o[0] and explains(k, release, o[0]))]
            if not read or all(o[0] is None for o, _ in read):
                per_release.append((None, None))
                continue
            failing = [(o, k) for o, k in read if o[0] is not None]
            stages = {o[0] for o, _ in failing}
            # an op version's own probes say only whether the plugin implements it: another failure of theirs
            # comes of their inputs' values (a probe's, not the op's), and is claimed for no file
            unimplemented = key[0] != "op" or all(o[0] == "compile" and _UNIMPLEMENTED.search(o[1] or "")
                                                  for o, _ in failing)
            if len(failing) != len(read) or len(stages) != 1 or "timeout" in stages or not unimplemented:
                mixed.append((key, release, [(probes[k][0].name, o[0]) for o, k in got]))
                per_release.append((None, None))
                continue
            (s, message), k = failing[0]
            _, _, name, layer_names, _ = probes[k]
            per_release.append((s, "" if s == "crash" else template(message, name, layer_names)))
        if any(s is not None for s, _ in per_release):
            index = [RELEASES.index(r) for r in releases]
            full = [(None, None)] * len(RELEASES)
            for i, v in zip(index, per_release):
                full[i] = v
            table[key] = tuple((i, s, w) for i, (s, w) in runs(full))
    return table, mixed


def write_table(table: dict, n: int) -> None:
    head = f'''"""Generated by scripts/make_plugins.py from each openvino release's own CPU plugin: do not edit.

{n} probes compiled by each release (tests/irtools/plugincases.py). REFUSED: a feature (the key of a detector of
irreshape.checks.plugin) -> ((first release index, stage, words), ...), each entry holding from that release on
(up to the next): stage None (the CPU plugin takes it), "compile" (compile_model fails, in those words, with
{{name}} the layer's name), "crash" (the process dies in compile_model) or "infer" (the first inference fails).
An index is one into irreshape.shapes.releases.RELEASES; NEWEST that of the newest release (the reference).
Measured on three classes of x86 CPU: an AMX machine's (AVX-512 with bf16: the plugin infers in bf16) and the same
restricted (oneDNN's ONEDNN_MAX_CPU_ISA) to {" and to ".join(ISAS)} (f32); a probe fails where it fails on every one.
"""

NEWEST = {len(RELEASES) - 1}

REFUSED = '''
    OUT.write_text(head + pprint.pformat(table, width=120, sort_dicts=True) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(table)} features")


def write_labels(probes: list, verdicts: dict, releases: list[str], unclaimed: dict) -> None:
    """Each probe's stage per release, and where the table claims nothing of its feature, why (a failure there
    irreshape does not report)."""
    cases, left = {}, {}
    for k, (c, _, _, _, _) in enumerate(probes):
        stages = [outcome(verdicts[r][k], c.infer)[0] if r in verdicts else None for r in RELEASES]
        cases[c.name] = [[i, s] for i, s in runs(stages)]
        why = {r: unclaimed[(c.name, r)] for r in releases if (c.name, r) in unclaimed}
        if why:
            left[c.name] = why
    LABELS.write_text(json.dumps({"releases": list(RELEASES), "cases": cases, "unclaimed": left}, indent=0,
                                 sort_keys=True) + "\n")
    print(f"wrote {LABELS.relative_to(ROOT)}: {len(cases)} probes")

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
