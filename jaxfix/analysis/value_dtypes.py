"""What the masked and scattered writes need to know about dtypes: does `jnp.where(m, v, x)` (or `x OP v`) keep the
dtype of `x`, as NumPy's `x[m] = v` (which casts `v` to `x.dtype`) always does?

`dtype_of(facts, expr)` gives a `DType` from syntax and the function's bindings (`jaxfix.analysis.masks.FunctionFacts`,
every binding counts): the kind (bool < int < float < complex) exactly or as a lower bound, the NumPy dtype name when
known (`np.zeros(3)` is float64, `x.astype(np.float32)` float32), whether it is a weakly typed Python scalar (it takes
the array's width), and `like`: the name of the array whose dtype it provably has, whatever that is (`x.copy()`,
`np.zeros_like(x)`, `x * 2` when `x` is known to be at least int, `y[m]`). `promote(a, b)` follows JAX's promotion
(integers promote into any float width), and returns `a` itself when `b` cannot widen it, so `keeps(x, v)` is the
question the rules ask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Optional

import libcst as cst
import numpy as np

from jaxfix import walk
from jaxfix.analysis.masks import ELEMENTWISE, MASK_FUNCTIONS, FunctionFacts, dotted, dotted_text

BOOL, INT, FLOAT, COMPLEX = range(4)
KINDS = {"b": BOOL, "u": INT, "i": INT, "f": FLOAT, "c": COMPLEX}
PYTHON_TYPES = {"bool": "bool", "int": "int64", "float": "float64", "complex": "complex128"}
SAME_DTYPE = {"abs", "absolute", "negative", "positive", "square", "conj", "conjugate", "copy", "array", "asarray",
              "reshape", "ravel", "transpose", "squeeze", "flip", "roll", "sort", "repeat", "tile", "take", "max", "min",
              "amax", "amin", "ptp", "nanmax", "nanmin", "diag", "triu", "tril", "atleast_1d", "atleast_2d", "T",
              "flatten", "swapaxes", "expand_dims", "broadcast_to", "round", "around"}
PROMOTING = {"minimum", "maximum", "fmin", "fmax", "clip", "where", "add", "subtract", "multiply", "dot", "matmul",
             "outer", "inner", "kron", "cross", "hypot"}
INEXACT = (ELEMENTWISE - MASK_FUNCTIONS - SAME_DTYPE - PROMOTING - {"sign", "nan_to_num", "floor", "ceil", "rint"}) | {
    "mean", "average", "divide", "true_divide", "arctan2", "arcsin", "arccos", "arcsinh", "arccosh", "arctanh",
    "log2", "log10", "exp2", "cbrt", "nanmean"}
REAL_INEXACT = {"std", "var", "nanstd", "nanvar"}
SCALAR_TYPE = re.compile(r"bool_|u?int(?:8|16|32|64)|float(?:16|32|64)|complex(?:64|128)")
ANNOTATED = re.compile(r"NDArray\[\s*(?:np\.|numpy\.)?(bool_|u?int(?:8|16|32|64)|float(?:16|32|64)|complex(?:64|128))\s*\]")


@dataclass(frozen=True)
class DType:
    kind: int  # BOOL..COMPLEX: exact, or a lower bound when not `exact`
    exact: bool = True
    name: Optional[str] = None  # NumPy dtype name, when known
    weak: bool = False  # a Python scalar: takes the other operand's width
    like: Optional[str] = None  # has exactly the dtype of this name

    @property
    def top(self) -> int:
        """The highest kind it may have."""
        return self.kind if self.exact else COMPLEX

    def anonymous(self) -> "DType":
        return replace(self, like=None)


UNKNOWN = DType(BOOL, exact=False)

# `np.fft` transforms whose result is complex for any input
_COMPLEX_FFTS = frozenset({"fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "rfft2", "rfftn"})


def of_name(name: str) -> DType:
    dtype = np.dtype(name)
    return DType(KINDS[dtype.kind], name=dtype.name)


def promote(a: DType, b: DType) -> DType:
    """The dtype of a binary operation on `a` and `b` under JAX's rules; `a` itself when `b` cannot widen it."""
    if a == b and (a.like or a.name or a.weak):
        return a
    if b.weak and not a.weak or (b.exact and b.kind == BOOL and not b.weak):
        return a if b.kind <= a.kind else _raised(a, b.kind)
    if a.weak and not b.weak or (a.exact and a.kind == BOOL and not a.weak):
        return b if a.kind <= b.kind else _raised(b, a.kind)
    if a.weak and b.weak:
        return DType(max(a.kind, b.kind), a.exact and b.exact, weak=True)
    if a.exact and b.exact:
        high, low = (a, b) if a.kind >= b.kind else (b, a)
        if low.kind <= INT < FLOAT <= high.kind:
            return high  # integers promote into the float's width
        if a.name and b.name and high.kind == low.kind or a.name and b.name and low.kind == FLOAT:
            name = np.promote_types(a.name, b.name).name
            return a if name == a.name else b if name == b.name else of_name(name)
        return DType(high.kind)
    return DType(max(a.kind, b.kind), exact=False)


