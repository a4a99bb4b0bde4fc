"""Edge cases for JX503 traced-print: no-change cases first, then the unsafe rewrites and the reports without fix."""

import textwrap

import pytest

from codemods.traced_print import TracedPrint
from jaxfix.testing.examples import run_rule


def run(code: str, unsafe: bool = True):
    return run_rule(TracedPrint, textwrap.dedent(code), fix=True, unsafe=unsafe)


NOOP = [
    pytest.param("print('start')\nfor i in range(3):\n    print(i)\n", id="module-level"),
    pytest.param("def f(x):\n    print('shape', x.shape, len(x), x.ndim)\n    return x\n", id="static-values"),
    pytest.param("def f(x):\n    print()\n    return x\n", id="no-arguments"),
    pytest.param("def f(x, log=print):\n    log(x)\n    return x\n", id="other-name"),
    pytest.param("def f(x):\n    print = lambda *a: None\n    print(x)\n    return x\n", id="rebound-locally"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    outcome = run(code)
    assert outcome.fixed == textwrap.dedent(code) and not outcome.findings


REWRITES = [
    pytest.param(
        "def f(x):\n    print(x)\n    return x\n",
        "import jax\n\ndef f(x):\n    jax.debug.print(\"{}\", x)\n    return x\n",
        id="single-value",
    ),
    pytest.param(
        "import jax\ndef f(x):\n    print('{a}', x)\n    return x\n",
        "import jax\ndef f(x):\n    jax.debug.print('{{a}} {}', x)\n    return x\n",
        id="braces-in-literal-escaped",
    ),
    pytest.param(
        "from jax import numpy as jnp\ndef f(x):\n    print(f'{x.sum()!s:>8} done')\n    return x\n",
        "from jax import numpy as jnp\nimport jax\ndef f(x):\n    jax.debug.print('{!s:>8} done', x.sum())\n    return x\n",
        id="fstring-conversion-and-spec",
    ),
    pytest.param(
        "def f(x):\n    # show it\n    print('x', x)  # debug\n    return x\n",
        "import jax\n\ndef f(x):\n    # show it\n    jax.debug.print('x {}', x)  # debug\n    return x\n",
        id="comments-kept",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_unsafe_rewrite(code, expected):
    assert run(code, unsafe=False).fixed == textwrap.dedent(code), "never a safe fix"
    assert run(code).fixed == expected


NO_FIX = [
    pytest.param("def f(x):\n    print(x, end='')\n    return x\n", id="end-keyword"),
    pytest.param("def f(x):\n    print(f'{x=}')\n    return x\n", id="fstring-equals"),
    pytest.param("def f(x, w):\n    print(f'{x:{w}}')\n    return x\n", id="nested-spec"),
    pytest.param("def f(x):\n    print(r'\\d', x)\n    return x\n", id="raw-string"),
    pytest.param("def f(x):\n    print('a', \"b\", x)\n    return x\n", id="mixed-quotes"),
    pytest.param("def f(x):\n    y = print(x)\n    return x\n", id="value-used"),
]


@pytest.mark.parametrize("code", NO_FIX)
def test_reported_without_fix(code):
    outcome = run(code)
    assert outcome.fixed == textwrap.dedent(code)
    assert [f.line for f in outcome.findings] == [2] and outcome.findings[0].fix is None
