#!/usr/bin/env python3
"""Export small, real-world OpenVINO IR pairs used as test fixtures by irreshape.

How to run (from the repository root; Linux (uses fork); needs torch, transformers, openvino, onnx):

    python scripts/export_models.py            # writes tests/data/models/<name>.xml + .bin
    python scripts/export_models.py --list     # just print the model names
    python scripts/export_models.py bert vit   # only some models (name substrings)

The committed files in tests/data/models/ are what CI uses: CI has openvino but NOT torch/transformers/onnx,
so re-run this script and commit the outputs whenever it changes. It is deterministic (fixed seeds, fixed
example inputs, models built from config objects with random weights; nothing is downloaded from any hub)
and needs ~40 s of CPU (about 1-1.5 min wall on a busy 2-core box; one forked child per model, run in
parallel; every output is byte-identical whether all or only some models are exported).

Every model goes through ``openvino.convert_model`` + ``openvino.save_model`` (default compress_to_fp16=True).
Shapes are dynamic unless the name says otherwise, so the ShapeOf/Gather/Concat/... subgraphs that feed
Reshape port 1 survive conversion:

* ``pt_*``    small torch.nn.Modules, one Reshape idiom each;
* ``pt_static_*`` exported with a fully static input (shape subgraphs constant-folded to Const patterns);
* ``pt_interval_*`` exported with an interval input ``1..8,?,32``;
* ``onnx_*``  torch.onnx.export (TorchScript exporter) -> ``openvino.convert_model(path.onnx)`` (a small
  module, and Swin);
* ``hf_*``    tiny transformers models (BERT, GPT-2, T5, ViT, Swin, Mistral, Falcon, BART, DeBERTa-v2,
  Longformer, SegFormer, MobileViT) built from config objects.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
import warnings
from pathlib import Path

import openvino as ov
import torch
from torch import nn

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "tests" / "data" / "models"

warnings.filterwarnings("ignore")  # TracerWarnings from transformers/torch.jit.trace are expected noise


def _ps(s: str) -> ov.PartialShape:
    return ov.PartialShape(s)


# --------------------------------------------------------------------------------------------------
# PyTorch modules, one Reshape idiom each
# --------------------------------------------------------------------------------------------------

class FlattenView(nn.Module):
    """x.view(x.size(0), -1)"""

    def forward(self, x):
        return x.view(x.size(0), -1) * 2.0


class HeadSplitMerge(nn.Module):
    """Attention head split view(B, T, H, D) + transpose + merge reshape(B, T, -1)."""

    def __init__(self, dim: int = 32, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        d = c // self.heads
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(b, t, self.heads, d).transpose(1, 2)
        k = k.view(b, t, self.heads, d).transpose(1, 2)
        v = v.view(b, t, self.heads, d).transpose(1, 2)
        att = torch.softmax(q @ k.transpose(-1, -2) / d ** 0.5, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, -1)
        return self.proj(y)


class ReshapeHalf(nn.Module):
    """x.reshape(b, l, 2, d // 2)"""

    def forward(self, x):
        b, seq, d = x.shape
        return x.reshape(b, seq, 2, d // 2).sum(-2)


class ReshapeLike(nn.Module):
    """x.reshape(y.shape[0], y.shape[1], -1)"""

    def forward(self, x, y):
        return x.reshape(y.shape[0], y.shape[1], -1) + 1.0


class ViewLast(nn.Module):
    """x.view(-1, x.size(-1))"""

    def forward(self, x):
        return x.view(-1, x.size(-1)) * 2.0


class SmallCNN(nn.Module):
    """conv -> relu -> pool -> torch.flatten(x, 1) -> linear"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(4 * 4 * 4, 10)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv(x)))
        return self.fc(torch.flatten(x, 1))


class MergeSpatial(nn.Module):
    """x.view(x.size(0), x.size(1) * x.size(2), x.size(3))"""

    def forward(self, x):
        return x.view(x.size(0), x.size(1) * x.size(2), x.size(3)) - 1.0


class OnnxHeads(nn.Module):
    """For the ONNX export: head split with a dynamic batch/sequence and a flatten."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(32, 32)

    def forward(self, x):
        b, t = x.shape[0], x.shape[1]
        h = self.lin(x).reshape(b, t, 4, 8).transpose(1, 2)
        return h.reshape(b, -1)


# --------------------------------------------------------------------------------------------------
# Exporters
# --------------------------------------------------------------------------------------------------

def _convert_pt(module: nn.Module, example, inputs=None) -> ov.Model:
    module.eval()
    kwargs = {} if inputs is None else {"input": inputs}
    with torch.no_grad():
        return ov.convert_model(module, example_input=example, **kwargs)


def m_pt_flatten_view():
    torch.manual_seed(0)
    # partially static input: the ShapeOf chain folds into Const [0,-1] special_zero=true
    return _convert_pt(FlattenView(), (torch.randn(2, 3, 4, 4),), [_ps("?,3,4,4")])


def m_pt_flatten_view_dyn():
    torch.manual_seed(0)
    # no input=: fully dynamic [?,?,?,?]
    return _convert_pt(FlattenView(), (torch.randn(2, 3, 4, 4),))


def m_pt_mha_split_merge():
    torch.manual_seed(0)
    return _convert_pt(HeadSplitMerge(), (torch.randn(2, 5, 32),), [_ps("?,?,32")])


def m_pt_reshape_half():
    torch.manual_seed(0)
    return _convert_pt(ReshapeHalf(), (torch.randn(2, 5, 8),))


def m_pt_reshape_like():
    torch.manual_seed(0)
    return _convert_pt(ReshapeLike(), (torch.randn(2, 3, 4, 5), torch.randn(2, 3)))


def m_pt_view_last():
    torch.manual_seed(0)
    return _convert_pt(ViewLast(), (torch.randn(2, 3, 6),))


def m_pt_merge_spatial():
    torch.manual_seed(0)
    return _convert_pt(MergeSpatial(), (torch.randn(2, 3, 4, 5),), [_ps("?,3,?,?")])


def m_pt_cnn_flatten():
    torch.manual_seed(0)
    return _convert_pt(SmallCNN(), (torch.randn(2, 3, 8, 8),), [_ps("?,3,8,8")])


def m_pt_static_mha():
    torch.manual_seed(0)
    return _convert_pt(HeadSplitMerge(), (torch.randn(2, 5, 32),), [_ps("2,5,32")])


def m_pt_interval_heads():
    torch.manual_seed(0)
    return _convert_pt(HeadSplitMerge(), (torch.randn(2, 5, 32),), [_ps("1..8,?,32")])


def m_onnx_heads_flatten():
    torch.manual_seed(0)
    module = OnnxHeads().eval()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "onnx_heads_flatten.onnx")
        with torch.no_grad():
            torch.onnx.export(module, (torch.randn(2, 5, 32),), path, dynamo=False, opset_version=17,
                              input_names=["x"], output_names=["y"],
                              dynamic_axes={"x": {0: "N", 1: "T"}, "y": {0: "N"}})
        return ov.convert_model(path)


def m_onnx_swin():
    """Swin through ONNX: the pads of its window Pad are an ONNX ``[2, rank]`` tensor, transposed and split."""
    from transformers import SwinConfig, SwinModel
    torch.manual_seed(0)
    model = SwinModel(SwinConfig(image_size=32, patch_size=4, embed_dim=16, depths=[2, 2], num_heads=[2, 4],
                                 window_size=2)).eval()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "onnx_swin.onnx")
        with torch.no_grad():
            torch.onnx.export(model, (torch.randn(2, 3, 32, 32),), path, dynamo=False, opset_version=17,
                              input_names=["pixel_values"],
                              dynamic_axes={"pixel_values": {0: "N", 2: "H", 3: "W"}})
        return ov.convert_model(path)


