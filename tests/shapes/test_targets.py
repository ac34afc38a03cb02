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


def _verdicts(runs: list) -> dict[str, dict]:
    """{release: its verdict} for the releases that refuse the file, from the labels' runs."""
    out = {}
    for k, (first, v) in enumerate(runs):
        end = runs[k + 1][0] if k + 1 < len(runs) else len(_LABELS["releases"])
        if v is not None:
            out.update(dict.fromkeys(_LABELS["releases"][first:end], v))
    return out


VERDICTS = {f: _verdicts(runs) for f, runs in _LABELS["files"].items()}
# the fixtures 2026.4.1 reads (the others are the main check's: a target reports only what differs from it)
READ = sorted(f for f, verdicts in VERDICTS.items() if LAST not in verdicts)


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
    words = {v["message"] for f in READ for v in VERDICTS[f].values()}
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
    verdicts = VERDICTS[rel]
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
        said = first.message.replace(model.path, "<path>")  # the harness writes the file's path so
        # the release's words, or their last line where they describe the node before it (a validation's words)
        if said != theirs["message"] and not theirs["message"].endswith("\n" + said):
            bad.append(f"{r}: words {first.message!r} vs {theirs['message']!r}")
        if theirs["name"] is not None:
            la = first.layer
            if la is None or la.name != theirs["name"] or (theirs["layer"] is not None
                                                          and la.id.rsplit("/", 1)[-1] != theirs["layer"]):
                bad.append(f"{r}: layer {la and (la.id, la.name)} vs {theirs['layer'], theirs['name']}")
        for x in ours:
            assert x.since is None or _version(x.since) > _version(r)
            assert re.fullmatch(r"opset|op|etype|precision|value|name|file", x.kind)
    assert bad == []


def _parse(tmp_path, xml: str):
    p = tmp_path / "m.xml"
    p.write_text(xml)
    return parse(str(p))


def _newest_op() -> tuple[int, str, int]:
    """(opset, op type, op version) of an op of the newest opset that some release lacks."""
    from irreshape.shapes.opsets import OPSETS
    from irreshape.shapes.releases import OP_SINCE, OPSET_SINCE
    n = max(OPSET_SINCE)
    t = min(t for t in OPSETS[n] if (n, t) not in OP_SINCE)
    return n, t, OPSETS[n][t]


def _release_lacking(since: int) -> str:
    return RELEASES[since - 1]


def test_the_table_names_only_what_2026_4_1_knows():
    from irreshape.shapes.opsets import DEFAULTS, OPSETS
    from irreshape.shapes.releases import ETYPE_SINCE, OP_SINCE, OPSET_SINCE, PRECISION_SINCE, VALUE_SINCE
    from irreshape.shapes.schema import ELEMENT_TYPES
    n = len(RELEASES)
    assert all(n > n_ and 0 < i < n for n_, i in OPSET_SINCE.items())
    assert all(t in OPSETS[k] and 0 < i < n for (k, t), i in OP_SINCE.items())
    assert all(t in ELEMENT_TYPES and 0 < i < n for t, i in {**ETYPE_SINCE, **PRECISION_SINCE}.items())
    assert all((op, v) in DEFAULTS and 0 < i < n for (op, v, _, _), i in VALUE_SINCE.items())


def test_an_opset_refusal_names_the_layer_and_the_release(tmp_path):
    from irtools.handmade import layer, net, param, result
    from irreshape.shapes.releases import OPSET_SINCE
    n, t, v = _newest_op()
    xml = net([param(0, "x", "1,2"), layer(1, "act", t, f"opset{n}", {}, ["1,2"], ["1,2"]), result(2, "1,2")],
              [(0, 0, 1, 0), (1, 1, 2, 0)])
    model = _parse(tmp_path, xml)
    old = _release_lacking(OPSET_SINCE[n])
    found = targets.refusals(model, old)
    assert [(r.kind, r.layer.id, r.what, r.since) for r in found] == [("opset", "1", f"{t}-{v}",
                                                                        RELEASES[OPSET_SINCE[n]])]
    assert "act" in found[0].message and f"opset{n}" in found[0].message
    assert targets.refusals(model, RELEASES[OPSET_SINCE[n]]) == []


def test_a_layer_no_result_depends_on_is_never_made(tmp_path):
    from irtools.handmade import layer, net, param, result
    n, t, _ = _newest_op()
    xml = net([param(0, "x", "1,2"), result(1, "1,2"), layer(2, "dead", t, f"opset{n}", {}, ["1,2"], ["1,2"])],
              [(0, 0, 1, 0), (0, 0, 2, 0)])
    assert targets.refusals(_parse(tmp_path, xml), RELEASES[0]) == []


def test_a_duplicate_name_is_found_before_any_node_is_made(tmp_path):
    from irtools.handmade import layer, net, param, result
    from irreshape.shapes.releases import CHECKS
    n, t, _ = _newest_op()
    xml = net([param(0, "x", "1,2"), layer(1, "act", t, f"opset{n}", {}, ["1,2"], ["1,2"]),
               layer(2, "x", "Relu", "opset1", {}, ["1,2"], ["1,2"]), result(3, "1,2")],
              [(0, 0, 1, 0), (1, 1, 2, 0), (2, 1, 3, 0)])
    model = _parse(tmp_path, xml)
    assert CHECKS.get("name:Relu")
    found = targets.refusals(model, RELEASES[0])
    assert [r.kind for r in found] == ["opset", "name"]  # in file order
    assert targets.first(model, found).kind == "name"  # as the release reports them
