"""One decision in one place: whether a declared dim agrees with the expected one, and whether a layer is
fixable. Each test here failed before that decision was made once (the full report and ``--diff`` each
decided again, differently)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from irreshape.cli import main
from irreshape.core.dims import Agreement, Dim, agreement

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "ir"


@pytest.mark.parametrize(("declared", "expected", "answer"), [
    (4, Dim.of(4), Agreement.AGREES), (-1, Dim(1, 8), Agreement.AGREES), (-1, Dim.dynamic(), Agreement.AGREES),
    (-1, Dim.of(4), Agreement.LOOSE), (4, Dim(1, 8), Agreement.UNPROVEN), (4, Dim.dynamic(), Agreement.UNPROVEN),
    (9, Dim(1, 8), Agreement.CONTRADICTS), (5, Dim.of(4), Agreement.CONTRADICTS), (0, Dim(1, 8), Agreement.CONTRADICTS),
])
def test_agreement(declared, expected, answer):
    assert agreement(declared, expected) is answer


def test_full_report_marks_a_static_dim_inside_an_interval(tmp_path):
    """A finding for `4` where `1..8` is expected (IR101 then, IR304 now); the full report marked no row as
    differing."""
    xml = (EXAMPLES / "bad_wrong_dim_interval.xml").read_text().replace("<dim>9</dim>", "<dim>4</dim>")
    (tmp_path / "m.xml").write_text(xml)
    shutil.copy(EXAMPLES / "bad_wrong_dim_interval.bin", tmp_path / "m.bin")
    out = CliRunner().invoke(main, ["check", "--isolated", "-j", "1", "--output-format", "full", "--color", "never",
                                    str(tmp_path / "m.xml")]).output
    assert "IR304" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit() and "expected" not in line]
    assert ["0", "4", "1..8", "<-", "differs"] in rows and ["1", "12", "12"] in rows


def _onednn(tmp_path) -> Path:
    def tensor(tid, shape):
        return {"id": tid, "dtype": "f32", "shape": shape, "stride": [1] * len(shape), "layout_type": "strided",
                "property_type": "undef"}
    doc = {"version": "3.0.0", "engine_kind": "cpu", "fpmath_mode": "strict", "graph": [
        {"id": 1, "name": "sr", "kind": "StaticReshape",
         "attrs": {"shape": {"type": "s64[]", "value": [6, -1]}, "special_zero": {"type": "bool", "value": 0}},
         "inputs": [tensor(0, [2, 3, 4])], "outputs": [tensor(1, [6, 5])]},  # expected [6,4]: fixable
        {"id": 2, "name": "dr", "kind": "DynamicReshape", "attrs": {"special_zero": {"type": "bool", "value": 0}},
         "inputs": [tensor(2, [2, 3]), tensor(3, [3])], "outputs": [tensor(4, [6, 1])]},  # rank 2 for 3: not fixable
    ]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc, indent=1))
    return path


def test_diff_counts_only_the_layers_it_changes(tmp_path):
    """`--diff` said "Would fix 2 layers" for one change: a DynamicReshape IR102 (no expected dims) was counted."""
    path = _onednn(tmp_path)
    result = CliRunner().invoke(main, ["check", "--isolated", "-j", "1", "--diff", str(path)])
    assert result.exit_code == 1
    assert "Would fix 1 layer in 1 file." in result.output
    assert result.output.count("\n-") == 1 and '"shape": [\n    6,\n    4\n' not in result.output
    before = path.read_bytes()
    fixed = CliRunner().invoke(main, ["check", "--isolated", "-j", "1", "--fix", "--output-format", "concise",
                                      str(path)])
    assert "Fixed 1 layer in 1 file." in fixed.output and path.read_bytes() != before
    assert "IR101" not in fixed.output and "IR102" in fixed.output
