"""Plain Python: is a function host code (a parser, a config class, graph code) rather than array code?

`plain_python(function, array_names, lazy)` weighs the evidence in a function: signs of arrays (NumPy/JAX names,
array attributes, `@`, tuple indexing, a jit decorator) against signs of plain Python data (string/dict/set methods,
`dict()`/`open()`/`repr()`, `try`/`except`, generators, methods and attributes no array item has read from an item of a
parameter: a container of objects). Rules leave a plain-Python helper alone
(`Rule.current_function` is None inside it) and `TracednessProvider` makes everything in it STATIC.

Also here, the module-level facts that judgment reads, each answered once per module: `array_names` (the module's
local names of NumPy and JAX), `lazy_array_imports` (NumPy/JAX/SciPy imported only inside functions) and
`host_functions` (functions handed to numba or to SciPy, which stay NumPy code, as `@numba.njit` ones do). The
answers are remembered per function and per module; `forget` drops them (the engine calls it after each file).
"""

from __future__ import annotations

import libcst as cst
import numpy as np

from jaxfix import walk
from jaxfix.imports import ModuleImports, dotted_name, top_level_statements

ARRAY_ATTRIBUTES = {
    "shape", "ndim", "dtype", "astype", "T", "reshape", "at", "sum", "mean", "std", "var", "max", "min", "argmax",
    "argmin", "cumsum", "cumprod", "dot", "ravel", "flatten", "transpose", "item", "size", "prod", "clip", "any", "all",
}
PLAIN_BUILTINS = {"dict", "open", "repr", "set", "frozenset"}
PLAIN_ATTRIBUTES = {
    "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines", "startswith", "endswith", "join", "lower", "upper",
    "replace", "format", "encode", "decode", "items", "keys", "isdigit", "isalpha", "partition", "setdefault",
    # sets and deques: graph code (`seen.discard(v)`, `queue.popleft()`)
    "discard", "union", "intersection", "difference", "issubset", "issuperset", "popleft", "appendleft",
}


# what an array (or a dict of arrays) may give by attribute: NumPy's ndarray attributes and methods, `.at`
_ARRAY_SIDE = frozenset(a for a in dir(np.ndarray) if not a.startswith("_")) | frozenset(dir(dict)) | {"at"}


def _parameter_root(node: cst.BaseExpression, params: frozenset[str], item: bool = False) -> bool:
    """`seg`, `segment[1]`, `segment[0].start`: an expression reached from a parameter through items and
    attributes (`item`: through an item first, `segment[1]`)."""
    itemised = False
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        itemised = isinstance(node, cst.Subscript)
        node = node.value
    return isinstance(node, cst.Name) and node.value in params and (itemised or not item)


class _Evidence(cst.CSTVisitor):
    def __init__(self, array_names: frozenset[str], params: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.array_names = array_names
        self.params = params
        self.array = False
        self.plain = False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.array_names or node.value in ("jit", "vmap", "grad"):
            self.array = True

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value in ARRAY_ATTRIBUTES:
            self.array = True
        elif node.attr.value in PLAIN_ATTRIBUTES:
            self.plain = True
        elif node.attr.value not in _ARRAY_SIDE and not _dunder(node.attr.value) and _parameter_root(node.value, self.params, item=True):
            # `segment[1].e_idx`: an item of a parameter with attributes no array item has: a Python container of
            # objects (dtaidistance's segments), whose values the tests compare in Python. (An attribute of the
            # parameter itself is not evidence: an object may hold arrays, `s.best - s.pos` of a swarm)
            self.plain = True

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in PLAIN_BUILTINS:
            self.plain = True
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value not in _ARRAY_SIDE and not _dunder(func.attr.value) \
                and _parameter_root(func.value, self.params, item=True):
            self.plain = True  # `segment[0].length()`: a method no array item has, of an item: a container of objects

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.MatrixMultiply):
            self.array = True

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if len(node.slice) > 1:
            self.array = True

    def visit_Try(self, node: cst.Try) -> None:
        if node.handlers:
            self.plain = True  # catching exceptions is host-side control: array code does not raise inside `jit`

    def visit_Set(self, node: cst.Set) -> None:
        self.plain = True  # a set display: hashable Python values (arrays are not hashable)

    visit_SetComp = visit_Set  # type: ignore[assignment]

    def visit_Yield(self, node: cst.Yield) -> None:
        self.plain = True  # a generator: host-side iteration, never a function `jit` can trace



