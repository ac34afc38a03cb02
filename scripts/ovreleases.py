"""Each openvino release's ``read_model``, run in that release's own venv: shared by scripts/make_releases.py (the
probe) and scripts/target_harness.py (the differential harness).

* :data:`RELEASES`: every release the package index serves for this Python (oldest first).
* :func:`venv`: the release's python (``$IRRESHAPE_VENVS/<release>``, default /work/ov-venvs/<release>), the venv
  made when missing (``python -m venv`` + ``pip install openvino==R``, ``numpy<2`` for 2023.x).
* :func:`read_all`: one python process of that release reads many files (restarted past a crash); for each file
  its message (None: read) and, where read, the op versions of its layers by friendly name.
* :func:`compile_all`: likewise, each file read, compiled for CPU (``compile_model(m, "CPU")``) and, where every
  input is static, run once on zeros: what each stage says (a crash of the process is said "crash", a file that
  takes longer than ``timeout`` seconds "timeout").
* :func:`words`: the release's own words of a message (the "Exception from file:line" lines dropped).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

RELEASES = ("2023.0.0", "2023.0.1", "2023.0.2", "2023.1.0", "2023.2.0", "2023.3.0", "2024.0.0", "2024.1.0",
            "2024.2.0", "2024.3.0", "2024.4.0", "2024.5.0", "2024.6.0", "2025.0.0", "2025.1.0", "2025.2.0",
            "2025.3.0", "2025.4.0", "2025.4.1", "2026.0.0", "2026.1.0", "2026.2.0", "2026.2.1", "2026.3.0",
            "2026.3.1", "2026.4.0", "2026.4.1")
VENVS = Path(os.environ.get("IRRESHAPE_VENVS", "/work/ov-venvs"))

# run by the release's python: argv = [list of paths (json file), first index, "ops" or ""]
_RUNNER = r"""
import json, sys
try:
    from openvino import Core
except ImportError:
    from openvino.runtime import Core
core = Core()
paths = json.load(open(sys.argv[1]))
ops = sys.argv[3] == "ops"
out = sys.stdout
for i in range(int(sys.argv[2]), len(paths)):
    out.write("S %d\n" % i)
    out.flush()
    try:
        m = core.read_model(paths[i])
    except Exception as e:
        out.write(json.dumps({"i": i, "e": str(e)}) + "\n")
    else:
        got = None
        if ops:
            got = {}
            for op in m.get_ordered_ops():
                t = op.get_type_info()
                got[op.get_friendly_name()] = [t.name, str(t.version_id)]
        out.write(json.dumps({"i": i, "e": None, "ops": got}) + "\n")
        del m
    out.flush()
"""

# run by the release's python: argv = [list of paths (json file), first index, "infer" or "", the inference
# precision hint or "", "fork" or ""]; writes "S i stage" before each stage of each file, then its verdict as a JSON
# line. With "fork" each file is judged in a child forked from this process (openvino imported, no Core made yet):
# a crash or a heap corruption of one compile never touches the next; a child that dies or hangs is said so
# ("crash", "timeout" past the stage's limit, argv[6] a JSON dict of them) and the next file goes on.
_COMPILER = r"""
import json, os, signal, sys, time
import numpy as np
try:
    from openvino import Core
except ImportError:
    from openvino.runtime import Core
paths = json.load(open(sys.argv[1]))
infer = sys.argv[3] == "infer"
config = {"INFERENCE_PRECISION_HINT": sys.argv[4]} if sys.argv[4] else {}
fork = sys.argv[5] == "fork"
limits = json.loads(sys.argv[6])
out = sys.stdout

def judge(i, write):
    core = Core()
    got = {"i": i, "read": None, "compile": None, "infer": None}
    write("S %d read\n" % i)
    try:
        m = core.read_model(paths[i])
    except Exception as e:
        got["read"] = str(e)
        return got
    write("S %d compile\n" % i)
    try:
        c = core.compile_model(m, "CPU", config)
    except Exception as e:
        got["compile"] = str(e)
        got["infer"] = "skipped"
        return got
    if not infer or any(p.get_partial_shape().is_dynamic for p in c.inputs):
        got["infer"] = "skipped"
        return got
    write("S %d infer\n" % i)
    try:
        feed = {}
        for k, p in enumerate(c.inputs):
            t = p.get_element_type()
            if t.get_type_name() == "string":
                got["infer"] = "skipped"
                return got
            feed[k] = np.zeros(list(p.get_shape()), dtype=t.to_dtype())
        c.create_infer_request().infer(feed)
    except Exception as e:
        got["infer"] = str(e)
    return got

def plain(text):
    out.write(text)
    out.flush()

