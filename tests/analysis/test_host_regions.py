"""Host regions: the NumPy branch of an array-API dispatch, and the branch for sparse matrices, are left as they are
by every rule."""

import libcst as cst
import pytest

from jaxfix.analysis import host_regions
from jaxfix.engine import process_source
from jaxfix.imports import ModuleImports
from jaxfix.registry import all_rules
from jaxfix.types import RunOptions

DISPATCH = '''import numpy as np


def exp_kernel(K, xp):
    K = K * 2.0
    if _is_numpy_namespace(xp):
        return np.exp(K, out=K)
    return xp.exp(K)


def first_zero(a, xp):
    out = xp.asarray(a) + 1
    if xp is np:
        out[0] = 0
    elif is_torch_namespace(xp):
        out = out.clone()
    else:
        out = out.at[0].set(0)
    return out


def add_diagonal(a, value, xp):
    a = a + 0
    n = a.shape[0]
    if _is_numpy_namespace(xp):
        a.flat[:: n + 1] += value
        return a
    b = np.zeros((n, n))
    b[0] = value
    return a + b
'''


@pytest.mark.parametrize("unsafe", [False, True])
def test_no_rule_reports_inside_a_numpy_branch(unsafe):
    """In-place writes, `out=` and NumPy calls in the branch that runs only for NumPy arrays stay as they are (an
    `.at[...]` there would fail for the NumPy arrays it exists for), and its test is a Python bool, not a traced
    value to branch on with `lax.cond`; code after the dispatch is migrated as usual."""
    result = process_source("d.py", DISPATCH, all_rules(), RunOptions(fix=True, unsafe_fixes=unsafe))
    assert result.findings == []
    fixed = result.fixed
    for kept in ("return np.exp(K, out=K)", "        out[0] = 0\n", "a.flat[:: n + 1] += value", "if _is_numpy_namespace(xp):"):
        assert kept in fixed
    assert "b = jnp.zeros((n, n))\n    b = b.at[0].set(value)\n" in fixed
    assert "lax" not in fixed


def test_branches_found():
    """`if`/`elif` bodies whose test is an `is_numpy...` predicate (alone or `and`-ed) or `xp is np` / `== numpy`
    through the module's alias; not a negated test, an `or`, or an unrelated name."""
    code = (
        "import numpy as onp\n\ndef f(xp, a, b):\n    if is_numpy_array(a) and b:\n        c = 1\n"
        "    elif xp == onp:\n        c = 2\n    if not _is_numpy_namespace(xp):\n        c = 3\n"
        "    if xp is np:\n        c = 4\n    if is_numpy(a) or b:\n        c = 5\n    if is_numpy_ish(a):\n        c = 6\n"
        "    if sp.issparse(a) and a.format == 'csr':\n        c = 7\n    elif isspmatrix_csc(a):\n        c = 8\n"
        "    if not issparse(b):\n        c = 9\n    else:\n        c = 10\n"
        "    if not issparse(b):\n        c = 11\n    elif b:\n        c = 12\n"
    )
    module = cst.parse_module(code)
    bodies = host_regions.host_branches(module, code, ModuleImports.read(module))
    assert [module.code_for_node(b.body[0]).strip() for b in bodies] == ["c = 1", "c = 2", "c = 7", "c = 8", "c = 10"]


SPARSE = '''import numpy as np
from scipy import sparse


def binarize(X, threshold):
    X = X.copy()
    if sparse.issparse(X):
        cond = X.data > threshold
        X.data[cond] = 1
        X.data[np.logical_not(cond)] = 0
        X.eliminate_zeros()
    else:
        X = np.where(X > threshold, 1, 0)
    return X


def scale_rows(X, w):
    if not sparse.issparse(X):
        return X * np.sqrt(w)[:, None]
    else:
        X = X.tocsr()
        X.data *= np.repeat(np.sqrt(w), np.diff(X.indptr))
        return X
'''


def test_sparse_branches_stay_numpy():
    """Code that runs only for a sparse matrix writes into its NumPy `.data` and hands NumPy arrays to SciPy: it is
    left as it is (it never runs on JAX arrays, and cannot run under `jit`); the dense code is migrated."""
    result = process_source("s.py", SPARSE, all_rules(), RunOptions(fix=True))
    fixed = result.fixed
    for kept in ("X.data[cond] = 1", "X.data[np.logical_not(cond)] = 0", "X.data *= np.repeat(np.sqrt(w), np.diff(X.indptr))"):
        assert kept in fixed
    assert "X = jnp.where(X > threshold, 1, 0)" in fixed and "return X * jnp.sqrt(w)[:, None]" in fixed
    assert all(f.line not in (8, 9, 10, 21, 22) for f in result.findings)


def test_branch_writing_into_an_array_made_outside_it_is_migrated():
    """`out = np.zeros(n)` becomes `jnp.zeros(n)`: a NumPy write into it kept in the sparse branch would fail on
    that JAX array, so the branch is not left alone (its write becomes an `.at` update, as elsewhere)."""
    code = (
        "import numpy as np\nfrom scipy import sparse\n\n\ndef densify_row(X, n):\n    out = np.zeros(n)\n"
        "    if sparse.issparse(X):\n        out[X.indices] = X.data\n    else:\n        out = out + X\n    return out\n"
    )
    fixed = process_source("o.py", code, all_rules(), RunOptions(fix=True)).fixed
    assert "out = jnp.zeros(n)" in fixed and "out = out.at[X.indices].set(X.data)" in fixed


def test_text_without_a_dispatch_is_not_walked():
    code = "import numpy as np\n\ndef f(x):\n    if x:\n        x[0] = 1\n"
    module = cst.parse_module(code)
    assert host_regions.host_branches(module, code, ModuleImports.read(module)) == []


def test_negated_dispatch_is_still_migrated():
    """`if not _is_numpy_namespace(xp):` guards the code for the other array types: rules apply there."""
    code = "import numpy as np\n\ndef f(a, xp):\n    b = np.zeros(3)\n    if not _is_numpy_namespace(xp):\n        b[0] = 1.0\n    return b + a\n"
    fixed = process_source("n.py", code, all_rules(), RunOptions(fix=True)).fixed
    assert "b = b.at[0].set(1.0)" in fixed and "jnp.zeros(3)" in fixed
