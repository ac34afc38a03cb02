"""How openvino's IR reader reads one attribute value of one op version, apart from the op's inputs.

:func:`reader_error` writes a minimal IR: two f32 Parameters feeding the op (type, first opset holding that op
version, ``<data>`` with the one attribute), and asks ``read_model`` for it in a forked child (a default
attribute set on made-up inputs may crash a node's validation). The reader visits a node's attributes before it
validates the node, so the attribute is refused iff ``read_model``'s message is one of the IR reader's parsing
messages; whatever else happens later (the inputs are not the op's) is not the attribute's doing.
"""

from __future__ import annotations

import os
import pickle
import re
from xml.sax.saxutils import quoteattr

from irreshape.shapes.opsets import OPSETS

# the IR reader's messages for a value it cannot read (xml_deserialize_util.cpp, enum_names.hpp)
PARSE_ERROR = re.compile(r'is not a member of enum|Cannot parse |Cannot get vector of parameters|'
                         r'Incorrect type|Unsupported element type|Not supported type')

FIRST_OPSET: dict[tuple[str, int], int] = {}
for _n, _table in sorted(OPSETS.items()):
    for _k, _v in _table.items():
        FIRST_OPSET.setdefault((_k, _v), _n)

_PORT = '<port id="{}" precision="FP32"><dim>1</dim><dim>1</dim><dim>4</dim><dim>4</dim></port>'


def model_xml(kind: str, version: int, data: dict[str, str], n_inputs: int = 2, opset: int | None = None,
              name: str = "op") -> str:
    """The IR of one ``kind`` layer named ``name`` (in ``opset``, by default the first holding op version
    ``version``) with ``<data>`` ``data`` on ``n_inputs`` f32 Parameters, its output 0 into a Result."""
    params = "".join(
        f'<layer id="{i}" name="p{i}" type="Parameter" version="opset1"><data shape="1,1,4,4" element_type="f32"/>'
        f'<output>{_PORT.format(0)}</output></layer>' for i in range(n_inputs))
    attrs = " ".join(f"{k}={quoteattr(v)}" for k, v in data.items())
    op = n_inputs
    ins = "".join(_PORT.format(i) for i in range(n_inputs))
    layers = (params + f'<layer id="{op}" name={quoteattr(name)} type="{kind}" '
              f'version="opset{opset if opset is not None else FIRST_OPSET[(kind, version)]}">'
              f'<data {attrs}/><input>{ins}</input><output>{_PORT.format(n_inputs)}</output></layer>'
              f'<layer id="{op + 1}" name="r" type="Result" version="opset1"><input>{_PORT.format(0)}</input></layer>')
    edges = "".join(f'<edge from-layer="{i}" from-port="0" to-layer="{op}" to-port="{i}"/>' for i in range(n_inputs))
    edges += f'<edge from-layer="{op}" from-port="{n_inputs}" to-layer="{op + 1}" to-port="0"/>'
    return f'<?xml version="1.0"?><net name="m" version="11"><layers>{layers}</layers><edges>{edges}</edges></net>'


def reader_errors(cases: list[tuple[str, int, dict[str, str]]]) -> list[str | None]:
    """For each (op type, op version, <data>): the IR reader's parsing message, or None where it reads the
    attributes (whatever it says of the node afterwards). One forked child runs them all, restarted past a crash
    (a crash comes after the attributes were read)."""
    def judge(case):
        from irtools.oracle import read_model_bytes
        kind, version, data = case
        try:
            read_model_bytes(model_xml(kind, version, data))
        except Exception as e:  # noqa: BLE001  openvino's own error
            return str(e).strip().splitlines()[-1] if PARSE_ERROR.search(str(e)) else None
        return None
    return forked(cases, judge)


def forked(items: list, judge, crashed=lambda status: None) -> list:
    """``judge(item)`` of each item (picklable results), run in a forked child so that an openvino crash cannot take
    the caller down; the child is restarted past a crash, whose item gets ``crashed(its wait status)``."""
    out: list = []
    while len(out) < len(items):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            os.close(r)
            import faulthandler
            faulthandler.disable()  # a crash is a result, not a report (under pytest too)
            for item in items[len(out):]:
                blob = pickle.dumps(judge(item))
                os.write(w, len(blob).to_bytes(4, "little") + blob)
            os._exit(0)
        os.close(w)
        data = b""
        while chunk := os.read(r, 1 << 16):
            data += chunk
        os.close(r)
        _, status = os.waitpid(pid, 0)
        while len(data) >= 4:
            n = int.from_bytes(data[:4], "little")
            out.append(pickle.loads(data[4:4 + n]))
            data = data[4 + n:]
        if len(out) < len(items):
            out.append(crashed(status))  # the child crashed on this item
    return out
