#!/usr/bin/env python3
"""Build the small dynamic-input OpenVINO IR models and the scenarios that issue 17 (``--input-shape``) is tested on.

How to run (from the repository root; Linux (uses fork); needs torch, transformers, openvino):

    python scripts/make_dynamic_models.py            # models + scenarios.json + truth.json + README.md
    python scripts/make_dynamic_models.py --list     # just print the model names
    python scripts/make_dynamic_models.py yolo bert  # rebuild only some models (name substrings); the
                                                     # scenarios, truth and README are always rewritten whole
    python scripts/make_dynamic_models.py --truth    # only recompute scenarios/truth/README from the saved models

Writes into ``tests/data/dynamic/``:

* ``<name>.xml`` + ``<name>.bin`` - ``openvino.convert_model`` (torch, transformers) or a graph built with the
  ``openvino.opset15`` API, saved with ``openvino.save_model(..., compress_to_fp16=True)`` (the default, as
  ``scripts/export_models.py`` does);
* ``scenarios.json`` - ``{model: [{"name": ..., "shapes": {input name: "[dims]"}}, ...]}``: the traced shapes,
  other values of each dim, an interval and ``?``;
* ``truth.json`` - what the oracle (``tests/irtools/scenarios.py``) says: each scenario's verdict (accepted, the
  node OpenVINO names, the Reshapes that break the volume rule) and, for each dynamic dim, the values among
  those probed at which ``Model.reshape`` + the volume rule hold and at which the CPU plugin really runs;
* ``README.md`` - the same as tables, generated, never edited by hand.

CI has openvino but not torch/transformers: the committed files are what the tests use, so re-run this script
and commit its outputs whenever it changes. Deterministic (fixed seeds, models built from config objects with
random weights, one forked child per model so OpenVINO's auto-generated names do not depend on which models are
built); about a minute of CPU for the truth (one child process per dynamic dim runs the model on CPU).

Every model is declared with :func:`model`: its inputs with symbolic dims (``"B"`` batch, ``"T"`` sequence,
``"H"`` height...), the values those dims were traced at, and ``pins``: the author's claim of which dims the
model pins (``"one:1"``, ``"multiples:8"``...; a dynamic dim left out is claimed ``"free"``). The claim is checked
against the oracle when the truth is written (a mismatch is printed and fails the run).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import openvino as ov

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "tests" / "data" / "dynamic"
sys.path.insert(0, str(ROOT / "tests"))

warnings.filterwarnings("ignore")  # TracerWarnings from torch.jit.trace / transformers are expected noise

Dim = int | str


@dataclass
class Spec:
    name: str
    build: Callable[[], ov.Model]
    doc: str
    inputs: dict[str, list[Dim]]          # {"x": ["B", 64, 8400]}: symbols are the dims scenarios vary
    traced: dict[str, int]                # the value of each symbol in the example input
    pins: dict[str, str]                  # the author's claim per dynamic symbol; absent = "free"
    vary: dict[str, list[int | str]]      # scenario values per symbol (besides the traced one)
    probe: dict[str, list[int]]           # values pinned_truth tries per dynamic symbol
    extra: list[dict[str, int | str]] = field(default_factory=list)  # scenarios changing several symbols

    def shapes(self, values: dict[str, int | str]) -> dict[str, str]:
        """The inputs' shape specs with the symbols set (missing symbols: their traced value)."""
        env = {**self.traced, **values}
        return {name: "[" + ",".join(str(env[d]) if isinstance(d, str) else str(d) for d in dims) + "]"
                for name, dims in self.inputs.items()}


SPECS: dict[str, Spec] = {}
DEFAULT_VARY: list[int | str] = [1, 2, 3, 8, "1..8", "2..", "..4", "?"]


def model(inputs: dict[str, list[Dim]], traced: dict[str, int], pins: dict[str, str] | None = None,
          vary: dict[str, list[int | str]] | None = None, probe: dict[str, list[int]] | None = None,
          extra: list[dict[str, int | str]] | None = None):
    """Register a builder ``m_<name>``; its docstring says which dims are dynamic and what it pins."""
    def wrap(fn: Callable[[], ov.Model]) -> Callable[[], ov.Model]:
        name = fn.__name__.removeprefix("m_")
        symbols = [d for dims in inputs.values() for d in dims if isinstance(d, str)]
        v = {s: list(DEFAULT_VARY) for s in dict.fromkeys(symbols)}
        v.update(vary or {})
        SPECS[name] = Spec(name, fn, " ".join((fn.__doc__ or "").split()), inputs, traced, pins or {}, v,
                           probe or {}, extra or [])
        return fn
    return wrap


# --------------------------------------------------------------------------------------------------
# torch modules
# --------------------------------------------------------------------------------------------------

def _torch():
    import torch
    from torch import nn
    return torch, nn


