"""The result cache: re-runs over unchanged files are served from `.jaxfix_cache/`, and anything a result depends
on (bytes, options, rules, project facts) changes the key."""

import os

import pytest

from codemods.numpy_namespace import NumpyNamespace
from jaxfix.cache import ResultCache, _canonical, cache_key, run_fingerprint
from jaxfix.runner import run_files
from jaxfix.types import FileResult, RunOptions, Status

NEEDS_FIX = "import numpy as np\n\ndef f(x):\n    return np.sum(x)\n"
RULES = (NumpyNamespace,)


@pytest.fixture
def files(tmp_path):
    paths = []
    for i in range(4):
        path = tmp_path / f"m{i}.py"
        path.write_text(NEEDS_FIX if i % 2 else "import numpy as np\nX = np.ones(2)\ndef g(y):\n    return y\n")
        paths.append(str(path))
    return paths


def run(paths, cache_dir, options=RunOptions(), jobs=1):
    return run_files(paths, RULES, options, jobs=jobs, cache_dir=str(cache_dir))


def test_second_run_is_served_from_the_cache(files, tmp_path):
    cache = tmp_path / "cache"
    first = run(files, cache)
    second = run(files, cache)
    assert first == second  # same values (timings and the cached flag do not take part in equality)
    parsed = [r for r in first if r.status is not Status.SKIPPED]
    assert parsed and not any(r.cached for r in first)
    assert all(r.cached for r in second if r.status is not Status.SKIPPED)
    assert (cache / "CACHEDIR.TAG").is_file() and (cache / ".gitignore").read_text().strip().endswith("*")


def test_an_edited_file_is_processed_again(files, tmp_path):
    cache = tmp_path / "cache"
    run(files, cache)
    with open(files[0], "a") as handle:
        handle.write("\ndef h(x):\n    return np.mean(x)\n")
    again = run(files, cache)
    assert not again[0].cached and again[0].findings
    assert again[1].cached


WRITER = "import numpy as np\n\n\ndef fill(buf, v):\n    buf[0] = v\n    return buf\n"
CALLER = ("import numpy as np\nfrom .util import fill\n\n\ndef run(n):\n    a = np.zeros(n)\n    fill(a, 2.0)\n"
          "    return np.sum(a)\n")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_result_read_from_another_file_is_processed_again_when_that_file_changes(tmp_path, jobs):
    # `main.run` hands its array to `util.fill`, which writes into it: the array stays NumPy. Read from util.py's
    # bytes on disk, not from the project facts: once `fill` no longer writes, main.py's cached result is stale.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "util.py").write_text(WRITER)
    (package / "main.py").write_text(CALLER)
    # (padding so that two jobs really use the pool)
    paths = [str(package / "main.py"), *(str(package / f"m{i}.py") for i in range(4))]
    for path in paths[1:]:
        open(path, "w").write(NEEDS_FIX)
    cache = tmp_path / "cache"
    first = run(paths, cache, RunOptions(fix=True), jobs)
    assert first[0].status is Status.UNCHANGED and first[0].depends
    assert run(paths, cache, RunOptions(fix=True), jobs)[0].cached  # nothing changed: reused
    (package / "util.py").write_text(WRITER.replace("    buf[0] = v\n    return buf\n", "    return buf + v\n"))
    again = run(paths, cache, RunOptions(fix=True), jobs)
    assert not again[0].cached and again[0].status is Status.CHANGED and "jnp.zeros(n)" in again[0].fixed
    assert all(r.cached for r in again[1:])


def test_options_are_part_of_the_key(files, tmp_path):
    cache = tmp_path / "cache"
    run(files, cache)
    other = run(files, cache, RunOptions(fix=True))
    assert not any(r.cached for r in other)
    assert other[1].status is Status.CHANGED


def test_a_changed_result_is_not_reused_when_writing(files, tmp_path):
    cache = tmp_path / "cache"
    run(files, cache, RunOptions(fix=True))  # like --diff: nothing written
    written = run(files, cache, RunOptions(fix=True, write=True))
    assert written[1].written and not written[1].cached
    assert "jnp.sum" in open(files[1]).read()


