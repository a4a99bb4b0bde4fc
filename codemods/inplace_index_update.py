from __future__ import annotations

import ast
import functools
import math
import re
from typing import Optional

import libcst as cst

from codemods import _buffers, _inplace
from jaxfix import walk
from codemods._branch_values import PYTHON_OBJECTS
from codemods._inplace import Target, Verdict
from jaxfix.analysis.masks import FunctionFacts, Kind as MaskKind, MaskProvider, function_facts, mask_index
from jaxfix.analysis.aliases import VIEW_ATTRIBUTES, AliasProvider
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.tracedness import TracednessProvider  # `_inplace.judge` asks `_kept_numpy`
from jaxfix.analysis.numpy_names import NumpyNameProvider
from jaxfix.analysis.static_values import is_static_expression
from jaxfix.analysis.value_dtypes import BOOL, FLOAT, INT, dtype_of
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability

# values an augmented assignment extends a list, tuple or string with (`self.items += [v]`)
_SEQUENCE_DISPLAYS = (cst.List, cst.Tuple, cst.ListComp, cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)
AT_METHODS = {"+=": "add", "-=": "subtract", "*=": "multiply", "/=": "divide", "**=": "power"}


# array properties NumPy lets code assign, which writes into the array
ARRAY_PROPERTIES = {"flat", "real", "imag", "shape"}


def _view_attribute(base: cst.BaseExpression) -> Optional[cst.Attribute]:
    """`x.flat`, `x.real`, `x.T` in the base of a target (`x.flat[i] = v`): a view attribute, or None."""
    while isinstance(base, cst.Attribute):
        if base.attr.value in VIEW_ATTRIBUTES:
            return base
        base = base.value
    return None


