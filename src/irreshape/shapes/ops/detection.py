"""Detection heads, recurrent cells and attention, as openvino 2026.4.1 infers them.

Shape functions (each cites the OpenVINO shape-inference unit it follows):

* ``PriorBox`` (opset1, opset8), ``PriorBoxClustered`` (opset1): ``prior_box_shape_inference_util.hpp``;
* ``DetectionOutput`` (opset1, opset8): ``detection_output_shape_inference.hpp``;
* ``Proposal`` (opset1, opset4): ``proposal_shape_inference.hpp``;
* ``NonMaxSuppression`` (opset1, opset3, opset4, opset5, opset9): ``nms_shape_inference.hpp``;
* ``ExperimentalDetectronDetectionOutput``, ``ExperimentalDetectronGenerateProposalsSingleImage``,
  ``ExperimentalDetectronPriorGridGenerator``, ``ExperimentalDetectronROIFeatureExtractor``,
  ``ExperimentalDetectronTopKROIs`` (opset6): ``experimental_detectron_*_shape_inference.hpp``;
* ``CTCGreedyDecoder`` (opset1), ``CTCGreedyDecoderSeqLen`` (opset6), ``CTCLoss`` (opset4):
  ``ctc_*_shape_inference.hpp``;
* ``LSTMCell`` (opset1, opset4), ``GRUCell`` (opset3), ``RNNCell`` (opset1), ``LSTMSequence``,
  ``GRUSequence``, ``RNNSequence`` (opset5): ``rnn_base_shape_inference.hpp`` and the per-op units;
* ``ScaledDotProductAttention`` (opset13): ``scaled_dot_product_attention_shape_inference.hpp``;
* ``PagedAttentionExtension`` (``version="extension"``, what ``paged_attention_transformation`` writes; read only
  where its extension is registered): ``paged_attention_shape_inference.hpp`` (28 inputs);
* ``Multinomial`` (opset13), ``RandomUniform`` (opset8): ``multinomial_shape_inference.hpp``,
  ``random_uniform_shape_inference.hpp``.

An IR names the opset its reader looks the type up in, and OpenVINO resolves it to the newest version of
the op that opset holds (``NonMaxSuppression`` of ``opset7`` is NMS-5, ``LSTMCell`` of ``opset2`` is
LSTMCell-0): the older versions are registered for every opset that resolves to them, the newest for the
rest. In an opset without the type at all (``LSTMSequence`` before ``opset5``: OpenVINO 2026 reads no
LSTMSequence-0; ``RNNCell`` in ``opset2``) the reader rejects the IR, and so does the shape function.

OpenVINO's element-type checks (integral PriorBox inputs, floating-point boxes, matching RNN input types)
are each op's type rule, beside its shape function.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core import etypes as E
from ...core.dims import INF, Dim, Shape, format_shape
from ..dimops import (broadcast_merge, broadcast_merge_into, compatible, div, length, merge, merge_checked,
                      one_element, rank_is, shapes_compatible)
from ..node import Node, ShapeError, Undecided, shape_infer, type_infer
from ..typerule import (INDEX_TYPES, INTEGRAL, IS_INDEX, REAL, STRICT, attr_type, check_integral, check_types,
                        data_type_with, equal_types, in_type, known_type_one_of, merge_rule, merged_types,
                        type_one_of)
from ..values import wrap

_DYN = Dim.dynamic()


# -- PriorBox, PriorBoxClustered ---------------------------------------------------------------------
def _f32(values: Sequence[float]) -> list:
    import numpy as np  # float32 arithmetic as C++ does it; only where such an op is
    return [np.float32(v) for v in values]


def _aspect_ratios(node: Node) -> int:
    """``PriorBox::normalized_aspect_ratio(...).size()``: the distinct ratios (and their inverses with
    ``flip``), rounded to 6 decimals in float, plus 1."""
    import numpy as np  # float32 arithmetic as C++ does it; only where such an op is
    flip = node.flag("flip")
    million = np.float32(1e6)
    ratios = {np.float32(1)}
    with np.errstate(all="ignore"):
        for r in _f32(node.floats("aspect_ratio")):
            ratios.add(np.float32(np.round(r * million) / million))
            if flip:
                ratios.add(np.float32(np.round(np.float32(1) / r * million) / million))
    return len(ratios)


def _prior_box_count(node: Node) -> int:
    """``PriorBox::number_of_priors`` (v0 and v8 count alike), in the C++ integer arithmetic."""
    import numpy as np  # float32 arithmetic as C++ does it; only where such an op is
    ratios = _aspect_ratios(node)
    min_size, max_size = node.floats("min_size"), node.floats("max_size")
    fixed_size, fixed_ratio = node.floats("fixed_size"), node.floats("fixed_ratio")
    if node.flag("scale_all_sizes"):
        count = ratios * len(min_size) + len(max_size)
    else:
        count = ratios + len(min_size) - 1
    if fixed_size:
        count = ratios * len(fixed_size)
    for density in _f32(node.floats("density")):
        if not (np.isfinite(density) and abs(density) < 2.0 ** 63):
            # static_cast<int64_t> of it is undefined: x86-64 and ARM builds count differently
            raise Undecided(f"PriorBox density {density} is out of the int64 range")
        square = int(density) ** 2 - 1  # static_cast<int64_t>, toward 0
        count += (len(fixed_ratio) if fixed_ratio else ratios) * square
    return wrap(count, "i64")


def _prior_boxes(node: Node, priors: int) -> list[Shape]:
    """``prior_box::shape_infer``: ``[2, 4 * H * W * priors]`` from the values of the output-size input,
    ``[2, ?]`` without them."""
    out_rank, img_rank = node.rank(0), node.rank(1)
    if not ((out_rank is None or img_rank is None or out_rank == img_rank) and out_rank in (None, 1)):
        raise ShapeError(f"output size input rank {out_rank} must match image shape input rank {img_rank} "
                         "and both must be 1-D")
    size = node.as_shape(0)
    if size is None:
        return [[Dim.of(2), _DYN]]
    if len(size) != 2:
        raise ShapeError(f"Output size must have two elements. Got: {len(size)}")
    return [[Dim.of(2), size[0] * size[1] * Dim.of(priors) * Dim.of(4)]]


@shape_infer("PriorBox")
def _prior_box(node: Node) -> list[Shape]:
    """PriorBox-0 and PriorBox-8 (one rule): :func:`_prior_boxes` with :func:`_prior_box_count` priors."""
    return _prior_boxes(node, _prior_box_count(node))


@shape_infer("PriorBoxClustered")
def _prior_box_clustered(node: Node) -> list[Shape]:
    """PriorBoxClustered-0: one prior per width (``validate_and_infer_types`` wants as many heights)."""
    widths, heights = node.floats("width"), node.floats("height")
    if len(widths) != len(heights):
        raise ShapeError(f"Size of heights vector: {len(heights)} doesn't match size of widths vector: "
                         f"{len(widths)}")
    return _prior_boxes(node, len(widths))


@type_infer("PriorBox", "PriorBoxClustered")
def _prior_box_types(node: Node) -> list[str | None]:
    check_integral(node, 0, "output size input must be an integral number, but is: {}")
    check_integral(node, 1, "image input must be an integral number, but is: {}")
    return ["f32"]


# -- DetectionOutput -----------------------------------------------------------------------------------
_CODE_TYPES = ("caffe.PriorBoxParameter.CORNER", "caffe.PriorBoxParameter.CENTER_SIZE")


def _deduce_classes(node: Node, share_location: bool, box_size: int) -> tuple[int, int]:
    """``util::compute_num_classes`` (DetectionOutput-8): the number of classes and of prior boxes from
    the static dims of the inputs."""
    boxes, classes, proposals = node.input(0), node.input(1), node.input(2)
    five = len(node.inputs) == 5
    aux_classes, aux_boxes = (node.input(3), node.input(4)) if five else (None, None)
    ranks = [(boxes, 2, "Box logits"), (classes, 2, "Class predictions"), (proposals, 3, "Proposals")]
    if five:
        ranks += [(aux_classes, 2, "Additional class predictions"), (aux_boxes, 2, "Additional box predictions")]
    for shape, rank, what in ranks:
        if shape is not None and len(shape) != rank:
            raise ShapeError(f"{what} rank must be {rank}. Got {len(shape)}")
    num_classes = priors = 0
    if proposals is not None and proposals[2].is_static:
        size = proposals[2].lo
        if size % box_size:
            raise ShapeError(f"Proposals' third dimension must be a multiply of prior_box_size ({box_size}). "
                             f"Current value is: {size}.")
        priors = size // box_size
        if priors <= 0:
            raise ShapeError(f"A number of prior boxes must be greater zero. Got: {priors}")
    if priors == 0 and aux_classes is not None and aux_classes[1].is_static:
        size = aux_classes[1].lo
        if size % 2:
            raise ShapeError("Additional class predictions second dimension must be a multiply of 2. "
                             f"Current value is: {size}.")
        priors = size // 2
        if priors <= 0:
            raise ShapeError(f"A number of prior boxes must be greater zero. Got: {priors}")
    if priors > 0 and classes is not None and classes[1].is_static:
        if classes[1].lo % priors:
            raise ShapeError("Class predictions second dimension must be a multiply of num_prior_boxes "
                             f"({priors}). Current value is: {classes[1].lo}.")
        num_classes = classes[1].lo // priors
    for what, shape in (("Box logits", boxes), ("Additional box predictions", aux_boxes)):
        if num_classes == 0 and priors > 0 and shape is not None and shape[1].is_static and not share_location:
            if shape[1].lo % (priors * 4):
                raise ShapeError(f"{what} second dimension must be a multiply of num_prior_boxes * 4 "
                                 f"({priors * 4}). Current value is: {shape[1].lo}.")
            num_classes = shape[1].lo // (priors * 4)
    return num_classes, priors


def _count_priors(size: int, priors: int, per_prior: int, what: str, per_prior_name: str) -> int:
    """The number of prior boxes a static dim of ``size`` (``per_prior`` elements a prior) holds, where it is
    not known yet (0); else the dim checked against it."""
    if not priors:
        if size % per_prior:
            raise ShapeError(f"{what} must be a multiply of {per_prior_name} ({per_prior}). Current value is: "
                             f"{size}.")
        return size // per_prior
    if size != priors * per_prior:
        raise ShapeError(f"{what} must be equal to num_prior_boxes * {per_prior_name} ({priors * per_prior}). "
                         f"Current value is: {size}.")
    return priors


def _detection_output(node: Node, attribute_classes: int) -> list[Shape]:
    """``util::shape_infer_base``: ``[1, 1, N, 7]``, N from ``keep_top_k``, else ``top_k`` times the
    classes, else the prior boxes times the classes, each times the batch."""
    code_type = node.attr("code_type", _CODE_TYPES[0])
    if code_type not in _CODE_TYPES:
        raise ShapeError('code_type must be either "caffe.PriorBoxParameter.CORNER" or '
                         '"caffe.PriorBoxParameter.CENTER_SIZE"')
    keep_top_k = node.ints("keep_top_k")
    if not keep_top_k:
        # OpenVINO reads the first element of the empty vector: read_model of such an IR crashes (measured,
        # openvino 2026.4.1: a segmentation fault), a refusal of the file no message of its own can tell
        raise ShapeError("'keep_top_k' is empty: OpenVINO reads its first element, and read_model crashes on "
                         "this layer")
    share_location = node.flag("share_location")
    box_size = 4 if node.flag("normalized") else 5
    boxes, classes, proposals = node.input(0), node.input(1), node.input(2)

    priors = 0
    if attribute_classes == -1:
        num_classes, priors = _deduce_classes(node, share_location, box_size)
    else:
        num_classes = attribute_classes
    loc_classes = 1 if share_location else num_classes

    batch, batch_set = _DYN, False
    if boxes is not None:
        if len(boxes) != 2:
            raise ShapeError(f"Box logits rank must be 2. Got {len(boxes)}")
        batch, batch_set = boxes[0], True
        if not priors and boxes[1].is_static:
            if loc_classes == 0 or boxes[1].lo % (loc_classes * 4):
                raise ShapeError("Box logits' second dimension must be a multiply of num_loc_classes * 4 "
                                 f"({loc_classes * 4}). Current value is: {boxes[1].lo}.")
            priors = boxes[1].lo // (loc_classes * 4)
        if priors > 0 and loc_classes > 0 and not compatible(boxes[1], Dim.of(priors * loc_classes * 4)):
            raise ShapeError("The second dimension of the first input (box logits) is not compatible. "
                             f"Current value: {boxes[1]}, expected value: {priors * loc_classes * 4}")
    if classes is not None:
        if len(classes) != 2:
            raise ShapeError(f"Class predictions rank must be 2. Got {len(classes)}")
        if (not batch_set or batch.is_dynamic) and classes[0].is_static:
            batch, batch_set = classes[0], True
        elif not compatible(classes[0], batch):
            raise ShapeError("Class predictions' first dimension is not compatible with batch size.  Current "
                             f"value is: {classes[0]}, expected: {batch}.")
        if classes[1].is_static and num_classes:
            priors = _count_priors(classes[1].lo, priors, num_classes, "Class predictions' second dimension",
                                   "num_classes")
    if proposals is not None:
        if len(proposals) != 3:
            raise ShapeError(f"Proposals rank must be 3. Got {len(proposals)}")
        if not (proposals[0].contains(1) or compatible(proposals[0], batch)):
            raise ShapeError(f"Proposals' first dimension is must be equal to either batch size ({batch}) "
                             f"or 1. Got: {proposals[0]}.")
        second = 1 if node.flag("variance_encoded_in_target") else 2
        if not proposals[1].contains(second):
            raise ShapeError(f"Proposals' second dimension is mismatched. Current value is: {proposals[1]}, "
                             f"expected: {second}.")
        if proposals[2].is_static:
            priors = _count_priors(proposals[2].lo, priors, box_size, "Proposals' third dimension", "prior_box_size")
    if len(node.inputs) == 5:
        aux_classes, aux_boxes = node.input(3), node.input(4)
        if aux_classes is not None:
            if len(aux_classes) != 2:
                raise ShapeError(f"additional class predictions rank must be 2. Got {len(aux_classes)}")
            if not compatible(aux_classes[0], batch):
                raise ShapeError("Additional class predictions' first dimension must be compatible with "
                                 f"batch size. Current value is: {aux_classes[0]}, expected: {batch}.")
            if priors and not compatible(aux_classes[1], Dim.of(priors * 2)):
                raise ShapeError("Additional class predictions' second dimension must be compatible with "
                                 f"num_prior_boxes * 2. Current value is: {aux_classes[1]}, expected: "
                                 f"{priors * 2}.")
            if aux_classes[1].is_static:
                priors = aux_classes[1].lo // 2
        if not shapes_compatible(aux_boxes, boxes):
            raise ShapeError("Additional box predictions' shape must be compatible with box logits shape. "
                             f"Current value is: {format_shape(aux_boxes)}, expected: {format_shape(boxes)}.")

    dim_priors = Dim.of(priors) if priors else _DYN
    dim_classes = Dim.of(num_classes) if num_classes else _DYN
    top_k = node.int("top_k")
    if keep_top_k[0] > 0:
        count = batch * Dim.of(keep_top_k[0])
    elif keep_top_k[0] == -1 and top_k > 0:
        count = batch * Dim.of(top_k) * dim_classes
    else:
        count = batch * dim_priors * dim_classes
    return [[Dim.of(1), Dim.of(1), count, Dim.of(7)]]


@shape_infer("DetectionOutput", versions=(0,))
def _detection_output_v0(node: Node) -> list[Shape]:
    """DetectionOutput-0: ``num_classes`` from its attribute (0 where the IR has none), which must be
    positive."""
    num_classes = node.int("num_classes")
    if num_classes <= 0:
        raise ShapeError("Number of classes must be greater than zero")
    return _detection_output(node, num_classes)


@shape_infer("DetectionOutput")
def _detection_output_v8(node: Node) -> list[Shape]:
    """DetectionOutput-8: the number of classes deduced from the input shapes."""
    return _detection_output(node, -1)


@type_infer("DetectionOutput")
def _detection_output_types(node: Node) -> list[str | None]:
    box = in_type(node, 0)
    check_types(node, (0, REAL, "Box logits' data type must be floating point. Got {}", STRICT))
    equal_types(node, (0, 1), "Class predictions' data type must be the same as box logits type ({}). Got {}")
    check_types(node, (2, REAL, "Proposals' data type must be floating point. Got {}", STRICT))
    if len(node.types) > 4:  # the additional predictions (DetectionOutput-8 with 5 inputs)
        equal_types(node, (1, 3), "Additional class predictions' data type must be the same as class predictions data "
                                  "type ({}). Got {}")
        equal_types(node, (0, 4), "Additional box predictions' data type must be the same as box logits data type "
                                  "({}). Got {}")
    return [box]


# -- Proposal ------------------------------------------------------------------------------------------
def _proposal_boxes(node: Node) -> list[Dim]:
    """``v0::infer_prop_shape``: ``[batch * post_nms_topn, 5]``."""
    probs, deltas, image = node.input(0), node.input(1), node.input(2)
    for shape, rank, what in ((probs, 4, "class_probs"), (deltas, 4, "bbox_deltas"), (image, 1, "image_shape")):
        if not rank_is(shape, rank):
            raise ShapeError(f"Proposal layer shape {what} should be rank {rank} compatible "
                             f"({format_shape(shape)}).")
    if probs is not None and deltas is not None:
        if not compatible(deltas[1], probs[1] * Dim.of(2)):
            raise ShapeError(f"Anchor number inconsistent between class_probs ({probs[1] * Dim.of(2)}), and "
                             f"bbox_deltas ({deltas[1]}).")
        if not compatible(probs[0], deltas[0]):
            raise ShapeError(f"Batch size inconsistent between class_probs ({probs[0]}) and bbox deltas "
                             f"({deltas[0]}).")
    if image is not None and image[0].is_static and not 3 <= image[0].lo <= 4:
        raise ShapeError(f"Image_shape 1D tensor must have => 3 and <= 4 elements (image_shape_shape[0]"
                         f"{image[0]}).")
    batches = [shape[0] for shape in (probs, deltas) if shape is not None]
    batch = _DYN
    for dim in batches:  # compatible, as checked
        batch = merge(batch, dim) or batch
    return [batch * node.size_dim("post_nms_topn"), Dim.of(5)]


@shape_infer("Proposal", versions=(0,))
def _proposal_v0(node: Node) -> list[Shape]:
    """Proposal-0: the boxes."""
    return [_proposal_boxes(node)]


@shape_infer("Proposal")
def _proposal_v4(node: Node) -> list[Shape]:
    """Proposal-4: the boxes and one probability per box."""
    boxes = _proposal_boxes(node)
    return [boxes, [boxes[0]]]


@type_infer("Proposal")
def _proposal_types(node: Node) -> list[str | None]:
    check_types(node, *((i, REAL, f"Proposal layer input {name} should have floating point type ({{}}).", STRICT)
                        for i, name in ((0, "class_probs"), (1, "bbox_deltas"), (2, "image_shape"))))
    return [in_type(node, 0)] * node.n_outputs


# -- NonMaxSuppression ---------------------------------------------------------------------------------
def _nms_validate(node: Node) -> None:
    """``nms::validate::shapes`` (NMS-1, -3, -4): 3-D boxes and scores, scalar thresholds, boxes and
    scores agreeing on the batch and the number of boxes, 4 coordinates a box."""
    boxes, scores = node.input(0), node.input(1)
    _nms_ranks(boxes, scores)
    for i, what in ((2, "'max_output_boxes_per_class' input."), (3, "'iou_threshold' input"),
                    (4, "'score_threshold' input")):
        if node.has_input(i) and not rank_is(node.input(i), 0):
            raise ShapeError(f"Expected a scalar for the {what}")
    if boxes is not None:
        if scores is not None:
            _nms_boxes_and_scores(boxes, scores)
        _nms_box_size(boxes)


def _nms_ranks(boxes: Shape, scores: Shape) -> None:
    if not rank_is(boxes, 3):
        raise ShapeError("Expected a 3D tensor for the 'boxes' input")
    if not rank_is(scores, 3):
        raise ShapeError("Expected a 3D tensor for the 'scores' input")


def _nms_boxes_and_scores(boxes: list[Dim], scores: list[Dim]) -> None:
    if not compatible(boxes[0], scores[0]):
        raise ShapeError("The first dimension of both 'boxes' and 'scores' must match.")
    if not compatible(boxes[1], scores[2]):
        raise ShapeError("'boxes' and 'scores' input shapes must match at the second and third dimension "
                         "respectively. Boxes: ")


def _nms_box_size(boxes: list[Dim], size: int = 4) -> None:
    if not boxes[2].contains(size):
        raise ShapeError(f"The last dimension of the 'boxes' input must be equal to {size}")


def _max_boxes(node: Node) -> int | None:
    """The constant ``max_output_boxes_per_class`` (its first element), None where it is not known."""
    values = node.const(2) if node.has_input(2) else None
    return values[0] if values else None


@shape_infer("NonMaxSuppression", versions=(1, 3))
def _nms_v1(node: Node) -> list[Shape]:
    """NMS-1 and NMS-3 (``nms::shape_infer``): ``[min(boxes, max_boxes * classes), 3]`` where both are
    static, ``[?, 3]`` otherwise."""
    _nms_validate(node)
    boxes, scores = node.input(0), node.input(1)
    selected = _DYN
    if boxes is not None:
        value = _max_boxes(node)
        per_class = Dim.of(value) if value is not None else _DYN
        if scores is not None:
            per_class = per_class * scores[1]
        if boxes[1].is_static and per_class.is_static:
            selected = Dim.of(min(boxes[1].lo, per_class.lo))
    return [[selected, Dim.of(3)]]


@shape_infer("NonMaxSuppression", versions=(4,))
def _nms_v4(node: Node) -> list[Shape]:
    """NMS-4: ``min(boxes, max_boxes)`` times the batches and the classes (their upper bounds), with a
    static number of boxes and a constant ``max_output_boxes_per_class``; ``[?, 3]`` otherwise."""
    _nms_validate(node)
    boxes, scores = node.input(0), node.input(1)
    selected = _DYN
    value = _max_boxes(node)
    if boxes is not None and scores is not None and boxes[1].is_static and value is not None:
        selected = Dim.of(min(boxes[1].lo, value))
        selected = selected * Dim.of(length(scores[0].hi)) * Dim.of(length(scores[1].hi))
    return [[selected, Dim.of(3)]]


@shape_infer("NonMaxSuppression")
def _nms_v5(node: Node, box_size: int = 4) -> list[Shape]:
    """NMS-5 and NMS-9: ``[0..min(boxes, max_boxes) * batches * classes, 3]`` (upper bounds) for the
    selected indices and scores, ``[1]`` for the number of them."""
    boxes, scores = node.input(0), node.input(1)
    _nms_ranks(boxes, scores)
    for i, what in ((2, "max_output_boxes_per_class"), (3, "iou_threshold"), (4, "score_threshold"),
                    (5, "soft_nms_sigma")):
        if node.has_input(i) and not one_element(node.input(i)):
            raise ShapeError(f"Expected 0D or 1D tensor for the '{what}' input")
    selected = _DYN
    if boxes is not None:
        if scores is not None:
            _nms_boxes_and_scores(boxes, scores)
            value = _max_boxes(node)
            if value is not None:  # below -1, an empty interval
                selected = Dim(0, min(length(boxes[1].hi), value))
            selected = selected * Dim.of(length(scores[0].hi)) * Dim.of(length(scores[1].hi))
        _nms_box_size(boxes, box_size)
    out = [selected, Dim.of(3)]
    return [out, list(out), [Dim.of(1)]]


_NMS_REAL = ("bf16", "f16", "f32", E.DYNAMIC)


def _nms_inputs(node: Node) -> None:
    """NMS-5 and -9: boxes, scores and the thresholds are bf16, f16 or f32."""
    for i, name in ((0, "boxes"), (1, "scores"), (3, "iou_threshold"), (4, "score_threshold_ps"),
                    (5, "soft_nms_sigma")):
        known_type_one_of(node, i, _NMS_REAL, f"Expected bf16, fp16 or fp32 as element type for the '{name}' input.")


@type_infer("NonMaxSuppression", versions=(1,))
def _nms_1_types(node: Node) -> list[str | None]:
    return ["i64"]


@type_infer("NonMaxSuppression", versions=(3, 4))
def _nms_3_types(node: Node) -> list[str | None]:
    return [attr_type(node, "output_type", "i64")]


@type_infer("NonMaxSuppression")
def _nms_types(node: Node) -> list[str | None]:
    _nms_inputs(node)
    ot = attr_type(node, "output_type", "i64")
    return [ot, "f32", ot][:node.n_outputs]


@shape_infer("NMSRotated", versions=(13,))
def _nms_rotated(node: Node) -> list[Shape]:
    """NMSRotated-13 (``nms::shape_infer`` with rotated boxes): boxes of 5 values, else as NMS-9 (five inputs: the
    op unit's count)."""
    return _nms_v5(node, 5)


@type_infer("NMSRotated", versions=(13,))
def _nms_rotated_types(node: Node) -> list[str | None]:
    """``v13::NMSRotated::validate_and_infer_types``: boxes, scores and the thresholds floating-point, the box count
    an integer, ``output_type`` i32 or i64; the indices and their number of ``output_type``, the scores f32."""
    for i, t in enumerate(node.types):
        if t in (None, E.DYNAMIC):
            continue
        if i == 2 and not E.is_integral_number(t):
            raise ShapeError(f"Expected integer type as element type for the input at: {i}")
        if i != 2 and not E.is_real(t):
            raise ShapeError(f"Expected floating point type as element type for the input at: {i}")
    out = _index_type(node, "output_type", "The `output_type` attribute (related to the first and third output) must "
                                           "be i32 or i64.")
    return [out, "f32", out]


# -- MulticlassNms, MatrixNms ---------------------------------------------------------------------------
def _most(d: Dim) -> int:
    """``Dimension::get_max_length``: -1 for an unbounded dim."""
    return length(d.hi)


def _top_k(boxes: Dim, nms_top_k: int) -> Dim:
    """The boxes a class keeps: ``min(boxes' upper bound, nms_top_k)`` where ``nms_top_k`` is set, else the dim."""
    return Dim.of(min(_most(boxes), nms_top_k)) if nms_top_k > -1 else boxes


def _selected(count: Dim) -> Dim:
    """``Dimension(0, count.get_max_length())``: as many selected boxes as ``count`` can reach, or none."""
    return Dim(0, INF if _most(count) == -1 else _most(count))


def _nms_outputs(selected: Dim, batches: Dim) -> list[Shape]:
    """The selected boxes ``[n, 6]``, their indices ``[n, 1]`` and their number per image ``[batches]``."""
    return [[selected, Dim.of(6)], [selected, Dim.of(1)], [batches]]


def _nms_attributes(node: Node, *names: str) -> None:
    """The attributes ``names`` (``nms_top_k``, ``keep_top_k``, ``background_class``) -1 or more."""
    for name in names:
        value = node.int(name)
        if value < -1:
            raise ShapeError(f"The '{name}' must be great or equal -1. Got:{value}")


@shape_infer("MulticlassNms", versions=(8, 9))
def _multiclass_nms(node: Node) -> list[Shape]:
    """:func:`_multiclass_nms_shapes`, then ``MulticlassNmsBase::validate``'s attribute checks."""
    out = _multiclass_nms_shapes(node)
    _nms_attributes(node, "nms_top_k", "keep_top_k", "background_class")
    eta = node.float("nms_eta")
    if not 0.0 <= eta <= 1.0:
        raise ShapeError(f"The 'nms_eta' must be in close range [0, 1.0]. Got:{eta}")
    return out


def _multiclass_nms_shapes(node: Node) -> list[Shape]:
    """MulticlassNms-8 and -9 (``multiclass_nms_shape_inference.hpp``; v8 reads a third input as v9 does): 3-D boxes
    with 3-D scores ``[batches, classes, boxes]``, or with 2-D scores ``[classes, boxes]`` and 1-D ``roisnum``
    ``[images]``; the outputs :func:`_nms_outputs`, with ``0..top_k(boxes) * classes`` (at most ``keep_top_k``)
    ``* images`` selected boxes where the shapes tell, else ``?``."""
    rois = len(node.inputs) == 3
    boxes, scores, roisnum = node.input(0), node.input(1), node.input(2) if rois else None
    _nms_ranks(boxes, None)
    if rois:
        if not rank_is(scores, 2):
            raise ShapeError("Expected a 2D tensor for the 'scores' input")
        if not rank_is(roisnum, 1):
            raise ShapeError("Expected a 1D tensor for the 'roisnum' input")
    else:
        _nms_ranks(None, scores)
    if boxes is None:
        return _nms_outputs(_DYN, _DYN)
    if scores is None:
        raise ShapeError("Accessing out-of-range dimension")  # num_batches reads the scores' dim 0
    if not compatible(boxes[0], scores[0]):
        raise ShapeError("The first dimension of both 'boxes' and 'scores' must match.")
    _nms_box_size(boxes)
    if rois and not compatible(boxes[1], scores[1]):
        raise ShapeError("'boxes' and 'scores' input shapes must match at the second dimension respectively")
    if not rois:
        _nms_boxes_and_scores(boxes, scores)
    elif roisnum is None:
        return _nms_outputs(_DYN, _DYN)
    classes, images = (boxes[0], roisnum[0]) if rois else (scores[1], scores[0])  # type: ignore[index]
    selected = _top_k(boxes[1], node.int("nms_top_k")) * classes
    keep_top_k = node.int("keep_top_k")
    if keep_top_k > -1 and keep_top_k < _most(selected):
        selected = Dim.of(keep_top_k)
    return _nms_outputs(_selected(selected * images), images if rois else boxes[0])


@shape_infer("MatrixNms", versions=(8,))
def _matrix_nms(node: Node) -> list[Shape]:
    """MatrixNms-8 (``matrix_nms_shape_inference.hpp``): 3-D boxes and scores ``[batches, classes, boxes]``; the
    outputs :func:`_nms_outputs` with ``0..min(top_k(boxes) * classes, keep_top_k) * batches`` selected boxes where
    the shapes tell, else ``?``."""
    boxes, scores = node.input(0), node.input(1)
    _nms_ranks(boxes, scores)
    if boxes is None:
        return _nms_outputs(_DYN, _DYN)
    _nms_attributes(node, "nms_top_k", "keep_top_k", "background_class")
    nms_top_k, keep_top_k = node.int("nms_top_k"), node.int("keep_top_k")
    selected = _DYN
    if scores is not None:
        _nms_boxes_and_scores(boxes, scores)
        count = _top_k(boxes[1], nms_top_k) * scores[1]
        if keep_top_k > -1:
            count = Dim.of(min(_most(count), keep_top_k))
        selected = _selected(count * scores[0])
    _nms_box_size(boxes)
    return _nms_outputs(selected, boxes[0])


_NMS_FLOATS = ("f32", "f16", "bf16")


def _index_type(node: Node, name: str, message: str) -> str:
    """An element type attribute (``output_type``, ``roi_num_type``; i64 where the IR has none) as OpenVINO parses
    it, which must be i32 or i64 (else ``message``)."""
    return type_one_of(attr_type(node, name, "i64"), INDEX_TYPES, message)


@type_infer("MulticlassNms", versions=(8, 9))
@type_infer("MatrixNms", versions=(8,))
def _nms_base_types(node: Node) -> list[str | None]:
    """``MulticlassNmsBase::validate`` and ``MatrixNms::validate``: ``output_type`` i32 or i64, boxes and scores f32,
    f16 or bf16 (dynamic is refused) and compatible, MulticlassNms' ``roisnum`` i32 or i64; the boxes of the boxes'
    type, the indices and counts of ``output_type``."""
    out = _index_type(node, "output_type", "Output type must be i32 or i64")
    for i, name in ((0, "boxes"), (1, "scores")):
        known_type_one_of(node, i, _NMS_FLOATS, f"Expected bf16, fp16 or fp32 as element type for the '{name}' input.")
    if E.merge(in_type(node, 0), in_type(node, 1)) is False:
        raise ShapeError("Expected 'boxes', 'scores' type is same.")
    if len(node.types) == 3:
        known_type_one_of(node, 2, ("i32", "i64"), "Expected i64 or i32 as element type for the 'roisnum' input.")
    return [in_type(node, 0), out, out]


# -- GenerateProposals ---------------------------------------------------------------------------------
@shape_infer("GenerateProposals", versions=(9,))
def _generate_proposals(node: Node) -> list[Shape]:
    """GenerateProposals-9 (``generate_proposals_shape_inference.hpp``, after the attribute checks of its
    ``validate_and_infer_types``): im_info ``[batches, 3 or 4]``, anchors ``[H, W, A, 4]``, deltas ``[batches, 4A, H,
    W]``, scores ``[batches, A, H, W]``; the rois ``[0..batches * post_nms_count, 4]``, their scores and their number
    per image ``[batches]``, the batches merged over im_info, deltas and scores (where they merge)."""
    import struct  # nms_eta is a C++ float
    if node.int("pre_nms_count") <= 0:
        raise ShapeError("Attribute pre_nms_count must be larger than 0.")
    post = node.int("post_nms_count")
    if post <= 0:
        raise ShapeError("Attribute post_nms_count must be larger than 0.")
    if struct.unpack("f", struct.pack("f", node.float("nms_eta")))[0] != 1.0:
        raise ShapeError("Attribute min_size must be 1.0.")  # (sic: OpenVINO's message for nms_eta)
    im_info, anchors, deltas, scores = (node.input(i) for i in range(4))
    batches = _DYN
    if not rank_is(im_info, 2):
        raise ShapeError(f"The 'input_im_info' input is expected to be a 2D. Got: {format_shape(im_info)}")
    if im_info is not None:
        if not (im_info[1].contains(3) or im_info[1].contains(4)):
            raise ShapeError("The 'input_im_info' shape[1] is expected to be a compatible with [3] or [4]. Got: "
                             f"{format_shape(im_info)}")
        batches = merge(batches, im_info[0]) or batches
    for shape, what in ((anchors, "input_anchors"), (deltas, "input_deltas"), (scores, "input_scores")):
        if not rank_is(shape, 4):
            raise ShapeError(f"The '{what}' input is expected to be a 4D. Got: {format_shape(shape)}")
        if shape is anchors and anchors is not None and not anchors[3].contains(4):
            raise ShapeError(f"The fourth dimension of 'input_anchors' should be compatible with 4. Got: {anchors[3]}")
    for shape in (deltas, scores):
        if shape is not None:
            batches = merge(batches, shape[0]) or batches
    if deltas is not None and scores is not None:
        checks = [(deltas[0], scores[0], "Batch for inputs 'input_deltas' and 'input_scores' should be equal."),
                  (deltas[1], scores[1] * Dim.of(4), "Anchor number for inputs 'input_deltas' and 'input_scores' "
                                                     "should be equal."),
                  (deltas[2], scores[2], "Heights for inputs 'input_deltas' and 'input_scores' should be equal."),
                  (deltas[3], scores[3], "Width for inputs 'input_deltas' and 'input_scores' should be equal.")]
        if im_info is not None:
            checks.append((deltas[0], im_info[0], "Batch for inputs 'im_info' and 'input_deltas' should be equal."))
        _all_compatible(checks)
    if scores is not None and anchors is not None:
        _all_compatible([(anchors[0], scores[2], "Heights for inputs 'input_anchors' and 'input_scores' should be "
                                                 "equal."),
                         (anchors[1], scores[3], "Width for inputs 'input_anchors' and 'input_scores' should be "
                                                 "equal."),
                         (anchors[2], scores[1], "Anchor number for inputs 'input_anchors' and 'input_scores' should "
                                                 "be equal.")])
    rois = _selected(batches * Dim.of(post))
    return [[rois, Dim.of(4)], [rois], [batches]]


def _all_compatible(checks: Sequence[tuple[Dim, Dim, str]]) -> None:
    for a, b, message in checks:
        if not compatible(a, b):
            raise ShapeError(message)


@type_infer("GenerateProposals", versions=(9,))
def _generate_proposals_types(node: Node) -> list[str | None]:
    """``v9::GenerateProposals::validate_and_infer_types``: the rois and scores of im_info's type, their number per
    image of ``roi_num_type``, which must be i32 or i64."""
    count = _index_type(node, "roi_num_type", "The third output type must be int64 or int32.")
    return [in_type(node, 0), in_type(node, 0), count]


# -- ExperimentalDetectron* ----------------------------------------------------------------------------
@shape_infer("ExperimentalDetectronDetectionOutput")
def _ed_detection_output(node: Node) -> list[Shape]:
    """``[max_detections_per_image, 4]`` boxes, ``[max_detections_per_image]`` classes and scores."""
    rois, deltas, scores, im_info = (node.input(i) for i in range(4))
    num_classes = node.int("num_classes")
    if rois is not None:
        if len(rois) != 2:
            raise ShapeError("Input rois rank must be equal to 2.")
        if not rois[1].contains(4):
            raise ShapeError(f"The last dimension of the 'input_rois' input must be compatible with 4. Got: "
                             f"{rois[1]}")
    if deltas is not None:
        if len(deltas) != 2:
            raise ShapeError("Input deltas rank must be equal to 2.")
        if not compatible(deltas[1], Dim.of(num_classes * 4)):
            raise ShapeError("The last dimension of the 'input_deltas' input be compatible with the value of "
                             f"the attribute 'num_classes' * 4. Got: {deltas[1]}")
    if scores is not None:
        if len(scores) != 2:
            raise ShapeError("Input scores rank must be equal to 2.")
        if not compatible(scores[1], Dim.of(num_classes)):
            raise ShapeError("The last dimension of the 'input_scores' input must be compatible withthe value "
                             f"of the attribute 'num_classes'. Got: {scores[1]}")
    if not shapes_compatible(im_info, [Dim.of(1), Dim.of(3)]):
        raise ShapeError("Input image info shape must be compatible with [1,3].")
    if rois is not None and deltas is not None and scores is not None:
        merged = merge(rois[0], deltas[0])
        if merged is None or merge(merged, scores[0]) is None:
            raise ShapeError("The first dimension of inputs 'input_rois', 'input_deltas', 'input_scores' must "
                             f"be the compatible. input_rois batch: {rois[0]}; input_deltas batch: "
                             f"{deltas[0]}; input_scores batch: {scores[0]}")
    count = node.size_dim("max_detections_per_image")
    return [[count, Dim.of(4)], [count], [count]]


def _ed_real(node: Node, message: str = "Input[{}] type '{}' is not floating point or not same as others inputs.") \
        -> str | None:
    """The ExperimentalDetectron ops' inputs: real, all of one type (merged; dynamic gives way), the outputs'."""
    merged: str | None | bool = E.DYNAMIC
    for i, t in enumerate(node.types):
        if t is None:
            merged = None
            continue
        m = E.merge(merged, t) if merged is not None else t
        if m is False or not (t == E.DYNAMIC or E.is_real(t)):
            raise ShapeError(message.format(i, t))
        merged = m if merged is not None else None
    return merged  # type: ignore[return-value]


@type_infer("ExperimentalDetectronDetectionOutput")
def _ed_detection_output_types(node: Node) -> list[str | None]:
    t = _ed_real(node)
    return [t, "i32", t]


@type_infer("ExperimentalDetectronGenerateProposalsSingleImage", "ExperimentalDetectronPriorGridGenerator",
            "ExperimentalDetectronROIFeatureExtractor")
def _ed_types(node: Node) -> list[str | None]:
    return [_ed_real(node)] * node.n_outputs


@type_infer("ExperimentalDetectronTopKROIs")
def _ed_topk_rois_types(node: Node) -> list[str | None]:
    return [_ed_real(node, "ROIs and probabilities of ROIs must same floating-point type.")]


@shape_infer("ExperimentalDetectronGenerateProposalsSingleImage")
def _ed_generate_proposals(node: Node) -> list[Shape]:
    """``[post_nms_count, 4]`` rois and ``[post_nms_count]`` scores."""
    im_info, anchors, deltas, scores = (node.input(i) for i in range(4))
    if not rank_is(im_info, 1):
        raise ShapeError(f"The 'input_im_info' input is expected to be a 1D. Got: {format_shape(im_info)}")
    if im_info is not None and not im_info[0].contains(3):
        raise ShapeError(f"The 'input_im_info' shape is expected to be a compatible with [3]. Got: "
                         f"{format_shape(im_info)}")
    if not rank_is(anchors, 2):
        raise ShapeError(f"The 'input_anchors' input is expected to be a 2D. Got: {format_shape(anchors)}")
    if anchors is not None and not anchors[1].contains(4):
        raise ShapeError(f"The second dimension of 'input_anchors' should be compatible with 4. Got: "
                         f"{anchors[1]}")
    if not rank_is(deltas, 3):
        raise ShapeError(f"The 'input_deltas' input is expected to be a 3D. Got: {format_shape(deltas)}")
    if not rank_is(scores, 3):
        raise ShapeError(f"The 'input_scores' input is expected to be a 3D. Got: {format_shape(scores)}")
    if deltas is not None and scores is not None:
        if not compatible(deltas[1], scores[1]):
            raise ShapeError(f"Heights for inputs 'input_deltas' and 'input_scores' should be equal. Got: "
                             f"{deltas[1]}{scores[1]}")
        if not compatible(deltas[2], scores[2]):
            raise ShapeError(f"Width for inputs 'input_deltas' and 'input_scores' should be equal. Got: "
                             f"{deltas[2]}{scores[2]}")
    count = Dim.of(node.int("post_nms_count"))
    return [[count, Dim.of(4)], [count]]


@shape_infer("ExperimentalDetectronPriorGridGenerator")
def _ed_prior_grid(node: Node) -> list[Shape]:
    """``[H * W * priors, 4]`` with ``flatten``, ``[H, W, priors, 4]`` without."""
    priors, featmap, image = node.input(0), node.input(1), node.input(2)
    flatten = node.flag("flatten")
    if priors is not None:
        if len(priors) != 2:
            raise ShapeError("Priors rank must be equal to 2.")
        if not priors[1].contains(4):
            raise ShapeError(f"The last dimension of the 'priors' input must be equal to 4. Got: {priors[1]}")
    if featmap is not None and len(featmap) != 4:
        raise ShapeError("Feature_map rank must be equal to 4.")
    if image is not None:
        if len(image) != 4:
            raise ShapeError("Im_data rank must be equal to 4.")
        if featmap is not None and not compatible(featmap[0], image[0]):
            raise ShapeError(f"The first dimension of both 'feature_map' and 'im_data' must match. Feature_map: "
                             f"{featmap[0]}; Im_data: {image[0]}")
    if flatten:
        count = featmap[2] * featmap[3] * priors[0] if priors is not None and featmap is not None else _DYN
        return [[count, Dim.of(4)]]
    height, width = (featmap[2], featmap[3]) if featmap is not None else (_DYN, _DYN)
    return [[height, width, priors[0] if priors is not None else _DYN, Dim.of(4)]]


@shape_infer("ExperimentalDetectronROIFeatureExtractor")
def _ed_roi_feature(node: Node) -> list[Shape]:
    """``[rois, channels, output_size, output_size]`` features and the ``[rois, 4]`` rois; the channels
    merged over the pyramid levels."""
    rois = node.input(0)
    if not rank_is(rois, 2):
        raise ShapeError("Input rois rank must be equal to 2.")
    count = _DYN
    if rois is not None:
        count = rois[0]
        if merge(Dim.of(4), rois[1]) is None:
            raise ShapeError(f"The last dimension of the 'input_rois' input must be equal to 4. Got: {rois[1]}")
    channels: Dim | None = None
    for level in node.inputs[1:]:
        if not rank_is(level, 4):
            raise ShapeError(f"Rank of each element of the pyramid must be equal to 4. Got: {len(level)}")
        if level is not None:
            if not level[0].contains(1):
                raise ShapeError(f"The first dimension of each pyramid element must be equal to 1. Got: "
                                 f"{level[0]}")
            channels = level[1] if channels is None else merge(channels, level[1])
            if channels is None:
                raise ShapeError("The number of channels must be the same for all layers of the pyramid.")
    size = Dim.of(node.int("output_size"))
    return [[count, channels if channels is not None else _DYN, size, size], [count, Dim.of(4)]]


@shape_infer("ExperimentalDetectronTopKROIs")
def _ed_topk_rois(node: Node) -> list[Shape]:
    """``[max_rois, 4]``."""
    rois, probs = node.input(0), node.input(1)
    if rois is not None:
        if len(rois) != 2:
            raise ShapeError(f"The 'input_rois' input is expected to be a 2D. Got: {len(rois)}")
        if not rois[1].contains(4):
            raise ShapeError(f"The second dimension of 'input_rois' should be 4. Got: {rois[1]}")
    if not rank_is(probs, 1):
        raise ShapeError(f"The 'rois_probs' input is expected to be a 1D. Got: {format_shape(probs)}")
    if rois is not None and probs is not None and not compatible(rois[0], probs[0]):
        raise ShapeError(f"Number of rois and number of probabilities should be equal. Got: {rois[0]} "
                         f"{probs[0]}")
    return [[node.size_dim("max_rois"), Dim.of(4)]]


# -- CTC -----------------------------------------------------------------------------------------------
def _logits_dims(logits: Shape) -> tuple[Dim, Dim]:
    """The first two dims of the logits of a greedy CTC decoder, which must have rank 3 (``?`` for a dynamic
    rank)."""
    if logits is None:
        return _DYN, _DYN
    if len(logits) != 3:
        raise ShapeError("The rank of logits tensor must be equal to 3.")
    return logits[0], logits[1]


@shape_infer("CTCGreedyDecoder")
def _ctc_greedy_decoder(node: Node) -> list[Shape]:
    """CTCGreedyDecoder-0: ``[batch, time, 1, 1]`` from ``[time, batch, classes]`` logits and a
    ``[time, batch]`` mask."""
    mask = node.input(1)
    time, batch = _logits_dims(node.input(0))
    if mask is not None:
        if len(mask) != 2:
            raise ShapeError("The rank of sequence mask tensor must be equal to 2.")
        time = merge_checked(time, mask[0], "The first dimensions of input tensors must match.")
        batch = merge_checked(batch, mask[1], "The second dimensions of input tensors must match.")
    return [[batch, time, Dim.of(1), Dim.of(1)]]


@shape_infer("CTCGreedyDecoderSeqLen")
def _ctc_greedy_decoder_seq_len(node: Node) -> list[Shape]:
    """CTCGreedyDecoderSeqLen-6: ``[batch, time]`` and ``[batch]`` from ``[batch, time, classes]`` logits."""
    logits, lengths = node.input(0), node.input(1)
    blank = node.input(2) if node.has_input(2) else None
    if blank is not None and all(d.is_static for d in blank) and \
            not (len(blank) == 0 or (len(blank) == 1 and blank[0].lo == 1)):
        raise ShapeError(f"Expected 0D or 1D tensor for the 'blank_index' input. Got: {format_shape(blank)}")
    batch, time = _logits_dims(logits)
    if lengths is not None:
        if len(lengths) != 1:
            raise ShapeError("The rank of sequence len tensor must be equal to 1.")
        batch = merge_checked(batch, lengths[0], "The first dimensions of input tensors must match.")
    return [[batch, time], [batch]]


@type_infer("CTCGreedyDecoderSeqLen")
def _ctc_seq_len_types(node: Node) -> list[str | None]:
    check_integral(node, 2, "The blank index type is expected to be an integer type. Got: {}")
    return [attr_type(node, "classes_index_type", "i32"), attr_type(node, "sequence_length_type", "i32")]


type_infer("CTCLoss")(data_type_with(
    (0, REAL, "The data type for logits is expected to be a floating point type. Got: {}", STRICT),
    *((i, INTEGRAL, f"The {name} type is expected to be an integer type. Got: {{}}")
      for i, name in enumerate(("logit length", "labels", "label length", "blank index"), 1))))


@shape_infer("CTCLoss")
def _ctc_loss(node: Node) -> list[Shape]:
    """CTCLoss-4: ``[batch]``, the batch merged over the logits, the lengths and the labels."""
    logits, logit_length, labels, label_length = (node.input(i) for i in range(4))
    names = ("logits", "logit length", "labels", "label length")
    for shape, rank, name in zip((logits, logit_length, labels, label_length), (3, 1, 2, 1), names):
        if not rank_is(shape, rank):
            raise ShapeError(f"Expected a {rank}D tensor for {name}. Got: {format_shape(shape)}")
    if node.has_input(4) and not rank_is(node.input(4), 0):
        raise ShapeError(f"Expected a scalar for blank index. Got: {format_shape(node.input(4))}")
    batch, time = (logits[0], logits[1]) if logits is not None else (_DYN, _DYN)
    for shape, what in ((logit_length, "logit length"), (labels, "labels"), (label_length, "label length")):
        if shape is None:
            continue
        batch = merge_checked(batch, shape[0], f"The first dimension of {what} must be equal to the first dimension "
                              f"of the logits. Got: {shape[0]} and: {batch}")
        if shape is labels and not compatible(labels[1], time):
            raise ShapeError(f"The second dimension of labels must be equal to the second dimension of logits. "
                             f"Got: {labels[1]} and: {time}")
    return [[batch]]


# -- recurrent cells and sequences ---------------------------------------------------------------------
def _check_ranks(inputs: Sequence[Shape], ranks: Sequence[int]) -> None:
    """``rnn::validate_inputs_rank``."""
    if len(inputs) < len(ranks):
        raise ShapeError("Incorrect number of shapes has been provided.")
    for i, rank in enumerate(ranks):
        if not rank_is(inputs[i], rank):
            raise ShapeError(f"Shape rank of input at {i} is incompatible. Expected rank: {rank}, actual shape: "
                             f"{format_shape(inputs[i])}.")


def _merge_into(dim: Dim, other: Dim, what: str) -> Dim:
    return merge_checked(dim, other, f"Dimension `{what}` is not matched between inputs.")


def _hidden_size(shapes: Sequence[Shape], axis: int) -> Dim:
    """The hidden size the states and R give: dim ``axis`` of the first state (``?`` for a dynamic rank)
    merged with that of each later one of known rank."""
    first, *rest = shapes
    hidden = first[axis] if first is not None else _DYN
    for shape in rest:
        if shape is not None:
            hidden = _merge_into(hidden, shape[axis], "hidden_size")
    return hidden


def _check_weights(hidden: Dim, wrb: Sequence[Shape], axis: int, labels: Sequence[str], gates: int,
                   linear_before_reset: bool) -> Dim:
    """``rnn::validate_*``: with a static hidden size, dim ``axis`` of W and R compatible with ``gates`` times
    it and B's with one gate more under ``linear_before_reset``; else the hidden size merged with W's and
    R's dim ``axis`` over the gates, where their dim 0 is static (a sequence's check tests dim 0 and divides
    dim 1, as OpenVINO does). The hidden size."""
    if hidden.is_static:
        bias_gates = gates + 1 if linear_before_reset else gates
        for shape, label, n in zip(wrb, labels, (gates, gates, bias_gates)):
            expected = hidden * Dim.of(n)
            if shape is not None and not compatible(shape[axis], expected):
                raise ShapeError(f"{label} input shape is required to be compatible with {expected}. Got shape: "
                                 f"{shape[axis]}.")
        return hidden
    for weights in wrb[:2]:
        if weights is not None and weights[0].is_static:
            hidden = _merge_into(hidden, div(weights[axis], gates), "hidden_size")
    return hidden


def _cell(inputs: Sequence[Shape], gates: int, states: int,
          linear_before_reset: bool = False) -> list[list[Dim]]:
    """``rnn::cell_base_shape_infer``: ``[batch, hidden_size]`` for each state, the batch merged over X
    and the states, the hidden size over the states and R (else deduced from W and R)."""
    _check_ranks(inputs, [2] * (1 + states) + [2, 2, 1])
    x, w, r, b = inputs[0], inputs[1 + states], inputs[2 + states], inputs[3 + states]
    batch = x[0] if x is not None else _DYN
    for state in inputs[1:states + 1]:
        batch = _merge_into(batch, state[0] if state is not None else _DYN, "batch_size")
    hidden = _hidden_size(list(inputs[1:states + 1]) + [r], 1)
    hidden = _check_weights(hidden, (w, r, b), 0, ("First dimension of W", "Fisrt dimension of R",
                                                   "First dimension of B"), gates, linear_before_reset)
    return [[batch, hidden] for _ in range(states)]


def _hidden_from_attribute(node: Node, shapes: list[list[Dim]]) -> list[list[Dim]]:
    """LSTMCell: a hidden size the inputs leave dynamic comes from the ``hidden_size`` attribute (0 where
    the IR has none)."""
    if shapes[0][1].is_dynamic:
        hidden = node.size_dim("hidden_size")
        return [[batch, hidden] for batch, _ in shapes]
    return shapes


@shape_infer("LSTMCell", versions=(0,))
def _lstm_cell_v0(node: Node) -> list[list[Dim]]:
    """LSTMCell-0: the missing B and P inputs default to ``[4 * hidden_size]`` and ``[3 * hidden_size]``;
    P must hold ``3 * hidden_size``."""
    inputs = list(node.inputs)
    if len(inputs) in (5, 6):
        hidden_size = node.int("hidden_size")
        for times in (3, 4)[:7 - len(inputs)]:  # Constants of [3 * hidden_size] (P) and [4 * hidden_size] (B)
            count = times * hidden_size % (1 << 64)  # size_t
            if count >= 1 << 50:  # its bytes past any memory (a size_t written negative)
                et = node.types[0] if node.types and node.types[0] else "f32"
                raise ShapeError(f"Cannot allocate memory for type: {et} and shape: [{count}]")
            if count >= 1 << 31:
                raise Undecided(f"a default B or P of {count} elements")
        inputs += [[Dim.of(4 * hidden_size)], [Dim.of(3 * hidden_size)]][len(inputs) - 5:]
    if len(inputs) != 7:
        raise ShapeError(f"LSTMCell-0 with {len(inputs)} inputs")
    shapes = _hidden_from_attribute(node, _cell(inputs, 4, 2))
    hidden, peepholes = shapes[0][1], inputs[6]
    if not peepholes:  # a scalar P, or one of dynamic rank
        raise ShapeError("Accessing out-of-range dimension")
    if peepholes[0].is_static and hidden.is_static and not compatible(peepholes[0], hidden * Dim.of(3)):
        raise ShapeError(f"Parameter hidden_size mismatched in P input. Current value is: {peepholes[0].lo}, "
                         f"expected: {hidden.lo * 3}.")
    return shapes


@shape_infer("LSTMCell")
def _lstm_cell_v4(node: Node) -> list[list[Dim]]:
    """LSTMCell-4: X, H, C, W, R and B."""
    return _hidden_from_attribute(node, _cell(node.inputs, 4, 2))


@type_infer("LSTMCell", versions=(0,))
def _lstm_cell_0_types(node: Node) -> list[str | None]:
    x = in_type(node, 0)
    if x in (E.DYNAMIC, "string"):  # the peepholes' default, a Constant of X's type, cannot be made
        raise ShapeError("Element not supported" if x == E.DYNAMIC else "Unknown type")
    return merged_types(node, (0, 1, 2, 3, 4, 5), "Element types for X, initial_hidden_state, initial_cell_state, W, "
                                                  "R and B do not match.", 2)


type_infer("LSTMCell", versions=(4,))(merge_rule(
    (0, 1, 2, 3, 4, 5), "Element types for X, initial_hidden_state, initial_cell_state, W, R and B do not match.", 2))


@shape_infer("GRUCell")
def _gru_cell(node: Node) -> list[list[Dim]]:
    """GRUCell-3: three gates, four bias blocks with ``linear_before_reset``."""
    return _cell(node.inputs, 3, 1, node.flag("linear_before_reset"))


_CELL = "Element types for X, initial_hidden_state, W, R and B inputs do not match."
type_infer("GRUCell")(merge_rule((0, 1, 3, 4), _CELL))  # OpenVINO's GRUCell leaves W out of the merge


@shape_infer("RNNCell")
def _rnn_cell(node: Node) -> list[list[Dim]]:
    """RNNCell-0: one gate."""
    return _cell(node.inputs, 1, 1)


type_infer("RNNCell")(merge_rule((0, 1, 2, 3, 4), _CELL))


_DIRECTIONS = {"forward": 1, "reverse": 1, "bidirectional": 2}


def _sequence(node: Node, gates: int, states: int, linear_before_reset: bool = False) -> list[Shape]:
    """``rnn::seq_base_shape_infer``: Y ``[batch, directions, seq_length, hidden_size]`` and each state
    ``[batch, directions, hidden_size]``; the number of directions from ``direction`` (forward where the
    IR has none), merged over the states, W, R and B."""
    count = 5 + states
    _check_ranks(node.inputs, [3] * (1 + states) + [1, 3, 3, 2])
    x, w, r, b = node.input(0), node.input(2 + states), node.input(3 + states), node.input(4 + states)
    batch = x[0] if x is not None else _DYN
    seq_length = x[1] if x is not None else _DYN
    for i in range(1, states + 2):  # the states and the sequence lengths
        shape = node.input(i)
        if shape is not None:
            batch = _merge_into(batch, shape[0], "batch_size")
    hidden = _hidden_size([node.input(i) for i in range(1, states + 1)] + [r], 2)
    direction = node.lower("direction")
    if direction not in _DIRECTIONS:
        raise ShapeError("Attribute direction must be FORWARD or REVERSE or BIDIRECTIONAL.")
    directions, valid = Dim.of(_DIRECTIONS[direction]), True
    for i in list(range(1, states + 1)) + list(range(2 + states, count)):
        shape = node.input(i)
        merged = merge(directions, (shape[1] if i <= states else shape[0]) if shape is not None else _DYN)
        valid = valid and merged is not None
        directions = merged or directions
    if not valid:
        raise ShapeError("Dimension `num_directions` doesn't match to other inputs or `direction` attribute.")
    hidden = _check_weights(hidden, (w, r, b), 1, tuple(f"Second dimension of {what}" for what in "WRB"), gates,
                            linear_before_reset)
    return [[batch, directions, seq_length, hidden]] + [[batch, directions, hidden] for _ in range(states)]


@shape_infer("LSTMSequence")
def _lstm_sequence(node: Node) -> list[Shape]:
    """LSTMSequence-5: four gates, the hidden and the cell state."""
    return _sequence(node, 4, 2)


type_infer("LSTMSequence", versions=(5,))(merge_rule(
    (0, 1, 2, 4, 5, 6), "Element types for X, initial_hidden_state, initial_cell_state, W, R and B inputs do not "
                        "match.", 3))


@shape_infer("GRUSequence")
def _gru_sequence(node: Node) -> list[Shape]:
    """GRUSequence-5: exactly six inputs, three gates."""
    return _sequence(node, 3, 1, node.flag("linear_before_reset"))


@shape_infer("RNNSequence")
def _rnn_sequence(node: Node) -> list[Shape]:
    """RNNSequence-5: one gate."""
    return _sequence(node, 1, 1)


type_infer("GRUSequence", "RNNSequence")(merge_rule((0, 1, 3, 4, 5), _CELL, 2))  # sequence_lengths: any type


# -- ScaledDotProductAttention -------------------------------------------------------------------------
def _attention_input(n_dims: Shape, dim: Dim, shape: list[Dim], index: int, what: str) -> tuple[Shape, Dim]:
    """The key or the value of ScaledDotProductAttention: a rank of 3 at least, its batch dims broadcast into
    ``n_dims`` (``broadcast_merge_into``) and its dim at ``index`` merged with ``dim``; (the batch dims, the
    merged dim), or ShapeError where any of it fails."""
    merged = None
    if len(shape) >= 3:
        ok, n_dims = broadcast_merge_into(n_dims, shape[:-2])
        merged = merge(dim, shape[index]) if ok else None
    if merged is None:
        raise ShapeError(f"{what} input shape not compatible with other inputs.")
    return n_dims, merged


@shape_infer("ScaledDotProductAttention")
def _sdpa(node: Node) -> list[Shape]:
    """ScaledDotProductAttention-13: ``[batch..., L, Ev]``, the batch dims broadcast over Q, K, V (and the
    mask, unless ``causal``); E merged over Q and K, S over K and V, then both L and S broadcast with the
    mask's last two dims. Any count of inputs from 3 on is read (measured on 2026.4.1): the scale (input 4) is
    checked only with exactly 5 inputs, the attention sink (input 5, gpt-oss) only with exactly 6, against the
    query's own dims (:func:`_sink`); neither changes the output."""
    count = len(node.inputs)
    query, key, value = node.input(0), node.input(1), node.input(2)
    n_dims: Shape = None
    e_dim = l_dim = s_dim = ev_dim = _DYN
    if query is not None:
        if len(query) < 3:
            raise ShapeError("Query input rank length must be at least 3 or more.")
        n_dims, l_dim, e_dim = list(query[:-2]), query[-2], query[-1]
    if key is not None:
        n_dims, e_dim = _attention_input(n_dims, e_dim, key, -1, "Key")
        s_dim = key[-2]
    if value is not None:
        n_dims, s_dim = _attention_input(n_dims, s_dim, value, -2, "Value")
        ev_dim = value[-1]
    mask = node.input(3) if count >= 4 else None
    if count >= 4 and not node.flag("causal") and mask:
        ok = len(mask) >= 2
        if ok:
            merged_l, merged_s = broadcast_merge(l_dim, mask[-2]), broadcast_merge(s_dim, mask[-1])
            ok = merged_l is not None and merged_s is not None
            l_dim, s_dim = merged_l or l_dim, merged_s or s_dim
        if ok and len(mask) >= 3:
            ok, n_dims = broadcast_merge_into(n_dims, mask[:-2])
        if not ok:
            raise ShapeError("Attention mask input shape not compatible with other inputs.")
    scale = node.input(4) if count == 5 else None
    if scale is not None and not one_element(scale):
        raise ShapeError("Scale input must be scalar or have 1 element.")
    if count == 6:
        _sink(query, node.input(5))
    return [None if n_dims is None else n_dims + [l_dim, ev_dim]]


@type_infer("ScaledDotProductAttention")
def _sdpa_types(node: Node) -> list[str | None]:
    """v13: the mask (input 3, unless causal) floating-point or boolean; every other input merges with the query."""
    causal = node.flag("causal")
    mask = in_type(node, 3)
    if len(node.types) > 3 and not causal and mask is not None and not (
            mask in (E.BOOLEAN, E.DYNAMIC) or E.is_real(mask)):
        raise ShapeError("The element type of attention_mask must be either floating-point or boolean.")
    out: str | None | bool = in_type(node, 0)
    for i in range(1, len(node.types)):
        t = in_type(node, i)
        if i == 3 and (t == E.BOOLEAN or causal):
            continue
        if out is not None and t is not None:
            out = E.merge(out, t)
            if out is False:
                raise ShapeError("Mixed input types are not supported.")
        elif t is None:
            out = None
    if out is not None and out != E.DYNAMIC and not E.is_real(out):  # type: ignore[arg-type]
        raise ShapeError("The element type of the input tensor must be a floating-point.")
    return [out]  # type: ignore[list-item]


def _sink(query: Shape, sink: Shape) -> None:
    """The attention sink of a 6-input ScaledDotProductAttention (measured on 2026.4.1): the query's rank, each
    dim but the last broadcasting with the query's own (not the merged batch dims, not the mask's L), the last
    one 1 (or a dim that may be 1)."""
    if query is None or sink is None:
        return
    if len(sink) != len(query):
        raise ShapeError(f"Sink input rank must be equal to the query rank {len(query)}, got {len(sink)}.")
    ok = sink[-1].contains(1) and all(broadcast_merge(q, s) is not None for q, s in zip(query[:-1], sink[:-1]))
    if not ok:
        raise ShapeError(f"Sink input shape {format_shape(sink)} not compatible with the query {format_shape(query)}.")


# -- PagedAttentionExtension ---------------------------------------------------------------------------
def _static(shape: Shape, *index: int) -> bool:
    return shape is not None and len(shape) > max(index) and all(shape[i].is_static for i in index)


@shape_infer("PagedAttentionExtension", versions=("extension",))
def _paged_attention(node: Node) -> list[Shape]:
    """PagedAttentionExtension (openvino 2026.4.1, 28 inputs): the attention ``[tokens, num_heads * v_head_size]``
    (the query's feature dim times the value's over the key's), the scores ``[tokens + sum(past_lens)]`` where
    the key's token count and ``past_lens`` (input 5) are known, and the Adaptive-RKV diversity scores ``[?]``
    unless ``evictable_sizes`` (input 22) is known and non-empty."""
    if len(node.inputs) != 28:
        raise ShapeError(f"Expected 28 inputs but got {len(node.inputs)}")
    out, key, value = node.input(0), node.input(1), node.input(2)
    if out is not None and len(out) >= 2 and out[1].is_static:
        out = list(out)
        if _static(key, 1) and _static(value, 1):
            q, k, v = out[1].lo, key[1].lo, value[1].lo
            if k == 0 or q * v % k:
                raise ShapeError("Output feature dimension (q * v) must be divisible by the key feature dimension "
                                 f"(k); got q={q}, v={v}, k={k}")
            if q * v // k == 0:
                raise ShapeError("The last dimension of output should not be empty.")
            out[1] = Dim.of(q * v // k)
        else:
            out[1] = _DYN
    scores = _DYN
    if node.input(5) is not None and _static(key, 0):
        past = node.const(5)
        if past is not None:
            total = key[0].lo + sum(past)
            scores = Dim.of(total)
    cache, evictable = node.input(3), node.input(22)
    if _static(cache, 2) and evictable is not None and len(evictable) == 1 and node.const(22):
        raise Undecided("the diversity scores' size depends on the key cache's element type")
    return [out, [scores], [_DYN]]


# -- random ops ----------------------------------------------------------------------------------------
@shape_infer("Multinomial")
def _multinomial(node: Node) -> list[Shape]:
    """Multinomial-13: ``[batch, num_samples]`` from ``[batch, classes]`` probabilities."""
    probs, samples = node.input(0), node.input(1)
    if not rank_is(probs, 2):
        raise ShapeError("Input probabilities must be a 2D tensor.")
    if not one_element(samples):
        raise ShapeError("Number of samples must be a scalar or one element 1D tensor.")
    if probs is None:
        return [None]
    count = node.as_shape(1)
    return [[probs[0], count[0] if count is not None else _DYN]]


@type_infer("Multinomial")
def _multinomial_types(node: Node) -> list[str | None]:
    check_types(node, (0, REAL, "Expected floating point type as element type for the 'probs' input."),
                (1, INTEGRAL, "Expected integer type as element type for the 'num_samples' input."))
    return [attr_type(node, "convert_type", E.DYNAMIC)]


@shape_infer("RandomUniform")
def _random_uniform(node: Node) -> list[Shape]:
    """RandomUniform-8: the shape from the values of its first input; with an unknown value, as many
    dynamic dims as that input's length can reach."""
    shape, low, high = node.input(0), node.input(1), node.input(2)
    if not rank_is(shape, 1):
        raise ShapeError("The rank of the tensor defining output shape must be equal to 1.")
    if not one_element(low):
        raise ShapeError("Min value must be a scalar or one element 1D tensor.")
    if not one_element(high):
        raise ShapeError("Max value must be a scalar or one element 1D tensor.")
    low_value, high_value = node.const_floats(1), node.const_floats(2)
    if low_value and high_value and not low_value[0] < high_value[0]:
        raise ShapeError(f"Min value must be less than max value. Got min value: {low_value[0]}, max value: "
                         f"{high_value[0]}")
    out = node.as_shape(0)
    if out is not None:
        return [out]
    rank = length(shape[0].hi) if shape is not None else -1
    return [None if rank == -1 else [_DYN] * rank]


@type_infer("RandomUniform")
def _random_uniform_types(node: Node) -> list[str | None]:
    """``RandomUniform::validate_and_infer_types``: min and max of ``output_type`` (dynamic where the IR has
    none, which refuses every known type)."""
    check_types(node, (0, IS_INDEX, "Type of the input should be int32 or int64."))
    t = attr_type(node, "output_type", E.DYNAMIC)
    lo, hi = in_type(node, 1), in_type(node, 2)
    if lo is not None and hi is not None:
        if lo != hi:
            raise ShapeError("'min_val' should have the same type as 'max_val'.")
        if lo != t:
            raise ShapeError("'min_val' and 'max_val' should have the same type as 'out_type' attribute.")
    return [t]
