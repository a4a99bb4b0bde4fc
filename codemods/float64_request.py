from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxfix import walk
from jaxfix.advice import X64_ENABLED
from jaxfix.analysis.numpy_names import NumpyNameProvider, numpy_name
from jaxfix.analysis.parents import ParentProvider, enclosing_statement
from jaxfix.imports import dotted_name
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

WIDE = {"float64": "float32", "double": "float32", "complex128": "complex64", "cdouble": "complex64",
        "int64": "int32", "longlong": "int32", "uint64": "uint32", "ulonglong": "uint32"}
WIDE_STRINGS = {"float64", "f8", "<f8", "double", "complex128", "c16", "<c16", "int64", "i8", "<i8", "uint64", "u8",
                "<u8"}
# the canonical name of what a 64-bit dtype spelling asks for, and what JAX gives without x64
CANONICAL = {"float64": "float64", "f8": "float64", "<f8": "float64", "double": "float64", "complex128": "complex128",
             "cdouble": "complex128", "c16": "complex128", "<c16": "complex128", "int64": "int64", "i8": "int64",
             "<i8": "int64", "longlong": "int64", "uint64": "uint64", "u8": "uint64", "<u8": "uint64",
             "ulonglong": "uint64"}
PRODUCTS = (cst.Multiply, cst.Power, cst.LeftShift, cst.MatrixMultiply)
NARROW = {"float64": "float32", "complex128": "complex64", "int64": "int32", "uint64": "uint32"}
CASTS = {"astype", "view"}
F32_MAX = 3.4028234663852886e38  # the largest float32; a larger literal is inf in a float32 array
F32_TINY = 1.1754943508222875e-38  # the smallest normal float32; a smaller one is 0 (or a subnormal XLA flushes to 0)
F32_EPS = 1.1920928955078125e-07  # float32's resolution near 1: a tolerance below it only holds for exact equality
ORDERING = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)


def precise_offset(value: float) -> bool:
    """A number past 2**20 written with 6 or more significant digits (2451545.0, 6378137.0): an offset whose
    neighbours matter, which float32 spaces 0.125 or more apart (not a round bound such as 1e6 or 1.5e6)."""
    return 2**20 <= value < F32_MAX and len(repr(value).split("e")[0].replace(".", "").strip("0")) >= 6


SEEDED = {"default_rng", "RandomState", "seed", "key", "PRNGKey", "SeedSequence", "Generator", "PCG64", "MT19937",
          "Philox", "SFC64"}
# dtype inspection, not array creation: `np.finfo(np.float64).eps` is a host constant
INSPECTION = {"finfo", "iinfo", "dtype", "issubdtype", "can_cast", "result_type", "promote_types", "isdtype"}


