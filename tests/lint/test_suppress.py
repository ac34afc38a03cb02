"""Inline suppressions: `<!-- irreshape: ignore[...] -->` on a layer, `file-ignore[...]` on a file."""

from __future__ import annotations

import pytest
from lintkit import BROKEN_CODES, irreshape, pair

from irreshape.lint.select import ALL_CODES
from irreshape.lint.suppress import parse_directive


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)


def nth_line(text: str, marker: str, n: int = 0) -> int:
    return [i for i, ln in enumerate(text.splitlines(True)) if marker in ln][n]


def with_comment(tmp_path, comment: str, marker: str, n: int = 0, after: bool = False):
    """The broken fixture with ``<!-- comment -->`` on its own line before (after) the n-th line holding marker."""
    def edit(text: str) -> str:
        lines = text.splitlines(True)
        i = nth_line(text, marker, n) + after
        lines.insert(i, f"\t\t<!-- {comment} -->\n")
        return "".join(lines)
    return pair(tmp_path, "broken", name="m", edit=edit)


def codes(path) -> list[str]:
    return irreshape("check", "--isolated", str(path)).codes()


@pytest.mark.parametrize("comment, marker, n, after, expected", [
    # just before flatten (after the Const before it): flatten's IR101 only
    ("irreshape: ignore[IR101] re-exported next release", '<layer id="2"', 0, False, ["IR105", "IR106"]),
    # inside split_heads, after its <data>: a name works like a code
    ("irreshape: ignore[reshape-declared-dynamic]", 'special_zero="true"', 1, True, ["IR101", "IR106"]),
    # inside split_heads, after its last port (past the dims the parser saw, before </layer>)
    ("irreshape: ignore[IR105, IR106]", "</output>", 4, True, ["IR101"]),
    # several codes, and a prefix
    ("irreshape: ignore[IR10] whole family", '<layer id="4"', 0, False, ["IR101"]),
    # no brackets: every code of that layer
    ("irreshape: ignore", '<layer id="4"', 0, False, ["IR101"]),
    # between flatten and the next Const: belongs to the Const, silences nothing on the Reshapes
    ("irreshape: ignore", '<layer id="3"', 0, False, BROKEN_CODES),
    # an unknown code silences nothing; nor does a comment that is not an irreshape directive
    ("irreshape: ignore[IR999]", '<layer id="2"', 0, False, BROKEN_CODES),
    ("ignore[IR101]", '<layer id="2"', 0, False, BROKEN_CODES),
    # file level, wherever it stands
    ("irreshape: file-ignore[IR105]", "<edges>", 0, False, ["IR101", "IR106"]),
    ("irreshape: file-ignore[IR1]", "<layers>", 0, False, []),
])
def test_suppression_scope(tmp_path, comment, marker, n, after, expected):
    assert codes(with_comment(tmp_path, comment, marker, n, after)) == expected


def test_suppressed_errors_no_longer_fail(tmp_path):
    path = with_comment(tmp_path, "irreshape: file-ignore[IR101, IR106]", "<layers>")
    run = irreshape("check", "--isolated", str(path))
    assert (run.status, run.codes()) == (0, ["IR105"])


def test_layer_comment_does_not_reach_other_layers(tmp_path):
    """A comment before split_heads does not silence the same code on flatten."""
    path = with_comment(tmp_path, "irreshape: ignore[IR101]", '<layer id="4"')
    assert codes(path) == BROKEN_CODES


@pytest.mark.parametrize("text, expected", [
    (" irreshape: ignore[IR101] reason ", ("ignore", {"IR101"})),
    ("irreshape:ignore[IR101,IR102]", ("ignore", {"IR101", "IR102"})),
    ("IRRESHAPE: File-Ignore[reshape-unverified]", ("file-ignore", {"IR109"})),
    ("irreshape: ignore", ("ignore", set(ALL_CODES))),
    ("irreshape: ignore[IR02]", ("ignore", {"IR020", "IR021", "IR022", "IR023", "IR024", "IR025", "IR026"})),
    ("irreshape: noqa", None),
    ("irreshape: ignored-by-someone", None),
])
def test_parse_directive(text, expected):
    parsed = parse_directive(text)
    assert (parsed[0], set(parsed[1])) == expected if expected else parsed is None
