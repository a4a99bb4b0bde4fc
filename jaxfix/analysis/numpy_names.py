"""Which expressions name a NumPy object, and which one: `np.linalg.norm` -> "numpy.linalg.norm".

Resolution follows the module's top-level imports (`import numpy as np`, `import numpy.linalg as la`,
`from numpy import dot, zeros as z`). Every Name and Attribute on a NumPy chain gets its qualified name, so a rule
can ask about a call's `func` directly. Names shadowed by a function parameter or a local assignment of the same
name are not resolved (a local `np = ...` is not NumPy).
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
from libcst.metadata import BatchableMetadataProvider

from jaxfix.imports import ModuleImports


class NumpyNameProvider(BatchableMetadataProvider[str]):
    def __init__(self) -> None:
        super().__init__()
        self._aliases: dict[str, str] = {}
        self._shadowed: list[set[str]] = []

    def visit_Module(self, node: cst.Module) -> None:
        self._aliases = ModuleImports.read(node).numpy_aliases

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        params = node.params
        names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                names.add(star.name.value)
        self._shadowed.append({n for n in names if n in self._aliases})

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._shadowed.pop()

    def _resolve(self, node: cst.BaseExpression) -> Optional[str]:
        if isinstance(node, cst.Name):
            if any(node.value in s for s in self._shadowed):
                return None
            return self._aliases.get(node.value)
        if isinstance(node, cst.Attribute):
            base = self._resolve(node.value)
            return f"{base}.{node.attr.value}" if base else None
        return None

    def visit_Name(self, node: cst.Name) -> None:
        qualified = self._resolve(node)
        if qualified:
            self.set_metadata(node, qualified)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        qualified = self._resolve(node)
        if qualified:
            self.set_metadata(node, qualified)


def numpy_name(rule: cst.MetadataDependent, node: cst.CSTNode) -> Optional[str]:
    """The qualified NumPy name of `node`, or None (for rules that list NumpyNameProvider)."""
    return rule.get_metadata(NumpyNameProvider, node, None)
