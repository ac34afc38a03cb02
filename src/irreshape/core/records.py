"""Plain data classes without :mod:`dataclasses`' cost at import.

``@dataclass`` writes each class's ``__init__``, ``__repr__`` and ``__eq__`` as source text and compiles it when
the module is imported: for the ~27 classes a ``check`` of one small file imports, ~100 compilations, a third of
irreshape's own start-up (``irreshape check small.xml`` runs in every pre-commit hook). These classes write their
``__init__`` by hand and take equality and repr from :class:`Record`: by the fields of ``FIELDS`` in order, between
instances of the same class only, as a dataclass compares and shows them (a field out of ``FIELDS`` is what a
dataclass's ``field(compare=False, repr=False)`` is).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Callable, ClassVar


class FrozenError(AttributeError):
    """An assignment to a field of a :class:`Frozen` record."""


class Record:
    """Equal to another instance of its own class whose ``FIELDS`` are equal; shown by them; not hashable
    (a mutable record), unless a subclass says how."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()
    field_values: ClassVar[Callable[["Record"], tuple]]  # the FIELDS' values, in order: Cls.field_values(obj)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        # one C call for the tuple of values (records are memo keys: hashed and compared in hot loops)
        get = attrgetter(*cls.FIELDS) if cls.FIELDS else (lambda obj: ())
        cls.field_values = staticmethod(get if len(cls.FIELDS) != 1 else (lambda obj: (get(obj),)))

    def __eq__(self, other: object):
        if other.__class__ is self.__class__:
            values = self.field_values
            return values(self) == values(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self.FIELDS)})"


class Frozen(Record):
    """A record whose fields are set once, in ``__init__`` (by ``_fill``): hashable by them, and
    pickled as the class called with them (its ``__init__`` takes the ``FIELDS`` in order)."""

    __slots__ = ()

    def _fill(self, *values: object) -> None:
        """Set the ``FIELDS``, in order, to ``values``: an ``__init__``'s one assignment."""
        for field, value in zip(self.FIELDS, values):
            object.__setattr__(self, field, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return hash(self.field_values(self))

    def __reduce__(self):
        return self.__class__, self.field_values(self)