def _convert(module, example, shapes: list[str] | None) -> ov.Model:
    import torch
    torch.manual_seed(0)
    module.eval()
    kwargs = {} if shapes is None else {"input": [ov.PartialShape(s) for s in shapes]}
    with torch.no_grad():
        return ov.convert_model(module, example_input=example, **kwargs)


def _module(forward, init=None):
    """A torch.nn.Module whose forward is ``forward(self, *args)`` (``init(self)`` adds layers)."""
    torch, nn = _torch()

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            if init:
                init(self)

    M.forward = forward
    return M()


def _dfl_init(self):
    _, nn = _torch()
    self.dfl = nn.Conv2d(16, 1, 1, bias=False)


@model({"x": ["B", 64, 8400]}, {"B": 1}, pins={"B": "one:1"})
def m_pt_dfl_batch_baked():
    """YOLOv8 DFL decoding with the batch and the 8400 anchors baked in: ``x.view(1, 4, 16, 8400)`` ...
    ``.view(1, 4, 8400)``. Dynamic: batch. Pins the batch to 1 (both views are all constants)."""
    def forward(self, x):
        y = x.view(1, 4, 16, 8400).transpose(2, 1).softmax(1)
        return self.dfl(y).view(1, 4, 8400)
    torch, _ = _torch()
    return _convert(_module(forward, _dfl_init), (torch.randn(1, 64, 8400),), ["?,64,8400"])


@model({"x": ["B", 64, "A"]}, {"B": 1, "A": 8400}, vary={"A": [100, 8400, "1..9000", "?"]},
       probe={"A": [1, 2, 3, 100, 8400]})
def m_pt_dfl_shape_driven():
    """YOLOv8 DFL written shape-driven: ``b, _, a = x.shape; x.view(b, 4, 16, a)`` ... ``.view(b, 4, a)``.
    Dynamic: batch and anchors. Pins nothing."""
    def forward(self, x):
        b, _, a = x.shape
        y = x.view(b, 4, 16, a).transpose(2, 1).softmax(1)
        return self.dfl(y).view(b, 4, a)
    torch, _ = _torch()
    return _convert(_module(forward, _dfl_init), (torch.randn(1, 64, 8400),), ["?,64,?"])


def _yolo_init(self):
    _, nn = _torch()
    self.p3 = nn.Conv2d(8, 20, 1)               # 4 box sides x reg_max 4 + 4 classes = 20 outputs per anchor
    self.down = nn.Conv2d(8, 8, 3, stride=2, padding=1)
    self.p4 = nn.Conv2d(8, 20, 1)
    self.dfl = nn.Conv2d(4, 1, 1, bias=False)


def _yolo_tail(self, cat, batch=None):
    """Split box/class channels; DFL over the 4 sides: ``view(b, 4, 4, a)`` shape-driven, or
    ``view(batch, 4, 4, -1)`` with a literal batch."""
    box, cls = cat.split((16, 4), 1)
    if batch is None:
        dist = box.view(box.shape[0], 4, 4, box.shape[2])
    else:
        dist = box.view(batch, 4, 4, -1)
    return self.dfl(dist.transpose(2, 1).softmax(1)), cls.sigmoid()


@model({"x": ["B", 8, "H", 8]}, {"B": 2, "H": 8}, pins={"H": "one:8"},
       vary={"H": [4, 7, 16, "1..16", "?"]})
def m_pt_yolo_anchors_baked():
    """YOLO-like two-scale head whose per-scale views have the anchor counts hard-coded
    (``view(b, 20, 64)``, ``view(b, 20, 16)`` for an 8x8 map) while the batch is shape-driven.
    Dynamic: batch and height (width static 8). Pins the height to 8; the batch is free."""
    def forward(self, x):
        b = x.shape[0]
        f3 = self.p3(x).view(b, 20, 64)
        f4 = self.p4(self.down(x)).view(b, 20, 16)
        return _yolo_tail(self, torch.cat((f3, f4), 2))
    torch, _ = _torch()
    return _convert(_module(forward, _yolo_init), (torch.randn(2, 8, 8, 8),), ["?,8,?,8"])


@model({"x": ["B", 8, "H", "W"]}, {"B": 2, "H": 8, "W": 8},
       vary={"H": [4, 7, 16, "1..16", "?"], "W": [4, 5, 32, "?"]}, extra=[{"B": "?", "H": "?", "W": "?"}])
def m_pt_yolo_shape_driven():
    """The same YOLO-like head written as Ultralytics does: ``view(b, no, -1)`` per scale, DFL
    ``view(b, 4, 4, a)`` from the concatenated anchors. Dynamic: batch, height, width. Pins nothing."""
    def forward(self, x):
        b = x.shape[0]
        f3 = self.p3(x).view(b, 20, -1)
        f4 = self.p4(self.down(x)).view(b, 20, -1)
        return _yolo_tail(self, torch.cat((f3, f4), 2))
    torch, _ = _torch()
    return _convert(_module(forward, _yolo_init), (torch.randn(2, 8, 8, 8),), ["?,8,?,?"])


