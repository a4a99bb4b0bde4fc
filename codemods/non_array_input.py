from __future__ import annotations

import functools
from typing import Callable, Mapping, Optional, Union

import libcst as cst

from codemods import _array_inputs, _caller_inputs, _hoisted_inputs, _host_values, _list_inputs
from codemods._array_inputs import ANY_OBJECT, ARRAY_CONVERSIONS, SEQUENCE_FUNCTIONS, STACKING
from codemods._inplace import is_range
from codemods._kept_numpy import boundary, kept_or_unsafe
from codemods._numpy_boundary import repeats_a_list
from jaxfix import walk
from jaxfix.analysis import jnp_api
from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.foreign_dtypes import is_text
from jaxfix.analysis import layout_classes
from jaxfix.analysis.host_data import documented_sequences, example_sequences, module_example_sequences, none_default_here
from jaxfix.analysis.masks import FunctionFacts, MaskProvider, function_facts
from jaxfix.analysis.numpy_names import NumpyNameProvider, numpy_name
from jaxfix.analysis.parents import ParentProvider, caught_around, enclosing_class, enclosing_statement, isinstance_guards
from jaxfix.analysis.tracedness import TracednessProvider, function_tracedness
from jaxfix.imports import dotted_name
from jaxfix.rule import Invalid, Rule, Valid
from jaxfix.types import FixAvailability


def _unpacked_source(node: Optional[cst.CSTNode], name: str) -> Optional[cst.Name]:
    """`bounds` when `node` is the assignment `..., name, ... = bounds` (no starred target), else None."""
    if not (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.value, cst.Name)):
        return None
    target = node.targets[0].target
    if not isinstance(target, (cst.Tuple, cst.List)) or any(isinstance(e, cst.StarredElement) for e in target.elements):
        return None
    return node.value if any(isinstance(e.value, cst.Name) and e.value.value == name for e in target.elements) else None


# what an `except` names when it catches the `TypeError` `jax.numpy` raises on a list or tuple (a bare `except:` is
# read as `BaseException`)
TYPE_ERROR_CATCHERS = frozenset({"TypeError", "Exception", "BaseException"})


