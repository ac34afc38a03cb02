"""``--fix --target R`` for what R's CPU plugin refuses (issue 36 §5): an exact form where one is known (an Identity-16
removed, an empty AvgPool-16 ``dilations`` written as ones), proved with each release's wheel
(scripts/prove_compile_rewrites.py: tests/data/targets/compile-rewrites.json); else the refusal stays, and the fix
notes say there is no exact form."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from irreshape import lint
from irreshape.checks.openvino import check_path
from irreshape.core.results import Options
from irreshape.lint.config import Settings
from irreshape.rules import ALL
from irreshape.shapes.compiles import refusals
from irreshape.shapes.plugins import REFUSED
from irreshape.shapes.releases import RELEASES

ov = pytest.importorskip("openvino")
ROOT = Path(__file__).resolve().parents[2]
PROVED = json.loads((ROOT / "tests" / "data" / "targets" / "compile-rewrites.json").read_text())


def _refusing(key: tuple) -> list[str]:
    out = []
    for i, release in enumerate(RELEASES):
        stage = next((s for first, s, _ in reversed(REFUSED.get(key, ())) if first <= i), None)
        if stage is not None:
            out.append(release)
    return out


def _fix(path: Path, release: str, mode: str = "fix"):
    return lint.run([str(path)], Settings(enabled=frozenset(r.code for r in ALL), fix=mode,
                                          targets=((release, release),)))


def _save(tmp_path, model, name="m") -> Path:
    path = tmp_path / f"{name}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


@pytest.mark.parametrize("which", ["identity", "avgpool"])
def test_an_exact_form_is_written_and_the_release_then_takes_the_file(tmp_path, which):
    from openvino import opset1, opset16

    if which == "identity":
        key = ("op", "Identity", 16, 1)
        x = opset1.parameter([2, 3], ov.Type.f32, name="x")
        model = ov.Model([opset1.result(opset1.relu(opset16.identity(x)))], [x])
    else:
        key = ("attr-empty", "AvgPool", 16, "dilations")
        x = opset1.parameter([1, 3, 8, 8], ov.Type.f32, name="x")
        model = ov.Model([opset1.result(opset16.avg_pool(x, [1, 1], [0, 0], [0, 0], [2, 2], True))], [x])
    releases = _refusing(key)
    if not releases:
        pytest.skip(f"no release refuses {key} in the table")
    src = _save(tmp_path, model)
    for release in releases:
        dst = tmp_path / f"fixed-{release}.xml"
        shutil.copyfile(src, dst)
        shutil.copyfile(src.with_suffix(".bin"), dst.with_suffix(".bin"))
        before = dst.read_bytes()
        outcome = _fix(dst, release)
        assert sum(len(f.fixed) for f in outcome.fixes) == 1, release
        assert dst.read_bytes() != before
        assert not refusals(check_path(str(dst), Options()).features, release), release
        ov.Core().compile_model(str(dst), "CPU") if which == "identity" else ov.Core().read_model(str(dst))


def test_no_exact_form_stays_an_error_and_the_notes_say_why(tmp_path):
    from openvino import opset1

    key = ("param", "u1")
    releases = _refusing(key)
    if not releases:
        pytest.skip("no release refuses a u1 model input in the table")
    x = opset1.parameter([2, 8], ov.Type.u1, name="x")
    src = _save(tmp_path, ov.Model([opset1.result(opset1.convert(x, "f32"))], [x]))
    before = src.read_bytes()
    outcome = _fix(src, releases[-1])
    assert src.read_bytes() == before
    refused = [r.reason for f in outcome.fixes for r in f.refused]
    assert any("no exact rewrite is known" in r for r in refused), refused


def test_each_rewrite_is_proved_on_every_release_that_refuses_it():
    """The labels of scripts/prove_compile_rewrites.py: each release irreshape says refuses a case runs the file
    --fix --target wrote for it, irreshape then says nothing of it, and 2026.4.1 computes what the reference
    does, bit for bit."""
    assert PROVED["cases"]
    for name, rows in PROVED["cases"].items():
        assert rows, name
        for release, row in rows.items():
            assert row["left"] == [] and row["runs"] and row["same_on_2026.4.1"], (name, release, row)