for i in range(int(sys.argv[2]), len(paths)):
    if not fork:
        plain(json.dumps(judge(i, plain)) + "\n")
        continue
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        def to_parent(text):
            os.write(w, text.encode())
        try:
            got = judge(i, to_parent)
            to_parent(json.dumps(got) + "\n")
        finally:
            os._exit(0)
    os.close(w)
    stage, since, buf, got, status = "read", time.monotonic(), b"", None, None
    reader = os.fdopen(r, "rb", buffering=0)
    os.set_blocking(r, False)
    while True:
        try:
            chunk = reader.read(65536)
        except BlockingIOError:
            chunk = None
        if chunk:
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                text = line.decode()
                if text.startswith("S "):
                    stage, since = text.split()[2], time.monotonic()
                    plain(text + "\n")
                elif text:
                    got = json.loads(text)
            continue
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            rest = reader.read() or b""
            for line in (buf + rest).split(b"\n"):
                if line.strip() and not line.startswith(b"S "):
                    got = json.loads(line.decode())
            break
        if time.monotonic() - since > limits.get(stage, 300):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            status = "timeout"
            break
        time.sleep(0.005)
    reader.close()
    if got is None:
        got = {"i": i, "read": None, "compile": None, "infer": None}
        got[stage] = "timeout" if status == "timeout" else "crash"
        for later in ("compile", "infer")[("read", "compile", "infer").index(stage):]:
            if later != stage:
                got[later] = "skipped"
        got["died"] = True
    plain(json.dumps(got) + "\n")
"""

_LOCATION = re.compile(r"^(Exception from |Check '.*' failed at )\S+:\d+:?$|^Converting input model$")


def venv(release: str) -> Path:
    """The release's python, its venv made if missing."""
    d = VENVS / release
    py = d / "bin" / "python"
    if py.exists():
        return py
    subprocess.run([sys.executable, "-m", "venv", str(d)], check=True)
    numpy = "numpy<2" if release.startswith("2023.") else "numpy"
    subprocess.run([str(py), "-m", "pip", "install", "-q", f"openvino=={release}", numpy], check=True)
    return py


def words(message: str | None) -> str | None:
    """The release's own words: the message's lines but the "Exception from file:line" ones and blank ones."""
    if message is None:
        return None
    lines = [x.strip() for x in message.strip().splitlines()]
    kept = [x for x in lines if x and not _LOCATION.match(x)]
    return "\n".join(kept) if kept else message.strip()


def read_all(release: str, paths: list[str], ops: bool = False) -> list[dict]:
    """For each path, the release's verdict: {"e": message or None, "ops": {friendly name: [type, opset]} where
    read and ``ops``}, or {"e": "crash"} where read_model took the process down."""
    got = _drive(venv(release), _RUNNER, paths, ["ops" if ops else ""], {})
    return [{"e": "crash"} if g is None else g for g, _, _ in got]


def compile_all(release: str, paths: list[str], infer: bool = True, timeout: "float | dict[str, float]" = 300.0,
                precision: str = "", isa: str = "", fork: bool = True) -> list[dict]:
    """For each path, what ``release`` says at each stage: {"read", "compile", "infer"}, each None (it passed), the
    release's message, "crash" (the process died in that stage), "timeout" (past ``timeout`` seconds: one for every
    stage, or a dict by stage), or "skipped" (a stage not reached, or an infer of a model with dynamic or string
    inputs). ``precision``: the CPU plugin's inference precision hint ("f32"; "": the machine's default); ``isa``:
    the highest instruction set oneDNN may use (``ONEDNN_MAX_CPU_ISA``). One python process of the release takes
    the files in turn, each judged in a child forked from it (``fork``; a compile that corrupts the heap crashes
    or not depending on what ran before it in the same process: measured); a file whose child died or hung is
    judged again, alone, in a fresh process of the release, and that verdict kept."""
    limits = timeout if isinstance(timeout, dict) else {s: timeout for s in ("read", "compile", "infer")}
    got = _compile_run(release, paths, infer, limits, precision, isa, fork)
    if fork:
        for k, g in enumerate(got):
            if g.pop("died", False):
                got[k] = _compile_run(release, [paths[k]], infer, limits, precision, isa, False)[0]
                got[k].pop("died", None)
    return got


def _compile_run(release: str, paths: list[str], infer: bool, limits: dict, precision: str, isa: str,
                 fork: bool) -> list[dict]:
    env = {"PYTHONWARNINGS": "ignore", **({"ONEDNN_MAX_CPU_ISA": isa} if isa else {})}
    argv = ["infer" if infer else "", precision, "fork" if fork else "", json.dumps(limits)]
    out = []
    for got, stage, died in _drive(venv(release), _COMPILER, paths, argv, limits, env, margin=30.0 if fork else 0.0):
        if got is None:  # the process died (or hung) in this stage of this file
            got = {"read": None, "compile": None, "infer": None}
            got[stage] = died
            for later in ("compile", "infer")[("read", "compile", "infer").index(stage):]:
                if later != stage:
                    got[later] = "skipped"
        out.append(got)
    return out


