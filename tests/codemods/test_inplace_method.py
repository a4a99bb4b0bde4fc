"""Edge cases for JX103 inplace-method: no-change cases first, then rewrites, then unsafe and report-only."""

import textwrap

import pytest

from codemods.inplace_method import InplaceMethod
from jaxfix.testing.examples import run_rule


def migrate(code: str, unsafe: bool = False) -> str:
    return run_rule(InplaceMethod, textwrap.dedent(code), fix=True, unsafe=unsafe).fixed


def findings(code: str):
    return [(f.line, f.message) for f in run_rule(InplaceMethod, textwrap.dedent(code)).findings]


NOOP = [
    pytest.param("import numpy as np\nB = np.zeros(3)\nB.fill(2)\nnp.add(B, 1, out=B)\n", id="module-level"),
    pytest.param("def f(xs):\n    ys = sorted(xs)\n    zs = [3, 1]\n    zs.sort()\n    return ys, zs\n", id="list-sort"),
    pytest.param("def f(items):\n    items.sort(key=len)\n    return items\n", id="parameter-without-array-use"),
    pytest.param("import numpy as np\ndef f(x):\n    return np.sum(x, axis=0)\n", id="no-out"),
    pytest.param("import jax.numpy as jnp\ndef f(x):\n    y = jnp.sort(x)\n    return y\n", id="already-functional"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code, unsafe=True) == textwrap.dedent(code)
    assert findings(code) == []


REWRITES = [
    pytest.param(
        "import numpy as np\ndef f(a, b):\n    c = np.empty((2, 2))\n    np.matmul(a, b, out=c)\n    return np.pi * c\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(a, b):\n    c = np.empty((2, 2))\n"
        "    c = jnp.matmul(a, b).astype(c.dtype)\n    return np.pi * c\n",
        id="out-not-an-input-keeps-its-dtype",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    y = np.abs(x)\n    y.sort(0)\n    np.sqrt(y, out=y)  # roots\n    return np.pi * y\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x):\n    y = np.abs(x)\n    y = jnp.sort(y, 0)\n"
        "    y = jnp.sqrt(y)  # roots\n    return np.pi * y\n",
        id="positional-axis-and-unary-out",
    ),
    pytest.param(
        "import jax.numpy as J\nimport numpy as np\ndef f(x):\n    y = np.zeros(3)\n    np.copyto(y, 1.0, casting='unsafe')\n    return np.pi * y + J.sum(x)\n",
        "import jax.numpy as J\nimport numpy as np\ndef f(x):\n    y = np.zeros(3)\n    y = J.broadcast_to(1.0, y.shape).astype(y.dtype)\n    return np.pi * y + J.sum(x)\n",
        id="copyto-scalar-with-module-jnp-alias",
    ),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected
    assert migrate(expected) == expected


def test_out_parameter_is_unsafe():
    code = "import numpy as np\ndef f(x, out):\n    np.multiply(x, 2.0, out=out)\n    return np.pi\n"
    assert migrate(code) == code
    assert "out = jnp.multiply(x, 2.0).astype(out.dtype)" in migrate(code, unsafe=True)
    assert "belongs to the caller" in findings(code)[0][1]


def test_view_fill_is_unsafe():
    code = "import numpy as np\ndef f(x):\n    a = np.ones((2, 2))\n    top = a[0]\n    top.fill(x)\n    return a\n"
    assert migrate(code) == code
    assert "`a` refers to the same memory" in findings(code)[0][1]


@pytest.mark.parametrize(
    "call",
    ["np.add(y, 1.0, out=y, where=y > 0)", "y.sort(order='f')", "np.copyto(y[0], 1.0)", "np.add(1.0, 2.0, out=y[0])"],
)
def test_report_only(call):
    code = f"import numpy as np\ndef f(x):\n    y = np.zeros(3)\n    {call}\n    return np.pi * y\n"
    assert migrate(code, unsafe=True) == code
    assert [line for line, _ in findings(code)] == [4]


def test_sort_of_a_parameter_that_may_be_an_array_is_reported():
    """JAX's `.sort()` returns a copy: on an array parameter the NumPy line would silently do nothing."""
    code = "import numpy as np\ndef f(x):\n    x.sort()\n    return x[0]\n"
    assert migrate(code, unsafe=True) == code
    assert [line for line, _ in findings(code)] == [3]
