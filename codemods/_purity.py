"""Which calls are safe to trace: shared by the rules that move code into `lax.cond` branches and `lax` loop bodies.

`lax.cond` traces both branches, whichever is taken; `lax.fori_loop`, `scan` and `while_loop` trace their body once,
however many times Python would have run it. A call in such code is therefore run at other times, and another
number of times, than Python would run it, and with tracers for arguments. That is equivalent only when the callee
is pure JAX-traceable code. Known so (`opaque_call` returns None):
- NumPy / `jax.numpy` / `jax` / `lax` functions (the NumPy ones are moved to `jax.numpy` by JX501, so only those
  JX501 renames with a safe fix, and `np.random` / ufunc methods, which other rules convert; not
  `np.testing.assert_allclose`, nor `np.linalg.eig` or, in a module that uses a unit library, `np.sqrt`: they stay
  NumPy, which raises on the tracers a `lax` body is given: `numpy_kept`),
  and `math` functions of static values (`math.exp(x)` of a traced `x` raises while tracing);
- a few builtins (`abs`, `len`, `range`, `min`, ...);
- methods of arrays (`x.sum()`, `x.reshape(...)`: the receiver is a traced name; not `self._A.dot(x)` or
  `A_T.dot(x)` with `A_T = self.A.T`, where `_A` may be a NumPy array, whose methods reject tracers);
- functions of the same module, or nested in the same function, whose own bodies only call such things and have
  no side effects (followed recursively; a cycle counts as opaque).
Anything else (a function passed in, `self.fun(x)`, a function of another module, a C extension) is opaque: the
rewrite is still offered, but as an unsafe fix that says which call.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import libcst as cst

from codemods._array_inputs import made_array
from codemods._branch_structure import exits
from codemods._namesakes import DIFFERENT, IN_PLACE, units_difference, units_library
from codemods._where_safety import cheap_and_pure
from jaxfix import walk
from jaxfix.analysis.jnp_api import lookup
from jaxfix.analysis.loop_values import PYTHON_CONVERSIONS, traced_host_conversion
from jaxfix.analysis.masks import MaskProvider, function_facts
from jaxfix.analysis.static_params import ARRAY_METHODS
from jaxfix.analysis.tracedness import Tracedness, TracednessProvider, function_tracedness
from jaxfix.imports import ModuleImports, dotted_name

TRACEABLE_BUILTINS = {
    "abs", "round", "len", "enumerate", "zip", "isinstance", "tuple", "list", "sum", "pow", "divmod", "reversed", "slice",
}
# a traced argument raises while tracing (`max`, `min`, `all`, `any`, `sorted` compare or test it with bool())
HOST_BUILTINS = {"int", "float", "bool", "complex", "range", "max", "min", "all", "any", "sorted"}
AT_METHODS = {"set", "add", "subtract", "multiply", "divide", "power", "min", "max", "get", "apply"}


class Purity:
    """Per module: `opaque_call(stmts, function, level)` (see the module docstring)."""

    def __init__(self, module: cst.Module, imports: ModuleImports, facts_of: Optional[Callable] = None,
                 traced_of: Optional[Callable] = None) -> None:
        self.facts_of = facts_of  # FunctionDef -> FunctionFacts (for value-shaped reads in callees)
        self.traced_of = traced_of  # FunctionDef -> FunctionTracedness (for Python branches on traced values in callees)
        self.functions = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
        self.numeric = {*imports.numpy_aliases, *imports.math_aliases}
        self.math = set(imports.math_aliases)  # `math.exp(x)` needs a concrete x: fine on static values only
        self.numeric.update(a for a in (imports.jax_alias, imports.jnp_alias, imports.lax_alias) if a)
        self.jax_alias, self.jnp_alias, self.lax_alias = imports.jax_alias, imports.jnp_alias, imports.lax_alias
        self.numpy = set(imports.numpy_aliases) - {a for a in (self.jax_alias, self.jnp_alias, self.lax_alias) if a}
        self._memo: dict[cst.FunctionDef, bool] = {}
        self._nested: dict[cst.FunctionDef, dict[str, cst.FunctionDef]] = {}
        self.module = module
        self.units = units_library(module)  # JX501 renames NumPy calls there only as unsafe fixes (`numpy_kept`)
        self._tables: Optional[dict[str, str]] = None

    def tables(self) -> dict[str, str]:
        """{name: NumPy function} for module-level names bound only to a NumPy call (`L0 = np.array([...])`): module
        code is not migrated, so they stay NumPy arrays, which reject a traced index."""
        if self._tables is None:
            numpy = self.numeric - self.math - {a for a in (self.jax_alias, self.jnp_alias, self.lax_alias) if a}
            bound: dict[str, list[Optional[str]]] = {}
            for stmt in self.module.body:
                if not isinstance(stmt, cst.SimpleStatementLine):
                    continue
                for small in stmt.body:
                    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                        [small.target] if isinstance(small, (cst.AnnAssign, cst.AugAssign)) else []
                    value = getattr(small, "value", None)
                    # through array methods and attributes: `np.arange(25).reshape(5, 5)`, `np.array(...).T` (a
                    # NumPy array too: giddy's LISA_Markov move table)
                    while isinstance(value, (cst.Call, cst.Attribute)) and isinstance(
                            value.func if isinstance(value, cst.Call) else value, cst.Attribute) and isinstance(
                            (value.func if isinstance(value, cst.Call) else value).value, cst.Call):  # type: ignore[union-attr]
                        value = (value.func if isinstance(value, cst.Call) else value).value  # type: ignore[union-attr]
                    root = dotted_name(value.func) if isinstance(value, cst.Call) else None
                    numpy_call = root if root and root.split(".")[0] in numpy else None
                    for target in targets:
                        if isinstance(target, cst.Name):
                            bound.setdefault(target.value, []).append(numpy_call)
            for stmt in self.module.body:  # a name a function or class defines is not a table
                if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                    bound.pop(stmt.name.value, None)
            self._tables = {n: calls[0] for n, calls in bound.items() if all(calls)}
        return self._tables

    def table_passed(self, function: cst.FunctionDef, param: str) -> Optional[str]:
        """A module-level NumPy table (`tables`) that a call in this module passes to `function` as `param`."""
        tables = self.tables()
        if not tables:
            return None
        params = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
        position = params.index(param) if param in params else None
        for call in walk.nodes_of(self.module, cst.Call):
            if not (isinstance(call.func, cst.Name) and call.func.value == function.name.value):  # type: ignore[attr-defined]
                continue
            positional = [a for a in call.args if a.keyword is None and not a.star]  # type: ignore[attr-defined]
            for k, arg in enumerate(call.args):  # type: ignore[attr-defined]
                passed = arg.keyword.value == param if arg.keyword is not None else (
                    not arg.star and position is not None and k < len(positional) and positional.index(arg) == position)
                if passed and isinstance(arg.value, cst.Name) and arg.value.value in tables:
                    return arg.value.value
        return None

    def opaque_call(
        self,
        stmts: Sequence[cst.CSTNode],
        function: Optional[cst.FunctionDef],
        level: Callable[[cst.BaseExpression], Tracedness],
        host: bool = False,
    ) -> Optional[str]:
        """The code of the first call in `stmts` (nested functions included) that is not known to be pure and
        traceable, or None. `function`: the function around `stmts` (its nested defs are followed). `host`: `stmts`
        run on the host, not in a traced body (a loop's iterable), where a NumPy call JX501 leaves NumPy is fine."""
        nested = self._nested_in(function)
        for stmt in stmts:
            for call in walk.nodes_of(stmt, cst.Call):
                if not self._call_ok(call, nested, level, host):  # type: ignore[arg-type]
                    return dotted_name(call.func) or cst.Module([]).code_for_node(call.func).strip()  # type: ignore[attr-defined]
        return None

    def kept_note(self, opaque: str) -> str:
        """For the name `opaque_call` gave: "" unless it is a NumPy function that JX501 leaves NumPy in a safe run
        (`numpy_kept`), else the clause that says why, for the rule's message."""
        root, _, rest = opaque.partition(".")
        kept = numpy_kept(rest.split("."), self.units) if root in self.numpy and rest else None
        if kept is None:
            return ""
        return (f"; `{opaque}` stays NumPy ({kept}), and NumPy raises on the traced values a `lax` body is given "
                "(`TracerArrayConversionError`)")

    def gives_jax(self, call: cst.Call, function: cst.FunctionDef, level: Callable[[cst.BaseExpression], Tracedness]) -> bool:
        """Whether `call` (in `function`) is known pure JAX code, so that its result is a JAX array after the migration
        (`np.f(...)`, `x.reshape(...)`, a pure function of this module); not `squareform(P)` or `ndi.filter(x)`."""
        return self._call_ok(call, self._nested_in(function), level)

    def _nested_in(self, function: Optional[cst.FunctionDef]) -> dict[str, cst.FunctionDef]:
        if function is None:
            return {}
        nested = self._nested.get(function)
        if nested is None:  # once per function: a function with many branches asks again and again
            nested = self._nested[function] = {n.name.value: n for n in walk.nodes_of(function.body, cst.FunctionDef)}  # type: ignore[misc]
        return nested

    def _call_ok(self, call: cst.Call, nested: dict[str, cst.FunctionDef], level: Callable[[cst.BaseExpression], Tracedness],
                 host: bool = False) -> bool:
        def is_array(e: cst.BaseExpression) -> bool:
            return level(e) is not Tracedness.STATIC

        func = call.func
        if isinstance(func, cst.Name):
            name = func.value
            if name in nested:
                return self._function_ok(nested[name], nested)
            if name in self.functions:
                return self._function_ok(self.functions[name], {})
            if name in HOST_BUILTINS or name in self.math:  # `int(x)`, `range(n)`, `exp(x)`: need concrete values
                return not any(is_array(a.value) for a in call.args)
            return name in TRACEABLE_BUILTINS or name in self.numeric
        if isinstance(func, cst.Attribute):
            root = func.value
            while isinstance(root, cst.Attribute):
                root = root.value
            if isinstance(root, cst.Name) and root.value in self.math and root.value not in nested:
                return not any(is_array(a.value) for a in call.args)  # math.sqrt(x) raises on a tracer
            if isinstance(root, cst.Name) and root.value in self.numeric and root.value not in nested:
                # np.sum, jnp.where, jax.lax.cond
                return root.value not in self.numpy or numpy_kept(dotted_name(func).split(".")[1:], None if host else self.units) is None
            receiver = func.value
            if isinstance(receiver, cst.Subscript) and isinstance(receiver.value, cst.Attribute) and receiver.value.attr.value == "at":
                return func.attr.value in AT_METHODS  # x.at[i].add(v)
            if func.attr.value in ("append", "extend") and isinstance(func.value, cst.Name):
                return True  # list building: the loop rules convert it or refuse it, the branch rules refuse it
            if _object_rooted(func.value, level):
                return False  # `self._A.dot(x)`, `A_T = self.A.T; A_T.dot(x)`: maybe a NumPy array, which rejects tracers
            if _parameter_rooted(func.value, level) and any(is_array(a.value) for a in call.args):
                return False  # `basis.dot(D[i])`, `basis` a parameter: maybe a NumPy array or a scipy.sparse matrix
            return func.attr.value in ARRAY_METHODS and is_array(func.value)
        return False

    def _function_ok(self, fn: cst.FunctionDef, nested: dict[str, cst.FunctionDef]) -> bool:
        known = self._memo.get(fn)
        if known is not None:
            return known
        self._memo[fn] = False  # a cycle (recursion) counts as opaque
        body = list(fn.body.body) if isinstance(fn.body, cst.IndentedBlock) else [fn.body]
        inner = {**nested, **{n.name.value: n for n in walk.nodes_of(fn.body, cst.FunctionDef)}}
        params = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)}
        # inside the callee its parameters and locals are taken as arrays: its callers pass traced values
        local = params | walk.name_values(fn.body)
        ok = exits(body, lambda _: False).effect is None and all(
            self._call_ok(call, inner, lambda e: Tracedness.TRACED if _root_name(e) in local else Tracedness.STATIC)  # type: ignore[arg-type]
            for call in walk.nodes_of(fn.body, cst.Call)
        ) and (self.facts_of is None or value_shaped_read(body, self.facts_of(fn)) is None)  # `x[m]` cannot be traced
        ok = ok and (self.traced_of is None or _python_branch(fn, self.traced_of(fn)) is None)
        self._memo[fn] = ok
        return ok


