"""Edge cases for JX302 masked-reduction: no-change cases first, then rewrites, unsafe fixes and refusals."""

import textwrap

import pytest

from codemods.masked_reduction import MaskedReduction
from jaxfix.testing.examples import run_rule


def run(code: str, unsafe: bool = False):
    return run_rule(MaskedReduction, textwrap.dedent(code), fix=True, unsafe=unsafe)


HEAD = "import numpy as np\n"
J = "import jax.numpy as jnp\n"
NOOP = [
    pytest.param(HEAD + "S = np.arange(4)[np.arange(4) > 1].sum()\n", id="module-level"),
    pytest.param(HEAD + "def f(x):\n    return x[1:].sum(), x[0].max(), len(x[:2])\n", id="slices-and-ints"),
    pytest.param(HEAD + "def f(x, i: int):\n    return x[i].mean()\n", id="int-annotated-index"),
    pytest.param(J + "def f(x):\n    return jnp.sum(x, where=x > 0)\n", id="already-jax"),
    pytest.param(HEAD + "def f(x):\n    sel = x[x > 0]\n    return sel.sum(), sel\n", id="name-also-used-as-value"),
    pytest.param(HEAD + "def f(x):\n    sel = x[x > 0]\n    x[0] = 1.0\n    return sel.sum()\n", id="array-mutated-after-selection"),
    pytest.param(HEAD + "def f(x, t):\n    sel = x[x > t]\n    t = 0\n    return sel.sum()\n", id="mask-input-rebound"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert run(code, unsafe=True).fixed == code


REWRITES = [
    pytest.param(
        HEAD + "def f(x):\n    return np.mean(x[np.isfinite(x)]), x[x != 0].prod()\n",
        J + HEAD + "def f(x):\n    return jnp.mean(x, where=np.isfinite(x)), jnp.prod(x, where=x != 0)\n",
        id="function-and-method-forms",
    ),
    pytest.param(
        HEAD + "def f(x):\n    m = (x > 0) | np.isnan(x)\n    return x[m].any(), x[m].all(), x[m].var(ddof=1)\n",
        J + HEAD + "def f(x):\n    m = (x > 0) | np.isnan(x)\n    return jnp.any(x, where=m), jnp.all(x, where=m), jnp.var(x, ddof=1, where=m)\n",
        id="any-all-and-keywords-kept",
    ),
    pytest.param(
        HEAD + "def f(x):\n    return x[x > 0].sum(axis=0)\n",
        J + HEAD + "def f(x):\n    return jnp.sum(x, where=x > 0)\n",
        id="axis-0-of-1d-selection-dropped",
    ),
    pytest.param(
        HEAD + "def f(X):\n    n, d = X.shape\n    keep = X.max(axis=1) > 0\n    return X[keep].sum(0), len(X[keep])\n",
        J + HEAD + "def f(X):\n    n, d = X.shape\n    keep = X.max(axis=1) > 0\n    return jnp.sum(X, axis=0, where=keep[:, None]), jnp.count_nonzero(keep)\n",
        id="row-mask-of-known-2d",
    ),

]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert run(code).fixed == expected
    assert run(expected).fixed == expected


def test_empty_mask_difference_is_in_the_title():
    outcome = run_rule(MaskedReduction, HEAD + "def f(x):\n    return x[x > 0].max()\n")
    assert "NumPy raises ValueError" in outcome.findings[0].fix.title


UNSAFE = [
    pytest.param(HEAD + "def f(X, y):\n    return X[y == 2].sum(0)\n", "1-D mask selecting rows", id="assumed-row-mask"),
    pytest.param(HEAD + "def f(X, y):\n    return X[y == 2].sum()\n", "has the shape of", id="assumed-same-shape"),
]


@pytest.mark.parametrize("code, reason", UNSAFE)
def test_unsafe(code, reason):
    safe = run(code)
    assert safe.fixed == code and reason in safe.findings[0].message
    assert run(code, unsafe=True).fixed != code


REFUSED = [
    pytest.param(HEAD + "def f(x):\n    return x[x > 0].sum(keepdims=True)\n", "keepdims", id="keepdims"),
    pytest.param(HEAD + "def f(x):\n    return x[x > 0].sum(1)\n", "is 1-D", id="axis-1-of-1d-selection"),
    pytest.param(HEAD + "def f(x, idx):\n    return x[idx].sum()\n", "cannot tell", id="unknown-index-dtype"),
]


@pytest.mark.parametrize("code, reason", REFUSED)
def test_reported_without_fix(code, reason):
    outcome = run(code, unsafe=True)
    assert outcome.fixed == code
    assert outcome.findings[0].line == 3 and reason in outcome.findings[0].message and outcome.findings[0].fix is None


def test_masked_min_max_need_a_float_array():
    """initial=+-inf is no identity for integer arrays (it wraps to INT_MIN): the fix is unsafe and says why."""
    code = HEAD + "def f(x):\n    pos = x[x > 0]\n    return pos.min() if True else 0, pos.shape[0]\n"
    expected = J + HEAD + "def f(x):\n    return jnp.min(x, where=x > 0, initial=jnp.inf) if True else 0, jnp.count_nonzero(x > 0)\n"
    assert run(code).fixed == code
    outcome = run_rule(MaskedReduction, code, fix=True, unsafe=True)
    assert outcome.fixed == expected
    assert "floating dtype" in run_rule(MaskedReduction, code).findings[0].message


def test_each_assumption_is_said_once_for_min_and_max():
    code = HEAD + "def f(x, m):\n    z = x[m > 0]\n    return z.min(), z.max()\n"
    message = run_rule(MaskedReduction, code).findings[0].message
    assert message.count("has the shape of") == 1 and message.count("floating dtype") == 1, message


KNOWN_DTYPE = [
    pytest.param(
        HEAD + "def f(x, t: float):\n    y = x.astype(np.float32)\n    return y[y > t].max()\n",
        J + HEAD + "def f(x, t: float):\n    y = x.astype(np.float32)\n    return jnp.max(y, where=y > t, initial=-jnp.inf)\n",
        id="float-array-gets-inf",
    ),
    pytest.param(
        HEAD + "def f(x, t: int):\n    n = np.asarray(x, dtype=np.int32)\n    return n[n > t].max(), n[n < t].min()\n",
        J + HEAD + "def f(x, t: int):\n    n = np.asarray(x, dtype=np.int32)\n"
        "    return jnp.max(n, where=n > t, initial=jnp.iinfo(n.dtype).min), jnp.min(n, where=n < t, initial=jnp.iinfo(n.dtype).max)\n",
        id="int-array-gets-its-iinfo-bounds",
    ),
]


@pytest.mark.parametrize("code, expected", KNOWN_DTYPE)
def test_masked_min_max_of_a_known_dtype_are_safe(code, expected):
    """With the array's kind known, the identity for `initial=` is exact: the fix is safe (the empty-selection
    difference is in the title)."""
    assert run(code).fixed == expected  # safe fixes only
    assert "NumPy raises ValueError" in run_rule(MaskedReduction, code).findings[0].fix.title
    assert run(expected).fixed == expected


def test_own_initial_is_kept_and_safe():
    """`x[m].max(initial=0)` does not raise on an empty selection, and `jnp.max(x, where=m, initial=0)` is the same."""
    code = HEAD + "def f(x, t):\n    return x[x > t].max(initial=0), np.sum(x[x > t], initial=1.5)\n"
    expected = J + "def f(x, t):\n    return jnp.max(x, initial=0, where=x > t), jnp.sum(x, initial=1.5, where=x > t)\n"
    assert run(code).fixed == expected
    assert "NumPy raises" not in run_rule(MaskedReduction, code).findings[0].fix.title


def test_a_selection_read_in_a_nested_function_is_left_alone():
    """A read of the selected array in a nested function (a closure, such as the branches JX202 writes) is not in
    the outer function's flow graph: the rule leaves it to JX303 instead of failing on it (it crashed on pymoo's
    check_n_points once its `if` had become a `lax.cond`)."""
    code = HEAD + "def f(x):\n    e = x[x > 0]\n\n    def g():\n        return np.sum(e)\n\n    return g()\n"
    assert run_rule(MaskedReduction, code).findings == []
