"""Runtime targets: what older OpenVINO releases refuse in a file, as IR6xx findings (``--target``), and the
matrix of ``irreshape compat`` (every file against every release). The knowledge is one table measured from each
release's wheel (:mod:`irreshape.shapes.releases`), applied by :func:`irreshape.shapes.targets.refusals` to the
model already read: no second parse, no second inference."""

from __future__ import annotations

from ..core.findings import Finding
from ..rules.targets import for_kind


def target_findings(model, targets: tuple[tuple[str, str], ...]) -> list[Finding]:
    """Every reason each target refuses ``model``, in file order per target: an IR6xx finding on the layer the
    release names, its message starting with the release, ``extra["target"]`` the target as the user wrote it."""
    from ..shapes.targets import refusals_by_release

    found = refusals_by_release(model, [release for _, release in targets])  # one scan for every target
    out = []
    for given, release in targets:
        for r in found[release]:
            layer = r.layer
            out.append(Finding(for_kind(r.kind), f"{release}: {r.message}{since(r)}",
                               layer.line if layer is not None else None, layer.ref if layer is not None else None,
                               extra={"target": given}))
    return out


def since(refusal) -> str:
    """What the message adds to the release's words: the first release that reads what it refuses."""
    if refusal.since is None:
        return f" ({refusal.what}: no release irreshape knows reads it)"
    return f" ({refusal.what} is read from {short(refusal.since)} on)"


def short(release: str) -> str:
    """A release as people name it: "2024.3" for 2024.3.0, "2024.6.1" as it is."""
    return release.removesuffix(".0") if release.count(".") == 2 else release
