"""Finding rules: the first-party `codemods` package (one module per rule) and the `jaxfix.codemods` entry-point
group, through which other packages add rules (`name = "package.module:RuleClass"`).

The framework never imports a rule by name; everything goes through `all_rules()`.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
import warnings
from functools import lru_cache
from typing import Iterable, Sequence

from jaxfix.rule import Rule

ENTRY_POINT_GROUP = "jaxfix.codemods"


class RegistryError(Exception):
    pass


def _rules_in_module(module: object) -> list[type[Rule]]:
    found = []
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and issubclass(value, Rule)
            and value is not Rule
            and value.CODE
            and value.__module__ == getattr(module, "__name__", None)
        ):
            found.append(value)
    return found


def _builtin() -> list[type[Rule]]:
    import codemods

    rules: list[type[Rule]] = []
    for info in sorted(pkgutil.iter_modules(codemods.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"codemods.{info.name}")
        rules.extend(_rules_in_module(module))
    return rules


def _plugins() -> list[type[Rule]]:
    rules: list[type[Rule]] = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
        except Exception as error:  # noqa: BLE001 - a broken plugin must not take the tool down
            warnings.warn(f"jaxfix: could not load rule plugin {entry.name!r}: {error}", stacklevel=2)
            continue
        if isinstance(loaded, type) and issubclass(loaded, Rule):
            rules.append(loaded)
        else:
            rules.extend(_rules_in_module(loaded))
    return rules


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    rules = _builtin() + _plugins()
    seen: dict[str, type[Rule]] = {}
    for rule in rules:
        if rule.CODE in seen and seen[rule.CODE] is not rule:
            raise RegistryError(f"two rules share code {rule.CODE}: {seen[rule.CODE].__name__} and {rule.__name__}")
        seen[rule.CODE] = rule
    return tuple(sorted(seen.values(), key=lambda r: (r.ORDER, r.CODE)))


def _matches(rule: type[Rule], selectors: Iterable[str]) -> bool:
    for selector in selectors:
        s = selector.strip()
        if not s:
            continue
        if s.upper() == "ALL" or rule.CODE.startswith(s.upper()) or rule.name() == s.lower():
            return True
    return False


def unknown_selectors(selectors: Sequence[str]) -> list[str]:
    return [s for s in selectors if s.strip() and not any(_matches(r, [s]) for r in all_rules())]


def select_rules(select: Sequence[str] = (), ignore: Sequence[str] = ()) -> tuple[type[Rule], ...]:
    """Rules chosen by codes, code prefixes (`JX1`) or names (`inplace-index-update`); `ignore` wins."""
    rules = all_rules()
    if select:
        rules = tuple(r for r in rules if _matches(r, select))
    if ignore:
        rules = tuple(r for r in rules if not _matches(r, ignore))
    return rules


def get_rule(key: str) -> type[Rule]:
    for rule in all_rules():
        if rule.CODE == key.upper() or rule.name() == key.lower():
            return rule
    raise KeyError(key)