def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def plain_python(
    function: cst.FunctionDef, array_names: frozenset[str], lazy: bool = False, compiled: frozenset[str] = frozenset(),
    optional: bool = False,
) -> bool:
    """No sign of arrays (NumPy/JAX names, array attributes, `@`, tuple indexing, a jit decorator) and a sign of
    plain Python data (string/dict/file methods, `dict()`/`open()`/`repr()`, `try`/`except`, a method or attribute
    no array item has read from an item of a parameter, `segment[0].length()`, `segment[1].e_idx`: a container of
    objects): a helper such as a
    parser or a config class in a NumPy module (a nested function counts only inside a plain one). Everything in
    it is STATIC (parameters, `self.<attr>`), and rules leave it alone (`Rule.current_function` is None inside it).
    `codemods._prechecks` mirrors this on the `ast` tree. Answered once per function and names: the rules'
    shared context and `TracednessProvider` both ask on every pass.

    `lazy`: the module imports NumPy/JAX/SciPy only inside functions (`lazy_array_imports`, as networkx does); then
    a function that imports none of them itself is plain whatever else it holds: NumPy code there says so by
    importing it, and the rest of such a module is Python code (graphs, sets, parsers).

    `optional`: the module's NumPy is optional (`try: import numpy as np` / `except ImportError: np = None`,
    `optional_array_imports`, as dtaidistance does): then a function with no sign of arrays is plain, whatever
    else it holds, since it is written to run without NumPy, on Python values (`if v1 == v2:` of two characters in
    a sequence-alignment callback, `if ri == 0:` of a border index)."""
    if lazy and not imports_array_module(function):
        return True
    if function.name.value in compiled or any(_numba(d.decorator) for d in function.decorators):
        return True  # compiled by numba (`@nb.njit`, `f_jit = nb.jit(f)`): NumPy code numba runs, `jnp` it rejects
    key = (id(function), array_names)
    known = _PLAIN.get(key)
    if known is not None and known[0] is function:
        return known[1]
    parameters = function.params
    evidence = _Evidence(array_names, frozenset(
        p.name.value for p in (*parameters.posonly_params, *parameters.params, *parameters.kwonly_params)
        if p.name.value not in ("self", "cls")  # a method's own attributes are arrays as often as not
    ))
    for decorator in function.decorators:
        walk.visit(decorator, evidence)
    walk.visit(function.params, evidence)  # annotations and defaults (`x: jnp.ndarray`)
    walk.visit(function.body, evidence)
    answer = (evidence.plain or optional) and not evidence.array
    if len(_PLAIN) >= 10_000:
        _PLAIN.clear()
    _PLAIN[key] = (function, answer)  # holds the function, so its id is not reused while the entry lives
    return answer


_PLAIN: dict[tuple[int, frozenset[str]], tuple[cst.FunctionDef, bool]] = {}
_LAZY: dict[int, tuple[cst.Module, bool]] = {}
_OPTIONAL: dict[int, tuple[cst.Module, bool]] = {}
ARRAY_MODULES = frozenset({"numpy", "jax", "scipy"})


def _array_import(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Import):
        return any(dotted_name(alias.name).split(".")[0] in ARRAY_MODULES for alias in node.names)
    if isinstance(node, cst.ImportFrom):
        return node.module is not None and not node.relative and dotted_name(node.module).split(".")[0] in ARRAY_MODULES
    return False


