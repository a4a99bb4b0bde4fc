"""Hashed values: arrays whose elements a function uses as set members or dictionary keys.

A NumPy array's elements are NumPy scalars, which are hashable; a JAX array's are 0-d JAX arrays, which are not. So
`set(np.unique(y))`, `for v in np.unique(y): counts[v] = ...` and `key = np.asarray(order)[()]; cache[key]` raise
`TypeError: unhashable type` once the array is made by `jax.numpy`, eagerly as much as under `jit`. `hashed(function)`
finds the arrays whose elements end up hashed:

- given whole to `set`, `frozenset`, `dict.fromkeys` or `Counter`, or through arithmetic (`set(np.array(l) * s)`),
  or as the keys of `dict(zip(a, b))`;
- iterated (`for v in a`, `for i, v in enumerate(a)`, `for k, v in zip(a, b)`, or in a comprehension) with the
  item used as a key: the index of a local dict (`d[v]`, `d[v] = ...`) or of a dict display (`{0: "r"}[v]`) or
  call (`dict(pairs)[v]`), `v in d` (`d` a local dict or set, or a parameter, which may be one; or a display or a
  call making one in place: `v in {0, 2}`, `v in frozenset((0, 1))`), `d.get(v)` / `setdefault` / `pop`,
  `s.add(v)` / `discard` / `remove`, a key of a dict display or comprehension, an element of a set display or
  comprehension, `hash(v)`, or an element of a tuple used so (`d[i, j]`, `s.add((i, j))`); an array method's items
  are the array's (`for i, j in zip(x.ravel(), y.ravel())`);
- iterated with the item's `tuple(...)` used so (`{tuple(row) for row in a}`), or made a tuple used so itself
  (`cached(tuple(to_bits(n)))`: the elements of what `to_bits` returns);
- indexed to a scalar that is used so (`key = a[()]`, `key = a[0]`);
- a call whose result, or an element of it, is used as a key (`counts[np.argmax(p)] += 1`, `winmap[winner(w, x)]`,
  `{np.where(c == k)[0][0]: v for ...}`);
- an argument of a call of a memoized function of the module (`@functools.lru_cache`, `@cache`: `memoized`), which
  hashes its arguments (`at_split(split(p))`, `self._table(n)`), or arithmetic of one (`at_split(-k)`);
- given to a set's `update`, `union`, ... (`seen.update(np.unique(y))`), or a dict's `update` of `zip(keys, ...)`;
- or a scalar used so itself (`i = np.argmin(d)`, then `unassigned.remove(i)`), or one an array method gives (`i =
  d.argmin()`, `s.add(d[0])`: `d`'s elements);
- an item of a local list grown by `.append`/`.insert` that is hashed whole or iterated with its items used so
  (`vals.append((target * d, d))`, then `set(vals)`: the tuple's elements, so `target = np.mean(r)`; scikit-rf).

Items come from arithmetic iterated too (`for v in np.unique(y) + 1`) and from a regrouping (`for v in sorted(a)`).

The arrays are named by what makes them: a local name (`classes = np.unique(y)` then `set(classes)`), or the
expression itself (`set(np.unique(y))`, `for v in np.unique(y)`). A dict or set is a local name bound to a display,
a comprehension, or a call of `dict`/`set`/`defaultdict`/`OrderedDict`/`Counter`, or annotated as one (`counts: dict
= {}`); or one of the module's the function does not bind (`module_containers`: `CACHE = {}` at the top level,
`self.counts = {}` in a method of a class); other objects (a parameter `table[key]`) may be arrays, and are not taken
as hashing.
"""

from __future__ import annotations

from typing import Container, Optional

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.dataflow import function_flow
from jaxfix.analysis.parents import ParentProvider

# dict and set displays: a key looked up in one (`{0: "ok"}.get(k)`, `k in {0, 2}`) is hashed
_DISPLAYS = (cst.Dict, cst.Set, cst.DictComp, cst.SetComp)
_CONTAINERS = frozenset({"dict", "set", "frozenset", "defaultdict", "OrderedDict", "Counter"})
_WHOLE = frozenset({"set", "frozenset", "Counter", "fromkeys"})
_KEY_METHODS = frozenset({"get", "setdefault", "pop", "add", "discard", "remove"})
# methods of a set (or dict: `update`) that hash every element of their arguments (`seen.update(np.unique(y))`)
_WHOLE_METHODS = frozenset({
    "update", "union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint",
    "intersection_update", "difference_update", "symmetric_difference_update",
})
# annotations that make a name a dict or set (`counts: dict = {}`, `seen: set[int] = set()`)
_CONTAINER_TYPES = frozenset({
    "dict", "set", "frozenset", "Dict", "Set", "FrozenSet", "DefaultDict", "defaultdict", "OrderedDict", "Counter",
    "Mapping", "MutableMapping", "AbstractSet", "MutableSet",
})
# array methods whose result is Python values (hashable whatever the array was)
_PYTHON_VALUES = frozenset({"tolist", "item", "tobytes"})
# methods of a mapping that no array has: a name they are called on is a dict (or another mapping)
_MAPPING_METHODS = frozenset({"keys", "values", "items"})
# builtins that regroup their argument's elements as they are (a new container of the same elements)
_REGROUPED = frozenset({"list", "tuple", "frozenset", "sorted", "reversed"})



