"""Second-level pre-checks: cheap questions about a file's `ast` tree that let the engine skip LibCST entirely.

The first level is a rule's `TRIGGERS` (bytes that must occur in the file). Many files pass it without needing
anything: `import jax.numpy as jnp` contains b"numpy", and NumPy used only at module level (constants, data loading)
is left alone by the rules that rewrite inside functions. A rule may then define

    may_apply_to_tree = staticmethod(numpy_in_functions)

(any callable `(tree: ast.Module, text: str) -> bool`). When every rule whose triggers matched has such a check and
all of them answer False, the engine parses the file with `ast` only (about 1/15 of LibCST's parse + codegen) and
skips it. A check must be conservative: answering True when unsure costs time, answering False wrongly loses
findings.
"""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

_COMPOUND = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With,
    ast.AsyncWith, ast.Try, ast.Match,
) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())


def numpy_aliases(tree: ast.Module) -> set[str]:
    """Local names bound to NumPy by the module's top-level imports (as `jaxfix.imports.ModuleImports` reads them)."""
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.name == "numpy" or alias.name.startswith("numpy."):
                    names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(stmt, ast.ImportFrom) and stmt.level == 0 and stmt.module is not None:
            if stmt.module == "numpy" or stmt.module.startswith("numpy."):
                names.update(alias.asname or alias.name for alias in stmt.names if alias.name != "*")
    return names


def _function_spans(tree: ast.Module) -> list[tuple[int, int]]:
    """Line spans of the top-level compound statements: every function (with its decorators and defaults) lies in
    one of them. Simple statements at module level cannot hold a function body (a lambda is not a function here)."""
    spans = []
    for stmt in tree.body:
        if isinstance(stmt, _COMPOUND):
            start = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
            spans.append((start, stmt.end_lineno or stmt.lineno))
    return spans


def names_in_spans(text: str, names: Iterable[str], spans: list[tuple[int, int]]) -> bool:
    """Whether any of `names` occurs as a word on a line inside `spans` (in code, strings or comments alike)."""
    names = sorted(set(names))
    if not names or not spans:
        return False
    pattern = re.compile(r"\b(?:%s)\b" % "|".join(map(re.escape, names)))
    line, position = 1, 0
    for match in pattern.finditer(text):
        line += text.count("\n", position, match.start())
        position = match.start()
        if any(start <= line <= end for start, end in spans):
            return True
    return False


def numpy_in_functions(tree: ast.Module, text: str) -> bool:
    """False when no NumPy name imported at module level occurs inside a top-level compound statement, so a rule that
    only looks at NumPy names inside functions has nothing to report."""
    aliases = numpy_aliases(tree)
    return bool(aliases) and names_in_spans(text, aliases, _function_spans(tree))


def parse(text: str, path: str = "<unknown>") -> Optional[ast.Module]:
    """The `ast` tree, or None when `ast` rejects the text (the engine then lets LibCST report the error)."""
    try:
        return ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
