"""Configuration: ``[tool.irreshape]`` in ``pyproject.toml``, or top-level keys in ``irreshape.toml`` /
``.irreshape.toml``, found by walking up from the working directory; merged with the command line.

Paths and globs in a file (``exclude``, ``per-file-ignores``, ``baseline``) are relative to the
directory of that file; on the command line, to the working directory. Command-line flags override
the file; ``extend-select`` and ``ignore`` from both apply (see :mod:`irreshape.lint.select`).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any, Optional

from ..core.dims import parse_shape
from ..core.findings import SEVERITIES
from ..core.formats import OUTPUTS
from ..core.records import Record
from ..core.results import DEFAULT_MAX_SIZE, Scenario
from .select import Selection, SelectorError, codes_of, matches, resolve

CONFIG_FILES = (".irreshape.toml", "irreshape.toml", "pyproject.toml")  # first wins within a directory
LIST_KEYS = ("select", "extend-select", "ignore", "exclude")
KEYS = LIST_KEYS + ("per-file-ignores", "output-format", "max-xml-size", "baseline", "severity", "layers",
                    "input-shapes", "target")
LAYERS = ("reshape", "all")  # what the JSON `layers` list holds: the Reshape family's, or every layer's


class ConfigError(ValueError):
    """A configuration that cannot be used: reported by the CLI with exit status 2."""


class BaselineError(ValueError):
    """An unreadable or malformed baseline file (exit status 2). Here, not in :mod:`.baseline`, so that
    a run without a baseline need not import that module."""


class Settings(Record):
    """Everything a lint run needs, resolved: codes, globs, limits and paths. ``per_file_ignores``: (anchored
    glob, codes); ``exclude``: anchored globs, see path_matches; ``severity``: code → severity override; ``fix``:
    "fix" rewrites the files, "diff" only shows what it would change; ``scenarios``: input-shape scenarios checked
    in the run (see Options)."""

    __slots__ = FIELDS = ("enabled", "per_file_ignores", "exclude", "severity", "output_format", "layers",
                          "max_xml_size", "baseline", "config_path", "force_exclude", "jobs", "debug", "fix",
                          "unsafe_fixes", "scenarios", "scenarios_only", "targets")
    enabled: frozenset[str]
    per_file_ignores: list[tuple[str, frozenset[str]]]
    exclude: list[str]
    severity: dict[str, str]
    output_format: Optional[str]
    layers: str
    max_xml_size: int
    baseline: Optional[str]
    config_path: Optional[str]
    force_exclude: bool
    jobs: int
    debug: bool
    fix: Optional[str]
    unsafe_fixes: bool  # --fix/--diff apply the close-but-not-identical rewrites too
    scenarios: tuple[Scenario, ...]
    scenarios_only: bool
    # runtime targets (older OpenVINO releases) whose refusals are reported too: (as written, release); --fix
    # rewrites what they refuse where an older form computes the same (fixers.downgrade)
    targets: tuple[tuple[str, str], ...]

    def __init__(self, enabled: frozenset[str], per_file_ignores: Optional[list[tuple[str, frozenset[str]]]] = None,
                 exclude: Optional[list[str]] = None, severity: Optional[dict[str, str]] = None,
                 output_format: Optional[str] = None, layers: str = "reshape", max_xml_size: int = DEFAULT_MAX_SIZE,
                 baseline: Optional[str] = None, config_path: Optional[str] = None, force_exclude: bool = False,
                 jobs: int = 1, debug: bool = False, fix: Optional[str] = None, unsafe_fixes: bool = False,
                 scenarios: tuple[Scenario, ...] = (), scenarios_only: bool = False,
                 targets: tuple[tuple[str, str], ...] = ()) -> None:
        self.enabled = enabled
        self.per_file_ignores = [] if per_file_ignores is None else per_file_ignores
        self.exclude = [] if exclude is None else exclude
        self.severity = {} if severity is None else severity
        self.output_format, self.layers, self.max_xml_size = output_format, layers, max_xml_size
        self.baseline, self.config_path, self.force_exclude = baseline, config_path, force_exclude
        self.jobs, self.debug, self.fix, self.unsafe_fixes = jobs, debug, fix, unsafe_fixes
        self.scenarios, self.scenarios_only, self.targets = scenarios, scenarios_only, targets


def parse_size(value: Any) -> int:
    """``1073741824``, ``"1GB"``, ``"512m"`` → bytes."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a size")
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    t = value.strip().lower().rstrip("b")
    try:
        n = float(t[:-1]) * units[t[-1]] if t and t[-1] in units else int(t)
    except ValueError:
        raise ValueError(f"{value!r} is not a size") from None
    if n < 0:
        raise ValueError(f"{value!r} is not a size")
    return int(n)


