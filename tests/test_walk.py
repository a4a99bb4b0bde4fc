"""`jaxfix.walk`: the read-only traversal must visit exactly what LibCST visits, in the same order, and `replace`
must build exactly what a LibCST transformer builds."""

import glob
import os
import textwrap

import libcst as cst
import pytest

from jaxfix import walk
from jaxfix.testing.corpus import ROOT, fixture_files

# syntax the fixtures may not have: f-string format specs (a field LibCST visits only when present), match, async,
# walrus, star expressions, decorators, lambdas, try/except*, global, type annotations, semicolons, comments
SYNTAX = textwrap.dedent(
    '''
    # leading comment
    import numpy as np; import os
    from a.b import (c as d,
                     e)
    @decorator(1, k=2)
    async def f(x: int, /, y=3, *args, z: "t" = None, **kw) -> list[int]:
        global G
        async with ctx() as (p, q):
            async for i in aiter():
                pass
        value = f"{x!r:>{width}.{prec}} and {y=}"  # trailing
        return [i async for i in g() if (n := i) > 0]
    class C(Base, metaclass=M):
        """doc"""
        attr: int = 1
        def m(self):
            return lambda a, *b: (a, *b)
    match command.split():
        case [action, *rest] if rest:
            pass
        case {"k": v, **others}:
            pass
        case Point(x=0) | None:
            pass
        case _:
            pass
    try:
        pass
    except* (ValueError, TypeError) as group:
        raise
    else:
        del a[1:2, ...], b.c
    finally:
        x = y if not z else -w ** 2 @ m
    while (yield) is not None: break
    print(*args, sep="", **{"end": "\\n"})
    '''
)


def _sources():
    yield "syntax", SYNTAX
    for name, code, _ in fixture_files():
        if name.endswith(".before.py"):
            yield name, code
    for path in sorted(glob.glob(os.path.join(ROOT, "jaxfix", "*.py")))[:12]:
        yield os.path.relpath(path, ROOT), open(path, encoding="utf-8").read()


SOURCES = list(_sources())
MODULES = [(name, cst.parse_module(code)) for name, code in SOURCES]


class _Recorder(cst.CSTVisitor):
    def __init__(self):
        super().__init__()
        self.events = []

    def on_visit(self, node):
        self.events.append(("visit", node))
        return True

    def on_leave(self, original_node):
        self.events.append(("leave", original_node))


def test_walk_and_children_match_libcst_on_real_code():
    for name, module in MODULES:
        libcst_order = _Recorder()
        module.visit(libcst_order)
        visited = [node for event, node in libcst_order.events if event == "visit"]
        ours = list(walk.walk(module))
        assert len(ours) == len(visited), name
        assert all(a is b for a, b in zip(ours, visited)), name
        for node in ours[:400]:
            assert list(walk.children(node)) == list(node.children), (name, type(node).__name__)


def test_format_spec_is_visited_only_when_present():
    module = cst.parse_module('a = f"{x}"\nb = f"{x:>{w}}"\n')
    names = [n.value for n in walk.walk(module) if isinstance(n, cst.Name)]
    assert names == ["a", "x", "b", "x", "w"]


class _Skipping(cst.CSTVisitor):
    """Hooks on several levels; does not enter lambdas or `if` tests."""

    def __init__(self):
        super().__init__()
        self.events = []

    def visit_FunctionDef(self, node):
        self.events.append(("def", node.name.value))

    def leave_FunctionDef(self, node):
        self.events.append(("/def", node.name.value))

    def visit_Lambda(self, node):
        self.events.append(("lambda", None))
        return False

    def leave_Lambda(self, node):
        self.events.append(("/lambda", None))

    def visit_Name(self, node):
        self.events.append(("name", node.value))


class _Statements(cst.CSTVisitor):
    def __init__(self):
        super().__init__()
        self.events = []

    def visit_If(self, node):
        self.events.append(node)

    def leave_SimpleStatementLine(self, node):
        self.events.append(node)


class _Commas(cst.CSTVisitor):
    def __init__(self):
        super().__init__()
        self.events = []

    def visit_Comma(self, node):
        self.events.append(node)


@pytest.mark.parametrize("visitor_class", [_Skipping, _Statements, _Commas], ids=["expressions", "statements", "tokens"])
def test_visit_matches_libcst(visitor_class):
    """Same hooks, same order, `visit_X` returning False skips the children but not `leave_X`; pruning (a visitor
    of statements only, of no token type) changes nothing a visitor can see."""
    for name, module in MODULES:
        theirs, ours = visitor_class(), visitor_class()
        module.visit(theirs)
        assert walk.visit(module, ours) is module
        assert ours.events == theirs.events, name


