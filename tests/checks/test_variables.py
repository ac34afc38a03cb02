"""ReadValue and Assign against openvino 2026.4.1: each layer's dims as read_model infers them, what it rejects
(an undeclared variable, an initialiser the variable does not relax, Assign-3 without its ReadValue-3), and the
Assign that read_model loads and compile_model rejects (IR310)."""

from __future__ import annotations

import openvino as ov
import pytest
from irtools.handmade import layer, net, param, result

from irreshape.checks import check_file
from irreshape.core.dims import format_shape


def RV(lid, name, vid, vshape, ins, out, version="opset6", vtype="f32"):
    data = {"variable_id": vid}
    if version == "opset6":
        if vshape is not None:
            data["variable_shape"] = vshape
        if vtype is not None:
            data["variable_type"] = vtype
    return layer(lid, name, "ReadValue", version, data, ins, [out])


def AS(lid, name, vid, shape, version="opset6"):
    return layer(lid, name, "Assign", version, {"variable_id": vid}, [shape], [shape])


def ADD(lid, a, b, out):
    return layer(lid, f"add{lid}", "Add", "opset1", {"auto_broadcast": "numpy"}, [a, b], [out])


def _plain(x, vshape, vtype="f32", init="2,4,3,8", **kw):
    """x -> ReadValue -> Result, ReadValue -> Assign."""
    out = vshape if vshape not in (None, "...") else init
    return ([param(0, "x", init), RV(1, "rv", "v", vshape, [init], out, vtype=vtype, **kw), AS(2, "as", "v", out),
             result(3, out)],
            [(0, 0, 1, 0), (1, 1, 2, 0), (1, 1, 3, 0)])


