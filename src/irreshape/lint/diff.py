"""``irreshape diff``: what a change to an IR changes for the applications that load it.

Each side is read once, as ``check`` reads it (:func:`irreshape.lint.lint_file` with the reading
:mod:`irreshape.checks.reading` keeps: one parse, one check, its findings filtered as ``check``'s are) and judged
once by ``compat`` (:func:`irreshape.checks.compat.compat_file`: the oldest release); the two readings are then
compared, never the text:

- **interface**: the inputs and outputs, matched by name (the first tensor name, else the layer name), then by any
  tensor name they share, then, for ports without tensor names, by position; a port left at the same position on
  both sides with the same element type and rank, or whose old name is gone, is renamed; each with its tensor names, OpenVINO's partial shape and
  element type on each side, and whether the change breaks an application written for the old file;
- **deployment**: the oldest release that reads the file on each side; the dims a layer pins (IR503) that appeared
  or went; the configured input-shape scenarios that a side rejects (IR501, IR502);
- **findings**: new and fixed, matched by code, layer name and type (and scenario, target), never by line;
- **contents**: the op census by version, the Consts' element types, how many Consts changed content (digests of
  their bytes), the layers added, removed and renamed (a layer of another name whose op, producers and, for a
  Const, bytes are the same).

A file re-saved by OpenVINO (layers renumbered, constants moved in the ``.bin``) compares equal but for its contents.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Optional

from ..core import formats
from ..core.findings import Finding
from ..core.records import Record
from ..core.results import FileResult
from ..core.text import display_path
from .config import ConfigError, Settings, path_matches

# what may make the exit status 1 (--fail-on): the interface changed, the oldest release changed, findings came or
# went; the contents changed; a change that breaks an application written for the old file (an input or output
# removed, renamed or retyped, an input added or narrowed, an output widened; the oldest release raised); findings
# came
FAIL_ON = ("interface", "oldest", "findings", "contents", "breaking", "new-findings")
DEFAULT_FAIL_ON = ("interface", "oldest", "findings")
PINNED, SCENARIO_CODES = "IR503", ("IR501", "IR502")
LISTED = 100  # layers named per list (added, removed, renamed) in a file's comparison; the counts are whole
FOUR_BIT = ("u4", "i4", "nf4", "f4e2m1")  # weights compressed group-wise: the groups' size is the last dim


class Side(Record):
    """One side of a file's comparison: ``path`` read (None: the file is not on this side), ``shown`` (how it is
    named in reports: a path, or ``REV:path``), ``result`` (the lint result with its ``reading``; None for a file
    that is not an IR), ``compat`` (compat's judgement, ``FileCompat``, or None), ``note`` (what kept the file
    from being read as it is at that side: a Git LFS pointer at a revision)."""

    __slots__ = FIELDS = ("path", "shown", "result", "compat", "note")
    path: Optional[str]
    shown: Optional[str]
    result: Optional[FileResult]
    compat: Any
    note: str

    def __init__(self, path: Optional[str], shown: Optional[str] = None, result: Optional[FileResult] = None,
                 compat: Any = None, note: str = "") -> None:
        self.path, self.shown, self.result, self.compat, self.note = path, shown, result, compat, note

    @property
    def present(self) -> bool:
        return self.path is not None

    @property
    def reading(self):
        return self.result.reading if self.result is not None else None

    @property
    def findings(self) -> list[Finding]:
        return self.result.findings if self.result is not None else []

    @property
    def internal_error(self) -> bool:
        return bool((self.result is not None and self.result.internal_error)
                    or (self.compat is not None and self.compat.internal_error))

    @property
    def oldest(self) -> Optional[str]:
        """The oldest release from which on every release takes the file, as people name it ("2024.0"); None where
        it was not judged (the file is absent, unread, refused by the newest release)."""
        from ..checks.targets import short

        i = self.compat.oldest() if self.compat is not None else None
        return short(self.compat.releases[i]) if i is not None else None

    @property
    def oldest_index(self) -> Optional[int]:
        return self.compat.oldest() if self.compat is not None else None


def read_side(work: tuple[Optional[str], Optional[str], str, Settings]) -> Side:
    """A side read: (path or None, how it is shown, note, settings) -> :class:`Side`. Runs in a ``--jobs``
    worker."""
    path, shown, note, settings = work
    if path is None:
        return Side(None, shown, note=note)
    from . import lint_file

    result, _, _ = lint_file(path, settings, reading=True)
    return Side(path, shown, result, result.reading.compat if result is not None and result.reading else None, note)


# -- the interface -----------------------------------------------------------------------------------------------
class Change(Record):
    """One input or output that differs: ``change`` "added", "removed", "renamed" or "changed"; ``old`` and
    ``new``: the ports (checks.reading.ModelPort, None on the side it is absent from); ``breaking``: an application
    written for the old file may fail on the new one."""

    __slots__ = FIELDS = ("kind", "change", "old", "new", "breaking")

    def __init__(self, kind: str, change: str, old: Any, new: Any, breaking: bool) -> None:
        self.kind, self.change, self.old, self.new, self.breaking = kind, change, old, new, breaking

    @property
    def name(self) -> str:
        return (self.new or self.old).name

    def to_json(self) -> dict:
        out: dict[str, Any] = {"name": self.name, "change": self.change}
        if self.change == "renamed":
            out["old_name"] = self.old.name
        out["old"] = self.old.to_json() if self.old is not None else None
        out["new"] = self.new.to_json() if self.new is not None else None
        out["breaking"] = self.breaking
        return out


def match_ports(old: Sequence, new: Sequence) -> list[tuple[Any, Any]]:
    """Pairs (old port or None, new port or None): by name, then by a tensor name both have, then the ports
    without tensor names by their order, then the ports left at one position with one element type and rank
    (renamed); the rest alone. In the new side's order, then the removed ones."""
    pairs: dict[int, Any] = {}  # id(new port) -> its old port
    left = list(old)

    def take(match) -> None:
        for n in new:
            if id(n) in pairs:
                continue
            o = next((o for o in left if match(o, n)), None)
            if o is not None:
                pairs[id(n)] = o
                left.remove(o)

    take(lambda o, n: o.name == n.name)
    take(lambda o, n: bool(set(o.names) & set(n.names)))
    unnamed = [o for o in left if not o.names]
    for n in new:
        if id(n) not in pairs and not n.names and unnamed:
            pairs[id(n)] = o = unnamed.pop(0)
            left.remove(o)
    take(lambda o, n: o.index == n.index and o.type == n.type and _rank(o.shape) == _rank(n.shape))
    return [(pairs.get(id(n)), n) for n in new] + [(o, None) for o in left]


