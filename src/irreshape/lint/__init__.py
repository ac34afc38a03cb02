"""The lint run: which files, which findings survive, in a stable order, over ``--jobs`` processes.

Between :func:`irreshape.checks.check_file` (every finding of one file) and the reporters this layer
applies, per file: rule selection, ``per-file-ignores``, inline ``irreshape:`` comments and severity
overrides; then over the whole run, the baseline. An internal error on one file is an IR900 finding
for that file (exit status 2, whatever the selection) unless ``--debug`` asks for the traceback.
"""

from __future__ import annotations

import bisect
import os
import sys
from typing import Optional

from ..checks import check_file, no_cycle_collection
from ..core import formats
from ..core.findings import GRAPH, TARGETS, Finding
from ..core.records import Record
from ..core.results import FileResult, Options
from ..rules import EDGES, analyses, runtime
from ..rules.layers import PRECISION_MISMATCH
from . import suppress
from .config import ConfigError, Settings, path_matches, project_root, relative_path

PROGRESS_MIN_FILES = 20  # show a progress bar (on a terminal) from this many files on


class Outcome(Record):
    """What a run found: per-file results in input order, and what was kept out of them. ``root``: the repository
    root (reported paths are relative to it); ``baselined``: the findings not reported because the baseline holds
    them; ``fixes``: the FixOutcome of every file --fix/--diff would change."""

    __slots__ = FIELDS = ("results", "root", "baselined", "internal_errors", "fixes")
    results: list[FileResult]
    root: str
    baselined: int
    internal_errors: int
    fixes: list

    def __init__(self, results: Optional[list[FileResult]] = None, root: str = ".", baselined: int = 0,
                 internal_errors: int = 0, fixes: Optional[list] = None) -> None:
        self.results = [] if results is None else results
        self.root, self.baselined, self.internal_errors = root, baselined, internal_errors
        self.fixes = [] if fixes is None else fixes

    @property
    def fixed_layers(self) -> int:
        return sum(len(f.fixed) for f in self.fixes)

    def exit_code(self, exit_zero: bool = False, diff: bool = False) -> int:
        if self.internal_errors:
            return 2
        if diff:  # --diff: 1 when there is something to fix
            return int(any(f.changed for f in self.fixes))
        if exit_zero:
            return 0
        return int(any(f.severity == "error" for r in self.results for f in r.findings))

    def relative(self, result: FileResult) -> str:
        return relative_path(result.path, self.root)


def collect(paths: list[str], settings: Settings) -> list[str]:
    """The IR files to check. Directories are walked (minus ``exclude``); an explicitly named file is
    checked unless ``--force-exclude`` and excluded; ``foo.bin`` stands for ``foo.xml`` (dropped when
    there is no such file)."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            out.extend(os.path.normpath(f) for f in iter_paths([p]) if not _excluded(f, settings))
            continue
        if p.lower().endswith(".bin"):
            p = p[:-4] + ".xml"
            if not os.path.isfile(p):
                continue
        if not (settings.force_exclude and _excluded(p, settings)):
            out.append(p)
    seen: set[str] = set()
    return [p for p in out if not ((key := os.path.normpath(p)) in seen or seen.add(key))]


def _excluded(path: str, settings: Settings) -> bool:
    return any(path_matches(path, g) for g in settings.exclude)


def iter_paths(paths: list[str]) -> list[str]:
    """Expand directories into the files below them of every format irreshape reads, the ones whose first
    bytes could be one (sorted); files named explicitly are kept as given."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in files:
                    full = os.path.join(root, name)
                    fmt = formats.of(name)
                    if fmt is not None and fmt.load("sniff")(full):
                        found.append(full)
            out.extend(sorted(found))
        else:
            out.append(p)
    seen: set[str] = set()
    return [p for p in out if not (p in seen or seen.add(p))]


def run(paths: list[str], settings: Settings, apply_baseline: bool = True, executor=None) -> Outcome:
    """Check every file under ``paths``; findings filtered and ordered, baseline applied. The files are
    shared among ``settings.jobs`` processes, or mapped over ``executor`` (any
    ``concurrent.futures.Executor``: a Dask or Ray cluster's, for instance) when one is given."""
    files = collect(paths, settings)
    outcome = Outcome(root=project_root())
    for result, crashed, fixed in check_files(files, settings, executor):
        if result is not None and result.usage_error:
            raise ConfigError(result.usage_error)
        if result is not None:
            outcome.results.append(result)
            outcome.internal_errors += crashed
        if fixed is not None and (fixed.changed or fixed.refused or fixed.error):
            outcome.fixes.append(fixed)
    if apply_baseline and settings.baseline:
        from . import baseline

        known = baseline.Baseline.load(settings.baseline)
        for r in outcome.results:
            flags = known.known(outcome.relative(r), r.findings)
            outcome.baselined += sum(flags)
            r.findings = [f for f, k in zip(r.findings, flags) if not k]
    return outcome


def write_baseline(outcome: Outcome, file: str) -> int:
    from . import baseline

    return baseline.write(file, ((outcome.relative(r), r.findings) for r in outcome.results))


# -- one file ---------------------------------------------------------------------------------------
def lint_file(path: str, settings: Settings, reading: bool = False):
    """(the filtered result, whether irreshape failed internally on the file, the FixOutcome of --fix or
    --diff or None); the result is None for XML that is not an IR. check_file turns an internal failure
    into an IR900 finding, or raises with ``--debug``. ``reading``: the result keeps what ``irreshape diff``
    compares (``FileResult.reading``)."""
    with no_cycle_collection():  # until the model is dropped
        return _lint_file(path, settings, reading)


