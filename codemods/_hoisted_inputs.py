"""Where JX304 (non-array-input) converts a parameter once, at the top of its function, instead of at each use.

A parameter its docstring says is array-like (`a : array-like, shape (4,)`) may be a Python list, which NumPy reads as
an array wherever it meets one: as a NumPy function's argument, but also in an operator (`a[:3] / norm`, `-a1`), where
a JAX array (or `jax.numpy`) raises `TypeError`. Converting each use is not enough once an operator meets it (a
branch that `lax.cond` runs must give an array on both sides: `a1 = -a1` in one, `a1` in the other), and is not what
one writes: `a = jnp.asarray(a)` first in the body is. That is sound when every read of the caller's value treats it
as an array either way (`uses`), and unsafe when the function hands the caller's object back (`return a`): the caller
then gets an array where it got its own list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional

import libcst as cst

from codemods import _array_inputs, _list_inputs
from codemods._numpy_boundary import store_target
from jaxfix.analysis.masks import FunctionFacts
from jaxfix.analysis.parents import ParentProvider

if TYPE_CHECKING:
    from jaxfix.rule import Rule

# list methods: a list and an array answer them differently (or the array has none)
LIST_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "index", "count", "copy", "sort", "reverse",
                          "clear"})
# builtins that read a list and an array alike (their elements, or their length)
ELEMENT_BUILTINS = frozenset({"len", "float", "int", "complex", "abs"})


@dataclass
class Uses:
    """How a function reads a parameter's caller value: `operators` (the reads an operator meets, which only the
    conversion makes work), `returned` (reads handing the caller's object back), `other` (a read a list and an array
    answer differently, or that may need the list itself: no conversion)."""

    operators: list[cst.CSTNode] = field(default_factory=list)
    returned: list[cst.CSTNode] = field(default_factory=list)
    other: list[cst.CSTNode] = field(default_factory=list)


def uses(rule: Rule, function: cst.FunctionDef, name: str, facts: FunctionFacts,
         kept: Callable[[cst.Call], bool]) -> Optional[Uses]:
    """The reads of parameter `name` that may see the caller's value, sorted by what they do with it; None when one is
    in a nested function, class or lambda (which reads it later, whatever the function does). `kept`: whether a
    NumPy call stays NumPy (JX501 keeps it: a count, a shape), which takes the list as it is."""
    found = Uses()
    for node, nested in _names(function.body, name):
        if nested:
            return None
        if store_target(rule, node):
            parent = rule.get_metadata(ParentProvider, node, None)
            if isinstance(parent, cst.AugAssign):
                found.other.append(node)  # `a += [v]` extends the caller's list
            continue  # a rebinding (`a1 = -a1`), not a read
        if not _list_inputs.unbound_before(rule, name, node, some=True):
            continue  # (`a1 = -a1`, then `return a1`: may still be the caller's on another path; that one counts)
        _classify(rule, node, facts, found, kept, whole=True)
    return found


def _classify(rule: Rule, node: cst.BaseExpression, facts: FunctionFacts, found: Uses,
              kept: Callable[[cst.Call], bool], whole: bool, item: bool = False) -> None:
    """Sort the read `node` (the parameter itself when `whole`, else an item or slice of it; `item`: an item, indexed
    by no slice) into `found`."""
    parent = rule.get_metadata(ParentProvider, node, None)
    if item and (isinstance(parent, cst.UnaryOperation) or isinstance(parent, cst.BinaryOperation) and not _array_other(
            rule, parent.right if parent.left is node else parent.left, node, facts, parent)):
        return  # `x[j] - x[k]`, `-x[j]` (scipy's lagrange): an item of a list is an element, which NumPy does not read
        # as an array either (one that is a list raises in NumPy too); only an array operand would make it one
    if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star or \
            isinstance(parent, cst.Arg) and parent.keyword is not None and parent.keyword.value != "out":
        call = rule.get_metadata(ParentProvider, parent, None)
        if isinstance(call, cst.Call) and (facts.array_function(call.func) is not None and not kept(call)
                                           or isinstance(call.func, cst.Name) and call.func.value in ELEMENT_BUILTINS):
            return  # `np.linalg.norm(a)`, `len(a)`: NumPy reads a list as an array
        found.other.append(node)
    elif isinstance(parent, cst.Subscript) and parent.value is node:
        if store_target(rule, parent):
            found.other.append(node)  # `a[0] = v`: writes into the caller's list
        else:
            _classify(rule, parent, facts, found, kept, whole=False,  # `a[:3]`: an item or slice, a list or an array alike
                      item=not any(isinstance(e.slice, cst.Slice) for e in parent.slice))
    elif isinstance(parent, (cst.SubscriptElement, cst.Index)):
        found.other.append(node)  # `x[a]`: a tuple there is one index per axis, which `jnp.asarray` makes one array
    elif isinstance(parent, cst.UnaryOperation):
        (found.other if isinstance(parent.operator, cst.Not) else found.operators).append(node)  # `-a` (a list raises)
    elif isinstance(parent, cst.BinaryOperation):
        other = parent.right if parent.left is node else parent.left
        joins = isinstance(parent.operator, (cst.Add, cst.Multiply))  # `a + b` joins lists, `a * 2` repeats one
        # (a list or tuple display is no array, whatever its items: `cshape + (n,)` joins two tuples, pyfar's noise)
        if not joins or not _list_inputs.sequence(other, facts) and _array_inputs.is_array(rule, other, facts, parent):
            found.operators.append(node)
        else:
            found.other.append(node)
    elif isinstance(parent, cst.Comparison):
        others = [parent.left, *(c.comparator for c in parent.comparisons)]
        if any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in parent.comparisons) \
                or not any(o is not node and _array_inputs.is_array(rule, o, facts, parent) for o in others):
            found.other.append(node)  # `a is None`, `a == b` of two lists (one truth value)
        else:
            found.operators.append(node)
    elif isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node:
        return  # the same items, one by one
    elif isinstance(parent, cst.Attribute) and parent.value is node:
        if parent.attr.value in LIST_METHODS:
            found.other.append(node)
        # (an array attribute, `a.shape`: a list has none, so the code only ran with arrays)
    elif isinstance(parent, (cst.Return, cst.Yield)) or isinstance(parent, cst.Element) and _returned(rule, parent):
        if whole or isinstance(node, cst.Subscript) and any(isinstance(e.slice, cst.Slice) for e in node.slice):
            # `return a`, `return a, b`: the caller's object handed back; `return a[1:]`: of a list, a list
            found.returned.append(node)
        # (an item, `return a[0]`: an element either way)
    else:
        found.other.append(node)  # bound to another name, stored, passed to a function that may need the list


def _array_other(rule: Rule, other: cst.BaseExpression, item: cst.BaseExpression, facts: FunctionFacts,
                 operation: cst.BinaryOperation) -> bool:
    """Whether `other`, the operand an item of a parameter meets, is an array: not an item of the same parameter
    (`x[j] - x[k]`: two elements of one list, whatever its documented type says of the whole)."""
    def root(value: cst.BaseExpression) -> Optional[str]:
        while isinstance(value, cst.Subscript):
            value = value.value
        return value.value if isinstance(value, cst.Name) else None

    if isinstance(other, cst.Subscript) and root(other) is not None and root(other) == root(item):
        return False
    return _array_inputs.is_array(rule, other, facts, operation)


def _returned(rule: Rule, element: cst.Element) -> bool:
    """An element of a tuple returned (`return a, b`)."""
    display = rule.get_metadata(ParentProvider, element, None)
    return isinstance(display, cst.Tuple) and isinstance(rule.get_metadata(ParentProvider, display, None), cst.Return)


def _names(body: cst.CSTNode, name: str) -> list[tuple[cst.Name, bool]]:
    """The `Name` nodes reading `name` in `body`, each with whether it is inside a nested function, class or lambda."""
    found: list[tuple[cst.Name, bool]] = []

    class Visitor(cst.CSTVisitor):
        depth = 0

        def _enter(self, node: cst.CSTNode) -> bool:
            self.depth += 1
            return True

        def _leave(self, node: cst.CSTNode) -> None:
            self.depth -= 1

        visit_FunctionDef = visit_ClassDef = visit_Lambda = _enter
        leave_FunctionDef = leave_ClassDef = leave_Lambda = _leave

        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                found.append((node, self.depth > 0))

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)  # (not the attribute's own name: `x.a` reads no `a`)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)  # (not a keyword: `f(a=1)` reads no `a`)
            return False

    body.visit(Visitor())
    return found


def insertion(rule: Rule, function: cst.FunctionDef, source: str) -> Optional[tuple[cst.BaseStatement, object]]:
    """(the statement to replace, its replacement) that puts `source` first in the function's body, after its
    docstring; None for a one-line body (`def f(a): return -a`)."""
    if not isinstance(function.body, cst.IndentedBlock) or not function.body.body:
        return None
    body = list(function.body.body)
    first = body[0]
    docstring = isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(first.body[0], cst.Expr) \
        and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    made = rule.statements(source)
    if docstring:
        return first, cst.FlattenSentinel([first, *made])
    return first, rule.replace_statement(first, [*made, first.with_changes(leading_lines=())])
