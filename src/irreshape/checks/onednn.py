"""Check one oneDNN Graph JSON document: its StaticReshape and DynamicReshape ops, and the tensors around them."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.dims import Agreement, Bound, Dim, Shape, differing, format_shape, is_static_shape, volume
from ..core.findings import Finding
from ..core.results import FileResult, LayerResult, Options, Status
from ..core.text import fmt_list
from ..frontends.onednn import OnednnGraph, Op, Tensor, load
from ..rules import finding
from ..rules import reshape as R
from ..rules import structure as S
from ..rules.onednn import DTYPE, JSON_INVALID, SHAPE_UNKNOWN, TENSOR_INCONSISTENT
from ..shapes.onednn import consensus, flag, infer_output, literal_output, merge, onednn_reshape
from ..shapes.reshape import ReshapeError

# a oneDNN dump's unknown dims are unknown to irreshape, not dynamic: only a value they cannot take differs
_WRONG = frozenset({Agreement.CONTRADICTS})
KINDS = {"staticreshape": "StaticReshape", "dynamicreshape": "DynamicReshape"}
DTYPES = ("f32", "bf16", "f16")


def check_path(path: str, options: Options | None = None) -> FileResult | None:
    """Check one oneDNN Graph JSON file. None when the file is not one (skipped without a word)."""
    graph, problems = load(path, (options or Options()).max_xml_size)
    result = FileResult(path)
    if graph is None:
        if not problems:
            return None
        result.findings.extend(finding(p) for p in problems)
        return result
    shaped = ShapedGraph(graph)
    result.findings.extend(check_graph(graph))
    for op in graph.topological_order():
        if op.kind in KINDS:
            verdict, found = check_op(op, shaped)
            result.layers.append(verdict)
            result.findings.extend(found)
    result.layers.sort(key=lambda r: (r.layer.line, r.layer.id))
    result.sort()
    return result


class ShapedGraph:
    """A oneDNN graph and every tensor's best-known shape (written or inferred)."""

    def __init__(self, graph: OnednnGraph) -> None:
        self.graph = graph
        self.producers, self.consumers, self.copies = graph.producers, graph.consumers, graph.copies
        self.known: dict[object, Shape] = {}
        self._propagate()

    def inferred(self, op: Op, index: int = 0) -> Shape:
        """Output ``index`` of ``op`` computed from the best-known shapes of its inputs (output 0 only)."""
        if index != 0:
            return None
        return infer_output(op.type, op.attrs, [self.known.get(t.id) for t in op.inputs])

    def _propagate(self) -> None:
        """Fill ``known``, producers first: for each tensor, the shape most of its sources agree on.

        The sources are the written copies and the shape inferred from the producer's inputs (ahead
        of the producer's own copy for a reshape, which irreshape recomputes exactly; after it for
        other ops). Unknown dims of the winner are completed from the other sources.
        """
        for tid in self.consumers:
            if tid not in self.producers:
                self.known[tid] = consensus([t.shape for t in self.consumers[tid]])
        for op in self.graph.topological_order():
            reshape = op.kind in ("staticreshape", "dynamicreshape")
            for i, t in enumerate(op.outputs):
                if t.id is None:
                    continue
                written = [c.shape for c in self.producers.get(t.id, ())]
                inferred = [self.inferred(op, i)]
                readers = [c.shape for c in self.consumers.get(t.id, ())]
                self.known[t.id] = consensus(inferred + written + readers if reshape else written + inferred + readers)



def check_graph(graph: OnednnGraph) -> Iterator[Finding]:
    """Document-level checks: graph entries that are not ops, and duplicate op ids."""
    for line, why in graph.bad_ops:
        yield Finding(JSON_INVALID, f"graph entry {why}", line)
    seen: set[str] = set()
    for op in graph.ops:
        if op.id in seen:
            yield Finding(S.DUPLICATE_ID, f"op id {op.id} ({op.name!r}) is used by an earlier op too", op.line, op.ref)
        seen.add(op.id)


def _name(op: Op) -> str:
    return f"{op.type} {op.name!r} (id {op.id})"


def _show(t: Tensor) -> str:
    shape = "[?]" if t.written is not None and t.shape is None else format_shape(t.shape)
    return shape + (f" {t.dtype}" if t.dtype else "")


def compatible(a: Shape, b: Shape) -> bool:
    """Unknown ranks and unknown dims agree with anything."""
    if a is None or b is None:
        return True
    return len(a) == len(b) and all(x.is_dynamic or y.is_dynamic or x == y for x, y in zip(a, b))


def _key(shape: Shape) -> tuple:
    return tuple((d.lo, d.hi) for d in shape)  # type: ignore[union-attr]


