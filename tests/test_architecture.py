"""The import contract: layers import only downward, no cycles, no private names across modules, and every
declared runtime dependency is one the package imports. Read from the source (imports inside functions
count; ``if TYPE_CHECKING:`` blocks do not)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# bottom to top; a module may import its own layer and the layers below it
LAYERS = ["core", "rules", "frontends", "shapes", "checks", "fixers|explain", "lint", "report", "api", "cli"]
# pairs the order alone allows but the design forbids: readers know no rules, shape functions are pure
FORBIDDEN = {("frontends", "rules"), ("shapes", "frontends"), ("shapes", "rules"), ("fixers", "explain"),
             ("explain", "fixers")}


def _modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "irreshape").rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


MODULES = _modules()


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "api"
    top = {"__main__": "cli", "cli": "cli", "api": "api"}.get(parts[1], parts[1])
    return next(layer for layer in LAYERS if top in layer.split("|"))


def _rank(layer: str) -> int:
    return LAYERS.index(layer)


def _imports(module: str) -> list[tuple[str, str, int]]:
    """(imported module, imported name or "", line) of every package import outside TYPE_CHECKING blocks."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    skipped = {id(n) for node in ast.walk(tree)
               if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    package = path.name == "__init__.py"
    out = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")[:len(module.split(".")) - (node.level - (1 if package else 0))]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base == "irreshape" or base.startswith("irreshape."):
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    out.append((full, "", node.lineno) if full in MODULES else (base, alias.name, node.lineno))
        elif isinstance(node, ast.Import):
            out += [(a.name, "", node.lineno) for a in node.names if a.name.startswith("irreshape")]
    return out


def test_the_layout_is_what_the_contract_names():
    """Every module sits in a layer of the contract, and every layer of the contract has modules."""
    tops = {m.split(".")[1] if "." in m else "api" for m in MODULES}
    named = {top for spec in LAYERS for top in spec.split("|")} | {"__main__"}
    assert tops <= named, sorted(tops - named)
    assert named - {"__main__"} <= tops, sorted(named - tops)


def test_layers_import_only_downward():
    bad = []
    for m in MODULES:
        for target, _, line in _imports(m):
            a, b = _layer(m), _layer(target)
            pair = (a.split("|")[0] if "|" not in a else next(x for x in a.split("|") if x in m.split(".")),
                    b.split("|")[0] if "|" not in b else next(x for x in b.split("|") if x in target.split(".")))
            if _rank(b) > _rank(a) or pair in FORBIDDEN:
                bad.append(f"{m}:{line} imports {target} ({a} -> {b})")
    assert not bad, "\n".join(bad)


def test_no_import_cycle():
    """No cycle of imports among irreshape's modules (its own cycle finder, Tarjan's, used on its own imports)."""
    from irreshape.core.order import cycles
    edges = [(m, t) for m in MODULES for t, _, _ in _imports(m) if t != m and t in MODULES]
    assert cycles(list(MODULES), edges) == []


def test_no_private_name_crosses_a_module():
    bad = [f"{m}:{line} imports {name} from {target}" for m in MODULES for target, name, line in _imports(m)
           if name.startswith("_") and not name.startswith("__")]
    assert not bad, "\n".join(bad)


def test_tests_import_no_private_name():
    bad = []
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("irreshape"):
                bad += [f"{path.name}:{node.lineno} {a.name}" for a in node.names
                        if a.name.startswith("_") and not a.name.startswith("__")]
    assert not bad, "\n".join(bad)


def test_every_runtime_dependency_is_imported():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {d.split(">")[0].split("=")[0].split("<")[0].split("[")[0].strip().lower() for d in declared}
    imported = set()
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                imported.add(node.module.split(".")[0])
    assert names and names <= imported, f"declared but never imported: {sorted(names - imported)}"


def test_the_table_of_formats_names_what_exists():
    """Every layer's piece of work for every format, and every reporter, is found where the table says."""
    import importlib

    from irreshape.core import formats

    for fmt in formats.INPUTS:
        for what in ("sniff", "check", "fix", "explain"):
            assert callable(fmt.load(what)), (fmt.name, what)
    for name, target in formats.OUTPUTS.items():
        module, _, attr = target.partition(":")
        assert callable(getattr(importlib.import_module(module), attr)), name
    assert formats.of("a/B.XML") is formats.INPUTS[0] and formats.of("g.json").name == "onednn"
    assert formats.of("m.onnx") is None
