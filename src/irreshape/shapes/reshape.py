"""Reshape-1 shape inference, exactly as openvino 2026.4.1 does it (``v1::shape_infer``).

Pure functions on dims; no XML here. The pattern is given as one ``Dim`` per element: the
element's value bounds (a Const value ``v`` is ``Dim(v, v)``; a computed one may be an interval)
and, where known, its symbol.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.dims import INF, INT64_MIN, Bound, Dim, Shape, format_shape, is_static_shape


class ReshapeError(ValueError):
    """The layer is invalid: OpenVINO would refuse to build it. ``kind`` names the check."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _is_minus_one(b: Bound) -> bool:
    return b.lo == -1 and b.hi == -1


def pattern_dims(bounds: Sequence[Bound]) -> tuple[list[Dim], int | None]:
    """``get_pattern_and_minus_one_idx``: bounds → pattern dims and the index of ``-1``."""
    dims: list[Dim] = []
    minus_one: int | None = None
    for i, b in enumerate(bounds):
        if _is_minus_one(b):
            if minus_one is not None:
                raise ReshapeError("two-minus-one", "More than one dimension has size of -1")
            minus_one = i
        if (b.lo, b.hi) >= (-1, -1):
            d = Dim(b.lo, b.hi, b.sym)
        elif (b.lo < 0) != (b.hi < 0):
            d = Dim(0, INF)
        else:
            raise ReshapeError("invalid-value", f"Output pattern dim[{i}] has invalid bounds: {b.lo},{b.hi}")
        dims.append(d)
    return dims, minus_one


class _Product:
    """``reshape::Product<Dimension>``: input/output products with equal factors cancelled."""

    def __init__(self) -> None:
        self.inputs: list[Dim] = []
        self.outputs: list[Dim] = []
        self.in_static = Dim.of(1)
        self.out_static = Dim.of(1)
        self.in_dyn = Dim.of(1)
        self.out_dyn = Dim.of(1)

    def set_inf(self) -> None:
        self.in_dyn = Dim.dynamic()
        self.out_dyn = Dim.dynamic()

    @staticmethod
    def _full_eq(a: Dim, b: Dim) -> bool:
        return a == b and a.sym == b.sym and (a.is_static or a.sym is not None)

    def _mul(self, which: str, d: Dim) -> None:
        if d.is_static:
            setattr(self, which + "_static", d * getattr(self, which + "_static"))
        else:
            setattr(self, which + "_dyn", d * getattr(self, which + "_dyn"))

    def calculate(self) -> None:
        outs = list(self.outputs)
        for d in self.inputs:
            for k, o in enumerate(outs):
                if self._full_eq(d, o) and not d == 0:
                    del outs[k]
                    break
            else:
                self._mul("in", d)
        for o in outs:
            self._mul("out", o)
        if self.in_static != self.out_static:
            self.in_dyn = self.in_dyn * self.in_static
            self.out_dyn = self.out_dyn * self.out_static


def _resolve_minus_one(p: _Product) -> Dim:
    m = p.in_dyn
    out = p.out_dyn
    if m.is_static and out.is_static:
        return m.div(out.lo)
    lo, hi, sym = m.lo, m.hi, m.sym
    out_min = out.lo if out.lo != INF else -1  # get_min_length(): -1 when "infinite"
    out_max = out.hi if out.hi != INF else -1
    if m.hi != INF and out_min != 0 and not (out.lo == 0 and out.hi == INF):
        hi = hi // out_min if out_min > 0 else -hi  # a product saturated at s_max: C++ divides by its min length, -1
    else:
        hi = INF
    if out_max != 0:
        lo = -(-lo // out.hi) if out.hi != 0 else lo
    if not (out.lo == 1 and out.hi == 1):
        sym = None
    # set_max_val/set_min_val do not canonicalise: OpenVINO can print an impossible `1..0` here
    return Dim.raw(lo, hi, sym)


def reshape_v1(input_shape: Shape, bounds: Sequence[Bound], special_zero: bool) -> Shape:
    """Output shape of ``opset1::Reshape`` for ``input_shape`` and a pattern of ``bounds``.

    Raises :class:`ReshapeError` with OpenVINO's own message where OpenVINO rejects the layer.
    """
    pattern, minus_one = pattern_dims(bounds)
    out: list[Dim] = []
    prod = _Product()
    if input_shape is None:
        # Dynamic input rank. The -1 element itself (a `?`) enters the output product, which is
        # why OpenVINO resolves it to `1..` rather than `?`.
        for p in pattern:
            if special_zero and p == 0:
                out.append(Dim.dynamic())
                prod.set_inf()
            else:
                out.append(p)
                prod.outputs.append(p)
    else:
        n_in = len(input_shape)
        for i, p in enumerate(pattern):
            ignore = special_zero and p == 0
            if i == minus_one:
                out.append(Dim.dynamic())
            elif ignore:
                if i >= n_in:
                    raise ReshapeError("zero-out-of-range", "'0' dimension is out of range")
                out.append(input_shape[i])
            else:
                out.append(p)
                prod.outputs.append(p)
            if i < n_in and not ignore:
                prod.inputs.append(input_shape[i])
        prod.inputs.extend(input_shape[len(pattern):])
    prod.calculate()

    if minus_one is not None:
        out[minus_one] = _resolve_minus_one(prod)
        if prod.out_static == 0:
            if not prod.in_static == 0:
                raise ReshapeError(
                    "zero-with-minus-one",
                    "Cannot infer '-1' dimension with zero-size output dimension unless at least one "
                    "input dimension is also zero-size",
                )
        elif out[minus_one].is_empty:
            raise ReshapeError(
                "indivisible", "Non-'-1' output dimensions do not evenly divide the input dimensions"
            )

    if is_static_shape(input_shape) and is_static_shape(out):
        backward_compatible = (special_zero and any(p == 0 for p in pattern)) or minus_one is not None
        if not backward_compatible and prod.in_static != prod.out_static:
            raise ReshapeError(
                "volume", f"Requested output shape {format_shape(out)} is incompatible with input shape"
            )
    return out


def bound_value(v: int, element_type: str) -> int:
    """One integer value as ``get_input_bounds`` reads it: the minimum/maximum of i32 and i64 become
    INT64_MIN/INT64_MAX (so a maximum reads as a dynamic dim), and an unsigned value is cast to int64 (u64
    max reads as -1)."""
    lims = _LIMITS.get(element_type.lower())
    if lims is not None:
        if v == lims[0]:
            return INT64_MIN
        if v == lims[1]:
            return INF
    return v - (1 << 64) if v >= 1 << 63 else v


_LIMITS = {"i32": (-(1 << 31), (1 << 31) - 1), "i64": (INT64_MIN, INF)}


def pattern_from_values(values: Sequence[int], element_type: str) -> list[Bound]:
    """Const pattern values → bounds, each as :func:`bound_value` reads it."""
    return [Bound.value(bound_value(v, element_type)) for v in values]
