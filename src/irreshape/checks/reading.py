"""What ``irreshape diff`` compares of one IR, taken from the reading ``check`` makes of it: the same parse and the
same whole-graph inference (:func:`.openvino.check_model` with ``Options.reading``), no second reader.

- the **interface**: each input (a Parameter) and output (a Result) in the order ``Model.inputs`` and
  ``Model.outputs`` list them (the file's), with the tensor names ``read_model`` gives it, and the partial shape and
  element type OpenVINO infers for it;
- the **op census**: how many layers of each op version (``MaxPool-14``), the bodies' too;
- every layer as a signature (its name, op version, producers; a Const's element type, shape, size and a digest of
  its bytes in the ``.bin``), to match layers and Consts between two files.

The result is plain data: it travels between ``--jobs`` processes.
"""

from __future__ import annotations

import hashlib
import mmap
import os
from collections.abc import Iterator
from typing import Any

from ..core.dims import Shape, format_shape
from ..core.records import Frozen, Record
from ..frontends.files import open_regular
from ..frontends.openvino.model import IRModel, Layer, Port
from ..frontends.openvino.reader import PortNames, port_names
from ..frontends.openvino.weights import LFS_MAGIC, element_type
from ..shapes.versions import resolve
from .graph import Graph


class ModelPort(Frozen):
    """One input or output of the model: its position among them, its tensor names as ``read_model`` gives them
    (sorted: ``names[0]`` is what ``get_any_name`` says), the name of its Parameter or Result layer and that layer's
    line, and OpenVINO's partial shape and element type (None: unknown)."""

    __slots__ = FIELDS = ("index", "names", "layer", "line", "shape", "type")
    index: int
    names: tuple[str, ...]
    layer: str
    line: int
    shape: Shape
    type: str | None

    def __init__(self, index: int, names: tuple[str, ...], layer: str, line: int, shape: Shape,
                 type: str | None) -> None:
        self._fill(index, names, layer, line, shape, type)

    @property
    def name(self) -> str:
        """How the port is named: its first tensor name, else its layer's name."""
        return self.names[0] if self.names else self.layer

    @property
    def shape_text(self) -> str:
        """OpenVINO's notation of the partial shape: ``[?,3,1..8]``; ``[...]`` for a dynamic rank."""
        return format_shape(self.shape)

    def to_json(self) -> dict:
        return {"shape": self.shape_text, "type": self.type, "names": list(self.names)}


# a layer's signature: (its key, unique in the file: the name, "#2"... after a repeated one; its op version;
# its producers' keys and output positions; a Const's (element type, shape, bytes, digest of its bytes or None))
Signature = tuple[str, str, tuple[tuple[str, int], ...], "tuple[str | None, str, int, str | None] | None"]


class Reading(Record):
    """One file as ``irreshape diff`` compares it: ``inputs`` and ``outputs`` (:class:`ModelPort`), ``ops`` (op
    version label -> number of layers), ``layers`` (a :data:`Signature` per layer, producers first within each
    graph, the bodies' after the main graph's), ``weights`` (why no Const's bytes could be read, or ""),
    ``compat`` (``compat``'s judgement of the file on the same reading, :class:`.compat.FileCompat`)."""

    __slots__ = FIELDS = ("inputs", "outputs", "ops", "layers", "weights", "compat")
    inputs: tuple[ModelPort, ...]
    outputs: tuple[ModelPort, ...]
    ops: dict[str, int]
    layers: list[Signature]
    weights: str
    compat: Any

    def __init__(self, inputs: tuple[ModelPort, ...], outputs: tuple[ModelPort, ...], ops: dict[str, int],
                 layers: list[Signature], weights: str = "", compat: Any = None) -> None:
        self.inputs, self.outputs, self.ops, self.layers, self.weights = inputs, outputs, ops, layers, weights
        self.compat = compat


def op_label(layer: Layer) -> str:
    """The op version a layer is, as OpenVINO's IR reader resolves it: ``MaxPool-14``; an op of no opset (an
    extension's) as ``Type (version)``."""
    found = resolve(layer.type, layer.version)
    return f"{found[0]}-{found[1]}" if isinstance(found, tuple) else f"{layer.type} ({layer.version})"


