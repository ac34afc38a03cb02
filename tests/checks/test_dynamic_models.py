"""Issue 17's done-when on the dynamic-input models of ``tests/data/dynamic`` (torch exports with hard-coded
and shape-driven views, YOLO-like heads, small transformers, opset graphs; built by
``scripts/make_dynamic_models.py``, which also wrote OpenVINO's verdicts to ``truth.json``):

* every scenario of ``scenarios.json``: OpenVINO rejects it → an IR501 error on the node ``Model.reshape``
  names and on no other layer (an IR502 on a Reshape whose volume broke before it may come too); OpenVINO
  accepts it → exactly the IR502 errors of the spec's volume rule, nothing else;
* without a scenario: IR503 on at least 9 in 10 models whose dim holds at one value or its multiples only,
  and on no model that reshapes fine (a Squeeze of a dynamic dim excepted: OpenVINO keeps a non-1 dim and
  changes the rank silently; the issue counts it a pin, and the CPU plugin runs it at 1 only).

A few scenarios are re-checked against the live ``Model.reshape`` so that the committed truth cannot drift.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from irreshape.checks.openvino import check_path
from irreshape.core.results import Options, Scenario

DATA = Path(__file__).resolve().parents[1] / "data" / "dynamic"
TRUTH = json.loads((DATA / "truth.json").read_text())
SCENARIOS = json.loads((DATA / "scenarios.json").read_text())


def _errors(model: str, scenario: dict) -> set[tuple[str, str]]:
    options = Options(scenarios=(Scenario(scenario["name"], tuple(scenario["shapes"].items())),), scenarios_only=True)
    result = check_path(str(DATA / f"{model}.xml"), options)
    return {(f.code, f.layer.name) for f in result.findings if f.severity == "error" and f.layer}


@pytest.mark.parametrize("model", sorted(SCENARIOS))
def test_every_scenario_matches_openvino(model):
    for scenario in SCENARIOS[model]:
        truth = TRUTH[model]["scenarios"][scenario["name"]]
        errors = _errors(model, scenario)
        volume = {("IR502", n) for n in truth["volume_violations"]}
        if truth["ok"]:
            assert errors == volume, (scenario, errors, truth)
        else:
            assert ("IR501", truth["node"]) in errors, (scenario, errors, truth)
            assert errors - volume == {("IR501", truth["node"])}, (scenario, errors, truth)


def test_pinned_dim_warning_on_the_models_that_pin():
    pinning, missed, false = [], [], []
    for model, truth in TRUTH.items():
        kinds = {p["kind"] for p in truth.get("pins", {}).values()}
        warned = [f for f in check_path(str(DATA / f"{model}.xml")).findings if f.code == "IR503"]
        if any(k.startswith(("one:", "multiples:")) for k in kinds):
            pinning.append(model)
            if not warned:
                missed.append(model)
        elif kinds <= {"free"} and warned and not all(f.layer.type == "Squeeze" for f in warned):
            false.append(model)
    assert len(pinning) >= 10
    assert len(missed) <= len(pinning) // 10, missed
    assert false == []


def test_truth_is_openvinos():
    oracle = pytest.importorskip("irtools.scenarios")
    for model in ("pt_dfl_batch_baked", "ops_special_zero_batch_one", "pt_heads_shape_driven"):
        for scenario in SCENARIOS[model][:4]:
            verdict = oracle.openvino_verdict(DATA / f"{model}.xml", scenario["shapes"])
            truth = TRUTH[model]["scenarios"][scenario["name"]]
            assert (verdict.ok, verdict.node, sorted(verdict.volume_violations)) == \
                (truth["ok"], truth["node"], sorted(truth["volume_violations"]))
