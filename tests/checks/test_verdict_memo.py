"""A deep model's repeated blocks: Reshapes with equal keys (``checks.reshape.verdict_key``) share one check, and a
fault in any one of them is still its own finding."""

from __future__ import annotations

import re

import numpy as np
import pytest

from irreshape.checks.graph import Graph
from irreshape.checks.openvino import check_path
from irreshape.checks.reshape import verdict_key
from irreshape.frontends.openvino import parse

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")


def _blocks(path, n=4):
    x = ops.parameter(ov.PartialShape([-1, 8, 16]), np.float32, name="x")
    y = x
    for _ in range(n):  # the same block n times: Reshape to heads, ReLU, Reshape back
        heads = ops.reshape(y, ops.constant(np.array([0, 8, 4, 4], np.int64)), True)
        y = ops.reshape(ops.relu(heads), ops.constant(np.array([0, 8, 16], np.int64)), True)
    ov.save_model(ov.Model([y], [x], "blocks"), str(path))


def test_equal_blocks_share_a_key_and_a_fault_is_its_own(tmp_path):
    xml = tmp_path / "m.xml"
    _blocks(xml)
    model = parse(str(xml))
    graph = Graph(model)
    keys = [verdict_key(la, graph) for la in model.layers.values() if la.kind == "reshape"]
    assert None not in keys and len(set(keys)) < len(keys)  # the blocks repeat
    result = check_path(str(xml))
    assert {lr.status for lr in result.layers} == {"ok"} and len(result.layers) == 8
    reshapes = [la for la in model.layers.values() if la.kind == "reshape"]
    for victim in reshapes[2:]:  # a fault in a later block, after its twins were checked
        lines = xml.read_text().splitlines(keepends=True)
        dim = victim.outputs[0].dim_lines[1] - 1
        lines[dim] = re.sub(r"<dim>\d+</dim>", "<dim>9</dim>", lines[dim])
        bad = tmp_path / f"bad_{victim.id}.xml"
        bad.write_text("".join(lines))
        bad.with_suffix(".bin").write_bytes(xml.with_suffix(".bin").read_bytes())
        found = check_path(str(bad)).findings
        assert {(f.code, f.layer.id) for f in found if f.severity == "error"} == {("IR101", victim.id)}
