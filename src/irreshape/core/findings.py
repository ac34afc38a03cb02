"""What a rule is, what a finding is, and what a reader's problem is: plain data, no behaviour."""

from __future__ import annotations

import inspect

from .records import Frozen, Record

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITIES = (ERROR, WARNING, INFO)
# the analyses a check runs beyond reading the file and checking the Reshape family, each only where a selected
# rule needs it: every layer against the whole-graph inference; the probes of the dynamic dims a layer pins;
# the CPU plugin's rules; the input-shape scenarios of the configuration; the runtime targets (older releases)
GRAPH, PROBES, PLUGIN, SCENARIOS, TARGETS = "graph", "probes", "plugin", "scenarios", "targets"
# what a finding's ``extra`` may name beside its message, in the JSON finding and SARIF's properties: the
# input-shape scenario it is found under, the runtime target (an older release) that refuses the file, and the
# stage that refuses it ("read": read_model; "compile": compile_model, a crash there included; "infer": the first
# inference)
TAGS = ("scenario", "target", "stage")


class Rule(Frozen):
    """A stable code, a kebab-case name, a default severity and the rule's documentation. ``fixable``:
    ``--fix`` resolves its findings (by rewriting the declared dims of the layer they are on). ``needs``: the
    analyses (GRAPH, PROBES, ...) that find it."""

    __slots__ = FIELDS = ("code", "name", "severity", "summary", "doc", "fixable", "needs")
    code: str
    name: str
    severity: str
    summary: str
    doc: str
    fixable: bool
    needs: frozenset[str]

    def __init__(self, code: str, name: str, severity: str, summary: str, doc: str = "", fixable: bool = False,
                 needs: frozenset[str] = frozenset()) -> None:
        self._fill(code, name, severity, summary, doc, fixable, needs)

    @property
    def documentation(self) -> str:
        return inspect.cleandoc(self.doc) if self.doc else self.summary


def rule(code: str, name: str, severity: str, doc: str, fixable: bool = False, needs: tuple[str, ...] = ()) -> Rule:
    """Declare a rule; the first line of ``doc`` is its summary, the rest its documentation; ``needs``: the
    analyses that find it, beyond reading the file and checking the Reshape family."""
    text = inspect.cleandoc(doc)
    return Rule(code, name, severity, text.splitlines()[0].rstrip("."), text, fixable, frozenset(needs))


class LayerRef(Frozen):
    __slots__ = FIELDS = ("id", "name", "type")
    id: str
    name: str
    type: str

    def __init__(self, id: str, name: str, type: str) -> None:
        self._fill(id, name, type)

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "type": self.type}


class Finding(Record):
    """One problem in one file. ``line`` is 1-based (None when the file has no line for it); ``severity``, the
    rule's unless given."""

    __slots__ = FIELDS = ("rule", "message", "line", "layer", "col", "severity", "extra")
    rule: Rule
    message: str
    line: int | None
    layer: LayerRef | None
    col: int
    severity: str
    extra: dict

    def __init__(self, rule: Rule, message: str, line: int | None = None, layer: LayerRef | None = None,
                 col: int = 1, severity: str = "", extra: dict | None = None) -> None:
        self.rule, self.message, self.line, self.layer, self.col = rule, message, line, layer, col
        self.severity = severity or rule.severity
        self.extra = {} if extra is None else extra

    @property
    def code(self) -> str:
        return self.rule.code

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "line": self.line,
            "layer": self.layer.to_json() if self.layer else None,
        } | self.tags()

    def tags(self) -> dict[str, str]:
        """The scenario, the target... the finding is found under (:data:`TAGS`), those it has."""
        extra = self.extra
        return {k: extra[k] for k in TAGS if k in extra} if extra else {}


class Problem(Record):
    """A problem a reader (a frontend) found in a file, as data: ``rule`` is the name of the rule it
    breaks (``"invalid-dim"``); the checks turn it into a :class:`Finding` of that rule. Readers know the
    names of the rules they report, not the catalogue."""

    __slots__ = FIELDS = ("rule", "message", "line", "layer", "col")
    rule: str
    message: str
    line: int | None
    layer: LayerRef | None
    col: int

    def __init__(self, rule: str, message: str, line: int | None = None, layer: LayerRef | None = None,
                 col: int = 1) -> None:
        self.rule, self.message, self.line, self.layer, self.col = rule, message, line, layer, col


class ProblemError(Exception):
    """A reader stops on a problem (a Const whose values cannot be read)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem
