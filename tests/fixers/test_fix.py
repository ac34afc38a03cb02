"""`--fix` / `--diff` (irreshape.fix): IR saved by OpenVINO, corrupted in its declared dims and ranks,
must come back byte for byte as OpenVINO wrote it, with a diff of nothing but `<dim>` lines."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import openvino as ov
import pytest
from openvino import opset13 as ops

from irreshape import fixers as fix
from irreshape.checks import check_file
from irreshape.frontends.openvino import parse

DATA = Path(__file__).resolve().parents[1] / "data" / "models"
DIM_LINE = re.compile(r"^[+-]\s*<dim>-?\d+</dim>\s*$")


# -- models written by OpenVINO --------------------------------------------------------------------
def _c(values, dtype=np.int64):
    return ops.constant(np.array(values, dtype=dtype))


def _static_chain() -> ov.Model:
    """Reshape → Relu, Reshape → Result (two consumers), and a Reshape feeding a Reshape."""
    x = ops.parameter([2, 3, 4], np.float32, name="x")
    r1 = ops.reshape(x, _c([0, -1]), True)  # [2,12]
    r2 = ops.reshape(ops.relu(r1), _c([-1]), False)  # [24]
    r3 = ops.reshape(r2, _c([4, 3, 2], np.int32), False)  # [4,3,2]
    r4 = ops.reshape(r3, _c([2, 3, 2, 2]), False)  # [2,3,2,2]
    return ov.Model([r4.output(0), r1.output(0)], [x], "static_chain")


def _dynamic() -> ov.Model:
    """Dynamic and interval dims: OpenVINO writes them as -1."""
    x = ops.parameter(ov.PartialShape([-1, 3, 4]), np.float32, name="x")
    y = ops.parameter(ov.PartialShape([ov.Dimension(1, 10), 6]), np.float32, name="y")
    r1 = ops.reshape(x, _c([0, 12]), True)  # [?,12]
    r2 = ops.reshape(ops.relu(r1), _c([0, 2, -1]), True)  # [?,2,6]
    r3 = ops.reshape(y, _c([-1, 3]), False)  # [2..20,3]
    return ov.Model([r2.output(0), r3.output(0)], [x, y], "dynamic")


MODELS = {"static_chain": _static_chain, "dynamic": _dynamic}


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict[str, Path]:
    """Each model saved once by OpenVINO; tests copy them."""
    folder = tmp_path_factory.mktemp("saved")
    out = {}
    for name, build in MODELS.items():
        ov.save_model(build(), str(folder / f"{name}.xml"))
        out[name] = folder / f"{name}.xml"
    return out


def _copy(xml: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(xml, folder / xml.name)
    shutil.copy(xml.with_suffix(".bin"), folder / xml.with_suffix(".bin").name)
    return folder / xml.name


# -- corrupting declared dims ---------------------------------------------------------------------
MODES = ("value", "drop", "add", "dynamic")


def _corrupt_port(lines: list[list[bytes]], dim_lines: tuple[int, ...], mode: str) -> None:
    """Lie about one port, in place: ``lines[i]`` becomes a list of replacement lines."""
    idx = [n - 1 for n in dim_lines]
    values = [int(re.search(rb"-?\d+", lines[i][0]).group()) for i in idx]
    static = [k for k, v in enumerate(values) if v >= 0]
    if mode == "value":
        k = static[0]
        lines[idx[k]] = [lines[idx[k]][0].replace(b">%d<" % values[k], b">%d<" % (values[k] + 7))]
    elif mode == "dynamic":
        k = static[-1]
        lines[idx[k]] = [lines[idx[k]][0].replace(b">%d<" % values[k], b">-1<")]
    elif mode == "drop":
        lines[idx[-1]] = []
    else:  # add
        lines[idx[-1]] = lines[idx[-1]] + [lines[idx[-1]][0].replace(b">%d<" % values[-1], b">5<")]


def _mode_for(values: tuple[int, ...], wanted: str) -> str:
    if wanted in ("value", "dynamic") and not any(v >= 0 for v in values):
        return "add"
    if wanted == "drop" and len(values) < 2:
        return "add"
    return wanted


def _fed_by(model, layer, ids: set[str]) -> bool:
    """Whether a layer in ``ids`` is upstream of ``layer``."""
    stack, seen = [layer], set()
    while stack:
        for port in stack.pop().inputs:
            src = model.producer(port.layer.id, port.id) if port.layer is not None else None
            if src is None or src[0].id in seen:
                continue
            if src[0].id in ids:
                return True
            seen.add(src[0].id)
            stack.append(src[0])
    return False


def corrupt(path: Path, mode_of=lambda i: MODES[i % len(MODES)]) -> list[str]:
    """Corrupt every checked-ok Reshape output, and every consumer input on that edge, in place; not a Reshape
    downstream of one already corrupted (a layer that agrees with a liar upstream is not blamed).

    Returns the ids of the corrupted layers.
    """
    result = check_file(str(path))
    model = parse(str(path))
    data = path.read_bytes()
    lines = [[line] for line in data.splitlines(keepends=True)]
    done = []
    for i, res in enumerate(r for r in result.layers if r.status == "ok" and r.expected and r.layer.kind == "reshape"):
        layer = model.layers[res.layer.id]
        out = layer.outputs[0]
        if not out.dim_lines:
            continue
        if _fed_by(model, layer, set(done)):
            continue
        mode = _mode_for(out.dims, mode_of(i))
        for port in [out] + [p for _, p in model.consumers(layer.id, out.id)]:
            _corrupt_port(lines, port.dim_lines, mode)
        done.append(layer.id)
    path.write_bytes(b"".join(b"".join(chunk) for chunk in lines))
    return done


# -- oracles -------------------------------------------------------------------------------------
def ov_shapes(path: Path) -> dict[str, list[str]]:
    model = ov.Core().read_model(str(path))
    return {op.get_friendly_name(): [str(o.get_partial_shape()) for o in op.outputs()] for op in model.get_ops()}


def statuses(path: Path) -> dict[str, str]:
    return {r.layer.id: r.status for r in check_file(str(path)).layers}


def changed_lines(diff: str) -> list[str]:
    return [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def gnu_diff(path: Path, new: bytes) -> str:
    """GNU ``diff -u`` of the file and ``new``, labelled like ours (skips without `diff`)."""
    if shutil.which("diff") is None:
        pytest.skip("no diff(1)")
    other = path.with_name("new-" + path.name)
    other.write_bytes(new)
    try:
        return subprocess.run(["diff", "-u", "--label", str(path), "--label", str(path), str(path), str(other)],
                              capture_output=True, text=True, check=False).stdout
    finally:
        other.unlink()


def _lines(text: str) -> list[str]:
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def apply_diff(diff: str, old: str) -> str:
    """Apply a unified diff (as `patch` would), checking every context and removed line."""
    src, out, pos = _lines(old), [], 0
    lines = _lines(diff)
    assert lines[0].startswith("--- ") and lines[1].startswith("+++ ")
    for line in lines[2:]:
        if line.startswith("@@"):
            a, n = re.match(r"@@ -(\d+)(?:,(\d+))? ", line).groups()
            start = int(a) - 1 if n != "0" else int(a)
            assert start >= pos
            out += src[pos:start]
            pos = start
        elif line[0] in " -":
            assert src[pos] == line[1:], (pos, line)
            pos += 1
            if line[0] == " ":
                out.append(line[1:])
        else:
            assert line[0] == "+"
            out.append(line[1:])
    return "".join(out + src[pos:])


def roundtrip(xml: Path, tmp: Path, mode_of=lambda i: MODES[i % len(MODES)]) -> None:
    """Copy, corrupt, fix; the fix must restore OpenVINO's own bytes and diff only `<dim>` lines."""
    path = _copy(xml, tmp)
    original = path.read_bytes()
    bin_before = path.with_suffix(".bin").read_bytes()
    corrupted_ids = corrupt(path, mode_of)
    assert corrupted_ids, f"{xml.name}: nothing to corrupt"
    corrupted = path.read_bytes()
    st = statuses(path)
    assert {st[i] for i in corrupted_ids} == {"mismatch"}

    outcome = fix.fix_file(check_file(str(path)), write=True)

    assert outcome.error is None and outcome.refused == []
    assert outcome.changed and outcome.written
    assert sorted(r.id for r in outcome.fixed) == sorted(corrupted_ids)
    fixed = path.read_bytes()
    assert fixed == outcome.new_bytes
    assert fixed == original, f"{xml.name}: not what OpenVINO wrote"
    assert "mismatch" not in statuses(path).values()
    assert ov_shapes(path) == ov_shapes(xml)
    assert path.with_suffix(".bin").read_bytes() == bin_before
    # the diff touches nothing but <dim> lines, and it is the whole change
    ours = changed_lines(outcome.diff_text)
    assert ours and all(DIM_LINE.match(line) for line in ours), ours
    assert apply_diff(outcome.diff_text, corrupted.decode()) == fixed.decode()


