"""Arrays that a callee fills in place: shared by JX501 (which must then leave their creation as NumPy).

`written_items(fn)`: the local names a function writes into the items of (`y[0][:] = u`), for a list of arrays;
`deep_written_items(fn)` those written an item of an item of, `appended(fn, names)` what methods put in such lists.

`writers(module)`: for each top-level function of the module (and each method, as `self.name`), the positions and
names of the parameters it writes through (`p[i] = v`, `p[i] += v`, `p.fill(v)`, `p.sort()`, `p.__iadd__(v)`,
`out=p`, or `view(p)[:] = v` with `view` returning a view of its parameter: `views`, `written_views`), writes into
a local copy, cast or view of it, which has its kind of array (`sol = y.copy(); sol[m] = v`: `_copies_written`), hands to a
NumPy call given `out=` (`out_inputs`), or computes a value from that reaches such a write (`x = R / Rs`, then
`_h(x)` where `_h` writes into its parameter: lenstronomy's NFW profile). A NumPy buffer created in a function and
passed to such a parameter, or to a private compiled module (`_lbfgsb.setulb(..., x, ...)`, `_minpack._chkder`,
`_fill(...)` imported from one), is filled by the callee: as a `jax.numpy` array it would raise (JAX arrays are
immutable, extension modules want `numpy.ndarray`).

`Sources(fn, numpy)`: the names each value of a function is computed from, through arithmetic, indexing, array methods
and NumPy calls: given a JAX array for any of them, the value is a JAX array."""

from __future__ import annotations

import bisect
import functools
import os
import re
from typing import Callable, Iterator, Mapping, Optional, Union

import libcst as cst
import numpy as np

from codemods import _namesakes
from jaxfix import dependencies, walk
from jaxfix.analysis.hashed import hashed
from jaxfix.analysis.host_data import TypedParameters, decorator_typed_parameters, source_typed_parameters
from jaxfix.analysis.plain_python import numba_aliases, numba_compiled
from jaxfix.analysis.sparse_data import NumpyOnly, SparseNames, arguments, failure
from jaxfix.imports import ModuleImports, dotted_name, imported_bindings, star_sources

# {function name: (its positional parameters as a caller passes them, {parameter it needs a NumPy array as: why})}: the
# why is "" for a parameter the function writes through, else what it does with it ("computes `x` from it and hands
# that to `_h`, which writes into it")
Writers = dict[str, tuple[list[str], dict[str, str]]]

# the in-place operators and item assignment called by their method names (`target.__iadd__(p)`,
# `target.__setitem__((s, ss), v)`: GPy's kernels), which no in-place rule rewrites
INPLACE_DUNDERS = frozenset({
    "__setitem__", "__iadd__", "__isub__", "__imul__", "__imatmul__", "__itruediv__", "__ifloordiv__", "__imod__",
    "__ipow__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__",
})
# attributes only a NumPy array has: a call whose result is read through one must stay NumPy
BUFFER_ATTRIBUTES = frozenset({"ctypes", "data", "__array_interface__", "base", "flags", "strides", "flat",
                               # NumPy's protocol methods, which JAX arrays do not have: `wrap = getattr(x0,
                               # "__array_wrap__", x.__array_wrap__)` (SciPy's optimize `_array_like`)
                               "__array_wrap__", "__array_finalize__", "__array_struct__", "__array_ufunc__",
                               "__array_function__"})
# methods only a NumPy array has, read from a name bound to a call (`a.setflags(write=False)`, `a.tofile(f)`), some
# of which change it in place (`Y.resize(lag, refcheck=False)`: spectrum's ARMA estimate), and the in-place operators
# and item assignment called by name (`target.__iadd__(p)`: GPy's kernels), which a JAX array lacks or refuses
BUFFER_METHODS = frozenset({"setflags", "tofile", "dump", "dumps", "newbyteorder", "itemset", "resize", "put",
                            "partition", "byteswap", "getfield", "setfield", *INPLACE_DUNDERS})
# the builtins that read an attribute named by a string (`getattr(x, "flags", None)`, `hasattr(x, "strides")`): for a
# JAX array they fall back to the default or give False, silently
_ATTRIBUTE_BUILTINS = frozenset({"getattr", "hasattr"})


def buffer_reads(root: cst.CSTNode) -> list[tuple[cst.BaseExpression, str, cst.CSTNode]]:
    """(the object, the attribute, the read) for each read under `root` of an attribute or method only a NumPy array
    has (`BUFFER_ATTRIBUTES`, `BUFFER_METHODS`): `x.strides`, `x.__array_wrap__`, or through `getattr(x,
    "__array_wrap__", default)` or `hasattr(x, "flags")` with the name written out."""
    found: list[tuple[cst.BaseExpression, str, cst.CSTNode]] = []
    for node in walk.nodes(root):
        if isinstance(node, cst.Attribute) and node.attr.value in BUFFER_ATTRIBUTES | BUFFER_METHODS:
            found.append((node.value, node.attr.value, node))
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in _ATTRIBUTE_BUILTINS \
                and len(node.args) >= 2 and not any(a.star or a.keyword for a in node.args[:2]) \
                and isinstance(node.args[1].value, cst.SimpleString) \
                and node.args[1].value.evaluated_value in BUFFER_ATTRIBUTES | BUFFER_METHODS:
            found.append((node.args[0].value, str(node.args[1].value.evaluated_value), node))
    return found
WRITING_METHODS = {"fill", "sort", "resize", "put", "itemset", "partition", *INPLACE_DUNDERS}
# the keywords of an output array a call writes into: NumPy's `out=`, and `output=` (scipy.ndimage's filters:
# `uniform_filter1d(x, 3, output=buf)`); any callee given one is taken to fill it
OUT_KEYWORDS = frozenset({"out", "output"})
# scipy.ndimage's functions that take their `output` by position too: its index (SciPy 1.16's signatures)
NDIMAGE_OUTPUT_POSITIONS = {
    "affine_transform": 4, "binary_closing": 3, "binary_dilation": 4, "binary_erosion": 4, "binary_fill_holes": 2,
    "binary_hit_or_miss": 3, "binary_opening": 3, "binary_propagation": 3, "black_tophat": 4, "convolve": 2,
    "convolve1d": 3, "correlate": 2, "correlate1d": 3, "fourier_ellipsoid": 4, "fourier_gaussian": 4,
    "fourier_shift": 4, "fourier_uniform": 4, "gaussian_filter": 3, "gaussian_filter1d": 4,
    "gaussian_gradient_magnitude": 2, "gaussian_laplace": 2, "generic_filter": 4, "generic_filter1d": 4,
    "generic_gradient_magnitude": 2, "generic_laplace": 2, "geometric_transform": 3, "grey_closing": 4,
    "grey_dilation": 4, "grey_erosion": 4, "grey_opening": 4, "label": 2, "laplace": 1, "map_coordinates": 2,
    "maximum_filter": 3, "maximum_filter1d": 3, "median_filter": 3, "minimum_filter": 3, "minimum_filter1d": 3,
    "morphological_gradient": 4, "morphological_laplace": 4, "percentile_filter": 4, "prewitt": 2, "rank_filter": 4,
    "rotate": 4, "shift": 2, "sobel": 2, "spline_filter": 2, "spline_filter1d": 3, "uniform_filter": 2,
    "uniform_filter1d": 3, "watershed_ift": 3, "white_tophat": 4, "zoom": 2,
}


def given_outputs(call: cst.Call, ndimage: SparseNames) -> list[tuple[str, cst.BaseExpression]]:
    """(how, value) for the output arrays `call` is given: by keyword (`out=o`, `output=o`: ("output=", o)), or by
    position to a function of scipy.ndimage (`ndimage` its local names: `uniform_filter1d(x, 3, -1, o)`, ("by
    position", o)). A tuple or list of outputs (`out=(yn, ynp)`: a gufunc with two outputs, SciPy's `_rcty`) gives
    each of its items."""
    found = [(f"{a.keyword.value}=", value) for a in call.args if a.keyword is not None and a.keyword.value in OUT_KEYWORDS
             for value in _items(a.value)]
    if ndimage and ndimage.is_sparse_call(call):
        index = NDIMAGE_OUTPUT_POSITIONS.get(ndimage.original(dotted_name(call.func).split(".")[-1]))  # type: ignore[arg-type]
        positional = [a for a in call.args if a.keyword is None]
        if index is not None and not any(a.star for a in positional) and len(positional) > index:
            found.append(("by position", positional[index].value))
    return found


