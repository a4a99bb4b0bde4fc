"""Who needs a PRNG key: the project-wide call graph of functions that draw from NumPy's hidden RNG state.

`summarize` (run by the runner on every file, with `ast`) records per top-level function whether it draws from
NumPy's global state or a generator, whether it seeds its own generator (`rng = default_rng(seed)` at the top of
its body: it then needs no key from its caller), whether a draw sits where a key cannot be threaded (a lambda, a
comprehension, a nested function, a loop or `if` header, or a method with no JAX equivalent: "blocked"), and whom
it calls. `link` resolves calls across modules (`from pkg.mod import f`, `import pkg.mod as m; m.f()`, relative
imports) and computes, by fixpoint, the functions that must take a key: those that draw unseeded, or call such a
function, without a seed of their own.
"""

from __future__ import annotations

import ast
import json
import os
import re
from typing import Any, Callable, Iterable, Mapping, Optional, TypeVar

from jaxfix import astwalk, precheck
from jaxfix import source as sourcelib
from jaxfix.analysis.plain_python import numba_compiler, numba_module
from jaxfix.analysis.random_draws import DRAWS, SOURCES

BLOCKING = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
KEY_NAMES = ("key", "rng_key", "prng_key", "key_")
# names that hold a NumPy generator by convention (scikit-learn's `random_state`, dynesty's `rstate`, emcee's
# `random`), as parameters or attributes (`self.rng`, `model.random`)
GENERATOR_PARAMS = {"rng", "random_state", "generator", "gen", "prng", "rstate", "random", "random_generator", "randomstate"}
T = TypeVar("T")
HARMLESS = {"Generator", "PCG64", "SeedSequence"}  # used as arguments of sources


def _dotted(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


dotted = _dotted  # `a.b.c` of a Name/Attribute chain, else None


def _resolve(dotted: Optional[str], aliases: dict[str, str]) -> Optional[str]:
    if not dotted:
        return None
    head, _, rest = dotted.partition(".")
    if head not in aliases:
        return None
    return f"{aliases[head]}.{rest}" if rest else aliases[head]


def _imports(tree: ast.Module, module_name: str, is_package: bool) -> tuple[dict[str, str], dict[str, str]]:
    """(numpy aliases, other imports): local name -> qualified name."""
    numpy: dict[str, str] = {}
    other: dict[str, str] = {}
    package = module_name if is_package else module_name.rpartition(".")[0]
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                target = numpy if a.name.split(".")[0] == "numpy" else other
                target[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(node, package)
            for a in node.names:
                target = numpy if base.split(".")[0] == "numpy" else other
                target[a.asname or a.name] = f"{base}.{a.name}" if base else a.name
    return numpy, other


def _from_base(node: ast.ImportFrom, package: str) -> str:
    """The module `from ... import` reads, relative imports resolved against `package`."""
    base = node.module or ""
    if node.level:
        parts = package.split(".") if package else []
        parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
        base = ".".join([*parts, *([node.module] if node.module else [])])
    return base


def _local_imports(tree: ast.Module, module_name: str, is_package: bool) -> dict[str, str]:
    """{qualified name: why} for what functions and classes import inside their bodies (`def summary(x): from
    pkg.stats import boot_mean`): the index follows calls through top-level imports only, so such a callee must keep
    its signature (a key parameter would break a call no fix reaches)."""
    package = module_name if is_package else module_name.rpartition(".")[0]
    found: dict[str, str] = {}
    for top in tree.body:
        if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in astwalk.nodes(top):
            if isinstance(node, ast.ImportFrom):
                base = _from_base(node, package)
                for a in node.names:
                    found.setdefault(f"{base}.{a.name}" if base else a.name,
                                     "an import inside a function, whose calls are not followed")
    return found


def random_method(call: ast.Call, numpy: dict[str, str], generators: Iterable[str]) -> Optional[str]:
    """`normal` for `np.random.normal(...)` / `rng.normal(...)` (rng a generator), else None."""
    qualified = _resolve(_dotted(call.func), numpy)
    if qualified and qualified.startswith("numpy.random."):
        return qualified[len("numpy.random."):]
    if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id in generators:
        return call.func.attr
    return None


def _generators(body: Iterable[ast.AST], numpy: dict[str, str]) -> set[str]:
    return _generators_among((sub for node in body for sub in astwalk.nodes(node)), numpy)


def _generators_among(nodes: Iterable[ast.AST], numpy: dict[str, str]) -> set[str]:
    names = set()
    for sub in nodes:
        if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Call) and len(sub.targets) == 1:
            method = random_method(sub.value, numpy, ())
            if method in ("default_rng", "RandomState", "Generator") and isinstance(sub.targets[0], ast.Name):
                names.add(sub.targets[0].id)
    return names


NUMBA_WORDS = ("numba", "nb.", "njit", "vectorize")  # in the text of every name `numba_compiler` accepts


def _numba(fn: ast.FunctionDef | ast.AsyncFunctionDef, imported: frozenset[str] = frozenset()) -> bool:
    """Compiled by numba (`@njit`, `@nb.jit(...)`, `@jit` with `from numba import jit`): numba runs `np.random`
    itself, and rejects `jax.random`."""
    for d in fn.decorator_list:
        name = _dotted(d.func if isinstance(d, ast.Call) else d) or ""
        if numba_compiler(name) or name.split(".")[0] in imported:
            return True
    return False


def _numba_imports(tree: ast.Module, source: Optional[str] = None) -> frozenset[str]:
    """Names bound at the top of the module by `from numba[...] import ...` or from a project's module of numba
    wrappers (`plain_python.numba_module`), and top-level functions calling a numba compiler (decorator factories).
    With the module's `source`, a module whose text names no numba compiler (`numba_compiler`: every such name
    holds one of `NUMBA_WORDS`) is not walked."""
    if source is not None and not any(word in source for word in NUMBA_WORDS):
        return frozenset()
    imported = {
        alias.asname or alias.name
        for top in tree.body
        # (under a top-level `try` too: `try: from numba import jit` / `except ImportError: def jit(f, ...): ...`)
        for node in ([top] if not isinstance(top, ast.Try) else [*top.body, *(s for h in top.handlers for s in h.body)])
        if isinstance(node, ast.ImportFrom) and numba_module(node.module or "")
        for alias in node.names
    }
    imported.update(
        node.name for node in tree.body
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(sub, ast.Call) and numba_compiler(_dotted(sub.func) or "") for sub in astwalk.nodes(node))
    )
    return frozenset(imported)


