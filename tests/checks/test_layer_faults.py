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


FAMILY = ("reshape", "squeeze", "unsqueeze")


def _input_edits():
    """(model, layer id, input port, the rule that reports it) of an input port with static dims and a producer:
    one for each kind of consumer (a Result's among them), across tests/data/models and tests/data/today (IR306);
    the Reshape family's own data input, each kind (IR106); and a consumer of each of its kinds (IR107)."""
    seen = set()
    for path in MODELS + sorted((ROOT / "tests" / "data" / "today").glob("*.xml")):
        model = parse(str(path))
        model.link()
        for layer in model.layers.values():
            if not layer.inputs:
                continue
            port = layer.inputs[0]
            if port.source is None or not port.dims or any(d < 1 for d in port.dims) \
                    or len({p.line for p in layer.inputs}) != len(layer.inputs):
                continue
            producer = port.source.layer.kind
            what = ("IR106", layer.kind) if layer.kind in FAMILY else ("IR107", producer) if producer in FAMILY \
                else ("IR306", layer.kind)
            if what in seen or (what[0] == "IR306" and layer.kind != "result"
                                and len([w for w in seen if w[0] == "IR306"]) >= 8):
                continue
            seen.add(what)
            yield pytest.param(path, layer.id, port, what[0], id=f"{what[0]}-{layer.type}-{path.stem}")


@pytest.mark.parametrize("layers", ["reshape", "all"])
@pytest.mark.parametrize("path,lid,port,code", list(_input_edits()))
def test_an_input_port_that_lies_is_an_edge_error_that_fix_rewrites(tmp_path, path, lid, port, code, layers):
    """One input port's last dim changed, its producer left alone: one IR306 on the consumer (IR106 on a Reshape,
    IR107 on a consumer of one), whose verdict is ``mismatch`` (never ``ok``) wherever it is listed; --fix
    rewrites that dim back and nothing else."""
    dst = tmp_path / path.name
    lines = path.read_bytes().splitlines(keepends=True)
    n = port.dim_lines[-1]
    lines[n - 1] = lines[n - 1].replace(f">{port.dims[-1]}<".encode(), f">{port.dims[-1] + 3}<".encode(), 1)
    dst.write_bytes(b"".join(lines))
    shutil.copyfile(path.with_suffix(".bin"), dst.with_suffix(".bin"))
    before = {(f.code, f.layer.id if f.layer else None) for f in check_file(str(path)).findings}
    result = check_file(str(dst), Options(layers=layers))
    added = [(f.code, f.layer.id) for f in result.findings if (f.code, f.layer.id if f.layer else None) not in before]
    assert added == [(code, lid)]
    verdicts = [r for r in (*result.layers, *result.flagged) if r.layer.id == lid]
    assert verdicts and all(r.status.value == "mismatch" for r in verdicts)
    from irreshape.fixers import fix_file

    fixed = fix_file(result, write=True, skip=lambda i: False)
    assert [ref.id for ref in fixed.fixed] == [lid] and not fixed.refused and not fixed.error
    assert dst.read_bytes() == path.read_bytes()
