"""Shared pieces of the traced-branch rules (JX201 traced-if, JX202 traced-return).

What an `if`/`elif` chain looks like, what its branches do (assignments only, side effects, early exits), the
gradient guard of `jnp.where` (the "double where") and shape conflicts `jnp.where` would hide. Facts about
variables (liveness, definitions, tracedness) come from the analysis providers; nothing here computes dataflow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.activity import analyse
from jaxfix.analysis.loop_values import RESHAPING
from jaxfix.analysis.shapes import FunctionShapes
from jaxfix.analysis.tracedness import makes_object

# f(u) can give inf/NaN (or an infinite derivative) outside the branch's domain: guard u, the argument at
# `position`, with a value where f is finite and smooth.
UNSAFE_CALLS = {
    "log": (0, "1.0"), "log2": (0, "1.0"), "log10": (0, "1.0"), "sqrt": (0, "1.0"), "reciprocal": (0, "1.0"),
    "log1p": (0, "0.0"), "arcsin": (0, "0.0"), "arccos": (0, "0.0"), "arctanh": (0, "0.0"), "exp": (0, "0.0"),
    "power": (0, "1.0"), "divide": (1, "1.0"), "true_divide": (1, "1.0"), "float_power": (0, "1.0"),
}
PURE_METHODS = {
    "sum", "mean", "max", "min", "prod", "std", "var", "dot", "T", "reshape", "astype", "clip", "ravel", "flatten",
    "transpose", "squeeze", "cumsum", "cumprod", "any", "all", "argmax", "argmin", "round", "conj", "real", "imag",
}
EXPENSIVE = {
    "inv", "solve", "svd", "eig", "eigh", "qr", "cholesky", "lstsq", "det", "slogdet", "pinv", "matrix_power",
    "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "fftn", "einsum", "convolve", "correlate", "expm",
}
REDUCTIONS = {"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "norm", "median"}
RESHAPES = {"reshape", "ravel", "flatten", "squeeze", "transpose", "swapaxes", "repeat", "tile"}
SAFE_BUILTINS = {"abs", "max", "min", "float", "int", "round", "len"}


@dataclass
class Chain:
    tests: list[cst.BaseExpression]
    bodies: list[list[cst.BaseStatement]]  # one per test, plus the else body when there is one

    @property
    def has_else(self) -> bool:
        return len(self.bodies) > len(self.tests)


def statements_of(block: cst.BaseSuite) -> list[cst.BaseStatement]:
    if isinstance(block, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine(body=block.body)]
    return list(block.body)


def chain(node: cst.If) -> Chain:
    tests, bodies = [], []
    current: cst.If = node
    while True:
        tests.append(current.test)
        bodies.append(statements_of(current.body))
        if isinstance(current.orelse, cst.If):
            current = current.orelse
            continue
        if isinstance(current.orelse, cst.Else):
            bodies.append(statements_of(current.orelse.body))
        return Chain(tests, bodies)


def smalls(stmts: Sequence[cst.CSTNode]) -> list[cst.BaseSmallStatement]:
    return [s for stmt in stmts if isinstance(stmt, cst.SimpleStatementLine) for s in stmt.body]


def ends_in_return(stmts: Sequence[cst.BaseStatement]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], cst.SimpleStatementLine) and isinstance(stmts[-1].body[-1], cst.Return)


class _Exits(cst.CSTVisitor):
    """Returns, break/continue leaving the branch, yields, nested `if`s, and the first side effect."""

    def __init__(self, is_traced: Callable[[cst.BaseExpression], bool]) -> None:
        super().__init__()
        self.is_traced = is_traced
        self.returns = 0
        self.loop_exit = False
        self.nested_traced_if = False
        self.effect: Optional[str] = None
        self.raises = False
        self._loops = 0

    def _effect(self, reason: str) -> None:
        self.effect = self.effect or reason

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_For(self, node: cst.For) -> None:
        self._loops += 1

    def leave_For(self, node: cst.For) -> None:
        self._loops -= 1

    visit_While = visit_For  # type: ignore[assignment]
    leave_While = leave_For  # type: ignore[assignment]

    def visit_If(self, node: cst.If) -> None:
        if self.is_traced(node.test):
            self.nested_traced_if = True

    def visit_Return(self, node: cst.Return) -> None:
        self.returns += 1

    def visit_Break(self, node: cst.Break) -> None:
        self.loop_exit = self.loop_exit or self._loops == 0

    visit_Continue = visit_Break  # type: ignore[assignment]

    def visit_Yield(self, node: cst.Yield) -> None:
        self.loop_exit = True

    def visit_Raise(self, node: cst.Raise) -> None:
        self.raises = True
        self._effect("raises an exception")

    def visit_Assert(self, node: cst.Assert) -> None:
        self.raises = True
        self._effect("asserts")

    def visit_Expr(self, node: cst.Expr) -> None:
        value = node.value
        if isinstance(value, cst.Call):
            self._effect(f"calls `{cst.Module([]).code_for_node(value.func)}(...)` for its side effect")
        elif isinstance(value, (cst.Await, cst.Yield)):
            self._effect("yields or awaits")

    def visit_Global(self, node: cst.Global) -> None:
        self._effect("rebinds a global")

    visit_Nonlocal = visit_Global  # type: ignore[assignment]

    def visit_Del(self, node: cst.Del) -> None:
        self._effect("deletes a name or an item")

    def visit_With(self, node: cst.With) -> None:
        self._effect("enters a `with` block (I/O or a context)")

    def visit_Try(self, node: cst.Try) -> None:
        self._effect("handles exceptions")


def exits(stmts: Sequence[cst.CSTNode], is_traced: Callable[[cst.BaseExpression], bool]) -> _Exits:
    visitor = _Exits(is_traced)
    for stmt in stmts:
        walk.visit(stmt, visitor)
    in_place = [s for s in smalls_deep(stmts) if isinstance(s, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and _mutating(s)]
    if in_place and visitor.effect is None:
        target = in_place[0].targets[0].target if isinstance(in_place[0], cst.Assign) else in_place[0].target
        visitor.effect = f"mutates `{cst.Module([]).code_for_node(target).strip()}` in place"
    return visitor


def smalls_deep(stmts: Sequence[cst.CSTNode]) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Visitor(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
            found.extend(node.body)

    for stmt in stmts:
        walk.visit(stmt, Visitor())
    return found


def _mutating(small: cst.CSTNode) -> bool:
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]  # type: ignore[attr-defined]
    return any(_subscript_or_attribute(t) for t in targets)


def _subscript_or_attribute(target: cst.BaseExpression) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_subscript_or_attribute(e.value) for e in target.elements)
    if isinstance(target, cst.StarredElement):
        return _subscript_or_attribute(target.value)
    return isinstance(target, (cst.Subscript, cst.Attribute))


def definitely_written(stmts: Sequence[cst.BaseStatement]) -> set[str]:
    """Names bound on every path through `stmts` (simple statements, and `if`s that bind them in every branch)."""
    out: set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, cst.SimpleStatementLine):
            out |= analyse(stmt).writes
        elif isinstance(stmt, cst.If):
            c = chain(stmt)
            if c.has_else:
                out |= set.intersection(*(definitely_written(b) for b in c.bodies))
    return out


def assignments(stmts: Sequence[cst.BaseStatement]) -> Optional[list[tuple[str, cst.BaseExpression, Optional[cst.BaseBinaryOp]]]]:
    """(name, value, augmented operator) for a body of plain `name = value` / `name op= value` lines, else None."""
    if any(not isinstance(s, cst.SimpleStatementLine) for s in stmts):
        return None
    out = []
    for small in smalls(stmts):
        if isinstance(small, cst.Pass):
            continue
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            out.append((small.targets[0].target.value, small.value, None))
        elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
            out.append((small.target.value, small.value, None))
        elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
            out.append((small.target.value, small.value, small.operator))
        else:
            return None
    return out


def cheap_and_pure(node: cst.CSTNode, local_names: frozenset[str]) -> bool:
    """Side-effect free and cheap enough to evaluate on both sides of `jnp.where`."""
    ok = True

    class Visitor(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            nonlocal ok
            if isinstance(n, (cst.Lambda, cst.NamedExpr, cst.Yield, cst.Await, cst.List, cst.Dict, cst.Set,
                              cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.FormattedString,
                              cst.SimpleString, cst.ConcatenatedString)):
                ok = False
            elif isinstance(n, cst.Name) and n.value == "None":
                ok = False
            elif isinstance(n, cst.Call):
                ok = ok and _pure_call(n, local_names)
            return ok

    walk.visit(node, Visitor())
    return ok


def _pure_call(call: cst.Call, local_names: frozenset[str]) -> bool:
    func = call.func
    if isinstance(func, cst.Name):
        return func.value in SAFE_BUILTINS
    if not isinstance(func, cst.Attribute) or func.attr.value in EXPENSIVE:
        return False
    root = func.value
    while isinstance(root, cst.Attribute):
        if root.attr.value in EXPENSIVE:
            return False
        root = root.value
    if isinstance(root, cst.Name) and root.value not in local_names:
        return root.value in ("np", "jnp", "numpy", "onp", "math", "jax", "lax")  # a numeric module function
    return func.attr.value in PURE_METHODS  # a method of a local array


def _literal(node: cst.BaseExpression) -> Optional[float]:
    if isinstance(node, (cst.Integer, cst.Float)):
        return float(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _literal(node.expression)
        return None if inner is None else -inner
    return None


class _Guard(cst.CSTTransformer):
    """Wrap the inputs of operations that can blow up outside the branch: `log(u)` -> `log(wrap(u, "1.0"))`."""

    def __init__(self, wrap: Callable[[cst.BaseExpression, str], cst.BaseExpression]) -> None:
        super().__init__()
        self.wrap = wrap

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        func = updated.func
        name = func.attr.value if isinstance(func, cst.Attribute) else None
        if name not in UNSAFE_CALLS or isinstance(func.value, cst.Name) and func.value.value == "self":  # type: ignore[union-attr]
            return updated
        position, safe = UNSAFE_CALLS[name]
        positional = [a for a in updated.args if a.keyword is None]
        if len(positional) <= position or _literal(positional[position].value) is not None:
            return updated
        if name == "power" and len(positional) > 1 and _harmless_exponent(positional[1].value):
            return updated
        target = positional[position]
        args = [a.with_changes(value=self.wrap(a.value, safe)) if a is target else a for a in updated.args]
        return updated.with_changes(args=args)

    def leave_BinaryOperation(self, original: cst.BinaryOperation, updated: cst.BinaryOperation) -> cst.BaseExpression:
        op = updated.operator
        if isinstance(op, (cst.Divide, cst.FloorDivide, cst.Modulo)):
            value = _literal(updated.right)
            if value is None or value == 0:
                return updated.with_changes(right=self.wrap(updated.right, "1.0"))
        elif isinstance(op, cst.Power) and not _harmless_exponent(updated.right):
            base = _literal(updated.left)
            if base is None or base <= 0:
                return updated.with_changes(left=self.wrap(updated.left, "1.0"))
        return updated


def _harmless_exponent(node: cst.BaseExpression) -> bool:
    value = _literal(node)
    return value is not None and value >= 1 and float(value).is_integer() or value == 0


def guarded(node: cst.BaseExpression, wrap: Callable[[cst.BaseExpression, str], cst.BaseExpression]) -> cst.BaseExpression:
    return node.visit(_Guard(wrap))  # type: ignore[return-value]


def kind_conflict(values: Sequence[cst.BaseExpression]) -> Optional[str]:
    """Why these branch values cannot be one array (None, strings, lists, dicts, tuples of other lengths), or None."""
    if any(is_text(v) for v in values):
        return "a side is a string, and a traced condition can only choose between arrays"
    kinds = {_kind(v) for v in values}
    plain = {"array" if k == "name" else k for k in kinds}  # a name may hold anything: an array, or a tuple
    tuples = {k for k in kinds if k.startswith("tuple")}
    if len(plain) > 1 and plain & {"None", "str", "list", "dict"} or len(tuples) > 1 or (tuples and "array" in kinds) or "object" in kinds:
        return "the branches give values of different kinds (" + ", ".join(sorted(plain)) + ")"
    shaped = _shape_change(values)
    if shaped is not None:
        return shaped
    for marker in ("complex", "real"):
        marked = [v for v in values if _number_kind(v) == marker]
        if marked and len(marked) < len(values):
            return (f"one side is made {marker} (`{cst.Module([]).code_for_node(marked[0]).strip()}`) and another may "
                    "not be: `jnp.where` would give every result the complex dtype, and `lax.cond` rejects branches of "
                    "different dtypes")
    return None


SHAPE_METHODS = {"reshape", "ravel", "flatten", "squeeze", "transpose", "swapaxes", "T", "mT"}


def _shape_change(values: Sequence[cst.BaseExpression]) -> Optional[str]:
    """Why branch values visibly have different shapes (`x.T` or `x[:, None]` against `x`, `np.array([a, b])`
    against `np.array([a])`, a function that grows or shrinks its argument): `lax.cond` rejects branches of
    different shapes, and `jnp.where` would broadcast them."""
    def marker(v: cst.BaseExpression) -> Optional[str]:
        if isinstance(v, cst.Attribute) and v.attr.value in SHAPE_METHODS:
            return v.attr.value
        if isinstance(v, cst.Subscript) and any(
            isinstance(e.slice, cst.Index) and (
                isinstance(e.slice.value, cst.Name) and e.slice.value.value == "None"
                or isinstance(e.slice.value, cst.Attribute) and e.slice.value.attr.value == "newaxis")
            for e in v.slice
        ):
            return "axes " + cst.Module([]).code_for_node(v).split("[", 1)[-1]
        if isinstance(v, cst.Call):
            func = v.func
            short = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            if short in SHAPE_METHODS or short in RESHAPING:
                return cst.Module([]).code_for_node(v)
            if short in ("array", "asarray") and v.args and isinstance(v.args[0].value, (cst.List, cst.Tuple)):
                return f"{len(v.args[0].value.elements)} elements"  # type: ignore[attr-defined]
        return None

    markers = [marker(v) for v in values]
    if len(set(markers)) > 1:
        shown = next(v for v, m in zip(values, markers) if m is not None)
        return (f"the branches give values of different shapes (`{cst.Module([]).code_for_node(shown).strip()}` "
                "against another side): `lax.cond` needs one shape, and `jnp.where` would broadcast them")
    return None


COMPLEX_NAMES = {"complex", "complex64", "complex128", "cdouble", "csingle", "clongdouble"}


def _number_kind(v: cst.BaseExpression) -> Optional[str]:
    """"complex" for a value made complex here (`x + 0j`, `.astype(complex)`, `np.complex128(x)`), "real" for one
    made real here (`B.real`, `np.real(B)`, `abs(z)`), None when the expression does not say."""
    if isinstance(v, cst.Attribute) and v.attr.value in ("real", "imag"):
        return "real"
    if isinstance(v, cst.Call):
        func = v.func
        short = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        if short in ("real", "imag", "abs", "absolute"):
            return "real"
    if walk.contains(v, cst.Imaginary) or walk.name_values(v) & COMPLEX_NAMES:
        return "complex"
    return None


FLOAT_CALLS = {
    "sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "mean", "std", "var", "sin", "cos", "tan", "tanh",
    "arctan", "arctan2", "norm", "divide", "true_divide", "linspace", "hypot", "float", "float32", "float64",
}


FLOAT_ATTRIBUTES = {"inf", "nan", "pi", "e", "eps", "epsneg", "tiny", "resolution", "smallest_normal"}


def _maybe_float(v: cst.BaseExpression, params: Sequence[str]) -> bool:
    """Whether `v` is likely a float: a float literal, a division, a float-valued call (`np.sqrt`, `float(...)`),
    arithmetic on one of those, or a parameter (an array argument). A local name's dtype is not known."""
    if isinstance(v, cst.Float) or isinstance(v, cst.Attribute) and v.attr.value in FLOAT_ATTRIBUTES:
        return True  # 1.5, np.inf, xp.nan, math.pi, np.finfo(t).eps
    if isinstance(v, cst.Name):
        return v.value in params
    if isinstance(v, cst.UnaryOperation):
        return _maybe_float(v.expression, params)
    if isinstance(v, cst.BinaryOperation):
        return isinstance(v.operator, cst.Divide) or _maybe_float(v.left, params) or _maybe_float(v.right, params)
    if isinstance(v, cst.Call):
        func = v.func
        short = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        if short in ("max", "min", "abs", "maximum", "minimum", "where"):
            return any(_maybe_float(a.value, params) for a in v.args)
        return short in FLOAT_CALLS
    return False


