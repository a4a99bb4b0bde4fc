"""The operands of `and`/`or`/`not` on traced values, for JX203 (traced-expression).

`leaves(node, operator)` flattens a chain of one operator (`a and b and c`; a parenthesised chain is one operand);
`boolean(node, traced)` tells a boolean expression (a comparison, `not`, `True`/`False`, a call such as `isnan` or
`logical_and` in `BOOLEAN_CALLS`, a conditional expression choosing between such expressions, a local bound only to
such expressions): `and`/`or` become `jnp.logical_and` /
`jnp.logical_or` only on those, where Python's truth test and the elementwise one agree.
"""

from __future__ import annotations

import libcst as cst

BOOLEAN_CALLS = {
    "isnan", "isfinite", "isinf", "isclose", "logical_and", "logical_or", "logical_not", "logical_xor", "any", "all",
    "signbit", "isreal", "iscomplex", "isneginf", "isposinf", "array_equal", "allclose", "bool_",
}


def leaves(node: cst.BaseExpression, operator: type) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, operator) and not node.lpar:
        return [*leaves(node.left, operator), *leaves(node.right, operator)]
    return [node]


def boolean(node: cst.BaseExpression, traced=None, depth: int = 2) -> bool:
    if isinstance(node, (cst.Comparison,)):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return True
    if isinstance(node, cst.BooleanOperation):
        return boolean(node.left, traced, depth) and boolean(node.right, traced, depth)
    if isinstance(node, cst.IfExp):  # `(abs(t) < tol) if scalar else np.all(...)`: a truth test either way
        return boolean(node.body, traced, depth) and boolean(node.orelse, traced, depth)
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return True
    if isinstance(node, cst.Name) and traced is not None and depth > 0:
        values = traced.assigned_values(node.value)  # a local bound only to boolean expressions
        return bool(values) and all(v is not None and boolean(v, traced, depth - 1) for v in values)
    if isinstance(node, cst.Call):
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
        return name in BOOLEAN_CALLS
    return False
