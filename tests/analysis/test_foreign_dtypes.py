"""`foreign_dtypes.INDEX`: dtype constants of one module of the run, imported and used in another."""

import ast

import pytest

from codemods.numpy_namespace import NumpyNamespace
from jaxfix.analysis import foreign_dtypes
from jaxfix.runner import run_files
from jaxfix.types import RunOptions

CONSTS = (
    "import numpy as np\n"
    "LABEL = np.str_\n"
    "OBJ = np.dtype('O')\n"
    "CODE = 'U8'\n"
    "KIND = object  # any Python object\n"
    "ALIAS = OBJ\n"
    "REC = np.dtype([('x', float), ('y', float)])\n"
    # (a C header's layout, aligned: obspy's `head_t`; and the same as names and formats)
    "ALIGNED = np.dtype([('n', np.uint32), ('m', np.uint32)], align=True)\n"
    "FIELDS = np.dtype({'names': ['a', 'b'], 'formats': [np.int32, np.float64]})\n"
    "REAL = np.float64\n"
    "NAME = 'Some text'\n"
    "TWICE = object\n"
    "TWICE = np.float32\n"
)


def test_the_index_finds_the_constants_bound_only_to_a_dtype_jax_cannot_hold():
    summary = foreign_dtypes._summarize("pkg/consts.py", "pkg.consts", ast.parse(CONSTS), frozenset())
    assert summary == {"module": "pkg.consts", "imported": {}, "names": ["ALIAS", "ALIGNED", "CODE", "FIELDS", "KIND", "LABEL", "OBJ", "REC"]}
    assert foreign_dtypes.link_names({"pkg/consts.py": summary})[0] == "pkg.consts.ALIAS"
    # re-exports, through any number of packages
    init = foreign_dtypes._summarize("pkg/__init__.py", "pkg", ast.parse("from .consts import LABEL as L, REAL\n"), frozenset())
    top = foreign_dtypes._summarize("top/__init__.py", "top", ast.parse("from pkg import L\n"), frozenset())
    linked = foreign_dtypes.link_names({"pkg/consts.py": summary, "pkg/__init__.py": init, "top/__init__.py": top})
    assert {"pkg.L", "top.L"} <= set(linked) and "pkg.REAL" not in linked


def test_the_index_reads_only_modules_that_bind_a_candidate():
    for code in (CONSTS, "DT = np.dtype(float)\n", "K = object\n", "C = 'S4'\n", "D = numpy.datetime64\n"):
        assert foreign_dtypes._wanted(code.encode(), "pkg.a", False, frozenset()), code
    for code in ("import numpy as np\nX = np.zeros(3)\ndef f(x):\n    return np.sum(x)\n", "__version__ = '1.0.2'\n",
                 "def f(dtype=object):\n    pass\n", "K = objects\n"):
        assert not foreign_dtypes._wanted(code.encode(), "pkg.a", False, frozenset()), code
    assert foreign_dtypes._wanted(b"from .consts import LABEL\n", "pkg", True, frozenset())  # a package may re-export


@pytest.mark.parametrize("imports, dtype", [
    pytest.param("from .consts import LABEL", "LABEL", id="numpy-scalar-type"),
    pytest.param("from pk.consts import OBJ as O", "O", id="renamed-np-dtype"),
    pytest.param("from .consts import ALIAS", "ALIAS", id="alias-of-a-constant"),
    pytest.param("from .consts import CODE", "CODE", id="type-code"),
    pytest.param("from .consts import REC", "REC", id="record-layout"),
    pytest.param("from pk.consts import ALIGNED", "ALIGNED", id="aligned-record-layout"),
    pytest.param("from .consts import FIELDS", "FIELDS", id="names-and-formats"),
    pytest.param("from . import consts", "consts.LABEL", id="read-through-its-module"),
    pytest.param("from pk import consts as c2", "c2.OBJ", id="read-through-a-renamed-module"),
    pytest.param("from . import LABEL as L2", "L2", id="package-re-export"),
])
def test_an_array_made_with_an_imported_dtype_constant_stays_numpy(tmp_path, imports, dtype):
    """`LABEL = np.str_` in `consts.py`, `np.empty(n, dtype=LABEL)` in another module: `jnp.empty` raised
    `TypeError` (JAX has no such dtype); the function is left as it is, the module's others migrate."""
    pkg = tmp_path / "pk"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .consts import LABEL\n")
    (pkg / "consts.py").write_text(CONSTS)
    model = (f"import numpy as np\n{imports}\n\n\ndef make(n):\n    return np.empty(n, dtype={dtype})\n\n\n"
             "def total(x):\n    return np.sum(x)\n")
    (pkg / "model.py").write_text(model)
    files = sorted(str(p) for p in pkg.glob("*.py"))
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, [NumpyNamespace], RunOptions(fix=True, write=False), jobs=1)}
    fixed = results["model.py"].fixed
    assert f"np.empty(n, dtype={dtype})" in fixed and "jnp.sum(x)" in fixed, fixed
    assert any(f"asks for the dtype `{dtype}`" in f.message for f in results["model.py"].findings)
    # a numeric constant, or one the module binds itself, is not taken for it
    (pkg / "model.py").write_text(model.replace(imports, "from .consts import REAL").replace(f"dtype={dtype}", "dtype=REAL"))
    results = {r.path.rsplit("/", 1)[-1]: r for r in run_files(files, [NumpyNamespace], RunOptions(fix=True, write=False), jobs=1)}
    assert "jnp.empty(n, dtype=REAL)" in results["model.py"].fixed
