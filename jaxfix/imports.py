"""Import bookkeeping: which local names reach `jax`, `jax.numpy` and `jax.lax`, and adding missing imports once.

Rules write replacements with the names from `ModuleImports` (`rule.jnp`, `rule.lax`, `rule.jax`) and list the
keys they used in `report(..., imports=("jnp",))`. After a pass the engine adds the imports that the applied fixes
need and that the module does not have yet, in the module's style:

- `jnp`  -> `import jax.numpy as jnp` (or the module's existing alias of `jax.numpy`);
- `jax`  -> `import jax`;
- `lax`  -> `from jax import lax` when the module already uses `from jax import ...`, else `import jax` and
  `jax.lax.<fn>` in the code.

A name the module binds to something else anywhere (a local `jnp = np.empty_like(jn)`, a parameter, a loop
target, `import numpy as jnp`) is not used for `jax.numpy`, `jax` or `lax`: the rewrite would read the local (an
`UnboundLocalError` in the function binding it). An existing alias so rebound is passed over for another one, or
a free name (`jnp_`), imported as `import jax.numpy as jnp_`.

New imports go just above the module's first NumPy import (isort order: jax < numpy), taking over the comments
above it; without one, after the last import of the module header, or after the docstring.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping, Optional, Sequence

import libcst as cst

from jaxfix import walk
from jaxfix.analysis import doctests


def dotted_name(node: cst.BaseExpression) -> str:
    """`a.b.c` for a Name/Attribute chain; "" for anything else (a call, a subscript)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base else ""
    return ""



def absolute_imports(module: cst.Module, keep: Callable[[str], bool]) -> dict[str, str]:
    """{local name: what it names, dotted} for the module's absolute imports (anywhere in it) of the dotted names
    `keep` accepts: `from a.b import c as d` -> d: a.b.c, `import a.b as e` -> e: a.b, and `import a.b` -> a: a
    (the name bound is the package's). Star and relative imports are left out."""
    names: dict[str, str] = {}
    for kind in (cst.Import, cst.ImportFrom):
        for node in walk.nodes_of(module, kind):
            aliases = node.names  # type: ignore[attr-defined]
            if isinstance(aliases, cst.ImportStar):
                continue
            source = dotted_name(node.module) if isinstance(node, cst.ImportFrom) and node.module is not None \
                and not node.relative else None  # type: ignore[attr-defined]
            if isinstance(node, cst.ImportFrom) and source is None:
                continue
            for alias in aliases:
                imported = dotted_name(alias.name)
                full = f"{source}.{imported}" if source is not None else imported
                if not keep(full):
                    continue
                if alias.asname is not None or source is not None:
                    names[alias.evaluated_alias or imported] = full
                else:  # `import concurrent.futures`: the name bound is `concurrent`
                    head = imported.split(".")[0]
                    names[head] = head
    return names


def _header_imports(module: cst.Module) -> list[tuple[int, cst.SimpleStatementLine]]:
    found = []
    for index, stmt in enumerate(module.body):
        if isinstance(stmt, cst.SimpleStatementLine) and any(
            isinstance(small, (cst.Import, cst.ImportFrom)) for small in stmt.body
        ):
            found.append((index, stmt))
    return found


