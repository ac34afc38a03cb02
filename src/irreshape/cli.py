"""The command line: options → settings → lint run → reporter → exit status (0 clean, 1 errors, 2 usage
or internal error). No logic of its own beyond choosing defaults that depend on the terminal."""

from __future__ import annotations

import os
import sys
from typing import Optional, TextIO

import click

from .core import __version__
from .core.formats import DIFF_OUTPUTS, OUTPUTS

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
_process_exit = False  # the process ends with the command (entry): what is alive then is never freed


class Failure(click.ClickException):
    """A configuration, baseline or input problem: message on stderr, exit status 2."""

    exit_code = EXIT_USAGE


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="irreshape")
def main() -> None:
    """Lint OpenVINO IR files: recompute every Reshape's output dims and report the layers whose XML lies."""


def entry() -> None:
    """The ``irreshape`` command: :func:`main`, then an exit that skips tearing the interpreter down.

    Once the report is out and the streams are flushed nothing is left to do, yet a normal exit frees
    every object still alive one by one (the results of a large model: tens of thousands), which costs
    more than a small file's whole check. Like mypy, the process ends at once instead. Any exit that is
    not a plain status (or a stream that cannot be flushed) takes the normal way out.
    """
    global _process_exit
    _process_exit = True
    try:
        main()
    except SystemExit as e:
        code = 0 if e.code is None else e.code
        if not isinstance(code, int):
            raise
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            raise e from None
        os._exit(code)


def _codes(ctx, param, value: tuple[str, ...]) -> Optional[list[str]]:
    """Repeatable, comma-separated selector lists → one list (None when the option was not given)."""
    if not value:
        return None
    return [c.strip() for v in value for c in v.split(",") if c.strip()]


def _use_color(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty()


def _default_format(stream: TextIO) -> str:
    if stream.isatty():
        return "full"
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "concise"


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--select", multiple=True, callback=_codes, metavar="CODES",
              help="Report only these rules (codes, prefixes like IR1, names; comma-separated).")
@click.option("--extend-select", multiple=True, callback=_codes, metavar="CODES", help="Report these rules too.")
@click.option("--ignore", multiple=True, callback=_codes, metavar="CODES", help="Do not report these rules.")
@click.option("--output-format", "--format", "fmt", type=click.Choice(sorted(OUTPUTS)), default=None,
              help="Report format (default: full on a terminal, github in GitHub Actions, else concise).")
@click.option("--layers", type=click.Choice(["reshape", "all"]), default=None,
              help="Which layers the JSON `layers` list holds: the Reshape family's [default], or every layer's.")
