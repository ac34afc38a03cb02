"""oneDNN Graph JSON documents (benchdnn graph inputs, ``ONEDNN_GRAPH_DUMP=graph`` dumps).

A JSON file is a oneDNN Graph document when its top level is an object whose ``graph`` is a list of
ops with a ``kind``; any other JSON is not ours (``None``, skipped without a word). Each op has
``id`` / ``name`` / ``kind`` / ``attrs`` (``{"type": ..., "value": ...}``) / ``inputs`` / ``outputs``
(logical tensors: ``id`` / ``dtype`` / ``shape`` / ...); edges are implicit through tensor ids.

The parser is a small tokenizer, not :mod:`json`, because findings need the line where each op
starts and ``--fix`` needs the exact text span of each tensor's ``shape`` list. In a tensor
``shape``, ``-9223372036854775808`` (and ``-1`` in older dumps) is an unknown dim; a shape of that
one value alone is an unknown rank.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]

from ..core.dims import INT64_MIN, Dim, Shape
from ..core.findings import LayerRef, Problem
from ..core.order import topological
from ..core.results import DEFAULT_MAX_SIZE

UNKNOWN_DIMS = (INT64_MIN, -1)
SNIFF_BYTES = 1 << 20


# -- a JSON reader that keeps offsets ------------------------------------------------------------

class JSONError(ValueError):
    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


class Obj(dict):
    """A JSON object, the offset of its ``{`` and the span of each value."""

    __slots__ = ("pos", "spans")


class Arr(list):
    """A JSON array, the offsets of its ``[`` and just past its ``]``, and each item's span."""

    __slots__ = ("end", "pos", "spans")


#: Where offsets are kept: the top object, its `graph` list, each op, its `inputs` and `outputs`
#: lists and each tensor (whose `shape` span is the one `--fix` rewrites). Every other value is
#: decoded in one go by the stdlib's C decoder.
SPEC: dict = {"graph": [{"inputs": [{}], "outputs": [{}]}]}

_WS = re.compile(r"[ \t\n\r]*")
_KEY = re.compile(r'"([^"\\\x00-\x1f]*)"[ \t\n\r]*:[ \t\n\r]*')  # a key without escapes, its colon
_SEP = re.compile(r"[ \t\n\r]*([,}\]])[ \t\n\r]*")


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def _error(text: str, i: int, what: str) -> JSONError:
    i = _WS.match(text, i).end()  # type: ignore[union-attr]
    return JSONError("unexpected end of file" if i >= len(text) else f"expected {what}", i)


def _key(text: str, i: int) -> tuple[str, int]:
    """(key, offset of its value) for the object key at ``i``."""
    m = _KEY.match(text, i)
    if m is not None:
        return m.group(1), m.end()
    if not text.startswith('"', i):
        raise _error(text, i, "a string key")
    try:
        key, i = scanstring(text, i + 1)
    except ValueError as e:
        raise JSONError(getattr(e, "msg", str(e)), getattr(e, "pos", i)) from None
    i = _WS.match(text, i).end()  # type: ignore[union-attr]
    if not text.startswith(":", i):
        raise _error(text, i, "':'")
    return key, _WS.match(text, i + 1).end()  # type: ignore[union-attr]


def _sep(text: str, i: int, close: str) -> tuple[bool, int]:
    """(closed, next offset) after a value: a `,` (then the next item) or the closing bracket."""
    m = _SEP.match(text, i)
    if m is None or m.group(1) not in (",", close):
        raise _error(text, i, f"',' or {close!r}")
    return m.group(1) == close, (m.start(1) + 1 if m.group(1) == close else m.end())


def _value(text: str, i: int, spec: object) -> tuple[object, int]:
    """(value, end) of the JSON value at ``i`` (no leading whitespace), offsets kept where ``spec`` says."""
    if isinstance(spec, dict) and text.startswith("{", i):
        obj = Obj()
        obj.pos, obj.spans = i, {}
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        if text.startswith("}", i):
            return obj, i + 1
        while True:
            key, start = _key(text, i)
            obj[key], i = _value(text, start, spec.get(key))
            obj.spans[key] = (start, i)
            closed, i = _sep(text, i, "}")
            if closed:
                return obj, i
    if isinstance(spec, list) and text.startswith("[", i):
        arr = Arr()
        arr.pos, arr.spans = i, []
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        closed = text.startswith("]", i)
        if closed:
            i += 1
        while not closed:
            item, end = _value(text, i, spec[0])
            arr.append(item)
            arr.spans.append((i, end))
            closed, i = _sep(text, end, "]")
        arr.end = i
        return arr, i
    try:
        return _DECODER.raw_decode(text, i)
    except json.JSONDecodeError as e:
        raise JSONError(e.msg, e.pos) from None
    except RecursionError:
        raise JSONError("nested too deeply", i) from None
    except ValueError as e:  # an integer too long to convert, NaN, Infinity
        raise JSONError(str(e), i) from None


def parse_json(text: str, spec: object = SPEC) -> object:
    """The document's value; where ``spec`` says, objects are :class:`Obj` and arrays :class:`Arr`.

    Raises :class:`JSONError` for anything that is not one strict JSON document.
    """
    start = _WS.match(text).end()  # type: ignore[union-attr]
    if start >= len(text):
        raise JSONError("unexpected end of file", start)
    value, end = _value(text, start, spec)
    end = _WS.match(text, end).end()  # type: ignore[union-attr]
    if end < len(text):
        raise JSONError("extra data after the document", end)
    return value


# -- the graph --------------------------------------------------------------------------------

@dataclass(slots=True, eq=False)
class Tensor:
    """One appearance of a logical tensor: an op's input or output."""

    id: object
    dtype: str | None
    shape: Shape  # None: unknown rank, or no readable shape
    written: list[int] | None  # the shape list as written (None when missing or malformed)
    span: tuple[int, int] | None  # text offsets of the shape list, `[` to just past `]`
    line: int
    op: Op
    index: int
    output: bool
    malformed: bool = False  # a `shape` that is not a list of dims

    @property
    def declared(self) -> list[int] | None:
        """The shape for reports: -1 for an unknown dim, None for an unknown rank."""
        return None if self.shape is None else [d.to_ir() for d in self.shape]


@dataclass(slots=True, eq=False)
class Op:
    id: str
    name: str
    type: str  # the oneDNN `kind` as written
    line: int
    attrs: dict
    inputs: list[Tensor] = field(default_factory=list)
    outputs: list[Tensor] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.type.lower()

    @property
    def ref(self) -> LayerRef:
        return LayerRef(self.id, self.name, self.type)


def tensor_shape(raw: object) -> tuple[Shape, list[int] | None]:
    """(dims, the list as written) of a tensor ``shape``; (None, None) when it is not a list of dims."""
    if not isinstance(raw, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
        return None, None
    if len(raw) == 1 and raw[0] in UNKNOWN_DIMS:
        return None, raw
    if any(v < 0 and v not in UNKNOWN_DIMS for v in raw):
        return None, None
    return [Dim.dynamic() if v < 0 else Dim.of(v) for v in raw], raw


class OnednnGraph:
    """Ops, the tensors that link them, and every tensor's best-known shape (written or inferred)."""

    def __init__(self, text: str, doc: dict) -> None:
        self._lines = [m.end() for m in re.finditer("\n", text)]
        self.ops: list[Op] = []
        self.bad_ops: list[tuple[int, str]] = []  # (line, why) of graph entries that are not ops
        self.producers: dict[object, list[Tensor]] = {}
        self.consumers: dict[object, list[Tensor]] = {}
        graph = doc["graph"]
        for entry, (start, _) in zip(graph, graph.spans if isinstance(graph, Arr) else [(0, 0)] * len(graph)):
            self._add_op(entry, start)

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self._lines, pos) + 1

    def _add_op(self, entry: object, pos: int) -> None:
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            self.bad_ops.append((self.line(pos), "is not an object with a string `kind`"))
            return
        attrs = entry.get("attrs") if isinstance(entry.get("attrs"), dict) else {}
        op = Op(str(entry.get("id")), str(entry.get("name", "")), entry["kind"], self.line(pos),
                {k: (a.get("value") if isinstance(a, dict) else a) for k, a in attrs.items()})
        self.ops.append(op)
        for output, key, table in ((False, "inputs", self.consumers), (True, "outputs", self.producers)):
            items = entry.get(key)
            for i, lt in enumerate(items if isinstance(items, list) else ()):
                t = self._tensor(lt, op, i, output)
                (op.outputs if output else op.inputs).append(t)
                if t.id is not None:
                    table.setdefault(t.id, []).append(t)

    def _tensor(self, lt: object, op: Op, index: int, output: bool) -> Tensor:
        if not isinstance(lt, dict):
            return Tensor(None, None, None, None, None, op.line, op, index, output)
        raw = lt.get("shape")
        shape, written = tensor_shape(raw)
        span = lt.spans.get("shape") if isinstance(lt, Obj) and isinstance(raw, list) else None
        line = self.line(span[0] if span else getattr(lt, "pos", 0))
        tid = lt.get("id")
        dtype = lt.get("dtype")
        return Tensor(tid if isinstance(tid, (int, str)) and not isinstance(tid, bool) else None,
                      dtype if isinstance(dtype, str) else None, shape, written, span, line, op, index, output,
                      malformed=raw is not None and written is None)

    # -- shapes -----------------------------------------------------------------------------------
    def copies(self, tid: object) -> list[Tensor]:
        """Every appearance of a tensor id: producers' outputs first, then consumers' inputs."""
        return self.producers.get(tid, []) + self.consumers.get(tid, [])

    def topological_order(self) -> list[Op]:
        """Ops, producers before consumers; ops on a cycle come last in file order."""
        order, rest = topological(self.ops, ((src.op, op) for op in self.ops for t in op.inputs if t.id is not None
                                             for src in self.producers.get(t.id, ()) if src.op is not op))
        return order + rest


# -- files ------------------------------------------------------------------------------------

_GRAPH_KEY = re.compile(rb'"graph"\s*:\s*\[')


def _looks_onednn(head: bytes, complete: bool) -> bool:
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"{"):
        return False
    if _GRAPH_KEY.search(head):
        return True
    return not complete and (b'"input_ports"' in head or b'"engine_kind"' in head)


