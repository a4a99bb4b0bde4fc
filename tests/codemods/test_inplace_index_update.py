"""Edge cases for JX101 inplace-index-update: no-change cases first, then rewrites, then unsafe and report-only."""

import textwrap

import pytest

from codemods.inplace_index_update import InplaceIndexUpdate
from jaxfix.testing.examples import run_rule


def migrate(code: str, unsafe: bool = False) -> str:
    return run_rule(InplaceIndexUpdate, textwrap.dedent(code), fix=True, unsafe=unsafe).fixed


def findings(code: str):
    return [(f.line, f.message) for f in run_rule(InplaceIndexUpdate, textwrap.dedent(code)).findings]


NOOP = [
    pytest.param("import numpy as np\nA = np.zeros(3)\nA[0] = 1\n", id="module-level"),
    pytest.param("def f(d, k):\n    d[k] = 1\n    return d\n", id="dict-parameter-by-name"),
    pytest.param("def f(x):\n    d = dict()\n    d[x] = 1\n    s = {}\n    s['a'] = x\n    return d, s\n", id="dict-locals"),
    pytest.param("def f(n):\n    xs = [0] * n\n    xs[0] = 5\n    return xs\n", id="list-local"),
    pytest.param("def f(n):\n    i = 0\n    i += n\n    return i\n", id="int-augassign"),
    pytest.param("import jax.numpy as jnp\ndef f(x):\n    x = x.at[0].set(1.0)\n    return x\n", id="already-functional"),
    pytest.param("import numpy as np\ndef f(x):\n    y = np.zeros(3)\n    y[y > 0] = 1.0\n    return y\n", id="mask-left-to-JX3"),
    pytest.param("import numpy as np\ndef f(x):\n    y = np.ones(3)\n    y *= x\n    return y\n", id="unshared-name-augassign"),
    pytest.param("def f(x):\n    '''x[0] = 1'''\n    return x  # x[0] = 1\n", id="strings-and-comments"),
    pytest.param(  # pysindy's SSR: a whole-array reduction is a NumPy scalar, which `+=` rebinds; `m` keeps its value
        "import numpy as np\ndef f(err, n):\n    m = np.argmin(err)\n    t = m\n    t += n\n    return t, m\n",
        id="scalar-reduction-shared-name",
    ),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code, unsafe=True) == textwrap.dedent(code)
    assert findings(code) == []


