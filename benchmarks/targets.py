"""What runtime targets cost (issue 30): ``check --target R`` against the same check without it, and ``compat``
over every release against a plain check, measured as pairs in one run.

Each round runs, one fresh process each and one right after the other, on each input: the plain check
(``check --output-format json``), the same with ``--target 2023.3``, and ``compat --output-format json`` with
every release irreshape knows as a column; wall time and CPU time (user + system, GNU time or ``os.wait4``) of
each. A round's ratios are taken within the round (the pair ran under the same load); the table shows the
medians of the rounds' ratios and of the times. Goals: ``--target`` adds at most 10%, ``compat`` costs at most 2x
a plain check. The inputs: the deep Llama IR of bench.py (``make_deep_ir.py``, ``--layers``), a YOLOv8 export
from ``../shared/wild-ir`` where it is present (MaxPool-14: refused by 2023.3), and bench.py's repository of 200
IR pairs.

    python benchmarks/targets.py [--workdir /tmp/irreshape-bench] [--layers 512] [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import PY, Case, _set_env  # noqa: E402
from make_deep_ir import REPO, ensure  # noqa: E402

WILD = REPO.parent / "shared" / "wild-ir"
YOLO = "Ceyjie__testrecog__yolov8n.xml"


def _releases() -> list[str]:
    sys.path.insert(0, str(REPO / "src"))
    from irreshape.shapes.targets import known

    return list(known())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/irreshape-bench"))
    ap.add_argument("--layers", type=int, default=512, help="decoder layers of the deep Llama IR (see bench.py)")
    ap.add_argument("--repeat", type=int, default=7, help="rounds (the medians are shown)")
    args = ap.parse_args()

    _set_env(args.workdir)
    inputs = ensure(args.workdir, args.layers, log=lambda m: print(m, file=sys.stderr))
    files = {"deep IR": str(inputs["deep"])}
    if (WILD / YOLO).exists():
        files["YOLOv8n (wild-ir)"] = str(WILD / YOLO)
    files["200 IR pairs, -j 1"] = str(inputs["repo"])
    every = ",".join(_releases())
    check = [PY, "-m", "irreshape", "check", "--isolated", "--output-format", "json", "-j", "1"]
    compat = [PY, "-m", "irreshape", "compat", "--isolated", "--output-format", "json", "-j", "1", "--release", every]
    scratch = args.workdir / "targets-time.out"
    rows = []
    for label, path in files.items():
        cases = {"plain": Case("check", check + [path]),
                 "target": Case("check --target 2023.3", check + ["--target", "2023.3", path]),
                 "compat": Case(f"compat, {every.count(',') + 1} releases", compat + [path])}
        for case in cases.values():  # warm the bytecode and the page cache
            case.run(scratch)
            case.clear()
        ratios: dict[str, list[float]] = {k: [] for k in ("target wall", "target cpu", "compat wall", "compat cpu")}
        for _ in range(args.repeat):
            for case in cases.values():
                case.run(scratch)
            plain, target, comp = cases["plain"], cases["target"], cases["compat"]
            ratios["target wall"].append(target.walls[-1] / plain.walls[-1])
            ratios["target cpu"].append(target.cpus[-1] / plain.cpus[-1])
            ratios["compat wall"].append(comp.walls[-1] / plain.walls[-1])
            ratios["compat cpu"].append(comp.cpus[-1] / plain.cpus[-1])
        rows.append((label, cases, {k: statistics.median(v) for k, v in ratios.items()}))

    print(f"{args.repeat} rounds, medians; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
          f"({time.strftime('%Y-%m-%d %H:%M')})\n")
    print(f"{'input':<22} {'case':<26} {'wall':>8} {'CPU':>8}")
    for label, cases, _ in rows:
        for case in cases.values():
            print(f"{label:<22} {case.label:<26} {case.wall:7.3f}s {case.cpu:7.3f}s")
    print(f"\n{'input':<22} {'ratio (pairs, median)':<34} {'value':>6}  {'goal':<6} met")
    for label, _, r in rows:
        for key, goal in (("target wall", 1.10), ("target cpu", 1.10), ("compat wall", 2.0), ("compat cpu", 2.0)):
            name = ("--target / plain check" if key.startswith("target") else "compat / plain check") + \
                (" (wall)" if key.endswith("wall") else " (CPU)")
            print(f"{label:<22} {name:<34} {r[key]:6.3f}  <= {goal:<4} {'yes' if r[key] <= goal else 'NO'}")


if __name__ == "__main__":
    main()
