"""Where JX304 (non-array-input) wants an array: which arguments of a NumPy function take one, and which values are one.

- `ARRAY_PARAMS`, `VARARG_ARRAYS` and `takes_array(entry, short, position, arg)`: whether an argument of a NumPy /
  `jax.numpy` function is passed to a parameter that takes an array (where `jax.numpy` rejects a list);
- `STACKING`, `SEQUENCE_FUNCTIONS`, `ANY_OBJECT`: functions that take a sequence of arrays, a Python sequence on
  purpose, or any object;
- `PYTHON_VALUE_METHODS` and `is_array(rule, value, facts, at)`: whether a value is an array (traced, or made by a
  NumPy / `jax.numpy` call), which NumPy lets meet a list as an array and a JAX array does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.masks import FunctionFacts
from jaxfix.analysis.parents import enclosing_statement
from jaxfix.analysis.static_params import ARRAY_METHODS, PYTHON_VALUE_METHODS
from jaxfix.analysis.tracedness import Tracedness, tracedness

from codemods._sequences import tuple_kind

if TYPE_CHECKING:
    from jaxfix.rule import Rule

# Parameters of jax.numpy functions that take an array (a list there is a TypeError in jax.numpy): the indices of
# `delete`/`insert`/`put` (`obj`, `ind`), the operands of the set functions (`ar1`, `ar2`, `element`,
# `test_elements`), `place`'s mask and values, `ediff1d`'s ends (each checked on jax.numpy).
ARRAY_PARAMS = {"a", "x", "x1", "x2", "b", "arr", "ary", "condition", "p", "xp", "fp", "m", "v", "y", "A", "weights",
                "q", "values", "bins", "repeats", "arys", "seq_of_zeros", "ar", "indices", "obj", "ind", "ar1", "ar2",
                "element", "test_elements", "mask", "vals", "to_end", "to_begin"}
# Functions that take a sequence of arrays: a list or tuple display among its elements is not an array
STACKING = {"concatenate", "concat", "stack", "vstack", "hstack", "dstack", "column_stack", "row_stack"}
# array methods that give Python values, not arrays (`x.tolist() + [v]` concatenates lists)
# NumPy functions that give Python numbers, tuples or truth values, not arrays (`[0.0] * np.size(x)` is a list)
PYTHON_VALUE_FUNCTIONS = frozenset({"size", "shape", "ndim", "isscalar", "iscomplexobj", "isrealobj", "array_equal",
                                    "array_equiv", "allclose", "may_share_memory", "shares_memory", "iterable"})
# Functions that take a Python sequence on purpose.
SEQUENCE_FUNCTIONS = {"asarray", "array", "asanyarray", "ascontiguousarray", "stack", "concatenate", "concat", "vstack",
                      "hstack", "dstack", "column_stack", "row_stack", "block", "select", "piecewise", "fromiter",
                      "frombuffer"}
# Functions that convert what they are given to an array: a name a function gives one may be a list or tuple where
# it is passed as it is elsewhere (`np.array(ub)`, then `np.tile(ub, ...)`: pyswarms' `periodic`)
ARRAY_CONVERSIONS = frozenset({"array", "asarray", "asanyarray", "asfarray", "ascontiguousarray", "atleast_1d",
                               "atleast_2d", "atleast_3d"})
# Functions that take any object (`jnp.iterable('N/A')` is True; as an array, text raises): also those that read a
# list, tuple, number or None as NumPy does (`jnp.shape(None)` is `()`, `jnp.ndim([1, 2])` is 1; `jnp.result_type`
# and `jnp.isreal` reject a list), which `jnp.asarray` would make raise on None (trimesh's cached face normals)
ANY_OBJECT = {"iterable", "isscalar", "shape", "ndim", "size", "iscomplexobj", "isrealobj"}
# Functions whose `*args` are arrays, from this position on (`jnp.broadcast_arrays([0, 1], 2)` raises, as do
# `jnp.atleast_2d`, `jnp.meshgrid`, `jnp.ix_` and the operands of `jnp.einsum` given lists)
VARARG_ARRAYS = {"atleast_1d": 0, "atleast_2d": 0, "atleast_3d": 0, "broadcast_arrays": 0, "meshgrid": 0, "ix_": 0,
                 "einsum": 1}


# Functions whose `bins` is one item per dimension (an int, or an array of edges: `(nx, y_edges)`): `jax.numpy`
# takes the sequence, and rejects only an item that is itself a list; as one array, a ragged sequence raises
PER_DIMENSION_BINS = frozenset({"histogram2d", "histogramdd"})


def takes_array(entry: dict, short: str, position: int, arg: cst.Arg) -> bool:
    """Whether `arg`, at `position` among the arguments of the NumPy function `short` (`entry`: its `jnp_api` entry),
    is passed to a parameter that takes an array."""
    found = parameter(entry, short, position, arg)
    return found in ARRAY_PARAMS and not (found == "bins" and short in PER_DIMENSION_BINS)


def parameter(entry: dict, short: str, position: int, arg: cst.Arg) -> Optional[str]:
    """The parameter of the NumPy function `short` that `arg`, at `position` among its arguments, is passed to."""
    params: Optional[list] = entry.get("params")
    if arg.keyword is not None:
        return arg.keyword.value
    if entry["kind"] == "ufunc":
        return "x"
    if short in VARARG_ARRAYS:
        return "arys" if position >= VARARG_ARRAYS[short] else None
    return params[position] if params is not None and position < len(params) else None


# Parameters `jax.numpy` reads as concrete Python values, not data (the result's shape depends on them): a Python int
# there works under `jit`, an array made from it (`jnp.asarray(2)` is traced) raises `ConcretizationTypeError`
# (`jnp.repeat`'s repeats, `jnp.delete`'s indices, `jnp.histogram`'s count of bins, `jnp.compress`'s mask)
CONCRETE_PARAMS = {"repeat": frozenset({"repeats"}), "delete": frozenset({"obj"}), "compress": frozenset({"condition"}),
                   "extract": frozenset({"condition"}), "histogram": frozenset({"bins"}),
                   "histogram_bin_edges": frozenset({"bins"}), "histogram2d": frozenset({"bins"}),
                   "histogramdd": frozenset({"bins"})}


def concrete_parameter(short: str, parameter_name: Optional[str]) -> bool:
    """Whether `jax.numpy`'s `short` needs its parameter `parameter_name` concrete (`CONCRETE_PARAMS`)."""
    return parameter_name in CONCRETE_PARAMS.get(short, ())


