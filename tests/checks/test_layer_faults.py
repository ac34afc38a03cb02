"""Single faults in the declared output dims of non-Reshape layers of exported models: an error on that layer
and on no other, with and without the consumers' input ports changed to match the lie."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from irreshape.checks import check_file
from irreshape.checks.graph import Graph
from irreshape.core.results import Options
from irreshape.frontends.openvino import parse
from irtools.corrupt import corrupt_with_consumers

ROOT = Path(__file__).resolve().parents[2]
MODELS = sorted((ROOT / "tests" / "data" / "models").glob("*.xml"))
TYPES = {"Convolution", "GroupConvolution", "MatMul", "Add", "Multiply", "Concat", "Transpose", "MaxPool", "AvgPool",
         "Split", "VariadicSplit", "Interpolate", "Gather", "SoftMax", "Softmax", "Unsqueeze", "Squeeze", "Slice",
         "Broadcast", "ShapeOf", "Select", "MVN", "Convert", "Divide", "Subtract", "Power"}


def _faults():
    rng = random.Random(15)
    out = []
    for xml in MODELS:
        model = parse(str(xml))
        graph = Graph(model)
        by_type: dict[str, list] = {}
        for layer in model.layers.values():
            port = layer.outputs[0] if layer.outputs else None
            # a layer irreshape cannot infer (undecided) keeps its declared dims: a lie there is not seen
            if layer.type in TYPES and port is not None and port.dims and any(d > 0 for d in port.dims) \
                    and graph.shape(port) is not None and graph.origin(port) == "inferred":
                by_type.setdefault(layer.type, []).append(layer)
        for layers in by_type.values():
            layer = rng.choice(layers)
            port = layer.outputs[0]
            i = next(k for k, d in enumerate(port.dims) if d > 0)
            consumers = [(c.id, p.id, list(p.dims)) for c, p in model.consumers(layer.id, port.id) if p.dims]
            out.append((xml, layer.id, layer.type, port.id, i, port.dims[i] + 1, consumers))
        graph.weights.close()
    rng.shuffle(out)
    return out[:40]


FAULTS = _faults()


@pytest.mark.parametrize("with_consumers", [False, True])
def test_a_lie_in_any_layer_is_an_error_on_that_layer_alone(tmp_path, with_consumers):
    assert len(FAULTS) >= 30 and len({f[2] for f in FAULTS}) >= 10
    bad = []
    for xml, lid, typ, port_id, i, value, consumers in FAULTS:
        data = corrupt_with_consumers(xml.read_bytes(), lid, i, value, port_id, consumers if with_consumers else [])
        path = tmp_path / xml.name
        path.write_bytes(data)
        shutil.copy(xml.with_suffix(".bin"), path.with_suffix(".bin"))
        result = check_file(str(path), Options(layers="all"))
        blamed = {f.layer.id for f in result.findings if f.severity == "error" and f.layer is not None}
        if blamed != {lid}:
            bad.append(f"{xml.name} {typ} id {lid} dim {i} -> {value}: errors on {sorted(blamed)} "
                       f"{[(f.code, f.message[:120]) for f in result.findings if f.severity == 'error'][:3]}")
    assert not bad, "\n".join(bad)
