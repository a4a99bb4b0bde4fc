"""The gradient check of the behavioural harness must fail on a non-finite gradient where the original has a
derivative, and must not blame the rewrite where the original has none (a branch boundary, `sqrt` at 0)."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from jaxfix.testing.behaviour import _check_grad
from jaxfix.testing.spec import FunctionSpec

SPEC = FunctionSpec(function="f", args={"t": {"float": [-2.0, 2.0]}}, grad=("t",))


def _grad(value):
    return lambda diff, rest: {"t": value(diff["t"])}


def test_nan_gradient_where_the_original_is_smooth_fails():
    @settings(max_examples=5, database=None)
    @given(st.data())
    def run(data):
        _check_grad(lambda t: 3.0 * t, _grad(lambda t: math.nan), SPEC, {"t": 0.5}, data)

    with pytest.raises(AssertionError, match="not finite"):
        run()


def test_no_derivative_in_the_original_is_not_the_rewrites_fault():
    @settings(max_examples=5, database=None, suppress_health_check=[HealthCheck.filter_too_much])
    @given(st.data())
    def run(data):  # sqrt(t + 1) at t = -1: infinite slope on one side, nan from jax.grad
        _check_grad(lambda t: np.sqrt(max(t + 1.0, 0.0)), _grad(lambda t: math.nan), SPEC, {"t": -1.0}, data)

    with pytest.raises(Unsatisfiable):  # every example is discarded (no derivative to compare), none fails
        run()
