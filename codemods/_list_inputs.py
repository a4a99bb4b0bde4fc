"""Which values JX304 (non-array-input) takes for a Python list or tuple, where NumPy would read one as an array.

- `SEQUENCE_RESULTS`: NumPy functions that return a tuple or list of arrays (`np.nonzero(m)`, `np.split(x, 3)`);
- `sequence(value, facts, tuples)`: a list or tuple display, a comprehension, `list(...)`/`tuple(...)`, such a call,
  a slice or join of a list, a parameter with a tuple default, or a name only ever bound (or unpacked) to one;
- `sequence_here(rule, value, at, facts)`: a local name whose definitions reaching `at` all bind one
  (`reaching_values(rule, name, at)`: what they bind; `branches(value)`: what a conditional expression may give);
- `list_call(value)`: `list(...)`, `sorted(...)`;
- `unbound_before(rule, name, call)`: a parameter that still holds what the caller passed (which its docstring may
  say is a list) where `call` reads it;
- `booleans`, `slices`, `texts`: a list index that is no integer array (a mask, old NumPy's multidimensional index,
  column names);
- `counters(index, facts)`: a comprehension of loop counters, which may be empty (indexed with `dtype=int`);
- `mapping_entry(value)`: an entry read with a string key (`E["sizes"]`), which may hold a list;
- `grown_list(function, value)`: a local list grown by `+=` of lists (`lvl = []; lvl += [j] * k`);
- `rows_of_lists(function, name)`: a local list whose rows are Python lists or tuples (`rows.append([a, b])`);
- `list_row(function, value, facts)`: an item of a local list of Python lists (`poles = [[] for j in ...]`, then
  `poles[j]`);
- `tuple_rows(value)`: a comprehension of tuples, maybe in `list(...)` (`list({tuple(row) for row in a})`);
- `tuple_item(function, name)`: a loop target over `itertools` or `zip` tuples (`for c in itertools.product(...)`);
- `tuple_element(function, value)`: an item taken by index of a comprehension of tuples (`keys[0]` of `keys =
  sorted({tuple(o) for o in order})`), or a local bound only to one;
- `sequence_attributes(module)`: attributes every assignment of the module binds to a list or tuple (`self.dims =
  tuple(dims)`);
- `list_fed_parameters(module)`: parameters of the module's functions that a call in the module passes a list or
  tuple (`broadcasting_matvec([1, -12 / 11, 1 / 11], rgb)`), by position, keyword, starred display or `**` dict
  display, or passes on a parameter of its own so fed (`update([3.0])` calls `reshape_z(z, 1)`);
- `object_fed_parameters(module)`: the same for values JAX arrays cannot hold: NumPy arrays of objects or text
  (`np.array([None] * n)`), `Decimal`s and `Fraction`s, masked arrays (`np.ma.masked_invalid(x)`), functions;
- `sequence_functions(module)`: the module's functions that always return a list or tuple (`sequence_properties`:
  those that are properties);
- `sequence_item_functions(module)`: those that always return a tuple display some of whose items are lists or
  tuples (`return values, lengths`), which a caller unpacks.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Callable, Container, Mapping, Optional, Sequence

import libcst as cst

from codemods._array_inputs import STACKING
from codemods._buffers import ARRAY_ATTRIBUTES
from jaxfix import walk
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.foreign_dtypes import DTYPE_POSITION, STRING_LITERALS, foreign_code, is_text, object_data
from jaxfix.analysis.host_data import none_past_guard
from jaxfix.analysis.masks import FunctionFacts
from jaxfix.analysis.parents import enclosing_statement
from jaxfix.imports import dotted_name

if TYPE_CHECKING:
    from jaxfix.rule import Rule

# NumPy functions that return a tuple or list of arrays
SEQUENCE_RESULTS = {"nonzero", "unravel_index", "split", "array_split", "hsplit", "vsplit", "dsplit", "meshgrid",
                    "broadcast_arrays"}


# array methods with arguments that are arrays (their parameters by position, None for one that is no array): a JAX
# array's reject lists and tuples there, where NumPy's convert them (`a.dot([1, 2])`, `x.take([0], axis=-1)`:
# antropy's katz_fd, `x.searchsorted([0.5])`)
ARRAY_METHOD_PARAMS: dict[str, tuple[Optional[str], ...]] = {
    "dot": ("b",), "take": ("indices",), "repeat": ("repeats",), "searchsorted": ("v", None, "sorter"),
    "compress": ("condition",), "clip": ("min", "max"),
}
ARRAY_ARGUMENT_METHODS = frozenset(ARRAY_METHOD_PARAMS)


def method_array_argument(method: str, position: int, arg: cst.Arg) -> Optional[str]:
    """The parameter of the array method `method` that `arg` (at `position` among the arguments) is passed to, when
    it takes an array (`ARRAY_METHOD_PARAMS`); else None."""
    params = ARRAY_METHOD_PARAMS.get(method, ())
    if arg.keyword is not None:
        name = arg.keyword.value
        return name if name in params else None
    return params[position] if position < len(params) else None


def sequence(value: cst.BaseExpression, facts: FunctionFacts, tuples: bool = True,
             memo: Optional[dict[str, bool]] = None) -> bool:
    """A list or tuple display or list comprehension, or a name only ever bound to one (never rebound to
    something else, so it is still a list where it is passed). A tuple only with `tuples` (as an index, a tuple
    is several indices, not an array). `memo` holds each local name's answer once (a chain `a2 = a1 + a1` is
    followed once per name, not per path)."""
    kinds = (cst.List, cst.Tuple, cst.ListComp) if tuples else (cst.List, cst.ListComp)
    if isinstance(value, kinds):
        return True
    if tuples and _sequence_call(value, facts):
        return True
    memo = {} if memo is None else memo
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Slice):
        return sequence(value.value, facts, tuples, memo)  # `idx[:k]` of a list is a list
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Multiply, cst.Add)):
        # `(dx,) * n`, `[0.0] * k`, `[1] + shapes[:-1]` (a list joined to another, or to an array elementwise), `h + v`
        # of names bound only to lists (ent's `np.unique(h + v, axis=0)`); not a product with a float, which repeats
        # no sequence (`arrays * 2.0` is an array's, or raises)
        if isinstance(value.operator, cst.Multiply) and any(
                isinstance(side.expression if isinstance(side, cst.UnaryOperation) else side, cst.Float)
                for side in (value.left, value.right)):
            return False
        return isinstance(value.left, kinds) or isinstance(value.right, kinds) \
            or sequence(value.left, facts, tuples, memo) or sequence(value.right, facts, tuples, memo)
    if isinstance(value, cst.Name) and value.value in facts.params:
        return tuples and isinstance(facts.defaults.get(value.value), kinds)  # `rng=(25, 75)`
    if isinstance(value, cst.Name) and value.value not in facts.params:
        if value.value in memo:
            return memo[value.value]
        memo[value.value] = False  # a cycle (`a = a + [1]`) proves nothing
        bindings = facts.bindings.get(value.value, [])
        unpacked = facts.unpacked.get(value.value, [])
        if sum(b is None for b in bindings) != len(unpacked):
            return False  # an opaque binding other than unpacking (a loop target, `+=`)
        memo[value.value] = bool(bindings) and all(
            isinstance(b, kinds) or list_call(b) or tuples and _sequence_call(b, facts)
            or isinstance(b, cst.BinaryOperation) and sequence(b, facts, tuples, memo)  # `sh = [1] + s[:-1]`
            for b in bindings if b is not None
        ) and all(_unpacked_sequence(source, position, count, facts, tuples) for source, position, count in unpacked)
        return memo[value.value]
    return False


def sequence_here(rule: Rule, value: cst.BaseExpression, at: cst.CSTNode, facts: FunctionFacts, some: bool = False,
                  tuples: bool = False) -> bool:
    """A local name whose definitions reaching `at` all bind a list, tuple, sequence call or join of lists (`coord =
    np.nonzero(m)` then `coord = np.transpose(coord)[i]`: the first binding is the one passed); with `some`, one
    of which binds a list display or comprehension (an array in one branch, `[metric(c, u) for ...]` in the other:
    pyclustering's k-means), or a `list(...)`/`sorted(...)` call or a `.map(...)` method's result (`fval =
    list(map(fn, g))` in one branch, `fval = pool.map(fn, g)` in the other: sporco's grid search); with `tuples`
    too, a tuple display or `tuple(...)` call (`if np.isscalar(var): var = (var,)`, then `np.sqrt(var)`:
    filterpy's stats, where the value is given as an array; an operand may be a shape, which `+` joins)."""
    if not isinstance(value, cst.Name):
        return False  # (a parameter counts once rebound: `tied = list(tied)`, astropy's fitters)
    values = reaching_values(rule, value.value, at)
    if some:  # (each branch of `x.tolist() if a else x`; `.tolist()` makes a list, a number of a 0-d array)
        values = [b for v in values or () for b in branches(v)]
        return any(isinstance(v, cst.List) and not any(is_text(e.value) for e in v.elements)
                   # `[[0, 0, 0, 255]] * len(v) if len(c) == 0 else c` (trimesh's point cloud colors)
                   or isinstance(v, cst.BinaryOperation) and sequence(v, facts, tuples) and not any(
                       isinstance(side, cst.List) and any(is_text(e.value) for e in side.elements) for side in (v.left, v.right))
                   or isinstance(v, cst.ListComp) and not is_text(v.elt) or list_call(v) or mapped(v)
                   or isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and v.func.attr.value == "tolist"
                   or tuples and (isinstance(v, cst.Tuple) and not any(is_text(e.value) for e in v.elements)
                                  or isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and v.func.value == "tuple")
                   for v in values or () if v is not None)
    # each value as `sequence` reads one: a display, a sequence call, or a join (`s = [0] + [...]`, then `s =
    # np.cumsum(s)`: GPy's get_slices, where the rebinding hides the join from `sequence`)
    return bool(values) and all(v is not None and sequence(v, facts) for v in values)  # type: ignore[union-attr]


def branches(value: Optional[cst.BaseExpression]) -> list[Optional[cst.BaseExpression]]:
    """The values a conditional expression may give, nested ones too (`a if p else b if q else c`); else the value."""
    if isinstance(value, cst.IfExp):
        return [*branches(value.body), *branches(value.orelse)]
    return [value]


def reaching_values(rule: Rule, name: str, at: cst.CSTNode) -> Optional[list[Optional[cst.BaseExpression]]]:
    """The values of the definitions of the local `name` that reach `at`'s statement, None for one that is no plain
    assignment to the name alone (a parameter, a loop target, unpacking); None when the flow does not hold `at`."""
    stmt = enclosing_statement(rule, at)
    if rule.current_function is None or stmt is None:
        return None
    try:
        found = function_flow(rule, rule.current_function).reaching(stmt, name)
    except KeyError:  # a statement the flow does not hold (in a nested function)
        return None
    return [d.node.value if isinstance(d.node, cst.Assign) and len(d.node.targets) == 1
            and isinstance(d.node.targets[0].target, cst.Name) else None for d in found]



def _unpacked_sequence(source: cst.BaseExpression, position: int, count: int, facts: FunctionFacts, tuples: bool) -> bool:
    """Whether the name at `position` of `count` targets unpacking `source` gets a list or tuple: the item of a
    display (`ords, vals = [], []`), or an item of `zip(...)` (a tuple: `ords, vals = zip(*pairs)`)."""
    if isinstance(source, (cst.Tuple, cst.List)) and len(source.elements) == count \
            and not any(isinstance(e, cst.StarredElement) for e in source.elements):
        return sequence(source.elements[position].value, facts, tuples)
    return tuples and isinstance(source, cst.Call) and isinstance(source.func, cst.Name) and source.func.value == "zip"


def list_call(value: cst.BaseExpression) -> bool:
    """`list(...)`, `sorted(...)`: a call that makes a Python list."""
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("list", "sorted")


def mapped(value: cst.BaseExpression) -> bool:
    """`pool.map(fn, xs)`: a `.map` method's result, a list (`multiprocessing.Pool.map`) or another container
    (an iterator, a pandas Series), none of which a `jax.numpy` function takes as an array."""
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "map"


def _sequence_call(value: Optional[cst.BaseExpression], facts: FunctionFacts) -> bool:
    """`tuple(...)`, `list(...)`, `range(...)`, or a NumPy call that returns a tuple or list of arrays
    (`np.nonzero(m)`, `np.split(x, 3)`, `np.where(m)`): NumPy functions convert it, `jax.numpy` ones reject it."""
    if not isinstance(value, cst.Call):
        return False
    if isinstance(value.func, cst.Name) and value.func.value in ("tuple", "list", "range"):
        return True
    name = facts.array_function(value.func)
    short = name.split(".")[-1] if name is not None else ""
    return short in SEQUENCE_RESULTS or short == "where" and len(value.args) == 1


def unbound_before(rule: Rule, name: str, call: cst.Call, some: bool = False) -> bool:
    """Whether parameter `name` still holds what the caller passed where `call` reads it: the only definition
    reaching `call`'s statement is the parameter (a rebinding by that statement itself, `rate, nper =
    np.broadcast_arrays(rate, nper)`, comes after; one later in a loop reaches the next turn). With `some`, whether
    it may on some path (`if double: x = np.array(x) * 2`, then `np.atleast_1d(x)`: galpy's grids)."""
    function, statement = rule.current_function, enclosing_statement(rule, call)
    if function is None or statement is None:
        return False
    reaching = function_flow(rule, function).reaching(statement, name)
    if any(isinstance(d.node, cst.Param) for d in reaching) and none_past_guard(rule, name, statement):
        return False  # `if w is not None: w = np.array(w)` before: the caller's value gets here only as None
    return bool(reaching) and (any if some else all)(isinstance(d.node, cst.Param) for d in reaching)


def slices(index: cst.BaseExpression, facts: FunctionFacts) -> bool:
    """A list of `slice(...)` objects (old NumPy's multidimensional index, an error in NumPy 2): no array of it."""
    values = facts.bindings.get(index.value, []) if isinstance(index, cst.Name) else [index]
    for value in values:
        items = [value.elt] if isinstance(value, cst.ListComp) else [e.value for e in value.elements] \
            if isinstance(value, cst.List) else []
        if any(isinstance(i, cst.Call) and isinstance(i.func, cst.Name) and i.func.value == "slice" for i in items):
            return True
    return False


def texts(index: cst.BaseExpression, facts: FunctionFacts) -> bool:
    values = facts.bindings.get(index.value, []) if isinstance(index, cst.Name) else [index]
    return any(isinstance(v, cst.List) and any(is_text(e.value) for e in v.elements) or
               isinstance(v, cst.ListComp) and is_text(v.elt) for v in values)


def booleans(index: cst.BaseExpression, facts: FunctionFacts) -> bool:
    values = facts.bindings.get(index.value, []) if isinstance(index, cst.Name) else [index]
    return any(walk.name_values(v) & {"True", "False"} for v in values if v is not None)


def counters(index: cst.BaseExpression, facts: FunctionFacts) -> bool:
    """A list comprehension of loop counters (`[i for i, v in enumerate(c) if v == x]`, `[k for k in range(n) if
    ...]`), or a name bound only to such: Python ints, and maybe none (`jnp.asarray([])` is a float array, which
    cannot index; NumPy takes an empty list as an integer index)."""
    values = facts.bindings.get(index.value, []) if isinstance(index, cst.Name) else [index]
    return bool(values) and all(isinstance(v, cst.ListComp) and _counter(v) for v in values)


def _counter(comp: cst.ListComp) -> bool:
    if not isinstance(comp.elt, cst.Name):
        return False
    name, clause = comp.elt.value, comp.for_in
    while clause is not None:
        it, target = clause.iter, clause.target
        if isinstance(it, cst.Call) and walk.called_name(it) == "enumerate" and isinstance(target, cst.Tuple) \
                and target.elements and isinstance(target.elements[0].value, cst.Name) and target.elements[0].value.value == name:
            return True
        if isinstance(it, cst.Call) and walk.called_name(it) == "range" and isinstance(target, cst.Name) and target.value == name:
            return True
        clause = clause.inner_for_in
    return False


def mapping_entry(value: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """`E["sizes"]`: the mapping of an entry read with a string key (a dict of settings or results, whose entries
    are often lists, which NumPy takes as arrays and `jax.numpy` rejects), else None. `jnp.asarray` of an array is
    the array itself, so converting such an entry is what NumPy's function does."""
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
            and isinstance(value.slice[0].slice.value, cst.SimpleString):
        return value.value
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "get" \
            and 1 <= len(value.args) <= 2 and isinstance(value.args[0].value, cst.SimpleString):
        return value.func.value  # `self.args.get('data', None)` (pyclustering's metrics)
    return None


def bound_mapping_entry(value: cst.BaseExpression, facts: FunctionFacts) -> Optional[cst.BaseExpression]:
    """`mapping_entry` of `value`, or of what a local name is only ever bound to (`data = self.args.get('data')`)."""
    entry = mapping_entry(value)
    if entry is not None or not isinstance(value, cst.Name) or value.value in facts.params:
        return entry
    bound = facts.bindings.get(value.value, [])
    entries = [mapping_entry(b) if b is not None else None for b in bound]
    return entries[0] if entries and all(e is not None for e in entries) else None


def assigned_values(function: cst.FunctionDef, name: str) -> list[cst.BaseExpression]:
    """The values of the plain assignments `name = ...` in `function` (nested functions included)."""
    return [a.value for a in walk.nodes_of(function.body, cst.Assign)  # type: ignore[attr-defined]
            if any(isinstance(t.target, cst.Name) and t.target.value == name for t in a.targets)]  # type: ignore[attr-defined]


def unpacked_values(function: cst.FunctionDef, name: str) -> Optional[list[cst.BaseExpression]]:
    """The items that assignments unpacking a display bind to `name` in `function` (`x, y = [], []` gives `[]`);
    None when an unpacking binds it to something else (`x, y = f()`, `x, *y = ...`)."""
    found: list[cst.BaseExpression] = []
    for assign in walk.nodes_of(function.body, cst.Assign):
        for target in assign.targets:  # type: ignore[attr-defined]
            names = target.target
            if not isinstance(names, (cst.Tuple, cst.List)) or not any(
                    isinstance(n, cst.Name) and n.value == name for n in walk.nodes_of(names, cst.Name)):
                continue
            value = assign.value  # type: ignore[attr-defined]
            if not isinstance(value, (cst.Tuple, cst.List)) or len(value.elements) != len(names.elements) or any(
                    isinstance(e, cst.StarredElement) for e in (*value.elements, *names.elements)):
                return None
            for t, v in zip(names.elements, value.elements):
                if isinstance(t.value, cst.Name) and t.value.value == name:
                    found.append(v.value)
                elif any(isinstance(n, cst.Name) and n.value == name for n in walk.nodes_of(t.value, cst.Name)):
                    return None  # nested unpacking (`(x, z), y = ...`): not followed
    return found


def grown_list(function: cst.FunctionDef, value: cst.BaseExpression) -> bool:
    """A local name bound only to list displays or comprehensions and grown only by `+=` of lists (`lvl = []`, then
    `lvl += [j] * k`)."""
    if not isinstance(value, cst.Name):
        return False
    bound = assigned_values(function, value.value)
    if not bound or not all(isinstance(v, (cst.List, cst.ListComp)) for v in bound):
        return False
    for node in walk.nodes_of(function.body, cst.AugAssign):
        if isinstance(node.target, cst.Name) and node.target.value == value.value:  # type: ignore[attr-defined]
            added = node.value  # type: ignore[attr-defined]
            if isinstance(added, cst.BinaryOperation) and isinstance(added.operator, cst.Multiply):
                added = added.left
            if not isinstance(node.operator, cst.AddAssign) or not isinstance(added, (cst.List, cst.ListComp)):  # type: ignore[attr-defined]
                return False
    return True


def may_be_empty(function: cst.FunctionDef, name: str) -> bool:
    """Whether the local `name` may be bound to an empty list or tuple (`idex = []`, `list()`), then grown."""
    return any(isinstance(v, (cst.List, cst.Tuple)) and not v.elements or isinstance(v, cst.Call) and not v.args
               and isinstance(v.func, cst.Name) and v.func.value in ("list", "tuple")
               for v in assigned_values(function, name))


def integer_items(function: cst.FunctionDef, name: str) -> bool:
    """Whether every item the local list `name` gets is an integer: its displays hold integer literals only, and
    it grows only by `name.append(i)` of an integer literal or of a loop counter: the target of a `for` loop over
    `range(...)` (`for i in range(len(x)): ... idex.append(i)`), or the count of `enumerate(...)` (`for i, g in
    enumerate(groups)`), unless the loop's body rebinds it."""
    counters = set()
    for loop in walk.nodes_of(function.body, cst.For):
        target, it = loop.target, loop.iter  # type: ignore[attr-defined]
        if isinstance(target, cst.Name) and isinstance(it, cst.Call) and walk.called_name(it) == "range" \
                and isinstance(it.func, cst.Name):
            counters.add(target.value)
        elif isinstance(target, cst.Tuple) and len(target.elements) == 2 and isinstance(target.elements[0].value, cst.Name) \
                and isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "enumerate":
            counters.add(target.elements[0].value.value)
    rebound = {n for a in walk.nodes_of(function.body, cst.Assign) for t in a.targets  # type: ignore[attr-defined]
               for n in walk.name_values(t.target)} | {a.target.value for a in walk.nodes_of(function.body, cst.AugAssign)  # type: ignore[attr-defined]
                                                      if isinstance(a.target, cst.Name)}  # type: ignore[attr-defined]
    counters -= rebound
    for value in assigned_values(function, name):
        if not isinstance(value, (cst.List, cst.Tuple)) or not all(
                isinstance(e, cst.Element) and isinstance(e.value, cst.Integer) for e in value.elements):
            if not (isinstance(value, cst.Call) and not value.args):
                return False
    for call in walk.nodes_of(function.body, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name:
            if func.attr.value != "append" or len(call.args) != 1:  # type: ignore[attr-defined]
                return False
            item = call.args[0].value  # type: ignore[attr-defined]
            if not (isinstance(item, cst.Integer) or isinstance(item, cst.Name) and item.value in counters):
                return False
    return True


def rows_of_lists(function: cst.FunctionDef, name: str) -> bool:
    """Whether `name` is a local list every item of which is a Python list or tuple: bound only to `[]` (or
    `list()`) and grown only by `name.append(...)` of list or tuple displays, `list(...)`/`tuple(...)` calls, or names
    bound only to those (`rows.append([a, b])`; `mapping = list(product(*sets))`, `mappings.append(mapping)`), or a
    display repeated (`x.append([i] * table[i, j])`: a list, or for an array count an array, which a row's
    `jnp.asarray` takes as well)."""
    def a_sequence(value: cst.BaseExpression) -> bool:
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply) \
                and isinstance(value.left, (cst.List, cst.Tuple)) != isinstance(value.right, (cst.List, cst.Tuple)):
            return True  # `[i] * k`
        return isinstance(value, (cst.List, cst.Tuple)) or isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
            and value.func.value in ("list", "tuple")

    bound = assigned_values(function, name)
    unpacked = unpacked_values(function, name)  # `x, y = [], []` (SciPy's `_untabulate`)
    if unpacked is None:
        return False
    bound += unpacked
    if not bound or not all(isinstance(v, cst.List) and not v.elements or isinstance(v, cst.Call) and not v.args
                            and isinstance(v.func, cst.Name) and v.func.value == "list" for v in bound):
        return False
    appended = []
    for call in walk.nodes_of(function.body, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name:
            if func.attr.value != "append" or len(call.args) != 1:  # type: ignore[attr-defined]
                return False  # `rows.extend(...)`, `rows.insert(...)`: not followed
            appended.append(call.args[0].value)  # type: ignore[attr-defined]
    return bool(appended) and all(
        a_sequence(v) or isinstance(v, cst.Name) and bool(assigned_values(function, v.value))
        and all(a_sequence(b) for b in assigned_values(function, v.value))
        for v in appended)


def list_row(function: cst.FunctionDef, value: cst.BaseExpression, facts: FunctionFacts) -> bool:
    """`poles[j]`, an item of a local list every item of which is a Python list: bound only to a comprehension of
    list displays (`poles = [[] for j in range(n)]`, python-control's `_common_den`), a display of list displays
    (`[[], []]`, `[[0.0]] * n`), or grown from `[]` by appended lists (`rows_of_lists`); an item replaced by
    anything but a list display (`poles[j] = np.array(...)`) rules it out. NumPy reads such an item as an array,
    `jax.numpy` rejects it."""
    if not (isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and len(value.slice) == 1
            and isinstance(value.slice[0].slice, cst.Index)):
        return False
    return rows_list(function, value.value.value, facts)


def rows_list(function: cst.FunctionDef, name: str, facts: FunctionFacts) -> bool:
    """Whether `name` is a local list every item of which is a Python list (see `list_row`)."""
    if name in facts.params:
        return False
    if rows_of_lists(function, name):
        return True

    def rows(v: Optional[cst.BaseExpression]) -> bool:
        if isinstance(v, cst.BinaryOperation) and isinstance(v.operator, cst.Multiply):
            v = v.left if isinstance(v.left, cst.List) else v.right  # `[[0.0]] * n`
        if isinstance(v, cst.ListComp):
            return isinstance(v.elt, (cst.List, cst.ListComp))
        return isinstance(v, cst.List) and bool(v.elements) and all(
            isinstance(e, cst.Element) and isinstance(e.value, (cst.List, cst.ListComp)) for e in v.elements)

    bound = facts.bindings.get(name, [])
    if not bound or not all(rows(v) for v in bound):
        return False  # (an opaque binding, None: a loop target, unpacking, `+=`)
    return _rows_kept(function, name, (cst.List, cst.ListComp))  # (else a row of another kind)


def _rows_kept(function: cst.FunctionDef, name: str, kinds: tuple[type, ...]) -> bool:
    """Whether every row `function` puts into its local list `name` (`name[k] = ...`, `name.append(...)`,
    `name.insert(...)`) is one of `kinds` (no `extend`)."""
    for node in walk.nodes_of(function.body, cst.Assign):
        for target in node.targets:  # type: ignore[attr-defined]
            t = target.target
            if isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and t.value.value == name \
                    and not isinstance(node.value, kinds):  # type: ignore[attr-defined]
                return False
    for call in walk.nodes_of(function.body, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name \
                and func.attr.value in ("append", "insert", "extend") and call.args:  # type: ignore[attr-defined]
            if func.attr.value == "extend" or not isinstance(call.args[-1].value, kinds):  # type: ignore[attr-defined]
                return False
    return True


def row_item(function: cst.FunctionDef, name: str, facts: FunctionFacts) -> bool:
    """Whether `name` is only ever the target of loops or comprehensions (also through `enumerate`) over a local
    list of Python lists (`rows_list`: `blocks = [[f(s, t) for t in ...] for s in ...]`, then `[np.max(b, axis=0)
    for b in blocks]`, scikit-rf's isotonic fit) or over such a comprehension itself: each item is a list, which
    NumPy reads as an array and `jax.numpy` rejects."""
    if name in facts.params or any(v is not None for v in facts.bindings.get(name, [])):
        return False  # (bound otherwise too: `b = np.asarray(b)`)
    found = False
    for node in walk.nodes(function.body):
        if not isinstance(node, (cst.For, cst.CompFor)):
            continue
        target, iterable = node.target, node.iter
        if isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 and isinstance(iterable, cst.Call) \
                and isinstance(iterable.func, cst.Name) and iterable.func.value == "enumerate" and len(iterable.args) == 1:
            target, iterable = target.elements[1].value, iterable.args[0].value
        if not any(isinstance(n, cst.Name) and n.value == name for n in walk.walk(target)):
            continue
        if not isinstance(target, cst.Name):
            return False  # unpacked from each item
        if isinstance(iterable, cst.Name) and rows_list(function, iterable.value, facts) or \
                isinstance(iterable, cst.ListComp) and isinstance(iterable.elt, (cst.List, cst.ListComp)) or \
                isinstance(iterable, cst.List) and bool(iterable.elements) and all(
                    isinstance(e, cst.Element) and isinstance(e.value, (cst.List, cst.ListComp)) for e in iterable.elements):
            found = True
        else:
            return False
    return found


def tuple_rows(value: cst.BaseExpression) -> bool:
    """A comprehension whose items are tuple displays or `tuple(...)` calls, or `list(...)`/`sorted(...)` of one
    (kmodes' unique rows: `np.vstack(list({tuple(row) for row in a}))`)."""
    if list_call(value) and len(value.args) == 1:  # type: ignore[attr-defined]
        value = value.args[0].value  # type: ignore[attr-defined]
    if not isinstance(value, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
        return False
    item = value.elt
    return isinstance(item, cst.Tuple) or isinstance(item, cst.Call) and isinstance(item.func, cst.Name) \
        and item.func.value == "tuple"


COMBINATORICS = frozenset({"product", "combinations", "permutations", "combinations_with_replacement"})


def tuple_item(function: cst.FunctionDef, name: str) -> bool:
    """Whether `name` is the target of a loop or comprehension over `itertools` or `zip` tuples: `for c in
    product(...)`, `for p in list(zip(a, b))` (neurokit2's `np.nanmin(p)` of each pair), or over a local bound only to
    `list(product(...))`, or over a comprehension of tuples (`tuple_rows`: `sorted({tuple(r) for r in ...})`) or a
    local bound only to one; also the item of their `enumerate` (`for i, ev in enumerate(product(...))`)."""
    def tuples(value: Optional[cst.BaseExpression]) -> bool:
        if value is not None and tuple_rows(value):  # `sorted({tuple(axes * i) for i in np.ndindex(...)})` (chaospy)
            return True
        if isinstance(value, cst.Call) and walk.called_name(value) == "list" and value.args:
            value = value.args[0].value
        return isinstance(value, cst.Call) and (walk.called_name(value) in COMBINATORICS or isinstance(value.func, cst.Name)
                                                and value.func.value == "zip")

    for node in walk.nodes(function.body):
        if not isinstance(node, (cst.For, cst.CompFor)):
            continue
        target, iterable = node.target, node.iter
        if isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 and isinstance(iterable, cst.Call) \
                and isinstance(iterable.func, cst.Name) and iterable.func.value == "enumerate" and iterable.args:
            # `for i, ev in enumerate(itertools.product(*evals))` (skfda's tensor basis)
            target, iterable = target.elements[1].value, iterable.args[0].value
        if isinstance(target, cst.Name) and target.value == name:
            if isinstance(iterable, cst.Name):
                bound = assigned_values(function, iterable.value)
                if bound and all(tuples(v) for v in bound):
                    return True
            elif tuples(iterable):
                return True
    return False


def tuple_element(function: cst.FunctionDef, value: cst.BaseExpression) -> bool:
    """Whether `value` is an item taken by index of a comprehension of tuples (`tuple_rows`), given inline or as a
    local bound only to one (`keys = sorted({tuple(o) for o in order})`, then `keys[0]`; `[tuple(o) for o in
    order][0]`), or a local bound only to such items (`idx = keys[0]`): a Python tuple, which NumPy reads as an array
    and `jax.numpy` rejects (the loop-target form is `tuple_item`)."""
    params = {p.name.value for p in walk.nodes_of(function.params, cst.Param)}  # type: ignore[attr-defined]

    def rows(base: cst.BaseExpression) -> bool:
        if isinstance(base, cst.Name):
            bound = assigned_values(function, base.value)
            return base.value not in params and bool(bound) and all(tuple_rows(v) for v in bound)
        return tuple_rows(base)

    def item(expr: cst.BaseExpression) -> bool:
        return isinstance(expr, cst.Subscript) and len(expr.slice) == 1 \
            and isinstance(expr.slice[0].slice, cst.Index) and rows(expr.value)

    if isinstance(value, cst.Name):
        bound = assigned_values(function, value.value)
        return value.value not in params and bool(bound) and all(item(v) for v in bound)
    return item(value)


def sequence_attributes(module: cst.Module) -> frozenset[str]:
    """The attribute names that every assignment in the module (to an attribute of `self` or of any other object)
    binds to a list or tuple display, comprehension or `list(...)`/`tuple(...)` call (`self.dims = tuple(dims)`:
    pylops' operators; skfda's `self.knots = tuple(knots)`, read as `basis.knots`), and that no class of the module
    defines as a method or property. Any other binding of the name (unpacking, a loop, `self.dims = dims`,
    `obj.dims = d`) rules it out."""
    kinds = (cst.List, cst.Tuple, cst.ListComp)
    found: set[str] = set()
    other: set[str] = set()
    for node in walk.nodes(module):
        if isinstance(node, cst.FunctionDef):
            other.add(node.name.value)
            continue
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for target in targets:
                if isinstance(target, cst.Attribute):
                    value = node.value
                    plain = isinstance(value, kinds) or isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
                        and value.func.value in ("list", "tuple")
                    (found if plain and not isinstance(node, cst.AugAssign) else other).add(target.attr.value)
                elif isinstance(target, (cst.Tuple, cst.List)):
                    other.update(e.value.attr.value for e in target.elements if isinstance(e.value, cst.Attribute))
        elif isinstance(node, (cst.For, cst.CompFor, cst.WithItem)):
            bound = node.target if not isinstance(node, cst.WithItem) else node.asname.name if node.asname else None
            if bound is not None:
                other.update(a.attr.value for a in walk.nodes_of(bound, cst.Attribute))  # type: ignore[attr-defined]
    return frozenset(found - other)


def given_attributes(module: cst.Module) -> frozenset[str]:
    """The attributes of `self` that some method of the module stores a parameter into as given (`self.n = n`, the
    parameter never rebound in the method: pymcmcstat's `self.N = N`): they may hold whatever a caller passed, a
    Python list too. Any other binding of the name elsewhere does not rule that out."""
    found: set[str] = set()
    for function in walk.nodes_of(module, cst.FunctionDef):
        params = {p.name.value for p in (*function.params.posonly_params, *function.params.params,  # type: ignore[attr-defined]
                                         *function.params.kwonly_params)} - {"self", "cls"}  # type: ignore[attr-defined]
        if not params:
            continue
        stored: list[tuple[str, str]] = []
        rebound: set[str] = set()
        for node in walk.nodes(function.body):  # type: ignore[attr-defined]
            if isinstance(node, cst.FunctionDef):
                continue  # (an inner function's own assignments are walked too: they only make `rebound` larger)
            if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                            and target.value.value == "self" and isinstance(node.value, cst.Name) \
                            and node.value.value in params and not isinstance(node, cst.AugAssign):
                        stored.append((target.attr.value, node.value.value))
                    rebound.update(n.value for n in walk.nodes_of(target, cst.Name)  # type: ignore[attr-defined]
                                   if not isinstance(target, (cst.Attribute, cst.Subscript)))
            elif isinstance(node, (cst.For, cst.CompFor, cst.NamedExpr)):
                rebound.update(n.value for n in walk.nodes_of(node.target, cst.Name))  # type: ignore[attr-defined]
        found.update(attr for attr, param in stored if param not in rebound)
    return frozenset(found)


def _plain_value(v: cst.BaseExpression) -> bool:
    """A list or tuple display or comprehension, or a `list(...)`/`tuple(...)` call, or one joined to or repeated
    by something (`self.fab + [fd, fe]`: scipy's `_notclose` given a list concatenation; `[0.0] * n`)."""
    while isinstance(v, cst.BinaryOperation) and isinstance(v.operator, (cst.Add, cst.Multiply)):
        if _plain_value(v.right):
            return True
        v = v.left
    return isinstance(v, (cst.List, cst.Tuple, cst.ListComp)) or isinstance(v, cst.Call) \
        and isinstance(v.func, cst.Name) and v.func.value in ("list", "tuple")


# readers of JSON, whose result is a list for a JSON array (`json.loads("[0.5, 1.5]")`)
_JSON_READERS = frozenset({"json.loads", "json.load"})


def sequence_value(value: cst.BaseExpression, caller: Optional[cst.FunctionDef],
                    plain: Callable[[cst.BaseExpression], bool] = _plain_value) -> bool:
    """A list or tuple display or comprehension, a `list(...)`/`tuple(...)` call (or another value `plain` takes
    for a list), or a local name of `caller` only ever bound to one (`xs = [a[0, 0], a[1, 0]]`)."""
    if plain(value):
        return True
    if isinstance(value, cst.Name) and caller is not None:
        bound = assigned_values(caller, value.value)
        return bool(bound) and all(plain(v) for v in bound)
    return False


def _displays_of_rows(function: cst.FunctionDef, name: str) -> Optional[str]:
    """The kind of rows ("tuple" or "list") of the local `name` when it is bound only to list or tuple displays of
    list or tuple displays (`frontier = [(1, -1), (0, 2)]`, librosa's `intervals`), grown only by `append` of such
    displays and with no item replaced by anything else; else None."""
    def rows(v: cst.BaseExpression) -> bool:
        return isinstance(v, (cst.List, cst.Tuple)) and bool(v.elements) and all(
            isinstance(e, cst.Element) and isinstance(e.value, (cst.List, cst.Tuple)) for e in v.elements)

    params = function.params
    if name in {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}:
        return None
    bound = assigned_values(function, name)
    if not bound or not all(rows(v) for v in bound):
        return None
    for node in walk.nodes_of(function.body, cst.AugAssign):
        if isinstance(node.target, cst.Name) and node.target.value == name:  # type: ignore[attr-defined]
            return None
    if not _rows_kept(function, name, (cst.List, cst.Tuple)):
        return None
    kinds = {type(e.value) for v in bound for e in v.elements}  # type: ignore[attr-defined]
    return "tuple" if kinds == {cst.Tuple} else "list"


def rows_kind(function: cst.FunctionDef, name: str) -> str:
    """"tuple" or "list": the kind of the rows of `name`, a local list of displays (`display_row`)."""
    return _displays_of_rows(function, name) or "list"


def display_row(function: Optional[cst.FunctionDef], value: cst.BaseExpression) -> Optional[str]:
    """The local list of displays (`_displays_of_rows`) `value` is a row of, or None: `frontier[0]`, a loop or
    comprehension target over it or a slice of it (`for point in frontier[1:]`), or a local name every binding of
    which is such a row (`best = frontier[0]`, later `best = point`). Each row is a Python list or tuple of the
    numbers written out: NumPy reads it as an array where a `jax.numpy` function rejects it, and `lax.cond` would
    make a tuple of Python ints a tuple of arrays (librosa's `_crystal_tie_break`)."""
    if function is None:
        return None
    return _display_row(function, value, set())


def _display_row(function: cst.FunctionDef, value: cst.BaseExpression, seen: set[str]) -> Optional[str]:
    def table(node: cst.BaseExpression, item: bool) -> Optional[str]:
        """`rows` (a whole table, or with `item` its item `rows[k]`), or a slice of it `rows[1:]`."""
        if isinstance(node, cst.Subscript) and len(node.slice) == 1:
            index = node.slice[0].slice
            if item == isinstance(index, cst.Index) and isinstance(node.value, cst.Name) \
                    and _displays_of_rows(function, node.value.value):
                return node.value.value
            return None
        return node.value if not item and isinstance(node, cst.Name) and _displays_of_rows(function, node.value) else None

    if isinstance(value, cst.Subscript):
        return table(value, True)
    if not isinstance(value, cst.Name) or value.value in ("None", "True", "False"):
        return None
    name = value.value
    if name in seen:
        return ""  # (a cycle: `best = point` where `point` is judged already)
    seen.add(name)
    params = function.params
    if name in {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}:
        return None
    found: list[str] = []
    for node in walk.nodes(function.body):
        if isinstance(node, (cst.For, cst.CompFor)):
            names = walk.name_values(node.target)
            if name not in names:
                continue
            source = table(node.iter, False) if isinstance(node.target, cst.Name) else None
            if source is None:
                return None
            found.append(source)
        elif isinstance(node, cst.Assign):
            for target in node.targets:
                if isinstance(target.target, cst.Name) and target.target.value == name:
                    source = _display_row(function, node.value, seen)
                    if source is None:
                        return None
                    found.append(source)
                elif name in walk.name_values(target.target) and not isinstance(target.target, (cst.Subscript, cst.Attribute)):
                    return None  # unpacked: `a, best = ...`
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr, cst.AsName)) and \
                name in walk.name_values(getattr(node, "target", None) or getattr(node, "name")):
            return None
    named = [f for f in found if f]
    return named[0] if named else None


def list_maker(module: cst.Module) -> Callable[[cst.BaseExpression], bool]:
    """`_plain_value`, or a call of `json.loads`/`json.load` (however imported), which gives a list for a JSON array
    (scikit-fuzzy's `interp_membership(x, mf, json.loads(s))`)."""
    imports = imported_as(module)
    return lambda value: _plain_value(value) or _called(value, imports) in _JSON_READERS


def list_fed_parameters(module: cst.Module, elsewhere: Optional[Mapping[str, Container]] = None,
                        lists_only: bool = False, tuples_only: bool = False) -> dict[str, frozenset[str]]:
    """{function or method name: its parameters that some call in the module passes a Python list or tuple}: a
    call `f(...)` of a module function, or `self.f(...)`/`cls.f(...)` of a method, given a display, a
    `list(...)`/`tuple(...)` call or a local name bound only to one (for a call at module level, a name the
    module's statements bind only to one: pywt's `data = [1.0, -2.0]`, then `norm1(data)`), by position or keyword
    (colorspacious' `broadcasting_matvec([1, -12. / 11, 1. / 11], rgb)`, similaritymeasures' `poly_area(xs, ys)`). NumPy takes
    such a parameter as an array where a `jax.numpy` function rejects it. A `json.loads(...)` result counts as a list
    (`list_maker`). Functions of the same name are merged. `elsewhere`: {function: the positions and keywords of
    its parameters that calls in other modules of the run pass such a value} (`_caller_inputs.fed`)."""
    plain = list_maker(module)
    if lists_only:  # (an index: a list is an index array)
        plain = lambda value: isinstance(value, (cst.List, cst.ListComp)) or _called_builtin(value, ("list",))  # noqa: E731
    elif tuples_only:  # (an index that is no array: a tuple is one index per axis; a slice, None or `...` no array)
        plain = axis_index
        return _fed_parameters(module, lambda value, caller: sequence_value(value, caller, plain), listed=True,
                               binds=plain)
    # (rows of a local table of displays: `for point in frontier: ... f(point, best)`; passed by name only)
    rows = frozenset() if lists_only else _row_names(module)
    return _fed_parameters(module, lambda value, caller: sequence_value(value, caller, plain) or not lists_only
                           and display_row(caller, value) is not None, listed=True, binds=plain, known=rows,
                           elsewhere=elsewhere)


def _row_names(module: cst.Module) -> frozenset[str]:
    """The names some loop or comprehension of the module binds to the rows of a list or tuple display of list or
    tuple displays (`for point in frontier[1:]`), or some assignment to an item of one (`best = frontier[0]`):
    the names a caller can pass such a row in (`display_row` tells which do)."""
    names: set[str] = set()
    for node in walk.nodes(module):
        if isinstance(node, (cst.For, cst.CompFor)) and isinstance(node.target, cst.Name):
            it = node.iter.value if isinstance(node.iter, cst.Subscript) else node.iter
            if isinstance(it, cst.Name):
                names.add(node.target.value)
        elif isinstance(node, cst.Assign) and isinstance(node.value, cst.Subscript) and isinstance(node.value.value, cst.Name):
            names.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))
    return frozenset(names)


def _called_builtin(value: cst.BaseExpression, names: tuple[str, ...]) -> bool:
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in names


def axis_index(value: cst.BaseExpression) -> bool:
    """An index that `jnp.asarray` would change: a tuple (one index per axis), `slice(..)`, `None`, `...`, or
    `np.s_[..]` / `np.index_exp[..]` (a slice or a tuple of them)."""
    if isinstance(value, (cst.Tuple, cst.Ellipsis)) or isinstance(value, cst.Name) and value.value in ("None", "Ellipsis"):
        return True
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Attribute) and value.value.attr.value in ("s_", "index_exp"):
        return True
    return _called_builtin(value, ("tuple", "slice"))


def unflat_fed_parameters(module: cst.Module, elsewhere: Optional[Mapping[str, Container]] = None) -> dict[str, frozenset[str]]:
    """{function or method name: its parameters that some call in the module passes a list or tuple not known to
    hold only arrays and numbers}: its items may be sequences too (`f(x, ((3, 2), (1, 0)))`, `pairs =
    list(zip(a, b))`, a list grown by `.append`, a comprehension). A parameter only ever given displays of arrays
    and numbers (`(x, y)`, with `x = np.sort(...)` in the caller: scipy's `_ppoly2d_eval(c, (x, y), ...)`) has items
    that are arrays or numbers. `elsewhere` as for `list_fed_parameters`."""
    plain = list_maker(module)
    return _fed_parameters(module, lambda value, caller: sequence_value(value, caller, plain) and not flat_list(value, caller),
                           listed=True, binds=plain, elsewhere=elsewhere)


def flat_list(value: cst.BaseExpression, caller: Optional[cst.FunctionDef]) -> bool:
    """A list or tuple display of arrays and numbers (`_flat_item`), or a local name of `caller` only ever bound
    to one and never grown (`.append`, `.extend`, `+=`)."""
    if isinstance(value, (cst.List, cst.Tuple)):
        return bool(value.elements) and all(
            not isinstance(e, cst.StarredElement) and _flat_item(e.value, caller) for e in value.elements)
    if not isinstance(value, cst.Name) or caller is None:
        return False
    bound = assigned_values(caller, value.value)
    return bool(bound) and all(isinstance(v, (cst.List, cst.Tuple)) and flat_list(v, caller) for v in bound) \
        and value.value not in _grown(caller)


def _flat_item(item: cst.BaseExpression, caller: Optional[cst.FunctionDef]) -> bool:
    """A number, or a local name of `caller` only ever bound to numbers, arithmetic, a NumPy/JAX/SciPy function's
    result (`np.sort(...)`, `jnp.linspace(...)`) or a random generator's draw (`rng.rand(n)`): an array or a number,
    never a list or tuple (a method of another object may return one)."""
    if isinstance(item, (cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if not isinstance(item, cst.Name) or caller is None:
        return False
    bound = assigned_values(caller, item.value)
    return bool(bound) and all(isinstance(v, (cst.Integer, cst.Float, cst.BinaryOperation)) or _array_made(v) for v in bound)


# NumPy random generators' draws (`rng.rand(n)`, `rs.normal(size=3)`): arrays
_DRAWS = frozenset({"rand", "randn", "random", "random_sample", "normal", "uniform", "standard_normal", "integers",
                    "randint", "exponential", "gamma", "beta", "poisson", "binomial", "choice", "permutation"})


def _array_made(value: cst.BaseExpression) -> bool:
    """`np.sort(a)`, `numpy.linspace(...)`, `jnp.ones(3)`, `scipy.special.erf(x)`, `rng.rand(n)`."""
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Attribute):
        return False
    root = dotted_name(value.func).partition(".")[0]
    return root in ("np", "numpy", "jnp", "jax", "scipy", "sp") or value.func.attr.value in _DRAWS


def _grown(function: cst.FunctionDef) -> set[str]:
    """The names `function` grows in place: `xs.append(v)`, `xs.extend(vs)`, `xs.insert(i, v)`, `xs += [...]`."""
    grown = {c.func.value.value for c in walk.nodes_of(function, cst.Call)  # type: ignore[attr-defined]
             if isinstance(c.func, cst.Attribute) and c.func.attr.value in ("append", "extend", "insert")  # type: ignore[attr-defined]
             and isinstance(c.func.value, cst.Name)}  # type: ignore[attr-defined]
    grown |= {a.target.value for a in walk.nodes_of(function, cst.AugAssign) if isinstance(a.target, cst.Name)}  # type: ignore[attr-defined]
    return grown


def none_fed_parameters(module: cst.Module) -> dict[str, frozenset[str]]:
    """{function or method name: its parameters that some call in the module passes None, as `None` or as a
    parameter of the caller that defaults to None (nilearn's `resample_img(img, target_shape=None)` calling
    `_resampling_not_needed(img, target_affine, target_shape)`), also passed on further}."""
    defaults_none = frozenset(
        p.name.value for f in walk.nodes_of(module, cst.FunctionDef)  # type: ignore[attr-defined]
        for p in (*f.params.posonly_params, *f.params.params, *f.params.kwonly_params)  # type: ignore[attr-defined]
        if isinstance(p.default, cst.Name) and p.default.value == "None")

    def fed(value: cst.BaseExpression, caller: Optional[cst.FunctionDef]) -> bool:
        if not isinstance(value, cst.Name):
            return False
        if value.value == "None":
            return True
        if caller is None or assigned_values(caller, value.value):  # (`if x is None: x = default`)
            return False
        return any(p.name.value == value.value and isinstance(p.default, cst.Name) and p.default.value == "None"
                   for p in (*caller.params.posonly_params, *caller.params.params, *caller.params.kwonly_params))

    return _fed_parameters(module, fed, listed=True, binds=lambda value: False, known=defaults_none | {"None"})


def mapping_fed_parameters(module: cst.Module, elsewhere: Optional[Mapping[str, Container]] = None) -> dict[str, frozenset[str]]:
    """{function or method name: its parameters that some call in the module passes a dict display or
    comprehension} (obspy's `write_npz(f, {'A': a}, ...)`). `elsewhere` as for `list_fed_parameters`."""
    return _fed_parameters(module, lambda value, caller: isinstance(value, (cst.Dict, cst.DictComp)), listed=False,
                           elsewhere=elsewhere)


@functools.lru_cache(maxsize=2)
def int_fed_parameters(module: cst.Module) -> dict[str, frozenset[str]]:
    """{function or method name: its parameters that some call in the module passes an int literal} (obspy's
    `lim(x, y, 2)` for `def lim(a, b, ylim=0.)`): a parameter with a float default may still be a Python int, which
    `lax.cond` takes for an int32/int64 branch against another's float."""
    return _fed_parameters(module, lambda value, caller: _int_literal(value), listed=False)


def _int_literal(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, (cst.Minus, cst.Plus)):
        value = value.expression
    return isinstance(value, cst.Integer)


def text_fed_parameters(module: cst.Module, elsewhere: Optional[Mapping[str, Container]] = None) -> dict[str, frozenset[str]]:
    """{function or method name: its parameters that some call in the module passes a string literal} (colorspacious'
    `safe_equal(white, "D65")`): NumPy makes a string array of it where a `jax.numpy` function raises. `elsewhere`
    as for `list_fed_parameters`."""
    return _fed_parameters(module, lambda value, caller: isinstance(value, STRING_LITERALS), listed=False,
                           elsewhere=elsewhere)


# NumPy functions that make an array of whatever data they are given (`np.array([None] * n)`: an object array)
_FROM_DATA = frozenset({"array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "atleast_1d",
                        "atleast_2d", "atleast_3d", "empty", "full", "zeros", "ones"})
# dtypes JAX arrays cannot hold, as written by name in a `dtype=` (`dtype=object`, `dtype=np.str_`); a string
# (`"O"`, `"<U5"`) is judged by `np.dtype` (`foreign_dtypes.foreign_code`)
_OBJECT_DTYPES = frozenset({"object", "str", "bytes", "object_", "str_", "bytes_", "unicode_"})


def _text_or_object_dtype(value: cst.BaseExpression) -> bool:
    """A dtype, as written, JAX arrays cannot have: `object`, `np.str_`, a string `np.dtype` rejects for JAX (`"O"`,
    `"<U5"`, `"S8"`: `foreign_dtypes.foreign_code`), or `np.dtype(...)` of one."""
    if isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)) \
            and dotted_name(value.func).split(".")[-1] == "dtype" and value.args and value.args[0].keyword is None:
        value = value.args[0].value  # `np.dtype("U5")`
    if isinstance(value, cst.SimpleString):
        return foreign_code(value.evaluated_value)
    return isinstance(value, (cst.Name, cst.Attribute)) and dotted_name(value).split(".")[-1] in _OBJECT_DTYPES


def dtype_constants(module: cst.Module) -> frozenset[str]:
    """The names the module's own statements bind only to a dtype JAX arrays cannot have (`TEXT = "U5"`,
    `KIND = object`: `_text_or_object_dtype`), and nothing else binds at module level."""
    values: dict[str, list[cst.BaseExpression]] = {}
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        for name in walk.nodes_of(target.target, cst.Name):
                            values.setdefault(name.value, []).append(  # type: ignore[attr-defined]
                                small.value if isinstance(target.target, cst.Name) else cst.Name("None"))
    return frozenset(name for name, bound in values.items() if all(_text_or_object_dtype(v) for v in bound))


def _dtype_argument(value: cst.BaseExpression, caller: Optional[cst.FunctionDef], constants: frozenset[str]) -> bool:
    """`_text_or_object_dtype` of a dtype as given: written out, or a name `caller` binds only to one (`kind =
    "U5"`), or, bound nowhere in `caller`, one of the module's `constants` (`dtype_constants`)."""
    if isinstance(value, cst.Name):
        bound = assigned_values(caller, value.value) if caller is not None else []
        if bound:
            return all(_text_or_object_dtype(v) for v in bound)
        if value.value in constants:
            return True
    return _text_or_object_dtype(value)


def _object_array(value: cst.BaseExpression, caller: Optional[cst.FunctionDef],
                  constants: frozenset[str] = frozenset()) -> bool:
    """`np.array([None] * n)`, `np.asarray(["a", "b"])`, `np.empty(n, dtype=object)`, `np.asarray(x, dtype=TEXT)`
    (of the module's `constants`): a NumPy array of objects or text (`foreign_dtypes.object_data`, with `caller`'s
    bindings), or a local name of `caller` only ever bound to one. JAX arrays cannot hold such data: `jax.numpy`
    functions reject the array."""
    if isinstance(value, cst.Name) and caller is not None:
        bound = assigned_values(caller, value.value)
        return bool(bound) and all(isinstance(v, cst.Call) and _object_array(v, caller, constants) for v in bound)
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "astype" \
            and value.args and _dtype_argument(value.args[0].value, caller, constants):
        return True  # `np.asarray(values).astype("U5")`
    if not isinstance(value, cst.Call) or not isinstance(value.func, (cst.Name, cst.Attribute)) \
            or dotted_name(value.func).split(".")[-1] not in _FROM_DATA:
        return False
    position = DTYPE_POSITION.get(dotted_name(value.func).split(".")[-1])
    for index, arg in enumerate(value.args):
        if arg.star:
            break
        if arg.keyword is not None and arg.keyword.value == "dtype" or arg.keyword is None and index == position:
            if _dtype_argument(arg.value, caller, constants):
                return True
    names = {a.value.value for a in value.args if isinstance(a.value, cst.Name)}
    bindings = {n: assigned_values(caller, n) for n in names} if caller is not None else {}
    return object_data(value, bindings, (), caller) is not None


# calls whose result JAX arrays cannot hold: exact numbers (`jnp.where` raises on a `Decimal`)
_EXACT_NUMBERS = frozenset({"decimal.Decimal", "fractions.Fraction"})
# `numpy.ma` functions that give plain NumPy arrays or masks, not masked arrays
_PLAIN_MA = frozenset({"getdata", "filled", "getmask", "getmaskarray"})


def imported_as(module: cst.Module) -> dict[str, str]:
    """{local name: the dotted name it is imported as} for every import in the module (`from decimal import Decimal
    as D`: D -> decimal.Decimal; `import numpy.ma as ma`: ma -> numpy.ma; `import numpy`: numpy -> numpy)."""
    found: dict[str, str] = {}
    for node in walk.nodes_of(module, cst.Import):
        for alias in node.names:  # type: ignore[attr-defined]
            dotted = dotted_name(alias.name)
            found[alias.evaluated_alias or dotted.split(".")[0]] = dotted if alias.evaluated_alias else dotted.split(".")[0]
    for node in walk.nodes_of(module, cst.ImportFrom):
        if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):  # type: ignore[attr-defined]
            continue
        source = dotted_name(node.module)  # type: ignore[attr-defined]
        for alias in node.names:  # type: ignore[attr-defined]
            found[alias.evaluated_alias or alias.evaluated_name] = f"{source}.{alias.evaluated_name}"
    return found