def find_config(start: str) -> Optional[str]:
    """The nearest configuration file at or above ``start`` (a pyproject.toml counts only with [tool.irreshape])."""
    for d in _upward(start):
        for name in CONFIG_FILES:
            path = os.path.join(d, name)
            if os.path.isfile(path) and (name != "pyproject.toml" or _read(path, table=True) is not None):
                return path
    return None


def _upward(start: str):
    """``start`` (made absolute) and each folder above it, up to the root."""
    d = os.path.abspath(start)
    while True:
        yield d
        parent = os.path.dirname(d)
        if parent == d:
            return
        d = parent


def _read(path: str, table: bool) -> Optional[dict]:
    import tomllib

    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: {e}") from None
    if table:
        tool = doc.get("tool")
        return tool.get("irreshape") if isinstance(tool, dict) else None
    return doc


def load_file(path: str) -> dict:
    """The irreshape keys of a configuration file, validated."""
    data = _read(path, table=os.path.basename(path) == "pyproject.toml") or {}
    return validate(data, path)


def validate(data: dict, source: str) -> dict:
    """Check the keys and the types of their values; raise :class:`ConfigError` naming the bad key."""
    def bad(key: str, why: str) -> ConfigError:
        return ConfigError(f"{source}: `{key}` {why}")

    for key, value in data.items():
        if key not in KEYS:
            raise bad(key, f"is not a configuration key (known keys: {', '.join(KEYS)})")
        if key in LIST_KEYS:
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise bad(key, "must be a list of strings")
        elif key in ("per-file-ignores", "severity"):
            if not isinstance(value, dict):
                raise bad(key, "must be a table")
            for k, v in value.items():
                if key == "severity" and v not in SEVERITIES:
                    raise bad(key, f"value for {k!r} must be one of {', '.join(SEVERITIES)}")
                if key == "per-file-ignores" and not (isinstance(v, list) and all(isinstance(c, str) for c in v)):
                    raise bad(key, f"value for {k!r} must be a list of rule codes")
        elif key == "input-shapes":
            if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
                raise bad(key, "must be a table of scenarios, each a table of input names and dims "
                          '(batch8 = { input_ids = "[8,128]" })')
            for name, shapes in value.items():
                for k, v in shapes.items():
                    try:
                        scenario_dims(v)
                    except ValueError as e:
                        raise bad(key, f"scenario {name!r}, input {k!r}: {e}") from None
        elif key == "max-xml-size":
            try:
                parse_size(value)
            except ValueError as e:
                raise bad(key, str(e)) from None
        elif key == "target":
            try:
                targets(value)
            except ValueError as e:
                raise bad(key, str(e)) from None
        elif not isinstance(value, str):
            raise bad(key, "must be a string")
        elif key == "layers" and value not in LAYERS:
            raise bad(key, f"must be one of {', '.join(LAYERS)}")
        elif key == "output-format" and value not in OUTPUTS:
            raise bad(key, f"must be one of {', '.join(sorted(OUTPUTS))}")
    try:
        for key in ("select", "extend-select", "ignore"):
            codes_of(data.get(key, []))
        for table in ("per-file-ignores", "severity"):
            for k, v in data.get(table, {}).items():
                codes_of(v if table == "per-file-ignores" else [k])
    except SelectorError as e:
        raise ConfigError(f"{source}: {e}") from None
    return data


