"""Values that JAX cannot stand in for, made in one module of the run and met in another (JX501's project index).

JX501 (numpy-namespace) leaves a function NumPy where it meets a NumPy matrix (`codemods._matrices`), a masked array
(the same, `Kind` `MASKED`) or a SciPy sparse matrix (`jaxfix.analysis.sparse_data`) made elsewhere in its module. The
same values come from other modules of the run too:

- a module-level name bound to one, imported (`P = np.asmatrix(...)` in `pkg/consts.py`; `from pkg.consts import P`
  or `from pkg.consts import *`, then `Q = np.eye(2) + P; Q * Q` in another module: `jnp.eye` made `Q` a plain
  array, whose `*` is elementwise);
- a function that returns one, imported (`from pkg.mats import as_matrix`);
- an attribute a base class in another module binds to one (`self.W = sparse.csr_matrix(w)` in `Graph.__init__`,
  then `np.abs(self.W - self.W.T)` in `class Regular(Graph)` of another module: `jnp.abs` raised `TypeError`), or a
  method of it that returns one, through any number of base classes.

`INDEX` summarises each module that may make one (a trigger word in its bytes: `_TRIGGERS`) or defines a class with
a base of another module of the run, and `imported(rule, kind)` tells a module what it takes from the others. Not
followed: a name read through its module (`consts.P` after `from pkg import consts`), a package's re-export
(`from pkg import P` with `pkg/__init__.py` importing it), and a function of another module that returns what an
imported maker returns.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Any, Mapping, Optional

import libcst as cst

from codemods import _caller_inputs, _matrices
from jaxfix import source as sourcelib
from jaxfix import walk
from jaxfix.analysis.numpy_names import NumpyNameProvider
from jaxfix.analysis.sparse_data import SparseNames, sparse_attributes
from jaxfix.imports import dotted_name, imported_bindings, star_sources
from jaxfix.rule import ProjectIndex

KEY = "JX501-imported-values"

# what a module making one of these values says (a pattern search over its bytes, never the word in a comment
# alone: "covariance matrix"): a matrix (`np.matrix`, `np.asmatrix`, `np.mat(`, `np.bmat`, `numpy.matlib`,
# `S.todense()`), a masked array (`np.ma.`, `from numpy import ma`) or a sparse matrix (`scipy.sparse`)
_MATRIX = re.compile(rb"\b(?:asmatrix|bmat)\b|\bmatlib\b|\bmatrixlib\b|\.matrix\b|\.mat\(|\.todense\(|import[^\n]*\bmatrix\b")
_MASKED = re.compile(rb"\.ma\.|\bnumpy\.ma\b|import[^\n]*\bma\b")
_SPARSE = re.compile(rb"\bscipy\.sparse\b|\bfrom[ \t]+scipy[ \t]+import[^\n]*\bsparse\b|\bimport[ \t]+scipy\b")
# words one of whose presence each pattern needs: a search of the bytes for them (memchr-fast) spares most modules the
# pattern's slower scan
_NEEDS = {_MATRIX: (b"matrix", b"bmat", b"matlib", b".mat(", b".todense("), _SPARSE: (b"scipy",)}
_MA_WORD = re.compile(rb"\bma\b")


def _says(pattern: re.Pattern[bytes], data: bytes) -> bool:
    """`pattern` occurs in `data` (`_NEEDS` first; for `_MASKED`, the lines that import are read one by one: every
    module says `import`, few say `ma` on such a line)."""
    if pattern is _MASKED:
        if b".ma." in data or b"numpy.ma" in data:
            return True
        at = data.find(b"import")
        while at != -1:
            end = data.find(b"\n", at)
            if _MA_WORD.search(data, at, len(data) if end == -1 else end):
                return True
            at = data.find(b"import", at + 6)
        return False
    return any(word in data for word in _NEEDS[pattern]) and pattern.search(data) is not None


def wanted(data: bytes, module_name: str, is_package: bool, modules: frozenset) -> bool:
    """A module that may make such a value, or one that may subclass a class of another module (a `class` and an
    import from the run: its classes pass what their bases hold on to their subclasses)."""
    return b"class " in data and _caller_inputs.wanted(data, module_name, is_package, modules) \
        or any(_says(p, data) for p in (_MATRIX, _MASKED, _SPARSE))


def _top_imports(tree: ast.Module, module_name: str, is_package: bool) -> dict[str, str]:
    """{local name: what it is bound to} for the module's top-level imports (`from .graph import Graph` in
    `pkg.regular`: Graph -> pkg.graph.Graph)."""
    nodes = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    return _caller_inputs._imports(tree, module_name, is_package, nodes) if nodes else {}


def _qualified(node: ast.AST, imports: Mapping[str, str], classes: Mapping[str, str]) -> Optional[str]:
    """The qualified name of a base class as written (`Graph`, `graph.Graph`), through the module's imports or its own
    classes (`classes`: name -> qualified); None for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    head = classes.get(node.id) if not parts else None
    head = head or imports.get(node.id)
    return ".".join([head, *reversed(parts)]) if head else None


