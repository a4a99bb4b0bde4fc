"""The second-level pre-check (`jaxfix.precheck`): conservative, so a file it rules out really needs nothing."""

import ast
import glob
import os
import textwrap

import pytest

from codemods.numpy_namespace import NumpyNamespace
from jaxfix.engine import may_apply_to_tree, process_bytes, process_source
from jaxfix.precheck import numpy_aliases, numpy_in_functions, parse
from jaxfix.types import RunOptions, Status

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def check(code: str) -> bool:
    code = textwrap.dedent(code)
    return numpy_in_functions(ast.parse(code), code)


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("import jax.numpy as jnp\ndef f(x):\n    return jnp.sum(x)\n", id="already-jax"),
        pytest.param("import numpy as np\nTABLE = np.ones(3)\ndef f(x):\n    return x + 1\n", id="module-level-only"),
        pytest.param("import numpy as np\nf = lambda x: np.sum(x)\n", id="module-level-lambda"),
        pytest.param("def f(x):\n    return np.sum(x)\n", id="no-numpy-import"),
        pytest.param("import numpy as np\ndef f(x):\n    return npx.sum(x)\n", id="word-boundary"),
    ],
)
def test_rules_out(code):
    assert not check(code)


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("import numpy as np\ndef f(x):\n    return np.sum(x)\n", id="call-in-function"),
        pytest.param("import numpy as np\n@np.vectorize\ndef f(x):\n    return x\n", id="decorator"),
        pytest.param("import numpy as np\ndef f(x, w=np.ones(3)):\n    return x\n", id="default-argument"),
        pytest.param("import numpy as np\ndef f(x): return np.sum(x)\n", id="one-line-def"),
        pytest.param("from numpy import dot\nclass A:\n    def f(self, a):\n        return dot(a, a)\n", id="method"),
        pytest.param("import numpy.linalg as la\nif True:\n    def f(a):\n        return la.norm(a)\n", id="nested-in-if"),
        pytest.param("import os, numpy\ndef f(a):\n    return numpy.sum(a)\n", id="import-list"),
    ],
)
def test_keeps(code):
    assert check(code)


def test_aliases_follow_top_level_imports():
    tree = ast.parse("import numpy as np\nfrom numpy import dot, zeros as z\nimport numpy.linalg\ndef f():\n    import numpy as inner\n")
    assert numpy_aliases(tree) == {"np", "dot", "z", "numpy"}


def test_syntax_error_is_left_to_libcst():
    assert parse("def (:\n") is None
    assert may_apply_to_tree("x.py", b"numpy", "import numpy\ndef (:\n", [NumpyNamespace])


def test_engine_skips_module_level_numpy_without_parsing(monkeypatch):
    import jaxfix.engine as engine

    def boom(text):
        raise AssertionError("LibCST should not be reached")

    monkeypatch.setattr(engine, "_parse", boom)
    data = b"import numpy as np\nTABLE = np.linspace(0, 1, 5)\ndef f(x):\n    return x * 2\n"
    assert process_bytes("m.py", data, [NumpyNamespace], RunOptions(fix=True)).status is Status.SKIPPED


def test_a_rule_without_a_tree_check_keeps_the_file_parsed():
    class Other(NumpyNamespace):
        CODE = "JX599"
        may_apply_to_tree = None

    data = b"import numpy as np\nTABLE = np.ones(3)\n"
    assert not may_apply_to_tree("m.py", data, data.decode(), [NumpyNamespace])
    assert may_apply_to_tree("m.py", data, data.decode(), [NumpyNamespace, Other])


def _sources():
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "*", "**", "*.py"), recursive=True)):
        yield path, open(path, encoding="utf-8").read()
    for i, example in enumerate([*NumpyNamespace.VALID, *NumpyNamespace.INVALID]):
        code = example if isinstance(example, str) else example.code
        yield f"example-{i}", textwrap.dedent(code)


def test_sound_on_every_fixture_and_example():
    """Wherever the pre-check says no, the rule indeed reports nothing."""
    for name, code in _sources():
        tree = parse(code)
        if tree is None or numpy_in_functions(tree, code):
            continue
        outcome = process_source(name, code, [NumpyNamespace], RunOptions())
        assert not outcome.findings, name
