"""The one table of formats: which files irreshape reads, and which module of each layer handles them.

An input format is known by its suffix (and, in a directory walk, by a cheap sniff of its first bytes);
each layer finds its own piece of work for a format here by name, and imports it only when a file of
that format comes: the reader (``frontends``), the checker (``checks``), the fixer (``fixers``) and the
explainer (``explain``). Output formats map each ``--output-format`` name to its reporter. The table is
data: it imports none of the modules it names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .records import Frozen


class Format(Frozen):
    """An input format: its ``name``, its file ``suffix`` (lower-case, with the dot), and the functions
    (``module:name``) of each layer's piece of work: ``sniff`` (frontends: "could this file be one?" for
    directory walks, path -> bool), ``check`` (checks: (path, Options) -> FileResult | None, None: the file is
    of another kind), ``fix`` (fixers: (original bytes, FileResult, skip) -> (new bytes, fixed layer refs,
    refusals)), ``explain`` (explain: (FileResult, wanted layer) -> lines), ``downgrade`` (fixers: (lines, FileResult, Plan, target releases,
    unsafe, skip) -> None, the rewrites of what the targets refuse joined to the plan; "": the format has no
    runtime targets)."""

    __slots__ = FIELDS = ("name", "suffix", "sniff", "check", "fix", "explain", "downgrade")
    name: str
    suffix: str
    sniff: str
    check: str
    fix: str
    explain: str
    downgrade: str

    def __init__(self, name: str, suffix: str, sniff: str, check: str, fix: str, explain: str,
                 downgrade: str = "") -> None:
        self._fill(name, suffix, sniff, check, fix, explain, downgrade)

    def load(self, what: str) -> Callable:
        """The function that does ``what`` (``"sniff"``, ``"check"``, ``"fix"``, ``"explain"``) for this format."""
        module, _, attr = getattr(self, what).partition(":")
        return getattr(importlib.import_module(module), attr)


INPUTS: tuple[Format, ...] = (
    Format("openvino", ".xml", "irreshape.frontends.openvino:sniff_is_ir", "irreshape.checks.openvino:check_path",
           "irreshape.fixers.openvino:fix_bytes", "irreshape.explain.openvino:explain_layer",
           "irreshape.fixers.downgrade:join"),
    Format("onednn", ".json", "irreshape.frontends.onednn:is_onednn_json", "irreshape.checks.onednn:check_path",
           "irreshape.fixers.onednn:fix_bytes", "irreshape.explain.onednn:explain_layer"),
)
DEFAULT = INPUTS[0]  # a file of any other suffix named on the command line is read as an IR


def of(path: str) -> Format | None:
    """The format a path's suffix names; None for any other suffix."""
    low = path.lower()
    return next((f for f in INPUTS if low.endswith(f.suffix)), None)


#: ``--output-format`` name -> reporter ``(results, out, ctx) -> None`` (imported only when used, so that
#: `rich` is loaded only by the `full` format)
OUTPUTS: dict[str, str] = {
    "full": "irreshape.report.text:full",
    "concise": "irreshape.report.text:concise",
    "json": "irreshape.report.machine:json_report",
    "json-lines": "irreshape.report.machine:json_lines",
    "github": "irreshape.report.github:github",
    "sarif": "irreshape.report.sarif:sarif",
    "grouped": "irreshape.report.text:grouped",
    "pylint": "irreshape.report.text:pylint",
    "gitlab": "irreshape.report.ci:gitlab",
    "junit": "irreshape.report.ci:junit",
    "azure": "irreshape.report.ci:azure",
    "rdjson": "irreshape.report.ci:rdjson",
}

#: ``irreshape diff --output-format`` name -> reporter ``(outcome, out, color) -> None``
DIFF_OUTPUTS: dict[str, str] = {
    "full": "irreshape.report.diff:full",
    "concise": "irreshape.report.diff:concise",
    "json": "irreshape.report.diff:json_report",
    "markdown": "irreshape.report.diff:markdown",
    "github": "irreshape.report.diff:github",
}