def _raised(array: DType, kind: int) -> DType:
    """An array combined with a weak scalar of a higher kind (`int_array * 0.5`)."""
    return DType(kind, exact=array.exact)


def keeps(x: DType, v: DType) -> bool:
    """`jnp.where(m, v, x)` provably has the dtype of `x` (which must be identified: a name or a known dtype)."""
    return bool(x.like or x.exact and x.name) and promote(x, v) == x


def inexact(a: DType) -> DType:
    """The result of a function that gives floats for integers (`np.sqrt`, `/`, `np.mean`)."""
    if a.kind >= FLOAT:
        return a
    return DType(FLOAT, exact=a.exact, weak=a.weak)


def dtype_of(facts: FunctionFacts, node: cst.BaseExpression, env: Optional[dict[str, Optional[DType]]] = None) -> DType:
    env = {} if env is None else env
    if isinstance(node, cst.Integer):
        return DType(INT, weak=True)
    if isinstance(node, cst.Float):
        return DType(FLOAT, weak=True)
    if isinstance(node, cst.Imaginary):
        return DType(COMPLEX, weak=True)
    if isinstance(node, cst.Name):
        return _name(facts, node.value, env)
    if isinstance(node, cst.UnaryOperation):
        if isinstance(node.operator, cst.Not):
            return DType(BOOL, name="bool")
        return dtype_of(facts, node.expression, env)
    if isinstance(node, cst.Comparison):
        return DType(BOOL, name="bool")
    if isinstance(node, cst.BinaryOperation):
        result = promote(dtype_of(facts, node.left, env), dtype_of(facts, node.right, env))
        return inexact(result) if isinstance(node.operator, cst.Divide) else result
    if isinstance(node, cst.IfExp):
        return promote(dtype_of(facts, node.body, env), dtype_of(facts, node.orelse, env))
    if isinstance(node, cst.Subscript):
        base = node.value
        if isinstance(base, cst.Attribute) and base.attr.value == "shape":
            return DType(INT, weak=True)
        return dtype_of(facts, base, env) if not isinstance(base, (cst.List, cst.Tuple)) else UNKNOWN
    if isinstance(node, cst.Attribute):
        if node.attr.value in ("size", "ndim"):
            return DType(INT, weak=True)
        if facts.array_function(node) in ("pi", "e", "inf", "nan", "euler_gamma"):
            return DType(FLOAT, weak=True)
        if node.attr.value == "T":
            return dtype_of(facts, node.value, env)
        return UNKNOWN
    if isinstance(node, cst.Call):
        return _call(facts, node, env)
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements:  # inside `np.array([...])`
        result = dtype_of(facts, node.elements[0].value, env)
        for element in node.elements[1:]:
            result = promote(result, dtype_of(facts, element.value, env))
        return result
    return UNKNOWN


