"""Edge cases for JX104 mutated-argument: no-change cases first, then the unsafe fix, then report-only."""

import textwrap

import pytest

from codemods.mutated_argument import MutatedArgument
from jaxfix.testing.examples import run_rule


def migrate(code: str, unsafe: bool = False) -> str:
    return run_rule(MutatedArgument, textwrap.dedent(code), fix=True, unsafe=unsafe).fixed


def findings(code: str):
    return [(f.line, f.message) for f in run_rule(MutatedArgument, textwrap.dedent(code)).findings]


NOOP = [
    pytest.param("def f(x):\n    x[0] = 1.0\n    return x\n", id="already-returns"),
    pytest.param("def f(x):\n    y = x.copy()\n    y[1:] = 0.0\n    print(y)\n", id="local-copy"),
    pytest.param("def f(cache, key, value):\n    cache[key] = value\n", id="dict-argument"),
    pytest.param("def f(xs):\n    for x in xs:\n        yield x\n    xs[0] = 1\n", id="generator"),
    pytest.param("def f(x):\n    s = x.sum()\n    s += 1.0\n    print(s)\n", id="local-name-augassign"),
    pytest.param("import numpy as np\nA = np.zeros(2)\nA[0] = 1\n", id="module-level"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code, unsafe=True) == textwrap.dedent(code)
    assert findings(code) == []


FIXES = [
    pytest.param(
        "def f(a, b):\n    a[0] = 1.0\n    b += a[1:]\n",
        "def f(a, b):\n    a[0] = 1.0\n    b += a[1:]\n    return a, b\n",
        [1, 2, 3],
        id="two-arguments",
    ),
    pytest.param(
        "import numpy as np\ndef f(x, i):\n    for k in range(2):\n        np.add.at(x, i, k)\n",
        "import numpy as np\ndef f(x, i):\n    for k in range(2):\n        np.add.at(x, i, k)\n    return x\n",
        [2, 4],
        id="ufunc-at-in-loop",
    ),
    pytest.param(
        "def f(x, flag):\n    if flag:\n        x.fill(0.0)\n        return\n    x[:] = 1.0  # reset\n",
        "def f(x, flag):\n    if flag:\n        x.fill(0.0)\n        return x\n    x[:] = 1.0  # reset\n    return x\n",
        [1, 3, 5],
        id="bare-return-and-trailing-comment",
    ),
]


@pytest.mark.parametrize("code, expected, lines", FIXES)
def test_unsafe_fix(code, expected, lines):
    assert migrate(code) == code
    assert migrate(code, unsafe=True) == expected
    assert sorted({line for line, _ in findings(code)}) == lines


def test_view_of_argument_is_report_only():
    code = "def f(m):\n    top = m[0]\n    top[:] = 0.0\n"
    assert migrate(code, unsafe=True) == code
    got = findings(code)
    assert [line for line, _ in got] == [1, 3]
    assert "view or alias" in got[0][1]
