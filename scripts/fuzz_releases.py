"""The differential fuzz across releases: real IR edited as a careless script would (tests/irtools/fuzzing.py's
mutations of ../shared/wild-ir, tests/data/models and tests/data/today), each edit read, compiled for CPU and, with
static inputs, run once on zeros by every release's own wheel on every class of CPU measured
(:func:`ovreleases.compile_classes`, through scripts/label_compiles.py's cache), and irreshape's answer per release
(:func:`irtools.compilelabels.verdicts`: the stage at which it says the release stops) held against it:

* refused: (edit, release) pairs the release stops on (its read_model, its CPU plugin, the first inference); of
  them, "an error": irreshape's ``check --target`` reports an error for that release (the plain check's, or an
  IR6xx of the release; target: all), and "the stage named": compat names the stage at which it stops;
* false: pairs the release runs where irreshape reports an IR6xx of it or compat says it stops (target 0);
* IR900: edits on which irreshape fails itself (target 0).

Only edits 2026.4.1 reads are held against the releases (what 2026.4.1 refuses is scripts/fuzz.py's), and only on
the releases that run the unmutated source. Sources larger than ``--max-mb`` are left out (each edit is compiled by
every release).

    python scripts/fuzz_releases.py -n 80 --seed 3 [--releases 2023.0.0,...] [-v]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "scripts")]

from ovreleases import RELEASES  # noqa: E402


def main(argv: list[str]) -> int:
    from irtools import fuzzing
    from irtools.compilelabels import agrees, stage_of, verdicts
    from label_compiles import measure

    from irreshape.api import check

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=80, help="edits")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--releases", default=",".join(RELEASES))
    ap.add_argument("--max-mb", type=float, default=4.0, help="leave out sources larger than this (XML and .bin)")
    ap.add_argument("--work", default="/tmp/irreshape-fuzz-releases")
    ap.add_argument("-v", action="store_true", help="print every disagreement")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    releases = args.releases.split(",")
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)

    sources = [fuzzing.Source.load(p) for p in fuzzing.sources()
               if (p.stat().st_size + p.with_suffix(".bin").stat().st_size) / 1e6 <= args.max_mb]
    edits: list[tuple[Path, str, str, int]] = []  # (path, kind, what, index of its source)
    tries = 0
    while len(edits) < args.n and tries < 20 * args.n:
        tries += 1
        kind = fuzzing.KINDS[len(edits) % len(fuzzing.KINDS)]
        k = rng.randrange(len(sources))
        m = fuzzing.mutate(sources[k], kind, rng)
        if m is None:
            continue
        path = work / f"{len(edits):04d}.xml"
        path.write_bytes(m.xml)
        path.with_suffix(".bin").write_bytes(m.bin)
        edits.append((path, kind, f"{path.name} ({m.source}): {m.what}", k))
    print(f"{len(edits)} edits of {len(sources)} sources", flush=True)

    t0 = time.time()
    # each release's verdict on each edit and on each source unmutated (an edit of a source the release stops on
    # already, a tokenizer without its extension, says nothing of the edit)
    paths = [p for p, _, _, _ in edits] + [s.path for s in sources]
    with ThreadPoolExecutor(2) as pool:
        measured = dict(zip(releases, pool.map(lambda r: measure(r, paths), releases)))
    print(f"judged by {len(releases)} releases in {time.time() - t0:.0f} s", flush=True)

    tally: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for k, (path, kind, what, source) in enumerate(edits):
        report = check(str(path), isolated=True, jobs=1, target=releases)
        findings = report.files[0].findings
        if any(f.code == "IR900" for f in findings):
            tally[kind]["IR900"] += 1
            print(f"  IR900: {what}")
        plain = any(f.severity == "error" and "target" not in f.extra for f in findings)
        targeted = {f.extra["target"] for f in findings if f.severity == "error" and "target" in f.extra}
        ours = verdicts(str(path))
        if ours is None:  # 2026.4.1 itself refuses it (scripts/fuzz.py's), or irreshape reads no model
            tally[kind]["not read by 2026.4.1"] += 1
            continue
        for release in releases:
            if stage_of(measured[release][len(edits) + source]) is not None:
                tally[kind]["source stops there"] += 1
                continue
            theirs, mine = stage_of(measured[release][k]), ours[RELEASES.index(release)]
            tally[kind]["pairs"] += 1
            if theirs == "timeout":
                tally[kind]["timeout"] += 1
            elif theirs is not None:
                tally[kind]["refused"] += 1
                if plain or release in targeted:
                    tally[kind]["an error"] += 1
                else:
                    tally[kind]["no error"] += 1
                    print(f"  no error: {what} on {release}: the release stops at {theirs}")
                if agrees(theirs, mine):
                    tally[kind]["the stage named"] += 1
                elif args.v:
                    print(f"  stage not named: {what} on {release}: release {theirs}, irreshape {mine}")
            elif release in targeted or mine is not None:
                tally[kind]["false"] += 1
                print(f"  false: {what} on {release}: irreshape says it stops ({mine}), the release runs it")
    total: collections.Counter = collections.Counter()
    for kind, c in sorted(tally.items()):
        total.update(c)
        print(f"{kind:16s} {json.dumps(dict(c), sort_keys=True)}")
    print(f"{'total':16s} {json.dumps(dict(total), sort_keys=True)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
