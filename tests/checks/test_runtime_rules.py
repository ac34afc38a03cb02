"""IR401–IR404 against OpenVINO's CPU plugin: generated models that ``read_model`` accepts, each checked by irreshape
and compiled and run on the CPU plugin of the installed openvino in a child process (with concrete inputs).

A rule fires where the plugin fails, on the layer the plugin names (or, where the plugin fused the layer with a
downstream element-wise node, on the layer whose name the failure carries under the fused node's), and never on a
near miss that compiles and runs. The cases that cannot abort run in one child; the heap corruption of IR104 has a
child of its own."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o15 = pytest.importorskip("openvino.opset15")
np = pytest.importorskip("numpy")
from irreshape.checks import check_file

# The child: read_model, compile_model on CPU, infer every feed; one JSON line per case.
RUNNER = r"""
import json, sys
import numpy as np
import openvino as ov

core = ov.Core()
for case in json.load(open(sys.argv[1])):
    out = {"name": case["name"], "runs": []}
    try:
        compiled = core.compile_model(core.read_model(case["xml"]), "CPU")
    except Exception as e:
        out["compile"] = str(e)
    else:
        request = compiled.create_infer_request()
        for feed in case["feeds"]:
            data = np.load(feed)
            try:
                result = request.infer([data[f"arr_{i}"] for i in range(len(data.files))])
                out["runs"].append({"shapes": [list(v.shape) for v in result.values()]})
            except Exception as e:
                out["runs"].append({"error": str(e)})
    print(json.dumps(out), flush=True)
