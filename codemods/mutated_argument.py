from __future__ import annotations

from typing import Iterable, Optional

import libcst as cst

from codemods import _inplace
from codemods._inplace import Target
from jaxfix import walk
from jaxfix.analysis.aliases import AliasProvider
from jaxfix.analysis.dataflow import DataflowProvider
from jaxfix.analysis.numpy_names import NumpyNameProvider, numpy_name
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class MutatedArgument(Rule):
    """
    ## What it does
    Finds functions that update an array argument in place (`x[i] = v`, `x += v`, `x.fill(v)`, `np.add.at(x, ...)`,
    `out=x`) and return nothing, and proposes returning the updated array: `return x` at the end and at every bare
    `return` (`return x, y` for several). It reports at the `def` line and at each update.

    ## Why is this bad?
    The NumPy function communicates through its argument: the caller sees the change. JAX arrays are immutable, so
    the functional rewrite of the update (JX101-JX103) only rebinds a local name, and the caller sees nothing unless
    the function returns the new array.

    ## Example
    ```python
    def clip_rows(x, limit):
        x[x > limit] = limit
    ```

    ## Use instead
    ```python
    def clip_rows(x, limit):
        x = jnp.where(x > limit, limit, x)
        return x
    ```

    ## Fix safety
    Unsafe: callers that relied on the mutation must now use the result (`x = clip_rows(x, limit)`), which jaxfix
    does not change. Apply it with `--unsafe-fixes` together with the unsafe update rewrites of JX101-JX103. No fix is
    offered when the argument is updated through a view or alias (`row = x[0]; row[:] = 0`).

    ## Known problems
    Callers are not rewritten. A function that already returns a value is left alone (its updates are reported by
    JX101-JX103). Whether an argument is an array is inferred from how it is used.
    """

    CODE = "JX104"
    SUMMARY = "function updates an array argument in place and returns nothing; return the updated array"
    FIX = FixAvailability.SOMETIMES
    may_apply_to_tree = staticmethod(_inplace.updates_in_functions)
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, NumpyNameProvider, AliasProvider, DataflowProvider)
    ORDER = 60

    VALID = [
        Valid("def f(x):\n    y = x.copy()\n    y[0] = 1.0\n    return y\n"),
        # a conversion of the argument, with a method after it, is a rebinding, not an update (`n` in `int` is no use)
        Valid("import jax.numpy as jnp\nimport numpy as np\n\nclass W:\n    def __init__(self, n):\n"
              "        n = jnp.asarray(n).astype(int)\n        self.n = n\n        self.m = np.unique(n)\n"),
        Valid("def f(x):\n    x[0] = 1.0\n    return x\n"),
        Valid("def f(d, k):\n    d[k] = 1\n"),
        Valid("def f(x):\n    print(x.shape)\n"),
    ]
    INVALID = [
        Invalid(
            "def f(x, v):\n    if v > 0:\n        return\n    x[0] = v\n",
            expected="def f(x, v):\n    if v > 0:\n        return x\n    x[0] = v\n    return x\n",
            unsafe=True,
            lines=[1, 4],
        ),
        Invalid(  # `mask = jnp.asarray(mask)` converts the argument, it does not update it: only `x` is reported
            "import jax.numpy as jnp\n\ndef f(x, mask):\n    mask = jnp.asarray(mask)\n    x = x.at[mask].set(mask.sum())\n",
            expected="import jax.numpy as jnp\n\ndef f(x, mask):\n    mask = jnp.asarray(mask)\n    x = x.at[mask].set(mask.sum())\n    return x\n",
            unsafe=True,
            lines=[3, 5],
        ),
        Invalid(
            "def f(x):\n    row = x[0]\n    row[:] = 0.0\n",
            expected=None,
            lines=[1, 3],
        ),
    ]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        body = list(_own_statements(node.body))
        returns = [s for line in body for s in _smalls(line) if isinstance(s, cst.Return)]
        if any(r.value is not None for r in returns) or _has_yield(node):
            return
        facts = _inplace.facts(self)
        if facts is None:
            return
        mutated: dict[str, list[tuple[cst.CSTNode, str]]] = {}
        for line in body:
            for small in _smalls(line):
                for target, rebinding in self._updates(small):
                    parsed = self._name_target(target[0] if isinstance(target, tuple) else target)
                    if parsed is not None and isinstance(target, tuple):
                        parsed.elements = [e.slice for e in target[1].slice]
                    # `p op= v` in a function that returns nothing only makes sense as an in-place update
                    name_update = isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name)
                    if parsed is None or not (name_update or _inplace.has_array_evidence(self, parsed)):
                        continue
                    for kind, param in facts.objects(line, parsed.base_src):
                        if kind == "param" and (not rebinding or param == parsed.base_src):
                            mutated.setdefault(str(param), []).append((small, parsed.base_src))
        params = [p for p in facts.params if p in mutated]
        if not params:
            return
        shown = ", ".join(f"`{p}`" for p in params)
        indirect = sorted({via for p in params for _, via in mutated[p] if via != p})
        for p in params:
            for small, via in mutated[p]:
                self.report(small, f"argument `{p}` is updated in place here{f' (through `{via}`)' if via != p else ''}, "
                            f"and `{node.name.value}` returns nothing")
        message = (
            f"`{node.name.value}` updates its argument(s) {shown} in place and returns nothing: NumPy callers see the "
            "update, but JAX arrays are immutable, so the function must return the updated array (and callers use it)"
        )
        if indirect:
            self.report(
                node.name, message + f"; {', '.join(indirect)} is a view or alias, so jaxfix cannot rewrite it",
                blocks_function=True,
            )
            return
        value = ", ".join(params)
        changes: dict[cst.CSTNode, object] = {}
        for line in body:
            for small in _smalls(line):
                if isinstance(small, cst.Return) and small.value is None:
                    changes[small] = small.with_changes(value=self.expr(value), whitespace_after_return=cst.SimpleWhitespace(" "))
        last = node.body.body[-1] if isinstance(node.body, cst.IndentedBlock) else None
        if last is not None and not _ends_with_exit(last):
            ret = self.statements(f"return {value}\n")
            changes[last] = cst.FlattenSentinel([last, *ret])
        self.report(node.name, message, changes=changes, unsafe=True, title=f"return {value}", blocks_function=True)

    def _updates(self, small: cst.BaseSmallStatement) -> Iterable[tuple[object, bool]]:
        """(updated expression, or (root, subscript) for item assignment; whether it is an already-functional rebinding `x = x.at[...]...`)."""
        if isinstance(small, cst.Assign):
            for t in small.targets:
                for target in _flatten(t.target):
                    if isinstance(target, cst.Subscript):
                        yield (_subscript_root(target), target), False
                    elif isinstance(target, cst.Name) and _functional(self, small.value, target.value):
                        yield target, True
        elif isinstance(small, cst.AugAssign):
            target = small.target
            yield ((_subscript_root(target), target) if isinstance(target, cst.Subscript) else target), False
        elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            qualified = numpy_name(self, call.func)
            if qualified is None and isinstance(call.func, cst.Attribute) and call.func.attr.value in ("fill", "sort"):
                yield call.func.value, False
            elif qualified is not None:
                if (qualified.endswith(".at") or qualified == "numpy.copyto") and call.args:
                    yield call.args[0].value, False
                for arg in call.args:
                    if arg.keyword is not None and arg.keyword.value == "out":
                        value = arg.value
                        if isinstance(value, cst.Tuple) and len(value.elements) == 1:
                            value = value.elements[0].value
                        yield value, False

    def _name_target(self, expr: cst.BaseExpression) -> Optional[Target]:
        if not isinstance(expr, cst.Name):
            return None
        return Target(expr, expr.value, [], [])


