"""Real IR exported with dynamic shapes (BERT, GPT-2, T5, ViT, Swin, PyTorch modules): irreshape vs OpenVINO.

* On every model in ``tests/data/models``: the fraction of Reshape layers that end ``ok`` with
  ``expected`` identical to OpenVINO's own ``read_model`` result (intervals included) is printed per
  model and must be all of them (Swin's computed window pads and its Roll included); the unmodified
  models get no error finding.
* Single-fault corruptions: a declared output dim of a Reshape whose pattern is computed (not a
  Const) is changed; each one must be reported as an error on that layer.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytest.importorskip("openvino")
from irtools.oracle import reshape_outputs

from irreshape.checks import check_file
from irreshape.core.dims import format_shape

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"
PATHS = sorted(MODELS.glob("*.xml"))
THRESHOLD = 1.0


def agreement(path: Path) -> tuple[int, int, list[tuple[str, str, str | None, str | None]]]:
    """(agreeing, Reshape layers, disagreements) for one model."""
    ours = check_file(str(path))
    theirs = reshape_outputs(path)
    rows = [lr for lr in ours.layers if lr.layer.kind == "reshape"]
    bad = []
    for lr in rows:
        exp = format_shape(lr.expected) if lr.expected_known else None
        if lr.status != "ok" or exp != theirs.get(lr.layer.name):
            bad.append((lr.layer.name, lr.status, exp, theirs.get(lr.layer.name)))
    return len(rows) - len(bad), len(rows), bad


@pytest.mark.skipif(not PATHS, reason="no exported models in tests/data/models")
def test_expected_equals_openvino_on_real_models():
    agree = total = 0
    report = []
    for path in PATHS:
        a, n, bad = agreement(path)
        agree, total = agree + a, total + n
        report.append(f"{path.name:28s} {a:4d}/{n:<4d} ok and equal to OpenVINO")
        report.extend(f"    {b}" for b in bad[:3])
    report.append(f"{'all models':28s} {agree:4d}/{total:<4d} = {agree / max(total, 1):.1%}")
    print("\n" + "\n".join(report))
    assert total >= 100, "too few Reshape layers to measure"
    assert agree / total >= THRESHOLD, "\n".join(report)


@pytest.mark.skipif(not PATHS, reason="no exported models in tests/data/models")
@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_no_error_on_unmodified_models(path):
    result = check_file(str(path))
    errors = [f"{f.code} {f.message}" for f in result.findings if f.severity == "error"]
    assert not errors


def computed_dim_faults(path: Path, per_model: int = 6) -> list[tuple[str, int, str]]:
    """Up to ``per_model`` single faults of ``path``: (Reshape name, line index, the line with one static
    output dim of that computed-pattern Reshape changed)."""
    result = check_file(str(path))
    model = result.model
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    faults = []
    for lr in result.layers:
        if len(faults) >= per_model or lr.status != "ok" or not lr.expected_known or lr.layer.kind != "reshape":
            continue
        src = model.producer(lr.layer.id, lr.layer.inputs[1].id)
        if src is None or src[0].kind == "const":
            continue
        port = lr.layer.outputs[0]
        axis = next((i for i, d in enumerate(lr.expected) if d.is_static), None)
        if axis is None or len(port.dim_lines) <= axis:
            continue
        line = port.dim_lines[axis] - 1
        wrong, n = re.subn(r"<dim>\s*-?\d+\s*</dim>", f"<dim>{lr.expected[axis].lo + 1}</dim>", lines[line], count=1)
        assert n == 1
        faults.append((lr.layer.name, line, wrong))
    return faults


@pytest.mark.skipif(not PATHS, reason="no exported models in tests/data/models")
def test_corrupted_dims_of_computed_patterns_are_errors(tmp_path):
    """One fault at a time: an error on that Reshape and on no other layer."""
    corrupted = 0
    for path in PATHS:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        for k, (name, line, wrong) in enumerate(computed_dim_faults(path)):
            out = tmp_path / f"{path.stem}_{k}.xml"
            out.write_text("".join(lines[:line] + [wrong] + lines[line + 1:]), encoding="utf-8")
            os.symlink(path.with_suffix(".bin"), out.with_suffix(".bin"))
            result = check_file(str(out))
            by_name = {lr.layer.name: lr for lr in result.layers}
            assert by_name[name].status == "mismatch", (path.name, name)
            assert any(f.code == "IR101" and f.layer is not None and f.layer.name == name
                       for f in result.findings), (path.name, name)
            assert {f.layer.name for f in result.findings if f.severity == "error" and f.layer} == {name}, \
                (path.name, name)
            corrupted += 1
    assert corrupted >= 10