# -- round trips ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_roundtrip_saved_by_openvino(saved, tmp_path, name, mode):
    roundtrip(saved[name], tmp_path, lambda i: mode)


DATA_MODELS = sorted(p.name for p in DATA.glob("*.xml")
                     if any(r.status == "ok" and r.expected for r in check_file(str(p)).layers))


@pytest.mark.parametrize("name", DATA_MODELS)
def test_roundtrip_data_models(tmp_path, name):
    roundtrip(DATA / name, tmp_path)


def test_data_models_cover_enough():
    assert len(DATA_MODELS) >= 10


def test_roundtrip_crlf(saved, tmp_path):
    crlf = _copy(saved["static_chain"], tmp_path / "orig")
    crlf.write_bytes(saved["static_chain"].read_bytes().replace(b"\n", b"\r\n"))
    roundtrip(crlf, tmp_path / "work")
    fixed = (tmp_path / "work" / crlf.name).read_bytes()
    assert b"\r\n" in fixed and fixed.count(b"\n") == fixed.count(b"\r\n")


# -- idempotence, diff, atomicity ---------------------------------------------------------------
@pytest.fixture
def corrupted(saved, tmp_path) -> Path:
    path = _copy(saved["static_chain"], tmp_path)
    corrupt(path, lambda i: "add")
    return path