def _called(value: cst.BaseExpression, imports: dict[str, str]) -> str:
    """The dotted name of the imported function `value` calls, as imported (`D("1")` with `from decimal import
    Decimal as D`: "decimal.Decimal"), else ""."""
    if not isinstance(value, cst.Call) or not isinstance(value.func, (cst.Name, cst.Attribute)):
        return ""
    root, _, rest = dotted_name(value.func).partition(".")
    return imports[root] + ("." + rest if rest else "") if root in imports else ""


def _foreign_call(call: cst.Call, imports: dict[str, str]) -> bool:
    """`Decimal("0.075")`, `fractions.Fraction(1, 3)`, `np.ma.masked_invalid(x)` (however NumPy is imported): a
    value JAX arrays cannot hold (an exact number; a masked array, whose mask `jax.numpy` functions reject)."""
    qualified = _called(call, imports)
    return qualified in _EXACT_NUMBERS or qualified.startswith("numpy.ma.") and qualified.split(".")[-1] not in _PLAIN_MA


def element_base(value: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """The array whose elements `value` holds: `z` of `z[:1]`, `z[0]`, `z.T`, `z.reshape(2, 1)`, `z.ravel()`
    (`SAME_ELEMENT_METHODS`); else None."""
    if isinstance(value, cst.Subscript):
        return value.value
    if isinstance(value, cst.Attribute) and value.attr.value in ARRAY_ATTRIBUTES:
        return value.value
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in SAME_ELEMENT_METHODS:
        return value.func.value
    return None


def object_value(value: cst.BaseExpression, caller: Optional[cst.FunctionDef], imports: dict[str, str],
                  defined: frozenset[str], depth: int = 0, data: bool = False, constants: frozenset[str] = frozenset(),
                  attributes: frozenset[str] = frozenset()) -> bool:
    """What `jax.numpy` rejects where NumPy takes it (as an object array, or a masked one): a NumPy array of objects
    or text (`_object_array`), a `Decimal` or `Fraction`, a `numpy.ma` call's masked array (`_foreign_call`), a
    lambda, a name of a function or class of the module (`defined`) or one defined in `caller`, which `caller` does
    not otherwise bind, a slice, item or reshaping of an array of these (`z[:1]`, `z.ravel()`: `element_base`), or a
    local name of `caller` only ever bound to one of these, or `self.<attribute>` of one of `attributes`
    (`object_attributes`). With `data`, no function (what an item is taken of).
    `constants`: the module's names of dtypes JAX arrays cannot have (`dtype_constants`)."""
    if isinstance(value, cst.Lambda) and not data or isinstance(value, cst.Call) and _foreign_call(value, imports):
        return True
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value in ("self", "cls") \
            and value.attr.value in attributes:
        return True
    if isinstance(value, cst.IfExp):  # `np.empty(n, dtype=object) if flag else other`: either may be given
        return depth < 4 and any(object_value(v, caller, imports, defined, depth + 1, data, constants, attributes)
                                 for v in (value.body, value.orelse))
    if isinstance(value, (cst.List, cst.Tuple, cst.ListComp)):  # `[Decimal("-15000"), Decimal("1500")]`: NumPy
        # makes an object array of it (numpy_financial's `npv(rate, values)`), `jnp.asarray` raises
        items = [value.elt] if isinstance(value, cst.ListComp) else [
            e.value for e in value.elements if not isinstance(e, cst.StarredElement)]
        return depth < 4 and any(object_value(i, caller, imports, defined, depth + 1, True, constants, attributes)
                                 for i in items)
    if depth < 4 and any(object_value(v, caller, imports, defined, depth + 1, True, constants, attributes)
                         for v in _joined_arrays(value, imports)):  # `np.concatenate([z, z])` of an object array `z`
        return True
    base = element_base(value)
    if base is not None:
        return depth < 4 and object_value(base, caller, imports, defined, depth + 1, True, constants, attributes)
    if isinstance(value, cst.Name) and caller is not None:
        bound = assigned_values(caller, value.value)
        if not bound:  # (a method's name binds nothing: only the module's own and `caller`'s nested ones count)
            if data:
                return False
            nested = {d.name.value for kind in (cst.FunctionDef, cst.ClassDef) for d in walk.nodes_of(caller.body, kind)}  # type: ignore[attr-defined]
            return (value.value in defined or value.value in nested) and value.value not in {
                p.name.value for p in (*caller.params.posonly_params, *caller.params.params, *caller.params.kwonly_params)}
        return depth < 4 and all(object_value(v, caller, imports, defined, depth + 1, data, constants, attributes)
                                 for v in bound)
    return isinstance(value, cst.Call) and _object_array(value, caller, constants)


def object_attributes(module: cst.Module, imports: dict[str, str], defined: frozenset[str],
                      constants: frozenset[str] = frozenset()) -> frozenset[str]:
    """The attributes a method of a class of the module binds to an array JAX arrays cannot hold (`object_value`:
    `self._S = np.asarray(rows, dtype=object)`), and the properties that return one (giddy's `Spatial_Markov.S`,
    returning `self._S`), to a fixed point: `self.S[i]` is then an object array, which `jax.numpy` rejects. An
    attribute also bound to other values elsewhere still counts (it keeps more NumPy, never less)."""
    methods = [m for c in walk.nodes_of(module, cst.ClassDef) if isinstance(c.body, cst.IndentedBlock)  # type: ignore[attr-defined]
               for m in c.body.body if isinstance(m, cst.FunctionDef)]  # type: ignore[attr-defined]
    facts = []
    for method in methods:
        stored = [(t.target.attr.value, a.value) for a in walk.nodes_of(method.body, cst.Assign)  # type: ignore[attr-defined]
                  for t in a.targets if isinstance(t.target, cst.Attribute)  # type: ignore[attr-defined]
                  and isinstance(t.target.value, cst.Name) and t.target.value.value == "self"]
        prop = any(dotted_name(d.decorator) in ("property", "functools.cached_property", "cached_property")
                   for d in method.decorators)
        returned = [r.value for r in walk.nodes_of(method.body, cst.Return) if r.value is not None] if prop else []  # type: ignore[attr-defined]
        if stored or returned:
            facts.append((method, stored, returned))
    found: set[str] = set()
    for _ in range(len(facts) + 1):
        before = len(found)
        current = frozenset(found)
        for method, stored, returned in facts:
            found.update(attr for attr, value in stored
                         if object_value(value, method, imports, defined, data=True, constants=constants, attributes=current))
            if returned and all(object_value(v, method, imports, defined, data=True, constants=constants, attributes=current)
                                for v in returned):
                found.add(method.name.value)
        if len(found) == before:
            break
    return frozenset(found)


def _joined_arrays(value: cst.BaseExpression, imports: dict[str, str]) -> list[cst.BaseExpression]:
    """The arrays a NumPy call `value` that keeps its inputs' elements is given (`np.concatenate([z, w])`: `z`, `w`;
    `np.repeat(z, 2)`: `z`, `2`), when it asks for no dtype; else none."""
    qualified = _called(value, imports)
    if not qualified.startswith("numpy.") or qualified.split(".")[-1] not in _ELEMENT_FUNCTIONS:
        return []
    position = DTYPE_POSITION.get(qualified.split(".")[-1])
    if any(a.keyword is not None and a.keyword.value == "dtype" or a.keyword is None and i == position
           for i, a in enumerate(value.args)):  # type: ignore[attr-defined]
        return []
    given = [a.value for a in value.args if a.keyword is None and not a.star]  # type: ignore[attr-defined]
    return [e.value for v in given for e in (v.elements if isinstance(v, (cst.List, cst.Tuple)) else [cst.Element(v)])]


def object_fed_parameters(module: cst.Module, elsewhere: Optional[Mapping[str, Container]] = None) -> dict[str, frozenset[str]]:
    """{function or method name: its parameters that some call in the module passes a value JAX arrays cannot hold
    (`object_value`): a NumPy array of objects or text (filterpy's `reshape_z(np.array([None] * dim_z), dim_z)`), a
    `Decimal` (numpy_financial's `fv(Decimal("0.075"), ...)`), a masked array (pykalman's `array2d(obs)`, `obs =
    np.ma.masked_invalid(...)`) or a function (`array1d(f)`), directly or through a parameter it passes on}: NumPy
    functions take such a value (an object array of it, or the masked array), `jax.numpy` ones reject it.
    `elsewhere` as for `list_fed_parameters` (filterpy's `kalman/EKF.py` giving `common.helpers.reshape_z` such an
    array)."""
    imports = imported_as(module)
    defined = frozenset(d.name.value for d in module.body if isinstance(d, (cst.FunctionDef, cst.ClassDef)))
    nested = frozenset(d.name.value for kind in (cst.FunctionDef, cst.ClassDef)  # type: ignore[attr-defined]
                       for d in walk.nodes_of(module, kind))
    constants = dtype_constants(module)
    attributes = object_attributes(module, imports, defined, constants)
    return _fed_parameters(module, lambda value, caller: object_value(value, caller, imports, defined, constants=constants,
                                                                      attributes=attributes),
                           listed=True,
                           binds=lambda v: isinstance(v, (cst.Call, cst.Lambda, cst.Name, cst.Subscript, cst.Attribute,
                                                          cst.List, cst.Tuple, cst.ListComp)),
                           known=nested, elsewhere=elsewhere, rows=True)


def object_callable_parameters(module: cst.Module) -> dict[str, frozenset[str]]:
    """{function or method name: its parameters some call in the module passes a function of the module whose result
    JAX arrays cannot hold (`object_value` of a returned value: `def profile(T, m)` returning `out = np.empty(...,
    dtype=object)`, then `best(profile, T, m)`)}: what calling such a parameter gives (stumpy's `mp = mp_func(T,
    m)`, its matrix profile an object array) is such a value too (`object_derived`'s `called`)."""
    imports = imported_as(module)
    defined = frozenset(d.name.value for d in module.body if isinstance(d, (cst.FunctionDef, cst.ClassDef)))
    constants = dtype_constants(module)
    returning = frozenset(f.name.value for f in module.body if isinstance(f, cst.FunctionDef) and any(
        r.value is not None and object_value(r.value, f, imports, defined, data=True, constants=constants)
        for r in walk.nodes_of(f.body, cst.Return)))  # type: ignore[attr-defined]
    if not returning:
        return {}
    return _fed_parameters(module, lambda value, caller: isinstance(value, cst.Name) and value.value in returning and (
        caller is None or not assigned_values(caller, value.value)), listed=True, binds=lambda v: False, known=returning)


# what a value's metadata, size or type reads of an array: a number or a type, never its elements
_METADATA_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype", "itemsize", "nbytes"})
_METADATA_CALLS = frozenset({"len", "isinstance", "type", "id", "callable", "hasattr", "getattr", "range", "enumerate"})
# array methods whose result holds the elements of the array itself (an object array's give an object array)
SAME_ELEMENT_METHODS = frozenset({"reshape", "ravel", "flatten", "copy", "squeeze", "transpose", "swapaxes", "take",
                                  "repeat", "compress", "diagonal", "conj", "conjugate", "view", "cumsum", "cumprod"})

# NumPy functions whose result holds the elements of the arrays they are given (an object array's: an object array,
# NumPy's type promotion keeping `object`), unless a dtype is asked for: the joining ones, those of the methods above,
# and the reorderings and conversions
_ELEMENT_FUNCTIONS = STACKING | SAME_ELEMENT_METHODS | {
    "append", "insert", "tile", "block", "where", "sort", "flip", "fliplr", "flipud", "roll", "rot90", "expand_dims",
    "broadcast_to", "atleast_1d", "atleast_2d", "atleast_3d", "array", "asarray", "asanyarray", "ascontiguousarray"}


def _metadata_call(call: cst.Call) -> bool:
    """`len(z)`, `isinstance(z, ...)`, `enumerate(z)`: a call that reads only what a value is, not its elements;
    `getattr(z, "T")` of an array attribute (`ARRAY_ATTRIBUTES`) reads the elements."""
    if not isinstance(call.func, cst.Name) or call.func.value not in _METADATA_CALLS:
        return False
    return not (call.func.value == "getattr" and len(call.args) >= 2 and isinstance(call.args[1].value, cst.SimpleString)
                and call.args[1].value.evaluated_value in ARRAY_ATTRIBUTES)


def _split_binding(target: cst.BaseExpression, value: cst.BaseExpression) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(target, value) pairs a loop target over `value` splits into: `for i, row in enumerate(z)` binds `row` to
    a row of `z` (`i` to a counter: no pair), `for a, b in zip(z, w)` binds `a` to an item of `z`, `b` of `w`."""
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
            and not any(a.star or a.keyword is not None for a in value.args) \
            and not any(isinstance(e, cst.StarredElement) for e in target.elements):
        if value.func.value == "enumerate" and len(target.elements) == 2 and len(value.args) >= 1:
            return _split_binding(target.elements[1].value, value.args[0].value)
        if value.func.value == "zip" and len(target.elements) == len(value.args):
            return [pair for e, a in zip(target.elements, value.args) for pair in _split_binding(e.value, a.value)]
    return [(target, value)]


def read_names(value: cst.BaseExpression, whole: bool = False) -> list[cst.Name]:
    """The names whose values `value` reads as data: not attribute names (`self.z`), keywords (`f(z=1)`) or the
    functions called (`np.sum(f(x))`, whose result is what is read); with `whole`, not the objects whose other
    attributes are read either (`subprob.n_vars`: what the attribute holds is read, not the object; `r.T` is `r`)."""
    calls = walk.nodes_of(value, cst.Call)
    skipped = {id(a.attr) for a in walk.nodes_of(value, cst.Attribute)} \
        | {id(a.keyword) for a in walk.nodes_of(value, cst.Arg) if a.keyword is not None} \
        | {id(c.func) for c in calls}  # type: ignore[attr-defined]
    if whole:  # (`r.ravel()`, `r.reshape(2, 1)`: the elements of `r`, read as a whole)
        kept = {id(c.func) for c in calls if isinstance(c.func, cst.Attribute)  # type: ignore[attr-defined]
                and c.func.attr.value in SAME_ELEMENT_METHODS}  # type: ignore[attr-defined]
        skipped |= {id(a.value) for a in walk.nodes_of(value, cst.Attribute)  # type: ignore[attr-defined]
                    if a.attr.value not in ARRAY_ATTRIBUTES and id(a) not in kept}  # type: ignore[attr-defined]
    return [n for n in walk.nodes_of(value, cst.Name) if id(n) not in skipped]  # type: ignore[misc]


def attribute_reads(value: cst.BaseExpression, attributes: frozenset[str]) -> list[cst.Attribute]:
    """The reads of `self.<attribute>` (of `attributes`) in `value` that read what it holds: not its size, shape or
    type (`len(self.S)`, `self.S.shape`)."""
    if not attributes:
        return []
    skipped = {id(n) for c in walk.nodes_of(value, cst.Call) if _metadata_call(c)  # type: ignore[arg-type]
               for n in walk.nodes_of(c, cst.Attribute)} \
        | {id(a.value) for a in walk.nodes_of(value, cst.Attribute) if a.attr.value in _METADATA_ATTRIBUTES}  # type: ignore[attr-defined]
    return [a for a in walk.nodes_of(value, cst.Attribute) if id(a) not in skipped  # type: ignore[misc]
            and isinstance(a.value, cst.Name) and a.value.value in ("self", "cls") and a.attr.value in attributes]  # type: ignore[attr-defined]


def object_derived(function: cst.FunctionDef, fed: frozenset[str], called: frozenset[str] = frozenset(),
                   attributes: frozenset[str] = frozenset()) -> frozenset[str]:
    """The local names of `function` some assignment binds to a value read from one of the parameters `fed` (or
    from such a local), through a call, an item or arithmetic (filterpy's `r = reshape_z(z, 2)`, then
    `np.transpose(r)`), or to what calling one of the parameters `called` gives (`object_callable_parameters`:
    `mp = mp_func(T, m)`), or to a value read from `self.<attribute>` of `attributes` (`object_attributes`: `o = nt *
    self.S[i]`): where `fed` may hold an object or text array, so may they. Reads of only the size, shape
    or type (`n = len(z)`, `m = z.shape[0]`) do not count. Bindings are assignments (annotated too), `:=`, and
    loop targets (`for row in z`: a row of an object array is one)."""
    bindings: list[tuple[cst.CSTNode, list[cst.BaseExpression], cst.BaseExpression]] = []  # (binder, targets, value)
    for node in walk.nodes_of(function.body, cst.Assign):
        bindings.append((node, [t.target for t in node.targets], node.value))  # type: ignore[attr-defined]
    for kind in (cst.AnnAssign, cst.NamedExpr, cst.For, cst.CompFor):
        for node in walk.nodes_of(function.body, kind):
            value = node.iter if isinstance(node, (cst.For, cst.CompFor)) else node.value  # type: ignore[attr-defined]
            if value is None:
                continue
            if isinstance(node, (cst.For, cst.CompFor)):
                bindings += [(node, [t], v) for t, v in _split_binding(node.target, value)]  # type: ignore[attr-defined]
            else:
                bindings.append((node, [node.target], value))  # type: ignore[attr-defined]
    derived: set[str] = set()
    changed = True
    while changed:
        changed = False
        for assign, bound, value in bindings:
            targets = [n.value for t in bound for n in walk.nodes_of(t, cst.Name)  # type: ignore[attr-defined]
                       if isinstance(t, (cst.Name, cst.Tuple, cst.List))]
            if not targets or all(t in derived or t in fed for t in targets):
                continue
            metadata = {id(n) for c in walk.nodes_of(value, cst.Call) if _metadata_call(c)  # type: ignore[arg-type]
                        for n in walk.nodes_of(c, cst.Name)} \
                | {id(a.value) for a in walk.nodes_of(value, cst.Attribute) if a.attr.value in _METADATA_ATTRIBUTES}  # type: ignore[attr-defined]
            whole = {id(n) for n in read_names(value, whole=True)}  # a derived local counts read as a whole only
            # (a parameter rebound first, `z = np.arange(n) * 1.0`, no longer holds what the caller passed)
            if any(id(n) not in metadata and (n.value in fed and not _rebound_before(function, n.value, assign)
                                              or n.value in derived and id(n) in whole)
                   for n in read_names(value)) or any(
                    isinstance(c.func, cst.Name) and c.func.value in called  # type: ignore[attr-defined]
                    and not _rebound_before(function, c.func.value, assign) for c in walk.nodes_of(value, cst.Call)) \
                    or attribute_reads(value, attributes):  # `o = nt * self.S[i]`: `object_attributes`
                derived.update(t for t in targets if t not in fed)
                changed = True
    return frozenset(derived)


def _bound_arguments(args: Sequence[cst.Arg], params: list[str]) -> list[tuple[str, cst.BaseExpression]]:
    """(parameter, value) for the arguments `args` of a call to a function whose positional parameters are
    `params`: by position, by keyword, the items of a starred display (`f(*[xs, 1])`) by position, the entries of
    a `**` dict display with string keys by keyword. After a `*` of anything else the positions are unknown; the
    keywords are still read."""
    found: list[tuple[str, cst.BaseExpression]] = []
    index: Optional[int] = 0
    for arg in args:
        if arg.keyword is not None:
            found.append((arg.keyword.value, arg.value))
        elif arg.star == "*":
            value = arg.value
            if index is not None and isinstance(value, (cst.List, cst.Tuple)) \
                    and not any(isinstance(e, cst.StarredElement) for e in value.elements):
                for element in value.elements:
                    if index < len(params):
                        found.append((params[index], element.value))
                    index += 1
            else:
                index = None
        elif arg.star == "**":
            if isinstance(arg.value, cst.Dict):
                found += [(e.key.evaluated_value, e.value) for e in arg.value.elements
                          if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                          and isinstance(e.key.evaluated_value, str)]
        elif index is not None:
            if index < len(params):
                found.append((params[index], arg.value))
            index += 1
    return found


def _mapped_arguments(iterables: Sequence[cst.Arg], params: list[str], rows: bool) -> list[tuple[str, cst.BaseExpression]]:
    """(parameter, value) for the function `map(f, *iterables)` calls: the `k`th parameter gets each item of a
    display given `k`th (`map(twice, [z, w])`), and with `rows`, the `k`th iterable itself when it is no display
    (what holds it holds its rows: an object array's rows are object arrays or objects)."""
    found: list[tuple[str, cst.BaseExpression]] = []
    for param, iterable in zip(params, (a.value for a in iterables)):
        if isinstance(iterable, (cst.List, cst.Tuple, cst.Set)):
            found += [(param, e.value) for e in iterable.elements if not isinstance(e, cst.StarredElement)]
        elif rows:
            found.append((param, iterable))
    return found


def _rebound_before(caller: cst.FunctionDef, name: str, call: cst.CSTNode) -> bool:
    """Whether a statement of `caller`'s own body (no branch or loop) before the one holding `call` (a call, or an
    assignment) assigns `name`: then `call` never sees what `caller` was given in `name`."""
    body = caller.body.body if isinstance(caller.body, cst.IndentedBlock) else ()
    for statement in body:
        if any(node is call for node in walk.nodes_of(statement, type(call))):
            return False
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                    [small.target] if isinstance(small, cst.AnnAssign) and small.value is not None else []
                if any(_binds(t, name) for t in targets):
                    return True
    return False


def _binds(target: cst.BaseExpression, name: str) -> bool:
    """Whether the assignment target `target` binds `name`: the name itself, or one unpacked into (`z, w = ...`);
    not an item or attribute write (`z[0] = v`)."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_binds(e.value, name) for e in target.elements)
    if isinstance(target, cst.StarredElement):
        return _binds(target.value, name)
    return isinstance(target, cst.Name) and target.value == name


def _fed_parameters(module: cst.Module, fed: Callable[[cst.BaseExpression, Optional[cst.FunctionDef]], bool],
                    listed: bool, binds: Callable[[cst.BaseExpression], bool] = _plain_value,
                    known: frozenset[str] = frozenset(),
                    elsewhere: Optional[Mapping[str, Container]] = None, rows: bool = False) -> dict[str, frozenset[str]]:
    """{function or method name: its parameters some call in the module passes a value `fed(value, caller)` accepts,
    or passes on a parameter of its caller that is so fed (`update([3.0])`, `def update(z): return reshape_z(z, 1)`:
    filterpy's helpers) where no earlier statement of the caller's own body rebinds it}; a call of a name bound to a
    function of the module (`roll = shift`, then `roll([1.0, 2.0], 1)`) is a call of it; with `listed`, a name is
    looked up in its caller only when some assignment binds it to a value `binds` accepts (a list or tuple), or it
    is one of `known` (the module's functions and classes, which a `def` binds). `elsewhere`: {top-level function:
    positions and keywords of its parameters} so fed by calls in other modules, taken as if those calls were here.
    `map(f, xs)` calls `f` with the items of `xs` (`_mapped_arguments`; with `rows`, with `xs` itself too)."""
    functions: dict[str, list[cst.FunctionDef]] = {}
    functions_in_order = walk.nodes_of(module, cst.FunctionDef)
    for function in functions_in_order:
        functions.setdefault(function.name.value, []).append(function)  # type: ignore[attr-defined]
    found: dict[str, set[str]] = {}
    # the names some assignment binds to a list or tuple: the only names a caller can pass one in
    listed_names = {t.target.value for a in walk.nodes_of(module, cst.Assign) if binds(a.value)  # type: ignore[attr-defined]
                    for t in a.targets if isinstance(t.target, cst.Name)} | known if listed else set()  # type: ignore[attr-defined]
    callers: Optional[dict[int, cst.FunctionDef]] = None  # id(call) -> the innermost function holding it
    module_code: Optional[cst.FunctionDef] = None  # the module's statements, for its calls (built when first asked)
    classes = {c.name.value for c in walk.nodes_of(module, cst.ClassDef)}  # type: ignore[attr-defined]
    # the module's methods a call through any object may call (`self.state.update_current(e, [0])`: scipy's dual
    # annealing), but not one a builtin container or text has too (`d.update([...])`), nor through an imported name
    methods = {f.name.value for c in walk.nodes_of(module, cst.ClassDef) for f in c.body.body  # type: ignore[attr-defined]
               if isinstance(f, cst.FunctionDef)} - _BUILTIN_METHODS
    imported: Optional[set[str]] = None
    passed: list[tuple[cst.Call, str, str, str]] = []  # (call, callee, its parameter, the name passed to it)
    aliases: dict[str, set[str]] = {}  # `roll = shift`: a call of `roll` may be one of `shift`
    for assign in walk.nodes_of(module, cst.Assign):
        if isinstance(assign.value, cst.Name) and assign.value.value in functions:  # type: ignore[attr-defined]
            for target in assign.targets:  # type: ignore[attr-defined]
                if isinstance(target.target, cst.Name) and target.target.value not in functions:
                    aliases.setdefault(target.target.value, set()).add(assign.value.value)  # type: ignore[attr-defined]

    def caller_of(call: cst.Call) -> Optional[cst.FunctionDef]:
        """The innermost function holding `call`, or the module's own statements for a call at module level (a
        script's `__main__` block: pywt's `data = [...]` then `norm1(data)`)."""
        nonlocal callers, module_code
        if callers is None:  # functions come outer first: an inner function's calls are its own
            callers = {id(c): f for f in functions_in_order for c in walk.nodes_of(f, cst.Call)}
        caller = callers.get(id(call))
        if caller is None:
            caller = module_code = module_code or next(iter(walk.module_code(module)), None)
        return caller

    for node in walk.nodes_of(module, cst.Call):
        if not node.args:  # type: ignore[attr-defined]
            continue
        func = node.func  # type: ignore[attr-defined]
        # `map(twice, [z])`: a call of `twice` given each item of the iterables, by position
        by_map = isinstance(func, cst.Name) and func.value == "map" and len(node.args) >= 2 \
            and not any(a.star or a.keyword is not None for a in node.args)  # type: ignore[attr-defined]
        if by_map:
            func = node.args[0].value  # type: ignore[attr-defined]
        owner = func.value.value if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) else None
        method = owner in ("self", "cls")
        # `Quaternion.from_axis_angle([0, 0, 1], a)`: a static or class method called through its class (ase)
        through_class = owner in classes
        through_object = False
        if isinstance(func, cst.Attribute) and not method and not through_class and func.attr.value in methods:
            root = func.value
            while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
                root = root.func if isinstance(root, cst.Call) else root.value
            imported = set(imported_as(module)) if imported is None else imported
            through_object = not (isinstance(root, cst.Name) and root.value in imported)
        called = func.value if isinstance(func, cst.Name) else func.attr.value \
            if method or through_class or through_object else None  # type: ignore[union-attr]
        for name, callee in [(n, c) for n in ({called} if called in functions else aliases.get(called, ()))  # type: ignore[arg-type]
                             for c in functions[n]]:
            params = [p.name.value for p in (*callee.params.posonly_params, *callee.params.params)]
            if params and ((method or through_object) and params[0] in ("self", "cls") or through_class and params[0] == "cls"):
                params = params[1:]  # (through the class, a plain method's `self` is passed explicitly)
            named = params + [p.name.value for p in callee.params.kwonly_params]
            arguments = _mapped_arguments(node.args[1:], params, rows) if by_map \
                else _bound_arguments(node.args, params)  # type: ignore[attr-defined]
            for param, value in arguments:
                if param not in named:
                    continue
                if isinstance(value, cst.Name):
                    passed.append((node, name, param, value.value))  # type: ignore[arg-type]
                if param in found.get(name, ()):
                    continue
                caller = None
                if isinstance(value, cst.Name) and (not listed or value.value not in listed_names) and not (
                        value.value in ("None", "Ellipsis") and binds is axis_index):
                    continue
                if listed and isinstance(value, (cst.Name, cst.List, cst.Tuple, cst.Call, cst.Subscript, cst.Attribute)):
                    caller = caller_of(node)  # type: ignore[arg-type]  # (its local bindings, or its items')
                if fed(value, caller):
                    found.setdefault(name, set()).add(param)  # type: ignore[arg-type]
    # (a function defined under a module-level `try:` or `if` is the module's too: `except ImportError: def f(...)`;
    # the ones in a class or a function are not what another module calls by the module's name)
    inner = {id(f) for outer in (*walk.nodes_of(module, cst.ClassDef), *functions_in_order)  # type: ignore[attr-defined]
             for f in walk.nodes_of(outer.body, cst.FunctionDef)} if elsewhere else set()  # type: ignore[attr-defined]
    for name, specs in (elsewhere or {}).items():
        for callee in (d for d in functions.get(name, ()) if id(d) not in inner):
            positional = [p.name.value for p in (*callee.params.posonly_params, *callee.params.params)]
            named = positional + [p.name.value for p in callee.params.kwonly_params]
            found.setdefault(name, set()).update(
                positional[s] if isinstance(s, int) else s for s in specs
                if isinstance(s, int) and s < len(positional) or isinstance(s, str) and s in named)
    # a fed parameter passed on to another function of the module feeds that one's parameter too
    changed = bool(found) and bool(passed)
    while changed:
        changed = False
        for call, name, param, given in passed:
            if param in found.get(name, ()):
                continue
            caller = caller_of(call)
            if caller is None or given not in found.get(caller.name.value, ()) or given not in {
                    p.name.value for p in (*caller.params.posonly_params, *caller.params.params, *caller.params.kwonly_params)} \
                    or _rebound_before(caller, given, call):
                continue
            found.setdefault(name, set()).add(param)
            changed = True
    return {name: frozenset(params) for name, params in found.items()}


# the methods of Python's containers and text, which a call through an object of unknown type may mean
_BUILTIN_METHODS = frozenset(name for kind in (list, dict, set, str, bytes, tuple) for name in dir(kind))


def _unpacked_display(target: cst.BaseExpression, value: cst.BaseExpression, name: str) -> bool:
    """`name` is a target of `target`, which unpacks the display `value` of as many items (no starred one), and
    gets an item that is a `_plain_sequence` (`a, b = [], []`)."""
    if not (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))
            and len(target.elements) == len(value.elements)):
        return False
    if any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
        return False
    return any(isinstance(t.value, cst.Name) and t.value.value == name and _plain_sequence(v.value)
               for t, v in zip(target.elements, value.elements))


def _plain_sequence(value: Optional[cst.BaseExpression]) -> bool:
    """A list or tuple display or comprehension, a `list(...)`/`tuple(...)`/`sorted(...)` call, or one joined to
    or repeated by something else (`list(range(n, n + 3)) + extra`: mne's channel lists, `[0.0] * k`); with an array
    on the other side, the join is an array, which `jnp.asarray` takes as it is."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Multiply)):
        return _plain_sequence(value.left) or _plain_sequence(value.right)
    return isinstance(value, (cst.List, cst.Tuple, cst.ListComp)) or value is not None and (
        list_call(value) or isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "tuple")


def sequence_functions(module: cst.Module) -> frozenset[str]:
    """The names of the module's functions and methods every `return` of which gives a list or tuple display or
    comprehension or a `list(...)`/`tuple(...)` call (scikit-spatial's `Triangle.lengths`, given to `np.sum`);
    functions of the same name must all do so."""
    found: dict[str, bool] = {}
    for function in walk.nodes_of(module, cst.FunctionDef):
        returns = _returns(function)  # type: ignore[arg-type]
        name = function.name.value  # type: ignore[attr-defined]
        found[name] = found.get(name, True) and bool(returns) and all(
            _returned_sequence(r.value, function) for r in returns)  # type: ignore[arg-type]
    return frozenset(name for name, ok in found.items() if ok)


def sequence_properties(module: cst.Module) -> frozenset[str]:
    """The `sequence_functions` of the module that are properties (`@property`, `@functools.cached_property`): an
    attribute of that name read off any object (`sys.num`: python-control's `TransferFunction.num`, nested lists of
    arrays, given to `np.squeeze`) may be the list they return."""
    returning = sequence_functions(module)
    return frozenset(
        function.name.value for function in walk.nodes_of(module, cst.FunctionDef)
        if function.name.value in returning  # type: ignore[attr-defined]
        and any(dotted_name(d.decorator).split(".")[-1] in ("property", "cached_property")  # type: ignore[attr-defined]
                for d in function.decorators))  # type: ignore[attr-defined]
def sequence_item_functions(module: cst.Module) -> dict[str, tuple[int, frozenset[int]]]:
    """{name: (count, positions)} for the module's functions and methods every `return` of which gives a tuple
    display of `count` items (`return values, lengths`), those at `positions` each a list or tuple as
    `sequence_functions` reads a returned value (`ret_values, ret_lengths = [], []`, grown by `.append`): a caller
    unpacking the call (`values, lengths = merge_lengths(values, lengths)`: trimesh's rle) gets lists there.
    Functions of the same name must all agree."""
    found: dict[str, tuple[int, frozenset[int]]] = {}
    for function in walk.nodes_of(module, cst.FunctionDef):
        returns = _returns(function)  # type: ignore[arg-type]
        name = function.name.value  # type: ignore[attr-defined]
        values = [r.value for r in returns]
        if not values or not all(isinstance(v, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in v.elements)
                                 for v in values):
            found[name] = (0, frozenset())
            continue
        count = len(values[0].elements)  # type: ignore[union-attr]
        positions = frozenset(i for i in range(count) if all(
            len(v.elements) == count and _returned_sequence(v.elements[i].value, function) for v in values))  # type: ignore[union-attr,arg-type]
        if any(len(v.elements) != count for v in values):  # type: ignore[union-attr]
            positions = frozenset()
        before = found.get(name)
        found[name] = (count, positions) if before is None else \
            (count, positions & before[1]) if before[0] == count else (0, frozenset())
    return {name: entry for name, entry in found.items() if entry[1]}


def _returns(function: cst.FunctionDef) -> list[cst.Return]:
    """The `return` statements of `function` itself (not of a function, lambda or class inside it)."""
    returns: list[cst.Return] = []
    stack = list(walk.children_without_tokens(function.body))
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Return):
            returns.append(node)
        elif not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            stack.extend(walk.children_without_tokens(node))
    return returns


def _returned_sequence(value: Optional[cst.BaseExpression], function: cst.FunctionDef) -> bool:
    """`_plain_sequence`, or a conditional expression of them, or a local name of `function` bound only to them
    (`res = [len(list(g)) for v, g in groupby(x) if v]`, then `return res if len(res) > 0 else [0]`: tsfresh's
    `_get_length_sequences_where`, given to `np.max`)."""
    if isinstance(value, cst.IfExp):
        return _returned_sequence(value.body, function) and _returned_sequence(value.orelse, function)
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Multiply)):
        return _returned_sequence(value.left, function) or _returned_sequence(value.right, function)  # `2 * pad`
    if isinstance(value, cst.Name):
        return _sequence_local(function, value.value)
    return _plain_sequence(value)


