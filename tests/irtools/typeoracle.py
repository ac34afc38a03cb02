"""Element types per output port: irreshape's whole-graph inference against ``openvino.Core().read_model``.

Each layer is compared with its own type, as the layer computes it. For an IR v10 file ``read_model`` adds
Converts (``update_v10_model``, measured on 2026.4.1): after each Parameter whose type is f16 (the Parameter
becomes f32), and after each port feeding a Result whose type is neither f32 nor i32 (to i32 from i64, u64 and
u32, to f32 from any other); an output's Convert takes its producer's name (``name``, or ``name.port`` for a
layer of several outputs) and the producer gets a generated one. :func:`own_types` looks through those Converts.
"""

from __future__ import annotations

from irreshape.checks.graph import Graph
from irreshape.frontends.openvino import parse
from irreshape.frontends.openvino.model import IRModel


def _convert_chain(model: IRModel, layer, up: bool) -> int:
    """How many Convert layers of the file follow ``layer`` (its only consumer, then that one's, ...; ``up``: its
    producers through input 0 instead)."""
    n = 0
    while True:
        if up:
            src = layer.inputs[0].source if layer.inputs else None
            nxt = None if src is None else src.layer
        else:
            outs = [c for p in layer.outputs for c, _ in model.consumers(layer.id, p.id)]
            nxt = outs[0] if len(outs) == 1 else None
        if nxt is None or nxt.type != "Convert":
            return n
        n, layer = n + 1, nxt


def _ov_chain(output, up: bool) -> tuple[int, object]:
    """The same count in read_model's model, from an output (``up``: from the output a Result reads, going up),
    and the first Convert met (None: none)."""
    n, first = 0, None
    while True:
        if up:
            node = output.get_node()
            if node.get_type_name() != "Convert":
                return n, first
            first = first or node
            output = node.input_value(0)
        else:
            targets = list(output.get_target_inputs())
            if len(targets) != 1 or targets[0].get_node().get_type_name() != "Convert":
                return n, first
            node = targets[0].get_node()
            first = first or node
            output = node.output(0)
        n += 1


def own_types(path: str, ovm=None) -> dict[tuple[str, str], str]:
    """{(layer id, output port id): the element type read_model's model gives that output} for the main graph
    of the IR at ``path``, each layer's own type (looking through the Converts read_model adds to an IR v10
    model's inputs and outputs). Layers read_model drops or renames past recognition are left out."""
    import openvino as ov

    model = parse(path)
    model.link()
    if ovm is None:
        ovm = ov.Core().read_model(path)
    ops = {op.get_friendly_name(): op for op in ovm.get_ops()}
    out: dict[tuple[str, str], str] = {}
    for layer in model.layers.values():
        op = ops.get(layer.name)
        if op is None or op.get_type_name() == "Result" or len(op.outputs()) != len(layer.outputs):
            continue
        if op.get_type_name() == "Convert" and layer.type != "Convert":
            continue  # the Convert read_model put after an output of a v10 model, named after its producer
        for port, o in zip(layer.outputs, op.outputs()):
            out[(layer.id, port.id)] = o.get_element_type().get_type_name()
    if model.version != 10:
        return out
    for layer in model.layers.values():
        op = ops.get(layer.name)
        if op is None:
            continue
        if layer.type == "Result" and op.get_type_name() == "Result" and layer.inputs:
            src = layer.inputs[0].source
            n, first = _ov_chain(op.input_value(0), up=True)
            if src is not None and n > _convert_chain(model, layer, up=True):
                out[(src.layer.id, src.id)] = first.input_value(0).get_element_type().get_type_name()
        elif layer.type == "Parameter" and op.get_type_name() == "Parameter" and layer.outputs:
            n, first = _ov_chain(op.output(0), up=False)
            if n > _convert_chain(model, layer, up=False):
                out[(layer.id, layer.outputs[0].id)] = first.get_output_element_type(0).get_type_name()
    return out


def frontend_types(path: str) -> dict[tuple[str, str], str]:
    """The same from the IR frontend's model, before ``read_model``'s v10 conversion (by layer name)."""
    from openvino.frontend import FrontEndManager

    fe = FrontEndManager().load_by_framework("ir")
    ovm = fe.convert(fe.load(path))
    model = parse(path)
    ops = {op.get_friendly_name(): op for op in ovm.get_ops()}
    out = {}
    for layer in model.layers.values():
        op = ops.get(layer.name)
        if op is None or op.get_type_name() == "Result" or len(op.outputs()) != len(layer.outputs):
            continue
        for port, o in zip(layer.outputs, op.outputs()):
            out[(layer.id, port.id)] = o.get_element_type().get_type_name()
    return out


def compare_types(path: str) -> tuple[int, list[tuple[str, str, str, str | None, str]]]:
    """(output ports compared, [(layer name, type, port, irreshape's type, OpenVINO's)] where they differ) for
    the main graph of the IR at ``path``, each layer against its own type (:func:`own_types`); ports irreshape
    leaves untyped count as differing too."""
    model = parse(path)
    graph = Graph(model)
    graph.infer_types()
    theirs = own_types(path)
    compared, wrong = 0, []
    for layer in model.layers.values():
        for port in layer.outputs:
            t = theirs.get((layer.id, port.id))
            if t is None:
                continue
            ours = graph.etype(port) if graph.etype_known(port) else None
            compared += 1
            if ours != t:
                wrong.append((layer.name, layer.type, port.id, ours, t))
    return compared, wrong
