"""Generated Reshapes on dynamic inputs, judged by openvino: which pin a dynamic dim (IR503) and which the CPU plugin
fails on while ``read_model`` reads them (IR4xx), for ``scripts/pins.py`` (hundreds, with figures) and the seeded
subsets of ``tests/checks/test_joint_pins.py`` and ``tests/checks/test_runtime_rules.py``.

* :func:`generate` - one random case (a :class:`Spec`): an input of rank 2 to 4 with dynamic dims at various
  positions, a pattern mixing Const values, special zeros, a -1, dims of the input's ShapeOf (Gather) and their
  quotients (Divide), joined by a Concat where any is computed, special_zero true or false.
* :func:`save` - the model (x -> Relu -> Reshape 'pin' -> Relu), None where OpenVINO refuses to build it.
* :func:`truth` - OpenVINO's shape inference of the case built at every assignment of a grid of the dynamic dims
  (a case holds there where OpenVINO builds it and the Reshape's static volumes agree, the spec's rule) and, in a
  child process (:func:`cpu_runs`), the CPU plugin's inference of the dynamic model at a subset of them (it runs
  where no exception is raised and the output holds as many elements as the input).
* :func:`judge` - irreshape's findings on the case against that truth.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from math import prod
from pathlib import Path

GRID = tuple(range(1, 25))  # the values a dynamic dim takes alone (the others at BASE)
BASE = (1, 2, 3, 6)  # the values of the other dynamic dims while one varies
CPU_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 12, 16)  # the values inferred on the CPU plugin (one dim varying, others at 2)
STATIC = (2, 3, 4, 6, 8)


@dataclass(frozen=True)
class Spec:
    """A case: the input's dims (-1 dynamic), the pattern's pieces, special_zero. A piece is ("c", v) a Const value,
    ("m",) -1, ("z",) 0, ("g", i) dim i of the input's ShapeOf, ("d", i, k) that dim divided by k."""

    shape: tuple[int, ...]
    pieces: tuple[tuple, ...]
    special_zero: bool

    def __str__(self) -> str:
        def one(p):
            return {"c": lambda: str(p[1]), "m": lambda: "-1", "z": lambda: "0", "g": lambda: f"d{p[1]}",
                    "d": lambda: f"d{p[1]}/{p[2]}"}[p[0]]()
        shape = ",".join("?" if d < 0 else str(d) for d in self.shape)
        return f"[{shape}] by [{','.join(map(one, self.pieces))}] special_zero={str(self.special_zero).lower()}"


def generate(rng: random.Random) -> Spec:
    rank = rng.randint(2, 4)
    shape = [rng.choice(STATIC) for _ in range(rank)]
    for i in rng.sample(range(rank), rng.choice([1, 1, 1, 2])):
        shape[i] = -1
    sz = rng.random() < 0.5
    n = rng.randint(1, 4)
    statics = [d for d in shape if d > 0]
    pieces: list[tuple] = []
    minus = False
    for _ in range(n):
        r = rng.random()
        if r < 0.15 and not minus:
            pieces.append(("m",))
            minus = True
        elif r < 0.35 and sz:
            pieces.append(("z",))
        elif r < 0.5:
            pieces.append(("g", rng.randrange(rank)))
        elif r < 0.55:
            pieces.append(("d", rng.randrange(rank), rng.choice([2, 3])))
        else:  # a Const: a static dim of the input, a product of two, a divisor of one, or a small number
            choices = [rng.choice(statics)] if statics else []
            if len(statics) > 1:
                choices.append(prod(rng.sample(statics, 2)))
            choices += [rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 12])]
            pieces.append(("c", rng.choice(choices)))
    return Spec(tuple(shape), tuple(pieces), sz)


