"""Loop bodies without their jumps, for JX223 (loop-exit): what follows a jump goes under an `if`.

- `guarded(rule, body, done, result)`: in each top-level `if c: ...; <jump>`, a `break`/`return v` becomes
  `done = True` (after `result = v`), and the rest of the body goes under the `if`'s `else:` (under `if not (c):`
  when the `if` held only a `continue`);
- `deep(rule, stmts, done, result)`: a `break`/`return` under any depth of `if`s sets the flag where it was, and
  what follows each statement that may jump goes under `if not done:`;
- `negation(rule, test)`: the test of an `if` that holds where `test` does not (`v.any()` for `not v.any()`);
- `operand(text, node, negated)`: `text` as an operand of `and` (the flag joins a `while` loop's test) or `not`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Sequence

import libcst as cst

from codemods import _branch_emit as emit
from jaxfix.analysis.loops import ending_jump, own_jumps

if TYPE_CHECKING:
    from jaxfix.rule import Rule


def guarded(rule: Rule, body: Sequence[cst.BaseStatement], done: Optional[str], result: Optional[str] = None) -> list[cst.BaseStatement]:
    """`body` without its top-level jumps: a `break`/`return v` becomes `done = True` (after `result = v`), and what
    follows the jump's `if` goes under its `else:` (under `if not (c):` when the `if` held only a `continue`)."""
    for k, stmt in enumerate(body):
        kind = ending_jump(stmt)
        if kind is None:
            continue
        assert isinstance(stmt, cst.If)
        rest = guarded(rule, body[k + 1:], done, result)
        block = list(stmt.body.body)  # type: ignore[union-attr]
        last = block[-1]
        assert isinstance(last, cst.SimpleStatementLine)
        before_jump = [*block[:-1]]
        if len(last.body) > 1:
            before_jump.append(last.with_changes(body=list(last.body[:-1])))
        jump_comments = emit.line_comments(last) if len(last.body) == 1 else []  # the jump's own line goes
        if kind in ("break", "return"):
            lines = (f"{result} = {rule.code(last.body[-1].value)}\n" if kind == "return" else "") + f"{done} = True\n"
            added = rule.statements(lines)
            added[0] = added[0].with_changes(leading_lines=jump_comments)
            before_jump.extend(added)
        if not before_jump:
            test = negation(rule, stmt.test)
            if rest:  # the block starts at its first statement, without the blank lines that stood above it
                rest = [rest[0].with_changes(leading_lines=_without_leading_blanks(rest[0].leading_lines)), *rest[1:]]
            stmt = stmt.with_changes(leading_lines=[*stmt.leading_lines, *jump_comments])
            return [*body[:k], stmt.with_changes(test=test, body=stmt.body.with_changes(body=rest))] if rest else list(body[:k])
        orelse = cst.Else(body=cst.IndentedBlock(body=rest)) if rest else None
        return [*body[:k], stmt.with_changes(body=stmt.body.with_changes(body=before_jump), orelse=orelse)]
    return list(body)


def deep(rule: Rule, stmts: Sequence[cst.BaseStatement], done: str, result: Optional[str]) -> Optional[list[cst.BaseStatement]]:
    """`stmts` with each `break`/`return` of the loop (under any depth of `if`s) replaced by `done = True` (after
    `result = value`), and what follows a statement that may jump under `if not done:`; None when a jump sits
    somewhere else (a nested loop, `try`, `with`, a one-line `if`)."""
    out: list[cst.BaseStatement] = []
    for k, stmt in enumerate(stmts):
        if not own_jumps([stmt]):
            out.append(stmt)
            continue
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[-1], (cst.Break, cst.Return)):
            last = stmt.body[-1]
            text = (f"{result} = {rule.code(last.value)}\n" if isinstance(last, cst.Return) else "") + f"{done} = True\n"
            new = rule.statements(text)
            new[-1] = new[-1].with_changes(trailing_whitespace=stmt.trailing_whitespace)
            kept = [*stmt.body[:-2], stmt.body[-2].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)] if len(stmt.body) > 1 else []
            before = [stmt.with_changes(body=kept, trailing_whitespace=cst.TrailingWhitespace())] if kept else []
            new[0] = new[0].with_changes(leading_lines=[] if before else stmt.leading_lines)
            return [*out, *before, *new]  # what follows the jump in this block never runs
        new_if = _deep_if(rule, stmt, done, result) if isinstance(stmt, cst.If) else None
        rest = deep(rule, stmts[k + 1:], done, result)
        if new_if is None or rest is None:
            return None
        guard = [cst.If(test=rule.expr(f"not {done}"), body=cst.IndentedBlock(body=rest))] if rest else []
        return [*out, new_if, *guard]
    return out


