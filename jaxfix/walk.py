"""Read-only traversal of LibCST trees without rebuilding them.

`CSTNode.visit` serves visitors and transformers with one code path: every visited node is rebuilt from its visited
children (a new dataclass, validated) and attribute hooks are called for every field, even when the visitor only
reads. For the analyses and rules, which only read, that is most of the cost of a pass. The functions here walk the
same nodes in the same order (each node type's fields in the order LibCST visits them, learnt once per type from
LibCST itself) and call the same hooks, without rebuilding anything:

- `children(node)`: a node's children, in LibCST's visiting order (what `node.children` returns, much cheaper);
- `walk(node)`: every node of the subtree, pre-order; `nodes_of(node, kind)`: those of one type;
- `replace(root, changes)`: what a transformer replacing those nodes builds, rebuilding only their ancestors;
- `visit(node, visitor)`: `node.visit(visitor)` for a `CSTVisitor` (`visit_X` returning False skips the children,
  `leave_X` is always called);
- `visit_batched(node, visitors)`: `libcst.visit_batched` for `BatchableCSTVisitor`s;
- `FastMetadataWrapper`: a `MetadataWrapper` whose batched metadata providers and batched rule visits use
  `visit_batched`.

Visitors that define attribute hooks (`visit_If_body`) are not served by the fast path: they go through LibCST.
`tests/test_walk.py` checks that the order matches LibCST's on a large body of real code.
"""

from __future__ import annotations

import dataclasses
import operator
import typing
import weakref
from contextlib import ExitStack
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence

import libcst as cst
from libcst import BatchableCSTVisitor, CSTNode, CSTVisitor
from libcst._nodes import op as _op, whitespace as _whitespace
from libcst.metadata import MetadataWrapper

from jaxfix import nodecheck

nodecheck.install()  # isinstance on node classes without ABCMeta's Python-level check (see jaxfix.nodecheck)

# type -> (child fields in visiting order, a getter of their values, optional fields LibCST skips when absent)
_FIELDS: dict[type, tuple[tuple[str, ...], Callable[[CSTNode], Any], tuple[str, ...]]] = {}
_VARIANTS: dict[tuple[type, tuple[str, ...]], tuple[tuple[str, ...], Callable[[CSTNode], Any]]] = {}
_SKIP = (type(None), cst.MaybeSentinel)


class _FieldRecorder(CSTVisitor):
    """Records the order in which LibCST visits one node's fields (children are not entered)."""

    def __init__(self, top: CSTNode) -> None:
        super().__init__()
        self.top = top
        self.fields: list[str] = []

    def on_visit(self, node: CSTNode) -> bool:
        return False

    def on_leave(self, original_node: CSTNode) -> None:
        return None

    def on_visit_attribute(self, node: CSTNode, attribute: str) -> None:
        if node is self.top and attribute not in self.fields:
            self.fields.append(attribute)

    def on_leave_attribute(self, original_node: CSTNode, attribute: str) -> None:
        return None


def _order(node: CSTNode) -> tuple[str, ...]:
    recorder = _FieldRecorder(node)
    node._visit_and_replace_children(recorder)  # LibCST visits the node's fields in source order
    return tuple(recorder.fields)


def _getter(order: tuple[str, ...]) -> Callable[[CSTNode], Any]:
    """A function returning the values of the fields `order` of a node, as a tuple."""
    if not order:
        return lambda _node: ()
    if len(order) == 1:
        one = operator.attrgetter(order[0])
        return lambda n: (one(n),)
    return operator.attrgetter(*order)


def _maybe_child(value: object) -> bool:
    return isinstance(value, CSTNode) or (type(value) in (tuple, list) and len(value) > 0)  # type: ignore[arg-type]


def _learn(node: CSTNode) -> tuple[tuple[str, ...], Callable[[CSTNode], Any], tuple[str, ...]]:
    order = _order(node)
    # fields LibCST did not visit on this instance but might on another (visited only when present, like an
    # f-string part's `format_spec`): those that are empty here; scalar fields (`Name.value`) are never children
    optional = tuple(
        f.name
        for f in dataclasses.fields(node)
        if f.name not in order and (isinstance(getattr(node, f.name), _SKIP) or getattr(node, f.name) in ((), []))
    )
    entry = _FIELDS[type(node)] = (order, _getter(order), optional)
    return entry