def _model(spec: Spec):
    import numpy as np
    import openvino as ov
    from openvino import opset13 as ops

    def c(values):
        return ops.constant(np.array(values, np.int64))

    x = ops.parameter(ov.PartialShape(list(spec.shape)), np.float32, name="x")
    if all(p[0] in "cmz" for p in spec.pieces):
        pattern = c([{"c": lambda p: p[1], "m": lambda p: -1, "z": lambda p: 0}[p[0]](p) for p in spec.pieces])
    else:
        shape_of = ops.shape_of(x)
        parts = []
        for p in spec.pieces:
            if p[0] in "cmz":
                parts.append(c([p[1] if p[0] == "c" else -1 if p[0] == "m" else 0]))
            else:
                dim = ops.gather(shape_of, c([p[1]]), c(0))
                parts.append(dim if p[0] == "g" else ops.divide(dim, c([p[2]])))
        pattern = ops.concat(parts, 0)
    pin = ops.reshape(ops.relu(x), pattern, spec.special_zero, name="pin")
    return ov.Model([ops.result(ops.relu(pin))], [x], "case")


def save(spec: Spec, path: Path) -> Path | None:
    """The case's IR at ``path``; None where OpenVINO refuses to build the model (read_model's business)."""
    import openvino as ov

    try:
        model = _model(spec)
    except Exception:  # noqa: BLE001 - refused at construction
        return None
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def assignments(spec: Spec) -> list[dict[int, int]]:
    """The grid: each dynamic dim over GRID, the others at each of BASE."""
    free = [i for i, d in enumerate(spec.shape) if d < 0]
    out = []
    for k in free:
        others = [i for i in free if i != k]
        for base in itertools.product(BASE, repeat=len(others)):
            for v in GRID:
                out.append({k: v, **dict(zip(others, base))})
    return out


def _concrete(spec: Spec, assign: dict[int, int]) -> list[int]:
    return [assign[i] if d < 0 else d for i, d in enumerate(spec.shape)]


@dataclass
class Truth:
    holds: dict[tuple, bool] = field(default_factory=dict)  # concrete shape -> built, and the volumes agree
    accepted: dict[tuple, bool] = field(default_factory=dict)  # concrete shape -> OpenVINO builds it
    cpu: dict[tuple, bool] = field(default_factory=dict)  # concrete shape -> the CPU plugin infers it

    @property
    def pinned(self) -> bool:
        """It holds at some assignments of the dynamic dims and not at others."""
        return len(set(self.holds.values())) == 2

    @property
    def always(self) -> bool:
        return all(self.holds.values())

    @property
    def cpu_fails(self) -> bool:
        """The CPU plugin fails at some assignment."""
        return not all(self.cpu.values())

    @property
    def cpu_only(self) -> bool:
        """The CPU plugin fails where OpenVINO builds every assignment and its volumes agree at each: its shape
        inference finds nothing wrong at any shape, the plugin alone fails (IR4xx's). (Behind a special zero
        OpenVINO builds a Reshape whose volumes disagree: a case that holds at only some assignments is a pin,
        IR503's, whatever the plugin does.)"""
        return self.cpu_fails and self.always


def truth(spec: Spec) -> Truth:
    """The case built at every assignment of the grid, in this process: OpenVINO's shape inference of the graph
    at those static dims, as read_model would infer a file exported at them (``Model.reshape`` would run
    SmartReshape first, which rewrites a 1-D pattern to [-1]: not the model the user has). The CPU plugin's
    part is :func:`cpu_runs`'s."""
    t = Truth()
    for assign in assignments(spec):
        shape = tuple(_concrete(spec, assign))
        if shape in t.holds:
            continue
        try:
            model = _model(Spec(shape, spec.pieces, spec.special_zero))
        except Exception:  # noqa: BLE001 - refused: it does not hold
            t.holds[shape] = t.accepted[shape] = False
            continue
        t.accepted[shape] = True
        pin = next(op for op in model.get_ops() if op.get_friendly_name() == "pin")
        src, dst = pin.get_input_partial_shape(0), pin.get_output_partial_shape(0)
        t.holds[shape] = src.is_static and dst.is_static and prod(src.to_shape()) == prod(dst.to_shape())
    return t


