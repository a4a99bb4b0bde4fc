"""What the body of a loop works with, for the loop rewrites (JX22x): facts about values rather than control flow
(which is `jaxfix.analysis.loops`).

- `carry_changes_shape(loop, carried)`: a carried name rebound to a value of another shape (`polymul`, a slice of
  itself): a `lax` loop carry keeps one shape.
- `indexed_sequence(...)`: a Python list or tuple indexed by the loop counter (a traced counter cannot do that);
  `indexed_item(...)`: the same of an item a comprehension in the body takes (`[a[k] for a in alphas]`).
- `shape_class` / `same_shape` / `reshaped_names` / `scalar_names`: syntactic proofs that values have one shape,
  for `jnp.where` between them (which would otherwise broadcast).
"""

from __future__ import annotations

import builtins
from typing import Optional, Sequence

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.activity import Activity, _Collector, analyse
from jaxfix.analysis.host_data import documented_lists
from jaxfix.analysis.tracedness import Tracedness


# NumPy functions whose result has another shape than their first argument
RESHAPING = {
    "polymul", "polyadd", "polysub", "polyder", "polyint", "convolve", "correlate", "concatenate", "concat", "append",
    "delete", "insert", "hstack", "vstack", "dstack", "column_stack", "row_stack", "stack", "pad", "resize", "outer", "kron",
    "repeat", "tile", "trim_zeros", "unique", "nonzero", "flatnonzero", "argwhere", "compress", "extract", "diff",
    "block", "r_", "c_", "intersect1d", "union1d", "setdiff1d", "setxor1d", "unique_values", "unique_counts",
    "unique_inverse", "unique_all",
}


# functions and methods whose result may have another number of axes than their argument (`mv.reshape(d, 1)`,
# `np.atleast_2d(v)`): a carried name rebound so may change shape between iterations
REARRANGING = {
    "reshape", "ravel", "flatten", "squeeze", "expand_dims", "atleast_1d", "atleast_2d", "atleast_3d", "transpose",
    "swapaxes", "moveaxis", "rollaxis", "broadcast_to",
}
# reductions: over an axis (and without `keepdims=True`) they drop it (`m = np.sum(m, axis=-2)`)
REDUCING = {
    "sum", "prod", "mean", "std", "var", "max", "min", "amax", "amin", "any", "all", "argmax", "argmin", "median",
    "nansum", "nanprod", "nanmean", "nanstd", "nanvar", "nanmax", "nanmin", "average", "ptp", "logsumexp",
}


def _drops_axis(call: cst.Call, short: str) -> bool:
    """`np.sum(m, axis=-2)`, `m.sum(0)`: a reduction over an axis without `keepdims=True`."""
    if short not in REDUCING:
        return False
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if "keepdims" in keywords and not (isinstance(keywords["keepdims"], cst.Name) and keywords["keepdims"].value == "False"):
        return False
    positional = [a for a in call.args if a.keyword is None and not a.star]
    method = isinstance(call.func, cst.Attribute) and not isinstance(call.func.value, cst.Name) or \
        isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name) and call.func.value.value not in (
            "np", "numpy", "jnp", "onp", "scipy", "special")
    return "axis" in keywords or len(positional) >= (1 if method else 2)


def _assigned_pairs(assign: cst.Assign) -> list[tuple[str, Optional[cst.BaseExpression]]]:
    """The names an assignment binds, each with its value when known: `a = v` gives (a, v), `a, b = u, v` gives
    (a, u) and (b, v), an unpacking of anything else gives (name, None)."""
    pairs: list[tuple[str, Optional[cst.BaseExpression]]] = []
    for target in assign.targets:
        t = target.target
        if isinstance(t, cst.Name):
            pairs.append((t.value, assign.value))
        elif isinstance(t, (cst.Tuple, cst.List)):
            values = assign.value.elements if isinstance(assign.value, (cst.Tuple, cst.List)) else None
            items = [e.value for e in t.elements]
            if values is not None and len(values) == len(items) and not any(isinstance(e, cst.StarredElement) for e in values):
                pairs.extend((i.value, v.value) for i, v in zip(items, values) if isinstance(i, cst.Name))
    return pairs