class NonArrayInput(Rule):
    """
    ## What it does
    Wraps a list or tuple literal passed where a NumPy / `jax.numpy` function takes an array (`np.sum([a, b, c])`,
    `np.max((u, v))`, `np.maximum([0.0, 1.0], x)`) in `jnp.asarray(...)`, which stacks its elements; so too a
    parameter its docstring says may be a list or tuple (`lengths : array-like of integers`, `w : list of float`),
    or that a call passes one (in the module, or in another module of the run that imports the function: a test
    module's `fuzz.trimf([1, 2, 3], abc)`, directly or through a parameter it passes on), where it is passed to a
    function that takes an array, unless the function rebinds it first (before, only the module's own calls were
    seen); so too a name unpacked from such a parameter (`lb, ub = bounds`), and a parameter, or a name unpacked
    from one, that the function converts elsewhere (`np.array(ub)`, then `np.tile(ub, ...)`: the conversion says it
    may be a list). Does the same for an entry of a mapping read with a string key (`np.prod(cfg["dims"])`, a dict
    of settings whose entries are often lists), for a list used as a whole index of an array (`x[[0, 2]]`, `x[idx] =
    v` with `idx = [0, 2]`, a parameter a call passes a list: `d[ends] = np.inf`; a name bound to a list on one path
    and to an array on the other, `axes = [axis]` or `axes = np.arange(n)`: unsafe when the other value may be a
    tuple or a slice, a parameter as given), and for a `range(...)` or a list
    among an array's indices, also in a tuple of indices bound to a name (`m = (range(n), cols)`, then `x[m]`:
    converted where the tuple is built), and for the starred items of a list of lists given to a function whose
    every positional argument is an array (`np.meshgrid(*axes)` -> `*[jnp.asarray(v) for v in axes]`). A parameter
    the docstring says is array-like that an operator meets (`a[:3] / norm`, `-a`: NumPy reads a list there as an
    array, a JAX array raises) is converted once, first in the function (`a = jnp.asarray(a)`), when every read of
    the caller's value takes it as an array either way (`_hoisted_inputs`); then its uses are not converted one by one.
    Where the module or another module of the run defines an `np.ndarray` subclass with a `format` or `sharding`
    attribute (spectral's `ImageArray.format = 'f'`: `jaxfix.analysis.layout_classes`), which `jax.numpy` functions read as
    the array's layout and raise `AttributeError` on, does the same for a parameter given as an array (any caller
    may pass an instance), for an array NumPy derives from one keeping its class (`X * 2`, `X[0]`, `X.T`), and for
    a name bound to an instance made here (`Cls(...)`, `x.view(Cls)`, a module function returning one): `jnp.asarray`
    takes it.

    ## Why is this bad?
    `jax.numpy` functions do not accept lists or tuples (the Sharp Bits guide, "Non-array inputs"): converting one
    element at a time would trace each element separately, so they raise `TypeError` instead.

    ## Example
    ```python
    def peak(a, b, c):
        return np.max([a, b, c])
    ```

    ## Use instead
    ```python
    def peak(a, b, c):
        return jnp.max(jnp.asarray([a, b, c]))
    ```

    ## Fix safety
    Safe: `np.max([a, b, c])` converts the list with `np.asarray` first, which is what `jnp.asarray` does (a list of
    equally shaped arrays is stacked along a new first axis). An index list is wrapped only when the indexed value is
    an array (a traced value, or the result of a NumPy / `jax.numpy` call) and the list holds no `True`/`False`
    literal (a boolean list is a mask: JX303's), and, when it holds names, the value is no other object's method
    result (`df.groupby("t")[[col]]`: column keys). A list that may be empty (`keep = []`, grown in a loop) becomes
    `jnp.asarray(keep, dtype=int)` when its items are integers (`jnp.asarray([])` is a float array, which cannot
    index), else the fix is unsafe. A parameter used as an index is unsafe when a call passes it a tuple (one index
    per axis, where `jnp.asarray` makes one index array). The conversion first in a function is unsafe when the
    function hands the parameter back as the caller gave it on some path (`return a`: the caller gets a JAX array
    where it got its own list), and is not made when a read takes it as a list (`a * 2`, `a + [0]`, `a is None`, a
    list method, an index, a call of another function, a nested function's read), nor when what is computed from it
    goes to code that writes into it or needs a NumPy array (`one(a - b, 0.0)` with `one` writing into its
    parameter, a compiled module, `scipy.fftpack`: JX501 keeps that NumPy, which reads a list as an array), nor for
    another parameter an operator meets it with (`a - b`).

    ## Known problems
    Lists and tuples written in place, list comprehensions, `tuple(...)`/`list(...)`, NumPy calls that return a
    tuple or list of arrays (`np.nonzero(m)`, `np.split(x, k)`), parameters with a list or tuple default, and names
    bound only to those are seen (a list grown
    with `.append` is still a list, and is converted where it is passed; so is a name a list display reaches on some
    path, given or among joined arrays: `out = []`, then `out = np.hstack((out, row))` in a loop). A Python list of arrays processed in a loop
    and re-stacked is JX222's: it scans `jnp.stack(parts)` for a local list of one shape, `jnp.asarray(xs)` for a
    parameter that may be a list (with a diagnostic: under `jit` a list argument retraces for every length and
    element shape), and reports lists whose arrays may differ in shape. A list display or `range(...)` that meets an
    array in an operator (`v * [-1.0, 1.0]`, or `w / s` with `w` a local name bound only to list displays) is
    converted too, but not a list on the left of `*` (`[0.0] * n`
    repeats it) nor one that meets a parameter (`acc + [v]` may concatenate two lists), nor one added (`+`, `+=`) to
    what a call not known to give an array returns (a helper of the module may return a list). The `bins` of
    `histogram2d` and `histogramdd` are one item per dimension (an int or an array of edges), which `jax.numpy` takes
    as a sequence: they are never made one array (a ragged sequence would raise), only a list display among them is
    converted; a parameter holding a list of lists of edges still raises `TypeError` in `jax.numpy`.
    """

    CODE = "JX304"
    SUMMARY = "list or tuple passed as an array to a jax.numpy function"
    FIX = FixAvailability.ALWAYS
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, MaskProvider, TracednessProvider, DataflowProvider, ParentProvider,
                             NumpyNameProvider)  # (`_host_values.counted` tells NumPy calls by it)
    ORDER = 60
    TRIGGERS = (b"numpy", b"jax")
    INDEXES = (_caller_inputs.INDEX, layout_classes.INDEX)  # what other modules of the run pass the module's
    # functions; the run's NumPy array subclasses that `jax.numpy` rejects

    VALID = [
        # a list an unpacking binds to something else: its rows are not known, so it is not converted
        Valid("import numpy as np\n\ndef f(k, g):\n    x, y = g()\n    for i in range(3):\n        x.append([i] * k)\n"
              "    return np.concatenate(x)\n"),
        Valid(  # calls whose JX501 rename is only an unsafe fix stay NumPy under safe fixes, and take lists as they
            # are: `jnp.asarray` there would only round the list to float32 without x64 (SciPy's softplus, forwarding
            # `**kwargs`; numpy-financial's irr, `np.roots`)
            "import numpy as np\n\ndef soft(x, **kwargs):\n    return np.logaddexp(0, x, **kwargs)\n\n"
            "def irr(values):\n    return np.roots(values[::-1])\n\ndef use():\n    return soft([1.0, 2.0]), irr([-1.0, 0.5, 0.75])\n"),
        Valid(  # ... also `np.histogram`, whose JAX counts are floats: a caller's edges (given as a list, or what a
            # caller's callable returns) made float32 by `jnp.asarray` would move values across the edges for nothing
            "import numpy as np\n\ndef counts(x, edges, edges_of):\n"
            "    return np.histogram(x, bins=edges)[0], np.histogram(x, edges_of(x), (0.0, 1.0))[0]\n\n"
            "def use(x):\n    return counts(x, [0.0, 0.25, 1.0], None)\n"),
        Valid(  # a `try` whose handlers do not catch `TypeError`: a list fails as loudly as before
            "import jax.numpy as jnp\n\ndef first(v):\n    try:\n        return jnp.cumsum(v)[0]\n"
            "    except (ValueError, IndexError):\n        return None\n"),
        Valid(  # an array subclass whose `format` is None (what JAX reads as none), or with no such attribute
            "import numpy as np\n\nclass Plain(np.ndarray):\n    format = None\n    unit = 'm'\n\ndef peak(a):\n    return np.max(a)\n"),
        Valid(  # a display compared with what may be a sequence (a shape, `list(y)`, `y.tolist()`): Python compares
            # the sequences as wholes (the code review's `np.shape(y) == (2,)`, sdeint's `np.shape(G) != (d,)`)
            "import numpy as np\n\ndef f(x):\n    y = np.asarray(x) * 2.0\n    s = y.tolist()\n"
            "    return np.shape(y) == (2,), s == [1.0, 0.0], list(y) == [2.0, 4.0], x == (1, 2)\n"),
        Valid(  # names in a list key a table's columns: `groupby` is no array method (neurokit2's segment plot)
            "import numpy as np\n\ndef as_table(d):\n    return d\n\ndef means(data):\n    table = as_table(data)\n"
            "    key = [c for c in (\"a\", \"b\") if c in table.columns][0]\n    return table.groupby(\"t\")[[key]].mean()\n"),
        Valid(  # the bins of `histogram2d` / `histogramdd` are one per dimension, an int or an array of edges each, which
            # `jax.numpy` takes as a sequence: as one array, `(5, edges)` or edges of two lengths raise (astroML's
            # `bins : list of arrays, or an int and an array`)
            "import numpy as np\n\ndef density(x, y, bins, i, j):\n    \"\"\"bins : list of arrays, or an int and an array\"\"\"\n"
            "    H, xe, ye = np.histogram2d(x, y, (bins[i], bins[j]))\n    return H, np.histogramdd(x, bins=bins)[0]\n"),
        Valid(  # a list display repeated by what `np.size` gives, or a tuple joined to `np.shape`'s, is a sequence, not
            # an array: `w + pad` concatenates (the code review's cases: `jnp.asarray(w) + pad` raised TypeError)
            "import numpy as np\n\ndef f(w, x, lead):\n    pad = [0.0] * np.size(x)\n    tail = np.shape(x) + (1,)\n"
            "    return w + pad, lead + tail, w + [0.0] * np.size(x)\n\nR = f([1.0, 2.0], np.ones(3), (2,))\n"),
        # a parameter times a list repeats it (an int), whatever other operators do with lists
        "import jax.numpy as jnp\n\ndef f(n, x):\n    return n * [0.0], jnp.sum(x)\n",
        # `.dot` of a parameter: it may be a NumPy array, whose `.dot` takes the list
        "import jax.numpy as jnp\n\ndef f(x):\n    return x.dot([1, 2])\n",
        # ... nor `.take` of a parameter rebound to a list on some path (a list has no `.take`: not this rule's)
        "import jax.numpy as jnp\n\ndef f(x, flag):\n    x = jnp.asarray(x)\n    if flag:\n        x = [1, 2]\n"
        "    return x.take([0])\n",
        Valid("import numpy as np\n\ndef f(i, dims):\n    i = np.asarray(i)\n    return [len(i[1])] + list(dims[2:])\n"),
        # items of a documented array-like meeting each other or a number: elements of a list either way, never read
        # as an array (scipy's lagrange: `fac = x[j] - x[k]`, `poly1d([1.0, -x[k]])`)
        Valid("import numpy as np\nfrom numpy import poly1d\n\ndef spread(nodes):\n    \"\"\"nodes : array_like\"\"\"\n"
              "    total = poly1d(0.0)\n    for j in range(len(nodes)):\n        for k in range(len(nodes)):\n"
              "            if k != j:\n                gap = nodes[j] - nodes[k]\n"
              "                total = total + poly1d([1.0, -nodes[k]]) / gap\n    return total\n"),
        # a count that repeats a Python list stays NumPy (JX501), which takes the documented list (pyDOE3's fullfact)
        Valid("import numpy as np\n\ndef f(levels):\n    \"\"\"levels : array_like\"\"\"\n    n = np.prod(levels)\n"
              "    return [0.0] * n\n"),
        # a count or shape made from lists stays NumPy (JX501), which takes them (sporco's `fftconv`: the `s` of
        # pyfftw's `rfftn`)
        Valid("import numpy as np\nimport pyfftw.interfaces.numpy_fft as fftw\n\ndef fftconv(a, b, axes):\n"
              "    dims = np.maximum([a.shape[i] for i in axes], [b.shape[i] for i in axes])\n"
              "    return fftw.rfftn(a, dims, axes)\n"),
        # unpacked from something that is not known to give lists (a loop target, a call)
        "import numpy as np\n\ndef f(xs, g):\n    for a, b in xs:\n        pass\n    c, d = g()\n    return np.cumsum(a) + np.cumsum(c)\n",
        Valid(  # subscripts given as lists (`einsum`'s interleaved form); text; a test that takes any object
            "import numpy as np\n\ndef f(a, b, missing):\n    \"\"\"missing : {None, sequence of str}\"\"\"\n"
            "    if not np.iterable(missing) or np.iterable([1]):\n        missing = [missing]\n"
            "    return np.einsum(a, [0, 1], b, [1, 2], [0, 2]), np.sum(np.asarray(missing) == 'x')\n"),
        Valid(  # documented as an array, or converted first: no list reaches NumPy's function
            "import numpy as np\n\ndef f(x, w):\n    \"\"\"Sum.\n\n    Parameters\n    ----------\n    x : ndarray\n"
            "    w : array_like\n    \"\"\"\n    w = np.asarray(w)\n    return np.cumsum(x) + np.cumsum(w)\n"),
        Valid("import numpy as np\n\ndef f(out, v, x):\n    n = np.sum(x > 0)\n    return out + [v], [0.0] * n, np.exp(x).tolist() + [v]\n"),
        Valid("import numpy as np\n\ndef f(data, x):\n    cols = ['a', 'b']\n    return data[['UTC_DATE', 'UTC_TIME']], data[cols], np.sum(x)\n"),
        Valid(  # a list of text concatenates (dynesty's progress line)
            "import numpy as np\n\ndef status(x):\n    return Args(lines=[f'{np.isfinite(x)}'])\n\n"
            "def line(n, x=-np.inf):\n    a = status(x)\n    n, lines = (n, a.lines)\n    return ' | '.join([\"iter: {:d}\".format(n)] + lines)\n"),
        Valid("import numpy as np\n\ndef f(d, x):\n    return d['n'] * [1.0, 2.0], d['xs'] + [np.sum(x)]\n"),
        Valid(  # a callable rebound in the function, or a method of the module, is not what a caller gives
            "import jax.numpy as jnp\n\nclass C:\n    def __init__(self, fun):\n        self.fun = fun\n\n"
            "    def fun2(self, x):\n        return x\n\n    def value(self, x, g):\n        g = jnp.sin\n"
            "        return jnp.sum(g(x)) + jnp.sum(self.fun2(x))\n"),
        Valid(  # what a caller's callable returns, given as a count or indices `jax.numpy` needs concrete: an int
            # there runs under `jit`, the traced `jnp.asarray(...)` of it raises `ConcretizationTypeError`
            "import numpy as np\n\ndef thin(a, pick, bins_of):\n    b = np.repeat(a, pick(a)) + np.delete(a, pick(a))\n"
            "    return np.compress(pick(a), b), np.histogram2d(a, b, bins=bins_of(a))[0]\n"),
        Valid(  # `+=` on a slice of a list parameter extends a list (a variant of scipy's `cs[:1] + [v]`): a tuple
            # default, a list method called on it
            "import numpy as np\n\ndef grow(v, cs=()):\n    arrays = cs[:1]\n    arrays += [v]\n    return len(arrays), np.sum(v)\n\n"
            "def keep(v, hist):\n    hist.append(v)\n    tail = hist[-2:]\n    tail += [v]\n    return tail, np.sum(v)\n"),
        Valid(  # a slice of a list parameter (its docstring says so, a call passes one), or of an attribute the module
            # sets to a list, joined to a list display concatenates (scipy's gcrotmk: `cs[:1] + [v]`): it stays a list
            "import numpy as np\n\nclass Pair:\n    def __init__(self, a):\n        self.ends = [a, a]\n\n"
            "    def grow(self, v, cs):\n        \"\"\"cs : list of ndarray\"\"\"\n"
            "        return cs[:1] + [v], cs[1:][:2] + [v, v], self.ends[:1] + [np.sum(v)]\n\n"
            "def lead(us, v):\n    return us[:1] + [v], np.sum(v)\n\ndef use(v):\n    return lead([v, v], v)\n"),

        Valid("import numpy as np\n\ndef f(x, w):\n    m = np.zeros(x.shape)\n    s = [slice(w[i], w[i] + 2) for i in range(2)]\n    return m[s]\n"),
        Valid("import numpy as np\ndef f(a, b):\n    return np.stack([a, b]).sum(0)\n"),
        Valid("import numpy as np\n\ndef runs(flags):\n    out = [n for n in flags if n]\n    out = np.array(out)\n"
              "    return out if len(out) > 1 else np.zeros(2)\n\ndef longest(x):\n    return np.max(runs(x > 0))\n"),
        Valid(  # `+=` extends a list, which stays a list (POT's barycenters, cvxpy constraints)
            "import numpy as np\n\ndef f(Cs, ps, xs):\n    arr = [*Cs]\n    arr += [*ps]\n    cons = list()\n"
            "    for x in xs:\n        cons += [np.sum(x) >= 0]\n    return len(arr), cons\n"),
        Valid("import numpy as np\ndef f(x):\n    return np.sum(x, axis=(0, 1)), np.zeros((2, 3))\n"),
        Valid("import numpy as np\nM = np.max([1, 2])\n"),
        Valid("import numpy as np\ndef f(x):\n    corner = (0, 1)\n    return x[(0, 1)] + x[corner]\n"),
        Valid(  # `jnp.shape`, `jnp.ndim`, `jnp.size` read a list, a tuple, a number or None as NumPy does; `jnp.asarray`
            # would raise on None (trimesh's `np.shape(cache["face_normals"])` of an empty cache)
            "import numpy as np\n\ndef f(memo, x, w):\n    kept = memo['n']\n    return np.shape(kept) == np.shape(x), "
            "np.ndim(memo.get('m')), np.size([w, 1.0]), np.iscomplexobj((w, 2))\n"),
        Valid("import numpy as np\ndef f(x):\n    return np.sum(x)[[True, False]]\n"),
        Valid(  # a helper's result is traced but may be a Python list (it is here): `+=` / `+` of a list concatenates
            # (fluids' symmetric points)
            "import numpy as np\n\ndef pts_list(n):\n    y = [0.0] * n\n    y[0] = 1.0\n    return y\n\n"
            "def pts_sym(n):\n    pts = pts_list(n)\n    pts += [-i for i in pts]\n    return pts, pts_list(n) + [0.0]\n"),
        Valid(  # a tuple joined to a shape, to a parameter or to a name bound to `np.shape` concatenates: no array
            "import numpy as np\n\ndef f(x, lead):\n    s = np.shape(x)\n    s += (1,)\n    t = np.ones(2).shape + (3,)\n"
            "    return s, lead + (2,), x.shape + (1,), t, (0,) * np.size(x)\n"),
        Valid(  # the items of a list of arrays, or a loop target bound otherwise too, are no Python lists
            "import numpy as np\n\ndef f(x, n):\n    parts = [np.ones(3) * k for k in range(n)]\n    rows = [[x, x] for _ in range(n)]\n"
            "    for r in rows:\n        r = np.stack(r)\n        x = x + np.max(r)\n    return [np.max(p) for p in parts], x\n"),
        Valid(  # a list prepended to a local list concatenates (nodepy's Pade coefficients)
            "import numpy as np\n\ndef f(k, x):\n    coeffs = [1.0]\n    for n in range(k):\n"
            "        coeffs = [np.sum(x) * n] + coeffs\n    return coeffs\n"),
    ]
    INVALID = [
        Invalid(  # a parameter read in a `try` whose handler catches `TypeError` (`Exception`, a bare `except:`, a
            # tuple holding it): a caller's list, which NumPy took, makes `jax.numpy` raise `TypeError`, and the
            # fallback would run silently (SciPy's newton_cotes: `try: ... np.diff(rn)` / `except Exception:`)
            "import jax.numpy as jnp\n\ndef spacing(x):\n    try:\n        return jnp.mean(jnp.diff(x))\n"
            "    except Exception:\n        return 1.0\n\ndef first(v):\n    try:\n        return jnp.cumsum(v)[0]\n"
            "    except (ValueError, TypeError):\n        return None\n\ndef last(w):\n    try:\n"
            "        return jnp.cumsum(w)[-1]\n    except:\n        return None\n\ndef mid(u):\n    y = u\n    try:\n"
            "        return jnp.cumsum(y)[1]\n    except Exception:\n        return None\n",
            expected="import jax.numpy as jnp\n\ndef spacing(x):\n    try:\n        return jnp.mean(jnp.diff(jnp.asarray(x)))\n"
                     "    except Exception:\n        return 1.0\n\ndef first(v):\n    try:\n"
                     "        return jnp.cumsum(jnp.asarray(v))[0]\n    except (ValueError, TypeError):\n        return None\n\n"
                     "def last(w):\n    try:\n        return jnp.cumsum(jnp.asarray(w))[-1]\n    except:\n        return None\n\n"
                     "def mid(u):\n    y = u\n    try:\n        return jnp.cumsum(jnp.asarray(y))[1]\n    except Exception:\n"
                     "        return None\n",
        ),
        Invalid(  # a parameter a caller passes the rows of a local list of tuple displays, looping over a slice of it
            # (librosa's `_crystal_tie_break(point, best, logs)`, `for point in frontier[1:]`, `best = frontier[0]`)
            "import jax.numpy as jnp\n\ndef cost(step, w):\n    return w.dot(jnp.abs(step))\n\n"
            "def cheapest(w):\n    moves = [(1, 0), (0, -1), (1, 1)]\n    out = 0.0\n    for m in moves[1:]:\n"
            "        out = out + cost(m, w)\n    return out\n",
            expected="import jax.numpy as jnp\n\ndef cost(step, w):\n    return w.dot(jnp.abs(jnp.asarray(step)))\n\n"
                     "def cheapest(w):\n    moves = [(1, 0), (0, -1), (1, 1)]\n    out = 0.0\n    for m in moves[1:]:\n"
                     "        out = out + cost(m, w)\n    return out\n",
            lines=[4],
        ),
        Invalid(  # ... and a local bound to one such row (`first = moves[0]`)
            "import jax.numpy as jnp\n\ndef cost(step, w):\n    return w.dot(jnp.abs(step))\n\n"
            "def first_cost(w):\n    moves = [(1, 0), (0, -1)]\n    first = moves[0]\n    return cost(first, w)\n",
            expected="import jax.numpy as jnp\n\ndef cost(step, w):\n    return w.dot(jnp.abs(jnp.asarray(step)))\n\n"
                     "def first_cost(w):\n    moves = [(1, 0), (0, -1)]\n    first = moves[0]\n    return cost(first, w)\n",
            lines=[4],
        ),
        Invalid(  # a list index on one path, an array on the other (PyEMD's `dim = [dim]` or `np.arange(ndim)`, then
            # `np.array(x.shape)[dim]`): `jnp.asarray` leaves the array as it is
            "import numpy as np\n\ndef sizes(a, axis=None):\n    if axis is None:\n        axes = np.arange(a.ndim)\n"
            "    else:\n        axes = [axis]\n    return np.array(a.shape)[axes]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef sizes(a, axis=None):\n    if axis is None:\n"
                     "        axes = np.arange(a.ndim)\n    else:\n        axes = [axis]\n"
                     "    return np.array(a.shape)[jnp.asarray(axes)]\n",
            lines=[8],
        ),
        Invalid(  # ... but a parameter's own value on the other path may be a tuple (one index per axis): unsafe
            "import numpy as np\n\ndef pick(a, keep, one):\n    if one:\n        keep = [keep]\n    return np.asarray(a)[keep]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef pick(a, keep, one):\n    if one:\n        keep = [keep]\n"
                     "    return np.asarray(a)[jnp.asarray(keep)]\n",
            unsafe=True,
            lines=[6],
        ),
        Invalid(  # an array subclass of the module defining `sharding` (or `format`, spectral's `ImageArray`): a
            # parameter may be one, and so is what NumPy derives from it; `jax.numpy` reads the attribute and raises
            "import numpy as np\n\nclass Tagged(np.ndarray):\n    sharding = 'rows'\n\n"
            "def peak(a, t):\n    return np.max(a[0] * 2) + np.sum(t)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Tagged(np.ndarray):\n    sharding = 'rows'\n\n"
                     "def peak(a, t):\n    return np.max(jnp.asarray(a[0] * 2)) + np.sum(jnp.asarray(t))\n",
            lines=[7],
        ),
        Invalid(  # ... a module function's result made by `.view(Cls)`, and `self.format` set in a method counts
            "import numpy as np\n\nclass Cube(np.ndarray):\n    def __array_finalize__(self, obj):\n        self.format = 'f'\n\n"
            "def cube(n):\n    return np.zeros(n).view(Cube)\n\ndef low():\n    c = cube(3)\n    return np.min(c), np.asarray(c)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Cube(np.ndarray):\n    def __array_finalize__(self, obj):\n"
                     "        self.format = 'f'\n\ndef cube(n):\n    return np.zeros(n).view(Cube)\n\ndef low():\n    c = cube(3)\n"
                     "    return np.min(jnp.asarray(c)), np.asarray(c)\n",
            lines=[12],
        ),
        Invalid(  # a tuple (a display, a shape, a name bound to one) meets an array the function makes: NumPy reads it as
            # an array, a JAX array raises `TypeError` (arch's `off += Xk.shape` in a block-diagonal builder)
            "import numpy as np\n\ndef place(parts):\n    start = np.zeros(2, dtype=int)\n    for p in parts:\n"
            "        start += p.shape\n    return start\n\ndef scale(x):\n    w = np.ones(2)\n    dims = x.shape\n"
            "    return w * (2.0, 3.0), w - dims, np.sqrt(x) / np.shape(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef place(parts):\n    start = np.zeros(2, dtype=int)\n"
                     "    for p in parts:\n        start += jnp.asarray(p.shape)\n    return start\n\ndef scale(x):\n"
                     "    w = np.ones(2)\n    dims = x.shape\n"
                     "    return w * jnp.asarray((2.0, 3.0)), w - jnp.asarray(dims), np.sqrt(x) / jnp.asarray(np.shape(x))\n",
            lines=[6, 12],
        ),
        Invalid(  # the target of a comprehension or loop over a list of Python lists is a list (scikit-rf's isotonic fit:
            # `np.min([np.max(b, axis=0) for b in blocks])`, the outer list converted, `jnp.max` of `b` raised)
            "import numpy as np\n\ndef spans(x, n):\n    groups = [[x[j] * k for k in range(3)] for j in range(n)]\n"
            "    tops = [np.max(g, axis=0) for g in groups]\n    for i, g in enumerate(groups):\n        tops.append(np.ptp(g))\n"
            "    return tops, [np.sum(r) for r in [[1.0, 2.0], [3.0]]]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef spans(x, n):\n"
                     "    groups = [[x[j] * k for k in range(3)] for j in range(n)]\n"
                     "    tops = [np.max(jnp.asarray(g), axis=0) for g in groups]\n    for i, g in enumerate(groups):\n"
                     "        tops.append(np.ptp(jnp.asarray(g)))\n    return tops, [np.sum(jnp.asarray(r)) for r in [[1.0, 2.0], [3.0]]]\n",
            lines=[5, 7, 8],
        ),
        Invalid(  # the starred items of a list of lists, each an array to `meshgrid` (pymoo's reference directions)
            "import numpy as np\n\ndef grid(n):\n    axes = [[0.0, 0.5, 1.0] for _ in range(n)]\n    return np.meshgrid(*axes)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef grid(n):\n    axes = [[0.0, 0.5, 1.0] for _ in range(n)]\n"
                     "    return np.meshgrid(*[jnp.asarray(v) for v in axes])\n",
        ),
        Invalid(  # a tuple of indices holding a `range`: converted where it is built, for the read as for the write
            # (emcee's Gaussian move)
            "import numpy as np\n\ndef pick(a, b, k):\n    n = a.shape[0]\n    rows = (range(n), np.full(n, k))\n"
            "    out = np.zeros(n)\n    out[:] = b[rows]\n    return out\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef pick(a, b, k):\n    n = a.shape[0]\n"
                     "    rows = (jnp.asarray(range(n)), np.full(n, k))\n    out = np.zeros(n)\n    out[:] = b[rows]\n    return out\n",
        ),
        Invalid(  # a parameter a call passes a list, as an index (a write target too: pymoo's crowding distance)
            "import numpy as np\n\ndef mark(d, ends):\n    d = np.array(d)\n    d[ends] = np.inf\n    return d\n\n"
            "def run(x):\n    return mark(x, [0, -1])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef mark(d, ends):\n    d = np.array(d)\n"
                     "    d[jnp.asarray(ends)] = np.inf\n    return d\n\ndef run(x):\n    return mark(x, [0, -1])\n",
        ),
        Invalid(  # ... and a tuple elsewhere: one index per axis, which `jnp.asarray` would make one index array
            "import numpy as np\n\ndef mark(d, ends):\n    d = np.array(d)\n    d[ends] = np.inf\n    return d\n\n"
            "def run(x):\n    return mark(x, [0, -1]), mark(x, (0, 1))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef mark(d, ends):\n    d = np.array(d)\n"
                     "    d[jnp.asarray(ends)] = np.inf\n    return d\n\ndef run(x):\n    return mark(x, [0, -1]), mark(x, (0, 1))\n",
            unsafe=True,
        ),
        Invalid(  # ... or a `slice` or `None` elsewhere, or `None` by default: `jnp.asarray` raises on a slice and None
            "import numpy as np\n\ndef mark(d, ends):\n    d = np.array(d)\n    d[ends] = np.inf\n    return d\n\n"
            "def run(x):\n    return mark(x, [0, -1]), mark(x, slice(1, 3)), mark(x, None)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef mark(d, ends):\n    d = np.array(d)\n"
                     "    d[jnp.asarray(ends)] = np.inf\n    return d\n\ndef run(x):\n"
                     "    return mark(x, [0, -1]), mark(x, slice(1, 3)), mark(x, None)\n",
            unsafe=True,
        ),
        Invalid(
            "import numpy as np\n\ndef mark(d, ends=None):\n    d = np.array(d)\n    d[ends] = np.inf\n    return d\n\n"
            "def run(x):\n    return mark(x, [0, -1]), mark(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef mark(d, ends=None):\n    d = np.array(d)\n"
                     "    d[jnp.asarray(ends)] = np.inf\n    return d\n\ndef run(x):\n    return mark(x, [0, -1]), mark(x)\n",
            unsafe=True,
        ),
        Invalid(  # indices grown from `enumerate`'s count, maybe none: integers (neurokit2's peak candidates)
            "import numpy as np\n\ndef pick(x, parts):\n    keep = []\n    for i, p in enumerate(parts):\n        if len(p) > 2:\n"
            "            keep.append(i)\n    return np.cumsum(x)[keep]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef pick(x, parts):\n    keep = []\n"
                     "    for i, p in enumerate(parts):\n        if len(p) > 2:\n            keep.append(i)\n"
                     "    return np.cumsum(x)[jnp.asarray(keep, dtype=int)]\n",
        ),
        Invalid(  # ... items of unknown type, maybe none: `dtype=int` would make booleans indices
            "import numpy as np\n\ndef pick(x, parts):\n    keep = []\n    for p in parts:\n        keep.append(p[0])\n"
            "    return np.cumsum(x)[keep]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef pick(x, parts):\n    keep = []\n    for p in parts:\n"
                     "        keep.append(p[0])\n    return np.cumsum(x)[jnp.asarray(keep)]\n",
            unsafe=True,
        ),
        Invalid(  # rebound in a loop: the first turn (and the end, if the loop never runs) still reads the caller's
            # value, which the docstring says may be a list; einsum's subscripts are text
            "import numpy as np\n\ndef f(x, n):\n    \"\"\"x : array_like\"\"\"\n    for _ in range(n):\n"
            "        y = np.cumsum(x)\n        x = y\n    return np.einsum('i->', x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, n):\n    \"\"\"x : array_like\"\"\"\n"
            "    for _ in range(n):\n        y = np.cumsum(jnp.asarray(x))\n        x = y\n"
            "    return np.einsum('i->', jnp.asarray(x))\n",
            lines=[6, 8],
        ),
        Invalid(  # ... but the edges of one dimension written as a list are converted, one dimension at a time
            "import jax.numpy as jnp\n\ndef density(x, y):\n    return jnp.histogram2d(x, y, (5, [0.0, 1.0, 2.0]))[0]\n",
            expected="import jax.numpy as jnp\n\ndef density(x, y):\n    return jnp.histogram2d(x, y, (5, jnp.asarray([0.0, 1.0, 2.0])))[0]\n",
            lines=[4],
        ),
        Invalid(  # an `__init__` parameter documented in its class's docstring, where numpydoc puts it (astroML's
            # `GMMBayes`: `n_components : int or list`; `jnp.atleast_1d` of a list raises `TypeError`)
            "import jax.numpy as jnp\n\nclass Model:\n    \"\"\"Parameters\n    ----------\n    n_components : int or list\n"
            "    \"\"\"\n\n    def __init__(self, n_components=1):\n        self.n_components = jnp.atleast_1d(n_components)\n",
            expected="import jax.numpy as jnp\n\nclass Model:\n    \"\"\"Parameters\n    ----------\n    n_components : int or list\n"
            "    \"\"\"\n\n    def __init__(self, n_components=1):\n        self.n_components = jnp.atleast_1d(jnp.asarray(n_components))\n",
            lines=[10],
        ),
        Invalid(  # a list-fed parameter rebound on one path only still holds the caller's list on the other (galpy)
            "import jax.numpy as jnp\n\ndef grid(x, double=False):\n    if double:\n        x = jnp.array(x) * 2\n"
            "    return jnp.atleast_1d(x)\n\nG = grid([1.0, 2.0])\n",
            expected="import jax.numpy as jnp\n\ndef grid(x, double=False):\n    if double:\n        x = jnp.array(x) * 2\n"
            "    return jnp.atleast_1d(jnp.asarray(x))\n\nG = grid([1.0, 2.0])\n",
            lines=[6],
        ),
        Invalid(  # indices gathered in a list, which may stay empty: NumPy reads `[]` as no indices, `jnp.asarray([])`
            # is a float array that `jnp.delete` rejects, so integers are asked for; `jnp.isin` rejects a list too
            # (lenstronomy's findOverlap)
            "import jax.numpy as jnp\n\ndef drop(x, y):\n    idex = []\n    for i in range(x.shape[0]):\n"
            "        idex.append(i)\n    return jnp.delete(x, idex, axis=0), jnp.delete(y, []), jnp.isin(y, [1, 2])\n",
            expected="import jax.numpy as jnp\n\ndef drop(x, y):\n    idex = []\n    for i in range(x.shape[0]):\n"
            "        idex.append(i)\n    return jnp.delete(x, jnp.asarray(idex, dtype=int), axis=0), "
            "jnp.delete(y, jnp.asarray([], dtype=int)), jnp.isin(y, jnp.asarray([1, 2]))\n",
            lines=[7, 7, 7],
        ),
        Invalid(  # ... items of unknown type (booleans would make a mask, which `dtype=int` would turn into indices)
            "import jax.numpy as jnp\n\ndef pick(x, flags):\n    keep = []\n    for f in flags:\n        keep.append(f)\n"
            "    return jnp.take(x, keep)\n",
            expected="import jax.numpy as jnp\n\ndef pick(x, flags):\n    keep = []\n    for f in flags:\n        keep.append(f)\n"
            "    return jnp.take(x, jnp.asarray(keep))\n",
            unsafe=True,
            lines=[7],
        ),
        Invalid(  # under `isinstance(m, (list, tuple, np.ndarray))` it may be a list (ahrs's EKF references)
            "import numpy as np\n\ndef f(m, x):\n    if isinstance(m, float):\n        r = np.array([m, x])\n"
            "    elif isinstance(m, (list, tuple, np.ndarray)):\n        r = np.copy(m)\n    return r / np.linalg.norm(r)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(m, x):\n    if isinstance(m, float):\n"
            "        r = np.array([m, x])\n    elif isinstance(m, (list, tuple, np.ndarray)):\n        r = np.copy(jnp.asarray(m))\n"
            "    return r / np.linalg.norm(r)\n",
            lines=[7],
        ),
        Invalid(  # a list display meets an array in a matrix product (ase's `is_minkowski_reduced`: `A @ cell`)
            "import jax.numpy as jnp\n\ndef f(cell):\n    cell = jnp.asarray(cell)\n    A = [[0, 1], [1, -1]]\n    return A @ cell\n",
            expected="import jax.numpy as jnp\n\ndef f(cell):\n    cell = jnp.asarray(cell)\n    A = [[0, 1], [1, -1]]\n"
            "    return jnp.asarray(A) @ cell\n",
            lines=[6],
        ),
        Invalid(  # ... also when the array is a parameter, which `-` cannot concatenate with a list
            "import jax.numpy as jnp\n\ndef f(x):\n    y = jnp.sum(x)\n    return x - [1.0, 2.0], y\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    y = jnp.sum(x)\n    return x - jnp.asarray([1.0, 2.0]), y\n",
            lines=[5],
        ),
        Invalid(  # a JAX array's `.dot` rejects a list as `jnp.dot` does (pygam's `np.ones((n, 1)).dot([[1, 0, 0, 1]])`)
            "import jax.numpy as jnp\n\ndef f(n):\n    m = jnp.ones((n, 1))\n    return m.dot([[1, 0, 0, 1]])\n",
            expected="import jax.numpy as jnp\n\ndef f(n):\n    m = jnp.ones((n, 1))\n    return m.dot(jnp.asarray([[1, 0, 0, 1]]))\n",
            lines=[5],
        ),
        Invalid(  # ... so do `.take`, `.searchsorted`, `.repeat`, `.compress` of an array a parameter is rebound to
            # (antropy's katz_fd: `x = np.asarray(x)`, then `x.take([0], axis=axis)`), given a display or a name bound to one
            "import jax.numpy as jnp\n\ndef f(x, cuts, axis=-1):\n    x = jnp.asarray(x)\n    cuts = jnp.sort(cuts)\n"
            "    reps = [2, 1]\n    return x - x.take([0], axis=axis), cuts.searchsorted(v=(0.5, 1.5)), "
            "cuts.repeat(reps), x.take([]), cuts.compress([True, False])\n",
            expected="import jax.numpy as jnp\n\ndef f(x, cuts, axis=-1):\n    x = jnp.asarray(x)\n    cuts = jnp.sort(cuts)\n"
            "    reps = [2, 1]\n    return x - x.take(jnp.asarray([0]), axis=axis), "
            "cuts.searchsorted(v=jnp.asarray((0.5, 1.5))), cuts.repeat(jnp.asarray(reps)), "
            "x.take(jnp.asarray([], dtype=int)), cuts.compress(jnp.asarray([True, False]))\n",
            lines=[7, 7, 7, 7, 7],
        ),
        Invalid(  # a static method called through its class with a list (ase's `Quaternion.from_axis_angle([0, 0, 1], a)`)
            "import jax.numpy as jnp\n\nclass Q:\n    @staticmethod\n    def axis(n, a):\n        return a * n / jnp.linalg.norm(n)\n\n"
            "    @staticmethod\n    def euler(a):\n        return Q.axis([0, 0, 1], a)\n",
            expected="import jax.numpy as jnp\n\nclass Q:\n    @staticmethod\n    def axis(n, a):\n"
            "        return a * n / jnp.linalg.norm(jnp.asarray(n))\n\n    @staticmethod\n    def euler(a):\n"
            "        return Q.axis([0, 0, 1], a)\n",
            lines=[6]),
        Invalid(  # the call passing a list is in a script's `__main__` block (nevergrad's examples)
            "import jax.numpy as jnp\n\ndef total(y):\n    return jnp.sum(y)\n\nif __name__ == '__main__':\n"
            "    print(total([0, 1, 2]))\n",
            expected="import jax.numpy as jnp\n\ndef total(y):\n    return jnp.sum(jnp.asarray(y))\n\n"
            "if __name__ == '__main__':\n    print(total([0, 1, 2]))\n",
            lines=[4],
        ),
        Invalid(  # ... passing a name that module-level code binds only to a list, not a function's local (pywt)
            "import jax.numpy as jnp\n\ndef norm1(x):\n    return jnp.abs(x)\n\nif __name__ == '__main__':\n"
            "    data = [1.0, -2.0]\n    print(norm1(data))\n",
            expected="import jax.numpy as jnp\n\ndef norm1(x):\n    return jnp.abs(jnp.asarray(x))\n\n"
            "if __name__ == '__main__':\n    data = [1.0, -2.0]\n    print(norm1(data))\n",
            lines=[4],
        ),
        Invalid(  # ... or what `json.loads` reads, a list for a JSON array (scikit-fuzzy's `interp_membership(x, mf,
            # json.loads("[0.5, 1.5]"))`), also under another name, through a local name of a function
            "import jax.numpy as jnp\nfrom json import loads as read\n\ndef interp(x, xp, fp):\n    return jnp.interp(x, xp, fp)\n\n"
            "def run(xp, fp, s):\n    xs = read(s)\n    return interp(xs, xp, fp)\n",
            expected="import jax.numpy as jnp\nfrom json import loads as read\n\ndef interp(x, xp, fp):\n"
            "    return jnp.interp(jnp.asarray(x), xp, fp)\n\ndef run(xp, fp, s):\n    xs = read(s)\n    return interp(xs, xp, fp)\n",
            lines=[5],
        ),
        Invalid(  # `jnp.poly` takes `seq_of_zeros`, an array (python-control's common denominators)
            "import jax.numpy as jnp\n\ndef f(z, p):\n    zs = list(z)\n    zs.append(p)\n    return jnp.poly(zs)\n",
            expected="import jax.numpy as jnp\n\ndef f(z, p):\n    zs = list(z)\n    zs.append(p)\n    return jnp.poly(jnp.asarray(zs))\n",
            lines=[6],
        ),
        Invalid(  # a ufunc method's operands (skyfield's search: `add.outer(indices, [0, 1])`)
            "import jax.numpy as jnp\n\ndef f(i):\n    return jnp.add.outer(i, [0, 1])\n",
            expected="import jax.numpy as jnp\n\ndef f(i):\n    return jnp.add.outer(i, jnp.asarray([0, 1]))\n",
            lines=[4],
        ),
        Invalid(
            "import numpy as np\n\ndef f(a, b, c):\n    return np.max([a, b, c])  # peak\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(a, b, c):\n    return np.max(jnp.asarray([a, b, c]))  # peak\n",
        ),
        Invalid(
            "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.maximum(x, (0.0, 1.0))\n",
            expected="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.maximum(x, jnp.asarray((0.0, 1.0)))\n",
        ),
        Invalid(  # a parameter rebound to a list (astropy's fitters: `tied = list(tied)`)
            "import numpy as np\n\ndef f(fixed, tied):\n    tied = list(tied)\n    return np.logical_or(fixed, tied)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(fixed, tied):\n    tied = list(tied)\n"
                     "    return np.logical_or(fixed, jnp.asarray(tied))\n",
        ),
        Invalid(  # the counters a comprehension keeps may be none: `jnp.asarray([])` is float (bayes_opt's one-hot)
            "import numpy as np\n\ndef f(x, c, v):\n    hit = [i for i, u in enumerate(c) if u == v]\n    return np.exp(x)[hit]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, c, v):\n    hit = [i for i, u in enumerate(c) if u == v]\n"
                     "    return np.exp(x)[jnp.asarray(hit, dtype=int)]\n",
        ),
        Invalid(
            "import numpy as np\n\ndef f(x):\n    ends = [0, -1]\n    return np.exp(x)[ends] - x[[1, 2]]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    ends = [0, -1]\n"
                     "    return np.exp(x)[jnp.asarray(ends)] - x[jnp.asarray([1, 2])]\n",
        ),
        Invalid(
            "import numpy as np\n\ndef f(x, n):\n    return x[range(1, n, 2), range(0, n - 1, 2)]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, n):\n"
                     "    return x[jnp.asarray(range(1, n, 2)), jnp.asarray(range(0, n - 1, 2))]\n",
        ),
        Invalid(  # a `range(...)` given as it is, alone in the module (ent's `np.prod(range(2, 2 * m))`: `jnp.prod`
            # rejects a range), nested in another call and as a keyword argument
            "import numpy as np\n\ndef spread(k, n):\n    return np.sqrt(k * np.prod(range(1, k))), np.sum(a=range(n))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef spread(k, n):\n"
                     "    return np.sqrt(k * np.prod(jnp.asarray(range(1, k)))), np.sum(a=jnp.asarray(range(n)))\n",
        ),
        Invalid(
            "import numpy as np\n\ndef f(m, rest, dx, n):\n    return np.concatenate([[m], rest]) * np.prod((dx,) * n)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(m, rest, dx, n):\n    return np.concatenate([jnp.asarray([m]), rest]) * np.prod(jnp.asarray((dx,) * n))\n",
        ),
        Invalid(  # a shape is a Python tuple, which `jnp.insert`/`jnp.append` reject (pyfar's broadcast_cdims:
            # `np.insert(np.broadcast_shapes(...), caxis, n)`); given only static values the call stays NumPy (JX501)
            "import numpy as np\n\ndef grow(a, b, axis, n):\n    common = np.broadcast_shapes(a.shape, b.shape)\n"
            "    return np.insert(common, axis, n), np.append(a.shape[1:], n), np.sum(a)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef grow(a, b, axis, n):\n"
                     "    common = np.broadcast_shapes(a.shape, b.shape)\n"
                     "    return np.insert(jnp.asarray(common), axis, n), np.append(jnp.asarray(a.shape[1:]), n), np.sum(a)\n",
        ),
        Invalid(  # a shape among the arrays a stacking function joins, as it is, sliced or named (`jnp.hstack`
            # rejects the tuple); a join of static values only, or one giving a shape, stays NumPy (JX501)
            "import numpy as np\n\ndef lead(w, a):\n    head = a.shape[:1]\n"
            "    return np.concatenate([head, w]), np.hstack((a.shape, np.sum(w))), np.vstack([a.shape[-2:], w[:2]]), "
            "np.hstack([a.shape, [1]]), a.reshape(np.concatenate([head, [-1]]))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef lead(w, a):\n    head = a.shape[:1]\n"
                     "    return np.concatenate([jnp.asarray(head), w]), np.hstack((jnp.asarray(a.shape), np.sum(w))), "
                     "np.vstack([jnp.asarray(a.shape[-2:]), w[:2]]), np.hstack([a.shape, [1]]), "
                     "a.reshape(np.concatenate([head, [-1]]))\n",
            lines=[5],
        ),
        Invalid(  # NumPy 2's `concat` joins as `concatenate` does (pyfar's zpk packing: `jnp.concat` raised on `[k0]`)
            "import numpy as np\n\ndef pack(zeros, poles, gain):\n    zeros = np.asarray(zeros)\n"
            "    return np.concat([zeros, poles, [gain]]), np.concat((zeros, (gain, gain)), axis=0)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef pack(zeros, poles, gain):\n    zeros = np.asarray(zeros)\n"
                     "    return np.concat([zeros, poles, jnp.asarray([gain])]), "
                     "np.concat((zeros, jnp.asarray((gain, gain))), axis=0)\n",
        ),
        Invalid(  # a call of the module passing a list joined to an attribute (scipy's `_notclose(self.fab + [fd, fe])`)
            "import numpy as np\n\ndef finite(vals):\n    return np.isfinite(vals)\n\nclass Bracket:\n"
            "    def __init__(self, a):\n        self.ends = [a, a]\n\n    def check(self, c):\n"
            "        return finite(self.ends + [c])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef finite(vals):\n    return np.isfinite(jnp.asarray(vals))\n\n"
                     "class Bracket:\n    def __init__(self, a):\n        self.ends = [a, a]\n\n    def check(self, c):\n"
                     "        return finite(self.ends + [c])\n",
        ),
        Invalid(  # a method of the module called through another object, given a list (scipy's dual annealing:
            # `self.energy_state.update_current(e, x)`, then `np.copy(x)`)
            "import numpy as np\n\nclass State:\n    def place(self, e, x):\n        self.loc = np.copy(x)\n\n"
            "class Walker:\n    def __init__(self):\n        self.state = State()\n\n    def reset(self, e):\n"
            "        self.state.place(e, [0.0])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass State:\n    def place(self, e, x):\n"
                     "        self.loc = np.copy(jnp.asarray(x))\n\nclass Walker:\n    def __init__(self):\n"
                     "        self.state = State()\n\n    def reset(self, e):\n        self.state.place(e, [0.0])\n",
        ),
        Invalid(  # what a callable a caller gives returns may be a list (scipy's `np.atleast_1d(constraint_fun(x))`):
            # a parameter of the function or of an enclosing one, or an attribute a method stores one into
            "import numpy as np\n\ndef wrap(con):\n    def f(x):\n        return np.atleast_1d(con(x))\n    return f\n\n"
            "class Limit:\n    def __init__(self, fun):\n        self.fun = fun\n\n    def value(self, x, g):\n"
            "        return np.abs(self.fun(x)) + np.sum(g(x))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef wrap(con):\n    def f(x):\n"
                     "        return np.atleast_1d(jnp.asarray(con(x)))\n    return f\n\n"
                     "class Limit:\n    def __init__(self, fun):\n        self.fun = fun\n\n    def value(self, x, g):\n"
                     "        return np.abs(jnp.asarray(self.fun(x))) + np.sum(jnp.asarray(g(x)))\n",
        ),
        Invalid(  # a slice of a parameter nothing says is a list is an array's, which adds a list display (`+`,
            # `+=`) elementwise: a caller's NumPy array made a JAX array raises on the list
            "import numpy as np\n\ndef shift(cs, v):\n    head = cs[:1] + [v]\n    tail = cs[1:][::2]\n    tail += [v, v]\n"
            "    return head, tail, np.sum(v)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef shift(cs, v):\n    head = cs[:1] + jnp.asarray([v])\n"
                     "    tail = cs[1:][::2]\n    tail += jnp.asarray([v, v])\n    return head, tail, np.sum(v)\n",
        ),
        Invalid(  # a name joined to a display times a float repeats no list: only the display is converted
            "import numpy as np\n\ndef f(x, v):\n    y = np.exp(x) + [v, v]\n    return np.sum(y * 2.0), np.sum(-0.5 * y)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, v):\n    y = np.exp(x) + jnp.asarray([v, v])\n"
                     "    return np.sum(y * 2.0), np.sum(-0.5 * y)\n",
        ),
        Invalid(  # a join of names bound only to lists or tuples is one too (ent's `np.unique(h + v, axis=0)`)
            "import numpy as np\n\ndef rows(p, q, n):\n    h = [list(p)]\n    v = [list(q)]\n    lead = (n,)\n"
            "    return np.unique(h + v, axis=0), np.prod(lead * 2)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef rows(p, q, n):\n    h = [list(p)]\n    v = [list(q)]\n"
                     "    lead = (n,)\n    return np.unique(jnp.asarray(h + v), axis=0), np.prod(jnp.asarray(lead * 2))\n",
        ),
        Invalid(  # a comprehension of list or tuple displays as the arrays joined (ordpy's transition pairs): each
            # item is converted, the comprehension stays a list of arrays
            "import numpy as np\n\ndef pairs(rows, k):\n    a = np.concatenate([[r[i:i + 2]] for r in rows for i in range(k)])\n"
            "    return a, np.vstack([(r[0], r[-1]) if k else [r[0]] * 2 for r in rows])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef pairs(rows, k):\n"
                     "    a = np.concatenate([jnp.asarray([r[i:i + 2]]) for r in rows for i in range(k)])\n"
                     "    return a, np.vstack([jnp.asarray((r[0], r[-1]) if k else [r[0]] * 2) for r in rows])\n",
        ),
        Invalid(  # a list comprehension among the joined arrays (cma's moving_average)
            "import numpy as np\n\ndef f(x, w):\n    return np.hstack([[np.mean(x[:i]) for i in range(1, w)], x[w:]])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, w):\n"
                     "    return np.hstack([jnp.asarray([np.mean(x[:i]) for i in range(1, w)]), x[w:]])\n",
        ),
        Invalid(  # a list operand of an array: NumPy reads it as an array, a JAX array raises (trimesh)
            "import numpy as np\n\ndef f(v, x, n):\n    return np.fliplr(v) * [-1.0, 1.0], [[0.0, 1.0]] - np.sum(x), (x + range(n)) / n\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(v, x, n):\n"
                     "    return np.fliplr(v) * jnp.asarray([-1.0, 1.0]), jnp.asarray([[0.0, 1.0]]) - np.sum(x), (x + jnp.asarray(range(n))) / n\n",
        ),
        Invalid(  # a mapping's entry read with `.get`, through a local name (pyclustering's Gower metric)
            "import numpy as np\n\ndef f(args):\n    data = args.get('data', None)\n    return np.max(data, axis=0)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(args):\n    data = args.get('data', None)\n"
                     "    return np.max(jnp.asarray(data), axis=0)\n",
        ),
        Invalid(  # a list comprehension in one branch, an array in the other (pyclustering's k-means)
            "import numpy as np\n\ndef f(metric, a, b):\n    if metric is None:\n        d = np.sum(a - b, axis=1)\n"
            "    else:\n        d = [metric(x, y) for x, y in zip(a, b)]\n    return np.max(d)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(metric, a, b):\n    if metric is None:\n"
                     "        d = np.sum(a - b, axis=1)\n    else:\n        d = [metric(x, y) for x, y in zip(a, b)]\n"
                     "    return np.max(jnp.asarray(d))\n",
        ),
        Invalid(  # a parameter set to a list display when None, meeting an array (nolds' `mfhurst_b` q values)
            "import numpy as np\n\ndef f(p, q=None):\n    if q is None:\n        q = [1]\n    return np.array(p)[:, 0] / q\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(p, q=None):\n    if q is None:\n        q = [1]\n"
                     "    return np.array(p)[:, 0] / jnp.asarray(q)\n",
        ),
        Invalid(  # a range, given or bound to a name: NumPy reads it as an array (imblearn's over-sampling indices)
            "import numpy as np\n\ndef f(n, extra):\n    idx = range(n)\n    return np.append(idx, extra), np.sum(range(n))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(n, extra):\n    idx = range(n)\n"
                     "    return np.append(jnp.asarray(idx), extra), np.sum(jnp.asarray(range(n)))\n",
        ),
        Invalid(  # a local name bound only to a list display, as an operand of an array (nolds' and SALib's weights)
            "import numpy as np\n\ndef f(x, q):\n    w = [1.0, 2.0]\n    qs = [0.5, q]\n    return w / np.sum(x), np.mean(x) - qs, qs * 2\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, q):\n    w = [1.0, 2.0]\n    qs = [0.5, q]\n"
                     "    return jnp.asarray(w) / np.sum(x), np.mean(x) - jnp.asarray(qs), qs * 2\n",
        ),
        Invalid(  # an item unpacked from a call giving a tuple of arrays is an array, whatever tracedness knows of what
            # the call is given (pymcmcstat's principal components: a property of `self._cov`)
            "import numpy as np\n\nclass Model:\n    @property\n    def modes(self):\n"
            "        lam, vec = np.linalg.eigh(self.sigma)\n        order = list(reversed(np.argsort(lam)))\n"
            "        vals, counts = np.unique(self.labels, return_counts=True)\n        picks = [0, 2]\n"
            "        return lam[order], vec[:, order], counts[picks]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Model:\n    @property\n    def modes(self):\n"
                     "        lam, vec = np.linalg.eigh(self.sigma)\n        order = list(reversed(np.argsort(lam)))\n"
                     "        vals, counts = np.unique(self.labels, return_counts=True)\n        picks = [0, 2]\n"
                     "        return lam[jnp.asarray(order)], vec[:, order], counts[jnp.asarray(picks)]\n",
        ),
        Invalid(  # `p` must stay static for `linspace` (JX510), but its rebinding makes it an array (trimesh's curves)
            "import numpy as np\n\ndef f(p, count=None):\n    p = np.asarray(p)\n    if count is None:\n"
            "        count = int(np.abs(p).sum())\n    return p[[0, -1]], np.linspace(0.0, 1.0, count)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(p, count=None):\n    p = np.asarray(p)\n    if count is None:\n"
                     "        count = int(np.abs(p).sum())\n    return p[jnp.asarray([0, -1])], np.linspace(0.0, 1.0, count)\n",
        ),
        Invalid(  # an augmented update with a list, and a list grown by `.append` among the stacked arrays
            "import numpy as np\n\ndef f(a, n):\n    g = np.zeros((n, 3)).reshape((-1, 3))\n    g += [1.0, 2.0, 3.0]\n"
            "    rows = []\n    rows.append(a[0])\n    return np.vstack((g, rows))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(a, n):\n    g = np.zeros((n, 3)).reshape((-1, 3))\n"
                     "    g += jnp.asarray([1.0, 2.0, 3.0])\n    rows = []\n    rows.append(a[0])\n    return np.vstack((g, jnp.asarray(rows)))\n",
        ),
        Invalid(  # an array an index trick makes (`np.r_[...]`), indexed by a range among other indices (scikit-fuzzy's
            # rule table: `rules[range(2), :]`)
            "import numpy as np\n\ndef pick(mu):\n    rules = np.r_[[[1, 3], [0, 2]]]\n    return mu[:, rules[range(2), :]]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef pick(mu):\n    rules = np.r_[[[1, 3], [0, 2]]]\n"
                     "    return mu[:, rules[jnp.asarray(range(2)), :]]\n",
        ),
        Invalid(
            "import numpy as np\n\ndef f(w, n):\n    di = range(n)\n    return w[di, di]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(w, n):\n    di = range(n)\n    return w[jnp.asarray(di), jnp.asarray(di)]\n",
        ),
        Invalid(  # a list joined to another, and a slice of a list used as an index (quantecon's cartesian, LSS)
            "import numpy as np\n\ndef f(x, nodes, k):\n    idx = list(range(k + 1))\n    shapes = [len(e) for e in nodes]\n"
            "    return np.cumprod([1] + shapes[:-1]), np.exp(x)[idx[:k]]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, nodes, k):\n    idx = list(range(k + 1))\n"
                     "    shapes = [len(e) for e in nodes]\n"
                     "    return np.cumprod(jnp.asarray([1] + shapes[:-1])), np.exp(x)[jnp.asarray(idx[:k])]\n",
        ),
        Invalid(  # an array compared with an `itertools` tuple: NumPy reads the tuple as an array (mlxtend's Cochran's Q)
            "import itertools\nimport numpy as np\n\ndef f(x, k):\n    ary = np.abs(x)\n"
            "    return [np.sum(ary == c) for c in itertools.product((0, 1), repeat=k)]\n",
            expected="import itertools\nimport jax.numpy as jnp\nimport numpy as np\n\ndef f(x, k):\n    ary = np.abs(x)\n"
                     "    return [np.sum(ary == jnp.asarray(c)) for c in itertools.product((0, 1), repeat=k)]\n",
        ),
        Invalid(  # an item of `zip` given as an array, and a local list compared with an array: NumPy reads the tuple
            # and the list as arrays (neurokit2's peak distances, `SDs >= t * np.max(SDs)` of its ICA filter)
            "import numpy as np\n\ndef pairs(a, b):\n    return [np.nanmax(p) for p in zip(np.abs(a), b)]\n\n"
            "def keep(rows, frac):\n    norms = [np.linalg.norm(r) for r in rows]\n"
            "    return np.flatnonzero(norms > frac * np.max(norms))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef pairs(a, b):\n"
                     "    return [np.nanmax(jnp.asarray(p)) for p in zip(np.abs(a), b)]\n\n"
                     "def keep(rows, frac):\n    norms = [np.linalg.norm(r) for r in rows]\n"
                     "    return np.flatnonzero(jnp.asarray(norms) > frac * np.max(jnp.asarray(norms)))\n",
            lines=[4, 8, 8],
        ),
        Invalid(  # an array compared with a list or tuple display: NumPy compares elementwise, a JAX array raises
            # `TypeError` (trimesh's `jax_array == list`)
            "import numpy as np\n\ndef f(x):\n    y = np.cos(x)\n    return np.all(y == [1.0, 0.0]), y < (0.5, 0.25)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    y = np.cos(x)\n"
                     "    return np.all(y == jnp.asarray([1.0, 0.0])), y < jnp.asarray((0.5, 0.25))\n",
        ),
        Invalid(  # a parameter whose default is a tuple, in an operation with an array; its items (numbers) are not
            # wrapped
            "import numpy as np\n\ndef f(x, lim=(0.0, 1.0)):\n    y = np.abs(x)\n    lo, hi = lim\n"
            "    return np.clip(y, lo, hi) * lim\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, lim=(0.0, 1.0)):\n    y = np.abs(x)\n"
                     "    lo, hi = lim\n    return np.clip(y, lo, hi) * jnp.asarray(lim)\n",
        ),
        Invalid(  # rows appended as lists: NumPy converts each, `jnp.vstack` rejects lists (pyDOE3's gsd)
            "import numpy as np\n\ndef f(x):\n    rows = []\n    for v in x:\n        rows.append([v, 2.0 * v])\n"
            "    return np.vstack(rows)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x):\n    rows = []\n    for v in x:\n"
                     "        rows.append([v, 2.0 * v])\n    return np.vstack([jnp.asarray(row) for row in rows])\n",
        ),
        Invalid(  # ... or as repeated list displays (SciPy's `_untabulate`: `x.append([i] * table[i, j])`)
            # (bound by unpacking a display: `x, y = [], []`)
            "import numpy as np\n\ndef f(k):\n    x, y = [], 0\n    for i in range(3):\n        x.append([i] * k)\n"
            "    return np.concatenate(x)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(k):\n    x, y = [], 0\n    for i in range(3):\n"
                     "        x.append([i] * k)\n    return np.concatenate([jnp.asarray(row) for row in x])\n",
        ),
        Invalid(  # an empty list on the first turn, the joined array after: `jnp.hstack` rejects the list (sk_dsp_comm's
            # FECConv)
            "import numpy as np\n\ndef f(bits):\n    out = []\n    for b in bits:\n        out = np.hstack((out, [b, 1 - b]))\n"
            "    return out\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(bits):\n    out = []\n    for b in bits:\n"
                     "        out = np.hstack((jnp.asarray(out), jnp.asarray([b, 1 - b])))\n    return out\n",
        ),
        Invalid(  # an entry of a settings dict, often a list (numpy-ml's `env_stats["n_actions_per_dim"]`)
            "import numpy as np\n\ndef f(E, x):\n    return np.prod(E[\"dims\"]) * x\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(E, x):\n    return np.prod(jnp.asarray(E[\"dims\"])) * x\n",
        ),
        Invalid(  # a parameter documented as array-like: NumPy takes a list there, `jnp.cumsum` raises (hmmlearn)
            "import numpy as np\n\ndef split(X, lengths):\n    \"\"\"Split.\n\n    Parameters\n    ----------\n"
            "    X : ndarray\n    lengths : array-like of integers\n    \"\"\"\n    return np.split(X, np.cumsum(lengths))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef split(X, lengths):\n    \"\"\"Split.\n\n"
                     "    Parameters\n    ----------\n    X : ndarray\n    lengths : array-like of integers\n    \"\"\"\n"
                     "    return np.split(X, np.cumsum(jnp.asarray(lengths)))\n",
        ),
        Invalid(  # documented array_like, rebound only by the statement that reads it (numpy-financial's ipmt)
            "import numpy as np\n\ndef ipmt(rate, per):\n    \"\"\"rate : scalar or array_like of shape(M, )\n"
            "    per : array_like\n    \"\"\"\n    rate, per = np.broadcast_arrays(rate, per)\n    return rate * per\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef ipmt(rate, per):\n    \"\"\"rate : scalar or "
                     "array_like of shape(M, )\n    per : array_like\n    \"\"\"\n"
                     "    rate, per = np.broadcast_arrays(jnp.asarray(rate), jnp.asarray(per))\n    return rate * per\n",
        ),
        Invalid(  # rebound on the other branch only: here `r` is still the caller's (SciPy's toeplitz)
            "import numpy as np\n\ndef toeplitz(c, r=None):\n    \"\"\"r : array_like, optional\"\"\"\n"
            "    if r is None:\n        r = c\n    else:\n        r = np.atleast_1d(r)\n    return r\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef toeplitz(c, r=None):\n    \"\"\"r : array_like, "
                     "optional\"\"\"\n    if r is None:\n        r = c\n    else:\n        r = np.atleast_1d(jnp.asarray(r))\n"
                     "    return r\n",
        ),
        Invalid(  # `jnp.meshgrid`, `jnp.ix_` and `jnp.einsum` operands reject lists too; not a call JX501 keeps NumPy
            # (`np.ix_([0, 1], [1])`, given only Python values; `np.take(p, idx)` whose elements are hashed: ruptures'
            # Window), which takes the lists as they are
            "import numpy as np\n\ndef grid(n):\n    xs = [0.0, 1.0]\n    X, Y = np.meshgrid(xs, np.arange(n))\n"
            "    return np.einsum('ij,ij->', X, Y), np.ix_([0, 1], [1])\n\n"
            "def picked(positions):\n    idx = [1, 2]\n    return set(list(np.take(positions, idx)))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef grid(n):\n    xs = [0.0, 1.0]\n"
                     "    X, Y = np.meshgrid(jnp.asarray(xs), np.arange(n))\n"
                     "    return np.einsum('ij,ij->', X, Y), np.ix_([0, 1], [1])\n\n"
                     "def picked(positions):\n    idx = [1, 2]\n    return set(list(np.take(positions, idx)))\n",
        ),
        Invalid(  # a parameter given as it is to NumPy's `atleast_Nd`, the function's own conversion of its input,
            # which takes a list (`jnp.atleast_1d` raises on one: pyfar's sph2cart, given lists by its users); not
            # one a type test says is an array, nor a rebound one
            "import numpy as np\n\ndef to_xy(angle, radius, coeffs, w):\n    angle = np.atleast_1d(angle)\n"
            "    r = np.atleast_2d(radius)\n    if isinstance(coeffs, np.ndarray):\n        coeffs = np.atleast_2d(coeffs)\n"
            "    w = np.asarray(w)\n    return r * np.cos(angle), coeffs, np.atleast_1d(w)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef to_xy(angle, radius, coeffs, w):\n"
                     "    angle = np.atleast_1d(jnp.asarray(angle))\n    r = np.atleast_2d(jnp.asarray(radius))\n"
                     "    if isinstance(coeffs, np.ndarray):\n        coeffs = np.atleast_2d(coeffs)\n"
                     "    w = np.asarray(w)\n    return r * np.cos(angle), coeffs, np.atleast_1d(w)\n",
        ),
        Invalid(  # a `*arys` parameter takes arrays too: `jnp.atleast_2d(list)` raises (hmmlearn's `sample`)
            "import numpy as np\n\ndef sample(draw, n):\n    X = [draw(0)]\n    for t in range(1, n):\n"
            "        X.append(draw(t))\n    return np.atleast_2d(X)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef sample(draw, n):\n    X = [draw(0)]\n"
                     "    for t in range(1, n):\n        X.append(draw(t))\n    return np.atleast_2d(jnp.asarray(X))\n",
        ),
        Invalid(  # lists and tuples bound by unpacking (SciPy's _process_deriv_spec: jnp.atleast_1d raised)
            "import numpy as np\n\ndef f(deriv):\n    if deriv is not None:\n        ords, vals = zip(*deriv)\n"
            "    else:\n        ords, vals = [], []\n    return np.atleast_1d(ords, vals)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(deriv):\n    if deriv is not None:\n"
                     "        ords, vals = zip(*deriv)\n    else:\n        ords, vals = [], []\n"
                     "    return np.atleast_1d(jnp.asarray(ords), jnp.asarray(vals))\n",
        ),
        Invalid(  # the joined list bound to a name first (quantecon's cartesian, Fortran order)
            "import numpy as np\n\ndef f(nodes):\n    shapes = [len(e) for e in nodes]\n    sh = [1] + shapes[:-1]\n"
            "    return np.cumprod(sh)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(nodes):\n    shapes = [len(e) for e in nodes]\n"
                     "    sh = [1] + shapes[:-1]\n    return np.cumprod(jnp.asarray(sh))\n",
        ),
        Invalid(  # ... and rebound to the call's result: the join is the definition reaching it (GPy's get_slices)
            "import numpy as np\n\ndef offsets(arrays):\n    s = [0] + [a.shape[0] for a in arrays]\n    s = np.cumsum(s)\n"
            "    return s\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef offsets(arrays):\n    s = [0] + [a.shape[0] for a in arrays]\n"
                     "    s = np.cumsum(jnp.asarray(s))\n    return s\n",
            lines=[5],
        ),
        Invalid(  # an attribute the module only ever sets to a tuple (pylops' `dims`): `jnp.prod(tuple)` raises
            "import jax.numpy as jnp\n\nclass Op:\n    def __init__(self, dims):\n        self.dims = tuple(dims)\n\n"
            "    def size(self):\n        return jnp.prod(self.dims)\n",
            expected="import jax.numpy as jnp\n\nclass Op:\n    def __init__(self, dims):\n        self.dims = tuple(dims)\n\n"
                     "    def size(self):\n        return jnp.prod(jnp.asarray(self.dims))\n",
            lines=[8],
        ),
        Invalid(  # ... read off another object of the module's class, in a function (skfda's `basis.knots`), and off
            # an attribute of `self` (`self.grid.points`); not `np.pi`-like reads of a module
            "import jax.numpy as jnp\n\nclass Grid:\n    def __init__(self, points):\n        self.points = list(points)\n\n"
            "def spacing(grid, scale):\n    return jnp.diff(grid.points) * scale\n\n"
            "class Model:\n    def span(self):\n        return jnp.ptp(self.grid.points)\n",
            expected="import jax.numpy as jnp\n\nclass Grid:\n    def __init__(self, points):\n        self.points = list(points)\n\n"
                     "def spacing(grid, scale):\n    return jnp.diff(jnp.asarray(grid.points)) * scale\n\n"
                     "class Model:\n    def span(self):\n        return jnp.ptp(jnp.asarray(self.grid.points))\n",
            lines=[8, 12],
        ),
        Invalid(  # an item of `enumerate` over `itertools` tuples (skfda's tensor basis: `jnp.prod(ev, axis=0)`)
            "import itertools\nimport jax.numpy as jnp\n\ndef tensor(evals):\n"
            "    return [(i, jnp.prod(ev, axis=0)) for i, ev in enumerate(itertools.product(*evals))]\n",
            expected="import itertools\nimport jax.numpy as jnp\n\ndef tensor(evals):\n"
                     "    return [(i, jnp.prod(jnp.asarray(ev), axis=0)) for i, ev in enumerate(itertools.product(*evals))]\n",
            lines=[5],
        ),
        Invalid(  # an item of a sorted set of tuples, or of a local bound to a list of them, as a mask (chaospy's
            # reflection sampler: `jnp.where(idx, ...)` raises on a tuple, NumPy reads it as a boolean array)
            "import jax.numpy as jnp\n\ndef flips(x, signs):\n    masks = sorted({tuple(signs > k) for k in range(3)})\n"
            "    pairs = [(s, s) for s in signs]\n    out = [jnp.where(m, -x, x) for m in masks]\n"
            "    return out, [jnp.sum(p) for p in pairs]\n",
            expected="import jax.numpy as jnp\n\ndef flips(x, signs):\n    masks = sorted({tuple(signs > k) for k in range(3)})\n"
                     "    pairs = [(s, s) for s in signs]\n    out = [jnp.where(jnp.asarray(m), -x, x) for m in masks]\n"
                     "    return out, [jnp.sum(jnp.asarray(p)) for p in pairs]\n",
            lines=[6, 7],
        ),
        Invalid(  # an item taken by index of a collection of tuples, named or inline (chaospy-like: `jnp.where` of
            # a tuple raises)
            "import jax.numpy as jnp\n\ndef pick(x, rows):\n    masks = sorted({tuple(r > 0) for r in rows})\n"
            "    first = masks[0]\n    return jnp.where(first, x, 0.0), jnp.where(masks[1], x, -x)\n",
            expected="import jax.numpy as jnp\n\ndef pick(x, rows):\n    masks = sorted({tuple(r > 0) for r in rows})\n"
                     "    first = masks[0]\n"
                     "    return jnp.where(jnp.asarray(first), x, 0.0), jnp.where(jnp.asarray(masks[1]), x, -x)\n",
            lines=[6],
        ),
        Invalid(  # the same item of a comprehension indexed where it is made (alone in its module: the precheck
            # counts the name bound to it)
            "import numpy as np\n\ndef last_sum(rows):\n    last = [tuple(r) for r in rows][-1]\n    return np.sum(last)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef last_sum(rows):\n"
                     "    last = [tuple(r) for r in rows][-1]\n    return np.sum(jnp.asarray(last))\n",
        ),
        Invalid(  # `np.where(m)` is a tuple, given as `take`'s indices (kmodes' dissimilarity)
            "import jax.numpy as jnp\n\ndef f(X, m):\n    ids = jnp.where(m == 1)\n    return jnp.take(X, ids, axis=0)\n",
            expected="import jax.numpy as jnp\n\ndef f(X, m):\n    ids = jnp.where(m == 1)\n"
                     "    return jnp.take(X, jnp.asarray(ids), axis=0)\n",
            lines=[5],
        ),
        Invalid(  # rows made tuples, stacked (kmodes' unique rows)
            "import jax.numpy as jnp\n\ndef f(a):\n    return jnp.vstack(list({tuple(row) for row in a}))\n",
            expected="import jax.numpy as jnp\n\ndef f(a):\n    return jnp.vstack([jnp.asarray(r) for r in list({tuple(row) for row in a})])\n",
            lines=[4],
        ),
        Invalid(  # what a function of the module always returns as a tuple (scikit-spatial's `Triangle.perimeter`)
            "import jax.numpy as jnp\n\ndef sides(a, b):\n    if a is None:\n        return ()\n    return tuple(abs(p - b) for p in a)\n\n"
            "def perimeter(a, b):\n    return jnp.sum(sides(a, b))\n",
            expected="import jax.numpy as jnp\n\ndef sides(a, b):\n    if a is None:\n        return ()\n"
                     "    return tuple(abs(p - b) for p in a)\n\ndef perimeter(a, b):\n    return jnp.sum(jnp.asarray(sides(a, b)))\n",
            lines=[9],
        ),
        Invalid(  # a parameter converted under `if not isinstance(x, np.ndarray):` is an array past it: not wrapped
            # again (tsfresh's feature calculators); the list display is
            "import numpy as np\n\ndef f(x, a, b):\n    if not isinstance(x, np.ndarray):\n        x = np.asarray(x)\n"
            "    return np.std(x) * np.max([a, b])\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, a, b):\n    if not isinstance(x, np.ndarray):\n"
                     "        x = np.asarray(x)\n    return np.std(x) * np.max(jnp.asarray([a, b]))\n",
            lines=[6],
        ),
        Invalid(  # ... unless another binding reaches the read: a loop over lists after the guard (its list, or
            # the array when the loop runs no time), or `sorted(...)` (the code review's `for x in [[1.0, 2.0]]`)
            "import numpy as np\n\ndef spread(v, a):\n    if not isinstance(v, np.ndarray):\n        v = np.asarray(v)\n"
            "    for v in [[a, 2.0 * a]]:\n        pass\n    return np.var(v)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef spread(v, a):\n    if not isinstance(v, np.ndarray):\n"
                     "        v = np.asarray(v)\n    for v in [[a, 2.0 * a]]:\n        pass\n    return np.var(jnp.asarray(v))\n",
            lines=[8],
        ),
        Invalid(  # ... or a conditional expression one of whose branches is a list (`.tolist()`)
            "import numpy as np\n\ndef spread(v, a):\n    if not isinstance(v, np.ndarray):\n        v = np.asarray(v)\n"
            "    v = v.tolist() if a else v\n    return np.var(v)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef spread(v, a):\n    if not isinstance(v, np.ndarray):\n"
                     "        v = np.asarray(v)\n    v = v.tolist() if a else v\n    return np.var(jnp.asarray(v))\n",
            lines=[7],
        ),
        Invalid(
            "import numpy as np\n\ndef middle(v):\n    if not isinstance(v, np.ndarray):\n        v = np.asarray(v)\n"
            "    v = sorted(v)\n    return np.median(v)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef middle(v):\n    if not isinstance(v, np.ndarray):\n"
                     "        v = np.asarray(v)\n    v = sorted(v)\n    return np.median(jnp.asarray(v))\n",
            lines=[7],
        ),
        Invalid(  # ... through a local name bound only to lists, or a conditional expression of them (tsfresh's
            # `_get_length_sequences_where`, given to `np.max`)
            "import numpy as np\n\ndef runs(flags):\n    out = [n for n in flags if n]\n    out += [0]\n"
            "    return out if len(out) > 1 else [0, 0]\n\ndef longest(x):\n    return np.max(runs(x > 0))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef runs(flags):\n    out = [n for n in flags if n]\n"
                     "    out += [0]\n    return out if len(out) > 1 else [0, 0]\n\ndef longest(x):\n"
                     "    return np.max(jnp.asarray(runs(x > 0)))\n",
            lines=[9],
        ),
        Invalid(  # ... bound to a name first (GPy's block matrices: `shapes = sizes(blocks)`)
            "import jax.numpy as jnp\n\ndef sizes(blocks):\n    return [b.shape[0] for b in blocks]\n\n"
            "def total(blocks):\n    shapes = sizes(blocks)\n    return jnp.sum(shapes)\n",
            expected="import jax.numpy as jnp\n\ndef sizes(blocks):\n    return [b.shape[0] for b in blocks]\n\n"
                     "def total(blocks):\n    shapes = sizes(blocks)\n    return jnp.sum(jnp.asarray(shapes))\n",
            lines=[8],
        ),
        Invalid(  # ... or a list joined to another, or repeated (mne's `list(range(n, n + 3)) + extra`, given to
            # `np.setdiff1d` through a local name)
            "import jax.numpy as jnp\n\ndef picks(k, more):\n    return sorted(range(k)) + more\n\n"
            "def pads(k):\n    pad = [0.0] * k\n    return 2 * pad\n\n"
            "def rest(k, m):\n    drop = picks(k, [m])\n    return jnp.setdiff1d(jnp.arange(m), drop), jnp.sum(pads(k))\n",
            expected="import jax.numpy as jnp\n\ndef picks(k, more):\n    return sorted(range(k)) + more\n\n"
                     "def pads(k):\n    pad = [0.0] * k\n    return 2 * pad\n\n"
                     "def rest(k, m):\n    drop = picks(k, [m])\n"
                     "    return jnp.setdiff1d(jnp.arange(m), jnp.asarray(drop)), jnp.sum(jnp.asarray(pads(k)))\n",
            lines=[12, 12],
        ),
        Invalid(  # ... or kept in a list, item by item (pyunlocbox's history of objective values)
            "import jax.numpy as jnp\n\ndef values(fs, x):\n    return [f(x) for f in fs]\n\n"
            "def change(fs, x):\n    seen = [values(fs, x)]\n    seen.append(values(fs, x / 2))\n"
            "    return jnp.sum(seen[-1]) - jnp.sum(seen[-2])\n",
            expected="import jax.numpy as jnp\n\ndef values(fs, x):\n    return [f(x) for f in fs]\n\n"
                     "def change(fs, x):\n    seen = [values(fs, x)]\n    seen.append(values(fs, x / 2))\n"
                     "    return jnp.sum(jnp.asarray(seen[-1])) - jnp.sum(jnp.asarray(seen[-2]))\n",
            lines=[9, 9],
        ),
        Invalid(  # ... with other items too, or added by `+=`
            "import jax.numpy as jnp\n\ndef values(fs, x):\n    return [f(x) for f in fs]\n\n"
            "def last(fs, x, n):\n    seen = [jnp.zeros(n)]\n    seen.append(values(fs, x))\n    return jnp.sum(seen[-1])\n\n"
            "def added(fs, x):\n    seen = []\n    seen += [values(fs, x)]\n    return jnp.sum(seen[0])\n",
            expected="import jax.numpy as jnp\n\ndef values(fs, x):\n    return [f(x) for f in fs]\n\n"
                     "def last(fs, x, n):\n    seen = [jnp.zeros(n)]\n    seen.append(values(fs, x))\n"
                     "    return jnp.sum(jnp.asarray(seen[-1]))\n\n"
                     "def added(fs, x):\n    seen = []\n    seen += [values(fs, x)]\n    return jnp.sum(jnp.asarray(seen[0]))\n",
            lines=[9, 14],
        ),
        Invalid(  # a parameter a call in the module passes a list (colorspacious' `broadcasting_matvec`)
            "import numpy as np\n\ndef matvec(A, B):\n    return np.inner(B, A)\n\ndef opponent(rgb):\n"
            "    return matvec([1, -12. / 11, 1. / 11], rgb)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef matvec(A, B):\n    return np.inner(B, jnp.asarray(A))\n\n"
                     "def opponent(rgb):\n    return matvec([1, -12. / 11, 1. / 11], rgb)\n",
            lines=[4],
        ),
        Invalid(  # ... in either arm of a conditional expression (obspy's `np.argmax(np.abs(fct) if abs_max else fct)`),
            # and a display in one
            "import jax.numpy as jnp\n\ndef peak(c, signed=True):\n    return jnp.argmax(jnp.abs(c) if signed else c)\n\n"
            "def low(c, first):\n    return jnp.argmin([0.0, 1.0] if first else c)\n\n"
            "def use():\n    return peak((1.0, -2.0), signed=False), low((3.0, 4.0), False)\n",
            expected="import jax.numpy as jnp\n\ndef peak(c, signed=True):\n"
            "    return jnp.argmax(jnp.abs(jnp.asarray(c)) if signed else jnp.asarray(c))\n\n"
            "def low(c, first):\n    return jnp.argmin(jnp.asarray([0.0, 1.0]) if first else jnp.asarray(c))\n\n"
            "def use():\n    return peak((1.0, -2.0), signed=False), low((3.0, 4.0), False)\n",
            lines=[4, 4, 7, 7],
        ),
        Invalid(  # ... or a local name bound to one (similaritymeasures' `poly_area(xs, ys)`), by keyword too
            "import numpy as np\n\nclass Quad:\n    def area(self, x, y):\n        return np.dot(x, np.roll(y, 1))\n\n"
            "    def of(self, a):\n        xs = [a[0], a[1]]\n        return self.area(a, y=xs)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Quad:\n    def area(self, x, y):\n"
                     "        return np.dot(x, np.roll(jnp.asarray(y), 1))\n\n"
                     "    def of(self, a):\n        xs = [a[0], a[1]]\n        return self.area(a, y=xs)\n",
            lines=[5],
        ),
        Invalid(  # a documented array-like that an operator meets (`v[:2] / n`, `-v`), beside NumPy calls: converted once,
            # first in the function, not at each use (pytransform3d's axis-angle helpers, given lists)
            "import numpy as np\n\ndef unit(v, k):\n    \"\"\"v : array-like, shape (3,)\"\"\"\n    n = np.linalg.norm(v[:2])\n"
            "    if k > len(v):\n        return -v\n    return v[:2] / n, np.sum(v), v[0]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef unit(v, k):\n    \"\"\"v : array-like, shape (3,)\"\"\"\n"
                     "    v = jnp.asarray(v)\n    n = np.linalg.norm(v[:2])\n"
                     "    if k > len(v):\n        return -v\n    return v[:2] / n, np.sum(v), v[0]\n",
            lines=[7],
        ),
        Invalid(  # ... unsafe when the function hands the caller's object back on some path (`return v`): the caller
            # then gets a JAX array where it got its own list; held back until then
            "import numpy as np\n\ndef orient(v, w):\n    \"\"\"\n    v : array_like\n    w : array_like\n    \"\"\"\n"
            "    if np.dot(v, w) < 0:\n        v = -v\n    return v\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef orient(v, w):\n    \"\"\"\n    v : array_like\n    w : array_like\n    \"\"\"\n"
                     "    v = jnp.asarray(v)\n    if np.dot(v, jnp.asarray(w)) < 0:\n        v = -v\n    return v\n",
            unsafe=True,
            lines=[8, 9],
        ),
        Invalid(  # ... and when it hands back a slice of it (`return a[1:]`: of a list, a list, which the caller
            # may repeat with `* 2` where an array doubles)
            "import numpy as np\n\ndef split_first(a):\n    \"\"\"a : array_like\"\"\"\n    n = np.linalg.norm(a)\n"
            "    return a[0] / n, a[1:]\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef split_first(a):\n    \"\"\"a : array_like\"\"\"\n"
                     "    a = jnp.asarray(a)\n    n = np.linalg.norm(a)\n    return a[0] / n, a[1:]\n",
            unsafe=True,
            lines=[6],
        ),
        Invalid(  # ... not when a read takes it as a list (`a * 2` repeats a list, `a + [0]` joins one, `a is None`, a
            # method of a list): each NumPy call's argument is converted there
            "import numpy as np\n\ndef f(a, b=None):\n    \"\"\"a : array_like\n    b : array_like\"\"\"\n"
            "    return np.sum(a) - a[0], a * 2, np.sum(b) - b[0] if b is not None else 0\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(a, b=None):\n    \"\"\"a : array_like\n    b : array_like\"\"\"\n"
                     "    return np.sum(jnp.asarray(a)) - a[0], a * 2, np.sum(b) - b[0] if b is not None else 0\n",
        ),
        Invalid(  # a documented sequence meeting an array this function makes (scikit-spatial's `project_points`):
            # converted once, first in the function (every read takes it as an array)
            "import numpy as np\n\ndef project(normal, points):\n    \"\"\"points : array_like\"\"\"\n"
            "    d = np.dot(np.ones(3), normal)\n    return d * normal + points\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef project(normal, points):\n    \"\"\"points : array_like\"\"\"\n"
                     "    points = jnp.asarray(points)\n    d = np.dot(np.ones(3), normal)\n    return d * normal + points\n",
            lines=[6],
        ),
    ]
    VALID += [
        Valid(  # a documented tuple joined to a tuple display (of a traced item too), or repeated: Python's own
            # sequences, not arrays: no conversion first in the function (pyfar's noise: `cshape + (n_samples,)`)
            "import numpy as np\n\ndef noise(scale, n, dims, extra):\n    \"\"\"dims : tuple\n    extra : tuple of int\"\"\"\n"
            "    full = (n,) + dims\n    more = extra + (np.sum(scale),)\n"
            "    return scale * np.ones(dims + (n,)), full, more, dims * 2\n"),
    ]
    INVALID += [
        Invalid(  # an item of a parameter a call passes a tuple of tuples, as it is or through a local name: a tuple
            # (sporco's `ndfrom2d`: `prm = rsi[1]`, then `np.argsort(prm)`)
            'import numpy as np\n\ndef f(x, rsi):\n    prm = rsi[1]\n    return np.transpose(x, np.argsort(prm)), np.prod(rsi[0])\n\ndef use(x):\n    return f(x, ((3, 2), (1, 0)))\n',
            expected='import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, rsi):\n    prm = rsi[1]\n    return np.transpose(x, np.argsort(jnp.asarray(prm))), np.prod(jnp.asarray(rsi[0]))\n\ndef use(x):\n    return f(x, ((3, 2), (1, 0)))\n',
            lines=[5, 5],
        ),
        Invalid(  # calls pass a tuple of two arrays the caller makes: its items are arrays, left as they are, its
            # slices tuples, through a local name too (scipy's `_ppoly2d_eval(c, (x, y), ...)`); a local name bound to
            # `list(zip(...))` gives tuples; an array indexed by a tuple gives an array (pygam's `X[:, self.feature]`)
            'import numpy as np\n\ndef f(xs, x):\n    rest = xs[1:]\n    return np.searchsorted(xs[0], x), np.sum(rest)\n\n'
            'def use(a):\n    x = np.sort(a)\n    y = a ** 2\n    return f((x, y), 0.5)\n\ndef g(rsi):\n    return np.argsort(rsi[1])\n\n'
            'def use2(a, b):\n    pairs = list(zip(a, b))\n    return g(pairs)\n\n'
            'def h(X, j):\n    """X : array-like"""\n    return np.unique(X[:, j])\n',
            expected='import jax.numpy as jnp\nimport numpy as np\n\ndef f(xs, x):\n    rest = xs[1:]\n    return np.searchsorted(xs[0], x), np.sum(jnp.asarray(rest))\n\n'
                     'def use(a):\n    x = np.sort(a)\n    y = a ** 2\n    return f((x, y), 0.5)\n\ndef g(rsi):\n    return np.argsort(jnp.asarray(rsi[1]))\n\n'
                     'def use2(a, b):\n    pairs = list(zip(a, b))\n    return g(pairs)\n\n'
                     'def h(X, j):\n    """X : array-like"""\n    return np.unique(X[:, j])\n',
            lines=[5, 13],
        ),
        Invalid(  # a `list(...)` call on one path, a `.map(...)` result (`multiprocessing.Pool.map`: a list) on another
            # (sporco's `grid_search`)
            'import numpy as np\n\ndef f(fn, g, pool):\n    if pool is None:\n        v = list(map(fn, g))\n        w = np.zeros(3)\n    else:\n        v = np.asarray(g)\n        w = pool.map(fn, g)\n    return np.reshape(v, (-1,)), np.cumsum(w)\n',
            expected='import jax.numpy as jnp\nimport numpy as np\n\ndef f(fn, g, pool):\n    if pool is None:\n        v = list(map(fn, g))\n        w = np.zeros(3)\n    else:\n        v = np.asarray(g)\n        w = pool.map(fn, g)\n    return np.reshape(jnp.asarray(v), (-1,)), np.cumsum(jnp.asarray(w))\n',
            lines=[10, 10],
        ),
        Invalid(  # a list reaches the parameter through another function's parameter passed on (filterpy's
            # `update([3.0])`, which calls `reshape_z(z, 1)`)
            "import jax.numpy as jnp\n\ndef reshape_z(z, dim_z):\n    return jnp.atleast_2d(z)\n\n"
            "def update(z):\n    return reshape_z(z, 1) * 2.0\n\nU = update([3.0])\n",
            expected="import jax.numpy as jnp\n\ndef reshape_z(z, dim_z):\n    return jnp.atleast_2d(jnp.asarray(z))\n\n"
            "def update(z):\n    return reshape_z(z, 1) * 2.0\n\nU = update([3.0])\n",
            lines=[4],
        ),
        Invalid(  # a list given by keyword in a script's `__main__` block (filterpy's `shift(pdf=[...], offset=1)`)
            "import jax.numpy as jnp\n\ndef shift(pdf, offset):\n    return jnp.roll(pdf, offset)\n\n"
            "if __name__ == '__main__':\n    print(shift(pdf=[1.0, 2.0, 3.0], offset=1))\n",
            expected="import jax.numpy as jnp\n\ndef shift(pdf, offset):\n    return jnp.roll(jnp.asarray(pdf), offset)\n\n"
            "if __name__ == '__main__':\n    print(shift(pdf=[1.0, 2.0, 3.0], offset=1))\n",
            lines=[4],
        ),
        Invalid(  # ... or as an item of a starred display, or an entry of a `**` dict display (a keyword after a
            # starred name is still read)
            "import jax.numpy as jnp\n\ndef shift(pdf, offset, w=1.0):\n    return jnp.roll(pdf, offset) * jnp.sum(w)\n\n"
            "def run(args):\n    return shift(*[[1.0, 2.0], 1]), shift(**{'pdf': [1.0], 'offset': 1}), shift(*args, w=[2.0])\n",
            expected="import jax.numpy as jnp\n\ndef shift(pdf, offset, w=1.0):\n"
            "    return jnp.roll(jnp.asarray(pdf), offset) * jnp.sum(jnp.asarray(w))\n\n"
            "def run(args):\n    return shift(*[[1.0, 2.0], 1]), shift(**{'pdf': [1.0], 'offset': 1}), shift(*args, w=[2.0])\n",
            lines=[4, 4],
        ),
        Invalid(  # ... or to a name bound to the function (`roll = shift`), here in a script's `__main__` block
            "import jax.numpy as jnp\n\ndef shift(pdf, offset):\n    return jnp.roll(pdf, offset)\n\nroll = shift\n\n"
            "if __name__ == '__main__':\n    print(roll([1.0, 2.0, 3.0], 1))\n",
            expected="import jax.numpy as jnp\n\ndef shift(pdf, offset):\n    return jnp.roll(jnp.asarray(pdf), offset)\n\n"
            "roll = shift\n\nif __name__ == '__main__':\n    print(roll([1.0, 2.0, 3.0], 1))\n",
            lines=[4],
        ),
        Invalid(  # a tuple display on one path, given as an array (filterpy's stats: `var = (var,)`, then `np.sqrt(var)`)
            "import jax.numpy as jnp\n\ndef std_of(var):\n    if jnp.isscalar(var):\n        var = (var,)\n"
            "    return jnp.sqrt(var)\n",
            expected="import jax.numpy as jnp\n\ndef std_of(var):\n    if jnp.isscalar(var):\n        var = (var,)\n"
            "    return jnp.sqrt(jnp.asarray(var))\n",
            lines=[6],
        ),
        Invalid(  # a list-fed parameter meets an array made by an array method of a call (filterpy's residual
            # resampling: `num_copies = np.floor(N * np.asarray(weights)).astype(int)`, then `weights - num_copies`)
            "import jax.numpy as jnp\n\ndef residual(weights):\n    copies = jnp.floor(3 * jnp.asarray(weights)).astype(int)\n"
            "    return weights - copies\n\nR = residual([0.1, 0.9, 1.5])\n",
            expected="import jax.numpy as jnp\n\ndef residual(weights):\n"
            "    copies = jnp.floor(3 * jnp.asarray(weights)).astype(int)\n"
            "    return jnp.asarray(weights) - copies\n\nR = residual([0.1, 0.9, 1.5])\n",
            lines=[5],
        ),
    ]
    VALID += [
        Valid(  # an augmented assignment after `if not isinstance(v, np.ndarray): v = np.asarray(v)` keeps the array
            "import numpy as np\n\ndef scaled(v, a):\n    if not isinstance(v, np.ndarray):\n        v = np.asarray(v)\n"
            "    if a:\n        v *= 2.0\n    return np.std(v)\n"),
        Valid(  # a list-fed parameter rebound before it is passed on: the callee gets an array
            "import jax.numpy as jnp\n\ndef reshape_z(z):\n    return jnp.atleast_2d(z)\n\n"
            "def update(z):\n    z = jnp.asarray(z)\n    return reshape_z(z)\n\nU = update([3.0])\n"),
    ]
    INVALID += [
        Invalid(  # ... but not by an item write, which leaves it the caller's list
            "import jax.numpy as jnp\n\ndef reshape_z(z):\n    return jnp.atleast_2d(z)\n\n"
            "def update(z, v):\n    z[0] = v\n    return reshape_z(z)\n\nU = update([3.0], 1.0)\n",
            expected="import jax.numpy as jnp\n\ndef reshape_z(z):\n    return jnp.atleast_2d(jnp.asarray(z))\n\n"
            "def update(z, v):\n    z[0] = v\n    return reshape_z(z)\n\nU = update([3.0], 1.0)\n",
            lines=[4],
        ),
    ]
    VALID += [
        Valid(  # set to something else too, or unpacked into: not known to be a list or tuple
            "import jax.numpy as jnp\n\nclass Op:\n    def __init__(self, dims, a):\n        self.dims = tuple(dims)\n"
            "        self.w, self.v = a\n\n    def reset(self, d):\n        self.dims = d\n        self.v = [1]\n\n"
            "    def size(self):\n        return jnp.prod(self.dims) + jnp.sum(self.v)\n"),
        Valid(  # ... also when another object's attribute of that name is set to something else
            "import jax.numpy as jnp\n\nclass Op:\n    def __init__(self, dims):\n        self.dims = tuple(dims)\n\n"
            "def resize(op, d):\n    op.dims = d\n    return jnp.prod(op.dims)\n"),
        Valid(  # an attribute of a module (a constant), whatever the module's objects hold under that name
            "import jax.numpy as jnp\nimport consts\n\nclass Op:\n    def __init__(self, table):\n        self.table = tuple(table)\n\n"
            "def total():\n    return jnp.sum(consts.table)\n"),
    ]
    VALID += [
        Valid(  # an array of objects (their attributes read off its elements) stays NumPy (JX501), which takes the
            # list: `jnp.asarray(parts)` of objects raised `TypeError` (trimesh's `visual.objects.concatenate`)
            "import numpy as np\n\ndef merge(parts, *more):\n    if more:\n        parts = np.append(parts, more)\n"
            "    else:\n        parts = np.asarray(parts)\n    return {p.name: p for p in parts}\n"),
    ]
    VALID += [
        Valid(  # an operation that goes into `scipy.fftpack` (or a function that requires NumPy arrays) stays NumPy
            # (JX501), which takes a list operand: `jnp.asarray(H)` made it a JAX array fftpack rejects (astroML)
            "import numpy as np\nfrom scipy.fftpack import ifft\n\ndef inverse(f, H):\n    \"\"\"H : array_like\"\"\"\n"
            "    y = H * np.exp(1j * f)\n    return ifft(H * np.exp(2j * np.pi * f)), ifft(y)\n"),
    ]
    VALID += [
        Valid(  # an operation handed to a function of the module that writes into its parameter stays NumPy (JX501
            # leaves the function once `a - b` is computed from an array made here): `a = jnp.asarray(a)` made it a
            # JAX array `one` cannot write into (SciPy's `ttest_rel`, which hands `a - b` to `ttest_1samp`)
            "import numpy as np\n\ndef one(a, popmean):\n    a[a < 0] = 0\n    return np.mean(a) - popmean\n\n"
            "def rel(a, b):\n    \"\"\"a, b : array_like\"\"\"\n    return one(a - b, 0.0)\n"),
        Valid(  # ... through a local name; nor is `a` converted where an operator meets `b`, kept as given (`jnp.asarray(a)
            # - b` raises on a list `b`, which NumPy reads as an array)
            "import numpy as np\n\ndef one(a, popmean):\n    a[a < 0] = 0\n    return np.mean(a) - popmean\n\n"
            "def rel(a, b):\n    \"\"\"a, b : array_like\"\"\"\n    d = -b\n    return one(d, np.sum(a - b))\n"),
    ]
    INVALID += [
        Invalid(  # a parameter whose operations reach no such function is still converted first
            "import numpy as np\n\ndef one(a, popmean):\n    a[a < 0] = 0\n    return np.mean(a) - popmean\n\n"
            "def rel(a, b, c):\n    \"\"\"a, b, c : array_like\"\"\"\n    return one(a - b, np.mean(-c))\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef one(a, popmean):\n    a[a < 0] = 0\n"
                     "    return np.mean(a) - popmean\n\ndef rel(a, b, c):\n    \"\"\"a, b, c : array_like\"\"\"\n"
                     "    c = jnp.asarray(c)\n    return one(a - b, np.mean(-c))\n",
            lines=[9],
        ),
    ]
    VALID += [
        Valid(  # lists given, but `+` of two parameters may concatenate them: no array of this function's in sight
            "import numpy as np\n\ndef join(a, b):\n    c = a + b\n    return len(c) * np.ones(2)\n\n"
            "def use():\n    return join([1], [2])\n"),
    ]
    VALID += [
        Valid(  # a function that may return something else (an array) is not taken for a sequence
            "import jax.numpy as jnp\n\ndef sides(a):\n    if a is None:\n        return ()\n    return a * 2\n\n"
            "def perimeter(a):\n    return jnp.sum(sides(a))\n"),
    ]
    VALID += [
        Valid(  # a list joined to what a function of the module returns as a list (chaospy's reprs)
            "import numpy as np\n\ndef texts(**kw):\n    return ['%s=%s' % (k, v) for k, v in kw.items()]\n\n"
            "def f(radius, shift):\n    scale = np.asarray(2 * radius)\n    return scale, [radius] + texts(shift=shift)\n"),
    ]
    INVALID += [
        Invalid(  # a name unpacked from a parameter whose items may be lists: the function converts it elsewhere
            # (pyswarms' `periodic`: `np.array(ub)`, then `np.tile(ub, ...)`), or the docstring says so (pyswarms'
            # `nearest`: `bounds : tuple of numpy.ndarray or list`); `jnp.tile` and `jnp.where` reject a list
            "import numpy as np\n\ndef periodic(position, bounds):\n    lb, ub = bounds\n"
            "    width = np.abs(np.array(ub) - np.array(lb))\n    return np.tile(ub, (position.shape[0], 1)) - width\n\n"
            "def nearest(position, bounds):\n    \"\"\"bounds : tuple of numpy.ndarray or list\"\"\"\n    lb, ub = bounds\n"
            "    return np.where(position < lb, lb, position)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef periodic(position, bounds):\n    lb, ub = bounds\n"
            "    width = np.abs(np.array(ub) - np.array(lb))\n"
            "    return np.tile(jnp.asarray(ub), (position.shape[0], 1)) - width\n\n"
            "def nearest(position, bounds):\n    \"\"\"bounds : tuple of numpy.ndarray or list\"\"\"\n    lb, ub = bounds\n"
            "    return np.where(position < lb, jnp.asarray(lb), position)\n",
            lines=[6, 11],
        ),
        Invalid(  # ... and a parameter the function converts elsewhere (`np.asarray(x)`)
            "import numpy as np\n\ndef f(x, n):\n    y = np.asarray(x)\n    return np.tile(x, n), y\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef f(x, n):\n    y = np.asarray(x)\n"
            "    return np.tile(jnp.asarray(x), n), y\n",
            lines=[5],
        ),
    ]
    INVALID += [
        Invalid(  # an attribute a method stores as its caller gave it, whose `len()` is taken: a list or an array
            # (pymcmcstat's `N = self.N`, `if len(N) == 1: N = np.ones(nsos) * N`, `N` a list); not one stored
            # converted (`self.c`), nor one no `len()` shows to be a sequence (`self.scale`)
            "import numpy as np\n\nclass Grid:\n    def __init__(self, sizes, w, scale, c):\n        self.sizes = sizes\n"
            "        self.w = w\n        self.scale = scale\n        self.c = np.asarray(c)\n\n    def counts(self, n):\n"
            "        sizes = self.sizes\n        if len(sizes) == 1:\n            sizes = np.ones(n) * sizes\n"
            "        return sizes, np.cumsum(self.w) * len(self.w), np.ones(n) * self.scale, np.ones(n) * self.c * len(self.c)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Grid:\n    def __init__(self, sizes, w, scale, c):\n"
            "        self.sizes = sizes\n        self.w = w\n        self.scale = scale\n        self.c = np.asarray(c)\n\n"
            "    def counts(self, n):\n        sizes = self.sizes\n        if len(sizes) == 1:\n"
            "            sizes = np.ones(n) * jnp.asarray(sizes)\n"
            "        return sizes, np.cumsum(jnp.asarray(self.w)) * len(self.w), np.ones(n) * self.scale, np.ones(n) * self.c * len(self.c)\n",
            lines=[13, 14],
        ),
        Invalid(  # a property of the module returning nested lists, read off any object (python-control's
            # `TransferFunction.num`, then `np.squeeze(sys.num)`)
            "import numpy as np\n\nclass TF:\n    def __init__(self, num):\n        self._num = num\n\n    @property\n"
            "    def num(self):\n        return [[np.array(n) for n in row] for row in self._num]\n\n"
            "def coeffs(sys):\n    return np.squeeze(sys.num) * 2\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass TF:\n    def __init__(self, num):\n"
            "        self._num = num\n\n    @property\n    def num(self):\n"
            "        return [[np.array(n) for n in row] for row in self._num]\n\n"
            "def coeffs(sys):\n    return np.squeeze(jnp.asarray(sys.num)) * 2\n",
            lines=[12],
        ),
        Invalid(  # ... also stored by a method taken for plain Python (a store into `self.keys`, a dict method's name)
            "import numpy as np\n\nclass Bag:\n    def __init__(self, keys):\n        self.keys = keys\n\n"
            "    def weights(self):\n        return np.arange(len(self.keys)) + self.keys\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass Bag:\n    def __init__(self, keys):\n"
            "        self.keys = keys\n\n    def weights(self):\n        return np.arange(len(self.keys)) + jnp.asarray(self.keys)\n",
            lines=[8],
        ),
    ]
    VALID += [
        Valid(  # rebound to the conversion: the call gets an array; the other item is not converted anywhere
            "import numpy as np\n\ndef f(position, bounds):\n    lb, ub = bounds\n    ub = np.array(ub)\n"
            "    return np.tile(ub, (2, 1)), np.tile(lb, 2)\n"),
    ]
    VALID += [
        Valid(  # converted only where `isinstance` says it is an array: no sign of a list in the other branch
            # (python-control's `if isinstance(other, np.ndarray): other = np.atleast_2d(other)`, else a system whose
            # `__rmul__` NumPy defers to: `np.ones((2, 2)) * other`), nor in `else` of a negated test
            "import numpy as np\n\ndef f(k, other):\n    if isinstance(other, np.ndarray) and k:\n"
            "        other = np.atleast_2d(other)\n    else:\n        other = np.ones((2, 2)) * other\n    return other + 1\n\n"
            "def g(other):\n    if not isinstance(other, np.ndarray):\n        other = np.ones(2) * other\n"
            "    else:\n        other = np.asarray(other)\n    return other + 1\n"),
    ]
    INVALID += [
        Invalid(  # converted elsewhere, but the module's class defers to its reflected operators: the operand may be
            # one of its objects, which `jnp.asarray` rejects: unsafe
            "import numpy as np\n\nclass System:\n    __array_priority__ = 11\n\n    def __rmul__(self, other):\n"
            "        return self\n\ndef f(other):\n    k = np.asarray(other)\n    out = np.ones(2) * other\n    return out + k\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\nclass System:\n    __array_priority__ = 11\n\n"
            "    def __rmul__(self, other):\n        return self\n\ndef f(other):\n    k = np.asarray(other)\n"
            "    out = np.ones(2) * jnp.asarray(other)\n    return out + k\n",
            unsafe=True, lines=[11],
        ),
    ]
    INVALID += [
        Invalid(  # the docstring's examples call the function with lists: by position, keyword, or a name the examples
            # bind to one; as a method, or as its class for `__init__` (trimesh's `vector_product([2, 0, 0], ...)`)
            "import numpy as np\n\ndef turn(u, w, scale=1.0):\n    \"\"\"Turn.\n\n    >>> a = turn([1, 0], w=(0, 1))\n"
            "    >>> s = [2.0, 3.0]\n    >>> b = turn(np.ones(2), np.ones(2),\n    ...          scale=s)\n    \"\"\"\n"
            "    return np.arccos(np.dot(u, w)) * np.sum(scale)\n\n"
            "class Path:\n    \"\"\">>> p = Path([[0, 0], [1, 1]])\"\"\"\n\n    def __init__(self, pts):\n"
            "        self.n = np.ndim(pts) + np.max(pts)\n\n    def shift(self, by):\n"
            "        \"\"\">>> Path(np.eye(2)).shift([1, 2])\"\"\"\n        return np.cumsum(by)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef turn(u, w, scale=1.0):\n    \"\"\"Turn.\n\n"
            "    >>> a = turn([1, 0], w=(0, 1))\n    >>> s = [2.0, 3.0]\n    >>> b = turn(np.ones(2), np.ones(2),\n"
            "    ...          scale=s)\n    \"\"\"\n"
            "    return np.arccos(np.dot(jnp.asarray(u), jnp.asarray(w))) * np.sum(jnp.asarray(scale))\n\n"
            "class Path:\n    \"\"\">>> p = Path([[0, 0], [1, 1]])\"\"\"\n\n    def __init__(self, pts):\n"
            "        self.n = np.ndim(pts) + np.max(jnp.asarray(pts))\n\n    def shift(self, by):\n"
            "        \"\"\">>> Path(np.eye(2)).shift([1, 2])\"\"\"\n        return np.cumsum(jnp.asarray(by))\n",
            lines=[11, 11, 11, 17, 21],
        ),
        Invalid(  # ... or the module's docstring, with names it unpacks from a display of lists (trimesh's
            # transformations: `origin, xaxis = [0, 0, 0], [1, 0, 0]`, then `shear_matrix(beta, xaxis, origin, zaxis)`)
            "\"\"\"Moves.\n\n>>> o, d = [0, 0], [1, 0]\n>>> m = move(d, o)\n\"\"\"\nimport jax.numpy as jnp\n\n"
            "def move(direction, point):\n    return jnp.dot(point, direction)\n",
            expected="\"\"\"Moves.\n\n>>> o, d = [0, 0], [1, 0]\n>>> m = move(d, o)\n\"\"\"\nimport jax.numpy as jnp\n\n"
            "def move(direction, point):\n    return jnp.dot(jnp.asarray(point), jnp.asarray(direction))\n",
            lines=[9, 9],
        ),
        Invalid(  # ... the only list of the module (the pre-check reads the examples too)
            "import jax.numpy as jnp\n\ndef total(v):\n    \"\"\">>> total([1, 2])\"\"\"\n    return jnp.cumsum(v)\n",
            expected="import jax.numpy as jnp\n\ndef total(v):\n    \"\"\">>> total([1, 2])\"\"\"\n"
            "    return jnp.cumsum(jnp.asarray(v))\n",
            lines=[5],
        ),
    ]
    INVALID += [
        Invalid(  # a helper returning a tuple of lists, unpacked by the caller: lists among the stacked arrays, or
            # given as an array (trimesh's `values, lengths = merge_lengths(values, lengths)`, then `np.stack(...)`)
            "import jax.numpy as jnp\n\ndef split(pairs):\n    firsts, seconds = [], []\n    for a, b in pairs:\n"
            "        firsts.append(a)\n        seconds.append(b)\n    return firsts, seconds, len(firsts)\n\n"
            "def joined(pairs):\n    a, b, n = split(pairs)\n    return jnp.stack((a, b), axis=1), jnp.sum(b) / n\n",
            expected="import jax.numpy as jnp\n\ndef split(pairs):\n    firsts, seconds = [], []\n    for a, b in pairs:\n"
            "        firsts.append(a)\n        seconds.append(b)\n    return firsts, seconds, len(firsts)\n\n"
            "def joined(pairs):\n    a, b, n = split(pairs)\n"
            "    return jnp.stack((jnp.asarray(a), jnp.asarray(b)), axis=1), jnp.sum(jnp.asarray(b)) / n\n",
            lines=[12, 12, 12],
        ),
    ]
    INVALID += [
        Invalid(  # a list repeated in one branch of a conditional expression, bound to a name or given as it is, among
            # the stacked arrays or meeting an array (trimesh's `[[0, 0, 0, 255]] * len(v) if len(c) == 0 else c`)
            "import jax.numpy as jnp\n\ndef colors(v, c, d, n):\n    a = [[0, 0, 0, 255]] * len(v) if len(c) == 0 else c\n"
            "    w = c if n else d if len(d) else [1.0] * n\n"
            "    return jnp.vstack((a, [[1, 1, 1, 1]] * n if n else d)), jnp.exp(d) * w\n",
            expected="import jax.numpy as jnp\n\ndef colors(v, c, d, n):\n"
            "    a = [[0, 0, 0, 255]] * len(v) if len(c) == 0 else c\n    w = c if n else d if len(d) else [1.0] * n\n"
            "    return jnp.vstack((jnp.asarray(a), jnp.asarray([[1, 1, 1, 1]] * n if n else d))), "
            "jnp.exp(d) * jnp.asarray(w)\n",
            lines=[6, 6, 6],
        ),
        Invalid(  # a list repeated or joined among the stacked arrays (obspy's edge padding `[f[0]] * k`), and the
            # result of a method no array has, which may be a tuple, in a comprehension or a display (obspy's
            # `np.vstack([ax.get_ylim() for ax in axes])`); the instance's own methods and NumPy's results are arrays
            "import jax.numpy as jnp\n\ndef edges(s, n):\n    return jnp.hstack(([s[0]] * n, s, (s[-1],) + (0.0,)))\n\n"
            "def bounds(panels, p, q):\n    return jnp.vstack([p.span() for p in panels]), jnp.vstack((p.span(), q.span()))\n\n"
            "class G:\n    def row(self, i):\n        return jnp.ones(2) * i\n\n"
            "    def grid(self, m, x):\n        return jnp.vstack([self.row(i) for i in range(m)]), jnp.hstack([jnp.sin(v) for v in x])\n",
            expected="import jax.numpy as jnp\n\ndef edges(s, n):\n"
            "    return jnp.hstack((jnp.asarray([s[0]] * n), s, jnp.asarray((s[-1],) + (0.0,))))\n\n"
            "def bounds(panels, p, q):\n    return jnp.vstack([jnp.asarray(p.span()) for p in panels]), "
            "jnp.vstack((jnp.asarray(p.span()), jnp.asarray(q.span())))\n\n"
            "class G:\n    def row(self, i):\n        return jnp.ones(2) * i\n\n"
            "    def grid(self, m, x):\n        return jnp.vstack([self.row(i) for i in range(m)]), jnp.hstack([jnp.sin(v) for v in x])\n",
            lines=[4, 4, 7, 7, 7],
        ),
    ]
    VALID += [
        Valid(  # ... of text: no array of numbers
            "import jax.numpy as jnp\n\ndef labels(c, n, x):\n    a = ['?'] * n if len(c) == 0 else c\n"
            "    return a + jnp.sum(x)\n"),
    ]
    VALID += [
        Valid(  # ... not where the helper may return an array there, or is unpacked into another count of names
            "import jax.numpy as jnp\n\ndef split(pairs, dense):\n    if dense:\n        return jnp.zeros(2), [1]\n"
            "    return [0], [1]\n\ndef two():\n    return [0], [1], [2]\n\n"
            "def joined(pairs):\n    a, b = split(pairs, True)\n    (c, d), e = two()[:2], 0\n"
            "    return jnp.stack((a, a)), jnp.sum(c)\n"),
    ]
    VALID += [
        Valid(  # examples passing text, or another function's lists, or arrays, say nothing of the parameter
            "import numpy as np\n\ndef names(keys, x):\n    \"\"\">>> names(['a', 'b'], np.ones(1))\n"
            "    >>> other([1.0], x=[2.0])\n    >>> k = ['c']\n    >>> names(k, x=np.ones(1))\n    \"\"\"\n"
            "    return np.unique(keys), np.sum(x)\n"),
    ]
    INVALID += [
        Invalid(  # an item of a local list of lists (python-control's `_common_den`: `poles = [[] for j in ...]`,
            # `poles[j].append(r)`, then `poly(poles[j])`), or of a display of lists; `jnp.poly` rejects a list
            "import jax.numpy as jnp\n\ndef f(groups, x):\n    roots = [[] for g in groups]\n    for i, g in enumerate(groups):\n"
            "        roots[i].append(g)\n    acc = [[1.0], [2.0, 3.0]]\n    return jnp.poly(roots[0]), jnp.ones(2) * acc[1], jnp.sum(acc[0])\n",
            expected="import jax.numpy as jnp\n\ndef f(groups, x):\n    roots = [[] for g in groups]\n"
            "    for i, g in enumerate(groups):\n        roots[i].append(g)\n    acc = [[1.0], [2.0, 3.0]]\n"
            "    return jnp.poly(jnp.asarray(roots[0])), jnp.ones(2) * jnp.asarray(acc[1]), jnp.sum(jnp.asarray(acc[0]))\n",
            lines=[8],
        ),
    ]
    VALID += [
        Valid(  # an item replaced by an array: not known to be a list
            "import jax.numpy as jnp\n\ndef f(groups):\n    roots = [[] for g in groups]\n    roots[0] = jnp.ones(2)\n"
            "    return jnp.poly(roots[0])\n"),
    ]
    VALID += [
        Valid(  # a call passes a list, but the function converts it under `if ... is not None:` (or in the `else` of
            # `if ... is None:`): past the guard the parameter's own value is None, which `jnp.average` takes (vg's
            # `average(values, weights=None)`; `jnp.asarray(None)` raises)
            "import numpy as np\n\ndef mean(xs, w=None, total=False):\n    if w is not None:\n        w = np.array(w)\n"
            "    m = np.average(xs, weights=w)\n    return (m, np.sum(w)) if total else m\n\n"
            "def spread(xs, w=None):\n    if w is None:\n        pass\n    else:\n        w = np.asarray(w, dtype=float)\n"
            "    return np.average(xs, weights=w)\n\n"
            "def use(xs):\n    return mean(xs, [1, 2, 3]), spread(xs, (1, 2, 3))\n"),
    ]
    INVALID += [
        Invalid(  # ... with no guard the conversion keeps a None the parameter defaults to
            "import numpy as np\n\ndef mean(xs, w=None):\n    return np.average(xs, axis=0, weights=w)\n\n"
            "def use(xs):\n    return mean(xs, [1, 2, 3]), mean(xs)\n",
            expected="import jax.numpy as jnp\nimport numpy as np\n\ndef mean(xs, w=None):\n"
                     "    return np.average(xs, axis=0, weights=None if w is None else jnp.asarray(w))\n\n"
                     "def use(xs):\n    return mean(xs, [1, 2, 3]), mean(xs)\n",
            lines=[4],
        ),
    ]
    # module facts (`_list_inputs`), computed the first time a call asks for them
    @functools.cached_property
    def _attributes(self) -> frozenset[str]:
        return _list_inputs.sequence_attributes(self.context.module)

    @functools.cached_property
    def _fed(self) -> dict[str, frozenset[str]]:
        return _list_inputs.list_fed_parameters(self.context.module, self._elsewhere("list"))

    @functools.cached_property
    def _examples(self) -> dict[str, frozenset[str]]:
        return module_example_sequences(self.context.module)

    @functools.cached_property
    def _unflat(self) -> dict[str, frozenset[str]]:
        return _list_inputs.unflat_fed_parameters(self.context.module, self._elsewhere("unflat"))

    def _elsewhere(self, kind: str) -> dict[str, frozenset]:
        """What calls in other modules of the run pass the module's functions (`_caller_inputs.fed`)."""
        return _caller_inputs.fed(self.context.project, self.context.module_name, kind)

    @classmethod
    def wanted_by_project(cls, project, module_name: str) -> bool:
        # (the module's text shows no such call; nor that a parameter may be an array subclass of another module)
        return bool(_caller_inputs.fed(project, module_name, "list")) or bool(project.get(layout_classes.KEY))

    @functools.cached_property
    def _returning(self) -> frozenset[str]:
        return _list_inputs.sequence_functions(self.context.module)

    @functools.cached_property
    def _returning_properties(self) -> frozenset[str]:
        return _list_inputs.sequence_properties(self.context.module)

    @functools.cached_property
    def _returning_items(self) -> dict[str, tuple[int, frozenset[int]]]:
        return _list_inputs.sequence_item_functions(self.context.module)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """`a = jnp.asarray(a)` first in the body, for a parameter the docstring says is array-like that an operator
        meets (`a[:3] / norm`, `-a1`: pytransform3d's axis-angle helpers), when every read of the caller's value
        takes it as an array either way (`_hoisted_inputs.uses`); its uses are then not converted one by one."""
        fn = self.current_function
        if fn is not node:
            return
        documented = documented_sequences(fn, enclosing_class(self, fn))
        if not documented:
            return
        facts = function_facts(self, fn)

        def kept(call: cst.Call) -> bool:  # a NumPy call JX501 keeps NumPy (as `visit_Call` reads it), given the list
            return repeats_a_list(self, call, fn) is not None or kept_or_unsafe(self, call) is not None or \
                dotted_name(call.func).split(".")[0] in facts.imports.numpy_aliases and _host_values.counted(self, call)

        params = (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)
        # (`one(a - b, 0.0)`, `one` writing into its parameter: SciPy's `ttest_rel`): what is computed from these must
        # stay NumPy, which takes a list; a JAX `a` would make JX501 leave the function, and `one` get a JAX array it
        # cannot write into. Nor is another parameter converted where an operator meets one of these (`a - b`, `b`
        # kept: a JAX `a` would raise on a list `b`, where NumPy reads it as an array).
        needed = {p.name.value for p in params if p.name.value in documented
                  and boundary(self).needed_from(fn, p.name.value) is not None}
        for param in params:
            name = param.name.value
            if name not in documented or name in needed or param.default is not None and dotted_name(param.default) == "None":
                continue
            found = _hoisted_inputs.uses(self, fn, name, facts, kept)
            if found is None or not found.operators or found.other or any(
                    boundary(self).host_meeting(self._operation(use), fn) is not None for use in found.operators):
                continue  # (`ifft(H * np.exp(x))`: JX501 keeps what goes into `scipy.fftpack` NumPy, which takes a list)
            if needed and any(isinstance(n, cst.Name) and n.value in needed
                              for use in found.operators for n in walk.walk(self._operation(use))):
                continue
            text = f"{name} = {self.jnp}.asarray({name})"
            placed = _hoisted_inputs.insertion(self, fn, text)
            if placed is None:
                continue
            use = found.operators[0]
            message = (f"`{name}` is documented as array-like, so a caller may pass a Python list, which NumPy reads "
                       f"as an array where an operator meets it (`{self.code(self._operation(use))}`): `jax.numpy` and "
                       f"JAX arrays raise `TypeError` on a list there; convert it once, first in the function: `{text}`")
            if found.returned:
                handed = self.get_metadata(ParentProvider, found.returned[0], None) or found.returned[0]
                message += (f" (unsafe: the function hands `{name}` back as the caller gave it on some path, "
                            f"`{self.code(handed).strip()}`: the caller then gets a JAX array where it got its own list)")
            self.report(use, message, changes={placed[0]: placed[1]}, title=f"insert `{text}` first in the function",
                        imports=("jnp",), unsafe=bool(found.returned), blocks_function=bool(found.returned))
            self._hoisted.add((fn, name))  # (when unsafe too: the finding holds the function back meanwhile)

    def _operation(self, use: cst.CSTNode) -> cst.CSTNode:
        """The operation an operator use of a parameter stands in (`a[:3] / norm` for `a`)."""
        node = use
        while not isinstance(node, (cst.UnaryOperation, cst.BinaryOperation, cst.Comparison)):
            parent = self.get_metadata(ParentProvider, node, None)
            if parent is None:
                return use
            node = parent
        return node

    @functools.cached_property
    def _hoisted(self) -> set[tuple[cst.FunctionDef, str]]:
        """(function, parameter) pairs converted first in the function (`visit_FunctionDef`)."""
        return set()

    def _hoisted_read(self, value: cst.BaseExpression) -> bool:
        """`a`, `a[:3]`: a read of a parameter converted first in its function, which needs no conversion itself."""
        while isinstance(value, cst.Subscript):
            value = value.value
        return isinstance(value, cst.Name) and self.current_function is not None \
            and (self.current_function, value.value) in self._hoisted

    def visit_Call(self, node: cst.Call) -> None:
        fn = self.current_function
        if fn is None:
            return
        facts = function_facts(self, fn)
        self._array_method(node, facts)
        name = facts.array_function(node.func)
        if name is not None and name.split(".")[-1] in STACKING and not (
                dotted_name(node.func).split(".")[0] in facts.imports.numpy_aliases and _host_values.counted(self, node)
                or kept_or_unsafe(self, node) is not None):
            # (a join JX501 keeps NumPy, `x.reshape(np.concatenate([s[:1], [-1]]))`, takes the lists and shapes)
            self._stacked(node, name)
        if name is None or name.split(".")[-1] in SEQUENCE_FUNCTIONS or name.split(".")[-1] in ANY_OBJECT:
            return
        if name.split(".")[-1] == "einsum" and (not node.args or not isinstance(
                node.args[0].value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))):
            return  # `einsum(a, [0, 1], b, [1, 2])`: the lists are subscripts, not operands
        traced = function_tracedness(self, fn)
        if all(isinstance(a.value, cst.Name) and traced.static_value(a.value.value) for a in node.args):
            return  # `np.isnan(rng)` of a tuple parameter stays NumPy (JX501), which takes the tuple
        entry = jnp_api.lookup(f"numpy.{name}")
        owner, _, method = name.rpartition(".")
        if entry is None and method in ("outer", "reduce", "accumulate") and (
                jnp_api.lookup(f"numpy.{owner}") or {}).get("kind") == "ufunc":
            entry = {"kind": "ufunc"}  # `np.add.outer(i, [0, 1])`: its arrays are the ufunc's, which reject lists
        if entry is None or entry.get("kind") not in ("function", "ufunc"):
            return
        if repeats_a_list(self, node, fn) is not None:
            return  # JX501 keeps it NumPy, which takes the list; a JAX argument would make its result a JAX array
        if dotted_name(node.func).split(".")[0] in facts.imports.numpy_aliases and _host_values.counted(self, node):
            return  # a count or shape (`dims = np.maximum([...], [...])` for `rfftn(a, dims)`: sporco): JX501 keeps
            # it NumPy, which takes the lists
        if kept_or_unsafe(self, node) is not None:
            return  # JX501 keeps the call NumPy (its result is hashed, goes to `scipy.sparse`, ...), which takes a list
        for i, arg in enumerate(node.args):
            if arg.star == "*" and name.split(".")[-1] in _array_inputs.VARARG_ARRAYS \
                    and i >= _array_inputs.VARARG_ARRAYS[name.split(".")[-1]] and self._rows_of_sequences(arg.value, facts):
                # `np.meshgrid(*idx)` with `idx = [[0, 1, 2] for _ in range(n)]` (pymoo's reference directions):
                # each item is a list, which `jax.numpy` rejects
                text = f"[{self.jnp}.asarray(v) for v in {self.code(arg.value)}]"
                self.report(arg.value, f"`{self.code(node.func)}` is given the items of `{self.code(arg.value)}`, Python "
                            "lists or tuples, as arrays: `jax.numpy` rejects them; convert each with `jnp.asarray`",
                            replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",))
                continue
            if arg.star:
                continue
            if name.split(".")[-1] in _array_inputs.PER_DIMENSION_BINS and isinstance(arg.value, (cst.List, cst.Tuple)) \
                    and _array_inputs.parameter(entry, name.split(".")[-1], i, arg) == "bins":
                # `np.histogram2d(x, y, (nx, [0, 1, 2]))`: the edges of one dimension, not the whole, are the array
                for item in arg.value.elements:
                    if isinstance(item.value, (cst.List, cst.Tuple, cst.ListComp)):
                        self._convert(item.value, f"`{self.code(node.func)}` is given the bin edges of one dimension as a "
                                      f"Python list or tuple (`{self.code(item.value)}`): `jax.numpy` rejects it")
                continue
            # each value a conditional expression may give (`np.argmax(np.abs(f) if a else f)`: obspy's `xcorr_max`,
            # `f` given a tuple)
            for value in _list_inputs.branches(arg.value):
                if value is None:
                    continue
                listed = None  # a parameter that may be a list (`lengths : array-like of integers`, or given one)
                entry_of = _list_inputs.bound_mapping_entry(value, facts)  # `E["n_actions_per_dim"]`: a config dict's entry, often a list
                guarded = isinstance(value, cst.Name) and any(  # under `isinstance(mref, (list, tuple, np.ndarray))`
                    types & {"list", "tuple"} for types in isinstance_guards(self, node).get(value.value, ()))
                attribute = self._sequence_attribute(value, facts) or self._sequence_result(value, node)
                row = _list_inputs.list_row(fn, value, facts)  # `poles[j]` of `poles = [[] for j in ...]`
                # `b` of `for b in blocks`, `blocks = [[...] for s in ...]` (scikit-rf's isotonic fit)
                row = row or isinstance(value, cst.Name) and _list_inputs.row_item(fn, value.value, facts)
                # `np.nanmin(p)` for `p` in `zip(a, b)`: a tuple (neurokit2's peak distances)
                tupled = isinstance(value, cst.Name) and _list_inputs.tuple_item(fn, value.value)
                # `idx = keys[0]` (or `keys[0]` itself) of `keys = sorted({tuple(o) for o in order})`: a tuple too
                element = not tupled and _list_inputs.tuple_element(fn, value)
                # `np.insert(s, k, n)` with `s = np.broadcast_shapes(...)`, `np.append(x.shape, n)`: a shape, a
                # Python tuple (pyfar's broadcast_cdims); a call given only static values stays NumPy (JX501)
                shaped = not isinstance(value, cst.Tuple) and self._tuple_operand(value, node, facts)
                if entry_of is None and not guarded and not attribute and not row and not tupled and not element and not shaped and not (
                        _list_inputs.sequence(value, facts) or _list_inputs.sequence_here(self, value, node, facts)
                        or _list_inputs.sequence_here(self, value, node, facts, some=True, tuples=True)):
                    listed = self._listed_parameter(value, node, facts) or self._listed_attribute(value, node, facts) \
                        or self._layout_instance(value, node, name, facts)
                    if listed is None and not _array_inputs.concrete_parameter(
                            name.split(".")[-1], _array_inputs.parameter(entry, name.split(".")[-1], i, arg)):
                        # (not a count or indices `jax.numpy` needs concrete: `np.repeat(a, f(a))` with `f` giving
                        # an int runs under `jit`, the traced `jnp.asarray(f(a))` raises)
                        listed = self._callable_result(value, node, facts)
                    if listed is None:
                        continue
                if not _array_inputs.takes_array(entry, name.split(".")[-1], i, arg):
                    continue
                given = f"`{self.code(value)}`, which {listed}," if listed else \
                    f"`{self.code(value)}`, which the module only ever makes a list or tuple," if attribute else \
                    f"`{self.code(value)}`, an item of a list of Python lists," if row else \
                    f"`{self.code(value)}`, a tuple of `zip` or `itertools`," if tupled else \
                    f"`{self.code(value)}`, an item of a collection of tuples," if element else \
                    f"`{self.code(value)}`, a shape (a Python tuple)," if shaped else \
                    f"`{self.code(value)}`, an entry of a mapping, which may hold a list," if entry_of is not None else \
                    f"a Python list or tuple (`{self.code(value)}`)"
                why = f"`{self.code(node.func)}` is given {given} as an array: `jax.numpy` rejects it"
                if _array_inputs.parameter(entry, name.split(".")[-1], i, arg) in _array_inputs.INDEX_PARAMS \
                        and (isinstance(value, cst.Name) and _list_inputs.may_be_empty(fn, value.value)
                             or isinstance(value, (cst.List, cst.Tuple)) and not value.elements):
                    self._convert_indices(value, why)
                else:
                    self._convert(value, why)

    @staticmethod
    def _rows_of_sequences(value: cst.BaseExpression, facts: FunctionFacts) -> bool:
        """`_sequence_rows`, or a local name bound only to one."""
        if isinstance(value, cst.Name):
            values = facts.bindings.get(value.value, []) if value.value not in facts.params else []
            return bool(values) and all(v is not None and _sequence_rows(v) for v in values)
        return _sequence_rows(value)

    def _array_method(self, node: cst.Call, facts: FunctionFacts) -> None:
        """`a.dot([[1, 0], [0, 1]])`, `x.take([0], axis=-1)` given a display (or a local name only ever bound to one),
        of an array `a` made by an array function here (`jnp.ones(...).dot(...)`, or a name every definition reaching
        the call binds to such a call: `x = np.asarray(x)`, then `x.take([0])`, antropy's katz_fd): a JAX array's
        method rejects a list where it takes an array (`_list_inputs.ARRAY_METHOD_PARAMS`), as `jnp.take` does. Not
        a parameter as given: it may be another object whose method takes the list (a sparse matrix's `.dot`)."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _list_inputs.ARRAY_ARGUMENT_METHODS):
            return
        receiver = func.value
        if isinstance(receiver, cst.Call):
            made = [receiver]
        elif isinstance(receiver, cst.Name):
            reaching = _list_inputs.reaching_values(self, receiver.value, node)
            made = facts.bindings.get(receiver.value, []) if reaching is None and receiver.value not in facts.params \
                else reaching or []
        else:
            made = []
        if not made or not all(isinstance(v, cst.Call) and _array_inputs.made_array(v, facts) for v in made):
            return
        method = func.attr.value
        for i, arg in enumerate(node.args):
            if arg.star or _list_inputs.method_array_argument(method, i, arg) is None \
                    or not _list_inputs.sequence(arg.value, facts):
                continue
            why = (f"`{self.code(func)}` of an array is given a Python list or tuple (`{self.code(arg.value)}`): a JAX "
                   "array's method rejects it")
            if _list_inputs.method_array_argument(method, i, arg) == "indices" and (
                    isinstance(arg.value, cst.Name) and _list_inputs.may_be_empty(self.current_function, arg.value.value)
                    or isinstance(arg.value, (cst.List, cst.Tuple)) and not arg.value.elements):
                self._convert_indices(arg.value, why)
            else:
                self._convert(arg.value, why)

    def _convert(self, value: cst.BaseExpression, why: str) -> None:
        """Report `value`, a list or tuple given as an array, with the fix `jnp.asarray(value)`."""
        if self._hoisted_read(value):
            return  # `a = jnp.asarray(a)` first in the function covers it
        text = f"{self.jnp}.asarray({self.code(value)})"
        if isinstance(value, cst.Name) and none_default_here(self, value, value.value):
            # `def average(values, weights=None)`: `jnp.asarray(None)` raises, where NumPy's call took the None
            text = f"None if {value.value} is None else {text}"
            why += f" (it defaults to None, which stays None: `jnp.asarray` rejects it)"
        self.report(value, f"{why}; convert it once with `jnp.asarray`", replacement=self.expr(text),
                    title=f"replace with `{text}`", imports=("jnp",))

    def _convert_indices(self, value: cst.BaseExpression, why: str) -> None:
        """`_convert` for a list of indices that may be empty (`idex = []`, grown in a loop): NumPy reads `[]` as no
        indices, `jnp.asarray([])` is a float array, which `jnp.delete` and `jnp.take` reject. Integers only:
        `jnp.asarray(idex, dtype=int)`; items of unknown type (booleans would be a mask, which `dtype=int` turns
        into indices): an unsafe fix."""
        fn = self.current_function
        if not isinstance(value, cst.Name) or fn is not None and _list_inputs.integer_items(fn, value.value):
            text = f"{self.jnp}.asarray({self.code(value)}, dtype=int)"
            self.report(value, f"{why}; convert it once with `jnp.asarray` (as integers: the list may be empty, which "
                        "NumPy reads as no indices and `jnp.asarray` makes a float array)", replacement=self.expr(text),
                        title=f"replace with `{text}`", imports=("jnp",))
            return
        text = f"{self.jnp}.asarray({self.code(value)})"
        self.report(value, f"{why}; `{text}` is the fix, but the list may be empty, which NumPy reads as no indices "
                    "and `jnp.asarray` makes a float array that `jax.numpy` rejects as indices (give it "
                    "`dtype=int` if its items are integers)", replacement=self.expr(text),
                    title=f"replace with `{text}`", imports=("jnp",), unsafe=True, blocks_function=True)

    def _layout_instance(self, value: cst.BaseExpression, at: cst.Call, name: str, facts: FunctionFacts) -> Optional[str]:
        """Why `value` may be an instance of an `np.ndarray` subclass of the run that defines `format` or `sharding`
        (`layout_classes`: spectral's `ImageArray.format = 'f'`), which `jax.numpy` functions read as the array's
        layout and raise on (`jnp.asarray` takes it): a parameter (any caller may pass one), a name bound only to
        such an instance made here (`Cls(...)`, `x.view(Cls)`, a module function returning one), or an array NumPy
        derives from those, which keeps their class (`X * 2`, `X[0]`, `X.T`, `X.reshape(n, -1)`); else None."""
        classes = layout_classes.layout_classes(self)
        if not classes or name.split(".")[-1] in _LAYOUT_CONVERSIONS:
            return None
        root = self._layout_root(value, at, facts, classes)
        if root is None:
            return None
        cls = next(iter(classes))
        return (f"{'may be' if root in facts.params else 'is'} an instance of `{cls}`, an `np.ndarray` "
                f"subclass of the run whose `{classes[cls]}` attribute `jax.numpy` reads as the array's "
                f"{'layout' if classes[cls] == 'format' else 'sharding'} (it raises `AttributeError`; `jnp.asarray` "
                "takes it)")

    def _layout_root(self, value: cst.BaseExpression, at: cst.Call, facts: FunctionFacts,
                     classes: dict[str, str]) -> Optional[str]:
        """The parameter or local name `value` is, or NumPy derives it from keeping its class (see `_layout_instance`),
        when that may be an instance of one of `classes`; else None."""
        if isinstance(value, cst.BinaryOperation):
            return self._layout_root(value.left, at, facts, classes) or self._layout_root(value.right, at, facts, classes)
        if isinstance(value, cst.UnaryOperation):
            return self._layout_root(value.expression, at, facts, classes)
        if isinstance(value, cst.Subscript) or isinstance(value, cst.Attribute) and value.attr.value in _CLASS_KEEPING_ATTRIBUTES:
            return self._layout_root(value.value, at, facts, classes)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and value.func.attr.value in _CLASS_KEEPING_METHODS:
            return self._layout_root(value.func.value, at, facts, classes)
        if not isinstance(value, cst.Name):
            return None
        if value.value in facts.params:
            return value.value if _list_inputs.unbound_before(self, value.value, at, some=True) else None
        bound = facts.bindings.get(value.value, [])
        makers = _layout_makers(self.context.module, classes)
        return value.value if bound and any(v is not None and _makes_layout(v, classes, makers) for v in bound) else None

    def _callable_result(self, value: cst.BaseExpression, at: cst.CSTNode, facts: FunctionFacts) -> Optional[str]:
        """Why `value` may be a Python list: it is what a callable a caller gives returns, called here (`fun(x)` of a
        parameter `fun` of the function or of a function enclosing it, still as given; `self.fun(x)` of an attribute
        a method stores a parameter into, which names no function of the module): scipy's `np.atleast_1d(
        constraint_fun(x))`, the user's constraint returning a list, which NumPy converts and `jax.numpy` rejects
        (`jnp.asarray` of an array costs nothing); else None."""
        fn = self.current_function
        if fn is None or not isinstance(value, cst.Call):
            return None
        func = value.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self" \
                and func.attr.value in self._given and func.attr.value not in self._module_functions:
            return f"is what `self.{func.attr.value}`, a callable a caller gives, returns (it may return a list)"
        if not isinstance(func, cst.Name):
            return None
        name = func.value
        if name in facts.params:
            given = _list_inputs.unbound_before(self, name, at)
        else:  # a parameter of an enclosing function, which this one does not bind (`def wrap(fun): def f(x): ...`)
            given = name not in facts.bindings and any(
                name in function_facts(self, outer).params and name not in function_facts(self, outer).bindings
                for outer in self._enclosing_functions(fn))
        return f"is what `{name}`, a callable a caller gives, returns (it may return a list)" if given else None

    def _enclosing_functions(self, fn: cst.FunctionDef) -> list[cst.FunctionDef]:
        """The functions `fn` is nested in, innermost first."""
        found: list[cst.FunctionDef] = []
        node: Optional[cst.CSTNode] = self.get_metadata(ParentProvider, fn, None)
        while node is not None:
            if isinstance(node, cst.FunctionDef):
                found.append(node)
            node = self.get_metadata(ParentProvider, node, None)
        return found

    @functools.cached_property
    def _module_functions(self) -> frozenset[str]:
        """The names of the module's functions and methods."""
        return frozenset(f.name.value for f in walk.nodes_of(self.context.module, cst.FunctionDef))  # type: ignore[attr-defined]

    def _listed_parameter(self, value: cst.BaseExpression, at: cst.CSTNode, facts: FunctionFacts) -> Optional[str]:
        """Why `value`, a parameter that may still hold what the caller passed where `at` reads it, may be a Python list
        or tuple: its docstring says so (`lengths : array-like of integers`), or a call in the module passes one
        (`_list_inputs.list_fed_parameters`); else None."""
        fn = self.current_function
        item = self._listed_item(value, at, facts)
        if item is not None:
            return item
        if fn is not None and isinstance(value, cst.Name) and value.value not in facts.params:
            return self._caught_alias(value.value, at, facts)
        if fn is None or not isinstance(value, cst.Name) or value.value not in facts.params \
                or not _list_inputs.unbound_before(self, value.value, at, some=True):
            return None
        evidence = self._sequence_evidence(fn, value.value)
        if evidence is not None:
            return evidence
        if isinstance(at, cst.Call) and numpy_name(self, at.func) in _LIST_TAKING_CONVERSIONS \
                and not isinstance_guards(self, at).get(value.value):
            # `azimuth = np.atleast_1d(azimuth)` (pyfar's sph2cart): the function's own conversion of what the caller
            # gives, which NumPy's takes as a list too; `jnp.atleast_1d` rejects one
            return (f"the function converts with `{self.code(at.func)}` as it was given, so it may be a list or tuple "
                    "(NumPy's conversion takes one)")
        converted = self._converted(value.value, lambda d: isinstance(d, cst.Param), at)
        if converted is not None and not self._array_guarded(converted, value.value, at):
            return f"the function converts elsewhere (`{self.code(converted)}`), so it may be a list or tuple"
        return self._caught_list(at)

    def _sequence_evidence(self, fn: cst.FunctionDef, name: str) -> Optional[str]:
        """Why the parameter `name` of `fn` may be given a Python list or tuple, by what the module says of it as a
        whole: its docstring (or an example there), an example in the module's docstrings, a list or tuple default,
        a call in the module (or another module of the run) passing one; else None."""
        if name in documented_sequences(fn, enclosing_class(self, fn)):
            if name in example_sequences(fn, enclosing_class(self, fn)):
                return "an example of its docstring passes a list or tuple"
            return "its docstring says may be a list or tuple"
        if name in self._examples.get(fn.name.value, ()):
            return "an example in the module's docstrings passes a list or tuple"
        default = _display_default(fn, name)
        if default is not None:
            return f"has the default `{self.code(default)}`, a {'list' if isinstance(default, cst.List) else 'tuple'}"
        if name in self._fed.get(fn.name.value, ()):
            if self._elsewhere("list") and name not in _list_inputs.list_fed_parameters(self.context.module).get(
                    fn.name.value, ()):
                return "a call in another module of the run passes a list or tuple"
            return "a call in this module passes a list or tuple"
        return None

    def _caught_list(self, at: cst.CSTNode) -> Optional[str]:
        """Why a parameter read at `at` may be a list or tuple: `at` is in a `try` whose handler catches `TypeError`
        (`TYPE_ERROR_CATCHERS`), where a caller's list, which NumPy takes, would make `jax.numpy` raise and the
        handler hide it (`try: return float(np.mean(np.diff(x)))` / `except Exception: return 1.0`: SciPy's
        newton_cotes); else None (elsewhere a list fails loudly, and parameters are taken for arrays)."""
        caught = sorted(caught_around(self, at) & TYPE_ERROR_CATCHERS)
        if not caught:
            return None
        return (f"is read in a `try` whose `except` catches `{caught[0]}`, which would silently hide the `TypeError` "
                "`jax.numpy` raises on a caller's list or tuple (NumPy takes one)")

    def _caught_alias(self, name: str, at: cst.CSTNode, facts: FunctionFacts) -> Optional[str]:
        """`_caught_list` for a local name every definition reaching `at` binds to a parameter as the caller gave
        it (`y = x`, then `try: np.cumsum(y)`)."""
        values = _list_inputs.reaching_values(self, name, at)
        if not values or not all(isinstance(v, cst.Name) and v.value in facts.params
                                 and _list_inputs.unbound_before(self, v.value, v, some=True) for v in values):
            return None
        return self._caught_list(at)

    @functools.cached_property
    def _given(self) -> frozenset[str]:
        return _list_inputs.given_attributes(self.context.module)

    def _listed_attribute(self, value: cst.BaseExpression, at: cst.CSTNode, facts: FunctionFacts) -> Optional[str]:
        """Why `value` may be a Python list or tuple as an attribute of `self` a method stores a parameter into as
        given (`_list_inputs.given_attributes`), read here directly (`self.N`) or through a local name every
        definition reaching `at` binds to it (`N = self.N`), whose `len()` the function takes (so it is no number:
        a list, a tuple or an array, which `jnp.asarray` leaves as it is): pymcmcstat's `N = self.N`, `if len(N) ==
        1: N = np.ones(nsos) * N`, with `N` the list a caller gave; else None."""
        fn = self.current_function
        if fn is None or not self._given:
            return None

        def attribute(v: Optional[cst.BaseExpression]) -> Optional[str]:
            return v.attr.value if isinstance(v, cst.Attribute) and isinstance(v.value, cst.Name) \
                and v.value.value == "self" and v.attr.value in self._given else None

        def read(v: cst.BaseExpression, where: cst.CSTNode) -> Optional[str]:
            """The attribute `v` reads at `where`: itself, or what a local name's reaching definitions all bind."""
            if isinstance(v, cst.Name) and v.value not in facts.params:
                values = _list_inputs.reaching_values(self, v.value, where) or []
                names = {attribute(d) for d in values}
                return names.pop() if values and len(names) == 1 and None not in names else None
            return attribute(v)

        name = read(value, at)
        if name is None:
            return None
        for call in walk.nodes_of(fn.body, cst.Call):
            if isinstance(call.func, cst.Name) and call.func.value == "len" and len(call.args) == 1 \
                    and not call.args[0].star and read(call.args[0].value, call) == name:  # type: ignore[attr-defined]
                held = f"holds `self.{name}`, which " if isinstance(value, cst.Name) else ""
                return f"{held}a method stores as its caller gave it (and the function takes its `len()`: it may be a list or tuple)"
        return None

    def _array_guarded(self, converted: cst.Call, name: str, at: cst.CSTNode) -> bool:
        """Whether `converted` rebinds `name` under `if not isinstance(name, np.ndarray):` (or a tuple of array types:
        `(np.ndarray, jax.Array)`), a statement of the function's own body before the one holding `at`: past it the
        parameter is an array on every path (tsfresh's `if not isinstance(x, np.ndarray): x = np.asarray(x)`, then
        `np.mean(x)`), which needs no second conversion."""
        fn = self.current_function
        parent = self.get_metadata(ParentProvider, converted, None)
        assign = self.get_metadata(ParentProvider, parent, None) if isinstance(parent, cst.Assign) else None
        if fn is None or not isinstance(parent, cst.Assign) or parent.value is not converted \
                or not any(isinstance(t.target, cst.Name) and t.target.value == name for t in parent.targets):
            return False
        line = assign
        branch = self.get_metadata(ParentProvider, line, None) if isinstance(line, cst.SimpleStatementLine) else None
        guard = self.get_metadata(ParentProvider, branch, None) if isinstance(branch, cst.IndentedBlock) else None
        if not isinstance(guard, cst.If) or guard.orelse is not None or line not in guard.body.body:
            return False
        test = guard.test
        if not (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
                and isinstance(test.expression, cst.Call) and dotted_name(test.expression.func) == "isinstance"
                and len(test.expression.args) == 2 and isinstance(test.expression.args[0].value, cst.Name)
                and test.expression.args[0].value.value == name):
            return False
        kinds = test.expression.args[1].value
        elements = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
        if not elements or not all(dotted_name(e).split(".")[-1] in ("ndarray", "Array") for e in elements):
            return False  # (`(np.ndarray, pd.Series)`: a Series passes, which `jax.numpy` rejects)
        statement = enclosing_statement(self, at)
        while statement is not None and self.get_metadata(ParentProvider, statement, None) is not fn.body:
            statement = self.get_metadata(ParentProvider, statement, None)
        body = list(fn.body.body)
        if not (statement in body and guard in body and body.index(guard) < body.index(statement)):
            return False
        # Every binding of the name reaching the use is the guarded conversion, or the parameter itself (past the
        # guard only where `isinstance` held), or an augmented assignment (`x *= 2`, of an array) of such bindings:
        # not `for x in [[1.0, 2.0]]`, `x = sorted(x)` or `x = x.tolist() if a else x` after the guard, each of
        # which gives a list.
        use = enclosing_statement(self, at)
        flow = function_flow(self, fn)
        if use is None or not flow.knows(use):
            return False
        seen: set[int] = set()

        def arrays(stmt: cst.CSTNode) -> bool:
            for d in flow.reaching(stmt, name):
                if d.node is parent or d.is_parameter or id(d.node) in seen:
                    continue
                seen.add(id(d.node))
                line = self.get_metadata(ParentProvider, d.node, None) if isinstance(d.node, cst.AugAssign) else None
                if line is None or not flow.knows(line) or not arrays(line):
                    return False
            return True
        return arrays(use)

    def _listed_item(self, value: cst.BaseExpression, at: cst.CSTNode, facts: FunctionFacts) -> Optional[str]:
        """Why `value` may be a Python list or tuple as an item of such a parameter (`_listed_parameter`), never
        rebound: `rsi[1]`, or a local name a definition reaching `at` binds to one (`prm = rsi[1]`, then
        `np.argsort(prm)`: sporco's `ndfrom2d`, given `((3, 2, 4), (0, 2, 1))`). A sequence's items, or slices, may
        be sequences too; `jnp.asarray` of anything else an array function takes is that value as an array."""
        def parameter(v: Optional[cst.BaseExpression]) -> Optional[cst.Name]:
            if not isinstance(v, cst.Subscript):
                return None
            while isinstance(v, cst.Subscript):
                if len(v.slice) != 1:
                    return None  # `X[:, j]`: only an array takes a tuple index, and gives an array
                v = v.value
            return v if isinstance(v, cst.Name) and v.value in facts.params and not facts.bindings.get(v.value) else None

        read: Optional[cst.BaseExpression] = value  # the subscript the value is (`rsi[1]`), or one bound to it
        base = parameter(value)
        if base is None and isinstance(value, cst.Name) and value.value not in facts.params:
            read, base = next(((v, b) for v in _list_inputs.reaching_values(self, value.value, at) or ()
                               if (b := parameter(v)) is not None), (None, None))
        if base is None:
            return self._unpacked_item(value, at, facts)
        listed = self._listed_parameter(base, at, facts) if base is not None else None
        if base is None or listed is None or not isinstance(read, cst.Subscript):
            return None
        fn = self.current_function
        sliced = isinstance(read.slice[0].slice, cst.Slice)  # (a slice of a sequence is one: `rest = xs[1:]`)
        if listed.startswith("has the default") and not sliced and fn is not None and _flat_default(fn, base.value):
            return None  # `lim=(0.0, 1.0)`: its items are numbers, as an array's are
        if listed.startswith("a call") and not sliced and fn is not None \
                and base.value not in self._unflat.get(fn.name.value, ()):
            return None  # every call passes a display of arrays or numbers (`(x, y)`: scipy's `_ppoly2d_eval`)
        if sliced and read.value is base:
            return f"is a slice of `{base.value}`, which {listed}"
        return f"is an item of `{base.value}`, which {listed} (and whose items may be lists or tuples too)"

    def _unpacked_item(self, value: cst.BaseExpression, at: cst.CSTNode, facts: FunctionFacts) -> Optional[str]:
        """Why `value` may be a Python list or tuple as a name unpacked from a parameter that still holds what the
        caller passed (`lb, ub = bounds`, every definition of `ub` reaching `at` being such an unpacking): the
        parameter may be a sequence of lists (`_listed_parameter`: `bounds : tuple of numpy.ndarray or list`,
        pyswarms' `nearest`), or the function converts the name elsewhere (`np.array(ub)`: pyswarms' `periodic`, whose
        `np.tile(ub, ...)` got a list); else None."""
        fn = self.current_function
        if fn is None or not isinstance(value, cst.Name) or value.value in facts.params:
            return None
        stmt = enclosing_statement(self, at)
        flow = function_flow(self, fn)
        if stmt is None or not flow.knows(stmt):
            return None
        reaching = flow.reaching(stmt, value.value)
        sources = {_unpacked_source(d.node, value.value) for d in reaching}
        if not reaching or len(sources) != 1 or None in sources:
            return None
        base = next(iter(sources))
        if base is None or base.value not in facts.params:
            return None
        unpacking = next(d.node for d in reaching)
        listed = self._listed_parameter(base, unpacking, facts)  # (the parameter as the unpacking reads it)
        if listed is not None and listed.startswith("has the default") and _flat_default(fn, base.value):
            listed = None  # `lo, hi = lim` with `lim=(0.0, 1.0)`: numbers, as an array's rows may be
        if listed is not None and not (listed.startswith("a call") and base.value not in self._unflat.get(fn.name.value, ())):
            return f"is unpacked from `{base.value}`, which {listed} (and whose items may be lists or tuples too)"
        nodes = {d.node for d in reaching}
        converted = self._converted(value.value, lambda d: d in nodes, at)
        if converted is not None:
            return (f"is unpacked from `{base.value}`, and the function converts it elsewhere (`{self.code(converted)}`), "
                    "so it may be a list or tuple")
        return None

    def _converted(self, name: str, holds: Callable[[Optional[cst.CSTNode]], bool], at: cst.CSTNode) -> Optional[cst.Call]:
        """A NumPy call of the current function other than `at` that converts `name` to an array (`np.array(ub)`,
        `np.asarray(x)`: a sign that it may be a list or tuple) where a definition `holds` accepts (the parameter, or
        one unpacking) reaches it, else None."""
        fn = self.current_function
        if fn is None:
            return None
        found = self._conversions.get(fn)
        if found is None:
            found = {}
            for call in walk.nodes_of(fn.body, cst.Call):
                # (NumPy's, as the author wrote it: not a `jnp.asarray(x)` a rewrite of jaxfix's adds, `x_jax =
                # jnp.asarray(x)` before a `fori_loop`)
                short = (numpy_name(self, call.func) or "").split(".")[-1]  # type: ignore[attr-defined]
                first = call.args[0] if call.args else None  # type: ignore[attr-defined]
                if short in ARRAY_CONVERSIONS and first is not None and first.keyword is None and not first.star \
                        and isinstance(first.value, cst.Name):
                    found.setdefault(first.value.value, []).append(call)  # type: ignore[arg-type]
            self._conversions[fn] = found
        flow = function_flow(self, fn)
        for call in found.get(name, ()):
            if call is at or self._array_branch(call, name):
                continue  # (`if isinstance(x, np.ndarray): x = np.atleast_2d(x)`: an array there, no sign of a list)
            stmt = enclosing_statement(self, call)
            if stmt is not None and flow.knows(stmt) and any(holds(d.node) for d in flow.reaching(stmt, name)):
                return call
        return None

    def _array_branch(self, node: cst.CSTNode, name: str) -> bool:
        """Whether `node` lies where an `if` around it (within its function) says `name` is an array: in the body
        of `if isinstance(name, np.ndarray)` (an `and`-ed part of the test; every type an array type), or in the
        `else` of `if not isinstance(name, np.ndarray)`. A conversion there (python-control's `if isinstance(other,
        np.ndarray): other = np.atleast_2d(other)`) converts an array, no sign that the name may be a list
        elsewhere (in the `else`, where it may be any object: a system whose `__rmul__` NumPy defers to)."""
        def array_test(test: cst.BaseExpression) -> bool:
            return isinstance(test, cst.Call) and dotted_name(test.func) == "isinstance" and len(test.args) == 2 \
                and isinstance(test.args[0].value, cst.Name) and test.args[0].value.value == name and all(
                    dotted_name(e).split(".")[-1] in ("ndarray", "Array") for e in (
                        [e.value for e in test.args[1].value.elements] if isinstance(test.args[1].value, cst.Tuple)
                        else [test.args[1].value]))

        child, current = node, self.get_metadata(ParentProvider, node, None)
        while current is not None and not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            if isinstance(current, cst.If):
                if child is current.body:
                    parts = [current.test]
                    while parts:
                        part = parts.pop()
                        if isinstance(part, cst.BooleanOperation) and isinstance(part.operator, cst.And):
                            parts += [part.left, part.right]
                        elif array_test(part):
                            return True
                elif child is current.orelse and isinstance(current.test, cst.UnaryOperation) \
                        and isinstance(current.test.operator, cst.Not) and array_test(current.test.expression):
                    return True
            child, current = current, self.get_metadata(ParentProvider, current, None)
        return False

    @functools.cached_property
    def _deferring_class(self) -> Optional[str]:
        """The first class of the module whose body sets `__array_priority__` or `__array_ufunc__` (python-control's
        systems): NumPy arrays, and JAX arrays, defer an operation with its object to the object's reflected operator
        (`__rmul__`), while `jnp.asarray` of it raises; else None."""
        for cls in walk.nodes_of(self.context.module, cst.ClassDef):
            for line in cls.body.body:  # type: ignore[attr-defined]
                names = [t.target for s in line.body if isinstance(s, cst.Assign) for t in s.targets] \
                    if isinstance(line, cst.SimpleStatementLine) else [line.name] if isinstance(line, cst.FunctionDef) else []
                if any(isinstance(n, cst.Name) and n.value in ("__array_priority__", "__array_ufunc__") for n in names):
                    return cls.name.value  # type: ignore[attr-defined]
        return None

    @functools.cached_property
    def _conversions(self) -> dict[cst.FunctionDef, dict[str, list[cst.Call]]]:
        """{function: {name: the calls converting it to an array}} (`_converted`), filled once per function."""
        return {}

    def _sequence_result(self, value: cst.BaseExpression, at: Optional[cst.CSTNode] = None) -> bool:
        """`lengths(a, b)` or `self.lengths()` where the module's `lengths` always returns a list or tuple
        (`_list_inputs.sequence_functions`); with `at`, also a local name whose definitions reaching `at` all bind
        such a call (`shapes = sizes(blocks)`, then `np.sum(shapes)`: GPy's block matrices), or unpack a call of a
        function that returns lists or tuples there (`values, lengths = merge_lengths(values, lengths)`, with
        `return ret_values, ret_lengths`: trimesh's rle, `_list_inputs.sequence_item_functions`)."""
        if isinstance(value, cst.Name) and at is not None:
            stmt = enclosing_statement(self, at)
            if self.current_function is None or stmt is None:
                return False
            try:
                found = function_flow(self, self.current_function).reaching(stmt, value.value)
            except KeyError:  # a statement the flow does not hold (in a nested function)
                return False
            return bool(found) and all(self._sequence_definition(d.node, value.value) for d in found)
        if isinstance(value, cst.Subscript) and at is not None and isinstance(value.value, cst.Name) \
                and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index):
            # `history[-1]`, with `history = [objective(x)]` grown by `history.append(objective(y))`: an item of a
            # list of such results (pyunlocbox's solver history)
            # (any such item: `jnp.asarray` of an item that is an array already costs nothing)
            return any(self._sequence_result(item) for item in self._list_items(value.value.value))
        if isinstance(value, cst.Attribute):  # `sys.num`, a property of the module returning nested lists
            return value.attr.value in self._returning_properties
        name = self._callee(value)
        return name is not None and name in self._returning

    def _sequence_definition(self, node: Optional[cst.CSTNode], name: str) -> bool:
        """A definition of `name` binding what `_sequence_result` takes for a list or tuple: `name = sizes(blocks)`,
        or `..., name, ... = merge(...)` at a position where `merge` always returns one."""
        if not isinstance(node, cst.Assign) or len(node.targets) != 1:
            return False
        target = node.targets[0].target
        if isinstance(target, cst.Name):
            return target.value == name and self._sequence_result(node.value)
        if not isinstance(target, (cst.Tuple, cst.List)) or any(isinstance(e, cst.StarredElement) for e in target.elements):
            return False
        callee = self._callee(node.value)
        count, positions = self._returning_items.get(callee, (0, frozenset())) if callee is not None else (0, frozenset())
        return len(target.elements) == count and any(
            i in positions and isinstance(e.value, cst.Name) and e.value.value == name for i, e in enumerate(target.elements))

    @staticmethod
    def _callee(value: cst.BaseExpression) -> Optional[str]:
        """The name of the module's function or method a call calls: `lengths(a, b)`, `self.lengths()`; else None."""
        if not isinstance(value, cst.Call):
            return None
        func = value.func
        return func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) \
            and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls") else None

    def _list_items(self, name: str) -> list[cst.BaseExpression]:
        """The items of the local list `name`: the elements of the list displays it is bound to
        and the values the function appends (or adds as a list display, `+=`) to it, anywhere in the function (a
        read of a name bound to something else too is at most wrapped needlessly); [] unless the function binds it to
        a list display."""
        function = self.current_function
        if function is None:
            return []
        displays = [a.value for a in walk.nodes_of(function.body, cst.Assign) if isinstance(a.value, cst.List)  # type: ignore[attr-defined]
                    and any(isinstance(t.target, cst.Name) and t.target.value == name for t in a.targets)]  # type: ignore[attr-defined]
        if not displays:
            return []
        items = [e.value for display in displays for e in display.elements]  # type: ignore[attr-defined]
        for aug in walk.nodes_of(function.body, cst.AugAssign):  # `seen += [values(fs, x)]`
            if isinstance(aug.target, cst.Name) and aug.target.value == name and isinstance(aug.value, cst.List):  # type: ignore[attr-defined]
                items += [e.value for e in aug.value.elements]  # type: ignore[attr-defined]
        for call in walk.nodes_of(function.body, cst.Call):
            func = call.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name \
                    and func.attr.value == "append" and len(call.args) == 1:  # type: ignore[attr-defined]
                items.append(call.args[0].value)  # type: ignore[attr-defined]
        return items

    def _sequence_attribute(self, value: cst.BaseExpression, facts: FunctionFacts) -> bool:
        """`self.dims`, or `basis.knots` of any object the function holds (a parameter, a local, `self.basis`), where
        the module only ever sets an attribute of that name to a list or tuple (`_list_inputs.sequence_attributes`:
        skfda's `self.knots = tuple(knots)`, then `np.diff(basis.knots)`). `jnp.asarray` of it is a no-op if it
        is an array after all. Not an attribute of a module-level name (`np.pi`, a module's constant)."""
        if not (isinstance(value, cst.Attribute) and value.attr.value in self._attributes):
            return False
        root = value.value
        while isinstance(root, cst.Attribute):
            root = root.value
        return isinstance(root, cst.Name) and (root.value in ("self", "cls") or root.value in facts.params
                                               or root.value in facts.bindings)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        """`jnp.fliplr(v) * [-1.0, 1.0]`, `u + range(n)`, `A @ cell` with `A = [[0, 1], [1, -1]]`: a NumPy array takes a
        list or range operand as an array, a JAX array raises."""
        fn = self.current_function
        if fn is None:
            return
        if boundary(self).host_meeting(node, fn) is not None:
            return  # `ifft(H * np.exp(x))`: JX501 keeps what goes into `scipy.fftpack` NumPy, which takes a list `H`
        facts = function_facts(self, fn)
        for operand, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(operand, (cst.Name, cst.Attribute)) and _array_inputs.made_array(other, facts):
                listed = self._listed_parameter(operand, node, facts) if isinstance(operand, cst.Name) else None
                listed = listed or self._listed_attribute(operand, node, facts)  # (`N = self.N`: pymcmcstat)
                if listed is not None and self._hoisted_read(operand):
                    continue  # `points = jnp.asarray(points)` first in the function covers it
                if listed is not None:  # `dots[:, None] * normal + points`, `points : array_like` (scikit-spatial)
                    text = f"{self.jnp}.asarray({self.code(operand)})"
                    deferring = self._deferring_class
                    why = "" if deferring is None else (
                        f"; but the module's class `{deferring}` sets `__array_priority__`/`__array_ufunc__`: the operand "
                        "may be one of its objects, whose reflected operator NumPy and JAX arrays both defer to, and "
                        "which `jnp.asarray` rejects")
                    self.report(operand, f"an array meets `{self.code(operand)}`, which {listed}, in an operation: NumPy "
                                "reads a list as an array, a JAX array raises `TypeError`; convert it with `jnp.asarray`"
                                + why, replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",),
                                unsafe=deferring is not None)
                    continue
            if not isinstance(other, (cst.Call, cst.Name, cst.Subscript)):
                continue
            # no Python value but an array takes a range operand; a tuple (a shape, `(1.0, 2.0)`) only one the
            # function makes (`np.shape(x) + (1,)` and a parameter's `+` may join tuples): `off += X.shape` (arch)
            kind = "range" if is_range(operand) else "tuple" if self._tuple_operand(operand, node, facts) else "list"
            if kind == "tuple" and (self._tuple_operand(other, node, facts) or not _array_inputs.made_array(other, facts)):
                continue
            if kind == "list" and not isinstance(operand, (cst.List, cst.ListComp)) \
                    and not _list_inputs.sequence_here(self, operand, node, facts, some=True) \
                    and not _list_inputs.list_row(fn, operand, facts):  # `rows[i] * x`, `rows = [[] for ...]`
                continue  # a name a list display reaches: `w = [1.0, 2.0]`, or `q = [1]` under `if q is None:` (nolds)
            if isinstance(operand, cst.List) and any(is_text(e.value) for e in operand.elements) or \
                    isinstance(operand, cst.ListComp) and is_text(operand.elt):
                continue  # `["iter: {:d}".format(n)] + lines`: a list of text concatenates; no array holds text
            # `+` may concatenate two sequences and `*` repeat one (`n * [0.0]`); `-`, `/`, `@` never do either
            joins = isinstance(node.operator, (cst.Add, cst.Multiply))
            joined = other  # `cs[:1] + [v]`: a slice of a list is a list, which `+` concatenates (scipy's gcrotmk)
            while isinstance(joined, cst.Subscript) and all(isinstance(e.slice, cst.Slice) for e in joined.slice):
                joined = joined.value
            if joins and kind != "range" and isinstance(other, cst.Name) and (
                    other.value in facts.params or _list_inputs.sequence(other, facts)):
                continue  # `acc + [v]` of a list parameter, `[c] + coeffs` of a local list, concatenates (nodepy's pade)
            if joins and kind != "range" and self._list_slice(other, facts):
                continue  # `cs[:1] + [v]` of a parameter given lists, `self.fab[:2] + [fd]` of a list attribute
            if joins and kind != "range" and (self._may_be_list(other, facts) or isinstance(joined, cst.Name) and any(
                    v is not None and self._may_be_list(v, facts) for v in _list_inputs.reaching_values(self, joined.value, node) or ())):
                continue  # `pts + [0.0]` with `pts = pts_list(n)`: a helper may return a list, which `+` concatenates
            if joins and (isinstance(other, cst.Call) and isinstance(other.func, cst.Name) and other.func.value in (
                    "list", "tuple", "sorted", "reversed") or self._sequence_result(other)):
                continue  # `[len(i)] + list(dims[2:])`, `[r] + kwargs_text(...)`: Python sequences concatenate
                # (pylops' bilinear; chaospy's reprs, of a function of the module that returns a list)
            if joins and isinstance(other, cst.Subscript) and any(
                    isinstance(e.slice, cst.Index) and isinstance(e.slice.value, (cst.SimpleString, cst.ConcatenatedString))
                    for e in other.slice):
                continue  # `d["k"] + [v]`: a mapping's entry, which may be a list or an int
            if kind != "range" and isinstance(node.operator, cst.Multiply) and operand is node.left:
                continue  # `[0.0] * n`: an int (a NumPy int too, through `__index__`) repeats the list
            if _array_inputs.is_array(self, other, facts, node):
                code, text = self.code(operand), f"{self.jnp}.asarray({self.code(operand)})"
                self.report(operand, f"the array `{self.code(other)}` meets a Python {kind} (`{code}`) in an operation: "
                            "NumPy reads it as an array, a JAX array raises `TypeError`; convert it with `jnp.asarray`",
                            replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",))

    def visit_Comparison(self, node: cst.Comparison) -> None:
        """`ary == c` for `c` in `itertools.product([0, 1], repeat=k)`: NumPy compares the array with the tuple as
        an array, a JAX array raises `TypeError` (mlxtend's Cochran's Q)."""
        fn = self.current_function
        if fn is None or any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in node.comparisons):
            return
        operands = [node.left, *(c.comparator for c in node.comparisons)]
        facts = function_facts(self, fn)
        for operand in operands:
            if isinstance(operand, (cst.List, cst.Tuple)) and operand.elements and not any(
                    isinstance(e, cst.StarredElement) or is_text(e.value) for e in operand.elements):
                # (an array the function makes: a parameter, `list(y)`, `np.shape(y)` or `y.tolist()` may be a
                # sequence, which a display compares with as a whole)
                other = next((o for o in operands if o is not operand and isinstance(o, (cst.Call, cst.Name, cst.Subscript))
                              and _array_inputs.made_array(o, facts)), None)
                if other is not None:  # `np.all(y == [1.0, 0.0])`: NumPy compares elementwise
                    self._convert(operand, f"the array `{self.code(other)}` is compared with a Python "
                                  f"{'list' if isinstance(operand, cst.List) else 'tuple'} (`{self.code(operand)}`): NumPy "
                                  "reads it as an array, a JAX array raises `TypeError`")
                continue
            if not isinstance(operand, cst.Name):
                continue
            if _list_inputs.tuple_item(fn, operand.value):
                what = "a tuple of `itertools` or `zip`"
            elif _list_inputs.sequence_here(self, operand, node, facts, some=True):
                # `SDs >= t * np.max(SDs)` with `SDs = [np.std(c) for c in ...]`: NumPy's float64 on the right
                # compares the list as an array (neurokit2's ICA component filter)
                what = "a Python list or tuple"
            else:
                continue
            other = next((o for o in operands if o is not operand and _array_inputs.made_array(o, facts)), None)
            if other is not None:
                text = f"{self.jnp}.asarray({operand.value})"
                self.report(operand, f"the array `{self.code(other)}` is compared with `{operand.value}`, {what}: NumPy "
                            "reads it as an array, a JAX array raises `TypeError`; convert it with `jnp.asarray`",
                            replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        """`group += [10, 20, 30]` on an array: NumPy adds the list elementwise, a JAX array raises."""
        fn = self.current_function
        value = node.value
        if fn is None or isinstance(node.operator, cst.MatrixMultiplyAssign) or not isinstance(node.target, cst.Name):
            return
        facts = function_facts(self, fn)
        listed = isinstance(value, (cst.List, cst.ListComp)) or is_range(value)
        if not listed and not self._tuple_operand(value, node, facts):
            return
        if node.target.value in facts.params or not _array_inputs.is_array(self, node.target, facts, node):
            return  # `acc += [v]` of a list
        made = [v for v in facts.bindings.get(node.target.value, []) if v is not None]  # (`+=` binds None)
        if not listed and not (made and all(_array_inputs.made_array(v, facts) for v in made)):
            return  # a tuple joined to what may be one (`s = np.shape(x)`, then `s += (1,)`)
        if made and all(isinstance(v, (cst.List, cst.ListComp)) or _list_inputs.list_call(v) for v in made):
            return  # `arr = [*Cs]` then `arr += [*ps]`: `+=` extends a list, which stays a list (POT's barycenters)
        if isinstance(node.operator, cst.AddAssign) and any(
                v is not None and (self._may_be_list(v, facts) or self._list_slice(v, facts))
                for v in _list_inputs.reaching_values(self, node.target.value, node) or ()):
            return  # `pts = pts_list(n)` then `pts += [-i for i in pts]`: a helper's list, which `+=` extends (fluids);
            # `arrays = cs[:1]` of a list parameter, then `arrays += [v]`
        code, text = self.code(value), f"{self.jnp}.asarray({self.code(value)})"
        kind = "range" if is_range(value) else "list" if listed else "tuple"
        self.report(value, f"the array `{node.target.value}` is updated with a Python {kind} "
                    f"(`{code}`): NumPy reads it as an array, a JAX array raises `TypeError`; convert it with `jnp.asarray`",
                    replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",))

    def _list_slice(self, value: cst.BaseExpression, facts: FunctionFacts) -> bool:
        """`cs[:1]`, `cs[1:][:2]`, `self.ends[:1]`: a slice of a parameter the module gives lists (`_list_parameter`),
        of a local name bound only to lists, or of an attribute the module sets only to lists; a list, which `+`
        concatenates. A parameter without such evidence is taken for an array, as elsewhere: `cs[:1] + [v]` adds."""
        base = value
        while isinstance(base, cst.Subscript) and all(isinstance(e.slice, cst.Slice) for e in base.slice):
            base = base.value
        if base is value:
            return False
        if isinstance(base, cst.Name) and base.value in facts.params:
            return self._list_parameter(base.value, value)
        return isinstance(base, cst.Name) and _list_inputs.sequence(base, facts) or self._sequence_attribute(base, facts)

    def _list_parameter(self, name: str, at: cst.CSTNode) -> bool:
        """Whether the parameter `name`, still as the caller gave it where `at` reads it, is a Python list or tuple by
        what the module says (`_sequence_evidence`, a list or tuple default even empty: `cs=()`) or does with it (a
        list-only method called on it: `cs.append(v)`)."""
        fn = self.current_function
        if fn is None or not _list_inputs.unbound_before(self, name, at):
            return False
        params = [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]
        if any(p.name.value == name and isinstance(p.default, (cst.List, cst.Tuple)) for p in params) \
                or self._sequence_evidence(fn, name) is not None:
            return True
        return any(isinstance(c.func, cst.Attribute) and c.func.attr.value in _LIST_ONLY_METHODS
                   and isinstance(c.func.value, cst.Name) and c.func.value.value == name
                   for c in walk.nodes_of(fn, cst.Call))  # type: ignore[attr-defined]

    def _tuple_operand(self, value: cst.BaseExpression, at: cst.CSTNode, facts: FunctionFacts) -> bool:
        """A Python tuple of numbers: a tuple display (no text, no starred item), a shape (`X.shape`, `np.shape(X)`,
        `np.broadcast_shapes(...)`, a slice of one: `X.shape[1:]`), or a local name every definition of which
        reaching `at` binds one (`s = X.shape`)."""
        if isinstance(value, cst.Tuple):
            return bool(value.elements) and not any(isinstance(e, cst.StarredElement) or is_text(e.value)
                                                    for e in value.elements)
        if isinstance(value, cst.Attribute):
            return value.attr.value == "shape"
        if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Attribute) \
                and all(isinstance(e.slice, cst.Slice) for e in value.slice):
            return value.value.attr.value == "shape"
        if isinstance(value, cst.Call):
            return facts.array_function(value.func) in ("shape", "broadcast_shapes")
        if not isinstance(value, cst.Name) or value.value in facts.params:
            return False
        values = _list_inputs.reaching_values(self, value.value, at)
        return bool(values) and all(v is not None and not isinstance(v, cst.Name) and self._tuple_operand(v, at, facts)
                                    for v in values)

    def _may_be_list(self, value: cst.BaseExpression, facts: FunctionFacts) -> bool:
        """A value that may be a Python list (which `+` / `+=` concatenates): a list display, comprehension or
        sequence call, or a call not known to give an array (a helper of the module may return a list; being traced
        says nothing about that)."""
        if isinstance(value, (cst.List, cst.ListComp)) or _list_inputs.list_call(value):
            return True
        if not isinstance(value, cst.Call):
            return False
        func = value.func
        if facts.array_function(func) is not None:
            return False
        return not (isinstance(func, cst.Attribute) and func.attr.value in _array_inputs.ARRAY_METHODS
                    - _array_inputs.PYTHON_VALUE_METHODS and _array_inputs.is_array(self, func.value, facts))

    def _stacked(self, node: cst.Call, name: str) -> None:
        """`np.concatenate([[m], rest])`, `np.hstack([[f(i) for i in r], rest])`, `np.vstack((a, pairs))` with `pairs = []` grown by `.append`: the inner list
        is a list, which `jnp.concatenate` rejects."""
        first = node.args[0].value if node.args and node.args[0].keyword is None else None
        rows = isinstance(first, cst.Name) and self.current_function is not None \
            and _list_inputs.rows_of_lists(self.current_function, first.value)
        if rows or first is not None and _list_inputs.tuple_rows(first):
            assert first is not None and self.current_function is not None
            row = next(n for n in ("row", "r", "item", "x_") if n not in walk.name_values(self.current_function))
            text = f"[{self.jnp}.asarray({row}) for {row} in {self.code(first)}]"
            how = "each appended as a list or tuple display" if rows else "each made a tuple"
            self.report(first, f"`{self.code(node.func)}` is given `{self.code(first)}`, a list of Python lists or "
                        f"tuples ({how}): NumPy converts each of them, `jax.numpy` rejects them; convert each with "
                        "`jnp.asarray`", replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",))
            return
        facts = function_facts(self, self.current_function) if self.current_function is not None else None
        if isinstance(first, cst.ListComp) and facts is not None and _object_result(first.elt, facts):
            # `np.vstack([ax.get_ylim() for ax in axes])`: a method no array has may give a tuple (obspy's waveform
            # plots), which NumPy converts and `jax.numpy` rejects; `jnp.asarray` of an array costs nothing
            text = f"{self.jnp}.asarray({self.code(first.elt)})"
            self.report(first.elt, f"`{self.code(node.func)}` is given a list of `{self.code(first.elt)}`, the result of "
                        "a method no array has, which may be a Python list or tuple: NumPy converts each, `jax.numpy` "
                        "rejects them; convert each with `jnp.asarray`", replacement=self.expr(text),
                        title=f"replace with `{text}`", imports=("jnp",))
            return
        if isinstance(first, cst.ListComp) and any(isinstance(b, (cst.List, cst.Tuple, cst.ListComp))
                                                  for b in _list_inputs.branches(first.elt)):
            # `np.concatenate([[row[i:i + 2]] for row in rows for i in ...])` (ordpy): each item is a list display
            # (a name there may be the comprehension's own target, which the function's bindings do not tell)
            text = f"{self.jnp}.asarray({self.code(first.elt)})"
            self.report(first.elt, f"`{self.code(node.func)}` is given a list of Python lists or tuples "
                        f"(`{self.code(first.elt)}`) as the arrays it joins: NumPy converts each, `jax.numpy` rejects "
                        "them; convert each with `jnp.asarray`", replacement=self.expr(text),
                        title=f"replace with `{text}`", imports=("jnp",))
            return
        if not isinstance(first, (cst.List, cst.Tuple)):
            return
        for element in first.elements:
            inner = element.value
            if self._joined_sequence(inner, node, facts) and not isinstance(element, cst.StarredElement):
                text = f"{self.jnp}.asarray({self.code(inner)})"
                self.report(inner, f"`{self.code(node.func)}` is given a Python list or tuple (`{self.code(inner)}`) "
                            "among the arrays it joins: `jax.numpy` rejects it; convert it with `jnp.asarray`",
                            replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",))

    def _joined_sequence(self, inner: cst.BaseExpression, node: cst.Call, facts: Optional[FunctionFacts]) -> bool:
        """`inner`, one of the arrays `node` (a join) is given, may be a Python list or tuple (`_stacked`)."""
        listed = isinstance(inner, cst.BinaryOperation) and facts is not None \
            and _list_inputs.sequence(inner, facts)  # a list repeated or joined: `[f[0]] * k` (obspy's padding)
        listed = listed or facts is not None and _object_result(inner, facts)  # `(ax.get_ylim(), lim)`
        listed = listed or isinstance(inner, cst.Name) and facts is not None and (
            _list_inputs.sequence(inner, facts, tuples=False)  # a list only, or a list display on some path
            or _list_inputs.sequence_here(self, inner, node, facts, some=True)  # (`output = []`, then joined in a loop)
            or self._sequence_result(inner, node))  # (`values, lengths = merge_lengths(...)`: trimesh's rle)
        # `np.concatenate([x.shape[:1], v])`, `np.hstack((s, v))` with `s = x.shape`: a shape is a Python tuple
        listed = listed or facts is not None and not isinstance(inner, cst.Tuple) \
            and self._tuple_operand(inner, node, facts)
        listed = listed or isinstance(inner, cst.IfExp) and facts is not None and any(  # `[0] * n if p else c`
            isinstance(b, (cst.List, cst.Tuple, cst.ListComp)) or isinstance(b, cst.BinaryOperation)
            and _list_inputs.sequence(b, facts) for b in _list_inputs.branches(inner))
        return isinstance(inner, (cst.List, cst.Tuple, cst.ListComp)) or bool(listed)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        fn = self.current_function
        if fn is None:
            return
        facts = function_facts(self, fn)

        def a_range(value: cst.BaseExpression) -> bool:  # `range(n)`, or `di` with `di = range(n)` only
            if isinstance(value, cst.Name) and value.value not in facts.params:
                values = facts.bindings.get(value.value, [])
                return bool(values) and all(v is not None and is_range(v) for v in values)
            return is_range(value)

        if self._index_tuple(node, facts, a_range) or self._listed_index(node, facts):
            return
        ranges = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index) and a_range(e.slice.value)]
        if ranges and _array_inputs.is_array(self, node.value, facts, node):
            for index in ranges:
                text = f"{self.jnp}.asarray({self.code(index)})"
                self.report(index, f"`{self.code(node.value)}` is indexed by a `range` (`{self.code(index)}`): NumPy "
                            "reads it as an integer array, `jax.numpy` raises `TypeError`; index with `jnp.asarray` of it",
                            replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",))
            return
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return
        index = node.slice[0].slice.value
        if not isinstance(index, (cst.List, cst.ListComp, cst.Name, cst.Subscript)):
            return
        unsure = False  # a list on some path only, and on another what may not be an integer array
        if not _list_inputs.sequence(index, facts, tuples=False):
            some = self._list_on_some_path(index, node, facts)
            if some is None:
                return
            unsure = not some
        if _list_inputs.booleans(index, facts) or _list_inputs.slices(index, facts) or _list_inputs.texts(index, facts):
            return  # `df[["date", "time"]]`: column names select from a table, no array holds text
        if not _array_inputs.is_array(self, node.value, facts, node):
            return
        if isinstance(index, cst.List) and any(isinstance(e.value, cst.Name) for e in index.elements) \
                and _array_inputs.object_method_result(node.value, facts):
            return  # `df.groupby("Time")[[col]]`: names may be column keys of an object that is no array
        why = (f"`{self.code(node.value)}` is indexed by a Python list (`{self.code(index)}`): NumPy reads it as an "
               "integer array, `jax.numpy` raises `TypeError`")
        if _list_inputs.counters(index, facts):  # (loop counters may be none: `jnp.asarray([])` is a float array)
            text = f"{self.jnp}.asarray({self.code(index)}, dtype=int)"
            self.report(index, f"{why}; index with `jnp.asarray` of it", replacement=self.expr(text),
                        title=f"replace with `{text}`", imports=("jnp",))
        elif isinstance(index, cst.Name) and self.current_function is not None \
                and _list_inputs.may_be_empty(self.current_function, index.value):
            self._convert_indices(index, why)  # `keep = []`, grown in a loop: maybe no index at all
        elif unsure:
            text = f"{self.jnp}.asarray({self.code(index)})"
            self.report(index, f"{why} (on some path; on another it may be a tuple, one index per axis, which "
                        "`jnp.asarray` would make one index array, or a `slice`, which is no array); index with "
                        "`jnp.asarray` of it", replacement=self.expr(text), title=f"replace with `{text}`",
                        imports=("jnp",), unsafe=True, blocks_function=True)  # (else JX501 makes the array JAX)
        else:
            text = f"{self.jnp}.asarray({self.code(index)})"
            self.report(index, f"{why}; index with `jnp.asarray` of it", replacement=self.expr(text),
                        title=f"replace with `{text}`", imports=("jnp",))

    def _list_on_some_path(self, index: cst.BaseExpression, at: cst.CSTNode, facts: FunctionFacts) -> Optional[bool]:
        """For a name bound to a list display or comprehension on some path reaching `at` only (`dim = [dim]` in one
        branch, `dim = np.arange(n)` in the other, or a parameter rebound to a list: PyEMD's `np.array(x.shape)[dim]`):
        True when every other value reaching it is an array a NumPy call makes (`jnp.asarray` leaves it as it is),
        False when one may be something else (a parameter as given, a tuple: one index per axis); None when no list
        display reaches it."""
        if not isinstance(index, cst.Name):
            return None
        values = _list_inputs.reaching_values(self, index.value, at)
        if not values or not any(isinstance(v, (cst.List, cst.ListComp)) for v in values):
            return None
        return all(isinstance(v, (cst.List, cst.ListComp)) or isinstance(v, cst.Call) and facts.array_function(v.func)
                   is not None and facts.array_function(v.func).split(".")[-1] in _INDEX_ARRAY_MAKERS for v in values)

    def _index_tuple(self, node: cst.Subscript, facts: FunctionFacts, a_range: Callable[[cst.BaseExpression], bool]) -> bool:
        """`m = (range(n), cols)`, then `x[m] = v[m]` (emcee's Gaussian move): a name every binding reaching the index
        binds to a tuple display is several indices, one per axis; a `range` or a list among them is an integer
        array to NumPy, which `jax.numpy` (and `.at[m]`) rejects. Each is converted where the tuple is made
        (`jnp.asarray` of the whole tuple would make one index array of it). Whether `node` was such an index."""
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return False
        index = node.slice[0].slice.value
        if not isinstance(index, cst.Name) or index.value in facts.params:
            return False
        values = _list_inputs.reaching_values(self, index.value, node)
        if not values or not all(isinstance(v, cst.Tuple) for v in values):
            return False
        items = [e.value for v in values for e in v.elements if not isinstance(e, cst.StarredElement)
                 and (a_range(e.value) or isinstance(e.value, (cst.List, cst.ListComp)) and not _list_inputs.texts(e.value, facts))]
        if not items or not _array_inputs.is_array(self, node.value, facts, node):
            return False
        done = self.__dict__.setdefault("_converted_items", set())
        for item in items:
            if id(item) in done:
                continue  # (`x[m] = v[m]`: one conversion for both)
            done.add(id(item))
            text = f"{self.jnp}.asarray({self.code(item)})"
            self.report(item, f"`{self.code(index)}` indexes `{self.code(node.value)}` with a tuple holding "
                        f"`{self.code(item)}`, a Python {'range' if a_range(item) else 'list'}: NumPy reads it as an integer "
                        "array, `jax.numpy` raises `TypeError`; make it an array where the tuple is built",
                        replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",))
        return True

    def _listed_index(self, node: cst.Subscript, facts: FunctionFacts) -> bool:
        """`d[extreme] = np.inf`, with `f(front, [0, 1])` in the module (pymoo's crowding distance): a parameter a
        call passes a Python list, as the only index of an array. NumPy reads the list as an integer array,
        `jax.numpy` raises `TypeError` (`.at[extreme]` too). `jnp.asarray(extreme)` is safe when no call passes a
        tuple (several indices, one per axis, which `jnp.asarray` would make one index array), a `slice(..)`, `None`
        or `...` (`jnp.asarray` raises on a slice). Whether reported."""
        fn = self.current_function
        if fn is None or len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return False
        index = node.slice[0].slice.value
        if not isinstance(index, cst.Name) or index.value not in facts.params:
            return False
        why = self._listed_parameter(index, node, facts)
        if why is None or not _array_inputs.is_array(self, node.value, facts, node):
            return False
        if self._hoisted_read(index):
            return True  # `ends = jnp.asarray(ends)` first in the function covers it
        lists = _list_inputs.list_fed_parameters(self.context.module, lists_only=True).get(fn.name.value, ())
        param = next((p for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)
                      if p.name.value == index.value), None)
        default = param.default if param is not None else None
        safe = index.value in lists and index.value not in _list_inputs.list_fed_parameters(
            self.context.module, tuples_only=True).get(fn.name.value, ()) \
            and not (default is not None and _list_inputs.axis_index(default))  # (`ends=None`: every element)
        text = f"{self.jnp}.asarray({self.code(index)})"
        message = (f"`{self.code(node.value)}` is indexed by `{self.code(index)}`, which {why}: NumPy reads a list as an "
                   "integer array, `jax.numpy` raises `TypeError`; index with `jnp.asarray` of it")
        if not safe:
            message += (" (unsafe: a tuple there is one index per axis, which `jnp.asarray` would make one index array, "
                        "and a `slice`, `None` or `...` is no array; safe if it is always a list or an array)")
        self.report(index, message, replacement=self.expr(text), title=f"replace with `{text}`", imports=("jnp",),
                    unsafe=not safe)
        return True


# NumPy functions that give an integer (or any) array `jnp.asarray` passes as it is, as an index (never a tuple)
# (not `nonzero`, `where`, `unique`: they may give a tuple)
_INDEX_ARRAY_MAKERS = frozenset({"arange", "array", "asarray", "flatnonzero", "argwhere", "argsort", "concatenate",
                                 "concat", "hstack", "atleast_1d", "ravel", "sort"})
# NumPy conversions whose `jax.numpy` namesakes reject a list (`jnp.asarray` takes one): given a parameter as the
# caller gave it, they say it may be a list
_LIST_TAKING_CONVERSIONS = frozenset({"numpy.atleast_1d", "numpy.atleast_2d", "numpy.atleast_3d"})
# `jax.numpy` functions that take an array subclass defining `format` (they read NumPy's buffer first)
_LAYOUT_CONVERSIONS = frozenset({"array", "asarray", "asanyarray"})
# attributes and methods by which NumPy gives an array of the same subclass
_CLASS_KEEPING_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})
_CLASS_KEEPING_METHODS = frozenset({"reshape", "ravel", "flatten", "copy", "squeeze", "transpose", "swapaxes", "astype",
                                    "conj", "conjugate", "take", "repeat", "compress", "diagonal", "clip", "round"})


