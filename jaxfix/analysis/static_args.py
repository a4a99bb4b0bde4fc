"""Static-argument inference: which parameters of a function are used where JAX needs a concrete Python value.

`concrete_uses(function, callees)` maps a parameter name to the places that need it concrete, each a
`ConcreteUse(node, reason)` in source order:

- a shape or size argument: `zeros`/`ones`/`empty`/`full` (first argument), `eye`/`tri` (first two), `identity`,
  every argument of `arange` and of the method `x.reshape(...)`, argument 1 of `reshape`/`tile`/`repeat`/
  `broadcast_to`, `linspace`'s `num`, and the keywords `shape`, `size`, `num`, `axis`, `newshape`, `reps`,
  `repeats`, `k`, `decimals`, `length`, `num_segments`, `ndmin`;
- a slice bound: `x[:n]`, `x[a:b:s]` (an index `x[i]` is fine: JAX indexes with traced values);
- `range(n)` of a `for` loop that must stay a Python loop (its body appends to a list, or its counter is itself
  used concretely);
- the condition of a `while` loop that must stay a Python loop because arrays change shape in its body (it appends
  to a list, calls `np.unique`, `np.vstack`, `np.nonzero`, ..., or indexes with a boolean mask), when the condition reads only parameters,
  counters and array metadata (`while len(W) < n_points:`): under `jit` it must be a concrete bool;
- an argument passed to a parameter that a same-module callee declares static (`static_argnames`/`static_argnums`
  of its `jax.jit` decorator), given as `callees: {function name: (parameter names, static names)}`.

`mapping_keys(function, mappings)` gives, apart from those, the parameters used as the key of a module-level dict
display (`MATRICES[cvd_type][low]` with `low = int(severity - fraction)`): arrays are unhashable, so such a parameter
is a Python value; `module_mappings(module)` finds those dicts.

An expression counts when it reads the parameter (`n`, `n + 1`, `(n, 3)`, `x.shape[0] // n`), directly or through a
local variable computed from it (`m = 2 * n; jnp.zeros(m)`). Nested functions are not searched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.activity import parameter_names
from jaxfix.analysis.plain_python import ARRAY_ATTRIBUTES

SHAPE_POSITIONS: dict[str, Optional[tuple[int, ...]]] = {
    "zeros": (0,), "ones": (0,), "empty": (0,), "full": (0,), "eye": (0, 1), "identity": (0,), "tri": (0, 1),
    "arange": None, "linspace": (2,), "reshape": (1,), "tile": (1,), "repeat": (1,), "broadcast_to": (1,),
    "matrix_power": (1,),
}
SHAPE_KEYWORDS = {
    "shape", "size", "num", "axis", "newshape", "reps", "repeats", "k", "decimals", "length", "num_segments", "ndmin",
}
METHOD_ALL_ARGS = {"reshape"}
STATIC_ATTRIBUTES = {"shape", "ndim", "dtype", "size", "itemsize", "nbytes"}
STATIC_CALLS = {"len", "isinstance", "type", "hasattr", "callable"}


@dataclass(frozen=True)
class ConcreteUse:
    node: cst.CSTNode  # the expression that must be concrete
    reason: str


class _Finder(cst.CSTVisitor):
    def __init__(self, callees: Mapping[str, tuple[Sequence[str], Sequence[str]]]) -> None:
        super().__init__()
        self.callees = callees
        self.found: list[tuple[cst.BaseExpression, str]] = []
        self.loops: list[tuple[cst.For, cst.BaseExpression]] = []
        self.whiles: list[cst.While] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        method = isinstance(func, cst.Attribute) and name in METHOD_ALL_ARGS and not _module_like(func.value)
        positions = SHAPE_POSITIONS.get(name, ()) if isinstance(func, cst.Attribute) else ()
        for index, arg in enumerate(node.args):
            if arg.keyword is not None:
                if arg.keyword.value in SHAPE_KEYWORDS and isinstance(func, cst.Attribute) and not _literal(arg.value):
                    self.found.append((arg.value, f"the `{arg.keyword.value}=` argument of `{_code(func)}`"))
            elif (method or positions is None or index in (positions or ())) and not _literal(arg.value):
                self.found.append((arg.value, f"a shape or size argument of `{_code(func)}`"))
        if isinstance(func, cst.Name) and func.value in self.callees:
            params, static = self.callees[func.value]
            for index, arg in enumerate(node.args):
                target = arg.keyword.value if arg.keyword is not None else params[index] if index < len(params) else None
                if target in static:
                    self.found.append((arg.value, f"the static argument `{target}` of `{func.value}`"))

    def visit_Slice(self, node: cst.Slice) -> None:
        for part in (node.lower, node.upper, node.step):
            if part is not None and not _literal(part):
                self.found.append((part, "a slice bound"))

    def visit_While(self, node: cst.While) -> None:
        self.whiles.append(node)

    def visit_For(self, node: cst.For) -> None:
        it = node.iter
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range":
            self.loops.append((node, it))


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _literal(expr: cst.BaseExpression) -> bool:
    """A number (`1`, `-1`, `2.0`): it reads no name, so it never makes a parameter static (most slice bounds and
    axes are these; leaving them out spares the function's local-source analysis)."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))


def _module_like(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value in ("np", "jnp", "numpy", "onp", "jax", "lax")


def _appends(body: cst.CSTNode) -> bool:
    return any(isinstance(node.func, cst.Attribute) and node.func.attr.value in ("append", "extend", "insert")
               for node in walk.nodes_of(body, cst.Call))  # type: ignore[attr-defined]


def concrete_uses(
    function: cst.FunctionDef, callees: Optional[Mapping[str, tuple[Sequence[str], Sequence[str]]]] = None
) -> dict[str, list[ConcreteUse]]:
    finder = _Finder(callees or {})
    walk.visit(function.body, finder)
    needed: list[tuple[cst.BaseExpression, str]] = list(finder.found)
    params = set(parameter_names(function))
    needed.extend(
        (loop.test, "the condition of a Python `while` loop whose arrays change shape in its body")
        for loop in finder.whiles if _reshaping(loop.body) and _counted(function, loop, params)
    )
    if not needed and not finder.loops:
        return {}  # nothing that must be concrete (the common case: no need for the local sources)
    sources = _local_sources(function)
    concrete_names = {n for expr, _ in needed for n in _expanded(expr, sources)}
    for loop, it in finder.loops:  # a loop kept in Python needs its bound concrete
        target = _target_names(loop.target)
        if _appends(loop.body) or target & concrete_names:
            needed.extend((arg.value, "the bound of a Python `for ... in range(...)` loop") for arg in it.args)
    out: dict[str, list[ConcreteUse]] = {}
    for expr, reason in needed:
        for name in sorted(_expanded(expr, sources) & params):
            out.setdefault(name, []).append(ConcreteUse(expr, reason))
    return out


# calls whose result's shape depends on values or on how many times they ran: a loop calling them cannot be a `lax` loop
RESHAPING = frozenset({
    "append", "extend", "insert", "unique", "nonzero", "flatnonzero", "argwhere", "vstack", "hstack", "dstack",
    "concatenate", "concat", "stack", "column_stack", "row_stack", "delete", "resize", "extract", "compress", "setdiff1d",
    "union1d", "intersect1d",
})


# calls whose result is a boolean mask: an index made of one selects a value-dependent number of elements
MASKING = frozenset({"any", "all", "isnan", "isfinite", "isinf", "logical_and", "logical_or", "logical_not", "isin", "isclose"})


# attributes and methods of arrays that Python numbers, tuples, lists and dicts lack (`.real` is a complex's too)
_ARRAY_ONLY = ARRAY_ATTRIBUTES | {"conj", "conjugate", "nonzero", "squeeze", "swapaxes", "diagonal", "trace"}
# annotations naming an array type (`np.ndarray`, `NDArray[np.float64]`, `ArrayLike`, `jax.Array`)
_ARRAY_ANNOTATIONS = frozenset({"ndarray", "NDArray", "ArrayLike", "Array"})


def array_parameters(function: cst.FunctionDef) -> set[str]:
    """Parameters the function treats as arrays: annotated with an array type, given an array-only attribute or
    method (`X.T`, `X.conj()`), a matrix-product operand, or the argument of a `linalg`/`fft` function. Their values
    (not a Python number) are data; no static argument can make a size computed from them concrete."""
    params = set(parameter_names(function))
    found: set[str] = set()
    for param in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params):
        annotation = param.annotation.annotation if param.annotation is not None else None
        if isinstance(annotation, cst.Subscript):
            annotation = annotation.value
        name = annotation.attr.value if isinstance(annotation, cst.Attribute) else getattr(annotation, "value", None)
        if name in _ARRAY_ANNOTATIONS:
            found.add(param.name.value)
    for node in walk.nodes(function.body):
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.attr.value in _ARRAY_ONLY:
            found.add(node.value.value)
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.MatrixMultiply):
            found.update(side.value for side in (node.left, node.right) if isinstance(side, cst.Name))
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.args \
                and isinstance(node.func.value, cst.Attribute) and node.func.value.attr.value in ("linalg", "fft") \
                and isinstance(node.args[0].value, cst.Name):
            found.add(node.args[0].value.value)
    return found & params


