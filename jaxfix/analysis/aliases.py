"""What each name in a function is bound to, for the in-place update rules: a fresh array, a parameter (visible to
the caller), an alias or a view of another name, a container, or something unknown.

Every binding refers to one or more memory *objects*: `("fresh", n)` (an array created in the function),
`("param", p)`, `("global", g)` (a name the function does not bind), `("unknown", n)` (the result of a call we know
nothing about) and `("container", n)` (a list, dict, set, tuple or scalar: never an array). `y = x` and `y = x[0]`
(a view) make `y` refer to `x`'s objects, so two names *share memory* when their objects intersect. Objects stored
in a container or an attribute (`self.w = x`, `xs.append(x)`, `pair = (x, y)`) *escape*: an update is then visible
through that container too.

The analysis is a small abstract interpretation over the statements in order, with a set of possible bindings per
name: `if`/`else` branches are merged (union), loop bodies run twice so that a binding made in one iteration reaches
the next. `FunctionAliases.at(stmt)` gives the state just before a statement. It is computed once per FunctionDef
(metadata on the FunctionDef node); nested functions and classes are analysed separately.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable, Optional, Union

import libcst as cst
from libcst._metadata_dependent import LazyValue  # what LibCST's own lazy providers use (not re-exported)
from libcst.metadata import BatchableMetadataProvider

from jaxfix import walk
from jaxfix.analysis.numpy_names import NumpyNameProvider
from jaxfix.imports import dotted_name

Obj = tuple[str, Union[str, int]]


class Kind(Enum):
    FRESH = "fresh"  # a new array made here
    PARAM = "param"
    ALIAS = "alias"  # y = x
    VIEW = "view"  # y = x[0], x.T, x.reshape(...), np.asarray(x)
    CONTAINER = "container"  # not an array
    INT = "int"  # a Python number: loop counter over range, int(...), len(...), a number literal
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Binding:
    kind: Kind
    objects: frozenset = frozenset()
    source: Optional[str] = None  # ALIAS / VIEW: the name it came from
    rank: Optional[int] = None  # FRESH arrays whose number of dimensions is known


# Methods returning a view of their object; everything else on an array returns a new value.
VIEW_METHODS = {"reshape", "ravel", "view", "transpose", "swapaxes", "squeeze", "diagonal"}
VIEW_ATTRIBUTES = {"T", "mT", "real", "imag", "flat"}
COPY_METHODS = {
    "copy", "astype", "flatten", "sum", "mean", "std", "var", "max", "min", "prod", "cumsum", "cumprod", "dot",
    "clip", "round", "conj", "argmax", "argmin", "argsort", "repeat", "take", "all", "any", "nonzero", "trace",
}
NUMPY_VIEWS = {
    "asarray", "asanyarray", "ascontiguousarray", "ravel", "reshape", "transpose", "squeeze", "expand_dims", "moveaxis",
    "swapaxes", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_to", "diagonal", "real", "imag", "flip", "fliplr", "flipud",
    "rot90", "rollaxis", "matrix_transpose", "permute_dims", "asfortranarray", "require", "trim_zeros",
    "diag",  # of a 2-D array: its diagonal, a view (of a 1-D one a new array; taken as a view all the same)
    # lists (or tuples) of views of the array: `np.split(res, 3)[0]` is a view of `res`
    "split", "array_split", "hsplit", "vsplit", "dsplit", "unstack", "broadcast_arrays",
}
RANK_ONE = {"arange", "linspace", "logspace", "geomspace"}
SHAPED = {"zeros", "ones", "empty", "full"}
CONTAINER_CALLS = {"list", "dict", "set", "tuple", "frozenset", "range", "enumerate", "zip", "str", "float", "bool"}
INT_CALLS = {"int", "len"}


@dataclass
class State:
    names: dict[str, frozenset] = field(default_factory=dict)  # name -> frozenset[Binding]
    escaped: frozenset = frozenset()  # objects reachable from a container or an attribute

    def copy(self) -> "State":
        return State(dict(self.names), self.escaped)

    def merge(self, other: "State") -> "State":
        names = dict(self.names)
        for name, bindings in other.names.items():
            names[name] = names.get(name, frozenset()) | bindings
        return State(names, self.escaped | other.escaped)


class FunctionAliases:
    """Facts about one function; `stmt` is any statement of its body (nested blocks included)."""

    def __init__(self, params: Iterable[str], declared_global: set[str]) -> None:
        self.params = tuple(params)
        self.declared_global = declared_global
        self.before: dict[cst.CSTNode, State] = {}
        self.range_arguments: set[str] = set()  # names passed directly to range(...)
        self.generator = False  # the function yields
        # objects a `yield` hands to the consumer, which sees NumPy's later in-place updates (flow-insensitive: in a
        # loop, `x[i] = v; yield x` hands over the array the next iteration's write changes)
        self.yielded: frozenset = frozenset()

    def bindings(self, stmt: cst.CSTNode, name: str) -> frozenset:
        """The possible bindings of `name` just before `stmt`; empty when the function never bound it there."""
        state = self.before.get(stmt)
        if state is None or name in self.declared_global:
            return frozenset()
        return state.names.get(name, frozenset())

    def objects(self, stmt: cst.CSTNode, name: str) -> frozenset:
        found: set = set()
        for binding in self.bindings(stmt, name):
            found |= binding.objects
        return frozenset(found) if found else frozenset({("global", name)})

    def sharers(self, stmt: cst.CSTNode, name: str) -> frozenset[str]:
        """Other names that may refer to the same memory as `name` just before `stmt` (aliases, views, bases)."""
        state = self.before.get(stmt)
        mine = self.objects(stmt, name)
        if state is None:
            return frozenset()
        out = set()
        for other, bindings in state.names.items():
            if other == name:
                continue
            theirs: set = set()
            for binding in bindings:
                if binding.kind not in (Kind.CONTAINER, Kind.INT):
                    theirs |= binding.objects
            if theirs & mine:
                out.add(other)
        return frozenset(out)

    def escaped(self, stmt: cst.CSTNode, name: str) -> bool:
        state = self.before.get(stmt)
        return state is not None and bool(self.objects(stmt, name) & (state.escaped | self.yielded))

    def handed_out(self, stmt: cst.CSTNode, name: str) -> bool:
        """Whether `name` (just before `stmt`) may be an array the function yields to its consumer."""
        return bool(self.yielded) and bool(self.objects(stmt, name) & self.yielded)

    def kinds(self, stmt: cst.CSTNode, name: str) -> set[str]:
        """The kinds of memory `name` may refer to: "fresh", "param", "global", "unknown", "container", "int"."""
        return {kind for kind, _ in self.objects(stmt, name)}

    def full_alias(self, stmt: cst.CSTNode, name: str, other: str) -> bool:
        """Whether `name` and `other` are certainly the same whole array (one array created in the function, neither
        name a view of it, neither stored elsewhere), so that rebinding both keeps NumPy's sharing exactly."""
        mine, theirs = self.bindings(stmt, name), self.bindings(stmt, other)
        if not mine or not theirs or any(b.kind not in (Kind.FRESH, Kind.ALIAS) for b in (*mine, *theirs)):
            return False
        objects = self.objects(stmt, name)
        return len(objects) == 1 and next(iter(objects))[0] == "fresh" and objects == self.objects(stmt, other)

    def is_int(self, stmt: cst.CSTNode, name: str) -> bool:
        """`name` holds a Python int: bound to one, or a parameter passed to `range(...)` (which requires an int)."""
        bindings = self.bindings(stmt, name)
        if bindings and all(b.kind is Kind.PARAM for b in bindings):
            return name in self.range_arguments
        return bool(bindings) and all(b.kind is Kind.INT for b in bindings)

    def rank(self, stmt: cst.CSTNode, name: str) -> Optional[int]:
        ranks = {b.rank for b in self.bindings(stmt, name)}
        return ranks.pop() if len(ranks) == 1 else None


