"""Code generation shared by the loop rewrites (JX22x): body functions with tuple carries, and small integer
arithmetic on source text (trip counts of `range(start, stop, step)` without `n - 1 + 1` noise).

Rule-independent: it builds text and LibCST nodes, and knows nothing about when a rewrite is safe.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Sequence

import libcst as cst

from jaxfix import walk

ATOMIC = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float)


def unique(base: str, taken: Iterable[str]) -> str:
    """`base`, or `base_2`, `base_3`, ... if the name is taken."""
    taken = set(taken)
    if base not in taken:
        return base
    n = 2
    while f"{base}_{n}" in taken:
        n += 1
    return f"{base}_{n}"


def pack(names: Sequence[str]) -> str:
    """The carry as an expression: `a` or `(a, b)`."""
    return names[0] if len(names) == 1 else f"({', '.join(names)})"


def targets(names: Sequence[str]) -> str:
    """The carry as assignment targets / return value: `a` or `a, b`."""
    return ", ".join(names)


def unpack_line(names: Sequence[str], carry: str, used: Optional[Iterable[str]] = None) -> str:
    """`a, b = carry` (names not in `used` become `_`)."""
    used = set(names) if used is None else set(used)
    return f"{', '.join(n if n in used else '_' for n in names)} = {carry}\n"


def function_def(
    header: str,
    body: Sequence[cst.BaseStatement],
    *,
    prologue: str = "",
    epilogue: str = "",
    config: cst.PartialParserConfig,
    comment: Optional[cst.TrailingWhitespace] = None,
) -> cst.FunctionDef:
    """`def <header>:` with `prologue` lines, the original `body` statements (comments kept), `epilogue` lines;
    `comment` (`header_comment` of the loop it replaces) goes at the end of the `def` line."""
    before = list(cst.parse_module(prologue, config=config).body) if prologue else []
    after = list(cst.parse_module(epilogue, config=config).body) if epilogue else []
    template = cst.parse_module(f"def {header}:\n    pass\n", config=config).body[0]
    assert isinstance(template, cst.FunctionDef)
    block = template.body
    assert isinstance(block, cst.IndentedBlock)
    if comment is not None:
        block = block.with_changes(header=comment.deep_clone())
    lines: list = []
    for stmt in body:  # a one-line loop body (`for i in r: s += x[i]`) holds small statements: one line of them
        if isinstance(stmt, cst.BaseSmallStatement):
            if lines and isinstance(lines[-1], list):
                lines[-1].append(stmt)
            else:
                lines.append([stmt])
        else:
            lines.append(stmt)
    body = [cst.SimpleStatementLine(body=[*s[:-1], s[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)])
            if isinstance(s, list) else s for s in lines]
    return template.with_changes(body=block.with_changes(body=[*before, *body, *after]))


def header_comment(statement: cst.CSTNode) -> Optional[cst.TrailingWhitespace]:
    """The end of a compound statement's first line when it holds a comment (`for x in xs:  # one per row`)."""
    body = getattr(statement, "body", None)
    trailing = body.header if isinstance(body, cst.IndentedBlock) else getattr(body, "trailing_whitespace", None)
    if not isinstance(trailing, cst.TrailingWhitespace) or trailing.comment is None:
        return None
    # (a one-line body's comment follows its last `;`, which keeps the space before it)
    return trailing if trailing.whitespace.value else trailing.with_changes(whitespace=cst.SimpleWhitespace("  "))


# ---- integer arithmetic on source text -------------------------------------------------------------------------
def source(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def linear(node: cst.BaseExpression) -> tuple[str, int]:
    """(base, constant) with `node == base + constant`: `n - 1` -> ("n", -1), `3` -> ("", 3), `-1` -> ("", -1)."""
    value = int_literal(node)
    if value is not None:
        return "", value
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)):
        c = int_literal(node.right)
        if c is not None:
            return source(node.left), c if isinstance(node.operator, cst.Add) else -c
    return source(node), 0


def int_literal(node: cst.BaseExpression) -> Optional[int]:
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and isinstance(node.expression, cst.Integer):
        return -int(node.expression.evaluated_value)
    return None


def fmt(base: str, const: int) -> str:
    if not base:
        return str(const)
    if const == 0:
        return base
    return f"{base} + {const}" if const > 0 else f"{base} - {-const}"


def paren(text: str) -> str:
    """Parenthesise `text` unless it is a single atom."""
    try:
        node = cst.parse_expression(text)
    except cst.ParserSyntaxError:
        return f"({text})"
    if isinstance(node, ATOMIC) or int_literal(node) is not None and not text.startswith("-"):
        return text
    return f"({text})"


