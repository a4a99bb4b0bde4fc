"""Input specs for behavioural tests, and the Hypothesis strategies drawn from them.

A fixture's before-file ends with a literal `SPEC` (a dict, or a list of dicts for several functions), read with
`ast.literal_eval`, never imported:

```python
SPEC = {
    "function": "running_sum",              # the function to call (by keyword, in the order of "args")
    "args": {
        "x": {"array": [8], "dtype": "float32", "range": [-2.0, 2.0]},   # NumPy array; "nan": 0.2 adds NaNs
        "n": {"int": [0, 8]},               # a Python int (traced under jit unless "static": True)
        "t": {"float": [-1.0, 1.0]},        # a Python float
        "flag": {"bool": True},             # a Python bool
        "mode": {"choice": ["a", "b"], "static": True},   # one of these Python values
        "c": {"value": [1.0, 2.0], "dtype": "float32"},   # a fixed value (an array when "dtype" is given)
        "xs": {"list": {"array": [3], "dtype": "float32"}, "length": 4},   # a Python list of such values
    },
    "grad": ["x"],          # also compare jax.grad of the rewrite with finite differences of the original
    "rtol": 1e-5, "atol": 1e-6,
    "mutates": "x",         # the original returns None and mutates x; the rewrite returns the updated x
    "x64": False,           # run with jax_enable_x64
    "max_examples": 20,     # cap for this function (the CI profile may lower it)
    "random": {"replicates": 64},   # randomness: compare distributions over keys vs seeds (see behaviour.py)
    "migrate": {"unsafe_fixes": True},   # options for migrating the fixture (default: safe fixes, all rules)
}
```
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


class SpecError(Exception):
    pass


@dataclass(frozen=True)
class FunctionSpec:
    function: str
    args: dict[str, dict]
    grad: tuple[str, ...] = ()
    rtol: float = 1e-5
    atol: float = 1e-6
    mutates: Optional[str] = None
    x64: bool = False
    max_examples: Optional[int] = None
    random: Optional[dict] = None
    raw: dict = field(default_factory=dict)

    @property
    def static_argnames(self) -> tuple[str, ...]:
        return tuple(name for name, arg in self.args.items() if arg.get("static") or "choice" in arg and _non_numeric(arg["choice"]))


def _non_numeric(values: list) -> bool:
    return any(not isinstance(v, (int, float, bool)) for v in values)


def read_specs(source: str, path: str = "<fixture>") -> list[FunctionSpec]:
    """The SPEC of a before-file (empty when it has none)."""
    tree = ast.parse(source, filename=path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SPEC" for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except ValueError as error:
                raise SpecError(f"{path}: SPEC must be a literal: {error}") from None
            items = value if isinstance(value, list) else [value]
            return [_function_spec(item, path) for item in items]
    return []


def read_migrate_options(source: str, path: str = "<fixture>") -> dict:
    tree = ast.parse(source, filename=path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SPEC" for t in node.targets):
            value = ast.literal_eval(node.value)
            items = value if isinstance(value, list) else [value]
            merged: dict = {}
            for item in items:
                merged.update(item.get("migrate", {}))
            return merged
    return {}


def _function_spec(item: dict, path: str) -> FunctionSpec:
    if "function" not in item or "args" not in item:
        raise SpecError(f"{path}: each SPEC needs 'function' and 'args'")
    known = {"function", "args", "grad", "rtol", "atol", "mutates", "x64", "max_examples", "random", "migrate", "note"}
    unknown = set(item) - known
    if unknown:
        raise SpecError(f"{path}: unknown SPEC keys {sorted(unknown)}")
    return FunctionSpec(
        function=item["function"],
        args=dict(item["args"]),
        grad=tuple(item.get("grad", ())),
        rtol=float(item.get("rtol", 1e-5)),
        atol=float(item.get("atol", 1e-6)),
        mutates=item.get("mutates"),
        x64=bool(item.get("x64", False)),
        max_examples=item.get("max_examples"),
        random=item.get("random"),
        raw=item,
    )


def _representable(low: float, high: float, dtype: type) -> tuple[float, float]:
    """Bounds moved inwards to the nearest values of `dtype` (Hypothesis requires exact bounds)."""
    lo, hi = dtype(low), dtype(high)
    if lo < low:
        lo = np.nextafter(lo, dtype(np.inf))
    if hi > high:
        hi = np.nextafter(hi, dtype(-np.inf))
    return float(lo), float(hi)


def _float_elements(dtype: np.dtype, low: float, high: float) -> st.SearchStrategy:
    width = 64 if dtype == np.float64 else 32 if dtype == np.float32 else 16
    kind = {64: np.float64, 32: np.float32, 16: np.float16}[width]
    low, high = _representable(low, high, kind)
    # no subnormals: XLA on CPU flushes them to zero, NumPy does not
    return st.floats(low, high, width=width, allow_nan=False, allow_infinity=False, allow_subnormal=False)


def arg_strategy(arg: dict) -> st.SearchStrategy:
    """A strategy for one argument; arrays come out as NumPy arrays (the harness converts for JAX)."""
    if "value" in arg:
        value = arg["value"]
        if "dtype" in arg:
            return st.just(np.asarray(value, dtype=arg["dtype"]))
        return st.just(value)
    if "choice" in arg:
        return st.sampled_from(arg["choice"])
    if "int" in arg:
        low, high = arg["int"]
        return st.integers(low, high)
    if "float" in arg:
        low, high = _representable(*arg["float"], np.float32)
        return st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False, width=32)
    if "bool" in arg:
        return st.booleans()
    if "list" in arg:
        length = arg.get("length", 3)
        return st.lists(arg_strategy(arg["list"]), min_size=length, max_size=length)
    if "array" in arg:
        shape = tuple(arg["array"])
        dtype = np.dtype(arg.get("dtype", "float32"))
        if dtype == np.bool_:
            elements = st.booleans()
        elif np.issubdtype(dtype, np.integer):
            low, high = arg.get("range", [0, 9])
            elements = st.integers(int(low), int(high))
        else:
            low, high = arg.get("range", [-1.0, 1.0])
            elements = _float_elements(dtype, float(low), float(high))
        strategy = hnp.arrays(dtype, shape, elements=elements, unique=bool(arg.get("unique", False)))
        nan = arg.get("nan")
        if nan:
            strategy = st.tuples(strategy, hnp.arrays(np.bool_, shape, elements=st.booleans())).map(
                lambda pair: np.where(pair[1], np.nan, pair[0]).astype(dtype)
            )
        return strategy
    raise SpecError(f"unknown argument spec {arg!r}")


def args_strategy(spec: FunctionSpec) -> st.SearchStrategy:
    return st.fixed_dictionaries({name: arg_strategy(arg) for name, arg in spec.args.items()})


def draw_example(spec: FunctionSpec, seed: int) -> dict[str, Any]:
    """One concrete set of arguments from a seeded NumPy generator (for replicate runs outside Hypothesis)."""
    rng = np.random.default_rng(seed)
    out: dict[str, Any] = {}
    for name, arg in spec.args.items():
        out[name] = _draw(arg, rng)
    return out


def _draw(arg: dict, rng: np.random.Generator) -> Any:
    if "value" in arg:
        return np.asarray(arg["value"], dtype=arg["dtype"]) if "dtype" in arg else arg["value"]
    if "choice" in arg:
        return arg["choice"][int(rng.integers(len(arg["choice"])))]
    if "int" in arg:
        return int(rng.integers(arg["int"][0], arg["int"][1] + 1))
    if "float" in arg:
        return float(rng.uniform(*arg["float"]))
    if "bool" in arg:
        return bool(rng.integers(2))
    if "list" in arg:
        return [_draw(arg["list"], rng) for _ in range(arg.get("length", 3))]
    shape = tuple(arg["array"])
    dtype = np.dtype(arg.get("dtype", "float32"))
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(bool)
    if np.issubdtype(dtype, np.integer):
        low, high = arg.get("range", [0, 9])
        return rng.integers(low, high + 1, size=shape).astype(dtype)
    low, high = arg.get("range", [-1.0, 1.0])
    return rng.uniform(low, high, size=shape).astype(dtype)
