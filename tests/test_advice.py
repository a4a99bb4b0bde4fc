"""Advice on the rewritten code as a whole: which functions must run under `jax.jit`, and float32 against float64."""

import json
import logging

import jax
import jax.numpy as jnp
import pytest
from typer.testing import CliRunner

from jaxfix.advice import new_control_flow
from jaxfix.cli import app

LOOP = """import numpy as np


def smooth(u, n):
    u = u.copy()
    for _ in range(n):
        u[1:-1] = 0.5 * (u[:-2] + u[2:])
    return u


def total(x):
    return np.sum(x)
"""

runner = CliRunner()


# --- no advice first


def test_no_control_flow_no_advice():
    assert new_control_flow("def f(x):\n    return x\n", "def f(x):\n    return jnp.sum(x)\n") == ()


def test_control_flow_already_there_is_not_new():
    text = "from jax import lax\n\n\ndef f(x):\n    return lax.cond(x > 0, g, h, x)\n"
    assert new_control_flow(text, text.replace("g, h", "h, g")) == ()


def test_text_that_does_not_parse_gives_no_advice():
    assert new_control_flow("x = 1\n", "def f(:\n    lax.cond(\n") == ()


def test_other_lax_functions_are_not_control_flow():
    assert new_control_flow("def f(x):\n    return x\n", "def f(x):\n    return lax.stop_gradient(x)\n") == ()


# --- advice


def test_outermost_function_and_method_are_named_with_their_lines():
    fixed = (
        "import jax\n\n\nclass Model:\n    def step(self, x):\n        def body(i, x):\n            return x\n"
        "        return jax.lax.fori_loop(0, 3, body, x)\n\n\ndef g(x):\n    return lax.switch(x, [a, b])\n"
    )
    assert new_control_flow("", fixed) == (("Model.step", 5), ("g", 11))


def test_one_more_call_than_before_is_new():
    before = "def f(x):\n    return lax.cond(x, a, b)\n"
    after = "def f(x):\n    y = lax.scan(s, 0, x)\n    return lax.cond(x, a, b)\n"
    assert new_control_flow(before, after) == (("f", 1),)


def test_functions_under_module_level_if_are_found():
    fixed = "try:\n    pass\nexcept ImportError:\n    def f(x):\n        return jax.lax.while_loop(c, b, x)\n"
    assert new_control_flow("", fixed) == (("f", 4),)


def test_the_reason_for_the_advice_holds():
    """Called outside `jit`, a `lax` loop with a body function defined per call compiles on every call; under `jit`,
    once. This is the fact the note states: if JAX starts caching these, the note should go."""

    def f(x):
        def body(i, c):
            return c + x[i]

        return jax.lax.fori_loop(0, x.shape[0], body, 0.0)

    compiled = []

    class Count(logging.Handler):
        def emit(self, record):
            compiled.append(record.getMessage())

    x = jnp.ones(3)
    jitted = jax.jit(f)
    jitted(x)
    f(x)
    logger = logging.getLogger("jax")
    handler = Count(level=logging.WARNING)
    logger.addHandler(handler)
    try:
        with jax.log_compiles(True):
            jitted(x)
            jitted(x)
            under_jit = len(compiled)
            f(x)
            f(x)
            eager = len(compiled) - under_jit
    finally:
        logger.removeHandler(handler)
    assert under_jit == 0 and eager >= 2, compiled


# --- the command line


def test_migrate_names_the_functions_to_jit_and_warns_about_float32(tmp_path):
    path = tmp_path / "kernels.py"
    path.write_text(LOOP)
    result = runner.invoke(app, ["migrate", "--diff", "--no-cache", str(path)])
    assert result.exit_code == 1 and "jax.lax.fori_loop" in result.stdout
    assert "note: 1 function now uses `lax` loops or branches; run it under `jax.jit`" in result.output
    assert f"  {path}:4: smooth" in result.output  # the line in the file as it is (--diff wrote nothing)
    assert "total" not in result.output.split("note:")[1]  # a jnp rewrite needs no jit
    assert "JAX in float32 unless `jax_enable_x64` is set" in result.output


def test_quiet_and_x64_setting_silence_the_notes(tmp_path):
    path = tmp_path / "kernels.py"
    path.write_text(LOOP)
    assert "note:" not in runner.invoke(app, ["migrate", "--diff", "--quiet", "--no-cache", str(path)]).output
    (tmp_path / "pyproject.toml").write_text("[tool.jaxfix]\nx64 = true\n")
    output = runner.invoke(app, ["migrate", "--diff", "--no-cache", str(path)]).output
    assert "jax_enable_x64" not in output and "note: 1 function" in output


def test_no_notes_when_nothing_changes(tmp_path):
    path = tmp_path / "plain.py"
    path.write_text("def f(x):\n    return x\n")
    assert "note:" not in runner.invoke(app, ["migrate", "--diff", "--no-cache", str(path)]).output


def test_report_lists_the_functions(tmp_path):
    path = tmp_path / "kernels.py"
    path.write_text(LOOP)
    report = tmp_path / "report.json"
    runner.invoke(app, ["migrate", "--diff", "--no-cache", "--report", str(report), str(path)])
    (entry,) = json.loads(report.read_text())["files"]
    assert entry["needs_jit"] == [{"function": "smooth", "line": 4}]  # --diff: a line of the file as it is
    markdown = tmp_path / "report.md"
    runner.invoke(app, ["migrate", "--diff", "--no-cache", "--report", str(markdown), str(path)])
    assert f"- `{path}:4` `smooth`" in markdown.read_text()
    runner.invoke(app, ["migrate", "--no-cache", "--report", str(report), str(path)])
    (entry,) = json.loads(report.read_text())["files"]
    assert entry["needs_jit"] == [{"function": "smooth", "line": 5}]  # written: a line of the rewrite
