"""The engine's shortcuts give the answers of the long way: names collected during a pass equal `names_used`, and
the result does not depend on them (same output as a fresh parse and a separate scan)."""

import glob
import os

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper

from jaxfix.engine import migrate_source
from jaxfix.imports import NameCollector, names_used, remove_unused_numpy_imports

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
