"""File and graph structure: is this a readable IR at all, and does its graph hold together?"""

from __future__ import annotations

from ..core.findings import ERROR, rule

XML_SYNTAX = rule("IR001", "xml-syntax-error", ERROR, """
    The file is not well-formed XML.

    OpenVINO cannot read it either. The message gives the parser's own text, line and column.
    """)
NOT_IR = rule("IR002", "unsupported-ir", ERROR, """
    The root is `<net>` but the IR version is not 10 or 11, or the document lacks `<layers>`.

    openvino 2026.4.1 reads IR versions 10 and 11 only; anything else fails in `read_model`.
    """)
XML_ENTITIES = rule("IR003", "xml-entity-declaration", ERROR, """
    The XML has a DOCTYPE: entity declarations, an external DTD, or a bare declaration.

    An IR never needs one. irreshape never expands entities, loads DTDs or touches the network:
    the DOCTYPE is spotted before the parser sees it, so entity bombs (billion laughs, quadratic
    blow-up) and XXE payloads are reported here, in constant time, instead of being parsed. The rest
    of the file is not checked.
    """)
FILE_TOO_LARGE = rule("IR004", "file-too-large", ERROR, """
    The XML is larger than `--max-xml-size`; it was not read.

    Raise the limit (`--max-xml-size 2GB`) if the file is a genuine, very large model.
    """)
UNREADABLE = rule("IR005", "file-unreadable", ERROR, """
    The file could not be read (permissions, an I/O error), or is not a regular file.

    A FIFO, a device or a directory named like an IR is never read: it could block forever.
    """)
DUPLICATE_ID = rule("IR020", "duplicate-layer-id", ERROR, """
    Two layers share one `id`. Edges become ambiguous; the first layer with the id is used.

    The layers of a TensorIterator's or Loop's `<body>` are a graph of their own: their ids may
    repeat the main graph's.
    """)
DANGLING_EDGE = rule("IR021", "dangling-edge", ERROR, """
    An `<edge>` names a layer or a port that does not exist.
    """)
MISSING_PORT = rule("IR022", "missing-port", ERROR, """
    A layer lacks a port it needs (a Reshape without its data, shape or output port).
    """)
BAD_DIM = rule("IR023", "invalid-dim", ERROR, """
    A `<dim>` is not an integer, is below -1, or is beyond int64.

    OpenVINO's reader rejects such a dim (`dimension (-2) in node dim must be greater or equal to -1`).
    """)
CYCLE = rule("IR024", "graph-cycle", ERROR, """
    The graph has a cycle: a layer's input depends, through other layers, on its own output.

    An IR graph must be acyclic: OpenVINO cannot order the layers of such a file and refuses it ("Attempt to
    access node ... that not in graph"). Reported once per cycle, on the layer whose input closes it (fed by a
    layer that does not come before it in the file); the layers the cycle feeds are not blamed.
    """)
BAD_ATTRIBUTE = rule("IR025", "invalid-attribute", ERROR, """
    An attribute irreshape needs is missing or malformed: the `special_zero` of a oneDNN Graph
    StaticReshape or DynamicReshape that is not a bool (0 or 1). (An IR Const's malformed
    attributes are IR016; a Reshape's `special_zero` spelling is IR110.)
    """)
UNCONNECTED = rule("IR026", "input-not-connected", ERROR, """
    A layer's input port has no incoming edge.

    OpenVINO refuses such a model when it reads it ("Argument has 0 outputs"), whatever the layer.
    """)
INTERNAL_ERROR = rule("IR900", "internal-error", ERROR, """
    irreshape itself failed on this file. This is a bug: please report it with the file.

    Run with `--debug` to see the traceback. The run exits with status 2.
    """)

RULES = (XML_SYNTAX, NOT_IR, XML_ENTITIES, FILE_TOO_LARGE, UNREADABLE, DUPLICATE_ID, DANGLING_EDGE,
         MISSING_PORT, BAD_DIM, CYCLE, BAD_ATTRIBUTE, UNCONNECTED, INTERNAL_ERROR)
