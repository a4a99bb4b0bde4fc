"""Expressions that are provably 0-d arrays (or scalars), and their dtype kind, from syntax alone.

`scalar_kind(rule, expr)` is "float" (real), "int", "bool" or "?" (0-d, kind unknown: the mean of a complex array
is complex, a sum has its input's kind) when `expr` is surely 0-d: a full
reduction (`np.sum(x)`, `jnp.mean(x)`, `x.max()` without `axis`/`keepdims`), a number literal, or arithmetic and
comparisons of those, elementwise functions of them (`np.sqrt(np.sum(x))`), or a local name whose every reaching definition is one of those (`jaxfix.analysis.dataflow`).
It is None when the shape is not known to be `()`. An element of an array whose rank is known is 0-d too:
`y[0]`, `y[i, j]` with integer indices as many as `y` has axes, where `y` is a local name whose every reaching
definition makes an array of that rank (`rank`): `np.zeros(3)`, `np.ones((n, 4))` with integer sizes (literals,
`len(..)`, `x.shape[k]`, `int(..)` and arithmetic of those; a parameter may be a shape tuple, so it
is not one), `np.arange(..)`, `np.linspace(a, b)` of 0-d ends, and what keeps a rank: `y.at[i].set(v)` (and the
other `.at` updates), `y[0]` (a row of a table), `y.copy()`, `y.astype(..)`, `np.zeros_like(y)`, `-y`, arithmetic with 0-d values. An index
is an integer when it is an integer literal, a `for` target over `range(..)`, or 0-d of kind "int". The rule must
list `NumpyNameProvider`, `ParentProvider` and `DataflowProvider`.

`math_aliases(module)` maps the local spellings of the `math` module's functions (`math.sqrt`, `m.sqrt` after
`import math as m`, `sqrt` after `from math import sqrt`) to their names.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst


from jaxfix import walk
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.shapes import ELEMENTWISE

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


def _definitions(rule: cst.MetadataDependent, name: cst.Name, depth: int) -> Optional[list[cst.CSTNode]]:
    """The definitions of a local name reaching this read, or None when there are none or it may be unbound."""
    function = getattr(rule, "current_function", None)
    if function is None or depth == 0 or name.value in _declared_outer(function):
        return None  # (a `global` name: a call in between may rebind it)
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
    return [d.node for d in definitions]


def _declared_outer(function: cst.FunctionDef) -> frozenset[str]:
    """The names `function` declares `global` or `nonlocal`."""
    declared = [*walk.nodes_of(function.body, cst.Global), *walk.nodes_of(function.body, cst.Nonlocal)]
    return frozenset(n.name.value for node in declared for n in node.names  # type: ignore[attr-defined]
                     if isinstance(n.name, cst.Name))


def _assigned(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)


def _name_kind(rule: cst.MetadataDependent, name: cst.Name, depth: int) -> Optional[str]:
    """The kind of a local name when every definition reaching this read is a plain assignment of a 0-d value (or
    a `for` over `range(..)`)."""
    definitions = _definitions(rule, name, depth)
    if definitions is None:
        return None
    kinds = set()
    for node in definitions:
        if isinstance(node, cst.For) and isinstance(node.target, cst.Name) and _range_call(node.iter):
            kinds.add("int")  # `for i in range(n)`: a Python int
            continue
        if not _assigned(node):
            return None
        value = node.value  # type: ignore[attr-defined]
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
        if name is not None and name in ELEMENTWISE and name != "where" and positional and not keywords:
            # `np.sqrt(v)`, `np.maximum(v, 0)` of 0-d values: 0-d (its kind may change: sqrt of an int is a float)
            return "?" if all(scalar_kind(rule, p.value, depth) is not None for p in positional) else None
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
    if isinstance(expr, cst.Subscript) and all(isinstance(e.slice, cst.Index) and e.slice.star is None for e in expr.slice):
        indices = [e.slice.value for e in expr.slice]  # type: ignore[attr-defined]
        if all(_int_index(rule, i, depth) for i in indices) and rank(rule, expr.value, depth) == len(indices):
            return "?"  # one element of an array of that many axes
    return None


def _range_call(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "range"


def _int_index(rule: cst.MetadataDependent, index: cst.BaseExpression, depth: int) -> bool:
    if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.Minus):
        index = index.expression
    return isinstance(index, cst.Integer) or scalar_kind(rule, index, depth) == "int"


def _int_size(rule: cst.MetadataDependent, expr: cst.BaseExpression, depth: int) -> bool:
    """A Python or 0-d integer, as an array size: `3`, `len(x)`, `x.shape[0]`, `int(v)`, `n // 2 + 1` (not
    `obj.size`: PIL's `Image.size` is a tuple)."""
    if isinstance(expr, cst.Integer):
        return True
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("len", "int") \
            and len(expr.args) == 1 and expr.args[0].keyword is None and not expr.args[0].star:
        return True
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape" \
            and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) \
            and _int_index(rule, expr.slice[0].slice.value, depth):
        return True
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide)):
        return _int_size(rule, expr.left, depth) and _int_size(rule, expr.right, depth)
    if isinstance(expr, cst.Name) and _name_kind(rule, expr, depth) == "int":
        return True
    if isinstance(expr, cst.Name):  # `n = len(x)`
        definitions = _definitions(rule, expr, depth)
        return definitions is not None and all(_assigned(d) and _int_size(rule, d.value, depth - 1) for d in definitions)  # type: ignore[attr-defined]
    return False


