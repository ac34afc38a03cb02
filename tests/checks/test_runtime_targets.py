"""Runtime targets: ``check --target R`` (IR6xx), ``target`` in the configuration and the API, ``irreshape compat``.

The fixtures (``tests/data/compat``, written by ``scripts/make_target_fixtures.py`` with openvino 2026.4.1) each
hold one thing older releases refuse; ``labels.json`` beside them is every release's own ``read_model`` verdict
on each (written by the same script with ``--labels``: CI has no old releases).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lintkit import irreshape

import irreshape as api
from irreshape.rules import targets as T
from irreshape.shapes.targets import canonical, known

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "compat"
LABELS = json.loads((DATA / "labels.json").read_text())
FIXTURES = sorted(LABELS["files"])
YOLO = str(DATA / "yolo_sppf_maxpool14.xml")
PLAIN = str(DATA / "plain_opset8.xml")
IR6 = re.compile(r"^IR6\d\d$")
# "Cannot create MaxPool layer sppf.m id:3 from ...": the layer a release names, where it names one
NAMED = re.compile(r"layer (\S+) id:(\S+)")
RELEASES = [r for r in LABELS["releases"] if r in known()]


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configuration file of the repository


def check_json(*args: str) -> tuple[int, list[dict]]:
    run = irreshape("check", "--isolated", "--output-format", "json", "-j", "1", *args)
    assert run.exception is None and run.status in (0, 1), run.stderr
    return run.status, [f for file in json.loads(run.stdout)["files"] for f in file["findings"]]


def layer_lines(path: str) -> dict[str, int]:
    """Layer id -> the line of its <layer> tag."""
    out = {}
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        m = re.search(r'<layer id="([^"]+)"', line)
        if m:
            out[m.group(1)] = n
    return out


def test_every_release_of_the_labels_is_known_and_canonical():
    assert RELEASES == list(LABELS["releases"])
    assert all(canonical(r) == r for r in known())
    assert canonical("2023.3") == "2023.3.0" and canonical("2022.3") is None and canonical("latest") is None


def test_yolo_maxpool14_refused_by_2023_3_on_its_layers_and_read_by_2024_0():
    status, found = check_json("--target", "2023.3", YOLO)
    lines = layer_lines(YOLO)
    refused = [f for f in found if IR6.match(f["code"])]
    assert status == 1 and refused
    assert {f["layer"]["type"] for f in refused} == {"MaxPool"}
    assert {f["line"] for f in refused} == {lines[f["layer"]["id"]] for f in refused}
    assert {f["target"] for f in refused} == {"2023.3"}
    assert all(f["severity"] == "error" for f in refused)
    status, found = check_json("--target", "2024.0", YOLO)
    assert status == 0 and not [f for f in found if IR6.match(f["code"])]


def test_without_a_target_nothing_changes():
    assert check_json(YOLO) == check_json("--target", "2024.0", YOLO)
    assert not any(IR6.match(f["code"]) for f in check_json(YOLO)[1])


@pytest.mark.parametrize("name", FIXTURES)
def test_target_agrees_with_each_releases_read_model(name):
    """For every release, IR6xx where its read_model refuses the fixture (on the layer it names), none where it
    reads it."""
    path = str(DATA / name)
    lines = layer_lines(path)
    status, found = check_json("--target", ",".join(RELEASES), path)
    by_target: dict[str, list[dict]] = {}
    for f in found:
        if IR6.match(f["code"]) and f["stage"] == "read":  # the compile stage's are test_compile_stage.py's
            by_target.setdefault(f["target"], []).append(f)
    for release in RELEASES:
        label = LABELS["files"][name][release]
        got = by_target.get(release, [])
        assert bool(got) == (label is not None), (release, label, got)
        named = NAMED.search(label or "")
        if named:
            assert named.group(2) in {f["layer"]["id"] for f in got if f["layer"]}, (release, label)
            assert all(f["line"] == lines[f["layer"]["id"]] for f in got if f["layer"])


def test_one_rule_per_kind_and_every_one_an_error_with_documentation():
    assert len(set(T.BY_KIND.values())) == len(T.BY_KIND)
    for rule in T.RULES:
        assert rule.severity == "error" and IR6.match(rule.code) and len(rule.documentation) > len(rule.summary)
        assert irreshape("rule", rule.code).status == 0


# -- bad targets: usage errors listing the known releases -----------------------------------------------------
@pytest.mark.parametrize("bad", ["2022.3", "2099.1", "latest", "2023.3.9", ""])
def test_a_bad_target_is_a_usage_error_naming_the_known_releases(bad):
    run = irreshape("check", "--isolated", "--target", bad or ",", YOLO)
    if not bad:  # an empty list is no target at all: the file is clean
        assert run.status == 0
        return
    assert run.status == 2 and run.exception is None
    assert bad in run.stderr and all(r in run.stderr for r in known())
    assert irreshape("compat", "--isolated", "--release", bad, YOLO).status == 2


@pytest.mark.parametrize("text", ['target = ["2022.3"]', "target = 5", 'target = ["2023.3", 7]', "target = [[]]"])
def test_a_bad_target_in_the_configuration_is_a_usage_error(tmp_path, text):
    (tmp_path / "irreshape.toml").write_text(text + "\n")
    run = irreshape("check", YOLO)
    assert run.status == 2 and run.exception is None and "target" in run.stderr


def test_the_configurations_targets_and_the_command_lines(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.irreshape]\ntarget = ["2023.3", "2024.6"]\n')
    run = irreshape("check", "--output-format", "json", "-j", "1", YOLO)
    assert run.status == 1
    found = json.loads(run.stdout)["files"][0]["findings"]
    assert {f["target"] for f in found if IR6.match(f["code"])} == {"2023.3"}
    run = irreshape("check", "--target", "2024.0", "-j", "1", YOLO)  # the command line's replace the file's
    assert run.status == 0
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / ".irreshape.toml").write_text('target = "2023.0"\n')
    assert irreshape("check", "--output-format", "concise", PLAIN).status == 0
    assert irreshape("check", "--output-format", "concise", YOLO).status == 1


def test_ignoring_the_ir6_rules_skips_the_targets(monkeypatch):
    import irreshape.checks.targets as ct

    calls = []
    monkeypatch.setattr(ct, "target_findings", lambda *a: calls.append(a) or [])
    assert irreshape("check", "--isolated", "-j", "1", "--target", "2023.3", "--ignore", "IR6", YOLO).status == 0
    assert not calls


def test_the_api_takes_a_target():
    report = api.check(YOLO, target="2023.3", isolated=True, jobs=1)
    assert report.exit_code == 1
    assert {f.code for f in report.files[0].findings} <= {r.code for r in T.RULES}
    assert {f.extra["target"] for f in report.files[0].findings} == {"2023.3"}
    assert api.check(YOLO, target=["2024.0", "2026.4"], isolated=True, jobs=1).exit_code == 0
    with pytest.raises(api.UsageError):
        api.check(YOLO, target="2022.3", isolated=True)


def test_a_plain_check_imports_neither_the_release_table_nor_rich():
    code = ("import sys, irreshape; r = irreshape.check(%r, isolated=True, jobs=1); "
            "print(r.exit_code, sorted(m for m in sys.modules if m.startswith(('rich', 'irreshape.shapes.targets', "
            "'irreshape.shapes.releases', 'irreshape.checks.compat', 'irreshape.checks.targets'))))" % YOLO)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split(" ", 1)
    assert out == ["0", "[]\n"]


# -- JSON, json-lines and SARIF ------------------------------------------------------------------------------
def test_json_lines_and_sarif_carry_the_target():
    sys.path.insert(0, str(ROOT / "tests" / "report"))
    from test_sarif import validate

    run = irreshape("check", "--isolated", "-j", "1", "--output-format", "json-lines", "--target", "2023.0", YOLO)
    lines = [json.loads(x) for x in run.stdout.splitlines()]
    assert lines and {x["target"] for x in lines if IR6.match(x["code"])} == {"2023.0"}
    run = irreshape("check", "--isolated", "-j", "1", "--output-format", "sarif", "--target", "2023.0", YOLO)
    doc = json.loads(run.stdout)
    validate(doc)
    results = [r for r in doc["runs"][0]["results"] if IR6.match(r["ruleId"])]
    assert results and all(r["properties"]["target"] == "2023.0" and r["level"] == "error" for r in results)


# -- irreshape compat ----------------------------------------------------------------------------------------
def compat_json(*args: str) -> tuple[int, dict]:
    run = irreshape("compat", "--isolated", "--output-format", "json", *args)
    assert run.exception is None, run.exception
    return run.status, json.loads(run.stdout)


def oldest(name: str) -> str | None:
    """The oldest release from which on every release reads the fixture (labels)."""
    first = None
    for release in reversed(RELEASES):
        if LABELS["files"][name][release] is not None:
            break
        first = release
    return first


def test_compat_matrix_agrees_with_every_release():
    status, doc = compat_json("--release", ",".join(RELEASES), *(str(DATA / n) for n in FIXTURES))
    assert doc["releases"] == RELEASES
    assert [Path(f["path"]).name for f in doc["files"]] == FIXTURES
    for f in doc["files"]:
        name = Path(f["path"]).name
        compiles = _compile_labels(f"compat/{name}")
        for release in RELEASES:
            assert f["releases"][release]["readable"] == (LABELS["files"][name][release] is None), (name, release)
        # the oldest release from which on every release reads it (its read_model's labels) and compiles it (the
        # compile labels, scripts/label_compiles.py)
        runs = [r for r in RELEASES if LABELS["files"][name][r] is None and compiles[RELEASES.index(r)] is None]
        expected = next((r for k, r in enumerate(RELEASES) if all(x in runs for x in RELEASES[k:])), None)
        assert f["oldest"] == expected, name
    assert status == 1  # some release shown refuses some file


def _compile_labels(name: str) -> list:
    from irtools.compilelabels import expand

    found = json.loads((ROOT / "tests" / "data" / "targets" / "compiles.json").read_text())["files"][name]
    return [None if s in ("read", "timeout") else s for s in expand(found)]


def test_compat_default_columns_are_one_per_minor_release():
    status, doc = compat_json(PLAIN)
    minors = {r.rsplit(".", 1)[0] for r in known()}
    assert len(doc["releases"]) == len(minors) and {r.rsplit(".", 1)[0] for r in doc["releases"]} == minors
    assert status == 0 and doc["files"][0]["oldest"] == known()[0]


def test_compat_exit_status_follows_the_releases_shown():
    yolo_oldest = oldest("yolo_sppf_maxpool14.xml")
    assert compat_json("--release", yolo_oldest, YOLO)[0] == 0
    before = RELEASES[RELEASES.index(yolo_oldest) - 1]
    assert compat_json("--release", before, YOLO)[0] == 1


def test_compat_line_names_the_oldest_release_and_the_layer():
    run = irreshape("compat", "--isolated", "--output-format", "concise", YOLO, PLAIN)
    assert run.status == 1
    yolo = next(ln for ln in run.stdout.splitlines() if ln.startswith(YOLO + ":"))
    short = oldest("yolo_sppf_maxpool14.xml").removesuffix(".0")
    assert short in yolo and "'sppf.m' (id 3)" in yolo
    # one line per file: its answer across the releases shown, as runs
    row = next(ln for ln in run.stdout.splitlines() if ln.startswith(YOLO + " "))
    before = RELEASES[RELEASES.index(oldest("yolo_sppf_maxpool14.xml")) - 1].removesuffix(".0")
    assert row.split()[1:] == ["2023.0-" + before, "IR601", "·", short + "+", "ok"]
    plain = next(ln for ln in run.stdout.splitlines() if ln.startswith(PLAIN + " "))
    assert plain.split()[1:] == ["2023.0+", "ok"]
    # the matrix on request: a column per release
    run = irreshape("compat", "--isolated", "--output-format", "concise", "--matrix", YOLO, PLAIN)
    header = run.stdout.splitlines()[0].split()
    assert header[0] == "file" and len(header) == 1 + len(compat_json(PLAIN)[1]["releases"])


def test_compat_full_is_a_table_on_request(monkeypatch):
    run = irreshape("compat", "--isolated", "--output-format", "full", "--color", "never", "--matrix", YOLO)
    assert run.status == 1 and "┃" in run.stdout and "sppf.m" in run.stdout
    run = irreshape("compat", "--isolated", "--output-format", "full", "--color", "never", YOLO)
    assert run.status == 1 and "┃" not in run.stdout and "IR601 · " in run.stdout


def test_compat_on_files_it_cannot_judge(tmp_path):
    (tmp_path / "broken.xml").write_text("<net><layers><layer")
    refused = ROOT / "examples" / "ir" / "bad_pattern_not_divisible.xml"  # 2026.4.1's read_model refuses it
    status, doc = compat_json(str(tmp_path / "broken.xml"), str(refused), PLAIN)
    by = {Path(f["path"]).name: f for f in doc["files"]}
    assert by["broken.xml"]["status"] == "unread" and by["bad_pattern_not_divisible.xml"]["status"] == "refused"
    assert by["bad_pattern_not_divisible.xml"]["refused_by_current"][0]["code"] == "IR103"
    assert all(v is None for f in ("broken.xml", "bad_pattern_not_divisible.xml") for v in by[f]["releases"].values())
    assert by["plain_opset8.xml"]["status"] == "readable" and status == 1


def test_compat_jobs_agree():
    paths = [str(DATA / n) for n in FIXTURES]
    assert compat_json("-j", "1", *paths) == compat_json("-j", "2", *paths)


# -- compat against the harness's labels (scripts/target_harness.py: every release's read_model on each file) ---
HARNESS = json.loads((ROOT / "tests" / "data" / "targets" / "labels.json").read_text())


def _refusing(runs: list) -> set[str]:
    """The releases that refuse a file, from the harness's runs ((first release index, verdict or None), ...)."""
    out: set[str] = set()
    for k, (first, verdict) in enumerate(runs):
        end = runs[k + 1][0] if k + 1 < len(runs) else len(HARNESS["releases"])
        if verdict is not None:
            out.update(HARNESS["releases"][first:end])
    return out


