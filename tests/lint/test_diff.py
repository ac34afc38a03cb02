"""Issue 38: ``irreshape diff`` on realistic pairs written with openvino's opset API and ``save_model``: each pair's
interface changes, oldest release, findings and contents, compared by codes and fields, and the interface checked
against OpenVINO's own reading of both files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from lintkit import irreshape

import irreshape as api
from irreshape.checks.compat import compat_file
from irreshape.checks.targets import short

ov = pytest.importorskip("openvino")
from diffkit import build, renumbered, resave  # noqa: E402  (openvino first)

WILD = Path(__file__).resolve().parents[3] / "shared" / "wild-ir"


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("diff")
    base = build(d / "base" / "m.xml")
    renumbered(base)
    out = {"base": base,
           "resaved": resave(base, d / "resaved" / "m.xml"),
           "resaved_f16": resave(base, d / "resaved_f16" / "m.xml", compress=True),
           "renamed": build(d / "renamed" / "m.xml", name="pixel_values"),
           "pinned": build(d / "pinned" / "m.xml", shape=(1, 3, 32, 32)),
           "f16_input": build(d / "f16_input" / "m.xml", etype=np.float16),
           "two_outputs": build(d / "two_outputs" / "m.xml", second_output=True),
           "int8": build(d / "int8" / "m.xml", weights="int8"),
           "int4": build(d / "int4" / "m.xml", weights="int4"),
           "maxpool14": build(d / "maxpool14" / "m.xml", pool=14),
           "traced": build(d / "traced" / "m.xml", traced=True)}
    edited = d / "edited" / "m.xml"  # a hand edit: flatten's output declares 1000 where OpenVINO infers 1024
    edited.parent.mkdir()
    text = base.read_text()
    start = text.index('name="flatten"')
    out_port = text.index("<output>", start)
    dim = text.index("<dim>1024</dim>", out_port)
    edited.write_text(text[:dim] + "<dim>1000</dim>" + text[dim + len("<dim>1024</dim>"):])
    shutil.copy(base.with_suffix(".bin"), edited.with_suffix(".bin"))
    out["edited"] = edited
    return out


def diff(old: Path, new: Path, *args: str) -> tuple[int, dict]:
    run = irreshape("diff", "--isolated", "-j", "1", "--output-format", "json", *args, str(old), str(new))
    assert run.exception is None and run.status in (0, 1), (run.status, run.stdout, run.stderr)
    return run.status, json.loads(run.stdout)


def one(doc: dict) -> dict:
    assert len(doc["files"]) == 1
    return doc["files"][0]


def openvino_ports(path: Path) -> list[tuple[tuple[str, ...], str, str]]:
    m = ov.Core().read_model(str(path))
    return [(tuple(sorted(p.get_names())), str(p.get_partial_shape()), p.get_element_type().get_type_name())
            for p in [*m.inputs, *m.outputs]]


PAIRS = ["resaved", "resaved_f16", "renamed", "pinned", "f16_input", "two_outputs", "int8", "int4", "maxpool14",
         "edited", "traced"]


def agrees_with_openvino(old: Path, new: Path) -> dict:
    """The diff of two files, checked against OpenVINO's readings of them: an interface change exactly where they
    differ, and every port shown with the names, shape and type OpenVINO reads for it."""
    f = one(diff(old, new)[1])
    a, b = openvino_ports(old), openvino_ports(new)
    assert bool(f["inputs"] or f["outputs"]) == (a != b), (a, b, f)
    read = {"old": {names[0]: (names, s, t) for names, s, t in a if names},
            "new": {names[0]: (names, s, t) for names, s, t in b if names}}
    for c in f["inputs"] + f["outputs"]:
        for side in ("old", "new"):
            if c[side] is not None and c[side]["names"]:
                name = c.get("old_name", c["name"]) if side == "old" else c["name"]
                assert read[side][name] == (tuple(c[side]["names"]), c[side]["shape"], c[side]["type"]), (c, read)
    return f


@pytest.mark.parametrize("variant", PAIRS)
def test_interface_is_what_openvino_reads(models, variant):
    agrees_with_openvino(models["base"], models[variant])


TODAY = Path(__file__).resolve().parents[1] / "data" / "today"


def test_stateless_to_stateful():
    """A stateful export: the KV cache's inputs and outputs removed, beam_idx added (no rename: another type and
    rank at that position), as OpenVINO reads both."""
    f = agrees_with_openvino(TODAY / "gpt2_stateless.xml", TODAY / "gpt2_stateful.xml")
    assert [(c["name"], c["change"]) for c in f["inputs"] if c["change"] != "removed"] == [("beam_idx", "added")]
    assert {c["change"] for c in f["outputs"]} == {"removed"} and len(f["outputs"]) == 4
    assert {op["op"] for op in f["ops"] if op["new"] > op["old"]} >= {"ReadValue-6", "Assign-6"}


@pytest.mark.parametrize(("variant", "etype", "groups"), [("llama_stateful_int4", "u4", [16]),
                                                           ("llama_stateful_mxfp4", "f4e2m1", [32])])
def test_compressed_exports_of_today(variant, etype, groups):
    f = agrees_with_openvino(TODAY / "llama_stateful.xml", TODAY / f"{variant}.xml")
    assert f["inputs"] == f["outputs"] == []
    assert f["weights"]["new"][etype]["group_sizes"] == groups


@pytest.mark.parametrize("compress", ["resaved", "resaved_f16"])
def test_a_resaved_file_changes_nothing_an_application_sees(models, compress):
    """read_model + save_model renumbers every layer (the original's ids run backwards from 100): no interface,
    oldest release or findings change, exit 0; the f16 re-save changes the weights' types and the Consts only."""
    assert 'id="100"' in models["base"].read_text() and 'id="100"' not in models[compress].read_text()
    status, doc = diff(models["base"], models[compress])
    f = one(doc)
    assert status == 0
    assert f["inputs"] == f["outputs"] == []
    assert f["oldest"]["old"] == f["oldest"]["new"] is not None
    assert f["findings"] == {"new": [], "fixed": []}
    assert f["deployment"]["pinned"] == {"new": [], "freed": []}
    assert f["layers"]["renamed"] == 0
    if compress == "resaved":
        assert f["status"] == "unchanged" and f["changed"] == [] and f["ops"] == []
        assert f["consts"]["changed"] == f["consts"]["added"] == f["consts"]["removed"] == 0
    else:
        assert "f16" in f["weights"]["new"] and "f16" not in f["weights"]["old"]
        assert f["weights"]["new"]["f16"]["consts"] == f["weights"]["old"]["f32"]["consts"]
        assert [op["op"] for op in f["ops"]] == ["Convert-0"]
        assert f["changed"] == ["contents"]
        assert diff(models["base"], models[compress], "--fail-on", "contents")[0] == 1


def test_an_input_renamed(models):
    status, doc = diff(models["base"], models["renamed"])
    f = one(doc)
    assert status == 1 and f["changed"][:1] == ["interface"]
    assert f["inputs"] == [{"name": "pixel_values", "change": "renamed", "old_name": "images",
                            "old": {"shape": "[?,3,32,32]", "type": "f32", "names": ["images"]},
                            "new": {"shape": "[?,3,32,32]", "type": "f32", "names": ["pixel_values"]},
                            "breaking": True}]
    assert f["outputs"] == []
    assert diff(models["base"], models["renamed"], "--fail-on", "findings,oldest")[0] == 0


def test_a_tensor_name_added_beside_the_old_one(models, tmp_path):
    """A name added beside the old one changes the input (what read_model lists) without breaking it; taking it
    away again breaks what addressed the input by it; the old name gone entirely is a rename."""
    both = build(tmp_path / "both" / "m.xml", aliases=("pixel_values",))
    f = one(diff(models["base"], both)[1])
    assert [(c["name"], c["change"], c["new"]["names"], c["breaking"]) for c in f["inputs"]] == [
        ("images", "changed", ["images", "pixel_values"], False)]
    back = one(diff(both, models["base"])[1])
    assert [(c["name"], c["change"], c["breaking"]) for c in back["inputs"]] == [("images", "changed", True)]
    other = one(diff(both, models["renamed"])[1])  # images gone, pixel_values kept: a rename to a name it had
    assert [(c["name"], c["change"], c.get("old_name"), c["breaking"]) for c in other["inputs"]] == [
        ("pixel_values", "renamed", "images", True)]


def test_a_dim_pinned(models):
    f = one(diff(models["base"], models["pinned"])[1])
    assert [(c["change"], c["old"]["shape"], c["new"]["shape"], c["breaking"]) for c in f["inputs"]] == [
        ("changed", "[?,3,32,32]", "[1,3,32,32]", True)]
    assert [(c["name"], c["old"]["shape"], c["new"]["shape"]) for c in f["outputs"]] == [("logits", "[?,10]", "[1,10]")]
    assert f["outputs"][0]["breaking"] is False  # an output narrowed: what read the old one reads it
    back = one(diff(models["pinned"], models["base"])[1])  # freed: the input widens (compatible), the output widens
    assert [c["breaking"] for c in back["inputs"]] == [False] and [c["breaking"] for c in back["outputs"]] == [True]


def test_a_type_changed(models):
    f = one(diff(models["base"], models["f16_input"])[1])
    assert [(c["name"], c["change"], c["old"]["type"], c["new"]["type"], c["breaking"]) for c in f["inputs"]] == [
        ("images", "changed", "f32", "f16", True)]
    assert f["outputs"] == []


def test_an_output_added(models):
    status, doc = diff(models["base"], models["two_outputs"])
    f = one(doc)
    assert status == 1
    assert f["outputs"] == [{"name": "features", "change": "added", "old": None,
                             "new": {"shape": "[?,1024]", "type": "f32", "names": ["features"]},
                             "breaking": False}]
    assert "breaking" not in f["changed"]
    assert diff(models["base"], models["two_outputs"], "--fail-on", "breaking")[0] == 0
    removed = one(diff(models["two_outputs"], models["base"])[1])["outputs"]
    assert [(c["name"], c["change"], c["breaking"]) for c in removed] == [("features", "removed", True)]


@pytest.mark.parametrize(("variant", "etype", "groups"), [("int8", "i8", None), ("int4", "u4", [32])])
def test_quantized_weights(models, variant, etype, groups):
    """A compressed variant keeps the interface; its weights' element types and the ops that dequantize show."""
    status, doc = diff(models["base"], models[variant])
    f = one(doc)
    assert f["inputs"] == f["outputs"] == [] and f["findings"] == {"new": [], "fixed": []}
    assert status == 0 and f["changed"] == ["contents"]
    assert etype in f["weights"]["new"] and etype not in f["weights"]["old"]
    assert f["weights"]["new"][etype].get("group_sizes") == groups
    gained = {op["op"] for op in f["ops"] if op["new"] > op["old"]}
    assert {"Convert-0", "Multiply-1"} <= gained
    assert f["consts"]["added"] > 0


def test_an_op_version_changes_the_oldest_release(models):
    """MaxPool-8 -> MaxPool-14: the oldest release is compat's judgement of each side, and it is raised."""
    status, doc = diff(models["base"], models["maxpool14"])
    f = one(doc)
    assert status == 1 and "oldest" in f["changed"] and f["inputs"] == f["outputs"] == []
    expected = []
    for path in (models["base"], models["maxpool14"]):
        c = compat_file(str(path))
        expected.append(short(c.releases[c.oldest()]))
    assert [f["oldest"]["old"], f["oldest"]["new"]] == expected
    assert expected[0] != expected[1] and f["oldest"]["breaking"] is True
    assert {(op["op"], op["old"], op["new"]) for op in f["ops"]} == {("MaxPool-8", 1, 0), ("MaxPool-14", 0, 1)}
    # the same layers, named by another run of the generator: the MaxPool of another version is the old one renamed
    assert f["layers"]["added"] == f["layers"]["removed"] == 0
    assert any(r["old"].startswith("MaxPool") and r["new"].startswith("MaxPool") for r in f["layers"]["renamed_names"])
    assert diff(models["base"], models["maxpool14"], "--fail-on", "interface,findings")[0] == 0


def test_a_hand_edit_brings_a_finding(models):
    status, doc = diff(models["base"], models["edited"])
    f = one(doc)
    assert status == 1 and f["changed"] == ["findings"] and f["inputs"] == f["outputs"] == []
    assert [(x["code"], x["layer"]["name"], x["layer"]["type"]) for x in f["findings"]["new"]] == [
        ("IR101", "flatten", "Reshape")]
    assert f["findings"]["new"][0]["path"] == str(models["edited"])
    assert f["findings"]["fixed"] == []
    fixed = one(diff(models["edited"], models["base"])[1])["findings"]
    assert [x["code"] for x in fixed["fixed"]] == ["IR101"] and fixed["new"] == []
    assert diff(models["base"], models["edited"], "--ignore", "IR101")[0] == 0
    assert diff(models["base"], models["edited"], "--fail-on", "new-findings")[0] == 1
    assert diff(models["edited"], models["base"], "--fail-on", "new-findings")[0] == 0  # only fixed
    assert diff(models["edited"], models["base"], "--fail-on", "findings")[0] == 1


def test_a_pinned_dim_and_a_scenario_now_rejected(models, tmp_path):
    """A Reshape traced at batch 1 pins the dynamic batch (IR503 appears under deployment); a configured what-if at
    batch 2 that the old file takes is rejected by the new one."""
    status, doc = diff(models["base"], models["traced"])
    f = one(doc)
    assert status == 1 and f["inputs"] == [] and "findings" in f["changed"]
    pinned = f["deployment"]["pinned"]
    assert [(x["code"], x["layer"]["name"]) for x in pinned["new"]] == [("IR503", "flatten")] and pinned["freed"] == []
    assert [x["code"] for x in f["findings"]["new"]] == ["IR503"]
    config = tmp_path / "irreshape.toml"
    config.write_text('[input-shapes]\nbatch2 = { images = "[2,3,32,32]" }\n')
    run = irreshape("diff", "--config", str(config), "-j", "1", "--output-format", "json", str(models["base"]),
                    str(models["traced"]))
    f = one(json.loads(run.stdout))
    scenario = f["deployment"]["scenarios"]
    assert run.status == 1 and scenario["new"] and scenario["fixed"] == []
    assert {(x["code"][:4], x["scenario"], x["layer"]["name"]) for x in scenario["new"]} == {("IR50", "batch2",
                                                                                             "flatten")}
    back = one(json.loads(irreshape("diff", "--config", str(config), "-j", "1", "--output-format", "json",
                                    str(models["traced"]), str(models["base"])).stdout))
    assert back["deployment"]["scenarios"]["fixed"] and back["deployment"]["pinned"]["freed"]


def test_the_api_gives_the_json_document(models):
    doc = api.diff(str(models["base"]), str(models["maxpool14"]), isolated=True, jobs=1)
    assert doc == diff(models["base"], models["maxpool14"])[1]
    with pytest.raises(api.UsageError):
        api.diff(str(models["base"]), isolated=True, jobs=1)


def test_two_processes_give_the_same_document(models):
    run = irreshape("diff", "--isolated", "-j", "2", "--output-format", "json", str(models["base"]),
                    str(models["edited"]))
    assert run.status == 1 and json.loads(run.stdout) == diff(models["base"], models["edited"])[1]


def test_directories_are_paired_by_relative_path(models, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for side, files in ((a, {"m": "base", "gone": "base", "sub/n": "base"}),
                        (b, {"m": "renamed", "new": "base", "sub/n": "resaved"})):
        for name, variant in files.items():
            dest = side / f"{name}.xml"
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(models[variant], dest)
            shutil.copy(models[variant].with_suffix(".bin"), dest.with_suffix(".bin"))
        (side / "notes.xml").write_text("<?xml version='1.0'?><notes/>")  # XML of another kind: not compared
    status, doc = diff(a, b)
    assert status == 1
    assert {f["path"]: f["status"] for f in doc["files"]} == {"gone.xml": "removed", "m.xml": "changed",
                                                              "new.xml": "added", "sub/n.xml": "unchanged"}
    added = next(f for f in doc["files"] if f["status"] == "added")
    assert added["old"] is None and {c["change"] for c in added["inputs"] + added["outputs"]} == {"added"}
    assert added["oldest"]["old"] is None and added["oldest"]["new"] is not None
    assert doc["summary"] == doc["summary"] | {"files": 4, "changed": 1, "added": 1, "removed": 1}


@pytest.mark.parametrize("args", [("one.xml",), ("a.xml", "b.xml", "c.xml"), ("--fail-on", "bogus", "A", "B"),
                                  ("missing.xml", "B"), ("A", "DIR")])
def test_bad_usage_exits_2(models, tmp_path, args):
    (tmp_path / "DIR").mkdir()
    paths = {"A": str(models["base"]), "B": str(models["renamed"]), "DIR": str(tmp_path / "DIR"),
             "missing.xml": str(tmp_path / "missing.xml")}
    run = irreshape("diff", "--isolated", "-j", "1", *[paths.get(x, x) for x in args])
    assert run.status == 2 and run.exception is None, run.stdout


def test_a_bad_input_file_is_a_finding(models, tmp_path):
    broken = tmp_path / "m.xml"
    broken.write_text(models["base"].read_text()[:2000])  # cut short: not well-formed
    status, doc = diff(models["base"], broken)
    f = one(doc)
    assert status == 1 and f["read"] == {"old": True, "new": False}
    assert [x["code"] for x in f["findings"]["new"]] == ["IR001"]
    assert f["oldest"]["new"] is None and f["inputs"] == f["outputs"] == []


@pytest.mark.skipif(not WILD.is_dir(), reason="../shared/wild-ir is absent")
@pytest.mark.parametrize(("old", "new"), [
    ("ET-Technologies__Computer-Pointer-Controller__gaze-estimation-adas-0002_FP16.xml",
     "ET-Technologies__Computer-Pointer-Controller__gaze-estimation-adas-0002_FP16-INT8.xml"),
    ("Ceyjie__testrecog__yolov8n.xml", "spcc-dev__ObjectDetection__yolov8n.xml"),
    ("Ceyjie__testrecog__yolov8n.xml", "Ceyjie__testrecog__yolov8n-pose.xml"),
])
def test_real_pairs_against_openvino(old, new):
    """Pairs of the wild IR set (an int8 variant, another export at another size, another head): an interface
    change exactly where OpenVINO's readings differ, and each side's oldest release compat's."""
    a, b = WILD / old, WILD / new
    f = agrees_with_openvino(a, b)
    for side, path in (("old", a), ("new", b)):
        c = compat_file(str(path))
        assert f["oldest"][side] == (short(c.releases[c.oldest()]) if c.oldest() is not None else None)