class InplaceIndexUpdate(Rule):
    """
    ## What it does
    Rewrites item assignment on arrays into functional updates: `x[i] = v` -> `x = x.at[i].set(v)`, and
    `x[i] += v` (`-=`, `*=`, `/=`, `**=`) -> `x = x.at[i].add(v)` (`.subtract`, `.multiply`, `.divide`, `.power`);
    other operators become `x = x.at[i].set(x[i] // v)`. Chained targets `x[i][j]` (when `x[i]` is one element),
    attribute targets `self.w[i]`, several targets on one line and tuple targets (`x[i], x[j] = x[j], x[i]`) are
    handled. It also reports `v *= c` on a plain name when `v` shares memory with another live name or a parameter,
    and `self.p /= v` on an attribute the module holds a NumPy array in (it makes one there, `self.p = np.array(...)`,
    or writes into it in place), without a fix: NumPy writes into that array, which every reference to it sees, but
    when the array or the value is a JAX array Python rebinds the attribute instead (other references keep the old
    values, a later `.fill` raises), so the function stays NumPy.

    ## Why is this bad?
    JAX arrays are immutable: item assignment raises `TypeError` on a JAX array, and a NumPy array cannot hold
    traced values under `jit`.

    ## Example
    ```python
    def smooth(x):
        y = x.copy()
        y[1:-1] += 0.5 * x[:-2]
        return y
    ```

    ## Use instead
    ```python
    def smooth(x):
        y = x.copy()
        y = y.at[1:-1].add(0.5 * x[:-2])
        return y
    ```

    ## Fix safety
    Safe when the array was created in the function and no other live name, container or attribute refers to its memory.
    An array made from a parameter by array methods, indexing or arithmetic (`y = X.flatten()`, `r = S.copy()`, `y =
    X[1:] * 2`, also by a parallel tuple or chained assignment, `x, r = S.copy(), S.copy()`) is the caller's kind of
    array, NumPy's when the function is called outside `jit`: the parameter is read
    through JAX where it is bound (`y = jnp.ravel(X)`, `jnp.array(S)`, `jnp.asarray(X)[1:] * 2`; so through
    `reshape`, which gives a NumPy array a NumPy array, `jnp.reshape` too), or the update reads
    `jnp.asarray(y)` when `y` is bound on several paths (also for JX102). Unsafe, with a message saying why, when the
    array is a parameter (the caller saw NumPy's update; JX104 proposes returning it), an attribute (`self.w`), or comes
    from a call jaxfix cannot see into (or is computed only from such calls, `rng.uniform(size=n) < p`: it may stay a
    NumPy array, which has no `.at`; a NumPy function JX501 has no `jax.numpy` counterpart for, `np.loadtxt`,
    `np.fromiter`, makes a NumPy array for certain: no fix). Reported without a fix when a later-used alias (`y = x`) or view (`row = a[0]`,
    `a.T`, `np.asarray(p)`) shares the memory, when the array is stored in a container, or when it is a view of a
    parameter: a rebinding cannot reach those; when the name is a Python list on one path and a NumPy call's array on
    another (`mult = [1]`, then `mult = np.hstack((mult, [1]))` in the loop): the write stays NumPy's, and so must
    that array; and when JX501 keeps the NumPy call that makes the array NumPy (it goes
    to `scipy.sparse`, is hashed, made text, is evenly spaced values a `for` loop runs over, also through a copy:
    `llfs = alphas.copy()`; or a module helper's result goes to `scipy.fftpack`: `codemods._kept_numpy`), so the array has no `.at` and must not become a
    JAX array (also for JX102, JX103, JX301). While such a write stays, no other rule's fix is applied in its function
    (outermost, when nested), which would otherwise turn the array it writes into into an immutable JAX array. An
    augmented update with an index that may repeat positions (an integer array) becomes `x.at[idx].set(x[idx] + v)`,
    which matches NumPy's buffered update (the last write wins); it is unsafe unless `v` is a constant. A tuple
    assignment whose right side may be a view (`a[0], a[1] = a[1], a[0]` on rows) is unsafe: NumPy does not swap rows
    that way, the rewrite does. `x[i] = v` where `v` may have more axes than the selection (a call that adds axes:
    `np.tile(v, (1, 2))`, `reshape`, `np.atleast_2d`, `np.outer`, `v[None]`, `np.array` of a nested display `[[a, b]]`,
    also through a local bound to one: `ms * 2`, a slice of one, `x[:, a:b]`, or the left operand of a matrix
    product, `x @ G`, `np.matmul(x, G)`, `np.dot(x, G)`; a parameter counts when every assignment reaching the
    update rebinds it: `x = np.reshape(x, (1, len(x)))`) is unsafe unless the selection is known to
    have as many axes as the value can (`A[:, :] = np.eye(n)`): NumPy drops the value's leading length-1 axes,
    `.at[i].set` raises. So is a row (`G[i]`, some axes left) of an array made with a length-1 axis (`np.zeros(n)[:,
    None]`, `np.zeros((n, 1))`, `x.reshape(-1, 1)`, `keepdims=True`) given a value whose number of axes is not known to
    be at most the row's (an item of a parameter, `s[i] - 0.5` with `s` of shape `(n, 1, 1)`: scikit-rf). `v *= c` on a name shared with a view is reported without a fix (JAX rebinds `v`, the
    view keeps the old values); when the other names are whole-array aliases (`alias = v`, both created here), they are
    rebound after the update (`alias = v`), which keeps NumPy's sharing exactly (safe). While an unsafe fix stands
    unapplied, no other fix is applied inside the function (as for every in-place rule): the remaining NumPy mutation
    would otherwise meet arrays the migration had turned into JAX arrays, and the function would work neither with NumPy
    nor under `jit`. Writes through a view attribute (`x.flat[i] = v`, `x.real[...] = v`, `x.T[...] = v`) and through a
    boolean mask among other indices (`x[m, :] = v`) are reported without a fix, and so hold the function back too.

    ## Known problems
    Boolean-mask targets (`x[x < 0] = 0`) are left to the masks rules (JX3xx). `x[idx] = v` with repeated positions
    in `idx` and different values in `v` picks one of them in JAX (NumPy: the last). Whether a parameter is an array
    is inferred from how it is used (slices, `.shape`, NumPy calls); a dict indexed only by a name is left alone,
    unless a NumPy call binds the name to an array on another path (`signal = store[k]` or `signal = np.full(...)`).
    JAX computes a scatter in the promoted dtype and casts back: `ints.at[i].set(0.5)` stores 0 like NumPy, but
    int32 values beyond 2**24 elsewhere in the array pass through float32 and may lose precision. An index out of
    bounds raises `IndexError` in NumPy, where `.at[]` drops the update (JAX's default `mode`): code that relies on
    the error is seen only where a `try` around the write, or around a call of its function in the module, names
    `IndexError` or `LookupError` (the fix is then unsafe), not in a catch-all `except Exception:`. NumPy drops
    leading axes of length 1 from the value of an assignment (a `(1, 3)` value into the `(3,)` row `out[i]`), which
    `.at[].set` rejects (`ValueError: Cannot broadcast to shape with fewer dimensions`): the shapes are not known
    where the rewrite is made, so that update fails loudly after the migration (nitime's `out[i] = v` with `v` of
    shape `(1, n)`; pyod's `c[supp] = cs` with `cs` of shape `(1, len(supp))` from `sparse_encode`); reshape the value
    by hand (`v.reshape(out[i].shape)`). Only values made by a call that adds axes, and values of unknown rank written
    into a row of an array made with a length-1 axis, are caught: elsewhere a value of unknown rank (a parameter, an
    unknown function's result, an item of another array) is the common case of `x[i] = v` (neurokit2's embedding rows
    `y[i] = x[i:i + k]`, filterpy's `sigmas[0] = x`), and taking each for one with extra axes would make most of these
    fixes unsafe.
    """

    CODE = "JX101"
    KEEPS_ARRAYS_NUMPY = True  # see Rule.KEEPS_ARRAYS_NUMPY
    HOLDS_BACK_UNFIXED = True  # see Rule.HOLDS_BACK_UNFIXED
    SUMMARY = "in-place item assignment on an array; use `x = x.at[idx].set(v)`"
    FIX = FixAvailability.SOMETIMES
    may_apply_to_tree = staticmethod(_inplace.updates_in_functions)
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, NumpyNameProvider, AliasProvider, DataflowProvider, MaskProvider, ParentProvider, TracednessProvider)
    ORDER = 40

    VALID = [
        Valid("import numpy as np\nX = np.zeros(3)\nX[0] = 1.0\n"),
        # an attribute sorted in place and grown by `+=` of a list display: a list, not an array updated as a whole
        Valid("import numpy as np\n\nclass H:\n    def __init__(self):\n        self.items = [0.0]\n\n    def add(self, v):\n"
              "        self.items.sort()\n        self.items += [np.sqrt(v)]\n"),
        Valid("def f(cache, key, v):\n    cache[key] = v\n    d = {}\n    d['a'] = 1\n    return d\n"),
        # under `isinstance(arg, list)`: a list, which has no `.at` (python-control's index lists)
        Valid("import numpy as np\ndef f(arg, labels):\n    if isinstance(arg, list):\n        arg = arg.copy()\n"
              "        for i, idx in enumerate(arg):\n            arg[i] = labels.index(idx)\n    return np.asarray(arg)\n"),
        # a copy of a dict (`d.items()`) or of a DataFrame (`df.columns`): `jnp.array(d)` and `.at` would break it
        Valid("import numpy as np\ndef f(d):\n    out = d.copy()\n    for k, v in d.items():\n        out[k] = np.sqrt(v)\n"
              "    return out\n"),
        Valid("import numpy as np\ndef f(df):\n    df = df.copy()\n    for col in df.columns:\n        df[col] = df[col] * 2\n"
              "    return df\n"),
        # a copy of a parameter a call passes a list or a dict display, or a name unpacked with `**` (obspy's
        # `write_npz`): item assignment keeps a list a list and a dict a dict, where `.at` would make an array
        Valid("def bump(xs):\n    ys = xs.copy()\n    ys[0] = 10\n    return ys\n\ndef run():\n    return bump([1, 2, 3]) * 2\n"),
        Valid("import numpy as np\n\ndef save(f, data, rates):\n    out = data.copy()\n    for k in rates:\n"
              "        out[k + '_rate'] = rates[k]\n    np.savez(f, **out)\n"),
        # a copy written at keys running over a list of strings: a dict (pysteps' reprojected metadata)
        Valid("def meta(src, dst):\n    out = src.copy()\n    for key in ['projection', 'xorigin']:\n        out[key] = dst[key]\n"
              "    return out\n"),
        Valid("import jax.numpy as jnp\ndef f(x):\n    y = jnp.zeros(3)\n    y = y.at[0].set(x)\n    return y\n"),
        Valid(  # a Python list on one path, an array on the other: item assignment keeps the list a list, which the
            # caller concatenates; `.at` would return an array (fluids' translate_into)
            "import numpy as np\n\ndef f(x, low, as_np=False):\n    if not as_np:\n        x = [i for i in x]\n    else:\n"
            "        x = x.copy()\n    for i in range(len(x)):\n        x[i] = x[i] - low[i]\n    return x\n"),
        Valid("def f(n):\n    xs = [0] * n\n    xs[0] = 1\n    i = 0\n    i += 1\n    return xs, i\n"),
        Valid("import numpy as np\ndef f(y, k):\n    n = y.shape[0] - 1\n    start = stop = n\n    start >>= 1\n    return np.sum(y[start:stop])\n"),
        Valid("import numpy as np\n\ndef run(x, opts, **kwds):\n    kwargs = kwds.copy()\n    kwargs[\"workers\"] = map\n    d = opts.copy()\n    d[\"n\"] = x.shape[0]\n    return np.sum(x), kwargs, d\n"),
        Valid(  # a record array's field, named by a variable running over its dtype's field names (pyod's tree
            # realignment): no index, and JAX has no record arrays
            "import numpy as np\n\ndef realign(nodes, layout):\n    out = np.zeros(len(nodes), dtype=layout)\n"
            "    for name in layout.names:\n        out[name] = nodes[name]\n    return out\n"),
        Valid(  # compiled by numba (decorated, or handed to `nb.jit`): NumPy code that numba runs and `jnp` would break
            "import numba as nb\nimport numpy as np\n\ndef fill(n, out):\n    out[0] = np.sum(out)\n    return out\n\nfill_jit = nb.jit(fill, nopython=True)\n\n@nb.njit\ndef g(out):\n    out[0] = 1.0\n    return out\n"
        ),
        Valid(  # handed to `jit` imported from numba (arch's `figarch_weights = jit(figarch_weights_python, nopython=True)`)
            "import numpy as np\nfrom numba import jit\n\ndef decay_python(p, n):\n    w = np.empty(n)\n    w[0] = 1.0\n"
            "    for i in range(1, n):\n        w[i] = w[i - 1] * p + np.sum(w[:i])\n    return w\n\n"
            "decay = jit(decay_python, nopython=True)\n"),
    ]
    INVALID = [
        Invalid(  # a matrix product whose left operand has a leading length other than 1 adds no axis: safe (the code
            # review's `np.dot(A, v[i])`, `A = np.ones((3, 2))`; sdeint's `np.dot(Gn, Ik)`)
            "import numpy as np\n\ndef f(v, n):\n    y = np.zeros((n, 3))\n    A = np.ones((3, 2))\n    for i in range(n):\n"
            "        y[i] = np.dot(A, v[i])\n    return y\n",
            expected="import numpy as np\n\ndef f(v, n):\n    y = np.zeros((n, 3))\n    A = np.ones((3, 2))\n    for i in range(n):\n"
                     "        y = y.at[i].set(np.dot(A, v[i]))\n    return y\n",
        ),
        Invalid(  # a row made (1, k) by a reshape of the parameter, through a slice and a matrix product: the value is
            # (1, n), which NumPy writes into the (n,) slice and `.at[].set` rejects (scikit-dsp-comm's hamm_encoder)
            "import numpy as np\n\ndef project(v, M):\n    out = np.zeros(M.shape[1])\n    v = v.reshape(1, -1)\n"
            "    out[:] = (v[:, :3] @ M) * 2\n    return out\n",
            expected="import numpy as np\n\ndef project(v, M):\n    out = np.zeros(M.shape[1])\n    v = v.reshape(1, -1)\n"
                     "    out = out.at[:].set((v[:, :3] @ M) * 2)\n    return out\n",
            unsafe=True,
        ),
        Invalid(  # a float value written into an integer or boolean array: NumPy casts it (truncating), `.at[].set` casts
            # too but warns that the unsafe cast will be an error; the cast is written out (sdeint's `_K`: `np.eye(s)`
            # into an int64 array)
            "import numpy as np\n\ndef select(m, x):\n    K = np.zeros((m, 2 * m), dtype=np.int64)\n    K[:, :m] = np.eye(m)\n"
            "    w = np.linspace(0.0, 1.0, m)\n    K[0, :m] = w * 3\n    K[1, 0] = 2.7\n    seen = np.zeros(m, dtype=bool)\n"
            "    seen[0] = 1\n    seen[1:] = K[1, 1:m]\n    return K, seen\n",
            expected="import numpy as np\n\ndef select(m, x):\n    K = np.zeros((m, 2 * m), dtype=np.int64)\n"
            "    K = K.at[:, :m].set(np.eye(m, dtype=K.dtype))\n    w = np.linspace(0.0, 1.0, m)\n"
            "    K = K.at[0, :m].set((w * 3).astype(K.dtype))\n    K = K.at[1, 0].set(2)\n    seen = np.zeros(m, dtype=bool)\n"
            "    seen = seen.at[0].set(True)\n    seen = seen.at[1:].set(K[1, 1:m].astype(seen.dtype))\n    return K, seen\n",
            lines=[5, 7, 8, 10, 11]),
        Invalid(  # a name bound to a mask, among other indices: `.at[m, 1:]` fails under `jit`, and raises even outside
            # it when `m` is a NumPy boolean scalar (`angle == 0.0` of a NumPy float: pytransform3d's screw axes); so
            # does a mask made by a call in the index itself
            "import numpy as np\n\ndef clear(p, angle, w):\n    out = np.ones((3, 4))\n    still = angle == 0.0\n"
            "    out[still, 1:] = 0.0\n    out[1:, np.isnan(w)] = 0.0\n    return out\n",
            expected=None, lines=[6, 7]),
        Invalid(  # text written into a numeric array: NumPy parses it, a JAX array's `.at[].set` raises `TypeError`, so
            # the array stays NumPy and its update too (astroML's readers of text files)
            "import numpy as np\n\ndef parse(lines):\n    res = np.zeros((len(lines), 3), dtype=int)\n"
            "    for i, line in enumerate(lines):\n        res[i] = line.strip().split(',')\n    return res\n",
            expected=None, lines=[6]),
        # a whole-array augmented update of an attribute holding a NumPy array the module makes (`self.p =
        # np.array(...)`): NumPy writes into it (every reference sees it), a JAX value on the right rebinds it
        # (`np.sum` renamed `jnp.sum`: filterpy's IMM `mu`); an attribute holding a number is no array (`self.n`)
        Invalid("import numpy as np\n\nclass Bank:\n    def __init__(self):\n        self.p = np.array([1.0, 3.0])\n"
                "        self.n = 0\n\n    def normalize(self):\n        self.p /= np.sum(self.p)\n        self.n += 1\n",
                expected=None, lines=[9]),

        Invalid(  # a write in a `try` that catches `IndexError`: NumPy raises it for an index out of bounds, `.at[]` drops
            # the update silently, so the `except` branch would stop running (reviewers' repros d#10, i#16)
            "import jax.numpy as jnp\n\ndef put(i, v):\n    y = jnp.zeros(3)\n    try:\n        y[i] = v\n"
            "    except IndexError:\n        return None\n    return y\n",
            expected="import jax.numpy as jnp\n\ndef put(i, v):\n    y = jnp.zeros(3)\n    try:\n        y = y.at[i].set(v)\n"
                     "    except IndexError:\n        return None\n    return y\n",
            unsafe=True, lines=[6]),
        Invalid(  # ... or in a function a caller calls in such a `try` (a code review's "OOB without a local try")
            "import jax.numpy as jnp\n\ndef put(i, v):\n    y = jnp.zeros(3)\n    y[i] = v\n    return y\n\n"
            "def safe_put(i, v):\n    try:\n        return put(i, v)\n    except IndexError:\n        return None\n",
            expected="import jax.numpy as jnp\n\ndef put(i, v):\n    y = jnp.zeros(3)\n    y = y.at[i].set(v)\n    return y\n\n"
                     "def safe_put(i, v):\n    try:\n        return put(i, v)\n    except IndexError:\n        return None\n",
            unsafe=True, lines=[5]),
        Invalid(  # a module using a unit library: every fix is unsafe, as with pandas (a quantity has no `.at`, and
            # `jnp.where`/`lax` drop its units)
            "import jax.numpy as jnp\nfrom astropy import units as u\n\ndef f(n):\n    x = jnp.zeros(n)\n    x[0] = 1.0\n"
            "    return x\n",
            expected="import jax.numpy as jnp\nfrom astropy import units as u\n\ndef f(n):\n    x = jnp.zeros(n)\n"
            "    x = x.at[0].set(1.0)\n    return x\n",
            unsafe=True, lines=[6],
        ),
        Invalid(  # an array written through the list holding it: it must stay NumPy (python-control's flat systems)
            "import numpy as np\n\ndef f(v, n):\n    z = [np.zeros(n)]\n    z[0][0] = v\n    return z\n",
            expected=None, lines=[5],
        ),
        Invalid(  # a Python object stored in an (object) array: `.at[].set(slice(None))` raises (quantecon)
            "import numpy as np\ndef f(idx):\n    a = np.empty(3, dtype=object)\n    a[0] = slice(None)\n    return a[idx]\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # `np.r_[a, b]` joins into a new array: its update is safe
            "import numpy as np\n\ndef f(a, b):\n    x = np.r_[a, b]\n    x[0] = 1.0\n    return x\n",
            expected="import numpy as np\n\ndef f(a, b):\n    x = np.r_[a, b]\n    x = x.at[0].set(1.0)\n    return x\n",
        ),
        Invalid(  # `r = two[:, 0]` is an array (only arrays take a slice among several indices): its update is rewritten
            "import numpy as np\n\ndef f(a, m):\n    two = np.exp(a)\n    r = two[:, 0]\n    r[m] = 1.0\n    return r\n",
            expected="import numpy as np\n\ndef f(a, m):\n    two = np.exp(a)\n    r = two[:, 0]\n    r = r.at[m].set(1.0)\n    return r\n",
        ),
        Invalid(  # `out[0] = out[1]` copies a value into the array: no reference to `out[1]` is kept
            "import numpy as np\n\ndef f(u):\n    out = np.zeros_like(u)\n    out[0] = out[1]\n    out[-1] = out[-2]\n    return out\n",
            expected=(
                "import numpy as np\n\ndef f(u):\n    out = np.zeros_like(u)\n    out = out.at[0].set(out[1])\n"
                "    out = out.at[-1].set(out[-2])\n    return out\n"
            ),
        ),
        Invalid(
            "import numpy as np\n\ndef f(x):\n    y = np.zeros(4)\n    y[1:3] = x  # middle\n    y[0] **= 2\n    return y\n",
            expected=(
                "import numpy as np\n\ndef f(x):\n    y = np.zeros(4)\n    y = y.at[1:3].set(x)  # middle\n"
                "    y = y.at[0].power(2)\n    return y\n"
            ),
        ),
        Invalid(
            "def f(a):\n    b = a.copy()\n    b[0][1] = 0.0\n    b[-1], b[0] = b[0], b[-1]\n    return b\n",
            # the swap's fix is unsafe (rows are views), so the function is left whole: no half-migrated NumPy
            expected="def f(a):\n    b = a.copy()\n    b[0][1] = 0.0\n    b[-1], b[0] = b[0], b[-1]\n    return b\n",
            lines=[3, 4],
        ),
        Invalid(  # `np.require` gives the caller's array when it meets the requirements: `a /= m` divides it in place
            # in NumPy, and would rebind `a` once `m` is a JAX scalar (obspy's `ar_pick`): reported, nothing migrated
            "import numpy as np\n\ndef scale(a):\n    a = np.require(a, dtype=np.float64)\n    m = np.abs(a).max()\n"
            "    a /= m\n",
            expected=None, lines=[6],
        ),
        Invalid(  # a write through `np.rollaxis` (a view) updates the array (nilearn's TV-L1 divergence): no fix
            "import numpy as np\n\ndef f(x):\n    res = np.zeros((3, 2))\n    v = np.rollaxis(res, 1)\n    v[0] += x\n"
            "    return res\n",
            expected=None, lines=[6],
        ),
        Invalid(
            "def f(x, i):\n    x[i, :] = 0.0\n    return x\n",
            expected="def f(x, i):\n    x = x.at[i, :].set(0.0)\n    return x\n",
            unsafe=True,
            lines=[2],
        ),
        Invalid(  # a draw from a Generator jaxfix cannot convert stays NumPy, and NumPy arrays have no `.at`
            "import numpy as np\n\ndef f(x, p, rng):\n    keep = rng.uniform(size=3) < p\n    keep[0] = True\n"
            "    return np.where(keep, x, 0.0)\n",
            expected="import numpy as np\n\ndef f(x, p, rng):\n    keep = rng.uniform(size=3) < p\n"
                     "    keep = keep.at[0].set(True)\n    return np.where(keep, x, 0.0)\n",
            unsafe=True,
            lines=[5],
        ),
        Invalid(  # the same through a parallel assignment: the name takes its item of the tuple display
            "import numpy as np\n\ndef f(x, p, rng):\n    keep, n = rng.uniform(size=3) < p, 1\n    keep[0] = True\n"
            "    return np.where(keep, x, 0.0) * n\n",
            expected="import numpy as np\n\ndef f(x, p, rng):\n    keep, n = rng.uniform(size=3) < p, 1\n"
                     "    keep = keep.at[0].set(True)\n    return np.where(keep, x, 0.0) * n\n",
            unsafe=True,
            lines=[5],
        ),
        Invalid(  # ... and unpacked from the result of a function of another module (pyod's windowed scores: that
            # module's fixes may be held back, so its array stays NumPy), through a copy
            "from .windows import spread\n\ndef fill(s, n, v):\n    scores, valid = spread(s, n)\n    out = scores.copy()\n"
            "    out[~valid] = v\n    return out\n",
            expected="from .windows import spread\n\ndef fill(s, n, v):\n    scores, valid = spread(s, n)\n    out = scores.copy()\n"
                     "    out = out.at[~valid].set(v)\n    return out\n",
            unsafe=True,
            lines=[6],
        ),
        Invalid(
            "import numpy as np\n\ndef f(v, mu):\n    w = np.ones(3)\n    alias = w\n    w *= mu\n    return alias + v\n",
            expected=(
                "import numpy as np\n\ndef f(v, mu):\n    w = np.ones(3)\n    alias = w\n    w *= mu\n    alias = w\n"
                "    return alias + v\n"
            ),
            lines=[6],
        ),
        Invalid(
            "import numpy as np\n\ndef f(v):\n    w = np.ones(3)\n    row = w[1:]\n    w *= v\n    return row\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # `1.0 - h ** k` is an array (a float literal is not a container)
            "import numpy as np\n\ndef f(h, m):\n    v = 1.0 - h ** np.arange(m)\n    v[0] *= 2.0\n    return v\n",
            expected="import numpy as np\n\ndef f(h, m):\n    v = 1.0 - h ** np.arange(m)\n    v = v.at[0].multiply(2.0)\n    return v\n",
        ),
        Invalid(  # `.flat` is read-only on a JAX array: the function stays NumPy
            "import numpy as np\n\ndef f(x, n):\n    hd = np.empty(n)\n    hd.flat = np.nan\n    return hd + x\n",
            expected="import numpy as np\n\ndef f(x, n):\n    hd = np.empty(n)\n    hd.flat = np.nan\n    return hd + x\n",
            lines=[5],
        ),
        Invalid(  # `h[i, j] = a, b` assigns the tuple: one argument of .set
            "import numpy as np\n\ndef f(h, mag):\n    h = np.zeros((3, 3))\n    h[0, 0:2] = mag, 0\n    return h\n",
            expected="import numpy as np\n\ndef f(h, mag):\n    h = np.zeros((3, 3))\n    h = h.at[0, 0:2].set((mag, 0))\n    return h\n",
        ),
        Invalid(  # None into an empty selection is a NumPy no-op; `.at[...].set(None)` raises
            "import numpy as np\n\ndef f(amat, n):\n    A = np.zeros((n, 3))\n    m = np.size(amat, 0) if amat is not None else 0\n    A[:, :m] = amat.T if amat is not None else amat\n    return A\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # ... and a parameter rebound to another module's result: its cast or copy may still be a NumPy
            # array (PyEMD's `S = unify(S)`, then `residue = S.astype(S.dtype)`: `.at` raised AttributeError)
            "import numpy as np\nfrom .prep import clean\n\ndef f(x, v):\n    x = clean(x)\n    y = x.astype(x.dtype)\n"
            "    y[1:] = v\n    return np.sum(y)\n\ndef g(x, v):\n    x = clean(x)\n    z = x.copy()\n    z[0] = v\n"
            "    return np.sum(z)\n",
            expected="import numpy as np\nfrom .prep import clean\n\ndef f(x, v):\n    x = clean(x)\n    y = x.astype(x.dtype)\n"
                     "    y = y.at[1:].set(v)\n    return np.sum(y)\n\ndef g(x, v):\n    x = clean(x)\n    z = x.copy()\n"
                     "    z = z.at[0].set(v)\n    return np.sum(z)\n",
            unsafe=True,
            lines=[7, 13],
        ),
        Invalid(  # a working copy of an argument becomes a JAX array, so `.at` works for a NumPy caller too (PyEMD)
            "def f(S, v):\n    r = S.astype(S.dtype)\n    r[0] = v\n    return r\n",
            expected="import jax.numpy as jnp\n\ndef f(S, v):\n    r = jnp.asarray(S, dtype=S.dtype)\n    r = r.at[0].set(v)\n    return r\n",
        ),
        Invalid(  # a flattened copy of an argument has the caller's kind of array: NumPy's has no `.at` (GPy)
            "def f(X):\n    y = X.flatten()\n    y[0] = 0.0\n    return y\n",
            expected="import jax.numpy as jnp\n\ndef f(X):\n    y = jnp.ravel(X)\n    y = y.at[0].set(0.0)\n    return y\n",
        ),
        Invalid(  # ... through arithmetic and indexing: the parameter is read through `jnp.asarray` where it is used
            "def f(X):\n    y = X[1:] * 2\n    y[0] = 0.0\n    return y\n",
            expected="import jax.numpy as jnp\n\ndef f(X):\n    y = jnp.asarray(X)[1:] * 2\n    y = y.at[0].set(0.0)\n    return y\n",
        ),
        Invalid(  # ... and through `reshape`: `jnp.reshape` of a NumPy array is its `.reshape`, a NumPy array
            # (scikit-dsp-comm's pcm_decode)
            "import jax.numpy as jnp\n\ndef f(X, n):\n    y = jnp.reshape(X.copy(), (n, -1)) * 2.0\n    y[0, 0] = 0.0\n    return y\n",
            expected="import jax.numpy as jnp\n\ndef f(X, n):\n    y = jnp.reshape(jnp.asarray(X).copy(), (n, -1)) * 2.0\n"
                     "    y = y.at[0, 0].set(0.0)\n    return y\n",
        ),
        Invalid(  # ... or, made on one of two paths, the update reads `jnp.asarray` of it
            "import numpy as np\n\ndef f(X, c):\n    y = X.flatten() if c else np.zeros(3)\n    y[0] = 0.0\n    return y\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(X, c):\n    y = X.flatten() if c else np.zeros(3)\n"
                     "    y = jnp.asarray(y).at[0].set(0.0)\n    return y\n",
        ),
        Invalid(
            "def f(S, v):\n    r = S.copy()\n    r[0] = v\n    return r\n",
            expected="import jax.numpy as jnp\n\ndef f(S, v):\n    r = jnp.array(S)\n    r = r.at[0].set(v)\n    return r\n",
        ),
        Invalid(  # ... also bound by a parallel tuple or a chained assignment (filterpy's RTS smoother: `x, P =
            # Xs.copy(), Xs.copy()` stayed NumPy, and `P.at` raised AttributeError)
            "def f(S):\n    x, r = S.copy(), S.copy()\n    r[0] = x[1] * 2\n    return r\n\n"
            "def g(S, v):\n    y = r = S.copy()\n    r[0] = v\n    return r, y\n",
            expected="import jax.numpy as jnp\n\ndef f(S):\n    x, r = S.copy(), jnp.array(S)\n    r = r.at[0].set(x[1] * 2)\n"
                     "    return r\n\ndef g(S, v):\n    y = r = jnp.array(S)\n    r = r.at[0].set(v)\n    y = r\n    return r, y\n",
        ),
        Invalid(  # ... a copy of a name made from one: converted once where it is bound, not at each update (scipy's
            # `_calc_dual_canonical_window`: `DD = jnp.asarray(DD).at[k:]...` in its loop)
            "def f(win, hop):\n    w2 = win.real ** 2\n    DD = w2.copy()\n    for k in range(hop, len(win), hop):\n"
            "        DD[k:] += w2[:-k]\n    return win / DD\n",
            expected="import jax.numpy as jnp\n\ndef f(win, hop):\n    w2 = win.real ** 2\n    DD = jnp.array(w2)\n"
                     "    for k in range(hop, len(win), hop):\n        DD = DD.at[k:].add(w2[:-k])\n    return win / DD\n",
        ),
        Invalid(  # JX501 keeps the array NumPy (it goes to `scipy.sparse`): no `.at`, the function stays NumPy (spafe)
            "import numpy as np\nfrom scipy.sparse import csr_matrix\n\ndef f(rows, n):\n    k = np.zeros((rows, n))\n"
            "    for i in range(rows):\n        k[i] = np.arange(n) * i\n    return csr_matrix(k)\n",
            expected=None,
            lines=[7],
        ),
        Invalid(  # ... also the result of a module helper it keeps NumPy, which goes to `scipy.fftpack` (fluids' pychebfun)
            "import numpy as np\nfrom scipy.fftpack import ifft\n\ndef even(d):\n    return np.concatenate([d, d[-2:0:-1]])\n\n"
            "def f(c):\n    data = even(c) / 2\n    data[0] *= 2\n    return ifft(data).real\n",
            expected=None,
            lines=[9],
        ),
        Invalid(  # ... also evenly spaced values a `for` loop runs over (JX501 keeps them NumPy for the host loop), and a
            # copy of them: `.at` on that NumPy array raised AttributeError (arch's `llfs = alphas.copy()`)
            "import numpy as np\n\ndef scan(y):\n    grid = np.linspace(0.0, 1.0, 5)\n    score = grid.copy()\n"
            "    for k, g in enumerate(grid):\n        score[k] = np.sum(np.abs(y - g))\n    return grid[np.argmin(score)]\n\n"
            "def steps(n, y):\n    w = np.arange(1, n)\n    for v in w:\n        y = y * v\n    w[0] = 0\n    return w, y\n",
            expected=None,
            lines=[7, 14],
        ),
        Invalid(  # ... and a NumPy function JX501 has no `jax.numpy` counterpart for (host I/O: `np.loadtxt`,
            # `np.fromiter`): its array is NumPy's for certain, so `.at` (even as an unsafe fix) would raise
            "import numpy as np\n\ndef read(path):\n    table = np.loadtxt(path)\n    table[0] = 0.0\n    return table\n\n"
            "def gather(items):\n    vals = np.fromiter(items, float) * 2\n    vals[-1] = 1.0\n    return vals\n",
            expected=None,
            lines=[5, 10],
        ),
        Invalid(  # JX501 keeps a call whose namesake rejects its arguments (`where=`, `kind` by position) NumPy: its
            # array has no `.at` (nolds' lyap_r: `lambdas = np.log(p, where=p > 0)`, then an update)
            "import numpy as np\n\ndef f(x, k):\n    r = np.sqrt(x, where=x >= 0)\n    r[k] = 0.0\n    return r\n\n"
            "def g(x):\n    order = np.argsort(x, 0, 'stable')\n    order[0] = -1\n    return order\n",
            expected=None,
            lines=[5, 10],
        ),
        Invalid(  # a value with more axes than the slice: NumPy drops its leading length-1 axes, `.at[].set` raises
            # (commpy's kbest, `np.tile(v, (1, 2))`); an identity matrix into a 2-d selection fits
            "import numpy as np\n\ndef f(v):\n    out = np.zeros(2 * len(v))\n    out[:] = np.tile(v, (1, 2))\n"
            "    return out\n\ndef g(n):\n    A = np.zeros((n, n))\n    A[:, :] = np.eye(n)\n    return A\n",
            expected="import numpy as np\n\ndef f(v):\n    out = np.zeros(2 * len(v))\n    out[:] = np.tile(v, (1, 2))\n"
                     "    return out\n\ndef g(n):\n    A = np.zeros((n, n))\n    A = A.at[:, :].set(np.eye(n))\n    return A\n",
            lines=[5, 10],
        ),
        Invalid(  # a local bound to a nested display has one axis per level: a (1, 2) value into a 1-d selection, where
            # NumPy drops the leading length-1 axis and `.at[].set` raises (pyod's `c[supp] = cs`); a 2-d one fits 2-d
            "import numpy as np\n\ndef put(n, idx):\n    w = np.array([[0.5, 1.5]])\n    out = np.zeros(n)\n"
            "    out[idx] = w\n    return out\n\ndef g():\n    A = np.zeros((2, 2))\n"
            "    A[:, :] = np.array([[1.0, 2.0], [3.0, 4.0]])\n    return A\n",
            expected="import numpy as np\n\ndef put(n, idx):\n    w = np.array([[0.5, 1.5]])\n    out = np.zeros(n)\n"
                     "    out[idx] = w\n    return out\n\ndef g():\n    A = np.zeros((2, 2))\n"
                     "    A = A.at[:, :].set(np.array([[1.0, 2.0], [3.0, 4.0]]))\n    return A\n",
            lines=[6, 11],
        ),
        Invalid(  # the value reads a local bound to a reshape with a leading length-1 axis: NumPy drops it, `.at[].set`
            # raises (pyroomacoustics's `ms = np.reshape(..., (1, -1))`); a row of an identity matrix fits
            "import numpy as np\n\ndef f():\n    ms = np.reshape(np.arange(3.0), (1, -1))\n    G = np.zeros((2, 3))\n"
            "    G[0, :] = ms * 2\n    return G\n\ndef g(n):\n    W = np.eye(n)\n    A = np.zeros((n, n))\n    A[0] = W[1] * 2\n"
            "    return A\n",
            expected="import numpy as np\n\ndef f():\n    ms = np.reshape(np.arange(3.0), (1, -1))\n    G = np.zeros((2, 3))\n"
                     "    G[0, :] = ms * 2\n    return G\n\ndef g(n):\n    W = np.eye(n)\n    A = np.zeros((n, n))\n"
                     "    A = A.at[0].set(W[1] * 2)\n    return A\n",
            lines=[6, 12],
        ),
        Invalid(  # a row of an array made with a length-1 axis, given a value of unknown rank (an item of a parameter):
            # NumPy drops the value's leading length-1 axes (a `(1, 1)` item into the `(1,)` row), `.at[].set` raises
            # (scikit-rf's `G = np.zeros(2 * N)[:, np.newaxis]`, `G[i] = r.real`)
            "import numpy as np\n\ndef stack(s):\n    n = s.shape[0]\n    col = np.zeros(n)[:, None]\n"
            "    for k in range(n):\n        col[k] = s[k] * 2.0\n    return col\n",
            expected="import numpy as np\n\ndef stack(s):\n    n = s.shape[0]\n    col = np.zeros(n)[:, None]\n"
                     "    for k in range(n):\n        col = col.at[k].set(s[k] * 2.0)\n    return col\n",
            unsafe=True,
            lines=[7],
        ),
        Invalid(  # ... but a number, a whole reduction, or a row of a local of known rank fits such a row
            "import numpy as np\n\ndef keep(s, n):\n    out = np.zeros((n, 1))\n    w = np.ones((n, 1))\n    out[0] = 1.0\n"
            "    out[1] = np.sum(s)\n    out[2] = w[2] * 3\n    return out\n",
            expected="import numpy as np\n\ndef keep(s, n):\n    out = np.zeros((n, 1))\n    w = np.ones((n, 1))\n"
                     "    out = out.at[0].set(1.0)\n    out = out.at[1].set(np.sum(s))\n    out = out.at[2].set(w[2] * 3)\n"
                     "    return out\n",
        ),
        Invalid(  # a list on the first turn, a NumPy call's array after: the write stays NumPy's, so must the array,
            # which `jnp.hstack` would make immutable (sk_dsp_comm's unique_cpx_roots)
            "import numpy as np\n\ndef f(r):\n    mult = [1]\n    for k in range(1, len(r)):\n        if r[k] == r[k - 1]:\n"
            "            mult[-1] += 1\n        else:\n            mult = np.hstack((mult, [1]))\n    return mult\n",
            expected=None,
            lines=[7],
        ),
        Invalid(  # an array a NumPy call makes on one path, a dict's entry on the other: an array update, and the
            # array is stored in the dict, which a rebinding cannot reach (pygsp's from_networkx)
            "import numpy as np\n\ndef f(values):\n    store = {}\n    for i, v in enumerate(values):\n"
            "        if 'x' in store:\n            signal = store['x']\n        else:\n"
            "            signal = np.full(len(values), np.nan)\n            store['x'] = signal\n"
            "        signal[i] = v\n    return store['x']\n",
            expected=None,
            lines=[11],
        ),
        Invalid(  # a boolean mask on one path (transforms3d's striu2mat): `.at[mask]` fails under `jit`
            "import numpy as np\n\ndef f(v, n, cache):\n    if n in cache:\n        inds = cache[n]\n    else:\n"
            "        inds = np.triu(np.ones((n, n)), 1).astype(bool)\n    M = np.eye(n)\n    M[inds] = v\n    return M\n",
            expected=None,
            lines=[9],
        ),
        Invalid(  # an update on the line of its block's header: no fix, and the function stays NumPy (JX501 had made
            # `a` a JAX array and left the write: TypeError)
            "import numpy as np\n\ndef f(x, d):\n    a = np.zeros(3)\n    if x > 0: a[0] = x\n"
            "    for i in range(3): a[i] -= d\n    return a\n",
            expected=None,
            lines=[5, 6],
        ),
    ]

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        """`if c: a[0] = x`, `for i in r: a[i] -= d`: an update on the line of its block's header, which the `.at`
        rewrite (of whole statement lines) does not reach: reported without a fix, and the function is left as it
        is (else JX501 would move `a` to JAX and the write would raise `TypeError`)."""
        if self.current_function is None:
            return
        for small in node.body:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                [small.target] if isinstance(small, cst.AugAssign) else []
            written = next((t for t in targets if isinstance(t, cst.Subscript)), None)
            if written is not None:
                self.report(small, f"in-place update of `{self.code(written)}` on the line of its block's header: JAX "
                            "arrays are immutable; put the statement on a line of its own for the `.at` fix (the "
                            "function is left as it is until then)", blocks_function=True)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if self.current_function is None:
            return
        for small in node.body:
            if isinstance(small, cst.Assign):
                self._assign(node, small, alone=len(node.body) == 1)
            elif isinstance(small, cst.AugAssign):
                if isinstance(small.target, cst.Subscript):
                    self._augmented(node, small)
                elif isinstance(small.target, cst.Name):
                    self._augmented_name(node, small)
                elif isinstance(small.target, cst.Attribute):
                    self._augmented_attribute(small)

    # ---- x[i] = v and friends ---------------------------------------------------------------------------------
    def _assign(self, line: cst.SimpleStatementLine, node: cst.Assign, alone: bool) -> None:
        targets = [t.target for t in node.targets]
        for target in targets:  # `a.flat = v`, `a.real = v`, `a.shape = (n, m)`: in-place writes through a property
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value not in (
                    "self", "cls") and target.attr.value in ARRAY_PROPERTIES:
                self.report(node, f"`{self.code(target)} = ...` changes the array `{target.value.value}` in place, which "
                            f"JAX arrays cannot do (their `.{target.attr.value}` is read-only); rebuild the array instead "
                            "(`jnp.full_like`, `.reshape`, `x.real + 1j * v`)")
                return
        if len(targets) == 1 and isinstance(targets[0], (cst.Tuple, cst.List)):
            self._tuple(line, node, targets[0], alone)
            return
        updates = [t for t in targets if isinstance(t, cst.Subscript)]
        if not updates:
            return
        if isinstance(node.value, cst.Call) and isinstance(node.value.func, cst.Name) and node.value.func.value in PYTHON_OBJECTS:
            self.report(node, f"in-place update of `{self.code(updates[0])}` with a Python object "
                        f"(`{self.code(node.value)}`): NumPy stores it in an object array, which JAX has no counterpart "
                        "for (`.at[...].set` raises)")
            return
        if _may_be_none(node.value):
            self.report(node, f"in-place update of `{self.code(updates[0])}` with a value that may be `None`: NumPy stores "
                        "it (into an object array, or nothing into an empty selection), `.at[...].set(None)` raises; "
                        "skip the write when the value is None")
            return
        parsed: list[tuple[Target, Verdict]] = []
        for target in updates:
            got = self._prepare(line, node, target, allow_rebind=alone and len(targets) == 1)
            if got is None:
                return
            parsed.append(got)
        value = _inplace.value_code(self, node.value)
        verdicts = [v for _, v in parsed]
        for target, _ in parsed:  # `out[:] = np.tile(v, (1, 2))`: NumPy drops leading length-1 axes, `.at` raises
            axes = _inplace.added_axes(self, line, target, node.value) or _inplace.unranked_value(self, line, target, node.value)
            if axes is not None:
                verdicts.append(Verdict(reasons=[axes]))
        first = parsed[0][0]
        shown = f"`{first.base_src} = {first.base_src}.at[{first.index_src}].set(...)`"
        if len(targets) == 1:
            value = self._cast(first, node.value, value)
            source = f"{first.base_src} = {first.base_src}.at[{first.index_src}].set({value})"
            self._finish(line, node, source, f"in-place update of array `{first.base_src}`", verdicts, shown)
            return
        bound = {_inplace.root_name(t) for t in targets}
        used = walk.name_values(node.value)
        has_call = walk.contains(node.value, cst.Call)
        if not alone or has_call or used & bound:
            self.report(node, f"in-place update of array `{first.base_src}` in a multiple assignment whose value "
                        "would have to be evaluated once: split it and assign a temporary first")
            return
        lines = []
        by_node = {id(u): p for u, (p, _) in zip(updates, parsed)}
        for target in targets:
            if isinstance(target, cst.Subscript):
                t = by_node[id(target)]
                lines.append(f"{t.base_src} = {t.base_src}.at[{t.index_src}].set({value})\n")
            else:
                lines.append(f"{self.code(target)} = {value}\n")
        new_line = self.replace_statement(line, self.statements("".join(lines)))
        self._emit(line, f"in-place update of array `{first.base_src}`", verdicts, shown, replacement=new_line)

    def _prepare(
        self, line: cst.SimpleStatementLine, node: cst.CSTNode, target: cst.Subscript, allow_rebind: bool = False
    ) -> Optional[tuple[Target, Verdict]]:
        parsed, why = _inplace.split_target(self, line, target)
        if parsed is None:
            if why is not None:
                self.report(node, f"in-place update of `{self.code(target)}`: {why}")
            return None
        view = _view_attribute(parsed.base)
        if view is not None:
            self.report(node, f"in-place update through `{self.code(view)}`, a view of `{self.code(view.value)}` that JAX "
                        f"arrays cannot be written through: update `{self.code(view.value)}` itself (`.at[...]`)")
            return None
        if any(_inplace.is_mask(e.value) for e in parsed.elements if isinstance(e, cst.Index)):
            if len(parsed.elements) > 1:  # `x[m, :] = v`: the masks rules (JX3xx) read a mask alone in the index
                self.report(node, f"in-place update of `{parsed.base_src}` through a boolean mask among other indices "
                            f"(`{self.code(target)}`): it fails under `jit`, and `jnp.where` needs the mask broadcast "
                            "to the array's shape, which jaxfix cannot prove here; rewrite it by hand")
            return None  # boolean masks: JX3xx
        if len(parsed.elements) > 1 and self.current_function is not None:
            facts = function_facts(self, self.current_function)
            masks = [e.value for e in parsed.elements if isinstance(e, cst.Index) and _maybe_mask(facts, e.value)]
            if masks:  # `m = thetas == 0.0`, then `x[m, :2] = v` (pytransform3d): a name bound to a mask, among others
                self.report(node, f"in-place update of `{parsed.base_src}` through `{self.code(masks[0])}`, a boolean "
                            f"mask among other indices (`{self.code(target)}`): `.at[...]` fails under `jit`, and "
                            "outside it too when the mask is a NumPy boolean scalar (`t == 0.0` of a NumPy float); "
                            "`jnp.where` needs the mask broadcast to the array's shape, which jaxfix cannot prove here; "
                            "rewrite it by hand")
                return None
        known = mask_index(self, target)
        if known is not None and known.kind is MaskKind.MASK:
            return None  # a name bound to a mask (`out[bright] = v`): JX3xx, `.at[mask]` fails under jit
        if known is not None and known.kind is MaskKind.UNKNOWN and isinstance(known.mask, cst.Name) \
                and self.current_function is not None:
            facts = function_facts(self, self.current_function)
            mask = next((v for v in facts.bindings.get(known.mask.value, []) if v is not None and facts.is_mask(v)), None)
            if mask is not None:  # `inds = np.triu(...).astype(bool)` on one path, a lookup on another (transforms3d)
                self.report(node, f"in-place update of `{parsed.base_src}` through `{known.mask.value}`, which may be a "
                            f"boolean mask (it is bound to `{self.code(mask).strip()}`): `.at[mask]` fails under `jit` "
                            "unless the mask is a concrete NumPy array; keep it NumPy, or use `jnp.where` by hand")
                return None
        verdict = _inplace.judge(self, line, parsed, allow_rebind=allow_rebind)
        if verdict.skip:
            return None
        if verdict.blocker is not None:
            self.report(node, f"in-place update of array `{parsed.base_src}`: {verdict.blocker}")
            return None
        return parsed, verdict

    def _tuple(self, line: cst.SimpleStatementLine, node: cst.Assign, target: cst.BaseExpression, alone: bool) -> None:
        elements = [e.value for e in target.elements]  # type: ignore[attr-defined]
        if not any(isinstance(e, cst.Subscript) for e in elements):
            return
        values = node.value.elements if isinstance(node.value, (cst.Tuple, cst.List)) else None
        parsed = [self._prepare(line, node, e) if isinstance(e, cst.Subscript) else None for e in elements]
        if any(isinstance(e, cst.Subscript) and p is None for e, p in zip(elements, parsed)):
            return
        bases = {p[0].base_src for p in parsed if p is not None}
        if values is None or len(values) != len(elements) or len(bases) != 1 or not alone or not all(parsed):
            self.report(node, "in-place update of an array in a tuple assignment that jaxfix cannot rewrite in order; "
                        "split it into single updates")
            return
        base = bases.pop()
        verdicts = [p[1] for p in parsed if p is not None]
        views = [self.code(v.value) for v in values if self._may_be_view(line, v.value, base)]
        if views:
            verdicts.append(Verdict(reasons=[
                f"{', '.join(f'`{v}`' for v in views)} may be a view rather than a single element: NumPy then reads it "
                "after the first assignment (rows are not swapped), while the rewrite reads the original values"
            ]))
        chain = "".join(f".at[{p[0].index_src}].set({self.code(v.value)})" for p, v in zip(parsed, values) if p)
        new = self._small(f"{base} = {base}{chain}")
        self._emit(node, f"in-place update of array `{base}` in a tuple assignment", verdicts,
                   f"`{base} = {base}.at[...].set(...).at[...].set(...)`", replacement=new)

    def _may_be_view(self, line: cst.CSTNode, value: cst.BaseExpression, base: str) -> bool:
        if not isinstance(value, cst.Subscript):
            return False
        parsed, _ = _inplace.split_target(self, line, value)
        if parsed is None or parsed.base_src != base:
            return isinstance(value.value, cst.Name) and value.value.value == base
        facts = _inplace.facts(self)
        rank = facts.rank(line, parsed.name) if facts is not None and parsed.name else None
        scalar = all(_inplace.is_scalar_index(self, line, e) for e in parsed.elements)
        return not (scalar and rank == len(parsed.elements))

    # ---- x[i] op= v -------------------------------------------------------------------------------------------
    def _augmented(self, line: cst.SimpleStatementLine, node: cst.AugAssign) -> None:
        got = self._prepare(line, node, node.target, allow_rebind=len(line.body) == 1)  # type: ignore[arg-type]
        if got is None:
            return
        target, verdict = got
        op = node.operator.__class__.__name__
        symbol = _inplace.operator_symbol(node.operator)
        value = _inplace.value_code(self, node.value)
        base, index = target.base_src, target.index_src
        verdicts = [verdict]
        method = AT_METHODS.get(symbol)
        if _inplace.may_repeat(self, line, target):
            if not is_static_expression(node.value):
                verdicts.append(Verdict(reasons=[
                    f"`{index}` may repeat a position: NumPy's buffered `{symbol}` keeps the last update for it; the "
                    "rewrite sets one of them (use `np.add.at` semantics, `.at[].add`, if accumulating was intended)"
                ]))
            method = None
        if method is not None:
            call = f"{method}({value})"
        elif any(walk.contains(e, cst.Call) for e in target.elements if not _inplace.is_pure_int_call(e)):
            self.report(node, f"in-place `{symbol}` on array `{base}`: the index `{index}` contains a call, which the "
                        f"functional form `{base}.at[i].set({base}[i] {symbol[:-1]} v)` would evaluate twice; assign the "
                        "index to a name first")
            return
        else:
            operand = f"({value})" if _inplace.needs_parens(node.value) else value
            call = f"set({base}[{index}] {symbol[:-1]} {operand})"
        shown = f"`{base} = {base}.at[{index}].{call if len(call) < 30 else call.split('(')[0] + '(...)'}`"
        self._finish(line, node, f"{base} = {base}.at[{index}].{call}", f"in-place `{symbol}` on array `{base}` ({op})",
                     verdicts, shown)

    def _augmented_name(self, line: cst.SimpleStatementLine, node: cst.AugAssign) -> None:
        name = node.target.value  # type: ignore[attr-defined]
        facts = _inplace.facts(self)
        if facts is None:
            return
        kinds = facts.kinds(line, name)
        if not kinds & {"fresh", "param", "unknown"}:
            return
        target = Target(node.target, name, [], [])
        shared = sorted(o for o in facts.sharers(line, name) if _inplace.read_after(self, line, o))
        if shared and _inplace.certainly_scalar(self, name):
            return  # a NumPy scalar: `+=` rebinds it in NumPy too, and nothing else sees the update
        symbol = _inplace.operator_symbol(node.operator)
        if shared and not _inplace.made_array(self, name) and not _inplace.has_array_evidence(self, target):
            symbol = _inplace.operator_symbol(node.operator)
            self.report(node, f"`{name} {symbol} ...` with {', '.join(f'`{s}`' for s in shared)} bound to the same value: "
                        f"if `{name}` is an array, NumPy updates it in place and {'they see' if len(shared) > 1 else 'it sees'} "
                        f"the update, while JAX rebinds `{name}` only; if it is a Python number, nothing is shared. jaxfix "
                        "cannot tell which: make the sharing explicit")
            return
        verdict = _inplace.judge(self, line, target, allow_rebind=len(line.body) == 1) if shared else Verdict()
        if shared and verdict.rebind and not verdict.reasons and verdict.blocker is None:
            names = ", ".join(f"`{s}`" for s in verdict.rebind)
            self._finish(line, node, self.code(node), f"`{name} {symbol} ...` updates the array in place in NumPy "
                         f"and {names} sees it, but JAX rebinds `{name}` only", [verdict], f"rebind {names} after it")
            return
        why = []
        if shared:
            why.append(f"{', '.join(f'`{s}`' for s in shared)} refers to the same array")
        if "param" in kinds and _inplace.has_array_evidence(self, target):
            why.append(f"`{name}` belongs to the caller")
        if not why:
            return
        self.report(node, f"`{name} {symbol} ...` updates the array in place in NumPy, but rebinds `{name}` to a new "
                    f"array in JAX: {' and '.join(why)}, which would keep the old values (write the update explicitly "
                    "and rebind or return every name that must see it)")

    def _augmented_attribute(self, node: cst.AugAssign) -> None:
        """`self.p /= v` on an attribute the module holds a NumPy array in (it makes one there, or writes into it in
        place: `_buffers.mutated_attributes`): NumPy writes into the array, which every reference to it sees; a JAX
        array, or a JAX value on the right (NumPy's operator then returns NotImplemented), makes Python rebind the
        attribute to a new array, so other references keep the old values and a later `.fill` raises (filterpy's
        IMM estimator). Reported without a fix, which holds the function back: its values stay NumPy."""
        attr = node.target.attr.value  # type: ignore[attr-defined]
        if attr not in self._array_attributes or isinstance(node.value, _SEQUENCE_DISPLAYS):
            return  # (`self.items += [v]`: a list grown, not an array)
        target, symbol = self.code(node.target), _inplace.operator_symbol(node.operator)
        self.report(node, f"`{target} {symbol} ...` updates the array stored on an object in place in NumPy (every "
                    f"reference to it sees the update), but rebinds `{target}` to a new array when it or the value is "
                    "a JAX array (other references keep the old values): it stays NumPy, and so does this function")

    @functools.cached_property
    def _array_attributes(self) -> dict[str, cst.CSTNode]:
        """The attributes the module writes into in place or updates as arrays it makes with NumPy (`self.p =
        np.array(...)`, then `self.p /= s`): `_buffers.mutated_attributes`, by the module's own code alone."""
        return _buffers.mutated_attributes(self.context.module, {})

    # ---- helpers --------------------------------------------------------------------------------------------
    def _cast(self, target: Target, value: cst.BaseExpression, code: str) -> str:
        """`code`, the value written into `target`, cast to the array's dtype where it is known to be of a higher kind
        (a float array into an integer or boolean array, an integer array into a boolean one: sdeint's `K[r:r+s,
        c:c+s] = np.eye(s)` into `np.zeros(..., dtype=np.int64)`). NumPy casts it on assignment (truncating floats);
        `.at[].set` casts it too, but JAX warns that the unsafe cast will be an error. The cast NumPy makes, written
        out: `np.eye(s, dtype=K.dtype)` for a maker of ones and zeros (exact in any dtype), else `v.astype(K.dtype)`
        (`jnp.asarray(v, dtype=K.dtype)` for a Python number), which truncates as NumPy does."""
        fn = self.current_function
        if fn is None:
            return code
        facts = function_facts(self, fn)
        array, given = dtype_of(facts, target.base), dtype_of(facts, value)
        if not (array.exact and array.name and array.kind in (BOOL, INT) and given.exact
                and array.kind < given.kind <= FLOAT):
            return code
        dtype = f"{target.base_src}.dtype"
        maker = (facts.array_function(value.func) or "").split(".")[-1] if isinstance(value, cst.Call) else ""
        if isinstance(value, cst.Call) and maker in _ONES_AND_ZEROS and not any(a.star for a in value.args) \
                and all(a.keyword is None or a.keyword.value != "dtype" for a in value.args) \
                and sum(a.keyword is None for a in value.args) <= _ONES_AND_ZEROS[maker]:
            given_args = [f"{a.keyword.value}={self.code(a.value)}" if a.keyword else self.code(a.value) for a in value.args]
            return f"{self.code(value.func)}({', '.join([*given_args, f'dtype={dtype}'])})"
        if given.weak:
            try:
                number = ast.literal_eval(code)
            except (ValueError, SyntaxError):
                number = None
            if isinstance(number, (int, float)) and not isinstance(number, bool) and math.isfinite(number) \
                    and abs(number) < 2 ** 31:
                return repr(bool(number)) if array.kind == BOOL else repr(int(number))  # `mask[i] = 1`: `True`
            return f"{self.jnp}.asarray({code}, dtype={dtype})"
        atomic = isinstance(value, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) or value.lpar
        return f"{code if atomic else f'({code})'}.astype({dtype})"

    def _finish(self, line: cst.SimpleStatementLine, node: cst.CSTNode, source: str, problem: str,
                verdicts: list[Verdict], shown: str) -> None:
        """Report the rewrite `source` of `node`; live whole-array aliases are rebound after it (`y = x`)."""
        rebind = list(dict.fromkeys(name for v in verdicts for name in v.rebind))
        if not rebind:
            self._emit(node, problem, verdicts, shown, replacement=self._small(source))
            return
        base = source.split(" ", 1)[0]
        lines = source + "\n" + "".join(f"{name} = {base}\n" for name in rebind)
        problem += f" (`{'`, `'.join(rebind)}` {'is an alias' if len(rebind) == 1 else 'are aliases'} of it: rebound too)"
        new = [cst.ensure_type(stmt, cst.SimpleStatementLine) for stmt in self.statements(lines)]
        # the comment stays on the update's line, not on the rebinding after it
        new[0] = new[0].with_changes(leading_lines=line.leading_lines, trailing_whitespace=line.trailing_whitespace)
        self._emit(line, problem, verdicts, shown, replacement=cst.FlattenSentinel(new))

    def _small(self, source: str) -> cst.BaseSmallStatement:
        line = self.statements(source + "\n")[0]
        assert isinstance(line, cst.SimpleStatementLine)
        return line.body[0]

    def _emit(self, node: cst.CSTNode, problem: str, verdicts: list[Verdict], shown: str, replacement: object) -> None:
        reasons = list(dict.fromkeys(r for v in verdicts for r in v.reasons))
        if reasons:
            message = f"{problem}; the functional rewrite may change behaviour: " + "; ".join(reasons)
        else:
            message = f"{problem}: JAX arrays are immutable"
        copy: dict[cst.CSTNode, cst.CSTNode] = {}
        found = re.match(r"(\w+) = \1\.at\[", self._text(replacement))
        if found is not None:  # an array the caller's kind of array (`y = X.flatten()`) is read through JAX
            small = node.body[0] if isinstance(node, cst.SimpleStatementLine) else node
            copy, wrap = _inplace.jax_input(self, small, found.group(1))
            if wrap:
                replacement = _read_through_jax(replacement, found.group(1), self.expr(f"{self.jnp}.asarray({found.group(1)})"))
        text = self._text(replacement)
        self.report(node, message, replacement=replacement, changes=copy, unsafe=bool(reasons), blocks_function=bool(reasons),
                    title=f"replace with {shown}", imports=("jnp",) if copy else _inplace.uses_jnp(self, text))

    def _text(self, replacement: object) -> str:
        if isinstance(replacement, cst.FlattenSentinel):
            return "".join(self.context.module.code_for_node(n) for n in replacement.nodes)
        return self.code(replacement) if isinstance(replacement, cst.CSTNode) else ""