def _input_candidates(data: Tensor, graph: ShapedGraph) -> list[tuple[Shape, list[str]]]:
    """The input shapes the file supports, most supported first: (shape, where it comes from)."""
    known = graph.known.get(data.id)
    sources: list[tuple[Shape, str]] = [(data.shape, "written on this op")]
    for p in graph.producers.get(data.id, ()):
        sources.append((p.shape, f"written by its producer {_name(p.op)}"))
        sources.append((graph.inferred(p.op, p.index), f"inferred from the inputs of {_name(p.op)}"))
    for c in graph.consumers.get(data.id, ()):
        if c is not data:
            sources.append((c.shape, f"written by consumer {_name(c.op)}"))
    groups: dict[tuple, tuple[Shape, list[str]]] = {}
    for shape, origin in sources:
        full = merge(shape, known) if shape is not None else None
        if full is not None:
            groups.setdefault(_key(full), (full, []))[1].append(origin)
    if not groups and known is not None:
        groups[_key(known)] = (known, ["inferred"])
    order = list(groups.values())
    return sorted(order, key=lambda g: -len(g[1]))  # stable: the op's own copy wins ties


def _mismatch(declared: list[int], expected: list[Dim]) -> tuple | None:
    """(rule, what differs) when declared and recomputed disagree. Unknown declared dims (-1) agree with anything."""
    if len(declared) != len(expected):
        return R.RANK_MISMATCH, f"(rank {len(declared)}), expected {format_shape(expected)} (rank {len(expected)})"
    bad = differing(declared, expected, _WRONG)
    if bad:
        return R.OUTPUT_MISMATCH, f"expected {format_shape(expected)} (dim {', '.join(str(i) for i in bad)})"
    return None


def check_op(op: Op, graph: ShapedGraph) -> tuple[LayerResult, list[Finding]]:
    """Recompute one StaticReshape/DynamicReshape op; return its verdict and its findings."""
    findings: list[Finding] = []

    def find(r, msg, line=None):
        findings.append(Finding(r, msg, line or op.line, op.ref))

    dynamic = op.kind == "dynamicreshape"
    data = op.inputs[0] if op.inputs else None
    out = op.outputs[0] if op.outputs else None
    res = LayerResult(op, Status.OK, out.declared if out is not None else None)  # type: ignore[arg-type]
    if data is None or out is None or (dynamic and len(op.inputs) < 2):
        what = "data input" if data is None else ("output" if out is None else "shape input")
        find(S.MISSING_PORT, f"{_name(op)} has no {what}")
        res.status = Status.INVALID
        return res, findings
    for t in (data, out):
        if t.malformed:
            find(S.BAD_DIM, f"{_name(op)}: the shape of tensor {t.id} is not a list of dims "
                 "(integers >= 0, or -9223372036854775808 for unknown)", t.line)
    raw_sz = op.attrs.get("special_zero")
    sz = flag(raw_sz)
    if sz is None:
        find(S.BAD_ATTRIBUTE, f"{_name(op)}: special_zero is "
             + ("missing" if "special_zero" not in op.attrs else repr(raw_sz))
             + "; oneDNN requires a bool (0 or 1); read as 0")
        sz = False
    res.special_zero = sz
    if data.dtype and out.dtype and (data.dtype != out.dtype or data.dtype not in DTYPES):
        find(DTYPE, f"{_name(op)}: input tensor {data.id} is {data.dtype}, output tensor {out.id} is "
             f"{out.dtype}; oneDNN needs one of f32, bf16, f16 for both", out.line)

    candidates = _input_candidates(data, graph) or [(None, ["not in the file"])]
    values = op.attrs.get("shape")
    expected: Shape = None
    if dynamic:
        _check_input(op, data, *candidates[0], graph, find)
        _check_dynamic(op, res, candidates[0][0], graph, find)
    elif not (isinstance(values, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)):
        _check_input(op, data, *candidates[0], graph, find)
        find(R.INVALID_PATTERN, f"{_name(op)}: the `shape` attribute {values!r} is not a list of integers")
        res.status = Status.INVALID
    else:
        res.pattern = [Bound.value(v) for v in values]
        res.pattern_origin = f"the `shape` attribute of {op.name!r}"
        in_shape, origins, outcome = _recompute(res, candidates, sz)
        _check_input(op, data, in_shape, origins, graph, find)
        if isinstance(outcome, ReshapeError):
            # a volume error leaves the output the pattern spells out (no -1): report it as expected
            expected = literal_output(in_shape, values, sz) if outcome.kind == "volume" else None
            find(R.VOLUME_MISMATCH if expected is not None else R.INVALID_PATTERN,
                 f"{_name(op)}: input {format_shape(in_shape)}, shape {fmt_list(values)}, special_zero={int(sz)}: "
                 f"{outcome.message}")
            res.status = Status.INVALID
            res.expected, res.expected_known = expected, expected is not None
        else:
            expected = outcome
            _verdict(op, res, data, expected, graph, find)
    findings.extend(_check_consumers(op, out, expected, graph))
    return res, findings


