"""The other files a file's result was computed from: the result cache must not outlive them, and a run that
rewrites them must process the file again with what they become.

Most facts about other modules of a run come from the project index, whose linked facts are part of the cache's key.
A few are read from disk while a file is processed, only when the file asks (`codemods._buffers.imported_writers`
reads the helper module a function is imported from, to learn which of its parameters it writes into, and the
modules that one imports from in turn). A rule reads such a file with `read(path, reader)`, where `reader` is the
module-level function that turns the file's text into the facts it uses. The runner records, for each file it processes (`recording`), the files read, a digest of their
bytes and their readers (`Depends`):

- the cache reuses a result only while each of those files still has those bytes (`unchanged`): editing `util.py` so
  that `fill(buf)` no longer writes into `buf` changes the verdict on `main.py`, which calls it;
- when the run itself rewrites one of those files and the facts its reader gives change (`fill`'s write into `buf`
  became `.at[...].set`), the file is processed again with the rewritten text in place of the file's
  (`overlaid`), so that one run gives what a second run would: `jaxfix.runner`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import os
from typing import Any, Callable, Iterator, Mapping, Optional, Union

Text = Union[bytes, str]
# ((absolute path, SHA-256 of its bytes or "" when unreadable, reader as "module:function" or ""), ...)
Depends = tuple[tuple[str, str, str], ...]

_READ: set[tuple[str, str]] = set()
_OVERLAY: dict[str, str] = {}  # absolute path -> the text a run rewrote the file to (`overlaid`)


def read(path: str, reader: Optional[Callable[[Text], Any]] = None) -> Optional[Text]:
    """The contents of the file at `path` (the text the run rewrote it to, while `overlaid`), or None when it cannot
    be read; noted as a dependency of the file being processed, with the `reader` the caller turns it into facts
    with (a module-level function; None: the caller uses all of it)."""
    return read_as(path, f"{reader.__module__}:{reader.__qualname__}" if reader is not None else "")


def read_as(path: str, reader: str) -> Optional[Text]:
    """`read`, with the reader named as `Depends` names it ("module:function", or "")."""
    path = os.path.abspath(path)
    _READ.add((path, reader))
    if path in _OVERLAY:
        return _OVERLAY[path]
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _bytes_of(path, stat.st_mtime_ns, stat.st_size)


@contextlib.contextmanager
def recording() -> Iterator[set[tuple[str, str]]]:
    """The (path, reader) pairs `read` while the block runs (the set fills as the block ends)."""
    _READ.clear()
    found: set[tuple[str, str]] = set()
    try:
        yield found
    finally:
        found.update(_READ)
        _READ.clear()


@contextlib.contextmanager
def noting() -> Iterator[set[tuple[str, str]]]:
    """The (path, reader) pairs `read` while the block runs (the set fills as the block ends), still noted by the
    `recording` around it: what a fact found once and reused later was read from, to note again when it is reused
    (`read_as`), since the file asking then depends on those files too."""
    outer = set(_READ)
    _READ.clear()
    found: set[tuple[str, str]] = set()
    try:
        yield found
    finally:
        found.update(_READ)
        _READ.update(outer)


@contextlib.contextmanager
def overlaid(texts: Mapping[str, str]) -> Iterator[None]:
    """Within the block, `read` gives the text of `texts` (by absolute path) in place of the file's bytes."""
    saved = dict(_OVERLAY)
    _OVERLAY.update(texts)
    try:
        yield
    finally:
        _OVERLAY.clear()
        _OVERLAY.update(saved)


def digests(read: set[tuple[str, str]]) -> Depends:
    """Each (path, reader) with the digest of the path's current contents, in a stable order."""
    return tuple((path, digest(path), reader) for path, reader in sorted(read))


def unchanged(depends: Depends) -> bool:
    """Whether every file of `depends` still has the bytes it had."""
    return all(digest(path) == found for path, found, _ in depends)


def digest(path: str) -> str:
    """The digest of the file's contents (of its text while `overlaid`), "" when it cannot be read."""
    if path in _OVERLAY:
        return digest_of_text(_OVERLAY[path])
    try:
        stat = os.stat(path)
    except OSError:
        return ""
    data = _bytes_of(path, stat.st_mtime_ns, stat.st_size)
    return hashlib.sha256(data).hexdigest() if data is not None else ""


def facts(reader: str, contents: Optional[Text]) -> Any:
    """What `reader` ("module:function", as `Depends` names it) makes of `contents`; the contents themselves for ""."""
    if not reader or contents is None:
        return contents
    module, _, name = reader.partition(":")
    function: Any = importlib.import_module(module)
    for part in name.split("."):
        function = getattr(function, part)
    return function(contents)


def digest_of_text(text: str) -> str:
    """The digest of a text a run rewrote a file to (`overlaid`): never that of a file's bytes."""
    return _REWRITTEN + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def rewritten(found: str) -> bool:
    """Whether the digest `found` is of a text the run rewrote a file to, not of the file's bytes."""
    return found.startswith(_REWRITTEN)


_REWRITTEN = "text:"


@functools.lru_cache(maxsize=256)
def _bytes_of(path: str, mtime: int, size: int) -> Optional[bytes]:
    """(by modification time and size: a helper many files import is read once)"""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None
