"""Shared by the in-place update rules (JX101-JX104): reading update targets and deciding whether a functional
update is provably the same as NumPy's in-place one. The facts come from `jaxfix.analysis.aliases`, and from JX501's
own tests for the NumPy calls it keeps NumPy (`codemods._kept_numpy`); this module only turns them into a verdict and
the wording of the explanation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

import libcst as cst

from codemods import _buffers, _kept_numpy, _list_inputs
from jaxfix import walk
from jaxfix.analysis import jnp_api
from jaxfix.analysis.jnp_api import HOST_ONLY
from jaxfix.analysis.aliases import FunctionAliases, function_aliases
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.foreign_dtypes import record_field
from jaxfix.analysis.masks import ELEMENTWISE, FunctionFacts, function_facts
from jaxfix.analysis.numpy_names import numpy_name
from jaxfix.analysis.parents import OUT_OF_BOUNDS_CATCHERS, caller_catching, caught_around, isinstance_guards
from jaxfix.analysis.static_params import ARRAY_METHODS, PYTHON_VALUE_METHODS
from jaxfix.analysis.static_values import is_static_expression
from jaxfix.rule import Rule

ARRAY_EVIDENCE = {"shape", "ndim", "dtype", "size", "T", "copy", "reshape", "astype", "sum", "mean", "at", "ravel", "fill"}


@dataclass
class Target:
    """`base[i0, i1, ...]` with `base` a name or an attribute chain (`self.w`)."""

    base: cst.BaseExpression
    base_src: str
    indices: list[str]
    elements: list[cst.BaseSlice]

    @property
    def index_src(self) -> str:
        return ", ".join(self.indices) if self.indices else "()"

    @property
    def name(self) -> Optional[str]:
        return self.base.value if isinstance(self.base, cst.Name) else None


@dataclass
class Verdict:
    skip: bool = False  # not an array update we know about: say nothing
    blocker: Optional[str] = None  # no fix possible: why
    reasons: list[str] = field(default_factory=list)  # the fix may change behaviour: why (unsafe)
    rebind: list[str] = field(default_factory=list)  # live whole-array aliases to rebind after the update


def facts(rule: Rule) -> Optional[FunctionAliases]:
    return function_aliases(rule, rule.current_function) if rule.current_function is not None else None


def split_target(rule: Rule, stmt: cst.CSTNode, target: cst.Subscript) -> tuple[Optional[Target], Optional[str]]:
    """The base and merged indices of a (possibly chained) subscript target, or why it cannot be merged."""
    levels: list[cst.Subscript] = []
    node: cst.BaseExpression = target
    while isinstance(node, cst.Subscript):
        levels.append(node)
        node = node.value
    if not _is_base(node):
        return None, None
    levels.reverse()
    indices: list[str] = []
    elements: list[cst.BaseSlice] = []
    for depth, level in enumerate(levels):
        for element in level.slice:
            if depth < len(levels) - 1 and not is_scalar_index(rule, stmt, element.slice):
                inner = rule.code(level)
                return None, (
                    f"`{inner}` is not provably a single element, so it may be a view or a copy, and the chained update "
                    "cannot be merged into one index"
                )
            indices.append(index_code(rule, element.slice))
            elements.append(element.slice)
    return Target(node, rule.code(node), indices, elements), None


def index_code(rule: Rule, index: cst.BaseSlice) -> str:
    """The source of one index; a list literal or a `range(...)` becomes `jnp.asarray(...)` (JAX rejects both)."""
    if isinstance(index, cst.Index) and (isinstance(index.value, cst.List) or is_range(index.value)):
        return f"{rule.jnp}.asarray({rule.code(index.value)})"
    return rule.code(index)


def operator_symbol(operator: cst.CSTNode) -> str:
    """An operator's token (`/=`, `+`), without the whitespace around it: that may hold a line continuation or a
    comment, which would not survive being moved into an expression."""
    bare = operator.with_changes(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
    return _EMPTY.code_for_node(bare)


_EMPTY = cst.Module(body=[])


def value_code(rule: Rule, value: cst.BaseExpression) -> str:
    """The source of an assigned value as one argument: `x[i] = a, b` assigns the tuple, `.set((a, b))`; in a
    generator, `x[i] = yield v` the value sent back, `.set((yield v))`."""
    code = rule.code(value)
    if isinstance(value, (cst.Tuple, cst.Yield)) and not value.lpar:
        return f"({code})"
    return code


def is_range(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "range"


def uses_jnp(rule: Rule, source: str) -> tuple[str, ...]:
    """The `imports=` for a replacement: ("jnp",) when it mentions jax.numpy."""
    return ("jnp",) if f"{rule.jnp}." in source else ()


def _is_base(node: cst.BaseExpression) -> bool:
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


def is_scalar_index(rule: Rule, stmt: cst.CSTNode, index: cst.BaseSlice) -> bool:
    """An index that picks exactly one position along one axis: an int (literal, range counter, `int(...)`)."""
    if not isinstance(index, cst.Index) or index.star is not None:
        return False
    return _is_int(rule, stmt, index.value)


def _is_int(rule: Rule, stmt: cst.CSTNode, value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.Integer):
        return True
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        return _is_int(rule, stmt, value.expression)
    if isinstance(value, cst.BinaryOperation) and not isinstance(value.operator, cst.Divide):
        return _is_int(rule, stmt, value.left) and _is_int(rule, stmt, value.right)
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("int", "len"):
        return True
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Attribute) and value.value.attr.value == "shape":
        return True
    if isinstance(value, cst.Name):
        aliases = facts(rule)
        return aliases is not None and aliases.is_int(stmt, value.value)
    return False


def may_repeat(rule: Rule, stmt: cst.CSTNode, target: Target) -> bool:
    """Whether the index may select the same position twice (an integer array or list, or a name we cannot type)."""
    for element in target.elements:
        if isinstance(element, cst.Slice):
            continue
        value = element.value
        if isinstance(value, (cst.Ellipsis, cst.Comparison)) or _is_int(rule, stmt, value):
            continue
        if isinstance(value, cst.Name) and value.value == "None":
            continue
        if is_static_expression(value) and not isinstance(value, (cst.List, cst.Tuple)):
            continue
        return True
    return False


def is_mask(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.Comparison):
        return True
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.BitInvert):
        return is_mask(value.expression)
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
        return is_mask(value.left) and is_mask(value.right)
    return False


def has_array_evidence(rule: Rule, target: Target, function: Optional[cst.FunctionDef] = None) -> bool:
    """Whether `target.base` is used as an array in `function` (default: the current one): an index only arrays
    take, or array attributes / NumPy calls on it."""
    for element in target.elements:
        if isinstance(element, cst.Slice) or (
            isinstance(element, cst.Index) and isinstance(element.value, (cst.Ellipsis, cst.Integer))
        ):
            return True
    if len(target.elements) > 1:
        return True
    function = function or rule.current_function
    if function is None:
        return False
    values = [
        a.value for a in walk.nodes_of(function.body, cst.Assign)  # type: ignore[attr-defined]
        if isinstance(target.base, cst.Name) and any(isinstance(t.target, cst.Name) and t.target.value == target.base_src
                                                     for t in a.targets)  # type: ignore[attr-defined]
    ]
    if values and all(_array_value(rule, v) for v in values):
        return True  # `result = two[:, 0]`: only an array takes a slice among several indices
    found = False

    class Finder(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            nonlocal found
            if node.attr.value in ARRAY_EVIDENCE and rule.code(node.value) == target.base_src:
                found = True

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            if numpy_name(rule, node.func) and any(rule.code(a.value) == target.base_src for a in node.args):
                found = True

    walk.visit(function, Finder())
    return found


# methods and attributes of dicts and DataFrames that arrays lack
MAPPING_EVIDENCE = frozenset({"items", "keys", "values", "get", "update", "setdefault", "popitem", "columns", "iloc", "loc",
                              "iterrows", "itertuples", "groupby", "to_numpy", "to_dict"})


def _mapping_evidence(rule: Rule, name: str) -> bool:
    """Whether the current function uses `name`, or what it copies (`name = d.copy()`, `dict(d)`), as a dict or a
    DataFrame: `d.items()`, `name.keys()`, `df.columns`, `f(**name)`; or as a Python list or dict its callers give:
    a parameter that a call in the module passes a list, tuple or dict display (`bump([1, 2, 3])`, then `ys =
    xs.copy(); ys[0] = 10` keeps a list a list, where `.at` would make it an array: obspy's review)."""
    function = rule.current_function
    if function is None:
        return False
    names = _copied_names(function, name)
    if any(isinstance(a.value, cst.Name) and a.value.value in names and a.star == "**"
           for a in walk.nodes_of(function.body, cst.Arg)):  # type: ignore[attr-defined]
        return True  # `np.savez(f, **npz_dict)`: only a mapping unpacks so
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    if names & params and names & params & _container_fed(rule).get(function.name.value, frozenset()):
        return True
    return any(isinstance(node.value, cst.Name) and node.value.value in names and node.attr.value in MAPPING_EVIDENCE
               for node in walk.nodes_of(function.body, cst.Attribute))  # type: ignore[attr-defined]


def _container_fed(rule: Rule) -> dict[str, frozenset[str]]:
    """`_list_inputs.list_fed_parameters` and `mapping_fed_parameters` of the module, found once per pass."""
    cache = rule.context.__dict__
    if "_container_fed" not in cache:
        module = rule.context.module
        lists, mappings = _list_inputs.list_fed_parameters(module), _list_inputs.mapping_fed_parameters(module)
        cache["_container_fed"] = {f: lists.get(f, frozenset()) | mappings.get(f, frozenset()) for f in {*lists, *mappings}}
    return cache["_container_fed"]


def _copied_names(function: cst.FunctionDef, name: str) -> set[str]:
    """`name`, and the names it copies in `function` (`name = d.copy()`, `dict(d)`, `list(d)`)."""
    names = {name}
    for assign in walk.nodes_of(function.body, cst.Assign):  # type: ignore[attr-defined]
        if any(isinstance(t.target, cst.Name) and t.target.value == name for t in assign.targets):  # type: ignore[attr-defined]
            value = assign.value  # type: ignore[attr-defined]
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "copy" \
                    and isinstance(value.func.value, cst.Name):
                names.add(value.func.value.value)
            elif isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("dict", "copy", "list") \
                    and value.args and isinstance(value.args[0].value, cst.Name):
                names.add(value.args[0].value.value)
    return names


def _holds_numpy_arrays(rule: Rule, name: str) -> bool:
    """Whether `name` is bound in the current function to a list or tuple display with a NumPy call among its
    elements (`[np.zeros(n)]`)."""
    function = rule.current_function
    if function is None:
        return False
    for value in function_facts(rule, function).bindings.get(name, []):
        if isinstance(value, (cst.List, cst.Tuple)) and any(
                isinstance(c, cst.Call) and numpy_name(rule, c.func) is not None for c in walk.nodes_of(value, cst.Call)):  # type: ignore[attr-defined]
            return True
    return False


PYTHON_CONTAINERS = frozenset({"list", "tuple", "dict", "str", "set", "bytearray"})


def _python_type_guard(rule: Rule, stmt: cst.CSTNode, name: str) -> bool:
    """Whether `stmt` runs only where `isinstance(name, list)` (or another Python container type) holds: inside the
    body of an `if`/`elif` with that test (python-control's index lists)."""
    return any(types and types <= PYTHON_CONTAINERS for types in isinstance_guards(rule, stmt).get(name, ()))


def _array_value(rule: Rule, value: Optional[cst.BaseExpression]) -> bool:
    """An expression that only gives an array: an item of several indices one of which is a slice (`a[:, 0]`), or
    a NumPy / `jax.numpy` call."""
    if isinstance(value, cst.Subscript):
        return len(value.slice) > 1 and any(isinstance(e.slice, cst.Slice) for e in value.slice)
    return isinstance(value, cst.Call) and numpy_name(rule, value.func) is not None


def read_after(rule: Rule, stmt: cst.CSTNode, name: str) -> bool:
    """Whether the value `name` holds may be read after `stmt` completes (liveness, from the dataflow provider)."""
    function = rule.current_function
    if function is None:
        return True
    return name in function_flow(rule, function).live_out(stmt)


def judge(rule: Rule, stmt: cst.CSTNode, target: Target, allow_rebind: bool = False) -> Verdict:
    """Whether replacing an in-place update of `target.base` by a rebinding is provably equivalent."""
    verdict = Verdict()
    name = target.name
    if any(isinstance(e, cst.Index) and record_field(rule, e.value) for e in target.elements):
        # a dict key or a structured array's field (`new[name]` for `name` in `dtype.names`): JAX arrays have neither
        verdict.skip = True
        return verdict
    if name is None:
        if not has_array_evidence(rule, target):
            verdict.skip = True
            return verdict
        verdict.reasons.append(
            f"`{target.base_src}` is stored on an object: NumPy updates the array that every reference to it sees, "
            "while the rewrite stores a new array there (other references keep the old one)"
        )
        return verdict
    if _mapping_evidence(rule, name) or _python_type_guard(rule, stmt, name):
        verdict.skip = True  # a dict or a DataFrame (`out = d.copy()` with `d.items()`), a list: not an array update
        return verdict
    aliases = facts(rule)
    if aliases is None:
        verdict.skip = True
        return verdict
    kinds = aliases.kinds(stmt, name)
    if kinds <= {"container", "int"}:
        if "container" in kinds and len(target.elements) > 1 and _holds_numpy_arrays(rule, name):
            verdict.blocker = (  # `zflag = [np.zeros(n)]; zflag[0][0] = v` (python-control's flat systems)
                f"writes into an array held in the list `{name}`: a functional update cannot reach it there, so the "
                "array must stay NumPy; keep the array in a name of its own to migrate this function"
            )
            return verdict
        verdict.skip = True
        return verdict
    if "container" in kinds:
        # a Python list (or another object) on some path, an array on another (`x = [i for i in x]` or `x =
        # x.copy()`: fluids' translate_into): item assignment keeps the list a list, `.at` would make it an array
        made = _numpy_binding(rule, name)
        if made is not None:  # ... but a NumPy call's array on another (`mult = [1]`, then `mult = np.hstack((mult,
            # [1]))` in the loop that writes `mult[-1] += 1`: sk_dsp_comm), which JX501 would make a JAX array
            verdict.blocker = (
                f"`{name}` is a Python object (a list) on some path and the array `{made}(...)` makes on another: the "
                "write must stay NumPy's in-place one (a list has no `.at`), so that array must stay NumPy too; make "
                f"`{name}` an array on every path (`np.asarray`) to migrate this function"
            )
            return verdict
        verdict.skip = True
        return verdict
    if "global" in kinds:
        # a closure's array shows what it is in the function that makes it (`acc = np.zeros(n)`, then a nested
        # `def add(i, v): acc[i] += v`), which its migration must not turn into a JAX array
        if not any(has_array_evidence(rule, target, f) for f in [rule.current_function, *reversed(rule.enclosing_functions())]):
            verdict.skip = True
            return verdict
        verdict.blocker = (
            f"`{name}` is not defined in this function (a global or closure variable): a functional update would make "
            "it local; pass the array in and return the updated one"
        )
        return verdict
    if kinds & {"param", "unknown"} and not has_array_evidence(rule, target) and _numpy_binding(rule, name) is None:
        # (an array a NumPy call makes on another path is evidence: `signal = store["x"]` on one path, `signal =
        # np.full(...)` on the other, pygsp's from_networkx)
        verdict.skip = True
        return verdict
    blockers = []
    if "param" in kinds:
        params = sorted(str(obj[1]) for obj in aliases.objects(stmt, name) if obj[0] == "param")
        if params == [name]:
            verdict.reasons.append(
                f"`{name}` belongs to the caller: NumPy updates the caller's array in place, the rewrite only rebinds "
                "a local name (return the updated array, see JX104)"
            )
        else:
            blockers.append(
                f"`{name}` may be a view or alias of parameter `{params[0]}`, so NumPy updates the caller's array "
                "through it, which a functional update of `" + name + "` cannot do"
            )
    if "unknown" in kinds:
        verdict.reasons.append(
            f"`{name}` comes from code jaxfix cannot see into, so it may share memory with another array"
        )
    shared = sorted(other for other in aliases.sharers(stmt, name) if read_after(rule, stmt, other))
    flow = function_flow(rule, rule.current_function) if rule.current_function is not None else None
    if shared and allow_rebind and flow is not None and not aliases.escaped(stmt, name) and all(
        aliases.full_alias(stmt, name, other) and not flow.maybe_undefined(stmt, other) for other in shared
    ):
        verdict.rebind = shared  # `y = x` before: after `x = x.at[...]...`, `y = x` keeps them one array
        shared = []
    if shared:
        names = ", ".join(f"`{s}`" for s in shared)
        blockers.append(
            f"{names} refers to the same memory (an alias or a view) and is used later, so NumPy's update is visible "
            f"through it; a functional update of `{name}` alone would leave it with the old values (update it "
            "explicitly, or copy before writing)"
        )
    if aliases.handed_out(stmt, name):
        blockers.append(
            f"`{name}` is handed to the generator's consumer by `yield`, which sees NumPy's in-place updates of it; a "
            "functional update would leave the consumer's array as it was (yield a copy, or the updated array)"
        )
    elif aliases.escaped(stmt, name):
        blockers.append(
            f"`{name}` is also stored in a container or attribute, which would keep the old array after a functional "
            "update"
        )
    if blockers:
        verdict.blocker = "; ".join(blockers)
    caught = sorted(caught_around(rule, stmt) & OUT_OF_BOUNDS_CATCHERS) if target.elements else []
    if caught:
        verdict.reasons.append(
            f"the write sits in a `try` that catches `{caught[0]}`: NumPy raises `IndexError` for an index out of "
            "bounds, while `.at[]` drops such an update without a word (and nothing raises under `jit`)"
        )
    elif target.elements and rule.current_function is not None:
        caller = caller_catching(rule, rule.current_function)
        if caller is not None:  # `try: return mark(n, i)` / `except IndexError:` around a call of this function
            verdict.reasons.append(
                f"{caller} calls this function in a `try` that catches `IndexError`: NumPy raises it for an index out "
                "of bounds, while `.at[]` drops such an update without a word (and nothing raises under `jit`)"
            )
    if not verdict.blocker:
        kept = kept_origin(rule, name)
        if kept is not None:  # `kernel = np.zeros(...)` that goes to `csr_matrix(kernel)`: NumPy on purpose (spafe)
            verdict.blocker = (f"`{name}` stays a NumPy array (JX501 keeps the call that makes it NumPy), so its update "
                               f"stays NumPy's in-place one (a NumPy array has no `.at`): {kept}")
            return verdict
        origin = host_origin(rule, name)
        if origin is not None:
            verdict.reasons.append(
                f"`{name}` is made from `{origin}(...)`, which jaxfix does not move to JAX: it may still be a NumPy "
                "array, which has no `.at` (wrap it in `jnp.asarray` first)"
            )
    return verdict


# NumPy functions whose result may have more axes than their array arguments (the number given when it is fixed)
_ADDING_AXES: dict[str, Optional[int]] = {
    "eye": 2, "identity": 2, "outer": 2, "tri": 2, "atleast_2d": None, "atleast_3d": None, "expand_dims": None,
    "meshgrid": None, "vstack": None, "row_stack": None, "column_stack": None, "dstack": None, "stack": None,
    "kron": None, "diag": None, "diagflat": None, "ix_": None, "einsum": None, "tensordot": None, "indices": None,
    "matrix": None, "asmatrix": None, "vander": None, "histogram2d": None, "block": None,
}
# calls whose result has as many axes as a shape argument says (`np.zeros((1, n))`, `x.reshape(1, -1)`, `np.tile(v,
# (1, 2))`: at least that many, more when the array has more)
_SHAPE_ARGUMENT = {"zeros": 0, "ones": 0, "empty": 0, "full": 0, "reshape": 1, "broadcast_to": 1, "resize": 1, "tile": 1}


def added_axes(rule: Rule, stmt: cst.CSTNode, target: Target, value: cst.BaseExpression) -> Optional[str]:
    """Why `value` may have more axes than the selection `target` writes, or None. NumPy's `x[i] = v` drops leading
    length-1 axes of `v` (`out[:] = np.tile(v, (1, 2))` writes a (1, 4) array into 4 places); `.at[i].set(v)`
    broadcasts `v` to the selection and raises when `v` has more axes (commpy's kbest). Values made by a call that
    adds axes (`np.tile` with several repetitions, `reshape`, `np.atleast_2d`, `np.outer`, `[None]`, ...) fit only
    when the selection is known to have at least as many axes as they can have (`A[:, :] = np.eye(n)`)."""
    found = _axes_sources(rule, stmt, value, frozenset())
    if not found:
        return None
    if len(found) == 1 and found[0][2] and found[0][1] is not None:
        selected = selection_rank(rule, stmt, target)
        if selected is not None and found[0][1] <= selected:
            return None
    what = rule.code(found[0][0])
    what = what if len(what) < 40 else rule.code(found[0][0].func) + "(...)" if isinstance(found[0][0], cst.Call) else what
    return (f"the value may have more axes than `{target.base_src}[{target.index_src}]` (`{what}` can add axes): NumPy "
            "drops its leading length-1 axes, `.at[...].set` raises on them")


def _axes_sources(
    rule: Rule, stmt: cst.CSTNode, value: cst.BaseExpression, seen: frozenset
) -> list[tuple[cst.CSTNode, Optional[int], bool]]:
    """The parts of `value` that may add axes (`[None]`, a call of `_call_axes`), each with the number of axes it
    gives (None: not known) and whether it is the whole value. A local name is followed to every value bound to it
    in the function (`ms = np.reshape(v, (1, -1))`, then `G[0, :] = ms * 2`: pyroomacoustics) where the value keeps
    all its axes (`_broadcast_names`), up to 3 names deep."""
    found: list[tuple[cst.CSTNode, Optional[int], bool]] = []
    for sub in walk.nodes_of(value, cst.Subscript):
        if any(isinstance(e.slice, cst.Index) and rule.code(e.slice.value) in ("None", "np.newaxis", "numpy.newaxis")
               for e in sub.slice):  # type: ignore[attr-defined]
            found.append((sub, None, sub is value))
    for call in walk.nodes_of(value, cst.Call):
        rank = _call_axes(rule, stmt, call)  # type: ignore[arg-type]
        if rank is not False:
            found.append((call, rank, call is value))  # type: ignore[arg-type]
    function = rule.current_function
    if function is None or len(seen) >= 3:
        return found
    facts_ = function_facts(rule, function)
    left: set[int] = set()  # the names reached as the left operand of a matrix product
    for name in _broadcast_names(facts_, value, left):
        if name.value in seen:
            continue
        if name.value in facts_.params:
            values: list = _rebound_parameter(rule, function, stmt, name.value)
        else:
            values = facts_.bindings.get(name.value, [])  # type: ignore[assignment]
        for bound in values:  # type: ignore[attr-defined]
            if bound is not None and id(name) in left and _leading_not_one(bound):
                continue  # `A = np.ones((3, 2))`, then `np.dot(A, v)`: only a leading 1 makes a product add an axis
            if bound is not None:
                for node, rank, whole in _axes_sources(rule, stmt, bound, seen | {name.value}):  # type: ignore[attr-defined]
                    found.append((node, rank, whole and name is value))
    return found


def unranked_value(rule: Rule, stmt: cst.CSTNode, target: Target, value: cst.BaseExpression) -> Optional[str]:
    """Why `value` may have more axes than the row `target` selects in an array made with a length-1 axis, or None.
    NumPy's `x[i] = v` drops leading length-1 axes of `v` beyond the selection's (a `(1, 1)` value into the `(1,)`
    row `G[i]` of `G = np.zeros(n)[:, None]`: scikit-rf's one-port `s[i]`), `.at[i].set(v)` raises (`ValueError`).
    An array made with a length-1 axis (`[:, None]`, `np.zeros((n, 1))`, `x.reshape(-1, 1)`, `keepdims=True`) is a
    column or a stack of them, whose rows are filled with values that often carry such axes too; there, a row (at
    least one axis left, some index picking one position) written with a value whose number of axes is not known to
    be at most the row's, nor whose leading length is known not to be 1, makes the fix unsafe. Rows of other arrays
    keep the safe fix (see Known problems: a value of unknown rank is the common case of `x[i] = v`)."""
    selected = selection_rank(rule, stmt, target)
    if selected is None or selected < 1 or not any(is_scalar_index(rule, stmt, e) for e in target.elements):
        return None
    function = rule.current_function
    if function is None or target.name is None:
        return None
    facts_ = function_facts(rule, function)
    made = [v for v in facts_.bindings.get(target.name, []) if v is not None]
    if not any(_unit_axis(rule, v) for v in made):
        return None
    rank = value_rank(rule, stmt, value, frozenset())
    if rank is not None and rank <= selected or _leading_not_one_value(value):
        return None
    shown = rule.code(value) if len(rule.code(value)) < 40 else "the value"
    return (f"`{target.base_src}` has a length-1 axis, and `{shown}` may have more axes than its row "
            f"`{target.base_src}[{target.index_src}]` ({selected} {'axis' if selected == 1 else 'axes'}): NumPy drops "
            "the value's leading length-1 axes, `.at[...].set` raises on them (reshape the value to the row's shape, "
            f"`v.reshape({target.base_src}[{target.index_src}].shape)`, if that is what is meant)")


def _unit_axis(rule: Rule, value: cst.BaseExpression) -> bool:
    """Whether `value` makes an array with a literal length-1 axis: `[:, None]` / `np.newaxis`, a shape display
    holding the literal 1 (`np.zeros((n, 1))`, `x.reshape(-1, 1)`), `keepdims=True`, `np.atleast_2d`."""
    for sub in walk.nodes_of(value, cst.Subscript):
        if any(isinstance(e.slice, cst.Index) and rule.code(e.slice.value) in ("None", "np.newaxis", "numpy.newaxis")
               for e in sub.slice):  # type: ignore[attr-defined]
            return True
    for call in walk.nodes_of(value, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        short = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        if short in ("atleast_2d", "atleast_3d"):
            return True
        for arg in call.args:  # type: ignore[attr-defined]
            if arg.keyword is not None and arg.keyword.value == "keepdims" and rule.code(arg.value) == "True":
                return True
            shape = arg.value
            if short in _SHAPE_ARGUMENT and isinstance(shape, (cst.Tuple, cst.List)) and any(
                    isinstance(e.value, cst.Integer) and e.value.evaluated_value == 1 for e in shape.elements
                    if isinstance(e, cst.Element)):
                return True
        if short in ("reshape", "resize") and isinstance(func, cst.Attribute) and len(call.args) > 1 and any(  # type: ignore[attr-defined]
                isinstance(a.value, cst.Integer) and a.value.evaluated_value == 1 for a in call.args):  # type: ignore[attr-defined]
            return True  # `x.reshape(-1, 1)`
    return False


def _leading_not_one_value(value: cst.BaseExpression) -> bool:
    """A list or tuple display of two or more items (`mag, 0`): its leading length is not 1, so NumPy drops no axis
    of it and `.at[].set` broadcasts it as NumPy does."""
    return isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) > 1 and not any(
        isinstance(e, cst.StarredElement) for e in value.elements)


def value_rank(rule: Rule, stmt: cst.CSTNode, value: cst.BaseExpression, seen: frozenset) -> Optional[int]:
    """The number of axes `value` has, when known: numbers and whole reductions (0), a local array of known rank, an
    item of one by integers and slices, arithmetic and elementwise functions of such (the most of their operands'),
    `.real`/`.imag`/`.T`/`.conj()` of one; else None (a parameter, an unknown call)."""
    if isinstance(value, (cst.Integer, cst.Float, cst.Imaginary)) or is_static_expression(value) \
            and not isinstance(value, (cst.List, cst.Tuple)):
        return 0
    if isinstance(value, cst.UnaryOperation):
        return value_rank(rule, stmt, value.expression, seen)
    if isinstance(value, cst.BinaryOperation) and not isinstance(value.operator, cst.MatrixMultiply):
        left, right = value_rank(rule, stmt, value.left, seen), value_rank(rule, stmt, value.right, seen)
        return None if left is None or right is None else max(left, right)
    if isinstance(value, cst.Attribute) and value.attr.value in ("real", "imag", "T"):
        return value_rank(rule, stmt, value.value, seen)
    function = rule.current_function
    if function is None:
        return None
    facts_ = function_facts(rule, function)
    if isinstance(value, cst.Name):
        if certainly_scalar(rule, value.value):
            return 0
        aliases = facts(rule)
        rank = aliases.rank(stmt, value.value) if aliases is not None else None
        if rank is not None or value.value in seen or value.value in facts_.params:
            return rank
        bound = facts_.bindings.get(value.value, [])  # a local of one value (`r = s[i] - 0.5`): that value's
        if len(bound) == 1 and bound[0] is not None:
            return value_rank(rule, stmt, bound[0], seen | {value.value})
        return None
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name):
        base = value_rank(rule, stmt, value.value, seen)
        if base is None:
            return None
        consumed = added = 0
        for element in value.slice:
            if isinstance(element.slice, cst.Slice):
                consumed += 1
            elif isinstance(element.slice.value, cst.Name) and element.slice.value.value == "None":
                added += 1
            elif is_scalar_index(rule, stmt, element.slice):
                consumed += 1
                added -= 1
            else:
                return None
        return base + added if consumed <= base else None
    if isinstance(value, cst.Call):
        if _scalar(facts_, value, set()) or isinstance(value.func, cst.Name) and value.func.value in (
                "float", "int", "complex", "len", "abs", "round") and len(value.args) == 1 and value.func.value != "abs":
            return 0
        if isinstance(value.func, cst.Attribute) and value.func.attr.value in ("conj", "conjugate", "copy") and not value.args:
            return value_rank(rule, stmt, value.func.value, seen)
        made = _call_axes(rule, stmt, value)
        if isinstance(made, int) and not isinstance(made, bool):
            return made  # `np.eye(n)`, `np.zeros((n, 3))`
        if facts_.array_function(value.func) in ELEMENTWISE and value.args:
            ranks = [value_rank(rule, stmt, a.value, seen) for a in value.args if a.keyword is None]
            return None if not ranks or any(r is None for r in ranks) else max(ranks)  # type: ignore[type-var]
    return None


