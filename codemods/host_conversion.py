from __future__ import annotations

from typing import Optional

import libcst as cst

from codemods import _caller_writes
from jaxfix.analysis.host_use import AT_INDEX_REASON, HOST_USE_DEPENDENCIES, Use, is_static, name_uses, use_with_names, value_use
from jaxfix.analysis.parents import ParentProvider, enclosing_statement
from jaxfix.analysis.scalars import math_aliases, scalar_kind
from jaxfix.analysis.static_params import PYTHON_RESULT_METHODS
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

# math function -> (jax.numpy function, total: same value wherever math returns, instead of raising)
MATH = {
    "sin": ("sin", True), "cos": ("cos", True), "tan": ("tan", True), "tanh": ("tanh", True), "atan": ("arctan", True),
    "asinh": ("arcsinh", True), "fabs": ("fabs", True), "isnan": ("isnan", True), "isinf": ("isinf", True),
    "isfinite": ("isfinite", True), "degrees": ("degrees", True), "radians": ("radians", True),
    "atan2": ("arctan2", True), "copysign": ("copysign", True), "erf": (None, True),
    "sqrt": ("sqrt", False), "exp": ("exp", False), "expm1": ("expm1", False), "log": ("log", False),
    "log2": ("log2", False), "log10": ("log10", False), "log1p": ("log1p", False), "asin": ("arcsin", False),
    "acos": ("arccos", False), "sinh": ("sinh", False), "cosh": ("cosh", False), "atanh": ("arctanh", False),
    "acosh": ("arccosh", False), "pow": ("float_power", False), "floor": ("floor", False), "ceil": ("ceil", False),
    "trunc": ("trunc", False),
}
INT_RESULT = {"floor", "ceil", "trunc"}
BUILTINS = {"float": "float", "int": "int", "bool": "bool"}
ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString)


