"""Issue 22, item 6: a seeded subset of the differential fuzz (``scripts/fuzz.py`` runs thousands).

Single semantic edits of real IR (``tests/irtools/fuzzing.py``: attributes, versions, edges, Parameter shapes,
element types, small Const values, precisions, <dim>s, Const shapes), each judged by openvino's ``read_model``
and by irreshape (in process, through the API):

* no edit ever gives an internal error (IR900);
* an accepted file gets no error on a layer whose declared dims and precisions equal OpenVINO's;
* a refused file gets an error, for every kind of edit read_model refuses (``CAUGHT``; precisions and <dim>s it
  never refuses);
* an accepted file has no layer of status ``invalid`` and no finding saying read_model refuses it (issue 29: the
  pattern edits behind a special zero or a -1, on static copies of a BERT export and an attention block).

The sources: the smallest real IR pairs, classic (wild and exported) and of today's exporters (tests/data/today)
alike, as issue 22's done-when asks of both.
"""

from __future__ import annotations

import random

import pytest
from irtools import fuzzing

pytest.importorskip("openvino")

# the kinds of edit whose refusals irreshape reports, every one of them
CAUGHT = ("edge", "const_value", "const_shape", "version", "parameter_shape", "attribute", "element_type",
          "pattern_volume")
# precision and dim edits are never refused (read_model ignores both): only the false-error rule applies to them
PER_KIND = 14
SEED = 20260


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """The smallest real IR pairs (6 wild and exported, 2 of today's that read_model reads), each with the errors it
    has unmutated."""
    def smallest(paths):
        return sorted(paths, key=lambda p: p.stat().st_size + p.with_suffix(".bin").stat().st_size)

    today = [p for p in smallest(fuzzing.sources(wild=False, models=False)) if "tokenizer" not in p.stem][:2]
    folder = tmp_path_factory.mktemp("fuzz")
    # static copies of an exported BERT and of an attention block (issue 29): their view patterns hold special zeros
    # and -1, behind which OpenVINO checks no volume (the pattern_volume edits)
    statics = [fuzzing.static_source(p, folder) for p in (fuzzing.TODAY / "bert_features.xml",
                                                           fuzzing.MODELS / "pt_mha_split_merge.xml")]
    assert all(statics)
    out = []
    for path in smallest(fuzzing.sources(today=False))[:6] + today + statics:
        src = fuzzing.Source.load(path)
        if fuzzing.openvino_verdict(src.xml, src.bin).refused:
            continue
        findings = fuzzing.run_irreshape(src.xml, src.bin, folder)
        out.append((src, {(f.code, f.layer.id if f.layer else None) for f in findings if f.severity == "error"}))
    assert len(out) >= 4
    return out, folder


@pytest.fixture(scope="module")
def judged(sources) -> list[tuple[str, str, fuzzing.Verdict, fuzzing.Judgement]]:
    """(kind, what was edited, OpenVINO's verdict, irreshape's judgement) of PER_KIND seeded edits of each kind."""
    pairs, folder = sources
    rng = random.Random(SEED)
    out = []
    for kind in fuzzing.KINDS:
        done = tries = 0
        while done < PER_KIND and tries < 20 * PER_KIND:
            tries += 1
            src, baseline = rng.choice(pairs)
            mutation = fuzzing.mutate(src, kind, rng)
            if mutation is None:
                continue
            done += 1
            verdict = fuzzing.openvino_verdict(mutation.xml, mutation.bin)
            statuses: dict = {}
            findings = fuzzing.run_irreshape(mutation.xml, mutation.bin, folder, statuses=statuses)
            out.append((kind, f"{kind} on {src.name}: {mutation.what}", verdict,
                        fuzzing.judge(findings, verdict, mutation.xml, baseline, fuzzing.invalid_ids(statuses))))
        assert done == PER_KIND, kind
    return out


def test_no_internal_error(judged):
    assert [(what, j.internal) for _, what, _, j in judged if j.internal] == []


def test_no_error_on_a_layer_that_agrees_with_openvino(judged):
    false = [(what, e) for _, what, _, j in judged for e in j.false_errors]
    assert false == []


def test_no_refusal_claimed_where_read_model_reads_the_file(judged):
    """Issue 29: on a file read_model reads, no layer has the status `invalid` and no finding says read_model
    refuses it; the pattern edits behind a special zero or a -1 give such files."""
    assert [(what, j.false_refusals) for _, what, _, j in judged if j.false_refusals] == []
    assert any(kind == "pattern_volume" and v.refused is None for kind, _, v, _ in judged)