def _deep_if(rule: Rule, node: cst.If, done: str, result: Optional[str]) -> Optional[cst.If]:
    blocks = [node.body] + ([node.orelse.body] if isinstance(node.orelse, cst.Else) else [])
    if any(not isinstance(b, cst.IndentedBlock) for b in blocks):
        return None
    body = deep(rule, list(node.body.body), done, result)
    orelse = node.orelse
    if isinstance(orelse, cst.If):
        orelse = _deep_if(rule, orelse, done, result)
    elif isinstance(orelse, cst.Else):
        inner = deep(rule, list(orelse.body.body), done, result)
        orelse = orelse.with_changes(body=orelse.body.with_changes(body=inner)) if inner is not None else None
    if body is None or node.orelse is not None and orelse is None:
        return None
    return node.with_changes(body=node.body.with_changes(body=body), orelse=orelse)


def _without_leading_blanks(lines: Sequence[cst.EmptyLine]) -> list[cst.EmptyLine]:
    lines = list(lines)
    while lines and lines[0].comment is None:
        lines.pop(0)
    return lines


# comparison operators and their inverses, which hold for every value: identity and membership by definition
# (`x not in y` is `not (x in y)`), `!=` as Python's data model defines it by default (the inverse of `==`, NaN
# included); not `<` and `>=` (both are False for NaN)
_INVERSES: dict[type, Callable[[], cst.BaseCompOp]] = {
    cst.Equal: cst.NotEqual, cst.NotEqual: cst.Equal, cst.Is: cst.IsNot, cst.IsNot: cst.Is, cst.In: cst.NotIn,
    cst.NotIn: cst.In}


def negation(rule: Rule, test: cst.BaseExpression) -> cst.BaseExpression:
    """The test of an `if` that holds where `test` does not: `v.any()` for `not v.any()` (an `if` reads only its truth:
    no `not not`, trimesh's repair), `len(q) != 0` for `len(q) == 0`, else `not (test)`."""
    def bare(node: cst.BaseExpression) -> cst.BaseExpression:  # (parentheses kept around a test of several lines)
        text = rule.code(node.with_changes(lpar=[], rpar=[]))
        return rule.expr(f"({text})" if "\n" in text or isinstance(node, cst.NamedExpr) else text)  # (`(w := v.sum())`)

    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) \
            and not isinstance(test.expression, (cst.Tuple, cst.GeneratorExp, cst.Yield)):
        return bare(test.expression)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
            and type(test.comparisons[0].operator) in _INVERSES:
        inverse = _INVERSES[type(test.comparisons[0].operator)]()
        return bare(test.with_changes(comparisons=[test.comparisons[0].with_changes(operator=inverse)]))
    return rule.expr(f"not {operand(rule.code(test), test, negated=True)}")


def operand(text: str, node: cst.BaseExpression, negated: bool = False) -> str:
    """`text` parenthesised if it binds more loosely than an `and` operand (or, negated, for readability)."""
    loose = (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr) + ((cst.Comparison,) if negated else ())
    if isinstance(node, loose) and not node.lpar:
        return f"({text})"
    return text
