"""Branch values: can the values the branches give be one array, as `jnp.where` and `lax.cond` need?

`output_values`, `branch_values` and `return_values` collect what the branches give a name or return. Why they
cannot be one array: `kind_conflict` (None, strings, lists, dicts, tuples of other lengths, dtypes, objects, visibly
different shapes, complex against real), `int_mix` (an int literal against a float: `lax.cond` needs one dtype),
`float_split` (a value made a float by its own arithmetic against one that may stay an integer), `bool_mix` (a
`True`/`False` literal against a number),
`empty_reduction` (a min/max of a selection the `if` kept from being empty),
`python_ints` (unbounded Python ints that int32 would wrap), `holds_object` (an object made by a class),
`none_inside` (a tuple with `None` in it, maybe through a name's binding), `none_read` (a name read in a branch
that may be None there: `prev = None` before a loop),
`text_output` / `text_return` (strings), and `broadcast_risk` (shapes `jnp.where` would broadcast, from
`jaxfix.analysis.shapes`).
"""

from __future__ import annotations

import builtins
from typing import Container, Iterator, Optional, Sequence

import libcst as cst
import numpy as np

from codemods._list_inputs import display_row, rows_kind
from jaxfix import walk
from jaxfix.analysis.foreign_dtypes import is_text
from jaxfix.analysis.loop_values import (RESHAPING, reshaping, sliced, traced_host_conversion, traced_sequence_index,
    traced_slice_bound)
from jaxfix.analysis.masks import FunctionFacts
from jaxfix.analysis.shapes import ELEMENTWISE, SAME_SHAPE_METHODS, FunctionShapes
from jaxfix.analysis.tracedness import Tracedness, makes_object
from jaxfix.analysis.value_dtypes import BOOL, FLOAT, DType, dtype_of
from jaxfix.imports import bound_by_import, dotted_name, top_level_statements


def kind_conflict(values: Sequence[cst.BaseExpression]) -> Optional[str]:
    """Why these branch values cannot be one array (None, strings, lists, dicts, tuples of other lengths), or None."""
    if any(is_text(v) for v in values):
        return "a side is a string, and a traced condition can only choose between arrays"
    kinds = {_kind(v) for v in values}
    plain = {"array" if k == "name" else k for k in kinds}  # a name may hold anything: an array, or a tuple
    tuples = {k for k in kinds if k.startswith("tuple")}
    if len(plain) > 1 and plain & {"None", "str", "list", "dict"} or len(tuples) > 1 or (tuples and "array" in kinds) or "object" in kinds:
        return "the branches give values of different kinds (" + ", ".join(sorted(plain)) + ")"
    comprehension = next((v for v in values if isinstance(v, cst.ListComp)), None)
    if comprehension is not None and len(values) > 1:
        return (f"a side is a list built by a comprehension (`{cst.Module([]).code_for_node(comprehension).strip()}`), "
                "whose length may differ from the other side's")
    nested = _nested(values)
    if nested is not None:
        return nested
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


def none_inside(values: Sequence[cst.BaseExpression], facts: FunctionFacts) -> Optional[cst.BaseExpression]:
    """A tuple or list with `None` among its items (at any depth) that one of `values` is, or that a name among them
    is bound to (`best = (-np.inf, None)`, kept by the branch not taken: astropy's BLS), else None."""
    def has_none(v: cst.BaseExpression) -> bool:
        return isinstance(v, (cst.Tuple, cst.List)) and any(
            isinstance(e.value, cst.Name) and e.value.value == "None" or has_none(e.value) for e in v.elements)

    for value in values:
        bound = facts.bindings.get(value.value, []) if isinstance(value, cst.Name) else [value]
        found = next((b for b in bound if b is not None and has_none(b)), None)
        if found is not None:
            return found
    return None


# attributes an array has that give arrays (or its metadata): any other attribute of a local value is an object's
ARRAY_VALUE_ATTRIBUTES = frozenset({"T", "mT", "H", "real", "imag", "flat", "shape", "size", "ndim", "dtype"})


def object_attribute(values: Sequence[cst.BaseExpression], local: frozenset[str]) -> Optional[cst.Attribute]:
    """A branch value that is an attribute of a local value or parameter other than an array's own (`root.left`,
    `node.children`, `self.best`): it may hold any Python object (a tree node, a list), which no `lax.cond` branch
    or `jnp.where` operand can be, so a rewrite choosing it is unsafe. Not `np.inf` (a module's constant)."""
    for value in values:
        if isinstance(value, cst.Attribute) and value.attr.value not in ARRAY_VALUE_ATTRIBUTES:
            root = value.value
            while isinstance(root, cst.Attribute):
                root = root.value
            if isinstance(root, cst.Name) and (root.value in local or root.value in ("self", "cls")):
                return value
    return None


def _value_operands(v: cst.BaseExpression) -> Optional[list[cst.BaseExpression]]:
    """The operands whose value `v` computes from, for arithmetic and a conditional expression (`a * b`, `-a`,
    `a if c else b`: not the condition), else None."""
    if isinstance(v, cst.BinaryOperation):
        return [v.left, v.right]
    if isinstance(v, cst.UnaryOperation) and not isinstance(v.operator, cst.Not):
        return [v.expression]
    if isinstance(v, cst.IfExp):
        return [v.body, v.orelse]
    return None


def attribute_dtype(values: Sequence[cst.BaseExpression], facts: FunctionFacts,
                    local: frozenset[str]) -> Optional[cst.Attribute]:
    """An object's attribute (`object_attribute`'s kind: `self.tau`, `opts.step`) whose dtype a branch value takes,
    through arithmetic, an item of it, or a local name bound to one (`rhomlt = self.tau`, then `rsf = 1.0 / rhomlt`),
    when the branches give more than one value; else None. Its dtype is unknown (sporco makes it `dtype(2.0)`, a
    float32, in `__init__`), and `lax.cond` needs one dtype from every branch: against a Python float (float64
    under x64) or another value it raises `TypeError` at trace time, where Python keeps each value's type."""
    if len({cst.Module([]).code_for_node(v) for v in values}) < 2:
        return None

    seen: set[str] = set()  # names followed once for the whole search: a name reached again finds nothing new

    def source(v: cst.BaseExpression) -> Optional[cst.Attribute]:
        if isinstance(v, cst.Attribute):
            found = object_attribute([v], local)
            return found if found is not None else source(v.value) if v.attr.value in ("T", "mT", "real", "imag") else None
        if isinstance(v, cst.Name):
            if v.value in seen:
                return None
            seen.add(v.value)
            parts = [b for b in facts.bindings.get(v.value, []) if b is not None]
        elif isinstance(v, cst.Subscript):
            parts = [v.value]
        elif isinstance(v, cst.Call):
            # `np.sqrt(self.tau)`, `jnp.maximum(m, 1.0)`: an array function's result takes its inputs' dtype
            called = dotted_name(v.func) if isinstance(v.func, (cst.Name, cst.Attribute)) else ""
            parts = [a.value for a in v.args if a.keyword is None and not a.star] if _array_function(called) else None
        else:
            parts = _value_operands(v)
        if parts is None:
            return None
        return next((found for found in map(source, parts) if found is not None), None)

    return next((found for found in map(source, values) if found is not None), None)


def _array_function(called: str) -> bool:
    """`np.sqrt`, `numpy.exp`, `jnp.maximum`, `jax.numpy.sqrt`, or a NumPy function imported by name (`sqrt`)."""
    if called.startswith(("np.", "numpy.", "jnp.", "jax.numpy.")):
        return True
    return "." not in called and not hasattr(builtins, called) and callable(getattr(np, called, None)) \
        and not isinstance(getattr(np, called), type)  # (not Python's `max`, `abs`, `round`)


