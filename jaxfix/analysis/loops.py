"""Loop facts for the loop rewrites (JX22x), computed from the dataflow and activity analyses.

- `loop_carried(flow, loop)`: the loop-carried variables of a `for`/`while` loop, after AutoGraph: names bound in
  the body (not the `for` target) that are live into the next iteration (live at the loop header) or live after
  the loop. Everything else the body reads is a loop invariant and can be closed over.
- `body_obstacles(body, loop_targets)`: what stops a body from becoming a pure JAX body function, as
  (node, reason) pairs: generators consumed with `next`, I/O, `break`/`continue`/`return`/`yield`, in-place updates
  of subscripts or attributes, `global`/`nonlocal`, method calls that mutate (`.append` is reported separately).
- `appends(body)`: `name.append(expr)` statements at the top level of the body.
- `own_jumps(body)`: the loop's own `break`/`continue` and every `return` in it.
- `carry_problem(flow, loop, carried)`: why the carried variables cannot be a loop carry.
- `argument_inputs(flow, loop, bound)`: the names the body indexes with a traced value while they may hold the
  caller's argument (a NumPy array, when the function is called eagerly): the rewrite reads `jnp.asarray` of them.
- `written_input(flow, function, inputs)`: one of those that the function also writes into in place, as the
  caller's object (a Python list the function swaps items of): no loop rule may read it through a JAX copy.
The values a loop's body works with (sequences indexed by the counter, shapes a carry keeps) are in
`jaxfix.analysis.loop_values`.
"""

from __future__ import annotations

import functools
from typing import Optional, Sequence

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.activity import analyse, parameter_names
from jaxfix.analysis.foreign_dtypes import is_text
from jaxfix.analysis.loop_values import carry_changes_shape, target_names
from jaxfix.analysis.static_args import concrete_uses
from jaxfix.analysis.static_params import PYTHON_VALUE_METHODS

IO_CALLS = {"print", "open", "input", "breakpoint"}
MUTATING_METHODS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "add",
                    "discard", "sort", "reverse", "fill", "resize", "itemset", "put", "write", "writelines"}


def _functional_update(func: cst.Attribute) -> bool:
    """`x.at[i].add(v)`: JAX's functional update, not a mutation."""
    base = func.value
    return isinstance(base, cst.Subscript) and isinstance(base.value, cst.Attribute) and base.value.attr.value == "at"


def body_statements(loop: cst.CSTNode) -> list[cst.BaseStatement]:
    return list(loop.body.body)  # type: ignore[attr-defined]


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


def static_index_uses(
    body: Sequence[cst.BaseStatement], index: str, keywords: bool = True, callees: Sequence[cst.CSTNode] = ()
) -> str:
    """Where `index` is used as a Python int (slice bounds, `range(index)`, `int(index)`, with `keywords` any keyword
    argument), as source text; "" if nowhere. A loop index that becomes traced after a rewrite cannot be used there,
    nor can a name the body computes from it (`ix = (i // dim) * bs` then `D[ix:ix + bs]`), nor can an argument to
    a function defined in `callees` (the module, the function around the loop) that uses that parameter so
    (`fill_axis(axis)` whose body says `axis=axis`)."""
    found: list[str] = []
    names = derived_names(body, index)
    functions = {
        f.name.value: f for root in callees
        for f in (root.body if isinstance(root, cst.Module) else walk.nodes_of(root, cst.FunctionDef))
        if isinstance(f, cst.FunctionDef)
    }

    def reads(node: cst.CSTNode) -> bool:
        return not names.isdisjoint(analyse(node).read_names)

    class Visitor(cst.CSTVisitor):
        def visit_Slice(self, node: cst.Slice) -> None:
            for part in (node.lower, node.upper, node.step):
                if part is not None and reads(part):
                    found.append("a slice bound")

        def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
            if isinstance(node.operator, SHIFTS) and (reads(node.left) or reads(node.right)):
                # `column << (offset * bits)`: a Python int keeps an unsigned or narrow integer array's dtype, a
                # traced int32 index promotes it (uint32 << int32 is int32), and the carry changes type
                found.append(f"a bit shift (`{cst.Module([]).code_for_node(node)}`), whose integer dtype a traced index changes")

        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value in STATIC_INT_CALLS:
                if any(reads(a.value) for a in node.args):
                    found.append(f"`{node.func.value}(...)`")
            elif keywords and any(a.keyword is not None and reads(a.value) for a in node.args):
                found.append("a keyword argument")
            elif isinstance(node.func, cst.Name) and node.func.value in functions:
                callee = functions[node.func.value]
                needed = concrete_params(callee)
                params = parameter_names(callee)
                for position, arg in enumerate(node.args):
                    param = arg.keyword.value if arg.keyword is not None else params[position] if position < len(params) and not arg.star else None
                    if param in needed and reads(arg.value):
                        found.append(f"`{node.func.value}(...)`, which needs its `{param}` concrete")

    for stmt in body:
        walk.visit(stmt, Visitor())
    return found[0] if found else ""