def _numba_handed(tree: ast.Module, imported: frozenset[str]) -> frozenset[str]:
    """Names of functions the module hands to a numba compiler at its top (`draw = jit(draw_python, nopython=True)`):
    numba compiles them as a decorator would."""
    names = set()
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.Expr)) else None
        if isinstance(value, ast.Call) and value.args and isinstance(value.args[0], ast.Name):
            name = _dotted(value.func) or ""
            if numba_compiler(name) or name.split(".")[0] in imported:
                names.add(value.args[0].id)
    return frozenset(names)


def _module_random(node: ast.Attribute, numpy: dict[str, str]) -> bool:
    """`np.random`, `numpy.random`, `jax.random`: a module, not a generator stored on an object."""
    dotted = _dotted(node) or ""
    return (_resolve(dotted, numpy) or "").startswith("numpy.") or dotted.split(".")[0] == "jax"


def _function(fn: ast.FunctionDef, numpy: dict[str, str], module_generators: set[str]) -> dict[str, Any]:
    nodes = list(astwalk.nodes(fn))  # walked once; every loop below reads this list (ast.walk's order)
    local = _generators_among(nodes, numpy)  # assignments sit in the body (not in decorators or parameters)
    generators = local | module_generators
    info: dict[str, Any] = {"draws": 0, "blocked": [], "calls": [], "seeded": False, "generators": sorted(generators)}
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    info["gen_params"] = sorted(  # a generator passed in: its draws need a key from the caller instead
        a.arg
        for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)
        if a.arg in GENERATOR_PARAMS or (_resolve(_dotted(a.annotation), numpy) or "").startswith(("numpy.random.Generator", "numpy.random.RandomState"))
    )
    calls = [n for n in nodes if isinstance(n, ast.Call)]
    for n in calls:
        if isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
            if n.func.value.id in info["gen_params"] and n.func.attr in DRAWS:
                info["blocked"].append((n.lineno, f"a generator passed in as `{n.func.value.id}`"))
        if isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Attribute) and \
                n.func.value.attr in GENERATOR_PARAMS and n.func.attr in DRAWS and not _module_random(n.func.value, numpy):
            info["blocked"].append((n.lineno, f"a generator stored as `.{n.func.value.attr}`"))
    used = {  # parameters passed as the key of a `jax.random` call: the function already takes a key
        n.args[0].id
        for n in calls
        if ".random." in f".{_dotted(n.func) or ''}" and n.args and isinstance(n.args[0], ast.Name)
        and random_method(n, numpy, generators) is None
    }
    info["keyed"] = sorted(params & used)  # a second pass, or code written that way
    info["framework"] = framework_called(fn)
    info["local_key"] = any(  # already seeds a key of its own: `key = jax.random.key(seed)`
        isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and (_dotted(n.value.func) or "").endswith(("random.key", "random.PRNGKey"))
        for n in fn.body
    )
    for stmt in fn.body:
        call = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else None
        if isinstance(call, ast.Call) and random_method(call, numpy, ()) in SOURCES and (call.args or call.keywords):
            info["seeded"] = True
    parents = _Parents(nodes)
    for node in calls:
        method = random_method(node, numpy, generators)
        if method is None:
            name = _dotted(node.func)
            if name:
                info["calls"].append(name)
            continue
        if method in SOURCES or method in HARMLESS:
            continue
        reason = None if method in DRAWS else f"`{method}` has no `jax.random` equivalent"
        child, parent = node, parents.get(node)
        while reason is None and parent is not None and parent is not fn:
            if isinstance(parent, BLOCKING):
                reason = f"draw inside a {type(parent).__name__.lower()}: no statement to split a key before"
            elif isinstance(parent, (ast.For, ast.While, ast.If)) and child in (getattr(parent, "iter", None), parent.__dict__.get("test")):
                reason = "draw in a loop or `if` header: move it into a statement of its own"
            child, parent = parent, parents.get(parent)
        if reason:
            info["blocked"].append((node.lineno, reason))
        else:
            info["draws"] += 1
            info["first_draw"] = min(info.get("first_draw", node.lineno), node.lineno)
    _check_state(nodes, calls, numpy, generators, parents, info)
    return info