def module_object(values: Sequence[cst.BaseExpression], module: cst.Module, local: frozenset[str],
                  function: Optional[cst.FunctionDef] = None) -> Optional[str]:
    """Why a branch value is no array, or None: a name the module binds to a function, class or import (`return
    cp_convolve` / `return convolve`, pylops' backend getters), which `lax.cond` cannot return nor `jnp.where`
    choose."""
    bound: set[str] = set()
    displays: dict[str, list[cst.BaseExpression]] = {}
    for stmt in top_level_statements(module):
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            bound.add(stmt.name.value)
        bound |= bound_by_import(stmt) or set()
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else []:
            if isinstance(small, cst.Assign):
                for t in small.targets:
                    if isinstance(t.target, cst.Name):
                        displays.setdefault(t.target.value, []).append(small.value)
    for value in values:
        if isinstance(value, cst.Name) and value.value in bound and value.value not in local:
            return (f"a branch gives `{value.value}`, a function, class or module of this module, which `lax.cond` cannot "
                    "return and `jnp.where` cannot choose")
    arrays = array_imports(module)
    for value in values:
        table = display_row(function, value)
        if table is not None:  # `best = point`, `for point in frontier`: librosa's `_crystal_tie_break`
            kind = rows_kind(function, table)  # type: ignore[arg-type]
            return (f"a branch gives `{cst.Module([]).code_for_node(value).strip()}`, a row of `{table}`, a local list of "
                    f"{kind} displays: a Python {kind} of numbers, which `lax.cond` would make a {kind} of arrays and "
                    f"`jnp.where` an array (Python keeps the {kind}, hashable, of Python numbers)")
        held = _host_item(value, displays, bound, local, arrays)
        if held is not None:
            code = cst.Module([]).code_for_node
            return (f"a branch gives `{code(value).strip()}`, an item of the module-level `{code(value.value).strip()}`, "
                    f"which holds values that are no arrays (`{code(held).strip()}`); `lax.cond` cannot return them and "
                    "`jnp.where` cannot choose them")
    return _list_lengths(values, displays, local)


ARRAY_LIBRARIES = ("numpy", "jax", "scipy", "math", "cmath")


def array_imports(module: cst.Module) -> frozenset[str]:
    """The names the module's top-level imports bind to NumPy, JAX, SciPy or `math` (or things in them)."""
    names: set[str] = set()
    for stmt in top_level_statements(module):
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else []:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    if dotted_name(alias.name).split(".")[0] in ARRAY_LIBRARIES:
                        names |= bound_by_import(cst.SimpleStatementLine([cst.Import([alias])])) or set()
            elif isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative \
                    and dotted_name(small.module).split(".")[0] in ARRAY_LIBRARIES:
                names |= bound_by_import(stmt) or set()
    return frozenset(names)


def _host_item(value: cst.BaseExpression, displays: dict[str, list[cst.BaseExpression]], bound: set[str],
               local: frozenset[str], arrays: frozenset[str]) -> Optional[cst.BaseExpression]:
    """`CMAPS[kind]` where the module binds `CMAPS` once, to a dict, list or tuple display holding an item that is no
    array (librosa's `display.cmap` returns a matplotlib colormap drawn from such a dict): that item, else None.
    An item is no array when it is a string, `None`, a lambda/dict/set, a name the module binds to a function, class
    or import, an object made by a class (`Model()`), or a call or attribute of an import from outside NumPy/JAX/
    SciPy/`math` (`cm.magma`, `plt.get_cmap('magma')`)."""
    if not isinstance(value, cst.Subscript) or not isinstance(value.value, cst.Name) or value.value.value in local:
        return None
    found = displays.get(value.value.value, [])
    if len(found) != 1 or not isinstance(found[0], (cst.Dict, cst.List, cst.Tuple)):
        return None
    display = found[0]
    items = [e.value for e in display.elements if isinstance(e, (cst.DictElement, cst.Element))]

    def host(item: cst.BaseExpression) -> bool:
        if is_text(item) or makes_object(item) or isinstance(item, (cst.Lambda, cst.Dict, cst.Set, cst.DictComp, cst.SetComp)):
            return True
        if isinstance(item, cst.Name):
            return item.value == "None" or item.value in bound and item.value not in arrays
        return _foreign(item, bound, arrays)

    return next((item for item in items if host(item)), None)


def _foreign(value: cst.BaseExpression, bound: set[str], arrays: frozenset[str]) -> bool:
    """`cm.magma`, `plt.get_cmap(name)`: an attribute, or a call of one, of a name the module imports from outside
    NumPy/JAX/SciPy/`math` (a module-level import): in a module-level display, a library's object (a function, a
    colormap), not an array. (Not for a value computed in the function: `util.normalize(x)` of the package's own
    `util` returns an array; a branch calling it is `_purity`'s.)"""
    root = value.func if isinstance(value, cst.Call) else value
    name = dotted_name(root)
    return isinstance(root, cst.Attribute) and bool(name) and name.split(".")[0] in bound \
        and name.split(".")[0] not in arrays


def _list_lengths(values: Sequence[cst.BaseExpression], displays: dict[str, list[cst.BaseExpression]],
                  local: frozenset[str]) -> Optional[str]:
    """Why the branch values cannot be one array, or None: lists of different lengths, written out or bound once to a
    module-level display (`points = WIDE` / `points = NARROW`: fluids' line search). `lax.cond` needs branches of one
    pytree structure (a list of 4 floats against one of 2 raises `TypeError`), and NumPy keeps each list's length."""
    def length(v: cst.BaseExpression) -> Optional[int]:
        if isinstance(v, cst.Name) and v.value not in local and len(displays.get(v.value, [])) == 1:
            v = displays[v.value][0]
        if isinstance(v, (cst.List, cst.Tuple)) and not any(isinstance(e, cst.StarredElement) for e in v.elements):
            return len(v.elements)
        return None

    lengths = {n for n in map(length, values) if n is not None}
    if len(lengths) > 1:
        shown = next(cst.Module([]).code_for_node(v).strip() for v in values if length(v) is not None)
        return (f"the branches give sequences of different lengths ({', '.join(map(str, sorted(lengths)))}: "
                f"`{shown}` against another side)")
    return None


def guarded_division(test: cst.BaseExpression, branches: Sequence[cst.CSTNode]) -> Optional[str]:
    """`num / den if den != 0 else -inf`: the test compares a value with zero and a branch divides by that value.
    `lax.cond` traces every branch whichever is taken (and `jnp.where` evaluates both): on a traced value the
    division gives inf or nan, harmless; but if the value is a Python number after all, Python's division by zero
    raises `ZeroDivisionError` while the branch is traced. The divisor's code, else None."""
    guarded = []
    for node in walk.nodes(test):
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            other = node.comparisons[0].comparator
            for side, zero in ((node.left, other), (other, node.left)):
                if isinstance(zero, (cst.Integer, cst.Float)) and zero.evaluated_value == 0:
                    guarded.append(side)
    if not guarded:
        return None
    for branch in branches:
        for node in walk.nodes(branch):
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Divide, cst.FloorDivide, cst.Modulo)) \
                    and any(node.right.deep_equals(g) for g in guarded):
                return cst.Module([]).code_for_node(node.right).strip()
    return None


EMPTY_NOTE = (" (a branch takes `{}`, which raises on an empty array, in NumPy as in JAX: the `if` ran it only where "
              "it is not empty, but `jnp.where` evaluates every side and `lax.cond` traces every branch, whichever is "
              "taken; safe only if it is never empty, else give the reduction an `initial=`)")
EMPTY_INDEX_NOTE = (" (a branch reads `{}`, an item of a selection that may be empty, which raises `IndexError` when it "
                    "is, in NumPy as in JAX: the `if` read it only where the selection is not empty, but `jnp.where` "
                    "evaluates every side and `lax.cond` traces every branch, whichever is taken; safe only if it is "
                    "never empty)")


