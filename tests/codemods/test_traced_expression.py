"""Edge cases for JX203 traced-expression: no-change cases first, then rewrites."""

import textwrap

import pytest

from codemods.traced_expression import TracedExpression
from jaxfix.testing.examples import run_rule


def migrate(code: str, unsafe: bool = False) -> str:
    return run_rule(TracedExpression, textwrap.dedent(code), fix=True, unsafe=unsafe).fixed


NOOP = [
    pytest.param("def f(x, n: int):\n    k = 1 if n > 2 else 2\n    return x * k\n", id="static-ternary"),
    pytest.param("def f(x, y=None):\n    return y is not None and y.sum() > 0\n", id="static-guard-then-last-operand"),
    pytest.param("def f(x):\n    return x.sum() > 0 and x\n", id="non-boolean-operand"),
    pytest.param("def f(x):\n    return max(x.shape[0], 3) + abs(len(x) - 2)\n", id="static-builtins"),
    pytest.param("def max(a, b):\n    return a\ndef f(x, y):\n    return max(x, y)\n", id="shadowed-builtin"),
    pytest.param("def f(x):\n    return max(x, key=abs)\n", id="max-with-key"),
    pytest.param("def f(x, y):\n    return x < y\n", id="single-comparison"),
    pytest.param("def f(x, f2):\n    return 0 < f2(x) < 1\n", id="chained-with-call-in-middle"),
    pytest.param(  # picks a function by dtype: a Python choice (lax.cond cannot return a function)
        "import numpy as np\ndef f(input_dtype):\n    return _sgd32 if input_dtype == np.float32 else _sgd64\n",
        id="dtype-comparison-picks-a-function",
    ),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code, unsafe=True) == textwrap.dedent(code)


