"""`jaxfix.analysis.sparse_data`: which calls make SciPy sparse matrices, for every way a module imports them."""

import libcst as cst
import pytest

from jaxfix.analysis.sparse_data import NumpyOnly, SparseNames, sparse_attributes, sparse_functions


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


def _value(code: str, expr: str, bindings=None, attributes=frozenset()) -> bool:
    names = SparseNames.read(cst.parse_module(code))
    return names.is_sparse_value(cst.parse_expression(expr), bindings or {}, attributes)


@pytest.mark.parametrize("expr", [
    "sp.csr_matrix(x)", "L - L.T", "-L", "2 * L", "L.T", "L.multiply(y)", "L.tocsr().T", "abs(L)", "L[0]",
    "self.W", "self.W.transpose()",
])
def test_sparse_values_are_followed(expr):
    L = [cst.parse_expression("sp.csr_matrix(x)")]
    assert _value("import scipy.sparse as sp\n", expr, {"L": L}, frozenset({"W"}))


@pytest.mark.parametrize("expr", [
    "L.sum(axis=0)", "L.toarray()", "x - x.T", "self.V", "M",  # a dense result, other values, a name bound otherwise
])
def test_other_values_are_not_sparse(expr):
    bindings = {"L": [cst.parse_expression("sp.csr_matrix(x)")], "M": [cst.parse_expression("sp.eye(3)"), None]}
    assert not _value("import scipy.sparse as sp\n", expr, bindings, frozenset({"W"}))


def test_sparse_attributes_of_classes_and_properties():
    code = ("from scipy import sparse\n\nclass G:\n    def __init__(self, x):\n        self._adjacency = sparse.csr_matrix(x)\n"
            "        D = sparse.diags(x.sum(0))\n        self.L = D - self._adjacency\n        self.n = x.shape[0]\n\n"
            "    @property\n    def W(self):\n        return self._adjacency\n\n    def dense(self):\n        return self.W.toarray()\n")
    module = cst.parse_module(code)
    assert sparse_attributes(module, SparseNames.read(module)) == {"_adjacency", "L", "W"}


def test_sparse_functions_whole_and_tuple_items():
    # through another such function and a method of the matrix; a tuple's item; not a nested function's return, a
    # dense result, nor a name bound to other values too
    code = ("import numpy as np\nimport scipy.sparse as sp\n\ndef base(n):\n    return sp.eye(n)\n\n"
            "def pair(n):\n    b = base(n).tocsr()\n    return n, b\n\ndef dense(n):\n    def inner():\n"
            "        return sp.eye(n)\n    return np.eye(n)\n\ndef mixed(n, x):\n    b = base(n)\n    b = x\n    return b\n")
    module = cst.parse_module(code)
    assert sparse_functions(module, SparseNames.read(module)) == {"base", "pair[1]"}
    assert sparse_functions(cst.parse_module("def f(n):\n    return sp.eye(n)\n"), SparseNames()) == frozenset()


@pytest.mark.parametrize("imports, call, expected", [
    ("from skimage.util import view_as_windows", "view_as_windows(a, (2, 2))", "skimage.util.view_as_windows"),
    ("import skimage.util", "skimage.util.view_as_blocks(a, (2, 2))", "skimage.util.view_as_blocks"),
    ("from skimage import util", "util.view_as_windows(a, 2)", "skimage.util.view_as_windows"),
    ("import cv2", "cv2.GaussianBlur(a, (3, 3), 0)", "cv2.GaussianBlur"),
    ("import cv2 as cv", "cv.blur(a, (3, 3))", "cv2.blur"),
    ("from skimage.util import crop", "crop(a, 1)", None),  # converts its input with `np.asarray`
    ("import skimage", "skimage.filters.gaussian(a)", None),
])
def test_numpy_only_calls(imports, call, expected):
    module = cst.parse_module(f"{imports}\n")
    assert NumpyOnly.read(module).called(cst.parse_expression(call)) == expected