def _makes_layout(value: cst.BaseExpression, classes: Mapping[str, str], makers: frozenset[str]) -> bool:
    """`Cls(...)` or `x.view(Cls)` of one of `classes`, or a call of a module function among `makers`."""
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    if isinstance(func, cst.Name):
        return func.value in classes or func.value in makers
    if isinstance(func, cst.Attribute) and func.attr.value == "view" and value.args:
        return dotted_name(value.args[0].value).split(".")[-1] in classes
    return isinstance(func, cst.Attribute) and func.attr.value in classes


def _layout_makers(module: cst.Module, classes: Mapping[str, str]) -> frozenset[str]:
    """The module's functions that return an instance of one of `classes` (`return x.view(Cls)`)."""
    return frozenset(f.name.value for f in walk.nodes_of(module, cst.FunctionDef)  # type: ignore[attr-defined]
                     if any(r.value is not None and _makes_layout(r.value, classes, frozenset())  # type: ignore[attr-defined]
                            for r in walk.nodes_of(f.body, cst.Return)))  # type: ignore[attr-defined]


def _object_result(value: cst.BaseExpression, facts: FunctionFacts) -> bool:
    """`ax.get_ylim()`, `row.tolist()`: the result of a method no array has (of an object not the instance's own,
    whose methods the module shows), or a Python value of an array's: maybe a list or tuple."""
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)):
        return False
    if value.func.attr.value in PYTHON_SEQUENCE_METHODS:
        return True
    receiver = value.func.value
    return not (isinstance(receiver, cst.Name) and receiver.value in ("self", "cls")) \
        and _array_inputs.object_method_result(value, facts)


