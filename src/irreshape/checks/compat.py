"""``irreshape compat``: which OpenVINO releases read a file and compile it for CPU, and why the others do not.

One parse and one ordinary check per file (does 2026.4.1's ``read_model`` itself refuse it? what does the file hold
that a CPU plugin may refuse?), then the two release tables applied per release: what its reader refuses
(:func:`irreshape.shapes.targets.refusals`) and, where it reads the file, what its CPU plugin refuses
(:func:`irreshape.shapes.compiles.refusals`): every release irreshape knows, so that the oldest one that reads and
compiles the file is found whatever columns are shown. The result is plain data (it travels between
``--jobs`` processes); :mod:`irreshape.report.compat` renders it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import formats
from ..core.findings import GRAPH, TARGETS, Finding, LayerRef
from ..core.results import DEFAULT_MAX_SIZE, FileResult, Options, Status
from ..rules.targets import for_compile, for_kind
from .targets import short

# the ordinary check's rules whose errors mean that 2026.4.1's read_model itself refuses the file (their
# documentation quotes its message): no older release is judged then
READ_MODEL_REFUSES = frozenset({"IR002", "IR010", "IR011", "IR012", "IR013", "IR014", "IR015", "IR016", "IR021",
                                "IR023", "IR024", "IR026", "IR103", "IR303"})
# what keeps irreshape from reading the file at all (the XML, its size, the file itself)
UNREAD = frozenset({"IR001", "IR003", "IR004", "IR005", "IR900"})


@dataclass(frozen=True, slots=True)
class Refused:
    """One reason a release refuses a file: the rule it is reported under, the refusal's kind, what is refused
    ("MaxPool-14"), the first release that takes it (None: none), the release's words, the layer, and the stage
    that refuses it ("read": read_model; "compile": compile_model on CPU, ``kind`` "crash" where the process dies
    there; "infer": the first inference)."""

    code: str
    kind: str
    what: str
    since: str | None
    message: str
    line: int | None
    layer: LayerRef | None
    stage: str = "read"

    @property
    def label(self) -> str:
        """What is refused and where: "Col2Im-15 'fold' (id 12)"."""
        if self.layer is None:
            return self.what
        return f"{self.what} {self.layer.name!r} (id {self.layer.id})"

    @property
    def key(self) -> tuple:
        """What tells one refusal from another across releases (their words may differ)."""
        return self.code, self.what, self.layer.id if self.layer else None

    def to_json(self) -> dict:
        return {"code": self.code, "stage": self.stage, "kind": self.kind, "what": self.what, "since": self.since,
                "message": self.message, "line": self.line, "layer": self.layer.to_json() if self.layer else None}


@dataclass(slots=True)
class FileCompat:
    """One file against every release irreshape knows (oldest first)."""

    path: str
    releases: tuple[str, ...]
    refusals: dict[str, list[Refused]] = field(default_factory=dict)  # release -> its refusals ([]: reads it)
    first: dict[str, int] = field(default_factory=dict)  # release -> the index of the refusal it reports
    # release -> what its CPU plugin refuses of the file ([]: compiles and runs it; only where it reads it)
    compiles: dict[str, list[Refused]] = field(default_factory=dict)
    current: list[Finding] = field(default_factory=list)  # why 2026.4.1's read_model itself refuses it
    unread: Finding | None = None  # why irreshape could not read the file at all
    internal_error: bool = False

    @property
    def judged(self) -> bool:
        """Whether the releases were judged: irreshape read the file and 2026.4.1 reads it."""
        return self.unread is None and not self.current

    def reads(self, release: str) -> bool | None:
        """Whether ``release`` reads the file; None where it was not judged."""
        return not self.refusals[release] if self.judged else None

    def runs(self, release: str) -> bool | None:
        """Whether ``release`` reads the file and compiles it for CPU (and runs it, where that was measured);
        None where it was not judged."""
        return not self.blocking(release) if self.judged else None

    def blocking(self, release: str) -> list[Refused]:
        """What keeps ``release`` from running the file: what its reader refuses, else what its CPU plugin does."""
        return self.refusals.get(release) or self.compiles.get(release) or []

    def oldest(self, compiled: bool = True) -> int | None:
        """The index of the oldest release from which on every release reads the file and compiles it for CPU
        (``compiled`` false: reads it); None: not judged, or the newest release refuses it too."""
        if not self.judged:
            return None
        i = len(self.releases)
        while i > 0 and not (self.blocking if compiled else self.refusals.get)(self.releases[i - 1]):
            i -= 1
        return None if i == len(self.releases) else i

    def reported(self, release: str) -> Refused | None:
        """The refusal ``release`` reports: its read_model's (it stops at one), else the first its CPU plugin
        meets; None where it reads and compiles the file."""
        found = self.refusals.get(release)
        if found:
            return found[self.first.get(release, 0)]
        found = self.compiles.get(release)
        return found[0] if found else None

    def why(self, i: int) -> Refused | None:
        """Why the release before ``releases[i]`` cannot run the file: the refusal that ``releases[i]`` is the
        first to take, else the one that release reports."""
        before = self.releases[i - 1]
        return next((r for r in self.blocking(before) if r.since == self.releases[i]), self.reported(before))

    @property
    def summary(self) -> str:
        """The file in one line: "needs OpenVINO 2024.3 or newer: Col2Im-15 'fold' (id 12)"."""
        if self.unread is not None:
            return f"not read: {self.unread.code} {self.unread.message}"
        if self.current:
            f = self.current[0]
            return f"{short(self.releases[-1])} itself refuses it: {f.code} {f.message}"
        i = self.oldest()
        if i is None:
            last = self.reported(self.releases[-1])
            if last is not None and last.stage != "read":
                return f"no release irreshape knows compiles it on CPU: {last.label}"
            return f"no release irreshape knows reads it: {last.label if last else '?'}"
        if i == 0:
            return (f"read and compiled on CPU by every release irreshape knows ({short(self.releases[0])} ... "
                    f"{short(self.releases[-1])})")
        why = self.why(i)
        also = [short(r) for r in self.releases[:i - 1] if not self.blocking(r)]
        stage = " to compile on CPU" if why is not None and why.stage != "read" else ""
        return (f"needs OpenVINO {short(self.releases[i])} or newer{stage}: {why.label if why else '?'}"
                + (f" (older, {', '.join(also)} run{'s' * (len(also) == 1)} it too)" if also else ""))

    def to_json(self, columns: tuple[str, ...]) -> dict:
        i = self.oldest()
        return {
            "path": self.path,
            "status": ("unread" if self.unread is not None else "refused" if self.current
                       else "readable" if i == 0 else "partly"),
            "oldest": self.releases[i] if i is not None else None,
            "summary": self.summary,
            "refused_by_current": [f.to_json() for f in self.current],
            "releases": {r: None if not self.judged else {
                "readable": not self.refusals[r],
                "compiles": None if self.refusals[r] else not self.compiles.get(r),
                "reported": self.first.get(r, 0) if self.refusals[r] else None,
                "refusals": [x.to_json() for x in (*self.refusals[r], *self.compiles.get(r, ()))]}
                for r in columns},
        }


def compat_file(path: str, max_xml_size: int = DEFAULT_MAX_SIZE,
                checked: FileResult | None = None) -> FileCompat | None:
    """Judge one file against every release; None for a file that is not an OpenVINO IR (XML of another kind, a
    oneDNN Graph document). Never raises for a bad file: irreshape's own failure is an IR900 in ``unread``.
    ``checked``: an ordinary check of the file, its model still held and its findings not yet filtered (``irreshape
    diff``'s): judged on that reading, no second parse; the model is left to the caller."""
    from ..shapes.targets import known

    releases = known()
    fmt = formats.of(path) or formats.DEFAULT
    if fmt.name != "openvino":
        return None
    from . import internal_error, no_cycle_collection

    try:
        with no_cycle_collection():
            return _judge(path, releases, max_xml_size, checked)
    except Exception as e:
        return FileCompat(path, releases, unread=internal_error(path, e), internal_error=True)


def _judge(path: str, releases: tuple[str, ...], max_xml_size: int,
           checked: FileResult | None = None) -> FileCompat | None:
    from ..frontends.openvino import NotIR, parse
    from ..shapes.targets import first, refusals_by_release
    from .openvino import check_model, readable

    if checked is not None:  # an ordinary check's reading: its whole-graph inference covers GRAPH's
        model, result = checked.model, checked
    else:
        try:
            model = parse(path, max_xml_size)
        except NotIR:
            return None
        result = check_model(model, Options(max_xml_size=max_xml_size, analyses=frozenset({GRAPH, TARGETS})))
    out = FileCompat(path, releases)
    errors = [f for f in result.findings if f.severity == "error"]
    out.unread = next((f for f in errors if f.code in UNREAD), None)
    out.current = [f for f in errors if f.code in READ_MODEL_REFUSES] or _refused_behind(result, errors)
    if out.unread is None and not readable(model):
        out.current = out.current or errors[:1]
    if out.judged:
        every = refusals_by_release(model, releases)  # one scan of the model, the table applied per release
        reported: dict[tuple, int] = {}  # the refusals' (layer, kind)s -> the one the release reports: a run
        for release in releases:  # of releases refusing the same things reports the same one, found once
            found = every[release]
            out.refusals[release] = [
                Refused(for_kind(r.kind).code, r.kind, r.what, r.since, r.message,
                        r.layer.line if r.layer is not None else None, r.layer.ref if r.layer is not None else None)
                for r in found]
            if len(found) > 1:  # the one the release reports: it stops at the first it meets
                key = tuple((id(r.layer), r.kind) for r in found)
                if key not in reported:
                    one = first(model, found)
                    reported[key] = next(k for k, r in enumerate(found) if r is one)
                out.first[release] = reported[key]
        _compiles(out, result.features, releases)
    if checked is None:
        model.release()
    return out


def _refused_behind(result: FileResult, errors: list[Finding]) -> list[Finding]:
    """The errors that say 2026.4.1's read_model refuses a layer downstream of their own (one root cause, one
    finding: a lying Parameter's IR302 carries "on OpenVINO's dims read_model refuses MaxPool 'pool'"): those on
    the layers an invalid verdict is spared for."""
    causes = {c for v in (*result.layers, *result.flagged) if v.status is Status.INVALID for c in v.causes}
    return [f for f in errors if f.layer is not None and f.layer.id in causes]


def _compiles(out: FileCompat, features: list, releases: tuple[str, ...]) -> None:
    """What each release that reads the file refuses of it at compile_model (or at the first inference)."""
    from ..shapes.compiles import refusals

    for release in releases:
        if out.refusals[release]:
            continue
        out.compiles[release] = [
            Refused(for_compile(c.key, c.stage).code, "crash" if c.stage == "crash" else c.key[0], c.what, c.since,
                    c.message, c.layer.line, c.layer.ref, c.finding_stage)
            for c in refusals(features, release)]


def minors() -> tuple[str, ...]:
    """The default columns: the first release of each minor (2023.0.0, 2023.1.0, ... 2026.4.0)."""
    from ..shapes.targets import known

    seen: dict[str, str] = {}
    for r in known():
        seen.setdefault(r.rsplit(".", 1)[0], r)
    return tuple(seen.values())
