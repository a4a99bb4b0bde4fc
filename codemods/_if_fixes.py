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
from codemods._branch_values import bool_mix, broadcast_risk, kind_conflict, module_object, with_locals
from codemods._where_safety import cheap_and_pure
from jaxfix import walk
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.masks import function_facts
from jaxfix.analysis.positions import PositionProvider
from jaxfix.analysis.shapes import function_shapes
from jaxfix.analysis.value_dtypes import FLOAT, INT, dtype_of, keeps
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
        update = _one_update(rule, name, values)  # `out = out.at[j].set(a)` / `.set(b)`: select what is set
        if update is not None:
            index, method, values = update
            if not cheap_and_pure(index, local):
                return False, None
        if not all(cheap_and_pure(v, local) for v in values):
            return False, None
        conflict = kind_conflict(values)
        if conflict is None:
            conflict = module_object(values, rule.context.module, local, rule.current_function)
        flag = bool_mix(with_locals(function_flow(rule, rule.current_function), node, values),
                        function_facts(rule, rule.current_function)) if conflict is None else None
        if flag is not None:  # `out = False`, then `if c: out = 3`: `jnp.where` would give `0` for `False`
            conflict = (f"a branch gives `{name}` the bool `{flag[0]}` and another the number `{flag[1]}`: `jnp.where` "
                        "would make the bool a number (`lax.cond` rejects branches of different dtypes)")
        if conflict is not None:
            rule.report(node, f"`if` on traced value `{test}` cannot become `jnp.where`: {conflict}")
            return True, None
        # (values set into one slot: each is broadcast to the slot's shape, by NumPy as by `.set`, and so is the
        # selection of them)
        risk = broadcast_risk(function_shapes(rule, rule.current_function), c.tests, values, node, name) \
            if update is None else None
        if risk is not None:
            return False, risk  # lax.cond raises at trace time on a shape mismatch; jnp.where would broadcast
        selected.append((name, values, None if update is None else f"{rule.code(update[0])}.{update[1]}("))
    column = rule.get_metadata(PositionProvider, node).start.column

    def build():
        lines = [(name, emit.selection_text(rule.jnp, c.tests, values, column, len(name) + 3)
                  if head is None else
                  f"{head}{emit.where_text(rule.jnp, c.tests, values, column, len(name) + 3 + len(head))})")
                 for name, values, head in selected]
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


# an update method of `.at[...]` -> what a branch that does not update gives it (`None`: the slot's own value; for
# `add`, the identity of the array's kind: -0.0 for floats, whose -0.0 + 0 would be +0.0)
_UNCHANGED = {"set": None, "add": "", "subtract": "0", "multiply": "1", "divide": "1"}


def _one_update(
    rule: Rule, name: str, values: list[cst.BaseExpression]
) -> Optional[tuple[cst.Subscript, str, list[cst.BaseExpression]]]:
    """When every branch gives `name` the same update of one slot (`out.at[j].set(a)`, `out.at[j].set(b)`, or
    leaves it as it is): (`out.at[j]`, `set`, the values each branch puts there: `a`, `b`, `out[j]` for a branch
    that does not assign it; 0 or 1 for `add`, `multiply`, ...). `jnp.where` then selects the value, not the
    whole updated array (`out = out.at[j].set(jnp.where(c, a, b))`, what a JAX programmer writes); else None."""
    updates: list[Optional[tuple[cst.Subscript, str, cst.BaseExpression]]] = []
    for value in values:
        if isinstance(value, cst.Name) and value.value == name:
            updates.append(None)
            continue
        func = value.func if isinstance(value, cst.Call) else None
        slot = func.value if isinstance(func, cst.Attribute) else None
        at = slot.value if isinstance(slot, cst.Subscript) else None
        if not (isinstance(at, cst.Attribute) and at.attr.value == "at" and isinstance(at.value, cst.Name)
                and at.value.value == name and len(value.args) == 1  # type: ignore[union-attr]
                and value.args[0].keyword is None and not value.args[0].star):  # type: ignore[union-attr]
            return None
        updates.append((slot, func.attr.value, value.args[0].value))  # type: ignore[union-attr, arg-type]
    present = [u for u in updates if u is not None]
    if not present or present[0][1] not in _UNCHANGED:
        return None
    slot, method = present[0][0], present[0][1]
    if any(u[1] != method or rule.code(u[0]) != rule.code(slot) for u in present):
        return None
    kept = _UNCHANGED[method]
    facts = function_facts(rule, rule.current_function)
    array = dtype_of(facts, cst.Name(name))
    if kept == "":  # `add`: the filler must leave every value as it is, -0.0 included
        kept = "-0.0" if array.exact and array.kind >= FLOAT else "0" if array.exact and array.kind <= INT else None
        if kept is None:
            return None
    same = cst.Subscript(cst.Name(name), slot.slice) if kept is None else cst.parse_expression(kept)
    selected = [u[2] if u is not None else same for u in updates]
    # `jnp.where` promotes its values together before `.set` casts them to the array's dtype: exact for an array of
    # floats or complex numbers (a slot left as it is comes back unchanged; a value set is cast as `.set` casts it),
    # else only when no value widens the array's dtype (a float set into an int64 array would round the others)
    if not (array.exact and array.kind >= FLOAT) and not all(keeps(array, dtype_of(facts, v)) for v in selected):
        return None
    return slot, method, selected


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