def class_bases(tree: ast.Module, module_name: str, is_package: bool) -> dict[str, list[str]]:
    """{class of the module's top level: the qualified names of its bases} (those it can name)."""
    defined = [s for s in tree.body if isinstance(s, ast.ClassDef)]
    if not defined:
        return {}
    imports = _top_imports(tree, module_name, is_package)
    classes = {c.name: f"{module_name}.{c.name}" for c in defined}
    return {c.name: [q for q in (_qualified(b, imports, classes) for b in c.bases) if q is not None] for c in defined}


class _Names:
    """Enough of a rule for `numpy_name` on a module parsed outside one: the NumPy names resolved once."""

    def __init__(self, wrapper: cst.MetadataWrapper) -> None:
        self._names = wrapper.resolve(NumpyNameProvider)

    def get_metadata(self, key: Any, node: cst.CSTNode, default: Any = None) -> Any:
        return self._names.get(node, default)


def summarize(path: str, module_name: str, tree: ast.Module, modules: frozenset) -> dict[str, Any]:
    """One module: {"bases": class -> qualified bases, "names": kind -> {name: "name" or "maker"}, "members": kind ->
    {class: attributes and methods}} (kinds: "matrix", "masked", "sparse"; a sparse attribute of the module counts for
    each of its classes, as in the module itself)."""
    summary: dict[str, Any] = {"bases": class_bases(tree, module_name, os.path.basename(path) == "__init__.py"),
                               "names": {}, "members": {}, "module": module_name}
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return summary
    matrix, masked, sparse = (_says(p, data) for p in (_MATRIX, _MASKED, _SPARSE))
    if not (matrix or masked or sparse):
        return summary
    try:
        module = cst.parse_module(sourcelib.decode(data).text)
    except (cst.ParserSyntaxError, ValueError, sourcelib.SourceError):
        return summary
    if sparse and summary["bases"]:
        names = SparseNames.read(module)
        attributes = sparse_attributes(module, names) if names else frozenset()
        if attributes:
            summary["members"]["sparse"] = {c: sorted(attributes) for c in summary["bases"]}
    if matrix or masked:
        wrapper = cst.MetadataWrapper(module, unsafe_skip_copy=True)
        rule = _Names(wrapper)
        for key, kind, present in (("matrix", _matrices.MATRIX, matrix), ("masked", _matrices.MASKED, masked)):
            if not present:
                continue
            found = _matrices.matrices(rule, wrapper.module, kind)  # type: ignore[arg-type]
            named = {**{n: "name" for n in found.names}, **{n: "maker" for n in found.makers}}
            if named:
                summary["names"][key] = dict(sorted(named.items()))
            if found.members:
                summary["members"][key] = {c: sorted(m) for c, m in sorted(found.members.items())}
    return summary


