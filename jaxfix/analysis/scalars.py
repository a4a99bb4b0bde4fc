"""Expressions that are provably 0-d arrays (or scalars), and their dtype kind, from syntax alone.

`scalar_kind(rule, expr)` is "float" (real), "int", "bool" or "?" (0-d, kind unknown: the mean of a complex array
is complex, a sum has its input's kind) when `expr` is surely 0-d: a full
reduction (`np.sum(x)`, `jnp.mean(x)`, `x.max()` without `axis`/`keepdims`), a number literal, or arithmetic and
comparisons of those, or a local name whose every reaching definition is one of those (`jaxfix.analysis.dataflow`).
It is None when the shape is not known to be `()`. The rule must list `NumpyNameProvider`, `ParentProvider`
and `DataflowProvider`.

`math_aliases(module)` maps the local spellings of the `math` module's functions (`math.sqrt`, `m.sqrt` after
`import math as m`, `sqrt` after `from math import sqrt`) to their names.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst


from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.parents import ParentProvider

# always real (also for complex input); the mean of complex values is complex, so means are only "inexact"
FLOAT_REDUCTIONS = {"std", "var", "nanstd", "nanvar", "norm"}
INEXACT_REDUCTIONS = {"mean", "median", "average", "nanmean", "nanmedian"}
INT_REDUCTIONS = {"argmax", "argmin", "count_nonzero", "nanargmax", "nanargmin"}
BOOL_REDUCTIONS = {"any", "all"}
SAME_KIND_REDUCTIONS = {"sum", "max", "min", "amax", "amin", "prod", "ptp", "nansum", "nanmax", "nanmin", "nanprod"}
METHOD_REDUCTIONS = {"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "ptp"}
# keywords that leave a full reduction 0-d (`axis`, `keepdims`, `ord` with `axis`, ... are excluded)
SCALAR_KEYWORDS = {"dtype", "ddof"}


def _reduction_kind(name: str) -> Optional[str]:
    if name in FLOAT_REDUCTIONS:
        return "float"
    if name in INT_REDUCTIONS:
        return "int"
    if name in BOOL_REDUCTIONS:
        return "bool"
    if name in SAME_KIND_REDUCTIONS or name in INEXACT_REDUCTIONS:
        return "?"
    return None


def _array_function(rule: cst.MetadataDependent, func: cst.BaseExpression) -> Optional[str]:
    """The last component of a NumPy or jax.numpy function name, else None."""
    qualified = numpy_name(rule, func)
    if qualified:
        return qualified.split(".")[-1]
    parts = []
    node = func
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name) or not parts:
        return None  # not a dotted name: `jnp.isfinite(x).all` is a method of a result
    dotted = ".".join([node.value, *reversed(parts)])
    jnp = getattr(rule, "jnp", "jnp")
    return parts[0] if dotted.startswith((f"{jnp}.", "jax.numpy.")) else None


def _name_kind(rule: cst.MetadataDependent, name: cst.Name, depth: int) -> Optional[str]:
    """The kind of a local name when every definition reaching this read is a plain assignment of a 0-d value."""
    function = getattr(rule, "current_function", None)
    if function is None or depth == 0:
        return None
    statement: Optional[cst.CSTNode] = name
    while statement is not None and not isinstance(statement, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
        statement = rule.get_metadata(ParentProvider, statement, None)
    if statement is None:
        return None
    flow = function_flow(rule, function)
    try:
        definitions = flow.reaching(statement, name.value)
        if not definitions or flow.maybe_undefined(statement, name.value):
            return None
    except KeyError:  # a statement the flow graph does not key (e.g. inside a nested construct)
        return None
    kinds = set()
    for definition in definitions:
        node = definition.node
        if not (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)):
            return None
        value = node.value
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("float", "int", "bool"):
            return None  # a Python scalar while that conversion stays: it has no `.astype`
        kind = scalar_kind(rule, value, depth - 1)
        if kind is None:
            return None
        kinds.add(kind)
    return kinds.pop() if len(kinds) == 1 else "?"


def scalar_kind(rule: cst.MetadataDependent, expr: cst.BaseExpression, depth: int = 3) -> Optional[str]:
    if isinstance(expr, cst.Name):
        return _name_kind(rule, expr, depth)
    if isinstance(expr, cst.Integer):
        return "int"
    if isinstance(expr, cst.Float):
        return "float"
    if isinstance(expr, cst.Call):
        positional = [a for a in expr.args if a.keyword is None and not a.star]
        keywords = {a.keyword.value for a in expr.args if a.keyword is not None}
        if any(a.star for a in expr.args) or not keywords <= SCALAR_KEYWORDS:
            return None
        if isinstance(expr.func, cst.Name) and expr.func.value in ("float", "int", "bool") and len(positional) == 1:
            return expr.func.value  # a Python scalar
        name = _array_function(rule, expr.func)
        if name is not None:
            return _reduction_kind(name) if len(positional) == 1 else None
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in METHOD_REDUCTIONS and not positional:
            return _reduction_kind(expr.func.attr.value)
        return None
    if isinstance(expr, cst.UnaryOperation):
        inner = scalar_kind(rule, expr.expression, depth)
        if inner is None:
            return None
        return "bool" if isinstance(expr.operator, cst.Not) else ("int" if inner == "bool" else inner)
    if isinstance(expr, cst.BinaryOperation):
        left, right = scalar_kind(rule, expr.left, depth), scalar_kind(rule, expr.right, depth)
        if left is None or right is None:
            return None
        kinds = {left, right}
        if "?" in kinds:
            return "?"  # may be complex
        if isinstance(expr.operator, cst.Divide):
            return "float"
        if "float" in kinds:
            return "float"
        return "int" if kinds == {"int"} else "?"
    if isinstance(expr, cst.Comparison):
        parts = [expr.left, *(c.comparator for c in expr.comparisons)]
        return "bool" if all(scalar_kind(rule, p, depth) is not None for p in parts) else None
    return None


def math_aliases(module: cst.Module) -> dict[str, str]:
    """Local spelling of each `math` function the module can reach (`math.sqrt`, `m.sqrt`, `sqrt`) -> its name."""
    import math

    names = [n for n in dir(math) if not n.startswith("_")]
    aliases: dict[str, str] = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    if isinstance(alias.name, cst.Name) and alias.name.value == "math":
                        local = alias.evaluated_alias or "math"
                        aliases.update({f"{local}.{n}": n for n in names})
            elif isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and small.module.value == "math":
                if not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        aliases[alias.evaluated_alias or alias.evaluated_name] = alias.evaluated_name
    return aliases