@model({"x": ["B", 8, 8, 8]}, {"B": 1})
def m_pt_yolo_batch_folded():
    """YOLO-like head traced at batch 1 with the batch written as a literal 1 next to ``-1``:
    ``view(1, 20, -1)`` per scale and ``view(1, 4, 4, -1)``. Dynamic: batch. Reshapes fine at every batch
    (the -1 absorbs it: the batch is folded into the anchors), so it pins nothing although it is wrong."""
    def forward(self, x):
        f3 = self.p3(x).view(1, 20, -1)
        f4 = self.p4(self.down(x)).view(1, 20, -1)
        return _yolo_tail(self, torch.cat((f3, f4), 2), 1)
    torch, _ = _torch()
    return _convert(_module(forward, _yolo_init), (torch.randn(1, 8, 8, 8),), ["?,8,8,8"])


@model({"x": ["B", 7]}, {"B": 2}, pins={"B": "multiples:2"})
def m_pt_view_two_rows():
    """``x.view(2, -1)`` traced at batch 2 on ``[?,7]``. Dynamic: batch. Works only for even batches
    (7 is odd, so the 2 must divide the batch)."""
    def forward(self, x):
        return x.view(2, -1) * 2.0
    torch, _ = _torch()
    return _convert(_module(forward), (torch.randn(2, 7),), ["?,7"])


@model({"x": ["B", 6]}, {"B": 16}, pins={"B": "multiples:8"}, vary={"B": [1, 2, 8, 12, 24, "1..32", "?"]},
       probe={"B": list(range(1, 33))})
def m_pt_window_groups():
    """Groups of 8 rows: ``x.reshape(-1, 8, 6)`` then a sum over the group, traced at 16. Dynamic: batch.
    Works only for batches divisible by 8."""
    def forward(self, x):
        return x.reshape(-1, 8, 6).sum(1)
    torch, _ = _torch()
    return _convert(_module(forward), (torch.randn(16, 6),), ["?,6"])


@model({"x": ["B", 6]}, {"B": 16})
def m_pt_split_channels():
    """The shape-driven counterpart of the groups: ``x.view(x.shape[0], 2, 3)`` splits the static channels.
    Dynamic: batch. Pins nothing."""
    def forward(self, x):
        return x.view(x.shape[0], 2, 3).sum(1)
    torch, _ = _torch()
    return _convert(_module(forward), (torch.randn(16, 6),), ["?,6"])


@model({"x": ["B", 3, 4, 4]}, {"B": 1}, pins={"B": "one:1"})
def m_pt_flatten_hardcoded():
    """``x.view(1, 48)`` traced at batch 1. Dynamic: batch. Pins the batch to 1."""
    def forward(self, x):
        return x.view(1, 48) * 2.0
    torch, _ = _torch()
    return _convert(_module(forward), (torch.randn(1, 3, 4, 4),), ["?,3,4,4"])


@model({"x": ["B", 3, 4, 4]}, {"B": 2})
def m_pt_flatten_two_ways():
    """``x.view(x.shape[0], -1)`` and ``x.flatten(1)`` side by side. Dynamic: batch. Pins nothing."""
    def forward(self, x):
        return x.view(x.shape[0], -1) + (x * 2.0).flatten(1)  # two inputs, so the two Reshapes stay apart
    torch, _ = _torch()
    return _convert(_module(forward), (torch.randn(2, 3, 4, 4),), ["?,3,4,4"])


def _heads_init(self):
    _, nn = _torch()
    self.qkv = nn.Linear(32, 32)


@model({"x": ["B", "T", 32]}, {"B": 1, "T": 16}, pins={"B": "one:1", "T": "one:16"},
       vary={"T": [1, 8, 32, "1..64", "?"]}, extra=[{"B": 2, "T": 8}, {"B": "?", "T": "?"}])
def m_pt_heads_hardcoded():
    """Attention head split traced at batch 1, sequence 16: ``self.qkv(x).view(1, 16, 4, 8)``. Dynamic:
    batch and sequence. Pins the batch to 1 (at sequence 16) and the sequence to 16 (at batch 1); batch 2 with
    sequence 8 keeps the element count, so OpenVINO accepts it."""
    def forward(self, x):
        return self.qkv(x).view(1, 16, 4, 8).transpose(1, 2)
    torch, _ = _torch()
    return _convert(_module(forward, _heads_init), (torch.randn(1, 16, 32),), ["?,?,32"])


@model({"x": ["B", "T", 32]}, {"B": 1, "T": 16}, pins={"T": "multiples:16"},
       vary={"T": [1, 8, 32, "1..64", "?"]}, probe={"T": list(range(1, 49))}, extra=[{"B": 2, "T": 8}])
