"""The engine's shortcuts give the answers of the long way: names collected during a pass equal `names_used`, and
the result does not depend on them (same output as a fresh parse and a separate scan)."""

import ast
import glob
import os

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper

from jaxfix.engine import migrate_source, process_source
from jaxfix.imports import NameCollector, names_used, remove_unused_numpy_imports
from jaxfix.registry import all_rules
from jaxfix.types import RunOptions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "*", "**", "*.py"), recursive=True)) + [
    os.path.join(ROOT, "examples", "heat.py")
]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: os.path.relpath(p, ROOT))
def test_batched_names_equal_names_used(path):
    module = cst.parse_module(open(path, encoding="utf-8").read())
    collector = NameCollector()
    MetadataWrapper(module, unsafe_skip_copy=True).visit_batched([collector])
    assert collector.names == names_used(module)


def test_names_skip_imports_and_attribute_names():
    module = cst.parse_module("import numpy as np\nfrom numpy import dot\nx = jnp.linalg.norm(y, ord=k)\n")
    collector = NameCollector()
    MetadataWrapper(module, unsafe_skip_copy=True).visit_batched([collector])
    assert collector.names == {"x", "jnp", "y", "ord", "k"} == names_used(module)


def test_import_clean_up_with_given_names():
    module = cst.parse_module("import numpy as np\nimport jax.numpy as jnp\nx = jnp.ones(3)\n")
    assert remove_unused_numpy_imports(module, {"np"}, names_used(module)).code == remove_unused_numpy_imports(module, {"np"}).code
    assert "import numpy" not in remove_unused_numpy_imports(module, {"np"}).code


def test_numpy_import_dropped_once_unused():
    code = "import numpy as np\n\n\ndef f(x):\n    return np.sum(x)\n"
    assert migrate_source(code) == "import jax.numpy as jnp\n\n\ndef f(x):\n    return jnp.sum(x)\n"


def test_numpy_import_listed_in_all_is_kept():
    # `from .core import *` re-exports what `__all__` lists: dropping the import would break importers
    code = 'import numpy as np\nfrom numpy import expand_dims\n\n__all__ = ["expand_dims", "f"]\n\n\ndef f(x):\n    return np.sum(x)\n'
    assert "from numpy import expand_dims\n" in migrate_source(code)


def test_numpy_import_read_by_docstring_examples_is_kept():
    # doctest runs a docstring's examples in the module's namespace: `>>> np.allclose(...)` needs `np` (trimesh's
    # transformations); an import only a plain string or comment names still goes
    code = ('import numpy as np\n\n\ndef f(x):\n    """Sum.\n\n    >>> bool(np.isclose(f([1.0, 2.0]),\n'
            '    ...                 3.0))\n    True\n    """\n    return np.sum(x)\n')
    assert migrate_source(code).startswith("import jax.numpy as jnp\nimport numpy as np\n")
    other = 'import numpy as np\n\n\ndef f(x):\n    """Sum, like np.sum."""\n    s = ">>> np.sum(x)"\n    return np.sum(x)\n'
    assert "import numpy" not in migrate_source(other)


def test_numpy_import_another_module_imports_is_kept(tmp_path):
    """`from .functions import where` elsewhere in the run: `functions.py` keeps importing `where` from NumPy after
    its own code moves to `jnp.where` (skyfield's geometry imports NumPy names through its functions module). A
    package's `__init__.py` keeps its public names, as its interface. The trailing comma before `)` stays."""
    from jaxfix.registry import all_rules
    from jaxfix.runner import run_files
    from jaxfix.types import RunOptions

    (tmp_path / "pkg").mkdir()
    functions = "from numpy import (\n    nan, sqrt, where,\n)\n\n\ndef sqrt_nan(n):\n    return where(n < 0.0, nan, sqrt(abs(n)))\n"
    (tmp_path / "pkg/__init__.py").write_text("from numpy import cos, sin\n\n\ndef f(x):\n    return cos(x) + sin(x)\n")
    (tmp_path / "pkg/functions.py").write_text(functions)
    (tmp_path / "pkg/geometry.py").write_text(
        "from .functions import nan, sqrt_nan, where\nfrom . import cos\n\n\ndef g(x):\n    return where(x > 0, sqrt_nan(x), nan)\n")
    paths = [str(tmp_path / "pkg" / name) for name in ("__init__.py", "functions.py", "geometry.py")]
    run_files(paths, all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert "from numpy import (\n    nan, where,\n)\n" in (tmp_path / "pkg/functions.py").read_text()
    assert "from numpy import cos, sin\n" in (tmp_path / "pkg/__init__.py").read_text()
    # alone, nothing says another module imports `where`: it goes
    (tmp_path / "pkg/functions.py").write_text(functions)
    run_files(paths[1:2], all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert "from numpy import (\n    nan,\n)\n" in (tmp_path / "pkg/functions.py").read_text()


def test_imported_names_resolves_relative_imports():
    from jaxfix.imports import imported_names

    data = b"from .functions import nan, where as w, length_of\nfrom ..up import (\n    cos,  # c\n    pi)\nfrom math import \\\n    sqrt\nfrom ... import e\n"
    assert imported_names("pkg.sub.geometry", False, data) == {
        "pkg.sub.functions": {"nan", "where"}, "pkg.up": {"cos", "pi"}, "math": {"sqrt"}}
    assert imported_names("pkg.sub", True, b"from .functions import where\n") == {"pkg.sub.functions": {"where"}}


def test_numpy_backend_modules_are_left_as_they_are(tmp_path):
    """The NumPy flavour of a dispatch layer (array_api_compat.numpy, backends/numpy.py) exists to be NumPy: code
    elsewhere hands it NumPy arrays and expects NumPy arrays back (SciPy's vendored array_api_compat, migrated,
    broke most of scipy.cluster's tests)."""
    from jaxfix.registry import all_rules
    from jaxfix.runner import run_files
    from jaxfix.types import RunOptions, Status

    code = "import numpy as np\n\n\ndef asarray(obj, copy=None):\n    return np.array(obj, copy=copy)\n"
    for folder in ("pkg", "pkg/compat", "pkg/compat/numpy", "pkg/backends"):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    paths = [tmp_path / "pkg/compat/numpy/_aliases.py", tmp_path / "pkg/backends/numpy_backend.py", tmp_path / "pkg/core.py"]
    for path in paths:
        path.write_text(code)
    results = run_files([str(p) for p in paths], all_rules(), RunOptions(fix=True, write=True), jobs=1)
    assert [r.status for r in results] == [Status.SKIPPED, Status.SKIPPED, Status.CHANGED]
    assert paths[0].read_text() == paths[1].read_text() == code and "jnp.array" in paths[2].read_text()



def test_the_fixed_ast_handed_on_is_the_tree_of_the_fixed_text():
    # the run's advice reads the rewritten code's `ast` tree; the engine hands on the one its last pre-check parsed,
    # and only when that was the very text it returns (not the text before the import clean-up changed it)
    given = 0
    for path in SOURCES:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        outcome = process_source(path, text, all_rules(), RunOptions(fix=True))
        if outcome.fixed_ast is not None:
            given += 1
            assert ast.dump(outcome.fixed_ast) == ast.dump(ast.parse(outcome.fixed)), path
    assert given > len(SOURCES) // 2
    dropped = process_source("m.py", "import numpy as np\n\n\ndef f(x):\n    return np.sum(x)\n", all_rules(),
                             RunOptions(fix=True))
    assert "import numpy" not in dropped.fixed and dropped.fixed_ast is None
