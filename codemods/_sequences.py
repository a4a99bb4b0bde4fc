"""For JX222: what a `for` loop iterates over, and what `lax.scan` must scan instead.

`lax.scan(f, init, xs)` slices every leaf of the pytree `xs` along its leading axis. That is the loop only when `xs`
is one array: a Python list of arrays is a pytree of separate leaves, so each step would get a list of rows (and
`a * 2` would repeat that list). So the scanned expression is

- `xs` itself when it is provably an array: an array annotation (`np.ndarray`, `NDArray[...]`, `jax.Array`), or a
  use that a list would reject (`.shape`, `.ndim`, `.T`, `.astype(...)`, `xs[:, 0]`, `xs - 1`, `-xs`, `xs < 0`, a
  `jnp` function taking it as an array), or a local bound to an array-valued expression. NumPy functions are no
  evidence: `np.mean(list_of_arrays)` works;
- `jnp.asarray(xs)` when `xs` may be a Python list (a parameter without such evidence): a no-op for an array, the
  stacked array for a list of equally shaped arrays, and a loud `ValueError` for a ragged list (so JX222 makes the
  fix unsafe: the Python loop took such a list);
- `jnp.stack(xs)` for a local Python list whose elements provably share one shape: `np.split(x, 4)` (equal
  sections, or NumPy raises), `[x[i] for i in range(n)]`, `list(x)` of an array, a display of elementwise functions
  of one array (`[x, -x, 2 * x]`);
- `jnp.stack(xs)` for a NumPy tuple of arrays of one shape (`np.nonzero(m)`, `np.meshgrid(a, b)`);
- nothing (a report) for a list whose elements may differ in shape (`[x, x[:2]]`, `np.array_split`, `.append`, a
  list or tuple a function of the module returns), a generator (a call of a function of the module that yields) and
  a one-pass iterator (`map`, `filter`, `iter`, ...), directly or through a name bound to one.

A list that arrives as an argument also costs compilations: under `jit` each element is a separate argument, so the
function retraces for every list length and element shape. `Sequence.note` says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.masks import dotted
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.tracedness import Tracedness, tracedness

ARRAY_ONLY_ATTRIBUTES = {
    "shape", "ndim", "dtype", "T", "size", "astype", "reshape", "ravel", "flatten", "transpose", "squeeze", "sum",
    "mean", "std", "var", "max", "min", "prod", "any", "all", "argmax", "argmin", "cumsum", "clip", "dot", "at",
    "item", "tolist", "real", "imag", "nbytes", "itemsize",
}
ARRAY_ANNOTATIONS = {"ndarray", "NDArray", "Array", "ArrayImpl"}
LIST_ANNOTATIONS = {"list", "List", "tuple", "Tuple", "Sequence", "Iterable"}
ACCEPTS_LISTS = {"asarray", "array", "stack", "concatenate", "concat", "vstack", "hstack", "dstack", "column_stack", "block",
                 "einsum", "broadcast_arrays", "meshgrid"}
# operators a Python list rejects whatever the other operand (`+` concatenates and `*` repeats lists)
LIST_REJECTS = (cst.Subtract, cst.Divide, cst.FloorDivide, cst.Power, cst.MatrixMultiply, cst.Modulo,
                cst.LeftShift, cst.RightShift, cst.BitAnd, cst.BitOr, cst.BitXor)
ORDERING = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)


@dataclass(frozen=True)
class Sequence:
    scanned: Optional[str]  # what lax.scan scans; None: no rewrite (elements may differ in shape)
    note: str = ""  # why there is no rewrite
    arguments: tuple[str, ...] = ()  # parameters that may be Python lists (see `argument_note`)


def sequence(
    rule, function: cst.FunctionDef, flow, loop: cst.For, expr: cst.BaseExpression, seen: frozenset[str] = frozenset()
) -> Optional[Sequence]:
    """How to scan `expr` (the iterable of `loop`, or one argument of `zip`/`enumerate`); None: out of scope.
    `seen`: the names whose values are being followed (a name defined from itself, `x = list(x)`, is out of scope)."""
    code = rule.code(expr)
    if isinstance(expr, (cst.List, cst.Tuple)):
        if not any(tracedness(rule, e.value) is Tracedness.TRACED for e in expr.elements):
            return None
        if _same_shapes([e.value for e in expr.elements]):
            return Sequence(f"{rule.jnp}.stack({code})")
        return Sequence(None, _ragged(code))
    if isinstance(expr, cst.ListComp):
        return _comprehension(rule, expr)
    if isinstance(expr, cst.Call):
        listed = _list_call(rule, function, flow, loop, expr, seen) or _iterator_call(rule, function, expr)
        if listed is not None:
            return listed
    if tracedness(rule, expr) is not Tracedness.TRACED and not isinstance(expr, cst.Name):
        return None
    if isinstance(expr, cst.Call):
        array = numpy_name(rule, expr.func) or dotted(expr.func).startswith(f"{rule.jnp}.")
        return Sequence(code if array else f"{rule.jnp}.asarray({code})")
    if isinstance(expr, cst.Name):
        return _name(rule, function, flow, loop, expr.value, seen)
    if isinstance(expr, (cst.Attribute, cst.Subscript)):
        base = expr.value
        while isinstance(base, (cst.Attribute, cst.Subscript)):
            base = base.value
        if isinstance(expr, cst.Attribute) and expr.attr.value == "T" or (
                isinstance(base, cst.Name) and _name_is_array(rule, function, flow, loop, base.value, seen)):
            return Sequence(code)
        # a part of a parameter that may be a Python list (`arrays[1:]`) may be one too: it counts as that argument
        found = _name(rule, function, flow, loop, base.value, seen) if isinstance(base, cst.Name) else None
        return Sequence(f"{rule.jnp}.asarray({code})", arguments=found.arguments if found is not None else ())
    return Sequence(f"{rule.jnp}.asarray({code})")


def _comprehension(rule, comp: cst.ListComp) -> Optional[Sequence]:
    """`[a[i] for i in range(...)]`: one shape (a list `a` of different shapes makes `jnp.stack` raise)."""
    code = rule.code(comp)
    if tracedness(rule, comp.elt) is not Tracedness.TRACED:
        return None
    target, element = comp.for_in.target, comp.elt
    if (comp.for_in.inner_for_in is None and not comp.for_in.ifs and isinstance(target, cst.Name)
            and isinstance(comp.for_in.iter, cst.Call) and dotted(comp.for_in.iter.func) == "range"
            and isinstance(element, cst.Subscript) and isinstance(element.value, cst.Name) and len(element.slice) == 1
            and isinstance(element.slice[0].slice, cst.Index) and isinstance(element.slice[0].slice.value, cst.Name)
            and element.slice[0].slice.value.value == target.value):
        return Sequence(f"{rule.jnp}.stack({code})")
    return Sequence(None, _ragged(code))


def _ragged(code: str) -> str:
    return (f"`{code}` is a Python list whose arrays may differ in shape, so it cannot become one scanned array: stack "
            "them (padding to one shape if needed) and use `lax.scan` or `jax.vmap`")


def _list_call(rule, function, flow, loop, call: cst.Call, seen: frozenset[str]) -> Optional[Sequence]:
    """The scan of `list(x)` (that of `x`), `np.split(x, n)`, `np.array_split(...)`; None when not one of those."""
    args = [a.value for a in call.args if a.keyword is None and not a.star]
    code = rule.code(call)
    if isinstance(call.func, cst.Name) and call.func.value in ("list", "tuple") and len(call.args) == 1 and args:
        inner = sequence(rule, function, flow, loop, args[0], seen)  # the rows of an array, or the list itself
        # `list(map(f, X))`, `list(gen(X))`: a list of what an iterator gave, arrays that may differ in shape
        return Sequence(None, _ragged(code)) if inner is not None and inner.scanned is None else inner
    name = (numpy_name(rule, call.func) or "").split(".")[-1] or (
        dotted(call.func).split(".")[-1] if dotted(call.func).startswith(f"{rule.jnp}.") else "")
    if name == "split" and len(args) >= 2 and isinstance(args[1], cst.Integer):
        if tracedness(rule, args[0]) is not Tracedness.TRACED:
            return None
        return Sequence(f"{rule.jnp}.stack({code})")  # equal sections: NumPy raises otherwise
    kind = tuple_kind(name, call)
    if name in ("split", "array_split", "hsplit", "vsplit", "dsplit") or kind == "unequal":
        return Sequence(None, _ragged(code))
    if kind == "equal":
        if tracedness(rule, call) is not Tracedness.TRACED:
            return None
        return Sequence(f"{rule.jnp}.stack({code})")  # a tuple of arrays of one shape (`np.nonzero(x)`: one per axis)
    return None


# NumPy functions that give a tuple of arrays of one shape (a loop takes them one by one; `lax.scan` would slice
# each of them), and ones whose arrays may differ in shape (`np.histogram`'s counts and edges)
EQUAL_TUPLES = {"nonzero", "meshgrid", "broadcast_arrays", "unravel_index", "triu_indices", "tril_indices",
                "diag_indices", "modf", "frexp", "divmod"}
UNEQUAL_TUPLES = {"histogram", "histogram2d", "histogramdd", "gradient", "ix_", "atleast_1d", "atleast_2d", "atleast_3d"}


def tuple_kind(name: str, call: cst.Call) -> Optional[str]:
    """"equal" for a NumPy call `name` giving a tuple of arrays of one shape (`np.nonzero(x)`, `np.where(m)`, a
    dense `np.meshgrid`), "unequal" for one whose arrays may differ in shape (`np.histogram`, a sparse
    `np.meshgrid`, `np.atleast_1d(a, b)`), None for one that gives one array (`np.atleast_1d(x)`) or no tuple."""
    positional = [a for a in call.args if a.keyword is None]
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    if name.startswith("atleast_"):
        return "unequal" if len(positional) > 1 or any(a.star for a in positional) else None
    if name == "meshgrid" and "sparse" in keywords:
        return "unequal"
    if name in EQUAL_TUPLES or name == "where" and len(positional) == 1 and len(call.args) == 1:
        return "equal"
    return "unequal" if name in UNEQUAL_TUPLES else None


# builtins that give one-pass iterators: no `len`, and `jnp.asarray` rejects them
ONE_PASS = {"iter", "map", "filter", "reversed", "zip", "enumerate"}


def _iterator_call(rule, function: cst.FunctionDef, call: cst.Call) -> Optional[Sequence]:
    """A call that gives a one-pass iterator (`map(...)`, a generator function of the module: its body yields) or a
    Python list or tuple a function of the module returns (`return np.split(...)`, `return [x, x[:2]]`, `return
    a, b`): no `len`, or arrays that may differ in shape, so `lax.scan` cannot take it (`jnp.asarray(parts)` of
    mne's `np.split` clusters raised). None for other calls."""
    code = rule.code(call)
    func = call.func
    if not isinstance(func, cst.Name):
        return None
    if func.value in ONE_PASS:
        return Sequence(None, f"`{code}` is a one-pass iterator, not an array: it has no length and cannot be stacked; "
                        "iterate over the array itself")
    callee = _local_function(rule, function, func.value)
    if callee is None:
        return None
    if _yields(callee):
        return Sequence(None, f"`{code}` calls a generator function (`{func.value}` yields): a generator has no length "
                        "and cannot be stacked into one scanned array; build the array (`jnp.stack` of equal shapes) or "
                        "keep the Python loop")
    listed = _returned_list(rule, callee)
    if listed is not None:
        return Sequence(None, f"`{code}` returns a Python list or tuple (`{listed}` in `{func.value}`), whose arrays "
                        "may differ in shape, so it cannot become one scanned array: stack them (padding to one shape "
                        "if needed) and use `lax.scan` or `jax.vmap`")
    return None


def _local_function(rule, function: cst.FunctionDef, name: str) -> Optional[cst.FunctionDef]:
    """The function `name` names in `function`: one nested in it, else a top-level one of the module."""
    for node in walk.nodes_of(function.body, cst.FunctionDef):
        if node.name.value == name:  # type: ignore[attr-defined]
            return node  # type: ignore[return-value]
    for stmt in rule.context.module.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
            return stmt
    return None


def _own_nodes(fn: cst.FunctionDef, kind: type) -> list[cst.CSTNode]:
    """The nodes of `kind` in `fn`'s body, not in functions or lambdas nested in it."""
    inner = [n for k in (cst.FunctionDef, cst.Lambda) for n in walk.nodes_of(fn.body, k)]
    skipped = {id(m) for n in inner for m in walk.nodes_of(n, kind)}
    return [n for n in walk.nodes_of(fn.body, kind) if id(n) not in skipped]


def _yields(fn: cst.FunctionDef) -> bool:
    return bool(_own_nodes(fn, cst.Yield))


def _returned_list(rule, fn: cst.FunctionDef) -> Optional[str]:
    """The code of a value `fn` returns that is a Python list or tuple (a display, a comprehension, `list(...)`, a
    NumPy split or tuple of arrays, or a local bound to one), else None."""
    def listed(value: cst.BaseExpression) -> bool:
        if isinstance(value, (cst.List, cst.Tuple, cst.ListComp)) or _is_list_value(rule, value):
            return True
        name = (numpy_name(rule, value.func) or "").split(".")[-1] if isinstance(value, cst.Call) else ""
        return isinstance(value, cst.Call) and tuple_kind(name, value) is not None

    bound: dict[str, list[cst.BaseExpression]] = {}
    for assign in _own_nodes(fn, cst.Assign):
        for target in assign.targets:  # type: ignore[attr-defined]
            if isinstance(target.target, cst.Name):
                bound.setdefault(target.target.value, []).append(assign.value)  # type: ignore[attr-defined]
    for ret in _own_nodes(fn, cst.Return):
        value = ret.value  # type: ignore[attr-defined]
        if value is None:
            continue
        values = bound.get(value.value, []) if isinstance(value, cst.Name) else [value]
        if any(listed(v) for v in values):
            return rule.code(value)
    return None


def _name(rule, function, flow, loop, name: str, seen: frozenset[str] = frozenset()) -> Optional[Sequence]:
    if name in seen:
        return None  # defined from itself (`x = list(x)` before a loop over `x`)
    seen = seen | {name}
    definitions = flow.reaching(loop, name)
    if not definitions or flow.maybe_undefined(loop, name):
        return None
    if any(d.is_parameter for d in definitions):
        if len(definitions) > 1:
            return Sequence(f"{rule.jnp}.asarray({name})", arguments=(name,))
        param = definitions[0].node
        annotation = _annotation(param)
        rebound = name in flow.writes(list(function.body.body))  # then a use may be of another value
        if annotation in ARRAY_ANNOTATIONS or not rebound and _array_evidence(rule, function, name):
            return Sequence(name)
        if tracedness(rule, cst.Name(name)) is not Tracedness.TRACED and annotation not in LIST_ANNOTATIONS:
            return None
        if annotation in LIST_ANNOTATIONS:
            return Sequence(f"{rule.jnp}.stack({name})", arguments=(name,))
        return Sequence(f"{rule.jnp}.asarray({name})", arguments=(name,))
    values = [d.node.value if isinstance(d.node, (cst.Assign, cst.AnnAssign)) else None for d in definitions]
    if None in values:
        return Sequence(f"{rule.jnp}.asarray({name})") if tracedness(rule, cst.Name(name)) is Tracedness.TRACED else None
    kinds = [sequence(rule, function, flow, loop, v, seen) for v in values]  # type: ignore[arg-type]
    if any(k is None for k in kinds):
        return None
    listed = [isinstance(v, (cst.List, cst.Tuple, cst.ListComp, cst.Call)) and _is_list_value(rule, v) for v in values]
    if any(listed):
        if _changed(function, name):
            return Sequence(None, _ragged(name) + f" (`{name}` is changed in place, so its elements are not known)")
        if not all(listed) or any(k.scanned is None for k in kinds):  # type: ignore[union-attr]
            return Sequence(None, next((k.note for k in kinds if k and k.note), _ragged(name)))
        return Sequence(f"{rule.jnp}.stack({name})")
    blocked = next((k for k in kinds if k.scanned is None), None)  # type: ignore[union-attr]
    if blocked is not None:  # `coefs = _gen(X)`, `it = map(f, X)`, `parts = _clusters(x)` (mne)
        return Sequence(None, blocked.note or _ragged(name))
    if all(k.scanned == rule.code(v) for k, v in zip(kinds, values)):  # type: ignore[union-attr,arg-type]
        return Sequence(name)  # every reaching value is an array
    return Sequence(f"{rule.jnp}.asarray({name})")


LIST_METHODS = {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "__setitem__"}


def _changed(function: cst.FunctionDef, name: str) -> bool:
    """`name` is changed in place somewhere in `function` (`.append(...)`, `name[i] = ...`, `name += ...`)."""
    found: list[bool] = []

    class Visitor(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name \
                    and func.attr.value in LIST_METHODS:
                found.append(True)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            target = node.target
            if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and target.value.value == name:
                found.append(True)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name) and node.target.value == name:
                found.append(True)

    walk.visit(function.body, Visitor())
    return bool(found)


def _is_list_value(rule, value: cst.BaseExpression) -> bool:
    if isinstance(value, (cst.List, cst.Tuple, cst.ListComp)):
        return True
    if isinstance(value, cst.Call):
        if isinstance(value.func, cst.Name) and value.func.value in ("list", "tuple"):
            return True
        name = (numpy_name(rule, value.func) or dotted(value.func)).split(".")[-1]
        return name in ("split", "array_split", "hsplit", "vsplit", "dsplit")
    return False


def _name_is_array(rule, function, flow, loop, name: str, seen: frozenset[str] = frozenset()) -> bool:
    found = _name(rule, function, flow, loop, name, seen)
    return found is not None and found.scanned == name


def argument_note(names: tuple[str, ...]) -> str:
    """The diagnostic for parameters that may be Python lists of arrays."""
    listed = ", ".join(f"`{n}`" for n in names)
    return (f"{listed} may be {'a Python list' if len(names) == 1 else 'Python lists'} of arrays: the scan stacks "
            f"{'it' if len(names) == 1 else 'them'} (a list of different shapes raises), and under `jit` every element "
            "of a list argument is a separate argument, so the function is traced again for every list length and "
            "element shape: pass one stacked array (pad ragged data and use `jax.vmap`)")


def _annotation(param: cst.CSTNode) -> str:
    annotation = param.annotation.annotation if isinstance(param, cst.Param) and param.annotation else None
    if isinstance(annotation, cst.SimpleString) and isinstance(annotation.evaluated_value, str):
        try:
            annotation = cst.parse_expression(annotation.evaluated_value)
        except cst.ParserSyntaxError:
            return ""
    while isinstance(annotation, cst.Subscript):
        annotation = annotation.value
    text = dotted(annotation) if annotation is not None else ""
    return text.split(".")[-1]


def _same_shapes(elements: list[cst.BaseExpression]) -> bool:
    """Every element is the same name or an elementwise function of it with scalars (`x`, `-x`, `2 * x`)."""
    roots = {_elementwise_root(e) for e in elements}
    return len(roots) == 1 and None not in roots


def _elementwise_root(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.UnaryOperation):
        return _elementwise_root(node.expression)
    if isinstance(node, cst.BinaryOperation) and not isinstance(node.operator, cst.MatrixMultiply):
        sides = [s for s in (node.left, node.right) if not isinstance(s, (cst.Integer, cst.Float))]
        return _elementwise_root(sides[0]) if len(sides) == 1 else None
    return None


def _array_evidence(rule, function: cst.FunctionDef, name: str) -> bool:
    """A use of `name` in `function` that a Python list would reject (see the module docstring)."""
    found: list[bool] = []

    def named(node: cst.CSTNode) -> bool:
        return isinstance(node, cst.Name) and node.value == name

    class Visitor(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if named(node.value) and node.attr.value in ARRAY_ONLY_ATTRIBUTES:
                found.append(True)

        def visit_Subscript(self, node: cst.Subscript) -> None:
            if named(node.value) and len(node.slice) > 1:
                found.append(True)

        def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
            if (named(node.left) or named(node.right)) and isinstance(node.operator, LIST_REJECTS):
                found.append(True)
            other = node.right if named(node.left) else node.left if named(node.right) else None
            if other is not None and (isinstance(other, cst.Float) or isinstance(node.operator, cst.Add) and isinstance(other, cst.Integer)):
                found.append(True)

        def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
            if named(node.expression) and isinstance(node.operator, (cst.Minus, cst.BitInvert)):
                found.append(True)

        def visit_Comparison(self, node: cst.Comparison) -> None:
            parts = [node.left, *(c.comparator for c in node.comparisons)]
            if any(named(p) for p in parts) and any(isinstance(c.operator, ORDERING) for c in node.comparisons) and any(
                    isinstance(p, (cst.Integer, cst.Float)) for p in parts):
                found.append(True)

        def visit_Call(self, node: cst.Call) -> None:
            text = dotted(node.func)
            if text.startswith(f"{rule.jnp}.") and text.split(".")[-1] not in ACCEPTS_LISTS and any(
                    named(a.value) for a in node.args):
                found.append(True)

    walk.visit(function.body, Visitor())
    return bool(found)
