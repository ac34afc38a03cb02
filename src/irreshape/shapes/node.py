"""What an op's shape function sees (:class:`Node`), what it raises, and the tables the op families register
their functions in (:func:`shape_infer`, :func:`value_eval`); :mod:`.registry` looks them up.

OpenVINO keeps one shape-inference unit per op (``src/core/shape_inference/include/*_shape_inference.hpp``)
and ONNX registers inference with the op schema; irreshape does the same. Each module of
:mod:`irreshape.shapes.ops` holds one op family and registers, for each op type it knows:

* a **shape function** ``fn(node) -> list[Shape]``: the partial shape of every output port, in port
  order, exactly as openvino 2026.4.1 infers it from the input shapes, the attributes and the values of
  the inputs it reads as data (axes, orders, pads, target shapes). It raises :class:`ShapeError` with
  OpenVINO's own message where OpenVINO rejects the node, and :class:`Undecided` where irreshape cannot
  tell what OpenVINO infers (never a guess);
* optionally a **value evaluator** ``fn(node, tensors) -> Tensor | list[Tensor]``: the value bounds of the
  outputs from the bounds of the inputs, as OpenVINO's ``evaluate_lower``/``evaluate_upper`` give them
  (for ops that appear in shape subgraphs: ShapeOf, Gather, Concat, arithmetic, ...).
* optionally a **type rule** ``fn(node) -> list[str | None]`` (:func:`type_infer`): the element type of every
  output from the input types and the attributes, as ``validate_and_infer_types`` gives them, raising
  :class:`ShapeError` where OpenVINO rejects the input types (shared pieces in :mod:`.typerule`).

Functions are pure: they see a :class:`Node` (type, version, attributes as the IR writes them, input
shapes, input values) and nothing of the XML or of the graph.

    @shape_infer("Relu", "Sigmoid")
    def _same(node):
        return [node.input(0)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Union

from ..core.dims import Dim, Shape
from ..core.text import parse_ints
from .arity import ARITY
from .reshape import bound_value
from .schema import EMPTY, AttributeError_, Schema
from .schema import parse_bool as read_bool
from .versions import opset_number, resolve  # noqa: F401
from .values import INT_RANGES, RAW_REFUSED, RAW_TYPES, Rejected, Tensor, raw_read, wrap


class ShapeError(ValueError):
    """OpenVINO rejects the node; the message is OpenVINO's own where it has one."""


class Undecided(Exception):
    """irreshape cannot tell what OpenVINO infers here (an input value it cannot evaluate, an attribute
    form it does not know): the output is left to the declared dims, never guessed."""


_ABSENT = object()


def size_dim(v: int) -> Dim:
    """A ``size_t`` made a dimension as OpenVINO makes it, ``Dimension(static_cast<int64_t>(v))``: 2**64 - 1
    (an attribute written -1) is ``?``; any other value past int64 is undecided."""
    n = wrap(v, "i64")
    if n < -1:
        raise Undecided(f"a dimension of {v} (int64 {n})")
    return Dim.of(n)


def _is_str(v: object) -> bool:
    return isinstance(v, str)


def _is_bool(v: object) -> bool:
    return isinstance(v, bool)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_real(v: object) -> bool:
    return isinstance(v, float)


def _is_ints(v: object) -> bool:
    return isinstance(v, list) and bool(v) and all(_is_int(x) for x in v)


def _is_reals(v: object) -> bool:
    return isinstance(v, list) and bool(v) and all(_is_real(x) for x in v)


