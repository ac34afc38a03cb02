"""Each openvino release's ``read_model``, run in that release's own venv: shared by scripts/make_releases.py (the
probe) and scripts/target_harness.py (the differential harness).

* :data:`RELEASES`: every release the package index serves for this Python (oldest first).
* :func:`venv`: the release's python (``$IRRESHAPE_VENVS/<release>``, default /work/ov-venvs/<release>), the venv
  made when missing (``python -m venv`` + ``pip install openvino==R``, ``numpy<2`` for 2023.x).
* :func:`read_all`: one python process of that release reads many files (restarted past a crash); for each file
  its message (None: read) and, where read, the op versions of its layers by friendly name.
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
    py = venv(release)
    out: list[dict | None] = [None] * len(paths)
    with tempfile.TemporaryDirectory() as d:
        listing = Path(d) / "paths.json"
        listing.write_text(json.dumps([str(p) for p in paths]))
        runner = Path(d) / "runner.py"
        runner.write_text(_RUNNER)
        start = 0
        while start < len(paths):
            proc = subprocess.Popen([str(py), str(runner), str(listing), str(start), "ops" if ops else ""],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            started = start
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("S "):
                    started = int(line[2:])
                    continue
                got = json.loads(line)
                out[got.pop("i")] = got
            proc.wait()
            if out[started] is None:  # the process died on this file
                out[started] = {"e": "crash"}
            start = started + 1
            while start < len(paths) and out[start] is not None:
                start += 1
    return out  # type: ignore[return-value]