def _wrapped(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`expr` parenthesised where it is not an atom (it replaces a call, which binds tighter than any operator)."""
    if isinstance(expr, ATOMS) or expr.lpar:
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _property_result(rule: Rule, node: cst.Call) -> bool:
    """`return bool(...)` (or `int`, `float`) in a `@property`: an attribute-like Python value its users compare with
    `is False` or serialize (statsmodels' `isstationary`), not array code a jitted caller traces through."""
    parent = rule.get_metadata(ParentProvider, node, None)
    function = rule.current_function
    return isinstance(parent, cst.Return) and isinstance(node.func, cst.Name) and node.func.value in ("bool", "int", "float") \
        and function is not None and any(isinstance(d.decorator, cst.Name) and d.decorator.value in ("property", "cached_property")
                                         for d in function.decorators)




class HostConversion(Rule):
    """
    ## What it does
    Finds conversions of traced values to Python numbers inside functions: `float(x)`, `int(x)`, `bool(x)`,
    `x.item()`, `x.tolist()` and `math.sqrt(x)` (and the other `math` functions). It rewrites them to array forms
    (`x.astype(float)`, `jnp.sqrt(x)`, or drops a needless conversion: `float(np.std(x))` -> `jnp.std(x)`), and
    reports, without a fix, conversions whose result really must be a Python value: printed, formatted, a `range()`
    or slice bound, a shape, a dict key, appended to a Python container.

    ## Why is this bad?
    Under `jax.jit` arguments are tracers with no concrete value: `float(x)` and `math.sqrt(x)` raise
    `ConcretizationTypeError`, `x.tolist()` raises too. Conversions of static values (`int(x.shape[0])`, module
    constants) are fine and left alone.

    ## Example
    ```python
    import math
    import numpy as np

    def squash(x):
        return math.tanh(float(np.std(x)))
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def squash(x):
        return jnp.tanh(jnp.std(x))
    ```

    ## Fix safety
    Safe only when the array form gives the same value and the same dtype kind: the converted value is provably a
    0-d array (a full reduction such as `np.sum(x)` or `x.mean()`, or arithmetic on those), the conversion does not
    change its kind or is an exact cast (`float` of a real float such as `np.std`, `int` of an `argmax`, `bool` of
    `np.any`; `float(np.mean(x))` becomes `jnp.mean(x).astype(float)` since a mean may be complex), the `math`
    function returns a value for every real input (`sin`, `tanh`, `isnan`), and the result is only used in array
    arithmetic, as a NumPy/`jax.numpy` argument, returned, or tested. A result serialized to JSON (`json.dumps`), in
    the function or, once returned, by code of the module (`o = score(v)`, then `json.dumps({"score": o})`, or
    through a dict or list it fills, `flags["nan"] = has_nan(x)` then `json.dumps(flags)`), keeps its conversion: JSON
    rejects an array; so does one that such code puts in a dict or list it turns into text (`print(row)`, `str(flags)`:
    each item's `repr` shows, `Array(1., dtype=float32)` for a 0-d array). Otherwise the fix is unsafe and the message says why (a result put in a Python
    dict or list, not handed to NumPy, may be dumped to JSON by its readers):
    `float(x)` also accepts a one-element array of any shape and returns a scalar (the fix keeps the shape);
    `int(x)` raises on NaN and infinities and gives a Python big integer outside the int32 range, where
    `.astype(int)` saturates; `math.sqrt` and `math.log` raise outside their domain where `jnp` returns `nan`/`-inf`;
    a result passed to a user function or used as an index may need to be a Python number. The one index that is
    safe is the position of an `.at[...]` update or read (`counts.at[int(v * n)].add(1)`, what JX101 makes of
    `counts[int(v * n)] += 1`): there an integer array of one element names the same position, and the inputs where
    the cast and `int()` differ (NaN, infinities, beyond int32) are out of range, where NumPy raises and JAX drops
    the update, as for every index under `jit`. Results use JAX's
    default dtypes (`float` is float32 unless `jax_enable_x64`), as everywhere in the migration.

    ## Known problems
    A converted value that the function returns becomes a 0-d array: a caller that hashes it (a dict key), formats
    it or, in another module, dumps it to JSON sees a change, as with every NumPy result the migration turns into a
    JAX array. Tracedness is judged by
    `jaxfix.analysis.tracedness` (parameters traced, shapes and module constants static). `round(x)` needs no
    rewrite (`jax.Array` implements `__round__`). Control flow on a converted value (`if float(x) > 0`) is left to
    the control-flow rules (JX2xx); only the conversion is rewritten.
    """

    CODE = "JX502"
    SUMMARY = "host conversion (float(), int(), .item(), math.*) of a traced value; use an array form"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, *HOST_USE_DEPENDENCIES)
    ORDER = 80
    TRIGGERS = (b"numpy", b"jax")  # array code only: plain Python modules are not migrated

    VALID = [
        Valid(  # a property's Python value, which users compare with `is False` or serialize (statsmodels)
            "import numpy as np\n\nclass P:\n    @property\n    def stable(self):\n        return bool(np.all(np.abs(self.r) > 1))\n"
        ),
        Valid(  # Python requires these methods to return Python values
            "import numpy as np\n\nclass P:\n    def __bool__(self):\n        return bool(np.all(self.value))\n\n"
            "    def __len__(self):\n        return int(np.size(self.value))\n"
        ),
        Valid("import numpy as np\ndef f(x):\n    return x.reshape(int(x.shape[0]), -1)\n"),
        Valid("N = 4\ndef f(x):\n    return x * float(N)\n"),
        Valid("import math\nSCALE = math.sqrt(2.0)\ndef f(x):\n    return x * math.pi\n"),
        Valid("def f(x):\n    return float('nan') + x\n"),
        Valid("def f(x):\n    n = len(x)\n    return x / float(n)\n"),
    ]
    INVALID = [
        Invalid(  # a value of a Python dict the function returns: its readers may dump it to JSON (pyod's scores)
            "import numpy as np\n\ndef stats(v):\n    return {'spread': float(np.std(v)), 'n': 3}\n",
            expected="import numpy as np\n\ndef stats(v):\n    return {'spread': np.std(v), 'n': 3}\n",
            unsafe=True,
        ),
        Invalid(  # a function whose result a caller writes into, converting a value that a `while` header reads: the
            # header's statement is compound (this crashed: pymoo's zcat, neurokit2's signal_psd, elephant's spectral)
            "import numpy as np\n\ndef level(x):\n    v = float(np.mean(x))\n    while v > 1.0:\n        v = v / 2.0\n"
            "    return x * 2\n\ndef run(x):\n    h = level(x)\n    h[0] = 1.0\n    return h\n",
            expected="import numpy as np\n\ndef level(x):\n    v = np.mean(x).astype(float)\n    while v > 1.0:\n"
                     "        v = v / 2.0\n    return x * 2\n\ndef run(x):\n    h = level(x)\n    h[0] = 1.0\n    return h\n",
            unsafe=True,
        ),
        Invalid(  # an item of a list handed to NumPy is an array's element: safe
            "import numpy as np\n\ndef pair(v):\n    return np.array([float(np.std(v)), 1.0])\n",
            expected="import numpy as np\n\ndef pair(v):\n    return np.array([np.std(v), 1.0])\n",
        ),
        Invalid(  # serialized to JSON here: JSON rejects an array
            "import json\nimport numpy as np\n\ndef report(v):\n    m = float(np.mean(v))\n    return json.dumps([m, 1])\n",
            expected=None, lines=[5],
        ),
        Invalid(  # returned, and module code dumps the result to JSON (pyod's `float(np.mean([...]))` scores)
            "import json\nimport numpy as np\n\ndef score(v):\n    s = float(np.mean(v))\n    return s\n\n"
            "if __name__ == '__main__':\n    print(json.dumps({'score': score(np.ones(3))}))\n",
            expected=None, lines=[5],
        ),
        Invalid(  # returned, and a caller puts it in a dict it dumps to JSON (spectral's `has_nan` in a dict of flags)
            "import json\nimport numpy as np\n\ndef flat(v):\n    return bool(np.all(v == v[0]))\n\n"
            "def summary(v):\n    info = {'n': len(v)}\n    info['flat'] = flat(v)\n    return json.dumps(info)\n",
            expected=None, lines=[5],
        ),
        Invalid(  # ... or in a list it prints: the list shows its items' `repr`, `Array(1., dtype=float32)` for an array
            "import numpy as np\n\ndef peak(v):\n    p = float(np.max(v))\n    return p\n\n"
            "def show(v):\n    best = peak(v)\n    row = [best, len(v)]\n    print(row)\n",
            expected=None, lines=[4],
        ),
        Invalid(
            "import math\nimport numpy as np\n\ndef f(x):\n    return math.tanh(float(np.std(x)))  # spread\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    return jnp.tanh(np.std(x))  # spread\n",
        ),
        Invalid(
            "import math\nimport numpy as np\n\ndef f(x):\n    return math.tanh(np.sum(x)) * x\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    return jnp.tanh(np.sum(x)) * x\n",
        ),
        Invalid(
            "import jax.numpy as jnp\n\ndef f(x, t):\n    return x * float(t)\n",
            expected="import jax.numpy as jnp\n\ndef f(x, t):\n    return x * jnp.asarray(t, dtype=float)\n",
            unsafe=True,
        ),
        Invalid(  # one element of an array whose rank the code shows is 0-d: a safe cast
            "import numpy as np\n\ndef f(x):\n    y = np.linspace(x.min(), x.max(), 5)\n    return float(y[-1] - y[0])\n",
            expected="import numpy as np\n\ndef f(x):\n    y = np.linspace(x.min(), x.max(), 5)\n"
                     "    return (y[-1] - y[0]).astype(float)\n",
        ),
        Invalid(  # `np.zeros(shape)`: `shape` may be a tuple, so `y[0]` may be a row
            "import numpy as np\n\ndef f(x, shape):\n    y = np.zeros(shape) + x.sum()\n    return float(y[0])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, shape):\n    y = np.zeros(shape) + x.sum()\n"
                     "    return jnp.asarray(y[0], dtype=float)\n",
            unsafe=True,
        ),
        Invalid("import numpy as np\n\ndef f(x):\n    label = f'{float(np.max(x)):.2f}'\n    return x, label\n", lines=[4]),
        Invalid("import numpy as np\n\ndef f(x):\n    peak = int(np.argmax(x))\n    return {peak: x}\n", lines=[4]),
        Invalid("import numpy as np\n\ndef f(x):\n    return {'mean': x.tolist()}\n", lines=[4]),
    ]

    def visit_Module(self, node: cst.Module) -> None:
        self._math = math_aliases(node)

    def visit_Call(self, node: cst.Call) -> None:
        if self.current_function is None or any(a.star or a.keyword for a in node.args):
            return
        if self.current_function.name.value in PYTHON_RESULT_METHODS or _property_result(self, node):
            return  # `__bool__` must return a bool (astropy's Parameter): the conversion is the point
        func, args = node.func, [a.value for a in node.args]
        math_name = self._math.get(self.code(func)) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if isinstance(func, cst.Name) and func.value in BUILTINS and len(args) == 1:
            kind, value = func.value, args[0]
        elif isinstance(func, cst.Attribute) and func.attr.value in ("item", "tolist") and not args:
            kind, value = func.attr.value, func.value
        elif math_name in MATH and args:
            kind, value = "math", args[0]
        else:
            return
        values = args if kind == "math" else [value]
        if all(is_static(self, v) for v in values):
            return
        source = " ".join(self.code(node).split())
        source = source if len(source) <= 60 else source[:57] + "..."
        use = use_with_names(self, self.current_function, node)
        where = enclosing_statement(self, node) or node
        problem = f"`{source}` converts a traced value to a Python {'list' if kind == 'tolist' else 'number'}"
        if kind == "tolist" or use.kind == Use.HOST:
            why = "it builds nested Python lists" if kind == "tolist" else f"the result is {use.reason}"
            shown = any(word in use.reason for word in ("print", "string", "format", "logged"))
            hint = "use `jax.debug.print` to show it" if shown else "compute it outside the jitted function"
            self.report(where, f"{problem}, which raises under `jit`; {why}, so it must stay on the host ({hint})")
            return
        if use.kind == Use.DEFER:
            self.report(where, f"{problem}, which raises under `jit`; it is {use.reason}, which the in-place rules "
                        "(JX1xx) rewrite with `.at[...]` first")
            return
        name = self.current_function.name.value
        kept = _caller_writes.host_results(self).get(name) or _caller_writes.text_results(self).get(name)
        if kept is not None and self._returned(node):
            # `o = float(np.mean(v)); return o`, and a caller's `json.dumps({"overall": o})` (pyod's scores)
            self.report(where, f"{problem}, which raises under `jit`; but this function returns it and {kept}: keep "
                        "the Python number (and this function outside `jit`)")
            return
        reasons = [] if use.kind == Use.ARRAY else [f"the result is {use.reason}"]
        at_index = use.reason == AT_INDEX_REASON
        replacement, needs_jnp = self._replacement(kind, math_name, value, args, reasons, at_index)
        if replacement is None:
            self.report(where, f"{problem}, which raises under `jit`")
            return
        new = self.code(replacement)
        message = f"{problem}, which raises under `jit`; use `{new}`"
        if reasons:
            message += " (unsafe: " + "; ".join(reasons) + ")"
        self.report(where, message, changes={node: replacement}, unsafe=bool(reasons), title=f"replace with `{new}`",
                    imports=("jnp",) if needs_jnp else ())

    def _returned(self, node: cst.CSTNode) -> bool:
        """Whether the function returns the value of `node`: in its `return` statement, or bound to a plain name
        that one reads (through arithmetic and displays, as `value_use` follows them)."""
        site = value_use(self, node)
        if site.assigned_name is None:
            return isinstance(enclosing_statement(self, node), cst.SimpleStatementLine) and any(
                isinstance(small, cst.Return) for small in enclosing_statement(self, node).body)  # type: ignore[union-attr]
        lines = (enclosing_statement(self, read)
                 for read in name_uses(self, self.current_function, site.assignment, site.assigned_name))  # type: ignore[arg-type]
        # (a read in an `if`/`while` header belongs to a compound statement, whose body is a block, not small statements)
        return any(isinstance(small, cst.Return) for line in lines if isinstance(line, cst.SimpleStatementLine)
                   for small in line.body)

    def _replacement(self, kind, math_name, value, args, reasons, at_index=False) -> tuple[Optional[cst.BaseExpression], bool]:
        scalar = scalar_kind(self, value)
        text = self.code(value)
        if scalar is None and not at_index:
            what = f"`{text}`" if len(text) < 40 else "the argument"
            reasons.append(f"{what} may be a one-element array that is not 0-d; the fix keeps its shape")
        if kind == "math":
            target, total = MATH[math_name]
            if target is None:
                return None, False
            if not total:
                reasons.append(f"`math.{math_name}` raises outside its domain (or on NaN/overflow) where "
                               f"`jnp.{target}` returns nan or inf")
            call = self.expr(f"{self.jnp}.{target}({', '.join(self.code(a) for a in args)})")
            if math_name in INT_RESULT:
                call = self.expr(f"{self.code(call)}.astype(int)")
            return call, True
        if kind == "item" or kind == scalar:
            return _wrapped(value), False
        if kind == "int" and scalar != "bool" and not at_index:
            reasons.append("`int()` raises on NaN and infinities and does not overflow, while `.astype(int)` "
                           "saturates at the int32 range")
        if scalar is not None or (isinstance(value, cst.Call) and not isinstance(value.func, cst.Name)):
            return self.expr(f"{self.code(_wrapped(value))}.astype({kind})"), False
        return self.expr(f"{self.jnp}.asarray({text}, dtype={kind})"), True
