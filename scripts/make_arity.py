"""Regenerate ``src/irreshape/shapes/arity.py`` from the installed openvino (needs openvino==2026.4.1).

For every op version irreshape's registry knows in OpenVINO's opsets, which input counts ``read_model`` accepts and
what it says of the others. Each count N is judged on a minimal IR: N Parameters of a dynamic rank feeding the op
(written in the first opset holding that op version), its output 0 into a Result, read by ``read_model``; the
Parameters' element types are tried in a few configurations (dynamic, f32, f32 then i64, ...) and, for the ops whose
accepted counts depend on an attribute (Broadcast's mode, Einsum's equation, ...), with a few <data>s: a count is
accepted where any of them is. A refused count's message is read_model's, in the configuration that accepts the
most counts. Every case runs in one forked child, restarted past a crash (read_model crashes on a few counts: a
segmentation fault, recorded as such).

The control-flow ops (TensorIterator, Loop, If: their bodies' port maps say how many inputs they take) are not
measured. ReadValue and Assign are measured with their variable.
"""

from __future__ import annotations

import os
import pickle
import pprint
import re
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from irreshape.shapes import registry  # noqa: E402
from irreshape.shapes.opsets import OPSETS  # noqa: E402
from irtools.attrprobe import forked  # noqa: E402

OUT = ROOT / "src" / "irreshape" / "shapes" / "arity.py"
MAXN = 9  # counts 0..MAXN-1 are measured; a count past them is judged as the last one
SKIP = {"If", "Loop", "TensorIterator", "Parameter", "Constant", "Result"}
# the Parameters' (element type, shape) by input position (the last repeated): dynamic ranks, and static shapes for
# the ops that read an input's shape to make a missing one (StridedSlice's default strides)
_D = "..."
CONFIGS = ((("dynamic", _D),), (("f32", _D),), (("f32", _D), ("i64", _D)), (("i64", _D),),
           (("f32", _D), ("f32", _D), ("i64", _D)), (("string", _D), ("i64", _D)), (("i64", _D), ("f32", _D)),
           (("i32", _D), ("i32", _D), ("u8", _D)), (("f32", _D), ("i64", _D), ("f32", _D), ("i64", _D)),
           (("f32", "1,2,4,4"), ("i64", "2")),
           (("f32", "1,2,4,4"), ("i64", "4")), (("f32", "2,3"), ("i64", "2")), (("f32", "1,2,4,4"),),
           (("f32", "1,2,4,4"), ("i64", "")), (("f32", "2,3"), ("i64", "")),
           # inputs past the first Consts (0 of that type): the ops that read an input only as a Const (Unique's axis)
           (("f32", "1,2,4,4"), ("i64", "", "const")), (("f32", "2,3"), ("i64", "1", "const")),
           (("f32", "2,3"), ("i32", "", "const")))
# an op's own configurations, where its inputs must meet (LSTMCell-0's peepholes: X, H, C, W, R, B, P)
OWN_CONFIGS = {"LSTMCell": ((("f32", "1,4"), ("f32", "1,2"), ("f32", "1,2"), ("f32", "8,4"), ("f32", "8,2"),
                             ("f32", "8"), ("f32", "6")),)}
