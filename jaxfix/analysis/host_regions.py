"""Host regions: code inside a function that runs only for NumPy or SciPy-sparse data, and that every rule leaves
as it is.

Array-API code (scikit-learn, SciPy) handles every array type through a namespace `xp`, and keeps a branch for
NumPy where it needs what only NumPy has (a memory layout for compiled code, object and string arrays, writing
into an array in place): `if _is_numpy_namespace(xp): array.flat[::n + 1] += value; return`. Code that accepts
sparse matrices keeps a branch for them: `if sparse.issparse(X): X.data[X.data < t] = 0`. Such a branch is host code
on purpose: given JAX arrays, its test is False and the other branch runs. Moved to `jax.numpy` or rewritten with
`.at[...]`, it would fail for the data it exists for (a NumPy array has no `.at`; `jnp.asarray` rejects string
labels; a sparse matrix's `.data` made a JAX array is no longer one SciPy's compiled code can read).

The engine drops every finding that starts inside such a branch (`host_branches`), as it drops suppressed ones. A
branch that writes into an array made by a NumPy call outside it (`out = np.zeros(n)` before
`if issparse(X): out[X.indices] = X.data`) is not one: that call is migrated, and the write kept as NumPy's would
fail on the JAX array it makes; the rules handle the branch as any other code.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

import libcst as cst

from jaxfix import walk
from jaxfix.imports import ModuleImports

# `_is_numpy_namespace(xp)`, `is_numpy_array(x)`, `array_api_compat.is_numpy_namespace(xp)`
_NUMPY_TEST = re.compile(r"_?is_numpy(_namespace|_array|_backend)?")
# `sparse.issparse(X)`, `sp.isspmatrix_csr(X)`, `_is_sparse(X)`
_SPARSE_TEST = re.compile(r"_?(issparse|isspmatrix(_[a-z]{3})?|is_sparse(_matrix|_array)?)")
# what a file's text contains if it may have such a test (the walk for `if` statements is skipped otherwise)
_MAY_DISPATCH = re.compile(r"is_numpy|issparse|isspmatrix|is_sparse|\b(?:is|==)\s+(?:np|numpy)\b|\b(?:np|numpy)\s+(?:is|==)\s")


def numpy_dispatch(test: cst.BaseExpression, numpy_name: Callable[[cst.BaseExpression], Optional[str]]) -> bool:
    """Whether the body of an `if` with this test runs for NumPy arrays only: the test is (or `and`s in) a call of
    an `is_numpy...` predicate, or `xp is np` / `xp == numpy` (`numpy_name(e)` is "numpy" for a name of the module)."""
    if isinstance(test, cst.BooleanOperation):
        return isinstance(test.operator, cst.And) and (numpy_dispatch(test.left, numpy_name) or numpy_dispatch(test.right, numpy_name))
    if isinstance(test, cst.Call):
        return _NUMPY_TEST.fullmatch(walk.called_name(test)) is not None
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        operator = test.comparisons[0].operator
        sides = (test.left, test.comparisons[0].comparator)
        return isinstance(operator, (cst.Is, cst.Equal)) and any(numpy_name(side) == "numpy" for side in sides)
    return False


def sparse_only(test: cst.BaseExpression) -> bool:
    """Whether the body of an `if` with this test runs for SciPy sparse matrices only: the test is (or `and`s in) a
    call of `issparse` / `isspmatrix...` / `is_sparse`."""
    if isinstance(test, cst.BooleanOperation):
        return isinstance(test.operator, cst.And) and (sparse_only(test.left) or sparse_only(test.right))
    return isinstance(test, cst.Call) and _SPARSE_TEST.fullmatch(walk.called_name(test)) is not None


def host_branches(module: cst.Module, text: str, imports: ModuleImports) -> list[cst.BaseSuite]:
    """The code that runs only for NumPy or sparse data: the bodies of the `if`/`elif` statements whose test is a
    NumPy dispatch (`numpy_dispatch`) or a sparse test (`sparse_only`), and the `else` of `if not <such a test>:`.
    A module-level name bound to `numpy` counts as NumPy (a function parameter of the same name too: rare, and a
    parameter compared with `is np` tells the same thing)."""
    if _MAY_DISPATCH.search(text) is None:
        return []
    aliases = imports.numpy_aliases

    def numpy_name(node: cst.BaseExpression) -> Optional[str]:
        return aliases.get(node.value) if isinstance(node, cst.Name) else None

    def host(test: cst.BaseExpression) -> bool:
        return numpy_dispatch(test, numpy_name) or sparse_only(test)

    found: dict[cst.BaseSuite, tuple[cst.FunctionDef, cst.If]] = {}
    for function in walk.nodes_of(module, cst.FunctionDef):
        for branch in walk.nodes_of(function.body, cst.If):  # type: ignore[attr-defined]
            test = branch.test  # type: ignore[attr-defined]
            if host(test):
                found[branch.body] = (function, branch)  # type: ignore[attr-defined,assignment]  # (the innermost function, visited last)
            elif isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and host(test.expression) \
                    and isinstance(branch.orelse, cst.Else):  # type: ignore[attr-defined]
                found[branch.orelse.body] = (function, branch)  # type: ignore[attr-defined,assignment]
    return [body for body, (function, branch) in found.items() if not _writes_into_numpy_made_outside(body, branch, function, aliases)]


# array methods and NumPy functions that write into an array (the first argument, for the functions)
_WRITING_METHODS = frozenset({"fill", "sort", "resize", "put", "itemset", "partition", "setfield", "byteswap"})
_WRITING_FUNCTIONS = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis", "at"})


def _root(node: cst.BaseExpression) -> Optional[str]:
    """`out` for `out`, `out[i]`, `out.flat[i]`, `out[i][j]`."""
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _written(body: cst.BaseSuite) -> set[str]:
    """The names whose arrays code in `body` writes into: item assignment, `out=`, in-place methods and functions."""
    names: set[Optional[str]] = set()
    for node in walk.nodes(body):
        if isinstance(node, cst.AssignTarget) and isinstance(node.target, (cst.Subscript, cst.Attribute)):
            names.add(_root(node.target))
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, (cst.Subscript, cst.Attribute)):
            names.add(_root(node.target))
        elif isinstance(node, cst.Call):
            names.update(_root(a.value) for a in node.args if a.keyword is not None and a.keyword.value == "out")
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in _WRITING_METHODS:
                names.add(_root(func.value))
            if isinstance(func, cst.Attribute) and func.attr.value in _WRITING_FUNCTIONS and node.args:
                names.add(_root(node.args[0].value))
    names.discard(None)
    return names  # type: ignore[return-value]


def _writes_into_numpy_made_outside(
    body: cst.BaseSuite, branch: cst.If, function: cst.FunctionDef, aliases: dict[str, str]
) -> bool:
    """Whether `body` (of `branch`) writes into a name it does not bind itself, which `function` binds outside
    `branch` to a value made with a NumPy call (`out = np.zeros(n)`): migrated, that call makes a JAX array the kept
    write would fail on. (The other branch of the `if` runs instead of `body`: what it binds does not count.)"""
    written = _written(body)
    if not written:
        return False
    inside = {id(n) for n in walk.nodes(body)}
    exclusive = {id(n) for n in walk.nodes(branch)} - inside
    bound_inside: set[str] = set()
    numpy_outside: set[str] = set()
    for node in walk.nodes(function.body):
        if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            names = {n for t in targets for n in _bound(t)} & written
            if not names:
                continue
            if id(node) in inside:
                bound_inside |= names
            elif id(node) not in exclusive and node.value is not None and _makes_with_numpy(node.value, aliases):
                numpy_outside |= names
    return bool(numpy_outside - bound_inside)


def _bound(target: cst.BaseExpression) -> list[str]:
    """The names an assignment to `target` binds (`a`, `a, (b, *c)`; none for `a[i]` or `a.b`)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _bound(e.value)]
    if isinstance(target, cst.StarredElement):
        return _bound(target.value)
    return []


def _makes_with_numpy(value: cst.BaseExpression, aliases: dict[str, str]) -> bool:
    return any(isinstance(n, cst.Call) and _root(n.func) in aliases for n in walk.nodes(value))
