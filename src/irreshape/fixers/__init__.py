"""``--fix`` and ``--diff``: write the recomputed dims back into a file, touching nothing else.

One edit model for every format: a fixer (one per format, :mod:`irreshape.core.formats`) turns a checked
file into line changes (with ``--target``, joined by the format's downgrade: :mod:`.downgrade`); this module
applies them, writes the one kind of unified diff, and replaces the file atomically (new constants of a
decomposition appended to the ``.bin`` first). Which layers are fixed is one decision, :attr:`LayerResult.fixable
<irreshape.core.results.LayerResult.fixable>`, less the layers a caller skips (suppressed findings).
"""

from __future__ import annotations

import contextlib
import difflib
import os
import stat
import tempfile
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Optional, Union

from ..core import formats
from ..core.findings import LayerRef
from ..core.results import FileResult

Skip = Union[Callable[[str], bool], Collection[str]]


@dataclass(slots=True)
class Refusal:
    """A mismatched layer that was left alone, and why."""

    layer: LayerRef
    reason: str


@dataclass(slots=True)
class FixOutcome:
    """What ``--fix`` did (or, with ``write=False``, would do) to one file."""

    path: str
    new_bytes: bytes  # the fixed document; the original bytes when nothing changes
    changed: bool = False  # new_bytes differ from the file
    written: bool = False  # ...and they were written to it
    diff_text: str = ""  # unified diff of the change, "" when none
    fixed: list[LayerRef] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    error: Optional[str] = None  # the file could not be read or written; it is unchanged
    appended: int = 0  # bytes of new constants appended (or, with --diff, to append) to the .bin


@dataclass(slots=True)
class Change:
    """``lines[start:end]`` (0-based) become ``new``; ``start == end`` is an insertion."""

    start: int
    end: int
    new: list[bytes]


@dataclass(slots=True)
class Plan:
    """What a format's fixer would do to one file: the line changes, the layers they fix, the ones it refuses."""

    changes: list[Change] = field(default_factory=list)
    fixed: list[LayerRef] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    error: Optional[str] = None  # the file cannot be fixed at all
    append: bytes = b""  # new constants' bytes, appended to the .bin (the .xml's new Consts point there)


def fix_file(result: FileResult, write: bool, skip: Skip = (), skip_precision: Optional[Skip] = None,
             targets: tuple[str, ...] = (), unsafe: bool = False, skip_target: Skip = (),
             skip_edges: Optional[Skip] = None) -> FixOutcome:
    """Fix the mismatched layers of one checked file.

    ``write=False`` only computes the new bytes and the diff (``--diff``); ``write=True`` also
    replaces the file atomically when it changes (``--fix``). Layers whose id is in ``skip`` (or for
    which ``skip(id)`` is true: suppressed findings) are not fixed; ``skip_precision`` says the same of their
    ports' ``precision``, ``skip_edges`` of their input ports' dims on an edge (IR106, IR107, IR306), each by
    default ``skip`` (one rule's finding must not rewrite what another's, suppressed, says). With ``targets``
    (releases), the layers they refuse are rewritten into older forms they read where that is exact (:mod:`.downgrade`; ``unsafe``: close forms too), less ``skip_target``. Never raises on bad
    input or a failed write: ``error`` says what went wrong and the file is then untouched.
    """
    path = result.path
    try:
        with open(path, "rb") as f:
            original = f.read()
    except OSError as e:
        return FixOutcome(path, b"", error=f"cannot read: {e.strerror or e}")
    lines = original.splitlines(keepends=True)
    fmt = formats.of(path) or formats.DEFAULT
    plan: Plan = fmt.load("fix")(lines, result, Skipper(_skipper(skip),
                                                        _skipper(skip_precision if skip_precision is not None else skip),
                                                        _skipper(skip_edges if skip_edges is not None else skip)))
    if targets and plan.error is None and fmt.downgrade:
        fmt.load("downgrade")(lines, result, plan, targets, unsafe, _skipper(skip_target))
    outcome = FixOutcome(path, original, fixed=[] if plan.error else plan.fixed, refused=plan.refused,
                         error=plan.error)
    if plan.error is not None or not plan.changes:
        return outcome
    new = apply(lines, plan.changes)
    outcome.diff_text = unified_diff(path, lines, plan.changes)
    outcome.new_bytes = new
    outcome.changed = True
    outcome.appended = len(plan.append)
    if write:
        try:
            if plan.append:  # first: the .xml written after it is the only one pointing past its old end
                append_bytes(os.path.splitext(path)[0] + ".bin", plan.append)
            write_atomic(path, outcome.new_bytes)
            outcome.written = True
        except OSError as e:
            outcome.error = f"cannot write: {e.strerror or e}"
    return outcome


