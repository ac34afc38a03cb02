"""Issue 37: every output port of IR from OpenVINO's other frontends, and of small cases of the kinds irreshape left
unverified, is the partial shape ``read_model`` infers.

* ``tests/data/frontends`` (written by ``scripts/export_frontends.py``: Keras SavedModel, in-memory Keras, Keras 3's
  own OpenVINO export, TensorFlow frozen graphs, TFLite float/float16/dynamic-range/int8, tf2onnx, PaddlePaddle's
  legacy .pdmodel, JAX make_jaxpr, torch.export with dynamic dims, an openvino-tokenizers Unigram tokenizer),
  labelled there by ``read_model`` with openvino_tokenizers loaded (``labels.json``, bodies included): every port
  equal, none unverified, no error or warning, a lie planted in a declared dim found on its layer;
* :mod:`irtools.portcases` (Reshape with a run-time pattern in the main graph and in If/Loop bodies, float division
  by a range holding 0, SpaceToBatch/BatchToSpace, Slice with run-time bounds in and out of Loop/TensorIterator
  bodies, ConstantOfShape-like Broadcast targets, an If whose condition comes from data), built with the opset API,
  saved, and compared with ``read_model`` here, bodies included.
"""

from __future__ import annotations

import collections
import json
import random
import shutil
from pathlib import Path

import pytest
from irtools.agreement import every_port, figures
from irtools.corrupt import corrupt_declared_dim

from irreshape.checks import check_file
from irreshape.checks.graph import Graph
from irreshape.core.results import Options
from irreshape.frontends.openvino import parse

ov = pytest.importorskip("openvino")

DATA = Path(__file__).resolve().parents[1] / "data" / "frontends"
LABELS = json.loads((DATA / "labels.json").read_text())
PRODUCERS = ("keras_savedmodel", "keras_inmemory", "keras_openvino_export", "tf_frozen", "tflite_cnn_float.",
             "tflite_cnn_float16", "tflite_cnn_dynamic", "tflite_cnn_int8", "tf2onnx", "paddle", "jax", "torch_export",
             "unigram")


def test_every_producer_is_there():
    assert all(any(name.startswith(p) or p in name for name in LABELS) for p in PRODUCERS), sorted(LABELS)
    assert all((DATA / name).exists() for name in LABELS)


@pytest.mark.parametrize("name", sorted(LABELS), ids=lambda n: n[:-4])
def test_every_port_as_read_model_infers_it(name):
    rows = every_port(str(DATA / name), LABELS[name])
    equal, unverified, differing = figures(rows)
    wrong = [r for r in rows if not r.folded and not (r.inferred and r.equal)]
    assert (unverified, differing) == (0, 0), wrong[:10]
    assert equal == sum(not r.folded for r in rows) > 0


def test_the_fixtures_hold_the_ops_of_the_issue():
    types = {t for entry in LABELS.values() for t in entry["types"]}
    assert {"UnigramTokenizer", "CombineSegments", "Truncate", "RaggedToDense", "Loop", "If", "SpaceToBatch",
            "BatchToSpace", "Broadcast", "Slice"} <= types, sorted(types)
    assert any(entry["bodies"] for entry in LABELS.values())


# true warnings: torch.export unrolls the LSTM over the example's 7 steps, and convert_model declares the time axis
# dynamic; its Squeezes of each step hold only from there on (the CPU plugin fails below)
TRUE_WARNINGS = {"torch_export_lstm.xml": {"IR403", "IR503"}}


@pytest.mark.parametrize("name", sorted(LABELS), ids=lambda n: n[:-4])
def test_no_error_on_a_correct_file(name):
    findings = check_file(str(DATA / name), Options(layers="all")).findings
    assert [(f.code, f.message) for f in findings if f.severity == "error"] == []
    warned = {f.code for f in findings if f.severity == "warning"}
    assert warned == TRUE_WARNINGS.get(name, set()), [(f.code, f.message) for f in findings]


def _lies(rng: random.Random) -> list[tuple[str, str, str, int, int]]:
    """Per file, one layer of each op type with an inferred static dim (a seeded choice): (file, layer id, type,
    port id, dim index)."""
    out = []
    for name in sorted(LABELS):
        model = parse(str(DATA / name))
        graph = Graph(model)
        by_type = collections.defaultdict(list)
        for layer in model.layers.values():
            if layer.type in ("Const", "Parameter", "Result"):
                continue
            for port in layer.outputs:
                if graph.shape(port) is not None and graph.origin(port) == "inferred" and any(d > 0 for d in port.dims):
                    by_type[layer.type].append((layer.id, port))
        graph.weights.close()
        for typ, items in sorted(by_type.items()):
            lid, port = rng.choice(items)
            out.append((name, lid, typ, port.id, next(i for i, d in enumerate(port.dims) if d > 0)))
    return out


def test_a_lie_in_a_declared_dim_is_an_error_on_its_layer(tmp_path):
    rng = random.Random(37)
    lies = _lies(rng)
    assert len(lies) > 150 and {"Loop", "If", "SpaceToBatch", "Slice"} <= {t for _, _, t, _, _ in lies}
    missed = []
    for name, lid, typ, port_id, i in rng.sample(lies, 60) + [lie for lie in lies if lie[2] in ("Loop", "If")]:
        path = DATA / name
        layer = parse(str(path)).layers[lid]
        port = next(p for p in layer.outputs if p.id == port_id)
        target = tmp_path / name
        target.write_bytes(corrupt_declared_dim(path.read_bytes(), lid, i, port.dims[i] + 1, port_id))
        shutil.copy(path.with_suffix(".bin"), target.with_suffix(".bin"))
        findings = check_file(str(target), Options(layers="all")).findings
        blamed = {f.layer.id for f in findings if f.severity == "error" and f.layer is not None}
        if blamed != {lid}:
            missed.append((name, typ, lid, port_id, i, sorted(blamed)))
    assert not missed, missed


# -- generated cases against read_model --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [37, 2026])
def test_generated_cases_every_port_as_read_model_infers_it(tmp_path, seed):
    from irtools.portcases import cases
    core = ov.Core()
    kinds, totals, wrong = collections.Counter(), [0, 0, 0], []
    for name, build in cases(seed):
        try:
            model = build()
        except RuntimeError:  # OpenVINO refuses to build this variant (a negative bound): nothing to compare
            continue
        path = tmp_path / f"{name}.xml"
        ov.save_model(model, str(path), compress_to_fp16=False)
        rows = every_port(str(path), core=core)
        for k, v in enumerate(figures(rows)):
            totals[k] += v
        kinds[name.rsplit("_", 1)[0]] += 1
        wrong += [(name, r) for r in rows if not r.folded and not (r.inferred and r.equal)]
        assert not [f.code for f in check_file(str(path)).findings if f.severity == "error"], name
    assert not wrong, wrong[:10]
    assert totals[0] > 1000 and totals[1:] == [0, 0]
    assert {"float_division", "space_batch", "slice_runtime", "constant_of_shape", "slice_loop", "slice_ti",
            "if_from_data", "reshape_param_if", "reshape_param_loop"} <= set(kinds), kinds
