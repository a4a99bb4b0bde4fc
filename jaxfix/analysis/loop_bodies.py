"""Functions passed to `lax` loops, and what the loop's carry check proves about their values.

Loop bodies: a function passed (by name, once, in its direct enclosing function) as the body of
`lax.fori_loop(lo, hi, body, init)`, `lax.while_loop(cond, body, init)` or `lax.scan(body, init, xs)` receives a
carry of exactly the shapes of `init` (JAX traces the body with them), and its returned carry must have exactly
those shapes again or the loop raises a `TypeError` at trace time. So, with the slots of `init` classified in the
enclosing function at the call:
- the names unpacked from the carry parameter (`a, b = carry`, or the parameter itself for a one-slot carry) have
  the class of their slot's initial value: 0-d when it is 0-d; slots whose initial values have one known class
  share a class (the shape of the first of them); the `fori_loop` index is 0-d. A `scan` element is not a slot.
- `carried_scalar(name, at)`: a value assigned to `name` in place of statement `at` reaches, unchanged, a slot of
  the returned carry whose initial value is 0-d (single `return` at the end of the body, no later assignment of
  `name`, `at` not inside a loop, `with` or `try`). Such a value is 0-d or the program fails at trace time, and a
  `jnp.where`/`jnp.select` with a 0-d result has only 0-d operands, so it cannot have broadcast anything. This is
  a fact about that assignment only, not about the operands elsewhere (temporaries, returns, other uses).
  (Under `jax.disable_jit()` the lax loops run as Python loops without the carry check; equivalence is judged
  under `jit`.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import libcst as cst

from jaxfix.analysis.shapes import SCALAR, UNKNOWN, FunctionShapes, Ref, Shape, _calls, _dotted, _names, _scan, like

LOOPS = {"fori_loop": (4, 2, 3), "while_loop": (3, 1, 2), "scan": (2, 0, 1)}  # positional arguments, body, init
LOOP_PARAMS = {"fori_loop": 2, "while_loop": 1, "scan": 2}  # (index, carry) / (carry,) / (carry, element)


@dataclass(frozen=True)
class LoopBody:
    """How a function is called as the body of a lax loop (see the module doc)."""

    loop: str  # "fori_loop", "while_loop", "scan"
    index: Optional[str]  # the fori_loop index parameter
    carry: cst.Param  # the carry parameter
    tupled: bool  # the carry is a tuple of slots (`init` is a tuple display), else one slot
    initial: tuple[Shape, ...]  # the class of each slot's initial value, in the enclosing function
    slots: tuple[Shape, ...]  # the class of each slot's value on entry, in the body's terms
    unpacks: tuple[cst.Assign, ...]  # `a, b = carry` (several slots), else ()


def carried_scalar(shapes: FunctionShapes, name: str, at: cst.CSTNode) -> bool:
    """Whether a value assigned to `name` in place of statement `at` is returned unchanged in a carry slot whose
    initial value is 0-d (see the module doc): the loop then makes it 0-d or fails at trace time."""
    loop = shapes.loop_body()
    body = list(shapes.function.body.body)
    if loop is None or not body or not isinstance(body[-1], cst.SimpleStatementLine):
        return False
    last = body[-1].body[-1]
    if not isinstance(last, cst.Return) or _returns(shapes.function) != 1 or last.value is None:
        return False
    carry: Optional[cst.BaseExpression] = last.value
    if loop.loop == "scan":  # `return carry, y`
        carry = carry.elements[0].value if isinstance(carry, cst.Tuple) and len(carry.elements) == 2 else None
    if not loop.tupled:
        parts = [carry]
    elif isinstance(carry, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in carry.elements):
        parts = [e.value for e in carry.elements]
    else:
        return False
    if len(parts) != len(loop.initial) or not any(
        isinstance(p, cst.Name) and p.value == name and initial == SCALAR for p, initial in zip(parts, loop.initial)
    ):
        return False
    path = _path(body, at)
    return path is not None and all(name not in shapes.flow.writes(list(block[i + 1:])) for block, i in path)


def find_loop_body(shapes: FunctionShapes) -> Optional[LoopBody]:
    """How `shapes.function` is called as a lax loop body by its enclosing function, or None."""
    parent, name = shapes._parent, shapes.function.name.value
    if parent is None or shapes.function.asynchronous is not None or shapes.function.decorators:
        return None
    uses = [n for n in _names(parent.function.body) if n.value == name]
    calls = [c for c in _calls(parent.function.body) if any(a.value is n for a in c.args for n in uses)]
    if len(uses) != 1 or len(calls) != 1:
        return None  # the function is used otherwise, or not at all: its parameters could be anything
    call = calls[0]
    loop = lax_loop(parent, call.func)
    stmt = parent.statement_of(call)
    positional = [a.value for a in call.args if a.keyword is None]
    if loop is None or stmt is None or any(a.star for a in call.args):
        return None
    count, body_at, init_at = LOOPS[loop]
    if not count <= len(positional) <= count + (loop == "scan") or positional[body_at] is not uses[0]:
        return None  # (`scan` may take `xs` by position or by keyword)
    reaching = parent.flow.reaching(stmt, name)
    if len(reaching) != 1 or reaching[0].node is not shapes.function or parent.flow.maybe_undefined(stmt, name):
        return None
    params = shapes.function.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params or params.star_kwarg or params.posonly_params:
        return None
    if len(params.params) != LOOP_PARAMS[loop] or any(p.default is not None for p in params.params):
        return None
    carry = params.params[1 if loop == "fori_loop" else 0]
    init = positional[init_at]
    tupled = isinstance(init, cst.Tuple)
    if tupled and (not init.elements or any(isinstance(e, cst.StarredElement) for e in init.elements)):  # type: ignore[union-attr]
        return None
    values = [e.value for e in init.elements] if tupled else [init]  # type: ignore[union-attr]
    initial = tuple(parent.of(v, stmt) for v in values)
    unpacks: tuple[cst.Assign, ...] = ()
    if tupled:
        if carry.name.value in shapes.flow.writes(list(shapes.function.body.body)):
            return None
        unpacks = tuple(_unpacks(shapes.function, carry.name.value, len(values)))
        if not unpacks:
            return None
        first = unpacks[0].targets[0].target.elements  # type: ignore[union-attr]
        tokens = [Ref(e.value.value, frozenset([id(unpacks[0])])) if isinstance(e.value, cst.Name) else None for e in first]
    else:
        tokens = [Ref(carry.name.value, frozenset([id(carry)]))]
    slots = []
    for k, shape in enumerate(initial):
        if shape.kind != "like":
            slots.append(shape)
            continue
        j = initial.index(shape)  # the first slot of this class stands for all of them
        slots.append(like(tokens[j]) if tokens[j] is not None else UNKNOWN)  # type: ignore[arg-type]
    index = params.params[0].name.value if loop == "fori_loop" else None
    return LoopBody(loop, index, carry, tupled, initial, tuple(slots), unpacks)


def lax_loop(shapes: FunctionShapes, func: cst.BaseExpression) -> Optional[str]:
    """`jax.lax.fori_loop` / `lax.scan` (the module's names of `jax.lax`) -> "fori_loop" / "scan", else None."""
    if not isinstance(func, cst.Attribute) or func.attr.value not in LOOPS:
        return None
    root = func.value
    while isinstance(root, cst.Attribute):
        root = root.value
    if not isinstance(root, cst.Name) or shapes._shadowed(root.value):
        return None
    return func.attr.value if _dotted(func.value) in shapes._lax else None


def _returns(function: cst.FunctionDef) -> int:
    return _scan(function.body).returns


def _unpacks(function: cst.FunctionDef, carry: str, count: int) -> list[cst.Assign]:
    """`a, b = carry` statements of the function's top level (targets: `count` plain names)."""
    found = []
    for stmt in function.body.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if not isinstance(small, cst.Assign) or len(small.targets) != 1 or not isinstance(small.value, cst.Name):
                continue
            target = small.targets[0].target
            if small.value.value == carry and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == count:
                if all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in target.elements):
                    found.append(small)
    return found


def _path(block: Sequence[cst.CSTNode], at: cst.CSTNode) -> Optional[list[tuple[Sequence[cst.CSTNode], int]]]:
    """The blocks from `at` out to `block` with the position in each (entering `if`/`elif`/`else` bodies and
    statement lines only), or None."""
    for i, stmt in enumerate(block):
        if stmt is at:
            return [(block, i)]
        inner: list[Sequence[cst.CSTNode]] = []
        if isinstance(stmt, cst.SimpleStatementLine):
            inner = [stmt.body]
        elif isinstance(stmt, cst.If):
            orelse = stmt.orelse
            inner = [stmt.body.body, *([[orelse]] if isinstance(orelse, cst.If) else [orelse.body.body] if orelse else [])]
        for sub in inner:
            found = _path(sub, at)
            if found is not None:
                return [*found, (block, i)]
    return None
