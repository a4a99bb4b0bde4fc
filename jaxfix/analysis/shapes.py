"""Shapes of values inside a function, relative to each other (conservative; for rewrites that broadcast).

`ShapeProvider` puts a `FunctionShapes` on every FunctionDef; rules call `function_shapes(rule, fn)` and ask
`shapes.of(expr, at)`: the shape class of `expr` evaluated at the start of statement `at` (default: the statement
holding `expr`). The rule must list `ShapeProvider` (it brings `DataflowProvider`). Classes:

- SCALAR ("0-d"): number literals, `True`/`False`, `np.pi`-like constants, calls of `math` functions,
  `float(..)`/`int(..)`/`bool(..)`/`complex(..)`/`len(..)`,
  `.item()`, `.size`/`.ndim`, full reductions without `axis`/`keepdims` (`x.sum()`, `np.mean(x)`,
  `np.linalg.norm(x)`), `not v`, `is`/`in` tests, and elementwise operations of 0-d values.
- like(v): the shape of the value of variable `v` at that point (`Ref`: the name and the definitions of it that
  reach the point, so `x` before and after `x = x[:2]` are different values): `v`, `-v`, `abs(v)`, `v.copy()`,
  `v.astype(..)`, `np.zeros_like(v)` (and the other `*_like`), `np.asarray(v)`, and elementwise arithmetic,
  comparisons and ufuncs (`np.sqrt`, `np.maximum`, `np.clip`, ...) of like(v) values with each other and with
  0-d values (broadcasting against `()` keeps the shape).
- like(v) less k axes: `v[0]`, `v[-1, 2]` (integer literals only): the shape of `v` without its first k axes.
- UNKNOWN: everything else (slices and other subscripts, `.T`, reshapes, reductions with `axis`, `@`, unknown calls). UNKNOWN is
  never equal to another shape, not even UNKNOWN.

A parameter annotated `float`, `int`, `bool` or `complex` is 0-d (its annotation says it is a Python number).
Loop bodies (the body function of a `lax.fori_loop` / `while_loop` / `scan`): see `jaxfix.analysis.loop_bodies`.

Local names are followed through their reaching definitions (`jaxfix.analysis.dataflow`, a few levels deep): a
name whose every definition is 0-d is SCALAR; one whose every definition is like(v) for the same `v` is like(v),
but only when those definitions are not inside a loop (in a loop, the same reaching definitions of `v` can be a
different value of `v` by the time the name is read); otherwise the name is like(itself).

`size_one(test, at)`: what a Python `if test:` proves. NumPy's `bool()` needs an array with exactly one element
(empty arrays raise), and a one-element result of elementwise operations needs every operand to have one
element, so the variables whose shape the test's elementwise operands have (`x` in `x < 0`, `2 * x + 1 > t`,
`np.isnan(x)`) have one element. Callers treat such values as 0-d; see `select_problem`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Optional, Sequence

import libcst as cst
from libcst.metadata import BatchableMetadataProvider

from jaxfix import walk
from jaxfix.analysis.dataflow import DataflowProvider, FunctionFlow
from jaxfix.imports import ModuleImports

if TYPE_CHECKING:
    from jaxfix.analysis.loop_bodies import LoopBody

REDUCTIONS = {
    "sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "amax", "amin", "median", "average", "ptp",
    "nansum", "nanmean", "nanmax", "nanmin", "nanprod", "nanstd", "nanvar", "nanmedian", "norm", "argmax", "argmin",
    "count_nonzero", "trace", "logsumexp",
}
METHOD_REDUCTIONS = {"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "ptp", "trace"}
REDUCTION_KEYWORDS = {"dtype", "ddof"}  # keywords that keep a full reduction 0-d
SAME_SHAPE_METHODS = {"copy", "astype", "conj", "conjugate", "round", "clip"}
LIKE_FUNCTIONS = {"zeros_like", "ones_like", "empty_like", "full_like", "copy", "asarray", "array", "round", "around"}
ELEMENTWISE = {
    "abs", "absolute", "fabs", "sqrt", "cbrt", "square", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
    "arctanh", "deg2rad", "rad2deg", "degrees", "radians", "sign", "floor", "ceil", "rint", "trunc", "negative",
    "positive", "reciprocal", "maximum", "minimum", "fmax", "fmin", "add", "subtract", "multiply", "divide",
    "true_divide", "floor_divide", "power", "float_power", "mod", "remainder", "fmod", "hypot", "copysign",
    "heaviside", "clip", "where", "isnan", "isinf", "isfinite", "isneginf", "isposinf", "signbit", "logical_not",
    "logical_and", "logical_or", "logical_xor", "real", "imag", "conj", "conjugate", "sinc", "logaddexp",
    "logaddexp2", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "nan_to_num",
}
SCALAR_BUILTINS = {"float", "int", "bool", "complex", "len"}
SCALAR_ATTRIBUTES = {"size", "ndim", "itemsize", "nbytes"}
CONSTANTS = {"pi", "e", "inf", "nan", "euler_gamma", "tau"}
SCALAR_ANNOTATIONS = {"float", "int", "bool", "complex"}  # the author's contract: a Python number
DEPTH = 3


@dataclass(frozen=True)
class Ref:
    """A variable's value at a point: its name and the ids of the definitions reaching the point."""

    name: str
    definitions: frozenset[int]