class Node:
    """What a shape function sees of one layer.

    ``inputs``: the partial shape arriving at each input port, in port order (``None``: dynamic rank).
    ``values``: per input port, the value bounds OpenVINO knows for that tensor (a :class:`Tensor`),
    ``None`` where OpenVINO knows none (a run-time input), or :class:`Undecided` (the class or an instance)
    where irreshape could not evaluate it; or a callable ``i -> that`` evaluated on first use.
    ``attrs``: the layer's ``<data>`` attributes, as strings.
    ``sources``: ``i -> (kind, <data> attributes)`` of input i's producer layer (None: unknown), for the ops
    that look at their producer node rather than at a value (openvino-tokenizers' RaggedToDense).
    ``types``: the element type arriving at each input port (a name of :mod:`irreshape.core.etypes`; None
    where irreshape does not know it), for a type rule (:func:`type_infer`).
    ``bodies``: a TensorIterator's, Loop's or If's sub-graphs, each an object that infers its body on request
    (see :mod:`.ops.control`, which says what it offers); empty for every other op.
    """

    __slots__ = ("type", "version", "opset_name", "attrs", "a", "inputs", "n_outputs", "bodies", "types",
                 "_values", "_memo", "_sources")

    def __init__(self, type: str, version: str, attrs: Mapping[str, str], inputs: Sequence[Shape],
                 n_outputs: int = 1,
                 values: "Sequence[object] | Callable[[int], object] | None" = None,
                 bodies: Sequence[Any] = (),
                 sources: "Callable[[int], tuple[str, Mapping[str, str]] | None] | None" = None,
                 types: Sequence[str | None] = ()) -> None:
        self.bodies = bodies
        self._sources = sources
        self.types = types
        self.type = type
        self.opset_name = version
        found = resolve(type, version)
        #: the op version OpenVINO reads the layer as (MaxPool in opset16: 14); None outside its opsets
        self.version: int | None = found[1] if isinstance(found, tuple) else None
        self.attrs = attrs
        #: the attributes as OpenVINO reads them (the op's schema), set before its functions run
        self.a: dict[str, Any] = {}
        self.inputs = inputs
        self.n_outputs = n_outputs
        self._values = values
        self._memo: dict[int, object] = {}

    def __repr__(self) -> str:
        return f"Node({self.type}-{self.version}, inputs={self.inputs!r})"

    # -- attributes ---------------------------------------------------------------------------------
    def attr(self, name: str, default: str | None = None) -> str | None:
        v = self.attrs.get(name)
        return default if v is None else v.strip()

    # Each typed accessor below reads the attribute as OpenVINO reads it (``node.a``, the op version's schema: its
    # default where the <data> lacks it) when the schema holds it with that type, so a call site's default cannot
    # disagree with OpenVINO's; an attribute the schema does not know (a custom op's) is parsed from its text.
    def _typed(self, name: str, kind) -> Any:
        v = self.a.get(name, _ABSENT)
        return v if kind(v) else _ABSENT

    def lower(self, name: str, default: str | None = None) -> str:
        """An enum attribute, lower-cased (OpenVINO's enum names are matched case-insensitively); without a
        default (the schema's), :class:`Undecided` where neither the schema nor the IR gives it."""
        v = self._typed(name, _is_str)
        if v is not _ABSENT:
            return v.strip().lower()
        text = self.attr(name) or default
        if text is None:
            raise Undecided(f"attribute {name!r} is missing")
        return text.lower()

    def flag(self, name: str, default: bool = False) -> bool:
        v = self._typed(name, _is_bool)
        return v if v is not _ABSENT else parse_flag(self.attrs.get(name), default)

    def _parsed(self, name: str, default: object, parse: Callable[[str], object], what: str, scalar: bool) -> Any:
        """Attribute ``name`` read by ``parse``: ``default`` where the attribute is absent (or, for a
        ``scalar``, empty), :class:`Undecided` where there is no default or the text is not ``what``."""
        v = self.attr(name)
        if v is None or (scalar and v == ""):
            if default is None:
                raise Undecided(f"attribute {name!r} is missing")
            return default
        try:
            return parse(v)
        except ValueError:
            raise Undecided(f"attribute {name}={v!r} is not {what}") from None

    def int(self, name: str, default: int | None = None) -> int:
        v = self._typed(name, _is_int)
        return v if v is not _ABSENT else self._parsed(name, default, int, "an integer", scalar=True)

    def size_dim(self, name: str, default: int | None = None) -> Dim:
        """A ``size_t`` attribute made a dimension (:func:`size_dim`)."""
        return size_dim(self.int(name, default))

    def float(self, name: str, default: float | None = None) -> float:
        v = self._typed(name, _is_real)
        return v if v is not _ABSENT else self._parsed(name, default, float, "a number", scalar=True)

    def ints(self, name: str, default: Sequence[int] = ()) -> list[int]:
        """A list attribute (``"1,2,3"``; ``""`` is the empty list)."""
        v = self._typed(name, _is_ints)
        return list(v) if v is not _ABSENT else self._parsed(name, list(default), parse_ints, "a list of integers",
                                                              scalar=False)

    def floats(self, name: str, default: Sequence[float] = ()) -> list[float]:
        v = self._typed(name, _is_reals)
        return list(v) if v is not _ABSENT else self._parsed(
            name, list(default), lambda v: [float(t) for t in v.split(",") if t.strip()], "a list of numbers",
            scalar=False)

    # -- inputs -------------------------------------------------------------------------------------
    def input(self, i: int) -> Shape:
        """The shape on input port ``i``; None (dynamic rank) past the last port."""
        return self.inputs[i] if i < len(self.inputs) else None

    def has_input(self, i: int) -> bool:
        return i < len(self.inputs)

    def rank(self, i: int) -> int | None:
        s = self.input(i)
        return None if s is None else len(s)

    def value(self, i: int, cast: bool = False) -> Tensor | None:
        """The value bounds of input ``i`` as OpenVINO knows them; None where it knows none.
        Raises :class:`Undecided` where irreshape could not evaluate them.

        As shape inference reads them (``get_raw_data_as``): a boolean, u1, u2, u3, u6, f8 or f4 tensor is refused
        ("Element not supported", :class:`ShapeError`), an i4/u4/nf4 Const read a signed byte per element. ``cast``:
        as ``Constant::cast_vector`` reads them instead (an If's or a Loop's condition), every type unpacked."""
        if i in self._memo:
            v = self._memo[i]
        else:
            src = self._values
            if src is None or i >= len(self.inputs):
                v = None
            elif callable(src):
                v = src(i)
            else:
                v = src[i] if i < len(src) else None
            if isinstance(v, Tensor):
                v = _fitting(v, self.inputs[i], i)
            self._memo[i] = v
        if isinstance(v, Tensor):
            if cast:
                if v.et not in RAW_TYPES:
                    return v
                if len(v.lo) != len(v.raw or v.lo) or not v.lo:
                    raise Undecided(f"the {v.et} values of input {i} are not unpacked")
                return Tensor("i64" if all(isinstance(x, int) for x in v.lo) else "f32", v.shape, v.lo, v.hi)
            try:
                read = raw_read(v)
            except Rejected as e:
                raise ShapeError(str(e)) from None
            if read is None:
                raise Undecided(f"irreshape cannot tell what OpenVINO reads of the {v.et} values of input {i}")
            return read
        if isinstance(v, ShapeError):  # OpenVINO throws evaluating the input's subgraph
            raise v
        if v is Undecided or isinstance(v, Undecided):
            src = self.source(i)
            if not cast and src is not None and src[0] == "const" and \
                    (src[1].get("element_type") or "").lower() in RAW_REFUSED:
                raise ShapeError("Element not supported")
            raise Undecided(str(v) if isinstance(v, Undecided) else f"the value of input {i} is unknown")
        return v  # type: ignore[return-value]

    def const(self, i: int, cast: bool = False) -> list[int] | None:
        """``get_input_const_data_as<int64_t>``: input ``i``'s values (flattened, read as int64) when
        OpenVINO knows them exactly (a Const, or a subgraph it folds); None otherwise. ``cast``: as
        ``Constant::cast_vector`` reads them (see :meth:`value`)."""
        t = self.value(i, cast)
        if t is None or not t.is_const:
            return None
        if t.et in INT_RANGES:
            return [wrap(v, "i64") for v in t.lo]
        if not all(math.isfinite(v) for v in t.lo):  # a cast C++ leaves undefined
            raise Undecided(f"input {i} holds a value that is not finite, read as an integer")
        return [int(v) for v in t.lo]  # a float tensor read as integers truncates toward 0

    def source(self, i: int) -> "tuple[str, Mapping[str, str]] | None":
        """(kind, <data> attributes) of the layer input ``i`` comes from; None where unknown."""
        return self._sources(i) if self._sources is not None and i < len(self.inputs) else None

    def from_const(self, i: int) -> bool:
        """Input ``i`` comes straight from a Const layer (what an op that looks at its producer node, not at a
        folded value, sees: openvino-tokenizers' RaggedToDense)."""
        src = self.source(i)
        return src is not None and src[0] == "const"

    def const_floats(self, i: int) -> list[float] | None:
        t = self.value(i)
        if t is None or not t.is_const:
            return None
        return [float(v) for v in t.lo]

    def bounds(self, i: int) -> list[tuple[int, int]] | None:
        """``get_input_bounds``: (lower, upper) of each element of input ``i``, with OpenVINO's remapping of
        the integer limits (an i32/i64 maximum reads as unbounded, INF); None where OpenVINO has none."""
        t = self.value(i)
        if t is None:
            return None
        if t.et not in INT_RANGES:
            if not all(math.isfinite(v) for v in t.lo + t.hi):
                raise Undecided(f"input {i} holds a value that is not finite, read as an integer")
            return [(int(a), int(b)) for a, b in zip(t.lo, t.hi)]
        return [(bound_value(a, t.et), bound_value(b, t.et)) for a, b in zip(t.lo, t.hi)]

    def shape_const(self, i: int) -> bool:
        """Whether ``get_input_const_data_as_shape`` reads input ``i`` as constant values: a Const node's
        (``get_input_const_data_as`` looks at the producer node); a value folded from a subgraph (a Convert of a
        Const) is read as its bounds instead, where a negative one is refused (measured: Broadcast-3, Tile)."""
        t = self.value(i)
        if t is None or not t.is_const:
            return False
        src = self.source(i)
        return src is None or src[0] == "const" or t.et not in INT_RANGES or all(v >= 0 for v in t.lo)

    def as_shape(self, i: int) -> Shape:
        """``get_input_const_data_as_shape``: input ``i`` read as dims; None where OpenVINO has no bounds for it.
        A constant's values are ``Dimension(v)`` (-1 is ``?``, anything lower 0); bounds are each element's
        interval, and OpenVINO rejects a negative bound ("Value for partial shape evaluation can't be lower
        than zero.")."""
        t = self.value(i)
        if t is None:
            return None
        if self.shape_const(i):
            return [Dim(v, v) for v in self.const(i)]  # type: ignore[union-attr]
        b = self.bounds(i)
        if any(lo < 0 or hi < 0 for lo, hi in b):  # type: ignore[union-attr]
            raise ShapeError("Value for partial shape evaluation can't be lower than zero.")
        return [Dim(lo, hi) for lo, hi in b]  # type: ignore[union-attr]


