"""Where a value goes: does an expression's result have to be a Python value on the host?

`value_use(rule, node)` walks up from an expression to its statement and answers with a `UseSite`:

- `Use.HOST`: the value must leave the device (printed, formatted, a `range()` bound, a slice bound, a shape or
  axis, a dict key, a set element, appended to a Python container, written out). An array cannot stand there
  under `jit`.
- `Use.UNKNOWN`: it is passed to code we cannot see (a user function, a method of an unknown object) or used as an
  index (NumPy raises on an out-of-range index, JAX clamps; a Python list cannot take an array index).
- `Use.DEFER`: the index of an in-place update (`counts[int(v)] += 1`), which the in-place rules rewrite first
  (they recognise `int(...)` as a single position).
- `Use.ARRAY`: the index of `x.at[...]` (`AT_INDEX_REASON`: out of range, NumPy raises where JAX drops the
  update or clamps the read, as for every index under `jit`), arithmetic, comparisons, NumPy/jax.numpy arguments, `return`, tests of `if`/`while` (left to the
  control-flow rules): an array gives the same value there.

When the value is assigned to a plain name, the uses of that name decide (`assigned_name`); `name_uses` lists
them (def-use chains of `jaxfix.analysis.dataflow`). Rules that read this list `HOST_USE_DEPENDENCIES` in their
`METADATA_DEPENDENCIES`. `is_static(rule, expr)` is the tracing rules' one question about tracedness.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jaxfix import walk

from jaxfix.analysis.dataflow import DataflowProvider, function_flow
from jaxfix.analysis.hashed import read_hashed
from jaxfix.analysis.numpy_names import NumpyNameProvider, numpy_name
from jaxfix.analysis.parents import ParentProvider
from jaxfix.analysis.positions import PositionProvider
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, tracedness
from jaxfix.imports import dotted_name

HOST_USE_DEPENDENCIES = (ParentProvider, NumpyNameProvider, DataflowProvider, TracednessProvider)


class Use(enum.IntEnum):
    ARRAY = 0
    UNKNOWN = 1
    DEFER = 2  # the index of an in-place update: the in-place rules (JX1xx) rewrite the statement first
    HOST = 3


@dataclass(frozen=True)
class UseSite:
    kind: Use
    reason: str = ""
    node: Optional[cst.CSTNode] = None  # where the decisive use is
    assigned_name: Optional[str] = None  # the value is bound to this plain name; its uses decide
    assignment: Optional[cst.CSTNode] = None  # the statement binding it


HOST_BUILTINS = {
    "print": "printed", "str": "converted to a string", "repr": "converted to a string", "format": "formatted",
    "range": "a `range()` bound, which must be a Python int", "open": "used for I/O", "hash": "hashed",
    "list": "built into a Python container", "tuple": "built into a Python container",
    "set": "built into a Python container", "dict": "built into a Python container", "chr": "converted to a string",
    "hex": "converted to a string", "oct": "converted to a string", "bin": "converted to a string",
    "slice": "a slice bound, which must be static", "enumerate": "iterated on the host", "len": "passed to `len`",
}
HOST_METHODS = {
    "append": "appended to a Python container", "extend": "appended to a Python container",
    "insert": "inserted into a Python container", "add": "added to a Python set", "write": "written out",
    "format": "formatted into a string", "info": "logged", "debug": "logged", "warning": "logged", "error": "logged",
    "log": "logged", "setdefault": "used as a dict key",
}
# Arguments that must be static in NumPy/jax.numpy calls: (positions, or None for all) by function name.
SHAPE_POSITIONS = {
    "zeros": (0,), "ones": (0,), "empty": (0,), "full": (0,), "eye": (0, 1), "identity": (0,), "tri": (0, 1),
    "arange": None, "linspace": (2,), "reshape": None, "tile": (1,), "repeat": (1,), "broadcast_to": (1,),
    "matrix_power": (1,),
}
INDEX_REASON = "used as an index (NumPy raises on an out-of-range index; JAX clamps it, or drops an `.at[...]` update)"
AT_INDEX_REASON = "the index of an `.at[...]` update or read"
SHAPE_KEYWORDS = {"shape", "size", "num", "axis", "k", "repeats", "reps", "length", "ndmin", "decimals", "newshape"}
TRANSPARENT = (
    cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.ComparisonTarget, cst.BooleanOperation, cst.IfExp,
    cst.Element, cst.StarredElement, cst.Tuple, cst.List, cst.DictElement, cst.Dict,
)




# `json.dumps(v)`, `json.dump(v, f)`: JSON takes Python numbers, lists and dicts; a JAX array raises `TypeError`
JSON_WRITERS = frozenset({"json.dumps", "json.dump", "simplejson.dumps", "simplejson.dump", "ujson.dumps", "ujson.dump",
                          "orjson.dumps"})
JSON_REASON = "serialized to JSON, which rejects a JAX array"


def json_writer(call: cst.Call) -> bool:
    """`json.dumps(...)`, `json.dump(...)` (and simplejson's, ujson's, orjson's)."""
    return dotted_name(call.func) in JSON_WRITERS


def displayed(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """`value`, or the values a dict, list or tuple display holds (`{"o": o, "parts": [a, b]}` gives `o`, `a`, `b`),
    through nested displays."""
    if isinstance(value, cst.Dict):
        return [v for e in value.elements if isinstance(e, cst.DictElement) for v in displayed(e.value)]
    if isinstance(value, (cst.List, cst.Tuple)):
        return [v for e in value.elements for v in displayed(e.value)]
    return [value]


def _is_array_call(rule: cst.MetadataDependent, func: cst.BaseExpression) -> bool:
    if numpy_name(rule, func):
        return True
    dotted = dotted_name(func)
    return dotted.startswith(("jnp.", "jax.numpy.", "jax.", "lax.", "math."))


def _call_use(rule: cst.MetadataDependent, call: cst.Call, arg: cst.Arg) -> Optional[UseSite]:
    func = call.func
    if isinstance(func, cst.Name) and func.value in HOST_BUILTINS:
        return UseSite(Use.HOST, HOST_BUILTINS[func.value], call)
    if json_writer(call) and call.args and arg is call.args[0]:
        return UseSite(Use.HOST, JSON_REASON, call)
    if isinstance(func, cst.Name) and func.value in ("float", "int", "bool", "abs", "round", "complex"):
        return None  # a conversion of the conversion: judged at the outer call
    short = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if _is_array_call(rule, func) or short in ("astype", "reshape"):
        position = call.args.index(arg)
        if arg.keyword is not None and arg.keyword.value in SHAPE_KEYWORDS:
            return UseSite(Use.HOST, f"the `{arg.keyword.value}=` argument, which must be static", call)
        method = not _is_array_call(rule, func)  # x.reshape(...): the array is not an argument
        positions = SHAPE_POSITIONS.get(short, ())
        if method and positions:
            positions = tuple(p - 1 for p in positions)
        if arg.keyword is None and (positions is None or position in positions):
            return UseSite(Use.HOST, f"a shape or size argument of `{short}`, which must be static", call)
        return None
    at_update = isinstance(func, cst.Attribute) and isinstance(func.value, cst.Subscript) and isinstance(
        func.value.value, cst.Attribute
    ) and func.value.value.attr.value == "at"
    if at_update:
        return None  # x.at[i].add(v): a functional array update
    if isinstance(func, cst.Attribute) and func.attr.value in HOST_METHODS:
        return UseSite(Use.HOST, HOST_METHODS[func.attr.value], call)
    return UseSite(Use.UNKNOWN, f"passed to `{dotted_name(func) or 'a call'}`, which may need a Python number", call)


def _array_argument(rule: cst.MetadataDependent, element: cst.CSTNode) -> bool:
    """Whether the display holding `element` (through nested displays) is an argument of a NumPy/`jax.numpy` call
    (`np.array([float(a), b])`)."""
    node = rule.get_metadata(ParentProvider, element, None)
    while isinstance(node, (cst.List, cst.Tuple, cst.Dict, cst.Element, cst.DictElement)):
        node = rule.get_metadata(ParentProvider, node, None)
    call = rule.get_metadata(ParentProvider, node, None) if isinstance(node, cst.Arg) else None
    return isinstance(call, cst.Call) and _is_array_call(rule, call.func)


def _is_store_target(rule: cst.MetadataDependent, index: cst.Index) -> bool:
    element = rule.get_metadata(ParentProvider, index, None)
    subscript = rule.get_metadata(ParentProvider, element, None) if element is not None else None
    owner = rule.get_metadata(ParentProvider, subscript, None) if subscript is not None else None
    return isinstance(owner, cst.AssignTarget) or (isinstance(owner, cst.AugAssign) and owner.target is subscript)


def _indexes_at(rule: cst.MetadataDependent, index: cst.Index) -> bool:
    """Is `index` (part of) the index of `x.at[...]`? There an integer array stands for a Python int: the position
    is the same for every in-range value, whatever the index's shape (one element), and nothing above the
    subscript uses the index's value."""
    element = rule.get_metadata(ParentProvider, index, None)
    subscript = rule.get_metadata(ParentProvider, element, None) if element is not None else None
    return (
        isinstance(subscript, cst.Subscript)
        and isinstance(subscript.value, cst.Attribute)
        and subscript.value.attr.value == "at"
    )


def value_use(rule: cst.MetadataDependent, node: cst.CSTNode) -> UseSite:
    """How the value of `node` is used, up to its statement (see the module docstring)."""
    worst = UseSite(Use.ARRAY)
    child, parent = node, rule.get_metadata(ParentProvider, node, None)
    while parent is not None:
        site: Optional[UseSite] = None
        if isinstance(parent, cst.Arg):
            call = rule.get_metadata(ParentProvider, parent)
            if isinstance(call, cst.Call):
                site = _call_use(rule, call, parent)
            child, parent = call, rule.get_metadata(ParentProvider, call, None)
            if site is not None and site.kind > worst.kind:
                worst = site
            if worst.kind == Use.HOST:
                return worst
            continue
        if isinstance(parent, (cst.FormattedStringExpression,)):
            site = UseSite(Use.HOST, "formatted into an f-string", parent)
        elif isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Modulo) and isinstance(
            parent.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
        ):
            site = UseSite(Use.HOST, "formatted into a string", parent)
        elif isinstance(parent, cst.Slice):
            site = UseSite(Use.HOST, "a slice bound, which must be static", parent)
        elif isinstance(parent, cst.DictElement) and child is parent.key:
            site = UseSite(Use.HOST, "used as a dict key", parent)
        elif isinstance(parent, cst.Set):
            site = UseSite(Use.HOST, "put in a Python set", parent)
        elif (isinstance(parent, cst.DictElement) or isinstance(parent, cst.Element) and isinstance(
                rule.get_metadata(ParentProvider, parent, None), cst.List)) and not _array_argument(rule, parent):
            # `return {"overall": float(m)}` (pyod's scores): a Python container, which its readers may serialize
            # to JSON or compare as Python numbers; an array display handed to NumPy (`np.array([float(a)])`) is not
            site = UseSite(Use.UNKNOWN, "put in a Python dict or list, whose readers may need a Python number (JSON "
                           "rejects an array)", parent)
        elif isinstance(parent, cst.Index):
            if _indexes_at(rule, parent):
                return UseSite(Use.ARRAY, AT_INDEX_REASON, parent)
            site = UseSite(Use.UNKNOWN, INDEX_REASON, parent)
            if _is_store_target(rule, parent):
                site = UseSite(Use.DEFER, "the index of an in-place update", parent)
        elif isinstance(parent, cst.Attribute) and child is parent.value:
            site = UseSite(Use.UNKNOWN, f"its Python attribute `.{parent.attr.value}` is used", parent)
        elif isinstance(parent, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else [parent.target]
            if child is getattr(parent, "value", None) and len(targets) == 1 and isinstance(targets[0], cst.Name):
                return UseSite(worst.kind, worst.reason, worst.node, targets[0].value, parent)
            site = UseSite(Use.UNKNOWN, "stored in a target we do not follow", parent)
        elif isinstance(parent, (cst.Return, cst.Expr, cst.If, cst.While, cst.Assert, cst.Yield)):
            return worst
        elif isinstance(parent, (cst.BaseStatement, cst.BaseSmallStatement, cst.Lambda, cst.BaseComp)):
            site = UseSite(Use.UNKNOWN, "used in a construct we do not follow", parent)
            return site if site.kind > worst.kind else worst
        elif not isinstance(parent, TRANSPARENT + (cst.SubscriptElement, cst.Subscript, cst.Await)):
            site = UseSite(Use.UNKNOWN, "used in a construct we do not follow", parent)
        if site is not None and site.kind > worst.kind:
            worst = site
        if worst.kind == Use.HOST:
            return worst
        child, parent = parent, rule.get_metadata(ParentProvider, parent, None)
    return worst


def name_uses(
    rule: cst.MetadataDependent, function: cst.FunctionDef, assignment: cst.CSTNode, name: str
) -> tuple[cst.Name, ...]:
    """The reads of `name` that the value bound by `assignment` reaches."""
    return function_flow(rule, function).uses(assignment, name)


def use_with_names(
    rule: cst.MetadataDependent, function: cst.FunctionDef, node: cst.CSTNode, depth: int = 2
) -> UseSite:
    """`value_use`, following a plain-name assignment to the uses of that name (`depth` assignments deep)."""
    site = value_use(rule, node)
    if site.assigned_name is None:
        return site
    worst = UseSite(site.kind, site.reason, site.node)
    if depth == 0:
        return UseSite(max(worst.kind, Use.UNKNOWN), worst.reason or "assigned further than we follow", worst.node)
    for read in name_uses(rule, function, site.assignment, site.assigned_name):
        used = use_with_names(rule, function, read, depth - 1)
        if used.kind > worst.kind:
            line = rule.get_metadata(PositionProvider, used.node or read).start.line
            reason = f"assigned to `{site.assigned_name}`, which is {used.reason} (line {line})"
            worst = UseSite(used.kind, reason, used.node)
    return worst


def is_static(rule: cst.MetadataDependent, expr: cst.BaseExpression) -> bool:
    """Is `expr` a concrete Python/NumPy value under `jit` (see `jaxfix.analysis.tracedness`)?"""
    return tracedness(rule, expr) == Tracedness.STATIC


_CONTAINER_DISPLAYS = (cst.Dict, cst.List, cst.Tuple, cst.Set, cst.DictComp, cst.ListComp, cst.SetComp)


def _python_container(flow, statement: Optional[cst.CSTNode], value: cst.BaseExpression) -> Optional[str]:
    """`value` names (or is) a Python dict/list/tuple or a string: every value reaching `statement` for the name is a
    display of one. The word for it, else None."""
    if isinstance(value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return "string"
    if isinstance(value, _CONTAINER_DISPLAYS):
        return "dict" if isinstance(value, (cst.Dict, cst.DictComp)) else "list"
    if not isinstance(value, cst.Name) or statement is None:
        return None
    kinds = set()
    try:
        definitions = flow.reaching(statement, value.value)
    except KeyError:  # a statement of a nested function: not in this function's flow
        return None
    for definition in definitions:
        bound = getattr(definition.node, "value", None)
        targets = getattr(definition.node, "targets", ())
        if not (isinstance(definition.node, cst.Assign) and len(targets) == 1 and isinstance(targets[0].target, cst.Name)):
            return None
        kind = _python_container(flow, None, bound) if bound is not None else None
        if kind is None:
            return None
        kinds.add(kind)
    return kinds.pop() if len(kinds) == 1 else ("container" if kinds else None)


def python_value_use(
    rule: cst.MetadataDependent, function: cst.FunctionDef, read: cst.CSTNode, depth: int = 2
) -> Optional[str]:
    """Why the value of `read` must be a Python value (a `Use.HOST` use, or a key into a Python dict, list or string
    that the function builds), or None. A traced array cannot stand there; rules that would turn a static value
    into a traced one (a branch made `jnp.where`) ask this of the value's later reads. A value assigned to a plain
    name is followed to that name's reads (`depth` assignments deep)."""
    site = value_use(rule, read)
    if site.kind == Use.HOST:
        return site.reason
    called = rule.get_metadata(ParentProvider, read, None)
    if isinstance(called, cst.Call) and called.func is read:
        return "called as a function"  # `ufunc = a if c else b` ... `ufunc(x)`: an array is never called
    member = _set_member(rule, called, read)
    if member is not None:
        # `free.remove(index)` after `index = jnp.where(hit, i, index)`: a set hashes its members, an array is
        # unhashable (pyclustering's k-means++ centers)
        return f"a set member (`{dotted_name(member.func)}(...)`), which must be hashable"
    if _identity_operand(called, read):
        # `small is True` after `small = jnp.where(c, False, small)`: an array is never the object `True`, so the
        # test is silently False (pyclustering's `captured_neuron is True`)
        return "compared by identity (`is`), which an array never passes"
    if site.assigned_name is not None:
        if depth == 0:
            return None
        for later in name_uses(rule, function, site.assignment, site.assigned_name):
            reason = python_value_use(rule, function, later, depth - 1)
            if reason is not None:
                line = rule.get_metadata(PositionProvider, later).start.line
                return f"assigned to `{site.assigned_name}`, which is {reason} (line {line})"
        return None
    parent = rule.get_metadata(ParentProvider, read, None)
    element = rule.get_metadata(ParentProvider, parent, None) if isinstance(parent, cst.Index) else None
    subscript = rule.get_metadata(ParentProvider, element, None) if element is not None else None
    if isinstance(subscript, cst.Subscript) and len(subscript.slice) == 1:
        statement = rule.get_metadata(ParentProvider, subscript, None)
        while statement is not None and not isinstance(statement, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            statement = rule.get_metadata(ParentProvider, statement, None)
        kind = _python_container(function_flow(rule, function), statement, subscript.value)
        if kind is not None:
            owner = dotted_name(subscript.value) or "a literal"
            return f"a key into the Python {kind} {f'`{owner}`' if owner != 'a literal' else owner}"
    if getattr(rule, "context", None) is not None and read_hashed(rule.context, function, read):  # type: ignore[attr-defined]
        # `flag = jnp.where(c, 2, flag)`, then `{0: "ok", 2: "nan"}.get(flag)`, `LABELS[flag]`, `flag in {0, 2}`
        return "a key of a Python dict or a set member, which must be hashable: an array is not"
    return None


_SET_METHODS = frozenset({"add", "discard", "remove"})


def _set_member(rule: cst.MetadataDependent, arg: Optional[cst.CSTNode], read: cst.CSTNode) -> Optional[cst.Call]:
    """The call `s.add(read)` / `s.discard(read)` / `s.remove(read)` that `read` is the argument of, else None."""
    if not (isinstance(arg, cst.Arg) and arg.value is read and arg.keyword is None):
        return None
    call = rule.get_metadata(ParentProvider, arg, None)
    if isinstance(call, cst.Call) and len(call.args) == 1 and isinstance(call.func, cst.Attribute) \
            and call.func.attr.value in _SET_METHODS and dotted_name(call.func):
        return call
    return None


def _identity_operand(comparison: Optional[cst.CSTNode], read: cst.CSTNode) -> bool:
    """Whether `read` is an operand of an `is`/`is not` in `comparison`."""
    if not isinstance(comparison, cst.Comparison):
        return False
    operands = [comparison.left, *(c.comparator for c in comparison.comparisons)]
    return any(isinstance(c.operator, (cst.Is, cst.IsNot)) and read in (operands[i], operands[i + 1])
               for i, c in enumerate(comparison.comparisons))


def python_value_after(
    rule: cst.MetadataDependent, function: cst.FunctionDef, node: cst.CSTNode, names
) -> Optional[tuple[str, str, int]]:
    """A name among `names` written inside the statement `node` (an `if`, a loop) whose value is read after it where
    only a Python value can stand (`python_value_use`): the name, why, and the line; else None. Rules that would
    turn the statement into `jnp.where`/`lax.cond`/a `lax` loop make that value a traced array: whether the values
    were traced (the code cannot be jitted either way) or wrongly taken for traced (the rewrite breaks working
    code), the statement is better left alone."""
    flow = function_flow(rule, function)
    span = rule.get_metadata(PositionProvider, node)
    statements = [s for s in walk.nodes(node) if isinstance(s, (cst.SimpleStatementLine, cst.BaseCompoundStatement))]
    for name in names:
        seen: set[int] = set()
        for statement in statements:
            if name not in flow.writes(statement):
                continue
            for read in flow.uses(statement, name):
                where = rule.get_metadata(PositionProvider, read)
                if id(read) in seen or span.start.line <= where.start.line <= span.end.line:
                    continue
                seen.add(id(read))
                reason = python_value_use(rule, function, read)
                if reason is not None:
                    return name, reason, where.start.line
    return None
