"""Element types of every op version, irreshape against ``read_model``: the type sweep.

Every op version of OpenVINO's opsets that irreshape's registry holds a shape function for gets a small valid
model (:data:`SPECS`: its inputs, Parameters of a type OpenVINO takes or Constants, and its attributes), built as
the IR reader builds it (``NodeFactory`` in the first opset holding that version; control flow and variables by
their own builders) and saved as IR. Then each Parameter's ``element_type`` (and its port's precision) is edited
to each of :data:`RETYPES`, as a hand edit or a buggy script would, and each file is judged twice:

* ``read_model``: accepted, with every output port's type, or refused, with its message (in a forked child: a
  type some op's ``validate_and_infer_types`` does not expect must not take the sweep down);
* irreshape: ``check_file``'s errors, and the types of :func:`.typeoracle.compare_types`.

A disagreement is a refusal irreshape does not report (``missed``), an error on a file OpenVINO accepts
(``false``), or an output type that is not OpenVINO's (``wrong``); a port irreshape leaves untyped is
``untyped`` (less exact, never wrong).

    PYTHONPATH=src:tests python -m irtools.typesweep            # every case: the disagreements, the tally last
    PYTHONPATH=src:tests python -m irtools.typesweep -k Gather  # the op versions whose name holds Gather
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from irreshape.core.etypes import precision
from irreshape.shapes import registry
from irreshape.shapes.opsets import DEFAULTS

from irtools.attrprobe import FIRST_OPSET, forked

# the types a Parameter is edited to: every class of type (real, integral, boolean, sub-byte, string, dynamic)
RETYPES = ("f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "u64", "boolean", "u1", "u4", "f8e4m3",
           "string", "dynamic")


def P(shape, t: str = "f32") -> tuple:
    """A Parameter input of ``shape`` and type ``t`` (edited by the sweep)."""
    return ("p", list(shape), t)


def C(values, dtype: str = "i64") -> tuple:
    """A Constant input (never edited)."""
    return ("c", values, dtype)


X23 = P([2, 3])
AB = [P([2, 3]), P([2, 3])]
IMG = P([1, 1, 4, 4])
CONV2 = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "dilations": [1, 1], "auto_pad": "explicit"}
POOL = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "kernel": [2, 2], "auto_pad": "explicit",
        "rounding_type": "floor"}
CELL = {"hidden_size": 2}
SEQ = {"hidden_size": 2, "direction": "forward"}

# op type (every version), or (op type, op version) -> its cases: ([inputs], {attributes}); several where the op
# checks different things in different forms
SPECS: dict[object, list[tuple[list, dict]]] = {}


def spec(names: str | Iterable, inputs: list, attrs: dict | None = None) -> None:
    for name in ([names] if isinstance(names, (str, tuple)) else names):
        SPECS.setdefault(name, []).append((inputs, attrs or {}))


spec(("Abs Acos Acosh Asin Asinh Atan Atanh Ceiling Cos Cosh Erf ErfInv Exp Floor HSigmoid HSwish Log Mish Negative "
      "Relu Sigmoid Sign Sin Sinh SoftPlus SoftSign Sqrt Tan Tanh Identity IsFinite IsNaN Inverse").split(),
     [P([2, 2])])
spec("IsInf", [X23], {"detect_negative": True, "detect_positive": True})
spec("LogicalNot", [P([2, 3], "boolean")])
spec("BitwiseNot", [P([2, 3], "i32")])
spec("Round", [X23], {"mode": "half_to_even"})
spec(("Gelu", 0), [X23])
spec(("Gelu", 7), [X23], {"approximation_mode": "erf"})
spec("Swish", [X23])
spec("Swish", [X23, P([])])
spec("Elu", [X23], {"alpha": 1.0})
spec("Clamp", [X23], {"min": 0.0, "max": 1.0})
spec("Selu", [X23, P([1]), P([1])])
spec("HardSigmoid", [X23, P([]), P([])])
spec("PRelu", [X23, P([3])])
spec(("Softmax", 1), [X23], {"axis": 1})
spec(("Softmax", 8), [X23], {"axis": 1})
spec("LogSoftmax", [X23], {"axis": 1})
spec("GRN", [P([1, 2, 3])], {"bias": 1.0})
spec("NormalizeL2", [X23, P([1], "i64")], {"eps": 1e-5, "eps_mode": "add"})
spec("LRN", [P([1, 2, 3]), P([1], "i64")], {"alpha": 1e-4, "beta": 0.75, "bias": 1.0, "size": 3})
spec(("MVN", 0), [P([1, 2, 3])], {"across_channels": False, "eps": 1e-5, "normalize_variance": True})
spec(("MVN", 6), [P([1, 2, 3]), P([1], "i64")], {"eps": 1e-5, "eps_mode": "inside_sqrt", "normalize_variance": True})
spec("GroupNormalization", [P([1, 4, 2]), P([4]), P([4])], {"num_groups": 2, "epsilon": 1e-5})
spec(("BatchNormInference", 0), [P([2]), P([2]), P([1, 2, 3]), P([2]), P([2])], {"epsilon": 1e-5})
spec(("BatchNormInference", 5), [P([1, 2, 3]), P([2]), P([2]), P([2]), P([2])], {"epsilon": 1e-5})
spec(("Add Subtract Multiply Divide Maximum Minimum Power SquaredDifference FloorMod Mod Equal NotEqual Less LessEqual "
      "Greater GreaterEqual").split(), AB)
spec("LogicalAnd LogicalOr LogicalXor Xor".split(), [P([2, 3], "boolean"), P([2, 3], "boolean")])
spec("BitwiseAnd BitwiseOr BitwiseXor BitwiseLeftShift BitwiseRightShift".split(), [P([2, 3], "i32"), P([2, 3], "i32")])
spec("Select", [P([2, 3], "boolean"), X23, X23])
spec("MatMul", [P([3, 3]), P([3, 3])], {"transpose_a": False, "transpose_b": False})
spec("Einsum", AB, {"equation": "ab,ab->a"})
spec("Concat", AB, {"axis": 0})
spec("Convert", [X23], {"destination_type": "i8"})
spec("ConvertLike", [X23, P([3], "i32")])
spec("ConvertPromoteTypes", [X23, P([3], "i32")], {"promote_unsafe": True})
spec("FakeQuantize", [X23, P([]), P([]), P([]), P([])], {"levels": 256})
spec("FakeConvert", [X23, P([])], {"destination_type": "f8e4m3"})
spec("FakeConvert", [X23, P([]), P([])], {"destination_type": "f8e4m3"})
spec("ShapeOf", [X23])
spec(("ShapeOf", 3), [X23], {"output_type": "i32"})
spec("NonZero", [X23], {"output_type": "i32"})
spec("Range", [P([], "i64"), P([], "i64"), P([], "i64")])
spec(("Range", 4), [P([], "i64"), P([], "i64"), P([], "i64")], {"output_type": "i32"})
spec("Eye", [P([], "i64"), P([], "i64"), P([], "i64"), P([1], "i64")], {"output_type": "f32"})
spec("RandomUniform", [P([2], "i64"), P([]), P([])], {"output_type": "f32", "global_seed": 1, "op_seed": 1})
spec("Multinomial", [P([1, 4]), P([], "i64")], {"convert_type": "i32", "with_replacement": True, "log_probs": False})
# movement
spec("Split", [P([4, 2]), P([], "i64")], {"num_splits": 2})
spec("VariadicSplit", [P([4, 2]), P([], "i64"), C([1, 3])])
spec("VariadicSplit", [P([4, 2]), C(0), P([2], "i64")])
spec("Gather", [P([4, 3]), P([2], "i64"), P([], "i64")])
spec("Gather", [P([4, 3]), P([2], "i64"), C(0)])
spec("GatherElements", [P([4, 3]), P([4, 3], "i64")], {"axis": 0})
spec("GatherND", [P([4, 3]), P([2, 1], "i64")], {"batch_dims": 0})
spec("GatherTree", [P([2, 1, 1]), P([2, 1, 1]), P([1]), P([])])
spec("Transpose", [P([4, 3]), P([2], "i64")])
spec("Tile", [P([4, 3]), P([2], "i64")])
spec(("Broadcast", 1), [P([3]), P([2], "i64")], {"mode": "numpy"})
spec(("Broadcast", 1), [P([3]), C([2, 3]), P([1], "i64")], {"mode": "explicit"})
spec(("Broadcast", 3), [P([3]), P([2], "i64")], {"mode": "bidirectional"})
spec(("Broadcast", 3), [P([3]), C([2, 3]), P([1], "i64")], {"mode": "explicit"})
spec("Reshape", [P([2, 3]), P([2], "i64")], {"special_zero": False})
spec("Squeeze", [P([1, 3])])
spec("Squeeze", [P([1, 3]), P([1], "i64")])
spec("Unsqueeze", [P([3]), P([1], "i64")])
spec("StridedSlice", [P([4, 3]), P([2], "i64"), P([2], "i64"), P([2], "i64")],
     {"begin_mask": [0, 0], "end_mask": [0, 0]})
spec("Slice", [P([4, 3]), P([1], "i64"), P([1], "i64"), P([1], "i64"), P([1], "i64")])
spec("SliceScatter", [P([4, 3]), P([2, 3]), P([1], "i64"), P([1], "i64"), P([1], "i64"), P([1], "i64")])
spec("SliceScatter", [P([4, 3]), P([2, 3]), C([0]), C([2]), C([1])])
spec("Pad", [P([4, 3]), P([2], "i64"), P([2], "i64"), P([])], {"pad_mode": "constant"})
spec("Pad", [P([4, 3]), P([2], "i64"), P([2], "i64")], {"pad_mode": "reflect"})
spec("Reverse", [P([4, 3]), P([1], "i64")], {"mode": "index"})
spec("Reverse", [P([4, 3]), P([2], "boolean")], {"mode": "mask"})
spec("ReverseSequence", [P([2, 3]), P([2], "i64")], {"batch_axis": 0, "seq_axis": 1})
spec("Roll", [P([4, 3]), P([1], "i64"), P([1], "i64")])
spec("ScatterUpdate", [P([4, 3]), P([1], "i64"), P([1, 3]), P([], "i64")])
spec(("ScatterElementsUpdate", 3), [P([4, 3]), P([1, 3], "i64"), P([1, 3]), P([], "i64")])
spec(("ScatterElementsUpdate", 12), [P([4, 3]), P([1, 3], "i64"), P([1, 3]), P([], "i64")],
     {"reduction": "sum", "use_init_val": True})
spec(("ScatterNDUpdate", 3), [P([4, 3]), P([1, 1], "i64"), P([1, 3])])
spec(("ScatterNDUpdate", 15), [P([4, 3]), P([1, 1], "i64"), P([1, 3])], {"reduction": "sum"})
spec(("OneHot", 1), [P([3], "i64"), P([], "i64"), P([]), P([])], {"axis": -1})
spec(("OneHot", 16), [P([3], "i64"), P([], "i64"), P([]), P([])], {"axis": -1,
                                                                 "negative_indices_mode": "ignore_negative"})
spec("SpaceToBatch BatchToSpace".split(), [P([2, 4]), P([2], "i64"), P([2], "i64"), P([2], "i64")])
spec("DepthToSpace", [P([1, 4, 2, 2])], {"block_size": 2, "mode": "blocks_first"})
spec("SpaceToDepth", [IMG], {"block_size": 2, "mode": "blocks_first"})
spec("ShuffleChannels", [P([1, 4, 2, 2])], {"axis": 1, "group": 2})
spec("ExtractImagePatches", [IMG], {"sizes": [2, 2], "strides": [1, 1], "rates": [1, 1], "auto_pad": "valid"})
spec("ReorgYolo", [P([1, 4, 4, 4])], {"stride": [2]})
spec("RegionYolo", [P([1, 125, 13, 13])], {"coords": 4, "classes": 20, "num": 5, "do_softmax": True, "axis": 1,
                                           "end_axis": 3, "anchors": [1.0] * 10, "mask": []})
spec("RegionYolo", [P([1, 75, 13, 13])], {"coords": 4, "classes": 20, "num": 9, "do_softmax": False, "axis": 1,
                                          "end_axis": 3, "anchors": [1.0] * 18, "mask": [0, 1, 2]})
spec("TopK", [P([4, 3]), P([], "i64")], {"axis": 1, "mode": "max", "sort": "value", "index_element_type": "i32"})
spec("Unique", [P([4])], {"sorted": True, "index_element_type": "i32", "count_element_type": "i64"})
spec("Unique", [P([4, 3]), C(0)], {"sorted": True, "index_element_type": "i64", "count_element_type": "i32"})
spec("Bucketize", [P([4]), P([3])], {"output_type": "i32", "with_right_bound": True})
spec("SearchSorted", [P([4]), P([3])], {"output_type": "i32", "right_mode": False})
spec("CumSum", [P([4, 3]), P([], "i64")], {"exclusive": False, "reverse": False})
spec("ReduceSum ReduceMean ReduceMax ReduceMin ReduceProd ReduceL1 ReduceL2".split(), [P([4, 3]), P([1], "i64")],
     {"keep_dims": False})
spec("ReduceLogicalAnd ReduceLogicalOr".split(), [P([4, 3], "boolean"), P([1], "i64")], {"keep_dims": True})
# convolution and pooling
spec("Convolution", [IMG, P([2, 1, 1, 1])], CONV2)
spec("BinaryConvolution", [IMG, P([2, 1, 1, 1], "u1")], {**CONV2, "mode": "xnor-popcount", "pad_value": 0.0})
spec("ConvolutionBackpropData", [IMG, P([1, 2, 1, 1])], CONV2)
spec("ConvolutionBackpropData", [IMG, P([1, 2, 1, 1]), P([2], "i64")], CONV2)
spec("GroupConvolution", [P([1, 4, 4, 4]), P([2, 1, 2, 1, 1])], CONV2)
spec("GroupConvolutionBackpropData", [P([1, 4, 4, 4]), P([2, 2, 1, 1, 1])], CONV2)
spec("GroupConvolutionBackpropData", [P([1, 4, 4, 4]), P([2, 2, 1, 1, 1]), P([2], "i64")], CONV2)
spec(("DeformableConvolution", 1), [P([1, 1, 3, 3]), P([1, 2, 3, 3]), P([1, 1, 1, 1])],
     {**CONV2, "group": 1, "deformable_group": 1})
spec(("DeformableConvolution", 8), [P([1, 1, 3, 3]), P([1, 2, 3, 3]), P([1, 1, 1, 1]), P([1, 1, 3, 3])],
     {**CONV2, "group": 1, "deformable_group": 1})
spec("Col2Im", [P([1, 4, 4]), P([2], "i64"), P([2], "i64")],
     {"strides": [1, 1], "dilations": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0]})
spec(("AvgPool", 1), [IMG], {**POOL, "exclude-pad": True})
spec(("AvgPool", 14), [IMG], {**POOL, "exclude-pad": True})
spec(("AvgPool", 16), [IMG], {**POOL, "exclude-pad": True, "dilations": [1, 1]})
spec(("MaxPool", 1), [IMG], POOL)
spec(("MaxPool", 8), [IMG], {**POOL, "dilations": [1, 1], "index_element_type": "i32", "axis": 0})
spec(("MaxPool", 14), [IMG], {**POOL, "dilations": [1, 1], "index_element_type": "i32", "axis": 0})
spec("AdaptiveAvgPool", [IMG, P([2], "i64")])
spec("AdaptiveMaxPool", [IMG, P([2], "i64")], {"index_element_type": "i32"})
spec(("Interpolate", 0), [IMG, P([2], "i64")], {"axes": [2, 3], "mode": "nearest"})
spec(("Interpolate", 4), [IMG, P([2], "i64"), P([2]), P([2], "i64")],
     {"mode": "nearest", "shape_calculation_mode": "sizes"})
spec(("Interpolate", 11), [IMG, P([2], "i64"), P([2], "i64")], {"mode": "nearest", "shape_calculation_mode": "sizes"})
spec(("Interpolate", 11), [IMG, P([2]), C([2, 3])], {"mode": "nearest", "shape_calculation_mode": "scales"})
spec("GridSample", [IMG, P([1, 2, 2, 2])], {"mode": "bilinear", "padding_mode": "zeros"})
spec("NV12toRGB NV12toBGR".split(), [P([1, 6, 4, 1])])
spec("NV12toRGB NV12toBGR".split(), [P([1, 4, 4, 1]), P([1, 2, 2, 2])])
spec("I420toRGB I420toBGR".split(), [P([1, 6, 4, 1])])
spec("I420toRGB I420toBGR".split(), [P([1, 4, 4, 1]), P([1, 2, 2, 1]), P([1, 2, 2, 1])])
spec("PSROIPooling", [P([1, 8, 4, 4]), P([1, 5])], {"mode": "average", "output_dim": 2, "group_size": 2,
                                                    "spatial_scale": 1.0, "spatial_bins_x": 1, "spatial_bins_y": 1})
spec("ROIPooling", [IMG, P([1, 5])], {"output_size": [2, 2], "pooled_h": 2, "pooled_w": 2, "spatial_scale": 1.0,
                                      "method": "max"})
spec(("ROIAlign", 3), [IMG, P([1, 4]), P([1], "i64")], {"pooled_h": 2, "pooled_w": 2, "sampling_ratio": 1,
                                                        "spatial_scale": 1.0, "mode": "avg"})
spec(("ROIAlign", 9), [IMG, P([1, 4]), P([1], "i64")], {"pooled_h": 2, "pooled_w": 2, "sampling_ratio": 1,
                                                        "spatial_scale": 1.0, "mode": "avg",
                                                        "aligned_mode": "asymmetric"})
# detection
_DO = {"keep_top_k": [2], "nms_threshold": 0.5, "normalized": True, "background_label_id": -1, "top_k": 2,
       "code_type": "caffe.PriorBoxParameter.CORNER"}
spec(("DetectionOutput", 0), [P([1, 8]), P([1, 4]), P([1, 2, 8])], {**_DO, "num_classes": 2})
spec(("DetectionOutput", 8), [P([1, 8]), P([1, 4]), P([1, 2, 8])], _DO)
spec(("DetectionOutput", 8), [P([1, 8]), P([1, 4]), P([1, 2, 8]), P([1, 4]), P([1, 8])], _DO)
_PB = {"min_size": [2.0], "aspect_ratio": [1.0], "offset": 0.5, "variance": [0.1]}
spec("PriorBox", [P([2], "i64"), P([2], "i64")], _PB)
spec("PriorBoxClustered", [P([2], "i64"), P([2], "i64")], {"width": [1.0], "height": [1.0], "offset": 0.5,
                                                            "variance": [0.1]})
_PROP = {"base_size": 1, "pre_nms_topn": 2, "post_nms_topn": 2, "nms_thresh": 0.5, "feat_stride": 1, "min_size": 1,
         "ratio": [1.0], "scale": [1.0], "framework": ""}
spec("Proposal", [P([1, 2, 2, 2]), P([1, 4, 2, 2]), P([3])], _PROP)
spec("ExperimentalDetectronDetectionOutput", [P([16, 4]), P([16, 8]), P([16, 2]), P([1, 3])],
     {"num_classes": 2, "max_detections_per_image": 4, "post_nms_count": 4, "deltas_weights": [1.0, 1.0, 1.0, 1.0],
      "score_threshold": 0.05, "nms_threshold": 0.5, "max_delta_log_wh": 2.0, "class_agnostic_box_regression": False})
spec("ExperimentalDetectronGenerateProposalsSingleImage", [P([3]), P([8, 4]), P([8, 2, 2]), P([2, 2, 2])],
     {"min_size": 0.0, "nms_threshold": 0.5, "post_nms_count": 4, "pre_nms_count": 8})
spec("ExperimentalDetectronPriorGridGenerator", [P([3, 4]), P([1, 1, 2, 2]), P([1, 3, 8, 8])],
     {"flatten": True, "h": 0, "w": 0, "stride_x": 0.0, "stride_y": 0.0})
spec("ExperimentalDetectronROIFeatureExtractor", [P([4, 4]), P([1, 2, 8, 8]), P([1, 2, 4, 4])],
     {"output_size": 2, "sampling_ratio": 2, "pyramid_scales": [4, 8], "aligned": False})
spec("ExperimentalDetectronTopKROIs", [P([8, 4]), P([8])], {"max_rois": 4})
_NMS = [P([1, 6, 4]), P([1, 1, 6]), P([], "i64"), P([]), P([])]
spec(("NonMaxSuppression", 1), _NMS, {"box_encoding": "corner"})
spec(("NonMaxSuppression", 3), _NMS, {"box_encoding": "corner", "output_type": "i32"})
spec(("NonMaxSuppression", 4), _NMS, {"box_encoding": "corner", "output_type": "i32"})
spec(("NonMaxSuppression", 5), _NMS + [P([])], {"box_encoding": "corner", "output_type": "i32"})
spec(("NonMaxSuppression", 9), _NMS + [P([])], {"box_encoding": "corner", "output_type": "i32"})
spec("CTCGreedyDecoder", [P([3, 1, 4]), P([3, 1])], {"ctc_merge_repeated": True})
spec("CTCGreedyDecoderSeqLen", [P([1, 3, 4]), P([1], "i32"), P([], "i32")],
     {"merge_repeated": True, "classes_index_type": "i32", "sequence_length_type": "i64"})
spec("CTCLoss", [P([1, 3, 4]), P([1], "i32"), P([1, 3], "i32"), P([1], "i32"), P([], "i32")])
spec("CTCLoss", [P([1, 3, 4]), P([1], "i64"), P([1, 3], "i64"), P([1], "i64")])
# recurrent
spec(("LSTMCell", 0), [P([1, 3]), P([1, 2]), P([1, 2]), P([8, 3]), P([8, 2]), P([8])], CELL)
spec(("LSTMCell", 0), [P([1, 3]), P([1, 2]), P([1, 2]), P([8, 3]), P([8, 2]), P([8]), P([6])], CELL)
spec(("LSTMCell", 4), [P([1, 3]), P([1, 2]), P([1, 2]), P([8, 3]), P([8, 2]), P([8])], CELL)
spec("GRUCell", [P([1, 3]), P([1, 2]), P([6, 3]), P([6, 2]), P([6])], CELL)
spec("RNNCell", [P([1, 3]), P([1, 2]), P([2, 3]), P([2, 2]), P([2])], CELL)
spec("LSTMSequence", [P([1, 2, 3]), P([1, 1, 2]), P([1, 1, 2]), P([1], "i64"), P([1, 8, 3]), P([1, 8, 2]),
                      P([1, 8])], SEQ)
spec("GRUSequence", [P([1, 2, 3]), P([1, 1, 2]), P([1], "i64"), P([1, 6, 3]), P([1, 6, 2]), P([1, 6])], SEQ)
spec("RNNSequence", [P([1, 2, 3]), P([1, 1, 2]), P([1], "i64"), P([1, 2, 3]), P([1, 2, 2]), P([1, 2])], SEQ)
spec("ScaledDotProductAttention", [P([1, 2, 4]), P([1, 3, 4]), P([1, 3, 4])], {"causal": False})
spec("ScaledDotProductAttention", [P([1, 2, 4]), P([1, 3, 4]), P([1, 3, 4]), P([2, 3]), P([])], {"causal": False})
spec("ScaledDotProductAttention", [P([1, 2, 4]), P([1, 3, 4]), P([1, 3, 4]), P([2, 3], "boolean")], {"causal": False})
# signal
spec("DFT IDFT".split(), [P([2, 4, 2]), P([1], "i64")])
spec("DFT IDFT".split(), [P([2, 4, 2]), P([1], "i64"), P([1], "i64")])
spec("RDFT", [P([2, 4]), P([1], "i64")])
spec("RDFT", [P([2, 4]), P([1], "i64"), P([1], "i64")])
spec("IRDFT", [P([2, 4, 2]), P([1], "i64")])
spec("IRDFT", [P([2, 4, 2]), P([1], "i64"), P([1], "i64")])
spec("STFT", [P([2, 16]), P([4]), P([], "i64"), P([], "i64")], {"transpose_frames": False})
spec("ISTFT", [P([3, 4, 2]), P([4]), P([], "i64"), P([], "i64")], {"center": False, "normalized": False})
spec("ISTFT", [P([3, 4, 2]), P([4]), P([], "i64"), P([], "i64"), P([], "i64")], {"center": False, "normalized": False})
# sparse
_TABLE = P([5, 2])
spec(("EmbeddingBagOffsetsSum", 3), [_TABLE, P([4], "i64"), P([2], "i64")])
spec(("EmbeddingBagOffsetsSum", 3), [_TABLE, P([4], "i64"), P([2], "i64"), P([], "i64"), P([4])])
spec(("EmbeddingBagOffsets", 15), [_TABLE, P([4], "i64"), P([2], "i64"), P([], "i64"), P([4])], {"reduction": "sum"})
spec(("EmbeddingBagOffsets", 15), [_TABLE, P([4], "i64"), P([2], "i64")], {"reduction": "mean"})
spec(("EmbeddingBagPackedSum", 3), [_TABLE, P([2, 2], "i64"), P([2, 2])])
spec(("EmbeddingBagPacked", 15), [_TABLE, P([2, 2], "i64"), P([2, 2])], {"reduction": "sum"})
spec(("EmbeddingBagPacked", 15), [_TABLE, P([2, 2], "i64")], {"reduction": "mean"})
spec("EmbeddingSegmentsSum", [_TABLE, P([4], "i64"), P([4], "i64"), P([], "i64"), P([], "i64"), P([4])])
spec("EmbeddingSegmentsSum", [_TABLE, P([4], "i64"), P([4], "i64"), P([], "i64")])
spec("SegmentMax", [P([4, 2]), P([4], "i64"), P([], "i64")], {"fill_mode": "zero"})
spec("SegmentMax", [P([4, 2]), C([0, 0, 1, 1])], {"fill_mode": "lowest"})
spec("SparseFillEmptyRows", [P([3]), P([2], "i64"), P([3, 2], "i64"), P([])])
# detection and others of opsets 8-17
_MC = {"sort_result_type": "none", "sort_result_across_batch": False, "output_type": "i64", "iou_threshold": 0.5,
       "score_threshold": 0.0, "nms_top_k": -1, "keep_top_k": -1, "background_class": -1, "nms_eta": 1.0,
       "normalized": True}
spec("MulticlassNms", [P([1, 6, 4]), P([1, 2, 6])], _MC)
spec(("MulticlassNms", 9), [P([2, 6, 4]), P([2, 6]), P([1], "i32")], _MC)
spec("MatrixNms", [P([1, 6, 4]), P([1, 2, 6])],
     {"sort_result_type": "none", "sort_result_across_batch": False, "output_type": "i64", "score_threshold": 0.0,
      "nms_top_k": -1, "keep_top_k": -1, "background_class": -1, "decay_function": "linear", "gaussian_sigma": 2.0,
      "post_threshold": 0.0, "normalized": True})
spec("NMSRotated", [P([1, 6, 5]), P([1, 1, 6]), P([], "i64"), P([]), P([])],
     {"sort_result_descending": True, "output_type": "i64", "clockwise": True})
spec("GenerateProposals", [P([1, 3]), P([2, 2, 3, 4]), P([1, 12, 2, 2]), P([1, 3, 2, 2])],
     {"min_size": 0.0, "nms_threshold": 0.5, "pre_nms_count": 8, "post_nms_count": 4, "normalized": True,
      "nms_eta": 1.0, "roi_num_type": "i64"})
spec("ROIAlignRotated", [IMG, P([1, 5]), P([1], "i64")], {"pooled_h": 2, "pooled_w": 2, "sampling_ratio": 1,
                                                           "spatial_scale": 1.0, "clockwise_mode": False})
spec("DeformablePSROIPooling", [P([1, 8, 4, 4]), P([1, 5])],
     {"output_dim": 2, "group_size": 2, "spatial_scale": 1.0, "mode": "bilinear_deformable", "spatial_bins_x": 1,
      "spatial_bins_y": 1, "trans_std": 1.0, "part_size": 1})
spec("DeformablePSROIPooling", [P([1, 8, 4, 4]), P([1, 5]), P([1, 2, 2, 2])],
     {"output_dim": 2, "group_size": 2, "spatial_scale": 1.0, "mode": "bilinear_deformable", "spatial_bins_x": 1,
      "spatial_bins_y": 1, "trans_std": 1.0, "part_size": 2})
spec("RGBtoNV12 BGRtoNV12".split(), [P([1, 4, 4, 3])], {"single_plane": True})
spec("RGBtoNV12 BGRtoNV12".split(), [P([1, 4, 4, 3])], {"single_plane": False})
spec("GroupedMatMul", [P([2, 3, 4]), P([2, 5, 4])])
spec("GroupedMatMul", [P([6, 4]), P([2, 5, 4]), P([2], "i64")])
spec("StringTensorPack", [P([2], "i32"), P([2], "i32"), P([6], "u8")])
spec("StringTensorUnpack", [P([2], "string")])


@dataclass
class Outcome:
    """One edited file: the op version, the case, the edit, and both judgments."""

    op: str
    case: int
    param: str
    to: str
    refused: str | None = None  # OpenVINO's message
    errors: list[tuple[str, str]] = field(default_factory=list)  # irreshape's (code, message)
    differ: list = field(default_factory=list)  # (layer, type, port, irreshape's, OpenVINO's)
    crashed: bool = False  # read_model took the child down

    @property
    def verdict(self) -> str:
        """``ok``, ``missed``, ``false``, ``wrong`` or ``untyped``."""
        if self.crashed:
            return "ok"
        if self.refused is not None:
            return "ok" if self.errors else "missed"
        if self.errors:
            return "false"
        if any(d[3] is not None for d in self.differ):
            return "wrong"
        return "untyped" if self.differ else "ok"

    def __str__(self) -> str:
        what = {"missed": lambda: f"OpenVINO refuses: {_last(self.refused)}",
                "false": lambda: f"irreshape: {self.errors}",
                "wrong": lambda: f"types (layer, type, port, irreshape, OpenVINO): {self.differ}",
                "untyped": lambda: f"untyped: {self.differ}",
                "ok": lambda: ""}[self.verdict]()
        return f"{self.verdict:8} {self.op} case {self.case}: {self.param} -> {self.to}: {what}"


def _last(msg: str | None) -> str:
    lines = [x for x in (msg or "").strip().splitlines() if x.strip()]
    return lines[-1] if lines else (msg or "")


def units() -> list[tuple[str, int]]:
    """Every op version of OpenVINO's opsets the registry has a shape function for."""
    out = []
    for name, v in sorted(DEFAULTS):
        unit = registry.op(name, f"opset{FIRST_OPSET[(name, v)]}")
        if unit is not None and not isinstance(unit, registry.Refused) and unit.shape_fn is not None:
            out.append((name, v))
    return out