def imports_array_module(function: cst.FunctionDef) -> bool:
    """Whether `function` (or a function inside it) imports NumPy, JAX or SciPy."""
    return _imports_in(function.body)


def lazy_array_imports(module: cst.Module) -> bool:
    """The module imports NumPy/JAX/SciPy, but only inside functions (none at module level, also not under a
    module-level `try`/`if`): the lazy-import style of libraries whose NumPy use is optional. Answered once per
    module (the rules' shared context and `TracednessProvider` both ask on every pass)."""
    known = _LAZY.get(id(module))
    if known is not None and known[0] is module:
        return known[1]
    answer = _lazy(module)
    _LAZY[id(module)] = (module, answer)  # holds the module, so its id is not reused while the entry lives
    return answer


def numba_compiler(name: str) -> bool:
    """`nb.jit`, `numba.njit`, `njit`, `vectorize` (from numba), `numba_util.jit` (a project's numba wrappers): a
    numba compiler's dotted name (by the usual names)."""
    root, dot, _ = name.partition(".")
    return root in ("numba", "nb") or bool(dot) and numba_module(root) or name in ("njit", "vectorize", "guvectorize")


def numba_module(dotted: str) -> bool:
    """`numba`, `numba.extending`, `lenstronomy.Util.numba_util`: numba, or a project's module of numba wrappers (a
    `jit` imported from it compiles with numba: lenstronomy's `@jit()` wraps `numba.jit`)."""
    return any("numba" in part for part in dotted.split("."))


def numba_decorator(expr: cst.BaseExpression, module: cst.Module) -> bool:
    """Whether the decorator `expr` compiles with numba, as the module's imports say (`@jit(nopython=True)` after
    `from numba import jit`), not with JAX."""
    return _numba(expr, numba_imports(module))


def _numba(expr: cst.BaseExpression, imported: frozenset[str] = frozenset()) -> bool:
    """A numba compiler, called or not (`@njit`, `@numba.njit(...)`, `nb.jit(f)`), or a name imported from numba
    (`imported`: `from numba import jit` makes `@jit(nopython=True)` numba's, not JAX's)."""
    name = dotted_name(expr.func if isinstance(expr, cst.Call) else expr) or ""
    return numba_compiler(name) or name.split(".")[0] in imported


def numba_imports(module: cst.Module) -> frozenset[str]:
    """The names the module binds by importing from numba (`from numba import jit, prange`, `from numba.extending
    import overload`) or from a project's module of numba wrappers (`from lenstronomy.Util.numba_util import jit`,
    `from .numba_util import jit`), and its own top-level functions that call a numba compiler (`def jit(nopython=
    True): ... return numba.jit(func, ...)`): decorators among them compile with numba, whatever their name
    (quantecon's and lenstronomy's `@jit`)."""
    names = set()
    for stmt in top_level_statements(module):  # in a top-level `try` too (pymoo's AGE-MOEA: `try: from numba import jit`)
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and small.module is not None and \
                    numba_module(dotted_name(small.module) or "") and not isinstance(small.names, cst.ImportStar):
                names.update((a.asname.name.value if a.asname else dotted_name(a.name) or "") for a in small.names)  # type: ignore[union-attr]
        if isinstance(stmt, cst.FunctionDef) and any(_numba(call.func) for call in walk.nodes_of(stmt.body, cst.Call)):  # type: ignore[attr-defined]
            names.add(stmt.name.value)  # a decorator factory wrapping numba.jit
    return frozenset(names)


_COMPILED: dict[int, tuple[cst.Module, frozenset[str]]] = {}