def _rank(shape) -> int | None:
    return None if shape is None else len(shape)


def compare_ports(kind: str, old: Sequence, new: Sequence) -> list[Change]:
    """The changed inputs (``kind`` "input") or outputs ("output") of two readings."""
    out = []
    for o, n in match_ports(old, new):
        if o is None or n is None:
            change = "added" if o is None else "removed"
            out.append(Change(kind, change, o, n, kind == "input" or change == "removed"))
            continue
        # renamed: the old name is gone (a tensor name added beside it, or taken away from beside it, is a change)
        renamed = o.name not in n.names if o.names and n.names else o.name != n.name and bool(o.names or n.names)
        same = o.shape_text == n.shape_text and o.type == n.type and o.names == n.names
        if renamed or not same:
            wider = n.shape if kind == "input" else o.shape  # an input may widen, an output may narrow
            narrower = o.shape if kind == "input" else n.shape
            breaking = (renamed or not set(o.names) <= set(n.names) or o.type != n.type
                        or not within(narrower, wider))
            out.append(Change(kind, "renamed" if renamed else "changed", o, n, breaking))
    return out


def within(a, b) -> bool:
    """Whether every shape partial shape ``a`` allows, ``b`` allows too (None: a dynamic rank)."""
    if b is None:
        return True
    if a is None or len(a) != len(b):
        return False
    return all(y.lo <= x.lo and x.hi <= y.hi for x, y in zip(a, b))


# -- findings ----------------------------------------------------------------------------------------------------
def finding_key(f: Finding) -> tuple:
    """What tells a finding from another across two versions of a file: its code, its layer's name and type, its
    scenario and target; not its line, nor its id (a re-save renumbers layers), nor its words."""
    layer = f.layer
    return (f.code, layer.name if layer else None, layer.type if layer else None, *sorted(f.tags().items()))


