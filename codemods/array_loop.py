from __future__ import annotations

import re
from typing import Any, Optional

import libcst as cst

from codemods._sequences import argument_note, sequence
from codemods._kept_numpy import DEPENDENCIES as KEPT_DEPENDENCIES
from codemods._purity import carry_dtype_change, carry_dtype_problem, held_numpy, held_problem, host_indexed, int_product, opaque_loop, purity, scalar_carry_broadcast, shaped_loop_body
from jaxfix import loopgen as gen
from jaxfix import walk
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.loop_values import host_container_use, indexed_item, indexed_sequence, item_problem
from jaxfix.analysis.loops import loops_in_functions
from jaxfix.analysis.loops import (
    argument_inputs, carry_problem, appends, body_obstacles, body_statements, loop_carried, stack_calls, static_index_uses,
    target_names, traced_tests, written_input_problem,
)
from jaxfix.analysis.numpy_names import NumpyNameProvider
from jaxfix.analysis.static_params import ARRAY_METHODS
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, function_tracedness, tracedness
from jaxfix.analysis.masks import MaskProvider
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.scalars import scalar_kind
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class ArrayLoop(Rule):
    """
    ## What it does
    Rewrites loops over the leading axis of arrays (`for row in xs`, `for i, row in enumerate(xs)`,
    `for a, b in zip(xs, ys)`), and loops with a static `range` that build a list (`out = []` ... `out.append(v)`
    ... `np.stack(out)` / `np.array(out)`), into `lax.scan`. Loop-carried variables become the carry; appended
    values become the stacked outputs of the scan. A parameter the body indexes with the element or the carry (a
    NumPy array, when the function is called eagerly, would reject the traced index) is read as `jnp.asarray` of
    it, bound before the loop (see JX220).

    ## Why is this bad?
    A Python loop over an array unrolls under `jit`: compile time grows with the length. A list of traced values
    cannot be built across a `lax` loop, and `np.stack` of tracers fails.

    ## Example
    ```python
    def rnn(xs: np.ndarray, h, W, U):
        hs = []
        for x in xs:
            h = np.tanh(W @ h + U @ x)
            hs.append(h)
        return np.stack(hs)
    ```

    ## Use instead
    ```python
    def rnn(xs: np.ndarray, h, W, U):
        def step(h, x):
            h = jnp.tanh(W @ h + U @ x)
            return h, h

        h, hs = lax.scan(step, h, xs)
        return hs
    ```

    ## Fix safety
    Safe when the body is a pure function of the carry and the current element (see JX220), each list starts as
    `[]` before the loop, is appended to once per iteration at the end of the body and is only used afterwards in
    `np.stack(out)` / `np.array(out)` (the scan already stacks). `scan` is reverse-differentiable. Unsafe when the
    body calls code not known to be pure JAX (`scan` traces it once; see JX220 for NumPy calls JX501 keeps), or indexes with the element an array the
    function got from such a call (a NumPy array rejects a traced index), or zips parameters that may be Python
    lists and indexes with an element of them (`for row, v in zip(rows, vals): values[row] = v`: `zip` stops at the
    shorter list, `lax.scan` raises, and an empty list becomes a float array), or unpacks each element of a value
    it must wrap in `jnp.asarray` (`for [x1, y1] in vs[1:]`: an empty list becomes shape (0,), whose element cannot
    be unpacked in the traced body); reported when the loop iterates over what an unknown call gives (it may be a
    generator or a Python list), or when the body indexes a Python list or tuple (a display, comprehension or
    `list(...)`) with a name the loop binds (a traced index cannot). A loop whose body reads an attribute no array
    has of an element (`item.spread`) walks Python objects, not an array: it is left alone.

    `lax.scan` slices every leaf of what it scans, so a Python list of arrays would be scanned as separate leaves.
    The loop's iterable is scanned as it is only when it is provably an array (an array annotation, or a use a list
    rejects: `.shape`, `.ndim`, `.T`, `.astype`, `xs[:, 0]`, `xs - 1`, a `jnp` call; NumPy calls accept lists
    and prove nothing). A parameter that may be a list is scanned as `jnp.asarray(xs)`, an unsafe fix (a no-op for
    an array, the stacked array for equally shaped arrays, a `ValueError` for a ragged list), and the finding says that under
    `jit` a list argument is traced again for every length and element shape (pass one stacked array, pad ragged
    data and use `jax.vmap`). A local list whose elements provably share a shape (`np.split(x, 4)`,
    `[x[i] for i in range(n)]`, `list(x)`, `[x, -x, 2 * x]`) is scanned as `jnp.stack(parts)`. A list whose
    elements may differ in shape (`[x, x[:2]]`, `np.array_split`, a list grown with `.append`) is reported, and so is
    one that a function of the module returns (`return np.split(x, idx)`, `return a, b`), a generator (a call of a
    function of the module that yields) and a one-pass iterator (`map(...)`, `filter(...)`), also through a name bound
    to one: they have no `len`, and `jnp.asarray` rejects them. A NumPy tuple of arrays of one shape (`np.nonzero(m)`,
    one index array per axis) is scanned as `jnp.stack(...)`.

    ## Known problems
    Elements of a list argument that are themselves Python lists (where `a * 2` repeats, `a + b` concatenates) or
    arrays of different dtypes (stacking promotes them to one) are assumed not to occur. A loop that runs zero times
    makes `np.stack([])` raise, while the scan returns an empty array. `np.array([])` instead is an array of shape
    (0,), and the scan's of shape (0, *item shape): a list turned into an array by `np.array(out)` / `np.asarray(out)`
    makes the fix unsafe (the finding says why) unless each appended value is provably 0-d (a full reduction, an
    element, a number) or the loop provably runs (`range` of literals, a non-empty display); for 0-d items an empty
    result may still differ in dtype (float64 in NumPy, the items' dtype in the scan). The other way round, JAX traces the step even
    for zero iterations, so a step that indexes an array with an axis of length zero (`out[i] = row.prod()` over an
    empty `values`, `out = np.ones(0)`) raises `IndexError` while tracing, where NumPy's loop ran no times: the
    rewrite assumes the iterated array is not empty. A carry that starts as a number and grows with the elements
    (`y = 0`, then `y += g ** 2` for `g` in a tuple of 2-D arrays a helper returns) broadcasts to their shape in
    NumPy; the scan raises `TypeError` (its carry must keep its first shape): elements are taken to be numbers unless
    the loop also meets a parameter read whole. A parameter with no sign of being an array (or a slice of one,
    `xs[1:]`) is scanned as `jnp.asarray(xs)`, an unsafe fix: given a list of arrays or numbers of different shapes
    it raises where the Python loop worked (nitime's `multi_intersect`, python-control's `fill([1.0, np.array([1., 2.,
    3.])])`); the finding says so (and names it when its name says it is a list: `P_list`, `arrays`, `matrices`).
    Annotate it as an array (`xs: np.ndarray`) to make the fix safe.
    """

    CODE = "JX222"
    SUMMARY = "Python loop over an array or building a list; use `lax.scan`"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, MaskProvider, ParentProvider, DataflowProvider, TracednessProvider, NumpyNameProvider,
                             *KEPT_DEPENDENCIES)  # `held_numpy` asks `_kept_numpy`
    ORDER = 40
    may_apply_to_tree = staticmethod(loops_in_functions)

    VALID = [
        Valid(  # the body reads an attribute no array has of each element: a list of objects, not an array to scan
            # (dtaidistance's explanations, `np.maximum(allv, explanation.variations)`)
            "import numpy as np\n\ndef widest(items, start):\n    out = start\n    for item in items:\n"
            "        out = np.maximum(out, item.spread)\n    return out\n"),
        Valid("def f(x):\n    for i in range(3):\n        x = x + i\n    return x\n"),
        Valid("def f(x):\n    dims = []\n    for d in x.shape:\n        dims.append(d * 2)\n    return x.reshape(dims)\n"),
        Valid(  # nothing carried: nothing to scan, whatever ends the loop
            "import numpy as np\n\ndef first_negative(xs):\n    for x in xs:\n        if np.any(x < 0):\n            return True\n    return False\n"
        ),
    ]
    INVALID = [
        Invalid(  # the body hands the element to `np.histogram`, which JX501 renames only as an unsafe fix (float counts):
            # left NumPy it raises on the scan's tracers, so the scan is unsafe too (dtaidistance's prototype penalty)
            "import numpy as np\n\ndef modes(ref, rows):\n    worst = 0.0\n    for row in rows:\n"
            "        counts, edges = np.histogram(np.abs(ref - row), bins=8)\n        worst = np.maximum(worst, edges[np.argmax(counts)])\n"
            "    return worst\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef modes(ref, rows):\n    worst = 0.0\n"
                     "    def step(worst, row):\n        counts, edges = np.histogram(np.abs(ref - row), bins=8)\n"
                     "        worst = np.maximum(worst, edges[np.argmax(counts)])\n        return worst, None\n\n"
                     "    worst, _ = jax.lax.scan(step, worst, jnp.asarray(rows))\n    return worst\n",
            unsafe=True,
        ),
        Invalid(  # the carry starts as a float constant and takes the elements scanned, ints for int data: `lax.scan`
            # raises `TypeError` then (a carry keeps its dtype), so the fix is unsafe
            "import numpy as np\n\ndef final(costs):\n    last = float(\"-inf\")\n    for c in costs:\n        last = c\n"
            "    return np.abs(last)\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef final(costs):\n    last = float(\"-inf\")\n"
                     "    def step(last, c):\n        last = c\n        return last, None\n\n"
                     "    last, _ = jax.lax.scan(step, last, jnp.asarray(costs))\n    return np.abs(last)\n",
            unsafe=True,
        ),
        Invalid(  # `out` starts as a list's number and grows to the shape of the array `x`: a scan carry keeps one shape,
            # so the fix is unsafe (galpy's power series)
            "import numpy as np\n\ndef f(x, coeffs):\n    out = coeffs[-1]\n    for c in coeffs[-2::-1]:\n        out = out * x + c\n"
            "    return out\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(x, coeffs):\n    out = coeffs[-1]\n"
                     "    def step(out, c):\n        out = out * x + c\n        return out, None\n\n"
                     "    out, _ = jax.lax.scan(step, out, jnp.asarray(coeffs[-2::-1]))\n    return out\n",
            unsafe=True,
        ),
        Invalid(  # a parameter, a NumPy array when called eagerly, indexed by the traced element: read as `jnp.asarray` (tslearn)
            "import jax.numpy as jnp\n\ndef f(w, idx):\n    s = 0.0\n    for j in idx:\n        s = s + w[j]\n    return s\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(w, idx):\n    s = 0.0\n    w_jax = jnp.asarray(w)\n\n"
                     "    def step(s, j):\n        s = s + w_jax[j]\n        return s, None\n\n"
                     "    s, _ = jax.lax.scan(step, s, jnp.asarray(idx))\n    return s\n",
            unsafe=True, lines=[5]),  # (unsafe: `idx` may be a ragged list, which stacking rejects)
        Invalid(  # a list carry the loop extends (python-control's vector arguments)
            "import numpy as np\n\ndef flat(arg):\n    vals = []\n    for v in arg:\n        v = np.array(v).reshape(-1)\n"
            "        vals += v.tolist()\n    return np.array(vals)\n",
            expected=None, lines=[5],
        ),
        Invalid(  # only the count of `enumerate` is read: nothing of `methods` is scanned (a list of objects, in nodepy)
            "import jax.numpy as jnp\n\ndef f(methods, e):\n    err = jnp.ones(len(methods))\n"
            "    for i, method in enumerate(methods):\n        err = err.at[i].set(e ** 0.5)\n    return err\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(methods, e):\n    err = jnp.ones(len(methods))\n"
                     "    def step(err, item):\n        i, method = item\n        err = err.at[i].set(e ** 0.5)\n"
                     "        return err, None\n\n    err, _ = jax.lax.scan(step, err, (jnp.arange(len(methods)), None))\n"
                     "    return err\n",
        ),
        Invalid(  # a local Python list indexed by the enumerate index, which a scan traces: a list rejects a tracer
            # (`TracerIntegerConversionError`), so the loop stays (fluids' polynomial `powers`)
            "import numpy as np\n\ndef f(coeffs, offset):\n    powers = [1.0, offset, offset * offset]\n    tot = 0.0\n"
            "    for i, c in enumerate(coeffs):\n        tot += c * powers[i]\n    return tot\n",
            expected=None, lines=[6],
        ),
        Invalid(  # the target unpacks elements of `jnp.asarray(...)` of what may be a list: an empty one gives shape (0,),
            # whose element cannot be unpacked in the traced body (the Python loop did not run): unsafe (lenstronomy's area)
            "import numpy as np\n\ndef f(vs, ps):\n    a = 0.0\n    for [x, y] in vs[1:]:\n        a += x * y\n"
            "    for i, (u, v) in enumerate(ps):\n        a += u - v\n    return a\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(vs, ps):\n    a = 0.0\n"
                     "    def step(a, item):\n        [x, y] = item\n        a += x * y\n        return a, None\n\n"
                     "    a, _ = jax.lax.scan(step, a, jnp.asarray(vs[1:]))\n    def step_2(a, item):\n"
                     "        i, (u, v) = item\n        a += u - v\n        return a, None\n\n"
                     "    a, _ = jax.lax.scan(step_2, a, (jnp.arange(len(ps)), jnp.asarray(ps)))\n    return a\n",
            unsafe=True, lines=[5, 7],
        ),
        Invalid(  # a Python number made in the body from an array, even one made before the loop, is a tracer's
            # conversion in a scan body (`ConcretizationTypeError`): here a slice bound (obspy's `cwt`), there a float
            "import jax.numpy as jnp\n\ndef f(g, m):\n    t = jnp.linspace(0.0, 1.0, 9)\n    out = jnp.zeros((3, m))\n"
            "    for j, v in enumerate(g):\n        lo = int(t[-1] * 4 / (t[1] - t[0])) // 8\n"
            "        out = out.at[:, j].set(t[lo:lo + 3] * v)\n    s = 0.0\n"
            "    for v in g:\n        s = s + v * float(jnp.max(t))\n    return out, s\n",
            expected=None, lines=[6, 10],
        ),
        Invalid(  # an iterator whose first item `next` took (skyfield's `_unsexagesimalize`)
            "import numpy as np\n\ndef f(value):\n    parts = iter(value)\n    total = next(parts)\n    scale = 1.0\n"
            "    for part in parts:\n        scale *= 60.0\n        total += np.copysign(part, total) / scale\n    return total\n",
            expected=None, lines=[7],
        ),
        Invalid(  # an object's attribute may be a list or a NumPy array, which reject a traced index: the body reads
            # `jnp.asarray` of it; unsafe, a list of arrays of different shapes or of objects does not convert (numpy-ml)
            "import numpy as np\n\nclass K:\n    def f(self, x, n):\n        out = []\n        for a in range(n):\n"
            "            out.append(self.w[a] * np.sin(x))\n        return np.array(out)\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\nclass K:\n    def f(self, x, n):\n"
            "        w_jax = jnp.asarray(self.w)\n\n        def step(_, a):\n            return None, w_jax[a] * np.sin(x)\n\n"
            "        _, out = jax.lax.scan(step, None, jnp.arange(n))\n        return out\n",
            unsafe=True, lines=[6],
        ),
        Invalid(  # `mv` is carried, and its reshape gives it another shape in the next iteration: a scan raises
            "import numpy as np\n\ndef f(X, mv):\n    S = np.zeros((X.shape[1], X.shape[1]))\n    for row in X:\n"
            "        row, mv = row.reshape(-1, 1), mv.reshape(-1, 1)\n        S += (row - mv) @ (row - mv).T\n    return S\n",
            expected=None,
            lines=[5],
        ),
        Invalid(
            "import numpy as np\n\ndef f(xs, h):\n    hs = []\n    for x in xs:\n        h = np.tanh(h + x)\n"
            "        hs.append(h)\n    return np.stack(hs)\n",
            expected=(
                "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(xs, h):\n    def step(h, x):\n"
                "        h = np.tanh(h + x)\n        return h, h\n\n    h, hs = jax.lax.scan(step, h, jnp.asarray(xs))\n"
                "    return hs\n"
            ),
            unsafe=True,  # nothing shows `xs` to be one array: a ragged list raises where the loop worked
            lines=[5],
        ),
        Invalid(  # rows of different shapes a loop took one by one (python-control's `fill([1.0, np.array([...])])`):
            # unsafe (annotated as an array, it is safe)
            "import numpy as np\n\ndef fill(rows, out):\n    for i, r in enumerate(rows):\n        out = out.at[i, :].set(r)\n    return out\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef fill(rows, out):\n    def step(out, item):\n"
            "        i, r = item\n        out = out.at[i, :].set(r)\n        return out, None\n\n"
            "    out, _ = jax.lax.scan(step, out, (jnp.arange(len(rows)), jnp.asarray(rows)))\n    return out\n",
            unsafe=True, lines=[4],
        ),
        Invalid(
            "import numpy as np\n\ndef f(x):\n    out = []\n    for part in np.split(x, 4):\n        out.append(part.sum())\n"
            "    return np.stack(out)\n",
            expected=(
                "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    def step(_, part):\n"
                "        return None, part.sum()\n\n    _, out = jax.lax.scan(step, None, jnp.stack(np.split(x, 4)))\n"
                "    return out\n"
            ),
        ),
        Invalid("def f(xs):\n    out = []\n    for x in xs:\n        out.append(x * 2)\n    return out\n", lines=[3]),
        Invalid(  # the iterable is bound to a call of a generator function of the module: a generator has no `len` and
            # `jnp.asarray` rejects it (mne's `_get_coefs`: `TypeError: object of type generator has no len()`)
            "import jax.numpy as jnp\n\ndef _scaled(rows, w):\n    for r in rows:\n        yield r * w\n\n"
            "def fill(rows, w):\n    acc = jnp.zeros((rows.shape[0], rows.shape[1]))\n    gen = _scaled(rows, w)\n"
            "    for i, r in enumerate(gen):\n        acc = acc.at[i].set(r)\n    return acc\n",
            expected=None, lines=[10]),
        Invalid(  # ... or to `map(...)`, a one-pass iterator
            "import jax.numpy as jnp\n\ndef f(rows):\n    s = jnp.zeros(rows.shape[1])\n    it = map(jnp.sqrt, rows)\n"
            "    for k, r in enumerate(it):\n        s = s + k * r\n    return s\n",
            expected=None, lines=[6]),
        Invalid(  # a helper of the module returns a list of arrays of different lengths (`np.split` at value-dependent
            # points): `jnp.asarray(parts)` raised (mne's `_find_clusters` partitions); also one returning a display
            "import numpy as np\n\ndef _runs(v):\n    return np.split(v, np.flatnonzero(v > 0))\n\n"
            "def _halves(v):\n    pieces = [v, v[1:]]\n    return pieces\n\n"
            "def label(v):\n    out = np.zeros(len(v))\n    for j, run in enumerate(_runs(v)):\n        out[run] = j\n    return out\n\n"
            "def total(v):\n    s = 0.0\n    got = _halves(v)\n    for h in got:\n        s = s + h.sum()\n    return s\n",
            expected=None, lines=[12, 19]),
        Invalid(  # a tuple of index arrays, one per axis, of one length: stacked, each step takes one axis's indices
            "import jax.numpy as jnp\n\ndef f(m, w):\n    s = 0.0\n    for idx in jnp.nonzero(m, size=4):\n"
            "        s = s + w[idx].sum()\n    return s\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(m, w):\n    s = 0.0\n    w_jax = jnp.asarray(w)\n\n"
                     "    def step(s, idx):\n        s = s + w_jax[idx].sum()\n        return s, None\n\n"
                     "    s, _ = jax.lax.scan(step, s, jnp.stack(jnp.nonzero(m, size=4)))\n    return s\n",
            lines=[5]),
        Invalid(  # a tuple target unpacks each row inside the step (it was spread into the step's parameters)
            "import numpy as np\n\ndef f(rows):\n    total = 0.0\n    for _, _, c in np.asarray(rows):\n"
            "        total = total + c\n    return total\n",
            expected=(
                "import jax\nimport numpy as np\n\ndef f(rows):\n    total = 0.0\n    def step(total, item):\n"
                "        _, _, c = item\n        total = total + c\n        return total, None\n\n"
                "    total, _ = jax.lax.scan(step, total, np.asarray(rows))\n    return total\n"
            ),
            lines=[5],
        ),
        Invalid(  # a name defined from itself: its definitions are followed once (this recursed without end)
            "import numpy as np\n\ndef f(xs):\n    xs = list(xs)\n    total = np.zeros(3)\n    for x in xs:\n"
            "        total = total + x\n    return total\n",
            expected=(
                "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(xs):\n    xs = list(xs)\n"
                "    total = np.zeros(3)\n    def step(total, x):\n        total = total + x\n        return total, None\n\n"
                "    total, _ = jax.lax.scan(step, total, jnp.stack(xs))\n    return total\n"
            ),
            lines=[6],
        ),
        Invalid("def f(w, h):\n    for m in [w, w.T, w[:2]]:\n        h = m @ h\n    return h\n", lines=[2]),
        Invalid(  # named as a list: its arrays may differ in shape, and stacking raises (POT's projections)
            "def f(P_list, d):\n    A = d * 1.0\n    for P in P_list:\n        A = A + P.T @ P\n    return A\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(P_list, d):\n    A = d * 1.0\n    def step(A, P):\n"
            "        A = A + P.T @ P\n        return A, None\n\n    A, _ = jax.lax.scan(step, A, jnp.asarray(P_list))\n    return A\n",
            lines=[3],
            unsafe=True,
        ),
        Invalid(  # `zip` stops at the shorter list, `lax.scan` raises (SALib's `for row, v in zip(rows, vals)`)
            "import jax.numpy as jnp\n\ndef f(n, rows, vals):\n    values = jnp.zeros(n)\n    for row, v in zip(rows, vals):\n"
            "        values = values.at[row].set(v)\n    return values\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(n, rows, vals):\n    values = jnp.zeros(n)\n"
            "    def step(values, item):\n        row, v = item\n        values = values.at[row].set(v)\n        return values, None\n\n"
            "    values, _ = jax.lax.scan(step, values, (jnp.asarray(rows), jnp.asarray(vals)))\n    return values\n",
            lines=[5],
            unsafe=True,
        ),
        Invalid("def f(obj, x, s):\n    for part in obj.slices(x):\n        s = s + part.sum()\n    return s\n", expected=None, lines=[2]),
        Invalid(  # rows of unknown rank over `range(k)`: for k == 0 `np.asarray([])` has shape (0,), the scan (0, cols):
            # unsafe (SALib's `np.array(out)` of rows)
            "import numpy as np\n\ndef doubled_rows(m, k):\n    rows = []\n    for j in range(k):\n        rows.append(m[j] + 1.0)\n"
            "    return np.asarray(rows)\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef doubled_rows(m, k):\n    m_jax = jnp.asarray(m)\n\n"
            "    def step(_, j):\n        return None, m_jax[j] + 1.0\n\n    _, rows = jax.lax.scan(step, None, jnp.arange(k))\n"
            "    return rows\n",
            unsafe=True, lines=[5],
        ),
        Invalid(  # 0-d items (a full reduction), or a loop that provably runs (`range(1, 3)`): the same array either way
            "import numpy as np\n\ndef row_stats(m: np.ndarray, k):\n    sums = []\n    for j in range(k):\n"
            "        sums.append(np.sum(m[j]) * 2.0)\n    heads = []\n    for j in range(1, 3):\n        heads.append(m[j] - 1.0)\n"
            "    return np.array(sums), np.array(heads)\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef row_stats(m: np.ndarray, k):\n"
            "    m_jax = jnp.asarray(m)\n\n    def step(_, j):\n        return None, np.sum(m_jax[j]) * 2.0\n\n"
            "    _, sums = jax.lax.scan(step, None, jnp.arange(k))\n    m_jax_2 = jnp.asarray(m)\n\n"
            "    def step_2(_, j):\n        return None, m_jax_2[j] - 1.0\n\n"
            "    _, heads = jax.lax.scan(step_2, None, jnp.arange(1, 3))\n    return sums, heads\n",
            lines=[5, 8],
        ),
        Invalid(  # a product of Python ints (a shape product): int32 in a scan, so the fix is unsafe
            "import numpy as np\n\ndef prod(seq, x):\n    size = 1\n    for k in seq:\n        size *= k\n    return size * np.sum(x)\n",
            expected="import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef prod(seq, x):\n    size = 1\n    def step(size, k):\n        size *= k\n        return size, None\n\n    size, _ = jax.lax.scan(step, size, jnp.asarray(seq))\n    return size * np.sum(x)\n",
            unsafe=True,
        ),
        Invalid(  # the body indexes with the counter an item a comprehension takes from what may be a list of tuples,
            # and selects with a boolean mask built by `np.array([...])`: a scan body can do neither (SALib's Sobol
            # total indices, `np.array([alpha[idx] > 0 for alpha in alphas])`)
            "import numpy as np\n\ndef column_sums(rows, k):\n    out = []\n    for j in range(k):\n"
            "        out.append(np.sum([r[j] for r in rows]))\n    return np.array(out)\n\n"
            "def positive_parts(w, flags, k):\n    out = []\n    for j in range(k):\n"
            "        keep = np.array([f[j] > 0 for f in flags])\n        out.append(np.sum(w[keep]))\n    return np.stack(out)\n",
            expected=None, lines=[5, 11],
        ),
        Invalid(  # a module-level list indexed by the traced element: `TracerIntegerConversionError`: reported
            "import jax.numpy as jnp\n\nWEIGHTS = [0.5, 0.25]\n\ndef s(xs):\n    total = jnp.zeros(())\n    for x in xs:\n"
            "        total = total + WEIGHTS[x] * x\n    return total\n",
            expected=None, lines=[7],
        ),
    ]

    def visit_For(self, node: cst.For) -> None:
        fn = self.current_function
        if fn is None:
            return
        flow = function_flow(self, fn)
        xs, item, note, arguments = self.sequence(node, fn, flow)
        if xs is None:
            return
        if item == "list":
            self.report(node, f"loop cannot become `lax.scan`: {note}")
            return
        traced = function_tracedness(self, fn)
        opaque = purity(self).opaque_call([node.iter], fn, traced.of, host=True)  # (evaluated before the loop)
        if opaque is not None:
            self.report(node, f"loop cannot become `lax.scan`: it iterates over what `{opaque}(...)` gives, which may be a "
                        "generator or a Python list rather than an array")
            return
        iterator = _iterator_binding(flow, node)
        if iterator is not None:
            self.report(node, f"loop cannot become `lax.scan`: it iterates over `{self.code(node.iter)}`, bound to "
                        f"`{iterator}(...)`, an iterator (possibly partly consumed, `next(...)`) rather than an array")
            return
        carried = loop_carried(flow, node)
        outputs = appends(body_statements(node))
        if not carried and not outputs:
            return  # nothing carried: nothing to scan (an early exit on a traced test is JX223's)
        if _object_element(node) is not None:
            return  # a loop over Python objects (`explanation.variations`), not over an array: `jnp.asarray` of them
            # raises `TypeError`, and unrolled under `jit` it is what the code means
        problem = self.problem(node, flow, carried, outputs, item) or written_input_problem(
            self, flow, fn, argument_inputs(flow, node, sorted(target_names(node)), attributes=True))
        if problem:
            if isinstance(node.iter, cst.Call) and getattr(node.iter.func, "value", "") == "range" and not outputs:
                return  # JX220's business
            self.report(node, f"loop cannot become `lax.scan`: {problem}")
            return
        self.rewrite(node, fn, flow, carried, outputs, xs, item, note, arguments)

    def sequence(self, node: cst.For, fn: cst.FunctionDef, flow) -> tuple[Optional[str], Optional[str], str, tuple[str, ...]]:
        """(the scanned expression, how the body receives an element, a note on list arguments, those arguments) or
        (None, None, "", ()) when out of scope; ("", "list", why, ()) when the iterable is a list that cannot be
        stacked (see `_sequences`)."""
        it = node.iter
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in ("range", "enumerate", "zip") \
                and not any(a.keyword or a.star for a in it.args):
            args = [self.code(a.value) for a in it.args]
            if it.func.value == "range":
                if not appends(body_statements(node)) or any(tracedness(self, a.value) is not Tracedness.STATIC for a in it.args):
                    return None, None, "", ()
                return f"{self.jnp}.arange({', '.join(args)})", "range", "", ()
            scanned = self._scanned(it, fn, flow, node)
            if scanned is None:
                return None, None, "", ()
            if scanned[0] is None:
                return "", "list", scanned[2], ()
            arguments = tuple(dict.fromkeys(scanned[2]))
            return scanned[0], "tuple", argument_note(arguments) if arguments else "", arguments
        found = sequence(self, fn, flow, node, it)
        if found is None:
            return None, None, "", ()
        if found.scanned is None:
            return "", "list", found.note, ()
        return found.scanned, "array", argument_note(found.arguments) if found.arguments else "", tuple(found.arguments)

    def _scanned(self, expr: cst.BaseExpression, fn, flow, loop) -> Optional[tuple[Optional[str], str, Any]]:
        """(pytree of arrays to scan, one array of it, parameters that may be lists) for `enumerate(...)` /
        `zip(...)` over arrays, nested; (None, "", why) when one of them is a list that cannot be stacked."""
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("enumerate", "zip") \
                and not any(a.keyword or a.star for a in expr.args):
            if expr.func.value == "enumerate" and len(expr.args) == 1 and expr is loop.iter and _unused_element(loop, flow):
                # `for i, method in enumerate(methods)` reading only `i`: nothing of `methods` is scanned (it may be
                # a list of objects, which `jnp.asarray` rejects: nodepy's convergence tests)
                return f"({self.jnp}.arange(len({self.code(expr.args[0].value)})), None)", self.code(expr.args[0].value), ()
            parts = [self._scanned(a.value, fn, flow, loop) for a in expr.args]
            if None in parts:
                return None
            if any(p[0] is None for p in parts):  # type: ignore[index]
                return None, "", next(p[2] for p in parts if p[0] is None)  # type: ignore[index]
            notes = tuple(n for p in parts for n in p[2])  # type: ignore[index]
            if expr.func.value == "enumerate" and len(parts) == 1:
                return f"({self.jnp}.arange(len({parts[0][1]})), {parts[0][0]})", parts[0][1], notes  # type: ignore[index]
            if expr.func.value == "zip" and len(parts) >= 2:
                return f"({', '.join(p[0] for p in parts)})", parts[0][1], notes  # type: ignore[index,misc]
            return None
        found = sequence(self, fn, flow, loop, expr)
        if found is None:
            return None
        return found.scanned, self.code(expr), found.note if found.scanned is None else found.arguments

    def problem(self, node, flow, carried, outputs, item) -> Optional[str]:
        if node.orelse is not None:
            return "`for ... else` (the `else` block runs only when the loop ends without `break`)"
        body = body_statements(node)
        if item == "tuple" and not isinstance(node.target, cst.Tuple):
            return "the loop target does not unpack each element"
        found = body_obstacles(body, [stmt.body[0].value for stmt, _, _ in outputs])
        if found:
            return found[0][1]
        shaped = shaped_loop_body(self, body) or held_problem(held_numpy(self, node, self.current_function))
        if shaped:
            return shaped
        if traced_tests(self, body):
            return "a Python `if`/`while` in the body depends on traced values (the branch rules convert it first)"
        targets = target_names(node)
        index = node.target.value if item == "range" else None
        if item == "tuple" and getattr(node.iter.func, "value", "") == "enumerate":
            first = node.target.elements[0].value
            index = first.value if isinstance(first, cst.Name) else None
        if index is not None:
            where = static_index_uses(body, index, callees=(self.context.module, self.current_function))
            if where:
                return f"the index `{index}` is used where a Python int is required ({where})"
        for name in sorted(targets - {index}):
            where = static_index_uses(body, name, keywords=False)
            if where:  # `x[c[0]:c[1]]`: scanned elements are traced, and a slice needs static bounds
                return f"the element `{name}` is used where a Python int is required ({where}); `lax.scan` traces it"
        traced = function_tracedness(self, self.current_function)
        for name in sorted(targets):  # `powers[i]`, `powers = [1.0]`: a traced index cannot index a Python list
            listed = indexed_sequence(traced, self.current_function, body, name, node.iter)
            if listed is not None and listed[1]:
                return (f"`{listed[0]}` is a Python list or tuple indexed by the loop's `{name}`, which `lax.scan` traces: "
                        "a traced index cannot index it; stack it into one array (`jnp.stack`) first")
            item = indexed_item(self.current_function, body, name)
            if item is not None:
                return item_problem(item, f"the loop's `{name}`", "lax.scan")
        container = host_container_use(traced, self.current_function, body, [*sorted(targets), *carried], self.context.module)
        if container is not None:
            return container
        problem = carry_problem(flow, node, carried) or carry_dtype_problem(self, self.current_function, node, carried)
        if problem:
            return problem
        if targets & flow.live_out(node):
            return "the loop variable is read after the loop"
        return self.output_problem(node, flow, body, outputs)

    def output_problem(self, node, flow, body, outputs) -> Optional[str]:
        names = [name for _, name, _ in outputs]
        if len(set(names)) != len(names):
            return "a list is appended to more than once per iteration"
        tail = body[len(body) - len(outputs):]
        if [stmt for stmt, _, _ in outputs] != list(tail):
            return "the appends are not the last statements of the body"
        for stmt, name, value in outputs:
            if isinstance(value, (cst.Tuple, cst.List)):
                # np.array(list of tuples) is one 2-D array; scan would stack each element separately
                return f"`{name}` collects tuples or lists, which NumPy stacks into one array and `lax.scan` would not"
            inits = flow.reaching(node, name)
            if len(inits) != 1 or not _is_empty_list(inits[0].node):
                return f"`{name}` does not start as `[]` right before the loop"
            stacks = stack_calls(self, self.current_function, name)
            uses = flow.uses(_line_of(self.current_function, inits[0].node), name)
            if stacks is None or len(uses) != len(stacks) + 1:
                return f"`{name}` is used after the loop other than in `np.stack({name})` / `np.array({name})`"
        return None

    def rewrite(self, node, fn, flow, carried, outputs, xs, item, note="", arguments: tuple[str, ...] = ()) -> None:
        taken = flow.reads(list(fn.body.body)) | flow.writes(list(fn.body.body)) | set(flow.params)
        name = gen.fresh(self, fn, "step", taken)
        names = list(carried)
        carry = names[0] if len(names) == 1 else gen.unique("carry", taken) if names else "_"
        unpacked = item == "tuple" or not isinstance(node.target, cst.Name)  # `for a, b in rows`: unpack in the body
        element = gen.unique("item", taken) if unpacked else self.code(node.target)
        prologue = gen.unpack_line(names, carry) if len(names) > 1 else ""
        if unpacked:
            prologue += f"{self.code(node.target)} = {element}\n"
        inputs = argument_inputs(flow, node, sorted(target_names(node)), attributes=True)
        renamed, converts = gen.jax_inputs(self, fn, inputs, taken, self.jnp)
        ys = [self.code(value) for value in gen.rename_loads([value for _, _, value in outputs], renamed)]
        result = ("None" if not ys else ys[0] if len(ys) == 1 else f"({', '.join(ys)})")
        body = gen.rename_loads(body_statements(node)[: len(body_statements(node)) - len(outputs)], renamed)
        step = gen.function_def(
            f"{name}({carry}, {element})", body, prologue=prologue,
            epilogue=f"return {gen.pack(names) if names else 'None'}, {result}\n", config=self.context.module.config_for_parsing,
            comment=gen.header_comment(node),
        )
        out_names = [n for _, n, _ in outputs]
        lhs = (gen.targets(names) if len(names) == 1 else gen.pack(names) if names else "_") + ", " + (
            "_" if not out_names else out_names[0] if len(out_names) == 1 else gen.pack(out_names))
        call = self.statements(f"{lhs} = {self.lax}.scan({name}, {gen.pack(names) if names else 'None'}, {xs})\n")
        call[0] = call[0].with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        if converts:  # the body indexes them with a traced value, which a NumPy array would reject
            changes: dict = {node: self.replace_statement(node, [*self.statements(converts), gen.blank_line_before(step), *call])}
        else:
            changes = {node: self.replace_statement(node, [step, *call])}
        for _, list_name, _ in outputs:
            init = _line_of(fn, flow.reaching(node, list_name)[0].node)
            changes[init] = self.replace_statement(init, [])
            for call_node in stack_calls(self, fn, list_name) or []:
                changes[call_node] = cst.Name(list_name)
        opaque = opaque_loop(self, node, fn, "lax.scan") + host_indexed(self, node, fn, inputs) + int_product(flow, node, names) + scalar_carry_broadcast(flow, node, names) + carry_dtype_change(self, fn, node, names)
        opaque += _empty_list_shape(self, node, fn, outputs)
        if item in ("array", "tuple") and _unpacks_converted(self, node.target, node.iter, xs):  # lenstronomy's `for [x1, y1] in vs[1:]`
            opaque += (f" (unsafe: the loop target unpacks each element of what `{self.jnp}.asarray` makes of a value "
                       "that may be a Python list: an empty list becomes a float array of shape (0,), whose element "
                       "cannot be unpacked where `lax.scan` traces the body, while the Python loop did not run)")
        named = [a for a in arguments if LIST_NAME.search(a.lower())]
        if named:  # POT's `for P_i, w in zip(P_list, weights)`: projections of different shapes, by design
            opaque += (f" (unsafe: `{named[0]}` is named as a list, whose arrays may differ in shape: stacking it raises "
                       "where the Python loop, which `jit` unrolls, worked)")
        elif arguments and walk.called_name(node.iter) == "zip" and _indexes_with(node, target_names(node)):
            # SALib's `for row, v in zip(rows, vals): values[row] = v`: lists of indices and values, by the look of it
            opaque += (f" (unsafe: `zip` stops at the shortest of its sequences, and `{arguments[0]}` may be a Python "
                       "list of another length, or empty: `lax.scan` needs one length, and an empty list becomes a "
                       "float array, which cannot index)")
        elif arguments:  # python-control's `fill([1.0, np.array([1., 2., 3.])])`: rows a Python loop took one by one
            opaque += (f" (unsafe: nothing shows `{arguments[0]}` to be one array: as a Python list of arrays or numbers "
                       "of different shapes (or of objects) stacking it raises where the Python loop worked; annotate "
                       "it as an array to make this safe)")
        self.report(
            node,
            "Python loop " + ("building a list" if outputs else "over an array") + "; use `lax.scan`"
            + (f" carrying {', '.join(f'`{n}`' for n in names)}" if names else "") + opaque + (f"; {note}" if note else ""),
            changes=changes,
            unsafe=bool(opaque),
            title="replace with `lax.scan`",
            imports=("lax", "jnp") if f"{self.jnp}." in xs or converts else ("lax",),
        )


