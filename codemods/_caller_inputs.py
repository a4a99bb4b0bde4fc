"""What calls in other modules of the run pass a module's functions: the project index behind the caller-input
analyses of `_list_inputs` (`list_fed_parameters`, `unflat_fed_parameters`, `text_fed_parameters`,
`object_fed_parameters`), which otherwise see the calls of the module alone.

- `INDEX`: the `jaxfix.rule.ProjectIndex` the rules that read these facts declare (JX201, JX304, JX501). A file is
  summarised only when its bytes import a module of the run (`wanted`); its summary is read off the `ast` tree:
  the calls of the run's functions it makes anywhere (functions, class bodies, lambdas, defaults), resolved
  through its imports (`from pkg.helpers import reshape_z`, `import pkg.helpers as h; h.reshape_z(...)`, relative
  and star imports, a name bound to such a function, a namespace package's `pkg.helpers` for the run's `helpers`),
  with the kinds of value each argument is, judged by the in-module predicates themselves on that caller (parsed
  with LibCST only for a call given a candidate: a display, a literal, a lambda, a name bound in the caller, a call
  of `list`/`tuple`/`json.loads`/`Decimal`/`Fraction`/a `numpy.ma` or array-making function; from a copy cut past
  a depth, `_pruned`); the parameters of its own functions it passes on to such calls (`update(z)` calling
  `reshape_z(z, 1)`), by position or keyword; and its module-level imports of the run and star imports (what it
  re-exports).
- `link`: {callee module: {function: {kind: [positions and keywords]}}}, through re-exports (`pkg.api.reshape_z`,
  `pkg.rz`: `pkg.helpers.reshape_z`) and those pass-on chains across modules, keeping only what a call in another
  module than the callee's passes (the callee's own calls are its in-module analysis's).
- `fed(project, module_name, kind)`: that module's entry, with what a package above it gets for a function of
  that name (`fuzz.trimf(...)` after `import skfuzzy as fuzz`, `trimf` defined in `skfuzzy.membership`).
- one more kind, `RESULT` + a run's function: the argument is (computed from) what that function returns
  (`spectrum(t, gauss(t))`, `h = gauss(t)`, then `spectrum(t, h)`); `fed_results` gives a module the calls that
  pass one of its functions' results to another of its functions (`_caller_writes.host_results`), and
  `results_fed_elsewhere` those that pass them to a function of another module.
- one more, `NUMPY_SINK` (`numpy_sinks`): what a function returns reaches, in another module, a call that needs a
  NumPy array; a call of a function the run itself defines (pywt's own `waverec` while pywt, a NumPy-only library,
  is migrated) is none (that function is migrated too, its needs found where it is defined): a summary keeps such
  sinks apart (`run_sinks`, with its `defined` functions and classes) and `link` drops those whose callee a module
  of the run defines (a compiled extension under a package of the run still counts).
"""

from __future__ import annotations

import ast
import functools
from typing import Any, Iterator, Mapping, Optional, Union

import libcst as cst

from jaxfix import walk
from jaxfix.analysis.random_keys import dotted
from jaxfix.rule import ProjectIndex

KEY = "caller_inputs"
KINDS = ("list", "unflat", "text", "object")  # (and `IDENTITY`, `RESULT`)
Spec = Union[int, str]  # a positional argument's index, or a keyword

# the calls whose result a predicate of `_list_inputs` may take for a list or an object (`list(...)`, `json.loads`,
# `Decimal(...)`, `np.array([None] * n)`, `np.ma.masked_invalid(x)`): by the last part of the called name
_CANDIDATE_CALLS = frozenset({"list", "tuple", "load", "loads", "Decimal", "Fraction", "array", "asarray", "asanyarray",
                              "ascontiguousarray", "asfortranarray", "atleast_1d", "atleast_2d", "atleast_3d",
                              "empty", "full", "zeros", "ones"})

# `_list_inputs.element_base`: a slice, item or reshaping of an array holds its elements
_ELEMENT_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})
_ELEMENT_METHODS = frozenset({"reshape", "ravel", "flatten", "copy", "squeeze", "transpose", "swapaxes", "take",
                              "repeat", "compress", "diagonal", "conj", "conjugate", "view", "cumsum", "cumprod"})


@functools.lru_cache(maxsize=4)
def _tops(modules: frozenset) -> frozenset:
    return frozenset(m.split(".")[0].encode() for m in modules if m)


def wanted(data: bytes, module_name: str, is_package: bool, modules: frozenset) -> bool:
    """Whether a line of the file imports from a module of the run (a relative import, or an absolute one whose
    top-level name is a run's module's): only such a file may call another module's function. A look at the lines
    that say `import`, cheaper than reading the imports (a string that looks like an import counts too)."""
    tops = _tops(modules)
    start = 0
    while (found := data.find(b"import", start)) >= 0:
        line_start = data.rfind(b"\n", 0, found) + 1
        line_end = data.find(b"\n", found)
        line_end = len(data) if line_end < 0 else line_end
        words = data[line_start:line_end].replace(b",", b" ").split()
        # (any part of the dotted name: `from pkg.helpers import f` where `pkg` is a namespace package, a folder
        # without `__init__.py`, whose `helpers.py` is the run's module `helpers`)
        if words[:1] == [b"from"] and len(words) > 1 and (words[1].startswith(b".") or any(p in tops for p in words[1].split(b"."))):
            return True
        if words[:1] == [b"import"] and any(p in tops for w in words[1:] for p in w.split(b".")):
            return True
        start = line_end
    return False