def minus(a: tuple[str, int], b: tuple[str, int]) -> tuple[str, int]:
    """a - b for (base, constant) pairs."""
    (ba, ca), (bb, cb) = a, b
    if not bb:
        return ba, ca - cb
    if ba == bb:
        return "", ca - cb
    left = ba if ba else "0"
    if not ba:
        return f"-{paren(bb)}", ca - cb
    return f"{left} - {paren(bb)}", ca - cb


def fresh(rule: object, function: object, base: str, taken: Iterable[str]) -> str:
    """A name like `unique`, also avoiding names this rule instance already chose in `function` during this pass
    (two loops rewritten in one pass must not both define `body`)."""
    claimed = rule.__dict__.setdefault("_loopgen_claimed", {}).setdefault(id(function), set())
    name = unique(base, set(taken) | claimed)
    claimed.add(name)
    return name


def spaced(original: cst.BaseStatement, function: cst.FunctionDef) -> cst.BaseStatement:
    """`original` with a blank line above it (and its comments) unless it has one or opens its block: the code
    that replaces it starts with a nested `def`, which reads best (and passes pycodestyle E306) after a blank line."""
    lines = list(original.leading_lines)
    if lines and lines[0].comment is None or _opens_block(function, original):
        return original
    return original.with_changes(leading_lines=[cst.EmptyLine(indent=False), *lines])


def blank_line_before(statement: cst.BaseStatement) -> cst.BaseStatement:
    """`statement` with one blank line above it (for a second generated nested `def`)."""
    return statement.with_changes(leading_lines=[cst.EmptyLine(indent=False), *statement.leading_lines])


def _opens_block(function: cst.FunctionDef, statement: cst.BaseStatement) -> bool:
    found = []

    class Visitor(cst.CSTVisitor):
        def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
            if node.body and node.body[0] is statement:
                found.append(node)

    walk.visit(function, Visitor())
    return bool(found)


def jax_inputs(rule: object, function: object, names: Sequence[str], taken: Iterable[str], jnp: str) -> tuple[dict[str, str], str]:
    """A new name for each of `names` (`X_jax`) and the lines binding them, before a `lax` body that reads them
    under those names: `X_jax = jnp.asarray(X)` (see `jaxfix.analysis.loops.argument_inputs`)."""
    renamed = {name: fresh(rule, function, f"{name.split('.')[-1]}_jax", taken) for name in names}
    return renamed, "".join(f"{new} = {jnp}.asarray({old})\n" for old, new in renamed.items())


def rename_loads(statements: Sequence[cst.CSTNode], names: dict[str, str]) -> list:
    """`statements` (or expressions) with each name of `names` read under its new name (not an attribute's name, a keyword, or a
    name a nested function or lambda takes as a parameter); a key with a dot (`"self.D"`) renames that attribute."""
    return [s.visit(_Rename(names)) for s in statements] if names else list(statements)


class _Rename(cst.CSTTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        super().__init__()
        self.names = names
        self.skip: set[int] = set()
        self.shadowed = 0

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.skip.add(id(node.attr))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.skip.add(id(node.keyword))

    def _binds(self, params: cst.Parameters) -> bool:
        return any(p.name.value in self.names for p in walk.nodes_of(params, cst.Param))  # type: ignore[attr-defined]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.shadowed += self._binds(node.params)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self.shadowed -= self._binds(original_node.params)
        return updated_node

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.shadowed += self._binds(node.params)

    def leave_Lambda(self, original_node: cst.Lambda, updated_node: cst.Lambda) -> cst.Lambda:
        self.shadowed -= self._binds(original_node.params)
        return updated_node

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.shadowed or not isinstance(original_node.value, cst.Name):
            return updated_node
        new = self.names.get(f"{original_node.value.value}.{original_node.attr.value}")
        return updated_node if new is None else cst.Name(new, lpar=updated_node.lpar, rpar=updated_node.rpar)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        if self.shadowed or id(original_node) in self.skip or updated_node.value not in self.names:
            return updated_node
        return updated_node.with_changes(value=self.names[updated_node.value])


def substitute(expr: cst.BaseExpression, names: frozenset[str], replacement: cst.BaseExpression) -> str:
    """The text of `expr` with each of `names` replaced by `replacement` (parenthesised); integer arithmetic that
    results is folded (`0 + 1` -> `1`)."""
    text = source(expr.visit(_Substitute(names, replacement)))
    return str(eval(text, {"__builtins__": {}})) if re.fullmatch(r"[0-9+\-* ()]+", text) else text


class _Substitute(cst.CSTTransformer):
    """Replace the loop index by the loop's start (parenthesised)."""

    def __init__(self, names: frozenset[str], start: cst.BaseExpression) -> None:
        super().__init__()
        self.names, self.start = names, start

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        if updated_node.value in self.names:
            return cst.parse_expression(paren(source(self.start)))
        return updated_node