def _source(expr: cst.BaseExpression) -> cst.BaseExpression:
    """The array a value's elements come from: `a` (the Name read there) for `a` and for a slice or selection of it
    (`a[1:]`, `a[mask]`); otherwise the expression itself (the call, for `np.unique(y)[1:]`)."""
    while isinstance(expr, cst.Subscript) and isinstance(expr.value, (cst.Name, cst.Subscript, cst.Call)):
        expr = expr.value
    return expr


def _operands(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The arrays whose elements arithmetic gives (`np.array(lags) * s`: `np.array(lags)` and `s`), else `expr`."""
    if isinstance(expr, cst.BinaryOperation):
        return [*_operands(expr.left), *_operands(expr.right)]
    if isinstance(expr, cst.UnaryOperation):
        return _operands(expr.expression)
    return [expr]


def _derived_names(value: cst.BaseExpression) -> list[cst.Name]:
    """The arrays read in `value` whose kind of array `value`'s elements have: `value` selects, reshapes or copies
    one (`cols[keep].reshape(-1, 1)`, `a[1:]`, `a.ravel()`, `a.T`), reduces it by one of its methods (`d.argmin()`:
    a JAX scalar for a JAX array), or is arithmetic on such values (`d.argmin() + 1`): the Name nodes read there
    (none for `value` a Name itself, or a method giving Python values: `a.tolist()`, `a.item()`)."""
    found = []
    for part in _operands(value):
        node = part
        while True:
            if isinstance(node, cst.Subscript):
                node = node.value
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                    and node.func.attr.value in _ARRAY_METHODS:
                node = node.func.value
            elif isinstance(node, cst.Attribute) and node.attr.value in _SAME_ATTRIBUTES:
                node = node.value
            else:
                break
        if isinstance(node, cst.Name) and node is not value:
            found.append(node)
    return found


# array methods whose result is an array (or scalar) of the receiver's kind: a JAX one for a JAX array
_ARRAY_METHODS = frozenset({
    "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "choose", "clip", "compress", "conj",
    "conjugate", "copy", "cumprod", "cumsum", "diagonal", "dot", "flatten", "max", "mean", "min", "nonzero", "prod",
    "ptp", "ravel", "repeat", "reshape", "round", "searchsorted", "squeeze", "std", "sum", "swapaxes", "take", "trace",
    "transpose", "var", "view",
})
# attributes that are arrays of the array's elements
_SAME_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})


_MEMOIZERS = frozenset({"lru_cache", "cache"})


def memoized(module: cst.Module) -> frozenset[str]:
    """The names of the module's functions and methods decorated with `functools.lru_cache` or `functools.cache`
    (`@lru_cache`, `@functools.lru_cache(maxsize=None)`): each call hashes its arguments (galpy's `@lru_cache`'d
    tables, given the result of a module function)."""
    found = set()
    for function in walk.nodes_of(module, cst.FunctionDef):
        for decorator in function.decorators:  # type: ignore[attr-defined]
            made = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
            if isinstance(made, cst.Name) and made.value in _MEMOIZERS or isinstance(made, cst.Attribute) \
                    and made.attr.value in _MEMOIZERS and isinstance(made.value, cst.Name) and made.value.value == "functools":
                found.add(function.name.value)  # type: ignore[attr-defined]
    return frozenset(found)


def module_containers(module: cst.Module) -> frozenset[str]:
    """The dicts and sets a function may use without binding them: the module's names bound to a dict or set at its
    top level (`CACHE = {}`, `SEEN: set = set()`), and `self.<name>` for the attributes a class holds one in (`self.counts
    = {}` in any method, or `counts = {}` in the class body). A module-wide, name-based approximation (an attribute
    one class holds a dict in is taken as one in every class of the module)."""
    found: set[str] = set()
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                name = _bound_container(small)
                if name is not None:
                    found.add(name)
    for node in (*walk.nodes_of(module, cst.Assign), *walk.nodes_of(module, cst.AnnAssign)):
        target = node.targets[0].target if isinstance(node, cst.Assign) and len(node.targets) == 1 else \
            node.target if isinstance(node, cst.AnnAssign) else None
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self" \
                and _is_container_value(node):
            found.add(f"self.{target.attr.value}")
    for cls in walk.nodes_of(module, cst.ClassDef):
        for statement in cls.body.body:  # type: ignore[attr-defined]
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    name = _bound_container(small)
                    if name is not None:
                        found.add(f"self.{name}")
    return frozenset(found)


def _is_container_value(node: cst.CSTNode) -> bool:
    """Whether the assignment `node` binds a dict or set: a display, a comprehension, a call of `dict`/`set`/...,
    or (annotated) a dict or set type (`counts: dict = {}`, `seen: Set[int]`)."""
    value = node.value if isinstance(node, (cst.Assign, cst.AnnAssign)) else None
    if isinstance(value, (cst.Dict, cst.Set, cst.DictComp, cst.SetComp)) or \
            isinstance(value, cst.Call) and walk.called_name(value) in _CONTAINERS:
        return True
    if isinstance(node, cst.AnnAssign):
        annotation = node.annotation.annotation
        if isinstance(annotation, cst.Subscript):
            annotation = annotation.value
        return isinstance(annotation, cst.Name) and annotation.value in _CONTAINER_TYPES \
            or isinstance(annotation, cst.Attribute) and annotation.attr.value in _CONTAINER_TYPES
    return False


def _bound_container(small: cst.BaseSmallStatement) -> Optional[str]:
    """The name `small` binds to a dict or set (`CACHE = {}`, `seen: set = set()`), else None."""
    target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else \
        small.target if isinstance(small, cst.AnnAssign) else None
    return target.value if isinstance(target, cst.Name) and _is_container_value(small) else None


def _container_of(owner: cst.BaseExpression) -> Optional[str]:
    """How a dict or set is named where it is used: `d` for a Name, `self.d` for an attribute of `self`."""
    if isinstance(owner, cst.Name):
        return owner.value
    if isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self":
        return f"self.{owner.attr.value}"
    return None


def _regrouped(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`x` for `list(x)`, `tuple(sorted(x))`, `reversed(x)`: a new container of the same elements, and for
    `map(tuple, x)` or `(tuple(r) for r in x)`, whose elements are `x`'s rows regrouped (`r`, the loop target, for
    the comprehension: `items` knows where it comes from); else `expr`."""
    while True:
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in _REGROUPED \
                and len(expr.args) == 1 and not expr.args[0].star and expr.args[0].keyword is None:
            expr = expr.args[0].value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "map" \
                and len(expr.args) == 2 and not any(a.star or a.keyword for a in expr.args) \
                and isinstance(expr.args[0].value, cst.Name) and expr.args[0].value.value in _REGROUPED:
            expr = expr.args[1].value
        elif isinstance(expr, (cst.GeneratorExp, cst.ListComp, cst.SetComp)) and _regrouped(expr.elt) is not expr.elt:
            expr = _regrouped(expr.elt)
        else:
            return expr


def _memoized_call(node: cst.Call, memoized: Container[str]) -> bool:
    """A call of a memoized function of the module: `f(...)`, or `self.f(...)` of a method."""
    func = node.func
    return isinstance(func, cst.Name) and func.value in memoized or isinstance(func, cst.Attribute) \
        and func.attr.value in memoized and isinstance(func.value, cst.Name) and func.value.value == "self"


def _callee_name(node: cst.Call) -> Optional[str]:
    """The name of the module's function or method `node` calls: `f` for `f(...)` and `self.f(...)`, else None."""
    func = node.func
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        return func.attr.value
    return None


def _by_name(hashing: frozenset[tuple[str, tuple[str, ...], frozenset[str]]]) -> dict[str, list[tuple[tuple[str, ...], frozenset[str]]]]:
    found: dict[str, list[tuple[tuple[str, ...], frozenset[str]]]] = {}
    for name, params, hashed_params in hashing:
        found.setdefault(name, []).append((params, hashed_params))
    return found


def _hashed_arguments(node: cst.Call, signatures: list[tuple[tuple[str, ...], frozenset[str]]]) -> list[cst.BaseExpression]:
    """The arguments of `node` given for a parameter one of the functions so named hashes (`signatures`: each one's
    positional parameters, `self` dropped for a call through `self.`, and those it hashes); a starred argument
    stops the positional ones (where it lands is unknown)."""
    through_self = isinstance(node.func, cst.Attribute)
    found: list[cst.BaseExpression] = []
    for params, hashed_params in signatures:
        if through_self or (params and params[0] in ("self", "cls")):
            params = params[1:] if params and params[0] in ("self", "cls") else params
        for index, arg in enumerate(node.args):
            if arg.star:
                if arg.star == "*":
                    break
                continue
            name = arg.keyword.value if arg.keyword is not None else params[index] if index < len(params) else None
            if name in hashed_params:
                found.append(arg.value)
    return found


def hashing_parameters(module: cst.Module, memoized: Container[str] = frozenset(),
                       outside: Container[str] = frozenset()) -> frozenset[tuple[str, tuple[str, ...], frozenset[str]]]:
    """The module's functions and methods that hash the elements of some of their parameters as the caller passed
    them (chaospy's `_get(kdata)`: `if tuple(kdata) in _cache`), each as (its name, its positional parameters, those
    it hashes): a parameter `hashed` finds and that the function never rebinds. Through helpers calling helpers too
    (to a fixed point). Name-based, like `memoized`: a caller matches a function or method by its name."""
    functions = list(walk.nodes_of(module, cst.FunctionDef))
    found: frozenset[tuple[str, tuple[str, ...], frozenset[str]]] = frozenset()
    for _ in range(4):
        current = set()
        for function in functions:
            params = function.params  # type: ignore[attr-defined]
            positional = tuple(p.name.value for p in (*params.posonly_params, *params.params))
            facts = (memoized, outside, found)
            kept = _PARAMETERS_ACROSS_PASSES.get(function)  # type: ignore[call-overload]
            if kept is not None and kept[0] == facts:
                names = kept[1]
            else:
                every = {*positional, *(p.name.value for p in params.kwonly_params)}
                converted = _converted_parameters(function, every)  # type: ignore[arg-type]
                read = _reading_conversions(function, converted) if converted else function  # type: ignore[arg-type]
                names = hashed(read, memoized, outside, found)[0] & every  # type: ignore[arg-type]
                if names:
                    names -= _rebound(read)  # type: ignore[arg-type]
                _PARAMETERS_ACROSS_PASSES[function] = (facts, names)  # type: ignore[index]
            if names:
                current.add((function.name.value, positional, frozenset(names)))  # type: ignore[attr-defined]
        if frozenset(current) == found:
            break
        found = frozenset(current)
    return found


_SEQUENCE_CONVERSIONS = frozenset({"tuple"})


def _converted_parameters(function: cst.FunctionDef, params: set[str]) -> dict[str, str]:
    """{parameter: conversion} for the parameters `function` binds only once, first in its body, by `p = tuple(p)`
    (chaospy-like caches: `key = tuple(key)`, then `_cache.setdefault(key, ...)`)."""
    body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
    first: dict[str, str] = {}
    for stmt in body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                and isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Name)
                and small.value.func.value in _SEQUENCE_CONVERSIONS and len(small.value.args) == 1
                and isinstance(small.value.args[0].value, cst.Name) and not small.value.args[0].keyword
                and not small.value.args[0].star):
            break
        name = small.targets[0].target.value
        if name not in params or small.value.args[0].value.value != name or name in first:
            break
        first[name] = small.value.func.value
    if not first:
        return {}
    rest = cst.IndentedBlock(body=list(body[len(first):]))
    again = _rebound(function.with_changes(body=rest))
    return {name: how for name, how in first.items() if name not in again}


