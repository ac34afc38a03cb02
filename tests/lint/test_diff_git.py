"""Issue 38: ``irreshape diff --base REV [PATHS]`` in a temporary git repository: each IR at the revision (its
``.bin`` too) against the working tree; a Git LFS pointer at the revision said as such, or read from the local LFS
store; the configuration's globs hold for the revision's files as for the working tree's."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from lintkit import irreshape

pytest.importorskip("openvino")
from diffkit import build  # noqa: E402  (openvino first)

if shutil.which("git") is None:
    pytest.skip("git is not installed", allow_module_level=True)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(src, dest)
    shutil.copy(src.with_suffix(".bin"), dest.with_suffix(".bin"))


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("variants")
    base = build(d / "base" / "m.xml")
    text = base.read_text()
    out_port = text.index("<output>", text.index('name="flatten"'))
    dim = text.index("<dim>1024</dim>", out_port)
    edited = d / "edited" / "m.xml"
    edited.parent.mkdir()
    edited.write_text(text[:dim] + "<dim>1000</dim>" + text[dim + len("<dim>1024</dim>"):])
    shutil.copy(base.with_suffix(".bin"), edited.with_suffix(".bin"))
    return {"base": base, "pinned": build(d / "pinned" / "m.xml", shape=(1, 3, 32, 32)), "edited": edited}


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q")
    git(r, "config", "user.email", "ci@example.com")
    git(r, "config", "user.name", "ci")
    monkeypatch.chdir(r)
    return r


def commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "models")


def run(*args: str) -> tuple[int, dict]:
    r = irreshape("diff", "--isolated", "-j", "1", "--output-format", "json", *args)
    assert r.exception is None and r.status in (0, 1), (r.status, r.stdout, r.stderr)
    return r.status, json.loads(r.stdout)


def test_base_against_the_working_tree(repo, variants):
    copy(variants["base"], repo / "models" / "m.xml")
    copy(variants["base"], repo / "models" / "gone.xml")
    copy(variants["base"], repo / "models" / "same.xml")
    commit(repo)
    copy(variants["pinned"], repo / "models" / "m.xml")  # the change under review
    (repo / "models" / "gone.xml").unlink()
    (repo / "models" / "gone.bin").unlink()
    copy(variants["base"], repo / "models" / "new.xml")  # not even added to git yet
    status, doc = run("--base", "HEAD")
    assert status == 1
    files = {f["path"]: f for f in doc["files"]}
    assert {k: f["status"] for k, f in files.items()} == {"models/gone.xml": "removed", "models/m.xml": "changed",
                                                          "models/new.xml": "added", "models/same.xml": "unchanged"}
    m = files["models/m.xml"]
    assert m["old"] == "HEAD:models/m.xml" and m["new"] == "models/m.xml"
    assert [(c["name"], c["change"], c["old"]["shape"], c["new"]["shape"]) for c in m["inputs"]] == [
        ("images", "changed", "[?,3,32,32]", "[1,3,32,32]")]
    assert doc["old"] == "HEAD"
    # PATHS narrow it down; a .bin stands for its .xml
    _, only = run("--base", "HEAD", "models/m.bin")
    assert [f["path"] for f in only["files"]] == ["models/m.xml"]
    # nothing of the revision written into the work tree
    assert {line[3:] for line in git(repo, "status", "--porcelain").splitlines()} == {
        "models/gone.bin", "models/gone.xml", "models/m.xml", "models/new.bin", "models/new.xml"}


def test_an_lfs_pointer_at_the_revision(repo, variants):
    m = repo / "m.xml"
    copy(variants["base"], m)
    weights = m.with_suffix(".bin").read_bytes()
    oid = hashlib.sha256(weights).hexdigest()
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize {len(weights)}\n"
    m.with_suffix(".bin").write_text(pointer)
    commit(repo)
    m.with_suffix(".bin").write_bytes(weights)  # the working tree has the weights (git lfs pull)
    _, doc = run("--base", "HEAD")
    f = doc["files"][0]
    assert any("LFS" in note for note in f["notes"])
    assert [x["code"] for x in f["findings"]["fixed"]] == ["IR011"]
    store = repo / ".git" / "lfs" / "objects" / oid[:2] / oid[2:4]
    store.mkdir(parents=True)
    (store / oid).write_bytes(weights)  # now the local LFS store holds the revision's object
    status, doc = run("--base", "HEAD")
    f = doc["files"][0]
    assert status == 0 and f["notes"] == [] and f["findings"] == {"new": [], "fixed": []}


def test_per_file_ignores_hold_at_the_revision(repo, variants):
    """A glob of the configuration names the revision's copy of a file as it names the working tree's: a finding
    ignored on both sides is neither new nor fixed."""
    copy(variants["edited"], repo / "models" / "m.xml")
    (repo / "irreshape.toml").write_text('[per-file-ignores]\n"models/m.xml" = ["IR101"]\n')
    commit(repo)
    copy(variants["base"], repo / "models" / "other.xml")
    r = irreshape("diff", "-j", "1", "--output-format", "json", "--base", "HEAD", "models")
    doc = json.loads(r.stdout)
    assert r.status == 1  # other.xml is added
    m = next(f for f in doc["files"] if f["path"] == "models/m.xml")
    assert m["status"] == "unchanged" and m["findings"] == {"new": [], "fixed": []}
    r = irreshape("diff", "-j", "1", "--isolated", "--output-format", "json", "--base", "HEAD", "models/m.xml")
    assert r.status == 0  # without the configuration, IR101 on both sides: unchanged too


@pytest.mark.parametrize("where", ["bad-revision", "no-repository", "outside"])
def test_git_problems_are_usage_errors(repo, tmp_path, monkeypatch, variants, where):
    copy(variants["base"], repo / "m.xml")
    commit(repo)
    args = ["--base", "HEAD"]
    if where == "bad-revision":
        args = ["--base", "no-such-branch"]
    elif where == "no-repository":
        elsewhere = tmp_path / "plain"
        elsewhere.mkdir()
        monkeypatch.chdir(elsewhere)
    else:
        args.append(str(tmp_path))
    r = irreshape("diff", "--isolated", "-j", "1", *args)
    assert r.status == 2 and r.exception is None, r.stdout