def _rebound_parameter(rule: Rule, function: cst.FunctionDef, stmt: cst.CSTNode, name: str) -> list[cst.BaseExpression]:
    """The values the parameter `name` is rebound to by the assignments that reach `stmt`, when no path there keeps
    the caller's value (`x = np.reshape(x, (1, len(x)))`: scikit-dsp-comm's hamm_encoder); else []."""
    try:
        found = function_flow(rule, function).reaching(stmt, name)
    except KeyError:  # a statement the flow does not hold (in a nested function)
        return []
    values = []
    for d in found:
        node = d.node
        if not isinstance(node, cst.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return []
        values.append(node.value)
    return values


def _broadcast_names(facts_: FunctionFacts, value: cst.BaseExpression, left: Optional[set[int]] = None,
                     product: bool = False) -> Iterator[cst.Name]:
    """The names whose arrays `value` keeps every axis of: `value` itself, operands of arithmetic and of
    elementwise NumPy functions (`ms * 2`, `np.sin(ms)`), a sliced name (`x[:, a:b]`), and the left operand of a
    matrix product (`x @ G`, `np.matmul(x, G)`, `np.dot(x, G)`: a `(1, k)` row gives a `(1, n)` result, whose ids go
    into `left`); not names indexed by other values, reduced or passed to other calls."""
    def each(part: cst.BaseExpression, through: bool = product) -> Iterator[cst.Name]:
        yield from _broadcast_names(facts_, part, left, through)

    if isinstance(value, cst.Name):
        if product and left is not None:
            left.add(id(value))
        yield value
    elif isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.MatrixMultiply):
        yield from each(value.left, True)
    elif isinstance(value, cst.BinaryOperation):
        yield from each(value.left)
        yield from each(value.right)
    elif isinstance(value, cst.Subscript) and all(isinstance(e.slice, cst.Slice) for e in value.slice):
        yield from each(value.value)
    elif isinstance(value, cst.Call) and facts_.array_function(value.func) in ("matmul", "dot") and value.args \
            and value.args[0].keyword is None:
        yield from each(value.args[0].value, True)
    elif isinstance(value, cst.UnaryOperation):
        yield from each(value.expression)
    elif isinstance(value, cst.IfExp):
        yield from each(value.body)
        yield from each(value.orelse)
    elif isinstance(value, cst.Call) and facts_.array_function(value.func) in ELEMENTWISE:
        for arg in value.args:
            if arg.keyword is None:
                yield from each(arg.value)