def cases_of(name: str, version: int) -> list[tuple[list, dict]]:
    return SPECS.get((name, version)) or SPECS.get(name) or []


def build(name: str, version: int, inputs: list, attrs: dict):
    """The op (an ov.Node) on its inputs, as the IR reader builds it, and its Parameters."""
    import openvino as ov
    from openvino import opset1
    from openvino.utils.node_factory import NodeFactory
    params, args = [], []
    for i, (kind, a, t) in enumerate(inputs):
        if kind == "p":
            p = opset1.parameter(a, getattr(ov.Type, t), name=f"in{i}")
            params.append(p)
            args.append(p.output(0))
        else:
            args.append(opset1.constant(np.asarray(a, dtype={"i64": np.int64, "i32": np.int32}.get(t, t))).output(0))
    node = NodeFactory(f"opset{FIRST_OPSET[(name, version)]}").create(name, args, attrs)
    return node, params


BUILDERS: dict[tuple[str, int], Callable[[], tuple]] = {}  # op version -> () -> (outputs, parameters)


def _variables(version: int) -> tuple:
    """ReadValue and Assign of one variable (a Parameter its initial value and the value assigned)."""
    import openvino as ov
    from openvino import opset1
    x = opset1.parameter([2, 3], ov.Type.f32, name="x")
    if version == 3:
        from openvino import opset3 as o
        rv = o.read_value(x, "v")
        return [rv.output(0), o.assign(rv, "v")], [x]
    from openvino import opset6 as o
    from openvino.op.util import Variable, VariableInfo
    info = VariableInfo()
    info.data_shape, info.data_type, info.variable_id = ov.PartialShape([2, 3]), ov.Type.f32, "v"
    var = Variable(info)
    rv = o.read_value(x, var)
    y = opset1.parameter([2, 3], ov.Type.f32, name="y")
    return [rv.output(0), o.assign(opset1.add(rv, y), var)], [x, y]