def _python_branch(fn: cst.FunctionDef, traced) -> Optional[cst.BaseExpression]:
    """The test of a Python `if`/`while`/conditional expression in `fn` (not in functions nested in it) that is not
    static when its parameters are traced, as they are when a traced body calls it: `bool()` of a tracer raises
    (`TracerBoolConversionError`) while the caller's loop or branch is traced."""
    for node in walk.nodes(fn.body):
        if isinstance(node, (cst.If, cst.While, cst.IfExp)) and traced.of(node.test) is not Tracedness.STATIC:
            return node.test
    return None


UFUNC_METHODS = {"at", "reduce", "accumulate", "reduceat", "outer"}


def numpy_kept(parts: list[str], units: Optional[str] = None) -> Optional[str]:
    """Why the NumPy function `np.<parts>` does not become traceable code in a safe run, or None when it does:
    `jax.numpy` has it and JX501 renames it with a safe fix, or another rule converts it (`np.random.*`, JX401;
    `np.add.at`, JX102; `np.errstate`, a no-op while tracing). `np.testing.assert_allclose(...)` compares concrete
    values, which a traced body does not have. JX501 renames a function only as an unsafe fix, so its NumPy call stays
    without `--unsafe-fixes`, where its `jax.numpy` namesake differs (`_namesakes.DIFFERENT`, `IN_PLACE`), and in a
    module that uses the unit library `units` (`_namesakes.units_difference`, JX501's own test: lenstronomy's
    `np.arcsinh` in an astropy module)."""
    if not parts or parts[0] in ("random", "errstate") or len(parts) == 2 and parts[1] in UFUNC_METHODS:
        return None
    short = ".".join(parts)
    if short in DIFFERENT or parts[-1] in IN_PLACE:
        # JX501's rename is unsafe (`np.linalg.lstsq`): it stays NumPy in a traced body (pydmd's PiDMD)
        return "its `jax.numpy` namesake differs, so JX501 renames it only as an unsafe fix"
    if lookup("numpy." + short) is None:
        return "`jax.numpy` has no such function"
    if units_difference(short, units) is not None:
        return (f"this module uses `{units}`, so JX501 renames NumPy calls only as an unsafe fix: `jax.numpy` drops a "
                "quantity's units, which NumPy keeps")
    return None


