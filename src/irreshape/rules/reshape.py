"""Reshape-family layers (Reshape, and oneDNN's StaticReshape and DynamicReshape): their rules."""

from __future__ import annotations

from ..core.findings import ERROR, INFO, WARNING, rule

OUTPUT_MISMATCH = rule("IR101", "reshape-output-mismatch", ERROR, """
    A Reshape's declared output dims differ from the dims recomputed from its input and pattern.

    OpenVINO ignores declared dims when it reads an IR and re-infers them, so such a file loads
    without a word, while every tool that reads the XML (viewers, partitioners, code generators)
    is misled. A declared static dim must be one the recomputed dim can take: another static value,
    or a value outside a recomputed interval such as `1..8`, is this error; a static value inside a
    dynamic dim is IR304 (a warning). Fix: re-export the model, or run `irreshape check --fix`.
    """, fixable=True)
RANK_MISMATCH = rule("IR102", "reshape-rank-mismatch", ERROR, """
    A Reshape declares a different number of output dims than its pattern produces.
    """, fixable=True)
INVALID_PATTERN = rule("IR103", "reshape-invalid-pattern", ERROR, """
    OpenVINO rejects the Reshape: the pattern cannot be applied to the input.

    Covers two `-1`s, values below -1, a special zero past the input rank, a `-1` that does not
    divide evenly, a literal 0 with a `-1`, a static volume mismatch, a pattern that is not a 1-D
    integer tensor. The message quotes OpenVINO's own error text. For StaticReshape and
    DynamicReshape, oneDNN's rules apply: with special_zero=false a shape may not hold both 0
    and -1.
    """)
VOLUME_MISMATCH = rule("IR104", "reshape-volume-mismatch", ERROR, """
    Input and output are fully static and hold different numbers of elements.

    The Reshape spec requires equal volumes, but OpenVINO skips the check whenever the pattern has a
    `-1` or a special zero: `[2,3,4]` reshaped by `[0,5]` (special_zero=true) loads as `[2,5]` and
    only fails at run time on the CPU plugin. irreshape reports it.
    """)
DYNAMIC_DECLARED = rule("IR105", "reshape-declared-dynamic", WARNING, """
    A dim is declared `-1` (dynamic) but its recomputed value is static.

    Harmless to OpenVINO, but tools that read the XML lose information; `--fix` writes the value.
    """, fixable=True)
INPUT_MISMATCH = rule("IR106", "reshape-input-mismatch", ERROR, """
    The dims on a Reshape's input port differ from the output port of the layer that feeds it.

    `--fix` rewrites the input port to what its producer carries in OpenVINO's reading (the producer
    is left as it is).
    """, fixable=True)
CONSUMER_MISMATCH = rule("IR107", "reshape-consumer-mismatch", ERROR, """
    A layer consuming the Reshape's output declares input dims that differ from the Reshape's output.

    `--fix` rewrites the consumer's input port to the Reshape's output as OpenVINO infers it.
    """, fixable=True)
PATTERN_PORT = rule("IR108", "reshape-pattern-port-mismatch", ERROR, """
    The Reshape's shape input port is not 1-D with as many elements as the shape tensor holds.
    """)
UNVERIFIED = rule("IR109", "reshape-unverified", INFO, """
    The Reshape's shape could not be evaluated, so its output dims were not verified.

    The message names what stopped the evaluation (an op type irreshape does not evaluate, a
    Parameter, a missing weight). The output rank is still checked against the pattern's length.
    """)
SPECIAL_ZERO = rule("IR110", "reshape-special-zero-spelling", WARNING, """
    `special_zero` is missing or not one of `true`, `false`, `1`, `0` (any case).

    OpenVINO silently reads anything else, and a missing attribute, as `false`.
    """)

LITERAL_ZERO = rule("IR111", "reshape-literal-zero", ERROR, """
    With special_zero=false a 0 in the pattern is a literal 0, so the output is empty, while the input
    is not known to be empty.

    The classic special_zero mistake (a 0 meant to copy an input dim): OpenVINO accepts it for a
    dynamic input, where no volume check runs, and the model fails or computes nothing at run
    time. Where the input has a static 0 the empty output is intended and nothing is reported.
    """)

RULES = (OUTPUT_MISMATCH, RANK_MISMATCH, INVALID_PATTERN, VOLUME_MISMATCH, DYNAMIC_DECLARED,
         INPUT_MISMATCH, CONSUMER_MISMATCH, PATTERN_PORT, UNVERIFIED, SPECIAL_ZERO, LITERAL_ZERO)
