"""Python's `max`, `min` and `round` on traced values, for JX203 (traced-expression).

- `BUILTINS`: each builtin's `jax.numpy` form, and `RAISED_BY_BUILTINS` what the builtins raise on arrays (a `try`
  around the call that catches it would stop running);
- `formatted(rule, node)`: a call whose result goes straight into text, which needs a concrete value anyway;
- `fold(rule, builtin, arguments)`: `max(a, b, ...)` as `jax.numpy`, with Python's NaN behaviour where a form keeps it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from codemods._where_safety import cheap_and_pure
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.parents import ParentProvider

if TYPE_CHECKING:
    from jaxfix.rule import Rule

BUILTINS = {"max": "maximum", "min": "minimum", "round": "round"}
# what the builtins raise on arrays (`min(a, b)`: the truth value of an array is ambiguous), as `caught_around` names it
RAISED_BY_BUILTINS = {"ValueError", "TypeError", "Exception", "BaseException"}


def formatted(rule: Rule, node: cst.Call) -> bool:
    """Whether the builtin's result goes straight into text (`"{}".format(round(x, 4))`, an f-string, `str`,
    `print`, `"%s" % ...`): that needs a concrete value anyway, and a `jnp` form would print differently."""
    parent = rule.get_metadata(ParentProvider, node, None)
    if isinstance(parent, cst.FormattedStringExpression):
        return True
    if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Modulo):
        return isinstance(parent.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
    if isinstance(parent, cst.Tuple):  # `"%s %s" % (round(a), b)`
        return formatted(rule, parent)
    if not isinstance(parent, cst.Arg):
        return False
    call = rule.get_metadata(ParentProvider, parent, None)
    if not isinstance(call, cst.Call):
        return False
    func = call.func
    if isinstance(func, cst.Name):
        return func.value in ("str", "repr", "print", "format")
    return isinstance(func, cst.Attribute) and func.attr.value == "format" and isinstance(
        func.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


def fold(rule: Rule, builtin: str, arguments) -> tuple[str, str]:
    """`max(a, b, ...)` as `jax.numpy`, folded from the left like Python, with Python's NaN behaviour: `max(a, b)`
    is `b if b > a else a`, so a NaN `a` wins and a NaN `b` loses, where `jnp.maximum` always gives NaN. Exact
    forms: `jnp.maximum(a, 2.0)` (a constant after: a NaN `a` wins both ways), `jnp.fmax(b, 0.0)` for
    `max(0.0, b)` (a constant first: a NaN `b` loses both ways), `jnp.where(b > a, b, a)` for two cheap, pure
    values (under `jit` XLA computes a repeated `a.min()` once). Otherwise the `jnp.maximum` form and a note that it differs on NaN (the fix is then unsafe)."""
    ufunc, nan_free = ("maximum", "fmax") if builtin == "max" else ("minimum", "fmin")
    better = ">" if builtin == "max" else "<"
    flow = function_flow(rule, rule.current_function)
    local = frozenset(flow.params) | flow.writes(list(rule.current_function.body.body))
    values = [a.value for a in arguments]
    text, note = rule.code(values[0]).strip(), ""
    first_constant = _constant(values[0])
    for index, value in enumerate(values[1:]):
        arg = rule.code(value).strip()
        if _constant(value):
            text = f"{rule.jnp}.{ufunc}({text}, {arg})"
        elif index == 0 and first_constant:
            text = f"{rule.jnp}.{nan_free}({arg}, {text})"
        elif index == 0 and cheap_and_pure(values[0], local) and cheap_and_pure(value, local):
            text = f"{rule.jnp}.where({arg} {better} {text}, {arg}, {text})"
        else:
            text = f"{rule.jnp}.{ufunc}({text}, {arg})"
            note = (f"but `jnp.{ufunc}` gives NaN when any argument is NaN, where Python's `{builtin}` keeps the "
                    "earlier argument unless a later one compares " + ("greater" if builtin == "max" else "less"))
    return text, note


def _constant(node: cst.BaseExpression) -> bool:
    """A number literal (never NaN): `0.0`, `-1`, `1e-8`."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float))
