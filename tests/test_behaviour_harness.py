"""The gradient check of the behavioural harness must fail on a non-finite gradient where the original has a
derivative, and must not blame the rewrite where the original has none (a branch boundary, `sqrt` at 0)."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from jaxfix.testing.behaviour import _check_grad, _scalar_loss
from jaxfix.testing.spec import FunctionSpec

SPEC = FunctionSpec(function="f", args={"t": {"float": [-2.0, 2.0]}}, grad=("t",))


def _grad(slope, original):
    """A stand-in for the jitted `value_and_grad` of a rewrite that computes `original`'s value with `slope`'s
    derivative."""
    return lambda diff, rest: (float(_scalar_loss(original(float(diff["t"])), np)), {"t": slope(diff["t"])})


def test_nan_gradient_where_the_original_is_smooth_fails():
    @settings(max_examples=5, database=None)
    @given(st.data())
    def run(data):
        original = lambda t: 3.0 * t  # noqa: E731
        _check_grad(original, _grad(lambda t: math.nan, original), SPEC, {"t": 0.5}, data)

    with pytest.raises(AssertionError, match="not finite"):
        run()


def test_no_derivative_in_the_original_is_not_the_rewrites_fault():
    @settings(max_examples=5, database=None, suppress_health_check=[HealthCheck.filter_too_much])
    @given(st.data())
    def run(data):  # sqrt(t + 1) at t = -1: infinite slope on one side, nan from jax.grad
        original = lambda t: np.sqrt(max(t + 1.0, 0.0))  # noqa: E731
        _check_grad(original, _grad(lambda t: math.nan, original), SPEC, {"t": -1.0}, data)

    with pytest.raises(Unsatisfiable):  # every example is discarded (no derivative to compare), none fails
        run()


def test_a_float32_branch_tie_in_the_gradient_check_is_skipped():
    """At a float32 rounding tie the rewrite takes the other branch (`spent + costs[i] > budget`: a clean-clone CI run
    found this on `loop_exit/early_returns: budget_spent`): its value differs from the original's there, so its
    derivative belongs to another branch and is not compared."""
    @settings(max_examples=5, database=None, suppress_health_check=[HealthCheck.filter_too_much])
    @given(st.data())
    def run(data):  # the original is flat here; the rewrite, on the other branch, has value 2t and slope 2
        _check_grad(lambda t: 0.0 * t, lambda diff, rest: (2.0 * float(diff["t"]), {"t": 2.0}), SPEC, {"t": 0.5}, data)

    with pytest.raises(Unsatisfiable):
        run()


def test_a_branch_boundary_tie_is_not_a_mismatch():
    """Inputs on the boundary (`x.mean() == w` up to rounding): NumPy's and XLA's roundings of the mean fall on either
    side. The CI profile found this on `traced_if/assignments: smooth_step`; a few ulps on `x` settle it."""
    from jaxfix.testing.behaviour import _rounding_tie, jitted, load_module, run_original, _for_jax

    before = load_module("fixtures/traced_if/assignments.before.py", "tie_before")
    after = load_module("fixtures/traced_if/assignments.after.py", "tie_after")
    spec = FunctionSpec(function="smooth_step", args={"x": {"array": [5], "dtype": "float32"}, "w": {"float": [-0.5, 0.5]}},
                        rtol=1e-4, atol=1e-5)
    args = {"x": np.full(5, 0.20373985, dtype=np.float32), "w": 0.20373985171318054}
    actual = jitted(after.smooth_step, spec)(**_for_jax(args))
    assert not np.allclose(run_original(before.smooth_step, spec, args), actual, rtol=1e-4, atol=1e-5)  # a tie
    assert _rounding_tie(before.smooth_step, spec, args, actual)


def test_a_real_mismatch_is_not_taken_for_a_tie():
    from jaxfix.testing.behaviour import _rounding_tie

    def before(x, w):
        total = x.mean()
        return x * total if total > w else x - w

    def wrong(x, w):  # the branches swapped: no nudge of a few ulps heals this
        total = x.mean()
        return x - w if total > w else x * total

    spec = FunctionSpec(function="f", args={"x": {"array": [5]}, "w": {"float": [-1.0, 1.0]}})
    x = np.array([0.1, 0.5, 0.9, 0.3, 0.2], dtype=np.float32)
    for w in (0.0, 0.7):
        assert not _rounding_tie(before, spec, {"x": x, "w": w}, wrong(x, w))


class _FixedDraws:
    """Stands in for Hypothesis's `data` in `_check_grad`: hands out the given directions in order."""

    def __init__(self, *values):
        self.values = list(values)

    def draw(self, strategy, label=None):
        return self.values.pop(0)


@pytest.mark.parametrize(
    "fixture, args, grad, direction",
    [
        # `e == lo`: a kink whose one-sided slopes are small (0.008 and 0), under the absolute kink threshold
        ("traced_return/shape_cond", {"e": 0.0, "lo": 0.0, "hi": 1.0}, ["e", "hi"], [[0.008], [1.0]]),
        # all costs 0 against a budget of 0: at exactly this point both versions take the all-fit branch, and no
        # neighbour does
        ("loop_exit/early_returns", {"costs": np.zeros(6, np.float32), "budget": 0.0}, ["costs"],
         [[-0.65, 0.65, 0.36, 0.88, 0.26, -0.55]]),
    ],
    ids=["kink-with-small-slopes", "isolated-tie"],
)
def test_a_gradient_at_a_branch_boundary_is_not_a_mismatch(fixture, args, grad, direction):
    """Hypothesis drew these in CI (`band_energy`, `budget_spent`): the derivative does not exist there, so the
    example is discarded rather than reported as a rewrite difference."""
    from hypothesis.errors import UnsatisfiedAssumption

    from jaxfix.testing.behaviour import _check_grad, _grad_function, load_module

    name = {"traced_return/shape_cond": "band_energy", "loop_exit/early_returns": "budget_spent"}[fixture]
    before = getattr(load_module(f"fixtures/{fixture}.before.py", f"{name}_before"), name)
    after = getattr(load_module(f"fixtures/{fixture}.after.py", f"{name}_after"), name)
    arg_specs = {k: {"array": list(np.shape(v)), "dtype": "float32"} if isinstance(v, np.ndarray) else {"float": [-1.0, 6.0]}
                 for k, v in args.items()}
    spec = FunctionSpec(function=name, args=arg_specs, grad=grad)
    with pytest.raises(UnsatisfiedAssumption):
        _check_grad(before, _grad_function(after, spec), spec, args, _FixedDraws(*direction))
