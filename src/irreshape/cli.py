"""The command line: builds options, calls the checker and a reporter, maps results to 0/1/2."""

from __future__ import annotations

import os
import sys

import click

from . import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="irreshape")
def main() -> None:
    """Lint OpenVINO IR files: recompute every Reshape's output dims and report the layers whose XML lies."""


def _size(text: str) -> int:
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    t = text.strip().lower().rstrip("b")
    if t and t[-1] in units:
        return int(float(t[:-1]) * units[t[-1]])
    return int(t)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True), required=True)
@click.option("--output-format", "--format", "fmt", type=click.Choice(["full", "concise", "json"]),
              default=None, help="Report format (default: full on a terminal, concise otherwise).")
@click.option("--max-xml-size", default="1GB", show_default=True, help="Larger XML files are reported, not read.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary.")
def check(paths: tuple[str, ...], fmt: str | None, max_xml_size: str, color: str, quiet: bool) -> None:
    """Check IR .xml files, and directories of them."""
    from .check import Options, check_file, iter_paths
    from .report import Context, get

    try:
        options = Options(max_xml_size=_size(max_xml_size))
    except ValueError:
        raise click.BadParameter(f"{max_xml_size!r} is not a size", param_hint="--max-xml-size") from None
    results = []
    for path in iter_paths(list(paths)):
        r = check_file(path, options)
        if r is not None:
            results.append(r)
    tty = sys.stdout.isatty()
    use_color = color == "always" or (color == "auto" and tty and not os.environ.get("NO_COLOR"))
    reporter = get(fmt or ("full" if tty else "concise"))
    reporter(results, sys.stdout, Context(color=use_color, quiet=quiet))
    errors = sum(f.severity == "error" for r in results for f in r.findings)
    sys.exit(EXIT_FINDINGS if errors else EXIT_OK)
