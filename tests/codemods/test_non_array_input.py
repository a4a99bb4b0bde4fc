"""Edge cases for JX304 non-array-input: no-change cases first, then rewrites."""

import textwrap

import pytest

from codemods.non_array_input import NonArrayInput
from jaxfix.runner import run_files
from jaxfix.testing.examples import run_rule
from jaxfix.types import RunOptions


def migrate(code: str) -> str:
    return run_rule(NonArrayInput, textwrap.dedent(code), fix=True).fixed


HEAD = "import numpy as np\n"
NOOP = [
    pytest.param(HEAD + "M = np.max([1, 2])\n", id="module-level"),
    pytest.param(HEAD + "def f(a, b):\n    return np.stack([a, b]), np.concatenate((a, b)), np.array([a, b])\n", id="sequence-functions"),
    pytest.param(HEAD + "def f(x):\n    return np.sum(x, axis=(0, 1)), np.zeros((2, 3)), np.reshape(x, (3, -1))\n", id="shape-and-axis-tuples"),
    pytest.param(HEAD + "def f(x):\n    return np.transpose(x, (1, 0)), np.tile(x, [2, 1])\n", id="non-array-parameters"),
    pytest.param("def f(max):\n    return max([1, 2])\n", id="not-numpy"),
    pytest.param(HEAD + "def f(xs):\n    return np.sum(xs)\n", id="parameter-of-unknown-type"),
    pytest.param(HEAD + "def f(a):\n    xs = [a]\n    xs = np.stack(xs)\n    return np.sum(xs)\n", id="name-rebound-to-an-array"),
]


@pytest.mark.parametrize("code", NOOP)
def test_noop(code):
    assert migrate(code) == code


J = "import jax.numpy as jnp\n"
REWRITES = [
    pytest.param(HEAD + "def f(a, b):\n    return np.sum([a, b])\n", J + HEAD + "def f(a, b):\n    return np.sum(jnp.asarray([a, b]))\n", id="sum-of-list"),
    pytest.param(J + "def f(a, b):\n    return jnp.mean((a, b), axis=0)\n", J + "def f(a, b):\n    return jnp.mean(jnp.asarray((a, b)), axis=0)\n", id="jnp-tuple"),
    pytest.param(HEAD + "def f(x):\n    return np.clip(x, 0, 1), np.minimum([1.0, 2.0], x)\n", J + HEAD + "def f(x):\n    return np.clip(x, 0, 1), np.minimum(jnp.asarray([1.0, 2.0]), x)\n", id="ufunc-positional"),
    pytest.param(HEAD + "def f(x, t: float):\n    return np.average(x, weights=[t, 1 - t])\n", J + HEAD + "def f(x, t: float):\n    return np.average(x, weights=jnp.asarray([t, 1 - t]))\n", id="keyword"),
    pytest.param(  # scikit-image's peak_local_max: the tuple nonzero returns, transposed (jnp rejected the tuple)
        J + "def f(m):\n    coord = jnp.nonzero(m)\n    return jnp.transpose(coord)\n",
        J + "def f(m):\n    coord = jnp.nonzero(m)\n    return jnp.transpose(jnp.asarray(coord))\n", id="tuple-from-nonzero"),
    pytest.param(J + "def f(x, idx):\n    return jnp.append(idx, [0]), jnp.sum(tuple(x))\n",
                 J + "def f(x, idx):\n    return jnp.append(idx, jnp.asarray([0])), jnp.sum(jnp.asarray(tuple(x)))\n",
                 id="append-values-and-tuple-call"),
    pytest.param(  # the binding that reaches the call counts (scikit-image's peak search rebinds `coord` right after)
        J + "def f(m, idx):\n    coord = jnp.nonzero(m)\n    coord = jnp.transpose(coord)[idx]\n    return coord\n",
        J + "def f(m, idx):\n    coord = jnp.nonzero(m)\n    coord = jnp.transpose(jnp.asarray(coord))[idx]\n    return coord\n",
        id="rebound-after-the-call"),
    pytest.param(J + "def f(image, bins=(0.0, 0.5, 1.0)):\n    return jnp.histogram(image, bins=bins)\n",
                 J + "def f(image, bins=(0.0, 0.5, 1.0)):\n    return jnp.histogram(image, bins=jnp.asarray(bins))\n",
                 id="histogram-edges-from-a-tuple-default"),
]