def int_mix(values: Sequence[cst.BaseExpression], params: Sequence[str] = (),
            function: Optional[cst.FunctionDef] = None) -> Optional[str]:
    """The code of an int literal among `values` when another value is likely a float (`_maybe_float`): `lax.cond`
    needs the branches to give one dtype, and a Python int is int32 (`TypeError` at trace time). A parameter of
    `function` whose default is an int (`tol=0`, kept by the branch not taken) counts as that int."""
    defaults = {}
    if function is not None:
        every = (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)
        defaults = {p.name.value: p.default for p in every if p.default is not None}

    def literal(v: cst.BaseExpression) -> bool:
        if isinstance(v, cst.Name) and v.value in defaults:
            v = defaults[v.value]
        if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
            v = v.expression
        return isinstance(v, cst.Integer)

    ints = [defaults.get(v.value, v) if isinstance(v, cst.Name) else v for v in values if literal(v)]
    if ints and any(_maybe_float(v, params) for v in values):
        return cst.Module([]).code_for_node(ints[0]).strip()
    return None


def python_ints(function: cst.FunctionDef, parts: Sequence[cst.CSTNode]) -> Optional[str]:
    """Why the values in `parts` are likely Python ints, or None: they read a parameter whose default is an int
    (`k=1`), or floor-divide (`(hi + lo) // 2`). Python ints have no bound; `jnp.where`/`lax.cond` make them int32,
    where products past 2**31 wrap around silently."""
    every = (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)
    ints = {p.name.value for p in every if isinstance(p.default, cst.Integer)}
    for part in parts:
        for node in walk.nodes(part):
            if isinstance(node, cst.Name) and node.value in ints:
                return f"`{node.value}` defaults to an int"
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.FloorDivide):
                return f"`{cst.Module([]).code_for_node(node).strip()}` floor-divides"
    return None