def _new_axis(value: cst.BaseExpression) -> bool:
    """`v[:, None]`, `v[np.newaxis]`: an index that adds an axis."""
    return isinstance(value, cst.Subscript) and any(
        isinstance(e.slice, cst.Index) and (
            isinstance(e.slice.value, cst.Name) and e.slice.value.value == "None"
            or isinstance(e.slice.value, cst.Attribute) and e.slice.value.attr.value == "newaxis")
        for e in value.slice)


def carry_changes_shape(loop: cst.CSTNode, carried) -> Optional[tuple[str, str]]:
    """A carried name the loop body rebinds to a value of another shape: the result of a NumPy function that
    grows or shrinks its argument (`b = np.polymul(b, p)`, `a = np.delete(a, 0)`, `m = np.sum(m, axis=-2)`), or that rearranges its axes
    (`mv = mv.reshape(d, 1)`, also in a tuple assignment, `v = v[:, None]`), a slice of itself (`a = a[1:]`, `a = a[::2]`), or a
    tuple or list it extends (`key += (x,)`, `acc = acc + [v]`). Under `jit` a static loop unrolls and allows this;
    a `lax` loop raises at trace time."""
    names = set(carried)
    body = getattr(loop, "body", None)
    if body is None:
        return None
    for aug in walk.nodes_of(body, cst.AugAssign):  # `key += (x,)`, `parts += [row]`: a tuple or list that grows
        target, value = aug.target, aug.value  # type: ignore[attr-defined]
        if isinstance(target, cst.Name) and target.value in names and isinstance(value, (cst.Tuple, cst.List, cst.ListComp)):
            return target.value, "a tuple or list that grows"
    for assign in walk.nodes_of(body, cst.Assign):
        for name, value in _assigned_pairs(assign):  # type: ignore[arg-type]
            if name not in names or value is None:
                continue
            if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add) and (
                    isinstance(value.right, (cst.Tuple, cst.List)) or isinstance(value.left, (cst.Tuple, cst.List))):
                return name, "a tuple or list that grows"
            changed = reshaping(value)
            if changed is not None:
                return name, changed
            if sliced(value, name):
                return name, "a slice of itself"
    return None


def reshaping(value: cst.BaseExpression) -> Optional[str]:
    """What gives `value` a shape of its own, not that of its inputs (None when nothing visibly does): a NumPy
    function that grows or shrinks its argument (`np.polymul(b, p)`, `np.delete(a, 0)`, `np.concatenate(..)`), one
    that rearranges axes (`v.reshape(d, 1)`, `np.atleast_2d(v)`, `v.T`), a reduction over an axis (`np.sum(m,
    axis=-2)`, also with `keepdims=True`, which leaves it with length 1), an index that adds an axis (`v[:, None]`),
    `np.r_[...]` / `np.c_[...]`."""
    if isinstance(value, cst.Call):
        short = walk.called_name(value)
        if short in RESHAPING or short in REARRANGING:
            return f"`{short}`"
        if _drops_axis(value, short) and not (isinstance(value.func, cst.Name) and hasattr(builtins, short)):
            return f"`{short}` over an axis"  # (not Python's `max(1, a, b)`)
        if short in REDUCING and any(a.keyword is not None and a.keyword.value == "keepdims" for a in value.args) \
                and _drops_axis(value.with_changes(args=[a for a in value.args if a.keyword is None or a.keyword.value != "keepdims"]), short):
            return f"`{short}` over an axis (kept with length 1)"  # `x.sum(axis=0, keepdims=True)`
    if isinstance(value, cst.Attribute) and value.attr.value in ("T", "mT"):
        return f"`.{value.attr.value}`"
    if _new_axis(value):
        return "an index that adds an axis"
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Attribute) and value.value.attr.value in ("r_", "c_"):
        return f"`{value.value.attr.value}[...]`"  # `I = np.r_[np.c_[I, z], row]`: it grows
    return None