def empty_note(found: str) -> str:
    """The note for what `empty_reduction` found: a reduction (`v[m].min()`) or an item (`v[m][-1]`)."""
    return (EMPTY_INDEX_NOTE if found.endswith("]") else EMPTY_NOTE).format(found)


# reductions that raise on an empty array (no identity): `v.min()`, `np.argmax(v)`; with `initial=` they do not
_EMPTY_RAISING = {"min", "max", "amin", "amax", "argmin", "argmax", "nanmin", "nanmax", "nanargmin", "nanargmax", "ptp"}
# what a test reads to tell whether an array is empty: `len(v) > 0`, `v.size`, `v.shape[0]`; or whether a mask
# selects anything: `np.any(m)`, `m.any()`, `np.count_nonzero(m)`
_SIZE_FUNCTIONS = {"len", "size", "shape"}
_MASK_FUNCTIONS = {"any", "count_nonzero"}


def empty_reduction(tests: Sequence[cst.BaseExpression], branches: Sequence[cst.CSTNode], facts: FunctionFacts) -> Optional[str]:
    """`0.0 if not np.any(v >= 0) else v[v >= 0].min()`: a branch takes the min/max/argmin/argmax (without
    `initial=`) of a boolean-masked read, of a read indexed by what the test tells selects something or not
    (`np.any(m)`, `m.any()`), or of an array whose size the test reads (`len(v)`, `v.size`, `v.shape`). Such a
    reduction raises on an empty array (`zero-size array to reduction operation`), in NumPy and in JAX; the `if`
    ran it only where it was not empty, but `jnp.where` evaluates both sides and `lax.cond` traces both branches.
    Likewise an item read from such a selection (`v[m][-1]`, `v[m][0, 1]`, `np.flatnonzero(m)[0]`,
    `np.nonzero(m)[0][0]`): on an empty selection it raises `IndexError`. The reduction's (or item's) code, else
    None."""
    sized: set[str] = set()
    selecting: set[str] = set()
    for test in tests:
        for node in walk.nodes(test):
            if isinstance(node, cst.Call) and node.args:
                name = node.func.value if isinstance(node.func, cst.Name) else facts.array_function(node.func)
                if name in _SIZE_FUNCTIONS:
                    sized |= _read_names(node.args[0].value)
                elif name in _MASK_FUNCTIONS:
                    selecting |= _read_names(node.args[0].value)
            if isinstance(node, cst.Attribute) and node.attr.value in ("size", "shape"):
                sized |= _read_names(node.value)
            elif isinstance(node, cst.Attribute) and node.attr.value == "any" and facts.array_function(node) is None:
                selecting |= _read_names(node.value)
    for branch in branches:
        for node in walk.nodes_of(branch, cst.Call):
            if any(a.keyword is not None and a.keyword.value in ("initial", "default") for a in node.args):
                continue
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in _EMPTY_RAISING and facts.array_function(func) is None:
                operand: Optional[cst.BaseExpression] = func.value  # `v[m].min()`
            elif facts.array_function(func) in _EMPTY_RAISING or isinstance(func, cst.Name) and func.value in ("min", "max") \
                    and len(node.args) == 1 and node.args[0].star == "":
                operand = node.args[0].value if node.args and node.args[0].keyword is None else None
            else:
                continue
            if operand is None:
                continue
            indices = [e.slice.value for e in operand.slice if isinstance(e.slice, cst.Index)] \
                if isinstance(operand, cst.Subscript) else []
            if any(facts.is_mask(i) or _read_names(i) & selecting for i in indices) or _read_names(operand) & sized:
                return cst.Module([]).code_for_node(node).strip()
        for node in walk.nodes_of(branch, cst.Subscript):
            first = node.slice[0].slice  # type: ignore[attr-defined]
            if not isinstance(first, cst.Index) or first.star is not None or facts.is_mask(first.value) \
                    or isinstance(first.value, cst.Ellipsis) or dotted_name(first.value) == "None":
                continue  # a slice, `None`, `...` or a mask of a selection is empty when it is: no error
            if _maybe_empty_selection(node.value, selecting, sized, facts):
                return cst.Module([]).code_for_node(node).strip()
    return None


# NumPy functions whose result holds as many items as their argument selects (none, for an all-False mask)
_SELECTIONS = {"flatnonzero", "argwhere", "compress", "extract"}
_INDEX_TUPLES = {"nonzero", "where"}  # `np.nonzero(m)[0]`: the indices along one axis


def _maybe_empty_selection(operand: cst.BaseExpression, selecting: set[str], sized: set[str], facts: FunctionFacts) -> bool:
    """Whether `operand` is a selection that may be empty, which the test tells empty or not: a boolean-mask read
    (`v[m]`, `v[m, 1]`), a read indexed by what the test tells selects something (`v[idx]` under `np.any(idx)`...),
    an array whose size the test reads, or the indices of a mask (`np.flatnonzero(m)`, `np.nonzero(m)[0]`)."""
    if isinstance(operand, cst.Subscript):
        indices = [e.slice.value for e in operand.slice if isinstance(e.slice, cst.Index)]
        if any(facts.is_mask(i) or _read_names(i) & selecting for i in indices):
            return True
        call = operand.value
        if isinstance(call, cst.Call) and facts.array_function(call.func) in _INDEX_TUPLES and len(call.args) == 1:
            return True  # `np.nonzero(m)[0][0]`: a one-argument `where` is `nonzero`
    if isinstance(operand, cst.Call) and facts.array_function(operand.func) in _SELECTIONS:
        return True
    return bool(_read_names(operand) & sized) and isinstance(operand, (cst.Name, cst.Attribute))


def _read_names(node: cst.BaseExpression) -> set[str]:
    """The names `node` reads (not attribute names: `v.size` reads `v`)."""
    attrs = {id(a.attr) for a in walk.nodes_of(node, cst.Attribute)}  # type: ignore[attr-defined]
    return {n.value for n in walk.nodes_of(node, cst.Name) if id(n) not in attrs}  # type: ignore[attr-defined]


def guarded_index(test: cst.BaseExpression, branches: Sequence[cst.CSTNode], traced,
                  in_range: frozenset[tuple[str, str]] = frozenset()) -> Optional[str]:
    """`n_out if i == n_layers else sizes[i]`: the test compares a value and a branch indexes with it (`sizes[i]`,
    `sizes[i - 1]`), so the test may be what keeps the index in range. `lax.cond` traces every branch (and
    `jnp.where` evaluates both) whichever is taken: an index that is a Python int (or may be one: not traced for sure)
    out of a list's or an array's range raises `IndexError` there. Slices never raise. `traced` is the function's
    tracedness. `in_range` holds the (index, sequence) pairs the enclosing loops keep in range whatever the test says
    (`loop_indices`: `for j in range(len(V))` makes `V[j]` safe). The indexing's code, else None."""
    compared: set[str] = set()
    for node in walk.nodes(test):
        if isinstance(node, cst.Comparison) and not all(
                isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in node.comparisons):
            for operand in (node.left, *(t.comparator for t in node.comparisons)):
                compared |= _arithmetic_names(operand)
    if not compared:
        return None
    for branch in branches:
        for node in walk.nodes_of(branch, cst.Subscript):
            for element in node.slice:  # type: ignore[attr-defined]
                index = element.slice
                if isinstance(index, cst.Index) and _arithmetic_names(index.value) & compared \
                        and traced.of(index.value) is not Tracedness.TRACED:  # type: ignore[attr-defined]
                    if element is node.slice[0] and isinstance(index.value, cst.Name) and \
                            (index.value.value, cst.Module([]).code_for_node(node.value)) in in_range:
                        continue
                    return cst.Module([]).code_for_node(node).strip()
    return None


