"""Helpers for irreshape tests (library code only, no test functions).

* :mod:`tests.irtools.oracle`  - OpenVINO as the reference ("oracle") for Reshape shape inference.
* :mod:`tests.irtools.scenarios` - OpenVINO's verdict on a model under new input shapes (``Model.reshape`` + the
  spec's Reshape volume rule), the values a dynamic dim can take, and running a model on CPU in a child process.
* :mod:`tests.irtools.corrupt` - single-fault corruptions of an IR pair given as ``(xml_bytes, bin_bytes)``.
"""
