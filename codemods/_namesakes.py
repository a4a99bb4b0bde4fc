"""Where a NumPy function's `jax.numpy` namesake is not a plain rename: the tables JX501 (numpy-namespace) reads.

- `OTHER_FAMILIES`: the NumPy modules other rule families handle (`numpy.random`: JX4xx);
- `IN_PLACE`: functions that write into their first argument, which their namesakes cannot do;
- `DIFFERENT`: namesakes whose results differ from NumPy's on ordinary inputs, and how (an unsafe rename);
- `UNIT_LIBRARIES`, `units_library(module)` and `units_difference(short, units)`: a module that uses units
  (astropy's Quantity), whose NumPy calls keep them and whose namesakes drop them (an unsafe rename);
- `STATIC_KEYWORDS` and `static_keyword(node, short)`: keywords the namesake takes as static values (`np.pad`'s
  `end_values`), where a computed value makes the rename unsafe;
- `LAYOUT_ONLY_ORDER` and `droppable(short)`: keywords that only choose how NumPy computes (a memory layout, a sort
  algorithm), which the namesake rejects and the rename drops;
- `layout_keyword(rule, node)`: the same `order=` given to a traced array's `.copy` or `.astype`, whose JAX
  methods reject it;
- `decimal_round(node, short)`: `np.round(x, decimals)`, whose namesake rounds one ulp away on ordinary inputs;
- `builtin_round(rule, node)`: a result the builtin `round(v, ndigits)` rounds, which a JAX array does with
  `jnp.round`;
- `truncated_log2(rule, node)`: `np.log2` whose result is truncated or compared, where `jnp.log2`'s inexact powers
  of two change the answer;
- `INTEGER_TO_FLOAT` and `integer_inputs(rule, node, short)`: namesakes that give floats for integer inputs
- `float_counts(node, short)`: `jnp.histogram`, whose counts are floats
  (`jnp.convolve`), where NumPy keeps integers (an unsafe rename unless an input is known to be inexact);
- `out_position(short)`: where a NumPy function takes `out` positionally (`np.clip(K, lo, hi, K)` writes into `K`).
"""

from __future__ import annotations

import ast
import functools
import inspect
from typing import TYPE_CHECKING, Callable, Optional, Sequence

import numpy as np

import libcst as cst

from jaxfix import walk
from jaxfix.analysis import jnp_api
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.masks import FunctionFacts, function_facts
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.tracedness import Tracedness, tracedness
from jaxfix.analysis.value_dtypes import BOOL, FLOAT, dtype_of
from jaxfix.imports import UNIT_LIBRARIES, dotted_name, top_level_import

if TYPE_CHECKING:
    from jaxfix.rule import Rule

# Left to other families: randomness (JX4xx); `ufunc.at` and `out=` (JX1xx).
OTHER_FAMILIES = ("numpy.random",)
# creation functions whose `order=` is only a memory layout (for reshape and ravel it orders the values: kept)
LAYOUT_ONLY_ORDER = {
    "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "zeros", "ones", "empty", "full",
    "zeros_like", "ones_like", "empty_like", "full_like", "copy",
}
# NumPy functions that write into their first argument: `jax.numpy`'s namesakes cannot (they raise, or need
# `inplace=False` and return the result), so a rename would break the call
IN_PLACE = {"place", "put", "putmask", "fill_diagonal", "put_along_axis"}
# `jax.numpy` namesakes whose results differ from NumPy's on ordinary inputs: renamed only as an unsafe fix
DIFFERENT = {
    "linalg.eig": "always returns complex eigenvalues and vectors (NumPy returns real ones when they all are real)",
    "linalg.eigvals": "always returns complex eigenvalues (NumPy returns real ones when they all are real)",
    "roots": "always returns complex roots (NumPy returns real ones when they all are real)",
    "linalg.lstsq": "returns residuals for every system (NumPy returns an empty array when the matrix is square, "
                    "wide or rank-deficient)",
    "apply_along_axis": "calls the function once, with tracers (`vmap`), not once per slice with NumPy arrays: a "
                        "function that converts to Python values or has side effects raises or runs differently",
    "vectorize": "calls the function with tracers (`vmap`), not once per element with Python scalars: a function "
                 "that branches on its argument or converts it raises",
    "piecewise": "calls every function on the whole input, with tracers, not on the selected elements only",
    "polyfit": "raises `ValueError` for an integer `x` (`np.arange(n)`), which NumPy converts to float",
    # XLA on CPU flushes subnormal floats to zero (`jnp.asarray(5e-324) > 0` is False), eagerly and under `jit`
    "nextafter": "gives a subnormal next to 0 (`nextafter(0.0, 1.0)`, 5e-324) that XLA on CPU flushes to zero: it "
                 "compares equal to 0, so a shift by one ulp near zero is lost (a `searchsorted` on shifted points "
                 "then finds another index)",
    "spacing": "gives a subnormal spacing near 0 (`spacing(0.0)`, 5e-324) that XLA on CPU flushes to zero: a step "
               "or tolerance of one ulp there is 0",
    "frexp": "splits a subnormal input as XLA on CPU flushes it: `frexp(1e-310)` gives mantissa 0.5 and exponent "
             "-1074 (NumPy 0.576 and -1029), so exponents compared to tell magnitudes apart are wrong",
    "ldexp": "gives a subnormal for an exponent below the normal range (`ldexp(1.0, -1070)`, 8e-323) that XLA on "
             "CPU flushes to zero",
    # `np.asanyarray` has no namesake: JX501 offers `jnp.asarray` (JAX arrays have no subclasses), which differs for
    # the subclasses `asanyarray` exists to keep (acoustics' decibel sums take masked arrays)
    "asanyarray": "keeps no array subclass, which `np.asanyarray` exists for: given a masked array it raises "
                  "`ValueError` (NumPy keeps the mask), and a `np.matrix` becomes a plain array (`*` then multiplies "
                  "elementwise)",
}


# namesakes whose results near 0 are subnormal, which XLA flushes to zero (`ldexp` of a low exponent), or that read
# subnormal inputs, which XLA sees flushed (`frexp` of one, SciPy's toms748 comparing exponents): whatever
# `jax.numpy` call the value meets next flushes it too (a NumPy `nextafter` result handed to `jnp.searchsorted`), so
# the function stays NumPy as a whole unless the unsafe fix is taken
SUBNORMAL = {"nextafter", "spacing", "frexp", "ldexp"}


