from __future__ import annotations

import functools
from typing import Optional

import libcst as cst

from codemods import _branch_emit as emit
from codemods import _caller_writes
from codemods._list_inputs import int_fed_parameters
from codemods._purity import branch_numpy, purity, shaped_note, stuck_boolean, value_shaped_read
from codemods._branch_structure import Chain, chain, effect_hint, ends_in_return, exits, shared_update
from codemods._branch_values import (as_float, empty_note, loop_indices,
    attribute_dtype, attribute_indexed, bool_mix, broadcast_risk, empty_reduction, float_split, guarded_division, guarded_index, int_mix, kind_conflict, module_object, object_attribute, param_mix,
    python_ints, return_values, text_return, untraceable_branch,
)
from codemods._where_safety import cheap_and_pure
from jaxfix import walk
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.masks import MaskProvider, function_facts
from jaxfix.analysis.numpy_names import NumpyNameProvider
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.positions import PositionProvider
from jaxfix.analysis.shapes import ShapeProvider, function_shapes
from jaxfix.analysis.static_params import PYTHON_RESULT_METHODS
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, function_tracedness, python_only_test
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class TracedReturn(Rule):
    """
    ## What it does
    Restructures returns that depend on a traced condition into one result: `if p: return a` / `else: return b`
    becomes `return jnp.where(p, a, b)` (element by element for tuples), an `if`/`elif` chain of returns
    `return jnp.select([p0, p1], [a, b], c)`; an early `return` followed by more code, branches that compute before
    returning, and values the shape analysis cannot prove to have one shape become
    `return lax.cond(p, result_if_true, result_if_false, *operands)` where the false function holds the code after
    the `if`.

    ## Why is this bad?
    Under `jax.jit` a Python `if` needs a concrete boolean; a traced condition raises `TracerBoolConversionError`.

    ## Example
    ```python
    def f(x):
        if x < 3:
            return 3.0 * x ** 2
        return -4 * x

    def g(x):
        if x.sum() > 0:
            return x
        return 0.0
    ```

    ## Use instead
    ```python
    def f(x):
        return jnp.where(x < 3, 3.0 * x ** 2, -4 * x)

    def g(x):
        def result_if_true(x):
            return x

        def result_if_false(x):
            return 0.0

        return lax.cond(x.sum() > 0, result_if_true, result_if_false, x)
    ```

    ## Fix safety
    Safe when the condition is traced; unsafe when its tracedness is unknown. Inputs of `log`, `sqrt`, `exp`,
    divisions and fractional powers in a `jnp.where`/`jnp.select` side are guarded where that side is not taken,
    so `jax.grad` stays finite. `jnp.where`/`jnp.select` broadcast their operands, so they are used only when
    every value and condition is 0-d or provably has the shape of the value each path returns (see JX201: in `g`,
    NumPy returns the scalar `0.0` for an array `x`, where `jnp.where` would return `zeros_like(x)`); otherwise
    `lax.cond` raises at trace time when the shapes differ. `lax.cond` needs one dtype too: an int literal returned
    where another path may return a float (`return 0` against `return x`; item by item in tuples, `return -1, -1`
    against `return h, 2 * h`) makes its fix unsafe (write `0.0` if a float is meant), as does a parameter returned as
    it is against another value that may be a float (`return lo` against `return hi / 2.0`: `lo` may be a Python
    int), a value that is a float whatever its inputs against one that stays an integer for integer inputs (`return
    0.5 * (b - a) * h` against `return (b - a) * h`), or a branch calling code
    not known to be pure JAX (see JX201: a NumPy call that JX501 renames only as an unsafe fix, in a module that uses
    `astropy.units`, raises on the tracers `lax.cond` gives it). Reported without a fix: a path that returns a value
    while another returns `None` (falls off the end), branches with side effects or in-place updates, and results
    of different kinds (`None`, strings, lists, tuples of other lengths). An `if` whose test holds a type or
    identity test (`isinstance`, `is`, `is not`, directly or through `and`/`or`/`not`) is Python's and left alone
    (see JX201).

    ## Known problems
    Only an `if` whose every branch ends in `return` is handled; `return`s deep inside loops are left alone. A
    one-element array is treated as 0-d, and `lax.cond` needs equal dtypes (see JX201).
    """

    CODE = "JX202"
    SUMMARY = "`return` under an `if` on a traced value; return one jnp.where / lax.cond result"
    FIX = FixAvailability.SOMETIMES
    # (NumpyNameProvider: `_caller_writes.host_results` reads NumPy names, a dtype or a type test's `np.ndarray`)
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, DataflowProvider, TracednessProvider, ShapeProvider, MaskProvider,
                             NumpyNameProvider, ParentProvider)  # (ParentProvider: `_kept_numpy.kept_reason`)
    ORDER = 40
    TRIGGERS = (b"numpy", b"jax")  # array code only
    _risk: Optional[str] = None  # why the last `jnp.where` candidate became `lax.cond`

    VALID = [
        Valid(  # keys of a module-level dict: Python values, whatever they are computed through (colorspacious)
            "import numpy as np\n\nTABLE = {'a': {90: np.eye(2), 100: np.eye(2)}}\n\ndef f(kind, severity):\n"
            "    low = int(severity - severity % 10)\n    m = np.asarray(TABLE[kind][low])\n    if severity == 100:\n"
            "        return m\n    return 0.5 * m\n"),
        Valid(  # an identity test in the test tells Python values apart: they may be strings (nevergrad)
            "import numpy as np\n\ndef f(value, ref):\n    if value == ref or value is ref:\n        return 0.0\n"
            "    return np.sum(ref) * 1.0\n"),
        Valid("def f(x):\n    if x.ndim == 2:\n        return x.sum(0)\n    return x\n"),
        Valid(  # no sign of arrays, and a parameter read for attributes no array has: an object (dtaidistance's
            # segments), whose values the tests compare in Python; `lax.cond` would be handed the object
            "import numpy as np\n\ndef short(pair, limit):\n    if pair[0].size_of() <= limit:\n        return True\n"
            "    if pair[1].stop - pair[1].start < limit:\n        return True\n    return False\n"),
        Valid("def f(x, y):\n    if x > 0:\n        y = x\n    return y\n"),
        Valid(  # parameters read for attributes only dtypes have (`.kind`): dtypes, which `lax.cond` rejects (pyod)
            "import numpy as np\n\ndef castable(src, dst):\n    if src == dst:\n        return True\n"
            "    return src.kind == dst.kind and src.itemsize <= dst.itemsize\n"),
    ]
    INVALID = [
        Invalid(  # returns rows of a local list of tuple displays: `jnp.where` would make the tuples one array
            "import numpy as np\n\ndef corner(x):\n    corners = [(0, 0), (0, 1)]\n    first = corners[0]\n"
            "    if np.sum(x) > 0:\n        return first\n    return corners[1]\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # items of a module-level dict of names: strings, no arrays (librosa's `display.cmap` returns a
            # matplotlib colormap drawn from such a dict); `lax.cond` raises `TypeError` on them
            "import numpy as np\n\nSTYLES = {'pos': 'solid', 'mix': 'dashed'}\n\ndef style(v, a, b):\n"
            "    lo, hi = np.percentile(v, [5, 95])\n    if lo >= 0:\n        return STYLES[a]\n    return STYLES[b]\n",
            expected=None,
            lines=[7],
        ),
        Invalid(  # the same with library objects in a list (`cm.gray`), chosen by `jnp.where`'s path
            "import numpy as np\nfrom matplotlib import cm\n\nMAPS = [cm.gray, cm.magma]\n\ndef pick(v):\n"
            "    if np.min(v) > 0:\n        return MAPS[0]\n    return MAPS[1]\n",
            expected=None,
            lines=[7],
        ),
        Invalid(  # `return False` against `return 1`: `jnp.where` would return `0` where Python returned `False`
            "import numpy as np\n\ndef f(w):\n    if np.min(w) < 0.0:\n        return False\n    return 1\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # `np.maximum(a - b, 0)` stays an integer for integer inputs, and `np.inf` is a float whatever they are:
            # unsafe as `max(0, a - b)` is, which JX203 rewrites into `jnp.fmax(a - b, 0)` (pymoo's termination delta)
            "import numpy as np\n\ndef gap(a, b):\n    if a == np.inf:\n        return np.inf\n    return np.maximum(a - b, 0)\n",
            expected="import jax\nimport numpy as np\n\ndef gap(a, b):\n    def result_if_true(a, b):\n        return np.inf\n\n"
                     "    def result_if_false(a, b):\n        return np.maximum(a - b, 0)\n\n"
                     "    return jax.lax.cond(a == np.inf, result_if_true, result_if_false, a, b)\n",
            unsafe=True,
        ),
        Invalid(  # the max of a masked read the test keeps from being empty: `jnp.where` evaluates it anyway, and an
            # empty reduction raises (pymoo's step-size search); under `jit` the read has no static shape either
            "import numpy as np\n\ndef step(x):\n    if not np.any(x > 1.0):\n        return 1.0\n    return np.max(x[x > 1.0])\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # the median of a masked read (librosa's estimate_tuning): no reduction raises on an empty selection
            # in NumPy (nan), but JAX's gather does; both branches as `if`/`else`
            "import numpy as np\n\ndef level(v, w):\n    keep = w > 0\n    if keep.any():\n"
            "        return np.median(v[keep])\n    else:\n        return 0.0\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # a branch indexes with what the test compares: the test keeps a Python index in range (pyod)
            "import numpy as np\n\ndef scale(k: int, n, table):\n    if k >= n:\n        return 1.0\n    return table[k] * 2.0\n",
            expected="import jax\nimport numpy as np\n\ndef scale(k: int, n, table):\n    def result_if_true(table):\n"
                     "        return 1.0\n\n    def result_if_false(table):\n        return table[k] * 2.0\n\n"
                     "    return jax.lax.cond(k >= n, result_if_true, result_if_false, table)\n",
            unsafe=True,
        ),
        Invalid(  # the result is handed to a function asserting a NumPy type: the `if` stays (JX501 keeps the arrays)
            "import numpy as np\n\ndef check(v):\n    assert isinstance(v, np.ndarray)\n\ndef make(x):\n    if x > 0:\n"
            "        return np.ones(2)\n    return np.zeros(2)\n\ndef go(x):\n    v = make(x)\n    check(v)\n    return v\n",
            expected=None,
            lines=[7],
        ),
        Invalid(  # a parameter returned as it is against a float: `lo` may be a Python int (fluids' scalar solvers)
            "import numpy as np\n\ndef f(x, lo, hi):\n    if x * hi > lo:\n        return lo\n    h = hi / 2.0\n    return h\n",
            expected="import jax\nimport numpy as np\n\ndef f(x, lo, hi):\n    def result_if_true(lo, hi):\n        return lo\n\n"
                     "    def result_if_false(lo, hi):\n        h = hi / 2.0\n        return h\n\n"
                     "    return jax.lax.cond(x * hi > lo, result_if_true, result_if_false, lo, hi)\n",
            unsafe=True,
        ),
        Invalid(  # module code uses the result as a dict key, which an array cannot be (ase's stress indices)
            "import numpy as np\n\ndef voigt(i, j):\n    if i == j:\n        return i\n    return 6 - i - j\n\n"
            "names = {voigt(i, j): np.eye(3)[i, j] for i in range(3) for j in range(3)}\n",
            expected=None, lines=[4]),
        Invalid(  # the result goes to an `@lru_cache`'d function, which hashes its arguments (galpy's cached tables)
            "import functools\n\nimport numpy as np\n\ndef split(p):\n    if p <= 0.0:\n        return 0.9\n"
            "    return p / 2.0\n\n@functools.lru_cache(maxsize=None)\ndef at_split(c):\n    return np.sqrt(c)\n\n"
            "def run(p):\n    return at_split(split(p))\n",
            expected=None, lines=[6]),
        Invalid(  # a branch returns a function: no array (pylops' backend getters)
            "import numpy as np\nfrom scipy.signal import convolve, fftconvolve\n\ndef pick(x):\n    if np.max(x) > 10:\n"
            "        return fftconvolve\n    return convolve\n",
            expected=None, lines=[5],
        ),
        Invalid(  # `math.factorial` of a negative raises: the `if` guards it, `jnp.where` would evaluate it (pyDOE3)
            "import math\n\ndef f(n, k):\n    if k < 0 or k > n:\n        return 0\n"
            "    return math.factorial(n) // math.factorial(k)\n",
            expected="import math\nimport jax\n\ndef f(n, k):\n    def result_if_true(n, k):\n        return 0\n\n"
                     "    def result_if_false(n, k):\n        return math.factorial(n) // math.factorial(k)\n\n"
                     "    return jax.lax.cond(k < 0 or k > n, result_if_true, result_if_false, n, k)\n",
            unsafe=True, lines=[4],
        ),
        Invalid(  # a branch indexes a Python list with a traced value: `lax.cond` traces it, and the list raises (skfuzzy)
            "def f(x, i):\n    acc = [0.0, 1.0, 2.0]\n    if x[i] > 0:\n        return 0.0\n    return acc[i - 1]\n",
            expected=None, lines=[3],
        ),
        Invalid("def f(x, full):\n    if x.sum() > 0:\n        return x[0], x[1]\n    return x[0] * 2\n", expected=None, lines=[2]),
        Invalid("def f(x):\n    if x.sum() > 0:\n        return 'up'\n    return 'down'\n", expected=None, lines=[2]),
        Invalid(  # a branch gives an operand as a size (`bins=n`): `lax.cond` passes it traced (tsfresh's binned_entropy)
            "import numpy as np\n\ndef spread(x, n):\n    if np.isnan(x).any():\n        return np.nan\n"
            "    counts, edges = np.histogram(x, bins=n)\n    return np.sum(counts * np.diff(edges))\n",
            expected=None, lines=[4]),
        Invalid(  # a value alone against a tuple holding it: other structures, whatever it holds (POT's `if log:`)
            "import numpy as np\n\ndef f(m, log):\n    t = np.exp(-m)\n    log = t.sum() > 1\n    if log:\n"
            "        return t, log\n    else:\n        return t\n", expected=None, lines=[6]),
        Invalid(  # an item against the whole it indexes: another shape, or another structure (pysindy's `result[0]`)
            "def f(x):\n    r = x * 2.0\n    if r.sum() > 0:\n        return r[0]\n    return r\n", expected=None, lines=[3]),
        Invalid(
            "def f(x):\n    if x < 3:\n        return 3.0 * x ** 2\n    return -4 * x\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.where(x < 3, 3.0 * x ** 2, -4 * x)\n",
        ),
        Invalid(  # `True` on one path and `False` on the other is the condition; an item every path gives alike is
            # that item, not `jnp.where(c, w, w)` (which would make a Python number an array)
            "import numpy as np\n\ndef outside(x, lo, hi):\n    w = np.sum(x)\n    if np.any(x < lo) or np.any(x > hi):\n"
            "        return True, w, np.max(x)\n    return False, w, 0.0\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef outside(x, lo, hi):\n    w = np.sum(x)\n"
                     "    return np.any(x < lo) or np.any(x > hi), w, jnp.where(np.any(x < lo) or np.any(x > hi), np.max(x), 0.0)\n",
        ),
        Invalid(
            "def f(x):\n    if x < 0:\n        return 0.0\n    elif x < 1:\n        return x * x\n    return x\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.select([x < 0, x < 1], [0.0, x * x], x)\n",
        ),
        Invalid(
            "def f(x):\n    if x.sum() > 0:\n        return x\n    return 0.0\n",
            expected="import jax\n\ndef f(x):\n    def result_if_true(x):\n        return x\n\n"
                     "    def result_if_false(x):\n        return 0.0\n\n"
                     "    return jax.lax.cond(x.sum() > 0, result_if_true, result_if_false, x)\n",
        ),
        Invalid("def f(x):\n    if x.sum() > 0:\n        return x\n", expected=None, lines=[2]),
        Invalid(  # an int literal against a value of unknown dtype: `lax.cond` raises unless it is an int32 (astropy)
            "import numpy as np\n\ndef f(a, c):\n    d = np.abs(a - c)\n    if a.sum() < c:\n        return d\n    return 0\n",
            expected="import jax\nimport numpy as np\n\ndef f(a, c):\n    d = np.abs(a - c)\n\n    def result_if_true(d):\n"
                     "        return d\n\n    def result_if_false(d):\n        return 0\n\n"
                     "    return jax.lax.cond(a.sum() < c, result_if_true, result_if_false, d)\n",
            unsafe=True,
        ),
        Invalid(  # `0.5 *` makes one return a float; with integer inputs the other stays an integer, and `lax.cond`
            # raises `TypeError` where NumPy returns an int or a float: unsafe (skfuzzy's trapezoid area)
            "import numpy as np\n\ndef area(x1, x2, y1, y2):\n    if y1 == y2:\n        return (x2 - x1) * y1\n"
            "    return 0.5 * (x2 - x1) * y1\n",
            expected="import jax\nimport numpy as np\n\ndef area(x1, x2, y1, y2):\n    def result_if_true(x1, x2, y1):\n"
                     "        return (x2 - x1) * y1\n\n    def result_if_false(x1, x2, y1):\n        return 0.5 * (x2 - x1) * y1\n\n"
                     "    return jax.lax.cond(y1 == y2, result_if_true, result_if_false, x1, x2, y1)\n",
            unsafe=True,
        ),
        Invalid(  # the same item by item: `(-1, -1)` against `(h, h * 2)` (lenstronomy's time-delay consistency check)
            "import numpy as np\n\ndef f(h, d, e):\n    if abs(d - e) / d > 0.01:\n        return -1, -1\n    return h, h * 2\n",
            expected="import jax\nimport numpy as np\n\ndef f(h, d, e):\n    def result_if_true(h):\n        return -1, -1\n\n"
                     "    def result_if_false(h):\n        return h, h * 2\n\n"
                     "    return jax.lax.cond(abs(d - e) / d > 0.01, result_if_true, result_if_false, h)\n",
            unsafe=True,
        ),
        Invalid(  # a unit library in the module: JX501 renames `np.arcsinh` only as an unsafe fix, and NumPy raises on
            # the tracers `lax.cond` gives the branch (lenstronomy's astropy cosmology)
            "import numpy as np\nfrom astropy import units as u\n\ndef f(d, z, k):\n    if k < 0:\n"
            "        return np.arcsinh(d * np.sqrt(-k)) / np.sqrt(-k)\n    return d * z\n",
            expected="import jax\nimport numpy as np\nfrom astropy import units as u\n\ndef f(d, z, k):\n"
                     "    def result_if_true(d, z, k):\n        return np.arcsinh(d * np.sqrt(-k)) / np.sqrt(-k)\n\n"
                     "    def result_if_false(d, z, k):\n        return d * z\n\n"
                     "    return jax.lax.cond(k < 0, result_if_true, result_if_false, d, z, k)\n",
            unsafe=True,
        ),
        Invalid(  # a value of an object's attribute (`m = self.tau`, maybe float32) against a Python float: `lax.cond`
            # rejects branches of different dtypes (float32 against float64 under x64), so the fix is unsafe (sporco)
            'import numpy as np\n\nclass S:\n    def f(self, x, y):\n        m = self.tau\n        if np.sum(x) > np.sum(y):\n            return 1.0 / m\n        return 1.0\n',
            expected='import jax\nimport numpy as np\n\nclass S:\n    def f(self, x, y):\n        m = self.tau\n\n        def result_if_true():\n            return 1.0 / m\n\n        def result_if_false():\n            return 1.0\n\n        return jax.lax.cond(np.sum(x) > np.sum(y), result_if_true, result_if_false)\n',
            unsafe=True,
        ),
        Invalid(  # Python requires `__int__` to return an int: the `if` stays
            "import numpy as np\n\nclass P:\n    def __int__(self):\n        if np.any(self.v > 0):\n            return 1\n"
            "        return 0\n",
            expected=None, lines=[5],
        ),
    ]

    def visit_IndentedBlock(self, block: cst.IndentedBlock) -> None:
        function = self.current_function
        if function is None:
            return
        absorbed: set[cst.If] = set()  # early-return `if`s already part of an earlier `if`'s jnp.select
        for index, stmt in enumerate(block.body):
            if isinstance(stmt, cst.If) and stmt not in absorbed:
                absorbed.update(self._check(function, block, stmt, list(block.body[index + 1 :])))

    @functools.cached_property
    def _host_results(self) -> dict[str, str]:
        """See `_caller_writes.host_results`: functions whose result a caller hashes or writes into."""
        return _caller_writes.host_results(self)

    def _check(self, function: cst.FunctionDef, block: cst.IndentedBlock, node: cst.If, rest: list) -> list[cst.If]:
        """Report `node`; returns the following `if`s that its fix absorbs (see `_early_returns`)."""
        traced = function_tracedness(self, function)
        c = chain(node)
        levels = [traced.of_test(t) for t in c.tests]
        if all(level is Tracedness.STATIC for level in levels) or any(python_only_test(t) for t in c.tests) \
                or not all(ends_in_return(b) for b in c.bodies):
            return []
        test = self.code(c.tests[levels.index(max(levels))]).strip()
        if function.name.value in PYTHON_RESULT_METHODS:
            self.report(node, f"`if` on traced value `{test}` cannot become `lax.cond`: `{function.name.value}` must "
                        "return a Python value (an array there raises `TypeError`); keep the `if`")
            return []
        after = [] if c.has_else else rest
        if not c.has_else and not ends_in_return(rest):
            if block is function.body and not any(_returns(s) for s in rest):
                self.report(node, f"`if` on traced value `{test}` returns a value on one path and falls through to `None` on another: return a value on every path")
            return []
        run, absorbed = _early_returns(c, after, traced)
        scanned = [*(s for i in absorbed for b in chain(i).bodies for s in b), *after[len(absorbed) :]]
        found = exits([*[s for b in c.bodies for s in b], *scanned], lambda t: traced.of(t) is not Tracedness.STATIC)
        if found.loop_exit or found.nested_traced_if:
            return []
        flow = function_flow(self, function)
        found.effect = found.effect or shared_update(flow, node, [*[s for b in c.bodies for s in b], *after])
        if found.effect is not None:
            self.report(node, f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: a branch {found.effect}{effect_hint(found)}")
            return []
        if text_return([*[s for b in c.bodies for s in b], *after]):
            self.report(
                node,
                f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: a branch returns a string, and a "
                "traced condition can only choose between arrays; build the text outside `jit`, or branch on a static "
                "value",
            )
            return []
        kept = self._host_results.get(function.name.value)
        if kept is not None:  # `{voigt_index(i, j): ...}`: ase's stress indices
            self.report(node, f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: {kept}, which a "
                        "Python value allows and an array does not; keep the `if` (and this function outside `jit`)")
            return []
        unsafe = max(traced.of(t) for t in run.tests) is Tracedness.UNKNOWN
        why = "" if not unsafe else " (its tracedness is unknown: if it is static, keep the `if`)"
        ints = python_ints(function, [*run.tests, *(s for b in run.bodies for s in b)])
        if ints is not None:
            unsafe = True
            why += (f" ({ints}: the values may be Python ints, which have no bound; as arrays they are int32 and "
                    "wrap around past 2**31)")
        reduced = empty_reduction(run.tests, [*(s for b in run.bodies for s in b), *after], function_facts(self, function))
        if reduced is not None:
            unsafe = True
            why += empty_note(reduced)
        message = f"`return` under an `if` on traced value `{test}`{why}: Python cannot branch on a traced array under `jit`"
        removals = {s: cst.RemovalSentinel.REMOVE for s in after}
        values = [_single_return(b) for b in [*run.bodies, *([] if c.has_else else [after[len(absorbed) :]])]]
        local = frozenset(flow.params) | flow.writes(list(function.body.body))
        self._risk = None
        shaped = value_shaped_read([*[s for b in c.bodies for s in b], *after], function_facts(self, function))
        if shaped is not None:
            self.report(node, f"`return` under an `if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: "
                        f"{shaped_note(shaped)}")
            return []
        if all(v is not None for v in values):
            text = self._where(node, run, values, local, test)  # type: ignore[arg-type]
            if text == "":
                return []
            if text is not None:
                comments = [*emit.kept_comments(node, True), *(line for i in absorbed for line in emit.kept_comments(i, True)), *_comments(after)]
                new = self.replace_statement(node, emit.with_comments(self.statements(f"return {text}\n"), comments))
                fn = "where" if len(run.tests) == 1 else "select"
                self.report(node, message, changes={node: new, **removals}, unsafe=unsafe, title=f"replace with `return jnp.{fn}(...)`", imports=("jnp",))
                return absorbed
        if absorbed:
            return []  # the following `if`s are rewritten on their own first; this one on the next pass
        if self._risk is not None:
            message += f" (`lax.cond`, not `jnp.where`: {self._risk})"
        untraceable = untraceable_branch(traced, [*[s for b in c.bodies for s in b], *after])
        if untraceable is not None:
            self.report(node, f"`return` under an `if` on traced value `{test}` cannot become `lax.cond`: {untraceable}")
            return []
        ops = emit.operands(node, [*c.bodies, after], [], flow, traced, self.context.module)
        held = branch_numpy(self, [*[s for b in c.bodies for s in b], *after], ops)
        if held is not None and held[1]:
            self.report(node, f"`return` under an `if` on traced value `{test}` cannot become `lax.cond`: {held[0]}")
            return []
        if held is not None:
            unsafe = True
            message += held[0]
        opaque = purity(self).opaque_call([*[s for b in c.bodies for s in b], *after], function, traced.of)
        stuck = stuck_boolean([*c.tests, *(s for b in c.bodies for s in b), *after], lambda e: traced.of(e) is not Tracedness.STATIC,
                              frozenset(flow.params) | flow.writes(list(function.body.body)))
        if stuck is not None:
            unsafe = True
            message += (f" (`{stuck}` stays a Python `and`/`or` (a later operand is not cheap and pure), and in a traced "
                    "branch it raises: rewrite it with `jnp.logical_and`/`logical_or` by hand)")
        indexed = attribute_indexed(traced, [*[s for b in c.bodies for s in b], *after])
        if indexed is not None:
            unsafe = True
            message += (f" (a branch indexes an object's attribute with a traced value (`{indexed.strip()}`): "
                    "it may be a Python list, which rejects the traced index `lax.cond` makes; safe only if it is a JAX array)")
        if opaque is not None:
            unsafe = True
            message += (f" (a branch calls `{opaque}`, which `lax.cond` runs while tracing, whichever branch is taken: "
                        f"safe only if it is pure JAX code{purity(self).kept_note(opaque)})")
        returned = return_values([*[s for b in c.bodies for s in b], *after])
        conflict = kind_conflict(returned)
        if conflict is None:
            conflict = module_object(returned, self.context.module, local, function)
        flag = bool_mix(returned, function_facts(self, function)) if conflict is None else None
        if flag is not None:  # `return False` against `return 3`: `jnp.where` would return `0` for `False`
            conflict = f"a branch returns the bool `{flag[0]}` and another the number `{flag[1]}` (of different dtypes)"
        if conflict is not None:
            self.report(node, f"`if` on traced value `{test}` cannot become `lax.cond`: {conflict}; `lax.cond` needs "
                        "branches that give arrays of one structure")
            return []
        chosen = object_attribute(returned, local)
        if chosen is not None:
            unsafe = True
            message += (f" (a branch returns `{self.code(chosen).strip()}`, an object's attribute, which may hold any Python "
                        "object: `lax.cond` can only return arrays)")
        typed = attribute_dtype(returned, function_facts(self, function), local) if chosen is None else None
        if typed is not None:
            unsafe = True
            message += (f" (a branch returns a value of `{self.code(typed).strip()}`, an object's attribute, whose dtype is "
                        "unknown: `lax.cond` rejects branches of different dtypes (a float32 against a Python float under "
                        "x64), where Python keeps each value's type)")
        literal = int_mix(returned, flow.params, function, function_facts(self, function), unknown=True)
        if literal is not None:
            unsafe = True
            message += (f" (a branch returns the int `{literal}` and another may return a float: `lax.cond` needs one "
                        f"dtype; write `{as_float(literal)}` if a float is meant)")
        elif (mixed := param_mix(returned, flow.params, function, function_facts(self, function),
                                 int_fed_parameters(self.context.module).get(function.name.value, ()))) is not None:
            unsafe = True
            message += (f" (a branch returns the parameter `{mixed[0]}` as it is and another `{mixed[1]}`: if they are "
                        "Python numbers or arrays of different dtypes (an int and a float), `lax.cond` rejects branches "
                        "of different dtypes, where Python keeps each one's type)")
        elif (split := float_split(returned, function_facts(self, function))) is not None:
            unsafe = True
            message += (f" (a branch returns `{split[0]}`, a float whatever its inputs (a float literal, `/` or a float "
                        f"function makes it one), and another `{split[1]}`, which stays an integer if its inputs are "
                        "integers: `lax.cond` then raises `TypeError` (branches of different dtypes), where NumPy gives "
                        "an int on one path and a float on the other; safe only for float inputs)")
        indexed = guarded_index(node.test, [*[s for b in c.bodies for s in b], *after], function_tracedness(self, function),
                                loop_indices(self, node, function_flow(self, function)))
        if indexed is not None:
            unsafe = True
            message += (f" (a branch indexes with a value the test compares, `{indexed}`: `lax.cond` traces every branch, "
                    "and if that index is a Python int out of range, the branch the test rules out raises `IndexError`)")
        divisor = guarded_division(node.test, [*[s for b in c.bodies for s in b], *after])
        if divisor is not None:
            unsafe = True
            message += (f" (a branch divides by `{divisor}`, which the test compares with zero: `lax.cond` traces every "
                        "branch, and if it is a Python number that division raises `ZeroDivisionError`)")
        taken = emit.taken_names(self.context.module, function)
        defs, call = emit.cond_parts(self.lax, node, c, after, ops, None, "result", taken)
        new = emit.laid_out(self, node, function, defs, self.statements(f"return {call}\n"), emit.kept_comments(node, False))
        self.report(node, message, changes={node: new, **removals}, unsafe=unsafe, title="replace with `return lax.cond(...)`", imports=("lax",))
        return []

    def _where(self, node, c, values, local, test) -> Optional[str]:
        """The `jnp.where` text, None when a side is not cheap and pure, "" when refused (reported)."""
        if all(isinstance(v, cst.Tuple) for v in values) and len({len(v.elements) for v in values}) == 1:
            columns = [[v.elements[i].value for v in values] for i in range(len(values[0].elements))]
        else:
            columns = [values]
        for column in columns:
            conflict = kind_conflict(column)
            if conflict is None:
                conflict = module_object(column, self.context.module, local, self.current_function)
            flag = bool_mix(column, function_facts(self, self.current_function)) if conflict is None else None
            if flag is not None:  # `return False` against `return 3`: `jnp.where` would return `0` for `False`
                conflict = (f"a branch returns the bool `{flag[0]}` and another the number `{flag[1]}`, which `jnp.where` "
                            "would make the bool (`lax.cond` rejects branches of different dtypes)")
            if conflict is not None:
                self.report(node, f"`if` on traced value `{test}` cannot become one result: {conflict}")
                return ""
            if not all(cheap_and_pure(v, local) for v in column):
                return None
        shapes = function_shapes(self, self.current_function)
        for column in columns:
            self._risk = broadcast_risk(shapes, c.tests, column, node)
            if self._risk is not None:
                return None  # lax.cond raises at trace time on a shape mismatch; jnp.where would broadcast
        start = self.get_metadata(PositionProvider, node).start.column
        parts = [emit.selection_text(self.jnp, c.tests, column, start, len("return ")) for column in columns]
        return parts[0] if len(columns) == 1 and not isinstance(values[0], cst.Tuple) else ", ".join(parts)


def _early_returns(c: Chain, after: list, traced) -> tuple[Chain, list[cst.If]]:
    """`if p: return a` / `if q: return b` / `return c` is the chain `if p: ... elif q: ... else: return c`: the
    chain extended by the traced `if`s (without `else`, every branch a single `return`) that follow `c` and end in
    a single `return`, and those `if`s; `c` and [] when there are none or the statements after them are more."""
    tests, bodies, absorbed = list(c.tests), list(c.bodies), []
    rest = list(after)
    while not c.has_else and rest and isinstance(rest[0], cst.If):
        nxt = chain(rest[0])
        if nxt.has_else or all(traced.of(t) is Tracedness.STATIC for t in nxt.tests) or any(python_only_test(t) for t in nxt.tests) \
                or any(_single_return(b) is None for b in nxt.bodies):
            break
        tests += nxt.tests
        bodies += nxt.bodies
        absorbed.append(rest.pop(0))
    if not absorbed or _single_return(rest) is None:
        return c, []
    return Chain(tests, bodies), absorbed


def _comments(statements: list) -> list[cst.EmptyLine]:
    return [line for s in statements for line in s.leading_lines if line.comment is not None]


def _single_return(body: list) -> Optional[cst.BaseExpression]:
    if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1:
        ret = body[0].body[0]
        if isinstance(ret, cst.Return):
            return ret.value if ret.value is not None else cst.Name("None")
    return None


def _returns(stmt: cst.CSTNode) -> bool:
    found = []

    class Visitor(cst.CSTVisitor):
        def visit_Return(self, n: cst.Return) -> None:
            found.append(n)

        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return False

    walk.visit(stmt, Visitor())
    return bool(found)