class AliasProvider(BatchableMetadataProvider[FunctionAliases]):
    """Metadata on each FunctionDef: its `FunctionAliases`."""

    METADATA_DEPENDENCIES = (NumpyNameProvider,)

    def visit_Module(self, node: cst.Module) -> None:
        # jax.numpy names too: after JX501 turns `np.asarray(x)` into `jnp.asarray(x)`, the result is still the
        # same array as `x` (jnp.asarray does not copy a JAX array), so a write through it must stay a view write
        from jaxfix.imports import ModuleImports

        imports = ModuleImports.read(node)
        self.jnp_aliases = {imports.jnp_alias} if imports.jnp_alias else set()
        # kept for the lazy analyses below, which run after this provider's traversal (when `get_metadata` no
        # longer answers)
        self._numpy_names = self.metadata[NumpyNameProvider]

    def numpy_name_of(self, node: cst.CSTNode) -> Optional[str]:
        value = self._numpy_names.get(node)
        return value() if isinstance(value, LazyValue) else value  # type: ignore[no-any-return]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        # computed when a rule first asks (an in-place update to judge): most functions are never asked about
        self.set_metadata(node, LazyValue(functools.partial(self._analyse, node)))

    def _analyse(self, node: cst.FunctionDef) -> FunctionAliases:
        params = node.params
        names = [p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)]
        stars = [star.name.value for star in (params.star_arg, params.star_kwarg) if isinstance(star, cst.Param)]
        names.extend(stars)
        declared: set[str] = set()
        ranged: set[str] = set()
        generator = False
        for small in _walk_own(node.body):
            kind = small.__class__
            if kind is cst.Global or kind is cst.Nonlocal:
                declared.update(n.name.value for n in small.names)  # type: ignore[attr-defined]
            elif kind is cst.Call and isinstance(small.func, cst.Name) and small.func.value == "range":  # type: ignore[attr-defined]
                ranged.update(a.value.value for a in small.args if isinstance(a.value, cst.Name) and not a.star)
            elif kind is cst.Yield:
                generator = True
        facts = FunctionAliases(names, declared)
        facts.range_arguments = ranged
        facts.generator = generator
        state = State({p: frozenset({Binding(Kind.PARAM, frozenset({("param", p)}))}) for p in names})
        for p in stars:  # `*args` is a tuple and `**kwargs` a dict (`kw = kwargs.copy(); kw['x'] = v`), never arrays
            state.names[p] = frozenset({Binding(Kind.CONTAINER, frozenset({("container", p)}))})
        _Interpreter(self, facts).block(node.body, state)
        return facts


