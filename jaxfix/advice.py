"""What a run's rewritten code as a whole asks of the person running it, beyond the findings at lines.

A migrated function whose loops or branches became `lax.fori_loop` / `lax.scan` / `lax.while_loop` / `lax.cond` /
`lax.switch` is right under `jax.jit`, which traces its body functions once. Called outside `jit` (a test suite, a
caller that was never migrated), each call makes new body-function objects, and `lax` traces and compiles them
again: measured with jax 0.10 on this project's machine, 40 ms and about 1.7 MB never freed per call, against 0.3 ms
for the same `lax.cond` given module-level functions (a package's test suite, run eagerly, ran out of memory). The
fix is the caller's (wrap the entry point in `jax.jit`), so the run reports which functions need it, once, after
the findings; `new_control_flow` finds them by comparing the original and rewritten text.
"""

from __future__ import annotations

import ast
import re
from typing import Iterator, Optional, Union

from jaxfix import astwalk

# the `lax` functions that take body or branch functions and compile them when called outside `jit`
CONTROL_FLOW = frozenset({"cond", "switch", "fori_loop", "while_loop", "scan", "map"})

# a module that enables 64-bit types itself (JX601 then stays quiet, and so does the run's float32 note)
X64_ENABLED = re.compile(r"""update\(\s*['"]jax_enable_x64['"]\s*,\s*True""")

_Function = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def new_control_flow(
    original: str, fixed: str, original_tree: Optional[ast.Module] = None, fixed_tree: Optional[ast.Module] = None
) -> tuple[tuple[str, int], ...]:
    """The outermost functions of `fixed` (qualified name, line) that call `lax` control flow more often than the
    function of the same name in `original` did (`original_tree`, `fixed_tree`: their `ast` trees, when the caller
    has them): the ones the rewrite made compile on every call outside `jit`."""
    if "lax." not in fixed:
        return ()
    after = _counts(fixed_tree if fixed_tree is not None else _parsed(fixed))
    if not after:
        return ()
    before = _counts(original_tree if original_tree is not None else _parsed(original)) or {}
    return tuple((name, line) for name, (count, line) in after.items() if count > before.get(name, (0, 0))[0])


def _parsed(text: str) -> Optional[ast.Module]:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def _counts(tree: Optional[ast.Module]) -> Optional[dict[str, tuple[int, int]]]:
    """Per outermost function (qualified name): its calls of `lax` control flow and its line."""
    if tree is None:
        return None
    counts: dict[str, tuple[int, int]] = {}
    for name, function in _outermost_functions(tree.body, ""):
        calls = sum(_is_control_flow(node) for node in astwalk.nodes(function))
        if calls:
            counts[name] = (calls, function.lineno)
    return counts


def _outermost_functions(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, _Function]]:
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + statement.name, statement
        elif isinstance(statement, ast.ClassDef):
            yield from _outermost_functions(statement.body, f"{prefix}{statement.name}.")
        elif isinstance(statement, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            # functions defined under `if TYPE_CHECKING:` / `try:` at module level
            for block in _blocks(statement):
                yield from _outermost_functions(block, prefix)


def _blocks(statement: ast.stmt) -> Iterator[list[ast.stmt]]:
    for field in ("body", "orelse", "finalbody"):
        block = getattr(statement, field, None)
        if block:
            yield block
    for handler in getattr(statement, "handlers", ()):
        yield handler.body


def _is_control_flow(node: ast.AST) -> bool:
    """`lax.cond(...)`, `jax.lax.fori_loop(...)`."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    owner = node.func.value
    return node.func.attr in CONTROL_FLOW and (
        (isinstance(owner, ast.Name) and owner.id == "lax") or (isinstance(owner, ast.Attribute) and owner.attr == "lax")
    )
