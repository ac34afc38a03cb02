"""`--fix --target R` end to end (lint.run with Settings.targets, as the CLI runs it): what R refuses is rewritten
where the table has an exact form, the file written is one irreshape's own target check finds nothing in for R,
and 2026.4.1 computes the same with it; what has no exact form is left, with the reason, and stays refused."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import openvino as ov
import pytest

from irreshape import lint
from irreshape.fixers import downgrade as dg
from irreshape.frontends.openvino import parse
from irreshape.lint.config import Settings
from irreshape.rules import ALL
from irreshape.shapes import targets
from irtools import downgrades as D

OLDEST = targets.known()[0]


def _refused(path: str, release: str) -> list:
    return targets.refusals(parse(path), release)


def _run(path: str, release: str, mode: str = "fix", unsafe: bool = False):
    settings = Settings(enabled=frozenset(r.code for r in ALL), fix=mode, targets=((release, release),),
                        unsafe_fixes=unsafe)
    outcome = lint.run([path], settings)
    return next((f for f in outcome.fixes if f.path == path), None)


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("targets")
    for name in D.CASES:
        D.save(name, str(folder))
    return folder


@pytest.mark.parametrize("name", sorted(n for n, (_, _, exact) in D.CASES.items() if exact))
def test_fix_target_makes_the_file_readable_and_the_same(name, saved, tmp_path):
    src = str(saved / f"{name}.xml")
    if not _refused(src, OLDEST):
        assert D.CASES[name][0] == ("TopK", 11), f"{OLDEST} refuses the case"
        pytest.skip(f"every release reads {D.CASES[name][0]} (opset11): no target needs the entry")
    dst = str(tmp_path / f"{name}.xml")
    D.copy_pair(src, dst)
    bin_before = Path(dst).with_suffix(".bin").read_bytes()
    entry = dg.REWRITES[D.CASES[name][0]][0]
    if not entry.safe:  # a decomposition: not without --unsafe-fixes, and the note says so
        left = _run(dst, OLDEST)
        assert not left.changed and any("--unsafe-fixes" in r.reason for r in left.refused)
    fixed = _run(dst, OLDEST, unsafe=not entry.safe)
    assert fixed is not None and fixed.written and fixed.fixed and not fixed.refused, fixed
    assert _refused(dst, OLDEST) == []
    new_bin = Path(dst).with_suffix(".bin").read_bytes()
    assert new_bin[:len(bin_before)] == bin_before and len(new_bin) == len(bin_before) + fixed.appended
    feeds = D.inputs(src)
    before, after = D.run(src, feeds), D.run(dst, feeds)
    if entry.safe:
        assert D.same_outputs(before, after)
    else:
        assert all(np.allclose(a, b, rtol=entry.tolerance[0], atol=entry.tolerance[1]) for a, b in zip(before, after))


@pytest.mark.parametrize("name", sorted(n for n, (_, _, exact) in D.CASES.items() if not exact))
def test_no_exact_form_is_left_with_the_reason(name, saved, tmp_path):
    dst = str(tmp_path / f"{name}.xml")
    D.copy_pair(str(saved / f"{name}.xml"), dst)
    before = Path(dst).read_bytes()
    refused = _refused(dst, OLDEST)
    if not refused:
        assert D.CASES[name][0] == ("TopK", 11), f"{OLDEST} refuses the case"
        pytest.skip(f"every release reads {D.CASES[name][0]} (opset11)")
    fixed = _run(dst, OLDEST)
    assert fixed is not None and not fixed.changed and not fixed.fixed
    assert {r.layer.id for r in fixed.refused} == {r.layer.id for r in refused}
    assert all(r.reason for r in fixed.refused)
    assert Path(dst).read_bytes() == before
    assert _refused(dst, OLDEST) == refused


def test_diff_changes_nothing(saved, tmp_path):
    dst = str(tmp_path / "m.xml")
    D.copy_pair(str(saved / "maxpool14_floor.xml"), dst)
    before = Path(dst).read_bytes()
    shown = _run(dst, OLDEST, mode="diff")
    assert shown.changed and not shown.written and Path(dst).read_bytes() == before
    assert re.search(r'^\+.*type="MaxPool" version="opset8"', shown.diff_text, re.M)


def test_a_newer_opset_of_the_same_op_version_is_relabelled(saved, tmp_path):
    """MaxPool named in opset16 is MaxPool-14: for a release that reads opset14 and not opset16, only the version
    attribute changes (to the oldest opset holding MaxPool-14)."""
    release = next((r for r in targets.known() if not _refused(str(saved / "maxpool14_floor.xml"), r)), None)
    if release is None or release == targets.known()[-1]:
        pytest.skip("no release reads opset14 and not opset16")
    dst = tmp_path / "m.xml"
    D.copy_pair(str(saved / "maxpool14_floor.xml"), str(dst))
    dst.write_bytes(dst.read_bytes().replace(b'type="MaxPool" version="opset14"', b'type="MaxPool" version="opset16"'))
    if not _refused(str(dst), release):
        pytest.skip(f"{release} reads opset16")
    fixed = _run(str(dst), release)
    assert fixed.written and not fixed.refused
    assert b'type="MaxPool" version="opset14"' in dst.read_bytes()
    assert _refused(str(dst), release) == []


def test_an_element_type_the_release_lacks_stays_an_error(tmp_path):
    """A Const of f8e4m3 (read from 2024.0): no rewrite; the note names it; the file is left as it was."""
    release = next((r for r in targets.known() if r < "2024"), None)
    x = ov.opset13.parameter([4], np.float32, name="x")
    c = ov.opset13.constant(np.array([1, 2, 3, 4], np.float32)).output(0)
    c8 = ov.opset13.convert(ov.opset13.constant(ov.Tensor(ov.Type.f8e4m3, [4])), np.float32)
    m = ov.Model([ov.opset13.add(ov.opset13.add(x, c), c8).output(0)], [x], "f8")
    path = tmp_path / "f8.xml"
    ov.save_model(m, str(path), compress_to_fp16=False)
    refused = _refused(str(path), release)
    if not any(r.kind == "etype" for r in refused):
        pytest.skip(f"{release} reads f8e4m3 as irreshape knows it")
    before = path.read_bytes()
    fixed = _run(str(path), release)
    assert fixed.refused and not fixed.changed and path.read_bytes() == before
    assert any("f8e4m3" in r.reason for r in fixed.refused)


WILD = Path(__file__).resolve().parents[3] / "shared" / "wild-ir"


def _yolos() -> list[Path]:
    if not WILD.exists():
        return []
    return sorted(p for p in WILD.glob("*.xml") if b'version="opset14"' in p.read_bytes())


@pytest.mark.skipif(not WILD.exists(), reason="../shared/wild-ir is not beside the clone")
@pytest.mark.parametrize("xml", _yolos(), ids=lambda p: p.stem)
def test_yolo_exports_fixed_for_2023_3(xml, tmp_path):
    """The Ultralytics exports (MaxPool-14, rounding floor): after --fix --target 2023.3 irreshape finds nothing
    2023.3.0 refuses, and 2026.4.1 computes the same (whether 2023.3.0 runs them: downgrades.json's wild labels)."""
    release = targets.canonical("2023.3")
    dst = tmp_path / xml.name
    shutil.copyfile(xml, dst)
    shutil.copyfile(xml.with_suffix(".bin"), dst.with_suffix(".bin"))
    assert _refused(str(dst), release)
    fixed = _run(str(dst), release)
    assert fixed.written and fixed.fixed and not fixed.refused
    assert _refused(str(dst), release) == []
    core = ov.Core()
    rng = np.random.default_rng(0)
    feeds = [rng.standard_normal([d.get_length() for d in p.get_partial_shape()]).astype(np.float32)
             for p in core.read_model(str(xml)).inputs]
    assert D.same_outputs(D.run(str(xml), feeds, core), D.run(str(dst), feeds, core))


# -- the command line ---------------------------------------------------------------------------------------
def test_cli_fix_target_then_clean(saved, tmp_path):
    """`check --fix --target R`: the IR6xx findings gone, the note counts the layers; `--diff --target` shows the
    change and exits 1, and 0 once fixed."""
    from lintkit import irreshape

    xml = tmp_path / "m.xml"
    D.copy_pair(str(saved / "maxpool14_floor.xml"), str(xml))
    before = irreshape("check", "--target", OLDEST, "--output-format", "concise", str(xml))
    assert any(c.startswith("IR6") for c in before.codes()) and before.status == 1
    shown = irreshape("check", "--diff", "--target", OLDEST, str(xml))
    assert shown.status == 1 and 'version="opset8"' in shown.stdout and "Would fix 1 layer" in shown.stderr
    r = irreshape("check", "--fix", "--target", OLDEST, "--output-format", "concise", str(xml))
    assert not any(c.startswith("IR6") for c in r.codes()) and r.status == 0
    assert "Fixed 1 layer in 1 file." in r.stderr
    assert irreshape("check", "--diff", "--target", OLDEST, str(xml)).status == 0


def test_cli_unsafe_fixes(saved, tmp_path):
    """A decomposition is shown as needing --unsafe-fixes, and applied with it (the .bin appended to)."""
    from lintkit import irreshape

    xml = tmp_path / "m.xml"
    D.copy_pair(str(saved / "sdpa13_plain.xml"), str(xml))
    r = irreshape("check", "--fix", "--target", OLDEST, "--output-format", "concise", str(xml))
    assert "--unsafe-fixes" in r.stderr and any(c.startswith("IR6") for c in r.codes())
    size = xml.with_suffix(".bin").stat().st_size
    r = irreshape("check", "--fix", "--unsafe-fixes", "--target", OLDEST, "--output-format", "concise", str(xml))
    assert not any(c.startswith("IR6") for c in r.codes())
    assert "appended" in r.stderr and xml.with_suffix(".bin").stat().st_size > size


def test_a_dims_fix_and_a_rewrite_in_one_write(saved, tmp_path):
    """A file with a lying <dim> (a Relu's output, repeated by its consumer, an Identity-16) and a layer the target
    refuses: one --fix writes both, the Identity's own lines going with it; the file is clean for the target and
    for the dims, and computes the same."""
    from irtools.corrupt import corrupt_with_consumers

    src = saved / "identity16_inner.xml"
    model = parse(str(src))
    relu = next(la for la in model.layers.values() if la.kind == "relu")
    ident = next(la for la in model.layers.values() if la.type == "Identity")
    dst = tmp_path / "m.xml"
    D.copy_pair(str(src), str(dst))
    dst.write_bytes(corrupt_with_consumers(src.read_bytes(), relu.id, 1, 7, relu.outputs[0].id,
                                           [(ident.id, ident.inputs[0].id, list(ident.inputs[0].dims))]))
    fixed = _run(str(dst), OLDEST)
    assert fixed.written and {r.type for r in fixed.fixed} >= {relu.type, "Identity"}, fixed
    assert _refused(str(dst), OLDEST) == []
    settings = Settings(enabled=frozenset(r.code for r in ALL))
    assert [f.code for r in lint.run([str(dst)], settings).results for f in r.findings] == []
    feeds = D.inputs(str(src))
    assert D.same_outputs(D.run(str(src), feeds), D.run(str(dst), feeds))


def test_a_duplicate_name_is_renamed(tmp_path):
    """A release that wants layer names unique (a "name" refusal): the later layer is renamed, nothing else."""
    model, feeds = D.duplicate_names()
    src = tmp_path / "dup.xml"
    ov.save_model(model, str(src), compress_to_fp16=False)
    release = next((r for r in targets.known() if any(x.kind == "name" for x in _refused(str(src), r))), None)
    if release is None:
        pytest.skip("no release irreshape knows refuses duplicate names")
    dst = tmp_path / "fixed.xml"
    D.copy_pair(str(src), str(dst))
    fixed = _run(str(dst), release)
    assert fixed.written and len(fixed.fixed) == 1 and _refused(str(dst), release) == []
    changed = [ln for ln in fixed.diff_text.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
    assert len(changed) == 2 and all(" name=" in ln for ln in changed)
    assert D.same_outputs(D.run(str(src), feeds), D.run(str(dst), feeds))