def _drive(py: Path, source: str, paths: list[str], argv: list[str], limits: dict, env: dict | None = None,
           margin: float = 0.0) -> list[tuple]:
    """Run ``source`` (a runner: argv = [list of paths (json file), first index, *argv]; "S i [stage]" before each
    stage of each file, then its verdict as a JSON line with "i") in the release's python over ``paths``,
    restarted past a crash or a stage that outlasts ``limits`` (seconds by stage; none: no limit, ``margin`` added):
    for each path (its verdict or None, the stage it was in, "crash" or "timeout")."""
    import selectors
    import time

    out: list[dict | None] = [None] * len(paths)
    where: dict[int, tuple[str, str]] = {}
    with tempfile.TemporaryDirectory() as d:
        listing = Path(d) / "paths.json"
        listing.write_text(json.dumps([str(p) for p in paths]))
        runner = Path(d) / "runner.py"
        runner.write_text(source)
        start = 0
        while start < len(paths):
            proc = subprocess.Popen([str(py), str(runner), str(listing), str(start), *argv], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True, env={**os.environ, **(env or {})})
            assert proc.stdout is not None
            started, stage, died = start, "read", "crash"
            sel = selectors.DefaultSelector()
            sel.register(proc.stdout, selectors.EVENT_READ)
            since = time.monotonic()
            while True:
                limit = limits.get(stage) if limits else None
                wait = None if limit is None else max(0.0, limit + margin - (time.monotonic() - since))
                if not sel.select(timeout=wait):
                    proc.kill()
                    died = "timeout"
                    break
                line = proc.stdout.readline()
                if not line:
                    break
                if line.startswith("S "):
                    parts = line.split()
                    started, stage, since = int(parts[1]), parts[2] if len(parts) > 2 else "read", time.monotonic()
                    continue
                got = json.loads(line)
                out[got.pop("i")] = got
            proc.wait()
            sel.close()
            if out[started] is None:
                where[started] = (stage, died)
            start = started + 1
            while start < len(paths) and out[start] is not None:
                start += 1
    return [(g, *where.get(k, ("read", "crash"))) for k, g in enumerate(out)]



def digest(path: Path) -> str:
    """A file's identity for a cache of verdicts: its XML's and its .bin's contents (a .bin of 4 MiB or more by
    its size and time)."""
    import hashlib

    h = hashlib.sha1(path.read_bytes())
    b = path.with_suffix(".bin")
    if b.exists():
        st = b.stat()
        h.update(b.read_bytes() if st.st_size < 1 << 22 else f"{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()


def compile_cached(release: str, paths: list[Path], cache: Path, timeout: "float | dict[str, float]") -> list[dict]:
    """:func:`compile_all`'s verdicts, each file judged once per content (``cache``: a folder, a JSON file per
    release)."""
    cache.mkdir(parents=True, exist_ok=True)
    f = cache / f"{release}.json"
    known = json.loads(f.read_text()) if f.exists() else {}
    keys = [digest(p) for p in paths]
    todo = [(p, k) for p, k in zip(paths, keys) if k not in known]
    if todo:
        got = compile_all(release, [str(p) for p, _ in todo], timeout=timeout)
        for (_, k), v in zip(todo, got):
            known[k] = v
        f.write_text(json.dumps(known))
    return [known[k] for k in keys]


# The other classes of CPU every compile-stage claim is measured on besides this machine's (AVX-512 with bf16 and
# AMX: the CPU plugin infers in bf16), as oneDNN's highest-ISA switch makes this machine: AVX-512 without bf16 and
# AVX2 (both infer in f32). A release's CPU plugin decides by the instruction set which kernels and which precision
# it takes, so a file can fail on one class and compile on another (int4 weights of some shapes into a MatMul: on
# 2023.3 to 2024.1 with bf16, not without; measured).
ISAS = ("AVX512_CORE", "AVX2")


def _stops(v: dict) -> bool:
    return v["read"] is None and (v["compile"] is not None or v["infer"] not in (None, "skipped"))


# the seconds each stage of a file may take before it is judged a timeout (a compile of a large export is slow)
TIMEOUTS = {"read": 120, "compile": 300, "infer": 10}


def compile_classes(release: str, paths: list[Path], cache: Path,
                    timeout: "float | dict[str, float]" = TIMEOUTS) -> list[dict]:
    """:func:`compile_cached`'s verdicts, a file that stops past the reader on this machine judged again on each
    other class of CPU (:data:`ISAS`) while it stops: where it passes on one, that verdict is kept, marked
    ``"only"`` (a release is said to stop on a file only where it stops on every class)."""
    out = list(compile_cached(release, paths, cache, timeout))
    limits = timeout if isinstance(timeout, dict) else {s: timeout for s in ("read", "compile", "infer")}
    for isa in ISAS:
        stops = [k for k, v in enumerate(out) if _stops(v)]
        if not stops:
            break
        other = cache / f"isa-{isa.lower()}"
        other.mkdir(parents=True, exist_ok=True)
        f = other / f"{release}.json"
        known = json.loads(f.read_text()) if f.exists() else {}
        keys = [digest(paths[k]) for k in stops]
        todo = [(paths[k], d) for k, d in zip(stops, keys) if d not in known]
        if todo:
            got = compile_all(release, [str(p) for p, _ in todo], timeout=limits, isa=isa)
            for (_, d), v in zip(todo, got):
                known[d] = v
            f.write_text(json.dumps(known))
        for k, d in zip(stops, keys):
            v = known[d]
            if v["read"] is None and not _stops(v):
                out[k] = {**v, "only": f"stops on this machine, not with {isa}"}
    return out