def _hf_ids(seq: int = 7, batch: int = 2):
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 100, (batch, seq), generator=g)
    return ids, torch.ones(batch, seq, dtype=torch.long)


def m_hf_bert():
    from transformers import BertConfig, BertModel
    torch.manual_seed(0)
    cfg = BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37,
                     vocab_size=100, max_position_embeddings=64)
    ids, mask = _hf_ids()
    return _convert_pt(BertModel(cfg), {"input_ids": ids, "attention_mask": mask})


def m_hf_gpt2():
    from transformers import GPT2Config, GPT2Model
    torch.manual_seed(0)
    cfg = GPT2Config(n_embd=32, n_layer=2, n_head=4, vocab_size=100, n_positions=64, use_cache=False,
                     bos_token_id=0, eos_token_id=0)
    ids, mask = _hf_ids()
    return _convert_pt(GPT2Model(cfg), {"input_ids": ids, "attention_mask": mask})


def m_hf_t5():
    from transformers import T5Config, T5Model
    torch.manual_seed(0)
    cfg = T5Config(d_model=32, d_kv=8, d_ff=37, num_layers=2, num_decoder_layers=2, num_heads=4,
                   vocab_size=100, use_cache=False)
    ids, mask = _hf_ids()
    dec, _ = _hf_ids(seq=5)
    return _convert_pt(T5Model(cfg), {"input_ids": ids, "attention_mask": mask, "decoder_input_ids": dec})