class _ReadConverted(cst.CSTTransformer):
    def __init__(self, converted: dict[str, str]) -> None:
        self.converted = converted

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        how = self.converted.get(updated.value)
        return cst.Call(func=cst.Name(how), args=[cst.Arg(updated)]) if how is not None else updated

    # (names that are no reads keep their names: an attribute's, a keyword's, a parameter's)
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)

    def leave_Param(self, original: cst.Param, updated: cst.Param) -> cst.Param:
        return updated.with_changes(name=original.name)


def _reading_conversions(function: cst.FunctionDef, converted: dict[str, str]) -> cst.FunctionDef:
    """`function` without its first statements `p = tuple(p)` and reading `tuple(p)` wherever it reads `p`: what
    it hashes of the tuple it hashes of the parameter's elements (a copy for `hashed`, never put in the tree)."""
    body = list(function.body.body)[len(converted):]  # type: ignore[attr-defined]
    rest = cst.IndentedBlock(body=body).visit(_ReadConverted(converted))
    return function.with_changes(body=rest)


def _rebound(function: cst.FunctionDef) -> set[str]:
    """The names `function` binds in its body (assignments, loop targets, `with ... as`, walrus, `del`, imports)."""
    names: set[str] = set()
    for node in walk.nodes(function.body):
        targets: list[cst.CSTNode] = []
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.NamedExpr)):
            targets = [node.target]
        elif isinstance(node, (cst.For, cst.CompFor)):
            targets = [node.target]
        elif isinstance(node, cst.WithItem) and node.asname is not None:
            targets = [node.asname.name]
        while targets:
            target = targets.pop()
            if isinstance(target, cst.Name):
                names.add(target.value)
            elif isinstance(target, (cst.Tuple, cst.List)):
                targets.extend(e.value for e in target.elements)
            elif isinstance(target, cst.StarredElement):
                targets.append(target.value)
    return names