def _name(facts: FunctionFacts, name: str, env: dict[str, Optional[DType]]) -> DType:
    """The dtype of `name` from its bindings (under `env`'s assumptions), computed once per name and assumptions: a
    chain of names each bound from the one before twice (`a2 = np.add(a1, a1)`) is otherwise walked 2**n times."""
    if name in env:
        assumed = env[name]
        return assumed if assumed is not None else UNKNOWN
    key = (name, frozenset(env.items()))
    if key not in facts.dtype_memo:
        facts.dtype_memo[key] = _bound_name(facts, name, env)
    return facts.dtype_memo[key]


def _bound_name(facts: FunctionFacts, name: str, env: dict[str, Optional[DType]]) -> DType:
    if name in env:
        assumed = env[name]
        return assumed if assumed is not None else UNKNOWN
    if name in ("True", "False"):
        return DType(BOOL, name="bool")
    if name in facts.range_vars:
        return DType(INT, weak=True)
    if name in facts.params:
        annotation = dotted_text(facts.params[name])
        if annotation in PYTHON_TYPES:
            return _python(annotation)
        typed = ANNOTATED.search(annotation)  # `NDArray[np.int32]`
        if typed:
            return replace(of_name(typed.group(1)), like=name)
        return DType(BOOL, exact=False, like=name)
    values = facts.bindings.get(name, [])
    opaque = sum(v is None for v in values) - len(facts.augmented.get(name, []))
    if not values or opaque > 0:
        return replace(UNKNOWN, like=name)
    own = [v for v in values if v is not None and name in walk.name_values(v)]
    other = [v for v in values if v is not None and name not in walk.name_values(v)]
    found = {dtype_of(facts, v, {**env, name: None}) for v in other}
    if len(found) != 1:
        return replace(UNKNOWN, like=name)
    base = found.pop()
    if not (base.like or (base.exact and base.name) or base.weak):
        base = replace(base, like=name)  # only this name is known to have this (partly known) dtype
    # an augmented assignment keeps an array's dtype (in place); a rebinding from itself must, too
    if base.weak and facts.augmented.get(name):
        return replace(UNKNOWN, like=name)
    if any(dtype_of(facts, v, {**env, name: base}) != base for v in own):
        return replace(UNKNOWN, like=name)
    return base




def dtype_argument(facts: FunctionFacts, node: cst.BaseExpression, env: dict) -> Optional[DType]:
    """The dtype a `dtype=` / `astype(...)` argument names, or None when unknown."""
    if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
        text = node.evaluated_value
    elif isinstance(node, cst.Attribute) and node.attr.value == "dtype":
        return dtype_of(facts, node.value, env)
    else:
        text = facts.array_function(node) or dotted(node)
        text = PYTHON_TYPES.get(text, text)
    try:
        return of_name(text) if text else None
    except (TypeError, KeyError, ValueError):  # not a dtype, or not a number (`str`, `object`, datetimes)
        return None


