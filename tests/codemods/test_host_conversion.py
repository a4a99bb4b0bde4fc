"""Edge cases for JX502 host-conversion: no-change cases first, then rewrites, unsafe fixes and diagnostics.

Shapes, slice bounds and `range()` bounds computed from a parameter make that parameter static
(`jaxfix.analysis.static_args`, reported by JX510), so their conversions are static here and left alone."""

import textwrap

import pytest

from codemods.host_conversion import HostConversion
from jaxfix.testing.examples import run_rule


def run(code: str, unsafe: bool = False):
    return run_rule(HostConversion, textwrap.dedent(code), fix=True, unsafe=unsafe)


NOOP = [
    pytest.param("import numpy as np\nX = float(np.sum(np.ones(3)))\n", id="module-level"),
    pytest.param("def f(x):\n    return x.reshape(int(x.shape[0] * 2), -1)\n", id="static-shape"),
    pytest.param("def f(x):\n    n = x.shape[0]\n    return x / float(n)\n", id="local-bound-to-shape"),
    pytest.param("K = 3\ndef f(x):\n    return x * int(K)\n", id="module-constant"),
    pytest.param("import math\ndef f(x):\n    return x * math.pi + math.sqrt(2.0)\n", id="math-constant-and-literal"),
    pytest.param("def f(x):\n    return x + float('inf')\n", id="string-literal"),
    pytest.param("def f(x):\n    return int(x, 2)\n", id="int-with-base"),
    pytest.param("def f(x):\n    return 'float(x)'  # float(x)\n", id="strings-and-comments"),
    pytest.param("def f(d):\n    return d.items()\n", id="items-is-not-item"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    outcome = run(code, unsafe=True)
    assert outcome.fixed == textwrap.dedent(code)
    assert not outcome.findings


SAFE = [
    pytest.param(
        "import numpy as np\ndef f(x):\n    return float(np.std(x)) * x\n",
        "import numpy as np\ndef f(x):\n    return np.std(x) * x\n",
        id="drop-float-of-std",
    ),
    pytest.param(
        "import numpy as np\ndef f(z):\n    return float(np.mean(z)) * z\n",
        "import numpy as np\ndef f(z):\n    return np.mean(z).astype(float) * z\n",
        id="mean-may-be-complex-so-cast",
    ),
    pytest.param(
        "def f(x):\n    return 2 * float(x.sum() + 1)\n",
        "def f(x):\n    return 2 * (x.sum() + 1).astype(float)\n",
        id="astype-keeps-precedence",
    ),
    pytest.param(
        "def f(x, y):\n    return 2 * float(x.std() / y.var())\n",
        "def f(x, y):\n    return 2 * (x.std() / y.var())\n",
        id="drop-with-parentheses",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    i = int(np.argmin(x))\n    return i + 1\n",
        "import numpy as np\ndef f(x):\n    i = np.argmin(x)\n    return i + 1\n",
        id="int-of-argmin-through-a-name",
    ),
    pytest.param(
        "def f(x):\n    return int(x.any()) + x\n",
        "def f(x):\n    return x.any().astype(int) + x\n",
        id="int-of-bool-is-exact",
    ),
    pytest.param(
        "from math import isnan as isnan_\ndef f(x):\n    return isnan_(x.max())\n",
        "import jax.numpy as jnp\ndef f(x):\n    return jnp.isnan(x.max())\n",
        id="from-math-import-alias",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    total = np.sum(x)\n    if x.ndim:\n        total = x.max()\n    return float(total) / 2\n",
        "import numpy as np\ndef f(x):\n    total = np.sum(x)\n    if x.ndim:\n        total = x.max()\n    return total.astype(float) / 2\n",
        id="every-reaching-definition-is-0d",
    ),
    pytest.param(
        "def f(x):\n    if bool(x.all()):\n        return x\n    return -x\n",
        "def f(x):\n    if x.all():\n        return x\n    return -x\n",
        id="test-of-if-left-to-control-flow-rules",
    ),
    # one element of a local array whose rank the code shows is 0-d (`jaxfix.analysis.scalars.rank`)
    pytest.param(
        "import jax.numpy as jnp\ndef f(x):\n    y = jnp.zeros(3)\n    y = y.at[0].set(x.sum())\n    return float(y[0])\n",
        "import jax.numpy as jnp\ndef f(x):\n    y = jnp.zeros(3)\n    y = y.at[0].set(x.sum())\n    return y[0].astype(float)\n",
        id="element-of-at-updated-vector",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    n = len(x)\n    y = np.ones((n, n + 1)) * x.max()\n    return float(np.sqrt(y[1, -1]))\n",
        "import numpy as np\ndef f(x):\n    n = len(x)\n    y = np.ones((n, n + 1)) * x.max()\n    return np.sqrt(y[1, -1]).astype(float)\n",
        id="element-of-table-sized-by-len",
    ),
    pytest.param(
        "import numpy as np\ndef f(x):\n    y = np.arange(4) * x.sum()\n    k = 1\n    return float(y[k]) * float(y[-1])\n",
        "import numpy as np\ndef f(x):\n    y = np.arange(4) * x.sum()\n    k = 1\n    return y[k].astype(float) * y[-1].astype(float)\n",
        id="element-at-int-name",
    ),
]


@pytest.mark.parametrize("code, expected", SAFE)
def test_safe_rewrite(code, expected):
    assert run(code).fixed == expected


def test_method_of_a_jnp_result_is_a_method_reduction():
    code = "import jax.numpy as jnp\ndef f(x):\n    return bool(jnp.isfinite(x).all())\n"
    assert run(code).fixed == "import jax.numpy as jnp\ndef f(x):\n    return jnp.isfinite(x).all()\n"


def test_index_of_an_in_place_update_waits_for_the_in_place_rules():
    code = "def f(x, c):\n    c[int(x.sum())] += 1\n    return c\n"
    outcome = run(code, unsafe=True)
    assert outcome.fixed == code and "in-place" in outcome.findings[0].message


def test_at_update_is_an_array_use():
    code = "def f(x, i):\n    return x.at[i].add(float(x.std()))\n"
    assert run(code).fixed == "def f(x, i):\n    return x.at[i].add(x.std())\n"


def test_int_index_of_an_at_update_is_safe():
    # out of range NumPy raises and JAX drops the update, as for every index under jit; the index's shape does not
    # matter there (one element either way), so neither the 0-d nor the NaN/overflow caveat applies
    code = "def f(v, c):\n    return c.at[int(v * 10)].add(1)\n"
    outcome = run(code)
    assert outcome.fixed == "import jax.numpy as jnp\n\ndef f(v, c):\n    return c.at[jnp.asarray(v * 10, dtype=int)].add(1)\n"


def test_int_index_of_a_plain_read_stays_unsafe():
    code = "def f(v, c):\n    return c[int(v * 10)]\n"
    outcome = run(code)
    assert outcome.fixed == code and "index" in outcome.findings[0].message


UNSAFE = [
    pytest.param(
        "def f(x):\n    return float(x) * 2\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.asarray(x, dtype=float) * 2\n",
        "one-element array",
        id="unknown-shape",
    ),
    pytest.param(
        "def f(x):\n    return int(x.sum()) % 7\n",
        "def f(x):\n    return x.sum().astype(int) % 7\n",
        "NaN",
        id="int-truncation-of-unknown-kind",
    ),
    pytest.param(
        "import math\ndef f(x):\n    return math.sqrt(x.var())\n",
        "import jax.numpy as jnp\ndef f(x):\n    return jnp.sqrt(x.var())\n",
        "domain",
        id="math-partial-function",
    ),
    pytest.param(
        "import math\ndef f(x):\n    return math.floor(x.max())\n",
        "import jax.numpy as jnp\ndef f(x):\n    return jnp.floor(x.max()).astype(int)\n",
        "domain",
        id="math-floor-returns-int",
    ),
    pytest.param(
        "def f(x):\n    m = float(x.sum())\n    print(m)\n    return int(m)\n",
        "import jax.numpy as jnp\n\ndef f(x):\n    m = float(x.sum())\n    print(m)\n    return jnp.asarray(m, dtype=int)\n",
        "one-element",
        id="python-scalar-name-has-no-astype",
    ),
    pytest.param(
        "def f(x, table):\n    return table[int(x.argmax())]\n",
        "def f(x, table):\n    return table[x.argmax()]\n",
        "index",
        id="used-as-index",
    ),
    pytest.param(
        "def f(x):\n    return helper(float(x.sum()))\n",
        "def f(x):\n    return helper(x.sum().astype(float))\n",
        "helper",
        id="passed-to-unknown-function",
    ),
    pytest.param(  # a row of a table, not an element
        "import numpy as np\ndef f(x):\n    y = np.zeros((2, 2)) + x.sum()\n    return float(y[0])\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x):\n    y = np.zeros((2, 2)) + x.sum()\n    return jnp.asarray(y[0], dtype=float)\n",
        "one-element array",
        id="row-of-a-table",
    ),
    pytest.param(  # a parameter may be a shape tuple
        "import numpy as np\ndef f(x, n):\n    y = np.zeros(n) + x.sum()\n    return float(y[0])\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x, n):\n    y = np.zeros(n) + x.sum()\n    return jnp.asarray(y[0], dtype=float)\n",
        "one-element array",
        id="size-from-a-parameter",
    ),
    pytest.param(  # an object's `.size` may be a tuple (PIL's `Image.size`)
        "import numpy as np\ndef f(x, img):\n    y = np.zeros(img.size) + x.sum()\n    return float(y[0])\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x, img):\n    y = np.zeros(img.size) + x.sum()\n    return jnp.asarray(y[0], dtype=float)\n",
        "one-element array",
        id="size-attribute-of-an-object",
    ),
    pytest.param(  # a `global` name: a call in between may rebind it
        "import numpy as np\ndef f(x):\n    global Y\n    Y = np.zeros(3) + x.sum()\n    g()\n    return float(Y[0])\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x):\n    global Y\n    Y = np.zeros(3) + x.sum()\n    g()\n    return jnp.asarray(Y[0], dtype=float)\n",
        "one-element array",
        id="global-name",
    ),
    pytest.param(  # one path makes a vector, the other a table
        "import numpy as np\ndef f(x, c):\n    y = np.zeros(3) + x.sum()\n    if c:\n        y = np.zeros((3, 1)) + x.sum()\n"
        "    return float(y[0])\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x, c):\n    y = np.zeros(3) + x.sum()\n    if c:\n"
        "        y = np.zeros((3, 1)) + x.sum()\n    return jnp.asarray(y[0], dtype=float)\n",
        "one-element array",
        id="ranks-differ-by-path",
    ),
    pytest.param(  # an index array picks several elements
        "import numpy as np\ndef f(x, k):\n    y = np.zeros(3) + x.sum()\n    return float(y[k])\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x, k):\n    y = np.zeros(3) + x.sum()\n    return jnp.asarray(y[k], dtype=float)\n",
        "one-element array",
        id="index-of-unknown-kind",
    ),
    pytest.param(  # `np.linspace` of rows is a table
        "import numpy as np\ndef f(x):\n    y = np.linspace(x[0], x[1], 5)\n    return float(y[0])\n",
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x):\n    y = np.linspace(x[0], x[1], 5)\n    return jnp.asarray(y[0], dtype=float)\n",
        "one-element array",
        id="linspace-of-unknown-ends",
    ),
]


@pytest.mark.parametrize("code, expected, why", UNSAFE)
def test_unsafe_rewrite(code, expected, why):
    assert run(code).fixed == code, "the safe run must not change it"
    outcome = run(code, unsafe=True)
    assert outcome.fixed == expected
    assert any(why in f.message for f in run_rule(HostConversion, code).findings)


HOST = [
    pytest.param("def f(x):\n    print('total', float(x.sum()))\n", 2, "printed", id="print"),
    pytest.param("def f(x):\n    return f'{float(x.mean()):.2f}'\n", 2, "f-string", id="f-string"),
    pytest.param("def f(x):\n    return '%d' % int(x.sum())\n", 2, "string", id="percent-format"),
    pytest.param("def f(x, out):\n    out.append(float(x.max()))\n", 2, "container", id="append"),
    pytest.param("def f(x, s):\n    s.add(float(x.max()))\n", 2, "set", id="set-add"),
    pytest.param("def f(x):\n    return {int(x.argmax()): 1}\n", 2, "dict key", id="dict-key"),
    pytest.param(
        "def f(x):\n    n = int(\n        x.sum()\n    )\n    print(n)\n", 2, "line 6", id="statement-first-line"
    ),
    pytest.param("def f(x):\n    return x.tolist()\n", 2, "Python lists", id="tolist"),
]


@pytest.mark.parametrize("code, line, why", HOST)
def test_host_use_is_reported_without_fix(code, line, why):
    code = "import numpy as np\n" + code
    line += 1
    outcome = run_rule(HostConversion, code, fix=True, unsafe=True)
    assert outcome.fixed == code
    assert [f.line for f in outcome.findings] == [line]
    assert why in outcome.findings[0].message and outcome.findings[0].fix is None