def test_result_without_model_is_reparsed(corrupted, saved):
    result = check_file(str(corrupted))
    result.model = None  # as results come back from --jobs workers

    outcome = fix.fix_file(result, write=True)

    assert outcome.written and corrupted.read_bytes() == saved["static_chain"].read_bytes()


def test_second_fix_changes_nothing(corrupted):
    assert fix.fix_file(check_file(str(corrupted)), write=True).written
    once = corrupted.read_bytes()
    again = fix.fix_file(check_file(str(corrupted)), write=True)
    assert (again.changed, again.written, again.diff_text, again.fixed) == (False, False, "", [])
    assert corrupted.read_bytes() == once == again.new_bytes


def test_diff_only_shows_what_fix_would_do(saved, tmp_path):
    path = _copy(saved["static_chain"], tmp_path)
    text = path.read_text()
    # Reshape [2,12] -> its two consumers: declare [2,13] on the output and [2,14] on the Relu input
    rid = next(r.layer.id for r in check_file(str(path)).layers if r.declared == [2, 12])
    model = parse(str(path))
    out = model.layers[rid].outputs[0]
    lines = text.splitlines(True)
    lines[out.dim_lines[1] - 1] = lines[out.dim_lines[1] - 1].replace("12", "13")
    relu = next(p for c, p in model.consumers(rid, out.id) if c.type.lower() == "relu")
    lines[relu.dim_lines[1] - 1] = lines[relu.dim_lines[1] - 1].replace("12", "14")
    path.write_text("".join(lines))
    before = path.read_bytes()

    outcome = fix.fix_file(check_file(str(path)), write=False)

    assert path.read_bytes() == before and not outcome.written
    assert outcome.changed and outcome.new_bytes == saved["static_chain"].read_bytes()

    def hunk(n: int, old: str) -> str:  # one changed line n (1-based), 3 lines of context
        return (f"@@ -{n - 3},7 +{n - 3},7 @@\n" + "".join(" " + s for s in lines[n - 4:n - 1])
                + f"-\t\t\t\t\t<dim>{old}</dim>\n+\t\t\t\t\t<dim>12</dim>\n"
                + "".join(" " + s for s in lines[n:n + 3]))

    changes = sorted([(out.dim_lines[1], "13"), (relu.dim_lines[1], "14")])
    assert changes[1][0] - changes[0][0] > 7  # two hunks
    p = str(path)
    assert outcome.diff_text == f"--- {p}\n+++ {p}\n" + "".join(hunk(n, old) for n, old in changes)
    assert outcome.diff_text == gnu_diff(path, outcome.new_bytes)


