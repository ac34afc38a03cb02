#!/usr/bin/env python3
"""Real conversions of the kinds each older release's CPU plugin refuses past its reader, for the compile-stage
tests (issue 36): small random-weight models, converted by openvino 2026.4.1, written to ``tests/data/compile/``
(committed: the tests need only openvino). One part per framework venv (scripts/export_frontends.py makes them):

    /work/venvs/torch/bin/python scripts/make_compile_fixtures.py torch
    /work/venvs/tf/bin/python    scripts/make_compile_fixtures.py tf

* torch (``torch.jit.script``): an If whose branches give different ranks on a condition that compares a value
  with itself (``q.size(1) == k.size(1)``, q and k projections of one input: 2026.0's CPU plugin folds it) and one
  on a condition known only at run time (``x.size(0) > 0``);
* tf: a Keras SimpleRNN on a static input (its while loop's TensorArray a back edge that changes shape), the
  same model's TensorFlow ``tf.math.is_finite`` graph into ``tf.where`` and ``tf.reduce_all``, and through
  tf2onnx (IsInf and IsNaN into an Or, both also outputs).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "compile"
sys.path.insert(0, str(ROOT / "scripts"))


def torch_part() -> None:
    import openvino as ov
    import torch
    import torch.nn as nn

    torch.manual_seed(36)

    class SameLength(nn.Module):
        """A query/key length check: q.size(1) == k.size(1) picks a flattened view."""

        def __init__(self, d: int = 16) -> None:
            super().__init__()
            self.q, self.k = nn.Linear(d, d), nn.Linear(d, d)

        def forward(self, x):
            q, k = self.q(x), self.k(x)
            if q.size(1) == k.size(1):
                y = q.flatten(1)
            else:
                y = q
            return y + 1

    class RunTime(nn.Module):
        """A batch check only the run time can answer: x.size(0) > 0."""

        def forward(self, x):
            if x.size(0) > 0:
                y = x.flatten()
            else:
                y = x * 2
            return y + 1

    x = torch.randn(2, 5, 16)
    for name, module in (("torch_if_same_length", SameLength()), ("torch_if_run_time", RunTime())):
        model = ov.convert_model(torch.jit.script(module.eval()), example_input=(x,), input=[[-1, -1, 16]])
        _save(model, name)


def tf_part() -> None:
    import openvino as ov
    from export_frontends import _concrete, _convert_graph_def, _frozen, _tf, _tf2onnx

    tf, _ = _tf()
    k = tf.keras
    tmp = Path(tempfile.mkdtemp())
    inp = k.Input((5, 3), name="seq", batch_size=2)
    model = k.Model(inp, k.layers.Dense(2)(k.layers.SimpleRNN(4)(inp)))
    _save(ov.convert_model(model), "keras_simplernn_static")

    def is_finite(x):
        m = tf.math.is_finite(x)
        return tf.where(m, x, 0.0), tf.reduce_all(m, axis=-1), tf.math.is_nan(x), tf.math.is_inf(x)

    spec = [tf.TensorSpec([2, 6], tf.float32, name="in0")]
    _save(_convert_graph_def(tf, _frozen(tf, _concrete(tf, is_finite, *spec)), tmp, "is_finite"), "tf_is_finite")
    _save(_tf2onnx(tf, tf.function(is_finite, autograph=False), spec, tmp, "is_finite"), "tf2onnx_is_finite")


def _save(model, name: str) -> None:
    import openvino as ov

    OUT.mkdir(parents=True, exist_ok=True)
    ov.save_model(model, str(OUT / f"{name}.xml"), compress_to_fp16=False)
    print(f"wrote {OUT / name}.xml", flush=True)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("part", choices=("torch", "tf"))
    args = ap.parse_args(argv)
    {"torch": torch_part, "tf": tf_part}[args.part]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
