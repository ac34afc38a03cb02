"""OpenVINO as the reference for *scenarios*: a model's Parameters given new (partial) shapes.

Needs only ``openvino`` (2026.4.x). The ground truth issue 17 (``irreshape check --input-shape``) is measured
against:

* :func:`openvino_verdict` - ``Model.reshape`` in this process (it raises, it does not abort), plus the spec's
  Reshape volume rule that OpenVINO skips for ``-1`` and special-zero patterns. Returns a :class:`Verdict`.
* :func:`pinned_truth` - the values of one Parameter dim at which the verdict holds (used to label a model as
  "pins a dim": it holds at exactly one value, or only at the multiples of a number).
* :func:`runs` / :func:`runs_many` - compile the model as it is (dynamic) on CPU and infer with inputs of the
  given concrete shapes, **in a child process** (some failures abort). The CPU plugin checks what
  ``Model.reshape`` does not (the element count of every Reshape, a Squeeze whose axis is no longer 1).
* :func:`input_shapes`, :func:`classify` - small helpers.

Shape strings use OpenVINO's notation, with or without brackets: ``[?,64,8400]``, ``1..8,3,32,32``, ``[1..,?]``,
``[..8,5]``. Layer names are friendly names, which are the IR layer names after ``read_model``.

    python tests/irtools/scenarios.py MODEL.xml 'x=[2,64,8400]' ...   # the verdict of one scenario
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import openvino as ov
import openvino.opset15  # noqa: F401 - ov.opset15.result

__all__ = [
    "Verdict",
    "openvino_verdict",
    "pinned_truth",
    "classify",
    "runs",
    "runs_many",
    "input_shapes",
    "node_from_message",
    "RESHAPE_FAMILY",
]

#: the op types whose output dims a scenario re-infers from a shape pattern or axes
RESHAPE_FAMILY = ("Reshape", "Squeeze", "Unsqueeze")


@dataclass
class Verdict:
    """What OpenVINO says about one scenario.

    * ``ok`` - ``Model.reshape`` accepted the shapes.
    * ``message`` - OpenVINO's error text when it did not (``""`` when ok).
    * ``node`` - the friendly name of the layer OpenVINO's message names (``None`` when ok or unnamed).
    * ``shapes`` - ``{friendly name: [str(PartialShape) of each output]}`` for every node after the reshape (the first
      node of a repeated friendly name wins). When ``Model.reshape`` failed: the nodes that do not depend on the
      layer it names, as ``Model.reshape`` of the sub-model they make gives them (``{}`` if no layer is named).
    * ``volume_violations`` - the Reshape layers whose input and output are both static and whose element
      counts differ (the spec forbids it; OpenVINO does not check it for ``-1`` or special-zero patterns).
    * ``squeeze_skips`` - the Squeeze layers with constant axes where an axis is static and not 1 under the
      scenario, so OpenVINO copied it instead of removing it (the output rank differs from the model's own;
      the CPU plugin then refuses to run it).
    * ``types`` - ``{friendly name: op type name}`` for the nodes in ``shapes`` (``"Reshape"``, ``"Squeeze"``...).
    """

    ok: bool
    message: str = ""
    node: str | None = None
    shapes: dict[str, list[str]] = field(default_factory=dict)
    volume_violations: list[str] = field(default_factory=list)
    squeeze_skips: list[str] = field(default_factory=list)
    types: dict[str, str] = field(default_factory=dict)

    @property
    def holds(self) -> bool:
        """OpenVINO accepts the scenario and no Reshape breaks the volume rule."""
        return self.ok and not self.volume_violations

    @property
    def reason(self) -> str:
        """The last non-empty line of ``message`` (OpenVINO's human-readable reason)."""
        lines = [ln.strip() for ln in self.message.splitlines() if ln.strip()]
        return lines[-1] if lines else ""


# --------------------------------------------------------------------------------------------------
# reading

@functools.lru_cache(maxsize=1)
def _core() -> ov.Core:
    return ov.Core()


@functools.lru_cache(maxsize=64)
def _pristine(xml_path: str, mtime: float) -> ov.Model:
    return _core().read_model(xml_path)


def _model(xml_path: str | os.PathLike) -> ov.Model:
    """A fresh copy of the model read from ``xml_path`` (read once per file, cloned per call)."""
    path = os.path.abspath(os.fspath(xml_path))
    return _pristine(path, os.path.getmtime(path)).clone()


def _spec(shape: str | Sequence[int] | ov.PartialShape) -> ov.PartialShape:
    if isinstance(shape, ov.PartialShape):
        return shape
    if isinstance(shape, str):
        text = shape.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        return ov.PartialShape(text)
    return ov.PartialShape([int(d) for d in shape])


def input_shapes(xml_path: str | os.PathLike) -> dict[str, str]:
    """``{input name: str(PartialShape)}`` of the model's Parameters, in order (the name is ``get_any_name()``)."""
    return {p.get_any_name(): str(p.get_partial_shape()) for p in _model(xml_path).inputs}


def _normalize(model: ov.Model, shapes: Mapping[str, object]) -> dict[str, ov.PartialShape]:
    names = {n for p in model.inputs for n in p.get_names()}
    unknown = sorted(set(shapes) - names)
    if unknown:
        raise KeyError(f"no input named {unknown}; the inputs are {sorted(names)}")
    return {name: _spec(spec) for name, spec in shapes.items()}


# --------------------------------------------------------------------------------------------------
# the verdict

_NAMED = [
    # Model.reshape / validate_nodes_and_infer_types: "While validating node 'opset1::Reshape NAME (...) -> (...)'
    # with friendly_name 'NAME':"
    re.compile(r"with friendly_name '(.*?)':\s*$", re.M),
    re.compile(r"While validating node '[\w:]+ (.*?) \(", re.M),
    # the CPU plugin at run time: "[CPU] Reshape node with name 'NAME' Check ..."
    re.compile(r"\] \w+ node with name '(.*?)'", re.M),
]


def node_from_message(message: str) -> str | None:
    """The friendly name of the layer an OpenVINO error message names, or ``None``.

    ``Model.reshape`` says ``While validating node 'opset1::Reshape aten::view/Reshape (opset1::Parameter
    x[0]:f32[2,64,50], ...) -> (f32[1,4,16,50])' with friendly_name 'aten::view/Reshape':`` and the reason on the
    last line; the ``with friendly_name '...'`` part is taken (first occurrence), else the name after the
    op type in ``While validating node '...'``, else the CPU plugin's ``[CPU] Reshape node with name '...'``.
    """
    for pattern in _NAMED:
        m = pattern.search(message)
        if m:
            return m.group(1)
    return None


def _outputs(node: ov.Node) -> list[str]:
    return [str(node.get_output_partial_shape(i)) for i in range(node.get_output_size())]


def _volume_violation(node: ov.Node) -> bool:
    if node.get_type_name() != "Reshape":
        return False
    src, dst = node.get_input_partial_shape(0), node.get_output_partial_shape(0)
    if not (src.is_static and dst.is_static):
        return False
    return math.prod(src.to_shape()) != math.prod(dst.to_shape())


def _squeeze_skip(node: ov.Node) -> bool:
    if node.get_type_name() != "Squeeze" or node.get_input_size() < 2:
        return False
    axes_node = node.input_value(1).get_node()
    data = node.get_input_partial_shape(0)
    if axes_node.get_type_name() != "Constant" or data.rank.is_dynamic:
        return False
    rank = data.rank.get_length()
    for axis in np.asarray(axes_node.get_data()).reshape(-1).tolist():
        dim = data[int(axis) % rank] if -rank <= axis < rank else None
        if dim is not None and dim.is_static and dim.get_length() != 1:
            return True
    return False


def _collect(ops: Iterable[ov.Node]) -> dict:
    shapes: dict[str, list[str]] = {}
    types: dict[str, str] = {}
    volume, skips = [], []
    for node in ops:
        name = node.get_friendly_name()
        shapes.setdefault(name, _outputs(node))
        types.setdefault(name, node.get_type_name())
        if _volume_violation(node):
            volume.append(name)
        if _squeeze_skip(node):
            skips.append(name)
    return {"shapes": shapes, "types": types, "volume_violations": volume, "squeeze_skips": skips}


def _before(xml_path, wanted: Mapping[str, object], failing: str | None) -> list[ov.Node]:
    """The nodes of the model that do not depend on the layer named ``failing``, after ``Model.reshape`` of the
    sub-model they make (a Result on each of their outputs); ``[]`` when that is not possible."""
    if failing is None:
        return []
    model = _model(xml_path)
    ordered = model.get_ordered_ops()
    cut: set[str] = set()
    for node in ordered:
        if node.get_friendly_name() == failing or any(
                v.get_node().get_name() in cut for v in node.input_values()):
            cut.add(node.get_name())
    if not cut:
        return []
    kept = [n for n in ordered if n.get_name() not in cut and n.get_type_name() not in ("Result", "Assign")]
    results = [ov.opset15.result(out) for n in kept if n.get_type_name() != "Constant" for out in n.outputs()]
    if not results:
        return []
    sub = ov.Model(results, model.get_parameters(), "before")
    try:
        sub.reshape(_normalize(sub, wanted))
    except Exception:  # noqa: BLE001 - nothing reliable to report then
        return []
    return kept


def openvino_verdict(xml_path: str | os.PathLike, shapes: Mapping[str, str | Sequence[int]]) -> Verdict:
    """``Model.reshape({name: PartialShape(spec)})`` on a fresh copy of the model, in this process.

    ``shapes`` maps input names (any of a Parameter's tensor names) to a shape spec (``"[2,64,8400]"``,
    ``"1..8,?,32"``, ``[2, 7]``); inputs left out keep their shape. Raises ``KeyError`` for an unknown name.
    """
    model = _model(xml_path)
    wanted = _normalize(model, shapes)
    try:
        model.reshape(wanted)
    except Exception as exc:  # noqa: BLE001 - OpenVINO's refusal is the result
        message = str(exc)
        node = node_from_message(message)
        return Verdict(False, message, node, **_collect(_before(xml_path, shapes, node)))
    return Verdict(True, "", None, **_collect(model.get_ordered_ops()))


def pinned_truth(xml_path: str | os.PathLike, name: str, dim_index: int, values: Iterable[int],
                 base: Mapping[str, str | Sequence[int]] | None = None) -> list[int]:
    """The values among ``values`` at which the scenario "input ``name``'s dim ``dim_index`` = v" holds
    (``Model.reshape`` accepts it and the volume rule holds).

    The other dims come from ``base`` (shape specs of any inputs; default: the model's own partial shapes). Give
    a ``base`` with the other dims static (e.g. the traced shapes) to ask "which values run" rather than "which
    values OpenVINO cannot yet rule out".
    """
    start = dict(input_shapes(xml_path))
    start.update({k: str(_spec(v)) for k, v in (base or {}).items()})
    dims = list(_spec(start[name]))
    accepted = []
    for value in values:
        dims[dim_index] = ov.Dimension(int(value))
        trial = dict(start)
        trial[name] = ov.PartialShape(dims)
        if openvino_verdict(xml_path, trial).holds:
            accepted.append(int(value))
    return accepted


def classify(values: Sequence[int], accepted: Sequence[int]) -> str:
    """A label for :func:`pinned_truth`'s answer over ``values``: ``"free"`` (all), ``"never"`` (none),
    ``"one:V"`` (exactly one value), ``"multiples:K"`` (exactly the multiples of K > 1 among ``values``),
    ``"range:LO..HI"`` (a run of consecutive ``values``), or ``"some:V1,V2,..."``."""
    values, accepted = sorted(set(values)), sorted(set(accepted))
    if accepted == values:
        return "free"
    if not accepted:
        return "never"
    if len(accepted) == 1:
        return f"one:{accepted[0]}"
    k = functools.reduce(math.gcd, accepted)
    if k > 1 and accepted == [v for v in values if v % k == 0]:
        return f"multiples:{k}"
    lo = values.index(accepted[0])
    if values[lo:lo + len(accepted)] == accepted:
        return f"range:{accepted[0]}..{accepted[-1]}"
    return "some:" + ",".join(map(str, accepted))


# --------------------------------------------------------------------------------------------------
# running (in a child process)

def _concrete(shape: str | Sequence[int]) -> list[int]:
    ps = _spec(shape)
    if not ps.is_static:
        raise ValueError(f"not a concrete shape: {shape!r}")
    return [int(d) for d in ps.to_shape()]


def _child(xml_path: str, scenarios: list[dict[str, list[int]]]) -> None:
    """Compile once, infer once per scenario; one JSON line per scenario on stdout, flushed at once."""
    core = ov.Core()
    try:
        compiled = core.compile_model(core.read_model(xml_path), "CPU")
    except Exception as exc:  # noqa: BLE001
        for _ in scenarios:
            print(json.dumps({"ok": False, "message": f"compile_model: {exc}"}), flush=True)
        return
    rng = np.random.default_rng(0)
    for shapes in scenarios:
        try:
            request = compiled.create_infer_request()
            feed = {}
            for port in compiled.inputs:
                dims = next((shapes[n] for n in port.get_names() if n in shapes), None)
                if dims is None:
                    raise KeyError(f"no concrete shape for input {port.get_any_name()!r}")
                dtype = port.get_element_type().to_dtype()
                if np.issubdtype(dtype, np.floating):
                    data = rng.standard_normal(dims).astype(dtype)
                else:  # ids, masks, positions: ones are valid for every one of them
                    data = np.ones(dims, dtype=dtype)
                feed[port] = data
            outs = request.infer(feed)
            got = [list(v.shape) for v in outs.values()]
            print(json.dumps({"ok": True, "message": f"outputs {got}"}), flush=True)
        except Exception as exc:  # noqa: BLE001
            print(json.dumps({"ok": False, "message": str(exc)}), flush=True)


def runs_many(xml_path: str | os.PathLike, scenarios: Sequence[Mapping[str, str | Sequence[int]]],
              timeout: float = 300.0) -> list[tuple[bool, str]]:
    """:func:`runs` for several scenarios, compiling once per child process. A scenario whose inference
    aborts the child is reported as failed (with the exit status and the end of stderr) and the rest go on in
    a new child."""
    todo = [{k: _concrete(v) for k, v in s.items()} for s in scenarios]
    path = os.path.abspath(os.fspath(xml_path))
    results: list[tuple[bool, str]] = []
    while len(results) < len(todo):
        rest = todo[len(results):]
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--run", path, json.dumps(rest)],
                              capture_output=True, text=True, timeout=timeout)
        lines = [json.loads(ln) for ln in proc.stdout.splitlines() if ln.startswith("{")]
        results += [(bool(d["ok"]), d["message"]) for d in lines[:len(rest)]]
        if len(lines) < len(rest):
            tail = " | ".join(proc.stderr.strip().splitlines()[-5:])
            results.append((False, f"child exited with status {proc.returncode}: {tail}"))
    return results


def runs(xml_path: str | os.PathLike, concrete_shapes: Mapping[str, str | Sequence[int]]) -> tuple[bool, str]:
    """Compile the model as saved (dynamic) on CPU and infer once with inputs of ``concrete_shapes`` (float
    inputs random, integer inputs ones), in a child process. ``(True, "outputs [[...]]")`` or ``(False,
    OpenVINO's message / how the child died)``."""
    return runs_many(xml_path, [concrete_shapes])[0]


def _main(argv: list[str]) -> int:
    if argv[:1] == ["--run"]:
        _child(argv[1], json.loads(argv[2]))
        return 0
    if not argv:
        print(__doc__)
        return 2
    xml, pairs = argv[0], dict(a.split("=", 1) for a in argv[1:])
    v = openvino_verdict(xml, pairs)
    print(json.dumps({"ok": v.ok, "node": v.node, "reason": v.reason, "volume_violations": v.volume_violations,
                      "squeeze_skips": v.squeeze_skips,
                      "reshape_family": {n: s for n, s in v.shapes.items() if v.types[n] in RESHAPE_FAMILY}},
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