def _leading_not_one(value: cst.BaseExpression) -> bool:
    """`np.ones((3, 2))`, `np.zeros((d, m))` with `d` not the literal 1...: an array made with a shape display whose
    first length is not the literal 1. Only a matrix product's leading length-1 axis survives into its result where
    NumPy drops it; a literal other than 1 cannot be 1, and a name is taken for one that is not (as everywhere else,
    `np.zeros((n, 3))` is an `n`-row matrix)."""
    if not isinstance(value, cst.Call) or not value.args:
        return False
    shape = next((a.value for a in value.args if a.keyword is None or a.keyword.value == "shape"), None)
    if not isinstance(shape, (cst.Tuple, cst.List)) or len(shape.elements) < 2:
        return False
    first = shape.elements[0].value
    return not (isinstance(first, cst.Integer) and first.evaluated_value == 1)


def _display_depth(value: cst.BaseExpression) -> int:
    """How many levels of list or tuple displays `value` nests at its first items (`[[1, 2]]`: 2; `[a, b]`: 1; a
    name: 0)."""
    depth = 0
    while isinstance(value, (cst.List, cst.Tuple)) and value.elements and not isinstance(value.elements[0], cst.StarredElement):
        depth += 1
        value = value.elements[0].value
    return depth


def _call_axes(rule: Rule, stmt: cst.CSTNode, call: cst.Call) -> "Optional[int] | bool":
    """For a call that may add axes: how many axes its result has (None: not known); False for other calls."""
    func = call.func
    qualified = numpy_name(rule, func)
    jnp_alias = rule.context.imports.jnp_alias
    method = False
    if qualified is not None and qualified.startswith("numpy."):
        short = qualified[len("numpy."):]
    elif jnp_alias and isinstance(func, cst.Attribute) and rule.code(func.value) == jnp_alias:
        short = func.attr.value
    elif isinstance(func, cst.Attribute) and func.attr.value in ("reshape", "resize", "outer"):
        short, method = func.attr.value, True  # `x.reshape(1, -1)`; `np.multiply.outer(a, b)`: a.ndim + b.ndim axes
    else:
        return False
    if short.endswith(".outer") or method and short == "outer":
        return None
    if short in _ADDING_AXES:
        return _ADDING_AXES[short]
    if any(a.keyword is not None and a.keyword.value == "ndmin" for a in call.args):
        return None  # `np.array(v, ndmin=2)`
    if short in ("array", "asarray", "asanyarray") and call.args and call.args[0].keyword is None:
        depth = _display_depth(call.args[0].value)
        if depth > 1:
            return depth  # `np.array([[1.5, 2.5]])`: a nested display, one axis per level (pyod's `(1, k)` weights)
    position = _SHAPE_ARGUMENT.get(short)
    if position is None:
        return False
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if method:  # `x.reshape(2, 3)` or `x.reshape((2, 3))`
        if len(positional) > 1:
            return len(positional)
        position = 0
    keywords = ("reps", "newshape", "shape", "new_shape")
    shape = next((a.value for a in call.args if a.keyword is not None and a.keyword.value in keywords), None)
    if shape is None and len(positional) > position:
        shape = positional[position].value
    if shape is None:
        return None
    if isinstance(shape, (cst.Tuple, cst.List)) and not any(isinstance(e, cst.StarredElement) for e in shape.elements):
        if len(shape.elements) <= 1:
            return False
        return None if short == "tile" else len(shape.elements)  # `np.tile(v, (1, 2))`: more axes when `v` has more
    if _is_int(rule, stmt, shape) or isinstance(shape, cst.Attribute) and shape.attr.value == "size":
        return False  # one axis (`np.tile(v, 2)`: as many as `v`)
    return None


