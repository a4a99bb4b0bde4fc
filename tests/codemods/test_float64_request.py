"""Edge cases for JX601 float64-request: no-change cases first, then the requests it reports (never fixed)."""

import textwrap

import pytest

from codemods.float64_request import Float64Request
from jaxfix.testing.examples import run_rule


def findings(code: str, **settings):
    outcome = run_rule(Float64Request, textwrap.dedent(code), fix=True, unsafe=True, settings=settings)
    assert outcome.fixed == textwrap.dedent(code), "JX601 never rewrites"
    return [(f.line, f.message) for f in outcome.findings]


NOOP = [
    pytest.param("import numpy as np\nTABLE = np.arange(4, dtype=np.float64)\n", id="module-level"),
    pytest.param("import numpy as np\ndef f(x):\n    return np.finfo(x.dtype).eps * x\n", id="dtype-inspection"),
    pytest.param("import numpy as np\ndef f(x):\n    return np.issubdtype(x.dtype, np.float64)\n", id="issubdtype"),
    pytest.param("import numpy as np\ndef f(x):\n    return x.astype(np.float32), np.zeros(2, 'f4')\n", id="float32"),
    pytest.param("import numpy as np\ndef f(x):\n    return x.astype(float)\n", id="builtin-float-not-reported"),
    pytest.param(
        "import jax\nimport numpy as np\njax.config.update(\"jax_enable_x64\", True)\n"
        "def f(x):\n    return np.float64(x)\n",
        id="module-enables-x64",
    ),
    pytest.param("def f(x):\n    return 'np.float64(x)'\n", id="string"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert findings(code) == []


def test_setting_trusts_project_x64():
    assert findings("import numpy as np\ndef f(x):\n    return np.float64(x)\n", x64=True) == []


REPORTED = [
    pytest.param("import numpy as np\ndef f(x):\n    return x.astype('float64')\n", 3, "float64", id="astype-string"),
    pytest.param("import numpy as np\ndef f(n):\n    return np.ones(n, np.double)\n", 3, "float64", id="positional-double"),
    pytest.param("import jax.numpy as jnp\ndef f(x):\n    return jnp.asarray(x, jnp.float64)\n", 3, "float32", id="jnp"),
    pytest.param("import numpy as np\ndef f(x):\n    return np.fft.fft(x).astype(np.complex128)\n", 3, "complex64", id="complex"),
    pytest.param(
        "import numpy as onp\ndef f(x):\n    y = (x +\n         onp.float64(1))\n    return y\n", 3, "onp.float64(1)",
        id="statement-first-line-and-alias",
    ),
]


@pytest.mark.parametrize("code, line, text", REPORTED)
def test_reported(code, line, text):
    got = findings(code)
    assert [g[0] for g in got] == [line]
    assert text in got[0][1]


def test_multiplied_int64_holds_back_the_function_float64_and_other_int64_do_not():
    """scikit-learn casts counts to int64 so that their products do not overflow: as int32 the log of a product of
    counts became NaN, silently. Float64 only loses precision, which is what the migration means, and int64 counts
    or indices that are never multiplied fit int32."""
    from jaxfix.engine import migrate_source

    ints = "import numpy as np\n\ndef f(c):\n    p = np.ravel(c).astype(np.int64)\n    return np.log(p * p)\n"
    assert migrate_source(ints) == ints
    direct = "import numpy as np\n\ndef f(a, b):\n    return np.log(a.astype(np.int64) * b)\n"
    assert migrate_source(direct) == direct
    floats = ints.replace("np.int64", "np.float64")
    assert "jnp.log" in migrate_source(floats)
    counts = "import numpy as np\n\ndef f(c):\n    p = np.ravel(c).astype(np.int64)\n    return np.log(p + 1)\n"
    assert "jnp.log" in migrate_source(counts)
