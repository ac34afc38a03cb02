"""Fuzzing: real IR pairs mutated byte by byte and element by element never crash the checker.

Each example goes through the CLI in-process with ``--debug``, so an internal error (which would
otherwise be an IR900 finding and exit 2) surfaces as the exception itself and hypothesis shrinks it.
``IRRESHAPE_FUZZ_EXAMPLES`` sets the examples per test (150 by default, about 5 s each).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from irreshape.cli import main

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"
# the smallest real IR pairs (small files: more of each example's mutations land somewhere that matters)
SEEDS = sorted((p for p in MODELS.glob("*.xml") if p.with_suffix(".bin").exists()), key=lambda p: p.stat().st_size)[:5]
SOURCES = {p.stem: (p.read_bytes(), p.with_suffix(".bin").read_bytes()) for p in SEEDS}
# Local runs explore new examples each time; CI (CI=true) runs the same ones every time, so that a red CI
# means the change, not the draw (raise IRRESHAPE_FUZZ_EXAMPLES to explore more).
FUZZ = settings(deadline=None, max_examples=int(os.environ.get("IRRESHAPE_FUZZ_EXAMPLES", "150")),
                suppress_health_check=[HealthCheck.too_slow], derandomize=bool(os.environ.get("CI")),
                database=None if os.environ.get("CI") else settings.default.database)


def check(xml: bytes, bin: bytes | None) -> None:
    """Run ``irreshape check`` on the pair; assert a clean exit with a parseable report in both formats."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "m.xml")
        path.write_bytes(xml)
        if bin is not None:
            path.with_suffix(".bin").write_bytes(bin)
        for fmt in ("json", "concise"):
            result = CliRunner().invoke(main, ["check", "--isolated", "--debug", "--jobs", "1",
                                               "--output-format", fmt, str(path)])
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            assert result.exit_code in (0, 1), result.output
            assert "Traceback" not in result.output
            if fmt == "json":
                files = json.loads(result.output)["files"]
                assert all(f["code"] != "IR900" for file in files for f in file["findings"])


# -- bytes ------------------------------------------------------------------------------------------------
byte_ops = st.lists(st.tuples(st.sampled_from(["flip", "delete", "insert", "duplicate"]),
                              st.floats(0, 1, exclude_max=True), st.integers(1, 64), st.binary(min_size=1, max_size=8)),
                    min_size=1, max_size=6)


def mutate_bytes(data: bytes, ops) -> bytes:
    for kind, where, n, blob in ops:
        i = int(where * len(data)) if data else 0
        if kind == "flip":
            data = data[:i] + bytes(b ^ blob[0] for b in data[i:i + len(blob)]) + data[i + len(blob):]
        elif kind == "delete":
            data = data[:i] + data[i + n:]
        elif kind == "insert":
            data = data[:i] + blob + data[i:]
        else:
            data = data[:i] + data[i:i + n] * 2 + data[i + n:]
    return data


@FUZZ
@given(seed=st.sampled_from(sorted(SOURCES)), xml_ops=byte_ops, bin_ops=st.none() | byte_ops,
       bin_cut=st.none() | st.floats(0, 1))
def test_mutated_bytes(seed: str, xml_ops, bin_ops, bin_cut) -> None:
    xml, bin = SOURCES[seed]
    if bin_ops is not None:
        bin = mutate_bytes(bin, bin_ops)
    if bin_cut is not None:
        bin = bin[:int(bin_cut * len(bin))]
    check(mutate_bytes(xml, xml_ops), bin)


# -- XML structure ----------------------------------------------------------------------------------------
ATTRS = ["id", "from-layer", "to-layer", "from-port", "to-port", "offset", "size", "shape", "element_type",
         "special_zero", "version", "type", "name"]
VALUES = st.sampled_from(["", "0", "1", "2", "3", "-1", "-2", "abc", "1.5", "1..10", "?", "...", "i64", "f32", "u1",
                          "Reshape", "Const", "ShapeOf", "true", "yes", "1,2", "0,-1", ",", str(2**63), str(2**64),
                          str(-2**63), "9" * 400, "\u00e9\U0001F600", "opset99"]) | st.text(max_size=6)
struct_ops = st.lists(st.tuples(st.sampled_from(["delete", "duplicate", "move", "attr", "text"]),
                                st.integers(0, 10**6), st.integers(0, 10**6), st.sampled_from(ATTRS), VALUES),
                      min_size=1, max_size=8)


def mutate_tree(xml: bytes, ops) -> bytes:
    root = etree.fromstring(xml)
    for kind, a, b, attr, value in ops:
        elements = list(root.iter(etree.Element))
        el, other = elements[a % len(elements)], elements[b % len(elements)]
        if kind == "delete" and el is not root:
            el.getparent().remove(el)
        elif kind == "duplicate" and el is not root:
            el.addnext(etree.fromstring(etree.tostring(el)))
        elif kind == "move" and el is not root and el not in other.iterancestors() and el is not other:
            other.append(el)
        elif kind == "attr":
            el.set(attr, "".join(c for c in value if c.isprintable()))
        elif kind == "text" and len(el) == 0:
            el.text = "".join(c for c in value if c.isprintable())
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


@FUZZ
@given(seed=st.sampled_from(sorted(SOURCES)), ops=struct_ops, keep_bin=st.booleans())
def test_mutated_structure(seed: str, ops, keep_bin: bool) -> None:
    xml, bin = SOURCES[seed]
    check(mutate_tree(xml, ops), bin if keep_bin else None)
