"""Tensor shapes and integer tensor values in one IR graph, memoised per file.

``Graph.shape`` gives the dims of an output port as OpenVINO's ``read_model`` infers them: from the
Parameters' ``shape`` attributes (they keep intervals) and the Consts', through every layer, by the op's
shape function in the registry (:mod:`irreshape.shapes.registry`); a Reshape-family layer's is the
result its checker computed; the declared ``<dim>``s where an op has no shape function or irreshape cannot
tell. Dims carry no symbols: OpenVINO's ``read_model`` attaches none (measured on openvino 2026.4.1: no
dim and no value of a read IR has a symbol), so a ``ShapeOf`` of the tensor being reshaped does not
cancel against it, exactly as in OpenVINO.

``Graph.value`` gives the value bounds of the integer tensor that feeds a Reshape's shape input,
evaluating its subgraph (ShapeOf, Gather, Concat, arithmetic, ...) with the ops' value evaluators, the
way OpenVINO's bound propagation does. Evaluation is iterative (no recursion, no depth limit: a graph is
inferred whole, however deep), memoised per output port, and detects cycles.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Sequence
from itertools import chain

from ..core import etypes
from ..core.dims import INF, Bound, Dim, Shape, parse_shape
from ..core.order import topological
from ..core.findings import Finding, ProblemError
from ..core.text import parse_ints
from ..frontends.openvino.model import IRModel, Layer, Port
from ..frontends.openvino.reader import NO_DATA
from ..frontends.openvino.weights import FLOAT_TYPES, MAX_FLOATS, Weights, check_const, read_const
from ..rules import finding
from ..rules import get as rule_named
from ..rules.reshape import INVALID_PATTERN
from ..shapes import registry
from ..shapes import values as V
from ..shapes.reshape import ReshapeError, pattern_from_values
from .subgraphs import subgraphs
from .values import Evaluated, NoBounds, Unknown, Value

_Result = V.Tensor | NoBounds | Unknown
_UNSET = object()
_UNDECIDED = object()  # a shape function that cannot tell what OpenVINO infers
_DIMS: dict[int, Dim] = {}  # Dim.of(n) for the values seen: a Dim is never changed once made


def _declared(dims: tuple[int, ...]) -> list[Dim]:
    """``[Dim.of(n) for n in dims]``, sharing the Dim objects."""
    out = []
    for n in dims:
        d = _DIMS.get(n)
        if d is None:
            d = Dim.of(n)
            if len(_DIMS) < 4096:
                _DIMS[n] = d
        out.append(d)
    return out


def _const_shape(layer: Layer) -> list[int] | None:
    """A Const's output shape: its ``shape`` attribute (None when malformed)."""
    try:
        dims = parse_ints(layer.data.get("shape", "")) if "shape" in layer.data else None
    except ValueError:
        return None
    return None if dims is None or any(d < 0 for d in dims) else dims


def parameter_shape(layer: Layer, port: Port | None = None) -> Shape:
    """A Parameter's own shape: its ``shape`` attribute (intervals kept), else its output port's dims (no dims:
    a scalar; None where they could not be read)."""
    if "shape" in layer.data:
        try:
            return parse_shape(layer.data["shape"])
        except ValueError:
            pass
    port = port or (layer.outputs[0] if layer.outputs else None)
    dims = None if port is None else port.dims
    return None if dims is None else _declared(dims)


def order(model: IRModel) -> tuple[Collection[str], list[str]]:
    """(layer ids producers first, the ids of layers on a cycle or fed by one): the file order when every
    edge runs forward (as OpenVINO writes IRs: the model's own keys then, no list made), else a topological
    sort."""
    if model.link().ordered:
        return model.layers.keys(), []
    return topological(list(model.layers), ((e.from_layer, e.to_layer) for e in model.edges))


def describe(layer: Layer) -> str:
    return f"{layer.type} {layer.name!r} (id {layer.id})"


def walk(memo: dict[Port, object], root: Port, sources: Callable[[Layer], list[Port | None]],
         compute: Callable[[Layer, Port, list[Port | None]], object],
         fail: Callable[[Layer, Port, str], object]) -> None:
    """Fill ``memo`` (keyed by the port, by identity) for the output port ``root`` and every output port it
    depends on, depth first, without recursion: a port gets ``compute(layer, port, sources(layer))``
    once every source port (an output port, or None for an input without an edge) is in the memo: a
    topological pass over the port's ancestors, of any depth (the stack is a list, not Python's).

    A cycle gives the port ``fail(layer, port, reason)``. The ports on the path
    are shared with the walks on the same memo that a computation nests in this one (a shape that needs a value
    that needs a shape...), so that a cycle through both readings ends as one too, not in a RecursionError.
    """
    on_path = _ON_PATH.setdefault(id(memo), set())
    if root in on_path:  # a nested walk came back to a port an outer walk is computing
        memo[root] = fail(root.layer, root, f"the shape subgraph has a cycle through {describe(root.layer)}")
        return
    mine: list[Port] = []  # what this walk put on the path: taken off again however it ends
    try:
        _walk(memo, root, sources, compute, fail, on_path, mine)
    finally:
        on_path.difference_update(mine)
        if not on_path:
            del _ON_PATH[id(memo)]


_ON_PATH: dict[int, set[Port]] = {}  # id(memo) -> the ports its active walks are computing


def _walk(memo: dict[Port, object], root: Port, sources: Callable[[Layer], list[Port | None]],
          compute: Callable[[Layer, Port, list[Port | None]], object], fail: Callable[[Layer, Port, str], object],
          on_path: set[Port], mine: list[Port]) -> None:
    stack = [(root, sources(root.layer), 0)]  # (port, its layer's sources, how many are done)
    on_path.add(root)
    mine.append(root)
    while stack:
        out, srcs, done = stack[-1]
        if out in memo:  # filled by a walk nested in a computation
            stack.pop()
            on_path.discard(out)
            continue
        # sources found in the memo stay there: the scan goes on where it stopped
        n = len(srcs)
        while done < n and (srcs[done] is None or srcs[done] in memo):
            done += 1
        if done == n:
            memo[out] = compute(out.layer, out, srcs)
            stack.pop()
            on_path.discard(out)
            continue
        pending = srcs[done]
        stack[-1] = (out, srcs, done)
        if pending in on_path:
            memo[out] = fail(out.layer, out, f"the shape subgraph has a cycle through {describe(pending.layer)}")
        else:
            stack.append((pending, sources(pending.layer), 0))
            on_path.add(pending)
            mine.append(pending)


