"""OpenVINO IR: the ``.xml`` graph (:func:`parse`) and the ``.bin`` of constants (:mod:`.weights`)."""

from __future__ import annotations

import os

from ...core.findings import Problem
from ...core.results import DEFAULT_MAX_SIZE
from ..files import open_regular
from .model import Edges, IRModel
from .reader import NotIR, TooLarge, doctype_problem, read_elements
from .scan import read
from .sniff import HEAD, prolog, sniff_is_ir

__all__ = ["IRModel", "NotIR", "parse", "sniff_is_ir"]


def parse(path: str, max_size: int = DEFAULT_MAX_SIZE) -> IRModel:
    """Read an IR ``.xml``. Problems are data on the returned model (``problems``); raises :class:`NotIR`
    when the file is well-formed XML of another kind.

    Nothing but ``path`` is opened: a DOCTYPE is reported before the parser sees it (libxml2 would
    expand internal entities even in attributes), and the parser neither resolves entities nor loads
    a DTD nor touches the network. The serializer's own layout is read by :mod:`.scan`; anything else
    element by element (:mod:`.reader`), with the same result.
    """
    model = IRModel(path=path, version=None, name="", layers={}, edges=Edges())
    problems = model.problems
    try:
        with open_regular(path) as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_size:
                problems.append(Problem("file-too-large", f"{size} bytes is over the limit of {max_size} "
                                        "(raise it with --max-xml-size)"))
                return model
            root, doctype = prolog(f.read(HEAD))
            if root is not None and root != b"net":
                raise NotIR(root.decode("ascii"))
            if doctype:
                problems.append(doctype_problem())
                return model
            f.seek(0)
            if read(model, f, max_size):
                return model
            f.seek(0)
            read_elements(model, f, max_size)
    except OSError as e:
        problems.append(Problem("file-unreadable", f"cannot read: {e.strerror or e}"))
    except TooLarge:
        problems.append(Problem("file-too-large", f"the file grew past the limit of {max_size} bytes "
                                "while it was read (raise it with --max-xml-size)"))
    return model