def branch_values(stmts: Sequence[cst.BaseStatement], name: str) -> list[cst.BaseExpression]:
    """The values `stmts` assign to `name` with a plain `name = value` at their top level."""
    found = []
    for stmt in stmts:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
                    continue
                target, value = small.targets[0].target, small.value
                if isinstance(target, cst.Name) and target.value == name:
                    found.append(value)
                elif isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
                        and len(target.elements) == len(value.elements) \
                        and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
                    # `x, w = [], []`: each name its own value
                    found.extend(v.value for t, v in zip(target.elements, value.elements)
                                 if isinstance(t.value, cst.Name) and t.value.value == name)
    return found


def incoming(flow, node: cst.CSTNode, name: str) -> list[cst.BaseExpression]:
    """The values `name = value` statements give `name` that may reach `node` (those the flow can name)."""
    found = []
    for definition in flow.reaching(node, name):
        small = definition.node
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            found.append(small.value)
        elif isinstance(small, cst.Param) and small.default is not None:
            found.append(small.default)  # `def f(x, alpha=None)`: the caller may leave it None
    return found


def output_values(flow, node: cst.CSTNode, bodies: Sequence[Sequence[cst.BaseStatement]], name: str) -> list[cst.BaseExpression]:
    """The values `name` may hold after the `if` `node`: each branch's last plain assignment, or the values reaching
    the `if` where a branch leaves it; plus `None` when one of them is a parameter that defaults to None
    (`alpha = initial_alpha`)."""
    values: list[cst.BaseExpression] = []
    for body in bodies:
        mine = branch_values(body, name)
        # a branch that leaves `name` keeps what reaches the `if`; where no plain assignment names it (`x, w =
        # roots(n)`), the name itself stands for it: some value, maybe an array, not a list or None
        values.extend(mine[-1:] if mine else incoming(flow, node, name) or [cst.Name(name)])
    for value in list(values):
        if isinstance(value, cst.Name) and value.value in flow.params:
            values.extend(v for v in incoming(flow, node, value.value) if isinstance(v, cst.Name) and v.value == "None")
    return values


