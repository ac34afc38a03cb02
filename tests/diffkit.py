"""Helpers for the tests of ``irreshape diff``: a small classifier written with openvino's opset API in the variants a
model repository's pull requests bring (another input name or shape or type, another output, quantized weights,
another op version), re-saved by OpenVINO, renumbered."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset8 as o8
import openvino.opset14 as o14


def build(path: Path, *, name: str = "images", aliases: tuple[str, ...] = (), shape=(-1, 3, 32, 32),
          etype=np.float32, pool: int = 8, weights: str = "f32", second_output: bool = False, compress: bool = False,
          traced: bool = False) -> Path:
    """A small classifier: Conv, ReLU, MaxPool (version ``pool``), a Reshape flattening with special zeros (named
    ``flatten``), MatMul; input ``name`` (tensor names ``aliases`` too), output ``logits``. ``weights``: f32, int8 (i8 Consts dequantized by a
    Convert and a Multiply) or int4 (the MatMul's weights u4 in groups of 32, NNCF's pattern). ``traced``: the
    Reshape's pattern is ``[1,1024]``, as a trace at batch 1 writes it (it pins the batch)."""
    rng = np.random.default_rng(0)
    x = o8.parameter(list(shape), etype, name=name)
    x.output(0).set_names({name, *aliases})
    data = x if etype == np.float32 else o8.convert(x, ov.Type.f32)
    conv_w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    fc_w = rng.standard_normal((1024, 10)).astype(np.float32)
    if weights == "int8":
        conv = o8.multiply(o8.convert(o8.constant(np.clip(conv_w * 40, -127, 127).astype(np.int8)), ov.Type.f32),
                           o8.constant(np.full((4, 1, 1, 1), 1 / 40, np.float32)))
        fc = o8.multiply(o8.convert(o8.constant(np.clip(fc_w * 40, -127, 127).astype(np.int8)), ov.Type.f32),
                         o8.constant(np.float32(1 / 40)))
    else:
        conv, fc = o8.constant(conv_w, name="conv.weight"), o8.constant(fc_w, name="fc.weight")
    y = o8.relu(o8.convolution(data, conv, [1, 1], [1, 1], [1, 1], [1, 1]))
    y = (o8 if pool == 8 else o14).max_pool(y, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2]).output(0)
    flat = o8.reshape(y, o8.constant(np.array([1, 1024] if traced else [0, -1], np.int64)), not traced)
    flat.set_friendly_name("flatten")
    if weights == "int4":
        q = o14.constant(rng.integers(0, 16, (10, 32, 32)).astype(np.uint8), dtype=ov.Type.u4)
        deq = o14.multiply(o14.subtract(o14.convert(q, ov.Type.f32),
                                        o14.convert(o14.constant(np.uint8(8), dtype=ov.Type.u4), ov.Type.f32)),
                           o14.constant(np.full((10, 32, 1), 0.01, np.float32)))
        logits = o8.matmul(flat, o8.reshape(deq, o8.constant(np.array([10, 1024], np.int64)), False), False, True)
    else:
        logits = o8.matmul(flat, fc, False, False)
    logits.set_friendly_name("classifier")
    results = [o8.result(logits)]
    results[0].output(0).set_names({"logits"})
    if second_output:
        results.append(o8.result(flat))
        results[1].output(0).set_names({"features"})
    path.parent.mkdir(parents=True, exist_ok=True)
    ov.save_model(ov.Model(results, [x], "classifier"), str(path), compress_to_fp16=compress)
    return path


def renumbered(path: Path) -> None:
    """Another converter's numbering: every layer id and edge end of ``path`` moved (ids 100, 101, ... from the
    last layer to the first)."""
    from lxml import etree

    tree = etree.parse(str(path))
    layers = tree.getroot().find("layers")
    ids = {la.get("id"): str(100 + i) for i, la in enumerate(reversed(list(layers)))}
    for la in layers:
        la.set("id", ids[la.get("id")])
    for e in tree.getroot().find("edges"):
        e.set("from-layer", ids[e.get("from-layer")])
        e.set("to-layer", ids[e.get("to-layer")])
    tree.write(str(path))


def resave(src: Path, dest: Path, compress: bool = False) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    ov.save_model(ov.Core().read_model(str(src)), str(dest), compress_to_fp16=compress)
    return dest
