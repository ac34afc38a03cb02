"""Write the fixtures of the runtime-target tests (``tests/data/compat/``): small IRs, each holding one thing
that older OpenVINO releases refuse (an op version, an attribute value, an element type) or nothing of the kind,
built with openvino 2026.4.1's opset API and written by its ``save_model`` (so that 2026.4.1 reads each of them).

With ``--labels`` it then reads each fixture with every release's own ``read_model`` (one venv per release, see
``scripts/ovreleases.py``; ``IRRESHAPE_VENVS`` names their folder) and writes ``tests/data/compat/labels.json``:
per file, per release, None where the release reads it, else the release's words. The tests compare
``--target`` and ``compat`` with those labels (CI has no old releases).

    python scripts/make_target_fixtures.py [--labels]   # the system python's openvino (2026.4.1)
"""

from __future__ import annotations

import os
import sys

import numpy as np
import openvino as ov
import openvino.opset8 as o8
import openvino.opset14 as o14
import openvino.opset15 as o15
import openvino.opset17 as o17

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "compat")


def _image(name: str = "images"):
    return o8.parameter([1, 3, 16, 16], ov.Type.f32, name=name)


def yolo_like(rounding: str) -> ov.Model:
    """A YOLOv8 SPPF block: a Conv, three MaxPool-14 (5x5, stride 1, pad 2) chained, their Concat."""
    x = _image()
    w = o8.constant(np.random.default_rng(0).standard_normal((4, 3, 1, 1)).astype(np.float32), name="conv.weight")
    conv = o8.convolution(x, w, [1, 1], [0, 0], [0, 0], [1, 1], name="conv")
    p1 = o14.max_pool(conv, [1, 1], [1, 1], [2, 2], [2, 2], [5, 5], rounding_type=rounding, name="sppf.m")
    p2 = o14.max_pool(p1.output(0), [1, 1], [1, 1], [2, 2], [2, 2], [5, 5], rounding_type=rounding, name="sppf.m_1")
    cat = o8.concat([conv, p1.output(0), p2.output(0)], 1, name="sppf.cat")
    return ov.Model([o8.result(cat, name="output0")], [x], "yolo_sppf")


def plain() -> ov.Model:
    """Nothing newer than opset8: every release reads it."""
    x = _image()
    pool = o8.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2], name="pool")
    shape = o8.constant(np.array([1, -1], dtype=np.int64), name="flatten/shape")
    flat = o8.reshape(pool.output(0), shape, False, name="flatten")
    return ov.Model([o8.result(flat, name="out")], [x], "plain")


def col2im() -> ov.Model:
    """Col2Im-15 (from 2024.3), after a Relu-1."""
    x = o8.parameter([1, 12, 9], ov.Type.f32, name="cols")
    relu = o8.relu(x, name="relu")
    size = o8.constant(np.array([4, 4], dtype=np.int64), name="output_size")
    kernel = o8.constant(np.array([2, 2], dtype=np.int64), name="kernel_size")
    fold = o15.col2im(relu, size, kernel, name="fold")
    return ov.Model([o8.result(fold, name="out")], [x], "col2im")


def squeeze15() -> ov.Model:
    """Squeeze-15 (opset15 from 2024.3, its Squeeze only from 2024.6)."""
    x = o8.parameter([1, 3, 1, 4], ov.Type.f32, name="x")
    axes = o8.constant(np.array([2], dtype=np.int64), name="axes")
    sq = o15.squeeze(x, axes, name="squeeze")
    return ov.Model([o8.result(sq, name="out")], [x], "squeeze15")


def f8_weights() -> ov.Model:
    """An f8e4m3 Const converted to f32 and added to the input (f8e4m3 from 2024.0)."""
    x = o8.parameter([1, 4], ov.Type.f32, name="x")
    w = ov.op.Constant(ov.Type.f8e4m3, ov.Shape([1, 4]), [0.5, 1.0, 1.5, 2.0])
    w.set_friendly_name("weight_f8")
    up = o8.convert(w, ov.Type.f32, name="weight_f8/convert")
    add = o8.add(x, up, name="add")
    return ov.Model([o8.result(add, name="out")], [x], "f8_weights")


def erfinv() -> ov.Model:
    """ErfInv-17 (from 2026.2)."""
    x = o8.parameter([2, 3], ov.Type.f32, name="x")
    e = o17.erfinv(x, name="erfinv")
    return ov.Model([o8.result(e, name="out")], [x], "erfinv17")


MODELS = {
    "yolo_sppf_maxpool14.xml": lambda: yolo_like("floor"),
    "maxpool14_ceil_torch.xml": lambda: yolo_like("ceil_torch"),
    "plain_opset8.xml": plain,
    "col2im15.xml": col2im,
    "squeeze15.xml": squeeze15,
    "f8e4m3_weights.xml": f8_weights,
    "erfinv17.xml": erfinv,
}


def labels() -> None:
    """Every release's verdict on every fixture, into labels.json."""
    import json

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from ovreleases import RELEASES, read_all, words

    names = sorted(MODELS)
    paths = [os.path.join(OUT, n) for n in names]
    table: dict[str, dict[str, str | None]] = {n: {} for n in names}
    for release in RELEASES:
        for name, got in zip(names, read_all(release, paths)):
            table[name][release] = words(got["e"])
        print("read with", release)
    with open(os.path.join(OUT, "labels.json"), "w") as f:
        json.dump({"written_by": "scripts/make_target_fixtures.py --labels", "releases": list(RELEASES),
                   "files": table}, f, indent=1, sort_keys=False)
        f.write("\n")


def main() -> int:
    os.makedirs(OUT, exist_ok=True)
    core = ov.Core()
    for name, make in MODELS.items():
        path = os.path.join(OUT, name)
        ov.save_model(make(), path, compress_to_fp16=False)
        core.read_model(path)  # 2026.4.1 reads what it wrote
        print("wrote", os.path.relpath(path))
    if "--labels" in sys.argv[1:]:
        labels()
    return 0


if __name__ == "__main__":
    sys.exit(main())