def _items(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The items of a tuple or list display (`(yn, ynp)`; a starred item as it is), else `[value]`."""
    if isinstance(value, (cst.Tuple, cst.List)):
        return [e.value for e in value.elements]
    return [value]


def call_outputs(call: cst.Call, ndimage: SparseNames, numpy_aliases: Mapping[str, str]) -> list[cst.BaseExpression]:
    """Every output array `call` is given: by keyword or by position to scipy.ndimage (`given_outputs`), and by
    position to a NumPy function (`positional_outs`)."""
    return [value for _, value in given_outputs(call, ndimage)] + positional_outs(call, numpy_aliases)


def target_leaves(target: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """Each target an assignment to `target` binds or writes: `target` itself, or each element of a tuple or list
    target, nested and starred (`a[i], a[j] = a[j], a[i]` writes into `a` twice; `(x, *b[1:]), y = v` once)."""
    if isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from target_leaves(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from target_leaves(target.value)
    else:
        yield target


def _root(node: cst.BaseExpression) -> Optional[str]:
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _written(fn: cst.FunctionDef, viewing: Writers, ndimage: SparseNames, numpy_aliases: Mapping[str, str]) -> set[str]:
    """The names `fn` writes into in place: items, writing methods, output arrays (by keyword, by position to a
    NumPy ufunc, `np.divide(a, n, a)`, or to scipy.ndimage, `uniform_filter1d(x, 3, -1, buf)`), views it writes
    through, and a name updated by an augmented assignment when `fn` returns nothing."""
    names: set[str] = {name for found in written_views(fn, viewing).values() for name, _ in found}
    returns_value = False
    augmented: set[str] = set()
    for node in walk.nodes(fn.body):  # one walk: asked for every function of the module on every pass
        if isinstance(node, cst.Return) and node.value is not None:
            returns_value = True
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            augmented.add(node.target.value)
        if isinstance(node, cst.Assign):
            names.update(_root(leaf) or "" for t in node.targets for leaf in target_leaves(t.target)
                         if isinstance(leaf, cst.Subscript))  # (`a[i], a[j] = a[j], a[i]` too)
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Subscript):
            names.add(_root(node.target) or "")
        elif isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and (
                    func.attr.value in WRITING_METHODS or func.attr.value == "setflags" and makes_writeable(node)):
                names.add(func.value.value)
            for value in call_outputs(node, ndimage, numpy_aliases):
                while isinstance(value, cst.Subscript):  # `out=buf[i]`: an item of `buf` (skfda's ufuncs from a list)
                    value = value.value
                if isinstance(value, cst.Name):
                    names.add(value.value)
    if not returns_value:  # `def log_normalize(a): a -= lse(a)`: returns nothing, so the update is its result
        names |= augmented
    return names


def makes_writeable(call: cst.Call) -> bool:
    """`a.setflags(write=True)` (or `a.setflags(True)`): asks for a writeable array, which NumPy refuses for an
    array it does not own, as `np.asarray` of a JAX array is (pyfar's `Coordinates._check`: `ValueError: cannot set
    WRITEABLE flag`); not `write=False`, which such an array takes, nor `align=`/`uic=` alone."""
    for index, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == "write" or arg.keyword is None and index == 0 and not arg.star:
            return not (isinstance(arg.value, cst.Name) and arg.value.value in ("False", "None")
                        or isinstance(arg.value, cst.Integer) and arg.value.value == "0")
    return False


def _fresh_copy(value: cst.BaseExpression, numpy_aliases: Mapping[str, str]) -> bool:
    """`np.array(...)` (not asked not to copy), `np.copy(...)` or `v.copy()`: a new array no caller holds."""
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Attribute):
        return False
    func = value.func
    if func.attr.value == "copy" and not value.args:
        return True  # `x.copy()`
    if not (isinstance(func.value, cst.Name) and func.value.value in numpy_aliases and func.attr.value in ("array", "copy")):
        return False
    return not any(a.keyword is not None and a.keyword.value == "copy" for a in value.args) \
        and not any(a.star for a in value.args)


def _copied_first(fn: cst.FunctionDef, name: str, numpy_aliases: Mapping[str, str]) -> bool:
    """`fn` rebinds its parameter `name` to a fresh copy (`name = np.array(name)`, `name = name.copy()`) in a
    statement of its own body before any other statement names it, and binds it nowhere else: its writes go into
    the copy, which no caller sees (dtaidistance's `scale_linearly`: `series = np.array(series)`, then
    `series[...] = ...`). A reading that followed the writes by name would keep a caller's array NumPy, and, once
    the callee is migrated (`.at`), no longer: a second run changed the caller."""
    for index, statement in enumerate(fn.body.body):
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            if name in walk.name_values(statement):
                return False
            continue
        small = statement.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                and small.targets[0].target.value == name:
            if not _fresh_copy(small.value, numpy_aliases):
                return False
            later = fn.body.body[index + 1:]
            return not any(_binds(node, name) for statement in later for node in walk.nodes(statement))
        if name in walk.name_values(statement):
            return False
    return False


def _binds(node: cst.CSTNode, name: str) -> bool:
    """`node` binds `name` (an assignment's target, a loop's, `with ... as`, `:=`, `global`, `del`)."""
    targets: list[cst.CSTNode] = []
    if isinstance(node, cst.Assign):
        targets = [t.target for t in node.targets]
    elif isinstance(node, (cst.AnnAssign, cst.For, cst.CompFor)):
        targets = [node.target]
    elif isinstance(node, cst.AsName):
        targets = [node.name]
    elif isinstance(node, cst.NamedExpr):
        targets = [node.target]
    elif isinstance(node, (cst.Global, cst.Nonlocal)):
        return any(n.name.value == name for n in node.names)
    elif isinstance(node, cst.Del):
        targets = [node.target]
    return any(isinstance(n, cst.Name) and n.value == name for t in targets for n in walk.nodes(t)
               if not isinstance(t, cst.Subscript))


def root_name(node: cst.BaseExpression) -> Optional[str]:
    """`a` for `a`, `a[i]`, `a.T[0]`; None for anything not rooted at a name."""
    return _root(node)


# attributes of an array that are arrays made from it (`R.T`): a JAX array's are JAX arrays
ARRAY_ATTRIBUTES = {"T", "mT", "real", "imag"}
# methods and NumPy functions whose result may be a view of the array they are given (its first argument, for
# the functions): a write into the result writes into that array
VIEW_METHODS = frozenset({"reshape", "view", "ravel", "transpose", "swapaxes", "squeeze"})
VIEW_FUNCTIONS = frozenset({"as_strided", "reshape", "ravel", "transpose", "swapaxes", "moveaxis", "squeeze",
                            "expand_dims", "asarray", "asanyarray", "atleast_1d", "atleast_2d", "atleast_3d",
                            "rollaxis", "matrix_transpose", "permute_dims", "diagonal", "flip", "fliplr", "flipud",
                            "rot90", "real", "imag", "broadcast_to", "ascontiguousarray", "asfortranarray"})
# NumPy functions that hand an array that is not NumPy's on to its own method of that name (NumPy's `_wrapfunc`:
# `np.round(a)` calls `a.round()`), so that given a JAX array they return a JAX array (some only for some arguments
# or NumPy versions: `np.clip`, `np.take`; counting them keeps more NumPy)
DISPATCHING_FUNCTIONS = frozenset({
    "all", "any", "amax", "amin", "max", "min", "argmax", "argmin", "around", "round", "round_", "clip", "compress",
    "cumprod", "cumsum", "mean", "prod", "repeat", "reshape", "squeeze", "std", "sum", "swapaxes", "take",
    "transpose", "moveaxis", "var", "nonzero", "searchsorted", "choose", "real", "imag",
})


def _functions(module: cst.Module) -> list[tuple[str, cst.FunctionDef, list[str], set[str]]]:
    """`_signature`s of the module's top-level functions, the functions nested in them (called by name there:
    deap's `gen_refs_recursive(np.zeros(n), ...)`) and its classes' methods (as `self.name`: quantecon's BRD)."""
    functions = []
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            functions.append(_signature(stmt.name.value, stmt, method=False))
            functions.extend(_signature(inner.name.value, inner, method=False) for inner in stmt.body.body
                             if isinstance(inner, cst.FunctionDef))
        elif isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock):
            for member in stmt.body.body:
                if isinstance(member, cst.FunctionDef):
                    functions.append(_signature(f"self.{member.name.value}", member, method=True))
    return functions


def views(module: cst.Module) -> Writers:
    """`Writers`-shaped table of the module's functions (as `_functions` names them) that may return a view of a
    parameter: `A[1:]`, `A.T`, `A.reshape(n)`, `as_strided(A, ...)` (GPy's `diag.view`), through the function's
    local names too. A caller that writes into what such a function returns writes into the array it gave it
    (`written_views`)."""
    found: Writers = {}
    for key, fn, params, every in _functions(module):
        bound = {t.target.value: a.value for a in walk.nodes_of(fn.body, cst.Assign)  # type: ignore[attr-defined]
                 for t in a.targets if isinstance(t.target, cst.Name)}  # type: ignore[attr-defined]
        viewed = {name for r in walk.nodes_of(fn.body, cst.Return)
                  if r.value is not None for name in [_viewed(r.value, every, bound)] if name is not None}  # type: ignore[attr-defined]
        if viewed:
            found[key] = (params, dict.fromkeys(sorted(viewed), ""))
    return found


def _viewed(value: cst.BaseExpression, params: set[str], bound: dict[str, cst.BaseExpression],
            seen: Optional[set[str]] = None) -> Optional[str]:
    """The parameter `value` may be a view of, else None (`seen`: the local names followed so far, shared by the
    two tries of a call that is both a method and a function, so `x = x.reshape(n)` is followed once)."""
    seen = set() if seen is None else seen
    while True:
        if isinstance(value, cst.Name):
            if value.value in params:
                return value.value
            if value.value in seen or value.value not in bound:
                return None
            seen.add(value.value)
            value = bound[value.value]  # `Af = as_strided(A, ...)`, then `return as_strided(Af[1:], ...)`
        elif isinstance(value, cst.Subscript) or isinstance(value, cst.Attribute) and value.attr.value in ARRAY_ATTRIBUTES:
            value = value.value
        elif isinstance(value, cst.Call):
            # a method of the array (`A.swapaxes(0, 1)`), or a function given it first (`np.swapaxes(A, 0, 1)`:
            # sporco's `block0`; both names, so the function is tried when the method's object is no parameter)
            func = value.func
            method = func.value if isinstance(func, cst.Attribute) and func.attr.value in VIEW_METHODS else None
            first = value.args[0].value if isinstance(func, (cst.Name, cst.Attribute)) and value.args \
                and dotted_name(func).split(".")[-1] in VIEW_FUNCTIONS and value.args[0].keyword is None \
                and not value.args[0].star else None
            if method is not None and first is not None:
                return _viewed(method, params, bound, seen) or _viewed(first, params, bound, seen)
            if method is None and first is None:
                return None
            value = method if method is not None else first  # type: ignore[assignment]
        elif isinstance(value, (cst.Tuple, cst.List)):  # `return arr[:2], arr[2:]`: views, one per item (pywt);
            # not a parameter returned as it is (`return xa, xb, funcalls`: scipy's `bracket`), which no rewrite of
            # this function changes
            return next((p for e in value.elements if not isinstance(e, cst.StarredElement)
                         and not (isinstance(e.value, cst.Name) and e.value.value in params)
                         for p in [_viewed(e.value, params, bound, seen)] if p is not None), None)
        else:
            return None


def written_views(fn: cst.FunctionDef, viewing: Writers) -> dict[cst.Call, list[tuple[str, str]]]:
    """{call: [(name, why)]} for the calls of `fn` to functions of `viewing` whose result `fn` writes into, at once
    (`diag_view(r2)[:] = 0.0`: GPy's `_unscaled_dist`) or through a local name bound to it (`d = view(X)`, then
    `d += 2` or `d[0] = v`), with the names (roots) of the arguments the result may be a view of: those are written."""
    if not viewing:
        return {}
    calls = {c for c in walk.nodes_of(fn.body, cst.Call) if next(_handed(c, viewing), None)}  # type: ignore[arg-type]
    if not calls:
        return {}
    bound = {t.target.value: a.value for a in walk.nodes_of(fn.body, cst.Assign)  # type: ignore[attr-defined]
             for t in a.targets if isinstance(t.target, cst.Name) and a.value in calls}  # type: ignore[attr-defined]
    found: dict[cst.Call, list[tuple[str, str]]] = {}
    for target in _write_targets(fn):
        while isinstance(target, cst.Subscript) or isinstance(target, cst.Attribute) and target.attr.value in ARRAY_ATTRIBUTES:
            target = target.value
        call = target if target in calls else bound.get(target.value) if isinstance(target, cst.Name) else None
        if not isinstance(call, cst.Call) or call in found:
            continue
        found[call] = [(name, f"`{shown}` returns a view of its parameter `{param}`, which this code writes into")
                       for value, shown, param, _ in _handed(call, viewing)
                       for name in [_root(value) if isinstance(value, (cst.Name, cst.Subscript, cst.Attribute)) else None]
                       if name is not None]
    return found


def _write_targets(fn: cst.FunctionDef) -> Iterator[cst.BaseExpression]:
    """What the statements of `fn` write into in place: an item (`a[i] = v`, `a[i] += v`), a name updated by an
    augmented assignment (`a += v`: in place for a NumPy array), the object of a writing method (`a.fill(v)`), an
    `out=` argument."""
    for node in walk.nodes(fn.body):
        if isinstance(node, cst.Assign):
            yield from (leaf for t in node.targets for leaf in target_leaves(t.target) if isinstance(leaf, cst.Subscript))
        elif isinstance(node, cst.AugAssign):
            yield node.target
        elif isinstance(node, cst.Call):
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in WRITING_METHODS:
                yield node.func.value
            yield from (a.value for a in node.args if a.keyword is not None and a.keyword.value in OUT_KEYWORDS)


def written_items(fn: cst.FunctionDef) -> frozenset[str]:
    """The local names `fn` writes into the items of, as a list of arrays (`y[0][:] = u`, `y[i] += v`: an item
    updated in place), whatever `y` is bound to."""
    names: set[str] = set()
    for statement, target in _assigned_targets(fn):
        if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Subscript) \
                and isinstance(target.value.value, cst.Name):
            names.add(target.value.value.value)  # `y[0][:] = u`
        elif isinstance(statement, cst.AugAssign) and isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            names.add(target.value.value)  # `y[i] += v`
    return frozenset(names)


def _assigned_targets(fn: cst.FunctionDef) -> Iterator[tuple[cst.CSTNode, cst.BaseExpression]]:
    """(statement, target) for each target of each (augmented) assignment in `fn`."""
    for statement in walk.nodes_of(fn.body, cst.Assign) + walk.nodes_of(fn.body, cst.AugAssign):
        targets = [leaf for t in statement.targets for leaf in target_leaves(t.target)] \
            if isinstance(statement, cst.Assign) else [statement.target]  # type: ignore[attr-defined]
        for target in targets:
            yield statement, target


def deep_written_items(fn: cst.FunctionDef) -> frozenset[str]:
    """The local names `fn` writes into an item of an item of (`y[0][:] = u`, `w[-1][-1] += v`): for a list, a
    write into one of the arrays it holds (of `written_items`, those no rebinding of the list's slot reaches)."""
    return frozenset(target.value.value.value for _, target in _assigned_targets(fn)  # type: ignore[attr-defined]
                     if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Subscript)
                     and isinstance(target.value.value, cst.Name))


def appended(fn: cst.FunctionDef, names: frozenset[str]) -> list[tuple[str, cst.BaseExpression]]:
    """(list, value) for each value `fn` puts in one of the lists `names` by method (`parts.append(w)`,
    `parts.insert(0, w)`, and each element of a display given to `parts.extend([a, b])`)."""
    found: list[tuple[str, cst.BaseExpression]] = []
    for call in walk.nodes_of(fn.body, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in names):
            continue
        args = [a.value for a in call.args if a.keyword is None and not a.star]  # type: ignore[attr-defined]
        method = func.attr.value
        if method == "append" and len(args) == 1 or method == "insert" and len(args) == 2:
            found.append((func.value.value, args[-1]))
        elif method == "extend" and len(args) == 1 and isinstance(args[0], (cst.List, cst.Tuple)):
            found += [(func.value.value, e.value) for e in args[0].elements if isinstance(e, cst.Element)]
    return found


def writers(module: cst.Module, imported: Optional[Writers] = None, typed: Optional[TypedParameters] = None,
            path: str = "") -> Writers:
    """`Writers` of the module's top-level functions (and of functions nested in them, and of its classes' methods
    as `self.name`) that need a NumPy array as a parameter: they write through it, or hand it, or a value computed
    from it (`Sources`), to a parameter that needs one, to a fixed point over the module's calls; with `imported`
    (`imported_writers`), also to one of a function of another module (stumpy's `match(Q, m, Q_isconstant)`
    handing it to `core.preprocess`, which writes into it). With `typed` (`host_data.source_typed_parameters`), a
    parameter a top-level function checks for a NumPy type needs one too. A parameter handed by name to a function
    of a private compiled module (`_ppoly.evaluate(c, x, xs, 0, True, out)`: `private_modules`) needs one too.

    Methods of one name in several classes (a base class's `_evaluate`, a subclass's override: SciPy's PPoly) share
    their key `self.name`: a call `self._evaluate(xs, out)` may run any of them, so the entry takes the needs of
    every one, by position under the first one's parameter names."""
    functions = _functions(module)
    private = private_modules(module, path)
    viewing = views(module)
    numpy = numpy_calls(module)
    ndimage = SparseNames.read(module, "ndimage")
    numpy_aliases = ModuleImports.read(module).numpy_aliases
    # calls that need NumPy arrays: `scipy.fftpack`'s transforms, `scipy.sparse` constructors, `NumpyOnly` functions
    readers = (SparseNames.read(module, "fftpack"), SparseNames.read(module), NumpyOnly.read(module))
    host_calls = readers if any(readers) else None
    sources: dict[cst.FunctionDef, Sources] = {}  # (by function: two classes may have methods of one name)
    own: dict[cst.FunctionDef, dict[str, str]] = {}  # each function's needs, by its own parameter names
    for key, fn, params, every in functions:
        every_written = _written(fn, viewing, ndimage, numpy_aliases)
        written = {name for name in every_written & every if not _copied_first(fn, name, numpy_aliases)}
        needs = dict.fromkeys(sorted(written), "")
        for name, why in _copies_written(fn, every_written - every, every, numpy).items():  # `sol = y.copy(); sol[m] = v`
            needs.setdefault(name, why)
        for name, check in sorted((typed or {}).get(key, ([], {}))[1].items()):  # `if not isinstance(a, np.ndarray):`
            if name in every:  # `raise ...`: stays so while the function keeps its NumPy test (is not migrated)
                needs.setdefault(name, f"checks it with `{check}`, which a JAX array fails")
        for name, why in decorated(fn, params, imported).items() if imported else ():  # `@consistent_input`
            needs.setdefault(name, why)
        for name in sorted(hashed(fn)[0] & every):  # `set(x)`, `for v in x: d[v] = 1`
            needs.setdefault(name, "hashes its elements (a JAX array's elements are unhashable)")
        for call, value in out_inputs(fn, numpy):  # `np.sum(t * 2, axis=1, out=o)`: `t` must be a NumPy array
            if fn not in sources:
                sources[fn] = Sources(fn, numpy)
            for name in sorted(sources[fn].of(value) & every):
                needs.setdefault(name, f"hands it to `{_CODE.code_for_node(call.func)}(..., out=...)`, {OUT_INPUT}")
        for call in walk.nodes_of(fn.body, cst.Call) if host_calls else ():
            # `def dctii(x): return fftpack.dct(x, ...)` (sporco): a caller's array made with NumPy must stay NumPy
            why = host_call_why(call, *host_calls, _CODE.code_for_node)  # type: ignore[arg-type]
            if why is None:
                continue
            if fn not in sources:
                sources[fn] = Sources(fn, numpy)
            for arg in arguments(call, host_calls[2]):  # type: ignore[arg-type]
                for name in sorted(sources[fn].of(arg.value) & every):
                    direct = isinstance(arg.value, cst.Name) and arg.value.value == name
                    needs.setdefault(name, why if direct else why.replace(
                        "hands it to", f"computes `{_CODE.code_for_node(arg.value)}` from it and hands that to", 1))
        for call in walk.nodes_of(fn.body, cst.Call):
            # `r = 0.2 * np.std(x)`, then `assert isinstance(r, (int, float))` (pymcmcstat-like radius checks): for a
            # NumPy `x`, `np.std` gives a NumPy scalar, a Python `float`; for a JAX `x` a JAX array, which never is
            subject, kinds = python_number_test(call)
            if subject is None:
                continue
            if fn not in sources:
                sources[fn] = Sources(fn, numpy)
            for name in sorted(sources[fn].of(subject) & every):
                direct = isinstance(subject, cst.Name) and subject.value == name
                shown = _CODE.code_for_node(call)
                needs.setdefault(name, f"tests whether it is a Python {kinds} (`{shown}`), which a JAX array never is"
                                 if direct else f"computes `{_CODE.code_for_node(subject)}` from it and tests whether "
                                 f"that is a Python {kinds} (`{shown}`): a NumPy scalar is one, a JAX array never is")
        for count in list_repeats(fn):  # `x.append([i] * table[i, j])`: JAX's `*` refuses a list (TypeError)
            if fn not in sources:
                sources[fn] = Sources(fn, numpy)
            for name in sorted(sources[fn].of(count) & every):
                needs.setdefault(name, f"repeats a Python list by `{_CODE.code_for_node(count)}`, computed from it: "
                                 f"{LIST_REPEAT}")
        for call in walk.nodes_of(fn.body, cst.Call) if private else ():
            # `_ppoly.evaluate(c, x, xs, 0, True, out)`: a compiled function takes NumPy buffers, and may fill them
            func = call.func
            root = dotted_name(func).split(".")[0] if isinstance(func, (cst.Attribute, cst.Name)) else ""
            for arg in call.args if root in private else ():  # type: ignore[attr-defined]
                name = _root(arg.value) if not arg.star and isinstance(arg.value, (cst.Name, cst.Subscript)) else None
                if name in every:
                    needs.setdefault(name, f"hands it to `{dotted_name(func)}(...)`, {PRIVATE_MODULE}")  # type: ignore[arg-type]
                    continue
                # (an item of it, unpacked or iterated: `for c in coeffs[1:]: out = _ext.idwt(out, c)`, `a, b =
                # pair`; or a value computed from it)
                if fn not in sources:
                    sources[fn] = Sources(fn, numpy)
                for source in sorted(sources[fn].of(arg.value) & every) if not arg.star else ():
                    needs.setdefault(source, f"computes `{_CODE.code_for_node(arg.value)}` from it and hands that to "
                                             f"`{dotted_name(func)}(...)`, {PRIVATE_MODULE}")
        if needs:
            own[fn] = needs
    compiled = numba_compiled(module)
    aliases = numba_aliases(module)  # `fill = jit(fill_python, nopython=True)`: `fill` takes what `fill_python` does
    for key, fn, params, every in functions:
        if key in compiled:  # `@njit def perplexity(D, beta)`: every parameter (for callers in other modules too)
            own[fn] = {**dict.fromkeys(sorted(every), NUMBA_PARAMETER), **own.get(fn, {})}
    groups: dict[str, list[tuple[cst.FunctionDef, list[str]]]] = {}  # {key: its functions (overrides), in order}
    for key, fn, params, _ in functions:
        groups.setdefault(key, []).append((fn, params))
    out: Writers = {}
    for key in groups:
        entry = _merged(groups[key], own)
        if entry is not None:
            out[key] = entry
    for key, fn, params, every in functions:
        for alias in (a for a, f in aliases.items() if f == key and not fn.decorators):  # (compiled itself: that is
            # why it needs NumPy arrays, unless it writes into one)
            needs = out.get(key, (params, {}))[1]
            out[alias] = (params, {p: "" if needs.get(p) == "" else NUMBA_PARAMETER for p in sorted(every)})
    if not out and not imported:
        return out
    # a parameter handed on to one that needs a NumPy array needs one too (`bellman(v, Tv)` passing `Tv` as
    # `out=`), and so does one a value handed on is computed from (lenstronomy's `x = R / Rs`, then `_h(x)`: a JAX
    # `R` makes `x` a JAX array), to a fixed point; only functions that call something are looked at again, and
    # the sources of their values are found once, when first asked
    calls = {fn: walk.nodes_of(fn.body, cst.Call) for _, fn, _, _ in functions}
    for _ in range(len(functions)):
        changed = False
        for key, fn, params, every in functions:
            found = own.get(fn, {})
            new: dict[str, str] = {}
            for call in calls[fn]:
                for value, shown, _param, needed in _handed(call, {**imported, **out} if imported else out):
                    root = _root(value) if isinstance(value, (cst.Name, cst.Subscript)) else None
                    if root in every and not needed:  # `fill(p)`, `fill(p[i])`: written through, as `p[i] = v` is
                        if root not in found:
                            new.setdefault(root, "")
                        continue
                    if fn not in sources:
                        sources[fn] = Sources(fn, numpy)
                    tail = "which needs a NumPy array there" if needed else "which writes into it"
                    for name in sorted(sources[fn].of(value) & every):
                        if name in found or name in new:
                            continue
                        new[name] = f"hands it to `{shown}`, {tail}" if name == root else (
                            f"computes `{_CODE.code_for_node(value)}` from it and hands that to `{shown}`, {tail}")
            if new:
                own[fn] = {**found, **new}
                out[key] = _merged(groups[key], own)  # type: ignore[assignment]
                changed = True
        if not changed:
            break
    return out


# why a parameter a list is repeated by needs a NumPy array (`writers`)
LIST_REPEAT = ("`list * n` takes a Python int, which a NumPy integer is; a JAX array's `*` raises `TypeError` for a "
               "list or tuple")


def list_repeats(fn: cst.FunctionDef) -> list[cst.BaseExpression]:
    """The counts that Python list or tuple displays (or list comprehensions) are repeated by in `fn` (`[i] *
    table[i, j]`, `n * (0,)`): NumPy integers repeat them, while a JAX array's `*` raises `TypeError` for a list or
    tuple operand (whether an integer repeats it or an array would broadcast it)."""
    kinds = (cst.List, cst.Tuple, cst.ListComp)
    found = []
    for node in walk.nodes_of(fn.body, cst.BinaryOperation):
        if not isinstance(node.operator, cst.Multiply):  # type: ignore[attr-defined]
            continue
        left, right = node.left, node.right  # type: ignore[attr-defined]
        if isinstance(left, kinds) != isinstance(right, kinds):
            found.append(right if isinstance(left, kinds) else left)
    return found


# why a parameter handed to a function of a private compiled module needs a NumPy array (`writers`)
PRIVATE_MODULE = ("a function of a private compiled module, which takes NumPy arrays only (a JAX array has no "
                  "buffer to give it) and may write into them")


def _merged(group: list[tuple[cst.FunctionDef, list[str]]],
            own: Mapping[cst.FunctionDef, dict[str, str]]) -> Optional[tuple[list[str], dict[str, str]]]:
    """The `Writers` entry of the functions of one key (a method and its overrides): the first one's positional
    parameters, and the needs of each, a positional parameter renamed to the first one's at its position (`def
    _evaluate(self, x, out)` in a base class, `def _evaluate(self, xs, buf)` in a subclass); None when none needs
    anything."""
    params = group[0][1]
    if len(group) == 1:
        needs = own.get(group[0][0])
        return (params, needs) if needs else None
    params = list(params)
    for _, names in group[1:]:  # (an override taking more positional parameters: named by it past the first's)
        if not any(p.startswith("*") for p in params) and len(names) > len(params):
            params += names[len(params):]
    merged: dict[str, str] = {}
    for fn, names in group:
        for name, why in own.get(fn, {}).items():
            index = names.index(name) if name in names else -1
            merged.setdefault(params[index] if 0 <= index < len(params) and not params[index].startswith("*") else name,
                              why)
    return (params, merged) if merged else None


_CODE = cst.Module([])
# methods of an array that give something other than an array of its kind
_NOT_ARRAYS = frozenset({"tolist", "item", "tobytes", "tostring", "dumps", "dump", "tofile"})


def _copies_written(fn: cst.FunctionDef, written: set[str], params: set[str],
                    numpy: Callable[[cst.BaseExpression], bool] = lambda func: False) -> dict[str, str]:
    """{parameter: why} for the parameters of `fn` that a local name it writes into is made from, keeping their kind
    of array: a copy, a cast, a view, indexing or arithmetic (`sol = y.copy()`, then `sol[unknown] = ...`: pygsp's
    interpolation). Given a NumPy array, the local name holds a NumPy array, which the write needs unless an
    in-place rule rewrites it (it then reads the parameter through JAX: `jnp.array(y)`, `_inplace.jax_input`);
    given a JAX array, a write left NumPy's in place (unsafe to rewrite, or held back) fails. A caller's array made
    with NumPy must stay NumPy then (an order-free reading: it may keep more NumPy than needed). With `numpy` (which
    calls are NumPy's), a NumPy call that keeps a JAX array unwritable counts too (`_kind_roots`)."""
    if not written:
        return {}
    bound: dict[str, list[cst.BaseExpression]] = {}
    for assign in walk.nodes_of(fn.body, cst.Assign):
        for target in assign.targets:  # type: ignore[attr-defined]
            if isinstance(target.target, cst.Name):
                bound.setdefault(target.target.value, []).append(assign.value)  # type: ignore[attr-defined]
    found: dict[str, str] = {}
    for name in sorted(written):
        for value in bound.get(name, ()):
            for param in sorted(_kind_roots(value, params, bound, {name}, numpy)):
                found.setdefault(param, f"writes into `{name}`, made from it with its kind of array (`{name} = "
                                        f"{_CODE.code_for_node(value)}`)")
    return found


def _kind_roots(value: cst.BaseExpression, params: set[str], bound: dict[str, list[cst.BaseExpression]],
                seen: set[str], numpy: Callable[[cst.BaseExpression], bool] = lambda func: False) -> set[str]:
    """The parameters among `params` whose kind of array `value` has: it is one of them, or made from one by array
    methods, indexing, `.T` / `.real`, arithmetic, a comparison or a conditional, through local names (`bound`); or
    by a NumPy call (`numpy`) of its first argument that, given a JAX array, gives a JAX array (`np.sum(d)`:
    `DISPATCHING_FUNCTIONS`) or NumPy's read-only view of it (`np.asarray(d)`, `np.atleast_1d(d)`: `VIEW_FUNCTIONS`),
    neither of which can be written into (scipy.stats' yeojohnson: `llf = np.asarray(f(data))`, then
    `llf[np.isinf(llf)] = np.inf`)."""
    if isinstance(value, cst.Name):
        if value.value in params:
            return {value.value}
        if value.value in seen:
            return set()
        seen.add(value.value)
        return {p for v in bound.get(value.value, ()) for p in _kind_roots(v, params, bound, seen, numpy)}
    if isinstance(value, cst.Subscript) or isinstance(value, cst.Attribute) and value.attr.value in ARRAY_ATTRIBUTES:
        return _kind_roots(value.value, params, bound, seen, numpy)
    if isinstance(value, cst.Call) and isinstance(value.func, (cst.Attribute, cst.Name)) and value.args \
            and value.args[0].keyword is None and not value.args[0].star and numpy(value.func) \
            and dotted_name(value.func).split(".")[-1] in VIEW_FUNCTIONS | DISPATCHING_FUNCTIONS:
        return _kind_roots(value.args[0].value, params, bound, seen, numpy)
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and hasattr(np.ndarray, value.func.attr.value) \
            and value.func.attr.value not in _NOT_ARRAYS and not value.func.attr.value.startswith("_"):
        return _kind_roots(value.func.value, params, bound, seen, numpy)  # `y.copy()`, `y.astype(float)`, `y.reshape(n)`
    if isinstance(value, cst.BinaryOperation):
        return _kind_roots(value.left, params, bound, seen, numpy) | _kind_roots(value.right, params, bound, seen, numpy)
    if isinstance(value, cst.UnaryOperation) and not isinstance(value.operator, cst.Not):
        return _kind_roots(value.expression, params, bound, seen, numpy)
    if isinstance(value, cst.IfExp):
        return _kind_roots(value.body, params, bound, seen, numpy) | _kind_roots(value.orelse, params, bound, seen, numpy)
    if isinstance(value, cst.Comparison):  # `(x > 0.0).astype(float)` (properscoring's exceedances)
        return {p for part in (value.left, *(c.comparator for c in value.comparisons))
                for p in _kind_roots(part, params, bound, seen, numpy)}
    return set()


# why the inputs of a NumPy call given `out=` must be NumPy arrays
OUT_INPUT = ("which hands a JAX array on to the array's own method, and a JAX array's methods take no `out=` "
             "(NotImplementedError)")


def out_inputs(fn: cst.FunctionDef, numpy: Callable[[cst.BaseExpression], bool]) -> list[tuple[cst.Call, cst.BaseExpression]]:
    """(call, input) for each input of a NumPy call of `fn` that is given `out=` and is not a ufunc (`np.sum(x,
    axis=1, out=o[:, q])`: GPy's `_gradients_X_pure`): such a call stays NumPy (the in-place rules cannot always
    rewrite it), and NumPy hands an input that is not a NumPy array on to its own method (`x.sum(axis=1, out=...)`),
    which a JAX array has without `out=`; a ufunc converts its inputs instead."""
    found = []
    for call in walk.nodes_of(fn.body, cst.Call):
        if not any(a.keyword is not None and a.keyword.value == "out" for a in call.args) or not numpy(call.func):  # type: ignore[attr-defined]
            continue
        if isinstance(getattr(np, dotted_name(call.func).split(".")[-1], None), np.ufunc):  # type: ignore[attr-defined]
            continue
        found += [(call, a.value) for a in call.args if not a.star and not (a.keyword is not None and a.keyword.value == "out")]  # type: ignore[attr-defined]
    return found


TAKE_INPUT = ("which hands a JAX array on to the array's own `take` with `mode='raise'`, a mode JAX's `take` does not "
              "support (NotImplementedError)")


def take_inputs(fn: cst.FunctionDef, numpy: Callable[[cst.BaseExpression], bool]) -> list[tuple[cst.Call, cst.BaseExpression]]:
    """(call, array) for each `np.take(a, i)` of `fn` in NumPy's default mode (`'raise'`): NumPy hands an `a` that is
    not a NumPy array on to its own method, `a.take(i, axis=None, out=None, mode='raise')`, which a JAX array rejects
    (librosa's `np.take(bpms, best_period)` of a helper's result). The other NumPy functions that dispatch to a method
    of their argument (`np.round`, `np.clip`, `np.repeat`, `np.sum`...) call JAX's with arguments it takes, but for
    `out=` (`out_inputs`); the indices are converted."""
    found = []
    for call in walk.nodes_of(fn.body, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if not isinstance(func, (cst.Name, cst.Attribute)) or dotted_name(func).split(".")[-1] != "take" or not numpy(func):
            continue
        args = call.args  # type: ignore[attr-defined]
        mode = next((a.value for a in args if a.keyword is not None and a.keyword.value == "mode"),
                    args[4].value if len(args) > 4 and args[4].keyword is None and not args[4].star else None)
        if mode is not None and not (isinstance(mode, cst.SimpleString) and mode.evaluated_value == "raise"):
            continue
        first = next((a.value for a in args if a.keyword is not None and a.keyword.value == "a"),
                     args[0].value if args and args[0].keyword is None and not args[0].star else None)
        if first is not None:
            found.append((call, first))
    return found


def numpy_calls(module: cst.Module) -> Callable[[cst.BaseExpression], bool]:
    """Whether a call's `func` names a NumPy function, by the module's top-level imports (`np.sqrt`, `sqrt` from
    `from numpy import sqrt`); local names that shadow them are not told apart."""
    aliases = ModuleImports.read(module).numpy_aliases
    return lambda func: bool(aliases) and dotted_name(func).split(".")[0] in aliases


# what `Sources(..., attributes=True)` gives for a value computed from a masked array (`np.ma.array(b, mask=m)`)
MASKED = "np.ma"


class Sources:
    """The names the values of one function are computed from: through arithmetic (`x = R / Rs`), conditional
    expressions, indexing (`R[1:]`), an array's attributes and methods (`R.T`, `R.reshape(n)`), displays, and the
    arguments of NumPy calls (`np.sum(R, 0)` is a JAX array for a JAX `R`; a ufunc given one gives a NumPy array,
    but only while it stays NumPy, which this reading cannot assume: it is followed too), through the function's
    local names, wherever they are bound (a loop's or comprehension's target by its iterable: `for c in chunks`; an
    unpacking target by the value unpacked: `low, high = coeffs`), and the builtin `sum` of its items (`sum(coeffs)`)
    (an order-free reading: it may find more than a run does, which only keeps more NumPy). Calls to other
    functions are not followed: what they return is not known here. With `attributes`, the attributes read count too, as `.name` (`c = np.zeros(k) + self.n` is computed from `.n`), and
    a `np.ma` call as `MASKED`. Given `calls`, a call it does not follow otherwise is read through it: what the
    callee's result is computed from (`.x` of `self.interp(v)` whose `interp` returns `v * self.x`; arguments are
    followed as the names they are computed from, and the strings as themselves)."""

    def __init__(self, fn: cst.FunctionDef, numpy: Callable[[cst.BaseExpression], bool], attributes: bool = False,
                 calls: Optional[Callable[[cst.Call], list[Union[str, cst.BaseExpression]]]] = None) -> None:
        self._numpy = numpy
        self._attributes = attributes  # also `.n` for an attribute read (`self.n`), and `MASKED` for a `np.ma` call
        self._calls = calls
        self._edges: dict[str, set[str]] = {}
        for node in walk.nodes(fn.body):
            if isinstance(node, cst.Assign):
                names = set(self._operands(node.value))
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        self._edges.setdefault(target.target.value, set()).update(names)
                    elif isinstance(target.target, (cst.Tuple, cst.List)):  # `low, high = coeffs`: an item of it
                        for item in walk.nodes_of(target.target, cst.Name):
                            self._edges.setdefault(item.value, set()).update(names)  # type: ignore[attr-defined]
            elif isinstance(node, (cst.AugAssign, cst.AnnAssign)) and isinstance(node.target, cst.Name) \
                    and node.value is not None:
                self._edges.setdefault(node.target.value, set()).update(self._operands(node.value))
            elif isinstance(node, (cst.For, cst.CompFor)):  # `for c in chunks`: an item of `chunks` (a row of an
                # array, or an item of a list of arrays, is of its kind; `for lo, hi in zip(nodes[:-1], nodes[1:])`:
                # an item of one of the sequences zipped)
                iterables = node.iter.args if isinstance(node.iter, cst.Call) and isinstance(node.iter.func, cst.Name) \
                    and node.iter.func.value in ("zip", "enumerate", "reversed") else []
                names = {n for iterable in ([a.value for a in iterables] or [node.iter]) for n in self._operands(iterable)}
                for target in walk.nodes_of(node.target, cst.Name):
                    self._edges.setdefault(target.value, set()).update(names)  # type: ignore[attr-defined]

    def of(self, value: cst.BaseExpression) -> set[str]:
        """The names `value` is computed from, directly or through the function's local names (itself included,
        for a name)."""
        found: set[str] = set()
        pending = list(self._operands(value))
        while pending:
            name = pending.pop()
            if name not in found:
                found.add(name)
                pending.extend(self._edges.get(name, ()))
        return found

    def _operands(self, value: cst.BaseExpression) -> Iterator[str]:
        stack = [value]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Name):
                yield node.value
            elif isinstance(node, cst.BinaryOperation) and self._attributes and isinstance(node.operator, cst.Multiply) \
                    and isinstance(node.left, cst.List):  # `[0] * self.n`: `self.n` is a count
                stack.append(node.left)
            elif isinstance(node, cst.BinaryOperation):
                stack += [node.left, node.right]
            elif isinstance(node, cst.UnaryOperation):
                stack.append(node.expression)
            elif isinstance(node, cst.IfExp):
                stack += [node.body, node.orelse]
            elif isinstance(node, cst.Subscript):
                stack.append(node.value)
            elif isinstance(node, cst.Attribute) and node.attr.value in ARRAY_ATTRIBUTES:
                stack.append(node.value)
            elif isinstance(node, cst.Attribute) and self._attributes and not self._numpy(node):  # (not `np.pi`)
                yield f".{node.attr.value}"
            elif isinstance(node, (cst.Tuple, cst.List)):
                stack += [e.value for e in node.elements]
            elif isinstance(node, cst.Call):
                func = node.func
                if self._numpy(func):  # `np.sum(R, 0)`, `np.where(m, R, 0)`
                    *path, last = dotted_name(func).split(".")  # type: ignore[arg-type]
                    if self._attributes and "ma" in path:
                        yield MASKED
                    elif self._attributes and (last in ARRAY_MAKERS or isinstance(getattr(np, last, None), np.ufunc)):
                        continue  # `np.zeros_like(self.w)`: a NumPy array, whatever it is given, where the code stays NumPy
                    stack += [a.value for a in node.args if not (a.keyword is not None and a.keyword.value == "out")]
                elif isinstance(func, cst.Attribute) and hasattr(np.ndarray, func.attr.value) \
                        and not (isinstance(func.value, cst.Name) and func.value.value == "self"):
                    stack.append(func.value)  # `R.reshape(n)`, `(R / Rs).sum()`: a method of the array
                elif isinstance(func, cst.Name) and func.value == "sum" and node.args and not node.args[0].star \
                        and node.args[0].keyword is None:  # `sum(coeffs)`: its items added up (`0 + c0 + ...`),
                    stack += [a.value for a in node.args]  # of their kind (and `start`'s)
                elif self._calls is not None:  # `self.interp(v)`: what the module's function returns is made of
                    for read in self._calls(node):
                        if isinstance(read, str):
                            yield read
                        else:
                            stack.append(read)


def _signature(key: str, fn: cst.FunctionDef, method: bool) -> tuple[str, cst.FunctionDef, list[str], set[str]]:
    """(key, function, positional parameters as a caller passes them, every parameter name). A `*args` parameter
    ends the positional ones as `*args` (`_handed` gives it the arguments past the others)."""
    params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
    if method and params and params[0] in ("self", "cls"):
        params = params[1:]
    every = {*params, *(p.name.value for p in fn.params.kwonly_params)}
    if isinstance(fn.params.star_arg, cst.Param):
        params.append(f"*{fn.params.star_arg.name.value}")
        every.add(fn.params.star_arg.name.value)
    return key, fn, params, every


# SciPy's optimizers, root finders and integrators that call a function `f(x, *args)` with the `args` they are
# given: {name: (the position of `args` among their parameters, or None for a keyword only; how many arguments
# the function is given before `args`)} (SciPy 1.16's signatures; a name alone: another library's namesake of the
# same convention counts too, which only keeps more NumPy)
EXTRA_ARGS_CALLERS: dict[str, tuple[Optional[int], int]] = {
    "minimize": (2, 1), "minimize_scalar": (3, 1), "fminbound": (3, 1), "brent": (1, 1), "golden": (1, 1),
    "bracket": (3, 1), "fmin": (2, 1), "fmin_powell": (2, 1), "fmin_cg": (3, 1), "fmin_bfgs": (3, 1),
    "fmin_ncg": (5, 1), "fmin_l_bfgs_b": (3, 1), "fmin_tnc": (3, 1), "fmin_cobyla": (3, 1), "fmin_slsqp": (10, 1),
    "leastsq": (2, 1), "least_squares": (None, 1), "fsolve": (2, 1), "root": (2, 1), "root_scalar": (1, 1),
    "brentq": (3, 1), "brenth": (3, 1), "ridder": (3, 1), "bisect": (3, 1), "toms748": (3, 1), "newton": (3, 1),
    "fixed_point": (2, 1), "differential_evolution": (2, 1), "dual_annealing": (2, 1), "shgo": (2, 1),
    "direct": (None, 1), "brute": (2, 1), "quad": (3, 1), "quad_vec": (None, 1), "fixed_quad": (3, 1),
    "dblquad": (5, 2), "tplquad": (7, 3), "odeint": (3, 2), "solve_ivp": (None, 2),
}
# the keywords of those calls that name other functions given the same `args` (a gradient, a Jacobian, a Hessian)
EXTRA_ARGS_FUNCTIONS = frozenset({"jac", "hess", "hessp", "fprime", "fprime2", "fhess", "fhess_p", "Dfun"})


def _extra_args(call: cst.Call, table: Writers) -> Iterator[tuple[cst.BaseExpression, str, str, str]]:
    """`_handed` for a SciPy optimizer, root finder or integrator given a function of `table` and `args=(x, ...)`
    (`optimize.fminbound(_neg_llf, lo, hi, args=(x,))`: it calls `_neg_llf(t, x)`; scipy.stats' yeojohnson,
    signal's buttord): each item of `args` is handed to the function's parameter at its position after the
    arguments the caller gives first (`EXTRA_ARGS_CALLERS`)."""
    func = call.func
    name = dotted_name(func).split(".")[-1] if isinstance(func, (cst.Attribute, cst.Name)) else ""
    spec = EXTRA_ARGS_CALLERS.get(name)
    if spec is None or not call.args:
        return
    position, before = spec
    extra = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "args"), None)
    positional = [a for a in call.args if a.keyword is None]
    if extra is None and position is not None and not any(a.star for a in positional[:position + 1]) \
            and len(positional) > position:
        extra = positional[position].value
    if isinstance(extra, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) and not isinstance(extra, cst.Call):
        extra = cst.Tuple([cst.Element(extra)])  # `args=x`: SciPy takes a lone argument as `(x,)`
    if not isinstance(extra, (cst.Tuple, cst.List)) or any(isinstance(e, cst.StarredElement) for e in extra.elements):
        return
    callbacks = [call.args[0].value] if call.args[0].keyword is None and not call.args[0].star else []
    callbacks += [a.value for a in call.args if a.keyword is not None and a.keyword.value in EXTRA_ARGS_FUNCTIONS]
    for callback in callbacks:
        key = callback.value if isinstance(callback, cst.Name) else f"self.{callback.attr.value}" \
            if isinstance(callback, cst.Attribute) and isinstance(callback.value, cst.Name) else None
        if key is None or key not in table:
            continue
        params, needed = table[key]
        star = params[-1][1:] if params and params[-1].startswith("*") else None
        plain = params[:-1] if star else params
        shown = f"{dotted_name(callback)}` through `{dotted_name(func)}(..., args=...)"  # (shown between backticks)
        for index, element in enumerate(extra.elements):
            at = before + index
            param = plain[at] if at < len(plain) else star
            if param is not None and param in needed:
                yield element.value, shown, param, needed[param]


