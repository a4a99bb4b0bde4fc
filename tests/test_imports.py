"""The aliases rewrites use for `jax.numpy`, `jax` and `lax` when the module binds those names to something else."""

import libcst as cst
import pytest

from jaxfix.engine import process_file
from jaxfix.imports import ModuleImports
from jaxfix.registry import all_rules
from jaxfix.types import RunOptions

MIGRATE = RunOptions(fix=True, write=True)


def migrate(tmp_path, source: str) -> str:
    path = tmp_path / "m.py"
    path.write_text(source)
    process_file(str(path), all_rules(), MIGRATE)
    return path.read_text()


def test_a_local_named_jnp_gets_the_import_under_a_free_name(tmp_path):
    # SciPy's riccati_jn binds `jnp` (the derivatives of `jn`): `jnp = jnp.empty_like(jn)` raised UnboundLocalError
    source = ("import numpy as np\n\n\ndef pair(n):\n    a = np.zeros(n)\n    jnp = np.ones_like(a)\n"
              "    return a + jnp\n")
    out = migrate(tmp_path, source)
    assert "import jax.numpy as jnp_\n" in out and "jnp = jnp_.ones_like(a)" in out and "a = jnp_.zeros(n)" in out
    namespace: dict = {}
    exec(compile(out, "m.py", "exec"), namespace)
    assert list(namespace["pair"](2)) == [1.0, 1.0]
    assert migrate(tmp_path, out) == out  # a second migration changes nothing


@pytest.mark.parametrize("binding", ["for jnp in xs:\n        pass", "jnp = [v for v in xs]", "(jnp := xs)",
                                     "import numpy as jnp", "with open(xs) as jnp:\n        pass"])
def test_any_binding_of_the_alias_counts(binding):
    source = f"import numpy as np\n\n\ndef f(xs):\n    {binding}\n    return np.sum(xs)\n"
    assert ModuleImports.read(cst.parse_module(source)).jnp == "jnp_"


def test_an_existing_alias_rebound_in_a_function_is_passed_over(tmp_path):
    source = ("import jax.numpy as jnp\nimport numpy as np\n\n\ndef kept(x):\n    return jnp.sum(x)\n\n\n"
              "def shadowed(x, jnp=None):\n    return np.sum(x)\n")
    out = migrate(tmp_path, source)
    assert "import jax.numpy as jnp\nimport jax.numpy as jnp_\n" in out and "return jnp_.sum(x)" in out
    assert migrate(tmp_path, out) == out
    imports = ModuleImports.read(cst.parse_module(out))
    assert imports.jnp == "jnp_" and imports.missing(["jnp"]) == []


def test_jax_and_lax_rebound():
    imports = ModuleImports.read(cst.parse_module("from jax import jit\n\n\ndef f(lax, jax):\n    return lax\n"))
    assert imports.jax == "jax_" and imports.lax == "jax_.lax"
    assert imports.missing(["lax", "jnp"]) == ["import jax as jax_", "import jax.numpy as jnp"]
    plain = ModuleImports.read(cst.parse_module("from jax import jit\n\n\ndef f(x):\n    return x\n"))
    assert plain.lax == "lax" and plain.missing(["lax"]) == ["from jax import lax"]