def _reshaping(body: cst.CSTNode) -> bool:
    """Whether `body` calls a function (or method) of RESHAPING, or indexes with a boolean mask (`e[e > 0]`,
    `e[np.any(e == 0, axis=1)]`, `e[~done]`): its arrays or lists change size as it runs."""
    for node in walk.nodes(body):
        if isinstance(node, cst.Call) and walk.called_name(node) in RESHAPING:
            return True
        if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            index = node.slice[0].slice.value
            if isinstance(index, cst.Comparison) and not any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in index.comparisons) \
                    or isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.BitInvert) \
                    or isinstance(index, cst.Call) and walk.called_name(index) in MASKING:
                return True
    return False



def _counted(function: cst.FunctionDef, loop: cst.While, params: set[str]) -> bool:
    """Whether the loop's test reads only parameters the loop does not rebind, array metadata (`len(W)`,
    `x.shape[0]`) and locals that only ever hold such numbers (`i = 0` ... `i += 1`): with its parameters static it
    is a concrete bool (an array value in it, `err > tol`, or the data the loop carries, `while x > t: x = x / 2`,
    would not be, whatever the parameters)."""
    reads = value_reads(loop.test)
    rebound = {n for t in walk.nodes_of(loop.body, cst.AssignTarget) for n in _target_names(t.target)}  # type: ignore[attr-defined]
    rebound |= {a.target.value for a in walk.nodes_of(loop.body, cst.AugAssign) if isinstance(a.target, cst.Name)}  # type: ignore[attr-defined]
    if not reads or reads & params & rebound:
        return False
    names = reads - params
    if not names:
        return True
    for node in walk.nodes(function.body):
        if isinstance(node, cst.Assign):
            bound = {n for t in node.targets for n in _target_names(t.target)} & names
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            bound = {node.target.value} & names
        else:
            continue
        if bound and not _count(node.value, params):
            return False
    return True