def m_pt_heads_minus_one():
    """Head split with the sequence hard-coded and the batch left to -1: ``view(-1, 16, 4, 8)``. Dynamic:
    batch and sequence. At batch 1 the sequence must be a multiple of 16; the batch is free at sequence 16."""
    def forward(self, x):
        return self.qkv(x).view(-1, 16, 4, 8).transpose(1, 2)
    torch, _ = _torch()
    return _convert(_module(forward, _heads_init), (torch.randn(1, 16, 32),), ["?,?,32"])


@model({"x": ["B", "T", 32]}, {"B": 1, "T": 16}, vary={"T": [1, 8, 32, "1..64", "?"]},
       extra=[{"B": "?", "T": "?"}])
def m_pt_heads_shape_driven():
    """Head split and merge written shape-driven: ``view(b, t, 4, 8)`` and ``reshape(b, t, -1)``. Dynamic:
    batch and sequence. Pins nothing."""
    def forward(self, x):
        b, t, _ = x.shape
        h = self.qkv(x).view(b, t, 4, 8).transpose(1, 2)
        return h.transpose(1, 2).reshape(b, t, -1)
    torch, _ = _torch()
    return _convert(_module(forward, _heads_init), (torch.randn(1, 16, 32),), ["?,?,32"])


def _cnn_init(self):
    _, nn = _torch()
    self.conv = nn.Conv2d(3, 4, 3, padding=1)


@model({"x": ["B", 3, "H", 8]}, {"B": 2, "H": 4}, pins={"H": "one:4"}, vary={"H": [2, 8, "1..8", "?"]})
def m_pt_cnn_flatten_hardcoded():
    """Conv (size-preserving) then ``x.view(x.shape[0], 4 * 4 * 8)`` with the traced height 4 baked into the
    feature count. Dynamic: batch and height (width static 8). Pins the height to 4; the batch is free."""
    def forward(self, x):
        return self.conv(x).relu().view(x.shape[0], 128)
    torch, _ = _torch()
    return _convert(_module(forward, _cnn_init), (torch.randn(2, 3, 4, 8),), ["?,3,?,8"])


@model({"x": ["B", 3, "H", "W"]}, {"B": 2, "H": 4, "W": 8}, vary={"H": [2, 8, "1..8", "?"], "W": [3, 16, "?"]})
def m_pt_cnn_flatten_shape_driven():
    """Conv then ``torch.flatten(x, 1)`` and a mean. Dynamic: batch, height, width. Pins nothing."""
    def forward(self, x):
        return torch.flatten(self.conv(x).relu(), 1).mean(1, keepdim=True)
    torch, _ = _torch()
    return _convert(_module(forward, _cnn_init), (torch.randn(2, 3, 4, 8),), ["?,3,?,?"])


@model({"x": ["B", 5]}, {"B": 1}, pins={"B": "one:1"})
def m_pt_squeeze_batch():
    """``x.squeeze(0)`` traced at batch 1, then ``view(5, 1)``. Dynamic: batch. OpenVINO squeezes the dynamic
    batch (the output rank drops), copies it at any other static value, and the view then breaks: pins the batch
    to 1."""
    def forward(self, x):
        return x.squeeze(0).view(5, 1) * 2.0
    torch, _ = _torch()
    return _convert(_module(forward), (torch.randn(1, 5),), ["?,5"])


# --------------------------------------------------------------------------------------------------
# graphs built with the opset15 API
# --------------------------------------------------------------------------------------------------

def _ops():
    from openvino import opset15
    return opset15


def _const(values, dtype=np.int64):
    return _ops().constant(np.array(values, dtype=dtype))


def _graph(inputs: dict[str, str], body) -> ov.Model:
    """``body(*parameters) -> list of output nodes``; every node gets a readable friendly name by the caller."""
    ops = _ops()
    params = [ops.parameter(ov.PartialShape(shape), ov.Type.f32, name=name) for name, shape in inputs.items()]
    for p in params:
        p.output(0).set_names({p.get_friendly_name()})
    outs = body(*params)
    return ov.Model([ops.result(o) for o in outs], params, "graph")


def _named(node, name: str):
    node.set_friendly_name(name)
    return node


@model({"x": ["B", 12]}, {"B": 2}, extra=[{"B": 0}])
def m_ops_special_zero_split():
    """``[?,12]`` reshaped by ``[0,3,4]`` with special_zero (the 0 copies the batch). Dynamic: batch.
    Pins nothing: the volume holds for every batch."""
    ops = _ops()
    return _graph({"x": "?,12"}, lambda x: [ops.relu(_named(ops.reshape(x, _const([0, 3, 4]), True), "split"))])