CASES = {
    "same": _plain(0, "?,4,?,8", init="?,4,?,8"),
    "init static": _plain(0, "?,4,?,8"),
    "variable static, init dynamic": _plain(0, "2,4,3,8", init="?,4,?,8"),
    "variable dim differs": _plain(0, "?,4,?,9"),
    "variable interval": _plain(0, "1..4,4,?,8"),
    "variable interval misses": _plain(0, "3..4,4,?,8"),
    "dynamic rank and type": _plain(0, "...", vtype="dynamic"),
    "dynamic rank, f32": _plain(0, "...", vtype="f32"),
    "no variable_shape": _plain(0, None, vtype=None),
    "no variable_type": _plain(0, "?,4,?,8", vtype=None),
    "rank differs": _plain(0, "?,4,?", init="2,4,3"),
    "bad variable_shape": ([param(0, "x", "1,4"), layer(1, "rv", "ReadValue", "opset6",
                                                         {"variable_id": "v", "variable_shape": "a,4"}, ["1,4"], ["?,4"]),
                            result(2, "?,4")], [(0, 0, 1, 0), (1, 1, 2, 0)]),
    "no initialiser": ([RV(1, "rv", "v", "?,4", [], "?,4"), AS(2, "as", "v", "?,4"), result(3, "?,4")],
                       [(1, 0, 2, 0), (1, 0, 3, 0)]),
    "two inputs": ([param(0, "x", "1,4"), RV(1, "rv", "v", "?,4", ["1,4", "1,4"], "?,4"), result(2, "?,4")],
                   [(0, 0, 1, 0), (0, 0, 1, 1), (1, 2, 2, 0)]),
    "undeclared variable": ([param(0, "x", "1,4"), RV(1, "rv", "v", "?,4", ["1,4"], "?,4"), AS(2, "as", "w", "?,4"),
                             result(3, "?,4")], [(0, 0, 1, 0), (1, 1, 2, 0), (1, 1, 3, 0)]),
    "reader feeds nothing": ([param(0, "x", "1,4"), RV(1, "rv", "v", "?,4", ["1,4"], "?,4"), AS(2, "as", "v", "1,4"),
                              result(3, "1,4")], [(0, 0, 1, 0), (0, 0, 2, 0), (0, 0, 3, 0)]),
    "reader feeds a result only": ([param(0, "x", "1,4"), RV(1, "rv", "v", "?,4", ["1,4"], "?,4"),
                                    AS(2, "as", "v", "1,4"), result(3, "?,4")], [(0, 0, 1, 0), (0, 0, 2, 0), (1, 1, 3, 0)]),
    "assign from a parameter": ([param(0, "x", "1,4"), param(1, "y", "3,4"), RV(2, "rv", "v", "?,4", ["1,4"], "?,4"),
                                 AS(3, "as", "v", "3,4"), result(4, "?,4")], [(0, 0, 2, 0), (1, 0, 3, 0), (2, 1, 4, 0)]),
    "v3": ([param(0, "x", "1,4"), RV(1, "rv", "v", None, ["1,4"], "1,4", "opset3"), AS(2, "as", "v", "1,4", "opset3"),
            result(3, "1,4")], [(0, 0, 1, 0), (1, 1, 2, 0), (1, 1, 3, 0)]),
    "v3 read, v6 assign": ([param(0, "x", "1,4"), RV(1, "rv", "v", None, ["1,4"], "1,4", "opset3"),
                            AS(2, "as", "v", "1,4"), result(3, "1,4")], [(0, 0, 1, 0), (1, 1, 2, 0), (1, 1, 3, 0)]),
    "v6 read, v3 assign": ([param(0, "x", "1,4"), RV(1, "rv", "v", "?,4", ["1,4"], "?,4"),
                            AS(2, "as", "v", "?,4", "opset3"), result(3, "?,4")],
                           [(0, 0, 1, 0), (1, 1, 2, 0), (1, 1, 3, 0)]),
    "v3 assign not downstream": ([param(0, "x", "1,4"), RV(1, "rv", "v", None, ["1,4"], "1,4", "opset3"),
                                  AS(2, "as", "v", "1,4", "opset3"), result(3, "1,4")],
                                 [(0, 0, 1, 0), (0, 0, 2, 0), (1, 1, 3, 0)]),
    "v3 shapes differ": ([param(0, "x", "1,4"), param(1, "y", "3,4"), RV(2, "rv", "v", None, ["1,4"], "1,4", "opset3"),
                          ADD(3, "1,4", "3,4", "3,4"), AS(4, "as", "v", "3,4", "opset3"), result(5, "1,4")],
                         [(0, 0, 2, 0), (2, 1, 3, 0), (1, 0, 3, 1), (3, 2, 4, 0), (2, 1, 5, 0)]),
    "v3 dynamic": ([param(0, "x", "1,4"), param(1, "y", "?,4"), RV(2, "rv", "v", None, ["1,4"], "1,4", "opset3"),
                    ADD(3, "1,4", "?,4", "?,4"), AS(4, "as", "v", "?,4", "opset3"), result(5, "1,4")],
                   [(0, 0, 2, 0), (2, 1, 3, 0), (1, 0, 3, 1), (3, 2, 4, 0), (2, 1, 5, 0)]),
    "two readers": ([param(0, "x", "1,4"), RV(1, "rv1", "v", "?,4", ["1,4"], "?,4"), RV(2, "rv2", "v", "1,?", ["1,4"], "1,?"),
                     AS(3, "as", "v", "?,4"), result(4, "?,4"), result(5, "1,?")],
                    [(0, 0, 1, 0), (0, 0, 2, 0), (1, 1, 3, 0), (1, 1, 4, 0), (2, 1, 5, 0)]),
    "opset1": ([param(0, "x", "1,4"), RV(1, "rv", "v", None, ["1,4"], "1,4", "opset1"), result(2, "1,4")],
               [(0, 0, 1, 0), (1, 1, 2, 0)]),
}