def stuck_boolean(parts: Sequence[cst.CSTNode], is_traced: Callable[[cst.BaseExpression], bool],
                  local: frozenset[str]) -> Optional[str]:
    """The code of the first `and`/`or` in `parts` with a traced operand before its last and a later operand that is
    not cheap and pure. Python skips that operand when the earlier one decides; `jnp.logical_or` would evaluate it,
    so JX203 leaves it, and in code that `lax.cond` or a `lax` loop traces it raises `TracerBoolConversionError`."""
    for part in parts:
        for node in walk.nodes(part):
            if not isinstance(node, cst.BooleanOperation):
                continue
            leaves = _leaves(node)
            if any(is_traced(leaf) for leaf in leaves[:-1]) and not all(cheap_and_pure(leaf, local) for leaf in leaves[1:]):
                return cst.Module([]).code_for_node(node).strip()
    return None


def _leaves(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BooleanOperation) and not node.lpar:
        return [*_leaves(node.left), *_leaves(node.right)]
    return [node]


# (the set routines too: `np.intersect1d(a, b)` has as many elements as `a` and `b` share, nitime's `multi_intersect`)
SET_ROUTINES = {"intersect1d", "union1d", "setdiff1d", "setxor1d", "unique_values", "unique_counts", "unique_inverse",
                "unique_all"}
VALUE_SHAPED = {"nonzero", "flatnonzero", "argwhere", "unique", "compress", "extract", "trim_zeros", *SET_ROUTINES}
VALUE_SHAPED_METHODS = {"nonzero", "compress"}


def value_shaped_read(stmts: Sequence[cst.CSTNode], facts) -> Optional[str]:
    """The code of the first read in `stmts` whose shape depends on values: a boolean-mask index (`x[~bad]`,
    `facts.is_mask`) or `np.nonzero`/`unique`/one-argument `where`... `lax.cond` traces every branch, whichever is
    taken, so such a read raises (`NonConcreteBooleanIndexError`) even where Python would not run it."""
    for stmt in stmts:
        for node in walk.nodes(stmt):
            if isinstance(node, cst.Subscript):  # `x[m]`, `path[1, path[0] == i]`: a mask among the indices
                if any(isinstance(e.slice, cst.Index) and facts.is_mask(e.slice.value) for e in node.slice):
                    return cst.Module([]).code_for_node(node)
            elif isinstance(node, cst.Call):
                name = facts.array_function(node.func)
                if name in VALUE_SHAPED or name == "where" and len(node.args) == 1:
                    return cst.Module([]).code_for_node(node)
                if name is None and isinstance(node.func, cst.Attribute) and node.func.attr.value in VALUE_SHAPED_METHODS:
                    return cst.Module([]).code_for_node(node)  # `(lf == k).nonzero()`
    return None


def shaped_note(shaped: str) -> str:
    """Why a branch reading `shaped` (`value_shaped_read`) keeps its `if`: the reason, for a report."""
    return (f"a branch reads `{shaped.strip()}`, whose shape depends on values; `jnp.where` evaluates every branch and "
            "`lax.cond` traces every branch, whichever is taken, and that read raises there (on an empty selection the "
            "test kept Python from reading, and under `jit` it has no static shape); give it a fixed size first (a "
            "reduction with `where=`, `size=`), or keep this code outside `jit`")


def shaped_loop_body(rule, body: Sequence[cst.CSTNode]) -> Optional[str]:
    """Why a `lax` loop cannot hold `body`, or None: a read whose shape depends on values (`value_shaped_read`), or
    a conversion to Python of a value that may be traced (`int(t[-1] / dt)`, `x.item()`: `traced_host_conversion`),
    raises while the loop body is traced, which `lax` loops do even outside `jit` (the Python loop ran): an array
    the body computes from, even one made before the loop, is a tracer there (obspy's `cwt`, whose `int(...)` is a
    slice bound)."""
    shaped = value_shaped_read(body, function_facts(rule, rule.current_function))
    if shaped is not None:
        return (f"`{shaped.strip()}` in the body has a shape that depends on values, which a traced loop body cannot "
                "have (give it a fixed size first: `size=`, `jnp.where`)")
    converted = traced_host_conversion(function_tracedness(rule, rule.current_function), body) \
        or _array_conversion(body, function_facts(rule, rule.current_function))
    if converted is not None:
        return (f"the body converts a value that may be an array to Python (`{converted}`): a `lax` loop traces its "
                "body, even outside `jit`, and the conversion raises there (`ConcretizationTypeError`), where the "
                "Python loop had the value")
    return None


def _array_conversion(body: Sequence[cst.CSTNode], facts) -> Optional[str]:
    """The code of the first `int(...)`, `float(...)`, `complex(...)` or `bool(...)` in `body` of an array the
    function makes, or a value computed from one (`int(t[-1] / 2. / (t[1] - t[0]))` with `t = np.linspace(...)`),
    else None: what tracedness takes for static (made from constants) is still a tracer in a traced loop body."""
    for stmt in body:
        for node in walk.nodes_of(stmt, cst.Call):
            if isinstance(node.func, cst.Name) and node.func.value in PYTHON_CONVERSIONS and len(node.args) == 1 \
                    and not node.args[0].star and made_array(node.args[0].value, facts):  # type: ignore[attr-defined]
                return cst.Module([]).code_for_node(node)
    return None


def _object_rooted(receiver: cst.BaseExpression, level: Callable[[cst.BaseExpression], Tracedness]) -> bool:
    """Whether `receiver` is an object's attribute (`self._A`), directly or through a local bound to one
    (`A_T = self.A.T`; `level` is a FunctionTracedness's `of`, which knows the bindings)."""
    root = _root_name(receiver)
    if root in ("self", "cls"):
        return True
    analysis = getattr(level, "__self__", None)
    if root is None or analysis is None or not hasattr(analysis, "assigned_values"):
        return False
    return any(v is not None and _root_name(v) in ("self", "cls") for v in analysis.assigned_values(root))


def _parameter_rooted(receiver: cst.BaseExpression, level: Callable[[cst.BaseExpression], Tracedness]) -> bool:
    """Whether `receiver` is a parameter of the function `level` analyses (a FunctionTracedness's `of`), or an
    attribute or item of one, that the function never rebinds: its caller may hand it a NumPy array or a
    `scipy.sparse` matrix (librosa's `__cqt_response` gets a sparse `basis`), whose methods reject the tracers a
    `lax` body or `lax.cond` branch gives them (`basis.dot(D[i])`: `TracerArrayConversionError`, even outside
    `jit`)."""
    root = _root_name(receiver)
    analysis = getattr(level, "__self__", None)
    function = getattr(analysis, "function", None)
    if root is None or not isinstance(function, cst.FunctionDef) or not hasattr(analysis, "assigned_values"):
        return False
    params = function.params
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    return root in names and root not in ("self", "cls") and not analysis.assigned_values(root)


def _root_name(node: cst.BaseExpression) -> Optional[str]:
    while isinstance(node, (cst.Attribute, cst.Subscript, cst.Call)):
        node = node.value if not isinstance(node, cst.Call) else node.func
    return node.value if isinstance(node, cst.Name) else None


def purity(rule) -> Purity:
    """The rule's `Purity` for the module being visited (one per rule instance and pass)."""
    found = rule.__dict__.get("_purity")
    if found is None:
        dependencies = getattr(rule, "METADATA_DEPENDENCIES", ())
        facts_of = (lambda fn: function_facts(rule, fn)) if MaskProvider in dependencies else None
        traced_of = (lambda fn: function_tracedness(rule, fn)) if TracednessProvider in dependencies else None
        found = rule._purity = Purity(rule.context.module, rule.context.imports, facts_of, traced_of)
    return found


