"""Generated Reshapes on dynamic inputs judged by openvino and by irreshape (needs openvino): the pins of a dynamic
dim (IR503) and the CPU-plugin failures of models read_model reads (IR4xx). ``tests/irtools/pins.py`` makes the
cases (patterns mixing Const values, special zeros, -1, ShapeOf/Gather/Divide pieces, special_zero true and false,
dynamic dims at various positions); ``Model.reshape`` over a grid of the dynamic dims and the CPU plugin's
inference at several sizes are the truth. Prints:

* pinned: cases that hold at some assignments and not others, and how many irreshape finds (IR503);
* cpu: cases the CPU plugin runs at some sizes and fails at others, how many get a warning on the Reshape, and of
  those whose shapes OpenVINO infers at every size with volumes that agree (the plugin alone fails) how many get
  an IR4xx (behind a special zero OpenVINO builds a Reshape whose volumes disagree: a case that holds at some
  sizes only is a pin, IR503's, and one that holds at none an error or IR404's);
* controls: cases that hold and run everywhere, and how many get an IR503 or IR4xx (unfair, target 0).

    python scripts/pins.py -n 400 --seed 1 --json pins.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from irtools import pins  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write every miss and unfair warning here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        judged = pins.cases(args.n, args.seed, Path(tmp))
    pinned = [j for j in judged if j.truth.pinned]
    cpu = [j for j in judged if j.truth.cpu_fails]
    cpu_only = [j for j in cpu if j.truth.cpu_only]
    controls = [j for j in judged if j.truth.always and j.truth.cpu and all(j.truth.cpu.values())]
    never = [j for j in judged if not any(j.truth.holds.values())]
    misses = {"pin missed": [j for j in pinned if not j.pin_found],
              "cpu not warned": [j for j in cpu if not j.warned],
              "cpu-only without IR4xx": [j for j in cpu_only if not j.cpu_warned],
              "unfair": [j for j in controls if j.unfair]}
    print(f"cases {len(judged)}")
    print(f"pinned {len(pinned)}: found {len(pinned) - len(misses['pin missed'])}")
    print(f"cpu failures {len(cpu)}: warned {len(cpu) - len(misses['cpu not warned'])}; "
          f"the plugin alone {len(cpu_only)}: IR4xx {len(cpu_only) - len(misses['cpu-only without IR4xx'])}")
    print(f"controls {len(controls)}: unfair {len(misses['unfair'])}")
    print(f"never hold {len(never)}: with an error or a warning {sum(j.warned for j in never)}")
    for what, got in misses.items():
        for j in got[:10]:
            print(f"  {what}: {j.spec} codes={sorted(j.codes)}")
    if args.json:
        Path(args.json).write_text(json.dumps({what: [[str(j.spec), sorted(j.codes)] for j in got]
                                               for what, got in misses.items()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
