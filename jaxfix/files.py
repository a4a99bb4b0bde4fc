"""Which files a run covers: `*.py` under the given paths, minus virtualenvs, build folders, VCS folders, what
`.gitignore` files say (respect-gitignore) and `exclude` patterns. Paths named explicitly are always included
unless an exclude pattern matches them."""

from __future__ import annotations

import os
from typing import Iterator, Sequence

import pathspec

SKIP_DIRS = {
    ".git", ".hg", ".svn", ".jj", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".nox",
    ".venv", "venv", ".eggs", "build", "dist", "site-packages", "node_modules", ".ipynb_checkpoints",
    ".jaxfix_cache",
}


def _is_virtualenv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def _gitignore(folder: str) -> pathspec.GitIgnoreSpec | None:
    candidate = os.path.join(folder, ".gitignore")
    if not os.path.isfile(candidate):
        return None
    try:
        with open(candidate, encoding="utf-8", errors="replace") as handle:
            return pathspec.GitIgnoreSpec.from_lines(handle)
    except OSError:
        return None


def discover(
    paths: Sequence[str], exclude: Sequence[str] = (), root: str = ".", respect_gitignore: bool = True
) -> Iterator[str]:
    """Yield files in a stable (sorted, depth-first) order, each once."""
    excluded = pathspec.GitIgnoreSpec.from_lines(exclude) if exclude else None
    root = os.path.abspath(root)
    seen: set[str] = set()

    def is_excluded(path: str, is_dir: bool) -> bool:
        if excluded is None:
            return False
        rel = os.path.relpath(os.path.abspath(path), root)
        if rel.startswith(".."):
            rel = os.path.abspath(path)
        rel = rel.replace(os.sep, "/") + ("/" if is_dir else "")
        return excluded.match_file(rel)

    def walk(folder: str, ignores: list[tuple[str, pathspec.GitIgnoreSpec]]) -> Iterator[str]:
        spec = _gitignore(folder) if respect_gitignore else None
        if spec is not None:
            ignores = [*ignores, (folder, spec)]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            is_dir = entry.is_dir(follow_symlinks=False)
            if any(s.match_file(os.path.relpath(entry.path, base) + ("/" if is_dir else "")) for base, s in ignores):
                continue
            if is_excluded(entry.path, is_dir):
                continue
            if is_dir:
                if entry.name in SKIP_DIRS or entry.name.endswith(".egg-info") or _is_virtualenv(entry.path):
                    continue
                yield from walk(entry.path, ignores)
            elif entry.name.endswith(".py") and entry.is_file():
                yield entry.path

    for path in paths:
        if os.path.isdir(path):
            found = walk(path, [])
        else:
            found = iter([] if is_excluded(path, False) else [path])
        for file in found:
            key = os.path.abspath(file)
            if key not in seen:
                seen.add(key)
                yield file
