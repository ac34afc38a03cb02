"""Rule selection: which codes a run reports, from ``select`` / ``extend-select`` / ``ignore``.

A selector is a code (``IR101``), a code prefix (``IR1``, ``IR``), ``ALL``, or a rule name
(``reshape-output-mismatch``). Selections come in layers (the configuration file, then the
command line), applied in order the way ruff does it: a layer with ``select`` starts from
nothing, then ``extend-select`` adds and ``ignore`` removes. Within one layer the most specific
selector wins (``--select IR1 --ignore IR101`` keeps IR102; ``--select IR101 --ignore IR1``
keeps IR101); on a tie ``ignore`` wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from ..core.records import Record
from ..rules import ALL, BY_NAME

ALL_CODES: tuple[str, ...] = tuple(r.code for r in ALL)
_NAME_SPECIFICITY = 100  # a rule name is as specific as a full code


class SelectorError(ValueError):
    """A selector that matches no rule."""


class Selection(Record):
    """One layer of rule selection (``None`` select: keep what the previous layer selected)."""

    __slots__ = FIELDS = ("select", "extend_select", "ignore")
    select: list[str] | None
    extend_select: list[str]
    ignore: list[str]

    def __init__(self, select: list[str] | None = None, extend_select: list[str] | None = None,
                 ignore: list[str] | None = None) -> None:
        self.select = select
        self.extend_select = [] if extend_select is None else extend_select
        self.ignore = [] if ignore is None else ignore


def matches(selector: str) -> tuple[list[str], int]:
    """The codes a selector stands for, and how specific it is. Raises :class:`SelectorError`."""
    s = selector.strip()
    if s.upper() == "ALL":
        return list(ALL_CODES), 0
    rule = BY_NAME.get(s.lower())
    if rule is not None:
        return [rule.code], _NAME_SPECIFICITY
    codes = [c for c in ALL_CODES if c.startswith(s.upper())]
    if not s or not codes:
        raise SelectorError(f"{selector!r} is not a rule code, a code prefix or a rule name "
                            "(see `irreshape rule --all`)")
    return codes, len(s)


def _best(selectors: Iterable[str]) -> dict[str, int]:
    """code → the highest specificity among the selectors that match it."""
    best: dict[str, int] = {}
    for s in selectors:
        codes, spec = matches(s)
        for c in codes:
            best[c] = max(best.get(c, -1), spec)
    return best


def resolve(layers: Sequence[Selection]) -> frozenset[str]:
    """The enabled codes after applying each layer in order (every rule is selected by default)."""
    enabled = set(ALL_CODES)
    for layer in layers:
        if layer.select is not None:
            enabled = set()
        on = _best(list(layer.select or ()) + list(layer.extend_select))
        off = _best(layer.ignore)
        for code in ALL_CODES:
            if on.get(code, -1) > off.get(code, -1):
                enabled.add(code)
            elif code in off:
                enabled.discard(code)
    return frozenset(enabled)


def codes_of(selectors: Iterable[str]) -> frozenset[str]:
    """Every code matched by any of the selectors (for per-file-ignores and suppressions)."""
    return frozenset(_best(selectors))
