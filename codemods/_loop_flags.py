"""The `done` flag that JX223 (loop-exit) carries through a loop instead of a jump: where it may be, and what it carries.

- `finite(rule, iterable)`: whether a `for` loop over `iterable` ends by itself; over anything else (a generator)
  only the jump stops it, and a flag would let it run on;
- `return_plan(rule, fn, node, flow, jumps, done, result)`: for early returns, the `return` after the loop, the
  starting value of the carried `result` (the final value, or the early one evaluated before the loop) and what the
  function returns instead (`jnp.where(done, result, w)`, or `lax.cond` without proof of one shape);
- `hits(rule, node, body, flow, done, result, start, taken)`: a `for` body in the `hit` form: for each traced
  `if c: ...; break`, `hit = jnp.logical_and(jnp.logical_not(done), c)`, `v = jnp.where(hit, new, v)` and
  `done = done | hit`, the other statements under `if not done:` unless they are cheap, pure temporaries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from codemods import _branch_emit as emit
from codemods._branch_structure import assignments
from codemods._branch_values import bool_mix
from codemods._where_safety import cheap_and_pure
from jaxfix import loopgen as gen, walk
from jaxfix.analysis.loops import ending_jump, target_names
from jaxfix.analysis.masks import function_facts
from jaxfix.analysis.loop_values import counts_range, early_arithmetic, reshaped_names, same_shape, scalar_names
from jaxfix.analysis.tracedness import Tracedness, function_tracedness, tracedness

if TYPE_CHECKING:
    from jaxfix.rule import Rule


def finite(rule: Rule, iterable: cst.BaseExpression) -> bool:
    """Whether a `for` loop over `iterable` ends by itself, and running it to its end changes nothing else: a `range`,
    a list or tuple, an array (a traced value), or `enumerate`/`zip`/`reversed` of those written in the header. A
    loop over anything else (a generator) may be endless, and one over a name bound to an iterator (`it =
    iter(xs)`) would consume items that code after the loop reads."""
    if isinstance(iterable, (cst.List, cst.Tuple, cst.ListComp)):
        return True
    if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name):
        name = iterable.func.value
        if name == "range":
            return True
        if name in ("enumerate", "zip", "reversed"):
            return all(finite(rule, a.value) for a in iterable.args if a.keyword is None)
        return False
    if isinstance(iterable, cst.Call):
        return False
    bound = function_tracedness(rule, rule.current_function).assigned_values(iterable.value) \
        if isinstance(iterable, cst.Name) else []
    if any(isinstance(v, cst.GeneratorExp) or isinstance(v, cst.Call) and isinstance(v.func, cst.Name)
           and v.func.value in _ITERATORS for v in bound):
        return False  # `it = iter(xs)`: a flag would run the iterator to its end, which code after the loop reads on
    return tracedness(rule, iterable) is Tracedness.TRACED or any(isinstance(v, (cst.List, cst.Tuple, cst.ListComp)) for v in bound)


# builtins that make an iterator, which a loop consumes as it goes
_ITERATORS = frozenset({"iter", "map", "filter", "zip", "enumerate", "reversed"})


def return_plan(rule: Rule, fn, node, flow, jumps, done, result):
    """(the `return` after the loop, the initial `result`, the new returned value) for a loop with early
    returns, or why there is none (a message)."""
    statements = list(fn.body.body)
    after = statements[statements.index(node) + 1] if node in statements[:-1] else None
    if not (isinstance(after, cst.SimpleStatementLine) and len(after.body) == 1 and isinstance(after.body[0], cst.Return)
            and after.body[0].value is not None):
        return ("the loop is not directly followed by a `return` of a value at the top level of the function, so "
                "the early result cannot be carried out of the loop")
    final = after.body[0].value
    changed = flow.writes(list(node.body.body)) | flow.mutates(list(node.body.body)) | target_names(node)
    for jump in jumps:
        for sub in walk.nodes_of(jump.value, cst.Subscript) if jump.value is not None else []:
            bounds = [p for e in sub.slice if isinstance(e.slice, cst.Slice)  # type: ignore[attr-defined]
                      for p in (e.slice.lower, e.slice.upper, e.slice.step) if p is not None]
            if any(flow.reads(b) & changed for b in bounds):
                return (f"the early result `{rule.code(jump.value)}` slices with a bound the loop changes, so its "
                        "length depends on where the loop stops; a carried result must keep one shape (`lax.cond` "
                        "raises `TypeError`)")
    values = [r.value for r in jumps]
    if None in values:
        return "a bare `return` inside the loop returns `None`, which cannot be carried as an array"
    flag = bool_mix([*values, final], function_facts(rule, fn))
    if flag is not None:  # `return i` in the loop, `return False` after it (pymcmcstat's first match)
        return (f"the function returns `{flag[0]}`, a bool, or `{flag[1]}`, a number: one carried result cannot be "
                "both (`jnp.where` would return a number where Python returned the bool, and `lax.cond` raises "
                "`TypeError`)")
    if not (flow.reads(final) & changed) and not walk.contains(final, cst.Call):
        return after, rule.code(final), result  # the final value can start the result before the loop
    first = _placeholder(rule, values[0], node, flow)
    if first is None:
        return (f"the final `return {rule.code(final)}` depends on the loop, and the early result "
                f"`{rule.code(values[0])}` cannot be given a starting value before the loop (it reads names the "
                "loop defines, or calls, divides or indexes)")
    if same_shape([*values, final], scalar_names(fn, node), reshaped_names(list(node.body.body))):
        select = f"{rule.jnp}.where({done}, {result}, {rule.code(final)})"
    else:  # no proof of one shape: `jnp.where` could broadcast, `lax.cond` checks the shapes
        select = f"{rule.lax}.cond({done}, lambda: {result}, lambda: {rule.code(final)})"
    return after, first, select


def mixed_carry(rule: Rule, fn, jumps, flow, node) -> Optional[str]:
    """Why a value the jumps' `if`s set before leaving the loop cannot be carried past it, else None: a name bound to
    a bool literal and set to a number there (`found = False`, then `if x[i] > 0: found = i; break`): neither
    `jnp.where` (which makes the bool a number) nor `lax.cond` (`TypeError`) keeps both."""
    facts = function_facts(rule, fn)
    live = flow.live_out(node)
    for stmt in jumps:
        for small in walk.nodes_of(stmt.body, cst.Assign):
            for target in small.targets:  # type: ignore[attr-defined]
                name = target.target.value if isinstance(target.target, cst.Name) else None
                if name is None or name not in live:
                    continue
                flag = bool_mix([small.value, *(v for v in facts.bindings.get(name, ()) if v is not None)], facts)  # type: ignore[attr-defined]
                if flag is not None:
                    return (f"`{name}` is the bool `{flag[0]}` or the number `{flag[1]}` after the loop: a flag would "
                            "carry it as one array (`jnp.where` makes the bool a number, `lax.cond` raises `TypeError`)")
    return None


def _placeholder(rule: Rule, value: cst.BaseExpression, node, flow) -> Optional[str]:
    """`value` evaluated before the loop, as the starting value (of the right type) of the carried result: only
    element-wise arithmetic on names defined before the loop; a range loop's index becomes its start."""
    if not early_arithmetic(value):
        return None
    index = target_names(node)
    if any(flow.maybe_undefined(node, n) for n in flow.reads(value) - index):
        return None
    if flow.reads(value) & index:
        if not counts_range(node):
            return None
        args = node.iter.args
        start = args[0].value if len(args) > 1 else cst.Integer("0")
        return gen.substitute(value, index, start)
    return rule.code(value)