def sliced(value: cst.BaseExpression, name: str) -> bool:
    """`name[1:]`, `name[::2]`, `name[:, :k]`: a slice of `name` with a bound or step, which may have another shape."""
    return isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and value.value.value == name and any(
        isinstance(e.slice, cst.Slice) and any(p is not None for p in (e.slice.lower, e.slice.upper, e.slice.step))
        for e in value.slice
    )


# ---- Python sequences indexed by the counter, shapes that a loop keeps -------------------------------------------
SEQUENCE_CALLS = {"list", "tuple", "sorted", "reversed"}
LIST_ANNOTATIONS = {"list", "List", "tuple", "Tuple", "Sequence", "Iterable"}
ARRAY_EVIDENCE = {"shape", "ndim", "dtype", "astype", "T", "reshape", "at", "size", "sum", "mean", "max", "min", "dot"}


def indexed_sequence(analysis, function: cst.FunctionDef, body: Sequence[cst.BaseStatement], index: str,
                     stop: cst.BaseExpression, module: Optional[cst.Module] = None) -> Optional[tuple[str, bool]]:
    """A name indexed by `index` in `body` that is (True) a Python list or tuple: bound to a list/tuple display,
    comprehension or `list(...)`, or a parameter annotated as a sequence; or (False) may be one: a parameter that
    bounds the loop as `len(name)` with no sign of being an array (`.shape`, `x[i, j]`, arithmetic on it), or whose
    items' attributes are read (`path[k].theta`: a list of objects).
    `analysis` is the function's FunctionTracedness. Under a lax loop the index is traced, and a traced index
    cannot index a list (`TypeError`); None when no such name is indexed. With `module`, a name handed with the
    index to a top-level function of it that indexes its parameter with the index's (`term(k, invR, d)`, `term`
    reading `invR[iq]`: pymcmcstat's delayed rejection) counts as indexed too (and that function's uses of it as
    signs of an array)."""
    indexed: list[str] = []
    through: dict[str, tuple[cst.FunctionDef, str]] = {}  # a name so handed -> (the callee, its parameter)
    functions = {f.name.value: f for f in module.body if isinstance(f, cst.FunctionDef)} if module is not None else {}

    attributes: list[str] = []

    class Visitor(cst.CSTVisitor):
        def visit_Subscript(self, node: cst.Subscript) -> None:
            if any(index in analyse(e.slice).read_names for e in node.slice):
                if isinstance(node.value, cst.Name):
                    indexed.append(node.value.value)
                elif isinstance(node.value, cst.Attribute) and isinstance(node.value.value, cst.Name) and node.value.value.value in ("self", "cls"):
                    attributes.append(f"self.{node.value.attr.value}")

        def visit_Call(self, node: cst.Call) -> None:
            callee = functions.get(node.func.value) if isinstance(node.func, cst.Name) else None
            if callee is None or callee is function:
                return
            for name, param in _indexed_in_callee(callee, node, index):
                indexed.append(name)
                through.setdefault(name, (callee, param))

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
        if name in documented_lists(function):  # `@param[in] a (list)` (pyclustering's distances)
            return name, False
        callee, param = through.get(name, (None, ""))
        if item_attribute(function, name) or callee is not None and item_attribute(callee, param):
            return name, False  # `trypath[k].theta`: a sequence of objects
        if _is_len_of(stop, name) or _bound_to_len_of(analysis, stop, name):
            if not _array_evidence(function, name) and (callee is None or not _array_evidence(callee, param)):
                return name, False
    return None