def m_hf_vit():
    from transformers import ViTConfig, ViTModel
    torch.manual_seed(0)
    cfg = ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37,
                    image_size=32, patch_size=8)
    # dynamic batch, static image size (interpolate_pos_encoding is off)
    return _convert_pt(ViTModel(cfg), {"pixel_values": torch.randn(2, 3, 32, 32)}, [_ps("?,3,32,32")])


def m_hf_swin():
    from transformers import SwinConfig, SwinModel
    torch.manual_seed(0)
    cfg = SwinConfig(image_size=32, patch_size=4, embed_dim=16, depths=[2, 2], num_heads=[2, 4], window_size=2)
    # no input=: batch and spatial dims all dynamic -> many ShapeOf-computed window reshapes
    return _convert_pt(SwinModel(cfg), {"pixel_values": torch.randn(2, 3, 32, 32)})


def _hf_text(config_cls: str, model_cls: str, **cfg) -> ov.Model:
    import transformers
    torch.manual_seed(0)
    model = getattr(transformers, model_cls)(getattr(transformers, config_cls)(**cfg))
    ids, mask = _hf_ids()
    return _convert_pt(model, {"input_ids": ids, "attention_mask": mask})


def m_hf_mistral():
    # grouped-query attention, rotary embeddings, sliding-window mask
    return _hf_text("MistralConfig", "MistralModel", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                    num_key_value_heads=2, intermediate_size=37, vocab_size=100, max_position_embeddings=64,
                    use_cache=False)


def m_hf_falcon():
    return _hf_text("FalconConfig", "FalconModel", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                    vocab_size=100, use_cache=False)


def m_hf_bart():
    # encoder-decoder; the decoder ids come from shifting the input ids inside the model
    return _hf_text("BartConfig", "BartModel", d_model=32, encoder_layers=2, decoder_layers=2,
                    encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=37, decoder_ffn_dim=37,
                    vocab_size=100, max_position_embeddings=64, use_cache=False)


def m_hf_deberta_v2():
    # relative-position attention: many computed reshapes of the position buckets
    return _hf_text("DebertaV2Config", "DebertaV2Model", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=37, vocab_size=100, max_position_embeddings=64)


def m_hf_longformer():
    # sliding-window attention: the sequence is padded to the window and cut into overlapping chunks,
    # every Reshape of it computed from the input's length
    return _hf_text("LongformerConfig", "LongformerModel", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=37, vocab_size=100, max_position_embeddings=80, attention_window=4)


