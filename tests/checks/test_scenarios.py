"""Issue 17: the model at other input shapes (`--input-shape`, named scenarios) and the pinned-dim warning.

Opset-built dynamic models × scenarios, against openvino's own ``Model.reshape`` plus the spec's volume
rule: irreshape's verdict (holds, or an error on which layer) and the expected dims of every Reshape-family
layer equal OpenVINO's. Without a scenario, IR503 fires on the models that hold at one value (or the
multiples of one) of a dynamic dim, and on none that reshape fine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from lintkit import irreshape

from irreshape.checks.openvino import check_path
from irreshape.core.dims import format_shape
from irreshape.core.results import Options, Scenario

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")


def _c(values, dtype=np.int64):
    return ops.constant(np.array(values, dtype=dtype))


def _p(name, dims):
    return ops.parameter(ov.PartialShape(dims), np.float32, name=name)


def yolo_head():  # a DFL head traced at batch 1: holds at batch 1 only
    x = _p("x", [-1, 64, 84])
    return [ops.relu(ops.reshape(x, _c([1, 4, 16, 84]), False))], [x], {"x": 0}


def groups_of_8():  # [?,C] by [-1,8,C]: batches divisible by 8
    x = _p("x", [-1, 16])
    return [ops.reshape(x, _c([-1, 8, 16]), False)], [x], {"x": 0}


def special_zero_copy():  # the batch copied by a special zero: holds for every batch
    x = _p("x", [-1, 16])
    return [ops.reshape(x, _c([0, 4, 4]), True)], [x], None


def minus_one_absorbs():  # -1 takes the batch: every batch
    x = _p("x", [-1, 4, 4])
    return [ops.reshape(x, _c([-1, 16]), False)], [x], None


def shape_driven():  # the pattern from ShapeOf: every batch
    x = _p("x", [-1, 16])
    batch = ops.gather(ops.shape_of(x), _c([0]), _c(0))
    return [ops.reshape(x, ops.concat([batch, _c([4, 4])], 0), False)], [x], None


def volume_by_special_zero():  # [b,5] by [5,0]: OpenVINO skips the volume check; the spec holds at b=5 only
    x = _p("x", [-1, 5])
    return [ops.relu(ops.reshape(x, _c([5, 0]), True))], [x], {"x": 0}


def squeeze_batch():  # a Squeeze of the dynamic batch: holds at 1 only (kept, changing the rank, elsewhere)
    x = _p("x", [-1, 3, 4])
    return [ops.squeeze(x, _c([0]))], [x], {"x": 0}


def two_inputs():  # x and y must agree; a scenario that breaks the Add is rejected there
    x, y = _p("x", [-1, 16]), _p("y", [-1, 16])
    return [ops.reshape(ops.add(x, y), _c([-1, 4, 4]), False)], [x, y], None


def sequence_window():  # [b, s, 8] by [0,-1,4,8] (special zero): s must be even
    x = _p("x", [1, -1, 8])
    return [ops.reshape(x, _c([0, -1, 2, 8]), True)], [x], {"x": 1}


MODELS = {f.__name__: f for f in (yolo_head, groups_of_8, special_zero_copy, minus_one_absorbs, shape_driven,
                                  volume_by_special_zero, squeeze_batch, two_inputs, sequence_window)}
BATCHES = ("1", "2", "3", "5", "8", "16", "1..8", "?", "2..")


def _scenarios(name: str) -> list[dict[str, str]]:
    if name == "two_inputs":
        return [{"x": "[2,16]", "y": "[2,16]"}, {"x": "[2,16]", "y": "[3,16]"}, {"x": "[1..4,16]", "y": "[2,16]"},
                {"x": "[?,16]", "y": "[5,16]"}]
    if name == "sequence_window":
        return [{"x": f"[1,{s},8]"} for s in ("1", "2", "3", "6", "2..8", "?")]
    shape = {"yolo_head": "{},64,84", "groups_of_8": "{},16", "special_zero_copy": "{},16",
             "minus_one_absorbs": "{},4,4", "shape_driven": "{},16", "volume_by_special_zero": "{},5",
             "squeeze_batch": "{},3,4"}[name]
    return [{"x": f"[{shape.format(b)}]"} for b in BATCHES]


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("scenarios")
    out = {}
    for name, build in MODELS.items():
        results, params, _ = build()
        ov.save_model(ov.Model(results, params, name), str(folder / f"{name}.xml"))
        out[name] = folder / f"{name}.xml"
    return out


def openvino_verdict(path: Path, shapes: dict[str, str]) -> tuple[str | None, set[str], dict[str, str]]:
    """(the node Model.reshape names when it fails, the Reshapes that break the volume rule, every
    Reshape-family op's output shape) under ``shapes``."""
    model = ov.Core().read_model(str(path))
    try:
        model.reshape({k: ov.PartialShape(v) for k, v in shapes.items()})
    except Exception as e:  # noqa: BLE001 - OpenVINO raises RuntimeError subclasses
        named = re.search(r"with friendly_name '([^']*)'", str(e))
        return (named.group(1) if named else "?"), set(), {}
    volume, out = set(), {}
    for op in model.get_ops():
        if op.get_type_name() in ("Reshape", "Squeeze", "Unsqueeze"):
            out[op.get_friendly_name()] = str(op.output(0).get_partial_shape()).replace(" ", "")
        if op.get_type_name() == "Reshape":
            a, b = op.input(0).get_partial_shape(), op.output(0).get_partial_shape()
            if a.is_static and b.is_static and np.prod(a.to_shape(), dtype=object) != np.prod(b.to_shape(), dtype=object):
                volume.add(op.get_friendly_name())
    return None, volume, out


def irreshape_verdict(path: Path, shapes: dict[str, str]):
    result = check_path(str(path), Options(scenarios=(Scenario("s", tuple(shapes.items())),), scenarios_only=True))
    errors = {(f.code, f.layer.name) for f in result.findings if f.severity == "error" and f.layer}
    expected = {lr.layer.name: format_shape(lr.expected) for lr in result.layers if lr.expected_known}
    return errors, expected


@pytest.mark.parametrize("name", sorted(MODELS))
def test_scenarios_agree_with_model_reshape(saved, name):
    checked = 0
    for shapes in _scenarios(name):
        rejected_at, volume, ov_shapes = openvino_verdict(saved[name], shapes)
        errors, expected = irreshape_verdict(saved[name], shapes)
        if rejected_at is not None:
            assert {layer for _, layer in errors} == {rejected_at}, (shapes, errors)
            assert ("IR501", rejected_at) in errors, (shapes, errors)
        else:
            assert errors == {("IR502", n) for n in volume}, (shapes, errors, volume)
            for layer, dims in ov_shapes.items():
                assert expected.get(layer) == dims, (shapes, layer, expected.get(layer), dims)
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("name", sorted(MODELS))
def test_pinned_dim_warning(saved, name):
    """IR503 exactly on the models whose Reshape family holds at some values of a dynamic dim only, as
    Model.reshape (plus the volume rule) says at batches 1..8."""
    _, _, pinned = MODELS[name]()
    result = check_path(str(saved[name]))
    warned = [f for f in result.findings if f.code == "IR503"]
    if pinned is None:
        assert warned == [], [f.message for f in warned]
        return
    (param, axis), = pinned.items()
    assert len(warned) == 1 and f"dim {axis} of Parameter {param!r}" in warned[0].message
    truth = []
    for value in range(1, 9):
        base = _base_shape(saved[name])
        base[axis] = str(value)
        rejected_at, volume, shapes = openvino_verdict(saved[name], {param: "[" + ",".join(base) + "]"})
        # a Squeeze that keeps a non-1 dim fails nothing: the rank changes (it is 2 as exported)
        squeezed = [dims for layer, dims in shapes.items() if layer.startswith("Squeeze")]
        truth.append(rejected_at is None and not volume and all(d.count(",") == 1 for d in squeezed))
    assert any(truth) and not all(truth)
    assert ("only at 1 " in warned[0].message) == (truth == [v == 1 for v in range(1, 9)])


def _base_shape(path: Path) -> list[str]:
    model = ov.Core().read_model(str(path))
    return [str(d) if d.is_static else "?" for d in model.inputs[0].get_partial_shape()]


def test_usage_errors_exit_2(saved):
    path = str(saved["two_inputs"])
    for args in (["--input-shape", "z=[2,16]"], ["--input-shape", "[2,16]"], ["--input-shape", "x=[2,16,1]"],
                 ["--input-shape", "x=[2,1x]"], ["--input-shapes-only", "nope"],
                 ["--input-shape", "x=[2,16]", "--fix"]):
        run = irreshape("check", "--isolated", *args, path)
        assert run.status == 2 and run.exception is None, (args, run.stdout, run.stderr)
        assert "Traceback" not in run.stderr
    run = irreshape("check", "--isolated", "--input-shape", "z=[2,16]", path)
    assert "x [?,16]" in run.stderr and "y [?,16]" in run.stderr  # the inputs the model has


def test_named_scenarios_in_one_run(saved, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.irreshape.input-shapes]\nbatch1 = { x = "[1,64,84]" }\nbatch2 = { x = "[2,64,84]" }\n')
    monkeypatch.chdir(tmp_path)
    path = str(saved["yolo_head"])
    run = irreshape("check", "--output-format", "json", path)
    findings = json.loads(run.stdout)["files"][0]["findings"]
    assert {(f["code"], f.get("scenario")) for f in findings} == {("IR503", None), ("IR501", "batch2")}
    assert run.status == 1
    run = irreshape("check", "--output-format", "json", "--input-shapes-only", "batch1", path)
    assert json.loads(run.stdout)["files"][0]["findings"] == [] and run.status == 0
    run = irreshape("check", "--input-shapes-only", "batch2", path)
    assert run.codes() == ["IR501"] and "batch2" in run.stdout