def opaque_loop(rule, loop: cst.For | cst.While, function: cst.FunctionDef, primitive: str) -> str:
    """"" when the loop's body and header call only known-pure code; else the note that makes a loop rewrite
    unsafe (for the message)."""
    traced = function_tracedness(rule, function)
    header = [loop.test] if isinstance(loop, cst.While) else []
    check = purity(rule)
    opaque = check.opaque_call([*header, loop.body], function, traced.of)
    if opaque is None:
        held = held_numpy(rule, loop, function)
        if held is not None and not held[2]:
            return (f" (`{held[0]}(...)` is given values the loop binds, and JX501 renames it only as an unsafe fix: "
                    f"`jax.numpy`'s {held[1]}; left NumPy, it raises on the traced values a `lax` body is given "
                    "(`TracerArrayConversionError`))")
        return ""
    return (f" (the loop calls `{opaque}`, which `{primitive}` runs once while tracing instead of on every iteration: "
            f"safe only if it is pure JAX code{check.kept_note(opaque)})")


def _kept_helper(rule, call: cst.Call) -> Optional[str]:
    """Why JX501 leaves the module's function `call` calls by name NumPy in this run (`_caller_writes.host_results`:
    a caller writes into its result, or hands it where only a NumPy array goes), else None: its NumPy calls then
    raise on the tracers a `lax` body or branch would give it."""
    from codemods._caller_writes import host_results  # (it reaches JX501's own modules, which import this one's users)

    if not isinstance(call.func, cst.Name):
        return None
    why = host_results(rule).get(call.func.value)
    return f"`{call.func.value}` stays NumPy in JX501's judgement: {why}" if why is not None else None


def held_problem(held: Optional[tuple[str, str, bool]]) -> Optional[str]:
    """Why a loop whose body `held_numpy` found cannot be a `lax` loop (a call JX501 leaves NumPy in every run), or
    None."""
    if held is None or not held[2]:
        return None
    return (f"`{held[0]}(...)` is given values the loop binds but stays NumPy ({held[1]}), and NumPy raises on the "
            "traced values a `lax` body is given (`TracerArrayConversionError`)")


def held_numpy(rule, loop: cst.For | cst.While, function: cst.FunctionDef) -> Optional[tuple[str, str, bool]]:
    """The first NumPy call in the loop's body (or `while` test) given a value the loop binds (its target, a name the
    body assigns: the index, the carry) that JX501 does not rename with a safe fix, as (callee code, why, kept), or
    None. kept: JX501 leaves it NumPy in every run (`_kept_numpy.kept_reason`: nitime's `np.correlate` of an array
    whose dtype it cannot tell would be one with a Python value); else JX501 renames it only as an unsafe fix (its
    namesake gives floats for integer inputs, `_namesakes.integer_inputs`, or float counts, `float_counts`, or takes
    a computed keyword as a static value, `static_keyword`). A NumPy call raises on the tracers a `lax`
    body is given (`TracerArrayConversionError`); on values fixed before the loop it is fine (a constant)."""
    from codemods._kept_numpy import kept_reason  # (it reaches JX501's own modules, which import this one's users)
    from codemods._namesakes import INTEGER_TO_FLOAT, float_counts, integer_inputs, static_keyword
    from jaxfix.analysis.dataflow import function_flow
    from jaxfix.analysis.numpy_names import numpy_name

    flow = function_flow(rule, function)
    header = [loop.test] if isinstance(loop, cst.While) else [loop.target]
    bound = flow.writes(list(loop.body.body)) | (walk.name_values(loop.target) if isinstance(loop, cst.For) else set())
    for part in [*header, loop.body]:
        for call in walk.nodes_of(part, cst.Call):
            qualified = numpy_name(rule, call.func)  # type: ignore[attr-defined]
            helper = qualified is None and isinstance(call.func, cst.Name)  # type: ignore[attr-defined]
            if not (helper or qualified is not None and qualified.startswith("numpy.")) \
                    or not flow.reads(list(call.args)) & bound:  # type: ignore[attr-defined]
                continue
            # (a function of the module JX501 keeps NumPy, `xi - f(xi)`, raises on the tracers as a NumPy call does)
            kept = kept_reason(rule, call) if not helper else _kept_helper(rule, call)  # type: ignore[arg-type]
            if helper:
                if kept is not None:
                    return rule.code(call.func), kept, True  # type: ignore[attr-defined]
                continue
            if kept is not None:
                return rule.code(call.func), kept, True  # type: ignore[attr-defined]
            short = ".".join(qualified.split(".")[1:])
            different = integer_inputs(rule, call, short) if short in INTEGER_TO_FLOAT else None  # type: ignore[arg-type]
            # JX501's other call-by-call unsafe renames: `jnp.histogram`'s float counts, a static keyword given a
            # computed value (dtaidistance's `np.histogram(np.abs(p - ts), bins=20)` over the series it scans)
            different = different or float_counts(call, short) or static_keyword(call, short)  # type: ignore[arg-type]
            if different is not None:
                return rule.code(call.func), f"`{short}` {different}", False  # type: ignore[attr-defined]
    return None


# Python builtins that need a concrete number and that no later pass rewrites (`min((2 * k + 1, n - 1))` on the
# loop counter; `int(k)` becomes `.astype`, `range(k)` a loop of its own)
INDEX_BUILTINS = {"min", "max", "round"}
# NumPy functions whose result's shape depends on these arguments' values (`np.delete(data, i)`, `np.arange(i)`):
# `jax.numpy` needs them concrete
SIZED_BY = {"delete", "insert", "arange", "zeros", "ones", "empty", "full", "eye", "identity", "tri", "linspace",
            "repeat", "tile", "resize", "reshape", "broadcast_to"}


def _index_builtin(loop: cst.For, bound: set[str]) -> Optional[str]:
    """The Python builtin (`min`, `max`, `round`), `math` function or NumPy function that sizes its result by it
    (`np.delete(data, i)`, astropy's jackknife) the loop body calls on a value computed from the names the loop binds
    (directly, or through names the body assigns from them), or "tuple * n" for a tuple repeated that many times
    (`(1,) * i`, statsmodels' Hamilton filter), else None."""
    derived = set(bound)
    assigns = list(walk.nodes_of(loop.body, cst.Assign))
    grown = True
    while grown:
        grown = False
        for assign in assigns:
            if walk.name_values(assign.value) & derived:  # type: ignore[attr-defined]
                for target in assign.targets:  # type: ignore[attr-defined]
                    names = [target.target] if isinstance(target.target, cst.Name) else \
                        [e.value for e in target.target.elements] if isinstance(target.target, (cst.Tuple, cst.List)) else []
                    new = {n.value for n in names if isinstance(n, cst.Name)} - derived
                    grown |= bool(new)
                    derived |= new
    for call in walk.nodes_of(loop.body, cst.Call):
        name = dotted_name(call.func)  # type: ignore[attr-defined]
        short = (name or "").split(".")[-1]
        if (name in INDEX_BUILTINS or (name or "").startswith("math.") or "." in (name or "") and short in SIZED_BY) and \
                any(walk.name_values(arg.value) & derived for arg in call.args):  # type: ignore[attr-defined]
            return name
    for product in walk.nodes_of(loop.body, cst.BinaryOperation):  # `(1,) * i`: a tuple as long as the counter
        if isinstance(product.operator, cst.Multiply) and any(  # type: ignore[attr-defined]
                isinstance(side, (cst.Tuple, cst.List)) for side in (product.left, product.right)) and \
                walk.name_values(product) & derived:  # type: ignore[attr-defined]
            return "tuple * n"
    return None