@dataclass
class ModuleImports:
    """Names bound by the module's top-level imports, read once per pass."""

    jax_alias: Optional[str] = None  # `import jax` (as ...)
    jnp_alias: Optional[str] = None  # `import jax.numpy as jnp` / `from jax import numpy as jnp`
    lax_alias: Optional[str] = None  # `from jax import lax` / `import jax.lax as lax`
    from_jax_style: bool = False  # the module already writes `from jax import ...`
    numpy_aliases: dict[str, str] = field(default_factory=dict)  # local name -> qualified numpy name
    math_aliases: set[str] = field(default_factory=set)  # local names bound by `import math` / `from math import`
    jnp_aliases: list[str] = field(default_factory=list)  # every top-level alias of `jax.numpy`, in order
    jax_aliases: list[str] = field(default_factory=list)  # every top-level name bound to `jax` itself
    lax_aliases: list[str] = field(default_factory=list)  # every top-level alias of `jax.lax`
    rebound: frozenset[str] = frozenset()  # names among these (and the defaults) bound to something else somewhere
    bound: frozenset[str] = frozenset()  # every name the module binds, when some alias is rebound (to pick a free one)

    @classmethod
    def read(cls, module: cst.Module) -> "ModuleImports":
        info = cls()
        for _, stmt in _header_imports(module):
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    for alias in small.names:
                        dotted = dotted_name(alias.name)
                        local = alias.evaluated_alias
                        if dotted == "jax":
                            info.jax_alias = local or "jax"
                            info.jax_aliases.append(info.jax_alias)
                        elif dotted == "jax.numpy":
                            info.jnp_alias = local or "jax.numpy"
                            info.jnp_aliases.append(info.jnp_alias)
                            info.jax_alias = info.jax_alias or (None if local else "jax")
                            if not local:
                                info.jax_aliases.append("jax")
                        elif dotted == "jax.lax":
                            info.lax_alias = local or "jax.lax"
                            info.lax_aliases.append(info.lax_alias)
                        elif dotted == "math":
                            info.math_aliases.add(local or "math")
                        elif dotted == "numpy" or dotted.startswith("numpy."):
                            info.numpy_aliases[local or dotted.split(".")[0]] = dotted if local else "numpy"
                elif isinstance(small, cst.ImportFrom) and small.module is not None and small.relative == ():
                    mod = dotted_name(small.module)
                    if mod == "jax":
                        info.from_jax_style = True
                        if not isinstance(small.names, cst.ImportStar):
                            for alias in small.names:
                                local = alias.evaluated_alias or alias.evaluated_name
                                if alias.evaluated_name == "numpy":
                                    info.jnp_alias = local
                                    info.jnp_aliases.append(local)
                                elif alias.evaluated_name == "lax":
                                    info.lax_alias = local
                                    info.lax_aliases.append(local)
                    elif mod == "math" and not isinstance(small.names, cst.ImportStar):
                        info.math_aliases.update(a.evaluated_alias or a.evaluated_name for a in small.names)
                    elif (mod == "numpy" or mod.startswith("numpy.")) and not isinstance(small.names, cst.ImportStar):
                        for alias in small.names:
                            local = alias.evaluated_alias or alias.evaluated_name
                            info.numpy_aliases[local] = f"{mod}.{alias.evaluated_name}"
        candidates = {"jax", "jnp", "lax", *(a.split(".")[0] for a in (*info.jnp_aliases, *info.jax_aliases, *info.lax_aliases))}
        if walk.name_values(module) & candidates:
            bound = rebound_names(module)
            info.rebound = frozenset(bound & candidates)
            if info.rebound:
                info.bound = frozenset(bound)
        return info

    def _free(self, default: str) -> str:
        """`default`, or the first of `default_`, `default2`, ... that the module binds to nothing (a name it only
        reads is one an earlier pass wrote for the import it then added)."""
        if default not in self.rebound:
            return default
        for name in (f"{default}_", *(f"{default}{i}" for i in range(2, 100))):
            if name not in self.bound:
                return name
        raise RuntimeError(f"no free name for {default}")  # pragma: no cover - a hundred names taken

    def _kept(self, aliases: list[str], alias: Optional[str]) -> Optional[str]:
        """The existing alias to use (`alias`, the last one read), or when a name is rebound, the first of `aliases`
        whose name (its head, for `jax.numpy`) the module binds to nothing else."""
        if not self.rebound:
            return alias
        return next((a for a in aliases if a.split(".")[0] not in self.rebound), None)

    @property
    def jax(self) -> str:
        return self._kept(self.jax_aliases, self.jax_alias) or self._free("jax")

    @property
    def jnp(self) -> str:
        return self._kept(self.jnp_aliases, self.jnp_alias) or self._free("jnp")

    @property
    def _from_lax(self) -> bool:
        """A missing `lax` comes as `from jax import lax` (the module's style, and `lax` is free)."""
        return self.from_jax_style and "lax" not in self.rebound

    @property
    def lax(self) -> str:
        kept = self._kept(self.lax_aliases, self.lax_alias)
        if kept:
            return kept
        return "lax" if self._from_lax else f"{self.jax}.lax"

    def missing(self, keys: Iterable[str]) -> list[str]:
        """Import statements (as source lines) needed for `keys` and not present yet, in insertion order."""
        lines: list[str] = []
        wanted = set(keys)
        lax = self._kept(self.lax_aliases, self.lax_alias)
        if "lax" in wanted and not lax and not self._from_lax:
            wanted.add("jax")
        if "jax" in wanted and not self._kept(self.jax_aliases, self.jax_alias):
            jax = self.jax
            lines.append("import jax" if jax == "jax" else f"import jax as {jax}")
        if "jnp" in wanted and not self._kept(self.jnp_aliases, self.jnp_alias):
            lines.append(f"import jax.numpy as {self.jnp}")
        if "lax" in wanted and not lax and self._from_lax:
            lines.append("from jax import lax")
        return lines