def _handed(call: cst.Call, table: Writers) -> Iterator[tuple[cst.BaseExpression, str, str, str]]:
    """(argument, the callee as the call names it, its parameter, why the callee needs a NumPy array there: "" when
    it writes through it) for each argument of `call` given to a parameter of a function of `table` that needs one;
    and each item of the `args` a SciPy optimizer or integrator hands to a function of `table` (`_extra_args`)."""
    yield from _extra_args(call, table)
    func = call.func
    # a method of the module's classes, called on `self` or on an instance (`ddp.bellman(v, Tv=vs[t])`)
    key = func.value if isinstance(func, cst.Name) else f"self.{func.attr.value}" if isinstance(func, cst.Attribute) \
        and isinstance(func.value, cst.Name) else None
    if isinstance(func, cst.Attribute) and dotted_name(func) in table:  # `utils.log_normalize(a)`, imported module
        key = dotted_name(func)
    if key is None or key not in table:
        return
    params, needed = table[key]
    star = params[-1][1:] if params and params[-1].startswith("*") else None  # `def count(*xs)`: every argument past
    plain = params[:-1] if star else params  # the others is an item of `xs`
    shown = key if isinstance(func, cst.Name) or key == dotted_name(func) else dotted_name(func)
    for index, arg in enumerate(call.args):
        if arg.star:
            continue
        param = arg.keyword.value if arg.keyword is not None else (plain[index] if index < len(plain) else star)
        if param is not None and param in needed:
            yield arg.value, shown, param, needed[param]


