"""The files of a git revision, for ``irreshape diff --base REV``: each IR ``.xml`` under the paths asked for, and
the ``.bin`` beside it, written from git's object store into a scratch directory, as ``git show REV:path`` would
give them (one ``git cat-file --batch`` for all). A blob that is a Git LFS pointer is replaced by its object where
the local LFS store holds it; else the pointer is written as it is (the check then reports it: IR011 for a
``.bin``) and the file carries a note saying so."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from typing import IO, Optional

from ..core.records import Record
from ..core.text import display_path
from ..frontends.openvino import sniff_is_ir
from ..frontends.openvino.weights import LFS_MAGIC

CHUNK = 1 << 20
POINTER_MAX = 1024  # a Git LFS pointer is a few lines of text


class GitError(Exception):
    """git could not give what was asked (not a repository, an unknown revision, a path outside the work tree)."""


class Fetched(Record):
    """A file of the revision written to ``path``; ``note``: why it is not the file as it was (an LFS pointer)."""

    __slots__ = FIELDS = ("path", "note")

    def __init__(self, path: str, note: str = "") -> None:
        self.path, self.note = path, note


def _git(args: Sequence[str], cwd: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as e:
        raise GitError(f"cannot run git: {e.strerror or e}") from None
    if done.returncode != 0:
        raise GitError(done.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed")
    return done.stdout.decode("utf-8", "surrogateescape")


class Revision:
    """A revision of the repository holding ``cwd``: ``root`` (its work tree), ``commit`` (the revision's)."""

    def __init__(self, rev: str, cwd: str) -> None:
        self.rev = rev
        try:
            self.root = _git(["rev-parse", "--show-toplevel"], cwd).strip()
        except GitError:
            raise GitError(f"--base {rev}: {display_path(os.path.abspath(cwd))!r} is not in a git work tree") from None
        try:
            self.commit = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"],
                               self.root).strip()
        except GitError:
            raise GitError(f"--base {rev}: no such revision in {display_path(self.root)!r}") from None
        self._store: Optional[str] = None

    def relative(self, path: str) -> str:
        """``path`` relative to the work tree's root, with ``/``; GitError for a path outside it."""
        rel = os.path.relpath(os.path.realpath(path), os.path.realpath(self.root)).replace(os.sep, "/")
        if rel == ".." or rel.startswith("../"):
            raise GitError(f"{display_path(path)!r} is outside the work tree {display_path(self.root)!r}")
        return rel

    def listed(self, paths: Sequence[str], keep: Callable[[str], bool]) -> list[str]:
        """The ``.xml`` files of the revision under ``paths`` (work-tree paths; ``foo.bin`` stands for
        ``foo.xml``), repository-relative, sorted; ``keep`` decides for those found under a directory (not named)."""
        named = [self.relative(p[:-4] + ".xml" if p.lower().endswith(".bin") else p) for p in paths or ["."]]
        out = _git(["ls-tree", "-r", "-z", "--name-only", self.commit, "--", *named], self.root)
        found = []
        for name in out.split("\0"):
            if not name.lower().endswith(".xml"):
                continue
            if name not in named and (any(part.startswith(".") for part in name.split("/")[:-1]) or not keep(name)):
                continue
            found.append(name)
        return sorted(set(found))

    def materialize(self, paths: Sequence[str], scratch: str,
                    keep: Callable[[str], bool] = lambda name: True) -> dict[str, Fetched]:
        """Write each IR ``.xml`` of the revision under ``paths`` and its ``.bin`` below ``scratch`` (at its
        repository-relative path): repository-relative path -> :class:`Fetched`. XML of another kind is left
        out."""
        names = self.listed(paths, keep)
        out: dict[str, Fetched] = {}
        if not names:
            return out
        with subprocess.Popen(["git", "cat-file", "--batch"], cwd=self.root, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
            assert proc.stdin is not None and proc.stdout is not None
            for name in names:
                dest = os.path.join(scratch, *name.split("/"))
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                note = self._blob(proc.stdin, proc.stdout, name, dest)
                if note is None:
                    continue
                if not note and not sniff_is_ir(dest):
                    os.remove(dest)
                    continue
                notes = [note] if note else []
                weights = name[:-4] + ".bin"
                bin_note = self._blob(proc.stdin, proc.stdout, weights, dest[:-4] + ".bin")
                if bin_note:
                    notes.append(bin_note)
                out[name] = Fetched(dest, "; ".join(notes))
            proc.stdin.close()
        return out

    def _blob(self, ask: IO[bytes], answer: IO[bytes], name: str, dest: str) -> Optional[str]:
        """Write the blob ``name`` of the revision to ``dest``: None where the revision has no such blob, else ""
        or what keeps the file from being the file as it was (an LFS pointer whose object is not here)."""
        ask.write(f"{self.commit}:{name}\n".encode("utf-8", "surrogateescape"))
        ask.flush()
        header = answer.readline().split()
        if len(header) != 3 or header[1] != b"blob":
            if len(header) == 3:  # a tree or a link where a file was expected: skip its content
                _copy(answer, None, int(header[2]) + 1)
            return None
        size = int(header[2])
        with open(dest, "wb") as out:
            head = _copy(answer, out, size)
        answer.read(1)  # the newline after the content
        if size >= POINTER_MAX or not head.startswith(LFS_MAGIC):
            return ""
        return self._lfs(head, name, dest)

    def _lfs(self, pointer: bytes, name: str, dest: str) -> str:
        """Replace the pointer at ``dest`` by its object from the local LFS store where it is there."""
        oid = next((line.split(b":", 1)[1].strip().decode("ascii", "replace") for line in pointer.splitlines()
                    if line.startswith(b"oid sha256:")), "")
        store = self._lfs_store()
        local = os.path.join(store, oid[:2], oid[2:4], oid) if oid and store else ""
        if local and os.path.isfile(local):
            shutil.copyfile(local, dest)
            return ""
        return (f"{display_path(name)} at {self.rev} is a Git LFS pointer whose object is not in the local LFS store "
                f"(`git lfs fetch origin {self.rev}` brings it)")

    def _lfs_store(self) -> str:
        if self._store is None:
            try:
                common = _git(["rev-parse", "--git-common-dir"], self.root).strip()
                self._store = os.path.join(self.root, common, "lfs", "objects")
            except GitError:
                self._store = ""
        return self._store


def _copy(src: IO[bytes], out: Optional[IO[bytes]], size: int) -> bytes:
    """Copy ``size`` bytes from ``src`` to ``out`` (None: drop them); the first ones are returned (up to
    POINTER_MAX)."""
    head = b""
    left = size
    while left > 0:
        data = src.read(min(CHUNK, left))
        if not data:
            raise GitError("git cat-file ended early")
        if len(head) < POINTER_MAX:
            head += data[:POINTER_MAX - len(head)]
        if out is not None:
            out.write(data)
        left -= len(data)
    return head