@model({"x": ["B", 3, 4]}, {"B": 1}, pins={"B": "one:1"})
def m_ops_special_zero_batch_one():
    """``[?,3,4]`` reshaped by ``[1,0,0]`` with special_zero. Dynamic: batch. OpenVINO accepts every batch
    (it skips the element count for special zeros), the volume holds only at batch 1: pins the batch to 1."""
    ops = _ops()
    return _graph({"x": "?,3,4"}, lambda x: [ops.relu(_named(ops.reshape(x, _const([1, 0, 0]), True), "batch_one"))])


@model({"x": ["B", 6]}, {"B": 2}, pins={"B": "never"})
def m_ops_special_zero_never():
    """``[?,6]`` reshaped by ``[0,3,4]`` with special_zero: 6 elements a row become 12. Dynamic: batch.
    OpenVINO accepts every batch; the volume holds at none (every static scenario breaks the spec)."""
    ops = _ops()
    return _graph({"x": "?,6"}, lambda x: [ops.relu(_named(ops.reshape(x, _const([0, 3, 4]), True), "grow"))])


@model({"x": ["B", 6]}, {"B": 4}, pins={"B": "multiples:2"})
def m_ops_special_zero_minus_one():
    """``[?,6]`` reshaped by ``[2,0,-1]`` with special_zero (the 0 copies the 6): the -1 is the batch / 2.
    Dynamic: batch. OpenVINO rejects odd batches ("do not evenly divide"): only multiples of 2."""
    ops = _ops()
    return _graph({"x": "?,6"}, lambda x: [ops.relu(_named(ops.reshape(x, _const([2, 0, -1]), True), "pairs"))])


@model({"x": ["B", 9]}, {"B": 4}, pins={"B": "multiples:4"})
def m_ops_minus_one_divides():
    """``[?,9]`` reshaped by ``[-1,4,9]`` (no special zero): the constant 4 must divide the batch. Dynamic:
    batch. Only multiples of 4."""
    ops = _ops()
    return _graph({"x": "?,9"}, lambda x: [ops.relu(_named(ops.reshape(x, _const([-1, 4, 9]), False), "quads"))])


@model({"x": ["B", 3, 4]}, {"B": 1}, pins={"B": "one:1"})
def m_ops_volume_then_concat():
    """``[?,3,4]`` reshaped by ``[1,0,0]`` with special_zero, then concatenated with the input on axis 1.
    Dynamic: batch. At any batch but 1 OpenVINO rejects the Concat (1 vs the batch) while the Reshape before it
    already broke the volume rule: pins the batch to 1."""
    ops = _ops()

    def body(x):
        r = _named(ops.reshape(x, _const([1, 0, 0]), True), "batch_one")
        return [_named(ops.concat([r, x], 1), "join")]
    return _graph({"x": "?,3,4"}, body)


@model({"x": ["B", 5]}, {"B": 1}, pins={"B": "one:1"})
def m_ops_squeeze_concat():
    """Squeeze of the dynamic batch (axis 0) then Concat with a constant ``[3]`` on axis 0. Dynamic: batch.
    At batch 1 the Squeeze gives ``[5]`` and the Concat ``[8]``; at any other batch the Squeeze copies the dim
    (rank 2) and the Concat rejects the ranks: pins the batch to 1."""
    ops = _ops()

    def body(x):
        sq = _named(ops.squeeze(x, _const([0])), "drop_batch")
        return [_named(ops.concat([sq, ops.constant(np.zeros(3, np.float32))], 0), "append")]
    return _graph({"x": "?,5"}, body)


@model({"x": ["B", 5]}, {"B": 1}, pins={"B": "free"})
def m_ops_squeeze_only():
    """Squeeze of the dynamic batch (axis 0) then Relu, nothing downstream that cares about the rank. Dynamic:
    batch. ``Model.reshape`` accepts every batch (the Squeeze copies a dim that is not 1: a ``squeeze_skips``
    entry) and the volume rule says nothing, so the oracle calls it free; but the CPU plugin runs it only at
    batch 1 (the compiled output is rank 1). The Squeeze pins the batch in practice."""
    ops = _ops()
    return _graph({"x": "?,5"}, lambda x: [ops.relu(_named(ops.squeeze(x, _const([0])), "drop_batch"))])


@model({"x": ["B", "T", 8]}, {"B": 2, "T": 3}, extra=[{"B": "?", "T": "?"}])
def m_ops_unsqueeze_special_zero():
    """Unsqueeze at axis 1 then Reshape ``[0,0,0,2,4]`` with special_zero (the zeros copy batch, the new 1, and
    the sequence). Dynamic: batch and sequence. Pins nothing."""
    ops = _ops()

    def body(x):
        u = _named(ops.unsqueeze(x, _const([1])), "add_axis")
        return [ops.relu(_named(ops.reshape(u, _const([0, 0, 0, 2, 4]), True), "split_last"))]
    return _graph({"x": "?,?,8"}, body)


def _shape_pattern(x, tail):
    ops = _ops()
    shape = ops.shape_of(x, "i64")
    lead = ops.gather(shape, _const([0, 1]), _const(0))
    return ops.concat([lead, _const(tail)], 0)


