"""Issue 38: ``irreshape diff``'s formats. The markdown is a table GitHub renders (every row as many cells as its
header, hostile names kept in their cells); the github format writes workflow commands on the new file (a new
finding at its line, a changed input at its Parameter's); every format exits as the JSON run does."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from lintkit import irreshape

from irreshape.lint.config import project_root
from irreshape.report import repo_path

pytest.importorskip("openvino")
from diffkit import build  # noqa: E402  (openvino first)

HOSTILE = "in|put`*x_<b>"
COMMAND = re.compile(r"^::(error|warning|notice) (file=[^,:]+,)?line=(\d+)(,col=\d+)?,title=([^:]+)::(.+)$")


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> tuple[Path, Path]:
    """The old file; the new one renames the input (to a hostile name), pins its batch, adds an output and brings
    an IR101 by a hand edit of flatten's output."""
    d = tmp_path_factory.mktemp("formats")
    old = build(d / "old" / "m.xml")
    new = build(d / "new" / "m.xml", name=HOSTILE, shape=(1, 3, 32, 32), second_output=True)
    text = new.read_text()
    out_port = text.index("<output>", text.index('name="flatten"'))
    dim = text.index("<dim>1024</dim>", out_port)
    new.write_text(text[:dim] + "<dim>1000</dim>" + text[dim + len("<dim>1024</dim>"):])
    return old, new


def run(fmt: str, old: Path, new: Path, *args: str):
    r = irreshape("diff", "--isolated", "-j", "1", "--output-format", fmt, *args, str(old), str(new))
    assert r.exception is None, r.exception
    return r


def cells(row: str) -> list[str]:
    """A GitHub table row's cells: split at the pipes not escaped by a backslash (inside code spans too, as GitHub
    does)."""
    assert row.startswith("|") and row.endswith("|"), row
    return re.split(r"(?<!\\)\|", row[1:-1])


def test_markdown_is_a_table_github_renders(pair):
    old, new = pair
    r = run("markdown", old, new)
    assert r.status == 1
    lines = r.stdout.splitlines()
    assert lines[0].startswith("## ")
    tables, current = [], []
    for line in lines + [""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    assert len(tables) == 2  # the files, then the file's inputs and outputs
    for table in tables:
        width = len(cells(table[0]))
        assert all(re.fullmatch(r"-+", c.strip(" :")) for c in cells(table[1]))  # the delimiter row
        assert all(len(cells(row)) == width for row in table), table
    interface = tables[1][2:]
    assert len(interface) == 3  # the input renamed, logits narrowed, features added
    assert any("in\\|put" in row for row in interface)  # the name's pipe escaped, in its cell
    assert "IR101" in r.stdout and "flatten" in r.stdout


def test_github_annotations_on_the_new_file(pair):
    old, new = pair
    r = run("github", old, new)
    assert r.status == 1
    parsed = [COMMAND.match(line) for line in r.stdout.splitlines()]
    assert all(parsed), r.stdout
    doc = json.loads(run("json", old, new).stdout)["files"][0]
    finding = doc["findings"]["new"][0]
    ir101 = [m for m in parsed if "IR101" in m.group(5)]
    assert len(ir101) == 1 and ir101[0].group(1) == "error" and ir101[0].group(3) == str(finding["line"])
    assert ir101[0].group(2) == f"file={repo_path(str(new), project_root())},"
    param_line = next(i for i, line in enumerate(new.read_text().splitlines(), 1) if 'type="Parameter"' in line)
    inputs = [m for m in parsed if "input" in m.group(5)]
    assert [(m.group(1), m.group(3)) for m in inputs] == [("warning", str(param_line))]  # renamed: breaking
    assert {m.group(1) for m in parsed if "output" in m.group(5)} == {"notice"}  # narrowed, added: compatible


@pytest.mark.parametrize("fmt", ["full", "concise", "json", "markdown", "github"])
def test_every_format_exits_alike(pair, fmt, tmp_path):
    old, new = pair
    assert run(fmt, old, new).status == 1
    assert run(fmt, old, new, "--exit-zero").status == 0
    assert run(fmt, old, old).status == 0
    out = tmp_path / "report.txt"
    assert run(fmt, old, new, "-o", str(out)).status == 1 and out.read_text()


def test_concise_and_full_name_the_changes(pair):
    old, new = pair
    for fmt in ("concise", "full"):
        text = run(fmt, old, new).stdout
        assert "IR101" in text and "features" in text and "[1,3,32,32]" in text, text


def test_an_unread_side_and_a_missing_bin(pair, tmp_path):
    old, _ = pair
    new = tmp_path / "m.xml"
    shutil.copy(old, new)  # no .bin beside it: IR010, read by no release
    for fmt in ("markdown", "github", "full", "concise"):
        r = run(fmt, old, new)
        assert r.status == 1 and "IR010" in r.stdout, (fmt, r.stdout)