def parse_flag(text: str | None, default: bool = False) -> bool:
    """A boolean attribute the way OpenVINO reads one: ``true``/``1`` (any case) is true, ``false``/``0``
    false; anything else keeps the default (``m_pythondiv="yes"`` is true)."""
    return default if text is None else read_bool(text, default)




def _fitting(v: Tensor, shape: Shape, i: int) -> "Tensor | Undecided":
    """``v``, where it holds as many elements as input ``i``'s static ``shape`` does; else an Undecided. In
    OpenVINO a tensor's values and shape always agree; in the blame reading, where a lying layer keeps its declared
    dims, a Const's values can disagree with them, and no shape function may read one against the other."""
    if shape is not None and all(d.is_static for d in shape):
        n = 1
        for d in shape:
            n *= d.lo
        held = len(v.lo) if v.et not in RAW_TYPES else math.prod(v.shape)  # (a Const's values may not be unpacked)
        if n != held:
            return Undecided(f"the value of input {i} holds {held} elements, its shape {n} in this reading")
    return v


ShapeFn = Callable[[Node], list[Shape]]
ValueFn = Callable[[Node, list[Tensor]], Union[Tensor, list[Tensor]]]
TypeFn = Callable[[Node], list[Union[str, None]]]


class OpFunctions:
    """What the op families register for one op type in one op version (or every version, ``version`` None):
    its shape function, value evaluator and type function. :class:`Op` joins them with the version's
    attribute schema."""

    __slots__ = ("type", "version", "shape", "value", "types")

    def __init__(self, type: str, version: int | None) -> None:
        self.type, self.version = type, version
        self.shape: ShapeFn | None = None
        self.value: ValueFn | None = None
        self.types: Callable | None = None