WEIGHTS = bytes(64)  # every Const reads zeros from offset 0
# <data>s an op needs to be read at all, or whose attributes change the counts it takes
ATTRS: dict[str, list[dict[str, str]]] = {
    "ReorgYolo": [{"stride": "2"}],
    "GenerateProposals": [{"min_size": "1", "nms_threshold": "0.5", "pre_nms_count": "10", "post_nms_count": "5"}],
    "ExtractImagePatches": [{"sizes": "1,1", "strides": "1,1", "rates": "1,1", "auto_pad": "valid"}],
    "DetectionOutput": [{"num_classes": "2", "keep_top_k": "1", "nms_threshold": "0.5", "background_label_id": "0",
                         "top_k": "1", "code_type": "caffe.PriorBoxParameter.CORNER"}],
    "ShapeOf": [{"output_type": "i64"}],
    "Proposal": [{"base_size": "16", "pre_nms_topn": "10", "post_nms_topn": "5", "nms_thresh": "0.5",
                  "feat_stride": "16", "min_size": "1", "ratio": "1", "scale": "1"}],
    "RegionYolo": [{"axis": "1", "end_axis": "3", "coords": "4", "classes": "2", "num": "1", "do_softmax": "true"}],
    "PSROIPooling": [{"output_dim": "2", "group_size": "2", "spatial_scale": "1", "mode": "average"}],
    "DeformablePSROIPooling": [{"output_dim": "2", "group_size": "2", "spatial_scale": "1"}],
    "ROIPooling": [{"pooled_h": "2", "pooled_w": "2", "spatial_scale": "1", "method": "max"}],
    "ROIAlign": [{"pooled_h": "2", "pooled_w": "2", "spatial_scale": "1", "sampling_ratio": "1", "mode": "avg"}],
    "TopK": [{"axis": "0", "mode": "max", "sort": "value", "index_element_type": "i32"}],
    "Split": [{"num_splits": "1"}],
    "Eye": [{"output_type": "f32"}],
    "RandomUniform": [{"output_type": "f32"}],
    "GroupNormalization": [{"num_groups": "1", "epsilon": "0.1"}],
    "Interpolate": [{"mode": "nearest", "axes": "2"}, {"mode": "nearest", "shape_calculation_mode": "scales"},
                    {"mode": "nearest", "shape_calculation_mode": "sizes"}, {"mode": "linear", "axes": "2,3"}],
    "Bucketize": [{"output_type": "i64"}, {"output_type": "i32", "with_right_bound": "true"}],
    "Multinomial": [{"convert_type": "i64", "num_samples": "1"}],
    "LSTMCell": [{"hidden_size": "2"}], "GRUCell": [{"hidden_size": "2"}], "RNNCell": [{"hidden_size": "2"}],
    "LSTMSequence": [{"hidden_size": "2"}], "GRUSequence": [{"hidden_size": "2"}], "RNNSequence": [{"hidden_size": "2"}],
    "Einsum": [{"equation": "ab->ab"}, {"equation": "ab,bc->ac"}, {"equation": "a,a,a->a"},
               {"equation": "a,a,a,a->a"}, {"equation": "a,a,a,a,a->a"}, {"equation": "a,a,a,a,a,a->a"},
               {"equation": "a,a,a,a,a,a,a->a"}, {"equation": "a,a,a,a,a,a,a,a->a"}],
    "Broadcast": [{}, {"mode": "explicit"}, {"mode": "bidirectional"}],
    "Pad": [{}, {"pad_mode": "constant"}, {"pad_mode": "reflect"}],
    "ReadValue": [{"variable_id": "v"}, {"variable_id": "v", "variable_type": "dynamic", "variable_shape": "..."}],
}
# messages of a count read_model refuses only once the node is made and cloned (``clone_with_new_inputs``): its
# validation (the shape function) comes first
# messages that speak of the input count (or of an input that is not there)
COUNT = re.compile(r"out of range|new_args|new arguments|number of|Number of|size\(\)|inputs|arguments|crashes|"
                   r"Expected \d|inputs_size|has_rois_num")
LATE = re.compile(r"new_args|new arguments|Incorrect number of arguments|node index is out of range|"
                  r"Not supported number of|Expected 5 inputs to be provided")  # NMSRotated's, after nms::shape_infer


def first_opsets() -> dict[tuple[str, int], int]:
    first: dict[tuple[str, int], int] = {}
    for n, table in sorted(OPSETS.items()):
        for kind, v in table.items():
            first.setdefault((kind, v), n)
    return first