def take(model: IRModel, graph: Graph) -> Reading:
    """The reading of ``model`` whose whole-graph inference ``graph`` holds (the check's)."""
    params = [la for la in model.layers.values() if la.kind == "parameter"]
    results = [la for la in model.layers.values() if la.kind == "result"]
    sources = [la.inputs[0].source if la.inputs else None for la in results]
    wanted = {id(la): la for la in (*params, *results, *(p.layer for p in sources if p is not None))}
    names = port_names(model.path, list(wanted.values()))
    legacy = model.version == 10  # read_model names an IR v10 model's inputs and outputs by their layers too
    inputs = []
    for i, la in enumerate(params):
        port = la.outputs[0] if la.outputs else None
        own = set(_names(names[la.id], port))
        if legacy:
            own.add(la.name)
        inputs.append(ModelPort(i, tuple(sorted(own)), la.name, la.line, _shape(graph, port), _type(graph, port)))
    outputs = []
    for i, (la, src) in enumerate(zip(results, sources)):
        own = set(names[la.id].output_names or ())
        if src is not None:
            producer = src.layer
            own = own or set(_names(names[producer.id], src))
            if legacy:
                many = len(producer.outputs) > 1
                own.add(producer.name + (f".{_position(producer, src)}" if many else ""))
        outputs.append(ModelPort(i, tuple(sorted(own)), la.name, la.line, _shape(graph, src), _type(graph, src)))
    with _Bin(model.bin_path) as weights:
        ops: dict[str, int] = {}
        layers: list[Signature] = []
        keys: dict[str, int] = {}  # name -> layers of that name so far
        labels: dict[tuple[str, str], str] = {}  # (type, version) -> op label
        for scope in _graphs(model):
            scope.link()
            key_of: dict[int, str] = {}  # id(layer) -> its key
            for la in scope.layers.values():
                label = labels.get((la.type, la.version))
                if label is None:
                    label = labels[la.type, la.version] = op_label(la)
                ops[label] = ops.get(label, 0) + 1
                key = name = la.name
                if name in keys:
                    keys[name] += 1
                    key = f"{name} #{keys[name]}"
                else:
                    keys[name] = 1
                key_of[id(la)] = key
                ins = tuple([(key_of.get(id(src.layer), ""), 0 if src.layer.outputs[0] is src
                              else _position(src.layer, src)) if (src := p.source) is not None else _UNFED
                             for p in la.inputs])
                layers.append((key, label, ins, weights.const(la) if la.kind == "const" else None))
    return Reading(tuple(inputs), tuple(outputs), ops, layers, weights.problem)


_UNFED = ("", -1)  # an input port without an edge


def _graphs(model: IRModel) -> Iterator[IRModel]:
    """The model's graph, then its bodies', depth first."""
    yield model
    for la in model.layers.values():
        for body in la.bodies:
            yield from _graphs(body.model)


def _names(found: PortNames, port: Port | None) -> tuple[str, ...]:
    return found.ports.get(port.id, ()) if port is not None else ()


def _position(layer: Layer, port: Port) -> int:
    outs = layer.outputs
    return 0 if outs and outs[0] is port else next((i for i, p in enumerate(outs) if p is port), -1)


def _shape(graph: Graph, port: Port | None) -> Shape:
    return graph.shape(port) if port is not None else None


def _type(graph: Graph, port: Port | None) -> str | None:
    """OpenVINO's element type of an input or output: an IR v10 model's as read_model converts it."""
    if port is None:
        return None
    converted = graph.converted.get(port)
    return next(iter(converted)) if converted else graph.etype(port)


class _Bin:
    """The ``.bin`` mapped once for the digests of the Consts' bytes; a slice shared by several Consts (the
    serializer writes equal constants once) is digested once."""

    def __init__(self, path: str) -> None:
        self.path, self.problem = path, ""
        self._file = self._map = None
        self._digests: dict[tuple[int, int], str] = {}

    def __enter__(self) -> "_Bin":
        try:
            self._file = open_regular(self.path)
            size = os.fstat(self._file.fileno()).st_size
            if size:
                self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
                if self._map[:len(LFS_MAGIC)] == LFS_MAGIC and size < 1024:
                    self.problem = "the .bin is a Git LFS pointer"
            else:
                self.problem = "the .bin is empty"
        except OSError as e:
            self.problem = f"the .bin cannot be read: {e.strerror or e}"
        return self

    def __exit__(self, *exc: object) -> None:
        if self._map is not None:
            self._map.close()
        if self._file is not None:
            self._file.close()

    def const(self, layer: Layer) -> tuple[str | None, str, int, str | None]:
        """A Const's (element type, shape as written, bytes, digest of its bytes; None where they cannot be
        read)."""
        data = layer.data
        etype = element_type(data.get("element_type", ""))
        shape = data.get("shape", "").replace(" ", "")
        try:
            offset, size = int(data.get("offset", "")), int(data.get("size", ""))
        except ValueError:
            return etype, shape, 0, None
        return etype, shape, size, self._digest(offset, size)

    def _digest(self, offset: int, size: int) -> str | None:
        m = self._map
        if m is None or self.problem or offset < 0 or size < 0 or offset + size > len(m):
            return None
        key = (offset, size)
        found = self._digests.get(key)
        if found is None:
            with memoryview(m) as view:
                found = self._digests[key] = hashlib.sha1(view[offset:offset + size],
                                                          usedforsecurity=False).hexdigest()
        return found