_TARGETS = (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.NamedExpr)


def _target_names(target: cst.BaseExpression) -> Iterator[str]:
    """The plain names an assignment target binds (`a`, `a, (b, *c)`; not `x.a` nor `x[a]`)."""
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _target_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from _target_names(target.value)


def rebound_names(module: cst.Module) -> set[str]:
    """The names bound anywhere in `module`, in any scope, other than by an import of `jax`, `jax.numpy` or
    `jax.lax` (what `ModuleImports` reads as their aliases): assignment, loop and comprehension targets, `:=`,
    `with ... as`, `except ... as`, parameters, `def`/`class` names and the imports of anything else."""
    bound: set[str] = set()
    for kind in _TARGETS:
        for node in walk.nodes_of(module, kind):
            bound.update(_target_names(node.target))
    for item in walk.nodes_of(module, cst.WithItem):
        if item.asname is not None:
            bound.update(_target_names(item.asname.name))
    for handler in walk.nodes_of(module, cst.ExceptHandler):
        if handler.name is not None and isinstance(handler.name.name, cst.Name):
            bound.add(handler.name.name.value)
    for kind in (cst.Param, cst.FunctionDef, cst.ClassDef):
        bound.update(node.name.value for node in walk.nodes_of(module, kind))
    for node in walk.nodes_of(module, cst.Import):
        for alias in node.names:
            dotted = dotted_name(alias.name)
            if not (dotted == "jax" or dotted.startswith("jax.")):
                bound.add(alias.evaluated_alias or dotted.split(".")[0])
    for node in walk.nodes_of(module, cst.ImportFrom):
        if isinstance(node.names, cst.ImportStar):
            continue
        source = dotted_name(node.module) if node.module is not None and node.relative == () else None
        for alias in node.names:
            if not (source == "jax" and alias.evaluated_name in ("numpy", "lax")):
                bound.add(alias.evaluated_alias or alias.evaluated_name)
    return bound


def add_imports(module: cst.Module, lines: Sequence[str]) -> cst.Module:
    """Insert import lines (already known to be missing) at the conventional place."""
    if not lines:
        return module
    new_stmts = [cst.parse_statement(line + module.default_newline, config=module.config_for_parsing) for line in lines]
    body = list(module.body)
    header = _header_imports(module)
    # before the first `numpy` import, or the first `jax` import that sorts after the new lines (`import jax` goes
    # above an `import jax.numpy as jnp` that an earlier pass added)
    new_key = _import_key(new_stmts[0].body[0])  # type: ignore[attr-defined]
    numpy_first = next(
        (
            index
            for index, stmt in header
            if any(
                (key := _import_key(s)) is not None
                and (key.split(".")[0] == "numpy" or key.split(".")[0] == "jax" and new_key is not None and key > new_key)
                for s in stmt.body
            )
        ),
        None,
    )
    if numpy_first is not None:
        anchor = body[numpy_first]
        new_stmts[0] = new_stmts[0].with_changes(leading_lines=anchor.leading_lines)
        body[numpy_first] = anchor.with_changes(leading_lines=())
        body[numpy_first:numpy_first] = new_stmts
    elif header:
        # after the last import of the contiguous header (imports, docstring, __future__)
        last = header[0][0]
        for index, _ in header:
            if all(_is_header(stmt) for stmt in body[last:index]):
                last = index
        body[last + 1 : last + 1] = new_stmts
    else:
        position = 1 if body and _is_docstring(body[0]) else 0
        if position == 1 and len(body) > 1:
            # keep a blank line between the new imports and the code that follows
            body[1] = body[1].with_changes(leading_lines=body[1].leading_lines or [cst.EmptyLine()])
        elif position == 0 and body:
            body[0] = body[0].with_changes(leading_lines=[*body[0].leading_lines, cst.EmptyLine()])
            new_stmts[0] = new_stmts[0].with_changes(leading_lines=())
        body[position:position] = new_stmts
    return module.with_changes(body=body)