def selection_rank(rule: Rule, stmt: cst.CSTNode, target: Target) -> Optional[int]:
    """The number of axes of `target`'s selection when the base's is known and every index is a slice, an integer,
    `...` or `None`; else None."""
    aliases = facts(rule)
    rank = aliases.rank(stmt, target.name) if aliases is not None and target.name else None
    if rank is None:
        return None
    consumed, added, ellipsis = 0, 0, False
    for element in target.elements:
        if isinstance(element, cst.Slice):
            consumed += 1
        elif isinstance(element.value, cst.Ellipsis):
            ellipsis = True
        elif isinstance(element.value, cst.Name) and element.value.value == "None":
            added += 1
        elif is_scalar_index(rule, stmt, element):
            consumed += 1
            added -= 1
        else:
            return None
    if consumed > rank:
        return None
    return rank + added


def _numpy_binding(rule: Rule, name: str) -> Optional[str]:
    """The NumPy (or `jax.numpy`) function of a call bound to `name` in the current function, or None."""
    function = rule.current_function
    if function is None:
        return None
    facts_ = function_facts(rule, function)
    return next((rule.code(v.func) for v in facts_.bindings.get(name, [])
                 if isinstance(v, cst.Call) and facts_.array_function(v.func) is not None), None)


def made_array(rule: Rule, name: str) -> bool:
    """Whether every value bound to `name` is certainly a mutable array: made by a NumPy / `jax.numpy` call, a
    `.copy()`, or arithmetic with such an array. A name bound to `n - 1` with `n = y.shape[0]` is a Python int."""
    function = rule.current_function
    return function is not None and _made_array(function_facts(rule, function), cst.Name(name), set())