def _walk_own(node: cst.CSTNode) -> Iterable[cst.CSTNode]:
    """Nodes of a function body in pre-order, not descending into nested functions, classes or lambdas, and
    leaving out whitespace and punctuation (iterative: nested generators cost a frame per level for every node)."""
    stack = list(walk.children_without_tokens(node)[::-1])
    nested = _NESTED
    while stack:
        child = stack.pop()
        if child.__class__ in nested:
            continue
        yield child
        stack.extend(walk.children_without_tokens(child)[::-1])


_NESTED = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda})


class _Interpreter:
    def __init__(self, provider: AliasProvider, facts: FunctionAliases) -> None:
        self.provider = provider
        self.facts = facts

    # ---- statements -----------------------------------------------------------------------------------------
    def block(self, body: Union[cst.BaseSuite, Iterable[cst.BaseStatement]], state: State) -> State:
        statements = body.body if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else body
        for stmt in statements:
            state = self.statement(stmt, state)
        return state

    def statement(self, stmt: cst.CSTNode, state: State) -> State:
        previous = self.facts.before.get(stmt)
        self.facts.before[stmt] = state.copy() if previous is None else previous.merge(state)
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                state = self.small(small, state)
            return state
        if isinstance(stmt, (cst.SimpleStatementSuite, cst.IndentedBlock)):
            return self.block(stmt, state)
        if isinstance(stmt, cst.If):
            then = self.block(stmt.body, state.copy())
            other = self.orelse(stmt.orelse, state.copy())
            return then.merge(other)
        if isinstance(stmt, (cst.For, cst.While)):
            entry = state.copy()
            if isinstance(stmt, cst.For):
                self.bind_target(stmt.target, self.loop_item(stmt.iter, state), state, stmt)
            once = self.block(stmt.body, state.copy())
            again = self.block(stmt.body, entry.merge(once))
            out = entry.merge(once).merge(again)
            return self.orelse(stmt.orelse, out)
        if isinstance(stmt, cst.Try):
            out = self.block(stmt.body, state.copy())
            for handler in stmt.handlers:
                out = out.merge(self.block(handler.body, state.merge(out)))
            if stmt.orelse is not None:
                out = out.merge(self.block(stmt.orelse.body, out))
            if stmt.finalbody is not None:
                out = self.block(stmt.finalbody.body, out)
            return out
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                if item.asname is not None:
                    self.bind_target(item.asname.name, self.unknown(item), state, stmt)
            return self.block(stmt.body, state)
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            state.names[stmt.name.value] = frozenset({Binding(Kind.CONTAINER, frozenset({("container", id(stmt))}))})
        return state

    def orelse(self, orelse: Optional[cst.CSTNode], state: State) -> State:
        if orelse is None:
            return state
        if isinstance(orelse, cst.If):
            return self.statement(orelse, state)
        return self.block(orelse.body, state)

    def small(self, small: cst.BaseSmallStatement, state: State) -> State:
        if self.facts.generator:
            for node in _walk_own(small):
                if isinstance(node, cst.Yield) and isinstance(node.value, cst.BaseExpression):
                    self.facts.yielded |= self.objects_of(node.value, state)  # `yield x`; not `yield from`
        if isinstance(small, cst.Assign):
            value = self.value(small.value, state)
            for target in small.targets:
                self.bind_target(target.target, value, state, small)
            self.note_escapes([t.target for t in small.targets], small.value, state)
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            self.bind_target(small.target, self.value(small.value, state), state, small)
            self.note_escapes([small.target], small.value, state)
        elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
            if small.target.value not in state.names:
                state.names[small.target.value] = frozenset({self.value(small.target, state)})
        elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            func = small.value.func
            # `xs.append(x)`, `self.seen.add(x)`: the object keeps `x`; `np.add(a, b, out=c)` is a NumPy function
            if isinstance(func, cst.Attribute) and func.attr.value in ("append", "extend", "insert", "add", "update") and (
                self.provider.numpy_name_of(func) is None and dotted_name(func.value) not in self.provider.jnp_aliases
            ):
                for arg in small.value.args:
                    state.escaped |= self.objects_of(arg.value, state)
        return state

    def note_escapes(self, targets: list[cst.BaseExpression], value: cst.BaseExpression, state: State) -> None:
        stored = any(isinstance(t, cst.Attribute) or isinstance(t, cst.Subscript) and not self._array_item(t, state) for t in targets)
        packed = isinstance(value, (cst.List, cst.Tuple, cst.Dict, cst.Set)) and any(
            isinstance(t, cst.Name) for t in targets
        )  # `pair = (x, y)` holds references; `a, b = b, a` only unpacks
        if stored or packed:
            state.escaped |= self.objects_of(value, state)

    def _array_item(self, target: cst.Subscript, state: State) -> bool:
        """`a[i] = v` where `a` is surely a fresh array (or a view or alias of one): NumPy copies `v`'s values into
        it, keeping no reference to `v`, so `v` does not escape (a list or a dict item would hold `v` itself)."""
        base = target.value
        while isinstance(base, cst.Subscript):
            base = base.value
        if not isinstance(base, cst.Name):
            return False
        bindings = state.names.get(base.value, frozenset())
        return bool(bindings) and all(b.kind in (Kind.FRESH, Kind.VIEW, Kind.ALIAS) for b in bindings)

    def objects_of(self, expr: cst.BaseExpression, state: State) -> frozenset:
        found: set = set()
        if isinstance(expr, cst.Name):
            for binding in state.names.get(expr.value, frozenset()):
                if binding.kind not in (Kind.CONTAINER, Kind.INT):
                    found |= binding.objects
        elif isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            for element in expr.elements:
                found |= self.objects_of(element.value, state)
        elif isinstance(expr, cst.Dict):
            for element in expr.elements:
                if isinstance(element, cst.DictElement):
                    found |= self.objects_of(element.value, state)
        else:
            view = self.value(expr, state)
            if view.kind in (Kind.VIEW, Kind.ALIAS):
                found |= view.objects
        return frozenset(found)

    def bind_target(self, target: cst.BaseExpression, value: Binding, state: State, where: cst.CSTNode) -> None:
        if isinstance(target, cst.Name):
            state.names[target.value] = frozenset({value})
        elif isinstance(target, (cst.Tuple, cst.List)):
            items = value.items if isinstance(value, _TupleValue) else None
            for index, element in enumerate(target.elements):
                item = items[index] if items is not None and index < len(items) else self.unknown(where, index)
                self.bind_target(element.value, item, state, where)

    def loop_item(self, iterable: cst.BaseExpression, state: State) -> Binding:
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value == "range":
            return Binding(Kind.INT, frozenset({("container", id(iterable))}))
        if isinstance(iterable, cst.Name):  # `for row in X`: each row is a view of X
            base = self.value(iterable, state)
            if base.kind not in (Kind.CONTAINER, Kind.INT, Kind.UNKNOWN):
                return Binding(Kind.VIEW, base.objects, source=iterable.value)
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and iterable.func.value in ("enumerate", "zip") \
                and iterable.args and not any(a.star for a in iterable.args):
            # `for k, row in enumerate(X)`, `for a, b in zip(X, Y)`: rows of X (and Y) as above
            sequences = [a.value for a in iterable.args if a.keyword is None]
            items = [self.loop_item(v, state) for v in sequences[:1 if iterable.func.value == "enumerate" else None]]
            if iterable.func.value == "enumerate":
                items.insert(0, Binding(Kind.INT, frozenset({("container", id(iterable))})))
            return _TupleValue(Kind.CONTAINER, frozenset({("container", id(iterable))}), items=tuple(items))
        return self.unknown(iterable)

    def unknown(self, node: cst.CSTNode, index: int = 0) -> Binding:
        return Binding(Kind.UNKNOWN, frozenset({("unknown", f"{id(node)}:{index}")}))

    # ---- expressions ----------------------------------------------------------------------------------------
    def value(self, expr: cst.BaseExpression, state: State) -> Binding:
        fresh = Binding(Kind.FRESH, frozenset({("fresh", id(expr))}))
        container = Binding(Kind.CONTAINER, frozenset({("container", id(expr))}))
        if isinstance(expr, cst.Name):
            bindings = state.names.get(expr.value)
            if bindings is None:
                return Binding(Kind.ALIAS, frozenset({("global", expr.value)}), source=expr.value)
            objects: set = set()
            for binding in bindings:
                objects |= binding.objects
            if all(b.kind is Kind.INT for b in bindings):
                return Binding(Kind.INT, frozenset(objects))
            if all(b.kind is Kind.CONTAINER for b in bindings):
                return Binding(Kind.CONTAINER, frozenset(objects))
            if any(b.kind is Kind.VIEW for b in bindings):  # an alias of a view is that view
                return Binding(Kind.VIEW, frozenset(objects), source=expr.value)
            ranks = {b.rank for b in bindings}
            return Binding(Kind.ALIAS, frozenset(objects), source=expr.value, rank=ranks.pop() if len(ranks) == 1 else None)
        if isinstance(expr, (cst.Integer, cst.Float)):  # a Python number: `1.0 - a` is an array, not a container
            return Binding(Kind.INT, container.objects)
        if isinstance(expr, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp, cst.GeneratorExp,
                             cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.Lambda)):
            return container
        if isinstance(expr, cst.Tuple):
            return _TupleValue(Kind.CONTAINER, container.objects, items=tuple(self.value(e.value, state) for e in expr.elements))
        if isinstance(expr, cst.Subscript):
            if isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape":
                return Binding(Kind.INT, container.objects)  # `y.shape[0]`: a Python int
            if isinstance(expr.value, cst.Attribute) and expr.value.attr.value in ("r_", "c_") and (
                    self.provider.numpy_name_of(expr.value) is not None or dotted_name(expr.value.value) in self.provider.jnp_aliases):
                return fresh  # `np.r_[a, b]`: a new array, joined
            base = self.value(expr.value, state)
            if base.kind in (Kind.CONTAINER, Kind.UNKNOWN, Kind.INT):
                return self.unknown(expr)
            if _is_basic(expr):
                return Binding(Kind.VIEW, base.objects, source=_root_name(expr.value), rank=self._sliced_rank(expr, base.rank))
            return fresh
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in VIEW_ATTRIBUTES:
                base = self.value(expr.value, state)
                if base.kind in (Kind.CONTAINER, Kind.INT):
                    return self.unknown(expr)
                return Binding(Kind.VIEW, base.objects, source=_root_name(expr.value))
            if expr.attr.value in ("shape", "ndim", "size"):
                return container
            return self.unknown(expr)
        if isinstance(expr, cst.Call):
            return self.call(expr, state, fresh, container)
        if isinstance(expr, cst.BinaryOperation):
            sides = (self.value(expr.left, state), self.value(expr.right, state))
            if any(s.kind is Kind.CONTAINER for s in sides):
                return container  # list repetition or concatenation, string formatting
            if all(s.kind is Kind.INT for s in sides):
                return Binding(Kind.INT, container.objects)
            ranks = {s.rank for s in sides if s.kind is not Kind.INT}
            return Binding(Kind.FRESH, fresh.objects, rank=ranks.pop() if len(ranks) == 1 else None)
        if isinstance(expr, cst.UnaryOperation):
            inner = self.value(expr.expression, state)
            if inner.kind in (Kind.INT, Kind.CONTAINER):
                return inner
            return Binding(Kind.FRESH, fresh.objects, rank=inner.rank)
        if isinstance(expr, cst.IfExp):
            a, b = self.value(expr.body, state), self.value(expr.orelse, state)
            return a if a == b else Binding(Kind.UNKNOWN, a.objects | b.objects)
        if isinstance(expr, cst.Comparison):
            return fresh
        return self.unknown(expr)

    def _sliced_rank(self, expr: cst.Subscript, rank: Optional[int]) -> Optional[int]:
        """The number of axes of `expr`, basic indexing of an array of `rank` axes by slices, integer literals and
        `None`/`np.newaxis` only (`np.zeros(n)[:, None]`: 2); else None."""
        if rank is None:
            return None
        consumed = added = 0
        for element in expr.slice:
            index = element.slice
            if isinstance(index, cst.Slice):
                consumed += 1
                continue
            value = index.value
            if isinstance(value, cst.Name) and value.value == "None" or isinstance(value, cst.Attribute) and (
                    self.provider.numpy_name_of(value) == "numpy.newaxis"):
                added += 1
            elif isinstance(value, cst.Integer) or isinstance(value, cst.UnaryOperation) and isinstance(value.expression, cst.Integer):
                consumed += 1
                added -= 1
            else:
                return None
        return rank + added if consumed <= rank else None

    def call(self, expr: cst.Call, state: State, fresh: Binding, container: Binding) -> Binding:
        func = expr.func
        qualified = self.provider.numpy_name_of(func)
        if qualified is None and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            if func.value.value in getattr(self.provider, "jnp_aliases", ()):
                qualified = f"numpy.{func.attr.value}"
        first = expr.args[0].value if expr.args and expr.args[0].keyword is None else None
        no_copy = any(
            a.keyword is not None and a.keyword.value == "copy" and isinstance(a.value, cst.Name) and a.value.value == "False"
            for a in expr.args
        )
        if qualified is not None:
            short = qualified.split(".")[-1]
            if qualified.startswith("numpy.random"):
                return fresh
            if (short in NUMPY_VIEWS or (short == "array" and no_copy)) and first is not None:
                base = self.value(first, state)
                if base.kind in (Kind.CONTAINER, Kind.INT):
                    return fresh  # np.asarray([1, 2]) builds a new array
                if base.kind is Kind.UNKNOWN:
                    return self.unknown(expr)
                return Binding(Kind.VIEW, base.objects, source=_root_name(first))
            rank = None
            if short in RANK_ONE:
                rank = 1
            elif short in SHAPED and first is not None:
                rank = _shape_rank(first)
            elif short in ("array", "copy") and first is not None:
                rank = self.value(first, state).rank
            return Binding(Kind.FRESH, fresh.objects, rank=rank)
        if isinstance(func, cst.Name):
            if func.value in INT_CALLS:
                return Binding(Kind.INT, container.objects)
            if func.value in CONTAINER_CALLS:
                return container
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            at = func.value
            if isinstance(at, cst.Subscript) and isinstance(at.value, cst.Attribute) and at.value.attr.value == "at":
                base = self.value(at.value.value, state)  # x.at[i].set(v): a new array
                return Binding(Kind.FRESH, fresh.objects, rank=base.rank)
            base = self.value(func.value, state)
            if base.kind in (Kind.FRESH, Kind.ALIAS, Kind.VIEW, Kind.PARAM):
                if method in VIEW_METHODS or (method == "astype" and no_copy):
                    return Binding(Kind.VIEW, base.objects, source=_root_name(func.value))
                if method in COPY_METHODS:
                    return Binding(Kind.FRESH, fresh.objects, rank=base.rank if method in ("copy", "astype") else None)
            if dotted_name(func).startswith(("jnp.", "jax.")):
                return fresh
        return self.unknown(expr)


