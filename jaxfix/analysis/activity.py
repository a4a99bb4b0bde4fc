"""Activity analysis: which names a piece of code reads, binds and mutates (syntactic, no control flow).

- reads: `Name` nodes evaluated as variables (not attribute names, keyword names, parameters, import names). Names
  read inside a nested function or lambda count as reads of the enclosing code unless bound there, because the
  closure reads them when it runs.
- writes: names bound (assignment targets, augmented assignment, `for` targets, `with ... as`, walrus, `del`,
  `import`, nested `def`/`class`, `except ... as`).
- mutates: names whose object is changed in place through a subscript or attribute target (`x[i] = v`,
  `x[i] += v`, `self.w = v`, `del x[i]`), and augmented assignments of a plain name (`x += v`), which NumPy performs
  in place on arrays.

Comprehension targets are local to the comprehension and are neither reads nor writes of the enclosing code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

import libcst as cst

from jaxfix import walk

COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


@dataclass
class Activity:
    reads: list[cst.Name] = field(default_factory=list)
    writes: set[str] = field(default_factory=set)
    mutates: set[str] = field(default_factory=set)
    declared_global: set[str] = field(default_factory=set)

    @property
    def read_names(self) -> frozenset[str]:
        return frozenset(n.value for n in self.reads)


def root_name(node: cst.BaseExpression) -> Union[str, None]:
    """`x` for `x`, `x.a`, `x[i]`, `x.a[i].b`."""
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


class _Collector(walk.ValueReader):
    def __init__(self, activity: Activity) -> None:
        super().__init__()
        self.a = activity

    # ---- targets ------------------------------------------------------------------------------------------------
    def target(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Name):
            self.a.writes.add(node.value)
        elif isinstance(node, (cst.Tuple, cst.List)):
            for element in node.elements:
                self.target(element.value)
        elif isinstance(node, cst.StarredElement):
            self.target(node.value)
        elif isinstance(node, (cst.Subscript, cst.Attribute)):
            walk.visit(node.value, self)
            if isinstance(node, cst.Subscript):
                for element in node.slice:
                    walk.visit(element, self)
            root = root_name(node)
            if root is not None:
                self.a.mutates.add(root)
        else:
            walk.visit(node, self)

    # ---- expressions --------------------------------------------------------------------------------------------
    def visit_Name(self, node: cst.Name) -> None:
        self.a.reads.append(node)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> bool:
        walk.visit(node.value, self)
        self.target(node.target)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        self._closure(node.params, node.body)
        return False

    def _closure(self, params: cst.Parameters, body: cst.CSTNode, own: set[str] | None = None) -> None:
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            if param.default is not None:
                walk.visit(param.default, self)
        inner = analyse(body)
        bound = inner.writes | set(_param_names(params)) | (own or set())
        self.a.reads.extend(n for n in inner.reads if n.value not in bound)

    def _comprehension(self, node: cst.CSTNode, parts: list[cst.CSTNode]) -> None:
        inner = Activity()
        collector = _Collector(inner)
        targets: set[str] = set()
        clause = node.for_in  # type: ignore[attr-defined]
        first = True
        while clause is not None:
            if first:
                walk.visit(clause.iter, self)  # evaluated in the enclosing scope
                first = False
            else:
                walk.visit(clause.iter, collector)
            target_activity = Activity()
            _Collector(target_activity).target(clause.target)
            targets |= target_activity.writes
            for cond in clause.ifs:
                walk.visit(cond, collector)
            clause = clause.inner_for_in
        for part in parts:
            walk.visit(part, collector)
        self.a.reads.extend(n for n in inner.reads if n.value not in targets)

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        self._comprehension(node, [node.elt])
        return False

    visit_SetComp = visit_ListComp  # type: ignore[assignment]

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        self._comprehension(node, [node.elt])
        return False

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        self._comprehension(node, [node.key, node.value])
        return False

    # ---- statements ---------------------------------------------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> bool:
        walk.visit(node.value, self)
        for target in node.targets:
            self.target(target.target)
        return False

    def visit_AnnAssign(self, node: cst.AnnAssign) -> bool:
        if node.value is not None:
            walk.visit(node.value, self)
            self.target(node.target)
        return False

    def visit_AugAssign(self, node: cst.AugAssign) -> bool:
        walk.visit(node.value, self)
        if isinstance(node.target, cst.Name):
            self.a.reads.append(node.target)
            self.a.writes.add(node.target.value)
            self.a.mutates.add(node.target.value)
        else:
            self.target(node.target)
        return False

    def visit_Del(self, node: cst.Del) -> bool:
        self.target(node.target)
        return False

    def visit_For(self, node: cst.For) -> bool:
        walk.visit(node.iter, self)
        self.target(node.target)
        walk.visit(node.body, self)
        if node.orelse is not None:
            walk.visit(node.orelse, self)
        return False

    def visit_WithItem(self, node: cst.WithItem) -> bool:
        walk.visit(node.item, self)
        if node.asname is not None:
            self.target(node.asname.name)
        return False

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> bool:
        if node.type is not None:
            walk.visit(node.type, self)
        if node.name is not None:
            self.target(node.name.name)
        walk.visit(node.body, self)
        return False

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            self.a.writes.add(alias.evaluated_alias or alias.evaluated_name.split(".")[0])
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                self.a.writes.add(alias.evaluated_alias or alias.evaluated_name)
        return False

    def visit_Global(self, node: cst.Global) -> bool:
        self.a.declared_global.update(item.name.value for item in node.names)
        return False

    def visit_Nonlocal(self, node: cst.Nonlocal) -> bool:
        self.a.declared_global.update(item.name.value for item in node.names)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for decorator in node.decorators:
            walk.visit(decorator.decorator, self)
        self._closure(node.params, node.body, {node.name.value})
        self.a.writes.add(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        for decorator in node.decorators:
            walk.visit(decorator.decorator, self)
        for arg in (*node.bases, *node.keywords):
            walk.visit(arg.value, self)
        self.a.writes.add(node.name.value)
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        return False


def _param_names(params: cst.Parameters) -> list[str]:
    names = [p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.append(star.name.value)
    return names


def parameter_names(function: cst.FunctionDef) -> list[str]:
    return _param_names(function.params)


def analyse(node: Union[cst.CSTNode, list]) -> Activity:
    """The activity of a node, or of a list of statements."""
    activity = Activity()
    collector = _Collector(activity)
    for item in node if isinstance(node, (list, tuple)) else [node]:
        walk.visit(item, collector)
    return activity
