"""The state of stateful models: ReadValue and Assign, as openvino 2026.4.1's ``read_model`` infers them.

A stateful decoder (optimum-intel's default export) keeps its KV cache in variables: each ReadValue reads one
(``variable_id``), initialised from its input, and each Assign writes one. Measured on openvino 2026.4.1
(``src/core/src/op/read_value.cpp``, ``assign.cpp``, ``assign_shape_inference.hpp``):

* ``ReadValue`` (opset6): the IR declares the variable on the layer (``variable_shape``, ``variable_type``;
  absent: ``...`` and ``dynamic``). With an initialiser (input 0) the variable's shape must *relax* the
  initialiser's (the same rank, each dim's interval containing the initialiser's; a dynamic rank relaxes
  anything), else OpenVINO rejects it ("The shape specified in the Variable has to extend (relax) the shape
  inferred from the initializing subgraph."). The output is the variable's shape, or the initialiser's when the
  variable has a dynamic rank *and* a dynamic type (what IRs of older releases carry). Without an input the
  output is the variable's shape. More than one input is rejected.
* ``ReadValue`` (opset3): its input's shape (the variable takes it).
* ``Assign`` (opset6): its input's shape; read_model makes no check against the variable (an Assign writing a
  ``[3,5]`` into a ``[?,4]`` variable loads), but a variable no ReadValue of the file declares makes the IR
  reader fail (``map::at``).
* ``Assign`` (opset3): its input's shape, once it finds a ReadValue-3 of its ``variable_id`` among its own
  inputs' producers ("Can't find variable with id = ..."), and where both shapes are static they must be equal
  ("Variables output shapes are inconsistent.").

The checks that need the whole file (which ReadValue declares which variable, where it is) are
:mod:`irreshape.checks.variables`'. ReadValue's type rule checks ``variable_type`` against its initialiser's
type, after the shape function has checked the shapes.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...core import etypes as E
from ...core.dims import Dim, Shape, format_shape, parse_shape
from ..node import Node, ShapeError, shape_infer, type_infer
from ..typerule import attr_type, in_type


def variable_shape(attrs: Mapping[str, str]) -> Shape:
    """A ReadValue-6's ``variable_shape`` (absent: a dynamic rank); ShapeError where OpenVINO cannot parse it."""
    text = attrs.get("variable_shape")
    if text is None:
        return None
    try:
        return parse_shape(text)
    except ValueError:
        raise ShapeError(f"Cannot parse the variable_shape {text!r}") from None


def variable_dynamic_type(node: Node) -> bool:
    return node.lower("variable_type") in ("dynamic", "undefined")


def relaxes(wide: Shape, narrow: Shape) -> bool:
    """``PartialShape::relaxes``: ``wide`` holds every shape ``narrow`` may be."""
    if wide is None:
        return True
    if narrow is None:
        return False
    return len(wide) == len(narrow) and all(_relaxes(w, n) for w, n in zip(wide, narrow))


def _relaxes(wide: Dim, narrow: Dim) -> bool:
    return wide.lo <= narrow.lo and wide.hi >= narrow.hi


@shape_infer("ReadValue", versions=(6,))
def _read_value_6(node: Node) -> list[Shape]:
    shape = variable_shape(node.attrs)
    if not node.inputs:
        return [shape]
    init = node.input(0)
    if not relaxes(shape, init):
        raise ShapeError("The shape specified in the Variable has to extend (relax) the shape inferred from the "
                         f"initializing subgraph. Variable shape: {format_shape(shape)} Initialization shape: "
                         f"{format_shape(init)}")
    if shape is None and variable_dynamic_type(node):
        return [init]
    return [shape]


@shape_infer("ReadValue", versions=(3,))
def _read_value_3(node: Node) -> list[Shape]:
    return [node.input(0)]


@type_infer("ReadValue")
def _read_value_types(node: Node) -> list[str | None]:
    """The element type of a ReadValue's output from its ``variable_type`` and its initialiser's type (input 0), as
    ``validate_and_infer_types`` gives it (measured on openvino 2026.4.1). ReadValue-3 takes its input's type
    (``variable_type`` is not read). ReadValue-6 with an initialiser: a variable type that is not dynamic must be the
    initialiser's exactly (a dynamic initialiser too is refused); the shape is checked before (the shape function's
    refusal comes first). The output is the variable's type, the initialiser's where the variable has a dynamic type
    *and* a dynamic rank (IRs of older releases)."""
    init = in_type(node, 0)
    if node.version == 3:
        return [init]
    variable = attr_type(node, "variable_type", E.DYNAMIC)
    if not node.types:
        return [variable]
    if variable != E.DYNAMIC:
        if init is not None and init != variable:
            raise ShapeError("The type specified in the Variable has to extend (relax) the type inferred from the "
                             f"initializing subgraph. Variable type: {variable} Initialization type: {init}")
        return [variable]
    try:
        dynamic_rank = variable_shape(node.attrs) is None
    except ShapeError:  # an unreadable variable_shape: the shape function's refusal
        return [None]
    return [init if dynamic_rank else variable]


@shape_infer("Assign", versions=(6,))
def _assign_6(node: Node) -> list[Shape]:
    return [node.input(0)]


@shape_infer("Assign", versions=(3,))
def _assign_3(node: Node) -> list[Shape]:
    """Assign-3's own shape; the variable it finds upstream is checked by :mod:`irreshape.checks.variables`."""
    return [node.input(0)]