def _empty_list_shape(rule, loop: cst.For, fn: cst.FunctionDef, outputs) -> str:
    """A note (unsafe) when a list the loop builds is made an array by `np.array(out)` / `np.asarray(out)` (not
    `np.stack`, which rejects an empty list), the loop may run zero times and its items may have axes: NumPy makes
    the empty list an array of shape (0,), the scan one of shape (0, *item shape) (SALib's `np.array(out)` of rows
    `x[i] * 2.0` over `range(n)`). Items provably 0-d (`np.sum(r)`, `r[0, 1]` of a 2-D `r`, numbers) are the
    same either way, and so is a loop that provably runs (`range(3)`, a non-empty display)."""
    if _runs(loop.iter):
        return ""
    for _, name, value in outputs:
        converts = [call for call in stack_calls(rule, fn, name) or [] if walk.called_name(call).split(".")[-1] != "stack"]
        if converts and scalar_kind(rule, value) is None:
            return (f" (unsafe: when the loop runs zero times `{rule.code(converts[0])}` of the empty list has shape (0,), "
                    f"while the scan's stacked `{name}` has shape (0, ...) of each appended value, whose shape is not "
                    "known to be `()`)")
    return ""


def _runs(iterable: cst.BaseExpression) -> bool:
    """Whether a loop over `iterable` provably runs at least once: `range` of integer literals with a positive
    length, or a list or tuple display with an element and no starred one."""
    if isinstance(iterable, (cst.List, cst.Tuple)):
        return bool(iterable.elements) and not any(isinstance(e, cst.StarredElement) for e in iterable.elements)
    if not (isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value == "range"):
        return False
    values = []
    for arg in iterable.args:
        value = arg.value
        sign = 1
        if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
            value, sign = value.expression, -1
        if arg.keyword is not None or arg.star or not isinstance(value, cst.Integer):
            return False
        values.append(sign * int(value.evaluated_value))
    try:
        return 1 <= len(values) <= 3 and len(range(*values)) >= 1
    except ValueError:  # a zero step
        return False