"""


def param(shape, name="x", et=np.float32):
    return o15.parameter(ov.PartialShape(shape), et, name=name)


def const(values):
    return o15.constant(np.array(values, dtype=np.int64))


def named(node, name: str):
    node.set_friendly_name(name)
    return node


def f32(*shape):
    return np.ones(shape, dtype=np.float32)


def i64(*values):
    return np.array(values, dtype=np.int64)


@dataclass
class Case:
    """A model, the IR4xx codes irreshape gives it and the layer it flags, and what the CPU plugin does:
    ``fails`` "compile", "infer" (on some feed), "infer-all" (on every feed), or None (it compiles and every feed
    runs); ``named``: the node its failure names (None: none)."""

    build: Callable[[], tuple[list, list, list[list]]]  # (outputs, parameters, feeds)
    codes: set[str]
    fails: str | None
    flagged: str | None = None
    named: str | None = None


def dynamic_length_pattern():
    x, s = param([-1]), param([-1], "s", np.int64)
    return [o15.reshape(x, s, False, name="RS")], [x, s], [[f32(6), i64(2, 3)]]


def static_length_pattern():  # a pattern from a Parameter of static length: a static rank
    x, s = param([-1]), param([2], "s", np.int64)
    return [o15.reshape(x, s, False, name="RS")], [x, s], [[f32(6), i64(2, 3)]]


def dynamic_rank_upstream():  # the pattern's length is dynamic because x's rank is: the plugin names x
    x, y = param(ov.PartialShape.dynamic()), param([-1], "y")
    return [o15.reshape(y, o15.shape_of(x), False, name="RS")], [x, y], [[f32(2, 3), f32(6)]]


def dynamic_rank_input():  # the plugin names the Parameter, not the Reshape
    x = param(ov.PartialShape.dynamic())
    return [o15.reshape(x, const([-1]), False, name="RS")], [x], [[f32(2, 3)]]


def unsqueeze_unknown_axes():
    x, a = param([2, 3]), param([1], "a", np.int64)
    return [named(o15.unsqueeze(x, a), "UQ")], [x, a], [[f32(2, 3), i64(0)]]


def squeeze_without_axes():
    x = param([-1, 3])
    return [o15.squeeze(x, name="SQ")], [x], [[f32(1, 3)]]


def squeeze0_two_unknown_axes():
    x, a = param([1, 3, 1]), param([2], "a", np.int64)
    return [o1.squeeze(x, a, name="SQ")], [x, a], [[f32(1, 3, 1), i64(0, 2)]]


def squeeze15_one_unknown_axis():  # dynamic rank to read_model, a static one as the plugin's Squeeze-0
    x, a = param([1, 3]), param([1], "a", np.int64)
    return [o15.squeeze(x, a, name="SQ")], [x, a], [[f32(1, 3), i64(0)]]


def squeeze0_one_unknown_axis():
    x, a = param([1, 3]), param([1], "a", np.int64)
    return [o1.squeeze(x, a, name="SQ")], [x, a], [[f32(1, 3), i64(0)]]


def skip_on_dynamic(shape, axis):
    def build():
        x = param(shape)
        return [o15.squeeze(x, const([axis]), True, name="SQ")], [x], [[f32(*[1 if d == -1 else 2 for d in shape])]]
    return build


def skip_on_static():
    x = param([1, 3])
    return [o15.squeeze(x, const([0]), True, name="SQ")], [x], [[f32(1, 3)]]


def no_skip_on_dynamic():
    x = param([1, -1])
    return [o15.squeeze(x, const([0]), False, name="SQ")], [x], [[f32(1, 4)]]


def squeeze_dynamic_dim(then=None, dim=-1, feeds=((1, 3), (2, 3))):
    def build():
        x = param([dim, 3])
        y = o1.squeeze(x, const([0]), name="SQ")
        return [then(y) if then else y], [x], [[f32(*f)] for f in feeds]
    return build


def squeeze_dynamic_dim_shapeof_only():  # the plugin folds the ShapeOf and drops the Squeeze
    x = param([-1, 3])
    y = o1.squeeze(x, const([0]), name="SQ")
    return [o15.shape_of(y), o15.relu(x)], [x], [[f32(2, 3)]]


def squeeze_dynamic_dim_computed_reshape():  # merged into the Reshape after it, whose pattern is computed
    x, z = param([-1, 3]), param([-1, -1], "z")
    y = o1.squeeze(x, const([0]), name="SQ")
    return [o15.reshape(y, o15.shape_of(z), False, name="RS2")], [x, z], [[f32(2, 3), f32(2, 3)]]


def unsqueeze_colliding_axes():  # {3,-1} on rank 2: merged by core, run by the plugin
    x = param([2, 3])
    return [named(o15.unsqueeze(x, const([3, -1])), "UQ")], [x], [[f32(2, 3)]]


def reshape(shape, pattern, special_zero, feeds, then=None):
    def build():
        x = param(shape)
        y = o15.reshape(x, const(pattern), special_zero, name="RS")
        return [then(y) if then else y], [x], [[f32(*f)] for f in feeds]
    return build


def relu(node):
    return o15.relu(node, name="RELU")


CASES = {
    # IR401: an output of dynamic rank fails compile_model, naming the layer
    "reshape, pattern of dynamic length": Case(dynamic_length_pattern, {"IR401"}, "compile", "RS", "RS"),
    "reshape, pattern of static length from a Parameter": Case(static_length_pattern, set(), None),
    # the plugin names the Parameter of dynamic rank, not the Reshape: IR405 (the compile-stage table), on it
    "reshape, pattern the ShapeOf of a dynamic rank": Case(dynamic_rank_upstream, {"IR405"}, "compile", "x", "x"),
    "reshape of a dynamic-rank input": Case(dynamic_rank_input, {"IR405"}, "compile", "x", "x"),
    "unsqueeze, unknown axes": Case(unsqueeze_unknown_axes, {"IR401"}, "compile", "UQ", "UQ"),
    "squeeze, no axes on a dynamic dim": Case(squeeze_without_axes, {"IR401"}, "compile", "SQ", "SQ"),
    "squeeze-0, two unknown axes": Case(squeeze0_two_unknown_axes, {"IR401"}, "compile", "SQ", "SQ"),
    "squeeze-15, one unknown axis": Case(squeeze15_one_unknown_axis, set(), None),
    "squeeze-0, one unknown axis": Case(squeeze0_one_unknown_axis, set(), None),
    # IR402: Squeeze-15 with allow_axis_skip on a dynamic input fails compile_model, naming nothing
    "squeeze-15 skip, a dynamic dim elsewhere": Case(skip_on_dynamic([1, -1], 0), {"IR402"}, "compile", "SQ"),
    "squeeze-15 skip, an interval that cannot be 1": Case(skip_on_dynamic([ov.Dimension(2, 4), 3], 0), {"IR402"},
                                                          "compile", "SQ"),
    "squeeze-15 skip, a dynamic squeezed dim": Case(skip_on_dynamic([-1, 3], 0), {"IR401"}, "compile", "SQ", "SQ"),
    "squeeze-15 skip, a static input": Case(skip_on_static, set(), None),
    "squeeze-15 without skip, a dynamic dim elsewhere": Case(no_skip_on_dynamic, set(), None),
    # IR403: a squeezed dynamic dim other than 1 fails at inference
    "squeeze, a dynamic dim": Case(squeeze_dynamic_dim(), {"IR403"}, "infer", "SQ", "SQ"),
    "squeeze, a dynamic dim, fused with a Relu": Case(squeeze_dynamic_dim(relu), {"IR403"}, "infer", "SQ", "RELU"),
    "squeeze, a 0..1 dim": Case(squeeze_dynamic_dim(dim=ov.Dimension(0, 1), feeds=((1, 3), (0, 3))), {"IR403"},
                                "infer", "SQ", "SQ"),
    "squeeze, a 2..4 dim (kept)": Case(squeeze_dynamic_dim(dim=ov.Dimension(2, 4), feeds=((2, 3), (4, 3))), set(),
                                       None),
    "squeeze, a dynamic dim read by ShapeOf only": Case(squeeze_dynamic_dim_shapeof_only, set(), None),
    "squeeze, a dynamic dim before a computed Reshape": Case(squeeze_dynamic_dim_computed_reshape, set(), None),
    "unsqueeze, axes colliding after normalisation": Case(unsqueeze_colliding_axes, set(), None),
    # IR404: the volumes beside the copied dims differ, every non-empty input fails at inference
    "reshape, special zero, other volume": Case(reshape([-1, 3, 4], [0, 5], True, [(2, 3, 4), (0, 3, 4)]),
                                                {"IR404"}, "infer", "RS", "RS"),
    "reshape, special zero, other volume, fused": Case(reshape([-1, 3, 4], [0, 5], True, [(2, 3, 4), (0, 3, 4)],
                                                               relu), {"IR404"}, "infer", "RS", "RELU"),
    "reshape, special zero, same volume": Case(reshape([-1, 3, 4], [0, 12], True, [(2, 3, 4), (5, 3, 4)], relu),
                                               set(), None),
    "reshape, static pattern on a dynamic dim that fits": Case(reshape([-1, 4], [8], False, [(2, 4)]), set(), None),
    # issue 29: dims not copied that fit at no value fail every input; one that fits at one value is IR503's
    "reshape, a dynamic dim that fits at no value": Case(reshape([-1, 8], [4], False, [(1, 8), (2, 8)]), {"IR404"},
                                                          "infer-all", "RS", "RS"),
    "reshape, special zero, dims not copied fit at no value": Case(
        reshape([3, -1, 4], [0, 2], True, [(3, 1, 4), (3, 2, 4)], relu), {"IR404"}, "infer-all", "RS", "RELU"),
    "reshape, special zero, a dynamic dim that fits at one value": Case(
        reshape([2, -1, 4], [0, 7, 4], True, [(2, 7, 4), (2, 5, 4)]), set(), "infer", None, "RS"),
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, tuple[dict[str, set[str]], dict]]:
    """Per case: ({IR4xx code: the names of the layers it is on}, what the CPU plugin did)."""
    root = tmp_path_factory.mktemp("cpu")
    batch, found = [], {}
    for i, (name, case) in enumerate(CASES.items()):
        outputs, params, feeds = case.build()
        xml = root / f"m{i}.xml"
        ov.save_model(ov.Model([o15.result(n) for n in outputs], params, f"m{i}"), str(xml), compress_to_fp16=False)
        npz = []
        for j, feed in enumerate(feeds):
            np.savez(root / f"m{i}_{j}.npz", *feed)
            npz.append(str(root / f"m{i}_{j}.npz"))
        batch.append({"name": name, "xml": str(xml), "feeds": npz})
        result = check_file(str(xml))
        assert result is not None
        codes: dict[str, set[str]] = {}
        for f in result.findings:
            if f.code.startswith("IR4"):
                codes.setdefault(f.code, set()).add(f.layer.name)
        found[name] = codes
    plugin = {line["name"]: line for line in map(json.loads, _child(root, batch).splitlines())}
    return {name: (found[name], plugin[name]) for name in CASES}


def _child(root: Path, batch: list[dict]) -> str:
    proc = _run(root, batch)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _run(root: Path, batch: list[dict], timeout: float = 300) -> subprocess.CompletedProcess:
    """RUNNER on ``batch`` (``name``, ``xml``, ``feeds``: .npz paths) in a child process."""
    (root / "batch.json").write_text(json.dumps(batch))
    return subprocess.run([sys.executable, "-c", RUNNER, str(root / "batch.json")], capture_output=True, text=True,
                          timeout=timeout)


def _named(message: str) -> str | None:
    """The node a CPU plugin failure names: "Operation name: X" at compile time, "node with name 'X'" at inference."""
    m = re.search(r"Operation name: (\S+)", message) or re.search(r"node with name '([^']+)'", message)
    return m.group(1) if m else None


@pytest.mark.parametrize("name", list(CASES))
def test_the_rule_fires_where_the_cpu_plugin_fails(outcomes, name):
    case = CASES[name]
    codes, plugin = outcomes[name]
    assert set(codes) == case.codes, codes
    errors = [run["error"] for run in plugin["runs"] if "error" in run]
    if case.fails is None:
        assert "compile" not in plugin and not errors, plugin
        return
    if case.fails == "compile":
        assert "compile" in plugin, plugin
        message = plugin["compile"]
    elif case.fails == "infer-all":
        assert "compile" not in plugin and len(errors) == len(plugin["runs"]), plugin  # no input runs
        message = errors[0]
    else:
        assert "compile" not in plugin and errors and len(errors) < len(plugin["runs"]), plugin  # runs while it fits
        message = errors[0]
    assert _named(message) == case.named, message
    if case.codes:
        assert set().union(*codes.values()) == {case.flagged}


def test_a_dynamic_rank_is_written_without_dims(tmp_path):
    """OpenVINO writes a port of dynamic rank without `<dim>`: the Reshape's input port agrees with the Parameter."""
    outputs, params, _ = dynamic_rank_input()
    xml = tmp_path / "m.xml"
    ov.save_model(ov.Model([o15.result(n) for n in outputs], params, "m"), str(xml), compress_to_fp16=False)
    assert '<port id="0" precision="FP32" />' in xml.read_text().split('name="RS"')[1]  # no <dim> in it
    # nothing of the dims; the CPU plugin refuses the Parameter of dynamic rank (IR405, on it)
    assert [(f.code, f.layer.name) for f in check_file(str(xml)).findings] == [("IR405", "x")]