# (op type lower-cased, op version or None for every version) -> its functions
FUNCTIONS: dict[tuple[str, int | None], OpFunctions] = {}


def _register(slot: str, types: Sequence[str], versions: Sequence[int]) -> Callable:
    def deco(fn):
        for t in types:
            # an op version number; a version name (a custom op's "extension") is every version of the type: outside
            # OpenVINO's opsets a version does not choose the functions
            for v in {None if isinstance(v, str) else v for v in versions} or (None,):
                unit = FUNCTIONS.setdefault((t.lower(), v), OpFunctions(t, v))
                if getattr(unit, slot) is not None:
                    raise RuntimeError(f"{t} ({'v' + str(v) if v is not None else 'any version'}) is registered twice")
                setattr(unit, slot, fn)
        return fn
    return deco


def shape_infer(*types: str, versions: Sequence[int] = ()) -> Callable[[ShapeFn], ShapeFn]:
    """Register a shape function for op ``types`` (case-insensitive) in op ``versions`` (1, 8, 14: the
    ``vN`` of OpenVINO's class; none: every version without a function of its own)."""
    return _register("shape", types, versions)


def passthrough(fn: ShapeFn) -> ShapeFn:
    """Mark a shape function that gives its input 0's shape, unchecked, as its one output: callers may take
    that shape without calling it (once the attributes are read)."""
    fn.passthrough = True  # type: ignore[attr-defined]
    return fn


def value_eval(*types: str, versions: Sequence[int] = ()) -> Callable[[ValueFn], ValueFn]:
    """Register a value evaluator, as :func:`shape_infer`."""
    return _register("value", types, versions)