def is_onednn_json(path: str) -> bool:
    """Cheap sniff for directory walks: a JSON object with a ``"graph": [`` key near its start."""
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
            complete = not f.read(1)
    except OSError:
        return False
    return _looks_onednn(head, complete)


def load(path: str, max_size: int = DEFAULT_MAX_SIZE) -> tuple[OnednnGraph | None, list[Problem]]:
    """(graph, problems of the file). (None, []) when the file is not a oneDNN Graph document."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            if size > max_size:
                head = f.read(SNIFF_BYTES)
                if not _looks_onednn(head, False):
                    return None, []
                return None, [Problem("file-too-large", f"{size} bytes is larger than the limit of {max_size}")]
            data = f.read()
    except OSError as e:
        return None, [Problem("file-unreadable", f"cannot read the file: {e.strerror or e}")]
    looks = _looks_onednn(data[:SNIFF_BYTES], len(data) <= SNIFF_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return None, ([Problem("onednn-invalid-json", f"not UTF-8 (byte {e.start})", 1)] if looks else [])
    try:
        doc = parse_json(text)
    except JSONError as e:
        if not looks:
            return None, []
        line = text.count("\n", 0, e.pos) + 1
        col = e.pos - (text.rfind("\n", 0, e.pos) + 1) + 1
        return None, [Problem("onednn-invalid-json", f"{e.message} (line {line}, column {col})", line, col=col)]
    if not (isinstance(doc, dict) and isinstance(doc.get("graph"), list)
            and any(isinstance(op, dict) and isinstance(op.get("kind"), str) for op in doc["graph"])):
        return None, []
    return OnednnGraph(text, doc), []