def holds_object(flow, node: cst.CSTNode, values: Sequence[cst.BaseExpression]) -> bool:
    """Whether one of `values`, or a value reaching `node` for a name among them, is an object made by a class."""
    for value in values:
        sources = incoming(flow, node, value.value) if isinstance(value, cst.Name) else [value]
        if any(makes_object(source) for source in sources):
            return True
    return False


def return_values(stmts: Sequence[cst.CSTNode]) -> list[cst.BaseExpression]:
    """The values these statements return (`None` for a bare `return`), outside nested functions."""
    found: list[cst.BaseExpression] = []

    class Visitor(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_Return(self, node: cst.Return) -> None:
            found.append(node.value if node.value is not None else cst.Name("None"))

    for stmt in stmts:
        walk.visit(stmt, Visitor())
    return found


def text_return(stmts: Sequence[cst.CSTNode]) -> bool:
    """Whether one of these statements returns a string (`is_text`), alone or in a tuple."""
    for stmt in stmts:
        for node in walk.nodes_of(stmt, cst.Return):
            value = node.value
            parts = [e.value for e in value.elements] if isinstance(value, cst.Tuple) else [value]
            if any(part is not None and is_text(part) for part in parts):
                return True
    return False


_TEXT_CALLS = {"str", "repr", "format", "ascii", "chr", "hex", "oct", "bin"}
_TEXT_MODULE_CALLS = {"re.escape", "re.sub", "os.path.join", "textwrap.dedent", "json.dumps"}


def is_text(node: cst.BaseExpression) -> bool:
    """Whether `node` is a string for sure: a literal, an f-string, `str(...)`, `"...".format(...)`, `" ".join(...)`,
    `"%d" % n`, `re.escape(...)`. `lax.cond`/`jnp.where` can only choose between arrays."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Modulo, cst.Add)):
        return is_text(node.left) or (isinstance(node.operator, cst.Add) and is_text(node.right))
    if isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Name):
            return func.value in _TEXT_CALLS
        if isinstance(func, cst.Attribute):
            if is_text(func.value):
                return True  # "...".format(...), ", ".join(...), "...".upper()
            base = func.value
            dotted = f"{base.value}.{func.attr.value}" if isinstance(base, cst.Name) else ""
            if isinstance(base, cst.Attribute) and isinstance(base.value, cst.Name):
                dotted = f"{base.value.value}.{base.attr.value}.{func.attr.value}"
            return dotted in _TEXT_MODULE_CALLS
    return False


def text_output(stmts: Sequence[cst.CSTNode], names: Sequence[str]) -> Optional[str]:
    """The first of `names` that these statements assign a string to (`is_text`), or None."""
    wanted = set(names)
    for stmt in stmts:
        for node in walk.nodes_of(stmt, cst.Assign):
            if any(isinstance(t.target, cst.Name) and t.target.value in wanted for t in node.targets) and is_text(node.value):
                return next(t.target.value for t in node.targets if isinstance(t.target, cst.Name) and t.target.value in wanted)
        for node in walk.nodes_of(stmt, cst.AnnAssign):
            if isinstance(node.target, cst.Name) and node.target.value in wanted and node.value is not None and is_text(node.value):
                return node.target.value
    return None


DTYPE_NAMES = {
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64",
    "complex64", "complex128", "bool_", "intp", "uintp", "longlong", "ulonglong", "double", "single", "half",
}


def _kind(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name) and node.value in ("None", "NotImplemented"):
        return "None"
    if isinstance(node, cst.Name) and node.value in ("self", "cls"):
        return "object"  # the instance itself (`x if p else self`): not an array
    last = node.attr.value if isinstance(node, cst.Attribute) else node.value if isinstance(node, cst.Name) else ""
    if last in DTYPE_NAMES:
        return "object"  # `np.int8`, `float32`: a dtype, which no branch of `lax.cond` can return
    if isinstance(node, cst.Name):
        return "name"
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return "str"
    if isinstance(node, (cst.List, cst.ListComp)):
        return "list"
    if isinstance(node, (cst.Dict, cst.DictComp)):
        return "dict"
    if isinstance(node, cst.Tuple):
        return f"tuple of {len(node.elements)}"
    return "array"


def broadcast_risk(
    shapes: FunctionShapes,
    tests: Sequence[cst.BaseExpression],
    values: Sequence[cst.BaseExpression],
    at: cst.CSTNode,
    assigned_to: Optional[str] = None,
) -> Optional[str]:
    """None when `jnp.where`/`jnp.select` of these branch values provably has the shape of the value Python picks
    (`jaxfix.analysis.shapes`), else why not, for the message. `assigned_to`: the name the result is assigned to
    in place of `at` (a 0-d loop carry proves it, see `FunctionShapes.carried_scalar`)."""
    found = shapes.select_problem(tests, values, at, assigned_to)
    if found is None:
        return None
    value, shape, other, other_shape = found
    code = cst.Module([]).code_for_node
    return (
        f"`{code(value).strip()}` ({shape.describe()}) and `{code(other).strip()}` ({other_shape.describe()}) may "
        f"differ in shape, and `jnp.where` would broadcast `{code(value).strip()}` instead of returning it as it is"
    )


def shape_conflict(values: Sequence[cst.BaseExpression]) -> Optional[str]:
    """Why these values cannot be one array of one shape (a syntactic check of a few patterns), or None. The branch
    rules ask `broadcast_risk` (the shape analysis) instead; the loop-exit rule still uses this."""
    conflict = kind_conflict(values)
    if conflict is not None:
        return conflict
    shapes = [_shape_key(v) for v in values]
    bases = {s[0] for s in shapes if s is not None}
    for base in bases:
        views = {s[1] for s in shapes if s is not None and s[0] == base}
        if INT_INDEXED in views and views - {INT_INDEXED} <= {"reduced to a scalar"}:
            continue  # x[i] and x.sum() are both scalars when x is 1-D: no proof of a conflict
        if len(views) > 1:
            return f"the branches give `{base}` with different shapes ({', '.join(sorted(views))})"
    return None


INT_INDEXED = "indexed by integers"


def _none(index: cst.BaseSlice) -> bool:
    return isinstance(index, cst.Index) and isinstance(index.value, cst.Name) and index.value.value == "None"


def _shape_key(node: cst.BaseExpression) -> Optional[tuple[str, str]]:
    """(`x`, how `x` is shaped) for `x`, `x[a:b]`, `x.sum()`, `np.sum(x)`: same base, different view -> conflict."""
    code = cst.Module([]).code_for_node
    if isinstance(node, cst.Name):
        return (node.value, "whole")
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name):
        if any(isinstance(e.slice, cst.Slice) or _none(e.slice) for e in node.slice):
            return (node.value.value, f"[{', '.join(code(e.slice) for e in node.slice)}]")
        if all(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, (cst.Integer, cst.UnaryOperation)) for e in node.slice):
            return (node.value.value, INT_INDEXED)  # x[0] vs x[1:3] or x: ranks differ, jnp.where would broadcast
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in RESHAPES:
        if isinstance(node.func.value, cst.Name) and node.func.value.value not in ("np", "jnp", "numpy"):
            return (node.func.value.value, code(node))
    if isinstance(node, cst.Attribute) and node.attr.value in ("T", "mT") and isinstance(node.value, cst.Name):
        return (node.value.value, code(node))
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in REDUCTIONS:
        if any(a.keyword is not None and a.keyword.value in ("axis", "keepdims") for a in node.args):
            return None
        if isinstance(node.func.value, cst.Name) and not node.args:
            if node.func.value.value in ("np", "jnp", "numpy"):
                return None
            return (node.func.value.value, "reduced to a scalar")
        positional = [a for a in node.args if a.keyword is None]
        if len(positional) == 1 and isinstance(positional[0].value, cst.Name):
            return (positional[0].value.value, "reduced to a scalar")
    return None


VIEWS = {"asarray", "reshape", "ravel", "view", "transpose", "squeeze", "T", "swapaxes", "expand_dims", "broadcast_to",
         "atleast_1d", "atleast_2d", "atleast_3d", "real", "imag", "diagonal", "flat"}


def shared_update(flow, node: cst.CSTNode, stmts: Sequence[cst.CSTNode]) -> Optional[str]:
    """`y += v` in a branch where `y` may be a parameter or another name's array (a view or alias): NumPy updates
    that array too, which a rewrite into `jnp.where`/`lax.cond` would not. Returns the reason, or None."""
    for small in smalls_deep(stmts):
        if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
            name = small.target.value
            if _may_share(flow, node, name, set()):
                op = cst.Module([]).code_for_node(small.operator).strip()
                return f"updates `{name}` in place (`{name} {op} ...`), and `{name}` may be a parameter or share its array with another name"
    return None


def _may_share(flow, stmt: cst.CSTNode, name: str, seen: set) -> bool:
    """Whether some definition of `name` reaching `stmt` may be a parameter's or another name's array; chains of
    `name OP= ...` are followed back (a loop's back edge is visited once)."""
    for definition in flow.reaching(stmt, name):
        owner = definition.node
        if definition.is_parameter:
            return True
        if owner in seen:
            continue
        seen.add(owner)
        if isinstance(owner, cst.AugAssign):
            if _may_share(flow, owner, name, seen):
                return True
        elif isinstance(owner, (cst.Assign, cst.AnnAssign)):
            if not _fresh(owner.value):
                return True
        else:
            return True  # a loop target, a `with` target, ...
    return False


def _fresh(value: Optional[cst.BaseExpression]) -> bool:
    if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation, cst.Integer, cst.Float, cst.Comparison)):
        return True
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
        return value.func.attr.value not in VIEWS
    return False


def effect_hint(found: _Exits) -> str:
    if found.raises:
        return "; to check a traced condition use `jax.experimental.checkify` (`checkify.check(pred, msg)`)"
    if found.effect and found.effect.startswith("calls `print"):
        return "; under `jit` print with `jax.debug.print`, outside the branch"
    return "; move it out of the branch, or keep this function out of `jit`"


