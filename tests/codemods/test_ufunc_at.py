"""Edge cases for JX102 ufunc-at: no-change cases first, then rewrites, then unsafe and report-only."""

import textwrap

import pytest

from codemods.ufunc_at import UfuncAt
from jaxfix.testing.examples import run_rule


def migrate(code: str, unsafe: bool = False) -> str:
    return run_rule(UfuncAt, textwrap.dedent(code), fix=True, unsafe=unsafe).fixed


def findings(code: str):
    return [(f.line, f.message) for f in run_rule(UfuncAt, textwrap.dedent(code)).findings]


NOOP = [
    pytest.param("import numpy as np\nH = np.zeros(3)\nnp.add.at(H, [1, 1], 1)\n", id="module-level"),
    pytest.param("import numpy as np\ndef f(x):\n    return np.add.accumulate(x)\n", id="other-ufunc-method"),
    pytest.param("def f(add, x):\n    add.at(x, 0, 1)\n    return x\n", id="not-numpy"),
    pytest.param("import numpy as np\ndef f(np, x):\n    np.add.at(x, 0, 1)\n    return x\n", id="shadowed-numpy"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code, unsafe=True) == textwrap.dedent(code)
    assert findings(code) == []


REWRITES = [
    pytest.param(
        "import numpy as np\ndef f(i, v):\n    c = np.zeros(5)\n    np.divide.at(c, i, v)\n    np.power.at(c, i, 2)\n    return np.pi * c\n",
        "import numpy as np\ndef f(i, v):\n    c = np.zeros(5)\n    c = c.at[i].divide(v)\n    c = c.at[i].power(2)\n    return np.pi * c\n",
        id="divide-and-power",
    ),
    pytest.param(
        "import numpy as np\nfrom numpy import add\ndef f(r, c):\n    g = np.zeros((2, 2))\n    add.at(g, (r, slice(None)), 1.0)\n    return np.pi * g\n",
        "import numpy as np\ndef f(r, c):\n    g = np.zeros((2, 2))\n    g = g.at[r, slice(None)].add(1.0)\n    return np.pi * g\n",
        id="bare-name-import-and-tuple-index",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected
    assert migrate(expected) == expected


# `ufunc.at` casts back to the array's dtype after every update; `.at[]` promotes the whole array and casts once.
DTYPE_SAFE = [
    pytest.param("c = np.zeros(4, dtype=int)\n    np.add.at(c, i, 1)", "c = c.at[i].add(1)", id="int-into-int-array"),
    pytest.param("c = np.zeros(4, np.int32)\n    np.maximum.at(c, i, i)", "c = c.at[i].max(i)", id="int-index-values-into-int-array"),
    pytest.param("c = np.ones(4)\n    np.divide.at(c, i, w)", "c = c.at[i].divide(w)", id="anything-into-a-float-array"),
]


@pytest.mark.parametrize("setup, line", DTYPE_SAFE)
def test_dtype_kept_is_safe(setup, line):
    code = f"import numpy as np\ndef f(i: 'NDArray[np.int32]', w):\n    {setup}\n    return np.pi * c\n"
    assert line in migrate(code)


DTYPE_UNSAFE = [
    pytest.param("c = np.zeros(4, int)\n    np.add.at(c, i, 1.5)", "c = c.at[i].add(1.5)", "higher kind", id="float-into-int-array"),
    pytest.param("c = np.zeros(4, np.int32)\n    np.add.at(c, i, w)", "c = c.at[i].add(w)", "higher kind", id="unknown-into-int-array"),
    pytest.param("c = np.ones(4, dtype=int)\n    np.divide.at(c, i, 2)", "c = c.at[i].divide(2)", "returns floats", id="divide-int-array"),
    pytest.param("c = np.arange(4)\n    np.multiply.at(c, i, w)", "c = c.at[i].multiply(w)", "higher kind", id="arange-is-int"),
]


@pytest.mark.parametrize("setup, line, reason", DTYPE_UNSAFE)
def test_dtype_may_change_is_unsafe(setup, line, reason):
    code = f"import numpy as np\ndef f(i: 'NDArray[np.int32]', w):\n    {setup}\n    return np.pi * c\n"
    assert migrate(code) == code
    assert reason in findings(code)[0][1]
    assert line in migrate(code, unsafe=True)


def test_parameter_is_unsafe():
    code = "import numpy as np\ndef f(acc, i):\n    np.add.at(acc, i, 1)\n    return np.pi * acc\n"
    assert migrate(code) == code
    assert "c = acc.at[i].add(1)" in migrate(code, unsafe=True)
    assert "belongs to the caller" in findings(code)[0][1]


def test_alias_is_unsafe():
    code = "import numpy as np\ndef f(i):\n    a = np.zeros(3)\n    b = a\n    np.add.at(a, i, 1)\n    return np.pi * b\n"
    assert migrate(code) == code
    assert "`b` refers to the same memory" in findings(code)[0][1]


@pytest.mark.parametrize("call", ["np.logical_or.at(m, i, True)", "np.add.at(m, i)", "np.add.at(m[0], i, 1)"])
def test_report_only(call):
    code = f"import numpy as np\ndef f(i):\n    m = np.zeros(3, bool)\n    {call}\n    return np.pi * m\n"
    assert migrate(code, unsafe=True) == code
    assert [line for line, _ in findings(code)] == [4]