# reductions that give a NumPy scalar (immutable: `+=` rebinds it) when given only the array, with no `axis=`
SCALAR_REDUCTIONS = {
    "argmin", "argmax", "nanargmin", "nanargmax", "sum", "nansum", "prod", "nanprod", "mean", "nanmean", "average",
    "std", "nanstd", "var", "nanvar", "min", "max", "amin", "amax", "nanmin", "nanmax", "median", "nanmedian", "ptp",
    "count_nonzero", "all", "any", "trace", "vdot", "linalg.det", "linalg.norm",
}


def certainly_scalar(rule: Rule, name: str) -> bool:
    """Whether every value bound to `name` is a NumPy scalar: a whole-array reduction (`np.argmin(err)`), a number,
    or another such name. `+=` on a scalar rebinds it, as in JAX, so no other name sees it (pysindy's SSR, where
    `total_ind = min_err; total_ind += 1` leaves `min_err` as it was)."""
    function = rule.current_function
    return function is not None and _scalar(function_facts(rule, function), cst.Name(name), set())


def _scalar(facts: FunctionFacts, expr: cst.BaseExpression, seen: set[str]) -> bool:
    if isinstance(expr, cst.Name):
        if expr.value in seen:
            return True
        seen.add(expr.value)
        values = [v for v in facts.bindings.get(expr.value, []) if v is not None]  # (`+=` binds None)
        return bool(values) and expr.value not in facts.params and all(_scalar(facts, v, seen) for v in values)
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if not isinstance(expr, cst.Call) or any(a.star for a in expr.args):
        return False
    short = facts.array_function(expr.func)
    positional = [a for a in expr.args if a.keyword is None]
    keywords = {a.keyword.value for a in expr.args if a.keyword is not None}
    return short in SCALAR_REDUCTIONS and len(positional) == 1 and not keywords & {"axis", "keepdims", "out", "where"}


