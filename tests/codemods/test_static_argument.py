"""Edge cases for JX510 static-argument: no-change cases first, then fixes and reports."""

import textwrap

import pytest

from codemods.static_argument import StaticArgument
from jaxfix.testing.examples import run_rule


def run(code: str):
    return run_rule(StaticArgument, textwrap.dedent(code), fix=True)


NOOP = [
    pytest.param("def f(x, i):\n    return x[i] + x[i + 1]\n", id="dynamic-index"),
    pytest.param("def f(x):\n    return x[: x.shape[0] // 2].reshape(len(x) // 2, -1)\n", id="shape-metadata"),
    pytest.param("import jax\n@jax.jit(static_argnums=(1,))\ndef f(x, n):\n    return x[:n]\n", id="declared-by-number"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        x = x + i\n    return x\n", id="loop-left-to-loop-rules"),
    pytest.param("def f(x, n):\n    def g(m):\n        return x[:m]\n    return g(2) * n\n", id="nested-function-not-searched"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    outcome = run(code)
    assert outcome.fixed == textwrap.dedent(code) and not outcome.findings


FIXES = [
    pytest.param(
        "import jax\n@jax.jit\ndef f(x, n):\n    return x.reshape(n, -1)\n",
        '@jax.jit(static_argnames=("n",))',
        id="bare-decorator",
    ),
    pytest.param(
        "import jax\n@jax.jit(static_argnames='k')\ndef f(x, k, n):\n    return jax.numpy.zeros((n,)) + x.sum(axis=k)\n",
        "@jax.jit(static_argnames=('k', \"n\"))",
        id="extends-existing-names",
    ),
    pytest.param(
        "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef f(x, a, b):\n    return x[a:b]\n",
        '@partial(jax.jit, donate_argnums=0, static_argnames=("a", "b"))',
        id="partial-two-params-at-once",
    ),
]


@pytest.mark.parametrize("code, decorator", FIXES)
def test_fix_adds_static_argnames(code, decorator):
    outcome = run(code)
    assert decorator in outcome.fixed
    assert run(outcome.fixed).fixed == outcome.fixed and not run(outcome.fixed).findings


def test_fixed_function_runs_under_jit():
    import numpy as np

    namespace: dict = {}
    exec(run("import jax\n@jax.jit\ndef f(x, n):\n    return x[:n] * 2\n").fixed, namespace)
    assert np.allclose(namespace["f"](np.arange(4.0), 2), [0.0, 2.0])


def test_without_decorator_the_message_says_how_to_jit():
    code = "import numpy as np\ndef grid(x, rows):\n    m = rows + 1\n    return np.zeros((m, 2)) + x\n"
    outcome = run(code)
    assert outcome.fixed == code
    [finding] = outcome.findings
    assert finding.line == 4 and "jax.jit(grid, static_argnames=('rows',))" in finding.message


def test_python_loop_bound_and_callee_static_argument():
    code = (
        "import jax\n@jax.jit(static_argnames=('k',))\ndef top(x, k):\n    return x[:k]\n"
        "def f(x, n, k):\n    out = []\n    for i in range(n):\n        out.append(x[i])\n    return top(x, k), out\n"
    )
    found = {f.message.split("`")[1]: f.line for f in run(code).findings}
    assert found == {"n": 7, "k": 9}
