"""C libraries loaded with `ctypes`, whose functions take NumPy arrays only (and may write into them).

A function of a shared library called through `ctypes` (`lib.recstalta(a, out, n)`) is handed the array's memory:
with `argtypes` set to `np.ctypeslib.ndpointer(...)` a JAX array raises `ctypes.ArgumentError`, without them ctypes
cannot convert it at all, and the C code often writes its results into an array it is given (obspy's
`charfct = np.empty(n)`, then `clibsignal.recstalta(a, charfct, ...)`). What is handed to one must stay NumPy.

A name is taken for a C library (or one of its functions) by what binds or configures it, never by its spelling:
`ctypes.CDLL(...)` (also `PyDLL`, `WinDLL`, `OleDLL`, `cdll.LoadLibrary(...)`, `cdll.<name>`) or
`np.ctypeslib.load_library(...)`; an attribute `argtypes`, `restype` or `errcheck` set on it or on one of its
attributes (`clib.recstalta.argtypes = [...]`: obspy loads its libraries with a helper, `clibsignal =
_load_cdll("signal")`, then sets them); or a name bound to an attribute of one (`f = lib.recstalta`). Names are
dotted (`self._lib`), flow-insensitively: a name also bound to something else is still taken for one, which only
keeps more NumPy.

`INDEX`, a project index, finds the top-level C libraries of each module of the run that mentions `ctypes` (or sets
`argtypes`), and their re-exports by a package's `__init__`; `c_function(context, call)` answers for a call in the
module, its own libraries and those it imports (`from obspy.signal.headers import clibsignal`, or through the
module: `headers.clibsignal.recstalta(...)`). A rule asking must list `INDEX` in its `INDEXES`.
"""

from __future__ import annotations

import ast
import os
from typing import Any, Mapping, Optional

import libcst as cst

from jaxfix.analysis.foreign_dtypes import link_names
from jaxfix.imports import absolute_module, dotted_name, imported_bindings
from jaxfix.rule import ProjectIndex

# what loads a shared library, qualified
LOADERS = frozenset({
    "ctypes.CDLL", "ctypes.PyDLL", "ctypes.WinDLL", "ctypes.OleDLL", "ctypes.cdll.LoadLibrary", "ctypes.pydll.LoadLibrary",
    "ctypes.windll.LoadLibrary", "ctypes.oledll.LoadLibrary", "numpy.ctypeslib.load_library",
})
# loaders whose attributes are libraries (`ctypes.cdll.msvcrt`)
LOADER_OBJECTS = frozenset({"ctypes.cdll", "ctypes.pydll", "ctypes.windll", "ctypes.oledll"})
# attributes only a ctypes function has (set on it, or on a library's attribute)
FUNCTION_ATTRIBUTES = frozenset({"argtypes", "restype", "errcheck"})


