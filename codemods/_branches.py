"""The NumPy branch of an array-API dispatch: code that tells NumPy arrays apart from other array types.

Array-API code (scikit-learn, SciPy) handles every array type through a namespace `xp`, and keeps a branch for
NumPy where it needs what only NumPy has (a memory layout for compiled code, object and string arrays):
`if _is_numpy_namespace(xp): array = numpy.asarray(array, order=order)`. That branch is NumPy on purpose: as
`jax.numpy` it would reject the string labels and object arrays it exists for.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

import libcst as cst

# `_is_numpy_namespace(xp)`, `is_numpy_array(x)`, `array_api_compat.is_numpy_namespace(xp)`
_NUMPY_TEST = re.compile(r"_?is_numpy(_namespace|_array|_backend)?")


def numpy_dispatch(test: cst.BaseExpression, numpy_name: Callable[[cst.BaseExpression], Optional[str]]) -> bool:
    """Whether the body of an `if` with this test runs for NumPy arrays only: the test is (or `and`s in) a call of
    an `is_numpy...` predicate, or `xp is np` / `xp == numpy`."""
    if isinstance(test, cst.BooleanOperation):
        return isinstance(test.operator, cst.And) and (numpy_dispatch(test.left, numpy_name) or numpy_dispatch(test.right, numpy_name))
    if isinstance(test, cst.Call):
        func = test.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        return _NUMPY_TEST.fullmatch(name) is not None
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        operator = test.comparisons[0].operator
        sides = (test.left, test.comparisons[0].comparator)
        return isinstance(operator, (cst.Is, cst.Equal)) and any(numpy_name(side) == "numpy" for side in sides)
    return False
