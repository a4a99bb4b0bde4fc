"""Notebooks: code cells are rewritten as one module; outputs, metadata, markdown and magics are kept."""

import json

import pytest

nbformat = pytest.importorskip("nbformat", reason="notebooks need the notebook extra")

from typer.testing import CliRunner  # noqa: E402

from codemods.numpy_namespace import NumpyNamespace  # noqa: E402
from jaxfix.cli import app  # noqa: E402
from jaxfix.notebook import join_cells, split_cells  # noqa: E402
from jaxfix.registry import all_rules  # noqa: E402
from jaxfix.runner import run_files  # noqa: E402
from jaxfix.types import RunOptions, Status  # noqa: E402


def notebook(tmp_path, cells, name="nb.ipynb"):
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    for kind, source in cells:
        if kind == "code":
            cell = nbformat.v4.new_code_cell(source, execution_count=1)
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="42\n")]
        else:
            cell = nbformat.v4.new_markdown_cell(source)
        nb.cells.append(cell)
    path = tmp_path / name
    path.write_text(nbformat.writes(nb) + "\n")
    return path


CELLS = [
    ("markdown", "# Heat\nSome *text* with np.sum in it."),
    ("code", "import numpy as np\n%matplotlib inline"),
    ("code", "def energy(u):\n    return np.sum(u * u)  # total"),
    ("code", "!echo hi\nenergy(np.ones(3))"),
]


def test_no_change_when_numpy_is_only_used_at_top_level(tmp_path):
    path = notebook(tmp_path, [("code", "import numpy as np\nx = np.ones(3)")])
    before = path.read_bytes()
    (result,) = run_files([str(path)], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert result.status in (Status.SKIPPED, Status.UNCHANGED) and path.read_bytes() == before


def test_cells_are_joined_and_split_back():
    sources = ["import numpy as np\n%time x = 1", "def f(x):\n    return x", "!ls"]
    module, magics, starts = join_cells(sources)
    assert "%time" not in module and starts == [2, 5, 8]
    assert split_cells(module, 3, magics) == [s + "\n" for s in sources]


def test_check_reports_by_cell(tmp_path):
    path = notebook(tmp_path, CELLS)
    (result,) = run_files([str(path)], [NumpyNamespace], RunOptions(), jobs=1)
    assert [(f.path, f.line, f.column) for f in result.findings] == [(f"{path}:cell 3", 2, 12)]


def test_migrate_rewrites_code_cells_and_keeps_the_rest(tmp_path):
    path = notebook(tmp_path, CELLS)
    original = json.loads(path.read_text())
    (result,) = run_files([str(path)], [NumpyNamespace], RunOptions(fix=True, write=True), jobs=1)
    assert result.status is Status.CHANGED and result.written
    new = json.loads(path.read_text())
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in new["cells"]]
    assert sources[0] == CELLS[0][1]  # markdown untouched, even where it mentions np.sum
    assert sources[1] == "import jax.numpy as jnp\nimport numpy as np\n%matplotlib inline"
    assert sources[2] == "def energy(u):\n    return jnp.sum(u * u)  # total"
    assert sources[3] == "!echo hi\nenergy(np.ones(3))"  # top-level call and shell escape kept
    for old, cell in zip(original["cells"], new["cells"]):
        assert old.get("outputs") == cell.get("outputs") and old["metadata"] == cell["metadata"]
    assert new["metadata"] == original["metadata"]


def test_cli_diff_on_a_notebook(tmp_path):
    path = notebook(tmp_path, CELLS)
    before = path.read_bytes()
    result = CliRunner().invoke(app, ["migrate", "--diff", "--select", "JX501", "--no-cache", str(path)])
    assert result.exit_code == 1 and "jnp.sum(u * u)" in result.stdout
    assert path.read_bytes() == before
    check = CliRunner().invoke(app, ["check", "--select", "JX501", "--no-cache", str(path)])
    assert f"{path}:cell 3:2:12: JX501" in check.stdout


def test_a_broken_notebook_is_an_error(tmp_path):
    path = tmp_path / "bad.ipynb"
    path.write_text('{"cells": [ numpy')
    (result,) = run_files([str(path)], [NumpyNamespace], RunOptions(), jobs=1)
    assert result.status is Status.ERROR and "notebook" in result.error


def test_functions_to_jit_are_named_by_cell(tmp_path):
    cells = [
        ("code", "import numpy as np"),
        ("markdown", "A loop"),
        ("code", "x = 1\n\n\ndef smooth(u, n):\n    u = u.copy()\n    for _ in range(n):\n        u[1:-1] = 0.5 * (u[:-2] + u[2:])\n    return u"),
    ]
    path = notebook(tmp_path, cells)
    (result,) = run_files([str(path)], all_rules(), RunOptions(fix=True), jobs=1)
    assert result.status is Status.CHANGED and result.needs_jit == (("smooth (cell 3)", 4),)
    first = notebook(tmp_path, [("code", cells[0][1] + "\n\n\n" + cells[2][1].split("\n\n\n")[1])], name="first.ipynb")
    (result,) = run_files([str(first)], all_rules(), RunOptions(fix=True, write=True), jobs=1)
    line = "".join(json.loads(first.read_text())["cells"][0]["source"]).split("\n").index("def smooth(u, n):") + 1
    assert result.needs_jit == (("smooth (cell 1)", line),) and line > 4