FILLED = {"zeros": 0, "ones": 0, "empty": 0, "full": 0}
SAME_RANK_METHODS = {"copy", "astype", "conj", "conjugate"}
AT_UPDATES = {"set", "add", "subtract", "multiply", "divide", "power", "min", "max", "apply"}


def rank(rule: cst.MetadataDependent, expr: cst.BaseExpression, depth: int = 3) -> Optional[int]:
    """The number of axes of the array `expr` makes, when it is known from syntax alone (see the module doc)."""
    if isinstance(expr, cst.Name):
        return _name_rank(rule, expr, depth)
    if isinstance(expr, cst.UnaryOperation) and not isinstance(expr.operator, cst.Not):
        return rank(rule, expr.expression, depth)
    if isinstance(expr, cst.BinaryOperation) and not isinstance(expr.operator, cst.MatrixMultiply):
        ranks = [0 if scalar_kind(rule, side, depth) is not None else rank(rule, side, depth) for side in (expr.left, expr.right)]
        return None if None in ranks else max(ranks)  # type: ignore[type-var]
    if isinstance(expr, cst.Subscript) and all(isinstance(e.slice, cst.Index) and e.slice.star is None for e in expr.slice) \
            and all(_int_index(rule, e.slice.value, depth) for e in expr.slice):  # type: ignore[attr-defined]
        base = rank(rule, expr.value, depth)  # `table[0]`: a row
        return base - len(expr.slice) if base is not None and base >= len(expr.slice) else None
    if not isinstance(expr, cst.Call) or any(a.star for a in expr.args):
        return None
    positional = [a.value for a in expr.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in expr.args if a.keyword is not None}
    func = expr.func
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Subscript) and func.attr.value in AT_UPDATES \
            and isinstance(func.value.value, cst.Attribute) and func.value.value.attr.value == "at":
        return rank(rule, func.value.value.value, depth)  # `y.at[i].set(v)` has the shape of `y`
    if isinstance(func, cst.Attribute) and func.attr.value in SAME_RANK_METHODS and _array_function(rule, func) is None \
            and set(keywords) <= {"dtype", "copy", "order"}:
        return rank(rule, func.value, depth)
    name = _array_function(rule, func)
    if name is None:
        return None
    if name in FILLED:
        shape = positional[0] if positional else keywords.get("shape")
        if shape is None or not set(keywords) <= {"shape", "dtype", "fill_value", "order"}:
            return None
        if isinstance(shape, (cst.Tuple, cst.List)):
            elements = [e for e in shape.elements]
            if all(not isinstance(e, cst.StarredElement) and _int_size(rule, e.value, depth) for e in elements):
                return len(elements)
            return None
        return 1 if _int_size(rule, shape, depth) else None
    if name == "arange":
        return 1 if not set(keywords) - {"start", "stop", "step", "dtype"} else None  # always 1-D
    if name in ("linspace", "logspace", "geomspace") and len(positional) >= 2 and not set(keywords) & {"axis", "retstep"}:
        ends = positional[:2]
        return 1 if all(scalar_kind(rule, e, depth) is not None or isinstance(e, (cst.Integer, cst.Float)) for e in ends) else None
    if name in ("zeros_like", "ones_like", "empty_like", "full_like", "copy") and positional \
            and not set(keywords) - {"dtype", "fill_value", "order"}:
        return rank(rule, positional[0], depth)
    return None


def _name_rank(rule: cst.MetadataDependent, name: cst.Name, depth: int) -> Optional[int]:
    definitions = _definitions(rule, name, depth)
    if definitions is None or not all(_assigned(node) for node in definitions):
        return None
    ranks = {rank(rule, node.value, depth - 1) for node in definitions}  # type: ignore[attr-defined]
    return ranks.pop() if len(ranks) == 1 else None


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
