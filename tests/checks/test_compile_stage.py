"""The compile stage (issue 36): what each release's CPU plugin refuses in files its reader reads.

* the detectors find each feature in models built here with openvino's API (and nothing on their controls);
* the generated table (src/irreshape/shapes/plugins.py) against the probes' labels (tests/data/targets/plugins.json,
  scripts/make_plugins.py with each release's wheel): for every probe and release irreshape's answer is the
  release's, but where the probes of one feature disagree on a release (the table then claims nothing);
* the real IR's labels (tests/data/targets/compiles.json, scripts/label_compiles.py): irreshape's answer per (file,
  release) is what the release did;
* the findings: IR6xx of the targets with ``"stage"``, IR405-IR407 of the reference release, compat's cells.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from irreshape.shapes.compiles import refusals
from irreshape.shapes.plugins import REFUSED
from irreshape.shapes.releases import RELEASES

from irtools.compilelabels import agrees, expand, verdicts

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
WILD = ROOT.parent / "shared" / "wild-ir"
PROBES = json.loads((DATA / "targets" / "plugins.json").read_text())
REAL = json.loads((DATA / "targets" / "compiles.json").read_text())

ov = pytest.importorskip("openvino")


def _features(path) -> dict[tuple, str]:
    from irreshape.checks.plugin import every_feature
    from irreshape.frontends.openvino import parse

    return {i.key: i.name for i in every_feature(parse(str(path)))}


def _save(tmp_path, model, name="m"):
    path = tmp_path / f"{name}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


# -- the detectors ---------------------------------------------------------------------------------------------
def test_detectors_find_each_feature_and_not_on_controls(tmp_path):
    from openvino import opset1, opset8, opset13, opset16

    x = opset1.parameter([2, 3], ov.Type.f32, name="x")
    found = _features(_save(tmp_path, ov.Model([opset1.result(opset16.identity(x))], [x]), "identity"))
    assert ("op", "Identity", 16, 1) in found and ("param", "f32") in found

    x = opset1.parameter([1, 3, 8, 8], ov.Type.f32, name="x")
    empty = opset16.avg_pool(x, [1, 1], [0, 0], [0, 0], [2, 2], True)
    ones = opset16.avg_pool(x, [1, 1], [0, 0], [0, 0], [2, 2], True, dilations=[1, 1])
    assert ("attr-empty", "AvgPool", 16, "dilations") in _features(
        _save(tmp_path, ov.Model([opset1.result(empty)], [x]), "empty"))
    assert not any(k[0] == "attr-empty" for k in _features(_save(tmp_path, ov.Model([opset1.result(ones)], [x]),
                                                                  "ones")))

    from irtools.plugincases import _if_model

    def if_model(name: str, cond_is_param: bool):
        unsq = lambda t: opset8.unsqueeze(t, opset8.constant([0], np.int64))  # noqa: E731
        cond = (lambda x, c: c) if cond_is_param else (lambda x: opset8.constant(np.array(True)))
        xml, weights = _if_model(cond, unsq, opset8.relu, opset8.relu, shape=(2, 3),
                                 inputs=[("c", [], ov.Type.boolean)] if cond_is_param else [])
        (tmp_path / f"{name}.bin").write_bytes(weights)
        (tmp_path / f"{name}.xml").write_text(xml)
        return tmp_path / f"{name}.xml"

    assert ("if-rank", "runtime") in _features(if_model("if_dynamic", True))
    assert not [k for k in _features(if_model("if_folded", False))  # OpenVINO picks a branch
                if k[0] in ("if-rank", "rank")]

    b, h, e = -1, 2, 8
    q, k, v = (opset13.parameter([b, h, -1, e], ov.Type.f32, name=n) for n in "qkv")
    m = opset13.parameter([b, 1, -1, -1], ov.Type.boolean, name="mask")
    node = opset13.scaled_dot_product_attention(q, k, v, m, causal=False)
    assert ("sdpa-mask", "boolean", "dynamic", "stateless") in _features(
        _save(tmp_path, ov.Model([opset13.result(node)], [q, k, v, m]), "sdpa"))

    x = opset1.parameter([2, 8], ov.Type.f32, name="x")
    w = opset8.constant(np.ones((4, 8), np.float32), dtype=ov.Type.u4)
    y = opset1.matmul(x, opset1.convert(w, "f32"), False, True)
    assert ("decompress", "u4") in _features(_save(tmp_path, ov.Model([opset1.result(y)], [x]), "u4"))


# -- the table against the probes' labels -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def probes(tmp_path_factory):
    """Every probe of tests/irtools/plugincases.py, written by this openvino, with irreshape's answer per release."""
    from irtools.plugincases import cases

    d = tmp_path_factory.mktemp("probes")
    out = {}
    for c in cases():
        if c.name not in PROBES["cases"]:
            continue
        path = d / f"{c.name}.xml"
        path.write_text(c.xml)
        path.with_suffix(".bin").write_bytes(c.weights)
        out[c.name] = (c.key, verdicts(str(path)))
    return out