def build(cli: dict, config: Optional[str] = None, isolated: bool = False, cwd: Optional[str] = None) -> Settings:
    """Merge the configuration file (explicit, discovered, or none when ``isolated``) with ``cli``.

    ``cli`` holds the command line's values under the configuration keys (absent or None: not given)
    plus ``force-exclude``, ``jobs`` and ``debug``.
    """
    cwd = os.path.abspath(cwd or os.getcwd())
    if config and isolated:
        raise ConfigError("--config and --isolated cannot be used together")
    path = None if isolated else (os.path.abspath(config) if config else find_config(cwd))
    file = load_file(path) if path else {}
    root = os.path.dirname(path) if path else cwd
    try:
        given = targets(cli.get("target") or ())  # before the file's: a bad --target is named as such
    except ValueError as e:
        raise ConfigError(f"--target: {e}") from None
    cli = validate({k: v for k, v in cli.items() if k in KEYS and k != "target" and v is not None},
                   "command line") | {k: v for k, v in cli.items() if k not in KEYS}

    layers = [Selection(file.get("select"), file.get("extend-select", []), file.get("ignore", [])),
              Selection(cli.get("select"), cli.get("extend-select", []), cli.get("ignore", []))]
    per_file = [(_anchor(glob, root), codes_of(codes)) for glob, codes in file.get("per-file-ignores", {}).items()]
    baseline = cli.get("baseline") or (os.path.join(root, file["baseline"]) if "baseline" in file else None)
    return Settings(
        enabled=resolve(layers),
        per_file_ignores=per_file,
        exclude=[_anchor(g, root) for g in file.get("exclude", [])] + [_anchor(g, cwd) for g in cli.get("exclude", [])],
        severity=_severities({**file.get("severity", {}), **cli.get("severity", {})}),
        output_format=cli.get("output-format") or file.get("output-format"),
        layers=cli.get("layers") or file.get("layers") or "reshape",
        max_xml_size=parse_size(cli.get("max-xml-size", file.get("max-xml-size", DEFAULT_MAX_SIZE))),
        baseline=os.path.abspath(baseline) if baseline else None,
        config_path=path,
        force_exclude=bool(cli.get("force-exclude")),
        jobs=max(1, int(cli.get("jobs") or 1)),
        debug=bool(cli.get("debug")),
        **_scenarios(cli, file.get("input-shapes", {})),
        targets=given or targets(file.get("target", ())),
    )


def targets(value: object) -> tuple[tuple[str, str], ...]:
    """Runtime targets (a release, or a list of them; "2023.3" means 2023.3.0) → ((as written, release), ...),
    each release once. ValueError naming the releases irreshape knows where one is not a release it knows. The
    release table is read only when a target is given."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(isinstance(v, str) for v in items):
        raise ValueError('must be a release or a list of releases ("2023.3", ["2023.3", "2024.6.1"])')
    if not items:
        return ()
    from ..shapes.targets import canonical, known

    out: dict[str, str] = {}
    for text in items:
        release = canonical(text.strip())
        if release is None:
            raise ValueError(f"{text!r} is not an OpenVINO release irreshape knows; it knows {', '.join(known())} "
                             "(a release without its patch, 2024.6, is its .0)")
        out.setdefault(release, text.strip())
    return tuple((given, release) for release, given in out.items())


def scenario_dims(text: object) -> str:
    """Dims in OpenVINO's notation (``[8,?,1..64]``): the text, or ValueError saying what is wrong."""
    if not isinstance(text, str):
        raise ValueError("dims must be a string such as \"[8,128]\"")
    try:
        parse_shape(text)
    except ValueError:
        raise ValueError(f"{text!r} is not dims in OpenVINO's notation ([8,128], with ?, 1..8, 1.., ..8)") from None
    return text.strip()