def _if() -> tuple:
    import openvino as ov
    from openvino import opset8 as o
    c, a, b = (o.parameter(s, getattr(ov.Type, t), name=n) for n, s, t in
               (("c", [], "boolean"), ("a", [2, 3], "f32"), ("b", [2, 3], "i32")))
    ta, tb, ea, eb = (o.parameter([2, 3], getattr(ov.Type, t)) for t in ("f32", "i32", "f32", "i32"))
    then = ov.Model([o.result(o.add(ta, ta)), o.result(o.shape_of(tb, "i32"))], [ta, tb], "then")
    other = ov.Model([o.result(o.multiply(ea, ea)), o.result(o.shape_of(eb, "i32"))], [ea, eb], "else")
    n = o.if_op(c)
    n.set_then_body(then)
    n.set_else_body(other)
    n.set_input(a.output(0), ta, ea)
    n.set_input(b.output(0), tb, eb)
    return [n.set_output(r, e) for r, e in zip(then.get_results(), other.get_results())], [c, a, b]


def _loop() -> tuple:
    import openvino as ov
    from openvino import opset8 as o
    a, k = o.parameter([2, 3], ov.Type.f32, name="a"), o.parameter([2], ov.Type.i64, name="k")
    n_iter, cond = o.parameter([], ov.Type.i64, name="n"), o.parameter([], ov.Type.boolean, name="go")
    bp, bk = o.parameter([2, 3], ov.Type.f32), o.parameter([2], ov.Type.i64)
    body = ov.Model([o.result(o.constant(np.array(True))), o.result(o.add(bp, bp)), o.result(o.shape_of(bk, "i32"))],
                    [bp, bk], "body")
    n = o.loop(n_iter, cond)
    n.set_function(body)
    n.set_special_body_ports([-1, 0])
    n.set_merged_input(bp, a.output(0), body.get_results()[1].input_value(0))
    n.set_invariant_input(bk, k.output(0))
    return [n.get_iter_value(r.input_value(0), -1) for r in body.get_results()[1:]], [n_iter, cond, a, k]


