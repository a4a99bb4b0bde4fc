"""The private functions other files of the run mention (`jaxfix.analysis.private_names`), and what the tracedness
analysis makes of them: a private helper every call in its module feeds a Python number stays Python, unless a
sibling module may call it too (with an array)."""

from typer.testing import CliRunner

from jaxfix.analysis import private_names
from jaxfix.cli import app

UTILS = b"""import numpy as np


def _pad(n, low):
    if n > low:
        return n
    return low


def _unused_elsewhere(n):
    return n


def __dunder__(n):
    return n


def smooth(x):
    m = _pad(len(x), 4)
    return np.zeros(m) + x.sum() + _unused_elsewhere(3)
"""

USE = b"""import numpy as np

from ._utils import _pad


def scaled(x):
    return _pad(x.sum(), 2.0) * np.ones(3)
"""


def _module(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def test_a_private_name_another_file_mentions_is_recorded_for_its_module():
    facts = private_names.link({"pkg/_utils.py": UTILS, "pkg/use.py": USE}, _module)
    assert facts == {"pkg._utils": ["_pad"]}


def test_mentions_in_its_own_module_only_do_not_count():
    assert private_names.link({"pkg/_utils.py": UTILS, "pkg/other.py": b"x = 1\n"}, _module) == {}


def test_one_file_records_nothing():
    assert private_names.link({"pkg/_utils.py": UTILS + USE}, _module) == {}


def test_an_attribute_of_the_module_and_a_method_definition_count():
    other = b"from . import _utils\n\ndef g(x):\n    return _utils._unused_elsewhere(x)\n"
    facts = private_names.link({"pkg/_utils.py": UTILS, "pkg/other.py": other}, _module)
    assert facts == {"pkg._utils": ["_unused_elsewhere"]}
    method = b"class A:\n    async def _run(self, n):\n        return n\n"
    facts = private_names.link({"pkg/a.py": method, "pkg/b.py": b"A()._run(3)\n"}, _module)
    assert facts == {"pkg.a": ["_run"]}


def _package(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_bytes(b"")
    (package / "_utils.py").write_bytes(UTILS)
    (package / "use.py").write_bytes(USE)
    return package


def test_a_helper_a_sibling_module_imports_is_not_taken_for_a_python_number_helper(tmp_path, monkeypatch):
    """Run over the package, `use.py` hands `_pad` an array: its `if` becomes array code. Run over `_utils.py`
    alone, every call jaxfix sees passes a size: the `if` stays Python."""
    package = _package(tmp_path)
    monkeypatch.chdir(tmp_path)
    whole = CliRunner().invoke(app, ["migrate", "--diff", "--no-cache", "pkg"])
    assert whole.exit_code == 1, whole.output  # (changes to make)
    assert "+    return jnp.where(n > low, n, low)" in whole.output
    alone = CliRunner().invoke(app, ["migrate", "--diff", "--no-cache", "pkg/_utils.py"])
    assert alone.exit_code == 1, alone.output
    assert "jnp.where" not in alone.output and "jnp.zeros(m)" in alone.output
    assert (package / "_utils.py").read_bytes() == UTILS  # (--diff writes nothing)