def host_indexed(rule, loop: cst.For | cst.While, function: cst.FunctionDef, converted: Sequence[str] = ()) -> str:
    """"" unless the loop body passes a value computed from a name the loop binds to a Python builtin that needs a
    concrete number (`min`, `max`, `round`, `math.*`: cma's `x[min((2 * k + 1, n - 1))]`), or indexes, with a name the loop binds (its counter, its element), an array the function
    gets from a call not known to be JAX (`PQd = squareform(P)`, `data = ndi.gaussian_filter(x)`): that is a NumPy
    array at run time, and under a `lax` loop the index is traced, which a NumPy array rejects
    (`TracerArrayConversionError`); or an object's attribute (`self.A[a]`, a list of arrays in numpy-ml's LinUCB),
    which a list rejects too. Else the note that makes the loop rewrite unsafe."""
    bound = walk.name_values(loop.target) if isinstance(loop, cst.For) else set()
    if not bound:
        return ""
    builtin = _index_builtin(loop, bound)
    if builtin is not None:
        return (f" (`{builtin}{'' if builtin == 'tuple * n' else '(...)'}` takes a value computed from the loop's "
                f"`{'`, `'.join(sorted(bound))}`, which a `lax` loop traces: a Python builtin, a `math` function, a "
                "repeated tuple or a shape needs a concrete number, so it raises; safe only without it)")
    from jaxfix.analysis.dataflow import function_flow

    traced = function_tracedness(rule, function)
    check = purity(rule)
    flow = function_flow(rule, function)
    # the names the function binds (not every name it reads: a module-level table read in the body is no local)
    local = flow.writes(list(function.body.body))  # type: ignore[attr-defined]
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    # the loop's names and what the body computes from them (`i, j = x[k], x[k + 1]`, then `self.D[i, j]`: pymoo's TSP)
    bound = bound | flow.writes(list(loop.body.body))  # type: ignore[attr-defined]
    for sub in walk.nodes_of(loop.body, cst.Subscript):
        name = sub.value.value if isinstance(sub.value, cst.Name) else None  # type: ignore[attr-defined]
        if not any(bound & walk.name_values(e.slice) for e in sub.slice):  # type: ignore[attr-defined]
            continue
        if isinstance(sub.value, cst.Attribute) and sub.value.attr.value not in ("T", "mT", "real", "imag", "at"):
            shown = cst.Module([]).code_for_node(sub.value).strip()
            if shown in converted:  # (read as `jnp.asarray(self.D)` before the loop: `argument_inputs`)
                return (f" (`{shown}` is an object's attribute, read as `jnp.asarray({shown})` before the loop, which "
                        "the traced index can index: a NumPy array or a list of numbers converts, a list of arrays of "
                        "different shapes or of objects does not; safe only if it converts)")
            return (f" (`{shown}` is an object's attribute, which may be a Python list or a NumPy array: indexed by the "
                    "traced loop index, either raises; safe only if it is a JAX array)")
        if name is None or name in converted:  # (the body reads `jnp.asarray(name)`: `argument_inputs`)
            continue
        table = name if name not in params and name not in local and name in check.tables() else \
            check.table_passed(function, name) if name in params else None
        if table is not None:
            what = f"`{name}` is a NumPy array made at module level" if table == name else \
                f"a call in this module passes `{name}` the module-level `{table}`, a NumPy array"
            return (f" ({what}, which jaxfix leaves NumPy: indexed by the traced loop index, it raises; safe only if it "
                    "is a JAX array by then)")
        for value in traced.assigned_values(name):
            call = _host_leaf(rule, check, value, function, traced)
            if call is not None:
                source = dotted_name(call.func) or cst.Module([]).code_for_node(call.func).strip()
                return (f" (`{name}` comes from `{source}(...)`, which may give a NumPy array: indexed by the traced loop "
                        "index, it raises; safe only if it gives a JAX array)")
    return ""


def _host_leaf(rule, check: "Purity", value: cst.BaseExpression, function: cst.FunctionDef, traced) -> Optional[cst.Call]:
    """The call not known to be JAX that makes `value` a NumPy array: `value` itself (`squareform(P)`), or one of
    the calls of an arithmetic expression none of whose other parts is an array (`cholesky(P) * sqrt(n)`: a JAX
    operand would make the result a JAX array)."""
    if isinstance(value, cst.Call):
        return None if check.gives_jax(value, function, traced.of) else value
    if not isinstance(value, (cst.BinaryOperation, cst.UnaryOperation)):
        return None
    leaves: list[cst.BaseExpression] = []
    pending: list[cst.BaseExpression] = [value]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.BinaryOperation):
            pending += [node.left, node.right]
        elif isinstance(node, cst.UnaryOperation):
            pending.append(node.expression)
        else:
            leaves.append(node)
    facts = function_facts(rule, function)
    host = None
    for leaf in leaves:
        if isinstance(leaf, cst.Call):
            if facts.array_function(leaf.func) is not None and not check.kept_note(dotted_name(leaf.func) or ""):
                return None  # a NumPy call: a JAX array after the migration (unless JX501 leaves it NumPy)
            if host is None and not check.gives_jax(leaf, function, traced.of):
                host = leaf
        elif not isinstance(leaf, (cst.Integer, cst.Float, cst.Imaginary)) and traced.of(leaf) is not Tracedness.STATIC:
            return None  # an array operand
    return host


def int_product(flow, loop: cst.For | cst.While, carried) -> str:
    """"" unless a carried name starts as a Python int literal and is multiplied in the loop: Python ints never
    overflow, a carry in a `lax` loop is int32 (int64 with x64), so a factorial-like product wraps around silently.
    Else the note that makes the loop rewrite unsafe."""
    inside = {id(n) for n in walk.walk(loop.body)}
    for name in carried:
        starts = [d.node for d in flow.reaching(loop, name) if id(d.node) not in inside]
        if not starts or not all(
            isinstance(s, cst.Assign) and isinstance(s.value, cst.Integer) for s in starts
        ):
            continue
        for node in walk.nodes_of(loop.body, cst.AugAssign):
            if isinstance(node.target, cst.Name) and node.target.value == name and isinstance(node.operator, (cst.MultiplyAssign, cst.PowerAssign, cst.LeftShiftAssign)):  # type: ignore[attr-defined]
                break
        else:
            products = [
                a for a in walk.nodes_of(loop.body, cst.Assign)
                if any(isinstance(t.target, cst.Name) and t.target.value == name for t in a.targets)  # type: ignore[attr-defined]
                and any(isinstance(b.operator, (cst.Multiply, cst.Power, cst.LeftShift)) for b in walk.nodes_of(a.value, cst.BinaryOperation))  # type: ignore[attr-defined]
            ]
            if not products:
                continue
        return (f" (`{name}` starts as a Python int and is multiplied in the loop: Python ints never overflow, a `lax` "
                "loop carry is int32 and would wrap around; start it as a float, or keep the loop in Python)")
    return ""


