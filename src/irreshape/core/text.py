"""Small text helpers shared by every layer: hostile-input-safe display, dim lists, attribute values."""

from __future__ import annotations

import os
from collections.abc import Iterable


def display_path(path: str) -> str:
    """A path as text any output encoding can carry: bytes that are not UTF-8 become ``\\xNN``."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def one_line(text: str) -> str:
    """A message of several lines (a release's words) on one line, each line stripped, the empty ones left out."""
    return " ".join(x.strip() for x in text.splitlines() if x.strip())


def clip(value: object, limit: int = 60) -> str:
    """``str(value)`` cut to ``limit`` characters: hostile names and values can be megabytes long."""
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "..."


def fmt_list(values: Iterable[object]) -> str:
    """``[2,3,-1]``: declared dims and pattern values, as the messages write them."""
    return "[" + ",".join(str(v) for v in values) + "]"


def parse_bool(text: str | None) -> tuple[bool, bool]:
    """(value, well spelled) of a boolean attribute the way OpenVINO reads one: ``true``/``1`` (any case)
    is true; anything else, and a missing attribute, is false; only ``true``/``false``/``1``/``0`` are
    well spelled."""
    if text is None:
        return False, False
    t = text.strip().lower()
    return t in ("true", "1"), t in ("true", "false", "1", "0")


def parse_ints(text: str) -> list[int]:
    """``"1,2,3"`` → ``[1, 2, 3]``; ``""`` → ``[]``. ValueError for anything else."""
    t = text.strip()
    return [int(v) for v in t.split(",")] if t else []