def m_hf_segformer():
    from transformers import SegformerConfig, SegformerModel
    torch.manual_seed(0)
    cfg = SegformerConfig(num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1], hidden_sizes=[8, 16],
                          num_attention_heads=[1, 2], patch_sizes=[3, 3], strides=[2, 2], mlp_ratios=[2, 2])
    # batch and spatial dims dynamic: convolution output sizes flow into the attention reshapes
    return _convert_pt(SegformerModel(cfg), {"pixel_values": torch.randn(2, 3, 32, 32)})


def m_hf_mobilevit():
    from transformers import MobileViTConfig, MobileViTModel
    torch.manual_seed(0)
    cfg = MobileViTConfig(hidden_sizes=[16, 24, 32], neck_hidden_sizes=[8, 8, 16, 16, 24, 32, 64], num_attention_heads=2)
    # unfolding feature maps into patches and back: reshapes of computed spatial sizes
    return _convert_pt(MobileViTModel(cfg), {"pixel_values": torch.randn(2, 3, 64, 64)})


MODELS = {name[2:]: fn for name, fn in sorted(globals().items()) if name.startswith("m_") and callable(fn)}


def export_one(name: str, out_dir: Path) -> None:
    """Convert and save one model (runs in a forked child, see main())."""
    warnings.filterwarnings("ignore")
    model = MODELS[name]()
    model.set_friendly_name(name)
    ov.save_model(model, out_dir / f"{name}.xml")


def _preload() -> None:
    """Import everything the exporters need *before* forking, so children do not pay for it. Must not create
    any OpenVINO node (that would advance the global name counters the children inherit)."""
    import transformers  # noqa: F401
    from openvino.frontend.pytorch import ts_decoder  # noqa: F401
    from transformers import (BertModel, GPT2Model, SwinModel, T5Model, ViTModel)  # noqa: F401


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("only", nargs="*", help="export only models whose name contains one of these")
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(MODELS))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    names = [n for n in MODELS if not args.only or any(s in n for s in args.only)]
    _preload()
    # One forked child per model, all forked from this same parent state: OpenVINO's auto-generated node
    # names (Constant_123, Reshape_456...) come from process-global counters, so this keeps every file
    # byte-identical no matter which other models are exported, in which order, or in parallel.
    start = time.perf_counter()
    failed = build_forked(names, export_one, args.out, args.jobs)
    print(f"total {time.perf_counter() - start:.1f}s, {len(names) - len(failed)}/{len(names)} exported")
    return 1 if failed else 0


def build_forked(names: list[str], target, out_dir: Path, jobs: int, width: int = 24) -> list[str]:
    """``target(name, out_dir)`` for each name, in up to ``jobs`` forked children at once (all forked from
    this same parent state); prints each IR pair's size and time; returns the names that failed."""
    ctx = multiprocessing.get_context("fork")
    pending = list(names)
    running: dict[str, tuple[multiprocessing.Process, float]] = {}
    failed: list[str] = []
    while pending or running:
        while pending and len(running) < max(1, jobs):
            name = pending.pop(0)
            proc = ctx.Process(target=target, args=(name, out_dir), name=name)
            proc.start()
            running[name] = (proc, time.perf_counter())
        for name, (proc, t0) in list(running.items()):
            proc.join(timeout=0.05)
            if proc.exitcode is None:
                continue
            del running[name]
            if proc.exitcode != 0:
                failed.append(name)
                print(f"{name:{width}s} FAILED (exit code {proc.exitcode})", flush=True)
                continue
            xml = out_dir / f"{name}.xml"
            size = xml.stat().st_size + xml.with_suffix(".bin").stat().st_size
            print(f"{name:{width}s} {size / 1024:8.1f} KiB {time.perf_counter() - t0:6.2f}s", flush=True)
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