SHIFTS = (cst.LeftShift, cst.RightShift)  # not &, |, ^: on booleans (masks, done flags) they keep the dtype


@functools.lru_cache(maxsize=64)  # per file: the engine clears it (`_PER_FILE_CACHES`)
def concrete_params(function: cst.FunctionDef) -> frozenset[str]:
    """The parameters `function` uses where JAX needs a Python value (a shape, an axis, a slice bound)."""
    return frozenset(concrete_uses(function))


def derived_names(body: Sequence[cst.BaseStatement], name: str) -> set[str]:
    """`name` and the names `body` assigns from it, directly or through one another (`ix, iy = i // n, i % n`)."""
    assigns = [a for stmt in body for a in walk.nodes_of(stmt, cst.Assign)]
    names = {name}
    grew = True
    while grew:
        grew = False
        for node in assigns:
            if names.isdisjoint(analyse(node.value).read_names):
                continue
            for target in node.targets:
                new = walk.name_values(target.target) - names if isinstance(target.target, (cst.Name, cst.Tuple, cst.List)) else set()
                if new:
                    names |= new
                    grew = True
    return names


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


def argument_inputs(flow, loop: cst.CSTNode, bound: Sequence[str], attributes: bool = False) -> list[str]:
    """The names a `lax` body made of `loop`'s body would index with a traced value (a subscript reading the loop's
    `bound` names, or a name the body assigns: the carry and what is computed from it) and close over (the body
    does not assign them), while they may hold the caller's argument: a parameter's definition reaches the loop.
    Called eagerly with a NumPy array (tslearn's `X[i]`), NumPy takes the tracer for an index and raises
    `TracerArrayConversionError`; `jnp.asarray(X)`, bound before the body, is indexed instead. The same for a name
    bound to an object's attribute (`parents = self.parents`). A `for` target and
    a carry are JAX arrays already (`lax` converts them). With `attributes`, an object's attribute indexed so
    (`self.D[i, j]`, pymoo's TSP, whose `D` is SciPy's NumPy array) is given too, as its text (`"self.D"`), when the
    body binds neither the object nor the attribute."""
    body = body_statements(loop)
    written = flow.writes(body)
    traced = set(bound) | written
    found: list[str] = []
    parts = [loop.body, loop.test] if isinstance(loop, cst.While) else [loop.body]  # (a `while` test is traced too)
    for sub in (s for part in parts for s in walk.nodes_of(part, cst.Subscript)):  # type: ignore[attr-defined]
        elements = list(sub.slice)  # type: ignore[attr-defined]
        root = sub.value  # type: ignore[attr-defined]
        while isinstance(root, cst.Subscript):  # `fxy[i][j]`: NumPy's `fxy[i]` takes the traced `j` next (nitime)
            elements.extend(root.slice)
            root = root.value
        name = root.value if isinstance(root, cst.Name) else None
        if attributes and name is None and object_attribute(root) and not (walk.name_values(root) & written):
            name = cst.Module([]).code_for_node(root).strip()
            if name not in found and any(traced & walk.name_values(e.slice) for e in elements) and not any(
                    isinstance(t, cst.Attribute) and cst.Module([]).code_for_node(t).strip() == name
                    for part in parts for t in _assigned_targets(part)):
                found.append(name)
            continue
        if name is None or name in found or name in traced:
            continue
        if any(traced & walk.name_values(e.slice) for e in elements) and any(
                d.is_parameter or _bound_to_attribute(d.node) or _argument_made(flow, d.node, set())
                for d in flow.reaching(loop, name)):  # type: ignore[attr-defined]
            found.append(name)
    return sorted(found)




