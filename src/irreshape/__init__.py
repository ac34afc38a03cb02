"""irreshape: lint OpenVINO IR files — recompute every Reshape's output dims and report the ones whose XML lies."""

__version__ = "0.1.0"