def _count(value: cst.BaseExpression, params: set[str]) -> bool:
    """An int made of literals, parameters and array metadata: `0`, `n // 2`, `len(x) - 1`, `x.shape[0]`."""
    if isinstance(value, cst.Integer):
        return True
    if isinstance(value, cst.Name):
        return value.value in params
    if isinstance(value, cst.BinaryOperation):
        return _count(value.left, params) and _count(value.right, params)
    if isinstance(value, cst.UnaryOperation):
        return _count(value.expression, params)
    return not value_reads(value) and isinstance(value, (cst.Call, cst.Attribute, cst.Subscript))


def _target_names(target: cst.BaseExpression) -> set[str]:
    from jaxfix.analysis.activity import Activity, _Collector

    activity = Activity()
    _Collector(activity).target(target)
    return set(activity.writes)


class _LocalSources(cst.CSTVisitor):
    """(Visitors are module-level classes: one defined per call costs a class creation and a hook lookup each time.)"""

    def __init__(self) -> None:
        super().__init__()
        self.sources: dict[str, set[str]] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        reads = value_reads(node.value)
        for target in node.targets:
            for name in _target_names(target.target):
                self.sources.setdefault(name, set()).update(reads)


def sized_results(module: cst.Module) -> dict[str, str]:
    """{function name: how} for the module's top-level functions whose result a function of the module uses, directly
    or through local names, as a shape, a size or a slice bound (`n = n_samples(spec.shape[-1])`, then
    `np.fft.irfft(spec, n=n)`: pyfar's `max(1, (n_bins - 1) * 2)`): a Python int there, which the function must keep
    returning (a 0-d array would be traced under `jit`, and is no int for `json` or `range` elsewhere)."""
    names = {s.name.value for s in module.body if isinstance(s, cst.FunctionDef)}
    found: dict[str, str] = {}
    for function in walk.nodes_of(module, cst.FunctionDef) if names else ():
        finder = _Finder({})
        walk.visit(function.body, finder)  # type: ignore[attr-defined]
        uses = [*finder.found, *((a.value, "the bound of a Python `range`") for _, it in finder.loops for a in it.args)]
        for call in walk.nodes_of(function.body, cst.Call):  # type: ignore[attr-defined]
            # the length of an FFT (`np.fft.irfft(spec, n=n)`, `fft(x, n)`): a size, which JAX needs static too
            if isinstance(call.func, cst.Attribute) and "fft" in _code(call.func).split(".")[-1]:  # type: ignore[attr-defined]
                uses += [(a.value, f"the length `n` of `{_code(call.func)}`") for i, a in enumerate(call.args)  # type: ignore[attr-defined]
                         if (a.keyword.value == "n" if a.keyword is not None else i == 1) and not a.star]
        sources = _local_sources(function) if uses else {}  # type: ignore[arg-type]
        for expr, reason in uses:
            for name in sorted(_expanded(expr, sources) & names):
                found.setdefault(name, f"`{function.name.value}` uses it as {reason} (`{_code(expr)}`)")  # type: ignore[attr-defined]
    return found


