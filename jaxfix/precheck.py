"""Second-level pre-checks: cheap questions about a file's `ast` tree that let the engine skip LibCST entirely.

The first level is a rule's `TRIGGERS` (bytes that must occur in the file). Many files pass it without needing
anything: `import jax.numpy as jnp` contains b"numpy", and NumPy used only at module level (constants, data loading)
is left alone by the rules that rewrite inside functions. A rule may then define

    may_apply_to_tree = staticmethod(numpy_in_functions)

(any callable `(tree: ast.Module, text: str) -> bool`). The first-party rules also have checks in
`codemods._prechecks` (lookups in one shared summary of the tree, computed once per file); a rule is ruled out when
its own check or its mapped one says False. When every rule whose triggers matched is ruled out, the engine parses
the file with `ast` only (about 1/12 of LibCST's parse + codegen) and skips it; otherwise LibCST runs only the rules
that may apply, and after each pass of fixes the checks are asked again on the new text (`may_apply`). A check must
be conservative: answering True when unsure costs time, answering False wrongly loses findings.
`disabled()` turns the second level off (the soundness tests compare both ways).
"""

from __future__ import annotations

import ast
import re
from typing import Any, Callable, Iterable, Optional

from jaxfix.switch import Switch

_COMPOUND = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With,
    ast.AsyncWith, ast.Try, ast.Match,
) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())


_ARRAY_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+(?:numpy|jax|scipy)\b|import[ \t]+[^\n#]*\b(?:numpy|jax|scipy)\b)", re.M)


def imports_array_module(text: str) -> bool:
    """Whether a line of `text` imports NumPy, JAX or SciPy (at any depth: `import numpy as np` inside a function
    counts). The rules migrate array code; a module without such an import is plain Python (its docstrings may
    still mention numpy). Errs towards True: an import line inside a string counts too."""
    return _ARRAY_IMPORT.search(text.encode("utf-8", "surrogatepass")) is not None


_ARRAY_MODULES = ("numpy", "jax", "scipy")


def imports_array_module_in(tree: ast.Module) -> bool:
    """`imports_array_module` read off the tree: an `import` statement at any depth, not a line inside a string
    (chemicals' `temperature.py` keeps the script that generated its tables in a string). Top-level imports first:
    most array modules have one there, and then no other statement is visited."""
    def array_import(stmt: ast.AST) -> bool:
        if isinstance(stmt, ast.Import):
            return any(alias.name.split(".")[0] in _ARRAY_MODULES for alias in stmt.names)
        return isinstance(stmt, ast.ImportFrom) and stmt.level == 0 and (stmt.module or "").split(".")[0] in _ARRAY_MODULES

    if any(array_import(stmt) for stmt in tree.body):
        return True
    return any(array_import(node) for node in ast.walk(tree))


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


def first_line(stmt: ast.stmt) -> int:
    """The first line of a statement, its decorators included."""
    return min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])


def _function_spans(tree: ast.Module) -> list[tuple[int, int]]:
    """Line spans of the top-level compound statements: every function (with its decorators and defaults) lies in
    one of them. Simple statements at module level cannot hold a function body (a lambda is not a function here)."""
    spans = []
    for stmt in tree.body:
        if isinstance(stmt, _COMPOUND):
            start = first_line(stmt)
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


_SWITCH = Switch()
# `with precheck.disabled():` runs without second-level pre-checks (every triggered rule goes through LibCST on every
# pass); tests compare both ways
disabled, enabled = _SWITCH.off, _SWITCH.on


class TreeFacts:
    """One file's `ast` tree and text, with the shared summary of `codemods._prechecks` computed on first use."""

    def __init__(self, tree: ast.Module, text: str) -> None:
        self.tree = tree
        self.text = text
        self._summary: Any = None

    @property
    def summary(self) -> Any:
        if self._summary is None:
            self._summary = _mapped_checks()[0](self.tree, self.text)
        return self._summary


def _mapped_checks() -> tuple[Callable[[ast.Module, str], Any], dict[str, Callable[[Any], bool]], dict[Any, Any]]:
    global _MAPPED
    if _MAPPED is None:
        try:
            from codemods import _prechecks
        except ImportError:  # pragma: no cover - the framework without the first-party rules
            _MAPPED = (lambda tree, text: None, {}, {})
        else:
            _MAPPED = (_prechecks.summarize, _prechecks.CHECKS, _prechecks.FAST)
    return _MAPPED


_MAPPED: Optional[tuple[Callable[[ast.Module, str], Any], dict[str, Callable[[Any], bool]], dict[Any, Any]]] = None


def may_apply(rule: Any, facts: TreeFacts) -> bool:
    """False only when a conservative check says `rule` reports nothing on this tree: the rule's own
    `may_apply_to_tree` (or its summary-based stand-in), or, for a first-party rule, its check in
    `codemods._prechecks.CHECKS`."""
    if not enabled():
        return True
    _, checks, fast = _mapped_checks()
    mapped = checks.get(rule.CODE) if rule.__module__.startswith("codemods.") else None
    if mapped is not None and not mapped(facts.summary):
        return False
    own = getattr(rule, "may_apply_to_tree", None)
    if own is None:
        return True
    stand_in = fast.get(own)
    return bool(stand_in(facts.summary) if stand_in is not None else own(facts.tree, facts.text))
