"""The `irreshape` command line: check options, exit statuses, `rule` and `explain`."""

from __future__ import annotations

import json
import re

import pytest
from lintkit import BROKEN_CODES, FIXTURES, irreshape, pair

from irreshape.core.dims import parse_shape
from irreshape.shapes.reshape import Bound, reshape_v1
from irreshape.explain.openvino import derive
from irreshape.rules import ALL, BY_CODE

BROKEN = str(FIXTURES / "broken.xml")
GOOD = str(FIXTURES / "good.xml")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()  # a repository root: no configuration file is found above it by accident
    monkeypatch.chdir(tmp_path)


# -- exit statuses -----------------------------------------------------------------------------------
def test_exit_statuses(tmp_path):
    assert irreshape("check", "--isolated", GOOD).status == 0
    broken = irreshape("check", "--isolated", BROKEN)
    assert broken.status == 1 and broken.codes() == BROKEN_CODES
    assert irreshape("check", "--isolated", "--exit-zero", BROKEN).status == 0
    missing = irreshape("check", "--isolated", str(tmp_path / "nope.xml"))
    assert missing.status == 2 and "does not exist" in missing.stderr
    assert irreshape("check", "--isolated", "--frobnicate", GOOD).status == 2


def test_the_command_ends_with_its_status_and_every_byte_of_its_report(tmp_path):
    """The process skips the interpreter's teardown (os._exit) only after flushing: a report larger than
    any pipe buffer arrives whole, on stdout and in --output, with the status the in-process run gives."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # stdout buffered, as usual
    for i in range(40):
        pair(tmp_path / "many", "broken", name=f"m{i}")
    args = ["check", "--isolated", "--format", "json", "many"]
    inside = irreshape(*args)
    proc = subprocess.run([sys.executable, "-m", "irreshape", *args], capture_output=True, text=True, check=False,
                          env=env)
    assert len(proc.stdout) > 1 << 16 and proc.stdout == inside.stdout
    assert proc.returncode == inside.status == 1 and proc.stderr == ""
    out = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, "-m", "irreshape", *args, "--output", str(out)], capture_output=True,
                          text=True, check=False, env=env)
    assert proc.returncode == 1 and out.read_text(encoding="utf-8") == inside.stdout
    for status, extra in ((0, ["--exit-zero"]), (2, ["--frobnicate"])):
        proc = subprocess.run([sys.executable, "-m", "irreshape", *args, *extra], capture_output=True, text=True,
                              check=False, env=env)
        assert proc.returncode == status


def test_warnings_alone_exit_zero(tmp_path):
    only_warning = pair(tmp_path, "broken", edit=lambda t: t.replace("<dim>13</dim>", "<dim>12</dim>")
                        .replace("<dim>14</dim>", "<dim>12</dim>"))
    run = irreshape("check", "--isolated", str(only_warning))
    assert (run.status, run.codes()) == (0, ["IR105"])


# -- selection -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, codes, status", [
    (["--select", "IR101"], ["IR101"], 1),
    (["--select", "IR1", "--ignore", "IR106"], ["IR101", "IR105"], 1),
    (["--select", "IR106", "--ignore", "IR1"], ["IR106"], 1),  # the more specific selector wins
    (["--ignore", "IR1"], [], 0),
    (["--ignore", "reshape-output-mismatch,reshape-input-mismatch"], ["IR105"], 0),
    (["--select", "IR105", "--extend-select", "IR101"], ["IR101", "IR105"], 1),
    (["--select", "ALL", "--ignore", "IR105", "--ignore", "IR106"], ["IR101"], 1),
])
def test_select_ignore(args, codes, status):
    run = irreshape("check", "--isolated", *args, BROKEN)
    assert (run.codes(), run.status) == (codes, status)


def test_unknown_selector_is_a_usage_error():
    run = irreshape("check", "--isolated", "--select", "IR999", GOOD)
    assert run.status == 2 and "'IR999' is not a rule code" in run.stderr


# -- paths -----------------------------------------------------------------------------------------------
def test_bin_stands_for_its_xml(tmp_path):
    xml = pair(tmp_path / "m", "broken")
    orphan = tmp_path / "m" / "orphan.bin"
    orphan.write_bytes(b"\0" * 8)
    run = irreshape("check", "--isolated", str(xml.with_suffix(".bin")), str(xml), str(orphan))
    assert run.codes() == BROKEN_CODES  # one file, once; the orphan .bin is ignored
    assert "in 1 file:" in run.stdout
    only_orphan = irreshape("check", "--isolated", str(orphan))
    assert only_orphan.status == 0 and "in 0 files" in only_orphan.stdout


def test_directory_walk_and_default_path(tmp_path):
    pair(tmp_path / "a", "broken")
    pair(tmp_path / "b", "good")
    (tmp_path / "b" / "other.xml").write_text("<settings/>")  # XML that is not an IR: skipped
    run = irreshape("check", "--isolated")
    assert run.status == 1 and "in 2 files" in run.stdout
    assert [ln.split(":")[0] for ln in run.stdout.splitlines()[:3]] == ["a/broken.xml"] * 3


# -- output ------------------------------------------------------------------------------------------------
def test_output_file_and_quiet(tmp_path):
    out = tmp_path / "report.txt"
    for flag in ("--output", "-o", "--output-file"):
        run = irreshape("check", "--isolated", flag, str(out), BROKEN)
        assert run.status == 1 and run.stdout == ""
        lines = out.read_text().splitlines()
        assert len(lines) == 4 and lines[-1].startswith("Checked 2 reshape layers in 1 file: 2 errors, 1 warning")
    quiet = irreshape("check", "--isolated", "-q", BROKEN)
    assert len(quiet.stdout.splitlines()) == 3 and quiet.codes() == BROKEN_CODES


def test_statistics():
    run = irreshape("check", "--isolated", "--statistics", BROKEN, GOOD)
    assert run.status == 1
    assert run.stdout.splitlines() == ["1\tIR101\treshape-output-mismatch", "1\tIR105\treshape-declared-dynamic",
                                       "1\tIR106\treshape-input-mismatch"]
    as_json = json.loads(irreshape("check", "--isolated", "--statistics", "--format", "json", BROKEN).stdout)
    assert as_json[0] == {"code": "IR101", "name": "reshape-output-mismatch", "count": 1}


@pytest.mark.parametrize("flag, env, colored", [
    ("always", {}, True), ("never", {"FORCE_COLOR": "1"}, False), ("auto", {}, False),
    ("auto", {"FORCE_COLOR": "1"}, True), ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
])
def test_color(flag, env, colored):
    run = irreshape("check", "--isolated", "--format", "full", "--color", flag, BROKEN, env=env)
    assert bool(ANSI.search(run.stdout)) is colored
    assert ANSI.sub("", run.stdout).count("error[IR10") == 2


def test_default_format():
    assert irreshape("check", "--isolated", BROKEN).stdout.startswith(f"{BROKEN}:22:1: IR101 ")
    gh = irreshape("check", "--isolated", BROKEN, env={"GITHUB_ACTIONS": "true"})
    assert gh.stdout.startswith("::error file=") and gh.status == 1


def test_jobs_give_the_serial_result(tmp_path):
    for i in range(6):
        pair(tmp_path / f"d{i % 3}", "broken" if i % 2 else "good", name=f"m{i}")
    serial = irreshape("check", "--isolated", "--format", "json", "--jobs", "1", ".")
    parallel = irreshape("check", "--isolated", "--format", "json", "--jobs", "3", ".")
    assert serial.stdout == parallel.stdout and serial.status == parallel.status == 1
    assert [f["path"] for f in json.loads(parallel.stdout)["files"]] == \
        [f"d{i % 3}/m{i}.xml" for i in (0, 3, 1, 4, 2, 5)]


def test_jobs_share_the_files_between_this_process_and_the_workers_and_keep_their_order(monkeypatch):
    """Every process takes the next chunk when it is ready for one; the results come back in file order,
    each file checked once, whatever process took it (lint_file replaced before the workers fork)."""
    import multiprocessing
    import os
    import time

    from irreshape import lint
    from irreshape.lint.config import Settings

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the replaced lint_file reaches the workers only when they are forked")

    def fake(path, settings):
        time.sleep(0.002)
        return path, os.getpid()

    monkeypatch.setattr(lint, "lint_file", fake)
    files = [f"f{i:03}.xml" for i in range(150)]
    got = list(lint.check_files(files, Settings(enabled=frozenset(), jobs=3)))
    assert [path for path, _ in got] == files
    by = {pid for _, pid in got}
    assert os.getpid() in by and len(by) == 3  # this process and both workers checked some


def test_internal_error_is_ir900_unless_debug(monkeypatch):
    import irreshape.checks.reshape as ir_checks

    def boom(*a, **k):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(ir_checks, "check_layer", boom)
    run = irreshape("check", "--isolated", "--jobs", "1", BROKEN)
    assert run.status == 2 and "IR900" in run.codes() and "Traceback" not in run.stdout + run.stderr
    assert irreshape("check", "--isolated", "--jobs", "1", "--exit-zero", BROKEN).status == 2
    debug = irreshape("check", "--isolated", "--jobs", "1", "--debug", BROKEN)
    assert isinstance(debug.exception, RuntimeError)


def test_max_xml_size():
    run = irreshape("check", "--isolated", "--max-xml-size", "1KB", GOOD)
    assert run.status == 1 and run.codes() == ["IR004"]
    assert irreshape("check", "--isolated", "--max-xml-size", "lots", GOOD).status == 2


# -- irreshape rule ------------------------------------------------------------------------------------
@pytest.mark.parametrize("which", ["IR101", "ir101", "reshape-output-mismatch"])
def test_rule_doc(which):
    run = irreshape("rule", which)
    assert run.status == 0
    assert run.stdout.startswith("IR101 reshape-output-mismatch (default severity: error)\n\n")
    assert BY_CODE["IR101"].documentation in run.stdout


def test_rule_all():
    table = irreshape("rule", "--all").stdout.splitlines()
    assert len(table) == len(ALL) and table[0].split()[:3] == ["IR001", "xml-syntax-error", "error"]
    listed = json.loads(irreshape("rule", "--all", "--output-format", "json").stdout)
    assert [r["code"] for r in listed] == [r.code for r in ALL]
    assert listed[0]["documentation"] == ALL[0].documentation
    assert irreshape("rule", "IR999").status == 2
    assert irreshape("rule").status == 2


# -- irreshape explain ------------------------------------------------------------------------------------
def test_explain_by_name():
    run = irreshape("explain", BROKEN, "flatten")
    assert run.status == 0
    lines = run.stdout.splitlines()
    for expected in [
        "Reshape 'flatten' (id 2), line 22 of " + BROKEN,
        "input dims (port 0): [2,3,4]",
        "  from Parameter 'x' (id 0): its `shape` attribute '2,3,4'",
        "shape values: [0,-1]",
        "  from Const 'flatten/shape' (id 1): i64 at offset 0, 16 bytes",
        "special_zero: true",
        "  [0] 0 with special_zero: copies input dim 0 -> 2",
        "  -1 = product of the input dims, copied dims 0 left out: 3 x 4 = 12",
        "       / product of the other output dims: 1 (none)",
        "       = 12",
        "  volume: input 24 elements, output 24",
        "declared: [2,13]",
        "expected: [2,12]",
        "verdict:  mismatch",
        "  IR101 error (line 22): Reshape 'flatten' (id 2): declares [2,13], expected [2,12] (dim 1)",
    ]:
        assert expected in lines


def test_explain_by_id_names_the_recomputed_input():
    lines = irreshape("explain", BROKEN, "4").stdout.splitlines()
    assert "  from Reshape 'flatten' (id 2) port 2: the output irreshape recomputed for it" in lines
    assert "  [1] 3: taken as is -> 3" in lines and "       = 4" in lines
    assert [ln.split()[0] for ln in lines[lines.index("findings:") + 1:]] == ["IR105", "IR106"]


def test_explain_errors():
    run = irreshape("explain", BROKEN, "nope")
    assert run.status == 2 and "no layer with id or name 'nope'" in run.stderr


def test_explain_any_layer():
    run = irreshape("explain", BROKEN, "x")
    assert run.status == 0
    assert run.stdout.startswith("Parameter 'x' (id 0, opset1)")
    assert any(line.startswith("output port 0: declared [") and "OpenVINO infers [" in line
               for line in run.stdout.splitlines())


def test_derive_dynamic_and_literal_zero():
    shape = parse_shape("?,3,4")
    pattern = [Bound.value(0), Bound.value(-1)]
    steps = derive(shape, pattern, True, reshape_v1(shape, pattern, True))
    assert steps[0] == "[0] 0 with special_zero: copies input dim 0 -> ?"
    assert steps[-1] == "     = 12"
    shape = parse_shape("2,3,4")
    pattern = [Bound.value(0), Bound.value(5)]
    assert derive(shape, pattern, True, reshape_v1(shape, pattern, True)) == [
        "[0] 0 with special_zero: copies input dim 0 -> 2", "[1] 5: taken as is -> 5",
        "volume: input 24 elements, output 10: they differ"]
    literal = derive(parse_shape("0,4"), [Bound.value(0), Bound.value(-1)], False, None)
    assert literal[0] == "[0] 0 without special_zero: a literal 0 -> 0"
    assert literal[-1] == "     = no valid value"