def _attention_views(tmp_path, edit_to):
    """A static attention view, [2,16,32] by [0,0,4,8] (special_zero), a Transpose, and the view back by
    [0,4,0,8]; the first pattern edited in the .bin to ``edit_to`` (as the hidden BERT exports were)."""
    ops = pytest.importorskip("openvino.opset13")
    ov = pytest.importorskip("openvino")
    np = pytest.importorskip("numpy")

    def c(values):
        return ops.constant(np.array(values, np.int64))

    x = ops.parameter([2, 16, 32], np.float32, name="x")
    a = ops.reshape(x, c([0, 0, 4, 8]), True, name="A")
    b = ops.reshape(ops.transpose(a, c([0, 2, 1, 3])), c([0, 4, 0, 8]), True, name="B")
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([ops.result(ops.relu(b))], [x], "m"), str(path), compress_to_fp16=False)
    old = np.array([0, 0, 4, 8], np.int64).tobytes()
    data = path.with_suffix(".bin").read_bytes()
    assert data.count(old) == 1
    return path.read_bytes(), data.replace(old, np.array(edit_to, np.int64).tobytes())


def test_a_volume_behind_a_special_zero_is_no_refusal(tmp_path):
    """Issue 29: [0,0,4,8] edited to [0,0,4,16] makes the view [2,16,4,16] out of 1024 elements, and the view back
    gets [2,4,16,16] for [2,4,16,8]: read_model reads it (no volume check behind a special zero). The edited layer
    is a mismatch with IR104, the one after it repeats its declared dims; neither is invalid, and no finding says
    read_model refuses the file."""
    xml, bin_ = _attention_views(tmp_path, [0, 0, 4, 16])
    verdict = fuzzing.openvino_verdict(xml, bin_)
    assert verdict.refused is None
    statuses: dict = {}
    findings = fuzzing.run_irreshape(xml, bin_, tmp_path, statuses=statuses)
    judged = fuzzing.judge(findings, verdict, xml, invalid=fuzzing.invalid_ids(statuses))
    assert judged.caught and judged.false_errors == [] and judged.false_refusals == []
    assert {f.code for f in findings if f.layer.name == "A"} >= {"IR101", "IR104"}


def test_a_volume_without_a_special_zero_is_a_refusal(tmp_path):
    """The control: [0,0,4,8] edited to [2,16,4,16] (no special zero, no -1): read_model refuses the file, and
    irreshape gives the layer an error and the status `invalid`."""
    xml, bin_ = _attention_views(tmp_path, [2, 16, 4, 16])
    verdict = fuzzing.openvino_verdict(xml, bin_)
    assert verdict.refused is not None
    statuses: dict = {}
    findings = fuzzing.run_irreshape(xml, bin_, tmp_path, statuses=statuses)
    assert fuzzing.judge(findings, verdict, xml).caught
    names = {f.layer.id: f.layer.name for f in findings if f.layer is not None}
    assert "A" in {names.get(lid) for lid in fuzzing.invalid_ids(statuses)}


def test_no_consumer_mismatch_blamed_on_an_agreeing_reshape(tmp_path):
    """One edit the fuzz found: a Multiply's input port 0 declares [3,-1] where the Reshape before it (and
    OpenVINO) have [?,?]. read_model accepts it; the error belongs on the Multiply, not on the Reshape."""
    src = fuzzing.Source.load(fuzzing.MODELS / "pt_flatten_view_dyn.xml")
    head, tail = src.xml.split(b'name="aten::mul/Multiply"')
    xml = head + b'name="aten::mul/Multiply"' + tail.replace(b"<dim>-1</dim>", b"<dim>3</dim>", 1)
    assert xml != src.xml
    verdict = fuzzing.openvino_verdict(xml, src.bin)
    assert verdict.refused is None
    judged = fuzzing.judge(fuzzing.run_irreshape(xml, src.bin, tmp_path), verdict, xml)
    assert judged.caught  # the lie is found ...
    assert judged.false_errors == []  # ... on the layer that lies


def test_refusals_reported(judged):
    missed = [(what, v.refused) for kind, what, v, j in judged if kind in CAUGHT and v.refused and not j.caught]
    assert missed == []
    assert sum(1 for kind, _, v, _ in judged if kind in CAUGHT and v.refused) >= 5  # the subset exercises them


def test_a_refusal_stays_an_error_when_only_a_warning_upstream_excuses_it(tmp_path):
    """One edit the fuzz found: hf_bart's Constant_1521 -1 -> 7 makes read_model refuse a MatMul. The Reshape
    before it declares [-1,-1,-1] where OpenVINO infers [?,?,7] (IR105, a warning), and the blame reading, which
    takes those declared dims, would excuse the MatMul: a refusal is excused only by an error upstream."""
    src = fuzzing.Source.load(fuzzing.MODELS / "hf_bart.xml")
    head = src.xml.split(b'name="Constant_1521"', 1)[1].split(b"/>", 1)[0]
    offset = int(head.split(b'offset="', 1)[1].split(b'"', 1)[0])
    assert src.bin[offset:offset + 8] == (-1).to_bytes(8, "little", signed=True)
    bin_ = src.bin[:offset] + (7).to_bytes(8, "little", signed=True) + src.bin[offset + 8:]
    verdict = fuzzing.openvino_verdict(src.xml, bin_)
    assert verdict.refused is not None
    findings = fuzzing.run_irreshape(src.xml, bin_, tmp_path)
    assert {f.layer.type for f in findings if f.severity == "error"} == {"MatMul"}
    assert "IR105" in {f.code for f in findings}
