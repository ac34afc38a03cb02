"""Helpers for the lint-workflow tests (CLI, config, suppressions, baselines, reporters)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

FIXTURES = Path(__file__).parent / "data" / "lint"
# broken.xml: flatten declares [2,13] (IR101, line 22); split_heads declares [2,3,-1] (IR105, line 49)
# and its input port [2,14] (IR106, line 52: neither the [2,13] flatten declares nor the [2,12] it produces). good.xml: the same graph with correct dims.
BROKEN_CODES = ["IR101", "IR105", "IR106"]
_CLEAN_ENV = {"GITHUB_ACTIONS": None, "NO_COLOR": None, "FORCE_COLOR": None, "CI": None}


@dataclass
class Run:
    status: int
    stdout: str
    stderr: str
    exception: Optional[BaseException]

    def codes(self) -> list[str]:
        """The codes of a concise report, in order."""
        return [ln.split(": ", 1)[1].split(" ", 1)[0] for ln in self.stdout.splitlines() if ": IR" in ln]


def irreshape(*args: str, env: Optional[dict] = None) -> Run:
    """Run the CLI in this process (``irreshape ARGS``) with a clean environment."""
    from click.testing import CliRunner

    from irreshape.cli import main

    r = CliRunner().invoke(main, list(args), env={**_CLEAN_ENV, **(env or {})})
    exc = r.exception if not isinstance(r.exception, SystemExit) else None
    return Run(r.exit_code, r.stdout, r.stderr, exc)


def pair(dest: Path, source: str = "broken", name: Optional[str] = None,
         edit: Optional[Callable[[str], str]] = None) -> Path:
    """Copy a fixture IR pair into ``dest`` (as ``name``), its XML text passed through ``edit``."""
    dest.mkdir(parents=True, exist_ok=True)
    name = name or source
    text = (FIXTURES / f"{source}.xml").read_text()
    (dest / f"{name}.xml").write_text(edit(text) if edit else text)
    shutil.copy(FIXTURES / f"{source}.bin", dest / f"{name}.bin")
    return dest / f"{name}.xml"


def insert_before(text: str, marker: str, new: str, after: bool = False) -> str:
    """``text`` with the line ``new`` inserted before (or after) the first line containing ``marker``."""
    lines = text.splitlines(True)
    i = next(i for i, ln in enumerate(lines) if marker in ln)
    lines.insert(i + after, new + "\n")
    return "".join(lines)
