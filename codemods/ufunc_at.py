from __future__ import annotations

from typing import Optional

import libcst as cst

from codemods import _inplace
from codemods._inplace import Target
from jaxfix.analysis.aliases import AliasProvider
from jaxfix.analysis.dataflow import DataflowProvider
from jaxfix.analysis.masks import MaskProvider, function_facts
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.tracedness import TracednessProvider  # `_inplace.judge` asks `_kept_numpy`
from jaxfix.analysis.numpy_names import NumpyNameProvider, numpy_name
from jaxfix.analysis.value_dtypes import FLOAT, dtype_of
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

# NumPy ufunc -> the `.at[]` method with the same unbuffered (accumulating) semantics.
METHODS = {
    "add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "divide", "true_divide": "divide",
    "power": "power", "minimum": "min", "maximum": "max", "fmin": "min", "fmax": "max",
}


class UfuncAt(Rule):
    """
    ## What it does
    Rewrites NumPy's unbuffered in-place ufunc method `np.add.at(x, idx, v)` into `x = x.at[idx].add(v)`;
    likewise `np.subtract.at` (`.subtract`), `np.multiply.at` (`.multiply`), `np.divide.at` (`.divide`),
    `np.power.at` (`.power`), `np.minimum.at` (`.min`) and `np.maximum.at` (`.max`).

    ## Why is this bad?
    `ufunc.at` mutates its first argument, which JAX arrays do not allow; `jax.numpy` ufuncs have no such in-place
    form, and NumPy cannot run on traced values under `jit`.

    ## Example
    ```python
    import numpy as np

    def histogram(bins, values, n):
        counts = np.zeros(n)
        np.add.at(counts, bins, values)
        return counts
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def histogram(bins, values, n):
        counts = jnp.zeros(n)
        counts = counts.at[bins].add(values)
        return counts
    ```

    ## Fix safety
    `ufunc.at` applies every update, repeated indices included, and so does `.at[]`: the fix is safe when the array
    was created in the function and nothing else refers to its memory. It is unsafe, and says why, when the array is
    a parameter (the caller saw NumPy's update) or an attribute; reported without a fix when a later-used alias or
    view shares the memory or the array is stored in a container. Dtypes: `ufunc.at` casts the result back to the
    array's dtype after every update (`np.add.at(ints, [0, 0], 1.5)` stores 2), while `.at[]` promotes the whole
    array, computes and casts once (3, and int32 values above 2**24 pass through float32), and `.at[].divide` of
    integers returns floats. So the fix is also unsafe, and says why, unless the array is known to be floating or
    the value's kind provably cannot exceed the array's (a Python int into `np.zeros(n, dtype=int)`). `np.minimum.at` / `np.maximum.at` propagate NaN like `.min` / `.max` with NaN inputs in JAX; `np.fmin.at`
    ignores NaN, which `.min` does not.

    ## Known problems
    Other ufuncs (`np.bitwise_or.at`, `np.negative.at`) have no `.at[]` method and are reported without a fix.
    """

    CODE = "JX102"
    KEEPS_ARRAYS_NUMPY = True  # see Rule.KEEPS_ARRAYS_NUMPY
    HOLDS_BACK_UNFIXED = True  # see Rule.HOLDS_BACK_UNFIXED
    SUMMARY = "`np.<ufunc>.at` updates an array in place; use `x = x.at[idx].<method>(v)`"
    FIX = FixAvailability.SOMETIMES
    may_apply_to_tree = staticmethod(_inplace.updates_in_functions)
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, NumpyNameProvider, AliasProvider, DataflowProvider, MaskProvider, ParentProvider, TracednessProvider)
    ORDER = 40

    VALID = [
        Valid("import numpy as np\nC = np.zeros(3)\nnp.add.at(C, [0, 0], 1)\n"),
        Valid("import jax.numpy as jnp\ndef f(i):\n    c = jnp.zeros(3)\n    return c.at[i].add(1)\n"),
        Valid("import numpy as np\ndef f(x):\n    return np.add.reduce(x)\n"),
    ]
    INVALID = [
        Invalid(
            "import numpy as np\n\ndef f(i, w):\n    c = np.zeros(4)\n    np.add.at(c, i, w)  # counts\n"
            "    np.maximum.at(c, (0,), 1.0)\n    return c\n",
            expected=(
                "import numpy as np\n\ndef f(i, w):\n    c = np.zeros(4)\n    c = c.at[i].add(w)  # counts\n"
                "    c = c.at[0].max(1.0)\n    return c\n"
            ),
        ),
        Invalid(
            "import numpy as np\n\ndef f(c, i):\n    np.subtract.at(c, i, 2)\n    return np.pi * c\n",
            expected="import numpy as np\n\ndef f(c, i):\n    c = c.at[i].subtract(2)\n    return np.pi * c\n",
            unsafe=True,
            lines=[4],
        ),
        Invalid("import numpy as np\n\ndef f(i):\n    c = np.zeros(4, int)\n    np.bitwise_or.at(c, i, 2)\n    return c\n",
                expected=None, lines=[5]),
        Invalid(  # JX501 keeps `c` NumPy (it goes to `scipy.sparse`): a NumPy array has no `.at` (spafe)
            "import numpy as np\nimport scipy.sparse as sp\n\ndef f(i, n):\n    c = np.zeros(n)\n    np.add.at(c, i, 1.0)\n"
            "    return sp.diags(c)\n",
            expected=None, lines=[6]),
        Invalid(  # a copy of an argument has the caller's kind of array, NumPy's having no `.at`: made JAX (GPy)
            "import numpy as np\n\ndef f(X, i, w):\n    c = X.astype(float)\n    np.add.at(c, i, w)\n    return c\n",
            expected="import jax.numpy as jnp\n\ndef f(X, i, w):\n    c = jnp.asarray(X, dtype=float)\n    c = c.at[i].add(w)\n    return c\n"),
    ]

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if self.current_function is None:
            return
        for small in node.body:
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                self._check(node, small, small.value)

    def _check(self, line: cst.SimpleStatementLine, stmt: cst.Expr, call: cst.Call) -> None:
        qualified = numpy_name(self, call.func)
        if qualified is None:
            return
        parts = qualified.split(".")
        if len(parts) != 3 or parts[2] != "at":
            return
        ufunc = parts[1]
        args = [a for a in call.args]
        method = METHODS.get(ufunc)
        source = self.code(call.func)
        if method is None or len(args) != 3 or any(a.keyword is not None or a.star for a in args):
            self.report(stmt, f"`{source}` updates its first argument in place and has no `.at[]` equivalent "
                        "in JAX; rewrite it with `.at[].apply` or a segment sum")
            return
        array, index, value = (a.value for a in args)
        target = self._target(line, array, index)
        if target is None:
            self.report(stmt, f"`{source}` updates `{self.code(array)}` in place; jaxfix can only rewrite updates of "
                        "a name or an attribute")
            return
        verdict = _inplace.judge(self, line, target)
        if verdict.skip:
            return
        base = target.base_src
        if verdict.blocker is not None:
            self.report(stmt, f"`{source}` updates array `{base}` in place: {verdict.blocker}")
            return
        # an array of the caller's kind (`c = X.copy()`) is read through JAX, as JX101 does
        changes, wrap = _inplace.jax_input(self, stmt, base) if target.name is not None else ({}, False)
        read = f"{self.jnp}.asarray({base})" if wrap else base
        new = f"{base} = {read}.at[{target.index_src}].{method}({self.code(value)})"
        problem = f"`{source}` updates array `{base}` in place"
        reasons = [*verdict.reasons, *self._dtype_problem(array, value, method, base)]
        if reasons:
            message = f"{problem}; the functional rewrite may change behaviour: " + "; ".join(reasons)
        else:
            message = f"{problem}: JAX arrays are immutable"
        replacement = cst.ensure_type(self.statements(new + "\n")[0], cst.SimpleStatementLine).body[0]
        self.report(stmt, message, replacement=replacement, changes=changes, unsafe=bool(reasons), blocks_function=bool(reasons),
                    title=f"replace with `{base} = {base}.at[...].{method}(...)`",
                    imports=("jnp",) if changes else _inplace.uses_jnp(self, new))

    def _dtype_problem(self, array: cst.BaseExpression, value: cst.BaseExpression, method: str, base: str) -> list[str]:
        """Why `.at[]` may not compute what NumPy stores: `ufunc.at` casts the result back to the array's dtype after
        every update (`np.add.at(ints, [0, 0], 1.5)` adds 1 twice), `.at[]` computes the whole array in the promoted
        dtype and casts once (adds 3.0: and ints above 2**24 lose precision in float32); `.at[].divide` of integers
        returns floats. Exact when the array is floating, or the value's kind cannot exceed the array's."""
        facts = function_facts(self, self.current_function)  # type: ignore[arg-type]
        target, update = dtype_of(facts, array), dtype_of(facts, value)
        if method == "divide" and target.kind < FLOAT:
            return [f"`{base}` may have an integer dtype: NumPy truncates each quotient into it, `.at[].divide` returns floats"]
        if target.kind >= FLOAT or update.top <= target.kind:
            return []
        return [f"the value `{self.code(value)}` may be of a higher kind than `{base}` (floats into integers): NumPy "
                "casts back after every update, `.at[]` computes in the promoted dtype and casts once"]

    def _target(self, line: cst.CSTNode, array: cst.BaseExpression, index: cst.BaseExpression) -> Optional[Target]:
        node = array
        while isinstance(node, cst.Attribute):
            node = node.value
        if not isinstance(node, cst.Name):
            return None
        if isinstance(index, cst.Tuple) and index.elements:
            indices = [_inplace.index_code(self, cst.Index(e.value)) for e in index.elements]
            elements = [cst.Index(e.value) for e in index.elements]
        else:
            indices, elements = [_inplace.index_code(self, cst.Index(index))], [cst.Index(index)]
        return Target(array, self.code(array), indices, elements)
