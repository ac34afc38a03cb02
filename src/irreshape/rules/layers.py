"""Every layer's declared dims against the whole graph inferred from its Parameters, as OpenVINO infers it."""

from __future__ import annotations

from ..core.findings import ERROR, GRAPH, INFO, WARNING, rule

OUTPUT_MISMATCH = rule("IR301", "layer-output-mismatch", ERROR, """
    A layer's declared output dims differ from the dims OpenVINO infers for it.

    OpenVINO's `read_model` ignores the `<dim>`s an IR declares and infers every layer's output from the
    Parameters' `shape` attributes, the Consts' `shape` attributes and each op's shape inference; a
    declared dim that the inferred one can never be (a different static value, a value outside an
    interval) is a lie every other tool believes. The message names the dims that differ.
    """, fixable=True, needs=(GRAPH,))
RANK_MISMATCH = rule("IR302", "layer-rank-mismatch", ERROR, """
    A layer declares an output rank other than the one OpenVINO infers for it.
    """, fixable=True, needs=(GRAPH,))
REJECTED = rule("IR303", "layer-rejected", ERROR, """
    OpenVINO rejects the layer: its shape inference fails on the inputs the graph gives it.

    Incompatible broadcast, MatMul inner dims, Concat dims off the axis, a Convolution whose channels do
    not match its weights, an axis out of range: `read_model` refuses such a file. So does it a layer whose
    `element_type` it cannot read, or one of whose output ports declares a `precision` that spells no type
    (`bool`, `fp32`: "Unsupported element type"). The message quotes OpenVINO's own error where it has one.
    """, needs=(GRAPH,))
UNPROVEN = rule("IR304", "layer-dim-unproven", WARNING, """
    A static dim is declared where OpenVINO infers a dynamic one (`?` or an interval) that contains it
    (on any layer, the Reshape family's included).

    Not a contradiction: the dim may well take that value at run time, but OpenVINO cannot prove it, and
    its serializer would write -1. Model Optimizer 2020-2021 files declare `100` for NonMaxSuppression
    outputs that OpenVINO 2026 infers as `..100`, and so do the layers after them. Raise its severity in
    `[tool.irreshape.severity]` to make it strict. `--fix` writes -1.
    """, fixable=True, needs=(GRAPH,))
DYNAMIC_DECLARED = rule("IR305", "layer-declared-dynamic", WARNING, """
    A dim is declared -1 (dynamic) where OpenVINO infers a static one.

    Harmless to OpenVINO, but tools that read the XML lose information.
    """, fixable=True, needs=(GRAPH,))
EDGE_MISMATCH = rule("IR306", "edge-mismatch", ERROR, """
    A layer's input port declares dims other than those its producer's output carries.

    Judged against the producer's inferred output, and against its declared output too: an input port
    that repeats a lying producer's declared dims is covered by the producer's own finding. `--fix` rewrites
    the input port's dims to what the producer carries (its output as OpenVINO infers it).
    """, fixable=True, needs=(GRAPH,))
PRECISION_MISMATCH = rule("IR307", "precision-mismatch", WARNING, """
    A port's `precision` is not the element type OpenVINO infers for it: an output port's against the type its
    layer computes, an input port's against what its producer carries.

    `read_model` ignores port precisions, exactly as it ignores `<dim>`s, so the file loads; but tools that
    read the XML (scripts sizing input buffers, viewers, code generators) take the precision for the truth.
    A warning by default: such files load and run. Raise its severity in `[tool.irreshape.severity]` to make it
    strict. An output port that no edge leaves is not judged: no layer and no Result takes its tensor, so its
    precision misleads no tool (Model Optimizer and POT wrote MaxPool's unused indices FP32 where they are i64). An IR v10 model's inputs and outputs are no lie when they declare what `read_model` converts them
    to (it puts a Convert after each f16 Parameter, which it makes f32, and after each layer feeding a Result
    of a type other than f32 and i32, to i32 from i64, u64 and u32, to f32 from any other): a Parameter or a
    layer feeding a Result may declare its own type or that one. An input port that repeats its producer's
    lying precision is covered by the producer's finding. A precision that spells no type on an output port
    is no warning: `read_model` refuses the file (IR303). `--fix` rewrites the `precision` attribute (of the
    output port and of the consumers' input ports that repeat it), nothing else.
    """, fixable=True, needs=(GRAPH,))
INCONSISTENT = rule("IR308", "declared-dims-inconsistent", ERROR, """
    A layer's declared output dims do not follow from the dims its inputs declare, where those inputs rest on
    layers irreshape cannot verify (an op without shape inference in irreshape, or one whose output it cannot
    tell exactly as OpenVINO does).

    irreshape does not say what OpenVINO infers or rejects there: the dims it would infer from rest on declared
    dims it took from the XML. But it infers this layer exactly from whatever its inputs are, so the declared
    dims contradict each other: the layer's own, or those of the unverified layer behind it (named in the
    message), lie. A layer that agrees with its inputs' declared dims is left unverified without a finding.
    """, needs=(GRAPH,))
NOT_INFERRED = rule("IR309", "op-not-inferred", INFO, """
    irreshape has no shape inference for this op type (a custom or extension op, or one the registry lacks):
    its declared dims are trusted as they are, once per op type and file.
    """, needs=(GRAPH,))

RULES = (OUTPUT_MISMATCH, RANK_MISMATCH, REJECTED, UNPROVEN, DYNAMIC_DECLARED, EDGE_MISMATCH, PRECISION_MISMATCH,
         INCONSISTENT, NOT_INFERRED)