def test_every_probe_is_labelled_and_built(probes):
    assert len(probes) == len(PROBES["cases"]) > 300


def test_irreshape_answers_each_probe_as_each_release(probes):
    """No answer irreshape gives is not the release's; a failure it does not report is one the labels say the table
    claims nothing of, and why (the probes of the feature disagree there, real IR holding it runs there, the op's
    own probe fails there too...)."""
    wrong, missed = [], []
    labels = {name: expand(runs) for name, runs in PROBES["cases"].items()}
    for name, (_, ours) in probes.items():
        assert ours is not None, name
        left = PROBES["unclaimed"].get(name, {})
        for i, release in enumerate(RELEASES):
            theirs, mine = labels[name][i], ours[i]
            if "read" in (theirs, mine) or theirs == "timeout":
                continue
            if mine is not None and not agrees(theirs, mine):
                wrong.append((name, release, theirs, mine))
            elif mine is None and theirs is not None and release not in left:
                missed.append((name, release, theirs))
    assert not wrong
    assert not missed


def test_the_detectors_the_table_runs_find_what_every_detector_finds(tmp_path):
    """A check runs only the detectors of the kinds (and op types) the table holds: it finds exactly what running
    every detector finds of the table's keys, on every probe and every committed IR."""
    from irreshape.checks.plugin import every_feature
    from irreshape.frontends.openvino import parse

    from irtools.plugincases import cases

    paths = [p for p in sorted(DATA.rglob("*.xml")) if "targets/generated" not in p.as_posix()
             and "hostile" not in p.as_posix()]
    for c in cases():
        paths.append(tmp_path / f"{c.name}.xml")
        paths[-1].write_text(c.xml)
        paths[-1].with_suffix(".bin").write_bytes(c.weights)
    compared = 0
    for path in paths:
        try:
            model = parse(str(path))
        except Exception:  # noqa: BLE001  a file the frontends refuse (a finding, not a model)
            continue
        every = [(i.layer.id, i.key) for i in every_feature(model) if i.key in REFUSED]
        assert [(i.layer.id, i.key) for i in every_feature(model, every=False)] == every, path
        compared += bool(every)
    assert compared > 300


# -- real IR: what each release did with it ---------------------------------------------------------------------
def _real():
    for name in sorted(REAL["files"]):
        path = WILD / name.split("/", 1)[1] if name.startswith("wild-ir/") else DATA / name
        marks = [pytest.mark.skipif(not path.exists(), reason="../shared/wild-ir is not beside the clone")]
        yield pytest.param(name, path, marks=marks, id=name)


@pytest.mark.parametrize("name,path", list(_real()))
def test_irreshape_answers_real_ir_as_each_release(name, path):
    # the labels: where a release stops on the file on both classes of CPU measured (scripts/label_compiles.py)
    labels = expand(REAL["files"][name])
    ours = verdicts(str(path))
    if ours is None:  # 2026.4.1 itself refuses it, or irreshape cannot read it: no release is judged
        return
    for i, release in enumerate(RELEASES):
        theirs, mine = labels[i], ours[i]
        if "read" in (theirs, mine) or theirs == "timeout":
            continue
        assert theirs == mine or theirs is not None and agrees(theirs, mine), (release, theirs, mine)


# -- the findings --------------------------------------------------------------------------------------------------
def _first_refusing(key: tuple, stage: str = "compile") -> str | None:
    for first, s, _ in REFUSED.get(key, ()):
        if s == stage:
            return RELEASES[first]
    return None


def _identity(tmp_path):
    """(the first release whose CPU plugin refuses Identity-16, a model of one Identity-16)."""
    from openvino import opset1, opset16

    release = _first_refusing(("op", "Identity", 16, 1))
    if release is None:
        pytest.skip("no release refuses Identity-16 at compile_model in the table")
    x = opset1.parameter([2, 3], ov.Type.f32, name="x")
    return release, _save(tmp_path, ov.Model([opset1.result(opset1.relu(opset16.identity(x)))], [x]))