class Float64Request(Rule):
    """
    ## What it does
    Reports requests for 64-bit dtypes inside functions: `dtype=np.float64` (or `"float64"`, `np.double`,
    `np.complex128`, `np.int64`, `"i8"`, `np.uint64`), `.astype(np.float64)` and `np.float64(...)`, in a module that
    does not enable `jax_enable_x64`; `np.finfo(float)` / `np.finfo(np.float64)`, whose tolerances are below what
    float32 values can hold (`stop + np.finfo(float).eps == stop` in float32); and numbers no 32-bit type holds:
    float literals past float32's range (`-1e300`, a log-likelihood floor, is `-inf`) or below its smallest normal
    value (`1e-300`, a guard against `log(0)`, is 0), integers from 2**32 up and `sys.maxsize` (jax.numpy raises
    `OverflowError` on them). Also reports tolerances below float32's resolution (under 1.2e-7) where a loop or an
    `assert` tests against them: `while err > 1e-10`, `if norm(x_new - x) < tol: break` with `tol=1e-12`.

    ## Why is this bad?
    JAX computes in 32 bits unless `jax_enable_x64` is set: `jnp.zeros(3, dtype=np.float64)` and
    `x.astype(np.float64)` silently give float32 (with at most a warning), about 7 significant digits instead of 16.
    Code that needs float64 (accumulating many small terms, ill-conditioned solves, differences of close numbers)
    gives different results after the migration. A 64-bit integer becomes int32 just as silently: a product or
    square past 2**31 (`n**2` for `n` above 46340) wraps around to a wrong, often negative, value.

    ## Example
    ```python
    import numpy as np

    def total(x):
        return np.sum(x.astype(np.float64))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)  # at program start, if float64 is really needed

    def total(x):
        return jnp.sum(x.astype(jnp.float64))
    ```
    or request `float32` explicitly where 32 bits are enough.

    ## Fix safety
    No fix: enabling x64 changes every computation of the program, and writing `float32` changes results; both are
    decisions for the author. Set `x64 = true` under `[tool.jaxfix]` when the program enables x64 elsewhere. A
    64-bit integer request whose values are then multiplied also holds back every other fix in its function: it is
    there to avoid an overflow (products of counts), which int32 brings back silently (scikit-learn's
    `mutual_info_score` gave NaN). So does a number no 32-bit type holds (dynesty's `-1e300` floor made its evidence
    error NaN: `exp(-inf) * -inf`).

    ## Known problems
    `dtype=float` and `dtype=int` (64 bits in NumPy, the default 32-bit types in JAX), and dtypes computed at run
    time (`np.min_scalar_type(-n**2)`, `np.result_type(...)`), are not reported. A module that calls
    `jax.config.update("jax_enable_x64", True)` itself is trusted.
    """

    CODE = "JX601"
    SUMMARY = "float64 or int64 requested, or a number 32 bits cannot hold; without jax_enable_x64 JAX silently uses 32 bits"
    FIX = FixAvailability.NONE
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, NumpyNameProvider, ParentProvider)
    TRIGGERS = (b"float64", b"double", b"complex128", b"f8", b"c16", b"int64", b"longlong", b"i8", b"u8")

    VALID = [
        Valid("import numpy as np\nEPS = np.finfo(np.float64).eps\nX = np.zeros(3, dtype=np.float64)\n"),
        Valid("import numpy as np\ndef f(x):\n    return x.astype(np.float32)\n"),
        Valid("import numpy as np\ndef f(x):\n    return x + np.finfo(x.dtype).eps + np.finfo(np.float32).tiny\n"),
        Valid(
            "import jax\nimport numpy as np\njax.config.update('jax_enable_x64', True)\n"
            "def f(x):\n    return x.astype(np.float64)\n"
        ),
        Valid("import numpy as np\ndef f(x):\n    return x.astype(np.float64)\n", settings={"x64": True}),
        Valid("import numpy as np\nLOW = -1e300\n\ndef f(x):\n    return np.maximum(x, 1e-30) + 3e38 + 2**32 + 0xFFFFFFFF\n"),
        Valid("import numpy as np\ndef f(x):\n    return np.log(x + 1e-300)\n", settings={"x64": True}),
        Valid("import numpy as np\ndef f(x):\n    return np.sum(x) * 86400.25 + 1e6 + 1500000.0 - 6.5e7\n"),
        Valid("import numpy as np\ndef f(x):\n    rng = np.random.default_rng(6762668991392531563)\n    return x + rng.normal()\n"),
        Valid("import numpy as np\ndef f(x):\n    if np.min(x) < 1e-12:\n        x = x + 1e-12\n    return np.log(x / (np.sum(x) + 1e-10))\n"),
    ]
    INVALID = [
        Invalid("import numpy as np\n\ndef f(x):\n    return np.sum(x.astype(np.float64))\n", lines=[4]),
        Invalid(  # a convergence test float32 cannot resolve: the loop runs on (quantecon's Riccati solvers, POT)
            "import numpy as np\n\ndef f(A, x, tol=1e-10):\n    err = 1.0\n    while err > tol:\n        y = np.tanh(A @ x)\n"
            "        err = np.max(np.abs(y - x))\n        x = y\n    assert np.max(np.abs(x - np.tanh(A @ x))) < 1e-13\n    return x\n",
            lines=[3, 9],
        ),
        Invalid("import numpy as np\n\ndef f(n):\n    acc = np.zeros(\n        n, dtype='f8')\n    return acc\n", lines=[4]),
        Invalid("import numpy as np\n\ndef f(x):\n    return np.float64(x) * 2\n", lines=[4]),
        Invalid("import numpy as np\n\ndef f(n):\n    k = np.arange(n, dtype=np.int64)\n    return k * k\n", lines=[4]),
        Invalid("import numpy as np\n\ndef f(x):\n    return x.astype('i8').sum()\n", lines=[4]),
        Invalid(  # float64's eps vanishes next to float32 values: the arange drops its end point, so the function stays
            "import numpy as np\n\ndef f(a, b, step):\n    return np.arange(a, b + np.finfo(float).eps, step)\n", lines=[4]),
        Invalid(  # as a division guard it is only reported
            "import numpy as np\n\ndef f(a, b):\n    return a / (b + np.finfo(np.float64).eps)\n", lines=[4]),
        Invalid("import numpy as np\n\ndef f(logl):\n    return np.concatenate([[-1.e300], logl])\n", lines=[4]),
        Invalid("import numpy as np\n\ndef f(p):\n    return -np.sum(p * np.log(p + 1e-300))\n", lines=[4]),
        Invalid("import sys\nimport numpy as np\n\ndef f(r, n):\n    return int(max(min(np.round(r * n), sys.maxsize), 1))\n",
                lines=[5]),
        Invalid("import numpy as np\n\ndef f(h):\n    return np.bitwise_and(h, 0xFFFFFFFFFF)\n", lines=[4]),
        Invalid(  # float32 spaces Julian days 0.25 apart: pvlib's julian_day_dt was out by up to 3 hours
            "import numpy as np\n\ndef f(jd, b):\n    if jd > 2299160.0:\n        jd = jd + b\n    return np.floor(jd - 2451545.0)\n",
            lines=[4, 6]),
    ]

    def visit_Module(self, node: cst.Module) -> None:
        self._x64 = bool(self.context.setting("x64", False)) or X64_ENABLED.search(self.context.source) is not None

    def _wide(self, expr: cst.BaseExpression) -> Optional[str]:
        """The 64-bit dtype `expr` names (np.float64, jnp.float64, "float64"), else None."""
        if isinstance(expr, cst.SimpleString):
            value = expr.evaluated_value
            return value if isinstance(value, str) and value in WIDE_STRINGS else None
        if not isinstance(expr, cst.Attribute):
            return None
        qualified = numpy_name(self, expr)
        if qualified and qualified.split(".")[-1] in WIDE and qualified.count(".") == 1:
            return qualified.split(".")[-1]
        code = self.code(expr)
        if code in (f"{self.jnp}.{name}" for name in WIDE):
            return expr.attr.value
        return None

    def _multiplied(self, node: cst.Call) -> bool:
        """Whether the 64-bit integers `node` makes are multiplied (`a.astype(np.int64) * b`, or `c = ...` and then
        `c * d`, `c ** 2`): where a product of counts may pass 2**31, which is why code asks for int64."""
        parent = self.get_metadata(ParentProvider, node, None)
        if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, PRODUCTS):
            return True
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
            return False
        name = parent.targets[0].target.value
        return any(
            isinstance(op.operator, PRODUCTS) and any(isinstance(side, cst.Name) and side.value == name for side in (op.left, op.right))
            for op in walk.nodes_of(self.current_function, cst.BinaryOperation)  # type: ignore[arg-type]
        )

    def _finfo(self, node: cst.Call) -> None:
        """`np.finfo(float).eps`: float64's resolution (2.2e-16), which float32 values (eps 1.2e-7) cannot hold: a
        guard such as `stop + np.finfo(float).eps` adds nothing to them (`np.arange` then drops its last value)."""
        qualified = numpy_name(self, node.func)
        if qualified != "numpy.finfo" or len(node.args) != 1 or node.args[0].keyword is not None:
            return
        arg = node.args[0].value
        if not (isinstance(arg, cst.Name) and arg.value == "float" or self._wide(arg) == "float64" or
                self._wide(arg) in ("double", "f8", "<f8")):
            return
        shaping = self._in_arange(node)
        self.report(
            enclosing_statement(self, node) or node,
            f"`{self.code(node)}` describes float64 (eps 2.2e-16), but without `jax_enable_x64` the arrays are float32 "
            "(eps 1.2e-7): a tolerance or guard built from it is lost in float32 arithmetic (`b + eps == b`); use "
            "the array's own dtype (`jnp.finfo(x.dtype)`) or enable x64"
            + (f"; here it guards the end of `{shaping}`, whose length would change, so this function is left as it is"
               if shaping else ""),
            blocks_function=shaping is not None,
        )

    def visit_Float(self, node: cst.Float) -> None:
        if self.current_function is None or self._x64:
            return
        value = abs(float(node.value.replace("_", "")))
        if F32_MAX < value < float("inf"):
            self._unheld(node, "is past float32's range (3.4e38), so in a JAX array it is `inf`",
                         "`jnp.inf`, or `jnp.finfo(jnp.float32).max` for a finite bound")
        elif 0 < value < F32_TINY:
            self._unheld(node, "is below float32's smallest normal number (1.2e-38), so in a JAX array it is 0",
                         "`jnp.finfo(jnp.float32).tiny`")
        elif value < F32_EPS and self._tolerance(node) is not None:
            self.report(node, f"`{self.code(node)}` is a tolerance below float32's resolution (eps 1.2e-7) in "
                        f"{self._tolerance(node)}: without `jax_enable_x64`, an error or a difference of values near 1 "
                        "is below it only when they are exactly equal, so the test may never pass (or pass late); "
                        "scale it to the dtype (`jnp.finfo(x.dtype).eps`), or enable x64")
        elif precise_offset(value) and self._offset(node):
            step = 2.0 ** (int(value).bit_length() - 24)
            self._unheld(node, f"is a precise offset (a Julian day, an epoch, a radius): float32 spaces numbers this "
                         f"large {step:g} apart, so the values it is added to or compared with lose their fraction",
                         "values relative to it (subtract the offset in float64 on the host first)")

    def visit_Integer(self, node: cst.Integer) -> None:
        if self.current_function is not None and not self._x64 and int(node.value.replace("_", ""), 0) >= 2**32 \
                and not self._seed(node):
            self._unheld(node, "is past every 32-bit integer type, so `jax.numpy` raises `OverflowError` on it",
                         "a bound that fits int32")

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.current_function is not None and not self._x64 and self.code(node) == "sys.maxsize":
            self._unheld(node, "(2**63 - 1) is past every 32-bit integer type, so `jax.numpy` raises `OverflowError` "
                         "on it", "a bound that fits int32")

    def _seed(self, node: cst.Integer) -> bool:
        """A seed (`np.random.default_rng(6762668991392531563)`): generators take any size, and JX401's
        `jax.random.key(seed)` takes up to 64 bits."""
        arg = self.get_metadata(ParentProvider, node, None)
        call = self.get_metadata(ParentProvider, arg, None) if isinstance(arg, cst.Arg) else None
        return isinstance(call, cst.Call) and int(node.value.replace("_", ""), 0) < 2**63 and \
            (dotted_name(call.func) or "").rpartition(".")[2] in SEEDED

    def _offset(self, node: cst.Float) -> bool:
        """Whether the literal is added, subtracted or compared (a scale factor, `* 86400.0`, keeps relative precision)."""
        parent = self.get_metadata(ParentProvider, node, None)
        if isinstance(parent, cst.UnaryOperation):
            parent = self.get_metadata(ParentProvider, parent, None)
        if isinstance(parent, cst.BinaryOperation):
            return isinstance(parent.operator, (cst.Add, cst.Subtract))
        return isinstance(parent, (cst.Comparison, cst.ComparisonTarget)) or isinstance(parent, cst.AugAssign) and \
            isinstance(parent.operator, (cst.AddAssign, cst.SubtractAssign))

    def _tolerance(self, node: cst.Float) -> Optional[str]:
        """Where the literal is a convergence tolerance, else None: compared (`<`, `>=`, ...) in a `while` test, in
        the test of an `if` that leaves a loop, or in an `assert`; directly, or as the default of a parameter
        compared there (`def solve(..., tol=1e-10)`: quantecon's Riccati solvers, POT's barycenters)."""
        parent = self.get_metadata(ParentProvider, node, None)
        if isinstance(parent, cst.UnaryOperation):
            parent = self.get_metadata(ParentProvider, parent, None)
        if isinstance(parent, cst.Param) and self.current_function is not None:
            name = parent.name.value
            comparisons = [
                c for c in walk.nodes_of(self.current_function.body, cst.Comparison)
                if any(isinstance(side, cst.Name) and side.value == name  # type: ignore[attr-defined]
                       for side in (c.left, *(t.comparator for t in c.comparisons)))  # type: ignore[attr-defined]
            ]
        else:
            if isinstance(parent, cst.ComparisonTarget):
                parent = self.get_metadata(ParentProvider, parent, None)
            comparisons = [parent] if isinstance(parent, cst.Comparison) else []
        for comparison in comparisons:
            if not any(isinstance(t.operator, ORDERING) for t in comparison.comparisons):  # type: ignore[attr-defined]
                continue
            place = self._test_place(comparison)
            if place is not None:
                return place
        return None

    def _test_place(self, comparison: cst.CSTNode) -> Optional[str]:
        """"a `while` test", "a loop's exit test" or "an `assert`" when `comparison` sits in one, else None."""
        child, current = comparison, self.get_metadata(ParentProvider, comparison, None)
        while current is not None and not isinstance(current, cst.BaseStatement):
            if isinstance(current, cst.Assert):
                return "an `assert`"
            child, current = current, self.get_metadata(ParentProvider, current, None)
        if isinstance(current, cst.While) and current.test is child:
            return "a `while` test"
        if isinstance(current, cst.If) and current.test is child and any(
                isinstance(n, (cst.Break, cst.Return)) for n in walk.nodes(current.body)):
            outer = self.get_metadata(ParentProvider, current, None)
            while outer is not None and not isinstance(outer, (cst.For, cst.While, cst.FunctionDef)):
                outer = self.get_metadata(ParentProvider, outer, None)
            if isinstance(outer, (cst.For, cst.While)):
                return "a loop's exit test"
        return None

    def _unheld(self, node: cst.CSTNode, what: str, instead: str) -> None:
        self.report(
            node,
            f"`{self.code(node)}` {what}: without `jax_enable_x64` JAX has no 64-bit types, so this function is left "
            f"as it is; use {instead}, or enable x64",
            blocks_function=True,
        )

    def _in_arange(self, node: cst.CSTNode) -> Optional[str]:
        """The `arange` call whose arguments hold `node` (its length depends on the guard), or None."""
        current = self.get_metadata(ParentProvider, node, None)
        while current is not None and not isinstance(current, (cst.BaseStatement, cst.BaseSmallStatement)):
            if isinstance(current, cst.Call) and (numpy_name(self, current.func) or self.code(current.func)).endswith("arange"):
                return self.code(current.func)
            current = self.get_metadata(ParentProvider, current, None)
        return None

    def visit_Call(self, node: cst.Call) -> None:
        if self.current_function is None or self._x64:
            return
        func = node.func
        requested = self._wide(func)  # np.float64(x)
        array_call = numpy_name(self, func) is not None or self.code(func).startswith(f"{self.jnp}.")
        if isinstance(func, cst.Attribute) and func.attr.value in INSPECTION:
            self._finfo(node)
            return
        for index, arg in enumerate(node.args):
            dtype_slot = (arg.keyword is not None and arg.keyword.value == "dtype") or (
                arg.keyword is None and isinstance(func, cst.Attribute) and func.attr.value in CASTS and index == 0
            )
            positional_dtype = arg.keyword is None and array_call and isinstance(arg.value, cst.Attribute)
            if dtype_slot or positional_dtype:
                requested = requested or self._wide(arg.value)
        if requested is None:
            return
        requested = CANONICAL[requested]
        narrow = NARROW[requested]
        cost = ("values past 2**31 wrap around" if requested == "int64" else "values past 2**32 wrap around"
                if requested == "uint64" else "about 7 significant digits instead of 16")
        integer = requested in ("int64", "uint64") and self._multiplied(node)
        self.report(
            enclosing_statement(self, node) or node,
            f"`{self.code(node)}` requests {requested}, but without `jax_enable_x64` JAX silently computes in "
            f"{narrow} ({cost}); enable x64 at program start, or ask for {narrow} explicitly"
            + ("; its values are multiplied, so this function is left as it is (the 64-bit integer guards against "
               "overflow, which its other fixes would bring back)" if integer else ""),
            blocks_function=integer,
        )
