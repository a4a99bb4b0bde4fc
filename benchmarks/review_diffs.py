"""The structural changes of a real-code migration, for people to review: diffs of a migrated copy against the
installed sources, without the hunks that only rename `np.` to `jnp.` or touch imports (and without test folders).

    python benchmarks/real_code.py --keep /tmp/out scipy.stats scipy.linalg   # migrate copies, keep them
    python benchmarks/review_diffs.py /tmp/out /tmp/review                    # one filtered diff per package

What is left changes structure or semantics (`.at` updates, `jnp.where`, `lax.cond`, loops, host conversions):
the part a reviewer must check against the brief's first principle, hunk by hunk, with a snippet that runs the
original with NumPy and the rewrite with JAX. It prints the diff lines per package; nothing is asserted.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import os
import re

IMPORT = re.compile(r"[-+]\s*(import|from) ")


def renamed_only(hunk: list[str]) -> bool:
    """Whether the hunk's removed and added lines are the same once `jnp.` reads `np.` (imports left out)."""
    def side(mark: str) -> list[str]:
        return sorted(re.sub(r"\bjnp\.", "np.", line[1:]) for line in hunk if line.startswith(mark) and not IMPORT.match(line))

    return side("-") == side("+")


def package_diff(package: str, migrated_root: str) -> str:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{package}: not an installed package")
    source_root = list(spec.submodule_search_locations)[0]
    chunks = []
    for folder, _, files in sorted(os.walk(os.path.join(migrated_root, package))):
        if "/tests" in folder.replace(os.sep, "/"):
            continue
        for name in sorted(f for f in files if f.endswith(".py")):
            new = os.path.join(folder, name)
            relative = os.path.relpath(new, os.path.join(migrated_root, package))
            with open(os.path.join(source_root, relative), encoding="utf-8", errors="replace") as handle:
                before = handle.read().splitlines()
            with open(new, encoding="utf-8", errors="replace") as handle:
                after = handle.read().splitlines()
            if before == after:
                continue
            diff = list(difflib.unified_diff(before, after, f"{package}/{relative}", f"{package}/{relative} (migrated)",
                                             n=3, lineterm=""))
            hunks: list[list[str]] = []
            for line in diff[2:]:
                if line.startswith("@@"):
                    hunks.append([line])
                elif hunks:
                    hunks[-1].append(line)
            kept = [h for h in hunks if not renamed_only(h)]
            if kept:
                chunks.append("\n".join(diff[:2] + [line for h in kept for line in h]))
    return "\n".join(chunks) + "\n" if chunks else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("migrated", help="the --keep folder of benchmarks/real_code.py")
    parser.add_argument("out", help="folder for one <package>.diff per package")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    total = 0
    for package in sorted(os.listdir(args.migrated)):
        text = package_diff(package, args.migrated)
        with open(os.path.join(args.out, f"{package}.diff"), "w", encoding="utf-8") as handle:
            handle.write(text)
        lines = text.count("\n")
        total += lines
        print(f"{package}: {lines} diff lines, {text.count(chr(10) + '--- ') + text.startswith('--- ')} files")
    print(f"total: {total} diff lines in {args.out}")


if __name__ == "__main__":
    main()