def test_a_squeezed_dynamic_dim_other_than_1_is_silently_folded(tmp_path):
    """Where the Squeeze's output keeps a dynamic dim, the plugin runs it as a Reshape with a -1 there: an input of
    [2,5,3] comes out [10,3]. IR403 warns all the same."""
    x = param([-1, -1, 3])
    y = relu(o1.squeeze(x, const([0]), name="SQ"))
    xml = tmp_path / "m.xml"
    ov.save_model(ov.Model([y], [x], "m"), str(xml), compress_to_fp16=False)
    np.savez(tmp_path / "f.npz", f32(2, 5, 3))
    [plugin] = map(json.loads, _child(tmp_path, [{"name": "m", "xml": str(xml), "feeds": [str(tmp_path / "f.npz")]}])
                   .splitlines())
    assert plugin["runs"] == [{"shapes": [[10, 3]]}]
    # and the Squeeze pins the dim to 1 (IR503, issue 17): both warnings, each its own rule
    assert [(f.code, f.layer.name) for f in check_file(str(xml)).findings] == [("IR403", "SQ"), ("IR503", "SQ")]


def test_a_static_volume_change_corrupts_the_heap(tmp_path):
    """IR104 (an error), kept: `[2,3,4]` by `[0,5]` compiles and runs, then aborts (glibc: "free(): invalid next
    size"), hangs, or gives [2,5] out of 24 elements."""
    x = param([2, 3, 4])
    y = relu(o15.reshape(x, const([0, 5]), True, name="RS"))
    xml = tmp_path / "m.xml"
    ov.save_model(ov.Model([y], [x], "m"), str(xml), compress_to_fp16=False)
    np.savez(tmp_path / "f.npz", f32(2, 3, 4))
    assert {f.code for f in check_file(str(xml)).findings} == {"IR104"}
    try:
        proc = _run(tmp_path, [{"name": "m", "xml": str(xml), "feeds": [str(tmp_path / "f.npz")]}], timeout=20)
    except subprocess.TimeoutExpired:
        return  # the corrupted heap deadlocks it
    assert proc.returncode != 0 or json.loads(proc.stdout)["runs"] == [{"shapes": [[2, 5]]}], proc.stderr[-2000:]