def test_errors_are_not_cached(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy as np\ndef f(:\n")
    cache = tmp_path / "cache"
    assert run([str(bad)], cache)[0].status is Status.ERROR
    assert not run([str(bad)], cache)[0].cached


def test_parallel_runs_fill_and_use_the_cache(tmp_path):
    paths = []
    for i in range(8):
        path = tmp_path / f"p{i}.py"
        path.write_text(NEEDS_FIX)
        paths.append(str(path))
    cache = tmp_path / "cache"
    first = run(paths, cache, jobs=2)
    second = run(paths, cache, jobs=2)
    assert [r.path for r in second] == paths and first == second and all(r.cached for r in second)


def test_key_covers_bytes_path_and_module():
    fp = "f" * 64
    base = cache_key(fp, "a.py", "a", b"x")
    assert len({base, cache_key(fp, "b.py", "a", b"x"), cache_key(fp, "a.py", "b", b"x"), cache_key(fp, "a.py", "a", b"y")}) == 4
    assert cache_key("0" * 64, "a.py", "a", b"x") != base


def test_fingerprint_covers_rules_options_and_facts():
    base = run_fingerprint(RULES, RunOptions(), {})
    assert base == run_fingerprint(RULES, RunOptions(write=True), {})  # writing does not change a result
    assert base != run_fingerprint(RULES, RunOptions(unsafe_fixes=True), {})
    assert base != run_fingerprint(RULES, RunOptions(settings=(("unroll-max", 4),)), {})
    assert base != run_fingerprint((), RunOptions(), {})
    assert base != run_fingerprint(RULES, RunOptions(), {"JX401": {"m.f": True}})


def test_facts_are_canonical_whatever_the_set_order():
    assert _canonical({"b": {"y", "x"}, "a": [1, 2]}) == _canonical({"a": [1, 2], "b": {"x", "y"}})


def test_unreadable_cache_entries_are_misses(tmp_path):
    cache = ResultCache(str(tmp_path), "f" * 64)
    key = "ab" * 32
    os.makedirs(os.path.dirname(cache._entry(key)))
    open(cache._entry(key), "wb").write(b"not a pickle")
    assert cache.get(key, RunOptions()) is None
    cache.put(key, FileResult(path="x.py", status=Status.UNCHANGED))
    assert cache.get(key, RunOptions()).cached


LOW = "import numpy as np\nfrom ._ext import combine\n\n\ndef rebuild(coeffs):\n    return combine(coeffs[0], coeffs[1])\n"
MID = "from .low import rebuild\n\n\ndef waverec(coeffs):\n    return rebuild(coeffs)\n"
TOP = ("import numpy as np\n\nfrom .mid import waverec\n\n\ndef split(x):\n    low = np.zeros_like(x)\n"
       "    return waverec([low, x - low])\n")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_result_read_through_a_chain_of_modules_is_processed_again_when_the_last_changes(tmp_path, jobs):
    # `top.split` hands its array to `mid.waverec`, which hands it to `low.rebuild`, which hands its items to a
    # compiled module: the array stays NumPy while low.py does so; both callers (one found once, reused) depend on it
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text(LOW)
    (package / "mid.py").write_text(MID)
    paths = [str(package / "top.py"), str(package / "top2.py"), *(str(package / f"m{i}.py") for i in range(4))]
    for path in paths[:2]:
        open(path, "w").write(TOP)
    for path in paths[2:]:
        open(path, "w").write(NEEDS_FIX)
    cache = tmp_path / "cache"
    first = run(paths, cache, RunOptions(fix=True), jobs)
    for result in first[:2]:
        assert result.status is Status.UNCHANGED
        assert {p for p, _, _ in result.depends} >= {str(package / "low.py"), str(package / "mid.py")}
    assert all(r.cached for r in run(paths, cache, RunOptions(fix=True), jobs)[:2])  # nothing changed: reused
    (package / "low.py").write_text(LOW.replace("combine(coeffs[0], coeffs[1])", "coeffs[0] + coeffs[1]"))
    again = run(paths, cache, RunOptions(fix=True), jobs)
    for result in again[:2]:
        assert not result.cached and result.status is Status.CHANGED and "jnp.zeros_like(x)" in result.fixed
    assert all(r.cached for r in again[2:])