def written_input(flow, function: cst.FunctionDef, inputs: Sequence[str]) -> Optional[tuple[str, cst.CSTNode]]:
    """(input, statement) for the first of `inputs` (what `argument_inputs` gives: names and attribute texts) that
    `function` writes into in place while it holds the caller's object (`array[i], array[j] = array[j], array[i]`
    on a parameter, `p[i] = r` with `p = self.parents`, `self.D[i] = v`, `items.sort()`): a change the caller sees,
    which the in-place rules report rather than rewrite, so the object stays what the caller passed (a Python list,
    a NumPy array). A `lax` body that reads it through `jnp.asarray`, made before the loop, reads a copy: taken again
    on every pass of an enclosing loop (the whole list converted each time), impossible for a list of tuples, and a
    stale snapshot wherever the write falls between the copy and the read (deap's Hoare partition). None otherwise."""
    if not inputs:
        return None
    code = cst.Module([]).code_for_node
    wanted = set(inputs)

    def roots(target: cst.BaseExpression) -> list[cst.BaseExpression]:
        if isinstance(target, (cst.Tuple, cst.List)):
            return [r for e in target.elements for r in roots(e.value)]
        if isinstance(target, cst.StarredElement):
            return roots(target.value)
        if not isinstance(target, (cst.Subscript, cst.Attribute)):
            return []
        found = []
        while isinstance(target, cst.Subscript):
            target = target.value
            found.append(target)
        if isinstance(target, cst.Attribute):  # `obj.x = v` changes `obj`; `self.D[i] = v` changes `self.D`
            found.append(target.value)
        return found

    lines = [*walk.nodes_of(function, cst.SimpleStatementLine), *walk.nodes_of(function, cst.SimpleStatementSuite)]
    for small in (small for line in lines for small in line.body):  # type: ignore[attr-defined]
        if flow.knows(small):  # (not a nested function's)
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                [small.target] if isinstance(small, (cst.AugAssign, cst.AnnAssign)) else \
                [small.target] if isinstance(small, cst.Del) else []
            changed = [r for t in targets for r in roots(t)]
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Attribute) \
                    and small.value.func.attr.value in MUTATING_METHODS and not _functional_update(small.value.func):
                changed.append(small.value.func.value)
            for root in changed:
                if isinstance(root, cst.Name) and root.value in wanted:
                    if any(d.is_parameter or _bound_to_attribute(d.node) for d in flow.reaching(small, root.value)):
                        return root.value, small
                elif isinstance(root, cst.Attribute) and code(root).strip() in wanted:
                    return code(root).strip(), small
    return None


def written_input_problem(rule, flow, function: cst.FunctionDef, inputs: Sequence[str]) -> Optional[str]:
    """`written_input` as the reason a loop rule gives for leaving the loop alone, or None."""
    from jaxfix.analysis.positions import PositionProvider

    found = written_input(flow, function, inputs)
    if found is None:
        return None
    name, stmt = found
    line = rule.get_metadata(PositionProvider, stmt).start.line
    return (f"the body reads `{name}` with a traced index, and line {line} writes into `{name}` in place, a change to "
            f"the caller's object that stays: `{name}` remains what the caller passed (a Python list, a NumPy array), "
            "and the body would read a `jnp.asarray` copy of it instead (converted again on every pass, impossible for "
            "a list of tuples); keep the loop in Python")


def _argument_made(flow, node: Optional[cst.CSTNode], seen: set) -> bool:
    """`bits = x.reshape(-1, n)`, `y = x[1:] * 2.0`, `b = np.reshape(x, s)` with `x` a parameter: an array made from
    the caller's argument by array methods, attributes, indexing, arithmetic or `reshape` has its kind, a NumPy array
    when the function is called eagerly with one (`jnp.reshape` of a NumPy array is its `.reshape` method, a NumPy
    array: scikit-dsp-comm's `pcm_decode`)."""
    if not isinstance(node, cst.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name) \
            or node in seen or len(seen) > 8:
        return False
    seen.add(node)

    def made(value: cst.BaseExpression) -> bool:
        if isinstance(value, cst.Name):
            return any(d.is_parameter or _argument_made(flow, d.node, seen) for d in flow.reaching(node, value.value))
        if isinstance(value, cst.Attribute):
            return value.attr.value in ("T", "mT", "real", "imag", "flat") and made(value.value)
        if isinstance(value, cst.Subscript):
            return made(value.value)
        if isinstance(value, cst.BinaryOperation):
            return made(value.left) or made(value.right)
        if isinstance(value, cst.UnaryOperation):
            return made(value.expression)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and not any(a.star for a in value.args):
            method, receiver = value.func.attr.value, value.func.value
            if method == "reshape" and isinstance(receiver, cst.Name) and receiver.value in ("np", "numpy", "jnp") \
                    and value.args and value.args[0].keyword is None:
                return made(value.args[0].value)  # `np.reshape(x, s)`, `jnp.reshape(x, s)`
            return method not in PYTHON_VALUE_METHODS and not (isinstance(receiver, cst.Name) and receiver.value in (
                "np", "numpy", "jnp", "math", "self")) and made(receiver)
        return False

    return made(node.value)