def _indexes_with(loop: cst.For, names) -> bool:
    """Whether the body of `loop` indexes with one of `names` as the whole index (`values[row] = v`,
    `values.at[row]`)."""
    return any(len(s.slice) == 1 and isinstance(s.slice[0].slice, cst.Index) and isinstance(s.slice[0].slice.value, cst.Name)
               and s.slice[0].slice.value.value in names for s in walk.nodes_of(loop.body, cst.Subscript))  # type: ignore[attr-defined]


def _unpacks_converted(rule, target: cst.BaseExpression, iterable: cst.BaseExpression, xs: str) -> bool:
    """Whether `target` unpacks an element (`for [x1, y1] in vs`, `for i, (a, b) in enumerate(ps)`) of a sequence
    the rewrite scans as `jnp.asarray(...)` (not known to be an array): the element's structure comes from the data,
    and an empty list gives none. `enumerate`/`zip` are followed to the sequence each part of the target takes."""
    if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value in ("enumerate", "zip"):
        if not isinstance(target, (cst.Tuple, cst.List)):
            return False
        parts = [a.value for a in iterable.args]
        targets = [e.value for e in target.elements]
        if iterable.func.value == "enumerate":
            parts, targets = parts[:1], targets[1:2]
        return any(_unpacks_converted(rule, t, p, xs) for t, p in zip(targets, parts))
    return isinstance(target, (cst.Tuple, cst.List)) and f"{rule.jnp}.asarray({rule.code(iterable)})" in xs


