"""A differential fuzz of irreshape against openvino's ``Core().read_model`` (needs openvino).

Mutates the real IR pairs of ../shared/wild-ir, tests/data/models and tests/data/today the way a hand edit or a
buggy script would (``tests/irtools/fuzzing.py``: attribute values, op versions, an edge's source, Parameter shapes,
element types, small integer Const values, port precisions, <dim>s, Const shapes), judges each with ``read_model``, runs
irreshape on it in process (``irreshape.check``, in a forked child under a memory limit and a timeout) and
prints, per mutation kind (over all sources, then for classic IR and for today's exporters' apart):

* refused: files ``read_model`` refuses, and how many of them irreshape reports an error in (target >= 99.5%);
* false: accepted files with an irreshape error on a layer whose declared dims and precisions equal
  OpenVINO's (target 0); ``beyond``: errors of the rules that go beyond OpenVINO on purpose (IR104, IR111);
* f-refuse: accepted files where irreshape gives a layer the status ``invalid`` or a finding says read_model
  refuses it (target 0);
* IR900 (target 0), and crashes or timeouts of the child (a resource bomb).

    python scripts/fuzz.py -n 3000 --seed 1 --json fuzz.json   # then read the misses in fuzz.json

``--static`` adds a static copy of each dynamic source (its dynamic dims at 2, through ``Model.reshape``), where
the volume checks OpenVINO skips behind a special zero or a -1 (the ``pattern_volume`` edits) have static dims.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.irtools import fuzzing  # noqa: E402


def _child(mutation: fuzzing.Mutation, folder: Path, limit_mb: int, seconds: int) -> dict:
    """irreshape on one mutation in a forked child: its findings (or how it died) as a dict."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
            signal.alarm(seconds)
            statuses: dict = {}
            findings = fuzzing.run_irreshape(mutation.xml, mutation.bin, folder, statuses=statuses)
            out = {"findings": [(f.code, f.severity, f.layer.id if f.layer else None,
                                 f.layer.type if f.layer else "", f.message) for f in findings],
                   "invalid": sorted(fuzzing.invalid_ids(statuses))}
            if any(f.code == "IR900" for f in findings):
                try:
                    fuzzing.run_irreshape(mutation.xml, mutation.bin, folder, debug=True)
                except BaseException:  # noqa: BLE001
                    out["traceback"] = traceback.format_exc(limit=-6)
        except MemoryError:
            out = {"died": "MemoryError"}
        except BaseException as e:  # noqa: BLE001
            out = {"died": f"{type(e).__name__}: {e}"}
        with os.fdopen(write, "w") as f:
            json.dump(out, f)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        text = f.read()
    _, status = os.waitpid(pid, 0)
    if not text:
        return {"died": f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"status {status}"}
    return json.loads(text)


class _OpenVINO:
    """``read_model`` in a process of its own (spawned: it imports openvino once), so that an edit that crashes or
    hangs OpenVINO costs that one verdict: the process is made again."""

    def __init__(self, seconds: int) -> None:
        self.seconds = seconds
        self.pool = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    def verdict(self, mutation: fuzzing.Mutation) -> fuzzing.Verdict | None:
        """OpenVINO's verdict; None where read_model crashed or hung on the edit."""
        return self._call(fuzzing.openvino_verdict, mutation.xml, mutation.bin)

    def static(self, path: Path, folder: Path) -> Path | None:
        """A static copy of a dynamic source (fuzzing.static_source), None where there is none."""
        return self._call(fuzzing.static_source, path, folder)

    def _call(self, fn, *args):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        if self.pool is None:
            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        try:
            return self.pool.submit(fn, *args).result(self.seconds)
        except (BrokenProcessPool, TimeoutError):
            for proc in list(getattr(self.pool, "_processes", {}).values()):
                proc.kill()  # the one worker this pool started
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
            return None


def _one(mutation: fuzzing.Mutation, kind: str, openvino: "_OpenVINO", baseline: set, folder: Path, args,
         records: list) -> Counter:
    """One mutation judged by OpenVINO and by irreshape: its outcome counts; its problems appended to records."""
    s = Counter(n=1)
    verdict = openvino.verdict(mutation)
    base = {"kind": kind, "source": mutation.source, "what": mutation.what, "layer_type": mutation.layer_type}
    if verdict is None:  # read_model itself crashed or hung: no verdict to compare with
        s["openvino_crashed"] += 1
        records.append(base | {"problem": "openvino crashed"})
        return s
    base["openvino"] = verdict.refused
    out = _child(mutation, folder, args.memory, args.timeout)
    if "died" in out:
        s["died"] += 1
        records.append(base | {"problem": "died", "detail": out["died"]})
        return s
    findings = [_Finding(*f) for f in out["findings"]]
    j = fuzzing.judge(findings, verdict, mutation.xml, baseline, out.get("invalid", ()))
    if j.internal:
        s["ir900"] += 1
        records.append(base | {"problem": "IR900", "detail": j.internal, "traceback": out.get("traceback")})
    if verdict.refused is not None:
        s["refused"] += 1
        if j.caught:
            s["caught"] += 1
        elif not j.internal:
            records.append(base | {"problem": "missed"})
    else:
        s["accepted"] += 1
        if j.false_errors:
            s["false"] += 1
            records.append(base | {"problem": "false error", "detail": j.false_errors})
        if j.beyond:
            s["beyond"] += 1
        if j.false_refusals:
            s["false_refusal"] += 1
            records.append(base | {"problem": "false refusal", "detail": j.false_refusals})
    return s


