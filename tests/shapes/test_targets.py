"""Runtime targets (:mod:`irreshape.shapes.targets`) against each release's own ``read_model``, through the labels
scripts/target_harness.py wrote (tests/data/targets/labels.json: CI has none of the old releases): on every
fixture that 2026.4.1 reads, a release refuses the file iff irreshape finds a refusal, the one irreshape says the
release reports names the layer the release names, in the release's words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from irreshape.frontends.openvino import parse
from irreshape.shapes import targets
from irreshape.shapes.releases import RELEASES

ROOT = Path(__file__).resolve().parents[2]
LABELS = ROOT / "tests" / "data" / "targets" / "labels.json"
_LABELS = json.loads(LABELS.read_text()) if LABELS.exists() else {"files": {}, "releases": []}
LAST = RELEASES[-1]
# the fixtures 2026.4.1 reads (the others are the main check's: a target reports only what differs from it)
READ = sorted(f for f, verdicts in _LABELS["files"].items() if LAST not in verdicts)


def _version(r: str) -> tuple[int, ...]:
    return tuple(int(x) for x in r.split("."))


def test_known_is_every_release_oldest_first():
    known = targets.known()
    assert known[0] == "2023.0.0" and known[-1] == "2026.4.1"
    assert list(known) == sorted(set(known), key=_version)


def test_canonical():
    known = targets.known()
    for r in known:
        assert targets.canonical(r) == r
        assert targets.canonical(f" {r} ") == r
    minors = {r.rsplit(".", 1)[0] for r in known}
    for m in minors:
        assert targets.canonical(m) == (f"{m}.0" if f"{m}.0" in known else None)
    for bad in ("", "2022.3", "2022.3.2", "2023.3.9", "2026.5", "latest", "2023", "2023.3.0.0", "v2023.3"):
        assert targets.canonical(bad) is None


def test_labels_cover_every_release_and_the_fixtures():
    assert _LABELS["releases"] == list(RELEASES)
    assert len(READ) > 100
    # the labels hold refusals of every kind the harness met: an opset, an element type, a duplicate name
    words = {v["message"] for f in READ for v in _LABELS["files"][f].values()}
    assert any("unsupported opset" in w for w in words)
    assert any("name is not unique" in w for w in words)


def test_the_newest_release_refuses_nothing_here():
    model = parse(str(ROOT / READ[0]))
    assert targets.refusals(model, LAST) == []


@pytest.mark.parametrize("rel", READ)
def test_refusals_agree_with_each_release(rel):
    path = ROOT / rel
    if not path.exists():
        pytest.skip(f"{rel} is gone")
    model = parse(str(path))
    verdicts = _LABELS["files"][rel]
    bad = []
    for r in RELEASES[:-1]:
        theirs = verdicts.get(r)
        ours = targets.refusals(model, r)
        if bool(ours) != (theirs is not None):
            bad.append(f"{r}: release {'refuses: ' + theirs['message'] if theirs else 'reads it'}; irreshape "
                       f"{[x.what for x in ours]}")
            continue
        if theirs is None:
            continue
        first = targets.first(model, ours)
        assert first is not None
        if first.message != theirs["message"]:
            bad.append(f"{r}: words {first.message!r} vs {theirs['message']!r}")
        if theirs["name"] is not None:
            la = first.layer
            if la is None or la.name != theirs["name"] or (theirs["layer"] is not None
                                                          and la.id.rsplit("/", 1)[-1] != theirs["layer"]):
                bad.append(f"{r}: layer {la and (la.id, la.name)} vs {theirs['layer'], theirs['name']}")
        for x in ours:
            assert x.since is None or _version(x.since) > _version(r)
            assert re.fullmatch(r"opset|op|etype|precision|value|name", x.kind)
    assert bad == []