# parameters that take indices: NumPy reads an empty list there as integer indices, `jnp.asarray([])` is a float
# array, which `jnp.delete`, `jnp.insert`, `jnp.take` and `jnp.put` reject
INDEX_PARAMS = frozenset({"obj", "ind", "indices"})
# index tricks whose item is an array (`np.r_[[1, 3], [0, 2]]`, `np.c_[a, b]`, `np.mgrid[0:3, 0:2]`), NumPy's or JAX's
ARRAY_INDEX_TRICKS = frozenset({"r_", "c_", "mgrid"})


def is_array(rule: Rule, value: cst.BaseExpression, facts: FunctionFacts, at: Optional[cst.CSTNode] = None) -> bool:
    """`value` is an array: traced, or made by a NumPy / `jax.numpy` call (also `x.at`, whose index is x's) or index
    trick (`np.r_[...]`), an array method of one (`np.array(v).reshape(-1, 3)`), or an item of one (`a[idx]`). With `at` (where `value`
    is used), a name is judged by the definitions that reach there: `points = jnp.asarray(points)` makes even a
    parameter that must stay static (JX510) an array."""
    if isinstance(value, cst.Attribute) and value.attr.value == "at":
        value = value.value
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in PYTHON_VALUE_METHODS:
        return False  # `x.tolist()`: a Python list
    if tracedness(rule, value) is Tracedness.TRACED:
        return True
    if isinstance(value, cst.Subscript):
        return _index_trick(value, facts) or is_array(rule, value.value, facts, at)
    if isinstance(value, cst.Call):
        func = value.func
        if facts.array_function(func) is not None:
            return True
        return isinstance(func, cst.Attribute) and func.attr.value in ARRAY_METHODS - PYTHON_VALUE_METHODS and \
            is_array(rule, func.value, facts, at)
    if not isinstance(value, cst.Name):
        return False
    stmt = enclosing_statement(rule, at) if at is not None and rule.current_function is not None else None
    if stmt is not None:
        try:
            found = function_flow(rule, rule.current_function).reaching(stmt, value.value)
        except KeyError:  # a statement the flow does not hold (in a nested function)
            found = ()
        if found and all(_array_definition(rule, d.node, value.value, facts) for d in found):
            return True
    return _bound_to_arrays(value, facts)


def object_method_result(value: cst.BaseExpression, facts: FunctionFacts) -> bool:
    """`df.groupby("Time")`, or a local name bound only to such: the result of a method that no array has (not an
    array function's, `ARRAY_METHODS`): an object of some library (a pandas table), whatever tracedness says of
    its receiver."""
    if isinstance(value, cst.Name):
        values = facts.bindings.get(value.value, []) if value.value not in facts.params else []
        return bool(values) and all(v is not None and object_method_result(v, facts) for v in values)
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
        and facts.array_function(value.func) is None and value.func.attr.value not in ARRAY_METHODS


def _bound_to_arrays(name: cst.Name, facts: FunctionFacts) -> bool:
    """A local name (not a parameter) every binding of which is a NumPy / `jax.numpy` call."""
    if name.value in facts.params:
        return False
    values = facts.bindings.get(name.value, [])
    return bool(values) and all(v is not None and (_array_call(v, facts) or _index_trick(v, facts)) for v in values)


