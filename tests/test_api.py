"""The Python API (`irreshape.check`) runs what `irreshape check` runs: the same JSON, the same exit status."""

from __future__ import annotations

import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import irreshape

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "ir"


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "irreshape", "check", "--isolated", "--output-format", "json",
                           *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("name", ["bad_wrong_dim.xml", "ok_flatten_static.xml", "bad_short_bin.xml"])
def test_check_is_the_cli(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    report = irreshape.check(f"examples/ir/{name}", isolated=True)
    cli = _cli(f"examples/ir/{name}")
    assert report.to_json() == cli.stdout
    assert report.exit_code == cli.returncode


def test_the_examples_folder_with_options_and_an_executor(monkeypatch):
    monkeypatch.chdir(ROOT)
    cli = _cli("--select", "IR1", "--ignore", "IR109", "examples/ir")
    with ThreadPoolExecutor(2) as pool:
        report = irreshape.check("examples/ir", isolated=True, select="IR1", ignore=["IR109"], executor=pool)
    assert report.to_json() == cli.stdout and report.exit_code == cli.returncode == 1
    assert [f.path for f in report.files] == sorted(f.path for f in report.files)
    codes = {f.code for r in report.files for f in r.findings}
    assert codes and all(c.startswith("IR1") and c != "IR109" for c in codes)
    assert report.counts["errors"] == sum(f.severity == "error" for r in report.files for f in r.findings)


def test_exit_zero_and_a_clean_file(tmp_path):
    for suffix in (".xml", ".bin"):
        shutil.copy(EXAMPLES / f"bad_wrong_dim{suffix}", tmp_path / f"m{suffix}")
    assert irreshape.check(str(tmp_path / "m.xml"), isolated=True).exit_code == 1
    assert irreshape.check(str(tmp_path / "m.xml"), isolated=True, exit_zero=True).exit_code == 0
    assert irreshape.check(str(tmp_path / "m.xml"), isolated=True, ignore="IR101").exit_code == 0


def test_bad_options_are_usage_errors(monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(irreshape.UsageError, match="IR999"):
        irreshape.check("examples/ir", isolated=True, select="IR999")
    with pytest.raises(irreshape.UsageError):
        irreshape.check("examples/ir", config="pyproject.toml", isolated=True)


def test_the_api_is_not_imported_by_the_command_line():
    out = subprocess.run([sys.executable, "-c", "import sys, irreshape.cli; print('irreshape.api' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
