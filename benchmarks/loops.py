"""Compile and run time of the loop rewrites (JX220-JX222) as the trip count grows.

    python benchmarks/loops.py                 # trip counts 10, 100, 1000, 10000
    python benchmarks/loops.py --trips 10,100  # fewer

For a few fixtures (their before-file is the NumPy original, their after-file the `jaxfix migrate` output), and each
trip count N, it prints:

- numpy: run time of the original NumPy function (a Python loop of N steps);
- rewrite compile / run: `jax.jit` of the rewritten function (`lax.fori_loop` / `lax.scan`), compile time (lower +
  compile, no cache) and steady-state run time;
- unrolled compile / run: `jax.jit` of the original Python loop with the trip count static, where that compiles
  (tried up to N = 1000 only: unrolling 10,000 steps takes minutes); "-" where it cannot be traced at all.

Targets (issue 4): rewrite compile time flat in N (10,000 steps within 1.5x of 10), rewrite run time at least 10x
faster than NumPy at 10,000 steps. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402

from jaxfix.testing.behaviour import load_module  # noqa: E402

UNROLL_LIMIT = 1000


def _pair(case: str) -> tuple[Any, Any]:
    base = os.path.join(ROOT, "fixtures", case)
    return load_module(base + ".before.py", "bench_before"), load_module(base + ".after.py", "bench_after")


def _run_time(fn: Callable[..., Any], args: tuple, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _compile(fn: Callable[..., Any], args: tuple, static: tuple[int, ...] = (), repeat: int = 3) -> tuple[float, Callable[..., Any]]:
    """Median lower + compile time over `repeat` runs (the machine is shared: one run is noisy)."""
    times = []
    for _ in range(repeat):
        jax.clear_caches()  # measure a real lowering and compilation, not an in-memory cache hit
        start = time.perf_counter()
        compiled = jax.jit(fn, static_argnums=static).lower(*args).compile()
        times.append(time.perf_counter() - start)
    elapsed = statistics.median(times)
    dynamic = tuple(a for i, a in enumerate(args) if i not in static)
    return elapsed, lambda *_: compiled(*dynamic)


def cases(rng: np.random.Generator):
    """(name, NumPy function, rewritten function, arguments for trip count N, index of the static trip argument)."""
    recurrences = _pair("range_loop/recurrences")
    composed = _pair("range_loop/composed")
    sequences = _pair("array_loop/sequences")
    yield (
        "partial_sum (fori_loop, traced bound)",
        recurrences[0].partial_sum, recurrences[1].partial_sum,
        lambda n: (rng.standard_normal(n).astype(np.float32), n), 1,
    )
    yield (
        "diffuse (fori_loop + .at[] slice update)",
        composed[0].diffuse, composed[1].diffuse,
        lambda n: (rng.standard_normal(64).astype(np.float32), np.float32(0.2), n), 2,
    )
    yield (
        "rnn_forward (scan + stacked outputs)",
        sequences[0].rnn_forward, sequences[1].rnn_forward,
        lambda n: (
            rng.standard_normal((n, 4)).astype(np.float32), np.zeros(8, np.float32),
            (0.3 * rng.standard_normal((8, 8))).astype(np.float32), rng.standard_normal((8, 4)).astype(np.float32),
            np.zeros(8, np.float32),
        ),
        None,
    )


def _fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:9.2f}ms" if seconds < 1 else f"{seconds:9.2f}s "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trips", default="10,100,1000,10000")
    options = parser.parse_args()
    trips = [int(t) for t in options.trips.split(",")]
    rng = np.random.default_rng(0)
    _compile(lambda x: x + 1, (np.zeros(3, np.float32),))  # backend start-up is not part of any measurement
    header = f"{'N':>6} {'numpy':>11} {'rewrite compile':>16} {'rewrite run':>12} {'unrolled compile':>17} {'unrolled run':>13} {'speed-up':>9}"
    for name, original, rewrite, make_args, static in cases(rng):
        print(f"\n{name}\n{header}")
        compiles = {}
        for n in trips:
            args = make_args(n)
            numpy_time = _run_time(original, args, repeat=3)
            compile_time, compiled = _compile(rewrite, args)
            run_time = _run_time(compiled, args)
            compiles[n] = compile_time
            unrolled_compile = unrolled_run = None
            if static is not None and n <= UNROLL_LIMIT:
                try:
                    unrolled_compile, unrolled = _compile(original, args, (static,), repeat=1)
                    unrolled_run = _run_time(unrolled, args)
                except Exception:  # noqa: BLE001 - the original cannot be traced (NumPy calls, in-place updates)
                    pass
            print(
                f"{n:>6} {_fmt(numpy_time):>11} {_fmt(compile_time):>16} {_fmt(run_time):>12} "
                f"{_fmt(unrolled_compile):>17} {_fmt(unrolled_run):>13} {numpy_time / run_time:8.1f}x"
            )
        if len(trips) > 1:
            print(f"compile time at N={trips[-1]} / N={trips[0]}: {compiles[trips[-1]] / compiles[trips[0]]:.2f}x")


if __name__ == "__main__":
    main()