def compare_findings(old: Iterable[Finding], new: Iterable[Finding]) -> tuple[list[Finding], list[Finding]]:
    """(the new side's findings the old one does not have, the old side's the new one does not have), each in its
    side's order; a key found n times on one side and m on the other counts n - m."""
    old, new = list(old), list(new)
    a, b = Counter(map(finding_key, old)), Counter(map(finding_key, new))

    def beyond(items: list[Finding], mine: Counter, theirs: Counter) -> list[Finding]:
        extra = mine - theirs
        out = []
        for f in reversed(items):  # the last ones of a key are the extra ones
            k = finding_key(f)
            if extra[k] > 0:
                extra[k] -= 1
                out.append(f)
        return out[::-1]

    return beyond(new, b, a), beyond(old, a, b)


# -- contents ----------------------------------------------------------------------------------------------------
class Layers(Record):
    """How the layers of two readings match: ``renamed`` (old key, new key) pairs, the ``added`` and ``removed``
    keys, and per matched Const whether its content ``changed`` (type, shape or bytes), is the ``same``, or is
    ``unknown`` (its bytes could not be read on a side)."""

    __slots__ = FIELDS = ("old", "new", "added", "removed", "renamed", "consts")

    def __init__(self, old: int, new: int, added: list[str], removed: list[str], renamed: list[tuple[str, str]],
                 consts: dict[str, int]) -> None:
        self.old, self.new, self.added, self.removed, self.renamed = old, new, added, removed, renamed
        self.consts = consts

    def to_json(self) -> dict:
        return {"old": self.old, "new": self.new, "added": len(self.added), "removed": len(self.removed),
                "renamed": len(self.renamed), "added_names": self.added[:LISTED],
                "removed_names": self.removed[:LISTED],
                "renamed_names": [{"old": a, "new": b} for a, b in self.renamed[:LISTED]]}


def match_layers(old: list[tuple], new: list[tuple]) -> Layers:
    """Match the layer signatures of two readings (checks.reading.Signature): by key (the layer's name), then a
    layer of the new side to one of the old of another name with the same op type (of any version), the same
    producers (as matched) and, for a Const, the same type, shape and bytes: renamed."""
    old_by = {s[0]: s for s in old}
    to_old = {s[0]: s[0] for s in new if s[0] in old_by}
    matched = set(to_old.values())
    pool: dict[tuple, list[str]] = {}
    for s in old:
        if s[0] not in matched:
            pool.setdefault((op_type(s[1]), s[2], s[3]), []).append(s[0])
    renamed: list[tuple[str, str]] = []
    pending = [s for s in new if s[0] not in to_old]
    for _ in range(16):  # producers first, as the serializer writes them: a round each way an edge runs back
        rest = []
        for s in pending:
            ins = tuple((to_old.get(k) if k else k, i) for k, i in s[2])
            found = pool.get((op_type(s[1]), ins, s[3]))
            if found:
                to_old[s[0]] = found[0]
                renamed.append((found.pop(0), s[0]))
            else:
                rest.append(s)
        if len(rest) == len(pending):
            break
        pending = rest
    kept = set(to_old.values())
    consts = {"changed": 0, "same": 0, "unknown": 0}
    for s in new:
        o = old_by.get(to_old.get(s[0], ""))
        if s[3] is None or o is None or o[3] is None:
            continue
        if s[3][:3] != o[3][:3] or (s[3][3] is not None and o[3][3] is not None and s[3][3] != o[3][3]):
            consts["changed"] += 1
        elif s[3][3] is None or o[3][3] is None:
            consts["unknown"] += 1
        else:
            consts["same"] += 1
    consts["added"] = sum(1 for s in new if s[3] is not None and s[0] not in to_old)
    consts["removed"] = sum(1 for s in old if s[3] is not None and s[0] not in kept)
    return Layers(len(old), len(new), [s[0] for s in new if s[0] not in to_old],
                  [s[0] for s in old if s[0] not in kept], renamed, consts)


