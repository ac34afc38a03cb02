"""Analyses on demand (issue 24): each rule declares the analyses it needs, and only those a selected rule
needs run; what a selected rule reports is the same as in a run of every rule."""

from __future__ import annotations

from pathlib import Path

import pytest

import irreshape
from irreshape.checks import graphcheck, openvino, runtime
from irreshape.core.findings import GRAPH, PLUGIN, PROBES, SCENARIOS, TARGETS
from irreshape.rules import ALL, analyses

DATA = Path(__file__).resolve().parents[1] / "data"
DYNAMIC, MODELS = DATA / "dynamic", DATA / "models"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "ir"


def test_each_family_declares_what_it_needs():
    needs = {r.code: r.needs for r in ALL}
    assert all(needs[c] == {GRAPH} for c in needs if c.startswith("IR3"))
    assert all(needs[c] == {PLUGIN} for c in needs if c.startswith("IR4"))
    assert needs["IR501"] == needs["IR502"] == {SCENARIOS} and needs["IR503"] == {PROBES}
    assert all(needs[c] == {TARGETS} for c in needs if c.startswith("IR6"))
    assert all(not needs[c] for c in needs if c[2] in "012")  # the file, the Reshape family: always read
    assert analyses(["IR101", "IR105", "IR014"]) == frozenset()
    assert analyses(["IR301", "IR503"]) == {GRAPH, PROBES}


def _calls(monkeypatch, module, name):
    calls = []
    real = getattr(module, name)

    def spy(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


@pytest.mark.parametrize("select,probes,graph,plugin", [
    (["IR101"], False, False, False),
    (["IR503"], True, False, False),
    (["IR301"], False, True, False),
    (["IR403"], False, False, True),
    (None, True, True, True),
])
def test_only_the_analyses_a_selected_rule_needs_run(monkeypatch, select, probes, graph, plugin):
    pinned = _calls(monkeypatch, graphcheck, "pinned_dims")
    layers = _calls(monkeypatch, graphcheck.LayerChecks, "check")  # every other layer, one at a time
    cpu = _calls(monkeypatch, runtime, "_plugin_output")
    kwargs = {} if select is None else {"select": select}
    irreshape.check(str(DYNAMIC / "pt_dfl_batch_baked.xml"), jobs=1, isolated=True, **kwargs)
    assert (bool(pinned), bool(layers), bool(cpu)) == (probes, graph, plugin)


def test_configured_scenarios_run_only_for_their_rules(monkeypatch, tmp_path):
    calls = _calls(monkeypatch, openvino, "check_model")
    model = str(DYNAMIC / "pt_dfl_batch_baked.xml")
    (tmp_path / "irreshape.toml").write_text('[input-shapes]\nb2 = { x = "[2,64,8400]" }\n')
    config = str(tmp_path / "irreshape.toml")
    irreshape.check(model, jobs=1, config=config, select=["IR101"])
    assert len(calls) == 1  # the ordinary check alone
    irreshape.check(model, jobs=1, config=config, select=["IR501"])
    assert len(calls) == 3  # and the scenario's


def _lying(tmp_path) -> str:
    """A model whose ReLU declares [1,5] where OpenVINO infers [1,4] (IR301)."""
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    np = pytest.importorskip("numpy")
    x = ops.parameter([1, 4], np.float32, name="x")
    path = tmp_path / "lie.xml"
    ov.save_model(ov.Model([ops.result(ops.relu(ops.relu(x), name="r"))], [x]), str(path))
    text = path.read_text()
    at = text.index("<output>", text.index('name="r"'))
    path.write_text(text[:at] + text[at:].replace("<dim>4</dim>", "<dim>5</dim>", 1))
    return str(path)


@pytest.mark.parametrize("family", ["IR1", "IR3", "IR4", "IR5", "IR0"])
def test_a_selected_family_reports_what_a_full_run_does(family, tmp_path):
    paths = [str(DYNAMIC), str(EXAMPLES), *sorted(str(p) for p in MODELS.glob("*.xml"))[:6], _lying(tmp_path)]
    full = irreshape.check(*paths, jobs=1, isolated=True)
    part = irreshape.check(*paths, jobs=1, isolated=True, select=[family])

    def found(report):
        return sorted((file.path, f.line, f.code, f.message) for file in report.files for f in file.findings
                      if f.code.startswith(family))

    assert found(part) == found(full)
    assert found(full) or family == "IR0"