@pytest.mark.parametrize("code, expected", REWRITES)
def test_rewrite(code, expected):
    assert migrate(code) == expected
    assert migrate(expected) == expected


def test_made_array_follows_each_name_once(monkeypatch):
    """`made_array` answers each local name once per search: before, a chain of names each computed twice from the
    one before (`a2 = a1 + a1`) was walked once per path, 2**n times (the code review's 22-deep chain ran for minutes)."""
    from codemods import _array_inputs

    calls = []
    real = _array_inputs._array_call
    monkeypatch.setattr(_array_inputs, "_array_call", lambda value, facts: calls.append(value) or real(value, facts))
    chain = "".join(f"    a{i + 1} = a{i} + a{i}\n" for i in range(30))
    code = f"import numpy as np\n\ndef f(w, x):\n    a0 = np.zeros(3)\n{chain}    return w - a30\n\nR = f([1.0, 2.0, 3.0], 1)\n"
    assert "return jnp.asarray(w) - a30" in run_rule(NonArrayInput, code, fix=True).fixed
    assert 0 < len(calls) < 200, len(calls)


def test_a_parameter_may_be_an_array_subclass_of_another_module(tmp_path):
    """spectral: `ImageArray(np.ndarray)` with `format = 'f'` in `image.py`, `has_nan(X)` doing `np.min(X)` in another
    module that never names it. `jnp.min` of an `ImageArray` raised `AttributeError` (JAX reads `.format` as the
    layout): the parameter is converted with `jnp.asarray` first, and only when the run defines such a class."""
    pkg = tmp_path / "spec"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "cube.py").write_text("import numpy as np\n\nclass Base(np.ndarray):\n    format = 'bsq'\n")
    (pkg / "deep.py").write_text("from spec.cube import Base\n\nclass Deeper(Base):\n    pass\n")
    check = "import numpy as np\n\ndef lowest(X):\n    return np.min(X)\n"
    (pkg / "check.py").write_text(check)
    results = run_files([str(pkg / "check.py"), str(pkg / "cube.py"), str(pkg / "deep.py")], [NonArrayInput],
                        RunOptions(fix=True, write=True), jobs=1)
    assert not [r.error for r in results if r.error]
    assert "np.min(jnp.asarray(X))" in (pkg / "check.py").read_text()
    alone = tmp_path / "alone.py"
    alone.write_text(check)
    run_files([str(alone)], [NonArrayInput], RunOptions(fix=True, write=True), jobs=1)
    assert alone.read_text() == check


def test_an_array_indexed_by_a_list_on_some_path_only_stays_numpy():
    """`perm = list(perm)` on one path, a comprehension on the other: JX304's `jnp.asarray` fix is unsafe (on some
    path the index may be a tuple), so while it stands the function must keep its NumPy maker: JX501's `jnp.eye`
    alone would raise on the list index (chaospy's `permute`)."""
    from jaxfix.engine import process_source
    from jaxfix.registry import all_rules

    code = ("import numpy as np\n\ndef shuffled(n, perm=None):\n    if perm is None:\n        perm = [n - 1 - k for k in range(n)]\n"
            "    else:\n        perm = list(perm)\n    return np.eye(n, dtype=int)[perm]\n")
    outcome = process_source("p.py", code, all_rules(), RunOptions(fix=True))
    assert outcome.fixed == code
    assert any(f.code == "JX304" and "on some path" in f.message for f in outcome.findings)
    fixed = process_source("p.py", code, all_rules(), RunOptions(fix=True, unsafe_fixes=True)).fixed
    assert "jnp.eye(n, dtype=int)[jnp.asarray(perm)]" in fixed