def op_type(label: str) -> str:
    """The op type of an op version label: ``MaxPool`` of ``MaxPool-14``."""
    op, _, version = label.rpartition("-")
    return op if op and version.isdigit() else label


def weights(layers: list[tuple]) -> dict[str, dict[str, Any]]:
    """The Consts by element type: how many, their bytes, and for 4-bit types compressed by groups (rank 3 and
    more) the groups' sizes."""
    out: dict[str, dict[str, Any]] = {}
    for s in layers:
        const = s[3]
        if const is None:
            continue
        etype = const[0] or "unknown"
        row = out.setdefault(etype, {"consts": 0, "bytes": 0})
        row["consts"] += 1
        row["bytes"] += const[2]
        dims = const[1].split(",")
        if etype in FOUR_BIT and len(dims) >= 3 and dims[-1].isdigit() and int(dims[-1]) > 1:  # not a zero point
            row.setdefault("group_sizes", set()).add(int(dims[-1]))
    for row in out.values():
        if "group_sizes" in row:
            row["group_sizes"] = sorted(row["group_sizes"])
    return dict(sorted(out.items(), key=lambda kv: -kv[1]["bytes"]))


def op_changes(old: dict[str, int], new: dict[str, int]) -> list[dict[str, Any]]:
    """The op versions whose number of layers differs: ``{"op": "MaxPool-14", "old": 0, "new": 3}``, by op type
    and version."""
    def order(label: str) -> tuple:
        op = op_type(label)
        return (op, int(label[len(op) + 1:]) if op != label else -1)

    return [{"op": k, "old": old.get(k, 0), "new": new.get(k, 0)} for k in sorted({*old, *new}, key=order)
            if old.get(k, 0) != new.get(k, 0)]


# -- one file ----------------------------------------------------------------------------------------------------
class FileDiff(Record):
    """One file compared: ``path`` (how the pair is named: its path relative to the compared roots), the two
    :class:`Side` s, and what differs between them."""

    __slots__ = FIELDS = ("path", "old", "new", "inputs", "outputs", "new_findings", "fixed_findings", "ops",
                          "layers")

    def __init__(self, path: str, old: Side, new: Side) -> None:
        self.path, self.old, self.new = path, old, new
        a, b = old.reading, new.reading
        self.inputs: list[Change] = []
        self.outputs: list[Change] = []
        if (a is not None or not old.present) and (b is not None or not new.present) and (a or b):
            self.inputs = compare_ports("input", a.inputs if a else (), b.inputs if b else ())
            self.outputs = compare_ports("output", a.outputs if a else (), b.outputs if b else ())
        self.new_findings, self.fixed_findings = compare_findings(old.findings, new.findings)
        self.ops = op_changes(a.ops if a else {}, b.ops if b else {})
        self.layers = match_layers(a.layers if a else [], b.layers if b else [])

    @property
    def status(self) -> str:
        if not self.old.present or not self.new.present:
            return "added" if self.new.present else "removed"
        return "changed" if self.changed() else "unchanged"

    @property
    def oldest_changed(self) -> bool:
        return self.old.oldest != self.new.oldest

    @property
    def oldest_raised(self) -> bool:
        a, b = self.old.oldest_index, self.new.oldest_index
        return a is not None and b is not None and b > a

    @property
    def contents_changed(self) -> bool:
        ly = self.layers
        return bool(self.ops or ly.added or ly.removed or ly.renamed or ly.consts["changed"]
                    or ly.consts["added"] or ly.consts["removed"])

    @property
    def breaking(self) -> bool:
        return any(c.breaking for c in (*self.inputs, *self.outputs)) or self.oldest_raised

    def changed(self, what: Iterable[str] = FAIL_ON) -> list[str]:
        """Which of ``what`` (:data:`FAIL_ON`) differ."""
        differs = {"interface": bool(self.inputs or self.outputs), "oldest": self.oldest_changed,
                   "findings": bool(self.new_findings or self.fixed_findings), "contents": self.contents_changed,
                   "breaking": self.breaking, "new-findings": bool(self.new_findings)}
        return [w for w in what if differs[w]]

    def pinned(self, findings: list[Finding]) -> list[Finding]:
        return [f for f in findings if f.code == PINNED]

    def scenario_findings(self, findings: list[Finding]) -> list[Finding]:
        return [f for f in findings if f.code in SCENARIO_CODES]

    def to_json(self) -> dict:
        old, new = self.old, self.new

        def findings(items: list[Finding], side: Side) -> list[dict]:
            return [f.to_json() | {"path": side.shown} for f in items]

        return {
            "path": self.path,
            "old": old.shown if old.present else None,
            "new": new.shown if new.present else None,
            "status": self.status,
            "changed": self.changed(FAIL_ON[:5]),
            "read": {"old": old.reading is not None if old.present else None,
                     "new": new.reading is not None if new.present else None},
            "notes": [n for n in (old.note, new.note) if n],
            "inputs": [c.to_json() for c in self.inputs],
            "outputs": [c.to_json() for c in self.outputs],
            "oldest": {"old": old.oldest, "new": new.oldest, "breaking": self.oldest_raised,
                       "why": {"old": old.compat.summary if old.compat is not None else None,
                               "new": new.compat.summary if new.compat is not None else None}},
            "deployment": {
                "pinned": {"new": findings(self.pinned(self.new_findings), new),
                           "freed": findings(self.pinned(self.fixed_findings), old)},
                "scenarios": {"new": findings(self.scenario_findings(self.new_findings), new),
                              "fixed": findings(self.scenario_findings(self.fixed_findings), old)},
            },
            "findings": {"new": findings(self.new_findings, new), "fixed": findings(self.fixed_findings, old)},
            "ops": self.ops,
            "weights": {"old": weights(old.reading.layers) if old.reading else None,
                        "new": weights(new.reading.layers) if new.reading else None},
            "consts": self.layers.consts,
            "layers": self.layers.to_json(),
        }


