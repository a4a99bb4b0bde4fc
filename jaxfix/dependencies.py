"""The other files a file's result was computed from, so that the result cache does not outlive them.

Most facts about other modules of a run come from the project index, whose linked facts are part of the cache's key.
A few are read from disk while a file is processed, only when the file asks (`codemods._buffers.imported_writers`
reads the helper module a function is imported from, to learn which of its parameters it writes into). A rule that
reads another file calls `note(path)`; the runner records the files read for each file it processes
(`recording`) with a digest of their bytes (`digests`), and the cache reuses a result only while each of them still
has those bytes (`unchanged`): editing `util.py` so that `fill(buf)` no longer writes into `buf` changes the
verdict on `main.py`, which calls it, though `main.py` did not change.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from typing import Iterator

Depends = tuple[tuple[str, str], ...]  # ((absolute path, SHA-256 of its bytes or "" when unreadable), ...)

_READ: set[str] = set()


def note(path: str) -> None:
    """Record that the file being processed depends on the file at `path`."""
    _READ.add(os.path.abspath(path))


@contextlib.contextmanager
def recording() -> Iterator[set[str]]:
    """The files `note`d while the block runs (the set fills as it runs)."""
    _READ.clear()
    found: set[str] = set()
    try:
        yield found
    finally:
        found.update(_READ)
        _READ.clear()


def digests(paths: set[str]) -> Depends:
    """Each path with the digest of its current bytes, in a stable order."""
    return tuple((path, _digest(path)) for path in sorted(paths))


def unchanged(depends: Depends) -> bool:
    """Whether every file of `depends` still has the bytes it had."""
    return all(_digest(path) == digest for path, digest in depends)


def _digest(path: str) -> str:
    try:
        stat = os.stat(path)
    except OSError:
        return ""
    return _digest_of(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=256)
def _digest_of(path: str, mtime: int, size: int) -> str:
    """(by modification time and size: a helper many files import is hashed once per run)"""
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return ""