def _tensor_iterator() -> tuple:
    import openvino as ov
    from openvino import opset8 as o
    a, k = o.parameter([4, 3], ov.Type.f32, name="a"), o.parameter([2], ov.Type.i64, name="k")
    bp, bk = o.parameter([1, 3], ov.Type.f32), o.parameter([2], ov.Type.i64)
    body = ov.Model([o.result(o.relu(bp)), o.result(o.shape_of(bk, "i32"))], [bp, bk], "body")
    n = o.tensor_iterator()
    n.set_body(body)
    n.set_sliced_input(bp, a.output(0), 0, 1, 1, -1, 0)
    n.set_invariant_input(bk, k.output(0))
    results = body.get_results()
    return [n.get_concatenated_slices(results[0].input_value(0), 0, 1, 1, -1, 0),
            n.get_iter_value(results[1].input_value(0), -1)], [a, k]


BUILDERS.update({("ReadValue", 3): lambda: _variables(3), ("Assign", 3): lambda: _variables(3),
                 ("ReadValue", 6): lambda: _variables(6), ("Assign", 6): lambda: _variables(6),
                 ("If", 8): _if, ("Loop", 5): _loop, ("TensorIterator", 0): _tensor_iterator})


def _save(outputs, params) -> tuple[str, bytes]:
    import openvino as ov
    from openvino import opset1
    sinks = [o for o in outputs if not isinstance(o, ov.Output)]
    results = [opset1.result(o) for o in outputs if isinstance(o, ov.Output)]
    model = ov.Model(results, sinks, list(params), "m") if sinks else ov.Model(results, list(params), "m")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.xml")
        ov.save_model(model, path, compress_to_fp16=False)
        return Path(path).read_text(), Path(path).with_suffix(".bin").read_bytes()