# keywords `jax.numpy`'s namesake takes as static (hashable) values: an array there raises `ValueError`
STATIC_KEYWORDS = {"pad": ("end_values", "stat_length")}


def static_keyword(node: cst.Call, short: str) -> Optional[str]:
    """How the namesake differs when a keyword it takes as a static value is given something other than numbers
    (`np.pad(x, w, "linear_ramp", end_values=(lo, hi))`: colour's KernelInterpolator), else None."""
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value in STATIC_KEYWORDS.get(short, ()) and not _numbers(arg.value):
            return (f"takes `{arg.keyword.value}` as a static value, hashed when the call is traced: an array there "
                    "(`np.min(x)`, any computed value) raises `ValueError: Non-hashable static arguments`")
    return None


def _numbers(value: cst.BaseExpression) -> bool:
    """A number literal, or a tuple or list of them (nested)."""
    if isinstance(value, cst.UnaryOperation):
        value = value.expression
    if isinstance(value, (cst.Tuple, cst.List)):
        return all(_numbers(e.value) for e in value.elements)
    return isinstance(value, (cst.Integer, cst.Float))


# functions that take no array, only sizes: their results carry no units either way
UNITLESS = {"zeros", "ones", "empty", "eye", "identity", "tri", "indices"}


def units_library(module: cst.Module) -> Optional[str]:
    """The unit library the module imports at top level (`import astropy.units as u`, `from astropy import units`,
    `from astropy.units import Quantity`, `import pint`), else None."""
    return top_level_import(module, UNIT_LIBRARIES)


def units_difference(short: str, units: Optional[str]) -> Optional[str]:
    """How `jnp.<short>` differs from `np.<short>` in a module that uses the unit library `units` (`units_library`;
    None: it uses none): it drops a quantity's units, which NumPy keeps, so JX501 renames the call only as an unsafe
    fix; None for the functions that take only sizes (`UNITLESS`)."""
    if units is None or short in UNITLESS:
        return None
    return (f"ignores NumPy's `__array_ufunc__`, and this module uses `{units}`: given a quantity, NumPy keeps its "
            "units, the JAX function silently drops them (a result off by the unit's scale)")


def droppable(short: str) -> Optional[str]:
    """The keyword a `jax.numpy` namesake rejects and the rename may drop: `order=` of creation functions (a memory
    layout), `kind=` of sorts (an algorithm)."""
    if short in LAYOUT_ONLY_ORDER:
        return "order"
    return "kind" if short in ("sort", "argsort") else None


# keywords of array methods that only NumPy's take and that change no value of a JAX array, which has no memory
# layout, no subclass and no aliasing: {method: keywords}. `order=` of `.astype`/`.copy` is a layout; `subok=` keeps
# a subclass; `copy=` of `.reshape` (NumPy 2.1) asks for a copy or a view, which an immutable array cannot tell
# apart (`copy=False` makes NumPy raise where the reshape needs a copy; JAX never does)
_DROPPED_METHOD_KEYWORDS = {"copy": ("order",), "astype": ("order", "subok"), "reshape": ("copy",)}
# methods of a JAX array that give a JAX array
_ARRAY_METHODS = frozenset({"reshape", "astype", "copy", "ravel", "flatten", "transpose", "squeeze", "swapaxes", "T",
                            "real", "imag", "conj", "conjugate", "sum", "mean", "cumsum", "cumprod", "clip", "round"})
_AT_METHODS = frozenset({"set", "add", "subtract", "multiply", "divide", "power", "min", "max", "apply", "get"})
# `jax.numpy` functions whose `order=` orders the values (not a layout), with the position NumPy also takes it at:
# they take only "C" and "F", in upper case, where NumPy takes either case (`np.reshape(y, s, order="f")`: pysal's
# mapclassify); and the array methods likewise (`None`: by keyword only)
VALUE_ORDER = {"reshape": 2, "ravel": 1, "ravel_multi_index": 2}
_METHOD_ORDER = {"reshape": None, "ravel": 0, "flatten": 0}


def order_argument(node: cst.Call, position: Optional[int]) -> Optional[cst.Arg]:
    """The argument giving `order` to `node`: by keyword, or as positional argument `position`."""
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == "order":
            return arg
    given = [a for a in node.args if a.keyword is None]
    if position is None or any(a.star for a in given) or len(given) <= position:
        return None
    return given[position]


def upper_order(node: cst.Call, position: Optional[int]) -> Optional[list[cst.Arg]]:
    """`node`'s arguments with a lower-case literal `order` ("c", "f") in upper case, which means the same to NumPy
    and is all `jax.numpy` accepts; None when `node` has no such argument."""
    arg = order_argument(node, position)
    value = arg.value if arg is not None else None
    if not (isinstance(value, cst.SimpleString) and value.evaluated_value in ("c", "f")):
        return None
    upper = value.with_changes(value=value.prefix + value.quote + value.evaluated_value.upper() + value.quote)
    return [a.with_changes(value=upper) if a is arg else a for a in node.args]


def method_order(rule: Rule, node: cst.Call) -> None:
    """`a.reshape(s, order="f")`, `a.ravel("c")` on a traced array or one `jax.numpy` made (`jax_made`): a JAX
    array's method takes only "C" and "F" (`ValueError` on "f"); the lower-case literal is put in upper case, the
    same order to NumPy. (Another order keeps the array NumPy: `_buffers.numpy_only_keyword`.)"""
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in _METHOD_ORDER):
        return
    args = upper_order(node, _METHOD_ORDER[func.attr.value])
    if args is None or any(a.star for a in node.args):
        return
    if not jax_made(rule, func.value) and tracedness(rule, func.value) is not Tracedness.TRACED:
        return
    rule.report(node, f"`{rule.code(node)}`: a JAX array's `.{func.attr.value}` takes the order only in upper case "
                "(`ValueError` on lower case, which NumPy also takes); write it in upper case",
                replacement=node.with_changes(args=args), title="write the order in upper case")