_PYTHON_NUMBERS = frozenset({"bool", "int", "float", "complex"})


def python_number_test(call: cst.Call) -> tuple[Optional[cst.BaseExpression], str]:
    """(the value, its types' names) for `isinstance(value, float)` or `isinstance(value, (int, float))`: a test that
    a Python number (a NumPy scalar of a `float64` too) passes and a JAX array fails. (None, "") for any other call."""
    if not (isinstance(call.func, cst.Name) and call.func.value == "isinstance" and len(call.args) == 2):
        return None, ""
    kinds = call.args[1].value
    names = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
    if not names or not all(isinstance(n, cst.Name) and n.value in _PYTHON_NUMBERS for n in names):
        return None, ""
    return call.args[0].value, " or ".join(f"`{n.value}`" for n in names)  # type: ignore[attr-defined]


def host_call_why(call: cst.Call, fftpack: SparseNames, sparse: SparseNames, numpy_only: NumpyOnly,
                   code: Callable[[cst.CSTNode], str]) -> Optional[str]:
    """Why `call` needs NumPy arrays as its arguments (how a caller "hands it to" the call), else None: a
    `scipy.fftpack` transform, a `scipy.sparse` constructor (which tells a NumPy array by its type), a third-party
    function known to require one (`sparse_data.NumpyOnly`), a process pool's method or joblib's `delayed(f)(...)`
    (`NumpyOnly.pooled`: the value goes to worker processes), a function of the module numba compiles
    (`NumpyOnly.compiled`)."""
    shown = code(call.func).strip()
    if fftpack.is_sparse_call(call):
        return f"hands it to `{shown}(...)` of `scipy.fftpack`, which reads the NumPy attribute `.flags`"
    if sparse.is_sparse_call(call):
        return (f"hands it to `{shown}(...)` of `scipy.sparse`, which tells a NumPy array by its type (a JAX array is "
                "taken for a sequence of rows or diagonals)")
    qualified = numpy_only.called(call)
    if qualified is not None:
        return f"hands it to `{shown}(...)`, which requires a NumPy array (`{qualified}` {failure(qualified)})"
    pooled = numpy_only.pooled(call)
    if pooled is not None:
        return f"hands it to {pooled}: {POOLED}"
    compiled = numpy_only.compiled(call)
    if compiled is not None:
        return f"hands it to `{compiled}(...)`, {NUMBA}"
    return None


# why a value handed to a numba-compiled function (`NumpyOnly.compiled`) must be a NumPy array; and why such a
# function needs one as each of its parameters (`writers`)
NUMBA = "which numba compiles: numba takes NumPy arrays only (a JAX array raises `TypingError`)"
NUMBA_PARAMETER = "is compiled by numba, which takes NumPy arrays only (a JAX array raises `TypingError`)"


# why a value handed to worker processes (`NumpyOnly.pooled`) must be a NumPy array
POOLED = ("JAX's runtime is multithreaded and does not survive the fork that starts a worker, so a worker given a JAX "
          "array can deadlock, where a NumPy array travels as a plain buffer")


def _why(shown: str, param: str, needed: str) -> str:
    if not needed:
        return f"`{shown}` writes into its parameter `{param}`"
    return f"`{shown}` needs a NumPy array as its parameter `{param}`: it {needed}"


def handed_values(call: cst.Call, table: Writers) -> list[tuple[cst.BaseExpression, str]]:
    """(argument, why) for each argument of `call` given to a parameter of a function of `table` that writes through
    it or needs a NumPy array there, as written (`zeromean(bcrop(x, n), n)`: `bcrop(x, n)`)."""
    return [(value, _why(shown, param, needed)) for value, shown, param, needed in _handed(call, table)]