def _layout(node: CSTNode) -> tuple[tuple[str, ...], Callable[[CSTNode], Any]]:
    """The names of `node`'s child fields in LibCST's visiting order, and a function reading them as a tuple."""
    kind = type(node)
    order, getter, optional = _FIELDS.get(kind) or _learn(node)
    if optional:
        present = tuple(name for name in optional if _maybe_child(getattr(node, name)))
        if present:
            key = (kind, present)
            variant = _VARIANTS.get(key)
            if variant is None:
                names = _order(node)
                variant = _VARIANTS[key] = (names, _getter(names))
            return variant
    return order, getter


def _values(node: CSTNode) -> Any:
    return _layout(node)[1](node)


# id(node) -> (node, its children): nodes are immutable, and the analyses walk the same function bodies many times
# over. Keyed by `id` (CSTNode hashes in Python, `id` is a builtin); each entry holds its node, so the id cannot be
# reused while the entry lives. Emptied when it grows past _CACHE_LIMIT (an engine pass asks for a few tens of
# thousands of nodes).
_CHILDREN: dict[int, tuple[CSTNode, tuple[CSTNode, ...]]] = {}
_CACHE_LIMIT = 400_000


def clear_caches() -> None:
    """Forget the cached children (the engine calls this after each file, so the trees of files done are freed)."""
    _CHILDREN.clear()
    _BY_KIND.clear()
    _ASKED.clear()
    for cache in _PRUNED:
        cache.clear()


def children(node: CSTNode) -> tuple[CSTNode, ...]:
    """The children of `node` in LibCST's visiting order (what `node.children` lists)."""
    entry = _CHILDREN.get(id(node))
    if entry is not None and entry[0] is node:
        return entry[1]
    out: list[CSTNode] = []
    append, extend = out.append, out.extend
    for value in _values(node):
        kind = value.__class__
        if kind is tuple or kind is list:
            extend(value)
        elif value is not None and kind is not cst.MaybeSentinel:
            append(value)
    if len(_CHILDREN) >= _CACHE_LIMIT:
        _CHILDREN.clear()
    found = tuple(out)
    _CHILDREN[id(node)] = (node, found)
    return found


# id(root) -> (root, {node type: its nodes in visiting order}, all its non-token nodes in visiting order): the
# analyses ask a module for its functions, classes, calls and names again and again, walk all of a module's nodes
# once per question they collect several kinds for, and ask one function body for its assignments, attributes and
# names once per statement they judge. One walk lists all of a root's non-token nodes, in order and by type: at once
# for a module, and for another root the second time it is asked (_ASKED), so a subtree asked once costs one plain
# walk.
_BY_KIND: dict[int, tuple[CSTNode, dict[type, list[CSTNode]], list[CSTNode]]] = {}
_ASKED: dict[int, CSTNode] = {}
_INDEX_LIMIT = 512  # indexed roots kept (each holds two list entries per node of its subtree)


def _indexed(root: CSTNode) -> tuple[CSTNode, dict[type, list[CSTNode]], list[CSTNode]]:
    entry = _BY_KIND.get(id(root))
    if entry is not None and entry[0] is root:
        return entry
    by_kind: dict[type, list[CSTNode]] = {}
    order: list[CSTNode] = []
    stack = [root]
    pop, extend, listed = stack.pop, stack.extend, order.append
    while stack:
        current = pop()
        listed(current)
        found = by_kind.get(current.__class__)
        if found is None:
            by_kind[current.__class__] = [current]
        else:
            found.append(current)
        extend(_children_at(current, NO_TOKENS)[::-1])
    if len(_BY_KIND) >= _INDEX_LIMIT:
        _BY_KIND.clear()
    entry = _BY_KIND[id(root)] = (root, by_kind, order)
    return entry


def _index_of(root: CSTNode) -> Optional[tuple[CSTNode, dict[type, list[CSTNode]], list[CSTNode]]]:
    """The index of `root` when it is a module or was asked before (it is made then); None the first time another
    root is asked (it is remembered)."""
    key = id(root)
    entry = _BY_KIND.get(key)
    if entry is not None and entry[0] is root:
        return entry
    if root.__class__ is cst.Module or _ASKED.get(key) is root:
        return _indexed(root)
    if len(_ASKED) >= _CACHE_LIMIT:
        _ASKED.clear()
    _ASKED[key] = root
    return None


