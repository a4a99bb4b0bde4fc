"""Edge cases for JX303 value-dependent-shape: no-change cases first, then reports and the unsafe `size=` fix."""

import textwrap

import pytest

from codemods.value_dependent_shape import ValueDependentShape
from jaxfix.testing.examples import run_rule


def run(code: str, unsafe: bool = False):
    return run_rule(ValueDependentShape, textwrap.dedent(code), fix=True, unsafe=unsafe)


HEAD = "import numpy as np\n"
NOOP = [
    pytest.param(HEAD + "IDX = np.flatnonzero(np.arange(4) > 1)\n", id="module-level"),
    pytest.param(HEAD + "def f(m, x):\n    return np.where(m, x, 0.0)\n", id="three-argument-where"),
    pytest.param("import jax.numpy as jnp\ndef f(m):\n    return jnp.nonzero(m, size=3, fill_value=-1)\n", id="bounded"),
    pytest.param(HEAD + "def f(x):\n    return x[x > 0].sum(), len(x[x < 0])\n", id="masked-reads-reduced"),
    pytest.param(HEAD + "def f(x):\n    y = x.copy()\n    y[y > 0] = y[y > 0] * 2\n    return y\n", id="masked-write"),
    pytest.param(HEAD + "def f(x):\n    s = x[x > 0]\n    return s.mean()\n", id="named-selection-only-reduced"),
    pytest.param(HEAD + "def f(x, i: int):\n    return x[i]\n", id="plain-index"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    outcome = run(code, unsafe=True)
    assert outcome.fixed == code and not outcome.findings


J = "import jax.numpy as jnp\n"
FIXES = [
    pytest.param(HEAD + "def f(m):\n    return np.nonzero(m)\n", J + "def f(m):\n    return jnp.nonzero(m, size=m.size)\n", id="nonzero"),
    pytest.param(HEAD + "def f(m):\n    return np.where(m)\n", J + "def f(m):\n    return jnp.where(m, size=m.size)\n", id="one-argument-where"),
    pytest.param(HEAD + "def f(x):\n    return np.argwhere(x > 0)\n", J + "def f(x):\n    return jnp.argwhere(x > 0, size=(x > 0).size)\n", id="argwhere-of-expression"),
    pytest.param(HEAD + "def f(labels):\n    return np.unique(labels)\n", J + "def f(labels):\n    return jnp.unique(labels, size=labels.size)\n", id="unique"),
    pytest.param(HEAD + "def f(m):\n    return m.nonzero()\n", J + HEAD + "def f(m):\n    return jnp.nonzero(m, size=m.size)\n", id="method"),
]


@pytest.mark.parametrize("code, expected", FIXES)
def test_unsafe_size_fix(code, expected):
    outcome = run(code)
    assert outcome.fixed == code, "the size= form pads the result: never a safe fix"
    assert "pads" in outcome.findings[0].message and outcome.findings[0].line == 3
    assert run(code, unsafe=True).fixed == expected


def test_report_at_the_statement_first_line():
    code = HEAD + "def f(x):\n    y = (\n        x[x > 0]\n        * 2\n    )\n    return y\n"
    outcome = run(code, unsafe=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [3] and outcome.findings[0].fix is None


def test_selection_read_as_value_through_a_name():
    code = HEAD + "def f(x):\n    s = x[x > 0]\n    return s.sum(), s\n"
    outcome = run(code, unsafe=True)
    assert [f.line for f in outcome.findings] == [3]