TRANSPARENT_DECORATORS = {"staticmethod", "classmethod", "jit", "jax.jit"}  # they call it with the caller's arguments
TRANSPARENT_DECORATOR_CALLS = {"wraps", "functools.wraps"}


def framework_called(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """Why a framework, not code of the batch, calls `fn` and chooses its arguments ("" when nothing says so):
    pytest collects a module's `test*` functions and takes each parameter for a fixture; a decorator may call it
    with arguments of its own (nevergrad's `@testing.parametrized(...)`, `@pytest.fixture`, `@lru_cache`), except
    the transparent ones (`staticmethod`, `functools.wraps(...)`, a bare `jax.jit`). A `key` parameter added to such
    a function is a missing fixture or argument: it keeps its signature and makes a key of its own (JX401)."""
    for decorator in fn.decorator_list:
        call = isinstance(decorator, ast.Call)
        name = _dotted(decorator.func if call else decorator)
        if name in (TRANSPARENT_DECORATOR_CALLS if call else TRANSPARENT_DECORATORS):
            continue
        return f"it is decorated with `@{name or 'a decorator'}{'(...)' if call else ''}`, which may call it with arguments of its own"
    if fn.name.startswith("test"):
        return "pytest calls it (a `test*` function) and takes each parameter for a fixture"
    return ""


class _Parents:
    """child -> parent over a function's nodes, built when first asked (most functions draw nothing and never ask)."""

    def __init__(self, nodes: list[ast.AST]) -> None:
        self._nodes = nodes
        self._map: Optional[dict[ast.AST, ast.AST]] = None

    def get(self, node: ast.AST) -> Optional[ast.AST]:
        if self._map is None:
            self._map = {child: parent for parent in self._nodes for child in ast.iter_child_nodes(parent)}
        return self._map.get(node)

    def __getitem__(self, node: ast.AST) -> ast.AST:
        found = self.get(node)
        if found is None:
            raise KeyError(node)
        return found


def _check_state(
    nodes: list[ast.AST], calls: list[ast.Call], numpy: dict[str, str], generators: set[str], parents: _Parents, info: dict[str, Any]
) -> None:
    """Block what one key per function cannot express: several sources, a draw before the seed, a generator that
    is passed around (an argument, a return value) rather than only drawn from. `nodes`: the function's nodes in
    `ast.walk` order; `calls`: its calls among them."""
    sources = [n for n in calls if random_method(n, numpy, ()) in SOURCES]
    if len(sources) > 1:
        info["blocked"].append((sources[1].lineno, "several RNG sources in one function: keep one key and split it"))
    if info["seeded"] and sources and info.get("first_draw", sources[0].lineno + 1) < sources[0].lineno:
        info["blocked"].append((info["first_draw"], "a draw before the function seeds its generator"))
    for node in nodes if generators else ():
        if isinstance(node, ast.Name) and node.id in generators and isinstance(node.ctx, ast.Load):
            parent = parents.get(node)
            if not (isinstance(parent, ast.Attribute) and isinstance(parents.get(parent), ast.Call) and parents[parent].func is parent):
                info["blocked"].append((node.lineno, f"the generator `{node.id}` is passed around, not only drawn from"))


_REMEMBERED: dict[tuple[Any, ...], Any] = {}


def forget() -> None:
    """Drop the remembered facts (the engine calls this after each file: they pay off across its passes)."""
    _REMEMBERED.clear()


def remembered(node: ast.stmt, lines: Optional[list[str]], compute: Callable[[], T], *key: Any) -> T:
    """`compute()` for the top-level statement `node`, remembered by its text (decorators included), column and
    `key` (everything else the answer depends on): the same text parses to the same tree, but for its line numbers
    (an answer that holds line numbers must not be remembered this way: see `_summary_of`). Without `lines` (the
    module's, `jaxfix.source.lines`), computed every time."""
    if lines is None:
        return compute()
    first = precheck.first_line(node)
    full = ("".join(lines[first - 1 : node.end_lineno]), node.col_offset, *key)
    if full in _REMEMBERED:
        return _REMEMBERED[full]
    if len(_REMEMBERED) >= 20_000:
        _REMEMBERED.clear()
    answer = _REMEMBERED[full] = compute()
    return answer


def _summary_of(node: ast.FunctionDef, lines: Optional[list[str]], numpy: dict[str, str], module_generators: set[str]) -> dict[str, Any]:
    """`_function`, remembered with the line it was computed at: its line numbers (of blocked draws, of the first
    draw) are moved when the same function text is met further up or down (fixes above it added lines)."""
    context = (tuple(sorted(numpy.items())), tuple(sorted(module_generators)))
    line, info = remembered(node, lines, lambda: (node.lineno, _function(node, numpy, module_generators)), "summary", context)
    delta = node.lineno - line
    if not delta:
        return info
    moved = dict(info, blocked=[(at + delta, why) for at, why in info["blocked"]])
    if "first_draw" in info:
        moved["first_draw"] = info["first_draw"] + delta
    return moved


def summarize(
    path: str, module_name: str, tree: ast.Module, source: Optional[str] = None, *, project: bool = True
) -> dict[str, Any]:
    """The module's facts for `link`. With `source` (the text of `tree`), a function's facts are remembered by its
    text and the module facts they depend on: the engine asks again on every pass, where most functions did not
    change (the facts must not be modified by the caller). `project=False` leaves out what only matters to other
    modules (`stuck_calls`), for the rule's own per-pass link."""
    is_package = path.endswith("__init__.py")
    numpy, other = _imports(tree, module_name, is_package)
    module_generators = _generators([n for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.ClassDef))], numpy)
    lines = sourcelib.lines(source) if source is not None else None
    numba_names = _numba_imports(tree, source)
    handed = _numba_handed(tree, numba_names) if source is None or any(w in source for w in NUMBA_WORDS) else frozenset()
    functions = {
        node.name: _summary_of(node, lines, numpy, module_generators)
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _numba(node, numba_names)
        and node.name not in handed
    }
    # functions called from classes: a method is never given a key, so such a callee must keep its signature
    class_calls = sorted({
        name
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        for call in astwalk.nodes(node)
        if isinstance(call, ast.Call) and (name := _dotted(call.func))
    })
    return {
        "module": module_name, "functions": functions, "imports": other, "numpy": numpy,
        "generators": sorted(module_generators), "class_calls": class_calls,
        "stuck_calls": {**_local_imports(tree, module_name, is_package), **_stuck_calls(tree, numpy)} if project else {},
    }


