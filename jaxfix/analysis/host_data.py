"""Values NumPy takes that JAX cannot, found where a NumPy call is given them (JX501 keeps such a call NumPy, or
makes its rename unsafe). The string, `None` and object data of displays is `foreign_dtypes.object_data`; here:

- `none_default`: a parameter defaulting to None (or a local bound to what may be None: `d.get(k)`,
  `getattr(o, n, None)`, `None` on some path), handed to `np.asarray`/`np.array` where nothing guards the call
  against None (NumPy makes NaN or an object array of it, `jnp.asarray` raises); `none_argument`: the same, still
  holding its default, given where another function's namesake takes an array only;
- `clock_data`: wall-clock readings and dates as numbers (`time.time()`, `(index - epoch) / pd.Timedelta("1s")`,
  seconds since 1970), which float32 resolves to about 2 minutes.

- arrays that must stay NumPy arrays: shuffled in place by a generator jaxfix does not convert (`shuffled_array`),
  handed to a numba-compiled function (`numba_argument`), held by a class that is a sequence over them
  (`sequence_attributes`: iterating ends at the `IndexError` JAX never raises) or by a NumPy array type of the
  module's own (`numpy_array_class`: a subclass of `np.ndarray`, `np.matrix` or another NumPy array type, or a class with NumPy's dispatch hooks), or
  timing data (`timing_write`: clock readings stored in an array, where JAX's asynchronous work would distort
  the intervals).

A `rule` here must declare `MaskProvider` and `ParentProvider` (and `NumpyNameProvider` for the last three).
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Optional

import libcst as cst

from jaxfix import walk
from jaxfix.analysis import doctests
from jaxfix.analysis.activity import analyse
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.masks import function_facts
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.parents import ParentProvider, enclosing_statement
from jaxfix.imports import dotted_name

CLOCKS = {"time.time", "time.perf_counter", "time.monotonic", "time.process_time", "perf_counter", "monotonic"}
# dates and times as numbers (pvlib: `(index - epoch) / pd.Timedelta("1s")`, seconds since 1970)
DATETIMES = {"Timestamp", "Timedelta", "to_datetime", "DatetimeIndex", "date2num", "datetime", "utcnow", "now",
             "fromtimestamp", "timestamp", "to_julian_date"}
DATETIME_MODULES = {"pd", "pandas", "datetime", "dt", "matplotlib", "mdates"}


def _clock(call: cst.Call) -> Optional[str]:
    """The clock or date call `call` is (`time.time()`, `pd.Timestamp("1970-01-01")`, `t.timestamp()`), or None."""
    name = dotted_name(call.func)
    if name in CLOCKS and not call.args:
        return f"{name}()"
    head, _, last = name.rpartition(".") if name else ("", "", "")
    if last in DATETIMES and (head.split(".")[0] in DATETIME_MODULES or last == "timestamp" and head and not call.args):
        return f"{name}(...)" if call.args else f"{name}()"
    return None


def none_default(rule: cst.MetadataDependent, call: cst.Call, fed_none: frozenset[str] = frozenset()) -> Optional[str]:
    """Why renaming `np.asarray(origin, dtype=float)` is unsafe, when `origin` is a parameter defaulting to None and
    nothing guards the call against None (trimesh's points_to_indices); else None. The same for a parameter inside
    a list or tuple given (`np.array([lowcut, highcut], dtype=float)`: neurokit2's filter, where NumPy makes NaN of
    None). Guards: the call under `if origin is not None:` (or in the `else` of `if origin is None:`, or under
    `if origin:`), or an `if origin is None:` anywhere in the function that rebinds it or leaves (`raise`,
    `return`). `fed_none`: the function's parameters that a call in the module passes None (nilearn's
    `resample_img(target_shape=None)` passing it on to `np.array(target_shape)` in a helper)."""
    first = call.args[0].value if call.args and call.args[0].keyword is None else None
    function = getattr(rule, "current_function", None)
    if function is None:
        return None
    if isinstance(first, (cst.List, cst.Tuple)):
        names = [e.value.value for e in first.elements if isinstance(e.value, cst.Name)]
    else:
        names = [first.value] if isinstance(first, cst.Name) else []
    if first is not None and isinstance(first, cst.Call) and may_be_none(first):  # `np.asarray(kwargs.get("query"))`
        return (f"rejects None, which `{dotted_name(first.func)}(...)` may give (NumPy makes a NaN or object array of "
                "it): keep NumPy's call or handle None first")
    defaults = function_facts(rule, function).defaults
    for name in names:
        default = defaults.get(name)
        if isinstance(default, cst.Name) and default.value == "None" and not _guarded(rule, call, function, name):
            return (f"rejects None, which `{name}` defaults to (NumPy makes a NaN or object array of it): keep NumPy's "
                    "call or handle None first")
        if name in fed_none and not _guarded(rule, call, function, name):
            return (f"rejects None, which a call in the module passes as `{name}` (NumPy makes a NaN or object array "
                    "of it): keep NumPy's call or handle None first")
        bound = _none_binding(rule, call, function, name)
        if bound is not None and not _guarded(rule, call, function, name):
            return (f"rejects None, which `{name}` may hold here (bound to `{bound}`; NumPy makes a NaN or object "
                    "array of it): keep NumPy's call or handle None first")
    return None


def may_be_none(value: cst.BaseExpression) -> bool:
    """`value` may be None: `None`, `d.get(k)`, `d.get(k, None)`, `d.pop(k, None)`, `d.setdefault(k)`,
    `d.setdefault(k, None)`, `getattr(o, n, None)`, `next(it, None)`, or a conditional expression with such a
    branch."""
    if isinstance(value, cst.Name):
        return value.value == "None"
    if isinstance(value, cst.IfExp):
        return may_be_none(value.body) or may_be_none(value.orelse)
    if not isinstance(value, cst.Call) or any(a.star for a in value.args):
        return False
    func, args = value.func, value.args
    if isinstance(func, cst.Attribute) and func.attr.value in ("get", "setdefault") and all(a.keyword is None for a in args):
        return len(args) == 1 or len(args) == 2 and may_be_none(args[1].value)
    if isinstance(func, cst.Attribute) and func.attr.value == "pop" and len(args) == 2 and args[1].keyword is None:
        return may_be_none(args[1].value)  # (`kwargs.pop("query", None)`; `xs.pop(i)` of a list is an item)
    if isinstance(func, cst.Name) and func.value == "next" and len(args) == 2 and args[1].keyword is None:
        return may_be_none(args[1].value)
    if isinstance(func, cst.Name) and func.value == "getattr" and len(args) == 3 and args[2].keyword is None:
        return may_be_none(args[2].value)
    return False


def _none_binding(rule: cst.MetadataDependent, call: cst.CSTNode, function: cst.FunctionDef, name: str,
                  seen: frozenset[str] = frozenset()) -> Optional[str]:
    """The text of a binding of the local `name` that reaches `call` and may hold None (`Q = kwargs.get("query",
    None)`, then `np.asarray(Q)`: tsfresh's query_similarity_count; `Q = None` on one path; a walrus, `if (Q :=
    kw.get("q")) is not None:`, read past its guard), or binds a name that may (`q = c`, of a parameter `c=None`
    that reaches it unguarded, or of such a local), else None."""
    statement = enclosing_statement(rule, call)
    if statement is None:
        return None
    try:
        reaching = function_flow(rule, function).reaching(statement, name)
    except KeyError:  # a statement the flow does not hold
        return None
    for definition in reaching:
        small = definition.node
        values: list[cst.BaseExpression] = []
        if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            if any(isinstance(t, cst.Name) and t.value == name for t in targets):
                values.append(small.value)
        if small is not None and not isinstance(small, cst.Param):  # `(Q := kw.get("q"))`, in a test or a statement
            header = small.test if isinstance(small, (cst.If, cst.While)) else small.iter if isinstance(small, cst.For) \
                else small if isinstance(small, cst.BaseSmallStatement) else None  # (not a compound's body)
            values += [n.value for n in walk.nodes_of(header, cst.NamedExpr)  # type: ignore[arg-type]
                       if n.target.value == name] if header is not None else []  # type: ignore[attr-defined]
        for value in values:
            if may_be_none(value):
                return cst.Module([]).code_for_node(value)
            if isinstance(value, cst.Name) and value.value not in seen and value.value != name:  # `q = c`
                default = function_facts(rule, function).defaults.get(value.value)
                if isinstance(default, cst.Name) and default.value == "None" and not _guarded(rule, small, function, value.value):
                    at = enclosing_statement(rule, small)
                    try:
                        reached = function_flow(rule, function).reaching(at, value.value) if at is not None else ()
                    except KeyError:
                        reached = ()
                    if any(d.is_parameter for d in reached):
                        return f"{value.value}`, which defaults to `None"
                inner = _none_binding(rule, small, function, value.value, seen | {name})
                if inner is not None:
                    return inner
    return None


def none_argument(rule: cst.MetadataDependent, call: cst.Call, positions: tuple[int, ...], names: frozenset[str],
                  fed_none: frozenset[str] = frozenset()) -> Optional[str]:
    """Why renaming `call` is unsafe when an argument given where the namesake takes an array only (`positions`,
    by keyword `names`) is a parameter defaulting to None whose own value still reaches the call unguarded
    (vg's `np.sum(weights)` after `if weights is not None: weights = np.array(weights)`: NumPy gives None back, the
    namesake raises `TypeError`; chaospy's `np.where(growth, ...)` with `growth=None`), or a local that may hold None, or a
    parameter a call in the module passes None (`fed_none`); else None. Guards as for `none_default`."""
    function = getattr(rule, "current_function", None)
    if function is None or not (names or positions):
        return None
    defaults = function_facts(rule, function).defaults
    for index, arg in enumerate(call.args):
        if arg.star:
            break
        value = arg.value
        if not isinstance(value, cst.Name) or not (arg.keyword.value in names if arg.keyword is not None else index in positions):
            continue
        if _guarded(rule, call, function, value.value):
            continue
        bound = _none_binding(rule, call, function, value.value)
        if bound is not None:
            return (f"rejects None, which `{value.value}` may hold here (bound to `{bound}`; NumPy takes it as an "
                    "object): keep NumPy's call or handle None first")
        if value.value in fed_none:
            return (f"rejects None, which a call in the module passes as `{value.value}` (NumPy takes it as an "
                    "object): keep NumPy's call or handle None first")
        if _default_reaches(rule, call, function, value.value, defaults):
            return (f"rejects None, which `{value.value}` defaults to and may still hold here (NumPy takes it as an "
                    "object): keep NumPy's call or handle None first")
    return None


def none_default_here(rule: cst.MetadataDependent, at: cst.CSTNode, name: str) -> bool:
    """Whether `name`, read at `at` in the rule's current function, is a parameter defaulting to None whose own
    binding still reaches it with no guard (`if name is not None:` around it, `if name is None: name = ...` before):
    it may hold None there (`def average(values, weights=None): return np.average(values, weights=weights)`)."""
    function = getattr(rule, "current_function", None)
    return function is not None and not _guarded(rule, at, function, name) and _default_reaches(
        rule, at, function, name, function_facts(rule, function).defaults)


def _default_reaches(rule: cst.MetadataDependent, at: cst.CSTNode, function: cst.FunctionDef, name: str,
                     defaults: dict) -> bool:
    default = defaults.get(name)
    if not (isinstance(default, cst.Name) and default.value == "None"):
        return False
    statement = enclosing_statement(rule, at)
    reaching = function_flow(rule, function).reaching(statement, name) if statement is not None else ()
    return any(isinstance(d.node, cst.Param) for d in reaching)


def _guarded(rule: cst.MetadataDependent, call: cst.Call, function: cst.FunctionDef, name: str) -> bool:
    child, current = call, rule.get_metadata(ParentProvider, call, None)
    while current is not None and current is not function:
        if isinstance(current, cst.If):
            test = _none_test(current.test, name)
            if (test in ("not None", "truthy") and child is current.body) or (test == "None" and child is current.orelse):
                return True
        child, current = current, rule.get_metadata(ParentProvider, current, None)
    for branch in walk.nodes_of(function.body, cst.If):
        leaves = walk.nodes_of(branch.body, cst.Raise) or walk.nodes_of(branch.body, cst.Return)
        if _none_test(branch.test, name) == "None" and (name in analyse(branch.body).writes or leaves):
            return True  # `if origin is None: origin = ...` / `raise`
    return False


def _none_test(test: cst.BaseExpression, name: str) -> Optional[str]:
    """"None" for `name is None`, "not None" for `name is not None`, "truthy" for a bare `name`; else None."""
    if isinstance(test, cst.NamedExpr) and test.target.value == name:  # type: ignore[attr-defined]
        return "truthy"  # `if (q := kw.get("q")):`
    if isinstance(test, cst.Name) and test.value == name:
        return "truthy"
    left = test.left if isinstance(test, cst.Comparison) else None
    left = cst.Name(name) if isinstance(left, cst.NamedExpr) and left.target.value == name else left  # type: ignore[attr-defined]
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(left, cst.Name) \
            and left.value == name:
        comparison = test.comparisons[0]
        if isinstance(comparison.comparator, cst.Name) and comparison.comparator.value == "None":
            operator = comparison.operator
            return "None" if isinstance(operator, cst.Is) else "not None" if isinstance(operator, cst.IsNot) else None
    return None


def none_past_guard(rule: cst.MetadataDependent, name: str, statement: cst.CSTNode) -> bool:
    """Whether every path to `statement` passes a guard `if name is not None:` whose body rebinds `name` (an
    assignment of it directly in the body), or `if name is None: ... else:` whose `else` does: an earlier statement
    of a block enclosing `statement`, within its function. Where the parameter's own binding still reaches
    `statement`, the guard's test held it None (vg's `if weights is not None: weights = np.array(weights)`, then
    `np.average(values, weights=weights)`): no list the caller passed gets past it."""
    def rebinds(block: cst.BaseSuite) -> bool:
        return isinstance(block, cst.IndentedBlock) and any(
            isinstance(line, cst.SimpleStatementLine) and any(
                isinstance(small, (cst.Assign, cst.AnnAssign)) and any(
                    isinstance(t, cst.Name) and t.value == name
                    for t in ([t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]))
                for small in line.body)
            for line in block.body)

    child, current = statement, rule.get_metadata(ParentProvider, statement, None)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Module)):
        if isinstance(current, cst.IndentedBlock) and child in current.body:
            for earlier in current.body[:current.body.index(child)]:
                if not isinstance(earlier, cst.If):
                    continue
                test = _none_test(earlier.test, name)
                if test == "not None" and rebinds(earlier.body) or test == "None" and isinstance(earlier.orelse, cst.Else) \
                        and rebinds(earlier.orelse.body):
                    return True
        child, current = current, rule.get_metadata(ParentProvider, current, None)
    return False


def clock_data(rule: cst.MetadataDependent, call: cst.Call) -> Optional[str]:
    """The clock call (`time.time()`) whose values reach `call` as a positional argument: directly, in a display,
    or through a local list built from them (`tic = [time.time()]`, `tic.append(time.time())`); else None."""
    function = getattr(rule, "current_function", None)
    if function is None:
        return None
    known = rule.__dict__.setdefault("_clocked", {})
    if function not in known:  # once per function: does it read a clock at all?
        known[function] = any(_clock(c) for c in walk.nodes_of(function.body, cst.Call))  # type: ignore[arg-type]
    if not known[function]:
        return None
    for arg in call.args:
        if arg.keyword is not None or arg.star:
            continue
        value = arg.value
        places: list[cst.CSTNode] = [value]
        if isinstance(value, cst.Name):
            places = [a.value for a in walk.nodes_of(function.body, cst.Assign)
                      if any(isinstance(t.target, cst.Name) and t.target.value == value.value for t in a.targets)]
            places += [c for c in walk.nodes_of(function.body, cst.Call) if isinstance(c.func, cst.Attribute)
                       and c.func.attr.value == "append" and dotted_name(c.func.value) == value.value]
        for place in places:
            for inner in walk.nodes_of(place, cst.Call):
                clock = _clock(inner)  # type: ignore[arg-type]
                if clock is not None:
                    return clock
    return None


def _numpy_made(rule: cst.MetadataDependent, name: str) -> bool:
    """Every binding of the local `name` in the rule's current function holds a NumPy call (`w = np.array(..)`,
    `inds = np.arange(n) % k`)."""
    facts = function_facts(rule, rule.current_function)  # type: ignore[attr-defined]
    values = facts.bindings.get(name, [])
    return name not in facts.params and bool(values) and all(
        v is not None and any(numpy_name(rule, c.func) for c in walk.nodes_of(v, cst.Call)) for v in values)  # type: ignore[attr-defined]


def shuffled_array(rule: cst.MetadataDependent, call: cst.Call) -> Optional[str]:
    """The name `call` shuffles in place (`rng.shuffle(w)`, `random.shuffle(w)`: a generator jaxfix does not
    convert; JX401 converts `np.random.shuffle`) when it holds an array NumPy calls make here; else None."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "shuffle" and call.args) or numpy_name(rule, func):
        return None
    arg = call.args[0].value
    return arg.value if isinstance(arg, cst.Name) and _numpy_made(rule, arg.value) else None


def numba_argument(rule: cst.MetadataDependent, call: cst.Call, compiled: frozenset[str]) -> Optional[str]:
    """The argument of a call to one of the module's numba-compiled functions (`compiled`, see
    `plain_python.numba_compiled`) that holds an array NumPy calls make here (`row_sums(m)`, `m = np.zeros(..)`)."""
    func = call.func
    # a method, as `plain_python.numba_compiled` names it: `self.kernel(m)`, `Kernels.kernel(m)`
    if not (isinstance(func, cst.Name) and func.value in compiled or isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name) and f"self.{func.attr.value}" in compiled):
        return None
    return next((a.value.value for a in call.args if isinstance(a.value, cst.Name) and _numpy_made(rule, a.value.value)), None)


def sequence_attributes(module: cst.Module) -> dict[cst.ClassDef, set[str]]:
    """{class: the attributes its `__getitem__(self, i)` indexes with `i` (`self.z1[i]`)}, over the module."""
    found: dict[cst.ClassDef, set[str]] = {}
    for cls in walk.nodes_of(module, cst.ClassDef):
        for fn in cls.body.body:  # type: ignore[attr-defined]
            params = fn.params.params if isinstance(fn, cst.FunctionDef) and fn.name.value == "__getitem__" else ()
            if len(params) < 2:
                continue
            me, index = params[0].name.value, params[1].name.value
            for sub in walk.nodes_of(fn.body, cst.Subscript):
                value = sub.value  # type: ignore[attr-defined]
                if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == me \
                        and any(index in walk.name_values(e.slice) for e in sub.slice):  # type: ignore[attr-defined]
                    found.setdefault(cls, set()).add(value.attr.value)  # type: ignore[arg-type]
    return found


# the clocks that time code (a timer may take none of `CLOCKS`' care about arguments): `time.X()`, `timeit.X()`,
# or X imported on its own
TIMER_NAMES = {"time", "perf_counter", "perf_counter_ns", "monotonic", "process_time", "default_timer", "time_ns"}
# (`__array__` too: it must hand NumPy an `np.ndarray`, so what the class stores must stay one; and `jax.numpy` does
# not read such an object as NumPy does: ase's `Cell`, whose `np.asarray(self)` in its `dtype` property recursed)
NUMPY_HOOKS = {"__array__", "__array_ufunc__", "__array_function__", "__array_finalize__", "__array_wrap__"}
# NumPy's matrix machinery, as `NumpyNameProvider` qualifies it: the modules whose every name makes or is a matrix
# (`numpy.matlib.eye`, `numpy.matrixlib.matrix`), the matrix class under each name NumPy exports it by, and the
# functions that make one. One table for the class test below and for JX501's matrices (`codemods._matrices`).
MATRIX_MODULES = ("numpy.matlib.", "numpy.matrixlib.")
MATRIX_CLASSES = frozenset({"numpy.matrix", "numpy.matrixlib.defmatrix.matrix", *(m + "matrix" for m in MATRIX_MODULES)})
MATRIX_NAMES = MATRIX_CLASSES | {"numpy.asmatrix", "numpy.mat", "numpy.bmat"}
# NumPy's array types, whose subclass's methods work on `self`, an instance of one (the `uncertainties` package's
# `class matrix(np.matrix)`: `np.dot(self, other)` keeps the subclass, whose `*` is a matrix product), and which
# `x.view(cls)` makes (a dtype is the other thing `.view` takes)
NUMPY_ARRAY_TYPES = MATRIX_CLASSES | {"numpy.ndarray", "numpy.recarray", "numpy.memmap", "numpy.chararray",
                                      "numpy.ma.MaskedArray", "numpy.ma.masked_array", "numpy.ma.core.MaskedArray",
                                      "numpy.rec.recarray", "numpy.char.chararray"}


def _timer_call(call: cst.CSTNode) -> bool:
    func = call.func  # type: ignore[attr-defined]
    if isinstance(func, cst.Attribute):
        return isinstance(func.value, cst.Name) and func.value.value in ("time", "timeit") and func.attr.value in TIMER_NAMES
    return isinstance(func, cst.Name) and func.value in TIMER_NAMES - {"time"}


def timer_functions(module: cst.Module, source: str) -> frozenset[str]:
    """The module's functions and methods that read a timer themselves (`time.time()`, `perf_counter()`); none
    without the word "time" in the source (every timer's name or module holds it), which is most modules."""
    if "time" not in source:
        return frozenset()
    return frozenset(
        f.name.value for f in walk.nodes_of(module, cst.FunctionDef)  # type: ignore[attr-defined]
        if any(_timer_call(c) for c in walk.nodes_of(f.body, cst.Call))  # type: ignore[attr-defined]
    )


def timing_write(function: cst.FunctionDef, timers: frozenset[str]) -> Optional[cst.Assign]:
    """A write of timer readings into an array in `function` (`times[r] = t - last` with `t = time.time()`, or
    `= self.tac()` through a function of the module in `timers`: quantecon's `loop_timer`), else None."""

    def reads_timer(expr: cst.CSTNode, derived: set[str]) -> bool:
        for node in walk.nodes(expr):
            if isinstance(node, cst.Name) and node.value in derived:
                return True
            if isinstance(node, cst.Call):
                func = node.func
                short = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
                if _timer_call(node) or short in timers and short != function.name.value:
                    return True
        return False

    assigns = list(walk.nodes_of(function.body, cst.Assign))
    derived: set[str] = set()
    for _ in range(3):  # `t = time.time()`, `last = t`, `dt = t - last`
        derived |= {
            t.target.value for a in assigns if reads_timer(a.value, derived)  # type: ignore[attr-defined]
            for t in a.targets if isinstance(t.target, cst.Name)  # type: ignore[attr-defined]
        }
    return next((
        a for a in assigns  # type: ignore[misc]
        if any(isinstance(t.target, cst.Subscript) for t in a.targets) and reads_timer(a.value, derived)  # type: ignore[attr-defined]
    ), None)


def numpy_array_class(rule: cst.MetadataDependent, cls: cst.ClassDef, module: Optional[cst.Module] = None,
                      seen: frozenset[str] = frozenset()) -> bool:
    """Whether `cls` is a NumPy array type of its own: a subclass of a NumPy array type (`np.ndarray`, `np.matrix`,
    `np.ma.MaskedArray`, `np.recarray`: `NUMPY_ARRAY_TYPES`), a class defining NumPy's dispatch hooks, or one whose `__new__` views an array as `cls` (pysindy's `AxesArray`, pyrr's `Vector3`:
    `np.asarray(x).view(cls)`); given the `module`, also a subclass of one of the module's own such classes
    (scikit-spatial's `Vector(_BaseArray1D)`, `_BaseArray1D(_BaseArray)`, `_BaseArray(np.ndarray)`)."""
    if any(numpy_name(rule, base.value) in NUMPY_ARRAY_TYPES for base in cls.bases):
        return True
    if module is not None:
        local = {name for base in cls.bases if isinstance(base.value, cst.Name)
                 for name in [base.value.value] if name not in seen}
        parents = [c for c in walk.nodes_of(module, cst.ClassDef) if c.name.value in local] if local else []  # type: ignore[attr-defined]
        if any(numpy_array_class(rule, parent, module, seen | {cls.name.value}) for parent in parents):  # type: ignore[arg-type]
            return True
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    if any(isinstance(s, cst.FunctionDef) and s.name.value in NUMPY_HOOKS for s in body):
        return True
    new = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == "__new__"), None)
    return new is not None and any(  # `obj.view(cls)` in `__new__`: its base, maybe imported, is `np.ndarray` (pyrr)
        isinstance(c.func, cst.Attribute) and c.func.attr.value == "view" and c.args  # type: ignore[attr-defined]
        and isinstance(c.args[0].value, cst.Name) and c.args[0].value.value == "cls"  # type: ignore[attr-defined]
        for c in walk.nodes_of(new.body, cst.Call))


def documented_objects(function: cst.FunctionDef, owner: Optional[cst.ClassDef] = None) -> frozenset[str]:
    """The parameters the function's docstring (and, for `__init__`, its class's `owner`) says may hold text or
    other objects (`endpoints : 2-tuple of float(s) and/or str(s) and/or callable(s)`, `features : array-like of {bool, int, str}`), and the names
    bound from them by unpacking or indexing (`a, b = endpoints`, `lo = endpoints[0]`): NumPy makes a string or
    object array of such a value, `jax.numpy` rejects it."""
    doc = "\n".join(d for d in (function.get_docstring(clean=True), owner and owner.get_docstring(clean=True)) if d)
    if not doc or not _TEXT_OR_OBJECTS.search(doc):
        return frozenset()
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    found = set(documented_as(doc, params, lambda kind: _TEXT_OR_OBJECTS.search(kind) is not None))
    if not found:
        return frozenset()
    for node in walk.nodes_of(function.body, cst.Assign):
        value = node.value  # type: ignore[attr-defined]
        source = value.value if isinstance(value, cst.Subscript) else value
        if isinstance(source, cst.Name) and source.value in found:
            for target in node.targets:  # type: ignore[attr-defined]
                found |= {n.value for n in walk.nodes_of(target.target, cst.Name)}  # type: ignore[attr-defined]
    return frozenset(found)


# numpydoc (`x : array_like`, `lengths : array-like of integers`) and Google style (`x (list of float): ...`)
_DOCUMENTED = re.compile(r"^[ \t]*(?:@param(?:\[[a-z, ]+\])?[ \t]+)?\*{0,2}([A-Za-z_]\w*(?:[ \t]*,[ \t]*\*{0,2}[A-Za-z_]\w*)*)[ \t]*(?::[ \t]*(.*)|\((.*)\)[ \t]*:.*)$",
                         re.MULTILINE)
_NOT_NUMBERS = re.compile(r"\b(str|string|strings|bytes|dict|callable|object)\b", re.IGNORECASE)  # no array of numbers
# a documented type that may hold text or objects (a dict or a callable is usually told apart before any conversion)
_TEXT_OR_OBJECTS = re.compile(r"\b(str|strs|string|strings|bytes|object|objects)\b", re.IGNORECASE)
_SEQUENCE_TYPES = re.compile(r"\b(array[-_ ]like|list|lists|sequence|tuple|iterable)\b", re.IGNORECASE)


def documented_sequences(function: cst.FunctionDef, owner: Optional[cst.ClassDef] = None) -> frozenset[str]:
    """The parameters the function's docstring (and, for `__init__`, its class's `owner`, where numpydoc puts them:
    astroML's `GMMBayes`, `n_components : int or list`) says may be Python sequences (`x : array_like`, `lengths :
    array-like of integers`, `ws : list of float`), or its examples pass one (`example_sequences`): NumPy functions
    take those, `jax.numpy` ones reject them."""
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    owner = owner if function.name.value == "__init__" else None
    doc = "\n".join(d for d in (function.get_docstring(clean=True), owner and owner.get_docstring(clean=True)) if d)
    return documented_sequence_params(doc, params) | example_sequences(function, owner)


def example_sequences(function: cst.FunctionDef, owner: Optional[cst.ClassDef] = None) -> frozenset[str]:
    """The parameters that the examples of the function's docstring (and, for `__init__`, its class's `owner`'s)
    pass a list or tuple (`doctest_sequence_params`): `>>> vector_product([2, 0, 0], [0, 3, 0])`."""
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    owner = owner if function.name.value == "__init__" else None
    doc = "\n".join(d for d in (function.get_docstring(clean=True), owner and owner.get_docstring(clean=True)) if d)
    positional = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
    callees = {function.name.value} | ({owner.name.value} if owner is not None else set())
    return doctest_sequence_params(doc, callees, positional, params)


_LIST_TYPES = re.compile(r"\b(list|lists|tuple|tuples|sequence)\b", re.IGNORECASE)


def documented_lists(function: cst.FunctionDef) -> frozenset[str]:
    """The parameters the function's docstring says are Python lists, tuples or sequences (`ws : list of float`,
    Doxygen's `@param[in] a (list): ...`), not merely array-like: a traced index cannot index them."""
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    doc = function.get_docstring(clean=True) or ""
    if not doc or not _LIST_TYPES.search(doc):
        return frozenset()
    return documented_as(doc, params, lambda kind: bool(_LIST_TYPES.search(kind)) and "array" not in kind.lower())


def documented_sequence_params(doc: str, params: set[str]) -> frozenset[str]:
    """`documented_sequences` for a docstring and the function's parameter names (the `ast` pre-check's form)."""
    if not doc or not _SEQUENCE_TYPES.search(doc):
        return frozenset()
    return documented_as(doc, params, lambda kind: bool(_SEQUENCE_TYPES.search(kind)) and not _NOT_NUMBERS.search(kind))


def documented_as(doc: str, params: set[str], kind_matches: Callable[[str], bool]) -> frozenset[str]:
    """The parameters among `params` the docstring `doc` gives a type that `kind_matches` (numpydoc `x : type`,
    Google style `x (type): ...` or Doxygen's `@param[in] x (type): ...` lines)."""
    found: set[str] = set()
    for match in _DOCUMENTED.finditer(doc):
        kind = match.group(2) if match.group(2) is not None else match.group(3)
        if kind and kind_matches(kind):
            found |= {n.strip().lstrip("*") for n in match.group(1).split(",")} & params
    return frozenset(found)


def doctest_sequence_params(doc: str, callees: set[str], positional: list[str], params: set[str]) -> frozenset[str]:
    """The parameters among `params` that an example of the docstring `doc` passes a list or tuple display (or list
    comprehension), or a name the examples bind only to one, in a call of one of `callees` (the function's name, its
    class's for `__init__`; as `f(...)` or `obj.f(...)`), by position (`positional`: its positional parameters,
    `self` or `cls` first for a method) or keyword: `>>> vector_product([2, 0, 0], [0, 3, 0])` (trimesh's
    transformations) shows the function taking lists, which NumPy converts and `jax.numpy` rejects. Displays of
    text are no arrays of numbers, and count for nothing."""
    nodes = [node for tree in doctests.examples(doc) for node in ast.walk(tree)]
    if not nodes:
        return frozenset()
    bound: dict[str, list[Optional[ast.expr]]] = {}  # a name the examples bind: its values (None: not a plain one)
    plain: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(node.value)
                    plain.add(id(target))
                elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(node.value, (ast.Tuple, ast.List)) \
                        and len(target.elts) == len(node.value.elts) \
                        and not any(isinstance(e, ast.Starred) for e in (*target.elts, *node.value.elts)):
                    for item, value in zip(target.elts, node.value.elts):  # `origin, xaxis = [0, 0, 0], [1, 0, 0]`
                        if isinstance(item, ast.Name):
                            bound.setdefault(item.id, []).append(value)
                            plain.add(id(item))
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and id(node) not in plain:
            bound.setdefault(node.id, []).append(None)  # a loop target, unpacking, `+=`

    def display(value: Optional[ast.expr]) -> bool:
        if isinstance(value, ast.ListComp):
            return not (isinstance(value.elt, ast.Constant) and isinstance(value.elt.value, (str, bytes)))
        return isinstance(value, (ast.List, ast.Tuple)) and not any(
            isinstance(e, ast.Constant) and isinstance(e.value, (str, bytes)) or isinstance(e, ast.JoinedStr)
            for e in value.elts)

    def sequence(value: ast.expr) -> bool:
        if isinstance(value, ast.Name):
            values = bound.get(value.id, [])
            return bool(values) and all(display(v) for v in values)
        return display(value)

    found: set[str] = set()
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name not in callees:
            continue
        order = positional[1:] if positional and positional[0] in ("self", "cls") else positional
        for position, arg in enumerate(node.args):
            if isinstance(arg, ast.Starred):
                break  # (the positions after it are unknown)
            if position < len(order) and sequence(arg):
                found.add(order[position])
        found.update(k.arg for k in node.keywords if k.arg in params and sequence(k.value))
    return frozenset(found)


def module_example_sequences(module: cst.Module) -> dict[str, frozenset[str]]:
    """{function or method name: the parameters an example in any docstring of the module passes a list or tuple}
    (`doctest_sequence_params`): trimesh's transformations binds `origin, xaxis = [0, 0, 0], [1, 0, 0]` in the
    module's docstring, then calls `shear_matrix(beta, xaxis, origin, zaxis)`. Not `__init__`, which a docstring
    calls by its class's name (`example_sequences` reads its class's own)."""
    docs = doctests.docstrings(module)
    if not docs:
        return {}
    found: dict[str, set[str]] = {}
    for function in walk.nodes_of(module, cst.FunctionDef):
        name = function.name.value  # type: ignore[attr-defined]
        if name == "__init__" or not any(name in doc for doc in docs):
            continue
        params = function.params  # type: ignore[attr-defined]
        named = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
        positional = [p.name.value for p in (*params.posonly_params, *params.params)]
        for doc in docs:
            if name in doc:
                found.setdefault(name, set()).update(doctest_sequence_params(doc, {name}, positional, named))
    return {name: frozenset(params) for name, params in found.items() if params}


TypedParameters = dict[str, tuple[list[str], dict[str, str]]]


class ScalarCheck(str):
    """A check of `TypedParameters` that tests whether the parameter is a Python number or a NumPy scalar
    (`isinstance(v, numbers.Number)`, `isinstance(v, np.generic)`), as written: an element of a NumPy array passes,
    a JAX array's element (a 0-d JAX array) never does, and a whole array fails either way, so only an element of an
    array (`x[i]`, `row[0]`, an item an iteration gives) handed there must stay NumPy (`element_argument`)."""


# Python number types that NumPy scalars are instances of: `np.float64` is a `float`, `np.complex128` a `complex`,
# and every NumPy scalar is registered as a `numbers.Number` (`np.int64` is no `int`, `np.bool_` no `bool`: those
# tests are False for a NumPy scalar and a JAX array alike)
NUMBER_TYPES = frozenset({"float", "complex", "Number", "Real", "Integral", "Complex", "Rational"})

# NumPy's scalar types: a NumPy scalar (an element of a NumPy array, a reduction's result) is an instance of them, a
# JAX array (an element of one included) never is
NUMPY_SCALAR_TYPES = frozenset({
    "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating", "complexfloating",
    "bool_", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "intp", "uintp", "intc",
    "int_", "uint", "longlong", "ulonglong", "float16", "float32", "float64", "float_", "double", "single", "half",
    "longdouble", "complex64", "complex128", "complex_", "cdouble", "csingle", "clongdouble", "byte", "ubyte", "short",
    "ushort", "long", "ulong"})


def element_argument(value: cst.BaseExpression, function: Optional[cst.FunctionDef]) -> bool:
    """Whether `value`, an argument in `function`, may be an element of an array: indexed (`x[i]`, `row[0]`; not
    a slice only, `x[1:]`, which is an array) or a name a `for` loop or a comprehension binds (`for v in x`), the
    arguments a `ScalarCheck` tells apart (a whole array fails it, NumPy's or JAX's)."""
    if isinstance(value, cst.Subscript):
        return not all(isinstance(e.slice, cst.Slice) for e in value.slice)
    if isinstance(value, cst.Name) and function is not None:
        return value.value in iteration_targets(function)
    return False


def iteration_targets(function: cst.FunctionDef) -> dict[str, list[cst.BaseExpression]]:
    """{name: what it iterates over} for the names `for` loops and comprehensions of `function` bind as their
    target, or as an item of a tuple target (`for i, row in enumerate(x)`: `enumerate(x)`)."""
    found: dict[str, list[cst.BaseExpression]] = {}
    for node in [*walk.nodes_of(function.body, cst.For), *walk.nodes_of(function.body, cst.CompFor)]:
        target = node.target  # type: ignore[attr-defined]
        for name in [target, *(e.value for e in target.elements)] if isinstance(target, (cst.Tuple, cst.List)) else [target]:
            if isinstance(name, cst.Name):
                found.setdefault(name.value, []).append(node.iter)  # type: ignore[attr-defined]
    return found


def _scalar_tested(rule: Optional[cst.MetadataDependent], test: cst.Call,
                   is_numpy: Optional[Callable[[cst.BaseExpression], bool]] = None) -> Optional[str]:
    """The name `isinstance(name, types)` tests, when `types` names a Python number type a NumPy scalar is an
    instance of (`NUMBER_TYPES`) or a NumPy scalar type (`np.generic`, `np.floating`), and no JAX one: true of an
    element of a NumPy array, false of a JAX array's (wherever the test is: `return isinstance(v, Number) or ...`)."""
    if not (isinstance(test.func, cst.Name) and test.func.value == "isinstance" and len(test.args) == 2
            and isinstance(test.args[0].value, cst.Name)):
        return None
    types = test.args[1].value
    elements = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else union_members(types)
    if any("jax" in dotted_name(e) or "Array" == dotted_name(e) for e in elements):
        return None
    for e in elements:
        shown = dotted_name(e) if isinstance(e, (cst.Name, cst.Attribute)) else ""
        if shown in NUMBER_TYPES or shown.startswith("numbers.") and shown.count(".") == 1 and shown[8:] in NUMBER_TYPES:
            return test.args[0].value.value
        if shown.split(".")[-1] in NUMPY_SCALAR_TYPES and _numpy_type(rule, e, is_numpy) \
                and (is_numpy is not None or (numpy_name(rule, e) or "").count(".") == 1):
            return test.args[0].value.value
    return None


def numpy_typed_parameters(rule: cst.MetadataDependent, module: cst.Module) -> TypedParameters:
    """{function or method name: (its positional parameters after `self`/`cls`, {parameter: its check, as written})}
    for the parameters a function of the module
    requires to be of a NumPy type, and of no JAX one: `assert isinstance(data, np.ndarray)` (nevergrad's `Array._set`),
    `if not isinstance(v, (float, int, np.float64)): raise TypeError(...)` (nevergrad's scalars) or `elif isinstance(a,
    np.ndarray): ...` with `else: raise ...` (stumpy's `rolling_isconstant`), also as one
    term of an `and` (`if not (isinstance(x, np.ndarray) and ...): raise`: galpy's `_check_array`). A NumPy call
    whose result is passed there stays NumPy; so does one tested for its exact type anywhere (`type(x) is
    np.ndarray`: `exact_numpy_type_test`). Methods are listed under their name, whatever their class, and a class's
    `__init__` under the class's name too (`GF(x, m)`)."""
    found: TypedParameters = {}
    for cls in walk.nodes_of(module, cst.ClassDef):
        # `GF(x, m)` calls the class's `__init__` (commpy's GF: `type(x) is ndarray`): listed under the class's name too
        init = next((f for f in cls.body.body if isinstance(f, cst.FunctionDef) and f.name.value == "__init__"), None)  # type: ignore[attr-defined]
        if init is not None:
            found.update({cls.name.value: entry for entry in _typed_parameters_of(rule, init).values()})  # type: ignore[attr-defined]
    functions = walk.nodes_of(module, cst.FunctionDef)
    for function in functions:
        for name, entry in _typed_parameters_of(rule, function, scalars=True).items():  # type: ignore[arg-type]
            found.setdefault(name, (entry[0], {}))[1].update(entry[1])
    _passed_on(functions, found)  # type: ignore[arg-type]
    return found


def _passed_on(functions: list[cst.FunctionDef], found: TypedParameters) -> None:
    """Add to `found` the parameters a function hands, as they are and never rebound, to a parameter in `found`
    (stumpy's `match(Q, m, Q_isconstant)` calling `preprocess(Q, m, Q_isconstant)`, which hands it to
    `rolling_isconstant`, whose check raises for anything but a NumPy array), to a fixed point."""
    changed = bool(found)
    while changed:
        changed = False
        for function in functions:
            params = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
            if params and params[0] in ("self", "cls"):
                params = params[1:]
            every = {*params, *(p.name.value for p in function.params.kwonly_params)}
            rebound = {n.value for t in walk.nodes_of(function.body, cst.AssignTarget)
                       for n in walk.nodes_of(t, cst.Name)}  # type: ignore[attr-defined]
            for call in walk.nodes_of(function.body, cst.Call):
                func = call.func  # type: ignore[attr-defined]
                callee = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None
                entry = found.get(callee) if callee is not None and callee != function.name.value else None
                if entry is None:
                    continue
                callee_params, checks = entry
                for index, arg in enumerate(call.args):  # type: ignore[attr-defined]
                    if arg.star:
                        break
                    param = arg.keyword.value if arg.keyword is not None else \
                        callee_params[index] if index < len(callee_params) else None
                    value = arg.value
                    if param in checks and isinstance(value, cst.Name) and value.value in every \
                            and value.value not in rebound:
                        mine = found.setdefault(function.name.value, (params, {}))[1]
                        if value.value not in mine:
                            # (shown in backquotes by the callers: "(`check` in `callee`)")
                            mine[value.value] = type(checks[param])(f"{checks[param]}` in `{callee}")
                            changed = True


def module_typed_parameters(rule: cst.MetadataDependent) -> TypedParameters:
    """`numpy_typed_parameters` of the module `rule` visits, found once per pass (kept on the rule context: JX501 and
    the rules reading `_caller_writes.host_results` all ask; callers must not modify it)."""
    cache = rule.context.__dict__  # type: ignore[attr-defined]
    if "_numpy_typed_parameters" not in cache:
        cache["_numpy_typed_parameters"] = numpy_typed_parameters(rule, rule.context.module)  # type: ignore[attr-defined]
    return cache["_numpy_typed_parameters"]


def _typed_parameters_of(rule: Optional[cst.MetadataDependent], function: cst.FunctionDef,
                         is_numpy: Optional[Callable[[cst.BaseExpression], bool]] = None,
                         scalars: bool = False) -> TypedParameters:
    """`numpy_typed_parameters` of one function: {its name: (its parameters, {checked parameter: check})}, or {}.
    With `is_numpy` (whether a name or attribute names a NumPy type), read without `rule`'s metadata. With
    `scalars`, also the parameters it tests for a Python number or a NumPy scalar, anywhere (`ScalarCheck`)."""
    found: TypedParameters = {}
    params = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]  # type: ignore[attr-defined]
    if params and params[0] in ("self", "cls"):
        params = params[1:]
    checks: list[tuple[cst.BaseExpression, cst.CSTNode]] = [
        (a.test, a) for a in walk.nodes_of(function.body, cst.Assert)]  # type: ignore[attr-defined]
    for branch in walk.nodes_of(function.body, cst.If):
        test = branch.test  # type: ignore[attr-defined]
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and walk.nodes_of(branch.body, cst.Raise):  # type: ignore[attr-defined]
            checks.append((test.expression, branch.test))  # type: ignore[attr-defined]
        elif isinstance(branch.orelse, cst.Else) and walk.nodes_of(branch.orelse.body, cst.Raise):  # type: ignore[attr-defined]
            # `elif isinstance(a, np.ndarray): pass`, `else: raise ValueError(...)` (stumpy's `rolling_isconstant`)
            checks.append((test, branch.test))  # type: ignore[attr-defined]
        elif _raising_type_chain(branch):  # type: ignore[arg-type]
            # `if isinstance(x, np.ndarray): ...` / `elif isinstance(x, Series): ...` / `else: raise TypeError(...)`
            # (arch's `to_array_1d`): a JAX array fails every test and reaches the `raise`
            checks.append((test, branch.test))  # type: ignore[attr-defined]
    for whole, where in checks:
        for test in _conjuncts(whole):  # `not (isinstance(x, np.ndarray) and ...)`: each must hold (galpy's check)
            name = _numpy_typed(rule, test, is_numpy)
            if name is not None and name in params:
                found.setdefault(function.name.value, (params, {}))[1][name] = cst.Module([]).code_for_node(where).strip()  # type: ignore[attr-defined]
    for comparison in walk.nodes_of(function.body, cst.Comparison):
        # `type(x) is np.ndarray` anywhere (commpy's GF): no widening keeps its answer for a JAX array, whose
        # type is none of NumPy's, so what is passed as `x` stays NumPy whatever branch the test guards
        name = exact_numpy_type_test(rule, comparison, is_numpy)  # type: ignore[arg-type]
        if name is not None and name in params:
            found.setdefault(function.name.value, (params, {}))[1].setdefault(name, cst.Module([]).code_for_node(comparison).strip())
    for call in walk.nodes_of(function.body, cst.Call) if scalars else ():
        # `return isinstance(v, Number) or isinstance(v, np.generic)` (bayes_opt's `is_numeric`): an element of a
        # NumPy array passes, a JAX array's fails (a test guarding nothing changes the answer all the same)
        name = _scalar_tested(rule, call, is_numpy)  # type: ignore[arg-type]
        if name is not None and name in params:
            found.setdefault(function.name.value, (params, {}))[1].setdefault(
                name, ScalarCheck(cst.Module([]).code_for_node(call).strip()))
    return found


def _raising_type_chain(branch: cst.If) -> bool:
    """Whether the `elif`s after `branch` each test the type of the name `branch` tests (`isinstance(x, Series)`,
    with no JAX type, no `object`) and the chain ends in `else:` with a `raise`: a value failing `branch`'s test
    and every later one raises."""
    test = branch.test
    if not (isinstance(test, cst.Call) and test.args and isinstance(test.args[0].value, cst.Name)):
        return False
    name, node = test.args[0].value.value, branch.orelse
    if not isinstance(node, cst.If):
        return False
    while isinstance(node, cst.If):
        later = node.test
        if not (isinstance(later, cst.Call) and isinstance(later.func, cst.Name) and later.func.value == "isinstance"
                and len(later.args) == 2 and isinstance(later.args[0].value, cst.Name) and later.args[0].value.value == name):
            return False
        kinds = later.args[1].value
        for kind in kinds.elements if isinstance(kinds, cst.Tuple) else [kinds]:
            shown = dotted_name(kind.value if isinstance(kind, cst.Element) else kind)
            if not shown or "jax" in shown or shown.split(".")[-1] in ("Array", "object"):
                return False
        node = node.orelse
    return isinstance(node, cst.Else) and bool(walk.nodes_of(node.body, cst.Raise))


def exact_numpy_type_test(rule: Optional[cst.MetadataDependent], test: cst.Comparison,
                          is_numpy: Optional[Callable[[cst.BaseExpression], bool]] = None) -> Optional[str]:
    """The name whose exact type `test` compares with a NumPy type (`type(x) is np.ndarray`, `type(x) == np.float64`,
    `type(x) in (np.ndarray, list)`, `x.__class__ is not np.ndarray`), else None: a JAX array's type is none of
    NumPy's (nor `jax.Array` itself), so the test changes its answer when `x` becomes a JAX array."""
    operands = [test.left, *(c.comparator for c in test.comparisons)]
    for i, comparison in enumerate(test.comparisons):
        if not isinstance(comparison.operator, (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual, cst.In, cst.NotIn)):
            continue
        left, right = operands[i], operands[i + 1]
        pairs = [(left, right)] if isinstance(comparison.operator, (cst.In, cst.NotIn)) else [(left, right), (right, left)]
        for subject, kinds in pairs:
            name = _type_of(subject)
            elements = [e.value for e in kinds.elements] if isinstance(kinds, (cst.Tuple, cst.List, cst.Set)) else [kinds]
            if name is not None and any(_numpy_type(rule, e, is_numpy) for e in elements):
                return name
    return None


def _type_of(value: cst.BaseExpression) -> Optional[str]:
    """`x` for `type(x)` or `x.__class__`, else None."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "type" \
            and len(value.args) == 1 and isinstance(value.args[0].value, cst.Name):
        return value.args[0].value.value
    if isinstance(value, cst.Attribute) and value.attr.value == "__class__" and isinstance(value.value, cst.Name):
        return value.value.value
    return None


def _conjuncts(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The tests `test` is the `and` of (itself if none): a check requires each."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return [*_conjuncts(test.left), *_conjuncts(test.right)]
    return [test]


def _numpy_type(rule: Optional[cst.MetadataDependent], value: cst.BaseExpression,
                is_numpy: Optional[Callable[[cst.BaseExpression], bool]]) -> bool:
    """Whether `value` is a name or attribute naming a NumPy type (by `is_numpy` when given, else by `rule`'s
    metadata)."""
    if not isinstance(value, (cst.Name, cst.Attribute)):
        return False
    return is_numpy(value) if is_numpy is not None else (numpy_name(rule, value) or "").startswith("numpy.")  # type: ignore[arg-type]


def source_typed_parameters(module: cst.Module, is_numpy: Callable[[cst.BaseExpression], bool]) -> TypedParameters:
    """`numpy_typed_parameters` of the module-level functions of another module, read without metadata: `is_numpy`
    tells a NumPy type by the module's imports (`codemods._buffers.writers_of_source`)."""
    found: TypedParameters = {}
    functions = [f for f in module.body if isinstance(f, cst.FunctionDef)]
    for function in functions:
        found.update(_typed_parameters_of(None, function, is_numpy))
    return found


def union_members(kinds: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The types a `|` union of types names (`np.ndarray | list`: both), or `[kinds]` for anything else."""
    if isinstance(kinds, cst.BinaryOperation) and isinstance(kinds.operator, cst.BitOr):
        return [*union_members(kinds.left), *union_members(kinds.right)]
    return [kinds]


def decorator_typed_parameters(module: cst.Module, is_numpy: Callable[[cst.BaseExpression], bool]) -> TypedParameters:
    """{decorator name: (its wrapper's positional parameters, {checked parameter: check})} for the module-level
    functions that return a function they define (`def consistent_input(func): ... return wrapper`) whose check
    requires a NumPy type of a parameter (`numpy_typed_parameters`: `if isinstance(data, np.ndarray | list): ...
    else: raise TypeError(...)`, pysal's inequality): a function so decorated requires it of its own parameter at
    the same position. Read without metadata, as `source_typed_parameters`."""
    found: TypedParameters = {}
    for function in module.body:
        if not isinstance(function, cst.FunctionDef):
            continue
        returned = {r.value.value for r in walk.nodes_of(function.body, cst.Return)  # type: ignore[attr-defined]
                    if isinstance(r.value, cst.Name)}  # type: ignore[attr-defined]
        for inner in function.body.body if isinstance(function.body, cst.IndentedBlock) else ():
            if isinstance(inner, cst.FunctionDef) and inner.name.value in returned:
                entry = _typed_parameters_of(None, inner, is_numpy).get(inner.name.value)
                if entry is not None:
                    found[function.name.value] = entry
    return found


def _numpy_typed(rule: Optional[cst.MetadataDependent], test: cst.BaseExpression,
                 is_numpy: Optional[Callable[[cst.BaseExpression], bool]] = None) -> Optional[str]:
    """The name `isinstance(name, types)` tests, when `types` names a NumPy type and no JAX one."""
    if not (isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance"
            and len(test.args) == 2 and isinstance(test.args[0].value, cst.Name)):
        return None
    types = test.args[1].value
    elements = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else union_members(types)
    if any("jax" in dotted_name(e) or "Array" == dotted_name(e) for e in elements):
        return None
    numpy = [e for e in elements if _numpy_type(rule, e, is_numpy)]
    return test.args[0].value.value if numpy else None
