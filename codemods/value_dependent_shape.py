from __future__ import annotations

from typing import Optional

import libcst as cst

from codemods._masked import consumer, named_consumers
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.hashed import elements_hashed
from jaxfix.analysis.masks import Kind, MaskProvider, function_facts, mask_index
from jaxfix.analysis.parents import ParentProvider, enclosing_statement
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

SIZED = {"nonzero", "argwhere", "flatnonzero", "unique", "where"}
PADDING = {
    "nonzero": "pads the index arrays with 0 (`fill_value=`), so padded entries point at element 0",
    "where": "pads the index arrays with 0 (`fill_value=`), so padded entries point at element 0",
    "argwhere": "pads the rows with 0 (`fill_value=`), so padded entries point at element 0",
    "flatnonzero": "pads with index 0 (`fill_value=`), so padded entries point at element 0",
    "unique": "pads with the smallest value (`fill_value=`), repeating it",
}
ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript)


class ValueDependentShape(Rule):
    """
    ## What it does
    Reports operations whose result shape depends on the values of their input: `np.nonzero`, one-argument
    `np.where`, `np.argwhere`, `np.flatnonzero`, `np.unique`, and a boolean-masked read `x[m]` used as a value
    (not reduced, counted or assigned through). For the functions it offers, as an unsafe fix, the `size=` form with
    the largest possible size (`size=m.size`), and says what the padding is.

    ## Why is this bad?
    Under `jit` every shape must be known when tracing; these raise `ConcretizationTypeError` or
    `NonConcreteBooleanIndexError`.

    ## Example
    ```python
    def active(m):
        return np.nonzero(m)[0]
    ```

    ## Use instead
    ```python
    def active(m):
        return jnp.nonzero(m, size=m.size)[0]  # padded with 0 after the true entries
    ```

    ## Fix safety
    Unsafe: the `size=` result always has `size` entries, the true ones followed by padding, so its shape and
    values differ from NumPy's; code using it must ignore the padding (`jnp.arange(m.size) < jnp.count_nonzero(m)`).
    A masked read used as a value has no fix: keep the full shape (`jnp.where(m, x, 0)`, `where=` in reductions).
    Nor has a call whose elements become set members or dict keys (`for v in np.unique(y): counts[v] = ...`,
    `jaxfix.analysis.hashed`): that needs concrete values, so the code stays outside `jit` (and NumPy: JX501).

    ## Known problems
    A bound smaller than the input size is often known to the author (at most `k` classes) but not to jaxfix.
    """

    CODE = "JX303"
    SUMMARY = "value-dependent output shape; fails under jit"
    FIX = FixAvailability.UNSAFE
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, MaskProvider, DataflowProvider, ParentProvider)
    ORDER = 40
    TRIGGERS = (b"numpy", b"jax")

    VALID = [
        Valid("import numpy as np\ndef f(m):\n    return np.where(m, 1.0, 0.0)\n"),
        Valid("import jax.numpy as jnp\ndef f(m):\n    return jnp.nonzero(m, size=4)\n"),
        Valid("import numpy as np\ndef f(x):\n    return x[x > 0].sum()\n"),
        Valid("import numpy as np\nIDX = np.nonzero(np.arange(3))\n"),
    ]
    INVALID = [
        Invalid(  # a display has no `.size`, and `jnp.unique` rejects a list: its length bounds it
            "import numpy as np\n\ndef f(a, b):\n    return np.unique([a, b, 1.0])\n",
            expected="import jax.numpy as jnp\n\ndef f(a, b):\n    return jnp.unique(jnp.asarray([a, b, 1.0]), size=3)\n",
            unsafe=True,
        ),
        Invalid(
            "import numpy as np\n\ndef f(m):\n    idx = np.flatnonzero(m)\n    return idx\n",
            expected="import jax.numpy as jnp\n\ndef f(m):\n    idx = jnp.flatnonzero(m, size=m.size)\n    return idx\n",
            unsafe=True,
            lines=[4],
        ),
        Invalid(
            "import numpy as np\n\ndef f(x):\n    big = x[\n        x > 1\n    ]\n    return big * 2\n",
            lines=[4],
        ),
        Invalid(  # the items become dict keys: JAX arrays' are unhashable, and a padded `size=` form would not help
            "import numpy as np\n\ndef f(y):\n    counts = {}\n    for v in np.unique(y):\n        counts[v] = 0\n    return counts\n",
            lines=[5],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        fn = self.current_function
        if fn is None:
            return
        facts = function_facts(self, fn)
        name = facts.array_function(node.func)
        operand: Optional[cst.BaseExpression] = None
        if name in SIZED:
            positional = [a for a in node.args if a.keyword is None and not a.star]
            if len(positional) != len(node.args) or not positional or (name == "where" and len(positional) != 1):
                return  # `size=` given already, or the three-argument `where`
            operand = positional[0].value
        elif name is None and isinstance(node.func, cst.Attribute) and node.func.attr.value == "nonzero" and not node.args:
            name, operand = "nonzero", node.func.value
        if operand is None or name is None:
            return
        stmt = enclosing_statement(self, node)
        source = self.code(operand)
        if elements_hashed(self, node):
            self.report(stmt or node, f"`{self.code(node)}` has a shape that depends on the values of `{source}`: it fails "
                        "under `jit`, as does using its elements as set members or dict keys, which needs concrete "
                        "values: keep this code outside `jit`")
            return
        if isinstance(operand, (cst.List, cst.Tuple)):  # a display has no `.size`, and `jnp.unique` rejects lists
            argument = f"{self.jnp}.asarray({source})"
            flat = all(isinstance(e, cst.Element) and not isinstance(e.value, (cst.List, cst.Tuple)) for e in operand.elements)
            bound = str(len(operand.elements)) if flat else f"{argument}.size"
        else:
            bound, argument = f"{source if isinstance(operand, ATOMS) else f'({source})'}.size", source
        text = f"{self.jnp}.{name}({argument}, size={bound})"
        self.report(
            stmt or node,
            f"`{self.code(node)}` has a shape that depends on the values of `{source}`: it fails under `jit`. "
            f"`size={bound}` bounds it; the fix {PADDING[name]}",
            changes={node: self.expr(text)},
            unsafe=True,
            title=f"replace with `{text}` (pads the result)",
            imports=("jnp",),
        )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        fn = self.current_function
        info = mask_index(self, node) if fn is not None else None
        if fn is None or info is None or info.kind is not Kind.MASK:
            return
        parent = self.get_metadata(ParentProvider, node, None)
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.Del)):
            return  # a masked write (JX301)
        facts = function_facts(self, fn)
        if consumer(self, facts, node) is not None:
            return  # reduced or counted (JX302)
        stmt = enclosing_statement(self, node)
        if stmt is None or _masked_write(self, stmt):
            return  # the value of a masked write: JX301 decides
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(parent, cst.Assign) and parent.value is node:
            if named_consumers(self, facts, function_flow(self, fn), stmt):
                return  # `sel = x[m]` read only by reductions (JX302)
        self.report(
            stmt,
            f"`{self.code(node)}` selects a value-dependent number of elements: it fails under `jit`. Keep the full "
            f"shape instead: `jnp.where({self.code(info.mask)}, ..., fill)`, or reductions with `where=`",
        )


def _masked_write(rule: Rule, stmt: cst.CSTNode) -> bool:
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return False
    small = stmt.body[0]
    target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else (
        small.target if isinstance(small, cst.AugAssign) else None)
    if not isinstance(target, cst.Subscript):
        return False
    info = mask_index(rule, target)
    return info is not None and info.kind is Kind.MASK
