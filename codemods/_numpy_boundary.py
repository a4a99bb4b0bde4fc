"""Where a NumPy call must stay NumPy: the boundary JX501 (numpy-namespace) does not cross.

A NumPy call inside a function is renamed to its `jax.numpy` namesake unless its result, or what it is given, is
something a JAX array cannot be or do. `NumpyBoundary` (one per rule instance, so per pass) answers that for JX501:

- `call_reason(call, qualified)`: the call itself must stay: its result is hashed into a set, indexed by a class
  that iterates until `IndexError`, written through, read as a buffer, the `out=` of a NumPy call, inside a `try`
  catching `LinAlgError`, a masked array, given a dtype or data JAX cannot hold, or given dates as numbers, or it
  meets a SciPy sparse matrix or feeds a `scipy.fftpack` transform or a third-party function known to require
  NumPy arrays (`sparse_data.NumpyOnly`: `skimage.util.view_as_windows`, `cv2.*`);
- `filled_reason(call)`: the call hands a NumPy array made here to code that writes into it (a callee filling a
  parameter, or computing from it an array a callee fills: `_buffers.writers`; a private compiled module, a
  numba-compiled function, a generator that shuffles it in place);
- `stored_reason(assign)`: an array made here is stored on an attribute that code elsewhere writes into in place;
- `returned_reason(return)`: the function's result is written into, or made strings of, by a caller of the module.

Each answer is a message for the report, with whether the function's other fixes must be held back. The facts it
reads come from `jaxfix.analysis` (`host_data`, `foreign_dtypes`, `plain_python`), `codemods._buffers` and, for
what callers on the other side of a call do with an array, `codemods._caller_writes`.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

import libcst as cst
import numpy as np

from codemods import _attribute_flows, _buffers, _caller_writes
from codemods import _caller_inputs
from codemods import _imported_values, _matrices
from codemods._list_inputs import (
    attribute_reads, dtype_constants, grown_list, imported_as, object_attributes, object_callable_parameters, object_derived,
    object_fed_parameters, read_names, sequence, text_fed_parameters, unbound_before,
)
from codemods._namesakes import array_parameters, text_argument
from jaxfix import walk
from jaxfix.precheck import numpy_in_functions
from jaxfix.analysis.c_libraries import c_function, c_library_roots
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.foreign_dtypes import foreign_dtype, jax_rejects, object_data, text_kind_tests, text_writes
from jaxfix.analysis.hashed import elements_hashed
from jaxfix.analysis.host_data import (
    NUMPY_ARRAY_TYPES, ScalarCheck, clock_data, element_argument, documented_objects, module_typed_parameters, numba_argument, numpy_array_class, sequence_attributes, shuffled_array, timer_functions, timing_write,
)
from jaxfix.analysis.jnp_api import HOST_ONLY
from jaxfix.analysis.masks import function_facts
from jaxfix.analysis.value_dtypes import BOOL, COMPLEX, FLOAT, INT, DType, dtype_of, inexact, keeps, promote
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.parents import (
    OUT_OF_BOUNDS_CATCHERS, ParentProvider, caller_catching, catching, caught_around, caught_by, enclosing_class,
    enclosing_statement, exception_names,
    indexed_names, INDEXING_METHODS,
)
from jaxfix.analysis.plain_python import numba_compiled
from jaxfix.imports import absolute_imports, bound_by_import, dotted_name, top_level_statements
from jaxfix.analysis.sparse_data import (
    NumpyOnly, SparseNames, arguments, failure, returned_item_sparse, sparse_attributes, sparse_functions, sparse_reduction,
)

if TYPE_CHECKING:
    from jaxfix.rule import Rule

# Calls that build arrays: converted even when every argument is static, since later code updates or combines them
# as JAX arrays (`.at[...]`: `sigma = np.tile(1.0, x.shape)`, then `sigma[low] = ...`); a name bound to one is "an
# array made here".
CREATION = {
    "zeros", "ones", "empty", "full", "eye", "identity", "arange", "linspace", "logspace", "geomspace", "array",
    "asarray", "zeros_like", "ones_like", "empty_like", "full_like", "tri", "tril", "triu", "diag", "meshgrid",
    "indices", "copy", "tile", "repeat",
}
# builtin types given as a dtype: NumPy's default (wide) dtypes
_BUILTIN_DTYPES = frozenset({"int", "float", "complex", "bool", "object", "str"})


def _python_number(value: cst.BaseExpression) -> bool:
    """An expression of names and number literals only, with an integer among them (`n - 1`, `n`, `2 ** bits`):
    a Python int where the names are (no call, item or attribute that could make it an array)."""
    if isinstance(value, cst.Integer):
        return True
    if isinstance(value, cst.Name):
        return value.value not in ("True", "False", "None")
    if isinstance(value, cst.UnaryOperation):
        return _python_number(value.expression)
    if isinstance(value, cst.BinaryOperation) and not isinstance(value.operator, cst.Divide):
        return _python_number(value.left) and _python_number(value.right)
    return False


# dtype functions, which read a string list as a layout, not as data
# functions that make an array of whatever data they are given (a string, a callable: a 0-d string or object array)
FROM_DATA = {"array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "atleast_1d", "atleast_2d",
             "atleast_3d"}
DTYPE_FUNCTIONS = {"dtype", "result_type", "promote_types", "can_cast", "issubdtype", "format_parser"}
# the exceptions a `try` catching NumPy's `LinAlgError` names (it is a `ValueError`)
LINALG_ERRORS = {"LinAlgError", "ValueError", "Exception", "BaseException"}
_LINALG_CATCHERS = frozenset(LINALG_ERRORS)
# the exceptions NumPy raises on bad input, which `jax.numpy` raises in other cases (a `try` that catches one of
# them, and not every exception, relies on NumPy's choice)
CALL_ERRORS = {"TypeError", "ValueError", "IndexError", "AxisError"}
# the same caught by a caller around a call of the function (an `IndexError` there is `OUT_OF_BOUNDS_CATCHERS`')
_CALL_CATCHERS = frozenset(CALL_ERRORS - {"IndexError"})
# attributes and methods only a NumPy array has (`_buffers`): a call whose result is read through one must stay NumPy
BUFFER_ATTRIBUTES = _buffers.BUFFER_ATTRIBUTES
BUFFER_METHODS = _buffers.BUFFER_METHODS

# functions named for making NumPy arrays (POT's `_to_numpy`, `as_numpy`, `to_np`): host conversions by intent
# methods NumPy calls to turn an object into an array (lmfit's `Parameter.__array__`): they must give NumPy arrays
NUMPY_PROTOCOL = frozenset({"__array__", "__array_wrap__", "__array_prepare__", "__array_finalize__", "__array_ufunc__",
                            "__array_function__"})
HOST_CONVERTER = re.compile(r"(^|_)(to|as)_?(numpy|np)($|_)")
# creation calls whose `order=` is only a memory layout
LAYOUT_ORDER = {"array", "asarray", "asanyarray", "zeros", "ones", "empty", "full", "copy"}


def repeats_a_list(rule: Rule, node: cst.Call, function: Optional[cst.FunctionDef]) -> Optional[str]:
    """The name the NumPy call `node` is assigned to when a value of it (through augmented assignments: `n //= k`)
    multiplies a Python list (`lvl * n`, with `lvl` a list display or a name bound only to lists: pyDOE3's
    fullfact), else None."""
    parent = rule.get_metadata(ParentProvider, node, None)
    if function is None or not (isinstance(parent, cst.Assign) and len(parent.targets) == 1
                                and isinstance(parent.targets[0].target, cst.Name)):
        return None
    name = parent.targets[0].target.value
    flow = function_flow(rule, function)
    facts = function_facts(rule, function)
    pending: list[cst.CSTNode] = [parent]
    seen: set[cst.CSTNode] = set()
    while pending:
        stmt = pending.pop()
        if stmt in seen:
            continue
        seen.add(stmt)
        for use in flow.uses(stmt, name):
            holder = rule.get_metadata(ParentProvider, use, None)
            if isinstance(holder, cst.BinaryOperation) and isinstance(holder.operator, cst.Multiply):
                other = holder.right if holder.left is use else holder.left
                if sequence(other, facts, tuples=False) or grown_list(function, other):
                    return name
            elif isinstance(holder, cst.AugAssign) and holder.target is use:
                pending.append(holder)  # `n //= k`: its new value is still the call's
    return None


def _typed_buffer(node: cst.Call, name: str) -> Optional[str]:
    """`np.asarray(M, dtype=np.float64, order="C")`: a dtype and a memory layout both given, which only matters to
    compiled code the array is handed to (POT's network simplex); the keywords as written, else None."""
    if name not in LAYOUT_ORDER:
        return None
    keywords = {a.keyword.value: a for a in node.args if a.keyword is not None}
    order, dtype = keywords.get("order"), keywords.get("dtype")
    if order is None or dtype is None or not isinstance(order.value, cst.SimpleString):
        return None
    if isinstance(dtype.value, cst.Name) and dtype.value.value in ("float", "int", "bool", "complex"):
        return None  # `np.asarray(u, order='c', dtype=float).sum()`: a Python type, not a C one
    return f"dtype={_EMPTY.code_for_node(dtype.value)}, order={order.value.value}"


_EMPTY = cst.Module(body=[])


# builtins that only read the elements of what they are given (a NumPy flat iterator, or an array: the same)
_ELEMENT_READERS = frozenset({"list", "tuple", "sum", "min", "max", "sorted", "any", "all", "enumerate", "zip",
                              "len"})


def flat_read(rule: Rule, node: cst.Attribute, parent: Optional[cst.CSTNode]) -> bool:
    """`x.flat` read for its elements only: iterated (`for v in x.flat`, a comprehension), unpacked (`a, b = x.flat`),
    indexed and read (`x.flat[i]`, a copy), or given to a builtin that reads the elements (`list(x.flat)`), where
    `jnp.ravel(x)` reads the same elements. Not a write through it (`x.flat[i] = v`, `x.flat = v`: the in-place
    rules'), nor the iterator kept (`it = x.flat`, written through or advanced by `next` later), returned, or handed
    to other functions (`np.asarray(x.flat)` may be a view of `x`). Nor a read of what a function of another module
    returns that the project index keeps NumPy for this module's reads (`r = pm.ramp(n)`, then `r.flat[0]`:
    `_buffers.written_result`): there it is a NumPy array, and rewriting the read would drop the reason to keep it,
    so that a second migration rewrote the function (numpy_financial's tests, `result.flat[0]` of `npf.ipmt(...)`)."""
    if _kept_result(rule, node.value) or _object_items(rule, node, parent):
        return False
    if isinstance(parent, (cst.For, cst.CompFor)):
        return parent.iter is node
    if isinstance(parent, cst.Assign):
        return parent.value is node and all(isinstance(t.target, (cst.Tuple, cst.List)) for t in parent.targets)
    if isinstance(parent, cst.Subscript):
        return parent.value is node and not store_target(rule, parent)
    if isinstance(parent, cst.Arg) and parent.keyword is None and parent.star == "":
        call = rule.get_metadata(ParentProvider, parent, None)
        return isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value in _ELEMENT_READERS
    return False


def _object_items(rule: Rule, node: cst.Attribute, parent: Optional[cst.CSTNode]) -> bool:
    """Whether the elements read through the flat iterator `node` are objects, not numbers: an attribute no number
    or row has is read off one (`for ax in axes.flat: ax.plot(...)`, also through `enumerate`, or `x.flat[0].kind`).
    Such an array (matplotlib's grid of axes from `plt.subplots`) is an object array, which NumPy iterates and
    `jax.numpy` rejects (`jnp.ravel(axes)` raises `TypeError`), and which no migration makes a JAX array."""
    if isinstance(parent, cst.Subscript):
        above = rule.get_metadata(ParentProvider, parent, None)
        return isinstance(above, cst.Attribute) and above.value is parent and _not_element_side(above.attr.value)
    loop, at = parent, node
    if isinstance(parent, cst.Arg) and parent.keyword is None and parent.star == "":  # `enumerate(x.flat)`
        call = rule.get_metadata(ParentProvider, parent, None)
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "enumerate"
                and call.args and call.args[0] is parent):
            return False
        loop, at = rule.get_metadata(ParentProvider, call, None), call
    if not isinstance(loop, (cst.For, cst.CompFor)) or loop.iter is not at:
        return False
    target = loop.target
    if at is not node:  # `for i, ax in enumerate(...)`
        if not (isinstance(target, cst.Tuple) and len(target.elements) == 2):
            return False
        target = target.elements[1].value
    if not isinstance(target, cst.Name):
        return False
    scope: Optional[cst.CSTNode] = loop.body if isinstance(loop, cst.For) else loop
    while isinstance(scope, cst.CompFor):  # the comprehension holding the clause: its element and conditions
        scope = rule.get_metadata(ParentProvider, scope, None)
    return scope is not None and any(
        isinstance(a.value, cst.Name) and a.value.value == target.value and _not_element_side(a.attr.value)
        for a in walk.nodes_of(scope, cst.Attribute))


def _not_element_side(attribute: str) -> bool:
    """An attribute that neither a NumPy scalar nor an array row has."""
    return attribute not in _ELEMENT_SIDE and not attribute.startswith("__")


def _kept_result(rule: Rule, value: cst.BaseExpression) -> bool:
    """`value` is a call `_buffers.written_result` lists, or a name some assignment of the rule's current function
    binds to one."""
    if isinstance(value, cst.Call):
        return _buffers.written_result(rule, value)
    function = getattr(rule, "current_function", None)
    if not isinstance(value, cst.Name) or function is None:
        return False
    return any(isinstance(v, cst.Call) and _buffers.written_result(rule, v)
               for v in function_facts(rule, function).bindings.get(value.value, ()))


def store_target(rule: Rule, node: cst.CSTNode) -> bool:
    """Whether `node` is written to: an assignment, `del` or loop target, or an element of one (`a, x[0] = ...`)."""
    while True:
        parent = rule.get_metadata(ParentProvider, node, None)
        if isinstance(parent, (cst.Tuple, cst.List, cst.Element, cst.StarredElement)):
            node = parent
            continue
        if isinstance(parent, (cst.AssignTarget, cst.Del)):
            return True
        if isinstance(parent, (cst.AugAssign, cst.AnnAssign)):
            return parent.target is node
        if isinstance(parent, (cst.For, cst.CompFor)):
            return parent.target is node
        if isinstance(parent, cst.AsName):
            return True
        return False


def _flat_iterator(value: cst.BaseExpression, facts) -> bool:
    """`x.flat`, or a local name bound to one (`i = X.astype(int).flat`): a NumPy flat iterator, which JAX arrays do not
    have and `jax.numpy` does not take as an array or an index."""
    if isinstance(value, cst.Name) and value.value not in facts.params:
        return any(isinstance(v, cst.Attribute) and v.attr.value == "flat" for v in facts.bindings.get(value.value, ()))
    return isinstance(value, cst.Attribute) and value.attr.value == "flat"


# NumPy's polynomial classes (`np.poly1d`, `np.polynomial.Polynomial` and its kin) and their methods that give one
_POLYNOMIAL_CLASSES = frozenset({"poly1d", "Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE"})
_POLYNOMIAL_METHODS = frozenset({"deriv", "integ", "copy", "convert", "cutdeg", "truncate", "trim", "cast", "basis",
                                 "identity", "fit"})


# scipy.special's orthogonal polynomial constructors: each returns an `orthopoly1d`, a subclass of `np.poly1d`
_SCIPY_POLYNOMIALS = frozenset({"hermite", "hermitenorm", "legendre", "chebyt", "chebyu", "chebyc", "chebys", "jacobi",
                                "laguerre", "genlaguerre", "gegenbauer", "sh_legendre", "sh_chebyt", "sh_chebyu",
                                "sh_jacobi"})


def _polynomial_class(qualified: str) -> bool:
    """`numpy.poly1d`, `numpy.polynomial.Polynomial`, `numpy.polynomial.chebyshev.Chebyshev.fit`,
    `scipy.special.hermitenorm`: a call making one of NumPy's polynomial objects (not
    `numpy.polynomial.polynomial.polyval`, which makes an array)."""
    parts = qualified.split(".")
    if parts[0] == "scipy" and len(parts) >= 3 and parts[1] == "special":
        return parts[-1] in _SCIPY_POLYNOMIALS  # (`scipy.special.orthogonal.hermite` too)
    return parts[0] == "numpy" and any(p in _POLYNOMIAL_CLASSES for p in parts[1:]) \
        and (parts[-1] in _POLYNOMIAL_CLASSES or parts[-1] in _POLYNOMIAL_METHODS)


# array methods that take a dtype first: `a.astype(d)` casts, `a.view(d)` reinterprets the memory (a record layout
# of the row's fields: `a.view({"names": [...], "formats": [...]})`, SciPy-style row-wise set operations)
_CAST_VERBS = {"astype": "casts", "view": "views"}


