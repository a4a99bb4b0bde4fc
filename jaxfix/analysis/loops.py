"""Loop facts for the loop rewrites (JX22x), computed from the dataflow and activity analyses.

- `loop_carried(flow, loop)`: the loop-carried variables of a `for`/`while` loop, after AutoGraph: names bound in
  the body (not the `for` target) that are live into the next iteration (live at the loop header) or live after
  the loop. Everything else the body reads is a loop invariant and can be closed over.
- `body_obstacles(body, loop_targets)`: what stops a body from becoming a pure JAX body function, as
  (node, reason) pairs: generators consumed with `next`, I/O, `break`/`continue`/`return`/`yield`, in-place updates
  of subscripts or attributes, `global`/`nonlocal`, method calls that mutate (`.append` is reported separately).
- `appends(body)`: `name.append(expr)` statements at the top level of the body.
- `own_jumps(body)`: the loop's own `break`/`continue` and every `return` in it.
- `indexed_sequence(...)`: a Python list or tuple indexed by the loop counter (a traced counter cannot do that).
- `shape_class` / `same_shape` / `reshaped_names` / `scalar_names`: syntactic proofs that values have one shape,
  for `jnp.where` between them (which would otherwise broadcast).
"""

from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.activity import Activity, _Collector, analyse

IO_CALLS = {"print", "open", "input", "breakpoint"}
MUTATING_METHODS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "add",
                    "discard", "sort", "reverse", "fill", "resize", "itemset", "put", "write", "writelines"}


def _functional_update(func: cst.Attribute) -> bool:
    """`x.at[i].add(v)`: JAX's functional update, not a mutation."""
    base = func.value
    return isinstance(base, cst.Subscript) and isinstance(base.value, cst.Attribute) and base.value.attr.value == "at"


def body_statements(loop: cst.CSTNode) -> list[cst.BaseStatement]:
    return list(loop.body.body)  # type: ignore[attr-defined]


def target_names(loop: cst.CSTNode) -> frozenset[str]:
    """The names a `for` loop binds on each iteration (empty for `while`)."""
    if not isinstance(loop, cst.For):
        return frozenset()
    activity = Activity()
    _Collector(activity).target(loop.target)
    return frozenset(activity.writes)


def loop_carried(flow, loop: cst.CSTNode) -> tuple[str, ...]:
    """Names modified in the body and live into the next iteration or after the loop, in first-write order."""
    target = target_names(loop)
    activity = analyse(body_statements(loop))
    ordered: list[str] = []
    for stmt in body_statements(loop):
        for name in sorted(analyse(stmt).writes):
            if name not in ordered:
                ordered.append(name)
    live = flow.live_in(loop) | flow.live_out(loop)
    return tuple(n for n in ordered if n in activity.writes and n not in target and n in live)


def appends(body: Sequence[cst.BaseStatement]) -> list[tuple[cst.SimpleStatementLine, str, cst.BaseExpression]]:
    """(statement, list name, appended expression) for each top-level `name.append(expr)` line."""
    found = []
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr):
            call = stmt.body[0].value
            if (
                isinstance(call, cst.Call)
                and isinstance(call.func, cst.Attribute)
                and isinstance(call.func.value, cst.Name)
                and call.func.attr.value == "append"
                and len(call.args) == 1
                and call.args[0].keyword is None
                and call.args[0].star == ""
            ):
                found.append((stmt, call.func.value.value, call.args[0].value))
    return found


