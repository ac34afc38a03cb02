"""`--fix --target R` (irreshape.fixers.downgrade): each entry of the downgrade table, applied to a model with the
newer op version that openvino 2026.4.1 saved, gives a file that 2026.4.1 runs to the very same outputs on the
same inputs; where the entry's condition does not hold for the layer, the layer is left alone with the reason.
(That each old release reads and runs the rewritten files: scripts/prove_downgrades.py, its labels checked in
test_downgrade_labels.py.)"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import numpy as np
import pytest

from irreshape.fixers import downgrade as dg
from irreshape.frontends.openvino import parse
from irreshape.shapes.versions import resolve
from irtools import downgrades as D

CASES = sorted(D.CASES)


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("downgrade")
    for name in CASES:
        D.save(name, str(folder))
    return folder


def test_every_entry_has_a_case_where_it_applies():
    applies = {key for key, _, exact in D.CASES.values() if exact}
    assert applies == set(dg.REWRITES)


# the lines a rewrite may change: a <layer> tag, its <data>, a port's tensor names (Identity), an edge; and the
# lines of a removed layer
_ALLOWED = re.compile(r"^\s*(<layer |<data |<edge |<port |</?input>|</?output>|</port>|</layer>|<dim>)")
# a decomposition writes whole new layers: the same tags


@pytest.mark.parametrize("name", CASES)
def test_entry_computes_the_same(name, saved):
    key, _, exact = D.CASES[name]
    src = str(saved / f"{name}.xml")
    dst = str(saved / f"{name}.fixed.xml")
    done = D.rewrite(src, key, dst)
    before, after = Path(src).read_text().splitlines(), Path(dst).read_text().splitlines()
    if not exact:
        assert not done.plan.fixed and done.plan.refused, "the condition does not hold: left alone, with the reason"
        assert before == after
        return
    assert done.plan.fixed and not done.plan.refused
    entry = dg.REWRITES[key][0]
    kinds = [resolve(la.type, la.version) for la in parse(dst).every_layer()]
    assert key not in kinds
    if entry.to and not entry.decomposed:
        assert (entry.to, entry.to_version) in kinds
    changed = [ln[1:] for ln in difflib.unified_diff(before, after, lineterm="", n=0)
               if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
    assert changed and all(_ALLOWED.match(ln) for ln in changed), changed
    old_bin, new_bin = Path(src).with_suffix(".bin").read_bytes(), Path(dst).with_suffix(".bin").read_bytes()
    assert new_bin == old_bin + done.append and (entry.decomposed or not done.append)  # only appended to
    feeds = D.inputs(src)
    before, after = D.run(src, feeds), D.run(dst, feeds)
    if entry.safe:
        assert D.same_outputs(before, after)
    else:  # a decomposition: within the tolerance the table states
        rtol, atol = entry.tolerance
        assert rtol > 0 or atol > 0
        assert len(before) == len(after)
        assert all(a.shape == b.shape and np.allclose(a, b, rtol=rtol, atol=atol) for a, b in zip(before, after))


def test_the_form_names_an_opset_that_holds_it():
    from irreshape.shapes.opsets import OPSETS

    for entries in dg.REWRITES.values():
        for r in entries:
            if r.to and not r.decomposed:
                assert OPSETS[r.opset][r.to] == r.to_version, r.name
                assert all(OPSETS[n].get(r.to) != r.to_version for n in OPSETS if n < r.opset), r.name


def test_readme_lists_the_table():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for row in dg.describe():
        assert row in readme, row


def test_window_counts_are_openvinos():
    """The pooling window count the ceil_torch condition rests on, against 2026.4.1's MaxPool-14 shape inference
    over a sweep of sizes, kernels, strides, dilations and pads (every rounding type)."""
    import itertools

    import openvino.opset14 as o14

    for size, kernel, stride, dil, pb, pe in itertools.product((5, 6, 9, 10), (1, 2, 3), (1, 2, 3), (1, 2),
                                                               (0, 1), (0, 1, 2)):
        if (kernel - 1) * dil + 1 > size + pb + pe or pb >= kernel or pe >= kernel:
            continue
        x = o14.parameter([1, 1, size], np.float32)
        for mode in ("floor", "ceil", "ceil_torch"):
            got = o14.max_pool(x, [stride], [dil], [pb], [pe], [kernel], rounding_type=mode).get_output_shape(0)[2]
            assert dg._pool_out(size, kernel, stride, dil, pb, pe, mode) == got, (size, kernel, stride, dil, pb, pe, mode)


def _judge(refuse):
    """A target that refuses every layer ``refuse(type, version)`` says it does (the fixer's own judge in tests)."""
    def judge(model):
        return {la.id: [f"refuses {la.type} {la.version}"] for la in model.every_layer() if refuse(la.type, la.version)}
    return judge


def test_a_rewrite_the_target_still_refuses_is_not_made(saved):
    """The file rewritten is judged again: where the target refuses the older form too, the layer is left alone
    (with the reason) and nothing is written for it."""
    src = str(saved / "maxpool14_floor.xml")
    lines = Path(src).read_bytes().splitlines(keepends=True)
    model = parse(src)
    everything = _judge(lambda t, v: t == "MaxPool")  # MaxPool-8 is refused as well as MaxPool-14
    done = dg.downgrade(lines, model, ("R",), judge=everything, reads=lambda op, n: True)
    assert not done.plan.fixed and not done.plan.changes
    assert [r.reason for r in done.plan.refused] and "still refused" in done.plan.refused[0].reason
    only_new = _judge(lambda t, v: t == "MaxPool" and v == "opset14")
    done = dg.downgrade(lines, model, ("R",), judge=only_new, reads=lambda op, n: True)
    assert [r.type for r in done.plan.fixed] == ["MaxPool"] and not done.plan.refused


def test_a_form_the_target_does_not_read_is_not_chosen(saved):
    src = str(saved / "squeeze15.xml")
    lines = Path(src).read_bytes().splitlines(keepends=True)
    model = parse(src)
    done = dg.downgrade(lines, model, ("R",), judge=_judge(lambda t, v: v == "opset15"),
                        reads=lambda op, n: n != 1)  # a target without opset1
    assert not done.plan.fixed and "does not read" in done.plan.refused[0].reason


def test_skipped_layers_are_left(saved):
    """A layer whose target finding is suppressed (skip) is not rewritten."""
    src = str(saved / "maxpool14_floor.xml")
    lines = Path(src).read_bytes().splitlines(keepends=True)
    done = dg.downgrade(lines, parse(src), ("R",), judge=_judge(lambda t, v: v == "opset14"),
                        reads=lambda op, n: True, skip=lambda lid: True)
    assert not done.plan.fixed and not done.plan.changes and not done.plan.refused
