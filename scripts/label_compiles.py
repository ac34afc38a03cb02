"""Compile real IR with every release's own wheel and label it: ``tests/data/targets/compiles.json``, for each file
the stage at which each release stops on it ("read", "compile", "crash", "infer", "timeout", or null: it reads,
compiles and, with static inputs, runs it once on zeros), as runs of releases; then irreshape's answer for each
(file, release) against the label (:mod:`irtools.compilelabels`): agreed, missed (a release stops on the file
past its reader and irreshape says it runs), false (irreshape says a release's CPU plugin stops on a file the
release runs).

The files: every IR under tests/data (but the generated read-stage cases of tests/data/targets/generated) and
../shared/wild-ir beside the clone (labelled as ``wild-ir/NAME``; the tests skip them where the folder is absent),
plus any ``--extra DIR`` (judged, not labelled: a corpus outside the repository).

    python scripts/label_compiles.py [--releases ...] [--extra /work/corpus/frontends] [--no-write] [-v]
                                     [--only today/ --only models/ ...]

``--only PREFIX`` judges only the files whose label starts with one of the prefixes (``today/``, ``wild-ir/``,
``extra:/work/corpus/llm``); labels are written only for a full run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "scripts")]

from ovreleases import RELEASES, compile_classes, words  # noqa: E402

DATA = ROOT / "tests" / "data"
WILD = ROOT.parent / "shared" / "wild-ir"
LABELS = DATA / "targets" / "compiles.json"
CACHE = Path(os.environ.get("IRRESHAPE_COMPILE_CACHE", "/work/scratch/compile-cache"))  # by content, per release


def files(extra: list[str]) -> list[tuple[str, Path]]:
    """(label, path) of every file judged."""
    out = []
    for p in sorted(DATA.rglob("*.xml")):
        if "targets/generated" in p.as_posix() or "hostile" in p.as_posix():
            continue
        try:
            if b"<net" not in p.read_bytes()[:4096]:
                continue
        except OSError:
            continue
        out.append((p.relative_to(DATA).as_posix(), p))
    if WILD.is_dir():
        out += [(f"wild-ir/{p.name}", p) for p in sorted(WILD.glob("*.xml"))]
    for d in extra:
        out += [(f"extra:{p}", p) for p in sorted(Path(d).rglob("*.xml"))]
    return out


def measure(release: str, paths: list[Path]) -> list[dict]:
    """Each file's verdict on ``release``, from the cache where the file's content was judged before."""
    return compile_classes(release, paths, CACHE)


def main(argv: list[str]) -> int:
    from irtools.compilelabels import agrees, compress, stage_of, verdicts

    ap = argparse.ArgumentParser()
    ap.add_argument("--releases", default=",".join(RELEASES))
    ap.add_argument("--extra", action="append", default=[])
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("-v", action="store_true", help="print every disagreement with the release's words")
    ap.add_argument("--only", action="append", default=[], help="only the files whose label starts so")
    args = ap.parse_args(argv)
    releases = args.releases.split(",")
    judged = [(label, p) for label, p in files(args.extra) if not args.only or label.startswith(tuple(args.only))]
    measured: dict[str, list[dict]] = {}
    for release in releases:
        t = time.time()
        measured[release] = measure(release, [p for _, p in judged])
        print(f"{release}: {len(judged)} files in {time.time() - t:.0f} s", flush=True)
    labels = {}
    tally = {"agreed": 0, "missed": 0, "false": 0, "pairs stopping past the reader": 0,
             "pairs stopping on some classes of CPU only (not claimed)": sum(1 for r in releases for v in measured[r] if v.get("only"))}
    for k, (label, path) in enumerate(judged):
        stages = [stage_of(measured[r][k]) if r in measured else None for r in RELEASES]
        if not label.startswith("extra:"):
            labels[label] = compress(stages)
        ours = verdicts(str(path))
        if ours is None:
            continue
        for r in releases:
            i = RELEASES.index(r)
            theirs, mine = stages[i], ours[i]
            if theirs == "read" or mine == "read":
                continue  # the reader's table is checked elsewhere (scripts/target_harness.py)
            if theirs in ("compile", "crash", "infer", "timeout"):
                tally["pairs stopping past the reader"] += 1
            if (theirs is None) == (mine is None) and (theirs is None or agrees(theirs, mine) or theirs == "timeout"):
                tally["agreed"] += 1
                continue
            kind = "missed" if mine is None else "false" if theirs is None else "missed"
            tally[kind] += 1
            v = measured[r][k]
            said = v.get("compile") if theirs in ("compile", "crash") else v.get("infer")
            print(f"  {kind}: {label} on {r}: release {theirs}, irreshape {mine}"
                  + (f": {(words(said) or '')[:200]!r}" if args.v and said else ""))
    print(json.dumps(tally))
    if not args.no_write and set(releases) == set(RELEASES) and not args.only:
        LABELS.write_text(json.dumps({"releases": list(RELEASES), "files": labels}, indent=0, sort_keys=True)
                          + "\n")
        print(f"wrote {LABELS.relative_to(ROOT)}: {len(labels)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