@model({"x": ["B", "T", 8]}, {"B": 2, "T": 3}, extra=[{"B": "?", "T": "?"}])
def m_ops_shapeof_driven():
    """Reshape whose pattern is ``Concat(Gather(ShapeOf(x), [0,1]), [2,4])``: batch and sequence carried from
    the input. Dynamic: batch and sequence. Pins nothing."""
    ops = _ops()
    return _graph({"x": "?,?,8"}, lambda x: [ops.relu(_named(ops.reshape(x, _shape_pattern(x, [2, 4]), False),
                                                             "split_last"))])


@model({"x": ["B", "T", 8]}, {"B": 2, "T": 16}, pins={"T": "one:16"}, vary={"T": [1, 8, 32, "1..64", "?"]})
def m_ops_shapeof_half_baked():
    """Reshape whose pattern is ``Concat(Gather(ShapeOf(x), [0]), [16, 8])``: the batch carried from the input,
    the sequence hard-coded. Dynamic: batch and sequence. Pins the sequence to 16; the batch is free."""
    ops = _ops()

    def body(x):
        shape = ops.shape_of(x, "i64")
        pattern = ops.concat([ops.gather(shape, _const([0]), _const(0)), _const([16, 8])], 0)
        return [ops.relu(_named(ops.reshape(x, pattern, False), "fixed_seq"))]
    return _graph({"x": "?,?,8"}, body)


@model({"x": ["B", 6]}, {"B": 4}, vary={"B": [1, 2, 8, 9, "1..8", "?"]})
def m_ops_interval_batch():
    """A Parameter declared ``[1..8,6]`` reshaped by ``[0,2,3]`` with special_zero. Dynamic: batch (an interval
    in the model; a scenario may move it outside). Pins nothing."""
    ops = _ops()
    return _graph({"x": "1..8,6"}, lambda x: [ops.relu(_named(ops.reshape(x, _const([0, 2, 3]), True), "split"))])


# --------------------------------------------------------------------------------------------------
# transformers, tiny configs with random weights
# --------------------------------------------------------------------------------------------------

def _hf_text(config_cls: str, model_cls: str, **cfg) -> ov.Model:
    import torch
    import transformers
    torch.manual_seed(0)
    net = getattr(transformers, model_cls)(getattr(transformers, config_cls)(**cfg))
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 100, (2, 7), generator=g)
    return _convert(net, {"input_ids": ids, "attention_mask": torch.ones(2, 7, dtype=torch.long)}, None)


TEXT = {"input_ids": ["B", "T"], "attention_mask": ["B", "T"]}
TEXT_VARY = {"T": [1, 16, 32, 33, "1..32", "?"]}
TEXT_PINS = {"T": "range:1..32"}  # position embeddings for 32 positions, sliced from a buffer
TEXT_PROBE = {"T": [1, 2, 7, 16, 31, 32, 33, 40, 64]}


@model(TEXT, {"B": 2, "T": 7}, pins=TEXT_PINS, vary=TEXT_VARY, probe=TEXT_PROBE,
       extra=[{"B": "?", "T": "?"}, {"B": 1, "T": 1}])
def m_hf_bert():
    """BERT (2 layers, hidden 16, 2 heads, 32 positions). Dynamic: batch and sequence. The batch is free; the
    sequence is limited to the 32 learned positions (a range, not a pin)."""
    return _hf_text("BertConfig", "BertModel", hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=24, vocab_size=100, max_position_embeddings=32)


@model(TEXT, {"B": 2, "T": 7}, vary=TEXT_VARY, probe=TEXT_PROBE, extra=[{"B": "?", "T": "?"}, {"B": 1, "T": 1}])
def m_hf_gpt2():
    """GPT-2 (2 layers, 16 wide, 2 heads, 32 positions, no cache). Dynamic: batch and sequence. Pins nothing:
    the positions are an ``arange`` gathered from the 32 learned ones, so a longer sequence is no shape error
    (``Model.reshape`` accepts it, and the CPU plugin runs it: Gather gives zeros past the table)."""
    return _hf_text("GPT2Config", "GPT2Model", n_embd=16, n_layer=2, n_head=2, vocab_size=100, n_positions=32,
                    use_cache=False, bos_token_id=0, eos_token_id=0)


@model(TEXT, {"B": 2, "T": 7}, pins=TEXT_PINS, vary=TEXT_VARY, probe=TEXT_PROBE,
       extra=[{"B": "?", "T": "?"}, {"B": 1, "T": 1}])
def m_hf_distilbert():
    """DistilBERT (2 layers, dim 16, 2 heads, 32 positions). Dynamic: batch and sequence. The batch is free;
    the sequence is limited to the 32 learned positions."""
    return _hf_text("DistilBertConfig", "DistilBertModel", dim=16, n_layers=2, n_heads=2, hidden_dim=24,
                    vocab_size=100, max_position_embeddings=32)


