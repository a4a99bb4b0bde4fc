"""Behavioural equivalence: the original function run with NumPy vs the rewrite run under `jax.jit`.

`check_equivalence(before_fn, after_fn, spec)` draws inputs with Hypothesis from the spec and asserts that outputs
agree (structure, shapes, dtype kinds, values with dtype-aware tolerances, NaN positions), that a mutated argument
of the original equals what the rewrite returns, and, with `grad`, that `jax.grad` of the rewrite matches central
finite differences of the original in float64 along a drawn direction (NaN gradients fail).

`check_random(before_fn, after_fn, spec)` is for functions that draw random numbers: values cannot match, so it
checks what must hold (shapes and dtypes; the same key gives the same result; different keys differ; means and
spreads over many keys agree with those over many NumPy seeds; no key is reused under `jax_debug_key_reuse`).
"""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import inspect
import sys
import types
from typing import Any, Callable, Iterator

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from jaxfix.testing.spec import FunctionSpec, args_strategy, draw_example

_counter = 0


def load_module(path: str, name_hint: str = "fixture") -> types.ModuleType:
    """Execute a file as a fresh module (fixtures are not importable by name)."""
    global _counter
    _counter += 1
    name = f"_jaxfix_{name_hint}_{_counter}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_package_module(root: str, dotted: str) -> types.ModuleType:
    """Import `dotted` (e.g. "pkg.train") from the package folder(s) under `root`, isolated from any earlier load
    of a package with the same name (before/ and after/ trees share their package names)."""
    import importlib

    top = dotted.split(".")[0]
    for name in [m for m in sys.modules if m == top or m.startswith(top + ".")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        return importlib.import_module(dotted)
    finally:
        sys.path.remove(root)
        for name in [m for m in sys.modules if m == top or m.startswith(top + ".")]:
            del sys.modules[name]


@contextlib.contextmanager
def jax_config(**flags: Any) -> Iterator[None]:
    import jax

    previous = {name: getattr(jax.config, name) for name in flags}
    for name, value in flags.items():
        jax.config.update(name, value)
    try:
        yield
    finally:
        for name, value in previous.items():
            jax.config.update(name, value)


def _leaves(value: Any, path: str = "out") -> list[tuple[str, Any]]:
    if isinstance(value, (tuple, list)):
        out = []
        for i, v in enumerate(value):
            out.extend(_leaves(v, f"{path}[{i}]"))
        return out
    if isinstance(value, dict):
        out = []
        for k in sorted(value):
            out.extend(_leaves(value[k], f"{path}[{k!r}]"))
        return out
    return [(path, value)]


def _structure(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return ("seq", len(value), tuple(_structure(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted(value)), tuple(_structure(value[k]) for k in sorted(value)))
    return "None" if value is None else "leaf"


def _kind(dtype: np.dtype) -> str:
    if dtype == np.bool_:
        return "bool"
    if np.issubdtype(dtype, np.integer):
        return "int"
    if np.issubdtype(dtype, np.complexfloating):
        return "complex"
    return "float"


def assert_close(expected: Any, actual: Any, rtol: float, atol: float, context: str = "") -> None:
    """Outputs agree: same nesting, shapes, dtype kinds (a Python int/float may meet an array of that kind)."""
    if _structure(expected) != _structure(actual):
        raise AssertionError(f"{context}output structure differs: original {_structure(expected)}, rewrite {_structure(actual)}")
    for (path, e), (_, a) in zip(_leaves(expected), _leaves(actual)):
        if e is None:
            continue
        e_arr, a_arr = np.asarray(e), np.asarray(a)
        if e_arr.shape != a_arr.shape:
            raise AssertionError(f"{context}{path}: shape {a_arr.shape}, expected {e_arr.shape}")
        ek, ak = _kind(e_arr.dtype), _kind(a_arr.dtype)
        python_scalar = isinstance(e, (int, float, bool)) and not isinstance(e, np.generic)
        if ek != ak and not (python_scalar and {ek, ak} <= {"int", "float"}) and not ({ek, ak} == {"int", "float"} and ek == "int" and python_scalar):
            raise AssertionError(f"{context}{path}: dtype {a_arr.dtype}, expected a {ek} dtype like {e_arr.dtype}")
        if ek in ("bool", "int") and ak == ek:
            if not np.array_equal(e_arr, a_arr):
                raise AssertionError(f"{context}{path}: values differ\noriginal: {e_arr}\nrewrite:  {a_arr}")
        elif not np.allclose(a_arr.astype(np.complex128 if ek == "complex" else np.float64), e_arr, rtol=rtol, atol=atol, equal_nan=True):
            worst = np.nanmax(np.abs(a_arr.astype(np.float64) - e_arr.astype(np.float64))) if e_arr.size else 0
            raise AssertionError(
                f"{context}{path}: values differ (max abs diff {worst:.3g}, rtol={rtol}, atol={atol})\n"
                f"original: {e_arr}\nrewrite:  {a_arr}"
            )


def _for_numpy(args: dict[str, Any], dtype: Any = None) -> dict[str, Any]:
    out = {}
    for name, value in args.items():
        value = copy.deepcopy(value)
        if dtype is not None and isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.floating):
            value = value.astype(dtype)
        out[name] = value
    return out


def _for_jax(args: dict[str, Any]) -> dict[str, Any]:
    import jax.numpy as jnp

    def convert(value: Any) -> Any:
        if isinstance(value, np.ndarray):
            return jnp.asarray(value)
        if isinstance(value, list):
            return [convert(v) for v in value]
        return value

    return {name: convert(value) for name, value in args.items()}


def run_original(fn: Callable, spec: FunctionSpec, args: dict[str, Any]) -> Any:
    call_args = _for_numpy(args)
    with np.errstate(all="ignore"):
        result = fn(**call_args)
    if spec.mutates:
        if result is not None:
            raise AssertionError(f"spec says {spec.function} mutates {spec.mutates} and returns None, but it returned a value")
        return call_args[spec.mutates]
    return result


def jitted(fn: Callable, spec: FunctionSpec) -> Callable:
    import jax

    return jax.jit(fn, static_argnames=spec.static_argnames)


def _settings(spec: FunctionSpec, default: int | None = None) -> settings:
    current = settings()
    n = current.max_examples if default is None else default
    if spec.max_examples is not None:
        n = min(n, spec.max_examples)
    return settings(
        max_examples=n,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


def check_equivalence(before_fn: Callable, after_fn: Callable, spec: FunctionSpec) -> None:
    """Raise AssertionError (via Hypothesis, with the shrunk failing input) when the two disagree."""
    flags = {"jax_enable_x64": spec.x64}
    with jax_config(**flags):
        compiled = jitted(after_fn, spec)
        grad_fn = _grad_function(after_fn, spec) if spec.grad else None

        @_settings(spec)
        @given(args=args_strategy(spec), data=st.data())
        def run(args: dict[str, Any], data: st.DataObject) -> None:
            expected = run_original(before_fn, spec, args)
            actual = compiled(**_for_jax(args))
            try:
                assert_close(expected, actual, spec.rtol, spec.atol, context=f"{spec.function}: ")
            except AssertionError:
                assume(not _rounding_tie(before_fn, spec, args, actual))
                raise
            if grad_fn is not None:
                _check_grad(before_fn, grad_fn, spec, args, data)

        run()


def _rounding_tie(before_fn: Callable, spec: FunctionSpec, args: dict[str, Any], actual: Any) -> bool:
    """Whether the original agrees with the rewrite once one float argument moves by a few ulps: the inputs sit on a
    branch boundary (`x.mean() > w` with the mean equal to `w`), where NumPy's and XLA's roundings of the same sum may
    fall on either side (a float32 mean can absorb a one-ulp move of every element). That is not a difference the
    rewrite made; a wrong rewrite does not heal by a few ulps."""
    for name, value in args.items():
        if name in spec.static_argnames or not np.issubdtype(np.asarray(value).dtype, np.floating):
            continue
        for direction, steps in ((np.inf, 1), (-np.inf, 1), (np.inf, 4), (-np.inf, 4)):
            nudged = value
            for _ in range(steps):
                nudged = np.nextafter(nudged, np.asarray(direction, dtype=np.asarray(value).dtype))
            nudged = float(nudged) if isinstance(value, float) else nudged
            try:
                assert_close(run_original(before_fn, spec, {**args, name: nudged}), actual, spec.rtol, spec.atol)
            except AssertionError:
                continue
            return True
    return False


def _weights(shape: tuple[int, ...], index: int) -> np.ndarray:
    return np.random.default_rng(1000 + index).uniform(0.5, 1.5, size=shape)


def _scalar_loss(outputs: Any, xp: Any) -> Any:
    total = 0.0
    for i, (_, leaf) in enumerate(_leaves(outputs)):
        if leaf is None:
            continue
        arr = xp.asarray(leaf)
        if _kind(np.dtype(arr.dtype)) != "float":
            continue
        total = total + xp.sum(arr * _weights(tuple(arr.shape), i))
    return total


def _grad_function(after_fn: Callable, spec: FunctionSpec) -> Callable:
    """jit(value_and_grad) of a weighted sum of the rewrite's float outputs, one compilation per set of static
    values."""
    import jax
    import jax.numpy as jnp

    static = set(spec.static_argnames)
    cache: dict[tuple, Callable] = {}

    def call(diff_args: dict[str, Any], rest: dict[str, Any]) -> Any:
        fixed = tuple(sorted((k, v) for k, v in rest.items() if k in static))
        dynamic = {k: v for k, v in rest.items() if k not in static}
        if fixed not in cache:
            bound = dict(fixed)
            cache[fixed] = jax.jit(jax.value_and_grad(lambda d, r: _scalar_loss(after_fn(**d, **r, **bound), jnp)))
        return cache[fixed](diff_args, dynamic)

    return call


def _check_grad(before_fn: Callable, grad_fn: Callable, spec: FunctionSpec, args: dict[str, Any], data: st.DataObject) -> None:
    import jax.numpy as jnp

    names = list(spec.grad)
    direction = {}
    for name in names:
        shape = np.shape(args[name])
        direction[name] = np.asarray(
            data.draw(st.lists(st.floats(-1, 1, allow_subnormal=False), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))), label=f"direction[{name}]"),
            dtype=np.float64,
        ).reshape(shape)
    assume(any(np.any(d != 0) for d in direction.values()))
    largest = max(float(np.max(np.abs(d))) for d in direction.values())
    direction = {n: d / largest for n, d in direction.items()}  # a step of h moves the inputs by up to h
    rest = _for_jax({k: v for k, v in args.items() if k not in names})

    def value_and_slope(step: float) -> tuple[float, float]:
        """The rewrite's loss, and its derivative along the direction, at the inputs moved by `step` along it."""
        moved = {n: np.asarray(args[n], dtype=np.float64) + step * direction[n] for n in names}
        diff_args = {n: jnp.asarray(moved[n], dtype=jnp.float32) if isinstance(args[n], np.ndarray) else float(moved[n]) for n in names}
        value, grads = grad_fn(diff_args, rest)
        return float(value), float(sum(np.sum(np.asarray(grads[n], dtype=np.float64) * direction[n]) for n in names))

    def analytic_at(step: float) -> float:
        return value_and_slope(step)[1]

    value, analytic = value_and_slope(0.0)

    def loss_at(step: float) -> float:
        moved = _for_numpy(args, np.float64)
        for n in names:
            base = np.asarray(args[n], dtype=np.float64)
            moved[n] = base + step * direction[n] if isinstance(args[n], np.ndarray) else float(base + step * direction[n])
        with np.errstate(all="ignore"):
            out = before_fn(**moved)
        if spec.mutates:
            out = moved[spec.mutates]
        return float(_scalar_loss(out, np))

    h = 1e-4
    up, centre, down = loss_at(h), loss_at(0.0), loss_at(-h)
    fd_h = (up - down) / (2 * h)
    fd_h2 = (loss_at(h / 2) - loss_at(-h / 2)) / h
    scale = max(1.0, abs(fd_h))
    # a kink or branch boundary within h (one-sided slopes disagree, or the step size matters): finite differences
    # say nothing about the derivative there, and neither NumPy nor JAX has one to compare
    forward, backward = (up - centre) / h, (centre - down) / h
    slopes = abs(forward - backward)  # a smooth function's differ by about h * f'': tiny; a kink's by its jump
    kink = slopes > 1e-2 * scale or slopes > 1e-5 and slopes > 0.5 * max(abs(forward), abs(backward))
    assume(np.isfinite(fd_h) and abs(fd_h - fd_h2) <= 1e-3 * scale and not kink)
    # a branch tie within float32 rounding: the rewrite (float32 sums) and the original (float64) take different
    # branches at exactly these inputs (`spent + costs[i] > budget`), so their losses differ here; their values are
    # the value test's to compare, and the derivatives belong to different branches
    assume(abs(value - centre) <= 1e-3 * max(1.0, abs(centre)))
    # only where the original has a derivative (`sqrt(t + 1)` at t = -1 has none: both sides may give nan there)
    if not np.isfinite(analytic):
        raise AssertionError(f"{spec.function}: jax.grad of the rewrite is not finite ({analytic}) at {args}")
    if abs(analytic - fd_h) > 2e-3 * scale:
        # an isolated tie: at exactly these inputs both versions take a branch that no neighbour takes (all costs 0
        # against a budget of 0), so the derivative there belongs to no open neighbourhood; the rewrite's
        # derivative just beside the point agrees with the original's finite differences
        beside = [analytic_at(step) for step in (h / 2, -h / 2)]
        assume(not all(np.isfinite(b) and abs(b - fd_h) <= 2e-3 * scale for b in beside))
        raise AssertionError(
            f"{spec.function}: gradient along the drawn direction is {analytic:.6g}, finite differences of the "
            f"original give {fd_h:.6g}"
        )


# ---- randomness ---------------------------------------------------------------------------------------------
def key_parameter(after_fn: Callable, before_fn: Callable) -> str:
    """The parameter the rewrite gained for its PRNG key."""
    before = set(inspect.signature(before_fn).parameters)
    gained = [p for p in inspect.signature(after_fn).parameters if p not in before]
    keyish = [p for p in gained if "key" in p]
    if len(keyish) != 1:
        raise AssertionError(f"the rewrite should gain exactly one key parameter; gained {gained}")
    return keyish[0]


def check_random(before_fn: Callable, after_fn: Callable, spec: FunctionSpec) -> None:
    """Options (`spec.random`): `replicates`, `z`; `seed_arg` (the function seeds itself from this argument: it is
    set to the replicate number on both sides and no key parameter is expected); `multiset` (every output is a
    permutation of NumPy's, as for shuffle/permutation); `support` (every value is one of these); `distinct` (no
    value repeats within an output, as for choice without replacement)."""
    import jax

    options = spec.random or {}
    replicates = int(options.get("replicates", 64))
    z = float(options.get("z", 6.0))
    seed_arg = options.get("seed_arg")
    key_name = None if seed_arg else key_parameter(after_fn, before_fn)
    args = draw_example(spec, seed=0)

    def call_rewrite(compiled: Callable, r: int) -> list:
        if seed_arg:
            return _leaves(compiled(**_for_jax({**args, seed_arg: r})))
        return _leaves(compiled(**_for_jax(args), **{key_name: jax.random.key(r)}))

    with jax_config(jax_enable_x64=spec.x64, jax_debug_key_reuse=True):
        compiled = jitted(after_fn, spec)
        originals, rewrites = [], []
        for r in range(replicates):
            np.random.seed(r)
            originals.append(_leaves(run_original(before_fn, spec, {**args, seed_arg: r} if seed_arg else args)))
            rewrites.append(call_rewrite(compiled, r))
        again = call_rewrite(compiled, 0)
    for index, (path, _) in enumerate(originals[0]):  # NaN moments would compare as no difference
        bad_e, bad_a = (sum(int((~np.isfinite(np.asarray(rep[index][1], dtype=np.float64))).sum()) for rep in side)
                        for side in (originals, rewrites))
        if bad_a > bad_e:
            raise AssertionError(f"{spec.function}: {path} has {bad_a} nan or inf values (the original {bad_e})")
    for (path, a), (_, b) in zip(rewrites[0], again):
        if not np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True):
            raise AssertionError(f"{spec.function}: {path} differs for the same key")
    if all(
        np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True) for (_, a), (_, b) in zip(rewrites[0], rewrites[1])
    ):
        raise AssertionError(f"{spec.function}: output is the same for different keys (frozen randomness)")
    for index, (path, first) in enumerate(originals[0]):
        expected = np.stack([np.asarray(rep[index][1], dtype=np.float64) for rep in originals])
        actual = np.stack([np.asarray(rep[index][1], dtype=np.float64) for rep in rewrites])
        if expected.shape != actual.shape:
            raise AssertionError(f"{spec.function}: {path} has shape {actual.shape[1:]}, expected {expected.shape[1:]}")
        if _kind(np.asarray(first).dtype) != _kind(np.asarray(rewrites[0][index][1]).dtype):
            raise AssertionError(f"{spec.function}: {path} dtype kind differs")
        _check_values(expected, actual, options, f"{spec.function}: {path}")
        _compare_moments(expected, actual, z, f"{spec.function}: {path}")
        _compare_spread_across_replicates(expected, actual, z, f"{spec.function}: {path}")


