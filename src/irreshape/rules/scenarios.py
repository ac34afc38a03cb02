"""Input-shape scenarios: will the IR still hold at input shapes other than the ones it was exported with?"""

from __future__ import annotations

from ..core.findings import ERROR, PROBES, SCENARIOS, WARNING, rule

REJECTED = rule("IR501", "scenario-rejected", ERROR, """
    Under an input-shape scenario, OpenVINO rejects a layer.

    With the scenario's shapes (`--input-shape NAME=[dims]`, or a table of `[tool.irreshape.input-shapes]`),
    `Model.reshape` fails there ("Shape inference of Reshape node ... failed", a MatMul's inner dims, a
    Concat off its axis...).

    The model loads as exported, then fails the first time an input takes that shape. The typical cause is a
    Reshape whose constant pattern was traced at one batch or sequence length (openvino issue 25764: a
    YOLOv8 model converted with `--input_shape [-1,3,448,448]` fails at batch 2). The message names the
    scenario and the dims on the way; `irreshape explain FILE LAYER` shows how the shape was reached. A
    scenario is checked instead of the declared dims, so the declared-versus-expected rules are off in it.
    """, needs=(SCENARIOS,))
VOLUME = rule("IR502", "scenario-volume-mismatch", ERROR, """
    Under an input-shape scenario, a Reshape's static input and output hold different element counts.

    OpenVINO skips the spec's volume check whenever the pattern holds -1 or a special zero, so such a model
    passes `Model.reshape`, compiles, and then fails at inference (or, on the CPU plugin, corrupts memory).
    The spec forbids it: the pattern fits the exported shape and no other.
    """, needs=(SCENARIOS,))
PINNED = rule("IR503", "pinned-dynamic-dim", WARNING, """
    A layer pins a dynamic input dim to one value, or to the multiples of one (or to none).

    Its output is fixed while the element count it needs lets one dynamic Parameter dim take exactly one
    value, or only the multiples of a number; or the layer holds at none of the values tried of the one dynamic
    dim it depends on (`[?,2]` reshaped by `Concat(ShapeOf(x)[0], [7, 12])`: 84 elements a row out of 2).

    `[?,64,8400]` reshaped by the constant `[1,4,16,8400]` runs at batch 1 only; `[?,C]` reshaped by the
    constant `[-1,8,C]` only at batches divisible by 8; a Squeeze of a dynamic dim only where it is 1. The
    exporter traced the constant at one value: the model loads, and fails when the shape changes. The
    message names the Parameter and dim that get pinned and the values that work (found by re-inferring
    the graph at other values of that dim, as `Model.reshape` would). Shape-driven patterns (ShapeOf),
    `-1` and special zeros that copy the dim hold for every value and never warn. Check other shapes
    with `--input-shape`.
    """, needs=(PROBES,))

RULES = (REJECTED, VOLUME, PINNED)
