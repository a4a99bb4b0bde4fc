"""The fixes of JX201 (traced-if): what replaces an `if`/`elif`/`else` on a traced value that assigns variables.

- `where_fix(rule, ...)`: branches of plain `name = value` lines become one `v = jnp.where(pred, a, b)` (for an
  `elif` chain `jnp.select`) per output, each branch's value read from its lines (`y += d` as `y + d`; a branch that
  does not assign `v` gives its prior value). It reports the finding, or declines (then the rule tries `lax.cond`),
  and says why `jnp.where` was not safe when its broadcasting was the reason;
- `cond_replacement(rule, ...)`: the `lax.cond` (or, for an `elif` chain, `lax.switch`) form, with branch functions
  over the operands, built when the fix is applied.

The text of the calls and branch functions comes from `codemods._branch_emit`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from codemods import _branch_emit as emit
from codemods._branch_structure import Chain
from codemods._branch_values import broadcast_risk, kind_conflict
from codemods._where_safety import cheap_and_pure
from jaxfix import walk
from jaxfix.analysis.positions import PositionProvider
from jaxfix.analysis.shapes import function_shapes
from jaxfix.rule import Deferred

if TYPE_CHECKING:
    from jaxfix.rule import Rule


def where_fix(rule: Rule, node: cst.If, c: Chain, plain, outputs, local, test, why, unsafe) -> tuple[bool, Optional[str]]:
    """Whether `node` was reported here (with the `jnp.where`/`jnp.select` fix, or refused), and, when not, why
    `jnp.where` could broadcast where `lax.cond` raises (None for the other reasons to decline)."""
    if not all(cheap_and_pure(t, local) for t in c.tests):
        return False, None  # each `jnp.where` repeats the condition: a call in it would run several times
    for body in plain:
        for i, (target, expr, op) in enumerate(body):
            earlier = {t for t, _, _ in body[:i]}
            if walk.name_values(expr) & earlier or target in earlier:
                return False, None  # one assignment reads another of the same branch: not a plain selection
    selected = []  # (output, its value in each branch)
    for name in outputs:
        values = []
        for body in plain:
            value: cst.BaseExpression = cst.Name(name)
            for target, expr, op in body:
                if target == name:
                    value = expr if op is None else _binop(value, op, expr)
            values.append(value)
        if not all(cheap_and_pure(v, local) for v in values):
            return False, None
        conflict = kind_conflict(values)
        if conflict is not None:
            rule.report(node, f"`if` on traced value `{test}` cannot become `jnp.where`: {conflict}")
            return True, None
        risk = broadcast_risk(function_shapes(rule, rule.current_function), c.tests, values, node, name)
        if risk is not None:
            return False, risk  # lax.cond raises at trace time on a shape mismatch; jnp.where would broadcast
        selected.append((name, values))
    column = rule.get_metadata(PositionProvider, node).start.column

    def build():
        lines = [(name, emit.where_text(rule.jnp, c.tests, values, column, len(name) + 3)) for name, values in selected]
        if any(walk.name_values(cst.parse_expression(v)) & {n for n, _ in lines[:k]} for k, (_, v) in enumerate(lines)):
            text = f"{', '.join(n for n, _ in lines)} = {', '.join(v for _, v in lines)}\n"
        else:
            text = "".join(f"{n} = {v}\n" for n, v in lines)
        return rule.replace_statement(node, emit.with_comments(rule.statements(text), emit.kept_comments(node, True)))

    rule.report(
        node,
        f"`if` on traced value `{test}`{why}: Python cannot branch on a traced array under `jit`",
        replacement=Deferred(build),
        unsafe=unsafe,
        title="replace with `jnp.where`" if len(c.tests) == 1 else "replace with `jnp.select`",
        imports=("jnp",),
    )
    return True, None


def cond_replacement(rule: Rule, node: cst.If, function: cst.FunctionDef, c: Chain, ops, outputs, switch: bool):
    """`outputs = lax.cond(...)` after its two branch functions, or with `switch` the `lax.switch` lines after one
    branch function per body; the comments of the `if`/`elif`/`else` lines go above them."""
    taken = emit.taken_names(rule.context.module, function)
    result = ", ".join(outputs)
    if switch:
        defs, lines = emit.switch_parts(rule.lax, rule.jnp, c, ops, result, outputs[0], taken)
    else:
        defs, call = emit.cond_parts(rule.lax, node, c, [], ops, result, outputs[0], taken)
        lines = f"{result} = {call}\n"
    return emit.laid_out(rule, node, function, defs, rule.statements(lines), emit.kept_comments(node, False))


def _paren(expr: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation, cst.IfExp, cst.Comparison, cst.UnaryOperation)):
        return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return expr


def _binop(left: cst.BaseExpression, augmented: cst.BaseAugOp, right: cst.BaseExpression) -> cst.BaseExpression:
    """`y += d` read as the value `y + d`."""
    operator = getattr(cst, type(augmented).__name__[: -len("Assign")])()
    return cst.BinaryOperation(left, operator, _paren(right))
