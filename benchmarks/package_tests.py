"""A package's own test suite, run against its migrated copy: what `jaxfix migrate` broke, found by the package's
authors' tests instead of by reading diffs.

    python benchmarks/real_code.py --keep /tmp/out quantecon hmmlearn      # migrate copies, keep them
    python benchmarks/package_tests.py /tmp/out /tmp/tests quantecon hmmlearn

For each package, the installed package is copied whole (compiled extensions included), the migrated `.py` files
are laid over the copy (test folders excepted: the tests are the oracle and stay as their authors wrote them), and
`pytest --pyargs <package>` runs twice: on the installed package, then on the copy. A test that passes on the
original and fails on the copy is a regression jaxfix caused; each is printed with the first line of its failure,
and the full failure text goes to `<out>/<package>.txt` for a reviewer.

JAX runs with 64-bit types (`JAX_ENABLE_X64=1`) by default, so a failure is a difference in behaviour other than
float32 precision (which the review rounds count separately); `--x32` runs with JAX's default types instead. The
migrated code runs eagerly here, as a caller outside `jax.jit` would run it, so a regression is either a wrong value
(silent) or an error where NumPy worked (loud). Nothing is asserted; the figures go in notes.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree


def package_dir(name: str) -> str:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name}: not an installed package")
    return list(spec.submodule_search_locations)[0]


def is_test_path(relative: str) -> bool:
    parts = relative.replace(os.sep, "/").split("/")
    return any(part in ("tests", "test", "testing") for part in parts[:-1]) or parts[-1].startswith(("test_", "conftest"))


def build_copy(package: str, migrated_root: str, into: str) -> int:
    """The installed package copied to `into/<package>` with the migrated non-test `.py` files laid over it;
    returns how many files differ from the installed ones."""
    source = package_dir(package)
    target = os.path.join(into, package)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    # the shared libraries wheels vendor next to their packages (scipy.libs, scikit_learn.libs), which compiled
    # extensions find relative to themselves ($ORIGIN/../scipy.libs): linked beside the copy
    site = os.path.dirname(source.rstrip(os.sep))
    for name in os.listdir(site):
        if name.endswith(".libs") and not os.path.exists(os.path.join(into, name)):
            os.symlink(os.path.join(site, name), os.path.join(into, name))
    changed = 0
    for folder, _, files in os.walk(os.path.join(migrated_root, package)):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, os.path.join(migrated_root, package))
            if is_test_path(relative):
                continue
            with open(path, "rb") as handle:
                new = handle.read()
            with open(os.path.join(target, relative), "rb") as handle:
                old = handle.read()
            if new != old:
                with open(os.path.join(target, relative), "wb") as handle:
                    handle.write(new)
                changed += 1
    return changed


def run_tests(package: str, pythonpath: str, report: str, x64: bool, timeout: int, extra: list[str]) -> str:
    environment = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONDONTWRITEBYTECODE="1")
    if x64:
        environment["JAX_ENABLE_X64"] = "1"
    if pythonpath:
        environment["PYTHONPATH"] = pythonpath
    # (a test module that fails to import is reported as not collected, and the others still run; the tests run in
    # one xdist worker, replaced when a test kills it, so a crash fails that test instead of ending the run)
    command = [sys.executable, "-m", "pytest", "--pyargs", package, "-q", "-p", "no:cacheprovider", "--continue-on-collection-errors",
               "-n", "1", "--max-worker-restart", "1000",
               f"--junitxml={report}", "-o", "junit_family=xunit1", *extra]
    cwd = tempfile.mkdtemp(prefix="jaxfix-pkgtests-cwd-")  # not the repo: its conftest and pyproject stay out
    try:
        done = subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return "timeout"
    output = done.stdout + done.stderr
    fatal = output.find("Fatal Python error")
    if fatal >= 0:  # the process died (a compiled extension given a JAX array): where, not the module list
        frames = [line.strip() for line in output[fatal:].splitlines() if line.strip().startswith("File ")]
        return output[fatal:].splitlines()[0] + "\n  in " + next((f for f in frames if "/tests/" in f), frames[0] if frames else "?")
    return output[-3000:]


def outcomes(report: str) -> dict[str, tuple[str, str, str]]:
    """test id -> (outcome, first line of the failure, full failure text)"""
    if not os.path.exists(report):
        return {}
    found: dict[str, tuple[str, str, str]] = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        test = f"{case.get('classname', '')}::{case.get('name', '')}"
        outcome, message, text = "passed", "", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, message, text = child.tag, (child.get("message") or "").splitlines()[0:1], child.text or ""
                message = message[0] if message else ""
            elif child.tag == "skipped":
                outcome = "skipped"
        found[test] = (outcome, message, text)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("migrated", help="the --keep folder of benchmarks/real_code.py")
    parser.add_argument("out", help="folder for one <package>.txt of failure texts per package")
    parser.add_argument("packages", nargs="+", help="packages, or subpackages (scipy.signal) to run the tests of")
    parser.add_argument("--x32", action="store_true", help="JAX's default 32-bit types instead of JAX_ENABLE_X64")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per test run (default 1800)")
    parser.add_argument("--pytest-args", default="", help="extra pytest arguments, e.g. '-k not slow'")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    extra = args.pytest_args.split()
    for package in args.packages:
        work = tempfile.mkdtemp(prefix=f"jaxfix-pkgtests-{package}-")
        # `scipy.signal`: the whole of scipy is copied and migrated, the tests of scipy.signal run
        changed = build_copy(package.split(".")[0], args.migrated, os.path.join(work, "site"))
        before_report, after_report = os.path.join(work, "before.xml"), os.path.join(work, "after.xml")
        before_tail = run_tests(package, "", before_report, not args.x32, args.timeout, extra)
        after_tail = run_tests(package, os.path.join(work, "site"), after_report, not args.x32, args.timeout, extra)
        before, after = outcomes(before_report), outcomes(after_report)
        if not before or not after:
            print(f"{package}: no test results ({'original' if not before else 'migrated copy'}):")
            print((before_tail if not before else after_tail)[-1500:])
            continue
        regressions = sorted(t for t, (o, _, _) in after.items() if o in ("failure", "error")
                             and before.get(t, ("missing",))[0] == "passed")
        count = {o: sum(1 for v in before.values() if v[0] == o) for o in ("passed", "failure", "error", "skipped")}
        count_after = {o: sum(1 for v in after.values() if v[0] == o) for o in ("passed", "failure", "error", "skipped")}
        # tests that passed on the original and did not run on the copy: a test module that no longer imports
        missing = [t for t, (o, _, _) in before.items() if o == "passed" and t not in after]
        print(f"{package}: {changed} files migrated; original {count}; migrated {count_after}; "
              f"{len(regressions)} regressions" + (f"; {len(missing)} passing tests did not run on the copy" if missing else ""))
        for test, (outcome, message, _) in sorted(after.items()):
            if outcome == "error" and test not in before:  # a collection error: the copy fails to import
                print(f"  not collected: {test}: {message[:200]}")
        with open(os.path.join(args.out, f"{package}.txt"), "w", encoding="utf-8") as handle:
            for test in regressions:
                _, message, text = after[test]
                print(f"  {test}: {message[:150]}")
                handle.write(f"=== {test}\n{text}\n\n")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