def _foreign_cast_dtype(rule: Rule, call: cst.Call) -> Optional[cst.BaseExpression]:
    """The dtype of `x.astype(d)` or `x.view(d)` (by position or as `dtype=`) when it is one JAX arrays cannot have
    (`foreign_dtypes.jax_rejects`: text, objects, a record layout such as `{"names": [...], "formats": [...]}` or a
    list of (name, type) tuples), else None: a JAX array's method raises for it."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in _CAST_VERBS:
        return None
    given = next((a for a in call.args if not a.star and (a.keyword is None or a.keyword.value == "dtype")), None)
    if given is None or func.attr.value == "view" and _array_class(rule, given):
        return None  # (`x.view(np.ndarray)`, `x.view(cls)`: an array class, not a dtype)
    return given.value if jax_rejects(rule, given.value) else None


def _bound_name(parent: Optional[cst.CSTNode]) -> Optional[str]:
    """`name` when `parent` is the assignment `name = <value>`, else None."""
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        return parent.targets[0].target.value
    return None


def _buffer_parameters(module: cst.Module) -> dict[str, tuple[list[str], dict[str, str]]]:
    """{function or method name: (its positional parameters after `self`/`cls`, {parameter: its read, as written})}
    for the parameters a function of the module reads through an attribute or method only a NumPy array has
    (`BUFFER_ATTRIBUTES`, `BUFFER_METHODS`: `arr_in.strides[0]`); a class's `__init__` is listed under the class's
    name too. An array a caller makes with NumPy and passes there must stay NumPy (a JAX array lacks the attribute)."""
    return _parameter_facts(module, lambda function, params: {
        owner.value: f"{owner.value}.{attr}" for owner, attr, _ in _buffers.buffer_reads(function.body)  # type: ignore[attr-defined]
        if isinstance(owner, cst.Name) and owner.value in params})


def _parameter_facts(module: cst.Module, find: Callable[[cst.FunctionDef, list[str]], dict[str, str]]) \
        -> dict[str, tuple[list[str], dict[str, str]]]:
    """{function or method name: (its positional parameters after `self`/`cls`, {parameter: what `find` says of it})}
    for the functions of the module of which `find(function, parameters)` says anything; a class's `__init__` is
    listed under the class's name too."""
    found: dict[str, tuple[list[str], dict[str, str]]] = {}
    inits = {id(f): c.name.value for c in walk.nodes_of(module, cst.ClassDef) for f in c.body.body  # type: ignore[attr-defined]
             if isinstance(f, cst.FunctionDef) and f.name.value == "__init__"}
    for function in walk.nodes_of(module, cst.FunctionDef):
        params = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]  # type: ignore[attr-defined]
        if params and params[0] in ("self", "cls"):
            params = params[1:]
        facts = find(function, params)  # type: ignore[arg-type]
        for name in (function.name.value, inits.get(id(function))) if facts else ():  # type: ignore[attr-defined]
            if name is not None:
                entry = found.setdefault(name, (params, {}))
                for param, fact in facts.items():
                    entry[1].setdefault(param, fact)
    return found


