"""A real pre-commit run with this repository's `.pre-commit-hooks.yaml`, in a temporary git repository,
and one of the README's first pre-commit snippet as the README shows it.

The manifest's hooks are taken as they are (id, files, types, entry options) and run as a `repo: local`
hook with `language: system`, so that the irreshape under test is the one that runs (`language: python`
would install irreshape from the network into a fresh virtualenv). The README's snippet runs with its own
`language: python`: see `test_the_readmes_first_snippet_runs_as_pasted` for the little it changes.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import site
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from lintkit import pair

yaml = pytest.importorskip("yaml")  # a dependency of pre-commit
pytestmark = pytest.mark.skipif(importlib.util.find_spec("pre_commit") is None or shutil.which("git") is None,
                                reason="needs pre-commit and git")

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
README = ROOT / "README.md"


def readme_snippets() -> list[str]:
    """The YAML blocks of the README's pre-commit section, as written there."""
    section = README.read_text().split("\n### pre-commit\n", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"```yaml\n(.*?)```", section, re.S)


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
def git_env(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR")}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "cache"), GIT_CONFIG_NOSYSTEM="1", HOME=str(tmp_path),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    return env


@pytest.fixture
def git_repo(tmp_path, git_env):
    repo = tmp_path / "repo"
    repo.mkdir()
    env = git_env

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


def test_the_readmes_snippets_are_the_manifests_hooks():
    local, remote = (yaml.safe_load(text) for text in readme_snippets())
    manifest = {h["id"]: h for h in yaml.safe_load(MANIFEST.read_text())}
    [repo] = local["repos"]
    [hook] = repo["hooks"]
    assert repo["repo"] == "local" and hook["language"] == "python" and hook["additional_dependencies"] == ["irreshape"]
    published = manifest[hook["id"]]
    for key in ("name", "entry", "language", "types", "require_serial"):
        assert hook[key] == published[key], key
    [repo] = remote["repos"]
    assert repo["rev"] and repo["repo"].endswith("/irreshape")
    assert {h["id"] for h in repo["hooks"]} <= set(manifest)


def test_the_readmes_first_snippet_runs_as_pasted(tmp_path, git_env):
    """``pre-commit run --all-files`` with the README's first snippet, its ``language: python`` included:
    pre-commit makes a virtualenv and pip-installs ``additional_dependencies`` into it.

    Changed, only to stay off the network: the dependency ``irreshape`` (a PyPI name) becomes this
    checkout (a copy of its pyproject.toml, README and src/, so that the build leaves the worktree alone),
    and pip is told to use what is already here instead of downloading: the hook's virtualenv sees the
    site-packages of the interpreter running the tests (lxml, click, numpy, rich) after its own, through a
    ``sitecustomize`` on ``PYTHONPATH`` (the virtualenv's own ``system-site-packages`` would be the *base*
    interpreter's, which a venv's base need not have), builds without isolation with the setuptools
    virtualenv bundles, and has no index (``PIP_NO_INDEX``: a download would fail the test, not go out).
    The hook's own site-packages come first, so the hook runs the irreshape pip installed there.
    """
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, checkout / name)
    shutil.copytree(ROOT / "src", checkout / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    snippet = readme_snippets()[0]
    assert snippet.count("additional_dependencies: [irreshape]") == 1
    config = snippet.replace("additional_dependencies: [irreshape]", f"additional_dependencies: [{checkout}]")

    repo = tmp_path / "repo"
    repo.mkdir()
    ours = tmp_path / "ours"
    ours.mkdir()
    here = [p for p in site.getsitepackages() + [site.getusersitepackages()] if os.path.isdir(p)]
    (ours / "sitecustomize.py").write_text(f"import site\nfor p in {here!r}:\n    site.addsitedir(p)\n")
    env = dict(git_env, PYTHONPATH=str(ours))
    env.update(VIRTUALENV_SETUPTOOLS="bundle", PIP_NO_INDEX="1",
               PIP_NO_BUILD_ISOLATION="0")  # pip reads "0" here as: build without isolation

    def run(*cmd: str) -> subprocess.CompletedProcess:
        return subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=300)

    assert run("git", "init", "-q").returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(config)
    pair(repo / "models", "broken", name="enc")
    (repo / "models" / "settings.xml").write_text("<settings><a/></settings>\n")  # XML, not an IR: skipped
    assert run("git", "add", "-A").returncode == 0
    failed = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    out = failed.stdout + failed.stderr
    assert failed.returncode == 1, out
    assert "irreshape................" in out and "Failed" in out
    assert "models/enc.xml:22:1: IR101 " in out and "settings.xml" not in out
    envs = list((tmp_path / "cache").glob("repo*/py_env-*/lib/python*/site-packages/irreshape"))
    assert len(envs) == 1  # the hook's own environment has irreshape installed (not the test's PYTHONPATH)

    pair(repo / "models", "good", name="enc")
    assert run("git", "add", "-A").returncode == 0
    passed = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "irreshape................" in passed.stdout and "Passed" in passed.stdout


def test_the_readmes_snippets_are_valid_pre_commit_configurations(tmp_path):
    for i, text in enumerate(readme_snippets()):
        path = tmp_path / f"config{i}.yaml"
        path.write_text(text)
        check = subprocess.run([sys.executable, "-m", "pre_commit", "validate-config", str(path)],
                               capture_output=True, text=True, timeout=60)
        assert check.returncode == 0, check.stdout + check.stderr
