"""Where a module touches NumPy's RNG, as LibCST nodes: draws, sources, Bernoulli idioms, and calls of functions
that must take a key (from `random_keys`), each with its statement and the top-level function around it.

A site is "threadable" when it sits in a simple statement of a top-level function body (any depth of `for`,
`while`, `if`, `with`, `try`), or at module level, with no lambda, comprehension, nested function or class between:
a `key, subkey = jax.random.split(key)` line can then go right before its statement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

import ast

import libcst as cst

from jaxfix import astwalk, walk
from jaxfix.analysis import random_keys
from jaxfix.analysis.random_draws import DRAWS, SOURCES, UNIFORM01
from jaxfix import precheck
from jaxfix import source as sourcelib
from jaxfix.imports import dotted_name
from jaxfix.switch import Switch

_BLOCKING = (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.FunctionDef, cst.ClassDef)


@dataclass
class Site:
    kind: str  # "draw" | "bernoulli" | "shuffle" | "source" | "call" | "ref"
    node: cst.CSTNode  # the node replaced (a Call, a Comparison, or the statement for shuffle/source)
    method: str = ""  # NumPy method for draws and sources; qualified callee for calls and refs
    call: Optional[cst.Call] = None
    stmt: Optional[cst.SimpleStatementLine] = None
    scope: Optional[cst.FunctionDef] = None  # top-level function, None at module level
    blocked: str = ""  # why no key can be threaded here
    in_loop: bool = False  # inside a `for`/`while` body of its function
    block: Optional[cst.CSTNode] = None  # the block holding `stmt` (statements in one block share a split)
    owner: Optional[cst.FunctionDef] = None  # the innermost function around the site (methods, nested ones too)




class SiteCollector(cst.CSTVisitor):
    def __init__(self, summary: dict[str, Any], needs: set[str], numpy_name: Callable[[cst.CSTNode], Optional[str]], key_names: set[str]):
        super().__init__()
        self.summary, self.needs, self.numpy_name, self.key_names = summary, needs, numpy_name, key_names
        self.stack: list[cst.CSTNode] = []
        self.sites: list[Site] = []
        self._consumed: set[int] = set()

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.stack.append(node)
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        super().on_leave(original_node)
        self.stack.pop()

    # ---- context ----------------------------------------------------------------------------------------------
    def _add(self, site: Site) -> None:
        site.block = self._block(site.stmt)
        site.owner = next((n for n in reversed(self.stack) if isinstance(n, cst.FunctionDef)), None)
        self.sites.append(site)

    def _block(self, stmt: Optional[cst.CSTNode]) -> Optional[cst.CSTNode]:
        for index, node in enumerate(self.stack):
            if node is stmt:
                return self.stack[index - 1]
        return None

    def _in_loop(self) -> bool:
        return any(isinstance(n, (cst.For, cst.While)) for n in self.stack[2:])

    def _context(self) -> tuple[Optional[cst.FunctionDef], Optional[cst.SimpleStatementLine], str]:
        top = self.stack[1] if len(self.stack) > 1 else None
        scope = top if isinstance(top, cst.FunctionDef) else None
        if isinstance(top, cst.ClassDef):
            return None, None, "inside a class: an object holding RNG state; store a key and pass it in explicitly"
        stmt, blocked = None, ""
        for node in reversed(self.stack[2 if scope else 1 : -1]):
            if isinstance(node, _BLOCKING) and not blocked:
                kind = {cst.Lambda: "a lambda", cst.FunctionDef: "a nested function"}.get(type(node), "a comprehension")
                blocked = f"inside {kind}: pass a key in explicitly (e.g. a `key` argument, split per use)"
            if isinstance(node, cst.SimpleStatementLine) and stmt is None:
                stmt = node
        if stmt is None and not blocked:
            blocked = "in a compound statement header: move the draw into a statement of its own"
        return scope, stmt, blocked

    def _generators(self, scope: Optional[cst.FunctionDef]) -> list[str]:
        if scope is None:
            return self.summary["generators"]
        return self.summary["functions"].get(scope.name.value, {}).get("generators", [])

    def method_of(self, call: cst.Call, scope: Optional[cst.FunctionDef]) -> Optional[str]:
        qualified = self.numpy_name(call.func)
        if qualified and qualified.startswith("numpy.random."):
            return qualified[len("numpy.random."):]
        func = call.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in self._generators(scope):
            return func.attr.value
        return None

    # ---- visitors ---------------------------------------------------------------------------------------------
    def visit_Comparison(self, node: cst.Comparison) -> None:
        if len(node.comparisons) != 1 or not isinstance(node.left, cst.Call):
            return
        scope, stmt, blocked = self._context()
        method = self.method_of(node.left, scope)
        if method in UNIFORM01 and not blocked:
            self._add(Site("bernoulli", node, method, node.left, stmt, scope, in_loop=self._in_loop()))
            self._consumed.add(id(node.left))

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self._consumed:
            return
        scope, stmt, blocked = self._context()
        method = self.method_of(node, scope)
        if method is not None:
            if method in SOURCES:
                if not blocked and stmt is not None and not _bound_generator(stmt, node, self, scope):
                    blocked = ("the generator itself is returned or handed on, not bound to a local name: JAX has no "
                               "generator object (return or pass a key, `jax.random.key(seed)`, and update the callers)")
                self._add(Site("source", stmt or node, method, node, stmt, scope, blocked))
            elif method == "shuffle" and stmt is not None and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr) and stmt.body[0].value is node:
                self._add(Site("shuffle", stmt, method, node, stmt, scope, blocked, self._in_loop()))
            elif method in DRAWS or method not in random_keys.HARMLESS:
                self._add(Site("draw", node, method, node, stmt, scope, blocked, self._in_loop()))
            return
        func = node.func
        gen_params = self.summary["functions"].get(scope.name.value, {}).get("gen_params", []) if scope else []
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in gen_params and func.attr.value in DRAWS:
            reason = (
                f"a generator passed in as `{func.value.value}` draws from hidden state: take a key parameter instead "
                "(callers pass `jax.random.key(seed)` or a subkey) and split it per draw"
            )
            self._add(Site("draw", node, func.attr.value, node, stmt, scope, reason))
            return
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute) and \
                func.value.attr.value in random_keys.GENERATOR_PARAMS and func.attr.value in DRAWS and (
                    scope is not None or blocked.startswith("inside a class")) and self.numpy_name(func.value) is None \
                and dotted_name(func.value).split(".")[0] != "jax":
            reason = blocked or (
                f"a generator stored as `.{func.value.attr.value}` draws from hidden state, which `jit` freezes at "
                "trace time: take a key parameter instead and split it per draw"
            )
            self._add(Site("draw", node, func.attr.value, node, stmt, scope, reason))
            return
        dotted = dotted_name(node.func)
        callee = random_keys.qualify(self.summary, dotted) if dotted else None
        if callee in self.needs:
            first = node.args[0].value if node.args and node.args[0].keyword is None and not node.args[0].star else None
            if isinstance(first, cst.Name) and first.value in self.key_names:
                return  # already passes a key (a second pass, or code written that way)
            self._add(Site("call", node, callee, node, stmt, scope, blocked, self._in_loop()))

    def visit_Name(self, node: cst.Name) -> None:
        parent = self.stack[-2] if len(self.stack) > 1 else None
        if isinstance(parent, cst.Param):  # `def __init__(self, noise=_draw_noise)`: a default value
            if parent.default is not node:
                return
        elif not isinstance(parent, (cst.Arg, cst.Element, cst.Assign, cst.AnnAssign, cst.DictElement, cst.Return)) \
                or parent.value is not node:
            return
        callee = random_keys.qualify(self.summary, node.value)
        if callee in self.needs:
            _, stmt, _ = self._context()
            reason = f"`{node.value}` is used as a value: whoever calls it later cannot be given a key here"
            self._add(Site("ref", node, callee, None, stmt, None, reason))


def parameters(fn: cst.FunctionDef) -> set[str]:
    p = fn.params
    return {x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)}


def key_names_in(tree: ast.Module, source: Optional[str] = None) -> set[str]:
    """Names that hold keys already (in the module's `ast` tree): targets of `jax.random.split/key(...)` and
    parameters named like keys. With `source`, remembered per top-level statement (`random_keys.remembered`)."""
    lines = sourcelib.lines(source) if source is not None else None
    names: set[str] = set()
    for stmt in tree.body:
        names |= random_keys.remembered(stmt, lines, lambda stmt=stmt: frozenset(_key_names(stmt)), "key names")
    return names


def _key_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in astwalk.nodes(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            if not (isinstance(func, ast.Attribute) and func.attr in ("split", "key", "PRNGKey")):
                continue
            if (random_keys.dotted(func) or ast.unparse(func)).endswith(("random.split", "random.key", "random.PRNGKey")):
                for target in node.targets:
                    names.update(t.id for t in astwalk.nodes(target) if isinstance(t, ast.Name))
        elif isinstance(node, ast.arg) and node.arg in random_keys.KEY_NAMES:
            names.add(node.arg)
    return names


def with_possible_sites(module: cst.Module, tree: ast.Module, text: str, summary: dict[str, Any], needs: set[str]) -> list[cst.BaseStatement]:
    """The top-level statements of `module` a `SiteCollector` may find something in, in order: all of them but the
    functions (`def` at top level) that, by the module's `ast` tree and `summary`, draw nothing, take no generator,
    and whose text (decorators, comments and strings included) names none of `random`, a local name bound to
    `numpy.random` or to something in it, a module-level generator, or a function in `needs` (its last name, or
    the local name of an import it comes through). `tests/analysis/test_random_sites.py` compares the sites found with and
    without this filter."""
    if not _FILTER.on():
        return list(module.body)
    words = {"random", *summary["generators"]}
    words.update(local for local, q in summary["numpy"].items() if q == "numpy.random" or q.startswith("numpy.random."))
    for q in needs:
        words.add(q.rpartition(".")[2])
        words.update(local for local, target in summary["imports"].items() if q == target or q.startswith(target + "."))
    lines = sourcelib.lines(text)
    wanted: dict[str, bool] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            info = summary["functions"].get(node.name) or {}
            first = precheck.first_line(node)
            segment = "".join(lines[first - 1 : node.end_lineno])
            drawn = info.get("draws") or info.get("blocked") or info.get("gen_params") or info.get("seeded")
            wanted[node.name] = wanted.get(node.name, False) or bool(drawn) or not words.isdisjoint(sourcelib.identifiers(segment))
    return [stmt for stmt in module.body if not isinstance(stmt, cst.FunctionDef) or wanted.get(stmt.name.value, True)]


_FILTER = Switch()
filter_disabled = _FILTER.off  # tests: collect over every statement, and compare


def _bound_generator(stmt: cst.SimpleStatementLine, call: cst.Call, collector: "SiteCollector", scope) -> bool:
    """Whether the generator `call` makes is bound to a local name (`rng = np.random.default_rng(seed)`, also
    through `Generator(PCG64(seed))`) or the global state seeded (`np.random.seed(s)`): the forms whose draws the
    rule can follow; not `return RandomState(seed)` or `fit(X, np.random.default_rng(0))`."""
    if len(stmt.body) != 1:
        return False
    small = stmt.body[0]
    if isinstance(small, cst.Expr):
        return small.value is call and collector.method_of(call, scope) == "seed"  # `np.random.seed(s)` seeds in place
    if not isinstance(small, (cst.Assign, cst.AnnAssign)):
        return False
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
    if not all(isinstance(t, cst.Name) for t in targets):
        return False
    value = small.value
    while value is not None and value is not call:
        if not isinstance(value, cst.Call) or collector.method_of(value, scope) not in SOURCES or not value.args:
            return False
        value = value.args[0].value
    return value is call

