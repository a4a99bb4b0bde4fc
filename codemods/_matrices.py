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

# the matrix class and the functions that make matrices, as `NumpyNameProvider` qualifies them
MATRIX_NAMES = frozenset({"numpy.matrix", "numpy.asmatrix", "numpy.mat", "numpy.bmat"})
MATRIX_MODULES = ("numpy.matlib.", "numpy.matrixlib.")


def matrix_name(qualified: Optional[str]) -> bool:
    """Whether the NumPy name `qualified` is the matrix class or makes matrices (`numpy.asmatrix`, `numpy.matlib.eye`)."""
    return qualified is not None and (qualified in MATRIX_NAMES or qualified.startswith(MATRIX_MODULES))


def message(code: str) -> str:
    """The report for `code`, a matrix name as written (`np.asmatrix`): the function is left as it is."""
    return (f"`{code}` makes or uses a NumPy matrix, which JAX has no counterpart for (a `jax.numpy` call given one "
            "gives a plain array, whose `*` multiplies elementwise where a matrix's `*` is a matrix product): this "
            "function is left as it is")