def type_infer(*types: str, versions: Sequence[int] = ()) -> Callable[[TypeFn], TypeFn]:
    """Register a type rule, as :func:`shape_infer`: ``fn(node) -> list[str | None]``, the element type of every
    output port from ``node.types`` and the attributes, as OpenVINO's ``validate_and_infer_types`` gives them
    (None: irreshape cannot tell), raising :class:`ShapeError` with OpenVINO's message where it rejects the
    input types. An op with a shape function and no type rule gives its input 0's type to every output."""
    return _register("types", types, versions)


class Op:
    """One op version as OpenVINO's node class holds it: its attribute schema (parsed once per <data>), the input
    counts it takes (:data:`.arity.ARITY`, measured), shape function, value evaluator and type function.
    :mod:`.registry` makes them; a layer finds its own by type and opset there."""

    __slots__ = ("type", "version", "schema", "arity", "shape_fn", "value_fn", "types_fn", "passthrough", "strict",
                 "shape", "value")

    def __init__(self, type: str, version: int | None, schema: Schema, functions: "OpFunctions | None",
                 strict: bool = True) -> None:
        self.type, self.version, self.schema = type, version, schema
        self.arity = ARITY.get((type, version)) if version is not None else None
        self.shape_fn = functions.shape if functions else None
        self.value_fn = functions.value if functions else None
        self.types_fn = functions.types if functions else None
        # a shape function that gives its input 0's shape, for a layer of one input that the op takes
        self.passthrough = bool(getattr(self.shape_fn, "passthrough", False)) and self.count_error(1) is None
        self.strict = strict  # an opset op: an attribute OpenVINO cannot read is its refusal, else undecided
        self.shape = self.infer  # the bound methods, made once (callers compare them)
        self.value = self.evaluate

    def __repr__(self) -> str:
        return f"Op({self.type}-{self.version})"

    def read(self, node: Node) -> None:
        """Give ``node`` its typed attributes (``node.a``); raises :class:`ShapeError` with OpenVINO's message
        where its IR reader refuses one (:class:`Undecided` for an op outside OpenVINO's opsets)."""
        try:
            node.a = self.schema.parse(node.attrs)
        except AttributeError_ as e:
            if self.strict:
                raise ShapeError(str(e)) from None
            raise Undecided(str(e)) from None

    def count_error(self, n: int) -> "tuple[str, bool] | None":
        """``read_model``'s refusal of this op with ``n`` inputs: (its message, whether it comes only after the
        node's validation, i.e. after the shape function's own refusals); None where it takes them, or where the
        counts are not measured (the control-flow ops: their port maps say; an op outside OpenVINO's opsets)."""
        arity = self.arity
        if arity is None:
            return None
        accepted, more, runs = arity
        if n in accepted or (more and n > accepted[-1]):
            return None
        text, late = next((text, late) for first, text, late in reversed(runs) if first <= n)
        return text.format(n=n), late

    def attrs_error(self, data: Mapping[str, str]) -> str | None:
        """OpenVINO's message where it cannot read ``data``; None where it can."""
        try:
            self.schema.parse(data)
        except AttributeError_ as e:
            return str(e)
        return None

    def infer(self, node: Node) -> list[Shape]:
        """The op's shape function on ``node``, its attributes read first, its input count checked as OpenVINO
        checks it: before the shape function, or (a count refused only by ``clone_with_new_inputs``) after it, its
        own refusals first."""
        self.read(node)
        arity = self.arity
        if arity is None or len(node.inputs) in arity[0]:  # the usual case, at once
            return self.shape_fn(node)  # type: ignore[misc]
        bad = self.count_error(len(node.inputs))
        if bad is None:
            return self.shape_fn(node)  # type: ignore[misc]
        if bad[1]:
            try:
                self.shape_fn(node)  # type: ignore[misc]
            except ShapeError:
                raise
            except (Undecided, IndexError, ValueError, KeyError, TypeError):
                pass
        raise ShapeError(bad[0])

    def evaluate(self, node: Node, tensors: list[Tensor]) -> "Tensor | list[Tensor]":
        self.read(node)
        return self.value_fn(node, tensors)  # type: ignore[misc]


class Refused(Op):
    """A type and version OpenVINO's IR reader does not know: every use is its refusal."""

    __slots__ = ("message",)

    def __init__(self, type: str, message: str) -> None:
        super().__init__(type, None, EMPTY, None)
        self.message = message
        self.shape_fn = self._refuse  # type: ignore[assignment]

    def _refuse(self, node: Node) -> list[Shape]:
        raise ShapeError(self.message)