def test_target_finding_carries_its_stage_and_the_release_words(tmp_path):
    from irreshape.api import check

    release, path = _identity(tmp_path)
    report = check(str(path), target=release, isolated=True, jobs=1)
    found = [f for f in report.files[0].findings if f.code.startswith("IR6")]
    assert [(f.code, f.extra["stage"], f.extra["target"], f.layer.type) for f in found] == \
        [("IR611", "compile", release, "Identity")]
    doc = json.loads(report.render("json"))
    assert doc["files"][0]["findings"][0]["stage"] == "compile"
    sarif = json.loads(report.render("sarif"))
    assert sarif["runs"][0]["results"][0]["properties"]["stage"] == "compile"


def test_refusals_follow_the_table():
    """Each feature the table holds is refused by exactly the releases its runs say."""
    class Inst:
        layer = None
        name = "L"
        what = "w"

    for key, runs in REFUSED.items():
        inst = Inst()
        inst.key = key
        for i, release in enumerate(RELEASES):
            stage = next((s for first, s, _ in reversed(runs) if first <= i), None)
            got = refusals([inst], release)
            assert [r.stage for r in got] == ([stage] if stage else []), (key, release)


# -- compat -------------------------------------------------------------------------------------------------------
def _irreshape(*args, env=None):
    import os
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "irreshape", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_compat_fits_100_columns_and_names_every_file(tmp_path):
    """The default view: one line per file (or the path, then its runs), none wider than the terminal."""
    import shutil

    files = []
    for name in ("col2im15.xml", "yolo_sppf_maxpool14.xml", "plain_opset8.xml", "squeeze15.xml"):
        deep = tmp_path / ("a_rather_long_folder_name_for_models_of_a_repository/" * 2)
        deep.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(DATA / "compat" / name, deep / name)
        shutil.copyfile((DATA / "compat" / name).with_suffix(".bin"), (deep / name).with_suffix(".bin"))
        files.append(str(deep / name))
    for fmt in ("full", "concise"):
        run = _irreshape("compat", "--isolated", "--output-format", fmt, "--color", "never", *files,
                         env={"COLUMNS": "100"})
        assert run.returncode == 1, run.stderr
        lines = run.stdout.splitlines()
        if fmt == "full":
            assert max(map(len, lines)) <= 100
        for f in files:  # every file named as the user gave it (a long path may fold in full, never in concise)
            assert f in run.stdout.replace("\n", "") if fmt == "full" else any(ln.startswith(f) for ln in lines)


def test_compat_json_says_readable_and_compiles(tmp_path):
    release, path = _identity(tmp_path)
    run = _irreshape("compat", "--isolated", "--output-format", "json", "--release", f"2024.6,{release}", str(path))
    doc = json.loads(run.stdout)["files"][0]
    by = doc["releases"]
    assert by["2024.6.0"] == {**by["2024.6.0"], "readable": False, "compiles": None}
    assert by[release]["readable"] is True and by[release]["compiles"] is False
    assert by[release]["refusals"][0]["code"] == "IR611" and by[release]["refusals"][0]["stage"] == "compile"
    assert "to compile on CPU" in doc["summary"]


def test_the_reference_release_compile_crash_is_reported_by_the_plain_check(tmp_path):
    """An AvgPool-16 whose dilations openvino's own builder wrote empty: 2026.4.1 reads it without a word, and its
    CPU plugin kills the process in compile_model (measured): IR406 on the layer, stage compile."""
    from openvino import opset1, opset16

    from irreshape.api import check

    if REFUSED.get(("attr-empty", "AvgPool", 16, "dilations"), ((0, None, None),))[-1][1] != "crash":
        pytest.skip("the table does not say 2026.4.1 dies on it")
    x = opset1.parameter([1, 3, 8, 8], ov.Type.f32, name="x")
    pool = opset16.avg_pool(x, [1, 1], [0, 0], [0, 0], [2, 2], True)
    path = _save(tmp_path, ov.Model([opset1.result(pool)], [x]))
    assert 'dilations=""' in path.read_text()
    report = check(str(path), isolated=True, jobs=1)
    found = [(f.code, f.extra.get("stage"), f.layer.type) for f in report.files[0].findings]
    assert found == [("IR406", "compile", "AvgPool")]
    assert json.loads(report.render("json"))["files"][0]["findings"][0]["stage"] == "compile"
    # a plain check of a file 2026.4.1 compiles says nothing of the kind
    ones = opset16.avg_pool(x, [1, 1], [0, 0], [0, 0], [2, 2], True, dilations=[1, 1])
    path = _save(tmp_path, ov.Model([opset1.result(ones)], [x]), "ones")
    assert not check(str(path), isolated=True, jobs=1).files[0].findings