def _ndarray_tested_parameters(rule: Rule, module: cst.Module) -> dict[str, tuple[list[str], dict[str, str]]]:
    """{function or method name: (its positional parameters after `self`/`cls`, {parameter: its test, as written})}
    for the parameters a function of the module tests with `isinstance(x, np.ndarray)` (no JAX type among the
    types) where `x` is still the caller's value (not rebound by an earlier statement of the function's body); a
    class's `__init__` is listed under the class's name too. JX501 widens such a test to `(np.ndarray, jax.Array)`,
    but only with the function's other fixes (an unsafe `np.asanyarray` holds it back; trimesh's `convert_like`,
    `isinstance(like, np.ndarray)`, then `like.__class__(item)`), and not where its branch writes into the array:
    a JAX array handed there would take the other branch, silently. So an array a caller makes with NumPy and
    passes there stays NumPy."""
    code = _EMPTY.code_for_node
    # (a module-level name bound to a tuple of types: `KINDS = (list, np.ndarray)`, then `isinstance(a, KINDS)`)
    held = {t.target.value: a.value for line in module.body if isinstance(line, cst.SimpleStatementLine)
            for a in line.body if isinstance(a, cst.Assign) and isinstance(a.value, cst.Tuple)
            for t in a.targets if isinstance(t.target, cst.Name)}

    def tests(function: cst.FunctionDef, params: list[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for call in walk.nodes_of(function.body, cst.Call):  # type: ignore[attr-defined]
            if not (isinstance(call.func, cst.Name) and call.func.value == "isinstance" and len(call.args) == 2  # type: ignore[attr-defined]
                    and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value in params):  # type: ignore[attr-defined]
                continue
            name, kinds = call.args[0].value.value, call.args[1].value  # type: ignore[attr-defined]
            if isinstance(kinds, cst.Name) and kinds.value in held:
                kinds = held[kinds.value]
            elements = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
            if name in found or any("jax" in dotted_name(e) or dotted_name(e) == "Array" for e in elements) \
                    or not any(isinstance(e, (cst.Name, cst.Attribute)) and numpy_name(rule, e) == "numpy.ndarray" for e in elements):
                continue
            if _parameter_reaches(function, name, call):
                found[name] = code(call)
        return found

    return _parameter_facts(module, tests)


def _parameter_reaches(function: cst.FunctionDef, name: str, node: cst.CSTNode) -> bool:
    """Whether the parameter `name` may still be the caller's value where `node` reads it: no statement of the
    function's body before the one holding `node` rebinds it unconditionally (`x = np.asarray(x)`), and no function
    nested around `node` has a parameter of that name."""
    for stmt in function.body.body:  # type: ignore[attr-defined]
        inside = set(walk.nodes(stmt))
        if node in inside:
            return not any(isinstance(f, (cst.FunctionDef, cst.Lambda)) and node in set(walk.nodes(f.body))
                           and name in {p.name.value for p in walk.nodes_of(f.params, cst.Param)}  # type: ignore[attr-defined]
                           for f in walk.walk(stmt) if f is not node)
        if isinstance(stmt, cst.SimpleStatementLine) and any(
                isinstance(small, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets)
                for small in stmt.body):
            return False
    return True


# what an element of a numeric array may give by attribute: a NumPy scalar's attributes and methods (a row: an array's)
_ELEMENT_SIDE = frozenset(a for kind in (np.ndarray, np.float64, np.int64, np.complex128, np.bool_) for a in dir(kind)
                          if not a.startswith("_")) | {"at"}


def object_elements(rule: Rule, call: cst.Call, function: cst.FunctionDef) -> Optional[str]:
    """An attribute the function reads off an element of the array `call` makes that no number or row has
    (`v.kind`), as written: iterated directly or through the name the call's result is bound to, by a `for` loop or
    a comprehension (also with `enumerate`), or indexed (`visuals[0].kind`); else None. The array holds objects
    (trimesh's `concatenate` of visuals: `visuals = np.append(visuals, args)`, then `v.kind for v in visuals`),
    which NumPy keeps in an object array and `jax.numpy` rejects."""
    parent = rule.get_metadata(ParentProvider, call, None)
    name = _bound_name(parent)
    flow = function_flow(rule, function) if name is not None else None

    def reaches(read: cst.CSTNode) -> bool:
        """Whether the binding of `name` to the call's result may be what `read` (a read of `name`) finds."""
        stmt = read if isinstance(read, cst.For) else enclosing_statement(rule, read)
        return stmt is None or not flow.knows(stmt) or any(d.node is parent for d in flow.reaching(stmt, name))  # type: ignore[union-attr, arg-type]

    def element(iterable: cst.BaseExpression, target: cst.BaseExpression, at: cst.CSTNode) -> Optional[str]:
        """The name of an element of the array `target` binds when iterating over `iterable`, else None."""
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value == "enumerate" \
                and iterable.args and isinstance(target, cst.Tuple) and len(target.elements) == 2:
            iterable, target = iterable.args[0].value, target.elements[1].value
        ours = iterable is call or name is not None and isinstance(iterable, cst.Name) and iterable.value == name and reaches(at)
        return target.value if ours and isinstance(target, cst.Name) else None

    def read(scope: cst.CSTNode, item: str) -> Optional[str]:
        for attribute in walk.nodes_of(scope, cst.Attribute):
            if isinstance(attribute.value, cst.Name) and attribute.value.value == item \
                    and attribute.attr.value not in _ELEMENT_SIDE and not attribute.attr.value.startswith("__"):  # type: ignore[attr-defined]
                return _EMPTY.code_for_node(attribute)
        return None

    for loop in walk.nodes_of(function.body, cst.For):
        item = element(loop.iter, loop.target, loop)  # type: ignore[attr-defined]
        found = read(loop.body, item) if item is not None else None  # type: ignore[attr-defined]
        if found is not None:
            return found
    for comprehension in (c for kind in (cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)
                          for c in walk.nodes_of(function.body, kind)):
        clause = comprehension.for_in  # type: ignore[attr-defined]
        while clause is not None:
            item = element(clause.iter, clause.target, comprehension)
            found = read(comprehension, item) if item is not None else None
            if found is not None:
                return found
            clause = clause.inner_for_in
    if name is not None:  # `visuals[0].kind`
        for attribute in walk.nodes_of(function.body, cst.Attribute):
            value = attribute.value  # type: ignore[attr-defined]
            if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and value.value.value == name \
                    and len(value.slice) == 1 and attribute.attr.value not in _ELEMENT_SIDE \
                    and not attribute.attr.value.startswith("__") and reaches(attribute):  # type: ignore[attr-defined]
                return _EMPTY.code_for_node(attribute)
    return None


def _array_class(rule: Rule, arg: cst.Arg) -> bool:
    """An argument of `x.view(...)` that names a class, not a dtype: `np.matrix`, `type=np.recarray`, `cls`,
    `type(self)`, `MyArray` (a capitalised name that `_class_name` does not resolve to something else)."""
    value = arg.value
    if arg.keyword is not None:
        return arg.keyword.value == "type"
    return _class_value(rule, value, frozenset())


def _class_value(rule: Rule, value: cst.BaseExpression, seen: frozenset[str]) -> bool:
    """Whether the expression `value` may be an array class (`_array_class`)."""
    qualified = numpy_name(rule, value)
    if qualified is not None:  # `np.matrix`, not `np.int64` (nor `INT` of `from numpy import int64 as INT`)
        return qualified in NUMPY_ARRAY_TYPES
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "type":
        return True
    return isinstance(value, cst.Name) and (value.value == "cls" or value.value[:1].isupper()) \
        and _class_name(rule, value.value, seen)


def _class_name(rule: Rule, name: str, seen: frozenset[str]) -> bool:
    """Whether the capitalised `name` may be an array class: a class the module defines, a name it imports (from
    another module: maybe one), one it binds to a class (`Matrix = np.matrix`), or one it does not bind at top level
    (a local, a parameter); not a name the module binds only to something else (`INT = np.int64`, a dtype)."""
    if name in seen:
        return False
    bound = False
    if any(c.name.value == name for c in walk.nodes_of(rule.context.module, cst.ClassDef)):  # type: ignore[attr-defined]
        return True
    for stmt in top_level_statements(rule.context.module):
        imported = bound_by_import(stmt)
        if imported is not None and name in imported:
            return True
        for assign in (s for s in getattr(stmt, "body", ()) if isinstance(s, cst.Assign)) \
                if isinstance(stmt, cst.SimpleStatementLine) else ():
            if any(isinstance(t.target, cst.Name) and t.target.value == name for t in assign.targets):
                bound = True
                if _class_value(rule, assign.value, seen | {name}):
                    return True
    return not bound


def _class_views(rule: Rule, function: cst.FunctionDef) -> dict[cst.Name, str]:
    """{name: why} for the names `function` views as an array class, not a dtype (`inverse.view(np.matrix)`,
    `z.view(type=kind)`: `_array_class`): a JAX array's `.view` takes a dtype only, so a NumPy call whose result
    reaches such a name must stay NumPy (the `uncertainties` package's `inverse = np.linalg.inv(arr)`, then
    `inverse = inverse.view(np.matrix)`)."""
    found: dict[cst.Name, str] = {}
    for call in walk.nodes_of(function.body, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if isinstance(func, cst.Attribute) and func.attr.value == "view" and isinstance(func.value, cst.Name):
            cls = next((a.value for a in call.args if _array_class(rule, a)), None)  # type: ignore[attr-defined]
            if cls is not None:
                found[func.value] = (f"is viewed as `{rule.code(cls)}`, an array class, which a JAX array cannot "
                                     "become (its `.view` takes a dtype only)")
    return found


# displays and comprehensions of Python containers, which `list[i][j] = v` writes an item of, not into
_CONTAINER_DISPLAYS = (cst.List, cst.ListComp, cst.Tuple, cst.Dict, cst.DictComp, cst.Set, cst.SetComp)
Reason = tuple[str, bool]  # the report's message, and whether the function's other fixes are held back


def _follow_uses(flow: Any, binding: cst.CSTNode, name: str,
                 step: Callable[[str, cst.CSTNode], tuple[Any, list[tuple[cst.CSTNode, str]]]]) -> Any:
    """Walk the reads of `name` as `binding` binds it (`flow.uses`), and of the bindings `step` leads on to: `step(name,
    read)` gives (a result, which ends the walk, or None; the (binding, name) pairs whose reads to walk next, each
    once). The result, or None."""
    pending, seen = [(binding, name)], {id(binding)}
    while pending:
        current, bound = pending.pop()
        try:
            uses = flow.uses(current, bound)
        except KeyError:  # a statement the flow does not hold
            continue
        for use in uses:
            found, more = step(bound, use)
            if found is not None:
                return found
            for then in more:
                if id(then[0]) not in seen:
                    seen.add(id(then[0]))
                    pending.append(then)
    return None

_OPERATORS = {cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
              cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.PowerAssign: "**", cst.MatrixMultiplyAssign: "@",
              cst.BitAndAssign: "&", cst.BitOrAssign: "|", cst.BitXorAssign: "^", cst.LeftShiftAssign: "<<",
              cst.RightShiftAssign: ">>"}
_KIND_NAMES = {BOOL: "bool", INT: "integer", FLOAT: "float", COMPLEX: "complex"}
_DTYPE_MAKERS = frozenset({"dtype", "astype"})


def _chosen_dtype(facts, value: cst.BaseExpression) -> Optional[str]:
    """The code of a part of `value` that asks for a dtype: a call given `dtype=` (`np.asarray(o, dtype=np.uint16)`),
    `.astype(...)`, or a NumPy scalar type called (`np.float64(x)`); else None."""
    for call in walk.nodes_of(value, cst.Call):
        keyword = next((a for a in call.args if a.keyword is not None and a.keyword.value == "dtype"), None)  # type: ignore[attr-defined]
        if keyword is not None:
            return f"dtype={dotted_name(keyword.value) or '...'}"
        func = call.func  # type: ignore[attr-defined]
        if isinstance(func, cst.Attribute) and func.attr.value == "astype":
            return ".astype(...)"
        named = facts.array_function(func)
        if named is not None and named.split(".")[-1] in _SCALAR_TYPES:
            return f"{dotted_name(func)}(...)"
    return None


_SCALAR_TYPES = frozenset({"bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                           "float32", "float64", "complex64", "complex128", "intc", "intp", "uintp", "double", "single",
                           "longlong", "ulonglong", "short", "ushort", "byte", "ubyte", "half", "longdouble", "csingle",
                           "cdouble", "float_", "int_", "uint"})


def _widening(facts, array: DType, update: cst.AugAssign) -> Optional[str]:
    """Why `update` (`x op= v`, `x` an array of dtype `array`) may give a result of a wider dtype than `x`'s (NumPy
    casts it back into `x`, `jax.numpy` promotes), else None: see `NumpyBoundary._widened_update`."""
    if type(update.operator) not in _OPERATORS or isinstance(update.operator, (cst.LeftShiftAssign, cst.RightShiftAssign)):
        return None
    value = dtype_of(facts, update.value)
    result = promote(array, value)
    if isinstance(update.operator, cst.DivideAssign):
        result = inexact(result)
    if keeps(array, value) and result == promote(array, value):
        return None
    if array.exact and result.kind > array.kind:
        return f"a {_KIND_NAMES[result.kind]} result for an array of {array.name or _KIND_NAMES[array.kind]}s"
    if array.exact and array.name and result.exact and result.name and result.name != array.name:
        return f"{result.name} data into a {array.name} array"
    chosen = _chosen_dtype(facts, update.value) if not value.weak else None
    if chosen is not None and not keeps(array, value):
        return f"`{chosen}` chosen for the value, where the array's dtype is not known to absorb it"
    return None


# NumPy functions that raise `IndexError` for an index out of bounds (with their default `mode="raise"`), where
# `jax.numpy`'s namesakes fill, clip or drop, or raise another exception (`jnp.delete`: `ValueError`)
INDEXING_FUNCTIONS = frozenset({"take", "take_along_axis", "put", "put_along_axis", "insert", "delete"})


def _raises_out_of_bounds(node: cst.Call, qualified: str, parent: Optional[cst.CSTNode]) -> bool:
    """`node` (a NumPy call) raises `IndexError` for an index out of bounds: an indexing function (`np.take(c, i)`,
    unless given another `mode=`), or its result's `.take(i)` (`np.cumsum(a).take(i)`)."""
    if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in INDEXING_METHODS:
        return True
    if qualified.split(".")[-1] not in INDEXING_FUNCTIONS or qualified.count(".") != 1:
        return False
    mode = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "mode"), None)
    return mode is None or isinstance(mode, cst.SimpleString) and mode.evaluated_value == "raise"


# libraries whose functions called for their effect show or log what they are given, never fill it
_NOT_FILLING = frozenset({"matplotlib", "pylab", "seaborn", "plotly", "bokeh", "logging", "warnings", "pytest",
                          "unittest", "builtins", "numpy", "jax", "pprint", "json", "pickle", "h5py", "tqdm"})


# Python functions whose int result has any size: NumPy computes with one past 64 bits and an array (as a float, or
# with objects), a JAX array raises `OverflowError` converting it (`2.0 * np.sum(w) / math.factorial(n)`: SciPy's
# exact Kendall tau p-value, for n > 20)
UNBOUNDED_INTS = frozenset({"math.factorial", "math.comb", "math.perm"})


def unbounded_int_arithmetic(module: cst.Module, function: cst.FunctionDef) -> Optional[cst.Call]:
    """The first call in `function` of a function giving a Python int of any size (`UNBOUNDED_INTS`) whose value
    meets a NumPy result in arithmetic (`s / math.factorial(n)` with `s = np.cumsum(w)`; also through local names
    bound to either: `k = math.factorial(n)`, then `np.sum(x) / k`), else None. Arithmetic of such an int with Python
    values only (`math.comb(n, 2) * p`) stays Python and is no reason."""
    imported = absolute_imports(module, lambda name: name in UNBOUNDED_INTS or name == "math"  # (`import math as m`)
                                or name.split(".")[0] == "numpy")
    bound: dict[str, list[cst.BaseExpression]] = {}
    for assign in walk.nodes_of(function.body, cst.Assign):
        for target in assign.targets:  # type: ignore[attr-defined]
            if isinstance(target.target, cst.Name):
                bound.setdefault(target.target.value, []).append(assign.value)  # type: ignore[attr-defined]

    def qualified(func: cst.BaseExpression) -> str:
        name = dotted_name(func) if isinstance(func, (cst.Name, cst.Attribute)) else ""
        head, _, rest = name.partition(".")
        return (f"{imported[head]}.{rest}" if rest else imported[head]) if head in imported else name

    def direct(expr: cst.CSTNode, wanted: Callable[[str], bool]) -> Optional[cst.Call]:
        return next((n for n in walk.nodes(expr) if isinstance(n, cst.Call) and wanted(qualified(n.func))), None)

    if direct(function.body, UNBOUNDED_INTS.__contains__) is None:
        return None  # (nearly every function: nothing more to walk)

    def reaching(wanted: Callable[[str], bool]) -> dict[str, cst.Call]:
        """{local name: a call `wanted` takes that a value bound to the name holds, directly or through other
        names}: a fixpoint over the bindings, each walked once per round."""
        calls: dict[str, cst.Call] = {}
        changed = True
        while changed:
            changed = False
            for name, values in bound.items():
                if name in calls:
                    continue
                for value in values:
                    hit = direct(value, wanted) or next((calls[n.value] for n in walk.nodes(value)
                                                         if isinstance(n, cst.Name) and n.value in calls), None)
                    if hit is not None:
                        calls[name], changed = hit, True
                        break
        return calls

    def numpy(name: str) -> bool:
        return name.startswith("numpy.")

    big, arrays = reaching(UNBOUNDED_INTS.__contains__), reaching(numpy)

    def found(expr: cst.CSTNode, wanted: Callable[[str], bool], names: dict[str, cst.Call]) -> Optional[cst.Call]:
        """A call in `expr` that `wanted` takes, or one a local name in it is bound to (`names`)."""
        for node in walk.nodes(expr):
            if isinstance(node, cst.Call) and wanted(qualified(node.func)):
                return node
            if isinstance(node, cst.Name) and node.value in names:
                return names[node.value]
        return None

    for node in walk.nodes_of(function.body, cst.BinaryOperation):
        for side, other in ((node.left, node.right), (node.right, node.left)):  # type: ignore[attr-defined]
            call = found(side, UNBOUNDED_INTS.__contains__, big)
            if call is not None and found(other, numpy, arrays) is not None:
                return call
    return None


class NumpyBoundary:
    """The NumPy calls of one module that must stay NumPy (see the module's docstring), for one pass of `rule`."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        # NumPy calls whose result must stay a NumPy array, and why: written through (`np.einsum('ii->i', a)[:] =
        # v`), read as a buffer (`np.array(p).ctypes`), or passed as the `out=` of a call that stays NumPy
        self.kept: dict[cst.Call, str] = {}
        self._made: dict[cst.FunctionDef, set[str]] = {}
        self._timers: dict[cst.FunctionDef, Optional[str]] = {}
        self._unbounded: dict[cst.FunctionDef, Optional[cst.Call]] = {}
        self._computed: dict[cst.FunctionDef, dict[str, bool]] = {}
        self._aliases_found: dict[cst.FunctionDef, dict] = {}  # (`_aliased_callees`)
        self._objects: dict[cst.FunctionDef, frozenset[str]] = {}
        self._object_derived: dict[cst.FunctionDef, frozenset[str]] = {}
        self._buffer_reads: dict[cst.FunctionDef, dict[cst.Name, str]] = {}
        self._hashed_attributes: dict[cst.FunctionDef, Optional[str]] = {}
        self._items_written: dict[cst.FunctionDef, frozenset[str]] = {}
        self._texts: dict[cst.FunctionDef, dict[str, str]] = {}
        self._text_written_names: dict[cst.FunctionDef, dict[str, cst.CSTNode]] = {}
        self._foreign_casts: dict[cst.FunctionDef, Optional[str]] = {}
        self._source_tables: dict[cst.FunctionDef, _buffers.Sources] = {}
        self._needed_names: dict[cst.FunctionDef, dict[str, str]] = {}
        self._view_writes: dict[cst.FunctionDef, dict[cst.Call, list[tuple[str, str]]]] = {}
        self._fftpack_fed: dict[cst.FunctionDef, dict[str, cst.Call]] = {}
        self._polynomial_fed: dict[cst.FunctionDef, dict[Union[str, cst.CSTNode], str]] = {}
        self._polynomial_values: dict[cst.FunctionDef, Optional[tuple[Callable[[cst.BaseExpression], bool], frozenset[str]]]] = {}

    # ---- facts gathered while the rule visits ---------------------------------------------------------------
    def note_attribute(self, node: cst.Attribute) -> None:
        """`np.array(p).ctypes`: the call's result is read as a NumPy buffer."""
        if isinstance(node.value, cst.Call) and node.attr.value in BUFFER_ATTRIBUTES and not self._flat_rewritten(node):
            self.kept[node.value] = f"its `.{node.attr.value}` is a NumPy buffer, which JAX arrays do not have"
        elif isinstance(node.value, cst.Call) and node.attr.value in ("item", "tolist") \
                and walk.called_name(node.value) in ("array", "asarray", "asanyarray"):
            self.kept[node.value] = (f"`.{node.attr.value}()` of it makes a Python value on the host either way, and NumPy "
                                     "keeps the value's own type (a string, a float64), which a JAX array cannot hold")

    def note_call(self, node: cst.Call) -> None:
        """`f(..., out=np.empty(n))`: the call given as `out=` is written into. `np.array(x).view(np.matrix)`: the
        call's result becomes an instance of an array subclass."""
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in _buffers.OUT_KEYWORDS and isinstance(arg.value, cst.Call):
                self.kept[arg.value] = f"it is the `{arg.keyword.value}=` buffer of a call that writes into it"
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "view" and isinstance(func.value, cst.Call) \
                and any(_array_class(self.rule, arg) for arg in node.args):
            self.kept[func.value] = (f"`.view({self.rule.code(node.args[0].value)})` makes it an instance of a NumPy "
                                     "array subclass, which a JAX array cannot become")

    def note_assign(self, node: cst.Assign) -> None:
        """`np.einsum('ii->i', a)[:] = v`: the code writes through the view the call returns."""
        for target in node.targets:
            base = target.target
            while isinstance(base, cst.Subscript):
                base = base.value
            if isinstance(base, cst.Call) and base is not target.target:
                self.kept[base] = "the code writes through the view it returns"

    # ---- the answers ----------------------------------------------------------------------------------------
    def call_reason(self, node: cst.Call, qualified: str) -> Optional[Reason]:
        """Why the NumPy call `node` (the function `qualified`) must stay NumPy, or None. Hashed values come last:
        a reason that leaves the whole function (object data, say) must not be hidden by one that keeps this call."""
        return self._call_reason(node, qualified) or self._hashed_reason(node)

    def _unbounded_int(self, function: cst.FunctionDef) -> Optional[cst.Call]:
        if function not in self._unbounded:
            self._unbounded[function] = unbounded_int_arithmetic(self.rule.context.module, function)
        return self._unbounded[function]

    def _overflow_check(self, node: cst.Call) -> Optional[tuple[cst.BaseExpression, cst.Comparison]]:
        """(dtype, comparison) when `node` is given `dtype=` a name or attribute that is no NumPy dtype (a parameter:
        possibly a narrow integer type), is bound to a name, and an element of that binding (`t[-1]`) is compared
        with a Python number computed from a name the call is given (an expression of names and literals, no call,
        no item: `n - 1` of `np.arange(0, n, dtype=d)`); else None."""
        rule, function = self.rule, self.rule.current_function
        dtype = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "dtype"), None)
        if function is None or not isinstance(dtype, (cst.Name, cst.Attribute)) or numpy_name(rule, dtype) is not None \
                or isinstance(dtype, cst.Name) and dtype.value in _BUILTIN_DTYPES:
            return None
        parent = rule.get_metadata(ParentProvider, node, None)
        if not isinstance(parent, cst.Assign) or len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
            return None
        # the names the call is given values by (`n` of `np.arange(0, n, dtype=d)`): a check of the array against
        # a number computed from them (`t[-1] != n - 1`) is an overflow check (a literal fits any dtype)
        given = {n.value for a in node.args if a.keyword is None for n in walk.nodes_of(a.value, cst.Name)}  # type: ignore[attr-defined]
        flow = function_flow(rule, function)
        try:
            uses = flow.uses(parent, parent.targets[0].target.value)
        except KeyError:
            return None
        for use in uses:
            item = rule.get_metadata(ParentProvider, use, None)
            if not isinstance(item, cst.Subscript) or item.value is not use:
                continue
            test = rule.get_metadata(ParentProvider, item, None)
            if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1 or not isinstance(
                    test.comparisons[0].operator, (cst.Equal, cst.NotEqual, cst.LessThan, cst.GreaterThan,
                                                   cst.LessThanEqual, cst.GreaterThanEqual)):
                continue
            other = test.comparisons[0].comparator if test.left is item else test.left
            if other is not item and _python_number(other) and {n.value for n in walk.nodes_of(other, cst.Name)} & given:
                return dtype, test
        return None

    def _hashed_reason(self, node: cst.Call) -> Optional[Reason]:
        rule, func = self.rule, self.rule.code(node.func)
        if elements_hashed(rule, node):  # `set(np.unique(y))`, `for v in np.unique(y): counts[v] = ...`
            return (f"`{func}(...)` gives values used as set members or dict keys: the elements of a JAX array are "
                    "unhashable, so this call stays NumPy", False)
        outer = self._argument_of(node)
        if outer is not None and elements_hashed(rule, outer):  # `i = np.argmin(np.abs(d))`, then `s.remove(i)`
            return (f"`{func}(...)` feeds `{rule.code(outer.func)}(...)`, which stays NumPy (its values are used as set "
                    "members or dict keys): given a JAX array, a NumPy function gives a JAX array, so this call stays "
                    "NumPy too", False)
        fed = self._feeds_hashed(node)
        if fed is not None:  # `visited = np.zeros(n)`, then `set(np.nonzero(~visited)[0])` (pygsp)
            name, outer = fed
            return (f"`{func}(...)` makes `{name}`, which feeds `{rule.code(outer.func)}(...)`, which stays NumPy (its "
                    "values are used as set members or dict keys): given a JAX array, a NumPy function such as "
                    "`np.nonzero` calls the array's own method and gives a JAX array, so this call stays NumPy too", False)
        return None

    def _widened_update(self, node: cst.Call, function: cst.FunctionDef) -> Optional[tuple[str, cst.AugAssign, str]]:
        """(name, update, why) when `node` makes the array bound to `name` (`out = np.minimum(img, 250)`, also
        through arithmetic, a slice or a method of its result: `s = 10.0 * np.log10(x)`) and an augmented assignment
        `name op= value` reached by that binding (directly or after other such updates, which keep the array) may
        give a result of a wider dtype than the array's (`jaxfix.analysis.value_dtypes`): a result of a higher
        kind than the array's known one (a float into an integer array, `/=` on one), another known dtype
        (`float64` data into a `float32` array), or a value whose dtype the code chooses (`dtype=`, `.astype(...)`,
        `np.uint16(...)`) where the array's is not known to absorb it. NumPy casts the result back into the array,
        `jax.numpy` rebinds the name to the promoted array. Python scalars into an array of their kind or above,
        same-dtype values and values of unknown dtype into arrays of unknown dtype are not reported."""
        rule = self.rule
        value: cst.BaseExpression = node
        parent = rule.get_metadata(ParentProvider, node, None)
        while True:  # (`10.0 * np.log10(x)`, `np.minimum(a, b)[1:]`, `np.abs(a).reshape(n)`: still the call's kind)
            if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)) \
                    or isinstance(parent, cst.Subscript) and parent.value is value:
                value, parent = parent, rule.get_metadata(ParentProvider, parent, None)
            elif isinstance(parent, cst.Attribute) and parent.value is value and parent.attr.value not in ("item", "tolist") \
                    and isinstance(above := rule.get_metadata(ParentProvider, parent, None), cst.Call) and above.func is parent:
                value, parent = above, rule.get_metadata(ParentProvider, above, None)
            else:
                break
        if not isinstance(parent, cst.Assign) or len(parent.targets) != 1 \
                or not isinstance(parent.targets[0].target, cst.Name) or parent.value is not value:
            return None
        name = parent.targets[0].target.value
        flow = function_flow(rule, function)
        facts = function_facts(rule, function)
        array = dtype_of(facts, value)

        def step(bound: str, use: cst.CSTNode) -> tuple[Any, list[tuple[cst.CSTNode, str]]]:
            update = rule.get_metadata(ParentProvider, use, None)
            if isinstance(update, cst.Assign) and update.value is use and len(update.targets) == 1 \
                    and isinstance(update.targets[0].target, cst.Name):
                return None, [(update, update.targets[0].target.value)]  # `y = out`, then `y += v`: the same array
            if not isinstance(update, cst.AugAssign) or update.target is not use:
                return None, []
            why = _widening(facts, array, update)
            if why is not None:
                return (bound, update, why), []
            return None, [(update, bound)]  # (NumPy's update keeps the array: a later one updates the same)

        return _follow_uses(flow, parent, name, step)

    def _feeds_hashed(self, node: cst.Call) -> Optional[tuple[str, cst.Call]]:
        """(name, call) when `node` is bound to `name` (`visited = np.zeros(n)`) and a read of that binding is an
        argument, directly or through arithmetic (`~visited`), of a NumPy call whose elements are hashed (`set(np.nonzero(
        ~visited)[0])`), which JX501 keeps NumPy; else None."""
        rule, function = self.rule, self.rule.current_function
        value: cst.BaseExpression = node
        parent = rule.get_metadata(ParentProvider, node, None)
        # through a slice or arithmetic of the result (`bins = np.linspace(lo, hi, n + 1)[1:]`, then
        # `set(np.searchsorted(bins, x))`: tsfresh's lempel_ziv_complexity), still a NumPy array when the call is
        while isinstance(parent, (cst.Subscript, cst.BinaryOperation, cst.UnaryOperation)) \
                and (not isinstance(parent, cst.Subscript) or parent.value is value):
            value, parent = parent, rule.get_metadata(ParentProvider, parent, None)
        if function is None or not isinstance(parent, cst.Assign) or len(parent.targets) != 1 \
                or not isinstance(parent.targets[0].target, cst.Name) or parent.value is not value:
            return None
        name = parent.targets[0].target.value
        flow = function_flow(rule, function)
        # the binding, then the names bound to a read of it as it is, a slice of it or arithmetic on it (`b2 = bins`,
        # `bins = bins[1:]`); a read is fed to a NumPy call (`np.searchsorted(bins[1:], x)`) or calls an array
        # method (`bins.searchsorted(x)`) whose elements are hashed
        def step(bound: str, use: cst.CSTNode) -> tuple[Any, list[tuple[cst.CSTNode, str]]]:
            read, above = use, rule.get_metadata(ParentProvider, use, None)
            while isinstance(above, (cst.Subscript, cst.BinaryOperation, cst.UnaryOperation)) \
                    and (not isinstance(above, cst.Subscript) or above.value is read):
                read, above = above, rule.get_metadata(ParentProvider, above, None)
            outer = self._argument_of(read)  # type: ignore[arg-type]
            if outer is not None and (numpy_name(rule, outer.func) or "").startswith("numpy.") \
                    and elements_hashed(rule, outer):
                return (name, outer), []
            if isinstance(above, cst.Attribute) and above.value is read and above.attr.value not in ("tolist", "item"):
                method = rule.get_metadata(ParentProvider, above, None)
                if isinstance(method, cst.Call) and method.func is above and elements_hashed(rule, method):
                    return (name, method), []
            if isinstance(above, cst.Assign) and above.value is read and len(above.targets) == 1 \
                    and isinstance(above.targets[0].target, cst.Name):
                return None, [(above, above.targets[0].target.value)]
            return None, []

        return _follow_uses(flow, parent, name, step)

    def _call_reason(self, node: cst.Call, qualified: str) -> Optional[Reason]:
        rule, func = self.rule, self.rule.code(node.func)
        text = self._text_of(node)
        if text is not None:  # `repr(np.round(row, 3))[7:-2]`: astropy's covariance table
            return (f"`{func}(...)` goes straight into `{text}(...)`: the text of a JAX array differs (its repr names the "
                    "dtype and the class), and text needs a concrete value anyway; this call stays NumPy", False)
        sorter = self._sorted_with_numpy_keyword(node)
        if sorter is not None:  # `np.cumsum(y).argsort(kind="stable")`
            return (f"`{func}(...)` is {'sorted with' if 'sort' in sorter or 'partition' in sorter else 'given to'} "
                    f"`{sorter}`, a keyword the JAX array method rejects (`TypeError`): this call stays NumPy", False)
        function = rule.current_function
        if qualified == "numpy.ix_" and function is not None:
            facts = function_facts(rule, function)
            mask = next((a.value for a in node.args if not a.star and facts.is_mask(a.value)), None)
            if mask is not None:  # `np.ix_(rows, cols)` of boolean masks (emd's frequency and time selections)
                return (f"`{func}(...)` is given a boolean mask (`{rule.code(mask)}`), which NumPy turns into the "
                        "indices of its True items and `jnp.ix_` rejects (`NotImplementedError`); its size depends on "
                        "the values, so under `jit` it needs concrete masks anyway: this call stays NumPy", False)
        checked = self._overflow_check(node) if function is not None else None
        if checked is not None:  # `t = np.arange(0, n, dtype=dtype)`, then `if t[-1] != n - 1:` (emd's get_timeline)
            return (f"`{func}(...)` makes an array of the dtype `{rule.code(checked[0])}` the caller chooses, and "
                    f"`{rule.code(checked[1])}` compares an element of it with a Python number: NumPy compares the "
                    "exact values (a narrow integer dtype's overflow shows), JAX first casts the number to the array's "
                    "dtype, where it wraps the same way, so the check never fires; this call stays NumPy", False)
        if function is not None and function.name.value in NUMPY_PROTOCOL:
            return (f"`{func}(...)` is in `{function.name.value}`, which NumPy calls and which must give a NumPy array "
                    "(`np.asarray(obj)` raises for a JAX array there): it stays NumPy", True)
        if function is not None and HOST_CONVERTER.search(function.name.value.lower()):
            return (f"`{func}(...)` is in `{function.name.value}`, whose name says it hands back NumPy arrays (host "
                    "data for code that wants NumPy): it stays NumPy", True)
        big = self._unbounded_int(function) if function is not None else None
        if big is not None:
            return (f"`{func}(...)` is in a function that computes with `{rule.code(big)}`, a Python int of any size: "
                    "NumPy takes one past 64 bits in arithmetic with an array (as a float), a JAX array raises "
                    "`OverflowError` converting it; this function is left as it is", True)
        worker = self._numpy_only.pools.worker(function.name.value) if function is not None else None
        if worker is not None:  # `pool.map(f, chunks)`: `f` runs in forked workers (pyswarms' objective functions)
            return (f"`{func}(...)` is in `{function.name.value}`, which worker processes run (`{worker}`): JAX's runtime "
                    f"does not survive the fork that starts a worker, and `jax.numpy` code there hangs; this function "
                    "is left as it is", True)
        for find, why in (
            (self._timer, "is in a function that stores clock readings in an array (`{}`): timing data, and JAX runs "
             "array work asynchronously, so its cost would land in other intervals; timing code stays NumPy"),
            (self._array_subclass, "is in `{}`, a NumPy array type of its own (an `np.ndarray` subclass, or one that "
             "takes part in NumPy's dispatch): JAX arrays cannot be subclassed or viewed as it; the class stays NumPy"),
            (self._sequence_class, "is in a class whose `__getitem__` indexes `{}`: NumPy iterates over such an object "
             "until an index past the end raises `IndexError`, which a JAX array never raises (it clamps the index), "
             "so the iteration would never end; the class stays NumPy"),
            (self._hashed_attribute, "is in a method that sets `{}`, which the class's `__hash__` hashes: a NumPy "
             "scalar is hashable, a JAX array is not; this method stays NumPy"),
        ):
            found = find()
            if found is not None:
                return f"`{func}(...)` " + why.format(found), True
        kept = self.kept.get(node)
        if kept is not None:
            return f"`{func}(...)` must stay NumPy: {kept}; this function is left as it is", True
        repeats = repeats_a_list(rule, node, function)
        if repeats is not None:
            return (f"`{func}(...)` gives `{repeats}`, which repeats a Python list (`list * {repeats}`): that takes a "
                    "Python int, which a NumPy integer is and a JAX array is not; this call stays NumPy", False)
        listed = self._written_item(node, function)
        if listed is not None:
            return (f"`{func}(...)` makes an item of the list `{listed}` (or a value one is computed from), which the "
                    f"code writes into (`{listed}[i][...] = ...`): a JAX array cannot be written into; this call stays NumPy", False)
        widened = self._widened_update(node, function) if function is not None else None
        if widened is not None:  # `out = np.minimum(img, 250)`, then `out += np.asarray(o, dtype=np.uint16)`
            name, update, why = widened
            return (f"`{func}(...)` makes `{name}`, which `{rule.code(update).strip()}` updates in place with a value "
                    f"that may have a wider dtype ({why}): NumPy's in-place operator keeps `{name}`'s dtype (it casts "
                    f"the result back, wrapping integers, or raises for a float into an integer array), while for a "
                    f"JAX array it rebinds `{name}` to the promoted dtype: different values, no error. Where the cast is "
                    f"meant, write `{name} = ({name} {_OPERATORS.get(type(update.operator), '+')}"
                    f" ...).astype({name}.dtype)` by hand (unsafe: `astype` truncates a float into an integer dtype "
                    f"where NumPy raises); this function is left as it is (a JAX value in the update would rebind "
                    f"`{name}` too)", True)
        parent = rule.get_metadata(ParentProvider, node, None)
        if function is not None and isinstance(parent, cst.Subscript) and parent.value is node \
                and any(isinstance(e.slice, cst.Index) for e in parent.slice):
            caller = caller_catching(rule, function)  # `return np.cumsum(a)[i]` in a function called in such a `try`
            if caller is not None:
                return (f"`{func}(...)` is indexed in a function that {caller} calls in a `try` that catches "
                        "`IndexError`: NumPy raises `IndexError` for an index out of bounds, a JAX array clamps the "
                        "index and never raises; this function is left as it is"), True
        if function is not None and _raises_out_of_bounds(node, qualified, parent):
            # `np.take(c, i)`, `np.cumsum(a).take(i)` in a `try` that catches `IndexError`, or in a function called there
            around = sorted(caught_around(rule, node) & OUT_OF_BOUNDS_CATCHERS)
            caller = f"sits in a `try` that catches `{around[0]}`" if around else None
            if caller is None:
                caller = caller_catching(rule, function)
                caller = f"is in a function that {caller} calls in a `try` that catches `IndexError`" if caller else None
            if caller is not None:
                taken = isinstance(parent, cst.Attribute) and parent.value is node
                return (f"`{func}(...){'.take(...)' if taken else ''}` {caller}: NumPy raises `IndexError` for an index out of bounds there, JAX never "
                        "does (`jnp.take` fills with nan, an update out of bounds is dropped); this function is left as "
                        "it is"), True
        buffer = self._read_as_buffer(node, function)
        if buffer is not None:
            return (f"`{func}(...)` must stay NumPy: its result reaches `{buffer[0]}`, which {buffer[1]}; this function is "
                    "left as it is"), True
        flat = next((a.value for a in node.args if _flat_iterator(a.value, function_facts(rule, function))), None) \
            if function is not None else None
        if flat is not None:  # `np.dot(X.flat, b)`: NumPy converts the iterator, `jnp.dot` raises `TypeError`
            return (f"`{func}(...)` is given `{rule.code(flat)}`, a NumPy flat iterator, which `jax.numpy` rejects: this "
                    "call stays NumPy", False)
        generator = next((a.value for a in node.args if isinstance(a.value, cst.GeneratorExp)), None)
        if generator is not None:  # `np.all(isinstance(v, int) for v in values)` (pywt's FswavedecnResult)
            return (f"`{func}(...)` is given a generator expression, which NumPy takes as one object (`np.all` of it is "
                    "always True) and `jax.numpy` rejects (`TypeError`): this call stays NumPy; pass a list if the items "
                    "were meant", False)
        if qualified.startswith("numpy.linalg.") and caught_around(rule, node) & LINALG_ERRORS:
            return (f"`{func}(...)` sits in a `try` that catches `LinAlgError`: its `jax.numpy` namesake never raises "
                    "(a singular matrix gives inf or nan), so the `except` branch would silently stop running: this "
                    "function is left as it is (check the result with `jnp.isfinite` instead, by hand)", True)
        caller = caller_catching(rule, function, _LINALG_CATCHERS) \
            if function is not None and qualified.startswith("numpy.linalg.") else None
        if caller is not None:  # `try: w = solve(a, b)` / `except LinAlgError:` in a caller of this function
            return (f"`{func}(...)` is in a function that {caller} calls in a `try` that catches `LinAlgError`: its `jax.numpy` "
                    "namesake never raises (a singular matrix gives inf or nan), so the `except` branch would silently "
                    "stop running: this function is left as it is", True)
        caught = caught_around(rule, node)
        specific = sorted(caught & CALL_ERRORS)
        if specific and not caught & {"Exception", "BaseException"}:
            return (f"`{func}(...)` sits in a `try` that catches `{specific[0]}`: `jax.numpy` raises other exceptions than "
                    "NumPy for the same bad input (`np.hstack` of a 0-d array raises `TypeError`, `jnp.hstack` "
                    "`ValueError`; `jnp.asarray` of text raises `TypeError`, not `ValueError`), so the `except` branch "
                    "could stop running: this function is left as it is", True)
        caller = caller_catching(rule, function, _CALL_CATCHERS, direct=True) if function is not None and not caught else None
        if caller is not None:  # `try: f.eval(x0)` / `except ValueError:` in a caller (pyunlocbox's douglas_rachford)
            return (f"`{func}(...)` is in a function that {caller} calls in a `try` that catches `ValueError`, `TypeError` "
                    "or `AxisError`: `jax.numpy` raises other exceptions than NumPy for the same bad input (a broadcast "
                    "mismatch is a `ValueError` in NumPy, a `TypeError` in JAX), so the `except` branch could stop "
                    "running: this function is left as it is", True)
        if qualified.startswith("numpy.ma."):
            return (f"`{func}` makes or uses a NumPy masked array, which JAX has no counterpart for (JAX functions "
                    "reject them): this function is left as it is", True)
        name = qualified.split(".")[-1]
        buffer = _typed_buffer(node, name)
        if buffer is not None:
            return (f"`{func}(..., {buffer})` asks for a typed buffer in a set memory layout, what compiled code (C, "
                    "Cython, Fortran) takes: a JAX array has no layout, is 32-bit by default, and such code rejects it; "
                    "this function is left as it is", True)
        dtype = foreign_dtype(rule, node, name) if name not in HOST_ONLY else None
        if dtype is not None:
            return (f"`{func}(...)` asks for the dtype `{dtype}`, which JAX arrays cannot hold (JAX has numbers and "
                    "bools in native byte order only: no strings, objects, records, dates, swapped bytes or extended "
                    "precision): this function is left as it is", True)
        typed = self._typed_argument(node, function)
        if typed is not None:
            return f"`{func}(...)` {typed}: this call stays NumPy", False
        sparse = self._sparse_meeting(node, function)
        if sparse is not None:
            return f"`{func}(...)` {sparse}; this call stays NumPy", False
        fftpack = self.host_meeting(node, function)
        if fftpack is not None:
            return f"`{func}(...)` {fftpack}; this call stays NumPy", False
        written = self._text_written(node, function)
        if written is not None:
            return (f"`{func}(...)` {written}: NumPy parses the text into the array's numbers, a JAX array's `.at[].set` "
                    "rejects text (`TypeError`): this function is left as it is", True)
        cast = (self._text_cast(node, function) if name in FROM_DATA else None) or self._foreign_cast(function)
        if cast is not None:
            return (f"`{func}(...)` {cast}: the array may hold text, objects or records, which JAX arrays cannot "
                    "(NumPy makes a string, object or structured array; JAX has no such dtypes, and its `astype` and "
                    "`view` raise for them): this function is left as it is", True)
        if name not in DTYPE_FUNCTIONS:
            facts = function_facts(rule, rule.current_function)
            strings = object_data(node, facts.bindings, facts.params, rule.current_function, facts.unpacked)
            if strings is None and name in FROM_DATA:
                held = self._documented_objects(rule.current_function)
                named = next((a.value.value for a in node.args if isinstance(a.value, cst.Name) and a.value.value in held), None)
                if named is not None:
                    return (f"`{func}(...)` is given `{named}`, which the docstring says may be text or another "
                            "object: NumPy makes a string or object array of it, which JAX arrays cannot hold: "
                            "this function is left as it is", True)
            if strings is not None:
                return (f"`{func}(...)` is given string, `None` or object data (`{strings}`): NumPy makes a string or "
                        "object array of it, which JAX arrays cannot hold: this function is left as it is", True)
            read = object_elements(rule, node, function) if function is not None else None
            if read is not None:
                return (f"`{func}(...)` makes an array whose elements the function reads as objects (`{read}`, an "
                        "attribute no number has): NumPy makes an object array of them, which JAX arrays cannot hold: "
                        "this function is left as it is", True)
            text = text_argument(node, qualified.partition(".")[2])
            if text is not None:  # `np.array_equal(w, "D65")`: colorspacious' whitepoint names
                return (f"`{func}(...)` is given the text `{rule.code(text)}` where its `jax.numpy` namesake takes "
                        "numbers only (it raises `TypeError`; NumPy compares or stores it as a string): this call stays "
                        "NumPy", False)
            fed = self._text_fed_argument(node, qualified.partition(".")[2], function)
            if fed is not None:  # `safe_equal(white, "D65")` somewhere in the module (or another of the run)
                return (f"`{func}(...)` is given `{fed}`, which a call in {self._fed_where('text', function, fed)} "  # type: ignore[arg-type]
                        "passes text, where its `jax.numpy` "
                        "namesake takes numbers only (it raises `TypeError`; NumPy compares or stores it as a string): "
                        "this call stays NumPy", False)
            fed = self._object_fed_argument(node, function)
            if fed is not None and fed[1] == "self":  # `np.multiply(o, o)`, `o = nt * self.S[i]` (pysal's giddy)
                return (f"`{func}(...)` works on {fed[0]}, which a method of the class binds to a NumPy array of "
                        "objects or text (`dtype=object`), which JAX arrays cannot hold: its `jax.numpy` namesake "
                        "rejects it (`TypeError`): this function is left as it is", True)
            if fed is not None:  # `reshape_z(np.array([None] * dim_z), dim_z)` in the module or another (filterpy)
                shown, param = fed
                return (f"`{func}(...)` works on {shown}, which a call in {self._fed_where('object', function, param)} "  # type: ignore[arg-type]
                        "passes a value JAX arrays cannot "
                        "hold (a NumPy array of objects or text such as `np.array([None] * n)`, a `Decimal`, a masked "
                        "array or a function): its `jax.numpy` namesake rejects it: this function is left as it is", True)
        clock = clock_data(rule, node)
        if clock is not None:
            return (f"`{func}(...)` is given times as numbers (`{clock}`, about 1.7e9 s since 1970): as float32 they "
                    "are resolved to about 2 minutes, so their differences vanish; this call stays NumPy (time on "
                    "the host)", False)
        return None

    def filled_reason(self, call: cst.Call) -> Optional[str]:
        """Why a NumPy array made in this function, which `call` hands to code that writes into it, must stay NumPy
        (the function's other fixes are then held back), or None."""
        rule, func = self.rule, self.rule.code(call.func)
        compiled = numba_argument(rule, call, self._numba)
        if compiled is not None:
            return (f"`{func}` is compiled by numba, which takes NumPy arrays only, and `{compiled}` is a NumPy array "
                    "made here: it must stay NumPy, so this function is left as it is")
        shuffled = shuffled_array(rule, call)
        if shuffled is not None:
            return (f"`{func}` shuffles `{shuffled}` in place, and `{shuffled}` is a NumPy array made here: it must "
                    "stay NumPy (a JAX array cannot be written into), so this function is left as it is")
        if rule.current_function is not None:
            flowing = self._flowing_attributes
            stored = _caller_writes.stored_by_constructor(
                rule, call, self._constructors, self.made_here(rule.current_function), self._mutated_attributes,
                self._stored_flows if flowing else {}, flowing)
            if stored is not None:
                return stored
        # `x.sum(axis=0, out=o)`, `ndimage.uniform_filter1d(x, 3, output=o)`: a method, or a function that is not
        # NumPy's (a third-party or compiled one, which writes into the buffer it is given: pyroomacoustics' smoothing),
        # or any other callable (`functions[i](res[i], out=res[i])`, a ufunc picked from a list: skfda); the buffer
        # an item or view of an array made here (`out=res[i]`) too
        for how, out in _buffers.given_outputs(call, self._ndimage):  # (or by position: `convolve(x, w, o)`)
            root = _buffers.root_name(out)
            if root is not None and rule.current_function is not None \
                    and not (isinstance(call.func, (cst.Attribute, cst.Name)) and numpy_name(rule, call.func) is not None) \
                    and (root in self.made_here(rule.current_function) or root in self.computed_here(rule.current_function)):
                is_made = root in self.made_here(rule.current_function)
                what = "a NumPy array made here" if is_made else "an array computed here"
                # (`out=(yn, ynp)`: the tuple of outputs it is an item of, shown whole)
                shown = next((rule.code(a.value).strip() for a in call.args if isinstance(a.value, (cst.Tuple, cst.List))
                              and any(e.value is out for e in a.value.elements)), rule.code(out).strip())
                head = f"`{func}(..., {how}{shown})`" if how.endswith("=") else \
                    f"`{func}(...)`, given `{shown}` as its output by position,"
                return (f"{head} writes into `{root}`, {what}: it must stay NumPy (a JAX array cannot be written "
                        "into, and JAX methods take no `out=`), so this function is left as it is")
        filled = self._discarded_fill(call)
        if filled is not None:
            return filled
        writers, private = self._buffer_callees
        # a function known to write through its parameter: any array this function computes, a call's result
        # included (`d = self.dens(X)`); a private module taken for a compiled one: arrays made with NumPy only
        if writers and rule.current_function is not None:  # `inverse = partial(waverec, **kw)`, then `inverse(tmp)`
            aliased = self._aliased_callees(rule.current_function, writers)
            writers = {**writers, **aliased} if aliased else writers
        found = [(name, why, True) for name, why in _buffers.filled_arguments(call, writers, set())] if writers else []
        library = c_function(rule.context, call)
        if library is not None:  # `clib.recstalta(a, out, n)`: ctypes hands the C code the array's memory
            found += [(name, f"`{library}` is a C function called through ctypes, which needs a NumPy array as each "
                             "argument (a JAX array raises `ctypes.ArgumentError`) and may write into it", False)
                      for name in _buffers.handed_arrays(call)]
        if private:
            found += [(name, why, False) for name, why in _buffers.filled_arguments(call, {}, private)]
        function = rule.current_function
        if self._views and function is not None:  # `diag_view(r2)[:] = 0.0`: a write into what it is given
            found += [(name, why, True) for name, why in self._written_views(function).get(call, ())]
        if not found:
            return None
        made, computed = self.made_here(function), self.computed_here(function)
        # made in the call itself, by a NumPy call or arithmetic on one (`fill(np.sqrt(r) / 2)`), or a display holding
        # one (`rebuild([np.zeros(n), x])`, to a parameter whose items reach a call that needs NumPy)
        made_in_call = {rule.code(a.value) for a in call.args if isinstance(a.value, (cst.Call, cst.BinaryOperation, cst.UnaryOperation,
                                                                                       cst.List, cst.Tuple))
                        and any(isinstance(n, cst.Call) and numpy_name(rule, n.func) for n in walk.nodes(a.value))}
        arguments = {rule.code(a.value): a.value for a in call.args}

        def here(name: str, known: bool) -> bool:
            return name in made or name in computed and (known or not computed[name])

        def cannot(why: str) -> str:
            """What a JAX array cannot do there: be written into, or be what the callee needs (`_buffers._why`)."""
            return "a JAX array cannot go there" if "needs a NumPy array as" in why else "a JAX array cannot be written into"

        for name, why, known in found:
            if name in made_in_call:
                return (f"{why}, and `{name}` makes a NumPy array for it: it must stay NumPy ({cannot(why)}), so "
                        "this function is left as it is")
            if here(name, known):
                what = "a NumPy array made here" if name in made else "an array computed here"
                return (f"{why}, and `{name}` is {what}: it must stay NumPy ({cannot(why)}), so this function is "
                        "left as it is")
        for name, why, known in found if function is not None else ():
            # computed from one through arithmetic, indexing or an array's methods (`s = r[1:]`, `fill(r * 2)`, with
            # `r = np.sqrt(d)`), for a function of the module known to need a NumPy array there (a private module
            # may only read what it is given: its own arguments are enough)
            value = cst.Name(name) if name.isidentifier() else arguments.get(name)
            source = next((n for n in sorted(self._sources(function).of(value)) if here(n, known)), None) \
                if known and value is not None else None
            if source is not None:
                return (f"{why}, and `{name}` is computed from `{source}`, an array computed here: it must stay NumPy "
                        f"({cannot(why)}), so this function is left as it is")
        return None

    def _aliased_callees(self, function: cst.FunctionDef, writers: dict) -> dict:
        """`_buffers.aliased_callees` of `function` (found once per function)."""
        found = self._aliases_found.get(function)
        if found is None:
            found = self._aliases_found[function] = _buffers.aliased_callees(function, writers, self._imported)
        return found

    def _discarded_fill(self, call: cst.Call) -> Optional[str]:
        """`reproject(src[i], out[i, :, :], ...)` as a statement of its own: a function imported from another
        library (not NumPy's, nor a plotting or logging one), whose result is dropped, given a slice of an array
        made here: it is there to be filled (pysteps' `reproject_grids` with rasterio's `reproject`: the JAX slice
        was a copy, and the result stayed zeros, silently)."""
        rule, function = self.rule, self.rule.current_function
        if function is None or not isinstance(rule.get_metadata(ParentProvider, call, None), cst.Expr):
            return None
        if not isinstance(call.func, (cst.Name, cst.Attribute)) or numpy_name(rule, call.func) is not None:
            return None
        root, _, _ = dotted_name(call.func).partition(".")
        source = self._imported.get(root)
        if source is None or source.split(".")[0] in _NOT_FILLING:
            return None
        made = self.made_here(function)
        for arg in call.args:
            value = arg.value
            if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and value.value.value in made \
                    and any(isinstance(e.slice, cst.Slice) for e in value.slice):
                shown = rule.code(value).strip()
                return (f"`{rule.code(call.func)}(...)` is given `{shown}`, a slice of a NumPy array made here, and its "
                        "result is dropped: it is there to be filled, which a JAX array's slice (a copy) would not be; "
                        f"`{value.value.value}` must stay NumPy, so this function is left as it is")
        return None

    @functools.cached_property
    def _imported(self) -> dict[str, str]:
        return imported_as(self.rule.context.module)

    def _sources(self, function: cst.FunctionDef) -> _buffers.Sources:
        """`_buffers.Sources` of `function`, NumPy calls told by their qualified names (found once per function)."""
        found = self._source_tables.get(function)
        if found is None:
            found = self._source_tables[function] = _buffers.Sources(
                function, lambda func: numpy_name(self.rule, func) is not None)
        return found

    def needed_from(self, function: cst.FunctionDef, name: str) -> Optional[str]:
        """Why what `function` computes from its name `name` (a parameter: JX304 asks it before converting one first
        in the function with `jnp.asarray`) must stay NumPy, else None: an argument computed from `name` (directly,
        through arithmetic, indexing or local names: `_buffers.Sources`) goes to a call `filled_reason` reads as
        writing into it or needing a NumPy array: a function of the module written through its parameter (`one(a -
        b, 0.0)` with `one` doing `a[a < 0] = 0`: SciPy's `ttest_rel`), a private compiled module, a C function
        through ctypes, a numba-compiled function, a view written into, an `out=` of a function not NumPy's, a
        `.shuffle`. The parameter as given keeps that code NumPy (which reads a list as an array); converted to a
        JAX array it makes JX501 leave the function, and the callee then gets a JAX array it cannot write into."""
        found = self._needed_names.get(function)
        if found is None:
            found = self._needed_names[function] = {}
            sources = self._sources(function)
            for call in walk.nodes_of(function.body, cst.Call):
                for value, shown, why in self._needing_arguments(call, function):  # type: ignore[arg-type]
                    for source in sources.of(value):
                        found.setdefault(source, f"`{shown}` is computed from it, and {why}")
        return found.get(name)

    def _needing_arguments(self, call: cst.Call, function: cst.FunctionDef) -> list[tuple[cst.BaseExpression, str, str]]:
        """(argument, as written, why) for each argument of `call` that must be a NumPy array (`needed_from`)."""
        rule, func = self.rule, self.rule.code(call.func)
        arguments = {rule.code(a.value): a.value for a in call.args}
        found: list[tuple[cst.BaseExpression, str]] = []  # (argument, why)
        if isinstance(call.func, cst.Name) and call.func.value in self._numba or isinstance(call.func, cst.Attribute) \
                and isinstance(call.func.value, cst.Name) and f"self.{call.func.attr.value}" in self._numba:
            found += [(a.value, f"`{func}` is compiled by numba, which takes NumPy arrays only") for a in call.args]
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "shuffle" and call.args \
                and numpy_name(rule, call.func) is None:
            found.append((call.args[0].value, f"`{func}` shuffles it in place"))
        if not (isinstance(call.func, (cst.Attribute, cst.Name)) and numpy_name(rule, call.func) is not None):
            found += [(out, f"`{func}(..., {how}...)` writes into it") for how, out in _buffers.given_outputs(call, self._ndimage)]
        writers, private = self._buffer_callees
        if writers:
            aliased = self._aliased_callees(function, writers)
            writers = {**writers, **aliased} if aliased else writers
        named = _buffers.filled_arguments(call, writers, private) if writers or private else []
        library = c_function(rule.context, call)
        if library is not None:
            named += [(shown, f"`{library}` is a C function called through ctypes, which needs a NumPy array")
                      for shown in _buffers.handed_arrays(call)]
        if self._views:
            named += list(self._written_views(function).get(call, ()))
        shown = [(value, rule.code(value).strip(), why) for value, why in found]
        for text, why in named:  # (a name, or an argument as written)
            value = arguments.get(text) or (cst.Name(text) if text.isidentifier() else None)
            if value is not None:
                shown.append((value, text, why))
        return shown

    def written_through(self, node: cst.Call) -> bool:
        """Whether the call's result is indexed as an assignment target (`np.einsum(...)[:] -= 1`, `np.diagonal(a)[0]
        = v`): a write through a view (scikit-rf's circuits)."""
        subscript = self.rule.get_metadata(ParentProvider, node, None)
        if not isinstance(subscript, cst.Subscript) or subscript.value is not node:
            return False
        holder = self.rule.get_metadata(ParentProvider, subscript, None)
        return isinstance(holder, cst.AssignTarget) or isinstance(holder, cst.AugAssign) and holder.target is subscript

    def stored_reason(self, node: cst.Assign) -> Optional[str]:
        """`self.D = D` with `D = np.empty(...)` made here, where code elsewhere in the module writes into `.D` in
        place (a write that stays NumPy): why `D` must stay a NumPy array (the function is held back), or None."""
        rule, function = self.rule, self.rule.current_function
        if function is None or not any(isinstance(t.target, cst.Attribute) for t in node.targets):
            return None
        value = node.value
        created = isinstance(value, cst.Name) and value.value in self.made_here(function) or isinstance(value, cst.Call) \
            and (numpy_name(rule, value.func) or "").split(".")[-1] in CREATION
        # made with NumPy at all: any NumPy call or arithmetic (`self.p = np.where(self.p == 0, 0, p)`, then
        # `normalize(self.p)` elsewhere), a copy of one (`dc(np.atleast_2d(x))`), or a name bound to one; for a write
        # that is certain (not a private module's call, which may only read the attribute)
        made = created or isinstance(value, cst.Name) and value.value in self.computed_here(function) or isinstance(
            value, cst.Call) and (numpy_name(rule, value.func) is not None or any(
                isinstance(a.value, cst.Call) and numpy_name(rule, a.value.func) is not None for a in value.args)) \
            or isinstance(value, (cst.BinaryOperation, cst.UnaryOperation)) or self._derived_here(value, function)
        if not made:
            return None
        elsewhere = (self.rule.context.project_facts(self.rule.CODE) or {}).get("attributes", {})
        for target in node.targets:
            attr = target.target.attr.value if isinstance(target.target, cst.Attribute) else None
            found = self._written_attributes.get(attr) if attr is not None else None
            if found is None and created and attr is not None:
                found = self._mutated_attributes.get(attr)
            if found is not None:
                where = rule.code(found).strip().splitlines()[0]
                return (f"`{rule.code(target.target)}` is written into in place elsewhere in the module (`{where}`), "
                        "which stays NumPy: the array stored here must stay a NumPy array, so this function is left "
                        "as it is")
            fed = self._fed_attributes.get(attr) if attr is not None and attr not in self._mutated_attributes else None
            if fed is not None:
                where = rule.code(fed).strip().splitlines()[0]
                return (f"`{rule.code(target.target)}` feeds an in-place update of an array that must stay NumPy "
                        f"(`{where}`): given a JAX value, NumPy's operator returns NotImplemented and Python rebinds the "
                        "target to a new JAX array instead of writing into it, so the array stored here must stay a NumPy "
                        "array, and this function is left as it is")
            flow = self._flowing_attributes.get(attr) if attr is not None else None
            if flow is not None:
                where = rule.code(flow[0]).strip().splitlines()[0]
                return (f"`{rule.code(target.target)}` reaches {flow[1]} elsewhere in the module (`{where}`): the "
                        "array stored here must stay a NumPy array, so this function is left as it is")
            sorter = self._sorted_attributes.get(attr) if attr is not None else None
            if sorter is not None:
                return (f"`{rule.code(target.target)}` is sorted elsewhere in the module with `{rule.code(sorter).strip()}`, "
                        "a keyword the JAX array method rejects (`TypeError`): the array stored here must stay a NumPy "
                        "array, so this function is left as it is")
            compiled = self._numba_attributes.get(attr) if attr is not None else None
            if compiled is not None:
                return (f"`{rule.code(target.target)}` is handed to `{compiled}`, which numba compiles and which takes NumPy "
                        "arrays only: the array stored here must stay a NumPy array, so this function is left as it is")
            if attr is not None and attr in elsewhere:
                return (f"`.{attr}` is written into in place in the package (in `{elsewhere[attr]}`), which stays NumPy: the "
                        "array stored here must stay a NumPy array, so this function is left as it is")
        return None

    def _derived_here(self, value: cst.BaseExpression, function: cst.FunctionDef) -> bool:
        """Whether `value` is an array of this function's by an array method, indexing or a view attribute (`x.copy()`,
        `x[0]`, `x.T` with `x = np.zeros(2)` made here, or computed here): it is what `x` is, a JAX array once `x`
        is (filterpy's IMM `m.x = x.copy()`, then `self.x += m.x * 0.5` rebinds a NumPy `self.x` to a JAX array)."""
        while True:
            if isinstance(value, cst.Subscript) or isinstance(value, cst.Attribute) and value.attr.value in _buffers.ARRAY_ATTRIBUTES:
                value = value.value
            elif isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                    and hasattr(np.ndarray, value.func.attr.value) and value.func.attr.value not in ("tolist", "item"):
                value = value.func.value
            else:
                break
        if isinstance(value, cst.Call):  # `np.asarray(x0, dtype=float).copy()`: a NumPy call's array (pyunlocbox)
            return numpy_name(self.rule, value.func) is not None
        return isinstance(value, cst.Name) and (value.value in self.made_here(function) or value.value in self.computed_here(function))

    def _sorted_with_numpy_keyword(self, node: cst.Call) -> Optional[str]:
        """The code of `.argsort(kind=...)` (`_buffers.numpy_only_keyword`) when `node` is its receiver, else None."""
        attribute = self.rule.get_metadata(ParentProvider, node, None)
        if not isinstance(attribute, cst.Attribute) or attribute.value is not node:
            return None
        call = self.rule.get_metadata(ParentProvider, attribute, None)
        if not isinstance(call, cst.Call) or call.func is not attribute:
            return None
        given = _buffers.numpy_only_keyword(call)
        return None if given is None else f".{attribute.attr.value}(..., {given}=...)"

    @functools.cached_property
    def _sorted_attributes(self) -> dict[str, cst.Call]:
        """{attribute: the call} for the attributes the module sorts with a keyword only NumPy's `argsort` takes
        (`self.x.argsort(kind="stable")`)."""
        found: dict[str, cst.Call] = {}
        for call in walk.nodes_of(self.rule.context.module, cst.Call):
            func = call.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute) \
                    and _buffers.numpy_only_keyword(call) is not None:  # type: ignore[arg-type]
                found.setdefault(func.value.attr.value, call)  # type: ignore[arg-type]
        return found

    def _text_of(self, node: cst.Call) -> Optional[str]:
        """`repr` or `str` when `node` is their argument, else None."""
        arg = self.rule.get_metadata(ParentProvider, node, None)
        call = self.rule.get_metadata(ParentProvider, arg, None) if isinstance(arg, cst.Arg) else None
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value in ("repr", "str"):
            return call.func.value
        return None

    def _argument_of(self, node: cst.BaseExpression) -> Optional[cst.Call]:
        """The call whose argument `node` is, directly or through arithmetic (`np.argmin(np.abs(d) + 1)`), else None."""
        current = self.rule.get_metadata(ParentProvider, node, None)
        while isinstance(current, (cst.Arg, cst.BinaryOperation, cst.UnaryOperation)):
            parent = self.rule.get_metadata(ParentProvider, current, None)
            if isinstance(current, cst.Arg):
                return parent if isinstance(parent, cst.Call) else None
            current = parent
        return None

    def _flat_rewritten(self, node: cst.Attribute) -> bool:
        """`x.flat` read for its elements only, which the rule rewrites as `jnp.ravel(x)` (`flat_read`): no reason to
        keep `x` NumPy."""
        return node.attr.value == "flat" and flat_read(self.rule, node, self.rule.get_metadata(ParentProvider, node, None))

    def _read_as_buffer(self, node: cst.Call, function: Optional[cst.FunctionDef]) -> Optional[tuple[str, str]]:
        """(name, what the function does with it) when the call's result reaches a name the function reads through
        an attribute only NumPy arrays have (`contrast = np.prod(...)`, then `contrast.flags.writeable = False` or
        `contrast.data.tobytes()`: pyDOE3's fracfact_aliasing), or indexes by a NumPy flat iterator (`K =
        np.asarray(K)`, `K[X.astype(int).flat, :]`: GPy's kernels), or views as an array class (`_class_views`), else
        None. The result is followed through arithmetic and the assignments it flows into, under the same name or
        another (`c = 2.0 / np.sqrt(a)`, then `np.dot(c.flat, b)`; `Y = Y.copy()`, then `Y.resize(lag)`: spectrum's
        ARMA)."""
        if function is None:
            return None
        read = self._buffer_reads.get(function)
        if read is None:  # the Name nodes read through such an attribute, or indexed by a flat iterator -> why
            read = self._buffer_reads[function] = {
                owner: f"is written into through `.{attr}(...)`, which a JAX array cannot be"
                if attr in _buffers.INPLACE_DUNDERS else f"is read through `.{attr}`, which JAX arrays do not have"
                + (f" (`{self.rule.code(at)}` silently takes the other way for one)" if isinstance(at, cst.Call) else "")
                for owner, attr, at in _buffers.buffer_reads(function.body)
                if isinstance(owner, cst.Name) and not (isinstance(at, cst.Attribute) and self._flat_rewritten(at))
            }
            for call in walk.nodes_of(function.body, cst.Call):  # `x.argsort(kind="quicksort")` (pyentrp's motifs)
                func = call.func  # type: ignore[attr-defined]
                given = _buffers.numpy_only_keyword(call)  # type: ignore[arg-type]
                if given is not None and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
                    read.setdefault(func.value, f"is given to `.{func.attr.value}(..., {given}=...)`, which the JAX "
                                                "array method rejects (`TypeError`)")
                elif isinstance(func, cst.Attribute) and call.args and isinstance(call.args[0].value, cst.Name) \
                        and call.args[0].keyword is None and not call.args[0].star \
                        and (numpy_name(self.rule, func) or "").startswith("numpy.ndarray."):
                    # `np.ndarray.argsort(y, kind="stable")`: NumPy's unbound method takes NumPy arrays only
                    read.setdefault(call.args[0].value, f"is given to `{self.rule.code(func)}`, a method of NumPy's "
                                    "array type called on it, which rejects a JAX array (`TypeError`)")
            for viewed, why in _class_views(self.rule, function).items():  # `y.view(np.matrix)`
                read.setdefault(viewed, why)
            tries = catching(function.body)
            named = exception_names(self.rule.context.module)  # type: ignore[attr-defined]
            for handled in tries:  # `try: v = y[i]` / `except IndexError:` (or `except* IndexError:`)
                caught = sorted(caught_by(handled, named) & OUT_OF_BOUNDS_CATCHERS)  # type: ignore[arg-type]
                for indexed in indexed_names(handled.body, False) if caught else ():  # type: ignore[attr-defined]
                    read.setdefault(indexed, f"is indexed in a `try` that catches `{caught[0]}`: NumPy "
                                    "raises `IndexError` for an index out of bounds, a JAX array clamps the index "
                                    "and never raises")
            caller = caller_catching(self.rule, function)  # type: ignore[arg-type]
            for indexed in indexed_names(function.body, True) if caller is not None else ():
                # `try: return pick(a, i)` / `except IndexError:` in `safe_pick`: an index out of bounds in `pick`
                read.setdefault(indexed, f"is indexed in a function that {caller} calls in a `try` that "
                                "catches `IndexError`: NumPy raises `IndexError` for an index out of bounds, a "
                                "JAX array clamps the index and never raises")
            facts = function_facts(self.rule, function)
            for subscript in walk.nodes_of(function.body, cst.Subscript):
                flat = next((e.slice.value for e in subscript.slice  # type: ignore[attr-defined]
                             if isinstance(e.slice, cst.Index) and _flat_iterator(e.slice.value, facts)), None)
                if flat is not None and isinstance(subscript.value, cst.Name):  # type: ignore[attr-defined]
                    read.setdefault(subscript.value, f"is indexed by `{self.rule.code(flat)}`, a NumPy flat iterator, "  # type: ignore[attr-defined]
                                    "which a JAX array does not take as an index")
        if not read:
            return None
        flow = function_flow(self.rule, function)
        pending = [self._assigned_from(node)]
        seen: set[cst.CSTNode] = set()
        while pending:
            assign = pending.pop()
            if assign is None or assign in seen or not flow.knows(assign):
                continue  # (an assignment in a nested function is in that function's flow)
            seen.add(assign)
            name = assign.targets[0].target.value  # type: ignore[attr-defined]
            for use in flow.uses(assign, name):
                if use in read:
                    return name, read[use]
                pending.append(self._assigned_from(use))
        return None

    def _assigned_from(self, node: cst.CSTNode) -> Optional[cst.Assign]:
        """The assignment `name = ...` to one name whose value is `node`, or computed from it by arithmetic or a copy
        (`c = 2.0 / np.sqrt(a)`, `Y = Y.copy()`), else None."""
        rule = self.rule
        current = node
        while True:
            parent = rule.get_metadata(ParentProvider, current, None)
            if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)):
                current = parent
                continue
            if isinstance(parent, cst.Attribute) and parent.value is current and parent.attr.value == "copy":
                call = rule.get_metadata(ParentProvider, parent, None)
                if isinstance(call, cst.Call) and call.func is parent and not call.args:
                    current = call
                    continue
            break
        return parent if _bound_name(parent) is not None else None  # type: ignore[return-value]

    def _text_fed_argument(self, node: cst.Call, short: str, function: Optional[cst.FunctionDef]) -> Optional[str]:
        """A parameter of `function` given where the namesake of `short` takes arrays only, still holding what the
        caller passed, to which a call in the module passes a string literal (`_list_inputs.text_fed_parameters`)."""
        if function is None:
            return None
        fed = self._text_fed.get(function.name.value)
        if not fed:
            return None
        positions, names = array_parameters(short)
        for index, arg in enumerate(node.args):
            if arg.star:
                break
            value = arg.value
            if isinstance(value, cst.Name) and value.value in fed and (
                    arg.keyword.value in names if arg.keyword is not None else index in positions) \
                    and unbound_before(self.rule, value.value, node):
                return value.value
        return None

    def _object_fed_argument(self, node: cst.Call, function: Optional[cst.FunctionDef]) -> Optional[tuple[str, Optional[str]]]:
        """A parameter of `function` read in an argument of `node` (`np.atleast_2d(z)`, or `np.sum(reshape_z(z, 2))`,
        of what a helper makes of it), which may still hold what the caller passed, to which a call in the module
        passes a value JAX arrays cannot hold (`_list_inputs.object_fed_parameters`: an object or text array, a
        `Decimal`, a masked array, a function), or a local made from one (`r = reshape_z(z, 2)`:
        `_list_inputs.object_derived`): (the name as the finding shows it, the parameter or None for such a local);
        else None."""
        if function is None:
            return None
        fed = self._object_fed.get(function.name.value, frozenset())
        attributes = self._object_attributes if _is_method(function) else frozenset()
        if not fed and not attributes:
            return None
        derived = self._object_derived.get(function)
        if derived is None:
            derived = self._object_derived[function] = object_derived(  # type: ignore[arg-type]
                function, fed, self._object_callables.get(function.name.value, frozenset()), attributes)
        for arg in node.args:
            read = attribute_reads(arg.value, attributes)  # `np.multiply(self.S[i], w)`: (the finding's, "self")
            if read:
                return f"`{self.rule.code(read[0])}`", "self"
            whole = {id(n) for n in read_names(arg.value, whole=True)}  # (a local made from one: as a whole, not `sub.n`)
            for name in read_names(arg.value):
                if name.value in derived and id(name) in whole:
                    if not fed:  # (made from an attribute: `object_derived`)
                        return f"`{name.value}`, made from an attribute", "self"
                    return f"`{name.value}`, made from a parameter", None
                if name.value in fed and unbound_before(self.rule, name.value, node, some=True):
                    return f"`{name.value}`", name.value
        return None

    def _written_item(self, node: cst.Call, function: Optional[cst.FunctionDef]) -> Optional[str]:
        """The local list `node` makes the items of (`y = [np.zeros_like(u) for i in range(m)]`, or a display of
        such calls, or a value put in it by `.append(...)`: `_appended_item`) when the function writes into one of
        its items (`y[0][:] = u`, `y[i] += v`: nodepy's Runge-Kutta stages), else None."""
        if function is None:
            return None
        written = self._items_written.get(function)
        if written is None:
            written = self._items_written[function] = _buffers.written_items(function)
        if not written:
            return None
        parent = self.rule.get_metadata(ParentProvider, node, None)
        if isinstance(parent, cst.Element):
            parent = self.rule.get_metadata(ParentProvider, parent, None)
            if not isinstance(parent, cst.List):
                return self._appended_item(node, function, written)
        elif not (isinstance(parent, cst.ListComp) and parent.elt is node):
            return self._appended_item(node, function, written)
        assign = self.rule.get_metadata(ParentProvider, parent, None)
        if not (isinstance(assign, cst.Assign) and assign.value is parent and len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)):
            return self._appended_item(node, function, written)
        name = assign.targets[0].target.value
        return name if name in written else self._appended_item(node, function, written)

    def _appended_item(self, node: cst.Call, function: cst.FunctionDef, written: frozenset[str]) -> Optional[str]:
        """The list of `written` that the function puts, by method, a value made by `node` in, or one computed from
        it (`w = np.full(3, c)`, `parts.append(w * 2)`, then `parts[-1][-1] += v`: chaospy's segmented quadrature),
        else None: a JAX array there could not be written into."""
        filled = _buffers.appended(function, written)
        if not filled:
            return None
        statement: Optional[cst.CSTNode] = node
        while statement is not None and not isinstance(statement, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            statement = self.rule.get_metadata(ParentProvider, statement, None)
        targets: set[str] = set()
        if isinstance(statement, cst.Assign):
            for target in statement.targets:
                targets.update(n.value for n in walk.nodes_of(target.target, cst.Name))  # type: ignore[attr-defined]
        sources = _buffers.Sources(function, _buffers.numpy_calls(self.rule.context.module))
        for name, value in filled:
            if isinstance(value, _CONTAINER_DISPLAYS):
                continue  # `tmp.append([np.zeros_like(c) for c in cs])`, then `tmp[j][n] = v` (pywt's mra): the write
                # replaces an item of the inner list, not an array's
            if any(inner is node for inner in walk.nodes_of(value, cst.Call)) or targets & sources.of(value):
                return name
        return None

    @functools.cached_property
    def _typed_parameters(self) -> dict[str, tuple[list[str], dict[str, str]]]:
        """`numpy_typed_parameters`, and the parameters a function of the module reads through an attribute only a
        NumPy array has (`_buffer_parameters`: `a.strides`)."""
        typed = {name: (params, dict(checks)) for name, (params, checks) in module_typed_parameters(self.rule).items()}
        for name, (params, reads) in _buffer_parameters(self.rule.context.module).items():
            entry = typed.setdefault(name, (params, {}))
            for param, read in reads.items():
                entry[1].setdefault(param, read)
        for name, (params, tests) in _ndarray_tested_parameters(self.rule, self.rule.context.module).items():
            entry = typed.setdefault(name, (params, {}))
            for param, test in tests.items():
                if param not in entry[1]:
                    entry[1][param] = test
                    self._tested_parameters.add((name, param))
        return typed

    @functools.cached_property
    def _tested_parameters(self) -> set[tuple[str, str]]:
        """(function, parameter) of `_typed_parameters` that come from an `isinstance(x, np.ndarray)` test alone
        (`_ndarray_tested_parameters`), for the message."""
        return set()

    def _typed_argument(self, node: cst.Call, function: Optional[cst.FunctionDef]) -> Optional[str]:
        """What a function of the module checks of the argument `node` gives it, directly, indexed, through
        arithmetic or an array method (`np.arange(k).reshape(n, 2)`), or through a local name
        (`self._set(np.asarray(data))`, `bound = np.log(...)` then `set_scalar(bound[0])`), when it
        requires a NumPy type (`jaxfix.analysis.host_data.numpy_typed_parameters`); else None."""
        typed, rule = self._typed_parameters, self.rule
        if not typed or function is None:
            return None
        current: cst.CSTNode = node
        parent = rule.get_metadata(ParentProvider, current, None)
        while True:  # an item of the array, arithmetic on it, or an array method's result (`np.arange(k).reshape(n, 2)`)
            if isinstance(parent, cst.Subscript) and parent.value is current \
                    or isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)):
                current, parent = parent, rule.get_metadata(ParentProvider, parent, None)
                continue
            if isinstance(parent, cst.Attribute) and parent.value is current:
                call = rule.get_metadata(ParentProvider, parent, None)
                if isinstance(call, cst.Call) and call.func is parent:
                    current, parent = call, rule.get_metadata(ParentProvider, call, None)
                    continue
                if parent.attr.value == "T":
                    current, parent = parent, call
                    continue
            if isinstance(parent, cst.DictElement) and parent.value is current or isinstance(parent, cst.Element):
                # a value of a dict or an item of a list or tuple made here (`defaults = {"transform": np.eye(4)}`,
                # then `convert_like(v, defaults["transform"])`: trimesh's primitives)
                current = rule.get_metadata(ParentProvider, parent, None)
                parent = rule.get_metadata(ParentProvider, current, None)
                continue
            break
        if isinstance(parent, cst.Arg):
            call = rule.get_metadata(ParentProvider, parent, None)
            return self._typed_check(call, lambda value: value is current, function) if isinstance(call, cst.Call) else None
        name = _bound_name(parent)
        if name is not None:

            sources = self._sources(function)
            computed = [False]

            def passes(value: cst.BaseExpression) -> bool:
                while isinstance(value, cst.Subscript):
                    value = value.value
                if isinstance(value, cst.Name) and value.value == name:
                    return True
                # an argument computed from it (`x = np.ravel(x0) + a.sum(axis=0)`, then `_array_like(x, x0)`: a
                # JAX `a` makes `x` a JAX array, so `a` must stay NumPy too)
                computed[0] = name in sources.of(value)
                return computed[0]

            for call in walk.nodes_of(function.body, cst.Call):
                found = self._typed_check(call, passes, function)  # type: ignore[arg-type]
                if found is not None:
                    return f"makes `{name}`, which {'(through a value computed from it) ' if computed[0] else ''}{found}"
        return None

    def _typed_check(self, call: cst.Call, given: Callable[[cst.BaseExpression], bool],
                     function: Optional[cst.FunctionDef]) -> Optional[str]:
        func = call.func
        callee = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None
        entry = self._typed_parameters.get(callee) if callee is not None else None
        if entry is None:
            return None
        params, checks = entry
        for index, arg in enumerate(call.args):
            if arg.star:
                return None
            param = arg.keyword.value if arg.keyword is not None else params[index] if index < len(params) else None
            if param in checks and isinstance(checks[param], ScalarCheck):
                # `is_numeric(b[i, 0])`, `for row in b: is_numeric(row[0])`: an element of the array, a NumPy scalar
                # (a whole array fails the test, NumPy's or JAX's: `is_numeric(b)` needs nothing)
                if element_argument(arg.value, function) and given(arg.value):
                    return (f"gives an element of it to `{callee}`, which tests whether `{param}` is a Python number "
                            f"or a NumPy scalar (`{checks[param]}`): a NumPy array's element is one, a JAX array's (a "
                            "0-d JAX array) never is, so the test would change its answer")
                continue
            if param in checks and given(arg.value):
                if (callee, param) in self._tested_parameters:
                    return (f"goes to `{callee}`, which tests `{param}` with `{checks[param]}` (widened to "
                            "`(np.ndarray, jax.Array)` only with that function's other fixes, which may be unsafe or held "
                            "back; until then the test takes the other branch), which a JAX array fails")
                return f"goes to `{callee}`, which requires a NumPy value of `{param}` (`{checks[param]}`), which a JAX array fails"
        return None

    @functools.cached_property
    def _sparse(self) -> SparseNames:
        return SparseNames.read(self.rule.context.module)

    def sparse_matrix(self, node: cst.Call) -> bool:
        """Whether the call `node` gives a NumPy matrix of a SciPy sparse matrix: `S.todense()` (any `S`, in a module
        that imports `scipy.sparse`), or a reduction along an axis of one (`W.sum(axis=1)`, `W` a sparse matrix of the
        function or an attribute bound to one: `sparse_data.sparse_reduction`)."""
        if not isinstance(node.func, cst.Attribute) or not (self._sparse or self._sparse_attributes):
            return False
        if node.func.attr.value in _matrices.MATRIX.methods:
            return bool(self._sparse)
        reduced = sparse_reduction(node)
        function = self.rule.current_function
        return reduced is not None and function is not None and self._maybe_sparse(reduced, node, function)

    @functools.cached_property
    def _sparse_attributes(self) -> frozenset[str]:
        # (and those of base classes in other modules of the run)
        return sparse_attributes(self.rule.context.module, self._sparse, _imported_values.inherited_sparse(self.rule))

    @functools.cached_property
    def _sparse_functions(self) -> frozenset[str]:
        return sparse_functions(self.rule.context.module, self._sparse)

    def _maybe_sparse(self, value: cst.BaseExpression, node: cst.CSTNode, function: cst.FunctionDef,
                      seen: frozenset[cst.CSTNode] = frozenset()) -> bool:
        """Whether `value`, read at `node`, may be a SciPy sparse matrix (`SparseNames.is_sparse_value`, with the
        module's functions returning one, `sparse_functions`); for a name, also when one of its bindings reaching
        `node` may be one (`b = basis(n)`, then `b = np.abs(b)`: at `np.abs(b)` every binding of `b` is not yet
        sparse; `b, n = make(k)` of a function returning the matrix as the tuple's first item), or is a NumPy call
        given such a name (kept NumPy, `np.abs(b)` gives the matrix's own `abs(b)`, a sparse matrix)."""
        facts = function_facts(self.rule, function)
        sparse, functions = self._sparse, self._sparse_functions
        if sparse.is_sparse_value(value, facts.bindings, self._sparse_attributes, functions=functions):
            return True
        if not isinstance(value, cst.Name) or not (sparse or functions):
            return False
        flow = function_flow(self.rule, function)
        statement = enclosing_statement(self.rule, node)
        if statement is None or not flow.knows(statement):
            return False
        for definition in flow.reaching(statement, value.value):
            assign = definition.node
            if not isinstance(assign, cst.Assign) or assign in seen:
                continue
            for assigned in assign.targets:
                target = assigned.target
                if isinstance(target, cst.Name) and target.value == value.value:
                    bound = assign.value
                    if sparse.is_sparse_value(bound, facts.bindings, self._sparse_attributes, functions=functions) or \
                            isinstance(bound, cst.Call) and facts.array_function(bound.func) is not None and any(
                                self._maybe_sparse(a.value, assign, function, seen | {assign}) for a in bound.args):
                        return True
                elif isinstance(target, (cst.Tuple, cst.List)) and not any(
                        isinstance(e, cst.StarredElement) for e in target.elements):
                    if any(isinstance(e.value, cst.Name) and e.value.value == value.value
                           and returned_item_sparse(assign.value, i, functions, facts.bindings)
                           for i, e in enumerate(target.elements)):
                        return True
        return False

    def _sparse_meeting(self, node: cst.Call, function: Optional[cst.FunctionDef]) -> Optional[str]:
        """What makes the NumPy call `node` meet a SciPy sparse matrix (`jaxfix.analysis.sparse_data`): it is given
        one (`np.multiply(P, lam)`, `P = sp.csc_matrix(...)`, `SparseNames.is_sparse_value`), or its result goes into a `scipy.sparse` call, through
        arithmetic or a local name (`sp.diags(np.ones(m) * s)`), which tells NumPy arrays by their type."""
        sparse, rule = self._sparse, self.rule
        if not (sparse or self._sparse_attributes) or function is None:
            return None
        for arg in node.args:  # (`np.abs(L - L.T)`, `np.max(self.W)`: pygsp's graphs)
            if self._maybe_sparse(arg.value, node, function):
                return (f"is given `{rule.code(arg.value)}`, a SciPy sparse matrix: NumPy hands it to the matrix's own "
                        "methods, `jax.numpy` rejects it")
        current: cst.CSTNode = node
        while True:
            parent = rule.get_metadata(ParentProvider, current, None)
            if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation, cst.Arg, cst.Element, cst.List, cst.Tuple)):
                current = parent
                continue
            break
        if sparse.is_sparse_call(parent):
            return (f"goes into `{rule.code(parent.func)}(...)` of `scipy.sparse`, which tells a NumPy array "  # type: ignore[union-attr]
                    "by its type (a JAX array is taken for a sequence of rows or diagonals)")
        name = _bound_name(parent)
        if name is not None:
            for call in walk.nodes_of(function.body, cst.Call):
                if sparse.is_sparse_call(call) and any(
                        isinstance(a.value, cst.Name) and a.value.value == name for a in call.args):  # type: ignore[attr-defined]
                    return (f"makes `{name}`, which goes into `{rule.code(call.func)}(...)` of "  # type: ignore[attr-defined]
                            "`scipy.sparse`, which tells a NumPy array by its type (a JAX array is taken for a sequence "
                            "of rows or diagonals)")
        return None

    @functools.cached_property
    def _ndimage(self) -> SparseNames:
        return SparseNames.read(self.rule.context.module, "ndimage")

    @functools.cached_property
    def _fftpack(self) -> SparseNames:
        return SparseNames.read(self.rule.context.module, "fftpack")

    @functools.cached_property
    def _numpy_only(self) -> NumpyOnly:
        return NumpyOnly.read(self.rule.context.module, self._imported_numba)

    @functools.cached_property
    def _imported_numba(self) -> frozenset[str]:
        """The functions of other modules numba compiles that the module calls (`from .kernels import masked_sum`)."""
        context = self.rule.context
        return _buffers.imported_numba(_buffers.imported_writers(context.module, context.path, context.module_name)) \
            if context.module_name else frozenset()

    def _host_call(self, call: cst.CSTNode) -> Optional[str]:
        """Why the call `call` needs NumPy arrays: a `scipy.fftpack` transform, a third-party function that
        requires one (`sparse_data.NumpyOnly`: `skimage.util.view_as_windows`, `cv2.*`), a process pool's method
        (`NumpyOnly.pooled`: `pool.map(f, chunks)`), or a function of the module numba compiles (`NumpyOnly.compiled`);
        else None."""
        if not isinstance(call, cst.Call):
            return None
        if self._fftpack.is_sparse_call(call):
            return (f"`{self.rule.code(call.func)}(...)` of `scipy.fftpack`, which reads the NumPy attribute `.flags` of "
                    "its input (a JAX array raises `AttributeError`)")
        qualified = self._numpy_only.called(call)
        if qualified is not None:
            return f"`{self.rule.code(call.func)}(...)`, which requires a NumPy array (`{qualified}` {failure(qualified)})"
        pooled = self._numpy_only.pooled(call)
        if pooled is not None:
            return f"{pooled} ({_buffers.POOLED})"
        compiled = self._numpy_only.compiled(call)
        return f"`{compiled}(...)`, {_buffers.NUMBA}" if compiled is not None else None

    def host_meeting(self, node: cst.BaseExpression, function: Optional[cst.FunctionDef]) -> Optional[str]:
        """How the value of `node` (a NumPy call, or an operation: JX304 asks it for `H * np.exp(x)` in
        `ifft(H * np.exp(x))`, which stays NumPy and so takes a list `H`) reaches a call that needs a NumPy array (`_host_call`): a
        `scipy.fftpack` transform (it reads `x.flags`: spafe's cepstra, `y = np.abs(x)`, then `dct(y)`), or a
        third-party function that requires one (`img = np.pad(img, 1)`, then `view_as_windows(img, ...)`:
        pygsp's patch features); directly or through arithmetic and other NumPy calls (`dct(np.log(np.abs(x)))`),
        or through a local name an argument of the call is computed from (`_buffers.Sources`); else None."""
        rule = self.rule
        polynomial = self._polynomial_meeting(node, function) if function is not None else None
        if polynomial is not None:
            return polynomial
        polynomial = self._polynomial_argument(node, function) if function is not None else None
        if polynomial is not None:
            return polynomial
        if not (self._fftpack or self._numpy_only) or function is None:
            return None
        current: cst.CSTNode = node
        while True:
            parent = rule.get_metadata(ParentProvider, current, None)
            if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation, cst.IfExp, cst.Arg, cst.Element, cst.List,
                                   cst.Tuple)) or isinstance(parent, cst.Call) and isinstance(current, cst.Arg) \
                    and numpy_name(rule, parent.func) is not None:
                current = parent
                continue
            break
        why = self._host_call(parent)
        if why is not None and any(a is current for a in arguments(parent, self._numpy_only)):  # type: ignore[arg-type]
            return f"goes into {why}"
        name = _bound_name(parent)
        if name is None:
            return None
        call = self._fftpack_inputs(function).get(name)
        return f"makes `{name}`, which goes into {self._host_call(call)}" if call is not None else None

    def _polynomial_meeting(self, node: cst.BaseExpression, function: cst.FunctionDef) -> Optional[str]:
        """How the value of `node` meets a NumPy polynomial object in arithmetic (`np.poly1d(c) / fac`,
        `Polynomial((1, 1)) * fac`, `p += v`: scipy's `lagrange` and `bilinear`), directly or through arithmetic and
        a local name (`_buffers.Sources`), else None: NumPy's polynomial classes do not take a JAX array as a
        number (`poly1d / a` divides polynomials and returns a tuple; `Polynomial / a` raises `TypeError`), so
        such a value must stay NumPy (or a Python number)."""
        found = self._polynomial_fed.get(function)
        if found is None:
            found = self._polynomial_fed[function] = self._polynomial_operations(function)
        if not found:
            return None
        rule, current = self.rule, node
        while True:
            shown = found.get(current)
            if shown is not None:
                break
            parent = rule.get_metadata(ParentProvider, current, None)
            if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation, cst.IfExp)) or isinstance(
                    parent, cst.AugAssign) and parent.value is current:
                current = parent
                continue
            name = _bound_name(parent)
            shown = found.get(name) if name is not None else None
            if shown is None:
                return None
            break
        return (f"meets a NumPy polynomial object in arithmetic (`{shown}`), which treats a JAX array unlike NumPy's "
                "(`poly1d / a` divides polynomials and gives a tuple, `a * poly1d` a poly1d, not an array; `Polynomial "
                "/ a` raises `TypeError`)")

    def _polynomial_argument(self, node: cst.BaseExpression, function: cst.FunctionDef) -> Optional[str]:
        """How the NumPy call `node` is given a NumPy polynomial object (`np.polyval(p, t)` with `p =
        hermitenorm(m)`, `np.roots(np.poly1d(c))`), directly or through a local name bound to one, else None: the
        `jax.numpy` namesake rejects it (`TypeError`), where NumPy reads its coefficients."""
        if not isinstance(node, cst.Call):
            return None
        known = self._polynomials(function)
        if known is None:
            return None
        polynomial = known[0]
        given = next((a.value for a in node.args if polynomial(a.value)), None)
        if given is None:
            return None
        return (f"is given `{self.rule.code(given)}`, a NumPy polynomial object (`np.poly1d`, or scipy.special's "
                "`orthopoly1d`), which NumPy reads as its coefficients and the `jax.numpy` namesake rejects (`TypeError`)")

    def _polynomials(self, function: cst.FunctionDef) \
            -> Optional[tuple[Callable[[cst.BaseExpression], bool], frozenset[str]]]:
        """Whether a value of `function` is a NumPy polynomial object: made by a polynomial class or constructor
        (`_polynomial_class`), a method of one that gives one (`p.deriv()`), arithmetic on one, or a local name
        bound to one of these (to a fixed point: `p = poly1d(0.0)`, `q = p * 2`), with those names; None when the
        function makes none (found once per function)."""
        if function in self._polynomial_values:
            return self._polynomial_values[function]
        rule = self.rule
        imports = self._imports

        def qualified_of(call: cst.Call) -> Optional[str]:
            qualified = numpy_name(rule, call.func)
            if qualified is None and isinstance(call.func, (cst.Name, cst.Attribute)):  # `hermitenorm(m)`, `sp.legendre(n)`
                root, _, rest = dotted_name(call.func).partition(".")
                qualified = imports[root] + ("." + rest if rest else "") if root in imports else None
            return qualified

        if not any(q is not None and _polynomial_class(q) for q in map(qualified_of, walk.nodes_of(function.body, cst.Call))):  # type: ignore[arg-type]
            self._polynomial_values[function] = None
            return None
        names: set[str] = set()

        def polynomial(value: cst.BaseExpression) -> bool:
            while isinstance(value, cst.UnaryOperation):
                value = value.expression
            if isinstance(value, cst.BinaryOperation):
                return polynomial(value.left) or polynomial(value.right)
            if isinstance(value, cst.Name):
                return value.value in names
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                    and value.func.attr.value in _POLYNOMIAL_METHODS and polynomial(value.func.value):
                return True  # `p.deriv()`
            qualified = qualified_of(value) if isinstance(value, cst.Call) else None
            return qualified is not None and _polynomial_class(qualified)

        assigns = [n for n in walk.nodes(function.body) if isinstance(n, (cst.Assign, cst.AugAssign))]
        grown = True
        while grown:  # (`p = poly1d(0.0)`, `q = p * 2`, ...: to a fixed point)
            grown = False
            for assign in assigns:
                targets = [t.target for t in assign.targets] if isinstance(assign, cst.Assign) else [assign.target]
                bound = [t.value for t in targets if isinstance(t, cst.Name) and t.value not in names]
                if bound and polynomial(assign.value):
                    names.update(bound)
                    grown = True
        self._polynomial_values[function] = polynomial, frozenset(names)
        return self._polynomial_values[function]

    @functools.cached_property
    def _imports(self) -> dict[str, str]:
        return imported_as(self.rule.context.module)

    def _polynomial_operations(self, function: cst.FunctionDef) -> dict[Union[str, cst.CSTNode], str]:
        """{the operand meeting a NumPy polynomial object in an operation, or a local name it is computed from:
        the operation's text} for `function` (`_polynomial_meeting`)."""
        rule = self.rule
        known = self._polynomials(function)
        if known is None:
            return {}
        polynomial, names = known
        assigns = [n for n in walk.nodes(function.body) if isinstance(n, (cst.Assign, cst.AugAssign))]
        found: dict[Union[str, cst.CSTNode], str] = {}
        sources = self._sources(function)
        operations: list[tuple[cst.CSTNode, list[cst.BaseExpression]]] = [
            (n, [o for o, other in ((n.left, n.right), (n.right, n.left)) if polynomial(other) and not polynomial(o)])
            for n in walk.nodes_of(function.body, cst.BinaryOperation)]  # type: ignore[attr-defined]
        operations += [(a, [a.value]) for a in assigns if isinstance(a, cst.AugAssign)
                       and isinstance(a.target, cst.Name) and a.target.value in names]
        for operation, operands in operations:
            shown = rule.code(operation).strip().splitlines()[0]
            for operand in operands:
                found.setdefault(operand, shown)
                for name in sources.of(operand):
                    if name not in names:
                        found.setdefault(name, shown)
        return found

    def _fftpack_inputs(self, function: cst.FunctionDef) -> dict[str, cst.Call]:
        """{local name: the first call of `function` that needs NumPy arrays (`_host_call`) an argument of which is
        computed from it} (`_buffers.Sources`; found once per function)."""
        found = self._fftpack_fed.get(function)
        if found is None:
            found = self._fftpack_fed[function] = {}
            sources = self._sources(function)
            for call in walk.nodes_of(function.body, cst.Call):
                if self._host_call(call) is not None:
                    for arg in arguments(call, self._numpy_only):  # type: ignore[arg-type]
                        for name in sources.of(arg.value):
                            found.setdefault(name, call)  # type: ignore[arg-type]
        return found

    def _text_cast(self, node: cst.Call, function: Optional[cst.FunctionDef]) -> Optional[str]:
        """What says the array `node` makes may hold text or objects: it is cast to such a dtype at once
        (`np.array(y).astype("str")`: tslearn's labels) or, bound to a name, later, or its dtype kind is tested
        letting text through (`if a.dtype.kind not in ["i", "f"]: a = a.astype(float)`: pygam's `check_array`)."""
        rule = self.rule
        parent = rule.get_metadata(ParentProvider, node, None)
        if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in _CAST_VERBS:
            call = rule.get_metadata(ParentProvider, parent, None)
            dtype = _foreign_cast_dtype(rule, call) if isinstance(call, cst.Call) and call.func is parent else None
            if dtype is not None:
                return f"makes an array {'cast to' if parent.attr.value == 'astype' else 'viewed as'} `{rule.code(dtype)}` at once"
            return None
        name = _bound_name(parent)
        return self._text_names(function).get(name) if function is not None and name is not None else None

    def _text_written(self, node: cst.Call, function: Optional[cst.FunctionDef]) -> Optional[str]:
        """What says the array `node` makes, bound to a name, is written text into by index (`res[i] =
        line.strip().split(",")`: astroML's text-file readers): NumPy parses it into numbers, a JAX array's `.at[i].set`
        rejects it (`TypeError`)."""
        name = _bound_name(self.rule.get_metadata(ParentProvider, node, None))
        if function is None or name is None:
            return None
        found = self._text_written_names.get(function)
        if found is None:
            found = self._text_written_names[function] = text_writes(function, function_facts(self.rule, function).bindings)
        write = found.get(name)
        return None if write is None else f"makes `{name}`, into which the code writes text (`{self.rule.code(write).strip()}`)"

    def _foreign_cast(self, function: Optional[cst.FunctionDef]) -> Optional[str]:
        """What says `function` makes text or objects of an array whatever made it: it casts one to a dtype JAX arrays
        cannot hold (`np.abs(x).astype("U5")`, `y.astype(TEXT)`), which raises `TypeError` for a JAX array; found
        once per function."""
        if function is None:
            return None
        if function not in self._foreign_casts:
            rule = self.rule
            self._foreign_casts[function] = next((
                f"is in a function that {_CAST_VERBS[call.func.attr.value]} an array {'to' if call.func.attr.value == 'astype' else 'as'} "  # type: ignore[attr-defined]
                f"`{rule.code(dtype)}` (`{rule.code(call).strip()}`)"
                for call in walk.nodes_of(function.body, cst.Call)
                if (dtype := _foreign_cast_dtype(rule, call)) is not None), None)  # type: ignore[arg-type]
        return self._foreign_casts[function]

    def _text_names(self, function: cst.FunctionDef) -> dict[str, str]:
        """{name: why it may hold text or objects} in `function`: its dtype kind is tested letting text through
        (`text_kind_tests`), or it is cast to a dtype JAX arrays cannot hold (`name.astype(str)`); found once per
        function."""
        found = self._texts.get(function)
        if found is None:
            rule = self.rule
            found = self._texts[function] = {
                name: f"makes `{name}`, whose dtype kind the code tests for text or objects (`{rule.code(test).strip()}`)"
                for name, test in text_kind_tests(function).items()}
            for call in walk.nodes_of(function.body, cst.Call):
                func = call.func  # type: ignore[attr-defined]
                dtype = _foreign_cast_dtype(rule, call) if isinstance(func, cst.Attribute) \
                    and isinstance(func.value, cst.Name) else None  # type: ignore[arg-type]
                if dtype is not None:
                    found.setdefault(func.value.value,  # type: ignore[attr-defined]
                                     f"makes `{func.value.value}`, which the code {_CAST_VERBS[func.attr.value]} "  # type: ignore[attr-defined]
                                     f"{'to' if func.attr.value == 'astype' else 'as'} `{rule.code(dtype)}`")  # type: ignore[attr-defined]
        return found

    def made_here(self, function: cst.FunctionDef) -> set[str]:
        """The names `function` binds to a NumPy creation call (found once per function)."""
        made = self._made.get(function)
        if made is None:
            made = self._made[function] = {
                t.target.value
                for a in walk.nodes_of(function, cst.Assign)
                if isinstance(a.value, cst.Call) and (numpy_name(self.rule, a.value.func) or "").split(".")[-1] in CREATION  # type: ignore[attr-defined]
                for t in a.targets  # type: ignore[attr-defined]
                if isinstance(t.target, cst.Name)
            }
        return made

    def computed_here(self, function: cst.FunctionDef) -> dict[str, bool]:
        """{name: whether only by a call that is not NumPy's} for the names `function` binds to arithmetic or to a
        call (`ld = log_dens + np.log(w)`, `d = self.dens(X)`): arrays made here, if they are arrays at all."""
        computed = self._computed.get(function)
        if computed is None:
            computed = self._computed[function] = {}
            for a in walk.nodes_of(function, cst.Assign):
                value = a.value  # type: ignore[attr-defined]
                if isinstance(value, (cst.ListComp, cst.List, cst.Tuple)):  # `tmp = [np.zeros_like(c) for c in cs]`:
                    # a list of arrays made here (pywt's `mra`, handing it to `waverec`, whose items reach C code)
                    if not any(isinstance(n, cst.Call) and numpy_name(self.rule, n.func) for n in walk.nodes(value)):
                        continue
                elif not isinstance(value, (cst.BinaryOperation, cst.UnaryOperation, cst.Call)):
                    continue
                other = isinstance(value, cst.Call) and numpy_name(self.rule, value.func) is None
                for t in a.targets:  # type: ignore[attr-defined]
                    if isinstance(t.target, cst.Name):
                        computed[t.target.value] = computed.get(t.target.value, True) and other
        return computed

    # ---- module facts, found once per pass ------------------------------------------------------------------
    @functools.cached_property
    def _buffer_callees(self) -> tuple[dict, set[str]]:
        """The module's functions that write through a parameter, and its private compiled modules."""
        context = self.rule.context
        module = context.module
        imported = _buffers.imported_writers(module, context.path, context.module_name) if context.module_name else {}
        # (a C library's functions, like a private compiled module's, may write into the attributes they are given)
        return {**imported, **_buffers.writers(module, imported, path=context.path)}, \
            _buffers.private_modules(module, context.path) | c_library_roots(context)

    @functools.cached_property
    def _views(self) -> _buffers.Writers:
        """The module's functions that may return a view of a parameter (`_buffers.views`)."""
        return _buffers.views(self.rule.context.module)

    def _written_views(self, function: cst.FunctionDef) -> dict[cst.Call, list[tuple[str, str]]]:
        """`_buffers.written_views` of `function` (found once per function)."""
        found = self._view_writes.get(function)
        if found is None:
            found = self._view_writes[function] = _buffers.written_views(function, self._views)
        return found

    @functools.cached_property
    def _constructors(self) -> _caller_writes.Constructors:
        return _caller_writes.constructor_stores(self.rule.context.module)

    @functools.cached_property
    def _stored_flows(self) -> _caller_writes.StoredFlows:
        return _caller_writes.stored_flows(self.rule.context.module, _buffers.numpy_calls(self.rule.context.module))

    @functools.cached_property
    def written_results(self) -> dict[str, str]:
        """See `_caller_writes.written_results`: the attributes written into in place (or feeding a whole-array update
        of one: `_fed_attributes`) are this module's and, in the package, other modules' (as `stored_reason` reads
        them)."""
        attributes = {*self._mutated_attributes, *self._fed_attributes,
                      *(self.rule.context.project_facts(self.rule.CODE) or {}).get("attributes", {})}
        writers, private = self._buffer_callees
        return _caller_writes.written_results(self.rule.context.module, writers, attributes, private)

    @functools.cached_property
    def host_results(self) -> dict[str, str]:
        """See `_caller_writes.host_results`."""
        return _caller_writes.host_results(self.rule)

    def returned_reason(self, node: cst.Return) -> Optional[str]:
        """Why the array `node` returns must stay NumPy (see `written_results` and `host_results`), or None."""
        function = self.rule.current_function
        if function is None or node.value is None:
            return None
        name = function.name.value
        if name not in self.written_results and name not in self.host_results:
            return None
        if not any(numpy_name(self.rule, call.func) for call in walk.nodes_of(function.body, cst.Call)):  # type: ignore[attr-defined]
            return None  # no NumPy call here: nothing this rule would change
        if name in self.written_results:
            return (f"{self.written_results[name]}: the result must stay a NumPy array (a JAX array cannot "
                    "be written into), so this function is left as it is")
        if name in self.host_results:
            return (f"{self.host_results[name]}: the result must stay a NumPy array (or Python value), so this "
                    "function is left as it is")
        return None

    @functools.cached_property
    def _mutated_attributes(self) -> dict[str, cst.CSTNode]:
        writers, private = self._buffer_callees
        return _buffers.mutated_attributes(self.rule.context.module, writers, frozenset(private))

    @functools.cached_property
    def _text_fed(self) -> dict[str, frozenset[str]]:
        return text_fed_parameters(self.rule.context.module, self._elsewhere("text"))

    @functools.cached_property
    def _object_fed(self) -> dict[str, frozenset[str]]:
        return object_fed_parameters(self.rule.context.module, self._elsewhere("object"))

    @functools.cached_property
    def _object_attributes(self) -> frozenset[str]:
        """The attributes the module's classes bind to what JAX arrays cannot hold (`_list_inputs.object_attributes`:
        giddy's `self._S = np.asarray(..., dtype=object)`, returned by the property `S`)."""
        module = self.rule.context.module
        defined = frozenset(d.name.value for d in module.body if isinstance(d, (cst.FunctionDef, cst.ClassDef)))
        return object_attributes(module, imported_as(module), defined, dtype_constants(module))

    @functools.cached_property
    def _object_callables(self) -> dict[str, frozenset[str]]:
        """The parameters given a function of the module that returns what JAX arrays cannot hold
        (`_list_inputs.object_callable_parameters`: stumpy's `mp_func`, given `stump`)."""
        return object_callable_parameters(self.rule.context.module)

    def _elsewhere(self, kind: str) -> dict[str, frozenset]:
        """What calls in other modules of the run pass the module's functions (`_caller_inputs.fed`)."""
        return _caller_inputs.fed(self.rule.context.project, self.rule.context.module_name, kind)

    def _fed_where(self, kind: str, function: cst.FunctionDef, param: Optional[str]) -> str:
        """Where a call passes `param` of `function` (None: any of its parameters) a value of `kind` ("text" or
        "object"): this module, unless only calls in other modules of the run do."""
        if self._elsewhere(kind):
            here = (text_fed_parameters if kind == "text" else object_fed_parameters)(self.rule.context.module)
            if not here.get(function.name.value) if param is None else param not in here.get(function.name.value, ()):
                return "another module of the run"
        return "this module"

    @functools.cached_property
    def _fed_attributes(self) -> dict[str, cst.CSTNode]:
        """Attributes read by the value of a whole-array augmented update of one of `_mutated_attributes`, or of a
        name whose array other code sees (`_buffers.fed_attributes`). None where no function reads a NumPy name
        (as the pre-check finds): no array the module makes is NumPy (`lax.scan`'s carry updated in its step)."""
        module = self.rule.context.module
        context = self.rule.context
        if context.ast_tree is not None and not numpy_in_functions(context.ast_tree, context.text):
            return {}
        numpy = _buffers.numpy_calls(module)
        return _buffers.fed_attributes(module, self._mutated_attributes,
                                       lambda aug, function: _caller_writes.shared_update(aug, function, numpy))

    @functools.cached_property
    def _flowing_attributes(self) -> _attribute_flows.Flows:
        """Attributes whose value reaches a write into a local array, or a masked array, in a function of the module
        (`_attribute_flows.flowing_attributes`); none where no function reads a NumPy name (as `_fed_attributes`)."""
        context = self.rule.context
        if context.ast_tree is not None and not numpy_in_functions(context.ast_tree, context.text):
            return {}
        return _attribute_flows.flowing_attributes(context.module, _buffers.numpy_calls(context.module))

    @functools.cached_property
    def _written_attributes(self) -> dict[str, cst.CSTNode]:
        """`_mutated_attributes` without those only handed to a private module (which may just read them)."""
        writers, private = self._buffer_callees
        if not private:
            return self._mutated_attributes
        return _buffers.mutated_attributes(self.rule.context.module, writers)

    @functools.cached_property
    def _item_attributes(self) -> dict[cst.ClassDef, set[str]]:
        return sequence_attributes(self.rule.context.module)

    @functools.cached_property
    def _numba_attributes(self) -> dict[str, str]:
        """{attribute: the numba-compiled function} for `self.x` handed to one of the module's numba-compiled
        functions (`scaled_norm(a, b, self.dims)`: tslearn's PAA distances)."""
        compiled = self._numba
        found: dict[str, str] = {}
        for call in walk.nodes_of(self.rule.context.module, cst.Call) if compiled else ():
            func = call.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Name) and func.value in compiled:
                for arg in call.args:  # type: ignore[attr-defined]
                    value = arg.value
                    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
                        found.setdefault(value.attr.value, func.value)
        return found

    @functools.cached_property
    def _numba(self) -> frozenset[str]:
        return numba_compiled(self.rule.context.module) | self._imported_numba

    @functools.cached_property
    def _timer_functions(self) -> frozenset[str]:
        return timer_functions(self.rule.context.module, self.rule.context.source)

    def _timer(self) -> Optional[str]:
        """The write of timer readings into an array in the current function (`host_data.timing_write`), as
        written, else None (found once per function)."""
        function = self.rule.current_function
        if function is None or "time" not in self.rule.context.source:
            return None
        if function not in self._timers:
            found = timing_write(function, self._timer_functions)
            self._timers[function] = self.rule.code(found).strip() if found is not None else None
        return self._timers[function]

    def _documented_objects(self, function: cst.FunctionDef) -> frozenset[str]:
        """`documented_objects` of `function` (with its class's docstring for `__init__`), once per function."""
        if function not in self._objects:
            owner = self._class() if function.name.value == "__init__" else None
            self._objects[function] = documented_objects(function, owner)
        return self._objects[function]

    def _class(self) -> Optional[cst.ClassDef]:
        """The class the current function is a method of, if any."""
        return enclosing_class(self.rule, self.rule.current_function)

    def _hashed_attribute(self) -> Optional[str]:
        """`self.start` when the current method assigns it and its class's `__hash__` reads it (colour's
        `SpectralShape`: `self.start, self.end = np.asarray(value)`, `hash((self.start, self.end))`), else None
        (found once per function)."""
        function = self.rule.current_function
        if function is None:
            return None
        if function not in self._hashed_attributes:
            self._hashed_attributes[function] = self._find_hashed_attribute()
        return self._hashed_attributes[function]

    def _find_hashed_attribute(self) -> Optional[str]:
        cls = self._class()
        body = cls.body.body if cls is not None and isinstance(cls.body, cst.IndentedBlock) else ()
        hasher = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == "__hash__"), None)
        if hasher is None or self.rule.current_function is None:
            return None
        hashed = {a.attr.value for a in walk.nodes_of(hasher.body, cst.Attribute)  # type: ignore[attr-defined]
                  if isinstance(a.value, cst.Name) and a.value.value == "self"}  # type: ignore[attr-defined]
        for assign in walk.nodes_of(self.rule.current_function.body, cst.Assign):
            for target in assign.targets:  # type: ignore[attr-defined]
                for node in walk.nodes_of(target.target, cst.Attribute):
                    if isinstance(node.value, cst.Name) and node.value.value == "self" and node.attr.value in hashed:  # type: ignore[attr-defined]
                        return f"self.{node.attr.value}"  # type: ignore[attr-defined]
        return None

    def _array_subclass(self) -> Optional[str]:
        """The name of the class around the current method when it is an `np.ndarray` subclass or defines NumPy's
        dispatch hooks (pysindy's `AxesArray`: `np.asarray(x).view(cls)` in `__new__`), else None."""
        cls = self._class()
        return cls.name.value if cls is not None and numpy_array_class(self.rule, cls, self.rule.context.module) else None

    def _sequence_class(self) -> Optional[str]:
        """An attribute the `__getitem__` of the class around the current method indexes (`sequence_attributes`):
        such a class is a sequence over NumPy arrays (numdifftools's `Bicomplex`), else None."""
        if not self._item_attributes:
            return None
        cls = self._class()
        attributes = self._item_attributes.get(cls, ()) if cls is not None else ()
        return f"self.{sorted(attributes)[0]}" if attributes else None



def _is_method(function: cst.FunctionDef) -> bool:
    """Whether `function`'s first parameter is `self` or `cls` (it reads `self.<attribute>`)."""
    params = [*function.params.posonly_params, *function.params.params]
    return bool(params) and params[0].name.value in ("self", "cls")