# the array methods that accumulate, with the position of their `dtype` parameter (`a.cumsum(axis, dtype, out)`)
_ACCUMULATING_METHODS = {"cumsum": 1, "cumprod": 1}


def method_accumulator(rule: Rule, node: cst.Call) -> None:
    """`a.cumsum()`, `a.cumprod(axis=0)` of an array known to be a narrow integer one (`np.full(n, 200,
    dtype=np.uint8)`), without a dtype: NumPy accumulates in the platform integer, a JAX array's method in the
    array's own dtype, where the running values wrap (uint8: 200, 144, 88). Given NumPy's accumulator (`dtype=int`,
    `dtype=jnp.uint` for an unsigned one, as `accumulator` gives the function form), the same values either way."""
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in _ACCUMULATING_METHODS) or rule.current_function is None:
        return
    positional = [a for a in node.args if a.keyword is None]
    if any(a.star for a in node.args) or any(a.keyword.value == "dtype" for a in node.args if a.keyword is not None) \
            or len(positional) > _ACCUMULATING_METHODS[func.attr.value]:
        return
    dtype = dtype_of(function_facts(rule, rule.current_function), func.value)
    if not dtype.exact or dtype.name not in _NARROW_SIGNED | _NARROW_UNSIGNED:
        return
    accumulator = f"{rule.jnp}.uint" if dtype.name in _NARROW_UNSIGNED else "int"
    added = cst.Arg(cst.parse_expression(accumulator), keyword=cst.Name("dtype"),
                    equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
    rule.report(node, f"`{rule.code(node)}` of a `{dtype.name}` array: NumPy accumulates it in the platform integer, a "
                f"JAX array's `.{func.attr.value}` in `{dtype.name}`, where the running values wrap; give NumPy's "
                f"accumulator (`dtype={accumulator}`)",
                replacement=with_dtype(node, accumulator) if node.args else node.with_changes(args=[added]),
                title=f"add `dtype={accumulator}`", imports=("jnp",) if "jnp" in accumulator else ())


def layout_keyword(rule: Rule, node: cst.Call) -> None:
    """`a.copy(order='C')`, `a.astype(t, order='F')`, `a.reshape(s, copy=False)` on a traced array, or on one that
    `jax.numpy` made (`psd = jnp.zeros(n)`, after JX501 renamed `np.zeros`; `.at[...]` updates, arithmetic, items
    and methods of one: `jax_made`): the keyword only chooses a memory layout, a subclass or a copy, which JAX arrays
    do not have (their methods reject it: `TypeError`); dropped. `copy=True` of a traced value that may be a NumPy
    array given by a caller is a copy its later writes need: dropped only as an unsafe fix."""
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in _DROPPED_METHOD_KEYWORDS):
        return
    names = _DROPPED_METHOD_KEYWORDS[func.attr.value]
    dropped = [a for a in node.args if a.keyword is not None and a.keyword.value in names]
    if not dropped or any(a.star for a in node.args):
        return
    made = jax_made(rule, func.value)
    if not made and tracedness(rule, func.value) is not Tracedness.TRACED:
        return
    copies = [a for a in dropped if a.keyword.value == "copy"
              and not (isinstance(a.value, cst.Name) and a.value.value in ("False", "None"))]
    kept = [a for a in node.args if a not in dropped]
    if kept:
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    chooses = {"order": "a memory layout", "subok": "an array subclass", "copy": "a copy or a view"}
    what = " and ".join(f"`{a.keyword.value}=` chooses {chooses[a.keyword.value]}" for a in dropped)
    message = (f"`{rule.code(node)}`: {what}, which JAX arrays do not have (their `.{func.attr.value}` rejects it: "
               "`TypeError`); drop it")
    unsafe = bool(copies) and not made
    if unsafe:
        message += (f"; unsafe: `{rule.code(func.value)}` may be a NumPy array a caller passes, which the copy keeps "
                    "apart from the result")
    rule.report(node, message, replacement=node.with_changes(args=kept), unsafe=unsafe,
                title="drop " + ", ".join(f"`{rule.code(a).strip().rstrip(',')}`" for a in dropped))


def jax_made(rule: Rule, node: cst.BaseExpression, seen: frozenset = frozenset()) -> bool:
    """Whether `node` is certainly a JAX array: a `jax.numpy` call, an `.at[...]` update, an item, a method or
    arithmetic of one, or a local name every definition reaching it binds to one (`psd = jnp.zeros(n)`, then
    `psd = psd.at[i].set(v)` in a loop)."""
    if isinstance(node, cst.Call):
        func = node.func
        if not isinstance(func, cst.Attribute):
            return False
        dotted = dotted_name(func)
        if dotted.startswith((f"{rule.jnp}.", "jax.numpy.")) and rule.context.imports.jnp_alias is not None:
            return True
        if func.attr.value in _AT_METHODS and isinstance(func.value, cst.Subscript) \
                and isinstance(func.value.value, cst.Attribute) and func.value.value.attr.value == "at":
            return jax_made(rule, func.value.value.value, seen)
        return func.attr.value in _ARRAY_METHODS and jax_made(rule, func.value, seen)
    if isinstance(node, cst.Attribute):
        return node.attr.value in ("T", "real", "imag") and jax_made(rule, node.value, seen)
    if isinstance(node, cst.Subscript):
        return jax_made(rule, node.value, seen)
    if isinstance(node, cst.UnaryOperation):
        return jax_made(rule, node.expression, seen)
    if isinstance(node, cst.BinaryOperation):  # a JAX array's `__array_priority__` wins over NumPy's operand too
        return not isinstance(node.operator, cst.MatrixMultiply) and (
            jax_made(rule, node.left, seen) or jax_made(rule, node.right, seen))
    if not isinstance(node, cst.Name) or rule.current_function is None:
        return False
    from codemods._list_inputs import reaching_values  # (`_list_inputs` imports `_buffers`, which imports this module)
    values = reaching_values(rule, node.value, node)
    if not values or any(v is None for v in values):
        return False
    seen_now = seen | set(values)  # a definition met again (`psd = psd.at[i].set(v)` in a loop) adds nothing
    return all(v in seen or jax_made(rule, v, seen_now) for v in values)


