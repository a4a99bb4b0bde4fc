from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst

from jaxfix import loopgen as gen
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.loops import loops_in_functions
from jaxfix.analysis.loops import target_names
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, tracedness
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class LoopExit(Rule):
    """
    ## What it does
    Removes `continue` and `break` decided by traced values from a loop body, so that the loop rules (JX220-JX222)
    and the branch rules (JX2xx) can convert it. `if c: continue` followed by the rest of the body becomes
    `if not c:` around the rest. `if c: ...; break` becomes a `done` flag: the flag starts `False` before the loop,
    is set instead of breaking, and guards the body (`if not done:` in a `for`, `while not done and cond:` in a
    `while`). An early `return v` in the body, when the loop is followed by `return w` and `w` does not depend on
    the loop, becomes `result = w` before the loop, `result = v` plus the flag inside it, and `return result`.
    The result is plain Python that behaves exactly like the original.

    ## Why is this bad?
    `lax.fori_loop`, `lax.scan` and `lax.while_loop` have no `break` or `continue`, and a traced condition cannot
    decide a Python jump under `jit` (`TracerBoolConversionError`).

    ## Example
    ```python
    def first_above(x, t):
        idx = -1
        for i in range(x.shape[0]):
            if x[i] > t:
                idx = i
                break
        return idx
    ```

    ## Use instead
    ```python
    def first_above(x, t):
        idx = -1
        done = False
        for i in range(x.shape[0]):
            if not done:
                if x[i] > t:
                    idx = i
                    done = True
        return idx
    ```

    ## Fix safety
    Safe: the rewrite is exact in Python. It is offered only where the jump is a top-level `if` of the loop body
    whose block ends with the `break`/`continue`, there is no `else` on that `if` or on the loop, and (for `break`
    in a `for`) the loop variable is not read after the loop (it would keep advancing). A `for` loop with a
    guarded body runs its full trip count; a `while` loop stops as soon as the flag is set.

    ## Known problems
    Any other `return` inside a loop body is reported by the loop rules, not rewritten (the carried result needs a
    value of the right type before the loop). Jumps nested deeper than a top-level `if` are left alone.
    """

    CODE = "JX223"
    SUMMARY = "`break`/`continue` on a traced condition inside a loop; guard the body instead"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, DataflowProvider, TracednessProvider)
    ORDER = 30
    may_apply_to_tree = staticmethod(loops_in_functions)

    VALID = [
        Valid("def f(x, n: int):\n    for i in range(10):\n        if i > n:\n            break\n        x = x + i\n    return x\n"),
        Valid("def f(x, n):\n    for i in range(n):\n        x = x + i\n    return x\n"),
    ]
    INVALID = [
        Invalid(
            "def f(x, n):\n    s = 0.0\n    for i in range(n):\n        if x[i] < 0:\n            continue\n        s = s + x[i]\n"
            "    return s\n",
            expected=(
                "def f(x, n):\n    s = 0.0\n    for i in range(n):\n        if not (x[i] < 0):\n            s = s + x[i]\n"
                "    return s\n"
            ),
            lines=[4],
        ),
        Invalid(
            "def f(x, t):\n    while x > 1:\n        x = x / 2\n        if x < t:\n            break\n        x = x - 1\n    return x\n",
            expected=(
                "def f(x, t):\n    done = False\n    while not done and x > 1:\n        x = x / 2\n        if x < t:\n"
                "            done = True\n        else:\n            x = x - 1\n    return x\n"
            ),
            lines=[4],
        ),
    ]

    def _visit_loop(self, node) -> None:
        fn = self.current_function
        if fn is None or node.orelse is not None:
            return
        body = list(node.body.body)
        jumps = [(k, s) for k, s in enumerate(body) if _jump(s) is not None]
        if not jumps or not any(tracedness(self, s.test) is not Tracedness.STATIC for _, s in jumps):
            return
        if _has_other_jumps(body, {s for _, s in jumps}):
            return
        breaks = [s for _, s in jumps if _jump(s) in ("break", "return")]
        flow = function_flow(self, fn)
        done = result = final = None
        if any(_jump(s) == "return" for _, s in jumps):
            final = self._final_return(fn, node, flow)
            if final is None:
                return  # reported by the loop rules (`return` inside the loop)
        if breaks:
            if target_names(node) & flow.live_out(node):
                self.report(jumps[0][1], "`break` on a traced condition: the loop variable is read after the loop, "
                            "so the loop cannot be guarded with a flag instead")
                return
            taken = flow.reads(list(fn.body.body)) | flow.writes(list(fn.body.body)) | set(flow.params)
            done = gen.fresh(self, fn, "done", taken)
            if final is not None:
                result = gen.fresh(self, fn, "result", taken)
        new_body = self._guarded(body, done, result)
        if done is not None and isinstance(node, cst.For):
            new_body = [cst.If(test=self.expr(f"not {done}"), body=cst.IndentedBlock(body=new_body))]
        changes = {"body": node.body.with_changes(body=new_body)}
        if done is not None and isinstance(node, cst.While):
            always = isinstance(node.test, cst.Name) and node.test.value == "True"
            changes["test"] = self.expr(f"not {done}" + ("" if always else f" and {_operand(self.code(node.test), node.test)}"))
        loop = node.with_changes(**changes)
        first = (f"{result} = {self.code(final.body[0].value)}\n" if final is not None else "") + f"{done} = False\n"
        new = [*self.statements(first), loop] if done is not None else [loop]
        if done is not None:
            new[-1] = new[-1].with_changes(leading_lines=[])
        kinds = " and ".join(sorted({_jump(s) for _, s in jumps}))
        changes = {node: self.replace_statement(node, new)}
        if final is not None:
            changes[final] = final.with_changes(body=[final.body[0].with_changes(value=cst.Name(result))])
        self.report(
            jumps[0][1],
            f"`{kinds}` on a traced condition inside a loop: `lax` loops cannot jump; guard the rest of the body",
            changes=changes,
            title="guard the body" + (f" with a `{done}` flag" if done else " instead of `continue`"),
        )

    def visit_For(self, node: cst.For) -> None:
        self._visit_loop(node)

    def visit_While(self, node: cst.While) -> None:
        self._visit_loop(node)

    def _final_return(self, fn, node, flow) -> Optional[cst.SimpleStatementLine]:
        """The `return expr` right after the loop when `expr` can be evaluated before it instead (the loop does not
        change what it reads, and it calls nothing); else None."""
        statements = list(fn.body.body)
        if node not in statements or statements.index(node) + 1 >= len(statements):
            return None
        after = statements[statements.index(node) + 1]
        if not (isinstance(after, cst.SimpleStatementLine) and len(after.body) == 1 and isinstance(after.body[0], cst.Return)):
            return None
        value = after.body[0].value
        changed = flow.writes(list(node.body.body)) | flow.mutates(list(node.body.body)) | target_names(node)
        if value is None or flow.reads(value) & changed or _calls(value):
            return None
        return after

    def _guarded(self, body: Sequence[cst.BaseStatement], done: Optional[str], result: Optional[str] = None) -> list[cst.BaseStatement]:
        for k, stmt in enumerate(body):
            kind = _jump(stmt)
            if kind is None:
                continue
            assert isinstance(stmt, cst.If)
            rest = self._guarded(body[k + 1:], done, result)
            block = list(stmt.body.body)  # type: ignore[union-attr]
            last = block[-1]
            assert isinstance(last, cst.SimpleStatementLine)
            before_jump = [*block[:-1]]
            if len(last.body) > 1:
                before_jump.append(last.with_changes(body=list(last.body[:-1])))
            if kind == "return":
                before_jump.extend(self.statements(f"{result} = {self.code(last.body[-1].value)}\n"))
            if kind in ("break", "return"):
                before_jump.extend(self.statements(f"{done} = True\n"))
            if not before_jump:
                test = self.expr(f"not {_operand(self.code(stmt.test), stmt.test, negated=True)}")
                return [*body[:k], stmt.with_changes(test=test, body=stmt.body.with_changes(body=rest))] if rest else list(body[:k])
            orelse = cst.Else(body=cst.IndentedBlock(body=rest)) if rest else None
            return [*body[:k], stmt.with_changes(body=stmt.body.with_changes(body=before_jump), orelse=orelse)]
        return list(body)


