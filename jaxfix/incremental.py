"""Which top-level statements a pass of fixes left alone, so the next pass need not run the rules over them again.

After a pass applies fixes, the engine parses the new text and runs the rules again (a fix can enable another, and
the final findings must describe the final text). Most fixes touch a few functions; a function whose text did not
change, and that does not depend on anything that changed, gets the same findings as in the pass before. The next
pass then runs the rules only over the statements that changed (the analyses still see the whole module) and keeps
the earlier findings of the others, moved to their new lines.

What counts as depending on a change is deliberately coarse (`clean_statements`):

- only whole `def` and `class` statements are kept; if any other top-level statement changed (module-level code,
  an `if __name__ == "__main__":` block), nothing is kept;
- a function is not kept when its text names anything a changed import binds (a fix that adds `import jax` affects
  the functions that say `jax`), or the name of a changed function or class, or when a changed function names it
  (caller and callee: keys threaded through calls, static arguments decided by call sites), or names a method of a
  changed class (`s.reset(lo)`: what the method stores decides what the caller may hand it), or, for a class, when
  changed code names one of its methods, properties or `self` attributes (what other code writes through them
  decides what the class may store), or, for a class or a function, an attribute it stores on any object (`m.x =
  x.copy()`, with `m.x.fill(0)` elsewhere); this is closed under repetition, so a chain of calls is re-run as a whole.

`tests/test_incremental.py` runs every example and fixture with and without it and requires the same output and
findings.
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jaxfix import precheck, walk
from jaxfix import source as sourcelib
from jaxfix.imports import bound_by_import
from jaxfix.switch import Switch



@dataclass
class Statements:
    """The top-level statements of one pass's text: each one's code (with the comments and blank lines above it),
    first and last line."""

    nodes: list[cst.BaseStatement]
    codes: list[str]
    starts: list[int]
    ends: list[int]

    def index_at(self, line: int) -> Optional[int]:
        for index, (start, end) in enumerate(zip(self.starts, self.ends)):
            if start <= line <= end:
                return index
        return None


def statements_of(module: cst.Module, text: str) -> Statements:
    codes = [module.code_for_node(stmt) for stmt in module.body]
    starts, ends = [], []
    position, line = 0, 1
    for code in codes:
        found = text.find(code, position)
        if found < 0:  # pragma: no cover - the codes are the text's own, in order
            raise ValueError("statement code not found in the module text")
        line += text.count("\n", position, found)
        starts.append(line)
        line += code.count("\n")
        ends.append(line if not code.endswith("\n") else line - 1)
        position = found + len(code)
    return Statements(list(module.body), codes, starts, ends)




def statements_from_tree(module: cst.Module, tree: Optional[ast.Module], text: str) -> Statements:
    """`statements_of` without generating code: the top-level statements' lines come from the `ast` tree the
    engine parsed for its pre-checks. Each statement's text runs from the line after the previous statement's last
    line to its own last line (comments and blank lines above it included; the module's trailing comments left
    out). Falls back to `statements_of` when the two trees do not line up."""
    if tree is None:
        return statements_of(module, text)
    groups: list[list[int]] = []  # [first line, last line, index of the first ast statement]
    for index, node in enumerate(tree.body):
        first = precheck.first_line(node)
        last = node.end_lineno or node.lineno
        if groups and first <= groups[-1][1]:  # `a = 1; b = 2` is one LibCST statement
            groups[-1][1] = max(last, groups[-1][1])
        else:
            groups.append([first, last, index])
    if len(groups) != len(module.body) or any(
        _definition(stmt) != getattr(tree.body[group[2]], "name", None)
        for stmt, group in zip(module.body, groups)
        if _definition(stmt) is not None
    ):
        return statements_of(module, text)
    lines = sourcelib.lines(text)
    starts = [1, *(group[1] + 1 for group in groups[:-1])]
    ends = [group[1] for group in groups]
    codes = ["".join(lines[start - 1 : end]) for start, end in zip(starts, ends)]
    return Statements(list(module.body), codes, starts, ends)


def _definition(stmt: cst.CSTNode) -> Optional[str]:
    return stmt.name.value if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) else None


def _members(stmt: cst.CSTNode) -> set[str]:
    """A class's methods and properties, and the attributes its methods set on `self`: code that uses them elsewhere
    (`args.lvl[0] = l0` through a property, `obj.w[i] = v`) decides what the class may store, so a change there makes
    the class dirty too. For a class or a function, also the attributes it stores on any object (`m.x = x.copy()`):
    what other code does with `.x` (`m.x.fill(0)`, which an unsafe fix may rewrite) decides what it may store."""
    if not isinstance(stmt, (cst.ClassDef, cst.FunctionDef)):
        return set()
    names: set[str] = set()
    for node in walk.nodes(stmt.body):
        if isinstance(node, cst.FunctionDef):
            names.add(node.name.value)
        elif isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self" \
                and isinstance(stmt, cst.ClassDef):
            names.add(node.attr.value)
        elif isinstance(node, (cst.AssignTarget, cst.AugAssign)) and isinstance(node.target, cst.Attribute):
            names.add(node.target.attr.value)
    return names


def clean_statements(old: Statements, new: Statements) -> dict[int, int]:
    """new index -> old index, for the `def`/`class` statements of `new` whose findings are those of the same
    statement in `old` (see the module documentation). Empty when everything must be analysed again."""
    matcher = difflib.SequenceMatcher(a=old.codes, b=new.codes, autojunk=False)
    matched: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            matched[block.b + k] = block.a + k
    changed_names: set[str] = set()
    unmatched_old = set(range(len(old.codes))) - set(matched.values())
    unmatched = [(old.nodes[i], old.codes[i]) for i in sorted(unmatched_old)]
    unmatched += [(new.nodes[j], new.codes[j]) for j in range(len(new.codes)) if j not in matched]
    dirty_codes: list[str] = []
    for node, code in unmatched:
        name = _definition(node)
        if name is not None:
            changed_names.add(name)
            dirty_codes.append(code)
            if isinstance(node, cst.ClassDef):  # `s.reset(lo)` elsewhere runs a method of it: what the method
                # stores decides what the caller may hand it (an attribute written into in another method)
                changed_names |= {m.name.value for m in node.body.body if isinstance(m, cst.FunctionDef)}  # type: ignore[attr-defined]
            continue
        imported = bound_by_import(node)
        if imported is None:
            return {}  # module-level code changed: analyse everything again
        changed_names |= imported
    candidates = {j: i for j, i in matched.items() if _definition(new.nodes[j]) is not None}
    identifiers = {j: sourcelib.identifiers(new.codes[j]) for j in candidates}
    members = {j: _members(new.nodes[j]) for j in candidates}
    mentioned = set().union(*(sourcelib.identifiers(code) for code in dirty_codes)) if dirty_codes else set()
    while True:
        dirty = [j for j in candidates if identifiers[j] & changed_names or _definition(new.nodes[j]) in mentioned
                 or members[j] & mentioned]
        if not dirty:
            return candidates
        for j in dirty:
            del candidates[j]
            changed_names.add(_definition(new.nodes[j]) or "")
            mentioned |= identifiers.pop(j)


_SWITCH = Switch()
# `with incremental.disabled():` runs every pass over the whole module (tests compare both ways)
disabled, enabled = _SWITCH.off, _SWITCH.on

