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
from jaxfix.analysis.numpy_names import numpy_name

# the matrix class and the functions that make matrices, as `NumpyNameProvider` qualifies them
MATRIX_NAMES = frozenset({"numpy.matrix", "numpy.asmatrix", "numpy.mat", "numpy.bmat"})
MATRIX_MODULES = ("numpy.matlib.", "numpy.matrixlib.")


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


def _names_matrix(rule: cst.MetadataDependent, node: cst.CSTNode, makers: set[str], held: set[str]) -> bool:
    """Whether the expression `node` may be a matrix: it names one (`np.asmatrix(x)`, `x.view(np.matrix)`), calls a
    function of the module that returns one (`makers`), or reads a local bound to one (`held`)."""
    if any(matrix_name(numpy_name(rule, n)) for kind in (cst.Name, cst.Attribute) for n in walk.nodes_of(node, kind)):
        return True
    return any(isinstance(c.func, cst.Name) and c.func.value in makers for c in walk.nodes_of(node, cst.Call)) \
        or any(n.value in held for n in walk.nodes_of(node, cst.Name))  # type: ignore[attr-defined]


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