# -- a run -------------------------------------------------------------------------------------------------------
class DiffOutcome(Record):
    """Every file compared, in order; ``old`` and ``new``: what was compared (as shown); ``root``: the repository
    root (the github annotations' paths are relative to it)."""

    __slots__ = FIELDS = ("files", "old", "new", "root")

    def __init__(self, files: list[FileDiff], old: str, new: str, root: str = ".") -> None:
        self.files, self.old, self.new, self.root = files, old, new, root

    @property
    def internal_errors(self) -> int:
        return sum(1 for f in self.files for s in (f.old, f.new) if s.internal_error)

    def exit_code(self, fail_on: Sequence[str] = DEFAULT_FAIL_ON, exit_zero: bool = False) -> int:
        """2 where irreshape failed on a file; 1 where one of ``fail_on`` differs (unless ``exit_zero``); else 0."""
        if self.internal_errors:
            return 2
        if exit_zero:
            return 0
        return int(any(f.changed(fail_on) for f in self.files))

    def summary(self) -> dict[str, int]:
        files = self.files
        return {"files": len(files),
                "changed": sum(1 for f in files if f.status == "changed"),
                "added": sum(1 for f in files if f.status == "added"),
                "removed": sum(1 for f in files if f.status == "removed"),
                "interface": sum(1 for f in files if f.inputs or f.outputs),
                "oldest": sum(1 for f in files if f.oldest_changed),
                "breaking": sum(1 for f in files if f.breaking),
                "new_findings": sum(len(f.new_findings) for f in files),
                "fixed_findings": sum(len(f.fixed_findings) for f in files)}

    def to_json(self) -> dict:
        return {"version": 1, "old": self.old, "new": self.new, "files": [f.to_json() for f in self.files],
                "summary": self.summary()}


def pairs(old: str, new: str, settings: Settings) -> list[tuple[str, Optional[str], Optional[str]]]:
    """(name, old path or None, new path or None) of the files to compare: two files, or the IR files of two
    directories paired by their paths relative to them (a file on one side only is added or removed)."""
    from . import collect

    if os.path.isdir(old) != os.path.isdir(new):
        raise ConfigError(f"compare a file with a file, or a directory with a directory: {display_path(old)!r} "
                          f"and {display_path(new)!r}")
    if not os.path.isdir(new):
        if not (is_ir(old) and is_ir(new)):
            raise ConfigError(f"irreshape diff compares OpenVINO IR files (.xml): {display_path(old)!r} and "
                              f"{display_path(new)!r}")
        return [(display_path(new), old, new)]
    sides = []
    for root in (old, new):
        sides.append({os.path.relpath(p, root).replace(os.sep, "/"): p for p in collect([root], settings)
                      if is_ir(p)})
    a, b = sides
    return [(display_path(k), a.get(k), b.get(k)) for k in sorted({*a, *b})]


