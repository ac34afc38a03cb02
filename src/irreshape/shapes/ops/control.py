"""Control flow: TensorIterator-0, Loop-5 and If-8, whose outputs come from sub-graphs (bodies).

OpenVINO infers such an op by giving its body's Parameters shapes derived from the outer inputs, as the
port map says, inferring the body, and deriving the outer outputs from the body's Results
(``src/core/src/op/tensor_iterator.cpp``, ``loop.cpp``, ``if.cpp``; the port maps are read as
``ir_deserializer.cpp``'s ``parse_input_description`` and ``parse_output_description`` read them).

The functions here hold those semantics and nothing of the body's inference: the op's :class:`~..node.Node`
carries ``bodies``, one object per sub-graph in file order, that offers

* ``name``: ``"body"`` (TensorIterator, Loop), ``"then"`` or ``"else"`` (If);
* ``inputs``, ``outputs``: the port map's entries, each with ``layer`` (the body layer it binds, by id) and
  ``attrs`` (the element's attributes as written); ``back_edges``: ``from_layer`` (a body Result) and
  ``to_layer`` (a body Parameter) of each back edge;
* ``kind(layer_id)``: the body layer's kind (``"parameter"``, ``"result"``, ...), None when there is none;
* ``kinds``: the kinds of all its layers;
* ``run(shapes)``: infer the body anew, the Parameters named in ``shapes`` (by id) taking those shapes and
  the others their declared ones;
* ``result(layer_id)``: the shape arriving at a body Result in the last inference (before any ``run``: the
  body as declared);
* ``parameter(layer_id)``: a body Parameter's shape in the last inference;
* ``constant(layer_id)``: the values arriving at a body Result when OpenVINO knows them exactly
  (``get_constant_from_source``), None when it does not;
* ``feeder(layer_id)``: the id of the body Parameter that feeds a Result directly, None when none does;
* ``result_type(layer_id, params)``: the element type arriving at a body Result when the Parameters of ``params``
  (by id) take those types (``set_element_type``), None where irreshape cannot tell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...core.dims import INF, Dim, Shape
from ..dimops import normalize_axis, trunc_div
from ...core import etypes as E
from ..node import Node, ShapeError, Undecided, shape_infer, type_infer

_INT = re.compile(r"\s*[+-]?[0-9]+")  # what std::stoll reads whole
_MAX_ROUNDS = 1000  # the back-edge reconciliation of a Loop settles in a few rounds; more is a runaway


@dataclass(slots=True)
class _In:
    """An input description: ``kind`` "sliced", "merged" or "invariant"; ``index`` the outer input."""

    kind: str
    index: int
    param: str
    axis: int = 0
    start: int = 0
    stride: int = 1
    part_size: int = 1
    end: int = -1
    result: str = ""  # a merged input's body Result (its back edge's source)


@dataclass(slots=True)
class _Out:
    """An output description: ``kind`` "concat" or "last"; ``index`` the outer output."""

    kind: str
    index: int
    result: str
    axis: int = 0
    start: int = 0
    stride: int = 1
    part_size: int = 1
    end: int = -1


@dataclass(slots=True)
class _Special:
    """A Loop's special body ports: its current-iteration Parameter and its condition Result, by id."""

    iteration: str | None = None
    condition: str | None = None


def _int(entry: Any, name: str, default: int | None = None, unsigned: bool = False) -> int:
    """``pugixml::get_int64_attr`` / ``get_uint64_attr`` of a port-map element's attribute."""
    text = entry.attrs.get(name)
    if text is None:
        if default is None:
            raise ShapeError(f"a port map entry (line {entry.line}) is missing mandatory attribute: {name}")
        return default
    v = int(text) if _INT.fullmatch(text) else None
    if v is None or not -(1 << 63) <= v < (1 << 63) or (unsigned and v < 0):
        what = "an unsigned integer" if unsigned else "an int64 value"
        raise ShapeError(f"a port map entry (line {entry.line}) has attribute {name}={text!r}, which is not {what}")
    return v