def nodes_of(root: CSTNode, kind: type) -> list[CSTNode]:
    """The nodes of type `kind` in the subtree of `root` (itself included), in LibCST's visiting order: what a
    visitor with only `visit_<kind>` collecting its nodes finds. A new list each time; for a module, and for a root
    asked before, read from one walk sorting all its non-token nodes by type."""
    if kind not in TOKEN_TYPES:
        entry = _index_of(root)
        if entry is not None:
            return list(entry[1].get(kind, ()))
    level = ALL if kind in TOKEN_TYPES else NO_TOKENS
    found: list[CSTNode] = []
    stack = [root]
    pop, extend = stack.pop, stack.extend
    while stack:
        current = pop()
        if current.__class__ is kind:
            found.append(current)
        extend(_children_at(current, level)[::-1])
    return found


def name_values(root: CSTNode) -> set[str]:
    """The identifiers of the `Name` nodes under `root` (attribute names and keywords included)."""
    return {name.value for name in nodes_of(root, cst.Name)}  # type: ignore[attr-defined]


def called_name(node: CSTNode) -> str:
    """The last name of a call's callee: `unique` for `np.unique(x)` and `unique(x)`, `set` for `ax.set(...)`; "" for
    anything else (a call of a call, a subscript, a node that is no call)."""
    func = node.func if isinstance(node, cst.Call) else None
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""


def contains(root: CSTNode, kind: type) -> bool:
    """Whether the subtree of `root` (itself included) holds a node of type `kind`."""
    return bool(nodes_of(root, kind))


def walk(node: CSTNode) -> Iterator[CSTNode]:
    """Every node of the subtree rooted at `node` (itself first), pre-order, in LibCST's visiting order."""
    return _preorder(node, children)


def nodes(node: CSTNode) -> Iterator[CSTNode]:
    """`walk` without the tokens (whitespace, punctuation, operators): for one pass collecting several kinds of
    non-token nodes, where `nodes_of` would walk once per kind. For a module, and a root asked before, read from
    the list of its nodes that `nodes_of` also reads."""
    entry = _index_of(node)
    if entry is not None:
        return iter(entry[2])
    return _preorder(node, children_without_tokens)


def _preorder(node: CSTNode, kids: Callable[[CSTNode], tuple[CSTNode, ...]]) -> Iterator[CSTNode]:
    stack = [node]
    pop, extend = stack.pop, stack.extend
    while stack:
        current = pop()
        yield current
        extend(kids(current)[::-1])


# ---- pruning ---------------------------------------------------------------------------------------------------
# Most nodes are tokens: whitespace, comments, punctuation, operators (about 60% of a typical module), and their
# subtrees hold only tokens. A traversal whose hooks name no token type does not enter them; one whose hooks name
# only statements and suites (`visit_FunctionDef`, `visit_If`, `visit_SimpleStatementLine`) enters only statements
# and suites (a statement is never inside an expression). Visitors that override `on_visit` see every node.


def _concrete(classes: Iterable[type]) -> frozenset[type]:
    found: set[type] = set()
    stack = list(classes)
    while stack:
        kind = stack.pop()
        found.add(kind)
        stack.extend(kind.__subclasses__())
    return frozenset(found)


TOKEN_TYPES = _concrete(
    [
        *(v for m in (_whitespace, _op) for v in vars(m).values() if isinstance(v, type) and v.__module__ == m.__name__),
        cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace,
        cst.RightCurlyBrace,
    ]
)
STATEMENT_TYPES = _concrete(
    [cst.Module, cst.BaseStatement, cst.BaseSuite, cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally,
     cst.MatchCase]
)
_TOKEN_NAMES = frozenset(kind.__name__ for kind in TOKEN_TYPES)
_STATEMENT_NAMES = frozenset(kind.__name__ for kind in STATEMENT_TYPES)
ALL, NO_TOKENS, STATEMENTS = 0, 1, 2
_PRUNED: tuple[dict[int, tuple[CSTNode, tuple[CSTNode, ...]]], ...] = ({}, {}, {})