def indexed_item(function: cst.FunctionDef, body: Sequence[cst.BaseStatement], index: str) -> Optional[tuple[str, str]]:
    """(the name, the code of what it iterates) of an item that a comprehension or nested `for` of `body` takes from
    what is not shown to be an array, and that `body` indexes with `index` (`[alpha[idx] > 0 for alpha in alphas]`:
    `alphas` may be a list of tuples, SALib's Sobol indices), or None. Under a `lax` loop the index is traced, and
    a Python tuple or list rejects it (`TracerIntegerConversionError`); unlike a parameter, such an item cannot be
    read as `jnp.asarray` of it before the loop."""
    items = _item_sources(body)
    if not items:
        return None
    from jaxfix.analysis.loops import derived_names  # (loops imports this module)

    counters = {index} | derived_names(body, index)
    for stmt in body:
        for node in walk.nodes_of(stmt, cst.Subscript):
            value = node.value  # type: ignore[attr-defined]
            source = items.get(value.value) if isinstance(value, cst.Name) else None
            if source is None or all(counters.isdisjoint(analyse(e.slice).read_names) for e in node.slice):  # type: ignore[attr-defined]
                continue
            if isinstance(source, cst.Name) and _array_evidence(function, source.value):
                continue
            return value.value, cst.Module([]).code_for_node(source)
    return None


def item_problem(item: tuple[str, str], index: str, loop: str) -> str:
    """Why a loop whose body indexes an item (`indexed_item`) with the counter cannot become `loop`."""
    return (f"`{item[0]}`, an item of `{item[1]}` (which may hold Python tuples or lists), is indexed by {index}, which "
            f"`{loop}` traces: a traced index cannot index a Python sequence; stack the items into one array first")


def _item_sources(body: Sequence[cst.BaseStatement]) -> dict[str, cst.BaseExpression]:
    """The names the comprehensions and nested `for` loops of `body` bind to items, each with what it iterates
    (`alpha` -> `alphas` in `[alpha[k] for alpha in alphas]`). A name also bound otherwise is left out."""
    found: dict[str, cst.BaseExpression] = {}
    for stmt in body:
        for node in [*walk.nodes_of(stmt, cst.CompFor), *walk.nodes_of(stmt, cst.For)]:
            target = node.target  # type: ignore[attr-defined]
            if isinstance(target, cst.Name):
                found.setdefault(target.value, node.iter)  # type: ignore[attr-defined]
    return found


def _indexed_in_callee(callee: cst.FunctionDef, call: cst.Call, index: str) -> list[tuple[str, str]]:
    """(the caller's name, the callee's parameter) for each plain name `call` hands to a parameter of `callee` that
    `callee` indexes with a parameter given a value read from `index` (directly or through its locals)."""
    params = [p.name.value for p in (*callee.params.posonly_params, *callee.params.params, *callee.params.kwonly_params)]
    given: dict[str, cst.BaseExpression] = {}
    for position, arg in enumerate(call.args):
        if arg.star:
            break
        param = arg.keyword.value if arg.keyword is not None else params[position] if position < len(params) else None
        if param is not None:
            given[param] = arg.value
    counters = {p for p, v in given.items() if index in analyse(v).read_names}
    if not counters:
        return []
    statements = list(callee.body.body) if isinstance(callee.body, cst.IndentedBlock) else []
    from jaxfix.analysis.loops import derived_names  # (loops imports this module)

    derived = set().union(*(derived_names(statements, c) for c in counters))
    found = []
    for param, value in given.items():
        if not isinstance(value, cst.Name) or param in counters:
            continue
        if any(isinstance(n.value, cst.Name) and n.value.value == param  # type: ignore[attr-defined]
               and any(not derived.isdisjoint(analyse(e.slice).read_names) for e in n.slice)  # type: ignore[attr-defined]
               for n in walk.nodes_of(callee.body, cst.Subscript)):
            found.append((value.value, param))
    return found


def item_attribute(function: cst.FunctionDef, name: str) -> bool:
    """Whether `function` reads an attribute of an item of `name` that arrays do not have (`path[k].theta`)."""
    return any(isinstance(a.value, cst.Subscript) and isinstance(a.value.value, cst.Name)  # type: ignore[attr-defined]
               and a.value.value.value == name and a.attr.value not in ARRAY_EVIDENCE | _ITEM_ARRAY_ATTRIBUTES  # type: ignore[attr-defined]
               for a in walk.nodes_of(function.body, cst.Attribute))


