"""SARIF 2.1.0 for GitHub code scanning: every rule's metadata, one result per finding, paths relative
to the repository root (``%SRCROOT%``), and line-independent fingerprints."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from ..lint.baseline import fingerprints
from ..core.results import FileResult
from ..lint.config import relative_path
from ..rules import ALL
from ..core.findings import Rule
from . import Context, write_json

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _descriptor(rule: Rule) -> dict:
    doc = rule.documentation
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": " ".join(doc.split())[:1024]},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
    }


def _location(path: str, root: str) -> dict:
    rel = relative_path(path, root)
    if os.path.isabs(rel):
        return {"uri": "file://" + quote(os.fsencode(rel))}
    return {"uri": quote(os.fsencode(rel)), "uriBaseId": "%SRCROOT%"}


def document(results: list[FileResult], ctx: Context) -> dict:
    from ..core import __version__

    index = {r.code: i for i, r in enumerate(ALL)}
    out = []
    for r in results:
        artifact = _location(r.path, ctx.root)
        for f, fp in zip(r.findings, fingerprints(relative_path(r.path, ctx.root), r.findings)):
            location: dict = {"physicalLocation": {
                "artifactLocation": artifact,
                "region": {"startLine": f.line or 1, "startColumn": f.col},
            }}
            if f.layer is not None:  # the layer by its id: a path ("7/3", "7/then/3") for a body's
                location["logicalLocations"] = [{"name": f.layer.name, "fullyQualifiedName": f.layer.id,
                                                 "kind": "element"}]
            result = {
                "ruleId": f.code,
                "ruleIndex": index[f.code],
                "level": _LEVEL[f.severity],
                "message": {"text": f.message},
                "locations": [location],
                "partialFingerprints": {"irreshape/v1": fp},
            }
            tags = f.tags()
            if tags:  # the scenario or the runtime target it is found under, as in the JSON finding
                result["properties"] = tags
            out.append(result)
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "irreshape", "version": __version__, "semanticVersion": __version__,
                                "rules": [_descriptor(rule) for rule in ALL]}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(ctx.root).resolve().as_uri() + "/"}},
            "results": out,
        }],
    }


def sarif(results: list[FileResult], out: TextIO, ctx: Context) -> None:
    write_json(document(results, ctx), out)
