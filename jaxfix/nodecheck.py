"""`isinstance` on LibCST nodes at the speed of a plain class check.

Every LibCST node class is an `abc.ABC`, so `isinstance(node, cst.Name)` that is not an exact type match goes through
`ABCMeta.__instancecheck__`, a Python-level function (about 20 times the cost of the check itself). The analyses
ask such questions millions of times per run: measured on the throughput benchmark's rewrite corpus, the ABC
machinery was about 15% of `jaxfix migrate`'s time.

`install()` gives the node classes a metaclass that derives from `ABCMeta` (abstract methods, `register` and
everything else unchanged) but answers `isinstance`/`issubclass` with `type`'s own C implementation. The two give the
same answers as long as no node class has a virtual subclass (`register`) or a `__subclasshook__`: `install` checks
that for every class and changes nothing otherwise (LibCST registers none); a later `register` on a node class
puts `ABCMeta` back first. Classes defined later that derive from a
node class (a rule's own node type) get the same metaclass through Python's metaclass rules.

`jaxfix.walk` installs it on import; `uninstall()` restores LibCST's classes (tests compare both).
"""

from __future__ import annotations

import abc

from libcst import CSTNode


class _NodeMeta(abc.ABCMeta):
    __instancecheck__ = type.__instancecheck__
    __subclasscheck__ = type.__subclasscheck__

    def register(cls, subclass):  # type: ignore[no-untyped-def, override]
        uninstall()  # a virtual subclass: ABCMeta's answers differ from type's from now on
        return abc.ABCMeta.register(cls, subclass)


def _node_classes() -> list[type]:
    found: list[type] = []
    seen: set[type] = set()
    stack: list[type] = [CSTNode]
    while stack:
        kind = stack.pop()
        if kind in seen:
            continue
        seen.add(kind)
        found.append(kind)
        stack.extend(kind.__subclasses__())
    return found


def _plain(kind: type) -> bool:
    """Whether `ABCMeta`'s answers for `kind` are its real subclasses only: no hook, no registered subclass."""
    if any("__subclasshook__" in vars(base) for base in kind.__mro__ if base is not object and base is not abc.ABC):
        return False
    registry = abc._get_dump(kind)[0]  # type: ignore[attr-defined]  # (registry, cache, negative cache, version)
    return not registry


def install() -> bool:
    """Switch the LibCST node classes to the fast check; False (nothing changed) when any class is not plain."""
    classes = _node_classes()
    if not all(_plain(kind) for kind in classes if type(kind) is abc.ABCMeta):
        return False
    for kind in classes:
        if type(kind) is abc.ABCMeta:
            kind.__class__ = _NodeMeta  # type: ignore[assignment]
    return True


def uninstall() -> None:
    """Give the node classes back `ABCMeta`."""
    for kind in _node_classes():
        if type(kind) is _NodeMeta:
            kind.__class__ = abc.ABCMeta  # type: ignore[assignment]


def installed() -> bool:
    return type(CSTNode) is _NodeMeta
