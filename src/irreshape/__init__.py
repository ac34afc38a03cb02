"""irreshape: lint OpenVINO IR files — recompute the dims a layer's XML declares and report the ones that lie.

The Python API is :func:`check` and :func:`diff` (see :mod:`irreshape.api`); it is imported on first use, so that
the command line starts without it.
"""

from .core import __version__

__all__ = ["Report", "UsageError", "__version__", "check", "diff"]


def __getattr__(name: str):
    if name in ("check", "diff", "Report", "UsageError"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'irreshape' has no attribute {name!r}")
