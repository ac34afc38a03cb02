"""Runtime targets: what older OpenVINO releases refuse in a file, as IR6xx findings (``--target``), and the
matrix of ``irreshape compat`` (every file against every release). The knowledge is two tables measured from each
release's wheel: what its ``read_model`` reads (:mod:`irreshape.shapes.releases`, applied by
:func:`irreshape.shapes.targets.refusals` to the model already read) and, for a file it reads, what its CPU plugin
refuses at ``compile_model`` or at the first inference (:mod:`irreshape.shapes.plugins`, applied by
:func:`irreshape.shapes.compiles.refusals` to the features the check found, :mod:`.plugin`): no second parse, no
second inference."""

from __future__ import annotations

from ..core.findings import Finding
from ..core.text import one_line
from ..rules.targets import for_compile, for_kind


def target_findings(model, targets: tuple[tuple[str, str], ...], features: list = ()) -> list[Finding]:
    """Every reason each target refuses ``model``, in file order per target: an IR6xx finding on the layer the
    release names, its message starting with the release, ``extra["target"]`` the target as the user wrote it and
    ``extra["stage"]`` the stage that refuses it. What a release's reader refuses is all it says of the file
    (``"stage": "read"``); of a file it reads, what its CPU plugin refuses of ``features`` (the check's,
    :func:`irreshape.checks.plugin.instances`): ``"compile"`` (a crash there too), ``"infer"``."""
    from ..shapes.compiles import refusals as compile_refusals
    from ..shapes.releases import RELEASES
    from ..shapes.targets import refusals_by_release

    found = refusals_by_release(model, [release for _, release in targets])  # one scan for every target
    out = []
    for given, release in targets:
        if found[release]:
            for r in found[release]:
                layer = r.layer
                out.append(Finding(for_kind(r.kind), f"{release} read_model: {r.message}{since(r)}",
                                   layer.line if layer is not None else None,
                                   layer.ref if layer is not None else None, extra={"target": given, "stage": "read"}))
        elif release != RELEASES[-1]:  # the reference release's own plugin is the plain check's (IR405-IR407)
            for c in compile_refusals(features, release):
                out.append(Finding(for_compile(c.key, c.stage), compile_message(release, c), c.layer.line,
                                   c.layer.ref, extra={"target": given, "stage": c.finding_stage}))
    return out


def compile_message(release: str, refusal) -> str:
    """A compile-stage refusal's message: the release, what its CPU plugin says (or that the process dies), and
    from which release on the plugin takes it."""
    words = one_line(refusal.message)
    if refusal.stage == "crash":
        said = f"compile_model(CPU): the process dies ({refusal.what})"
    elif refusal.stage == "infer":
        said = f"first inference on CPU: {words} ({refusal.what})"
    else:
        said = f"compile_model(CPU): {words} ({refusal.what})"
    after = (f"; compiled from {short(refusal.since)} on" if refusal.since is not None
             else "; no release irreshape knows compiles it")
    return f"{release} {said}{after}"


def since(refusal) -> str:
    """What the message adds to the release's words: the first release that reads what it refuses."""
    if refusal.since is None:
        return f" ({refusal.what}: no release irreshape knows reads it)"
    return f" ({refusal.what} is read from {short(refusal.since)} on)"


def short(release: str) -> str:
    """A release as people name it: "2024.3" for 2024.3.0, "2024.6.1" as it is."""
    return release.removesuffix(".0") if release.count(".") == 2 else release
