"""irreshape against ``read_model`` on graph shapes that are not a chain of transformer blocks (issue 24).

Each graph is written with openvino's opset API at a size N and at 2N, and checked by one fresh process
each, best of ``--repeat``; beside it, a process that only runs ``Core().read_model`` on the same file.
Printed per shape and size: both process times, their ratio (goal ≤ 1) and, per shape, what doubling the
graph costs irreshape (goal ≤ 2.5).

    python benchmarks/shapes.py [--workdir /tmp/irreshape-shapes] [--repeat 3] [--only concat,pins]
    python benchmarks/shapes.py --scale 0.1       # small graphs, a quick look

Shapes (N at the default scale):

- ``chain``: N = 2,500 elementwise layers in one chain (Add of a shared constant, ReLU, in turn);
- ``concat``: one Concat of N = 10,000 inputs, each a Parameter ``[?,4]``;
- ``pins``: N = 40 Parameters ``[?,64]``, each through 50 elementwise layers and then a Reshape whose constant
  pattern ``[1,8,8]`` pins the batch to 1 (every one is an IR503);
- ``branches``: N = 1,500 parallel branches Reshape → Transpose → Reshape of one input, summed by a chain of Adds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

PY = sys.executable
IRRESHAPE = [PY, "-m", "irreshape", "check", "--output-format", "json", "--exit-zero", "-o", os.devnull]
READ_MODEL = [PY, "-c", "import sys, openvino as ov; ov.Core().read_model(sys.argv[1])"]
SIZES = {"chain": 2500, "concat": 10000, "pins": 40, "branches": 1500, "split": 5000, "results": 5000,
         "loop": 2500, "ifs": 12, "const": 2_000_000}


def build(shape: str, n: int, path: Path) -> None:
    """Write graph ``shape`` at size ``n`` to ``path`` (an IR .xml and its .bin)."""
    import numpy as np
    import openvino as ov
    import openvino.opset15 as o

    if shape == "chain":
        x = o.parameter([1, 64], np.float32, name="x")
        c = o.constant(np.ones((1, 64), np.float32))
        y = x
        for i in range(n):
            y = o.add(y, c) if i % 2 == 0 else o.relu(y)
        params, results = [x], [o.result(y)]
    elif shape == "concat":
        params = [o.parameter([-1, 4], np.float32, name=f"x{i}") for i in range(n)]
        results = [o.result(o.concat(params, 1))]
    elif shape == "pins":
        params, results = [], []
        for i in range(n):
            x = o.parameter([-1, 64], np.float32, name=f"x{i}")
            c = o.constant(np.full((1, 64), 0.5, np.float32))
            y = x
            for k in range(50):
                y = o.multiply(y, c) if k % 2 == 0 else o.relu(y)
            y = o.reshape(y, o.constant(np.array([1, 8, 8], np.int64)), False)
            params.append(x)
            results.append(o.result(y))
    elif shape == "branches":
        x = o.parameter([2, 64, 8], np.float32, name="x")
        split = o.constant(np.array([2, 8, 8, 8], np.int64))
        back = o.constant(np.array([2, 64, 8], np.int64))
        order = o.constant(np.array([0, 2, 1, 3], np.int64))
        total = None
        for _ in range(n):
            y = o.reshape(o.transpose(o.reshape(x, split, False), order), back, False)
            total = y if total is None else o.add(total, y)
        params, results = [x], [o.result(total)]
    elif shape == "split":
        x = o.parameter([2, n, 8], np.float32, name="x")
        parts = o.split(x, o.constant(np.int64(1)), n).outputs()
        y = o.concat([o.relu(p) for p in parts], 1)
        params, results = [x], [o.result(y)]
    elif shape == "results":
        x = o.parameter([-1, 16], np.float32, name="x")
        params = [x]
        results = [o.result(o.multiply(x, o.constant(np.full((1, 16), i, np.float32)))) for i in range(n)]
    elif shape == "loop":
        body_x = o.parameter([-1, 16], np.float32, name="bx")
        y = body_x
        for i in range(n):
            y = o.add(y, o.constant(np.ones((1, 16), np.float32))) if i % 2 == 0 else o.relu(y)
        body = ov.Model([o.result(o.constant(True)), o.result(y)], [body_x], "body")
        x = o.parameter([-1, 16], np.float32, name="x")
        loop = o.loop(o.constant(np.int64(4)), o.constant(True))
        loop.set_function(body)
        loop.set_special_body_ports([-1, 0])
        loop.set_merged_input(body_x, x.output(0), body.get_results()[1].output(0))
        params, results = [x], [o.result(loop.get_iter_value(body.get_results()[1].output(0), -1))]
    elif shape == "ifs":
        def nest(depth: int, x_outer):
            inner = o.parameter([-1, 16], np.float32, name=f"p{depth}")
            y = o.relu(inner) if depth == 0 else nest(depth - 1, inner)
            then = ov.Model([o.result(y)], [inner], f"then{depth}")
            other_x = o.parameter([-1, 16], np.float32, name=f"q{depth}")
            other = ov.Model([o.result(o.negative(other_x))], [other_x], f"else{depth}")
            node = o.if_op(o.constant(True))
            node.set_then_body(then)
            node.set_else_body(other)
            node.set_input(x_outer.output(0), inner, other_x)
            return node.set_output(then.get_results()[0], other.get_results()[0])
        x = o.parameter([-1, 16], np.float32, name="x")
        params, results = [x], [o.result(nest(n - 1, x))]
    elif shape == "const":
        x = o.parameter([n], np.float32, name="x")
        idx = o.constant(np.arange(n, dtype=np.int64)[::-1].copy())
        y = o.add(o.gather(x, idx, o.constant(np.int64(0))), o.constant(np.ones(n, np.float32)))
        params, results = [x], [o.result(o.reshape(y, o.constant(np.array([-1, 1000], np.int64)), False))]
    else:
        raise ValueError(shape)
    ov.save_model(ov.Model(results, params, shape), str(path), compress_to_fp16=False)


_ENV: dict[str, str] = {}


def _set_env(workdir: Path) -> None:
    """Children write and reuse bytecode in a cache of their own, as an installed package does (with
    PYTHONDONTWRITEBYTECODE every start would compile irreshape's sources again, ~0.3 s), and import this
    checkout's irreshape."""
    src = str(Path(__file__).resolve().parent.parent / "src")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    _ENV.update(env, PYTHONWARNINGS="ignore", PYTHONPYCACHEPREFIX=str(workdir / "pycache"))


def run(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one fresh process running ``argv``."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, env=_ENV)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        sys.exit(f"exit status {p.returncode} from {' '.join(argv)}")
    return wall, usage.ru_utime + usage.ru_stime


def medians(cases: list[list[str]], repeat: int) -> list[tuple[float, float]]:
    """Each case's median (wall, CPU) of ``repeat`` runs, the cases taken in turn so that load hits them alike."""
    samples: list[list[tuple[float, float]]] = [[] for _ in cases]
    for _ in range(repeat):
        for i, argv in enumerate(cases):
            samples[i].append(run(argv))
    return [(statistics.median(w for w, _ in s), statistics.median(c for _, c in s)) for s in samples]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workdir", default="/tmp/irreshape-shapes")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each process (medians are shown)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every N (0.1: a quick look)")
    ap.add_argument("--only", default="", help="comma-separated shapes (default: all)")
    ap.add_argument("irreshape_args", nargs="*", help="extra `irreshape check` options (after --)")
    args = ap.parse_args()
    shapes = [s for s in SIZES if not args.only or s in args.only.split(",")]
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    _set_env(work)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; medians of {args.repeat} "
          "(wall, and CPU = user + system)")
    print(f"{'graph':<10} {'N':>7} {'irreshape':>10} {'cpu':>7} {'read_model':>11} {'cpu':>7} {'ratio':>6} "
          f"{'cpu':>5} {'growth':>7} {'cpu':>5}")
    worst_ratio = worst_growth = worst_cpu_ratio = worst_cpu_growth = 0.0
    for shape in shapes:
        base = max(1, round(SIZES[shape] * args.scale))
        first = None
        for n in (base, 2 * base):
            path = work / f"{shape}-{n}.xml"
            if not path.exists():
                build(shape, n, path)
            (ours, our_cpu), (theirs, their_cpu) = medians(
                [[*IRRESHAPE, *args.irreshape_args, str(path)], [*READ_MODEL, str(path)]], args.repeat)
            growth = "" if first is None else f"{ours / first[0]:7.2f} {our_cpu / first[1]:5.2f}"
            print(f"{shape:<10} {n:>7} {ours:>9.3f}s {our_cpu:>6.3f}s {theirs:>10.3f}s {their_cpu:>6.3f}s "
                  f"{ours / theirs:>6.2f} {our_cpu / their_cpu:>5.2f} {growth}", flush=True)
            worst_ratio = max(worst_ratio, ours / theirs)
            worst_cpu_ratio = max(worst_cpu_ratio, our_cpu / their_cpu)
            if first is not None:
                worst_growth = max(worst_growth, ours / first[0])
                worst_cpu_growth = max(worst_cpu_growth, our_cpu / first[1])
            first = ours, our_cpu
    print(f"worst ratio {worst_ratio:.2f} wall, {worst_cpu_ratio:.2f} CPU (goal <= 1); worst growth {worst_growth:.2f} "
          f"wall, {worst_cpu_growth:.2f} CPU (goal <= 2.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
