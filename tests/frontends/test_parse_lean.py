"""The lean parse (issue 6): what it shares or derives instead of storing stays exact."""

from __future__ import annotations

from irreshape.checks import check_file
from irreshape.frontends.openvino import parse

HEAD = '<?xml version="1.0"?>\n<net name="m" version="11">\n\t<layers>\n'


def _write(tmp_path, text: str, name: str = "m.xml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_dim_lines_off_the_usual_layout_are_exact(tmp_path):
    """dim_lines is derived only for one <dim> per line right after the port; any other layout is recorded."""
    xml = HEAD + (
        '\t\t<layer id="0" name="p" type="Parameter" version="opset1">\n'  # line 4
        "\t\t\t<output>\n"
        '\t\t\t\t<port id="0" precision="FP32">\n'  # line 6: the usual layout
        "\t\t\t\t\t<dim>2</dim>\n"
        "\t\t\t\t\t<dim>3</dim>\n"
        "\t\t\t\t</port>\n"
        '\t\t\t\t<port id="1" precision="FP32"><dim>4</dim><dim>5</dim>\n'  # line 10: two on one line
        "\t\t\t\t\t<dim>6</dim>\n"
        "\t\t\t\t</port>\n"
        '\t\t\t\t<port id="2" precision="FP32">\n'  # line 13: a bad dim, then a gap
        "\t\t\t\t\t<dim>x</dim>\n"
        "\n"
        "\t\t\t\t\t<dim>7</dim>\n"
        "\t\t\t\t</port>\n"
        "\t\t\t</output>\n"
        "\t\t</layer>\n"
        "\t</layers>\n\t<edges/>\n</net>\n")
    model = parse(_write(tmp_path, xml))
    usual, packed, bad = model.layers["0"].outputs
    assert (usual.line, usual.dims, usual.dim_lines) == (6, (2, 3), (7, 8))
    assert (packed.line, packed.dims, packed.dim_lines) == (10, (4, 5, 6), (10, 10, 11))
    assert (bad.line, bad.dims, bad.dim_lines) == (13, None, (14, 16))
    assert model.layers["0"].end_line == 16
    assert [(p.rule, p.line) for p in model.problems] == [("invalid-dim", 14)]


def test_equal_texts_and_dims_are_shared_not_changed(tmp_path):
    layer = ('\t\t<layer id="{0}" name="r{0}" type="ReLU" version="opset1">\n\t\t\t<data mode="a" />\n'
             '\t\t\t<output>\n\t\t\t\t<port id="0" precision="FP32">\n\t\t\t\t\t<dim>{1}</dim>\n'
             "\t\t\t\t</port>\n\t\t\t</output>\n\t\t</layer>\n")
    xml = HEAD + layer.format(0, 8) + layer.format(1, 8) + layer.format(2, 9) + "\t</layers>\n\t<edges/>\n</net>\n"
    a, b, c = parse(_write(tmp_path, xml)).layers.values()
    assert a.outputs[0].dims is b.outputs[0].dims and c.outputs[0].dims == (9,)
    assert a.data is b.data and a.data == {"mode": "a"}
    assert (a.type, a.kind) == ("ReLU", "relu")


def test_root_is_checked_before_a_syntax_error_in_the_first_layer(tmp_path):
    """As before the parse was narrowed to layers and edges: an element that ended before the error is
    enough for the version finding."""
    xml = '<?xml version="1.0"?>\n<net version="9"><layers><layer id="0" type="Relu"><data/>\n<bad<>\n'
    result = check_file(_write(tmp_path, xml))
    assert [(f.code, f.line) for f in result.findings] == [("IR002", 2), ("IR001", 3)]
    early = '<?xml version="1.0"?>\n<net version="9"><layers>\n<bad<>\n'  # no element ended: no version finding
    assert [f.code for f in check_file(_write(tmp_path, early, "e.xml")).findings] == ["IR001"]


def test_foreign_root_after_a_long_prolog_is_still_skipped(tmp_path):
    """The first bytes do not show the root (a 70 kB comment): the parse finds no layer, the root is foreign."""
    xml = '<?xml version="1.0"?>\n<!--' + "x" * 70000 + '-->\n<foo><bar/></foo>\n'
    assert check_file(_write(tmp_path, xml)) is None


def test_producers_take_the_first_edge_and_consumers_keep_file_order(tmp_path):
    port = '\t\t\t<{0}>\n\t\t\t\t<port id="{1}" precision="FP32">\n\t\t\t\t\t<dim>1</dim>\n\t\t\t\t</port>\n\t\t\t</{0}>\n'
    layers = "".join(f'\t\t<layer id="{i}" name="l{i}" type="Relu" version="opset1">\n'
                     + port.format("input", 0) + port.format("output", 1) + "\t\t</layer>\n" for i in range(4))
    edges = "".join(f'\t\t<edge from-layer="{a}" from-port="1" to-layer="{b}" to-port="0" />\n'
                    for a, b in ((0, 3), (1, 3), (0, 2), (0, 1), (9, 1)))
    model = parse(_write(tmp_path, HEAD + layers + "\t</layers>\n\t<edges>\n" + edges + "\t</edges>\n</net>\n"))
    assert model.producer("3", "0")[0].id == "0"  # two edges into port 0 of layer 3: the first counts
    assert model.producer("2", "0")[0].id == "0" and model.producer("0", "0") is None
    assert [la.id for la, _ in model.consumers("0", "1")] == ["3", "2", "1"]
    assert model.consumers("0", "0") == [] and [la.id for la, _ in model.consumers("9", "1")] == ["1"]