def _made_array(facts: FunctionFacts, expr: cst.BaseExpression, seen: set[str]) -> bool:
    if isinstance(expr, cst.Name):
        if expr.value in seen:
            return True
        seen.add(expr.value)
        values = [v for v in facts.bindings.get(expr.value, []) if v is not None]
        return bool(values) and all(_made_array(facts, v, seen) for v in values)  # a parameter: if always rebound
    if isinstance(expr, cst.BinaryOperation):
        return _made_array(facts, expr.left, seen) or _made_array(facts, expr.right, seen)
    if isinstance(expr, cst.UnaryOperation):
        return _made_array(facts, expr.expression, seen)
    if isinstance(expr, cst.Call):
        func = expr.func
        if facts.array_function(func) is not None:
            return True
        return isinstance(func, cst.Attribute) and func.attr.value == "copy"  # an array's or a list's: mutable
    return False


# Builtins whose result is not an array, or is an array only when their argument is one.
_PASSING_BUILTINS = {"abs", "min", "max", "sum", "round", "len", "int", "float", "bool", "complex", "pow", "range"}


def host_origin(rule: Rule, name: str) -> Optional[str]:
    """The call that may leave `name` a NumPy array after the migration, or None. NumPy and `jax.numpy` functions,
    array methods, `.at` updates and functions of the same module give JAX arrays (parameters are taken as JAX
    arrays: the migrated function is called under `jit` or with JAX arrays); a function of another library
    (`gammaln(x)`), or a method of an object that is not an array (`rng.uniform(size=n)`), gives what it gives, and
    an expression of only such values (`rng.uniform(size=n) < p`) stays NumPy."""
    return next((rule.code(call.func) for call, host in _origins(rule, name) if host), None)


def kept_origin(rule: Rule, name: str) -> Optional[str]:
    """Why a NumPy call whose result `name` may hold stays NumPy in JX501's judgement (`_kept_numpy.kept_reason`: it
    goes to `scipy.sparse`, is hashed, made text, ...), or None. Such an array must stay a NumPy array: its update
    can neither become `.at` (a NumPy array has none) nor make it a JAX array."""
    function = rule.current_function
    array_function = function_facts(rule, function).array_function if function is not None else None
    for call, host in _origins(rule, name):
        if host and array_function is not None and array_function(call.func) is not None:
            # a NumPy function with no `jax.numpy` namesake JX501 moves to (`np.loadtxt`, `np.fromiter`): NumPy's array
            return f"`{rule.code(call.func)}(...)` has no `jax.numpy` counterpart JX501 moves it to"
        why = None if host else _kept_numpy.kept_reason(rule, call)
        if why is not None:
            return why
    return None


def _origins(rule: Rule, name: str) -> Iterator[tuple[cst.Call, bool]]:
    """The calls whose result `name` may hold, in the current function (through names, arithmetic, comparisons,
    conditional expressions, indexing and array methods), each with whether it gives what it gives (True: not a
    NumPy, `jax.numpy` or `jax` function, nor one of the module's, see `host_origin`)."""
    function = rule.current_function
    if function is None:
        return iter(())
    functions = rule.__dict__.get("_module_functions")
    if functions is None:
        module = rule.context.module
        functions = rule._module_functions = {s.name.value for s in module.body if isinstance(s, cst.FunctionDef)}
    return _calls(rule, function_facts(rule, function), cst.Name(name), functions, set())


