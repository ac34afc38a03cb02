"""Hostile and broken input: the corpus (:mod:`.make_corpus`) and how the tests run the CLI on it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass

TIME_LIMIT = 30.0  # seconds per CLI run; generous: every corpus file takes well under one second
MEMORY_LIMIT = 2 << 30  # bytes of address space per CLI run: a blow-up fails the test, not the machine


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@dataclass
class Run:
    status: int
    stdout: str
    stderr: str
    seconds: float
    utf8: bool  # stdout is valid UTF-8

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def json(self) -> dict:
        return json.loads(self.stdout)

    def codes(self) -> set[str]:
        return {f["code"] for file in self.json()["files"] for f in file["findings"]}


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = TIME_LIMIT) -> Run:
    """``python -m irreshape check --isolated ARGS`` in a subprocess, killed after ``timeout`` (which
    fails the test) and limited to ``MEMORY_LIMIT``. Output is decoded leniently: a reporter that writes bad UTF-8 is caught by the
    tests that look for it, not by a decoding error here."""
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "irreshape", "check", "--isolated", *args],
                          check=False, capture_output=True, timeout=timeout, env={**os.environ, **(env or {})},
                          preexec_fn=_limit_memory if os.name == "posix" else None)
    try:
        proc.stdout.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError:
        utf8 = False
    return Run(proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"),
               time.monotonic() - start, utf8)