# the node types `hashed` reads (all concrete: LibCST defines no subclasses of them)
_HASHED_KINDS = frozenset({cst.AnnAssign, cst.Assign, cst.For, cst.CompFor, cst.Call, cst.Subscript, cst.Comparison,
                           cst.Dict, cst.Set, cst.DictComp, cst.SetComp})


def hashed(function: cst.FunctionDef, memoized: Container[str] = frozenset(),
           outside: Container[str] = frozenset(),
           hashing: frozenset[tuple[str, tuple[str, ...], frozenset[str]]] = frozenset()) -> tuple[set[str], set[cst.BaseExpression]]:
    """The expressions whose array elements `function` hashes (see the module docstring): a `Name` where it is read
    (`classes` in `set(classes)`) or the expression that makes the array (`np.unique(y)` in `set(np.unique(y))`);
    and the names among them, for a quick first test. `memoized`: the module's functions that hash their arguments
    (see `memoized`); `outside`: the module's dicts and sets the function may use without binding them (see
    `module_containers`: `CACHE`, `self.counts`); `hashing`: the module's functions that hash some of their
    parameters (see `hashing_parameters`: `_get(kdata)` of a helper doing `tuple(kdata) in _cache`)."""
    callees = _by_name(hashing)
    containers: set[str] = set()
    mappings: set[str] = set()  # names whose `.keys()`, `.values()` or `.items()` the function reads
    items: dict[str, list[cst.BaseExpression]] = {}  # a loop or comprehension target, or an indexed scalar -> where its values come from
    keys: list[cst.BaseExpression] = []
    whole: list[cst.BaseExpression] = []
    pending_whole: list[tuple[str, cst.BaseExpression]] = []  # (a dict or set, if it is one; a value it takes whole)
    made: dict[str, list[cst.Name]] = {}  # a local name -> the array read in an expression that selects or reshapes it
    bound: dict[str, int] = {}  # how many assignments bind each local name
    appended: dict[str, list[cst.BaseExpression]] = {}  # a local list -> the items it is grown by (`vals.append(v)`)
    for node in walk.nodes(function.body):
        if node.__class__ not in _HASHED_KINDS:
            continue  # (most nodes: names, attributes, operations; a set test first costs less than the chain below)
        if isinstance(node, cst.AnnAssign) and node.value is None:
            if isinstance(node.target, cst.Name) and _is_container_value(node):  # `counts: dict`, bound later
                containers.add(node.target.value)
        elif isinstance(node, (cst.Assign, cst.AnnAssign)) and isinstance(
                target := node.targets[0].target if isinstance(node, cst.Assign) and len(node.targets) == 1 else
                node.target if isinstance(node, cst.AnnAssign) else None, cst.Name):
            name, value = target.value, node.value
            if _is_container_value(node):  # `d = {}`, `counts: dict = {}`
                containers.add(name)
            elif isinstance(value, cst.Subscript) and isinstance(value.value, (cst.Name, cst.Call)):
                items.setdefault(name, []).append(_source(value.value))  # `key = a[()]`
            elif isinstance(value, (cst.ListComp, cst.GeneratorExp)) and isinstance(value.elt, cst.Subscript):
                items.setdefault(name, []).append(_source(value.elt))  # `lst = [codes[i] for i in idx]`, then `set(lst)`
            elif isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in _REGROUPED \
                    and len(value.args) == 1 and not value.args[0].star and value.args[0].keyword is None:
                # `picked = list(locs)`, then `set(picked)` (ruptures' Window); `key = tuple(row)` of a loop's row,
                # then `counts[key]` (pyentrp's motifs): the elements are those of the array the argument comes from
                inner = _regrouped(value)
                items.setdefault(name, []).extend(
                    items[inner.value] if isinstance(inner, cst.Name) and inner.value in items else [_source(inner)])
            bound[name] = bound.get(name, 0) + 1
            # `itemsets = cols[keep].reshape(-1, 1)`: rows of `cols`; `i = d.argmin()`: a scalar of `d`'s kind
            made.setdefault(name, []).extend(_derived_names(value))  # type: ignore[arg-type]
        elif isinstance(node, cst.Assign):  # `x, y = np.meshgrid(a, b)`: local names, each holding an array
            for target in node.targets:
                if isinstance(target.target, (cst.Tuple, cst.List)):
                    for element in target.target.elements:
                        if isinstance(element.value, cst.Name):
                            bound[element.value.value] = bound.get(element.value.value, 0) + 1
        elif isinstance(node, (cst.For, cst.CompFor)):
            iterable = node.iter
            target = node.target
            if isinstance(iterable, cst.Call) and walk.called_name(iterable) == "enumerate" and iterable.args \
                    and isinstance(target, cst.Tuple) and len(target.elements) == 2:
                iterable, target = iterable.args[0].value, target.elements[1].value
            if isinstance(target, cst.Name):  # `for v in a`, and `for v in np.unique(y) + 1`, `for v in sorted(a)`
                items.setdefault(target.value, []).extend(_iterated(iterable))
            elif isinstance(target, cst.Tuple) and _zipped(iterable):  # `for k, v in zip(keys, values)`
                for element, arg in zip(target.elements, iterable.args):  # type: ignore[attr-defined]
                    if isinstance(element.value, cst.Name) and not arg.star:
                        items.setdefault(element.value.value, []).extend(_iterated(arg.value))
            elif isinstance(target, (cst.Tuple, cst.List)):  # `for a, b in edges`: the elements of a row of `edges`
                for element in target.elements:
                    if isinstance(element.value, cst.Name):
                        items.setdefault(element.value.value, []).extend(_iterated(iterable))
        elif isinstance(node, cst.Call):
            callee = walk.called_name(node)
            first = node.args[0] if node.args and node.args[0].keyword is None and not node.args[0].star else None
            if memoized and _memoized_call(node, memoized):  # `at_split(split(p))`: the cache hashes each argument
                keys.extend(part for arg in node.args if not arg.star for part in _operands(arg.value))
            elif callees and _callee_name(node) in callees:  # `_get(kdata)`, where `_get` hashes its `kdata`
                keys.extend(part for arg in _hashed_arguments(node, callees[_callee_name(node)])  # type: ignore[index]
                            for part in _operands(arg))
            elif callee in _WHOLE and first is not None and (isinstance(node.func, cst.Name) or _is_container(node.func)):
                whole.append(first.value)  # `set(a)`, `collections.Counter(a)`, `dict.fromkeys(a)`: not `ax.set(...)`
            elif callee in ("dict", "OrderedDict") and first is not None and _zipped(first.value) \
                    and not first.value.args[0].star:  # type: ignore[attr-defined]
                whole.append(first.value.args[0].value)  # type: ignore[attr-defined]  # `dict(zip(unique, counts))` (imblearn)
            elif callee == "hash" and node.args:
                keys.append(node.args[0].value)
            elif callee in _KEY_METHODS and isinstance(node.func, cst.Attribute) and node.args \
                    and _made_container(node.func.value):
                # `{0: "ok", 2: "nan"}.get(flag, "")`, `dict(pairs).get(flag)`: a dict made and looked up in place
                keys.append(node.args[0].value)
            elif callee in _KEY_METHODS and isinstance(node.func, cst.Attribute) and node.args:
                owner = _container_of(node.func.value)  # `d.get(v)`, `self.counts.get(v, 0)`
                if owner is None and isinstance(node.func.value, cst.Subscript):
                    # `d[a].add(b)`: a set (or dict) held in the dict `d` (trimesh's graph `neighbors`, a
                    # `defaultdict(set)`), if `d` is one
                    owner = _container_of(node.func.value.value)
                if owner is not None and (not owner.startswith("self.") or owner in outside):
                    keys.append(_Pending(owner, node.args[0].value))  # type: ignore[arg-type]
            elif callee in _WHOLE_METHODS and isinstance(node.func, cst.Attribute) and node.args:
                owner = _container_of(node.func.value)  # `seen.update(np.unique(y))`, `s.union(a)`
                if owner is not None:
                    pending_whole.extend((owner, a.value) for a in node.args if not a.star and a.keyword is None)
            elif callee in ("append", "insert") and isinstance(node.func, cst.Attribute) \
                    and isinstance(node.func.value, cst.Name) and node.args and not node.args[-1].star:
                # `vals.append((target * d, d))`, then `set(vals)`: each item is hashed (its elements, for a tuple)
                appended.setdefault(node.func.value.value, []).append(node.args[-1].value)
            elif callee in _MAPPING_METHODS and isinstance(node.func, cst.Attribute) and not node.args \
                    and isinstance(node.func.value, cst.Name):
                mappings.add(node.func.value.value)  # `degree.keys()`: `degree` is a mapping, no array
        elif isinstance(node, cst.Subscript) and all(isinstance(s.slice, cst.Index) for s in node.slice) \
                and (isinstance(node.value, cst.Name) or _made_container(node.value)
                     or isinstance(node.value, cst.Attribute) and _container_of(node.value) in outside):  # `d[v]`, `self.counts[v]`, `d[i, j]` (a tuple key)
            key = node.slice[0].slice.value if len(node.slice) == 1 else \
                cst.Tuple([cst.Element(s.slice.value) for s in node.slice])  # type: ignore[attr-defined]
            # (`{0: "red", 1: "green"}[band(b)]`: a dict display looked up in place, spectral's band labels; likewise
            # `dict(pairs)[flag]`, `Counter(words)[w]`)
            keys.append(key if _made_container(node.value)
                        else _Pending(_container_of(node.value), key))  # type: ignore[arg-type]
        elif isinstance(node, cst.Comparison):
            for left, comparison in zip((node.left, *(c.comparator for c in node.comparisons)), node.comparisons):
                if isinstance(comparison.operator, (cst.In, cst.NotIn)) and isinstance(comparison.comparator, cst.Name):
                    keys.append(_Pending(comparison.comparator.value, left, membership=True))  # type: ignore[arg-type]
                elif isinstance(comparison.operator, (cst.In, cst.NotIn)) and _made_container(comparison.comparator):
                    # `flag in {0, 2}`, `k in {0: "a"}`, `flag in frozenset((0, 1))`, `k in set([0, 1])`: a dict or
                    # set made in place hashes what it tests
                    keys.append(left)
                elif isinstance(comparison.operator, (cst.In, cst.NotIn)) and isinstance(comparison.comparator, cst.Attribute):
                    owner = _container_of(comparison.comparator)  # `v in self.seen`, one of the class's sets
                    if owner is not None and owner in outside:
                        keys.append(left)
        elif isinstance(node, cst.Dict):
            keys.extend(e.key for e in node.elements if isinstance(e, cst.DictElement))
        elif isinstance(node, cst.Set):
            keys.extend(e.value for e in node.elements)
        elif isinstance(node, cst.DictComp):
            keys.append(node.key)
        elif isinstance(node, cst.SetComp):
            keys.append(node.elt)
    params = {p.name.value for p in (*function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}

    def is_container(name: str) -> bool:
        """A local dict or set, one of the module's (`CACHE`, `self.counts`) the function does not bind itself, or
        a parameter whose `.keys()`, `.values()` or `.items()` it reads (no array has them: trimesh's
        `degree[r] for r in roots`, `roots` made of `np.array(list(degree.keys()))`)."""
        return name in containers or name in outside and name not in params and name not in bound \
            or name in mappings and name in params and name not in bound

    for owner, value in pending_whole:
        if is_container(owner):  # `seen.update(a)`: every element; `d.update(zip(a, b))`: the keys
            whole.append(value.args[0].value if _zipped(value) and not value.args[0].star else value)  # type: ignore[attr-defined]
    whole = [_regrouped(expr) for expr in whole]  # `set(list(locs))`: the elements of `locs`
    exprs = {_source(part) for expr in whole for part in _operands(expr)}
    for expr in whole:  # `frozenset(row) for row in rows`, `set(lst)` of `lst = [codes[i] for i in idx]`, `set(lst[1:])`
        if isinstance(_source(expr), cst.Name):
            exprs.update(items.get(_source(expr).value, ()))  # type: ignore[attr-defined]
    grown = {name for name in appended if name not in params}
    for expr in list(exprs):  # `set(vals)` of a list grown by `.append`: each appended item is hashed
        if isinstance(expr, cst.Name) and expr.value in grown:
            grown.discard(expr.value)
            keys.extend(appended[expr.value])
    while keys:
        key = keys.pop()
        if isinstance(key, _Pending):
            # a local dict or set; for `v in c`, a parameter too, which may be a dict (imblearn's `c not in class_type`)
            if not is_container(key.container) and not (key.membership and key.container in params):
                continue
            key = key.key
        if isinstance(key, cst.Tuple):  # `d[i, j]`, `s.add((i, j))`, `{(i, j): v}`: each element is hashed
            keys.extend(e.value for e in key.elements)
            continue
        if isinstance(key, cst.Call) and walk.called_name(key) in ("tuple", "frozenset") and isinstance(key.func, cst.Name) \
                and len(key.args) == 1 and not key.args[0].star:
            # `{tuple(row) for row in enc}`: the row's elements are hashed (kmodes); `lru_cached(tuple(to_bits(n)))`:
            # the elements of what the call returns (commpy's viterbi)
            key = _source(key.args[0].value)
        if isinstance(key, cst.Call):
            exprs.add(key)  # `winmap[winner(w, x)]`: what the call returns is the key (minisom)
            continue
        elif isinstance(key, cst.Subscript) and isinstance(_source(key), cst.Call):
            exprs.add(_source(key))  # `{np.where(classes == k)[0][0]: v ...}`: an element of the call's result (imblearn)
            continue
        if isinstance(key, (cst.BinaryOperation, cst.UnaryOperation)):
            # `d[np.sign(i) * 2]`, `d[-np.argmax(p)]` (librosa's accidentals): arithmetic of a call's result is of the
            # call's kind (a 0-d JAX array for a JAX call), so the call, or the array an element is taken of, counts
            # (the other operands, and the arrays a method call's receiver is an item of, as before)
            for part in _operands(key):
                if isinstance(part, cst.Call) or isinstance(part, cst.Subscript) and isinstance(_source(part), cst.Call):
                    exprs.add(_source(part))
                    for name in _derived_names(part):
                        exprs.update(items.get(name.value, ()))
                else:
                    keys.append(part)
            continue
        # `d[v + 1]` of a loop's `v`; `s.remove(d.argmin())`, `s.add(d[0])`: an element of the array `d`
        for name in [key] if isinstance(key, cst.Name) else _derived_names(key):
            if name.value in items:
                exprs.update(items[name.value])
                for source in items[name.value]:  # `for v in vals`, then `d[v]`: the items `vals` is grown by
                    if isinstance(source, cst.Name) and source.value in grown:
                        grown.discard(source.value)
                        keys.extend(appended[source.value])
            else:
                exprs.add(name)  # `i = np.argmin(d)` then `unassigned.remove(i)`: the value itself is hashed (pydmd)
    for expr in list(exprs):  # `for v in a.ravel()`: the elements of `a`
        exprs.update(read for read in _derived_names(expr) if read.value in bound or read.value in params)
    # (a name bound more than once, `roots = indexes[mask]` then `roots = roots[order]` (trimesh's graph roots): any
    # of its bindings may reach the hashing, so the arrays each selects from count)
    pending = [e.value for e in exprs if isinstance(e, cst.Name)]
    while pending:  # the arrays a hashed array is selected, reshaped or reduced from are hashed too
        for read in made.pop(pending.pop(), ()):
            for source in items.get(read.value, ()):  # `i = row.argmin()` of a loop's `row`: the array iterated
                if source not in exprs:
                    exprs.add(source)
                    if isinstance(source, cst.Name):
                        pending.append(source.value)
            if read not in exprs and (read.value in bound or read.value in params):  # (not `np` of `np.argmin(d)`)
                exprs.add(read)
                pending.append(read.value)
    return {e.value for e in exprs if isinstance(e, cst.Name)}, exprs


# {function node: (the module facts it was computed with, `hashed`'s answer)} for the file being processed: a later
# pass reuses the tree of the fixes, where a function no fix touched is the same node object (nodes are immutable)
_ACROSS_PASSES: dict[cst.FunctionDef, tuple[tuple, tuple[set[str], set[cst.BaseExpression]]]] = {}
# `hashing_parameters`' answer for one function, by the facts it was found with (the module's memoized functions,
# its containers, the hashing functions found so far): a function no fix touched is the same node in the next pass
_PARAMETERS_ACROSS_PASSES: dict[cst.FunctionDef, tuple[tuple, set[str]]] = {}


def forget() -> None:
    """Drop the answers kept across passes (the engine calls this after each file)."""
    _ACROSS_PASSES.clear()
    _PARAMETERS_ACROSS_PASSES.clear()


def hashed_once(context: object, function: cst.FunctionDef) -> tuple[set[str], set[cst.BaseExpression]]:
    """`hashed(function)`, computed once per rule context (one pass over one file) and shared by the rules, and
    kept across the passes over one file while the function node is unchanged (the callers do not modify it)."""
    cache = context.__dict__.setdefault("_hashed", {})
    found = cache.get(function)
    if found is None:
        if "_memoized" not in context.__dict__:  # the module's memoized functions, and its dicts and sets
            module = context.module  # type: ignore[attr-defined]
            found_memoized, containers = memoized(module), module_containers(module)
            context.__dict__["_memoized"] = (found_memoized, containers,
                                             hashing_parameters(module, found_memoized, containers))
        facts = context.__dict__["_memoized"]
        kept = _ACROSS_PASSES.get(function)
        if kept is not None and kept[0] == facts:
            found = kept[1]
        else:
            found = hashed(function, *facts)
            _ACROSS_PASSES[function] = (facts, found)
        cache[function] = found
    return found


def read_hashed(context: object, function: cst.FunctionDef, read: cst.CSTNode) -> bool:
    """Whether the value of the name `read` (a read in `function`) is hashed there: a key of a Python dict or a
    member of a set (`names[flag]`, `LABELS.get(flag)` of a module's dict, `{0: "ok"}.get(flag)`, `flag in {0, 2}`,
    `seen.add(i)`; `hashed`). A rule that would make the value a traced array (an `if` made `jnp.where`) must not: a
    JAX array is unhashable (`TypeError`)."""
    return isinstance(read, cst.Name) and read.value in (found := hashed_once(context, function))[0] and read in found[1]


def elements_hashed(rule: cst.MetadataDependent, call: cst.Call) -> bool:
    """Whether the array `call` makes (inside the function `rule` is visiting) has its elements hashed: `call` is
    one of the expressions `hashed` finds, or the value of `name = call` where a read of that binding is (by the
    function's reaching definitions: `user_bounds = {}` then `set(user_bounds)` says nothing of a later
    `user_bounds = np.asarray(...)`). `hashed` runs once per function and pass, shared by the rules through the rule
    context; the rule lists `ParentProvider` and `DataflowProvider`."""
    function = getattr(rule, "current_function", None)
    if function is None:
        return False
    names, exprs = hashed_once(rule.context, function)  # type: ignore[attr-defined]
    if call in exprs:
        return True
    # through arithmetic and method calls on the result (`x = np.asarray(x) * 1.0`, `np.take(a, i).astype(int)`):
    # a JAX result makes those JAX arrays too
    node, parent = call, rule.get_metadata(ParentProvider, call, None)
    while True:
        if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)):
            node = parent
        elif isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value not in _PYTHON_VALUES \
                and isinstance(
                grand := rule.get_metadata(ParentProvider, parent, None), cst.Call) and grand.func is parent:
            node = grand
        else:
            break
        if node in exprs:
            return True
        parent = rule.get_metadata(ParentProvider, node, None)
    if isinstance(parent, cst.Element):  # `a, b = np.arange(n), np.arange(n)`: the name at the call's place
        return _element_bound_hashed(rule, function, parent, names, exprs)
    target: Optional[cst.BaseAssignTargetExpression] = parent.targets[0].target \
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 else None
    # `unique, counts = np.unique(y, return_counts=True)`: each name holds one of the call's arrays
    bound = [target] if isinstance(target, cst.Name) else \
        [e.value for e in target.elements if isinstance(e.value, cst.Name)] if isinstance(target, cst.Tuple) else []
    return _read_hashed(rule, function, parent, bound, names, exprs)  # type: ignore[arg-type]


