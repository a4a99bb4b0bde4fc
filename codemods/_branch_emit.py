"""Builders for the traced-branch rewrites: `jnp.where` / `jnp.select` with gradient guards, and `lax.cond` with
small nested branch functions. Shared by JX201 (traced-if) and JX202 (traced-return)."""

from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst

from codemods._boolean_operands import boolean
from codemods._branch_structure import Chain
from codemods._where_safety import guarded
from jaxfix import loopgen, walk
from jaxfix.analysis.dataflow import FunctionFlow
from jaxfix.analysis.loop_values import item_attribute
from jaxfix.analysis.static_args import concrete_reads
from jaxfix.analysis.tracedness import FunctionTracedness, Tracedness

_code = cst.Module([]).code_for_node


def where_text(
    jnp: str, tests: Sequence[cst.BaseExpression], values: Sequence[cst.BaseExpression], column: int = 0, prefix: int = 0
) -> str:
    """`jnp.where(c0, v0, v1)`, or for an `elif` chain `jnp.select([c0, c1], [v0, v1], v2)` (the first true
    condition picks its value; the last value is the default). Inside value k, inputs of log/sqrt/division/... are
    replaced where value k is not picked (the "double where", in the same form: `jnp.where(c0, u, 1.0)`,
    `jnp.select([c0, c1], [1.0, u], 1.0)`), so the unpicked values have a finite value and derivative.
    A call that would pass column 100 (it starts at `column` + `prefix`) is split, one argument per line (LibCST
    re-indents the continuation lines to the statement's block)."""
    conds = [_code(t).strip() for t in tests]
    m = len(conds)

    def wrapper(k: int):
        def wrap(u: cst.BaseExpression, safe: str) -> cst.BaseExpression:
            n = min(k + 1, m)
            choices = [safe] * n
            if k < m:
                choices[k] = _code(u)
            return cst.parse_expression(choose(jnp, conds[:n], choices, safe if k < m else _code(u), None))

        return wrap

    sides = [_code(guarded(values[k], wrapper(k))) for k in range(m + 1)]
    return choose(jnp, conds, sides[:m], sides[m], column + prefix)


def selection_text(
    jnp: str, tests: Sequence[cst.BaseExpression], values: Sequence[cst.BaseExpression], column: int = 0, prefix: int = 0
) -> str:
    """What picks one of `values` by `tests` (`where_text`), as a JAX programmer writes it: the value itself when
    every branch gives the same one (`return True, w` / `return False, w`: `w`, which NumPy gives whichever branch
    runs, with its own type and shape, where `jnp.where(c, w, w)` would make an array of it broadcast against `c`),
    the condition for `True` / `False` (`_truth`), else `jnp.where` / `jnp.select`."""
    if all(v.deep_equals(values[0]) for v in values[1:]):
        return _code(values[0]).strip()
    return _truth(jnp, tests, values) or where_text(jnp, tests, values, column, prefix)


def _truth(jnp: str, tests: list[cst.BaseExpression], values: list[cst.BaseExpression]) -> Optional[str]:
    """`c` for `if c: v = True else: v = False` and `jnp.logical_not(c)` for the other way round, where `c` is an
    array of bools (`_boolean_operands.boolean`: a comparison, `jnp.any`, `and`/`or` of them, ...): what `jnp.where(c, True, False)` computes, as a JAX programmer writes it; else
    None."""
    literals = [v.value if isinstance(v, cst.Name) and v.value in ("True", "False") else None for v in values]
    if len(tests) != 1 or not boolean(tests[0]) or literals not in (["True", "False"], ["False", "True"]):
        return None
    test, negated = tests[0], literals[0] == "False"
    if negated and isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and not test.lpar \
            and boolean(test.expression):  # `if not c: v = False else: v = True`: `v = c`
        test, negated = test.expression, False
    text = _code(test).strip()
    return f"{jnp}.logical_not({text})" if negated else text


def choose(jnp: str, conds: Sequence[str], choices: Sequence[str], default: str, start: Optional[int] = 0) -> str:
    """`jnp.where(c, a, b)` for one condition, `jnp.select([c0, c1], [a, b], d)` for more; one argument a line when
    the call, starting at column `start`, would pass column 100 (never split when `start` is None)."""
    fn = "where" if len(conds) == 1 else "select"
    args: list = [conds[0], choices[0], default] if len(conds) == 1 else [list(conds), list(choices), default]
    flat = f"{jnp}.{fn}({', '.join(_flat(a) for a in args)})"
    if start is None or start + len(flat) <= LINE:
        return flat
    lines = []
    for arg in args:
        if isinstance(arg, list) and start + 4 + len(_flat(arg)) + 1 > LINE:
            lines.append("    [\n" + "".join(f"        {a},\n" for a in arg) + "    ],\n")  # one element a line
        else:
            lines.append(f"    {_flat(arg)},\n")
    return f"{jnp}.{fn}(\n" + "".join(lines) + ")"


def _flat(arg) -> str:
    return f"[{', '.join(arg)}]" if isinstance(arg, list) else arg


LINE = 100