def _level(hooked: Iterable[str]) -> int:
    """How far a traversal whose hooks are `hooked` (`visit_If`, `leave_Name`, ...) can be pruned."""
    types = {name.partition("_")[2] for name in hooked}
    if types <= _STATEMENT_NAMES:
        return STATEMENTS
    if types & _TOKEN_NAMES:
        return ALL
    return NO_TOKENS


def children_without_tokens(node: CSTNode) -> tuple[CSTNode, ...]:
    """`children(node)` without whitespace, comments, punctuation and operators (`TOKEN_TYPES`)."""
    return _children_at(node, NO_TOKENS)


def _children_at(node: CSTNode, level: int) -> tuple[CSTNode, ...]:
    """`children(node)` without the children a traversal at `level` need not enter."""
    if level == ALL:
        return children(node)
    cache = _PRUNED[level]
    entry = cache.get(id(node))
    if entry is not None and entry[0] is node:
        return entry[1]
    if level == STATEMENTS:
        keep = STATEMENT_TYPES
        found = tuple(child for child in _children_at(node, NO_TOKENS) if child.__class__ in keep)
    else:
        found = _non_token_children(node)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[id(node)] = (node, found)
    return found


def _non_token_children(node: CSTNode) -> tuple[CSTNode, ...]:
    """`children(node)` without `TOKEN_TYPES`, reading only the fields whose type admits a non-token node (most
    fields are whitespace, parentheses, commas and operators)."""
    kind = node.__class__
    order = _layout(node)[0]
    entry = _NON_TOKEN_FIELDS.get((kind, order))
    if entry is None:
        entry = _NON_TOKEN_FIELDS[(kind, order)] = _non_token_fields(kind, order)
    drop = TOKEN_TYPES
    if entry is None:  # annotations that do not resolve: filter all children
        return tuple(child for child in children(node) if child.__class__ not in drop)
    getter, mixed = entry
    out: list[CSTNode] = []
    append, extend = out.append, out.extend
    for value in getter(node):
        value_kind = value.__class__
        if value_kind is tuple or value_kind is list:
            extend([v for v in value if v.__class__ not in drop] if mixed else value)
        elif value is not None and value_kind is not cst.MaybeSentinel and (not mixed or value_kind not in drop):
            append(value)
    return tuple(out)


# (node type, its child fields in visiting order) -> a getter of those whose type admits a non-token node, and
# whether one of them admits tokens too; None when the type's annotations do not resolve
_NON_TOKEN_FIELDS: dict[tuple[type, tuple[str, ...]], Optional[tuple[Callable[[CSTNode], Any], bool]]] = {}


def _non_token_fields(kind: type, order: tuple[str, ...]) -> Optional[tuple[Callable[[CSTNode], Any], bool]]:
    try:
        hints = typing.get_type_hints(kind)
    except Exception:  # noqa: BLE001 - an annotation that does not resolve
        return None
    admitted: dict[str, frozenset[type]] = {}  # field -> the node types its annotation admits
    for name in order:
        types: set[type] = set()
        stack = [hints.get(name, CSTNode)]
        while stack:
            hint = stack.pop()
            args = typing.get_args(hint)
            if args:
                stack.extend(args)  # Union, Optional, Sequence, Literal (whose strings are no types)
            elif isinstance(hint, type) and issubclass(hint, CSTNode):
                types |= _concrete([hint])
            elif hint is typing.Any or hint is object:
                types |= _concrete([CSTNode])
        admitted[name] = frozenset(types)
    names = tuple(name for name in order if not admitted[name] <= TOKEN_TYPES)
    return _getter(names), any(admitted[name] & TOKEN_TYPES for name in names)


# ---- visitors -------------------------------------------------------------------------------------------------

_NODE_TYPES = frozenset(
    name for name, value in vars(cst).items() if isinstance(value, type) and issubclass(value, CSTNode)
)


def _has_attribute_hooks(names: Iterable[str]) -> bool:
    """Whether any `visit_*`/`leave_*` name is an attribute hook (`visit_If_body`) rather than a node hook."""
    for name in names:
        prefix, _, rest = name.partition("_")
        if prefix in ("visit", "leave") and rest and rest not in _NODE_TYPES:
            return True
    return False