def filled_arguments(call: cst.Call, table: Writers, private_modules: set[str]) -> list[tuple[str, str]]:
    """(argument, why) for each argument of `call` that the callee may fill in place, or needs a NumPy array as
    (`table`): a name (a view of one: `vs[t]`, its name), or, as written, a call or arithmetic that makes an array
    in the call itself (`fill(np.zeros(n))`, `fill(np.sqrt(r) / 2)`, `fill(x * 2)`)."""
    func = call.func
    found = []
    handed = list(_handed(call, table)) if table else []
    for value, shown, param, needed in handed:
        name = _root(value) if isinstance(value, (cst.Name, cst.Subscript)) else None  # (a view: `vs[t]`)
        if name is not None:
            found.append((name, _why(shown, param, needed)))
    for value, shown, param, needed in handed:  # made in the call itself: `fill(np.zeros(n))`, `fill(x * 2)`; a
        # display of arrays (`rebuild([low, x - low])` to a parameter whose items reach a call that needs NumPy)
        if isinstance(value, (cst.Call, cst.BinaryOperation, cst.UnaryOperation, cst.List, cst.Tuple)):
            found.append((_CODE.code_for_node(value), _why(shown, param, needed)))
    root = dotted_name(func).split(".")[0] if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if root in private_modules:  # `_lbfgsb.setulb(...)`, or `_fill_p_cumulative(...)` imported from one
        why = f"`{dotted_name(func)}` belongs to a compiled module, which may write into it"
        found += [(name, why) for name in handed_arrays(call)]
    return found


def aliased_callees(fn: cst.FunctionDef, table: Writers, imported: Mapping[str, str]) -> Writers:
    """`table`'s entries under the local names `fn` binds to a function of it, as it is (`inverse = waverec`) or
    through `functools.partial` given keywords only (`inverse = partial(waverec, **kwargs)`, pywt's `mra`): a call
    `inverse(tmp)` hands `tmp` to that function's parameter. A name bound to several such functions (one per
    branch: `partial(iswt, ...)` or `partial(waverec, ...)`) takes the needs of each, by position under the first
    one's parameter names. `imported`: {local name: dotted name imported} (`partial`, `functools`)."""
    found: Writers = {}
    for assign in walk.nodes_of(fn.body, cst.Assign):
        value = assign.value  # type: ignore[attr-defined]
        target = value
        if isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)):
            head, _, rest = dotted_name(value.func).partition(".")
            if ".".join(filter(None, [imported.get(head, ""), rest])) != "functools.partial" or not value.args \
                    or value.args[0].keyword is not None or value.args[0].star \
                    or any(a.keyword is None and a.star != "**" for a in value.args[1:]):
                continue
            target = value.args[0].value
        if not isinstance(target, cst.Name) or target.value not in table:
            continue
        params, needed = table[target.value]
        for t in assign.targets:  # type: ignore[attr-defined]
            if isinstance(t.target, cst.Name) and t.target.value not in table:
                alias = t.target.value
                if alias in found:
                    first, needs = found[alias]
                    needs = {**needs, **{first[i]: needed[p] for i, p in enumerate(params) if p in needed and i < len(first)
                                         and not p.startswith("*") and not first[i].startswith("*")}}
                    found[alias] = (first, needs)
                else:
                    found[alias] = (params, dict(needed))
    return found


def handed_arrays(call: cst.Call) -> list[str]:
    """What `call` is given that may be an array, as written: a name, or a call or arithmetic that makes one in the
    call itself (`_tree.Tree(1, np.array([1]), 1)`)."""
    return [arg.value.value if isinstance(arg.value, cst.Name) else _CODE.code_for_node(arg.value) for arg in call.args
            if not arg.star and isinstance(arg.value, (cst.Name, cst.Call, cst.BinaryOperation, cst.UnaryOperation))]


# how many modules deep `imported_writers` follows what the modules it reads import in turn (`_writers_of_file`)
TRANSITIVE_DEPTH = 4


def imported_writers(module: cst.Module, path: str, module_name: str, *, chain: int = TRANSITIVE_DEPTH,
                     visiting: frozenset[str] = frozenset()) -> Writers:
    """`writers` of the functions this module imports from its own package (`from .utils import log_normalize`,
    `from hmmlearn.utils import ...`, `from . import utils` for `utils.log_normalize(a)`), keyed by the name the
    module calls them by. Another module is only read when a call names a function imported from it (one called
    for what it does, `normalize(a)`, or one whose result is used too: SALib's `scale_samples(params, bounds)`
    writes into `params` and returns it). What that module's functions need takes in what the functions IT imports
    from the package need, `chain` modules deep (pywt's `_mra` calls `waverec` of `_multilevel`, which hands the items
    of its `coeffs` to `idwt` of `_dwt`, which hands them to the compiled extension: `_writers_of_file`); `visiting`
    are the files of the chain read so far (a module reached again through an import cycle is read alone; not the
    module asking first, so that what a module needs is found once for all the modules reading it)."""
    sources: dict[str, tuple[list[str], str]] = {}  # local name -> (module, its function of that name)
    package = module_name.split(".")[:-1] if os.path.basename(path) != "__init__.py" else module_name.split(".")
    # (an import inside a function too: mne's `from ._stats import _masked_sum` in the function calling it; and, for
    # a module outside any package, a script's sibling module: `from helpers import kernel` finds `helpers.py` next
    # to it, as Python does for the script's own directory)
    for stmt in walk.nodes_of(module, cst.SimpleStatementLine):
        for node in stmt.body:  # type: ignore[attr-defined]
            if isinstance(node, cst.Import):  # `import pkg.util as u`, then `u.scale(a)`
                for alias in node.names:  # (a script's sibling module too: `import helpers as rec`, `import helpers`)
                    parts = dotted_name(alias.name).split(".")
                    if alias.asname is not None and package and parts[0] == package[0]:
                        sources[f"{alias.evaluated_alias}."] = (parts, "")
                    elif not package and (alias.asname is not None or len(parts) == 1) and _module_file(path, package, parts):
                        sources[f"{alias.evaluated_alias or parts[0]}."] = (parts, "")  # (not `import numpy as np`)
                continue
            if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar):
                continue
            level = len(node.relative)
            parts = dotted_name(node.module).split(".") if node.module is not None else []
            if level:
                base = package[:len(package) - level + 1] if level <= len(package) else None
            else:
                base = [] if parts and (not package or parts[0] == package[0]) else None
            if base is None:
                continue
            for alias in node.names:
                local = alias.evaluated_alias or dotted_name(alias.name)
                sources[local] = ([*base, *parts], dotted_name(alias.name))
                sources[f"{local}."] = ([*base, *parts, dotted_name(alias.name)], "")  # a module: `utils.f(a)`
    if not sources:
        return {}
    called = {dotted_name(c.func) for c in walk.nodes_of(module, cst.Call)
              if isinstance(c.func, (cst.Name, cst.Attribute))}  # type: ignore[attr-defined]
    # a function bound to a name or given to `partial` (`inverse = partial(waverec, **kwargs)`, then `inverse(tmp)`:
    # pywt's `mra`, `aliased_callees`)
    called |= {dotted_name(v) for c in walk.nodes_of(module, cst.Call) if isinstance(c.func, (cst.Name, cst.Attribute))
               and dotted_name(c.func).split(".")[-1] == "partial" and c.args  # type: ignore[attr-defined]
               and isinstance(v := c.args[0].value, (cst.Name, cst.Attribute))}  # type: ignore[attr-defined]
    called |= {dotted_name(a.value) for a in walk.nodes_of(module, cst.Assign)
               if isinstance(a.value, (cst.Name, cst.Attribute))}  # type: ignore[attr-defined]
    # the decorators (`@consistent_input`), as `@name`: `decorated`
    called |= {"@" + dotted_name(d.decorator) for f in walk.nodes_of(module, cst.FunctionDef)
               for d in f.decorators if isinstance(d.decorator, (cst.Name, cst.Attribute))}  # type: ignore[attr-defined]
    out: Writers = {}
    for name in called:
        at, name = name[:1] if name.startswith("@") else "", name.lstrip("@")
        head, _, rest = name.partition(".")
        if rest and "." not in rest and f"{head}." in sources:  # `utils.log_normalize`
            target, function = sources[f"{head}."][0], rest
        elif not rest and head in sources:
            target, function = sources[head]
        else:
            continue
        found = _writers_of_module(path, package, target, at + function, chain=chain, visiting=visiting)
        if found is not None:
            out[at + name] = found
    return out


def decorated(fn: cst.FunctionDef, params: list[str], imported: Writers) -> dict[str, str]:
    """{parameter of `fn`: why it needs a NumPy array} for the parameters a decorator of `fn` imported from another
    module of the package checks for a NumPy type in its wrapper (`@consistent_input`, whose `wrapper(data, *args,
    **kwargs)` raises unless `isinstance(data, np.ndarray | list)`: pysal's inequality), by position."""
    found: dict[str, str] = {}
    for decorator in fn.decorators:
        if not isinstance(decorator.decorator, (cst.Name, cst.Attribute)):
            continue
        shown = dotted_name(decorator.decorator)
        wrapper, checks = imported.get(f"@{shown}", ([], {}))
        for index, param in enumerate(wrapper):
            if param in checks and index < len(params):
                found.setdefault(params[index], f"is decorated with `@{shown}`, whose wrapper {checks[param]}")
    return found


def imported_numba(imported: Writers) -> frozenset[str]:
    """The names in `imported` (`imported_writers`) of functions numba compiles in their own module (every parameter
    needs a NumPy array for that reason: `NUMBA_PARAMETER`): `NumpyOnly.read(module, imported_numba(...))`."""
    return frozenset(name for name, (_, needs) in imported.items() if NUMBA_PARAMETER in needs.values())


def _writers_of_module(path: str, package: list[str], target: list[str], function: str, depth: int = 3, *,
                       chain: int = 0, visiting: frozenset[str] = frozenset()
                       ) -> Optional[tuple[list[str], dict[str, str]]]:
    """`writers` of `function` in module `target`, or in a module it star-imports (a package's `__init__.py` with
    `from pkg.sub.filt import *`: nitime's `algorithms`), to `depth` levels; None if not found. (`chain`,
    `visiting`: `_writers_of_file`.)"""
    file = _module_file(path, package, target)
    if not file:
        return None
    found = _writers_of_file(file, ".".join(target), chain, visiting).get(function)
    if found is not None or depth == 0:
        return found
    data = dependencies.read(file)
    if isinstance(data, str):  # (the text a run rewrote it to)
        data = data.encode("utf-8", "surrogateescape")
    if data is None:
        return None
    if file.endswith("__init__.py") and b"attach" in data:
        source = lazy_reexports(file, data, target).get(function)
        if source is not None:  # `util.softmask` of librosa's `util/__init__.pyi`: `from .utils import softmask`
            return _writers_of_module(path, package, source[0].split("."), source[1], depth - 1, chain=chain,
                                      visiting=visiting)
    if b"*" not in data:
        return None
    for source in star_sources(".".join(target), file.endswith("__init__.py"), data):
        found = _writers_of_module(path, package, source.split("."), function, depth - 1, chain=chain,
                                   visiting=visiting)
        if found is not None:
            return found
    return None


def lazy_reexports(file: str, data: bytes, target: list[str]) -> dict[str, tuple[str, str]]:
    """{name: (module, its name there)} for what the package `target`, whose `__init__.py` is `file` with source
    `data`, exports lazily through `lazy_loader`: `__getattr__, __dir__, __all__ = lazy.attach_stub(__name__,
    __file__)` exports what the `__init__.pyi` stub beside it imports (`from .utils import softmask as softmask`:
    librosa's `util`), `lazy.attach(__name__, submod_attrs={"utils": ["softmask"]})` the names it lists. Python
    never runs those imports until a name is read, so a plain reading of `__init__.py` finds none of them."""
    found: dict[str, tuple[str, str]] = {}
    if b"attach_stub" in data:
        stub = dependencies.read(file + "i")
        if isinstance(stub, str):
            stub = stub.encode("utf-8", "surrogateescape")
        for name, bound in imported_bindings(".".join(target), True, stub or b"").items():
            module, _, original = bound.rpartition(".")
            if module and module.startswith(".".join(target) + "."):  # (not `import numpy as np` in the stub)
                found[name] = (module, original)
    if re.search(rb"\battach\(", data) and b"submod_attrs" in data:
        try:
            tree = cst.parse_module(data)
        except (cst.ParserSyntaxError, UnicodeDecodeError):
            return found
        for call in walk.nodes_of(tree, cst.Call):
            if not (isinstance(call.func, (cst.Name, cst.Attribute)) and dotted_name(call.func).split(".")[-1] == "attach"):  # type: ignore[attr-defined]
                continue
            table = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "submod_attrs"), None)  # type: ignore[attr-defined]
            for element in table.elements if isinstance(table, cst.Dict) else ():
                if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString) \
                        or not isinstance(element.value, (cst.List, cst.Tuple)):
                    continue
                module = f"{'.'.join(target)}.{element.key.evaluated_value}"
                for item in element.value.elements:
                    if isinstance(item.value, cst.SimpleString) and isinstance(item.value.evaluated_value, str):
                        found.setdefault(item.value.evaluated_value, (module, item.value.evaluated_value))
    return found