@dataclass(frozen=True)
class Shape:
    kind: str  # "0-d", "like", "unknown"
    ref: Optional[Ref] = None
    drop: int = 0  # like(v) indexed by `drop` integers: `v.shape[drop:]`

    def known_equal(self, other: "Shape") -> bool:
        return self.kind != "unknown" and self == other

    def describe(self) -> str:
        if self.kind == "0-d":
            return "0-d"
        if self.kind == "like":
            name = self.ref.name  # type: ignore[union-attr]
            return f"the shape of `{name}`" if not self.drop else f"the shape of `{name}[{', '.join(['0'] * self.drop)}]`"
        return "a shape the analysis cannot tell"


SCALAR = Shape("0-d")
UNKNOWN = Shape("unknown")


def _int_index(index: cst.BaseSlice) -> bool:
    value = index.value if isinstance(index, cst.Index) else None
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value = value.expression
    return isinstance(value, cst.Integer)


def like(ref: Ref) -> Shape:
    return Shape("like", ref)


def broadcast(shapes: Iterable[Shape]) -> Shape:
    """The class of an elementwise result: 0-d values do not change a shape; like(v) with like(v) is like(v)."""
    out = SCALAR
    for shape in shapes:
        if shape.kind == "unknown":
            return UNKNOWN
        if shape == SCALAR or shape == out:
            continue
        if out != SCALAR:
            return UNKNOWN
        out = shape
    return out


class _Statements(cst.CSTVisitor):
    """Maps each node of a function body to the statement the flow graph keys it by, and notes statements in loops."""

    def __init__(self) -> None:
        super().__init__()
        self.owner: dict[cst.CSTNode, cst.CSTNode] = {}
        self.in_loop: set[cst.CSTNode] = set()
        self._stack: list[cst.CSTNode] = []
        self._loops = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            self._stack.append(node)
            if self._loops:
                self.in_loop.add(node)
        elif self._stack:
            self.owner[node] = self._stack[-1]
        if isinstance(node, (cst.For, cst.While)):
            self._loops += 1
        # a nested def has its own FunctionShapes; in a lambda or comprehension names may be its own parameters
        return not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp))

    def on_leave(self, node: cst.CSTNode) -> None:
        if isinstance(node, (cst.For, cst.While)):
            self._loops -= 1
        if self._stack and self._stack[-1] is node:
            self._stack.pop()


