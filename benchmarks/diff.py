"""What ``irreshape diff`` costs (issue 38): ``diff OLD NEW`` against ``check OLD NEW`` of the same two files, run
one right after the other in each round. Goal: a diff costs at most twice the check of its two files.

Each round runs, one fresh process each, per input pair: ``check --output-format json OLD NEW`` and ``diff
--output-format json OLD NEW``, each with ``-j 1`` and with the default ``--jobs``; wall time and CPU time (user +
system, GNU time or ``os.wait4``). A round's ratios are taken within the round (the pair ran under the same load);
the table shows the medians of the rounds' ratios and of the times.

Inputs, built once and cached under ``--workdir`` (openvino's opset API and ``save_model``, random weights, no
downloads):

- **decoder stack**: ``--blocks`` blocks of a transformer decoder (MVN, q/k/v projections, heads split by a
  Reshape with special zeros, attention, a two-layer MLP, residual Adds; f32 weights, dynamic batch and sequence),
  against the same file read and saved again by OpenVINO with its weights compressed to f16 (``read_model`` +
  ``save_model``: every Const changes, a Convert after each);
- **YOLOv8n**: two Ultralytics exports from ``../shared/wild-ir`` (640 and 320 input), where present;
- **directories**: ``tests/data/models`` and ``examples/ir`` against themselves (every file paired).

    python benchmarks/diff.py [--workdir /tmp/irreshape-diff-bench] [--blocks 1024] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import _ENV, PY, Case, _set_env  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WILD = REPO.parent / "shared" / "wild-ir"
YOLO = ("Ceyjie__testrecog__yolov8n.xml", "spcc-dev__ObjectDetection__yolov8n.xml")


def build_stack(path: Path, blocks: int) -> None:
    """A decoder stack of ``blocks`` blocks (hidden 64, 4 heads, MLP 128) with dynamic batch and sequence."""
    import numpy as np
    import openvino as ov
    import openvino.opset15 as o

    rng = np.random.default_rng(0)

    def weight(*shape: int):
        return o.constant(rng.standard_normal(shape).astype(np.float32) * 0.05)

    x = o.parameter([-1, -1, 64], np.float32, name="hidden_states")
    x.output(0).set_names({"hidden_states"})
    heads = o.constant(np.array([0, 0, 4, 16], np.int64))
    merge = o.constant(np.array([0, 0, 64], np.int64))
    order = o.constant(np.array([0, 2, 1, 3], np.int64))
    scale = o.constant(np.float32(0.25))
    axes = o.constant(np.array([-1], np.int64))
    y = x
    for _ in range(blocks):
        n = o.mvn(y, axes, True, 1e-5, "inside_sqrt")

        def split(t):
            return o.transpose(o.reshape(o.matmul(t, weight(64, 64), False, False), heads, True), order)

        q, k, v = split(n), split(n), split(n)
        att = o.softmax(o.multiply(o.matmul(q, k, False, True), scale), -1)
        ctx = o.reshape(o.transpose(o.matmul(att, v, False, False), order), merge, True)
        y = o.add(y, o.matmul(ctx, weight(64, 64), False, False))
        mlp = o.matmul(o.relu(o.matmul(o.mvn(y, axes, True, 1e-5, "inside_sqrt"), weight(64, 128), False, False)),
                       weight(128, 64), False, False)
        y = o.add(y, mlp)
    out = o.result(y)
    out.output(0).set_names({"logits"})
    ov.save_model(ov.Model([out], [x], "stack"), str(path), compress_to_fp16=False)


def ensure(workdir: Path, blocks: int) -> dict[str, tuple[str, str]]:
    """The input pairs, built where missing."""
    import openvino as ov

    pairs: dict[str, tuple[str, str]] = {}
    old, new = workdir / f"stack{blocks}" / "old" / "model.xml", workdir / f"stack{blocks}" / "new" / "model.xml"
    if not new.exists():
        old.parent.mkdir(parents=True, exist_ok=True)
        new.parent.mkdir(parents=True, exist_ok=True)
        print(f"building the decoder stack ({blocks} blocks)...", file=sys.stderr)
        build_stack(old, blocks)
        ov.save_model(ov.Core().read_model(str(old)), str(new))  # compress_to_fp16 by default
    pairs[f"decoder stack ({blocks} blocks, {old.stat().st_size / 1e6:.1f} MB XML) vs re-saved f16"] = (str(old),
                                                                                                     str(new))
    if all((WILD / y).exists() for y in YOLO):
        pairs["YOLOv8n 640 vs 320 (wild-ir)"] = (str(WILD / YOLO[0]), str(WILD / YOLO[1]))
    repo = workdir / "dirs"
    if not repo.exists():
        (repo / "a").mkdir(parents=True)
        for src in (REPO / "tests" / "data" / "models", REPO / "examples" / "ir"):
            shutil.copytree(src, repo / "a" / src.name)
        shutil.copytree(repo / "a", repo / "b")
    n = sum(1 for _ in (repo / "a").rglob("*.xml"))
    pairs[f"two directories of {n} IRs"] = (str(repo / "a"), str(repo / "b"))
    return pairs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/irreshape-diff-bench"))
    ap.add_argument("--blocks", type=int, default=1024, metavar="N", help="blocks of the decoder stack")
    ap.add_argument("--repeat", type=int, default=5, metavar="N", help="rounds (the medians are shown)")
    args = ap.parse_args()
    _set_env(args.workdir)
    _ENV["PYTHONPATH"] = str(REPO / "src")  # this checkout's irreshape, whatever is installed
    pairs = ensure(args.workdir, args.blocks)
    scratch = args.workdir / "diff-time.out"
    base = [PY, "-m", "irreshape"]
    common = ["--isolated", "--output-format", "json", "-o", os.devnull]
    rows = []
    for label, (old, new) in pairs.items():
        for jobs in (["-j", "1"], []):
            check = Case("check", base + ["check", *common, *jobs, old, new])
            diff = Case("diff", base + ["diff", *common, *jobs, old, new])
            walls, cpus = [], []
            for _ in range(args.repeat):
                check.run(scratch)
                diff.run(scratch)
                walls.append(diff.walls[-1] / check.walls[-1])
                cpus.append(diff.cpus[-1] / check.cpus[-1])
            rows.append((label, " ".join(jobs) or "default -j", check, diff, statistics.median(walls),
                         statistics.median(cpus)))
            print(f"{label} [{rows[-1][1]}]: check {check.wall:.3f} s / {check.cpu:.3f} s, diff {diff.wall:.3f} s / "
                  f"{diff.cpu:.3f} s, diff/check {rows[-1][4]:.2f} wall, {rows[-1][5]:.2f} CPU", file=sys.stderr)
    load = os.getloadavg()[0]
    print(f"\n{args.repeat} rounds, load average {load:.1f}, {os.cpu_count()} cores (medians; wall / CPU)\n")
    print("| input | jobs | check OLD NEW | diff OLD NEW | diff / check |")
    print("|---|---|---:|---:|---:|")
    for label, jobs, check, diff, wall, cpu in rows:
        print(f"| {label} | {jobs} | {check.wall:.3f} s / {check.cpu:.3f} s | {diff.wall:.3f} s / {diff.cpu:.3f} s | "
              f"{wall:.2f} / {cpu:.2f} |")
    worst = max(max(r[4], r[5]) for r in rows)
    print(f"\nworst ratio {worst:.2f}: goal (<= 2) {'met' if worst <= 2 else 'MISSED'}")


if __name__ == "__main__":
    main()
