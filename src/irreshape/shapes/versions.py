"""Op versions as OpenVINO's IR reader resolves them: a layer's ``type`` and ``version`` (its opset) to the op
version that opset holds (``MaxPool`` in ``opset16`` is MaxPool-14), or the reader's refusal.

From ``xml_deserialize_util.cpp`` (openvino 2026.4.1): the type names ``Const``, ``PReLU``, ``ReLU`` and
``SoftMax`` are translated (to ``Constant``, ``PRelu``, ``Relu``, ``Softmax``) and then looked up in the opset
case-insensitively; ``MVN``, ``ROIPooling`` and ``ReorgYolo`` named in ``opset1`` are read from ``opset2``; the
experimental ops that joined opset6 are read from it when named ``experimental`` or ``extension``. A version
that names no opset (an extension's, ``ie_internal_opset``, a custom one; ``opset01``, ``Opset1`` and ``opset99``
name none either) is not an opset's: OpenVINO reads it only through an extension registered for it, so irreshape
does not judge it, but for an op type of OpenVINO's own opsets, which no extension registers (openvino_tokenizers'
StringTensorPack and StringTensorUnpack in ``extension`` aside): that is refused as ``read_model`` refuses it
(``Cannot create Relu layer ... from unsupported opset: v1``).
"""

from __future__ import annotations

import re

from .opsets import OPSETS

_TRANSLATE = {"Const": "Constant", "PReLU": "PRelu", "ReLU": "Relu", "SoftMax": "Softmax"}
_FROM_OPSET2 = ("MVN", "ROIPooling", "ReorgYolo")
_JOINED_OPSET6 = ("ExperimentalDetectronDetectionOutput", "ExperimentalDetectronGenerateProposalsSingleImage",
                  "ExperimentalDetectronPriorGridGenerator", "ExperimentalDetectronROIFeatureExtractor",
                  "ExperimentalDetectronTopKROIs", "GRUCell", "RNNCell", "Proposal")
_OPSET = re.compile(r"opset([0-9]+)")
# opset number -> {type lower-cased: (type as OpenVINO names it, op version)}, made for an opset when first asked
_LOWER: dict[int, dict[str, tuple[str, int]]] = {}
_BUILT_IN = frozenset(t.lower() for table in OPSETS.values() for t in table)


def _lower(n: int) -> "dict[str, tuple[str, int]] | None":
    table = _LOWER.get(n)
    if table is None and n in OPSETS:
        table = _LOWER[n] = {t.lower(): (t, v) for t, v in OPSETS[n].items()}
    return table
# the op types of OpenVINO's opsets that an extension read_model is judged with registers under its own version
_EXTENDED = {"extension": frozenset({"stringtensorpack", "stringtensorunpack"})}  # openvino_tokenizers


def opset_number(version: str | None) -> int | None:
    """``"opset8"`` → 8; None for a version that is not an opset name (``opset01`` is none)."""
    m = _OPSET.fullmatch(version or "")
    return int(m.group(1)) if m and not m.group(1).startswith("0") else None


def translated(type: str) -> str:
    """A layer's type as the IR reader names it before it looks it up (``ReLU`` → ``Relu``; ``squeeze`` stays)."""
    return _TRANSLATE.get(type, type)


def resolve(type: str, version: str) -> "tuple[str, int] | str | None":
    """(type as OpenVINO names it, op version) for a layer's ``type`` and ``version``; OpenVINO's refusal (a
    message) where its IR reader knows the opset and not the type in it, or knows no such opset; None for a
    version that is no opset's (an extension's: not judged)."""
    name = translated(type)
    n = opset_number(version)
    if n is None:
        if name in _JOINED_OPSET6 and version in ("experimental", "extension"):
            n = 6
        elif name.lower() in _BUILT_IN and name.lower() not in _EXTENDED.get(version, ()):
            return f"Cannot create {type} layer from unsupported opset: {version}"
        else:
            return None
    if n == 1 and name in _FROM_OPSET2:
        n = 2
    table = _lower(n)
    if table is None:
        return f"Cannot create {type} layer from unsupported opset: {version}"
    found = table.get(name.lower())
    if found is None:
        return f"Opset {version} doesn't contain the operation with type: {name}"
    return found