def cpu_shapes(spec: Spec) -> list[list[int]]:
    free = [i for i, d in enumerate(spec.shape) if d < 0]
    out = []
    for k in free:
        for v in CPU_VALUES:
            shape = _concrete(spec, {**dict.fromkeys(free, 2), k: v})
            if shape not in out:
                out.append(shape)
    return out


_RUNNER = r"""
import json, sys
import numpy as np
import openvino as ov

core = ov.Core()
for case in json.loads(sys.stdin.read()):
    out = {"xml": case["xml"], "runs": []}
    try:
        compiled = core.compile_model(core.read_model(case["xml"]), "CPU")
    except Exception as e:
        out["compile"] = str(e)
        out["runs"] = [False] * len(case["shapes"])
    else:
        for shape in case["shapes"]:
            try:
                result = compiled.create_infer_request().infer([np.ones(shape, np.float32)])
                # a Reshape whose pattern is computed runs unchecked: an output of another element count has read
                # (or written) memory it does not own
                out["runs"].append(int(np.prod(list(result.values())[0].shape)) == int(np.prod(shape)))
            except Exception:
                out["runs"].append(False)
    print(json.dumps(out), flush=True)
"""


def cpu_runs(cases: list[tuple[Path, list[list[int]]]], timeout: float = 900) -> dict[str, list[bool] | None]:
    """Per IR path: whether the CPU plugin infers each shape (compiled once, dynamic), in child processes; a case
    that kills its child gets None and the others go on in a new one."""
    todo = [{"xml": str(p), "shapes": shapes} for p, shapes in cases]
    done: dict[str, list[bool] | None] = {}
    while todo:
        proc = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(todo), capture_output=True,
                              text=True, timeout=timeout, env={**os.environ, "OMP_NUM_THREADS": "1"})
        lines = [json.loads(ln) for ln in proc.stdout.splitlines() if ln.startswith("{")]
        for line in lines:
            done[line["xml"]] = line["runs"]
        todo = todo[len(lines):]
        if todo:  # the next case killed the child
            done[todo[0]["xml"]] = None
            todo = todo[1:]
    return done


@dataclass
class Judged:
    spec: Spec
    truth: Truth
    codes: set[str]  # the codes of irreshape's findings on the Reshape 'pin'
    warned: bool  # a warning or an error on it

    @property
    def pin_found(self) -> bool:
        return "IR503" in self.codes

    @property
    def cpu_warned(self) -> bool:
        return any(c.startswith("IR4") for c in self.codes)

    @property
    def unfair(self) -> list[str]:
        """The pin and CPU-plugin warnings on a control (a case that holds and runs at every assignment)."""
        if not self.truth.always or (self.truth.cpu and not all(self.truth.cpu.values())):
            return []
        return sorted(c for c in self.codes if c == "IR503" or c.startswith("IR4"))


def judge(spec: Spec, t: Truth, path: Path) -> Judged:
    from irreshape.checks import check_file

    findings = [f for f in check_file(str(path)).findings if f.layer is not None and f.layer.name == "pin"]
    return Judged(spec, t, {f.code for f in findings}, any(f.severity in ("warning", "error") for f in findings))


def cases(n: int, seed: int, folder: Path, cpu: bool = True) -> list[Judged]:
    """``n`` generated cases that OpenVINO builds, each judged by OpenVINO (its shape inference over the grid and,
    with ``cpu``, the CPU plugin) and by irreshape."""
    rng = random.Random(seed)
    made: list[tuple[Spec, Path, Truth]] = []
    seen: set[Spec] = set()
    while len(made) < n:
        spec = generate(rng)
        if spec in seen:
            continue
        seen.add(spec)
        path = save(spec, folder / f"case{len(made)}.xml")
        if path is None:
            continue
        made.append((spec, path, truth(spec)))
    runs = cpu_runs([(path, cpu_shapes(spec)) for spec, path, _ in made]) if cpu else {}
    out = []
    for spec, path, t in made:
        got = runs.get(str(path))
        if got is not None:
            t.cpu = {tuple(s): ok for s, ok in zip(cpu_shapes(spec), got)}
        out.append(judge(spec, t, path))
    return out
