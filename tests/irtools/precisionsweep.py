"""A differential sweep of precision lies: one port's ``precision`` of a real IR rewritten, as a careless script
would, to each other spelling, judged against ``openvino.Core().read_model`` (needs openvino).

Each edit rewrites the attribute's value on one line (every other byte stays): an output port alone (``output``),
an input port alone (``input``), or an output port and the consumers' input ports that repeat it (``edge``). The
truth comes from read_model on the original file and on the edited one:

* the edited file refused (an output port's precision no type's spelling: "Unsupported element type"): an error
  on the port's layer;
* otherwise, a lie where the new spelling's type is not one the port may declare: the layer's own type
  (:func:`.typeoracle.own_types`), for an IR v10 model's input or output the type read_model hands the user
  there, for an input port its producer's type or its producer's declared precision (a repeat of the producer's
  lie is the producer's finding): an IR307 on the port's layer (the producer's, for ``output`` and ``edge``; the
  consumer's, for ``input``);
* no other finding anywhere (but the IR109 of a Reshape whose shape subgraph holds a refused layer), none gone
  but on that layer, and no IR900.

The spelling of a type is OpenVINO's (measured on 2026.4.1: an output port spelled otherwise makes read_model
refuse the file); a spelling's type is irreshape's table (``etypes.from_precision``), whose spellings are exactly
those read_model accepts (``test_precision_sweep.py`` checks that too).

Used by ``scripts/precision_sweep.py`` (every port of many files) and ``tests/checks/test_precision_sweep.py``
(a seeded subset).
"""

from __future__ import annotations

import random
import re
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from irreshape.checks import check_file
from irreshape.fixers import fix_file
from irreshape.core.etypes import TYPES, from_precision
from irreshape.frontends.openvino import parse

from .typeoracle import own_types

# every spelling read_model reads (the serializer's, the type names, the aliases), then spellings it refuses on an
# output port that a careless script writes
SPELLINGS = tuple(dict.fromkeys([s for t, row in TYPES.items() for s in (row.precision, t)]
                                + ["U1", "bin", "undefined"]))
REFUSED = ("bool", "fp32", "F32", "Fp16", "int64", "")
MODES = ("output", "input", "edge")
# the spellings, the lowercase names, two aliases and three read_model refuses
BRIEF = ("BOOL", "boolean", "U1", "bin", "I4", "U8", "I8", "FP16", "BF16", "FP32", "f32", "FP64", "I32", "i64", "I64",
         "U64", "STRING", "UNSPECIFIED", "bool", "fp32", "")


@dataclass
class Source:
    """A real IR read once: its findings, the types read_model gives its ports."""

    path: Path
    model: object
    base: Counter  # (code, layer id) of the findings on the file as it is
    own: dict  # (layer id, port id) -> the layer's own type (typeoracle.own_types)
    converted: dict  # (layer id, port id) -> the types read_model hands the user there (an IR v10 model's ends)

    @classmethod
    def read(cls, path: Path) -> "Source | None":
        import openvino as ov

        try:
            ovm = ov.Core().read_model(str(path))
        except RuntimeError:
            return None  # read_model refuses the file as it is
        model = parse(str(path))
        model.link()
        by_name = {layer.name: layer for layer in model.layers.values()}
        converted: dict = {}
        for node in ovm.get_parameters():
            layer = by_name.get(node.get_friendly_name())
            if layer is not None and layer.outputs:
                converted.setdefault((layer.id, layer.outputs[0].id), set()).add(
                    node.get_element_type().get_type_name())
        for node in ovm.get_results():
            layer = by_name.get(node.get_friendly_name())
            src = layer.inputs[0].source if layer is not None and layer.inputs else None
            if src is not None:
                converted.setdefault((src.layer.id, src.id), set()).add(node.get_element_type().get_type_name())
        base = Counter((f.code, f.layer.id if f.layer else None) for f in check_file(str(path)).findings)
        return cls(path, model, base, own_types(str(path), ovm), converted)


@dataclass
class Edit:
    source: Source
    mode: str
    layer: object  # the layer the finding belongs on
    port: object  # the port edited (for ``edge``: the output port)
    spelling: str
    lines: list[int] = field(default_factory=list)  # the lines rewritten

    def __str__(self) -> str:
        return (f"{self.source.path.name}: {self.layer.type} {self.layer.name!r} (id {self.layer.id}) {self.mode} "
                f"port {self.port.id} {self.port.precision!r} -> {self.spelling!r}")

    def allowed(self) -> set | None:
        """The types the port may declare (None: read_model's model does not tell)."""
        src = self.port if self.mode != "input" else self.port.source
        key = (src.layer.id, src.id)
        own = self.source.own.get(key)
        if own is None:
            return None
        ok = {own, *self.source.converted.get(key, ())}
        if self.mode == "input":
            ok.add(from_precision(src.precision))
            if self.layer.kind != "result":
                ok -= self.source.converted.get(key, set()) - {own}
        return ok

    def write(self, folder: Path) -> Path:
        lines = self.source.path.read_bytes().splitlines(keepends=True)
        for n in self.lines:
            lines[n - 1], k = re.subn(rb' precision="[^"]*"', b' precision="' + self.spelling.encode() + b'"',
                                      lines[n - 1], count=1)
            assert k == 1, (str(self), n)
        dst = folder / self.source.path.name
        dst.write_bytes(b"".join(lines))
        shutil.copyfile(self.source.path.with_suffix(".bin"), dst.with_suffix(".bin"))
        return dst