def models(name: str, version: int) -> list[tuple[str, bytes, list[str]]]:
    """(XML, .bin, names of the Parameters to edit) of each case of one op version."""
    out = []
    if (name, version) in BUILDERS:
        made = [BUILDERS[(name, version)]()]
    else:
        made = []
        for inputs, attrs in cases_of(name, version):
            node, params = build(name, version, inputs, attrs)
            made.append((node.outputs(), params))
    for outputs, params in made:
        xml, weights = _save(outputs, params)
        out.append((xml, weights, [p.get_friendly_name() for p in params]))
    return out


def retype(xml: str, param: str, t: str) -> str:
    """The Parameter named ``param`` with element type ``t``, its port's precision to match."""
    m = re.search(rf'<layer id="\d+" name="{re.escape(param)}" type="Parameter"[^>]*>\s*<data shape="[^"]*" '
                  rf'element_type="([^"]*)" />\s*<output>\s*<port id="0" precision="([^"]*)"', xml)
    assert m is not None, param
    return xml[:m.start(1)] + t + xml[m.end(1):m.start(2)] + precision(t) + xml[m.end(2):]


def _openvino_verdicts(files: list[tuple[str, bytes]]) -> list[tuple[str | None, dict | None] | None]:
    """For each IR pair: (OpenVINO's message or None, {friendly name: [output types]} where it reads it); None
    where read_model crashed (in a forked child)."""
    def judge(pair):
        from irtools.oracle import read_model_bytes
        try:
            m = read_model_bytes(*pair)
        except Exception as e:  # noqa: BLE001  openvino's own refusal
            return str(e), None
        return None, {op.get_friendly_name(): [o.get_element_type().get_type_name() for o in op.outputs()]
                      for op in m.get_ops()}
    return forked(files, judge)


