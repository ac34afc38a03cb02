"""Runtime targets (IR6xx): will an older OpenVINO release read this IR, and will its CPU plugin compile it?

``irreshape check --target 2023.3`` (or ``target = ["2023.3"]`` in the configuration) asks, for each target
release, every reason its ``read_model`` refuses the file. Each reason is one kind of refusal
(:class:`irreshape.shapes.targets.Refusal`'s ``kind``), each kind one rule here: the finding is on the layer the
release names, its message starts with the release and quotes the release's own words, and the JSON finding
carries ``"target"``. What each release reads comes from one table, measured from each release's wheel by
``scripts/make_releases.py`` (``shapes/releases.py``).
"""

from __future__ import annotations

from ..core.findings import ERROR, TARGETS, Rule, rule

OPSET = rule("IR601", "target-unknown-opset", ERROR, """
    The target release does not know the opset a layer's `version` names.

    Each release reads a fixed set of opsets: 2023.0 up to opset11, opset12 from 2023.1, opset13 from 2023.2,
    opset14 from 2024.0, opset15 from 2024.2, opset16 from 2025.0, opset17 from 2026.2 (measured with each
    release's wheel; `src/irreshape/shapes/releases.py` holds the table).
    Its `read_model` refuses the file at the first such layer: "Cannot create MaxPool layer pool id:3 from
    unsupported opset: opset14". Every Ultralytics YOLOv8/YOLO11 export (MaxPool-14) is refused by 2023.3 LTS
    for this reason. The message names the release and quotes its words; `irreshape compat FILE` shows which
    releases read the file. Where the layer computes the same in an older op version, `--fix --target R`
    rewrites it.
    """, needs=(TARGETS,))
OP = rule("IR602", "target-unknown-op", ERROR, """
    The target release knows the layer's opset, but that opset does not yet hold the layer's op type.

    Opsets grew op by op across releases: opset15 came in 2024.2 with Col2Im and ScatterNDUpdate, while
    SliceScatter-15 came in 2024.4 and Squeeze-15 (and the ops opset15 takes over from older opsets) in 2024.5;
    opset16's ops arrived one by one (Identity 2025.0, SegmentMax 2025.1, AvgPool 2025.3, OneHot 2025.4). The
    release refuses the file: "Opset opset15 doesn't contain the operation with type: Squeeze".
    """, needs=(TARGETS,))
ETYPE = rule("IR603", "target-unknown-element-type", ERROR, """
    The target release does not read the element type of a Parameter or a Const.

    nf4 is read from 2023.2, string from 2023.3, f8e4m3 and f8e5m2 from 2024.0 (2023.3 says "Incorrect type:
    F8E4M3"), u2, u3 and u6 from 2024.1, f4e2m1 and f8e8m0 from 2024.3. A compressed model (NNCF's
    4-bit or fp8 weights) written by a recent exporter is refused by older runtimes for this reason, and no
    rewrite makes it readable: the weights would have to be compressed again for that release.
    """, needs=(TARGETS,))
PRECISION = rule("IR604", "target-unknown-precision", ERROR, """
    The target release does not read the element type an output port's `precision` names.

    The IR reader reads every layer's port precisions as it lists the layers, before it makes any node: a port
    declaring `U2` or `F8E8M0` is refused by a release that does not know the type, whatever the layer computes.
    """, needs=(TARGETS,))
VALUE = rule("IR605", "target-unknown-attribute-value", ERROR, """
    The target release knows the layer's op version but not the value of one of its attributes.

    Attribute values count, not only op versions: a MaxPool-14 with `rounding_type="floor"` is read by 2024.0,
    one with `"ceil_torch"` only from 2024.1 ('"ceil_torch" is not a member of enum ov::op::RoundingType'); an
    attribute naming an element type (`index_element_type`, `output_type`, `destination_type`) that the release
    does not know is refused the same way.
    """, needs=(TARGETS,))
NAME = rule("IR606", "target-name-not-unique", ERROR, """
    The target release refuses the file because two layers share a name.

    Releases up to 2024.0 check that layer names are unique when they read an IR, later ones do not: 2023.3 and
    2024.0 refuse a tokenizer IR with "Invalid IR! Convert_117 name is not unique!" (measured).
    Renaming one of the layers makes the file readable there.
    """, needs=(TARGETS,))
FILE = rule("IR607", "target-file-refused", ERROR, """
    The target release refuses the file as a whole, before any layer.

    Releases up to 2024.4 judge a file's format by its first 512 bytes: an IR whose document ends within them is
    taken for no format they read ("Unable to read the model", measured). The finding has no layer.
    """, needs=(TARGETS,))
OTHER = rule("IR609", "target-refused", ERROR, """
    The target release refuses the file for a reason measured with its wheel that none of IR601 to IR607 covers.

    The message quotes the release's own words and names the layer where the release does.
    """, needs=(TARGETS,))

COMPILE_OP = rule("IR611", "target-compile-unsupported-op", ERROR, """
    The target release reads the file, and its CPU plugin has no implementation of one of its ops.

    Measured with each release's wheel on small models of every op version (scripts/make_plugins.py): Identity-16
    is read from 2025.0 and compiled for CPU only from 2025.4 ("Unsupported operation of type: Identity"), Col2Im-15
    is read by 2024.2 and not compiled there, an LSTMCell with peepholes (7 inputs, as Model Optimizer wrote them
    inside TensorIterators) is not compiled by 2023.0. The message quotes the release and names the layer.
    """, needs=(TARGETS,))
