from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.parents import ParentProvider, enclosing_statement
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, tracedness
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

MUTATING_METHODS = {
    "append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault", "add", "discard",
    "sort", "reverse", "fill", "resize", "put", "itemset",
}
WHY = (
    "under `jit` the function body runs once, while tracing, so the write happens once and later calls skip it"
)


def _base_name(node: cst.BaseExpression) -> Optional[cst.Name]:
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return node if isinstance(node, cst.Name) else None


class GlobalWrite(Rule):
    """
    ## What it does
    Reports functions that write module-level state: an assignment to a name declared `global`, or a mutation of
    a module-level object (`CACHE[k] = v`, `HISTORY.append(x)`, `STATE.count += 1`, `del TABLE[k]`).

    ## Why is this bad?
    `jax.jit` requires pure functions. The Python body runs once, while tracing: the write happens on the first
    call only (and again whenever the function is retraced), not on every call. When the stored value is traced,
    the global keeps a tracer that escapes its trace, and a later use raises `UnexpectedTracerError`.

    ## Example
    ```python
    import numpy as np

    history = []

    def step(x):
        y = np.tanh(x)
        history.append(y)
        return y
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def step(x):
        y = jnp.tanh(x)
        return y  # the caller keeps the history: history.append(step(x))
    ```

    ## Fix safety
    No fix: making the function pure means returning the state and changing every caller, a design decision.

    ## Known problems
    Only direct writes in the function are seen, not those made by functions it calls. A module-level name that is
    only read (a constant table) is fine and not reported.
    """

    CODE = "JX504"
    SUMMARY = "function writes module-level state; under jit the write runs only at trace time"
    FIX = FixAvailability.NONE
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, DataflowProvider, TracednessProvider, ParentProvider)
    TRIGGERS = (b"numpy", b"jax")  # array code only

    VALID = [
        Valid("TABLE = [1.0, 2.0]\ndef f(x):\n    return x * TABLE[0]\n"),
        Valid("CACHE = {}\ndef f(x):\n    cache = {}\n    cache['x'] = x\n    return x\n"),
        Valid("def f(x, out):\n    out.append(x)\n    return x\n"),
        Valid("items = []\ndef f(x):\n    items = [x]\n    items.append(x)\n    return items\n"),
        Valid("import numpy as np\ndef f(x):\n    np.random.seed(0)\n    return x\n"),
    ]
    INVALID = [
        Invalid("calls = 0\n\ndef f(x):\n    global calls\n    calls += 1\n    return x * 2\n", lines=[4]),
        Invalid("history = []\n\ndef f(x):\n    y = x * 2\n    history.append(y)\n    return y\n", lines=[5]),
        Invalid("STATE = {}\n\ndef f(x):\n    STATE['last'] = x\n    return x\n", lines=[4]),
    ]

    def visit_Module(self, node: cst.Module) -> None:
        self._module_names: set[str] = set()
        for stmt in node.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    targets = []
                    if isinstance(small, cst.Assign):
                        targets = [t.target for t in small.targets]
                    elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                        targets = [small.target]
                    self._module_names.update(t.value for t in targets if isinstance(t, cst.Name))

    def _declared_global(self, function: cst.FunctionDef) -> set[str]:
        found: set[str] = set()

        class Globals(cst.CSTVisitor):
            def visit_Global(self, node: cst.Global) -> None:
                found.update(n.name.value for n in node.names)

            def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                return node is function

        walk.visit(function, Globals())
        return found

    def _module_object(self, base: Optional[cst.Name]) -> bool:
        function = self.current_function
        if function is None or base is None or base.value not in self._module_names:
            return False
        params = function.params
        names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
        local = base.value in function_flow(self, function).writes(function.body)
        return base.value not in names and (not local or base.value in self._declared_global(function))

    def _mutation(self, node: cst.CSTNode, target: cst.BaseExpression, value: Optional[cst.BaseExpression]) -> None:
        if not isinstance(target, (cst.Subscript, cst.Attribute)):
            return
        base = _base_name(target)
        if not self._module_object(base):
            return
        leak = value is not None and tracedness(self, value) != Tracedness.STATIC
        extra = "; the stored value may be traced, so the module keeps a leaked tracer" if leak else ""
        self.report(enclosing_statement(self, node) or node, f"function mutates module-level `{base.value}`: {WHY}{extra}")

    def visit_Global(self, node: cst.Global) -> None:
        function = self.current_function
        if function is None:
            return
        written = function_flow(self, function).writes(function.body)
        names = [n.name.value for n in node.names if n.name.value in written]
        if names:
            listed = ", ".join(f"`{n}`" for n in names)
            self.report(enclosing_statement(self, node) or node, f"function assigns module global {listed}: {WHY}")

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._mutation(node, target.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._mutation(node, node.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._mutation(node, node.target, node.value)

    def visit_Del(self, node: cst.Del) -> None:
        self._mutation(node, node.target, None)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in MUTATING_METHODS and isinstance(func.value, cst.Name):
            value = node.args[-1].value if node.args else None
            self._mutation(node, func, value)