def _read_hashed(rule: cst.MetadataDependent, function: cst.FunctionDef, assign: cst.Assign,
                 bound: list[cst.BaseExpression], names: set[str], exprs: set[cst.BaseExpression]) -> bool:
    """Whether a read of one of the names `assign` binds (`bound`) is hashed (by the function's reaching
    definitions)."""
    flow = None
    for name in bound:
        if isinstance(name, cst.Name) and name.value in names:
            flow = flow or function_flow(rule, function)
            if any(use in exprs for use in flow.uses(assign, name.value)):  # type: ignore[attr-defined]
                return True
    return False


def _element_bound_hashed(rule: cst.MetadataDependent, function: cst.FunctionDef, element: cst.Element,
                          names: set[str], exprs: set[cst.BaseExpression]) -> bool:
    """For a call that is an item of a tuple or list assigned to names (`a, b = np.arange(n), np.arange(m)`):
    whether a read of the name bound at its place is hashed (with a starred name, `a, *b = ...`, any of them)."""
    sequence = rule.get_metadata(ParentProvider, element, None)
    assign = rule.get_metadata(ParentProvider, sequence, None) if isinstance(sequence, (cst.Tuple, cst.List)) else None
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and assign.value is sequence):
        return False
    target = assign.targets[0].target
    if not isinstance(target, (cst.Tuple, cst.List)):
        return False
    place = next(i for i, e in enumerate(sequence.elements) if e is element)  # type: ignore[union-attr]
    starred = any(isinstance(e, cst.StarredElement) for e in target.elements)
    if not starred and len(target.elements) != len(sequence.elements):  # type: ignore[union-attr]
        return False
    candidates = [e.value for e in target.elements] if starred else [target.elements[place].value]
    return _read_hashed(rule, function, assign, candidates, names, exprs)