COMPILE_TYPE = rule("IR612", "target-compile-unsupported-type", ERROR, """
    The target release reads the file, and its CPU plugin refuses an element type in it.

    A model input of a packed type (`i4`, `u1`), an embedding table of a packed type converted at run time
    ("cpu_convert can't convert from: u4 precision"), a boolean attention mask of ScaledDotProductAttention on
    dynamic shapes (2023.3 converts it to u8 and refuses it: "The element type of
    attention_mask must be either floating-point or boolean"), the boolean output of IsFinite, IsInf or IsNaN that
    a Select or a logical op takes on 2023.0 ("Eltwise node ... doesn't support BOOL precision"), as each release's
    wheel says.

    An embedding table of `u4`, `i4` or `nf4` decompressed with a zero point through f16 and looked up by a Gather
    fails on 2024.0. A boolean attention mask in a model with variables (a stateful decoder: gpt_bigcode, opt,
    olmo2) fails the same check on 2023.3 to 2024.6.

    Not claimed: `u4`, `i4` and `nf4` weights decompressed by a scale into a MatMul (NNCF's int4) fail 2023.3 to
    2024.1 (`nf4` to 2024.3) or compile by the weights' shapes, their zero point and the CPU's instruction set
    (measured: a [16, 32] `u4` MatMul weight fails 2023.3 with bf16 and compiles without it; one of [64, 32]
    compiles with both). irreshape says a release refuses only what it refuses on every CPU and shape measured.
    """, needs=(TARGETS,))
COMPILE_RANK = rule("IR613", "target-compile-dynamic-rank", ERROR, """
    The target release reads the file, and its CPU plugin refuses a tensor of dynamic rank.

    The CPU plugin of every release compiles no node whose output rank is unknown: a Parameter declared without
    dims, an If whose branches give different ranks, a Reshape whose pattern has an unknown length. The finding
    is on the layer that makes the rank dynamic, in the release's words.

    An If of outputs of dynamic rank is refused by every release up to 2025.4.1; from 2026.0 the CPU plugin folds
    an If whose condition compares a value with itself (TorchScript's exports hold such Ifs) and compiles the model,
    unless the dynamic rank reaches a Softmax or an Einsum. An If whose condition is known only at run time is
    refused by every release, 2026.4.1 included.
    """, needs=(TARGETS,))
COMPILE_CRASH = rule("IR614", "target-compile-crash", ERROR, """
    The target release reads the file, and the process dies in `compile_model` on CPU.

    Measured with the release's wheel, each compile in a process of its own: ScaledDotProductAttention with an
    attention sink (gpt-oss) in a stateful model on 2023.3 to 2024.6; an AvgPool-16 whose `dilations` is written
    empty on 2025.4 and later. The application cannot catch it.

    Not claimed: NNCF's codebook compression (cb4: a Gather of a codebook by `u4` or `u8` indices into a MatMul)
    kills it on 2025.2 to 2026.2.1 on a CPU with bf16, and compiles on one without (measured).
    """, needs=(TARGETS,))
INFER_FAILED = rule("IR615", "target-infer-failed", ERROR, """
    The target release reads and compiles the file, and its first inference on CPU fails.

    Measured with the release's wheel by running the file once on inputs of zeros (static inputs only).
    """, needs=(TARGETS,))
COMPILE_OTHER = rule("IR619", "target-compile-refused", ERROR, """
    The target release reads the file, and its CPU plugin refuses it at `compile_model` for a reason measured with
    its wheel that none of IR611 to IR615 names. The message quotes the release's words.

    Not claimed: a seq2seq decoder exported stateful by optimum-intel (bart, marian, t5), whose cross-attention
    reads keys and values from variables a MatMul initialises from the encoder states' own variable, is refused by
    2025.0 and 2025.1 on a CPU with bf16 ("Graph emitter is not implemented yet!") and compiled on one without;
    likewise attention outside a KV cache on 2025.3 to 2025.4.1 (measured). A failure is claimed only where it
    happens on every class of CPU measured (`scripts/make_plugins.py`).
    """, needs=(TARGETS,))

RULES = (OPSET, OP, ETYPE, PRECISION, VALUE, NAME, FILE, OTHER, COMPILE_OP, COMPILE_TYPE, COMPILE_RANK, COMPILE_CRASH,
         INFER_FAILED, COMPILE_OTHER)
# Refusal.kind -> the rule its findings are reported under (a kind not listed: OTHER)
BY_KIND: dict[str, Rule] = {"opset": OPSET, "op": OP, "etype": ETYPE, "precision": PRECISION, "value": VALUE,
                            "name": NAME, "file": FILE}


def for_kind(kind: str) -> Rule:
    """The rule a refusal of this kind is reported under."""
    return BY_KIND.get(kind, OTHER)


# a compile-stage feature's kind (its key's first item) -> the rule it is reported under at compile_model
# (a kind not listed: COMPILE_OTHER)
BY_FEATURE: dict[str, Rule] = {
    "op": COMPILE_OP,
    "param": COMPILE_TYPE, "decompress": COMPILE_TYPE, "decompress-matmul": COMPILE_TYPE,
    "decompress-gather": COMPILE_TYPE, "sdpa-mask": COMPILE_TYPE, "bool-out": COMPILE_TYPE, "bool-in": COMPILE_TYPE,
    "rank": COMPILE_RANK, "if-rank": COMPILE_RANK,
}


def for_compile(key: tuple, stage: str) -> Rule:
    """The rule a compile-stage refusal is reported under: a crash IR614, a first inference IR615, else by its
    feature's kind."""
    if stage == "crash":
        return COMPILE_CRASH
    if stage == "infer":
        return INFER_FAILED
    return BY_FEATURE.get(key[0], COMPILE_OTHER)
