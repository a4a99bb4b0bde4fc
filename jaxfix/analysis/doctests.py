"""The examples of docstrings (doctest's `>>> v = f([2, 0, 0])` lines, with their `... ` continuations), which
doctest runs in the module's namespace:

- `examples(doc)`: each example of a docstring, parsed (`ast`); one that does not parse is left out;
- `docstrings(module)`: the module's docstrings that hold examples (its own, its classes' and its functions');
- `names_read(module)`: the names the examples of the module's docstrings (its own, its classes' and functions')
  read: a NumPy import they read (`>>> np.allclose(v, [0, 0, 6])`) stays, though the code no longer does.
"""

from __future__ import annotations

import ast
import functools
import re

import libcst as cst

from jaxfix import walk

# a doctest line: an example (`>>> v = f([2, 0, 0])`) or its continuation (`... `)
_DOCTEST = re.compile(r"^[ \t]*(>>>|\.\.\.)(?:[ \t](.*))?$", re.MULTILINE)


@functools.lru_cache(maxsize=512)
def examples(doc: str) -> tuple[ast.Module, ...]:
    """Each example of the docstring `doc`, parsed; one that does not parse is left out (cached: read, never
    changed)."""
    if ">>>" not in doc:
        return ()
    sources: list[str] = []
    for match in _DOCTEST.finditer(doc):
        if match.group(1) == ">>>":
            sources.append(match.group(2) or "")
        elif sources:
            sources[-1] += "\n" + (match.group(2) or "")
    trees = []
    for source in sources:
        try:
            trees.append(ast.parse(source))
        except (SyntaxError, ValueError):
            continue
    return tuple(trees)


def docstrings(module: cst.Module) -> list[str]:
    """The module's docstrings (its own, its classes' and its functions') that hold examples."""
    owners: list = [module, *walk.nodes_of(module, cst.ClassDef), *walk.nodes_of(module, cst.FunctionDef)]
    return [doc for doc in (owner.get_docstring(clean=True) for owner in owners) if doc and ">>>" in doc]


def names_read(module: cst.Module) -> set[str]:
    """The names the examples of the module's docstrings (the module's, its classes' and its functions') read."""
    return {node.id for doc in docstrings(module) for tree in examples(doc) for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
