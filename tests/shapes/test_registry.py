"""The op registry: lookup by type and opset version, as OpenVINO's IR reader resolves an op in an opset."""

from __future__ import annotations

import pytest

from irreshape.core.dims import Dim
from irreshape.shapes import registry


def test_lookup_is_case_insensitive_and_by_version():
    assert registry.shape_fn("relu", "opset1") is registry.shape_fn("ReLU", "opset1") is not None
    assert registry.shape_fn("Interpolate", "opset4") is not registry.shape_fn("Interpolate", "opset11")
    assert registry.shape_fn("NoSuchOp", "opset1") is None


def test_a_later_opset_finds_the_newest_earlier_version():
    # ReduceL1 is defined in opset4 only; an IR may name it in opset5
    assert registry.shape_fn("ReduceL1", "opset5") is registry.shape_fn("ReduceL1", "opset4") is not None
    assert registry.shape_fn("Interpolate", "opset13") is registry.shape_fn("Interpolate", "opset11")
    assert registry.shape_fn("ReduceL1", "opset3") is None  # not yet defined there
    # a function for any version wins over an older version's own
    assert registry.shape_fn("SoftMax", "opset8") is not registry.shape_fn("SoftMax", "opset7")


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