class FunctionShapes:
    def __init__(
        self,
        function: cst.FunctionDef,
        flow: FunctionFlow,
        array_modules: dict[str, str],
        math: frozenset[str] = frozenset(),
        parent: Optional["FunctionShapes"] = None,
        lax: frozenset[str] = frozenset(),
    ) -> None:
        self.function = function
        self.flow = flow
        self._modules = array_modules  # local name -> "numpy" / "jax.numpy" (and submodules)
        self._math = math  # local names of the `math` module
        self._parent = parent  # the directly enclosing function's shapes
        self._lax = lax  # dotted local names of `jax.lax` (`jax.lax`, `lax`)
        self._loop: "Optional[LoopBody]" = None
        self._loop_done = False
        self._statements: Optional[_Statements] = None
        self._locals: Optional[frozenset[str]] = None  # parameters and names bound in the function
        self._visiting: set[int] = set()  # definitions being classified (cycles through loops)
        self._top: Optional[cst.CSTNode] = None  # the statement `of` was asked about, and what is proven there
        self._proven: frozenset[Shape] = frozenset()

    # ---- questions ----------------------------------------------------------------------------------------------
    def statement_of(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The statement (small or compound header) holding `node`, as the flow graph keys it."""
        if isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            return node
        return self._statements_info().owner.get(node)

    def of(self, expr: cst.BaseExpression, at: Optional[cst.CSTNode] = None, proven: frozenset[Shape] = frozenset()) -> Shape:
        """The class of `expr` at the start of `at`; the classes in `proven` (known to have one element at `at`,
        see `size_one`) count as 0-d."""
        at = at if at is not None else self.statement_of(expr)
        if at is None:
            return UNKNOWN
        self._top, self._proven = at, proven
        try:
            return self._of(expr, at, DEPTH)
        finally:
            self._top, self._proven = None, frozenset()

    def size_one(self, test: cst.BaseExpression, at: Optional[cst.CSTNode] = None) -> frozenset[Shape]:
        """The like(v) classes that `if test:` proves to have one element (see the module doc)."""
        at = at if at is not None else self.statement_of(test)
        if at is None:
            return frozenset()
        out: set[Shape] = set()
        for leaf in self._elementwise_leaves(test):
            shape = self.of(leaf, at)
            if shape.kind == "like":
                out.add(shape)
            if isinstance(leaf, cst.Name) and shape.kind != "unknown":
                ref = self._ref(leaf.value, at)
                if ref is not None:
                    out.add(like(ref))
        return frozenset(out)

    def select_problem(
        self,
        tests: Sequence[cst.BaseExpression],
        values: Sequence[cst.BaseExpression],
        at: cst.CSTNode,
        assigned_to: Optional[str] = None,
    ) -> Optional[tuple[cst.BaseExpression, Shape, cst.BaseExpression, Shape]]:
        """Whether `jnp.select(tests, values[:-1], values[-1])` (or nested `jnp.where`s; one value per test plus the
        default) may give a result whose shape differs from that of the value Python's `if`/`elif` chain picks.

        On the path taking value k, tests 0..k were evaluated (all of them for the default), so their operands
        have one element (`size_one`) and count as 0-d; the result broadcasts every value and every test, so each
        of them must be 0-d or of value k's class. Returns None when that holds on every path, else (value k, its
        shape, an operand that may differ, its shape). With `assigned_to`, the result is assigned to that name in
        place of `at`: when that value is provably 0-d (`carried_scalar`) no operand can have been broadcast."""
        if assigned_to is not None and self.carried_scalar(assigned_to, at):
            return None
        facts = [self.size_one(t, at) for t in tests]
        for k in range(len(values)):
            evaluated = range(min(k + 1, len(tests)))
            proven = frozenset().union(*(facts[j] for j in evaluated))
            target = self.of(values[k], at, proven)
            others = [(v, self.of(v, at, proven)) for i, v in enumerate(values) if i != k]
            others += [(t, SCALAR if j in evaluated else self.of(t, at, proven)) for j, t in enumerate(tests)]
            for other, shape in others:
                if shape != SCALAR and not shape.known_equal(target):
                    return values[k], target, other, shape
        return None

    def carried_scalar(self, name: str, at: cst.CSTNode) -> bool:
        """See `jaxfix.analysis.loop_bodies.carried_scalar`."""
        from jaxfix.analysis.loop_bodies import carried_scalar

        return carried_scalar(self, name, at)

    def loop_body(self) -> "Optional[LoopBody]":
        """How this function is called as a lax loop body by its enclosing function, or None."""
        if not self._loop_done:
            from jaxfix.analysis.loop_bodies import find_loop_body

            self._loop_done = True
            self._loop = find_loop_body(self)
        return self._loop

    # ---- classification -----------------------------------------------------------------------------------------
    def _of(self, expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> Shape:  # noqa: C901 - one case per kind
        if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary)):
            return SCALAR
        if isinstance(expr, cst.Name):
            if expr.value in ("True", "False") or expr.value in CONSTANTS and self._array_function(expr) == expr.value:
                return SCALAR  # `from numpy import pi`
            return UNKNOWN if expr.value == "None" else self._name(expr.value, at, depth)
        if isinstance(expr, cst.UnaryOperation):
            return SCALAR if isinstance(expr.operator, cst.Not) else self._of(expr.expression, at, depth)
        if isinstance(expr, cst.BinaryOperation):
            if isinstance(expr.operator, cst.MatrixMultiply):
                return UNKNOWN
            return broadcast([self._of(expr.left, at, depth), self._of(expr.right, at, depth)])
        if isinstance(expr, cst.Comparison):
            if any(isinstance(c.operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)) for c in expr.comparisons):
                return SCALAR if len(expr.comparisons) == 1 else UNKNOWN
            return broadcast([self._of(expr.left, at, depth), *(self._of(c.comparator, at, depth) for c in expr.comparisons)])
        if isinstance(expr, (cst.BooleanOperation, cst.IfExp)):
            parts = [expr.left, expr.right] if isinstance(expr, cst.BooleanOperation) else [expr.body, expr.orelse]
            first, second = (self._of(p, at, depth) for p in parts)
            return first if first.known_equal(second) else UNKNOWN  # the result is one of them
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in SCALAR_ATTRIBUTES or self._constant(expr):
                return SCALAR
            if expr.attr.value in ("real", "imag"):
                return self._of(expr.value, at, depth)
            return UNKNOWN
        if isinstance(expr, cst.Call):
            return self._call(expr, at, depth)
        if isinstance(expr, cst.Subscript) and all(_int_index(e.slice) for e in expr.slice):
            base = self._of(expr.value, at, depth)  # `v[0]`, `v[-1, 2]`: the shape of `v` without leading axes
            if base.kind != "like":
                return UNKNOWN
            shape = Shape("like", base.ref, base.drop + len(expr.slice))
            return SCALAR if at is self._top and shape in self._proven else shape
        return UNKNOWN

    def _call(self, call: cst.Call, at: cst.CSTNode, depth: int) -> Shape:
        if any(a.star for a in call.args):
            return UNKNOWN
        positional = [a.value for a in call.args if a.keyword is None]
        keywords = {a.keyword.value for a in call.args if a.keyword is not None}
        func = call.func
        if isinstance(func, cst.Name) and func.value in SCALAR_BUILTINS and len(positional) == 1 and not keywords:
            return SCALAR
        if isinstance(func, cst.Name) and func.value in ("abs", "round") and len(positional) == 1 and not keywords:
            return self._of(positional[0], at, depth)
        if self._is_math(func):
            return SCALAR  # `math.sqrt(v)` and the other `math` functions give Python numbers
        name = self._array_function(func)
        if name is not None:
            if name in REDUCTIONS and len(positional) == 1 and keywords <= REDUCTION_KEYWORDS:
                return SCALAR
            if name in LIKE_FUNCTIONS and positional and keywords <= {"dtype"}:
                others = positional[1:2] if name == "full_like" else positional[1:] if name in ("round", "around") else []
                rest = [self._of(p, at, depth) for p in others]  # the others are dtypes: `jnp.asarray(v, x.dtype)`
                return self._of(positional[0], at, depth) if all(s == SCALAR for s in rest) else UNKNOWN
            if name == "where" and len(positional) != 3:
                return UNKNOWN  # `np.where(c)` gives index arrays
            if name in ELEMENTWISE and positional and keywords <= {"dtype"}:
                return broadcast(self._of(p, at, depth) for p in positional)
            return UNKNOWN
        if isinstance(func, cst.Attribute) and not self._is_module(func.value):
            method = func.attr.value
            if method == "item" and not call.args:
                return SCALAR
            if method in METHOD_REDUCTIONS and not positional and keywords <= REDUCTION_KEYWORDS:
                return SCALAR
            if method in SAME_SHAPE_METHODS and keywords <= {"dtype", "copy", "decimals", "min", "max"}:
                base = self._of(func.value, at, depth)
                if method == "astype":
                    return base
                extra = [self._of(a.value, at, depth) for a in call.args]
                return base if all(s == SCALAR for s in extra) else UNKNOWN
        return UNKNOWN

    def _array_function(self, func: cst.BaseExpression) -> Optional[str]:
        """`np.sqrt` / `jnp.linalg.norm` / `sqrt` (from numpy import sqrt) -> its last name, else None."""
        parts: list[str] = []
        node = func
        while isinstance(node, cst.Attribute):
            parts.append(node.attr.value)
            node = node.value
        if not isinstance(node, cst.Name) or node.value not in self._modules or self._shadowed(node.value):
            return None
        qualified = ".".join([self._modules[node.value], *reversed(parts)])
        for prefix in ("jax.numpy.", "numpy."):
            if qualified.startswith(prefix):
                rest = qualified[len(prefix):]
                return rest if "." not in rest else "norm" if rest == "linalg.norm" else None
        return None

    def _constant(self, node: cst.Attribute) -> bool:
        """`np.pi`, `jnp.inf`, `math.e`, ...: Python floats."""
        if node.attr.value not in CONSTANTS:
            return False
        return self._array_function(node) == node.attr.value or self._is_math(node)

    def _is_math(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value in self._math and not self._shadowed(node.value.value)

    def _is_module(self, node: cst.BaseExpression) -> bool:
        while isinstance(node, cst.Attribute):
            node = node.value
        return isinstance(node, cst.Name) and node.value in self._modules and not self._shadowed(node.value)

    def _shadowed(self, name: str) -> bool:
        if self._locals is None:
            self._locals = frozenset(self.flow.params) | self.flow.writes(list(self.function.body.body))
        return name in self._locals

    def _ref(self, name: str, at: cst.CSTNode) -> Optional[Ref]:
        try:
            definitions = self.flow.reaching(at, name)
            undefined = self.flow.maybe_undefined(at, name)
        except KeyError:  # a node the flow graph does not key
            return None
        return Ref(name, frozenset([id(d.node) for d in definitions] + ([0] if undefined else [])))

    def _name(self, name: str, at: cst.CSTNode, depth: int) -> Shape:
        shape = self._followed(name, at, depth)
        if at is self._top and shape in self._proven:
            return SCALAR  # only at the point the facts are about (in a loop the same Ref may be another value)
        return shape

    def _followed(self, name: str, at: cst.CSTNode, depth: int) -> Shape:
        ref = self._ref(name, at)
        if ref is None:
            return UNKNOWN
        if at is self._top and like(ref) in self._proven:
            return SCALAR
        if depth == 0 or not ref.definitions or 0 in ref.definitions:
            return like(ref)
        shapes = []
        statements = self._statements_info()
        for definition in self.flow.reaching(at, name):
            if id(definition.node) in self._visiting:
                continue  # a loop's own update (`s = s * 0.5`): it has the class the other definitions give
            self._visiting.add(id(definition.node))
            try:
                shape = self._definition(definition.node, name, depth - 1)
            finally:
                self._visiting.discard(id(definition.node))
            if shape.kind == "like" and definition.node in statements.in_loop:
                return like(ref)  # see the module doc: a loop can change the variable in between
            shapes.append(shape)
        if not shapes:
            return like(ref)
        first = shapes[0]
        return first if first.kind != "unknown" and all(s == first for s in shapes) else like(ref)

    def _statements_info(self) -> _Statements:
        if self._statements is None:
            self._statements = _Statements()
            walk.visit(self.function.body, self._statements)
        return self._statements

    def _definition(self, node: Optional[cst.CSTNode], name: str, depth: int) -> Shape:
        loop = self.loop_body()
        if loop is not None:
            if isinstance(node, cst.Param) and node.name.value == loop.index:
                return SCALAR  # the fori_loop index
            if node is loop.carry and not loop.tupled:
                return loop.slots[0]
            if any(node is u for u in loop.unpacks):
                targets = node.targets[0].target.elements  # type: ignore[union-attr]
                slot = max(k for k, e in enumerate(targets) if isinstance(e.value, cst.Name) and e.value.value == name)
                return loop.slots[slot]  # (the last target of a name is the value it keeps)
        if isinstance(node, cst.Param) and node.annotation is not None:
            annotation = node.annotation.annotation
            return SCALAR if isinstance(annotation, cst.Name) and annotation.value in SCALAR_ANNOTATIONS else UNKNOWN
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            return self._of(node.value, node, depth)
        if isinstance(node, cst.AnnAssign) and isinstance(node.target, cst.Name) and node.value is not None:
            return self._of(node.value, node, depth)
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name) and not isinstance(node.operator, cst.MatrixMultiplyAssign):
            return broadcast([self._name(name, node, depth), self._of(node.value, node, depth)])
        return UNKNOWN

    def _elementwise_leaves(self, test: cst.BaseExpression) -> list[cst.BaseExpression]:
        """Operands whose elements all meet in the test's result: the leaves under comparisons, arithmetic, `not`
        and elementwise functions. Of `a and b` only `a` is surely tested."""
        if isinstance(test, cst.Comparison):
            if any(isinstance(c.operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)) for c in test.comparisons):
                return []
            parts = [test.left, *(c.comparator for c in test.comparisons)]
            if len(parts) > 2:
                parts = parts[:2]  # `a < b < c` only compares `b < c` when `a < b` holds
            return [leaf for p in parts for leaf in self._elementwise_leaves(p)]
        if isinstance(test, cst.BinaryOperation) and not isinstance(test.operator, cst.MatrixMultiply):
            return [*self._elementwise_leaves(test.left), *self._elementwise_leaves(test.right)]
        if isinstance(test, cst.UnaryOperation):
            return self._elementwise_leaves(test.expression)
        if isinstance(test, cst.BooleanOperation):
            return self._elementwise_leaves(test.left)
        name = self._array_function(test.func) if isinstance(test, cst.Call) else None
        if isinstance(test, cst.Call) and name in ELEMENTWISE and not any(a.keyword or a.star for a in test.args) and (name != "where" or len(test.args) == 3):
            return [leaf for a in test.args for leaf in self._elementwise_leaves(a.value)]
        return [test]


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return node.value if isinstance(node, cst.Name) else ""


class _Scope(cst.CSTVisitor):
    """Names and calls of one function body, nested functions and classes included (a use anywhere counts)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[cst.Name] = []
        self.calls: list[cst.Call] = []
        self.returns = 0
        self._depth = 0

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for part in (*node.decorators, node.params, node.returns):  # everything but the def's own name
            if part is not None:
                walk.visit(part, self)
        self._depth += 1
        walk.visit(node.body, self)
        self._depth -= 1
        return False

    def visit_Return(self, node: cst.Return) -> None:
        self.returns += self._depth == 0