# attributes and methods of an array's item that is itself an array or a NumPy scalar (`x[i].real`, `x[i].item()`)
_ITEM_ARRAY_ATTRIBUTES = frozenset({"real", "imag", "item", "tolist", "copy", "conj", "conjugate", "any", "all",
                                    "argmax", "argmin", "std", "var", "prod", "cumsum", "flatten", "ravel", "squeeze",
                                    "transpose", "nbytes", "itemsize", "mT", "clip", "round", "nonzero", "sort",
                                    "argsort", "fill", "view", "tobytes"})


def _bound_to_len_of(analysis, stop: cst.BaseExpression, name: str) -> bool:
    """`stop` is a local name bound only to `len(name)` (`dimension = len(point1)`: pyclustering's Chebyshev)."""
    if not isinstance(stop, cst.Name):
        return False
    values = analysis.assigned_values(stop.value)
    return bool(values) and all(v is not None and _is_len_of(v, name) for v in values)


def traced_sequence_index(analysis, body: Sequence[cst.CSTNode]) -> Optional[str]:
    """The code of the first subscript in `body` of a Python list or tuple (a name bound to a display,
    comprehension or `list(...)`) by a traced index (`accum[index - 1]`), or None. `analysis` is the function's
    FunctionTracedness. Code that `lax.cond` or a `lax` loop traces cannot do it: a list rejects a tracer (`TypeError`)."""
    for stmt in body:
        for node in walk.nodes_of(stmt, cst.Subscript):
            if not isinstance(node.value, cst.Name) or not any(_sequence_value(v) for v in analysis.assigned_values(node.value.value)):
                continue
            if any(isinstance(e.slice, cst.Index) and analysis.of(e.slice.value) is not Tracedness.STATIC for e in node.slice):
                return cst.Module([]).code_for_node(node)
    return None


def traced_param_item(analysis, function: cst.FunctionDef, body: Sequence[cst.CSTNode]) -> Optional[tuple[str, str]]:
    """(the code, why the name may be a Python list) of the first subscript in `body` by a traced index of a
    parameter that may be a Python list or tuple (`maybe_sequence`: `trypath[iq + 1].theta`), or None. A list
    rejects the tracer `lax.cond` or a `lax` loop makes of the index (`TypeError`)."""
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    for stmt in body:
        for node in walk.nodes_of(stmt, cst.Subscript):
            value = node.value  # type: ignore[attr-defined]
            if not (isinstance(value, cst.Name) and value.value in params) or analysis.assigned_values(value.value):
                continue
            if not any(isinstance(e.slice, cst.Index) and analysis.of(e.slice.value) is not Tracedness.STATIC
                       for e in node.slice):  # type: ignore[attr-defined]
                continue
            why = maybe_sequence(function, value.value)
            if why is not None:
                return cst.Module([]).code_for_node(node), why
    return None


def maybe_sequence(function: cst.FunctionDef, name: str) -> Optional[str]:
    """Why `name`, a parameter of `function`, may be a Python list or tuple, or None: the function reads attributes
    of its items (`path[k].theta`: a sequence of objects), or takes its `len()` and shows no sign of an array
    (`.shape`, `x[i, j]`, arithmetic on it)."""
    if item_attribute(function, name):
        return "the function reads attributes of its items: a sequence of objects"
    if any(_is_len_of(call, name) for call in walk.nodes_of(function.body, cst.Call)) \
            and not _array_evidence(function, name):  # type: ignore[arg-type]
        return "the function takes its `len()` and uses it as no array"
    return None


