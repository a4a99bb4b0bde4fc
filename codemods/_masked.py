"""Shared by the mask rules (JX302, JX303): which expressions consume a masked read `x[m]` as a reduction or a count.

A consumer is `x[m].sum(...)` (and mean, max, min, prod, std, var, any, all), `np.sum(x[m], ...)` / `jnp.sum(...)`,
`len(x[m])`, `x[m].size` or `x[m].shape[0]`. Rules find the consumer of an operand through the parent links.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import libcst as cst

from jaxfix.analysis.dataflow import FunctionFlow
from jaxfix.analysis.masks import FunctionFacts, MaskIndex, dotted
from jaxfix.analysis.parents import ParentProvider, enclosing_statement

REDUCTIONS = {"sum", "mean", "max", "min", "prod", "std", "var", "any", "all"}
FUNCTIONS = REDUCTIONS | {"amax", "amin"}


@dataclass(frozen=True)
class Consumer:
    node: cst.BaseExpression  # the whole expression to replace
    operand: cst.BaseExpression  # the masked read (or the name holding it)
    reduction: str  # "sum", ..., or "count"
    args: Sequence[cst.Arg] = ()  # the reduction's other arguments


def consumer(rule: cst.MetadataDependent, facts: FunctionFacts, operand: cst.BaseExpression) -> Optional[Consumer]:
    """The reduction or count that `operand` feeds directly, or None."""
    parent = rule.get_metadata(ParentProvider, operand, None)
    if isinstance(parent, cst.Attribute) and parent.value is operand:
        outer = rule.get_metadata(ParentProvider, parent, None)
        attr = parent.attr.value
        if attr == "size":
            return Consumer(parent, operand, "count")
        if attr == "shape" and isinstance(outer, cst.Subscript) and len(outer.slice) == 1:
            index = outer.slice[0].slice
            if isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.value == "0":
                return Consumer(outer, operand, "count")
        if attr in REDUCTIONS and isinstance(outer, cst.Call) and outer.func is parent:
            return Consumer(outer, operand, attr, tuple(outer.args))
        return None
    if isinstance(parent, cst.Arg) and parent.keyword is None and parent.star == "":
        call = rule.get_metadata(ParentProvider, parent, None)
        if not isinstance(call, cst.Call) or not call.args or call.args[0] is not parent:
            return None
        if dotted(call.func) == "len" and len(call.args) == 1 and "len" not in facts.bindings:
            return Consumer(call, operand, "count")
        fn = facts.array_function(call.func)
        if fn in FUNCTIONS:
            name = {"amax": "max", "amin": "min"}.get(fn, fn)
            return Consumer(call, operand, name, tuple(call.args[1:]))
    return None


def broadcast_mask(rule, info: MaskIndex) -> tuple[str, Optional[str]]:
    """The mask as it must broadcast against the whole array (`m`, `m[:, None]`, `m[..., None]`), and the assumption
    made when its shape relative to the array is unknown."""
    text = rule.code(info.mask)
    if info.trailing == 0:
        return text, None
    atom = text if isinstance(info.mask, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) else f"({text})"
    if info.row_mask and info.target_rank == 2:
        return f"{atom}[:, None]", None
    if info.trailing:
        return f"{atom}[...{', None' * info.trailing}]", None
    return text, "the mask's shape is not known to equal the array's (a 1-D row mask of a 2-D array needs `m[:, None]`)"


def named_consumers(
    rule: cst.MetadataDependent, facts: FunctionFacts, flow: FunctionFlow, stmt: cst.SimpleStatementLine
) -> Optional[list[Consumer]]:
    """For `sel = x[m]`: the reductions reading `sel`, when every read of this definition is one, no other
    definition of `sel` reaches them, and nothing the read depends on (`x`, the mask's names) changes in between.
    None otherwise."""
    if len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Assign) or len(stmt.body[0].targets) != 1:
        return None
    assign = stmt.body[0]
    target = assign.targets[0].target
    if not isinstance(target, cst.Name):
        return None
    name = target.value
    uses = flow.uses(stmt, name)
    if not uses:
        return None
    depends = flow.reads(assign.value)
    if depends & flow.mutates(stmt_list(rule, stmt)):
        return None
    found = []
    for use in uses:
        found_consumer = consumer(rule, facts, use)
        use_stmt = enclosing_statement(rule, use)
        if found_consumer is None or use_stmt is None or not flow.knows(use_stmt):
            return None  # (a read in a nested function: a closure, which sees the name as it is when called)
        if {d.node for d in flow.reaching(use_stmt, name)} != {assign}:
            return None
        for dep in depends:
            if {d.node for d in flow.reaching(use_stmt, dep)} != {d.node for d in flow.reaching(stmt, dep)}:
                return None
        found.append(found_consumer)
    return found


def stmt_list(rule: cst.MetadataDependent, stmt: cst.CSTNode) -> list[cst.CSTNode]:
    """The whole body of the function holding `stmt` (for `mutates`)."""
    current: Optional[cst.CSTNode] = stmt
    while current is not None and not isinstance(current, cst.FunctionDef):
        current = rule.get_metadata(ParentProvider, current, None)
    return list(current.body.body) if isinstance(current, cst.FunctionDef) else []