def test_a_dim_pinned_behind_a_special_zero_is_ir503(tmp_path):
    """Issue 29: `[2,?,4]` by `[0,7,4]` (special_zero=true) reshapes at any dim 1 (OpenVINO checks no volume behind a
    special zero) and runs on the CPU plugin only where it is 7 (the case above): the pin is IR503's, with the value."""
    outputs, params, _ = reshape([2, -1, 4], [0, 7, 4], True, [])()
    xml = tmp_path / "m.xml"
    ov.save_model(ov.Model([o15.result(n) for n in outputs], params, "m"), str(xml), compress_to_fp16=False)
    found = [f for f in check_file(str(xml)).findings if f.code == "IR503"]
    assert [f.layer.name for f in found] == ["RS"] and "only at 7 " in found[0].message


def _dim(x, i):
    return o15.gather(o15.shape_of(x), const([i]), const(0))


# issue 29 §5: computed patterns behind a special zero that the CPU plugin runs at some sizes only, the pins IR503's:
# a quotient of a dim beside a -1 (d2 // 3 = 5 at 16 leaves the -1 no integer value), and a copied dim beside a -1
# and the other dim, which no size makes hold
COMPUTED = {
    "quotient beside a -1": ([8, 4, -1], lambda x: [const([2, -1]), o15.divide(_dim(x, 2), const([3]))],
                             [(8, 4, 6), (8, 4, 16)], [True, False]),
    "copied dim beside a -1 and the other dim": ([-1, -1], lambda x: [const([0, -1, 7]), _dim(x, 1)],
                                                 [(2, 7), (3, 2), (7, 1)], [False, False, False]),
}