def traced_host_conversion(analysis, body: Sequence[cst.CSTNode]) -> Optional[str]:
    """The code of the first `v.item()` / `v.tolist()`, or `int(v)` / `float(v)` / `complex(v)` / `bool(v)`, in
    `body` of a value that may be traced, or None: `lax.cond` traces every branch, and a `lax` loop its body, where
    it raises (`ConcretizationTypeError`). (JX502 turns the ones it can prove 0-d into array forms first; what is
    left is an unsafe fix, as for POT's `loss_prev - loss.item()` of a callback's loss.)"""
    for stmt in body:
        for node in walk.nodes_of(stmt, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in ("item", "tolist") and not node.args \
                    and analysis.of(func.value) is not Tracedness.STATIC:
                return cst.Module([]).code_for_node(node)
            if isinstance(func, cst.Name) and func.value in PYTHON_CONVERSIONS and len(node.args) == 1 \
                    and not node.args[0].keyword and not node.args[0].star and analysis.of(node.args[0].value) is not Tracedness.STATIC:
                return cst.Module([]).code_for_node(node)
    return None


# builtins that make a Python number of an array (a traced one raises `ConcretizationTypeError`)
PYTHON_CONVERSIONS = frozenset({"int", "float", "complex", "bool"})


def traced_slice_bound(analysis, body: Sequence[cst.CSTNode]) -> Optional[str]:
    """The code of the first slice in `body` with a bound that may be traced (`x[-n:]`, `out.at[: n + 4]`,
    `slice(0, n)`), or None. `analysis` is the function's FunctionTracedness. A slice bound must be a Python int:
    code that `lax.cond` or a `lax` loop traces gets its traced values as tracers, even outside `jit`, and the slice
    raises (`IndexError: Slice entries must be static integers`), where Python ran it with the host value."""
    for stmt in body:
        for node in walk.nodes_of(stmt, cst.Subscript):
            if any(isinstance(e.slice, cst.Slice) and any(
                    part is not None and analysis.of(part) is not Tracedness.STATIC
                    for part in (e.slice.lower, e.slice.upper, e.slice.step)) for e in node.slice):
                return cst.Module([]).code_for_node(node)
        for node in walk.nodes_of(stmt, cst.Call):
            if isinstance(node.func, cst.Name) and node.func.value == "slice" \
                    and any(analysis.of(a.value) is not Tracedness.STATIC for a in node.args):
                return cst.Module([]).code_for_node(node)
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
    """`len(name)`, also with an offset (`len(coeffs) + 1`: astropy's Clenshaw recurrences)."""
    if isinstance(stop, cst.BinaryOperation) and isinstance(stop.operator, (cst.Add, cst.Subtract)):
        return _is_len_of(stop.left, name) or _is_len_of(stop.right, name)
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


def target_names(loop: cst.CSTNode) -> frozenset[str]:
    """The names a `for` loop binds on each iteration (empty for `while`)."""
    if not isinstance(loop, cst.For):
        return frozenset()
    activity = Activity()
    _Collector(activity).target(loop.target)
    return frozenset(activity.writes)


def _binds(node: cst.CSTNode) -> frozenset[str]:
    if isinstance(node, cst.For):
        return target_names(node)
    activity = Activity()
    if isinstance(node, cst.With):
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


CONTAINER_CALLS = {"dict", "set", "frozenset", "list", "tuple", "OrderedDict", "defaultdict", "Counter"}
HASHING_METHODS = {"get", "pop", "setdefault", "index", "count", "remove", "discard"}


def _container_value(value: Optional[cst.BaseExpression]) -> Optional[str]:
    """"a dict", "a set", "a list", "a tuple" when `value` makes a Python container, else None."""
    if isinstance(value, (cst.Dict, cst.DictComp)):
        return "a dict"
    if isinstance(value, (cst.Set, cst.SetComp)):
        return "a set"
    if isinstance(value, (cst.List, cst.ListComp)):
        return "a list"
    if isinstance(value, cst.Tuple):
        return "a tuple"
    if isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)) and _last_name(value.func) in CONTAINER_CALLS:
        name = _last_name(value.func)
        return {"list": "a list", "tuple": "a tuple", "set": "a set", "frozenset": "a set"}.get(name, "a dict")
    return None