def object_attribute(node: cst.CSTNode) -> bool:
    """`self.D`, `obj.table`: an attribute of a name, not an array's own (`x.T`, `x.real`, `x.at`)."""
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.attr.value not in (
        "T", "mT", "real", "imag", "at", "flat")


def _assigned_targets(part: cst.CSTNode) -> list[cst.BaseExpression]:
    """Every target `part` assigns (`a = ...`, `a += ...`, `a: t = ...`, items of tuple targets, `for` targets)."""
    found: list[cst.BaseExpression] = []
    for node in walk.walk(part):
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else \
            [node.target] if isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For)) else []
        while targets:
            t = targets.pop()
            if isinstance(t, (cst.Tuple, cst.List)):
                targets += [e.value for e in t.elements]
            else:
                found.append(t)
    return found


def _bound_to_attribute(node: Optional[cst.CSTNode]) -> bool:
    """`parents = self.parents`: an object's array, which may be a NumPy array as well as a caller's argument (ase's
    `DisjointSet.find`)."""
    return isinstance(node, cst.Assign) and isinstance(node.value, cst.Attribute) and isinstance(node.value.value, cst.Name)


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
        found = flow.reaching(loop, name)
        if any(isinstance(d.node, cst.Assign) and is_text(d.node.value) for d in found):
            return f"`{name}` holds text, which no loop carry can"
        inside = {id(n) for n in walk.walk(loop)}
        if any(isinstance(d.node, cst.Assign) and id(d.node) not in inside and isinstance(d.node.value, cst.Name)
               and d.node.value.value == "None" for d in found):  # (pyriemann's `prev_loss = None` before the loop)
            return (f"`{name}` may be `None` before the loop and the body gives it another value: a loop carry keeps "
                    "the structure it starts with; start it with a value of the type it ends with")
        if any(isinstance(d.node, cst.Assign) and _list_value(d.node.value) for d in found) and (any(
                isinstance(a.target, cst.Name) and a.target.value == name and isinstance(a.operator, cst.AddAssign)
                for a in walk.nodes_of(loop, cst.AugAssign)) or any(  # type: ignore[attr-defined]
                any(isinstance(t.target, cst.Name) and t.target.value == name for t in a.targets)  # type: ignore[attr-defined]
                and _joins_lists(a.value) for a in walk.nodes_of(loop, cst.Assign))):  # type: ignore[attr-defined]
            # (`order = [x + p for p in order] + [y + p for p in order[::-1]]`: pywt's graycode order)
            return (f"`{name}` is a Python list that the loop extends (`{name} += ...`, or `+` of lists), and a loop "
                    "carry keeps one shape")
    growing = carry_changes_shape(loop, carried)
    if growing is not None:
        name, how = growing
        return f"`{name}` changes shape from one iteration to the next ({how}), and a loop carry keeps one shape"
    return None


def _joins_lists(value: cst.BaseExpression) -> bool:
    """`[a] + [b]`, `xs + [v]`: a `+` with a list display, comprehension or `list(...)` on one side."""
    return any(isinstance(op.operator, cst.Add) and (_list_value(op.left) or _list_value(op.right))  # type: ignore[attr-defined]
               for op in walk.nodes_of(value, cst.BinaryOperation))


def _list_value(value: cst.BaseExpression) -> bool:
    """`[]`, `[a, b]`, `[f(v) for v in xs]`, `list(xs)`: a Python list."""
    return isinstance(value, (cst.List, cst.ListComp)) or isinstance(value, cst.Call) and isinstance(
        value.func, cst.Name) and value.func.value == "list"


# ---- jumps ---------------------------------------------------------------------------------------------------------
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
