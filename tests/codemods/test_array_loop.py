"""Edge cases for JX222 array-loop: no-change cases first, then rewrites, then refusals at the loop's line."""

import textwrap

import pytest

from codemods.array_loop import ArrayLoop
from jaxfix.testing.examples import run_rule


def migrate(code: str) -> str:
    return run_rule(ArrayLoop, textwrap.dedent(code), fix=True).fixed


NOOP = [
    pytest.param("def f(x):\n    dims = []\n    for d in x.shape:\n        dims.append(d)\n    return dims\n", id="static-shape-loop"),
    pytest.param("def f(x, n):\n    for i in range(n):\n        x = x + i\n    return x\n", id="range-without-append-is-JX220"),
    pytest.param("def f(xs):\n    for x in xs:\n        y = x * 2\n    return xs\n", id="nothing-carried-or-stacked"),
    pytest.param("ys = []\nfor x in [1, 2]:\n    ys.append(x)\n", id="module-level"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code) == textwrap.dedent(code)


REWRITES = [
    pytest.param(
        "import jax.numpy as jnp\nfrom jax import lax\ndef f(xs, c):\n    outs = []\n    for x in xs:\n        c = c * 0.5 + x\n        outs.append(c * 2)\n"
        "    return jnp.array(outs), c\n",
        "import jax.numpy as jnp\nfrom jax import lax\ndef f(xs, c):\n    def step(c, x):\n        c = c * 0.5 + x\n        return c, c * 2\n\n"
        "    c, outs = lax.scan(step, c, xs)\n    return outs, c\n",
        id="jnp-array-of-list",
    ),
    pytest.param(
        "def f(xs):\n    sq, cube = [], []\n    for x in xs:\n        sq.append(x * x)\n        cube.append(x * x * x)\n    return sq\n",
        "def f(xs):\n    sq, cube = [], []\n    for x in xs:\n        sq.append(x * x)\n        cube.append(x * x * x)\n    return sq\n",
        id="tuple-initialised-lists-are-left",
    ),
    pytest.param(
        "import numpy as np\ndef f(xs):\n    sq = []\n    cube = []\n    for x in xs:\n        sq.append(x * x)\n        cube.append(x * x * x)\n"
        "    return np.stack(sq) + np.stack(cube)\n",
        "import jax\ndef f(xs):\n    def step(_, x):\n        return None, (x * x, x * x * x)\n\n"
        "    _, (sq, cube) = jax.lax.scan(step, None, xs)\n    return sq + cube\n",
        id="two-outputs-no-carry",
    ),
    pytest.param(
        "def f(a, b, s):\n    for x, y in zip(a, b):\n        s = s + x * y\n    return s\n",
        "import jax\n\ndef f(a, b, s):\n    def step(s, item):\n        x, y = item\n        s = s + x * y\n        return s, None\n\n"
        "    s, _ = jax.lax.scan(step, s, (a, b))\n    return s\n",
        id="zip",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected


REFUSALS = [
    pytest.param("def f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n    return out\n", "used after the loop", id="list-not-stacked"),
    pytest.param("import numpy as np\ndef f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n        x = x + 1\n    return np.stack(out)\n", "last statements", id="append-not-last"),
    pytest.param("def f(a, b, h):\n    for m in [a, b.T]:\n        h = m @ h\n    return h\n", "Python container", id="list-of-arrays"),
    pytest.param("def f(xs, h):\n    mats = [xs, xs[1:]]\n    for m in mats:\n        h = m @ h\n    return h\n", "Python container", id="list-variable"),
    pytest.param("def f(xs, h):\n    for x in xs:\n        h = h + x\n        if h > 3:\n            break\n    return h\n", "break", id="break"),
    pytest.param("def f(xs, h):\n    for x in xs:\n        h = h + x\n    else:\n        h = 0\n    return h\n", "else", id="for-else"),
]


@pytest.mark.parametrize("code, reason", REFUSALS)
def test_refusal_reported_at_the_loop(code, reason):
    outcome = run_rule(ArrayLoop, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    loop_line = 1 + next(i for i, line in enumerate(code.splitlines()) if line.lstrip().startswith("for "))
    assert [f.line for f in outcome.findings] == [loop_line]
    assert reason in outcome.findings[0].message