# NumPy's rounding to decimal places and its `jax.numpy` namesakes (`decimal_round`)
ROUNDING = frozenset({"round", "around", "round_"})


def decimal_round(node: cst.Call, short: str) -> Optional[str]:
    """Why `jnp.round(x, decimals)` differs from NumPy's when `decimals` is given and not a literal 0 (by position or
    keyword), else None: JAX scales by a power of ten another way, so about one value in eight comes out one ulp
    away from NumPy's (`jnp.round(2.1468, 3)` is 2.1470000000000002, NumPy's 2.147), which a printed report, an
    equality test or a lookup by the rounded value sees (scikit-posthocs' GESD report)."""
    if short not in ROUNDING:
        return None
    given = [a.value for a in node.args if a.keyword is not None and a.keyword.value == "decimals"]
    positional = [a.value for a in node.args if a.keyword is None and not a.star]
    given += positional[1:2]
    if not given or isinstance(given[0], cst.Integer) and given[0].evaluated_value == 0:
        return None
    return ("rounds to decimal places one ulp away from NumPy for about one value in eight (`jnp.round(2.1468, 3)` "
            "is 2.1470000000000002, NumPy's 2.147): a printed, compared or looked-up result changes")


def _used_so(rule: Rule, node: cst.Call, used: Callable[[Rule, cst.BaseExpression], bool]) -> bool:
    """Whether the value of `node` is `used` so where it stands, or through the local name it is assigned to (a
    use of that binding, `function_flow`)."""
    if used(rule, node):
        return True
    parent = rule.get_metadata(ParentProvider, node, None)
    function = rule.current_function
    if function is None or not isinstance(parent, cst.Assign) or len(parent.targets) != 1 \
            or not isinstance(parent.targets[0].target, cst.Name):
        return False
    flow = function_flow(rule, function)
    return flow.knows(parent) and any(used(rule, use) for use in flow.uses(parent, parent.targets[0].target.value))


def builtin_round(rule: Rule, node: cst.Call) -> Optional[str]:
    """Why a namesake's result differs where the builtin `round(v, ndigits)` rounds it to decimals (`ndigits` given
    and not a literal 0), directly or through arithmetic (`round(np.mean(x) * 100, 2)`) or the local name it is
    assigned to (`m = np.mean(x)`, then `round(m, 3)`), else None: a JAX array's `__round__` is `jnp.round`, one ulp
    away from NumPy's for about one value in eight (`decimal_round`; zeus' logged `round(np.mean(self.act), 2)`). So
    do a JAX array's `.round(n)` and `np.round(v, n)` of one (NumPy calls the method): `np.round(np.mean(x), 2)` left
    NumPy under safe fixes rounds `jnp.mean(x)` with `jnp.round`."""
    if not _used_so(rule, node, _rounded):
        return None
    return ("gives a JAX array, which rounding to decimals here (the builtin `round(..., ndigits)`, its `.round(n)`, "
            "or `np.round(..., n)`, which calls that method) does with `jnp.round`: one ulp away from NumPy for about "
            "one value in eight (`round(jnp.float64(2.1468), 3)` is 2.1470000000000002, NumPy's 2.147)")


def _rounded(rule: Rule, node: cst.BaseExpression) -> bool:
    """Whether the value of `node` is the first argument of the builtin `round` given digits other than a literal 0,
    where it stands or through arithmetic (see `builtin_round`)."""
    parent = rule.get_metadata(ParentProvider, node, None)
    while isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)):
        node, parent = parent, rule.get_metadata(ParentProvider, parent, None)
    if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in ROUNDING:
        # `np.mean(x).round(3)`: a JAX array's method is `jnp.round`
        call = rule.get_metadata(ParentProvider, parent, None)
        return isinstance(call, cst.Call) and call.func is parent and _decimals(call.args, "decimals")
    if not (isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star):
        return False
    call = rule.get_metadata(ParentProvider, parent, None)
    if not (isinstance(call, cst.Call) and call.args and call.args[0] is parent):
        return False
    if isinstance(call.func, cst.Name) and call.func.value == "round":
        return _decimals(call.args[1:], "ndigits")
    # `np.round(np.mean(x), 2)` left NumPy (its own rename is unsafe): NumPy hands a JAX array to its `.round`
    named = numpy_name(rule, call.func)
    return named is not None and named.rsplit(".", 1)[-1] in ROUNDING and _decimals(call.args[1:], "decimals")


def _decimals(args: Sequence[cst.Arg], keyword: str) -> bool:
    """Whether `args` (after the value rounded) give a number of decimals other than a literal 0."""
    digits = [a.value for a in args if (a.keyword is None and not a.star) or a.keyword is not None and a.keyword.value == keyword]
    return bool(digits) and not (isinstance(digits[0], cst.Integer) and digits[0].evaluated_value == 0)


def truncated_log2(rule: Rule, node: cst.Call) -> Optional[str]:
    """Why `jnp.log2` differs where its result is truncated (`int(np.log2(n))`, `np.floor(...)`, `//`, `% 1`,
    `.is_integer()`, a comparison), directly or through the local name it is assigned to (`k = np.log2(m)`, then
    `if k != int(k)`: commpy's PSK modem), else None: `jnp.log2(8.0)` is 2.9999999999999996 in float64 (pylops'
    seislet levels)."""
    if not _used_so(rule, node, _truncated):
        return None
    return ("is not exact at powers of two in float64 (`jnp.log2(8.0)` is 2.9999999999999996, NumPy's 3.0), and "
            "this result is truncated or compared, where that changes the answer")


def _truncated(rule: Rule, node: cst.BaseExpression) -> bool:
    """Whether the value of `node` is truncated or compared where it stands (see `truncated_log2`)."""
    parent = rule.get_metadata(ParentProvider, node, None)
    while isinstance(parent, cst.BinaryOperation) and not isinstance(parent.operator, (cst.FloorDivide, cst.Modulo)):
        parent = rule.get_metadata(ParentProvider, parent, None)  # `np.floor(np.log2(n) + 1)`
    if isinstance(parent, cst.Attribute) and parent.attr.value == "is_integer":
        return True
    if isinstance(parent, cst.Arg):
        parent = rule.get_metadata(ParentProvider, parent, None)
    name = None
    if isinstance(parent, cst.Call):
        func = parent.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    return name in ("int", "floor", "ceil", "round", "trunc", "rint", "fix") or isinstance(parent, cst.Comparison) \
        or isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, (cst.FloorDivide, cst.Modulo))


