"""Which rules run on a file, decided before LibCST: the rules' byte TRIGGERS, then the tree pre-checks.

`may_apply` answers on the raw bytes (a file none of the rules' TRIGGERS occur in is skipped before decoding);
`first_rules` narrows the rules for the first pass with `jaxfix.precheck` on the file's `ast` tree, and
`tree_filter` does the same on each later pass's text. `module_rules` leaves the array-code rules out of modules
that import neither NumPy, JAX nor SciPy.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any, Collection, Mapping, Optional, Sequence

from jaxfix import precheck

if TYPE_CHECKING:
    from jaxfix.rule import Rule


_NUMPY_BACKEND = re.compile(r"_?(numpy|np)(_backend)?$")


def numpy_backend(module_name: str) -> bool:
    """Whether the module is the NumPy flavour of a dispatch layer, inside some package (`array_api_compat.numpy.
    _aliases`, `backend.numpy`, `backends.numpy_backend`): its job is to be NumPy (`def asarray(obj, copy=None):
    return np.array(obj, copy=...)`, handed NumPy arrays by code that checks for them), so it is left as it is."""
    return any(_NUMPY_BACKEND.fullmatch(part) for part in module_name.split(".")[1:])


def may_apply(data: bytes, rules: Sequence[type[Rule]], project: Optional[Mapping[str, Any]] = None) -> bool:
    facts = project or {}
    return any(trigger in data for rule in rules for trigger in rule.triggers(facts))


def may_apply_to_tree(
    path: str, data: bytes, text: str, rules: Sequence[type[Rule]], project: Optional[Mapping[str, Any]] = None
) -> bool:
    """The second-level pre-check (see `jaxfix.precheck`): False only when every rule whose TRIGGERS occur in `data`
    is ruled out on the file's `ast` tree."""
    return bool(rules_that_may_apply(path, data, text, rules, project))


def rules_that_may_apply(
    path: str, data: bytes, text: str, rules: Sequence[type[Rule]], project: Optional[Mapping[str, Any]] = None
) -> list[type[Rule]]:
    """The rules to run on the first pass (of `module_rules`: not the array-code rules on a module that imports
    neither NumPy, JAX nor SciPy): none when no rule whose TRIGGERS occur in `data` survives the tree pre-checks
    (the file is skipped); else every rule of `rules` that the tree pre-checks do not rule out (all of
    them when `ast` rejects the text: LibCST then reports the error)."""
    return first_rules(path, data, text, rules, project)[0]


def first_rules(
    path: str, data: bytes, text: str, rules: Sequence[type[Rule]], project: Optional[Mapping[str, Any]] = None,
    module_name: str = "",
) -> tuple[list[type[Rule]], Optional[ast.Module], list[type[Rule]]]:
    """`rules_that_may_apply`, the `ast` tree the pre-checks read (the first pass reuses it), and `module_rules` (the
    rules for every pass)."""
    facts = project or {}
    every = rules
    rules = module_rules(data, text, rules, facts)
    triggered = {rule for rule in rules if any(trigger in data for trigger in rule.triggers(facts))}
    if not triggered:
        return [], None, rules
    survivors, tree = tree_filter(path, text, rules, kept_by_project(rules, facts, module_name))
    if tree is not None and len(rules) == len(every) and not precheck.imports_array_module_in(tree):
        # the import line `module_rules` saw sits in a string: a plain Python module after all
        rules = module_rules(data, text, every, facts, imports_arrays=False)
        survivors = [rule for rule in survivors if rule in rules]
        triggered.intersection_update(rules)
    return (survivors if triggered.intersection(survivors) else []), tree, rules


_ARRAY_TRIGGERS = frozenset({b"numpy", b"jax"})


def module_rules(data: bytes, text: str, rules: Sequence[type[Rule]], facts: Mapping[str, Any],
                 imports_arrays: Optional[bool] = None) -> list[type[Rule]]:
    """The rules for this module: all of them, but the array-code rules (TRIGGERS `numpy`/`jax`) only when the module
    imports NumPy, JAX or SciPy somewhere (`imports_arrays`, when the caller knows; else a line of `text` that
    looks like such an import), or (that rule alone) when the module names a function the rule's project facts say
    changed elsewhere (keys threaded through callers). Plain Python modules are not migrated, whatever their
    docstrings say."""
    if imports_arrays if imports_arrays is not None else precheck.imports_array_module(text):
        return list(rules)
    return [
        rule for rule in rules
        if not _ARRAY_TRIGGERS.intersection(rule.TRIGGERS)
        or any(t in data for t in rule.triggers(facts) if t not in rule.TRIGGERS)
    ]


def kept_by_project(rules: Sequence[type[Rule]], project: Mapping[str, Any], module_name: str) -> frozenset:
    """The rules the project facts give something to do in module `module_name` that its text does not show
    (`Rule.wanted_by_project`: a parameter another module passes a list): no tree pre-check rules them out there."""
    if not project or not module_name:
        return frozenset()
    return frozenset(rule for rule in rules if rule.wanted_by_project(project, module_name))


def tree_filter(
    path: str, text: str, rules: Sequence[type[Rule]], kept: Collection[type[Rule]] = ()
) -> tuple[list[type[Rule]], Optional[ast.Module]]:
    """The rules the tree pre-checks do not rule out on `text` (never those of `kept`), and the `ast` tree they read
    (None when not parsed)."""
    if not precheck.enabled():
        return list(rules), None
    tree = precheck.parse(text, path)
    if tree is None:
        return list(rules), None
    tree_facts = precheck.TreeFacts(tree, text)
    return [rule for rule in rules if rule in kept or precheck.may_apply(rule, tree_facts)], tree
