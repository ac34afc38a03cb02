"""Dynamic Parameter dims that one layer pins: the model loads, then fails when the dim takes another value.

A Reshape whose pattern is constant, or partly (traced at one batch or sequence length), on an input with a
dynamic dim that no special zero copies and no -1 absorbs, or a Squeeze of a dynamic dim, is a suspect. The
graph is re-inferred as ``Model.reshape`` would at chosen values of the dynamic Parameter dims, and the
suspect judged there: OpenVINO rejects it, the spec's volume rule breaks, or (a Squeeze) the rank changes.
A screen first (every dynamic dim at 1, then at 2) clears the suspects that hold at both; each dim that may
be to blame is then set to a few values, and the values that hold say how it is pinned: to one value, or to
the multiples of one. Nothing is re-inferred for a model without suspects.
"""

from __future__ import annotations

from math import gcd, prod

from ..core.dims import Dim, Shape, format_shape, is_static_shape
from ..core.findings import Finding
from ..core.results import LayerResult, Status
from ..frontends.openvino.model import IRModel, Layer
from ..rules.reshape import INVALID_PATTERN, VOLUME_MISMATCH
from ..rules.scenarios import PINNED
from .graph import Graph, describe, order
from .values import Value
from .reshape import checker
from .runtime import squeezed_dynamic

PROBES = (1, 2, 3, 4, 5, 6, 8, 12, 16, 32, 128)
# every dynamic dim at once: a pin fails at 1 (a pin to another value, to multiples), at 2 (a pin to 1), or at 5 (a
# pin to the divisors of a number, or where a dim divided by 3 leaves a special zero that copies it below 3)
SCREEN = (1, 2, 5)
DISTINCT = (2, 3, 5, 7, 11, 13)  # a last screen: each axis at its own value
PRIMES = (5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43)  # ... and at its own prime (see _coprimes)
UPSTREAM = "its input cannot be inferred: a layer before it fails"
_FAILS = (INVALID_PATTERN, VOLUME_MISMATCH)

def pinned_dims(model: IRModel, graph: Graph, verdicts: list[LayerResult]) -> list[Finding]:
    """IR503 for each suspect of ``verdicts`` (the Reshape family's, in ``graph``) that holds at only some
    values of one dynamic Parameter dim.

    First each dim alone, the others left as they are (dims tied across inputs, a sequence length shared by
    ``input_ids`` and ``attention_mask``, stay compatible); then, for a suspect that needs several dims at
    once (``view(1, 16, 4, 8)`` on ``[?, ?, 32]``), each dim with the others where the suspect holds."""
    kinds = {v.layer.id: _suspect(v, graph) for v in verdicts}
    suspects = [v for v in verdicts if kinds[v.layer.id]]
    if not suspects:
        return []
    irregular = [v for v in suspects if kinds[v.layer.id] == IRREGULAR]
    remainders = _remainders(irregular, graph)
    probe = _Probe(model, graph, suspects, remainders, _coprimes(irregular))
    suspects = probe.screen(suspects, {v.layer.id for v in irregular})
    for batch in probe.batches() if suspects else ():
        suspects = probe.sweep(suspects, batch, {})
        if not suspects:
            return probe.found
    suspects = [v for v in suspects if v.layer.id not in probe.decided]  # only those the other dims kept open
    if len(probe.dims) > 1 and suspects:
        groups: dict[tuple, list[LayerResult]] = {}
        for v, base in probe.working(suspects):
            groups.setdefault(tuple(sorted(base.items())), []).append(v)
        for base, group in groups.items():
            for k in range(len(probe.dims)):
                group = probe.sweep(group, [k], {key: n for key, n in base if not probe.tied(k, key)})
                if not group:
                    break
        probe.never(suspects)
    return probe.found


