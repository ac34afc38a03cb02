"""Dimensions the way OpenVINO models them: a closed interval of lengths plus an optional symbol.

A `Dim` is static (``lo == hi``), an interval (``2..8``, ``2..``, ``..8``) or fully dynamic (``?``).
The arithmetic mirrors ``ov::Interval`` / ``ov::Dimension`` (saturating at INT64_MAX, which stands
for "no upper bound"), so that the results of the shape engine print exactly like OpenVINO's.

A symbol is an opaque hashable that says "this dim is the same unknown length as that one";
OpenVINO uses symbols to cancel equal factors when it solves a Reshape's ``-1``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from enum import Enum
from typing import Optional

from .records import Frozen

INT64_MAX = (1 << 63) - 1
INT64_MIN = -(1 << 63)
UINT64_MAX = (1 << 64) - 1
INF = INT64_MAX  # ov::Interval::s_max: "no upper bound"


def _clip(v: int) -> int:
    return 0 if v < 0 else (INF if v > INF else v)


def _clip_times(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    if a == INF or b == INF or a > INF // b:
        return INF
    return a * b


class Dim:
    """One dimension: interval ``[lo, hi]`` (``hi == INF`` means unbounded) and an optional symbol."""

    __slots__ = ("lo", "hi", "sym")

    def __init__(self, lo: int, hi: int, sym: object = None) -> None:
        # ov::Dimension(min, max): -1 means "no bound"; then ov::Interval canonicalisation.
        if lo == -1:
            lo = 0
        if hi == -1:
            hi = INF
        if hi < lo:
            lo = hi = INF  # the empty interval
        else:
            lo, hi = _clip(lo), _clip(hi)
        self.lo = lo
        self.hi = hi
        self.sym = sym

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def of(cls, n: int, sym: object = None) -> "Dim":
        """A static dim, or ``?`` for -1 (as ``ov::Dimension(n)``)."""
        return cls(n, n, sym) if n != -1 else cls(0, INF, sym)

    @classmethod
    def raw(cls, lo: int, hi: int, sym: object = None) -> "Dim":
        """No canonicalisation: OpenVINO's ``Interval::set_min_val``/``set_max_val`` can leave ``lo > hi``."""
        d = cls.__new__(cls)
        d.lo, d.hi, d.sym = lo, hi, sym
        return d

    @classmethod
    def dynamic(cls, sym: object = None) -> "Dim":
        return cls(0, INF, sym)

    # -- predicates ---------------------------------------------------------------------------
    @property
    def is_static(self) -> bool:
        return self.lo == self.hi and self.lo != INF

    @property
    def is_empty(self) -> bool:
        return self.lo == INF

    @property
    def is_dynamic(self) -> bool:
        return not self.is_static

    def __eq__(self, other: object) -> bool:  # interval equality, like ov::Dimension::operator==
        if isinstance(other, int):
            return self.lo == other and self.hi == other
        if not isinstance(other, Dim):
            return NotImplemented
        return self.lo == other.lo and self.hi == other.hi

    def __hash__(self) -> int:
        return hash((self.lo, self.hi))

    def contains(self, n: int) -> bool:
        return self.lo <= n <= self.hi

    def compatible(self, other: "Dim") -> bool:
        return max(self.lo, other.lo) <= min(self.hi, other.hi)

    # -- arithmetic (ov::Dimension semantics) -------------------------------------------------
    def __mul__(self, other: "Dim") -> "Dim":
        if other.lo == 1 and other.hi == 1:
            return self
        if self.lo == 1 and self.hi == 1:
            return other
        if self.is_empty:
            return Dim(INF, INF)
        if other.is_empty:
            return Dim(INF, INF)
        return Dim(_clip_times(self.lo, other.lo), _clip_times(self.hi, other.hi))

    def div(self, divisor: int) -> "Dim":
        """``ov::Dimension::operator/`` (ceil of the lower, floor of the upper bound, in doubles)."""
        if divisor == 1:
            return self
        if self.lo == 0 and self.hi == INF:
            return Dim.dynamic()
        if divisor == 0:
            return Dim(INF, INF)
        lo = math.ceil(float(self.lo) / float(divisor))
        hi = math.floor(float(self.hi) / float(divisor)) if self.hi != INF else INF
        return Dim(min(lo, INF), min(hi, INF))

    # -- text -----------------------------------------------------------------------------------
    def __str__(self) -> str:
        if self.is_static:
            return str(self.lo)
        if 0 < self.lo < INF:
            return f"{self.lo}.." + (str(self.hi) if self.hi != INF else "")
        if self.hi != INF:
            return f"..{self.hi}"
        return "?"

    def __repr__(self) -> str:
        return f"Dim({self})" if self.sym is None else f"Dim({self}, sym={self.sym!r})"

    def to_json(self) -> int | str:
        return self.lo if self.is_static else str(self)

    def to_ir(self) -> int:
        """What OpenVINO's serializer writes in a ``<dim>``: the length, or -1 for any non-static dim."""
        return self.lo if self.is_static else -1


Shape = Optional[list[Dim]]  # None: dynamic rank


class Bound(Frozen):
    """One pattern element as OpenVINO's ``get_input_bounds`` sees it: (lower, upper) int64 and a symbol."""

    __slots__ = FIELDS = ("lo", "hi", "sym")
    lo: int
    hi: int
    sym: object

    def __init__(self, lo: int, hi: int, sym: object = None) -> None:
        self._fill(lo, hi, sym)

    @classmethod
    def value(cls, v: int) -> "Bound":
        return cls(v, v)