def _named(body: Any, layer: str, kind: str, entry: Any) -> str:
    """The id of the body Parameter or Result an entry names; OpenVINO refuses a name that is none."""
    if body.kind(layer) != kind:
        raise ShapeError(f"the port map entry at line {entry.line} names body layer {layer!r}, which is not a "
                         f"{kind.capitalize()} of the {body.name}")
    return layer


def _inputs(body: Any) -> list[_In]:
    """``parse_input_description``: in the order of ``external_port_id`` (as unsigned: -1 last; a repeated one
    kept once, the first), sliced where ``axis`` is set, merged where a back edge ends at the Parameter,
    invariant otherwise when the port id is not negative."""
    by_port: dict[int, tuple[int, Any]] = {}
    for entry in body.inputs:
        ext = _int(entry, "external_port_id")
        by_port.setdefault(ext & ((1 << 64) - 1), (ext, entry))
    out = []
    for key in sorted(by_port):
        ext, entry = by_port[key]
        _int(entry, "internal_layer_id", unsigned=True)
        if "axis" in entry.attrs:
            out.append(_In("sliced", ext, _named(body, entry.layer, "parameter", entry),
                           _int(entry, "axis", unsigned=True), _int(entry, "start", 0), _int(entry, "stride", 1),
                           _int(entry, "part_size", 1), _int(entry, "end", -1)))
            continue
        edge = next((e for e in body.back_edges if e.to_layer == entry.layer), None)
        if edge is not None:
            param = _named(body, entry.layer, "parameter", entry)
            out.append(_In("merged", ext, param, result=_named(body, edge.from_layer, "result", entry)))
        elif ext >= 0:
            out.append(_In("invariant", ext, _named(body, entry.layer, "parameter", entry)))
    return out


def _outputs(body: Any) -> list[_Out]:
    """``parse_output_description``: in the order of ``external_port_id`` (a repeated one kept once), the
    entries with a port id that is not negative numbered 0, 1, ...: concatenated where ``axis`` is set, the
    last iteration's otherwise."""
    by_port: dict[int, Any] = {}
    for entry in body.outputs:
        by_port.setdefault(_int(entry, "external_port_id"), entry)
    out = []
    for ext in sorted(by_port):
        entry = by_port[ext]
        _int(entry, "internal_layer_id", unsigned=True)
        if ext < 0:
            continue
        result = _named(body, entry.layer, "result", entry)
        if "axis" in entry.attrs:
            out.append(_Out("concat", len(out), result, _int(entry, "axis"), _int(entry, "start", 0),
                            _int(entry, "stride", 1), _int(entry, "part_size", 1), _int(entry, "end", -1)))
        else:
            out.append(_Out("last", len(out), result))
    return out


def _special(body: Any) -> _Special:
    """``parse_purpose_attribute``: the Parameter of ``purpose="current_iteration"`` and the Result of
    ``purpose="execution_condition"`` (among the entries kept once per port id)."""
    found = _Special()
    ins: dict[int, Any] = {}
    for entry in body.inputs:
        ins.setdefault(_int(entry, "external_port_id") & ((1 << 64) - 1), entry)
    for key in sorted(ins):
        if ins[key].attrs.get("purpose", "") == "current_iteration":
            found.iteration = _named(body, ins[key].layer, "parameter", ins[key])
    outs: dict[int, Any] = {}
    for entry in body.outputs:
        outs.setdefault(_int(entry, "external_port_id"), entry)
    for key in sorted(outs):
        if outs[key].attrs.get("purpose", "") == "execution_condition":
            found.condition = _named(body, outs[key].layer, "result", outs[key])
    return found


