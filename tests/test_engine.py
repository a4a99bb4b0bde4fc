"""The engine on bad and unusual input: clear errors, nothing lost, the rest of the batch goes on."""

import os
import stat

import pytest

from jaxfix.engine import process_file
from jaxfix.fixes import text_edits
from jaxfix.registry import all_rules
from jaxfix.runner import run_files
from jaxfix.types import RunOptions, Status

MIGRATE = RunOptions(fix=True, write=True)
NEEDS_FIX = b"import numpy as np\n\ndef f(x):\n    return np.sum(x)\n"


def write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def run(path, options=MIGRATE):
    return process_file(path, all_rules(), options)


def test_syntax_error_is_reported_and_file_untouched(tmp_path):
    data = b"import numpy as np\ndef f(x:\n    return np.sum(x)\n"
    path = write(tmp_path, "bad.py", data)
    result = run(path)
    assert result.status is Status.ERROR and "syntax error" in result.error and "line" in result.error
    assert open(path, "rb").read() == data


def test_non_utf8_is_reported_and_file_untouched(tmp_path):
    data = b"import numpy as np\n# caf\xe9\ndef f(x):\n    return np.sum(x)\n"
    path = write(tmp_path, "latin.py", data)
    result = run(path)
    assert result.status is Status.ERROR and "utf-8" in result.error.lower() and "line 2" in result.error
    assert open(path, "rb").read() == data


def test_pep263_cookie_is_honoured_and_kept(tmp_path):
    data = b"# -*- coding: latin-1 -*-\nimport numpy as np\n# caf\xe9\ndef f(x):\n    return np.sum(x)\n"
    path = write(tmp_path, "latin.py", data)
    result = run(path)
    assert result.status is Status.CHANGED
    out = open(path, "rb").read()
    assert b"caf\xe9" in out and b"jnp.sum(x)" in out


def test_empty_file(tmp_path):
    path = write(tmp_path, "empty.py", b"")
    assert run(path).status is Status.SKIPPED


def test_crlf_and_bom_are_kept(tmp_path):
    data = b"\xef\xbb\xbfimport numpy as np\r\n\r\ndef f(x):\r\n    return np.sum(x)\r\n"
    path = write(tmp_path, "crlf.py", data)
    assert run(path).status is Status.CHANGED
    out = open(path, "rb").read()
    assert out.startswith(b"\xef\xbb\xbf") and b"\n" not in out.replace(b"\r\n", b"")
    assert b"import jax.numpy as jnp\r\n" in out and b"jnp.sum(x)\r\n" in out


def test_read_only_file_is_reported_not_written(tmp_path):
    path = write(tmp_path, "ro.py", NEEDS_FIX)
    os.chmod(path, stat.S_IRUSR | stat.S_IRGRP)
    try:
        result = run(path)
        assert result.status is Status.ERROR and "read-only" in result.error
        assert open(path, "rb").read() == NEEDS_FIX
    finally:
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)


def test_permissions_are_kept(tmp_path):
    path = write(tmp_path, "exe.py", NEEDS_FIX)
    os.chmod(path, 0o750)
    assert run(path).status is Status.CHANGED
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o750
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".jaxfix-")], "temporary file left behind"