def _calls(rule: Rule, facts: FunctionFacts, expr: cst.BaseExpression, functions: set[str], seen: set[str]
           ) -> Iterator[tuple[cst.Call, bool]]:
    def each(*parts: cst.BaseExpression) -> Iterator[tuple[cst.Call, bool]]:
        for part in parts:
            yield from _calls(rule, facts, part, functions, seen)

    if isinstance(expr, cst.Name):
        if expr.value in seen:
            return
        seen.add(expr.value)
        # (a parameter gives a JAX array, but one rebound here holds what it is rebound to: `S = unify(S)`, a function
        # of another module, then `r = S.astype(S.dtype)` may still be a NumPy array: PyEMD's EMD.emd)
        yield from each(*(v for v in facts.bindings.get(expr.value, []) if v is not None))
        # `e, k = (a > 0).astype(float), 1`: the item of the parallel assignment the name takes
        for value, position, count in facts.unpacked.get(expr.value, ()):
            if isinstance(value, (cst.Tuple, cst.List)):
                if len(value.elements) == count and not any(isinstance(e, cst.StarredElement) for e in value.elements):
                    yield from each(value.elements[position].value)
            else:  # `s, m = helper(x)` (an imported function's items: what it gives), `q, r = np.linalg.qr(a)`
                yield from each(value)
    elif isinstance(expr, cst.BinaryOperation):
        yield from each(expr.left, expr.right)
    elif isinstance(expr, cst.Comparison):
        yield from each(expr.left, *(c.comparator for c in expr.comparisons))
    elif isinstance(expr, cst.UnaryOperation):
        yield from each(expr.expression)
    elif isinstance(expr, cst.IfExp):
        yield from each(expr.body, expr.orelse)
    elif isinstance(expr, cst.Subscript):
        yield from each(expr.value)
    elif isinstance(expr, cst.Call):
        yield from _call(rule, facts, expr, functions, each)


def _call(rule: Rule, facts: FunctionFacts, expr: cst.Call, functions: set[str], each: Callable
          ) -> Iterator[tuple[cst.Call, bool]]:
    func = expr.func
    name = facts.array_function(func)
    if name is not None and name.startswith("random."):
        return  # `np.random.normal(size=n)`: JX401 makes it a `jax.random` draw, or holds the whole function back
    if name is not None:  # a NumPy function with no `jax.numpy` namesake (`numpy._core.empty`, `nditer`) stays NumPy
        jnp_alias = facts.imports.jnp_alias
        entry = jnp_api.lookup(f"numpy.{jnp_api.SUBSTITUTES.get(name, name)}")
        # `np.ndarray(shape)`: `jnp.ndarray` is a class JX501 does not call; `np.fromiter(...)`: host-only (JX501)
        converted = entry is not None and entry.get("kind") not in ("constant", "class") and \
            name.split(".")[-1] not in HOST_ONLY or jnp_alias and rule.code(func).startswith(jnp_alias + ".")
        yield expr, not converted
        return
    if isinstance(func, cst.Name):
        if func.value in functions:
            yield expr, False  # the module's: JX501 may keep it NumPy (`_kept_numpy.kept_reason`)
        elif func.value not in _PASSING_BUILTINS:
            yield expr, True
        return
    root = func
    while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
        root = root.func if isinstance(root, cst.Call) else root.value
    if not isinstance(func, cst.Attribute) or not isinstance(root, cst.Name):
        yield expr, True
        return
    imports = rule.context.imports
    if root.value in (imports.jax_alias, imports.jnp_alias, imports.lax_alias):
        return  # jax.random.normal(key), lax.cumsum(x)
    receiver = func.value
    if isinstance(receiver, cst.Subscript) and isinstance(receiver.value, cst.Attribute) and receiver.value.attr.value == "at":
        return
    local = root.value in facts.params or root.value in facts.bindings
    if func.attr.value in ARRAY_METHODS and local:
        yield from each(receiver)  # x.sum(), y.reshape(...): what the receiver is
        return
    yield expr, True  # rng.uniform, self.fun, scipy.special.gammaln


# array methods whose result is no array (a Python value): not followed from a parameter


def jax_input(rule: Rule, stmt: cst.CSTNode, name: str) -> tuple[dict[cst.CSTNode, cst.CSTNode], bool]:
    """How the update at `stmt` reaches a JAX array in `name` when the value `name` holds there may be the caller's
    own kind of array: made from a parameter by array methods, indexing or arithmetic only (`y = X.flatten()`,
    `r = S.copy()`, `y = X * 2`), it is a NumPy array when the function is called with one (outside `jit`: module
    code, tests), and a NumPy array has no `.at` (GPy's `y = X.flatten(); y[0] = 0.0`). Arrays that a NumPy or
    `jax.numpy` call makes are JAX arrays after the migration and need nothing: ({}, False).
    When the value comes from one binding `name = <value>` of a parameter (or of one name made from one, see
    `_parameter_roots`), that name is read through JAX there, as the loop rules read one (`jnp.asarray(X)`): ({the
    value: its JAX form}, False), in the idiomatic form for a copy, a cast and a flattening (`jnp.array(S)`,
    `jnp.asarray(S, dtype=d)`, `jnp.ravel(X)`). Otherwise (several bindings, several names) the update reads
    `jnp.asarray(name)`: ({}, True)."""
    function = rule.current_function
    if function is None:
        return {}, False
    flow = function_flow(rule, function)
    if not flow.knows(stmt):
        return {}, False
    defs = flow.reaching(stmt, name)
    if any(d.is_parameter for d in defs):
        return {}, False  # the parameter itself: its update is unsafe (`judge`), and JX104 returns it as `x.at[...]`
    facts = function_facts(rule, function)
    if not _caller_name(rule, facts, flow, stmt, name, set()):
        return {}, False
    assign = defs[0].node if len(defs) == 1 else None
    value = _bound_value(assign, name) if isinstance(assign, cst.Assign) else None
    if value is not None:
        roots = _parameter_roots(rule, facts, flow, assign, value)
        if roots:
            return {value: _jax_form(rule, value, roots[0])}, False
    return {}, True


def _bound_value(assign: cst.Assign, name: str) -> Optional[cst.BaseExpression]:
    """The value `assign` binds `name` to: all of it for `name = value` (`x = P = value` too), the matching item for
    a parallel tuple assignment (`x, P = Xs.copy(), Xs.copy()`: filterpy's RTS smoother); else None (unpacking
    another value)."""
    value = assign.value
    for assigned in assign.targets:
        target = assigned.target
        if isinstance(target, cst.Name) and target.value == name:
            return value
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
                and len(target.elements) == len(value.elements) \
                and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
            item = next((v.value for t, v in zip(target.elements, value.elements)
                         if isinstance(t.value, cst.Name) and t.value.value == name), None)
            if item is not None:
                return item
    return None


