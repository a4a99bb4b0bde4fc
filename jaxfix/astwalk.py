"""`ast.walk` for the analyses that read `ast` trees many times over (random keys, key names, advice).

`ast.walk` yields through a generator per node (`iter_child_nodes` over `iter_fields`) and visits every expression
context and operator singleton (`Load`, `Add`, `Lt`): a third of the nodes of typical code, none of which an analysis
looks for. `nodes(root)` lists the same nodes in the same order without those, at about a third of the cost."""

from __future__ import annotations

import ast
from operator import attrgetter
from typing import Callable

# fields holding only singletons with no children (expression contexts, operators): not walked
_SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})
# node types with a list field that may hold other things than nodes (None in `Dict.keys` and
# `arguments.kw_defaults`, identifiers in `Global.names`, `MatchClass.kwd_attrs`)
_MIXED_LISTS = frozenset({ast.Dict, ast.arguments, ast.Global, ast.Nonlocal, ast.MatchClass})
# node type -> (reads its child fields as a tuple, whether its lists are mixed); None: no child fields
_READERS: dict[type, tuple[Callable[[ast.AST], tuple], bool] | None] = {}


def _reader(kind: type) -> tuple[Callable[[ast.AST], tuple], bool] | None:
    names = tuple(f for f in kind._fields if f not in _SINGLETON_FIELDS)
    if not names:
        entry = None
    elif len(names) == 1:
        one = attrgetter(names[0])
        entry = (lambda node: (one(node),)), kind in _MIXED_LISTS
    else:
        entry = attrgetter(*names), kind in _MIXED_LISTS
    _READERS[kind] = entry
    return entry


def nodes(root: ast.AST) -> list[ast.AST]:
    """The nodes of `root`'s subtree in `ast.walk`'s order (breadth first, `root` first), without expression
    contexts and operators."""
    out = [root]
    append, extend = out.append, out.extend
    readers = _READERS
    node_type = ast.AST
    for node in out:  # (the list grows while it is read: breadth first)
        kind = node.__class__
        entry = readers[kind] if kind in readers else _reader(kind)
        if entry is None:
            continue
        read, mixed = entry
        for value in read(node):
            if value.__class__ is list:
                if mixed:
                    extend([item for item in value if isinstance(item, node_type)])
                else:
                    extend(value)
            elif isinstance(value, node_type):
                append(value)
    return out
