"""`irreshape check --fix` / `--diff` through the CLI: exit statuses, what is written, what is left alone."""

import hashlib
import shutil
from pathlib import Path

from lintkit import irreshape, pair

ONEDNN = Path(__file__).resolve().parents[1] / "data" / "onednn" / "pattern__f32__shuffle_fusion.json"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_diff_changes_nothing_and_exits_1(tmp_path):
    xml = pair(tmp_path)
    before = digest(xml)
    r = irreshape("check", "--diff", str(xml))
    assert r.status == 1
    assert "-\t\t\t\t\t<dim>13</dim>" in r.stdout and "+\t\t\t\t\t<dim>12</dim>" in r.stdout
    assert digest(xml) == before
    assert "Would fix" in r.stderr


def test_fix_then_clean_and_idempotent(tmp_path):
    xml = pair(tmp_path)
    bin_before = digest(xml.with_suffix(".bin"))
    r = irreshape("check", "--fix", "--output-format", "concise", str(xml))
    # the output dims (IR101, IR105) and the consumer's input port on the same edge (IR106) are rewritten
    assert r.codes() == []
    assert r.status == 0
    assert "Fixed 2 layers in 1 file." in r.stderr
    fixed = xml.read_bytes()
    again = irreshape("check", "--fix", "--output-format", "concise", str(xml))
    assert xml.read_bytes() == fixed
    assert "Fixed 0 layers in 0 files." in again.stderr
    assert digest(xml.with_suffix(".bin")) == bin_before
    assert irreshape("check", "--diff", str(xml)).status == 0


def test_fix_leaves_suppressed_layers_alone(tmp_path):
    xml = pair(tmp_path)
    before = xml.read_bytes()
    r = irreshape("check", "--fix", "--ignore", "IR101,IR105,IR106", "--output-format", "concise", str(xml))
    assert xml.read_bytes() == before
    assert r.codes() == []
    # IR106 alone reported: its input port alone is rewritten, to what 'flatten' carries; the output that lies stays
    r = irreshape("check", "--fix", "--ignore", "IR101,IR105", "--output-format", "concise", str(xml))
    assert r.codes() == [] and "Fixed 1 layer in 1 file." in r.stderr
    changed = [(a, b) for a, b in zip(before.decode().splitlines(), xml.read_text().splitlines()) if a != b]
    assert changed == [("\t\t\t\t\t<dim>14</dim>", "\t\t\t\t\t<dim>12</dim>")]


def test_fix_and_diff_exclude_each_other(tmp_path):
    assert irreshape("check", "--fix", "--diff", str(pair(tmp_path))).status == 2


def test_fix_onednn_json(tmp_path):
    doc = tmp_path / "g.json"
    shutil.copy(ONEDNN, doc)
    text = doc.read_text()
    out_shape = '"shape": [\n            1,\n            256,\n            75,\n            25,\n            3\n          ],\n          "stride"'
    assert text.count(out_shape) == 2  # op 0's output, and op 1's copy of it
    broken = text.replace(out_shape, out_shape.replace("25,", "26,"), 1)
    assert broken != text
    doc.write_text(broken)
    r = irreshape("check", "--output-format", "concise", str(doc))
    assert r.status == 1 and r.codes() == ["IR101"]
    assert irreshape("check", "--diff", str(tmp_path)).status == 1
    assert irreshape("check", "--fix", str(tmp_path)).status == 0
    assert doc.read_text() == text