def _body(node: Node, name: str) -> Any:
    found = [b for b in node.bodies if b.name == name]
    if len(found) != 1:
        raise Undecided(f"{node.type} has {len(found)} sub-graphs named {name!r}")
    return found[0]


def _outer(node: Node, index: int) -> Shape:
    """``inputs().at(index)``: the shape on an outer input, which must exist."""
    if not 0 <= index < len(node.inputs):
        raise ShapeError(f"the port map names input {index} of {node.type}, which has {len(node.inputs)} inputs")
    return node.inputs[index]


def _positive(value: int, size: int) -> int:
    return value + size if value < 0 else value


def _set(shape: list[Dim], axis: int, dim: Dim) -> list[Dim]:
    """``PartialShape::operator[]`` assigned: a negative index counts from the end; past the rank it fails."""
    if not -len(shape) <= axis < len(shape):
        raise ShapeError(f"Accessing out-of-range dimension: axis {axis} of a shape of rank {len(shape)}")
    out = list(shape)
    out[axis] = dim
    return out


def _count(n: int) -> Dim:
    """``Dimension(n)`` for an iteration count times a part: -1 is ``?``; other negatives irreshape cannot tell."""
    if n < -1 or n > INF:
        raise Undecided(f"a concatenated dim of {n}")
    return Dim.of(n)


def _outputs_in_order(node: Node, outs: list[_Out], shapes: dict[int, Shape]) -> list[Shape]:
    if len(outs) != node.n_outputs:
        raise Undecided(f"{len(outs)} output descriptions for {node.n_outputs} output ports")
    return [shapes.get(i) for i in range(node.n_outputs)]


@shape_infer("TensorIterator", versions=(0,))
def _tensor_iterator(node: Node) -> list[Shape]:
    """``TensorIterator::validate_and_infer_types``: a sliced input gives its Parameter the outer dims with the
    axis set to ``part_size``, and the iteration count ``(|end - start| + 1) / part_size`` where that dim is
    static (the last such input decides); merged and invariant inputs give the outer dims. A concatenated
    output is the Result's dims with the axis set to ``iterations * part_size`` (``?`` while the count is not
    known; with no sliced input, the count is the first concatenated output's ``|end - start| / part_size``),
    any other the Result's dims (the last iteration's)."""
    body = _body(node, "body")
    for kind, what in (("tensoriterator", "TensorIterator"), ("loop", "Loop")):
        if kind in body.kinds:
            raise ShapeError(f"No nested {what}")
    ins, outs = _inputs(body), _outputs(body)
    if len(node.inputs) != len(ins):
        raise ShapeError("Number of inputs must be the same as number of input descriptions")
    iterations = -1
    params: dict[str, Shape] = {}
    for d in ins:
        outer = _outer(node, d.index)
        if d.kind != "sliced":
            params[d.param] = outer
            continue
        if outer is None:
            params[d.param] = None
            continue
        params[d.param] = _set(outer, d.axis, _count(d.part_size))
        dim = outer[d.axis]
        if dim.is_static:
            if d.part_size == 0:
                raise Undecided("a sliced input's part_size is 0")
            start, end = _positive(d.start, dim.lo), _positive(d.end, dim.lo)
            iterations = trunc_div(abs(end - start) + 1, d.part_size)
    body.run(params)
    if iterations == -1 and not any(d.kind == "sliced" for d in ins):
        first = next((d for d in outs if d.kind == "concat"), None)
        if first is not None:
            if first.part_size == 0:
                raise Undecided("a concatenated output's part_size is 0")
            iterations = trunc_div(abs(first.end - first.start), first.part_size)
    shapes: dict[int, Shape] = {}
    for o in outs:
        value = body.result(o.result)
        if o.kind == "concat" and value is not None:
            if not value:
                if o.axis != 0:
                    raise ShapeError("Axis must be equal to 0 if concatenated output tensor slices are scalars. "
                                     f"TensorIterator output index: {o.index}")
                value = [Dim.dynamic()]
            value = _set(value, o.axis, _count(iterations * o.part_size) if iterations != -1 else Dim.dynamic())
        shapes[o.index] = value
    return _outputs_in_order(node, outs, shapes)