@pytest.mark.parametrize("fail_at", ["fsync", "chmod", "replace"])
def test_failed_write_leaves_the_original(corrupted, monkeypatch, fail_at):
    before = corrupted.read_bytes()
    files = sorted(os.listdir(corrupted.parent))
    result = check_file(str(corrupted))

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fix.os, fail_at, boom)  # after the temporary file is written
    outcome = fix.fix_file(result, write=True)
    monkeypatch.undo()

    assert outcome.changed and not outcome.written
    assert outcome.error == "cannot write: No space left on device"
    assert corrupted.read_bytes() == before
    assert sorted(os.listdir(corrupted.parent)) == files


def test_keeps_mode_and_bin_follows_symlink(corrupted, saved, tmp_path):
    os.chmod(corrupted, 0o640)
    bin_path = corrupted.with_suffix(".bin")
    bin_stat = os.stat(bin_path)
    link = tmp_path / "link.xml"
    link.symlink_to(corrupted)
    (tmp_path / "link.bin").symlink_to(bin_path)

    assert fix.fix_file(check_file(str(link)), write=True).written

    assert link.is_symlink() and corrupted.read_bytes() == saved["static_chain"].read_bytes()
    assert oct(os.stat(corrupted).st_mode & 0o777) == oct(0o640)
    assert os.stat(bin_path).st_mtime_ns == bin_stat.st_mtime_ns
    assert sorted(os.listdir(tmp_path)) == ["link.bin", "link.xml", "static_chain.bin", "static_chain.xml"]


# -- what is not fixed ----------------------------------------------------------------------------
def test_suppressed_layers_are_skipped(corrupted):
    result = check_file(str(corrupted))
    ids = [r.layer.id for r in result.layers if r.status == "mismatch"]
    first, rest = ids[0], set(ids[1:])
    for skip in ({first}, lambda lid: lid == first):
        outcome = fix.fix_file(result, write=False, skip=skip)
        assert {r.id for r in outcome.fixed} == rest
    corrupted.write_bytes(fix.fix_file(result, write=False, skip={first}).new_bytes)
    assert {i for i, s in statuses(corrupted).items() if s == "mismatch"} == {first}


def test_invalid_and_unverified_are_never_fixed(tmp_path):
    x = ops.parameter([2, 3, 4], np.float32, name="x")
    bad = ops.reshape(x, _c([6, 4]), False)  # the pattern edited below to [5,4]: read_model refuses it, invalid
    y = ops.parameter([2, 3], np.float32, name="y")
    s = ops.parameter([2], np.int64, name="s")
    unknown = ops.reshape(y, s, False)  # pattern from a Parameter: unverified
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([bad.output(0), unknown.output(0)], [x, y, s], "m"), str(path))
    weights = path.with_suffix(".bin")
    data = weights.read_bytes()
    pattern = np.array([6, 4], np.int64).tobytes()
    assert data.count(pattern) == 1
    weights.write_bytes(data.replace(pattern, np.array([5, 4], np.int64).tobytes()))
    with pytest.raises(Exception):
        ov.Core().read_model(str(path))
    text = path.read_text()
    text = text.replace("<dim>6</dim>", "<dim>7</dim>")  # lie on the invalid one, too
    path.write_text(text)
    result = check_file(str(path))
    assert sorted(r.status for r in result.layers) == ["invalid", "unverified"]

    outcome = fix.fix_file(result, write=True)

    assert (outcome.changed, outcome.fixed, outcome.refused) == (False, [], [])
    assert path.read_text() == text