# `jax.numpy` namesakes that give a float array for integer (or bool) inputs where NumPy keeps integers
# (`jnp.convolve([1, 0, 1], [1, 1])` is `[1., 1., 1., 1.]`), by the positions of their array inputs; measured on
# the installed JAX (`polymul` and `polyder` convolve; `np.reciprocal` of an integer is an integer)
INTEGER_TO_FLOAT = {"convolve": (0, 1), "correlate": (0, 1), "polymul": (0, 1), "polyder": (0,), "reciprocal": (0,)}


def integer_inputs(rule: Rule, node: cst.Call, short: str) -> Optional[str]:
    """Why the namesake of `short` (in `INTEGER_TO_FLOAT`) differs for the call `node`, unless an input is known to
    be inexact (`jaxfix.analysis.value_dtypes`: then NumPy's result is a float array too), else None."""
    positions = INTEGER_TO_FLOAT.get(short)
    function = rule.current_function
    if positions is None:
        return None
    inputs = [a.value for i, a in enumerate(node.args) if a.keyword is None and not a.star and i in positions]
    if function is not None and len(inputs) == len(positions):
        facts = function_facts(rule, function)
        if any(dtype_of(facts, value).kind >= FLOAT for value in inputs):
            return None
    return (f"gives a float array for integer inputs, where NumPy keeps integers (`{short}` of int arrays): "
            "bitwise operations (`& 1`), indexing with the result and its text then differ or raise")


def float_counts(node: cst.Call, short: str) -> Optional[str]:
    """Why `jnp.histogram` differs for the call `node`: its counts are floats where NumPy's are integers (measured
    on the installed JAX; `histogram2d` and `histogramdd` count in integers), unless the call asks for a density or
    gives weights (NumPy's counts are then of their kind too); else None."""
    if short != "histogram" or any(a.star for a in node.args):
        return None
    given = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    positional = [a for a in node.args if a.keyword is None]
    density = given.get("density", positional[4].value if len(positional) > 4 else None)
    if "weights" in given or len(positional) > 3 or density is not None and not (
            isinstance(density, cst.Name) and density.value in ("False", "None")):
        return None
    return ("gives the counts as floats, where NumPy's are integers (`3.0` for `3`): their text differs, and indexing "
            "with them, `range(count)` or bitwise operations raise")


def complex_power(rule: Rule, node: cst.Call) -> Optional[str]:
    """Why the JAX namesake of `node` differs where its result is the exponent of a complex number (`(1j) **
    np.arange(n)`, python-control's `_poly_iw_real_crossing`): NumPy raises a complex base to integer powers exactly,
    JAX computes every complex power as `exp(k * log(z))`; else None."""
    parent = rule.get_metadata(ParentProvider, node, None)
    if not (isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Power) and parent.right is node):
        return None
    if not walk.nodes_of(parent.left, cst.Imaginary) \
            and dotted_name(parent.left.func if isinstance(parent.left, cst.Call) else parent.left) != "complex":
        return None
    return ("raises the complex base to the powers as `exp(k * log(z))`, inexactly (`(1j) ** 3` is `-1.8e-16-1j`), "
            "where NumPy multiplies out integer powers exactly (`-1j`): a part that is exactly 0 then is not, which "
            "`np.isreal`, comparisons with zero and root finding see")


# cumulative reductions whose `jax.numpy` namesake keeps a narrow integer dtype, where NumPy accumulates in the
# platform integer (`np.cumsum` of uint8 is uint64, `jnp.cumsum` uint8: 200 + 200 wraps to 144); measured on the
# installed JAX (`jnp.sum`, `jnp.prod` and `jnp.cumulative_sum` promote as NumPy does, and bool accumulates in int)
ACCUMULATIONS = {"cumsum": 2, "cumprod": 2, "nancumsum": 2, "nancumprod": 2, "cumulative_prod": None}
_NARROW_SIGNED = frozenset({"int8", "int16", "int32"})
_NARROW_UNSIGNED = frozenset({"uint8", "uint16", "uint32"})


