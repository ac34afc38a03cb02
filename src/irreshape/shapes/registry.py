"""The op registry: one :class:`~.node.Op` per op version, found by a layer's type and opset as OpenVINO's IR
reader finds it (:mod:`.versions`).

The op families of :mod:`.ops` register their functions in :data:`.node.FUNCTIONS` on import, per op version
(MaxPool v1, v8, v14) or for every version; this module imports the families of an op type when it first meets
that type (:data:`.families.FAMILY_OF`: a small model loads two or three of the twelve), and joins each op
version's functions with its attribute schema (:mod:`.schema`, from OpenVINO's own defaults in :mod:`.opsets`)
into one unit.
"""

from __future__ import annotations

from importlib import import_module

from . import ops
from .families import FAMILIES, FAMILY_OF
from .node import (FUNCTIONS, Node, Op, OpFunctions, Refused, ShapeError, ShapeFn, TypeFn, Undecided,  # noqa: F401
                   ValueFn, opset_number, parse_flag, passthrough, shape_infer, type_infer, value_eval)
from .opsets import DEFAULTS
from .schema import EMPTY, schema_of
from .versions import resolve

_OPS: dict[tuple[str, str], "Op | None"] = {}  # (type, version) as a layer gives them -> its unit
_UNITS: dict[tuple[str, int], Op] = {}  # (type lower-cased, op version) -> its unit
_SCHEMAS: dict[tuple[str, int], object] = {}


def load_families(kind: str | None = None) -> None:
    """Import the op families that register functions of op type ``kind`` (lower-cased); every family for None."""
    for name in FAMILIES if kind is None else FAMILY_OF.get(kind, ()):
        import_module(f"{ops.__name__}.{name}")


def _functions(kind: str, version: int | None) -> OpFunctions | None:
    """The functions of op ``kind`` in op ``version``, each (shape, value, type) found on its own: the version's
    own, else every version's, else the newest earlier version's; None where there is none."""
    load_families(kind)
    chain = [FUNCTIONS.get((kind, version)) if version is not None else None, FUNCTIONS.get((kind, None))]
    if version is not None:
        chain += [FUNCTIONS[(kind, v)] for v in sorted((v for (t, v) in FUNCTIONS
                                                        if t == kind and v is not None and v < version), reverse=True)]
    units = [u for u in chain if u is not None]
    if not units:
        return None
    out = OpFunctions(units[0].type, version)
    for slot in ("shape", "value", "types"):
        setattr(out, slot, next((getattr(u, slot) for u in units if getattr(u, slot) is not None), None))
    return out


def _schema(name: str, version: int):
    key = (name, version)
    if key not in _SCHEMAS:
        _SCHEMAS[key] = schema_of(name, version, DEFAULTS.get(key))
    return _SCHEMAS[key]


_OWN = {"parameter", "const", "result"}  # read by the graph itself, never by a shape function
ENTRY_POINTS = "irreshape.ops"  # the entry point group of the shape functions of users' own (custom) ops
PLUGIN_ERRORS: list[tuple[str, str]] = []  # (entry point, why it failed to load): its ops stay unregistered
_plugins_loaded = False


def load_plugins() -> bool:
    """Load every ``irreshape.ops`` entry point, once (the first time an op type without a shape function is
    met, so a model of built-in ops never pays for it): each names a module whose import registers its ops with
    :func:`shape_infer` / :func:`value_eval`, or a callable that does (called without arguments). An entry
    point that fails to load is recorded in PLUGIN_ERRORS and skipped. True the first time."""
    global _plugins_loaded
    if _plugins_loaded:
        return False
    _plugins_loaded = True
    # every built-in family first, as when they were all imported at start-up: a plug-in that registers a built-in
    # type again meets the built-in registration now, not when a layer of that type is first met
    load_families()
    from importlib.metadata import entry_points
    for ep in entry_points(group=ENTRY_POINTS):
        try:
            obj = ep.load()
            if callable(obj):
                obj()
        except Exception as e:  # a broken plug-in: its ops are unknown (IR309), the check goes on
            PLUGIN_ERRORS.append((ep.name, f"{type(e).__name__}: {e}"))
    return True


def _latest(kind: str) -> "tuple[str, int] | None":
    """The newest op version of type ``kind`` in any opset (for a layer outside OpenVINO's opsets)."""
    best = None
    for (name, v) in DEFAULTS:
        if name.lower() == kind and (best is None or v > best[1]):
            best = (name, v)
    return best


def op(kind: str, version: str = "") -> Op | None:
    """The unit of the layer type ``kind`` written in ``version``: its schema and functions; a :class:`Refused`
    where OpenVINO's IR reader refuses the pair; None where irreshape has no shape function for it (and OpenVINO
    may read it: an extension's op)."""
    key = (kind, version)
    try:
        return _OPS[key]
    except KeyError:
        pass
    unit = _make(kind, version)
    if unit is None and kind.lower() not in _OWN and load_plugins():  # an op nobody registered: the plug-ins' turn
        _OPS.clear()
        _UNITS.clear()
        unit = _make(kind, version)
    _OPS[key] = unit
    return unit


def _make(kind: str, version: str) -> Op | None:
    found = resolve(kind, version)
    low = kind.lower()
    if isinstance(found, str):
        return Refused(kind, found)
    if found is None:  # not an opset: functions for every version only, undecided where attributes do not parse
        fns = _functions(low, None)
        if fns is None or fns.shape is None:
            return None
        latest = _latest(low)
        return Op(kind, None, _schema(*latest) if latest else EMPTY, fns, strict=False)
    name, v = found
    unit = _UNITS.get((low, v))
    if unit is None:
        fns = _functions(low, v)
        if fns is None or fns.shape is None:
            return None
        unit = _UNITS[(low, v)] = Op(name, v, _schema(name, v), fns)
    return unit


def shape_fn(kind: str, version: str = "") -> ShapeFn | None:
    """The shape function of the layer type ``kind`` in ``version`` (its attributes read first); None where the
    registry has none."""
    unit = op(kind, version)
    return None if unit is None else unit.shape


def value_fn(kind: str, version: str = "") -> ValueFn | None:
    unit = op(kind, version)
    return None if unit is None or unit.value_fn is None else unit.value


def type_fn(kind: str, version: str = "") -> TypeFn | None:
    """The type rule of op ``kind`` in opset ``version``; None where it has none (see :func:`.node.type_infer`)."""
    unit = op(kind, version)
    return None if unit is None else unit.types_fn


def registered() -> list[tuple[str, int | None]]:
    """Every (op type, op version) with a shape function, sorted (``None``: any version)."""
    load_families()
    return sorted(((t, v) for (t, v), f in FUNCTIONS.items() if f.shape is not None),
                  key=lambda k: (k[0], -1 if k[1] is None else k[1]))