def test_huge_file_is_reported(tmp_path):
    data = NEEDS_FIX + b"x = 1\n" * (5 * 1024 * 1024 // 6)
    path = write(tmp_path, "huge.py", data)
    result = run(path, RunOptions(fix=True, write=True, max_file_bytes=2_000_000))
    assert result.status is Status.ERROR and "MB" in result.error and "limit" in result.error
    assert open(path, "rb").read() == data


def test_nul_bytes_mean_not_text(tmp_path):
    path = write(tmp_path, "bin.py", b"numpy\x00\x01\x02")
    result = run(path)
    assert result.status is Status.ERROR and "not a text file" in result.error


def test_a_crashing_rule_is_isolated(tmp_path, monkeypatch):
    from codemods.numpy_namespace import NumpyNamespace

    def visit_Call(self, node):
        raise KeyError("boom")

    monkeypatch.setattr(NumpyNamespace, "visit_Call", visit_Call)
    bad = write(tmp_path, "a.py", NEEDS_FIX)
    results = run_files([bad], [NumpyNamespace], MIGRATE, jobs=1)
    assert results[0].status is Status.ERROR and "JX501" in results[0].error and "crashed" in results[0].error
    assert open(bad, "rb").read() == NEEDS_FIX


def test_a_crash_while_indexing_the_run_is_reported_for_every_file(tmp_path, monkeypatch):
    """The project index is built before any file is rewritten; a crash there leaves every file unchanged, each
    reported with the reason and where it happened (the facts each rewrite rests on are unknown)."""
    from codemods import _caller_inputs

    def reexports(summaries):  # (called by `link`)
        raise IndexError("boom")

    monkeypatch.setattr(_caller_inputs, "_reexports", reexports)
    helper = write(tmp_path, "helper.py", NEEDS_FIX)
    use = write(tmp_path, "use.py", b"import numpy as np\nfrom helper import f\n\ndef g(x):\n    return f(np.abs(x))\n")
    results = run_files([helper, use], all_rules(), MIGRATE, jobs=1)
    assert [r.status for r in results] == [Status.ERROR, Status.ERROR]
    assert all("internal error while indexing" in r.error and "IndexError: boom" in r.error
               and "test_engine.py:" in r.error for r in results)
    assert open(helper, "rb").read() == NEEDS_FIX and b"np.abs" in open(use, "rb").read()


TRACED_IF = b"import jax.numpy as jnp\n\ndef f(x):\n    y = x\n    if jnp.sum(x) > 0:\n        y = x * 2\n    return y\n"


def _counting_builds(monkeypatch):
    """Count the deferred replacements built (JX201 defers its `jnp.where` text)."""
    from jaxfix import rule as rulelib

    built = []
    original = rulelib.Deferred.__init__

    def init(self, build):
        def counted():
            built.append(1)
            return build()

        original(self, counted)

    monkeypatch.setattr(rulelib.Deferred, "__init__", init)
    return built


def test_a_deferred_replacement_is_built_only_when_applied(tmp_path, monkeypatch):
    built = _counting_builds(monkeypatch)
    path = write(tmp_path, "a.py", TRACED_IF)
    checked = run_files([path], all_rules(), RunOptions(), jobs=1)[0]
    assert [f.code for f in checked.findings] == ["JX201"] and checked.findings[0].fix is not None
    assert built == []  # `check` reports the fix without building it
    fixed = run_files([path], all_rules(), RunOptions(fix=True, write=False), jobs=1)[0]
    assert "y = jnp.where(jnp.sum(x) > 0, x * 2, y)" in fixed.fixed and built == [1]


def test_a_crashing_deferred_replacement_is_isolated(tmp_path, monkeypatch):
    from jaxfix import rule as rulelib

    def init(self, build):
        def crash():
            raise ValueError("boom")

        self.build = crash

    monkeypatch.setattr(rulelib.Deferred, "__init__", init)
    path = write(tmp_path, "a.py", TRACED_IF)
    result = run_files([path], all_rules(), MIGRATE, jobs=1)[0]
    assert result.status is Status.ERROR and "JX201" in result.error and "crashed" in result.error and "boom" in result.error
    assert open(path, "rb").read() == TRACED_IF


def test_batch_goes_on_after_a_bad_file(tmp_path):
    bad = write(tmp_path, "a_bad.py", b"import numpy as np\ndef (:\n")
    good = write(tmp_path, "b_good.py", NEEDS_FIX)
    results = run_files([bad, good], all_rules(), MIGRATE, jobs=1)
    assert [r.status for r in results] == [Status.ERROR, Status.CHANGED]


def test_parallel_results_in_input_order(tmp_path):
    paths = [write(tmp_path, f"m{i:02d}.py", NEEDS_FIX if i % 3 else b"x = 1\n") for i in range(12)]
    options = RunOptions(fix=True)
    serial = run_files(paths, all_rules(), options, jobs=1)
    parallel = run_files(paths, all_rules(), options, jobs=2)
    assert [r.path for r in parallel] == paths
    assert [(r.status, r.fixed) for r in parallel] == [(r.status, r.fixed) for r in serial]


HELPER = b"import numpy as np\n\n\ndef scaled(src, k):\n    out = src.copy()\n    out[0] = out[0] * k\n    return out\n"
CALLER = (b"import numpy as np\nfrom .util import scaled\n\n\ndef run(x):\n    base = np.array(x)\n"
          b"    return np.sum(scaled(base, 2.0))\n")


def helper_package(tmp_path):
    """`run` hands a NumPy array to `scaled`, which writes into a copy of it with its kind of array: the array
    stays NumPy, unless the write becomes `.at[...].set`, as this very run makes it."""
    package = tmp_path / "pkg"
    package.mkdir()
    write(package, "__init__.py", b"")
    paths = [write(package, "main.py", CALLER), write(package, "util.py", HELPER)]
    return paths + [write(package, f"m{i}.py", NEEDS_FIX) for i in range(4)]  # (enough for a pool of two)


@pytest.mark.parametrize("jobs", [1, 2])
def test_one_run_reaches_what_a_second_run_would_give(tmp_path, jobs):
    # the caller is processed again with the helper as the run rewrites it: the second run changes nothing
    paths = helper_package(tmp_path)
    first = run_files(paths, all_rules(), MIGRATE, jobs=jobs)
    assert [r.status for r in first[:2]] == [Status.CHANGED, Status.CHANGED]
    assert "base = jnp.array(x)" in open(paths[0]).read() and "out.at[0].set" in open(paths[1]).read()
    assert first[0].fixes_applied == 2
    second = run_files(paths, all_rules(), MIGRATE, jobs=jobs)
    assert not any(r.status is Status.CHANGED for r in second)


def test_diff_shows_what_migrate_writes_with_a_rewritten_helper(tmp_path):
    paths = helper_package(tmp_path)
    cache = str(tmp_path / "cache")
    shown = [run_files(paths, all_rules(), RunOptions(fix=True), jobs=1, cache_dir=cache) for _ in range(2)]
    assert shown[0][0].fixed == shown[1][0].fixed and "jnp.array(x)" in shown[1][0].fixed
    assert open(paths[0], "rb").read() == CALLER  # (a diff writes nothing)
    written = run_files(paths, all_rules(), MIGRATE, jobs=1, cache_dir=cache)
    assert open(paths[0]).read() == shown[0][0].fixed and written[0].written


def test_a_caller_counting_on_a_helper_that_cannot_be_written_is_written_as_round_one_made_it(tmp_path):
    # the helper is read-only: its rewrite fails, so the caller must not count on it (its array stays NumPy)
    paths = helper_package(tmp_path)
    os.chmod(paths[1], stat.S_IRUSR | stat.S_IRGRP)
    try:
        results = run_files(paths, all_rules(), MIGRATE, jobs=1)
        assert results[1].status is Status.ERROR and open(paths[1], "rb").read() == HELPER
        assert "np.array(x)" in open(paths[0]).read() and "jnp.array(x)" not in open(paths[0]).read()
    finally:
        os.chmod(paths[1], stat.S_IRUSR | stat.S_IWUSR)


def test_files_that_need_nothing_are_skipped_before_parsing(tmp_path):
    path = write(tmp_path, "plain.py", b"def f(x):\n    return x + 1\n")
    assert run(path).status is Status.SKIPPED


def test_suppression_comments(tmp_path):
    data = (
        b"import numpy as np\n\ndef f(x):\n"
        b"    a = np.sum(x)  # jaxfix: ignore[JX501]\n"
        b"    # jaxfix: ignore\n"
        b"    b = np.mean(x)\n"
        b"    c = np.max(x)  # jaxfix: ignore[JX1]\n"
        b"    return a, b, c\n"
    )
    path = write(tmp_path, "s.py", data)
    result = run(path, RunOptions())
    assert [f.line for f in result.findings] == [7]


def test_text_edits_are_minimal_hunks():
    edits = text_edits("a\nb\nc\n", "a\nB\nc\nd\n")
    assert [(e.line, e.column, e.end_line, e.end_column, e.content) for e in edits] == [(2, 1, 2, 2, "B"), (4, 1, 4, 1, "d\n")]


def test_remaining_findings_point_into_the_migrated_text():
    """The import clean-up removes lines after the last analysis pass; remaining findings follow them."""
    from jaxfix.engine import process_source

    # JX510 (a shape from a parameter, no jit decorator to fix) stays reported, without blocking the function
    code = "import numpy as np\nimport jax.numpy as jnp\n\n\ndef f(x, n):\n    y = np.zeros(n)\n    return jnp.sum(x) + y\n"
    outcome = process_source("f.py", code, all_rules(), RunOptions(fix=True))
    lines = outcome.fixed.splitlines()
    assert "import numpy" not in outcome.fixed and "jnp.zeros(n)" in outcome.fixed
    assert len(lines) == code.count("\n") - 1  # the import line went: the finding moved up with its line
    assert outcome.findings and all("zeros(n)" in lines[f.line - 1] for f in outcome.findings)


def test_deep_nesting_converges_in_one_run():
    """An `elif` chain whose later conditions call an unknown function becomes nested `lax.cond`s, one level a
    pass: twelve levels are all rewritten by one run, so a second run changes nothing."""
    from jaxfix.engine import process_source

    lines = ["def f(x, y, g):"]
    for k in range(12):
        lines += [f"    {'if' if k == 0 else 'elif'} g(x) > {k}:", f"        t = y + {k}", "        y = t * 2"]
    source = "\n".join([*lines, "    return y", ""])
    options = RunOptions(fix=True)
    first = process_source("deep.py", source, all_rules(), options)
    assert first.fix_counts.get("JX201") == 12
    again = process_source("deep.py", first.fixed, all_rules(), options)
    assert again.fixes_applied == 0 and again.fixed == first.fixed


@pytest.mark.parametrize(
    "header, migrated",
    [
        ('"""Helpers for numpy arrays."""\n', False),  # mentions numpy, imports nothing: plain Python, left alone
        ("import numpy as np\n", True),
        ("def g():\n    import numpy as np\n    return np.ones(2)\n", False),  # lazy import: only `g` is array code
        # an import line in a string (the script that made a table, chemicals' `temperature.py`): plain Python
        ('TABLE = [1.0, 2.0]\n"""Made with:\nimport numpy as np\nfrom scipy.interpolate import splrep\n"""\n', False),
    ],
)
def test_array_rules_need_a_numpy_import(tmp_path, header, migrated):
    path = tmp_path / "m.py"
    path.write_text(header + "\n\ndef f(n, d):\n    if n % 2 == 0 or d % 2 == 0:\n        return 1\n    return 2\n")
    result = process_file(str(path), all_rules(), RunOptions(fix=True, write=False))
    assert (result.status is Status.CHANGED and "jnp.where" in result.fixed) == migrated, result


def test_project_facts_do_not_open_a_plain_module_to_the_array_rules(tmp_path):
    # the module names `noisy`, which the project facts say takes a key now (facts from other packages of the run
    # name common words): only the key rule may run there, not the array rules
    path = tmp_path / "m.py"
    path.write_text('"""Graphs, not numpy arrays."""\n\n\ndef f(n, d):\n    if n % 2 == 0 or d % 2 == 0:\n        return noisy(n)\n    return 2\n')
    project = {"JX401": {"needs_key": ["lib.noisy"]}}
    result = process_file(str(path), all_rules(), RunOptions(fix=True, write=False), project)
    assert "jnp" not in (result.fixed or "") and not any(f.code.startswith("JX2") for f in result.findings)


def test_a_suppressed_finding_holds_back_the_fix_it_shares(tmp_path):
    """Findings fixed together (one set of changes) are not fixed when one of them is suppressed: the fix would
    change the suppressed line anyway."""
    data = (b"import numpy as np\n\ndef draw():\n    return np.random.rand()\n\n"
            b"def use():\n    return draw()  # jaxfix: ignore\n")
    path = write(tmp_path, "k.py", data)
    result = run(path)
    assert open(path, "rb").read() == data and result.findings
    assert all(f.fix is None and f.message.endswith("suppressed at line 7") for f in result.findings)


def test_a_suppressed_finding_of_another_rule_leaves_a_shared_statement_fixable(tmp_path):
    """JX104's suppressed fix and JX401's key threading both replace `x += ...`: the suppression is JX104's alone."""
    data = (b"import numpy as np\n\n\ndef perturb(x):  # jaxfix: ignore[JX104]\n    x += np.random.normal(size=3)\n\n\n"
            b"def draw(n):\n    return np.random.uniform(size=n)\n")
    path = write(tmp_path, "k.py", data)
    run(path)
    assert "def draw(key, n):" in open(path).read()


def test_suppression_comments_follow_the_lines_fixes_move(tmp_path):
    """A fix that adds an import line moves the suppressed line down: the next pass reads the comments again (before,
    pass 2 looked the finding up at its old line and `--unsafe-fixes` rewrote the suppressed write)."""
    data = (b"import numpy as np\n\n\ndef fill(y):\n    y[0] = np.random.normal()  # jaxfix: ignore[JX101]\n    return y\n\n\n"
            b"def other(n):\n    return np.random.uniform(size=n)\n")
    path = write(tmp_path, "k.py", data)
    run(path, RunOptions(fix=True, write=True, unsafe_fixes=True))
    text = open(path).read()
    assert "y[0] = jax.random.normal(key)  # jaxfix: ignore[JX101]" in text and ".at[" not in text


def test_an_expression_too_deep_to_analyse_is_reported_as_such_and_file_untouched(tmp_path):
    # a rule's recursive walk of a 3000-term sum raises RecursionError: the file is reported, not a rule "crash"
    terms = " + ".join(["w"] * 3000)
    path = tmp_path / "deep.py"
    text = f"import numpy as np\n\ndef f(w):\n    return np.sum({terms})\n"
    path.write_text(text)
    result = run(str(path))
    assert result.status is Status.ERROR and "too deeply nested" in result.error and "crashed" not in result.error
    assert path.read_text() == text