class _Finding:
    def __init__(self, code, severity, lid, ltype, message):
        self.code, self.severity, self.message = code, severity, message
        self.layer = type("Ref", (), {"id": lid, "type": ltype})() if lid is not None else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=1000, help="mutations (default 1000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kinds", default=",".join(fuzzing.KINDS), help="comma-separated mutation kinds")
    ap.add_argument("--sources", choices=["all", "wild", "models", "today"], default="all")
    ap.add_argument("--memory", type=int, default=2500, help="MB the irreshape child may take (default 2500)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per irreshape run (default 60)")
    ap.add_argument("--json", help="write every miss, false error, IR900 and crash here")
    ap.add_argument("--static", action="store_true", help="add a static copy of each dynamic source")
    args = ap.parse_args()
    kinds = args.kinds.split(",")
    rng = random.Random(args.seed)
    paths = fuzzing.sources(wild=args.sources in ("all", "wild"), models=args.sources in ("all", "models"),
                            today=args.sources in ("all", "today"))
    folder = Path(tempfile.mkdtemp(prefix="irreshape-fuzz-"))

    # the sources: read, checked unmutated (the errors they already have are not a mutation's doing)
    sources, baselines = [], {}
    openvino = _OpenVINO(args.timeout)
    if args.static:
        statics = folder / "static"
        statics.mkdir()
        paths = paths + [p for p in (openvino.static(path, statics) for path in paths) if p is not None]
    for path in paths:
        src = fuzzing.Source.load(path)
        verdict = openvino.verdict(fuzzing.Mutation("none", src.name, "", "", src.xml, src.bin))
        if verdict is None:
            print(f"skipped {src.name}: read_model crashes on it unmutated", file=sys.stderr)
            continue
        if verdict.refused:
            print(f"skipped {src.name}: read_model refuses it unmutated ({verdict.refused})", file=sys.stderr)
            continue
        out = _child(fuzzing.Mutation("none", src.name, "", "", src.xml, src.bin), folder, args.memory, 600)
        baselines[src.name] = {(c, lid) for c, sev, lid, _, _ in out.get("findings", []) if sev == "error"}
        sources.append(src)
    print(f"{len(sources)} sources", file=sys.stderr)
    # irreshape imported here once (on the smallest source), not again in every forked child
    small = min(sources, key=lambda src: len(src.xml))
    fuzzing.run_irreshape(small.xml, small.bin, folder)

    stats: dict[str, Counter] = defaultdict(Counter)
    records: list[dict] = []
    start = time.time()
    done = 0
    while done < args.n:
        kind = kinds[done % len(kinds)]
        src = rng.choice(sources)
        mutation = fuzzing.mutate(src, kind, rng)
        if mutation is None:
            continue
        done += 1
        s = _one(mutation, kind, openvino, baselines[src.name], folder, args, records)
        for key in (kind, f"{src.group}:{kind}"):  # overall, and in its group of sources
            stats[key].update(s)
        if done % 100 == 0:
            print(f"{done} mutations, {time.time() - start:.0f} s", file=sys.stderr)
            if args.json:  # so far, in case the run is cut short
                _write(args.json, stats, records)

    for group in ("", "classic:", "today:"):
        if not any(k.startswith(group) for k in stats if ":" in k) and group:
            continue
        print(f"{group or 'all sources'}")
        total = Counter()
        print(f"{'kind':16} {'n':>5} {'refused':>8} {'caught':>7} {'rate':>7} {'accepted':>8} {'false':>6} "
              f"{'beyond':>6} {'f-refuse':>8} {'IR900':>6} {'died':>5} {'ov-crash':>8}")
        for kind in kinds + ["total"]:
            s = stats[group + kind] if kind != "total" else total
            rate = f"{100 * s['caught'] / s['refused']:.1f}%" if s["refused"] else "-"
            print(f"{kind:16} {s['n']:5} {s['refused']:8} {s['caught']:7} {rate:>7} {s['accepted']:8} "
                  f"{s['false']:6} {s['beyond']:6} {s['false_refusal']:8} {s['ir900']:6} {s['died']:5} "
                  f"{s['openvino_crashed']:8}")
            if kind != "total":
                total.update(s)
    if args.json:
        _write(args.json, stats, records)
    openvino.close()
    return 0


def _write(path: str, stats: dict, records: list) -> None:
    Path(path).write_text(json.dumps({"stats": {k: dict(v) for k, v in stats.items()}, "records": records}, indent=1))


if __name__ == "__main__":
    raise SystemExit(main())
