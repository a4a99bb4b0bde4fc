"""Reading and writing source files without losing a byte: PEP 263 encodings, BOM, newline style, atomic writes."""

from __future__ import annotations

import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass


class SourceError(Exception):
    """A file that cannot be processed; the message says why, for a person."""


@dataclass(frozen=True)
class DecodedSource:
    text: str
    encoding: str  # as understood by codecs; "utf-8-sig" when the file starts with a BOM


def decode(data: bytes) -> DecodedSource:
    if b"\x00" in data:
        raise SourceError("not a text file (contains NUL bytes)")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:  # a bad or unknown coding cookie
        raise SourceError(f"cannot determine the encoding: {error}") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        where = data[: error.start].count(b"\n") + 1
        hint = "" if encoding.startswith("utf-8") else f" (declared {encoding})"
        raise SourceError(
            f"not valid {encoding}{hint}: byte 0x{data[error.start]:02x} on line {where}; "
            "re-encode the file or declare its encoding with a PEP 263 coding comment"
        ) from None
    return DecodedSource(text=text, encoding=encoding)


def encode(text: str, encoding: str) -> bytes:
    return text.encode(encoding)


def atomic_write(path: str, data: bytes) -> None:
    """Write through a temporary file in the same folder and `os.replace`, keeping the file's permission bits.

    Refuses read-only files (the owner's write bit unset), even when running as root.
    """
    real = os.path.realpath(path)
    st = os.stat(real)
    if not st.st_mode & stat.S_IWUSR:
        raise SourceError("file is read-only; not written")
    folder = os.path.dirname(real) or "."
    fd, tmp = tempfile.mkstemp(prefix=".jaxfix-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_IDENTIFIER = re.compile(r"[^\W\d]\w*")


def lines(text: str) -> list[str]:
    """`text` split into lines, line breaks kept, as `ast`, LibCST and LSP count them (`str.splitlines` also breaks
    at form feeds, `\x1c`, ...)."""
    return _LINE.findall(text)


def identifiers(text: str) -> set[str]:
    """Every word of `text` that could be a Python identifier (non-ASCII ones too; in code, strings and comments)."""
    return set(_IDENTIFIER.findall(text))