def _functional(rule: Rule, value: cst.BaseExpression, name: str) -> bool:
    """`name = name.at[...].set(...)` or `name = jnp.f(..., name, ...)`: an update already rewritten by JX101-JX103."""
    root = value
    while isinstance(root, cst.Call) and isinstance(root.func, cst.Attribute) and isinstance(root.func.value, cst.Call):
        root = root.func.value  # `jnp.asarray(n).astype(int)`: the call a chain of methods starts from
    if isinstance(root, cst.Call) and rule.code(root.func) in (f"{rule.jnp}.asarray", f"{rule.jnp}.array") and root.args \
            and isinstance(root.args[0].value, cst.Name) and root.args[0].value.value == name:
        return False  # `mask = jnp.asarray(mask)`: a conversion, which no in-place rewrite gives (JX501's of np.asanyarray)
    code = rule.code(value)
    return code.startswith(f"{name}.at[") or code.startswith(f"{rule.jnp}.") and isinstance(value, cst.Call) \
        and any(n.value == name for arg in value.args for n in walk.nodes_of(arg.value, cst.Name))  # type: ignore[attr-defined]


def _flatten(target: cst.BaseExpression) -> Iterable[cst.BaseExpression]:
    if isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _flatten(element.value)
    else:
        yield target


def _subscript_root(target: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(target, cst.Subscript):
        target = target.value
    return target


def _smalls(line: cst.CSTNode) -> list[cst.BaseSmallStatement]:
    return list(line.body) if isinstance(line, cst.SimpleStatementLine) else []


def _own_statements(block: cst.CSTNode) -> Iterable[cst.CSTNode]:
    for child in walk.children(block):
        if isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(child, cst.SimpleStatementLine):
            yield child
        else:
            yield from _own_statements(child)


def _has_yield(node: cst.FunctionDef) -> bool:
    found = []

    class Finder(cst.CSTVisitor):
        def visit_Yield(self, n: cst.Yield) -> None:
            found.append(n)

        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return n is node

    walk.visit(node, Finder())
    return bool(found)


def _ends_with_exit(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[-1], (cst.Return, cst.Raise))