def hits(rule: Rule, node, body, flow, done, result, start, taken) -> Optional[list[cst.BaseStatement]]:
    """The body of a `for` loop with `hit = jnp.logical_and(jnp.logical_not(done), c)`, `v = jnp.where(hit,
    new, v)` and `done = done | hit` for each traced `if c: ...; break` (or `return`), and the other statements
    under `if not done:` when they bind names used later; None when that form does not apply."""
    if not isinstance(node, cst.For) or any(ending_jump(s) == "continue" for s in body):
        return None
    fn = rule.current_function
    local = frozenset(flow.params) | flow.writes(list(fn.body.body))
    shapes = (scalar_names(fn, node), reshaped_names(body), start)
    live = flow.live_in(node) | flow.live_out(node)
    out: list[cst.BaseStatement] = []
    segment: list[cst.BaseStatement] = []
    for stmt in [*body, None]:
        kind = ending_jump(stmt) if stmt is not None else None
        if stmt is not None and kind is None:
            segment.append(stmt)
            continue
        if segment:
            plain = assignments(segment)  # temporaries of this iteration, cheap and pure: no guard needed
            keep = plain is not None and not flow.writes(segment) & live and all(cheap_and_pure(v, local) for _, v, _ in plain)
            out.extend(segment if keep else [cst.If(test=rule.expr(f"not {done}"), body=cst.IndentedBlock(body=segment))])
            segment = []
        if stmt is None:
            return out
        lines = _hit_lines(rule, stmt, kind, flow, done, result, taken, local, shapes)
        if lines is None:
            return None
        out.extend(emit.with_comments(rule.statements(lines), [*stmt.leading_lines, *emit.kept_comments(stmt, True)]))
    return out


def _hit_lines(rule: Rule, stmt: cst.If, kind, flow, done, result, taken, local, shapes) -> Optional[str]:
    block = list(stmt.body.body)
    last = block[-1]
    block = [*block[:-1], *([last.with_changes(body=list(last.body[:-1]))] if len(last.body) > 1 else [])]
    plain = assignments(block)
    if plain is None or tracedness(rule, stmt.test) is not Tracedness.TRACED or not cheap_and_pure(stmt.test, local):
        return None
    hit = gen.fresh(rule, rule.current_function, "hit", taken)
    lines = f"{hit} = {rule.jnp}.logical_and({rule.jnp}.logical_not({done}), {rule.code(stmt.test).strip()})\n"
    updates = [(n, rule.code(v) if op is None else f"{n} {rule.code(op).strip()[:-1]} {gen.paren(rule.code(v))}") for n, v, op in plain]
    if kind == "return":
        updates.append((result, rule.code(last.body[-1].value)))
    for name, value in updates:
        if not cheap_and_pure(cst.parse_expression(value), local):
            return None
        if name != result and name not in flow.live_out(stmt):
            lines += f"{name} = {value}\n"  # a temporary of this iteration
            continue
        scalars, reshaped, start = shapes
        if name == result:  # the result keeps the shape of its starting value (or of an earlier iteration's)
            proved = same_shape([cst.parse_expression(value), cst.parse_expression(start)], scalars, reshaped)
        else:  # both sides are read now
            proved = not flow.maybe_undefined(stmt, name) and same_shape([cst.parse_expression(value), cst.Name(name)], scalars, frozenset())
            # (and have one kind: `found = False`, then `found = i`: `jnp.where` would give `0` for `False`)
            facts = function_facts(rule, rule.current_function)
            proved = proved and bool_mix([cst.parse_expression(value), *(v for v in facts.bindings.get(name, ()) if v is not None)],
                                         facts) is None
        if not proved:
            return None  # `jnp.where` could broadcast: keep the exact Python form
        lines += f"{name} = {rule.jnp}.where({hit}, {value}, {name})\n"
    return lines + f"{done} = {done} | {hit}\n"