def _recompute(res: LayerResult, candidates, special_zero: bool) -> tuple[Shape, list[str], object]:
    """(input shape, its origins, output shape or ReshapeError), from the best-supported input that
    explains the declared output, else the best-supported one the op accepts, else the best-supported."""
    tried: list[tuple[Shape, list[str], object]] = []
    chosen = None
    for shape, origins in candidates:
        try:
            outcome: object = onednn_reshape(shape, res.pattern, special_zero)  # type: ignore[arg-type]
        except ReshapeError as e:
            outcome = e
        tried.append((shape, origins, outcome))
        if not isinstance(outcome, ReshapeError) and (res.declared is None or not _mismatch(res.declared, outcome)):
            chosen = tried[-1]
            break
    if chosen is None:
        chosen = next((t for t in tried if not isinstance(t[2], ReshapeError)), tried[0])
    res.input_shape = chosen[0]
    for shape, origins, _ in [chosen] + [t for t in tried if t is not chosen]:
        res.steps.append(f"{'input' if shape is chosen[0] else 'also seen'}: {format_shape(shape)} "
                         f"({'; '.join(origins)})")
    return chosen


def _check_input(op: Op, data: Tensor, in_shape: Shape, origins: list[str], graph: ShapedGraph, find) -> None:
    """The input tensor as written here and by its producers must agree with the shape used (and in dtype)."""
    where = "; ".join(origins)
    if not compatible(data.shape, in_shape):
        find(TENSOR_INCONSISTENT, f"{_name(op)}: input tensor {data.id} is {_show(data)} here, but "
             f"{format_shape(in_shape)} ({where})", data.line)
    for p in graph.producers.get(data.id, ()):
        if not compatible(p.shape, in_shape) or (data.dtype and p.dtype and data.dtype != p.dtype):
            find(TENSOR_INCONSISTENT, f"{_name(op)}: {_name(p.op)} produces input tensor {data.id} as {_show(p)}, "
                 f"but it is {format_shape(in_shape)}{f' {data.dtype}' if data.dtype else ''} ({where})", p.line)


def _verdict(op: Op, res: LayerResult, data: Tensor, expected: list[Dim], graph: ShapedGraph, find) -> None:
    res.expected, res.expected_known = expected, True
    res.steps.append(f"recomputed output: {format_shape(expected)}")
    wrong = _mismatch(res.declared, expected) if res.declared is not None else None
    if wrong is not None:
        comma = "," if wrong[0] is R.OUTPUT_MISMATCH else ""
        find(wrong[0], f"{_name(op)}: declares {fmt_list(res.declared)}{comma} {wrong[1]}")
        res.status = Status.MISMATCH
    elif not is_static_shape(res.input_shape):
        res.status = Status.UNVERIFIED
        producers = graph.producers.get(data.id, ())
        why = (f"its producer {_name(producers[0].op)} is not one irreshape infers, or its inputs are unknown"
               if producers else "it is a graph input")
        find(SHAPE_UNKNOWN, f"{_name(op)}: input tensor {data.id} is {format_shape(res.input_shape)} and {why}; "
             "the element count was not checked")


def _check_dynamic(op: Op, res: LayerResult, in_shape: Shape, graph: ShapedGraph, find) -> None:
    """DynamicReshape: the shape values are not in the file; check the rank and, when static, the volume."""
    shape_t = op.inputs[1]
    n_shape = graph.known.get(shape_t.id) if shape_t.id is not None else shape_t.shape
    n = n_shape[0].lo if n_shape is not None and len(n_shape) == 1 and n_shape[0].is_static else None
    res.input_shape = in_shape
    res.status = Status.UNVERIFIED
    if n is not None and res.declared is not None and len(res.declared) != n:
        find(R.RANK_MISMATCH, f"{_name(op)}: declares {fmt_list(res.declared)} (rank {len(res.declared)}), "
             f"the shape input (tensor {shape_t.id}) has {n} elements")
        res.status = Status.MISMATCH
    if is_static_shape(in_shape) and res.declared is not None and all(d >= 0 for d in res.declared):
        vin, vout = volume(d.lo for d in in_shape), volume(res.declared)  # type: ignore[union-attr]
        if vin != vout:
            find(R.VOLUME_MISMATCH, f"{_name(op)}: input {format_shape(in_shape)} has {vin} elements, the "
                 f"declared output {fmt_list(res.declared)} has {vout}; oneDNN always checks the volume")
            res.status = Status.INVALID
    find(R.UNVERIFIED, f"{_name(op)} not verified: the values of its shape input (tensor {shape_t.id}) "
         "are not in the file")


def _check_consumers(op: Op, out: Tensor, expected: Shape, graph: ShapedGraph) -> Iterator[Finding]:
    """Every other appearance of the output tensor must agree with the op's declared or recomputed output.

    A copy that agrees with only one of them is covered by the output mismatch already reported.
    """
    refs = [s for s in (out.shape, expected) if s is not None]
    shown = " / ".join(dict.fromkeys(format_shape(s) for s in refs)) + (f" {out.dtype}" if out.dtype else "")
    for other in graph.copies(out.id):
        same_dtype = not (out.dtype and other.dtype and out.dtype != other.dtype)
        if other is out or same_dtype and (not refs or any(compatible(r, other.shape) for r in refs)):
            continue
        role = "consumer" if not other.output else "another producer,"
        yield Finding(TENSOR_INCONSISTENT, f"{_name(op)}: output tensor {out.id} is {shown}, but "
                      f"{role} {_name(other.op)} has it as {_show(other)}", other.line, op.ref)
