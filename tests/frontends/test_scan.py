"""The fast reading (:mod:`irreshape.scan`) gives the model the element-by-element reading gives."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irreshape.core.results import DEFAULT_MAX_SIZE
from irreshape.frontends.files import open_regular
from irreshape.frontends.openvino import IRModel, NotIR, parse, scan
from irreshape.frontends.openvino.reader import read_elements

from hostile.make_corpus import make, restore_permissions
from test_fuzz import FUZZ, SOURCES, byte_ops, mutate_bytes, mutate_tree, struct_ops

ROOT = Path(__file__).resolve().parents[2]
# (not those with bodies, granitemoehybrid's Loop: the scan declines a <layer> inside another, by design, and the
# element-by-element reading takes them)
# (the runtime targets' generated cases are written by hand, most not in the serializer's layout: not these)
FIXTURES = sorted(p for d in ("tests/data", "examples/ir") for p in (ROOT / d).rglob("*.xml")
                  if not re.search(rb"<(then_|else_)?body>", p.read_bytes())
                  and "targets" not in p.relative_to(ROOT / d).parts)
HEAD = '<?xml version="1.0"?>\n<net name="m" version="11">\n\t<layers>\n'
TAIL = '\t</layers>\n\t<edges>\n\t\t<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />\n\t</edges>\n</net>\n'
PARAM = ('\t\t<layer id="0" name="x" type="Parameter" version="opset1">\n\t\t\t<data shape="2,3" element_type="f32" />\n'
         '\t\t\t<output>\n\t\t\t\t<port id="0" precision="FP32" names="x">\n\t\t\t\t\t<dim>2</dim>\n'
         '\t\t\t\t\t<dim>3</dim>\n\t\t\t\t</port>\n\t\t\t</output>\n\t\t</layer>\n')
RELU = ('\t\t<layer id="1" name="r" type="ReLU" version="opset1">\n\t\t\t<input>\n\t\t\t\t<port id="0" precision="FP32">\n'
        '\t\t\t\t\t<dim>2</dim>\n\t\t\t\t\t<dim>3</dim>\n\t\t\t\t</port>\n\t\t\t</input>\n\t\t\t<output>\n'
        '\t\t\t\t<port id="1" precision="FP32">\n\t\t\t\t\t<dim>2</dim>\n\t\t\t\t\t<dim>3</dim>\n\t\t\t\t</port>\n'
        '\t\t\t</output>\n\t\t</layer>\n')


def _slow(path: str) -> IRModel:
    model = IRModel(path=path, version=None, name="", layers={}, edges=[])
    with open_regular(path) as f:
        read_elements(model, f, DEFAULT_MAX_SIZE)
    return model


def _fast(path: str) -> IRModel | None:
    model = IRModel(path=path, version=None, name="", layers={}, edges=[])
    with open_regular(path) as f:
        return model if scan.read(model, f, DEFAULT_MAX_SIZE) else None


def _fields(m: IRModel) -> tuple:
    return m.name, m.version, m.layers, m.duplicates, m.edges, m.comments, m.problems


def _same(path: str) -> bool:
    """True when the fast reading took the file (and agrees), False when it declined it."""
    try:
        slow = _slow(path)
    except NotIR:
        return False
    fast = _fast(path)
    if fast is None:
        return False
    assert _fields(fast) == _fields(slow)
    return True


def test_every_fixture_reads_the_same_and_fast():
    taken = [p for p in FIXTURES if _same(str(p))]
    assert len(taken) == len(FIXTURES) >= 30  # all of them are in the serializer's layout


def test_hostile_corpus_reads_the_same_or_is_declined(tmp_path):
    taken = 0
    try:
        for path in make(tmp_path).values():
            if path.is_file() and not path.is_symlink() and path.suffix == ".xml":
                taken += _same(str(path))
    finally:
        restore_permissions(tmp_path)
    assert taken >= 20


def _write(tmp_path, text: str, name: str = "m.xml") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return str(path)


@pytest.mark.parametrize("edit", [
    ('name="x"', 'name="a &amp; b &lt;c&gt; &#65;&#x42;"'),   # references in a value
    ('name="x"', "name='single \"quoted\"'"),                # single quotes
    ('name="x"', 'name="a>b"'),                               # a raw ">" in a value
    ('name="x"', 'name="why?! not!?"'),                       # "!" and "?" (looked for alone) in a value
    ('name="x"', 'name="tab\there"'),                         # white space normalised in a value
    ('<data shape="2,3"', '<data\n\t\t\t\tshape="2,3"'),      # a tag over two lines
    ('<layer id="0"', '<layer\n\t\tid="0"'),                  # the layer's own tag over two lines
    ('<dim>2</dim>\n\t\t\t\t\t<dim>3</dim>', '<dim>2</dim><dim>3</dim>'),  # two dims on a line
    ('<dim>3</dim>', '<dim> 3 </dim>'),                       # spaces around a dim
    ('<dim>3</dim>', '<dim>x</dim>'),                         # a bad dim: IR023 on the same line
    ('<dim>3</dim>', '<dim>-7</dim>'),
    ('<dim>3</dim>', '<dim>&#51;</dim>'),                     # a character reference in a dim
    ('\t\t\t\t</port>\n\t\t\t</output>\n\t\t</layer>\n\t\t<layer id="1"',
     '\t\t\t\t\t<rt_info>\n\t\t\t\t\t\t<attribute name="layout" version="0" layout="[N,C]" />\n\t\t\t\t\t</rt_info>\n'
     '\t\t\t\t</port>\n\t\t\t</output>\n\t\t\t<rt_info>\n\t\t\t\t<attribute name="fused_names" version="0" value="a" />\n'
     '\t\t\t</rt_info>\n\t\t</layer>\n\t\t<layer id="1"'),                 # rt_info in a port and a layer
    ('<port id="1" precision="FP32">', '<port precision="FP32" id="1">'),  # attributes in another order
    ('<port id="1" precision="FP32">', '<port id="1">'),
    ('\t\t\t<output>\n\t\t\t\t<port id="1"', '\t\t\t<foo/>\n\t\t\t<output>\n\t\t\t\t<port id="1"'),  # a stray child
    ('\t\t<edge from', '\n\t\t<edge from'),                   # a blank line among the edges
    ('<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />',
     '<edge to-port="0" to-layer="1" from-port="0" from-layer="0"/>'),
    ('<edge from-layer="0"', '<edge from-layer="9"'),           # a dangling edge
    ('\t\t<layer id="1" name="r"', '\t\t<layer id="0" name="r"'),  # a duplicate id
    ('version="11"', 'version="7"'),
])
def test_off_layout_documents_read_the_same(tmp_path, edit):
    text = (HEAD + PARAM + RELU + TAIL).replace(*edit)
    assert edit[0] in HEAD + PARAM + RELU + TAIL and text.count(edit[1]) >= 1
    assert _same(_write(tmp_path, text))


@pytest.mark.parametrize("edit", [
    ('\t</layers>', '\t<!-- irreshape: ignore -->\n\t</layers>'),  # comments: kept for suppressions
    ("\n", "\r\n"),                                                 # CR LF line ends
    ('\t\t<layer id="1"', '\t\t<layer id="5" type="TensorIterator"><body><layers/></body></layer>\n\t\t<layer id="1"'),
    ('</output>\n\t\t</layer>\n\t\t<layer id="1"', '</output>\n\t\t\t<body/>\n\t\t</layer>\n\t\t<layer id="1"'),  # a body, no graph
    ('<layer id="1" name="r" type="ReLU" version="opset1">', '<layer id="1" name="r" type="ReLU" version="opset1"/>'
     '<layer id="2" name="r2" type="ReLU" version="opset1">'),  # an empty <layer/>
    ('\t</layers>', '\t</layers>\n\t<layers/>'),                   # a second <layers>
    ('</edges>', '</edges>\n\t<edges/>'),                             # a second <edges>
    ('name="x"', 'name="x"><![CDATA[y]]></layer><layer id="9" name="z"'),  # CDATA ("<!" found by its "!")
    ('\t</layers>', '\t<?pi x?>\n\t</layers>'),                      # a processing instruction
    ('<?xml version="1.0"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>'),
    ('<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />',   # an edge inside an edge (found by
     '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"><edge from-layer="1" from-port="1" '
     'to-layer="0" to-port="0"/></edge>'),                                  # the fuzz test below)
    ("</net>", "</net"),                                            # malformed: the slow reading reports it
    # a <layer> or an <edge> where a layer can hold other elements: its <rt_info>, a port's, a layer lxml reads
    ('\t\t\t</output>\n\t\t</layer>\n\t\t<layer id="1"',
     '\t\t\t</output>\n\t\t\t<rt_info><layer id="7"/></rt_info>\n\t\t</layer>\n\t\t<layer id="1"'),
    ('\t\t\t\t</port>\n\t\t\t</output>\n\t\t</layer>\n\t\t<layer id="1"',
     '\t\t\t\t\t<rt_info><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></rt_info>\n'
     '\t\t\t\t</port>\n\t\t\t</output>\n\t\t</layer>\n\t\t<layer id="1"'),
    ('\t\t\t<output>\n\t\t\t\t<port id="1"', '\t\t\t<edges/>\n\t\t\t<output>\n\t\t\t\t<port id="1"'),
    ('\t\t\t</output>\n\t\t</layer>\n\t\t<layer id="1"',
     '\t\t\t</output>\n\t\t\t<rt_info><attribute name="a"/><layers/></rt_info>\n\t\t</layer>\n\t\t<layer id="1"'),
])
def test_documents_the_fast_reading_declines(tmp_path, edit):
    text = (HEAD + PARAM + RELU + TAIL).replace(*edit)
    path = _write(tmp_path, text)
    assert _fast(path) is None
    assert parse(path).problems == _slow(path).problems if edit[0] != "</net>" else parse(path).problems


def test_lines_past_65535_are_exact_in_both_readings(tmp_path):
    """libxml2 keeps 16-bit line numbers: both readings must still give every layer, port, dim and edge
    its true line far down a big file."""
    n = 9000
    layers = [PARAM.replace('name="x"', 'name="p0"')]
    for i in range(1, n):
        layers.append(RELU.replace('id="1" name="r"', f'id="{i}" name="r{i}"'))
    edges = "".join(f'\t\t<edge from-layer="{i - 1}" from-port="{0 if i == 1 else 1}" to-layer="{i}" to-port="0" />\n'
                    for i in range(1, n))
    text = HEAD + "".join(layers) + "\t</layers>\n\t<edges>\n" + edges + "\t</edges>\n</net>\n"
    path = _write(tmp_path, text)
    lines = text.split("\n")
    fast, slow = _fast(path), _slow(path)
    assert fast is not None and _fields(fast) == _fields(slow)
    last = fast.layers[str(n - 1)]
    assert last.line > 65535 and lines[last.line - 1].startswith(f'\t\t<layer id="{n - 1}"')
    assert lines[last.outputs[0].dim_lines[1] - 1] == "\t\t\t\t\t<dim>3</dim>"
    e = fast.edges[-1]
    assert e.line > 65535 and f'from-layer="{n - 2}"' in lines[e.line - 1]


def test_parse_takes_the_fast_reading_and_leaves_the_file_alone(tmp_path, monkeypatch):
    path = _write(tmp_path, HEAD + PARAM + RELU + TAIL)
    before = Path(path).read_bytes()
    import irreshape.frontends.openvino as openvino

    monkeypatch.setattr(openvino, "read_elements", lambda *a: pytest.fail("the element-by-element reading was used"))
    model = parse(path)
    assert set(model.layers) == {"0", "1"} and model.layers["1"].outputs[0].dims == (2, 3)
    assert Path(path).read_bytes() == before


@FUZZ
@given(seed=st.sampled_from(sorted(SOURCES)), tree_ops=struct_ops, raw_ops=byte_ops, raw=st.booleans())
def test_mutated_documents_read_the_same_or_are_declined(seed, tree_ops, raw_ops, raw):
    """Real IRs mutated element by element (and byte by byte): whatever the fast reading takes, it reads
    as the element-by-element reading does."""
    xml = mutate_tree(SOURCES[seed][0], tree_ops)
    if raw:
        xml = mutate_bytes(xml, raw_ops)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "m.xml")
        path.write_bytes(xml)
        _same(str(path))


@pytest.mark.parametrize("chunk", [1, 7, 64, 1000])
@pytest.mark.parametrize("threaded", [True, False])
def test_chunk_boundaries_anywhere_read_the_same(tmp_path, monkeypatch, chunk, threaded):
    """The scan holds a window of the document, not all of it: with chunks of a few bytes every tag,
    every </layers> and every edge line is cut somewhere, and both ways of checking well-formedness
    (libxml2 reading the file in a thread, or fed chunk by chunk) run."""
    monkeypatch.setattr(scan, "CHUNK", chunk)
    if not threaded:
        monkeypatch.setattr(scan, "FD_PATH", str(tmp_path / "no-such-dir" / "{}"))
    sources = FIXTURES if chunk >= 64 else FIXTURES[::4]
    assert sources and all(_same(str(p)) for p in sources)
    edits = [('\t\t<edge from', '\n\t\t<edge from'), ("</net>", "</net"), ('\t</layers>', '\t<!-- c -->\n\t</layers>')]
    for i, (old, new) in enumerate(edits):  # off the fast path's layout, malformed, declined: all as before
        path = _write(tmp_path, (HEAD + PARAM + RELU + TAIL).replace(old, new), f"e{i}.xml")
        if old == "</net>":
            assert _fast(path) is None
        else:
            assert _same(path) == (i == 0)


def test_the_window_stays_small(tmp_path, monkeypatch):
    """However long the document, the scan never holds much more than a chunk of it."""
    n = 3000
    layers = [PARAM.replace('name="x"', 'name="p0"')]
    layers += [RELU.replace('id="1" name="r"', f'id="{i}" name="r{i}"') for i in range(1, n)]
    edges = "".join(f'\t\t<edge from-layer="{i - 1}" from-port="{0 if i == 1 else 1}" to-layer="{i}" to-port="0" />\n'
                    for i in range(1, n))
    path = _write(tmp_path, HEAD + "".join(layers) + "\t</layers>\n\t<edges>\n" + edges + "\t</edges>\n</net>\n")
    monkeypatch.setattr(scan, "CHUNK", 4096)
    widest = []
    more = scan.Scanner.refill

    def watched(self):
        got = more(self)
        widest.append(len(self.data))
        return got

    monkeypatch.setattr(scan.Scanner, "refill", watched)
    fast = _fast(path)
    assert fast is not None and len(fast.layers) == n and len(fast.edges) == n - 1
    assert Path(path).stat().st_size > 100 * 4096 and max(widest) <= 2 * 4096


def _long(n: int = 300) -> str:
    """A document in the serializer's layout, many chunks long at a chunk of 4 KiB, with a model <rt_info>."""
    layers = [PARAM.replace('name="x"', 'name="p0"')]
    layers += [RELU.replace('id="1" name="r"', f'id="{i}" name="r{i}"') for i in range(1, n)]
    edges = "".join(f'\t\t<edge from-layer="{i - 1}" from-port="{0 if i == 1 else 1}" to-layer="{i}" to-port="0" />\n'
                    for i in range(1, n))
    return (HEAD + "".join(layers) + "\t</layers>\n\t<edges>\n" + edges + "\t</edges>\n\t<rt_info>\n"
            '\t\t<conversion_parameters>\n\t\t\t<framework value="pytorch" />\n\t\t</conversion_parameters>\n'
            "\t</rt_info>\n</net>\n")