def loop_indices(rule: cst.MetadataDependent, node: cst.CSTNode, flow) -> frozenset[tuple[str, str]]:
    """(index, sequence) pairs that the `for` loops around `node` (within its function) keep in range:
    `for j in range(len(V))`, `for j in range(V.shape[0])` and `for j, v in enumerate(V)` give `("j", "V")`, since
    `V[j]` is then an item of `V` whatever a test in the loop compares `j` with; not when the loop body assigns `j`
    or `V` (`flow` is the function's `FunctionFlow`; `rule` must declare `ParentProvider`)."""
    from jaxfix.analysis.parents import ParentProvider
    pairs: set[tuple[str, str]] = set()
    current = rule.get_metadata(ParentProvider, node, None)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if isinstance(current, cst.For) and current.asynchronous is None:
            pair = _loop_index(current)
            if pair is not None and not (set(pair) & flow.writes(current.body)):
                pairs.add(pair)
        current = rule.get_metadata(ParentProvider, current, None)
    return frozenset(pairs)


def _loop_index(loop: cst.For) -> Optional[tuple[str, str]]:
    iterated = loop.iter
    if not isinstance(iterated, cst.Call) or not isinstance(iterated.func, cst.Name) or \
            any(a.keyword is not None or a.star for a in iterated.args):
        return None
    target, args = loop.target, iterated.args
    if iterated.func.value == "enumerate" and len(args) == 1 and isinstance(target, cst.Tuple) and \
            len(target.elements) == 2 and isinstance(target.elements[0].value, cst.Name) and \
            isinstance(args[0].value, cst.Name):
        return target.elements[0].value.value, args[0].value.value
    if iterated.func.value != "range" or not isinstance(target, cst.Name) or not 1 <= len(args) <= 2:
        return None
    if len(args) == 2 and not (isinstance(args[0].value, cst.Integer) and args[0].value.evaluated_value >= 0):
        return None
    stop = args[-1].value
    sequence: Optional[cst.BaseExpression] = None
    if isinstance(stop, cst.Call) and isinstance(stop.func, cst.Name) and stop.func.value == "len" and len(stop.args) == 1:
        sequence = stop.args[0].value
    elif isinstance(stop, cst.Subscript) and isinstance(stop.value, cst.Attribute) and stop.value.attr.value == "shape" \
            and len(stop.slice) == 1 and isinstance(stop.slice[0].slice, cst.Index) and \
            isinstance(stop.slice[0].slice.value, cst.Integer) and stop.slice[0].slice.value.evaluated_value == 0:
        sequence = stop.value.value
    if not isinstance(sequence, cst.Name):
        return None
    return target.value, sequence.value


def _arithmetic_names(node: cst.BaseExpression) -> set[str]:
    """The names `node` computes with through arithmetic alone (`i`, `k - 1`, `-j`): not those inside an index, a
    call or an attribute (`t[k] > 0` compares an item of `t`, not `k`)."""
    if isinstance(node, cst.Name):
        return {node.value}
    if isinstance(node, cst.BinaryOperation):
        return _arithmetic_names(node.left) | _arithmetic_names(node.right)
    if isinstance(node, cst.UnaryOperation):
        return _arithmetic_names(node.expression)
    return set()


def _integer_item(node: cst.Subscript) -> bool:
    """`r[0]`, `r[-1]`: an item, one axis fewer than `r` (a slice or an index array may keep `r`'s shape)."""
    def integer(value: cst.BaseExpression) -> bool:
        if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
            value = value.expression
        return isinstance(value, cst.Integer)
    return all(isinstance(e.slice, cst.Index) and integer(e.slice.value) for e in node.slice)


def _nested(values: Sequence[cst.BaseExpression]) -> Optional[str]:
    """`return T, log` on one side and `return T` on another: whatever `T` holds, the tuple holding it has another
    structure (POT's `if log:` returns); a name alone may hold a tuple, but not one that contains itself. So has
    `result[0]` against `result` (pysindy's single-trajectory returns): an item of a list, or a row of an array."""
    wholes = [v for v in values if not isinstance(v, cst.Tuple)]
    for value in wholes:
        if isinstance(value, cst.Subscript) and _integer_item(value) and any(value.value.deep_equals(w) for w in wholes):
            shown = cst.Module([]).code_for_node(value).strip()
            return (f"one side gives `{shown}` and another the whole of what it indexes: the branches give values of "
                    "different structures or shapes")
    for value in values:
        if isinstance(value, cst.Tuple):
            for element in value.elements:
                if any(element.value.deep_equals(w) for w in wholes):
                    shown = cst.Module([]).code_for_node(element.value).strip()
                    return (f"one side gives `{shown}` alone and another a tuple holding it: the branches give values "
                            "of different structures")
    return None


def _shortening(node: cst.Subscript) -> bool:
    """`x[2:]`, `x[:-1]`, `x[1:-1, :]`: a slice that drops items whatever the length (a positive literal start or a
    negative literal stop), so it never has `x`'s shape."""
    def number(value: Optional[cst.BaseExpression]) -> Optional[int]:
        negative = isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus)
        inner = value.expression if negative else value  # type: ignore[union-attr]
        return (-1 if negative else 1) * int(inner.value) if isinstance(inner, cst.Integer) else None

    for element in node.slice:
        part = element.slice
        if isinstance(part, cst.Slice) and part.step is None:
            lower, upper = number(part.lower), number(part.upper)
            if lower is not None and lower > 0 or upper is not None and upper < 0:
                return True
    return False


SHAPE_METHODS = {"reshape", "ravel", "flatten", "squeeze", "transpose", "swapaxes", "T", "mT"}