def _module_file(path: str, package: list[str], target: list[str]) -> str:
    """The file of module `target` (dotted parts from the top package), found from this module's `path` inside
    `package`, or ""."""
    root = os.path.dirname(os.path.abspath(path))
    for _ in package:
        root = os.path.dirname(root)
    folder = os.path.join(root, *target)
    for candidate in (folder + ".py", os.path.join(folder, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return ""


def _writers_of_file(file: str, module_name: str = "", chain: int = 0,
                     visiting: frozenset[str] = frozenset()) -> Writers:
    """`writers` of the module `module_name` in `file` (read as a dependency of the module asking:
    `jaxfix.dependencies`), taking in, `chain` modules deep, what the functions it imports from its package need
    (`imported_writers`), unless `file` is one of `visiting` (an import cycle). Every file of the chain is read
    through `dependencies.read`, so the asking module's result depends on each (the cache, the runner's second
    round); one whose facts take in its imports is also read whole (its facts then rest on how it calls them, which
    `writers_of_source` alone does not show). Found once per run for each file, chain and files of its own chain
    still holding the contents they were read with (`_CHAINED`)."""
    file = os.path.abspath(file)
    data = dependencies.read(file, writers_of_source)
    if data is None:
        return {}
    if chain <= 0 or not module_name or file in visiting:
        return writers_of_source(data, file)
    key = (file, module_name, chain, visiting)
    known = _CHAINED.get(key)
    # (each read again: noted as a dependency of the module asking now, and checked to give what it gave)
    if known is not None and known[0] == data \
            and all(dependencies.read_as(path, reader) == text for path, reader, text in known[1]):
        return known[2]
    with dependencies.noting() as read:
        found = _chained_writers(data, file, module_name, chain, visiting)
    if len(_CHAINED) >= 256:
        _CHAINED.clear()
    _CHAINED[key] = (data, tuple((path, reader, dependencies.read_as(path, reader)) for path, reader in sorted(read)),
                     found)
    return found


def _chained_writers(data: dependencies.Text, file: str, module_name: str, chain: int,
                     visiting: frozenset[str]) -> Writers:
    """`writers_of_source`, with what the module's imports from its package need (`_writers_of_file`)."""
    tree = _parsed(data)
    imported = imported_writers(tree, file, module_name, chain=chain - 1, visiting=visiting | {file}) \
        if tree is not None else {}
    if not imported:
        return writers_of_source(data, file)
    dependencies.read(file)  # (read whole: see `_writers_of_file`)
    return _writers_of_tree(tree, file, imported)  # type: ignore[arg-type]


# {(file, module, chain, visiting): (its contents, ((path, reader, contents), ...) read for it, its writers)}
# (`_writers_of_file`)
_CHAINED: dict[tuple[str, str, int, frozenset[str]],
               tuple[dependencies.Text, tuple[tuple[str, str, Optional[dependencies.Text]], ...], Writers]] = {}


def _parsed(data: dependencies.Text) -> Optional[cst.Module]:
    try:
        return cst.parse_module(data)
    except (cst.ParserSyntaxError, UnicodeDecodeError):
        return None


@functools.lru_cache(maxsize=64)
def writers_of_source(data: dependencies.Text, path: str = "") -> Writers:
    """`writers` of the module with source `data` (at `path`, when known: its private imports of Python modules
    beside it are no compiled ones, `private_modules`), but for methods."""
    tree = _parsed(data)
    return _writers_of_tree(tree, path) if tree is not None else {}


def _writers_of_tree(tree: cst.Module, path: str, imported: Optional[Writers] = None) -> Writers:
    """`writers_of_source` of the parsed module `tree`, with `imported` (`imported_writers`)."""
    # (a parameter checked for a NumPy type: stumpy's `core.rolling_isconstant`, whose test only a migration of that
    # module widens to accept JAX arrays; its callers' own module widens its own tests, so only another's count)
    typed = source_typed_parameters(tree, numpy_calls(tree))
    found = {k: v for k, v in writers(tree, imported, typed=typed, path=path).items() if not k.startswith("self.")}
    # a decorator whose wrapper checks a parameter for a NumPy type, as `@name` (`imported_writers`: `decorated`)
    for name, (params, checks) in decorator_typed_parameters(tree, numpy_calls(tree)).items():
        found[f"@{name}"] = (params, {p: f"checks it with `{check}`, which a JAX array fails" for p, check in checks.items()})
    return found



# `obj.attr[...] = v`, `obj.attr[i][j] += v` (one level of brackets nested in an index), `obj.attr.fill(...)`,
# `obj.attr.__iadd__(...)`, `out=obj.attr`, `output=obj.attr` (an argument, after `(` or `,`: not an assignment to a
# name `out`): what `mutated_attributes` finds, found in a file's bytes without parsing it
_ATTRIBUTE_WRITES = re.compile(
    rb"\.([A-Za-z_]\w*)(?:\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\])+[ \t]*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)"
    rb"|\.([A-Za-z_]\w*)\.(?:fill|sort|resize|put|itemset|partition"
    rb"|__setitem__|__i(?:add|sub|mul|matmul|truediv|floordiv|mod|pow|and|or|xor|lshift|rshift)__)\("
    rb"|[(,][ \t\r\n]*(?:out|output)[ \t]*=[ \t]*[A-Za-z_][\w.]*\.([A-Za-z_]\w*)\b"  # (an argument: not `out = self.c * 2`)
)


def attribute_writes(path: str, module_name: str, data: bytes) -> dict[str, str]:
    """{attribute name: the module} for the attributes a module writes into in place (the project index of JX501:
    an array stored in such an attribute in another module must stay NumPy), directly (`obj.w[i] = v`) or through a
    local name bound to the attribute in the same function (`sigma2 = model.sigma2`, then `sigma2[jj] = v`:
    pymcmcstat's ErrorVarianceEstimator; what `_aliased_writes` finds in the module itself). No line numbers: the
    linked facts are part of the result cache's key, which an edit elsewhere in the file must not change."""
    where = module_name or os.path.basename(path)
    found = {(m.group(1) or m.group(2) or m.group(3)).decode("ascii", "replace"): where
             for m in _ATTRIBUTE_WRITES.finditer(data)}
    aliases = [(name, attribute, at) for name, attribute, at in _attribute_aliases_in(data)
               if attribute.decode("ascii", "replace") not in found] if b"=" in data else []
    written = _written_names(data) if aliases else {}
    for m in _AUGMENTED_NAME.finditer(data) if aliases else ():  # `sigma2 += v`: in place for a NumPy array
        written.setdefault(m.group(1), []).append(m.start())
    scopes = _Scopes(data) if written else None
    for name, attribute, at in aliases:
        if scopes is None or name not in written:
            continue
        span = scopes.around(at)  # (written in the function binding the alias; the module's span at top level)
        if any(span[0] <= w < span[1] for w in written[name]):
            found.setdefault(attribute.decode("ascii", "replace"), where)
    return found


def _attribute_aliases_in(data: bytes) -> list[tuple[bytes, bytes, int]]:
    """(local name, attribute, offset) for the names a module's bytes bind to an attribute: `s = model.s`, `s =
    holder.model.s`, `s = getattr(model, "s")` on a line of their own, an item of a tuple assignment (`a, s = 0,
    model.s`), or with a walrus (`(s := model.s)`)."""
    found = [(m.group(1), m.group(2) or m.group(3), m.start()) for m in _ATTRIBUTE_ALIAS.finditer(data)]
    found += [(m.group(1), m.group(2), m.start()) for m in _WALRUS_ALIAS.finditer(data)] if b":=" in data else []
    for m in _TUPLE_ALIAS.finditer(data):
        names, values = m.group(1).split(b","), m.group(2).split(b",")
        if len(names) == len(values):
            for name, value in zip(names, values):
                attribute = _DOTTED_ATTRIBUTE.fullmatch(value.strip())
                if attribute is not None:
                    found.append((name.strip(), attribute.group(1), m.start()))
    return found


# `sigma2 = model.sigma2`, `s = holder.model.s`, `s = getattr(model, "s")` on a line of its own: a local name bound
# to an attribute (`attribute_writes`)
_ATTRIBUTE_ALIAS = re.compile(
    rb"^[ \t]*+([A-Za-z_]\w*+)[ \t]*+=[ \t]*+(?:(?:[A-Za-z_]\w*+\.)++([A-Za-z_]\w*+)|getattr\([ \t]*+[A-Za-z_][\w.]*+"
    rb"[ \t]*+,[ \t]*+[\"']([A-Za-z_]\w*+)[\"'][ \t]*+\))[ \t]*+(?:#[^\n]*+)?+\r?$", re.M)
# `a, s = 0, model.s`: names and values without brackets, paired by position (`_attribute_aliases_in`)
_TUPLE_ALIAS = re.compile(
    rb"^[ \t]*+([A-Za-z_]\w*+(?:[ \t]*+,[ \t]*+[A-Za-z_]\w*+)++)[ \t]*+=[ \t]*+([^\n#=()\[\]{}'\",]*+(?:,[^\n#=()\[\]{}'\",]*+)++)"
    rb"(?:#[^\n]*+)?+\r?$", re.M)
_DOTTED_ATTRIBUTE = re.compile(rb"(?:[A-Za-z_]\w*+\.)++([A-Za-z_]\w*+)")
_WALRUS_ALIAS = re.compile(rb"\([ \t]*+([A-Za-z_]\w*+)[ \t]*+:=[ \t]*+(?:[A-Za-z_]\w*+\.)++([A-Za-z_]\w*+)[ \t]*+\)")
# `sigma2 += v`: an augmented assignment of a plain name, in place for a NumPy array
_AUGMENTED_NAME = re.compile(rb"^[ \t]*+([A-Za-z_]\w*+)[ \t]*+(?:[-+*/%&|^@]|//|\*\*|<<|>>)=(?!=)", re.M)


def _written_names(data: bytes) -> dict[bytes, list[int]]:
    """{name: the offsets of the in-place writes into it}: an item's (`bits[0] = v`, `h[i] += 1`), a writing
    method's (`bits.fill(0)`) or a call's output (`out=y`, `np.copyto(y, v)`), found in the bytes."""
    written: dict[bytes, list[int]] = {}
    for m in (*_WRITTEN_NAME.finditer(data), *_OUTPUT_NAME.finditer(data)):
        written.setdefault(m.group(1), []).append(m.start())
    for method in _WRITING_METHOD.finditer(data):
        before = _NAME_BEFORE.search(data, max(0, method.start() - 80), method.start())
        if before is not None:
            written.setdefault(before.group(1), []).append(method.start())
    return written


# a call of a name with a private part (`_c_loop(`, `_lbfgsb.setulb(`): a candidate for `_compiled_arguments`
_PRIVATE_CALL = re.compile(rb"(?<![\w.])((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)[ \t]*\(")
_PLAIN_ARGUMENT = re.compile(rb"^(?:[A-Za-z_]\w*[ \t]*=(?!=)[ \t]*)?([A-Za-z_]\w*)$")


def _compiled_arguments(path: str, module_name: str, data: bytes) -> dict[bytes, list[int]]:
    """{name: the offsets of the calls it is given to} for the names handed as they are to a function of a private
    compiled module (`from .lib.cok import _c_loop`, then `_c_loop(a, bd, n)`: PyKrige's Cython backend, whose typed
    memoryviews refuse a read-only JAX buffer), by `private_modules`'s convention read off the bytes: an imported
    binding with a private part (not `__`) that no Python file of the package provides."""
    if b"_" not in data or b"import" not in data:
        return {}
    is_package = os.path.basename(path) == "__init__.py"
    bindings = imported_bindings(module_name, is_package, data) if module_name else {}
    root = os.path.abspath(path)  # the folder above the top package (`pkg/ok.py` for `pkg.ok`: two levels up)
    for _ in range(len(module_name.split(".")) + (1 if is_package else 0)):
        root = os.path.dirname(root)

    def compiled(qualified: str) -> bool:
        parts = qualified.split(".")
        if not any(p.startswith("_") and not p.startswith("__") for p in parts):
            return False
        return not any(os.path.isfile(os.path.join(root, *parts[:k]) + ".py") for k in range(1, len(parts) + 1))

    private = {local.encode() for local, qualified in bindings.items() if compiled(qualified)}
    found: dict[bytes, list[int]] = {}
    for m in _PRIVATE_CALL.finditer(data) if private else ():
        if m.group(1).split(b".")[0] not in private or data[max(0, m.start() - 4):m.start()] == b"def ":
            continue
        depth, start, args = 0, m.end(), []
        for at in range(m.end(), min(len(data), m.end() + 4000)):  # the arguments, split at depth 0
            c = data[at:at + 1]
            if c in b"([{":
                depth += 1
            elif c in b")]}":
                if depth == 0:
                    args.append(data[start:at])
                    break
                depth -= 1
            elif c == b"," and depth == 0:
                args.append(data[start:at])
                start = at + 1
        for arg in args:
            plain = _PLAIN_ARGUMENT.match(arg.strip())
            if plain is not None:
                found.setdefault(plain.group(1), []).append(m.start())
    return found


def link_attribute_writes(summaries: dict[str, dict[str, str]]) -> dict[str, str]:
    """Every module's attribute writes, the first place (by path) for each name."""
    linked: dict[str, str] = {}
    for path in sorted(summaries):
        for name, where in summaries[path].items():
            linked.setdefault(name, where)
    return linked


# `bits = to_bits(n, w)`, `az, r = to_polar(v)` or `h = util.hist(x)` at the start of a line: (the names, the
# callee's module alias or None, the callee)
_BOUND_TO_CALL = re.compile(  # (possessive: no backtracking into a name, which could never match)
    rb"^[ \t]*\(?+([A-Za-z_]\w*+(?:[ \t]*+,[ \t]*+[A-Za-z_]\w*+)*+)[ \t]*+,?+\)?+(?:[ \t]*+:[^=\n]*+)?+[ \t]*+=[ \t]*+"
    rb"((?:[A-Za-z_]\w*+\.)*+)([A-Za-z_]\w*+)\(", re.M)  # (an annotation, `bits: np.ndarray = ...`; a dotted path)
# `bits[0] = v`, `h[i] += 1`: the name written into in place, also an element of a tuple target (`a[i], a[j] =
# a[j], a[i]`: the first one written of a line); `.fill(`: a writing method, whose object is the name just before it
# (found from the method, which is rare, rather than from every name followed by a dot)
_WRITTEN_NAME = re.compile(
    rb"^[ \t]*\(?(?:[^=\n(#]*?,[ \t]*\(?)?([A-Za-z_]\w*)\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]"
    rb"(?:\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\])*[ \t]*(?:[,)][^=\n(]*)?(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)", re.M)
_WRITING_METHOD = re.compile(rb"\.(?:fill|sort|resize|put|itemset|partition)\(")
# `out=y`, `output=y[0]`, `np.copyto(y, v)`: a name given to a call as the array it writes into
_OUTPUT_NAME = re.compile(rb"(?:[(,][ \t\r\n]*(?:out|output)[ \t]*=[ \t]*|\bcopyto\([ \t]*)([A-Za-z_]\w*)\b(?![ \t]*[.(=])")
# `self.sigmas = self.points_fn.sigma_points(x)` or `self.y = util.make(n)` at the start of a line: (the attribute,
# the callee's dotted path before its name, the callee)
_ATTRIBUTE_BOUND_TO_CALL = re.compile(
    rb"^[ \t]*+[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)*?\.([A-Za-z_]\w*+)[ \t]*+=[ \t]*+((?:[A-Za-z_]\w*+\.)*+)([A-Za-z_]\w*+)\(",
    re.M)
# `self.ok, self.err = util.make(n)` at the start of a line: (the targets, the callee's dotted path before its name,
# the callee); each attribute of the targets is stored an item of the result (`_UNPACKED_ATTRIBUTE`)
_ATTRIBUTES_UNPACKED_FROM_CALL = re.compile(
    rb"^[ \t]*+\(?+([^=\n(#]*,[^=\n(#]*)[ \t]*+=[ \t]*+((?:[A-Za-z_]\w*+\.)*+)([A-Za-z_]\w*+)\(", re.M)
_UNPACKED_ATTRIBUTE = re.compile(rb"\.([A-Za-z_]\w*+)[ \t)]*+(?:,|\Z)")
_NAME_BEFORE = re.compile(rb"([A-Za-z_]\w*)\Z")
# `e.argsort(kind="quicksort")`, `e.argsort(0, "mergesort")` (group 1: the name), or the same of a call's result,
# `util.embed(x).argsort(kind=...)` (group 2: the callee's dotted path before its name, group 3: the callee): a sort
# algorithm the JAX array method rejects
_KIND_SORTED = re.compile(
    rb"(?:(?<![\w.])([A-Za-z_]\w*)|(?<![\w.])((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)\((?:[^()\n]|\([^()\n]*\))*\))"
    rb"\.argsort\((?:[^()\n]|\([^()\n]*\))*(?:\bkind[ \t]*=|,[ \t]*[\"'])")
# `y.flags`, `make(n).strides`: a read through an attribute or method only a NumPy array has (`BUFFER_ATTRIBUTES`,
# `BUFFER_METHODS`; not `.data`, which many other objects have), of a name or of a call's result, as `_KIND_SORTED`
_BUFFER_READ_WORDS = (b".flags", b".strides", b".ctypes", b".__array_interface__", b".base", b".flat", b".setflags(",
                      b".tofile(", b".byteswap(", b".newbyteorder(", b".__array_wrap__")
_BUFFER_READ = re.compile(
    rb"(?:(?<![\w.])([A-Za-z_]\w*)|(?<![\w.])((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)\((?:[^()\n]|\([^()\n]*\))*\))"
    rb"\.(?:flags|strides|ctypes|__array_interface__|__array_wrap__|base|flat|setflags|tofile|byteswap|newbyteorder)\b"
    rb"(?![ \t]*=[^=])")
_DEF_LINE = re.compile(rb"^([ \t]*)(?:async[ \t]+)?(?:def|class)[ \t]", re.M)
_FUNCTION_LINE = re.compile(rb"[ \t]*(?:async[ \t]+)?def[ \t]")


class _Scopes:
    """The functions of a module's bytes, from its lines' indentation and its `def` (and `class`) lines: enough to
    tell, without parsing, the function a line binding a name is in, and so where a write into that name counts."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts: list[int] = []
        self.indents: list[int] = []
        for m in _DEF_LINE.finditer(data):
            self.starts.append(m.start())
            self.indents.append(len(m.group(1).expandtabs()))
        self.whole = (0, len(data))
        self.globals = b"global " in data  # (a function may bind a module's name)

    def around(self, at: int) -> tuple[int, int]:
        """The span of the outermost function around the line starting at offset `at` (a nested function's writes
        reach the names of the function around it), to the next `def`/`class` line at its indentation or less
        (module-level code after it counts with it); the whole module for a line at module level, or when the
        lines above cannot tell (a line of a string at column 0, a `global` statement in the module). Conservative:
        a span too wide only finds more writes."""
        data = self.data
        level = len(data[at:at + 200]) - len(data[at:at + 200].lstrip(b" \t"))
        if level == 0 or self.globals:
            return self.whole
        outer: Optional[tuple[int, int]] = None
        pos = at
        while pos > 0 and level > 0:  # up the lines, each less indented than the last one kept: the enclosing blocks
            start = data.rfind(b"\n", 0, pos - 1) + 1
            line = data[start:pos - 1]
            pos = start
            stripped = line.lstrip(b" \t")
            if not stripped.strip() or stripped.startswith((b"#", b")", b"]", b"}")):
                continue  # (a blank line, a comment, the closing line of brackets: `    ):` of a long signature)
            indent = len(line[: len(line) - len(stripped)].expandtabs())
            if indent < level:
                level = indent
                if _FUNCTION_LINE.match(data, start):  # (a class body is no scope its methods share)
                    outer = (start, indent)
        if outer is None:
            return self.whole
        index = bisect.bisect_left(self.starts, outer[0])
        for j in range(index + 1, len(self.starts)):
            if self.indents[j] <= outer[1]:
                return outer[0], self.starts[j]
        return outer[0], len(data)


def result_writes(path: str, module_name: str, data: bytes) -> dict[str, str]:
    """{qualified function name: the module} for the imported functions whose result this module binds to a name
    and writes into in place (`bits = to_bits(n, w)` after `from .util import to_bits`, or `h = util.hist(x)`
    after `from pkg import util`, then `bits[0] = 1 - bits[0]`): such a write into what another module returns is
    not rewritten (jaxfix cannot see where the array comes from), so the function must keep returning a NumPy
    array. So are those whose result it stores on an attribute it writes into in place (`self.y = make(n)`, then
    `self.y.fill(0)`), and a method of another object stored so (`self.sigmas = self.points_fn.sigma_points(x)`,
    then `self.sigmas[i] = v`: filterpy's UKF), recorded as `.sigma_points` since its class is not known here (any
    class's method of that name matches); so is a method of the module's own class bound to a name and written into
    (`y = self.evaluate(x)`, then `np.power(y, 2, out=y)`), as `.evaluate`: a subclass in another module may override
    it (any class's method of that name, in any other module of the run). A write is an item's (`bits[0] = v`), a
    writing method's (`bits.fill(0)`) or a call's output (`out=y`, `np.copyto(y, v)`); a read through an attribute
    or method only a NumPy array has (`y.flags`, `y.strides`: `_BUFFER_READ`) counts as one. A pattern search over the
    bytes, by name (not by scope: two functions binding the same name count as one); the qualified name is the
    import's (a package's re-export: `_caller_writes` matches it by package)."""
    written = _written_names(data)  # a name written into -> the offsets of those writes
    for name, offsets in _compiled_arguments(path, module_name, data).items():  # `_c_loop(a, bd)`: a compiled module's
        written.setdefault(name, []).extend(offsets)
    sorted_kind = [*_KIND_SORTED.finditer(data)] if b"argsort(" in data else []
    if any(word in data for word in _BUFFER_READ_WORDS):  # `y.flags["C_CONTIGUOUS"]`: JAX arrays have no `.flags`
        sorted_kind += _BUFFER_READ.finditer(data)
    for m in sorted_kind:  # `e.argsort(kind="quicksort")`: the JAX array method rejects `kind`
        if m.group(1):
            written.setdefault(m.group(1), []).append(m.start())
    scopes: Optional[_Scopes] = None  # the functions' spans, found when a name bound to a call is written somewhere
    where = module_name or os.path.basename(path)
    bindings: Optional[dict[str, str]] = None
    found: dict[str, str] = {}
    for m in sorted_kind:  # `embed(x).argsort(kind="quicksort")`: what an imported function returns, sorted so at once
        if m.group(3) is None:
            continue
        if bindings is None:
            bindings = imported_bindings(module_name, os.path.basename(path) == "__init__.py", data)
        root, callee = m.group(2).decode("ascii", "replace"), m.group(3).decode("ascii", "replace")
        head, *rest = (root.rstrip(".") or callee).split(".")
        source = bindings.get(head)
        if source is not None:
            found[".".join([source, *rest, callee]) if root else source] = where
        elif root in ("self.", "cls."):
            found[f".{callee}"] = where
    attributes = attribute_writes(path, module_name, data) if b"." in data else {}
    stored = [(m.group(1), m.group(2), m.group(3)) for m in _ATTRIBUTE_BOUND_TO_CALL.finditer(data)] if attributes else []
    stored += [(a.group(1), m.group(2), m.group(3)) for m in _ATTRIBUTES_UNPACKED_FROM_CALL.finditer(data)
               for a in _UNPACKED_ATTRIBUTE.finditer(m.group(1))] if attributes and b"," in data else []
    for groups in stored:
        # stored on an attribute this module writes into (filterpy's `self.sigmas = self.points_fn.sigma_points(x)`,
        # then `self.sigmas[i] = v`; an item of the result, `self.ok, self.err = make(n)`): an imported function by its
        # qualified name; a method of another object, whose class is not known here, as `.name` (any class's method
        # of that name, in any module of the run)
        attr, root, callee = (g.decode("ascii", "replace") for g in groups)
        if attr not in attributes:
            continue
        if bindings is None:
            bindings = imported_bindings(module_name, os.path.basename(path) == "__init__.py", data)
        head, *rest = (root.rstrip(".") or callee).split(".")
        source = bindings.get(head)
        if source is not None:
            found[".".join([source, *rest, callee]) if root else source] = where
        elif root:  # (`self.f(x)`: this module's method, which `written_results` follows, but which a subclass in
            found[f".{callee}"] = where  # another module may override)
    if not written:
        return found
    for match in _BOUND_TO_CALL.finditer(data):
        names, root, callee = match.groups()
        if not any(name.strip() in written for name in names.split(b",")):
            continue
        scopes = scopes if scopes is not None else _Scopes(data)
        span = scopes.around(match.start())  # written in the same function (`res2` of one test is not another's)
        if not any(span[0] <= at < span[1] for name in names.split(b",") for at in written.get(name.strip(), ())):
            continue
        if bindings is None:
            bindings = imported_bindings(module_name, os.path.basename(path) == "__init__.py", data)
        head, *rest = (root.decode("ascii", "replace").rstrip(".") or callee.decode("ascii", "replace")).split(".")
        source = bindings.get(head)  # `pkg.util.to_ref(n)` after `import pkg.util`: `pkg` is bound
        if source is not None:
            found[".".join([source, *rest, callee.decode("ascii", "replace")]) if root else source] = where
        elif root in (b"self.", b"cls."):  # `y = self.evaluate(x)`: a method of the class, which a subclass in another
            found[f".{callee.decode('ascii', 'replace')}"] = where  # module may override (any class's method of that name)
    return found


def written_result(rule, call: cst.Call) -> bool:
    """Whether `call` is one of a function another module may return a NumPy array from that `result_writes` of the
    rule's module lists (by the same qualified name: `pm.ramp(n)` after `import pkg.maker as pm` is
    `pkg.maker.ramp`): the function's module keeps it NumPy for what this module does with its result."""
    context = rule.context
    cache = context.__dict__
    if "_result_writes" not in cache:
        data = context.text.encode("utf-8", "replace")
        cache["_result_writes"] = result_writes(context.path, context.module_name, data) if context.module_name else {}
        cache["_result_bindings"] = imported_bindings(
            context.module_name, os.path.basename(context.path) == "__init__.py", data) if cache["_result_writes"] else {}
    found: dict[str, str] = cache["_result_writes"]
    func = dotted_name(call.func)
    if not found or not func:
        return False
    root, _, callee = func.rpartition(".")
    head, *rest = (root or callee).split(".")
    source = cache["_result_bindings"].get(head)
    if source is not None:
        return (".".join([source, *rest, callee]) if root else source) in found
    return head in ("self", "cls") and f".{callee}" in found


def project_writes(path: str, module_name: str, data: bytes) -> dict[str, dict[str, str]]:
    """JX501's project index of one module: the attributes it writes into in place (`attribute_writes`) and the
    functions of other modules whose results it writes into (`result_writes`)."""
    return {"attributes": attribute_writes(path, module_name, data), "results": result_writes(path, module_name, data)}


def link_project_writes(summaries: dict[str, dict[str, dict[str, str]]]) -> dict[str, dict[str, str]]:
    """Every module's `project_writes`, the first place (by path) for each name."""
    return {kind: link_attribute_writes({path: summary[kind] for path, summary in summaries.items()})
            for kind in ("attributes", "results")}


def _attribute(node: cst.BaseExpression) -> Optional[str]:
    """`w` for `self.w`, `self.w[i]`, `obj.w[i][j]`; None for anything not rooted at an attribute."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return node.attr.value if isinstance(node, cst.Attribute) else None


def mutated_attributes(module: cst.Module, table: Writers,
                       private: frozenset[str] = frozenset()) -> dict[str, cst.CSTNode]:
    """{attribute name: the first place that writes into it} for attributes the module's code writes into in place
    (`self.w[i] = v`, `self.w += v` on an item, `self.w += v` on an array the module makes with NumPy there
    (`_augmented_arrays`), `obj.w.fill(0)`, `out=self.w`, `fill(self.w)` where `fill`
    writes through that parameter, a call into a private compiled module given `self.w`, or a write through a local
    name bound to the attribute, `w = self.w; w[i] = v`). Those writes stay NumPy (they are unsafe to rewrite), so an array stored in
    such an attribute anywhere in the module must stay NumPy too."""
    found: dict[str, cst.CSTNode] = {}
    numpy_aliases = ModuleImports.read(module).numpy_aliases

    def add(name: Optional[str], where: cst.CSTNode) -> None:
        if name is not None:
            found.setdefault(name, where)

    for node in walk.nodes(module):
        if isinstance(node, cst.Assign):
            for leaf in (leaf for t in node.targets for leaf in target_leaves(t.target)):
                if isinstance(leaf, cst.Subscript):  # `self.w[i] = v`, `self.w[i], self.w[j] = ...`
                    add(_attribute(leaf), node)
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Subscript):
            add(_attribute(node.target), node)
        elif isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in WRITING_METHODS and isinstance(func.value, cst.Attribute):
                add(func.value.attr.value, node)
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value in OUT_KEYWORDS and isinstance(arg.value, cst.Attribute):
                    add(arg.value.attr.value, node)
            for out in positional_outs(node, numpy_aliases):  # `np.divide(self._array, n, self._array)`: astropy's
                if isinstance(out, cst.Attribute):  # Kernel.normalize
                    add(out.attr.value, node)
            if isinstance(func, cst.Name) and func.value in table:
                params, written = table[func.value]
                for index, arg in enumerate(node.args):
                    param = arg.keyword.value if arg.keyword is not None else (params[index] if index < len(params) else None)
                    if param in written and isinstance(arg.value, cst.Attribute):
                        add(arg.value.attr.value, node)
            root = dotted_name(func).split(".")[0] if isinstance(func, (cst.Name, cst.Attribute)) else ""
            if root in private:  # `_arpack.dseupd(..., self.d, ...)`: a compiled routine may fill it
                for arg in node.args:
                    if isinstance(arg.value, cst.Attribute):
                        add(arg.value.attr.value, node)
    numpy = numpy_calls(module)
    for name, where in _augmented_arrays(module, numpy).items():  # `self.p /= np.sum(self.p)`
        add(name, where)
    for prop, attribute in _property_attributes(module).items():  # `args.lvl[0] = l0` writes into `self._lvl`
        if prop in found:
            add(attribute, found[prop])
    made = {t.target.attr.value for a in walk.nodes_of(module, cst.Assign)  # (`self.s = np.ones(n)`)
            if _made_by_numpy(a.value, numpy)  # type: ignore[attr-defined]
            for t in a.targets if isinstance(t.target, cst.Attribute)}  # type: ignore[attr-defined]
    for name, where in _aliased_writes(module, made):
        add(name, where)
    return found


# keywords of the array methods `argsort` and `argpartition` that only NumPy's take (JAX's raise `TypeError` for them;
# the in-place `x.sort(kind=...)` is JX103's, which drops `kind`; JAX arrays have no `.partition`: `BUFFER_METHODS`)
_NUMPY_SORT_KEYWORDS = ("kind", "order")
# {method: (NumPy's parameters, how many of them the JAX method takes by position, whether it takes `kind=None`)}
_SORT_METHODS = {"argsort": (("axis", "kind", "order"), 1, True), "argpartition": (("kth", "axis", "kind", "order"), 2, False)}


# array methods whose `order=` orders the values, where JAX's take only "C" and "F" (`order="A"`/`"K"` follow NumPy's
# memory layout, which a JAX array has none of: `NotImplementedError`, `ValueError`)
_VALUE_ORDER_METHODS = frozenset({"reshape", "ravel", "flatten"})


def numpy_only_keyword(call: cst.Call) -> Optional[str]:
    """`kind` for `x.argsort(kind="quicksort")`, `x.argsort(0, "mergesort")` or `x.argpartition(1, -1, "introselect")`
    (or `order`): the method given an argument a JAX array's rejects (`TypeError`; `argsort` takes `kind=None`,
    though not by position); `order` for `x.reshape(s, order="A")`, `x.ravel("K")` (a memory layout that orders the
    values) or an order that is not a literal; `casting` for `x.astype(t, casting="same_kind")` (JAX's takes none, and only `"unsafe"`, NumPy's default,
    can be dropped: the others raise where the cast is not allowed); `type` for `x.view(type=M)`; else None. (The
    keywords a JAX array's method can go without, `.reshape(copy=...)`, `.astype(order=...)`, are dropped by JX501:
    `_namesakes.layout_keyword`.)"""
    if not isinstance(call.func, cst.Attribute):
        return None
    method = call.func.attr.value
    if method in _VALUE_ORDER_METHODS:
        position = 0 if method in ("ravel", "flatten") else None
        for index, arg in enumerate(call.args):
            named = arg.keyword.value if arg.keyword is not None else "order" if index == position else None
            # a lower-case "c"/"f" is put in upper case by JX501 (`_namesakes.method_order`); an order that is no
            # literal may be any
            if named == "order" and not (isinstance(arg.value, cst.SimpleString)
                                         and arg.value.evaluated_value.upper() in ("C", "F")):
                return "order"
        return None
    if method == "astype":
        casting = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "casting"), None)
        if casting is not None and not (isinstance(casting, cst.SimpleString) and casting.evaluated_value == "unsafe"):
            return "casting"
        return None
    if method == "view":
        return "type" if any(a.keyword is not None and a.keyword.value == "type" for a in call.args) else None
    if method not in _SORT_METHODS:
        return None
    names, limit, takes_none = _SORT_METHODS[call.func.attr.value]
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is None:
            if index >= limit:  # `x.argsort(0, "mergesort")`: `ndarray.argsort(axis, kind, order)`
                return names[index] if index < len(names) else "order"
        elif arg.keyword.value in _NUMPY_SORT_KEYWORDS and not (
                takes_none and isinstance(arg.value, cst.Name) and arg.value.value == "None"):
            return arg.keyword.value
    return None


# NumPy functions that make a new array (what a class's `self.p = np.array(...)` certainly holds)
ARRAY_MAKERS = frozenset({
    "zeros", "ones", "empty", "full", "eye", "identity", "arange", "linspace", "logspace", "geomspace", "array",
    "asarray", "asanyarray", "zeros_like", "ones_like", "empty_like", "full_like", "copy", "tile", "repeat", "diag",
    "atleast_1d", "atleast_2d", "atleast_3d",
})


def _made_by_numpy(value: cst.BaseExpression, numpy: Callable[[cst.BaseExpression], bool]) -> bool:
    """Whether `value` is an array a NumPy function makes (`ARRAY_MAKERS`: `np.array([1.0, 3.0])`, `np.zeros(n)`),
    or arithmetic on one (`np.ones(n) / n`)."""
    if isinstance(value, cst.BinaryOperation):
        return _made_by_numpy(value.left, numpy) or _made_by_numpy(value.right, numpy)
    if isinstance(value, cst.UnaryOperation):
        return _made_by_numpy(value.expression, numpy)
    func = value.func if isinstance(value, cst.Call) else None
    return isinstance(func, (cst.Name, cst.Attribute)) and numpy(func) \
        and dotted_name(func).split(".")[-1] in ARRAY_MAKERS


def _augmented_arrays(module: cst.Module, numpy: Callable[[cst.BaseExpression], bool]) -> dict[str, cst.CSTNode]:
    """{attribute: its augmented assignment} for an attribute updated as a whole by an augmented assignment
    (`self.p /= np.sum(self.p)`, `self.x += v`) that the module binds to an array a NumPy function makes (`self.p =
    np.array([1.0, 3.0])`: `_made_by_numpy`). For a NumPy array that is an in-place write, which every reference to the
    array sees (`p = bank.p` before the update: filterpy's IMM `mu`); for a JAX array, or a JAX value on the right,
    Python rebinds the attribute to a new array instead, so the array stored there must stay NumPy."""
    augmented: dict[str, cst.CSTNode] = {}
    made: set[str] = set()
    for node in walk.nodes(module):
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Attribute):
            augmented.setdefault(node.target.attr.value, node)
        elif isinstance(node, cst.Assign) and _made_by_numpy(node.value, numpy):
            made.update(t.target.attr.value for t in node.targets if isinstance(t.target, cst.Attribute))
    return {name: where for name, where in augmented.items() if name in made}


def fed_attributes(module: cst.Module, kept: Mapping[str, cst.CSTNode],
                   shared: Callable[[cst.AugAssign, cst.FunctionDef], bool] = lambda a, f: False) -> dict[str, cst.CSTNode]:
    """{attribute: the update} for the attributes read in the value of a whole-array augmented update of an attribute
    in `kept` (those `mutated_attributes` finds, whose arrays stay NumPy), or of a name whose array other code sees
    (`shared`: a parameter, `x += self.mu`), through the function's local names (bound by assignment or as a loop's
    target) and the arguments of any call: `self.x += x * m` after `for x, m in zip(xs, self.mu)` reads `.mu`
    (filterpy's IMM). A JAX array there makes NumPy's operator return NotImplemented and Python rebind the target to
    a JAX array (the caller's array keeps its values, a later `.fill` raises), so an array stored there must stay
    NumPy too. Attributes of an array that are arrays (`.T`) and methods called (`m.x.copy()`) are not counted."""
    found: dict[str, cst.CSTNode] = {}
    for function in walk.nodes_of(module, cst.FunctionDef):
        updates = [a for a in walk.nodes_of(function.body, cst.AugAssign)  # type: ignore[attr-defined]
                   if isinstance(a.target, cst.Attribute) and a.target.attr.value in kept  # type: ignore[attr-defined]
                   or isinstance(a.target, cst.Name) and walk.contains(a.value, cst.Attribute)  # type: ignore[attr-defined]
                   and shared(a, function)]  # type: ignore[arg-type]
        if not updates:
            continue
        bound = _local_values(function)  # type: ignore[arg-type]
        for update in updates:
            for name in _attributes_read(update.value, bound):  # type: ignore[attr-defined]
                found.setdefault(name, update)
    if found:
        fed_through_stores(module, found)
    return found


def _local_values(function: cst.FunctionDef) -> dict[str, list[cst.BaseExpression]]:
    """{local name: the values bound to it, by assignment or as a loop's target (its iterable)}."""
    bound: dict[str, list[cst.BaseExpression]] = {}
    for node in walk.nodes(function.body):
        if isinstance(node, cst.Assign):
            pairs = [(t.target, node.value) for t in node.targets]
        elif isinstance(node, (cst.For, cst.CompFor)):
            pairs = [(node.target, node.iter)]
        else:
            continue
        for target, value in pairs:
            for name in walk.nodes_of(target, cst.Name):
                bound.setdefault(name.value, []).append(value)  # type: ignore[attr-defined]
    return bound


def _attributes_read(value: cst.BaseExpression, bound: Mapping[str, list[cst.BaseExpression]]) -> list[str]:
    """The attributes `value` reads, directly, through the local names it reads (`bound`) and in the arguments of any
    call; not attributes of an array that are arrays (`.T`), nor methods called (`m.x.copy()` reads `.x` only)."""
    found: list[str] = []
    pending, seen = [value], set()
    while pending:
        current = pending.pop()
        called = {id(c.func) for c in walk.nodes_of(current, cst.Call)}  # type: ignore[attr-defined]
        for node in walk.nodes(current):
            if isinstance(node, cst.Attribute) and id(node) not in called and node.attr.value not in ARRAY_ATTRIBUTES:
                found.append(node.attr.value)
            elif isinstance(node, cst.Name) and node.value not in seen:
                seen.add(node.value)
                pending.extend(bound.get(node.value, ()))
    return found


def fed_through_stores(module: cst.Module, found: dict[str, cst.CSTNode]) -> None:
    """Add to `found` (`fed_attributes`) the attributes read by a value that a function stores on an attribute in
    `found`, to a fixed point: `s.vel = s.best - s.pos` in one function, `new += s.vel` (a NumPy copy written into
    item-wise) in another, makes `.best` and `.pos` feed the update too: a JAX `s.best` makes `s.vel` a JAX array,
    which rebinds `new` to one, whose item write then raises (pyswarms' `compute_pbest`, then the velocity and
    position updates). Each added attribute is recorded with the update it feeds in the end."""
    stores: list[tuple[cst.Assign, cst.FunctionDef]] = [
        (a, f) for f in walk.nodes_of(module, cst.FunctionDef) for a in walk.nodes_of(f.body, cst.Assign)  # type: ignore[attr-defined]
        if any(isinstance(t.target, cst.Attribute) for t in a.targets)]  # type: ignore[attr-defined]
    values: dict[cst.FunctionDef, dict[str, list[cst.BaseExpression]]] = {}
    changed = True
    while changed:
        changed = False
        for store, function in stores:
            update = next((found[t.target.attr.value] for t in store.targets  # type: ignore[union-attr]
                           if isinstance(t.target, cst.Attribute) and t.target.attr.value in found), None)
            if update is None:
                continue
            if function not in values:
                values[function] = _local_values(function)
            for name in _attributes_read(store.value, values[function]):
                if name not in found:
                    found[name] = update
                    changed = True


def _aliased_attribute(value: cst.BaseExpression) -> Optional[str]:
    """`s2` for `model.s2`, `holder.model.s2` or `getattr(model, "s2")`: the attribute a local name bound to `value`
    holds; else None."""
    if isinstance(value, cst.Attribute):
        base = value.value
        while isinstance(base, cst.Attribute):
            base = base.value
        return value.attr.value if isinstance(base, cst.Name) else None
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "getattr" \
            and len(value.args) == 2 and isinstance(value.args[1].value, cst.SimpleString):
        text = value.args[1].value.evaluated_value
        return text if isinstance(text, str) and text.isidentifier() else None
    return None


def _attribute_aliases(function: cst.FunctionDef) -> dict[str, str]:
    """{local name: attribute} for the names `function` binds to an attribute (`_aliased_attribute`): alone
    (`parents = self.parents`), as an item of a tuple assignment (`a, s = 0, model.s`) or with a walrus
    (`if (s := model.s) is not None:`)."""
    aliases: dict[str, str] = {}
    for node in walk.nodes(function.body):  # type: ignore[attr-defined]
        pairs: list[tuple[cst.BaseExpression, cst.BaseExpression]] = []
        if isinstance(node, cst.Assign):
            for t in node.targets:
                if isinstance(t.target, (cst.Tuple, cst.List)) and isinstance(node.value, (cst.Tuple, cst.List)) \
                        and len(t.target.elements) == len(node.value.elements):
                    pairs += [(e.value, v.value) for e, v in zip(t.target.elements, node.value.elements)]
                else:
                    pairs.append((t.target, node.value))
        elif isinstance(node, cst.NamedExpr):
            pairs.append((node.target, node.value))
        for target, value in pairs:
            attribute = _aliased_attribute(value) if isinstance(target, cst.Name) else None
            if attribute is not None:
                aliases[target.value] = attribute  # type: ignore[attr-defined]
    return aliases


def _aliased_writes(module: cst.Module, made: Optional[set[str]] = None) -> list[tuple[str, cst.CSTNode]]:
    """(attribute, write) for a write into a local name a function binds to an attribute (`parents = self.parents`,
    then `parents[index] = parent`: ase's `DisjointSet.find`; `_attribute_aliases`): an item's, a writing method's
    (`s.fill(0)`), or an augmented assignment of the name itself (`sigma2 = model.sigma2`, `sigma2 += v`, in place
    for a NumPy array: pymcmcstat's ErrorVarianceEstimator) where the attribute is in `made` (bound to an array a
    NumPy function makes, `_augmented_arrays`), or always when `made` is None."""
    found: list[tuple[str, cst.CSTNode]] = []
    for function in walk.nodes_of(module, cst.FunctionDef):
        aliases = _attribute_aliases(function)  # type: ignore[arg-type]
        if not aliases:
            continue
        for node in walk.nodes(function.body):  # type: ignore[attr-defined]
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                    and node.func.attr.value in WRITING_METHODS and isinstance(node.func.value, cst.Name) \
                    and node.func.value.value in aliases:
                found.append((aliases[node.func.value.value], node))
                continue
            if not isinstance(node, (cst.Assign, cst.AugAssign)):
                continue
            targets = [leaf for t in node.targets for leaf in target_leaves(t.target)] \
                if isinstance(node, cst.Assign) else [node.target]
            for target in targets:
                base = target
                while isinstance(base, cst.Subscript):
                    base = base.value
                if not isinstance(base, cst.Name) or base.value not in aliases:
                    continue
                if base is not target or isinstance(node, cst.AugAssign) and (made is None or aliases[base.value] in made):
                    found.append((aliases[base.value], node))
    return found


def _property_attributes(module: cst.Module) -> dict[str, str]:
    """{property: attribute} for the module's `@property` getters that return an attribute of `self` as it is
    (`def lvl(self): return self._lvl`: statsmodels' HoltWinters arguments)."""
    out: dict[str, str] = {}
    for node in walk.nodes_of(module, cst.FunctionDef):
        if not any(isinstance(d.decorator, cst.Name) and d.decorator.value == "property" for d in node.decorators):  # type: ignore[attr-defined]
            continue
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()  # type: ignore[attr-defined]
        statements = [s for s in body if not (isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], cst.Expr))]
        if len(statements) == 1 and isinstance(statements[0], cst.SimpleStatementLine) \
                and isinstance(statements[0].body[0], cst.Return):
            value = statements[0].body[0].value
            if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
                out[node.name.value] = value.attr.value  # type: ignore[attr-defined]
    return out


def positional_outs(call: cst.Call, numpy_aliases: Mapping[str, str]) -> list[cst.BaseExpression]:
    """The output arrays a NumPy function is given by position, by the module's NumPy names (`numpy_aliases`,
    `ModuleImports.numpy_aliases`): a ufunc's after its inputs (`np.divide(a, n, a)`, `divide(a, n, a)` after `from
    numpy import divide`; both of `np.modf(x, f, i)`), another function's `out` (`np.clip(a, 0.0, 1.0, a)`)."""
    name = dotted_name(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else ""
    root, dot, rest = name.partition(".")
    qualified = numpy_aliases.get(root, "") + dot + rest if root in numpy_aliases else ""
    parts = qualified.split(".")
    if len(parts) != 2 or parts[0] != "numpy":
        return []
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    ufunc = getattr(np, parts[1], None)
    if isinstance(ufunc, np.ufunc):
        return positional[ufunc.nin:ufunc.nin + ufunc.nout]
    index = _namesakes.out_position(parts[1])
    return positional[index:index + 1] if index is not None else []


def private_modules(module: cst.Module, path: str = "") -> set[str]:
    """Local names that the module's imports (top-level, or in a function) bind to something private: a name that starts with `_`
    (`from . import _lbfgsb`), under any alias (`from . import _cd_fast as cd_fast`, scikit-learn's style), or any
    name imported from a private module (`from ._hierarchical import single_linkage`): private compiled modules, by
    SciPy's, NumPy's and scikit-learn's convention (a private pure-Python helper is taken as one too, which only
    keeps more NumPy). With the module's `path`, a relative import of a module that is a `.py` file (or a package)
    beside it is no compiled one (pywt's `from ._utils import _modes_per_axis`): what its functions write into,
    `imported_writers` reads from its source."""
    def private(name: str) -> bool:
        return any(part.startswith("_") and not part.startswith("__") for part in name.split("."))

    def source_beside(node: cst.ImportFrom, name: str) -> bool:
        """Whether the relative import `node` reaches `name` (dotted, below its folder) as Python source."""
        if not path or not node.relative:
            return False
        folder = os.path.dirname(os.path.abspath(path))
        for _ in range(len(node.relative) - 1):
            folder = os.path.dirname(folder)
        target = os.path.join(folder, *name.split("."))
        return os.path.isfile(target + ".py") or os.path.isfile(os.path.join(target, "__init__.py"))

    names: set[str] = set()
    # (an import inside a function too: `from sklearn.tree import _tree`, then `_tree.Tree(1, n_classes, 1)`, pyod's
    # lazily imported node layout)
    for node in [*walk.nodes_of(module, cst.ImportFrom), *walk.nodes_of(module, cst.Import)]:
        if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
            base = dotted_name(node.module) if node.module is not None else ""
            if base and source_beside(node, base):
                continue  # (functions of a Python module of the package: `imported_writers` reads what they write)
            source = private(base) if base else False
            names.update(a.evaluated_alias or dotted_name(a.name) for a in node.names if source or private(dotted_name(a.name))
                         and not (not base and source_beside(node, dotted_name(a.name))))
        elif isinstance(node, cst.Import):
            names.update((a.evaluated_alias or dotted_name(a.name)).split(".")[0] for a in node.names if private(dotted_name(a.name)))
    return names
