"""NumPy array subclasses whose instances `jax.numpy` functions reject.

JAX's dispatch reads two attributes of an array argument when it has them: `format` (its layout: `arg.format.layout`
in `pjit`) and `sharding`. An `np.ndarray` subclass that defines either for its own purposes (spectral's
`ImageArray.format = 'f'`, a data format code; a method or a property of that name; `self.format = ...` in
`__array_finalize__`) makes every `jax.numpy` function raise `AttributeError` on its instances (`'str' object has no
attribute 'layout'`), eagerly as much as under `jit`, while `jnp.asarray(x)` (which reads NumPy's buffer) takes
them. A `None` class attribute is what JAX reads as "none", and is not counted.

- `module_classes(tree)`: {class name: the attribute} for the module's classes that derive (through the module's
  classes) from `np.ndarray` and define, or inherit from one that defines, such an attribute.
- `INDEX`: the project index of them across the run (a subclass of one in another module counts, by the base's
  name), so that a module of the run that never names the class (spectral's `has_nan(X)` in `utilities.errors`,
  given `ImageArray`s by `spectral.image`) knows its parameters may be instances.
- `layout_classes(rule)`: the module's and the run's, {class name: attribute}.
"""

from __future__ import annotations

import ast
from typing import Any, Mapping, Optional

from jaxfix.rule import ProjectIndex

JAX_READ_ATTRIBUTES = frozenset({"format", "sharding"})
KEY = "layout_classes"
_ARRAY_BASES = frozenset({"ndarray"})  # `np.ndarray`, `numpy.ndarray`, `ndarray`


def _last(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _defined(cls: ast.ClassDef) -> Optional[str]:
    """The attribute JAX reads that the class body defines (not as None), or sets on `self` in a method."""
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in JAX_READ_ATTRIBUTES:
            return node.name
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) \
            and node.value is not None else []
        value = getattr(node, "value", None)
        for target in targets:
            if isinstance(target, ast.Name) and target.id in JAX_READ_ATTRIBUTES \
                    and not (isinstance(value, ast.Constant) and value.value is None):
                return target.id
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                for target in inner.targets if isinstance(inner, ast.Assign) else \
                        [inner.target] if isinstance(inner, (ast.AnnAssign, ast.AugAssign)) else []:
                    if isinstance(target, ast.Attribute) and target.attr in JAX_READ_ATTRIBUTES \
                            and isinstance(target.value, ast.Name) and target.value.id == "self":
                        return target.attr
    return None


def _summarize_tree(tree: ast.Module) -> dict[str, list]:
    """{class name: [its bases' last names, the attribute it defines or None]} for the module's classes (at any
    depth) with a base."""
    return {node.name: [[_last(b) for b in node.bases], _defined(node)]
            for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.bases}


def _closure(classes: Mapping[str, list], known: Mapping[str, str] = {}) -> dict[str, str]:
    """The array subclasses among `classes` ({name: [bases, attribute]}) with an attribute JAX reads, their own or a
    base's (`known`: other modules' such classes, by name)."""
    arrays = set(_ARRAY_BASES) | set(known)
    changed = True
    while changed:  # the classes deriving from `ndarray`, through each other
        changed = False
        for name, (bases, _) in classes.items():
            if name not in arrays and any(b in arrays for b in bases):
                arrays.add(name)
                changed = True
    found = dict(known)
    changed = True
    while changed:
        changed = False
        for name, (bases, attribute) in classes.items():
            if name in found or name not in arrays:
                continue
            inherited = attribute or next((found[b] for b in bases if b in found), None)
            if inherited is not None:
                found[name] = inherited
                changed = True
    return {name: found[name] for name in classes if name in found}


def module_classes(tree: ast.Module) -> dict[str, str]:
    """{class name: attribute} for the module's `np.ndarray` subclasses with an attribute JAX reads."""
    return _closure(_summarize_tree(tree))


def _wanted(data: bytes, module_name: str, is_package: bool, modules: frozenset) -> bool:
    """A file that may define an array subclass (a subclass of one in a file that does not say `ndarray` is missed)."""
    return b"ndarray" in data and b"class " in data


def _summarize(path: str, module_name: str, tree: ast.Module, modules: frozenset) -> dict[str, Any]:
    return {"module": module_name, "classes": _summarize_tree(tree)}


def _link(summaries: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """{class name: attribute} over the run (a subclass in one module of a class in another, by the base's name)."""
    found: dict[str, str] = {}
    while True:
        more = {}
        for summary in summaries.values():
            more.update(_closure(summary["classes"], found))
        if more.keys() <= found.keys():
            return found
        found.update(more)


INDEX = ProjectIndex(KEY, _wanted, _summarize, _link)


def layout_classes(rule: Any) -> dict[str, str]:
    """The module's and the run's `np.ndarray` subclasses with an attribute JAX reads: {class name: attribute}, the
    module's first.
    Computed once per rule context (one pass over one file)."""
    context = rule.context
    cache = context.__dict__
    if "_layout_classes" not in cache:
        run = dict(context.project_facts(KEY) or {})
        here = _closure(_summarize_tree(context.tree), run) if "class " in context.source else {}
        cache["_layout_classes"] = {**here, **run}  # (the module's own first)
    return cache["_layout_classes"]