HARNESS_READ = sorted(f for f, runs in HARNESS["files"].items() if known()[-1] not in _refusing(runs))
# where irreshape's ordinary check says 2026.4.1 refuses a file it reads (measured): compat then judges no release
MAIN_CHECK_WRONG: dict[str, str] = {}
SAMPLE = sorted({*__import__("random").Random(30).sample(HARNESS_READ, min(60, len(HARNESS_READ))),
                 *MAIN_CHECK_WRONG})


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=MAIN_CHECK_WRONG[n]))
                                  if n in MAIN_CHECK_WRONG else n for n in SAMPLE])
def test_compat_agrees_with_the_harness(name):
    """A seeded sample of the harness's files that 2026.4.1 reads: each release's verdict and the oldest release."""
    from irreshape.checks.compat import compat_file

    refusing = _refusing(HARNESS["files"][name])
    got = compat_file(str(ROOT / name))
    assert got is not None and got.judged, got and got.summary
    assert {r for r in known() if not got.reads(r)} == refusing
    i = got.oldest(compiled=False)
    assert i is not None and all(r not in refusing for r in known()[i:])
    assert i == 0 or known()[i - 1] in refusing


def test_a_parameter_nothing_uses_is_made_by_the_reader_first(tmp_path):
    """The reader makes every Parameter, used or not, before the layers the Results depend on (measured with
    2023.3's wheel: an unused f8e5m2 Parameter is refused, and named before an f8e4m3 Parameter a Result uses
    even where it comes first in the file); a Const nothing uses it never makes."""
    ov = pytest.importorskip("openvino")
    from openvino import opset8

    def model(name: str, unused: str, used: str = "f32") -> str:
        x = opset8.parameter([2], ov.Type.f32, name="x")
        y = opset8.parameter([2], ov.Type.f32, name="y")
        path = tmp_path / f"{name}.xml"
        ov.save_model(ov.Model([opset8.result(opset8.relu(x))], [y, x], "m"), str(path))
        text = path.read_text()
        for layer, etype in (("y", unused), ("x", used)):
            at = text.index('element_type="f32"', text.index(f'name="{layer}"'))
            text = text[:at] + f'element_type="{etype}"' + text[at + len('element_type="f32"'):]
        path.write_text(text)
        return str(path)

    status, found = check_json("--target", "2023.3", model("unused", "f8e5m2"))
    assert status == 1 and [(f["code"], f["layer"]["name"]) for f in found if IR6.match(f["code"])] == \
        [("IR603", "y")]
    assert check_json("--target", "2025.0", model("unused_later", "f8e5m2"))[0] == 0  # read and compiled there
    path = model("both", "f8e5m2", "f8e4m3")
    doc = json.loads(subprocess.run([sys.executable, "-m", "irreshape", "compat", "--isolated", "--output-format",
                                     "json", "--release", "2023.3", path], capture_output=True, text=True).stdout)
    reported = doc["files"][0]["releases"]["2023.3.0"]
    assert reported["refusals"][reported["reported"]]["layer"]["name"] == "y"