def _module_containers(module: cst.Module) -> dict[str, str]:
    """{name: kind} for the module-level names bound only to Python containers (`MOVE = {(a, b): ... for ...}`)."""
    bound: dict[str, list[Optional[str]]] = {}
    for stmt in module.body:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            bound.setdefault(stmt.name.value, []).append(None)
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                [small.target] if isinstance(small, (cst.AnnAssign, cst.AugAssign)) else []
            for target in targets:
                if isinstance(target, cst.Name):
                    bound.setdefault(target.value, []).append(_container_value(getattr(small, "value", None)))
    return {n: kinds[0] for n, kinds in bound.items() if kinds and all(kinds)}  # type: ignore[misc]


def host_container_use(analysis, function: cst.FunctionDef, body: Sequence[cst.BaseStatement], seeds: Sequence[str],
                       module: Optional[cst.Module]) -> Optional[str]:
    """Why a `lax` loop body cannot index or hash a Python container with the traced values it computes, or None.
    `seeds` are the names a `lax` loop traces (its counter or element, its carry); what the body computes from them
    is traced too (`key = (origin[r], dest[r])`). A dict or set indexed by, or tested for, a traced value hashes a
    tracer (`TypeError: unhashable type`); a list or tuple indexed by one raises `TracerIntegerConversionError`, and
    `x in seq` compares and needs a Python bool. The containers: the function's locals and the module's names bound
    only to a display, a comprehension or `dict(...)`/`list(...)`... (giddy's LISA_Markov `move_types[(o, d)]`).
    `analysis` is the function's FunctionTracedness."""
    from jaxfix.analysis.loops import derived_names  # (loops imports this module)

    traced: set[str] = set()
    for seed in seeds:
        traced |= derived_names(body, seed)
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    module_level = _module_containers(module) if module is not None else {}

    def kind(node: cst.BaseExpression) -> Optional[str]:
        if not isinstance(node, cst.Name) or node.value in traced or node.value in params:
            return None
        values = analysis.assigned_values(node.value)
        if values:
            kinds = [_container_value(v) for v in values]
            return kinds[0] if all(kinds) else None
        return module_level.get(node.value)

    def reads_traced(node: cst.CSTNode) -> bool:
        return not traced.isdisjoint(analyse(node).read_names)

    def shown(node: cst.CSTNode) -> str:
        return cst.Module([]).code_for_node(node).strip()

    for stmt in body:
        for node in walk.nodes_of(stmt, cst.Subscript):
            what = kind(node.value)  # type: ignore[attr-defined]
            if what is not None and any(reads_traced(e.slice) for e in node.slice):  # type: ignore[attr-defined]
                hashed = what in ("a dict", "a set")
                return (f"`{shown(node)}` indexes `{shown(node.value)}`, {what}, with a value the loop traces: "  # type: ignore[attr-defined]
                        + ("a tracer cannot be hashed (`TypeError: unhashable type`)" if hashed else
                           "a traced index cannot index a Python sequence (`TracerIntegerConversionError`)")
                        + "; keep the Python loop, or make it a JAX array indexed by integers")
        for node in walk.nodes_of(stmt, cst.Comparison):
            left = node.left  # type: ignore[attr-defined]
            for target in node.comparisons:  # type: ignore[attr-defined]
                what = kind(target.comparator) if isinstance(target.operator, (cst.In, cst.NotIn)) else None
                if what is not None and reads_traced(left):
                    return (f"`{shown(node)}` tests a value the loop traces for membership in `{shown(target.comparator)}`, "
                            f"{what}: that hashes or compares a tracer and needs a Python bool; keep the Python loop")
                left = target.comparator
        for node in walk.nodes_of(stmt, cst.Call):
            func = node.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Attribute) and func.attr.value in HASHING_METHODS and kind(func.value) is not None \
                    and any(reads_traced(a.value) for a in node.args):  # type: ignore[attr-defined]
                return (f"`{shown(node)}` looks up a value the loop traces in `{shown(func.value)}`, "
                        f"{kind(func.value)}: a tracer cannot be hashed or compared to a Python bool; keep the Python loop")
    return None
