"""Squeeze and Unsqueeze are the Reshape family too: single faults in their declared dims, their rank and their
axes values in exported models are errors on that layer and on no other (the default mode)."""

from __future__ import annotations

import random
from pathlib import Path

from irreshape.checks import check_file
from irreshape.frontends.openvino import parse
from irtools.corrupt import corrupt_declared_dim, corrupt_rank, corrupt_shape_const, pattern_const_values

ROOT = Path(__file__).resolve().parents[2]
MODELS = sorted((ROOT / "tests" / "data" / "models").glob("*.xml"))


def _faults():
    rng = random.Random(16)
    for xml in MODELS:
        model = parse(str(xml))
        views = [la for la in model.layers.values() if la.kind in ("squeeze", "unsqueeze") and la.outputs
                 and la.outputs[0].dims]
        data, weights = xml.read_bytes(), xml.with_suffix(".bin").read_bytes()
        for layer in rng.sample(views, min(2, len(views))):
            dims = layer.outputs[0].dims
            i = next((k for k, d in enumerate(dims) if d > 0), 0)
            yield f"{xml.name} {layer.type} {layer.id}: dim {i}", layer.id, \
                corrupt_declared_dim(data, layer.id, i, dims[i] + 1 if dims[i] >= 0 else 3), weights
            yield f"{xml.name} {layer.type} {layer.id}: rank+1", layer.id, corrupt_rank(data, layer.id, "add"), weights
            try:
                axes = pattern_const_values(data, weights, layer.id)
            except (KeyError, ValueError):
                axes = None
            if axes:
                x2, b2 = corrupt_shape_const(data, weights, layer.id, [axes[0] + 1, *axes[1:]])
                yield f"{xml.name} {layer.type} {layer.id}: axes {axes} -> {[axes[0] + 1, *axes[1:]]}", layer.id, x2, b2


def test_single_faults_in_squeeze_and_unsqueeze(tmp_path):
    seen, wrong = 0, []
    for description, layer_id, xml, weights in _faults():
        path = tmp_path / "m.xml"
        path.write_bytes(xml)
        path.with_suffix(".bin").write_bytes(weights)
        result = check_file(str(path))
        errors = {f.layer.id for f in result.findings if f.severity == "error" and f.layer is not None}
        unproven = {f.layer.id for f in result.findings if f.code == "IR304" and f.layer is not None}
        seen += 1
        if errors != {layer_id} and not (not errors and unproven == {layer_id}):
            wrong.append(f"{description}: errors on {sorted(errors)} "
                         f"{[(f.code, f.message[:100]) for f in result.findings if f.severity == 'error'][:3]}")
    assert seen >= 30
    assert not wrong, "\n".join(wrong)
