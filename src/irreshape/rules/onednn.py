"""oneDNN Graph JSON documents: StaticReshape and DynamicReshape ops, and the tensors around them.

The reshape verdicts reuse the IR1xx rules of :mod:`.reshape` (output mismatch, rank, invalid
pattern, unverified); the IR2xx rules here are what only a oneDNN Graph document can get wrong.
"""

from __future__ import annotations

from ..core.findings import ERROR, INFO, rule

JSON_INVALID = rule("IR200", "onednn-invalid-json", ERROR, """
    A oneDNN Graph document is not valid JSON, or an entry of its `graph` list is not an op.

    The file looks like a oneDNN Graph document (a JSON object with a `"graph": [` key), so it is
    not skipped; oneDNN's own JSON reader (benchdnn `--graph`) would reject it too. The message
    gives the line and column of the first syntax error.
    """)
TENSOR_INCONSISTENT = rule("IR201", "onednn-tensor-inconsistent", ERROR, """
    A tensor id's shape or dtype differs between its producer and a consumer next to a reshape.

    A oneDNN Graph links ops through logical-tensor ids only: every appearance of an id (the
    producer's output and each consumer's input) describes the same tensor and must carry the same
    `shape` and `dtype`. An unknown shape (`-9223372036854775808`) agrees with any shape. Reported
    on the reshape whose input or output the tensor is: a reused tensor id, a stale dump, or a
    hand edit that changed one copy only.
    """)
SHAPE_UNKNOWN = rule("IR202", "onednn-shape-unknown", INFO, """
    A reshape's input shape is not in the file and could not be inferred, so its output was not verified.

    Graph dumps may leave shapes unknown for oneDNN's own shape inference. irreshape infers them
    from the producers where the ops allow (StaticTranspose, StaticReshape, MatMul, elementwise
    ops, SoftMax, TypeCast, Reorder, Quantize/Dequantize, reductions, Concat); the message names
    the tensor and its producer where that was not possible. The output rank is still checked
    against the `shape` attribute.
    """)
DTYPE = rule("IR203", "onednn-reshape-dtype", ERROR, """
    A reshape's output dtype differs from its input dtype, or is not f32, bf16 or f16.

    oneDNN's StaticReshape and DynamicReshape take one type T for `src` and `dst`, one of f32, bf16
    and f16; the graph fails to build otherwise.
    """)

RULES = (JSON_INVALID, TENSOR_INCONSISTENT, SHAPE_UNKNOWN, DTYPE)