def _local_sources(function: cst.FunctionDef) -> dict[str, set[str]]:
    """For each local bound by a plain assignment: the names its assigned values read."""
    visitor = _LocalSources()
    walk.visit(function.body, visitor)
    return visitor.sources


class _ValueReads(walk.ValueReader):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if node.attr.value in STATIC_ATTRIBUTES:
            return False
        walk.visit(node.value, self)
        return False

    def visit_Call(self, node: cst.Call) -> Optional[bool]:
        if isinstance(node.func, cst.Name) and node.func.value in STATIC_CALLS:
            return False
        return None

    def visit_Name(self, node: cst.Name) -> None:
        self.found.add(node.value)

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def concrete_reads(stmts: Sequence[cst.CSTNode], module: Optional[cst.Module]) -> set[str]:
    """The names `stmts` use where JAX needs a concrete value (a shape or size argument, a slice bound), directly or
    as the argument of a parameter that a top-level function of `module` uses so (`via_ram(u, npar)`, with
    `np.eye(npar)` in `via_ram`: pymcmcstat's adaptation): a `lax.cond` branch must close over such a name, which
    a traced operand cannot stand for."""
    functions = {f.name.value: f for f in (module.body if module is not None else ()) if isinstance(f, cst.FunctionDef)}
    callees: dict[str, tuple[list[str], set[str]]] = {}
    for stmt in stmts:
        for call in walk.nodes_of(stmt, cst.Call):
            func = call.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Name) and func.value in functions and func.value not in callees:
                callee = functions[func.value]
                callees[func.value] = ([p.name.value for p in (*callee.params.posonly_params, *callee.params.params)],
                                       set(concrete_uses(callee)))
    finder = _Finder(callees)
    for stmt in stmts:
        walk.visit(stmt, finder)
    return {name for expr, _ in finder.found for name in value_reads(expr)}


def value_reads(expr: cst.CSTNode) -> set[str]:
    """Names whose value `expr` reads; `x` in `x.shape`, `x.ndim`, `len(x)` ... is not read (metadata is static)."""
    visitor = _ValueReads()
    walk.visit(expr, visitor)
    return visitor.found


def _expanded(expr: cst.BaseExpression, sources: Mapping[str, set[str]]) -> set[str]:
    """Names `expr` reads, directly or through locals assigned from them."""
    seen: set[str] = set()
    work = list(value_reads(expr))
    while work:
        name = work.pop()
        if name in seen:
            continue
        seen.add(name)
        work.extend(sources.get(name, ()))
    return seen


def module_mappings(module: cst.Module) -> dict[str, int]:
    """{name: depth} for the module's top-level `NAME = {...}` dict displays: depth 1, or one more than the least
    depth of its values when they are all dict displays too (`{"protanomaly": {90: ..., 100: ...}}`: 2). A name
    bound more than once at the top level is left out."""
    found: dict[str, int] = {}
    seen: set[str] = set()

    def depth(value: cst.BaseExpression) -> int:
        if not isinstance(value, cst.Dict):
            return 0
        inner = [depth(e.value) for e in value.elements if isinstance(e, cst.DictElement)]
        return 1 + (min(inner) if inner and len(inner) == len(value.elements) else 0)

    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                for target in targets:
                    if isinstance(target, cst.Name):
                        name = target.value
                        if name in seen:
                            found.pop(name, None)
                        elif isinstance(small, cst.Assign) and small.value is not None and depth(small.value):
                            found[name] = depth(small.value)
                        seen.add(name)
    return found


def mapping_keys(function: cst.FunctionDef, mappings: Mapping[str, int]) -> set[str]:
    """The parameters of `function` that the keys of `mappings` (`module_mappings`) read, directly or through locals
    computed from them: `MATRICES[cvd_type][low]`, with `low = int(severity - fraction)`, reads `cvd_type` and
    `severity` (colorspacious' CVD matrices). Names the function binds itself shadow the module's."""
    if not mappings:
        return set()
    params = set(parameter_names(function))
    local = set(_local_sources(function)) | params
    keys: list[cst.BaseExpression] = []
    for node in walk.nodes_of(function.body, cst.Subscript):
        chain: list[cst.BaseExpression] = []
        value: cst.BaseExpression = node  # type: ignore[assignment]
        while isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index):
            chain.append(value.slice[0].slice.value)
            value = value.value
        if isinstance(value, cst.Name) and value.value in mappings and value.value not in local and chain:
            # the outermost subscript holds the last key: keep those within the literal's depth
            keys.extend(chain[::-1][: mappings[value.value]])
    if not keys:
        return set()
    sources = _local_sources(function)
    return {name for key in keys for name in _expanded(key, sources) & params}
