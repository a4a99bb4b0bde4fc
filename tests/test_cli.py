"""The command line as a user drives it: exit codes, --diff/--check, JSON, the IDE quick-fix, stdin, config."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from jaxfix.cli import app

SOURCE = "import numpy as np\n\n\ndef f(x):\n    return np.sum(x)  # keep me\n"
runner = CliRunner()


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(SOURCE)
    (tmp_path / "pkg" / "plain.py").write_text("x = 1\n")
    return tmp_path


def invoke(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_help_explains_with_examples():
    result = invoke("migrate", "--help")
    assert result.exit_code == 0 and "Example" in result.output and "--unsafe-fixes" in result.output


def test_migrate_diff_writes_nothing_and_exits_1(project):
    path = project / "pkg" / "mod.py"
    result = invoke("migrate", "--diff", str(project))
    assert result.exit_code == 1
    assert "+    return jnp.sum(x)  # keep me" in result.stdout
    assert path.read_text() == SOURCE


SHIFTING = (
    "import numpy as np\n\nSCALE = np.float64(2.0)\n\n\ndef f(x, n):\n    y = np.zeros(n)\n    y[0] = 1.0\n"
    "    print(x)\n    return y + np.sum(x)\n"
)


@pytest.mark.parametrize("mode", ["--diff", "--check"])
def test_findings_of_a_run_that_writes_nothing_are_at_lines_of_the_file(tmp_path, mode):
    """The rewrite adds `import jax.numpy as jnp` above the kept `import numpy`: the findings left were found one
    line lower in the rewritten text, but --diff and --check leave the file as it is, so they point into it."""
    path = tmp_path / "shift.py"
    path.write_text(SHIFTING)
    result = invoke("migrate", mode, "--no-cache", str(path))
    assert result.exit_code == 1 and path.read_text() == SHIFTING
    assert f"{path}:7:19: JX510" in result.output and f"{path}:9:5: JX503" in result.output
    invoke("migrate", "--no-cache", str(path))
    assert f"{path}:8:19: JX510" in invoke("check", "--no-cache", str(path)).output  # the file now holds the rewrite


def test_original_lines_maps_rewritten_and_added_lines():
    from jaxfix.reporting import original_lines
    from jaxfix.types import FileResult, Status

    before = "a\nb\nc\nd\n"
    after = "new\na\nB1\nB2\nc\nd\n"
    where = original_lines(FileResult(path="p", status=Status.CHANGED, original=before, fixed=after))
    assert [where(line) for line in range(1, 7)] == [1, 1, 2, 2, 3, 4]


def test_migrate_check_exit_codes(project):
    assert invoke("migrate", "--check", str(project)).exit_code == 1
    assert invoke("migrate", str(project)).exit_code == 0
    assert "jnp.sum(x)  # keep me" in (project / "pkg" / "mod.py").read_text()
    assert invoke("migrate", "--check", str(project)).exit_code == 0


def test_check_json(project):
    result = invoke("check", "--format", "json", str(project / "pkg" / "mod.py"))
    assert result.exit_code == 1
    findings = json.loads(result.stdout)
    assert findings[0]["code"] == "JX501" and findings[0]["line"] == 5 and findings[0]["column"] == 12
    assert findings[0]["fix"]["applicability"] == "safe" and findings[0]["fix"]["edits"]


def test_select_and_ignore(project):
    assert invoke("check", "--ignore", "JX5", str(project)).exit_code == 0
    result = invoke("check", "--select", "JX999", str(project))
    assert result.exit_code == 2 and "unknown rule selector" in result.output


def test_config_in_pyproject(project):
    (project / "pyproject.toml").write_text('[tool.jaxfix]\nignore = ["JX501"]\n')
    assert invoke("check", str(project / "pkg")).exit_code == 0
    (project / "pyproject.toml").write_text('[tool.jaxfix]\nexclude = ["pkg/mod.py"]\n')
    assert invoke("check", str(project / "pkg")).exit_code == 0


def test_gitignore_is_respected(project):
    (project / ".gitignore").write_text("pkg/mod.py\n")
    assert invoke("check", str(project)).exit_code == 0


def test_fix_at_line(project):
    path = project / "pkg" / "mod.py"
    assert invoke("fix", str(path), "--line", "3").exit_code == 1  # nothing there
    result = invoke("fix", str(path), "--line", "5", "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)[0]["code"] == "JX501"
    assert path.read_text() == SOURCE
    assert invoke("fix", str(path), "--line", "5").exit_code == 0
    assert "jnp.sum(x)" in path.read_text()


def test_fix_at_line_says_why_nothing_was_fixed(tmp_path):
    # an editor's user asking for a fix where none applies learns why: an unsafe fix needs --unsafe-fixes, a
    # finding with no fix says so, one withheld with a suppressed sibling keeps its own note
    path = tmp_path / "mod.py"
    path.write_text(
        "import numpy as np\n\n\ndef scale(x):\n    x[0] = 1.0\n    return x\n\n\n"
        "def noise(n):\n    return np.random.normal(size=n)  # jaxfix: ignore[JX401]\n\n\n"
        "def g(n):\n    return noise(n) + 1\n"
    )
    before = path.read_text()
    unsafe = invoke("fix", str(path), "--line", "5")
    assert unsafe.exit_code == 1 and "JX101" in unsafe.output and "pass --unsafe-fixes" in unsafe.output
    silenced = invoke("fix", str(path), "--line", "14")
    assert silenced.exit_code == 1 and "suppressed at line 10" in silenced.output
    assert "no sound fix" not in silenced.output.split("suppressed at line 10")[1].split("\n")[0]
    assert path.read_text() == before


def test_stdin_roundtrip():
    result = invoke("migrate", "-", input=SOURCE)
    assert result.exit_code == 0 and "return jnp.sum(x)  # keep me" in result.stdout
    unchanged = invoke("migrate", "-", input="x = 1\n")
    assert unchanged.stdout == "x = 1\n"


def test_error_exit_code_and_message(project):
    (project / "pkg" / "broken.py").write_text("import numpy as np\ndef f(:\n")
    result = invoke("migrate", str(project))
    assert result.exit_code == 2
    assert "broken.py: error: syntax error" in result.output
    assert "jnp.sum" in (project / "pkg" / "mod.py").read_text(), "the rest of the batch goes on"


def test_missing_path_is_a_usage_error():
    result = invoke("check", "no/such/path.py")
    assert result.exit_code == 2 and "no such file" in result.output


def test_rules_and_explain():
    listed = json.loads(invoke("rules", "--format", "json").stdout)
    assert any(r["code"] == "JX501" for r in listed)
    text = invoke("explain", "JX501").stdout
    assert "## What it does" in text and "## Fix safety" in text
    assert invoke("explain", "JX999").exit_code == 2


def test_brackets_in_text_are_not_rich_markup(tmp_path):
    table = invoke("rules").stdout
    assert "x.at[idx].set(v)" in " ".join(table.split())  # the table may wrap the summary
    folder = tmp_path / "w[red]"
    folder.mkdir()
    (folder / "f.py").write_text(SOURCE)
    result = invoke("migrate", str(folder / "missing.py"))
    assert result.exit_code == 2 and f"{folder / 'missing.py'}: no such file" in result.output
    result = invoke("migrate", "--show-fixes", str(folder / "f.py"))
    assert result.exit_code == 0 and f"- {folder / 'f.py'}:" in result.output


def test_python_dash_m_works():
    result = subprocess.run([sys.executable, "-m", "jaxfix", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("jaxfix ")