@model({"pixel_values": ["B", 3, "S", "S"]}, {"B": 2, "S": 32}, vary={"S": [16, 48]},
       extra=[{"B": "?", "S": 16}])
def m_hf_vit():
    """ViT (2 layers, hidden 16, 2 heads, 32x32 images in 8x8 patches). Dynamic: batch (the image size is
    static; scenarios that change it meet the 17 learned positions). Pins nothing."""
    import torch
    from transformers import ViTConfig, ViTModel
    torch.manual_seed(0)
    net = ViTModel(ViTConfig(hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=24,
                             image_size=32, patch_size=8))
    return _convert(net, {"pixel_values": torch.randn(2, 3, 32, 32)}, ["?,3,32,32"])


# --------------------------------------------------------------------------------------------------
# building
# --------------------------------------------------------------------------------------------------

def build_one(name: str, out_dir: Path) -> None:
    """Build and save one model (runs in a forked child, see main())."""
    warnings.filterwarnings("ignore")
    m = SPECS[name].build()
    m.set_friendly_name(name)
    ov.save_model(m, out_dir / f"{name}.xml", compress_to_fp16=True)


def _preload() -> None:
    """Import what the builders need *before* forking. Must not create any OpenVINO node (that would advance
    the global name counters the children inherit)."""
    import torch  # noqa: F401
    import transformers  # noqa: F401
    from openvino.frontend.pytorch import ts_decoder  # noqa: F401
    from transformers import BertModel, DistilBertModel, GPT2Model, ViTModel  # noqa: F401


def build(names: list[str], out_dir: Path, jobs: int) -> list[str]:
    from export_models import build_forked  # scripts/ is the script's own folder on sys.path

    _preload()
    return build_forked(names, build_one, out_dir, jobs, width=32)


# --------------------------------------------------------------------------------------------------
# scenarios and the truth
# --------------------------------------------------------------------------------------------------

