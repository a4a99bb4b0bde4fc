from __future__ import annotations

from typing import Optional

import libcst as cst

from codemods._purity import carry_dtype_change, carry_dtype_problem, held_numpy, held_problem, host_indexed, int_product, opaque_loop, scalar_carry_broadcast, shaped_loop_body
from jaxfix import loopgen as gen
from jaxfix.analysis.host_use import HOST_USE_DEPENDENCIES, python_value_after
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.loops import loops_in_functions
from jaxfix.analysis.loops import (
    argument_inputs, carry_problem, appends, body_obstacles, body_statements, branch_tests, loop_carried, static_index_uses,
    written_input_problem,
)
from jaxfix.analysis.loop_values import host_container_use, indexed_item, indexed_sequence, item_problem
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, function_tracedness, tracedness
from jaxfix.analysis.masks import MaskProvider
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

UNROLL_MAX = 16


class RangeLoop(Rule):
    """
    ## What it does
    Rewrites `for i in range(start, stop[, step])` loops that carry state from one iteration to the next into
    `lax.fori_loop` with a small body function. Loop-carried variables (modified in the body and live into the next
    iteration or after the loop) become the carry, a tuple when there are several; everything else the body reads
    is closed over; a parameter the body indexes with the traced index (or a carry) is read as `jnp.asarray` of it,
    bound before the body (`x_jax = jnp.asarray(x)`), and so is an array made from one by array methods, indexing,
    arithmetic or `reshape` (`bits = x.reshape(-1, n)`: a NumPy array when the function is called with one, even
    through `jnp.reshape`); a parameter the function also writes into in place (`a.sort()`, `a[i] = v`: the
    caller's list or array, which stays as it is) is not, and the loop is reported instead. Any literal step works, negative included: the loop runs over the trip count and the body
    recomputes the index. The index keeps its last value after the loop when later code reads it.

    ## Why is this bad?
    `range(n)` with a traced `n` raises `TracerIntegerConversionError` under `jit`. With a static bound the loop
    unrolls: compile time and program size grow with the trip count.

    ## Example
    ```python
    def running_sum(x, n):
        total = 0.0
        for i in range(n):
            total += x[i]
        return total
    ```

    ## Use instead
    ```python
    def running_sum(x, n):
        total = 0.0
        x_jax = jnp.asarray(x)

        def body(i, total):
            total += x_jax[i]
            return total

        total = lax.fori_loop(0, n, body, total)
        return total
    ```

    ## Fix safety
    Safe when the body is a pure function of the carry: no `break`/`continue`/`return`, no I/O, no in-place updates
    of arrays or objects (those are rewritten first by the in-place rules, JX1xx), no traced Python `if` (the branch
    rules, JX2xx, go first), no read whose shape depends on values (a boolean mask, `nonzero`: a `lax` loop traces
    its body even outside `jit`, where that raises; the masks rules, JX3xx, go first), and the index is not used where a Python int is required (slice bounds, `range`,
    `int(...)`, a Python `if`, an index into a Python list or shape tuple). A carry that changes shape (`polymul`,
    `concatenate`, `v.reshape(d, 1)`, `v[:, None]`, a slice of itself) cannot be a loop carry: reported (left alone when the bound is static: it
    unrolls). Otherwise the loop is reported with the reason and left alone. Unsafe when the body calls code not
    known to be pure JAX (`fori_loop` runs it once while tracing, not once per iteration; a NumPy call JX501 renames
    only as an unsafe fix, as in a module that uses `astropy.units`, raises on the traced carry), indexes with the counter an
    array the function got from such a call (`PQd = squareform(P)`: a NumPy array rejects a traced index), or
    multiplies a carry that starts as a Python int (an int32 carry wraps around; Python ints do not), or grows a carry with a
    whole parameter (or a local computed from one before the loop, `x2 = 2.0 * x`) that its start does not read
    (`out = 1.0`, then `out = out * x`: NumPy broadcasts `out` to the
    shape of `x`, a carry keeps its first shape and `lax` raises `TypeError`; so too when the start is a parameter with a
    number default, `w = w0` with `w0=0.5`, or the growth goes through a temporary, `g = w * w - c` then `w = w - g`). Weakly typed Python
    scalar carries (`acc = 0`) are promoted by `fori_loop` to the dtype the body produces; the other way round, a carry
    that starts as a float constant (`vmax = float("-inf")`, `-np.inf`) and that the body sets to an element of an
    array argument (`vmax = x[i]`) is an int for int data, and the carry raises `TypeError`: unsafe (also for JX221,
    JX222, JX223). So is a carry that does not start as a Python scalar (a parameter, an array) and that the body makes
    complex (`x = x + 0j`, `z * np.exp(1j * w)`): real data keep the start's dtype, and the carry raises `TypeError`
    (nolds's `caf`); when the start is known to be real (`np.zeros(n)`), or known to be an integer array that the body
    makes a float (`v = np.arange(n)`, then `v = v / 2`), the loop is reported instead. A parameter of unknown dtype
    made a float (`y = y + dt * np.sin(y)`) is taken for a float, as inputs are elsewhere. A loop with literal
    bounds and at most `unroll-max` (default 16, `[tool.jaxfix] unroll-max`) iterations stays a Python loop: it
    unrolls under `jit` at little cost. `fori_loop` with static bounds is reverse-differentiable; with a traced
    bound it lowers to `while_loop`, which supports forward-mode differentiation only.

    ## Known problems
    A traced index cannot index a Python list. A name indexed by the loop index stays a Python loop (with a static
    trip count; reported with a traced one) when it is bound to a list or tuple display, a comprehension or
    `list(...)`, annotated as a sequence, or a parameter that bounds the loop as `len(name)` with no sign of being
    an array (`.shape`, `x[i, j]`, arithmetic on it), directly or through a function of the module that indexes it
    with the index it is given, or whose items' attributes are read (`states[j].x`): `for j in range(len(coeffs))`
    keeps unrolling even when
    `coeffs` is an array; write `range(coeffs.shape[0])` to get `fori_loop`. Stacking the list (`jnp.stack`) is
    not offered: nothing proves that its elements share a shape. Other parameters indexed by the loop index are
    assumed to be arrays, and read through `jnp.asarray` (called eagerly with a NumPy array, NumPy would take the
    traced index and raise `TracerArrayConversionError`); the conversion only costs a copy when the array is NumPy.
    Only parameters are converted: a local array made by a call not known to be JAX makes the fix unsafe instead. An
    object's attribute the body indexes with a traced value (`self.D[i, j]`, with `i` read from the index; also JX222)
    is read as `jnp.asarray(self.D)` bound before the loop, as an unsafe fix: it may be a list of arrays of different
    shapes or of objects, which does not convert. A
    loop appending to a list is handled by JX222 when the bounds are static. JAX traces the body even when the loop
    runs zero times, so a body indexing an array with an axis of length zero (`Y[i] = X[i] @ m` with `X.shape[0] ==
    0`) raises `IndexError` while tracing, where NumPy's loop ran no times: the rewrite assumes at least one iteration
    is possible. An index past the end of an array raises `IndexError` in NumPy; in the loop body JAX clamps the read
    and drops the `.at` write (as everywhere in JAX, see JX101), so code that fails on inputs of mismatched lengths
    (dtaidistance's `msm.distance`, whose loops swap `n` and `m`) returns a value instead.
    """

    CODE = "JX220"
    SUMMARY = "Python `for ... in range(...)` loop carrying state; use `lax.fori_loop`"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, MaskProvider, *HOST_USE_DEPENDENCIES, DataflowProvider, TracednessProvider)
    ORDER = 40
    may_apply_to_tree = staticmethod(loops_in_functions)

    VALID = [
        Valid(  # a mask among several indices has a value-dependent shape: no traced body can hold it (pyts's dtw)
            "import jax.numpy as jnp\n\ndef f(path, n):\n    out = jnp.empty((2, n))\n    for i in range(n):\n"
            "        arr = path[1, path[0] == i]\n        out = out.at[0, i].set(jnp.min(arr))\n    return out\n"),
        Valid(  # `mask.T`, `mask.ravel()`, `np.transpose(mask)` of a mask are masks too: `x[mask.T]` cannot be traced
            # (pyroomacoustics's band means)
            "import jax.numpy as jnp\n\ndef f(x, y, c):\n    ss = jnp.zeros(50)\n    for k in range(50):\n        mask = y > c[k]\n"
            "        ss = ss.at[k].set(jnp.mean(x[mask.T]) + jnp.sum(x[jnp.transpose(mask).ravel()]))\n    return ss\n"),
        Valid("def f(x):\n    acc = 0.0\n    for i in range(3):\n        acc = acc + x[i]\n    return acc\n"),
        Valid("def f(x):\n    size = 1\n    for i in range(x.ndim):\n        size = size * x.shape[i]\n    return x.reshape(size)\n"),
        Valid("def f(x):\n    for i in range(40):\n        x = x * 0.5 + i\n    return x\n", settings={"unroll-max": 64}),
        Valid("X = 0\nfor i in range(100):\n    X += i\n"),
        Valid(  # a mask kept up to date with `.at[].set(False)` is still a mask: `p[seen]` cannot be traced (trimesh's tsp)
            "import jax.numpy as jnp\n\ndef f(p):\n    seen = jnp.ones(len(p), dtype=bool)\n    order = jnp.zeros(len(p), dtype=int)\n"
            "    for i in range(len(p) - 1):\n        nxt = jnp.argmin(p[seen])\n        seen = seen.at[nxt].set(False)\n"
            "        order = order.at[i + 1].set(nxt)\n    return order\n"),
        Valid(  # the length is named first; or the docstring says the parameter is a list (pyclustering's distances)
            "import jax.numpy as jnp\n\ndef f(p, q):\n    d = 0.0\n    n = len(p)\n    for i in range(n):\n"
            "        d = d + jnp.abs(p[i] - q[i])\n    return d\n\n"
            "def g(a, b):\n    \"\"\"@param[in] a (list): a point.\"\"\"\n    if type(a) == float:\n        return (a - b) ** 2\n"
            "    s = 0.0\n    for i in range(len(a)):\n        s += jnp.abs(a[i] - b[i])\n    return s\n"),
        Valid(  # `coeffs` bounds the loop through `len(...) + 1`: maybe a list, which a traced index cannot index (astropy)
            "def f(x, coeffs):\n    c = 0.0\n    for i in range(1, len(coeffs) + 1):\n        c = c * x + coeffs[-i]\n    return c\n"
        ),
        Valid(  # ... also when a function of the module indexes it with the index it is given (pymcmcstat's delayed
            # rejection, `for kk in range(len(invR))` calling `term(kk, invR, d)`, which reads `invR[iq]`)
            "import numpy as np\n\ndef part(j, mats, v):\n    return np.dot(v, mats[j]).sum()\n\n"
            "def f(mats, v):\n    s = 0.0\n    for j in range(len(mats)):\n        s = s + part(j, mats, v)\n    return s\n"
        ),
    ]
    INVALID = [
        Invalid(  # a method of a parameter given what the loop binds: the parameter may be a NumPy array or a
            # scipy.sparse matrix (librosa's `__cqt_response`, `basis.dot(D[i])`), whose `.dot` rejects the tracer
            # `fori_loop` gives it even outside `jit` (`TracerArrayConversionError`): unsafe
            "import jax.numpy as jnp\n\ndef apply(op, X):\n    out = jnp.zeros((X.shape[0], 3))\n"
            "    for k in range(X.shape[0]):\n        out = out.at[k].set(op.dot(X[k]))\n    return out\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef apply(op, X):\n    out = jnp.zeros((X.shape[0], 3))\n"
                     "    X_jax = jnp.asarray(X)\n\n    def body(k, out):\n        out = out.at[k].set(op.dot(X_jax[k]))\n"
                     "        return out\n\n    out = jax.lax.fori_loop(0, X.shape[0], body, out)\n    return out\n",
            unsafe=True,
        ),
        Invalid(  # a Python number made in the body from an array is a tracer's conversion in a `lax` body (obspy)
            "import jax.numpy as jnp\n\ndef f(x, n):\n    t = jnp.linspace(0.0, 1.0, 9)\n    s = 0.0\n"
            "    for i in range(n):\n        k = int(t[-1] * 4)\n        s = s + x[i] * t[k]\n    return s\n",
            expected=None, lines=[6],
        ),
        Invalid(  # a carry that starts as None: a loop carry keeps its first structure (pyriemann's `prev_loss`)
            "def run(x, n):\n    prev = None\n    for i in range(n):\n        loss = (x * x).sum()\n        x = x * 0.5\n"
            "        prev = loss\n    return x, prev\n",
            expected=None, lines=[3]),
        Invalid(  # a function of the module reads attributes of the items it indexes with the loop index: a list of
            # objects, which a traced index cannot index (reported: the bound is traced)
            "import numpy as np\n\ndef energy(j, states):\n    return np.sum(states[j].x ** 2)\n\n"
            "def f(states, n):\n    e = 0.0\n    for j in range(n):\n        e = e + energy(j, states)\n    return e\n",
            expected=None,
            lines=[8],
        ),
        Invalid(  # the carry starts as a float constant and the loop sets it to elements of an array argument: for int
            # data the carry's dtype changes and `fori_loop` raises `TypeError` (dtaidistance's `argmax`): unsafe
            "import numpy as np\n\ndef final(costs, n):\n    last = -np.inf\n    for k in range(n):\n        last = costs[k]\n"
            "    return np.abs(last)\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef final(costs, n):\n    last = -np.inf\n"
                     "    costs_jax = jnp.asarray(costs)\n\n    def body(k, last):\n        last = costs_jax[k]\n        return last\n\n"
                     "    last = jax.lax.fori_loop(0, n, body, last)\n    return np.abs(last)\n",
            unsafe=True,
        ),
        Invalid(  # an integer carry grown with an argument's items becomes a float for float data: unsafe (the code
            # review)
            "import numpy as np\n\ndef d1(x, n):\n    c = np.zeros(3, dtype=int)\n    for i in range(n):\n        c = c + x[i]\n"
            "    return c\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef d1(x, n):\n    c = np.zeros(3, dtype=int)\n"
                     "    x_jax = jnp.asarray(x)\n\n    def body(i, c):\n        c = c + x_jax[i]\n        return c\n\n"
                     "    c = jax.lax.fori_loop(0, n, body, c)\n    return c\n",
            unsafe=True,
        ),
        Invalid(  # a real carry grown with an FFT, complex whatever its input: reported
            "import numpy as np\n\ndef d4(x, n):\n    acc = np.zeros(3)\n    for i in range(n):\n"
            "        acc = acc + np.fft.fft(x[i])\n    return acc\n",
            expected=None, lines=[5],
        ),
        Invalid(  # an array made from an argument by `reshape` has its kind (`jnp.reshape` of a NumPy array is its
            # `.reshape`: scikit-dsp-comm's pcm_decode): the body reads it through `jnp.asarray`
            "import jax.numpy as jnp\n\ndef decode(x, w, n):\n    bits = jnp.reshape(x, (-1, n)) * 2\n    out = jnp.zeros(n)\n"
            "    for k in range(n):\n        out = out.at[k].set(jnp.dot(bits[:, k], w))\n    return out\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef decode(x, w, n):\n    bits = jnp.reshape(x, (-1, n)) * 2\n"
                     "    out = jnp.zeros(n)\n    bits_jax = jnp.asarray(bits)\n\n    def body(k, out):\n"
                     "        out = out.at[k].set(jnp.dot(bits_jax[:, k], w))\n        return out\n\n"
                     "    out = jax.lax.fori_loop(0, n, body, out)\n    return out\n",
        ),
        Invalid(  # the module-level table stays NumPy, which rejects the traced index: the body reads `jnp.asarray(arr)`;
            # unsafe: `x` may be an array of times, which grows `s` from 0.0 to its shape, and a carry keeps one (pvlib)
            "import numpy as np\n\nL0 = np.array([[1.0, 0.0], [0.5, 2.0]])\n\ndef series(arr, x):\n    s = 0.0\n"
            "    for k in range(arr.shape[0]):\n        s = s + arr[k, 0] * np.cos(arr[k, 1] * x)\n    return s\n\n"
            "def lon(x):\n    return series(L0, x)\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\n"
                     "L0 = np.array([[1.0, 0.0], [0.5, 2.0]])\n\ndef series(arr, x):\n    s = 0.0\n"
                     "    arr_jax = jnp.asarray(arr)\n\n    def body(k, s):\n"
                     "        s = s + arr_jax[k, 0] * np.cos(arr_jax[k, 1] * x)\n        return s\n\n"
                     "    s = jax.lax.fori_loop(0, arr.shape[0], body, s)\n    return s\n\ndef lon(x):\n"
                     "    return series(L0, x)\n",
            unsafe=True, lines=[7]),
        Invalid(  # a parameter, a NumPy array when called eagerly, indexed by the traced index: read as `jnp.asarray` (tslearn)
            "import jax.numpy as jnp\n\ndef f(X):\n    out = jnp.empty((X.shape[0], 1))\n    for i in range(X.shape[0]):\n"
            "        out = out.at[i].set(jnp.nanmean(X[i], axis=0, keepdims=True))\n    return out\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(X):\n    out = jnp.empty((X.shape[0], 1))\n    X_jax = jnp.asarray(X)\n\n"
                     "    def body(i, out):\n        out = out.at[i].set(jnp.nanmean(X_jax[i], axis=0, keepdims=True))\n        return out\n\n"
                     "    out = jax.lax.fori_loop(0, X.shape[0], body, out)\n    return out\n",
            lines=[5]),
        Invalid("def f(z, k, n):\n    k = [k[0]] * z.shape[0]\n    s = 0.0\n    for i in range(n):\n        s = s + k[i]\n    return s\n",
                expected=None, lines=[4]),
        Invalid(  # the body makes a carry of unknown dtype complex: real data keep a real carry, which `fori_loop`
            # rejects (`TypeError`; nolds's `caf`, `x_in = x_in + 0j`): unsafe
            "import jax.numpy as jnp\n\ndef shifted(sig, n):\n    rows = jnp.zeros((n, sig.shape[0]), dtype=complex)\n"
            "    for k in range(n):\n        if jnp.isrealobj(sig):\n            sig = sig.astype(complex)\n"
            "        rows = rows.at[k].set(jnp.roll(sig, k))\n    return rows\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef shifted(sig, n):\n"
                     "    rows = jnp.zeros((n, sig.shape[0]), dtype=complex)\n\n    def body(k, carry):\n        sig, rows = carry\n"
                     "        if jnp.isrealobj(sig):\n            sig = sig.astype(complex)\n"
                     "        rows = rows.at[k].set(jnp.roll(sig, k))\n        return sig, rows\n\n"
                     "    sig, rows = jax.lax.fori_loop(0, n, body, (sig, rows))\n    return rows\n",
            unsafe=True, lines=[5]),
        Invalid(  # an int64 array that the body makes a float: no carry can hold it (reported)
            "import numpy as np\n\ndef halve(n):\n    v = np.arange(8)\n    for k in range(n):\n        v = v / 2\n    return v\n",
            expected=None, lines=[5]),
        Invalid(  # an object's attribute indexed with values the body reads through the traced index (pymoo's TSP,
            # whose `D` is SciPy's NumPy array): read as `jnp.asarray` before the loop; unsafe, it may be a ragged list
            "from scipy.spatial.distance import cdist\n\n\nclass Tour:\n    def __init__(self, pts):\n"
            "        self.D = cdist(pts, pts)\n\n    def length(self, x, n):\n        total = 0.0\n        for k in range(n):\n"
            "            a, b = x[k], x[k + 1]\n            total += self.D[a, b]\n        return total + self.D.shape[0]\n",
            expected="from scipy.spatial.distance import cdist\nimport jax\nimport jax.numpy as jnp\n\n\nclass Tour:\n"
                     "    def __init__(self, pts):\n        self.D = cdist(pts, pts)\n\n    def length(self, x, n):\n"
                     "        total = 0.0\n        D_jax = jnp.asarray(self.D)\n        x_jax = jnp.asarray(x)\n\n"
                     "        def body(k, total):\n            a, b = x_jax[k], x_jax[k + 1]\n            total += D_jax[a, b]\n"
                     "            return total\n\n        total = jax.lax.fori_loop(0, n, body, total)\n"
                     "        return total + self.D.shape[0]\n",
            unsafe=True, lines=[10]),
        Invalid(  # a column of a parameter (`m[:, k]`) is an array: `+=` grows the float start to a vector, which a
            # carry cannot (pymoo's ZDT g): unsafe
            "def spread(m, n):\n    total = 0.0\n    for k in range(n):\n        total += m[:, k] * 2.0\n    return total\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef spread(m, n):\n    total = 0.0\n    m_jax = jnp.asarray(m)\n\n"
                     "    def body(k, total):\n        total += m_jax[:, k] * 2.0\n        return total\n\n"
                     "    total = jax.lax.fori_loop(0, n, body, total)\n    return total\n",
            unsafe=True, lines=[3]),
        Invalid(  # the carry grows: a lax loop cannot carry it (a static trip count would simply unroll)
            "import numpy as np\n\ndef f(p, n):\n    b = np.ones(1)\n    for i in range(n):\n        b = np.polymul(b, p[i])\n    return b\n",
            expected=None, lines=[5],
        ),
        Invalid(  # a Python list the loop rebuilds longer with `+` (pywt's graycode order of wavelet packets)
            "def f(n, x='a', y='d'):\n    order = [x, y]\n    for i in range(n - 1):\n"
            "        order = [x + p for p in order] + [y + p for p in order[::-1]]\n    return order\n",
            expected=None, lines=[3]),
        Invalid(  # the carry grows through an index trick (filterpy's simplex sigma points)
            "import numpy as np\n\ndef f(p, n):\n    b = np.ones((1, 2))\n    for i in range(n):\n        b = np.r_[b, p * i]\n    return b\n",
            expected=None, lines=[5],
        ),
        Invalid(  # the helper branches in Python on its argument, which the traced body makes a tracer: unsafe (mlxtend)
            "def clip1(v):\n    if v > 1.0:\n        return 1.0\n    return v\n\ndef f(x, n):\n    t = 0.0\n"
            "    for i in range(n):\n        t = t + clip1(x[i])\n    return t\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef clip1(v):\n    if v > 1.0:\n        return 1.0\n"
                     "    return v\n\ndef f(x, n):\n    t = 0.0\n    x_jax = jnp.asarray(x)\n\n    def body(i, t):\n"
                     "        t = t + clip1(x_jax[i])\n        return t\n\n    t = jax.lax.fori_loop(0, n, body, t)\n"
                     "    return t\n",
            unsafe=True, lines=[8],
        ),
        Invalid(  # `np.testing` compares concrete values, which a traced body does not have: unsafe (numpy-ml's HMM)
            "import numpy as np\n\ndef f(x, n):\n    t = 0.0\n    for i in range(n):\n        t = t + x[i]\n"
            "        np.testing.assert_array_less(-1.0, t)\n    return t\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(x, n):\n    t = 0.0\n"
                     "    x_jax = jnp.asarray(x)\n\n    def body(i, t):\n        t = t + x_jax[i]\n"
                     "        np.testing.assert_array_less(-1.0, t)\n        return t\n\n"
                     "    t = jax.lax.fori_loop(0, n, body, t)\n    return t\n",
            unsafe=True, lines=[5],
        ),
        Invalid(  # `a.sort()` sorts the caller's list or array in place, a change that stays: the body must not read a
            # `jnp.asarray` copy of it; reported, left alone
            "import numpy as np\n\ndef smallest_sum(a, n):\n    a.sort()\n    s = 0.0\n    for i in range(np.max(n)):\n"
            "        s = s + a[i]\n    return s\n",
            expected=None, lines=[6]),
        Invalid(  # the carry starts as `w0`, a number by default, and grows with `c` through the temporary `g`: `c` may
            # be an array, which NumPy broadcasts `w` to and a carry cannot: unsafe
            "import numpy as np\n\ndef relax(c, n, w0=0.5):\n    w = w0\n    for _ in range(np.max(n)):\n        g = w * w - c\n"
            "        w = w - 0.1 * g\n    return w\n",
            expected="import jax\nimport numpy as np\n\ndef relax(c, n, w0=0.5):\n    w = w0\n\n    def body(_, w):\n"
                     "        g = w * w - c\n        w = w - 0.1 * g\n        return w\n\n"
                     "    w = jax.lax.fori_loop(0, np.max(n), body, w)\n    return w\n",
            unsafe=True, lines=[5]),
        Invalid(  # the carry starts as an element and grows with `x2`, computed from the parameter `x` before the loop,
            # which may be an array: the carry would change shape, so unsafe (fluids' chebval)
            "import numpy as np\n\ndef f(x, c, n):\n    x2 = 2.0 * x\n    s = c[-1]\n    for i in range(n):\n"
            "        s = s * x2 + c[i]\n    return s\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(x, c, n):\n    x2 = 2.0 * x\n"
                     "    s = c[-1]\n    c_jax = jnp.asarray(c)\n\n    def body(i, s):\n        s = s * x2 + c_jax[i]\n"
                     "        return s\n\n    s = jax.lax.fori_loop(0, n, body, s)\n    return s\n",
            unsafe=True, lines=[6],
        ),
        Invalid(  # a factorial-like product of Python ints would wrap around in an int32 carry: unsafe
            "def f(x, n):\n    val = 1\n    for k in range(n):\n        val *= x - k\n    return val\n",
            expected=(
                "import jax\n\ndef f(x, n):\n    val = 1\n\n    def body(k, val):\n        val *= x - k\n        return val\n\n"
                "    val = jax.lax.fori_loop(0, n, body, val)\n    return val\n"
            ),
            unsafe=True,
        ),
        Invalid(
            "def f(x, n):\n    acc = 0.0\n    for i in range(n):\n        acc = acc + x[i]\n    return acc\n",
            expected=(
                "import jax\nimport jax.numpy as jnp\n\ndef f(x, n):\n    acc = 0.0\n    x_jax = jnp.asarray(x)\n\n"
                "    def body(i, acc):\n        acc = acc + x_jax[i]\n        return acc\n\n"
                "    acc = jax.lax.fori_loop(0, n, body, acc)\n    return acc\n"
            ),
            lines=[3],
        ),
        Invalid(
            "def f(x, n):\n    a, b = 0.0, 1.0\n    for i in range(n - 1, -1, -2):\n        a, b = b, a + b * x[i]\n"
            "    return a\n",
            expected=(
                "import jax\nimport jax.numpy as jnp\n\ndef f(x, n):\n    a, b = 0.0, 1.0\n"
                "    x_jax = jnp.asarray(x)\n\n    def body(k, carry):\n        a, b = carry\n"
                "        i = n - 1 - k * 2\n        a, b = b, a + b * x_jax[i]\n        return a, b\n\n"
                "    a, b = jax.lax.fori_loop(0, (n + 1) // 2, body, (a, b))\n    return a\n"
            ),
        ),
        Invalid(  # `U` is SciPy's NumPy array times a Python float: a traced index into it raises, so the loop is unsafe
            "import numpy as np\nfrom math import sqrt\nfrom scipy.linalg import cholesky\n\ndef f(x, P, n):\n"
            "    s = np.zeros((n, 2))\n    U = -cholesky(P) * sqrt(n)\n    for k in range(n):\n        s = s + x * U[k]\n"
            "    return s\n",
            expected="import jax\nimport numpy as np\nfrom math import sqrt\nfrom scipy.linalg import cholesky\n\ndef f(x, P, n):\n"
            "    s = np.zeros((n, 2))\n    U = -cholesky(P) * sqrt(n)\n\n    def body(k, s):\n        s = s + x * U[k]\n"
            "        return s\n\n    s = jax.lax.fori_loop(0, n, body, s)\n    return s\n",
            unsafe=True, lines=[8],
        ),
        Invalid(  # the helper reads through a boolean mask, which a traced body cannot: unsafe (skfuzzy's cut series)
            "import jax.numpy as jnp\n\ndef g(x, m, c):\n    return x[m > c].sum()\n\ndef f(x, m, cs, n):\n"
            "    z = jnp.zeros(n)\n    for i in range(n):\n        z = z.at[i].set(g(x, m, cs[i]))\n    return z\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef g(x, m, c):\n    return x[m > c].sum()\n\n"
                     "def f(x, m, cs, n):\n    z = jnp.zeros(n)\n    cs_jax = jnp.asarray(cs)\n\n    def body(i, z):\n"
                     "        z = z.at[i].set(g(x, m, cs_jax[i]))\n        return z\n\n"
                     "    z = jax.lax.fori_loop(0, n, body, z)\n    return z\n",
            unsafe=True,
        ),
        Invalid(  # the same through a nested helper (trimesh's fill_orthographic)
            "import numpy as np\n\ndef f(x, n):\n    def g(a):\n        return np.min(x, axis=a)\n\n"
            "    for i in range(1, n):\n        x = x * g(i)\n    return x\n",
            expected=None, lines=[7],
        ),
        Invalid(  # the index reaches a helper's `axis=`, which needs a Python int: a traced one raises (trimesh)
            "import numpy as np\n\ndef g(x, axis):\n    return np.min(x, axis=axis)\n\ndef f(x, n):\n"
            "    for i in range(1, n):\n        x = x * g(x, i)\n    return x\n",
            expected=None, lines=[7],
        ),
        Invalid("def f(x, n):\n    s = 0.0\n    for i in range(n):\n        s = s + x[i]\n    else:\n        s = -s\n"
                "    return s\n", lines=[3]),
        Invalid("def f(x, n):\n    for i in range(n):\n        print(x[i])\n", lines=[2]),
        Invalid(  # text is no loop carry (pysindy's derivative names)
            "def f(m, k):\n    ret = ''\n    for i in range(m[k]):\n        ret = ret + 'x'\n    return ret\n", expected=None, lines=[3]),
        Invalid("def f(x, n):\n    s = 0.0\n    for i in range(n):\n        if x[i] > 0:\n            s = s + x[i]\n"
                "    return s\n", lines=[3]),
        Invalid(  # `np.linalg.lstsq` stays NumPy (its namesake differs), and a NumPy function rejects tracers (pydmd)
            "import jax.numpy as jnp\nimport numpy as np\n\ndef f(A, b, n):\n    d = jnp.zeros(n)\n    for j in range(n):\n"
            "        d = d.at[j].set(np.linalg.lstsq(A[j], b[j], rcond=None)[0][0])\n    return d\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(A, b, n):\n    d = jnp.zeros(n)\n"
                     "    A_jax = jnp.asarray(A)\n    b_jax = jnp.asarray(b)\n\n    def body(j, d):\n"
                     "        d = d.at[j].set(np.linalg.lstsq(A_jax[j], b_jax[j], rcond=None)[0][0])\n        return d\n"
                     "\n    d = jax.lax.fori_loop(0, n, body, d)\n    return d\n",
            unsafe=True,
        ),
        Invalid(  # a function of the module JX501 keeps NumPy (a caller writes into its result) raises on the tracers
            # the body would give it: the loop stays Python (scipy's `_compute_tauk` once its helpers were held back)
            "import numpy as np\n\ndef step(v):\n    return np.tanh(v) + v\n\ndef table(v):\n    t = step(v)\n"
            "    t[0] = 0.0\n    return t\n\ndef settle(n):\n    z = 0.25\n    for _ in range(n):\n"
            "        z = z - 0.5 * step(z)\n    return z\n",
            expected=None,
            lines=[13],
        ),
        Invalid(  # a carry that starts as a number (`0.5 * np.pi`) and grows through a nested function reading an
            # array-shaped value of the enclosing one (`g(z)` reads `c`, made from the parameter `k`): NumPy broadcasts
            # it, a carry must keep its shape (scipy's `_compute_tauk` for an array `k`)
            "import numpy as np\n\ndef solve(k, n):\n    c = 2.0 * k + 1.0\n\n    def g(v):\n        return v - np.sin(c)\n\n"
            "    z = 0.5 * np.pi\n    for _ in range(n):\n        z = z - 0.1 * g(z)\n    return z\n",
            expected="import jax\nimport numpy as np\n\ndef solve(k, n):\n    c = 2.0 * k + 1.0\n\n    def g(v):\n"
                     "        return v - np.sin(c)\n\n    z = 0.5 * np.pi\n\n    def body(_, z):\n        z = z - 0.1 * g(z)\n"
                     "        return z\n\n    z = jax.lax.fori_loop(0, n, body, z)\n    return z\n",
            unsafe=True,
        ),
        Invalid(  # a reduction over an axis drops it: the carry changes shape (statsmodels' Hamilton filter)
            "import jax.numpy as jnp\n\ndef f(m, n):\n    for _ in range(n):\n        m = jnp.sum(m, axis=0)\n    return m\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # `jnp.delete` needs a concrete position (astropy's jackknife_resampling)
            "import jax.numpy as jnp\n\ndef f(data):\n    n = data.shape[0]\n    r = jnp.zeros((n, n - 1))\n    for i in range(n):\n"
            "        r = r.at[i].set(jnp.delete(data, i))\n    return r\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(data):\n    n = data.shape[0]\n    r = jnp.zeros((n, n - 1))\n\n"
                     "    def body(i, r):\n        r = r.at[i].set(jnp.delete(data, i))\n        return r\n\n"
                     "    r = jax.lax.fori_loop(0, n, body, r)\n    return r\n",
            unsafe=True,
        ),
        Invalid(  # Python's `min` of the counter raises once the counter is traced (cma's bukin)
            "def f(x):\n    s = 0.0\n    for k in range(len(x) // 2):\n        s += x[min((2 * k + 1, len(x) - 1))]\n    return s\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(x):\n    s = 0.0\n    x_jax = jnp.asarray(x)\n\n"
                     "    def body(k, s):\n        s += x_jax[min((2 * k + 1, len(x_jax) - 1))]\n        return s\n\n"
                     "    s = jax.lax.fori_loop(0, len(x) // 2, body, s)\n    return s\n",
            unsafe=True,
        ),
        Invalid(  # a unit library in the module: JX501 renames `np.sqrt` only as an unsafe fix, and NumPy in the traced
            # body raises (lenstronomy's astropy cosmology)
            "import numpy as np\nfrom astropy import units as u\n\ndef f(x, n):\n    s = 0.0\n    for i in range(n):\n"
            "        s = s + np.sqrt(x[i])\n    return s\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom astropy import units as u\n\ndef f(x, n):\n"
                     "    s = 0.0\n    x_jax = jnp.asarray(x)\n\n    def body(i, s):\n        s = s + np.sqrt(x_jax[i])\n"
                     "        return s\n\n    s = jax.lax.fori_loop(0, n, body, s)\n    return s\n",
            unsafe=True,
        ),
        Invalid(  # an item of what may be a list of tuples, indexed by the traced counter: `TracerIntegerConversionError`
            "import jax.numpy as jnp\n\ndef weighted(w, groups, n):\n    total = jnp.zeros(())\n    for j in range(n):\n"
            "        total = total + w[j] * sum(g[j] for g in groups)\n    return total\n",
            expected=None, lines=[5],
        ),
        Invalid(  # a module-level dict indexed by a key the body computes from the traced counter: hashing a tracer
            # raises `TypeError: unhashable type` (giddy's LISA_Markov move types): reported, the Python loop stays
            "import jax.numpy as jnp\n\nCODES = {(a, b): 3 * a + b for a in range(3) for b in range(3)}\n\n"
            "def f(src, dst, n):\n    out = jnp.zeros_like(src)\n    for i in range(n):\n        pair = (src[i], dst[i])\n"
            "        out = out.at[i].set(CODES[pair])\n    return out\n",
            expected=None, lines=[7],
        ),
        Invalid(  # ... or a set tested for a traced value: reported
            "SEEN = {1, 4, 9}\n\ndef h(x, n):\n    hits = 0\n    for i in range(n):\n        hits = hits + (x[i] in SEEN)\n"
            "    return hits\n",
            expected=None, lines=[5],
        ),
        Invalid(  # a module-level NumPy table made through an array method (`np.linspace(...).reshape(...)`) stays
            # NumPy, which rejects the traced index (giddy's LISA_Markov move table): unsafe
            "import jax.numpy as jnp\nimport numpy as np\n\nGRID = np.linspace(0.0, 1.0, 12).reshape(3, 4)\n\n"
            "def g(rows, cols, n):\n    out = jnp.zeros(n)\n    for i in range(n):\n"
            "        out = out.at[i].set(GRID[rows[i], cols[i]])\n    return out\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\nGRID = np.linspace(0.0, 1.0, 12).reshape(3, 4)\n\n"
                     "def g(rows, cols, n):\n    out = jnp.zeros(n)\n    cols_jax = jnp.asarray(cols)\n    rows_jax = jnp.asarray(rows)\n\n"
                     "    def body(i, out):\n        out = out.at[i].set(GRID[rows_jax[i], cols_jax[i]])\n        return out\n\n"
                     "    out = jax.lax.fori_loop(0, n, body, out)\n    return out\n",
            unsafe=True,
        ),
    ]

    def visit_For(self, node: cst.For) -> None:
        fn = self.current_function
        call = node.iter
        if fn is None or not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "range"):
            return
        if not 1 <= len(call.args) <= 3 or any(a.keyword is not None or a.star for a in call.args):
            return
        args = [a.value for a in call.args]
        start, stop, step = (cst.Integer("0"), args[0], cst.Integer("1")) if len(args) == 1 else (*args[:2], args[2] if len(args) == 3 else cst.Integer("1"))
        traced_bound = any(tracedness(self, a) is not Tracedness.STATIC for a in args)
        flow = function_flow(self, fn)
        carried = loop_carried(flow, node)
        if not traced_bound:
            literal = [gen.int_literal(a) for a in args]
            if None not in literal and len(range(*literal)) <= self.context.setting("unroll-max", UNROLL_MAX):
                return  # small static loop: unrolls under jit
            if not any(tracedness(self, cst.Name(n)) is not Tracedness.STATIC for n in carried):
                return  # host-side Python loop
        self.rewrite(node, fn, flow, carried, start, stop, step, traced_bound)

    def rewrite(self, node, fn, flow, carried, start, stop, step, traced_bound) -> None:
        problem = self.problem(node, flow, carried, step)
        what = "traced bound" if traced_bound else "static bound (unrolls under `jit`)"
        if problem and not traced_bound:
            return  # a static loop that cannot be converted still works under jit (unrolled)
        if problem:
            self.report(node, f"`for` loop over `range` with a {what} cannot become `lax.fori_loop`: {problem}")
            return
        if not carried:
            return
        index = node.target.value  # type: ignore[attr-defined]
        taken = flow.reads(list(fn.body.body)) | flow.writes(list(fn.body.body)) | set(flow.params)
        name = gen.fresh(self, fn, "body", taken)
        s = gen.int_literal(step)
        a, b = gen.linear(start), gen.linear(stop)
        if s == 1:
            param, prologue = index, ""
            lower, upper = gen.fmt(*a), gen.fmt(*b)
            trip = gen.fmt(*gen.minus(b, a))
        else:
            param = gen.unique("k", taken)
            size = abs(s)
            span = gen.minus(b, a) if s > 0 else gen.minus(a, b)
            span = (span[0], span[1] + size - 1)
            trip = gen.fmt(*span) if size == 1 else f"{gen.paren(gen.fmt(*span))} // {size}"
            if not span[0]:
                trip = str(max(0, span[1] // size))
            sign = "+" if s > 0 else "-"
            first = gen.fmt(*a)
            offset = param if size == 1 else f"{param} * {size}"
            value = f"{offset}" if first == "0" and s > 0 else f"{first} {sign} {offset}"
            prologue = f"{index} = {value}\n"
            lower, upper = "0", trip
        names = list(carried)
        carry = gen.unique("carry", taken) if len(names) > 1 else names[0]
        unpack = gen.unpack_line(names, carry) if len(names) > 1 else ""
        inputs = argument_inputs(flow, node, [index, *([param] if param != index else [])], attributes=True)
        written = written_input_problem(self, flow, fn, inputs)
        if written:
            if traced_bound:
                self.report(node, f"`for` loop over `range` with a {what} cannot become `lax.fori_loop`: {written}")
            return
        renamed, converts = gen.jax_inputs(self, fn, inputs, taken, self.jnp)
        body_fn = gen.function_def(
            f"{name}({param}, {carry})", gen.rename_loads(body_statements(node), renamed), prologue=unpack + prologue,
            epilogue=f"return {gen.targets(names)}\n", config=self.context.module.config_for_parsing,
            comment=gen.header_comment(node),
        )
        loop = f"{gen.targets(names)} = {self.lax}.fori_loop({lower}, {upper}, {name}, {gen.pack(names)})\n"
        after = self.index_after(node, flow, index, start, stop, step, trip, traced_bound)
        if after is False:
            self.report(node, f"`for` loop over `range` with a {what}: the index `{index}` is read after the loop "
                        "but has no value before it when the loop runs zero times")
            return
        new = [body_fn, *self.statements(loop + (after or ""))]
        new[1] = new[1].with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        if converts:  # the body indexes them with the traced index: NumPy arrays would reject it
            new = [*self.statements(converts), gen.blank_line_before(body_fn), *new[1:]]
        opaque = opaque_loop(self, node, fn, "lax.fori_loop") + host_indexed(self, node, fn, inputs) + int_product(function_flow(self, fn), node, names) + scalar_carry_broadcast(function_flow(self, fn), node, names) + carry_dtype_change(self, fn, node, names)
        self.report(
            node,
            f"`for` loop over `range` with a {what}; carry {', '.join(f'`{n}`' for n in names)} through `lax.fori_loop`{opaque}",
            replacement=self.replace_statement(node if converts else gen.spaced(node, fn), new),
            unsafe=bool(opaque),
            title="replace with `lax.fori_loop`" + (" (forward-mode differentiation only: traced trip count)" if traced_bound else ""),
            imports=("lax", "jnp") if "where" in after or converts else ("lax",),
        )

    def problem(self, node: cst.For, flow, carried, step) -> Optional[str]:
        if node.orelse is not None:
            return "`for ... else` (the `else` block runs only when the loop ends without `break`)"
        if not isinstance(node.target, cst.Name):
            return "the loop target is not a single name"
        if gen.int_literal(step) in (None, 0):
            return "the step is not an integer literal, so the direction of the loop is unknown"
        body = body_statements(node)
        if appends(body):
            return "it appends to a list (stacked outputs need static bounds: see JX222)"
        found = body_obstacles(body)
        if found:
            return found[0][1]
        shaped = shaped_loop_body(self, body) or held_problem(held_numpy(self, node, self.current_function))
        if shaped:
            return shaped
        for test in branch_tests(body):
            if tracedness(self, test) is not Tracedness.STATIC or node.target.value in flow.reads(test):
                return "a Python `if`/`while` in the body depends on traced values (the branch rules convert it first)"
        args = [a.value for a in node.iter.args]  # type: ignore[attr-defined]
        sequence = indexed_sequence(function_tracedness(self, self.current_function), self.current_function, body,
                                    node.target.value, args[0] if len(args) == 1 else args[1], self.context.module)
        if sequence is not None:
            name, certain = sequence
            return (f"`{name}` {'is' if certain else 'may be'} a Python list or tuple indexed by the loop index, which "
                    "a traced index cannot do; keep a static trip count (the loop unrolls), or stack it into one array "
                    "(`jnp.stack`) if its elements share one shape")
        item = indexed_item(self.current_function, body, node.target.value)
        if item is not None:
            return item_problem(item, "the loop index", "lax.fori_loop")
        container = host_container_use(function_tracedness(self, self.current_function), self.current_function, body,
                                       [node.target.value, *carried], self.context.module)
        if container is not None:
            return container
        static_use = static_index_uses(body, node.target.value, callees=(self.context.module, self.current_function))
        if static_use:
            return f"the index `{node.target.value}` is used where a Python int is required ({static_use})"
        problem = carry_problem(flow, node, carried) or carry_dtype_problem(self, self.current_function, node, carried)
        if problem:
            return problem
        later = python_value_after(self, self.current_function, node, sorted(carried))
        if later is not None:
            return f"`{later[0]}` is then used on line {later[2]} ({later[1]}), where only a Python value can stand"
        return None

    def index_after(self, node, flow, index, start, stop, step, trip, traced):
        """Statements giving the index its last value after the loop ("" if unused after; False if impossible)."""
        if index not in flow.live_out(node):
            return ""
        s = gen.int_literal(step)
        if abs(s) == 1:
            last = gen.fmt(*gen.minus(gen.linear(stop), ("", s)))
        else:
            last = f"{gen.fmt(*gen.linear(start))} {'+' if s > 0 else '-'} ({trip} - 1) * {abs(s)}"
        literal = gen.int_literal(cst.parse_expression(trip)) if trip.lstrip("-").isdigit() else None
        undefined = flow.maybe_undefined(node, index)
        if literal is not None and literal > 0:
            return f"{index} = {last}\n"
        if not traced and undefined:  # zero trips leave it unbound, as the original does (a later loop may bind it)
            return f"if {trip} > 0:\n    {index} = {last}\n"
        if not traced:
            return f"{index} = {last} if {trip} > 0 else {index}\n"
        if undefined:
            return False
        return f"{index} = {self.jnp}.where({trip} > 0, {last}, {index})\n"