def carry_dtype_change(rule, function: cst.FunctionDef, loop: cst.For | cst.While, carried) -> str:
    """"" unless a carried name starts as a float constant (`float("-inf")`, `np.inf`, `0.0`) and the loop sets it
    to an element of an array argument (`vmax = v` of `for v in a`, `best = d[i]`), else the note that makes the
    loop rewrite unsafe: for int data the element is an int, and a `lax` loop carry keeps the dtype of its start
    (`TypeError`), where Python rebinds (dtaidistance's `argmax`). A Python int start that becomes a float is fine:
    JAX widens a weakly typed start."""
    from codemods._branch_values import element_names, float_constant, parameter_item
    from jaxfix.analysis.dataflow import function_flow

    flow = function_flow(rule, function)
    params = list(flow.params)
    inside = {id(n) for n in walk.walk(loop.body)}
    elements: Optional[set[str]] = None
    for name in carried:
        starts = [d.node for d in flow.reaching(loop, name) if id(d.node) not in inside]
        values = [v for v in (_start_value(s, name) for s in starts) if v is not None]
        if not any(float_constant(v) for v in values):
            continue
        if elements is None:
            elements = element_names(function, params)
        element = next((u for u in _updates(loop.body, name)
                        if parameter_item(u, params) or isinstance(u, cst.Name) and u.value in elements), None)
        if element is not None:
            code = cst.Module([]).code_for_node
            return (f" (`{name}` starts as the float `{code(values[0]).strip()}` and the loop sets it to "
                    f"`{code(element).strip()}`, an element of an array argument: for int data its dtype changes, and a "
                    "`lax` loop carry raises `TypeError` where Python rebinds; safe only for float inputs)")
    found = _dtype_changes(rule, function, loop, carried)
    if found is not None and not found[3]:
        return _dtype_note(*found)
    return ""


def carry_dtype_problem(rule, function: cst.FunctionDef, loop: cst.For | cst.While, carried) -> Optional[str]:
    """Why no `lax` loop can carry a name whose start has a known dtype that the body's arithmetic changes (an
    int64 array the loop divides, a float64 array it makes complex): the carry raises `TypeError` whatever the
    inputs. None otherwise (see `carry_dtype_change` for the cases that depend on the inputs)."""
    found = _dtype_changes(rule, function, loop, carried)
    if found is not None and found[3]:
        return _dtype_note(*found).strip()[1:-1]
    return None


def _dtype_note(name: str, start: str, update: str, certain: bool, complex_: bool, known: bool, updated: bool) -> str:
    kind = "complex" if complex_ else "a float"
    was = "real" if complex_ else "an integer"
    may = "is" if known else "may be"
    safe = "" if certain else f"; safe only for {'complex' if complex_ else 'float'} inputs" if not known else ""
    first = f"`{name}` {may} {was} before the loop" if start == name else f"`{name}` starts as `{start}`, which {may} {was}"
    makes = "makes" if updated else "may make"
    return (f" ({first}, and the loop {makes} it {kind} (`{update}`): a `lax` "
            f"loop carry keeps the dtype of its start and raises `TypeError` where Python rebinds{safe}; start it with "
            f"the dtype it ends with)")


def _dtype_changes(rule, function: cst.FunctionDef, loop: cst.For | cst.While, carried) -> Optional[tuple[str, str, str, bool, bool, bool, bool]]:
    """(name, start, update, certain, complex, known, updated) for the first carried name whose start is not a weakly typed
    Python scalar (a parameter, an array) and whose update in the body makes it complex (`z + 0j`, `1j * z`,
    `z.astype(complex)`) where the start may be real (nolds's `caf`: `x_in = x_in + 0j` on a real `x_in`), or a
    float (`z / 2`, `0.5 * z`, `np.sqrt(z)`) where the start is known to be an integer (`np.arange(n)`,
    `np.zeros(n, dtype=int)`). `lax` loops promote a weakly typed start (`acc = 0`) to the body's dtype, but any
    other carry keeps the dtype of its start (`TypeError`). A start of unknown dtype (a parameter) is taken for a
    float, as the rules take inputs elsewhere (a recurrence `y = y + dt * f(y)` of a parameter `y0` stays safe), but
    not for complex: real data is the common case. known: the start's kind is known; updated: the update's; certain:
    both."""
    from jaxfix.analysis.dataflow import function_flow
    from jaxfix.analysis.value_dtypes import COMPLEX, FLOAT, INT, UNKNOWN, dtype_of

    flow = function_flow(rule, function)
    facts = function_facts(rule, function)
    inside = {id(n) for n in walk.walk(loop.body)}
    code = cst.Module([]).code_for_node
    for name in carried:
        starts = []
        for d in flow.reaching(loop, name):
            if id(d.node) in inside:
                continue
            if d.is_parameter:
                starts.append((cst.Name(name), dtype_of(facts, cst.Name(name))))
                continue
            value = _start_value(d.node, name)
            if value is None:
                starts.append((cst.Name(name), UNKNOWN))
            elif not (isinstance(value, cst.Name) and value.value == "None"):
                starts.append((value, dtype_of(facts, value)))
        for start, first in starts:
            if first.weak:
                continue
            for update in _updates(loop.body, name):
                made = dtype_of(facts, update, {name: first})
                complex_ = made.kind == COMPLEX > first.kind
                # (an integer start grown with values of unknown dtype, `c + x[i]`, becomes a float for float data,
                # as the rules take parameters to be: not certain, so an unsafe fix)
                if complex_ or first.exact and made.kind >= FLOAT > first.kind \
                        or first.exact and first.kind == INT and not made.exact and made.kind < FLOAT:
                    updated = made.exact or complex_
                    return name, code(start).strip(), code(update).strip(), first.exact and updated, complex_, first.exact, updated
    return None


def scalar_carry_broadcast(flow, loop: cst.For | cst.While | cst.If, carried, region: Optional[Sequence[cst.CSTNode]] = None,
                           kind: str = "a `lax` loop carry") -> str:
    """"" unless a carried name starts small, as a number (`out = 1.0`) or an element (`out = coeffs[-1]`), and the
    loop grows it with a parameter read whole (`out = out * x + c`), which may be an array: NumPy broadcasts the
    variable to that shape, while a `lax` carry (and `lax.cond`'s branches) must keep its first shape and raises
    `TypeError`. Else the note that makes the rewrite unsafe. `region`: the statements that update the names
    (default: the loop's body); `kind`: what must keep one shape. A parameter the loop compares is taken to have one
    element: the comparison stood in a Python `if`/`while` (perhaps rewritten since), which needs one."""
    params = set(flow.params)
    region = [loop.body] if region is None else list(region)
    inside = {id(n) for n in walk.walk(loop)}
    # a parameter compared in the loop (or its test) came from a Python `if`/`while`, which needs one element
    tests = [loop.test] if isinstance(loop, (cst.While, cst.If)) else []
    compared = set().union(*(_whole_reads(c) for r in [*region, *tests] for c in walk.nodes_of(r, cst.Comparison)))
    for name in carried:
        starts = [d.node for d in flow.reaching(loop, name) if id(d.node) not in inside]
        small = [v for v in (_start_value(s, name) for s in starts) if v is not None and _small(v)]
        # a parameter with a number default (`rdc=0.0`, then `if rdc == 0.0: rdc = 0.05 * w * L / q`: scikit-rf's
        # inductor): the default is what a branch that fills it in replaces, so a value made from a whole parameter
        # there gives the branch another shape than the number the other branch keeps
        default = next((s.default for s in starts if isinstance(s, cst.Param) and s.default is not None and _small(s.default)), None)
        if default is not None:
            small.append(default)
        shown = ""
        if not small:  # `rn = guess` with `guess=0.1` (numpy-financial's `rate`): the start is that number by default
            for s in starts:
                number = _small_default(flow, s, name)
                if number is not None:
                    small.append(number)
                    shown = (f"`{cst.Module([]).code_for_node(_start_value(s, name)).strip()}`, by default "
                             f"`{cst.Module([]).code_for_node(number).strip()}`,")
                    break
        if not small:
            continue
        for value in [v for r in region for v in _updates(r, name)]:
            reads = _closure_reads(flow, loop, _through_temporaries(region, _whole_reads(value), set(carried)))
            if name not in reads and default is None:
                continue  # replaced, not grown: `m = x > t`
            if name not in reads:
                operand = next((o for o in sorted(reads - compared) if _wide(flow, loop, o, params - compared - {name}, inside)), None)
                if operand is not None:
                    return (f" (`{name}` is a number by default (`{cst.Module([]).code_for_node(default).strip()}`) and a "
                            f"branch sets it from `{operand}`, which may be an array: NumPy gives `{name}` its shape, "
                            f"{kind} must keep one shape, or `TypeError` is raised)")
                continue
            for operand in sorted(o for o in reads - compared - {name} if _wide(flow, loop, o, params - compared, inside)):
                start = shown or f"`{cst.Module([]).code_for_node(small[0]).strip()}`"
                return (f" (`{name}` starts as {start} and its update combines it with `{operand}`, which may be an "
                        f"array: NumPy broadcasts `{name}` to its shape, {kind} must keep its first shape, or "
                        f"`TypeError` is raised; start it with the shape it ends with)")
    return ""