def _sequence_local(function: cst.FunctionDef, name: str) -> bool:
    """The local `name` of `function` is bound only by plain assignments of `_plain_sequence` values (and grown only
    by `+=` of one): not a parameter, a loop or `with` target, unpacked or bound by `:=`."""
    if any(p.name.value == name for p in (*function.params.params, *function.params.posonly_params,
                                          *function.params.kwonly_params)):
        return False
    bound = False
    for node in walk.walk(function.body):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                if isinstance(target.target, cst.Name) and target.target.value == name:
                    if not _plain_sequence(node.value):
                        return False
                    bound = True
                elif _unpacked_display(target.target, node.value, name):
                    bound = True  # `ret_values, ret_lengths = [], []`
                elif name in walk.name_values(target.target):
                    return False  # unpacked (`res, n = ...`) or an item of a target
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name) and node.target.value == name:
            if not (isinstance(node.operator, cst.AddAssign) and _plain_sequence(node.value)):
                return False
        elif isinstance(node, (cst.For, cst.CompFor, cst.WithItem, cst.NamedExpr, cst.AnnAssign)):
            target = node.asname.name if isinstance(node, cst.WithItem) and node.asname else \
                None if isinstance(node, cst.WithItem) else node.target
            if target is not None and name in walk.name_values(target):
                return False
        elif isinstance(node, (cst.Global, cst.Nonlocal)) and any(n.name.value == name for n in node.names):
            return False
    return bound