class _ReadThroughJax(cst.CSTTransformer):
    def __init__(self, name: str, converted: cst.BaseExpression) -> None:
        super().__init__()
        self.name, self.converted = name, converted

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        if updated.attr.value == "at" and isinstance(updated.value, cst.Name) and updated.value.value == self.name:
            return updated.with_changes(value=self.converted)
        return updated


def _read_through_jax(replacement: object, name: str, converted: cst.BaseExpression) -> object:
    """The update `replacement` with `name.at[...]` read as `jnp.asarray(name).at[...]`."""
    transformer = _ReadThroughJax(name, converted)
    if isinstance(replacement, cst.FlattenSentinel):
        return cst.FlattenSentinel([n.visit(transformer) for n in replacement.nodes])
    return replacement.visit(transformer) if isinstance(replacement, cst.CSTNode) else replacement


# makers of ones and zeros (exact in any dtype) -> how many positional arguments come before their `dtype`
_ONES_AND_ZEROS = {"eye": 3, "identity": 1, "zeros": 1, "ones": 1, "empty": 1}


def _may_be_none(value: cst.BaseExpression) -> bool:
    """`None`, or a conditional expression with a `None` side (`amat.T if amat is not None else amat`, whose else
    side is None too)."""
    if isinstance(value, cst.Name) and value.value == "None":
        return True
    if isinstance(value, cst.IfExp):
        test = value.test
        none_tested = (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
                       and isinstance(test.comparisons[0].operator, (cst.Is, cst.IsNot))
                       and isinstance(test.comparisons[0].comparator, cst.Name) and test.comparisons[0].comparator.value == "None")
        if none_tested:
            checked = cst.Module([]).code_for_node(test.left)
            side = value.orelse if isinstance(test.comparisons[0].operator, cst.IsNot) else value.body
            if cst.Module([]).code_for_node(side) == checked:
                return True
        return _may_be_none(value.body) or _may_be_none(value.orelse)
    return False


def _maybe_mask(facts: FunctionFacts, value: cst.BaseExpression) -> bool:
    """A boolean mask (`np.isnan(t)`), or a local name bound to one on some path (`m = t == 0.0`)."""
    if isinstance(value, cst.Name) and value.value not in facts.params:
        return any(v is not None and facts.is_mask(v) for v in facts.bindings.get(value.value, []))
    return facts.is_mask(value)
