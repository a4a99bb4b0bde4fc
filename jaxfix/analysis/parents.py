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


def caught_around(rule: cst.MetadataDependent, node: cst.CSTNode) -> set[str]:
    """The exceptions a `try` around `node` (within its function) catches, by the last part of their names
    (`np.linalg.LinAlgError` -> `LinAlgError`; a bare `except:` -> `BaseException`); only for `node` in a `try` body,
    not in its handlers, `else` or `finally` (`rule` must declare `ParentProvider`)."""
    caught: set[str] = set()
    child, current = node, rule.get_metadata(ParentProvider, node, None)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if isinstance(current, (cst.Try, cst.TryStar)) and child is current.body:
            caught |= caught_by(current)
        child, current = current, rule.get_metadata(ParentProvider, current, None)
    return caught


# the exceptions a handler names when it expects NumPy's `IndexError` for an index out of bounds, which a JAX array
# never raises: it clamps a read's index, and `.at[]` drops an update out of bounds (a catch-all, `except Exception:`,
# is taken as error handling in general: counting it would keep every array indexed in such a `try` NumPy)
OUT_OF_BOUNDS_CATCHERS = frozenset({"IndexError", "LookupError"})


def caught_by(node: "cst.Try | cst.TryStar") -> set[str]:
    """The exceptions the handlers of `node` catch, by the last part of their names (a bare `except:`: BaseException)."""
    caught = set()
    for handler in node.handlers:
        kinds = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
        for kind in kinds:
            value = kind.value if isinstance(kind, cst.Element) else kind
            caught.add("BaseException" if value is None else value.attr.value if isinstance(value, cst.Attribute)
                       else value.value if isinstance(value, cst.Name) else "")
    return caught


def caller_catching(rule: cst.MetadataDependent, function: cst.FunctionDef,
                    catchers: frozenset[str] = OUT_OF_BOUNDS_CATCHERS) -> Optional[str]:
    """Who calls `function` (a function or method of the module) in a `try` whose handlers catch one of
    `catchers`, as a finding names it ("`safe_pick`", "code at module level"), or None: an exception raised in it
    reaches that handler (`try: return pick(a, i)` / `except IndexError:` expects `pick`'s NumPy index out of
    bounds). See `called_in_catching_try`; worked out once per pass and set of catchers (kept on the rule context)."""
    cache = rule.context.__dict__.setdefault("_callers_catching", {})  # type: ignore[attr-defined]
    if catchers not in cache:
        cache[catchers] = called_in_catching_try(rule.context.module, catchers)  # type: ignore[attr-defined]
    caller = cache[catchers].get(function.name.value)
    return caller if caller is None or caller == _MODULE_LEVEL else f"`{caller}`"


_MODULE_LEVEL = "code at module level"


def called_in_catching_try(module: cst.Module, catchers: frozenset[str] = OUT_OF_BOUNDS_CATCHERS) -> dict[str, str]:
    """{function or method name: the function that calls it in a `try` body whose handlers catch one of `catchers`
    ("code at module level" outside functions)} for the module's functions called by name (`pick(a, i)`), as
    methods of `self` (`self.pick(i)`) or through a module-level alias (`get = pick`), or handed on as values
    (`map(pick, idx)`) in such a `try`, and, through them, the module's functions they call or hand on in turn."""
    tries = [*walk.nodes_of(module, cst.Try), *walk.nodes_of(module, cst.TryStar)]
    if not tries:
        return {}
    functions = walk.nodes_of(module, cst.FunctionDef)
    defined: dict[str, list[cst.FunctionDef]] = {}  # (methods of two classes may share a name: both are followed)
    for function in functions:
        defined.setdefault(function.name.value, []).append(function)  # type: ignore[arg-type, attr-defined]
    aliases = {t.target.value: a.value.value for stmt in module.body if isinstance(stmt, cst.SimpleStatementLine)
               for a in stmt.body if isinstance(a, cst.Assign) and isinstance(a.value, cst.Name)
               and a.value.value in defined for t in a.targets if isinstance(t.target, cst.Name)}
    reached: dict[str, str] = {}
    # the caller's name, for the findings: the function whose `try` it is (an inner function's, for a nested one)
    owners = {id(t): f.name.value for f in functions for t in [*walk.nodes_of(f.body, cst.Try),  # type: ignore[attr-defined]
                                                               *walk.nodes_of(f.body, cst.TryStar)]}
    pending: list[tuple[str, str]] = []
    for handled in tries:
        if caught_by(handled) & catchers:  # type: ignore[arg-type]
            caller = owners.get(id(handled), _MODULE_LEVEL)
            pending += [(name, caller) for name in _used_functions(handled.body, defined, aliases)]  # type: ignore[attr-defined]
    while pending:
        name, caller = pending.pop()
        if name in reached:
            continue
        reached[name] = caller
        pending += [(inner, caller) for f in defined[name] for inner in _used_functions(f.body, defined, aliases)]
    return reached


def _used_functions(body: cst.CSTNode, defined: Mapping[str, object], aliases: Mapping[str, str]) -> list[str]:
    """The module functions `body` names (calls or hands on: `f(...)`, `map(f, xs)`, through an alias), and the
    methods it calls or names on `self` (`self.f(...)`)."""
    names = [aliases.get(n.value, n.value) for n in walk.nodes_of(body, cst.Name)]  # type: ignore[attr-defined]
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
