"""The Reshape family on OpenVINO's CPU plugin (IR4xx): models that `read_model` accepts and the CPU plugin of
openvino 2026.4.1 fails to compile or to run, each measured by compiling and running generated models."""

from __future__ import annotations

from ..core.findings import PLUGIN, WARNING, rule

DYNAMIC_RANK = rule("IR401", "reshape-dynamic-rank-output", WARNING, """
    A Reshape, Squeeze or Unsqueeze makes a tensor of dynamic rank, which the CPU plugin cannot compile.

    `read_model` accepts an output whose rank it cannot tell (the IR writes it as a port without `<dim>`): a
    Reshape pattern whose length is dynamic (a Parameter of shape `[?]`), a Squeeze without axes of a dynamic dim
    that may be 1, a Squeeze whose axes are unknown (more than one of them, or with `allow_axis_skip`), an
    Unsqueeze whose axes are unknown.
    openvino 2026.4.1's CPU plugin fails at `compile_model`: "CPU plug-in doesn't support Reshape operation with
    dynamic rank. Operation name: X", X being this layer. A Squeeze-15 without `allow_axis_skip` is judged as the
    Squeeze-0 the plugin turns it into (one unknown axis leaves Squeeze-0 a static rank). Only the layer that makes
    the rank dynamic is reported: the plugin names that one, not the layers after it.
    """, needs=(PLUGIN,))
AXIS_SKIP = rule("IR402", "squeeze-axis-skip-dynamic", WARNING, """
    A Squeeze-15 with `allow_axis_skip=true` and an axes input, on an input with a dynamic dim: the CPU plugin
    cannot compile it.

    The CPU plugin turns a Squeeze-15 into a Squeeze-0 only without `allow_axis_skip`, and has no shape inference of
    its own for Squeeze-15: any dynamic dim of the input (on a squeezed axis or not) makes openvino 2026.4.1's
    `compile_model` fail with "[cpu]reshape: Squeeze is not implemented", a message that names no layer. On a static
    input it compiles and runs. Where the output's rank is dynamic, IR401 is reported instead.
    """, needs=(PLUGIN,))
DYNAMIC_AXIS = rule("IR403", "squeeze-dynamic-dim", WARNING, """
    A Squeeze removes a dynamic dim as if it were 1: on the CPU plugin any other value fails, or is silently
    reshaped.

    Squeeze-0 (and Squeeze-15 without `allow_axis_skip`) removes an axis whose dim is dynamic but may be 1 (`?`,
    `0..1`, `1..4`), and OpenVINO infers everything after it from that. openvino 2026.4.1's CPU plugin compiles
    the model and runs it while the dim is 1; with another value inference fails ("Can not clone with new dims",
    or "[cpu]reshape: the shape of input data ... conflicts with the reshape pattern" under the name of a
    downstream element-wise node the plugin fused with the Squeeze), or, where the Squeeze's output keeps a
    dynamic dim, the plugin's Reshape silently folds the elements into that dim. Not reported where the plugin
    takes the Squeeze out of the graph: its static output only feeds ShapeOfs, or (through element-wise ops and
    static reshapes) a Reshape whose pattern is computed, which the plugin merges with it.
    """, needs=(PLUGIN,))
VOLUME_MISMATCH = rule("IR404", "reshape-volume-mismatch-dynamic", WARNING, """
    Beside the dims its special zeros copy, a Reshape's input and output hold different numbers of elements on a
    dynamic input, whatever values its dynamic dims take: the CPU plugin fails at inference on every non-empty
    input.

    IR104 on a dynamic input. With a pattern of known values and no -1, `[?,3,4]` reshaped by `[0,5]`
    (special_zero=true) loads as `[?,5]`, since OpenVINO checks no volume where a dim is dynamic, and
    `compile_model` accepts it; at inference openvino 2026.4.1's CPU plugin compares the volumes and fails:
    "[cpu]reshape: the shape of input data (2.3.4) conflicts with the reshape pattern (0.5)", under the
    Reshape's name or that of an element-wise node it fused with it. The same where the dims not copied have
    dynamic ones that can take no values that fit (`[?,8]` by `[4]`, `[3,?]` by `[0,2]`). Where a dynamic dim
    may take the one value that fits (`[?,4]` by `[8]`, `[2,?,4]` by `[0,7,4]`), real models rely on it: nothing
    is reported here, and IR503 says where a Parameter's dim is pinned that way.
    """, needs=(PLUGIN,))

RULES = (DYNAMIC_RANK, AXIS_SKIP, DYNAMIC_AXIS, VOLUME_MISMATCH)