def _iterated(iterable: cst.BaseExpression) -> list[cst.BaseExpression]:
    """Where the items of `for v in iterable` come from: the array iterated (`_source`: `a` for `a[1:]`), the arrays
    of arithmetic iterated (`np.unique(y) + 1`), through a regrouping (`sorted(a)`, `list(a)`)."""
    return [_source(part) for part in _operands(_regrouped(iterable))
            if isinstance(part, (cst.Name, cst.Call, cst.Subscript, cst.Attribute))]


def _made_container(expr: cst.BaseExpression) -> bool:
    """Whether `expr` makes a dict or set in place: a display or comprehension (`{0: "ok"}`, `{0, 2}`), or a call
    of a builtin or `collections` container type (`frozenset((0, 1))`, `set([0, 1])`, `dict(pairs)`,
    `collections.Counter(words)`, `dict.fromkeys(keys)`); not a method of that name (`ax.set(...)`)."""
    if isinstance(expr, _DISPLAYS):
        return True
    if not isinstance(expr, cst.Call):
        return False
    func = expr.func
    return isinstance(func, cst.Name) and func.value in _CONTAINERS or _is_container(func) or (
        isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "collections"
        and func.attr.value in _CONTAINERS)


def _is_container(func: cst.BaseExpression) -> bool:
    """`dict.fromkeys`, `collections.Counter`."""
    return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and (
        func.value.value in ("dict", "OrderedDict") and func.attr.value == "fromkeys"
        or func.value.value == "collections" and func.attr.value == "Counter")


def _zipped(value: cst.BaseExpression) -> bool:
    """A `zip(...)` call with arguments."""
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "zip" and bool(value.args)


class _Pending:
    """A key used with the local `container`: it counts if `container` turns out to be a dict or set (or, for a
    membership test, a parameter)."""

    __slots__ = ("container", "key", "membership")

    def __init__(self, container: str, key: cst.BaseExpression, membership: bool = False) -> None:
        self.container, self.key, self.membership = container, key, membership