def _rank_0_or_1(shape: Shape, message: str) -> None:
    """``is_rank_compatible_any_of(rank, {0, 1})``."""
    if shape is not None and len(shape) > 1:
        raise ShapeError(message)


def _flag(values: list[int] | None, what: str) -> bool | None:
    """The one value of a condition or trip-count constant (None: not a constant)."""
    if values is None:
        return None
    if len(values) != 1:
        raise ShapeError(f"The number of values in the {what} constant is greater than 1")
    return bool(values[0])


def _no_zeros(shape: Shape) -> Shape:
    """A merged input's dims, a static 0 made dynamic: the initial value of a loop-carried tensor (an empty KV
    cache) says nothing of its later shape."""
    if shape is None:
        return None
    return [Dim.dynamic() if d.is_static and d.lo == 0 else d for d in shape]


@shape_infer("Loop", versions=(5,))
def _loop(node: Node) -> list[Shape]:
    """``Loop::validate_and_infer_types``: the iteration count is the trip count (input 0) when it is a
    constant and the body's condition is always true, 1 when that condition is always false, else unknown;
    sliced inputs give their Parameter the outer dims with the axis set to ``part_size``, merged inputs the
    outer dims (a static 0 dynamic), invariant ones the outer dims. After the body's inference, each back edge
    whose Result is also an output is reconciled: the Parameter takes the Result's dims, those the Parameter's
    do not contain made dynamic (a rank change: the whole shape), and the body is inferred again until every
    Result's dims lie within its Parameter's. (The source of ``loop.cpp`` reads "incompatible"; openvino
    2026.4.1 measures as "not contained": a Parameter of [2,1..4] and a Result of [2,2..8] give [2,?].) A
    concatenated output is the Result's dims with the axis multiplied by the count (``?`` while it is not
    known), any other the Result's; a constant false condition input makes them empty."""
    body = _body(node, "body")
    ins, outs, special = _inputs(body), _outputs(body), _special(body)
    if special.iteration is not None:
        _rank_0_or_1(body.parameter(special.iteration), "Rank of CurrentIteration input must be equal to 0 or 1")
    _rank_0_or_1(node.input(1), "Rank of ExecutionCondition input must be equal to 0 or 1")
    zero = _flag(node.const(1, cast=True) if node.has_input(1) else None, "Condition") is False
    if special.condition is None:
        raise Undecided("the Loop's body has no execution_condition output")
    _rank_0_or_1(body.result(special.condition), "Rank of BodyExecutionCondition output must be equal to 0 or 1")
    iterations = -1
    always = _flag(body.constant(special.condition), "Condition")
    if always is None:
        param = body.feeder(special.condition)
        for d in ins:
            if param is not None and d.param == param:
                known = _flag(node.const(d.index, cast=True) if node.has_input(d.index) else None, "Condition")
                always = known if known is not None else always
    if always is False:
        iterations = 1  # do-while: the body runs once
    _rank_0_or_1(node.input(0), "Rank of TripCount input must be equal to 0 or 1")
    trip = node.const(0, cast=True) if node.has_input(0) else None
    if trip is not None:
        if len(trip) != 1:
            raise ShapeError("The number of values in the TripCount constant is greater than 1")
        if always:
            iterations = trip[0]
    offset = 2 - sum(d.index in (0, 1) for d in ins)
    if offset < 0:
        raise ShapeError("External port id 0 or 1 is duplicated.")
    if len(node.inputs) != len(ins) + offset:
        raise ShapeError("Number of inputs must be the same as number of input descriptions")
    params: dict[str, Shape] = {}
    back: dict[str, str] = {}
    for d in ins:
        outer = _outer(node, d.index)
        if d.kind == "sliced":
            params[d.param] = None if outer is None else \
                _set(outer, normalize_axis(d.axis, len(outer)), _count(d.part_size))
        elif d.kind == "merged":
            params[d.param] = _no_zeros(outer)
            back[d.result] = d.param
        else:
            params[d.param] = outer
    body.run(params)
    if back:
        _reconcile(body, outs, back, params, iterations)
    shapes: dict[int, Shape] = {}
    for o in outs:
        value = body.result(o.result)
        if o.kind == "concat":
            if zero:
                value = [Dim.of(0)]
            elif value is not None:
                axis = normalize_axis(o.axis, len(value))
                value = value or [Dim.of(1)]
                dim = value[axis]
                if dim.is_static and iterations != -1:
                    if iterations > 0 and dim.lo > INF // iterations:
                        raise ShapeError("TripCount * slice_size overflows int64_t")
                    value = _set(value, axis, _count(dim.lo * iterations))
                else:
                    value = _set(value, axis, Dim.dynamic())
        elif zero and value is not None and all(d.is_static for d in value):
            if not value:
                raise ShapeError("a scalar output of a Loop that never runs has no dim 0")
            value = [Dim.of(0), *value[1:]]
        shapes[o.index] = value
    return _outputs_in_order(node, outs, shapes)


