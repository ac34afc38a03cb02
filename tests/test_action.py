"""The GitHub Action (`action.yml`): its shell steps run as the runner runs them — each `run:` script with
its `env:` expressions filled in from the inputs (defaults from action.yml), by `bash --noprofile --norc
-eo pipefail`, in a temporary workspace.

Substituted, and only this, to stay off the network: the install step's `python -m pip install
REQUIREMENT` records REQUIREMENT instead of installing it (installing needs PyPI: the build backend and
the dependencies), and `python` is this interpreter, whose irreshape is the one under test. The test
checks what the step would install; everything else in the scripts runs as written.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from lintkit import pair

yaml = pytest.importorskip("yaml")
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
PIP_INSTALL = "python -m pip install"
EXPRESSION = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")


def _fill(text: str, inputs: dict[str, str]) -> str:
    """``${{ inputs.X }}`` and ``${{ github.action_path }}`` replaced; any other expression fails the test."""
    def value(m: re.Match) -> str:
        name = m.group(1)
        if name == "github.action_path":
            return str(ROOT)
        assert name.startswith("inputs."), f"an expression the test does not know: {name}"
        return inputs[name.removeprefix("inputs.")]
    return EXPRESSION.sub(value, text)


def run_action(workspace: Path, **given: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run the action's shell steps in ``workspace`` with these inputs; (the last step's process, the
    requirements the install step asked pip for)."""
    unknown = set(given) - set(ACTION["inputs"])
    assert not unknown, unknown
    inputs = {k: str(spec.get("default", "")) for k, spec in ACTION["inputs"].items()} | given
    record = workspace.parent / "pip-install.txt"
    record.unlink(missing_ok=True)
    bindir = workspace.parent / "bin"
    bindir.mkdir(exist_ok=True)
    (bindir / "python").unlink(missing_ok=True)
    # a script, not a symlink: an interpreter started through a link elsewhere does not find its venv's
    # pyvenv.cfg, and would run without the venv's site-packages (lxml, click)
    (bindir / "python").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    (bindir / "python").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(GITHUB_ACTIONS="true", PATH=f"{bindir}{os.pathsep}{env['PATH']}", PYTHONPATH=str(ROOT / "src"))
    steps = ACTION["runs"]["steps"]
    assert ACTION["runs"]["using"] == "composite"
    assert steps[0]["uses"].startswith("actions/setup-python@")  # a `uses:` step: the runner's, not ours
    proc = None
    for step in steps[1:]:
        assert step["shell"] == "bash"
        script = _fill(step["run"], inputs)
        if PIP_INSTALL in script:
            script = f'record() {{ printf "%s\\n" "$@" >> "{record}"; }}\n' + script.replace(
                PIP_INSTALL, "record")
        step_env = env | {k: _fill(str(v), inputs) for k, v in step.get("env", {}).items()}
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=workspace,
                              env=step_env, capture_output=True, text=True, timeout=120)
        if proc.returncode:
            break
    installed = record.read_text().splitlines() if record.exists() else []
    return proc, installed


@pytest.fixture
def workspace(tmp_path):
    ws = tmp_path / "workspace"
    (ws / ".git").mkdir(parents=True)
    return ws


def test_annotations_and_sarif_for_a_repository_with_a_lying_model(workspace):
    pair(workspace / "models", "broken", name="enc")
    pair(workspace / "models", "good", name="dec")
    proc, installed = run_action(workspace, paths="models", sarif="irreshape.sarif")
    assert proc.returncode == 1, proc.stderr
    # the install step installed the action's own checkout: a project named irreshape, at this ref
    assert installed == ["--disable-pip-version-check", str(ROOT)]
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"] == "irreshape"
    annotations = [ln for ln in proc.stdout.splitlines() if ln.startswith("::")]
    assert [a.split(" ", 1)[0] for a in annotations] == ["::error", "::warning", "::error"]
    assert all("file=models/enc.xml," in a for a in annotations)
    sarif = json.loads((workspace / "irreshape.sarif").read_text())
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["IR101", "IR105", "IR106"]
    assert results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "models/enc.xml"


def test_a_clean_repository_passes_and_args_reach_the_check(workspace):
    pair(workspace / "models", "good", name="dec")
    proc, _ = run_action(workspace)
    assert proc.returncode == 0 and "::" not in proc.stdout, proc.stdout + proc.stderr
    assert not (workspace / "irreshape.sarif").exists()

    pair(workspace / "models", "broken", name="enc")
    proc, _ = run_action(workspace, args="--select IR105", paths="models/enc.xml models/dec.xml")
    assert proc.returncode == 0  # IR105 is a warning: no error, exit 0
    assert [ln.split(" ", 1)[0] for ln in proc.stdout.splitlines() if ln.startswith("::")] == ["::warning"]


@pytest.mark.parametrize("version, requirement", [
    ("0.1.0", "irreshape==0.1.0"),
    ("irreshape>=0.1", "irreshape>=0.1"),
    ("git+https://example.invalid/irreshape@main", "git+https://example.invalid/irreshape@main"),
])
def test_the_version_input_chooses_what_pip_installs(workspace, version, requirement):
    proc, installed = run_action(workspace, version=version)
    assert proc.returncode == 0, proc.stderr
    assert installed == ["--disable-pip-version-check", requirement]