def test_visit_with_attribute_hooks_goes_through_libcst():
    class Bodies(cst.CSTVisitor):
        def __init__(self):
            super().__init__()
            self.seen = 0

        def visit_If_body(self, node):
            self.seen += 1

    visitor = Bodies()
    walk.visit(cst.parse_module("if a:\n    pass\nif b:\n    pass\n"), visitor)
    assert visitor.seen == 2


def test_visit_runs_transformers_as_libcst_does():
    class Rename(cst.CSTTransformer):
        def leave_Name(self, original_node, updated_node):
            return updated_node.with_changes(value="z")

    assert cst.parse_module("a = b\n").visit(Rename()).code == "z = z\n"
    assert walk.visit(cst.parse_module("a = b\n"), Rename()).code == "z = z\n"


class _Batch(cst.BatchableCSTVisitor):
    def __init__(self, log, tag):
        super().__init__()
        self.log, self.tag = log, tag

    def visit_Call(self, node):
        self.log.append((self.tag, "call", node))

    def leave_Call(self, node):
        self.log.append((self.tag, "/call", node))

    def visit_FunctionDef(self, node):
        self.log.append((self.tag, "def", node))


class _StatementBatch(cst.BatchableCSTVisitor):
    def __init__(self, log):
        super().__init__()
        self.log = log

    def visit_ClassDef(self, node):
        self.log.append(("class", node))

    def leave_IndentedBlock(self, node):
        self.log.append(("/block", node))


def test_visit_batched_matches_libcst():
    for name, module in MODULES:
        theirs, ours = [], []
        cst.visit_batched(module, [_Batch(theirs, 1), _Batch(theirs, 2)])
        walk.visit_batched(module, [_Batch(ours, 1), _Batch(ours, 2)])
        assert ours == theirs, name
        theirs, ours = [], []
        cst.visit_batched(module, [_StatementBatch(theirs)])
        walk.visit_batched(module, [_StatementBatch(ours)])
        assert ours == theirs, name


def test_visit_batched_skips_the_statements_asked():
    module = cst.parse_module("def f():\n    g(1)\n\ndef h():\n    k(2)\n")
    log = []
    walk.visit_batched(module, [_Batch(log, 0)], skip=frozenset([module.body[0]]))
    assert [(kind, getattr(node, "name", None) and node.name.value) for _, kind, node in log] == [
        ("def", "h"),
        ("call", None),
        ("/call", None),
    ]


class _Replace(cst.CSTTransformer):
    def __init__(self, changes):
        super().__init__()
        self.changes = changes

    def on_leave(self, original_node, updated_node):
        return self.changes.get(original_node, updated_node)


def _changes(module):
    """Replacements of every kind: names, whole statements removed or split in two, an optional field removed."""
    changes = {}
    for node in walk.walk(module):
        if isinstance(node, cst.Name) and node.value.startswith("x"):
            changes[node] = cst.Name("renamed")
        elif isinstance(node, cst.SimpleStatementLine) and isinstance(node.body[0], cst.Pass):
            changes[node] = cst.RemovalSentinel.REMOVE
        elif isinstance(node, cst.SimpleStatementLine) and isinstance(node.body[0], cst.Return):
            changes[node] = cst.FlattenSentinel([cst.parse_statement("y = 1\n"), node])
        elif isinstance(node, cst.Param) and node.default is not None and isinstance(node.comma, cst.Comma):
            changes[node.comma] = cst.RemovalSentinel.REMOVE
        elif isinstance(node, cst.Param) and node.annotation is not None:
            changes[node.annotation] = cst.RemovalSentinel.REMOVE
    return changes


def test_replace_matches_a_transformer():
    required = cst.parse_module("x: int = 1\n")
    with pytest.raises(TypeError):
        walk.replace(required, {required.body[0].body[0].annotation: cst.RemovalSentinel.REMOVE})
    for name, module in MODULES:
        changes = _changes(module)
        expected = module.visit(_Replace(changes)).code
        assert walk.replace(module, changes).code == expected, name