def _name_of(node: ast.AST) -> str:
    return dotted(node) or ""


def _imports(tree: ast.AST, module_name: str, is_package: bool, nodes: Optional[list[ast.AST]] = None) -> dict[str, str]:
    """{local name: what it is bound to} for the module's imports at any depth, or those among `nodes` (`from
    .util import f as g` in `pkg.m`: g -> pkg.util.f; `import pkg.util as u`: u -> pkg.util; `import pkg.util`:
    pkg -> pkg)."""
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    found: dict[str, str] = {}
    for node in ast.walk(tree) if nodes is None else nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                found[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if node.level - 1 >= len(package):
                    continue
                base = package[: len(package) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                if alias.name != "*" and source:
                    found[alias.asname or alias.name] = f"{source}.{alias.name}"
    return found


def _stars(tree: ast.Module, module_name: str, is_package: bool, modules: frozenset) -> list[str]:
    """The modules of the run the module star-imports (`from pkg.helpers import *`, `from .helpers import *`)."""
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    found = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            if node.level and node.level - 1 >= len(package):
                continue
            base = package[: len(package) - (node.level - 1)] if node.level else []
            source = ".".join([*base, node.module] if node.module else base)
            if source in modules:
                found.append(source)
    return found


def _in_run(qualified: str, modules: frozenset) -> bool:
    parts = qualified.split(".")
    return any(".".join(parts[:n]) in modules for n in range(1, len(parts)))


def _candidate(value: ast.AST, local: set[str], defined: set[str]) -> bool:
    """A value one of `_list_inputs`' predicates may take for a list, text or an object (see the module docstring);
    `local`: the names the caller binds by assignment, `defined`: the functions and classes the module or the
    caller defines."""
    if isinstance(value, (ast.List, ast.Tuple, ast.ListComp, ast.Lambda, ast.JoinedStr)):
        return True
    if isinstance(value, ast.Constant):
        return isinstance(value.value, (str, bytes))
    if isinstance(value, ast.Name):
        return value.id in local or value.id in defined
    if isinstance(value, ast.Subscript) or isinstance(value, ast.Attribute) and value.attr in _ELEMENT_ATTRIBUTES:
        return _candidate(value.value, local, set())  # `z[:1]`, `z.T` of such a value
    if isinstance(value, ast.Call):
        if isinstance(value.func, ast.Attribute) and value.func.attr in _ELEMENT_METHODS \
                and _candidate(value.func.value, local, set()):
            return True  # `z.ravel()`
        name = _name_of(value.func)
        return name.split(".")[-1] in _CANDIDATE_CALLS or ".ma." in f".{name}"
    return False


def _mapped(iterables: list[ast.expr]) -> Iterator[tuple[Spec, ast.AST, bool]]:
    """(position, value, whether it is the iterable itself) for the function `map(f, *iterables)` calls, as
    `_list_inputs._mapped_arguments` reads them: the `k`th parameter gets each item of a display given `k`th, or a
    row of another iterable (of an object array: an object array or an object)."""
    for index, iterable in enumerate(iterables):
        if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
            yield from ((index, e, False) for e in iterable.elts if not isinstance(e, ast.Starred))
        else:
            yield index, iterable, True


def _arguments(call: ast.Call) -> Iterator[tuple[Spec, ast.AST]]:
    """(position or keyword, value) for a call's arguments, as `_list_inputs._bound_arguments` reads them: the items
    of a starred display by position, the entries of a `**` dict display with string keys by keyword; after a `*`
    of anything else the positions are unknown."""
    index: Optional[int] = 0
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            if index is not None and isinstance(arg.value, (ast.List, ast.Tuple)) \
                    and not any(isinstance(e, ast.Starred) for e in arg.value.elts):
                for element in arg.value.elts:
                    yield index, element
                    index += 1
            else:
                index = None
        elif index is not None:
            yield index, arg
            index += 1
    for keyword in call.keywords:
        if keyword.arg is not None:
            yield keyword.arg, keyword.value
        elif isinstance(keyword.value, ast.Dict):
            for key, value in zip(keyword.value.keys, keyword.value.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    yield key.value, value


def _params(function: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> tuple[list[str], list[str]]:
    args = function.args
    return [a.arg for a in (*args.posonlyargs, *args.args)], [a.arg for a in args.kwonlyargs]


def _rebound_before(function: ast.AST, name: str, call: ast.Call) -> bool:
    """`_list_inputs._rebound_before`: an assignment of the function's own body (no branch or loop) before the
    statement holding `call` binds `name` (the call then never sees what the caller was given)."""
    for statement in function.body:  # type: ignore[attr-defined]
        if any(node is call for node in ast.walk(statement)):
            return False
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, ast.AnnAssign) and statement.value is not None else []
        if any(_binds(t, name) for t in targets):
            return True
    return False


def _binds(target: ast.AST, name: str) -> bool:
    if isinstance(target, (ast.Tuple, ast.List)):
        return any(_binds(e, name) for e in target.elts)
    if isinstance(target, ast.Starred):
        return _binds(target.value, name)
    return isinstance(target, ast.Name) and target.id == name


# the depth past which a copy of an expression is cut (`_pruned`): `ast.unparse`, LibCST's parser and the
# predicates recurse once or more per level, and a 600-term sum in a caller (`x = [1 + 1 + ... + 1]`) exceeded
# Python's recursion limit and aborted the whole run
_DEPTH = 40
_ELIDED = "__jaxfix_elided__"  # the name standing for a cut subexpression: a value of unknown kind


def _pruned(node: ast.AST) -> ast.AST:
    """A copy of `node` in which an expression nested more than `_DEPTH` levels inside a statement is the name
    `_ELIDED` (built without recursion: the tree may be too deep to recurse over). The predicates take that name
    for an unknown value: a list display holding it is still a list, one of unknown items."""
    root = type(node)()
    stack = [(node, root, 0)]
    while stack:
        original, copy, depth = stack.pop()
        for attribute in original._attributes:  # (`lineno`: `ast.unparse` reads it for type comments)
            if hasattr(original, attribute):
                setattr(copy, attribute, getattr(original, attribute))
        for field, value in ast.iter_fields(original):
            if isinstance(value, list):
                items = [_copy_child(v, depth, stack) if isinstance(v, ast.AST) else v for v in value]
                setattr(copy, field, items)
            else:
                setattr(copy, field, _copy_child(value, depth, stack) if isinstance(value, ast.AST) else value)
    return root


def _copy_child(child: ast.AST, depth: int, stack: list) -> ast.AST:
    depth = 0 if isinstance(child, ast.stmt) else depth + 1
    if isinstance(child, ast.expr) and depth > _DEPTH:
        return ast.Name(_ELIDED, ast.Load())
    copy = type(child)()
    stack.append((child, copy, depth))
    return copy


class _Judge:
    """The kinds of value an argument is, as the in-module predicates of `_list_inputs` judge it in its caller
    (parsed with LibCST once per caller, only when asked, from a copy cut at `_DEPTH`: `_pruned`)."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self._module: Optional[cst.Module] = None
        self._callers: dict[int, Optional[cst.FunctionDef]] = {}

    def module(self) -> cst.Module:
        """The module's imports as LibCST reads them, and its top-level functions and classes (bodies elided)."""
        if self._module is None:
            imports = [ast.unparse(n) for n in ast.walk(self.tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
            defs = [f"class {d.name}: pass" if isinstance(d, ast.ClassDef) else f"def {d.name}(): pass"
                    for d in self.tree.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
            # (its constants that may name a dtype: `TEXT = "U5"`, `KIND = object`, `_list_inputs.dtype_constants`)
            constants = [ast.unparse(d) for d in self.tree.body if isinstance(d, ast.Assign) and (
                isinstance(d.value, ast.Constant) and isinstance(d.value.value, str) or isinstance(d.value, (ast.Name, ast.Attribute)))]
            self._module = cst.parse_module("\n".join(imports + defs + constants) + "\n")
        return self._module

    @functools.cached_property
    def constants(self) -> frozenset:
        from codemods import _list_inputs

        return _list_inputs.dtype_constants(self.module())

    def caller(self, function: ast.AST) -> Optional[cst.FunctionDef]:
        """`function` as LibCST reads it (the module's own statements as `walk.module_code` gives them), or None
        when it cannot be read back."""
        if id(function) not in self._callers:
            self._callers[id(function)] = None
            try:
                if isinstance(function, (ast.Module, ast.ClassDef)):  # (a class's body: read as the module's)
                    statements = [s for s in function.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
                    parsed = walk.module_code(cst.parse_module(ast.unparse(_pruned(ast.Module(statements, [])))))
                    self._callers[id(function)] = parsed[0] if parsed else None
                else:
                    body = cst.parse_module(ast.unparse(_pruned(function))).body[0]
                    self._callers[id(function)] = body if isinstance(body, cst.FunctionDef) else None
            except Exception:  # (a `cst.ParserSyntaxError`; a RecursionError, statements nested too deep)
                pass  # (its arguments are judged on their own, as in a caller that binds nothing)
        return self._callers[id(function)]

    def kinds(self, value: ast.AST, function: ast.AST) -> list[str]:
        """The kinds of `value`, an argument of a call in `function`; none when it or its caller cannot be read
        (the index must never abort a run: a call it cannot judge gives no fact, as before the index)."""
        try:
            return self._kinds(value, function)
        except Exception:  # (a `cst.ParserSyntaxError`, a RecursionError: a tree still too deep for a predicate)
            return []

    def _kinds(self, value: ast.AST, function: ast.AST) -> list[str]:
        from codemods import _list_inputs

        if isinstance(value, (ast.Constant, ast.JoinedStr)):
            return ["text"] if isinstance(value, ast.JoinedStr) or isinstance(value.value, (str, bytes)) else []
        caller = self.caller(function)
        node = cst.parse_expression(ast.unparse(_pruned(value)))
        module = self.module()
        found = []
        if _list_inputs.sequence_value(node, caller, _list_inputs.list_maker(module)):
            found.append("list")
            if not _list_inputs.flat_list(node, caller):
                found.append("unflat")
        defined = frozenset(d.name.value for d in module.body if isinstance(d, (cst.FunctionDef, cst.ClassDef)))
        if _list_inputs.object_value(node, caller, _list_inputs.imported_as(module), defined, constants=self.constants):
            found.append("object")
        return found


def summarize(path: str, module_name: str, tree: ast.Module, modules: frozenset) -> dict[str, Any]:
    """`_summarize`, or nothing of the module when that fails: the index must never abort a run (a module it cannot
    read gives no fact, as before the index)."""
    try:
        return _summarize(path, module_name, tree, modules)
    except Exception:  # (a RecursionError: statements nested too deep for the visit)
        return {"module": module_name, "calls": [], "passes": [], "signatures": {}, "exports": {}, "stars": []}


def _summarize(path: str, module_name: str, tree: ast.Module, modules: frozenset) -> dict[str, Any]:
    """One module's calls of the run's functions: {"calls": [(callee, position or keyword, kind)], "passes":
    [(own function, its parameter, callee, position or keyword)], "signatures": {own function: (positional
    parameters, keyword-only ones)}, "module": module_name}. Callees by qualified name (`pkg.helpers.reshape_z`)."""
    is_package = path.endswith("__init__.py")
    imports = _imports(tree, module_name, is_package)
    stars = _stars(tree, module_name, is_package, modules)
    module_nodes = [pair for s in tree.body for pair in _own_nodes(s)]  # (the module's own code, walked once)
    top_level = [n for n, _ in module_nodes if isinstance(n, _SCOPES)]  # (under `try:` too)
    own = {d.name for d in top_level if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))}
    defined = {d.name for d in top_level}
    judge = _Judge(tree)
    calls: set[tuple[str, Spec, str]] = set()
    # (producer, NUMPY_SINK kind, the run's callees the sink call may name): `link` keeps those whose callee is not
    # defined in the run (a compiled extension under a package of the run: `pywt._extensions._pywt`)
    run_sinks: set[tuple[str, str, tuple[str, ...]]] = set()
    passes: set[tuple[str, str, str, Spec]] = set()
    signatures: dict[str, tuple[list[str], list[str]]] = {}

    # `rz = helpers.reshape_z`, then `rz(...)` (one step: `a = b; b = a` must end)
    aliases = {n.targets[0].id: _name_of(n.value) for n in ast.walk(tree) if isinstance(n, ast.Assign)
               and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and isinstance(n.value, (ast.Name, ast.Attribute))}

    def callees_of(func: ast.AST, bound: set[str]) -> list[str]:
        name = _name_of(func)
        head, _, rest = name.partition(".")
        found = [] if head not in aliases or head in imports or head in own or not aliases[head] \
            else called(aliases[head] + ("." + rest if rest else ""), bound | {head})
        return found + [c for c in called(name, bound) if c not in found]

    def called(name: str, bound: set[str]) -> list[str]:
        head, _, rest = name.partition(".")
        if head in imports:
            qualified = imports[head] + ("." + rest if rest else "")
            if _in_run(qualified, modules):
                return [qualified]
            # (a namespace package's module: `pkg.helpers.f` is the run's `helpers.f` when `pkg` has no `__init__.py`)
            parts = qualified.split(".")
            return next(([".".join(parts[n:])] for n in range(1, len(parts) - 1) if _in_run(".".join(parts[n:]), modules)), [])
        if name in own:
            return [f"{module_name}.{name}"]  # (its own: a chain through it may leave the module)
        # (`from pkg.helpers import *`: a name the module does not bind may be one of a star import's)
        return [f"{source}.{name}" for source in stars] if name and not rest and name not in bound else []

    module_bound = {t.id for n, _ in module_nodes if isinstance(n, ast.Assign)
                    for t in n.targets if isinstance(t, ast.Name)} | defined

    def visit(scope: ast.AST, top: Optional[str]) -> None:
        """The calls in `scope`'s own code (a function's body, a class's body, the module's statements, with the
        lambdas in them), and in the functions and classes defined in it; `top`: the name of `scope` when it is a
        function defined at module level, whose parameters a chain may pass on. Arguments are judged in `scope`."""
        params = set(sum(_params(scope), [])) if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) else set()  # type: ignore[arg-type]
        nodes = module_nodes if scope is tree else [pair for s in scope.body for pair in _own_nodes(s)]  # type: ignore[attr-defined]
        local = {t.id for n, _ in nodes if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        assigned: dict[str, list[ast.AST]] = {}  # (`h = sinegauss(t)`, then `FT_continuous(t, h)`: `_results`)
        unpacked: dict[str, list[ast.AST]] = {}  # (`hit, w = lib.outside(x)`: an item of the result, for identity)
        for n, _ in nodes:
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        assigned.setdefault(t.id, []).append(n.value)
                    elif isinstance(t, (ast.Tuple, ast.List)):
                        for item in t.elts:
                            if isinstance(item, ast.Name):
                                unpacked.setdefault(item.id, []).append(n.value)
            elif isinstance(n, ast.NamedExpr):  # `if (r := lib.check(a)) is not None:`
                assigned.setdefault(n.target.id, []).append(n.value)
        identified = {name: assigned.get(name, []) + made for name, made in unpacked.items()}
        nested = {n.name for n, _ in nodes if isinstance(n, _SCOPES)}
        for node, shadowed in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if isinstance(scope, ast.Module):
                    signatures[node.name] = _params(node)
                visit(node, node.name if isinstance(scope, ast.Module) else None)  # (a nested one's are its own)
                continue
            if isinstance(node, ast.ClassDef):
                visit(node, None)  # (its body's calls, its methods')
                continue
            if isinstance(node, ast.Compare):  # `if lib.outside(x, lo, hi) is True:`, `r = lib.check(a)`, `r is False`
                for subject in _identity_tested(node):
                    while isinstance(subject, (ast.Subscript, ast.NamedExpr)):  # `r[0] is True`, `(r := f(x)) is True`
                        subject = subject.value
                    for made in _results(subject, {**assigned, **identified}):
                        calls.update((callee, -1, IDENTITY) for callee in
                                     callees_of(made.func, local | nested | params | shadowed | module_bound))
                continue
            if not isinstance(node, ast.Call) or not (node.args or node.keywords):
                continue
            bound = local | nested | params | shadowed | module_bound
            # (`s0 = 2 * dt / wavelet.flambda()`, then `fft.ifft(x * s0)`: what a function or method of another
            # module returns reaches a call that needs a NumPy array, or a test that a JAX array fails: `NUMPY_SINK`)
            sinks = _numpy_sinks(node, imports, bound)
            # (a call of a function of the run, `waverec(coeffs)` in pywt's own `_mra` while pywt is migrated: that
            # function is migrated too, and what it needs is found where it is defined: not a NumPy-only library's)
            targets = tuple(sorted(callees_of(node.func, bound))) if sinks else ()
            for value, why in sinks:
                for made in _results(value, {**assigned, **identified}):
                    for producer in _producers(made, {**assigned, **identified}, imports, bound, callees_of):
                        kind = f"{NUMPY_SINK}{module_name}:{why}"
                        if targets:
                            run_sinks.add((producer, kind, targets))
                        else:
                            calls.add((producer, -1, kind))
            by_map = isinstance(node.func, ast.Name) and node.func.id == "map" and "map" not in bound \
                and len(node.args) >= 2 and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)
            for callee in callees_of(node.args[0] if by_map else node.func, bound):
                for spec, value, whole in (_mapped(node.args[1:]) if by_map else ((s, v, False) for s, v in _arguments(node))):
                    if top is not None and not whole and isinstance(value, ast.Name) and value.id in params \
                            and value.id not in shadowed and not _rebound_before(scope, value.id, node):
                        passes.add((top, value.id, callee, spec))
                    if _candidate(value, local, defined | nested):
                        calls.update((callee, spec, kind) for kind in judge.kinds(value, scope)
                                     if not whole or kind == "object")  # (an object array's rows are objects)
                    # (`qt, first = lib.get_qt(t)`, then `fill(qt)`: an item of the result, stumpy's `_get_QT`)
                    for made in () if whole else _results(value, {**assigned, **identified}):
                        calls.update((callee, spec, RESULT + producer) for producer in callees_of(made.func, bound))

    visit(tree, None)  # (the module's own statements too: a script's `__main__` block, a test module's calls)
    # what the module binds of other modules of the run at module level (`from pkg.helpers import reshape_z`,
    # `from .helpers import reshape_z as rz` in a package's `__init__`): a call of `pkg.api.reshape_z` or `pkg.rz`
    # elsewhere is one of `pkg.helpers.reshape_z` (`link`)
    exported = _imports(tree, module_name, is_package, [n for n, _ in module_nodes])
    return {"module": module_name, "calls": sorted(calls, key=repr), "passes": sorted(passes, key=repr),
            "signatures": {name: signatures[name] for name in sorted({p[0] for p in passes})},
            "exports": {name: exported[name] for name in sorted(exported) if _in_run(exported[name], modules)},
            "stars": stars, "run_sinks": sorted(run_sinks, key=repr), "defined": sorted(defined)}


# the kind of an argument that is (or is computed by arithmetic from) what a function of the run returns:
# RESULT + its qualified name (`fed_results`)
RESULT = "result:"


# the kind (at position -1) of a call whose result the caller compares by identity with `True` or `False` (`f(x) is
# True`, or through a name it binds): the function must keep returning a Python bool (`identity_tested`)
IDENTITY = "identity"


# the kind (at position -1) of a call whose result (or a value computed from it) the caller hands to a call that
# needs a NumPy array (`scipy.fftpack`, a `scipy.sparse` constructor, a `sparse_data.NUMPY_ONLY` function) or tests
# for a Python number (`isinstance(r, (int, float))`): NUMPY_SINK + the caller's module + ":" + how (`numpy_sinks`)
NUMPY_SINK = "numpy-sink:"
_PYTHON_SCALARS = frozenset({"bool", "int", "float", "complex"})


def _numpy_sinks(call: ast.Call, imports: Mapping[str, str], bound: set[str]) -> list[tuple[ast.AST, str]]:
    """(argument, how the call uses it) for the arguments of `call` that must be NumPy values (or Python numbers),
    judged on the `ast` tree as `_buffers.host_call_why` and `_buffers.python_number_test` judge a module's
    own calls: a `scipy.fftpack` function (it reads `.flags`), a `scipy.sparse` constructor (it tells a NumPy array
    by its type), a `NUMPY_ONLY` function (its arguments `sparse_data.arguments` names), an `isinstance` test
    against Python number types (a NumPy scalar passes, a JAX array never does)."""
    from jaxfix.analysis import sparse_data  # (LibCST-based: imported when a module is summarised)

    func = call.func
    if isinstance(func, ast.Name) and func.id == "isinstance" and "isinstance" not in bound and len(call.args) == 2:
        kinds = call.args[1]
        names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        if names and all(isinstance(n, ast.Name) and n.id in _PYTHON_SCALARS for n in names):
            shown = " or ".join(f"`{n.id}`" for n in names)  # type: ignore[attr-defined]
            return [(call.args[0], f"tests whether it is a Python {shown} (`isinstance`), which a JAX array never is")]
        return []
    name = _name_of(func)
    head, _, rest = name.partition(".")
    if not name or head not in imports or head in bound - set(imports):
        return []
    qualified = imports[head] + ("." + rest if rest else "")
    short = qualified.rpartition(".")[2]
    args = [*call.args, *(k.value for k in call.keywords)]
    if qualified.startswith("scipy.fftpack.") and not short.startswith("is"):
        return [(a, f"hands it to `{name}(...)` of `scipy.fftpack`, which reads the NumPy attribute `.flags`") for a in args]
    if qualified.startswith("scipy.sparse.") and qualified.count(".") == 2 and not short.startswith("is") \
            and short[:1].isalpha():
        return [(a, f"hands it to `{name}(...)` of `scipy.sparse`, which tells a NumPy array by its type") for a in args]
    top = qualified.split(".")[0]
    if qualified in sparse_data.NUMPY_ONLY or top in sparse_data.NUMPY_ONLY_MODULES and "." in qualified:
        why = f"hands it to `{name}(...)`, which requires a NumPy array (`{qualified}` {sparse_data.failure(qualified)})"
        table = {**sparse_data.SCALAR_PARAMETERS, **sparse_data.BUFFER_PARAMETERS, **sparse_data.MASK_PARAMETERS}
        if qualified in table:
            position, keyword = table[qualified]
            return [(a, why) for i, a in enumerate(call.args) if i == position and not isinstance(a, ast.Starred)] + [
                (k.value, why) for k in call.keywords if k.arg == keyword]
        if top in sparse_data.SCALAR_ONLY and qualified not in sparse_data.NAMESPACE_FUNCTIONS:
            return [(a, why) for a in call.args[2:]] + [(k.value, why) for k in call.keywords
                                                          if k.arg is not None and k.arg not in sparse_data.SKLEARN_DATA]
        return [(a, why) for a in args]
    return []


def _producers(made: ast.Call, assigned: Mapping[str, list[ast.AST]], imports: Mapping[str, str], bound: set[str],
               callees_of: Any, depth: int = 0) -> list[str]:
    """The run's functions and methods whose result `made` is: its callee (`callees_of`); a method of a run's class
    called on an instance (`Morlet().flambda()`, or `w = Morlet()`, then `w.flambda()`: `mothers.Morlet.flambda`);
    through a NumPy function's arguments (`np.sqrt(f(x))`: a JAX array for a JAX one)."""
    func = made.func
    found = list(callees_of(func, bound))
    if isinstance(func, ast.Attribute):
        owner = func.value
        makers = [owner] if isinstance(owner, ast.Call) else [v for v in assigned.get(owner.id, ()) if isinstance(v, ast.Call)] \
            if isinstance(owner, ast.Name) and owner.id not in imports else []
        found += [f"{cls}.{func.attr}" for maker in makers for cls in callees_of(maker.func, bound)]
    head = _name_of(func).partition(".")[0]
    if depth < 4 and head in imports and imports[head].split(".")[0] == "numpy":
        for value in [*made.args, *(k.value for k in made.keywords)]:
            for inner in _results(value, assigned):
                found += _producers(inner, assigned, imports, bound, callees_of, depth + 1)
    return found


def numpy_sinks(project: Optional[Mapping[str, Any]], module_name: str, classes: Mapping[str, Any] = {}) -> dict[str, str]:
    """{function or method name: why} for the functions of module `module_name` (and the methods of its `classes`)
    whose result code in another module of the run hands to a call that needs a NumPy array, or tests for a Python
    number (`NUMPY_SINK`): the function must keep returning a NumPy array (or a Python value)."""
    facts = (project or {}).get(KEY) or {}
    if not facts or not module_name:
        return {}
    parts = module_name.split(".")
    owners = [".".join(parts[:depth]) for depth in range(len(parts), 0, -1)]
    owners += [f"{module_name}.{cls}" for cls in classes]
    found: dict[str, str] = {}
    for owner in owners:
        for function, kinds in sorted(facts.get(owner, {}).items()):
            for kind in sorted(kinds):
                if kind.startswith(NUMPY_SINK):
                    caller, _, why = kind[len(NUMPY_SINK):].partition(":")
                    if caller != module_name:  # (the module's own code: its own analysis, `_caller_writes`)
                        how = why.replace(" it ", " what this returns (or a value computed from it) ", 1)
                        found.setdefault(function, f"code in `{caller}` {how}")
    return found


def _identity_tested(node: ast.Compare) -> list[ast.AST]:
    """The operands of `node` compared by `is`/`is not` with the constant `True` or `False`."""
    operands = [node.left, *node.comparators]
    found = []
    for i, op in enumerate(node.ops):
        if isinstance(op, (ast.Is, ast.IsNot)):
            for subject, other in ((operands[i], operands[i + 1]), (operands[i + 1], operands[i])):
                if isinstance(other, ast.Constant) and isinstance(other.value, bool) \
                        and not (isinstance(subject, ast.Constant) and isinstance(subject.value, bool)):
                    found.append(subject)
    return found


def identity_tested(project: Optional[Mapping[str, Any]], module_name: str) -> frozenset:
    """The functions of module `module_name` whose result code in another module of the run compares by identity
    with `True` or `False` (pymcmcstat's `if is_sample_outside_bounds(...) is True:`)."""
    return frozenset(fed(project, module_name, IDENTITY))


def _results(value: ast.AST, assigned: Mapping[str, list[ast.AST]], seen: frozenset = frozenset()) -> list[ast.Call]:
    """The calls whose result `value` is, or is computed from by arithmetic (`2 * gauss(t)`) or is an item or a view
    of (`r[0]`), either branch of a conditional expression, also through a name the caller binds (`h = gauss(t)`, then `h`; `h, g = split(t)`, then `h`): the
    calls a producer of the argument may be."""
    if isinstance(value, ast.Call):
        return [value]
    if isinstance(value, ast.BinOp):
        return _results(value.left, assigned, seen) + _results(value.right, assigned, seen)
    if isinstance(value, ast.UnaryOp):
        return _results(value.operand, assigned, seen)
    if isinstance(value, ast.IfExp):  # `1.0 if s is None else gauss(t)`: either branch
        return _results(value.body, assigned, seen) + _results(value.orelse, assigned, seen)
    if isinstance(value, ast.Subscript):  # `fill(res[0])`: an item or a view of it
        return _results(value.value, assigned, seen)
    if isinstance(value, ast.Name) and value.id not in seen:
        return [c for v in assigned.get(value.id, ()) for c in _results(v, assigned, seen | {value.id})]
    return []


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _own_nodes(statement: ast.AST) -> Iterator[tuple[ast.AST, frozenset]]:
    """The nodes of `statement` with the names the lambdas and comprehensions around each bind (`lambda z: f(z)`:
    that `z` is not the enclosing function's), not descending into the functions and classes it defines: each is
    yielded itself, with its decorators, defaults and bases (evaluated where it is defined)."""
    stack: list[tuple[ast.AST, frozenset]] = [(statement, frozenset())]
    while stack:
        node, shadowed = stack.pop()
        yield node, shadowed
        if isinstance(node, _SCOPES):
            outer = [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)] if isinstance(node, ast.ClassDef) \
                else [*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
            stack.extend((child, shadowed) for child in outer)
            continue
        if isinstance(node, ast.Lambda):
            stack.extend((d, shadowed) for d in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)))
            stack.append((node.body, shadowed | _parameter_names(node.args)))
            continue
        if isinstance(node, _COMPREHENSIONS):
            bound = shadowed | {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
            stack.append((node.generators[0].iter, shadowed))  # (evaluated in the enclosing scope)
            inner = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]  # type: ignore[attr-defined]
            inner += [*node.generators[0].ifs, *(part for g in node.generators[1:] for part in (g.iter, *g.ifs))]
            stack.extend((child, bound) for child in inner)
            continue
        stack.extend((child, shadowed) for child in ast.iter_child_nodes(node))


def _parameter_names(args: ast.arguments) -> frozenset:
    return frozenset(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a)


def _split(qualified: str) -> tuple[str, str]:
    module, _, function = qualified.rpartition(".")
    return module, function


def _lookup(table: Mapping[str, Any], module_name: str, function: str) -> list[Any]:
    """The entries of `table` for `function` of `module_name`, or of a package above it that re-exports it."""
    parts = module_name.split(".")
    return [table[key] for depth in range(len(parts), 0, -1) if (key := ".".join([*parts[:depth], function])) in table]


def _reexports(summaries: dict[str, dict[str, Any]]) -> Any:
    """A function giving the qualified names a called name may stand for: itself, and through the re-exports of the
    summarised modules, followed from module to module (`pkg.api.reshape_z` with `from pkg.helpers import reshape_z`
    in `pkg.api`: `pkg.helpers.reshape_z`; `pkg.rz` with `from .helpers import reshape_z as rz` in `pkg`; a name of
    a module that star-imports another: that one's too)."""
    modules = {s["module"]: s for s in summaries.values()}

    @functools.lru_cache(maxsize=None)
    def resolve(qualified: str) -> frozenset:
        found, pending = {qualified}, [qualified]
        while pending and len(found) < 64:  # (`from .a import b as a` in `pkg`: `pkg.a.x`, `pkg.a.b.x`, ...)
            parts = pending.pop().split(".")
            for depth in range(len(parts) - 1, 0, -1):
                summary = modules.get(".".join(parts[:depth]))
                if summary is None:
                    continue
                head, rest = parts[depth], parts[depth + 1:]
                targets = [".".join([summary.get("exports", {})[head], *rest])] if head in summary.get("exports", {}) else []
                targets += [] if rest else [f"{star}.{head}" for star in summary.get("stars", ())]
                for target in targets:
                    if target not in found:
                        found.add(target)
                        pending.append(target)
        return frozenset(found)

    return resolve


def link(summaries: dict[str, dict[str, Any]]) -> dict[str, dict[str, dict[str, list]]]:
    """{callee module: {function: {kind: sorted positions and keywords}}} for what calls in other modules pass, also
    through parameters passed on (a chain from module to module); a module's own calls are left to its own
    analysis, but for the results of other modules' functions they pass (`RESULT`)."""
    fed: dict[str, dict[tuple[Spec, str], set[str]]] = {}  # qualified callee -> {(spec, kind): caller modules}

    def add(callee: str, spec: Spec, kind: str, caller: str) -> bool:
        seen = fed.setdefault(callee, {}).setdefault((spec, kind), set())
        if caller in seen:
            return False
        seen.add(caller)
        return True

    resolve = _reexports(summaries)
    defines = {s["module"]: frozenset(s.get("defined", ())) for s in summaries.values()}

    def defined_in_run(callee: str) -> bool:
        """Whether `callee` (or what it re-exports) is a function or class a module of the run defines."""
        for name in resolve(callee):
            parts = name.split(".")
            if any(parts[depth] in defines.get(".".join(parts[:depth]), ()) for depth in range(len(parts) - 1, 0, -1)):
                return True
        return False

    for summary in summaries.values():
        # (a NUMPY_SINK through a call of the run's own function is that function's own analysis: `_numpy_sinks`)
        sinks = [(producer, -1, kind) for producer, kind, targets in summary.get("run_sinks", ())
                 if not any(defined_in_run(t) for t in targets)]
        for callee, spec, kind in [*summary["calls"], *sinks]:
            # (a producer's name through re-exports too: `from astroML.fourier import sinegauss`)
            kinds = [RESULT + n for n in resolve(kind[len(RESULT):])] if kind.startswith(RESULT) else [kind]
            for name in resolve(callee):
                for each in kinds:
                    add(name, spec, each, summary["module"])
    changed = True
    while changed:  # a parameter so fed, passed on to another function, feeds that one's parameter too
        changed = False
        for summary in summaries.values():
            module = summary["module"]
            for function, param, callee, spec in summary["passes"]:
                positional, keyword_only = summary["signatures"][function]
                for entry in _lookup(fed, module, function):
                    for (given, kind), callers in list(entry.items()):
                        # (-1 is no parameter: a kind of the function's result, `IDENTITY` or `NUMPY_SINK`)
                        named = positional[given] if isinstance(given, int) and 0 <= given < len(positional) else \
                            given if given in positional or given in keyword_only else None
                        if named == param and callers:
                            for name in resolve(callee):
                                changed |= add(name, spec, kind, module)
    linked: dict[str, dict[str, dict[str, list]]] = {}
    for callee, entries in sorted(fed.items()):
        module, function = _split(callee)
        for (spec, kind), callers in entries.items():
            # (what the module passes its own functions, its own analysis sees; but not the result of another
            # module's function it passes one: `x = make(n)`, then `scale(x)`, `make` of another module, whose own
            # analysis must know)
            if callers - {module} or kind.startswith(RESULT) and _split(kind[len(RESULT):])[0] != module:
                specs = linked.setdefault(module, {}).setdefault(function, {}).setdefault(kind, [])
                specs.append(spec)
    for functions in linked.values():
        for kinds in functions.values():
            for kind, specs in kinds.items():
                kinds[kind] = sorted(set(specs), key=repr)
    return linked


def fed(project: Optional[Mapping[str, Any]], module_name: str, kind: str) -> dict[str, frozenset]:
    """{function name: the positions and keywords of its parameters calls in other modules pass a value of `kind`}
    for module `module_name` (and what a package above it gets for a function of that name)."""
    facts = (project or {}).get(KEY) or {}
    if not facts or not module_name:
        return {}
    parts = module_name.split(".")
    found: dict[str, set] = {}
    for depth in range(len(parts), 0, -1):
        for function, kinds in facts.get(".".join(parts[:depth]), {}).items():
            if kind in kinds:
                found.setdefault(function, set()).update(kinds[kind])
    return {function: frozenset(specs) for function, specs in found.items()}


def fed_results(project: Optional[Mapping[str, Any]], module_name: str) -> dict[str, dict[Spec, frozenset]]:
    """{function name: {position or keyword: the functions of module `module_name` whose results (or values computed
    from them) calls in other modules of the run pass there}}, for the functions of that module (a test module's
    `spectrum(t, gauss(t))` of `gauss` and `spectrum`, both of the module): what reaches a parameter that needs a
    NumPy array must stay one (`_caller_writes.host_results`)."""
    found: dict[str, dict[Spec, set]] = {}
    prefix = RESULT + module_name + "."
    for function, kinds in ((project or {}).get(KEY) or {}).get(module_name, {}).items() if module_name else ():
        for kind, specs in kinds.items():
            producer = kind[len(prefix):] if kind.startswith(prefix) else ""
            if producer and "." not in producer:
                for spec in specs:
                    found.setdefault(function, {}).setdefault(spec, set()).add(producer)
    return {function: {spec: frozenset(p) for spec, p in specs.items()} for function, specs in found.items()}


def results_fed_elsewhere(project: Optional[Mapping[str, Any]], module_name: str) -> dict[tuple[str, str], dict[Spec, frozenset]]:
    """{(callee module, function): {position or keyword: the functions of module `module_name` whose results (or
    values computed from them) calls pass there}} for the functions of the run's other modules (SALib's `x =
    make(n)`, then `scale(x, ...)`, with `make` of `pkg.seq` and `scale` of `pkg.util`): what reaches a parameter
    that needs a NumPy array there must stay one (`_caller_writes.host_results` reads that module's writers)."""
    found: dict[tuple[str, str], dict[Spec, set]] = {}
    prefix = RESULT + module_name + "."
    for callee_module, functions in ((project or {}).get(KEY) or {}).items() if module_name else ():
        if callee_module == module_name:
            continue
        for function, kinds in functions.items():
            for kind, specs in kinds.items():
                producer = kind[len(prefix):] if kind.startswith(prefix) else ""
                if producer and "." not in producer:
                    for spec in specs:
                        found.setdefault((callee_module, function), {}).setdefault(spec, set()).add(producer)
    return {key: {spec: frozenset(p) for spec, p in specs.items()} for key, specs in found.items()}


INDEX = ProjectIndex(KEY, wanted, summarize, link)