def test_a_volume_the_spec_forbids_is_fixed_to_what_read_model_infers(tmp_path):
    """IR104: read_model reads `[2,3,4]` by `[0,5]` (special_zero) as [2,5]; a layer declaring [2,6] there is a
    mismatch, not invalid, and --fix writes [2,5] (the IR104 stays)."""
    x = ops.parameter([2, 3, 4], np.float32, name="x")
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([ops.reshape(x, _c([0, 5]), True).output(0)], [x], "m"), str(path))
    path.write_text(path.read_text().replace("<dim>5</dim>", "<dim>6</dim>"))
    ov.Core().read_model(str(path))  # it loads
    result = check_file(str(path))
    assert [r.status for r in result.layers] == ["mismatch"]
    assert {f.code for f in result.findings} == {"IR101", "IR104"}
    assert fix.fix_file(result, write=True).changed
    assert [r.status for r in check_file(str(path)).layers] == ["ok"]
    assert {f.code for f in check_file(str(path)).findings} == {"IR104"}


def test_mismatch_with_unknown_dims_is_refused(tmp_path):
    y = ops.parameter([2, 3], np.float32, name="y")
    s = ops.parameter([2], np.int64, name="s")
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([ops.reshape(y, s, False).output(0)], [y, s], "m"), str(path))
    model = parse(str(path))
    out = next(layer for layer in model.layers.values() if layer.type == "Reshape").outputs[0]
    lines = path.read_bytes().splitlines(True)
    del lines[out.dim_lines[-1] - 1]  # rank 1, the pattern has 2 elements: a mismatch, dims unknown
    path.write_bytes(b"".join(lines))
    before = path.read_bytes()

    outcome = fix.fix_file(check_file(str(path)), write=True)

    assert [r.reason for r in outcome.refused] == ["the expected dims are not known"]
    assert not outcome.changed and path.read_bytes() == before


def test_stale_lines_are_refused(corrupted):
    result = check_file(str(corrupted))
    before = corrupted.read_bytes()
    edited = before.replace(b"<layers>", b"<!-- added after the check -->\n\t<layers>", 1)
    corrupted.write_bytes(edited)

    outcome = fix.fix_file(result, write=True)

    assert not outcome.changed and corrupted.read_bytes() == edited
    assert len(outcome.refused) == len([r for r in result.layers if r.status == "mismatch"])
    assert all(re.fullmatch(r"line \d+ does not hold just <dim>-?\d+</dim> \(.*port.*\); "
                            r"was the file changed since it was checked\?", r.reason) for r in outcome.refused)


def test_dims_on_one_line_are_refused(saved, tmp_path):
    path = _copy(saved["static_chain"], tmp_path)
    rid, name = next((r.layer.id, r.layer.name) for r in check_file(str(path)).layers if r.declared == [24])
    lines = path.read_bytes().splitlines(True)
    n = parse(str(path)).layers[rid].outputs[0].dim_lines[0]
    lines[n - 1] = lines[n - 1].replace(b"<dim>24</dim>", b"<dim>4</dim><dim>6</dim>")
    path.write_bytes(b"".join(lines))
    result = check_file(str(path))
    assert {r.layer.id: r.status for r in result.layers}[rid] == "mismatch"

    outcome = fix.fix_file(result, write=False)

    assert [(r.layer.id, r.reason) for r in outcome.refused] == [
        (rid, f"output port 2 of {name!r} does not have one <dim> per line")]
    assert not outcome.changed


def test_comment_and_rank_change_keep_their_place(saved, tmp_path):
    """Added dims go right after the port's last `<dim>`, before a comment; the comment stays."""
    path = _copy(saved["static_chain"], tmp_path)
    rid = next(r.layer.id for r in check_file(str(path)).layers if r.declared == [2, 12])
    out = parse(str(path)).layers[rid].outputs[0]
    lines = path.read_bytes().splitlines(True)
    n = out.dim_lines[-1]
    comment = b"\t\t\t\t\t<!-- irreshape: noqa IR105 -->\n"
    want = lines[:n] + [comment] + lines[n:]
    lines = lines[:n - 1] + [comment] + lines[n:]  # drop the last dim: rank 1
    path.write_bytes(b"".join(lines))

    outcome = fix.fix_file(check_file(str(path)), write=True)

    assert path.read_bytes() == b"".join(want)
    assert changed_lines(outcome.diff_text) == ["+\t\t\t\t\t<dim>12</dim>"]
    assert re.search(r"^@@ -\d+,6 \+\d+,7 @@$", outcome.diff_text, re.M)
    path.write_bytes(b"".join(lines))
    assert outcome.diff_text == gnu_diff(path, outcome.new_bytes)


