"""NumPy matrices (`np.matrix`), which JX501 (numpy-namespace) leaves to NumPy.

A `np.matrix` is an `np.ndarray` subclass whose `*` is a matrix product and whose results stay 2-D matrices. JAX has
no counterpart: a `jax.numpy` call given a matrix gives a plain array, so a later `*` multiplies elementwise
(the `uncertainties` package's `np.eye(n) - arr * inverse_mat`, then `inverse_mat * factor22`), and a JAX array
cannot be viewed as one (`jnp.linalg.inv(arr).view(np.matrix)` raises `TypeError`). A function that makes or handles
matrices, `np.matrix(...)`, `np.asmatrix(...)`, `np.mat(...)`, `np.bmat(...)`, `numpy.matlib`, `.view(np.matrix)`,
`isinstance(x, np.matrix)`, is left as it is, as one that uses `np.ma` masked arrays is.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.host_data import MATRIX_MODULES, MATRIX_NAMES
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.parents import ParentProvider
from jaxfix.imports import dotted_name



def matrix_name(qualified: Optional[str]) -> bool:
    """Whether the NumPy name `qualified` is the matrix class or makes matrices (`numpy.asmatrix`, `numpy.matlib.eye`)."""
    return qualified is not None and (qualified in MATRIX_NAMES or qualified.startswith(MATRIX_MODULES))


def returned(code: str) -> str:
    """The report for a call of `code`, a function of the module that may return a matrix (`matrix_makers`)."""
    return (f"`{code}(...)` may return a NumPy matrix, which JAX has no counterpart for (a `jax.numpy` call given one "
            "gives a plain array, whose `*` multiplies elementwise where a matrix's `*` is a matrix product): this "
            "function is left as it is")


def message(code: str) -> str:
    """The report for `code`, a matrix name as written (`np.asmatrix`): the function is left as it is."""
    return (f"`{code}` makes or uses a NumPy matrix, which JAX has no counterpart for (a `jax.numpy` call given one "
            "gives a plain array, whose `*` multiplies elementwise where a matrix's `*` is a matrix product): this "
            "function is left as it is")


# what a matrix's size reads give: numbers (`m.shape[0]`, `len(m)`), never a matrix
SIZE_ATTRIBUTES = frozenset({"shape", "size", "ndim"})


def _sized(node: cst.CSTNode) -> set[int]:
    """The ids of the names `node` reads only for their size: `m` in `m.shape[0]`, `m.size`, `m.ndim`, `len(m)`."""
    found = {id(a.value) for a in walk.nodes_of(node, cst.Attribute)  # type: ignore[attr-defined]
             if isinstance(a.value, cst.Name) and a.attr.value in SIZE_ATTRIBUTES}  # type: ignore[attr-defined]
    return found | {id(c.args[0].value) for c in walk.nodes_of(node, cst.Call)  # type: ignore[attr-defined]
                    if isinstance(c.func, cst.Name) and c.func.value == "len" and len(c.args) == 1}  # type: ignore[attr-defined]


def _names_matrix(rule: cst.MetadataDependent, node: cst.CSTNode, makers: set[str], held: set[str]) -> bool:
    """Whether the expression `node` may be a matrix: it names one (`np.asmatrix(x)`, `x.view(np.matrix)`), calls a
    function of the module that returns one (`makers`), or reads a local bound to one (`held`) other than for its size
    (`n = m.shape[0]` is a number)."""
    if any(matrix_name(numpy_name(rule, n)) for kind in (cst.Name, cst.Attribute) for n in walk.nodes_of(node, kind)):
        return True
    if any(isinstance(c.func, cst.Name) and c.func.value in makers for c in walk.nodes_of(node, cst.Call)):  # type: ignore[attr-defined]
        return True
    sized = _sized(node)
    return any(n.value in held and id(n) not in sized for n in walk.nodes_of(node, cst.Name))  # type: ignore[attr-defined]


# the conversions that make a plain `np.ndarray` of a matrix
_PLAIN = frozenset({"numpy.asarray", "numpy.array"})


def _plain(rule: cst.MetadataDependent, func: cst.BaseExpression) -> bool:
    """`np.asarray`/`np.array`, or the `jnp` namesake the migration writes (a second run must say the same)."""
    if numpy_name(rule, func) in _PLAIN:
        return True
    return isinstance(func, cst.Attribute) and func.attr.value in ("asarray", "array") \
        and dotted_name(func.value) in {"jax.numpy", getattr(rule, "jnp", "jnp")}


def normalised(rule: cst.MetadataDependent, node: cst.CSTNode, function: cst.FunctionDef) -> bool:
    """Whether `node`, a matrix name, is the class of a test that only makes a parameter a plain array:
    `if isinstance(a, np.matrix): a = np.asarray(a)` as a statement of `function`'s own body, `a` not named before it
    (so no other name holds the matrix) and no `else`. After it `a` is a plain array, which `jnp.asarray(a)` gives too."""
    call = rule.get_metadata(ParentProvider, rule.get_metadata(ParentProvider, node, None), None)
    test = rule.get_metadata(ParentProvider, call, None) if isinstance(call, cst.Call) else None
    if not (isinstance(test, cst.If) and test.test is call and test.orelse is None and len(call.args) == 2
            and call.args[1].value is node and isinstance(call.func, cst.Name) and call.func.value == "isinstance"
            and isinstance(call.args[0].value, cst.Name)):
        return False
    name = call.args[0].value.value
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
    if name not in params or not any(s is test for s in body):
        return False
    before = body[:next(i for i, s in enumerate(body) if s is test)]
    if any(n.value == name for s in before for n in walk.nodes_of(s, cst.Name)):  # type: ignore[attr-defined]
        return False
    statements = test.body.body if isinstance(test.body, cst.IndentedBlock) else ()
    return bool(statements) and all(
        isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign)
        and len(line.body[0].targets) == 1 and isinstance(line.body[0].targets[0].target, cst.Name)
        and line.body[0].targets[0].target.value == name and isinstance(line.body[0].value, cst.Call)
        and _plain(rule, line.body[0].value.func)
        and [a.value.value for a in line.body[0].value.args if isinstance(a.value, cst.Name)] == [name]
        and len(line.body[0].value.args) == 1
        for line in statements)


def matrix_makers(rule: cst.MetadataDependent, module: cst.Module) -> frozenset[str]:
    """The module's functions (`def`s at its top level) that may return a NumPy matrix: one they make
    (`return np.asmatrix(x)`, `m = a.view(np.matrix)` then `return m`) or one another such function returns. A
    caller that calls one by name handles a matrix (`m = as_matrix(a)`, then `np.eye(2) - m`) and is left too."""
    if not any(matrix_name(numpy_name(rule, n)) for kind in (cst.Name, cst.Attribute) for n in walk.nodes_of(module, kind)):
        return frozenset()  # no matrix in the module (most modules): nothing to follow
    functions = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    makers: set[str] = set()
    changed = True
    while changed:  # to a fixed point: a function returning what a maker returns is a maker
        changed = False
        for function in functions:
            if function.name.value in makers:
                continue
            held: set[str] = set()  # the locals bound to a matrix, to a fixed point too (`m = ...`, `p = m`)
            size = -1
            while size != len(held):
                size = len(held)
                for assign in walk.nodes_of(function.body, cst.Assign):
                    if _names_matrix(rule, assign.value, makers, held):  # type: ignore[attr-defined]
                        held |= {n.value for t in assign.targets for n in walk.nodes_of(t.target, cst.Name)}  # type: ignore[attr-defined]
            if any(r.value is not None and _names_matrix(rule, r.value, makers, held)  # type: ignore[attr-defined]
                   for r in walk.nodes_of(function.body, cst.Return)):
                makers.add(function.name.value)
                changed = True
    return frozenset(makers)