def _caller_name(rule: Rule, facts: FunctionFacts, flow, stmt: cst.CSTNode, name: str, seen: set) -> bool:
    """Whether a value of `name` at `stmt` may be a parameter's, or made from one (see `jax_input`)."""
    for definition in flow.reaching(stmt, name):
        node = definition.node
        if definition.is_parameter:
            return True
        if (node, name) in seen:
            continue
        seen.add((node, name))
        value = _bound_value(node, name) if isinstance(node, cst.Assign) else None
        if value is not None:
            if _caller_value(rule, facts, flow, node, value, seen):
                return True
        elif isinstance(node, cst.AugAssign) and _caller_name(rule, facts, flow, node, name, seen):
            return True  # `y *= 2` keeps the kind of array `y` is
    return False


def _caller_value(rule: Rule, facts: FunctionFacts, flow, stmt: cst.CSTNode, value: cst.BaseExpression, seen: set) -> bool:
    return any(True for _ in _caller_roots(rule, facts, flow, stmt, value, seen))


def _caller_roots(rule: Rule, facts: FunctionFacts, flow, stmt: cst.CSTNode, value: cst.BaseExpression,
                  seen: Optional[set]) -> Iterator[cst.Name]:
    """The names in `value` (read at `stmt`) whose kind of array it has, when it is an array made from them by array
    methods, indexing or arithmetic and they may hold a parameter's value (`X` in `X.astype(float).flatten()`); with
    `seen` None, only names that hold the parameter itself there."""
    if isinstance(value, cst.Name):
        if seen is None:
            defs = flow.reaching(stmt, value.value)
            if defs and all(d.is_parameter for d in defs):
                yield value
        elif _caller_name(rule, facts, flow, stmt, value.value, seen):
            yield value
    elif isinstance(value, cst.Attribute) and value.attr.value in _buffers.ARRAY_ATTRIBUTES:
        yield from _caller_roots(rule, facts, flow, stmt, value.value, seen)
    elif isinstance(value, cst.Subscript):
        yield from _caller_roots(rule, facts, flow, stmt, value.value, seen)
    elif isinstance(value, cst.Call) and (reshaped := _reshaped(facts, value)) is not None:
        yield from _caller_roots(rule, facts, flow, stmt, reshaped, seen)  # (before `np.reshape` passes for a method)
    elif isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in ARRAY_METHODS \
            and value.func.attr.value not in PYTHON_VALUE_METHODS and facts.array_function(value.func) is None:
        yield from _caller_roots(rule, facts, flow, stmt, value.func.value, seen)
    elif isinstance(value, cst.BinaryOperation):
        if not any(isinstance(side, cst.Call) and facts.array_function(side.func) and _reshaped(facts, side) is None
                   for side in (value.left, value.right)):
            yield from _caller_roots(rule, facts, flow, stmt, value.left, seen)  # `X * np.ones(n)` is a JAX array
            yield from _caller_roots(rule, facts, flow, stmt, value.right, seen)
    elif isinstance(value, cst.UnaryOperation):
        yield from _caller_roots(rule, facts, flow, stmt, value.expression, seen)
    elif isinstance(value, cst.IfExp):
        yield from _caller_roots(rule, facts, flow, stmt, value.body, seen)
        yield from _caller_roots(rule, facts, flow, stmt, value.orelse, seen)


def _reshaped(facts: FunctionFacts, call: cst.Call) -> Optional[cst.BaseExpression]:
    """The array `np.reshape(a, ...)` / `jnp.reshape(a, ...)` reshapes: `jnp.reshape` of a NumPy array calls its
    `.reshape` method and gives a NumPy array (with no `.at`), unlike every other `jax.numpy` function; else None."""
    if facts.array_function(call.func) != "reshape" or any(a.star for a in call.args):
        return None
    return next((a.value for a in call.args if a.keyword is None or a.keyword.value == "a"), None)


def _parameter_roots(rule: Rule, facts: FunctionFacts, flow, assign: cst.Assign, value: cst.BaseExpression) -> list[cst.Name]:
    """The parameters `value` is made from (see `_caller_roots`), when every name it may take its kind from is one;
    else the one name it takes its kind from, made from a parameter before (scipy's `w2 = win.real**2; DD =
    w2.copy()` in a loop of `DD[k:] += ...`: `DD = jnp.array(w2)` once, not `jnp.asarray(DD)` at every update)."""
    if isinstance(value, cst.IfExp):
        return []  # each side would need its own conversion: the update reads `jnp.asarray` instead
    roots = list(_caller_roots(rule, facts, flow, assign, value, None))
    kinds = list(_caller_roots(rule, facts, flow, assign, value, set()))
    if roots and len(roots) == len(kinds):
        return roots
    return kinds if len(kinds) == 1 else []


def _jax_form(rule: Rule, value: cst.BaseExpression, root: cst.Name) -> cst.BaseExpression:
    """`value` with the parameter `root` read through JAX: `S.copy()` -> `jnp.array(S)`, `S.astype(d)` ->
    `jnp.asarray(S, dtype=d)`, `X.flatten()` -> `jnp.ravel(X)`, else `root` -> `jnp.asarray(root)` in place
    (`jnp.asarray(X)[1:].copy()`, `jnp.asarray(X) * 2`)."""
    jnp, param = rule.jnp, root.value
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.value is root \
            and all(a.keyword is None and not a.star for a in value.args):
        method, args = value.func.attr.value, [rule.code(a.value).strip() for a in value.args]
        if method == "copy" and not args:
            return rule.expr(f"{jnp}.array({param})")
        if method == "astype" and len(args) == 1:
            return rule.expr(f"{jnp}.asarray({param}, dtype={args[0]})")
        if method == "flatten" and not args:
            return rule.expr(f"{jnp}.ravel({param})")
    converted = rule.expr(f"{jnp}.asarray({param})")
    return value.deep_replace(root, converted) if value is not root else converted  # type: ignore[return-value]


def needs_parens(value: cst.BaseExpression) -> bool:
    return not isinstance(
        value,
        (cst.Name, cst.Attribute, cst.Subscript, cst.Call, cst.Integer, cst.Float, cst.SimpleString, cst.Tuple, cst.List),
    )


def updates_in_functions(tree: "ast.Module", text: str) -> bool:
    """Second-level pre-check (see `jaxfix.precheck`): False when no function contains an item assignment, an
    augmented assignment, or a call that may write in place (`.fill`, `.sort`, `np.copyto`, `ufunc.at`, `out=`)."""
    import ast

    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.AugAssign):
                return True
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Subscript) or (isinstance(t, (ast.Tuple, ast.List)) and any(
                    isinstance(e, ast.Subscript) for e in t.elts)) or (
                    isinstance(t, ast.Attribute) and t.attr in ("flat", "real", "imag", "shape")) for t in node.targets
            ):
                return True
            if isinstance(node, ast.Call):
                if isinstance(node.func, ast.Attribute) and node.func.attr in ("fill", "sort", "copyto", "at"):
                    return True
                if any(k.arg == "out" for k in node.keywords):
                    return True
    return False


def root_name(node: cst.BaseExpression) -> str:
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else ""




def is_pure_int_call(index: cst.BaseSlice) -> bool:
    """`int(...)` / `len(...)` of something without calls: evaluating it twice is harmless."""
    if not isinstance(index, cst.Index) or not isinstance(index.value, cst.Call):
        return False
    call = index.value
    return isinstance(call.func, cst.Name) and call.func.value in ("int", "len") and not any(
        walk.contains(a.value, cst.Call) for a in call.args
    )