def append_bytes(path: str, data: bytes) -> None:
    """Append ``data`` to ``path`` (the .bin: its bytes so far are left as they are), durably."""
    with open(path, "ab") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _skipper(skip: Skip) -> Callable[[str], bool]:
    return skip if callable(skip) else skip.__contains__


class Skipper:
    """What a fixer leaves alone: called with a layer id, its output dims; ``precision(id)``, its ports'
    precisions; ``edges(id)``, its input ports' dims on an edge."""

    __slots__ = ("dims", "precision", "edges")

    def __init__(self, dims: Callable[[str], bool], precision: Callable[[str], bool],
                 edges: Callable[[str], bool]) -> None:
        self.dims, self.precision, self.edges = dims, precision, edges

    def __call__(self, layer_id: str) -> bool:
        return self.dims(layer_id)


def apply(lines: list[bytes], changes: list[Change]) -> bytes:
    out, pos = [], 0
    for c in changes:
        out += lines[pos:c.start] + c.new
        pos = c.end
    return b"".join(out + lines[pos:])


def changes_between(old: list[bytes], new: list[bytes]) -> list[Change]:
    """The line changes that turn ``old`` into ``new``, for fixers that edit text spans rather than lines."""
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            out.append(Change(i1, i2, new[j1:j2]))
    return out


def unified_diff(path: str, lines: list[bytes], changes: list[Change], context: int = 3) -> str:
    """``diff -u`` of exactly these changes (not a guessed alignment), line endings as in the file."""
    name = os.fsencode(path)
    out = [b"--- " + name + b"\n", b"+++ " + name + b"\n"]
    groups: list[list[Change]] = []
    for c in changes:
        if groups and c.start - groups[-1][-1].end <= 2 * context:
            groups[-1].append(c)
        else:
            groups.append([c])
    shift = 0  # lines added minus lines removed before the current hunk
    for group in groups:
        start, stop = max(0, group[0].start - context), min(len(lines), group[-1].end + context)
        body, pos = [], start
        for c in group:
            body += [b" " + line for line in lines[pos:c.start]]
            body += [b"-" + line for line in lines[c.start:c.end]] + [b"+" + line for line in c.new]
            pos = c.end
        body += [b" " + line for line in lines[pos:stop]]
        old_n = stop - start
        new_n = old_n + sum(len(c.new) - (c.end - c.start) for c in group)
        out.append(b"@@ -%s +%s @@\n" % (_range(start, old_n), _range(start + shift, new_n)))
        out += [line if line.endswith((b"\n", b"\r")) else line + b"\n\\ No newline at end of file\n"
                for line in body]
        shift += new_n - old_n
    return b"".join(out).decode("utf-8", "replace")


def _range(start: int, length: int) -> bytes:
    """A hunk range the way ``diff -u`` writes it (``start`` is 0-based)."""
    if length == 1:
        return b"%d" % (start + 1)
    return b"%d,%d" % (start + 1 if length else start, length)


def write_atomic(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data``: a temporary file in the same folder, fsync, rename.

    The file mode is kept; a symlink is followed (the target is replaced, the link stays). On any
    failure the original is untouched and the temporary file is removed.
    """
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    mode = stat.S_IMODE(os.stat(real).st_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(real)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename durable; not possible everywhere
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
