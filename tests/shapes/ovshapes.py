"""Differential harness: an op's shape function in irreshape's registry against openvino 2026.4.1.

A case builds one op with openvino's opset API from Parameters of given partial shapes (and Constants
it makes itself). The harness saves it as IR and reads the layer back with irreshape's own reader, so
the attributes are exactly the strings the serializer writes; it then calls the registered shape
function with the input shapes openvino sees and the values of the Constant inputs, and compares
every output port with openvino's partial shape. Where openvino refuses to build the op, the
attributes come from a build on inputs of dynamic rank, and irreshape must raise ShapeError.

    def test_relu():
        cases = [Case(lambda p: o.relu(p[0]), ["?,3,1..8"]), ...]
        assert_cases(cases)
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import openvino as ov
from openvino import opset1  # noqa: F401
from openvino.utils.node_factory import NodeFactory

from irreshape.core.dims import INF, Dim, Shape, format_shape
from irreshape.frontends.openvino import parse
from irreshape.shapes import registry
from irreshape.shapes.values import const as const_tensor

TARGET = "target_op"


def to_shape(ps: ov.PartialShape) -> Shape:
    """openvino's partial shape as irreshape's Shape."""
    if ps.rank.is_dynamic:
        return None
    # raw bounds, as openvino holds them: `1..0` and an empty dim (min length -1) are kept, not canonicalised
    return [Dim.raw(INF if d.get_min_length() == -1 else d.get_min_length(),
                    INF if d.get_max_length() == -1 else d.get_max_length()) for d in ps]


def pshape(text: str) -> ov.PartialShape:
    """``"?,3,1..8"``, ``""`` (scalar), ``"..."`` (dynamic rank) → ov.PartialShape."""
    if text.strip() == "...":
        return ov.PartialShape.dynamic()
    return ov.PartialShape(f"[{text}]")


@dataclass
class Case:
    """``build(params)`` returns the op under test (a Node or an Output of it), built on Parameters with
    ``shapes`` (partial-shape strings) and ``types`` (element types, default f32)."""

    build: Callable[[list], object]
    shapes: Sequence[str]
    types: Sequence[object] = ()
    label: str = ""

    def __str__(self) -> str:
        return self.label or f"{self.shapes}"


@dataclass
class Outcome:
    case: Case
    expected: list[Shape] | str  # openvino's output shapes, or its error text
    got: list[Shape] | str  # irreshape's, or "ShapeError: ...", "Undecided: ...", "no shape function"
    layer_type: str = ""
    version: str = ""
    attrs: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        if isinstance(self.expected, str):
            return isinstance(self.got, str) and self.got.startswith("ShapeError")
        if isinstance(self.got, str):
            return False
        return [_text(s) for s in self.got] == [_text(s) for s in self.expected]

    def __str__(self) -> str:
        exp = self.expected if isinstance(self.expected, str) else [_text(s) for s in self.expected]
        got = self.got if isinstance(self.got, str) else [_text(s) for s in self.got]
        return f"{self.layer_type}-{self.version} {self.case} attrs={self.attrs}: openvino {exp}, irreshape {got}"


def _text(s: Shape) -> str:
    # raw bounds too: an impossible interval such as 1..0 must match as well
    return format_shape(s) if s is None else format_shape(s) + str([(d.lo, d.hi) for d in s])


def _params(case: Case, dynamic: bool) -> list:
    types = list(case.types) or [ov.Type.f32] * len(case.shapes)
    out = []
    for i, (s, t) in enumerate(zip(case.shapes, types)):
        p = opset1.parameter(ov.PartialShape.dynamic() if dynamic else pshape(s), t, name=f"in{i}")
        out.append(p)
    return out


def _node_of(built) -> ov.Node:
    if isinstance(built, ov.Output):
        return built.get_node()
    if isinstance(built, (list, tuple)):
        return _node_of(built[0])
    return built


def _values(node: ov.Node) -> list:
    vals = []
    for inp in node.inputs():
        src = inp.get_source_output().get_node()
        if src.get_type_name() == "Constant":
            data = np.asarray(src.get_data())
            et = src.get_output_element_type(0).get_type_name()
            flat = [float(x) if data.dtype.kind == "f" else int(x) for x in data.reshape(-1).tolist()] \
                if data.dtype.kind in "fiub" else []
            if data.dtype.kind == "b":
                et = "u8"
            try:
                vals.append(const_tensor(et, tuple(data.shape), flat))
            except Exception:  # an element type the value engine does not hold
                vals.append(None)
        else:
            vals.append(None)
    return vals


def _our_layer(node: ov.Node, folder: str):
    node.set_friendly_name(TARGET)
    results = [opset1.result(o) for o in node.outputs()]
    params = []
    seen = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n.get_type_name() == "Parameter":
            params.append(n)
        stack.extend(i.get_source_output().get_node() for i in n.inputs())
    model = ov.Model(results, params, "case")
    xml = os.path.join(folder, "case.xml")
    ov.save_model(model, xml, compress_to_fp16=False)
    ir = parse(xml)
    layer = next(la for la in ir.layers.values() if la.name == TARGET)
    return layer


def run_case(case: Case, folder: str) -> Outcome:
    error = None
    try:
        node = _node_of(case.build(_params(case, dynamic=False)))
        expected: list[Shape] | str = [to_shape(o.get_partial_shape()) for o in node.outputs()]
        inputs = [to_shape(i.get_partial_shape()) for i in node.inputs()]
    except Exception as e:  # openvino refuses the op: attributes from a build on dynamic-rank inputs
        error = f"openvino: {str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__}"
        expected = error
        node = _node_of(case.build(_params(case, dynamic=True)))
        inputs = None
    values = _values(node)
    layer = _our_layer(node, folder)
    if inputs is None:  # the shapes openvino refused, with the Constants the dynamic build made
        inputs = [None if s.strip() == "..." else to_shape(pshape(s)) for s in case.shapes]
        inputs += [to_shape(i.get_partial_shape()) for i in node.inputs()][len(inputs):]
    fn = registry.shape_fn(layer.type, layer.version)
    out = Outcome(case, expected, "no shape function", layer.type, layer.version, dict(layer.data))
    if fn is None:
        return out
    n = registry.Node(layer.type, layer.version, layer.data, inputs, len(layer.outputs), values)
    try:
        out.got = list(fn(n))
    except registry.ShapeError as e:
        out.got = f"ShapeError: {e}"
    except registry.Undecided as e:
        out.got = f"Undecided: {e}"
    return out


def run_cases(cases: Sequence[Case]) -> list[Outcome]:
    with tempfile.TemporaryDirectory() as folder:
        return [run_case(c, folder) for c in cases]


def assert_cases(cases: Sequence[Case], min_cases: int = 1) -> list[Outcome]:
    """Every case agrees with openvino; the failures listed (the first 20) otherwise."""
    outcomes = run_cases(cases)
    assert len(outcomes) >= min_cases
    bad = [o for o in outcomes if not o.ok]
    assert not bad, f"{len(bad)} of {len(outcomes)} cases differ from openvino:\n" + "\n".join(map(str, bad[:20]))
    return outcomes


# -- building ops as the IR reader does, and drawing their input shapes ----------------------------------
_FACTORIES: dict[str, NodeFactory] = {}


def mk(opset: str, kind: str, inputs, attrs=None):
    """The op as the IR reader makes it: default constructor, arguments, attributes, validation."""
    factory = _FACTORIES.setdefault(opset, NodeFactory(opset))
    return factory.create(kind, [i.output(0) if hasattr(i, "output") else i for i in inputs], attrs or {})


def dim_variants(rng: random.Random, value: int, compatible: bool = False) -> str:
    """One dim of ``value``, or a stand-in for it: ``?`` or an interval that holds it; unless
    ``compatible``, also an interval that misses it or another static value."""
    holding = ["?", f"{max(value - 1, 0)}..{value + 2}", f"..{value + 3}", f"{value}.."]
    if compatible:
        return rng.choice(holding)
    return rng.choice([str(value)] * 5 + holding + [f"{value + 1}..{value + 4}", str(value + 1)])


def shape_of(rng: random.Random, dims, p_dynamic_rank: float = 0.08, p_perturb: float = 0.3,
             compatible: bool = False) -> str:
    """A partial-shape string for the consistent ``dims``, each perturbed with ``p_perturb``; sometimes a
    dynamic rank, and (unless ``compatible``) sometimes a dim too many or too few."""
    roll = rng.random()
    if roll < p_dynamic_rank:
        return "..."
    dims = list(dims)
    if roll < p_dynamic_rank + 0.03 and not compatible:
        dims = dims + [1] if rng.random() < 0.5 else dims[:-1]
    return ",".join(dim_variants(rng, d, compatible) if rng.random() < p_perturb else str(d) for d in dims)


def shapes_for(rng: random.Random, dims_list, p_perturb: float = 0.3) -> list[str]:
    """The input shapes of one case: half the cases keep every input compatible with the others (dims
    only relaxed to ``?`` and intervals, which OpenVINO merges), half may break them."""
    compatible = rng.random() < 0.5
    return [shape_of(rng, dims, p_perturb=p_perturb * (1.5 if compatible else 1), compatible=compatible)
            for dims in dims_list]


def types_agree(opset: str, kind: str, shapes, types: Sequence[str], attrs=None, n_outputs: int = 1) -> bool:
    """The op built by ``mk`` on Parameters of ``shapes`` (partial-shape strings) and element ``types`` (names such
    as ``f32``, ``boolean``, ``dynamic``) against its registered type rule: both refuse, or the output types agree."""
    params = [opset1.parameter(pshape(s), getattr(ov.Type, t)) for s, t in zip(shapes, types)]
    try:
        node = mk(opset, kind, params, attrs)
        theirs = [o.get_element_type().get_type_name() for o in node.outputs()]
    except RuntimeError:
        theirs = None
    text = {k: (v if isinstance(v, str) else str(v).lower()) for k, v in (attrs or {}).items()}
    ours_node = registry.Node(kind, opset, text, [None] * len(shapes), len(theirs or [None] * n_outputs),
                              types=list(types))
    try:
        ours = registry.type_fn(kind, opset)(ours_node)
    except registry.ShapeError:
        ours = None
    assert ours == theirs, (kind, shapes, types, attrs, ours, theirs)
    return True


TYPE_POOL = ("f32", "f16", "bf16", "f64", "i32", "i64", "u8", "i8", "u64", "boolean", "dynamic")


def type_sweep(rng: random.Random, opset: str, kind: str, ports, n: int, attrs=None) -> int:
    """``n`` draws of the op's input types, each port (``(shape, type)``) kept at its type or swapped for one of
    :data:`TYPE_POOL`, every one checked by :func:`types_agree`; the number checked."""
    for _ in range(n):
        types = [rng.choice(TYPE_POOL) if rng.random() < 0.35 else t for _, t in ports]
        assert types_agree(opset, kind, [s for s, _ in ports], types, attrs)
    return n