def _own_hooks(cls: type) -> list[str]:
    """The `visit_*`/`leave_*` names the visitor's own classes define (LibCST's base classes hold only no-op
    stubs). Not `dir(cls)`: some analyses define a visitor class per call, and `dir` lists hundreds of stubs."""
    return sorted(
        {
            name
            for klass in cls.__mro__
            if not klass.__module__.startswith("libcst")
            for name in vars(klass)
            if name.startswith(("visit_", "leave_")) and not getattr(getattr(cls, name), "_is_no_op", False)
        }
    )


# visitor class -> (node type name -> (visit, leave), pruning level), or None when LibCST must run it; weak, since
# some analyses define a visitor class per call
_CLASS_HOOKS: "weakref.WeakKeyDictionary[type, Optional[tuple[dict[str, Any], int]]]" = weakref.WeakKeyDictionary()


def _class_hooks(cls: type) -> Optional[tuple[dict[str, Any], int]]:
    try:
        return _CLASS_HOOKS[cls]
    except KeyError:
        pass
    own = _own_hooks(cls)
    entry: Optional[tuple[dict[str, Any], int]] = ({}, _level(own))
    if _has_attribute_hooks(own) or cls.on_visit_attribute is not CSTVisitor.on_visit_attribute:
        entry = None
    _CLASS_HOOKS[cls] = entry
    return entry


def visit(node: CSTNode, visitor: CSTVisitor, tokens: bool = True) -> CSTNode:
    """`node.visit(visitor)` for a read-only `CSTVisitor`, without rebuilding the tree. Returns `node`.

    A visitor with its own `on_visit`/`on_leave` sees every node, unless `tokens=False`: then whitespace,
    comments, punctuation and operators are not visited (the caller knows its visitor has no use for them)."""
    cls = type(visitor)
    if cst.CSTTransformer in cls.__mro__:  # (not `isinstance`: an ABC's test costs more, for a new class most)
        return node.visit(visitor)  # type: ignore[arg-type]
    entry = _class_hooks(cls)
    if entry is None:
        return node.visit(visitor)
    if cls.on_visit is CSTVisitor.on_visit and cls.on_leave is CSTVisitor.on_leave:
        hooks, level = entry
        _visit_dispatch(node, visitor, hooks, level)
    else:
        _visit_generic(node, visitor.on_visit, visitor.on_leave, ALL if tokens else NO_TOKENS)
    return node