def _import_key(stmt: cst.CSTNode) -> Optional[str]:
    """The module an import statement names (`jax.numpy` for `import jax.numpy as jnp`, `jax` for
    `from jax import lax`), else None."""
    if isinstance(stmt, cst.Import):
        return dotted_name(stmt.names[0].name)
    if isinstance(stmt, cst.ImportFrom) and stmt.module is not None and not stmt.relative:
        return dotted_name(stmt.module)
    return None


def _is_docstring(stmt: cst.CSTNode) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _is_header(stmt: cst.CSTNode) -> bool:
    return _is_docstring(stmt) or (
        isinstance(stmt, cst.SimpleStatementLine)
        and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body)
    )


# Host-side modules whose imports a rewrite may leave unused (numpy calls -> jnp; math functions -> jnp).
REMOVABLE_MODULES = ("numpy", "math")


def bound_by_import(stmt: cst.CSTNode) -> Optional[set[str]]:
    """The names an import statement binds (None for any other statement)."""
    if not isinstance(stmt, cst.SimpleStatementLine) or not stmt.body:
        return None
    names: set[str] = set()
    for small in stmt.body:
        if isinstance(small, cst.Import):
            for alias in small.names:
                bound = alias.asname.name if alias.asname is not None else alias.name
                while isinstance(bound, cst.Attribute):
                    bound = bound.value
                if isinstance(bound, cst.Name):
                    names.add(bound.value)
        elif isinstance(small, cst.ImportFrom):
            if isinstance(small.names, cst.ImportStar):
                return None  # binds names we cannot list: treat like any other change
            for alias in small.names:
                bound = alias.asname.name if alias.asname is not None else alias.name
                if isinstance(bound, cst.Name):
                    names.add(bound.value)
        else:
            return None
    return names


def top_level_statements(module: cst.Module) -> list[cst.CSTNode]:
    """The module's top-level statements, and those in the bodies of its top-level `try` (its handlers, `else` and
    `finally` too) and `if` statements (their `elif` and `else` branches too: `try: import cupy as cp` / `except
    ImportError: ...`; `if _APY_LOADED: ... else: from astropy import units`, galpy's conversion)."""
    statements: list[cst.CSTNode] = list(module.body)
    for stmt in module.body:
        if isinstance(stmt, cst.Try):
            statements.extend(stmt.body.body)
            statements.extend(s for handler in stmt.handlers for s in handler.body.body)
            statements.extend(s for part in (stmt.orelse, stmt.finalbody) if part is not None for s in part.body.body)
        branch: Optional[cst.CSTNode] = stmt
        while isinstance(branch, cst.If):
            statements.extend(branch.body.body)
            branch = branch.orelse
            if isinstance(branch, cst.Else):
                statements.extend(branch.body.body)
    return statements


def top_level_import(module: cst.Module, libraries: Sequence[str], nested: bool = False) -> Optional[str]:
    """The first of `libraries` (dotted names) the module imports at top level, directly or in a top-level `try`/`if`
    (`import pandas as pd`, `from astropy import units`, `from pint import UnitRegistry`, `import autograd.numpy as
    anp`), or with `nested` anywhere, in functions too (`import pandas as pd` in the one function that takes a
    DataFrame: tslearn's `from_tsfresh_dataset`), else None."""
    if nested:
        smalls: Iterable[cst.CSTNode] = [*walk.nodes_of(module, cst.Import), *walk.nodes_of(module, cst.ImportFrom)]
    else:
        smalls = [small for stmt in top_level_statements(module)
                  for small in (stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ())]
    for small in smalls:
        names: list[str] = []
        if isinstance(small, cst.Import):
            names = [dotted_name(a.name) for a in small.names]
        elif isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative:
            base = dotted_name(small.module)
            aliases = small.names if not isinstance(small.names, cst.ImportStar) else ()
            names = [base, *(f"{base}.{dotted_name(a.name)}" for a in aliases)]
        for name in names:
            found = next((lib for lib in libraries if name == lib or name.startswith(lib + ".")), None)
            if found is not None:
                return found
    return None


# Libraries whose objects NumPy functions accept as arrays (through `__array__`, `__array_ufunc__` or
# `__array_function__`) and `jax.numpy` rejects or strips: a DataFrame or Series, a labelled or lazy array, an
# autograd box, a polynomial (numpoly's `ndpoly`, an `np.ndarray` subclass chaospy builds on: `jnp_array * poly`
# raises where NumPy's defers to the polynomial). In a module that imports one, any value may be such an object.
DATA_LIBRARIES = ("pandas", "polars", "xarray", "dask", "autograd", "cupy", "sparse", "numpoly", "chaospy")
# libraries whose arrays carry units through NumPy's `__array_ufunc__` / `__array_function__`, which `jax.numpy`
# ignores: a module that imports one may hand its functions such arrays
UNIT_LIBRARIES = ("astropy.units", "pint", "unyt", "quantities")