def _reconcile(body: Any, outs: list[_Out], back: dict[str, str], params: dict[str, Shape], iterations: int) -> None:
    """The back-edge rounds of ``Loop::validate_and_infer_types`` (at most ``iterations`` of them when that
    count is known). A round whose body OpenVINO rejects ends them: it throws there."""
    rounds = (1 << 31) - 1 if iterations == -1 else iterations if iterations >= 0 else (1 << 64) + iterations
    for _ in range(min(rounds, _MAX_ROUNDS + 1)):
        if _ == _MAX_ROUNDS:
            raise Undecided("the Loop's back edges do not settle")
        if body.rejects():  # OpenVINO throws on this round: the body stays as it was read
            return
        changed = False
        for o in outs:
            if o.kind != "last" or o.result not in back:
                continue
            value, param = body.result(o.result), back[o.result]
            current = params.get(param, body.parameter(param))
            if value is not None:
                if current is None:
                    continue
                if len(value) == len(current):
                    if all(p.lo <= v.lo and v.hi <= p.hi for v, p in zip(value, current)):
                        continue
                    params[param] = [v if p.lo <= v.lo and v.hi <= p.hi else Dim.dynamic()
                                     for v, p in zip(value, current)]
                else:
                    params[param] = None
                changed = True
            elif current is not None:
                params[param] = None
                changed = True
        if not changed:
            return
        body.run(params)


def _merge_branches(a: Shape, b: Shape) -> Shape:
    """``resolve_shape`` of ``if.cpp``: the union of the shapes the two branches give one output."""
    if a is None or b is None:
        return None
    if len(a) != len(b):
        if len(a) <= 1 and len(b) <= 1:
            def one(s: list[Dim]) -> bool:
                return not s or all(d.is_static for d in s) and s[0].lo == 1
            return [Dim.of(1)] if one(a) and one(b) else [Dim.dynamic()]
        return None
    out = []
    for x, y in zip(a, b):
        if x.is_dynamic or y.is_dynamic:
            out.append(Dim.dynamic())
        elif x == y:
            out.append(x)
        else:
            out.append(Dim(min(x.lo, y.lo), max(x.lo, y.lo)))
    return out