class _Obstacles(cst.CSTVisitor):
    def __init__(self, allowed_appends: set[cst.CSTNode]) -> None:
        super().__init__()
        self.found: list[tuple[cst.CSTNode, str]] = []
        self.allowed = allowed_appends
        self.nested = 0  # loops inside the body: their break/continue are their own

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # a nested def runs only when called; its own body is its business

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Break(self, node: cst.Break) -> None:
        if not self.nested:
            self.found.append((node, "`break` leaves the loop early"))

    def visit_Continue(self, node: cst.Continue) -> None:
        if not self.nested:
            self.found.append((node, "`continue` skips the rest of the body"))

    def visit_Return(self, node: cst.Return) -> None:
        self.found.append((node, "`return` inside the loop ends the function early"))

    def visit_Yield(self, node: cst.Yield) -> None:
        self.found.append((node, "`yield` makes the loop a generator"))

    def visit_Global(self, node: cst.Global) -> None:
        self.found.append((node, "`global` state is changed in the body"))

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.found.append((node, "`nonlocal` state is changed in the body"))

    def visit_For(self, node: cst.For) -> None:
        self.nested += 1
        if node.orelse is not None:
            self.found.append((node, "a nested `for ... else`"))

    def visit_While(self, node: cst.While) -> None:
        self.nested += 1
        if node.orelse is not None:
            self.found.append((node, "a nested `while ... else`"))

    def leave_For(self, original_node: cst.For) -> None:
        self.nested -= 1

    def leave_While(self, original_node: cst.While) -> None:
        self.nested -= 1

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Name) and func.value == "next":
            self.found.append((node, "`next(...)` consumes an iterator, which cannot be traced into a loop body"))
        elif isinstance(func, cst.Name) and func.value in IO_CALLS:
            self.found.append((node, f"`{func.value}(...)` does I/O, which would run once at trace time"))
        elif isinstance(func, cst.Attribute) and func.attr.value in MUTATING_METHODS and node not in self.allowed and not _functional_update(func):
            what = func.attr.value
            if what == "append":
                self.found.append((node, "a list is appended to but not stacked into an array after the loop"))
            else:
                self.found.append((node, f"`.{what}(...)` mutates an object in place"))

    def _targets(self, node: cst.CSTNode, targets: Sequence[cst.BaseExpression]) -> None:
        for target in targets:
            if isinstance(target, (cst.Subscript, cst.Attribute)):
                self.found.append((node, "in-place update of an array or object (rewrite it with `.at[...]` first)"))
            elif isinstance(target, (cst.Tuple, cst.List)):
                self._targets(node, [e.value for e in target.elements])

    def visit_Assign(self, node: cst.Assign) -> None:
        self._targets(node, [t.target for t in node.targets])

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._targets(node, [node.target])

    def visit_Del(self, node: cst.Del) -> None:
        self.found.append((node, "`del` in the body"))


def body_obstacles(body: Sequence[cst.BaseStatement], allowed_appends: Sequence[cst.CSTNode] = ()) -> list[tuple[cst.CSTNode, str]]:
    """What prevents `body` from becoming a pure body function (see the module docstring)."""
    visitor = _Obstacles(set(allowed_appends))
    for stmt in body:
        walk.visit(stmt, visitor)
    return visitor.found


STATIC_INT_CALLS = {"range", "int", "float", "bool", "len", "list", "tuple", "str", "slice", "enumerate", "zip"}


def static_index_uses(body: Sequence[cst.BaseStatement], index: str) -> str:
    """Where `index` is used as a Python int (slice bounds, `range(index)`, `int(index)`), as source text; "" if
    nowhere. A loop index that becomes traced after a rewrite cannot be used there."""
    found: list[str] = []

    class Visitor(cst.CSTVisitor):
        def visit_Slice(self, node: cst.Slice) -> None:
            for part in (node.lower, node.upper, node.step):
                if part is not None and index in analyse(part).read_names:
                    found.append("a slice bound")

        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value in STATIC_INT_CALLS:
                if any(index in analyse(a.value).read_names for a in node.args):
                    found.append(f"`{node.func.value}(...)`")
            elif any(a.keyword is not None and index in analyse(a.value).read_names for a in node.args):
                found.append("a keyword argument")

    for stmt in body:
        walk.visit(stmt, Visitor())
    return found[0] if found else ""


def branch_tests(body: Sequence[cst.BaseStatement]) -> list[cst.BaseExpression]:
    """The tests of the `if`/`elif`/`while` statements in `body` (not inside nested functions)."""
    found: list[cst.BaseExpression] = []

    class Visitor(cst.CSTVisitor):
        def visit_If(self, node: cst.If) -> None:
            found.append(node.test)

        def visit_While(self, node: cst.While) -> None:
            found.append(node.test)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    for stmt in body:
        walk.visit(stmt, Visitor())
    return found


