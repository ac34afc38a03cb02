#!/usr/bin/env python3
"""Export today's IR with the real exporters, tiny and randomly initialised, and label it with ``read_model``.

Issue 23's fixtures: what optimum-intel, NNCF and openvino-tokenizers write in 2026. Every model is built from
a config object (2 layers, hidden 32, vocabulary 128; nothing is downloaded from any hub), saved locally, then
exported with optimum-intel's Python API (``OVModelFor*.from_pretrained(local_dir, export=True)``); the
tokenizers are trained here with the ``tokenizers`` library on a few sentences and converted with
``openvino_tokenizers.convert_tokenizer``. The IR pairs go to ``tests/data/today/`` and, beside them,
``labels.json``: for each file, every layer's output ports as ``read_model`` (with ``openvino_tokenizers``
imported, so their extension ops are read) gives them, ``[partial shape, element type]`` per port, by
friendly name (a list per name, in the order of ``get_ordered_ops``). The tests need only openvino.

Needs a venv outside the repository (the versions issue 23 found working together):

    python -m venv /work/venv-export
    /work/venv-export/bin/pip install openvino==2026.4.1 openvino-tokenizers==2026.4.1.0 torch==2.13.0 \\
        transformers==5.5.4 optimum==2.3.0 optimum-intel==2.2.0 nncf==3.4.0 'huggingface-hub<1.22'
    /work/venv-export/bin/pip uninstall -y torchvision   # its torch 2.13 wheel is CUDA-linked
    /work/venv-export/bin/python scripts/export_today.py            # everything
    /work/venv-export/bin/python scripts/export_today.py llama bert # only some (name substrings)
    /work/venv-export/bin/python scripts/export_today.py --label    # only relabel the committed files

gemma, mamba, lfm2 and marian need transformers 4.57.6 (``JOBS_457``): a second venv, the same pins but
``transformers==4.57.6``; run with it, the script exports those and skips the rest (then labels everything):

    python -m venv /work/venv-export457   # same pip install as above with transformers==4.57.6
    /work/venv-export457/bin/python scripts/export_today.py
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "today"
LABELS = OUT / "labels.json"
SEED = 23
SMALL = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
             vocab_size=128, max_position_embeddings=128)
TEXT = ["The quick brown fox jumps over the lazy dog.", "OpenVINO reads IR files; irreshape checks them.",
        "Tokenizers split text into pieces, then ids.", "Hello, world! 123 456 7890", "naïve café résumé"]

warnings.filterwarnings("ignore")


# -- tokenizers ------------------------------------------------------------------------------------------
def bpe_tokenizer(folder: Path):
    """A byte-level BPE tokenizer (GPT-2 style) trained on TEXT, as a transformers fast tokenizer."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(TEXT * 4, trainers.BpeTrainer(vocab_size=300, special_tokens=["<|endoftext|>"],
                                                          initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>",
                                   unk_token="<|endoftext|>")
    fast.save_pretrained(folder)
    return fast


