"""Edge cases for JX201 traced-if: no-change cases first, then rewrites, then refusals (reported, not changed)."""

import textwrap

import pytest

from codemods.traced_if import TracedIf
from jaxfix.testing.examples import run_rule


def migrate(code: str, unsafe: bool = False) -> str:
    return run_rule(TracedIf, textwrap.dedent(code), fix=True, unsafe=unsafe).fixed


def findings(code: str):
    return [f for f in run_rule(TracedIf, textwrap.dedent(code)).findings if f.code == "JX201"]


NOOP = [
    pytest.param("def f(x):\n    if x.ndim == 1:\n        x = x[None]\n    return x\n", id="ndim"),
    pytest.param("def f(x):\n    if x.shape[0] > 3:\n        x = x[:3]\n    return x\n", id="shape"),
    pytest.param("def f(x, mode='sum'):\n    if mode == 'sum':\n        y = x.sum()\n    else:\n        y = x.mean()\n    return y\n", id="string-mode"),
    pytest.param("def f(x, center=True):\n    if center:\n        x = x - x.mean()\n    return x\n", id="bool-default-flag"),
    pytest.param("def f(x, flat):\n    if flat:\n        x = x.reshape(-1)\n    return x\n", id="bare-flag-parameter"),
    pytest.param("DEBUG = False\ndef f(x):\n    if DEBUG:\n        x = x * 1\n    return x\n", id="module-constant"),
    pytest.param("def f(x, y=None):\n    if y is None:\n        y = x\n    return x + y\n", id="is-none"),
    pytest.param("def f(x):\n    if x > 0:\n        y = 1\n    return x\n", id="dead-assignment"),
    pytest.param("def f(x):\n    for v in x:\n        if v > 0:\n            break\n    return x\n", id="break-left-to-loops"),
    pytest.param("def f(x):\n    if x > 0:\n        return x\n    return -x\n", id="returns-left-to-JX202"),
    pytest.param("x = 1\nif x > 0:\n    y = 2\n", id="module-level"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code, unsafe=True) == textwrap.dedent(code)


REWRITES = [
    pytest.param(
        "def f(x, t):\n    if x.sum() > t:\n        a = x\n        b = 2 * x\n    else:\n        a = -x\n        b = x\n    return a + b\n",
        "import jax.numpy as jnp\n\ndef f(x, t):\n    a = jnp.where(x.sum() > t, x, -x)\n    b = jnp.where(x.sum() > t, 2 * x, x)\n    return a + b\n",
        id="two-outputs",
    ),
    pytest.param(
        "def f(x, y):\n    if x > y:\n        x, y = y, x\n    return x - y\n",
        None,
        id="tuple-target-becomes-cond",
    ),
    pytest.param(
        "def f(a, b):\n    if a > b:\n        a = b\n        b = a\n    return a, b\n",
        None,
        id="reads-earlier-assignment-becomes-cond",
    ),
    pytest.param(
        "def f(x, t):\n    y = x * 1.0\n    if t > 0:\n        y += t\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x, t):\n    y = x * 1.0\n    y = jnp.where(t > 0, y + t, y)\n    return y\n",
        id="augmented-on-fresh-array",
    ),
    pytest.param(
        "def f(x, d):\n    if d > 0:\n        y = x / d\n    else:\n        y = x\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x, d):\n    y = jnp.where(d > 0, x / jnp.where(d > 0, d, 1.0), x)\n    return y\n",
        id="division-guarded",
    ),
    pytest.param(
        "def f(x):\n    if x < 0:\n        y = 0.0\n    elif x < 1:\n        y = x * 2\n    elif x < 2:\n        y = x + 1\n    else:\n        y = x\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    y = jnp.select([x < 0, x < 1, x < 2], [0.0, x * 2, x + 1], x)\n    return y\n",
        id="elif-chain-select",
    ),
    pytest.param(
        "def f(x, t):\n    y = x * 1.0\n    if t > 1:\n        y = y / t\n    elif t < -1:\n        y = -y\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x, t):\n    y = x * 1.0\n    y = jnp.select([t > 1, t < -1], [y / jnp.where(t > 1, t, 1.0), -y], y)\n    return y\n",
        id="one-sided-elif-chain-keeps-prior-value-guarded",
    ),
    pytest.param(
        "import numpy as np\ndef f(x, t):\n    if x.sum() > t:\n        y = x\n    else:\n        y = np.zeros_like(x)\n    return y\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x, t):\n    y = jnp.where(x.sum() > t, x, np.zeros_like(x))\n    return y\n",
        id="zeros-like-has-the-shape",
    ),
    pytest.param(
        "def f(z, alpha: float):\n    if z.mean() > 0:\n        y = z * 2.0\n    else:\n        y = alpha * z\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(z, alpha: float):\n    y = jnp.where(z.mean() > 0, z * 2.0, alpha * z)\n    return y\n",
        id="float-annotated-parameter-is-0d",
    ),
    pytest.param(
        "def f(x):\n    if x > 0:\n        y = x ** 0.5\n    else:\n        y = x ** 2\n    return y\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    y = jnp.where(x > 0, jnp.where(x > 0, x, 1.0) ** 0.5, x ** 2)\n    return y\n",
        id="fractional-power-guarded-integer-power-not",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    out = migrate(code)
    compile(out, "out.py", "exec")
    if expected is None:
        assert "lax.cond(" in out and "_if_true" in out
    else:
        assert out == expected
    assert migrate(out) == out  # idempotent


def test_cond_operands_and_results_come_from_the_analysis():
    code = (
        "def f(x, w, n: int):\n    acc = x\n    if x.mean() > w:\n        acc = acc * 2\n        extra = n\n"
        "        for i in range(n):\n            acc = acc + i\n    return acc\n"
    )
    out = migrate(code)
    assert "def acc_if_true(x, w, acc):" not in out  # x, w are not read by the branch
    assert "def acc_if_true(acc):" in out and "acc = jax.lax.cond(x.mean() > w, acc_if_true, acc_if_false, acc)" in out


SHAPES_TO_COND = [
    pytest.param("def f(x):\n    if x.sum() > 0:\n        y = x\n    else:\n        y = 0.0\n    return y\n", "`0.0` (0-d) and `x`", id="scalar-vs-array"),
    pytest.param("def f(x):\n    if x[0] > 0:\n        y = x[:2]\n    else:\n        y = x[1:]\n    return y\n", "`x[:2]`", id="two-slices"),
    pytest.param("def f(x, t):\n    y = x\n    if x.sum() > 0:\n        y = t\n    return y\n", "`t`", id="one-sided-unrelated-array"),
    pytest.param("def f(x):\n    if x.sum() > 0:\n        y = (x, x)\n    else:\n        y = (x, -x)\n    return y\n", "`(x, x)`", id="tuple-values"),
    pytest.param(
        "def f(x):\n    z = x * 2\n    while z.sum() > 1:\n        w = z * 2\n        z = z[1:]\n    if x.sum() > 0:\n        y = w\n    else:\n        y = z\n    return y\n",
        "`w`",
        id="loop-rebinds-between",
    ),
]


@pytest.mark.parametrize("code, words", SHAPES_TO_COND)
def test_shapes_not_provably_equal_become_cond(code, words):
    """`jnp.where` would broadcast; `lax.cond` raises at trace time on a mismatch instead (a safe fix)."""
    [finding] = [f for f in findings(code) if "x.sum() > 0" in f.message or "x[0] > 0" in f.message]
    assert words in finding.message and "`lax.cond`, not `jnp.where`" in finding.message
    out = migrate(code)
    assert "jnp.where" not in out and "lax.cond(" in out
    assert migrate(out) == out


def test_unknown_condition_is_an_unsafe_fix():
    code = "def f(self, x):\n    if self.gain > 0:\n        y = x\n    else:\n        y = -x\n    return y\n"
    assert migrate(code) == code
    assert "jnp.where(self.gain > 0, x, -x)" in migrate(code, unsafe=True)


REFUSALS = [
    pytest.param("def f(x):\n    if x.sum() > 0:\n        print(x)\n        x = x + 1\n    return x\n", "print", id="print"),
    pytest.param("def f(x, log):\n    if x.sum() > 0:\n        log.append(x)\n    return x\n", "log.append", id="append"),
    pytest.param("def f(x, out):\n    if x.sum() > 0:\n        out[0] = 1.0\n    return x\n", "mutates `out[0]`", id="mutation"),
    pytest.param("def f(x):\n    if x.min() < 0:\n        raise ValueError(x)\n    return x\n", "checkify", id="raise"),
    pytest.param("def f(x):\n    if x.sum() > 0:\n        s = 2.0\n    return x * s\n", "undefined before", id="one-sided-undefined"),
    pytest.param("def f(x, a):\n    b = a\n    if x > 0:\n        b += x\n    return a, b\n", "in place", id="aliased-augmented"),
]


@pytest.mark.parametrize("code, words", REFUSALS)
def test_refusal_reported_at_the_if_line(code, words):
    found = findings(code)
    assert [f.line for f in found] == [textwrap.dedent(code).splitlines().index(next(l for l in code.splitlines() if l.strip().startswith("if "))) + 1]
    assert words in found[0].message
    assert migrate(code, unsafe=True) == code


def test_swap_through_subscripts_is_a_mutation():
    code = "def f(a, j):\n    if a[j] > a[j + 1]:\n        a[j], a[j + 1] = a[j + 1], a[j]\n    return a\n"
    [finding] = findings(code)
    assert finding.line == 2 and "mutates `a[j], a[j + 1]` in place" in finding.message