class _Probe:
    """The graph re-inferred at chosen values of the dynamic Parameter dims, and the suspects judged there."""

    def __init__(self, model: IRModel, graph: Graph, suspects: list[LayerResult], remainders: list[int] = (),
                 coprimes: tuple[int, ...] = ()) -> None:
        self.model, self.graph = model, graph
        self.dims = list(_dynamic_dims(model, graph))  # (Parameter, axis, dim)
        self.shapes = {p.id: graph.shape(p.outputs[0]) for p, _, _ in self.dims}
        self.remainders = list(remainders)  # values the irregular suspects that divide a dim are screened at too
        self.coprimes = coprimes  # primes the irregular suspects' constants are not multiples of, one for each axis
        self.extra = _solutions(suspects)
        self.found: list[Finding] = []
        self.decided: set[str] = set()  # suspects a probe has judged on a static input, or failed
        self.judged: set[str] = set()  # those the last probe judged
        self._after: dict[str, list[str]] = {}  # layer id -> the ids of the layers its outputs feed
        for e in model.edges:
            self._after.setdefault(e.from_layer, []).append(e.to_layer)
        self._cones: dict[str, frozenset[str]] = {}  # Parameter id -> the ids of the layers downstream of it
        self._outside: dict[str, tuple[str, bool]] = {}  # a suspect's (why not, static) outside a probe's cone
        self._upstream: dict[tuple, list[Layer]] = {}  # (cone, suspects) -> see upstream
        self._order = order(model)[0]
        self._seen: dict[tuple, dict[str, tuple[str, bool]]] = {}  # a probe's values -> its suspects' (why, static)

    def key(self, k: int) -> tuple[str, int]:
        return self.dims[k][0].id, self.dims[k][1]

    def screen(self, suspects: list[LayerResult], irregular: set[str] = frozenset()) -> list[LayerResult]:
        """The suspects that fail with every dynamic dim at one of SCREEN (each that it may take): a layer that
        holds at each (or whose input a failing layer before it hides) pins nothing, and is not probed
        further."""
        failing: set[str] = set()
        # each value of SCREEN at every dim, then the axes at distinct values (one axis at one value in every
        # input, so that dims tied across inputs stay tied): a pin of one dim to another of its input
        distinct = {k: DISTINCT[self.dims[k][1] % len(DISTINCT)] for k in range(len(self.dims))}
        # (and, for a suspect that divides a dim, each of the values that leave a remainder, see _remainders: one
        # where a suspect fails is probed with the others)
        screens = [dict.fromkeys(range(len(self.dims)), v) for v in (*SCREEN, *self.remainders)]
        screens.insert(len(SCREEN), distinct)
        if self.coprimes:  # (and at distinct primes, for a suspect that takes one dim twice; see _coprimes)
            primes = self.coprimes
            screens.insert(len(SCREEN) + 1, {k: primes[self.dims[k][1] % len(primes)] for k in range(len(self.dims))})
        for i, values in enumerate(screens):
            assign = {self.key(k): n for k, n in values.items() if self.dims[k][2].contains(n)}
            # one failure is enough to probe further; past 1 and 2, only the irregular suspects
            pending = [v for v in suspects if v.layer.id not in failing and (i < 2 or v.layer.id in irregular)]
            if assign and pending:
                new = {lid for lid, why in self.judge(pending, assign).items() if why and why != UPSTREAM}
                if new and i > len(SCREEN):
                    self.extra.update(assign.values())
                failing |= new
        self.decided.clear()
        return [v for v in suspects if v.layer.id in failing]

    def tied(self, k: int, key: tuple[str, int]) -> bool:
        """Whether dim ``key`` is dim ``k`` or may be tied to it: the same axis of a Parameter of the same
        declared shape (``input_ids`` and ``attention_mask``), left dynamic while dim ``k`` varies."""
        pid, axis = self.dims[k][0].id, self.dims[k][1]
        return key == (pid, axis) or (key[1] == axis and _same(self.shapes[key[0]], self.shapes[pid]))

    def values(self, k: int) -> list[int]:
        return sorted({v for v in (*PROBES, *self.extra) if self.dims[k][2].contains(v)})

    def judge(self, suspects: list[LayerResult], assign: dict[tuple[str, int], int]) -> dict[str, str]:
        """Each suspect's reason not to hold ("" where it holds) with ``assign`` ((Parameter id, axis) -> value)."""
        seen = self._seen.setdefault(tuple(sorted(assign.items())), {})
        if all(v.layer.id in seen for v in suspects):  # a probe at these values ran already (the screen's)
            return self._verdicts(suspects, seen)
        inputs: dict[str, Shape] = {}
        for (pid, axis), value in assign.items():
            shape = inputs.setdefault(pid, list(self.shapes[pid]))  # type: ignore[arg-type]
            shape[axis] = Dim.of(value)  # type: ignore[index]
        cone = self.cone(inputs)
        probe = self.graph.probe(inputs, cone)
        probe.prime(self.upstream(cone, suspects))
        for v in suspects:
            lid = v.layer.id
            known = self._outside.get(lid) if lid not in cone else None
            if known is None:  # outside the cone a suspect's input is the base reading's, whatever the probe
                res, findings = checker(v.layer)(v.layer, probe)  # type: ignore[misc]
                known = _why_not(v, res, findings), is_static_shape(res.input_shape)
                if lid not in cone:
                    self._outside[lid] = known
            seen[lid] = known
        return self._verdicts(suspects, seen)

    def _verdicts(self, suspects: list[LayerResult], seen: dict[str, tuple[str, bool]]) -> dict[str, str]:
        """judge's answer from ``seen`` (layer id -> (why not, on a static input)), one probe's."""
        out = {}
        self.judged = set()  # the suspects this probe judged: on a static input, or failing
        for v in suspects:
            why, static = seen[v.layer.id]
            out[v.layer.id] = why
            if why or static:
                self.judged.add(v.layer.id)
        self.decided |= self.judged
        return out

    def cone(self, params) -> frozenset[str]:
        """The ids of the layers downstream of the Parameters ``params`` (ids), those included: all that a probe
        setting their shapes re-infers."""
        cones = [self._cones.get(pid) for pid in params]
        for i, pid in enumerate(params):
            if cones[i] is None:
                seen, todo = {pid}, [pid]
                while todo:
                    for nxt in self._after.get(todo.pop(), ()):
                        if nxt not in seen:
                            seen.add(nxt)
                            todo.append(nxt)
                cones[i] = self._cones[pid] = frozenset(seen)
        return cones[0] if len(cones) == 1 else frozenset().union(*cones)  # type: ignore[arg-type]

    def upstream(self, cone: frozenset[str], suspects: list[LayerResult]) -> list[Layer]:
        """The layers of ``cone`` that feed the suspects (through any input), producers first."""
        key = (cone, tuple(v.layer.id for v in suspects))
        known = self._upstream.get(key)
        if known is None:
            seen: set[str] = set()
            todo = [v.layer for v in suspects if v.layer.id in cone]
            while todo:
                for p in todo.pop().inputs:
                    src = p.source
                    if src is not None and src.layer.id in cone and src.layer.id not in seen:  # type: ignore[union-attr]
                        seen.add(src.layer.id)  # type: ignore[union-attr]
                        todo.append(src.layer)  # type: ignore[arg-type]
            layers = self.model.layers
            known = self._upstream[key] = [layers[lid] for lid in self._order if lid in seen]
        return known

    def batches(self) -> list[list[int]]:
        """The dims in batches that one probe sweeps together: the dims of a batch have disjoint cones (no layer
        downstream of two of them), so each suspect sees one of them vary, exactly as if it varied alone; a dim
        comes after every earlier dim whose cone meets its own, so the order in which they pin is kept."""
        last: dict[str, int] = {}  # layer id -> the last batch whose cone holds it
        batches: list[list[int]] = []
        for k, (param, _, _) in enumerate(self.dims):
            cone = self.cone([param.id])
            b = 1 + max((last.get(lid, -1) for lid in cone), default=-1)
            if b == len(batches):
                batches.append([])
            batches[b].append(k)
            for lid in cone:
                last[lid] = b
        return batches

    def sweep(self, suspects: list[LayerResult], ks: list[int], base: dict[tuple[str, int], int]) -> list[LayerResult]:
        """Vary each dim of ``ks`` (dims with disjoint cones, see batches; the others at ``base`` or as they
        are); a finding for each suspect one of them pins; the others returned."""
        values = {k: self.values(k) for k in ks}
        mine = {k: {v.layer.id for v in suspects if v.layer.id in self.cone([self.dims[k][0].id])} for k in ks}
        holds: dict[str, dict[int, str]] = {v.layer.id: {} for v in suspects}  # layer id -> {value: why not}
        live = set(ks)
        for value in sorted({n for k in ks for n in values[k]}):
            now = [k for k in ks if k in live and value in values[k]]
            if not now:
                continue
            out = self.judge(suspects, {**base, **{self.key(k): value for k in now}})
            for k in now:
                if value == values[k][0] and not self.judged & mine[k]:
                    live.discard(k)  # the other dims keep every suspect's input open: this dim alone says nothing
                    continue
                for lid in mine[k]:
                    holds[lid][value] = out[lid]
        rest = []
        where = "".join(f", with dim {a} of {self._name(pid)!r} at {n}" for (pid, a), n in base.items())
        by = {lid: k for k in live for lid in mine[k]}
        for v in suspects:
            k = by.get(v.layer.id)
            verdict = _pin(holds[v.layer.id]) if k is not None and len(holds[v.layer.id]) > 1 else None
            # at none of the values tried: dim k alone decides the suspect, or it fails there whatever the other
            # dims, left dynamic (a dim a special zero copies: [0,-1,7,d1] on [?,?] fails at every d1, any d0)
            if verdict is None and k is not None and not base and len(holds[v.layer.id]) > 1 \
                    and all(holds[v.layer.id].values()) \
                    and (self.alone(v, k) or UPSTREAM not in holds[v.layer.id].values()):
                verdict = "never"
            if verdict is None:
                rest.append(v)
                continue
            param, axis, _ = self.dims[k]  # type: ignore[index]
            bad, why = next((n, w) for n, w in holds[v.layer.id].items() if w)
            good = [n for n, w in holds[v.layer.id].items() if not w]
            joint = self.product(v, k, good[0], base) if base and len(good) == 1 else ""  # type: ignore[arg-type]
            what = f"dim {axis} of Parameter {param.name!r} {format_shape(self.shapes[param.id])}"
            head = f"pins {what}: it holds {verdict}" if good else \
                f"holds at no value of {what} tried ({_tried(holds[v.layer.id])})"
            self.found.append(Finding(PINNED, f"{describe(v.layer)} {head}{where}{joint}; at {bad}: {why}",
                                      v.layer.line, v.layer.ref))
        return rest

    def alone(self, v: LayerResult, k: int) -> bool:
        """Whether dim ``k`` is the only dynamic dim whose cone holds the suspect ``v`` (it alone decides it)."""
        return all(j == k or v.layer.id not in self.cone([self.dims[j][0].id]) for j in range(len(self.dims)))

    def working(self, suspects: list[LayerResult]) -> list[tuple[LayerResult, dict[tuple[str, int], int]]]:
        """Each suspect and the first values of all the dynamic dims at which it holds (all at one value, else
        one dim at a value and the others at 1); a suspect that holds at none of them is left out."""
        values = sorted({*PROBES, *self.extra})  # with the values that solve a suspect's element count
        groups: dict[tuple[int, ...], list[LayerResult]] = {}  # by the dims whose cone holds the suspect
        for v in suspects:
            ks = tuple(k for k in range(len(self.dims)) if v.layer.id in self.cone([self.dims[k][0].id]))
            groups.setdefault(ks, []).append(v)
        found: dict[str, tuple[LayerResult, dict[tuple[str, int], int]]] = {}
        self.failed: dict[str, tuple[dict, str]] = {}  # a suspect -> the first assignment tried and why it fails
        for ks, group in groups.items():
            keys = [self.key(k) for k in ks]
            # one dim at a value and the others at 1 first: there a dim that must be a multiple of a number (with
            # the others' product) is seen to be one, where all at one value may hide it (3 x 3 is a multiple of 3)
            tries = [{key: (n if key == one else 1) for key in keys} for one in keys for n in values]
            tries += [{key: n for key in keys} for n in values if n > 1]
            for assign in tries:
                pending = [v for v in group if v.layer.id not in found]
                if not pending:
                    break
                if all(self.dims[k][2].contains(assign[key]) for k, key in zip(ks, keys)):
                    for lid, why in self.judge(pending, assign).items():
                        if not why:
                            found[lid] = next(v for v in pending if v.layer.id == lid), assign
                        elif why != UPSTREAM:
                            self.failed.setdefault(lid, (assign, why))
        self.held = set(found)
        return list(found.values())

    def never(self, suspects: list[LayerResult]) -> None:
        """IR503 for each suspect that :meth:`working` made hold at no assignment it tried (every dim at one value,
        or one at a value and the others at 1)."""
        for v in suspects:
            lid = v.layer.id
            if lid in self.held or lid not in self.failed:
                continue
            assign, why = self.failed[lid]
            dims = ", ".join(f"dim {a} of {self._name(pid)!r}" for pid, a in assign)
            at = ", ".join(f"{n}" for n in assign.values())
            values = ", ".join(map(str, sorted({*PROBES, *self.extra})))
            self.found.append(Finding(PINNED, f"{describe(v.layer)} holds at no assignment tried of {dims} (each "
                                      f"of {values} at every one of them, or at one and 1 at the others); at "
                                      f"{at}: {why}", v.layer.line, v.layer.ref))

    def product(self, v: LayerResult, k: int, value: int, base: dict[tuple[str, int], int]) -> str:
        """Where the suspect ``v``, which holds with dim ``k`` at ``value`` and the others at ``base`` only, holds
        on a product of dims: another dim of ``base`` divided by a factor, dim ``k`` multiplied by it."""
        key = self.key(k)
        for other, n in base.items():
            for f in (2, 3, 5, 7):
                if n % f or not self.dims[k][2].contains(value * f):
                    continue
                if not self.judge([v], {**base, key: value * f, other: n // f})[v.layer.id]:
                    return (f" (and wherever dim {key[1]} of {self._name(key[0])!r} × dim {other[1]} of "
                            f"{self._name(other[0])!r} = {value * n})")
        return ""

    def _name(self, pid: str) -> str:
        return self.model.layers[pid].name


def _same(a: Shape, b: Shape) -> bool:
    return a is not None and b is not None and [(d.lo, d.hi) for d in a] == [(d.lo, d.hi) for d in b]


REGULAR, IRREGULAR = 1, 2  # _suspect's answers (0: not a suspect)


def _suspect(v: LayerResult, graph: Graph) -> int:
    """A Reshape with a constant pattern whose element count ties a dynamic input dim (no -1 to absorb it, or a
    -1 that needs it divisible by a number), or a Squeeze whose axes name a dynamic dim: REGULAR (it fails at 1
    or at 2 where it pins). IRREGULAR where its pattern divides a dynamic dim or takes one twice: it may hold at
    1 and 2 and fail elsewhere (the screen tries it at more values). 0 where it holds at every value."""
    shape, layer = v.input_shape, v.layer
    if shape is None or is_static_shape(shape) or v.status is Status.INVALID:
        return 0
    if layer.kind == "squeeze":
        return REGULAR if _squeezes_dynamic(layer, shape, graph) else 0
    if layer.kind != "reshape" or not v.pattern:
        return 0
    pattern = [b.lo if b.lo == b.hi else None for b in v.pattern]  # None: computed (a ShapeOf's dim)
    if 0 in pattern and not v.special_zero:
        return 0  # a literal 0 empties the output at every value: IR111's
    copied = {i for i, p in enumerate(pattern) if v.special_zero and p == 0 and i < len(shape)}
    free = [d for i, d in enumerate(shape) if i not in copied and not d.is_static]
    computed = pattern.count(None)
    if computed and _taken_twice(layer, graph, {i for i in copied if not shape[i].is_static}):
        return IRREGULAR  # one dim twice: view(d, d, 8) on [8,?], [d1, 0] on [?,?]
    if not free:
        return 0  # every dynamic dim is copied as it is
    # the dims copied or computed take dynamic dims as they are: the static dims left must make the element count
    # of the known values (a -1 aside), or the dynamic dims must be multiples of what they lack
    have = prod(d.lo for i, d in enumerate(shape) if i not in copied and d.is_static)
    need = prod(p for i, p in enumerate(pattern) if p is not None and p != -1 and i not in copied)
    if computed and _divides(layer, graph):
        return IRREGULAR
    if computed and -1 not in pattern:  # partly computed: a suspect where it leaves fewer dynamic dims than it
        # takes, or where its computed dims are the input's own dynamic dims and the constants another count
        return REGULAR if computed < len(free) or (need != have and _mirrors(layer, graph, shape, free)) else 0
    if -1 not in pattern:
        return REGULAR
    return REGULAR if need > 0 and need // gcd(need, have) > 1 else 0


def _mirrors(layer: Layer, graph: Graph, shape: list[Dim], free: list[Dim]) -> bool:
    """Whether the pattern's computed dims are dims of a ShapeOf of a tensor of the input's rank, at the indexes of
    as many distinct dynamic dims of the input as the input has free (not a flattened input reshaped by the dims of
    another tensor)."""
    src = layer.inputs[1].source if len(layer.inputs) > 1 else None
    if src is None or src.layer.kind != "concat":
        return False
    indexes = set()
    for p in src.layer.inputs:
        value = graph.value(p.source) if p.source is not None else None
        if isinstance(value, Value) and all(b.lo == b.hi for b in value.bounds):
            continue  # a constant, or a static dim: counted with the known values
        key = _shape_dim(p.source, graph)
        if key is None or key[1] >= len(shape) or shape[key[1]].is_static:
            return False
        port = _shape_source(p.source)
        if port is None or (s := graph.shape(port)) is None or len(s) != len(shape):
            return False
        indexes.add(key[1])
    return len(indexes) == len(free)


def _divides(layer: Layer, graph: Graph, reach: int = 32) -> list[int | None]:
    """The divisors by which the Reshape's pattern is computed through a division of a dynamic dim of a ShapeOf
    (TSM's ``view(nt // n_segment, n_segment, ...)`` of the batch, ``view(b, l // 2, 2, d)`` of a sequence): it
    holds only where the divisor divides the dim. None for a divisor that is not one known number; empty where
    there is no such division. A static feature dim split in two (``view(b, l, 2, d // 2)``) divides a constant
    and is not suspect. Up to ``reach`` layers of the shape subgraph."""
    todo = [p.source for p in layer.inputs[1:2]]
    seen: set[int] = set()
    out: list[int | None] = []
    while todo and len(seen) < reach:
        port = todo.pop()
        if port is None or id(port) in seen:
            continue
        seen.add(id(port))
        producer = port.layer
        if producer.kind in ("divide", "floormod"):  # type: ignore[union-attr]
            value = graph.value(port)
            if isinstance(value, Value) and any(b.lo != b.hi for b in value.bounds) and _batch(producer, graph):
                k = graph.input_value(producer, producer.inputs[1]) if len(producer.inputs) > 1 else None
                known = isinstance(k, Value) and k.bounds and all(b.lo == b.hi == k.bounds[0].lo for b in k.bounds)
                out.append(k.bounds[0].lo if known else None)  # type: ignore[union-attr]
        elif producer.kind not in ("shapeof", "parameter", "const"):  # type: ignore[union-attr]
            todo += [p.source for p in producer.inputs]  # type: ignore[union-attr]
    return out


def _remainders(suspects: list[LayerResult], graph: Graph) -> list[int]:
    """Values of a dim worth screening the suspects that divide one (see _divides) at: where a dim ``d`` is
    divided by ``k`` (a floor division), ``d = k·p + 1`` makes the quotient a prime ``p`` that divides neither
    ``d`` nor the input's static dims, so that a -1 beside it, which must take the element count divided by the
    quotient, has no integer value there ([?,6] by [d0 // 2, -1] with special_zero holds at 1 to 8, 10, 12, 13
    and fails at 9, 11 and most odd values past them). Two such primes for each divisor, the smallest past 3."""
    out: set[int] = set()
    for v in suspects:
        if v.layer.kind != "reshape" or v.input_shape is None:
            continue
        static = prod(d.lo for d in v.input_shape if d.is_static) or 1
        for k in _divides(v.layer, graph):
            if k is None or k < 2:
                continue
            primes = [p for p in (5, 7, 11, 13, 17, 19, 23) if static % p][:2]
            out.update(k * p + 1 for p in primes)
    return sorted(out)


def _coprimes(suspects: list[LayerResult]) -> tuple[int, ...]:
    """Primes, one for each axis, that divide none of the static input dims and pattern constants of the irregular
    suspects: where a pattern takes a dim twice, a -1 beside it takes the element count divided by that dim, which
    the other dims may not make a multiple of ([?,?,6] by [1,d1,-1,d1]: -1 = 6·d0/d1, integer at 2 and 3, at 1 and
    4 not; [?,4,?] by [-1,d0,d0]: 4·d2/d0). At distinct primes neither the constants nor the other dims hold the
    dim taken twice. Empty without such suspects."""
    static = 1
    for v in suspects:
        static *= prod(d.lo for d in v.input_shape or () if d.is_static and d.lo > 0)
        static *= prod(b.lo for b in v.pattern or () if b.lo == b.hi and b.lo > 0)
    return tuple(p for p in PRIMES if static % p) if suspects else ()


_THROUGH = ("convert", "squeeze", "unsqueeze")


def _shape_source(port):
    """The port a ShapeOf reads, where ``port`` is a Gather of a ShapeOf (through Converts, Squeezes, Unsqueezes)."""
    while port is not None and port.layer.kind in _THROUGH:
        port = port.layer.inputs[0].source if port.layer.inputs else None
    gather = port.layer if port is not None else None
    data = gather.inputs[0].source if gather is not None and gather.kind == "gather" and gather.inputs else None
    return data.layer.inputs[0].source if data is not None and data.layer.kind == "shapeof" and data.layer.inputs \
        else None


def _shape_dim(port, graph: Graph) -> tuple | None:
    """(the ShapeOf's input port's id, the index) where ``port`` is a Gather of one constant index from a ShapeOf
    (through Converts, Squeezes and Unsqueezes), else None."""
    while port is not None and port.layer.kind in _THROUGH:
        port = port.layer.inputs[0].source if port.layer.inputs else None
    gather = port.layer if port is not None else None
    if gather is None or gather.kind != "gather" or len(gather.inputs) < 2:
        return None
    data = gather.inputs[0].source
    index = graph.input_value(gather, gather.inputs[1])
    if data is None or data.layer.kind != "shapeof" or not isinstance(index, Value) or len(index.bounds) != 1 \
            or index.bounds[0].lo != index.bounds[0].hi or not data.layer.inputs:
        return None
    return id(data.layer.inputs[0].source), index.bounds[0].lo


def _taken_twice(layer: Layer, graph: Graph, copied: set[int]) -> bool:
    """Whether the Reshape's pattern is a Concat of which two inputs are the same dim of one ShapeOf (or a quotient
    of it), or one is a ShapeOf's dim at an index whose dynamic dim a special zero copies (``copied``) as well."""
    src = layer.inputs[1].source if len(layer.inputs) > 1 else None
    if src is None or src.layer.kind != "concat":
        return False
    seen: set[tuple] = set()
    for p in src.layer.inputs:
        port = p.source
        if port is not None and port.layer.kind in ("divide", "floormod") and port.layer.inputs:
            port = port.layer.inputs[0].source  # a quotient of a dim takes the dim too
        key = _shape_dim(port, graph)
        if key is not None:
            if key in seen or key[1] in copied:
                return True
            seen.add(key)
    return False


def _batch(divide: Layer, graph: Graph) -> bool:
    """Whether a division's dividend is a dim of a ShapeOf: a Gather of one index (through Converts, Squeezes and
    Unsqueezes) from one. (The division's value is dynamic: the dim is, and holds only where the divisor divides
    it; a static feature dim split in two is a constant.)"""
    src = divide.inputs[0].source if divide.inputs else None
    while src is not None and src.layer.kind in ("convert", "squeeze", "unsqueeze"):  # type: ignore[union-attr]
        src = src.layer.inputs[0].source if src.layer.inputs else None  # type: ignore[union-attr]
    gather = src.layer if src is not None else None
    if gather is None or gather.kind != "gather" or len(gather.inputs) < 2:
        return False
    data = gather.inputs[0].source
    index = graph.input_value(gather, gather.inputs[1])
    return data is not None and data.layer.kind == "shapeof" and isinstance(index, Value) \
        and len(index.bounds) == 1 and index.bounds[0].lo == index.bounds[0].hi  # type: ignore[union-attr]


def _squeezes_dynamic(layer: Layer, shape: list[Dim], graph: Graph) -> bool:
    if len(layer.inputs) < 2:  # no axes: every dim that may be 1 goes
        return any(not d.is_static and d.contains(1) for d in shape)
    return bool(squeezed_dynamic(layer, graph, shape))


def _dynamic_dims(model: IRModel, graph: Graph):
    for layer in model.layers.values():
        if layer.kind != "parameter" or not layer.outputs:
            continue
        shape = graph.shape(layer.outputs[0])
        for axis, dim in enumerate(shape or ()):
            if not dim.is_static:
                yield layer, axis, dim


def _solutions(suspects: list[LayerResult]) -> set[int]:
    """Values worth trying beyond PROBES: a pattern whose elements are constant but for some computed ones (each
    taken to copy a dynamic input dim) needs the other dynamic input dims to make up its element count: one such
    dim reaches it at one value, two at its square root (``view(b, 3, 85, 20, 20)`` on ``[?,255,?,?]``: H × W =
    400, 20 each), and so on; with a -1, at the multiples of it."""
    out = set()
    for v in suspects:
        if v.layer.kind != "reshape" or not v.pattern or v.input_shape is None:
            continue
        # the dims special zeros copy take no part (they hold for every value)
        copied = {i for i, b in enumerate(v.pattern) if v.special_zero and b.lo == b.hi == 0
                  and i < len(v.input_shape)}
        fixed = [b.lo for i, b in enumerate(v.pattern) if b.lo == b.hi and i not in copied]
        if any(p == 0 for p in fixed) or any(p < -1 for p in fixed):
            continue
        rest = [d for i, d in enumerate(v.input_shape) if i not in copied]
        static = [d.lo for d in rest if d.is_static]
        free = len(rest) - len(static) - (len(v.pattern) - len(copied) - len(fixed))
        need, have = prod(p for p in fixed if p != -1), prod(static)
        if -1 in fixed and need > 0 and have:  # the dynamic dims must hold what the static ones lack: its multiples
            step = need // gcd(need, have)
            if step > 1:
                out.update((step, 2 * step))
        if free < 1 or not have or need % have:
            continue
        total = need // have
        out.add(total)
        for k in range(2, free + 1):
            root = round(total ** (1 / k))
            if root > 1 and root ** k == total:
                out.add(root)
    return out


def _why_not(v: LayerResult, res: LayerResult, findings: list[Finding]) -> str:
    """Why the suspect ``v`` does not hold in a probe, where its check gave ``res`` and ``findings`` ("" where it
    holds): OpenVINO rejects it, its volume changes, or (a Squeeze) its rank does."""
    bad = next((f for f in findings if f.rule in _FAILS), None)
    if bad is not None:
        return bad.message.split(": ", 1)[-1]
    if res.input_shape is None and v.input_shape is not None:
        return UPSTREAM
    if v.layer.kind == "squeeze" and res.expected_known and v.expected_known:
        a, b = res.expected, v.expected
        if (a is None) != (b is None) or (a is not None and b is not None and len(a) != len(b)):
            return f"the output is {format_shape(a)}, of another rank than {format_shape(b)}"
    return ""


def _pin(holds: dict[int, str]) -> str | None:
    """How the values that hold are pinned: "only at 1", "only at multiples of 8"; None where every value
    tried holds (or none: then no single dim is to blame)."""
    good = [k for k, why in holds.items() if not why]
    if len(good) == len(holds) or not good:
        return None
    if len(good) == 1:
        return f"only at {good[0]} (of {_tried(holds)})"
    step = 0
    for k in good:
        step = gcd(step, k)
    if step > 1 and all((k % step == 0) == (not why) for k, why in holds.items()):
        return f"only at multiples of {step} (of {_tried(holds)})"
    return f"only at {', '.join(map(str, good))} (of {_tried(holds)})"


def _tried(holds: dict[int, str]) -> str:
    return "the values tried: " + ", ".join(map(str, holds))
