from __future__ import annotations

from typing import Optional

import libcst as cst


from codemods import _branch_emit as emit
from codemods import _caller_writes
from codemods._boolean_operands import boolean, leaves
from codemods._branch_values import as_float, empty_note, loop_indices, attribute_dtype, bool_mix, broadcast_risk, empty_reduction, float_split, guarded_division, guarded_index, int_mix, kind_conflict, object_attribute, python_ints
from codemods._host_values import counted
from codemods._purity import shaped_note, value_shaped_read
from codemods._python_builtins import BUILTINS, RAISED_BY_BUILTINS, fold, formatted
from codemods._where_safety import cheap_and_pure
from jaxfix import walk
from jaxfix.analysis.activity import analyse
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.host_use import HOST_USE_DEPENDENCIES, python_value_use
from jaxfix.analysis.masks import MaskProvider, function_facts
from jaxfix.analysis.parents import ParentProvider, caught_around, iteration_fallback, number_guarded
from jaxfix.analysis.positions import PositionProvider
from jaxfix.analysis.shapes import ShapeProvider, function_shapes
from jaxfix.analysis.static_args import sized_results
from jaxfix.analysis.static_params import PYTHON_RESULT_METHODS
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, function_tracedness, python_only_test
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class TracedExpression(Rule):
    """
    ## What it does
    Rewrites Python expressions that need a concrete value when an operand is traced: `a if p else b` ->
    `jnp.where(p, a, b)`; `p and q`, `p or q`, `not p` -> `jnp.logical_and/or/not`; chained comparisons
    `lo < x < hi` -> `jnp.logical_and(lo < x, x < hi)`; builtins `max`, `min`, `round` -> `jnp.maximum`,
    `jnp.minimum`, `jnp.round(x).astype(int)` (builtin `abs` is left: a traced array's `__abs__` is `jnp.abs`, and it
    keeps working on sparse matrices) (`max(x)` of one array -> `jnp.max(x)`). `max`/`min` keep Python's
    NaN behaviour (`max(a, b)` is `b if b > a else a`): `max(x, 0.0)` -> `jnp.maximum(x, 0.0)`, `max(0.0, x)` ->
    `jnp.fmax(x, 0.0)`, `max(x, y)` -> `jnp.where(y > x, y, x)`.

    ## Why is this bad?
    Each of these calls `bool()` on a traced value under `jax.jit` and raises `TracerBoolConversionError`.

    ## Example
    ```python
    def f(x, y):
        ok = x > 0 and y > 0
        return max(x, y) if ok else 0.0
    ```

    ## Use instead
    ```python
    def f(x, y):
        ok = jnp.logical_and(x > 0, y > 0)
        return jnp.where(ok, jnp.where(y > x, y, x), 0.0)
    ```

    ## Fix safety
    Safe when the operand is traced. Ternary sides are guarded like JX201's (`log`, `sqrt`, division ... get a
    harmless input where their side is not taken) so gradients stay finite. `jnp.where` broadcasts, so it is used
    only when both sides are 0-d or provably of one shape (see JX201); otherwise the fix is the safe
    `lax.cond(p, lambda: a, lambda: b)`, which raises at trace time when the shapes differ (`x if x.sum() > 0
    else 0.0`: NumPy gives the scalar for an array `x`, `jnp.where` would give `zeros_like(x)`). A side that is not
    cheap and pure becomes that `lax.cond` as an unsafe fix, and so does one with an int literal against a side not
    provably an int (`0 if np.isnan(v) else v`: `lax.cond` needs one dtype; write `0.0`), or a side that is a float
    whatever its inputs against one that stays an integer for integer inputs (`(b - a) / 2` against `(b - a) * h`). Sides of different kinds
    (`None`, strings) are reported without a fix. `and`/`or` are rewritten only on boolean operands
    (comparisons, `not`, `isnan`, ..., a conditional expression between them); leading static operands keep Python's short-circuit
    (`x is not None and jnp.logical_and(...)`), so a guard such as `is not None` still protects what follows. A ternary whose test, or an `and`/`or` one of whose
    operands, holds a type or identity test (`isinstance`, `is`, `is not`) is left alone: such code tells Python
    values apart (`value == ref or value is ref` on strings), so its other operands need not be arrays either.
    In the `except` handler (of `TypeError`, or bare) of a `try` that iterates a value (`for i in k`, `len(k)`), an
    expression on that value is on what could not be iterated, by design a Python number: its fix is unsafe
    (`try: [i % n for i in k]`, `except TypeError: k % n if k < 0 else k`). A function whose result code of the
    module hashes (a dict key, `{0: "r"}[f(x)]`), serializes or tests by identity keeps its Python form (reported).
    `not x` of a value that is not a boolean expression, as the test of an `if` or `while`, is left to JX201 /
    JX221, which rewrite the whole statement (and this rule then the test where it lands): where they cannot, a
    `jnp.logical_not` in a Python `if` would gain nothing under `jit` and break the call on a `None` or a dict.

    ## Known problems
    A one-element array is treated as 0-d (see JX201). `round(x)` becomes `jnp.round(x).astype(int)`, an unsafe
    fix: an int like Python's, but int32 (without x64) where Python's int has no bound. `round(x, n)` becomes
    `jnp.round(x, n)`, an unsafe fix too: Python rounds a float's exact decimal value, `jnp.round` scales and
    rounds half to even, so the last kept digit can differ (`round(8.70135, 4)`: 8.7013 against 8.7014). A
    builtin whose result goes straight into text (`"{}".format(round(x, 4))`, an f-string, `str`, `print`) is left
    alone.
    Parameters are taken for traced arrays (the Sharp Bits' `if x < 3:` has no other sign of one): called outside `jit`
    with Python numbers, the rewritten function gives 0-d JAX arrays, which are not hashable nor JSON-serialisable,
    give `inf` where Python raises `ZeroDivisionError`, and wrap at the int bound where Python's ints grow.
    """

    CODE = "JX203"
    SUMMARY = "ternary, and/or/not, chained comparison or max/min/round on a traced value"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, *HOST_USE_DEPENDENCIES, DataflowProvider, TracednessProvider, ShapeProvider,
                             ParentProvider, MaskProvider)
    ORDER = 30
    TRIGGERS = (b"numpy", b"jax")  # array code only: plain Python modules are not migrated

    VALID = [
        Valid(  # the host's CPU count and joblib's `n_jobs` are Python ints, and so is what a helper of them returns
            # (pyod's `_get_n_jobs`)
            "import numpy as np\nfrom multiprocessing import cpu_count\n\ndef workers(n_jobs):\n    if n_jobs < 0:\n"
            "        return max(cpu_count() + 1 + n_jobs, 1)\n    return n_jobs\n\ndef split(x, n_jobs):\n"
            "    n = min(workers(n_jobs), len(x))\n    return np.array_split(x, n)\n"),
        Valid(  # parameters annotated as dtypes: Python values, whose test Python decides (pyod's dtype checks)
            "import numpy as np\n\ndef common(a: np.dtype, b: np.dtype, x):\n    return x.astype(a) if a == b else x\n"),
        Valid(  # a count or a bound is a Python int by definition (python-control's `_deriv`: `range(max(i, k), n + 1)`)
            "import numpy as np\n\ndef f(i, k, n, u, x):\n    s = np.sum(x[:min(k, n)])\n"
            "    return s + sum(np.power(u, j) for j in range(max(i, k), n + 1))\n"),
        # `enumerate` counts in Python: `j != i` compares two ints (numpy-ml's Multiply layer)
        Valid("def f(gs, xs):\n    for i, x in enumerate(xs):\n        gs = [g * x if j != i else g for j, g in enumerate(gs)]\n    return gs\n"),
        Valid("def f(x, n: int):\n    k = 1 if n > 2 else 2\n    return x * max(n, k)\n"),
        Valid("def f(x, y=None):\n    return y is not None and x.ndim == 2\n"),
        Valid("def f(x):\n    return x.sum() > 0 and x\n"),
        # an identity test among the operands tells Python values apart: they may be strings (nevergrad)
        Valid("import numpy as np\n\ndef f(value, ref):\n    return 0.0 if value == ref or value is ref else np.sum(ref)\n"),
        Valid("import numpy as np\n\ndef f(value, ref):\n    return np.sum(ref) > 0 and (value == ref or value is ref)\n"),
        Valid("import numpy as np\ndef f(x, maxpts):\n    if not maxpts:\n        maxpts = 1000\n    return np.sum(x) * maxpts\n"),
        Valid("import numpy as np\ndef f(names, fixed, x):\n    done = not set(names).difference(fixed)\n    return done, np.sum(x)\n"),
        Valid("import numpy as np\n\ndef f(n, nbr, u, v, w):\n    enodes = {u, v}\n    if n not in enodes or nbr not in enodes:\n        return np.sum(w)\n    return None\n"),
        Valid(  # NumPy imported only inside functions (networkx style): the others are plain Python
            "def ordered(u, v):\n    return (u, v) if u < v else (v, u)\n\ndef spectrum(G):\n    import numpy as np\n    return np.sum(G)\n"
        ),
        Valid("import numpy as np\n\ndef f(val, proceed):\n    return val[proceed] if getattr(val, \"ndim\", 0) > 0 else np.asarray(val)\n"),
        Valid("import numpy as np\n\ndef f(A, x):\n    return abs(A) @ x + np.sum(x)\n"),
        Valid(  # text needs concrete values anyway, and a float32 `jnp.round` prints other digits (pvlib's query)
            "import numpy as np\n\ndef f(lat, df):\n    q = \"[{}]\".format(round(lat, 4))\n    return q, f\"{round(lat)}\", np.sum(df)\n"
        ),
        Valid(  # an `assert` calls bool() on its test: `jnp.logical_and` there fails under `jit` all the same
            "import numpy as np\n\ndef pick(x, p, k):\n    assert 1 <= p <= 2 and not np.isnan(p), \"bad p\"\n    return np.sort(x)[:k] * p\n"
        ),
        Valid(  # an `if` test is JX201's: where the statement stays Python, `jnp.logical_or` in it gains nothing
            "import numpy as np\n\ndef check(x, lo):\n    if lo < 0 or np.sum(x) < lo:\n        raise ValueError(\"bad\")\n    return np.sum(x)\n"
        ),
        Valid(  # `self - other` is the class's `__sub__`: an object whose truth is its `__bool__` (fluids' chebfun)
            "import numpy as np\nclass F:\n    def __bool__(self):\n        return bool(np.any(self.v))\n"
            "    def __eq__(self, other):\n        return not (self - other)\n    def __ne__(self, other):\n        return not (self == other)\n"
        ),
        Valid(  # under `isinstance(k, int)`, `k` is a Python int: `min` stays a Python int, a slice bound (pydmd's rank)
            "import numpy as np\n\ndef f(s, k):\n    rank = s.size\n    if k >= 1 and isinstance(k, int):\n        rank = min(k, s.size)\n"
            "    return s[:rank] * np.sum(s)\n"
        ),
    ]
    INVALID = [
        Invalid(  # a masked read on one side: `jnp.where` reads it whatever the test, and JAX's read of an empty
            # selection raises (librosa's estimate_tuning); under `jit` it has no static shape
            "import numpy as np\n\ndef level(v, w):\n    keep = w > 0\n    return np.median(v[keep]) if keep.any() else 0.0\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # the entries of a dict every call passes (deap's non-dominated sorting: `front =
            # dict.fromkeys(fits, 0)`, then a helper doing `front[s] = max(front[s], front[b] + 1)`): maybe Python
            # ints, which `jnp.where` would turn into JAX arrays in the caller's dict (unhashable, 0-d): unsafe
            "import numpy as np\n\ndef rank(fits):\n    front = dict.fromkeys(fits, 0)\n    bump(front, fits[0], fits[1])\n"
            "    return front, np.sum(fits)\n\ndef bump(front, s, b):\n    front[s] = max(front[s], front[b] + 1)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef rank(fits):\n    front = dict.fromkeys(fits, 0)\n"
                     "    bump(front, fits[0], fits[1])\n    return front, np.sum(fits)\n\ndef bump(front, s, b):\n"
                     "    front[s] = jnp.where(front[b] + 1 > front[s], front[b] + 1, front[s])\n",
            unsafe=True,
            lines=[9],
        ),
        Invalid(  # ... also given by code at module level, a name bound only to a dict display there
            "import numpy as np\n\ndef bump(front, s, b):\n    front[s] = max(front[s], front[b] + 1)\n    return np.sum(b)\n\n"
            "if __name__ == '__main__':\n    f = {'a': 0, 'b': 2}\n    bump(f, 'a', 'b')\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef bump(front, s, b):\n"
                     "    front[s] = jnp.where(front[b] + 1 > front[s], front[b] + 1, front[s])\n    return np.sum(b)\n\n"
                     "if __name__ == '__main__':\n    f = {'a': 0, 'b': 2}\n    bump(f, 'a', 'b')\n",
            unsafe=True,
            lines=[4],
        ),
        Invalid(  # the choice is then looked up in a module's dict by `.get`: a JAX array is unhashable
            "import numpy as np\n\nTEXT = {0: 'fine', 3: 'overflow'}\n\ndef status(a):\n    code = 3 if np.isinf(a) else 0\n"
            "    return TEXT.get(code)\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # a bool against a number: `jnp.where` would give `0` where Python gave `False`
            "import numpy as np\n\ndef f(w):\n    s = False if np.min(w) < 0.0 else len(w)\n    return s\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # `np.where(a > b, a - b, 0)` is an integer for integer inputs, `np.inf` a float
            "import numpy as np\n\ndef gap(a, b):\n    return np.inf if np.isinf(a) else np.where(a > b, a - b, 0)\n",
            expected="import jax\nimport numpy as np\n\ndef gap(a, b):\n"
                     "    return jax.lax.cond(np.isinf(a), lambda: np.inf, lambda: np.where(a > b, a - b, 0))\n",
            unsafe=True,
        ),
        Invalid(  # an argmax of a masked read, guarded by the test against an empty selection
            "import numpy as np\n\ndef first(v, m):\n    return np.argmax(v[m]) if m.any() else -1\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef first(v, m):\n    return jnp.where(m.any(), np.argmax(v[m]), -1)\n",
            unsafe=True,
        ),
        Invalid(  # an item of a masked read: empty where the test is False, so the item raises `IndexError`, and a
            # masked read cannot be traced in `lax.cond` (nilearn's fdr threshold): reported, not rewritten
            "import numpy as np\n\ndef cut(v, t):\n    m = v > t\n    return v[m][-1] - 0.5 if m.any() else np.inf\n",
            expected=None,
        ),
        Invalid(  # the same with `m` a parameter, maybe an index array: `lax.cond` can trace the read, but its item
            # raises where `m` selects nothing
            "import numpy as np\n\ndef cut(v, m):\n    return v[m][-1] - 0.5 if m.any() else np.inf\n",
            expected="import jax\nimport numpy as np\n\ndef cut(v, m):\n"
                     "    return jax.lax.cond(m.any(), lambda: v[m][-1] - 0.5, lambda: np.inf)\n",
            unsafe=True,
        ),
        Invalid(  # the first index a mask selects: none when it is all False
            "import numpy as np\n\ndef first(m):\n    return np.flatnonzero(m)[0] if np.any(m) else -1\n",
            expected=None,
        ),
        Invalid(  # Python skips the min where the selection is empty; `jnp.logical_and` would not
            "import numpy as np\n\ndef positive(v, m):\n    return np.any(m) and v[m].min() > 0\n",
            expected=None,
        ),
        Invalid(  # a side indexes with what the test compares: the test keeps a Python index in range, and `lax.cond`
            # traces both sides (pyod's `n_output if i == num_layers else n_hidden[i]`)
            "import numpy as np\n\ndef scale(k: int, n, table):\n    return table[k - 1] if k > 0 and k <= n else 0.0\n",
            expected="import jax\nimport numpy as np\n\ndef scale(k: int, n, table):\n"
                     "    return jax.lax.cond(k > 0 and k <= n, lambda: table[k - 1], lambda: 0.0)\n",
            unsafe=True,
        ),
        Invalid(  # the second operand chooses between two truth tests: a truth test too, so the `and` converts; left
            # as a Python `and`, it raised once a `lax` loop made its first operand traced (galpy's series, JX223)
            "import jax.numpy as jnp\n\ndef f(x, y, scalar):\n    ok = jnp.sum(x) > 0 and ((y > 0) if scalar else jnp.all(y > 0))\n"
            "    return ok\n",
            expected="import jax.numpy as jnp\n\ndef f(x, y, scalar):\n"
                     "    ok = jnp.logical_and(jnp.sum(x) > 0, ((y > 0) if scalar else jnp.all(y > 0)))\n    return ok\n",
        ),
        Invalid(  # a method of a local array is pure, as the branch rules take it (nodepy's absolute monotonicity)
            "import jax.numpy as jnp\n\ndef f(b, tol):\n    v = jnp.dot(b, b)\n    ok = b.min() < -tol or v.min() < -tol\n    return ok\n",
            expected="import jax.numpy as jnp\n\ndef f(b, tol):\n    v = jnp.dot(b, b)\n"
                     "    ok = jnp.logical_or(b.min() < -tol, v.min() < -tol)\n    return ok\n",
        ),
        Invalid(  # `True if ... else False`: a Python bool for host code (pingouin's normality tables)
            "import numpy as np\n\ndef f(x, alpha):\n    p = np.mean(x)\n    return {'normal': True if p > alpha else False}\n",
            expected=None, lines=[5],
        ),
        Invalid(  # the result goes to an `@lru_cache`'d function, which hashes its arguments (galpy's cached tables)
            "import functools\n\nimport numpy as np\n\ndef split(p):\n    return min(p + 1.0, 0.9)\n\n"
            "@functools.lru_cache(maxsize=None)\ndef at_split(c):\n    return np.sqrt(c)\n\n"
            "def run(p):\n    return at_split(split(p))\n",
            expected=None, lines=[6]),
        Invalid(  # the handler runs when `min` meets arrays (an ambiguous truth value); `jnp.minimum` never raises
            "def f(a, b):\n    try:\n        return min(a.sum(), b)\n    except ValueError:\n        return a\n",
            expected="import jax.numpy as jnp\n\ndef f(a, b):\n    try:\n        return jnp.minimum(a.sum(), b)\n    except ValueError:\n        return a\n",
            unsafe=True,
        ),
        Invalid("def f(x, y):\n    r = [x.sum(), y.sum()]\n    return min(r)\n",
                expected="import jax.numpy as jnp\n\ndef f(x, y):\n    r = [x.sum(), y.sum()]\n    return jnp.min(jnp.asarray(r))\n",
                unsafe=True),  # Python's `min` over items is not NaN-exact as `jnp.min`, and takes any iterable
        Invalid(  # Python rounds the exact decimal (8.7013), `jnp.round` scales first (8.7014): scikit-spatial's roots
            "import numpy as np\n\ndef f(a, n):\n    return round(a, 4) * np.sqrt(n)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(a, n):\n    return jnp.round(a, 4) * np.sqrt(n)\n",
            unsafe=True, lines=[4],
        ),
        Invalid("def f(xs):\n    return max(v.sum() for v in xs)\n", expected=None, lines=[2]),
        Invalid("def f(x):\n    return 'up' if x.sum() > 0 else 'down'\n", expected=None, lines=[2]),
        Invalid(
            "def f(x):\n    return x if x > 0 else -x\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.where(x > 0, x, -x)\n",
        ),
        Invalid(
            "def f(x):\n    return x if x.sum() > 0 else 0.0\n",
            expected="import jax\n\ndef f(x):\n    return jax.lax.cond(x.sum() > 0, lambda: x, lambda: 0.0)\n",
        ),
        Invalid(
            "def f(x, y):\n    return x > 0 and y > 0\n",
            expected="import jax.numpy as jnp\n\ndef f(x, y):\n    return jnp.logical_and(x > 0, y > 0)\n",
        ),
        Invalid(
            "def f(x, y):\n    return max(x, y, 0.0)\n",
            expected="import jax.numpy as jnp\n\ndef f(x, y):\n    return jnp.maximum(jnp.where(y > x, y, x), 0.0)\n",
        ),
        Invalid(  # Python keeps the constant when `p` is NaN; jnp.fmax does too, jnp.maximum would not
            "import numpy as np\n\ndef f(x):\n    p = x.sum() / x.size\n    return max(0.0, min(p, 1.0))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    p = x.sum() / x.size\n    return jnp.fmax(jnp.minimum(p, 1.0), 0.0)\n",
        ),
        Invalid(  # jnp.where would make the real side complex too
            "import numpy as np\n\ndef f(c):\n    c = c + 0j if np.any(c < 0) else c\n    return np.log(c)\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # a method of self may return a Python bool: the jnp form is only an unsafe fix
            "import numpy as np\nclass P:\n    def __ne__(self, other):\n        return not self.__eq__(other)\n    def f(self, x):\n        return np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nclass P:\n    def __ne__(self, other):\n        return jnp.logical_not(self.__eq__(other))\n    def f(self, x):\n        return np.sum(x)\n",
            unsafe=True,
            lines=[4],
        ),
        Invalid(  # a library's function given the object itself (pyfar's `deepdiff.DeepDiff(self, other)`): its
            # result is a Python object (a dict), whose truth `jnp.logical_not` cannot take; only an unsafe fix
            "import numpy as np\nimport objdiff\nfrom objdiff import differ\nclass P:\n    def __init__(self, v):\n        self.v = np.asarray(v)\n"
            "    def __eq__(self, other):\n        return not objdiff.report(self, other)\n"
            "    def similar(self, other, tol):\n        return not differ(other, self, tol)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\nimport objdiff\nfrom objdiff import differ\nclass P:\n    def __init__(self, v):\n        self.v = np.asarray(v)\n"
                     "    def __eq__(self, other):\n        return jnp.logical_not(objdiff.report(self, other))\n"
                     "    def similar(self, other, tol):\n        return jnp.logical_not(differ(other, self, tol))\n",
            unsafe=True,
            lines=[8, 10],
        ),
        Invalid(  # the function's result is a size where the module uses it (pyfar's `max(1, (n_bins - 1) * 2)`, the
            # `n=` of `irfft`): a Python int, which `jnp.fmax` would make a 0-d array (traced under `jit`); reported
            "import numpy as np\n\ndef frame_count(total, hop):\n    return max(1, (total - hop) // hop + 1)\n\n"
            "def frames(x, hop):\n    n = frame_count(x.shape[0], hop)\n    return np.zeros((n, 4)) + np.sum(x)\n\n"
            "def spectrum_length(bins):\n    size = max(2, bins * 2 - 2)\n    return size\n\n"
            "def spectrum(s):\n    return np.fft.irfft(s, spectrum_length(s.shape[-1]))\n",
            expected=None,
            lines=[4, 11],
        ),
        Invalid(  # a caller tests that the result is a Python bool, which a JAX array is not (fluids' is_monotonic)
            "import numpy as np\n\ndef f(x, y):\n    return not (np.sum(x) > y)\n\nr = f([1.0], 0.0)\nassert isinstance(r, bool)\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # the result indexes a Python list: a traced choice cannot
            "import numpy as np\n\ndef f(x, tol):\n    ier = 1 if np.abs(x).max() > tol else 2\n    msgs = [\"a\", \"big\", \"fine\"]\n    return x * 2, msgs[ier]\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # the test guards a division: `lax.cond` traces both sides, a Python zero raises (numpy-ml's n-grams)
            "import numpy as np\n\ndef f(c, k, K):\n    n = c.get(k, 0) + K\n    d = c.get(k[:-1], 0) + K\n"
            "    return np.log(n / d) if d != 0 else -np.inf\n",
            expected="import jax\nimport numpy as np\n\ndef f(c, k, K):\n    n = c.get(k, 0) + K\n    d = c.get(k[:-1], 0) + K\n"
                     "    return jax.lax.cond(d != 0, lambda: np.log(n / d), lambda: -np.inf)\n",
            unsafe=True,
            lines=[6],
        ),
        Invalid(  # an object's attribute may be any Python object (a tree node, numpy-ml's ball tree): unsafe
            "import numpy as np\n\ndef f(x, root):\n    first = root.left if np.sum(x) > 0 else root.right\n    return first.centroid\n",
            expected="import jax\nimport numpy as np\n\ndef f(x, root):\n"
                     "    first = jax.lax.cond(np.sum(x) > 0, lambda: root.left, lambda: root.right)\n    return first.centroid\n",
            unsafe=True,
            lines=[4],
        ),
        Invalid(  # the chosen value is called: a function, never an array
            "import numpy as np\n\ndef f(a, n):\n    ufunc = np.sin if n % 2 == 0 else np.cos\n    return ufunc(a)\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # the truth of a parameter: a list or None tests emptiness, `jnp.logical_not` works elementwise
            "import numpy as np\n\ndef f(x, flags):\n    return int(not flags) + np.sum(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, flags):\n    return int(jnp.logical_not(flags)) + np.sum(x)\n",
            unsafe=True,
            lines=[4],
        ),
        Invalid(  # `/` makes one side a float; with integer inputs the other stays an integer, and `lax.cond` raises
            # `TypeError` where NumPy gives an int or a float: unsafe (skfuzzy's trapezoid area)
            "import numpy as np\n\ndef area(x1, x2, y1, y2):\n    return (x2 - x1) * y1 if y1 == y2 else (x2 - x1) / 2\n",
            expected="import jax\nimport numpy as np\n\ndef area(x1, x2, y1, y2):\n"
                     "    return jax.lax.cond(y1 == y2, lambda: (x2 - x1) * y1, lambda: (x2 - x1) / 2)\n",
            unsafe=True,
        ),
        Invalid(  # an int literal against a value of unknown dtype: `lax.cond` raises unless it is an int32 (colour's spow)
            "import numpy as np\n\ndef f(a, p):\n    v = np.abs(a) ** p\n    return 0 if np.isnan(v).any() else v\n",
            expected="import jax\nimport numpy as np\n\ndef f(a, p):\n    v = np.abs(a) ** p\n"
                     "    return jax.lax.cond(np.isnan(v).any(), lambda: 0, lambda: v)\n",
            unsafe=True,
        ),
        Invalid(  # a value of an object's attribute (`m = self.tau`, maybe a float32) against a Python float: float32
            # against float64 under x64, which `lax.cond` rejects (sporco's penalty update)
            'import numpy as np\n\nclass S:\n    def f(self, x, y):\n        m = self.tau\n        return 1.0 / m if np.sum(x) > np.sum(y) else 1.0\n',
            expected='import jax\nimport numpy as np\n\nclass S:\n    def f(self, x, y):\n        m = self.tau\n        return jax.lax.cond(np.sum(x) > np.sum(y), lambda: 1.0 / m, lambda: 1.0)\n',
            unsafe=True,
        ),
        Invalid(  # the `except` of a `try` that iterated `k` runs for a Python number: the `jnp` form is unsafe
            # (spectral's `_fix_negative_indices`, whose int result a caller used as a dict key)
            "import numpy as np\n\ndef shift(k, n):\n    try:\n        return np.array([j + n if j < 0 else j for j in k])\n"
            "    except TypeError:\n        return k + n if k < 0 else k\n",
            expected="import jax\nimport numpy as np\n\ndef shift(k, n):\n    try:\n"
                     "        return np.array([j + n if j < 0 else j for j in k])\n"
                     "    except TypeError:\n        return jax.lax.cond(k < 0, lambda: k + n, lambda: k)\n",
            unsafe=True, lines=[7],
        ),
        Invalid(  # a caller looks the result up in a dict display: an array is unhashable (spectral's band labels)
            "import numpy as np\n\ndef side(v, t):\n    return 1 if np.sum(v) > t else 0\n\n"
            "def label(v, t):\n    return {0: 'low', 1: 'high'}[side(v, t)]\n",
            expected=None, lines=[4],
        ),
        Invalid(  # Python requires `__bool__` to return a bool: no `jnp` form there, whatever the value
            "import numpy as np\n\nclass P:\n    def __bool__(self):\n        return not np.any(self.v)\n",
            expected=None, lines=[5],
        ),
    ]

    def __init__(self, context) -> None:
        super().__init__(context)
        self._inner: set[cst.BooleanOperation] = set()
        self._tests: set[cst.CSTNode] = set()  # inside an `if`/`while` test: JX201/JX221 rewrite the statement
        self._module_names = analyse(list(context.module.body)).writes

    def _level(self, node: cst.CSTNode) -> Tracedness:
        return function_tracedness(self, self.current_function).of(node)  # type: ignore[arg-type]

    def _fix(self, node, message, text, title, imports=("jnp",), unsafe=False, level=Tracedness.TRACED) -> None:
        """`level`: how traced the operands are; UNKNOWN (an object's attribute, an unknown function's result) makes
        the fix unsafe: on Python numbers the `jnp` form changes the type (and an int product may overflow int32)."""
        name = self.current_function.name.value  # type: ignore[union-attr]
        if name in PYTHON_RESULT_METHODS:  # (Python calls it on concrete objects, outside any trace)
            self.report(node, f"{message}; but `{name}` must return a Python value (an array there raises `TypeError`): "
                        "keep the Python form")
            return
        sized = self._sized(node)
        if sized is not None:  # pyfar's `return n if complex_ else max(1, (n - 1) * 2)`, `irfft(spec, n=...)` of it
            self.report(node, f"{message}; but this function's result is a Python int where the module uses it: "
                        f"{sized}, which must be concrete under `jit`; keep the Python form (and the value static)")
            return
        kept = _caller_writes.host_results(self).get(name)
        if kept is not None:  # `at_split(split(p))` of an `@lru_cache`'d `at_split`: galpy's `min(p + 1.0, 0.9)`
            self.report(node, f"{message}, and its `jnp` form would make this function's result an array: {kept}, "
                        "which a Python value allows and an array does not; keep the Python form (and this function "
                        "outside `jit`)")
            return
        if level is Tracedness.UNKNOWN:
            unsafe = True
            message += " (its tracedness is unknown: if the values are Python numbers, keep the Python form)"
        fallback = sorted(iteration_fallback(self, node) & walk.name_values(node))
        if fallback and not unsafe:  # `try: [i % n for i in idx]`, `except TypeError: idx % n if ... else ...`
            unsafe = True
            message += (f" (unsafe: this `except` runs when the `try` could not iterate `{fallback[0]}`, there for a "
                        "Python number, whose result the `jnp` form would make a JAX array (unhashable, and shown as "
                        "`Array(...)`); keep the Python form unless it is a 0-d array under `jit`)")
        self.report(node, message, replacement=self.expr(text).with_changes(lpar=node.lpar, rpar=node.rpar), title=title, imports=imports, unsafe=unsafe)

    def _sized(self, node: cst.CSTNode) -> Optional[str]:
        """How a function of the module uses the current top-level function's result as a size (`static_args.
        sized_results`), when `node` is part of what it returns (directly, or through a local name returned), else
        None."""
        function = self.current_function
        cache = self.context.__dict__
        if "_sized_results" not in cache:
            cache["_sized_results"] = sized_results(self.context.module)
        how = cache["_sized_results"].get(function.name.value)  # type: ignore[union-attr]
        if how is None or not any(function is s for s in self.context.module.body):
            return None
        returned = [r.value for r in walk.nodes_of(function.body, cst.Return) if r.value is not None]  # type: ignore[union-attr, attr-defined]
        names = {n.value for r in returned for n in walk.nodes_of(r, cst.Name)}  # type: ignore[attr-defined]
        returned += [a.value for a in walk.nodes_of(function.body, cst.Assign)  # type: ignore[union-attr, attr-defined]
                     if any(isinstance(t.target, cst.Name) and t.target.value in names for t in a.targets)]  # type: ignore[attr-defined]
        return how if any(node is inner for value in returned for inner in walk.nodes(value)) else None

    def visit_IfExp(self, node: cst.IfExp) -> None:
        if self.current_function is None or self._level(node.test) is Tracedness.STATIC or python_only_test(node.test):
            return  # (a type or identity test in the condition: its values may be strings, None, objects)
        test_level = function_tracedness(self, self.current_function).of_test(node.test)
        test = self.code(node.test).strip()
        message = f"conditional expression on traced value `{test}`: Python cannot choose under `jit`"
        conflict = kind_conflict([node.body, node.orelse])
        flag = bool_mix([node.body, node.orelse], function_facts(self, self.current_function)) if conflict is None else None
        if flag is not None:  # `False if c else 2`: `jnp.where` would give `0` for `False`
            conflict = (f"one side is the bool `{flag[0]}` and the other the number `{flag[1]}`, which `jnp.where` would "
                        "make the bool")
        if conflict is not None:
            self.report(node, f"{message}, and it cannot become `jnp.where`: {conflict}")
            return
        if {self.code(node.body).strip(), self.code(node.orelse).strip()} == {"True", "False"}:
            # `True if p > a else False` exists to make a Python bool of a NumPy one (for JSON, a DataFrame column,
            # an `is` test): a 0-d JAX array is neither (pingouin's normality tables)
            self.report(node, f"{message}, and `True if ... else False` makes a Python `bool` for host code, which a JAX "
                        "array cannot be: keep it outside `jit` (or use the boolean array itself where an array will do)")
            return
        host = python_value_use(self, self.current_function, node)
        if host is not None:  # an array there raises too; the condition may be static after all (see JX201)
            self.report(node, f"{message}, and it cannot become `jnp.where`: the result is {host}, where only a Python "
                        "value can stand; choose on a static value, or keep this code outside `jit`")
            return
        flow = function_flow(self, self.current_function)
        local = frozenset(flow.params) | flow.writes(list(self.current_function.body.body))
        chosen = object_attribute([node.body, node.orelse], local)
        if chosen is not None:
            text = f"{self.lax}.cond({test}, lambda: {self.code(node.body).strip()}, lambda: {self.code(node.orelse).strip()})"
            self._fix(node, message + f" (`{self.code(chosen).strip()}` is an object's attribute, which may hold any Python "
                      "object: `lax.cond` can only choose between arrays)", text, "replace with `lax.cond`", ("lax",), unsafe=True)
            return
        indexed = guarded_index(node.test, [node.body, node.orelse], function_tracedness(self, self.current_function),
                                loop_indices(self, node, flow))
        if indexed is not None:  # (`jnp.where` evaluates both sides too)
            text = f"{self.lax}.cond({test}, lambda: {self.code(node.body).strip()}, lambda: {self.code(node.orelse).strip()})"
            self._fix(node, message + f" (a side indexes with a value the test compares, `{indexed}`: `lax.cond` traces "
                      "both sides, and if that index is a Python int out of range, the side the test rules out raises "
                      "`IndexError`)", text, "replace with `lax.cond`", ("lax",), unsafe=True)
            return
        pure = cheap_and_pure(node.body, local) and cheap_and_pure(node.orelse, local)
        shapes = function_shapes(self, self.current_function)
        at = shapes.statement_of(node)
        target = at.targets[0].target if isinstance(at, cst.Assign) and len(at.targets) == 1 and at.value is node else None
        name = target.value if isinstance(target, cst.Name) else None  # `v = a if p else b`: a loop carry may prove it
        risk = "it is inside a lambda or comprehension" if at is None else broadcast_risk(shapes, [node.test], [node.body, node.orelse], at, name)
        facts = function_facts(self, self.current_function)
        reduced = empty_reduction([node.test], [node.body, node.orelse], facts)
        shaped = value_shaped_read([node.body, node.orelse], facts)
        if shaped is not None:  # as JX201's `if`: nilearn's fdr threshold, `z[pos][-1] if pos.any() else np.inf`;
            # librosa's `np.median(mag[m]) if m.any() else 0.0`, where `jnp.where` reads the empty selection
            self.report(node, f"{message}, and it cannot become `jnp.where`/`lax.cond`: "
                        + shaped_note(shaped).replace("a branch", "a side").replace("every branch", "both sides"))
            return
        if reduced is not None:
            message += empty_note(reduced).replace("a branch", "a side").replace("every branch", "both sides")
        if pure and risk is None:
            start = self.get_metadata(PositionProvider, node).start.column
            self._fix(node, message, emit.where_text(self.jnp, [node.test], [node.body, node.orelse], start), "replace with `jnp.where`",
                      level=test_level, unsafe=reduced is not None)
            return
        text = f"{self.lax}.cond({test}, lambda: {self.code(node.body).strip()}, lambda: {self.code(node.orelse).strip()})"
        divisor = guarded_division(node.test, [node.body, node.orelse])
        if divisor is not None:  # (`jnp.where` guards such a division itself: `num / jnp.where(den != 0, den, 1.0)`)
            self._fix(node, message + f" (a side divides by `{divisor}`, which the test compares with zero: `lax.cond` "
                      "traces both sides, and if it is a Python number that division raises `ZeroDivisionError`)", text,
                      "replace with `lax.cond`", ("lax",), unsafe=True)
            return
        typed = attribute_dtype([node.body, node.orelse], function_facts(self, self.current_function), local)
        if typed is not None:
            self._fix(node, message + f" (a side takes the dtype of `{self.code(typed).strip()}`, an object's attribute, "
                      "whose dtype is unknown: `lax.cond` rejects sides of different dtypes (a float32 against a Python "
                      "float under x64))", text, "replace with `lax.cond`", ("lax",), unsafe=True)
            return
        literal = int_mix([node.body, node.orelse], flow.params, facts=function_facts(self, self.current_function), unknown=True)
        if literal is not None:
            self._fix(node, message + f" (a side is the int `{literal}` and the other may be a float: `lax.cond` needs one "
                      f"dtype; write `{as_float(literal)}` if a float is meant)", text, "replace with `lax.cond`", ("lax",), unsafe=True)
            return
        split = float_split([node.body, node.orelse], function_facts(self, self.current_function))
        if split is not None:
            self._fix(node, message + f" (`{split[0]}` is a float whatever its inputs (a float literal, `/` or a float "
                      f"function makes it one), and `{split[1]}` stays an integer if its inputs are integers: `lax.cond` "
                      "then raises `TypeError` (sides of different dtypes), where NumPy gives an int or a float; safe "
                      "only for float inputs)", text, "replace with `lax.cond`", ("lax",), unsafe=True)
            return
        if not pure:
            self._fix(node, message + " (a side calls code that must be pure under `lax.cond`)", text, "replace with `lax.cond`", ("lax",), unsafe=True)
        else:
            self._fix(node, message + f" (`lax.cond`, not `jnp.where`: {risk})", text, "replace with `lax.cond`", ("lax",),
                      level=test_level, unsafe=reduced is not None)

    def visit_If(self, node: cst.If) -> None:
        self._tests.update(walk.nodes(node.test))

    def visit_While(self, node: cst.While) -> None:
        self._tests.update(walk.nodes(node.test))

    def visit_Assert(self, node: cst.Assert) -> None:
        # an `assert` calls bool() on its test whatever the test is made of: `jnp.logical_and(1 <= p, p <= 2)` there
        # fails under `jit` as `1 <= p <= 2` does (deap's selDoubleTournament), and is no clearer
        self._tests.update(walk.nodes(node.test))

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        for child in (node.left, node.right):
            if isinstance(child, cst.BooleanOperation) and type(child.operator) is type(node.operator) and not child.lpar:
                self._inner.add(child)
        if self.current_function is None or node in self._inner or node in self._tests:
            return  # in an `if`/`while` test: see `visit_UnaryOperation`
        parts = leaves(node, type(node.operator))
        if any(python_only_test(p) for p in parts):
            return  # `value == ref or value is ref`: a type or identity test tells Python values apart (strings, None)
        levels = [self._level(p) for p in parts]
        if all(level is Tracedness.STATIC for level in levels[:-1]):
            return  # Python only calls bool() on the operands before the last one
        first = next(i for i, level in enumerate(levels) if level is not Tracedness.STATIC)
        rest = parts[first:]
        traced = function_tracedness(self, self.current_function)
        if not all(boolean(p, traced) for p in rest):
            return
        fn = "logical_and" if isinstance(node.operator, cst.And) else "logical_or"
        text = self.code(rest[0]).strip()
        for p in rest[1:]:
            text = f"{self.jnp}.{fn}({text}, {self.code(p).strip()})"
        if first:
            keyword = " and " if isinstance(node.operator, cst.And) else " or "
            text = keyword.join([*(self.code(p).strip() for p in parts[:first]), text])
        word = "and" if isinstance(node.operator, cst.And) else "or"
        # the function's parameters and locals are its values (`v.min()` of a local array is pure), as for the
        # branch rules' `stuck_boolean`: an `or` they take for convertible must be converted here
        flow = function_flow(self, self.current_function)
        local = frozenset(flow.params) | flow.writes(list(self.current_function.body.body))
        guarded = [p for p in rest[1:] if not cheap_and_pure(p, local)]
        if guarded:  # Python evaluates them only when needed; `jnp.logical_*` always does
            self.report(node, f"`{word}` on traced values calls bool() on an array under `jit`, and it cannot become "
                        f"`jnp.{fn}`: `{self.code(guarded[0]).strip()}` would be evaluated even where Python skips it")
            return
        reduced = empty_reduction(rest[:-1], rest[1:], function_facts(self, self.current_function))
        if reduced is not None:  # `np.any(m) and v[m].min() > 0`: Python skips the reduction where it would raise
            self.report(node, f"`{word}` on traced values calls bool() on an array under `jit`, and it cannot become "
                        f"`jnp.{fn}`: `{reduced}` raises on an empty array, and would be evaluated even where Python "
                        "skips it")
            return
        # each operand is a truth test (the last too, once `jnp.logical_*` tests it): one of unknown tracedness (a
        # bare parameter, an object's attribute, `getattr(self, "root_", None)`) may be None or a container
        tests = [traced.of_test(p) for p in parts]
        level = Tracedness.UNKNOWN if Tracedness.UNKNOWN in tests else max(levels[:-1])
        self._fix(node, f"`{word}` on traced values calls bool() on an array under `jit`", text, f"replace with `jnp.{fn}`",
                  level=level)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if self.current_function is None or not isinstance(node.operator, cst.Not):
            return
        if node in self._tests:
            # the test of an `if`/`while` is JX201's/JX221's, which rewrite the statement (and this rule then the
            # test where it lands); where they cannot, `jnp.logical_*` in a Python `if` still calls bool() under
            # `jit`, gains nothing, and breaks on a None, a dict or a sympy value
            return
        # the truth of a bare parameter (`not x`) is of unknown tracedness: on a list or None `not` tests emptiness,
        # while `jnp.logical_not` works elementwise (`int(not [0])` is 0, `int(jnp.logical_not([0]))` is 1)
        traced = function_tracedness(self, self.current_function)  # type: ignore[arg-type]
        level = traced.of_test(node.expression)
        if level is Tracedness.STATIC:
            return
        inner = node.expression
        if _object_operator(inner):
            return  # `not (self - other)`: the class's own operator gives a Python object, whose truth is its `__bool__`
        if isinstance(inner, cst.BooleanOperation) and any(
            traced.of_test(p) is Tracedness.UNKNOWN
            for side in (inner.left, inner.right) for p in leaves(side, type(inner.operator))
        ):
            level = Tracedness.UNKNOWN  # `not (partial and has_root)`: each operand is a truth test
        text = f"{self.jnp}.logical_not({self.code(node.expression.with_changes(lpar=[], rpar=[])).strip()})"
        self._fix(node, "`not` on a traced value calls bool() on an array under `jit`", text, "replace with `jnp.logical_not`",
                  level=level)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if self.current_function is None or len(node.comparisons) < 2 or node in self._tests or self._level(node) is Tracedness.STATIC:
            return
        middles = [t.comparator for t in node.comparisons[:-1]]
        if not all(isinstance(m, (cst.Name, cst.Attribute, cst.Subscript, cst.Integer, cst.Float)) for m in middles):
            return
        left, pieces = node.left, []
        for target in node.comparisons:
            pieces.append(f"{self.code(left).strip()}{self.code(target.operator)}{self.code(target.comparator).strip()}")
            left = target.comparator
        text = pieces[0]
        for piece in pieces[1:]:
            text = f"{self.jnp}.logical_and({text}, {piece})"
        self._fix(node, "chained comparison on a traced value calls bool() on an array under `jit`", text, "replace with `jnp.logical_and`",
                  level=self._level(node))

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if self.current_function is None or not isinstance(func, cst.Name) or func.value not in BUILTINS:
            return
        flow = function_flow(self, self.current_function)
        if func.value in self._module_names or func.value in flow.params or func.value in flow.writes(list(self.current_function.body.body)):
            return  # shadowed
        if any(a.keyword is not None or a.star for a in node.args) or not node.args:
            return
        if all(self._level(a.value) is Tracedness.STATIC for a in node.args) or formatted(self, node):
            return
        guarded = number_guarded(self, node)
        if guarded and all(self._level(a.value) is Tracedness.STATIC or walk.name_values(a.value) <= guarded for a in node.args):
            return  # `if isinstance(k, int): min(k, n)`: a Python number there (a traced `k` takes the other branch)
        if counted(self, node) is not None:
            return  # `range(max(i, k), n + 1)`, `x[:min(k, n)]`: a count or a bound is a Python int by definition
            # (and must be concrete under `jit`): a `jnp` form would make it an array (python-control's `_deriv`)
        args = [self.code(a.value).strip() for a in node.args]
        name = BUILTINS[func.value]
        caught = sorted(caught_around(self, node) & RAISED_BY_BUILTINS)
        if caught:  # `min(a, b)` of arrays raises (an ambiguous truth value) and the handler runs; `jnp` forms never raise
            text = f"{self.jnp}.{name}({', '.join(args)})" if len(args) > 1 or func.value == "round" else f"{self.jnp}.{func.value}({args[0]})"
            self._fix(node, f"builtin `{func.value}` on a traced value needs a concrete value under `jit`; but it sits in "
                      f"a `try` that catches `{caught[0]}`, which Python's `{func.value}` raises on arrays (an ambiguous "
                      f"truth value) and `jnp.{name}` never does: the `except` branch would stop running",
                      text, f"replace with `{text.split('(')[0]}`", unsafe=True)
            return
        if func.value in ("max", "min") and len(args) == 1:
            only = node.args[0].value
            if isinstance(only, cst.GeneratorExp):
                self.report(node, f"builtin `{func.value}` of a generator of traced values needs concrete values under "
                            f"`jit`: build a list and use `{self.jnp}.{func.value}({self.jnp}.asarray([...]))`")
                return
            sequence = isinstance(only, (cst.List, cst.Tuple, cst.ListComp)) or isinstance(only, cst.Name) and any(
                isinstance(v, (cst.List, cst.Tuple, cst.ListComp))
                for v in function_tracedness(self, self.current_function).assigned_values(only.value)
            )
            # `jnp.min` takes arrays only: a Python list or tuple of values is stacked first
            text = f"{self.jnp}.{func.value}({self.jnp}.asarray({args[0]}))" if sequence else f"{self.jnp}.{func.value}({args[0]})"
            level = max(self._level(a.value) for a in node.args)
            self._fix(node, f"builtin `{func.value}` on a traced value needs a concrete value under `jit`; but "
                      f"`jnp.{func.value}` gives NaN when any item is NaN, where Python's `{func.value}` keeps an earlier "
                      "item unless a later one compares " + ("greater" if func.value == "max" else "less") + ", and it "
                      "takes arrays only (not a set, dict, map or iterator of Python values)",
                      text, f"replace with `{text.split('(')[0]}`", unsafe=True, level=level)
            return
        elif func.value in ("max", "min"):
            text, nan_note = fold(self, func.value, node.args)
            if nan_note:
                level = max(self._level(a.value) for a in node.args)
                self._fix(node, f"builtin `{func.value}` on a traced value needs a concrete value under `jit`; {nan_note}",
                          text, f"replace with `{text.split('(')[0]}`", unsafe=True, level=level)
                return
        else:
            text = f"{self.jnp}.{name}({', '.join(args)})"
            if func.value == "round" and len(args) == 1:
                text += ".astype(int)"  # Python's round(x) is an int, used as a count or an index
        level = max(self._level(a.value) for a in node.args)
        ints = python_ints(self.current_function, [a.value for a in node.args])
        message = f"builtin `{func.value}` on a traced value needs a concrete value under `jit`"
        if ints is not None:  # `max(2, int(n * m))`: a Python int becomes an int32 array (an overflow past 2**31)
            message += f" ({ints}: as an array it is int32, which overflows past 2**31, and the result is no longer an int)"
        elif text.endswith(".astype(int)"):  # pvlib: `round(86400e6 * days)` microseconds became 2**31 - 1
            message += (" (`round(x)` is a Python int, which has no bound; `.astype(int)` is int32 without x64, which "
                        "saturates past 2**31)")
        digits = func.value == "round" and len(args) == 2
        if digits:  # scikit-spatial's `_solve_quadratic(n_digits=4)`: a root moved in the 4th decimal
            message += (" (Python's `round(x, n)` of a float rounds its exact decimal value, `round(8.70135, 4)` is "
                        "8.7013; `jnp.round` scales by 10**n and rounds half to even, giving 8.7014: the kept digits "
                        "can differ)")
        self._fix(node, message, text, f"replace with `{text.split('(')[0]}`", level=level,
                  unsafe=ints is not None or text.endswith(".astype(int)") or digits)


def _object_operator(expr: cst.BaseExpression) -> bool:
    """`self - other`, `self == other`: an operator with the method's own object as an operand, which the class's
    dunder method (`__sub__`, `__eq__`) evaluates; its result is whatever that returns (an object of the class, a
    Python bool), not an array, and `jnp.logical_not` of it raises (fluids' chebfun `__eq__`/`__ne__`)."""
    if isinstance(expr, cst.BinaryOperation):
        operands = [expr.left, expr.right]
    elif isinstance(expr, cst.Comparison):
        operands = [expr.left, *(c.comparator for c in expr.comparisons)]
    else:
        return False
    return any(isinstance(o, cst.Name) and o.value in ("self", "cls") for o in operands)
