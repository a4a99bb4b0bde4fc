"""`isinstance(x, np.ndarray)` becomes `isinstance(x, (np.ndarray, jax.Array))`, for JX501 (numpy-namespace).

After the migration `x` is a JAX array (under `jit`, a tracer), so a test for a NumPy array would turn False where
it was True; accepting both keeps its answer. Not where the code the test guards writes into the array
(`np.divide(a, b, out=a)`, `a[i] = v`, `a += v`), which it could not do to a JAX array: there JAX arrays take the
other path, as before. `IsinstanceWidening` (one per rule instance, so per pass) notes those tests at each `if`
(`note_if`) and widens the others (`widen`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.numpy_names import numpy_name

if TYPE_CHECKING:
    from jaxfix.rule import Rule


class IsinstanceWidening:
    """The `isinstance(..., np.ndarray)` tests of one module, widened to accept JAX arrays, for one pass of `rule`."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.no_widen: set[cst.Call] = set()

    def note_if(self, node: cst.If) -> None:
        """`if isinstance(a, np.ndarray): np.divide(a, b, out=a)`: the guarded code writes into the array, which it
        could not do to a JAX array; the test is not widened there (JAX arrays take the other path, as before)."""
        tests = [c for c in walk.nodes_of(node.test, cst.Call) if isinstance(c.func, cst.Name) and c.func.value == "isinstance"]  # type: ignore[attr-defined]
        if not tests:
            return
        writes = any(
            isinstance(n, (cst.AugAssign,)) or isinstance(n, cst.Assign) and any(isinstance(t.target, cst.Subscript) for t in n.targets)
            or isinstance(n, cst.Call) and any(a.keyword is not None and a.keyword.value == "out" for a in n.args)
            for n in walk.nodes(node.body)
        )
        if writes:
            self.no_widen.update(tests)  # type: ignore[arg-type]

    def widen(self, node: cst.Call) -> None:
        """`isinstance(x, np.ndarray)`: after the migration `x` is a JAX array, so the test would be False where it
        was True; `(np.ndarray, jax.Array)` keeps its answer for both."""
        rule = self.rule
        if not (isinstance(node.func, cst.Name) and node.func.value == "isinstance" and len(node.args) == 2):
            return
        if node in self.no_widen:
            return
        kinds = node.args[1].value
        elements = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
        if not any(isinstance(e, cst.Attribute) and numpy_name(rule, e) == "numpy.ndarray" for e in elements):
            return
        if any(rule.code(e) in (f"{rule.jax}.Array", "jax.Array") for e in elements):
            return
        inner = ", ".join(rule.code(e) for e in elements)
        text = f"({inner}, {rule.jax}.Array)"
        rule.report(
            kinds,
            f"`{rule.code(node)}` tests for a NumPy array, but after the migration the value is a JAX array (under `jit`"
            f", a tracer): the test would turn False; accept both",
            replacement=rule.expr(text),
            title=f"replace with `{text}`",
            imports=("jax",),
        )
