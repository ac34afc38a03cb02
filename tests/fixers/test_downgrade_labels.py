"""The labels scripts/prove_downgrades.py wrote with every release's own wheel (tests/data/targets/downgrades.json;
CI has no old releases) agree with the downgrade table: each entry's cases were rewritten by that entry, every
release read and ran the rewritten file on CPU, the oldest release refused the original, and 2026.4.1 gave the same
outputs for both (bit for bit, or within the tolerance an unsafe entry states). The wild YOLO exports: after
``--fix --target 2023.3`` nothing was left that 2023.3 refuses, 2023.3 ran them, and 2026.4.1's outputs were the
original's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from irreshape.fixers import downgrade as dg
from irtools import downgrades as D

LABELS = Path(__file__).resolve().parents[1] / "data" / "targets" / "downgrades.json"


@pytest.fixture(scope="module")
def labels() -> dict:
    return json.loads(LABELS.read_text())


def test_every_applicable_case_is_labelled_by_its_entry(labels):
    applicable = {name: key for name, (key, _, exact) in D.CASES.items() if exact}
    assert set(labels["cases"]) == set(applicable)
    for name, key in applicable.items():
        entry = dg.REWRITES[key][0]
        got = labels["cases"][name]
        assert got["entry"] == entry.name and got["safe"] == entry.safe and got["fixed"] >= 1, name


def test_every_entry_is_proven_on_every_release(labels):
    releases = labels["releases"]
    assert len(releases) >= 2 and releases[-1] == "2026.4.1"
    proven = set()
    for name, got in labels["cases"].items():
        assert set(got["rewritten"]) == set(releases), name
        not_run = {r: v for r, v in got["rewritten"].items() if v != "runs"}
        assert not not_run, (name, not_run)
        assert got["close_on_2026.4.1"], name
        if got["safe"]:
            assert got["same_on_2026.4.1"], name
        if D.CASES[name][0] != ("TopK", 11):  # read by every release (opset11): the entry is never needed
            assert got["original"][releases[0]].startswith("refused"), name
        proven.add(got["entry"])
    assert proven == {entries[0].name for entries in dg.REWRITES.values()}


def test_wild_yolo_exports_run_on_2023_3_after_the_fix(labels):
    wild = labels.get("wild", {})
    if not wild:
        pytest.skip("the labels were written without ../shared/wild-ir")
    yolos = [name for name, got in wild.items() if got["refused"] == ["MaxPool-14"]]
    assert len(yolos) >= 8, yolos  # the Ultralytics exports of ../shared/wild-ir
    for name, got in wild.items():
        if name in yolos:
            assert got["left"] == [] and got["fixed_layers"] >= 1 and "not_run" not in got, name
        if got["left"] or "not_run" in got:
            continue
        assert got[got["target"]] == "runs", name
        assert got["same_on_2026.4.1"], name


def test_corpus_fixed_files_run_on_the_target_and_compute_the_same(labels):
    """Today's exporters' fixtures a target refuses: every one irreshape rewrote fully runs on the target, and
    computes the same on 2026.4.1 (bit for bit without --unsafe-fixes; within the tolerance with it)."""
    corpus = labels.get("corpus", {})
    if not corpus:
        pytest.skip("the labels were written without the corpus (--no-corpus)")
    for run, rows in corpus.items():
        release, unsafe = run.split(" ")[0], run.endswith("--unsafe-fixes")
        for name, row in rows.items():
            if row["left"] or "not_run" in row:
                continue
            # read by the target, always; run, where its CPU plugin runs the model at all (2023.0 reads and does
            # not run today's stateful LLM exports, whose state it cannot evaluate: not a rewrite's doing)
            assert not row[release].startswith("refused"), (run, name, row[release])
            assert row[release] == "runs" or row[release].startswith("reads; does not run"), (run, name)
            assert row["close_on_2026.4.1"], (run, name)
            if not unsafe:
                assert row["same_on_2026.4.1"], (run, name)


def test_a_renamed_duplicate_runs_everywhere(labels):
    got = labels["renamed"]
    assert got["fixed"] == 1 and got["left"] == [] and got["same_on_2026.4.1"]
    assert got["original"][got["target"]].startswith("refused")
    assert all(v == "runs" for v in got["rewritten"].values()) and set(got["rewritten"]) == set(labels["releases"])