@pytest.fixture
def proving(monkeypatch):
    """Chunks of 4 KiB (a document of a few is "large": the scan proves it well-formed) and a record of every
    time the scan hands the proof to libxml2."""
    monkeypatch.setattr(scan, "CHUNK", 4096)
    handed: list[int] = []
    distrust = scan._Checker.distrust

    def watched(self):
        handed.append(1)
        distrust(self)

    monkeypatch.setattr(scan._Checker, "distrust", watched)
    return handed


def test_the_serializers_layout_is_proven_without_libxml2(tmp_path, proving):
    path = _write(tmp_path, _long())
    assert _same(path) and not proving  # read as the element reading does, and no second parse of the file


@pytest.mark.parametrize("old, new", [
    ('name="r7"', 'name="r\x017"'),                                   # a control character
    ('name="r7"', 'name="r<7"'),                                      # "<" in a value
    ('name="r7"', 'name="r&7"'),                                      # a bare "&"
    ('name="r7"', 'name="r\u00e97"'),                                 # not ASCII (valid: libxml2 decides)
    ('<data shape="2,3" element_type="f32" />', '<data shape="2,3" shape="2,3" element_type="f32" />'),  # twice
    ('<data shape="2,3" element_type="f32" />', '<data 2shape="2,3" element_type="f32" />'),  # not a name
    ('<data shape="2,3" element_type="f32" />', '<data shape="2,3"element_type="f32" />'),  # no space between
    ('<port id="0" precision="FP32" names="x">', '<port id="0" precision="FP32" names="x" names="y">'),
    ('<port id="0" precision="FP32" names="x">', '<port id="0" precision="FP32" names="x<y">'),
    ('to-layer="7" to-port="0" />', 'to-layer="7" to-port="0" /><b>'),  # a stray tag on an edge's line
    ('to-layer="7" to-port="0" />', 'to-layer="7" to-port="0" />x]]>'),  # "]]>" in text
    ('\t\t\t<framework value="pytorch" />', '\t\t\t<framework value="pytorch">'),  # a malformed tail
    ('</net>', '</net>x'),                                            # text after the root
    ('<?xml version="1.0"?>', '<?xml version="1.0" standalone="maybe"?>'),
    ('<?xml version="1.0"?>', '<?xml version="1.1"?>'),
    ('<net name="m" version="11">', '<net name="m" name="n" version="11">'),
    ('\t\t<layer id="7" name="r7"', '\t\t<layer id="7" name="r7" x="&#1;"'),  # off the layout: libxml2 decides
])
def test_what_the_proof_does_not_cover_goes_to_libxml2(tmp_path, proving, old, new):
    """Every edit either breaks well-formedness or leaves the layout the scan proves: libxml2 checks the whole
    file (or the one layer lxml reads on its own), and the reading is the element reading's (malformed: declined,
    the problem reported as before)."""
    text = _long()
    assert old in text
    path = _write(tmp_path, text.replace(old, new, 1))
    same = _same(path)
    assert proving or not same  # the scan handed the proof to libxml2, or declined the document
    assert same or parse(path).problems == _slow(path).problems
