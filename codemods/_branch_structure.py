"""Branch structure: what an `if`/`elif` chain looks like and what its branches do.

`chain` flattens an `if`/`elif`/`else` into its tests and bodies; `assignments` reads a body made only of plain
`name = value` lines and `definitely_written` the names bound on every path; `exits` finds what keeps a branch from
becoming `jnp.where`/`lax.cond` (returns, loop exits, nested traced `if`s, side effects, in-place updates),
`shared_update` an in-place update of an array that may be shared, and `effect_hint` what to do instead. Shared by
the traced-branch rules (JX201 traced-if, JX202 traced-return) and the rules that evaluate code eagerly. Facts about
variables (liveness, definitions, tracedness) come from the analysis providers; nothing here computes dataflow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.activity import analyse


@dataclass
class Chain:
    tests: list[cst.BaseExpression]
    bodies: list[list[cst.BaseStatement]]  # one per test, plus the else body when there is one

    @property
    def has_else(self) -> bool:
        return len(self.bodies) > len(self.tests)


def statements_of(block: cst.BaseSuite) -> list[cst.BaseStatement]:
    if isinstance(block, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine(body=block.body)]
    return list(block.body)


def chain(node: cst.If) -> Chain:
    tests, bodies = [], []
    current: cst.If = node
    while True:
        tests.append(current.test)
        bodies.append(statements_of(current.body))
        if isinstance(current.orelse, cst.If):
            current = current.orelse
            continue
        if isinstance(current.orelse, cst.Else):
            bodies.append(statements_of(current.orelse.body))
        return Chain(tests, bodies)


def smalls(stmts: Sequence[cst.CSTNode]) -> list[cst.BaseSmallStatement]:
    return [s for stmt in stmts if isinstance(stmt, cst.SimpleStatementLine) for s in stmt.body]


def ends_in_return(stmts: Sequence[cst.BaseStatement]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], cst.SimpleStatementLine) and isinstance(stmts[-1].body[-1], cst.Return)


class _Exits(cst.CSTVisitor):
    """Returns, break/continue leaving the branch, yields, nested `if`s, and the first side effect."""

    def __init__(self, is_traced: Callable[[cst.BaseExpression], bool]) -> None:
        super().__init__()
        self.is_traced = is_traced
        self.returns = 0
        self.loop_exit = False
        self.nested_traced_if = False
        self.effect: Optional[str] = None
        self.raises = False
        self._loops = 0

    def _effect(self, reason: str) -> None:
        self.effect = self.effect or reason

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_For(self, node: cst.For) -> None:
        self._loops += 1

    def leave_For(self, node: cst.For) -> None:
        self._loops -= 1

    visit_While = visit_For  # type: ignore[assignment]
    leave_While = leave_For  # type: ignore[assignment]

    def visit_If(self, node: cst.If) -> None:
        if self.is_traced(node.test):
            self.nested_traced_if = True

    def visit_Return(self, node: cst.Return) -> None:
        self.returns += 1

    def visit_Break(self, node: cst.Break) -> None:
        self.loop_exit = self.loop_exit or self._loops == 0

    visit_Continue = visit_Break  # type: ignore[assignment]

    def visit_Yield(self, node: cst.Yield) -> None:
        self.loop_exit = True

    def visit_Raise(self, node: cst.Raise) -> None:
        self.raises = True
        self._effect("raises an exception")

    def visit_Assert(self, node: cst.Assert) -> None:
        self.raises = True
        self._effect("asserts")

    def visit_Expr(self, node: cst.Expr) -> None:
        value = node.value
        if isinstance(value, cst.Call):
            self._effect(f"calls `{cst.Module([]).code_for_node(value.func)}(...)` for its side effect")
        elif isinstance(value, (cst.Await, cst.Yield)):
            self._effect("yields or awaits")

    def visit_Global(self, node: cst.Global) -> None:
        self._effect("rebinds a global")

    visit_Nonlocal = visit_Global  # type: ignore[assignment]

    def visit_Del(self, node: cst.Del) -> None:
        self._effect("deletes a name or an item")

    def visit_With(self, node: cst.With) -> None:
        self._effect("enters a `with` block (I/O or a context)")

    def visit_Try(self, node: cst.Try) -> None:
        self._effect("handles exceptions")


def exits(stmts: Sequence[cst.CSTNode], is_traced: Callable[[cst.BaseExpression], bool]) -> _Exits:
    visitor = _Exits(is_traced)
    for stmt in stmts:
        walk.visit(stmt, visitor)
    in_place = [s for s in smalls_deep(stmts) if isinstance(s, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and _mutating(s)]
    if in_place and visitor.effect is None:
        target = in_place[0].targets[0].target if isinstance(in_place[0], cst.Assign) else in_place[0].target
        visitor.effect = f"mutates `{cst.Module([]).code_for_node(target).strip()}` in place"
    return visitor


class _Smalls(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[cst.CSTNode] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.found.extend(node.body)


def smalls_deep(stmts: Sequence[cst.CSTNode]) -> list[cst.CSTNode]:
    """The small statements of `stmts`, nested blocks included, not those of nested functions."""
    visitor = _Smalls()
    for stmt in stmts:
        walk.visit(stmt, visitor)
    return visitor.found


def _mutating(small: cst.CSTNode) -> bool:
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]  # type: ignore[attr-defined]
    return any(_subscript_or_attribute(t) for t in targets)


def _subscript_or_attribute(target: cst.BaseExpression) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_subscript_or_attribute(e.value) for e in target.elements)
    if isinstance(target, cst.StarredElement):
        return _subscript_or_attribute(target.value)
    return isinstance(target, (cst.Subscript, cst.Attribute))


def definitely_written(stmts: Sequence[cst.BaseStatement]) -> set[str]:
    """Names bound on every path through `stmts` (simple statements, and `if`s that bind them in every branch)."""
    out: set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, cst.SimpleStatementLine):
            out |= analyse(stmt).writes
        elif isinstance(stmt, cst.If):
            c = chain(stmt)
            if c.has_else:
                out |= set.intersection(*(definitely_written(b) for b in c.bodies))
    return out


def assignments(stmts: Sequence[cst.BaseStatement]) -> Optional[list[tuple[str, cst.BaseExpression, Optional[cst.BaseBinaryOp]]]]:
    """(name, value, augmented operator) for a body of plain `name = value` / `name op= value` lines, else None."""
    if any(not isinstance(s, cst.SimpleStatementLine) for s in stmts):
        return None
    out = []
    for small in smalls(stmts):
        if isinstance(small, cst.Pass):
            continue
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            out.append((small.targets[0].target.value, small.value, None))
        elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
            out.append((small.target.value, small.value, None))
        elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
            out.append((small.target.value, small.value, small.operator))
        else:
            return None
    return out


VIEWS = {"asarray", "reshape", "ravel", "view", "transpose", "squeeze", "T", "swapaxes", "expand_dims", "broadcast_to",
         "atleast_1d", "atleast_2d", "atleast_3d", "real", "imag", "diagonal", "flat"}


def shared_update(flow, node: cst.CSTNode, stmts: Sequence[cst.CSTNode]) -> Optional[str]:
    """`y += v` in a branch where `y` may be a parameter or another name's array (a view or alias): NumPy updates
    that array too, which a rewrite into `jnp.where`/`lax.cond` would not. Returns the reason, or None."""
    for small in smalls_deep(stmts):
        if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
            name = small.target.value
            if _may_share(flow, node, name, set()):
                op = cst.Module([]).code_for_node(small.operator).strip()
                return f"updates `{name}` in place (`{name} {op} ...`), and `{name}` may be a parameter or share its array with another name"
    return None


def _may_share(flow, stmt: cst.CSTNode, name: str, seen: set) -> bool:
    """Whether some definition of `name` reaching `stmt` may be a parameter's or another name's array; chains of
    `name OP= ...` are followed back (a loop's back edge is visited once)."""
    for definition in flow.reaching(stmt, name):
        owner = definition.node
        if definition.is_parameter:
            return True
        if owner in seen:
            continue
        seen.add(owner)
        if isinstance(owner, cst.AugAssign):
            if _may_share(flow, owner, name, seen):
                return True
        elif isinstance(owner, (cst.Assign, cst.AnnAssign)):
            if not _fresh(owner.value):
                return True
        else:
            return True  # a loop target, a `with` target, ...
    return False


def _fresh(value: Optional[cst.BaseExpression]) -> bool:
    if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation, cst.Integer, cst.Float, cst.Comparison)):
        return True
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
        return value.func.attr.value not in VIEWS
    return False


def effect_hint(found: _Exits) -> str:
    if found.raises:
        return "; to check a traced condition use `jax.experimental.checkify` (`checkify.check(pred, msg)`)"
    if found.effect and found.effect.startswith("calls `print"):
        return "; under `jit` print with `jax.debug.print`, outside the branch"
    return "; move it out of the branch, or keep this function out of `jit`"
