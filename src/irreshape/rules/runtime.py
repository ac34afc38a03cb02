"""OpenVINO's CPU plugin (IR4xx): models that `read_model` accepts and the CPU plugin of openvino 2026.4.1 fails to
compile or to run, each measured by compiling and running generated models: the Reshape family's own (IR401-IR404)
and what the compile-stage table says of 2026.4.1 (IR405-IR407)."""

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

COMPILE_REFUSED = rule("IR405", "plugin-compile-refused", WARNING, """
    openvino 2026.4.1's CPU plugin refuses the model at `compile_model`, though `read_model` reads it.

    What the plugin refuses is measured, never guessed: scripts/make_plugins.py compiles small models holding
    each feature (an op version, a model input's element type, a tensor of dynamic rank, an attribute written
    empty, weights of a packed type...) with each release's own wheel, and the compile-stage table
    (`src/irreshape/shapes/plugins.py`) keeps what each release refuses, in its words. The finding is on the
    layer that holds the feature and quotes the plugin; an If whose branches give different ranks, used
    downstream, is one ("CPU plug-in doesn't support If operation with dynamic rank"). A Reshape, Squeeze or
    Unsqueeze that makes a dynamic rank is IR401's. `--target R` tells the same of an older release R (IR611 to
    IR615).
    """, needs=(PLUGIN,))
COMPILE_CRASH = rule("IR406", "plugin-compile-crash", WARNING, """
    openvino 2026.4.1's CPU plugin kills the process in `compile_model` on the model, though `read_model` reads
    it.

    Measured as IR405 is: an AvgPool-16 whose `dilations` attribute is written empty (as openvino's own Python
    builder writes it when no dilations are given) is read without a word and takes the process down when the
    model is compiled for CPU (2025.4 and later). Nothing can catch it in the application: give the attribute
    its values (`dilations="1,1"`).
    """, needs=(PLUGIN,))
INFER_FAILED = rule("IR407", "plugin-infer-failed", WARNING, """
    openvino 2026.4.1's CPU plugin compiles the model and fails at its first inference.

    Measured as IR405 is, by running each probe once on inputs of zeros.
    """, needs=(PLUGIN,))

RULES = (DYNAMIC_RANK, AXIS_SKIP, DYNAMIC_AXIS, VOLUME_MISMATCH, COMPILE_REFUSED, COMPILE_CRASH, INFER_FAILED)
