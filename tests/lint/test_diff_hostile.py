"""Issue 38: every hostile or broken file of the corpus (tests/hostile/make_corpus.py) as the new side of ``irreshape
diff``, against the corpus's valid base: the finding ``check`` reports on it comes out as a new finding, never a
traceback, and the file an attacker points at is never shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile.make_corpus import BASE, BASE_BIN, CASES, SECRET, Case, restore_permissions, unsupported
from lintkit import irreshape


@pytest.fixture
def made(tmp_path: Path):
    def make(case: Case) -> tuple[Path, Path]:
        if why := unsupported(case):
            pytest.skip(why)
        base = tmp_path / "base" / "model.xml"
        base.parent.mkdir()
        base.write_text(BASE)
        base.with_suffix(".bin").write_bytes(BASE_BIN)
        (tmp_path / "case").mkdir()
        return base, case.write(tmp_path / "case")

    yield make
    restore_permissions(tmp_path)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_hostile_new_side(case: Case, made) -> None:
    base, target = made(case)
    old = base.parent if target.is_dir() else base
    run = irreshape("diff", "--isolated", "-j", "1", *case.args, "--output-format", "json", str(old), str(target))
    assert run.exception is None, run.exception
    assert SECRET not in run.stdout + run.stderr
    if case.exit == 0:  # not an IR: nothing to compare, or only the base's side
        assert run.status in (0, 1, 2)
        return
    if case.args:  # an option's limit (--max-xml-size) holds on both sides alike: the same finding, no change
        assert run.status == 0 and json.loads(run.stdout)["files"][0]["read"] == {"old": False, "new": False}
        return
    assert run.status == 1, (run.stdout, run.stderr)
    doc = json.loads(run.stdout)
    new = {f["code"] for file in doc["files"] for f in file["findings"]["new"]}
    assert set(case.codes) <= new, (case.codes, new)