@dataclass(frozen=True)
class _TupleValue(Binding):
    items: tuple = ()




def _root_name(expr: cst.BaseExpression) -> Optional[str]:
    while isinstance(expr, (cst.Subscript, cst.Attribute, cst.Call)):
        expr = expr.func if isinstance(expr, cst.Call) else expr.value
    return expr.value if isinstance(expr, cst.Name) else None


def _shape_rank(shape: cst.BaseExpression) -> Optional[int]:
    if isinstance(shape, (cst.Tuple, cst.List)):
        if any(isinstance(e, cst.StarredElement) for e in shape.elements):
            return None
        return len(shape.elements)
    if isinstance(shape, (cst.Integer, cst.Name, cst.BinaryOperation)):
        return 1
    return None


def _is_basic(expr: cst.Subscript) -> bool:
    """Whether `expr` may be a view: basic indexing (ints, names, slices, `...`, `None`), no arrays or lists."""
    for element in expr.slice:
        index = element.slice
        if isinstance(index, cst.Slice):
            continue
        value = index.value
        if isinstance(value, (cst.List, cst.Comparison, cst.ListComp)) or (
            isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.BitInvert)
        ):
            return False
    return True


def function_aliases(rule: cst.MetadataDependent, function: cst.FunctionDef) -> Optional[FunctionAliases]:
    """The alias facts of `function` (for rules that list AliasProvider)."""
    return rule.get_metadata(AliasProvider, function, None)