def model_xml(kind: str, opset: str, n: int, config: tuple[tuple[str, str], ...], data: dict[str, str]) -> str:
    port = '<port id="{}" precision="FP32"/>'
    params = ""
    for i in range(n):
        et, shape, *const = config[min(i, len(config) - 1)]
        if const:
            size = 8 if et == "i64" else 4
            for d in filter(None, shape.split(",")):
                size *= int(d)
            params += (f'<layer id="{i}" name="p{i}" type="Const" version="opset1"><data element_type="{et}" '
                       f'shape="{shape}" offset="0" size="{size}"/><output>{port.format(0)}</output></layer>')
        else:
            params += (f'<layer id="{i}" name="p{i}" type="Parameter" version="opset1"><data shape="{shape}" '
                       f'element_type="{et}"/><output>{port.format(0)}</output></layer>')
    attrs = " ".join(f"{k}={quoteattr(v)}" for k, v in data.items())
    ins = f'<input>{"".join(port.format(i) for i in range(n))}</input>' if n else ""
    op, res = n, n + 1
    layers = params + f'<layer id="{op}" name="op" type="{kind}" version="{opset}"><data {attrs}/>{ins}'
    edges = "".join(f'<edge from-layer="{i}" from-port="0" to-layer="{op}" to-port="{i}"/>' for i in range(n))
    if kind == "Assign":  # its input 0 a ReadValue of its variable (of Parameter 0), the others Parameters
        layers += (f'</layer><layer id="{res}" name="rv" type="ReadValue" version="{opset}"><data variable_id="v"/>'
                   f'<input>{port.format(0)}</input><output>{port.format(1)}</output></layer>'
                   f'<layer id="{res + 1}" name="r" type="Result" version="opset1"><input>{port.format(0)}</input>'
                   '</layer>')
        edges = edges.replace(f'<edge from-layer="0" from-port="0" to-layer="{op}" to-port="0"/>',
                              f'<edge from-layer="{res}" from-port="1" to-layer="{op}" to-port="0"/>')
        edges += (f'<edge from-layer="0" from-port="0" to-layer="{res}" to-port="0"/>'
                  f'<edge from-layer="{res}" from-port="1" to-layer="{res + 1}" to-port="0"/>')
    else:
        layers += (f'<output>{port.format(n)}</output></layer><layer id="{res}" name="r" type="Result" '
                   f'version="opset1"><input>{port.format(0)}</input></layer>')
        edges += f'<edge from-layer="{op}" from-port="{n}" to-layer="{res}" to-port="0"/>'
    return f'<?xml version="1.0"?><net name="m" version="11"><layers>{layers}</layers><edges>{edges}</edges></net>'


def data_of(kind: str) -> list[dict[str, str]]:
    return ATTRS.get(kind) or ([{"variable_id": "v"}] if kind == "Assign" else [{}])


def configs_of(kind: str) -> tuple:
    return CONFIGS + OWN_CONFIGS.get(kind, ())


def _judge(case) -> str | None:
    import numpy as np
    import openvino as ov

    from irtools.oracle import core
    kind, opset, n, types, data = case
    try:
        core().read_model(model_xml(kind, opset, n, types, data), ov.Tensor(np.frombuffer(WEIGHTS, np.uint8).copy()))
    except Exception as e:  # noqa: BLE001  read_model's refusal
        return str(e)
    return None


def judge_all(cases: list) -> list[str | None]:
    """read_model's message on each case (None: accepted), in forked children."""
    def crashed(status: int) -> str:
        return f"CRASH read_model crashes on it (signal {os.WTERMSIG(status) if os.WIFSIGNALED(status) else status})"
    return forked(cases, _judge, crashed)