def _call(facts: FunctionFacts, node: cst.Call, env: dict) -> DType:  # noqa: C901 - one case per function family
    func = node.func
    positional = [a.value for a in node.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    name = dotted(func)
    if name in ("float", "int", "bool", "complex", "len") and name not in facts.bindings:
        return _python("int" if name == "len" else name)
    if name == "abs" and positional:
        return dtype_of(facts, positional[0], env)
    fn = facts.array_function(func)
    if "dtype" in keywords:
        return dtype_argument(facts, keywords["dtype"], env) or UNKNOWN
    slot = func.value if isinstance(func, cst.Attribute) else None
    if isinstance(slot, cst.Subscript) and isinstance(slot.value, cst.Attribute) and slot.value.attr.value == "at":
        return dtype_of(facts, slot.value.value, env)  # `x.at[i].set(v)`: an update keeps the array's dtype
    if fn is None and isinstance(func, cst.Attribute):  # a method of an array
        base = dtype_of(facts, func.value, env)
        method = func.attr.value
        if method == "astype" and positional:
            return dtype_argument(facts, positional[0], env) or UNKNOWN
        if method in ("any", "all"):
            return DType(BOOL, name="bool")
        return _function(facts, method, base, positional, keywords, env, is_method=True)
    if fn is None:
        return UNKNOWN
    if fn.split(".")[-2:-1] == ["fft"] and fn.split(".")[-1] in _COMPLEX_FFTS:
        return DType(COMPLEX)  # `np.fft.fft(x)`: complex whatever `x` is
    fn = fn.split(".")[-1]
    if SCALAR_TYPE.fullmatch(fn):  # `np.int64(300)`, `np.float32(x)`: a NumPy scalar of that dtype
        return of_name(fn)
    if fn in ("zeros", "ones", "empty", "eye", "identity", "linspace", "logspace", "geomspace"):
        explicit = positional[1] if fn in ("zeros", "ones", "empty") and len(positional) > 1 else None
        return (dtype_argument(facts, explicit, env) if explicit is not None else of_name("float64")) or UNKNOWN
    if fn == "full" and len(positional) >= 2:
        return _strong(dtype_of(facts, positional[1], env))
    if fn in ("zeros_like", "ones_like", "empty_like", "full_like") and positional:
        return dtype_of(facts, positional[0], env)
    if fn == "arange":
        kinds = {dtype_of(facts, a, env) for a in positional}
        if all(k.weak and k.exact for k in kinds):
            return of_name("float64" if any(k.kind == FLOAT for k in kinds) else "int64")
        return UNKNOWN
    if fn in ("array", "asarray") and len(positional) > 1:  # `jnp.asarray(v, x.dtype)`, as JX301 writes it
        return dtype_argument(facts, positional[1], env) or UNKNOWN
    if fn in ("array", "asarray") and positional and isinstance(positional[0], (cst.List, cst.Tuple)):
        elements = [dtype_of(facts, e.value, env) for e in positional[0].elements]
        result = elements[0] if elements else of_name("float64")
        for element in elements[1:]:
            result = promote(result, element)
        return _strong(result)
    if fn in MASK_FUNCTIONS:
        return DType(BOOL, name="bool")
    if not positional:
        return UNKNOWN
    return _function(facts, fn, dtype_of(facts, positional[0], env), positional[1:], keywords, env, is_method=False)


def _function(facts: FunctionFacts, fn: str, first: DType, rest: list, keywords: dict, env: dict, is_method: bool) -> DType:
    """A NumPy function or array method applied to an operand of dtype `first`."""
    if fn == "where" and not is_method:
        return promote(*(dtype_of(facts, a, env) for a in rest)) if len(rest) == 2 else UNKNOWN
    if fn in SAME_DTYPE:
        return first
    if fn in PROMOTING:
        result = first
        for extra in [*rest, *(v for k, v in keywords.items() if k in ("a_min", "a_max", "min", "max"))]:
            result = promote(result, dtype_of(facts, extra, env))
        return result
    if fn in ("sum", "prod", "cumsum", "cumprod", "nansum", "nanprod"):
        return first if first.kind >= FLOAT else DType(max(first.kind, INT), exact=False)
    if fn in INEXACT:
        return inexact(first)
    if fn in REAL_INEXACT:
        return first if first.exact and first.kind == FLOAT else DType(FLOAT, exact=first.exact and first.kind < COMPLEX)
    return UNKNOWN


def _python(typename: str) -> DType:
    """A Python scalar of this type: weak, except `bool` (the bottom of the lattice either way)."""
    if typename == "bool":
        return DType(BOOL, name="bool")
    return DType(KINDS[np.dtype(PYTHON_TYPES[typename]).kind], weak=True)


def _strong(value: DType) -> DType:
    """A Python scalar turned into an array: NumPy's default dtype for its kind."""
    if not value.weak:
        return value
    if not value.exact:
        return DType(value.kind, exact=False)
    return of_name({BOOL: "bool", INT: "int64", FLOAT: "float64", COMPLEX: "complex128"}[value.kind])
