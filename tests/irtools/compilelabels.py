"""irreshape's answer for a file on a release, in the terms of the compile labels (scripts/label_compiles.py,
scripts/make_plugins.py): the stage at which the release stops on it.

* :func:`verdicts` — for one file, per release: "read" (its read_model refuses it), "compile" (its CPU plugin
  refuses it at compile_model), "crash" (the process dies there), "infer" (the first inference fails), or None;
* :func:`stage_of` — a measured verdict ({"read", "compile", "infer"}: messages, "crash", "timeout" or None) in the
  same terms;
* :func:`expand` — a label's runs ([[first release index, stage], ...]) as one stage per release.
"""

from __future__ import annotations

from irreshape.shapes.releases import RELEASES


def verdicts(path: str) -> "list[str | None] | None":
    """irreshape's stage per release (RELEASES' order) for the file; None where irreshape does not judge releases
    on it (2026.4.1 itself refuses it, irreshape cannot read it)."""
    from irreshape.checks.compat import compat_file

    found = compat_file(path)
    if found is None or not found.judged:
        return None
    out: list[str | None] = []
    for release in RELEASES:
        r = found.reported(release)
        out.append(None if r is None else "read" if r.stage == "read" else "crash" if r.kind == "crash"
                   else r.stage)
    return out


def stage_of(verdict: dict) -> str | None:
    if verdict.get("read") is not None:
        return "read"
    c = verdict.get("compile")
    if c is not None:
        return c if c in ("crash", "timeout") else "compile"
    i = verdict.get("infer")
    if i not in (None, "skipped"):
        return i if i in ("crash", "timeout") else "infer"
    return None


def expand(runs: list) -> list[str | None]:
    out: list[str | None] = []
    for k, (first, stage) in enumerate(runs):
        end = runs[k + 1][0] if k + 1 < len(runs) else len(RELEASES)
        out.extend([stage] * (end - first))
    return out


def compress(stages: list) -> list:
    out: list = []
    for i, s in enumerate(stages):
        if not out or out[-1][1] != s:
            out.append([i, s])
    return out
