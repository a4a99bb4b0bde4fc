"""jaxfix on real code: installed packages (NumPy, SciPy, networkx, ... whatever is importable) migrated twice.

    python benchmarks/real_code.py                          # numpy scipy networkx, safe fixes
    python benchmarks/real_code.py --unsafe-fixes scipy     # one package, unsafe fixes too
    python benchmarks/real_code.py --keep /tmp/out numpy    # keep the migrated copy to read

Each package's `.py` files are copied to a temporary folder, and the real CLI runs there twice, with reports:
`jaxfix migrate` (writes the copy), then `jaxfix migrate --diff` on its output. It prints what a user of a large
codebase would meet: files that could not be processed (a rule crash, output that does not compile: each a bug),
files the second run would change again (running jaxfix twice must change nothing), and throughput against the
cost of reading the same files (lines per second over all workers). Nothing is asserted; the figures go in notes.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def package_dir(name: str) -> str:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name}: not an installed package")
    return list(spec.submodule_search_locations)[0]


def copy_sources(names: list[str], into: str) -> tuple[int, int]:
    files = lines = 0
    for name in names:
        root = package_dir(name)
        for folder, _, found in os.walk(root):
            for file in found:
                if file.endswith(".py"):
                    target = os.path.join(into, name, os.path.relpath(folder, root), file)
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    shutil.copyfile(os.path.join(folder, file), target)
                    with open(target, "rb") as handle:
                        lines += handle.read().count(b"\n")
                    files += 1
    return files, lines


def run(folder: str, extra: list[str], report: str, jobs: int) -> tuple[dict, float]:
    # run from the folder's parent: from inside it, `python -m jaxfix` would import the copied `numpy` sources
    parent, name = os.path.split(os.path.abspath(folder))
    command = [sys.executable, "-m", "jaxfix", "migrate", name, "--no-cache", "--no-progress", "-q", "--jobs", str(jobs),
               "--report", report, *extra]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if not os.path.exists(report):
        raise SystemExit(f"jaxfix wrote no report (exit {done.returncode}): {done.stderr[-2000:]}")
    elapsed = time.perf_counter() - start
    with open(report, encoding="utf-8") as handle:
        return json.load(handle), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("packages", nargs="*", default=["numpy", "scipy", "networkx"])
    parser.add_argument("--unsafe-fixes", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", metavar="DIR", help="migrate into DIR (kept) instead of a temporary folder")
    args = parser.parse_args()
    folder = args.keep or tempfile.mkdtemp(prefix="jaxfix-real-")
    files, lines = copy_sources(args.packages, folder)
    start = time.perf_counter()
    for name in args.packages:  # the cost of reading the same files, for scale
        for root, _, found in os.walk(os.path.join(folder, name)):
            for file in found:
                with open(os.path.join(root, file), "rb") as handle:
                    handle.read()
    read = time.perf_counter() - start
    extra = ["--unsafe-fixes"] if args.unsafe_fixes else []
    reports = os.path.join(tempfile.mkdtemp(prefix="jaxfix-reports-"), "run")
    first, first_seconds = run(folder, extra, reports + "1.json", args.jobs)
    second, second_seconds = run(folder, [*extra, "--diff"], reports + "2.json", args.jobs)
    totals = first["totals"]
    print(f"{', '.join(args.packages)}: {files} files, {lines} lines ({'unsafe' if extra else 'safe'} fixes, {args.jobs} jobs)")
    print(f"  first run:  {first_seconds:.0f} s wall, {totals['file_seconds']:.0f} s in files, "
          f"{lines / max(totals['file_seconds'], 1e-9):.0f} lines/s per worker; reading alone took {read:.2f} s")
    print(f"  files: {totals['changed']} changed, {totals['unchanged']} unchanged, {totals['skipped']} skipped before "
          f"LibCST, {totals['error']} could not be processed; {totals['fixes_applied']} fixes")
    for error in first["errors"]:
        print(f"    error: {error['path']}: {error['reason'].splitlines()[0][:160]}")
    again = [f for f in second["files"] if f["status"] == "changed"]
    print(f"  second run: {second_seconds:.0f} s wall; {len(again)} files would change again")
    for entry in again:
        print(f"    again: {entry['path']}: {entry['fixes_by_rule']}")
    slowest = sorted(first["files"], key=lambda f: -f["seconds"])[:5]
    print("  slowest files: " + ", ".join(f"{f['path']} {f['seconds']:.1f} s" for f in slowest))
    if args.keep:
        print(f"  the migrated copy is in {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