REWRITES = [
    pytest.param(
        "import numpy as np\ndef f(x):\n    y = np.zeros((3, 3))\n    y[None, 0, ..., 1:] = x\n    return y\n",
        "import numpy as np\ndef f(x):\n    y = np.zeros((3, 3))\n    y = y.at[None, 0, ..., 1:].set(x)\n    return y\n",
        id="every-basic-index-form",
    ),
    pytest.param(
        "def f(a, idx):\n    b = a.copy()\n    b[idx] = 0.0\n    b[[0, 2]] -= 1.5\n    return b\n",
        "import jax.numpy as jnp\n\ndef f(a, idx):\n    b = jnp.array(a)\n    b = b.at[idx].set(0.0)\n"
        "    b = b.at[jnp.asarray([0, 2])].set(b[jnp.asarray([0, 2])] - 1.5)\n    return b\n",
        id="fancy-index-constant-update-keeps-buffered-semantics",
    ),
    pytest.param(
        "def f(a):\n    b = a.copy()\n    for i in range(3):\n        b[i][i + 1] += 1.0\n    return b\n",
        "import jax.numpy as jnp\n\ndef f(a):\n    b = jnp.array(a)\n    for i in range(3):\n"
        "        b = b.at[i, i + 1].add(1.0)\n    return b\n",
        id="chained-with-range-counter",
    ),
    pytest.param(
        "def f(a):\n    b = a.astype(int)\n    b[0] ^= 3\n    b[1] >>= 1\n    b[2] &= a.shape[0] + 1\n    return b\n",
        "import jax.numpy as jnp\n\ndef f(a):\n    b = jnp.asarray(a, dtype=int)\n"
        "    b = b.at[0].set(b[0] ^ 3)\n    b = b.at[1].set(b[1] >> 1)\n"
        "    b = b.at[2].set(b[2] & (a.shape[0] + 1))\n    return b\n",
        id="bitwise-operators-use-set",
    ),
    pytest.param(  # quantecon's vertex_enumeration: the operator's line continuation went into the expression
        "def f(a, n):\n    b = a.copy()\n    b[0:n] /= \\\n        (3 - b[0])\n    b[1] //= \\\n        2\n    return b\n",
        "import jax.numpy as jnp\n\ndef f(a, n):\n    b = jnp.array(a)\n"
        "    b = b.at[0:n].divide((3 - b[0]))\n    b = b.at[1].set(b[1] // 2)\n    return b\n",
        id="operator-followed-by-line-continuation",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    # swap the ends\n    p = np.arange(4)\n    p[0], p[-1] = p[-1], p[0]  # keep\n    return x[p]\n",
        "import numpy as np\ndef f(x):\n    # swap the ends\n    p = np.arange(4)\n    p = p.at[0].set(p[-1]).at[-1].set(p[0])  # keep\n    return x[p]\n",
        id="swap-of-known-scalars-keeps-comments",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    a = np.zeros(3)\n    row = a[1:]\n    row[0] = x\n    return row\n",
        "import numpy as np\ndef f(x):\n    a = np.zeros(3)\n    row = a[1:]\n    row = row.at[0].set(x)\n    return row\n",
        id="view-whose-base-is-dead",
    ),
    pytest.param(
        "def f(v, mu):\n    vel = v.copy()\n    keep = vel\n    vel *= mu  # decay\n    vel[0] = 0.0\n    return keep, vel\n",
        # `vel` is a copy of the argument, a NumPy array when called with one: the update reads `jnp.asarray(vel)`
        "import jax.numpy as jnp\n\ndef f(v, mu):\n    vel = v.copy()\n    keep = vel\n    vel *= mu  # decay\n    keep = vel\n"
        "    vel = jnp.asarray(vel).at[0].set(0.0)\n    keep = vel\n    return keep, vel\n",
        id="whole-array-alias-is-rebound",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected
    assert migrate(expected) == expected


UNSAFE = [
    pytest.param(
        "def f(x, i, v):\n    x[i, 0] += v\n    return x\n",
        "def f(x, i, v):\n    x = x.at[i, 0].set(x[i, 0] + v)\n    return x\n",
        ["belongs to the caller", "may repeat a position"],
        id="parameter-with-maybe-fancy-index",
    ),
    pytest.param(
        "def f(p):\n    m = p.copy()\n    m[0], m[1] = m[1], m[0]\n    return m\n",
        "import jax.numpy as jnp\n\ndef f(p):\n    m = jnp.array(p)\n"
        "    m = m.at[0].set(m[1]).at[1].set(m[0])\n    return m\n",
        ["may be a view rather than a single element"],
        id="swap-of-possible-rows",
    ),
    pytest.param(
        "class Layer:\n    def decay(self, g):\n        self.w[1:] -= 0.1 * g\n",
        "class Layer:\n    def decay(self, g):\n        self.w = self.w.at[1:].subtract(0.1 * g)\n",
        ["stored on an object"],
        id="attribute-target",
    ),
]


@pytest.mark.parametrize("code, expected, why", UNSAFE)
def test_unsafe(code, expected, why):
    assert migrate(code) == textwrap.dedent(code)
    assert migrate(code, unsafe=True) == expected
    message = " ".join(m for _, m in findings(code))
    for part in why:
        assert part in message


REPORT_ONLY = [
    # an array a NumPy function JX501 does not move to JAX makes is NumPy's for certain: no `.at`, not even unsafe
    pytest.param(  # scikit-learn's exact t-SNE: `jnp.ndarray` is a class, so JX501 leaves `np.ndarray(...)` as it is
        "import numpy as np\ndef f(n, v):\n    g = np.ndarray((n, 2))\n    g[0] = v\n    return g\n", 4,
        "`np.ndarray(...)` has no `jax.numpy` counterpart", id="array-from-the-ndarray-class"),
    pytest.param(  # scikit-learn's TargetEncoder: np.fromiter stays NumPy (jnp.fromiter raises NotImplementedError)
        "import numpy as np\ndef f(xs, n):\n    g = np.fromiter(xs, float, n)\n    g[0] = 1.0\n    return g\n", 4,
        "`np.fromiter(...)` has no `jax.numpy` counterpart", id="array-from-a-host-only-call"),
    pytest.param("import numpy as np\nW = np.zeros(3)\ndef f(x):\n    W[0:2] = x\n", 4, "not defined in this function", id="global"),
    pytest.param("def f(a, j):\n    b = a.copy()\n    b[j][0] = 1.0\n    return b\n", 3, "not provably a single element", id="chained-fancy"),
    pytest.param(
        "import numpy as np\ndef f(x):\n    a = np.zeros(2)\n    b = a\n    a[0] = b[1] = x\n    return a\n", 5,
        "refers to the same memory", id="multi-target-alias"),
    pytest.param(
        "import numpy as np\ndef f(v, mu):\n    vel = v.copy()\n    keep = vel[:]\n    vel *= mu\n    return keep\n", 5,
        "rebinds `vel`", id="name-augassign-shared-with-view"),
    pytest.param("def f(x):\n    x *= 2.0\n    return x.sum()\n", 2, "belongs to the caller", id="parameter-name-augassign"),
    pytest.param(
        "import numpy as np\ndef f(x):\n    a = np.zeros((2, 3))\n    row = a[0]\n    row[:] = x\n    return a\n", 5,
        "`a` refers to the same memory", id="view-of-live-base"),
    pytest.param(
        "import numpy as np\ndef f(x):\n    a = np.zeros(3)\n    stash = [a]\n    a[0] = x\n    return a, stash\n", 5,
        "stored in a container", id="stored-in-list"),
    pytest.param("def f(p):\n    q = p[1:]\n    q[0] = 1.0\n", 3, "view or alias of parameter `p`", id="view-of-parameter"),
    pytest.param(
        "import numpy as np\ndef f(x):\n    c = np.zeros(3, int)\n    c[np.random.randint(3)] |= 1\n    return c\n", 4,
        "evaluate twice", id="index-with-a-call-not-duplicated"),
    pytest.param(  # scikit-image's `H.flat[...] = v`: JAX arrays have no `.flat` to write through
        "import numpy as np\ndef f(v):\n    H = np.zeros((3, 3))\n    H.flat[[0, 4]] = v\n    return H\n", 4,
        "through `H.flat`", id="flat-view-attribute"),
    pytest.param("import numpy as np\ndef f(v):\n    H = np.zeros((3, 3))\n    H.real[0] = v\n    return H\n", 4,
                 "through `H.real`", id="real-view-attribute"),
    pytest.param(  # scikit-image's `out[simplex == -1, :] = -1`: neither JX101 nor the masks rules had reported it
        "import numpy as np\ndef f(c, s):\n    out = np.zeros(c.shape)\n    out[s == -1, :] = -1\n    return out\n", 4,
        "boolean mask among other indices", id="mask-among-other-indices"),
]


@pytest.mark.parametrize("code, line, why", REPORT_ONLY)
def test_report_only(code, line, why):
    got = findings(code)
    assert any(l == line and why in m for l, m in got), got
    assert migrate(code, unsafe=True) == textwrap.dedent(code)


def test_a_write_left_in_place_holds_back_every_other_fix_in_its_function():
    """`sim[-1] = xe` stays (the array is also in a list): had `fsim` and `np.take` been converted, the function
    would mix an immutable JAX array with NumPy writes (SciPy's Nelder-Mead raised "JAX arrays are immutable")."""
    from jaxfix.engine import migrate_source

    code = (
        "import numpy as np\n\ndef step(sim, fsim, xe, fxe):\n    sim = np.array(sim)\n    fsim = np.array(fsim)\n"
        "    keep = [sim]\n    sim[-1] = xe\n    fsim[-1] = fxe\n    order = np.argsort(fsim)\n"
        "    return np.take(sim, order, 0), keep\n\n\ndef other(x):\n    y = np.zeros(3)\n    y[0] = x\n    return y\n"
    )
    out = migrate_source(code)
    assert out.split("def other")[0] == code.split("def other")[0].replace("import numpy as np\n", "import jax.numpy as jnp\nimport numpy as np\n")
    assert "y = y.at[0].set(x)" in out


def test_a_write_left_in_place_in_a_nested_function_holds_back_the_outer_one():
    from jaxfix.engine import migrate_source

    code = (
        "import numpy as np\n\ndef outer(x):\n    out = np.zeros(3)\n    out[:] = x\n\n    def fill(target):\n"
        "        keep = [target]\n        target[0] = 1.0\n        return keep\n\n    fill(out)\n    return out\n"
    )
    assert migrate_source(code) == code


def test_generators():
    """In a generator, `x[i] = yield v` takes the value sent back: it is an argument in parentheses, `.set((yield
    v))`; and an array the generator yields is held by its consumer, which sees NumPy's later in-place updates of
    it: those are reported, not rewritten."""
    sent = "import numpy as np\n\ndef steps(n):\n    x = np.zeros(n)\n    x[1:] = yield\n    x[0] += yield\n    return x\n"
    fixed = run_rule(InplaceIndexUpdate, sent, fix=True).fixed
    assert "x = x.at[1:].set((yield))" in fixed and "x = x.at[0].add((yield))" in fixed
    compile(fixed, "steps.py", "exec")
    shared = "import numpy as np\n\ndef steps(n):\n    x = np.zeros(n)\n    for i in range(n):\n        x[i] = 1.0\n        yield x\n"
    result = run_rule(InplaceIndexUpdate, shared, fix=True, unsafe=True)
    assert result.fixed == shared
    assert "handed to the generator's consumer by `yield`" in result.findings[0].message
