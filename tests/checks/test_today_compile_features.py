"""The compile-stage features of today's transformer and LLM exports (irreshape.checks.plugin): found on the
committed exports of tests/data/today where they hold them and nowhere else, on every probe of their families in
tests/irtools/plugincases.py, and never on the near misses (models one part short of a feature). What each
release does with them is measured by scripts/make_plugins.py with the releases' own wheels; here only which
layers hold which feature, which needs no old release."""

from __future__ import annotations

from pathlib import Path

import pytest
from irtools import plugincases

from irreshape.checks.plugin import every_feature
from irreshape.frontends.openvino import parse

TODAY = Path(__file__).resolve().parents[2] / "tests" / "data" / "today"
KINDS = ("sdpa-mask", "sdpa-sink", "decompress-matmul", "decompress-gather", "codebook-matmul", "sdpa-state-init",
         "sdpa-mha", "mha")


def _features(path: Path, kinds: tuple = KINDS) -> dict[tuple, set[str]]:
    """{key: the names of the layers holding it} of the features of ``kinds``."""
    found: dict[tuple, set[str]] = {}
    for inst in every_feature(parse(str(path))):
        if inst.key[0] in kinds:
            found.setdefault(inst.key, set()).add(inst.name)
    return found


def _written(tmp_path: Path, name: str, xml: str, weights: bytes) -> Path:
    path = tmp_path / f"{name}.xml"
    path.write_text(xml)
    path.with_suffix(".bin").write_bytes(weights)
    return path


@pytest.mark.parametrize("name, keys", [
    # seq2seq decoders keeping the encoder's keys in variables initialised by a MatMul of the encoder states' own
    # variable: 2025.0 and 2025.1 refuse them; whisper's has no such mask and no such variable
    ("bart_decoder", {("sdpa-state-init", "dynamic"), ("sdpa-mask", "f32", "dynamic", "stateful")}),
    ("marian_decoder", {("sdpa-state-init", "dynamic"), ("sdpa-mask", "f32", "dynamic", "stateful")}),
    ("t5_decoder", {("sdpa-state-init", "dynamic"), ("sdpa-mask", "f32", "dynamic", "stateful")}),
    ("whisper_decoder", {("sdpa-mask", "f32", "dynamic", "stateful")}),
    # the attention sink of gpt-oss in a stateful model; the encoders' boolean masks without variables
    ("gpt_oss_stateful", {("sdpa-sink", "stateful", "dynamic"), ("sdpa-mask", "f32", "dynamic", "stateful")}),
    ("bert_features", {("sdpa-mask", "boolean", "dynamic", "stateless")}),
    ("wav2vec2", {("sdpa-mask", "boolean", "dynamic", "stateless")}),
    # NNCF: int4 and nf4 weights scaled into MatMuls, the int8 embedding table, the cb4 codebook lookups
    ("llama_stateful_int4", {("decompress-matmul", "u4"), ("decompress-matmul", "u8"),
                             ("decompress-gather", "u8", "f16,zp"), ("sdpa-mask", "f32", "dynamic", "stateful")}),
    ("phi3_stateful_nf4", {("decompress-matmul", "nf4"), ("decompress-matmul", "u8"),
                           ("decompress-gather", "u8", "f16,zp"), ("sdpa-mask", "f32", "dynamic", "stateful")}),
    ("llama_stateful_cb4", {("codebook-matmul", "u8"), ("decompress-matmul", "u8"),
                            ("decompress-gather", "u8", "f16,zp"), ("sdpa-mask", "f32", "dynamic", "stateful")}),
    ("qwen2_stateful", {("sdpa-mask", "f32", "dynamic", "stateful")}),
    ("resnet", set()),
])
def test_today_exports(name, keys):
    # an attention of none of the forms some release refuses (computed keys and values, its output projected) is
    # left out
    found = set(_features(TODAY / f"{name}.xml"))
    assert {k for k in found if k[0] not in ("sdpa-mha", "mha") or k[1:3] != ("computed", "matmul")} == keys


def test_features_on_the_layers_the_releases_name():
    found = _features(TODAY / "bart_decoder.xml")
    assert found[("sdpa-state-init", "dynamic")] == {
        "__module.model.decoder.layers.0.encoder_attn/aten::scaled_dot_product_attention/ScaledDotProductAttention"}
    found = _features(TODAY / "llama_stateful_cb4.xml")
    assert all(n.endswith("_nncf_codebook") for n in found[("codebook-matmul", "u8")])
    assert len(found[("codebook-matmul", "u8")]) == 7  # the two layers' projections (the head is int8)


@pytest.mark.parametrize("family", ["sdpa_state_cases", "sdpa_mha_cases", "decompress_matmul_cases",
                                    "decompress_gather_cases", "codebook_cases", "cross_attention_cases"])
def test_every_probe_holds_its_feature(family, tmp_path):
    missing = []
    for case in getattr(plugincases, family)():
        if case.key not in _features(_written(tmp_path, case.name, case.xml, case.weights), (case.key[0],)):
            missing.append((case.name, case.key))
    assert not missing


def test_no_near_miss_holds_the_feature(tmp_path):
    held = [(name, key) for name, key, xml, weights in plugincases.near_misses()
            if key in _features(_written(tmp_path, name, xml, weights))]
    assert not held