@shape_infer("If", versions=(8,))
def _if(node: Node) -> list[Shape]:
    """``If::validate_and_infer_types``: each branch's Parameters take the outer dims of the inputs its port map
    names (input 0, the condition, is in neither). A constant condition infers only the branch it chooses and
    the outputs are that branch's Results' dims; otherwise both, and each output is the union of its two
    Results' dims (a dim that differs becomes the interval between them, a dynamic one ``?``)."""
    then, other = _body(node, "then"), _body(node, "else")
    _rank_0_or_1(node.input(0), "Rank of If condition input must be equal to 0 or 1")
    try:
        cond = _flag(node.const(0, cast=True) if node.has_input(0) else None, "If condition")
    except Undecided as e:  # whether OpenVINO knows the condition: decided only where every answer is the same
        return _if_either(node, then, other, e)
    branches = [then, other] if cond is None else [then if cond else other]
    described = {}
    for b in branches:
        ins, outs = _inputs(b), _outputs(b)
        b.run({d.param: _outer(node, d.index) for d in ins})
        described[b.name] = {o.index: o for o in outs}
    if cond is not None:
        chosen = branches[0]
        outs = list(described[chosen.name].values())
        shapes = {o.index: chosen.result(o.result) for o in outs}
        return [shapes.get(i) for i in range(node.n_outputs)]
    out: list[Shape] = []
    for i in range(node.n_outputs):
        for b in branches:
            if i not in described[b.name]:
                raise ShapeError(f"Incorrect associating in {b.name}_body! Output {i} is not associated with results "
                                 f"in {b.name}_body!")
        out.append(_merge_branches(then.result(described["then"][i].result),
                                   other.result(described["else"][i].result)))
    return out


def _if_either(node: Node, then: Any, other: Any, why: Undecided) -> list[Shape]:
    """An If whose condition irreshape cannot evaluate: OpenVINO infers the then branch (a true constant), the else
    branch (a false one) or the union of both (no constant). Where the two branches give every output the same
    shape, that is each of the three answers; otherwise the condition decides, and irreshape cannot tell."""
    results = []
    for b in (then, other):
        try:
            ins, outs = _inputs(b), _outputs(b)
            b.run({d.param: _outer(node, d.index) for d in ins})
        except ShapeError:  # refused in one branch: OpenVINO may never infer it
            raise why from None
        shapes = {o.index: b.result(o.result) for o in outs}
        results.append([shapes.get(i, _ABSENT) for i in range(node.n_outputs)])
    out: list[Shape] = []
    for a, b in zip(*results):
        if a is _ABSENT or a is None or a != b or _merge_branches(a, b) != a:
            raise why
        out.append(a)
    return out


_ABSENT = object()


# -- element types ----------------------------------------------------------------------------------------------
def _body_types(node: Node, body: Any, retype: bool = True) -> list[str | None]:
    """The outer output types one body gives: with ``retype`` (Loop, If) each body Parameter an outer input binds
    takes that input's type, as their ``validate_and_infer_types`` set it (a TensorIterator's keep their own), and
    each outer output is the type arriving at its Result."""
    try:
        ins, outs = _inputs(body), _outputs(body)
    except ShapeError:  # a port map OpenVINO refuses: the shape function's finding
        return [None] * node.n_outputs
    if len(outs) != node.n_outputs:
        return [None] * node.n_outputs
    params = {i.param: node.types[i.index] for i in ins
              if retype and 0 <= i.index < len(node.types) and node.types[i.index] is not None}
    return [body.result_type(o.result, params) for o in outs]  # type: ignore[arg-type]


@type_infer("TensorIterator", "Loop")
def _loop_types(node: Node) -> list[str | None]:
    if not node.bodies:
        return [None] * node.n_outputs
    return _body_types(node, node.bodies[0], retype=node.type.lower() == "loop")


@type_infer("If")
def _if_types(node: Node) -> list[str | None]:
    """Each output the merge of its two branches' types (not claimed where they do not merge)."""
    if len(node.bodies) != 2:
        return [None] * node.n_outputs
    out: list[str | None] = []
    for a, b in zip(*(_body_types(node, body) for body in node.bodies)):
        m = E.merge(a, b)
        out.append(None if m is False else m)  # type: ignore[arg-type]
    return out