def traced_tests(rule: cst.MetadataDependent, body: Sequence[cst.BaseStatement]) -> list[cst.BaseExpression]:
    """Branch tests in `body` that are not STATIC (a Python `if` cannot decide them inside a traced body)."""
    from jaxfix.analysis.tracedness import Tracedness, tracedness

    return [test for test in branch_tests(body) if tracedness(rule, test) is not Tracedness.STATIC]


STACKERS = ("stack", "array", "asarray")


def stack_calls(rule: cst.MetadataDependent, function: cst.FunctionDef, name: str) -> list[cst.Call]:
    """The calls `np.stack(name)` / `np.array(name)` / `np.asarray(name)` (or their `jnp` forms) in `function`, with
    `name` as the only argument: where a list built by appends is turned into an array."""
    from jaxfix.analysis.numpy_names import numpy_name

    jnp_name = getattr(rule, "jnp", "jnp")
    found: list[cst.Call] = []

    class Visitor(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
                return
            arg = node.args[0].value
            if not (isinstance(arg, cst.Name) and arg.value == name and isinstance(node.func, cst.Attribute)):
                return
            qualified = numpy_name(rule, node.func) or ""
            text = cst.Module([]).code_for_node(node.func)
            if qualified in {f"numpy.{s}" for s in STACKERS} or text in {f"{jnp_name}.{s}" for s in STACKERS}:
                found.append(node)

    walk.visit(function, Visitor())
    return found


def shared_inplace_updates(flow, loop: cst.CSTNode) -> list[str]:
    """Names updated with an augmented assignment in the body (`acc += v`, in place on a NumPy array) whose value
    before the loop may be shared with the caller or another name: a parameter, or a plain alias `acc = other`.
    NumPy's in-place update is visible through the other name; a functional loop carry would not be."""
    updated = analyse(body_statements(loop)).mutates & analyse(body_statements(loop)).writes
    shared = []
    for name in sorted(updated):
        for definition in flow.reaching(loop, name):
            node = definition.node
            if definition.is_parameter or (isinstance(node, cst.Assign) and isinstance(node.value, (cst.Name, cst.Attribute, cst.Subscript))):
                shared.append(name)
                break
    return shared


def loops_in_functions(tree, text: str) -> bool:
    """Second-level pre-check (`jaxfix.precheck`) for the loop rules: some function contains a `for` or `while`."""
    import ast

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(isinstance(inner, (ast.For, ast.While)) for inner in ast.walk(node)):
                return True
    return False


def carry_problem(flow, loop: cst.CSTNode, carried) -> Optional[str]:
    """Why the carried variables of `loop` cannot become a loop carry (for every loop rule), or None: an augmented
    update of an array the caller or an alias shares, or a carried name with no value before the loop."""
    shared = shared_inplace_updates(flow, loop)
    if shared:
        return (f"the augmented assignment to `{shared[0]}` updates in place an array that the caller or another "
                "name may share (NumPy's update is visible there, a loop carry's is not)")
    for name in carried:
        if flow.maybe_undefined(loop, name):
            return f"`{name}` has no value before the loop, so it cannot start the carry"
    growing = carry_changes_shape(loop, carried)
    if growing is not None:
        name, how = growing
        return f"`{name}` changes shape from one iteration to the next ({how}), and a loop carry keeps one shape"
    return None


# NumPy functions whose result has another shape than their first argument
RESHAPING = {
    "polymul", "polyadd", "polysub", "polyder", "polyint", "convolve", "correlate", "concatenate", "append", "delete",
    "insert", "hstack", "vstack", "dstack", "column_stack", "row_stack", "stack", "pad", "resize", "outer", "kron",
    "repeat", "tile", "trim_zeros", "unique", "nonzero", "flatnonzero", "argwhere", "compress", "extract", "diff",
    "block", "r_", "c_",
}


def carry_changes_shape(loop: cst.CSTNode, carried) -> Optional[tuple[str, str]]:
    """A carried name the loop body rebinds to a value of another shape: the result of a NumPy function that
    grows or shrinks its argument (`b = np.polymul(b, p)`, `a = np.delete(a, 0)`), or a slice of itself
    (`a = a[1:]`). Under `jit` a static loop unrolls and allows this; a `lax` loop raises at trace time."""
    names = set(carried)
    body = getattr(loop, "body", None)
    if body is None:
        return None
    for assign in walk.nodes_of(body, cst.Assign):
        targets = [t.target.value for t in assign.targets if isinstance(t.target, cst.Name) and t.target.value in names]  # type: ignore[attr-defined]
        if not targets:
            continue
        value = assign.value  # type: ignore[attr-defined]
        if isinstance(value, cst.Call):
            func = value.func
            short = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            if short in RESHAPING:
                return targets[0], f"`{short}`"
        if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and value.value.value in targets and any(
            isinstance(e.slice, cst.Slice) and (e.slice.lower is not None or e.slice.upper is not None) for e in value.slice
        ):
            return targets[0], "a slice of itself"
    return None


# ---- jumps, Python sequences indexed by the counter, shapes that a loop keeps -------------------------------------
def ending_jump(stmt: cst.CSTNode) -> Optional[str]:
    """"break"/"continue" when `stmt` is an `if` (no else) whose block ends with that jump."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None or not isinstance(stmt.body, cst.IndentedBlock):
        return None
    last = stmt.body.body[-1]
    if isinstance(last, cst.SimpleStatementLine):
        if isinstance(last.body[-1], cst.Break):
            return "break"
        if isinstance(last.body[-1], cst.Continue):
            return "continue"
        if isinstance(last.body[-1], cst.Return) and last.body[-1].value is not None:
            return "return"
    return None


def own_jumps(body: Sequence[cst.BaseStatement]) -> list[cst.CSTNode]:
    """The `break`/`continue` statements of this loop (not of loops nested in it) and every `return` in `body`
    (a `return` leaves all loops), outside nested functions, in source order."""
    found: list[cst.CSTNode] = []

    class Visitor(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.depth = 0

        def visit_For(self, node: cst.For) -> None:
            self.depth += 1

        def leave_For(self, original_node: cst.For) -> None:
            self.depth -= 1

        visit_While = visit_For  # type: ignore[assignment]
        leave_While = leave_For  # type: ignore[assignment]

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_Break(self, node: cst.Break) -> None:
            if not self.depth:
                found.append(node)

        visit_Continue = visit_Break  # type: ignore[assignment]

        def visit_Return(self, node: cst.Return) -> None:
            found.append(node)

    for stmt in body:
        walk.visit(stmt, Visitor())
    return found


SEQUENCE_CALLS = {"list", "tuple", "sorted", "reversed"}
LIST_ANNOTATIONS = {"list", "List", "tuple", "Tuple", "Sequence", "Iterable"}
ARRAY_EVIDENCE = {"shape", "ndim", "dtype", "astype", "T", "reshape", "at", "size", "sum", "mean", "max", "min", "dot"}


def indexed_sequence(analysis, function: cst.FunctionDef, body: Sequence[cst.BaseStatement], index: str,
                     stop: cst.BaseExpression) -> Optional[tuple[str, bool]]:
    """A name indexed by `index` in `body` that is (True) a Python list or tuple: bound to a list/tuple display,
    comprehension or `list(...)`, or a parameter annotated as a sequence; or (False) may be one: a parameter that
    bounds the loop as `len(name)` with no sign of being an array (`.shape`, `x[i, j]`, arithmetic on it).
    `analysis` is the function's FunctionTracedness. Under a lax loop the index is traced, and a traced index
    cannot index a list (`TypeError`); None when no such name is indexed."""
    indexed: list[str] = []

    attributes: list[str] = []

    class Visitor(cst.CSTVisitor):
        def visit_Subscript(self, node: cst.Subscript) -> None:
            if any(index in analyse(e.slice).read_names for e in node.slice):
                if isinstance(node.value, cst.Name):
                    indexed.append(node.value.value)
                elif isinstance(node.value, cst.Attribute) and isinstance(node.value.value, cst.Name) and node.value.value.value in ("self", "cls"):
                    attributes.append(f"self.{node.value.attr.value}")

    for stmt in body:
        walk.visit(stmt, Visitor())
    if attributes:  # `self.df[k]`: an object's attribute, often a Python list (jaxfix cannot see which)
        return attributes[0], False
    params = {p.name.value: p for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    for name in dict.fromkeys(indexed):
        values = analysis.assigned_values(name)
        if any(_sequence_value(v) for v in values):
            return name, True
        param = params.get(name)
        if param is None or values:
            continue
        annotation = param.annotation.annotation if param.annotation is not None else None
        while isinstance(annotation, cst.Subscript):
            annotation = annotation.value
        if isinstance(annotation, (cst.Name, cst.Attribute)) and _last_name(annotation) in LIST_ANNOTATIONS:
            return name, True
        if _is_len_of(stop, name) and not _array_evidence(function, name):
            return name, False
    return None


def _sequence_value(value: Optional[cst.BaseExpression]) -> bool:
    if isinstance(value, (cst.List, cst.Tuple, cst.ListComp)):
        return True
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Multiply, cst.Add)):
        return _sequence_value(value.left) or _sequence_value(value.right)  # `[k[0]] * n`, `xs + [x]`
    if isinstance(value, cst.Attribute) and value.attr.value == "shape":
        return True  # a tuple of ints
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "shape":
        return True  # np.shape(x)
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in SEQUENCE_CALLS


def _last_name(node: cst.BaseExpression) -> str:
    return node.attr.value if isinstance(node, cst.Attribute) else node.value  # type: ignore[attr-defined]


def _is_len_of(stop: cst.BaseExpression, name: str) -> bool:
    return (isinstance(stop, cst.Call) and isinstance(stop.func, cst.Name) and stop.func.value == "len"
            and len(stop.args) == 1 and isinstance(stop.args[0].value, cst.Name) and stop.args[0].value.value == name)


def _array_evidence(function: cst.FunctionDef, name: str) -> bool:
    found: list[cst.CSTNode] = []

    def named(node: cst.CSTNode) -> bool:
        return isinstance(node, cst.Name) and node.value == name

    class Visitor(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if named(node.value) and node.attr.value in ARRAY_EVIDENCE:
                found.append(node)

        def visit_Subscript(self, node: cst.Subscript) -> None:
            if named(node.value) and (len(node.slice) > 1 or isinstance(node.slice[0].slice, cst.Slice)):
                found.append(node)

        def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
            if named(node.left) or named(node.right):
                found.append(node)

    walk.visit(function.body, Visitor())
    return bool(found)


ELEMENTWISE = (cst.Add, cst.Subtract, cst.Multiply)


def reshaped_names(body: Sequence[cst.BaseStatement]) -> frozenset[str]:
    """Names the body may give another shape: every name it binds except those only updated as `n = <n combined
    element-wise with numbers>` or `n op= <a number>` (`s += x[i]` may turn a Python float into a row)."""
    writes = analyse(list(body)).writes
    return frozenset(n for n in writes if not all(_keeps_shape(w, n) for w in _writes_of(body, n)))


def _keeps_shape(write: cst.CSTNode, name: str) -> bool:
    value = getattr(write, "value", None)
    return isinstance(write, (cst.Assign, cst.AugAssign)) and value is not None and shape_class(value) in (name, SCALAR)


def _writes_of(body: Sequence[cst.BaseStatement], name: str) -> list[cst.CSTNode]:
    """The statements in `body` that bind `name` (assignments, loop and `with` targets, `:=`)."""
    found: list[cst.CSTNode] = []

    class Visitor(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.NamedExpr)) and name in analyse(node).writes:
                found.append(node)
            elif isinstance(node, (cst.For, cst.With)) and name in _binds(node):
                found.append(node)
            return True

    for stmt in body:
        walk.visit(stmt, Visitor())
    return found


def _binds(node: cst.CSTNode) -> frozenset[str]:
    activity = Activity()
    if isinstance(node, cst.For):
        _Collector(activity).target(node.target)
    elif isinstance(node, cst.With):
        for item in node.items:
            if item.asname is not None:
                _Collector(activity).target(item.asname.name)
    return frozenset(activity.writes)


SCALAR = "<scalar>"


def scalar_names(function: cst.FunctionDef, loop: cst.CSTNode) -> frozenset[str]:
    """Names that hold a 0-d value wherever they are bound in `function`: numbers, `True`/`False`, a `range` loop
    index, and element-wise arithmetic of those (the greatest fixed point over the bindings); parameters never."""
    bindings: dict[str, list[Optional[cst.BaseExpression]]] = {}

    class Visitor(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                for name in analyse(target.target).read_names if not isinstance(target.target, cst.Name) else ():
                    bindings.setdefault(name, []).append(None)
                if isinstance(target.target, cst.Name):
                    bindings.setdefault(target.target.value, []).append(node.value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name):
                bindings.setdefault(node.target.value, []).append(node.value)

        def visit_For(self, node: cst.For) -> None:
            counts = isinstance(node.iter, cst.Call) and isinstance(node.iter.func, cst.Name) and node.iter.func.value == "range"
            for name in target_names(node):
                bindings.setdefault(name, []).append(cst.Integer("0") if counts and isinstance(node.target, cst.Name) else None)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function

    walk.visit(function, Visitor())
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    other = analyse(list(function.body.body)).writes - set(bindings)  # bound some other way (with, walrus, import)
    scalars = {n for n in bindings if n not in params and n not in other}  # greatest fixed point: `k = k + 1`
    changed = True
    while changed:
        known = frozenset(scalars | {"True", "False"})
        drop = {n for n in scalars if not all(v is not None and shape_class(v, known) == SCALAR for v in bindings[n])}
        scalars -= drop
        changed = bool(drop)
    return frozenset(scalars)


def shape_class(expr: cst.BaseExpression, scalars: frozenset[str] = frozenset()) -> Optional[str]:
    """The array whose shape `expr` provably has: `s`, `s * 2`, `-s + 1` -> "s"; numeric literals, `x.shape[k]`,
    `len(x)` and names in `scalars` -> SCALAR; None when unknown (a call, a subscript, a division, two different arrays)."""
    if isinstance(expr, (cst.Integer, cst.Float)) or _static_int(expr):
        return SCALAR
    if isinstance(expr, cst.Name):
        return SCALAR if expr.value in scalars else expr.value
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return shape_class(expr.expression, scalars)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, ELEMENTWISE):
        left, right = shape_class(expr.left, scalars), shape_class(expr.right, scalars)
        if left is None or right is None:
            return None
        return right if left == SCALAR else left if right in (SCALAR, left) else None
    return None


def _static_int(expr: cst.BaseExpression) -> bool:
    """`x.shape[k]`, `x.ndim`, `x.size`, `len(x)`: Python ints."""
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape":
        return len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index)
    if isinstance(expr, cst.Attribute) and expr.attr.value in ("ndim", "size"):
        return True
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "len"


def same_shape(values: Sequence[cst.BaseExpression], scalars: frozenset[str], reshaped: frozenset[str]) -> bool:
    """Whether `values` provably have one shape (so `jnp.where` between them cannot broadcast): one shape class
    for all, and no array of that class is reshaped by the loop body."""
    classes = {shape_class(v, scalars) for v in values}
    return len(classes) == 1 and None not in classes and not classes & reshaped


def counts_range(loop: cst.CSTNode) -> bool:
    """`for i in range(...)`: the target is an integer index."""
    call = getattr(loop, "iter", None)
    return (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "range"
            and isinstance(loop.target, cst.Name) and 1 <= len(call.args) <= 3)


def early_arithmetic(expr: cst.BaseExpression) -> bool:
    """Names and numbers combined with `+`, `-`, `*` (or a tuple of such): safe to evaluate early."""
    if isinstance(expr, cst.Tuple):
        return all(early_arithmetic(e.value) for e in expr.elements)
    if isinstance(expr, (cst.Name, cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return early_arithmetic(expr.expression)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply)):
        return early_arithmetic(expr.left) and early_arithmetic(expr.right)
    return False


