from __future__ import annotations

from typing import Optional

import libcst as cst

from codemods import _branch_emit as emit
from codemods import _caller_writes
from codemods._if_fixes import cond_replacement, where_fix
from codemods._purity import branch_numpy, purity, scalar_carry_broadcast, shaped_note, stuck_boolean, value_shaped_read
from codemods._branch_structure import assignments, chain, definitely_written, exits, effect_hint, shared_update
from codemods._branch_values import (as_float, empty_note, loop_indices,
    attribute_dtype, attribute_indexed, bool_mix, empty_reduction, float_split, guarded_division, guarded_index, holds_object, int_mix, kind_conflict, loop_float_element, made_traced_test, module_object, none_inside, none_read, param_mix, list_item, reshaped_output,
    object_attribute, output_values, python_ints, text_output, untraceable_branch, with_locals,
)
from codemods._where_safety import cheap_and_pure
from codemods import _caller_inputs
from codemods._list_inputs import int_fed_parameters, list_fed_parameters
from jaxfix import walk
from jaxfix.analysis.host_data import documented_sequences
from jaxfix.analysis.loop_values import traced_param_item
from jaxfix.analysis.parents import enclosing_class
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.host_use import HOST_USE_DEPENDENCIES, python_value_after
from jaxfix.analysis.masks import MaskProvider, function_facts
from jaxfix.analysis.shapes import ShapeProvider
from jaxfix.analysis.static_params import PYTHON_RESULT_METHODS
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, function_tracedness, python_only_test
from jaxfix.rule import Deferred, Invalid, Rule, Valid
from jaxfix.types import FixAvailability


