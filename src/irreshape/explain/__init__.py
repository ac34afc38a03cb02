"""``irreshape explain FILE LAYER``: how one layer's expected dims are derived, by the explainer of the file's
format (:mod:`irreshape.core.formats`)."""

from __future__ import annotations

from typing import Optional

from ..checks import check_file
from ..core import formats
from ..core.results import Options


class ExplainError(ValueError):
    """The file or the layer cannot be explained (exit status 2)."""


def explain(path: str, wanted: str, max_xml_size: Optional[int] = None) -> list[str]:
    """The explanation, as lines of text. Raises ExplainError for a file or a layer it cannot explain."""
    options = Options(layers="all") if max_xml_size is None else Options(max_xml_size=max_xml_size, layers="all")
    result = check_file(path, options)
    if result is None:
        raise ExplainError(f"{path} is not an OpenVINO IR (its root element is not <net>) "
                           "nor a oneDNN Graph document")
    return (formats.of(path) or formats.DEFAULT).load("explain")(result, wanted)
