"""SARIF output: valid against the official SARIF 2.1.0 schema (vendored), with the rule registry as
metadata and paths relative to the repository root."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from lintkit import irreshape, pair

from irreshape.rules import ALL

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "data" / "sarif-schema-2.1.0.json").read_text())
REPO = Path(__file__).resolve().parents[2]
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


_CLS = jsonschema.validators.validator_for(SCHEMA)
_CLS.check_schema(SCHEMA)
VALIDATOR = _CLS(SCHEMA, format_checker=_CLS.FORMAT_CHECKER)


def validate(doc: dict) -> None:
    errors = sorted(VALIDATOR.iter_errors(doc), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


def sarif(*args: str) -> dict:
    run = irreshape("check", "--isolated", "--format", "sarif", *args)
    assert run.status in (0, 1), run.stderr
    doc = json.loads(run.stdout)
    validate(doc)
    return doc


@pytest.fixture
def repo(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_fixtures_validate_with_the_registry_as_rules(monkeypatch):
    monkeypatch.chdir(REPO)
    doc = sarif("tests/data/lint/broken.xml", "tests/data/lint/good.xml", "tests/data/lint/dangling.xml")
    assert doc["version"] == "2.1.0"
    [run] = doc["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in ALL]
    for descriptor, rule in zip(rules, ALL):
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["help"]["text"] == rule.documentation
        assert descriptor["defaultConfiguration"]["level"] == LEVELS[rule.severity]
        assert 0 < len(descriptor["fullDescription"]["text"]) <= 1024
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("IR101", "error"), ("IR105", "warning"), ("IR106", "error"), ("IR021", "error")]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc == {"artifactLocation": {"uri": "tests/data/lint/broken.xml", "uriBaseId": "%SRCROOT%"},
                   "region": {"startLine": 22, "startColumn": 1}}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == REPO.as_uri() + "/"


def test_uris_are_relative_to_the_repository_root(repo, monkeypatch, tmp_path_factory):
    pair(repo / "models dir", "broken", name="m")
    monkeypatch.chdir(repo / "models dir")
    outside = pair(tmp_path_factory.mktemp("outside"), "broken", name="o")
    doc = sarif("m.xml", str(outside))
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in doc["runs"][0]["results"]]
    assert uris[0] == {"uri": "models%20dir/m.xml", "uriBaseId": "%SRCROOT%"}
    assert uris[-1] == {"uri": outside.resolve().as_uri()}


def test_info_is_a_note_and_no_findings_is_valid(repo):
    unverified = pair(repo, "broken", name="u", edit=lambda t: t.replace(
        'name="split_heads/shape" type="Const"', 'name="split_heads/shape" type="Parameter"'))
    results = sarif("--select", "IR109", str(unverified))["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("IR109", "note")]
    assert sarif(str(pair(repo, "good")))["runs"][0]["results"] == []


def test_fingerprints_survive_line_shifts(repo):
    path = pair(repo, "broken", name="m")
    before = sarif(str(path))["runs"][0]["results"]
    text = path.read_text()
    path.write_text(text.replace("<layers>", "<layers>\n<!-- a -->\n<!-- b -->", 1))
    after = sarif(str(path))["runs"][0]["results"]
    assert [r["partialFingerprints"] for r in before] == [r["partialFingerprints"] for r in after]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in after] == [24, 51, 54]
    assert len({r["partialFingerprints"]["irreshape/v1"] for r in after}) == 3


def test_the_schema_rejects_what_it_should(monkeypatch):
    """The validator is live: a wrong level and a result without a message fail."""
    monkeypatch.chdir(REPO)
    doc = sarif("tests/data/lint/broken.xml")
    doc["runs"][0]["results"][0]["level"] = "fatal"
    del doc["runs"][0]["results"][1]["message"]
    with pytest.raises(AssertionError, match="'fatal' is not one of"):
        validate(doc)
