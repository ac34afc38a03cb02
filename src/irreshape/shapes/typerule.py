"""The pieces element type rules share. Each op's type rule sits beside its shape function in its family
module (:mod:`.ops`), as its ``validate_and_infer_types`` in openvino 2026.4.1 gives its outputs' types and
rejects its inputs' (``src/core/src/op/*.cpp``); the messages are OpenVINO's own.

An op with a shape function and no type rule gives its input 0's type to every output (the graph does that
without a call). Inputs of unknown type (None) are never blamed: a rule checks only what it knows, and an output
it cannot tell is None.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import etypes as E
from .node import Node, ShapeError

INDEX_TYPES = ("i32", "i64")


def in_type(node: Node, i: int) -> str | None:
    """Input ``i``'s element type; None where it is unknown or the input absent."""
    return node.types[i] if i < len(node.types) else None


def merged_type(node: Node, a: int, b: int, message: str) -> str | None:
    """``element::Type::merge`` of inputs ``a`` and ``b``; ``message`` (formatted with both) where they do not."""
    ta, tb = in_type(node, a), in_type(node, b)
    m = E.merge(ta, tb)
    if m is False:
        raise ShapeError(message.format(ta, tb))
    return m  # type: ignore[return-value]


def same_type(node: Node) -> str | None:
    """``validate_and_infer_elementwise_args``: inputs 0 and 1 of one type."""
    return merged_type(node, 0, 1, "Arguments do not have the same element type (arg0 element type: {}, arg1 "
                                   "element type: {}).")


def check_integral(node: Node, i: int, message: str) -> None:
    """Input ``i`` must be an integral number (dynamic passes); ``message`` formatted with its type."""
    check_types(node, (i, INTEGRAL, message))


def attr_type(node: Node, name: str, default: str) -> str:
    """An element type attribute (``output_type``, ``destination_type``), as OpenVINO parses it: the schema's
    value (``node.a``: the IR's, else OpenVINO's default); ``default`` only for an op the schema does not know
    (openvino-tokenizers', a custom op's)."""
    typed = node.a.get(name)
    text = typed if isinstance(typed, str) else node.attr(name)
    try:
        return E.element_type(text) if text is not None else default
    except E.ElementTypeError as e:
        raise ShapeError(str(e)) from None


def type_one_of(t: str, allowed: tuple[str, ...], message: str) -> str:
    """``t`` where it is one of ``allowed``; else ``message`` formatted with it."""
    if t not in allowed:
        raise ShapeError(message.format(t))
    return t


# the tests of data_type_with and check_types
INTEGRAL = E.is_integral_number  # not real, not boolean (string passes, as in OpenVINO)
NOT_REAL = lambda t: not E.is_real(t)  # noqa: E731  is_integral: boolean passes
IS_INDEX = lambda t: t in INDEX_TYPES  # noqa: E731
NUMERIC = lambda t: t != E.BOOLEAN  # noqa: E731  what OpenVINO's "must be numeric" checks: string passes
REAL = E.is_real
STRICT = "strict"  # a check's 4th item: the dynamic type is tested too (OpenVINO's test refuses it)


def check_types(node: Node, *checks: tuple) -> None:
    """Each (input, test, message[, STRICT]) holds of its input's known type (the dynamic type passes unless the
    check is STRICT); else ``message`` formatted with the type."""
    for check in checks:
        i, ok, message = check[:3]
        t = in_type(node, i)
        if t is not None and (t != E.DYNAMIC or len(check) > 3) and not ok(t):
            raise ShapeError(message.format(t))


def data_type_with(*checks: tuple) -> Callable[[Node], list[str | None]]:
    """The rule of an op that gives input 0's type to every output once each check of :func:`check_types`
    holds."""
    def rule(node: Node) -> list[str | None]:
        check_types(node, *checks)
        return [in_type(node, 0)] * node.n_outputs
    return rule


def equal_types(node: Node, ports: tuple[int, ...], message: str) -> None:
    """The inputs ``ports`` (those known) of one type, exactly (the dynamic type equals only itself);
    ``message`` formatted with their types, in order."""
    known = [in_type(node, i) for i in ports]
    if None not in known and len(set(known)) > 1:
        raise ShapeError(message.format(*known))


def merged_types(node: Node, ports: tuple[int, ...], message: str, out: int = 1) -> list[str | None]:
    """The inputs ``ports`` (those present) merged, ``out`` outputs of their type; ``message`` (formatted with
    the inputs' types, in order) where two do not merge. Unknown inputs are never blamed."""
    merged: str | None | bool = E.DYNAMIC
    known = True
    for i in ports:
        t = in_type(node, i)
        if t is None:
            known = False
            continue
        merged = E.merge(merged, t)  # type: ignore[arg-type]
        if merged is False:
            raise ShapeError(message.format(*(in_type(node, j) for j in ports)))
    return [merged if known else None] * out  # type: ignore[list-item]


def merge_rule(ports: tuple[int, ...], message: str, out: int = 1) -> Callable[[Node], list[str | None]]:
    """The rule of an op whose inputs ``ports`` merge into its ``out`` outputs' type (:func:`merged_types`)."""
    return lambda node: merged_types(node, ports, message, out)


def known_type_one_of(node: Node, i: int, allowed: tuple[str, ...], message: str) -> None:
    """Input ``i``, where present and known, must be one of ``allowed`` (the dynamic type is refused too)."""
    check_types(node, (i, allowed.__contains__, message, STRICT))
