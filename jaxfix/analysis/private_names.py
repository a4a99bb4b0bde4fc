"""Private functions other files of the run mention: a project fact read off the files' bytes.

A private helper (`_pad`) that every call in its own module feeds a Python number is taken for one that takes
Python numbers (`tracedness._Helpers.fed_static`): its `if` and `min` stay Python. That judgement sees only the
module's own calls. A sibling module that imports the helper (`from ._utils import _pad`) or reaches it through the
module (`_utils._pad(x)`) may pass an array, and the helper, left Python, would fail under `jit`. So the run records,
for each module, the private names it defines that another file of the run mentions anywhere (an import, a call, a
string: a pattern search, no parse), and the judgement leaves those helpers alone. A run over one file knows no other
file: its helpers are judged by their own module's calls."""

from __future__ import annotations

import re
from typing import Callable, Mapping

from jaxfix.analysis import settings

KEY = "private-names-elsewhere"

_DEFINED = re.compile(rb"def[ \t]+(_[A-Za-z0-9]\w*)")  # (a literal start, searched fast; a `def _x` in a string or
# comment only adds a name to look for)
_LOOSE = re.compile(rb"_[A-Za-z0-9]\w*")  # (also a part of a name, `zero_pad`: the candidates are then confirmed,
# which costs less than a pattern starting with a word boundary, tried at every position)


def link(contents: Mapping[str, bytes], module_name_for: Callable[[str], str]) -> dict[str, list[str]]:
    """{module: its private function names that another file of `contents` mentions} (dunder names are left out:
    they are never judged)."""
    if len(contents) < 2:
        return {}
    defined = {path: set(_DEFINED.findall(data)) for path, data in contents.items() if b"def" in data}
    wanted = set().union(*defined.values()) if defined else set()
    if not wanted:
        return {}
    files_with: dict[bytes, int] = {}
    own: dict[str, set[bytes]] = {}
    for path, data in contents.items():
        found = {n for n in set(_LOOSE.findall(data)) & wanted if _mentions(data, n)}
        own[path] = found
        for name in found:
            files_with[name] = files_with.get(name, 0) + 1
    out: dict[str, set[str]] = {}
    for path, names in defined.items():
        elsewhere = {n.decode("ascii") for n in names if files_with.get(n, 0) - (n in own[path]) > 0}
        if elsewhere:
            out.setdefault(module_name_for(path), set()).update(elsewhere)
    return {module: sorted(names) for module, names in sorted(out.items())}


def _mentions(data: bytes, name: bytes) -> bool:
    """Whether `name` occurs in `data` as a whole name (not the end of `zero_pad`)."""
    at = data.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not _word(data[at - 1])) and (end == len(data) or not _word(data[end])):
            return True
        at = data.find(name, at + 1)
    return False


def _word(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122 or byte >= 128


def mentioned_elsewhere() -> frozenset[str]:
    """The private names of the module being analysed that other files of the run mention (empty outside a run over
    several files)."""
    module, project = settings.current_project()
    return frozenset(project.get(KEY, {}).get(module, ())) if module else frozenset()