def edits(source: Source, rng: random.Random, ports: int, spellings=SPELLINGS + REFUSED, modes=MODES):
    """For ``ports`` ports picked at random (output ports, or input ports with a producer), in each mode that
    fits, an edit to every spelling of another type or none."""
    model = source.model
    outs = [(layer, p) for layer in model.layers.values() for p in layer.outputs
            if p.precision is not None and (layer.id, p.id) in source.own]
    ins = [(layer, p) for layer in model.layers.values() for p in layer.inputs
           if p.precision is not None and p.source is not None and (p.source.layer.id, p.source.id) in source.own]
    modes = [m for m in modes if (ins if m == "input" else outs)]  # old IR: input ports without a precision
    for _ in range(ports if modes else 0):
        mode = rng.choice(modes)
        pool = ins if mode == "input" else outs
        layer, port = rng.choice(pool)
        lines = [port.line]
        if mode == "edge":
            lines += [p.line for _, p in model.consumers(layer.id, port.id) if p.precision == port.precision]
        if len(set(lines)) != len(lines):
            continue  # two ports on one line: not one attribute each
        for s in spellings:
            if s != port.precision:
                yield Edit(source, mode, layer, port, s, lines)


@dataclass
class Verdict:
    edit: Edit
    refused: bool
    lie: bool
    ok: bool
    why: str = ""


def judge(edit: Edit, folder: Path) -> Verdict:
    import openvino as ov

    path = edit.write(folder)
    try:
        ov.Core().read_model(str(path))
        refused = False
    except RuntimeError:
        refused = True
    allowed = edit.allowed()
    lie = refused or from_precision(edit.spelling) not in (allowed or ())
    result = check_file(str(path))
    findings = result.findings
    after = Counter((f.code, f.layer.id if f.layer else None) for f in findings)
    lid = edit.layer.id
    added = after - edit.source.base
    gone = edit.source.base - after
    why = []
    if any(code == "IR900" for code, _ in after):
        why.append("IR900")
    # a refused layer in a shape subgraph leaves the Reshapes it feeds not verified (an info naming the refusal),
    # and what the file's original findings said of the model it no longer is (an IR503 pin) goes with it
    elsewhere = [k for k in (added + gone) if k[1] != lid
                 and not (refused and ((k[0] == "IR109" and k in added) or k in gone))]
    if elsewhere:
        why.append(f"findings elsewhere {sorted(elsewhere, key=str)}")
    about = f"port {edit.port.id} declares precision"
    on_it = {f.code for f in findings if f.layer is not None and f.layer.id == lid
             and ((f.code, lid) in added or (f.code == "IR307" and about in f.message))}
    if refused:
        if not any(f.severity == "error" and f.layer is not None and f.layer.id == lid for f in findings):
            why.append("read_model refuses it: no error on the layer")
    elif lie:
        if "IR307" not in on_it:
            why.append("a lie: no IR307 on the layer")
        if edit.mode != "input" and any(r.layer.id == lid and r.status.value == "ok"
                                        for r in (*result.layers, *result.flagged)):
            why.append("a lie: the layer's verdict says ok")
        if any(f.severity == "error" for f in findings if (f.code, f.layer.id if f.layer else None) in added):
            why.append(f"an error for a warning: {sorted(added)}")
        left = unfixed(result, edit, allowed) if allowed else None
        if left is not None:
            why.append(f"--fix leaves {left}")
    elif added or "IR307" in on_it:
        why.append(f"no lie, yet {sorted(added) or 'IR307'}")
    return Verdict(edit, refused, lie, not why, "; ".join(why))


def unfixed(result, edit: Edit, allowed: set) -> str | None:
    """What ``--fix`` leaves of a lie: the first edited line whose precision it does not rewrite to a spelling of a
    type the port may declare (None: every one)."""
    outcome = fix_file(result, write=False, skip=lambda lid: False)
    if outcome.error:
        return f"an error: {outcome.error}"
    lines = outcome.new_bytes.splitlines()
    for n in edit.lines:
        m = re.search(rb' precision="([^"]*)"', lines[n - 1])
        if m is None or from_precision(m.group(1).decode()) not in allowed:
            return f"line {n}: {lines[n - 1].strip().decode(errors='replace')}"
    return None