def input_shape_option(value: str) -> tuple[Optional[str], str]:
    """One ``--input-shape``: ``NAME=[dims]``, or ``[dims]`` for a model's only input."""
    name, sep, dims = value.rpartition("=")
    return (name.strip() if sep else None), scenario_dims(dims)


def _scenarios(cli: dict, table: dict) -> dict:
    """The run's scenarios: the command line's ``--input-shape`` alone; else the configuration's, the ones
    ``--input-shapes-only`` names alone, or all of them beside the ordinary check."""
    given, only = cli.get("input-shape") or (), cli.get("input-shapes-only") or ()
    if given:
        try:
            shapes = tuple(input_shape_option(v) for v in given)
        except ValueError as e:
            raise ConfigError(f"--input-shape: {e}") from None
        return {"scenarios": (Scenario("command-line", shapes),), "scenarios_only": True}
    unknown = [n for n in only if n not in table]
    if unknown:
        raise ConfigError(f"--input-shapes-only: no scenario named {', '.join(map(repr, unknown))} in the "
                          f"configuration (it has: {', '.join(table) or 'none'})")
    scenarios = tuple(Scenario(n, tuple((k, v.strip()) for k, v in table[n].items()))
                      for n in (only or table))
    return {"scenarios": scenarios, "scenarios_only": bool(only)}


def _anchor(glob: str, base: str) -> str:
    """A glob with a ``/`` is relative to ``base``: make it absolute. A bare name pattern stays as is."""
    g = glob.replace(os.sep, "/").removeprefix("./").rstrip("/")
    if "/" not in g:
        return g
    return g if os.path.isabs(g) else os.path.join(base, g).replace(os.sep, "/")


@lru_cache(maxsize=256)
def _glob_regex(glob: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        elif glob[i] == "[" and "]" in glob[i + 2:]:
            j = glob.index("]", i + 2)
            body = glob[i + 1:j]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
            i = j + 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def path_matches(path: str, glob: str) -> bool:
    """Does the (anchored) ``glob`` match ``path`` or one of its parent directories?

    A bare name pattern (no ``/``) matches any component of the path: ``third_party`` and ``*.tmp.xml``.
    """
    full = os.path.abspath(path).replace(os.sep, "/")
    rx = _glob_regex(glob)
    if "/" not in glob:
        return any(rx.match(part) for part in full.split("/") if part)
    while True:
        if rx.match(full):
            return True
        parent = full.rsplit("/", 1)[0]
        if not parent or parent == full:
            return False
        full = parent


def _severities(table: dict[str, str]) -> dict[str, str]:
    """selector → severity, resolved per code (the most specific selector wins)."""
    out: dict[str, tuple[int, str]] = {}
    for selector, level in table.items():
        codes, spec = matches(selector)
        for c in codes:
            if spec >= out.get(c, (-1, ""))[0]:
                out[c] = (spec, level)
    return {c: level for c, (_, level) in out.items()}


def project_root(start: Optional[str] = None) -> str:
    """The git work tree containing ``start`` (the working directory), else ``start`` itself."""
    start = os.path.abspath(start or os.getcwd())
    return next((d for d in _upward(start) if os.path.exists(os.path.join(d, ".git"))), start)


def relative_path(path: str, root: str) -> str:
    """``path`` relative to ``root`` with ``/`` separators; absolute if it lies outside ``root``."""
    full = os.path.realpath(path)
    rel = os.path.relpath(full, os.path.realpath(root))
    if rel.startswith(os.pardir + os.sep) or rel == os.pardir:
        return full.replace(os.sep, "/")
    return rel.replace(os.sep, "/")
