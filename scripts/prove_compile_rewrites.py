"""Prove the compile-stage rewrites of ``--fix --target`` (irreshape.fixers.downgrade.COMPILE_REWRITES) with each
release's wheel: writes ``tests/data/targets/compile-rewrites.json``, the labels tests/fixers/test_compile_rewrites.py
checks the table against.

For each case (a small model holding a feature some release's CPU plugin refuses, written by openvino 2026.4.1):

1. for each release whose CPU plugin irreshape says refuses the case (the compile-stage table), the file is fixed by
   ``irreshape check --fix --target R`` in a copy; irreshape's own target check of the fixed file must then say
   nothing of R;
2. R reads, compiles and runs the fixed file, in a process of its own (scripts/ovreleases.py ``compile_all``);
3. 2026.4.1 runs the fixed file and a reference model of what the layer computes (the same op in its older form,
   built with openvino's API) on the same seeded inputs: the outputs must be identical, bit for bit.

    python scripts/prove_compile_rewrites.py [--releases 2025.0.0,...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "scripts")]

import numpy as np  # noqa: E402
import openvino as ov  # noqa: E402
from openvino import opset1, opset16  # noqa: E402

import ovreleases  # noqa: E402

OUT = ROOT / "tests" / "data" / "targets" / "compile-rewrites.json"


def models() -> dict[str, tuple]:
    """name -> (the model holding the feature, the reference model computing the same, its input shape)."""
    out = {}
    x = opset1.parameter([2, 3], ov.Type.f32, name="x")
    out["identity16"] = (ov.Model([opset1.result(opset1.relu(opset16.identity(x)))], [x], "m"),
                         _model(lambda p: opset1.relu(p), [2, 3]), [2, 3])
    for shape, kernel, strides, exclude in (([1, 3, 8, 8], [2, 2], [1, 1], True), ([1, 2, 9, 7], [3, 2], [2, 1], False),
                                            ([1, 2, 6, 6, 6], [2, 2, 2], [2, 2, 2], True)):
        n = len(kernel)
        x = opset1.parameter(shape, ov.Type.f32, name="x")
        pool = opset16.avg_pool(x, strides, [0] * n, [0] * n, kernel, exclude)
        ref = _model(lambda p: opset1.avg_pool(p, strides, [0] * n, [0] * n, kernel, exclude), shape)
        out[f"avgpool16_empty_dilations_{n}d_{'exclude' if exclude else 'include'}"] = (
            ov.Model([opset1.result(pool)], [x], "m"), ref, shape)
    return out


def _model(make, shape) -> ov.Model:
    x = opset1.parameter(shape, ov.Type.f32, name="x")
    return ov.Model([opset1.result(make(x))], [x], "ref")


_RUN = r"""
import sys, numpy as np, openvino as ov
c = ov.Core().compile_model(sys.argv[1], "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
r = c.create_infer_request()
r.infer([np.load(sys.argv[2])])
np.savez(sys.argv[3], *[r.get_output_tensor(i).data for i in range(len(c.outputs))])
"""


def run(xml: str, feed: np.ndarray) -> list[np.ndarray]:
    """The outputs of ``xml`` on ``feed`` with this python's openvino (2026.4.1), f32, in a process of its own (a
    file that takes compile_model down must not take this script with it): [] where it does not run."""
    import subprocess

    with tempfile.TemporaryDirectory() as d:
        np.save(os.path.join(d, "feed.npy"), feed)
        out = os.path.join(d, "out.npz")
        if subprocess.run([sys.executable, "-c", _RUN, xml, os.path.join(d, "feed.npy"), out],
                          capture_output=True).returncode:
            return []
        with np.load(out) as z:
            return [z[f"arr_{i}"] for i in range(len(z.files))]


def main() -> None:
    from irreshape import lint
    from irreshape.checks.openvino import check_path
    from irreshape.core.results import Options
    from irreshape.lint.config import Settings
    from irreshape.rules import ALL
    from irreshape.shapes.compiles import refusals

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--releases", default=",".join(ovreleases.RELEASES))
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="prove-compile-")
    labels: dict = {"cases": {}}
    for name, (model, ref, shape) in models().items():
        src = os.path.join(folder, f"{name}.xml")
        ov.save_model(model, src, compress_to_fp16=False)
        features = check_path(src, Options()).features
        feed = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        reference = os.path.join(folder, f"{name}.reference.xml")
        ov.save_model(ref, reference, compress_to_fp16=False)
        expected = run(reference, feed)
        assert expected, f"the reference of {name} does not run"
        row: dict = {}
        fixed: dict[str, str] = {}
        for release in args.releases.split(","):
            if not refusals(features, release):
                continue
            dst = os.path.join(folder, f"{name}.{release}.xml")
            shutil.copyfile(src, dst)
            shutil.copyfile(src[:-4] + ".bin", dst[:-4] + ".bin")
            lint.run([dst], Settings(enabled=frozenset(r.code for r in ALL), fix="fix",
                                     targets=((release, release),)))
            left = [c.what for c in refusals(check_path(dst, Options()).features, release)]
            row[release] = {"left": left}
            fixed[release] = dst
        for release, dst in fixed.items():
            got = ovreleases.compile_all(release, [dst])[0]
            row[release]["runs"] = all(v in (None, "skipped") for v in got.values())
            row[release]["said"] = next((ovreleases.words(v) for v in got.values() if v not in (None, "skipped")),
                                        None)
            outs = run(dst, feed)
            row[release]["same_on_2026.4.1"] = bool(outs) and len(outs) == len(expected) and all(
                a.shape == b.shape and np.array_equal(a, b) for a, b in zip(outs, expected))
        labels["cases"][name] = row
        print(name, {r: (v["runs"], v["same_on_2026.4.1"], v["left"]) for r, v in row.items()}, file=sys.stderr)
    OUT.write_text(json.dumps(labels, indent=1, sort_keys=True) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    print(f"wrote {OUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