def _openvino(path):
    """{layer name: [partial shapes]} as read_model infers them, or its error."""
    try:
        model = ov.Core().read_model(str(path))
    except Exception as e:
        return str(e)
    return {op.get_friendly_name(): [str(o.get_partial_shape()) for o in op.outputs()] for op in model.get_ordered_ops()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_read_value_and_assign_as_openvino_reads_them(name, tmp_path):
    layers, edges = CASES[name]
    path = tmp_path / "m.xml"
    path.write_text(net(layers, edges))
    theirs = _openvino(path)
    result = check_file(str(path))
    errors = [(f.code, f.layer.name if f.layer else None) for f in result.findings if f.severity == "error"]
    if isinstance(theirs, str):
        assert errors and all(code in ("IR303", "IR025") for code, _ in errors), (theirs, errors)
        assert {n for _, n in errors} & {"rv", "rv1", "as"}, errors
        return
    assert errors == [], (theirs, errors)
    from irreshape.checks.graph import Graph
    graph = Graph(result.model)
    for la in result.model.layers.values():
        if la.type in ("ReadValue", "Assign"):
            got = [format_shape(graph.shape(p)) for p in la.outputs]
            assert got == theirs[la.name], (la.name, got, theirs[la.name])


def _typed(init_type, vtype, vshape="?,4", version="opset6", init="1,4"):
    """x (of ``init_type``) -> ReadValue -> Result, ReadValue -> Assign; ``vtype`` written on either version."""
    data = {"variable_id": "v"} | ({} if vtype is None else {"variable_type": vtype}) | \
        ({} if vshape is None else {"variable_shape": vshape})
    out = init if vshape in (None, "...") or version == "opset3" else vshape
    return net([param(0, "x", init, init_type), layer(1, "rv", "ReadValue", version, data, [init], [out]),
                AS(2, "as", "v", out, version), result(3, out)], [(0, 0, 1, 0), (1, 1, 2, 0), (1, 1, 3, 0)])


TYPED = {"init i8, variable f32": _typed("i8", "f32"), "init f32, variable f16": _typed("f32", "f16"),
         "init dynamic, variable f32": _typed("dynamic", "f32"), "boolean into u1": _typed("boolean", "u1"),
         "same": _typed("f16", "F16"), "variable dynamic, static shape": _typed("i8", "dynamic"),
         "variable dynamic, dynamic rank": _typed("i8", "dynamic", "..."), "no variable_type": _typed("i32", None),
         "both differ: the shape first": _typed("i8", "f32", "3,4"),
         "v3 ignores variable_type": _typed("f32", "i8", "3,4", "opset3")}


@pytest.mark.parametrize("name", sorted(TYPED))
def test_read_value_types_as_openvino_reads_them(name, tmp_path):
    """ReadValue's variable_type against its initialiser's type: refused where read_model refuses it (IR303 on the
    ReadValue), else the output type read_model infers."""
    path = tmp_path / "m.xml"
    path.write_text(TYPED[name])
    try:
        model = ov.Core().read_model(str(path))
    except Exception:  # noqa: BLE001
        model = None
    result = check_file(str(path))
    errors = [(f.code, f.layer.name) for f in result.findings if f.severity == "error"]
    if model is None:
        assert ("IR303", "rv") in errors, errors
        return
    assert errors == [], errors
    from irreshape.checks.graph import Graph
    rv = next(la for la in result.model.layers.values() if la.type == "ReadValue")
    theirs = next(op for op in model.get_ordered_ops() if op.get_friendly_name() == "rv")
    assert Graph(result.model).etype(rv.outputs[0]) == theirs.get_output_element_type(0).get_type_name()


def test_an_assign_its_variable_cannot_hold_loads_and_fails_to_compile(tmp_path):
    """IR310: read_model reads it, compile_model rejects it, and irreshape says so on the Assign."""
    layers = [param(0, "x", "1,4"), param(1, "y", "3,5"), RV(2, "rv", "v", "?,4", ["1,4"], "?,4"),
              AS(3, "as", "v", "3,5"), result(4, "?,4")]
    path = tmp_path / "m.xml"
    path.write_text(net(layers, [(0, 0, 2, 0), (1, 0, 3, 0), (2, 1, 4, 0)]))
    core = ov.Core()
    model = core.read_model(str(path))
    with pytest.raises(Exception, match="not compatible with the shape of the input"):
        core.compile_model(model, "CPU")
    findings = check_file(str(path)).findings
    assert [(f.code, f.layer.name) for f in findings if f.severity == "error"] == [("IR310", "as")]
    # compatible: no finding
    path.write_text(net(layers[:1] + [param(1, "y", "3,4")] + layers[2:3] + [AS(3, "as", "v", "3,4"), result(4, "?,4")],
                        [(0, 0, 2, 0), (1, 0, 3, 0), (2, 1, 4, 0)]))
    core.compile_model(core.read_model(str(path)), "CPU")
    assert [f.code for f in check_file(str(path)).findings if f.severity == "error"] == []


def test_fake_convert_as_openvino_infers_it():
    import openvino.opset13 as o
    from shapes.ovshapes import Case, assert_cases
    pairs = [("?,4,8", "1", None), ("2,4,8", "3", None), ("2,4,8", "4,1", None), ("2,4,8", "2,4,8,1", None),
             ("2,4,8", "1", "2"), ("2,4,8", "4,1", "4,1"), ("2,4,8", "4,1", "1,8"), ("...", "5", None),
             ("2,?", "9,1", None), ("?,4,8", "1,1,1", "1")]
    cases = [Case(lambda p: o.fake_convert(*p, destination_type="f8e4m3"), [x, s] + ([sh] if sh else []))
             for x, s, sh in pairs]
    assert_cases(cases, min_cases=10)
