"""Parent of each node, computed when first asked for.

LibCST's `ParentProvider` walks the whole module with a (rebuilding) visitor on every pass, while the rules ask
for the parents of a few nodes they already found, and only on passes that find something. `ParentProvider`
answers the same question (`self.get_metadata(ParentProvider, node, None)`: the parent, or None for the module) and
builds the map with one cheap walk (`jaxfix.walk.parents`) the first time a rule asks. After a pass of fixes the
engine hands the next pass the map `walk.replace` kept up to date (`prime`), so a file is walked for parents once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Mapping, Optional

import libcst as cst
from libcst.metadata import BaseMetadataProvider

from jaxfix import walk
from jaxfix.imports import dotted_name

if TYPE_CHECKING:
    from libcst.metadata import MetadataWrapper


_primed: Optional[tuple[cst.Module, dict[cst.CSTNode, cst.CSTNode]]] = None


def prime(module: cst.Module, parents: dict[cst.CSTNode, cst.CSTNode]) -> None:
    """The parent map of `module` is known (kept up to date by `walk.replace` as fixes rebuilt the tree): the next
    `ParentProvider` over it uses it instead of walking the module again. `parents` may hold entries for nodes
    no longer in `module` (nobody asks about those)."""
    global _primed
    _primed = (module, parents)


def forget() -> None:
    global _primed
    _primed = None


class _LazyParents(Mapping[cst.CSTNode, cst.CSTNode]):
    def __init__(self, module: cst.Module) -> None:
        global _primed
        self._module = module
        self._map: Optional[dict[cst.CSTNode, cst.CSTNode]] = None
        if _primed is not None and _primed[0] is module:
            self._map = _primed[1]
            _primed = None

    def mapping(self) -> dict[cst.CSTNode, cst.CSTNode]:
        """The whole map (built now if no rule asked before)."""
        if self._map is None:
            self._map = walk.parents(self._module)
        return self._map

    def __getitem__(self, node: cst.CSTNode) -> cst.CSTNode:
        return self.mapping()[node]

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self.mapping())

    def __len__(self) -> int:
        return len(self.mapping())


class ParentProvider(BaseMetadataProvider[cst.CSTNode]):
    """node -> its parent node (the module has none)."""

    def _gen(self, wrapper: "MetadataWrapper") -> Mapping[cst.CSTNode, cst.CSTNode]:  # type: ignore[override]
        return _LazyParents(wrapper.module)


def enclosing_statement(rule: cst.MetadataDependent, node: cst.CSTNode) -> Optional[cst.CSTNode]:
    """The SimpleStatementLine or compound statement that holds `node` (itself, if it is one); None when there is
    none (`rule` must declare `ParentProvider`)."""
    current: Optional[cst.CSTNode] = node
    while current is not None and not isinstance(current, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
        current = rule.get_metadata(ParentProvider, current, None)
    return current


def enclosing_class(rule: cst.MetadataDependent, function: Optional[cst.CSTNode]) -> Optional[cst.ClassDef]:
    """The class `function` is a method of (defined directly in its body), else None."""
    cls = rule.get_metadata(ParentProvider, function, None) if function is not None else None
    cls = rule.get_metadata(ParentProvider, cls, None) if isinstance(cls, cst.IndentedBlock) else cls
    return cls if isinstance(cls, cst.ClassDef) else None


def caught_around(rule: cst.MetadataDependent, node: cst.CSTNode) -> set[str]:
    """The exceptions a `try` around `node` (within its function) catches, by the last part of their names
    (`np.linalg.LinAlgError` -> `LinAlgError`; a bare `except:` -> `BaseException`); only for `node` in a `try` body,
    not in its handlers, `else` or `finally`; a `with contextlib.suppress(...)` block is such a `try` (`catching`)
    (`rule` must declare `ParentProvider`)."""
    caught: set[str] = set()
    child, current = node, rule.get_metadata(ParentProvider, node, None)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if isinstance(current, (cst.Try, cst.TryStar, cst.With)) and child is current.body:
            caught |= caught_by(current, exception_names(rule.context.module))  # type: ignore[attr-defined]
        child, current = current, rule.get_metadata(ParentProvider, current, None)
    return caught


# the exceptions a handler names when it expects NumPy's `IndexError` for an index out of bounds, which a JAX array
# never raises: it clamps a read's index, and `.at[]` drops an update out of bounds (a catch-all, `except Exception:`,
# is taken as error handling in general: counting it would keep every array indexed in such a `try` NumPy)
OUT_OF_BOUNDS_CATCHERS = frozenset({"IndexError", "LookupError"})


def catching(node: cst.CSTNode) -> list["cst.Try | cst.TryStar | cst.With"]:
    """The blocks in `node` that catch exceptions raised in their bodies: `try` statements (`except*` too), and
    `with` statements that suppress some (`with contextlib.suppress(ValueError):`, `with suppress(E):`), which
    `caught_by` reads alike."""
    withs = [w for w in walk.nodes_of(node, cst.With) if _suppressed(w)]  # type: ignore[arg-type]
    return [*walk.nodes_of(node, cst.Try), *walk.nodes_of(node, cst.TryStar), *withs]  # type: ignore[list-item]


def _suppressed(node: cst.With) -> list[cst.BaseExpression]:
    """The exceptions the `suppress(...)` items of the `with` statement `node` name, as written."""
    return [a.value for item in node.items if isinstance(item.item, cst.Call)
            and dotted_name(item.item.func).split(".")[-1] == "suppress" for a in item.item.args if not a.star]


def caught_by(node: "cst.Try | cst.TryStar | cst.With", names: Mapping[str, frozenset[str]] = {}) -> set[str]:
    """The exceptions the handlers of `node` catch, by the last part of their names (a bare `except:`: BaseException;
    for a `with` statement, those its `contextlib.suppress(...)` items name); a name bound to exceptions (`names`, see
    `exception_names`: `MISSING = (IndexError, KeyError)`, then `except MISSING:`) counts as what it is bound to."""
    caught = set()
    handlers = [_suppressed(node)] if isinstance(node, cst.With) else [
        h.type.elements if isinstance(h.type, cst.Tuple) else [h.type] for h in node.handlers]
    for kinds in handlers:
        for kind in kinds:
            value = kind.value if isinstance(kind, cst.Element) else kind
            if isinstance(value, cst.Name) and value.value in names:
                caught |= names[value.value]
                continue
            caught.add("BaseException" if value is None else value.attr.value if isinstance(value, cst.Attribute)
                       else value.value if isinstance(value, cst.Name) else "")
    return caught


# the methods of an array that raise `IndexError` for an index out of bounds (a JAX array's `.take` fills with nan)
INDEXING_METHODS = frozenset({"take"})


def indexed_names(body: cst.CSTNode, by_index: bool) -> list[cst.Name]:
    """The Name nodes of `body` that are indexed, or computed into what is indexed by arithmetic: `c[i]`, `(c * 2)[i]`,
    `c.take(i)`; only those indexed by an index somewhere (not only slices: a slice never raises) if `by_index`."""
    found: list[cst.Name] = []
    for subscript in walk.nodes_of(body, cst.Subscript):
        if not by_index or any(isinstance(e.slice, cst.Index) for e in subscript.slice):  # type: ignore[attr-defined]
            found += _operands(subscript.value)  # type: ignore[attr-defined]
    for call in walk.nodes_of(body, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if isinstance(func, cst.Attribute) and func.attr.value in INDEXING_METHODS and call.args:  # type: ignore[attr-defined]
            found += _operands(func.value)
    return found


def _operands(value: cst.BaseExpression) -> list[cst.Name]:
    """`value` if it is a Name, else the Names it is computed from by arithmetic (`c * 2`, `-c`)."""
    if isinstance(value, cst.Name):
        return [value]
    if isinstance(value, cst.BinaryOperation):
        return _operands(value.left) + _operands(value.right)
    if isinstance(value, cst.UnaryOperation):
        return _operands(value.expression)
    return []


_named: Optional[tuple[cst.Module, dict[str, frozenset[str]]]] = None


def exception_names(module: cst.Module) -> Mapping[str, frozenset[str]]:
    """{name: the exceptions it is bound to, by the last part of their names} for the names the module binds, at any
    level (by name, not scope: every binding of a name counts), to a tuple of exceptions (`MISSING = (IndexError,
    KeyError)`, `errors = (np.linalg.LinAlgError, ValueError)`) or to one (`Singular = np.linalg.LinAlgError`), for
    `caught_by`; a tuple may hold such a name bound before. Worked out once per module (the last one asked)."""
    global _named
    if _named is not None and _named[0] is module:
        return _named[1]
    found: dict[str, frozenset[str]] = {}
    # (annotated too: `MISSING: tuple = (IndexError, KeyError)`)
    bindings = [*walk.nodes_of(module, cst.Assign), *(a for a in walk.nodes_of(module, cst.AnnAssign) if a.value is not None)]  # type: ignore[attr-defined]
    for assign in bindings:
        value = assign.value  # type: ignore[attr-defined]
        kinds = [e.value for e in value.elements] if isinstance(value, cst.Tuple) else [value]
        if not all(isinstance(k, (cst.Name, cst.Attribute)) for k in kinds) or isinstance(value, cst.Name) \
                and not value.value[:1].isupper():  # (`get = pick`: not an exception; `Err = IndexError` is)
            continue
        names = frozenset().union(*(found.get(k.value, {k.value}) if isinstance(k, cst.Name) else {k.attr.value}
                                    for k in kinds))
        targets = [t.target for t in assign.targets] if isinstance(assign, cst.Assign) else [assign.target]  # type: ignore[attr-defined]
        for target in targets:
            if isinstance(target, cst.Name):
                found[target.value] = found.get(target.value, frozenset()) | names
    _named = (module, found)
    return found


def caller_catching(rule: cst.MetadataDependent, function: cst.FunctionDef,
                    catchers: frozenset[str] = OUT_OF_BOUNDS_CATCHERS, direct: bool = False) -> Optional[str]:
    """Who calls `function` (a function or method of the module) in a `try` whose handlers catch one of
    `catchers`, as a finding names it ("`safe_pick`", "code at module level"), or None: an exception raised in it
    reaches that handler (`try: return pick(a, i)` / `except IndexError:` expects `pick`'s NumPy index out of
    bounds). See `called_in_catching_try` (`direct`: only the functions such a `try` body calls itself); worked out
    once per pass, set of catchers and `direct` (kept on the rule context)."""
    cache = rule.context.__dict__.setdefault("_callers_catching", {})  # type: ignore[attr-defined]
    if (catchers, direct) not in cache:
        cache[catchers, direct] = called_in_catching_try(rule.context.module, catchers, direct)  # type: ignore[attr-defined]
    caller = cache[catchers, direct].get(function.name.value)
    return caller if caller is None or caller == _MODULE_LEVEL else f"`{caller}`"


_MODULE_LEVEL = "code at module level"


def called_in_catching_try(module: cst.Module, catchers: frozenset[str] = OUT_OF_BOUNDS_CATCHERS,
                           direct: bool = False) -> dict[str, str]:
    """{function or method name: the function that calls it in a `try` body whose handlers catch one of `catchers`
    ("code at module level" outside functions)} for the module's functions called by name (`pick(a, i)`), as
    methods of `self` (`self.pick(i)`) or through a name bound to it at module level or in the caller (`get = pick`,
    `f = partial(chol, a)`, `f = lambda s: chol(a, s)`), or handed on as values (`map(pick, idx)`) in such a `try`,
    and, through them, the module's functions they call or hand on in turn. `direct`: only the functions the `try`
    bodies call themselves (`f(...)`, `obj.f(...)`, through a name bound to one), not those named otherwise (an
    attribute `args.scale` is no call of `scale`) nor what they call in turn."""
    tries = catching(module)
    if not tries:
        return {}
    functions = walk.nodes_of(module, cst.FunctionDef)
    defined: dict[str, list[cst.FunctionDef]] = {}  # (methods of two classes may share a name: both are followed)
    for function in functions:
        defined.setdefault(function.name.value, []).append(function)  # type: ignore[arg-type, attr-defined]
    aliases = _function_names([a for stmt in module.body if isinstance(stmt, cst.SimpleStatementLine)
                               for a in stmt.body if isinstance(a, cst.Assign)], defined)
    reached: dict[str, str] = {}
    # the caller's name, for the findings: the function whose `try` it is (an inner function's, for a nested one)
    owners = {id(t): f for f in functions for t in catching(f.body)}  # type: ignore[attr-defined]
    names = exception_names(module)
    pending: list[tuple[str, str]] = []
    for handled in tries:
        if caught_by(handled, names) & catchers:  # type: ignore[arg-type]
            owner = owners.get(id(handled))
            caller = owner.name.value if owner is not None else _MODULE_LEVEL  # type: ignore[attr-defined]
            bound = aliases if owner is None else {  # `get = pick` before the `try`
                **aliases, **_function_names(walk.nodes_of(owner.body, cst.Assign), defined)}  # type: ignore[attr-defined, arg-type]
            used = _called_functions(handled.body, defined, bound) if direct else _used_functions(handled.body, defined, bound)  # type: ignore[attr-defined]
            pending += [(name, caller) for name in used]
    if direct:
        for name, caller in pending:
            reached.setdefault(name, caller)
        return reached
    while pending:
        name, caller = pending.pop()
        if name in reached:
            continue
        reached[name] = caller
        pending += [(inner, caller) for f in defined[name] for inner in _used_functions(f.body, defined, aliases)]
    return reached


def _function_names(assigns: list[cst.Assign], defined: Mapping[str, object]) -> dict[str, list[str]]:
    """{name: the module functions it is bound to} for `assigns` to one name of a module function (`get = pick`), a
    `partial` of one (`f = partial(chol, a)`) or a lambda calling some (`f = lambda s: chol(a, s)`)."""
    found: dict[str, list[str]] = {}
    for assign in assigns:
        value = assign.value
        if isinstance(value, cst.Call) and value.args and (
                isinstance(value.func, cst.Name) and value.func.value == "partial"
                or isinstance(value.func, cst.Attribute) and value.func.attr.value == "partial"):
            value = value.args[0].value
        named = [value.value] if isinstance(value, cst.Name) and value.value in defined else \
            _used_functions(value.body, defined, {}) if isinstance(value, cst.Lambda) else []
        for target in assign.targets if named else ():
            if isinstance(target.target, cst.Name):
                found.setdefault(target.target.value, []).extend(named)
    return found


def _called_functions(body: cst.CSTNode, defined: Mapping[str, object], aliases: Mapping[str, list[str]]) -> list[str]:
    """The module functions and methods `body` calls: `f(...)` (through a name bound to one: `aliases`), `obj.f(...)`."""
    found: list[str] = []
    for call in walk.nodes_of(body, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if isinstance(func, cst.Name):
            found += [n for n in aliases.get(func.value, [func.value]) if n in defined]
        elif isinstance(func, cst.Attribute) and func.attr.value in defined:
            found.append(func.attr.value)
    return found


def _used_functions(body: cst.CSTNode, defined: Mapping[str, object], aliases: Mapping[str, list[str]]) -> list[str]:
    """The module functions `body` names (calls or hands on: `f(...)`, `map(f, xs)`, through an alias), and the
    methods it calls or names on `self` (`self.f(...)`)."""
    names = [name for n in walk.nodes_of(body, cst.Name) for name in aliases.get(n.value, [n.value])]  # type: ignore[attr-defined]
    names += [a.attr.value for a in walk.nodes_of(body, cst.Attribute)  # type: ignore[attr-defined]
              if isinstance(a.value, cst.Name) and a.value.value == "self"]  # type: ignore[attr-defined]
    return [name for name in names if name in defined]


# types whose instances are Python numbers (a traced value is never one)
NUMBER_TYPES = {"int", "float", "complex", "bool", "Integral", "Real", "Number", "Rational", "Complex"}


def isinstance_guards(rule: cst.MetadataDependent, node: cst.CSTNode) -> dict[str, list[set[str]]]:
    """{name: the type names of each test} for the `isinstance(name, T)` tests (`T` a type or a tuple of types, as
    their last dotted part) that are `and`-ed parts of the test of an `if` around `node` (within its function, `node`
    in its body). `rule` must declare `ParentProvider`."""
    found: dict[str, list[set[str]]] = {}
    child, current = node, rule.get_metadata(ParentProvider, node, None)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if isinstance(current, cst.If) and child is current.body:
            parts, conjuncts = [current.test], []
            while parts:
                part = parts.pop()
                if isinstance(part, cst.BooleanOperation) and isinstance(part.operator, cst.And):
                    parts += [part.left, part.right]
                else:
                    conjuncts.append(part)
            for part in conjuncts:
                if isinstance(part, cst.Call) and isinstance(part.func, cst.Name) and part.func.value == "isinstance" \
                        and len(part.args) == 2 and isinstance(part.args[0].value, cst.Name):
                    kinds = part.args[1].value
                    elements = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
                    types = {e.attr.value if isinstance(e, cst.Attribute) else getattr(e, "value", "") for e in elements}
                    found.setdefault(part.args[0].value.value, []).append(types)
        child, current = current, rule.get_metadata(ParentProvider, current, None)
    return found


def number_guarded(rule: cst.MetadataDependent, node: cst.CSTNode) -> set[str]:
    """The names an `if` around `node` tests with `isinstance(name, int)` (or `float`, `numbers.Integral`, ... or a
    tuple of them; see `isinstance_guards`): there they are Python numbers, never traced (`if k >= 1 and
    isinstance(k, int): rank = min(k, n)`, pydmd's `_compute_rank`)."""
    return {name for name, tests in isinstance_guards(rule, node).items()
            if any(types and types <= NUMBER_TYPES for types in tests)}


# builtins that iterate their first argument (a number raises `TypeError` there)
ITERATING_BUILTINS = frozenset({"iter", "len", "list", "tuple", "set", "sorted", "enumerate", "zip", "reversed"})
# what a handler must catch to run when iterating a number fails (`TypeError: 'int' object is not iterable`)
_ITERATION_ERRORS = frozenset({"TypeError", "Exception", "BaseException"})


def iteration_fallback(rule: cst.MetadataDependent, node: cst.CSTNode) -> set[str]:
    """The names whose iteration the `try` of an `except` handler around `node` attempted (within its function,
    `node` in the handler, which catches `TypeError`, or is bare or a catch-all): `try: return [i % n for i in
    indices]`, `except TypeError: return indices % n` (spectral's `_fix_negative_indices`). There the value is what
    the `try` could not iterate: by design a Python number (a list or a number is accepted), though a 0-d array
    fails too. Iterating is a `for` (or comprehension) over the name, or a builtin that iterates it (`len(name)`,
    `list(name)`: `ITERATING_BUILTINS`). `rule` must declare `ParentProvider`."""
    found: set[str] = set()
    child, current = node, rule.get_metadata(ParentProvider, node, None)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if isinstance(current, cst.ExceptHandler):
            statement = rule.get_metadata(ParentProvider, current, None)
            if isinstance(statement, cst.Try) and caught_by(
                    cst.Try(body=statement.body, handlers=[current])) & _ITERATION_ERRORS:  # this handler only
                found |= iterated_names(statement.body)
        child, current = current, rule.get_metadata(ParentProvider, current, None)
    return found


def iterated_names(body: cst.CSTNode) -> set[str]:
    """The names `body` iterates: `for v in name`, `[... for v in name]`, `len(name)`, `list(name)`."""
    found = {n.iter.value for kind in (cst.For, cst.CompFor) for n in walk.nodes_of(body, kind)  # type: ignore[attr-defined]
             if isinstance(n.iter, cst.Name)}  # type: ignore[attr-defined]
    found |= {c.args[0].value.value for c in walk.nodes_of(body, cst.Call)  # type: ignore[attr-defined]
              if isinstance(c.func, cst.Name) and c.func.value in ITERATING_BUILTINS and c.args  # type: ignore[attr-defined]
              and not c.args[0].star and c.args[0].keyword is None and isinstance(c.args[0].value, cst.Name)}  # type: ignore[attr-defined]
    return found
