"""The Python API: :func:`check` runs what ``irreshape check`` runs and gives back a :class:`Report`.

    import irreshape

    report = irreshape.check("models/", select=["IR1"], jobs=2)
    for f in report.files:
        for finding in f.findings:
            print(f.path, finding.line, finding.code, finding.message)
    raise SystemExit(report.exit_code)  # what the CLI would exit with
    open("gl-code-quality-report.json", "w").write(report.render("gitlab"))  # any --output-format
    doc = irreshape.diff("old/m.xml", "new/m.xml")  # what `irreshape diff --output-format json` writes

Options mirror the command line's (``select``, ``extend_select``, ``ignore``, ``config``, ``isolated``,
``force_exclude``, ``max_xml_size``, ``baseline``, ``jobs``, ``layers``, ``exit_zero``, ``debug``; ``target``,
a release or a list of them, as ``--target``: ``irreshape.check("models/", target=["2023.3", "2024.6"])``).
``executor=`` takes any :class:`concurrent.futures.Executor` (a Dask or Ray cluster's, say): the files are mapped over
it instead of irreshape's own processes. A bad option or configuration raises :class:`UsageError` (the
CLI's exit status 2).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Optional

from . import lint
from .core.formats import OUTPUTS
from .core.records import Record
from .core.results import FileResult
from .lint.config import BaselineError, ConfigError, build
from .lint.select import SelectorError
from .report import Context, get, summary

if TYPE_CHECKING:
    from concurrent.futures import Executor


class UsageError(ValueError):
    """A bad option, configuration file or baseline (the CLI's exit status 2)."""


class Report(Record):
    """What a run found: one :class:`~irreshape.core.results.FileResult` per file (``path``, ``layers``,
    ``findings``), in the order the files were given (directories walked in sorted order); ``counts``: files,
    layers, errors, warnings, infos; ``exit_code``: what `irreshape check` would exit with (0 clean, 1 errors, 2
    irreshape failed); ``baselined``: the findings left out because the baseline holds them."""

    FIELDS = ("files", "counts", "exit_code", "root", "baselined")
    files: list[FileResult]
    counts: dict[str, int]
    exit_code: int
    root: str
    baselined: int

    def __init__(self, files: list[FileResult], counts: dict[str, int], exit_code: int, root: str = ".",
                 baselined: int = 0) -> None:
        self.files, self.counts, self.exit_code, self.root, self.baselined = files, counts, exit_code, root, baselined

    def to_json(self) -> str:
        """The document ``irreshape check --output-format json`` writes, byte for byte."""
        return self.render("json")

    def render(self, output_format: str) -> str:
        """The report ``irreshape check --output-format FORMAT`` writes, byte for byte (without colour):
        any of :data:`irreshape.core.formats.OUTPUTS` (``gitlab``, ``junit``, ``sarif``, ...)."""
        if output_format not in OUTPUTS:
            raise UsageError(f"output format {output_format!r} is not one of {', '.join(sorted(OUTPUTS))}")
        out = io.StringIO()
        get(output_format)(self.files, out, Context(root=self.root, baselined=self.baselined))
        return out.getvalue()


def _selectors(value: Optional[Iterable[str] | str]) -> Optional[list[str]]:
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list(value)
    return [c.strip() for v in items for c in v.split(",") if c.strip()]


def settings(select=None, extend_select=None, ignore=None, config: Optional[str] = None, isolated: bool = False,
             force_exclude: bool = False, max_xml_size=None, baseline: Optional[str] = None,
             jobs: Optional[int] = None, debug: bool = False, output_format: Optional[str] = None,
             layers: Optional[str] = None, input_shape: Sequence[str] = (),
             input_shapes_only: Sequence[str] = (), target: Optional[Sequence[str] | str] = None) -> lint.Settings:
    """The run's settings from the command line's options (None: not given) and the configuration file."""
    cli = {"select": _selectors(select), "extend-select": _selectors(extend_select), "ignore": _selectors(ignore),
           "output-format": output_format, "max-xml-size": max_xml_size, "baseline": baseline,
           "force-exclude": force_exclude, "jobs": jobs or lint.default_jobs(), "debug": debug, "layers": layers,
           "input-shape": tuple(input_shape), "input-shapes-only": tuple(input_shapes_only),
           "target": [target] if isinstance(target, str) else target}
    try:
        return build(cli, config, isolated)
    except (ConfigError, BaselineError, SelectorError) as e:
        raise UsageError(str(e)) from None


def run(paths: Sequence[str], run_settings: lint.Settings, executor: "Optional[Executor]" = None,
        apply_baseline: bool = True) -> lint.Outcome:
    """``lint.run`` with a bad baseline file raised as a UsageError."""
    try:
        return lint.run(list(paths) or ["."], run_settings, apply_baseline, executor)
    except (ConfigError, BaselineError, SelectorError) as e:
        raise UsageError(str(e)) from None


def check(*paths: str, exit_zero: bool = False, executor: "Optional[Executor]" = None, **options) -> Report:
    """Check files and directories (default: the working directory), as ``irreshape check`` does."""
    outcome = run(paths, settings(**options), executor)
    return Report(outcome.results, summary(outcome.results), outcome.exit_code(exit_zero), outcome.root,
                  outcome.baselined)


def compare(paths: Sequence[str], base: Optional[str], run_settings: lint.Settings, fail_on=None):
    """What ``irreshape diff`` compares, as a ``lint.diff.DiffOutcome``: ``paths`` OLD and NEW, or with ``base``
    each IR under ``paths`` at that git revision against the working tree. A bad argument raises UsageError."""
    import tempfile

    from .lint.diff import FAIL_ON, diff_base, diff_paths

    bad = sorted(set(fail_on or ()) - set(FAIL_ON))
    if bad:
        raise UsageError(f"--fail-on {', '.join(bad)}: choose among {', '.join(FAIL_ON)}")
    try:
        if base is None:
            if len(paths) != 2:
                raise UsageError(f"give two files or directories, OLD and NEW (or --base REV [PATHS]); got "
                                 f"{len(paths)}")
            return diff_paths(paths[0], paths[1], run_settings)
        with tempfile.TemporaryDirectory(prefix="irreshape-diff-") as scratch:
            return diff_base(base, paths, run_settings, scratch)
    except (ConfigError, BaselineError, SelectorError) as e:
        raise UsageError(str(e)) from None


def diff(old: Optional[str] = None, new: Optional[str] = None, *, base: Optional[str] = None,
         paths: Sequence[str] = (), **options) -> dict:
    """Compare two IR files or directories (``old``, ``new``), or with ``base`` each IR under ``paths`` at that git
    revision against the working tree, as ``irreshape diff`` does: the document ``--output-format json`` writes
    (inputs, outputs, oldest release, findings new and fixed, ops, weights, per file). Options as :func:`check`'s
    (``select``, ``ignore``, ``config``, ``isolated``, ``jobs``, ...)."""
    given = [p for p in (old, new) if p is not None]
    outcome = compare(list(paths) if base is not None else given, base, settings(**options))
    return outcome.to_json()


__all__: Sequence[str] = ("Report", "UsageError", "check", "diff")