def _small_default(flow, start: cst.CSTNode, name: str, depth: int = 3) -> Optional[cst.BaseExpression]:
    """`rn = guess` before the loop, `guess` a parameter with a number default (`guess=0.1`), perhaps through
    further plain copies (`g = guess; rn = g`): that default, a start an array operand can broadcast; else None."""
    value = _start_value(start, name)
    if depth == 0 or not isinstance(value, cst.Name):
        return None
    for d in flow.reaching(start, value.value):
        node = d.node
        if isinstance(node, cst.Param) and node.default is not None and _small(node.default):
            return node.default
        found = _small_default(flow, node, value.value, depth - 1)
        if found is not None:
            return found
    return None


def _through_temporaries(region: Sequence[cst.CSTNode], reads: set[str], carried: set[str], depth: int = 3) -> set[str]:
    """`reads` with the whole reads of the values the `region` assigns to each of them added, for names that are
    not carried (body temporaries: `rnp1 = rn - (rn * rn - x) / (2 * rn)` then `rn = rnp1`, numpy-financial's
    `rate`), at most `depth` such steps: the update `rn = rnp1` combines `rn` with `x` as much as the direct one."""
    found = set(reads)
    frontier = set(reads) - carried
    for _ in range(depth):
        grown: set[str] = set()
        for temp in frontier:
            for value in (v for r in region for v in _updates(r, temp)):
                grown |= _whole_reads(value)
        frontier = grown - found - carried
        found |= grown
        if not frontier:
            break
    return found


def _closure_reads(flow, loop: cst.CSTNode, reads: set[str]) -> set[str]:
    """`reads` with, for each of them that is a function defined in the enclosing function before `loop` (`def
    f(x): return x - sin(x) - c`), the names its returned values read whole from the enclosing scope (`c`, not its
    parameter `x`): `xi = xi - f(xi) / df(xi)` combines `xi` with `c` (scipy's `_compute_tauk`, `c` computed from
    the array `k`)."""
    found = set(reads)
    for name in reads:
        for d in flow.reaching(loop, name):
            if not isinstance(d.node, cst.FunctionDef):
                continue
            params = d.node.params
            own = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
            own.update(p.name.value for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param))
            body = [d.node.body]
            returned = {r for ret in walk.nodes_of(d.node.body, cst.Return) if ret.value is not None  # type: ignore[attr-defined]
                        for r in _whole_reads(ret.value)}  # type: ignore[attr-defined]
            assigned = {n for a in walk.nodes_of(d.node.body, cst.Assign) for t in a.targets  # type: ignore[attr-defined]
                        for n in walk.name_values(t.target)}
            found |= _through_temporaries(body, returned, own) - own - assigned
    return found


def _wide(flow, loop: cst.CSTNode, name: str, params: set[str], inside: set[int], depth: int = 3) -> bool:
    """Whether `name` may have a parameter's shape where `loop` reads it: it is one of `params`, or a local that a
    definition before `loop` computes from one read whole (`x2 = 2.0 * x`), at most `depth` such steps away."""
    if name in params:
        return True
    if depth == 0 or name in flow.params:
        return False
    for d in flow.reaching(loop, name):
        if id(d.node) in inside:
            continue
        value = _start_value(d.node, name) if isinstance(d.node, cst.Assign) else None
        if isinstance(d.node, cst.AugAssign) and isinstance(d.node.target, cst.Name):
            value = d.node.value
        if value is not None and any(_wide(flow, loop, r, params, inside, depth - 1) for r in _whole_reads(value) - {name}):
            return True
    return False


def _start_value(start: cst.CSTNode, name: str) -> Optional[cst.BaseExpression]:
    """The value the definition `start` (before the loop) gives `name`, when it is a plain (tuple) assignment."""
    if not isinstance(start, cst.Assign) or len(start.targets) != 1:
        return None
    target, value = start.targets[0].target, start.value
    if isinstance(target, cst.Name):
        return value if target.value == name else None
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) and len(
            target.elements) == len(value.elements):
        for t, v in zip(target.elements, value.elements):
            if isinstance(t.value, cst.Name) and t.value.value == name:
                return v.value
    return None


# the number constants of `math` and NumPy (`xi = 0.5 * pi`: scipy's `_compute_tauk`)
_CONSTANTS = frozenset({"pi", "e", "tau", "inf", "nan", "euler_gamma", "Inf", "NaN", "NAN", "PINF", "NINF"})