def host_functions(module: cst.Module) -> frozenset[str]:
    """Names of functions that run as NumPy code on the host, never traced: those the module hands to numba
    (`normals_jit = nb.jit(normals, nopython=True)`: they stay NumPy code, as decorated ones do), and callbacks it
    hands to SciPy (`optimize.leastsq(fun, t0)`, `minimize(f, x0, jac=grad)`: SciPy calls them with float64 NumPy
    arrays, and `jnp` in them would compute in float32, which made scikit-image's `leastsq` see a zero Jacobian).
    Nested functions count too (`plain_python`'s callers let such a nested function be plain). Answered once per
    module."""
    known = _COMPILED.get(id(module))
    if known is not None and known[0] is module:
        return known[1]
    numba, scipy = _mentions(module, "numba"), _scipy_names(module)
    # (a compiler imported under a plain name compiles what it is handed too: `bounds_check = jit(bounds_check_python,
    # nopython=True)` after `from numba import jit`, or arch's `from arch.compat.numba import jit`)
    imported = numba_imports(module) if numba else frozenset()
    names = frozenset(
        name
        for call in (walk.nodes_of(module, cst.Call) if numba or scipy else ())
        for name in _handed(call, numba, scipy, imported)  # type: ignore[arg-type]
    )
    if scipy and names:  # SciPy is also handed data (`cdist(X, Y)`): only the names of functions count
        names &= {f.name.value for f in walk.nodes_of(module, cst.FunctionDef)}  # type: ignore[attr-defined]
    if imported:  # decorated with a compiler imported under a plain name (`from numba import jit`, `@jit(...)`)
        decorated = [
            f for f in walk.nodes_of(module, cst.FunctionDef)
            if any(_numba(d.decorator, imported) for d in f.decorators)  # type: ignore[attr-defined]
        ]
        names |= {f.name.value for f in decorated}  # type: ignore[attr-defined]
        # what an `@overload(f)` function returns is the implementation numba compiles (quantecon's `_square_sum`)
        returned = {
            r.value.value for f in decorated for r in walk.nodes_of(f, cst.Return)
            if isinstance(r.value, cst.Name)  # type: ignore[attr-defined]
        }
        names |= returned & {f.name.value for f in walk.nodes_of(module, cst.FunctionDef)}  # type: ignore[attr-defined]
    _COMPILED[id(module)] = (module, names)
    return names


def numba_compiled(module: cst.Module) -> frozenset[str]:
    """Names of the module's top-level functions numba compiles: decorated (`@njit("float64[:](int64)")`) or
    compiled by a call whose result is bound (`f_jit = nb.jit(f)` gives `f_jit`). A JAX array passed to one raises
    (numba takes NumPy arrays only, and its typed signatures float64/int64). Methods of the module's classes count
    as `self.name` (as `_buffers.writers` names them: pymoo's `@staticmethod @jit(nopython=True)`, called as
    `self.minkowski_distances(...)` or `Survival.minkowski_distances(...)`)."""
    imported = numba_imports(module)
    names = {s.name.value for s in module.body if isinstance(s, cst.FunctionDef) and any(_numba(d.decorator, imported) for d in s.decorators)}
    names.update(f"self.{m.name.value}" for s in module.body if isinstance(s, cst.ClassDef) and isinstance(s.body, cst.IndentedBlock)
                 for m in s.body.body if isinstance(m, cst.FunctionDef) and any(_numba(d.decorator, imported) for d in m.decorators))
    names.update(numba_aliases(module, imported))
    return frozenset(names)


def numba_aliases(module: cst.Module, imported: frozenset[str] | None = None) -> dict[str, str]:
    """{name: the function compiled} for the module's top-level names bound to what a numba compiler makes of one of
    its functions (`bounds_check = jit(bounds_check_python, nopython=True)` after `from numba import jit`: arch's
    recursions; `f_jit = nb.njit(f)`); the function is "" when what is compiled is not a plain name. `imported`:
    `numba_imports(module)`, when known."""
    found: dict[str, str] = {}
    if not _mentions(module, "numba"):
        return found
    imported = numba_imports(module) if imported is None else imported
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) and _numba(small.value.func, imported):
                first = small.value.args[0].value if small.value.args else None
                for t in small.targets:
                    if isinstance(t.target, cst.Name):
                        found[t.target.value] = first.value if isinstance(first, cst.Name) else ""
    return found


