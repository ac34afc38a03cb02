"""Helpers for irreshape tests (library code only, no test functions).

* :mod:`tests.irtools.oracle`  - OpenVINO as the reference ("oracle") for Reshape shape inference.
* :mod:`tests.irtools.corrupt` - single-fault corruptions of an IR pair given as ``(xml_bytes, bin_bytes)``.
"""