@click.option("-o", "--output", "--output-file", "output", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to this file instead of stdout.")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule instead of the findings.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when errors are found (2 still means a failure).")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the output (auto: on a terminal; NO_COLOR and FORCE_COLOR are honoured).")
@click.option("--config", "config_file", type=click.Path(exists=True, dir_okay=False),
              help="Use this configuration file instead of looking for one.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("--force-exclude", is_flag=True, help="Apply `exclude` to paths named on the command line too.")
@click.option("--max-xml-size", default=None, metavar="SIZE", help="Larger XML files are reported, not read [1GB].")
@click.option("--baseline", type=click.Path(dir_okay=False), help="Do not report the findings recorded in this file.")
@click.option("--write-baseline", type=click.Path(dir_okay=False), metavar="FILE",
              help="Record the current findings in FILE (for --baseline) and exit.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, help="Processes to use [all cores].")
@click.option("--fix", is_flag=True, help="Rewrite the lying <dim>s of mismatched layers (the .bin is never touched).")
@click.option("--diff", is_flag=True, help="Print a unified diff of what --fix would change; change nothing.")
@click.option("--unsafe-fixes", "unsafe_fixes", is_flag=True,
              help="With --fix/--diff --target: apply the rewrites that are close but not identical too.")
@click.option("--input-shape", "input_shape", multiple=True, metavar="NAME=[DIMS]",
              help="Check the model at these input shapes instead (OpenVINO's notation: 8, ?, 1..8, 1.., ..8); "
                   "repeat for each input. [DIMS] alone for a model with one input.")
@click.option("--input-shapes-only", "input_shapes_only", multiple=True, metavar="NAME",
              help="Check only this scenario of [tool.irreshape.input-shapes] (repeatable).")
@click.option("--target", "target", multiple=True, callback=_codes, metavar="RELEASE",
              help="Report too what this OpenVINO release refuses (2023.0 ... 2026.4.1; 2023.3 means 2023.3.0; "
                   "repeatable, comma-separated).")
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
def check(paths: tuple[str, ...], select, extend_select, ignore, fmt, layers, output, statistics, exit_zero, quiet,
          color, config_file, isolated, force_exclude, max_xml_size, baseline, write_baseline, jobs, fix, diff,
          unsafe_fixes, input_shape, input_shapes_only, target, debug) -> None:
    """Check IR .xml files, and directories of them (default: the working directory).

    A `foo.bin` argument stands for `foo.xml`.
    """
    from . import api, lint

    if fix and diff:
        raise click.UsageError("--fix and --diff exclude each other")
    try:
        settings = api.settings(select, extend_select, ignore, config_file, isolated, force_exclude, max_xml_size,
                                baseline, jobs, debug, fmt, layers, input_shape, input_shapes_only, target)
        if (fix or diff) and settings.scenarios_only:
            raise click.UsageError("--fix and --diff rewrite the declared dims: not with --input-shape or "
                                   "--input-shapes-only")
        settings.fix = "fix" if fix else ("diff" if diff else None)
        settings.unsafe_fixes = unsafe_fixes
        outcome = api.run(paths, settings, apply_baseline=not write_baseline)
    except api.UsageError as e:
        raise Failure(str(e)) from None
    if write_baseline:
        n = lint.write_baseline(outcome, write_baseline)
        click.echo(f"Wrote {n} finding{'s' * (n != 1)} to {write_baseline}.", err=True)
        sys.exit(EXIT_USAGE if outcome.internal_errors else EXIT_OK)
    if diff:
        for f in outcome.fixes:
            click.echo(f.diff_text, nl=False)
        _fix_notes(outcome, "Would fix")
        sys.exit(outcome.exit_code(diff=True))
    if _process_exit:  # what the check made lives until the exit (no teardown, see entry): the cycle collector
        import gc  # need not walk it again while the report is made (a deep model's results: ~20 ms of walks)

        gc.freeze()
    _report(outcome, settings.output_format, output, statistics, color, quiet)
    if fix:
        _fix_notes(outcome, "Fixed")
    sys.exit(outcome.exit_code(exit_zero))


def _fix_notes(outcome, verb: str) -> None:
    """What --fix did (or --diff would do), and what it left alone, on stderr."""
    for f in outcome.fixes:
        if f.error:
            click.echo(f"{f.path}: not fixed: {f.error}", err=True)
        for r in f.refused:
            click.echo(f"{f.path}: layer {r.layer.name!r} (id {r.layer.id}) not fixed: {r.reason}", err=True)
        if f.appended:
            click.echo(f"{f.path}: {f.appended} bytes of new constants {'appended' if f.written else 'to append'} "
                       "to its .bin", err=True)
    n, files = outcome.fixed_layers, sum(1 for f in outcome.fixes if f.changed)
    click.echo(f"{verb} {n} layer{'s' * (n != 1)} in {files} file{'s' * (files != 1)}.", err=True)


def _report(outcome, fmt: Optional[str], output: Optional[str], statistics: bool, color: str, quiet: bool) -> None:
    from contextlib import nullcontext

    from .report import Context, get
    from .report.stats import statistics as print_statistics

    with open(output, "w", encoding="utf-8") if output else nullcontext(sys.stdout) as out:
        fmt = fmt or _default_format(out)
        if statistics:
            print_statistics(outcome.results, out, as_json=fmt == "json")
            return
        ctx = Context(color=_use_color(color, out), quiet=quiet, root=outcome.root, baselined=outcome.baselined)
        get(fmt)(outcome.results, out, ctx)


@main.command()
@click.argument("rule_id", required=False, metavar="CODE|NAME")
@click.option("--all", "all_rules", is_flag=True, help="List every rule.")
@click.option("--output-format", "--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def rule(rule_id: Optional[str], all_rules: bool, fmt: str) -> None:
    """Show a rule's documentation, or list every rule with --all."""
    import json

    from .rules import ALL, get

    if all_rules == bool(rule_id):
        raise click.UsageError("give a rule code or name, or --all")
    rules = ALL if all_rules else [get(rule_id or "")]
    if rules[0] is None:
        raise Failure(f"no rule {rule_id!r} (see `irreshape rule --all`)")
    if fmt == "json":
        docs = [{"code": r.code, "name": r.name, "severity": r.severity, "summary": r.summary,
                 "documentation": r.documentation} for r in rules]
        click.echo(json.dumps(docs if all_rules else docs[0], indent=2))
    elif all_rules:
        width = max(len(r.name) for r in rules)
        for r in rules:
            click.echo(f"{r.code}  {r.name:<{width}}  {r.severity:<7}  {r.summary}")
    else:
        r = rules[0]
        click.echo(f"{r.code} {r.name} (default severity: {r.severity})\n\n{r.documentation}")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.argument("layer")
def explain(file: str, layer: str) -> None:
    """Show how the expected dims of one Reshape layer (by name or id) are derived, step by step."""
    from .explain import ExplainError, explain as run

    try:
        click.echo("\n".join(run(file, layer)))
    except ExplainError as e:
        raise Failure(str(e)) from None


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--release", "--target", "releases", multiple=True, callback=_codes, metavar="RELEASE",
              help="Show this release's column (repeatable, comma-separated) [one per minor release, 2023.0 ... "
                   "2026.4].")
@click.option("--matrix", is_flag=True,
              help="One column per release shown instead of one line of release ranges per file (--release "
                   "implies it).")
@click.option("--output-format", "--format", "fmt", type=click.Choice(["full", "concise", "json"]), default=None,
              help="Report format (default: full on a terminal; else concise).")
@click.option("-o", "--output", "--output-file", "output", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to this file instead of stdout.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the report (auto: on a terminal; NO_COLOR and FORCE_COLOR are honoured).")
@click.option("--config", "config_file", type=click.Path(exists=True, dir_okay=False),
              help="Use this configuration file (its `exclude`) instead of looking for one.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("--max-xml-size", default=None, metavar="SIZE", help="Larger XML files are reported, not read [1GB].")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, help="Processes to use [all cores].")
def compat(paths: tuple[str, ...], releases, matrix, fmt, output, color, config_file, isolated, max_xml_size,
           jobs) -> None:
    """Which OpenVINO releases read each IR file and compile it for CPU: per file its answer across the releases
    ("2023.0-2023.3 IR601 · 2024.0+ ok"), the oldest release from which on every release reads and compiles it, and
    why the older ones do not, in their words.

    Exit status: 0 when every release shown reads and compiles every file, 1 when one refuses one, 2 for a usage or
    internal error.
    """
    from contextlib import nullcontext
    from functools import partial

    from . import api, lint
    from .checks.compat import compat_file, minors
    from .lint.config import targets
    from .lint.parallel import ordered_map
    from .report import compat as report

    try:
        settings = api.settings(config=config_file, isolated=isolated, max_xml_size=max_xml_size, jobs=jobs)
        columns = tuple(r for _, r in targets(releases)) if releases else minors()
    except api.UsageError as e:
        raise Failure(str(e)) from None
    except ValueError as e:
        raise Failure(f"--release: {e}") from None
    files = lint.collect(list(paths) or ["."], settings)
    found = [f for f in ordered_map(partial(compat_file, max_xml_size=settings.max_xml_size), files, settings.jobs)
             if f is not None]
    with open(output, "w", encoding="utf-8") if output else nullcontext(sys.stdout) as out:
        fmt = fmt or ("full" if out.isatty() else "concise")
        if fmt == "json":
            report.json_report(found, columns, out)
        elif fmt == "full":
            report.full(found, columns, out, _use_color(color, out), matrix=matrix or bool(releases))
        else:
            report.concise(found, columns, out, matrix=matrix or bool(releases))
    if any(f.internal_error for f in found):
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_FINDINGS if any(f.runs(c) is not True for f in found for c in columns) else EXIT_OK)


@main.command("diff")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--base", metavar="REV",
              help="Compare each IR under PATHS (default: .) at this git revision, its .bin too, with the work tree.")
@click.option("--fail-on", "fail_on", multiple=True, callback=_codes, metavar="WHAT",
              help="What makes the exit status 1 when it differs: interface, oldest, findings, contents, breaking, "
                   "new-findings (comma-separated) [interface,oldest,findings].")
@click.option("--output-format", "--format", "fmt", type=click.Choice(sorted(DIFF_OUTPUTS)), default=None,
              help="Report format (default: full on a terminal, github in GitHub Actions, else concise).")
@click.option("-o", "--output", "--output-file", "output", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to this file instead of stdout.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when something differs (2 still means a failure).")
@click.option("--select", multiple=True, callback=_codes, metavar="CODES", help="Compare only these rules' findings.")
@click.option("--extend-select", multiple=True, callback=_codes, metavar="CODES", help="Compare these rules too.")
@click.option("--ignore", multiple=True, callback=_codes, metavar="CODES", help="Do not compare these rules.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the output (auto: on a terminal; NO_COLOR and FORCE_COLOR are honoured).")
@click.option("--config", "config_file", type=click.Path(exists=True, dir_okay=False),
              help="Use this configuration file instead of looking for one.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, help="Processes to use [all cores].")
@click.option("--max-xml-size", default=None, metavar="SIZE", help="Larger XML files are reported, not read [1GB].")
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
def diff(paths: tuple[str, ...], base, fail_on, fmt, output, exit_zero, select, extend_select, ignore, color,
         config_file, isolated, jobs, max_xml_size, debug) -> None:
    """What a change to IR files changes: `irreshape diff OLD NEW` (two files, or two directories whose files are
    paired by relative path), or `irreshape diff --base REV [PATHS]` (each IR at a git revision against the
    working tree).

    Reported from irreshape's reading of both sides: inputs and outputs (name, partial shape, element type), the
    oldest release that reads each side, findings new and fixed, and the contents (ops, weights, layers).
    Exit status: 0 when interface, oldest release and findings are unchanged (--fail-on chooses), 1 when one
    differs, 2 for a usage or internal error.
    """
    from contextlib import nullcontext

    from . import api
    from .lint.diff import DEFAULT_FAIL_ON
    from .report import get

    try:
        settings = api.settings(select, extend_select, ignore, config_file, isolated, max_xml_size=max_xml_size,
                                jobs=jobs, debug=debug)
        outcome = api.compare(paths, base, settings, fail_on)
    except api.UsageError as e:
        raise Failure(str(e)) from None
    with open(output, "w", encoding="utf-8") if output else nullcontext(sys.stdout) as out:
        get(fmt or _default_format(out), DIFF_OUTPUTS)(outcome, out, _use_color(color, out))
    sys.exit(outcome.exit_code(fail_on or DEFAULT_FAIL_ON, exit_zero))