def compare(work: list[tuple[str, tuple, tuple]], settings: Settings, old: str, new: str,
            root: str = ".") -> DiffOutcome:
    """Read every side of ``work`` ((name, old side's read_side work, new side's)) over ``settings.jobs``
    processes, then compare them."""
    from .parallel import ordered_map

    items = [w for _, a, b in work for w in (a, b)]
    read = list(ordered_map(read_side, items, settings.jobs))
    files = []
    for i, (name, _, _) in enumerate(work):
        a, b = read[2 * i], read[2 * i + 1]
        if (a.present and a.result is None) and (b.present and b.result is None):
            continue  # XML of another kind on both sides
        if a.present and a.result is None:
            a = Side(None, a.shown)
        if b.present and b.result is None:
            b = Side(None, b.shown)
        if a.present or b.present:
            files.append(FileDiff(name, a, b))
    return DiffOutcome(files, old, new, root)


def diff_paths(old: str, new: str, settings: Settings) -> DiffOutcome:
    """``irreshape diff OLD NEW``: two files, or two directories."""
    from .config import project_root

    for p in (old, new):
        if not os.path.exists(p):
            raise ConfigError(f"{display_path(p)!r} does not exist")
    work = [(name, (a, display_path(a) if a else None, "", settings), (b, display_path(b) if b else None, "", settings))
            for name, a, b in pairs(old, new, settings)]
    return compare(work, settings, display_path(old), display_path(new), project_root())


def diff_base(rev: str, paths: Sequence[str], settings: Settings, scratch: str) -> DiffOutcome:
    """``irreshape diff --base REV [PATHS]``: each IR under ``paths`` at git revision ``rev`` (written into
    ``scratch`` with its ``.bin``) against the working tree."""
    from . import collect
    from .gitrev import GitError, Revision

    try:
        revision = Revision(rev, os.getcwd())
        at_rev = revision.materialize(paths, scratch,
                                      lambda name: not excluded(os.path.join(revision.root, name), settings))
        now = {revision.relative(p): p for p in collect([p for p in paths or ["."] if os.path.exists(p)], settings)
               if os.path.isfile(p) and is_ir(p)}
    except GitError as e:
        raise ConfigError(str(e)) from None
    old_settings = rebased(settings, revision.root, scratch)
    work = []
    for key in sorted({*at_rev, *now}):
        before, path = at_rev.get(key), now.get(key)
        old_work = (before.path, f"{rev}:{key}", before.note, old_settings) if before else (None, None, "", settings)
        work.append((key, old_work, (path, display_path(path) if path else None, "", settings)))
    return compare(work, settings, rev, "working tree", revision.root)


def rebased(settings: Settings, root: str, scratch: str) -> Settings:
    """``settings`` for the files of a revision written under ``scratch``: the globs anchored in the repository
    (``exclude``, ``per-file-ignores``) anchored at ``scratch`` instead, so that they hold for the same files."""
    base = root.replace(os.sep, "/").rstrip("/") + "/"
    there = os.path.abspath(scratch).replace(os.sep, "/").rstrip("/") + "/"

    def move(glob: str) -> str:
        return there + glob[len(base):] if glob.startswith(base) else glob

    fields = {f: getattr(settings, f) for f in Settings.FIELDS}
    fields["exclude"] = [move(g) for g in settings.exclude]
    fields["per_file_ignores"] = [(move(g), codes) for g, codes in settings.per_file_ignores]
    return Settings(**fields)


def is_ir(path: str) -> bool:
    """Whether ``path`` is read as an OpenVINO IR (an ``.xml``, or a suffix of no format irreshape reads)."""
    fmt = formats.of(path)
    return fmt is None or fmt.name == "openvino"


def excluded(path: str, settings: Settings) -> bool:
    """Whether the configuration's ``exclude`` leaves ``path`` out."""
    return any(path_matches(path, g) for g in settings.exclude)
