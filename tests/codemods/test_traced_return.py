"""Edge cases for JX202 traced-return: no-change cases first, then rewrites, then refusals."""

import textwrap

import pytest

from codemods.traced_return import TracedReturn
from jaxfix.testing.examples import run_rule


def migrate(code: str, unsafe: bool = False) -> str:
    return run_rule(TracedReturn, textwrap.dedent(code), fix=True, unsafe=unsafe).fixed


NOOP = [
    pytest.param("def f(x):\n    if x.ndim == 2:\n        return x.sum(0)\n    return x\n", id="static-ndim"),
    pytest.param("def f(x, how='l1'):\n    if how == 'l1':\n        return abs(x).sum()\n    return (x * x).sum()\n", id="mode"),
    pytest.param("def f(x, y):\n    if x > 0:\n        y = x\n    return y\n", id="assignment-left-to-JX201"),
    pytest.param("def f(xs):\n    for x in xs:\n        if x > 0:\n            return x\n    return 0.0\n", id="return-in-loop"),
    pytest.param("def f(x):\n    if x > 0:\n        if x.sum() > 1:\n            print(x)\n        return x\n    return -x\n", id="waits-for-inner-if"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code, unsafe=True) == textwrap.dedent(code)


REWRITES = [
    pytest.param(
        "def f(x):\n    if x < 3:\n        return 3. * x ** 2\n    else:\n        return -4 * x\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.where(x < 3, 3. * x ** 2, -4 * x)\n",
        id="if-else",
    ),
    pytest.param(
        "def f(x):\n    if x < 0:  # negative\n        return -x\n    # otherwise\n    return x\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    # negative\n    # otherwise\n    return jnp.where(x < 0, -x, x)\n",
        id="early-return-keeps-comments",
    ),
    pytest.param(
        "def f(x):\n    if x > 0:\n        return x, 1.0\n    return -x, -1.0\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.where(x > 0, x, -x), jnp.where(x > 0, 1.0, -1.0)\n",
        id="tuples-element-by-element",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    if x > 1:\n        return x\n    elif x > 0:\n        return np.sqrt(x)\n    return 0.0 * x\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x):\n    return jnp.select(\n        [x > 1, x > 0],\n"
        "        [x, np.sqrt(jnp.select([x > 1, x > 0], [1.0, x], 1.0))],\n        0.0 * x,\n    )\n",
        id="elif-chain-select-guarded",
    ),
    pytest.param(
        "def f(x):\n    if x < 0:\n        return 0.0\n    elif x < 1:\n        return x * x\n    else:\n        return 1.0\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.select([x < 0, x < 1], [0.0, x * x], 1.0)\n",
        id="elif-chain-scalars-against-x-proven-one-element",
    ),
    pytest.param(
        "def f(x):\n    if x < 0:\n        return 0.0\n    return x\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.where(x < 0, 0.0, x)\n",
        id="test-proves-x-has-one-element",
    ),
    pytest.param(
        "def f(x, t):\n    if x.sum() > t:\n        return x.mean()\n    return t\n",
        "import jax.numpy as jnp\n\ndef f(x, t):\n    return jnp.where(x.sum() > t, x.mean(), t)\n",
        id="reduction-against-proven-scalar",
    ),
    pytest.param(
        "def f(x):\n    if x < 0:\n        return 0.0\n    # the middle piece\n    if x < 1:\n        return x * x\n    return x\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    # the middle piece\n    return jnp.select([x < 0, x < 1], [0.0, x * x], x)\n",
        id="early-return-chain-select",
    ),
    pytest.param(
        "def f(x, mode='a'):\n    if x < 0:\n        return x * 0\n    if mode == 'a':\n        return x\n    return -x\n",
        "import jax\n\ndef f(x, mode='a'):\n    def result_if_true(x):\n        return x * 0\n\n    def result_if_false(x):\n"
        "        if mode == 'a':\n            return x\n        return -x\n\n"
        "    return jax.lax.cond(x < 0, result_if_true, result_if_false, x)\n",
        id="static-if-after-early-return-not-absorbed",
    ),
    pytest.param(
        "def f(x):\n    if x[0] > 0:\n        return x[1]\n    return x[2]\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.where(x[0] > 0, x[1], x[2])\n",
        id="rows-of-one-array",
    ),
]


SHAPES_TO_COND = [
    pytest.param("def f(x):\n    if x.sum() > 0:\n        return x\n    else:\n        return 0.0\n", "`0.0` (0-d) and `x`", id="scalar-vs-array"),
    pytest.param("def f(x):\n    if x[0] > 0:\n        return x.sum()\n    return x\n", "`x.sum()` (0-d) and `x`", id="reduction-vs-array"),
    pytest.param("def f(x):\n    if x[0] > 0:\n        return x[1:3]\n    return x[0]\n", "`x[1:3]`", id="slice-vs-row"),
    pytest.param("def f(x, w):\n    if x.sum() > w.sum():\n        return x, w\n    return -x, 0.0\n", "`0.0` (0-d) and `w`", id="tuple-column"),
    pytest.param(
        "def f(x):\n    if x.sum() > 0:\n        return 0.0\n    elif x > 1:\n        return 1.0\n    return 2.0\n",
        "`0.0` (0-d) and `x > 1`",
        id="later-test-would-broadcast-an-earlier-path",
    ),
]


@pytest.mark.parametrize("code, words", SHAPES_TO_COND)
def test_shapes_not_provably_equal_become_cond(code, words):
    """`jnp.where` would broadcast; `lax.cond` raises at trace time on a mismatch instead (a safe fix)."""
    [finding] = [f for f in run_rule(TracedReturn, code).findings if f.code == "JX202"]
    assert finding.line == 2 and words in finding.message and "`lax.cond`, not `jnp.where`" in finding.message
    out = migrate(code)
    assert "jnp.select" not in out and "lax.cond(" in out and "jnp.where(x.sum() > 0" not in out
    assert migrate(out) == out


def test_cond_raises_on_a_shape_mismatch_instead_of_broadcasting():
    import jax
    import numpy as np

    namespace: dict = {}
    exec(migrate("def f(x):\n    if x.sum() > 0:\n        return x\n    return 0.0\n"), namespace)
    fn = jax.jit(namespace["f"])
    assert float(fn(np.float32(2.0))) == 2.0 and float(fn(np.float32(-2.0))) == 0.0  # 0-d: both branches agree
    with pytest.raises(TypeError, match="cond branches must have equal output types"):
        fn(np.ones(3, np.float32))


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    out = migrate(code)
    assert out == expected
    assert migrate(out) == out


def test_early_return_with_more_code_becomes_cond():
    code = "def f(x, t):\n    if x.sum() < t:\n        return x\n    y = x * 2\n    y = y - t\n    return y\n"
    out = migrate(code)
    assert "def result_if_false(x, t):\n        y = x * 2\n        y = y - t\n        return y\n" in out
    assert out.rstrip().endswith("return jax.lax.cond(x.sum() < t, result_if_true, result_if_false, x, t)")
    compile(out, "out.py", "exec")


def test_early_return_runs_under_jit():
    import jax
    import numpy as np

    code = "def f(x, t):\n    if x.sum() < t:\n        return x\n    y = x * 2\n    return y - t\n"
    namespace: dict = {}
    exec(migrate(code), namespace)
    fn = jax.jit(namespace["f"])
    x = np.array([1.0, 2.0], dtype=np.float32)
    assert np.allclose(fn(x, 10.0), x) and np.allclose(fn(x, 0.5), x * 2 - 0.5)


REFUSALS = [
    pytest.param("def f(x):\n    if x.sum() > 0:\n        return x\n", "`None`", id="falls-through"),
    pytest.param("def f(x):\n    if x.sum() > 0:\n        print(x)\n        return x\n    return -x\n", "print", id="print"),
    pytest.param("def f(x):\n    if x.sum() > 0:\n        return x\n    return None\n", "different kinds", id="none"),
]


@pytest.mark.parametrize("code, words", REFUSALS)
def test_refusal(code, words):
    found = [f for f in run_rule(TracedReturn, code).findings if f.code == "JX202"]
    assert [f.line for f in found] == [2] and words in found[0].message
    assert migrate(code, unsafe=True) == code


def test_cond_wants_equal_dtypes_an_int_literal_against_floats_is_an_unsafe_fix():
    """A weak-typed `0.0` joins a float32 branch, a weak int `0` does not: `lax.cond` raises at trace time. So the
    fix is unsafe, and its message says to write `0.0`; the unsafe rewrite does raise as described."""
    import jax
    import numpy as np

    code = "def f(x):\n    if x.sum() > 0:\n        return x\n    return 0\n"
    assert migrate(code) == code
    namespace: dict = {}
    exec(migrate(code, unsafe=True), namespace)
    with pytest.raises(TypeError, match="cond branches must have equal output types"):
        jax.jit(namespace["f"])(np.float32(2.0))


def test_python_ints_made_with_int_are_an_unsafe_fix():
    """`int()` makes counts Python ints on purpose (scikit-learn's adjusted_rand_score): passed to `lax.cond` they are
    int32, and the products in a branch wrap around silently (0.4856 became -0.4470 on 1000 samples)."""
    code = (
        "def ari(C):\n    (tn, fp), (fn, tp) = C\n    tn, fp, fn, tp = int(tn), int(fp), int(fn), int(tp)\n"
        "    if fn == 0 and fp == 0:\n        return 1.0\n"
        "    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))\n"
    )
    assert migrate(code) == code
    assert "lax.cond(" in migrate(code, unsafe=True)
