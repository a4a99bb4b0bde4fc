"""NumPy random draws and their `jax.random` equivalents.

`translate(method, call, code, names, subkey)` turns one draw (`np.random.normal(0, 0.1, size=n)`,
`rng.integers(0, 5, size=3)`, legacy and Generator API alike) into the text of the equivalent `jax.random` call
that consumes `subkey`, or explains why there is none. NumPy's parameters are bound by position and keyword
exactly as NumPy binds them; `size=None` becomes shape `()` (or the broadcast shape of array-valued parameters),
half-open ranges stay half-open, and integer draws stay integer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import libcst as cst

# NumPy method -> its parameters in NumPy's order (legacy `np.random.*`, RandomState and Generator share these).
SIGNATURES: dict[str, tuple[str, ...]] = {
    "normal": ("loc", "scale", "size"),
    "standard_normal": ("size",),
    "random": ("size",),
    "random_sample": ("size",),
    "sample": ("size",),
    "ranf": ("size",),
    "uniform": ("low", "high", "size"),
    "randint": ("low", "high", "size", "dtype"),
    "integers": ("low", "high", "size", "dtype", "endpoint"),
    "choice": ("a", "size", "replace", "p", "axis", "shuffle"),
    "permutation": ("x",),
    "shuffle": ("x",),
    "binomial": ("n", "p", "size"),
    "poisson": ("lam", "size"),
    "exponential": ("scale", "size"),
    "standard_exponential": ("size",),
    "gamma": ("shape", "scale", "size"),
    "beta": ("a", "b", "size"),
    "laplace": ("loc", "scale", "size"),
    "logistic": ("loc", "scale", "size"),
    "multivariate_normal": ("mean", "cov", "size"),
}
STAR_SHAPE = {"rand", "randn"}  # rand(d0, d1, ...): the shape comes as separate arguments
DRAWS = set(SIGNATURES) | STAR_SHAPE
SOURCES = {"seed", "default_rng", "RandomState", "Generator"}
UNIFORM01 = {"rand", "random", "random_sample", "sample", "ranf"}


@dataclass(frozen=True)
class Names:
    jax: str  # local name of jax
    jnp: str  # local name of jax.numpy


def _atom(text: str, node: cst.BaseExpression) -> str:
    simple = (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.Call, cst.Subscript, cst.Tuple, cst.List)
    return text if isinstance(node, simple) else f"({text})"


def is_scalar_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Integer, cst.Float)):
        return True
    return isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)) and is_scalar_literal(node.expression)


def _literal_value(node: Optional[cst.BaseExpression]) -> Optional[object]:
    if node is None:
        return None
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if is_scalar_literal(node):
        return _number(node)  # not int(code): `(100)`, `1_000`, `0x10` are literals too (scikit-learn writes `size=(100)`)
    return "?"


def _number(node: cst.BaseExpression) -> object:
    if isinstance(node, (cst.Integer, cst.Float)):
        return node.evaluated_value
    assert isinstance(node, cst.UnaryOperation)
    value = _number(node.expression)
    return -value if isinstance(node.operator, cst.Minus) else value  # type: ignore[operator]


def bind(method: str, call: cst.Call) -> Optional[dict[str, cst.BaseExpression]]:
    """NumPy's binding of the call's arguments to parameter names; None when it cannot be read statically."""
    params = SIGNATURES[method]
    bound: dict[str, cst.BaseExpression] = {}
    position = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            if position >= len(params):
                return None
            bound[params[position]] = arg.value
            position += 1
        elif arg.keyword.value in params and arg.keyword.value not in bound:
            bound[arg.keyword.value] = arg.value
        else:
            return None
    return bound


def star_shape(call: cst.Call, code: Callable[[cst.CSTNode], str]) -> Optional[str]:
    """The shape of `rand(d0, d1)` / `randn(*x.shape)` as source text."""
    if any(arg.keyword is not None for arg in call.args):
        return None
    if len(call.args) == 1 and call.args[0].star == "*":
        return code(call.args[0].value)
    if any(arg.star for arg in call.args):
        return None
    dims = [code(arg.value) for arg in call.args]
    return "()" if not dims else f"({dims[0]},)" if len(dims) == 1 else f"({', '.join(dims)})"


def _an_int(node: cst.BaseExpression) -> bool:
    """An expression that is an int whatever its names hold: `x.shape[0]`, `len(x)`, `n * 2` of those."""
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) and node.value.attr.value == "shape":
        index = node.slice[0].slice
        return len(node.slice) == 1 and isinstance(index, cst.Index) and isinstance(index.value, (cst.Integer, cst.UnaryOperation))
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len":
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide)):
        return _an_int(node.left) and _an_int(node.right)
    return False


# reductions that count: their result, a NumPy integer scalar, is not a shape `jax.random` takes (a Python int is)
COUNTS = frozenset({"sum", "count_nonzero", "prod", "max", "min", "argmax", "argmin", "nansum"})


def _counted(size: cst.BaseExpression) -> bool:
    """`size=reject.sum()`, `size=np.count_nonzero(m)`: a count computed by NumPy."""
    return isinstance(size, cst.Call) and isinstance(size.func, (cst.Name, cst.Attribute)) and (
        size.func.attr.value if isinstance(size.func, cst.Attribute) else size.func.value) in COUNTS


def translate(
    method: str, call: cst.Call, code: Callable[[cst.CSTNode], str], names: Names, subkey: str
) -> tuple[Optional[str], str]:
    """(replacement text, "") or (None, reason)."""
    r = f"{names.jax}.random"
    if method in STAR_SHAPE:
        shape = star_shape(call, code)
        if shape is None:
            return None, f"cannot read the shape of `{code(call)}`"
        fn = "uniform" if method == "rand" else "normal"
        return (f"{r}.{fn}({subkey})" if shape == "()" else f"{r}.{fn}({subkey}, {shape})"), ""
    if method not in SIGNATURES:
        return None, f"`{method}` has no `jax.random` equivalent"
    bound = bind(method, call)
    if bound is None:
        return None, f"cannot bind the arguments of `{code(call)}` statically"
    c = {name: code(node) for name, node in bound.items()}
    if "size" in bound and _counted(bound["size"]):
        c["size"] = f"int({c['size']})"  # `size=reject.sum()`: a NumPy int, which `jax.random` rejects as a shape

    def given(name: str, default: object = None) -> bool:
        return name in bound and _literal_value(bound[name]) != default

    def shape(*value_params: str) -> Optional[str]:
        """The output shape: `size`, else the broadcast shape of the array-valued parameters (None: `()`)."""
        if given("size"):
            return c["size"]
        arrays = [p for p in value_params if p in bound and not is_scalar_literal(bound[p])]
        if not arrays:
            return None
        if len(arrays) == 1:
            return f"{names.jnp}.shape({c[arrays[0]]})"
        return f"{names.jnp}.broadcast_shapes({', '.join(f'{names.jnp}.shape({c[p]})' for p in arrays)})"

    def located(base: str, loc: str, scale: str, loc_default: object, scale_default: object) -> str:
        out = base
        if given(scale, scale_default):
            out = f"{_atom(c[scale], bound[scale])} * {out}"
        if given(loc, loc_default):
            out = f"{_atom(c[loc], bound[loc])} + {out}"
        return out

    def draw(fn: str, *value_params: str, extra: Sequence[str] = ()) -> str:
        s = shape(*value_params)
        args = [subkey, *extra] + ([s] if s is not None else [])
        return f"{r}.{fn}({', '.join(args)})"

    if method in ("normal", "laplace", "logistic"):
        return located(draw(method, "loc", "scale"), "loc", "scale", 0, 1), ""
    if method in ("standard_normal", "random", "random_sample", "sample", "ranf", "standard_exponential"):
        fn = "normal" if method == "standard_normal" else "exponential" if method == "standard_exponential" else "uniform"
        return draw(fn), ""
    if method == "exponential":
        return located(draw("exponential", "scale"), "loc", "scale", 0, 1), ""
    if method == "uniform":
        s = shape("low", "high")
        bounds = [f"minval={c['low']}"] if given("low", 0) else []
        bounds += [f"maxval={c['high']}"] if given("high", 1) else []
        args = [subkey] + ([s or "()"] if s is not None or bounds else []) + bounds
        return f"{r}.uniform({', '.join(args)})", ""
    if method in ("randint", "integers"):
        if "low" not in bound or "dtype" in bound:
            return None, f"`{code(call)}`: only `low`, `high`, `size` are translated"
        low, high = ("0", c["low"]) if not given("high") else (c["low"], c["high"])
        if given("endpoint", False):
            if _literal_value(bound["endpoint"]) is not True:
                return None, f"`endpoint={c['endpoint']}` is not a literal"
            high = f"{_atom(high, bound['high'] if given('high') else bound['low'])} + 1"
        s = shape("low", "high") or "()"
        return f"{r}.randint({subkey}, {s}, {low}, {high})", ""
    def sequence(name: str) -> str:
        """`size` as a sequence (choice and multivariate_normal reject an int shape)."""
        node = bound[name]
        if isinstance(node, cst.Integer) or _an_int(node):
            return f"({c[name]},)"
        if isinstance(node, (cst.Tuple, cst.List)) or (isinstance(node, cst.Attribute) and node.attr.value == "shape"):
            return c[name]
        return f"{c[name]} if isinstance({c[name]}, tuple) else ({c[name]},)"

    if method == "choice":
        if given("axis", 0) or given("shuffle", True):
            return None, f"`{code(call)}`: `axis`/`shuffle` are not translated"
        a = c["a"] if not isinstance(bound.get("a"), (cst.List, cst.Tuple)) else f"{names.jnp}.array({c['a']})"
        args = [subkey, a] + ([sequence("size")] if given("size") else [])
        if given("replace", True):
            args.append(f"replace={c['replace']}")
        if given("p"):
            args.append(f"p={c['p']}")
        return f"{r}.choice({', '.join(args)})", ""
    if method in ("permutation", "shuffle"):
        return f"{r}.permutation({subkey}, {c['x']})", ""
    if method == "binomial":
        return f"{draw('binomial', 'n', 'p', extra=(c['n'], c['p']))}.astype(int)", ""
    if method == "poisson":
        lam = c.get("lam", "1.0")
        return draw("poisson", "lam", extra=(lam,)), ""
    if method == "gamma":
        return located(draw("gamma", "shape", "scale", extra=(c["shape"],)), "loc", "scale", 0, 1), ""
    if method == "beta":
        return draw("beta", "a", "b", extra=(c["a"], c["b"])), ""
    if method == "multivariate_normal":
        # NumPy factors `cov` by SVD: a singular covariance (a fixed or perfectly correlated parameter) samples fine,
        # where JAX's default Cholesky gives NaN
        args = [subkey, c["mean"], c["cov"]] + ([sequence("size")] if given("size") else []) + ['method="svd"']
        return f"{r}.multivariate_normal({', '.join(args)})", ""
    return None, f"`{method}` has no `jax.random` equivalent"


def bernoulli(
    method: str, call: cst.Call, op: cst.BaseCompOp, p: cst.BaseExpression, code: Callable[[cst.CSTNode], str],
    names: Names, subkey: str,
) -> Optional[str]:
    """`rand(*s) < p` -> `jax.random.bernoulli(subkey, p, s)` (and `> p` with `1 - p`), when the shape is explicit."""
    if method not in UNIFORM01 or not isinstance(op, (cst.LessThan, cst.GreaterThan)):
        return None
    if method == "rand":
        shape = star_shape(call, code)
    else:
        bound = bind(method, call)
        shape = code(bound["size"]) if bound and "size" in bound else None
    if not shape or shape == "()":
        return None  # an array-valued p would broadcast one draw: keep the comparison
    prob = code(p) if isinstance(op, cst.LessThan) else f"1 - {_atom(code(p), p)}"
    return f"{names.jax}.random.bernoulli({subkey}, {prob}, {shape})"