def test_replace_keeps_a_parent_map_up_to_date():
    for name, module in MODULES:
        changes = _changes(module)
        up = walk.parents(module)
        track = dict(up)
        new = walk.replace(module, changes, up, track)
        fresh = walk.parents(new)
        assert all(track.get(node) is parent for node, parent in fresh.items()), name
    module = cst.parse_module("x = 1\n")
    track = dict(walk.parents(module))
    new = walk.replace(module, {module: cst.parse_module("y = 2\n")}, track=track)
    assert track == walk.parents(new)


def test_replace_shares_untouched_subtrees():
    module = cst.parse_module("def f(x):\n    return x\n\ndef g(y):\n    return y\n")
    target = module.body[0].params.params[0].name
    new = walk.replace(module, {target: cst.Name("a")})
    assert new.code == "def f(a):\n    return x\n\ndef g(y):\n    return y\n"
    assert new.body[1] is module.body[1]
    assert walk.replace(module, {}) is module
    assert walk.replace(module, {cst.Name("elsewhere"): cst.Name("b")}) is module


def test_generic_visitor_without_tokens_sees_the_other_nodes_in_order():
    for name, module in MODULES[:20]:
        everything, pruned = _Recorder(), _Recorder()
        module.visit(everything)
        walk.visit(module, pruned, tokens=False)
        expected = [(e, n) for e, n in everything.events if type(n) not in walk.TOKEN_TYPES]
        assert [(e, id(n)) for e, n in pruned.events] == [(e, id(n)) for e, n in expected], name


def test_nodes_of_finds_what_a_collecting_visitor_finds():
    class Calls(cst.CSTVisitor):
        def __init__(self):
            super().__init__()
            self.found = []

        def visit_Call(self, node):
            self.found.append(node)

        def visit_Comma(self, node):
            self.found.append(node)

    for name, module in MODULES[:20]:
        collector = Calls()
        module.visit(collector)
        calls = [n for n in collector.found if isinstance(n, cst.Call)]
        commas = [n for n in collector.found if isinstance(n, cst.Comma)]
        assert [id(n) for n in walk.nodes_of(module, cst.Call)] == [id(n) for n in calls], name
        assert [id(n) for n in walk.nodes_of(module, cst.Comma)] == [id(n) for n in commas], name


def test_children_without_tokens_are_the_children_that_are_no_tokens():
    # read from the fields whose type admits a non-token node: the same nodes, in the same order, for every node
    for name, module in MODULES:
        for node in walk.walk(module):
            expected = [id(c) for c in walk.children(node) if type(c) not in walk.TOKEN_TYPES]
            assert [id(c) for c in walk.children_without_tokens(node)] == expected, (name, type(node).__name__)


def test_nodes_of_a_module_and_of_its_statements_agree():
    # a module's nodes of a type come from one walk sorting them all; its statements' from their own walks
    for name, module in MODULES[:20]:
        for kind in (cst.FunctionDef, cst.Name, cst.Assign):
            expected = [id(n) for stmt in module.body for n in walk.nodes_of(stmt, kind)]
            assert [id(n) for n in walk.nodes_of(module, kind)] == expected, name
            assert walk.nodes_of(module, kind) is not walk.nodes_of(module, kind)  # a new list each time


def test_batched_hook_names_are_libcsts_for_every_rule():
    # the hooks LibCST's `get_visitors` would find (callable visit_/leave_ attributes that are not no-op stubs)
    from jaxfix.registry import all_rules

    for rule in all_rules():
        expected = sorted(n for n in dir(rule) if n.startswith(("visit_", "leave_")) and callable(getattr(rule, n))
                          and not getattr(getattr(rule, n), "_is_no_op", False))
        assert sorted(walk.batched_hook_names(rule)) == expected, rule.CODE


def test_finding_a_rules_hooks_computes_no_cached_property():
    # LibCST's `get_visitors` (`inspect.getmembers` on the instance) computes every cached_property: in a rule, a
    # whole-module analysis (JX202's callers), run on every file whether the rule needs it or not
    import functools

    from jaxfix.engine import process_source
    from jaxfix.rule import Rule
    from jaxfix.types import RunOptions

    computed = []

    class Lazy(Rule):
        CODE = "JX997"

        @functools.cached_property
        def costly(self) -> int:
            computed.append(1)
            return 1

        def visit_Name(self, node: cst.Name) -> None:
            pass

    assert walk.batched_hook_names(Lazy) == ("visit_Name",)
    process_source("m.py", "import numpy as np\n\ndef f(x):\n    return np.sum(x)\n", [Lazy], RunOptions(fix=True))
    assert computed == []