class ValueReader(CSTVisitor):
    """A base for visitors of the names an expression reads as values: an attribute's name (`x` of `a.x`) and a
    keyword (`k` of `f(k=v)`) are `Name` nodes too, and are not visited."""

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        visit(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        visit(node.value, self)
        return False


def _visit_dispatch(node: CSTNode, visitor: CSTVisitor, hooks: dict[str, Any], level: int) -> None:
    name = type(node).__name__
    pair = hooks.get(name)
    if pair is None:
        cls = type(visitor)
        visit_fn = getattr(cls, "visit_" + name, None)
        leave_fn = getattr(cls, "leave_" + name, None)
        pair = hooks[name] = (
            None if visit_fn is None or getattr(visit_fn, "_is_no_op", False) else visit_fn,
            None if leave_fn is None or getattr(leave_fn, "_is_no_op", False) else leave_fn,
        )
    visit_fn, leave_fn = pair
    if visit_fn is None or visit_fn(visitor, node) is not False:
        for child in _children_at(node, level):
            _visit_dispatch(child, visitor, hooks, level)
    if leave_fn is not None:
        leave_fn(visitor, node)


def _visit_generic(
    node: CSTNode, on_visit: Callable[[CSTNode], bool], on_leave: Callable[[CSTNode], None], level: int
) -> None:
    if on_visit(node):
        for child in _children_at(node, level):
            _visit_generic(child, on_visit, on_leave, level)
    on_leave(node)


_BATCHED_NAMES: "weakref.WeakKeyDictionary[type, tuple[str, ...]]" = weakref.WeakKeyDictionary()


def _batched_hooks(visitor: BatchableCSTVisitor) -> Mapping[str, Callable[..., Any]]:
    """`visitor.get_visitors()`; for LibCST's own implementation (`inspect.getmembers` over hundreds of stubs, on
    every pass) the same methods, found from the names the visitor's own classes define, once per class."""
    cls = type(visitor)
    if cls.get_visitors is not BatchableCSTVisitor.get_visitors:
        return visitor.get_visitors()
    return {name: getattr(visitor, name) for name in batched_hook_names(cls)}


def batched_hook_names(cls: type) -> tuple[str, ...]:
    """The names of the hooks LibCST's `get_visitors` finds on an instance of `cls` (its callable `visit_*` /
    `leave_*` methods that are not no-op stubs), read off the class once: `inspect.getmembers` on an instance
    would also read every other attribute, computing each `cached_property` (whole-module analyses) on the spot."""
    names = _BATCHED_NAMES.get(cls)
    if names is None:
        names = _BATCHED_NAMES[cls] = tuple(name for name in _own_hooks(cls) if callable(getattr(cls, name)))
    return names


def visit_batched(
    node: CSTNode,
    visitors: Iterable[BatchableCSTVisitor],
    before_visit: Optional[Callable[[CSTNode], None]] = None,
    after_leave: Optional[Callable[[CSTNode], None]] = None,
    skip: frozenset[CSTNode] = frozenset(),
) -> CSTNode:
    """`libcst.visit_batched` without rebuilding the tree: each node's `visit_X` hooks in the visitors' order,
    its children, then its `leave_X` hooks. Returns `node`. The subtrees of the children of `node` in `skip` are
    not visited at all (the engine's incremental passes)."""
    methods: dict[str, list[Callable[..., Any]]] = {}
    for visitor in visitors:
        for name, fn in _batched_hooks(visitor).items():
            methods.setdefault(name, []).append(fn)
    if _has_attribute_hooks(methods) or before_visit is not None or after_leave is not None:
        return cst.visit_batched(node, visitors, before_visit, after_leave)
    level = _level(methods)
    table: dict[type, tuple[Sequence[Callable[..., Any]], Sequence[Callable[..., Any]]]] = {}
    empty: tuple[Callable[..., Any], ...] = ()

    def run(current: CSTNode) -> None:
        kind = type(current)
        pair = table.get(kind)
        if pair is None:
            name = kind.__name__
            pair = table[kind] = (tuple(methods.get("visit_" + name, empty)), tuple(methods.get("leave_" + name, empty)))
        for fn in pair[0]:
            fn(current)
        for child in _children_at(current, level):
            run(child)
        for fn in pair[1]:
            fn(current)

    if not skip:
        run(node)
        return node
    visit_hooks, leave_hooks = (methods.get(prefix + type(node).__name__, empty) for prefix in ("visit_", "leave_"))
    for fn in visit_hooks:
        fn(node)
    for child in _children_at(node, level):
        if child not in skip:
            run(child)
    for fn in leave_hooks:
        fn(node)
    return node


class FastMetadataWrapper(MetadataWrapper):
    """A `MetadataWrapper` whose batched traversals (batchable metadata providers, `visit_batched` of rules) do
    not rebuild the tree. Non-batchable providers (positions) are computed as LibCST computes them."""

    __slots__ = ("_skip",)

    def __init__(self, module: cst.Module, unsafe_skip_copy: bool = False, skip: frozenset[CSTNode] = frozenset()) -> None:
        """`skip`: top-level statements no traversal enters, the providers' included (the engine's incremental
        passes: the rules do not run there, and what they do run on does not depend on them)."""
        super().__init__(module, unsafe_skip_copy=unsafe_skip_copy)
        self._skip = skip

    def visit_batched(
        self,
        visitors: Iterable[BatchableCSTVisitor],
        before_visit: Optional[Callable[[CSTNode], None]] = None,
        after_leave: Optional[Callable[[CSTNode], None]] = None,
        skip: Optional[frozenset[CSTNode]] = None,
    ) -> CSTNode:
        skip = self._skip if skip is None else skip

        visitors = list(visitors)
        with ExitStack() as stack:
            for visitor in visitors:
                stack.enter_context(visitor.resolve(self))
            return visit_batched(self.module, visitors, before_visit, after_leave, skip)


def parents(root: CSTNode) -> dict[CSTNode, CSTNode]:
    """child -> parent for every node under `root`."""
    out: dict[CSTNode, CSTNode] = {}
    stack = [root]
    while stack:
        current = stack.pop()
        for child in children(current):
            out[child] = current
            stack.append(child)
    return out


def _removed(node: CSTNode, name: str) -> Any:
    """What LibCST leaves in field `name` of `node` when a transformer removes its value: MaybeSentinel.DEFAULT in
    a field that defaults to it (a comma), else None."""
    default = next(f.default for f in dataclasses.fields(node) if f.name == name)
    if default is dataclasses.MISSING:
        raise TypeError(f"{type(node).__name__}.{name} is required: its value cannot be removed")
    return cst.MaybeSentinel.DEFAULT if default is cst.MaybeSentinel.DEFAULT else None


def replace(
    root: CSTNode,
    changes: Mapping[CSTNode, Any],
    up: Optional[Mapping[CSTNode, CSTNode]] = None,
    track: Optional[dict[CSTNode, CSTNode]] = None,
) -> CSTNode:
    """`root` with each node of `changes` replaced by its value, as a `CSTTransformer` returning the value from
    `on_leave` would do it (a node; in a sequence field, `FlattenSentinel` splices and `RemovalSentinel.REMOVE`
    drops; in an optional field, REMOVE sets None), rebuilding only the ancestors of the replaced nodes: the rest
    of the tree is shared with `root`. A node nested inside a replaced one is not looked at.

    `up`: `parents(root)`, when the caller has it. `track`: a parent map of `root` (a copy of `up`), updated into
    one of the returned tree: the rebuilt nodes' children and the inserted nodes' subtrees are entered (entries of
    nodes no longer in the tree may stay)."""
    if not changes:
        return root
    if root in changes:
        if track is not None:
            track.clear()
            track.update(parents(changes[root]))
        return changes[root]
    if up is None:
        up = parents(root)
    inserted: set[int] = set()  # ids of the replacement nodes put in (their subtrees are new to `track`)
    ancestors: set[int] = set()
    for node in changes:
        current = up.get(node)
        while current is not None and id(current) not in ancestors:
            ancestors.add(id(current))
            current = up.get(current)
    if id(root) not in ancestors:
        return root  # no changed node is in this tree

    def rebuild(node: CSTNode) -> CSTNode:
        names, getter = _layout(node)
        values = getter(node) if names else ()
        updates: dict[str, Any] = {}
        for name, value in zip(names, values):
            kind = value.__class__
            if kind is tuple or kind is list:
                if not any(item in changes or id(item) in ancestors for item in value):
                    continue
                items: list[Any] = []
                for item in value:
                    new = changes[item] if item in changes else rebuild(item) if id(item) in ancestors else item
                    if isinstance(new, cst.FlattenSentinel):
                        items.extend(new.nodes)
                        inserted.update(map(id, new.nodes))
                    elif new is not cst.RemovalSentinel.REMOVE:
                        items.append(new)
                        if item in changes:
                            inserted.add(id(new))
                updates[name] = items
            elif isinstance(value, CSTNode):
                if value in changes:
                    new = changes[value]
                    if new is cst.RemovalSentinel.REMOVE:
                        new = _removed(node, name)
                    elif isinstance(new, cst.FlattenSentinel):
                        raise TypeError(f"cannot splice several nodes into {type(node).__name__}.{name}")
                    updates[name] = new
                    inserted.add(id(new))
                elif id(value) in ancestors:
                    updates[name] = rebuild(value)
        if not updates:
            return node
        rebuilt = node.with_changes(**updates)
        if track is not None:
            for child in children(rebuilt):
                if id(child) in inserted:
                    track.update(parents(child))
                track[child] = rebuilt
        return rebuilt

    return rebuild(root)


MODULE_CODE = "__module_code__"  # the name of the function `module_code` makes


def module_code(module: cst.Module) -> list[cst.FunctionDef]:
    """The module's top-level statements other than functions and classes (a script's `if __name__ == "__main__":`
    block, `UNIT = normalize(v)` then `UNIT[0] = 0.0`), as the body of a function named `MODULE_CODE` holding the
    same statement nodes, for the analyses that read a function's body; none when there are no such statements."""
    statements = [s for s in module.body if not isinstance(s, (cst.FunctionDef, cst.ClassDef))]
    if not statements:
        return []
    return [cst.FunctionDef(cst.Name(MODULE_CODE), cst.Parameters(), cst.IndentedBlock(statements))]