def _index_trick(value: cst.BaseExpression, facts: FunctionFacts) -> bool:
    """`np.r_[...]`, `jnp.c_[...]`, `np.mgrid[...]`: an array made by an index trick (`ARRAY_INDEX_TRICKS`)."""
    return isinstance(value, cst.Subscript) and facts.array_function(value.value) in ARRAY_INDEX_TRICKS


def _array_call(value: cst.BaseExpression, facts: FunctionFacts) -> bool:
    """A NumPy / `jax.numpy` call, or an array method of one that gives an array (`np.floor(n * w).astype(int)`:
    filterpy's residual resampling)."""
    while isinstance(value, cst.Call):
        func = value.func
        function = facts.array_function(func)
        if function is not None:
            return function not in PYTHON_VALUE_FUNCTIONS
        if not (isinstance(func, cst.Attribute) and func.attr.value in ARRAY_METHODS - PYTHON_VALUE_METHODS):
            return False
        value = func.value
    return False


def made_array(value: cst.BaseExpression, facts: FunctionFacts, memo: Optional[dict[str, bool]] = None) -> bool:
    """An array the function makes itself, whatever its parameters hold (which `is_array` takes as arrays, and
    which may be lists: a list `+` a list concatenates): a NumPy / `jax.numpy` call or an array method of one
    (`_array_call`), an item of one, an arithmetic operation on one, or a local name bound only to such
    (`c = np.floor(n * w).astype(int)`, `d = np.cumsum(w) * 2`). Not a sequence display repeated or joined
    (`[0.0] * np.size(x)` is a list), nor what `np.size`/`np.shape`/`np.ndim` give (Python numbers and tuples).
    `memo` holds each local name's answer once (a chain `a2 = a1 + a1` is followed once per name, not per path)."""
    memo = {} if memo is None else memo
    if isinstance(value, cst.BinaryOperation):
        sequences = (cst.List, cst.Tuple, cst.ListComp, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
        if isinstance(value.left, sequences) or isinstance(value.right, sequences):
            return False
        return made_array(value.left, facts, memo) or made_array(value.right, facts, memo)
    if isinstance(value, cst.Subscript):
        return made_array(value.value, facts, memo)
    if isinstance(value, cst.Call):
        return _array_call(value, facts)
    if not isinstance(value, cst.Name) or value.value in facts.params:
        return False
    name = value.value
    if name not in memo:
        memo[name] = False  # a cycle (`a = a + 1`) proves nothing
        values = facts.bindings.get(name, [])
        memo[name] = bool(values) and all(v is not None and made_array(v, facts, memo) for v in values)
    return memo[name]


# NumPy / `jax.numpy` functions that give a tuple of arrays (or NumPy scalars) in every item, besides those
# `_sequences.tuple_kind` knows (not `lstsq`, whose rank is a Python int in NumPy)
TUPLE_OF_ARRAYS = frozenset({"linalg.eig", "linalg.eigh", "linalg.svd", "linalg.qr", "linalg.slogdet", "split",
                             "array_split", "hsplit", "vsplit", "dsplit"})


def _array_definition(rule: Rule, node: Optional[cst.CSTNode], name: str, facts: FunctionFacts) -> bool:
    """A definition of `name` that makes it an array: `name = <array>`, `name -= 0.5` (an array stays one), or
    `(name, vecs) = np.linalg.eigh(c)`: an item unpacked from a call that gives a tuple of arrays (pymcmcstat's
    principal components, in a method whose `self._cov` says nothing of tracedness)."""
    if isinstance(node, cst.AugAssign):
        return not isinstance(node.value, (cst.List, cst.Tuple, cst.ListComp))
    if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
        return is_array(rule, node.value, facts)
    if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, (cst.Tuple, cst.List)):
        elements = node.targets[0].target.elements
        return not any(isinstance(e, cst.StarredElement) for e in elements) \
            and any(isinstance(e.value, cst.Name) and e.value.value == name for e in elements) \
            and _tuple_of_arrays(node.value, facts)
    return False


def _tuple_of_arrays(value: cst.BaseExpression, facts: FunctionFacts) -> bool:
    """`np.linalg.eigh(c)`, `np.nonzero(m)`, `np.histogram(x)`, `np.unique(x, return_counts=True)`: a call that gives
    a tuple of arrays, each item of which is an array (or a NumPy scalar, which a list meets as an array too)."""
    if not isinstance(value, cst.Call):
        return False
    function = facts.array_function(value.func)
    if function is None:
        return False
    keywords = {a.keyword.value for a in value.args if a.keyword is not None}
    return function in TUPLE_OF_ARRAYS or tuple_kind(function, value) is not None \
        or function == "unique" and any(k.startswith("return_") for k in keywords)