def accumulator(rule: Rule, node: cst.Call, short: str) -> Optional[str]:
    """The `dtype=` that makes `jnp.<short>` accumulate as NumPy does (`int`, `jnp.uint`: NumPy's platform integers,
    which are JAX's default ones without x64) for the call `node` of a cumulative reduction (`ACCUMULATIONS`, by the
    position of its `dtype` parameter) whose operand is known to be a narrow integer array (`np.full(n, 200,
    dtype=np.uint8)`); None when it gives a dtype, or its operand's is not known to be one."""
    if short not in ACCUMULATIONS or rule.current_function is None or any(a.star for a in node.args):
        return None
    positional = [a.value for a in node.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    at = ACCUMULATIONS[short]
    operand = positional[0] if positional else keywords.get("a", keywords.get("x"))
    if operand is None or "dtype" in keywords or at is not None and len(positional) > at:
        return None
    dtype = dtype_of(function_facts(rule, rule.current_function), operand)
    if not dtype.exact or dtype.name not in _NARROW_SIGNED | _NARROW_UNSIGNED:
        return None
    return f"{rule.jnp}.uint" if dtype.name in _NARROW_UNSIGNED else "int"


def vander_operand(rule: Rule, node: cst.Call, short: str) -> Optional[cst.BaseExpression]:
    """The operand of `np.vander(x, ...)` when it is known to be a bool or integer array narrower than 64 bits,
    whose powers NumPy computes in int64 (`promote_types(x.dtype, int)`) and `jnp.vander` in its own dtype (3 ** 2 of
    uint8 is fine, 200 ** 2 wraps to 64; bool raises); else None."""
    if short != "vander" or rule.current_function is None or not node.args or node.args[0].keyword is not None \
            or node.args[0].star:
        return None
    operand = node.args[0].value
    dtype = dtype_of(function_facts(rule, rule.current_function), operand)
    return operand if dtype.exact and dtype.name in _NARROW_SIGNED | _NARROW_UNSIGNED | {"bool"} else None


# functions that search a sorted array for queries: {name: (the array's position and keyword, the queries')}
SEARCHES = {"searchsorted": ((0, "a"), (1, "v")), "digitize": ((1, "bins"), (0, "x"))}


def cast_query(rule: Rule, node: cst.Call, short: str) -> Optional[str]:
    """Why `jnp.searchsorted(a, v)` (or `jnp.digitize(v, a)`) differs for the call `node`: where `a` is known to be
    a bool or integer array other than int64, JAX casts a Python number `v` (or one of unknown dtype) to `a`'s dtype
    before comparing, where NumPy compares in a common dtype: 300 against uint8 levels is 44, -1 is 255 (another
    index); else None. A number literal in the dtype's range, and a query of a known array dtype (promoted as NumPy
    does), are safe."""
    if short not in SEARCHES or rule.current_function is None or any(a.star for a in node.args):
        return None
    positional = [a.value for a in node.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    (at, name), (query_at, query_name) = SEARCHES[short]
    array = positional[at] if len(positional) > at else keywords.get(name)
    query = positional[query_at] if len(positional) > query_at else keywords.get(query_name)
    if array is None or query is None:
        return None
    facts = function_facts(rule, rule.current_function)
    sorted_dtype = dtype_of(facts, array)
    if not (sorted_dtype.exact and sorted_dtype.name and sorted_dtype.name != "int64"
            and np.dtype(sorted_dtype.name).kind in "biu"):
        return None
    given = dtype_of(facts, query)
    if given.exact and (not given.weak or given.kind > sorted_dtype.kind):
        return None  # an array of a known dtype, or a float against integers: promoted, as NumPy does
    literal = query.expression if isinstance(query, cst.UnaryOperation) and isinstance(query.operator, cst.Minus) else query
    if isinstance(literal, cst.Integer) and sorted_dtype.kind > BOOL:
        value = -int(literal.evaluated_value) if literal is not query else int(literal.evaluated_value)
        info = np.iinfo(sorted_dtype.name)
        if info.min <= value <= info.max:
            return None
    return (f"casts the query to the sorted array's dtype (`{sorted_dtype.name}`) before comparing, where NumPy "
            f"compares in a common dtype: a Python number out of its range wraps (300 against uint8 levels is 44, "
            "-1 is 255), which gives another index")


# the attributes of `np.finfo(...)` (and `sys.float_info`) at the bottom of the float range: products and quotients
# of them are subnormal, which XLA on CPU flushes to zero
_TINY_ATTRIBUTES = frozenset({"tiny", "smallest_normal", "smallest_subnormal"})


_LOGS = frozenset({"log", "log2", "log10", "log1p"})
_CLAMPS = frozenset({"maximum", "fmax", "clip"})


def _tiny_atom(node: cst.CSTNode) -> bool:
    """`np.finfo(...).tiny` (`.smallest_normal`, `.smallest_subnormal`), `sys.float_info.min`, `math.ulp(0.0)`, a
    float literal under 1e-300: the node itself, not what it holds."""
    if isinstance(node, cst.Attribute):
        if node.attr.value in _TINY_ATTRIBUTES and isinstance(node.value, cst.Call) \
                and dotted_name(node.value.func).split(".")[-1] == "finfo":
            return True
        return node.attr.value == "min" and dotted_name(node.value).endswith("float_info")
    if isinstance(node, cst.Float):
        return 0.0 < abs(float(node.value.replace("_", ""))) < 1e-300
    if isinstance(node, cst.Call) and dotted_name(node.func).split(".")[-1] == "ulp" and node.args:
        arg = node.args[0].value
        return isinstance(arg, (cst.Float, cst.Integer)) and float(arg.value.replace("_", "")) == 0.0
    return False


def _tiny(node: cst.CSTNode) -> bool:
    """Whether `node` holds a `_tiny_atom`."""
    return any(isinstance(n, (cst.Attribute, cst.Float, cst.Call)) and _tiny_atom(n) for n in walk.nodes(node))


def near_subnormal(rule: Rule) -> Optional[str]:
    """Why the current function's renames differ when it computes with numbers at the bottom of the float range:
    its arithmetic has `np.finfo(float).tiny` (or `smallest_subnormal`, `sys.float_info.min`, a literal under
    1e-300) for an operand, itself or through a module constant (not a clamp such as `np.maximum(p, tiny)`) (pysal's inequality: `SMALL = numpy.finfo("float").tiny`, then `y + SMALL * (y ==
    0)` and `numpy.log(n * s)`); else None. Such values divided or multiplied become subnormal, which XLA on CPU
    flushes to zero: `jnp.log(1e-309)` is -inf where NumPy gives -711.5, and a Theil index becomes NaN."""
    function = rule.current_function
    if function is None:
        return None
    cache = rule.context.__dict__.setdefault("_near_subnormal", {})
    if function in cache:
        return cache[function]
    constants = rule.context.__dict__.get("_tiny_constants")
    if constants is None:
        constants = rule.context.__dict__["_tiny_constants"] = frozenset(
            t.target.value for statement in rule.context.module.body if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body if isinstance(small, cst.Assign) and _tiny(small.value)
            for t in small.targets if isinstance(t.target, cst.Name))
    # tiny values bound in the function too (`small = np.finfo(y.dtype).tiny`); any use counts (`y + SMALL * (y ==
    # 0)`, then `y / y.sum()`; `p = np.maximum(p, TINY)`, then `p / p.sum()`) but a clamp read only by a log
    # (`np.log(np.maximum(p, TINY))`), whose result is a normal number
    names = set(constants) | {t.target.value for a in walk.nodes_of(function.body, cst.Assign) if _tiny(a.value)  # type: ignore[attr-defined]
                              for t in a.targets if isinstance(t.target, cst.Name)}  # type: ignore[attr-defined]
    exempt: set[int] = set()
    for call in walk.nodes_of(function.body, cst.Call):
        if dotted_name(call.func).split(".")[-1] in _LOGS and call.args:  # type: ignore[attr-defined]
            clamp = call.args[0].value  # type: ignore[attr-defined]
            if isinstance(clamp, cst.Call) and dotted_name(clamp.func).split(".")[-1] in _CLAMPS:
                exempt.update(id(n) for n in walk.walk(clamp))
    read = any(id(n) not in exempt for n in walk.nodes(function.body)
               if isinstance(n, cst.Name) and n.value in names
               or isinstance(n, (cst.Attribute, cst.Float, cst.Call)) and _tiny_atom(n))
    why = ("works with numbers at the bottom of the float range (`finfo(...).tiny`), whose products and quotients "
           "are subnormal: XLA on CPU flushes those to zero, so a log or a division of them gives -inf or NaN where "
           "NumPy gives a finite value") if read else None
    cache[function] = why
    return why


def forwarded(rule: Rule, node: cst.Call, before_out: Optional[int]) -> Optional[str]:
    """Why the rename differs for the call `node` that forwards a parameter's `**kwargs` (any `**` but a dict
    display, or a name bound only to dict displays here), or a `*args` parameter past the inputs, where it reaches
    the function's positional `out` (`before_out`: the positional arguments before it), else None: they may carry `out=`,
    `where=`, `casting=` or `order=`, which `jax.numpy` rejects or cannot honour (SciPy's `softplus(x, **kwargs)`)."""
    function = rule.current_function
    if function is None:
        return None
    facts = function_facts(rule, function)
    index = 0
    for arg in node.args:
        if arg.star == "**" and not _dict_made(facts, arg.value):
            return (f"is given `**{rule.code(arg.value)}`, which may carry keywords NumPy's function takes and this one "
                    "rejects or cannot honour (`out=`, `where=`, `casting=`, `order=`, `subok=`): it raises "
                    "where NumPy wrote into a caller's array")
        if arg.star == "*" and before_out is not None and isinstance(arg.value, cst.Name) \
                and _vararg(function, arg.value.value) and index >= before_out:
            return (f"is given `*{arg.value.value}`, which may carry an output array past the call's inputs "
                    "(NumPy's positional `out`), which this one rejects")
        if not arg.star and arg.keyword is None:
            index += 1
    return None


def _vararg(function: cst.FunctionDef, name: str) -> bool:
    star = function.params.star_arg
    return isinstance(star, cst.Param) and star.name.value == name


def _dict_made(facts: FunctionFacts, value: cst.BaseExpression) -> bool:
    """A dict display (`**{"axis": 0}`), or a local name bound only to dict displays and `dict(k=v)` calls."""
    if isinstance(value, cst.Dict):
        return True
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "dict" \
            and all(a.keyword is not None for a in value.args):
        return True
    if not isinstance(value, cst.Name) or value.value in facts.params:
        return False
    bound = facts.bindings.get(value.value, [])
    return bool(bound) and all(v is not None and not isinstance(v, cst.Name) and _dict_made(facts, v) for v in bound)


@functools.lru_cache(maxsize=None)
def out_position(short: str) -> Optional[int]:
    """The index of `out` among the positional parameters of the NumPy function `short` (`clip`: 3, `dot`: 2), read
    from its signature; None when it has none or takes it by keyword only (`einsum(*operands, out=None)`)."""
    try:
        params = list(inspect.signature(getattr(np, short)).parameters.values())
    except (AttributeError, TypeError, ValueError):
        return None
    for index, param in enumerate(params):
        if param.kind not in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
            return None
        if param.name == "out":
            return index
    return None


# namesakes whose signature carries no annotations, with their array-only parameters (positions, names): `jnp.where`
# rejects None and text as its condition or either branch, where NumPy takes None as False or makes an object or
# string array of it (chaospy's `np.where(growth, ...)` with `growth=None`)
_UNANNOTATED = {
    "where": ((0, 1, 2), frozenset()),
    "isneginf": ((0,), frozenset({"x"})),
    "isposinf": ((0,), frozenset({"x"})),
}


@functools.lru_cache(maxsize=None)
def array_parameters(short: str, or_none: bool = True) -> tuple[tuple[int, ...], frozenset[str]]:
    """The positions and names of the parameters of the `jax.numpy` namesake of `short` (`array_equal`,
    `linalg.norm`) typed as arrays only (`ArrayLike`, no `str`; with `or_none` False, no `None` either), read from
    its signature: text given there raises `TypeError` in JAX, where NumPy makes a string array of it
    (`np.array_equal(w, "D65")` is False), and so does None where the type does not admit it."""
    import jax.numpy as jnp

    if short in _UNANNOTATED:
        return _UNANNOTATED[short]
    target: object = jnp
    for part in short.split("."):
        target = getattr(target, part, None)
    try:
        params = list(inspect.signature(target).parameters.values())  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return (), frozenset()
    positions, names = [], set()
    for index, param in enumerate(params):
        annotation = param.annotation if isinstance(param.annotation, str) else ""
        if "ArrayLike" in annotation and "str" not in annotation and (or_none or "None" not in annotation):
            names.add(param.name)
            if param.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
                positions.append(index)
    return tuple(positions), frozenset(names)


def text_argument(node: cst.Call, short: str) -> Optional[cst.BaseExpression]:
    """A string literal `node` gives where the namesake of `short` takes an array only (`array_parameters`)."""
    positions, names = array_parameters(short)
    if not names:
        return None
    for index, arg in enumerate(node.args):
        if arg.star:
            break
        if isinstance(arg.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)) and (
                arg.keyword.value in names if arg.keyword is not None else index in positions):
            return arg.value
    return None


# the makers whose value argument a Python number may be (its position, its keyword) and where `dtype` goes
_FROM_VALUE = {"array": (0, "object", 1), "asarray": (0, "a", 1), "full": (1, "fill_value", 2)}
_LITERAL_DTYPES = ((cst.Integer, "int"), (cst.Float, "float"), (cst.Imaginary, "complex"))
LITERAL_TYPES = frozenset(name for _, name in _LITERAL_DTYPES)


@functools.lru_cache(maxsize=8)
def bound_names(tree: Optional[ast.Module], names: frozenset[str]) -> frozenset[str]:
    """Those of `names` the module binds anywhere (a parameter `complex=False`, an assignment, an import, a def):
    there the builtin `complex` cannot be written as a dtype. All of them when the `ast` tree is not known."""
    if tree is None:
        return names
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
    return frozenset(bound & names)


def strong_literal(node: cst.Call, short: str) -> Optional[str]:
    """The Python type to pass as `dtype=` when `np.array(3)`, `np.asarray(-0.5)` or `np.full(shape, 2)` makes an
    array of a number literal without a dtype, else None. NumPy's array is of its default dtype (int64, float64)
    and promotes as one; `jax.numpy`'s is weakly typed, taking the other operand's width: an int16 array divided by
    `jnp.asarray(3)` is float32 where NumPy gives float64, and int16 times `jnp.full(n, 200)` wraps where NumPy's
    int64 does not (acoustics' band numbers). `dtype=int` makes JAX's array strongly typed, of its default width."""
    spec = _FROM_VALUE.get(short)
    if spec is None:
        return None
    position, keyword, dtype_position = spec
    positional = [a for a in node.args if a.keyword is None]
    if any(a.star for a in node.args) or len(positional) > dtype_position:
        return None  # a dtype given by position, or arguments not seen
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    if "dtype" in keywords:
        return None
    value = positional[position].value if len(positional) > position else keywords.get(keyword)
    while isinstance(value, cst.UnaryOperation) and isinstance(value.operator, (cst.Minus, cst.Plus)):
        value = value.expression
    return next((name for kind, name in _LITERAL_DTYPES if isinstance(value, kind)), None)


def with_dtype(node: cst.Call, dtype: str) -> cst.Call:
    """`node` with `dtype=<dtype>` after its arguments (a trailing comma stays last)."""
    *args, last = node.args
    trailing = last.comma  # `np.full(\n    n, 3,\n)` keeps its comma and line break after the new argument
    added = cst.Arg(cst.parse_expression(dtype), keyword=cst.Name("dtype"),
                    equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")), comma=trailing)
    return node.with_changes(args=[*args, last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), added])


def namesake(qualified: str) -> tuple[str, str, Optional[dict], Optional[str]]:
    """The `jax.numpy` namesake of the NumPy function `qualified` ("numpy.asanyarray", "numpy.add.reduce"): (its
    name as called after "numpy.", its namesake's name, the namesake's `jnp_api` entry or None, the ufunc method
    called or None)."""
    parts = qualified.split(".")
    named = ".".join(parts[1:])
    substitute = jnp_api.SUBSTITUTES.get(named)
    short = substitute if substitute is not None else named
    entry = jnp_api.lookup(f"numpy.{short}" if substitute is not None else qualified)
    method = None
    if entry is None and len(parts) == 3:
        parent = jnp_api.lookup(".".join(parts[:2]))
        if parent is not None and parent.get("kind") == "ufunc" and parts[2] in parent.get("methods", ()):
            entry, method = parent, parts[2]
    return named, short, entry, method


def unaccepted(node: cst.Call, qualified: str, source: str) -> Optional[str]:
    """Why the namesake of the NumPy call `node` (of `qualified`, written `source`) would not take its arguments,
    so JX501 leaves the call NumPy (its result a NumPy array), or None: an `order=` that follows the memory layout,
    more positional arguments than the namesake takes, a keyword it does not accept (`np.log(x, where=x > 0)`), or
    any other way the arguments do not bind to its signature (`jnp_api.binding_problem`: `np.permute_dims(a)`,
    whose `axes` `jnp.permute_dims` requires; `np.real(val=z)`, positional-only in JAX)."""
    _, short, entry, method = namesake(qualified)
    if entry is None or entry["kind"] in ("constant", "class"):
        return None
    parts = qualified.split(".")
    layout = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "order"), None)
    if parts[-1] in VALUE_ORDER and len(parts) == 2:  # (also by position: `np.reshape(y, s, "A")`)
        given = order_argument(node, VALUE_ORDER[parts[-1]])
        layout = given.value if given is not None and not given.star else None
        if layout is not None and not isinstance(layout, cst.SimpleString):
            return (f"`{source}` is given the order `{cst.Module([]).code_for_node(layout)}`, which jaxfix cannot read: "
                    f"`jnp.{short}` takes only 'C' and 'F' in upper case (NumPy takes either case, and 'A'), and raises "
                    "on any other; this call stays NumPy")
    layout = layout.evaluated_value.upper() if isinstance(layout, cst.SimpleString) else None
    if layout in ("K", "A") and parts[-1] not in LAYOUT_ONLY_ORDER:
        return (f"`{source}(..., order='{layout}')` follows the memory layout, which `jnp.{short}` does not "
                "implement (JAX arrays have none): use `order='C'` if the layout is C order")
    limit = jnp_api.positional_limit(entry) if method is None else None
    given = [a for a in node.args if a.keyword is None]
    if limit is not None and len(given) > limit and not any(a.star for a in given):
        # `np.argsort(x, 0, "mergesort")`: NumPy takes `kind` (and `order`) by position, `jnp.argsort` only by
        # keyword (and rejects it): renamed, the call raises `TypeError`
        return (f"`{source}` is given `{cst.Module([]).code_for_node(given[limit].value)}` as positional argument "
                f"{limit + 1}, which `jnp.{short}` does not take (it takes at most {limit} by position): renamed, the "
                "call would raise `TypeError`; this call stays NumPy")
    droppable_keyword = droppable(parts[-1])
    keywords = [a.keyword.value for a in node.args if a.keyword is not None and a.keyword.value != droppable_keyword]
    if method is None and not jnp_api.accepts_keywords(entry, keywords):
        bad = [k for k in keywords if k not in (entry.get("params") or [])]
        return f"`{source}` is called with keyword(s) {', '.join(bad)} that `jnp.{short}` does not accept"
    problem = jnp_api.binding_problem(entry, len(given), keywords) \
        if method is None and entry["kind"] == "function" and not any(a.star for a in node.args) else None
    if problem is not None:  # `np.permute_dims(a)`: NumPy's `axes` is optional, `jnp.permute_dims` requires it
        return (f"`{source}`'s arguments do not fit `jnp.{short}`'s parameters ({problem}): renamed, the call would "
                "raise `TypeError`; this call stays NumPy")
    return None
