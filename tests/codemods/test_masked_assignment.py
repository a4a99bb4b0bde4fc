"""Edge cases for JX301 masked-assignment: no-change cases first, then rewrites, then unsafe fixes and refusals."""

import textwrap

import pytest

from codemods.masked_assignment import MaskedAssignment
from jaxfix.testing.examples import run_rule


def run(code: str, unsafe: bool = False):
    return run_rule(MaskedAssignment, textwrap.dedent(code), fix=True, unsafe=unsafe)


HEAD = "import numpy as np\n"
NOOP = [
    pytest.param(HEAD + "X = np.zeros(3)\nX[X < 1] = 2.0\n", id="module-level"),
    pytest.param(HEAD + "def f(x, i: int):\n    y = x.copy()\n    y[i] = 0.0\n    return y\n", id="int-index"),
    pytest.param(HEAD + "def f(x):\n    y = x.copy()\n    y[1:, 0] = 0.0\n    return y\n", id="slices"),
    pytest.param(HEAD + "def f(x):\n    y = x.copy()\n    for i in range(3):\n        y[i] = 0.0\n    return y\n", id="range-index"),
    pytest.param(HEAD + "def f(x):\n    y = x.copy()\n    y[y > 0], z = 1.0, 2\n    return y\n", id="tuple-target"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    outcome = run(code, unsafe=True)
    assert outcome.fixed == code
    assert not [f for f in outcome.findings if f.code == "JX301"]


J = "import jax.numpy as jnp\n"
REWRITES = [
    pytest.param(
        HEAD + "def f(x):\n    y = x.copy()\n    y[np.isnan(y)] = 0.0\n    return y\n",
        J + HEAD + "def f(x):\n    y = x.copy()\n    y = jnp.where(np.isnan(y), jnp.asarray(0.0, y.dtype), y)\n    return y\n",
        id="isnan-mask",
    ),
    pytest.param(
        HEAD + "def f(x, y):\n    z = x + 0.0\n    z[(z > 0) & (z < 1)] = y[(z > 0) & (z < 1)]\n    return z\n",
        J + HEAD + "def f(x, y):\n    z = x + 0.0\n    z = jnp.where((z > 0) & (z < 1), jnp.asarray(y, z.dtype), z)\n    return z\n",
        id="same-mask-value-read-as-whole-array",
    ),
    pytest.param(
        HEAD + "def f(x):\n    z = x * 2\n    m = z > 1\n    z[m] += 2 * z[m] - 1  # note\n    return z\n",
        J + HEAD + "def f(x):\n    z = x * 2\n    m = z > 1\n    z = jnp.where(m, z + (2 * z - 1), z)  # note\n    return z\n",
        id="augmented-keeps-grouping-and-comment",
    ),
    pytest.param(
        HEAD + "def f(x, lo: float):\n    z = x.astype(np.float32)\n    m = z.astype(bool)\n    z[m] = lo\n    return z\n",
        J + HEAD + "def f(x, lo: float):\n    z = x.astype(np.float32)\n    m = z.astype(bool)\n    z = jnp.where(m, lo, z)\n    return z\n",
        id="astype-bool-mask-and-float-annotated-value",
    ),
    pytest.param(
        HEAD + "def f(X):\n    n, d = X.shape\n    Y = X.copy()\n    Y[Y.sum(axis=1) > 0] = 0.0\n    return Y\n",
        J + HEAD + "def f(X):\n    n, d = X.shape\n    Y = X.copy()\n    Y = jnp.where((Y.sum(axis=1) > 0)[:, None], jnp.asarray(0.0, Y.dtype), Y)\n    return Y\n",
        id="row-mask-of-known-2d-array",
    ),
    pytest.param(
        HEAD + "def f(X, eps):\n    Y = X.copy()\n    small = np.abs(Y).max(axis=-1) < eps\n    Y[small] = 0.0\n    return Y\n",
        J + HEAD + "def f(X, eps):\n    Y = X.copy()\n    small = np.abs(Y).max(axis=-1) < eps\n    Y = jnp.where(small[..., None], jnp.asarray(0.0, Y.dtype), Y)\n    return Y\n",
        id="mask-reduced-over-one-axis-of-the-array",
    ),
    pytest.param(
        HEAD + "def f(x, t):\n    y = x.copy()\n    y[y > t] = t\n    return y\n",
        J + HEAD + "def f(x, t):\n    y = x.copy()\n    y = jnp.where(y > t, jnp.asarray(t, y.dtype), y)\n    return y\n",
        id="value-compared-in-the-mask",
    ),
    pytest.param(
        HEAD + "def f(a):\n    z = np.zeros_like(a)\n    n = np.zeros(a.shape, dtype=np.int32)\n    n[z + a > 0] += 1  # hits\n    return n\n",
        J + HEAD + "def f(a):\n    z = np.zeros_like(a)\n    n = np.zeros(a.shape, dtype=np.int32)\n    n = jnp.where(z + a > 0, n + 1, n)  # hits\n    return n\n",
        id="mask-from-an-array-of-the-same-shape",
    ),
]


# NumPy casts the stored value to the array's dtype (`x[m] = 0.5` stores 0 into ints), `jnp.where` promotes: the
# value is cast unless the dtype provably stays; an augmented `x[m] OP= scalar` either keeps it or raises in NumPy.
DTYPES = [
    pytest.param(
        HEAD + "def f(x):\n    n = np.arange(5)\n    n[n > 2] = 0\n    return n\n",
        J + HEAD + "def f(x):\n    n = np.arange(5)\n    n = jnp.where(n > 2, 0, n)\n    return n\n",
        id="int-literal-into-int-array-stays-plain",
    ),
    pytest.param(
        HEAD + "def f(x):\n    y = x.copy()\n    y[y < 0] = -y[y < 0]\n    return y\n",
        J + HEAD + "def f(x):\n    y = x.copy()\n    y = jnp.where(y < 0, -y, y)\n    return y\n",
        id="value-elementwise-from-the-array-stays-plain",
    ),
    pytest.param(
        HEAD + "def f(x):\n    y = x.copy()\n    y[y > 1] *= 0.5\n    return y\n",
        J + HEAD + "def f(x):\n    y = x.copy()\n    y = jnp.where(y > 1, y * 0.5, y)\n    return y\n",
        id="augmented-python-scalar-stays-plain-numpy-raises-on-ints",
    ),
    pytest.param(
        HEAD + "def f(x):\n    z = np.zeros(x.shape)\n    z[x > 0] = 1\n    z[x < 0] = np.arange(3)[x < 0]\n    return z\n",
        J + HEAD + "def f(x):\n    z = np.zeros(x.shape)\n    z = jnp.where(x > 0, 1, z)\n    z = jnp.where(x < 0, np.arange(3), z)\n    return z\n",
        id="ints-into-float64-zeros-stay-plain",
    ),
    pytest.param(
        HEAD + "def f(x):\n    n = np.zeros(x.shape, dtype=np.int32)\n    n[x > 0] = 0.5\n    return n\n",
        J + HEAD + "def f(x):\n    n = np.zeros(x.shape, dtype=np.int32)\n    n = jnp.where(x > 0, jnp.asarray(0.5, n.dtype), n)\n    return n\n",
        id="float-into-int-array-is-cast",
    ),
    pytest.param(
        HEAD + "def f(x):\n    keep = np.ones(x.shape, dtype=bool)\n    keep[x < 0] = 0\n    return keep\n",
        J + HEAD + "def f(x):\n    keep = np.ones(x.shape, dtype=bool)\n    keep = jnp.where(x < 0, jnp.asarray(0, keep.dtype), keep)\n    return keep\n",
        id="int-literal-into-bool-array-is-cast",
    ),
    pytest.param(
        HEAD + "def f(x):\n    y = x.copy()\n    y[y > 0] = np.sqrt(y[y > 0])\n    return y\n",
        J + HEAD + "def f(x):\n    y = x.copy()\n    y = jnp.where(y > 0, jnp.asarray(np.sqrt(y), y.dtype), y)\n    return y\n",
        id="sqrt-of-an-array-of-unknown-kind-is-cast",
    ),
    pytest.param(
        HEAD + "def f(x, w):\n    y = x.astype(np.float32)\n    y[y > 0] = w[y > 0]\n    return y\n",
        J + HEAD + "def f(x, w):\n    y = x.astype(np.float32)\n    y = jnp.where(y > 0, jnp.asarray(w, y.dtype), y)\n    return y\n",
        id="array-of-unknown-width-into-float32-is-cast",
    ),
    pytest.param(
        HEAD + "def f(x, v):\n    y = x.astype(np.int32)\n    y[y > 0] += v[y > 0]\n    return y\n",
        J + HEAD + "def f(x, v):\n    y = x.astype(np.int32)\n    y = jnp.where(y > 0, (y + v).astype(y.dtype), y)\n    return y\n",
        id="augmented-array-of-unknown-width-is-cast-back",
    ),
    pytest.param(
        HEAD + "def f(x, t: float):\n    y = x * 1.0\n    y[y > t] -= (y[y > t] - t) * 0.5\n    y[y < 0] = t\n    return y\n",
        J + HEAD + "def f(x, t: float):\n    y = x * 1.0\n    y = jnp.where(y > t, y - (y - t) * 0.5, y)\n    y = jnp.where(y < 0, t, y)\n    return y\n",
        id="float-scalars-into-an-array-known-to-be-floating",
    ),
]


@pytest.mark.parametrize("code, expected", DTYPES)
def test_dtype_kept(code, expected):
    assert run(code).fixed == expected
    assert run(expected).fixed == expected  # idempotent


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert run(code).fixed == expected
    assert run(expected).fixed == expected  # idempotent


UNSAFE = [
    pytest.param(HEAD + "def f(x):\n    x[x < 0] = 0.0\n    return x\n", "parameter", id="parameter-written"),
    pytest.param(HEAD + "def f(x, v):\n    y = x.copy()\n    y[y < 0] = v\n    return y\n", "shape of `v`", id="value-shape-unknown"),
    pytest.param(HEAD + "def f(X, labels):\n    Y = X.copy()\n    Y[labels == 1] = 0.0\n    return Y\n", "shape is not known", id="mask-shape-unknown"),
    pytest.param(HEAD + "def f(x, m: 'npt.NDArray[np.bool_]'):\n    y = x.copy()\n    y[m] = np.nan\n    return y\n",
                 "shape is not known", id="bool-annotated-parameter-is-a-mask"),
]


@pytest.mark.parametrize("code, reason", UNSAFE)
def test_unsafe(code, reason):
    safe = run(code)
    assert safe.fixed == code
    finding = [f for f in safe.findings if f.code == "JX301"][0]
    assert reason in finding.message and finding.fix is not None
    assert run(code, unsafe=True).fixed != code


REFUSED = [
    pytest.param(HEAD + "def f(x):\n    y = x.copy()\n    z = y\n    y[y < 0] = 0.0\n    return z\n", id="alias-read-later"),
    pytest.param(HEAD + "def f(x):\n    y = x.copy()\n    ys = [y]\n    y[y < 0] = 0.0\n    return ys\n", id="stored-in-list"),
    pytest.param(HEAD + "def f(x):\n    y = x[0]\n    y[y < 0] = 0.0\n    return x\n", id="view-of-parameter"),
    pytest.param(HEAD + "def f(x, v):\n    y = x.copy()\n    y[y > 0] = v[: np.count_nonzero(y > 0)]\n    return y\n", id="compressed-by-count"),
    pytest.param(HEAD + "BUF = np.zeros(3)\ndef f():\n    BUF[BUF < 0] = 0.0\n", id="global-array"),
    pytest.param(HEAD + "def f(x, idx):\n    y = x.copy()\n    y[idx] = 0.0\n    return y\n", id="unknown-index-dtype"),
]


@pytest.mark.parametrize("code", REFUSED)
def test_reported_without_fix(code):
    outcome = run(code, unsafe=True)
    assert outcome.fixed == code
    findings = [f for f in outcome.findings if f.code == "JX301"]
    assert findings and all(f.fix is None for f in findings)
    assert findings[0].line == code.count("\n", 0, code.index("] =")) + 1