def test_compat_judges_no_release_where_a_finding_says_read_model_refuses_downstream(tmp_path):
    """A Parameter whose `shape` makes a MaxPool downstream refused, its ports declaring the old dims: the
    Parameter's one finding (IR301) says read_model refuses the MaxPool (one root cause), and compat judges no release
    (2026.4.1 itself refuses the file)."""
    ov = pytest.importorskip("openvino")
    from openvino import opset8

    x = opset8.parameter([1, 2, 4, 4], ov.Type.f32, name="x")
    pool = opset8.max_pool(x, [1, 1], [1, 1], [0, 0], [0, 0], [2, 2], name="pool")
    path = tmp_path / "pool.xml"
    ov.save_model(ov.Model([opset8.result(pool.output(0))], [x]), str(path))
    path.write_text(path.read_text().replace('shape="1,2,4,4"', 'shape="1,2,4,1"', 1))
    status, found = check_json(str(path))
    assert status == 1 and [f["code"] for f in found if f["severity"] == "error"] == ["IR301"]
    assert "read_model refuses MaxPool 'pool'" in found[0]["message"]
    run = subprocess.run([sys.executable, "-m", "irreshape", "compat", "--isolated", "--output-format", "json",
                          str(path)], capture_output=True, text=True)
    doc = json.loads(run.stdout)["files"][0]
    assert run.returncode == 1 and doc["status"] == "refused" and doc["refused_by_current"][0]["code"] == "IR301"