# The project key of `imported_names`'s index (beside the rules' codes in the project facts).
IMPORTS_KEY = "imports"
# `from M import a, b as c` / `from .m import (a, b)` at any indentation: the module and the imported names
_FROM_IMPORT = re.compile(rb"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|(?:[^\n#;\\]|\\\n)*)", re.M)
_IMPORTED_NAME = re.compile(rb"([A-Za-z_]\w*)(?:[ \t]+as[ \t]+\w+)?")
_HOST_NAMES: set[str] = set()


def imported_names(module_name: str, is_package: bool, data: bytes) -> dict[str, set[str]]:
    """{module: names} for what a file imports by name from other modules (`from .functions import where` in
    `pkg.geometry` gives {"pkg.functions": {"where"}}), keeping only names NumPy or `math` define: the only ones a
    rewrite may leave unused in the module that imported them first, which must then keep them for this file (the
    re-export). A pattern search over the bytes, at a small part of a parse's cost."""
    if not _HOST_NAMES:
        import numpy

        _HOST_NAMES.update(dir(numpy), dir(math))
    found: dict[str, set[str]] = {}
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    for match in _FROM_IMPORT.finditer(data):
        source = absolute_module(match.group(1).decode("ascii", "replace"), package)
        names = {m.group(1).decode("ascii") for m in _IMPORTED_NAME.finditer(match.group(2).strip(b"()"))}
        names = {n for n in names if n in _HOST_NAMES and n != "as"}
        if names and source:
            found.setdefault(source, set()).update(names)
    return found


def absolute_module(source: str, package: list[str]) -> str:
    """The absolute module of an import's `source` (`..util` in package `pkg.sub` is `pkg.util`); "" when it climbs
    out of the package."""
    level = len(source) - len(source.lstrip("."))
    if not level:
        return source
    if level - 1 >= len(package):
        return ""
    base = package[: len(package) - (level - 1)]
    return ".".join([*base, source[level:]] if source[level:] else base)


_PLAIN_IMPORT = re.compile(rb"^[ \t]*import[ \t]+((?:[^\n#;\\]|\\\n)*)", re.M)
_BOUND_AS = re.compile(rb"([A-Za-z_][\w.]*)(?:[ \t]+as[ \t]+([A-Za-z_]\w*))?")


def imported_bindings(module_name: str, is_package: bool, data: bytes) -> dict[str, str]:
    """{local name: what it is bound to} for the file's imports, at any depth (`from .util import to_bits as tb` in
    `pkg.coder` gives {"tb": "pkg.util.to_bits"}; `import pkg.util as u` gives {"u": "pkg.util"}; `import pkg.util`
    gives {"pkg": "pkg"}). A pattern search over the bytes, like `imported_names`."""
    found: dict[str, str] = {}
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    for match in _FROM_IMPORT.finditer(data):
        source = absolute_module(match.group(1).decode("ascii", "replace"), package)
        for bound in _BOUND_AS.finditer(match.group(2).strip(b"()")):
            name, alias = bound.group(1).decode("ascii", "replace"), bound.group(2)
            if source and name != "as" and "." not in name:
                found[alias.decode("ascii") if alias else name] = f"{source}.{name}"
    for match in _PLAIN_IMPORT.finditer(data):
        for bound in _BOUND_AS.finditer(match.group(1)):
            name, alias = bound.group(1).decode("ascii", "replace"), bound.group(2)
            if name != "as":  # (never over a from-import's binding: `from .util \` + `    import to_bits` also matches)
                found.setdefault(alias.decode("ascii") if alias else name.split(".")[0], name if alias else name.split(".")[0])
    return found


def star_sources(module_name: str, is_package: bool, data: bytes) -> list[str]:
    """The modules the file star-imports (`from .mats import *` in `pkg.model` gives ["pkg.mats"]), absolute. A
    pattern search over the bytes, like `imported_bindings`."""
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    return [source for match in _FROM_IMPORT.finditer(data) if match.group(2).strip(b"() \t") == b"*"
            for source in [absolute_module(match.group(1).decode("ascii", "replace"), package)] if source]


