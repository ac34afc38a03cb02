"""The precision-lie sweep (``tests/irtools/precisionsweep.py``) over real IR: for ports picked at random in each
file, one port's ``precision`` rewritten to every other spelling; prints how many lies irreshape finds on their
layer with no other finding, and every miss (needs openvino).

    python scripts/precision_sweep.py --ports 4 --seed 1            # every source file, 4 ports each
    python scripts/precision_sweep.py --sources wild --ports 2 -v
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from irtools import fuzzing, precisionsweep  # noqa: E402

SOURCES = {"models": fuzzing.MODELS, "today": fuzzing.TODAY, "wild": fuzzing.WILD}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ports", type=int, default=3, help="ports per file (default 3)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sources", default="models,today,wild", help="comma-separated: models, today, wild")
    ap.add_argument("--max-mb", type=float, default=20, help="skip XML files larger than this (default 20)")
    ap.add_argument("--brief", action="store_true",
                    help="the test's spellings (tests/checks/test_precision_sweep.py) instead of all of them")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every edit's verdict")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    spellings = precisionsweep.BRIEF if args.brief else precisionsweep.SPELLINGS + precisionsweep.REFUSED
    counts: Counter = Counter()
    misses = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in args.sources.split(","):
            for path in sorted(SOURCES[name].glob("*.xml")):
                if path.stat().st_size > args.max_mb * 1e6 or not path.with_suffix(".bin").exists():
                    continue
                source = precisionsweep.Source.read(path)
                if source is None:
                    counts["sources refused"] += 1
                    continue
                counts["sources"] += 1
                before = sum(counts[k] for k in ("lie", "refused", "no lie"))
                for edit in precisionsweep.edits(source, rng, args.ports, spellings):
                    v = precisionsweep.judge(edit, folder)
                    kind = "refused" if v.refused else "lie" if v.lie else "no lie"
                    counts[kind] += 1
                    counts[f"{kind} ok"] += v.ok
                    if not v.ok:
                        misses.append(v)
                        print(f"MISS {edit} [{kind}]: {v.why}", flush=True)
                    elif args.verbose:
                        print(f"ok   {edit} [{kind}]", flush=True)
                n = sum(counts[k] for k in ("lie", "refused", "no lie")) - before
                print(f"{path.name}: {n} edits, {len(misses)} misses so far", flush=True)
    for kind in ("lie", "refused", "no lie"):
        print(f"{kind}: {counts[f'{kind} ok']}/{counts[kind]} as read_model says")
    print(f"{counts['sources']} files ({counts['sources refused']} refused as they are), {len(misses)} misses")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