def _check_values(expected: np.ndarray, actual: np.ndarray, options: dict, context: str) -> None:
    """Per-replicate checks that hold exactly: permutations keep the multiset, values stay in the support."""
    n = expected.shape[0]
    flat_e, flat_a = expected.reshape(n, -1), actual.reshape(n, -1)
    if options.get("multiset"):
        bad = [r for r in range(n) if not np.array_equal(np.sort(flat_e[r]), np.sort(flat_a[r]))]
        if bad:
            raise AssertionError(f"{context}: replicate {bad[0]} is not a permutation of NumPy's output: {flat_a[bad[0]]}")
    if "support" in options:
        outside = np.setdiff1d(flat_a, np.asarray(options["support"], dtype=np.float64))
        if outside.size:
            raise AssertionError(f"{context}: values {outside[:5]} outside the support {options['support']}")
    if options.get("distinct"):
        bad = [r for r in range(n) if len(np.unique(flat_a[r])) != flat_a.shape[1]]
        if bad:
            raise AssertionError(f"{context}: replicate {bad[0]} repeats a value: {flat_a[bad[0]]}")


def _compare_moments(expected: np.ndarray, actual: np.ndarray, z: float, context: str) -> None:
    """Pooled mean and spread agree within z standard errors (the spread of a replicate mean, from both sides)."""
    n = expected.shape[0]
    e_means, a_means = expected.reshape(n, -1).mean(axis=1), actual.reshape(n, -1).mean(axis=1)
    se = np.sqrt((e_means.var(ddof=1) + a_means.var(ddof=1)) / n) + 1e-9
    if abs(e_means.mean() - a_means.mean()) > z * se:
        raise AssertionError(f"{context}: mean {a_means.mean():.4g} vs original {e_means.mean():.4g} (se {se:.3g})")
    e_sd, a_sd = expected.reshape(n, -1).std(axis=1), actual.reshape(n, -1).std(axis=1)
    se_sd = np.sqrt((e_sd.var(ddof=1) + a_sd.var(ddof=1)) / n) + 1e-9
    if abs(e_sd.mean() - a_sd.mean()) > z * se_sd:
        raise AssertionError(f"{context}: spread {a_sd.mean():.4g} vs original {e_sd.mean():.4g} (se {se_sd:.3g})")


