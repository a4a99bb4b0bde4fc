"""`jaxfix.analysis.sparse_data`: which calls make SciPy sparse matrices, for every way a module imports them."""

import libcst as cst
import pytest

from jaxfix.analysis.sparse_data import SparseNames


def _calls(code: str) -> dict[str, bool]:
    module = cst.parse_module(code)
    names = SparseNames.read(module)
    found: dict[str, bool] = {}

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found[module.code_for_node(node)] = names.is_sparse_call(node)

    module.visit(Calls())
    return found


@pytest.mark.parametrize("imports, call", [
    ("import scipy.sparse as sp", "sp.diags(d)"),
    ("from scipy import sparse", "sparse.csr_matrix(a)"),
    ("from scipy import sparse as sps", "sps.eye(3)"),
    ("from scipy.sparse import diags", "diags(d)"),
    ("import scipy", "scipy.sparse.kron(a, b)"),
    ("import scipy.sparse", "scipy.sparse.identity(3)"),
    ("import scipy as sp", "sp.sparse.csc_matrix(a)"),
])
def test_sparse_constructors_are_found(imports, call):
    assert _calls(f"{imports}\n\ndef f(a, b, d):\n    return {call}\n")[call]


@pytest.mark.parametrize("imports, call", [
    ("import scipy.sparse as sp", "sp.issparse(d)"),  # a test, which takes anything
    ("from scipy.sparse import isspmatrix_csr", "isspmatrix_csr(d)"),
    ("import scipy.linalg as sp", "sp.inv(a)"),  # another SciPy module under the same alias
    ("from scipy.linalg import diags", "diags(d)"),
    ("import numpy as sp", "sp.diag(d)"),
    ("import scipy", "scipy.linalg.inv(a)"),
    ("from scipy.sparse.linalg import lsmr", "lsmr(a, b)"),  # a solver, which takes NumPy and JAX arrays alike
])
def test_other_calls_are_not(imports, call):
    assert not _calls(f"{imports}\n\ndef f(a, b, d):\n    return {call}\n")[call]


def test_a_module_without_scipy_sparse_has_no_names():
    assert not SparseNames.read(cst.parse_module("import numpy as np\n"))


@pytest.mark.parametrize("imports, call, expected", [
    ("from scipy.fftpack import dct", "dct(y)", True),
    ("from scipy import fftpack", "fftpack.fft(y)", True),
    ("import scipy.fftpack", "scipy.fftpack.idct(y)", True),
    ("import scipy.fftpack as fp", "fp.rfft(y)", True),
    ("import scipy.fft as fp", "fp.dct(y)", False),  # `scipy.fft` converts a JAX array
    ("from scipy.sparse import diags", "diags(y)", False),
])
def test_another_submodule(imports, call, expected):
    module = cst.parse_module(f"{imports}\n\ndef f(y):\n    return {call}\n")
    names = SparseNames.read(module, "fftpack")
    node = module.body[-1].body.body[0].body[0].value
    assert names.is_sparse_call(node) is expected
