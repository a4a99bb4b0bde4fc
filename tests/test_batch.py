"""Batch-run features of the CLI: --report (JSON / Markdown), --statistics, --quiet, --exit-zero, --output-format,
--show-fixes, and the cache through the command line."""

import json

import pytest
from typer.testing import CliRunner

from jaxfix.cli import app

SOURCE = "import numpy as np\n\n\ndef f(x):\n    return np.sum(x) + np.mean(x)\n"
runner = CliRunner()


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.jaxfix]\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(SOURCE)
    (tmp_path / "pkg" / "plain.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "broken.py").write_text("import numpy as np\ndef f(:\n")
    return tmp_path


def check(*args):
    return runner.invoke(app, ["check", "--select", "JX501", *args])


def test_json_report(project):
    report = project / "out" / "report.json"
    result = check(str(project / "pkg"), "--report", str(report))
    assert result.exit_code == 2  # broken.py
    data = json.loads(report.read_text())
    assert data["command"] == "check" and data["rules"] == ["JX501"]
    totals = data["totals"]
    assert totals["files"] == 3 and totals["error"] == 1 and totals["findings_remaining"] == 2
    assert data["by_rule"][0]["code"] == "JX501" and data["by_rule"][0]["findings"] == 2
    assert data["errors"][0]["path"].endswith("broken.py") and "syntax error" in data["errors"][0]["reason"]
    by_path = {f["path"].rsplit("/", 1)[1]: f for f in data["files"]}
    assert by_path["mod.py"]["findings_by_rule"] == {"JX501": 2} and by_path["plain.py"]["status"] == "skipped"
    assert all(isinstance(f["seconds"], float) for f in data["files"])


def test_markdown_report_after_migrate(project):
    report = project / "report.md"
    result = runner.invoke(app, ["migrate", "--select", "JX501", str(project / "pkg"), "--report", str(report)])
    assert result.exit_code == 2
    text = report.read_text()
    assert text.startswith("# jaxfix report: `migrate`")
    assert "| JX501 | `numpy-namespace` | 2 | 0 |" in text  # 2 fixes applied, none remaining
    assert "broken.py`: syntax error" in text


def test_statistics_replaces_the_finding_lines(project):
    (project / "pkg" / "broken.py").unlink()
    result = check(str(project / "pkg"), "--statistics")
    assert result.exit_code == 1
    assert "2\tJX501\t[*] numpy-namespace" in result.stdout
    assert "mod.py:5" not in result.stdout


def test_quiet_and_exit_zero(project):
    (project / "pkg" / "broken.py").unlink()
    result = check(str(project / "pkg"), "--quiet", "--exit-zero")
    assert result.exit_code == 0
    assert "mod.py:5:12: JX501" in result.stdout and "Found" not in result.output
    broken = project / "pkg" / "broken.py"
    broken.write_text("import numpy as np\ndef f(:\n    np\n")
    assert check(str(project / "pkg"), "--exit-zero").exit_code == 2  # an error is still an error


def test_output_format_alias(project):
    result = check(str(project / "pkg" / "mod.py"), "--output-format", "json")
    assert json.loads(result.stdout)[0]["code"] == "JX501"


def test_show_fixes(project):
    result = runner.invoke(app, ["migrate", "--select", "JX501", str(project / "pkg" / "mod.py"), "--show-fixes"])
    assert result.exit_code == 0
    assert "Fixed 2 finding(s)" in result.output and "2 x JX501" in result.output


def test_cache_through_the_cli(project):
    cache = project / ".jaxfix_cache"
    report = project / "r.json"
    check(str(project / "pkg"), "--report", str(report))
    assert cache.is_dir(), "the cache lives next to pyproject.toml"
    check(str(project / "pkg"), "--report", str(report))
    assert json.loads(report.read_text())["totals"]["cached"] == 1  # mod.py; plain.py is skipped, broken.py an error
    check(str(project / "pkg"), "--report", str(report), "--no-cache")
    assert json.loads(report.read_text())["totals"]["cached"] == 0


def test_no_cache_writes_nothing(project):
    check(str(project / "pkg"), "--no-cache")
    assert not (project / ".jaxfix_cache").exists()


def test_unknown_format_is_a_usage_error(project):
    result = check(str(project / "pkg"), "--format", "xml")
    assert result.exit_code == 2 and "xml" in result.output


def test_progress_reports_every_file_with_the_pool(tmp_path):
    from codemods.numpy_namespace import NumpyNamespace
    from jaxfix.runner import run_files
    from jaxfix.types import RunOptions

    paths = []
    for i in range(10):
        path = tmp_path / f"m{i}.py"
        path.write_text(SOURCE if i % 2 else "x = 1\n")
        paths.append(str(path))
    seen = []
    results = run_files(paths, [NumpyNamespace], RunOptions(), jobs=2, progress=lambda r: seen.append(r.path))
    assert sorted(seen) == sorted(paths) and [r.path for r in results] == paths
