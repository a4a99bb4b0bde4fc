"""Configuration from `[tool.jaxfix]` in the nearest `pyproject.toml`; the command line overrides it.

```toml
[tool.jaxfix]
select = ["JX"]             # codes, prefixes (JX1) or rule names; default: all rules
ignore = ["JX601"]
exclude = ["legacy/", "*_pb2.py"]   # gitignore-style patterns, relative to the pyproject's folder
unsafe-fixes = false
max-file-bytes = 2000000
# Anything else is a rule setting, read by rules with `context.setting(name)`; for example:
static-args = ["simulate.n_steps"]  # parameters known to be static under jit (function.parameter)
unroll-max = 16                     # loops with a static trip count up to this stay Python loops
key-name = "key"                    # the parameter name given to functions that gain a PRNG key
```
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

KNOWN_KEYS = {"select", "ignore", "exclude", "unsafe-fixes", "max-file-bytes", "respect-gitignore"}


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    path: Optional[str] = None  # the pyproject.toml it came from
    root: str = "."
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    max_file_bytes: int = 2_000_000
    respect_gitignore: bool = True
    settings: tuple[tuple[str, Any], ...] = field(default_factory=tuple)


def find_pyproject(start: str) -> Optional[str]:
    here = os.path.abspath(start)
    if os.path.isfile(here):
        here = os.path.dirname(here)
    while True:
        candidate = os.path.join(here, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _strings(value: Any, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ConfigError(f"[tool.jaxfix] {key} must be a string or a list of strings")


def load_config(paths: Sequence[str] = (), explicit: Optional[str] = None) -> Config:
    """The configuration for a run over `paths` (the nearest pyproject.toml of the first path, or of the cwd)."""
    pyproject = explicit or find_pyproject(paths[0] if paths and paths[0] != "-" else os.getcwd())
    if pyproject is None:
        return Config(root=os.getcwd())
    try:
        with open(pyproject, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{pyproject}: {error}") from None
    table = data.get("tool", {}).get("jaxfix", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.jaxfix] must be a table")
    settings = tuple(sorted((k, _freeze(v)) for k, v in table.items() if k not in KNOWN_KEYS))
    max_bytes = table.get("max-file-bytes", Config.max_file_bytes)
    if not isinstance(max_bytes, int) or max_bytes <= 0:
        raise ConfigError(f"{pyproject}: [tool.jaxfix] max-file-bytes must be a positive integer")
    return Config(
        path=pyproject,
        root=os.path.dirname(pyproject),
        select=_strings(table.get("select", []), "select"),
        ignore=_strings(table.get("ignore", []), "ignore"),
        exclude=_strings(table.get("exclude", []), "exclude"),
        unsafe_fixes=bool(table.get("unsafe-fixes", False)),
        max_file_bytes=max_bytes,
        respect_gitignore=bool(table.get("respect-gitignore", True)),
        settings=settings,
    )


def _freeze(value: Any) -> Any:
    """Settings travel inside the frozen RunOptions: lists become tuples, tables become sorted item tuples."""
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value