def _lint_file(path: str, settings: Settings, reading: bool = False):
    options = Options(max_xml_size=settings.max_xml_size, debug=settings.debug, layers=settings.layers,
                      scenarios=settings.scenarios, scenarios_only=settings.scenarios_only,
                      # irreshape diff: compat's judgement of the same reading needs its compile-stage features
                      analyses=analyses(settings.enabled) | ({TARGETS} if reading else set()),
                      targets=settings.targets, reading=reading)
    result = check_file(path, options)
    if result is None:
        return None, False, None
    if reading and result.reading is not None:  # irreshape diff: compat's judgement of this same reading
        from ..checks.compat import compat_file

        result.reading.compat = compat_file(path, settings.max_xml_size, result if options.runs(GRAPH) else None)
    _filter(result, settings)
    fixed = None
    if settings.fix and not result.internal_error and not result.usage_error:
        from ..fixers import fix_file  # only a --fix or --diff run needs it

        # fix only what is still reported: a suppressed or baselined-away finding is left alone
        # (each rule's own: a reported dims finding does not rewrite a precision whose IR307 is suppressed)
        wanted = {f.layer.id for f in result.findings if f.rule.fixable and f.layer is not None
                  and f.rule is not PRECISION_MISMATCH and f.rule not in EDGES}
        retype = {f.layer.id for f in result.findings if f.rule is PRECISION_MISMATCH and f.layer is not None}
        edges = {f.layer.id for f in result.findings if f.rule in EDGES and f.layer is not None}
        fixed = fix_file(result, write=settings.fix == "fix", skip=lambda lid: lid not in wanted,
                         skip_precision=lambda lid: lid not in retype, skip_edges=lambda lid: lid not in edges,
                         targets=_fix_targets(result, settings),
                         unsafe=settings.unsafe_fixes, skip_target=_target_skip(result))
        if fixed.written:  # report what remains
            result = check_file(path, options) or result
            _filter(result, settings)
    if result.model is not None:  # freed now, by reference counting, but for the layers the result shows
        result.model.release(keep=[lr.layer for lr in (*result.layers, *result.flagged)])
    result.model = None  # results travel between processes; reporters need only the spans
    result.features = []  # their layers: what the findings made of them is in the findings
    return result, result.internal_error, fixed


# what 2026.4.1's own CPU plugin refuses (IR405-IR407)
_REFERENCE_COMPILE = frozenset({runtime.COMPILE_REFUSED, runtime.COMPILE_CRASH, runtime.INFER_FAILED})


def _fix_targets(result: FileResult, settings: Settings) -> tuple[str, ...]:
    """The releases whose refusals ``--fix`` rewrites: the targets, and the reference release where the plain check
    reports what its CPU plugin refuses (an exact form, where one is known, is written as for a target)."""
    targets = tuple(release for _, release in settings.targets)
    if any(f.rule in _REFERENCE_COMPILE for f in result.findings):
        from ..shapes.releases import RELEASES

        targets += (RELEASES[-1],) if RELEASES[-1] not in targets else ()
    return targets


def _target_skip(result: FileResult):
    """The layers ``--fix --target`` leaves alone: where target findings (IR6xx, or IR405-IR407 of the reference
    release) are reported, those without one (suppressed, or not selected); where no rule reports them, none."""
    from ..rules import ALL

    if not any(r.code.startswith("IR6") for r in ALL):
        return ()
    wanted = {f.layer.id for f in result.findings
              if (f.code.startswith("IR6") or f.rule in _REFERENCE_COMPILE) and f.layer is not None}
    return lambda lid: lid not in wanted


def _filter(result: FileResult, settings: Settings) -> None:
    model = result.model
    ignored = set().union(*(codes for glob, codes in settings.per_file_ignores if path_matches(result.path, glob)))
    inline = suppress.from_model(model) if model is not None else None
    kept = []
    for f in result.findings:
        if f.code not in settings.enabled or f.code in ignored or (inline and inline.suppresses(f)):
            continue
        f.severity = settings.severity.get(f.code, f.severity)
        kept.append(f)
    if model is not None:
        _stamp_spans(kept, model)
    result.findings = kept


def _stamp_spans(findings: list[Finding], model) -> None:
    """``extra["span"]``: the first and last line of the layer element holding each finding's line."""
    if not any(f.line for f in findings):
        return  # nothing to place: no need to sort a deep model's layers
    layers = sorted(model.every_layer(), key=lambda la: la.line)  # the bodies' layers too
    starts = [la.line for la in layers]
    for f in findings:
        if not f.line:
            continue
        i = bisect.bisect_right(starts, f.line) - 1
        inside = i >= 0 and f.line <= layers[i].end_line
        f.extra["span"] = (layers[i].line, layers[i].end_line) if inside else (f.line, f.line)


# -- many files ---------------------------------------------------------------------------------------
def check_files(files: list[str], settings: Settings, executor=None):
    """Results in the order of ``files``, from ``settings.jobs`` processes (see :mod:`.parallel`) or from
    ``executor``, with a progress bar on a terminal."""
    from functools import partial

    progress = _progress(len(files)) or (lambda it: it)
    work = partial(lint_file, settings=settings)
    if executor is not None:
        yield from progress(executor.map(work, files))
        return
    from .parallel import ordered_map

    yield from progress(ordered_map(work, files, settings.jobs))


def _progress(total: int):
    """A function wrapping an iterator with a progress bar, or None when it would be noise."""
    if total < PROGRESS_MIN_FILES or not sys.stderr.isatty() or os.environ.get("CI"):
        return None
    from rich.console import Console
    from rich.progress import track

    console = Console(file=sys.stderr)
    return lambda it: track(it, total=total, description="Checking", console=console, transient=True)


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1
