"""The op registry: lookup by type and opset version, as OpenVINO's IR reader resolves an op in an opset."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from irreshape.core.dims import Dim
from irreshape.shapes import registry


def test_lookup_is_case_insensitive_and_by_version():
    assert registry.shape_fn("relu", "opset1") is registry.shape_fn("ReLU", "opset1") is not None
    assert registry.shape_fn("Interpolate", "opset4") is not registry.shape_fn("Interpolate", "opset11")
    assert registry.op("NoSuchOp", "extension") is None  # not an opset: an extension's op, not judged


def test_an_opset_resolves_to_the_op_version_it_holds():
    # ReduceL1 is ReduceL1-4 in opset4 and every later opset: one unit
    assert registry.op("ReduceL1", "opset5") is registry.op("ReduceL1", "opset4") is not None
    assert registry.op("ReduceL1", "opset5").version == 4
    assert registry.op("MaxPool", "opset16").version == 14 and registry.op("MaxPool", "opset7").version == 1
    assert registry.op("Interpolate", "opset13") is registry.op("Interpolate", "opset11")
    assert registry.op("SoftMax", "opset8") is not registry.op("SoftMax", "opset7")
    assert registry.op("MVN", "opset1").version == 0  # read from opset2, as OpenVINO's reader does


@pytest.mark.parametrize("kind, version, message", [
    ("ReduceL1", "opset3", "Opset opset3 doesn't contain the operation with type: ReduceL1"),
    ("Gelu", "opset1", "Opset opset1 doesn't contain the operation with type: Gelu"),
    ("NoSuchOp", "opset8", "Opset opset8 doesn't contain the operation with type: NoSuchOp"),
    ("ReLU", "opset99", "Cannot create ReLU layer from unsupported opset: opset99"),
])
def test_a_pair_openvino_does_not_know_is_refused(kind, version, message):
    with pytest.raises(registry.ShapeError, match=message):
        registry.shape_fn(kind, version)(registry.Node(kind, version, {}, [[Dim.of(2)]]))


def test_registering_twice_is_refused():
    assert registry.shape_fn("ReLU") is not None  # the families are loaded
    with pytest.raises(RuntimeError, match="twice"):
        registry.shape_infer("ReLU")(lambda node: [node.input(0)])


def test_node_reads_values_as_openvino_does():
    from irreshape.shapes.values import const, shape_of

    node = registry.Node("X", "opset1", {"axes": "1, 2", "flag": "True"}, [None, [Dim.of(3)], [Dim.of(2)]], 1,
                         [None, const("i64", (3,), [-1, -2, 4]), shape_of([(2, 8), (0, (1 << 63) - 1)], "i64")])
    assert node.ints("axes") == [1, 2] and node.flag("flag") and node.const(0) is None
    assert node.const(1) == [-1, -2, 4]
    assert [str(d) for d in node.as_shape(1)] == ["?", "0", "4"]  # Dimension(v): -1 is ?, lower is 0
    assert [str(d) for d in node.as_shape(2)] == ["2..8", "?"]
    undecided = registry.Node("X", "opset1", {}, [None], 1, [registry.Undecided("no value")])
    with pytest.raises(registry.Undecided):
        undecided.value(0)


def test_a_float_value_that_is_no_number_read_as_integers_is_undecided():
    """The fuzz's IR900 (pt_static_mha, an i64 Const retyped f64: its bytes a NaN): a VariadicSplit reading such
    split lengths cannot tell what OpenVINO reads (read_model refuses the file for the Gather it also feeds)."""
    from irreshape.shapes.values import const

    values = [const("i64", [], [0]), const("f64", [2], [float("nan"), 1.0])]
    node = registry.Node("VariadicSplit", "opset1", {}, [[Dim.of(3)], [], [Dim.of(2)]], 2, lambda i: values[i - 1])
    with pytest.raises(registry.Undecided):
        registry.shape_fn("VariadicSplit", "opset1")(node)


ROOT = Path(__file__).resolve().parents[2]


def test_the_table_of_families_is_what_the_families_register():
    """src/irreshape/shapes/families.py (which families to import for an op type) is the one the script writes
    from the families themselves: a function registered in a family the table does not name would never be found."""
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_op_families.py"), "--check"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_a_model_loads_only_the_families_of_its_layers():
    """Checking a model imports the op families of its layers' types, not the twelve (start-up on a small file)."""
    code = ("import sys\nfrom irreshape.cli import main\n"
            "try:\n    main(['check', '--isolated', sys.argv[1]])\n"
            "finally:\n    print(sorted(m for m in sys.modules if m.startswith('irreshape.shapes.ops.')), file=sys.stderr)")
    small = ROOT / "examples" / "ir" / "ok_flatten_static.xml"  # Parameter, Const, Reshape, Result
    run = subprocess.run([sys.executable, "-c", code, str(small)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    loaded = run.stderr.strip().splitlines()[-1]
    assert "detection" not in loaded and "convolution" not in loaded and "pooling" not in loaded, loaded
    assert registry.shape_fn("Convolution", "opset1") is not None  # and a layer of theirs finds them all the same