def _compare_spread_across_replicates(expected: np.ndarray, actual: np.ndarray, z: float, context: str) -> None:
    """The variance of each element across replicates (what a scalar draw, or noise scaled by 1.3, changes) agrees:
    log of the element-averaged variance, compared by batch means (valid however the elements are correlated)."""
    n = expected.shape[0]
    batches = 16 if n >= 320 else 8
    if n < 4 * batches:
        return
    size = n // batches

    def stats(x: np.ndarray) -> np.ndarray:
        flat = x[: size * batches].reshape(batches, size, -1)
        return flat.var(axis=1, ddof=1).mean(axis=1)

    e, a = stats(expected), stats(actual)
    if np.all(e == 0) and np.all(a == 0):
        return  # not random
    if np.any(e == 0) != np.any(a == 0) or np.all(a == 0) or np.all(e == 0):
        raise AssertionError(f"{context}: varies across replicates on one side only (variances {e.mean():.4g} vs {a.mean():.4g})")
    le, la = np.log(e), np.log(a)
    se = np.sqrt(le.var(ddof=1) / batches + la.var(ddof=1) / batches) + 1e-9
    if abs(le.mean() - la.mean()) > z * se:
        raise AssertionError(
            f"{context}: variance across replicates {np.exp(la.mean()):.4g} vs original {np.exp(le.mean()):.4g} "
            f"(log ratio {la.mean() - le.mean():.3g}, se {se:.3g})"
        )
