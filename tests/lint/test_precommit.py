"""A real pre-commit run with this repository's `.pre-commit-hooks.yaml`, in a temporary git repository.

The hooks are taken from the manifest as they are (id, files, types, entry options) and run as a
`repo: local` hook with `language: system`, so that the irreshape under test is the one that runs
(`language: python` would install irreshape from the network into a fresh virtualenv).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from lintkit import pair

yaml = pytest.importorskip("yaml")  # a dependency of pre-commit
pytestmark = pytest.mark.skipif(importlib.util.find_spec("pre_commit") is None or shutil.which("git") is None,
                                reason="needs pre-commit and git")

MANIFEST = Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml"


def local_config() -> str:
    hooks = yaml.safe_load(MANIFEST.read_text())
    assert [h["id"] for h in hooks] == ["irreshape", "irreshape-with-weights"]
    for hook in hooks:
        assert hook["language"] == "python" and hook["entry"].split()[0] == "irreshape"
        args = hook["entry"].split()[1:]
        hook["entry"] = shlex.join([sys.executable, "-m", "irreshape", *args])
        hook["language"] = "system"
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]})


@pytest.fixture
def git_repo(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR")}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "cache"), GIT_CONFIG_NOSYSTEM="1", HOME=str(tmp_path),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")

    def run(*cmd: str) -> subprocess.CompletedProcess:
        return subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=120)

    assert run("git", "init", "-q").returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(local_config())
    installed = run(sys.executable, "-m", "pre_commit", "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    run.repo = repo  # type: ignore[attr-defined]
    return run


def commit(run, *paths: str) -> subprocess.CompletedProcess:
    assert run("git", "add", *paths).returncode == 0
    return run("git", "commit", "-q", "-m", "change")


def test_broken_ir_is_refused_good_ir_passes(git_repo):
    repo = git_repo.repo
    pair(repo / "models", "broken", name="enc")
    refused = commit(git_repo, ".")
    out = refused.stdout + refused.stderr
    assert refused.returncode != 0
    assert "irreshape................" in out and "Failed" in out
    assert "models/enc.xml:22:1: IR101 Reshape 'flatten' (id 2): declares [2,13], expected [2,12] (dim 1)" in out
    assert git_repo("git", "rev-parse", "HEAD").returncode != 0  # nothing was committed

    (repo / "models" / "enc.xml").unlink()
    (repo / "models" / "enc.bin").unlink()
    pair(repo / "models", "good", name="enc")
    (repo / "models" / "settings.xml").write_text("<settings><a/></settings>\n")  # XML, not an IR: skipped
    passed = commit(git_repo, "-A", ".")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert git_repo("git", "log", "--oneline").stdout.count("\n") == 1


def test_a_bin_only_change_fires_the_weights_hook(git_repo):
    repo = git_repo.repo
    pair(repo / "models", "good", name="enc")
    assert commit(git_repo, ".").returncode == 0
    # new shape values in the .bin only: flatten's pattern [0,-1] becomes [-1,6] -> [4,6], declared [2,12]
    data = bytearray((repo / "models" / "enc.bin").read_bytes())
    data[0:16] = struct.pack("<2q", -1, 6)
    (repo / "models" / "enc.bin").write_bytes(bytes(data))
    refused = commit(git_repo, "models/enc.bin")
    out = refused.stdout + refused.stderr
    assert refused.returncode != 0
    assert "irreshape (xml + bin)" in out
    assert "models/enc.xml:22:1: IR101 Reshape 'flatten' (id 2): declares [2,12], expected [4,6]" in out
    # the xml-only hook had no file to check
    assert "irreshape....." in out and "(no files to check)Skipped" in out


def test_manifest_is_valid_for_pre_commit():
    check = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)],
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