def link(summaries: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """{"names": kind -> {qualified name: "name" or "maker"}, "members": kind -> {qualified class: what it and its
    bases hold such a value in}}, through any number of bases (in the run)."""
    bases: dict[str, list[str]] = {}
    own: dict[str, dict[str, set[str]]] = {}
    names: dict[str, dict[str, str]] = {}
    for path in sorted(summaries):
        summary = summaries[path]
        prefix = summary["module"]
        for cls, found in summary["bases"].items():
            bases.setdefault(f"{prefix}.{cls}", found)
        for kind, table in summary["names"].items():
            for name, what in table.items():
                names.setdefault(kind, {}).setdefault(f"{prefix}.{name}", what)
        for kind, table in summary["members"].items():
            for cls, members in table.items():
                own.setdefault(kind, {}).setdefault(f"{prefix}.{cls}", set()).update(members)
    members: dict[str, dict[str, list[str]]] = {}
    for kind, table in own.items():
        memo: dict[str, frozenset[str]] = {}

        def held(cls: str, seen: frozenset = frozenset()) -> frozenset[str]:
            if cls in memo:
                return memo[cls]
            if cls in seen:
                return frozenset()
            found = set(table.get(cls, ()))
            for base in bases.get(cls, ()):
                found |= held(base, seen | {cls})
            memo[cls] = frozenset(found)
            return memo[cls]

        linked = {cls: sorted(held(cls)) for cls in sorted({*bases, *table})}
        members[kind] = {cls: found for cls, found in linked.items() if found}
    return {"names": {k: dict(sorted(v.items())) for k, v in sorted(names.items())},
            "members": {k: v for k, v in sorted(members.items()) if v}}


INDEX = ProjectIndex(KEY, wanted, summarize, link)


def _facts(rule: Any) -> Mapping[str, Any]:
    return rule.context.project_facts(KEY) or {}


def _module_imports(rule: Any) -> dict[str, str]:
    """{local name: what it is bound to} for the module's imports (a pattern search over its source), once per pass."""
    cache = rule.context.__dict__
    if "_imported_values_imports" not in cache:
        context = rule.context
        cache["_imported_values_imports"] = imported_bindings(
            context.module_name, os.path.basename(context.path) == "__init__.py", context.source.encode("utf-8", "replace"))
    return cache["_imported_values_imports"]


def _starred(rule: Any, table: Mapping[str, str]) -> list[tuple[str, str]]:
    """(local name, qualified name) for the names of `table` a star import brings into the module (`from .mats import
    *` with `pkg.mats.P` in `table`: ("P", "pkg.mats.P")), unless the module imports that name otherwise or binds it."""
    context = rule.context
    stars = star_sources(context.module_name, os.path.basename(context.path) == "__init__.py",
                         context.source.encode("utf-8", "replace"))
    if not stars:
        return []
    bound = {*_module_imports(rule), *_own_names(context.module)}
    return [(name, qualified) for qualified in table for source, _, name in [qualified.rpartition(".")]
            if source in stars and not name.startswith("_") and name not in bound]


def _own_names(module: cst.Module) -> frozenset[str]:
    """The names the module's top-level statements bind itself (functions, classes, assignments)."""
    found = {s.name.value for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
    return frozenset(found | {n.value for s in module.body if isinstance(s, cst.SimpleStatementLine) for a in s.body
                              if isinstance(a, cst.Assign) for t in a.targets for n in walk.nodes_of(t.target, cst.Name)})  # type: ignore[attr-defined]


def _inherited(rule: Any, kind: str) -> dict[str, frozenset[str]]:
    """{class of the module: what its bases in other modules of the run hold a `kind` value in} (through the module's
    own classes too: `class Mid(Base)`, `class Leaf(Mid)`)."""
    table = _facts(rule).get("members", {}).get(kind)
    if not table:
        return {}
    context = rule.context
    defined = [s for s in context.module.body if isinstance(s, cst.ClassDef)]
    if not defined:
        return {}
    imports = _module_imports(rule)
    own = {f"{context.module_name}.{c.name.value}": c.name.value for c in defined}
    bases: dict[str, list[str]] = {}
    for c in defined:
        for base in (dotted_name(a.value) for a in c.bases if a.keyword is None and not a.star):
            head, _, rest = base.partition(".")
            source = f"{context.module_name}.{head}" if not rest and head in {d.name.value for d in defined} else imports.get(head)
            if source:
                bases.setdefault(c.name.value, []).append(f"{source}.{rest}" if rest else source)
    found: dict[str, frozenset[str]] = {}

    def held(cls: str, seen: frozenset) -> set[str]:
        members: set[str] = set()
        for base in bases.get(cls, ()):
            if base in own and own[base] not in seen:
                members |= held(own[base], seen | {own[base]})
            elif base not in own:
                members.update(table.get(base, ()))
        return members

    for cls in bases:
        members = held(cls, frozenset({cls}))
        if members:
            found[cls] = frozenset(members)
    return found


def imported(rule: Any, kind: str = "matrix") -> _matrices.Imported:
    """What other modules of the run give the module that may be a NumPy matrix (`kind="matrix"`) or masked array
    (`"masked"`): see `_matrices.Imported`. Empty (at once) when the run holds none."""
    facts = _facts(rule)
    table = facts.get("names", {}).get(kind, {})
    members = _inherited(rule, kind) if facts.get("members", {}).get(kind) else {}
    if not table and not members:
        return _matrices.Imported()
    names: dict[str, str] = {}
    makers: set[str] = set()
    for local, qualified in [*_module_imports(rule).items(), *_starred(rule, table)] if table else ():
        what = table.get(qualified)
        if what == "name":
            names[local] = qualified
        elif what == "maker":
            makers.add(local)
    return _matrices.Imported(names, frozenset(makers), members)


def inherited_sparse(rule: Any) -> frozenset[str]:
    """The attributes (and properties) that base classes in other modules of the run bind to a SciPy sparse matrix,
    for the module's classes that derive from them (`sparse_data.sparse_attributes` counts them as the module's)."""
    return frozenset().union(*_inherited(rule, "sparse").values())