_KINDS = {
    ast.Lambda: "a lambda", ast.ListComp: "a comprehension", ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension", ast.GeneratorExp: "a generator expression", ast.FunctionDef: "a nested function",
    ast.AsyncFunctionDef: "a nested function", ast.ClassDef: "a class",
}


def _stuck_calls(tree: ast.Module, numpy: dict[str, str]) -> dict[str, str]:
    """{name: where} for the names this module calls, or uses as values, where no key can be passed (the places
    JX401 refuses, `random_sites`): inside a lambda, comprehension, nested function or class; in a compound
    statement's header; at module level with no seed to derive a key from; a function used as a value. Such a
    callee in another module must keep its signature (`link` pins it). Top-level classes are `class_calls`."""
    out: dict[str, str] = {}

    def everything(node: ast.AST, where: str) -> None:
        for sub in astwalk.nodes(node):
            if isinstance(sub, ast.Call) and (name := _dotted(sub.func)):
                out.setdefault(name, where)
        refs(node)

    def refs(node: ast.AST) -> None:
        called = {id(sub.func) for sub in astwalk.nodes(node) if isinstance(sub, ast.Call)}
        for sub in astwalk.nodes(node):
            if isinstance(sub, (ast.Name, ast.Attribute)) and isinstance(sub.ctx, ast.Load) and id(sub) not in called:
                if name := _dotted(sub):
                    out.setdefault(name, "a reference (the function used as a value)")

    def simple(node: ast.AST) -> None:
        refs(node)
        for sub in astwalk.nodes(node):
            if isinstance(sub, BLOCKING):
                everything(sub, _KINDS[type(sub)])

    def block(stmts: Iterable[ast.stmt]) -> None:
        header = "a compound statement's header (`for`, `while`, `if`, `with`)"
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                everything(stmt, _KINDS[type(stmt)])
                continue
            fields = list(ast.iter_fields(stmt))
            if not any(isinstance(v, list) and v and isinstance(v[0], ast.stmt) for _, v in fields):
                simple(stmt)
                continue
            for field, value in fields:
                if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                    block(value)
                elif field == "handlers":
                    for handler in value:
                        if handler.type is not None:
                            everything(handler.type, header)
                        block(handler.body)
                elif field == "cases":
                    for case in value:
                        everything(case.pattern, header)
                        if case.guard is not None:
                            everything(case.guard, header)
                        block(case.body)
                elif isinstance(value, ast.AST):
                    everything(value, header)
                elif isinstance(value, list):
                    for item in value:
                        if isinstance(item, ast.AST):
                            everything(item, header)

    top = [stmt for stmt in tree.body if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    seeded = any(
        isinstance(sub, ast.Call) and (sub.args or sub.keywords) and random_method(sub, numpy, ()) in SOURCES
        for stmt in top
        for sub in astwalk.nodes(stmt)
    )
    for stmt in top:
        if seeded:
            block([stmt])
        else:
            everything(stmt, "module-level code with no seed to derive a key from")
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            block(stmt.body)
            for expr in (*stmt.decorator_list, *stmt.args.defaults, *(d for d in stmt.args.kw_defaults if d is not None)):
                everything(expr, "a decorator or default value")
        elif isinstance(stmt, ast.ClassDef):
            refs(stmt)  # `def __init__(self, noise=draw_noise)`: its calls are `class_calls`, not its references
    return dict(sorted(out.items()))


def qualify(summary: dict[str, Any], dotted: str) -> Optional[str]:
    """The project-wide name of a called function (`helper` -> `pkg.mod.helper`)."""
    head, _, rest = dotted.partition(".")
    if not rest and head in summary["functions"]:
        return f"{summary['module']}.{head}"
    return _resolve(dotted, summary["imports"])


def link(
    summaries: dict[str, dict[str, Any]], external: Iterable[str] = (), pinned: Mapping[str, str] | Iterable[str] = ()
) -> dict[str, Any]:
    """{"needs_key": sorted qualified names of functions that must take a key, "pinned": {name: where} for those
    that may not, being called from another module at a place no key can be passed}. Those places: a class (a method
    is never given a key), the places `_stuck_calls` lists (a lambda, a comprehension, a header, module-level code
    without a seed, a function used as a value), and a function of that module that is itself left unconverted (its
    own draws are refused, or it is pinned). A pinned function's draws are reported, not rewritten: giving it a key
    parameter would break that caller, which no fix reaches, and a second run would then see a function that
    already takes a key and rewrite differently. Within one module the module's fix is all or nothing, so a
    refused caller there makes it unsafe instead."""
    graph: dict[str, tuple[dict, list[str]]] = {}
    held: dict[str, str] = dict(pinned) if isinstance(pinned, Mapping) else dict.fromkeys(pinned, "from another module")
    by_name: dict[str, list[str]] = {}
    for summary in summaries.values():
        for name in summary["functions"]:
            by_name.setdefault(name, []).append(f"{summary['module']}.{name}")
    aliases: dict[str, str] = {}  # a name a package re-exports -> the function it is
    modules = {summary["module"] for summary in summaries.values()}

    def canonical(qualified: Optional[str]) -> Optional[str]:
        """`pkg.sub.make_pos` for `pkg.sub.gen.make_pos` when the package re-exports it (`from .gen import *` in
        `pkg/sub/__init__.py`, which the index does not read): the one function of that name in the package."""
        if not qualified or qualified in graph or qualified in modules:
            return qualified  # (`sim.step`, a module used as a value, is not its function `sim.step.step`)
        package, _, name = qualified.rpartition(".")
        found = [q for q in by_name.get(name, ()) if q.startswith(package + ".") and q.rpartition(".")[0] != qualified]
        if len(found) != 1:
            return qualified
        aliases[qualified] = found[0]
        return found[0]

    for summary in summaries.values():
        for name, info in summary["functions"].items():
            graph[f"{summary['module']}.{name}"] = (info, [])
    for summary in summaries.values():
        module = summary["module"]
        for name, info in summary["functions"].items():
            calls = [q for q in (canonical(qualify(summary, c)) for c in info["calls"]) if q]
            graph[f"{module}.{name}"] = (info, calls)
        stuck = {call: "a class, whose methods cannot be given a key" for call in summary.get("class_calls", ())}
        for call, where in summary.get("stuck_calls", {}).items():
            stuck.setdefault(call, where)
        for call, where in stuck.items():
            callee = canonical(qualify(summary, call) or (call if call in graph else None))
            if callee and callee.rpartition(".")[0] != module:
                held.setdefault(callee, f"in `{module}` from {where}")
    # a function left unconverted (its own draws refused, or pinned) keeps its calls as they are: its callees in
    # other modules must keep their signatures too
    changed = True
    while changed:
        changed = False
        for name, (info, calls) in graph.items():
            if info["blocked"] or name in held:
                module = name.rpartition(".")[0]
                for callee in calls:
                    if callee not in held and callee in graph and callee.rpartition(".")[0] != module:
                        held[callee] = f"in `{module}` from `{name.rpartition('.')[2]}`, which is left unconverted"
                        changed = True
    needs = set(external) - set(held)
    changed = True
    while changed:
        changed = False
        for name, (info, calls) in graph.items():
            if name in needs or name in held or info["blocked"] or info["seeded"] or info["local_key"] or info.get("framework"):
                continue
            if info["draws"] or any(c in needs for c in calls):
                needs.add(name)
                changed = True
    needs.update(alias for alias, function in aliases.items() if function in needs)  # what the callers call
    return {"needs_key": sorted(needs), "pinned": dict(sorted(held.items()))}


def cross_module(facts: Mapping[str, Any], summaries: Mapping[str, dict[str, Any]],
                 contents: Mapping[str, bytes]) -> dict[str, dict[str, str]]:
    """{path: {qualified name: why it would be pinned}} for the files of the run whose key threading the linked
    `facts` count on across modules: each file that calls or imports a function of another module that gains a key
    (the caller side: a call its functions make, a name it imports, or the name after a module it imports, found in
    its bytes, as module-level code calls it), and that function's module (the callee side). When one of them does
    not get its fix applied (held back by other findings there, an unsafe fix, an error), the other side would pass
    a key to a function that takes none, or call one that now needs a key without it: the runner pins these names
    (`link(pinned=...)`), so both sides keep their signatures and calls."""
    needs = set(facts.get("needs_key", ()))
    if not needs:
        return {}
    paths_of: dict[str, list[str]] = {}  # (two files may share a module name: scripts in different folders)
    defined: dict[str, set[str]] = {}
    for path, summary in summaries.items():
        paths_of.setdefault(summary["module"], []).append(path)
        defined.setdefault(summary["module"], set()).update(summary["functions"])

    def canonical(qualified: str) -> Optional[str]:
        """The function `qualified` names: itself, or the one function of that name in the package that re-exports
        it (`pkg.sub.bits` for `pkg.sub.gen.bits`, as `link` adds such aliases); None when there is no such one."""
        owner, _, name = qualified.rpartition(".")
        if name in defined.get(owner, ()):
            return qualified
        found = [q for q in needs if q != qualified and q.startswith(owner + ".") and q.rpartition(".")[2] == name
                 and name in defined.get(q.rpartition(".")[0], ())]
        return found[0] if len(found) == 1 else None

    out: dict[str, dict[str, str]] = {}
    for path, summary in summaries.items():
        module = summary["module"]
        counted = {q for info in summary["functions"].values() for q in (qualify(summary, c) for c in info["calls"])}
        data = contents.get(path, b"")
        # a name imported and called outside functions (`tx(4)` under `if __name__ == "__main__":`); an import alone
        # (a package's `from .core import kick`, a re-export) changes nothing
        counted.update(target for alias, target in summary["imports"].items()
                       if re.search(rb"(?<![\w.])" + re.escape(alias.encode()) + rb"[ \t]*\(", data))
        for qualified in needs:
            owner, _, name = qualified.rpartition(".")
            function = canonical(qualified)
            if function is None or function.rpartition(".")[0] == module:
                continue  # its own function, or a re-export of no one function
            spelled = [f"{alias}{owner[len(target):]}.{name}".encode() for alias, target in summary["imports"].items()
                       if owner == target or owner.startswith(target + ".")]  # `g.nrz` after `import pkg.gen as g`
            if qualified not in counted and not any(spelling in data for spelling in spelled):
                continue
            out.setdefault(path, {})[function] = (
                f"from `{module}`, whose key threading is not applied (held back by other findings there, unsafe, "
                "or left unchanged)")
            for callee_path in paths_of[function.rpartition(".")[0]]:
                out.setdefault(callee_path, {})[function] = (
                    "from other modules while its own module's key threading is not applied (held back by other "
                    "findings there, unsafe, or left unchanged)")
    # a file of the run with no summary that calls such a function could not be indexed (not valid Python, not
    # UTF-8, over max-file-bytes), and a notebook's cells are not: it keeps its calls, so the function keeps its
    # signature (its trial fails, or it is not tried)
    short_names = {q.rpartition(".")[2].encode() for q in needs}
    for path, data in contents.items():
        notebook = path.endswith(".ipynb")
        if path in summaries and not notebook or not any(name in data for name in short_names):
            continue
        text = notebook_code(data) if notebook else data.decode("utf-8", "replace")
        for qualified in sorted(needs):
            if _called_in_text(qualified, text):
                out.setdefault(path, {})[qualified] = (
                    f"in the notebook `{os.path.basename(path)}`, whose calls are not given keys" if notebook else
                    f"in `{os.path.basename(path)}`, which jaxfix cannot read or parse (see its error)")
    return out


def notebook_code(data: bytes) -> str:
    """The code cells of a notebook's JSON, one after another (the whole text when it is not a notebook's JSON)."""
    try:
        cells = json.loads(data).get("cells", [])
        return "\n".join("".join(c["source"]) if isinstance(c.get("source"), list) else str(c.get("source", ""))
                         for c in cells if isinstance(c, dict) and c.get("cell_type") == "code")
    except (ValueError, AttributeError, TypeError, KeyError):
        return data.decode("utf-8", "replace")


def _called_in_text(qualified: str, text: str) -> bool:
    """Whether code that could not be parsed calls the function `qualified` (`pkg.gen.bits`): it names its module
    (`gen`: `from pkg.gen import bits`, `import pkg.gen as g`) or imports the name (`from pkg import bits`), and calls
    it by that name, an alias it imports (`bits as draw`), or as an attribute (`g.bits(n)`); a call of its own
    function of that name (`def bits(`) is not counted."""
    owner, _, name = qualified.rpartition(".")
    module = owner.rpartition(".")[2]
    named = re.search(rf"\b{re.escape(module)}\b", text) if module else None
    imported = re.search(rf"\bimport\b[^\n]*\b{re.escape(name)}\b", text)
    if not named and not imported:
        return False
    aliases = re.findall(rf"\b{re.escape(name)}\s+as\s+(\w+)", text)
    own = re.search(rf"\bdef\s+{re.escape(name)}\s*\(", text)
    bare = [*([] if own else [name]), *aliases]
    if bare and re.search(r"(?<![\w.])(" + "|".join(map(re.escape, bare)) + r")[ \t]*\(", text):
        return True
    return bool(named) and re.search(rf"\.{re.escape(name)}[ \t]*\(", text) is not None