@pytest.mark.parametrize("name", list(COMPUTED))
def test_a_computed_pattern_the_cpu_plugin_runs_at_some_sizes_is_ir503(tmp_path, name):
    shape, pieces, feeds, runs = COMPUTED[name]
    x = param(shape)
    y = relu(o15.reshape(x, o15.concat(pieces(x), 0), True, name="RS"))
    xml = tmp_path / "m.xml"
    ov.save_model(ov.Model([y], [x], "m"), str(xml), compress_to_fp16=False)
    for i, feed in enumerate(feeds):
        np.savez(tmp_path / f"f{i}.npz", f32(*feed))
    [plugin] = map(json.loads, _child(tmp_path, [{"name": "m", "xml": str(xml), "feeds": [
        str(tmp_path / f"f{i}.npz") for i in range(len(feeds))]}]).splitlines())
    # a computed pattern runs unchecked: an output of another element count fails too
    runs_of = plugin["runs"] if "compile" not in plugin else [{"error": plugin["compile"]}] * len(feeds)
    ran = ["error" not in run and np.prod(run["shapes"][0]) == np.prod(feed) for run, feed in zip(runs_of, feeds)]
    assert ran == runs, plugin
    assert [(f.code, f.layer.name) for f in check_file(str(xml)).findings if f.code == "IR503"] == [("IR503", "RS")]


# -- generated cases (tests/irtools/pins.py; scripts/pins.py runs hundreds) ---------------------------------------

GENERATED = 40
SEED = 2029


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """Seeded generated Reshapes on dynamic inputs, each compiled once on the CPU plugin (in a child process) and
    inferred at several sizes of each dynamic dim, and judged by OpenVINO's shape inference over a grid."""
    from irtools import pins

    return pins.cases(GENERATED, SEED, tmp_path_factory.mktemp("pins"))


def test_every_generated_cpu_failure_is_warned(generated):
    failing = [j for j in generated if j.truth.cpu_fails]
    assert len(failing) >= 10  # the subset exercises the rules
    assert [str(j.spec) for j in failing if not j.warned] == []


def test_no_cpu_or_pin_warning_on_a_generated_control(generated):
    controls = [j for j in generated if j.truth.always and j.truth.cpu and all(j.truth.cpu.values())]
    assert len(controls) >= 5
    assert [(str(j.spec), j.unfair) for j in controls if j.unfair] == []
