"""Builders for the traced-branch rewrites: nested `jnp.where` with gradient guards, and `lax.cond` with small
nested branch functions. Shared by JX201 (traced-if) and JX202 (traced-return)."""

from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst

from codemods._branches import Chain, guarded
from jaxfix.analysis.dataflow import FunctionFlow
from jaxfix.analysis.tracedness import FunctionTracedness, Tracedness

_code = cst.Module([]).code_for_node


def where_text(
    jnp: str, tests: Sequence[cst.BaseExpression], values: Sequence[cst.BaseExpression], column: int = 0, prefix: int = 0
) -> str:
    """`jnp.where(c0, v0, jnp.where(c1, v1, v2))`; inside branch k, inputs of log/sqrt/division/... are replaced
    where branch k is not taken (the "double where"), so the unselected side has a finite value and derivative.
    A call that would pass column 100 (it starts at `column` + `prefix`) is split, one argument per line (LibCST
    re-indents the continuation lines to the statement's block)."""
    conds = [_code(t).strip() for t in tests]
    m = len(conds)

    def wrapper(k: int):
        def wrap(u: cst.BaseExpression, safe: str) -> cst.BaseExpression:
            inner = f"{jnp}.where({conds[k]}, {_code(u)}, {safe})" if k < m else _code(u)
            for j in reversed(range(k)):
                inner = f"{jnp}.where({conds[j]}, {safe}, {inner})"
            return cst.parse_expression(inner)

        return wrap

    sides = [_code(guarded(values[k], wrapper(k))) for k in range(m + 1)]

    def render(k: int, at: str, before: int) -> str:
        if k == m:
            return sides[m]
        flat = f"{jnp}.where({conds[k]}, {sides[k]}, {render(k + 1, at, 0)})"
        if column + len(at) + before + len(flat) <= LINE:
            return flat
        inner = at + "    "
        args = [conds[k], sides[k], render(k + 1, inner, 0)]
        return f"{jnp}.where(\n" + "".join(f"{inner}{a},\n" for a in args) + f"{at})"

    return render(0, "", prefix)


LINE = 100


def fresh(base: str, taken: set[str]) -> str:
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def operands(
    node: cst.CSTNode,
    bodies: Sequence[Sequence[cst.CSTNode]],
    extra: Sequence[str],
    flow: FunctionFlow,
    traced: FunctionTracedness,
) -> list[str]:
    """The traced local variables the branches read (and `extra`, e.g. outputs that keep their prior value), in
    order of first appearance; static values and names unbound before `node` are closed over, not passed."""
    local = set(flow.params) | set(flow.writes(list(flow.function.body.body)))
    functions = {s.name.value for s in flow.function.body.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
    order: list[str] = []
    for body in bodies:
        for name in flow.activity(list(body)).reads:
            if name.value not in order:
                order.append(name.value)
    out = []
    for name in [*order, *extra]:
        if name in out or name not in local or name in functions or flow.maybe_undefined(node, name):
            continue
        if name in extra or traced.name(name) is not Tracedness.STATIC:
            out.append(name)
    params = list(flow.params)
    return sorted(out, key=lambda n: (params.index(n) if n in params else len(params), out.index(n)))


def branch_function(name: str, params: Sequence[str], body: Sequence[cst.BaseStatement], result: Optional[str]) -> cst.FunctionDef:
    statements = list(body)
    if result is not None:
        statements.append(cst.SimpleStatementLine([cst.Return(cst.parse_expression(result))]))
    return cst.FunctionDef(
        name=cst.Name(name),
        params=cst.Parameters(params=[cst.Param(cst.Name(p)) for p in params]),
        body=cst.IndentedBlock(body=statements),
    )


def cond_parts(
    lax: str,
    chain_node: cst.If,
    c: Chain,
    after: Sequence[cst.BaseStatement],
    ops: Sequence[str],
    result: Optional[str],
    base: str,
    taken: set[str],
) -> tuple[list[cst.FunctionDef], str]:
    """Two branch functions and the `lax.cond(...)` call text. The false function runs the chain's `else` body, or
    its `elif`s as an `if` (rewritten on the next pass), followed by `after` (the code after an early return)."""
    true_name, false_name = fresh(f"{base}_if_true", taken), fresh(f"{base}_if_false", taken)
    if len(c.tests) > 1:
        rest = chain_node.orelse
        assert isinstance(rest, cst.If)
        false_body: list[cst.BaseStatement] = [rest.with_changes(leading_lines=()), *after]
    else:
        false_body = [*(c.bodies[1] if c.has_else else []), *after]
    defs = [
        branch_function(true_name, ops, c.bodies[0], result),
        branch_function(false_name, ops, false_body, result),
    ]
    args = ", ".join([_code(c.tests[0]).strip(), true_name, false_name, *ops])
    return defs, f"{lax}.cond({args})"


def kept_comments(node: cst.If, bodies: bool) -> list[cst.EmptyLine]:
    """The comments of the `if`/`elif`/`else` lines (and, with `bodies`, of the branch statements), as lines to put
    above the rewrite, so that nothing the author wrote is lost."""
    lines: list[cst.EmptyLine] = []
    current: cst.CSTNode = node
    while isinstance(current, (cst.If, cst.Else)):
        block = current.body
        if isinstance(block, cst.IndentedBlock) and block.header.comment is not None:
            lines.append(cst.EmptyLine(comment=block.header.comment))
        if bodies and isinstance(block, cst.IndentedBlock):
            for stmt in block.body:
                lines.extend(line for line in stmt.leading_lines if line.comment is not None)
                trailing = getattr(stmt, "trailing_whitespace", None)
                if trailing is not None and trailing.comment is not None:
                    lines.append(cst.EmptyLine(comment=trailing.comment))
        current = current.orelse if isinstance(current, cst.If) else None  # type: ignore[assignment]
    return [line.with_changes(indent=True, whitespace=cst.SimpleWhitespace("")) for line in lines]


def with_comments(statements: list, comments: list[cst.EmptyLine]) -> list:
    if not comments or not statements:
        return statements
    first = statements[0]
    return [first.with_changes(leading_lines=[*comments, *first.leading_lines]), *statements[1:]]
