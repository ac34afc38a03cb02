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


def verdicts(path: str) -> "list[str | frozenset | None] | None":
    """irreshape's stage per release (RELEASES' order) for the file: None (it runs), "read", or the stage of the
    first refusal its CPU plugin meets ("compile", "crash", "infer"); the set of them where irreshape knows several
    on that first layer and which comes first is the graph's (an attention with a sink and a mask: a crash or the
    mask's error, by how the cache is read). None where irreshape does not judge releases on it (2026.4.1 itself
    refuses it, irreshape cannot read it)."""
    from irreshape.checks.compat import compat_file

    found = compat_file(path)
    if found is None or not found.judged:
        return None
    out: list = []
    for release in RELEASES:
        r = found.reported(release)
        if r is None or r.stage == "read":
            out.append(None if r is None else "read")
            continue
        first = {"crash" if c.kind == "crash" else c.stage for c in found.compiles.get(release, ()) if c.line == r.line}
        out.append(next(iter(first)) if len(first) == 1 else frozenset(first))
    return out


def agrees(theirs: "str | None", mine: "str | frozenset | None") -> bool:
    """The release's stage is irreshape's (one of them, where irreshape knows several on one layer)."""
    return theirs in mine if isinstance(mine, frozenset) else theirs == mine


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