def _source(layer: Layer, i: int) -> "tuple[str, dict[str, str]] | None":
    """(kind, <data>) of the layer input ``i`` of ``layer`` comes from (a Node's ``sources``)."""
    src = layer.inputs[i].source if i < len(layer.inputs) else None
    return None if src is None else (src.layer.kind, src.layer.data)  # type: ignore[union-attr]


class _InputShapes(Sequence[Shape]):
    """The shapes arriving at a layer's inputs, each computed when a value evaluator asks for it (ShapeOf)."""

    def __init__(self, graph: "Graph", layer: Layer) -> None:
        self._graph, self._ports = graph, layer.inputs

    def __len__(self) -> int:
        return len(self._ports)

    def __getitem__(self, i):  # type: ignore[override]
        return self._graph.input_shape(self._ports[i])


# the origins (see Graph.origin) whose shape is OpenVINO's: compared with what the XML declares
READ = ("inferred", "declared")


class Graph:
    """Shapes and values of one IR, as OpenVINO's ``read_model`` infers them: every layer with a shape function
    from its inputs, from the Parameters' ``shape`` and the Consts' ``shape`` attributes on; ``origin`` says
    how an output port's shape was had. ``inputs`` gives Parameters (by layer id) shapes of the caller's
    instead of their ``shape`` attribute (a body's, from its outer layer's inputs); in a ``scenario`` the
    declared dims are the exported model's and stand for nothing (an output irreshape cannot infer is then of
    dynamic rank)."""

    def __init__(self, model: IRModel, weights: Weights | None = None, inputs: dict[str, Shape] | None = None,
                 scenario: bool = False) -> None:
        self.model = model
        self.inputs = inputs or {}
        self.scenario = scenario
        self.bodies: dict[int, list] = {}  # id(control-flow layer) -> the Subgraphs its last inference ran
        self.runs: dict[tuple, Graph] = {}  # bodies' readings by content, shared with theirs (checks.subgraphs)
        self._origin: dict[Port, str] = {}  # port -> how its shape was had, when not as usual (see origin)
        # the output ports whose shape is taken from the declared dims of an op without inference
        # ("trusted") or inferred from such a shape ("taken"): nothing OpenVINO infers or rejects may rest on one
        self._taken: set[Port] = set()
        self.weights = weights if weights is not None else Weights(model.bin_path)
        model.link()  # every input port knows its source
        # memos per output port, keyed by the port's identity (the model keeps every port alive)
        self._shapes: dict[Port, Shape] = {}
        self._results: dict[Port, _Result] = {}
        self._values: dict[Port, Evaluated] = {}
        # Memos by content, not by port: the layers of a deep model repeat the same few shapes and constants.
        # Equal shapes are one list (so a shape's id stands for its dims), a dims tuple or <data> dict shared
        # by the parser stands for its content, and the objects keyed by id are kept alive beside the result.
        self._interned: dict[tuple, list[Dim]] = {}
        self._declared: dict[int, tuple[tuple[int, ...], Shape]] = {}  # id(port.dims) -> (dims, shape)
        self._params: dict[tuple[int, int], tuple[tuple, Shape]] = {}  # a Parameter's (id(data), id(dims)) -> shape
        self._consts: dict[int, tuple[dict, V.Tensor]] = {}  # id(Const data) -> (data, tensor)
        # id(Const data) -> (data, its `shape`, refused, the key standing for its output in the memo of shapes)
        self._const_shapes: dict[int, tuple[dict, Shape, bool, object]] = {}
        # what the reading found on its way, for the checks to report: Consts OpenVINO refuses (their <data>),
        # and the layers whose shape function failed with an exception other than its own (a bug: IR900 each)
        self.findings: list[Finding] = []
        self.crashed: dict[int, tuple[Layer, Exception]] = {}  # id(layer) -> (layer, the exception)
        # (op, version, id(attributes), outputs, ids of the input shapes) -> (the inputs whose values the shape
        # function read, {the identities of those Consts: its outputs}); see infer_output
        self._inferred: dict[tuple, tuple[tuple[int, ...], dict[tuple, object]]] = {}
        self._bounds: dict[int, tuple[V.Tensor, list[Bound]]] = {}  # id(tensor) -> (tensor, its bounds)
        self._reshaped: dict[tuple, "Shape | ReshapeError"] = {}  # see reshaped
        self._indexes: dict[int, dict[int, int]] = {}  # id(layer of many outputs) -> id(output port) -> position
        # element types (see etype): kept only where they are not what the port's precision declares
        self._types: dict[Port, str | None] | None = None
        self.type_errors: dict[int, str] = {}  # id(layer) -> OpenVINO's message where it rejects the input types
        self.retyped: list[Port] = []  # output ports whose precision is not the inferred type, in order
        self.input_lies: list[tuple[Layer, Port]] = []  # input ports whose precision is neither side's
        # an IR v10 model's inputs and outputs (output ports): the types read_model converts them to (see _v10_io)
        self.converted: dict[Port, set[str]] = {}
        self._lying: set[Port] = set()  # retyped, as a set
        self.nested = False  # a body's reading: its Parameters and Results are not the model's inputs and outputs
        # a body's: its Parameters' element types (by id) as its control-flow layer sets them from its inputs
        self.param_types: dict[str, str] = {}

        self.plugin = True  # whether the Reshape family's checks look for the CPU plugin's failures (IR4xx)
        self._base: Graph | None = None  # a probe's: the reading whose shapes and values it shares outside...
        self._cone: Container[str] = ()  # ...the ids of the layers it re-infers (see probe)

    # -- element types ---------------------------------------------------------------------------
    def etype(self, port: Port) -> str | None:
        """An output port's element type as OpenVINO infers it (``"f32"``, see :mod:`irreshape.core.etypes`);
        the type its ``precision`` declares where irreshape cannot tell (None: that is no type either)."""
        types = self._types if self._types is not None else self.infer_types()
        t = types.get(port, _UNSET)
        return etypes.from_precision(port.precision) if t is _UNSET else t  # type: ignore[return-value]

    def etype_known(self, port: Port) -> bool:
        """Whether ``etype`` is OpenVINO's type for the port, not its declared precision taken as it is."""
        if self._types is None:
            self.infer_types()
        return port not in self._untyped

    def precision_lies(self, port: Port) -> bool:
        """Whether an output port's ``precision`` is a lie (it is in ``retyped``): neither its inferred type nor,
        for an IR v10 model's input or output, the type ``read_model`` converts it to."""
        if self._types is None:
            self.infer_types()
        return port in self._lying

    def infer_types(self) -> dict[Port, str | None]:
        """Every output port's element type, producers first, as ``validate_and_infer_types`` gives them: a
        Parameter's and a Const's ``element_type``; an op's type rule (:func:`registry.type_fn`) on its inputs'
        types; input 0's type for an op with a shape function and no rule; the declared precision for an op
        irreshape does not know, or one OpenVINO rejects (its message in ``type_errors``). Only the types that
        are not what the ports declare are kept (a port's type costs nothing where its precision holds), keyed
        by the port itself (hashed by identity)."""
        types: dict[Port, str | None] = {}
        self._types, self._untyped = types, set()
        untyped, errors, retyped, lies = self._untyped, self.type_errors, self.retyped, self.input_lies
        errors.clear()  # a body's types are inferred anew when its Parameters' types change
        retyped.clear()
        lies.clear()
        self.converted = {}
        given = self.param_types
        parse = etypes.from_precision  # every port of the model
        rules: dict[tuple[str, str], tuple] = {}  # (kind, version) -> (type rule, has a shape function)
        # (rule, id(<data>), outputs, input types), or a Const's or Parameter's id(<data>) -> (output types, refusal)
        seen: dict[object, tuple] = {}
        layers = self.model.layers
        ids, cyclic = order(self.model)
        for lid in chain(ids, cyclic):
            layer = layers[lid]
            kind = layer.kind
            outs = layer.outputs
            ins: list[str | None] = []
            for p in layer.inputs:
                src = p.source
                if src is None:
                    ins.append(None)
                    continue
                declared = src.head[1]
                t = types.get(src, _UNSET)
                if t is _UNSET:
                    t = parse(declared)  # type: ignore[arg-type]
                ins.append(t)  # type: ignore[arg-type]
                own = p.head[1]
                if own != declared and own is not None and (own := parse(own)) != t and own != parse(declared):  # type: ignore[arg-type]
                    lies.append((layer, p))
            if not outs:
                continue
            if kind == "parameter" and lid in given:
                out = [given[lid]]
            elif kind == "const" or kind == "parameter":
                known = seen.get(id(layer.data))  # Consts of equal <data> share the dict: half a deep model
                if known is None:
                    try:
                        if kind == "parameter" and "shape" in layer.data:
                            parse_shape(layer.data["shape"])  # read before the type, as visit_attributes does
                        text = layer.data.get("element_type", "dynamic")
                        known = ([etypes.element_type(text)], None)
                        if kind == "const" and etypes.from_precision(text) is None:  # its bytes read by that name
                            raise etypes.ElementTypeError(f"Unsupported element type: {text}")
                    except ValueError as e:  # a `shape` or an `element_type` read_model refuses (ElementTypeError)
                        known = (None, str(e))
                    if layer.data is not NO_DATA:
                        seen[id(layer.data)] = known
                out, why = known
                if why is not None:
                    errors[id(layer)] = why
            else:
                key = (kind, layer.version)
                rule = rules.get(key)
                if rule is None:
                    rule = rules[key] = (registry.type_fn(kind, layer.version),
                                         registry.shape_fn(kind, layer.version) is not None)
                if rule[0] is None:
                    out = [ins[0] if ins else None] * len(outs) if rule[1] else None  # input 0's type, or none known
                elif layer.bodies:  # typed from its bodies' Results: never one memo for two layers
                    out, why = self._type_rule(rule[0], layer, ins, self._views(layer))
                    if why is not None:
                        errors[id(layer)] = why
                else:  # memoised by content: a deep model's blocks repeat the same few layers
                    memo = (rule, id(layer.data), len(outs), *ins)
                    known = seen.get(memo)
                    if known is None:
                        known = seen[memo] = self._type_rule(rule[0], layer, ins)
                    out, why = known
                    if why is not None:
                        errors[id(layer)] = why
            # an output port's precision no type's spelling: read_model refuses the layer before anything else
            # ("Unsupported element type", measured on 2026.4.1; an input port's precision is not read), and that
            # refusal is the port's one finding; looked for only where the precision is not the type
            misspelt = None
            if out is None:
                untyped.update(outs)
                misspelt = next((text for p in outs if (text := p.head[1]) is not None and parse(text) is None), None)
            else:
                n = len(out)
                for i, port in enumerate(outs):
                    t = out[i] if i < n else None
                    if t is None:
                        untyped.add(port)
                        text = port.head[1]
                        if text is not None and parse(text) is None and misspelt is None:
                            misspelt = text
                    elif t != (declared := parse(text := port.head[1])):  # type: ignore[arg-type]
                        types[port] = t
                        # an output nothing takes (MaxPool's indices, as Model Optimizer and POT wrote them FP32)
                        # carries no tensor a tool reads: its precision misleads no one
                        if declared is None and text is not None:
                            misspelt = text if misspelt is None else misspelt
                        elif self.model.consumers(layer.id, port.id):
                            retyped.append(port)
            if misspelt is not None:
                errors[id(layer)] = f"Unsupported element type: {misspelt}"
        if self.model.version == 10 and not self.nested:
            self._v10_io(types)
        self._lying = set(retyped)
        return types

    def _v10_io(self, types: dict[Port, str | None]) -> None:
        """An IR v10 model's inputs and outputs as ``read_model`` hands them over (``update_v10_model``): a
        Convert after each Parameter, and one after each port feeding a Result, to the legacy type
        (:func:`etypes.legacy`); the layers themselves compute their own types. A port declaring either type is
        consistent (Model Optimizer wrote one or the other): the converted one is kept in ``converted`` and such
        a port is no precision lie, nor a Result's input port repeating it."""
        parse = etypes.from_precision
        converted = self.converted
        feeding: list[tuple[Layer, Port]] = []
        for layer in self.model.layers.values():
            if layer.kind == "parameter" and layer.outputs:
                ends = [(layer.outputs[0], True)]
            elif layer.kind == "result" and layer.inputs and layer.inputs[0].source is not None:
                ends = [(layer.inputs[0].source, False)]
                feeding.append((layer, layer.inputs[0]))
            else:
                continue
            for port, is_input in ends:
                if port in self._untyped:
                    continue
                t = types.get(port, _UNSET)
                t = parse(port.head[1]) if t is _UNSET else t
                if t is None or t == etypes.DYNAMIC:
                    continue
                shown = etypes.legacy(t, is_input)  # type: ignore[arg-type]
                if shown != t:
                    converted.setdefault(port, set()).add(shown)
        if not converted:
            return
        self.retyped[:] = [p for p in self.retyped if parse(p.head[1]) not in converted.get(p, ())]
        spared = {id(port) for layer, port in feeding
                  if parse(port.head[1]) in converted.get(port.source, ())}  # type: ignore[arg-type]
        if spared:
            self.input_lies[:] = [(lay, p) for lay, p in self.input_lies if id(p) not in spared]

    def _views(self, layer: Layer) -> list:
        """The bodies of a control-flow layer as its last shape inference read them (that inference run first)."""
        if id(layer) not in self.bodies and layer.outputs:
            self.shape(layer.outputs[0])
        return self.bodies.get(id(layer)) or subgraphs(self, layer)

    @staticmethod
    def _type_rule(rule: registry.TypeFn, layer: Layer, ins: list[str | None],
                   bodies: list = ()) -> tuple[list | None, str | None]:  # type: ignore[assignment]
        """(the output types a type rule gives, None where it cannot tell; OpenVINO's message where it refuses). The
        rule reads the attributes as the op's schema types them (``node.a``); where OpenVINO cannot read one, that is
        the shape inference's finding (one root cause, one finding) and the types stay unknown."""
        node = registry.Node(layer.type, layer.version, layer.data, (), len(layer.outputs), bodies=bodies, types=ins)
        try:
            registry.op(layer.type, layer.version).read(node)  # type: ignore[union-attr]
        except (registry.ShapeError, registry.Undecided):
            return None, None
        try:
            return rule(node), None
        except registry.ShapeError as e:
            return None, str(e) or "OpenVINO rejects the element types of its inputs"
        except (registry.Undecided, ValueError, KeyError, IndexError, TypeError):
            return None, None

    def probe(self, inputs: dict[str, Shape], cone: Container[str]) -> "Graph":
        """This reading at other shapes of some Parameters (``inputs``, as a scenario's): only the layers of
        ``cone`` (ids: those downstream of the Parameters) are re-inferred; every other port takes this
        reading's shape and value, and the memos by content are this reading's too."""
        probe = Graph(self.model, self.weights, {**self.inputs, **inputs}, scenario=True)
        probe._base, probe._cone, probe.plugin = self, cone, False
        for memo in ("_interned", "_declared", "_params", "_consts", "_const_shapes", "_inferred", "_bounds",
                     "_reshaped", "_indexes"):
            setattr(probe, memo, getattr(self, memo))
        return probe

    def _shared(self, port: Port) -> bool:
        """Whether a probe takes ``port``'s shape and value from its base (recording its shape and origin)."""
        base = self._base
        if base is None or port.layer.id in self._cone:  # type: ignore[union-attr]
            return False
        if port not in self._shapes:
            self._shapes[port] = base.shape(port)
            how = base._origin.get(port)
            if how is not None:
                self._origin[port] = how
        return True

    def fork(self) -> "Graph":
        """Another reading of the same model, to be told some shapes with ``set_shape``: the memos by content
        (shapes, Consts, inferences) shared with this one, those by port empty."""
        other = Graph.__new__(Graph)
        vars(other).update(vars(self))
        other.bodies, other._origin, other._shapes, other._results, other._values = {}, {}, {}, {}, {}
        return other

    # -- shapes ----------------------------------------------------------------------------------
    def set_shape(self, port: Port, shape: Shape) -> None:
        """Record the shape the checker computed for an output port (a Reshape-family layer's)."""
        self._shapes[port] = self._intern(shape)

    def _intern(self, shape: Shape) -> Shape:
        """The one list holding these dims (shapes are never changed once made)."""
        if shape is None:
            return None
        return self._interned.setdefault(tuple([(d.lo, d.hi, d.sym) for d in shape]), shape)

    def reshaped(self, engine: Callable[[Shape, list[Bound], bool], Shape], shape: Shape, bounds: list[Bound],
                 special_zero: bool) -> "Shape | ReshapeError":
        """``engine(shape, bounds, special_zero)``, or the ReshapeError it raises, memoised by content: the
        Reshapes of a deep model's repeated blocks take the same inputs."""
        key = (engine, None if shape is None else id(self._intern(shape)), tuple(bounds), special_zero)
        out = self._reshaped.get(key, _UNSET)
        if out is _UNSET:
            try:
                out = engine(shape, bounds, special_zero)
            except ReshapeError as e:
                out = e
            self._reshaped[key] = out
        return out  # type: ignore[return-value]

    def shape(self, port: Port) -> Shape:
        """The dims of an output port as OpenVINO infers them (the declared ones where irreshape cannot)."""
        shapes = self._shapes
        known = shapes.get(port, _UNSET)
        if known is not _UNSET:
            return known  # type: ignore[return-value]
        layer: Layer = port.layer  # type: ignore[assignment]
        if layer.kind == "const":  # not kept per port: its <data>'s (see _shape_sources)
            return self._const_output(layer, port)
        if self._base is not None and self._shared(port):
            return shapes[port]
        sources = self._shape_sources(layer)
        for src in sources:
            if src is not None and src not in shapes:  # a walk, for the sources first
                walk(shapes, port, self._shape_sources, self._infer_shape,
                     lambda lay, out, why: self._declared_shape(lay, out))
                return shapes[port]
        shape = shapes[port] = self._infer_shape(layer, port, sources)
        return shape

    def prime(self, layers: Sequence[Layer]) -> None:
        """Fill the output shapes of ``layers`` (producers first), as ``shape`` would one by one, without its
        walk: a probe's layers upstream of its suspects, in file order. A layer whose sources are not all known
        yet (on a cycle) is left to ``shape``."""
        shapes, infer, op = self._shapes, self._infer_shape, registry.op
        for layer in layers:
            if layer.kind == "const":  # answered from its <data> when asked (see _const_source)
                continue
            if op(layer.type, layer.version) is None:
                sources = []
            else:  # _shape_sources, inline
                sources = [p.source for p in layer.inputs]
                for i, src in enumerate(sources):
                    if src is not None and src not in shapes:
                        if src.layer.kind == "const":  # type: ignore[union-attr]
                            sources[i] = self._const_source(src)
                        elif not self._shared(src):
                            break
                else:
                    src = None
                if src is not None and src not in shapes:
                    continue
            for port in layer.outputs:
                if port not in shapes:
                    shapes[port] = infer(layer, port, sources)

    def _shape_sources(self, layer: Layer) -> list[Port | None]:
        """The output ports whose shapes the inference of ``layer``'s outputs needs: none for an op without a
        shape function."""
        if layer.kind == "const" or registry.op(layer.type, layer.version) is None:
            return []
        sources = [p.source for p in layer.inputs]
        shapes = self._shapes
        for i, src in enumerate(sources):  # a Const's shape needs no walk: its own, at once; a probe's outside its
            if src is not None and src not in shapes:  # cone, its base's
                if src.layer.kind == "const":  # type: ignore[union-attr]
                    sources[i] = self._const_source(src)
                elif self._base is not None:
                    self._shared(src)
        return sources

    def _const_source(self, port: Port) -> "Port | object":
        """What stands for a Const's output port among a layer's shape sources, its shape in the memo of shapes:
        one key for every Const of the same <data> (almost half a deep model's ports are Consts': the memo holds
        their few shapes, not an entry per port); the port itself where its shape is its own (a Const whose
        `shape` cannot be read or that OpenVINO refuses: its dims taken)."""
        layer: Layer = port.layer  # type: ignore[assignment]
        memo = self._const_shapes.get(id(layer.data))
        if memo is None:  # its <data> not read yet
            shape = self._const_output(layer, port)
            memo = self._const_shapes[id(layer.data)]
            if memo[1] is None:
                self._shapes[port] = shape
                return port
        elif memo[1] is None:
            self._shapes[port] = self._const_output(layer, port)
            return port
        _, known, _, key = memo
        self._shapes[key] = known
        return key

    def _const_output(self, layer: Layer, port: Port) -> Shape:
        """A Const's output: its ``shape`` attribute (Consts of equal <data> share the dict)."""
        known = self._const_shapes.get(id(layer.data))
        if known is None:
            dims, refused = _const_shape(layer), False
            if dims is not None:
                try:  # what OpenVINO refuses in a Const's <data> (a `shape` its `size` cannot hold) is found here
                    check_const(layer, self.weights, dims)
                except ProblemError as e:
                    if id(layer) not in self.type_errors:  # an element_type the type pass refused: its IR303 alone
                        self.findings.append(finding(e.problem))
                    dims, refused = None, True
            known = self._const_shapes[id(layer.data)] = (
                layer.data, None if dims is None else self._intern(_declared(dims)), refused, object())
        if known[1] is not None:
            return known[1]
        return self._take(layer, port, "undecided" if known[2] else "trusted")  # refused: its own finding

    def _infer_shape(self, layer: Layer, port: Port, sources: list[Port | None]) -> Shape:
        """The op's shape function on its inputs' inferred shapes; the declared dims where there is none, where
        it cannot tell, or where OpenVINO rejects the layer."""
        if layer.kind == "const":
            return self._const_output(layer, port)
        if not sources:
            if layer.kind == "parameter":
                return self._declared_shape(layer, port)
            unit = registry.op(layer.type, layer.version)
            if unit is None or unit.arity is None:  # no shape function; or no input where none is known to be due
                return self._take(layer, port, "trusted")
        shapes, taken = self._shapes, self._taken
        try:
            ins = [shapes[src] for src in sources]
        except KeyError:  # None: an input without an edge
            if any(src is None for src in sources):
                return self._take(layer, port, "undecided")
            raise
        rests = bool(taken) and not taken.isdisjoint(sources)
        op = registry.op(layer.type, layer.version)
        if len(ins) == 1 and op.passthrough and op.attrs_error(layer.data) is None:  # type: ignore[union-attr]
            out = ins[0]  # an op that keeps its input's shape (Convert, ReLU, Sigmoid...): nothing to ask
        else:
            out = self.infer_output(layer, port, ins)
        if rests:  # inferred from dims irreshape took from the XML: what OpenVINO infers or rejects is not known
            if out is _UNDECIDED or isinstance(out, str):
                return self._take(layer, port, "undecided")
            self._origin[port] = "taken"
            taken.add(port)
        elif out is _UNDECIDED or isinstance(out, str):
            if out is _UNDECIDED:
                return self._take(layer, port, "undecided")
            self._origin[port] = out  # type: ignore[assignment]  # rejected: the layer's own finding
            return self._declared_shape(layer, port)
        return out  # type: ignore[return-value]  # a shape; None is a dynamic rank

    def _take(self, layer: Layer, port: Port, how: str) -> Shape:
        """The declared dims of an output port whose shape irreshape cannot infer (``how``: "trusted", an op
        without a shape function; "undecided", one irreshape cannot tell): taken, and marked so."""
        self._origin[port] = how
        # either way the declared dims stand in, and nothing OpenVINO infers or rejects downstream rests on them:
        # irreshape is less exact there than OpenVINO (an undecided port's consumers are checked against the
        # declared dims alone, see from_declared)
        self._taken.add(port)
        return self._declared_shape(layer, port)

    def origin(self, port: Port) -> str:
        """How the whole-graph reading had an output port's shape (once ``shape`` gave it): "inferred",
        "declared" (a Parameter, a Const), "trusted" (no shape function: the declared dims taken), "undecided"
        (irreshape cannot tell what OpenVINO infers: the declared dims taken), "taken" (inferred from a shape
        that rests on taken dims: not known to be OpenVINO's), or OpenVINO's error message where it rejects the
        layer."""
        how = self._origin.get(port)
        if how is not None:
            return how
        return "declared" if port.layer.kind in ("const", "parameter") else "inferred"  # type: ignore[union-attr]

    def rests_on_taken(self, port: Port) -> bool:
        """The shape arriving at an input port rests on dims irreshape took from the XML (see origin)."""
        src = port.source
        if src is None:
            return False
        self.shape(src)
        return src in self._taken

    def from_declared(self, port: Port) -> "Shape | str | None":
        """What the op of ``port``'s layer gives it from the dims its producers *declare*, not from the inferred
        ones: a shape (a list; None inside a list is not possible here), OpenVINO's message where the op rejects
        them, or None where irreshape cannot tell. The check of a layer whose inputs rest on taken dims: against
        them it can only be consistent or not."""
        layer: Layer = port.layer  # type: ignore[assignment]
        ins: list[Shape] = []
        for p in layer.inputs:
            src = p.source
            if src is None or src.dims is None:
                return None
            if src.layer.kind == "parameter":  # type: ignore[union-attr]
                ins.append(self._intern(parameter_shape(src.layer, src)))
            elif not src.dims and src.layer.kind != "const":  # type: ignore[union-attr]
                ins.append(None)  # no <dim>: a scalar, or a dynamic rank as OpenVINO's serializer writes one
            else:
                ins.append(self._intern(_declared(src.dims)))
        out = self.infer_output(layer, port, ins)
        if out is _UNDECIDED or (out is not None and not isinstance(out, (list, str))):
            return None
        return out  # type: ignore[return-value]

    def taken_roots(self, layer: Layer) -> list[Port]:
        """The ports whose declared dims irreshape took (an op without inference, or one it cannot tell) that the
        inputs of ``layer`` rest on, nearest first."""
        roots: list[Port] = []
        seen: set[int] = set()
        todo = [p.source for p in layer.inputs]
        while todo:
            src = todo.pop(0)
            if src is None or id(src) in seen or src not in self._taken:
                continue
            seen.add(id(src))
            if self.origin(src) == "taken":
                todo.extend(p.source for p in src.layer.inputs)  # type: ignore[union-attr]
            else:
                roots.append(src)
        return roots

    def infer_output(self, layer: Layer, port: Port, ins: list[Shape],
                     version: str | None = None) -> "Shape | str | object":
        """What the op's shape function gives ``port`` from the input shapes ``ins`` (memoised by content): a
        shape (None: a dynamic rank), OpenVINO's error message where it rejects the layer, or _UNDECIDED where
        irreshape cannot tell. ``version``: the op's version in that opset instead of the layer's own."""
        version = version or layer.version
        # a layer with bodies is its own: TensorIterators share their (empty) <data>, not their bodies
        key = (layer.kind, version, id(layer if layer.bodies else layer.data), len(layer.outputs), *map(id, ins))
        entry = self._inferred.get(key)
        outputs: object = _UNSET
        if entry is not None:  # the same op on the same shapes: the same result where the same Consts were read
            read, by_values = entry
            outputs = by_values.get(self._const_key(layer, read) if read else (), _UNSET)
        if outputs is _UNSET:
            outputs, read = self._infer(layer, ins, version)
            values_key = self._const_key(layer, read)
            if values_key is not None:
                self._inferred.setdefault(key, (read, {}))[1][values_key] = outputs
        if not isinstance(outputs, list):
            return outputs  # an error message, or _UNDECIDED
        index = 0 if len(layer.outputs) == 1 else self._output_index(layer, port)
        return outputs[index] if index < len(outputs) else _UNDECIDED

    def _output_index(self, layer: Layer, port: Port) -> int:
        """The position of the output port ``port`` of ``layer``: indexed once for a layer of many outputs (a
        Split of thousands), where a scan per port would cost the square of their number."""
        outs = layer.outputs
        if len(outs) <= 8:
            return next(i for i, p in enumerate(outs) if p is port)
        index = self._indexes.get(id(layer))
        if index is None:
            index = self._indexes[id(layer)] = {id(p): i for i, p in enumerate(outs)}
        return index[id(port)]

    def _const_key(self, layer: Layer, read: tuple[int, ...]) -> tuple | None:
        """What the values a shape function read are, as a key: a Const's identity (its shared <data>), else the
        value's content (shape tensors are small); None where one cannot be told (irreshape cannot evaluate it)."""
        key: list[object] = []
        for i in read:
            src = layer.inputs[i].source if i < len(layer.inputs) else None
            if src is not None and src.layer.kind == "const":  # type: ignore[union-attr]
                key.append(id(src.layer.data))  # type: ignore[union-attr]
                continue
            t = self.input_tensor(layer, i)
            if isinstance(t, V.Tensor):
                key.append((t.et, t.shape, t.lo, t.hi))
            elif t is None:
                key.append(None)
            else:
                return None
        return tuple(key)

    def _infer(self, layer: Layer, ins: list[Shape],
               version: str) -> "tuple[list[Shape] | str | object, tuple[int, ...]]":
        """(the outputs the op's shape function gives, OpenVINO's error message, or _UNDECIDED where irreshape
        cannot tell; the inputs whose values it read, in order)."""
        read: list[int] = []

        def value(i: int) -> object:
            read.append(i)
            return self.input_tensor(layer, i)

        node = registry.Node(layer.type, version, layer.data, ins, len(layer.outputs), value,
                             subgraphs(self, layer) if layer.bodies else (), lambda i: _source(layer, i))
        outputs: "list[Shape] | str | object"
        try:
            shapes = registry.op(layer.type, version).infer(node)  # type: ignore[union-attr]
            if any(s is not None and len(s) > V.MAX_ELEMENTS for s in shapes):
                raise registry.Undecided(f"a rank past {V.MAX_ELEMENTS}: irreshape does not follow it")
            outputs = [self._intern(s) for s in shapes]
        except registry.ShapeError as e:
            outputs = str(e) or "OpenVINO rejects the layer"
        except (registry.Undecided, V.NoBounds, V.Unsupported, V.Rejected):
            outputs = _UNDECIDED
        except (IndexError, ValueError, KeyError, TypeError, ArithmeticError) as e:
            # only Undecided means undecided: anything else is a bug in the shape function, an IR900 on this
            # layer (checks.graphcheck reports it), its outputs left to the declared dims so the others go on
            self.crashed.setdefault(id(layer), (layer, e))
            outputs = _UNDECIDED
        return outputs, tuple(dict.fromkeys(read))

    def _declared_shape(self, layer: Layer, port: Port) -> Shape:
        if layer.kind == "parameter":
            if layer.id in self.inputs:
                return self._intern(self.inputs[layer.id])
            # Parameters of equal <data> and dims share them (the parser shares both): one reading of the shape
            key = (id(layer.data), id(port.dims))
            known = self._params.get(key)
            if known is None:
                known = self._params[key] = ((layer.data, port.dims), self._intern(parameter_shape(layer, port)))
            return known[1]
        if self.scenario:
            return None
        dims = port.dims
        if dims is None:
            return None
        known = self._declared.get(id(dims))
        if known is None:
            known = self._declared[id(dims)] = (dims, self._intern(_declared(dims)))
        return known[1]

    def input_shape(self, port: Port) -> Shape:
        """The shape arriving at an input port: the producer's, or this port's own dims without an edge."""
        src = port.source
        if src is not None:
            return self.shape(src)
        if port.dims is None:
            return None
        return _declared(port.dims)

    # -- values ----------------------------------------------------------------------------------
    def input_value(self, layer: Layer, port: Port) -> Evaluated:
        src = port.source
        if src is None:
            return Unknown(f"input port {port.id} of {layer.name!r} has no incoming edge")
        return self.value(src)

    def value(self, port: Port) -> Evaluated:
        """The value bounds of an output port, as a Reshape pattern would read them."""
        v = self._values.get(port)
        if v is None:
            if self._base is not None and self._shared(port):
                v = self._values[port] = self._base.value(port)
                return v
            v = self._values[port] = self._to_value(port.layer, port, self._result(port))  # type: ignore[arg-type]
        return v

    def _to_value(self, layer: Layer, port: Port, r: _Result) -> Evaluated:
        if isinstance(r, Unknown):
            return r
        if isinstance(r, NoBounds):
            # OpenVINO then gives the Reshape no pattern at all: every output dim is `?`, as many as the shape
            # tensor's length (inferred: a lie in its declared dims is its own layer's, not the Reshape's)
            shape = self.shape(port)
            if shape is None or len(shape) != 1 or not shape[0].is_static:
                return Unknown(f"{r.reason}, and the length of the shape tensor is not known", r.layer)
            return Value([Bound(0, INF)] * shape[0].lo, "i64", (shape[0].lo,),
                         f"{describe(layer)}: OpenVINO cannot bound it ({r.reason}), so every element is ?")
        if r.et in V.RAW_TYPES:
            try:
                read = V.raw_read(r)
            except V.Rejected:
                read = None
            if read is None:
                return Unknown(f"{describe(layer)}: irreshape cannot tell what OpenVINO reads of its {r.et} values",
                               layer)
            r = read
        if r.et not in V.INT_RANGES or r.et == "boolean":
            return Unknown(f"{describe(layer)} gives {r.et}, not an integer tensor", layer)
        bounds = self.pattern_bounds(r)
        if layer.kind == "const":
            d = layer.data
            origin = f"{describe(layer)}: {r.et} at offset {d.get('offset')}, {d.get('size')} bytes"
        else:
            origin = f"{describe(layer)}, evaluated from its shape subgraph"
        return Value(bounds, r.et, r.shape, origin)

    def pattern_bounds(self, t: V.Tensor) -> list[Bound]:
        """Each element's bounds of an integer tensor as ``get_input_bounds`` gives them (the integer limits
        remapped), made once per tensor: a Const's tensor is shared by the Consts of equal <data>."""
        known = self._bounds.get(id(t))
        if known is None:
            lo = pattern_from_values(t.lo, t.et)
            hi = pattern_from_values(t.hi, t.et)
            known = self._bounds[id(t)] = (t, [Bound(a.lo, b.hi) for a, b in zip(lo, hi)])
        return known[1]

    def input_tensor(self, layer: Layer, i: int) -> object:
        """Input ``i``'s value bounds for a shape function: a Tensor, None where OpenVINO has none (a
        run-time input, a failed bound evaluation), registry.Undecided where irreshape cannot tell."""
        src = layer.inputs[i].source if i < len(layer.inputs) else None
        if src is None:
            return registry.Undecided(f"input {i} of {describe(layer)} has no incoming edge")
        r = self._result(src)
        if isinstance(r, V.Tensor):
            return r
        if isinstance(r, NoBounds) or (r.layer is not None and r.layer.kind == "parameter"):  # OpenVINO has none
            if i == 1 and layer.kind == "broadcast" and src.layer.kind == "concat":  # type: ignore[union-attr]
                return self._concat_pieces(src)
            return None
        if r.refusal is not None:  # OpenVINO throws evaluating it, on this layer's behalf
            return registry.ShapeError(r.refusal)
        return registry.Undecided(r.reason)

    def _concat_pieces(self, port: Port) -> "V.Tensor | registry.Undecided | None":
        """A Broadcast's target where OpenVINO has no bounds for it and it is a Concat
        (``broadcast_base_shape_infer``): with a static 1-D output of one element per input, each element is
        ``get_axis_vector_val()[0]`` of an input straight from a Constant (a negative value read as 0, measured)
        and ``?`` for any other input; otherwise no target (None)."""
        concat: Layer = port.layer  # type: ignore[assignment]
        out = self.shape(port)
        if out is None or len(out) != 1 or not out[0].is_static or out[0].lo != len(concat.inputs):
            return None
        top = V.type_max("i64")
        lo, hi = [], []
        for p in concat.inputs:
            src = p.source
            if src is None or src.layer.kind != "const":  # type: ignore[union-attr]
                lo.append(0)
                hi.append(top)
                continue
            t = self._result(src)
            if not isinstance(t, V.Tensor) or t.et not in V.INT_RANGES or not t.lo or t.lo[0] > top:
                # an empty Constant is read past its end (OpenVINO crashes), a float one cast: not known
                return registry.Undecided(f"the Concat {concat.name!r} feeding a Broadcast has a Constant input "
                                          "irreshape does not read as OpenVINO does")
            lo.append(max(t.lo[0], 0))
            hi.append(max(t.lo[0], 0))
        return V.Tensor("i64", (len(lo),), tuple(lo), tuple(hi))

    def _result(self, port: Port) -> _Result:
        r = self._results.get(port)
        if r is None:
            layer = port.layer
            if layer.kind == "const":  # type: ignore[union-attr]  # the common case (axes, orders, pads)
                r = self._results[port] = self._const(layer)  # type: ignore[arg-type]
                return r
            if self._base is not None and self._shared(port):
                r = self._results[port] = self._base._result(port)
                return r
            walk(self._results, port, self._sources, self.evaluate, lambda lay, out, why: Unknown(why, lay))
            r = self._results[port]
        return r

    def _sources(self, layer: Layer) -> list[Port | None]:
        """The output ports whose values ``layer`` needs (a ShapeOf needs only its input's shape); a probe's
        outside its cone are its base's at once."""
        if layer.kind in ("shapeof", "const", "parameter"):
            return []
        sources = [p.source for p in layer.inputs]
        if self._base is not None:
            for src in sources:
                if src is not None and src not in self._results and self._shared(src):
                    self._results[src] = self._base._result(src)
        return sources

    def evaluate(self, layer: Layer, port: Port, sources: list[Port | None]) -> _Result:
        kind = layer.kind
        if kind == "const":
            return self._const(layer)
        if kind == "parameter":
            return Unknown(f"the shape comes from Parameter {layer.name!r} (id {layer.id}), a run-time input", layer)
        op = registry.value_fn(layer.type, layer.version)
        if op is None:
            return Unknown(f"the shape subgraph contains {describe(layer)}, which irreshape does not evaluate", layer)
        refused = self.type_errors.get(id(layer))
        if refused is not None:  # OpenVINO refuses its types first (its own finding): no value is computed
            return Unknown(f"{describe(layer)}: {refused}", layer)
        inputs: list[V.Tensor] = []
        for p, src in zip(layer.inputs, sources):
            if src is None:
                return Unknown(f"input port {p.id} of {describe(layer)} has no incoming edge", layer)
            r = self._results[src]
            if not isinstance(r, V.Tensor):
                return r  # OpenVINO stops at the first failure, in the order of the inputs
            if r.et in V.RAW_TYPES and kind != "convert":
                return Unknown(f"{describe(layer)} in the shape subgraph reads a {r.et} Const, which irreshape "
                               "evaluates only through a Convert", layer)
            inputs.append(r)
        try:
            if kind == "convert" and "decompression" in self.model.rt_info.get(layer.id, ()):
                # save_model(compress_to_fp16) writes f32 constants as an f16 Const and a Convert marked
                # `decompression` (<rt_info>): OpenVINO's bound evaluation stops at such a Convert (measured)
                raise V.NoBounds("a decompression Convert (its <rt_info>)")
            node = registry.Node(layer.type, layer.version, layer.data, _InputShapes(self, layer), len(layer.outputs))
            out = op(node, inputs)
            if isinstance(out, list):  # one tensor per output port
                if len(out) != len(layer.outputs):
                    raise ValueError(f"{len(out)} results for {len(layer.outputs)} output ports")
                out = out[self._output_index(layer, port)]
            elif len(layer.outputs) != 1:
                return Unknown(f"{describe(layer)} has {len(layer.outputs)} outputs", layer)
            if inputs and all(t.is_const for t in inputs):
                # `evaluate_both_bounds`: with constant inputs, the lower result serves as both bounds
                out = out.with_bounds(out.lo, out.lo)
            return out
        except V.NoBounds as e:
            return NoBounds(f"{describe(layer)}: {e}", layer)
        except (V.Unsupported, registry.Undecided) as e:
            return Unknown(f"{describe(layer)} in the shape subgraph: {e}", layer)
        except V.Rejected as e:
            msg = f"{describe(layer)} in the shape subgraph: OpenVINO fails evaluating it ({e}) and cannot read the model"
            return Unknown(msg, layer, Finding(INVALID_PATTERN, msg, layer.line, layer.ref),
                           f"{e} (evaluating {describe(layer)} in the shape subgraph of this input)")
        except (IndexError, ValueError) as e:  # an evaluator's refusal of inputs it does not take (too few of them)
            return Unknown(f"{describe(layer)} in the shape subgraph has unexpected inputs or attributes ({e})",
                           layer)
        except (KeyError, TypeError, ArithmeticError) as e:  # a bug: an IR900 on the layer (see _infer)
            self.crashed.setdefault(id(layer), (layer, e))
            return Unknown(f"{describe(layer)} in the shape subgraph: irreshape failed evaluating it", layer)

    def _const(self, layer: Layer) -> _Result:
        known = self._consts.get(id(layer.data))
        if known is not None:  # a Const with the same <data> (type, shape, offset, size) in the same .bin
            return known[1]
        r = self._read_const(layer)
        if isinstance(r, V.Tensor) and layer.data is not NO_DATA:
            self._consts[id(layer.data)] = (layer.data, r)
        return r

    def _read_const(self, layer: Layer) -> _Result:
        try:
            et, shape, values, raw = read_const(layer, self.weights)
        except ProblemError as e:
            p = e.problem
            return Unknown(p.message, layer, Finding(rule_named(p.rule), p.message, p.line, p.layer, p.col))
        if et in V.RAW_TYPES:
            return V.raw_const(et, shape, values, raw)
        if values is None:
            return Unknown(f"Const {layer.name!r} holds {et} values irreshape does not read as OpenVINO does", layer)
        if et in FLOAT_TYPES and V.numel(shape) > MAX_FLOATS:
            return Unknown(f"Const {layer.name!r} holds {V.numel(shape)} {et} values, too many for a shape", layer)
        if et not in V.INT_RANGES and et not in V.FLOAT_TYPES:
            return Unknown(f"Const {layer.name!r} holds {et}, not an integer or float type", layer)
        return V.const(et, shape, values)
