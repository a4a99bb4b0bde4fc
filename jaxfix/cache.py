"""The result cache: re-running over unchanged files costs a read and a hash.

An entry is one file's `FileResult`, stored under a key that covers everything the result depends on:

- the file's bytes (SHA-256), its path and module name (findings carry the path; rules may read the module name);
- the jaxfix version and a fingerprint of the code that produced it (the `jaxfix` package and every selected rule's
  module, by content), so editing a rule or the engine invalidates the cache without a version bump;
- the selected rules, in order, and the run options (fix, unsafe fixes, edits, position, settings from config);
- the linked project facts (`summarize`/`link`), when any selected rule uses them: a change in another module that
  changes those facts invalidates every entry;
- and, checked when an entry is read, the bytes of the other files its result was computed from (read from disk
  while processing it: `jaxfix.dependencies`), whichever run they belong to.

Entries live in `.jaxfix_cache/` next to the `pyproject.toml` (or in the current folder), one small pickle per file
under a folder per jaxfix version; `jaxfix clean` is not needed: delete the folder. The folder carries a
`CACHEDIR.TAG` and a `.gitignore` of `*`, as ruff's does. Errors are never cached (a read-only file may be fixed
between runs), and a CHANGED result is not reused for a run that writes (the write must happen).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from dataclasses import replace
from functools import lru_cache
from typing import Any, Mapping, Optional, Sequence

from jaxfix import __version__, dependencies
from jaxfix.rule import Rule
from jaxfix.types import FileResult, RunOptions, Status

CACHE_DIR_NAME = ".jaxfix_cache"
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by jaxfix.\n"


def default_cache_dir(root: str) -> str:
    """`$JAXFIX_CACHE_DIR/results` when set (CI caches it), else `.jaxfix_cache/` in the project root."""
    explicit = os.environ.get("JAXFIX_CACHE_DIR")
    if explicit:
        return os.path.join(explicit, "results")
    return os.path.join(root, CACHE_DIR_NAME)


def _module_files(rules: Sequence[type[Rule]]) -> list[str]:
    import jaxfix

    files = set()
    package = os.path.dirname(os.path.abspath(jaxfix.__file__))
    for folder, dirs, names in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        files.update(os.path.join(folder, n) for n in names if n.endswith(".py"))
    for rule in rules:
        module = sys.modules.get(rule.__module__)
        path = getattr(module, "__file__", None)
        if path:
            files.add(os.path.abspath(path))
            # a rule's private helpers (`codemods/_inplace.py`) live next to it
            folder = os.path.dirname(path)
            files.update(os.path.join(folder, n) for n in os.listdir(folder) if n.startswith("_") and n.endswith(".py"))
    return sorted(files)


@lru_cache(maxsize=8)
def _code_fingerprint(rules: tuple[type[Rule], ...]) -> str:
    digest = hashlib.sha256(__version__.encode())
    for path in _module_files(rules):
        try:
            with open(path, "rb") as handle:
                digest.update(path.encode("utf-8", "surrogateescape") + b"\0" + handle.read())
        except OSError:
            continue
    return digest.hexdigest()


def run_fingerprint(rules: Sequence[type[Rule]], options: RunOptions, project: Mapping[str, Any]) -> str:
    """Everything a run's results depend on except the file itself."""
    digest = hashlib.sha256(_code_fingerprint(tuple(rules)).encode())
    digest.update(repr([r.CODE for r in rules]).encode())
    # `write` does not change a result (see `ResultCache.get`); everything else in the options may.
    digest.update(repr(replace(options, write=False)).encode())
    if project:
        digest.update(_canonical(project).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _canonical(value: Any) -> str:
    """A text form of project facts that is the same in every process: sets and dicts are sorted (their iteration
    order depends on string hash randomisation, so pickle bytes would differ between runs)."""
    if isinstance(value, dict):
        items = sorted((_canonical(k), _canonical(v)) for k, v in value.items())
        return "{" + ",".join(f"{k}:{v}" for k, v in items) + "}"
    if isinstance(value, (set, frozenset)):
        return "set(" + ",".join(sorted(_canonical(v) for v in value)) + ")"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    if isinstance(value, (str, int, float, bool, bytes, type(None))):
        return repr(value)
    if hasattr(value, "__dict__"):
        return type(value).__qualname__ + _canonical(vars(value))
    return repr(value)


def cache_key(fingerprint: str, path: str, module_name: str, data: bytes) -> str:
    """The key of one file's result: the run's fingerprint, the path as given and absolute, the module name, the bytes."""
    digest = hashlib.sha256(fingerprint.encode())
    for part in (os.path.abspath(path), path, module_name):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    digest.update(data)
    return digest.hexdigest()


class ResultCache:
    def __init__(self, folder: str, fingerprint: str) -> None:
        self.folder = os.path.join(folder, __version__)
        self.root = folder
        self.fingerprint = fingerprint
        self.hits = 0
        self.misses = 0

    def _entry(self, key: str) -> str:
        return os.path.join(self.folder, key[:2], key[2:])

    def get(self, key: str, options: RunOptions) -> Optional[FileResult]:
        try:
            with open(self._entry(key), "rb") as handle:
                result = pickle.load(handle)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
            self.misses += 1
            return None
        if not isinstance(result, FileResult) or (options.write and result.status is Status.CHANGED) \
                or not dependencies.unchanged(result.depends):
            self.misses += 1
            return None
        self.hits += 1
        return replace(result, cached=True, seconds=0.0)

    def put(self, key: str, result: FileResult) -> None:
        if result.status is Status.ERROR:
            return
        result = replace(result, written=False, cached=False)
        entry = self._entry(key)
        try:
            self._ensure_root()
            os.makedirs(os.path.dirname(entry), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(entry), prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(result, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, entry)
        except OSError:
            pass  # a read-only project: run without a cache

    def _ensure_root(self) -> None:
        if os.path.isdir(self.folder):
            return
        os.makedirs(self.folder, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", _TAG), (".gitignore", "# created by jaxfix\n*\n")):
            target = os.path.join(self.root, name)
            if not os.path.exists(target):
                with open(target, "w", encoding="utf-8") as handle:
                    handle.write(text)