def test_a_scalar_declared_output_is_restored_to_rank_1(tmp_path):
    """A port written without dims (`<port ... />`, rank 0) where the Reshape gives `[1]`: --fix opens the tag
    and writes the dim in the file's own layout, on the output port and on its consumer's input port."""
    import re as _re

    import numpy as np
    import openvino as ov
    from openvino import opset13 as o

    x = o.parameter([1, 1], np.float32, name="x")
    r = o.reshape(x, o.constant(np.array([1], np.int64)), False)
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([o.relu(r)], [x]), str(path), compress_to_fp16=False)
    original = path.read_bytes()
    reshape = next(la for la in parse(str(path)).layers.values() if la.kind == "reshape")
    out = reshape.outputs[0]
    lines = original.split(b"\n")
    # the Reshape's output port and the ReLU's input port, each made `<port ... />` without dims
    for port_line in (out.line, *(p.line for _, p in parse(str(path)).consumers(reshape.id, out.id))):
        lines[port_line - 1] = _re.sub(rb">$", b" />", lines[port_line - 1])
        lines[port_line] = lines[port_line + 1] = b"\x00"
    path.write_bytes(b"\n".join(line for line in lines if line != b"\x00"))
    result = check_file(str(path))
    assert {f.code for f in result.findings} >= {"IR102"}
    outcome = fix.fix_file(result, write=True)
    assert outcome.error is None and outcome.refused == [] and outcome.written
    assert path.read_bytes() == original


@pytest.mark.parametrize("form", ["two lines", "self-closed", "self-closed, spaced"])
def test_an_empty_port_element_is_restored(tmp_path, form):
    """An I64 port written with no <dim> where OpenVINO infers `[1]` (an Unsqueeze of a scalar, the pattern of a
    Reshape): opened and closed on two lines, or self-closed; --fix restores its dim, as read_model has it."""
    x = ops.parameter([2, 12], np.float32, name="x")
    pattern = ops.unsqueeze(ops.constant(np.int64(-1)), ops.constant(np.array([0], np.int64)))
    pattern.set_friendly_name("pattern")
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([ops.reshape(x, pattern, False)], [x]), str(path), compress_to_fp16=False)
    original = path.read_bytes()
    out = next(la for la in parse(str(path)).layers.values() if la.name == "pattern").outputs[0]
    lines = original.split(b"\n")
    assert (out.id, lines[out.line - 1].strip(), out.dims) == ("2", b'<port id="2" precision="I64">', (1,))
    tag = lines[out.line - 1].rstrip(b">")
    indent = tag[:len(tag) - len(tag.lstrip())]
    lines[out.line - 1:out.line + 2] = {"two lines": [tag + b">", indent + b"</port>"], "self-closed": [tag + b"/>"],
                                        "self-closed, spaced": [tag + b" />"]}[form]
    path.write_bytes(b"\n".join(lines))
    result = check_file(str(path))
    assert {f.code for f in result.findings} == {"IR102"}
    outcome = fix.fix_file(result, write=True)
    assert outcome.error is None and outcome.refused == [] and outcome.written
    if form == "two lines":
        assert path.read_bytes() == original
    assert check_file(str(path)).findings == []
    (node,) = [n for n in ov.Core().read_model(str(path)).get_ops() if n.get_friendly_name() == "pattern"]
    fixed = next(la for la in parse(str(path)).layers.values() if la.name == "pattern").outputs[0]
    assert str(node.get_output_partial_shape(0)) == "[%s]" % ",".join(map(str, fixed.dims)) == "[1]"