_SPACE = " \t\n\r\v\f"
_DIGITS = frozenset("0123456789-")
_LEADING_INT = re.compile(r"-?\d+")


def _number(text: str, failed: int) -> int:
    """``std::from_chars`` into an int64, as the IR reader reads a dim: the longest prefix ``-?digits`` (``2-3``
    reads 2); ``failed`` where there is none or it is beyond int64."""
    m = _LEADING_INT.match(text)
    if m is None:
        return failed
    v = int(m.group())
    return v if INT64_MIN <= v <= INT64_MAX else failed


def _interval(lo: int, hi: int) -> Dim:
    """``ov::Interval(lo, hi)``: empty where ``hi < lo``, else both clipped to ``[0, s_max]`` (no -1 as "none")."""
    return Dim(INF, INF) if hi < lo else Dim(_clip(lo), _clip(hi))


def parse_dim(text: str) -> Dim:
    """One dim of a partial-shape string as openvino 2026.4.1's IR reader parses it (``Dimension(string)``,
    measured): ``?`` and ``-1`` dynamic; else only digits and ``-`` (``Cannot parse dimension``), read as
    ``ov::Interval(n)`` (``-2`` reads 0, an unreadable number 0); ``lo..hi`` with each bound untrimmed and made of
    digits and ``-`` (``Cannot parse min bound`` / ``max bound``), a missing or unreadable min 0, max unbounded,
    then ``ov::Interval(lo, hi)`` (``2..1`` is empty, ``-3..5`` is ``..5``). ValueError with OpenVINO's message."""
    t = text.strip(_SPACE)
    if t in ("?", "-1"):
        return Dim.dynamic()
    at = t.find("..")
    if at < 0:
        if not _DIGITS.issuperset(t):
            raise ValueError(f'Cannot parse dimension: "{t}"')
        n = _number(t, 0)
        return _interval(n, n)
    lo_s, hi_s = t[:at], t[at + 2:]
    if not _DIGITS.issuperset(lo_s):
        raise ValueError(f'Cannot parse min bound: "{lo_s}"')
    if not _DIGITS.issuperset(hi_s):
        raise ValueError(f'Cannot parse max bound: "{hi_s}"')
    return _interval(_number(lo_s, 0) if lo_s else 0, _number(hi_s, INF) if hi_s else INF)


def parse_shape(text: str) -> Shape:
    """A partial-shape attribute (a Parameter's ``shape``, a ReadValue's ``variable_shape``) as openvino 2026.4.1's
    IR reader parses it: trimmed, one pair of enclosing brackets dropped, ``...`` a dynamic rank, nothing a
    scalar, else dims split at every comma (an empty field refused: ``Cannot get vector of dimensions! "TEXT" is
    incorrect``), each by :func:`parse_dim`. ValueError with OpenVINO's message where it refuses the text."""
    t = text.strip(_SPACE)
    if t[:1] == "[" and t[-1:] == "]":
        t = t[1:-1].strip(_SPACE)
    if t == "...":
        return None
    if t == "":
        return []
    parts = t.split(",")
    if "" in parts:
        raise ValueError(f'Cannot get vector of dimensions! "{text}" is incorrect')
    return [parse_dim(p) for p in parts]


def format_shape(shape: Shape) -> str:
    if shape is None:
        return "[...]"
    return "[" + ",".join(str(d) for d in shape) + "]"


def shape_to_json(shape: Shape) -> list[int | str] | None:
    return None if shape is None else [d.to_json() for d in shape]


def is_static_shape(shape: Shape) -> bool:
    return shape is not None and all(d.is_static for d in shape)


def volume(values: Sequence[int]) -> int:
    v = 1
    for x in values:
        v *= x
    return v


class Agreement(Enum):
    """How a declared ``<dim>`` stands to the dim recomputed for it: the one answer every rule, fixer and
    report takes (each rule decides which answers it reports)."""

    AGREES = "agrees"  # equal static values, or -1 for a dynamic dim
    LOOSE = "loose"  # -1 declared where the dim is static: true, but it loses information
    UNPROVEN = "unproven"  # a static value inside a dynamic dim: a claim no export could make
    CONTRADICTS = "contradicts"  # a static value the dim can never take


def agreement(declared: int, expected: Dim) -> Agreement:
    """Compare one declared dim (``-1``: dynamic) with the recomputed one."""
    if declared == -1:
        return Agreement.LOOSE if expected.is_static else Agreement.AGREES
    if expected.is_static:
        return Agreement.AGREES if expected.lo == declared else Agreement.CONTRADICTS
    return Agreement.UNPROVEN if expected.contains(declared) else Agreement.CONTRADICTS


def disagreements(declared: Sequence[int], expected: Sequence[Dim]) -> list[tuple[int, Agreement]]:
    """(index, agreement) of each declared dim that does not simply agree with the expected one."""
    out = []
    for i, (d, e) in enumerate(zip(declared, expected)):
        lo, hi = e.lo, e.hi
        if d == lo == hi or (d == -1 and (lo != hi or lo == INF)):  # the common cases: they agree
            continue
        a = agreement(d, e)
        if a is not Agreement.AGREES:
            out.append((i, a))
    return out


def differing(declared: Sequence[int], expected: Sequence[Dim],
              wrong: frozenset[Agreement] = frozenset({Agreement.UNPROVEN, Agreement.CONTRADICTS})) -> list[int]:
    """The indexes of the declared dims whose agreement with ``expected`` is in ``wrong``."""
    return [i for i, a in disagreements(declared, expected) if a in wrong]