REWRITES = [
    pytest.param("def f(x, y):\n    return (x > 0) or (y > 0)\n", "jnp.logical_or((x > 0), (y > 0))", id="or"),
    pytest.param("def f(x, y, z):\n    return x > 0 and y > 0 and z > 0\n", "jnp.logical_and(jnp.logical_and(x > 0, y > 0), z > 0)", id="and-chain-at-once"),
    pytest.param("def f(x, n: int):\n    return n > 0 and x > 0 and x < 1\n", "n > 0 and jnp.logical_and(x > 0, x < 1)", id="static-prefix-keeps-short-circuit"),
    pytest.param("def f(x):\n    return not x.any()\n", "jnp.logical_not(x.any())", id="not"),
    pytest.param("def f(x, lo, hi):\n    return lo <= x < hi\n", "jnp.logical_and(lo <= x, x < hi)", id="chained"),
    pytest.param("def f(x, d):\n    return x / d if d != 0 else x\n", "jnp.where(d != 0, x / jnp.where(d != 0, d, 1.0), x)", id="ternary-division-guarded"),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    out = migrate(code)
    assert f"return {expected}\n" in out and "import jax.numpy as jnp" in out
    assert migrate(out) == out


def test_builtin_round_to_an_int_is_an_unsafe_fix():
    code = "def f(x):\n    return round(x * 86400e6)\n"
    assert migrate(code) == code  # a Python int has no bound; int32 saturates past 2**31 (pvlib's timestamps)
    assert "return jnp.round(x * 86400e6).astype(int)\n" in migrate(code, unsafe=True)


def test_builtin_round_to_digits_is_an_unsafe_fix():
    code = "def f(x):\n    return round(x, 4)\n"
    assert migrate(code) == code  # Python rounds the exact decimal: round(8.70135, 4) is 8.7013, jnp.round's 8.7014
    assert "return jnp.round(x, 4)\n" in migrate(code, unsafe=True)


def test_builtin_min_of_one_argument_is_an_unsafe_fix():
    code = "def f(x):\n    return min(x)\n"
    assert migrate(code) == code  # NaN order and non-array iterables: not exact
    assert "return jnp.min(x)\n" in migrate(code, unsafe=True)


def test_impure_ternary_side_is_an_unsafe_lax_cond():
    code = "def f(x, g):\n    return g(x) if x > 0 else x\n"
    assert migrate(code) == code
    assert "jax.lax.cond(x > 0, lambda: g(x), lambda: x)" in migrate(code, unsafe=True)


TERNARY_SHAPES = [
    pytest.param("def f(x):\n    return x[:1] if x[0] > 0 else x\n", "jax.lax.cond(x[0] > 0, lambda: x[:1], lambda: x)", id="slice-vs-array"),
    pytest.param("def f(x):\n    return x if x.sum() > 0 else 0.0\n", "jax.lax.cond(x.sum() > 0, lambda: x, lambda: 0.0)", id="array-vs-scalar"),
    pytest.param("def f(x, t):\n    return x if t > 0 else t\n", "jax.lax.cond(t > 0, lambda: x, lambda: t)", id="unrelated-arrays"),
]


@pytest.mark.parametrize("code, expected", TERNARY_SHAPES)
def test_ternary_shapes_not_provably_equal_become_cond(code, expected):
    """`jnp.where` would broadcast; `lax.cond` raises at trace time on a mismatch instead (a safe fix)."""
    [finding] = run_rule(TracedExpression, code).findings
    assert "`lax.cond`, not `jnp.where`" in finding.message and finding.line == 2
    out = migrate(code)
    assert expected in out and migrate(out) == out


TERNARY_WHERE = [
    pytest.param("def f(x):\n    return 0.0 if x < 0 else x\n", "jnp.where(x < 0, 0.0, x)", id="test-proves-x-has-one-element"),
    pytest.param("import numpy as np\ndef f(x):\n    return x if x.sum() > 0 else np.zeros_like(x)\n", "jnp.where(x.sum() > 0, x, np.zeros_like(x))", id="zeros-like"),
    pytest.param("def f(x, t):\n    return x.max() if x.sum() > t else t\n", "jnp.where(x.sum() > t, x.max(), t)", id="proven-scalar-t"),
]


@pytest.mark.parametrize("code, expected", TERNARY_WHERE)
def test_ternary_shapes_provably_equal_become_where(code, expected):
    assert expected in migrate(code)


def test_ternary_of_different_kinds_is_reported():
    code = "def f(x):\n    return x if x.sum() > 0 else None\n"
    [finding] = run_rule(TracedExpression, code).findings
    assert "different kinds" in finding.message and migrate(code, unsafe=True) == code


def test_local_bound_to_a_comparison_is_boolean():
    code = "def f(x, y):\n    ok = x > 0\n    return ok and y > 0\n"
    assert "return jnp.logical_and(ok, y > 0)\n" in migrate(code)
    param = "def f(x, ok):\n    return ok and x > 0\n"
    assert migrate(param) == param  # a parameter's type is unknown


LOOP_TERNARY = (
    "import jax.numpy as jnp\nfrom jax import lax\n\ndef f(x):\n    total = 0.0\n    def body(i, total):\n"
    "        {line}\n        return total\n    total = lax.fori_loop(0, x.shape[0], body, total)\n    return total\n"
)


@pytest.mark.parametrize(
    "line, expected",
    [
        pytest.param("total = total + x[i] if x[i] > 0 else total", "total = jnp.where(x[i] > 0, total + x[i], total)",
                     id="assigned-to-a-0d-carry-becomes-where"),
        pytest.param("step = x[i] if x[i] > 0 else 0.0\n        total = total + step",
                     "step = lax.cond(x[i] > 0, lambda: x[i], lambda: 0.0)", id="temporary-stays-cond"),
    ],
)
def test_ternary_in_a_fori_loop_body(line, expected):
    assert expected in migrate(LOOP_TERNARY.format(line=line))


def test_builtin_max_of_a_python_int_is_an_unsafe_fix():
    """`max(2, int(m * n))` (scikit-learn's OPTICS): as `jnp.fmax` the Python int becomes int32 (an OverflowError past
    2**31) and the result an array where an int was expected."""
    code = "def f(m, n):\n    return max(2, int(m * n))\n"
    assert migrate(code) == code
    assert "jnp.fmax(int(m * n), 2)" in migrate(code, unsafe=True)


def test_not_of_an_and_with_an_object_operand_is_an_unsafe_fix():
    """scikit-learn's Birch: `not (partial and has_root)` with `has_root = getattr(self, "root_", None)`:
    `jnp.logical_not` of None raised on every `partial_fit`."""
    code = (
        "import numpy as np\ndef f(self, x, partial):\n    has_root = getattr(self, 'root_', None)\n"
        "    first = not (partial and has_root)\n    return np.sum(x), first\n"
    )
    assert "logical_not" not in migrate(code)
    assert "logical_not" in migrate(code, unsafe=True)
