"""Host regions: code inside a function that runs only for NumPy arrays, and that every rule leaves as it is.

Array-API code (scikit-learn, SciPy) handles every array type through a namespace `xp`, and keeps a branch for
NumPy where it needs what only NumPy has (a memory layout for compiled code, object and string arrays, writing
into an array in place): `if _is_numpy_namespace(xp): array.flat[::n + 1] += value; return`. That branch is NumPy
on purpose: given JAX arrays, the test is False and the other branch runs, which handles them through `xp`. Moved
to `jax.numpy` or rewritten with `.at[...]`, the branch would fail for the NumPy arrays it exists for (a NumPy
array has no `.at`; `jnp.asarray` rejects string labels).

The engine drops every finding that starts inside such a branch (`numpy_branches`), as it drops suppressed ones.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

import libcst as cst

from jaxfix import walk
from jaxfix.imports import ModuleImports

# `_is_numpy_namespace(xp)`, `is_numpy_array(x)`, `array_api_compat.is_numpy_namespace(xp)`
_NUMPY_TEST = re.compile(r"_?is_numpy(_namespace|_array|_backend)?")
# what a file's bytes contain if it may have such a test (the walk for `if` statements is skipped otherwise)
_MAY_DISPATCH = re.compile(r"is_numpy|\b(?:is|==)\s+(?:np|numpy)\b|\b(?:np|numpy)\s+(?:is|==)\s")


def numpy_dispatch(test: cst.BaseExpression, numpy_name: Callable[[cst.BaseExpression], Optional[str]]) -> bool:
    """Whether the body of an `if` with this test runs for NumPy arrays only: the test is (or `and`s in) a call of
    an `is_numpy...` predicate, or `xp is np` / `xp == numpy` (`numpy_name(e)` is "numpy" for a name of the module)."""
    if isinstance(test, cst.BooleanOperation):
        return isinstance(test.operator, cst.And) and (numpy_dispatch(test.left, numpy_name) or numpy_dispatch(test.right, numpy_name))
    if isinstance(test, cst.Call):
        func = test.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        return _NUMPY_TEST.fullmatch(name) is not None
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        operator = test.comparisons[0].operator
        sides = (test.left, test.comparisons[0].comparator)
        return isinstance(operator, (cst.Is, cst.Equal)) and any(numpy_name(side) == "numpy" for side in sides)
    return False


def numpy_branches(module: cst.Module, text: str, imports: ModuleImports) -> list[cst.BaseSuite]:
    """The bodies of the `if`/`elif` statements whose test is a NumPy dispatch (`numpy_dispatch`).
    A module-level name bound to `numpy` counts as NumPy (a function parameter of the same name too: rare, and a
    parameter compared with `is np` tells the same thing)."""
    if _MAY_DISPATCH.search(text) is None:
        return []
    aliases = imports.numpy_aliases

    def numpy_name(node: cst.BaseExpression) -> Optional[str]:
        return aliases.get(node.value) if isinstance(node, cst.Name) else None

    return [branch.body for branch in walk.nodes_of(module, cst.If) if numpy_dispatch(branch.test, numpy_name)]  # type: ignore[attr-defined]