def _jump(stmt: cst.CSTNode) -> Optional[str]:
    """"break"/"continue" when `stmt` is an `if` (no else) whose block ends with that jump."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None or not isinstance(stmt.body, cst.IndentedBlock):
        return None
    last = stmt.body.body[-1]
    if isinstance(last, cst.SimpleStatementLine):
        if isinstance(last.body[-1], cst.Break):
            return "break"
        if isinstance(last.body[-1], cst.Continue):
            return "continue"
        if isinstance(last.body[-1], cst.Return) and last.body[-1].value is not None:
            return "return"
    return None


def _has_other_jumps(body: Sequence[cst.BaseStatement], handled: set) -> bool:
    """A `break`/`continue` of this loop other than those ending a handled top-level `if`."""
    found = []

    class Visitor(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.depth = 0

        def visit_For(self, node: cst.For) -> None:
            self.depth += 1

        def leave_For(self, original_node: cst.For) -> None:
            self.depth -= 1

        def visit_While(self, node: cst.While) -> None:
            self.depth += 1

        def leave_While(self, original_node: cst.While) -> None:
            self.depth -= 1

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Break(self, node: cst.Break) -> None:
            if not self.depth:
                found.append(node)

        def visit_Continue(self, node: cst.Continue) -> None:
            if not self.depth:
                found.append(node)

        def visit_Return(self, node: cst.Return) -> None:
            found.append(node)  # a return leaves every loop

    for stmt in body:
        stmt.visit(Visitor())
    return len(found) > len(handled)


def _calls(expr: cst.CSTNode) -> bool:
    found = []

    class Visitor(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found.append(node)

    expr.visit(Visitor())
    return bool(found)


def _operand(text: str, node: cst.BaseExpression, negated: bool = False) -> str:
    """`text` parenthesised if it binds more loosely than an `and` operand (or, negated, for readability)."""
    loose = (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr) + ((cst.Comparison,) if negated else ())
    if isinstance(node, loose) and not node.lpar:
        return f"({text})"
    return text