def _shape_change(values: Sequence[cst.BaseExpression]) -> Optional[str]:
    """Why branch values visibly have different shapes (`x.T`, `x[:, None]` or `x[2:-1]` against `x`, `np.array([a, b])`
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
        if isinstance(v, cst.Subscript) and _shortening(v) and any(v.value.deep_equals(w) for w in values):
            # `leap_dates[2:-1]` against `leap_dates` itself: always shorter (skyfield's legacy leap-second table)
            return "slice " + cst.Module([]).code_for_node(v).split("[", 1)[-1]
        if isinstance(v, cst.Subscript) and isinstance(v.value, cst.Attribute) and v.value.attr.value in ("r_", "c_"):
            return cst.Module([]).code_for_node(v)  # `np.r_[[0.0], x]`: it joins its items
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


def _selected(value: cst.BaseExpression, names: set[str]) -> bool:
    """`x[idx]`, `x[0]`, `x[mask]` of one of `names`: an index other than whole slices (`x[:]`, `x[...]`) picks a part
    of another shape (an index array of another length, an integer that drops an axis)."""
    if not (isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and value.value.value in names):
        return False
    return not all(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Ellipsis)
                   or isinstance(e.slice, cst.Slice) and e.slice.lower is None and e.slice.upper is None and e.slice.step is None
                   for e in value.slice)


def reshaped_output(bodies: Sequence[Sequence[cst.BaseStatement]], name: str) -> Optional[str]:
    """Why the branches (`bodies`, one per path, `[]` for a missing `else`) may leave `name` with different shapes,
    or None: a branch rebinds it to a value whose shape is its own (`loop_values.reshaping`: `np.r_[[0.0], x]`,
    `np.append(x, v)`, `x.reshape(-1, 1)`, an axis reduction) or to a part of it (`x[1:]`, `x[:n]`, `x[idx]`), directly or
    through elementwise arithmetic, `.astype`/`.at[..].set(..)` and names the branch so rebinds (`z = np.insert(x,
    0, v)`, then `x = z * 2`), and the other branches do not make the same changes (mne's `if freq[0] != 0: freq =
    np.r_[[0.0], freq]`). The shape then depends on the condition, a value: `lax.cond` raises `TypeError` (branches
    of different shapes) and `jnp.where` would broadcast them."""
    def origin(value: cst.BaseExpression, changed: dict[str, str], target: str) -> Optional[str]:
        if reshaping(value) is not None or sliced(value, target) or isinstance(value, cst.Subscript) and any(
                sliced(value, n) for n in changed) or _selected(value, {target, *changed}):
            return cst.Module([]).code_for_node(value)
        if isinstance(value, cst.Name):
            return changed.get(value.value)
        if isinstance(value, cst.BinaryOperation) and not isinstance(value.operator, cst.MatrixMultiply):
            return origin(value.left, changed, target) or origin(value.right, changed, target)
        if isinstance(value, cst.UnaryOperation) and not isinstance(value.operator, cst.Not):
            return origin(value.expression, changed, target)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            method, receiver = value.func.attr.value, value.func.value
            if method in SAME_SHAPE_METHODS:
                return origin(receiver, changed, target)
            if isinstance(receiver, cst.Subscript) and isinstance(receiver.value, cst.Attribute) and receiver.value.attr.value == "at":
                return origin(receiver.value.value, changed, target)  # `x.at[k].set(v)` keeps `x`'s shape
        if isinstance(value, cst.Call) and walk.called_name(value) in ELEMENTWISE:
            return next((o for a in value.args if (o := origin(a.value, changed, target)) is not None), None)
        return None

    signatures: list[tuple[str, ...]] = []
    for body in bodies:
        changed: dict[str, str] = {}  # a name the branch rebound so -> the change
        made: list[str] = []
        for stmt in body:
            for node in walk.walk(stmt):
                if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
                    pairs = [(node.target.value, node.value)]
                elif isinstance(node, cst.Assign):
                    pairs = [(t.target.value, node.value) for t in node.targets if isinstance(t.target, cst.Name)]
                else:
                    continue
                for target, value in pairs:
                    found = origin(value, changed, target)
                    if isinstance(node, cst.AugAssign) and found is None:
                        found = changed.get(target)  # `x += 1.0` keeps what `x` was made
                    if found is None:
                        changed.pop(target, None)
                        continue
                    changed[target] = found
                    if target == name:
                        made.append(found)
        signatures.append(tuple(made))
    if len(set(signatures)) > 1:
        shown = next(s for s in signatures if s)[-1]
        return (f"a branch makes it `{shown}`, whose shape may differ from the one `{name}` has on another path (a "
                "shape that depends on the condition's value): `lax.cond` raises on branches of different shapes, and "
                "`jnp.where` would broadcast them; keep this `if` outside `jit`, or pad to one shape by hand")
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


def parameter_item(v: cst.BaseExpression, params: Sequence[str]) -> bool:
    """`x[i]`, `m[r - 1, c]`, `x[i][j]`: an item of a parameter (an element of an array argument)."""
    if not isinstance(v, cst.Subscript):
        return False
    while isinstance(v, cst.Subscript):
        v = v.value
    return isinstance(v, cst.Name) and v.value in params


def element_names(function: cst.FunctionDef, params: Sequence[str]) -> set[str]:
    """Local names bound to an element of a parameter, in `function`'s own body: `v = x[i]`, `for v in x`, `for i, v in
    enumerate(x)` (an element of an array argument has its dtype: an int for int data)."""
    found = set()
    for node in walk.nodes_of(function.body, cst.Assign):
        if parameter_item(node.value, params):  # type: ignore[attr-defined]
            found.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))  # type: ignore[attr-defined]
    for loop in walk.nodes_of(function.body, cst.For):
        target, it = loop.target, loop.iter  # type: ignore[attr-defined]
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "enumerate" and it.args \
                and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2:
            target, it = target.elements[1].value, it.args[0].value
        if isinstance(target, cst.Name) and (isinstance(it, cst.Name) and it.value in params or parameter_item(it, params)):
            found.add(target.value)
    return found


def float_constant(value: cst.BaseExpression) -> bool:
    """`0.0`, `-np.inf`, `float("-inf")`, `math.inf`: a float whatever the inputs."""
    if isinstance(value, cst.UnaryOperation):
        return float_constant(value.expression)
    if isinstance(value, cst.Float):
        return True
    if isinstance(value, cst.Attribute):
        return value.attr.value in ("inf", "nan", "NINF", "PINF")
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "float" \
        and len(value.args) == 1 and isinstance(value.args[0].value, (cst.SimpleString, cst.Integer, cst.Float))


def loop_float_element(function: cst.FunctionDef, node: cst.CSTNode, values: Sequence[cst.BaseExpression],
                       params: Sequence[str]) -> Optional[tuple[str, str]]:
    """(a float constant, an element of an array argument) among `values` (a branch output's values, with those
    reaching the `if` `node`), when `node` is in a loop's body: a running extreme (`vmax = float("-inf")`, then `if
    v > vmax: vmax = v` over the elements of `a`: dtaidistance's `argmax`), whose data is as often ints. `lax.cond`
    then gets a float and an int branch (`TypeError`); NumPy rebinds. Else None."""
    constant = next((v for v in values if float_constant(v)), None)
    if constant is None or not any(id(node) in {id(n) for n in walk.walk(loop.body)}
                                   for loop in (*walk.nodes_of(function.body, cst.For), *walk.nodes_of(function.body, cst.While))):
        return None
    elements = element_names(function, params)
    element = next((v for v in values if parameter_item(v, params) or isinstance(v, cst.Name) and v.value in elements), None)
    if element is None:
        return None
    code = cst.Module([]).code_for_node
    return code(constant).strip(), code(element).strip()


def python_int(v: cst.BaseExpression) -> bool:
    """`len(x)`, `x.shape[0]`, `x.size`, `x.ndim`: a Python int whatever `x` is (pymcmcstat's `error = len(x)`, then
    `error = cur_error`, a float, in a branch: `lax.cond` gets an int and a float branch)."""
    if isinstance(v, cst.Call):
        return isinstance(v.func, cst.Name) and v.func.value == "len" and len(v.args) == 1 and not v.args[0].star
    if isinstance(v, cst.Attribute):
        return v.attr.value in ("size", "ndim")
    return isinstance(v, cst.Subscript) and isinstance(v.value, cst.Attribute) and v.value.attr.value == "shape" \
        and len(v.slice) == 1 and isinstance(v.slice[0].slice, cst.Index)


def as_float(literal: str) -> str:
    """How to write the int `literal` (`int_mix`'s answer) as a float: `0.0`, `float(len(x))`."""
    return f"{literal}.0" if literal.lstrip("-").isdigit() else f"float({literal})"


def _maybe_float(v: cst.BaseExpression, params: Sequence[str]) -> bool:
    """Whether `v` is likely a float: a float literal, a division, a float-valued call (`np.sqrt`, `float(...)`),
    arithmetic on one of those, or a parameter or an item of one (an array argument). A local name's dtype is not
    known."""
    if isinstance(v, cst.Float) or isinstance(v, cst.Attribute) and v.attr.value in FLOAT_ATTRIBUTES:
        return True  # 1.5, np.inf, xp.nan, math.pi, np.finfo(t).eps
    if isinstance(v, cst.Name):
        return v.value in params
    if isinstance(v, cst.Subscript):
        return parameter_item(v, params)  # `ders[idx]`: an element of an array argument, of its dtype
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
            function: Optional[cst.FunctionDef] = None, facts: Optional[FunctionFacts] = None,
            unknown: bool = False) -> Optional[str]:
    """The code of an int literal among `values` when another value is likely a float: `_maybe_float`, or with
    `facts` a value whose bindings make it at least a float, and with `unknown` too any value not provably an int or
    bool (a conditional expression: colour's `0 if np.isnan(a_p) else a_p`, cma's `0 if z == 0 else m + z`).
    `lax.cond` needs the branches to give one dtype, and a Python int is int32 (`TypeError` at trace time). A
    parameter of `function` whose default is an int (`tol=0`, kept by the branch not taken) counts as that int.
    Tuple displays are compared item by item (`return -1, -1` against `return H0, 2 * H0`: lenstronomy's time-delay
    check), and an item of one against a value that is not a display (which may be a tuple of floats)."""
    tuples = [v for v in values if isinstance(v, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in v.elements)]
    if tuples and len(values) > 1:
        others = [v for v in values if not any(v is t for t in tuples)]
        if not others and len({len(t.elements) for t in tuples}) == 1:
            columns = [[e.value for e in items] for items in zip(*(t.elements for t in tuples))]
        else:
            columns = [[e.value, *others] for t in tuples for e in t.elements] if others else []
        for column in columns:
            found = int_mix(column, params, function, facts, unknown)
            if found is not None:
                return found
        values = others
    defaults = {}
    if function is not None:
        every = (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)
        defaults = {p.name.value: p.default for p in every if p.default is not None}

    def literal(v: cst.BaseExpression) -> bool:
        if isinstance(v, cst.Name) and v.value in defaults:
            v = defaults[v.value]
        if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
            v = v.expression
        return isinstance(v, cst.Integer) or python_int(v)

    ints = [defaults.get(v.value, v) if isinstance(v, cst.Name) else v for v in values if literal(v)]
    if function is not None and ints:  # `der = ders[idx]`, `for v in x`: an element of an array argument, taken
        params = (*params, *element_names(function, params))  # for a float as the argument is
    def floating(v: cst.BaseExpression) -> bool:
        if _maybe_float(v, params):
            return True
        if facts is None or literal(v):
            return False
        dtype = dtype_of(facts, v)
        return dtype.kind >= FLOAT or unknown and dtype.top >= FLOAT

    if ints and any(map(floating, values)):
        return cst.Module([]).code_for_node(ints[0]).strip()
    # `max(0, prev - current)` against `np.inf`: Python's max may return the int 0 itself, and its JAX form
    # (`jnp.fmax(prev - current, 0)`, `jnp.where(d > 0, d, 0)`) stays an integer for integer inputs, where the other
    # value is a float whatever its inputs; either spelling gives the same verdict (JX203 rewrites one into the other)
    chosen = {id(v): _chosen_int(v, literal) for v in values}
    found = next((c for c in chosen.values() if c is not None), None)
    if found is not None and any(chosen[id(v)] is None and _maybe_float(v, ()) for v in values):
        return cst.Module([]).code_for_node(found).strip()
    return None


def bool_mix(values: Sequence[cst.BaseExpression], facts: FunctionFacts) -> Optional[tuple[str, str]]:
    """(a `True`/`False` literal, a value that is a number, not a bool) among `values`, else None: `return False`
    against `return i` (pymcmcstat's first match: `for i, val in enumerate(values): ... return i`, then `return
    False`). `lax.cond` rejects a bool branch against an int or float one (`TypeError`), and `jnp.where` promotes the
    bool to a number (`0` where Python returned `False`). Only values whose dtype is known to be at least an int
    count (a literal number, a loop counter, `len(x)`, arithmetic on those, a name only ever bound to such values)."""
    flag = next((v for v in values if isinstance(v, cst.Name) and v.value in ("True", "False")), None)
    if flag is None:
        return None
    code = cst.Module([]).code_for_node
    for v in values:
        if v is flag or isinstance(v, cst.Name) and v.value in ("True", "False"):
            continue
        if dtype_of(facts, v).kind > BOOL:
            return code(flag).strip(), code(v).strip()
    return None


_SELECTING = {"max", "min", "fmax", "fmin", "maximum", "minimum"}


def _chosen_int(v: cst.BaseExpression, literal) -> Optional[cst.BaseExpression]:
    """The int literal that a selection among values may give: `max(0, d)`, `np.maximum(d, 0)`, `jnp.fmax(d, 0)`,
    `jnp.where(d > 0, d, 0)` (a function of a module or a builtin, not a method: `v.max(0)` reduces along an axis)."""
    if not isinstance(v, cst.Call) or not (isinstance(v.func, cst.Name) or isinstance(v.func, cst.Attribute)
                                           and isinstance(v.func.value, cst.Name)):
        return None
    name = walk.called_name(v)
    positional = [a.value for a in v.args if a.keyword is None and a.star == ""]
    if name in _SELECTING and len(positional) >= 2:
        candidates = positional
    elif name == "where" and len(positional) == 3:
        candidates = positional[1:]
    else:
        return None
    for c in candidates:
        if literal(c):
            return c
        inner = _chosen_int(c, literal)
        if inner is not None:
            return inner
    return None


def float_split(values: Sequence[cst.BaseExpression], facts: FunctionFacts) -> Optional[tuple[str, str]]:
    """(a value its own arithmetic makes a float, another value that may stay an integer) among `values`, else None.
    `0.5 * (x2 - x1) * y1` against `(x2 - x1) * y1` (skfuzzy's trapezoid areas): a float literal, a true division
    (`/`) or a float-valued function (`np.sqrt`) makes operands of unknown dtype floats (`value_dtypes`: a lower
    bound of float, not exact), and with integer inputs the other value stays an integer. `lax.cond`/`lax.switch`
    then get an int64 and a float64 branch and raise `TypeError` at trace time, where NumPy gives an int on one path
    and a float on the other; with float inputs both are floats of one width. A float constant (`0.0`) against an
    input is not counted: the rules take such inputs for floats (see `int_mix`). Tuple displays of one length are
    compared item by item."""
    tuples = [v for v in values if isinstance(v, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in v.elements)]
    if tuples and len(tuples) == len(values) and len({len(t.elements) for t in tuples}) == 1:
        for column in zip(*(t.elements for t in tuples)):
            found = float_split([e.value for e in column], facts)
            if found is not None:
                return found
        return None
    values = [v for v in values if not any(v is t for t in tuples)]
    env = _float_names(facts, {n for v in values for n in walk.name_values(v)})
    kinds = [dtype_of(facts, v, env) for v in values]
    made = next((v for v, k in zip(values, kinds) if k.kind >= FLOAT and not k.exact), None)
    kept = next((v for v, k in zip(values, kinds) if k.kind < FLOAT and not _is_none(v)), None)
    if made is None or kept is None:
        return None
    code = cst.Module([]).code_for_node
    return code(made).strip(), code(kept).strip()


def _float_names(facts: FunctionFacts, names: set[str]) -> dict[str, DType]:
    """The local names among `names` that every binding makes at least a float, each as a float of unknown width:
    `total = x.mean()`, then `total = total - w` (smooth steps). `dtype_of` gives a name rebound from itself an
    unknown dtype (its `like` changes), but such a rebinding keeps the float kind unless it converts (`astype`)."""
    found = {}
    for name in names - set(facts.params):
        values = facts.bindings.get(name, [])
        if not values or sum(v is None for v in values) > len(facts.augmented.get(name, [])):
            continue  # unbound here, or bound by a loop, an unpacking, a `with` (an augmented one keeps the kind)
        assumed = DType(FLOAT, exact=False)
        if all(dtype_of(facts, v, {name: assumed}).kind >= FLOAT for v in values if v is not None):
            found[name] = assumed
    return found


def _is_none(v: cst.BaseExpression) -> bool:
    return isinstance(v, cst.Name) and v.value in ("None", "NotImplemented")


def made_traced_test(traced, stmts: Sequence[cst.CSTNode], operands: Sequence[str]) -> Optional[tuple[cst.BaseExpression, str]]:
    """(test, name) for a Python `if`/`while` test or conditional expression nested in `stmts` (the branches of an
    `if` about to become `lax.cond`) that is static now but reads `name`, one of `operands`, as a value. `lax.cond`
    passes its operands to the branch functions as tracers, so the rewrite would leave a Python branch on a traced
    value (`TracerBoolConversionError`, even eagerly): pymoo's `Dominator.get_relation`, whose `if val == -1:` and
    the `if not done:` JX223 adds test carries the outer `lax.switch` passes. A test traced already waits for its
    own rewrite (`exits`' nested_traced_if); a test that reads the name statically (`x.shape[0] > 1`, `x is None`)
    is fine. Else None."""
    table = traced.variables()
    wanted = set(operands)
    for stmt in stmts:
        nested = [*walk.nodes_of(stmt, cst.If), *walk.nodes_of(stmt, cst.While), *walk.nodes_of(stmt, cst.IfExp)]
        for test in (n.test for n in nested):  # type: ignore[attr-defined]
            names = sorted(n for n in walk.name_values(test) & wanted if table.get(n) is Tracedness.STATIC)
            if not names or traced.of_test(test) is not Tracedness.STATIC:
                continue
            saved = {n: table[n] for n in names}
            try:
                table.update({n: Tracedness.TRACED for n in names})  # as in the branch function: a tracer
                level = traced.of_test(test)
            finally:
                table.update(saved)
            if level is not Tracedness.STATIC:
                return test, names[0]
    return None


def none_bound(flow, node: cst.CSTNode, name: str) -> Optional[cst.CSTNode]:
    """A definition reaching `node` that binds `name` to `None` (`prev = None`, `a, prev = x, None`), else None."""
    for d in flow.reaching(node, name):
        if not isinstance(d.node, cst.Assign):
            continue
        for t in d.node.targets:
            target, value = t.target, d.node.value
            if isinstance(target, cst.Name) and target.value == name and _is_none(value):
                return d.node
            if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) and \
                    len(target.elements) == len(value.elements):
                if any(isinstance(te.value, cst.Name) and te.value.value == name and _is_none(ve.value)
                       for te, ve in zip(target.elements, value.elements)):
                    return d.node
    return None


def none_read(flow, node: cst.CSTNode, stmts: Sequence[cst.CSTNode]) -> Optional[str]:
    """The first name that `stmts` (the branches of the `if` `node`) read other than in an identity test (`prev is
    None`) while a definition reaching `node` binds it to `None` (pyriemann's `prev_loss = None` before the loop,
    read as `prev_loss - loss` in the branch taken from the second iteration on), else None. Python runs only the
    branch taken; `jnp.where` and `lax.cond` evaluate (trace) every branch, and arithmetic on `None` raises. Reads
    under a Python test of the name's identity (`1.0 if prev is None else prev - loss`) are static choices: skipped."""
    def identity(test: cst.BaseExpression) -> bool:
        return isinstance(test, cst.Comparison) and all(isinstance(t.operator, (cst.Is, cst.IsNot)) for t in test.comparisons)

    skip: set[int] = set()
    for stmt in stmts:
        for comparison in walk.nodes_of(stmt, cst.Comparison):
            if identity(comparison):  # type: ignore[arg-type]
                skip.update(id(n) for n in walk.walk(comparison))
        for guarded in [*walk.nodes_of(stmt, cst.If), *walk.nodes_of(stmt, cst.IfExp)]:
            if identity(guarded.test):  # type: ignore[attr-defined]
                tested = walk.name_values(guarded.test)  # type: ignore[attr-defined]
                skip.update(id(n) for n in walk.walk(guarded) if isinstance(n, cst.Name) and n.value in tested)
    reads = sorted({n.value for n in flow.activity(list(stmts)).reads if id(n) not in skip})
    return next((name for name in reads if none_bound(flow, node, name) is not None), None)


def param_mix(values: Sequence[cst.BaseExpression], params: Sequence[str], function: cst.FunctionDef,
              facts: Optional[FunctionFacts] = None, ints: Container[str] = frozenset()) -> Optional[tuple[str, str]]:
    """`int_mix` for a parameter that may be a Python int: (the parameter, the other value) when a branch gives a
    parameter as it is and another a value that may be a float not made from it only (another parameter, float
    arithmetic). A parameter may be a Python number (fluids' scalar solvers: `damp(100, -200)`; a swap `T1, T2 = T2,
    T1` with one int), or an int array: `lax.cond` then gets an int64 and a float64 branch (`TypeError`), where
    Python keeps each value's type. Parameters with a float default or a float dtype in `facts` are floats, unless
    they are among `ints`, those a call in the module passes an int literal (obspy's `lim(x, y, 2)` for `def lim(a, b,
    ylim=0.)`: `_list_inputs.int_fed_parameters`); tuple displays are compared item by item."""
    tuples = [v for v in values if isinstance(v, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in v.elements)]
    if tuples and len(tuples) == len(values) and len({len(t.elements) for t in tuples}) == 1:
        for column in zip(*(t.elements for t in tuples)):
            found = param_mix([e.value for e in column], params, function, facts, ints)
            if found is not None:
                return found
        return None
    every = {p.name.value: p for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}

    def maybe_int(v: cst.BaseExpression) -> bool:
        if not isinstance(v, cst.Name) or v.value not in params or v.value in ("self", "cls") or v.value not in every:
            return False
        default = every[v.value].default
        if v.value in ints:  # `lim(x, y, 2)`, whatever the default
            return v.value not in used_as_arrays
        if default is not None and not isinstance(default, cst.Integer):
            return False  # `factor=0.5`, `tol=None`: not an int (an int default is `int_mix`'s)
        return (facts is None or dtype_of(facts, v).kind < FLOAT) and v.value not in used_as_arrays

    used_as_arrays = _used_as_arrays(function, facts)
    for candidate in [v for v in values if maybe_int(v)]:
        name = candidate.value  # type: ignore[attr-defined]
        others = [p for p in params if p != name]
        for v in values:
            if isinstance(v, cst.Name) and v.value == name:
                continue
            if _maybe_float(v, others) or facts is not None and dtype_of(facts, v).kind >= FLOAT:
                return name, cst.Module([]).code_for_node(v).strip()
    return None


def list_item(values: Sequence[cst.BaseExpression], branches: Sequence[cst.CSTNode],
              sequences: frozenset[str]) -> Optional[str]:
    """The code of an item of a parameter that may be a Python list (`sequences`: documented as a list or
    sequence, or passed one by a call in the module) that a branch value is, or reads through a name the branches bind
    to it (`current = points[i]`, then `jnp.where(current <= previous, previous, current)`), when the branches give
    other values too; else None. A list's items may be ints and floats (`[1, 2.5, 3]`): one branch gives an int,
    another a float, and `lax.cond` rejects branches of different dtypes (fluids' `is_increasing`)."""
    if not sequences or len({cst.Module([]).code_for_node(v) for v in values}) < 2:
        return None
    bound: dict[str, list[cst.BaseExpression]] = {}
    for branch in branches:
        for assign in walk.nodes_of(branch, cst.Assign):
            for t in assign.targets:  # type: ignore[attr-defined]
                if isinstance(t.target, cst.Name):
                    bound.setdefault(t.target.value, []).append(assign.value)  # type: ignore[attr-defined]

    seen: set[str] = set()  # names followed once for the whole search: a name reached again finds nothing new

    def item(v: cst.BaseExpression) -> Optional[cst.Subscript]:
        """The item `v` may evaluate to (not one it only compares: `where`'s condition gives no value)."""
        if isinstance(v, cst.Subscript):
            index = all(isinstance(e.slice, cst.Index) for e in v.slice)
            return v if index and isinstance(v.value, cst.Name) and v.value.value in sequences else None
        if isinstance(v, cst.Name):
            if v.value not in bound or v.value in seen:
                return None
            seen.add(v.value)
            parts = bound[v.value]
        elif isinstance(v, cst.Call):
            short = v.func.attr.value if isinstance(v.func, cst.Attribute) else getattr(v.func, "value", "")
            parts = [a.value for a in (v.args[1:] if short == "where" else v.args)]
        else:
            parts = _value_operands(v)
        if parts is None:
            return None
        return next((found for found in map(item, parts) if found is not None), None)

    for v in values:
        found = item(v)
        if found is not None:
            return cst.Module([]).code_for_node(found).strip()
    return None


def _used_as_arrays(function: cst.FunctionDef, facts: Optional[FunctionFacts]) -> set[str]:
    """Names the function reads as arrays: with an attribute or method (`x.sum()`, `x.shape`), indexed, or passed to
    a NumPy / `jax.numpy` function, as they are or through arithmetic (`np.abs(update - prev)`). Such a parameter is
    taken for an array of the dtype the code expects (the rules' standing assumption); the others may be Python
    numbers."""
    found: set[str] = set()
    for node in walk.nodes(function.body):
        if isinstance(node, (cst.Attribute, cst.Subscript)) and isinstance(node.value, cst.Name):
            found.add(node.value.value)
        elif isinstance(node, cst.Call) and facts is not None and facts.array_function(node.func) is not None:
            for arg in node.args:
                found.update(_operand_names(arg.value))
    return found


def _operand_names(value: cst.BaseExpression) -> Iterator[str]:
    """The names `value` is, or computes from by arithmetic (`update - prev`: `update`, `prev`)."""
    if isinstance(value, cst.Name):
        yield value.value
    elif isinstance(value, cst.BinaryOperation):
        yield from _operand_names(value.left)
        yield from _operand_names(value.right)
    elif isinstance(value, cst.UnaryOperation):
        yield from _operand_names(value.expression)


def python_ints(function: cst.FunctionDef, parts: Sequence[cst.CSTNode]) -> Optional[str]:
    """Why the values in `parts` are likely Python ints, or None: they read a parameter whose default is an int
    (`k=1`), or floor-divide (`(hi + lo) // 2`). Python ints have no bound; `jnp.where`/`lax.cond` make them int32,
    where products past 2**31 wrap around silently."""
    every = (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)
    ints = {p.name.value: "defaults to an int" for p in every if isinstance(p.default, cst.Integer)}
    ints.update(dict.fromkeys(_int_conversions(function), "is made a Python int (`int(...)`)"))
    for part in parts:
        for node in walk.nodes(part):
            if isinstance(node, cst.Name) and node.value in ints:
                return f"`{node.value}` {ints[node.value]}"
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.FloorDivide):
                return f"`{cst.Module([]).code_for_node(node).strip()}` floor-divides"
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "int":
                return f"`{cst.Module([]).code_for_node(node).strip()}` is a Python int"
    return None


def _int_conversions(function: cst.FunctionDef) -> set[str]:
    """Names the function binds to `int(...)` (`n = int(n)`, `tn, fp = int(tn), int(fp)`): Python ints on purpose
    (scikit-learn converts counts with `int()` so that products do not overflow)."""
    def is_int(value: cst.BaseExpression) -> bool:
        return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "int"

    names = set()
    for assign in walk.nodes_of(function.body, cst.Assign):
        for target in assign.targets:
            pairs = [(target.target, assign.value)]
            if isinstance(target.target, (cst.Tuple, cst.List)) and isinstance(assign.value, (cst.Tuple, cst.List)) \
                    and len(target.target.elements) == len(assign.value.elements):
                pairs = [(t.value, v.value) for t, v in zip(target.target.elements, assign.value.elements)]
            names.update(t.value for t, v in pairs if isinstance(t, cst.Name) and is_int(v))
    return names


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
        elif isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, (cst.Tuple, cst.List)) \
                and isinstance(small.value, (cst.Tuple, cst.List)) and len(small.value.elements) == len(small.targets[0].target.elements) \
                and not any(isinstance(e, cst.StarredElement) for e in (*small.value.elements, *small.targets[0].target.elements)):
            # `imax, vmax = 0, float("-inf")`: item by item
            found.extend(v.value for t, v in zip(small.targets[0].target.elements, small.value.elements)
                         if isinstance(t.value, cst.Name) and t.value.value == name)
        elif isinstance(small, cst.Param) and small.default is not None:
            found.append(small.default)  # `def f(x, alpha=None)`: the caller may leave it None
    return found


def with_locals(flow, node: cst.CSTNode, values: Sequence[cst.BaseExpression]) -> list[cst.BaseExpression]:
    """`values` and, for each that is a local variable (not a parameter), the values reaching `node` for it: `mu`
    of `mu = 0` counts as the int `0` (sk_dsp_comm's symbol synchroniser, `mu_next = mu` against `mu_next = cnt /
    w`), and so does one a loop rebinds to floats, which is still `0` on the first pass."""
    found = list(values)
    for value in values:
        if isinstance(value, cst.Name) and value.value not in flow.params:
            found.extend(incoming(flow, node, value.value))
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


PYTHON_OBJECTS = {"slice", "range", "set", "frozenset", "iter", "open", "type", "object", "enumerate", "zip", "map",
                  "filter", "reversed", "str", "repr", "bytes"}


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
    if isinstance(node, (cst.Lambda, cst.Set, cst.SetComp, cst.GeneratorExp)) or isinstance(node, cst.Call) and \
            isinstance(node.func, cst.Name) and node.func.value in PYTHON_OBJECTS:
        return "object"  # `slice(None)` (an index for every item, dynesty), `range(n)`: no `lax.cond` branch gives one
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


def attribute_indexed(traced, stmts: Sequence[cst.CSTNode]) -> Optional[str]:
    """The code of the first subscript in `stmts` of an object's attribute (`self._dynamic[step][i]`) by a traced
    index, or None: the attribute may be a Python list, which rejects the tracer that `lax.cond` makes of the index
    (pyclustering's hysteresis); a JAX array takes it. `traced` is the function's tracedness."""
    for stmt in stmts:
        for node in walk.nodes_of(stmt, cst.Subscript):
            root = node.value
            while isinstance(root, cst.Subscript):
                root = root.value
            if not (isinstance(root, cst.Attribute) and isinstance(root.value, cst.Name) and root.value.value in ("self", "cls")):
                continue
            if root.attr.value in ("T", "mT", "real", "imag", "at", "shape"):
                continue
            if any(isinstance(e.slice, cst.Index) and traced.of(e.slice.value) is not Tracedness.STATIC for e in node.slice):
                return cst.Module([]).code_for_node(node)
    return None


def untraceable_branch(traced, stmts: Sequence[cst.CSTNode]) -> Optional[str]:
    """Why code that `lax.cond` would trace (`stmts`, every branch) cannot be traced, or None: it converts a traced
    value to Python (`loss.item()`), or indexes a Python list with one. `traced` is the function's tracedness."""
    converted = traced_host_conversion(traced, stmts)
    if converted is not None:
        return (f"a branch converts a traced value to Python (`{converted}`); `lax.cond` traces every branch, "
                "whichever is taken, and the conversion raises there")
    listed = traced_sequence_index(traced, stmts)
    if listed is not None:
        return (f"a branch indexes a Python list with a traced value (`{listed}`); `lax.cond` traces every branch, "
                "and a list rejects a traced index (make it an array first: `jnp.asarray`)")
    sliced = traced_slice_bound(traced, stmts)
    if sliced is not None:
        return (f"a branch slices with a traced bound (`{sliced}`); `lax.cond` traces every branch, whichever is "
                "taken, and a slice bound must be a Python int (keep the `if` in Python, outside `jit`)")
    return None