def _irreshape(xml: str, weights: bytes, theirs: dict | None) -> tuple[list, list]:
    """(irreshape's errors, the output ports whose types differ from ``theirs``) for one IR pair."""
    from irreshape.checks import check_file
    from irreshape.checks.graph import Graph
    from irreshape.frontends.openvino import parse
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.xml")
        Path(path).write_text(xml)
        Path(path).with_suffix(".bin").write_bytes(weights)
        result = check_file(path)
        errors = [(f.code, f.message) for f in result.findings if f.severity == "error"]
        differ = []
        if theirs is not None and not errors:
            model = parse(path)
            graph = Graph(model)
            graph.infer_types()
            for layer in model.layers.values():
                types = theirs.get(layer.name)
                if types is None or layer.kind == "result" or len(types) != len(layer.outputs):
                    continue
                for port, t in zip(layer.outputs, types):
                    ours = graph.etype(port) if graph.etype_known(port) else None
                    if ours != t:
                        differ.append((layer.name, layer.type, port.id, ours, t))
    return errors, differ


def sweep(select: Callable[[str, int], bool] = lambda n, v: True, retypes: Iterable[str] = RETYPES,
          sample: Callable[[list], list] = lambda x: x) -> tuple[list[Outcome], list[str]]:
    """Every case of every selected op version: (the outcomes, the op versions without a case)."""
    todo, uncovered = [], []
    for name, v in units():
        if not select(name, v):
            continue
        try:
            built = models(name, v)
        except Exception as e:  # noqa: BLE001  a spec openvino does not build: the sweep's own bug
            uncovered.append(f"{name}-{v}: {_last(str(e))}")
            continue
        if not built:
            uncovered.append(f"{name}-{v}: no case")
        for k, (xml, weights, params) in enumerate(built):
            for p in params:
                for t in retypes:
                    todo.append((Outcome(f"{name}-{v}", k, p, t), retype(xml, p, t), weights))
    todo = sample(todo)
    verdicts = _openvino_verdicts([(x, w) for _, x, w in todo])
    for (o, xml, weights), got in zip(todo, verdicts):
        if got is None:
            o.crashed = True
            continue
        o.refused, theirs = got
        o.errors, o.differ = _irreshape(xml, weights, theirs)
    return [o for o, _, _ in todo], uncovered


def main(argv: list[str]) -> int:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", default="", help="only the op versions whose name holds this")
    ap.add_argument("--all", action="store_true", help="list the untyped ports too")
    args = ap.parse_args(argv)
    outcomes, uncovered = sweep(lambda n, v: args.k.lower() in f"{n}-{v}".lower())
    tally: dict[str, int] = {}
    for o in outcomes:
        tally[o.verdict] = tally.get(o.verdict, 0) + 1
        if o.verdict not in ("ok",) and (args.all or o.verdict != "untyped"):
            print(o)
    for u in uncovered:
        print("uncovered", u)
    ops = {o.op for o in outcomes}
    bad = {o.op for o in outcomes if o.verdict in ("missed", "false", "wrong")}
    print(f"{len(outcomes)} files over {len(ops)} op versions ({len(uncovered)} uncovered): "
          + ", ".join(f"{k} {v}" for k, v in sorted(tally.items()))
          + f"; {len(bad)} op versions disagree, {sum(o.crashed for o in outcomes)} crashed read_model")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
