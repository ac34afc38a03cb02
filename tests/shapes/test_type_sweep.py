"""The type sweep (:mod:`irtools.typesweep`) on a seeded subset: every op version of OpenVINO's opsets with a
shape function, a Parameter retyped, judged by ``read_model`` and irreshape. Refused: irreshape reports an error;
accepted: no error, and every output type it infers is OpenVINO's. ``IRRESHAPE_ALL_TYPE_CASES=1`` runs all of
them (about 9,600 files, two minutes)."""

from __future__ import annotations

import os
import random

import pytest

pytest.importorskip("openvino")

from irtools import typesweep  # noqa: E402

ALL = bool(os.environ.get("IRRESHAPE_ALL_TYPE_CASES"))


def test_every_op_version_has_a_case():
    missing = [f"{n}-{v}" for n, v in typesweep.units()
               if (n, v) not in typesweep.BUILDERS and not typesweep.cases_of(n, v)]
    assert missing == []


def test_retyped_inputs_as_openvino_judges_them():
    rng = random.Random(22)
    outcomes, uncovered = typesweep.sweep(sample=lambda todo: todo if ALL else rng.sample(todo, 300))
    assert uncovered == []
    assert sum(o.refused is not None for o in outcomes) > 50  # the subset holds refusals as well as loads
    bad = [str(o) for o in outcomes if o.verdict in ("missed", "false", "wrong")]
    assert bad == [], "\n".join(bad[:20])