def _dotted(node: ast.expr) -> str:
    """`a.b.c` of an `ast` name or attribute chain, else ""."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id, *reversed(parts)])


def _import_names(tree: ast.Module) -> dict[str, str]:
    """{local name: qualified name} for the module's imports of `ctypes` and `numpy` (at any depth: `import ctypes as
    C`, `from ctypes import CDLL`, `import numpy as np`, `from numpy import ctypeslib`)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("ctypes", "numpy"):
                    names[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None \
                and node.module.split(".")[0] in ("ctypes", "numpy"):
            names.update({alias.asname or alias.name: f"{node.module}.{alias.name}" for alias in node.names})
    return names


def _qualified(node: ast.expr, imports: Mapping[str, str]) -> str:
    dotted = _dotted(node)
    head, dot, rest = dotted.partition(".")
    return imports[head] + dot + rest if head in imports else ""


def _loaded(value: ast.expr, imports: Mapping[str, str]) -> bool:
    """`value` loads a C library, or reads a function of one it loads (`cdll.LoadLibrary(path).smooth`)."""
    if isinstance(value, ast.Call):
        return _qualified(value.func, imports) in LOADERS
    return isinstance(value, ast.Attribute) and (_qualified(value.value, imports) in LOADER_OBJECTS
                                                 or _loaded(value.value, imports))


def libraries(tree: ast.Module) -> set[str]:
    """The dotted names (`lib`, `self._lib`, `recstalta`) the module binds or configures as a C library or one of its
    functions, anywhere in it (see the module's docstring)."""
    imports = _import_names(tree)
    found: set[str] = set()
    aliases: list[tuple[str, str]] = []  # (name, the dotted name it is bound to)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = [_dotted(t) for t in (node.targets if isinstance(node, ast.Assign) else [node.target])]
            value = node.value
            loaded = _loaded(value, imports)
            for target in filter(None, targets):
                head, _, last = target.rpartition(".")
                if loaded:
                    found.add(target)
                elif head and last in FUNCTION_ATTRIBUTES:  # `clib.recstalta.argtypes = [...]`: `clib` (a library)
                    owner = head.rpartition(".")[0]  # (`self._lib.f.argtypes`: `self._lib`; `f.argtypes`: `f`)
                    found.add(owner if owner and owner not in ("self", "cls") else head)
                elif isinstance(value, (ast.Attribute, ast.Name)) and _dotted(value):
                    aliases.append((target, _dotted(value)))
    while True:  # `f = lib.recstalta`, `lib2 = lib`
        more = {name for name, value in aliases if name not in found and any(
            value == known or value.startswith(f"{known}.") for known in found)}
        if not more:
            return found
        found |= more


# ---- libraries of other modules (a project index) ------------------------------------------------------------------

KEY = "c-libraries"


def _wanted(data: bytes, module_name: str, is_package: bool, modules: frozenset) -> bool:
    """A module that mentions ctypes or sets a function's types, or a package's `__init__` that imports (it may
    re-export a library)."""
    return b"ctypes" in data or b"argtypes" in data or b"restype" in data or is_package and b"import" in data


def _summarize(path: str, module_name: str, tree: ast.Module, modules: frozenset) -> dict[str, Any]:
    """The module's top-level C libraries (plain names), and the names its top-level `from` imports bind (for
    re-exports: `from .headers import clibsignal` in `pkg/__init__.py`)."""
    package = module_name.split(".") if os.path.basename(path) == "__init__.py" else module_name.split(".")[:-1]
    imported: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            source = absolute_module("." * node.level + (node.module or ""), package)
            imported.update({a.asname or a.name: f"{source}.{a.name}" for a in node.names if a.name != "*" and source})
    return {"module": module_name, "imported": imported, "names": sorted(name for name in libraries(tree) if "." not in name)}


INDEX = ProjectIndex(KEY, _wanted, _summarize, link_names)  # (and their re-exports)


def _facts(context: Any) -> tuple[frozenset[str], Mapping[str, str], frozenset[str]]:
    """(the module's own C libraries, its imports, the run's C libraries), found once per module."""
    cache = context.__dict__
    if "_c_libraries" not in cache:
        try:
            own = frozenset(libraries(ast.parse(context.source))) if "ctypes" in context.source \
                or "argtypes" in context.source or "restype" in context.source else frozenset()
        except (SyntaxError, ValueError):
            own = frozenset()
        known = frozenset(context.project_facts(KEY) or ())
        imports = imported_bindings(context.module_name, os.path.basename(context.path) == "__init__.py",
                                    context.source.encode("utf-8", "replace")) if known and context.module_name else {}
        cache["_c_libraries"] = (own, imports, known)
    return cache["_c_libraries"]


def _within(dotted: str, names: frozenset[str]) -> bool:
    """`dotted` is one of `names` or an attribute of one (`lib.f` of `lib`)."""
    parts = dotted.split(".")
    return any(".".join(parts[:end]) in names for end in range(1, len(parts) + 1))


def c_function(context: Any, call: cst.Call) -> Optional[str]:
    """The function `call` calls, as written, when it is a C library's function called through ctypes (of the
    module's libraries, or one imported from another module of the run), else None."""
    if not isinstance(call.func, (cst.Name, cst.Attribute)):
        return None
    dotted = dotted_name(call.func)
    own, imports, known = _facts(context)
    if own and _within(dotted, own):
        return dotted
    head, dot, rest = dotted.partition(".")
    qualified = imports.get(head)
    return dotted if qualified is not None and _within(qualified + dot + rest, known) else None


def c_library_roots(context: Any) -> frozenset[str]:
    """The plain names of the module that are C libraries or their functions (its own, and those it imports)."""
    own, imports, known = _facts(context)
    return frozenset({name for name in own if "." not in name}
                     | {local for local, qualified in imports.items() if qualified in known})
