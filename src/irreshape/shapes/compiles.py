"""Runtime targets, past the reader: what an openvino release's CPU plugin refuses in a file its ``read_model``
reads, from the compile-stage table (:mod:`.plugins`, measured with each release's own wheel by
scripts/make_plugins.py) applied to the features a model holds (:mod:`irreshape.checks.plugin`).

* :func:`refusals` — every feature of a model that one release's CPU plugin refuses: at ``compile_model`` (its
  words), by a crash of the process there, or at the first inference;
* :func:`compiles_from` — the first release from which on every release takes a feature.

A feature no release refuses, or one the table does not hold, is taken by every release: irreshape says a
release refuses a file only where that was measured.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .plugins import NEWEST, REFUSED

COMPILE, CRASH, INFER = "compile", "crash", "infer"


@dataclass(frozen=True, slots=True)
class CompileRefusal:
    """One reason a release's CPU plugin refuses a file its reader reads."""

    layer: "object"  # the frontends' Layer the feature is on
    key: tuple  # the feature (the table's key)
    stage: str  # "compile" | "crash" (the process dies in compile_model) | "infer" (the first inference fails)
    message: str  # the release's own words ("" for a crash: it says nothing)
    what: str  # the feature in words: "Identity-16"
    since: str | None  # the first release from which on every release takes it; None: no release irreshape knows

    @property
    def finding_stage(self) -> str:
        """The stage a finding of it carries: "infer" for the first inference, else "compile" (a crash in
        compile_model is compile's)."""
        return INFER if self.stage == INFER else COMPILE


def at(runs: tuple, i: int) -> tuple:
    """The entry of a feature's runs (the table's) that holds for release index ``i``: (first release index,
    stage, words), stage None where the release takes it."""
    found: tuple = (0, None, None)
    for run in runs:
        if run[0] > i:
            break
        found = run
    return found


def compiles_from(key: tuple) -> str | None:
    """The first release from which on every release's CPU plugin takes the feature ``key`` (the oldest one
    irreshape knows where none refuses it); None where the newest refuses it too."""
    from .releases import RELEASES

    runs = REFUSED.get(key)
    if not runs:
        return RELEASES[0]
    last = runs[-1]
    return RELEASES[last[0]] if last[1] is None else None


def refusals(found: Iterable, release: str) -> list[CompileRefusal]:
    """What ``release``'s CPU plugin refuses of the features ``found`` (:class:`irreshape.checks.plugin.Instance`),
    in their order: each feature the table says it refuses, in its words (``{name}`` the layer's name)."""
    from .releases import RELEASES

    return _refusals(found, RELEASES.index(release), True)


def newest(found: Iterable) -> list[CompileRefusal]:
    """:func:`refusals` of the newest release irreshape knows (the reference, 2026.4.1), the release table not
    loaded (``since`` left None)."""
    return _refusals(found, NEWEST, False)


def _refusals(found: Iterable, i: int, since: bool) -> list[CompileRefusal]:
    out = []
    for inst in found:
        runs = REFUSED.get(inst.key)
        if not runs:
            continue
        _, stage, words = at(runs, i)
        if stage is None:
            continue
        out.append(CompileRefusal(inst.layer, inst.key, stage, (words or "").format(name=inst.name), inst.what,
                                  compiles_from(inst.key) if since else None))
    return out


_KEYS = frozenset(REFUSED)


def refused_keys() -> frozenset[tuple]:
    """Every feature some release refuses (what a detector need report)."""
    return _KEYS