# array methods that give a Python list
PYTHON_SEQUENCE_METHODS = frozenset({"tolist"})


def _sequence_rows(value: cst.BaseExpression) -> bool:
    """A display of lists, tuples or ranges, or a comprehension making them (`[[0, 1, 2] for _ in range(n)]`)."""
    def row(item: cst.BaseExpression) -> bool:
        return isinstance(item, (cst.List, cst.Tuple, cst.ListComp)) or is_range(item)

    if isinstance(value, cst.ListComp):
        return row(value.elt)
    return isinstance(value, (cst.List, cst.Tuple)) and bool(value.elements) and all(
        not isinstance(e, cst.StarredElement) and row(e.value) for e in value.elements)


# methods of a Python list that no array has (`cs.append(v)`: the parameter is a list)
_LIST_ONLY_METHODS = frozenset({"append", "extend", "insert", "pop", "remove"})


def _display_default(fn: cst.FunctionDef, name: str) -> Optional[Union[cst.List, cst.Tuple]]:
    """The default of the parameter `name` when it is a non-empty list or tuple display holding no text
    (`lim=(0.0, 1.0)`, `weights=[1, 2, 1]`): the function is written for a Python sequence there; else None."""
    params = [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]
    param = next((p for p in params if p.name.value == name), None)
    default = param.default if param is not None else None
    if not isinstance(default, (cst.List, cst.Tuple)) or not default.elements or \
            any(isinstance(e, cst.StarredElement) or is_text(e.value) for e in default.elements):
        return None
    return default


def _flat_default(fn: cst.FunctionDef, name: str) -> bool:
    """Whether the display default of `name` holds no list or tuple (its items are numbers or names)."""
    default = _display_default(fn, name)
    return default is not None and not any(isinstance(e.value, (cst.List, cst.Tuple, cst.ListComp)) for e in default.elements)