def _handed(call: cst.Call, numba: bool, scipy: frozenset[str], imported: frozenset[str] = frozenset()) -> list[str]:
    if numba and _numba(call.func, imported):
        first = call.args[0].value if call.args else None
        return [first.value] if isinstance(first, cst.Name) else []
    root = (dotted_name(call.func) or "").split(".")[0]
    if root in scipy:
        return [a.value.value for a in call.args if isinstance(a.value, cst.Name)]
    return []


def _mentions(module: cst.Module, word: str) -> bool:
    return any(
        isinstance(node, (cst.Import, cst.ImportFrom)) and word in module.code_for_node(node)
        for statement in top_level_statements(module)
        if isinstance(statement, cst.SimpleStatementLine)
        for node in statement.body
    )


def _scipy_names(module: cst.Module) -> frozenset[str]:
    """The local names the module's top-level imports bind to SciPy (`from scipy import optimize`, `import scipy`,
    `from scipy.optimize import minimize`)."""
    names = set()
    for statement in module.body:
        for node in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(node, cst.ImportFrom) and node.module is not None and not isinstance(node.names, cst.ImportStar) \
                    and dotted_name(node.module).split(".")[0] == "scipy":
                names.update(a.evaluated_alias or dotted_name(a.name) for a in node.names)
            elif isinstance(node, cst.Import):
                names.update((a.evaluated_alias or dotted_name(a.name)).split(".")[0] for a in node.names
                             if dotted_name(a.name).split(".")[0] == "scipy")
    return frozenset(names)


def optional_array_imports(module: cst.Module) -> bool:
    """The module imports NumPy under a module-level `try` whose `except` binds the name to None (`try: import
    numpy as np` / `except ImportError: np = None`): NumPy is optional, and the module's functions that do not use
    it run on Python values. Answered once per module."""
    known = _OPTIONAL.get(id(module))
    if known is not None and known[0] is module:
        return known[1]
    answer = any(isinstance(stmt, cst.Try) and _optional(stmt) for stmt in module.body)
    _OPTIONAL[id(module)] = (module, answer)
    return answer


def _optional(statement: cst.Try) -> bool:
    imported = set()
    for node in (*walk.nodes_of(statement.body, cst.Import), *walk.nodes_of(statement.body, cst.ImportFrom)):
        if not _array_import(node) or isinstance(node.names, cst.ImportStar):  # type: ignore[attr-defined]
            continue
        for alias in node.names:  # type: ignore[attr-defined]
            imported.add(alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name)
                          else dotted_name(alias.name).split(".")[0])
    if not imported:
        return False
    for handler in statement.handlers:
        for assign in walk.nodes_of(handler.body, cst.Assign):
            if isinstance(assign.value, cst.Name) and assign.value.value == "None" and any(  # type: ignore[attr-defined]
                    isinstance(t.target, cst.Name) and t.target.value in imported for t in assign.targets):  # type: ignore[attr-defined]
                return True
    return False


def _lazy(module: cst.Module) -> bool:
    for statement in module.body:
        if not isinstance(statement, (cst.FunctionDef, cst.ClassDef)) and _imports_in(statement):
            return False
    return _imports_in(module)


def _imports_in(root: cst.CSTNode) -> bool:
    return any(_array_import(node) for kind in (cst.Import, cst.ImportFrom) for node in walk.nodes_of(root, kind))


def forget() -> None:
    """Drop the remembered answers (the engine calls this after each file: they hold its trees)."""
    _PLAIN.clear()
    _LAZY.clear()
    _OPTIONAL.clear()
    _COMPILED.clear()


def array_names(imports: ModuleImports) -> frozenset[str]:
    """The module's local names of NumPy and JAX (array evidence for `plain_python`)."""
    aliases = (imports.jax_alias, imports.jnp_alias, imports.lax_alias)
    return frozenset([*imports.numpy_aliases, *(a for a in aliases if a)])