def wordpiece_tokenizer(folder: Path):
    """A BERT-style WordPiece tokenizer (lower-casing, accents stripped) trained on TEXT."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import BertTokenizerFast
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tok.train_from_iterator(TEXT * 4, trainers.WordPieceTrainer(vocab_size=200, special_tokens=special))
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
                                                       special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    vocab = folder / "vocab.txt"
    folder.mkdir(parents=True, exist_ok=True)
    vocab.write_text("\n".join(t for t, _ in sorted(tok.get_vocab().items(), key=lambda kv: kv[1])) + "\n")
    fast = BertTokenizerFast(vocab_file=str(vocab), tokenizer_object=tok, do_lower_case=True)
    fast.save_pretrained(folder)
    return fast


def export_tokenizers(name: str, fast, tmp: Path) -> list[Path]:
    import openvino as ov
    from openvino_tokenizers import convert_tokenizer
    tok, detok = convert_tokenizer(fast, with_detokenizer=True)
    out = []
    for suffix, model in (("tokenizer", tok), ("detokenizer", detok)):
        path = OUT / f"{name}_{suffix}.xml"
        ov.save_model(model, str(path))
        out.append(path)
    return out


# -- models ----------------------------------------------------------------------------------------------
def _seeded():
    import torch
    torch.manual_seed(SEED)


def _save_hf(model, folder: Path, tokenizer=None) -> Path:
    model.eval()
    model.save_pretrained(folder)
    if tokenizer is not None:
        tokenizer.save_pretrained(folder)
    return folder


def causal(arch: str, tmp: Path, **extra):
    """A tiny causal LM of ``arch`` built from its config (random weights), saved to a local folder."""
    import transformers as T
    _seeded()
    cfg_cls = T.AutoConfig.for_model
    kw = dict(SMALL)
    if arch == "gpt2":
        kw = dict(n_embd=32, n_layer=2, n_head=4, n_positions=128, vocab_size=128)
    elif arch == "phi3":
        kw.update(num_key_value_heads=4, pad_token_id=0)
    elif arch in ("mixtral", "qwen2_moe", "gpt_oss", "qwen3_moe"):
        kw.update(num_local_experts=4, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=32,
                  shared_expert_intermediate_size=32)
    if arch == "gpt_oss":
        kw.update(head_dim=8, sliding_window=16, layer_types=["sliding_attention", "full_attention"])
    if arch in ("qwen3", "qwen3_moe", "gemma"):
        kw.update(head_dim=8)
    if arch == "mamba":
        kw = dict(hidden_size=32, state_size=8, num_hidden_layers=1, vocab_size=128, expand=2, conv_kernel=4)
    elif arch == "granitemoehybrid":  # a Mamba2 layer, then an attention layer; MoE feed-forward
        kw.update(layer_types=["mamba", "attention"], mamba_n_heads=4, mamba_n_groups=1, mamba_d_state=8,
                  mamba_d_head=16, mamba_d_conv=4, mamba_expand=2, mamba_chunk_size=16, num_local_experts=4,
                  num_experts_per_tok=2, shared_intermediate_size=32)
    elif arch == "lfm2":  # a short-convolution layer, then an attention layer
        kw.update(layer_types=["conv", "full_attention"], conv_L_cache=3, block_auto_adjust_ff_dim=False)
    kw.update(extra)
    config = cfg_cls(arch, **kw)
    model = T.AutoModelForCausalLM.from_config(config)
    return _save_hf(model, tmp / arch)


def encoder(kind: str, tmp: Path):
    import transformers as T
    _seeded()
    if kind == "bert":
        cfg = T.BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                           vocab_size=200, max_position_embeddings=64, num_labels=3)
        return cfg
    if kind == "vit":
        return T.ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                           image_size=32, patch_size=8, num_labels=5)
    if kind == "resnet":
        return T.ResNetConfig(embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1], num_labels=5)
    if kind == "t5":
        return T.T5Config(d_model=32, d_ff=64, num_layers=2, num_decoder_layers=2, num_heads=4, d_kv=8,
                          vocab_size=128, decoder_start_token_id=0)
    if kind == "whisper":  # optimum traces 3000 mel frames: the encoder's positions must be 3000 / 2
        return T.WhisperConfig(d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                               decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32, vocab_size=128,
                               num_mel_bins=8, max_source_positions=1500, max_target_positions=32,
                               decoder_start_token_id=1, pad_token_id=0, eos_token_id=2, bos_token_id=1)
    seq2seq = dict(d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=4, decoder_attention_heads=4,
                   encoder_ffn_dim=64, decoder_ffn_dim=64, vocab_size=128, max_position_embeddings=64,
                   decoder_start_token_id=1, pad_token_id=0, eos_token_id=2, bos_token_id=1)
    if kind == "bart":
        return T.BartConfig(**seq2seq)
    if kind == "marian":
        return T.MarianConfig(**seq2seq)
    if kind == "convnext":
        return T.ConvNextConfig(num_stages=2, hidden_sizes=[8, 16], depths=[1, 1], num_labels=5, image_size=32)
    if kind == "swin":
        return T.SwinConfig(image_size=32, patch_size=4, embed_dim=8, depths=[1, 1], num_heads=[2, 2], window_size=4,
                            num_labels=5)
    if kind == "clip":
        return T.CLIPConfig(text_config=dict(hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                                             num_attention_heads=4, vocab_size=128, max_position_embeddings=16),
                            vision_config=dict(hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                                               num_attention_heads=4, image_size=32, patch_size=8),
                            projection_dim=16)
    if kind == "wav2vec2":
        return T.Wav2Vec2Config(hidden_size=32, num_hidden_layers=1, num_attention_heads=4, intermediate_size=64,
                                conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16,
                                num_conv_pos_embedding_groups=4, vocab_size=32, pad_token_id=0)
    raise KeyError(kind)


def _ov_causal(src: Path, dst: Path, stateful: bool, quant=None):
    from optimum.intel import OVModelForCausalLM
    kw = {"quantization_config": quant} if quant is not None else {"load_in_8bit": False}
    model = OVModelForCausalLM.from_pretrained(src, export=True, stateful=stateful, compile=False, **kw)
    model.save_pretrained(dst)


def _collect(folder: Path, name: str) -> list[Path]:
    """The IR pairs optimum wrote in ``folder``, copied to OUT as ``name`` (+ the part's name for several)."""
    xmls = sorted(p for p in folder.glob("*.xml") if "tokenizer" not in p.name)
    out = []
    for xml in xmls:
        part = xml.stem.replace("openvino_", "").replace("_model", "")
        target = OUT / (f"{name}.xml" if len(xmls) == 1 else f"{name}_{part}.xml")
        shutil.copy(xml, target)
        shutil.copy(xml.with_suffix(".bin"), target.with_suffix(".bin"))
        out.append(target)
    return out


def run_jobs(jobs: dict, names: list[str]) -> list[str]:
    """Run each job (its name holding one of ``names``, where any are given), each in a temporary folder of its
    own; a job that fails (an architecture the installed exporters cannot do) is said and the rest go on. The
    names of the failed jobs."""
    failed = []
    for name, job in jobs.items():
        if names and not any(n in name for n in names):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            try:
                written = job(Path(tmp))
                print(f"{name}: {', '.join(p.name for p in written)}", flush=True)
            except Exception as e:  # noqa: BLE001
                failed.append(name)
                print(f"{name}: FAILED {type(e).__name__}: {str(e)[:300]}", flush=True)
                traceback.print_exc(limit=3)
    return failed


def job_causal(arch: str, stateful: bool, quant: str | None = None, layers: int = 2):
    def run(tmp: Path) -> list[Path]:
        src = causal(arch, tmp, num_hidden_layers=layers)
        q = None
        if quant:
            from optimum.intel import OVWeightQuantizationConfig
            q = {"int4": OVWeightQuantizationConfig(bits=4, group_size=16, ratio=1.0, sym=False),
                 "int8": OVWeightQuantizationConfig(bits=8),
                 "nf4": OVWeightQuantizationConfig(bits=4, group_size=16, ratio=1.0, dtype="nf4")}[quant]
        dst = tmp / "ov"
        _ov_causal(src, dst, stateful, q)
        tag = f"{arch}_{'stateful' if stateful else 'stateless'}" + (f"_{quant}" if quant else "")
        return _collect(dst, tag)
    return run


def job_bert(head: str):
    def run(tmp: Path) -> list[Path]:
        import transformers as T
        from optimum.intel import OVModelForFeatureExtraction, OVModelForSequenceClassification
        cfg = encoder("bert", tmp)
        _seeded()
        hf = (T.BertModel if head == "features" else T.BertForSequenceClassification)(cfg)
        src = _save_hf(hf, tmp / "bert")
        cls = OVModelForFeatureExtraction if head == "features" else OVModelForSequenceClassification
        cls.from_pretrained(src, export=True, compile=False).save_pretrained(tmp / "ov")
        return _collect(tmp / "ov", f"bert_{head}")
    return run


def job_image(kind: str):
    def run(tmp: Path) -> list[Path]:
        import transformers as T
        from optimum.intel import OVModelForImageClassification
        cfg = encoder(kind, tmp)
        _seeded()
        hf = T.AutoModelForImageClassification.from_config(cfg)
        src = _save_hf(hf, tmp / kind)
        OVModelForImageClassification.from_pretrained(src, export=True, compile=False).save_pretrained(tmp / "ov")
        return _collect(tmp / "ov", kind)
    return run


def job_seq2seq(kind: str):
    def run(tmp: Path) -> list[Path]:
        import transformers as T
        cfg = encoder(kind, tmp)
        _seeded()
        if kind == "whisper":
            from optimum.intel import OVModelForSpeechSeq2Seq as cls
            hf = T.WhisperForConditionalGeneration(cfg)
        else:
            from optimum.intel import OVModelForSeq2SeqLM as cls
            hf = T.AutoModelForSeq2SeqLM.from_config(cfg)
        src = _save_hf(hf, tmp / kind)
        cls.from_pretrained(src, export=True, compile=False).save_pretrained(tmp / "ov")
        return _collect(tmp / "ov", kind)
    return run


def job_task(kind: str, task: str, auto: str):
    """Any model optimum exports for ``task``: built from ``encoder(kind)`` with ``transformers.<auto>``, exported
    with ``main_export``."""
    def run(tmp: Path) -> list[Path]:
        import transformers as T
        from optimum.exporters.openvino import main_export
        cfg = encoder(kind, tmp)
        _seeded()
        src = _save_hf(getattr(T, auto).from_config(cfg) if auto.startswith("Auto") else getattr(T, auto)(cfg),
                       tmp / kind)
        main_export(str(src), output=str(tmp / "ov"), task=task, library_name="transformers")
        return _collect(tmp / "ov", kind)
    return run


def _inputs(model, rng, shapes):
    """Random inputs for every Parameter of ``model``: its shape from ``shapes`` (by name), else its dynamic dims
    set to 2 (ids below 16)."""
    import numpy as np
    out = {}
    for p in model.inputs:
        shape = shapes.get(p.get_any_name()) or [d.get_length() if d.is_static else 2 for d in p.get_partial_shape()]
        dtype = p.get_element_type().to_dtype()
        out[p.get_any_name()] = (rng.integers(0, 16, shape) if np.issubdtype(dtype, np.integer)
                                 else rng.standard_normal(shape)).astype(dtype)
    return out


def _vit_ir(tmp: Path) -> Path:
    import transformers as T
    from optimum.intel import OVModelForImageClassification
    _seeded()
    src = _save_hf(T.AutoModelForImageClassification.from_config(encoder("vit", tmp)), tmp / "vit")
    OVModelForImageClassification.from_pretrained(src, export=True, compile=False).save_pretrained(tmp / "ov")
    return tmp / "ov" / "openvino_model.xml"


def _llama_ir(tmp: Path) -> Path:
    _ov_causal(causal("llama", tmp, num_hidden_layers=1), tmp / "ov", True)
    return tmp / "ov" / "openvino_model.xml"


_PIXELS = {"pixel_values": [1, 3, 32, 32]}


def job_nncf(base, name: str, **how):
    """NNCF on a model optimum exported (``base(tmp)`` gives its XML): static quantization (``quantize=``, the
    keyword arguments of ``nncf.quantize``) on a few random samples, or weight compression (``compress=``)."""
    def run(tmp: Path) -> list[Path]:
        import nncf
        import numpy as np
        import openvino as ov
        model = ov.Core().read_model(str(base(tmp)))
        if "quantize" in how:
            rng = np.random.default_rng(SEED)
            data = nncf.Dataset([_inputs(model, rng, how.get("shapes", {})) for _ in range(3)])
            kw = dict(how["quantize"])
            if "mode" in kw:
                kw["mode"] = nncf.QuantizationMode(kw["mode"])
            model = nncf.quantize(model, data, subset_size=3, **kw)
        else:
            kw = dict(how["compress"], mode=nncf.CompressWeightsMode(how["compress"]["mode"]))
            model = nncf.compress_weights(model, **kw)
        target = OUT / f"{name}.xml"
        ov.save_model(model, str(target))
        return [target]
    return run


def job_tokenizers(kind: str):
    def run(tmp: Path) -> list[Path]:
        fast = bpe_tokenizer(tmp / "bpe") if kind == "bpe" else wordpiece_tokenizer(tmp / "wp")
        return export_tokenizers(kind, fast, tmp)
    return run


JOBS = {
    "tok_bpe": job_tokenizers("bpe"),
    "tok_wordpiece": job_tokenizers("wordpiece"),
    "llama_stateful": job_causal("llama", True),
    "llama_stateless": job_causal("llama", False),
    "qwen2_stateful": job_causal("qwen2", True),
    "qwen3_stateful": job_causal("qwen3", True),
    "phi3_stateful": job_causal("phi3", True),
    "gpt2_stateful": job_causal("gpt2", True),
    "gpt2_stateless": job_causal("gpt2", False),
    "mixtral_stateful": job_causal("mixtral", True),
    "qwen2_moe_stateful": job_causal("qwen2_moe", True),
    "gpt_oss_stateful": job_causal("gpt_oss", True),
    "llama_int4": job_causal("llama", True, "int4"),
    "qwen2_int8": job_causal("qwen2", True, "int8"),
    "phi3_nf4": job_causal("phi3", True, "nf4"),
    "bert_features": job_bert("features"),
    "bert_classifier": job_bert("classifier"),
    "vit": job_image("vit"),
    "resnet": job_image("resnet"),
    "t5": job_seq2seq("t5"),
    "whisper": job_seq2seq("whisper"),
    "bart": job_seq2seq("bart"),
    "qwen3_moe_stateful": job_causal("qwen3_moe", True, layers=1),
    "granitemoehybrid_stateful": job_causal("granitemoehybrid", True),
    "granitemoe_stateful": job_causal("granitemoe", True, layers=1),  # MoE, unseen by issue 23's helpers
    "convnext": job_image("convnext"),
    "swin": job_image("swin"),
    "clip": job_task("clip", "zero-shot-image-classification", "CLIPModel"),
    "wav2vec2": job_task("wav2vec2", "automatic-speech-recognition", "Wav2Vec2ForCTC"),
    "vit_int8_static": job_nncf(_vit_ir, "vit_int8_static", quantize={}, shapes=_PIXELS),
    "vit_f8e4m3_static": job_nncf(_vit_ir, "vit_f8e4m3_static", quantize={"mode": "fp8_e4m3"},
                                   shapes=_PIXELS),
    "llama_mxfp4": job_nncf(_llama_ir, "llama_stateful_mxfp4", compress={"mode": "mxfp4", "group_size": 32}),
    "llama_cb4": job_nncf(_llama_ir, "llama_stateful_cb4", compress={"mode": "cb4", "group_size": 16}),
}
# transformers 4.57.6 only (a second venv, see the docstring): run there, the jobs above are skipped
JOBS_457 = {
    "marian": job_seq2seq("marian"),
    "mamba_stateful": job_causal("mamba", True, layers=1),
    "gemma_stateful": job_causal("gemma", True, layers=1),
    "lfm2_stateful": job_causal("lfm2", True),
}


# -- labels ----------------------------------------------------------------------------------------------
def label(paths: list[Path]) -> dict:
    """Every output port of every op ``read_model`` gives, by friendly name: [partial shape, element type]."""
    import openvino as ov
    import openvino_tokenizers  # noqa: F401  registers the tokenizer ops with read_model
    core = ov.Core()
    labels = {}
    for path in sorted(paths):
        model = core.read_model(str(path))
        layers: dict[str, list] = {}
        ops = model.get_ordered_ops()
        for op in ops:
            layers.setdefault(op.get_friendly_name(), []).append(
                [[str(o.get_partial_shape()), o.get_element_type().get_type_name()] for o in op.outputs()])
        labels[path.name] = {"types": sorted({op.get_type_name() for op in ops}), "layers": layers}
        keep.append((model, ops))
    return labels


keep: list = []  # read models stay alive: freeing an old tokenizer's extension ops crashes openvino_tokenizers


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="only the jobs whose name contains one of these")
    ap.add_argument("--label", action="store_true", help="only relabel the files in tests/data/today")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--wild", metavar="XML", nargs="+", help="label these files (../shared/wild-ir's tokenizer, whose "
                    "ops read_model reads only with openvino_tokenizers) into tests/data/today/wild_labels.json")
    args = ap.parse_args()
    if args.list:
        print("\n".join([*JOBS, *JOBS_457]))
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    if args.wild:
        (OUT / "wild_labels.json").write_text(json.dumps(label([Path(p) for p in args.wild]), sort_keys=True) + "\n")
        os._exit(0)  # no teardown: see `keep`
    failed: list[str] = []
    import transformers
    jobs = JOBS_457 if transformers.__version__.startswith("4.57") else JOBS
    if not args.label:
        failed = run_jobs(jobs, args.names)
    xmls = sorted(OUT.glob("*.xml"))
    LABELS.write_text(json.dumps(label(xmls), sort_keys=True) + "\n")
    size = sum(p.stat().st_size for p in OUT.iterdir())
    print(f"{len(xmls)} IR files, {size / 1e6:.2f} MB in {OUT.relative_to(ROOT)}; failed: {failed or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