def link_imported_names(summaries: Iterable[Mapping[str, set[str]]]) -> dict[str, list[str]]:
    linked: dict[str, set[str]] = {}
    for summary in summaries:
        for source, names in summary.items():
            linked.setdefault(source, set()).update(names)
    return {source: sorted(names) for source, names in sorted(linked.items())}


def remove_unused_numpy_imports(
    module: cst.Module, previously_used: set[str], used: Optional[set[str]] = None, keep: Iterable[str] = ()
) -> cst.Module:
    """Drop top-level numpy import names that the rewrite left unused (never ones that were unused before, ones the
    module's `__all__` lists, ones its docstrings' examples read, which doctest runs in the module's namespace:
    `>>> np.allclose(v, [0, 0, 6])`, or `keep`: names other modules import from this one).
    `used`: `names_used(module)` when the caller already has it (the engine collects it during its last pass)."""
    if not previously_used:
        return module
    used = names_used(module) if used is None else used
    dead = {name for name in previously_used if name not in used} - _exported(module) - set(keep)
    if dead:
        dead -= doctests.names_read(module)
    if not dead:
        return module
    body = []
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            smalls = []
            for small in stmt.body:
                small = _without(small, dead)
                if small is not None:
                    smalls.append(small)
            if not smalls:
                continue
            if len(smalls) != len(stmt.body):
                smalls[-1] = smalls[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
            stmt = stmt.with_changes(body=smalls)
        body.append(stmt)
    return module.with_changes(body=body)


def _exported(module: cst.Module) -> set[str]:
    """The names the module's `__all__` lists (`__all__ = [...]`, `__all__ += [...]`): exported, so an import of one
    is in use even when no code of the module reads it (`from .core import *` re-exports it)."""
    names: set[str] = set()
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                targets = [t.target for t in small.targets]
            elif isinstance(small, (cst.AugAssign, cst.AnnAssign)):
                targets = [small.target]
            else:
                continue
            if any(isinstance(t, cst.Name) and t.value == "__all__" for t in targets) and isinstance(
                    small.value, (cst.List, cst.Tuple)):
                names.update(e.value.evaluated_value for e in small.value.elements
                             if isinstance(e.value, cst.SimpleString) and isinstance(e.value.evaluated_value, str))
    return names


def _without(small: cst.BaseSmallStatement, dead: set[str]) -> Optional[cst.BaseSmallStatement]:
    if isinstance(small, cst.Import):
        keep = [
            a
            for a in small.names
            if not (dotted_name(a.name).split(".")[0] in REMOVABLE_MODULES and (a.evaluated_alias or dotted_name(a.name).split(".")[0]) in dead)
        ]
    elif isinstance(small, cst.ImportFrom) and small.module is not None and not isinstance(small.names, cst.ImportStar):
        if dotted_name(small.module).split(".")[0] not in REMOVABLE_MODULES:
            return small
        keep = [a for a in small.names if (a.evaluated_alias or a.evaluated_name) not in dead]
    else:
        return small
    if not keep:
        return None
    names = list(small.names)
    if len(keep) == len(names):
        return small
    keep[-1] = keep[-1].with_changes(comma=names[-1].comma)  # a trailing comma and the line break before `)` stay
    return small.with_changes(names=keep)


class _NameCollector(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk.visit(node.value, self)  # `jnp.linalg` does not use a local name `linalg`
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


class NameCollector(cst.BatchableCSTVisitor):
    """`names_used` as a batched visitor, so the engine collects the names in a traversal it makes anyway."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()
        self._in_import = 0
        self._attrs: set[int] = set()

    def visit_Import(self, node: cst.Import) -> None:
        self._in_import += 1

    def leave_Import(self, original_node: cst.Import) -> None:
        self._in_import -= 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._in_import += 1

    def leave_ImportFrom(self, original_node: cst.ImportFrom) -> None:
        self._in_import -= 1

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._attrs.add(id(node.attr))  # `jnp.linalg` does not use a local name `linalg`

    def visit_Name(self, node: cst.Name) -> None:
        if not self._in_import and id(node) not in self._attrs:
            self.names.add(node.value)


def names_used(module: cst.Module) -> set[str]:
    """Every identifier the module mentions outside import statements."""
    collector = _NameCollector()
    walk.visit(module, collector)
    return collector.names


def numpy_names_in_use(module: cst.Module, imports: ModuleImports, used: Optional[set[str]] = None) -> set[str]:
    used = names_used(module) if used is None else used
    return {name for name in (*imports.numpy_aliases, *imports.math_aliases) if name in used}