def _small(value: cst.BaseExpression) -> bool:
    """A number (`1.0`, `-1`, `True`, `np.pi`) or an element (`coeffs[-1]`), or arithmetic of those: a start that an array
    operand can broadcast to a larger shape (a parameter or an array call may already have that shape)."""
    if isinstance(value, (cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(value, cst.Name):  # (`pi` of `from numpy import pi`: a number; taken as one whatever binds it,
        return value.value in ("True", "False") or value.value in _CONSTANTS  # which can only make the rewrite unsafe)
    if isinstance(value, cst.Attribute):  # `np.pi`, `math.pi`
        return value.attr.value in _CONSTANTS and isinstance(value.value, cst.Name)
    if isinstance(value, cst.Subscript):
        return all(isinstance(e.slice, cst.Index) for e in value.slice)
    if isinstance(value, cst.UnaryOperation):
        return _small(value.expression)
    if isinstance(value, cst.BinaryOperation):
        return _small(value.left) and _small(value.right)
    return False


def _updates(body: cst.CSTNode, name: str) -> list[cst.BaseExpression]:
    """The values assigned to `name` in `body` (`name = v`, `name op= v`, `a, name = u, v`)."""
    found: list[cst.BaseExpression] = []
    for node in walk.nodes_of(body, cst.AugAssign):
        if isinstance(node.target, cst.Name) and node.target.value == name:  # type: ignore[attr-defined]
            found.append(cst.BinaryOperation(cst.Name(name), cst.Add(), node.value))  # type: ignore[attr-defined]
    for node in walk.nodes_of(body, cst.Assign):
        for t in node.targets:  # type: ignore[attr-defined]
            target, value = t.target, node.value  # type: ignore[attr-defined]
            if isinstance(target, cst.Name) and target.value == name:
                found.append(value)
            elif isinstance(target, (cst.Tuple, cst.List)):
                for k, e in enumerate(target.elements):
                    if isinstance(e.value, cst.Name) and e.value.value == name:
                        same = isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(target.elements)
                        found.append(value.elements[k].value if same else value)
    return found


_LAX_CONTROL = frozenset({"cond", "switch", "while_loop", "fori_loop", "scan"})


def _whole_reads(value: cst.BaseExpression) -> set[str]:
    """Names `value` reads whole: not only indexed (`x[i]`), an attribute's owner (`x.shape`) or `len(x)`'s argument.
    A slice (`x[:, i]`, a column; `x[1:]`) or a new axis (`x[None]`, `x[..., i]`) keeps an axis of `x`: read whole."""
    found: set[str] = set()

    def visit(node: cst.CSTNode) -> None:
        if isinstance(node, cst.Name):
            found.add(node.value)
        elif isinstance(node, cst.Subscript) and any(_keeps_axis(e) for e in node.slice):
            visit(node.value)
            for e in node.slice:
                visit(e)
        elif isinstance(node, (cst.Subscript, cst.Attribute)):
            for child in node.children:
                if child is not node.value:
                    visit(child)
        elif isinstance(node, cst.Call) and (isinstance(node.func, cst.Name) and node.func.value == "len" or isinstance(
                node.func, cst.Attribute) and node.func.attr.value in _LAX_CONTROL):
            return  # a size; or branch and loop bodies, whose own updates are checked where they stand
        elif isinstance(node, (cst.Lambda, cst.GeneratorExp, cst.ListComp, cst.SetComp, cst.DictComp)):
            return
        else:
            for child in node.children:
                visit(child)

    visit(value)
    return found


def _keeps_axis(element: cst.SubscriptElement) -> bool:
    """Whether the subscript element keeps or adds an axis: a slice, `None` or `...`."""
    if isinstance(element.slice, cst.Slice):
        return True
    value = element.slice.value  # type: ignore[attr-defined]
    return isinstance(value, cst.Ellipsis) or isinstance(value, cst.Name) and value.value == "None"


# arguments that size a NumPy function's result (`np.histogram(x, bins=n)`: n bins, `np.zeros(n)`): `jax.numpy` needs
# them as Python values, never as the traced operands of a `lax.cond` branch
_SIZE_KEYWORDS = frozenset({"bins", "shape", "size", "num", "newshape", "reps", "repeats", "length", "ndmin", "N", "M"})
_SIZE_POSITIONS = {"histogram": (1,), "bincount": (), "delete": (1,), "insert": (1,), "resize": (1,)}


def branch_numpy(rule, stmts: Sequence[cst.CSTNode], operands: Sequence[str]) -> Optional[tuple[str, bool]]:
    """For code that `lax.cond` would trace (`stmts`, every branch; `operands`, the names it passes the branch
    functions, which are tracers there): the first NumPy call there that cannot take them, as (why, blocks) or None.
    blocks: a value computed from an operand is a size argument (`np.histogram(x, bins=max_bins)`: tsfresh's
    binned_entropy; `np.zeros(n)`), which must be a Python value, or JX501 leaves the call NumPy in every run
    (`_kept_numpy.kept_reason`), and NumPy raises on a tracer (`TracerArrayConversionError`); else (not blocking) JX501
    renames it only as an unsafe fix for this call (`np.histogram`'s counts, `_namesakes.float_counts`; integer inputs,
    `_namesakes.integer_inputs`), so a safe run leaves it NumPy."""
    from codemods._kept_numpy import kept_reason  # (it reaches JX501's own modules, which import this one's users)
    from codemods._namesakes import INTEGER_TO_FLOAT, float_counts, integer_inputs
    from jaxfix.analysis.numpy_names import numpy_name
    from jaxfix.analysis.static_args import SHAPE_KEYWORDS, SHAPE_POSITIONS, value_reads

    derived = set(operands)
    assigns = [a for s in stmts for a in walk.nodes_of(s, cst.Assign)]
    changed = True
    while changed:  # branch locals computed from an operand (`n = max_bins + 1`)
        changed = False
        for assign in assigns:
            if value_reads(assign.value) & derived:  # type: ignore[attr-defined]
                new = {n for t in assign.targets for n in walk.name_values(t.target)} - derived  # type: ignore[attr-defined]
                if new:
                    derived |= new
                    changed = True
    unsafe = None
    for stmt in stmts:
        for call in walk.nodes_of(stmt, cst.Call):
            qualified = numpy_name(rule, call.func)  # type: ignore[attr-defined]
            if qualified is None and isinstance(call.func, cst.Name):  # type: ignore[attr-defined]
                kept = _kept_helper(rule, call)  # type: ignore[arg-type]  # (a function of the module JX501 keeps NumPy)
                if kept is not None and value_reads(call).intersection(derived):
                    return (f"a branch calls `{rule.code(call.func)}(...)` on the traced operands `lax.cond` gives its "  # type: ignore[attr-defined]
                            f"branches, and it stays NumPy ({kept}): NumPy raises on a tracer "
                            "(`TracerArrayConversionError`)"), True
                continue
            if qualified is None or not qualified.startswith("numpy."):
                continue
            code, short = rule.code(call.func), ".".join(qualified.split(".")[1:])  # type: ignore[attr-defined]
            positions = SHAPE_POSITIONS.get(short, ()) or _SIZE_POSITIONS.get(short, ()) or ()
            for i, arg in enumerate(call.args):  # type: ignore[attr-defined]
                sizing = arg.keyword.value in SHAPE_KEYWORDS | _SIZE_KEYWORDS if arg.keyword is not None \
                    else not arg.star and (i in positions or SHAPE_POSITIONS.get(short, ()) is None)
                read = value_reads(arg.value) & derived if sizing else set()
                if read:
                    return (f"a branch gives `{rule.code(arg.value)}` to `{code}(...)` as a size (it reads "
                            f"`{sorted(read)[0]}`, which `lax.cond` passes its branches as a traced operand), and a size "
                            "must be a Python value (NumPy and `jax.numpy` raise on a tracer there)"), True
            kept = kept_reason(rule, call)  # type: ignore[arg-type]
            if kept is not None and value_reads(call).intersection(derived):
                return (f"a branch calls `{code}(...)` on the traced operands `lax.cond` gives its branches, and it stays "
                        f"NumPy ({kept}): NumPy raises on a tracer (`TracerArrayConversionError`)"), True
            if unsafe is None and value_reads(call).intersection(derived):
                last = short.split(".")[-1]
                different = float_counts(call, last) or (  # type: ignore[arg-type]
                    integer_inputs(rule, call, short) if short in INTEGER_TO_FLOAT else None)  # type: ignore[arg-type]
                if different is not None:
                    unsafe = (f" (a branch calls `{code}(...)` on the traced operands `lax.cond` gives its branches, and "
                              f"JX501 renames it only as an unsafe fix: `jnp.{short}` {different}; left NumPy, it raises "
                              "on a tracer (`TracerArrayConversionError`))"), False
    return unsafe