# parameter names that say "a list" (`P_list`, `list_of_masks`, `mat_lst`)
# `P_list`, `lst`, and the plurals of the words for an array (`arrays`, `matrices`): named as a collection of arrays (nitime's `arrays`)
LIST_NAME = re.compile(r"(^|_)(list|lst)s?($|_)|list$|(^|_)(arrays|arrs|matrices)($|_)")


def _is_empty_list(node) -> bool:
    return isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.value, cst.List) and not node.value.elements


def _line_of(fn: cst.FunctionDef, small: cst.CSTNode) -> cst.CSTNode:
    """The SimpleStatementLine holding `small` if it is the only statement there (else `small` itself)."""
    class Finder(cst.CSTVisitor):
        found: cst.CSTNode = small

        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
            if len(node.body) == 1 and node.body[0] is small:
                Finder.found = node

    walk.visit(fn, Finder())
    return Finder.found


def _unused_element(loop: cst.For, flow) -> bool:
    """`for i, v in enumerate(...)` whose body never reads `v`."""
    target = loop.target
    if not (isinstance(target, cst.Tuple) and len(target.elements) == 2 and isinstance(target.elements[1].value, cst.Name)):
        return False
    return target.elements[1].value.value not in flow.reads(body_statements(loop))


ITERATOR_BUILTINS = frozenset({"iter", "zip", "map", "filter", "reversed", "enumerate"})


def _iterator_binding(flow, node: cst.For) -> Optional[str]:
    """The builtin (`iter`, `zip`, ...) that bound the loop's iterable name before the loop, if one did
    (`components = iter(value); next(components); for c in components:`: skyfield's sexagesimal parsing)."""
    if not isinstance(node.iter, cst.Name) or not flow.knows(node):
        return None
    for definition in flow.reaching(node, node.iter.value):
        value = definition.node.value if isinstance(definition.node, cst.Assign) else None
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ITERATOR_BUILTINS:
            return value.func.value
    return None


def _object_element(loop: cst.For) -> Optional[cst.Attribute]:
    """An attribute no array has (`explanation.variations`) that the body reads of a name the loop binds, else
    None: the loop walks Python objects (dtaidistance's explanations), not the rows of an array."""
    names = target_names(loop)
    for node in walk.nodes_of(loop.body, cst.Attribute):
        value = node.value  # type: ignore[attr-defined]
        attr = node.attr.value  # type: ignore[attr-defined]
        if isinstance(value, cst.Name) and value.value in names and attr not in ARRAY_METHODS and attr != "at" \
                and not (attr.startswith("__") and attr.endswith("__")):
            return node  # type: ignore[return-value]
    return None
