"""jaxfix.analysis.value_dtypes: `keeps(x, v)` is checked against JAX itself. Each case runs with NumPy for inputs of
several dtypes, and wherever the analysis says the dtype of `x` is kept, `jnp.where(m, v, x)` must have it (x64 on,
so widths count too); where it says unknown, some input must show the change (no case is needlessly conservative)."""

import textwrap

import jax
import jax.numpy as jnp
import libcst as cst
import numpy as np
import pytest

from jaxfix.analysis.masks import function_facts_of
from jaxfix.analysis.value_dtypes import dtype_of, keeps
from jaxfix.imports import ModuleImports
from jaxfix.testing.behaviour import jax_config

INPUTS = [np.array([True, False, True]), np.array([1, -2, 3], np.int32), np.array([0.5, -1.0, 2.0], np.float32),
          np.array([0.5, -1.0, 2.0]), np.array([1, 2, 3], np.int64)]
CASES = [
    # (setup, array, value, kept)
    ("y = x.copy()", "y", "True", True),
    ("y = x.copy()", "y", "0", False),  # bool arrays become int
    ("y = x.copy()", "y", "0.5", False),
    ("y = x.copy()", "y", "np.abs(y)", True),
    ("y = x * 1.0", "y", "0.5", True),
    ("y = x * 1.0", "y", "(y - t) * 0.5", True),
    ("y = x * 2", "y", "y * 3", True),
    ("y = x * 2", "y", "7", True),
    ("y = x * 2", "y", "0.5", False),
    ("y = np.zeros(3)", "y", "x", False),  # complex x would not fit, and bool/int/float do
    ("y = np.zeros(3)", "y", "np.arange(3)", True),
    ("y = np.zeros(3)", "y", "k", True),
    ("y = np.zeros(3, dtype=np.int32)", "y", "k", True),
    ("y = np.zeros(3, dtype=np.int32)", "y", "0.5", False),
    ("y = np.zeros(3, dtype=np.int32)", "y", "np.arange(3)", False),  # int64 into int32
    ("y = x.astype(np.float32)", "y", "t", True),
    ("y = x.astype(np.float32)", "y", "np.linspace(0, 1, 3)", False),  # float64
    ("y = x.astype(np.float32)", "y", "np.sqrt(y)", True),
    ("y = np.ones(3, dtype=bool)", "y", "0", False),
    ("y = np.ones(3, dtype=bool)", "y", "x > 0", True),
    ("y = np.array([1, 2, 3])", "y", "y // 2", True),
    ("y = np.array([1, 2, 3])", "y", "y / 2", False),
    ("y = np.zeros(3, dtype=np.int32)", "y", "np.int32(k)", True),  # a NumPy scalar has its type's dtype
    ("y = np.zeros(3, dtype=np.int32)", "y", "np.int64(k)", False),
    ("y = x.astype(np.float32)", "y", "np.float32(t)", True),
]


def _analyse(setup: str, array: str, value: str) -> bool:
    source = f"import numpy as np\ndef f(x, m, t: float, k: int):\n    {setup}\n    return {array}, {value}\n"
    module = cst.parse_module(source)
    function = module.body[1]
    facts = function_facts_of(function, ModuleImports.read(module))
    return keeps(dtype_of(facts, cst.Name(array)), dtype_of(facts, cst.parse_expression(value)))


def _run(setup: str, array: str, value: str, x: np.ndarray):
    namespace: dict = {"np": np}
    exec(textwrap.dedent(f"def f(x, m, t, k):\n    {setup}\n    return {array}, {value}\n"), namespace)
    with np.errstate(all="ignore"):
        return namespace["f"](x, np.array([True, False, True]), 0.25, 2)


@pytest.mark.parametrize("setup, array, value, kept", CASES, ids=[f"{c[0]} <- {c[2]}" for c in CASES])
def test_keeps_matches_jax(setup, array, value, kept):
    assert _analyse(setup, array, value) is kept
    changed = []
    with jax_config(jax_enable_x64=True):
        for x in INPUTS:
            stored_into, stored = _run(setup, array, value, x)
            result = jnp.where(jnp.array([True, False, True]), stored, jnp.asarray(stored_into))
            changed.append(result.dtype != np.asarray(stored_into).dtype)
    if kept:
        assert not any(changed)
    elif "complex" not in value and setup != "y = np.zeros(3)":
        assert any(changed)
