"""Checking files: one checker per format (the table is :mod:`irreshape.core.formats`), each turning a model
into a :class:`~irreshape.core.results.FileResult` of verdicts and findings. No output here."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from ..core import __version__, formats
from ..core.findings import Finding
from ..core.results import FileResult, Options
from ..core.text import clip, display_path
from ..rules.structure import INTERNAL_ERROR


def check_file(path: str, options: Options | None = None) -> FileResult | None:
    """Check one file of any format irreshape reads (an IR ``.xml``, a oneDNN Graph ``.json``; any other
    suffix is read as an IR). None when the file is XML or JSON of another kind (skipped without a word).

    Never raises for a bad file, nor for a bug: an unexpected exception becomes an IR900 finding and
    ``internal_error`` (unless ``options.debug``).
    """
    options = options or Options()
    check = (formats.of(path) or formats.DEFAULT).load("check")
    try:
        with no_cycle_collection():
            return check(path, options)
    except Exception as e:
        if options.debug:
            raise
        return FileResult(path, findings=[internal_error(path, e)], internal_error=True)


def internal_error(path: str, exc: Exception, layer=None) -> Finding:
    """IR900: irreshape failed on this file (or this layer of it)."""
    where = f"layer {clip(layer.name)!r} (id {clip(layer.id)}) of " if layer is not None else ""
    return Finding(INTERNAL_ERROR, f"internal error while checking {where}{display_path(path)!r}: "
                   f"{type(exc).__name__}: {clip(exc, 200)}. This is a bug in irreshape {__version__}: please report "
                   "it with the file (run with --debug for the traceback)", layer.line if layer is not None else None,
                   layer.ref if layer is not None else None)


def failed(result: FileResult, options: Options | None, exc: Exception, layer=None) -> None:
    """A check that failed on one layer (of ``result``'s file): an IR900 finding, the others go on; with
    ``options.debug`` the exception itself, traceback and all."""
    if options is not None and options.debug:
        raise exc
    result.findings.append(internal_error(result.path, exc, layer))
    result.internal_error = True


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off for the block. A parse makes a million objects and no cycle, and the
    collector would walk them all again and again; keep it off until the model is dropped, for whatever
    was made with it off still waits in the youngest generation to be walked."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
