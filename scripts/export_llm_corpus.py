#!/usr/bin/env python3
"""Export a validation corpus of today's decoder and seq2seq exports (outside the repository): many architectures
optimum-intel exports, stateful and stateless, and NNCF's weight compressions in many configurations, each tiny and
randomly initialised (nothing downloaded), to judge irreshape's compile-stage findings against every release
(scripts/label_compiles.py --extra DIR).

Runs in the export venv of scripts/export_today.py (its docstring says how to make it); reuses its builders.

    /work/venv-export/bin/python scripts/export_llm_corpus.py [--out /work/corpus/llm] [NAME_SUBSTRING ...]
    /work/venv-export/bin/python scripts/export_llm_corpus.py --list
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import export_today as et  # noqa: E402

# architectures optimum-intel exports for text generation with past (transformers' own classes only)
CAUSAL = ("llama", "mistral", "qwen2", "qwen3", "phi3", "gpt2", "bloom", "opt", "gpt_neox", "gptj", "codegen",
          "falcon", "stablelm", "starcoder2", "gemma2", "gemma3_text", "cohere", "cohere2", "olmo", "olmo2",
          "persimmon", "phi", "xglm", "gpt_bigcode", "gpt_neo", "biogpt", "granite", "glm", "glm4", "smollm3",
          "arcee", "mpt", "deepseek_v3", "phimoe", "hunyuan_v1_dense", "exaone4", "helium", "mixtral", "qwen2_moe",
          "qwen3_moe", "gpt_oss", "granitemoe", "olmoe", "llama4_text", "dbrx", "nemotron", "zamba2", "falcon_mamba",
          "bitnet", "lfm2_moe", "afmoe", "qwen3_next", "gemma3n_text")
SEQ2SEQ = ("bart", "marian", "t5", "whisper")
# NNCF weight compression of a stateful llama (and phi3, qwen2): nncf.compress_weights' keyword arguments
COMPRESS = {
    "int4_asym_g16": dict(mode="int4_asym", group_size=16, ratio=1.0),
    "int4_sym_g16": dict(mode="int4_sym", group_size=16, ratio=1.0),
    "int4_asym_pc": dict(mode="int4_asym", group_size=-1, ratio=1.0),
    "int4_sym_pc": dict(mode="int4_sym", group_size=-1, ratio=1.0),
    "int4_asym_g16_r05": dict(mode="int4_asym", group_size=16, ratio=0.5),
    "int4_sym_g16_all": dict(mode="int4_sym", group_size=16, ratio=1.0, all_layers=True),
    "int4_asym_g16_all": dict(mode="int4_asym", group_size=16, ratio=1.0, all_layers=True),
    "nf4_g16": dict(mode="nf4", group_size=16, ratio=1.0),
    "nf4_pc": dict(mode="nf4", group_size=-1, ratio=1.0),
    "nf4_g16_all": dict(mode="nf4", group_size=16, ratio=1.0, all_layers=True),
    "int4_asym_pc_all": dict(mode="int4_asym", group_size=-1, ratio=1.0, all_layers=True),
    "int4_sym_pc_all": dict(mode="int4_sym", group_size=-1, ratio=1.0, all_layers=True),
    "nf4_pc_all": dict(mode="nf4", group_size=-1, ratio=1.0, all_layers=True),
    "int8_asym": dict(mode="int8_asym"),
    "int8_sym": dict(mode="int8_sym"),
    "mxfp4": dict(mode="mxfp4", group_size=32),
    "cb4_g16": dict(mode="cb4", group_size=16),
    "cb4_g32": dict(mode="cb4", group_size=32),
    "cb4_g16_all": dict(mode="cb4", group_size=16, all_layers=True),
}


# configuration keys a tiny model of the architecture needs beside export_today's
EXTRA = {"glm": dict(pad_token_id=0), "glm4": dict(pad_token_id=0), "smollm3": dict(pad_token_id=0),
         "gpt_neo": dict(attention_types=[[["global", "local"], 1]], num_layers=2),
         "gemma2": dict(head_dim=8), "gemma3_text": dict(head_dim=8, sliding_window=16)}


def _causal_ir(arch: str, stateful: bool):
    def base(tmp: Path) -> Path:
        src = et.causal(arch, tmp, num_hidden_layers=2 if arch not in ("qwen3_moe", "granitemoe") else 1,
                        **EXTRA.get(arch, {}))
        et._ov_causal(src, tmp / "ov", stateful)
        return tmp / "ov" / "openvino_model.xml"
    return base


def job_causal(arch: str, stateful: bool, out: Path):
    def run(tmp: Path) -> list[Path]:
        xml = _causal_ir(arch, stateful)(tmp)
        return _copy(xml, out / f"{arch}_{'stateful' if stateful else 'stateless'}.xml")
    return run


def job_seq2seq(kind: str, out: Path, stateful: bool):
    def run(tmp: Path) -> list[Path]:
        import transformers as T
        cfg = et.encoder(kind, tmp)
        et._seeded()
        if kind == "whisper":
            from optimum.intel import OVModelForSpeechSeq2Seq as cls
            hf = T.WhisperForConditionalGeneration(cfg)
        else:
            from optimum.intel import OVModelForSeq2SeqLM as cls
            hf = T.AutoModelForSeq2SeqLM.from_config(cfg)
        src = et._save_hf(hf, tmp / kind)
        cls.from_pretrained(src, export=True, compile=False, stateful=stateful).save_pretrained(tmp / "ov")
        written = []
        for xml in sorted((tmp / "ov").glob("*.xml")):
            part = xml.stem.replace("openvino_", "").replace("_model", "")
            written += _copy(xml, out / f"{kind}_{'stateful' if stateful else 'stateless'}_{part}.xml")
        return written
    return run


def job_compress(arch: str, name: str, kw: dict, out: Path):
    def run(tmp: Path) -> list[Path]:
        import nncf
        import openvino as ov
        model = ov.Core().read_model(str(_causal_ir(arch, True)(tmp)))
        args = dict(kw, mode=nncf.CompressWeightsMode(kw["mode"]))
        model = nncf.compress_weights(model, **args)
        target = out / f"{arch}_stateful_{name}.xml"
        ov.save_model(model, str(target))
        return [target]
    return run


def _copy(xml: Path, target: Path) -> list[Path]:
    shutil.copy(xml, target)
    shutil.copy(xml.with_suffix(".bin"), target.with_suffix(".bin"))
    return [target]


def jobs(out: Path) -> dict:
    found = {}
    for arch in CAUSAL:
        for stateful in (True, False):
            found[f"{arch}_{'stateful' if stateful else 'stateless'}"] = job_causal(arch, stateful, out)
    for kind in SEQ2SEQ:
        for stateful in (True, False):
            found[f"{kind}_{'stateful' if stateful else 'stateless'}"] = job_seq2seq(kind, out, stateful)
    for arch in ("llama", "phi3", "qwen2"):
        for name, kw in COMPRESS.items():
            found[f"{arch}_{name}"] = job_compress(arch, name, kw, out)
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="only the jobs whose name contains one of these")
    ap.add_argument("--out", default="/work/corpus/llm")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    out = Path(args.out)
    todo = jobs(out)
    if args.list:
        print("\n".join(todo))
        return 0
    out.mkdir(parents=True, exist_ok=True)
    failed = et.run_jobs(todo, args.names)
    print(f"failed: {failed or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