def taken_names(module: cst.Module, function: cst.FunctionDef) -> set[str]:
    """The names a new local of `function` must not take: those of the top-level statement holding it (its own, and
    an enclosing function's, which it may read), and those used at module level outside the other functions (a
    global it might read); names inside the other top-level functions do not matter."""
    taken: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef) and stmt is not function and function not in walk.nodes_of(stmt, cst.FunctionDef):
            taken.add(stmt.name.value)
        else:
            taken |= walk.name_values(stmt)
    return taken


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
    module: Optional[cst.Module] = None,
) -> list[str]:
    """The traced local variables the branches read (and `extra`, e.g. outputs that keep their prior value), in
    order of first appearance; static values, values of unknown kind (an object's attribute, which may be an object:
    `problem = algorithm.problem`, and no JAX type), sequences of objects (`path[0].theta`), names a branch uses where JAX needs a concrete value (a shape,
    directly or through a function of `module`: `static_args.concrete_reads`) and names unbound before `node` are
    closed over, not passed. A
    name a branch both reads and assigns is passed whatever its kind: the assignment makes it a local of the branch
    function, where a read of the closed-over value raises `UnboundLocalError` (`x = x.at[k].set(1)` with `x =
    jnp.zeros(n)`, a constant array)."""
    local = set(flow.params) | set(flow.writes(list(flow.function.body.body)))
    functions = {s.name.value for s in flow.function.body.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
    order: list[str] = []
    assigned: set[str] = set()  # a name a branch assigns is local to its branch function: closing over it fails
    for body in bodies:
        activity = flow.activity(list(body))
        assigned |= activity.writes
        for name in activity.reads:
            if name.value not in order:
                order.append(name.value)
    out = []
    concrete = concrete_reads([s for body in bodies for s in body], module)
    for name in [*order, *extra]:
        if name in out or name not in local or name in functions or flow.maybe_undefined(node, name):
            continue
        if name in concrete and name not in extra and name not in assigned:
            continue  # `np.eye(npar)` in a branch, or in a function it calls: a traced operand raises there
        if name not in extra and name not in assigned and item_attribute(flow.function, name):
            continue  # `trypath[0].theta`: a sequence of objects, which no operand can be
        if name in extra or name in assigned or traced.name(name) is Tracedness.TRACED:
            out.append(name)
    params = list(flow.params)
    return sorted(out, key=lambda n: (params.index(n) if n in params else len(params), out.index(n)))


def branch_function(name: str, params: Sequence[str], body: Sequence[cst.BaseStatement], result: Optional[str]) -> cst.FunctionDef:
    statements = list(body)
    if statements:  # no blank line right under the `def` (code moved in from after an early return may open with one)
        first = statements[0]
        kept = list(first.leading_lines)
        while kept and kept[0].comment is None:
            kept.pop(0)
        statements[0] = first.with_changes(leading_lines=kept)
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


def switch_parts(
    lax: str, jnp: str, c: Chain, ops: Sequence[str], result: Optional[str], base: str, taken: set[str]
) -> tuple[list[cst.FunctionDef], str]:
    """For an `if`/`elif` chain: one branch function per body (the last runs the `else` body, or nothing) and the
    lines `index = jnp.select([c0, c1, ...], [0, 1, ...], n)` (the first true condition's branch, as the chain picks
    it; every condition is evaluated) and `result = lax.switch(index, [...], *ops)`."""
    bodies = c.bodies if c.has_else else [*c.bodies, []]
    names = [fresh(f"{base}_case_{k}", taken) for k in range(len(bodies))]
    defs = [branch_function(name, ops, body, result) for name, body in zip(names, bodies)]
    index = fresh("branch", taken)
    conds = [_code(t).strip() for t in c.tests]
    select = f"{jnp}.select([{', '.join(conds)}], [{', '.join(map(str, range(len(conds))))}], {len(conds)})"
    branches = f"[{', '.join(names)}]"
    call = f"{lax}.switch({', '.join([index, branches, *ops])})"
    return defs, f"{index} = {select}\n{result + ' = ' if result else ''}{call}\n"


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
                lines.extend(line_comments(stmt))
        current = current.orelse if isinstance(current, cst.If) else None  # type: ignore[assignment]
    return [line.with_changes(indent=True, whitespace=cst.SimpleWhitespace("")) for line in lines]


def line_comments(stmt: cst.BaseStatement) -> list[cst.EmptyLine]:
    """The comments above a statement and the one at the end of its (first) line, as comment lines."""
    lines = [line for line in stmt.leading_lines if line.comment is not None]
    trailing = getattr(stmt, "trailing_whitespace", None)
    if trailing is not None and trailing.comment is not None:
        lines.append(cst.EmptyLine(comment=trailing.comment))
    return [line.with_changes(indent=True, whitespace=cst.SimpleWhitespace("")) for line in lines]


def laid_out(rule, node: cst.If, function: cst.FunctionDef, defs: list, lines: list, comments: list[cst.EmptyLine]):
    """The replacement of `node`: its branch functions, then the `lines` that call them, spaced as the loop rewrites
    are (pycodestyle E306): a blank line above each nested `def` (above the first only where the `if` has none and
    does not open its block) and above the first line after them; the comments of the `if`/`elif`/`else` lines go
    above the first `def`."""
    spaced = [defs[0], *map(loopgen.blank_line_before, defs[1:]), loopgen.blank_line_before(lines[0]), *lines[1:]]
    return rule.replace_statement(loopgen.spaced(node, function), with_comments(spaced, comments))


def with_comments(statements: list, comments: list[cst.EmptyLine]) -> list:
    if not comments or not statements:
        return statements
    first = statements[0]
    return [first.with_changes(leading_lines=[*comments, *first.leading_lines]), *statements[1:]]
