"""A check run reads the XML/.bin pairs it is given and nothing else, and changes no byte of anything."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import TIME_LIMIT, run_cli
from hostile.make_corpus import SECRET, make, restore_permissions

MODELS = Path(__file__).parent / "data" / "models"


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """The hostile corpus and copies of the real models, side by side."""
    root = tmp_path_factory.mktemp("readonly")
    make(root / "corpus")
    shutil.copytree(MODELS, root / "models")
    yield root
    restore_permissions(root)


def snapshot(root: Path) -> dict[str, str]:
    """Path → sha256 of every regular file below ``root`` (FIFOs and directories by their kind only)."""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(dirpath, name)
            mode = p.lstat().st_mode
            if stat.S_ISREG(mode) and os.access(p, os.R_OK):
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
            else:
                out[str(p)] = stat.filemode(mode)
    return out


def test_every_input_is_byte_identical_after_a_run(tree: Path) -> None:
    before = snapshot(tree)
    assert len(before) > 100
    for fmt in ("json", "concise"):
        run = run_cli("--output-format", fmt, str(tree))
        assert run.status == 1 and "Traceback" not in run.output
    assert snapshot(tree) == before


_AUDIT = """
import os, sys
log = open(sys.argv.pop(1), "w")
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        log.write(os.path.abspath(os.fsdecode(args[0])) + "\\n")
        log.flush()
sys.addaudithook(hook)
from irreshape.cli import main
sys.argv[0] = "irreshape"
main()
"""


def test_only_the_pairs_are_opened(tree: Path, tmp_path: Path) -> None:
    """Every file the run opens is a checked .xml or the .bin beside it: no sentinel an XXE points at,
    no DTD, nothing else. (Python-level opens are audited; the FIFO sentinels catch any C-level open,
    which would block the run until the timeout.)"""
    log = tmp_path / "opened.txt"
    proc = subprocess.run([sys.executable, "-c", _AUDIT, str(log), "check", "--isolated", "--jobs", "1",
                           "--output-format", "json", str(tree)], check=False, capture_output=True,
                           timeout=TIME_LIMIT)
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert SECRET.encode() not in proc.stdout
    opened = {Path(p) for p in log.read_text().splitlines() if p.startswith(str(tree))}
    xmls = {p for p in opened if p.suffix == ".xml"}
    assert len(xmls) > 40
    assert not {p for p in opened if "outside" in p.parts}
    allowed = xmls | {p.with_suffix(".bin") for p in xmls}
    assert opened <= allowed, opened - allowed