def message(text: str) -> str:
    """read_model's reason, as irreshape reports it: a failed check's own text without the source position, the
    message of an exception without the node's generated name."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith(("Exception from ", "While validating node "))]
    if not lines:
        return "OpenVINO rejects the layer"
    m = re.match(r"(Check '.*' failed) at \S+$", lines[0])
    if m and (len(lines) == 1 or lines[-1].startswith("Shape inference input shapes")):  # no reason but the check
        return m.group(1)
    if m:
        return lines[-1]
    return lines[-1].removeprefix("CRASH ")


def main() -> None:
    first = first_opsets()
    ops = [(k, v) for (k, v) in sorted(first) if k not in SKIP and registry.op(k, f"opset{first[(k, v)]}") is not None]
    cases = [(k, f"opset{first[(k, v)]}", n, types, data) for (k, v) in ops for data in data_of(k)
             for types in configs_of(k) for n in range(MAXN)]
    print(f"{len(ops)} op versions, {len(cases)} cases", file=sys.stderr)
    verdicts = {}
    if os.environ.get("ARITY_LOAD"):  # the verdicts of an earlier run (ARITY_DUMP): only the cases it lacks are run
        verdicts = pickle.loads(Path(os.environ["ARITY_LOAD"]).read_bytes())
        cases = [(k, o, n, t, d) for (k, o, n, t, d) in cases if (k, o, n, t, tuple(d.items())) not in verdicts]
    print(f"{len(cases)} cases to run", file=sys.stderr)
    verdicts.update({(k, o, n, t, tuple(d.items())): r for (k, o, n, t, d), r in zip(cases, judge_all(cases))})
    if os.environ.get("ARITY_DUMP"):  # every verdict, for a closer look
        Path(os.environ["ARITY_DUMP"]).write_bytes(pickle.dumps(verdicts))
    write(ops, first, verdicts)


def template(refused: dict[int, str]) -> dict[int, str]:
    """Each refused count's message as a template of the count (``{n}``) where the messages of two refused counts
    differ only by it ("... but got 2", "... but got 3"), so a count past those measured reads the same."""
    out = {}
    for n, text in refused.items():
        text = text.replace("{", "{{").replace("}", "}}")
        t = re.sub(rf"\b{n}\b", "{n}", text)
        if t != text and any(t.format(n=m) == other for m, other in refused.items() if m != n):
            text = t
        out[n] = text
    return out


def write(ops, first, verdicts) -> None:
    table = {}
    for (k, v) in ops:
        opset = f"opset{first[(k, v)]}"
        runs = [[verdicts[(k, opset, n, types, tuple(data.items()))] for n in range(MAXN)] for data in data_of(k)
                for types in configs_of(k)]
        accepted = tuple(n for n in range(MAXN) if any(run[n] is None for run in runs))
        if not accepted:
            print(f"{k}-{v}: no count accepted ({message(runs[0][1] or '')})", file=sys.stderr)
            continue
        # a refused count's message: the first that speaks of the count, from the configurations that accept the
        # most counts on (the others' may speak of their element types or shapes instead)
        ranked = sorted(runs, key=lambda run: -sum(m is None for m in run))
        refused = {}
        for n in range(MAXN):
            if n not in accepted:
                texts = [message(run[n]) for run in ranked]
                refused[n] = next((t for t in texts if COUNT.search(t)), texts[0])
        refused = template(refused)
        more = accepted[-1] == MAXN - 1
        runs_of: list[tuple[int, str, bool]] = []  # (first count, message, late) of each run of refused counts alike
        for n, text in sorted(refused.items()):
            if not runs_of or runs_of[-1][1] != text:
                runs_of.append((n, text, bool(LATE.search(text))))
        table[(k, v)] = (accepted, more, tuple(runs_of))
        print(f"{k}-{v}: {accepted}{'+' if more else ''}", file=sys.stderr)
    import openvino
    text = ['"""Generated by scripts/make_arity.py from openvino ' + openvino.__version__.split("-")[0]
            + ': do not edit.',
            "",
            "ARITY: (op type, op version) -> (the input counts ``read_model`` accepts, of 0.." + str(MAXN - 1) + "; whether it",
            "accepts every count past the last of them; (first count, message, late) of each run of refused counts: the",
            "message for every refused count from there, ``{n}`` the count, and whether read_model refuses it only after",
            "the node's shape inference (``clone_with_new_inputs``: the shape function's refusal comes first)).",
            '"""', "", "ARITY = " + pprint.pformat(table, width=118, compact=True), ""]
    OUT.write_text("\n".join(text))


if __name__ == "__main__":
    main()
