"""Edge cases for JX221 while-loop: no-change cases first, then rewrites, then refusals at the loop's line."""

import textwrap

import pytest

from codemods.while_loop import WhileLoop
from jaxfix.testing.examples import run_rule


def migrate(code: str) -> str:
    return run_rule(WhileLoop, textwrap.dedent(code), fix=True).fixed


NOOP = [
    pytest.param("def f(x):\n    k = 0\n    while k < 5:\n        x = x + k\n        k += 1\n    return x\n", id="static-counter"),
    pytest.param("def f(x, n: int):\n    while n > 1:\n        n = n // 2\n        x = x * 2\n    return x\n", id="static-annotated-bound"),
    pytest.param("x = 10.0\nwhile x > 1:\n    x = x / 2\n", id="module-level"),
    pytest.param("def f(q):\n    while q:\n        q.pop()\n", id="unknown-container"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code) == textwrap.dedent(code)


REWRITES = [
    pytest.param(
        "from jax import lax\nimport jax.numpy as jnp\ndef f(x, lo, hi):\n    while not (x < lo or x > hi):\n        x = x * 1.5\n    return x\n",
        "from jax import lax\nimport jax.numpy as jnp\ndef f(x, lo, hi):\n    def cond(x):\n        return jnp.logical_not(jnp.logical_or(x < lo, x > hi))\n\n"
        "    def body(x):\n        x = x * 1.5\n        return x\n\n    x = lax.while_loop(cond, body, x)\n    return x\n",
        id="boolean-operators-and-import-style",
    ),
    pytest.param(
        "def f(x, t):\n    n = 0\n    y = x\n    while y > t:\n        z = y * 0.5\n        y = z\n        n = n + 1\n    return n\n",
        "import jax\n\ndef f(x, t):\n    n = 0\n    y = x\n\n    def cond(carry):\n        y, _ = carry\n        return y > t\n\n"
        "    def body(carry):\n        y, n = carry\n        z = y * 0.5\n        y = z\n        n = n + 1\n        return y, n\n\n"
        "    y, n = jax.lax.while_loop(cond, body, (y, n))\n    return n\n",
        id="temporaries-not-carried",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected


def test_title_says_forward_mode_only():
    outcome = run_rule(WhileLoop, "def f(x, t):\n    while x > t:\n        x = x / 2\n    return x\n")
    assert "forward-mode" in outcome.findings[0].fix.title


REFUSALS = [
    pytest.param("def f(x, t):\n    while x > t:\n        x = x / 2\n        if x < 1:\n            x = x + 3\n    return x\n", "branch", id="traced-if"),
    pytest.param("def f(x, t):\n    while x[0] > t:\n        x[0] = x[0] / 2\n    return x\n", "in-place", id="item-assignment"),
    pytest.param("def f(x, t):\n    while x > t:\n        x = x / 2\n        print(x)\n    return x\n", "I/O", id="io"),
    pytest.param("def f(x, t):\n    while x > t:\n        y = x / 2\n    return x\n", "nothing in the body", id="condition-never-changes"),
    pytest.param("def f(x, t):\n    out = []\n    while x > t:\n        x = x / 2\n        out.append(x)\n    return out\n", "appends", id="append"),
]


@pytest.mark.parametrize("code, reason", REFUSALS)
def test_refusal_reported_at_the_loop(code, reason):
    outcome = run_rule(WhileLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [3 if "out = []" in code else 2]
    assert reason in outcome.findings[0].message