def _scan(node: cst.CSTNode) -> _Scope:
    scope = _Scope()
    walk.visit(node, scope)
    return scope


def _names(node: cst.CSTNode) -> list[cst.Name]:
    return _scan(node).names


def _calls(node: cst.CSTNode) -> list[cst.Call]:
    return _scan(node).calls


class ShapeProvider(BatchableMetadataProvider[FunctionShapes]):
    """Metadata on each FunctionDef: its FunctionShapes (computed lazily)."""

    METADATA_DEPENDENCIES = (DataflowProvider,)

    def __init__(self) -> None:
        super().__init__()
        self._modules: dict[str, str] = {}
        self._math: frozenset[str] = frozenset()
        self._lax: frozenset[str] = frozenset()
        self._stack: list[Optional[FunctionShapes]] = []

    def visit_Module(self, node: cst.Module) -> None:
        imports = ModuleImports.read(node)  # once for both questions
        self._modules = array_modules(node, imports)
        self._math = math_modules(node)
        self._lax = lax_modules(node, imports)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        parent = self._stack[-1] if self._stack else None
        shapes = FunctionShapes(node, self.get_metadata(DataflowProvider, node), self._modules, self._math, parent, self._lax)
        self.set_metadata(node, shapes)
        self._stack.append(shapes)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._stack.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._stack.append(None)  # a method's enclosing function is not the class's

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._stack.pop()