def scenarios_of(spec: Spec) -> list[dict]:
    out = [{"name": "traced", "shapes": spec.shapes({})}]
    seen = {json.dumps(out[0]["shapes"], sort_keys=True)}
    wanted = [{s: v} for s, values in spec.vary.items() for v in values] + list(spec.extra)
    for change in wanted:
        shapes = spec.shapes(change)
        key = json.dumps(shapes, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        out.append({"name": ",".join(f"{s}={v}" for s, v in change.items()), "shapes": shapes})
    return out


def dynamic_symbols(spec: Spec, declared: dict[str, str]) -> list[tuple[str, str, int]]:
    """(symbol, first input holding it, dim index) for the symbols that are dynamic in the saved model."""
    out = []
    for symbol in dict.fromkeys(d for dims in spec.inputs.values() for d in dims if isinstance(d, str)):
        for name, dims in spec.inputs.items():
            if symbol in dims:
                i = dims.index(symbol)
                dim = ov.PartialShape(declared[name].strip("[]"))[i]
                if not dim.is_static:
                    out.append((symbol, name, i))
                break
    return out


def truth_of(spec: Spec, xml: Path, scenarios: list[dict]) -> dict:
    from irtools import scenarios as oracle

    declared = oracle.input_shapes(xml)
    verdicts = {}
    for scen in scenarios:
        v = oracle.openvino_verdict(xml, scen["shapes"])
        verdicts[scen["name"]] = {"ok": v.ok, "node": v.node, "reason": v.reason,
                                  "volume_violations": v.volume_violations, "squeeze_skips": v.squeeze_skips}
    pins = {}
    for symbol, name, index in dynamic_symbols(spec, declared):
        values = spec.probe.get(symbol, list(range(1, 17)))
        base = spec.shapes({symbol: "?"})
        accepted = oracle.pinned_truth(xml, name, index, values, base=base)
        ran = oracle.runs_many(xml, [spec.shapes({symbol: v}) for v in values])
        running = [v for v, (ok, _) in zip(values, ran) if ok]
        pins[symbol] = {"input": name, "dim": index, "values": values,
                        "accepted": accepted, "kind": oracle.classify(values, accepted),
                        "runs": running, "runs_kind": oracle.classify(values, running),
                        "claimed": spec.pins.get(symbol, "free")}
    return {"doc": spec.doc, "inputs": declared, "traced": spec.shapes({}), "pins": pins, "scenarios": verdicts}


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|")


def readme(truth: dict, scenarios: dict) -> str:
    n_scen = sum(len(v) for v in scenarios.values())
    lines = [
        "# Dynamic-input models and their scenarios",
        "",
        "Generated by `scripts/make_dynamic_models.py` from the oracle in `tests/irtools/scenarios.py`; do not edit.",
        "",
        f"{len(truth)} models, {n_scen} scenarios (`scenarios.json`); the full verdicts are in `truth.json`.",
        "",
        "* **accepted** - the probed values of a dynamic dim (the other dims at their traced values) at which",
        "  `Model.reshape` accepts the shapes and no Reshape breaks the volume rule (`pinned_truth`);",
        "* **runs** - the probed values at which the saved (dynamic) model compiles and infers on CPU (`runs_many`);",
        "* kinds: `free` (every probed value), `one:V`, `multiples:K`, `range:LO..HI`, `never`, `some:...`;",
        "  **claimed** is what the model's docstring says (checked against **accepted** when generated).",
        "",
        "## Models",
        "",
        "| model | inputs | dynamic dim | claimed | accepted | runs | about |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, t in truth.items():
        inputs = ", ".join(f"`{k}` `{v}`" for k, v in t["inputs"].items())
        pins = t["pins"] or {"-": None}
        for i, (symbol, p) in enumerate(pins.items()):
            if p is None:
                dim, claimed, kind, runs = "none", "-", "-", "-"
            else:
                dim = f"{symbol} (`{p['input']}`[{p['dim']}])"
                claimed, kind, runs = p["claimed"], p["kind"], p["runs_kind"]
            first = i == 0
            lines.append(f"| {name if first else ''} | {_cell(inputs) if first else ''} | {dim} | `{claimed}` | "
                         f"`{kind}` | `{runs}` | {_cell(t['doc']) if first else ''} |")
    lines += ["", "## Scenarios OpenVINO rejects, or whose volume the spec forbids", "",
              "| model | scenario | shapes | node named | reason / volume |", "| --- | --- | --- | --- | --- |"]
    for name, t in truth.items():
        shapes = {s["name"]: s["shapes"] for s in scenarios[name]}
        for scen, v in t["scenarios"].items():
            if v["ok"] and not v["volume_violations"]:
                continue
            what = "; ".join(([v["reason"]] if not v["ok"] else [])
                             + (["volume: " + ", ".join(v["volume_violations"])] if v["volume_violations"] else []))
            sh = ", ".join(f"{k}={s}" for k, s in shapes[scen].items())
            lines.append(f"| {name} | `{scen}` | `{sh}` | `{_cell(v['node'] or '-')}` | {_cell(what)} |")
    accepted = [(n, s) for n, t in truth.items() for s, v in t["scenarios"].items() if v["ok"] and not v["volume_violations"]]
    skips = [(n, s, v["squeeze_skips"]) for n, t in truth.items() for s, v in t["scenarios"].items() if v["squeeze_skips"]]
    lines += ["", f"Every other scenario ({len(accepted)}) is accepted with the volume rule holding.", ""]
    if skips:
        lines += ["## Squeezes that copied a dim instead of removing it (accepted by `Model.reshape`)", "",
                  "| model | scenario | Squeeze |", "| --- | --- | --- |"]
        lines += [f"| {n} | `{s}` | `{', '.join(k)}` |" for n, s, k in skips]
        lines.append("")
    return "\n".join(lines)


def write_truth(out_dir: Path) -> int:
    names = [n for n in SPECS if (out_dir / f"{n}.xml").exists()]
    scenarios = {n: scenarios_of(SPECS[n]) for n in names}
    (out_dir / "scenarios.json").write_text(json.dumps(scenarios, indent=1) + "\n")
    truth, bad = {}, []
    for n in names:
        t0 = time.perf_counter()
        truth[n] = truth_of(SPECS[n], out_dir / f"{n}.xml", scenarios[n])
        rejected = sum(not v["ok"] or bool(v["volume_violations"]) for v in truth[n]["scenarios"].values())
        kinds = {s: (p["kind"], p["runs_kind"]) for s, p in truth[n]["pins"].items()}
        print(f"{n:32s} {len(scenarios[n]):3d} scenarios, {rejected:2d} fail; {kinds} "
              f"{time.perf_counter() - t0:5.1f}s", flush=True)
        bad += [f"{n}: {s} claimed {p['claimed']}, oracle says {p['kind']}" for s, p in truth[n]["pins"].items()
                if p["claimed"] != p["kind"]]
    (out_dir / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    (out_dir / "README.md").write_text(readme(truth, scenarios))
    print(f"{sum(len(v) for v in scenarios.values())} scenarios over {len(names)} models")
    for line in bad:
        print("CLAIM MISMATCH", line)
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("only", nargs="*", help="build only models whose name contains one of these")
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--truth", action="store_true", help="only rewrite scenarios.json, truth.json, README.md")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(SPECS))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.truth:
        names = [n for n in SPECS if not args.only or any(s in n for s in args.only)]
        start = time.perf_counter()
        failed = build(names, args.out, args.jobs)
        print(f"built {len(names) - len(failed)}/{len(names)} in {time.perf_counter() - start:.1f}s")
        if failed:
            return 1
    return write_truth(args.out)


if __name__ == "__main__":
    raise SystemExit(main())