class TracedIf(Rule):
    """
    ## What it does
    Rewrites an `if`/`elif`/`else` whose condition is a traced value and whose branches assign variables:
    branches of cheap, side-effect-free assignments become `v = jnp.where(pred, a, b)` for each variable assigned in
    a branch and used afterwards (a branch that does not assign it keeps its prior value), and an `elif` chain of
    them `v = jnp.select([p0, p1], [a, b], c)`. Branches that update one slot of an array the same way (`x[j] = a`
    / `x[j] = b`, `.at` updates once JX101 has run) select the value only: `x = x.at[j].set(jnp.where(pred, a,
    b))` (a branch that leaves it sets `x[j]`, or adds -0.0 to floats; not for an array of integers a value could
    widen, where `jnp.where` would round the slots left). Other branches, and branches whose values the shape analysis
    (`jaxfix.analysis.shapes`) cannot prove to have one shape, become `lax.cond(pred, v_if_true, v_if_false,
    *operands)` with small nested functions whose operands and results come from the dataflow analysis, and an
    `elif` chain of them one `lax.switch(jnp.select([p0, p1], [0, 1], 2), [v_case_0, v_case_1, v_case_2],
    *operands)` (a nested `if` inside the false function of a `lax.cond`, rewritten in turn, when a later condition
    calls something that may have side effects: Python evaluates it only when the earlier ones are false).

    ## Why is this bad?
    Under `jax.jit` a Python `if` needs a concrete boolean; a traced condition raises `TracerBoolConversionError`.

    ## Example
    ```python
    def clip_step(x, g):
        if g.sum() > 1.0:
            step = g / g.sum()
        else:
            step = g
        return x - step

    def ramp(x):
        if x < 0:
            y = 0.0
        elif x < 1:
            y = x * 2
        else:
            y = x
        return y
    ```

    ## Use instead
    ```python
    def clip_step(x, g):
        step = jnp.where(g.sum() > 1.0, g / jnp.where(g.sum() > 1.0, g.sum(), 1.0), g)
        return x - step

    def ramp(x):
        y = jnp.select([x < 0, x < 1], [0.0, x * 2], x)
        return y
    ```

    ## Fix safety
    Safe when the condition is traced. `jnp.where`/`jnp.select` evaluate every side, so inputs of `log`, `sqrt`,
    `exp`, divisions and fractional powers are replaced by a harmless value where their branch is not taken (the
    "double where"), which keeps `jax.grad` finite. They also broadcast: NumPy's `0.0` in one branch and `x` in the
    other give a 0-d or an `x`-shaped result, `jnp.where` always an `x`-shaped one. So `jnp.where`/`jnp.select` is
    used only when, on every path, every branch value and every condition is 0-d or provably has the shape of the
    value that path picks (same variable, elementwise operations, `zeros_like`, full reductions, literals); else
    the fix is `lax.cond`, which raises at trace time when the branch shapes differ instead of broadcasting: unsafe
    when a branch grows a variable with a whole parameter that its value before the `if` does not read (`t = 1.0`,
    then `t = t * z`). An `elif` chain whose first test is static (`if scalar: ... elif np.all(...)`) keeps that test
    Python: the `elif` becomes `else: if`, whose traced test is converted next (only the branch Python picks runs,
    and its values may have another shape). A condition proves that its elementwise operands have one element (`if x < 0:` needs
    `x.size == 1`), so
    `if x < 0: y = 0.0 else: y = x` is a `jnp.where`; an `elif` test proves this only for the paths that evaluate
    it. In the body of a `lax.fori_loop`/`while_loop`/`scan`, a variable returned unchanged in a carry slot whose
    initial value is 0-d (`spent = 0.0`, `done = False`) must be 0-d again or the loop raises at trace time, so
    branches assigning it become `jnp.where` whatever the shapes of their operands. Unsafe (needs `--unsafe-fixes`) when the condition's tracedness is unknown (an attribute, an unknown call):
    if it is static the `if` should stay. Not rewritten, but reported: branches with side effects (calls for their
    effect such as `print` or `append`, in-place mutation, `raise`: use `jax.experimental.checkify`), a variable
    set in only one branch and undefined before the `if`, a branch that reads a variable unbound on some path to
    the `if` (`if mode == 3: u3 = ...`, then `if mode == 3: v = u3`: both rewrites evaluate every branch) or that
    may be `None` there (`prev = None` before a loop, `prev - loss` in the branch taken after the first pass), a
    branch holding a Python `if` on a static name that `lax.cond` would pass it as a traced operand (`if val == -1:`
    where the branches assign `val`: pymoo's `get_relation`; the inner test must become `jnp.where` first), values
    of different kinds (`None` on one path, strings, lists, tuples of other lengths, objects made by a class), and a
    `None`-default parameter on one path, and a branch that slices with a traced bound (`out.at[: n + 4]`, `x[-n:]`:
    `lax.cond` makes `n` a tracer, and a slice bound must be a Python int). Unsafe as
    well when a branch calls code not known to be pure JAX (a function passed in, `self.fun(x)`, a function of
    another module, or a NumPy function JX501 renames only as an unsafe fix, as it does every one in a module that
    uses a unit library such as `astropy.units`: `codemods._purity`): `lax.cond` traces both branches, so it would
    run while tracing, whichever branch is taken, and NumPy raises on the tracers it is given. Static conditions (`x.ndim`, shapes, flags, modes, type and dtype tests) are left alone, and so is a chain any of
    whose tests holds a type or identity test (`isinstance(v, np.ndarray)`, `v is ref`, directly or through
    `and`/`or`/`not`): such code tells Python values apart, so the other values it tests may be strings or objects.

    ## Known problems
    A value with one element is treated as 0-d: if `x` has shape `(1, 1)`, `if x < 0: y = 0.0 else: y = x` gives
    NumPy shape `()` or `(1, 1)` and the rewrite `(1, 1)` on both paths (the values agree). Shapes are proven
    conservatively: an unannotated parameter such as `alpha` in `alpha * z` may be an array as far as the
    analysis knows (`alpha: float` is 0-d), so such branches become `lax.cond` where `jnp.where` would have done. `lax.cond` needs equal dtypes:
    an int literal branch against a float array (`y = 0` / `y = x`, or a local bound to an int: `mu = 0`, then `y =
    mu` / `y = x`) raises at trace time, and so does a parameter
    kept by one branch against another parameter or float arithmetic (`step = -factor * x`, a swap `T1, T2 = T2, T1`)
    when it is a Python int, an item of a Python list of ints and floats, or a value of an object's attribute (`m =
    self.tau`, then `1.0 / m` against the Python float `1.0`: a float32 against a float64 under x64): such fixes are unsafe (a parameter the
    function reads as an array, `x.sum()`, is taken for a float one, and so is an element of it, `der = ders[idx]`
    against `der_max = 0`). In a loop's body, a value that starts as a float constant before the loop (`vmax =
    float("-inf")`) against an element of an array argument (`vmax = v`) makes the fix unsafe too: such running
    extremes often scan int data, where `lax.cond` gets an int and a float branch. Unsafe as well: a branch value that is a float
    whatever its inputs (`0.5 * (x2 - x1) * y1`, `(x + y) / 2`) against one that stays an integer for integer inputs
    (`(x2 - x1) * y1`): with integer arrays `lax.cond`/`lax.switch` get an int and a float branch. Lists of different
    lengths (`points = WIDE` /
    `points = NARROW`) are reported without a fix, and so is an `if` that would make a returned value an array when a
    caller in the module, or in another module of the run, needs a Python one (`isinstance(r, bool)`, or `r is True`:
    an array is never `True`). `break`/`continue`
    inside branches are left to the loop rules; branches that return are JX202's. `lax.switch` evaluates every
    condition of the chain (cheap, pure ones only), where Python stops at the first true one.
    Parameters are taken for traced arrays (the Sharp Bits' `if x < 3:` has no other sign of one): called outside `jit`
    with Python numbers, the rewritten function gives 0-d JAX arrays, which are not hashable nor JSON-serialisable,
    give `inf` where Python raises `ZeroDivisionError`, and wrap at the int bound where Python's ints grow.
    """

    CODE = "JX201"
    SUMMARY = "`if` on a traced value; use jnp.where, lax.cond or lax.switch"
    FIX = FixAvailability.SOMETIMES
    METADATA_DEPENDENCIES = (
        *Rule.METADATA_DEPENDENCIES, *HOST_USE_DEPENDENCIES, DataflowProvider, TracednessProvider, ShapeProvider, MaskProvider,
    )
    ORDER = 40
    TRIGGERS = (b"numpy", b"jax")  # array code only
    INDEXES = (_caller_inputs.INDEX,)  # what other modules of the run pass the module's functions (`_list_items`)

    VALID = [
        # a parameter whose methods are not array methods is a module or an object: its tests are Python's
        Valid("def f(a, xp):\n    if xp.isdtype(a.dtype, 'integral'):\n        a = xp.astype(a, xp.float64)\n    return a\n"),
        # a parameter that is called is a function, not an array: the test is Python's
        Valid("def f(x, fn):\n    if fn in [max, min]:\n        y = fn(x)\n    else:\n        y = x\n    return y\n"),
        Valid("def f(x):\n    if x.ndim == 1:\n        x = x[None]\n    return x\n"),
        Valid(  # a function of the module that only returns Python bools is a static test (pysindy's trajectories check)
            "def _batched(x, u):\n    if isinstance(x, list) and u is None:\n        return True\n    return not isinstance(x, tuple)\n\n"
            "def f(x, u):\n    if _batched(x, u):\n        y = x[0] * 2.0\n    else:\n        y = x * 2.0\n    return y\n"),
        Valid("def f(x, mode='a'):\n    if mode == 'a':\n        y = x\n    else:\n        y = -x\n    return y\n"),
        Valid(  # a type or identity test in the chain tells Python values apart: `value` may be a string (nevergrad)
            "import numpy as np\n\ndef f(value, ref):\n    different = False\n    if isinstance(value, np.ndarray):\n"
            "        different = np.sum(value) > 0\n    elif not (value == ref or value is ref):\n        different = True\n"
            "    return different\n"),
        Valid("def f(x, n: int):\n    if n > 2:\n        x = x * 2\n    return x\n"),
        Valid("import numpy as np\ndef f(x, ab):\n    typ = ab.dtype.char\n    if typ == \"s\":\n        x = x * 2\n    return np.sum(x)\n"),
        Valid("import numpy as np\ndef f(X):\n    if not (issparse(X) or is_pydata_spmatrix(X)):\n        X = np.asarray(X) * 2\n    return X\n"),
        Valid("import numpy as np\ndef f(x, weight):\n    if weight in [\"cos\", \"sin\"]:\n        x = x * 2\n    return np.sum(x)\n"),
        Valid("import numpy as np\ndef f(x, xp):\n    if xp.isdtype(x.dtype, \"real floating\"):\n        x = x * 2\n    return np.sum(x)\n"),
        Valid(  # no sign of arrays, and a parameter read for attributes no array has: an object (dtaidistance's
            # segments), whose values the tests compare in Python; `lax.cond` would be handed the object
            "import numpy as np\n\ndef width(pair, limit):\n    w = pair[1].stop - pair[1].start\n"
            "    if pair[0].size_of() <= limit:\n        w = 0\n    return w\n"),
        Valid(  # NumPy is optional in the module: a function that does not use it runs on Python values (two letters)
            "try:\n    import numpy as np\nexcept ImportError:\n    np = None\n\ndef cost(a, b):\n    if a == b:\n"
            "        c = 0\n    else:\n        c = 2\n    return c\n\ndef total(x):\n    return np.sum(x)\n"),
        Valid(  # handed to numba's `jit` imported under a plain name (arch's `bounds_check = jit(bounds_check_python,
            # nopython=True)`, with a fallback `jit` when numba is missing): numba compiles it, and rejects `jnp`/`lax`
            "import numpy as np\n\ntry:\n    from numba import jit\nexcept ImportError:\n    def jit(f, **kw):\n        return f\n\n"
            "def clamp_python(v, lims):\n    if v < lims[0]:\n        v = lims[0]\n    elif v > lims[1]:\n"
            "        v = lims[1] + np.log(v / lims[1])\n    return v\n\nclamp = jit(clamp_python, nopython=True)\n"),
        Valid(  # what `re` gives (a match or None) is a Python value, whatever it is given (scikit-rf's port names)
            "import re\nimport numpy as np\n\ndef canonical(label):\n    found = re.fullmatch(r'(X|Y)[0-9]', label)\n"
            "    if found:\n        label = found[1]\n    return label\n\ndef total(x):\n    return np.sum(x)\n"),
        Valid(  # ... also imported by name
            "import numpy as np\nfrom re import match\n\ndef tag(label):\n    m = match(r'[a-z]+', label)\n"
            "    if m:\n        label = m[0]\n    return label\n\ndef total(x):\n    return np.sum(x)\n"),
    ]
    INVALID = [
        Invalid(  # a choice between rows of a local list of tuple displays: Python tuples of ints, which `lax.cond`
            # would make tuples of arrays (librosa's `_crystal_tie_break` loop: `best = point`)
            "import jax.numpy as jnp\n\ndef best_move(w):\n    moves = [(1, 0), (0, -1), (1, 1)]\n    best = moves[0]\n"
            "    for m in moves[1:]:\n        if w.dot(jnp.asarray(m)) < w.dot(jnp.asarray(best)):\n            best = m\n"
            "    return best\n",
            expected=None,
            lines=[7],
        ),
        Invalid(  # a masked read in a branch (librosa's estimate_tuning): `jnp.where` would read it whatever the test,
            # and JAX's read of an empty selection raises; under `jit` it has no static shape
            "import numpy as np\n\ndef level(v, w):\n    keep = w > 0\n    if keep.any():\n"
            "        s = np.median(v[keep])\n    else:\n        s = 0.0\n    return s\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # the same with the indices of a one-argument `np.where`
            "import numpy as np\n\ndef first(v):\n    if np.sum(v) > 0:\n        k = np.where(v > 0)[0][0] * 1.0\n"
            "    else:\n        k = -1.0\n    return k\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # items of a module-level list of strings: `jnp.where` and `lax.cond` cannot choose them
            "import numpy as np\n\nLABELS = ['below', 'above']\n\ndef tag(v):\n    if np.mean(v) > 0:\n"
            "        t = LABELS[1]\n    else:\n        t = LABELS[0]\n    return t\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # a number default a branch fills in from a whole parameter: that branch has the parameter's shape, the
            # other keeps the number, and `lax.cond` raises (scikit-rf's `rdc=0.0`, then `rdc = 0.05 * w_q * L / q`)
            "import numpy as np\n\ndef loss(r, f, k=1.0):\n    w = 2 * np.pi * f\n    if k == 1.0:\n        k = 0.5 * w * r\n"
            "    return np.sqrt(k) * r\n",
            expected="import jax\nimport numpy as np\n\ndef loss(r, f, k=1.0):\n    w = 2 * np.pi * f\n\n    def k_if_true(r, k, w):\n"
            "        k = 0.5 * w * r\n        return k\n\n    def k_if_false(r, k, w):\n        return k\n\n"
            "    k = jax.lax.cond(k == 1.0, k_if_true, k_if_false, r, k, w)\n    return np.sqrt(k) * r\n",
            unsafe=True,
            lines=[5],
        ),
        Invalid(  # `x.shape[0]` (like `len(x)`, `x.size`) is a Python int: against a float branch `lax.cond` raises
            # (pymcmcstat's best shift: `error = len(x)`, then `error = cur_error` for a smaller norm): unsafe
            "import numpy as np\n\ndef f(a, b, n):\n    best = a.shape[0]\n    at = 0\n    for k in range(n):\n"
            "        d = np.sqrt(np.sum((np.roll(a, k) - b) ** 2))\n        if d < best:\n            at = k\n            best = d\n"
            "    return at\n",
            expected="import jax\nimport numpy as np\n\ndef f(a, b, n):\n    best = a.shape[0]\n    at = 0\n    for k in range(n):\n"
            "        d = np.sqrt(np.sum((np.roll(a, k) - b) ** 2))\n\n        def at_if_true(k, d, at, best):\n            at = k\n"
            "            best = d\n            return at, best\n\n        def at_if_false(k, d, at, best):\n            return at, best\n\n"
            "        at, best = jax.lax.cond(d < best, at_if_true, at_if_false, k, d, at, best)\n    return at\n",
            unsafe=True,
            lines=[8],
        ),
        Invalid(  # a bool literal against a number: `jnp.where` makes the bool a number, `lax.cond` raises
            "import numpy as np\n\ndef f(w, lim):\n    code = False\n    if np.max(w) > lim:\n        code = 2\n    return code\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # the min of a masked read, which raises where the test says the selection is empty
            "import numpy as np\n\ndef lowest(v, m):\n    if np.any(m):\n        lo = v[m].min()\n    else:\n        lo = 0.0\n    return lo\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef lowest(v, m):\n    lo = jnp.where(np.any(m), v[m].min(), 0.0)\n    return lo\n",
            unsafe=True,
        ),
        Invalid(  # `mode` is static here, but the branch assigns it, so `lax.cond` passes it to the branch as a tracer,
            # and the nested Python `if` on it would raise (pymoo's `Dominator.get_relation`): reported
            "def f(x):\n    mode = 0\n    if x.sum() > 0:\n        if mode == 0:\n            mode = 1\n        y = x * 2\n"
            "    else:\n        y = x\n    return y, mode\n",
            expected=None, lines=[3]),
        Invalid(  # `prev` is None on the first pass, when Python takes the other branch; `lax.cond` and `jnp.where`
            # evaluate both, and `prev - loss` raises (pyriemann's `_run_minimization`): reported
            "import numpy as np\n\ndef descend(x, n):\n    prev = None\n    for i in range(n):\n        loss = np.sum(x * x)\n"
            "        if i == 0:\n            step = 1.0\n        else:\n            step = prev - loss\n        prev = loss\n"
            "        x = x - 0.1 * step\n    return x\n",
            expected=None, lines=[7]),
        Invalid(  # a branch indexes with what the test compares: the test keeps a Python index in range (pyod)
            "import numpy as np\n\ndef scale(k: int, n, table):\n    if k < n:\n        v = table[k]\n    else:\n"
            "        v = 0.0\n    return v\n",
            expected="import jax\nimport numpy as np\n\ndef scale(k: int, n, table):\n    def v_if_true(table):\n"
                     "        v = table[k]\n        return v\n\n    def v_if_false(table):\n        v = 0.0\n        return v\n\n"
                     "    v = jax.lax.cond(k < n, v_if_true, v_if_false, table)\n    return v\n",
            unsafe=True,
        ),
        Invalid(  # ... but a loop over `range(len(V))` keeps `V[j]` in range whatever the test says: a safe fix (SALib's
            # product over the other factors)
            "import numpy as np\n\ndef others(V, i):\n    acc = 1.0\n    for j in range(len(V)):\n        if j != i:\n"
            "            acc *= 1.0 + V[j]\n    return acc\n",
            expected="import jax\nimport numpy as np\n\ndef others(V, i):\n    acc = 1.0\n    for j in range(len(V)):\n"
                     "        def acc_if_true(V, acc):\n            acc *= 1.0 + V[j]\n            return acc\n\n"
                     "        def acc_if_false(V, acc):\n            return acc\n\n"
                     "        acc = jax.lax.cond(j != i, acc_if_true, acc_if_false, V, acc)\n    return acc\n",
        ),
        Invalid(  # ... not when the loop body shortens `V`
            "import numpy as np\n\ndef others(V, i):\n    acc = 1.0\n    for j in range(len(V)):\n        if j != i:\n"
            "            acc *= 1.0 + V[j]\n        V = V[1:]\n    return acc\n",
            expected="import jax\nimport numpy as np\n\ndef others(V, i):\n    acc = 1.0\n    for j in range(len(V)):\n"
                     "        def acc_if_true(V, acc):\n            acc *= 1.0 + V[j]\n            return acc\n\n"
                     "        def acc_if_false(V, acc):\n            return acc\n\n"
                     "        acc = jax.lax.cond(j != i, acc_if_true, acc_if_false, V, acc)\n        V = V[1:]\n    return acc\n",
            unsafe=True,
        ),
        Invalid(  # a running maximum that starts as the int 0 and takes elements of an array argument: on the first pass
            # `lax.cond` gets the int and a float (`TypeError`), so the fix is unsafe (dtaidistance's derivative peak)
            "import numpy as np\n\ndef peak(rates, lo, hi):\n    top = 0\n    where = lo\n    for k in range(lo + 1, hi):\n"
            "        r = rates[k]\n        if r > top:\n            top = r\n            where = k\n    return top, where\n",
            expected="import jax\nimport numpy as np\n\ndef peak(rates, lo, hi):\n    top = 0\n    where = lo\n"
                     "    for k in range(lo + 1, hi):\n        r = rates[k]\n\n        def top_if_true(r, k, top, where):\n"
                     "            top = r\n            where = k\n            return top, where\n\n"
                     "        def top_if_false(r, k, top, where):\n            return top, where\n\n"
                     "        top, where = jax.lax.cond(r > top, top_if_true, top_if_false, r, k, top, where)\n"
                     "    return top, where\n",
            unsafe=True,
        ),
        Invalid(  # ... and one that starts as a float constant, against elements that are ints for int data (dtaidistance's
            # `argmax`, `vmax = float("-inf")`)
            "import numpy as np\n\ndef first_peak(a, n):\n    at, top = 0, float(\"-inf\")\n    for k in range(n):\n"
            "        v = a[k]\n        if v > top:\n            at, top = k, v\n    return at\n",
            expected="import jax\nimport numpy as np\n\ndef first_peak(a, n):\n    at, top = 0, float(\"-inf\")\n"
                     "    for k in range(n):\n        v = a[k]\n\n        def at_if_true(k, v, at, top):\n"
                     "            at, top = k, v\n            return at, top\n\n        def at_if_false(k, v, at, top):\n"
                     "            return at, top\n\n        at, top = jax.lax.cond(v > top, at_if_true, at_if_false, k, v, at, top)\n"
                     "    return at\n",
            unsafe=True,
        ),
        Invalid(  # the branches choose module-level lists of different lengths: `lax.cond` needs one pytree structure
            # (fluids' line search, `points = WIDE` / `points = NARROW`)
            "import numpy as np\n\nWIDE = [1.0, -1.0, 2.0, -2.0]\nNARROW = [0.5, 0.25]\n\ndef f(x, fval, fval0):\n"
            "    if fval == fval0:\n        points = WIDE\n    else:\n        points = NARROW\n"
            "    return np.array([x * p for p in points])\n",
            expected=None,
            lines=[7],
        ),
        Invalid(  # the first test is a host value: only its branch runs, whose values may have another shape (a 0-d `t`
            # here); a `lax.switch` would trace both branches and raise. The static `if` stays Python (galpy's series)
            "import jax.numpy as jnp\n\ndef f(s, t, done):\n    scalar = jnp.ndim(s) == 0\n    if scalar:\n        done = abs(t) < 1.0\n"
            "    elif jnp.all(t < 1.0):\n        done = True\n    return done\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(s, t, done):\n    scalar = jnp.ndim(s) == 0\n    if scalar:\n"
                     "        done = abs(t) < 1.0\n    else:\n        def done_if_true(done):\n            done = True\n"
                     "            return done\n\n        def done_if_false(done):\n            return done\n\n"
                     "        done = jax.lax.cond(jnp.all(t < 1.0), done_if_true, done_if_false, done)\n    return done\n",
        ),
        Invalid(  # ... only where the chain could become lax at all: here a branch gives a string, and splitting the
            # `elif` would be churn (scipy's _qap argument checks)
            "import jax.numpy as jnp\n\ndef check(a, p):\n    msg = None\n    if a.shape[0] != a.shape[1]:\n"
            "        msg = \"a must be square\"\n    elif (p < 0).any():\n        msg = \"p must be positive\"\n    return msg\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # `t` starts as 1.0 and the taken branch grows it to `z`'s shape, the other keeps it 0-d: the two branches
            # of `lax.cond` differ in shape and it raises, so the fix is unsafe (galpy's series after JX223's flag)
            "import jax.numpy as jnp\n\ndef f(z, n):\n    t = 1.0\n    for k in range(n):\n        if jnp.all(t < 1e3):\n"
            "            t = t * z\n    return t\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(z, n):\n    t = 1.0\n    for k in range(n):\n"
                     "        def t_if_true(z, t):\n            t = t * z\n            return t\n\n"
                     "        def t_if_false(z, t):\n            return t\n\n"
                     "        t = jax.lax.cond(jnp.all(t < 1e3), t_if_true, t_if_false, z, t)\n    return t\n",
            unsafe=True,
        ),
        Invalid(  # an array test beside an identity test: the `if` stays Python, and `and` takes the array's truth
            "import numpy as np\n\ndef f(x, w):\n    if w is not None and w.sum() > 0:\n        x = x * 2\n    return x\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # a branch indexes an object's attribute, maybe a Python list, with a traced value: unsafe (pyclustering)
            "import jax.numpy as jnp\n\nclass D:\n    def f(self, x, i):\n        s = 0.0\n        if jnp.sum(x) > 0:\n"
            "            s = self.table[i] * 2.0\n        return s\n",
            expected="import jax\nimport jax.numpy as jnp\n\nclass D:\n    def f(self, x, i):\n        s = 0.0\n\n"
                     "        def s_if_true(i, s):\n            s = self.table[i] * 2.0\n            return s\n\n"
                     "        def s_if_false(i, s):\n            return s\n\n"
                     "        s = jax.lax.cond(jnp.sum(x) > 0, s_if_true, s_if_false, i, s)\n        return s\n",
            unsafe=True, lines=[6],
        ),
        Invalid(  # the flag is then tested by identity: an array is never `True`, silently (pyclustering's hysteresis)
            "import numpy as np\n\ndef f(x, limit):\n    small = True\n    if np.max(x) > limit:\n        small = False\n"
            "    return 1.0 if small is True else 2.0\n",
            expected=None, lines=[5],
        ),
        Invalid(  # the flag is then looked up in a dict display by `.get`: a JAX array is unhashable (a status code)
            "import numpy as np\n\ndef status(a, b):\n    code = 0\n    if np.isinf(a) or np.isinf(b):\n        code = 3\n"
            "    return {0: 'fine', 3: 'overflow'}.get(code, '?')\n",
            expected=None, lines=[5],
        ),
        Invalid(  # ... or in a module's dict, or tested for membership in a set display
            "import numpy as np\n\nTEXT = {0: 'fine', 3: 'overflow'}\n\ndef status(a):\n    code = 0\n    if np.isinf(a):\n"
            "        code = 3\n    return TEXT[code]\n\ndef known(a):\n    code = 1\n    if np.isinf(a):\n        code = 3\n"
            "    return code in {0, 3}\n",
            expected=None, lines=[7, 13],
        ),
        Invalid(  # ... or in a set or dict made by a call in place: `frozenset(...)`, `set([...])`, `dict(...)[code]`
            "import collections\nimport numpy as np\n\ndef ok(a):\n    code = 1\n    if np.isinf(a):\n        code = 3\n"
            "    return code in frozenset((0, 1))\n\ndef bad(a):\n    code = 1\n    if np.isnan(a):\n        code = 4\n"
            "    return code not in set([1])\n\ndef name(a):\n    code = 0\n    if a[0] > np.max(a):\n        code = 2\n"
            "    return dict(zip((0, 2), 'lh'))[code], collections.Counter('ab').get(code)\n",
            expected=None, lines=[6, 12, 18],
        ),
        Invalid(  # a branch prepends to the carried arrays, the other keeps them: a shape that depends on the test's value;
            # `lax.cond` raised `TypeError` (branches of different shapes): reported (mne's `_filter_attenuation` edges)
            "import numpy as np\n\ndef edges(lo, hi):\n    knots = np.sort(np.r_[lo, hi])\n    level = np.ones_like(knots)\n"
            "    if knots[0] > 0:\n        knots = np.r_[[0.0], knots]\n        level = np.r_[[1.0], level]\n    return knots, level\n",
            expected=None, lines=[6]),
        Invalid(  # ... also through a local of the branch and arithmetic (`np.insert`, then `* 2`), or a slice with a bound
            "import numpy as np\n\ndef pad(v, w):\n    v = v * w\n    if np.max(v) > 1.0:\n        grown = np.insert(v, 0, 1.0)\n"
            "        v = grown * 2.0\n    return v\n\ndef cut(v, n):\n    v = v * n\n    if v.sum() > 0:\n        v = v[: n // 2]\n"
            "    else:\n        v = -v\n    return v\n",
            expected=None, lines=[5, 12]),
        Invalid(  # ... or a reduction keeping the axis with length 1, or an index array (the code review's)
            "import numpy as np\n\ndef f(x, c):\n    x = x * 2\n    if c.sum() > 0:\n        x = x.sum(axis=0, keepdims=True)\n"
            "    return x\n\ndef g(x, idx):\n    x = x * 2\n    if x.sum() > 0:\n        x = x[idx]\n    return x\n",
            expected=None, lines=[5, 11],
        ),
        Invalid(  # a slice in one branch changes the shape (skyfield's legacy leap-second table)
            "import numpy as np\n\ndef f(d, o):\n    if np.isinf(d[-1]):\n        d = d[2:-1]\n        o = o[3:]\n    return d, o\n",
            expected=None, lines=[4],
        ),
        Invalid(  # a branch hands an operand to a NumPy call JX501 renames only as an unsafe fix (`np.histogram`'s
            # counts are integers, `jnp.histogram`'s floats): left NumPy in a safe run, it raises on the tracer
            "import numpy as np\n\ndef f(x, t):\n    h = np.zeros(10)\n    if np.sum(x) > t:\n"
            "        h = np.histogram(x, bins=10)[0] * 1.0\n    return h\n",
            expected="import jax\nimport numpy as np\n\ndef f(x, t):\n    h = np.zeros(10)\n\n    def h_if_true(x, h):\n"
                     "        h = np.histogram(x, bins=10)[0] * 1.0\n        return h\n\n    def h_if_false(x, h):\n"
                     "        return h\n\n    h = jax.lax.cond(np.sum(x) > t, h_if_true, h_if_false, x, h)\n    return h\n",
            unsafe=True),
        Invalid(  # ... or as a size: blocked
            "import numpy as np\n\ndef f(x, t, n):\n    h = np.zeros(3)\n    if np.sum(x) > t:\n"
            "        h = np.histogram(x, n + 1)[0] * 1.0\n    return h\n",
            expected=None, lines=[5]),
        Invalid(  # a list comprehension on one side: its length may differ from the other side's (numpy-ml)
            "import numpy as np\n\ndef f(env, x):\n    if np.sum(x) > 0:\n        n = [s.n - 1.0 for s in env.spaces]\n"
            "    else:\n        n = [env.n]\n    return np.concatenate([x, n])\n",
            expected=None, lines=[4],
        ),
        Invalid(  # a branch slices with the traced `n` (`out.at[: n + 4]`, `x[-n:]`, after JX101 rewrote `out[: n + 4] +=`):
            # `lax.cond` would pass `n` as a tracer, and the slice raises even outside `jit` (pyroomacoustics)
            "import jax.numpy as jnp\n\ndef f(x, hop):\n    out = jnp.zeros(4)\n    n = 0\n    while n - hop > -4:\n"
            "        n -= hop\n    if n < 0:\n        out = out.at[: n + 4].add(x[-n:])\n    else:\n"
            "        out = out.at[n:].add(x[: 4 - n])\n    return out\n",
            expected=None, lines=[8]),
        Invalid(  # `.item()` left in a branch (JX502 cannot prove `loss` 0-d) raises while `lax.cond` traces it (POT)
            "def f(step, x, prev):\n    loss = step(x)\n    if loss > prev:\n        d = prev - loss.item()\n    else:\n"
            "        d = 0.0\n    return d\n", expected=None, lines=[3]),
        Invalid(  # a branch indexes a Python list with a traced value: `lax.cond` traces it, and the list raises (skfuzzy)
            "def f(x, i):\n    acc = [0.0, 1.0, 2.0]\n    if x[i] > 0:\n        s = 0.0\n    else:\n        s = acc[i - 1]\n    return s\n",
            expected=None, lines=[3],
        ),
        Invalid(  # the condition calls `g`: one `jnp.where` per output would call it twice; `lax.cond` calls it once
            # (unsafe: `v` and `d`, never read as arrays, may be Python ints, which `lax.cond` cannot join with 0.0)
            "def f(x, g, v, d):\n    if g(x) < 0.0:\n        v = 0.0\n        d = 1.0\n    return v, d\n",
            expected=(
                "import jax\n\ndef f(x, g, v, d):\n    def d_if_true(v, d):\n        v = 0.0\n        d = 1.0\n"
                "        return d, v\n\n    def d_if_false(v, d):\n        return d, v\n\n"
                "    d, v = jax.lax.cond(g(x) < 0.0, d_if_true, d_if_false, v, d)\n    return v, d\n"
            ),
            unsafe=True,
        ),
        Invalid(  # ... but a parameter a NumPy call reads, also through arithmetic (`np.linalg.norm(x - y)`), is taken for an
            # array of the dtype the code expects, as an indexed one is: the fix stays safe (`(x + y) / 2` in the branch
            # would make it unsafe: a float made by the branch's own arithmetic, against `x` that may be an int array)
            "import numpy as np\n\ndef f(x, y, tol):\n    err = np.linalg.norm(x - y)\n    out = x\n    if err > tol:\n"
            "        out = x + y\n    return out\n",
            expected=(
                "import jax\nimport numpy as np\n\ndef f(x, y, tol):\n    err = np.linalg.norm(x - y)\n    out = x\n\n"
                "    def out_if_true(x, y, out):\n        out = x + y\n        return out\n\n"
                "    def out_if_false(x, y, out):\n        return out\n\n"
                "    out = jax.lax.cond(err > tol, out_if_true, out_if_false, x, y, out)\n    return out\n"
            ),
        ),
        Invalid(  # a branch gives an item of what may be a Python list (documented `list or array_like`): its items
            # may be ints and floats, which `lax.cond` cannot join (fluids' `is_increasing([1, 2.5, 3])`): unsafe
            'import numpy as np\n\ndef f(points, done, previous):\n    """Parameters\n    ----------\n    points : list or array_like\n    """\n    if np.logical_not(done):\n        current = points[1]\n        previous = np.where(current <= previous, previous, current)\n    return previous\n',
            expected='import jax\nimport numpy as np\n\ndef f(points, done, previous):\n    """Parameters\n    ----------\n    points : list or array_like\n    """\n\n    def previous_if_true(points, previous):\n        current = points[1]\n        previous = np.where(current <= previous, previous, current)\n        return previous\n\n    def previous_if_false(points, previous):\n        return previous\n\n    previous = jax.lax.cond(np.logical_not(done), previous_if_true, previous_if_false, points, previous)\n    return previous\n',
            unsafe=True,
        ),
        Invalid(  # a caller tests that the result is a Python bool: `jnp.where` would make `ok` an array (fluids'
            # is_increasing, after JX223's flag)
            "import numpy as np\n\ndef f(x, t):\n    ok = True\n    if np.sum(x) > t:\n        ok = False\n    return ok\n\n"
            "assert isinstance(f([1.0], 0.0), bool)\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # a caller in the module compares the result by identity with `True`: an array never is one, so the
            # test would silently turn False (pymcmcstat's `is_sample_outside_bounds(...) is True`)
            "import numpy as np\n\ndef clipped(v, top):\n    if np.max(v) > top:\n        hit = True\n    else:\n"
            "        hit = False\n    return hit\n\ndef accept(v, top):\n    return 0.0 if clipped(v, top) is True else 1.0\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # ... through a walrus (the code review's `if (r := clipped(v, top)) is True:`)
            "import numpy as np\n\ndef over(v, top):\n    if np.min(v) > top:\n        out = True\n    else:\n"
            "        out = False\n    return out\n\ndef keep(v, top):\n    if (o := over(v, top)) is not True:\n"
            "        return v\n    return o\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # ... or an item of a returned tuple (`r = clipped(v, top)`, then `r[0] is True`)
            "import numpy as np\n\ndef over(v, top):\n    if np.min(v) > top:\n        out = True\n    else:\n"
            "        out = False\n    return out, v\n\ndef keep(v, top):\n    res = over(v, top)\n"
            "    return 1.0 if False is res[0] else 0.0\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # ... or through a name bound to it, with `is not False`
            "import numpy as np\n\ndef small(v, eps):\n    flag = False\n    if np.abs(v).sum() < eps:\n        flag = True\n"
            "    return flag\n\ndef run(v):\n    done = small(v, 1e-3)\n    if done is not False:\n        v = v * 0.0\n    return v\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # `True` in one branch and `False` in the other: the flag is the condition itself, not a
            # `jnp.where(c, True, False)`; swapped, its negation
            "import numpy as np\n\ndef f(v, lo):\n    if (v < lo).any():\n        low = True\n    else:\n        low = False\n"
            "    if np.all(v > lo):\n        mixed = False\n    else:\n        mixed = True\n    return low, mixed\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(v, lo):\n    low = (v < lo).any()\n"
                     "    mixed = jnp.logical_not(np.all(v > lo))\n    return low, mixed\n",
        ),
        Invalid(  # the flag comes from a function of the module that returns an object's attribute: its tracedness is
            # unknown, as `opts.fast` read here would be (pymcmcstat's `doram, eta = unpack(options)`): unsafe
            "import numpy as np\n\ndef settings(opts):\n    return opts.fast\n\ndef f(opts, x):\n    fast = settings(opts)\n"
            "    if fast:\n        y = x * 2.0\n    else:\n        y = np.zeros(3)\n    return y\n",
            expected="import jax\nimport numpy as np\n\ndef settings(opts):\n    return opts.fast\n\ndef f(opts, x):\n"
                     "    fast = settings(opts)\n\n    def y_if_true(x):\n        y = x * 2.0\n        return y\n\n"
                     "    def y_if_false(x):\n        y = np.zeros(3)\n        return y\n\n"
                     "    y = jax.lax.cond(fast, y_if_true, y_if_false, x)\n    return y\n",
            unsafe=True,
        ),
        Invalid(  # a branch hands `n` to a function of the module that makes it a shape (`jnp.eye(n)`): the branch
            # functions close over it, a traced operand would raise there (pymcmcstat's `via_ram(u, npar, ...)`)
            "import jax.numpy as jnp\n\ndef grow(x, n):\n    return x + jnp.eye(n)\n\ndef f(x, n):\n    if jnp.sum(x) > 0:\n"
            "        y = grow(x, n) * 2.0\n    else:\n        y = x * 2.0\n    return y\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef grow(x, n):\n    return x + jnp.eye(n)\n\ndef f(x, n):\n"
                     "    def y_if_true(x):\n        y = grow(x, n) * 2.0\n        return y\n\n"
                     "    def y_if_false(x):\n        y = x * 2.0\n        return y\n\n"
                     "    y = jax.lax.cond(jnp.sum(x) > 0, y_if_true, y_if_false, x)\n    return y\n",
        ),
        Invalid(  # a branch indexes with the traced `k` a parameter whose items have attributes: a list of objects,
            # which rejects a traced index, and no `lax.cond` operand: closed over, and the fix is unsafe (pymcmcstat's
            # `trypath[iq + 1].theta`)
            "import jax.numpy as jnp\n\ndef f(path, k, x):\n    if jnp.sum(x) > k:\n        y = path[k].theta * 2.0\n"
            "    else:\n        y = path[0].theta * 3.0\n    return y\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(path, k, x):\n    def y_if_true(k):\n"
                     "        y = path[k].theta * 2.0\n        return y\n\n    def y_if_false(k):\n"
                     "        y = path[0].theta * 3.0\n        return y\n\n"
                     "    y = jax.lax.cond(jnp.sum(x) > k, y_if_true, y_if_false, k)\n    return y\n",
            unsafe=True,
        ),
        Invalid(  # ... or one the function takes the `len()` of and uses as no array: maybe a list (unsafe)
            "import jax.numpy as jnp\n\ndef f(mats, k, x):\n    last = len(mats) - 1\n    if k < last:\n"
            "        y = jnp.dot(x, mats[k]) * 2.0\n    else:\n        y = x * 1.0\n    return y\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(mats, k, x):\n    last = len(mats) - 1\n\n"
                     "    def y_if_true(mats, k, x):\n        y = jnp.dot(x, mats[k]) * 2.0\n        return y\n\n"
                     "    def y_if_false(mats, k, x):\n        y = x * 1.0\n        return y\n\n"
                     "    y = jax.lax.cond(k < last, y_if_true, y_if_false, mats, k, x)\n    return y\n",
            unsafe=True,
        ),
        Invalid(  # a swap of two parameters: one may be a Python int, the other a float (fluids' `T1, T2 = T2, T1`)
            "def f(T1, T2, c):\n    if c * T1 > T2:\n        T1, T2 = T2, T1\n    return T1 - T2\n",
            expected=(
                "import jax\n\ndef f(T1, T2, c):\n    def T1_if_true(T1, T2):\n        T1, T2 = T2, T1\n        return T1, T2\n\n"
                "    def T1_if_false(T1, T2):\n        return T1, T2\n\n"
                "    T1, T2 = jax.lax.cond(c * T1 > T2, T1_if_true, T1_if_false, T1, T2)\n    return T1 - T2\n"
            ),
            unsafe=True,
        ),
        Invalid(  # a parameter kept by one branch, float arithmetic in the other: called with a Python int `step`,
            # `lax.cond` gets an int and a float branch (`TypeError`); unsafe (fluids' damping of a Newton step)
            "def damp(x, step, factor=0.5):\n    if x * step < 0.0:\n        step = -factor * x\n    return x + step\n",
            expected=(
                "import jax\n\ndef damp(x, step, factor=0.5):\n    def step_if_true(x, step, factor):\n"
                "        step = -factor * x\n        return step\n\n    def step_if_false(x, step, factor):\n"
                "        return step\n\n    step = jax.lax.cond(x * step < 0.0, step_if_true, step_if_false, x, step, factor)\n"
                "    return x + step\n"
            ),
            unsafe=True,
        ),
        Invalid(  # ... and one with a float default that a call in the module passes an int (obspy's `lim(x, y, 2)`
            # for `ylim=0.`): kept by one branch, it is an int32 against the other's float
            "import jax.numpy as jnp\n\ndef scale(v, w, top=1.0):\n    if top == 0.0:\n"
            "        top = jnp.max(jnp.asarray([jnp.abs(v).max(), jnp.abs(w).max()])) * 1.5\n    return v / top\n\n"
            "def use(v):\n    return scale(v, v, 3)\n",
            expected=(
                "import jax\nimport jax.numpy as jnp\n\ndef scale(v, w, top=1.0):\n    def top_if_true(v, w, top):\n"
                "        top = jnp.max(jnp.asarray([jnp.abs(v).max(), jnp.abs(w).max()])) * 1.5\n        return top\n\n"
                "    def top_if_false(v, w, top):\n        return top\n\n"
                "    top = jax.lax.cond(top == 0.0, top_if_true, top_if_false, v, w, top)\n    return v / top\n\n"
                "def use(v):\n    return scale(v, v, 3)\n"
            ),
            unsafe=True,
        ),
        Invalid(  # `0` is int32 under lax.cond, the other branch a float: the fix raises at trace time, so it is unsafe
            "import numpy as np\n\ndef f(lb, ub):\n    if lb == 0:\n        lam = 0\n    else:\n        lam = np.sqrt(lb * ub) + lb.sum()\n    return lam\n",
            expected=(
                "import jax\nimport numpy as np\n\ndef f(lb, ub):\n    def lam_if_true(lb, ub):\n        lam = 0\n"
                "        return lam\n\n    def lam_if_false(lb, ub):\n        lam = np.sqrt(lb * ub) + lb.sum()\n"
                "        return lam\n\n    lam = jax.lax.cond(lb == 0, lam_if_true, lam_if_false, lb, ub)\n"
                "    return lam\n"
            ),
            unsafe=True,
        ),
        Invalid(  # `0.5 *` makes one branch a float; with integer inputs the other stays an integer, and `lax.cond`
            # raises `TypeError` (branches of different dtypes) where NumPy gives an int or a float: unsafe (skfuzzy's
            # trapezoid area, `defuzz(np.arange(5), ...)`)
            "import numpy as np\n\ndef area(x1, x2, y1, y2):\n    if y1 == y2:\n        a = (x2 - x1) * y1\n    else:\n"
            "        a = 0.5 * (x2 - x1) * y1\n    return a\n",
            expected=(
                "import jax\nimport numpy as np\n\ndef area(x1, x2, y1, y2):\n    def a_if_true(x1, x2, y1):\n        a = (x2 - x1) * y1\n"
                "        return a\n\n    def a_if_false(x1, x2, y1):\n        a = 0.5 * (x2 - x1) * y1\n        return a\n\n"
                "    a = jax.lax.cond(y1 == y2, a_if_true, a_if_false, x1, x2, y1)\n    return a\n"
            ),
            unsafe=True,
        ),
        Invalid(  # ... and so does `lax.switch`, with items of the parameters (skfuzzy's centroid and bisector)
            "import numpy as np\n\ndef f(x, m, i):\n    x1 = x[i - 1]\n    x2 = x[i]\n    if m[i] == m[i - 1]:\n        a = (x2 - x1) * m[i]\n"
            "    elif m[i] == 0.0:\n        a = (x2 - x1) / 2\n    else:\n        a = 0.5 * (x2 - x1) * m[i - 1]\n    return a\n",
            expected=(
                "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(x, m, i):\n    x1 = x[i - 1]\n    x2 = x[i]\n\n"
                "    def a_case_0(m, i, x2, x1):\n        a = (x2 - x1) * m[i]\n        return a\n\n"
                "    def a_case_1(m, i, x2, x1):\n        a = (x2 - x1) / 2\n        return a\n\n"
                "    def a_case_2(m, i, x2, x1):\n        a = 0.5 * (x2 - x1) * m[i - 1]\n        return a\n\n"
                "    branch = jnp.select([m[i] == m[i - 1], m[i] == 0.0], [0, 1], 2)\n"
                "    a = jax.lax.switch(branch, [a_case_0, a_case_1, a_case_2], m, i, x2, x1)\n    return a\n"
            ),
            unsafe=True,
        ),
        # lax.cond needs one structure: None on one path, an array on the other, is refused
        Invalid("def f(g, tol):\n    status = None\n    if g.sum() < tol:\n        status = g * 2\n    return status\n", expected=None, lines=[3]),
        Invalid("def f(g, tol, alpha=None):\n    if g.sum() < tol:\n        a = g * 2\n    else:\n        a = alpha\n    return a\n",
                expected=None, lines=[2]),
        Invalid("def f(x, y, eta):\n    m = Model(x)\n    p = Model(y)\n    if x.sum() > eta:\n        m = p\n        x = y\n"
                "    return x, m\n", expected=None, lines=[4]),
        # strings cannot go through lax.cond or jnp.where
        Invalid(  # a nested function reads `s` when called, after the `if`: its new value must survive
            "def f(x):\n    s = 1.0\n    def h():\n        return s * x\n    if x > 0:\n        s = 2.0\n        y = x + 1.0\n"
            "    else:\n        y = x - 1.0\n    return h() + y\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    s = 1.0\n    def h():\n        return s * x\n"
            "    s = jnp.where(x > 0, 2.0, s)\n    y = jnp.where(x > 0, x + 1.0, x - 1.0)\n    return h() + y\n",
        ),
        Invalid(  # `np.logical_and.reduce` of comparisons is a mask: `t[v]` has a value-dependent shape (pvlib's fit)
            "import numpy as np\n\ndef f(t, x, g):\n    v = np.logical_and.reduce([x > 1, t > 0])\n    if np.any(v):\n"
            "        w = np.log(t[v])\n        r = g(np.mean(w))\n    else:\n        r = 0.0\n    return r\n",
            expected=None, unsafe=True, lines=[5]),
        Invalid(  # `slice(None)` is no array: no `lax.cond` branch can give it (dynesty's bound update)
            "def f(x, t):\n    if x.max() > t:\n        keep = x > t\n    else:\n        keep = slice(None)\n    return x[keep]\n",
            expected=None, lines=[2]),
        Invalid("def f(x):\n    if x.sum() > 0:\n        msg = 'up'\n    else:\n        msg = f'{x.ndim}'\n    return msg\n", expected=None, lines=[2]),
        Invalid(
            "def f(x):\n    if x > 0:\n        y = x\n    else:\n        y = -x\n    return y\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    y = jnp.where(x > 0, x, -x)\n    return y\n",
        ),
        Invalid(
            "def f(x, t):\n    y = x\n    if t > 0:  # shrink\n        y = x * t\n    return y\n",
            expected="import jax.numpy as jnp\n\ndef f(x, t):\n    y = x\n    # shrink\n    y = jnp.where(t > 0, x * t, y)\n    return y\n",
        ),
        Invalid(
            "def f(x):\n    if x < 0:\n        y = 0.0\n    elif x < 1:\n        y = x * 2\n    else:\n        y = x\n    return y\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    y = jnp.select([x < 0, x < 1], [0.0, x * 2], x)\n    return y\n",
        ),
        Invalid(  # an `elif` chain of branches that are not plain selections: one `lax.switch`
            "def f(x, y):\n    if x[0] > 0:\n        t = y + 1\n        y = t * 2\n    elif x[1] > 0:\n        t = y - 1\n"
            "        y = t * t\n    return y\n",
            expected=(
                "import jax\nimport jax.numpy as jnp\n\ndef f(x, y):\n    def y_case_0(y):\n        t = y + 1\n"
                "        y = t * 2\n        return y\n\n    def y_case_1(y):\n        t = y - 1\n"
                "        y = t * t\n        return y\n\n    def y_case_2(y):\n        return y\n\n"
                "    branch = jnp.select([x[0] > 0, x[1] > 0], [0, 1], 2)\n"
                "    y = jax.lax.switch(branch, [y_case_0, y_case_1, y_case_2], y)\n    return y\n"
            ),
        ),
        Invalid(  # a later condition that calls an unknown function is evaluated only when reached: nested lax.cond
            "def f(x, y, g):\n    if x[0] > 0:\n        t = y + 1\n        y = t * 2\n    elif g(x) > 0:\n        t = y - 1\n"
            "        y = t * t\n    return y\n",
            expected=(
                "import jax\n\ndef f(x, y, g):\n    def y_if_true(y):\n        t = y + 1\n        y = t * 2\n"
                "        return y\n\n    def y_if_false(y):\n        def y_if_true_2(y):\n            t = y - 1\n"
                "            y = t * t\n            return y\n\n        def y_if_false_2(y):\n"
                "            return y\n\n        y = jax.lax.cond(g(x) > 0, y_if_true_2, y_if_false_2, y)\n"
                "        return y\n\n    y = jax.lax.cond(x[0] > 0, y_if_true, y_if_false, y)\n    return y\n"
            ),
        ),
        Invalid(
            "def f(x):\n    if x.sum() > 0:\n        y = x\n    else:\n        y = 0.0\n    return y\n",
            expected="import jax\n\ndef f(x):\n    def y_if_true(x):\n        y = x\n        return y\n\n"
                     "    def y_if_false(x):\n        y = 0.0\n        return y\n\n"
                     "    y = jax.lax.cond(x.sum() > 0, y_if_true, y_if_false, x)\n    return y\n",
        ),
        Invalid("def f(x):\n    if x.sum() > 0:\n        print(x)\n        x = x * 2\n    return x\n", expected=None, lines=[2]),
        Invalid("def f(x):\n    if x > 0:\n        y = x\n    return y\n", expected=None, lines=[2]),
        Invalid(  # lax.cond traces both branches: the masked read raises even when `n_bad == 0`
            "import numpy as np\n\ndef f(x, a):\n    keep = x >= a\n    if np.sum(~keep) > 0:\n        x = x[keep]\n    return x.sum()\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # one branch transposes: lax.cond needs one shape, jnp.where would broadcast
            "import numpy as np\n\ndef f(x):\n    if x[0, 0] > 0:\n        x = x.T\n    return x * 2\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # math.exp of a tracer raises while lax.cond traces the branch: unsafe
            "import math\nimport numpy as np\n\ndef f(x, a):\n    x = np.asarray(x)\n    if x > 0:\n        y = math.exp(-x) * a\n        y = y + np.sum(a)\n    else:\n        y = np.zeros_like(a)\n    return y\n",
            expected="import math\nimport jax\nimport numpy as np\n\ndef f(x, a):\n    x = np.asarray(x)\n\n"
                     "    def y_if_true(x, a):\n        y = math.exp(-x) * a\n        y = y + np.sum(a)\n"
                     "        return y\n\n    def y_if_false(x, a):\n        y = np.zeros_like(a)\n        return y\n\n"
                     "    y = jax.lax.cond(x > 0, y_if_true, y_if_false, x, a)\n    return y\n",
            unsafe=True,
            lines=[6],
        ),
        Invalid(  # a unit library in the module: JX501 renames `np.arcsinh` only as an unsafe fix, and NumPy raises on
            # the tracers `lax.cond` gives the branch (lenstronomy's astropy cosmology)
            "import numpy as np\nfrom astropy import units as u\n\ndef f(d, z, k):\n    if k < 0:\n"
            "        c = np.arcsinh(d * np.sqrt(-k)) / np.sqrt(-k)\n    else:\n        c = d * z\n    return c\n",
            expected="import jax\nimport numpy as np\nfrom astropy import units as u\n\ndef f(d, z, k):\n"
                     "    def c_if_true(d, z, k):\n        c = np.arcsinh(d * np.sqrt(-k)) / np.sqrt(-k)\n        return c\n\n"
                     "    def c_if_false(d, z, k):\n        c = d * z\n        return c\n\n"
                     "    c = jax.lax.cond(k < 0, c_if_true, c_if_false, d, z, k)\n    return c\n",
            unsafe=True,
        ),
        Invalid(  # `k` defaults to an int: as an int32 array, the product below would wrap around silently
            "import numpy as np\n\ndef f(x, hi, k=1):\n    mid = hi\n    if x.sum() > 1:\n        mid = mid - k\n    return np.prod(np.arange(1, 5)) * mid * x\n",
            expected="import jax\nimport numpy as np\n\ndef f(x, hi, k=1):\n    mid = hi\n\n"
                     "    def mid_if_true(k, mid):\n        mid = mid - k\n        return mid\n\n"
                     "    def mid_if_false(k, mid):\n        return mid\n\n"
                     "    mid = jax.lax.cond(x.sum() > 1, mid_if_true, mid_if_false, k, mid)\n"
                     "    return np.prod(np.arange(1, 5)) * mid * x\n",
            unsafe=True,
            lines=[5],
        ),
        Invalid(  # a dtype is not a value lax.cond can return
            "import numpy as np\n\ndef f(x):\n    if x.max() > 127:\n        t = np.int16\n    else:\n        t = np.int8\n    return np.sum(x) * 2, t\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # `tol` keeps its int default 0 on one path: int32 against a float in lax.cond
            "import numpy as np\n\ndef f(A, tol=0):\n    A = np.asarray(A)\n    if tol <= 0:\n        tol = 2 * np.finfo(A.dtype).eps\n    return A * tol\n",
            expected="import jax\nimport numpy as np\n\ndef f(A, tol=0):\n    A = np.asarray(A)\n\n"
                     "    def tol_if_true(A, tol):\n        tol = 2 * np.finfo(A.dtype).eps\n        return tol\n\n"
                     "    def tol_if_false(A, tol):\n        return tol\n\n"
                     "    tol = jax.lax.cond(tol <= 0, tol_if_true, tol_if_false, A, tol)\n    return A * tol\n",
            unsafe=True,
            lines=[5],
        ),
        Invalid(  # the branch result is a dict key and a shape afterwards: a traced choice cannot give either
            "import numpy as np\n\ndef f(x, tol, n):\n    if np.abs(x).max() > tol:\n        ier, k = 1, n\n    else:\n        ier, k = 2, n + 1\n    msgs = {1: \"big\", 2: \"fine\"}\n    return np.arange(k), msgs[ier]\n",
            expected=None,
            lines=[4],
        ),
        Invalid(  # Python `max` of traced values in a branch raises while lax.cond traces it: unsafe
            "import numpy as np\n\ndef f(x):\n    if np.abs(x[0]) > np.abs(x[1]):\n        t = x[1] / x[0]\n        c = 1 / max(1, abs(t), np.sqrt(1 + t * t))\n    else:\n        c = x[0] * 0.5\n    return c\n",
            expected="import jax\nimport numpy as np\n\ndef f(x):\n    def c_if_true(x):\n        t = x[1] / x[0]\n"
                     "        c = 1 / max(1, abs(t), np.sqrt(1 + t * t))\n        return c\n\n    def c_if_false(x):\n"
                     "        c = x[0] * 0.5\n        return c\n\n"
                     "    c = jax.lax.cond(np.abs(x[0]) > np.abs(x[1]), c_if_true, c_if_false, x)\n    return c\n",
            unsafe=True,
        ),
        Invalid(  # a list on one side, what `roots(n)` gave on the other: not one structure for `lax.cond`
            "import numpy as np\n\ndef nodes(n):\n    x, w = roots(n)\n    if np.sum(x) == 0:\n        x, w = [], []\n    return x, w\n",
            expected=None,
            lines=[5],
        ),
        Invalid(  # the kept value is a tuple with None in it: lax.cond needs one structure (astropy's BLS search)
            "import numpy as np\n\ndef f(y, s):\n    best = (-np.inf, None)\n    score = np.mean(y) * s\n    if score > best[0]:\n"
            "        best = (score, (s, score))\n    return best\n",
            expected=None,
            lines=[6],
        ),
        Invalid(  # the branches assign `x`, a constant (not traced) array they also read: it must be an operand, or the
            # assignment makes it a local of each branch function and the read raises UnboundLocalError
            # (sk_dsp_comm's sigsys.rect, after JX101 made `x[k] = 1` `x = x.at[k].set(1)`)
            "import jax.numpy as jnp\n\ndef f(t):\n    x = jnp.zeros(len(t))\n    for k, tk in enumerate(t):\n"
            "        if tk > 0:\n            x = x.at[k].set(1)\n        else:\n            x = x.at[0].set(-1)\n    return x\n",
            expected="import jax\nimport jax.numpy as jnp\n\ndef f(t):\n    x = jnp.zeros(len(t))\n    for k, tk in enumerate(t):\n"
                     "        def x_if_true(x):\n            x = x.at[k].set(1)\n            return x\n\n"
                     "        def x_if_false(x):\n            x = x.at[0].set(-1)\n            return x\n\n"
                     "        x = jax.lax.cond(tk > 0, x_if_true, x_if_false, x)\n    return x\n",
        ),
        Invalid(  # both branches set the same slot: `jnp.where` picks the value set, as a JAX programmer writes it (a
            # `lax.cond` in a Python loop compiled its branches on every pass outside `jit`: astroML's Cminus took 70 s);
            # a branch that does not add adds -0.0 (an array of floats: -0.0 + 0 would be +0.0)
            "import jax.numpy as jnp\n\ndef f(t, w):\n    x = jnp.zeros(len(t))\n    for k, tk in enumerate(t):\n"
            "        if tk > 0:\n            x = x.at[k].set(tk)\n        else:\n            x = x.at[k].set(-1)\n"
            "        if w > tk:\n            x = x.at[k].add(w)\n    return x\n",
            expected="import jax.numpy as jnp\n\ndef f(t, w):\n    x = jnp.zeros(len(t))\n    for k, tk in enumerate(t):\n"
                     "        x = x.at[k].set(jnp.where(tk > 0, tk, -1))\n        x = x.at[k].add(jnp.where(w > tk, w, -0.0))\n"
                     "    return x\n",
            lines=[6, 10],
        ),
        Invalid(  # `u3` is bound only when `loop_type == 3`: Python reads it only then, `lax.cond`/`jnp.where` evaluate
            # every branch and raise NameError (sk_dsp_comm's synchronization.PLL1)
            "import numpy as np\n\ndef f(theta, loop_type):\n    pd_out = np.sin(theta)\n    if loop_type == 3:\n"
            "        u3 = 2 * pd_out\n    vco_in = pd_out\n    if loop_type == 3:\n        vco_in = u3\n    return vco_in\n",
            expected=None,
            lines=[5, 8],
        ),
        Invalid(  # `mu` is a local bound to the int 0: kept by one branch against a float, int32 against float64 in
            # `lax.cond` (TypeError), so the fix is unsafe (sk_dsp_comm's NDA_symb_sync)
            "import numpy as np\n\ndef f(cnt, w):\n    mu = 0\n    cnt_next = cnt - np.float64(w)\n    if cnt_next < 0:\n"
            "        cnt_next = 1 + cnt_next\n        mu_next = cnt / w\n    else:\n        mu_next = mu\n"
            "    return cnt_next, mu_next\n",
            expected="import jax\nimport numpy as np\n\ndef f(cnt, w):\n    mu = 0\n    cnt_next = cnt - np.float64(w)\n\n"
                     "    def cnt_next_if_true(cnt, w, cnt_next):\n        cnt_next = 1 + cnt_next\n        mu_next = cnt / w\n"
                     "        return cnt_next, mu_next\n\n    def cnt_next_if_false(cnt, w, cnt_next):\n        mu_next = mu\n"
                     "        return cnt_next, mu_next\n\n"
                     "    cnt_next, mu_next = jax.lax.cond(cnt_next < 0, cnt_next_if_true, cnt_next_if_false, cnt, w, cnt_next)\n"
                     "    return cnt_next, mu_next\n",
            unsafe=True,
        ),
        Invalid(  # a local bound to an object's attribute (`m = self.tau`, a float32 made in `__init__`), divided, against
            # the Python float `1.0` kept by the other branch: under x64 `lax.cond` gets float32 and float64 branches and
            # raises `TypeError`, so the fix is unsafe (sporco's ADMM penalty update)
            'import numpy as np\n\nclass S:\n    def f(self, x, y):\n        m = self.tau\n        rsf = 1.0\n        if np.sum(x) > np.sum(y):\n            rsf = 1.0 / m\n        return rsf\n',
            expected='import jax\nimport numpy as np\n\nclass S:\n    def f(self, x, y):\n        m = self.tau\n        rsf = 1.0\n\n        def rsf_if_true(rsf):\n            rsf = 1.0 / m\n            return rsf\n\n        def rsf_if_false(rsf):\n            return rsf\n\n        rsf = jax.lax.cond(np.sum(x) > np.sum(y), rsf_if_true, rsf_if_false, rsf)\n        return rsf\n',
            unsafe=True,
        ),
        Invalid(  # ... through an array function, whose result takes its input's dtype (`np.sqrt(self.tau)`)
            'import numpy as np\n\nclass S:\n    def f(self, x, y):\n        rsf = 1.0\n        if np.sum(x) > np.sum(y):\n            rsf = np.sqrt(self.tau)\n        return rsf\n',
            expected='import jax\nimport numpy as np\n\nclass S:\n    def f(self, x, y):\n        rsf = 1.0\n\n        def rsf_if_true(rsf):\n            rsf = np.sqrt(self.tau)\n            return rsf\n\n        def rsf_if_false(rsf):\n            return rsf\n\n        rsf = jax.lax.cond(np.sum(x) > np.sum(y), rsf_if_true, rsf_if_false, rsf)\n        return rsf\n',
            unsafe=True,
        ),
        Invalid(  # Python requires `__float__` to return a float: the `if` stays
            "import numpy as np\n\nclass P:\n    def __float__(self):\n        if np.any(self.v > 0):\n            out = 1.0\n"
            "        else:\n            out = 0.0\n        return out\n",
            expected=None, lines=[5],
        ),
    ]

    def __init__(self, context) -> None:
        super().__init__(context)
        self._elifs: set[cst.If] = set()

    def _mixed_test(self, tests: list[cst.BaseExpression], traced) -> None:
        """Report an array test beside a type or identity test (`x is not None and x.sum() > 0`): the statement stays
        Python, and under `jit` Python's `and`/`or`/`if` take the truth of the traced part, which raises."""
        for test in tests:
            for part in _operands(test):
                if python_only_test(part) or traced.of(part) is not Tracedness.TRACED or not _array_call(self, part):
                    continue
                self.report(part, f"`{self.code(part).strip()}` is an array under `jit`, tested beside Python values "
                            "(a type or identity test), so this `if` stays Python and takes its truth, which raises "
                            "`TracerBoolConversionError` under `jit`: test the Python part in an `if` of its own and "
                            "branch on the array inside it, or keep this function outside `jit`")
                return

    def visit_If(self, node: cst.If) -> None:
        if isinstance(node.orelse, cst.If):
            self._elifs.add(node.orelse)
        function = self.current_function
        if function is None or node in self._elifs:
            return
        traced = function_tracedness(self, function)
        c = chain(node)
        levels = [traced.of_test(t) for t in c.tests]
        if any(python_only_test(t) for t in c.tests):
            self._mixed_test(c.tests, traced)
            return  # a type or identity test anywhere in the chain: its values may be strings, None, objects
        if all(level is Tracedness.STATIC for level in levels):
            return
        found = exits([s for b in c.bodies for s in b], lambda t: traced.of(t) is not Tracedness.STATIC)
        if found.returns or found.loop_exit or found.nested_traced_if:
            return  # JX202's, the loop rules', or wait until the inner `if` is rewritten
        test = self.code(c.tests[levels.index(max(levels))]).strip()
        flow = function_flow(self, function)
        found.effect = found.effect or shared_update(flow, node, [s for b in c.bodies for s in b])
        if found.effect is not None:
            hint = effect_hint(found)
            self.report(node, f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: a branch {found.effect}{hint}")
            return
        written = set().union(*(flow.writes(list(b)) for b in c.bodies))
        outputs = sorted(written & flow.live_out(node))
        if not outputs:
            return
        later = python_value_after(self, function, node, outputs)
        if later is not None:
            name, reason, line = later
            self.report(
                node,
                f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: `{name}` is then used on line "
                f"{line} ({reason}), where only a Python value can stand, and a traced condition can only choose an "
                "array; branch on a static value, or keep this code outside `jit`",
            )
            return
        if function.name.value in PYTHON_RESULT_METHODS:
            self.report(node, f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: "
                        f"`{function.name.value}` must return a Python value (an array there raises `TypeError`); "
                        "keep the `if`")
            return
        kept = _caller_writes.host_results(self).get(function.name.value)
        returned = _returned_names(function) & set(outputs) if kept is not None else set()
        if returned:  # `result = False` under the `if`, then `return result`; a caller tests `isinstance(r, bool)`
            self.report(node, f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: it would make "
                        f"`{sorted(returned)[0]}`, which this function returns, an array: {kept}, which a Python value "
                        "allows and an array does not; keep the `if` (and this function outside `jit`)")
            return
        text = text_output([s for b in c.bodies for s in b], outputs)
        if text is not None:
            self.report(
                node,
                f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: a branch gives `{text}` a string, "
                "and a traced condition can only choose between arrays; build the text outside `jit`, or branch on a "
                "static value",
            )
            return
        bodies = c.bodies if c.has_else else [*c.bodies, []]
        everywhere = set.intersection(*(definitely_written(b) for b in bodies))
        for name in outputs:
            if name not in everywhere and flow.maybe_undefined(node, name):
                self.report(
                    node,
                    f"`if` on traced value `{test}`: `{name}` is assigned in only some branches and undefined before "
                    "the `if`; give it a value before the `if` (the value it should have when the branch is not taken)",
                )
                return
        unbound = sorted(flow.unbound_reads([s for b in c.bodies for s in b]))
        if unbound:  # `if mode == 3: u3 = ...`, later `if mode == 3: v = u3`: Python reads `u3` only where it is bound
            self.report(
                node,
                f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: a branch reads `{unbound[0]}`, "
                "which is unbound on some path to the `if`; `jnp.where` and `lax.cond` evaluate every branch, whichever "
                f"is taken, and that read raises `NameError`: give `{unbound[0]}` a value on every path before the `if`",
            )
            return
        maybe_none = none_read(flow, node, [s for b in c.bodies for s in b])
        if maybe_none is not None:  # `prev = None` before a loop, `prev - loss` in the branch taken after the first pass
            self.report(
                node,
                f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: a branch reads `{maybe_none}`, "
                "which may be `None` there (it is bound to `None` on some path to the `if`); `jnp.where` and "
                "`lax.cond` evaluate every branch, whichever is taken, and arithmetic on `None` raises `TypeError`: "
                f"give `{maybe_none}` an array value before the `if`",
            )
            return
        unsafe = max(levels) is Tracedness.UNKNOWN
        why = "" if not unsafe else " (its tracedness is unknown: if it is static, keep the `if`)"
        ints = python_ints(function, [*c.tests, *(s for b in c.bodies for s in b)])
        if ints is not None:
            unsafe = True
            why += (f" ({ints}: the values may be Python ints, which have no bound; as arrays they are int32 and "
                    "wrap around past 2**31)")
        reduced = empty_reduction(c.tests, [s for b in c.bodies for s in b], function_facts(self, function))
        if reduced is not None:
            unsafe = True
            why += empty_note(reduced)
        local = frozenset(flow.params) | flow.writes(list(function.body.body))
        shaped = value_shaped_read([s for b in c.bodies for s in b], function_facts(self, function))
        if shaped is not None:
            self.report(node, f"`if` on traced value `{test}` cannot become `jnp.where`/`lax.cond`: {shaped_note(shaped)}")
            return
        plain = [assignments(b) for b in bodies]
        risk = None
        if all(p is not None for p in plain):
            done, risk = where_fix(self, node, c, plain, outputs, local, test, why, unsafe)
            if done:
                return
        if risk is not None:
            why += f" (`lax.cond`, not `jnp.where`: {risk})"
        untraceable = untraceable_branch(traced, [s for b in c.bodies for s in b])
        if untraceable is not None:
            self.report(node, f"`if` on traced value `{test}` cannot become `lax.cond`: {untraceable}")
            return
        operands = emit.operands(node, c.bodies, [o for o in outputs if o not in everywhere], flow, traced)
        nested = made_traced_test(traced, [s for b in c.bodies for s in b], operands)
        if nested is not None:  # `if val == -1:` in a branch, `val` a carry the branches take: a tracer there
            self.report(node, f"`if` on traced value `{test}` cannot become `lax.cond`: a Python test in a branch, "
                        f"`{self.code(nested[0]).strip()}`, reads `{nested[1]}`, which `lax.cond` passes to the branches "
                        "as a traced operand, and Python cannot branch on a tracer (`TracerBoolConversionError`); "
                        "rewrite that test with `jnp.where` first, or keep this code outside `jit`")
            return
        held = branch_numpy(self, [s for b in c.bodies for s in b], operands)
        if held is not None and held[1]:
            self.report(node, f"`if` on traced value `{test}` cannot become `lax.cond`: {held[0]}")
            return
        if held is not None:
            unsafe = True
            why += held[0]
        opaque = purity(self).opaque_call([s for b in c.bodies for s in b], function, traced.of)
        stuck = stuck_boolean([*c.tests, *(s for b in c.bodies for s in b)], lambda e: traced.of(e) is not Tracedness.STATIC,
                              frozenset(flow.params) | flow.writes(list(function.body.body)))
        if stuck is not None:
            unsafe = True
            why += (f" (`{stuck}` stays a Python `and`/`or` (a later operand is not cheap and pure), and in a traced "
                    "branch it raises: rewrite it with `jnp.logical_and`/`logical_or` by hand)")
        indexed = attribute_indexed(traced, [s for b in c.bodies for s in b])
        if indexed is not None:
            unsafe = True
            why += (f" (a branch indexes an object's attribute with a traced value (`{indexed.strip()}`): "
                    "it may be a Python list, which rejects the traced index `lax.cond` makes; safe only if it is a JAX array)")
        item = traced_param_item(traced, function, [s for b in c.bodies for s in b])
        if item is not None:
            unsafe = True
            why += (f" (a branch indexes a parameter that may be a Python list with a traced value (`{item[0]}`: "
                    f"{item[1]}); a list rejects the traced index `lax.cond` makes: safe only if it is a JAX array)")
        if opaque is not None:
            unsafe = True
            why += (f" (a branch calls `{opaque}`, which `lax.cond` runs while tracing, whichever branch is taken: "
                    f"safe only if it is pure JAX code{purity(self).kept_note(opaque)})")
        # an `elif` chain becomes one `lax.switch` when its later conditions can all be evaluated up front (else
        # nested `lax.cond`s, one level a pass, keep Python's lazy evaluation of them)
        switch = len(c.tests) > 1 and all(cheap_and_pure(t, local) for t in c.tests[1:])
        for name in outputs:
            values = output_values(flow, node, bodies, name)
            if holds_object(flow, node, values):
                self.report(node, f"`if` on traced value `{test}` cannot become `lax.cond`: `{name}` holds an object made "
                            "by a class, which `lax.cond` cannot return")
                return
            conflict = kind_conflict(values)
            if conflict is None:
                conflict = module_object(values, self.context.module, local, function)
            if conflict is None:
                conflict = reshaped_output(bodies, name)
            held = none_inside(values, function_facts(self, function))
            if conflict is None and held is not None:
                conflict = f"`{name}` may hold `{self.code(held).strip()}`, a tuple with `None` in it"
            flag = bool_mix(with_locals(flow, node, values), function_facts(self, function)) if conflict is None else None
            if flag is not None:
                conflict = (f"a branch gives it the bool `{flag[0]}` and another the number `{flag[1]}` (`lax.cond` "
                            "rejects branches of different dtypes)")
            if conflict is not None:
                self.report(node, f"`if` on traced value `{test}` cannot become `lax.cond`: for `{name}`, {conflict}; "
                            "`lax.cond` needs branches that give arrays of one structure")
                return
            chosen = object_attribute(values, local)
            if chosen is not None:
                unsafe = True
                why += (f" (a branch gives `{name}` `{self.code(chosen).strip()}`, an object's attribute, which may hold "
                        "any Python object: `lax.cond` can only return arrays)")
            typed = attribute_dtype(with_locals(flow, node, values), function_facts(self, function), local) \
                if chosen is None else None
            if typed is not None:
                unsafe = True
                why += (f" (a branch gives `{name}` a value of `{self.code(typed).strip()}`, an object's attribute, whose dtype "
                        "is unknown: `lax.cond` rejects branches of different dtypes (a float32 against a Python float under "
                        "x64), where Python keeps each value's type)")
            literal = int_mix(with_locals(flow, node, values), flow.params, function, function_facts(self, function))
            if literal is not None:
                unsafe = True
                why += (f" (a branch gives `{name}` the int `{literal}` and another may give a float: `lax.cond` needs one "
                        f"dtype; write `{as_float(literal)}` if a float is meant)")
            elif "as it is and another" not in why and (
                    mixed := param_mix(_as_given(flow, node, name, values), flow.params, function, function_facts(self, function),
                                       int_fed_parameters(self.context.module).get(function.name.value, ()))) is not None:
                unsafe = True
                why += (f" (a branch gives `{name}` the parameter `{mixed[0]}` as it is and another `{mixed[1]}`: if "
                        "they are Python numbers or arrays of different dtypes (an int and a float), `lax.cond` "
                        "rejects branches of different dtypes, where Python keeps each one's type)")
            elif "an element of an array argument" not in why and (
                    carried := loop_float_element(function, node, with_locals(flow, node, values), flow.params)) is not None:
                unsafe = True
                why += (f" (`{name}` starts as the float `{carried[0]}` before the loop and a branch gives it `{carried[1]}`, "
                        "an element of an array argument: for int data `lax.cond` gets an int and a float branch and "
                        "raises `TypeError`, where Python rebinds; safe only for float inputs)")
            elif "a float whatever its inputs" not in why and (
                    split := float_split(values, function_facts(self, function))) is not None:
                unsafe = True
                why += (f" (a branch gives `{name}` `{split[0]}`, a float whatever its inputs (a float literal, `/` or a "
                        f"float function makes it one), and another `{split[1]}`, which stays an integer if its inputs "
                        f"are integers: `lax.{'switch' if switch else 'cond'}` then raises `TypeError` (branches of "
                        "different dtypes), where NumPy gives an int on one path and a float on the other; safe only "
                        "for float inputs)")
        items = _list_items(self, function, outputs, flow, node, bodies, [s for b in c.bodies for s in b])
        if items is not None:
            unsafe = True
            why += items
        grows = scalar_carry_broadcast(flow, node, outputs, [s for b in c.bodies for s in b], "each `lax.cond` output")
        if grows:
            unsafe = True
            why += grows
        indexed = guarded_index(node.test, [s for b in c.bodies for s in b], function_tracedness(self, function),
                                loop_indices(self, node, function_flow(self, function)))
        if indexed is not None:
            unsafe = True
            why += (f" (a branch indexes with a value the test compares, `{indexed}`: `lax.cond` traces every branch, "
                    "and if that index is a Python int out of range, the branch the test rules out raises `IndexError`)")
        divisor = guarded_division(node.test, [s for b in c.bodies for s in b])
        if divisor is not None:
            unsafe = True
            why += (f" (a branch divides by `{divisor}`, which the test compares with zero: `lax.cond` traces every "
                    "branch, and if it is a Python number that division raises `ZeroDivisionError`)")
        if levels[0] is Tracedness.STATIC:
            # (after every check that the chain can become lax at all: else the split is churn, and the inner `if`
            # alone would escape the checks its siblings failed)
            # `if scalar: ... elif np.all(...)`: Python picks the first branch from a host value, and only that branch
            # runs (its values may have another shape than the others'); `lax.switch` would trace every branch and
            # select on the host value. Keep the static test Python: `elif` becomes `else: if`, converted next pass
            split = node.with_changes(orelse=cst.Else(body=cst.IndentedBlock(body=[node.orelse])))
            self.report(node, f"`if` on traced value `{test}` in an `elif` after a test on a static value "
                        f"(`{self.code(c.tests[0]).strip()}`){why}: Python cannot branch on a traced array under `jit`",
                        replacement=split, title="turn the `elif` into `else: if` (the static test stays Python)",
                        unsafe=unsafe)
            return
        ops = emit.operands(node, c.bodies, [o for o in outputs if o not in everywhere], flow, traced, self.context.module)
        self.report(
            node,
            f"`if` on traced value `{test}`{why}: Python cannot branch on a traced array under `jit`",
            replacement=Deferred(lambda: cond_replacement(self, node, function, c, ops, outputs, switch)),
            unsafe=unsafe,
            title="replace with `lax.switch`" if switch else "replace with `lax.cond`",
            imports=("lax", "jnp") if switch else ("lax",),
        )


def _returned_names(function: cst.FunctionDef) -> set[str]:
    """The names the function returns as they are (`return result`, `return a, b`), not in nested functions."""
    found: set[str] = set()
    for ret in walk.nodes_of(function.body, cst.Return):
        value = ret.value  # type: ignore[attr-defined]
        items = [e.value for e in value.elements] if isinstance(value, cst.Tuple) else [value]
        found.update(v.value for v in items if isinstance(v, cst.Name))
    return found


def _as_given(flow, node: cst.If, name: str, values: list) -> list:
    """`values` (`output_values`) with the parameter `name` itself for the default that stands for it where a branch
    leaves it (`def lim(a, ylim=0.)`, `if ylim == 0.: ylim = ...`): a caller may pass anything else (`lim(x, 2)`)."""
    defaults = [d.node.default for d in flow.reaching(node, name) if isinstance(d.node, cst.Param) and d.node.default is not None]
    if not defaults:
        return values
    return [*(v for v in values if not any(v is d for d in defaults)), cst.Name(name)]


def _list_items(rule: Rule, function: cst.FunctionDef, outputs, flow, node: cst.If, bodies, statements) -> Optional[str]:
    """The note that makes the `lax.cond` fix unsafe when an output is an item of a parameter that may be a Python
    list (`list_item`), else None."""
    elsewhere = _caller_inputs.fed(rule.context.project, rule.context.module_name, "list")  # (other modules' calls)
    sequences = documented_sequences(function, enclosing_class(rule, function)) | list_fed_parameters(rule.context.module, elsewhere).get(function.name.value, frozenset())
    for name in outputs:
        found = list_item(output_values(flow, node, bodies, name), statements, sequences & set(flow.params))
        if found is not None:
            return (f" (a branch gives `{name}` `{found}`, an item of what may be a Python list, whose items may be "
                    "ints and floats: `lax.cond` rejects branches of different dtypes)")
    return None


def _operands(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands of `and`/`or`/`not` in a truth test (`x is not None`, `x.sum() > 0` of `x is not None and
    x.sum() > 0`)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _operands(test.expression)
    if isinstance(test, cst.BooleanOperation):
        return _operands(test.left) + _operands(test.right)
    return [test]


# array methods whose result is an array of the receiver's values (a reduction or a test of them)
_ARRAY_TESTS = frozenset({"sum", "any", "all", "max", "min", "mean", "std", "var", "prod"})


def _array_call(rule: Rule, expr: cst.BaseExpression) -> bool:
    """Whether `expr` calls a NumPy / `jax.numpy` function or an array reduction (`x.sum()`, `np.any(x)`): evidence
    that it computes an array, not a comparison of strings or objects."""
    for call in walk.nodes_of(expr, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if function_facts(rule, rule.current_function).array_function(func) is not None:
            return True
        if isinstance(func, cst.Attribute) and func.attr.value in _ARRAY_TESTS:
            return True
    return False