def array_modules(module: cst.Module, imports: Optional[ModuleImports] = None) -> dict[str, str]:
    """Local names of NumPy and jax.numpy (modules and imported functions) -> their qualified names."""
    imports = imports or ModuleImports.read(module)
    modules = dict(imports.numpy_aliases)
    if imports.jnp_alias and "." not in imports.jnp_alias:
        modules[imports.jnp_alias] = "jax.numpy"
    return modules


def lax_modules(module: cst.Module, imports: Optional[ModuleImports] = None) -> frozenset[str]:
    """Dotted local names of `jax.lax`: `jax.lax` after `import jax`, `lax` after `from jax import lax`."""
    imports = imports or ModuleImports.read(module)
    return frozenset(n for n in (imports.lax_alias, f"{imports.jax_alias}.lax" if imports.jax_alias else None) if n)


def math_modules(module: cst.Module) -> frozenset[str]:
    """Local names of the `math` module (`import math`, `import math as m`)."""
    names = set()
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Import):
                names.update(a.evaluated_alias or "math" for a in small.names if isinstance(a.name, cst.Name) and a.name.value == "math")
    return frozenset(names)


def function_shapes(rule: cst.MetadataDependent, function: cst.FunctionDef) -> FunctionShapes:
    return rule.get_metadata(ShapeProvider, function)
